// Choosing and writing the edited documents of one json slot, set by set.
#include "structured_slot.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sbx/bytes_value.hpp>

namespace sbx_hostile {
namespace {

using nlohmann::ordered_json;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);
constexpr std::size_t kPackedStrings = 16;

// A payload as the text of one string leaf: its JSON string, or, for bytes that are not
// UTF-8, a string holding those raw bytes (the document then travels as a `$bytes` value).
std::string leaf_text(const Payload &payload) {
    if (payload.as_text.empty() || payload.as_text.front() == '"') {
        return payload.as_text;
    }
    const auto encoded = ordered_json::parse(payload.as_text).at(std::string(sbx::kBytesKey));
    const auto bytes = sbx::base64_decode(encoded.get<std::string>());
    std::string out = "\"";
    for (const char c : bytes.value_or("")) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20) {
            std::array<char, 8> escaped{};
            std::snprintf(escaped.data(), escaped.size(), "\\u%04x", byte);
            out += escaped.data();
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// The slot's value is the document's text, so that what the program reads is exactly what
// was written: a key twice, 20 digits, -0.0. Text that is not UTF-8 goes as `$bytes`.
std::string slot_value(const std::string &document) {
    try {
        return ordered_json(document).dump();
    } catch (const ordered_json::type_error &) {
        return sbx::bytes_value_json(document);
    }
}

ordered_json labels(const std::vector<const DocumentEdit *> &edits) {
    ordered_json out = ordered_json::array();
    for (const DocumentEdit *edit : edits) {
        out.push_back(edit->label);
    }
    return out;
}

}  // namespace

StructuredSlot::StructuredSlot(const ordered_json &example, const std::vector<std::string> &words)
    : document_(example, words) {
    const auto &nodes = document_.nodes();
    std::vector<std::size_t> coded;  // strings the program holds too: codes it compares
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        const auto &edits = document_.edits_of(n);
        if (nodes[n].type == DocumentNode::Type::string) {
            const bool code = std::find(words.begin(), words.end(),
                                        nodes[n].value->get<std::string>()) != words.end();
            (code ? coded : strings_).push_back(n);
            // An enum value's own words are tried one at a time; past 16 strings, packed
            // sets would carry a 64 KiB string for every fourth of them.
            if (code || strings_.size() > kPackedStrings) {
                continue;
            }
        }
        if (!edits.empty() && edits.front().keeps_types) {
            packable_.push_back(n);
        }
    }
    // Payloads go to free text first, the longest example first ("leave at the door"
    // before "A1"): a code the program compares refuses most of them before any use.
    std::stable_sort(strings_.begin(), strings_.end(), [&](std::size_t a, std::size_t b) {
        return nodes[a].value->get_ref<const std::string &>().size() >
               nodes[b].value->get_ref<const std::string &>().size();
    });
    if (strings_.empty()) {
        strings_ = coded;
    }
    // Every place's most potent edit, then every place's second, and so on.
    for (std::size_t rank = 0;; ++rank) {
        bool any = false;
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            if (rank < document_.edits_of(n).size()) {
                singles_.push_back(&document_.edits_of(n)[rank]);
                any = true;
            }
        }
        if (!any) {
            break;
        }
    }
    for (const DocumentEdit *edit : singles_) {
        if (edit->keeps_types) {
            keeping_.push_back(edit);
        }
    }
}

void StructuredSlot::begin(uint64_t count) {
    values_.clear();
    metas_.clear();
    values_.reserve(count);
    metas_.reserve(count);
    packed_seen_.assign(packable_.size(), 0);
    packed_sets_ = 0;
    pair_a_ = 0;
    pair_b_ = 1;
}

void StructuredSlot::add(const Catalogue &catalogue, uint64_t j, const Payload &payload) {
    const auto first_tried = static_cast<uint64_t>(catalogue.first(SlotKind::json).size());
    const bool payload_set = j < first_tried || (j - first_tried) % 4 == 3;
    if (payload_set && payload.document) {
        values_.push_back(payload.as_text);
        metas_.push_back(payload.meta);
        return;
    }
    const auto &nodes = document_.nodes();
    if (j < first_tried) {
        const std::size_t leaf = strings_.empty() ? kNone : strings_[j % strings_.size()];
        Edits edits = packed(leaf);
        ordered_json meta = {{"category", "structural"}};
        if (leaf != kNone) {
            meta = ordered_json::parse(payload.meta_embedded);
            meta["field"] = nodes[leaf].name;
        }
        meta["edits"] = labels(edits);
        const DocumentEdit in_leaf{
            leaf, DocumentEdit::Op::replace, leaf == kNone ? "" : leaf_text(payload), "", "", true};
        if (leaf != kNone) {
            edits.push_back(&in_leaf);
        }
        finish(document_.write(edits),
               meta.dump(-1, ' ', false, ordered_json::error_handler_t::replace));
        return;
    }
    const uint64_t r = j - first_tried;
    if (r % 4 == 3) {
        // The rest of the catalogue, a payload in every string (and number, for a number).
        std::vector<DocumentEdit> fills;
        for (std::size_t n = 0; n < nodes.size(); ++n) {
            if (nodes[n].type == DocumentNode::Type::string) {
                fills.push_back({n, DocumentEdit::Op::replace, leaf_text(payload), "", "", true});
            } else if (payload.numeric && (nodes[n].type == DocumentNode::Type::integer ||
                                           nodes[n].type == DocumentNode::Type::floating)) {
                fills.push_back({n, DocumentEdit::Op::replace, payload.as_number, "", "", true});
            }
        }
        Edits edits;
        for (const DocumentEdit &fill : fills) {
            edits.push_back(&fill);
        }
        finish(document_.write(edits), payload.meta_embedded);
        return;
    }
    Edits edits = sequence((r / 4) * 3 + r % 4);
    ordered_json meta = {{"category", "structural"}};
    if (edits.empty()) {
        edits = packed(kNone);  // every single and pair made: packed sets from here on
        meta["edits"] = labels(edits);
    } else if (edits.size() == 1) {
        meta["edit"] = edits.front()->label;
    } else {
        meta["edits"] = labels(edits);
    }
    finish(document_.write(edits),
           meta.dump(-1, ' ', false, ordered_json::error_handler_t::replace));
}

StructuredSlot::Edits StructuredSlot::packed(std::size_t payload_leaf) {
    Edits edits;
    const uint64_t set = ++packed_sets_;
    for (std::size_t i = 0; i < packable_.size(); ++i) {
        // Each place in about half of the sets, and every two places together, apart and
        // one without the other over any few sets: the parity of a bitwise product.
        if (__builtin_popcountll(set & (i + 1)) % 2 == 0) {
            continue;
        }
        const std::size_t node = packable_[i];
        if (node == payload_leaf) {
            continue;
        }
        const auto &list = document_.edits_of(node);
        std::size_t keeping = 0;
        while (keeping < list.size() && list[keeping].keeps_types) {
            ++keeping;
        }
        if (document_.nodes()[node].type == DocumentNode::Type::string) {
            keeping = std::min<std::size_t>(keeping, 2);  // empty and long; words one by one
        }
        if (keeping == 0) {
            continue;  // not packable (packable_ holds only places with one)
        }
        const DocumentEdit &edit = list[packed_seen_[i] % keeping];
        const bool hidden = std::any_of(edits.begin(), edits.end(), [&](const DocumentEdit *e) {
            return document_.hides(*e, node);
        });
        // A place whose edit would not show keeps it for its next set.
        if (!hidden && (payload_leaf == kNone || !document_.hides(edit, payload_leaf))) {
            edits.push_back(&edit);
            ++packed_seen_[i];
        }
    }
    return edits;
}

StructuredSlot::Edits StructuredSlot::sequence(uint64_t k) {
    if (k < singles_.size()) {
        return {singles_[k]};
    }
    // Pairs of type-keeping edits of two places that do not hide each other, the potent
    // ones first: every pair among the first b+1 edits before edit b+2 joins.
    while (pair_b_ < keeping_.size()) {
        const DocumentEdit *a = keeping_[pair_a_];
        const DocumentEdit *b = keeping_[pair_b_];
        if (++pair_a_ == pair_b_) {
            pair_a_ = 0;
            ++pair_b_;
        }
        if (a->node != b->node && !document_.hides(*a, b->node) && !document_.hides(*b, a->node)) {
            return {a, b};
        }
    }
    return {};
}

void StructuredSlot::finish(const std::string &document, std::string meta) {
    values_.push_back(slot_value(document));
    metas_.push_back(std::move(meta));
}

}  // namespace sbx_hostile
