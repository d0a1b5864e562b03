// The four drifts a legacy producer shows a newer consumer: a field under an old name, a
// field it never sent, a field of another type, and a field the consumer does not know.
#include "drift.hpp"

#include <cctype>
#include <iterator>
#include <string>
#include <vector>

namespace sbx_legacy {
namespace {

using nlohmann::json;

const char *const kChanges[] = {"renamed", "dropped", "retyped", "added"};

std::string type_name(const json &value) {
    if (value.is_number_integer()) {
        return "integer";
    }
    if (value.is_number_float()) {
        return "float";
    }
    return value.type_name();  // string, boolean, null, object, array
}

// A name not yet used in `object`: `base`, else base_2, base_3, ...
std::string unused_name(const json &object, const std::string &base) {
    std::string name = base;
    for (int n = 2; object.contains(name); ++n) {
        name = base + "_" + std::to_string(n);
    }
    return name;
}

std::string snake_case(const std::string &name) {
    std::string out;
    for (char c : name) {
        if (std::isupper(static_cast<unsigned char>(c)) != 0) {
            out += '_';
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else {
            out += c;
        }
    }
    return out;
}

std::string camel_case(const std::string &name) {
    std::string out;
    bool upper = false;
    for (char c : name) {
        if (c == '_' && !out.empty()) {
            upper = true;
        } else {
            out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
            upper = false;
        }
    }
    return out;
}

// The names an older schema plausibly used: the other casing, or an old_/_v1 form.
std::string legacy_name(const json &object, const std::string &field, Rng &rng) {
    std::vector<std::string> candidates;
    for (const std::string &other : {camel_case(field), snake_case(field)}) {
        if (other != field && !other.empty()) {
            candidates.push_back(other);
        }
    }
    candidates.push_back("old_" + field);
    candidates.push_back(field + "_v1");
    return unused_name(object, candidates[rng.below(candidates.size())]);
}

// The value as a legacy producer typed it: numbers and booleans as text, nested values
// serialized to text, text as a number when it reads as one, else wrapped in a list.
json retyped(const json &value) {
    if (value.is_string()) {
        const json parsed = json::parse(value.get<std::string>(), nullptr, false);
        return parsed.is_number() ? parsed : json::array({value});
    }
    if (value.is_null()) {
        return 0;
    }
    return value.dump();
}

json apply(json &object, const std::string &field, const std::string &change, Rng &rng) {
    json entry = {{"field", field}, {"change", change}};
    if (change == "renamed") {
        const std::string to = legacy_name(object, field, rng);
        object[to] = std::move(object[field]);
        object.erase(field);
        entry["to"] = to;
    } else if (change == "dropped") {
        object.erase(field);
    } else if (change == "retyped") {
        json value = retyped(object[field]);
        entry["from"] = type_name(object[field]);
        entry["to"] = type_name(value);
        object[field] = std::move(value);
    } else {
        // An unknown field next to this one; the entry names the new field.
        const std::string added = unused_name(object, field.empty() ? "extra" : field + "_extra");
        object[added] = rng.between(0, 999);
        entry = {{"field", added}, {"change", "added"}, {"value", object[added]}};
    }
    return entry;
}

}  // namespace

json drift_object(json &object, Quota &quota, Rng &rng) {
    json changes = json::array();
    std::vector<std::string> fields;
    for (const auto &[key, value] : object.items()) {
        fields.push_back(key);  // copied: the changes below reshape the object
    }
    for (const std::string &field : fields) {
        if (quota.next(rng)) {
            changes.push_back(apply(object, field, kChanges[rng.below(std::size(kChanges))], rng));
        }
    }
    return changes;
}

json force_change(json &object, Rng &rng) {
    json entry;
    if (object.empty()) {
        entry = apply(object, "", "added", rng);
    } else {
        auto it = object.begin();
        std::advance(it, static_cast<std::ptrdiff_t>(rng.below(object.size())));
        entry = apply(object, it.key(), kChanges[rng.below(std::size(kChanges))], rng);
    }
    entry["forced"] = true;
    return entry;
}

}  // namespace sbx_legacy
