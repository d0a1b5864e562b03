// Splitting the multiplexed stream; a frame's payload is copied straight into its capture.
#include "support/docker_engine/stream_demux.hpp"

#include <algorithm>

namespace sbx::docker {

void CappedOutput::append(const char *bytes, std::size_t length) {
    total_ += length;
    if (kept_.size() < cap_) {
        const auto room = static_cast<std::size_t>(cap_ - kept_.size());
        kept_.append(bytes, std::min(room, length));
    }
}

void StreamDemux::feed(const char *bytes, std::size_t length) {
    while (length > 0) {
        if (frame_left_ == 0) {
            const std::size_t take = std::min(length, sizeof(header_) - header_have_);
            std::copy(bytes, bytes + take, header_ + header_have_);
            header_have_ += take;
            bytes += take;
            length -= take;
            if (header_have_ < sizeof(header_)) {
                return;
            }
            header_have_ = 0;
            frame_stream_ = header_[0];
            frame_left_ = (static_cast<std::uint32_t>(header_[4]) << 24) |
                          (static_cast<std::uint32_t>(header_[5]) << 16) |
                          (static_cast<std::uint32_t>(header_[6]) << 8) |
                          static_cast<std::uint32_t>(header_[7]);
            continue;
        }
        const std::size_t take = std::min<std::size_t>(length, frame_left_);
        // 1 is stdout, 2 stderr; 0 (stdin echo) never carries target output.
        if (frame_stream_ == 2) {
            err_.append(bytes, take);
        } else if (frame_stream_ == 1) {
            out_.append(bytes, take);
        }
        frame_left_ -= static_cast<std::uint32_t>(take);
        bytes += take;
        length -= take;
    }
}

}  // namespace sbx::docker
