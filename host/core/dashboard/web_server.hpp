// The dashboard and the Prometheus exporter over HTTP (cpp-httplib): started on a port,
// served from worker threads, stopped and joined by the destructor. Routes are fixed
// paths and numeric or name-shaped parameters: no file is ever served, so there is no path
// to traverse. Responses carry a Content-Security-Policy that forbids every script.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <thread>

namespace httplib {
class Server;
}

namespace sbx::dashboard {

enum class Routes {
    dashboard,  // pages, JSON API and /metrics
    exporter,   // /metrics alone (--metrics-port, METRICS_PORT, SYNERGY_METRICS_PORT)
};

class WebServer {
  public:
    // Binds `address:port` (port 0: any free port) and starts serving `data_dir`. Throws
    // InputError naming `option` when the address cannot be bound (a port in use).
    WebServer(const std::filesystem::path &data_dir, const std::string &address, int port,
              Routes routes, const std::string &option);
    ~WebServer();
    WebServer(const WebServer &) = delete;
    WebServer &operator=(const WebServer &) = delete;

    int port() const { return port_; }
    // Blocks until stop() (from a signal handler's thread) or the destructor.
    void wait();
    void stop();

  private:
    std::unique_ptr<httplib::Server> server_;
    std::thread thread_;
    int port_ = 0;
};

}  // namespace sbx::dashboard
