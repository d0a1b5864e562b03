#include "output_file.hpp"

#include <filesystem>

#include "util/errors.hpp"

namespace sbx::cli {

void check_output_file(const std::string &path, const std::string &option,
                       const std::string &example) {
    const std::filesystem::path file(path);
    std::error_code ec;
    if (file.filename().empty() || std::filesystem::is_directory(file, ec)) {
        throw InputError(option + " '" + path + "' names no file; pass a file name such as " +
                         option + " " + example);
    }
    const auto folder = file.parent_path().empty() ? "." : file.parent_path();
    if (!std::filesystem::is_directory(folder, ec)) {
        throw InputError(option + " '" + path + "': the directory '" + folder.string() +
                         "' does not exist; create it first or pass a file in an existing "
                         "directory");
    }
}

}  // namespace sbx::cli
