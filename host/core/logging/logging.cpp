// spdlog setup: the text format for people, the JSON-lines format for log collectors.
#include "logging/logging.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/base_sink.h>

#include <memory>
#include <mutex>

#include "logging/status_line.hpp"
#include "util/errors.hpp"

namespace sbx::logging {
namespace {

// %*: the message as a JSON string body (quotes, backslashes, control bytes escaped).
class JsonEscapedMessage final : public spdlog::custom_flag_formatter {
  public:
    void format(const spdlog::details::log_msg &msg, const std::tm &,
                spdlog::memory_buf_t &dest) override {
        static constexpr char kHex[] = "0123456789abcdef";
        for (const char c : msg.payload) {
            switch (c) {
                case '"':
                    dest.append(std::string_view("\\\""));
                    break;
                case '\\':
                    dest.append(std::string_view("\\\\"));
                    break;
                case '\n':
                    dest.append(std::string_view("\\n"));
                    break;
                case '\t':
                    dest.append(std::string_view("\\t"));
                    break;
                case '\r':
                    dest.append(std::string_view("\\r"));
                    break;
                default:
                    if (static_cast<unsigned char>(c) < 0x20) {
                        const char escaped[] = {'\\',         'u', '0', '0', kHex[(c >> 4) & 0xf],
                                                kHex[c & 0xf]};
                        dest.append(escaped, escaped + sizeof(escaped));
                    } else {
                        dest.push_back(c);
                    }
            }
        }
    }
    [[nodiscard]] std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<JsonEscapedMessage>();
    }
};

// stderr, sharing the terminal with the status line; the level coloured when
// stderr_colors() allows (the pattern's %^...%$ range).
class StderrSink final : public spdlog::sinks::base_sink<std::mutex> {
  public:
    StderrSink() : colors_(logging::stderr_colors()) {}

  protected:
    void sink_it_(const spdlog::details::log_msg &msg) override {
        spdlog::memory_buf_t formatted;
        formatter_->format(msg, formatted);
        std::string_view text(formatted.data(), formatted.size());
        if (!colors_ || msg.color_range_end <= msg.color_range_start) {
            write_above_status(text);
            return;
        }
        std::string line(text.substr(0, msg.color_range_start));
        line += level_color(msg.level);
        line += text.substr(msg.color_range_start, msg.color_range_end - msg.color_range_start);
        line += "\033[0m";
        line += text.substr(msg.color_range_end);
        write_above_status(line);
    }
    void flush_() override {}

  private:
    static const char *level_color(spdlog::level::level_enum level) {
        switch (level) {
            case spdlog::level::warn:
                return "\033[33m";
            case spdlog::level::err:
            case spdlog::level::critical:
                return "\033[31m";
            case spdlog::level::info:
                return "\033[32m";
            default:
                return "\033[36m";
        }
    }
    bool colors_;
};

}  // namespace

spdlog::level::level_enum parse_level(const std::string &text, const std::string &origin) {
    // Exactly the names log_level: and SANDBOX_LOG_LEVEL accept; spdlog's own parser also
    // takes "warning" and "err", which would make the three disagree.
    static const std::pair<const char *, spdlog::level::level_enum> kLevels[] = {
        {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug},
        {"info", spdlog::level::info},   {"warn", spdlog::level::warn},
        {"error", spdlog::level::err},   {"critical", spdlog::level::critical},
        {"off", spdlog::level::off}};
    for (const auto &[name, level] : kLevels) {
        if (text == name) {
            return level;
        }
    }
    throw InputError(origin + ": log level '" + text +
                     "' is unknown; write one of trace, debug, info, warn, error, critical, off");
}

void setup(spdlog::level::level_enum level, bool json_lines) {
    // The sink serialises its formatter; write_above_status every write to stderr.
    auto logger =
        std::make_shared<spdlog::logger>("sandbox-runner", std::make_shared<StderrSink>());
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    if (json_lines) {
        formatter->add_flag<JsonEscapedMessage>('*').set_pattern(
            R"({"time":"%Y-%m-%dT%H:%M:%S.%e%z","level":"%l","msg":"%*"})");
    } else {
        formatter->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
    }
    logger->set_formatter(std::move(formatter));
    logger->set_level(level);
    spdlog::set_default_logger(std::move(logger));
}

}  // namespace sbx::logging
