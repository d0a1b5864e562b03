// What a failing document changed of its slot's example, place by place, so that a
// shrink can look for the fewest changes that still fail (delta debugging over the changes,
// not the bytes) and say them: "broken by admin false→true". The answer reads as the
// example the user wrote with one thing changed, not as a document cut down to zeros.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "config/settings.hpp"

namespace sbx::engine {

struct DocumentChange {
    enum class Kind { set, remove };
    Kind kind = Kind::set;
    std::vector<std::string> path;  // object keys and array indexes, outermost first
    nlohmann::json value;           // for set
    std::string label;              // "admin false→true", "shipping −days", "tags +\"\""
};

// The changes that make `example` into `document`: a scalar or a type changed, a member
// added or removed, array elements changed, appended or dropped at the end.
std::vector<DocumentChange> changes_between(const nlohmann::json &example,
                                            const nlohmann::json &document);

// `example` with `changes` applied (elements appended past an array's end are appended).
nlohmann::json with_changes(nlohmann::json example, const std::vector<DocumentChange> &changes);

// The document a slot value holds: a JSON object or array, or a string holding one's
// text; nullopt for anything else (a payload string, a broken document).
std::optional<nlohmann::json> document_of(const nlohmann::json &value);

// The example (else default) of each `type: json` slot of the workflow that has an object
// or array there (a string example is read as JSON text).
std::map<std::string, nlohmann::json> slot_examples(const config::Workflow &workflow);

}  // namespace sbx::engine
