// The dashboard and the exporter, end to end: the real binary serving a real metrics.db,
// pages loaded in a real headless Chromium (content checked in the DOM it built, a
// screenshot kept), every hostile payload in the database shown as text and never run,
// live numbers while a matrix runs, and a real Prometheus scraping /metrics and answering
// a PromQL query.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using sbx::test::run_command;

constexpr const char *kChromium = "/usr/bin/chromium";
constexpr const char *kPrometheus = "/usr/bin/prometheus";

// A port nobody listens on now.
int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0) {
        ::close(fd);
        return 0;
    }
    socklen_t length = sizeof(address);
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

// `path` as the replay lines print it: in single quotes when it holds a space (a checkout
// under "/tmp/a b").
std::string shell_word(const std::string &path) {
    return path.find(' ') == std::string::npos ? path : "'" + path + "'";
}

// A background process stopped (SIGINT, then SIGKILL) and reaped when the test ends.
class Background {
  public:
    Background(const std::vector<std::string> &argv, const std::string &log,
               const std::map<std::string, std::string> &env = {})
        : log_(log), pid_(sbx::test::spawn_background(argv, env, "", log)) {}
    ~Background() { stop(); }
    Background(const Background &) = delete;
    Background &operator=(const Background &) = delete;
    int stop() {
        if (pid_ <= 0) {
            return status_;
        }
        ::kill(pid_, SIGINT);
        for (int i = 0; i < 100 && ::waitpid(pid_, &status_, WNOHANG) == 0; ++i) {
            ::usleep(50000);
        }
        if (::waitpid(pid_, &status_, WNOHANG) == 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status_, 0);
        }
        pid_ = -1;
        return status_;
    }
    // Waits for the process to end by itself; its exit code.
    int wait_exit() {
        ::waitpid(pid_, &status_, 0);
        pid_ = -1;
        return WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
    }
    [[nodiscard]] int pid() const { return pid_; }
    std::string log() const {
        std::ifstream in(log_);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

  private:
    std::string log_;
    int pid_;
    int status_ = 0;
};

struct Http {
    int code = 0;
    std::string body;
};

Http get(const std::string &url) {
    const auto result =
        run_command({"/usr/bin/curl", "-s", "-m", "20", "-w", "\n%{http_code}", url});
    Http http;
    const auto split = result.out.rfind('\n');
    if (result.exit_code == 0 && split != std::string::npos) {
        http.code = std::stoi(result.out.substr(split + 1));
        http.body = result.out.substr(0, split);
    }
    return http;
}

class Dashboard : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        // Chromium's singleton socket lives in TMPDIR and a socket path has at most 107
        // bytes: the test's own TMPDIR is too deep, so the browser gets a short one.
        ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0);  // see reap_strays
        char pattern[] = "/tmp/sbx-chromium-XXXXXX";
        ASSERT_NE(::mkdtemp(pattern), nullptr);
        browser_dir_ = pattern;
        ASSERT_TRUE(fs::exists(kChromium))
            << "these tests load pages in a real browser: install Debian's chromium "
               "(tools/install-deps does)";
        // A target that rejects what looks like markup: hostile_input fails it.
        write_settings(R"(
extends: default
workflows:
  - name: echo
    steps:
      - name: check
        run: [/bin/sh, -c, 'case "$1" in *"<"*) echo "refused: $1" >&2; exit 1;; esac; echo ok', sh, "{{input.text}}"]
        inputs:
          text: {type: string, example: hello}
)");
    }

    void TearDown() override {
        reap_strays();
        fs::remove_all(browser_dir_);
        CliTest::TearDown();
    }

    // Chromium's helpers (its crash handler, zygotes) may outlive the browser and write into
    // their folders after the test ended. The test process is their subreaper (SetUp): what
    // is still there now is killed and reaped before the folders go.
    static void reap_strays() {
        for (;;) {
            std::vector<pid_t> children;
            for (const auto &task : fs::directory_iterator("/proc/self/task")) {
                std::ifstream listed(task.path() / "children");
                for (pid_t pid = 0; listed >> pid;) {
                    children.push_back(pid);
                }
            }
            if (children.empty()) {
                return;
            }
            for (const pid_t pid : children) {
                ::kill(pid, SIGKILL);
                ::waitpid(pid, nullptr, 0);
            }
        }
    }

    std::vector<std::string> chromium(const std::vector<std::string> &args) const {
        std::vector<std::string> argv{kChromium,
                                      "--headless",
                                      "--no-sandbox",
                                      "--disable-gpu",
                                      "--disable-crash-reporter",
                                      "--no-first-run",
                                      "--user-data-dir=" + browser_dir_ + "/profile"};
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
    }

    void record_matrix() {
        const auto result = runner({"run-scenarios", "echo", "--workers", "2", "--seed", "7"});
        ASSERT_EQ(result.exit_code, 0) << result.err;
    }

    // `serve-dashboard --port 0` in the background; its port once it listens.
    int start_dashboard(std::unique_ptr<Background> &server) {
        server = std::make_unique<Background>(
            std::vector<std::string>{SBX_BINARY, "--config", settings_, "--data-dir",
                                     dir_ + "/data", "serve-dashboard", "--port", "0"},
            dir_ + "/dashboard.log");
        std::smatch match;
        const std::regex listening(R"(http://127\.0\.0\.1:(\d+)/)");
        EXPECT_TRUE(sbx::test::wait_until([&] {
            const std::string log = server->log();
            return std::regex_search(log, match, listening);
        })) << server->log();
        const std::string log = server->log();
        return std::regex_search(log, match, listening) ? std::stoi(match[1]) : 0;
    }

    // The DOM Chromium built for `url`, in a file.
    std::string dump_dom(const std::string &url, const std::string &name) {
        const auto result = run_command(chromium({"--dump-dom", url}), {{"TMPDIR", browser_dir_}});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return write_file(name, result.out);
    }

    // dom_check.py over a dumped page: nothing injected, the expected texts there.
    void check_dom(const std::string &dom, const std::vector<std::string> &expected,
                   const std::string &payloads = "") {
        std::vector<std::string> argv{"/usr/bin/python3",
                                      SBX_SOURCE_DIR "/tests/cli/fixtures/dom_check.py", dom};
        for (const auto &text : expected) {
            argv.insert(argv.end(), {"--expect", text});
        }
        if (!payloads.empty()) {
            argv.insert(argv.end(), {"--payloads", payloads});
        }
        const auto result = run_command(argv);
        EXPECT_EQ(result.exit_code, 0) << dom << ":\n" << result.out << result.err;
    }

    void screenshot(const std::string &url, const std::string &name) {
        fs::create_directories(SBX_ARTIFACT_DIR);
        const std::string path = std::string(SBX_ARTIFACT_DIR) + "/" + name;
        fs::remove(path);
        const auto result = run_command(
            chromium({"--hide-scrollbars", "--window-size=1280,1600", "--screenshot=" + path, url}),
            {{"TMPDIR", browser_dir_}});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        ASSERT_TRUE(fs::exists(path)) << result.err;
        EXPECT_GT(fs::file_size(path), 10000U);  // a page, not a blank
    }

    std::string browser_dir_;

    std::string one(const std::string &sql) {
        const auto rows = query(sql);
        return rows.empty() || rows[0].empty() ? "" : rows[0][0];
    }
};

std::vector<std::string> listing(const std::string &dir) {
    std::vector<std::string> names;
    for (const auto &entry : fs::recursive_directory_iterator(dir)) {
        names.push_back(entry.path().string() + " " +
                        (entry.is_regular_file() ? std::to_string(entry.file_size()) : "dir"));
    }
    std::sort(names.begin(), names.end());
    return names;
}

TEST_F(Dashboard, EveryPageShowsItsContentInChromium) {
    record_matrix();
    const std::string failed_run =
        one("SELECT r.id FROM runs r JOIN presets p ON p.id = r.preset_id WHERE p.name = "
            "'hostile_input' AND r.flag = 'on' AND r.passed = 0 ORDER BY r.id LIMIT 1");
    ASSERT_FALSE(failed_run.empty()) << "hostile_input should have failed the echo target";
    const auto before = listing(dir_ + "/data");
    std::unique_ptr<Background> server;
    const int port = start_dashboard(server);
    ASSERT_GT(port, 0);
    const std::string base = "http://127.0.0.1:" + std::to_string(port);

    check_dom(dump_dom(base + "/", "index.html"), {"Sessions", "run-scenarios echo", "finished"});
    check_dom(
        dump_dom(base + "/session/1", "session.html"),
        {"verdict:", "worst scenario: hostile_input", "hostile_input (worst)",
         "ROI delta per scenario", "replay: sandbox-runner --config", "normal: ROI and forecast"});
    check_dom(dump_dom(base + "/run/" + failed_run, "run.html"),
              {"replay: sandbox-runner --config " + shell_word(settings_) + " --data-dir " +
                   shell_word(dir_ + "/data") + " replay " + failed_run,
               "hostile_input (on)", "failed", "why: step 'check': exit code 1",
               "stderr: refused: ", "stderr of the failed step"});
    check_dom(dump_dom(base + "/trends", "trends.html"), {"roi:echo:normal:on"});
    check_dom(dump_dom(base + "/failures", "failures.html"), {"echo", "check"});
    check_dom(dump_dom(base + "/cleanup", "cleanup.html"), {"check-resources"});
    check_dom(dump_dom(base + "/synergy", "synergy.html"), {"No synergy is recorded yet"});
    screenshot(base + "/session/1", "dashboard-session.png");

    // The API the pages' numbers come from.
    const auto roi = json::parse(get(base + "/roi").body);
    EXPECT_NEAR(roi["workflows"]["echo"]["hostile_input"]["roi_delta"][0].get<double>(),
                std::stod(one("SELECT roi_delta FROM scenario_scores WHERE scenario = "
                              "'hostile_input'")),
                1e-12);
    const auto metric = json::parse(get(base + "/metrics/roi").body);
    const auto &series = metric["series"]["roi:echo:normal:on"];
    ASSERT_TRUE(series.is_object()) << metric.dump();
    EXPECT_EQ(series["predicted"].size(), series["actual"].size());
    EXPECT_EQ(series["predicted"].size(), series["points"].size());

    // Nothing but the routes: no file is served, a parameter is a number.
    for (const char *path : {"/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/session/abc",
                             "/session/999", "/static/app.js", "/run/1/../../../etc/passwd"}) {
        const auto sent = run_command({"/usr/bin/curl", "-s", "--path-as-is", "-o", "/dev/null",
                                       "-w", "%{http_code}", base + path});
        EXPECT_EQ(sent.out, "404") << path;
    }
    // DNS rebinding: a page of another name that resolves here is refused.
    const auto rebound =
        run_command({"/usr/bin/curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H",
                     "Host: attacker.example:" + std::to_string(port), base + "/api/sessions"});
    EXPECT_EQ(rebound.out, "403");
    const auto headers =
        run_command({"/usr/bin/curl", "-s", "-D", "-", "-o", "/dev/null", base + "/"});
    EXPECT_NE(headers.out.find("Content-Security-Policy: default-src 'none'"), std::string::npos)
        << headers.out;
    // Read-only: the data dir holds exactly what it held.
    server->stop();
    EXPECT_EQ(listing(dir_ + "/data"), before);
}

TEST_F(Dashboard, NoHostilePayloadRunsAsScript) {
    record_matrix();
    const std::string source_dir = SBX_SOURCE_DIR;
    const auto seeded = run_command(
        {"/usr/bin/python3", source_dir + "/tests/cli/fixtures/seed_payloads.py", db_path(),
         source_dir + "/plugins/stubs/hostile/payloads.json", dir_ + "/payloads.txt"});
    ASSERT_EQ(seeded.exit_code, 0) << seeded.err;
    const std::string session = seeded.out.substr(0, seeded.out.find('\n'));
    EXPECT_GE(std::stoi(one("SELECT COUNT(*) FROM runs WHERE session_id = " + session)), 600);
    std::unique_ptr<Background> server;
    const int port = start_dashboard(server);
    ASSERT_GT(port, 0);
    const std::string base = "http://127.0.0.1:" + std::to_string(port);
    const std::string payloads = dir_ + "/payloads.txt";
    // Every textual payload shown as text on each page that lists them all; no page with
    // anything a payload could have made a browser run or load.
    check_dom(dump_dom(base + "/session/" + session, "xss-session.html"), {}, payloads);
    check_dom(dump_dom(base + "/cleanup", "xss-cleanup.html"), {}, payloads);
    check_dom(dump_dom(base + "/synergy", "xss-synergy.html"), {}, payloads);
    check_dom(dump_dom(base + "/", "xss-index.html"), {});
    check_dom(dump_dom(base + "/failures", "xss-failures.html"), {});
    const std::string script_run =
        one("SELECT id FROM runs WHERE session_id = " + session +
            " AND CAST(failed_step AS TEXT) = '<script>alert(1)</script>'");
    ASSERT_FALSE(script_run.empty());
    check_dom(dump_dom(base + "/run/" + script_run, "xss-run.html"), {"<script>alert(1)</script>"});
    screenshot(base + "/session/" + session, "dashboard-xss.png");
    // The JSON API stays JSON, invalid UTF-8 replaced; the exposition stays valid UTF-8
    // (Prometheus refuses a whole scrape over one bad label value).
    EXPECT_TRUE(json::accept(get(base + "/roi").body));
    const auto exposition = get(base + "/metrics");
    EXPECT_EQ(exposition.code, 200);
    EXPECT_NE(exposition.body.find(
                  "sandbox_runner_cleanup_total{counter=\"<script>alert(1)</script>\"} 1\n"),
              std::string::npos);
    const auto valid = run_command({"/usr/bin/python3", "-c",
                                    "import sys; open(sys.argv[1], 'rb').read().decode('utf-8')",
                                    write_file("exposition.txt", exposition.body)});
    EXPECT_EQ(valid.exit_code, 0) << valid.err;
}

TEST_F(Dashboard, ShowsAMatrixLiveAndTheExporterCountsItsRuns) {
    write_settings(R"(
extends: default
workflows:
  - name: slow
    steps:
      - run: [/bin/sh, -c, 'sleep 0.3']
)");
    const int dashboard_port = free_port();
    const int metrics_port = free_port();
    Background matrix(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run-scenarios", "slow",
         "--workers", "1", "--dashboard-port", std::to_string(dashboard_port)},
        dir_ + "/matrix.log", {{"METRICS_PORT", std::to_string(metrics_port)}});
    const std::string dashboard = "http://127.0.0.1:" + std::to_string(dashboard_port);
    const std::string exporter = "http://127.0.0.1:" + std::to_string(metrics_port);
    json progress;
    ASSERT_TRUE(sbx::test::wait_until([&] {
        progress = json::parse(get(dashboard + "/api/progress").body, nullptr, false);
        return progress.is_object() && progress["live"]["done"].get<int>() >= 2;
    })) << matrix.log();
    EXPECT_GT(progress["live"]["planned"].get<int>(), progress["live"]["done"].get<int>());
    EXPECT_EQ(progress["running_sessions"].size(), 1U);
    const auto page = get(dashboard + "/");
    EXPECT_NE(page.body.find("http-equiv=\"refresh\""), std::string::npos);
    EXPECT_NE(page.body.find("live: runs "), std::string::npos);
    const auto metrics = get(exporter + "/metrics");
    EXPECT_EQ(metrics.code, 200);
    std::smatch done;
    ASSERT_TRUE(std::regex_search(metrics.body, done,
                                  std::regex(R"(\nsandbox_runner_matrix_runs_done (\d+)\n)")))
        << metrics.body;
    EXPECT_GE(std::stoi(done[1]), 2);
    EXPECT_EQ(get(exporter + "/").code, 404);  // the exporter serves /metrics alone
    EXPECT_EQ(matrix.wait_exit(), 0) << matrix.log();
    EXPECT_EQ(get(dashboard + "/").code, 0);  // gone with the command
}

TEST_F(Dashboard, PrometheusScrapesTheExporterAndAnswersPromQL) {
    ASSERT_TRUE(fs::exists(kPrometheus))
        << "this test scrapes with a real Prometheus: install Debian's prometheus "
           "(tools/install-deps does)";
    record_matrix();
    std::unique_ptr<Background> server;
    const int port = start_dashboard(server);
    ASSERT_GT(port, 0);
    const int prometheus_port = free_port();
    const std::string config = write_file("prometheus.yml", R"(global:
  scrape_interval: 1s
scrape_configs:
  - job_name: sandbox-runner
    static_configs:
      - targets: ['127.0.0.1:)" + std::to_string(port) + R"(']
)");
    Background prometheus(
        {kPrometheus, "--config.file=" + config, "--storage.tsdb.path=" + dir_ + "/tsdb",
         "--web.listen-address=127.0.0.1:" + std::to_string(prometheus_port)},
        dir_ + "/prometheus.log");
    const std::string api =
        "http://127.0.0.1:" + std::to_string(prometheus_port) + "/api/v1/query?query=";
    json answer;
    ASSERT_TRUE(sbx::test::wait_until(
        [&] {
            answer = json::parse(
                get(api + "sandbox_runner_scenario_roi_delta%7Bscenario%3D%22hostile_input%22%7D")
                    .body,
                nullptr, false);
            return answer.is_object() && answer["status"] == "success" &&
                   !answer["data"]["result"].empty();
        },
        std::chrono::seconds(90)))
        << prometheus.log();
    const auto &sample = answer["data"]["result"][0];
    EXPECT_EQ(sample["metric"]["workflow"], "echo");
    EXPECT_DOUBLE_EQ(std::stod(sample["value"][1].get<std::string>()),
                     std::stod(one("SELECT roi_delta FROM scenario_scores WHERE scenario = "
                                   "'hostile_input'")));
    const auto total = json::parse(get(api + "sum(sandbox_runner_runs_total)").body);
    ASSERT_FALSE(total["data"]["result"].empty()) << total.dump();
    EXPECT_EQ(std::stod(total["data"]["result"][0]["value"][1].get<std::string>()),
              std::stod(one("SELECT COUNT(*) FROM runs")));
    // Prometheus parsed every family: its own view of the target says healthy.
    const auto targets = json::parse(
        get("http://127.0.0.1:" + std::to_string(prometheus_port) + "/api/v1/targets").body);
    EXPECT_EQ(targets["data"]["activeTargets"][0]["health"], "up") << targets.dump();
}

// Operations: an alert command hears of a crashed session (found by the next command) and
// of one stopped by a signal; the exporter counts the restart, the last failure's time and
// the alerts, and /health answers. The seeds' gauge names are kept.
TEST_F(Dashboard, AlertsReachTheCommandAndTheExporterCountsRestartsAndFailures) {
    const std::string alerts = dir_ + "/alerts.jsonl";
    write_settings(R"(
extends: default
alert_command: [/bin/sh, -c, 'printf "%s\n" "$SANDBOX_ALERT" >> "$0"', ")" +
                   alerts + R"("]
workflows:
  - name: slow
    steps:
      - run: [/bin/sh, -c, 'sleep 0.2']
)");
    const std::vector<std::string> run = {SBX_BINARY,     "--config", settings_,   "--data-dir",
                                          dir_ + "/data", "run",      "-w",        "slow",
                                          "--runs",       "20",       "--workers", "1"};
    const int before_kill = static_cast<int>(::time(nullptr));
    {
        Background killed(run, dir_ + "/killed.log");
        ASSERT_GE(wait_for_runs(2, std::chrono::seconds(60)), 2) << killed.log();
        ::kill(killed.pid(), SIGKILL);
        killed.wait_exit();
    }
    // The next command that opens the data dir finds the host gone: the crash alert.
    const auto recovered = runner({"run", "-w", "slow", "--recover", "--workers", "2"});
    ASSERT_EQ(recovered.exit_code, 0) << recovered.out << recovered.err;
    // What the killed host left (its workspace) goes as a user's purge-stale takes it.
    ASSERT_EQ(runner({"purge-stale"}).exit_code, 0);
    {
        const int64_t so_far = std::stoll(one("SELECT COUNT(*) FROM runs"));
        Background stopped(run, dir_ + "/stopped.log");
        ASSERT_GE(wait_for_runs(so_far + 2, std::chrono::seconds(60)), so_far + 2) << stopped.log();
        stopped.stop();  // SIGINT: the session ends interrupted
    }
    std::ifstream in(alerts);
    std::vector<json> received;
    for (std::string line; std::getline(in, line);) {
        received.push_back(json::parse(line));
    }
    ASSERT_EQ(received.size(), 2U) << "one alert per failure, each once";
    EXPECT_EQ(received[0]["kind"], "session_crashed") << received[0];
    EXPECT_EQ(received[0]["session"], 1) << received[0];
    EXPECT_NE(received[0]["message"].get<std::string>().find("--recover"), std::string::npos);
    EXPECT_EQ(received[1]["kind"], "session_failed") << received[1];
    EXPECT_EQ(received[1]["session"], 2) << received[1];
    EXPECT_EQ(one("SELECT COUNT(*) FROM alerts WHERE delivered = 1"), "2");

    std::unique_ptr<Background> server;
    const int port = start_dashboard(server);
    ASSERT_GT(port, 0);
    const std::string base = "http://127.0.0.1:" + std::to_string(port);
    const auto metrics = get(base + "/metrics");
    ASSERT_EQ(metrics.code, 200);
    EXPECT_NE(metrics.body.find("\nsandbox_restart_total 1\n"), std::string::npos) << metrics.body;
    std::smatch failed_at;
    ASSERT_TRUE(std::regex_search(metrics.body, failed_at,
                                  std::regex(R"(\nsandbox_last_failure_ts (\d+)\n)")))
        << metrics.body;
    EXPECT_GE(std::stoll(failed_at[1]), before_kill);
    EXPECT_LE(std::stoll(failed_at[1]), static_cast<long long>(::time(nullptr)));
    EXPECT_NE(metrics.body.find("\nsandbox_runner_alerts_total{kind=\"session_crashed\"} 1\n"),
              std::string::npos)
        << metrics.body;
    const auto health = get(base + "/health");
    EXPECT_EQ(health.code, 200);
    const json answer = json::parse(health.body);
    EXPECT_EQ(answer["status"], "ok");
    EXPECT_EQ(answer["sessions"], 2);
}

}  // namespace
