// Loading the hostile payload catalogue: validation with errors that name the file and
// entry, generator expansion, and the interleaved per-kind orders.
#include "catalogue.hpp"

#include <sbx/bytes_value.hpp>

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
constexpr std::size_t kMaxGeneratedBytes = std::size_t{16} * 1024 * 1024;

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

// A value as the file spells it: its bytes, and its JSON number text when it is a number.
struct RawValue {
    std::string bytes;
    std::string number;  // "" unless the value is a JSON number
};

RawValue read_value(const json &entry) {
    const int forms = static_cast<int>(entry.contains("value")) +
                      static_cast<int>(entry.contains("generate")) +
                      static_cast<int>(entry.contains("bytes"));
    if (forms != 1) {
        throw EntryError("needs exactly one of 'value', 'generate' and 'bytes'");
    }
    if (entry.contains("generate")) {
        return {expand(entry["generate"]), ""};
    }
    if (entry.contains("bytes")) {
        const json &text = entry["bytes"];
        const auto bytes = text.is_string()
                               ? sbx::base64_decode(text.get_ref<const std::string &>())
                               : std::nullopt;
        if (!bytes) {
            throw EntryError("'bytes' must be standard base64 text (RFC 4648, padded)");
        }
        return {*bytes, ""};
    }
    const json &value = entry["value"];
    if (value.is_number()) {
        // The number's own JSON text, so 2^63 stays exact in both forms.
        return {value.dump(), value.dump()};
    }
    if (!value.is_string()) {
        throw EntryError("'value' must be a string or a number");
    }
    RawValue raw{value.get<std::string>(), ""};
    if (entry.value("number", false)) {
        // Numbers beyond a double (99999999999999999999) keep every digit this way.
        json parsed;
        try {
            parsed = json::parse(raw.bytes);
        } catch (const json::exception &) {
        }
        if (!parsed.is_number()) {
            throw EntryError("'number: true' needs a value that spells a JSON number");
        }
        raw.number = raw.bytes;
    }
    return raw;
}

bool valid_utf8(const std::string &bytes) {
    try {
        (void)json(bytes).dump();
        return true;
    } catch (const json::type_error &) {
        return false;
    }
}

// The value of `bytes` in a JSON document: a string, or a `$bytes` value when a JSON string
// cannot hold them.
json value_of(const std::string &bytes) {
    if (valid_utf8(bytes)) {
        return bytes;
    }
    return json{{std::string(sbx::kBytesKey), sbx::base64_encode(bytes)}};
}

std::string non_empty_string(const json &entry, const char *key) {
    const auto it = entry.find(key);
    if (it == entry.end() || !it->is_string() || it->get_ref<const std::string &>().empty()) {
        throw EntryError(std::string("'") + key + "' must be a non-empty string");
    }
    return it->get<std::string>();
}

// {"text": 1, "json": 3, "number": 2}: the payload's rank in each kind's first-tried list.
std::array<std::size_t, kSlotKinds> first_ranks(const json &entry) {
    std::array<std::size_t, kSlotKinds> ranks{};
    const auto it = entry.find("first");
    if (it == entry.end()) {
        return ranks;
    }
    if (!it->is_object()) {
        throw EntryError("'first' must map text, json or number to a rank (1, 2, ...)");
    }
    for (const auto &[kind, rank] : it->items()) {
        const std::size_t at = kind == "text" ? 0 : kind == "number" ? 1 : kind == "json" ? 2 : 3;
        if (at == 3 || !rank.is_number_unsigned() || rank.get<uint64_t>() == 0 ||
            rank.get<uint64_t>() > 1000000) {
            throw EntryError("'first' must map text, json or number to a rank (1, 2, ...); '" +
                             kind + "' is not one");
        }
        ranks[at] = static_cast<std::size_t>(rank.get<uint64_t>());
    }
    return ranks;
}

}  // namespace

SlotKind slot_kind(std::string_view slot_type) {
    if (slot_type == "int" || slot_type == "float") {
        return SlotKind::number;
    }
    // A list is a JSON array: its items take hostile strings as a document's leaves do.
    if (slot_type == "json" || slot_type == "list") {
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
            Payload payload;
            payload.category = non_empty_string(entry, "category");
            payload.index = payloads_.size();
            payload.first = first_ranks(entry);
            json meta{{"category", payload.category}, {"payload_index", payload.index}};
            RawValue raw;
            std::vector<std::string> part_categories;
            if (entry.contains("parts")) {
                // A polyglot: its parts' values one after the other, each part's category
                // kept in the meta so a failure can be traced back to the part it needed.
                const json &parts = entry["parts"];
                if (!parts.is_array() || parts.empty() || entry.contains("value") ||
                    entry.contains("generate") || entry.contains("bytes")) {
                    throw EntryError("'parts' must be a non-empty list, instead of a value");
                }
                std::map<std::string, std::string> by_category;
                for (std::size_t k = 0; k < parts.size(); ++k) {
                    try {
                        if (!parts[k].is_object()) {
                            throw EntryError("must be an object");
                        }
                        const std::string category = non_empty_string(parts[k], "category");
                        const std::string bytes = read_value(parts[k]).bytes;
                        raw.bytes += bytes;
                        if (by_category.count(category) == 0) {
                            part_categories.push_back(category);
                        }
                        by_category[category] += bytes;
                    } catch (const EntryError &e) {
                        throw EntryError("parts[" + std::to_string(k) + "]: " + e.what());
                    }
                }
                json described = json::object();
                for (const auto &[category, bytes] : by_category) {
                    described[category] = value_of(bytes);
                }
                meta["parts"] = described;
            } else {
                raw = read_value(entry);
            }
            check_size(1, raw.bytes.size(), 0);
            payload.as_text = value_of(raw.bytes).dump();
            payload.numeric = !raw.number.empty();
            payload.as_number = payload.numeric ? raw.number : payload.as_text;
            const auto as = entry.find("as");
            if (as != entry.end() && *as != "document") {
                throw EntryError("'as' can only be \"document\"");
            }
            payload.document = as != entry.end() || payload.category == "malformed_json";
            payload.meta = meta.dump();
            meta["embedded"] = true;
            payload.meta_embedded = meta.dump();
            payloads_.push_back(std::move(payload));
            part_categories_.push_back(std::move(part_categories));
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
    // Number slots take numbers; json slots take every payload (broken documents as they
    // are, the rest embedded in a valid one); text slots take everything.
    const auto accepts = [](SlotKind kind, const std::string &category) {
        return kind != SlotKind::number || category == "numeric_extremes";
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
        const auto k = static_cast<std::size_t>(kind);
        auto &rest = rests_[k];
        rest.clear();
        for (std::size_t round = 0; round < largest; ++round) {
            for (std::size_t c = 0; c < by_category.size(); ++c) {
                if (accepts(kind, categories_[c])) {
                    rest.push_back(by_category[c][round % by_category[c].size()]);
                }
            }
        }
        // A user catalogue may lack the categories a kind prefers; then it takes any.
        if (rest.empty()) {
            rest = rests_[static_cast<std::size_t>(SlotKind::text)];
        }
        auto &first = firsts_[k];
        first.clear();
        for (const Payload &payload : payloads_) {
            if (payload.first[k] != 0) {
                first.push_back(payload.index);
            }
        }
        std::stable_sort(first.begin(), first.end(), [&](std::size_t a, std::size_t b) {
            return payloads_[a].first[k] < payloads_[b].first[k];
        });
        // What a slot of this kind can meet, each category once, in catalogue order.
        std::vector<bool> seen(payloads_.size(), false);
        for (const std::size_t index : first) {
            seen[index] = true;
        }
        for (const std::size_t index : rest) {
            seen[index] = true;
        }
        auto &reachable = reachable_[k];
        reachable.clear();
        const auto add = [&](const std::string &category) {
            if (std::find(reachable.begin(), reachable.end(), category) == reachable.end()) {
                reachable.push_back(category);
            }
        };
        for (const Payload &payload : payloads_) {
            if (seen[payload.index]) {
                add(payload.category);
                for (const std::string &part : part_categories_[payload.index]) {
                    add(part);
                }
            }
        }
    }
}

}  // namespace sbx_hostile
