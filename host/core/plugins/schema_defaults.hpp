// What the host does to a plugin's configuration before validating it against the plugin's
// JSON Schema and handing it to create(): the schema's `default`s are filled in, and a whole
// float where the schema asks for an integer (10.0, as YAML and JSON tools write numbers)
// becomes that integer. Plugins then need not repeat their defaults in code.
#pragma once

#include <nlohmann/json.hpp>

namespace sbx::plugins {

// `config` with the defaults of every absent property of `schema` (at any depth: nested
// objects and array items are walked) and integral floats made integers where `schema`
// says "integer". Parts the schema does not describe are left as they are.
nlohmann::json with_schema_defaults(const nlohmann::json &schema, nlohmann::json config);

// The part of `schema` that describes the value at `pointer` ("/retries", "/list/0"); null
// when the schema does not say (no `properties` entry, no `items`).
nlohmann::json subschema_at(const nlohmann::json &schema, const std::string &pointer);

}  // namespace sbx::plugins
