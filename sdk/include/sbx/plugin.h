/* sandbox-runner plugin ABI, version 1.
 * The only contract between the host and a plugin `.so`: plain C, stable, growable. */
#ifndef SBX_PLUGIN_H
#define SBX_PLUGIN_H

/* Rationale: only fixed-width integers, size_t, UTF-8 `const char*`, function pointers and
 * opaque handles cross this boundary. Payloads are JSON text so they can grow without an
 * ABI change; structs that may grow start with `struct_size` and only gain fields at their
 * end. The host copies min(struct_size, sizeof) into a zeroed struct, so a field a plugin
 * does not know about reads as zero/NULL.
 *
 * Threading vocabulary used on every function below:
 *   [load-time]    called once by the host, never concurrently with anything else.
 *   [instance]     calls on one instance are serialized by the host; different instances
 *                  (even of the same plugin) may be called concurrently from other threads.
 *   [any-thread]   may be called from any thread at any time, concurrently.
 *
 * Ownership: whoever allocates frees. Strings passed *into* a function are valid only for
 * the duration of that call. Responses are written into a host-owned `sbx_sink`.
 * Strings returned by a plugin (descriptor fields, last_error) are owned by the plugin. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Calling convention of every function pointer in this ABI. */
#if defined(_WIN32)
#define SBX_CALL __cdecl
#else
#define SBX_CALL
#endif

/* Marks the one symbol a plugin exports. */
#if defined(_WIN32)
#define SBX_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define SBX_EXPORT __attribute__((visibility("default")))
#else
#define SBX_EXPORT
#endif

/* The ABI version this header describes. The host accepts a plugin when the majors are
 * equal and the plugin's minor is <= the host's minor. */
#define SBX_ABI_MAJOR 1
#define SBX_ABI_MINOR 3

/* The one exported symbol: `SBX_EXPORT const sbx_plugin_entry SBX_ENTRY_SYMBOL`. */
#define SBX_ENTRY_SYMBOL sbx_entry
#define SBX_ENTRY_SYMBOL_NAME "sbx_entry"

/* Plugin kinds (the `kind` field of a descriptor). */
#define SBX_KIND_EXECUTOR "executor"
#define SBX_KIND_INJECTOR "injector"
#define SBX_KIND_STUB "stub"
#define SBX_KIND_METRICS "metrics"
#define SBX_KIND_PREDICTOR "predictor"

/* Kind interface ids. An incompatible change to an interface is a new id (".../2"),
 * never an edit of an existing one. */
#define SBX_EXECUTOR_V1 "sbx.executor/1"
#define SBX_INJECTOR_V1 "sbx.injector/1"
#define SBX_STUB_V1 "sbx.stub/1"
#define SBX_METRICS_V1 "sbx.metrics/1"
#define SBX_PREDICTOR_V1 "sbx.predictor/1"

/* Result of every fallible call. Rationale: a fixed-width integer, not a C enum, because
 * the size of an enum is implementation-defined. */
typedef int32_t sbx_status;
#define SBX_OK 0          /* success */
#define SBX_ERROR 1       /* failure; details from last_error() */
#define SBX_TIMEOUT 2     /* the operation ran out of time */
#define SBX_UNSUPPORTED 3 /* the request asks for something this plugin cannot do */
#define SBX_CANCELLED 4   /* the host asked to stop (see sbx_host.is_cancelled) */
#define SBX_INVALID 5     /* the request or configuration is malformed */

/* Log levels for sbx_host.log, the same order as the host's logger. */
typedef int32_t sbx_log_level;
#define SBX_LOG_TRACE 0
#define SBX_LOG_DEBUG 1
#define SBX_LOG_INFO 2
#define SBX_LOG_WARN 3
#define SBX_LOG_ERROR 4

typedef struct sbx_version {
    uint32_t major;
    uint32_t minor;
} sbx_version;

/* A host-owned byte sink. A plugin writes its JSON response into it, in one or several
 * pieces. Valid only during the call that received it. */
typedef struct sbx_sink {
    /* sizeof(sbx_sink) as known to the host. */
    uint32_t struct_size;
    /* Opaque host context; pass it back to write(). */
    void *ctx;
    /* [instance] Appends `len` bytes. Returns SBX_OK, or SBX_ERROR when the host refuses
     * more bytes (the plugin should then stop and return SBX_ERROR). */
    sbx_status(SBX_CALL *write)(void *ctx, const char *bytes, size_t len);
} sbx_sink;

/* Services the host offers a plugin. Passed to init(); valid until the process exits
 * (the host never unloads a plugin). */
typedef struct sbx_host {
    /* sizeof(sbx_host) as known to the host. */
    uint32_t struct_size;
    /* The host's ABI version, for plugins that want to use newer optional fields. */
    sbx_version abi;
    /* Opaque host context; pass it back to every function below. */
    void *ctx;
    /* [any-thread] Writes one message into the host's log, tagged with the plugin id.
     * `message` is copied before the call returns. */
    void(SBX_CALL *log)(void *ctx, sbx_log_level level, const char *plugin_id, const char *message);
    /* [any-thread] Nonzero once the host wants the current work to stop (a signal, a
     * deadline). Long operations poll it and return SBX_CANCELLED. */
    int32_t(SBX_CALL *is_cancelled)(void *ctx);
    /* [any-thread] Monotonic clock in nanoseconds; the same clock the host times runs
     * with. */
    uint64_t(SBX_CALL *now_ns)(void *ctx);
    /* [any-thread] Looks up an optional host service by id ("sbx.<name>/<rev>"). Returns
     * a pointer owned by the host, valid until exit, or NULL when the host lacks it. */
    const void *(SBX_CALL *get_service)(void *ctx, const char *service_id);
} sbx_host;

/* Self-description of a plugin. All strings are UTF-8, owned by the plugin, and valid
 * until the process exits (static storage is the usual choice). */
typedef struct sbx_descriptor {
    /* sizeof(sbx_descriptor) as known to the plugin. */
    uint32_t struct_size;
    /* Unique id, [a-z0-9_.-]+, e.g. "local". Configuration and presets refer to it.
     * Mandatory. */
    const char *id;
    /* Human-readable name. Mandatory. */
    const char *name;
    /* Semantic version of the plugin, "MAJOR.MINOR.PATCH". Mandatory. */
    const char *version;
    /* One of the SBX_KIND_* strings. Mandatory. */
    const char *kind;
    /* One sentence saying what the plugin does. Mandatory. */
    const char *description;
    /* Optional (may be NULL). */
    const char *vendor;
    const char *url;
    const char *license;
    /* JSON Schema (draft 7) for the plugin's configuration object. The host validates the
     * plugin's section of sandbox_settings.yaml against it before create(), so a plugin
     * may trust its configuration. NULL means "an object with no properties". */
    const char *config_schema;
    /* Since ABI 1.2 (reads 0 for an older plugin). Nonzero: used without being named in the
     * settings when found in a plugin directory other than the host's own (a drop-in): a
     * metrics collector collects for every run and cell, an injector joins every run's
     * injector chain after the listed ones (its prepare() decides per preset, from the
     * FAILURE_MODES and keys it acts on, as every injector does). Settings leave one out
     * with `-<id>` in `metrics:` or `injectors:`. Other kinds ignore it. */
    uint32_t active_by_default;
} sbx_descriptor;

/* An instance of a plugin, created from one configuration. Opaque to the host. */
typedef struct sbx_instance sbx_instance;

/* The one exported symbol (SBX_ENTRY_SYMBOL_NAME) is a `const sbx_plugin_entry`.
 * Rationale: a data symbol rather than a function lets the host read the ABI version
 * before it calls any plugin code. */
typedef struct sbx_plugin_entry {
    /* sizeof(sbx_plugin_entry) as known to the plugin. */
    uint32_t struct_size;
    /* The ABI version the plugin was built against: {SBX_ABI_MAJOR, SBX_ABI_MINOR}. */
    sbx_version abi;
    /* [load-time] Returns the descriptor. Must not fail; static storage. */
    const sbx_descriptor *(SBX_CALL *descriptor)(void);
    /* [load-time] Called once after the ABI check, before anything else. `host` stays
     * valid until exit. Returns SBX_OK, or an error and sets last_error(NULL). */
    sbx_status(SBX_CALL *init)(const sbx_host *host);
    /* [load-time] Called once at host shutdown, after every instance was destroyed (not
     * when the host is killed). May be NULL. The library itself is never unloaded. */
    void(SBX_CALL *deinit)(void);
    /* [any-thread] Creates an instance from its configuration, a JSON object already
     * validated against config_schema. On success stores the instance in *out. On
     * failure returns an error and sets last_error(NULL). */
    sbx_status(SBX_CALL *create)(const char *config_json, sbx_instance **out);
    /* [instance] Destroys an instance. No call on it follows. */
    void(SBX_CALL *destroy)(sbx_instance *instance);
    /* [instance] Detail of the last error on `instance`, or, for instance == NULL, of the
     * last failed init()/create() on the calling thread. Owned by the plugin, valid until
     * the next call on the same instance (or thread). Never NULL: "" when none. */
    const char *(SBX_CALL *last_error)(sbx_instance *instance);
    /* [any-thread] Returns the static function table for interface `interface_id` (one
     * of the SBX_*_V1 ids), or NULL when this plugin does not implement it. The table
     * starts with a uint32_t struct_size and lives until exit. */
    const void *(SBX_CALL *get_interface)(const char *interface_id);
} sbx_plugin_entry;

/* ---- Kind interfaces (v1). Requests and responses are JSON objects; the fields are
 * documented in docs/abi.md. Every function is [instance]. ---- */

/* SBX_EXECUTOR_V1: runs one command.
 * request: run spec {argv, env, stdin, files, workspace, limits, keep_workspace, run_id}
 * response: result {status OK|RE|SG|TO|OOM|XX, exit_code, signal, wall_s, cpu_user_s,
 *                   cpu_sys_s, max_rss_kb, stdout, stderr, stdout_bytes, stderr_bytes, ...}
 * A target that fails is SBX_OK with a non-OK `status`; SBX_ERROR means the executor
 * itself could not run it. */
typedef struct sbx_executor_v1 {
    uint32_t struct_size;
    sbx_status(SBX_CALL *run)(sbx_instance *instance, const char *spec_json,
                              const sbx_sink *result);
    /* Since ABI 1.1; optional (NULL: nothing to sweep). [instance] Removes what crashed
     * hosts left behind that this executor created (containers, VMs), and only what it
     * created, only when its owner is gone. Request {state_dir, dry_run}; response
     * {removed: [strings]} (with dry_run: what would be removed, removing nothing) — the
     * same as the injector sweep.
     * Rationale: appended at the end, so a 1.0 executor's smaller table reads as NULL here
     * (the host copies min(struct_size, sizeof) into a zeroed table). */
    sbx_status(SBX_CALL *sweep)(sbx_instance *instance, const char *request_json,
                                const sbx_sink *response);
} sbx_executor_v1;

/* SBX_INJECTOR_V1: a failure mode applied around each executor call.
 * prepare request: {preset, spec, run_id, state_dir}; response: {active, spec, state,
 * applied, not_applied} (applied: what this run got, a list of short texts; [] with
 * not_applied saying why when the injector is active but had nothing to act on).
 * teardown is called exactly once for every prepare that returned SBX_OK, even after
 * errors, timeouts or cancellation; it must be idempotent with respect to already-undone
 * effects. sweep removes what crashed hosts left behind (request {state_dir}; response
 * {removed: [..]}). */
typedef struct sbx_injector_v1 {
    uint32_t struct_size;
    sbx_status(SBX_CALL *prepare)(sbx_instance *instance, const char *request_json,
                                  const sbx_sink *response);
    sbx_status(SBX_CALL *teardown)(sbx_instance *instance, const char *state_json);
    sbx_status(SBX_CALL *sweep)(sbx_instance *instance, const char *request_json,
                                const sbx_sink *response);
    /* Since ABI 1.3; optional (NULL: prepare's `applied` stands). [instance] Called once
     * after the executor ran the step and before teardown, with prepare's state, for an
     * injector that said `active`: what its faults really did during the run, which prepare
     * could not know (connections reset of those made, bytes corrupted). Response {applied:
     * [texts], not_applied: text}, replacing prepare's; {} leaves prepare's standing.
     * Rationale: appended at the end, so a 1.2 injector's smaller table reads as NULL here. */
    sbx_status(SBX_CALL *tally)(sbx_instance *instance, const char *state_json,
                                const sbx_sink *response);
} sbx_injector_v1;

/* SBX_STUB_V1: generates input sets.
 * request: {slots: {name: {type, required, example, default, min, max, values}}, count,
 *           seed, preset}; later minors may add fields (e.g. history) — ignore unknown ones.
 * response: {input_sets: [{name: value, ...}, ...]} with exactly `count` sets. */
typedef struct sbx_stub_v1 {
    uint32_t struct_size;
    sbx_status(SBX_CALL *generate)(sbx_instance *instance, const char *request_json,
                                   const sbx_sink *response);
} sbx_stub_v1;

/* SBX_METRICS_V1: turns run results into named numbers.
 * request, after each run:   {phase: "run", passed, steps: [executor results], preset}
 * request, after each cell:  {phase: "cell", roi, prev_roi (null at first), runs}
 * response: {metric_name: number, ...}; non-numbers are ignored. */
typedef struct sbx_metrics_v1 {
    uint32_t struct_size;
    sbx_status(SBX_CALL *collect)(sbx_instance *instance, const char *request_json,
                                  const sbx_sink *response);
} sbx_metrics_v1;

/* SBX_PREDICTOR_V1: forecasts the next value of a series.
 * request: {series: [numbers]}; later minors may add optional fields (exogenous series,
 *          horizon) — ignore unknown ones.
 * response: {value, lower, upper, method, insufficient_data} (lower/upper null when the
 * series is too short for an interval). */
typedef struct sbx_predictor_v1 {
    uint32_t struct_size;
    sbx_status(SBX_CALL *predict)(sbx_instance *instance, const char *request_json,
                                  const sbx_sink *response);
} sbx_predictor_v1;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SBX_PLUGIN_H */
