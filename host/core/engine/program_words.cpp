// Reading the words of a workflow's programs: ELF read-only data, script literals.
#include "engine/program_words.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <tuple>

#include "engine/service_process.hpp"
#include "plugins/elf_file.hpp"

namespace sbx::engine {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kShortest = 2;
constexpr std::size_t kLongest = 32;
constexpr std::uintmax_t kLargestScript = std::uintmax_t{16} << 20;

bool is_word(std::string_view text) {
    if (text.size() < kShortest || text.size() > kLongest) {
        return false;
    }
    bool letter = false;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        letter = letter || std::isalpha(byte) != 0;
        if (std::isalnum(byte) == 0 && c != '_' && c != '-' && c != '.') {
            return false;
        }
    }
    return letter;
}

class WordList {
  public:
    // True when the word was new.
    bool add(std::string_view text) {
        if (is_word(text) && seen_.insert(std::string(text)).second) {
            words_.emplace_back(text);
            return true;
        }
        return false;
    }
    // A literal and the words at its tail: a linker keeps "days" as the end of
    // "missing_days" (tail merging), so the shorter literal shows only that way.
    void add_with_tails(std::string_view text) {
        if (!is_word(text)) {
            return;
        }
        add(text);
        for (std::size_t i = 1; i + 1 < text.size(); ++i) {
            if (text[i] == '_' || text[i] == '-' || text[i] == '.') {
                add(text.substr(i + 1));
            }
        }
    }
    std::vector<std::string> take() { return std::move(words_); }

  private:
    std::set<std::string> seen_;
    std::vector<std::string> words_;
};

// The strings of the sections a compiler puts literals in.
bool elf_words(const fs::path &path, WordList &words) {
    try {
        const plugins::ElfFile elf(path);
        const auto header = elf.header();
        if (!header || std::string_view(reinterpret_cast<const char *>(header->e_ident), 4) !=
                           std::string_view(ELFMAG, SELFMAG)) {
            return false;
        }
        const auto sections = elf.sections();
        if (header->e_shstrndx >= sections.size()) {
            return true;
        }
        const auto names = elf.contents(sections[header->e_shstrndx]);
        for (const Elf64_Shdr &section : sections) {
            const auto name = names ? plugins::string_at(*names, section.sh_name) : std::nullopt;
            if (!name || name->rfind(".rodata", 0) != 0) {
                continue;
            }
            const auto bytes = elf.contents(section);
            std::size_t start = 0;
            for (std::size_t i = 0; bytes && i <= bytes->size(); ++i) {
                if (i == bytes->size() || (*bytes)[i] == '\0') {
                    words.add_with_tails(std::string_view(bytes->data() + start, i - start));
                    start = i + 1;
                }
            }
        }
        return true;
    } catch (const std::exception &) {
        return false;  // not an ELF file we can read: the caller tries it as text
    }
}

// The quoted literals of a text file.
void literal_words(const fs::path &path, WordList &words) {
    std::error_code error;
    if (fs::file_size(path, error) > kLargestScript || error) {
        return;
    }
    std::ifstream in(path, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char quote = text[i];
        if (quote != '"' && quote != '\'' && quote != '`') {
            continue;
        }
        const std::size_t end = text.find(quote, i + 1);
        if (end == std::string::npos) {
            break;
        }
        // Only literals on one line: a quote in a comment must not swallow the file.
        const std::string_view literal(text.data() + i + 1, end - i - 1);
        if (literal.find('\n') == std::string_view::npos) {
            words.add(literal);
            i = end;
        }
    }
}

std::vector<std::string> read_words(const fs::path &path) {
    WordList words;
    if (!elf_words(path, words)) {
        literal_words(path, words);
    }
    return words.take();
}

bool regular_file(const std::string &path) {
    std::error_code error;
    return !path.empty() && fs::is_regular_file(path, error);
}

}  // namespace

std::vector<std::string> file_words(const std::string &path) {
    using Version = std::tuple<std::string, std::uintmax_t, fs::file_time_type>;
    static std::mutex mutex;
    static std::map<Version, std::vector<std::string>> cache;
    std::error_code error;
    const Version version{path, fs::file_size(path, error), fs::last_write_time(path, error)};
    if (error) {
        return {};
    }
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (const auto it = cache.find(version); it != cache.end()) {
            return it->second;
        }
    }
    std::vector<std::string> words = read_words(path);
    const std::lock_guard<std::mutex> lock(mutex);
    return cache.emplace(version, std::move(words)).first->second;
}

std::vector<std::string> program_words(const config::Workflow &workflow, std::size_t limit) {
    WordList words;
    for (const config::Step &step : workflow.steps) {
        std::vector<std::string> files;
        for (std::size_t i = 1; i < step.run.size(); ++i) {
            if (step.run[i].find("{{") == std::string::npos && regular_file(step.run[i])) {
                files.push_back(step.run[i]);
            }
        }
        if (files.empty() && step.run[0].find("{{") == std::string::npos) {
            files.push_back(program_path(step.run[0]));
        }
        for (const std::string &file : files) {
            for (const std::string &word :
                 regular_file(file) ? file_words(file) : std::vector<std::string>{}) {
                words.add(word);
            }
        }
    }
    std::vector<std::string> all = words.take();
    all.resize(std::min(all.size(), limit));
    return all;
}

}  // namespace sbx::engine
