// The hostile stub's payload catalogue: every payload parsed, expanded and pre-serialized
// once at construction, so generating an input set is only string concatenation.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sbx_hostile {

// What a slot can take. Numbers go to int/float slots; json slots get broken documents and
// every other payload embedded in a valid document; text slots take everything (strings
// reach any textual or binary channel).
enum class SlotKind : std::size_t { text = 0, number = 1, json = 2 };
inline constexpr std::size_t kSlotKinds = 3;

SlotKind slot_kind(std::string_view slot_type);

struct Payload {
    std::string category;
    std::size_t index = 0;  // position in the catalogue: meta's payload_index
    // JSON text of the value as text: a string ("\"2147483648\""), or a `$bytes` value
    // ({"$bytes":"/w=="}) when the bytes are not valid UTF-8.
    std::string as_text;
    // JSON text for numeric slots and number leaves: a number when the file had one (or
    // `number: true` spelled one), else as_text.
    std::string as_number;
    bool numeric = false;       // as_number is a JSON number
    bool document = false;      // in a json slot, the whole document (else embedded in one)
    std::string meta;           // JSON text {"category":...,"payload_index":...[,"parts":...]}
    std::string meta_embedded;  // the same with "embedded":true
    // The payload's place in each kind's first-tried list (`first` in the file); 0: none.
    std::array<std::size_t, kSlotKinds> first{};
};

class Catalogue {
  public:
    // Adds the payloads of one document; `source` names it in every error. Throws
    // std::runtime_error on malformed documents.
    void add_document(std::string_view text, const std::string &source);
    // Adds the payloads of the file at `path`; errors name the file.
    void add_file(const std::string &path);
    // Builds the per-kind orders; call after the last add_*.
    void finish();

    [[nodiscard]] const std::vector<Payload> &payloads() const { return payloads_; }
    [[nodiscard]] const std::vector<std::string> &categories() const { return categories_; }
    // Catalogue indexes a slot of this kind goes through: first the kind's first-tried
    // payloads by rank (the most potent: polyglots, the empty string, the classic of each
    // category), then the rest with categories interleaved so that any window of (number
    // of categories) consecutive entries holds one of each.
    [[nodiscard]] const std::vector<std::size_t> &first(SlotKind kind) const {
        return firsts_[static_cast<std::size_t>(kind)];
    }
    [[nodiscard]] const std::vector<std::size_t> &rest(SlotKind kind) const {
        return rests_[static_cast<std::size_t>(kind)];
    }
    // The categories a slot of this kind can receive, in catalogue order; a polyglot's
    // parts count as their own categories.
    [[nodiscard]] const std::vector<std::string> &reachable(SlotKind kind) const {
        return reachable_[static_cast<std::size_t>(kind)];
    }

  private:
    std::vector<Payload> payloads_;
    std::vector<std::string> categories_;                    // in order of first appearance
    std::vector<std::vector<std::string>> part_categories_;  // per payload, polyglots only
    std::array<std::vector<std::size_t>, kSlotKinds> firsts_;
    std::array<std::vector<std::size_t>, kSlotKinds> rests_;
    std::array<std::vector<std::string>, kSlotKinds> reachable_;
};

}  // namespace sbx_hostile
