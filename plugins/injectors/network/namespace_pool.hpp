// Namespaces shared by every instance of the plugin in this process: the host's workers
// each have their own injector instance, and runs of one preset on two workers should
// still share one namespace (making one takes a global kernel lock).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "network_namespace.hpp"

namespace sbx::network {

// The live namespace made for `key`, or a new one from `make` (under the pool's lock, so a
// key never gets two). `reused` says which. The pool holds no reference: a namespace lives
// while some instance or run holds it.
std::shared_ptr<NetworkNamespace> shared_namespace(
    const std::string &key, const std::function<std::shared_ptr<NetworkNamespace>()> &make,
    bool &reused);

}  // namespace sbx::network
