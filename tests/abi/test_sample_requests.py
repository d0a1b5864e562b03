#!/usr/bin/env python3
"""The SDK's sample requests (sdk/requests/*.json) say what docs/abi.md says the host sends.

    tests/abi/test_sample_requests.py REPO

For each sample: every key is one the spec names for that call, with the type the spec
gives it; every key the spec says the host always sends is there. The spec is read from
docs/abi.md (its field tables and `{a, b, c}` lists), and the slot types of a stub request
from the host's own list (host/core/config/input_reader.cpp), which abi.md must match.
Exit 0 when all match, 1 with one line per mismatch.
"""

import json
import re
import sys
from pathlib import Path

REPO = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2]
ABI = (REPO / "docs/abi.md").read_text(encoding="utf-8")
problems = []


def section(start, end):
    """The text of docs/abi.md from the line that starts with `start` to the next `end`."""
    at = ABI.index(start)
    return ABI[at : ABI.index(end, at + len(start))]


def table_rows(text):
    """`| \\`field\\` | cell | ... |` rows: {field: [cells after the first]} (a row may name
    several fields, `wall_s`, `cpu_user_s`)."""
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) > 1:
            for field in re.findall(r"`([a-z_]+)`", cells[0]):
                rows[field] = cells[1:]
    return rows


def braced_keys(text):
    """The keys of the first `{a, b: "x", c}` list in the text."""
    inner = re.search(r"`\{([^`]*)\}`", text).group(1)
    return [re.match(r"\s*([a-z_]+)", part).group(1) for part in inner.split(",")]


def code_words(text):
    return set(re.findall(r"`([a-z_]+)`", text))


# A type word of the spec's tables -> whether a JSON value has that type.
TYPES = {
    "string": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, bool),
    "array of strings": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    "object of strings": lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "array of objects": lambda v: isinstance(v, list) and all(isinstance(x, dict) for x in v),
}


def type_of(cell):
    """The spec's type word at the start of a table cell (`int (0 … 2⁶³−1)` is int)."""
    for word in sorted(TYPES, key=len, reverse=True):
        if cell.startswith(word):
            return word
    return None


def check(sample_name, sample, named, required, types):
    for key, value in sample.items():
        if key not in named:
            problems.append(f"{sample_name}: `{key}` is not a field docs/abi.md names for this call")
        elif key in types and types[key] and not TYPES[types[key]](value):
            problems.append(f"{sample_name}: `{key}` is {json.dumps(value)}, not the spec's {types[key]}")
    for key in sorted(set(required) - set(sample)):
        problems.append(f"{sample_name}: lacks `{key}`, which the host always sends (docs/abi.md)")


def load(name):
    return json.loads((REPO / "sdk/requests" / name).read_text(encoding="utf-8"))


# The run spec: its table, and the fields the host adds for container and VM executors.
executor = section("### Executor", "### Injector")
spec_rows = table_rows(section("The **run spec**", "#### Raw bytes"))
container = re.search(r"Fields the host adds for container and VM executors[^.]*\.", executor, re.S)
spec_named = set(spec_rows) | code_words(container.group(0))
spec_types = {field: type_of(cells[0]) for field, cells in spec_rows.items()}
spec_types.update(state_dir="string", needs_network="bool")
# What a run spec always holds; the others are "optional", "absent" or set by injectors.
spec_required = {"run_id", "seed", "argv", "env", "stdin", "files", "limits"}
check("executor.run.json", load("executor.run.json"), spec_named, spec_required, spec_types)

# An executor result, as the metrics run request carries them in `steps`.
result_rows = table_rows(section("The **result**", "A real result"))
result_types = {field: type_of(cells[0]) for field, cells in result_rows.items()}

# Injector prepare: `{preset, spec, run_id, state_dir, seed, repetition}`; `repetition` is
# "absent outside a cell", `probe` only in the probe.
prepare_text = section("- **prepare** request", "- **teardown**")
prepare_keys = braced_keys(prepare_text)
prepare = load("injector.prepare.json")
check("injector.prepare.json", prepare, set(prepare_keys) | {"probe"},
      set(prepare_keys) - {"repetition"},
      {"preset": "object", "spec": "object", "run_id": "string", "state_dir": "string",
       "seed": "int", "repetition": "int"})
check("injector.prepare.json spec", prepare["spec"], spec_named, spec_required, spec_types)

# Stub generate: its table; `input_sets` only in a chain. Slot types: the host's list.
stub_rows = table_rows(section("### Stub strategy", "Response:"))
stub = load("stub.generate.json")
check("stub.generate.json", stub, set(stub_rows), set(stub_rows) - {"input_sets"},
      {"slots": "object", "count": "int", "seed": "int", "preset": "object"})
slot_doc = stub_rows["slots"][0]
doc_slot_keys = re.search(r"`\{([^}]*)\}`", slot_doc).group(1).replace("?", "")
doc_slot_keys = {key.strip() for key in doc_slot_keys.split(",")}
doc_slot_types = re.findall(r"`([a-z]+)`", slot_doc.split("is one of", 1)[1])
reader = (REPO / "host/core/config/input_reader.cpp").read_text(encoding="utf-8")
host_slot_types = re.findall(r'"([a-z]+)"', re.search(r"slot_types\(\) \{(.*?)\}", reader, re.S).group(1))
host_slot_keys = re.findall(r'"([a-z]+)"', re.search(r"slot_keys\(\) \{(.*?)\}", reader, re.S).group(1))
if set(doc_slot_types) != set(host_slot_types):
    problems.append(f"docs/abi.md gives the slot types {doc_slot_types}; the host reads {host_slot_types}")
if doc_slot_keys != set(host_slot_keys):
    problems.append(f"docs/abi.md gives the slot keys {sorted(doc_slot_keys)}; the host reads {host_slot_keys}")
for name, slot in stub["slots"].items():
    if slot.get("type") not in host_slot_types:
        problems.append(f"stub.generate.json: slot `{name}` has type {json.dumps(slot.get('type'))}, "
                        f"not one of the spec's {', '.join(host_slot_types)}")
    for key in set(slot) - set(host_slot_keys):
        problems.append(f"stub.generate.json: slot `{name}` has `{key}`, not a slot key of the spec")

# Metrics collect: the two phases of its table.
phases = section("### Metrics collector", "Response:")
for phase, name in (("run", "metrics.collect.run.json"), ("cell", "metrics.collect.cell.json")):
    row = next(line for line in phases.splitlines() if line.startswith(f"| `{phase}` |"))
    keys = braced_keys(row)
    sample = load(name)
    check(name, sample, set(keys), set(keys),
          {"passed": "bool", "failed_step": "string", "workflow": "string", "scenario": "string",
           "flag": "string", "repetition": "int", "session": "int", "step_names": "array of strings",
           "preset": "object", "steps": "array of objects", "runs": "int", "roi": "number"})
    if sample.get("phase") != phase:
        problems.append(f"{name}: `phase` is {json.dumps(sample.get('phase'))}, not \"{phase}\"")
    for i, step in enumerate(sample.get("steps", [])):
        check(f"{name} steps[{i}]", step, set(result_rows), {"status"}, result_types)

# Predictor predict: `{series: [numbers], timestamps: [texts], subject, metric, range}`;
# `range` is "absent when unbounded".
predict_text = section("### Predictor", "The shown `predictor:`")
predict_keys = braced_keys(predict_text)
predict = load("predictor.predict.json")
check("predictor.predict.json", predict, set(predict_keys), set(predict_keys) - {"range"},
      {"subject": "string", "metric": "string", "timestamps": "array of strings", "range": "array"})
if not all(isinstance(x, (int, float)) for x in predict.get("series", [None])):
    problems.append("predictor.predict.json: `series` is not an array of numbers")
if len(predict.get("series", [])) != len(predict.get("timestamps", [])):
    problems.append("predictor.predict.json: `timestamps` is not as long as `series`")

# Every sample is checked above: a new one must be added here.
checked = {"executor.run.json", "injector.prepare.json", "stub.generate.json",
           "metrics.collect.run.json", "metrics.collect.cell.json", "predictor.predict.json"}
for path in sorted((REPO / "sdk/requests").glob("*.json")):
    if path.name not in checked:
        problems.append(f"sdk/requests/{path.name}: no check in {Path(__file__).name}; add one")

for problem in problems:
    print(problem)
if not problems:
    print(f"ok: {len(checked)} sample requests match docs/abi.md")
sys.exit(1 if problems else 0)
