#include "config/variable_names.hpp"

#include <algorithm>
#include <cctype>

namespace sbx::config {

std::string upper_name(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return name;
}

bool is_plain_name(const std::string &name) {
    return !name.empty() && !(name.front() >= '0' && name.front() <= '9') &&
           name.find_first_not_of(
               "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
               std::string::npos;
}

}  // namespace sbx::config
