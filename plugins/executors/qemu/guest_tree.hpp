// Removing folders the guest wrote: it may have left folders of mode 000 behind, which a
// plain remove_all cannot enter. Used for a finished job's work/ folder, a job folder that
// cannot be reused, and a whole overlay.
#pragma once

#include <string>

namespace sbx::qemu {

// Gives the owner rwx on every folder below `folder`, then removes it all. True when it is
// gone.
bool remove_guest_tree(const std::string &folder);

// Removes everything in `folder` the same way, keeping `folder` itself (the agent holds it
// open). True when it is empty.
bool empty_guest_folder(const std::string &folder);

}  // namespace sbx::qemu
