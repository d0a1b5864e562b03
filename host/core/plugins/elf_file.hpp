// A bounds-checked reader of 64-bit ELF files for the plugin pre-checks: every offset and
// size taken from the file is checked against the file before it is used, so a damaged or
// hostile plugin file is refused, never trusted.
#pragma once

#include <elf.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sbx::plugins {

class ElfFile {
  public:
    // Throws PluginError "<path>: cannot be read (...)".
    explicit ElfFile(const std::filesystem::path &path);
    ~ElfFile();
    ElfFile(const ElfFile &) = delete;
    ElfFile &operator=(const ElfFile &) = delete;

    [[nodiscard]] uint64_t size() const { return size_; }

    // Reads `length` bytes at `offset` into `out`, or returns false when they are not all
    // inside the file.
    bool read(uint64_t offset, void *out, uint64_t length) const;
    template <class T>
    bool read_at(uint64_t offset, T &out) const {
        return read(offset, &out, sizeof(T));
    }

    // The ELF header, or nullopt when the file is too short for one.
    [[nodiscard]] std::optional<Elf64_Ehdr> header() const;
    // Every section header, or empty when the table lies outside the file. Reading stops
    // at the first header past the end (a damaged e_shnum).
    [[nodiscard]] std::vector<Elf64_Shdr> sections() const;
    // The bytes of a section, or nullopt when they are not inside the file.
    [[nodiscard]] std::optional<std::vector<char>> contents(const Elf64_Shdr &section) const;

  private:
    int fd_;
    uint64_t size_ = 0;
};

// A NUL-terminated string at `offset` of a string table, or nullopt when it runs past it.
std::optional<std::string> string_at(const std::vector<char> &table, uint64_t offset);

}  // namespace sbx::plugins
