// The engine's multiplexed stream (logs, exec start without a TTY): frames of an 8-byte
// header {stream, 0, 0, 0, size big-endian u32} and `size` bytes, split back into stdout
// and stderr, each kept up to a cap and counted beyond it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace sbx::docker {

// Where one stream's bytes go.
class ByteSink {
  public:
    virtual ~ByteSink() = default;
    virtual void append(const char *bytes, std::size_t length) = 0;
};

// The first `cap` bytes of one stream, and how many there were in all.
class CappedOutput final : public ByteSink {
  public:
    explicit CappedOutput(std::uint64_t cap) : cap_(cap) {}
    void append(const char *bytes, std::size_t length) override;
    [[nodiscard]] const std::string &kept() const { return kept_; }
    [[nodiscard]] std::uint64_t total_bytes() const { return total_; }
    [[nodiscard]] bool truncated() const { return total_ > kept_.size(); }

  private:
    std::uint64_t cap_;
    std::uint64_t total_ = 0;
    std::string kept_;
};

// Feed it the body in whatever pieces the transport delivers; frames may span pieces.
class StreamDemux {
  public:
    StreamDemux(ByteSink &out, ByteSink &err) : out_(out), err_(err) {}
    void feed(const char *bytes, std::size_t length);

  private:
    ByteSink &out_;
    ByteSink &err_;
    unsigned char header_[8] = {};
    std::size_t header_have_ = 0;
    std::uint32_t frame_left_ = 0;
    int frame_stream_ = 1;
};

}  // namespace sbx::docker
