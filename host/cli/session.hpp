// What every recording command tells its user about a session: the plugins it disabled
// (and the exit code that follows), and the options --recover takes from the session. The
// bookkeeping itself is engine/session_bookkeeping.
#pragma once

#include <boost/program_options/variables_map.hpp>
#include <initializer_list>
#include <string>
#include <vector>

#include "engine/session_bookkeeping.hpp"
#include "store/plugin_failures.hpp"

namespace sbx::cli {

using engine::close_session;
using engine::disabled_plugins;
using engine::record_plugins_used;
using engine::within_session;

// --recover takes these options from the interrupted session: exit 2 when one is given.
void refuse_with_recover(const std::string &command,
                         const boost::program_options::variables_map &given,
                         std::initializer_list<const char *> fixed);

// After a command's results: one line per disabled plugin on stderr (nothing when none),
// and the exit code: `code`, or 3 when `strict` (--strict-plugins, plugin_host.strict) and
// a plugin was disabled.
int finish_with_disabled_plugins(const std::vector<store::PluginFailure> &disabled, bool strict,
                                 int code);

}  // namespace sbx::cli
