// Log frames and locked writes for the plugin host.
#include "plugin_host/channel.hpp"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <mutex>

namespace sbx::plugin_host {
namespace {

std::mutex g_channel_mutex;

// Each log record becomes one log frame: [i32 level in sbx_log_level numbering][text].
class ChannelSink final : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
  public:
    explicit ChannelSink(int fd) : fd_(fd) {}

  protected:
    void sink_it_(const spdlog::details::log_msg &msg) override {
        // spdlog: trace 0 .. err 4, critical 5; the ABI stops at error.
        const auto level = std::min<uint32_t>(static_cast<uint32_t>(msg.level), 4);
        std::string payload;
        plugins::wire::put_u32(payload, level);
        payload.append(msg.payload.data(), msg.payload.size());
        send(fd_, plugins::wire::FrameType::log, payload);
    }
    void flush_() override {}

  private:
    int fd_;
};

}  // namespace

bool send(int fd, plugins::wire::FrameType type, const std::string &payload) {
    const std::lock_guard<std::mutex> lock(g_channel_mutex);
    return plugins::wire::write_frame(fd, type, payload);
}

void forward_logs_to(int fd, int level) {
    auto logger = std::make_shared<spdlog::logger>("plugin", std::make_shared<ChannelSink>(fd));
    logger->set_level(static_cast<spdlog::level::level_enum>(level));
    spdlog::set_default_logger(std::move(logger));
}

}  // namespace sbx::plugin_host
