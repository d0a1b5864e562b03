// Differences between a json slot's example and a document, and applying some of them.
#include "engine/example_diff.hpp"

#include <sbx/utf8.hpp>

#include <algorithm>
#include <limits>
#include <optional>

#include "util/number_parse.hpp"

namespace sbx::engine {
namespace {

using nlohmann::json;

// How a value reads in a label: its JSON, shortened, a long string as its length.
std::string shown(const json &value) {
    if (value.is_string() && value.get_ref<const std::string &>().size() > 24) {
        return "\"" + sbx::utf8_stand_in(value.get_ref<const std::string &>(), 12) + "…\" (" +
               std::to_string(value.get_ref<const std::string &>().size()) + " bytes)";
    }
    const std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    return text.size() <= 32 ? text : sbx::utf8_stand_in(text, 29) + "...";
}

// An array step of a path ("3") as an index; nullopt for a key, which indexes no array.
std::optional<std::size_t> index_of(const std::string &step) {
    const auto index = util::parse_uint64(step, util::LeadingPlus::refused);
    if (!index || *index > std::numeric_limits<std::size_t>::max()) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(*index);
}

std::string name_of(const std::vector<std::string> &path, const json &root) {
    if (path.empty()) {
        return "(document)";
    }
    std::string name;
    const json *at = &root;
    for (const std::string &step : path) {
        if (at != nullptr && at->is_array()) {
            name += "[" + step + "]";
            const auto index = index_of(step);
            at = index && *index < at->size() ? &(*at)[*index] : nullptr;
        } else {
            name += (name.empty() ? "" : ".") + step;
            at = at != nullptr && at->is_object() && at->contains(step) ? &(*at)[step] : nullptr;
        }
    }
    return name;
}

void diff(const json &a, const json &b, std::vector<std::string> &path, const json &root,
          std::vector<DocumentChange> &out) {
    const auto child = [&](const std::string &step, const json &from, const json &to) {
        path.push_back(step);
        diff(from, to, path, root, out);
        path.pop_back();
    };
    if (a.is_object() && b.is_object()) {
        for (const auto &[key, value] : a.items()) {
            if (!b.contains(key)) {
                out.push_back({DocumentChange::Kind::remove, path, nullptr,
                               (path.empty() ? "(document)" : name_of(path, root)) + " −" + key});
                out.back().path.push_back(key);
            } else {
                child(key, value, b[key]);
            }
        }
        for (const auto &[key, value] : b.items()) {
            if (!a.contains(key)) {
                auto where = path;
                where.push_back(key);
                out.push_back({DocumentChange::Kind::set, where, value,
                               (path.empty() ? "(document)" : name_of(path, root)) + " +" + key +
                                   ": " + shown(value)});
            }
        }
        return;
    }
    if (a.is_array() && b.is_array()) {
        const std::size_t common = std::min(a.size(), b.size());
        for (std::size_t i = 0; i < common; ++i) {
            child(std::to_string(i), a[i], b[i]);
        }
        for (std::size_t i = common; i < b.size(); ++i) {
            auto where = path;
            where.push_back(std::to_string(i));
            out.push_back(
                {DocumentChange::Kind::set, where, b[i], name_of(path, root) + " +" + shown(b[i])});
        }
        for (std::size_t i = a.size(); i > common; --i) {
            auto where = path;
            where.push_back(std::to_string(i - 1));
            out.push_back({DocumentChange::Kind::remove, where, nullptr,
                           name_of(path, root) + " −[" + std::to_string(i - 1) + "]"});
        }
        return;
    }
    if (a != b) {
        out.push_back({DocumentChange::Kind::set, path, b,
                       name_of(path, root) + " " + shown(a) + "→" + shown(b)});
    }
}

// The container holding the change's place, or nullptr when the path leads nowhere now.
json *parent_of(json &document, const std::vector<std::string> &path) {
    json *at = &document;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        if (at->is_object() && at->contains(path[i])) {
            at = &(*at)[path[i]];
        } else if (const auto index = index_of(path[i]);
                   at->is_array() && index && *index < at->size()) {
            at = &(*at)[*index];
        } else {
            return nullptr;
        }
    }
    return at;
}

}  // namespace

std::vector<DocumentChange> changes_between(const json &example, const json &document) {
    std::vector<DocumentChange> out;
    std::vector<std::string> path;
    diff(example, document, path, example, out);
    return out;
}

json with_changes(json example, const std::vector<DocumentChange> &changes) {
    // Removals last, the deepest and last elements first, so earlier indexes hold.
    std::vector<const DocumentChange *> removals;
    for (const DocumentChange &change : changes) {
        if (change.kind == DocumentChange::Kind::remove) {
            removals.push_back(&change);
            continue;
        }
        if (change.path.empty()) {
            example = change.value;
            continue;
        }
        json *parent = parent_of(example, change.path);
        const std::string &last = change.path.back();
        if (parent == nullptr) {
            continue;
        }
        if (parent->is_array()) {
            const auto index = index_of(last);
            if (index && *index < parent->size()) {
                (*parent)[*index] = change.value;
            } else if (index) {
                parent->push_back(change.value);
            }
        } else if (parent->is_object()) {
            (*parent)[last] = change.value;
        }
    }
    std::sort(removals.begin(), removals.end(), [&](const auto *a, const auto *b) {
        return a->path.size() != b->path.size()
                   ? a->path.size() > b->path.size()
                   : index_of(a->path.back()).value_or(0) > index_of(b->path.back()).value_or(0);
    });
    for (const DocumentChange *change : removals) {
        json *parent = parent_of(example, change->path);
        if (parent != nullptr && parent->is_object()) {
            parent->erase(change->path.back());
        } else if (const auto index = index_of(change->path.back());
                   parent != nullptr && parent->is_array() && index && *index < parent->size()) {
            parent->erase(*index);
        }
    }
    return example;
}

std::optional<json> document_of(const json &value) {
    if (value.is_object() && !value.contains("$bytes")) {
        return value;
    }
    if (value.is_array()) {
        return value;
    }
    if (value.is_string()) {
        json parsed = json::parse(value.get_ref<const std::string &>(), nullptr, false);
        if (!parsed.is_discarded() && parsed.is_structured()) {
            return parsed;
        }
    }
    return std::nullopt;
}

std::map<std::string, json> slot_examples(const config::Workflow &workflow) {
    std::map<std::string, json> examples;
    for (const config::Step &step : workflow.steps) {
        for (const config::InputSlot &slot : step.inputs) {
            if (slot.type != "json" || examples.count(slot.name) != 0) {
                continue;
            }
            const json &given = !slot.example.is_null() ? slot.example : slot.default_value;
            if (auto document = document_of(given)) {
                examples.emplace(slot.name, std::move(*document));
            }
        }
    }
    return examples;
}

}  // namespace sbx::engine
