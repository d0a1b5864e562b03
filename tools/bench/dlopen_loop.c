/* tools/bench/plugins raw peer: dlopen(RTLD_NOW | RTLD_LOCAL) of each file given, once,
 * and nothing else; the same output lines as plugin_load_times.cpp. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long rss_kb(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long value = 0;
    while (status != NULL && fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            sscanf(line + 6, "%ld", &value);
        }
    }
    if (status != NULL)
        fclose(status);
    return value;
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
    const long before = rss_kb();
    for (int i = 1; i < argc; ++i) {
        const double start = now_us();
        if (dlopen(argv[i], RTLD_NOW | RTLD_LOCAL) == NULL) {
            fprintf(stderr, "%s\n", dlerror());
            return 1;
        }
        printf("load_us %s %.1f\n", argv[i], now_us() - start);
    }
    printf("rss_kb %ld %ld\n", before, rss_kb());
    return 0;
}
