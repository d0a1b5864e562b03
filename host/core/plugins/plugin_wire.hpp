// The channel between the host and an isolated plugin (sbx-plugin-host): frames of
// [u32 length, little-endian][u8 type][payload] on a stream socket. Rationale: a stream,
// not SOCK_SEQPACKET, because an executor's answer carries a target's whole output and a
// datagram is capped by the socket buffer.
#pragma once

#include <cstdint>
#include <string>

namespace sbx::plugins::wire {

enum class FrameType : uint8_t {
    hello = 'H',    // child: the plugin loaded; payload is its description (JSON)
    refused = 'F',  // child: the plugin could not be loaded or created; payload is why
    create = 'C',   // host: create the instance; payload is the configuration (JSON)
    created = 'D',  // child: the instance exists
    call = 'K',     // host: [u8 PluginCall][request]
    answer = 'A',   // child: [i32 status][u32 n][answer: n bytes][last_error]
    log = 'L',      // child: [i32 level][message], any time
    // child, before its answer: the call just made failed with malloc out of memory (errno
    // ENOMEM) under the child's memory limit; payload empty.
    out_of_memory = 'M',
};

struct Frame {
    FrameType type{};
    std::string payload;
};

// A frame larger than this is garbage on the channel, not an answer.
inline constexpr uint32_t kMaxFrameBytes = 512u << 20;

// Writes one whole frame; false when the peer is gone (EPIPE, ECONNRESET).
bool write_frame(int fd, FrameType type, const std::string &payload);

// Result of reading: a frame, the peer closed the channel, or the bytes were not a frame.
enum class ReadResult : uint8_t { frame, closed, garbage };

// Reads one whole frame, blocking (the plugin side). `why` says what was malformed for
// ReadResult::garbage.
ReadResult read_frame(int fd, Frame &frame, std::string &why);

// Frames assembled from whatever bytes arrive (the host side, which never blocks on a
// plugin: a child that sends half a frame and hangs must still meet its deadline).
class FrameReader {
  public:
    // Appends what a non-blocking read of `fd` gives; ReadResult::closed at end of file.
    ReadResult fill(int fd);
    // Takes the next whole frame out of the buffer: frame, or closed when none is whole
    // yet, or garbage (`why` set) when the length prefix is impossible.
    ReadResult next(Frame &frame, std::string &why);

  private:
    std::string buffer_;
};

// The answer payload, both ways.
std::string encode_answer(int32_t status, const std::string &answer, const std::string &error);
bool decode_answer(const std::string &payload, int32_t &status, std::string &answer,
                   std::string &error);

// Fixed-width integers in frames are little-endian on every host.
void put_u32(std::string &out, uint32_t value);
uint32_t get_u32(const char *bytes);

}  // namespace sbx::plugins::wire
