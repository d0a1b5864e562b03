// The edits of each place in an example document, and writing the example with some applied.
#include "document_edits.hpp"

#include <sbx/utf8.hpp>

#include <algorithm>
#include <utility>

namespace sbx_hostile {
namespace {

using nlohmann::ordered_json;
using Type = DocumentNode::Type;
using Op = DocumentEdit::Op;

// Words tried per string value and as extra keys: the most likely ones, not all of them.
constexpr std::size_t kWordsAsValues = 16;
constexpr std::size_t kWordsAsKeys = 32;
// A string long enough to overrun the fixed buffers and length fields real readers keep.
constexpr std::size_t kLongString = 65536;
// The places of an example that get edits: the members of containers deeper than this, or
// past this many places, are written as they are (a huge or deep example stays cheap).
constexpr std::size_t kMaxDepth = 32;
constexpr std::size_t kMaxPlaces = 1024;

Type type_of(const ordered_json &value) {
    switch (value.type()) {
        case ordered_json::value_t::boolean:
            return Type::boolean;
        case ordered_json::value_t::number_integer:
        case ordered_json::value_t::number_unsigned:
            return Type::integer;
        case ordered_json::value_t::number_float:
            return Type::floating;
        case ordered_json::value_t::string:
            return Type::string;
        case ordered_json::value_t::array:
            return Type::array;
        case ordered_json::value_t::object:
            return Type::object;
        default:
            return Type::null;
    }
}

const char *type_word(Type type) {
    switch (type) {
        case Type::boolean:
            return "bool";
        case Type::integer:
            return "int";
        case Type::floating:
            return "float";
        case Type::string:
            return "string";
        case Type::array:
            return "array";
        case Type::object:
            return "object";
        default:
            return "null";
    }
}

// The value a reader zero-initialises this type to: what an element "of the same type, but
// empty" looks like.
std::string zero_of(Type type) {
    switch (type) {
        case Type::boolean:
            return "false";
        case Type::integer:
        case Type::floating:
            return "0";
        case Type::string:
            return "\"\"";
        case Type::array:
            return "[]";
        case Type::object:
            return "{}";
        default:
            return "null";
    }
}

// How a written value reads in a label: short, and a long string as its length.
std::string shown(const std::string &text) {
    if (text.size() > kLongString) {
        return std::to_string(text.size() - 2) + "×A";
    }
    return text.size() <= 24 ? text : sbx::utf8_stand_in(text, 21) + "...";
}

// The words in the order a place tries them: those among the most of the place's own texts
// (its value, or its object's keys) first, where the program holds those too, since the
// literals one function compares sit together ("post", "courier", "drone"); then the
// nearest; then the program's order.
std::vector<std::string> nearest(const std::vector<std::string> &words,
                                 const std::vector<std::string> &anchors) {
    constexpr std::size_t kWindow = 8;
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (std::find(anchors.begin(), anchors.end(), words[i]) != anchors.end()) {
            at.push_back(i);
        }
    }
    struct Rank {
        std::size_t index;
        std::size_t around;    // anchors within kWindow places
        std::size_t distance;  // to the nearest anchor
    };
    std::vector<Rank> ranks;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (std::find(anchors.begin(), anchors.end(), words[i]) != anchors.end()) {
            continue;
        }
        Rank rank{i, 0, words.size()};
        for (const std::size_t a : at) {
            const std::size_t distance = i > a ? i - a : a - i;
            rank.around += distance <= kWindow ? 1 : 0;
            rank.distance = std::min(rank.distance, distance);
        }
        ranks.push_back(rank);
    }
    std::stable_sort(ranks.begin(), ranks.end(), [](const Rank &a, const Rank &b) {
        return a.around != b.around ? a.around > b.around : a.distance < b.distance;
    });
    std::vector<std::string> out;
    out.reserve(ranks.size());
    for (const Rank &rank : ranks) {
        out.push_back(words[rank.index]);
    }
    return out;
}

class EditList {
  public:
    EditList(std::size_t node, const DocumentNode &where) : node_(node), where_(where) {}

    void replace(std::string text, bool keeps_types) {
        if (text == where_.value->dump()) {
            return;  // not a change
        }
        std::string label = where_.name + " " + type_word(where_.type) + "→" + shown(text);
        add({node_, Op::replace, std::move(text), "", std::move(label), keeps_types});
    }
    // The value replaced by a string of `size` 'A's, written when the document is.
    void replace_long(std::size_t size) {
        std::string label =
            where_.name + " " + type_word(where_.type) + "→" + std::to_string(size) + "×A";
        DocumentEdit edit{node_, Op::replace, "", "", std::move(label), true};
        edit.long_string = size;
        add(std::move(edit));
    }
    void append(std::string text, bool keeps_types) {
        std::string label = where_.name + " array+" + shown(text);
        add({node_, Op::append, std::move(text), "", std::move(label), keeps_types});
    }
    void member(Op op, const std::string &key, std::string text, bool keeps_types) {
        const char *verb = op == Op::remove_key ? "−" : op == Op::add_key ? "+" : " dup ";
        std::string label = where_.name + " object" + verb + key;
        if (op == Op::duplicate_key && !keeps_types) {
            label += "→" + shown(text);
        }
        add({node_, op, std::move(text), key, std::move(label), keeps_types});
    }

    std::vector<DocumentEdit> take() {
        // Type-keeping first (stable: potency order within each group).
        std::stable_partition(edits_.begin(), edits_.end(),
                              [](const DocumentEdit &e) { return e.keeps_types; });
        return std::move(edits_);
    }

  private:
    void add(DocumentEdit edit) { edits_.push_back(std::move(edit)); }

    std::size_t node_;
    const DocumentNode &where_;
    std::vector<DocumentEdit> edits_;
};

}  // namespace

DocumentEdits::DocumentEdits(ordered_json example, const std::vector<std::string> &words)
    : example_(std::move(example)) {
    index(example_, "(document)", 0, "");
    plan_edits(words);
}

void DocumentEdits::index(const ordered_json &value, std::string name, std::size_t parent,
                          std::string key) {
    const std::size_t n = nodes_.size();
    const std::size_t depth = n == 0 ? 0 : nodes_[parent].depth + 1;
    nodes_.push_back({type_of(value), std::move(name), 0, parent, std::move(key), depth, &value});
    const std::string prefix = depth == 0 ? "" : nodes_[n].name;
    nodes_[n].expanded =
        !value.is_structured() || (depth < kMaxDepth && nodes_.size() + value.size() <= kMaxPlaces);
    if (!nodes_[n].expanded) {
        nodes_[n].subtree_end = nodes_.size();
        return;
    }
    if (value.is_object()) {
        for (const auto &[member_key, member] : value.items()) {
            std::string member_name = prefix;
            member_name.append(prefix.empty() ? "" : ".").append(member_key);
            index(member, std::move(member_name), n, member_key);
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            index(value[i], nodes_[n].name + "[" + std::to_string(i) + "]", n, "");
        }
    }
    nodes_[n].subtree_end = nodes_.size();
}

bool DocumentEdits::hides(const DocumentEdit &edit, std::size_t n) const {
    if (n < edit.node || n >= nodes_[edit.node].subtree_end) {
        return false;
    }
    if (edit.op == Op::replace) {
        return true;
    }
    if (edit.op != Op::remove_key || n == edit.node) {
        return false;
    }
    // The member of edit.node on the way down to n.
    std::size_t member = n;
    while (nodes_[member].parent != edit.node) {
        member = nodes_[member].parent;
    }
    return nodes_[member].key == edit.key;
}

void DocumentEdits::plan_edits(const std::vector<std::string> &words) {
    edits_.resize(nodes_.size());
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        const DocumentNode &node = nodes_[n];
        if (!node.expanded) {
            continue;  // written as the example has it (see kMaxPlaces)
        }
        const ordered_json &value = *node.value;
        EditList list(n, node);
        switch (node.type) {
            case Type::boolean:
                list.replace(value.get<bool>() ? "false" : "true", true);
                list.replace("null", false);
                list.replace(value.get<bool>() ? "\"false\"" : "\"true\"", false);
                list.replace(value.get<bool>() ? "0" : "1", false);
                break;
            case Type::integer:
                for (const char *number : {"0", "-1", "2147483648", "9223372036854775808",
                                           "-2147483649", "4294967296", "2147483647"}) {
                    list.replace(number, true);
                }
                for (const std::string number : {"1e308", "99999999999999999999", "0.5"}) {
                    list.replace(number, false);
                }
                list.replace(ordered_json(value.dump()).dump(), false);  // the number as text
                list.replace("null", false);
                break;
            case Type::floating:
                for (const char *number : {"0", "-1", "1e308", "-1e308", "5e-324", "-0.0"}) {
                    list.replace(number, true);
                }
                list.replace(ordered_json(value.dump()).dump(), false);
                list.replace("\"NaN\"", false);
                list.replace("null", false);
                break;
            case Type::string: {
                list.replace("\"\"", true);
                list.replace_long(kLongString);
                const auto ranked = nearest(words, {value.get<std::string>()});
                for (std::size_t w = 0; w < ranked.size() && w < kWordsAsValues; ++w) {
                    list.replace(ordered_json(ranked[w]).dump(), true);
                }
                list.replace("null", false);
                list.replace("0", false);
                list.replace("[]", false);
                break;
            }
            case Type::null:
                for (const char *other : {"0", "\"\"", "{}", "[]", "false"}) {
                    list.replace(other, false);
                }
                break;
            case Type::array: {
                // A list of records leads with a null as its last element: the classic of code
                // that checked only the first. It counts as keeping types, as lists of optional
                // records are common; in a list of scalars, which readers check one by one, an
                // empty element leads and the null comes with the type-changing edits.
                const Type element = value.empty() ? Type::string : type_of(value.front());
                const bool records = element == Type::object || element == Type::array;
                if (records) {
                    list.append("null", true);
                }
                list.append(zero_of(element), true);
                list.replace("[]", true);
                if (!value.empty()) {
                    list.append(value.back().dump(), true);
                }
                if (!records) {
                    list.append("null", false);
                }
                list.append(element == Type::string ? "0" : "\"\"", false);
                list.replace("[" + value.dump() + "]", false);
                break;
            }
            case Type::object: {
                std::vector<std::string> keys;
                for (const auto &[key, member] : value.items()) {
                    keys.push_back(key);
                }
                // A key written twice: with the same value (the document means what it meant),
                // and, one at a time, with a changed value (a flag flipped, a number or a string
                // emptied), so that a reader that takes the first and one that takes the last
                // disagree.
                const auto changed_value = [&](std::size_t k) {
                    const ordered_json &member = value.at(keys[k]);
                    const Type type = type_of(member);
                    if (type == Type::boolean) {
                        return std::string(member.get<bool>() ? "false" : "true");
                    }
                    const std::string zero = zero_of(type);
                    return zero != member.dump() ? zero : member.dump();
                };
                const auto key_ranked = nearest(words, keys);
                const std::size_t key_words = std::min(key_ranked.size(), kWordsAsKeys);
                // The last key first (optional members usually come last), a key only the
                // program knows, then a key written twice: a duplicate stops many readers
                // before anything else, so it is not the first thing a document tries.
                for (std::size_t k = 0; k < keys.size() || k < key_words; ++k) {
                    if (k < keys.size()) {
                        list.member(Op::remove_key, keys[keys.size() - 1 - k], "", true);
                    }
                    if (k < key_words) {
                        list.member(Op::add_key, key_ranked[k], "true", true);
                    }
                    if (k < keys.size()) {
                        list.member(Op::duplicate_key, keys[k], value.at(keys[k]).dump(), true);
                    }
                }
                for (std::size_t k = 0; k < keys.size(); ++k) {
                    list.member(Op::duplicate_key, keys[k], changed_value(k), false);
                }
                if (key_words == 0) {
                    list.member(Op::add_key, "__extra", "true", true);
                }
                list.replace("null", false);
                list.replace("[" + value.dump() + "]", false);
                break;
            }
        }
        edits_[n] = list.take();
    }
}

std::string DocumentEdits::write(const std::vector<const DocumentEdit *> &edits) const {
    std::string out;
    write_node(0, edits, out);
    return out;
}

void DocumentEdits::write_node(std::size_t n, const std::vector<const DocumentEdit *> &edits,
                               std::string &out) const {
    const DocumentNode &node = nodes_[n];
    std::vector<const DocumentEdit *> here;
    for (const DocumentEdit *edit : edits) {
        if (edit->node == n) {
            if (edit->op == Op::replace) {
                if (edit->long_string > 0) {
                    out.append(1, '"').append(edit->long_string, 'A').append(1, '"');
                } else {
                    out += edit->text;
                }
                return;
            }
            here.push_back(edit);
        }
    }
    if (!node.expanded) {
        out += node.value->dump(-1, ' ', false, ordered_json::error_handler_t::replace);
        return;
    }
    if (node.type == Type::array) {
        out += '[';
        bool first = true;
        for (std::size_t child = n + 1; child < node.subtree_end;
             child = nodes_[child].subtree_end) {
            out += first ? "" : ",";
            first = false;
            write_node(child, edits, out);
        }
        for (const DocumentEdit *edit : here) {
            out += first ? "" : ",";
            first = false;
            out += edit->text;
        }
        out += ']';
        return;
    }
    if (node.type == Type::object) {
        out += '{';
        bool first = true;
        const auto member = [&](const std::string &key, const auto &write_value) {
            out += first ? "" : ",";
            first = false;
            out += ordered_json(key).dump();
            out += ':';
            write_value();
        };
        std::size_t child = n + 1;
        for (const auto &item : node.value->items()) {
            const std::string &key = item.key();  // a lambda below uses it: not a binding
            const bool removed = std::any_of(here.begin(), here.end(), [&](const auto *e) {
                return e->op == Op::remove_key && e->key == key;
            });
            if (!removed) {
                member(key, [&] { write_node(child, edits, out); });
            }
            for (const DocumentEdit *edit : here) {
                if (edit->op == Op::duplicate_key && edit->key == key) {
                    member(key, [&] { out += edit->text; });
                }
            }
            child = nodes_[child].subtree_end;
        }
        for (const DocumentEdit *edit : here) {
            if (edit->op == Op::add_key) {
                member(edit->key, [&] { out += edit->text; });
            }
        }
        out += '}';
        return;
    }
    out += node.value->dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

}  // namespace sbx_hostile
