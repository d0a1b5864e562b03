// Pre-load checks of plugin files: boost::dll::library_info for the format, then a
// bounds-checked walk of .dynsym for the entry symbol.
#include "plugins/elf_precheck.hpp"

#include <elf.h>
#include <sbx/plugin.h>

#include <boost/dll/library_info.hpp>
#include <cstring>

#include "plugins/elf_file.hpp"
#include "plugins/plugin.hpp"

namespace sbx::plugins {
namespace {

[[noreturn]] void refuse(const std::filesystem::path &path, const std::string &reason) {
    throw PluginError(path.string() + ": " + reason);
}

// Rationale: Boost 1.74's library_info::symbols() reads .symtab (absent from stripped
// plugins) and trusts every offset in the file; the dynamic loader resolves .dynsym, so
// that is what is checked here, with every offset bounds-checked.
bool defines_dynamic_symbol(const ElfFile &file, const char *wanted) {
    const auto sections = file.sections();
    for (const auto &section : sections) {
        if (section.sh_type != SHT_DYNSYM || section.sh_entsize != sizeof(Elf64_Sym)) {
            continue;
        }
        if (section.sh_link >= sections.size()) {
            return false;
        }
        const auto strings = file.contents(sections[section.sh_link]);
        if (!strings) {
            return false;
        }
        const uint64_t count = section.sh_size / sizeof(Elf64_Sym);
        for (uint64_t s = 0; s < count; ++s) {
            Elf64_Sym symbol{};
            if (!file.read_at(section.sh_offset + s * sizeof(Elf64_Sym), symbol)) {
                return false;
            }
            if (symbol.st_shndx == SHN_UNDEF) {
                continue;
            }
            const auto name = string_at(*strings, symbol.st_name);
            if (name && *name == wanted) {
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
    const ElfFile file(path);
    static constexpr unsigned char kMagic[] = {0x7f, 'E', 'L', 'F'};
    Elf64_Ehdr header{};
    if (!file.read_at(0, header) || std::memcmp(header.e_ident, kMagic, 4) != 0) {
        refuse(path,
               "is not an ELF file; a plugin is a shared object built with the SDK "
               "(see docs/plugin-authors.md)");
    }
    try {
        const boost::dll::library_info info(path.string(), /*throw_if_not_native=*/true);
    } catch (const std::exception &) {
        refuse(path, "is an ELF file but not a native 64-bit shared object for this machine");
    }
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN) {
        refuse(path, "is not a 64-bit ELF shared object; build it with -shared -fPIC");
    }
    if (!defines_dynamic_symbol(file, SBX_ENTRY_SYMBOL_NAME)) {
        refuse(path, "has no entry symbol '" SBX_ENTRY_SYMBOL_NAME
                     "'; export it with SBX_PLUGIN(Class) or define "
                     "`SBX_EXPORT const sbx_plugin_entry sbx_entry`");
    }
}

}  // namespace sbx::plugins
