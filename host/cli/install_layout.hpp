// Where the running binary's install keeps its parts (config/install_layout).
#pragma once

#include "config/install_layout.hpp"

namespace sbx::cli {

using config::doc_reference;
using config::executable_path;

}  // namespace sbx::cli
