// The shape hostile values are embedded in for json slots: a valid JSON document (the
// slot's example, else its default, else a small record) with holes where its strings and
// numbers were. A parser that checks the document's syntax first still lets these values
// through, which a malformed document never tests.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx_hostile {

struct Skeleton {
    struct Hole {
        bool number = false;   // a number leaf (else a string leaf)
        std::string original;  // its JSON text in the example, kept for non-numeric fills
    };
    std::vector<std::string> literals;  // holes.size() + 1 pieces of JSON text around holes
    std::vector<Hole> holes;
};

// The skeleton of a slot declaration ({type, example, default, ...}). An example given as
// a string is read as JSON text; one without strings or numbers gives the small record
// {"name": _, "items": [_], "count": _}.
Skeleton skeleton_of(const nlohmann::json &declaration);

// The document a `json` slot's structural edits start from: its example (else default) when
// that is an object or a list (an example written as text keeps its key order), else the
// small record {"name": "", "items": [""], "count": 1}.
nlohmann::ordered_json structure_of(const nlohmann::json &declaration);

}  // namespace sbx_hostile
