// Process identities from /proc, through the SDK's definition (sbx/process_identity.hpp),
// so the host's owner records and the plugins' state records read alike. The host's own
// records add the machine's name: a folder that two machines share (a TMPDIR or data dir
// on NFS) holds records whose pids mean nothing here, and they are not this machine's to
// judge dead.
#include "util/process_identity.hpp"

#include <unistd.h>

#include <sstream>

#include <sbx/process_identity.hpp>

namespace sbx {

std::string machine_name() {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    return host[0] != '\0' ? host : "unknown-machine";
}

std::string own_identity() {
    return ProcessIdentity::current().text() + " " + machine_name();
}

bool identity_alive(const std::string &identity) {
    std::istringstream fields(identity);
    std::string pid;
    std::string start;
    std::string machine;
    fields >> pid >> start >> machine;
    if (!machine.empty() && machine != machine_name()) {
        return true;  // another machine's process: alive as far as this one can tell
    }
    return ProcessIdentity::parse(identity).alive();
}

}  // namespace sbx
