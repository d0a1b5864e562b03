// A loaded plugin library and its instances: the host side of sbx/plugin.h.
// Loading never unloads; an Instance destroys its plugin object when it goes out of scope.
#pragma once

#include <sbx/plugin.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "util/errors.hpp"

namespace sbx::plugins {

// A plugin file the host refuses (not ELF, no entry symbol, ABI mismatch, bad descriptor,
// failing init, schema violation). Bad input: exit 2.
class PluginError : public InputError {
  public:
    using InputError::InputError;
};

// A plugin call that returned a status other than SBX_OK.
class PluginCallError : public std::runtime_error {
  public:
    PluginCallError(sbx_status status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    [[nodiscard]] sbx_status status() const noexcept { return status_; }

  private:
    sbx_status status_;
};

// The descriptor, copied out of the plugin into host-owned strings.
struct Descriptor {
    std::string id;
    std::string name;
    std::string version;
    std::string kind;
    std::string description;
    std::string vendor;
    std::string url;
    std::string license;
    nlohmann::json config_schema;  // parsed; {"type":"object"} when the plugin gave none
};

class Plugin;

// Maps a JSON pointer inside a plugin's configuration to "file:line:column" (or "" when
// unknown) so schema violations point at the YAML the user wrote.
using ConfigLocator = std::function<std::string(const std::string &pointer)>;

// One instance of a plugin. Calls on one Instance must not overlap (the ABI contract);
// different Instances may be used from different threads.
class Instance {
  public:
    Instance(std::shared_ptr<const Plugin> plugin, sbx_instance *handle);
    ~Instance();
    Instance(const Instance &) = delete;
    Instance &operator=(const Instance &) = delete;

    [[nodiscard]] const Plugin &plugin() const { return *plugin_; }

    // Executor: run spec -> result JSON text.
    std::string run(const std::string &spec_json);
    // Injector.
    std::string prepare(const std::string &request_json);
    void teardown(const std::string &state_json);
    // Injector, or executor (ABI >= 1.1; an older executor answers {"removed": []}).
    std::string sweep(const std::string &request_json);
    // Stub strategy, metrics collector, predictor.
    std::string generate(const std::string &request_json);
    std::string collect(const std::string &request_json);
    std::string predict(const std::string &request_json);

  private:
    template <class Table, class Fn>
    std::string call_with_sink(const char *interface_id, Fn &&fn);
    [[noreturn]] void fail(const char *what, sbx_status status);

    std::shared_ptr<const Plugin> plugin_;
    sbx_instance *handle_;
};

// A loaded and initialized plugin library. Shared by its instances; never unloaded.
class Plugin : public std::enable_shared_from_this<Plugin> {
  public:
    [[nodiscard]] const Descriptor &descriptor() const { return descriptor_; }
    [[nodiscard]] const std::string &id() const { return descriptor_.id; }
    [[nodiscard]] const std::string &kind() const { return descriptor_.kind; }
    [[nodiscard]] const std::filesystem::path &path() const { return path_; }
    [[nodiscard]] sbx_version abi() const { return entry_.abi; }
    // The kind interface table, or nullptr.
    [[nodiscard]] const void *interface(const char *interface_id) const;
    // Validates `config` against the descriptor's schema, then creates an instance: no
    // caller can hand a plugin configuration its schema refuses (the ABI promises a plugin
    // may trust it). A violation is an InputError for the first one,
    // "<location>: plugins.<id><pointer>: <message>"; a refusal by create() a PluginError.
    [[nodiscard]] std::unique_ptr<Instance> create(const nlohmann::json &config,
                                                   const ConfigLocator &locate = {}) const;
    [[nodiscard]] const sbx_plugin_entry &entry() const { return entry_; }

  private:
    friend std::shared_ptr<Plugin> load_plugin(const std::filesystem::path &path);
    Plugin() = default;
    std::filesystem::path path_;
    sbx_plugin_entry entry_{};
    Descriptor descriptor_;
    std::shared_ptr<void> library_;  // keeps the library mapped (never unloaded)
};

// Pre-checks (ELF, entry symbol) without running plugin code, loads with
// RTLD_NOW|RTLD_LOCAL, negotiates the ABI, validates the descriptor and calls init().
// Throws PluginError with a one-line reason naming the file.
std::shared_ptr<Plugin> load_plugin(const std::filesystem::path &path);

// The host services every plugin receives at init.
const sbx_host *host_services();
// Asks running plugins to stop (sbx_host.is_cancelled becomes nonzero). Signal-safe.
void request_cancel() noexcept;
bool cancel_requested() noexcept;

}  // namespace sbx::plugins
