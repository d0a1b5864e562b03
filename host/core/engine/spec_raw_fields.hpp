// The run spec's optional `raw` field (docs/abi.md): the exact bytes of the fields whose
// expanded text is not valid UTF-8, which a JSON string cannot carry. The plain field then
// holds the bytes' stand-in (utf8_stand_in: U+FFFD for each invalid byte), so an executor
// that predates `raw` still runs; one that knows it uses the bytes while the plain field is
// still their stand-in (an injector that rewrote the field since wins).
//
//   "raw": {"argv": {"1": B64}, "env": {"NAME": B64}, "stdin": B64,
//           "files": {"PATH": B64}, "file_names": {"PATH": B64}}
//
// PATH is the plain (stand-in) path, as in `files`; `file_names` holds a path's own bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::engine {

// Collects the raw entries while a spec is built.
class RawFields {
  public:
    // The text field `field` (`stdin`), or its item `key` (`argv`/"1", `env`/NAME,
    // `files`/PATH), holds for `bytes`: the bytes when they are valid UTF-8, else their
    // stand-in, the bytes kept for `raw`.
    std::string text(const std::string &bytes, const std::string &field,
                     const std::string &key = "");
    // The same for a file's path, which is its own key: kept under `file_names`.
    std::string path_text(const std::string &bytes);
    // Adds `raw` to `spec` when any field needed it.
    void add_to(nlohmann::json &spec) const;

  private:
    nlohmann::json raw_ = nlohmann::json::object();
};

// The exact bytes of a spec's `text` in field `field` (item `key`): the raw entry when there
// is one whose stand-in is `text`, else `text`.
std::string exact_bytes(const nlohmann::json &spec, const std::string &text,
                        const std::string &field, const std::string &key = "");

}  // namespace sbx::engine
