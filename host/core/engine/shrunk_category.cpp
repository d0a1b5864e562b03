// Matching a shrunk input against the parts of the polyglot it came from.
#include "engine/shrunk_category.hpp"

#include <vector>

#include "engine/input_shrink.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// The texts of a value that may carry a trigger: its string leaves, member names and
// `$bytes` contents, depth first.
void collect_texts(const json &value, std::vector<std::string> &texts) {
    if (const auto bytes = bytes_of(value)) {
        texts.push_back(*bytes);
        return;
    }
    if (value.is_string()) {
        const auto &text = value.get_ref<const std::string &>();
        texts.push_back(text);
        // A document held as text: its leaves count too.
        const json document = json::parse(text, nullptr, false);
        if (!document.is_discarded() && document.is_structured()) {
            collect_texts(document, texts);
        }
        return;
    }
    if (value.is_object()) {
        for (const auto &[name, member] : value.items()) {
            texts.push_back(name);
            collect_texts(member, texts);
        }
    } else if (value.is_array()) {
        for (const auto &element : value) {
            collect_texts(element, texts);
        }
    }
}

}  // namespace

std::string shrunk_category(const json &meta_entry, const json &shrunk_value) {
    const auto parts = meta_entry.is_object() ? meta_entry.find("parts") : meta_entry.end();
    if (!meta_entry.is_object() || parts == meta_entry.end() || !parts->is_object()) {
        return "";
    }
    std::vector<std::string> texts;
    collect_texts(shrunk_value, texts);
    std::string best;
    size_t best_size = 0;
    for (const auto &[name, part] : parts->items()) {
        const auto bytes = bytes_of(part);
        if (!bytes && !part.is_string()) {
            continue;
        }
        const std::string &text = bytes ? *bytes : part.get_ref<const std::string &>();
        for (const auto &shrunk : texts) {
            if (!shrunk.empty() && text.find(shrunk) != std::string::npos) {
                if (best.empty() || text.size() < best_size) {
                    best = name;
                    best_size = text.size();
                }
                break;
            }
        }
    }
    return best;
}

}  // namespace sbx::engine
