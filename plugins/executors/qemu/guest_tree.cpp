// Permissions first (a folder must be enterable to be emptied), then remove_all.
#include "guest_tree.hpp"

#include <filesystem>

namespace sbx::qemu {

namespace fs = std::filesystem;

bool remove_guest_tree(const std::string &folder) {
    std::error_code error;
    for (fs::recursive_directory_iterator
             it(folder, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        std::error_code each;
        if (fs::is_directory(it->symlink_status(each))) {
            fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, each);
        }
    }
    error.clear();
    fs::remove_all(folder, error);
    return !error && !fs::exists(folder, error);
}

bool empty_guest_folder(const std::string &folder) {
    std::error_code error;
    // The folder itself first: the guest may have taken its own rights away.
    fs::permissions(folder, fs::perms::owner_all, fs::perm_options::add, error);
    bool emptied = true;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        std::error_code each;
        if (fs::is_directory(it->symlink_status(each))) {
            emptied = remove_guest_tree(it->path().string()) && emptied;
        } else {
            emptied = fs::remove(it->path(), each) && emptied;
        }
    }
    return emptied && !error && fs::is_empty(folder, error) && !error;
}

}  // namespace sbx::qemu
