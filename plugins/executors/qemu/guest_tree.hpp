// Removing folders the guest wrote: it may have left folders of mode 000 behind, which a
// plain remove_all cannot enter. Used for a finished job's folder and a whole overlay.
#pragma once

#include <string>

namespace sbx::qemu {

// Gives the owner rwx on every folder below `folder`, then removes it all. True when it is
// gone.
bool remove_guest_tree(const std::string &folder);

}  // namespace sbx::qemu
