// A disk image given in VM_SETTINGS is never written: each boot gets a qcow2 overlay over it
// in the boot's overlay folder (qemu-img create -b), gone with the folder.
#pragma once

#include <string>

namespace sbx::qemu {

// Creates `overlay` (qcow2) backed by `image` (qcow2 or raw, told by its magic bytes).
// Throws std::runtime_error with qemu-img's message when it cannot.
void create_disk_overlay(const std::string &image, const std::string &overlay);

}  // namespace sbx::qemu
