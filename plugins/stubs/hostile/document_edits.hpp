// Type-aware edits of one valid document: the slot's example with one field changed the way
// real input bugs need (a flag flipped, a count set to 0, a negative id, a null as the last
// element, an empty string in a list, a key missing or written twice). A program that
// checks a document's shape first still lets these through, which neither a malformed
// document nor a payload in every string does.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx_hostile {

// A place in the example: every value, containers and the document itself included, in
// document order (a container before its members).
struct DocumentNode {
    enum class Type { boolean, integer, floating, string, null, array, object };
    Type type = Type::null;
    std::string name;             // for people: "admin", "items[0].sku", "(document)"
    std::size_t subtree_end = 0;  // index one past this node's last descendant
    std::size_t parent = 0;       // the container holding it (the document: itself)
    std::string key;              // its member name in an object parent, else ""
    std::size_t depth = 0;
    const nlohmann::ordered_json *value = nullptr;
    // Its members are places of their own; false past the depth and size the edits cover
    // (the container is then written as the example has it, and has no edits).
    bool expanded = true;
};

struct DocumentEdit {
    enum class Op {
        replace,        // the node's value becomes `text`
        append,         // an array gets `text` as one more (last) element
        remove_key,     // an object loses member `key`
        duplicate_key,  // an object writes member `key` a second time, with value `text`
        add_key,        // an object gets a new member `key` with value `text`
    };
    std::size_t node = 0;
    Op op = Op::replace;
    std::string text;   // JSON text of the value written
    std::string key;    // the member, for the object edits
    std::string label;  // "admin bool→true", said in meta, reports and shrink
    // The document keeps every field's JSON type (a validating reader still accepts it):
    // such edits are packed several to a document; the others go one at a time.
    bool keeps_types = true;
    // For a replace: when not 0, the value is a string of this many 'A's (written then,
    // not kept: an example of many strings would otherwise hold 64 KiB for each).
    std::size_t long_string = 0;
};

class DocumentEdits {
  public:
    // The example as JSON; `words`: the program's own strings, most likely compared first,
    // tried as string values and as extra keys.
    DocumentEdits(nlohmann::ordered_json example, const std::vector<std::string> &words);
    // The nodes point into the example held here: it stays where it is.
    DocumentEdits(const DocumentEdits &) = delete;
    DocumentEdits &operator=(const DocumentEdits &) = delete;
    DocumentEdits(DocumentEdits &&) = delete;
    DocumentEdits &operator=(DocumentEdits &&) = delete;
    ~DocumentEdits() = default;

    [[nodiscard]] const std::vector<DocumentNode> &nodes() const { return nodes_; }
    // Every edit of node `n`, most potent first: the ones that keep types, then the rest.
    [[nodiscard]] const std::vector<DocumentEdit> &edits_of(std::size_t n) const {
        return edits_[n];
    }
    // The example's text with `edits` applied (each naming a distinct node, or the same
    // object for member edits of distinct keys).
    [[nodiscard]] std::string write(const std::vector<const DocumentEdit *> &edits) const;
    // Whether `edit` takes node `n` out of the document (replaces or removes it or a
    // container holding it), so that an edit of `n` would not show.
    [[nodiscard]] bool hides(const DocumentEdit &edit, std::size_t n) const;

  private:
    void index(const nlohmann::ordered_json &value, std::string name, std::size_t parent,
               std::string key);
    void plan_edits(const std::vector<std::string> &words);
    void write_node(std::size_t n, const std::vector<const DocumentEdit *> &edits,
                    std::string &out) const;

    nlohmann::ordered_json example_;
    std::vector<DocumentNode> nodes_;
    std::vector<std::vector<DocumentEdit>> edits_;
};

}  // namespace sbx_hostile
