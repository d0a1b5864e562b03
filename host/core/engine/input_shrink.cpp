// Shrinking one input value: ddmin over members, elements, code points and bytes; numbers
// toward 0. Each kind tries its simplest form first ("", 0, {}, []): one run when the
// value does not matter at all.
#include "engine/input_shrink.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <sbx/bytes_value.hpp>
#include "engine/ddmin.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

using Units = std::vector<std::string>;

// The length of the UTF-8 sequence that starts with `lead`, 0 when it cannot start one.
size_t sequence_length(unsigned char lead) {
    if (lead < 0x80) {
        return 1;
    }
    if (lead >= 0xC2 && lead <= 0xDF) {
        return 2;
    }
    if (lead >= 0xE0 && lead <= 0xEF) {
        return 3;
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        return 4;
    }
    return 0;
}

// The text's code points when it is valid UTF-8, else its single bytes: ddmin then never
// cuts a character in half, and a text that was not UTF-8 is shrunk byte by byte.
Units text_units(const std::string &text) {
    Units points;
    for (size_t i = 0; i < text.size();) {
        const size_t length = sequence_length(static_cast<unsigned char>(text[i]));
        bool valid = length != 0 && i + length <= text.size();
        for (size_t j = 1; valid && j < length; ++j) {
            valid = (static_cast<unsigned char>(text[i + j]) & 0xC0) == 0x80;
        }
        if (!valid) {
            Units bytes;
            for (const char c : text) {
                bytes.emplace_back(1, c);
            }
            return bytes;
        }
        points.push_back(text.substr(i, length));
        i += length;
    }
    return points;
}

std::string join(const Units &units) {
    std::string text;
    for (const auto &unit : units) {
        text += unit;
    }
    return text;
}

// ddmin over the text's units; "" is the caller's to try.
std::string shrink_units(const Units &units,
                         const std::function<bool(const std::string &)> &fails) {
    return join(ddmin<std::string>(units, [&](const Units &kept) { return fails(join(kept)); }));
}

json signed_value(uint64_t magnitude, bool negative) {
    if (!negative) {
        return json(magnitude);
    }
    // Two's complement: 0 - magnitude is the negative value for every magnitude <= 2^63.
    return json(static_cast<int64_t>(0 - magnitude));
}

// Integers: the sign dropped, trailing digits dropped, then bisection toward 0 for the
// smallest magnitude that still fails (exact when failing grows with the magnitude).
json shrink_integer(const json &value, const AcceptsValue &accepts) {
    bool negative =
        value.is_number_integer() && !value.is_number_unsigned() && value.get<int64_t>() < 0;
    uint64_t magnitude =
        negative ? 0 - static_cast<uint64_t>(value.get<int64_t>()) : value.get<uint64_t>();
    if (negative && accepts(signed_value(magnitude, false))) {
        negative = false;
    }
    while (magnitude >= 10 && accepts(signed_value(magnitude / 10, negative))) {
        magnitude /= 10;
    }
    uint64_t passes = 0;  // 0 was tried and did not fail
    while (magnitude - passes > 1) {
        const uint64_t middle = passes + (magnitude - passes) / 2;
        if (accepts(signed_value(middle, negative))) {
            magnitude = middle;
        } else {
            passes = middle;
        }
    }
    return signed_value(magnitude, negative);
}

// Fractions: the whole part alone, else fewer decimals.
json shrink_fraction(const json &value, const AcceptsValue &accepts) {
    const double number = value.get<double>();
    const double whole = std::trunc(number);
    if (whole != number && std::fabs(whole) < 9.0e18) {
        const json integer(static_cast<int64_t>(whole));
        if (accepts(integer)) {
            return integer == 0 ? integer : shrink_integer(integer, accepts);
        }
    }
    for (int decimals = 1; decimals <= 16; ++decimals) {
        const double scale = std::pow(10.0, decimals);
        const double rounded = std::round(number * scale) / scale;
        if (rounded == number) {
            break;
        }
        if (accepts(json(rounded))) {
            return json(rounded);
        }
    }
    return value;
}

json shrink_number(const json &value, const AcceptsValue &accepts) {
    if (value == json(0)) {
        return value;
    }
    if (accepts(json(0))) {
        return json(0);
    }
    return value.is_number_float() ? shrink_fraction(value, accepts)
                                   : shrink_integer(value, accepts);
}

json shrink_string(const std::string &text, const AcceptsValue &accepts) {
    if (text.empty()) {
        return text;
    }
    if (accepts(json(""))) {
        return json("");
    }
    std::string current = text;
    // A slot often holds a document as text: shrink it as structure while it parses.
    const json document = json::parse(text, nullptr, false);
    if (!document.is_discarded()) {
        const json shrunk = shrink_value(
            document, [&](const json &candidate) { return accepts(json(candidate.dump())); });
        if (shrunk != document) {
            current = shrunk.dump();
        }
        // Then as text only if the target takes a broken document too (a target that never
        // parses it may need less); one run without the first character asks. A target
        // that parses it would refuse every cut, at about two runs per character.
        const auto units = text_units(current);
        const Units rest(units.begin() + 1, units.end());
        if (units.size() < 2 || !accepts(json(join(rest)))) {
            return json(current);
        }
        current = join(rest);
    }
    return json(shrink_units(text_units(current), [&](const std::string &candidate) {
        return accepts(json(candidate));
    }));
}

json shrink_bytes(const std::string &bytes, const AcceptsValue &accepts) {
    if (bytes.empty() || accepts(bytes_value(""))) {
        return bytes_value("");
    }
    Units units;
    for (const char c : bytes) {
        units.emplace_back(1, c);
    }
    return bytes_value(shrink_units(
        units, [&](const std::string &candidate) { return accepts(bytes_value(candidate)); }));
}

json shrink_object(const json &value, const AcceptsValue &accepts) {
    if (value.empty() || accepts(json::object())) {
        return json::object();
    }
    std::vector<std::string> names;
    for (const auto &[name, member] : value.items()) {
        names.push_back(name);
    }
    const auto with = [&](const std::vector<std::string> &kept) {
        json object = json::object();
        for (const auto &name : kept) {
            object[name] = value[name];
        }
        return object;
    };
    names = ddmin<std::string>(
        names, [&](const std::vector<std::string> &kept) { return accepts(with(kept)); });
    json current = with(names);
    for (const auto &name : names) {
        current[name] = shrink_value(current[name], [&](const json &candidate) {
            json object = current;
            object[name] = candidate;
            return accepts(object);
        });
    }
    // The names too: a trigger may sit in a member's name.
    for (const auto &name : names) {
        std::string now = name;
        const auto renamed = [&](const std::string &candidate) {
            if (candidate != now && current.contains(candidate)) {
                return json();  // the rename would merge two members
            }
            json object = current;
            object.erase(now);
            object[candidate] = current[now];
            return object;
        };
        const auto fails = [&](const std::string &candidate) {
            const json object = renamed(candidate);
            return !object.is_null() && accepts(object);
        };
        const std::string shrunk =
            now.empty() || fails("") ? std::string() : shrink_units(text_units(now), fails);
        if (shrunk != now) {
            current = renamed(shrunk);
        }
    }
    return current;
}

json shrink_array(const json &value, const AcceptsValue &accepts) {
    if (value.empty() || accepts(json::array())) {
        return json::array();
    }
    std::vector<size_t> indexes;
    for (size_t i = 0; i < value.size(); ++i) {
        indexes.push_back(i);
    }
    const auto with = [&](const std::vector<size_t> &kept) {
        json array = json::array();
        for (const size_t i : kept) {
            array.push_back(value[i]);
        }
        return array;
    };
    indexes = ddmin<size_t>(indexes,
                            [&](const std::vector<size_t> &kept) { return accepts(with(kept)); });
    json current = with(indexes);
    for (size_t i = 0; i < current.size(); ++i) {
        current[i] = shrink_value(current[i], [&](const json &candidate) {
            json array = current;
            array[i] = candidate;
            return accepts(array);
        });
    }
    return current;
}

}  // namespace

json shrink_value(const json &value, const AcceptsValue &accepts) {
    if (const auto bytes = bytes_of(value)) {
        return shrink_bytes(*bytes, accepts);
    }
    switch (value.type()) {
        case json::value_t::object:
            return shrink_object(value, accepts);
        case json::value_t::array:
            return shrink_array(value, accepts);
        case json::value_t::string:
            return shrink_string(value.get_ref<const std::string &>(), accepts);
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float:
            return shrink_number(value, accepts);
        case json::value_t::boolean:
            return value.get<bool>() && accepts(json(false)) ? json(false) : value;
        default:
            return value;
    }
}

json bytes_value(const std::string &bytes) {
    return json{{"$bytes", sbx::base64_encode(bytes)}};
}

size_t value_size(const json &value) {
    // Exactly what a template writes, so `$bytes` nested in a document counts its bytes,
    // not its base64.
    return expansion_text(value).size();
}

std::string escaped_bytes(const std::string &bytes) {
    std::string text;
    for (const char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\') {
            text += "\\\\";
        } else if (c == '\n') {
            text += "\\n";
        } else if (c == '\t') {
            text += "\\t";
        } else if (c == '\r') {
            text += "\\r";
        } else if (byte >= 0x20 && byte < 0x7F) {
            text += c;
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02X", byte);
            text += hex;
        }
    }
    return text;
}

}  // namespace sbx::engine
