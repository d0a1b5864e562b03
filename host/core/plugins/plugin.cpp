// Loading a plugin library (Boost.DLL), checking its ABI and descriptor, and calling its
// instances through the kind interfaces.
#include "plugins/plugin.hpp"

#include "plugins/call_watch.hpp"

#include <dlfcn.h>

#include <boost/dll/shared_library.hpp>
#include <cstring>
#include <mutex>
#include <regex>
#include <vector>

#include "plugins/elf_precheck.hpp"
#include "plugins/isolated_instance.hpp"
#include "plugins/schema_defaults.hpp"
#include "plugins/schema_validator.hpp"

namespace sbx::plugins {
namespace {

[[noreturn]] void refuse(const std::filesystem::path &path, const std::string &reason) {
    throw PluginError(path.string() + ": " + reason);
}

// Copies a growable struct: min(struct_size, sizeof) bytes into a zeroed T.
template <class T>
T copy_growable(const void *source) {
    T copy{};
    uint32_t declared = 0;
    std::memcpy(&declared, source, sizeof(declared));
    std::memcpy(&copy, source, std::min<size_t>(declared, sizeof(T)));
    return copy;
}

std::string text_or_empty(const char *text) {
    return text ? text : "";
}

const std::regex &semver_pattern() {
    static const std::regex pattern(R"(^\d+\.\d+\.\d+([-+][0-9A-Za-z.+-]+)?$)");
    return pattern;
}

bool known_kind(const std::string &kind) {
    return kind == SBX_KIND_EXECUTOR || kind == SBX_KIND_INJECTOR || kind == SBX_KIND_STUB ||
           kind == SBX_KIND_METRICS || kind == SBX_KIND_PREDICTOR;
}

const char *interface_id_for(const std::string &kind) {
    if (kind == SBX_KIND_EXECUTOR) {
        return SBX_EXECUTOR_V1;
    }
    if (kind == SBX_KIND_INJECTOR) {
        return SBX_INJECTOR_V1;
    }
    if (kind == SBX_KIND_STUB) {
        return SBX_STUB_V1;
    }
    if (kind == SBX_KIND_METRICS) {
        return SBX_METRICS_V1;
    }
    return SBX_PREDICTOR_V1;
}

Descriptor read_descriptor(const std::filesystem::path &path, const sbx_plugin_entry &entry) {
    if (entry.descriptor == nullptr) {
        refuse(path, "entry has no descriptor() function");
    }
    const sbx_descriptor *raw = entry.descriptor();
    if (raw == nullptr || raw->struct_size < offsetof(sbx_descriptor, vendor)) {
        refuse(path, "descriptor() returned nothing or a truncated descriptor");
    }
    const auto d = copy_growable<sbx_descriptor>(raw);
    Descriptor out{text_or_empty(d.id),
                   text_or_empty(d.name),
                   text_or_empty(d.version),
                   text_or_empty(d.kind),
                   text_or_empty(d.description),
                   text_or_empty(d.vendor),
                   text_or_empty(d.url),
                   text_or_empty(d.license),
                   nlohmann::json::object({{"type", "object"}, {"additionalProperties", false}}),
                   d.active_by_default != 0};
    if (d.config_schema != nullptr) {
        try {
            out.config_schema = nlohmann::json::parse(d.config_schema);
        } catch (const std::exception &e) {
            refuse(path, std::string("config_schema is not valid JSON: ") + e.what());
        }
    }
    check_descriptor(path, out);
    return out;
}

}  // namespace

void check_descriptor(const std::filesystem::path &path, const Descriptor &out) {
    const std::pair<const char *, const std::string *> mandatory[] = {
        {"id", &out.id},
        {"name", &out.name},
        {"version", &out.version},
        {"kind", &out.kind},
        {"description", &out.description}};
    for (const auto &[field, value] : mandatory) {
        if (value->empty()) {
            refuse(path, std::string("descriptor is missing the mandatory field '") + field +
                             "'; fill id, name, version, kind and description");
        }
    }
    if (!std::regex_match(out.id, std::regex("^[a-z0-9_.-]+$"))) {
        refuse(path, "descriptor id '" + out.id + "' must match [a-z0-9_.-]+");
    }
    if (!std::regex_match(out.version, semver_pattern())) {
        refuse(path, "descriptor version '" + out.version +
                         "' is not a semantic version; write MAJOR.MINOR.PATCH");
    }
    if (!known_kind(out.kind)) {
        refuse(path, "descriptor kind '" + out.kind +
                         "' is unknown; write executor, injector, stub, metrics or predictor");
    }
}

namespace {

// Collects a plugin's response: the sink the ABI hands to every kind call.
struct ResponseBuffer {
    std::string bytes;
    static sbx_status SBX_CALL write(void *ctx, const char *data, size_t len) {
        try {
            static_cast<ResponseBuffer *>(ctx)->bytes.append(data, len);
            return SBX_OK;
        } catch (...) {
            return SBX_ERROR;
        }
    }
};

// Rationale: a library, once opened, is never closed, not even when it is refused
// afterwards: its static constructors already ran, and a library whose threads or atexit
// handlers outlive dlclose() is the most common plugin-host crash. The registry keeps the
// handles reachable so leak checkers stay quiet.
boost::dll::shared_library *keep_loaded_forever(const std::filesystem::path &path,
                                                boost::system::error_code &ec) {
    static std::mutex mutex;
    // Never destroyed, not even at exit: static destructors run before plugin threads end.
    static auto *libraries = new std::vector<boost::dll::shared_library *>();
    auto *library = new boost::dll::shared_library(
        path.string(), boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
    const std::lock_guard<std::mutex> lock(mutex);
    libraries->push_back(library);
    return library;
}

}  // namespace

std::shared_ptr<Plugin> load_plugin(const std::filesystem::path &path) {
    precheck_plugin_file(path);

    boost::system::error_code ec;
    boost::dll::shared_library *library = keep_loaded_forever(path, ec);
    if (ec) {
        const char *why = dlerror();
        refuse(path, std::string("cannot be loaded: ") + (why ? why : ec.message()));
    }
    if (!library->has(SBX_ENTRY_SYMBOL_NAME)) {
        refuse(path, "has no entry symbol '" SBX_ENTRY_SYMBOL_NAME "'");
    }
    const auto &raw_entry = library->get<const sbx_plugin_entry>(SBX_ENTRY_SYMBOL_NAME);
    if (raw_entry.struct_size < offsetof(sbx_plugin_entry, get_interface) + sizeof(void *)) {
        refuse(path, "entry struct is truncated (struct_size " +
                         std::to_string(raw_entry.struct_size) + ")");
    }

    std::shared_ptr<Plugin> plugin(new Plugin());
    plugin->path_ = path;
    plugin->entry_ = copy_growable<sbx_plugin_entry>(&raw_entry);
    const sbx_version abi = plugin->entry_.abi;
    plugin->abi_ = abi;
    const std::string theirs = std::to_string(abi.major) + "." + std::to_string(abi.minor);
    const std::string ours = std::to_string(SBX_ABI_MAJOR) + "." + std::to_string(SBX_ABI_MINOR);
    if (abi.major != SBX_ABI_MAJOR) {
        refuse(path, "was built for plugin ABI " + theirs + " but this host speaks ABI " + ours +
                         "; rebuild it against this host's SDK");
    }
    if (abi.minor > SBX_ABI_MINOR) {
        refuse(path, "needs plugin ABI " + theirs + ", newer than this host's ABI " + ours +
                         "; upgrade sandbox-runner or rebuild the plugin with an older SDK");
    }
    const sbx_plugin_entry &entry = plugin->entry_;
    if (!entry.init || !entry.create || !entry.destroy || !entry.last_error ||
        !entry.get_interface) {
        refuse(path,
               "entry lacks a mandatory function (init, create, destroy, last_error, "
               "get_interface)");
    }
    plugin->descriptor_ = read_descriptor(path, entry);
    if (plugin->interface(interface_id_for(plugin->descriptor_.kind)) == nullptr) {
        refuse(path, "is a " + plugin->descriptor_.kind + " but does not implement " +
                         interface_id_for(plugin->descriptor_.kind));
    }
    const sbx_status status = entry.init(host_services());
    if (status != SBX_OK) {
        refuse(path, "init() failed: " + text_or_empty(entry.last_error(nullptr)));
    }
    plugin->library_ = std::shared_ptr<void>(library, [](void *) {});
    return plugin;
}

const void *Plugin::interface(const char *interface_id) const {
    return entry_.get_interface(interface_id);
}

namespace {

// An instance whose plugin runs in this process: calls go straight through the tables.
class InProcessInstance final : public Instance {
  public:
    InProcessInstance(std::shared_ptr<const Plugin> plugin, sbx_instance *handle)
        : Instance(std::move(plugin)), handle_(handle) {}
    ~InProcessInstance() override { plugin_->entry()->destroy(handle_); }
    InProcessInstance(const InProcessInstance &) = delete;
    InProcessInstance &operator=(const InProcessInstance &) = delete;

    std::string call(PluginCall which, const std::string &request) override;

  private:
    template <class Table, class Fn>
    std::string call_with_sink(const char *interface_id, Fn &&fn);
    std::string sweep(const std::string &request);

    sbx_instance *handle_;
};

template <class Table, class Fn>
std::string InProcessInstance::call_with_sink(const char *interface_id, Fn &&fn) {
    const void *raw = plugin_->interface(interface_id);
    if (raw == nullptr) {
        throw PluginCallError(SBX_UNSUPPORTED,
                              "plugin '" + plugin_->id() + "' does not implement " + interface_id);
    }
    const auto table = copy_growable<Table>(raw);
    ResponseBuffer buffer;
    const sbx_sink sink{sizeof(sbx_sink), &buffer, &ResponseBuffer::write};
    const sbx_status status = fn(table, sink);
    if (status != SBX_OK) {
        throw PluginCallError(
            status, "plugin '" + plugin_->id() + "' " + interface_id +
                        " failed: " + text_or_empty(plugin_->entry()->last_error(handle_)));
    }
    return std::move(buffer.bytes);
}

std::string InProcessInstance::sweep(const std::string &request) {
    if (plugin_->kind() == SBX_KIND_EXECUTOR) {
        // An executor built against ABI 1.0 has a table without `sweep` (zero-filled by
        // copy_growable): it created nothing a sweep could find.
        const void *raw = plugin_->interface(SBX_EXECUTOR_V1);
        if (raw == nullptr || copy_growable<sbx_executor_v1>(raw).sweep == nullptr) {
            return R"({"removed":[]})";
        }
        return call_with_sink<sbx_executor_v1>(SBX_EXECUTOR_V1, [&](auto &t, const sbx_sink &s) {
            return t.sweep(handle_, request.c_str(), &s);
        });
    }
    return call_with_sink<sbx_injector_v1>(SBX_INJECTOR_V1, [&](auto &t, const sbx_sink &s) {
        return t.sweep ? t.sweep(handle_, request.c_str(), &s) : SBX_UNSUPPORTED;
    });
}

std::string InProcessInstance::call(PluginCall which, const std::string &request) {
    const CallWatch watch(plugin_->id(), which);
    const char *text = request.c_str();
    switch (which) {
        case PluginCall::run:
            return call_with_sink<sbx_executor_v1>(
                SBX_EXECUTOR_V1, [&](auto &t, const sbx_sink &s) {
                    return t.run ? t.run(handle_, text, &s) : SBX_UNSUPPORTED;
                });
        case PluginCall::prepare:
            return call_with_sink<sbx_injector_v1>(
                SBX_INJECTOR_V1, [&](auto &t, const sbx_sink &s) {
                    return t.prepare ? t.prepare(handle_, text, &s) : SBX_UNSUPPORTED;
                });
        case PluginCall::teardown:
            return call_with_sink<sbx_injector_v1>(SBX_INJECTOR_V1, [&](auto &t, const sbx_sink &) {
                return t.teardown ? t.teardown(handle_, text) : SBX_UNSUPPORTED;
            });
        case PluginCall::sweep:
            return sweep(request);
        case PluginCall::generate:
            return call_with_sink<sbx_stub_v1>(SBX_STUB_V1, [&](auto &t, const sbx_sink &s) {
                return t.generate ? t.generate(handle_, text, &s) : SBX_UNSUPPORTED;
            });
        case PluginCall::collect:
            return call_with_sink<sbx_metrics_v1>(SBX_METRICS_V1, [&](auto &t, const sbx_sink &s) {
                return t.collect ? t.collect(handle_, text, &s) : SBX_UNSUPPORTED;
            });
        case PluginCall::predict:
            return call_with_sink<sbx_predictor_v1>(
                SBX_PREDICTOR_V1, [&](auto &t, const sbx_sink &s) {
                    return t.predict ? t.predict(handle_, text, &s) : SBX_UNSUPPORTED;
                });
        case PluginCall::tally: {
            // An injector built against ABI < 1.3 has a table without `tally` (zero-filled
            // by copy_growable): its prepare's word stands.
            const void *raw = plugin_->interface(SBX_INJECTOR_V1);
            if (raw == nullptr || copy_growable<sbx_injector_v1>(raw).tally == nullptr) {
                return "{}";
            }
            return call_with_sink<sbx_injector_v1>(
                SBX_INJECTOR_V1,
                [&](auto &t, const sbx_sink &s) { return t.tally(handle_, text, &s); });
        }
    }
    throw PluginCallError(SBX_UNSUPPORTED, "unknown call");
}

}  // namespace

std::unique_ptr<Instance> Plugin::create(const nlohmann::json &written,
                                         const ConfigLocator &locate) const {
    // The plugin gets its schema's defaults for what the settings leave out.
    const nlohmann::json config = with_schema_defaults(descriptor_.config_schema, written);
    const auto violations = validate_against_schema(descriptor_.config_schema, config, id());
    if (!violations.empty()) {
        const auto &first = violations.front();
        std::string where = locate ? locate(first.pointer) : "";
        if (where.empty() && locate) {
            where = locate("");
        }
        throw InputError((where.empty() ? std::string() : where + ": ") + "plugins." + id() +
                         first.pointer + ": " + first.message +
                         "; run `sandbox-runner plugins inspect " + id() +
                         "` to see the configuration schema");
    }
    const std::string text = config.dump();
    if (isolated()) {
        auto instance = make_isolated_instance(shared_from_this(), text);
        instance->config_text_ = text;
        return instance;
    }
    sbx_instance *handle = nullptr;
    const sbx_status status = entry_.create(text.c_str(), &handle);
    if (status != SBX_OK || handle == nullptr) {
        // The plugin refused the configuration the user wrote: bad input (exit 2).
        throw PluginError(
            "plugin '" + id() + "' (" + path_.string() +
            ") refused its configuration: " + text_or_empty(entry_.last_error(nullptr)));
    }
    std::unique_ptr<Instance> instance =
        std::make_unique<InProcessInstance>(shared_from_this(), handle);
    instance->config_text_ = text;
    return instance;
}

nlohmann::json Plugin::description() const {
    const auto &d = descriptor_;
    return {{"id", d.id},
            {"name", d.name},
            {"version", d.version},
            {"kind", d.kind},
            {"description", d.description},
            {"vendor", d.vendor},
            {"url", d.url},
            {"license", d.license},
            {"config_schema", d.config_schema},
            {"active_by_default", d.active_by_default},
            {"abi", {abi_.major, abi_.minor}}};
}

Descriptor descriptor_from_description(const std::filesystem::path &path,
                                       const nlohmann::json &description, sbx_version &abi) {
    try {
        Descriptor out;
        for (const auto &[field, into] :
             std::initializer_list<std::pair<const char *, std::string *>>{
                 {"id", &out.id},
                 {"name", &out.name},
                 {"version", &out.version},
                 {"kind", &out.kind},
                 {"description", &out.description},
                 {"vendor", &out.vendor},
                 {"url", &out.url},
                 {"license", &out.license}}) {
            *into = description.at(field).get<std::string>();
        }
        out.config_schema = description.at("config_schema");
        out.active_by_default = description.at("active_by_default").get<bool>();
        abi.major = description.at("abi").at(0).get<uint32_t>();
        abi.minor = description.at("abi").at(1).get<uint32_t>();
        check_descriptor(path, out);
        return out;
    } catch (const nlohmann::json::exception &e) {
        refuse(path, std::string("the plugin host described it with malformed JSON: ") + e.what());
    }
}

}  // namespace sbx::plugins
