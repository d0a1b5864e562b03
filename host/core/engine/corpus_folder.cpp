// Reading and writing explore's --corpus folder.
#include "engine/corpus_folder.hpp"

#include <algorithm>
#include <fstream>

#include "util/errors.hpp"
#include "util/hex_digest.hpp"

namespace sbx::engine {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<json> read_corpus(const std::string &folder) {
    std::vector<json> corpus;
    std::error_code error;
    if (!folder.empty() && fs::exists(folder, error) && !fs::is_directory(folder, error)) {
        throw InputError("explore: --corpus " + folder +
                         " is not a folder; name a folder (made when missing) to keep the "
                         "corpus in");
    }
    if (folder.empty() || !fs::is_directory(folder, error)) {
        return corpus;
    }
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(folder)) {
        if (entry.path().extension() == ".json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path &file : files) {
        std::ifstream in(file);
        json value = json::parse(in, nullptr, false);
        if (value.is_discarded()) {
            throw InputError("explore: --corpus " + folder + ": " + file.filename().string() +
                             " is not JSON; remove it, or the folder, to start afresh");
        }
        corpus.push_back(std::move(value));
    }
    return corpus;
}

std::filesystem::path keep_corpus(const std::string &folder, const std::vector<json> &found) {
    if (folder.empty()) {
        return {};
    }
    std::error_code error;
    fs::create_directories(folder, error);
    for (const json &value : found) {
        const std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
        fs::path file = fs::path(folder) / (util::fnv1a_hex(text) + ".json");
        std::ofstream out(file);
        out << text << '\n';
        if (!out.flush()) {
            return file;
        }
    }
    return {};
}

}  // namespace sbx::engine
