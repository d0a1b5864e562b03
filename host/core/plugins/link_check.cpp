// The link pre-flight of `plugins verify`: dlopen/dlvsym/dlinfo on the libraries a plugin
// needs, and their .gnu.version_d read with the bounded ELF reader.
#include "plugins/link_check.hpp"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "plugins/plugin.hpp"
#include "util/number_parse.hpp"

namespace sbx::plugins {
namespace {

// At most this many undefined symbols are named, one line each; the rest are counted.
constexpr size_t kMaxSymbolLines = 5;

struct Library {
    void *handle = nullptr;             // never closed: the plugin load reuses it
    std::string path;                   // where the loader found it
    std::set<std::string> definitions;  // its version names
    std::string error;                  // why it could not be loaded
};

Library open_library(const std::string &soname) {
    Library library;
    library.handle = dlopen(soname.c_str(), RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    if (library.handle == nullptr) {
        library.handle = dlopen(soname.c_str(), RTLD_LAZY | RTLD_LOCAL);
    }
    if (library.handle == nullptr) {
        const char *why = dlerror();
        library.error = why != nullptr ? why : "not found";
        return library;
    }
    link_map *map = nullptr;
    if (dlinfo(library.handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr &&
        map->l_name != nullptr) {
        library.path = map->l_name;
    }
    if (!library.path.empty()) {
        try {
            const auto versions = read_version_definitions(library.path);
            library.definitions.insert(versions.begin(), versions.end());
        } catch (const PluginError &) {
            // An unreadable system library: its versions are checked by dlvsym below.
        }
    }
    return library;
}

// "GLIBC_2.34" -> family "GLIBC_", numbers {2, 34}.
std::pair<std::string, std::vector<unsigned long>> split_version(const std::string &name) {
    size_t digits = 0;
    while (digits < name.size() && !std::isdigit(static_cast<unsigned char>(name[digits]))) {
        ++digits;
    }
    std::vector<unsigned long> numbers;
    for (size_t at = digits; at < name.size();) {
        size_t end = at;
        while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) {
            ++end;
        }
        // At most 9 digits, which always fit; none (GLIBC_2..3) reads as 0.
        numbers.push_back(
            util::parse_uint64(name.substr(at, std::min<size_t>(end - at, 9))).value_or(0));
        at = end + 1;
    }
    return {name.substr(0, digits), numbers};
}

std::string family_of(const std::string &name) {
    return split_version(name).first;
}

// The newest version of `family` among `names`, or "".
std::string newest(const std::set<std::string> &names, const std::string &family) {
    std::string best;
    for (const auto &name : names) {
        if (family_of(name) == family && (best.empty() || version_less(best, name))) {
            best = name;
        }
    }
    return best;
}

std::string join(const std::vector<std::string> &items, const std::string &separator) {
    std::string out;
    for (const auto &item : items) {
        out += (out.empty() ? "" : separator) + item;
    }
    return out;
}

// Each needed version against the library's definitions; records the missing ones.
void check_versions(const DynamicLinking &linking, std::map<std::string, Library> &libraries,
                    LinkReport &report, std::set<std::string> &missing) {
    std::vector<std::string> summary;
    for (const auto &need : linking.version_needs) {
        auto &library = libraries[need.library];
        if (library.handle == nullptr) {
            continue;  // reported as a missing library
        }
        std::map<std::string, std::string> newest_needed;  // family -> version
        for (const auto &version : need.versions) {
            const auto family = family_of(version);
            auto &best = newest_needed[family];
            if (best.empty() || version_less(best, version)) {
                best = version;
            }
            if (!library.definitions.empty() && library.definitions.count(version) == 0) {
                missing.insert(need.library + "\n" + version);
            }
        }
        for (const auto &[family, version] : newest_needed) {
            const auto has = newest(library.definitions, family);
            if (missing.count(need.library + "\n" + version) != 0) {
                report.problems.push_back(
                    "needs " + version + " of " + need.library + ", but this machine's " +
                    need.library + " (" + library.path + ") has at most " +
                    (has.empty() ? std::string("no ") + family + " version" : has) +
                    "; build the plugin on a system no newer than this one (e.g. in a Debian "
                    "12 container) or with an older toolchain");
            } else {
                summary.push_back(need.library + " " + version +
                                  (has.empty() ? "" : " (has " + has + ")"));
            }
        }
    }
    report.versions_summary =
        summary.empty() ? "no versioned symbols" : "needs " + join(summary, ", ");
}

}  // namespace

bool version_less(const std::string &a, const std::string &b) {
    return split_version(a).second < split_version(b).second;
}

LinkReport check_links(const DynamicLinking &linking) {
    LinkReport report;
    std::map<std::string, Library> libraries;
    bool library_missing = false;
    for (const auto &soname : linking.needed) {
        auto library = open_library(soname);
        if (library.handle == nullptr) {
            library_missing = true;
            report.problems.push_back("needs the library " + soname +
                                      ", which this machine cannot load (" + library.error +
                                      "); install the package that provides it, or link it "
                                      "statically into the plugin");
        }
        libraries.emplace(soname, std::move(library));
    }
    for (const auto &need : linking.version_needs) {
        if (libraries.count(need.library) == 0) {
            libraries.emplace(need.library, open_library(need.library));
        }
    }
    std::set<std::string> missing_versions;
    check_versions(linking, libraries, report, missing_versions);
    if (library_missing) {
        // A library is missing: its symbols would all be listed as undefined too, and the
        // line about the library already says what to change.
        return report;
    }

    // Where the loader would look: the host's global scope, then the plugin's libraries.
    size_t resolved = 0;
    std::vector<std::string> unresolved;
    for (const auto &symbol : linking.undefined) {
        if (symbol.weak || missing_versions.count(symbol.library + "\n" + symbol.version)) {
            continue;  // weak may stay unresolved; a missing version is reported already
        }
        bool found = false;
        const auto lookup = [&](void *handle) {
            return symbol.version.empty()
                       ? dlsym(handle, symbol.name.c_str())
                       : dlvsym(handle, symbol.name.c_str(), symbol.version.c_str());
        };
        found = lookup(RTLD_DEFAULT) != nullptr;
        for (auto it = libraries.begin(); !found && it != libraries.end(); ++it) {
            found = it->second.handle != nullptr && lookup(it->second.handle) != nullptr;
        }
        if (found) {
            ++resolved;
        } else {
            unresolved.push_back(symbol.version.empty() ? symbol.name
                                                        : symbol.name + "@" + symbol.version);
        }
    }
    for (size_t i = 0; i < unresolved.size() && i < kMaxSymbolLines; ++i) {
        report.problems.push_back(
            "uses the symbol '" + unresolved[i] +
            "', which neither the host nor the plugin's libraries define; define it in the "
            "plugin or link the library that has it (plugins reach the host only through "
            "sbx_host; link with -Wl,-z,defs to catch this at build time)");
    }
    if (unresolved.size() > kMaxSymbolLines) {
        report.problems.push_back(std::to_string(unresolved.size() - kMaxSymbolLines) +
                                  " more undefined symbols are not found either; see the "
                                  "ones above");
    }
    report.undefined_summary =
        std::to_string(resolved) + " undefined symbols, all found (" +
        (linking.needed.empty() ? "no libraries needed"
                                : "in the host and " + join(linking.needed, ", ")) +
        ")";
    return report;
}

}  // namespace sbx::plugins
