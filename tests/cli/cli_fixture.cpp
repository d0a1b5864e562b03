// CliTest helpers.
#include "cli_fixture.hpp"

#include <unistd.h>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>

namespace sbx::test {

void CliTest::SetUp() {
    binary_ = SBX_BINARY;
    if (run_by_ == RunBy::others_too && ::geteuid() == 0) {
        reachable_ = std::make_unique<ReachableByOthers>(binary_);
        binary_ = reachable_->binary();
        dir_ = reachable_->make_folder("sbx-cli-");
    } else {
        dir_ = make_temp_dir("sbx-cli-");
    }
}

void CliTest::TearDown() {
    end_background_programs();  // a test that failed early left its host running
    std::filesystem::remove_all(dir_);
    reachable_.reset();  // after dir_, which it may hold
}

std::string CliTest::write_file(const std::string &name, const std::string &content) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << content;
    return path;
}

std::string CliTest::write_settings(const std::string &yaml) {
    settings_ = write_file("settings.yaml", yaml);
    return settings_;
}

CommandResult CliTest::runner(const std::vector<std::string> &args) {
    std::vector<std::string> argv = {binary_, "--config", settings_, "--data-dir", dir_ + "/data"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv, {}, dir_);
}

CommandResult CliTest::runner_as(bool unprivileged, const std::vector<std::string> &args) {
    std::vector<std::string> argv;
    if (unprivileged && ::geteuid() == 0) {
        if (run_by_ != RunBy::others_too) {
            ADD_FAILURE() << "runner_as(true, ...) acts as nobody: construct the fixture with "
                             "CliTest(RunBy::others_too), or a checkout under a private home "
                             "hides the binary and the test's folder from that user";
        }
        argv = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "--inh-caps=-all"};
    }
    for (const std::string &word :
         {binary_, std::string("--config"), settings_, std::string("--data-dir"), dir_ + "/data"}) {
        argv.push_back(word);
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv, {{"TMPDIR", dir_ + "/tmp"}, {"HOME", dir_}}, dir_);
}

void CliTest::give_to_nobody(const std::string &path) {
    constexpr unsigned kNobody = 65534;
    if (::geteuid() == 0) {
        ASSERT_EQ(::chown(path.c_str(), kNobody, kNobody), 0) << path;
    }
}

int64_t CliTest::wait_for_runs(int64_t count, std::chrono::seconds timeout) {
    int64_t seen = 0;
    (void)wait_until(
        [&] {
            // The host creates the file a moment before its schema: wait for the table.
            if (std::filesystem::exists(db_path()) &&
                query("SELECT count(*) FROM sqlite_master WHERE name = 'runs'")[0][0] == "1") {
                const auto rows = query("SELECT count(*) FROM runs");
                if (!rows.empty()) {
                    seen = std::stoll(rows[0][0]);
                }
            }
            return seen >= count;
        },
        timeout, std::chrono::milliseconds(50));
    return seen;
}

CommandResult CliTest::paste(const std::string &line, const std::string &folder) {
    const std::string program = "sandbox-runner ";
    if (line.rfind(program, 0) != 0) {
        ADD_FAILURE() << "not a sandbox-runner command line: " << line;
        return {};
    }
    std::string binary = "'";
    for (const char c : std::string(SBX_BINARY)) {
        binary += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return run_command({"/bin/sh", "-c", binary + "' " + line.substr(program.size())}, {}, folder);
}

std::vector<std::vector<std::string>> CliTest::on_steps(const std::string &columns) {
    return query("SELECT " + columns +
                 " FROM runs r JOIN steps s ON s.run_id = r.id WHERE r.flag = 'on'");
}

std::vector<std::vector<std::string>> CliTest::query(const std::string &sql) {
    sqlite3 *db = nullptr;
    std::vector<std::vector<std::string>> rows;
    if (sqlite3_open_v2(db_path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        ADD_FAILURE() << "cannot open " << db_path();
        return rows;
    }
    sqlite3_busy_timeout(db, 5000);
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        ADD_FAILURE() << sqlite3_errmsg(db) << " in " << sql;
    } else {
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            std::vector<std::string> row;
            for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
                const auto *text = sqlite3_column_text(stmt, i);
                row.emplace_back(text ? reinterpret_cast<const char *>(text) : "");
            }
            rows.push_back(row);
        }
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

}  // namespace sbx::test
