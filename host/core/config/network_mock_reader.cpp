// Reads a workflow's `network_mocks:`: each a canned HTTP answer reached as an upstream, so
// its name and listen address share the namespace of the workflow's upstreams and services.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

#include "config/section_readers.hpp"
#include "config/variable_names.hpp"
#include "util/input_file.hpp"
#include "util/number_parse.hpp"

namespace sbx::config {
namespace {

constexpr const char *kMockExample =
    "network_mocks: [{name: payments, listen: 8080, status: 200, body: stubbed, headers: "
    "{Content-Type: text/plain}}]";

// The answer of one mock is at most this big: it is held in memory and sent to every request.
constexpr std::size_t kMaxBodyBytes = std::size_t{16} << 20;

const std::vector<std::string> &mock_keys() {
    static const std::vector<std::string> values = {"name", "listen",    "status",
                                                    "body", "body_file", "headers"};
    return values;
}

// An HTTP header name is a token; a value has no line break (it would start a new header).
bool is_header_name(const std::string &name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
        return std::isalnum(c) != 0 ||
               std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) !=
                   std::string_view::npos;
    });
}

// `listen: 8080` is 127.0.0.1:8080; `listen: host:port` as an upstream's.
std::string read_listen(const YamlReader &reader, const Field &field, const std::string &what) {
    std::string text = reader.non_empty_text(field, "listen: 8080");
    if (text.find_first_not_of("0123456789") == std::string::npos) {
        const auto port = util::parse_uint64(text);
        if (!port || text.size() > 5 || *port > 65535) {
            reader.fail(reader.where(field),
                        "listen port " + text + " of " + what + " is out of range",
                        "write a port from 1 to 65535 (listen: 8080), or 0 (or nothing) for any "
                        "free one");
        }
        return "127.0.0.1:" + std::to_string(*port);
    }
    std::string why;
    if (!is_host_port(text, true, why)) {
        reader.fail(reader.where(field), "listen '" + text + "' of " + what + " " + why,
                    "write a port (listen: 8080) or host:port (listen: 127.0.0.1:8080)");
    }
    return text;
}

// `body_file:` is read now, relative to the settings file's folder, so a missing file is an
// error of the settings rather than of every run.
std::string read_body_file(const YamlReader &reader, const Field &field) {
    const std::string name = reader.non_empty_text(field, "body_file: mocks/payment.json");
    std::filesystem::path path(name);
    if (path.is_relative()) {
        path = std::filesystem::path(reader.file()).parent_path() / path;
    }
    try {
        return read_input_file(path, "the body_file", "give the path of a readable file",
                               kMaxBodyBytes);
    } catch (const std::exception &e) {
        reader.fail(reader.where(field), e.what(),
                    "write a path relative to the settings file's folder, or an absolute one");
    }
}

NetworkMock read_mock(const YamlReader &reader, const Field &field, std::string what) {
    NetworkMock mock;
    if (!field.value.IsMap()) {
        reader.fail(reader.where(field),
                    what + " is " + YamlReader::describe(field.value) + ", not a mapping",
                    std::string("write ") + kMockExample);
    }
    if (const YAML::Node name = field.value["name"]; name.IsDefined() && name.IsScalar()) {
        what = "network mock '" + name.Scalar() + "'" + what.substr(what.find(" of "));
    }
    bool has_body = false;
    for (const auto &entry : reader.fields(field, mock_keys(), what, kMockExample)) {
        if (entry.key == "name") {
            mock.name = reader.non_empty_text(entry, "name: payments");
            if (!is_plain_name(mock.name)) {
                reader.fail(reader.where(entry),
                            "network mock name '" + mock.name + "' is not a plain name",
                            "use letters, digits and '_', not starting with a digit, since it "
                            "names the variable SANDBOX_UPSTREAM_<NAME>; write e.g. name: "
                            "payments");
            }
        } else if (entry.key == "listen") {
            mock.listen = read_listen(reader, entry, what);
        } else if (entry.key == "status") {
            const int64_t status = reader.integer(entry, "status: 200");
            if (status < 100 || status > 599) {
                reader.fail(
                    reader.where(entry),
                    "status " + std::to_string(status) + " of " + what + " is not an HTTP status",
                    "write a status from 100 to 599, e.g. status: 200");
            }
            mock.status = static_cast<int>(status);
        } else if (entry.key == "body" || entry.key == "body_file") {
            if (has_body) {
                reader.fail(reader.where(entry), what + " has both body and body_file",
                            "keep one: the text itself (body: stubbed) or a file with it");
            }
            has_body = true;
            mock.body = entry.key == "body" ? reader.text(entry, "body: stubbed")
                                            : read_body_file(reader, entry);
        } else if (entry.key == "headers") {
            for (const auto &header : reader.entries(entry, "headers of " + what,
                                                     "headers: {Content-Type: text/plain}")) {
                const std::string value = reader.text(header, "Content-Type: text/plain");
                const std::string key = upper_name(header.key);
                if (!is_header_name(header.key) ||
                    value.find_first_of("\r\n") != std::string::npos) {
                    reader.fail(reader.where(header),
                                "header '" + header.key + "' of " + what + " is not an HTTP header",
                                "write a name of letters, digits and '-' and a one-line value, "
                                "e.g. Content-Type: text/plain");
                }
                if (key == "CONTENT-LENGTH" || key == "CONNECTION") {
                    reader.fail(
                        reader.where(header),
                        "header '" + header.key + "' of " + what + " is the responder's own",
                        "leave it out: every answer carries the body's length and "
                        "Connection: close");
                }
                mock.headers.emplace_back(header.key, value);
            }
        }
    }
    if (mock.name.empty()) {
        reader.fail(reader.where(field.value), what + " has no name",
                    std::string("give it a name (the steps find it at SANDBOX_UPSTREAM_<NAME>); "
                                "write ") +
                        kMockExample);
    }
    return mock;
}

}  // namespace

std::vector<NetworkMock> read_network_mocks(const YamlReader &reader, const Field &field,
                                            const std::string &workflow,
                                            const std::vector<Upstream> &upstreams,
                                            const std::vector<Service> &services) {
    std::vector<NetworkMock> mocks;
    if (!field.value.IsDefined() || field.value.IsNull()) {
        return mocks;
    }
    if (!field.value.IsSequence()) {
        reader.fail(reader.where(field),
                    "network_mocks of " + workflow + " must be a list, not " +
                        YamlReader::describe(field.value),
                    std::string("write ") + kMockExample);
    }
    // Each is an upstream of the run: one variable per name, one proxy per fixed address.
    std::map<std::string, std::string> names;
    std::set<std::string> listens;
    for (const auto &upstream : upstreams) {
        names.emplace(upper_name(upstream.name), "upstream '" + upstream.name + "'");
        listens.insert(upstream.listen);
    }
    for (const auto &service : services) {
        names.emplace(upper_name(service.name), "service '" + service.name + "'");
    }
    std::size_t index = 0;
    for (const auto &item : field.value) {
        ++index;
        const std::string what = "network mock " + std::to_string(index) + " of " + workflow;
        NetworkMock mock =
            read_mock(reader, {"network mock " + std::to_string(index), field.value, item}, what);
        const auto [taken, added] =
            names.emplace(upper_name(mock.name), "network mock '" + mock.name + "'");
        if (!added) {
            reader.fail(reader.where(item),
                        "network mock name '" + mock.name + "' of " + workflow + " is taken by " +
                            taken->second,
                        "give each mock, upstream and service its own name (SANDBOX_UPSTREAM_" +
                            upper_name(mock.name) + " names one; case does not count)");
        }
        const bool any_port =
            mock.listen.size() > 2 && mock.listen.compare(mock.listen.size() - 2, 2, ":0") == 0;
        if (!listens.insert(mock.listen).second && !any_port) {
            reader.fail(reader.where(item),
                        "listen " + mock.listen + " of network mock '" + mock.name + "' of " +
                            workflow + " is already taken by an upstream or another mock",
                        "give each its own port, or leave listen out for any free one");
        }
        mocks.push_back(std::move(mock));
    }
    return mocks;
}

}  // namespace sbx::config
