// Raw bytes beside the run spec's text fields, in base64.
#include "engine/spec_raw_fields.hpp"

#include <sbx/bytes_value.hpp>
#include <sbx/utf8.hpp>

namespace sbx::engine {

using nlohmann::json;

std::string RawFields::text(const std::string &bytes, const std::string &field,
                            const std::string &key) {
    if (is_valid_utf8(bytes)) {
        return bytes;
    }
    json &entry = key.empty() ? raw_[field] : raw_[field][key];
    entry = base64_encode(bytes);
    return utf8_stand_in(bytes);
}

std::string RawFields::path_text(const std::string &bytes) {
    const std::string text = utf8_stand_in(bytes);
    return text == bytes ? text : this->text(bytes, "file_names", text);
}

void RawFields::add_to(json &spec) const {
    if (!raw_.empty()) {
        spec["raw"] = raw_;
    }
}

std::string exact_bytes(const json &spec, const std::string &text, const std::string &field,
                        const std::string &key) {
    const auto raw = spec.find("raw");
    if (raw == spec.end() || !raw->is_object() || !raw->contains(field)) {
        return text;
    }
    const json &holder = (*raw)[field];
    const json entry = key.empty()          ? holder
                       : holder.is_object() ? holder.value(key, json())
                                            : json();
    if (!entry.is_string()) {
        return text;
    }
    const auto bytes = base64_decode(entry.get_ref<const std::string &>());
    return bytes && utf8_stand_in(*bytes) == text ? *bytes : text;
}

}  // namespace sbx::engine
