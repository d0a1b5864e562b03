// Telling one failure from another: explore reports each distinct crash, hang or other
// failure (an uncaught exception's exit 1) once, however many inputs reach it. Two runs fail
// the same way when the same step ends the same way (the signal, the exit code, a timeout)
// with the same first words of its error: a sanitizer's SUMMARY line (the kind
// of error and where), a Python traceback's exception and innermost frame, or else the
// first two lines of stderr; addresses, long numbers (a pid, a byte count) and quoted text
// (the input a message quotes) do not count.
#pragma once

#include <optional>
#include <string>

#include "store/run_lookup.hpp"

namespace sbx::engine {

struct CrashSignature {
    std::string key;      // 16 hex digits, equal for crashes of one kind
    std::string summary;  // "step 'parse': SIGABRT; planted bug admin_flag", for people
};

// The signature of a run that crashed, hung or failed otherwise (its outcome class);
// nullopt for a run that passed or refused its input cleanly.
std::optional<CrashSignature> crash_signature(const store::RecordedRun &run);

// The part of a step's stderr that says which error it was (see above), normalized.
std::string error_words(const std::string &stderr_text);

}  // namespace sbx::engine
