// Name hints: a slot or field name split into lower-case words ("userEmail", "user-email"
// and "USER_EMAIL" all give [user, email]), matched against word sets in a fixed priority,
// most specific first (so "company_name" is a company, "user_name" a username).
#include <cctype>
#include <initializer_list>
#include <string>
#include <vector>

#include "generator.hpp"

namespace sbx_faker {
namespace {

std::vector<std::string> words_of(std::string_view name) {
    std::vector<std::string> words(1);
    char previous = '\0';
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) == 0) {
            if (!words.back().empty()) {
                words.emplace_back();
            }
        } else {
            // camelCase: a capital after a lower-case letter or digit starts a word.
            if (std::isupper(u) != 0 && previous != '\0' &&
                (std::islower(static_cast<unsigned char>(previous)) != 0 ||
                 std::isdigit(static_cast<unsigned char>(previous)) != 0) &&
                !words.back().empty()) {
                words.emplace_back();
            }
            words.back() += static_cast<char>(std::tolower(u));
        }
        previous = c;
    }
    if (words.back().empty()) {
        words.pop_back();
    }
    return words;
}

bool has(const std::vector<std::string> &words, std::initializer_list<const char *> any) {
    for (const std::string &word : words) {
        for (const char *candidate : any) {
            if (word == candidate) {
                return true;
            }
        }
    }
    return false;
}

}  // namespace

Generator hinted(std::string_view name) {
    const std::vector<std::string> w = words_of(name);
    if (has(w, {"email", "mail", "emails"})) {
        return Generator::email;
    }
    if (has(w, {"url", "uri", "website", "homepage", "link", "href", "site"})) {
        return Generator::url;
    }
    if (has(w, {"phone", "telephone", "tel", "mobile", "cell", "fax", "phonenumber"})) {
        return Generator::phone;
    }
    if (has(w, {"zip", "zipcode", "postcode", "postal", "plz"})) {
        return Generator::postcode;
    }
    if (has(w, {"city", "town"})) {
        return Generator::city;
    }
    if (has(w, {"country"})) {
        return Generator::country;
    }
    if (has(w, {"street"})) {
        return Generator::street;
    }
    if (has(w, {"address", "addr"})) {
        return Generator::address;
    }
    if (has(w, {"path", "file", "filename", "dir", "directory", "folder"})) {
        return Generator::path;
    }
    if (has(w, {"company", "organization", "organisation", "org", "employer", "business"})) {
        return Generator::company;
    }
    if (has(w, {"username", "login", "handle", "nickname", "nick", "user"})) {
        return Generator::username;
    }
    if (has(w, {"firstname", "forename", "given"}) || (has(w, {"first"}) && has(w, {"name"}))) {
        return Generator::first_name;
    }
    if (has(w, {"lastname", "surname", "family"}) || (has(w, {"last"}) && has(w, {"name"}))) {
        return Generator::last_name;
    }
    if (has(w, {"name", "fullname", "author", "person", "customer", "owner", "contact"})) {
        return Generator::full_name;
    }
    if (has(w, {"birthday", "birthdate", "dob", "born"}) ||
        (has(w, {"birth"}) && has(w, {"date", "day"}))) {
        return Generator::birthday;
    }
    if (has(w, {"date", "day"})) {
        return Generator::date;
    }
    return Generator::text;
}

Generator for_slot(std::string_view type, std::string_view name) {
    if (type == "int") {
        return Generator::integer;
    }
    if (type == "float") {
        return Generator::number;
    }
    if (type == "bool") {
        return Generator::boolean;
    }
    if (type == "enum") {
        return Generator::choice;
    }
    if (type == "json") {
        return Generator::json;
    }
    if (type == "path") {
        return Generator::path;
    }
    if (type == "bytes") {
        return Generator::bytes;
    }
    if (type == "email") {
        return Generator::email;
    }
    if (type == "url") {
        return Generator::url;
    }
    if (type == "date") {
        // A date slot named birthday gets an adult's birthday rather than any date.
        return hinted(name) == Generator::birthday ? Generator::birthday : Generator::date;
    }
    const Generator hint = hinted(name);
    if (type == "list" && hint == Generator::text && name.size() > 1 && name.back() == 's') {
        return hinted(name.substr(0, name.size() - 1));  // `files` holds files
    }
    if (type == "name") {
        // A name slot is a person's name; its own name can only say which part.
        return hint == Generator::first_name || hint == Generator::last_name ||
                       hint == Generator::username
                   ? hint
                   : Generator::full_name;
    }
    return hint;  // string and any type the host does not know: text with a hint
}

const char *generator_name(Generator generator) {
    switch (generator) {
        case Generator::text:
            return "text";
        case Generator::first_name:
            return "first_name";
        case Generator::last_name:
            return "last_name";
        case Generator::full_name:
            return "full_name";
        case Generator::username:
            return "username";
        case Generator::email:
            return "email";
        case Generator::url:
            return "url";
        case Generator::phone:
            return "phone";
        case Generator::company:
            return "company";
        case Generator::street:
            return "street";
        case Generator::city:
            return "city";
        case Generator::postcode:
            return "postcode";
        case Generator::country:
            return "country";
        case Generator::address:
            return "address";
        case Generator::date:
            return "date";
        case Generator::birthday:
            return "birthday";
        case Generator::path:
            return "path";
        case Generator::bytes:
            return "bytes";
        case Generator::integer:
            return "integer";
        case Generator::number:
            return "number";
        case Generator::boolean:
            return "boolean";
        case Generator::choice:
            return "choice";
        case Generator::json:
            return "json";
    }
    return "text";
}

}  // namespace sbx_faker
