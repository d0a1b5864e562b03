// UTF-8 validation and repair of captured output. Done here rather than by the JSON
// serializer so the repaired text still respects the output cap.
#include "utf8.hpp"

#include <algorithm>

namespace sbx::local {
namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid sequence starting at `at`, or 0 when it is invalid.
std::size_t valid_sequence_length(std::string_view bytes, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) {
        return 1;
    }
    std::size_t length;
    unsigned char low = 0x80;  // allowed range of the second byte
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) {
            low = 0xA0;  // overlong
        } else if (lead == 0xED) {
            high = 0x9F;  // surrogates
        }
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) {
            low = 0x90;  // overlong
        } else if (lead == 0xF4) {
            high = 0x8F;  // above U+10FFFF
        }
    } else {
        return 0;
    }
    if (at + length > bytes.size()) {
        return 0;
    }
    if (byte(at + 1) < low || byte(at + 1) > high) {
        return 0;
    }
    for (std::size_t i = 2; i < length; ++i) {
        if ((byte(at + i) & 0xC0) != 0x80) {
            return 0;
        }
    }
    return length;
}

}  // namespace

std::string sanitize_utf8(std::string_view bytes, std::size_t max_bytes) {
    std::string result;
    result.reserve(std::min(bytes.size(), max_bytes));
    std::size_t at = 0;
    while (at < bytes.size()) {
        const std::size_t length = valid_sequence_length(bytes, at);
        const std::size_t adds = length > 0 ? length : sizeof(kReplacement) - 1;
        if (result.size() + adds > max_bytes) {
            break;
        }
        if (length > 0) {
            result.append(bytes.data() + at, length);
            at += length;
        } else {
            result.append(kReplacement, sizeof(kReplacement) - 1);
            at += 1;
        }
    }
    return result;
}

}  // namespace sbx::local
