// Helper processes of the tests (crash hosts) print log lines, then one JSON object on a
// line of its own once they are ready; the test waits for that line, not for a fixed time.
#pragma once

#include <chrono>
#include <fstream>
#include <string>

#include "wait.hpp"

namespace sbx::test {

// The first complete line of `path` that starts a JSON object, as soon as the file has
// one; "" when none came before `deadline`.
inline std::string wait_for_json_line(const std::string &path,
                                      std::chrono::milliseconds deadline = kGenerousDeadline) {
    std::string found;
    (void)wait_until(
        [&] {
            std::ifstream in(path);
            for (std::string line; std::getline(in, line) && !in.eof();) {
                if (!line.empty() && line.front() == '{') {
                    found = line;
                    return true;
                }
            }
            return false;
        },
        deadline, std::chrono::milliseconds(20));
    return found;
}

}  // namespace sbx::test
