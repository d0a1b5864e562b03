// Looking up a locale by name; the lists themselves are in locale_*.cpp.
#include "locale.hpp"

namespace sbx_faker {

const Locale *find_locale(std::string_view name) {
    for (const Locale *locale : {&de_de(), &en_us()}) {
        if (locale->name == name) {
            return locale;
        }
    }
    return nullptr;
}

std::string locale_list() {
    return "de_DE, en_US";
}

}  // namespace sbx_faker
