// Framing for the host <-> isolated plugin channel.
#include "plugins/plugin_wire.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sbx::plugins::wire {
namespace {

constexpr size_t kHeaderBytes = 5;  // u32 length + u8 type

bool known_type(uint8_t byte) {
    switch (static_cast<FrameType>(byte)) {
        case FrameType::hello:
        case FrameType::refused:
        case FrameType::create:
        case FrameType::created:
        case FrameType::call:
        case FrameType::answer:
        case FrameType::log:
        case FrameType::out_of_memory:
            return true;
    }
    return false;
}

// Reads exactly `size` bytes; false at end of file or on an error.
bool read_exactly(int fd, char *into, size_t size) {
    while (size > 0) {
        const ssize_t got = ::read(fd, into, size);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            return false;
        }
        into += got;
        size -= static_cast<size_t>(got);
    }
    return true;
}

// The header's verdict: the payload size, or why the header is not one.
bool check_header(const char *header, uint32_t &payload_size, std::string &why) {
    const uint32_t length = get_u32(header);
    const auto type = static_cast<uint8_t>(header[4]);
    if (length < 1 || length > kMaxFrameBytes) {
        why = "a frame length of " + std::to_string(length) + " bytes";
        return false;
    }
    if (!known_type(type)) {
        why = "an unknown frame type " + std::to_string(type);
        return false;
    }
    payload_size = length - 1;
    return true;
}

}  // namespace

void put_u32(std::string &out, uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) {
        out.push_back(static_cast<char>((value >> shift) & 0xffu));
    }
}

uint32_t get_u32(const char *bytes) {
    uint32_t value = 0;
    for (int i = 3; i >= 0; --i) {
        value = (value << 8) | static_cast<unsigned char>(bytes[i]);
    }
    return value;
}

bool write_frame(int fd, FrameType type, const std::string &payload) {
    std::string header;
    put_u32(header, static_cast<uint32_t>(payload.size() + 1));
    header.push_back(static_cast<char>(type));
    // Two writes rather than a copy of a payload that may be megabytes.
    for (const std::string *part : {static_cast<const std::string *>(&header), &payload}) {
        const char *bytes = part->data();
        size_t left = part->size();
        while (left > 0) {
            const ssize_t put = ::write(fd, bytes, left);
            if (put < 0 && errno == EINTR) {
                continue;
            }
            if (put <= 0) {
                return false;
            }
            bytes += put;
            left -= static_cast<size_t>(put);
        }
    }
    return true;
}

ReadResult read_frame(int fd, Frame &frame, std::string &why) {
    char header[kHeaderBytes];
    if (!read_exactly(fd, header, sizeof(header))) {
        return ReadResult::closed;
    }
    uint32_t size = 0;
    if (!check_header(header, size, why)) {
        return ReadResult::garbage;
    }
    frame.type = static_cast<FrameType>(header[4]);
    frame.payload.resize(size);
    if (!read_exactly(fd, frame.payload.data(), size)) {
        return ReadResult::closed;
    }
    return ReadResult::frame;
}

ReadResult FrameReader::fill(int fd) {
    char chunk[65536];
    while (true) {
        const ssize_t got = ::read(fd, chunk, sizeof(chunk));
        if (got > 0) {
            buffer_.append(chunk, static_cast<size_t>(got));
            continue;
        }
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return ReadResult::frame;  // all there is for now
        }
        return ReadResult::closed;  // end of file, or the channel broke
    }
}

ReadResult FrameReader::next(Frame &frame, std::string &why) {
    if (buffer_.size() < kHeaderBytes) {
        return ReadResult::closed;
    }
    uint32_t size = 0;
    if (!check_header(buffer_.data(), size, why)) {
        return ReadResult::garbage;
    }
    if (buffer_.size() < kHeaderBytes + size) {
        return ReadResult::closed;
    }
    frame.type = static_cast<FrameType>(buffer_[4]);
    frame.payload.assign(buffer_, kHeaderBytes, size);
    buffer_.erase(0, kHeaderBytes + size);
    return ReadResult::frame;
}

std::string encode_answer(int32_t status, const std::string &answer, const std::string &error) {
    std::string out;
    out.reserve(8 + answer.size() + error.size());
    put_u32(out, static_cast<uint32_t>(status));
    put_u32(out, static_cast<uint32_t>(answer.size()));
    out += answer;
    out += error;
    return out;
}

bool decode_answer(const std::string &payload, int32_t &status, std::string &answer,
                   std::string &error) {
    if (payload.size() < 8) {
        return false;
    }
    status = static_cast<int32_t>(get_u32(payload.data()));
    const uint32_t size = get_u32(payload.data() + 4);
    if (size > payload.size() - 8) {
        return false;
    }
    answer.assign(payload, 8, size);
    error.assign(payload, 8 + size);
    return true;
}

}  // namespace sbx::plugins::wire
