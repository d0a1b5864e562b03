// The MountView of a run (mount_view.hpp), built by the host from the request's paths: the
// arrays the view points into live here, and the strings they point at in the caller.
#pragma once

#include <vector>

#include "mount_view.hpp"
#include "support/filesystem_mode.hpp"

namespace sbx::local {

class ViewPlan {
  public:
    // `shown`: the paths shown at their own place (shown_paths.hpp); `binds` and
    // `bind_writable`: the `minimal` view's binds. Every string must outlive the plan.
    ViewPlan(support::FilesystemMode mode, const char *workdir, int workspace_mount_fd,
             const std::vector<support::BindPath> &shown, const std::vector<const char *> &binds,
             const std::vector<char> &bind_writable);
    ViewPlan(const ViewPlan &) = delete;
    ViewPlan &operator=(const ViewPlan &) = delete;
    ViewPlan(ViewPlan &&) = delete;
    ViewPlan &operator=(ViewPlan &&) = delete;
    ~ViewPlan() = default;

    [[nodiscard]] const MountView &view() const { return view_; }

  private:
    MountView view_;
    std::vector<const char *> shown_paths_;
    std::vector<char> shown_writable_;
    std::vector<const char *> bind_paths_;
    std::vector<char> bind_writable_;
};

}  // namespace sbx::local
