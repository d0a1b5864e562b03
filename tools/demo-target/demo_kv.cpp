// sbx-demo-kv: the demo workflow's target. `put KEY` stores the JSON record read from
// stdin in ./kv.json; `get KEY` prints it. It warms a 24 MiB index first, so tight
// memory presets show a real out-of-memory kill.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

constexpr size_t kIndexBytes = 24u << 20;
constexpr const char *kStore = "kv.json";

json load_store() {
    std::ifstream in(kStore);
    if (!in) {
        return json::object();
    }
    return json::parse(in, nullptr, /*allow_exceptions=*/true);
}

int put(const std::string &key) {
    const std::string text((std::istreambuf_iterator<char>(std::cin)),
                           std::istreambuf_iterator<char>());
    const json record = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (record.is_discarded() || !record.is_object() || !record.contains("id") ||
        !record["id"].is_number_integer() || !record.contains("name") ||
        !record["name"].is_string()) {
        std::cerr << "put: expected a JSON record {\"id\": int, \"name\": string}\n";
        return 3;
    }
    json store = load_store();
    store[key] = record;
    std::ofstream(kStore) << store.dump() << '\n';
    std::cout << "stored " << key << '\n';
    return 0;
}

int get(const std::string &key) {
    const json store = load_store();
    if (!store.contains(key)) {
        std::cerr << "get: no record " << key << '\n';
        return 4;
    }
    std::cout << store[key].dump() << '\n';
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3 || (std::strcmp(argv[1], "put") != 0 && std::strcmp(argv[1], "get") != 0)) {
        std::cerr << "usage: sbx-demo-kv put|get KEY\n";
        return 2;
    }
    // Touch every page so the index really occupies memory.
    std::vector<char> index(kIndexBytes, 1);
    volatile char sink = index[kIndexBytes / 2];
    (void)sink;
    try {
        return std::strcmp(argv[1], "put") == 0 ? put(argv[2]) : get(argv[2]);
    } catch (const std::exception &e) {
        std::cerr << argv[1] << ": " << e.what() << '\n';
        return 5;
    }
}
