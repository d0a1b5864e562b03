// A directory that exists for as long as its owner: created fresh, removed with its
// contents when the owner goes out of scope (unless released).
#pragma once

#include <filesystem>

namespace sbx {

class TempDir {
  public:
    // Creates `<parent>/<prefix>XXXXXX`; throws EnvironmentError naming the path.
    TempDir(const std::filesystem::path &parent, const std::string &prefix);
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    [[nodiscard]] const std::filesystem::path &path() const { return path_; }
    // Keeps the directory after destruction (for --keep-workspaces).
    void release() { released_ = true; }

  private:
    std::filesystem::path path_;
    bool released_ = false;
};

}  // namespace sbx
