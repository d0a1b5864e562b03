// Pre-load checks of plugin files: boost::dll::library_info for the format, then a
// bounds-checked walk of .dynsym for the entry symbol.
#include "plugins/elf_precheck.hpp"

#include <elf.h>
#include <sbx/plugin.h>

#include <boost/dll/library_info.hpp>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "plugins/plugin.hpp"

namespace sbx::plugins {
namespace {

[[noreturn]] void refuse(const std::filesystem::path &path, const std::string &reason) {
    throw PluginError(path.string() + ": " + reason);
}

std::vector<char> read_whole_file(const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        refuse(path, "cannot be read (" + std::string(std::strerror(errno)) + ")");
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Copies a T out of `bytes` at `offset`, or returns false when it would read past the end.
template <class T>
bool read_at(const std::vector<char> &bytes, uint64_t offset, T &out) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) {
        return false;
    }
    std::memcpy(&out, bytes.data() + offset, sizeof(T));
    return true;
}

// Rationale: Boost 1.74's library_info::symbols() reads .symtab (absent from stripped
// plugins) and trusts every offset in the file; the dynamic loader resolves .dynsym, so
// that is what is checked here, with every offset bounds-checked.
bool defines_dynamic_symbol(const std::vector<char> &bytes, const char *wanted) {
    Elf64_Ehdr header{};
    if (!read_at(bytes, 0, header) || header.e_shentsize != sizeof(Elf64_Shdr)) {
        return false;
    }
    for (uint16_t i = 0; i < header.e_shnum; ++i) {
        Elf64_Shdr section{};
        if (!read_at(bytes, header.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr), section)) {
            return false;
        }
        if (section.sh_type != SHT_DYNSYM || section.sh_entsize != sizeof(Elf64_Sym)) {
            continue;
        }
        Elf64_Shdr strings{};
        if (section.sh_link >= header.e_shnum ||
            !read_at(bytes, header.e_shoff + uint64_t{section.sh_link} * sizeof(Elf64_Shdr),
                     strings) ||
            strings.sh_offset > bytes.size() || bytes.size() - strings.sh_offset < strings.sh_size) {
            return false;
        }
        const uint64_t count = section.sh_size / sizeof(Elf64_Sym);
        for (uint64_t s = 0; s < count; ++s) {
            Elf64_Sym symbol{};
            if (!read_at(bytes, section.sh_offset + s * sizeof(Elf64_Sym), symbol)) {
                return false;
            }
            if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= strings.sh_size) {
                continue;
            }
            const char *name = bytes.data() + strings.sh_offset + symbol.st_name;
            const size_t room = strings.sh_size - symbol.st_name;
            if (strnlen(name, room) < room && std::strcmp(name, wanted) == 0) {
                return ELF64_ST_TYPE(symbol.st_info) == STT_OBJECT;
            }
        }
    }
    return false;
}

}  // namespace

void precheck_plugin_file(const std::filesystem::path &path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        refuse(path, "is not a regular file");
    }
    const std::vector<char> bytes = read_whole_file(path);
    static constexpr char kMagic[] = {0x7f, 'E', 'L', 'F'};
    if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), kMagic, 4) != 0) {
        refuse(path, "is not an ELF file; a plugin is a shared object built with the SDK "
                     "(see docs/plugin-authors.md)");
    }
    try {
        const boost::dll::library_info info(path.string(), /*throw_if_not_native=*/true);
    } catch (const std::exception &) {
        refuse(path, "is an ELF file but not a native 64-bit shared object for this machine");
    }
    Elf64_Ehdr header{};
    read_at(bytes, 0, header);
    if (bytes[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN) {
        refuse(path, "is not a 64-bit ELF shared object; build it with -shared -fPIC");
    }
    if (!defines_dynamic_symbol(bytes, SBX_ENTRY_SYMBOL_NAME)) {
        refuse(path, "has no entry symbol '" SBX_ENTRY_SYMBOL_NAME
                     "'; export it with SBX_PLUGIN(Class) or define "
                     "`SBX_EXPORT const sbx_plugin_entry sbx_entry`");
    }
}

}  // namespace sbx::plugins
