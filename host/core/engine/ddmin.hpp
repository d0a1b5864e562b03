// Delta debugging (Zeller and Hildebrandt's ddmin): the smallest part of a sequence that
// still makes a test fail, found by removing chunks — halves first, then ever finer ones
// down to single items. The result is 1-minimal: removing any one item makes the failure
// go away (unless the test's budget ran out first: it throws, and the caller keeps the
// last failing sequence it saw).
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

namespace sbx::engine {

// `fails(items)`: true when the sequence still fails the same way. Returns a sub-sequence
// (items in their order) for which `fails` held, or `items` itself when no removal did;
// the empty sequence is never tried (the caller tries the simplest value first).
template <class T>
std::vector<T> ddmin(std::vector<T> items,
                     const std::function<bool(const std::vector<T> &)> &fails) {
    size_t granularity = 2;
    while (items.size() >= 2) {
        granularity = std::min(granularity, items.size());
        // Chunk k covers [bounds[k], bounds[k + 1]): sizes differ by at most one.
        std::vector<size_t> bounds;
        for (size_t k = 0; k <= granularity; ++k) {
            bounds.push_back(items.size() * k / granularity);
        }
        const auto chunk = [&](size_t k) {
            return std::vector<T>(items.begin() + static_cast<std::ptrdiff_t>(bounds[k]),
                                  items.begin() + static_cast<std::ptrdiff_t>(bounds[k + 1]));
        };
        const auto complement = [&](size_t k) {
            std::vector<T> rest(items.begin(),
                                items.begin() + static_cast<std::ptrdiff_t>(bounds[k]));
            rest.insert(rest.end(), items.begin() + static_cast<std::ptrdiff_t>(bounds[k + 1]),
                        items.end());
            return rest;
        };
        bool reduced = false;
        // A chunk alone: the failure lives in it (a single trigger is found in about
        // log2(n) tests this way). At granularity 2 a chunk is also a complement: skip it.
        for (size_t k = 0; k < granularity && granularity > 2 && !reduced; ++k) {
            auto candidate = chunk(k);
            if (fails(candidate)) {
                items = std::move(candidate);
                granularity = 2;
                reduced = true;
            }
        }
        // Everything but a chunk: that chunk was not needed.
        for (size_t k = 0; k < granularity && !reduced; ++k) {
            auto candidate = complement(k);
            if (fails(candidate)) {
                items = std::move(candidate);
                granularity = std::max<size_t>(granularity - 1, 2);
                reduced = true;
            }
        }
        if (!reduced) {
            if (granularity >= items.size()) {
                break;  // every single item is needed: 1-minimal
            }
            granularity = std::min(items.size(), granularity * 2);
        }
    }
    return items;
}

}  // namespace sbx::engine
