// Pre-load checks of plugin files: boost::dll::library_info for the format, then a
// bounds-checked walk of .dynsym for the entry symbol.
#include "plugins/elf_precheck.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sbx/plugin.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/dll/library_info.hpp>
#include <cstring>
#include <vector>

#include "plugins/plugin.hpp"

namespace sbx::plugins {
namespace {

[[noreturn]] void refuse(const std::filesystem::path &path, const std::string &reason) {
    throw PluginError(path.string() + ": " + reason);
}

// The plugin file, opened for bounded reads. Only the headers and the dynamic symbol
// table are read: a plugin with debug information is megabytes we never need.
class ElfFile {
  public:
    explicit ElfFile(const std::filesystem::path &path)
        : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
        struct stat info {};
        if (fd_ < 0 || fstat(fd_, &info) != 0) {
            refuse(path, "cannot be read (" + std::string(std::strerror(errno)) + ")");
        }
        size_ = static_cast<uint64_t>(info.st_size);
    }
    ~ElfFile() {
        if (fd_ >= 0) {
            close(fd_);
        }
    }
    ElfFile(const ElfFile &) = delete;
    ElfFile &operator=(const ElfFile &) = delete;

    [[nodiscard]] uint64_t size() const { return size_; }

    // Reads `length` bytes at `offset` into `out`, or returns false when they are not all
    // inside the file.
    bool read(uint64_t offset, void *out, uint64_t length) const {
        if (offset > size_ || size_ - offset < length) {
            return false;
        }
        return pread(fd_, out, length, static_cast<off_t>(offset)) == static_cast<ssize_t>(length);
    }
    template <class T>
    bool read_at(uint64_t offset, T &out) const {
        return read(offset, &out, sizeof(T));
    }

  private:
    int fd_;
    uint64_t size_ = 0;
};

// Rationale: Boost 1.74's library_info::symbols() reads .symtab (absent from stripped
// plugins) and trusts every offset in the file; the dynamic loader resolves .dynsym, so
// that is what is checked here, with every offset bounds-checked.
bool defines_dynamic_symbol(const ElfFile &file, const char *wanted) {
    Elf64_Ehdr header{};
    if (!file.read_at(0, header) || header.e_shentsize != sizeof(Elf64_Shdr)) {
        return false;
    }
    for (uint16_t i = 0; i < header.e_shnum; ++i) {
        Elf64_Shdr section{};
        if (!file.read_at(header.e_shoff + uint64_t{i} * sizeof(Elf64_Shdr), section)) {
            return false;
        }
        if (section.sh_type != SHT_DYNSYM || section.sh_entsize != sizeof(Elf64_Sym)) {
            continue;
        }
        Elf64_Shdr strings_header{};
        if (section.sh_link >= header.e_shnum ||
            !file.read_at(header.e_shoff + uint64_t{section.sh_link} * sizeof(Elf64_Shdr),
                          strings_header) ||
            strings_header.sh_size > file.size()) {
            return false;
        }
        std::vector<char> strings(strings_header.sh_size);
        if (!file.read(strings_header.sh_offset, strings.data(), strings.size())) {
            return false;
        }
        const uint64_t count = section.sh_size / sizeof(Elf64_Sym);
        for (uint64_t s = 0; s < count; ++s) {
            Elf64_Sym symbol{};
            if (!file.read_at(section.sh_offset + s * sizeof(Elf64_Sym), symbol)) {
                return false;
            }
            if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= strings.size()) {
                continue;
            }
            const char *name = strings.data() + symbol.st_name;
            const size_t room = strings.size() - symbol.st_name;
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
