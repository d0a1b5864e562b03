// A workflow's `network_mocks:` entry: a canned HTTP answer the host serves for a run, which
// the steps reach as an upstream (so a run under safe_mode has something to talk to).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sbx::config {

struct NetworkMock {
    std::string name;                    // letters, digits and '_': SANDBOX_UPSTREAM_<NAME>
    std::string listen = "127.0.0.1:0";  // where the target connects (an upstream's `listen`)
    int status = 200;                    // the HTTP status of every answer
    std::string body;                    // `body`, or the contents of `body_file`
    // Header lines of every answer, in the order written; Content-Length and Connection
    // are the responder's own.
    std::vector<std::pair<std::string, std::string>> headers;
};

}  // namespace sbx::config
