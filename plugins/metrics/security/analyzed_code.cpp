#include "analyzed_code.hpp"

#include "support/system_tool.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>

namespace sbx::security {
namespace {

using nlohmann::json;

constexpr std::streamsize kMaxFileBytes = 256LL << 20;  // larger files are not read

std::string base_name(const std::string &path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_python(const std::string &name) {
    static const std::regex python("python[0-9.]*");
    return std::regex_match(name, python);
}

// ShellCheck's dialect for a shell's name, or "" for a program that is not a shell.
std::string shell_dialect(const std::string &name) {
    if (name == "sh" || name == "bash" || name == "dash" || name == "ksh") {
        return name;
    }
    return "";
}

// An absolute path of `program`: as given when it has a slash, else the first executable of
// that name in PATH (and the sbin folders); nullopt for a relative path or nothing found.
std::optional<std::string> located(const std::string &program) {
    if (program.empty()) {
        return std::nullopt;
    }
    if (program.find('/') != std::string::npos) {
        return program.front() == '/' ? std::optional<std::string>(program) : std::nullopt;
    }
    return support::find_executable(program);
}

// What a regular file within kMaxFileBytes is, by its first bytes (enough for the ELF magic
// and a #! line), with its identity; nullopt for anything else.
struct FileHead {
    std::string bytes;
    std::string identity;
};
// Up to `limit` first bytes of `path` when it is a regular file within kMaxFileBytes (the
// whole file with a limit of 0), and its stat; nullopt for anything else.
std::optional<std::string> read_regular(const std::string &path, std::size_t limit,
                                        struct stat &info) {
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
        info.st_size > kMaxFileBytes) {
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return std::nullopt;
    }
    const auto size = static_cast<std::size_t>(info.st_size);
    std::string bytes(limit == 0 ? size : std::min(limit, size), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return bytes;
}

std::optional<FileHead> read_head(const std::string &path) {
    struct stat info {};
    auto bytes = read_regular(path, 512, info);
    if (!bytes) {
        return std::nullopt;
    }
    return FileHead{std::move(*bytes),
                    std::to_string(info.st_dev) + ":" + std::to_string(info.st_ino) + ":" +
                        std::to_string(info.st_size) + ":" + std::to_string(info.st_mtim.tv_sec) +
                        "." + std::to_string(info.st_mtim.tv_nsec)};
}

// The interpreter a `#!` line names (`/usr/bin/env python3` names python3), or "".
std::string shebang_interpreter(const std::string &bytes) {
    if (bytes.compare(0, 2, "#!") != 0) {
        return "";
    }
    std::string line = bytes.substr(2, bytes.find('\n') - 2);
    std::vector<std::string> words;
    for (std::size_t at = 0; at < line.size();) {
        const auto start = line.find_first_not_of(" \t", at);
        if (start == std::string::npos) {
            break;
        }
        const auto end = std::min(line.find_first_of(" \t", start), line.size());
        words.push_back(line.substr(start, end - start));
        at = end;
    }
    if (words.empty()) {
        return "";
    }
    std::string first = base_name(words[0]);
    if (first == "env") {
        for (std::size_t i = 1; i < words.size(); ++i) {
            if (words[i].front() != '-') {
                return base_name(words[i]);
            }
        }
        return "";
    }
    return first;
}

// A script file (`head`: its first bytes) by what runs it: `interpreter` when known, else
// its #! line.
void add_script(const std::string &path, std::string interpreter,
                const std::optional<FileHead> &head, std::vector<AnalyzedCode> &into) {
    if (!head) {
        return;
    }
    if (interpreter.empty()) {
        interpreter = shebang_interpreter(head->bytes);
    }
    if (is_python(interpreter)) {
        into.push_back({AnalyzedCode::Kind::python, "", path, "", head->identity});
    } else if (const auto dialect = shell_dialect(interpreter); !dialect.empty()) {
        into.push_back({AnalyzedCode::Kind::shell, dialect, path, "", head->identity});
    }
}

// The script or -c snippet an interpreter's arguments give.
void add_interpreted(const json &argv, const std::string &interpreter,
                     std::vector<AnalyzedCode> &into) {
    for (std::size_t i = 1; i < argv.size(); ++i) {
        if (!argv[i].is_string()) {
            return;
        }
        const std::string arg = argv[i].get<std::string>();
        if (arg == "-c") {
            if (i + 1 < argv.size() && argv[i + 1].is_string()) {
                const bool python = is_python(interpreter);
                into.push_back({python ? AnalyzedCode::Kind::python : AnalyzedCode::Kind::shell,
                                python ? "" : shell_dialect(interpreter),
                                interpreter + " -c snippet", argv[i + 1].get<std::string>(), ""});
            }
            return;
        }
        if (arg == "-m" || arg == "-" || arg == "--") {
            return;  // a module, or the script on stdin: no file to read
        }
        if (!arg.empty() && arg.front() == '-') {
            continue;  // an option of the interpreter
        }
        if (arg.front() == '/') {
            add_script(arg, interpreter, read_head(arg), into);
        }
        return;  // the first operand is the script; a relative one is in the gone workspace
    }
}

}  // namespace

std::vector<AnalyzedCode> analyzed_code(const json &argv) {
    std::vector<AnalyzedCode> code;
    if (!argv.is_array() || argv.empty() || !argv[0].is_string()) {
        return code;
    }
    const std::string program = argv[0].get<std::string>();
    const std::string name = base_name(program);
    if (is_python(name) || !shell_dialect(name).empty()) {
        add_interpreted(argv, name, code);
        return code;
    }
    const auto path = located(program);
    if (!path) {
        return code;
    }
    const auto head = read_head(*path);
    if (head && head->bytes.compare(0, 4,
                                    "\x7f"
                                    "ELF") == 0) {
        code.push_back({AnalyzedCode::Kind::elf, "", *path, "", head->identity});
    } else {
        add_script(*path, "", head, code);  // read once: its head says which script it is
    }
    return code;
}

std::optional<std::string> read_code(const std::string &path) {
    struct stat info {};
    return read_regular(path, 0, info);
}

}  // namespace sbx::security
