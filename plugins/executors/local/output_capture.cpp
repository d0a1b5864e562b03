// Reading a target's output pipe. Past the cap the bytes are still read (so the target never
// blocks on a full pipe) but only counted.
#include "output_capture.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>

namespace sbx::local {

void OutputCapture::read_available() {
    // 16 reads of a 64 KiB pipe buffer per wakeup: enough to keep up with a flood
    // (~2 GB/s measured), small enough that the other stream gets its turn.
    constexpr std::size_t kChunk = std::size_t{64} * 1024;
    constexpr int kReadsPerCall = 16;
    if (!fd_.valid()) {
        return;
    }
    // One scratch buffer per thread for every stream of every run: what is read is copied
    // out at once. A fresh 64 KiB per stream per run cost the host's allocator a
    // consolidation each time; zeroing it, a tenth of the host's per-run CPU.
    thread_local const std::unique_ptr<char[]> buffer(new char[kChunk]);  // NOLINT: uninitialised
    for (int i = 0; i < kReadsPerCall; ++i) {
        const ssize_t got = ::read(fd_.get(), buffer.get(), kChunk);
        if (got > 0) {
            const auto bytes = static_cast<std::uint64_t>(got);
            total_ += bytes;
            if (kept_.size() < cap_) {
                const std::uint64_t room = cap_ - kept_.size();
                kept_.append(buffer.get(), static_cast<std::size_t>(std::min(room, bytes)));
            }
            continue;
        }
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0 && errno == EAGAIN) {
            return;
        }
        fd_.reset();  // EOF, or an error that no retry will fix
        return;
    }
}

}  // namespace sbx::local
