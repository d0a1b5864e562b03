// The Python hook's two files.
#include "python_hook.hpp"

#include <sbx/plugin.hpp>

#include <fstream>

namespace sbx::coverage_capture {
namespace fs = std::filesystem;
namespace {

// Written as Python reads it. The sitecustomize it hides runs first, before measuring
// starts; the interpreter's own code (the standard library, site-packages, this hook) is
// never the target's. The data file's folder is made at exit, just before the save: the
// target never sees it while it runs. Each Python process of the run (a target that starts
// others) writes its own file, combined when the run is collected.
constexpr const char *kSiteCustomize =
    R"py(# sandbox-runner coverage_capture: measures this run with coverage.py, then steps aside.
import atexit as _atexit
import os as _os
import sys as _sys

_here = _os.path.dirname(_os.path.abspath(__file__))
_sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or _os.curdir) != _here]
# The sitecustomize this one hides, if the interpreter has one, runs as it would have. With
# none, this module stays registered under the name (the import machinery expects it), and
# an ImportError of anything else surfaces as it would natively.
_self = _sys.modules.pop("sitecustomize")
try:
    import sitecustomize  # noqa: F401
except ImportError as _error:
    if _error.name != "sitecustomize":
        raise
    _sys.modules["sitecustomize"] = _self


def _sbx_measure():
    data = _os.environ.get("COVERAGE_FILE", "")
    if not data:
        return
    try:
        import coverage
    except ImportError:
        return
    import site
    import sysconfig

    own = {_here, _os.path.dirname(_os.__file__)}
    own.update(sysconfig.get_paths().get(k, "") for k in ("stdlib", "platstdlib", "purelib", "platlib"))
    own.update(getattr(site, "getsitepackages", lambda: [])())
    own.add(getattr(site, "getusersitepackages", lambda: "")())
    measured = coverage.Coverage(
        data_file=data, data_suffix=True, config_file=False,
        omit=[_os.path.join(p, "*") for p in own if p])
    measured.start()

    def _save():
        measured.stop()
        _os.makedirs(_os.path.dirname(data), exist_ok=True)
        measured.save()

    _atexit.register(_save)


_sbx_measure()
)py";

void write_text(const fs::path &path, const char *text) {
    const fs::path temporary = path.string() + ".new";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << text;
        if (!out.flush()) {
            throw Error(SBX_ERROR, "cannot write " + temporary.string());
        }
    }
    fs::rename(temporary, path);  // never half a file for a target starting right now
}

}  // namespace

void write_python_hook(const fs::path &folder) {
    fs::create_directories(folder);
    write_text(folder / "sitecustomize.py", kSiteCustomize);
}

}  // namespace sbx::coverage_capture
