// The `hostile` stub strategy: adversarial payloads by category (injection, oversized,
// malformed, control characters, unicode, numeric extremes, reserved names) in every slot.
#include <sbx/plugin.hpp>

#include "stub_request.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "catalogue.hpp"
#include "embedded_payloads.hpp"
#include "splitmix64.hpp"

namespace {

using nlohmann::json;
using sbx_hostile::Catalogue;
using sbx_hostile::Payload;
using sbx_hostile::SlotKind;

// One slot of the request, resolved once per generate() call.
struct SlotPlan {
    std::string key;  // the slot name as JSON text, with the trailing ':'
    SlotKind kind = SlotKind::text;
    const std::vector<std::size_t> *order = nullptr;
    std::size_t start = 0;  // (slot position + seed offset) mod order size
};

class HostileStub final : public sbx::StubStrategy {
  public:
    static constexpr sbx::About about{
        "hostile",
        "Hostile inputs",
        "1.0.0",
        "Fills every input slot with adversarial payloads by category (injection, oversized, "
        "malformed JSON, control characters, unicode, numeric extremes, reserved names); slot "
        "i of set j gets payload (i + j + splitmix64(seed)) mod N.",
        R"({"type":"object","additionalProperties":false,"properties":{)"
        R"("payload_files":{"type":"array","items":{"type":"string","minLength":1},)"
        R"("description":"Extra payload files (same format as the built-in payloads.json), )"
        R"(added after the built-in ones; SANDBOX_HOSTILE_PAYLOADS names one more."}}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit HostileStub(const std::string &config_json) {
        catalogue_ = built_in();
        for (const std::string &path : payload_files(config_json)) {
            catalogue_.add_file(path);
        }
        if (const char *path = std::getenv("SANDBOX_HOSTILE_PAYLOADS");
            path != nullptr && *path != '\0') {
            catalogue_.add_file(path);
        }
        catalogue_.finish();
        sbx::host::log(SBX_LOG_DEBUG, "hostile: " + std::to_string(catalogue_.payloads().size()) +
                                          " payloads in " +
                                          std::to_string(catalogue_.categories().size()) +
                                          " categories");
    }

    // Response: {"input_sets": [...], "meta": [{slot: {category, payload_index}}]}, the
    // sets and meta entries parallel. Written by hand from pre-serialized payloads: this is
    // the hot path, and the output is byte-identical for a given seed by construction.
    std::string generate(const std::string &request_json) override {
        const auto request = sbx_stubs::read_request(request_json, "hostile");
        const uint64_t count = request.count;
        const std::vector<SlotPlan> plans = plan(request.slots, request.seed);

        const auto value = [](const Payload &p, SlotKind as) -> const std::string & {
            return as == SlotKind::number ? p.as_number : p.as_text;
        };
        const auto meta = [](const Payload &p, SlotKind) -> const std::string & { return p.meta; };
        const std::string head = "{\"input_sets\":[";
        const std::string middle = "],\"meta\":[";
        const std::string tail = "]}";
        // Allocated once at its final size: a batch of oversized payloads runs to tens of
        // megabytes, and growing by doubling copied it and faulted in fresh pages again at
        // every step (most of the time of a 1000-set batch).
        std::string out;
        out.reserve(head.size() + sets_size(plans, count, value) + middle.size() +
                    sets_size(plans, count, meta) + tail.size());
        out += head;
        append_sets(out, plans, count, value);
        out += middle;
        append_sets(out, plans, count, meta);
        out += tail;
        return out;
    }

  private:
    // Parsed once per process (a thread-safe static) and copied per instance: expanding
    // and escaping the megabyte payloads dominates construction, copying does not.
    static const Catalogue &built_in() {
        static const Catalogue catalogue = [] {
            Catalogue c;
            c.add_document(sbx_hostile::embedded_payloads(), "built-in payloads.json");
            return c;
        }();
        return catalogue;
    }

    // The registry validates configuration against config_schema, but Plugin::create()
    // called directly does not; checking again costs nothing and keeps errors clear.
    static std::vector<std::string> payload_files(const std::string &config_json) {
        const json config = json::parse(config_json);
        if (!config.is_object()) {
            throw sbx::Error(SBX_INVALID, "hostile: configuration must be an object");
        }
        std::vector<std::string> files;
        for (const auto &[key, value] : config.items()) {
            if (key != "payload_files") {
                throw sbx::Error(SBX_INVALID, "hostile: unknown configuration key '" + key + "'");
            }
            if (!value.is_array()) {
                throw sbx::Error(SBX_INVALID, "hostile: payload_files must be a list of paths");
            }
            for (const json &path : value) {
                if (!path.is_string() || path.get_ref<const std::string &>().empty()) {
                    throw sbx::Error(SBX_INVALID, "hostile: payload_files must be a list of paths");
                }
                files.push_back(path.get<std::string>());
            }
        }
        return files;
    }

    std::vector<SlotPlan> plan(const json &slots, uint64_t seed) const {
        const uint64_t mixed = sbx_stubs::splitmix64(seed);
        std::vector<SlotPlan> plans;
        std::size_t position = 0;  // slots in name order: nlohmann objects are sorted
        for (const auto &[name, slot] : slots.items()) {
            SlotPlan p;
            p.key = json(name).dump() + ":";
            const auto type = slot.is_object() ? slot.find("type") : slot.end();
            p.kind = type != slot.end() && type->is_string()
                         ? sbx_hostile::slot_kind(type->get_ref<const std::string &>())
                         : SlotKind::text;
            p.order = &catalogue_.order(p.kind);
            const auto n = static_cast<uint64_t>(p.order->size());
            p.start = static_cast<std::size_t>((position % n + mixed % n) % n);
            plans.push_back(std::move(p));
            ++position;
        }
        return plans;
    }

    // The bytes append_sets() writes for the same arguments.
    template <class Pick>
    std::size_t sets_size(const std::vector<SlotPlan> &plans, uint64_t count, Pick pick) const {
        const auto &payloads = catalogue_.payloads();
        std::size_t size = 0;
        for (uint64_t j = 0; j < count; ++j) {
            size += (j == 0 ? 1 : 2) + 1;  // "{" or ",{", and "}"
            for (std::size_t i = 0; i < plans.size(); ++i) {
                const SlotPlan &p = plans[i];
                const std::size_t n = p.order->size();
                const std::size_t at = (p.start + static_cast<std::size_t>(j % n)) % n;
                size +=
                    (i == 0 ? 0 : 1) + p.key.size() + pick(payloads[(*p.order)[at]], p.kind).size();
            }
        }
        return size;
    }

    template <class Pick>
    void append_sets(std::string &out, const std::vector<SlotPlan> &plans, uint64_t count,
                     Pick pick) const {
        const auto &payloads = catalogue_.payloads();
        for (uint64_t j = 0; j < count; ++j) {
            // Long batches stay responsive to a host that wants to stop.
            if ((j & 0xFFFFU) == 0xFFFFU && sbx::host::cancelled()) {
                throw sbx::Error(SBX_CANCELLED, "hostile: cancelled");
            }
            out += j == 0 ? "{" : ",{";
            bool first = true;
            for (const SlotPlan &p : plans) {
                const std::size_t n = p.order->size();
                const std::size_t at = (p.start + static_cast<std::size_t>(j % n)) % n;
                if (!first) {
                    out += ',';
                }
                first = false;
                out += p.key;
                out += pick(payloads[(*p.order)[at]], p.kind);
            }
            out += '}';
        }
    }

    Catalogue catalogue_;
};

}  // namespace

SBX_PLUGIN(HostileStub);
