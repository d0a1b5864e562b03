// The structural-bug target of tools/bench/efficacy --structural: an order processor that
// reads one JSON document on stdin, validates it as a careful program would (a malformed
// document, a missing required field, a wrong type or an unknown enum value is refused with
// exit 2, a clean rejection), and carries input bugs that only a valid document with
// something changed reaches. A bug aborts (SIGABRT) after printing
// "planted bug NAME" on stderr; an order without a bug prints "ok".
//
//   sbx-bench-structural-bugs [--bug NAME]   arm one bug (default: every bug, checked in
//                                            the order a program meets them)
//   sbx-bench-structural-bugs --list         the bug names, one per line, with the kind of
//                                            change that reaches each
//
// The example a user would give (docs/user-guide.md shows it):
//   {"id": 42, "user": "ada", "admin": false, "quantity": 3, "price": 9.5,
//    "currency": "EUR", "tags": ["new", "gift"], "items": [{"sku": "A1", "count": 1}],
//    "note": "leave at the door", "shipping": {"method": "post", "days": 2}}
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

struct Bug {
    const char *name;
    const char *reached_by;
};

// In the order the program meets them. Ten need one edit of one field; the next four need
// two fields changed together or a value only the program's own code holds; the last two
// sit behind nested branches, each edit on the way reaching new lines (what coverage
// feedback follows).
const std::vector<Bug> &all_bugs() {
    static const std::vector<Bug> bugs = {
        {"duplicate_key", "single edit: a key written twice"},
        {"negative_id", "single edit: id below 0"},
        {"id_past_int32", "single edit: id above 2^31-1"},
        {"admin_flag", "single edit: admin flipped to true"},
        {"zero_quantity", "single edit: quantity 0"},
        {"huge_price", "single edit: price so large the total is infinite"},
        {"null_last_item", "single edit: null as the last element of items"},
        {"empty_tag", "single edit: an empty string in tags"},
        {"missing_days", "single edit: shipping without days"},
        {"long_note", "single edit: a note over 1 KiB"},
        {"pair_empty_tags_and_note", "two edits: tags empty and note empty"},
        {"pair_zero_days_negative_price", "two edits: days 0 and price below 0"},
        {"magic_method", "the program's own word: shipping method 'drone'"},
        {"magic_key", "the program's own word: a 'debug' key"},
        {"deep_courier_same_day", "three edits, each a new branch: courier, days 0, no note"},
        {"deep_second_item", "two edits, each a new branch: a second item, its sku emptied"},
    };
    return bugs;
}

std::string armed;  // one bug's name, or "" for all

[[noreturn]] void reject(const std::string &why) {
    std::fprintf(stderr, "refused: %s\n", why.c_str());
    std::exit(2);
}

void bug_if(bool condition, const char *name) {
    if (condition && (armed.empty() || armed == name)) {
        std::fprintf(stderr, "planted bug %s\n", name);
        std::abort();
    }
}

// The parser's own pass: a hand-written key table that assumes keys are unique (a second
// insert of one key frees the first value twice).
class KeyTable : public nlohmann::json_sax<json> {
  public:
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t &) override { return true; }
    bool string(string_t &) override { return true; }
    bool binary(binary_t &) override { return true; }
    bool start_object(std::size_t) override {
        keys_.emplace_back();
        return true;
    }
    bool key(string_t &value) override {
        bug_if(!keys_.back().insert(value).second, "duplicate_key");
        return true;
    }
    bool end_object() override {
        keys_.pop_back();
        return true;
    }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string &,
                     const nlohmann::detail::exception &) override {
        reject("not a JSON document (at byte " + std::to_string(position) + ")");
    }

  private:
    std::vector<std::set<std::string>> keys_;
};

const json &required(const json &order, const char *key) {
    const auto it = order.find(key);
    if (it == order.end()) {
        reject(std::string("missing ") + key);
    }
    return *it;
}

void check_types(const json &order) {
    if (!order.is_object()) {
        reject("an order is an object");
    }
    if (!required(order, "id").is_number_integer()) {
        reject("id must be an integer");
    }
    if (!required(order, "user").is_string()) {
        reject("user must be a string");
    }
    if (!required(order, "quantity").is_number_integer()) {
        reject("quantity must be an integer");
    }
    const json &currency = required(order, "currency");
    if (currency != "EUR" && currency != "USD" && currency != "GBP") {
        reject("currency must be EUR, USD or GBP");
    }
    const json &items = required(order, "items");
    // Only the first item is checked: the rest are assumed to look like it.
    if (!items.is_array() || (!items.empty() && !items[0].is_object())) {
        reject("items must be a list of objects");
    }
    if (order.contains("admin") && !order["admin"].is_boolean()) {
        reject("admin must be true or false");
    }
    if (order.contains("price") && !order["price"].is_number()) {
        reject("price must be a number");
    }
    if (order.contains("note") && !order["note"].is_string()) {
        reject("note must be text");
    }
    if (order.contains("tags")) {
        const json &tags = order["tags"];
        if (!tags.is_array()) {
            reject("tags must be a list");
        }
        for (const json &tag : tags) {
            if (!tag.is_string()) {
                reject("tags must be text");
            }
        }
    }
    if (order.contains("shipping")) {
        const json &shipping = order["shipping"];
        if (!shipping.is_object() || !shipping.value("method", json()).is_string()) {
            reject("shipping needs a method");
        }
        const std::string method = shipping["method"];
        if (method != "post" && method != "courier" && method != "drone") {
            reject("shipping method must be post or courier");
        }
        if (shipping.contains("days") && !shipping["days"].is_number_integer()) {
            reject("shipping days must be an integer");
        }
    }
}

// A courier order may ship the same day, with a note for the courier.
void deliver(const json &shipping, const std::string &note) {
    if (shipping.value("method", "") != "courier") {
        return;
    }
    const json days = shipping.value("days", json(1));
    std::printf("courier booked\n");
    if (days == 0) {
        std::printf("same-day courier\n");
        if (note.empty()) {
            bug_if(true, "deep_courier_same_day");
        }
    }
}

// Items after the first are packed by their sku.
void pack(const json &items) {
    for (std::size_t i = 1; i < items.size(); ++i) {
        if (!items[i].is_object()) {
            continue;
        }
        std::printf("packing item %zu\n", i);
        const json sku = items[i].value("sku", json());
        if (sku.is_string() && sku.get<std::string>().empty()) {
            bug_if(true, "deep_second_item");
        }
    }
}

void process(const json &order) {
    const auto id = order["id"].get<long double>();
    bug_if(id < 0, "negative_id");
    bug_if(id > 2147483647.0L, "id_past_int32");
    bug_if(order.value("admin", false), "admin_flag");
    const auto quantity = order["quantity"].get<long double>();
    bug_if(quantity == 0, "zero_quantity");
    const double price = order.value("price", 0.0);
    bug_if(!std::isfinite(price * static_cast<double>(quantity)), "huge_price");
    const json &items = order["items"];
    bug_if(!items.empty() && items.back().is_null(), "null_last_item");
    const json tags = order.value("tags", json::array());
    for (const json &tag : tags) {
        bug_if(tag.get<std::string>().empty(), "empty_tag");
    }
    const json shipping = order.value("shipping", json::object());
    bug_if(!shipping.empty() && !shipping.contains("days"), "missing_days");
    const std::string note = order.value("note", "");
    bug_if(note.size() > 1024, "long_note");
    bug_if(tags.empty() && note.empty(), "pair_empty_tags_and_note");
    bug_if(shipping.value("days", json(1)) == 0 && price < 0, "pair_zero_days_negative_price");
    bug_if(shipping.value("method", "") == "drone", "magic_method");
    bug_if(order.contains("debug"), "magic_key");
    deliver(shipping, note);
    pack(items);
}

}  // namespace

int main(int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--list") {
            for (const Bug &bug : all_bugs()) {
                std::printf("%s\t%s\n", bug.name, bug.reached_by);
            }
            return 0;
        }
        if (arg == "--bug" && i + 1 < argc) {
            armed = argv[++i];
        } else {
            std::fprintf(stderr, "usage: sbx-bench-structural-bugs [--bug NAME] | --list\n");
            return 64;
        }
    }
    const std::string input{std::istreambuf_iterator<char>(std::cin),
                            std::istreambuf_iterator<char>()};
    KeyTable keys;
    json::sax_parse(input, &keys);
    json order;
    try {
        order = json::parse(input);
    } catch (const json::exception &e) {
        reject(e.what());
    }
    check_types(order);
    process(order);
    std::printf("ok\n");
    return 0;
}
