// A loaded plugin library and its instances: the host side of sbx/plugin.h.
// Loading never unloads; an Instance destroys its plugin object when it goes out of scope.
// An isolated plugin's code never runs in this process (isolated_instance.hpp).
#pragma once

#include <sbx/plugin.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "plugins/isolation_policy.hpp"
#include "plugins/plugin_call.hpp"
#include "util/errors.hpp"

namespace sbx::plugins {

// A plugin file the host refuses (not ELF, no entry symbol, ABI mismatch, bad descriptor,
// failing init, schema violation). Bad input: exit 2.
class PluginError : public InputError {
  public:
    using InputError::InputError;
};

// How a plugin call failed: each kind has its own next step for the plugin's author.
enum class CallFailure : uint8_t {
    status,     // the plugin returned a status other than SBX_OK (it said no)
    crash,      // its process died (a signal, or an exit) during the call
    hang,       // it did not answer within the call's deadline and was killed
    garbage,    // it wrote bytes that are not a frame on its channel
    memory,     // it reached its memory limit (plugin_host.memory_mb)
    bad_answer  // it answered SBX_OK with text that breaks the call's contract
};

// "crash", "hang", ...: the words reports, JSON and the database use.
constexpr const char *failure_name(CallFailure failure) {
    constexpr const char *kNames[] = {"status", "crash", "hang", "garbage", "memory", "bad_answer"};
    return kNames[static_cast<uint8_t>(failure)];
}

// A plugin call that returned a status other than SBX_OK, or (isolated) whose process
// crashed, hung, wrote garbage or ran out of memory.
class PluginCallError : public std::runtime_error {
  public:
    PluginCallError(sbx_status status, const std::string &message,
                    CallFailure failure = CallFailure::status)
        : std::runtime_error(message), status_(status), failure_(failure) {}
    [[nodiscard]] sbx_status status() const noexcept { return status_; }
    [[nodiscard]] CallFailure failure() const noexcept { return failure_; }

  private:
    sbx_status status_;
    CallFailure failure_;
};

// An isolated plugin crashed, hung or wrote garbage, and `plugin_host.on_crash: stop`
// says that ends the command (exit 3) rather than the call.
class PluginCrashError : public EnvironmentError {
  public:
    using EnvironmentError::EnvironmentError;
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
    nlohmann::json config_schema;    // parsed; {"type":"object"} when the plugin gave none
    bool active_by_default = false;  // ABI 1.2: a drop-in collector or injector used unnamed
};

class Plugin;

// Maps a JSON pointer inside a plugin's configuration to "file:line:column" (or "" when
// unknown) so schema violations point at the YAML the user wrote.
using ConfigLocator = std::function<std::string(const std::string &pointer)>;

// One instance of a plugin. Calls on one Instance must not overlap (the ABI contract);
// different Instances may be used from different threads. In process, or served by a child
// sbx-plugin-host (isolated_instance.hpp); the callers cannot tell.
class Instance {
  public:
    explicit Instance(std::shared_ptr<const Plugin> plugin) : plugin_(std::move(plugin)) {}
    virtual ~Instance() = default;
    Instance(const Instance &) = delete;
    Instance &operator=(const Instance &) = delete;

    [[nodiscard]] const Plugin &plugin() const { return *plugin_; }
    // The configuration it was created with (JSON text, the schema's defaults filled in):
    // what `plugins call --plugin-config` needs to repeat one of its calls.
    [[nodiscard]] const std::string &config_text() const { return config_text_; }

    // Executor: run spec -> result JSON text.
    std::string run(const std::string &spec_json) { return call(PluginCall::run, spec_json); }
    // Injector.
    std::string prepare(const std::string &request_json) {
        return call(PluginCall::prepare, request_json);
    }
    void teardown(const std::string &state_json) { call(PluginCall::teardown, state_json); }
    // Injector, after the run (ABI >= 1.3; an older injector answers {}).
    std::string tally(const std::string &state_json) { return call(PluginCall::tally, state_json); }
    // Injector, or executor (ABI >= 1.1; an older executor answers {"removed": []}).
    std::string sweep(const std::string &request_json) {
        return call(PluginCall::sweep, request_json);
    }
    // Stub strategy, metrics collector, predictor.
    std::string generate(const std::string &request_json) {
        return call(PluginCall::generate, request_json);
    }
    std::string collect(const std::string &request_json) {
        return call(PluginCall::collect, request_json);
    }
    std::string predict(const std::string &request_json) {
        return call(PluginCall::predict, request_json);
    }

    // Makes `which` with `request`: the answer text ("" for teardown). Throws
    // PluginCallError when the plugin returns an error status, crashes or hangs.
    virtual std::string call(PluginCall which, const std::string &request) = 0;

  protected:
    std::shared_ptr<const Plugin> plugin_;

  private:
    friend class Plugin;
    std::string config_text_;
};

// A loaded and initialized plugin library, or (isolated) the description of one that only
// ever runs in child processes. Shared by its instances; never unloaded.
class Plugin : public std::enable_shared_from_this<Plugin> {
  public:
    [[nodiscard]] const Descriptor &descriptor() const { return descriptor_; }
    [[nodiscard]] const std::string &id() const { return descriptor_.id; }
    [[nodiscard]] const std::string &kind() const { return descriptor_.kind; }
    [[nodiscard]] const std::filesystem::path &path() const { return path_; }
    [[nodiscard]] sbx_version abi() const { return abi_; }
    [[nodiscard]] const CallPolicy &policy() const { return policy_; }
    [[nodiscard]] bool isolated() const { return policy_.isolation == Isolation::process; }
    // The registry's decision for this plugin (deadline, restarts, on_crash). Whether it is
    // isolated is fixed by how it was opened and stays.
    void set_policy(const CallPolicy &policy) {
        const Isolation kept = policy_.isolation;
        policy_ = policy;
        policy_.isolation = kept;
    }
    // Validates `config` against the descriptor's schema (after filling the schema's
    // defaults), then creates an instance: no caller can hand a plugin configuration its
    // schema refuses (the ABI promises a plugin may trust it). A violation is an InputError
    // for the first one, "<location>: plugins.<id><pointer>: <message>"; a refusal by
    // create() a PluginError.
    [[nodiscard]] std::unique_ptr<Instance> create(const nlohmann::json &config,
                                                   const ConfigLocator &locate = {}) const;
    // In process only (nullptr when isolated): the entry the library exports.
    [[nodiscard]] const sbx_plugin_entry *entry() const { return library_ ? &entry_ : nullptr; }
    // In process only: the kind interface table, or nullptr.
    [[nodiscard]] const void *interface(const char *interface_id) const;
    // The descriptor as the isolated plugin host reports it (and reads it back).
    [[nodiscard]] nlohmann::json description() const;

  private:
    friend std::shared_ptr<Plugin> load_plugin(const std::filesystem::path &path);

    // The plugin at `path` as a child sbx-plugin-host loads and describes it: no code of it
    // runs in this process. A file that crashes or hangs while loading is a PluginError that
    // says so. Its instances are served by child processes under `policy`.
    std::shared_ptr<Plugin> describe_plugin(const std::filesystem::path &path,
                                            const CallPolicy &policy);

    // Refuses (PluginError naming `path`) a descriptor with a mandatory field missing, an id or
    // version out of form, or an unknown kind.
    void check_descriptor(const std::filesystem::path &path, const Descriptor &descriptor);

    // The descriptor of a plugin from its description (Plugin::description()); a PluginError
    // naming `path` when a field is missing or malformed.
    Descriptor descriptor_from_description(const std::filesystem::path &path,
                                           const nlohmann::json &description, sbx_version &abi);
    friend std::shared_ptr<Plugin> describe_plugin(const std::filesystem::path &path,
                                                   const CallPolicy &policy);
    Plugin() = default;
    std::filesystem::path path_;
    sbx_version abi_{};
    sbx_plugin_entry entry_{};
    Descriptor descriptor_;
    CallPolicy policy_;
    std::shared_ptr<void> library_;  // keeps the library mapped (never unloaded)
};

// Pre-checks (ELF, entry symbol) without running plugin code, loads with
// RTLD_NOW|RTLD_LOCAL, negotiates the ABI, validates the descriptor and calls init().
// Throws PluginError with a one-line reason naming the file.
std::shared_ptr<Plugin> load_plugin(const std::filesystem::path &path);

// The plugin at `path` as a child sbx-plugin-host loads and describes it: no code of it
// runs in this process. A file that crashes or hangs while loading is a PluginError that
// says so. Its instances are served by child processes under `policy`.
std::shared_ptr<Plugin> describe_plugin(const std::filesystem::path &path,
                                        const CallPolicy &policy);

// Refuses (PluginError naming `path`) a descriptor with a mandatory field missing, an id or
// version out of form, or an unknown kind.
void check_descriptor(const std::filesystem::path &path, const Descriptor &descriptor);

// The descriptor of a plugin from its description (Plugin::description()); a PluginError
// naming `path` when a field is missing or malformed.
Descriptor descriptor_from_description(const std::filesystem::path &path,
                                       const nlohmann::json &description, sbx_version &abi);

// The host services every plugin receives at init.
const sbx_host *host_services();
// Asks running plugins to stop (sbx_host.is_cancelled becomes nonzero). Signal-safe.
void request_cancel() noexcept;
bool cancel_requested() noexcept;

}  // namespace sbx::plugins
