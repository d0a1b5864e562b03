#include "dashboard/web_server.hpp"

#include <httplib.h>
#include <spdlog/spdlog.h>
#include <algorithm>
#include <chrono>

#include "dashboard/dashboard_api.hpp"
#include "dashboard/dashboard_pages.hpp"
#include "dashboard/exposition.hpp"
#include "store/read_only_database.hpp"
#include "util/errors.hpp"
#include "util/number_parse.hpp"

namespace sbx::dashboard {
namespace {

constexpr const char *kPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'";

void send_page(httplib::Response &response, const Page &page) {
    response.status = page.status;
    response.set_content(page.html, "text/html; charset=utf-8");
}

void send_json(httplib::Response &response, const nlohmann::json &value) {
    // Replace, never throw: the database holds invalid UTF-8 on purpose (hostile inputs).
    response.set_content(value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace),
                         "application/json");
}

// GET /health: 200 {"status": "ok", "sessions": N} while metrics.db can be read (or does not
// exist yet), else 503 {"status": "error", "error": ...}: what a load balancer or a
// liveness probe asks.
void send_health(httplib::Response &response, const std::filesystem::path &data_dir) {
    nlohmann::json answer = {{"status", "ok"}, {"data_dir", data_dir.string()}, {"sessions", 0}};
    try {
        // Any schema: an older database is healthy, only not migrated yet.
        if (const auto db = store::open_read_only(data_dir / "metrics.db", 1)) {
            store::Statement count(db->get(), "SELECT COUNT(*) FROM sessions");
            answer["sessions"] = count.step() ? count.column_int(0) : 0;
        }
    } catch (const std::exception &e) {
        response.status = 503;
        answer = {{"status", "error"}, {"data_dir", data_dir.string()}, {"error", e.what()}};
    }
    send_json(response, answer);
}

// The route's pattern lets only 1 to 18 digits through; 0 (no such row) otherwise.
int64_t number_parameter(const httplib::Request &request) {
    return util::parse_int64(request.matches[1].str()).value_or(0);
}

void add_dashboard_routes(httplib::Server &server, const std::filesystem::path &data_dir) {
    server.Get("/", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_page(response, sessions_page(data_dir));
    });
    // Numbers only: a parameter cannot name anything but a row.
    server.Get(R"(/session/(\d{1,18}))",
               [data_dir](const httplib::Request &request, httplib::Response &response) {
                   send_page(response, session_page(data_dir, number_parameter(request)));
               });
    server.Get(R"(/run/(\d{1,18}))",
               [data_dir](const httplib::Request &request, httplib::Response &response) {
                   send_page(response, run_page(data_dir, number_parameter(request)));
               });
    server.Get("/trends", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_page(response, trends_page(data_dir));
    });
    server.Get("/synergy", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_page(response, synergy_page(data_dir));
    });
    server.Get("/failures", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_page(response, failures_page(data_dir));
    });
    server.Get("/cleanup", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_page(response, cleanup_page(data_dir));
    });
    server.Get("/roi", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_json(response, roi_json(data_dir));
    });
    server.Get(R"(/metrics/([A-Za-z0-9_.\-]{1,128}))",
               [data_dir](const httplib::Request &request, httplib::Response &response) {
                   send_json(response, metric_json(data_dir, request.matches[1].str()));
               });
    server.Get("/api/sessions", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_json(response, sessions_json(data_dir));
    });
    server.Get("/api/progress", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_json(response, progress_json(data_dir));
    });
}

}  // namespace

WebServer::WebServer(const std::filesystem::path &data_dir, const std::string &address, int port,
                     Routes routes, const std::string &option)
    : server_(std::make_unique<httplib::Server>()) {
    auto &server = *server_;
    server.set_default_headers({{"Content-Security-Policy", kPolicy},
                                {"X-Content-Type-Options", "nosniff"},
                                {"Referrer-Policy", "no-referrer"},
                                {"Cache-Control", "no-store"}});
    server.Get("/metrics", [data_dir](const httplib::Request &, httplib::Response &response) {
        response.set_content(prometheus_exposition(data_dir),
                             "text/plain; version=0.0.4; charset=utf-8");
    });
    server.Get("/health", [data_dir](const httplib::Request &, httplib::Response &response) {
        send_health(response, data_dir);
    });
    if (routes == Routes::dashboard) {
        add_dashboard_routes(server, data_dir);
    }
    server.set_error_handler([](const httplib::Request &request, httplib::Response &response) {
        if (response.status == 404) {
            send_page(response, not_found_page("nothing is served at " + request.path));
        }
    });
    // A failing page is the page's 500 and a log line, never the host's end.
    server.set_exception_handler([](const httplib::Request &request, httplib::Response &response,
                                    const std::exception_ptr &error) {
        std::string what = "unknown error";
        try {
            std::rethrow_exception(error);
        } catch (const std::exception &e) {
            what = e.what();
        } catch (...) {
        }
        spdlog::warn("dashboard: {} failed: {}", request.path, what);
        response.status = 500;
        response.set_content("error: " + what + "\n", "text/plain; charset=utf-8");
    });
    port_ = port == 0 ? server.bind_to_any_port(address)
                      : (server.bind_to_port(address, port) ? port : -1);
    if (port_ <= 0) {
        throw InputError(option + ": cannot listen on " + address + ":" + std::to_string(port) +
                         " (in use, or not an address of this machine); choose another port");
    }
    // A DNS-rebinding page names another host in Host: only names of this address answer.
    const bool any_address = address == "0.0.0.0" || address == "::";
    const std::string suffix = ":" + std::to_string(port_);
    const std::vector<std::string> hosts{address + suffix, "[" + address + "]" + suffix,
                                         "127.0.0.1" + suffix, "localhost" + suffix,
                                         "[::1]" + suffix};
    server.set_pre_routing_handler(
        [any_address, hosts](const httplib::Request &request, httplib::Response &response) {
            const std::string host = request.get_header_value("Host");
            if (any_address || std::find(hosts.begin(), hosts.end(), host) != hosts.end()) {
                return httplib::Server::HandlerResponse::Unhandled;
            }
            response.status = 403;
            response.set_content("the Host header names neither this address nor localhost\n",
                                 "text/plain; charset=utf-8");
            return httplib::Server::HandlerResponse::Handled;
        });
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    // stop() does nothing before the server runs: wait, so the destructor can stop it.
    while (!server_->is_running()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    spdlog::info("{} listening on http://{}:{}/",
                 routes == Routes::dashboard ? "dashboard" : "metrics exporter", address, port_);
}

void WebServer::wait() {
    if (thread_.joinable()) {
        thread_.join();
    }
}

void WebServer::stop() {
    server_->stop();
}

WebServer::~WebServer() {
    server_->stop();
    wait();
}

}  // namespace sbx::dashboard
