// Which bytes are valid UTF-8, and the text that stands in for bytes that are not where only
// text can go (a JSON string): every byte that does not belong to a valid sequence becomes
// U+FFFD, one per byte. The host and the executors must agree on this stand-in exactly (an
// executor tells by it whether a spec's plain field still stands for its raw bytes), so
// both use this one header-only definition.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace sbx {

inline constexpr std::string_view kUtf8Replacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid sequence starting at `at` (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when the bytes there are not one.
inline std::size_t utf8_sequence_length(std::string_view bytes, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) {
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80;  // the allowed range of the second byte
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : low;    // overlong
        high = lead == 0xED ? 0x9F : high;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : low;    // overlong
        high = lead == 0xF4 ? 0x8F : high;  // above U+10FFFF
    } else {
        return 0;
    }
    if (at + length > bytes.size() || byte(at + 1) < low || byte(at + 1) > high) {
        return 0;
    }
    for (std::size_t i = 2; i < length; ++i) {
        if ((byte(at + i) & 0xC0) != 0x80) {
            return 0;
        }
    }
    return length;
}

inline bool is_valid_utf8(std::string_view bytes) {
    for (std::size_t at = 0; at < bytes.size();) {
        const std::size_t length = utf8_sequence_length(bytes, at);
        if (length == 0) {
            return false;
        }
        at += length;
    }
    return true;
}

// `bytes` with every byte that is not part of a valid sequence replaced by U+FFFD, stopping
// before the first character that would make the result longer than `max_bytes` (so a
// replaced byte cannot grow captured output past its cap).
inline std::string utf8_stand_in(std::string_view bytes,
                                 std::size_t max_bytes = std::string::npos) {
    std::string text;
    text.reserve(std::min(bytes.size(), max_bytes));
    for (std::size_t at = 0; at < bytes.size();) {
        const std::size_t length = utf8_sequence_length(bytes, at);
        const std::size_t adds = length > 0 ? length : kUtf8Replacement.size();
        if (text.size() + adds > max_bytes) {
            break;
        }
        if (length > 0) {
            text.append(bytes.data() + at, length);
            at += length;
        } else {
            text += kUtf8Replacement;
            at += 1;
        }
    }
    return text;
}

}  // namespace sbx
