/* A complete third-party metrics collector in plain C11, against sbx/plugin.h alone: after
 * each run it counts the run's steps and those that did not end "OK". It declares that a
 * cell keeps the largest step count of its runs (`"aggregate": "max"`); the failed steps
 * are averaged, the default. It is active by default (ABI 1.2): copied into a plugin
 * directory such as ~/.local/share/sandbox-runner/plugins, it collects for every run with no
 * settings change. Build it with the CMakeLists.txt beside it, or by hand:
 *   cc -std=c11 -shared -fPIC -fvisibility=hidden $(pkg-config --cflags sandbox-runner-sdk)
 *      step_count.c -o step_count.so $(pkg-config --libs sandbox-runner-sdk) */
#include <sbx/plugin.h>
#include <stdio.h>
#include <string.h>

static const char *g_error = "";

static const sbx_descriptor *SBX_CALL describe(void) {
    static const sbx_descriptor d = {
        .struct_size = sizeof(sbx_descriptor),
        .id = "step_count",
        .name = "Step count",
        .version = "1.0.0",
        .kind = SBX_KIND_METRICS,
        .description = "Counts each run's steps and its steps that did not end OK.",
        .vendor = "Example Corp",
        .config_schema = "{\"type\":\"object\",\"additionalProperties\":false,\"properties\":{}}",
        .active_by_default = 1};
    return &d;
}

static sbx_status SBX_CALL init(const sbx_host *host) {
    (void)host;
    return SBX_OK;
}

/* No state: every instance is the same static tag. */
static int g_instance_tag;

static sbx_status SBX_CALL create(const char *config, sbx_instance **out) {
    (void)config;
    *out = (sbx_instance *)&g_instance_tag;
    return SBX_OK;
}

static void SBX_CALL destroy(sbx_instance *instance) {
    (void)instance;
}

static const char *SBX_CALL last_error(sbx_instance *instance) {
    (void)instance;
    return g_error;
}

/* The text after `"key"`, its colon and blanks: where the key's value starts, or NULL. */
static const char *value_of(const char *from, const char *key) {
    const char *at = strstr(from, key);
    if (at == NULL) {
        return NULL;
    }
    at += strlen(key);
    while (*at == ' ' || *at == ':' || *at == '\t' || *at == '\n' || *at == '\r') {
        ++at;
    }
    return at;
}

static sbx_status SBX_CALL collect(sbx_instance *instance, const char *request,
                                   const sbx_sink *sink) {
    (void)instance;
    const char *phase = value_of(request, "\"phase\"");
    if (phase == NULL) {
        g_error = "step_count: the request has no \"phase\"";
        return SBX_INVALID;
    }
    if (strncmp(phase, "\"run\"", 5) != 0) {
        return sink->write(sink->ctx, "{}", 2); /* nothing to add to a cell */
    }
    /* Each step result has one "status" (and so does each copy of a CONCURRENCY_LEVEL step:
     * this plain scan counts copies too; a JSON parser would tell them apart). */
    int steps = 0;
    int failed = 0;
    for (const char *at = value_of(request, "\"status\""); at != NULL;
         at = value_of(at, "\"status\"")) {
        ++steps;
        failed += strncmp(at, "\"OK\"", 4) != 0;
    }
    char answer[128];
    const int length = snprintf(answer, sizeof answer,
                                "{\"steps_run\":{\"value\":%d,\"aggregate\":\"max\"},"
                                "\"steps_failed\":%d}",
                                steps, failed);
    return sink->write(sink->ctx, answer, (size_t)length);
}

static const sbx_metrics_v1 g_metrics = {sizeof(sbx_metrics_v1), collect};

static const void *SBX_CALL get_interface(const char *id) {
    return strcmp(id, SBX_METRICS_V1) == 0 ? &g_metrics : NULL;
}

SBX_EXPORT const sbx_plugin_entry SBX_ENTRY_SYMBOL = {sizeof(sbx_plugin_entry),
                                                      {SBX_ABI_MAJOR, SBX_ABI_MINOR},
                                                      describe,
                                                      init,
                                                      NULL,
                                                      create,
                                                      destroy,
                                                      last_error,
                                                      get_interface};
