// What kind of value a slot (or a JSON field) gets: chosen once from its type and a hint
// in its name, so `user_email: {type: string}` gets an email like `email: {type: email}`.
#pragma once

#include <string_view>

namespace sbx_faker {

enum class Generator {
    text,  // a few words of the locale (plain strings without a hint)
    first_name,
    last_name,
    full_name,
    username,
    email,
    url,
    phone,
    company,
    street,
    city,
    postcode,
    country,
    address,
    date,
    birthday,
    path,
    bytes,
    integer,
    number,
    boolean,
    choice,  // enum: one of the slot's values
    json,
};

// The generator's name in the response's "generators" map ("email", "first_name", ...).
const char *generator_name(Generator generator);

// The generator a text value named `name` gets from its name alone: first_name for
// "firstName", email for "user_email", ...; Generator::text when no hint matches.
Generator hinted(std::string_view name);

// The generator of a slot of `type` named `name`. Text types (string, name) follow the
// name's hint; a list slot's items follow it too, also in the plural (`files`: paths);
// every other type decides by itself (an int slot named zip stays an int).
Generator for_slot(std::string_view type, std::string_view name);

}  // namespace sbx_faker
