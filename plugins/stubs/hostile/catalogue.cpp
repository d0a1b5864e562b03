// Loading the hostile payload catalogue: validation with errors that name the file and
// entry, generator expansion, and the interleaved per-kind orders.
#include "catalogue.hpp"

#include <algorithm>

#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace sbx_hostile {
namespace {

using nlohmann::json;

// A user file must not make the plugin allocate without bound; the built-in maximum is
// 1 MiB, so 16 MiB leaves room without risking the host's memory.
constexpr std::size_t kMaxGeneratedBytes = 16U * 1024U * 1024U;

class EntryError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

std::size_t bounded_count(const json &spec, const char *key) {
    const auto it = spec.find(key);
    if (it == spec.end() || !it->is_number_unsigned()) {
        throw EntryError(std::string("generate.") + key + " must be a non-negative integer");
    }
    const auto value = it->get<uint64_t>();
    if (value > kMaxGeneratedBytes) {
        throw EntryError(std::string("generate.") + key + " exceeds " +
                         std::to_string(kMaxGeneratedBytes));
    }
    return static_cast<std::size_t>(value);
}

std::string text_field(const json &spec, const char *key, bool required) {
    const auto it = spec.find(key);
    if (it == spec.end()) {
        if (required) {
            throw EntryError(std::string("generate.") + key + " is missing");
        }
        return "";
    }
    if (!it->is_string()) {
        throw EntryError(std::string("generate.") + key + " must be a string");
    }
    return it->get<std::string>();
}

void check_size(std::size_t unit, std::size_t times, std::size_t extra) {
    if (unit != 0 && times > (kMaxGeneratedBytes - extra) / unit) {
        throw EntryError("generated payload would exceed " + std::to_string(kMaxGeneratedBytes) +
                         " bytes");
    }
}

// {repeat, times, prefix?, suffix?}: long strings and huge numbers.
// {nest: [open, close], depth, core?}: deep nesting without a deep file.
std::string expand(const json &spec) {
    if (!spec.is_object()) {
        throw EntryError("generate must be an object");
    }
    if (spec.contains("repeat")) {
        const std::string unit = text_field(spec, "repeat", true);
        const std::size_t times = bounded_count(spec, "times");
        const std::string prefix = text_field(spec, "prefix", false);
        const std::string suffix = text_field(spec, "suffix", false);
        check_size(unit.size(), times, std::min(kMaxGeneratedBytes, prefix.size() + suffix.size()));
        std::string out;
        out.reserve(prefix.size() + unit.size() * times + suffix.size());
        out += prefix;
        for (std::size_t i = 0; i < times; ++i) {
            out += unit;
        }
        return out + suffix;
    }
    if (spec.contains("nest")) {
        const json &nest = spec["nest"];
        if (!nest.is_array() || nest.size() != 2 || !nest[0].is_string() || !nest[1].is_string()) {
            throw EntryError("generate.nest must be [open, close] strings");
        }
        const auto open = nest[0].get<std::string>();
        const auto close = nest[1].get<std::string>();
        const std::size_t depth = bounded_count(spec, "depth");
        const std::string core = text_field(spec, "core", false);
        check_size(open.size() + close.size(), depth, std::min(kMaxGeneratedBytes, core.size()));
        std::string out;
        out.reserve((open.size() + close.size()) * depth + core.size());
        for (std::size_t i = 0; i < depth; ++i) {
            out += open;
        }
        out += core;
        for (std::size_t i = 0; i < depth; ++i) {
            out += close;
        }
        return out;
    }
    throw EntryError("generate needs 'repeat' or 'nest'");
}

std::string json_string(const std::string &text) {
    return json(text).dump();
}

}  // namespace

SlotKind slot_kind(std::string_view slot_type) {
    if (slot_type == "int" || slot_type == "float") {
        return SlotKind::number;
    }
    if (slot_type == "json") {
        return SlotKind::json;
    }
    return SlotKind::text;
}

void Catalogue::add_document(std::string_view text, const std::string &source) {
    const std::string where = "hostile: payload file '" + source + "': ";
    json document;
    try {
        document = json::parse(text.begin(), text.end());
    } catch (const json::exception &e) {
        throw std::runtime_error(where + "not valid JSON: " + e.what());
    }
    if (!document.is_object() || !document.contains("payloads") ||
        !document["payloads"].is_array()) {
        throw std::runtime_error(where + "expected an object with a \"payloads\" array");
    }
    const json &entries = document["payloads"];
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const json &entry = entries[i];
        try {
            if (!entry.is_object()) {
                throw EntryError("must be an object");
            }
            const auto category = entry.find("category");
            if (category == entry.end() || !category->is_string() ||
                category->get_ref<const std::string &>().empty()) {
                throw EntryError("'category' must be a non-empty string");
            }
            Payload payload;
            payload.category = category->get<std::string>();
            payload.index = payloads_.size();
            const bool has_value = entry.contains("value");
            if (has_value == entry.contains("generate")) {
                throw EntryError("needs exactly one of 'value' and 'generate'");
            }
            if (!has_value) {
                payload.as_text = json_string(expand(entry["generate"]));
                payload.as_number = payload.as_text;
            } else if (entry["value"].is_string()) {
                payload.as_text = entry["value"].dump();
                payload.as_number = payload.as_text;
            } else if (entry["value"].is_number()) {
                // The number's own JSON text, so 2^63 stays exact in both forms.
                payload.as_number = entry["value"].dump();
                payload.as_text = json_string(payload.as_number);
            } else {
                throw EntryError("'value' must be a string or a number");
            }
            payload.meta =
                json{{"category", payload.category}, {"payload_index", payload.index}}.dump();
            payloads_.push_back(std::move(payload));
        } catch (const EntryError &e) {
            throw std::runtime_error(where + "payloads[" + std::to_string(i) + "]: " + e.what());
        }
    }
}

void Catalogue::add_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("hostile: payload file '" + path + "': cannot be opened");
    }
    std::ostringstream bytes;
    bytes << in.rdbuf();
    add_document(bytes.str(), path);
}

void Catalogue::finish() {
    // Group by category in order of first appearance, then deal round-robin: a short batch
    // still spreads over every category instead of exhausting the first one.
    std::map<std::string, std::size_t> rank;
    std::vector<std::vector<std::size_t>> by_category;
    categories_.clear();
    for (const Payload &payload : payloads_) {
        const auto [it, inserted] = rank.emplace(payload.category, by_category.size());
        if (inserted) {
            categories_.push_back(payload.category);
            by_category.emplace_back();
        }
        by_category[it->second].push_back(payload.index);
    }
    const auto accepts = [](SlotKind kind, const std::string &category) {
        switch (kind) {
            case SlotKind::number:
                return category == "numeric_extremes";
            case SlotKind::json:
                return category == "malformed_json" || category == "oversized";
            case SlotKind::text:
                break;
        }
        return true;
    };
    // Rounds cycle every category through its payloads until the largest one is dealt, so
    // any window of as many sets as there are categories meets each category: a seed that
    // starts late never lands in a tail of only the biggest categories. Payloads of small
    // categories come round more often; the order is the same for a given catalogue.
    std::size_t largest = 0;
    for (const auto &indices : by_category) {
        largest = std::max(largest, indices.size());
    }
    for (const SlotKind kind : {SlotKind::text, SlotKind::number, SlotKind::json}) {
        auto &order = orders_[static_cast<std::size_t>(kind)];
        order.clear();
        for (std::size_t round = 0; round < largest; ++round) {
            for (std::size_t c = 0; c < by_category.size(); ++c) {
                if (accepts(kind, categories_[c])) {
                    order.push_back(by_category[c][round % by_category[c].size()]);
                }
            }
        }
        // A user catalogue may lack the categories a kind prefers; then it takes any.
        if (order.empty()) {
            order = orders_[static_cast<std::size_t>(SlotKind::text)];
        }
    }
}

}  // namespace sbx_hostile
