// Saving, garbling and restoring credential files, shared by every instance of the plugin.
#include "credential_files.hpp"

#include <sbx/plugin.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include <sbx/process_identity.hpp>
#include "garble.hpp"

namespace sbx::broken_auth {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Held {
    int holders = 0;
    fs::path record;    // <records>/<pid>-<n>.json
    fs::path original;  // <records>/<pid>-<n>.original
    std::string content;
    mode_t mode = 0600;
};

// Instances of one host share files; the registry is per process, as the files are.
std::mutex &registry_mutex() {
    static std::mutex mutex;
    return mutex;
}
std::map<std::string, Held> &registry() {
    static std::map<std::string, Held> held;
    return held;
}

[[noreturn]] void fail(const std::string &what, const fs::path &path) {
    throw Error(SBX_ERROR, what + " " + path.string() + ": " + std::strerror(errno));
}

bool read_all(const fs::path &path, std::string &content) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return false;
    }
    content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

// Writes `content` into `path` in place (same inode, owner and mode), durably enough that a
// record written before it can always undo it.
void write_all(const fs::path &path, const std::string &content, mode_t create_mode) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, create_mode);
    if (fd < 0) {
        fail("cannot write", path);
    }
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t written = ::write(fd, content.data() + done, content.size() - done);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            const int error = errno;
            ::close(fd);
            errno = error;
            fail("cannot write", path);
        }
        done += static_cast<std::size_t>(written);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        fail("cannot write", path);
    }
}

}  // namespace

HoldResult hold_file(const fs::path &path, const fs::path &records, sbx::SplitMix64 &random) {
    const std::lock_guard<std::mutex> lock(registry_mutex());
    auto found = registry().find(path.string());
    if (found != registry().end()) {
        ++found->second.holders;
        return HoldResult::kGarbled;
    }
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
        return HoldResult::kAbsent;
    }
    Held held;
    if (!read_all(path, held.content)) {
        fail("cannot read", path);
    }
    const std::string wrong = garble(held.content, random);
    if (wrong == held.content) {
        return HoldResult::kUngarblable;
    }
    held.mode = info.st_mode & 07777;
    // The original and its record reach the disk before the file changes: a host killed at
    // any point leaves what sweep() needs to put it back.
    static std::atomic<std::uint64_t> counter{0};
    const ProcessIdentity self = ProcessIdentity::current();
    const std::string stem = std::to_string(self.pid) + "-" + std::to_string(++counter);
    fs::create_directories(records);
    held.original = records / (stem + ".original");
    held.record = records / (stem + ".json");
    write_all(held.original, held.content, 0600);
    const json record{{"host", {{"pid", self.pid}, {"start_time", self.start_time}}},
                      {"path", path.string()},
                      {"original", held.original.string()}};
    write_all(held.record, record.dump(), 0600);
    try {
        write_all(path, wrong, held.mode);
    } catch (const Error &) {
        std::error_code ignored;  // the file is as it was: nothing for sweep() to undo
        fs::remove(held.record, ignored);
        fs::remove(held.original, ignored);
        throw;
    }
    held.holders = 1;
    registry()[path.string()] = std::move(held);
    return HoldResult::kGarbled;
}

void release_file(const fs::path &path) {
    const std::lock_guard<std::mutex> lock(registry_mutex());
    auto found = registry().find(path.string());
    if (found == registry().end() || --found->second.holders > 0) {
        return;
    }
    const Held held = found->second;
    registry().erase(found);
    // Whatever the run did to the file, it gets its credentials back.
    write_all(path, held.content, held.mode);
    std::error_code ignored;
    fs::remove(held.record, ignored);
    fs::remove(held.original, ignored);
}

std::vector<std::string> sweep_files(const fs::path &records, bool dry_run) {
    std::vector<std::string> restored;
    std::error_code error;
    for (const auto &entry : fs::directory_iterator(records, error)) {
        if (entry.path().extension() != ".json") {
            continue;
        }
        std::string text;
        json record;
        try {
            if (!read_all(entry.path(), text)) {
                continue;
            }
            record = json::parse(text);
        } catch (const json::exception &) {
            continue;  // not ours, or cut short before the file was touched
        }
        const ProcessIdentity writer{record["host"].value("pid", 0),
                                     record["host"].value("start_time", 0ULL)};
        if (writer.alive()) {
            continue;
        }
        const fs::path path = record.value("path", std::string());
        const fs::path original = record.value("original", std::string());
        if (dry_run) {
            restored.push_back("restored " + path.string());
            continue;
        }
        std::string content;
        if (!path.empty() && read_all(original, content)) {
            write_all(path, content, 0600);  // in place: an existing file keeps its mode
            restored.push_back("restored " + path.string());
        }
        std::error_code ignored;
        fs::remove(original, ignored);
        fs::remove(entry.path(), ignored);
    }
    return restored;
}

}  // namespace sbx::broken_auth
