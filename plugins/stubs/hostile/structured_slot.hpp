// The input sets of one `json` slot with an example: the example's own structure, edited.
// Real input bugs mostly need a valid document with one field changed (a flag flipped, a
// count of 0, a null as the last element), which a payload in every string never makes.
//
// The order (plugins/stubs/hostile/README.md says it for users):
//   1. the first-tried sets: each payload of the json first-tried list in one string of the
//      example (string j mod S of set j), with about half of the other places carrying
//      their next type-keeping edit, so that 13 sets already try every place a few ways
//      and most combinations of two places; a whole-document payload (the empty document,
//      10,000 brackets, a broken document) is sent as it is;
//   2. then, three sets in four: every single edit, most potent first (the first edit of
//      every place, then the second of every place, ...), type-changing ones included;
//      then pairs of type-keeping edits. The fourth set: a payload of the rest of the
//      catalogue in every string of the example.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catalogue.hpp"
#include "document_edits.hpp"

namespace sbx_hostile {

class StructuredSlot {
  public:
    // `example`: the slot's example (or default) parsed; null when it has none (the stub
    // then embeds payloads as before). `words`: the program's own strings.
    StructuredSlot(const nlohmann::ordered_json &example, const std::vector<std::string> &words);

    // Writes sets [0, count): each slot value (JSON text: the document as a string, or a
    // `$bytes` value when a payload put bytes that are not UTF-8 in it) and its meta.
    // `pick(j)`: the catalogue index of the payload the stub's order gives set j.
    template <class Pick>
    void plan(const Catalogue &catalogue, uint64_t count, Pick pick) {
        begin(count);
        for (uint64_t j = 0; j < count; ++j) {
            add(catalogue, j, catalogue.payloads()[pick(j)]);
        }
    }

    [[nodiscard]] const std::string &value(uint64_t j) const { return values_[j]; }
    [[nodiscard]] const std::string &meta(uint64_t j) const { return metas_[j]; }

  private:
    using Edits = std::vector<const DocumentEdit *>;

    void begin(uint64_t count);
    void add(const Catalogue &catalogue, uint64_t j, const Payload &payload);
    [[nodiscard]] Edits packed(std::size_t payload_leaf);
    [[nodiscard]] Edits sequence(uint64_t k);
    void finish(const std::string &document, std::string meta);

    DocumentEdits document_;
    std::vector<std::size_t> strings_;      // string leaves payloads go to, in that order
    std::vector<std::size_t> packable_;     // every other node with a type-keeping edit
    std::vector<std::size_t> packed_seen_;  // per packable node: sets that edited it so far
    uint64_t packed_sets_ = 0;              // packed sets made so far
    std::vector<const DocumentEdit *> singles_;
    std::vector<const DocumentEdit *> keeping_;  // singles that keep types: pair material
    std::size_t pair_b_ = 1;                     // the pair walk: (a, b), a < b
    std::size_t pair_a_ = 0;
    std::vector<std::string> values_;
    std::vector<std::string> metas_;
};

}  // namespace sbx_hostile
