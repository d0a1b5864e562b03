// Services whose host is gone (SIGKILLed, crashed): what `purge-stale` stops and
// `check-resources` lists. A service dies with the host thread that started it
// (PR_SET_PDEATHSIG); what it started in its process group may not, and is found here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sbx::engine {

// Kills the process group of each service recorded under <state_dir>/services whose host
// is gone, and removes its record and folder; `dry_run` only lists. Returns one line per
// service: "api of host 4242: 2 process(es)". An image service's container goes by
// sweep_service_containers (engine/service_container.hpp), first; while
// `containers_unreachable` says the engine could not be asked, a record that names a
// container is kept.
std::vector<std::string> sweep_services(const std::filesystem::path &state_dir, bool dry_run,
                                        const std::string &containers_unreachable = "");

}  // namespace sbx::engine
