// JSON values of the faker stub (see json_values.hpp).
#include "json_values.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string_view>

#include "generator.hpp"
#include "numbers.hpp"
#include "stream.hpp"
#include "text_length.hpp"
#include "text_values.hpp"

namespace sbx_faker {
namespace {

using nlohmann::json;
using Rng = sbx::SplitMix64;

constexpr int kMaxDepth = 32;       // deeper schemas end in null rather than recursing on
constexpr int64_t kMaxItems = 100;  // arrays a schema asks for are at most this long

std::optional<double> number_at(const json &object, const char *key, const std::string &where) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return std::nullopt;
    }
    if (!it->is_number()) {
        throw sbx::Error(SBX_INVALID, where + ": " + key + " must be a number");
    }
    return it->get<double>();
}

std::string text_of(Generator generator, const Locale &locale, Rng &rng) {
    std::string text;
    append_text(generator, locale, rng, text);
    return text;
}

// "2024-05-01T13:45:09Z": a date and a time of day.
std::string date_time(const Locale &locale, Rng &rng) {
    std::string text = text_of(Generator::date, locale, rng);
    char time[16];
    std::snprintf(time, sizeof time, "T%02d:%02d:%02dZ", static_cast<int>(rng.below(24)),
                  static_cast<int>(rng.below(60)), static_cast<int>(rng.below(60)));
    return text + time;
}

// A version 4 UUID: 122 random bits, the version and variant bits fixed.
std::string uuid(Rng &rng) {
    static const char kHex[] = "0123456789abcdef";
    std::string text;
    for (int i = 0; i < 32; ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) {
            text += '-';
        }
        const auto digit = rng.below(16);
        text += i == 12 ? '4' : (i == 16 ? kHex[8 + (digit & 3U)] : kHex[digit]);
    }
    return text;
}

json schema_string(const json &schema, std::string_view key, const Locale &locale, Rng &rng,
                   const std::string &where) {
    const std::string format = schema.value("format", json("")).is_string()
                                   ? schema.value("format", std::string())
                                   : std::string();
    if (format == "email" || format == "idn-email") {
        return text_of(Generator::email, locale, rng);
    }
    if (format == "uri" || format == "url" || format == "iri" || format == "uri-reference") {
        return text_of(Generator::url, locale, rng);
    }
    if (format == "date") {
        return text_of(Generator::date, locale, rng);
    }
    if (format == "date-time") {
        return date_time(locale, rng);
    }
    if (format == "uuid") {
        return uuid(rng);
    }
    const Generator generator = hinted(key);
    std::string text = text_of(generator, locale, rng);
    if (generator == Generator::text) {
        // Only free text is cut or padded: a shortened email would no longer be one.
        LengthBounds bounds;
        const auto min = number_at(schema, "minLength", where);
        const auto max = number_at(schema, "maxLength", where);
        bounds.min = min ? std::optional<int64_t>(static_cast<int64_t>(*min)) : std::nullopt;
        bounds.max = max ? std::optional<int64_t>(static_cast<int64_t>(*max)) : std::nullopt;
        if (bounds.min && bounds.max && *bounds.min > *bounds.max) {
            throw sbx::Error(SBX_INVALID, where + ": minLength is above maxLength");
        }
        fit_length(text, bounds, locale, rng);
    }
    return text;
}

// The schema's type: its `type`, the first that is not "null" of a list, or what its
// keywords imply.
std::string type_of(const json &schema) {
    const auto type = schema.find("type");
    if (type != schema.end() && type->is_string()) {
        return type->get<std::string>();
    }
    if (type != schema.end() && type->is_array()) {
        for (const json &t : *type) {
            if (t.is_string() && t.get_ref<const std::string &>() != "null") {
                return t.get<std::string>();
            }
        }
        return "null";
    }
    if (schema.contains("properties")) {
        return "object";
    }
    if (schema.contains("items")) {
        return "array";
    }
    return "string";
}

json schema_value(const json &schema, std::string_view key, const Locale &locale, uint64_t stream,
                  const std::string &where, int depth) {
    if (depth > kMaxDepth || !schema.is_object()) {
        return nullptr;  // also `true` and `false` schemas: nothing to follow
    }
    Rng rng(stream);
    if (schema.contains("const")) {
        return schema["const"];
    }
    const auto choices = schema.find("enum");
    if (choices != schema.end() && choices->is_array() && !choices->empty()) {
        return (*choices)[static_cast<std::size_t>(rng.below(choices->size()))];
    }
    const std::string type = type_of(schema);
    if (type == "object") {
        json object = json::object();
        const json properties = schema.value("properties", json::object());
        if (properties.is_object()) {
            for (const auto &[name, property] : properties.items()) {
                object[name] = schema_value(property, name, locale, mix(stream, name),
                                            where + "." + name, depth + 1);
            }
        }
        return object;
    }
    if (type == "array") {
        const auto min_items = number_at(schema, "minItems", where);
        const auto max_items = number_at(schema, "maxItems", where);
        const int64_t lo =
            std::clamp<int64_t>(static_cast<int64_t>(min_items.value_or(1)), 0, kMaxItems);
        const int64_t hi = std::clamp<int64_t>(
            static_cast<int64_t>(max_items.value_or(static_cast<double>(std::max<int64_t>(lo, 3)))),
            0, kMaxItems);
        if (lo > hi) {
            throw sbx::Error(SBX_INVALID, where + ": minItems is above maxItems");
        }
        const json items = schema.value("items", json::object());
        json array = json::array();
        const int64_t count = rng.between(lo, hi);
        for (int64_t i = 0; i < count; ++i) {
            array.push_back(schema_value(items, key, locale, mix(stream, static_cast<uint64_t>(i)),
                                         where + "[]", depth + 1));
        }
        return array;
    }
    if (type == "integer" || type == "number") {
        std::optional<double> min = number_at(schema, "minimum", where);
        std::optional<double> max = number_at(schema, "maximum", where);
        // Numeric exclusive bounds (draft 6 and later); integers step past them by one.
        const double step = type == "integer" ? 1.0 : 0.0;
        if (const auto above = number_at(schema, "exclusiveMinimum", where)) {
            min = std::nextafter(*above, HUGE_VAL) + step;
        }
        if (const auto below = number_at(schema, "exclusiveMaximum", where)) {
            max = std::nextafter(*below, -HUGE_VAL) - step;
        }
        if (type == "integer") {
            return draw(int_range(min, max, where), rng);
        }
        return draw(float_range(min, max, where), rng);
    }
    if (type == "boolean") {
        return rng.below(2) == 1;
    }
    if (type == "null") {
        return nullptr;
    }
    return schema_string(schema, key, locale, rng, where);
}

bool looks_like_date(const std::string &text) {
    return text.size() >= 10 && text[4] == '-' && text[7] == '-' &&
           std::all_of(text.begin(), text.begin() + 4, [](char c) { return c >= '0' && c <= '9'; });
}

json example_string(const std::string &example, std::string_view key, const Locale &locale,
                    Rng &rng) {
    Generator generator = hinted(key);
    if (generator == Generator::text) {
        if (example.find('@') != std::string::npos) {
            generator = Generator::email;
        } else if (example.rfind("http://", 0) == 0 || example.rfind("https://", 0) == 0) {
            generator = Generator::url;
        } else if (looks_like_date(example)) {
            generator = Generator::date;
        }
    }
    return text_of(generator, locale, rng);
}

json example_value(const json &example, std::string_view key, const Locale &locale,
                   uint64_t stream) {
    Rng rng(stream);
    switch (example.type()) {
        case json::value_t::object: {
            json object = json::object();
            for (const auto &[name, value] : example.items()) {
                object[name] = example_value(value, name, locale, mix(stream, name));
            }
            return object;
        }
        case json::value_t::array: {
            json array = json::array();
            for (std::size_t i = 0; i < example.size(); ++i) {
                array.push_back(example_value(example[i], key, locale, mix(stream, uint64_t{i})));
            }
            return array;
        }
        case json::value_t::string:
            return example_string(example.get<std::string>(), key, locale, rng);
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
            return draw(example.get<double>() < 0 ? IntRange{-1000, 1000} : IntRange{}, rng);
        case json::value_t::number_float:
            return draw(example.get<double>() < 0 ? FloatRange{-1000.0, 1000.0} : FloatRange{},
                        rng);
        case json::value_t::boolean:
            return rng.below(2) == 1;
        default:
            return example;  // null (and the discarded type) stay as they are
    }
}

}  // namespace

json from_schema(const json &schema, const Locale &locale, uint64_t stream,
                 const std::string &where) {
    return schema_value(schema, "", locale, stream, where, 0);
}

json like_example(const json &example, const Locale &locale, uint64_t stream) {
    return example_value(example, "", locale, stream);
}

const json &default_record() {
    static const json record = {{"id", 1},
                                {"name", "Alex Example"},
                                {"email", "alex@example.com"},
                                {"city", "Springfield"},
                                {"created", "2024-01-01"}};
    return record;
}

}  // namespace sbx_faker
