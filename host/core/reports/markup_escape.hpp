// Escaping text for HTML and XML (SVG, JUnit): every string that came from a database, a
// settings file or a target goes through here before it is markup. The database holds the
// hostile stub's XSS payloads, so this is what keeps a report or dashboard page inert.
#pragma once

#include <string>
#include <string_view>

namespace sbx::reports {

// & < > " ' as entities; control characters other than tab, newline and carriage return
// (not allowed in XML 1.0) as U+FFFD; invalid UTF-8 bytes as U+FFFD. Safe in element
// content and in quoted attribute values.
std::string escape_markup(std::string_view text);

// `text` with every invalid UTF-8 byte and every control character (C0 but tab and
// newline, DEL, C1) as U+FFFD: for outputs that are not markup but must stay valid text
// (Prometheus label values, a terminal's status line).
std::string sanitize_text(std::string_view text);

}  // namespace sbx::reports
