// The `security` collector: `security_score` in [0, 1] for the code a run's steps execute,
// from real analyzers: the hardening of ELF programs (checksec's PIE, RELRO, NX, canary and
// FORTIFY), Bandit's findings in Python scripts and ShellCheck's in shell scripts and `sh -c`
// snippets. A run scores its weakest piece of code; each piece is analyzed once per process
// (keyed by a hash of its bytes), however many runs execute it.
#include <sbx/plugin.hpp>
#include <sbx/random.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include "analyzed_code.hpp"
#include "elf_hardening.hpp"
#include "script_findings.hpp"
#include "support/system_tool.hpp"

namespace sbx::security {
namespace {

using nlohmann::json;

// A piece of code's score, or why it has none.
struct Verdict {
    std::optional<double> score;
    std::string summary;
};

// Verdicts by code hash, shared by every instance in the process (the host's workers).
class VerdictCache {
  public:
    template <typename Analyze>
    Verdict get(std::uint64_t key, const Analyze &analyze) {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            if (const auto found = verdicts_.find(key); found != verdicts_.end()) {
                return found->second;
            }
        }
        Verdict verdict = analyze();  // outside the lock: Bandit takes most of a second
        const std::lock_guard<std::mutex> lock(mutex_);
        return verdicts_.emplace(key, std::move(verdict)).first->second;
    }

    // The verdict remembered for a file identity, once its bytes were judged.
    std::optional<Verdict> known(const std::string &identity) {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto found = by_identity_.find(identity);
        return found == by_identity_.end() ? std::nullopt : std::optional<Verdict>(found->second);
    }
    void remember(const std::string &identity, const Verdict &verdict) {
        const std::lock_guard<std::mutex> lock(mutex_);
        by_identity_.emplace(identity, verdict);
    }

  private:
    std::mutex mutex_;
    std::map<std::uint64_t, Verdict> verdicts_;
    std::map<std::string, Verdict> by_identity_;
};

VerdictCache &cache() {
    static VerdictCache verdicts;
    return verdicts;
}

class SecurityCollector final : public MetricsCollector {
  public:
    static constexpr About about{
        "security",
        "Security score",
        "1.0.0",
        "security_score in [0, 1] for the code each run executes: checksec's hardening of "
        "ELF programs (PIE, RELRO, NX, canary, FORTIFY), Bandit's findings in Python and "
        "ShellCheck's in shell scripts; a run scores its weakest piece of code.",
        R"json({"type":"object","additionalProperties":false,"properties":{
          "bandit":{"type":"string","minLength":1,"default":"bandit",
            "description":"the Bandit program (a name looked up in PATH, or a path); Debian package bandit"},
          "shellcheck":{"type":"string","minLength":1,"default":"shellcheck",
            "description":"the ShellCheck program (a name looked up in PATH, or a path); Debian package shellcheck"}}})json",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit SecurityCollector(const std::string &config_json) {
        const json config = json::parse(config_json);
        bandit_ = config.value("bandit", "bandit");
        shellcheck_ = config.value("shellcheck", "shellcheck");
    }

    std::string collect(const std::string &request_json) override {
        const json request = json::parse(request_json);
        // The counterfactual runs `true` in place of each step: not the workflow's code.
        if (request.value("phase", "") != "run" || request.value("flag", "on") != "on") {
            return "{}";
        }
        std::optional<double> weakest;
        int checked = 0;
        int unchecked = 0;
        for (const auto &argv : request.value("commands", json::array())) {
            for (const auto &code : analyzed_code(argv)) {
                const Verdict verdict = verdict_on(code);
                if (verdict.score) {
                    ++checked;
                    weakest = std::min(weakest.value_or(1.0), *verdict.score);
                } else {
                    ++unchecked;
                }
            }
        }
        json answer = {{"security_checked", checked}, {"security_unchecked", unchecked}};
        answer["security_score"] =
            weakest ? json{{"value", *weakest}, {"aggregate", "min"}} : json(nullptr);
        return answer.dump();
    }

  private:
    static std::uint64_t key_of(const AnalyzedCode &code, const std::string &content) {
        return fnv1a64(std::to_string(static_cast<int>(code.kind)) + code.shell + "\n" + content);
    }

    // The verdict by the code's hash; a file whose identity (inode, size, mtime) was seen
    // before is not read again, so a large program run by every run costs a stat.
    [[nodiscard]] Verdict verdict_on(const AnalyzedCode &code) const {
        if (!code.is_file()) {
            return cache().get(key_of(code, code.content),
                               [&] { return analyze(code, code.content); });
        }
        if (auto known = cache().known(code.identity)) {
            return *known;
        }
        const auto content = read_code(code.label);
        if (!content) {
            return {std::nullopt, "unreadable"};
        }
        Verdict verdict =
            cache().get(key_of(code, *content), [&] { return analyze(code, *content); });
        cache().remember(code.identity, verdict);
        return verdict;
    }

    // The verdict on one piece of code; a missing analyzer leaves it unscored, said once.
    [[nodiscard]] Verdict analyze(const AnalyzedCode &code, const std::string &content) const {
        Verdict verdict;
        try {
            if (code.kind == AnalyzedCode::Kind::elf) {
                const auto hardening = elf_hardening(content);
                if (!hardening) {
                    verdict.summary = "not a 64-bit little-endian ELF file";
                    host::log(SBX_LOG_DEBUG, code.label + " is left unscored: " + verdict.summary);
                    return verdict;
                }
                verdict = {hardening->score(), hardening->summary()};
            } else {
                const bool python = code.kind == AnalyzedCode::Kind::python;
                const auto findings = python ? bandit_findings(tool(bandit_, "bandit"), content)
                                             : shellcheck_findings(tool(shellcheck_, "shellcheck"),
                                                                   content, code.shell);
                verdict = {findings.score(), findings.summary};
            }
        } catch (const Error &e) {
            verdict.summary = e.what();
            host::log(SBX_LOG_WARN, code.label + " is left unscored: " + verdict.summary);
            return verdict;
        }
        host::log(SBX_LOG_DEBUG, code.label + ": security " + std::to_string(*verdict.score) +
                                     " (" + verdict.summary + ")");
        return verdict;
    }

    static std::string tool(const std::string &configured, const std::string &package) {
        return configured.find('/') != std::string::npos ? configured
                                                         : support::find_tool(configured, package);
    }

    std::string bandit_;
    std::string shellcheck_;
};

}  // namespace
}  // namespace sbx::security

SBX_PLUGIN(sbx::security::SecurityCollector);
