// Every malformed settings file under bad/ fails with an InputError that starts with the
// exact file:line:column and says what is wrong and what to write (bad/expected_errors.tsv).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config/load_settings.hpp"
#include "util/errors.hpp"

namespace sbx::config {
namespace {

const char *const kBadDir = SBX_CONFIG_BAD_DIR;

struct BadFile {
    std::string file;
    int line = 0;
    int column = 0;
    std::string problem;  // a substring of the part before "; "
    std::string hint;     // a substring of the part after "; "
};

std::vector<BadFile> read_table() {
    std::vector<BadFile> rows;
    std::ifstream in(std::filesystem::path(kBadDir) / "expected_errors.tsv");
    std::string text;
    while (std::getline(in, text)) {
        if (text.empty() || text[0] == '#') {
            continue;
        }
        std::vector<std::string> cells;
        std::stringstream cells_in(text);
        std::string cell;
        while (std::getline(cells_in, cell, '\t')) {
            cells.push_back(cell);
        }
        if (cells.size() != 5) {
            ADD_FAILURE() << "expected_errors.tsv: a row does not have 5 cells: " << text;
            continue;
        }
        rows.push_back({cells[0], std::stoi(cells[1]), std::stoi(cells[2]), cells[3], cells[4]});
    }
    return rows;
}

const std::vector<BadFile> &table() {
    static const std::vector<BadFile> rows = read_table();
    return rows;
}

class BadSettingsFile : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadSettingsFile, FailsAtTheExactPlaceWithAHint) {
    const BadFile &bad = GetParam();
    const std::string path = (std::filesystem::path(kBadDir) / bad.file).string();
    std::string message;
    try {
        load_settings_file(path);
        FAIL() << bad.file << " was accepted";
    } catch (const InputError &error) {
        message = error.what();
    }
    const std::string prefix =
        path + ":" + std::to_string(bad.line) + ":" + std::to_string(bad.column) + ": ";
    EXPECT_EQ(message.rfind(prefix, 0), 0u)
        << "expected the message to start with\n  " << prefix << "\nbut it is\n  " << message;
    const size_t split = message.find("; ", prefix.size());
    ASSERT_NE(split, std::string::npos) << "no '; <hint>' in: " << message;
    const std::string problem = message.substr(0, split);
    const std::string hint = message.substr(split + 2);
    EXPECT_NE(problem.find(bad.problem), std::string::npos)
        << "problem part lacks '" << bad.problem << "': " << message;
    EXPECT_NE(hint.find(bad.hint), std::string::npos)
        << "hint part lacks '" << bad.hint << "': " << message;
}

std::string test_name(const ::testing::TestParamInfo<BadFile> &info) {
    std::string name = std::filesystem::path(info.param.file).stem().string();
    for (char &c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) {
            c = '_';
        }
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, BadSettingsFile, ::testing::ValuesIn(table()), test_name);

TEST(BadSettingsFiles, TableCoversEveryFixtureOnce) {
    std::multiset<std::string> listed;
    for (const auto &row : table()) {
        listed.insert(row.file);
    }
    std::set<std::string> on_disk;
    for (const auto &entry : std::filesystem::directory_iterator(kBadDir)) {
        if (entry.path().extension() == ".yaml") {
            on_disk.insert(entry.path().filename().string());
        }
    }
    EXPECT_GE(on_disk.size(), 12u);
    for (const auto &file : on_disk) {
        EXPECT_EQ(listed.count(file), 1u) << file << " must have exactly one row";
    }
    for (const auto &file : listed) {
        EXPECT_EQ(on_disk.count(file), 1u) << file << " is listed but missing";
    }
}

}  // namespace
}  // namespace sbx::config
