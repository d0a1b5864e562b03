// Credential files garbled in place for the runs that hold them, and put back. The original is
// saved in the state folder, with a record naming this host, before the file is touched; the
// last run to let go restores it, and sweep() restores those of hosts that died meanwhile.
#pragma once

#include <sbx/random.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sbx::broken_auth {

enum class HoldResult {
    kGarbled,     // this run holds the file garbled (possibly garbled by an earlier holder)
    kAbsent,      // no such file: nothing to invalidate
    kUngarblable  // no letter or digit in it: it cannot be made wrong with the same shape
};

// Garbles `path` for one more run. The first holder in this process saves, records and
// garbles it; later ones (concurrent runs) only count. Throws sbx::Error naming the file.
HoldResult hold_file(const std::filesystem::path &path, const std::filesystem::path &records,
                     sbx::SplitMix64 &random);

// One run lets go of `path`; the last one writes the original back and removes its record.
// Throws sbx::Error when the original cannot be written back (the record stays for sweep).
void release_file(const std::filesystem::path &path);

// Restores the files recorded in `records` by hosts that are no longer running, and removes
// their records; what it restored, as "restored PATH". With `dry_run`, only says what it
// would restore.
std::vector<std::string> sweep_files(const std::filesystem::path &records, bool dry_run);

}  // namespace sbx::broken_auth
