// The `hostile` stub strategy: adversarial payloads by category (injection, oversized,
// malformed, control characters, unicode, numeric extremes, reserved names) in every slot.
#include <sbx/plugin.hpp>

#include "support/stub_request.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>

#include <sbx/random.hpp>
#include "catalogue.hpp"
#include "embedded_payloads.hpp"
#include "skeleton.hpp"
#include "structured_slot.hpp"
#include "support/environment_variable.hpp"

namespace {

using nlohmann::json;
using sbx_hostile::Catalogue;
using sbx_hostile::Payload;
using sbx_hostile::Skeleton;
using sbx_hostile::SlotKind;
using sbx_hostile::StructuredSlot;

// One slot of the request, resolved once per generate() call.
struct SlotPlan {
    std::string key;  // the slot name as JSON text, with the trailing ':'
    SlotKind kind = SlotKind::text;
    const std::vector<std::size_t> *first = nullptr;  // tried first, for every seed
    const std::vector<std::size_t> *rest = nullptr;
    std::size_t position = 0;  // the slot's place in name order
    std::size_t start = 0;     // where the rest begins: (position + seed offset) mod size
    Skeleton skeleton;         // json slots: the document values are embedded in
    // `type: json` slots: the example's own structure, edited (structured_slot.hpp).
    std::shared_ptr<StructuredSlot> structured;

    // Catalogue index of the payload this slot gets in set j: the first-tried list in
    // turn (shifted by the slot's position, so a set's slots differ), then the rest from
    // the seeded start.
    [[nodiscard]] std::size_t pick(uint64_t j) const {
        const std::size_t p = first->size();
        if (j < p) {
            return (*first)[(position + static_cast<std::size_t>(j)) % p];
        }
        const std::size_t n = rest->size();
        return (*rest)[(start + static_cast<std::size_t>((j - p) % n)) % n];
    }
    // For a structured slot: the first-tried list in turn, then the rest one entry per
    // four sets (the sets StructuredSlot fills with a payload; the others are edits).
    [[nodiscard]] std::size_t pick_structured(uint64_t j) const {
        const std::size_t p = first->size();
        return j < p ? pick(j) : pick(p + (j - p) / 4);
    }
    [[nodiscard]] bool embeds(const Payload &p) const {
        return kind == SlotKind::json && !p.document;
    }
};

class HostileStub final : public sbx::StubStrategy {
  public:
    static constexpr sbx::About about{
        "hostile",
        "Hostile inputs",
        "1.0.0",
        "Fills every input slot with adversarial payloads by category (injection, oversized, "
        "malformed JSON, control characters, unicode, invalid UTF-8, numeric extremes, "
        "reserved names): first the most potent (polyglots carrying many triggers at once, "
        "the empty string, the classics), then every category interleaved from a seeded "
        "start; json slots get hostile values inside a valid document as well as broken "
        "documents.",
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
        if (const char *path = sbx::support::environment_variable("SANDBOX_HOSTILE_PAYLOADS")) {
            catalogue_.add_file(path);
        }
        catalogue_.finish();
        sbx::host::log(SBX_LOG_DEBUG, "hostile: " + std::to_string(catalogue_.payloads().size()) +
                                          " payloads in " +
                                          std::to_string(catalogue_.categories().size()) +
                                          " categories");
    }

    // Response: {"input_sets": [...], "meta": [{slot: {category, payload_index}}],
    // "categories": [...]}, the sets and meta entries parallel; categories lists every
    // category these slots can receive. Written by hand from pre-serialized payloads: this
    // is the hot path, and the output is byte-identical for a given seed by construction.
    std::string generate(const std::string &request_json) override {
        const auto request = sbx::support::read_request(request_json, "hostile");
        const uint64_t count = request.count;
        const std::vector<SlotPlan> plans = plan(request.slots, request.seed, words(request.body));
        for (const SlotPlan &p : plans) {
            if (p.structured) {
                p.structured->plan(catalogue_, count,
                                   [&p](uint64_t j) { return p.pick_structured(j); });
            }
        }

        const auto &payloads = catalogue_.payloads();
        const auto value = [&](std::string *out, const SlotPlan &plan, uint64_t j) {
            if (plan.structured) {
                return put(out, plan.structured->value(j));
            }
            const Payload &p = payloads[plan.pick(j)];
            return plan.embeds(p)
                       ? embedded(out, plan.skeleton, p)
                       : put(out, plan.kind == SlotKind::number ? p.as_number : p.as_text);
        };
        const auto meta = [&](std::string *out, const SlotPlan &plan, uint64_t j) {
            if (plan.structured) {
                return put(out, plan.structured->meta(j));
            }
            const Payload &p = payloads[plan.pick(j)];
            return put(out, plan.embeds(p) ? p.meta_embedded : p.meta);
        };
        const std::string head = "{\"input_sets\":[";
        const std::string middle = "],\"meta\":[";
        const std::string categories = "],\"categories\":" + reachable(plans) + "}";
        // Allocated once at its final size: a batch of oversized payloads runs to tens of
        // megabytes, and growing by doubling copied it and faulted in fresh pages again at
        // every step (most of the time of a 1000-set batch).
        std::string out;
        out.reserve(head.size() + append_sets(nullptr, plans, count, value) + middle.size() +
                    append_sets(nullptr, plans, count, meta) + categories.size());
        out += head;
        append_sets(&out, plans, count, value);
        out += middle;
        append_sets(&out, plans, count, meta);
        out += categories;
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

    // The request's `words` (the program's own strings, most likely compared first), when
    // the host sent them; anything else there is ignored.
    static std::vector<std::string> words(const json &request) {
        std::vector<std::string> out;
        const auto it = request.find("words");
        if (it != request.end() && it->is_array()) {
            for (const json &word : *it) {
                if (word.is_string() && !word.get_ref<const std::string &>().empty()) {
                    out.push_back(word.get<std::string>());
                }
            }
        }
        return out;
    }

    std::vector<SlotPlan> plan(const json &slots, uint64_t seed,
                               const std::vector<std::string> &words) const {
        const uint64_t mixed = sbx::splitmix64(seed);
        std::vector<SlotPlan> plans;
        std::size_t position = 0;  // slots in name order: nlohmann objects are sorted
        for (const auto &[name, slot] : slots.items()) {
            SlotPlan p;
            p.key = json(name).dump() + ":";
            const auto type = slot.is_object() ? slot.find("type") : slot.end();
            p.kind = type != slot.end() && type->is_string()
                         ? sbx_hostile::slot_kind(type->get_ref<const std::string &>())
                         : SlotKind::text;
            p.first = &catalogue_.first(p.kind);
            p.rest = &catalogue_.rest(p.kind);
            p.position = position;
            const auto n = static_cast<uint64_t>(p.rest->size());
            p.start = static_cast<std::size_t>((position % n + mixed % n) % n);
            if (p.kind == SlotKind::json) {
                p.skeleton = sbx_hostile::skeleton_of(slot);
            }
            if (type != slot.end() && *type == "json") {
                p.structured =
                    std::make_shared<StructuredSlot>(sbx_hostile::structure_of(slot), words);
            }
            plans.push_back(std::move(p));
            ++position;
        }
        return plans;
    }

    // The categories the planned slots can receive, as a JSON list.
    std::string reachable(const std::vector<SlotPlan> &plans) const {
        json categories = json::array();
        for (const SlotKind slot_kind : {SlotKind::text, SlotKind::json, SlotKind::number}) {
            const bool used = std::any_of(plans.begin(), plans.end(),
                                          [&](const SlotPlan &p) { return p.kind == slot_kind; });
            for (const std::string &category :
                 used ? catalogue_.reachable(slot_kind) : std::vector<std::string>{}) {
                if (std::find(categories.begin(), categories.end(), category) == categories.end()) {
                    categories.push_back(category);
                }
            }
        }
        if (std::any_of(plans.begin(), plans.end(),
                        [](const SlotPlan &p) { return p.structured; })) {
            categories.push_back("structural");
        }
        return categories.dump();
    }

    // Appends `text` when `out` is set; returns its size either way, so one function both
    // measures and writes a batch.
    static std::size_t put(std::string *out, std::string_view text) {
        if (out != nullptr) {
            *out += text;
        }
        return text.size();
    }

    // The skeleton with every string hole holding the payload, and every number hole the
    // payload's number when it is one (else the example's number, so the document stays
    // what the program expects everywhere but in the strings).
    static std::size_t embedded(std::string *out, const Skeleton &skeleton, const Payload &p) {
        std::size_t size = put(out, skeleton.literals[0]);
        for (std::size_t h = 0; h < skeleton.holes.size(); ++h) {
            const Skeleton::Hole &hole = skeleton.holes[h];
            size += put(out, !hole.number ? p.as_text : p.numeric ? p.as_number : hole.original);
            size += put(out, skeleton.literals[h + 1]);
        }
        return size;
    }

    // Writes (when `out` is set) and measures `count` sets: {"slot":<piece>,...},...
    template <class Piece>
    std::size_t append_sets(std::string *out, const std::vector<SlotPlan> &plans, uint64_t count,
                            Piece piece) const {
        std::size_t size = 0;
        for (uint64_t j = 0; j < count; ++j) {
            // Long batches stay responsive to a host that wants to stop.
            if ((j & 0xFFFFU) == 0xFFFFU && sbx::host::cancelled()) {
                throw sbx::Error(SBX_CANCELLED, "hostile: cancelled");
            }
            size += put(out, j == 0 ? "{" : ",{");
            bool first = true;
            for (const SlotPlan &p : plans) {
                if (!first) {
                    size += put(out, ",");
                }
                first = false;
                size += put(out, p.key);
                size += piece(out, p, j);
            }
            size += put(out, "}");
        }
        return size;
    }

    Catalogue catalogue_;
};

}  // namespace

SBX_PLUGIN(HostileStub);
