// The dashboard's pages, rendered on the server from metrics.db (opened read-only per
// request): HTML with inline SVG charts and inline CSS, and no script at all, so a page
// works offline and the Content-Security-Policy can forbid every script. While a session
// runs, pages refresh themselves every few seconds. Every string from the database is
// escaped (reports/markup_escape.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace sbx::dashboard {

struct Page {
    int status = 200;
    std::string html;
};

Page sessions_page(const std::filesystem::path &data_dir);
Page session_page(const std::filesystem::path &data_dir, int64_t session);
Page run_page(const std::filesystem::path &data_dir, int64_t run);
Page trends_page(const std::filesystem::path &data_dir);
Page synergy_page(const std::filesystem::path &data_dir);
Page failures_page(const std::filesystem::path &data_dir);
Page cleanup_page(const std::filesystem::path &data_dir);
Page not_found_page(const std::string &what);

}  // namespace sbx::dashboard
