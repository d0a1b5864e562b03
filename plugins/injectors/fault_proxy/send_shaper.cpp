// Pacing: after k bytes, the next send may go at max(now, previous) + k / rate. Taking the
// max means an idle connection saves up no credit, so a bulk transfer never runs above the
// rate for more than one chunk; chunks of ~10 ms keep the pace smooth at any rate.
#include "send_shaper.hpp"

#include <algorithm>

namespace sbx::fault_proxy {
namespace {

constexpr double kPacedChunkSeconds = 0.010;

}  // namespace

SendShaper::SendShaper(double bytes_per_second, std::size_t slice_bytes,
                       std::chrono::milliseconds slice_delay)
    : bytes_per_second_(bytes_per_second),
      slice_bytes_(slice_bytes),
      slice_delay_(slice_delay),
      slice_left_(slice_bytes) {
    if (bytes_per_second_ > 0) {
        const double chunk = bytes_per_second_ * kPacedChunkSeconds;
        paced_chunk_ = chunk >= static_cast<double>(SIZE_MAX / 2)
                           ? SIZE_MAX / 2
                           : std::max(kMinPacedBytes, static_cast<std::size_t>(chunk));
    }
}

SendShaper::Clock::time_point SendShaper::ready_at() const {
    return std::max(paced_until_, slice_at_);
}

std::size_t SendShaper::allowance() const {
    return std::min(paced_chunk_, slice_bytes_ > 0 ? slice_left_ : SIZE_MAX);
}

void SendShaper::sent(std::size_t bytes, Clock::time_point now) {
    if (bytes == 0) {
        return;
    }
    if (bytes_per_second_ > 0) {
        const std::chrono::duration<double> spent(static_cast<double>(bytes) / bytes_per_second_);
        paced_until_ =
            std::max(now, paced_until_) + std::chrono::duration_cast<Clock::duration>(spent);
    }
    if (slice_bytes_ > 0) {
        slice_left_ -= std::min(bytes, slice_left_);
        if (slice_left_ == 0) {
            slice_left_ = slice_bytes_;
            slice_at_ = now + slice_delay_;
        }
    }
}

}  // namespace sbx::fault_proxy
