// `minimal` shows the shown paths as binds; `readonly` attaches them after its private /tmp.
#include "view_plan.hpp"

namespace sbx::local {

ViewPlan::ViewPlan(support::FilesystemMode mode, const char *workdir, int workspace_mount_fd,
                   const std::vector<support::BindPath> &shown,
                   const std::vector<const char *> &binds, const std::vector<char> &bind_writable)
    : bind_paths_(binds), bind_writable_(bind_writable) {
    view_.mode = mode;
    view_.workdir = workdir;
    view_.workspace_mount_fd = workspace_mount_fd;
    view_.fresh_proc = mode != support::FilesystemMode::kHost;
    for (const support::BindPath &path : shown) {
        shown_paths_.push_back(path.path.c_str());
        shown_writable_.push_back(path.writable ? 1 : 0);
    }
    if (mode == support::FilesystemMode::kMinimal) {
        bind_paths_.insert(bind_paths_.end(), shown_paths_.begin(), shown_paths_.end());
        bind_writable_.insert(bind_writable_.end(), shown_writable_.begin(), shown_writable_.end());
    } else if (mode == support::FilesystemMode::kReadonly) {
        view_.shown_paths = shown_paths_.data();
        view_.shown_writable = shown_writable_.data();
        view_.shown_count = shown_paths_.size();
    }
    view_.bind_paths = bind_paths_.data();
    view_.bind_writable = bind_writable_.data();
    view_.bind_count = bind_paths_.size();
}

}  // namespace sbx::local
