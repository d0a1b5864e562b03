// Header-only C++17 layer over sbx/plugin.h: an ordinary class plus SBX_PLUGIN(Class)
// becomes a plugin. Needs nothing but the standard library and this SDK.
#pragma once

#include <sbx/plugin.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace sbx {

// What a plugin says about itself. Every member but the last three is mandatory.
struct About {
    const char *id = nullptr;
    const char *name = nullptr;
    const char *version = nullptr;  // semver
    const char *description = nullptr;
    const char *config_schema = nullptr;  // JSON Schema text, or nullptr for "no configuration"
    const char *vendor = nullptr;
    const char *url = nullptr;
    const char *license = nullptr;
    // ABI 1.2: a collector or injector found in a drop-in plugin directory is used without
    // being named in the settings (sbx_descriptor.active_by_default).
    bool active_by_default = false;
};

// Throw to fail a call with a specific status; any other exception becomes SBX_ERROR.
class Error : public std::runtime_error {
  public:
    Error(sbx_status status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    [[nodiscard]] sbx_status status() const noexcept { return status_; }

  private:
    sbx_status status_;
};

// The host services handed to init(); null until then. Internal linkage per plugin .so
// because the SDK is compiled into each plugin with hidden visibility.
namespace detail {
inline const sbx_host *&host_slot() {
    static const sbx_host *host = nullptr;
    return host;
}
inline const char *&plugin_id_slot() {
    static const char *id = "";
    return id;
}
}  // namespace detail

// Host services, usable from any thread once the plugin is initialized.
namespace host {
inline void log(sbx_log_level level, const std::string &message) {
    const sbx_host *h = detail::host_slot();
    if (h != nullptr && h->log != nullptr) {
        h->log(h->ctx, level, detail::plugin_id_slot(), message.c_str());
    }
}
inline bool cancelled() {
    const sbx_host *h = detail::host_slot();
    return h != nullptr && h->is_cancelled != nullptr && h->is_cancelled(h->ctx) != 0;
}
inline const void *service(const char *service_id) {
    const sbx_host *h = detail::host_slot();
    return h != nullptr && h->get_service != nullptr ? h->get_service(h->ctx, service_id) : nullptr;
}
}  // namespace host

// Base classes, one per kind. Every method receives a JSON request and returns a JSON
// response; throw to fail. Calls on one object are serialized by the host.
class Executor {
  public:
    static constexpr const char *kind = SBX_KIND_EXECUTOR;
    virtual ~Executor() = default;
    virtual std::string run(const std::string &spec_json) = 0;
    // What crashed hosts left that this executor created ({state_dir, dry_run} ->
    // {removed: [...]}, since ABI 1.1). The default has nothing to remove.
    virtual std::string sweep(const std::string &request_json) {
        (void)request_json;
        return "{\"removed\":[]}";
    }
};

class Injector {
  public:
    static constexpr const char *kind = SBX_KIND_INJECTOR;
    virtual ~Injector() = default;
    virtual std::string prepare(const std::string &request_json) = 0;
    // Called exactly once for every successful prepare(), whatever happened in between.
    virtual void teardown(const std::string &state_json) = 0;
    virtual std::string sweep(const std::string &request_json) = 0;
    // After the run, before teardown (since ABI 1.3): what the faults really did, as
    // {applied: [...], not_applied: "..."}. The default leaves prepare's `applied` standing.
    virtual std::string tally(const std::string &state_json) {
        (void)state_json;
        return "{}";
    }
};

class StubStrategy {
  public:
    static constexpr const char *kind = SBX_KIND_STUB;
    virtual ~StubStrategy() = default;
    virtual std::string generate(const std::string &request_json) = 0;
};

class MetricsCollector {
  public:
    static constexpr const char *kind = SBX_KIND_METRICS;
    virtual ~MetricsCollector() = default;
    virtual std::string collect(const std::string &request_json) = 0;
};

class Predictor {
  public:
    static constexpr const char *kind = SBX_KIND_PREDICTOR;
    virtual ~Predictor() = default;
    virtual std::string predict(const std::string &request_json) = 0;
};

namespace detail {

// The error text of the last failed init()/create() on this thread.
inline std::string &thread_error() {
    thread_local std::string error;
    return error;
}

template <class Plugin>
struct Box {
    std::unique_ptr<Plugin> plugin;
    std::string last_error;
};

// Runs `body` (which returns a status), turning every exception into a status and an
// error text. Rationale: built with -fno-exceptions there is nothing to catch, and the
// layer still compiles; such a plugin cannot throw, so it fails calls only through its
// responses (or uses plugin.h directly).
template <class Body>
sbx_status guarded(std::string &error, Body &&body) noexcept {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    try {
        error.clear();
        return body();
    } catch (const Error &e) {
        error = e.what();
        return e.status();
    } catch (const std::exception &e) {
        error = e.what();
        return SBX_ERROR;
    } catch (...) {
        error = "unknown exception";
        return SBX_ERROR;
    }
#else
    error.clear();
    return body();
#endif
}

// Hands `bytes` to the host's sink; on failure sets `error` and returns the status.
inline sbx_status write_to(const sbx_sink *sink, const std::string &bytes, std::string &error) {
    if (sink == nullptr || sink->write == nullptr) {
        error = "host passed no response sink";
        return SBX_INVALID;
    }
    if (sink->write(sink->ctx, bytes.data(), bytes.size()) != SBX_OK) {
        error = "host refused the response";
        return SBX_ERROR;
    }
    return SBX_OK;
}

template <class T, class = void>
struct has_initialize : std::false_type {};
template <class T>
struct has_initialize<T, std::void_t<decltype(T::initialize())>> : std::true_type {};

template <class Plugin>
struct Adapter {
    using Boxed = Box<Plugin>;
    static Boxed &box(sbx_instance *instance) { return *reinterpret_cast<Boxed *>(instance); }

    // Calls `method` of the instance, writing its string result into `sink`.
    template <class Method>
    static sbx_status answer(sbx_instance *instance, const char *request, const sbx_sink *sink,
                             Method method) noexcept {
        if (instance == nullptr) {
            thread_error() = "null instance";
            return SBX_INVALID;
        }
        Boxed &b = box(instance);
        return guarded(b.last_error, [&] {
            return write_to(sink, ((*b.plugin).*method)(std::string(request ? request : "{}")),
                            b.last_error);
        });
    }

    static const sbx_descriptor *SBX_CALL descriptor() {
        static const sbx_descriptor d = {sizeof(sbx_descriptor),
                                         Plugin::about.id,
                                         Plugin::about.name,
                                         Plugin::about.version,
                                         Plugin::kind,
                                         Plugin::about.description,
                                         Plugin::about.vendor,
                                         Plugin::about.url,
                                         Plugin::about.license,
                                         Plugin::about.config_schema,
                                         Plugin::about.active_by_default ? 1U : 0U};
        return &d;
    }
    static sbx_status SBX_CALL init(const sbx_host *h) {
        host_slot() = h;
        plugin_id_slot() = Plugin::about.id;
        return guarded(thread_error(), [] {
            if constexpr (has_initialize<Plugin>::value) {
                Plugin::initialize();
            }
            return SBX_OK;
        });
    }
    static void SBX_CALL deinit() {}
    static sbx_status SBX_CALL create(const char *config, sbx_instance **out) {
        return guarded(thread_error(), [&] {
            if (out == nullptr) {
                thread_error() = "create() needs an output pointer";
                return SBX_INVALID;
            }
            auto b = std::make_unique<Boxed>();
            b->plugin = std::make_unique<Plugin>(std::string(config ? config : "{}"));
            *out = reinterpret_cast<sbx_instance *>(b.release());
            return SBX_OK;
        });
    }
    static void SBX_CALL destroy(sbx_instance *instance) {
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
        try {
            delete &box(instance);
        } catch (...) {  // a throwing destructor must not cross the boundary
        }
#else
        delete &box(instance);
#endif
    }
    static const char *SBX_CALL last_error(sbx_instance *instance) {
        return instance == nullptr ? thread_error().c_str() : box(instance).last_error.c_str();
    }

    // Kind trampolines.
    static sbx_status SBX_CALL run(sbx_instance *i, const char *req, const sbx_sink *s) {
        return answer(i, req, s, &Plugin::run);
    }
    static sbx_status SBX_CALL prepare(sbx_instance *i, const char *req, const sbx_sink *s) {
        return answer(i, req, s, &Plugin::prepare);
    }
    static sbx_status SBX_CALL teardown(sbx_instance *i, const char *state) {
        if (i == nullptr) {
            return SBX_INVALID;
        }
        Boxed &b = box(i);
        return guarded(b.last_error, [&] {
            b.plugin->teardown(std::string(state ? state : "null"));
            return SBX_OK;
        });
    }
    static sbx_status SBX_CALL sweep(sbx_instance *i, const char *req, const sbx_sink *s) {
        return answer(i, req, s, &Plugin::sweep);
    }
    static sbx_status SBX_CALL tally(sbx_instance *i, const char *state, const sbx_sink *s) {
        return answer(i, state ? state : "null", s, &Plugin::tally);
    }
    static sbx_status SBX_CALL generate(sbx_instance *i, const char *req, const sbx_sink *s) {
        return answer(i, req, s, &Plugin::generate);
    }
    static sbx_status SBX_CALL collect(sbx_instance *i, const char *req, const sbx_sink *s) {
        return answer(i, req, s, &Plugin::collect);
    }
    static sbx_status SBX_CALL predict(sbx_instance *i, const char *req, const sbx_sink *s) {
        return answer(i, req, s, &Plugin::predict);
    }

    static const void *SBX_CALL get_interface(const char *id) {
        if (id == nullptr) {
            return nullptr;
        }
        const std::string_view wanted(id);
        if constexpr (std::is_base_of_v<Executor, Plugin>) {
            static const sbx_executor_v1 table = {sizeof(table), &run, &sweep};
            if (wanted == SBX_EXECUTOR_V1) {
                return &table;
            }
        }
        if constexpr (std::is_base_of_v<Injector, Plugin>) {
            static const sbx_injector_v1 table = {sizeof(table), &prepare, &teardown, &sweep,
                                                  &tally};
            if (wanted == SBX_INJECTOR_V1) {
                return &table;
            }
        }
        if constexpr (std::is_base_of_v<StubStrategy, Plugin>) {
            static const sbx_stub_v1 table = {sizeof(table), &generate};
            if (wanted == SBX_STUB_V1) {
                return &table;
            }
        }
        if constexpr (std::is_base_of_v<MetricsCollector, Plugin>) {
            static const sbx_metrics_v1 table = {sizeof(table), &collect};
            if (wanted == SBX_METRICS_V1) {
                return &table;
            }
        }
        if constexpr (std::is_base_of_v<Predictor, Plugin>) {
            static const sbx_predictor_v1 table = {sizeof(table), &predict};
            if (wanted == SBX_PREDICTOR_V1) {
                return &table;
            }
        }
        return nullptr;
    }
};

}  // namespace detail
}  // namespace sbx

// Turns `Class` into the plugin of this .so. Class derives from one sbx kind base, has a
// constructor taking the configuration JSON (std::string), a `static constexpr sbx::About
// about`, and optionally `static void initialize()` run once at load (throw to refuse).
#define SBX_PLUGIN(Class)                                             \
    extern "C" SBX_EXPORT const sbx_plugin_entry SBX_ENTRY_SYMBOL;    \
    extern "C" SBX_EXPORT const sbx_plugin_entry SBX_ENTRY_SYMBOL = { \
        sizeof(sbx_plugin_entry),                                     \
        {SBX_ABI_MAJOR, SBX_ABI_MINOR},                               \
        &::sbx::detail::Adapter<Class>::descriptor,                   \
        &::sbx::detail::Adapter<Class>::init,                         \
        &::sbx::detail::Adapter<Class>::deinit,                       \
        &::sbx::detail::Adapter<Class>::create,                       \
        &::sbx::detail::Adapter<Class>::destroy,                      \
        &::sbx::detail::Adapter<Class>::last_error,                   \
        &::sbx::detail::Adapter<Class>::get_interface,                \
    }
