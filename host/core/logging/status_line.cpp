#include "logging/status_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace sbx::logging {
namespace {

constexpr std::string_view kEraseLine = "\r\033[K";

struct StatusState {
    std::mutex mutex;
    std::string shown;  // what the terminal shows now, "" when nothing
};

StatusState &state() {
    static StatusState instance;
    return instance;
}

void write_all(std::string_view text) {
    while (!text.empty()) {
        const ssize_t written = ::write(STDERR_FILENO, text.data(), text.size());
        if (written <= 0) {
            return;  // a closed terminal: nothing to show it on
        }
        text.remove_prefix(static_cast<size_t>(written));
    }
}

// Columns of the terminal, less one (writing the last column wraps on some terminals).
size_t usable_width() {
    winsize size{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1) {
        return size.ws_col - 1U;
    }
    return 79;
}

// `text` cut to `width` visible characters; escape sequences (colours) cost nothing,
// and a cut line ends with the colour reset.
std::string fit(const std::string &text, size_t width) {
    std::string out;
    size_t visible = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\033') {
            const size_t end = text.find('m', i);
            out += text.substr(i, end == std::string::npos ? std::string::npos : end - i + 1);
            i = end == std::string::npos ? text.size() : end;
            continue;
        }
        // UTF-8 continuation bytes take no column of their own.
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && visible++ == width) {
            out += "\033[0m";
            break;
        }
        out += text[i];
    }
    return out;
}

}  // namespace

bool stderr_is_terminal() {
    static const bool terminal = ::isatty(STDERR_FILENO) == 1;
    return terminal;
}

bool stderr_colors() {
    const char *no_color = std::getenv("NO_COLOR");
    const char *term = std::getenv("TERM");
    return stderr_is_terminal() && (no_color == nullptr || *no_color == '\0') &&
           (term == nullptr || std::strcmp(term, "dumb") != 0);
}

void show_status(const std::string &text) {
    if (!stderr_is_terminal()) {
        return;
    }
    std::lock_guard<std::mutex> guard(state().mutex);
    state().shown = fit(text, usable_width());
    std::string frame(kEraseLine);
    frame += state().shown;
    write_all(frame);
}

void clear_status() {
    if (!stderr_is_terminal()) {
        return;
    }
    std::lock_guard<std::mutex> guard(state().mutex);
    if (!state().shown.empty()) {
        write_all(kEraseLine);
        state().shown.clear();
    }
}

void print_above_status(std::string_view text) {
    std::lock_guard<std::mutex> guard(state().mutex);
    if (!state().shown.empty()) {
        write_all(kEraseLine);
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    if (!state().shown.empty()) {
        std::string frame(kEraseLine);
        frame += state().shown;
        write_all(frame);
    }
}

void write_above_status(std::string_view line) {
    std::lock_guard<std::mutex> guard(state().mutex);
    if (state().shown.empty()) {
        write_all(line);
        return;
    }
    std::string frame(kEraseLine);
    frame += line;
    frame += state().shown;
    write_all(frame);
}

}  // namespace sbx::logging
