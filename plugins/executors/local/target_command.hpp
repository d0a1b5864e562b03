// The target's command line and environment as execve() wants them, built before clone()
// because the child may not allocate; and PATH lookup of argv[0] in the target's own PATH.
#pragma once

#include <string>
#include <vector>

#include "run_spec.hpp"

namespace sbx::local {

// Owns strings and the NULL-terminated char* array pointing into them.
class CStringArray {
  public:
    explicit CStringArray(std::vector<std::string> strings);
    CStringArray(const CStringArray &) = delete;
    CStringArray &operator=(const CStringArray &) = delete;
    [[nodiscard]] char *const *data() const { return pointers_.data(); }

  private:
    std::vector<std::string> strings_;
    std::vector<char *> pointers_;
};

// "NAME=value" entries. inherit_env=false: PATH (the host's, or a default), HOME and TMPDIR
// (the workspace), LANG=C.UTF-8, then the spec's env. inherit_env=true: the host's
// environment, then the spec's env. A later entry replaces an earlier one of the same name.
std::vector<std::string> target_environment(const support::RunSpec &spec, bool inherit_env,
                                            const std::string &workspace);

struct ProgramLookup {
    std::string path;      // what to pass to execve
    int error = 0;         // errno when nothing executable was found (ENOENT, EACCES)
    std::string searched;  // the PATH that was searched, for the error message
};

// Resolves `name` like execvp, but in the target's PATH rather than the host's. A name with
// a slash is used as is (a relative one resolves in the workspace after chdir). Relative
// PATH entries are taken relative to the workspace, where the target will run.
ProgramLookup find_program(const std::string &name, const std::vector<std::string> &environment,
                           const std::string &workspace);

}  // namespace sbx::local
