// The hostile stub's payload catalogue: every payload parsed, expanded and pre-serialized
// once at construction, so generating an input set is only string concatenation.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sbx_hostile {

// What a slot can take. Numbers go to int/float slots, broken JSON to json slots,
// everything to the rest (strings reach any textual or binary channel).
enum class SlotKind : std::size_t { text = 0, number = 1, json = 2 };

SlotKind slot_kind(std::string_view slot_type);

struct Payload {
    std::string category;
    std::size_t index = 0;  // position in the catalogue: meta's payload_index
    std::string as_text;    // JSON text of the value as a string ("\"2147483648\"")
    std::string as_number;  // JSON text for numeric slots: a number when the file had one
    std::string meta;       // JSON text {"category":...,"payload_index":...}
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
    // Catalogue indexes a slot of this kind cycles through, categories interleaved so that
    // any window of (number of categories) consecutive entries holds one of each.
    [[nodiscard]] const std::vector<std::size_t> &order(SlotKind kind) const {
        return orders_[static_cast<std::size_t>(kind)];
    }

  private:
    std::vector<Payload> payloads_;
    std::vector<std::string> categories_;  // in order of first appearance
    std::array<std::vector<std::size_t>, 3> orders_;
};

}  // namespace sbx_hostile
