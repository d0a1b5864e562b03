// Building a json slot's skeleton from its declaration.
#include "skeleton.hpp"

#include <algorithm>

namespace sbx_hostile {
namespace {

using nlohmann::json;

class SkeletonWriter {
  public:
    void walk(const json &value) {
        if (value.is_object()) {
            literal("{");
            bool first = true;
            for (const auto &[key, member] : value.items()) {
                literal((first ? "" : ",") + json(key).dump() + ":");
                first = false;
                walk(member);
            }
            literal("}");
        } else if (value.is_array()) {
            literal("[");
            for (std::size_t i = 0; i < value.size(); ++i) {
                literal(i == 0 ? "" : ",");
                walk(value[i]);
            }
            literal("]");
        } else if (value.is_string() || value.is_number()) {
            skeleton_.holes.push_back({value.is_number(), value.dump()});
            skeleton_.literals.emplace_back();
        } else {
            literal(value.dump());
        }
    }

    Skeleton take() { return std::move(skeleton_); }

  private:
    void literal(const std::string &text) { skeleton_.literals.back() += text; }

    Skeleton skeleton_{{""}, {}};
};

// The example (else default) as a JSON value: a string that holds a document is read.
json shape_of(const json &declaration) {
    for (const char *key : {"example", "default"}) {
        const auto it = declaration.find(key);
        if (it == declaration.end() || it->is_null()) {
            continue;
        }
        if (it->is_string()) {
            try {
                return json::parse(it->get_ref<const std::string &>());
            } catch (const json::exception &) {
                return *it;  // plain text: a document of one string
            }
        }
        return *it;
    }
    return nullptr;
}

}  // namespace

nlohmann::ordered_json structure_of(const json &declaration) {
    nlohmann::ordered_json shape;
    for (const char *key : {"example", "default"}) {
        const auto it = declaration.is_object() ? declaration.find(key) : declaration.end();
        if (!declaration.is_object() || it == declaration.end() || it->is_null()) {
            continue;
        }
        shape = it->is_string() ? nlohmann::ordered_json::parse(it->get_ref<const std::string &>(),
                                                                nullptr, false)
                                : nlohmann::ordered_json(*it);
        break;
    }
    if (shape.is_structured() && !shape.empty()) {
        return shape;
    }
    return {{"name", ""}, {"items", nlohmann::ordered_json::array({""})}, {"count", 1}};
}

Skeleton skeleton_of(const json &declaration) {
    SkeletonWriter writer;
    writer.walk(declaration.is_object() ? shape_of(declaration) : json());
    Skeleton skeleton = writer.take();
    const bool has_string = std::any_of(skeleton.holes.begin(), skeleton.holes.end(),
                                        [](const Skeleton::Hole &hole) { return !hole.number; });
    if (!has_string) {
        SkeletonWriter fallback;
        fallback.walk(json{{"name", ""}, {"items", json::array({""})}, {"count", 1}});
        skeleton = fallback.take();
    }
    return skeleton;
}

}  // namespace sbx_hostile
