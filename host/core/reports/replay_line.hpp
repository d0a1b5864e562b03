// Command lines a report prints for someone to paste: into a terminal, a CI log, a chat. They
// must work as printed from any folder, so they name the settings file (absolute; nothing for
// the embedded settings) and the data dir (absolute), each quoted for a shell when it needs
// it. Without them `replay 9` finds no workflow, or another data dir's run 9.
#pragma once

#include <cstdint>
#include <string>

namespace sbx::reports {

// "sandbox-runner --config /abs/settings.yaml --data-dir /abs/data". `settings_source` is
// what sessions.settings_source holds: a path, or "... (embedded)".
std::string command_prefix(const std::string &settings_source, const std::string &data_dir);

// "<command_prefix> replay RUN".
std::string replay_line(const std::string &command_prefix, int64_t run);

}  // namespace sbx::reports
