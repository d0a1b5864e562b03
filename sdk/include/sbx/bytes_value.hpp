// The `$bytes` convention of input values: `{"$bytes": "<base64>"}` (an object with exactly
// that key, standard base64 with padding) stands for raw bytes that a JSON string cannot
// hold (invalid UTF-8). Stub strategies return such values; the host expands them into the
// exact bytes. Header-only and free of any JSON library, so the host, the built-in plugins
// and third-party plugins share one definition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sbx {

// Standard base64 (RFC 4648), with '=' padding.
inline std::string base64_encode(std::string_view bytes) {
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t n = (static_cast<uint8_t>(bytes[i]) << 16U) |
                           (static_cast<uint8_t>(bytes[i + 1]) << 8U) |
                           static_cast<uint8_t>(bytes[i + 2]);
        out += kAlphabet[(n >> 18U) & 63U];
        out += kAlphabet[(n >> 12U) & 63U];
        out += kAlphabet[(n >> 6U) & 63U];
        out += kAlphabet[n & 63U];
    }
    if (i < bytes.size()) {
        uint32_t n = static_cast<uint32_t>(static_cast<uint8_t>(bytes[i])) << 16U;
        const bool two = i + 1 < bytes.size();
        if (two) {
            n |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i + 1])) << 8U;
        }
        out += kAlphabet[(n >> 18U) & 63U];
        out += kAlphabet[(n >> 12U) & 63U];
        out += two ? kAlphabet[(n >> 6U) & 63U] : '=';
        out += '=';
    }
    return out;
}

// The bytes of standard padded base64 text; nullopt for anything else (a wrong length,
// a character outside the alphabet, padding in the middle, non-zero bits after the end).
inline std::optional<std::string> base64_decode(std::string_view text) {
    const auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '+' ? 62 : c == '/' ? 63 : -1;
    };
    if (text.size() % 4 != 0) {
        return std::nullopt;
    }
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (std::size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        const int padding =
            last ? (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=') : 0;
        uint32_t n = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const int v = k >= 4U - static_cast<std::size_t>(padding) ? 0 : value(text[i + k]);
            if (v < 0) {
                return std::nullopt;
            }
            n = (n << 6U) | static_cast<uint32_t>(v);
        }
        // Canonical form only: the bits a padded group leaves over must be zero, so every
        // byte string has exactly one text (values compare equal when their bytes do).
        if ((padding == 1 && (n & 0xFFU) != 0) || (padding == 2 && (n & 0xFFFFU) != 0)) {
            return std::nullopt;
        }
        out += static_cast<char>((n >> 16U) & 0xFFU);
        if (padding < 2) {
            out += static_cast<char>((n >> 8U) & 0xFFU);
        }
        if (padding < 1) {
            out += static_cast<char>(n & 0xFFU);
        }
    }
    return out;
}

// The JSON text of a `$bytes` value holding `bytes`: {"$bytes":"..."}.
inline std::string bytes_value_json(std::string_view bytes) {
    return "{\"$bytes\":\"" + base64_encode(bytes) + "\"}";
}

inline constexpr std::string_view kBytesKey = "$bytes";

}  // namespace sbx
