// explore --corpus FOLDER: the inputs coverage feedback kept, one <hash>.json file each, so
// a later explore resumes from them.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx::engine {

// The corpus kept in `folder`: every *.json file, in name order; {} for "" or a folder not
// there yet. InputError for a path that is there but no folder (refused before any run: the
// corpus could not be kept at the end) or a file that is not JSON.
std::vector<nlohmann::json> read_corpus(const std::string &folder);

// Writes each new corpus input as <hash>.json in `folder` (made when missing); nothing for
// "". Returns the file that could not be written (the rest is then not kept), else {}.
std::filesystem::path keep_corpus(const std::string &folder,
                                  const std::vector<nlohmann::json> &found);

}  // namespace sbx::engine
