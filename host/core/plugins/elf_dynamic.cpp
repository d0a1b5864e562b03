// The dynamic-linking tables of an ELF file, each offset checked (see elf_file.hpp).
#include "plugins/elf_dynamic.hpp"

#include <elf.h>

#include <cstring>
#include <map>
#include <optional>

#include "plugins/elf_file.hpp"
#include "plugins/plugin.hpp"

namespace sbx::plugins {
namespace {

// A version chain longer than this is a damaged (or cyclic) table.
constexpr unsigned kMaxChain = 4096;

[[noreturn]] void damaged(const std::filesystem::path &path, const std::string &table) {
    throw PluginError(path.string() + ": its " + table +
                      " table is damaged (an offset outside the file); rebuild it");
}

// A record of type T at `offset` inside `bytes`, or false.
template <class T>
bool record_at(const std::vector<char> &bytes, uint64_t offset, T &out) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) {
        return false;
    }
    std::memcpy(&out, bytes.data() + offset, sizeof(T));
    return true;
}

const Elf64_Shdr *find_section(const std::vector<Elf64_Shdr> &sections, uint32_t type) {
    for (const auto &section : sections) {
        if (section.sh_type == type) {
            return &section;
        }
    }
    return nullptr;
}

// The string table a section links to.
std::vector<char> linked_strings(const ElfFile &file, const std::vector<Elf64_Shdr> &sections,
                                 const Elf64_Shdr &section, const std::filesystem::path &path,
                                 const std::string &table) {
    if (section.sh_link >= sections.size()) {
        damaged(path, table);
    }
    auto strings = file.contents(sections[section.sh_link]);
    if (!strings) {
        damaged(path, table);
    }
    return std::move(*strings);
}

// A table section of `type` with its bytes and the string table it links to; nullopt when
// the file has none. Throws PluginError (named `table`) when an offset leaves the file.
struct Table {
    const Elf64_Shdr *section = nullptr;
    std::vector<char> bytes;
    std::vector<char> strings;
};
std::optional<Table> read_table(const ElfFile &file, const std::vector<Elf64_Shdr> &sections,
                                uint32_t type, const std::filesystem::path &path,
                                const std::string &table) {
    const Elf64_Shdr *section = find_section(sections, type);
    if (section == nullptr) {
        return std::nullopt;
    }
    auto bytes = file.contents(*section);
    if (!bytes) {
        damaged(path, table);
    }
    return Table{section, std::move(*bytes), linked_strings(file, sections, *section, path, table)};
}

// .gnu.version_r: the versions needed per library, and the version index -> (library,
// version) map that .gnu.version refers to.
void read_version_needs(const ElfFile &file, const std::vector<Elf64_Shdr> &sections,
                        const std::filesystem::path &path, DynamicLinking &out,
                        std::map<uint16_t, std::pair<std::string, std::string>> &by_index) {
    const auto table = read_table(file, sections, SHT_GNU_verneed, path, ".gnu.version_r");
    if (!table) {
        return;
    }
    const auto &bytes = table->bytes;
    const auto &strings = table->strings;
    const Elf64_Shdr *section = table->section;
    uint64_t offset = 0;
    for (unsigned n = 0; n < section->sh_info && n < kMaxChain; ++n) {
        Elf64_Verneed need{};
        if (!record_at(bytes, offset, need)) {
            damaged(path, ".gnu.version_r");
        }
        VersionNeed entry;
        entry.library = string_at(strings, need.vn_file).value_or("?");
        uint64_t aux_offset = offset + need.vn_aux;
        for (unsigned a = 0; a < need.vn_cnt && a < kMaxChain; ++a) {
            Elf64_Vernaux aux{};
            if (!record_at(bytes, aux_offset, aux)) {
                damaged(path, ".gnu.version_r");
            }
            const std::string version = string_at(strings, aux.vna_name).value_or("?");
            entry.versions.push_back(version);
            by_index[aux.vna_other] = {entry.library, version};
            if (aux.vna_next == 0) {
                break;
            }
            aux_offset += aux.vna_next;
        }
        out.version_needs.push_back(std::move(entry));
        if (need.vn_next == 0) {
            break;
        }
        offset += need.vn_next;
    }
}

void read_needed(const ElfFile &file, const std::vector<Elf64_Shdr> &sections,
                 const std::filesystem::path &path, DynamicLinking &out) {
    const auto table = read_table(file, sections, SHT_DYNAMIC, path, ".dynamic");
    if (!table) {
        return;
    }
    const auto &bytes = table->bytes;
    const auto &strings = table->strings;
    for (uint64_t offset = 0; offset + sizeof(Elf64_Dyn) <= bytes.size();
         offset += sizeof(Elf64_Dyn)) {
        Elf64_Dyn entry{};
        record_at(bytes, offset, entry);
        if (entry.d_tag == DT_NULL) {
            break;
        }
        if (entry.d_tag == DT_NEEDED) {
            out.needed.push_back(string_at(strings, entry.d_un.d_val).value_or("?"));
        }
    }
}

}  // namespace

DynamicLinking read_dynamic_linking(const std::filesystem::path &path) {
    const ElfFile file(path);
    const auto sections = file.sections();
    DynamicLinking out;
    std::map<uint16_t, std::pair<std::string, std::string>> version_by_index;
    read_version_needs(file, sections, path, out, version_by_index);
    read_needed(file, sections, path, out);

    const Elf64_Shdr *symtab = find_section(sections, SHT_DYNSYM);
    if (symtab == nullptr || symtab->sh_entsize != sizeof(Elf64_Sym)) {
        return out;
    }
    const auto symbols = file.contents(*symtab);
    if (!symbols) {
        damaged(path, ".dynsym");
    }
    const auto strings = linked_strings(file, sections, *symtab, path, ".dynsym");
    std::vector<char> versym;
    if (const Elf64_Shdr *section = find_section(sections, SHT_GNU_versym)) {
        versym = file.contents(*section).value_or(std::vector<char>());
    }
    // Entry 0 is the null symbol.
    for (uint64_t i = 1; i < symbols->size() / sizeof(Elf64_Sym); ++i) {
        Elf64_Sym symbol{};
        record_at(*symbols, i * sizeof(Elf64_Sym), symbol);
        const auto name = string_at(strings, symbol.st_name);
        const unsigned binding = ELF64_ST_BIND(symbol.st_info);
        if (!name || name->empty() || binding == STB_LOCAL) {
            continue;
        }
        if (symbol.st_shndx != SHN_UNDEF) {
            out.exports.push_back(*name);
            continue;
        }
        UndefinedSymbol undefined{*name, binding == STB_WEAK, "", ""};
        uint16_t index = 0;
        if (record_at(versym, i * sizeof(uint16_t), index)) {
            const auto found = version_by_index.find(static_cast<uint16_t>(index & 0x7fff));
            if (found != version_by_index.end()) {
                undefined.library = found->second.first;
                undefined.version = found->second.second;
            }
        }
        out.undefined.push_back(std::move(undefined));
    }
    return out;
}

std::vector<std::string> read_version_definitions(const std::filesystem::path &path) {
    const ElfFile file(path);
    const auto sections = file.sections();
    std::vector<std::string> versions;
    const auto table = read_table(file, sections, SHT_GNU_verdef, path, ".gnu.version_d");
    if (!table) {
        return versions;
    }
    const auto &bytes = table->bytes;
    const auto &strings = table->strings;
    const Elf64_Shdr *section = table->section;
    uint64_t offset = 0;
    for (unsigned n = 0; n < section->sh_info && n < kMaxChain; ++n) {
        Elf64_Verdef definition{};
        Elf64_Verdaux aux{};
        if (!record_at(bytes, offset, definition) ||
            !record_at(bytes, offset + definition.vd_aux, aux)) {
            damaged(path, ".gnu.version_d");
        }
        if ((definition.vd_flags & VER_FLG_BASE) == 0) {
            versions.push_back(string_at(strings, aux.vda_name).value_or("?"));
        }
        if (definition.vd_next == 0) {
            break;
        }
        offset += definition.vd_next;
    }
    return versions;
}

}  // namespace sbx::plugins
