// Process identities from /proc, through the SDK's definition (sbx/process_identity.hpp),
// so the host's owner records and the plugins' state records read alike.
#include "util/process_identity.hpp"

#include <sbx/process_identity.hpp>

namespace sbx {

std::string own_identity() {
    return ProcessIdentity::current().text();
}

bool identity_alive(const std::string &identity) {
    return ProcessIdentity::parse(identity).alive();
}

}  // namespace sbx
