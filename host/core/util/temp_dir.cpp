// RAII temporary directories for run workspaces.
#include "util/temp_dir.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "util/errors.hpp"

namespace sbx {

TempDir::TempDir(const std::filesystem::path &parent, const std::string &prefix) {
    std::error_code ec;
    std::filesystem::create_directories(parent, ec);
    std::string pattern = (parent / (prefix + "XXXXXX")).string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) {
        throw EnvironmentError("cannot create a directory under " + parent.string() + ": " +
                               std::strerror(errno));
    }
    path_ = buffer.data();
}

TempDir::~TempDir() {
    if (!released_) {
        std::error_code ec;  // a destructor must not throw; leftovers go to purge-stale
        std::filesystem::remove_all(path_, ec);
    }
}

}  // namespace sbx
