// One output stream of the target: keeps the first `cap` bytes, counts the rest and throws
// it away, so a flood neither blocks the target nor grows the host's memory.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include <sbx/unique_fd.hpp>

namespace sbx::local {

class OutputCapture {
  public:
    // `read_end` must be non-blocking.
    OutputCapture(UniqueFd read_end, std::uint64_t cap) : fd_(std::move(read_end)), cap_(cap) {}

    // The pipe's fd while it is open, -1 after EOF.
    [[nodiscard]] int fd() const { return fd_.get(); }
    [[nodiscard]] bool open() const { return fd_.valid(); }
    // Reads what is there without blocking (a bounded amount, so the other stream is not
    // starved). Closes the pipe at EOF.
    void read_available();

    [[nodiscard]] const std::string &kept() const { return kept_; }
    [[nodiscard]] std::uint64_t total_bytes() const { return total_; }
    [[nodiscard]] bool truncated() const { return total_ > kept_.size(); }

  private:
    UniqueFd fd_;
    std::uint64_t cap_;
    std::uint64_t total_ = 0;
    std::string kept_;
};

}  // namespace sbx::local
