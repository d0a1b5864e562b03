// Bounded reads of ELF files: pread at checked offsets, never mmap of plugin files.
#include "plugins/elf_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "plugins/plugin.hpp"

namespace sbx::plugins {

ElfFile::ElfFile(const std::filesystem::path &path)
    : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    struct stat info {};
    if (fd_ < 0 || fstat(fd_, &info) != 0) {
        const std::string why = std::strerror(errno);
        if (fd_ >= 0) {
            close(fd_);
        }
        throw PluginError(path.string() + ": cannot be read (" + why + ")");
    }
    size_ = static_cast<uint64_t>(info.st_size);
}

ElfFile::~ElfFile() {
    close(fd_);
}

bool ElfFile::read(uint64_t offset, void *out, uint64_t length) const {
    if (offset > size_ || size_ - offset < length) {
        return false;
    }
    return pread(fd_, out, length, static_cast<off_t>(offset)) == static_cast<ssize_t>(length);
}

std::optional<Elf64_Ehdr> ElfFile::header() const {
    Elf64_Ehdr header{};
    if (!read_at(0, header)) {
        return std::nullopt;
    }
    return header;
}

std::vector<Elf64_Shdr> ElfFile::sections() const {
    std::vector<Elf64_Shdr> result;
    const auto elf = header();
    if (!elf || elf->e_shentsize != sizeof(Elf64_Shdr)) {
        return result;
    }
    for (uint16_t i = 0; i < elf->e_shnum; ++i) {
        Elf64_Shdr section{};
        if (!read_at(elf->e_shoff + uint64_t{i} * sizeof(Elf64_Shdr), section)) {
            break;
        }
        result.push_back(section);
    }
    return result;
}

std::optional<std::vector<char>> ElfFile::contents(const Elf64_Shdr &section) const {
    if (section.sh_type == SHT_NOBITS || section.sh_size > size_) {
        return std::nullopt;
    }
    std::vector<char> bytes(section.sh_size);
    if (!read(section.sh_offset, bytes.data(), bytes.size())) {
        return std::nullopt;
    }
    return bytes;
}

std::optional<std::string> string_at(const std::vector<char> &table, uint64_t offset) {
    if (offset >= table.size()) {
        return std::nullopt;
    }
    const char *start = table.data() + offset;
    const size_t room = table.size() - offset;
    const size_t length = strnlen(start, room);
    if (length == room) {
        return std::nullopt;
    }
    return std::string(start, length);
}

}  // namespace sbx::plugins
