// Reads only what checksec reads: the ELF header, the program headers (PT_INTERP,
// PT_GNU_RELRO, PT_GNU_STACK), the dynamic section's flags and the names of the dynamic (or
// static) symbols. Every offset is checked against the file's size before it is read.
#include "elf_hardening.hpp"

#include <elf.h>

#include <cstring>

namespace sbx::security {
namespace {

// A bounds-checked view of the file.
class Bytes {
  public:
    explicit Bytes(const std::string &bytes) : bytes_(bytes) {}

    template <typename T>
    [[nodiscard]] std::optional<T> at(std::uint64_t offset) const {
        if (offset > bytes_.size() || bytes_.size() - offset < sizeof(T)) {
            return std::nullopt;
        }
        T value{};
        std::memcpy(&value, bytes_.data() + offset, sizeof(T));
        return value;
    }

    // The NUL-terminated name at `offset`, "" past the end.
    [[nodiscard]] std::string name_at(std::uint64_t offset) const {
        if (offset >= bytes_.size()) {
            return "";
        }
        const char *start = bytes_.data() + offset;
        return std::string(start, strnlen(start, bytes_.size() - offset));
    }

  private:
    const std::string &bytes_;
};

bool is_fortified(const std::string &name) {
    return name.size() > 6 && name.compare(0, 2, "__") == 0 &&
           name.compare(name.size() - 4, 4, "_chk") == 0 && name != "__stack_chk_fail";
}

// Looks through the symbols of section `symbols` (names in its linked string table).
void read_symbols(const Bytes &file, const Elf64_Ehdr &header, const Elf64_Shdr &symbols,
                  ElfHardening &hardening) {
    const auto strings =
        file.at<Elf64_Shdr>(header.e_shoff + std::uint64_t{symbols.sh_link} * header.e_shentsize);
    if (!strings || symbols.sh_entsize < sizeof(Elf64_Sym)) {
        return;
    }
    const std::uint64_t count = symbols.sh_size / symbols.sh_entsize;
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto symbol = file.at<Elf64_Sym>(symbols.sh_offset + i * symbols.sh_entsize);
        if (!symbol) {
            return;
        }
        const std::string name = file.name_at(strings->sh_offset + symbol->st_name);
        hardening.canary = hardening.canary || name == "__stack_chk_fail" ||
                           name == "__stack_chk_guard" || name == "__intel_security_cookie";
        hardening.fortify = hardening.fortify || is_fortified(name);
    }
}

}  // namespace

double ElfHardening::score() const {
    return ((pie ? 1.0 : 0.0) + relro + (nx ? 1.0 : 0.0) + (canary ? 1.0 : 0.0) +
            (fortify ? 1.0 : 0.0)) /
           5.0;
}

std::string ElfHardening::summary() const {
    std::string text = pie ? "PIE" : "no PIE";
    text += relro == 1 ? ", full RELRO" : relro > 0 ? ", partial RELRO" : ", no RELRO";
    text += nx ? ", NX" : ", no NX";
    text += canary ? ", canary" : ", no canary";
    text += fortify ? ", FORTIFY" : ", no FORTIFY";
    if (stripped_symbols) {
        text += " (no symbol table)";
    }
    return text;
}

std::optional<ElfHardening> elf_hardening(const std::string &bytes) {
    const Bytes file(bytes);
    const auto header = file.at<Elf64_Ehdr>(0);
    if (!header || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
        header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_ident[EI_DATA] != ELFDATA2LSB ||
        header->e_phentsize < sizeof(Elf64_Phdr)) {
        return std::nullopt;
    }
    ElfHardening hardening;
    bool interpreter = false;
    bool relro_segment = false;
    bool bind_now = false;
    for (std::uint64_t i = 0; i < header->e_phnum; ++i) {
        const auto segment = file.at<Elf64_Phdr>(header->e_phoff + i * header->e_phentsize);
        if (!segment) {
            return std::nullopt;
        }
        if (segment->p_type == PT_INTERP) {
            interpreter = true;
        } else if (segment->p_type == PT_GNU_RELRO) {
            relro_segment = true;
        } else if (segment->p_type == PT_GNU_STACK) {
            hardening.nx = (segment->p_flags & PF_X) == 0;
        } else if (segment->p_type == PT_DYNAMIC) {
            for (std::uint64_t at = segment->p_offset;
                 at + sizeof(Elf64_Dyn) <= segment->p_offset + segment->p_filesz;
                 at += sizeof(Elf64_Dyn)) {
                const auto entry = file.at<Elf64_Dyn>(at);
                if (!entry || entry->d_tag == DT_NULL) {
                    break;
                }
                bind_now = bind_now || entry->d_tag == DT_BIND_NOW ||
                           (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_BIND_NOW) != 0) ||
                           (entry->d_tag == DT_FLAGS_1 && (entry->d_un.d_val & DF_1_NOW) != 0);
                hardening.pie = hardening.pie ||
                                (entry->d_tag == DT_FLAGS_1 && (entry->d_un.d_val & DF_1_PIE) != 0);
            }
        }
    }
    hardening.pie = hardening.pie || (header->e_type == ET_DYN && interpreter);
    hardening.relro = relro_segment ? (bind_now ? 1.0 : 0.5) : 0.0;

    // The dynamic symbols say what a dynamic program imports; a static one keeps its own
    // symbol table unless it was stripped.
    bool looked = false;
    for (const std::uint32_t wanted : {SHT_DYNSYM, SHT_SYMTAB}) {
        for (std::uint64_t i = 0; i < header->e_shnum && header->e_shentsize >= sizeof(Elf64_Shdr);
             ++i) {
            const auto section = file.at<Elf64_Shdr>(header->e_shoff + i * header->e_shentsize);
            if (section && section->sh_type == wanted) {
                read_symbols(file, *header, *section, hardening);
                looked = true;
            }
        }
    }
    hardening.stripped_symbols = !looked;
    return hardening;
}

}  // namespace sbx::security
