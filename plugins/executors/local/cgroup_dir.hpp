// CgroupDir: one cgroup folder made for one run, of either cgroup version, removed when it
// goes out of scope after killing whatever is still inside.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include <sbx/unique_fd.hpp>

namespace sbx::local {

class CgroupDir {
  public:
    // mkdir <parent>/<name> (creating <parent> when missing). nullptr, with a debug log
    // naming the path and errno, when that is not possible.
    static std::unique_ptr<CgroupDir> create(const std::string &parent, const std::string &name);
    ~CgroupDir();
    CgroupDir(const CgroupDir &) = delete;
    CgroupDir &operator=(const CgroupDir &) = delete;

    [[nodiscard]] const std::string &path() const { return path_; }
    [[nodiscard]] bool has(const char *file) const;
    // Writes `value` into <path>/<file>; false (logged) on failure.
    bool write(const char *file, const std::string &value) const;
    // cgroup.procs opened for writing: the child writes "0" into it to join.
    [[nodiscard]] UniqueFd open_procs() const;
    // The folder itself, opened (for clone3's CLONE_INTO_CGROUP).
    [[nodiscard]] UniqueFd open_folder() const;

    // mkdir that accepts an existing folder; false (logged) otherwise.
    static bool make_folder(const std::string &path);
    static bool write_file(const std::string &path, const std::string &value);

  private:
    explicit CgroupDir(std::string path) : path_(std::move(path)) {}
    void kill_members() const;
    std::string path_;
};

// True when `folder` exists and we may create cgroups in it.
bool writable_folder(const std::string &folder);

}  // namespace sbx::local
