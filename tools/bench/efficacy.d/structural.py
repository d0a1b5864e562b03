#!/usr/bin/env python3
"""tools/bench/efficacy --structural: structural input bugs, sandbox-runner against AFL++.

The target is build/bin/sbx-bench-structural-bugs (tools/bench/structural_bugs.cpp): an
order processor that validates its JSON document and holds 14 planted bugs, every one
armed at once; a crash prints "planted bug NAME". Ten need one field of a valid order
changed, two need two fields changed together, two need a word only the program holds.

Contenders, at equal executions (one run of sandbox-runner = one execution of AFL++):
  sandbox-runner   `run --runs N` of one workflow whose json slot has the order as its
                   example, the hostile_input preset, once per seed
  AFL++            afl-fuzz -E N on an afl-c++ build of the same source, the example as
                   its only seed, once per seed (-s); and again with a JSON dictionary
A bug is found within N when an execution before the N-th crashed with it: for
sandbox-runner the run's repetition, for AFL++ the `execs:` of the crash it saved.

Then coverage feedback on the two bugs behind nested branches, with the target built with
--coverage and the coverage collector on, and without: runs to the first failure of
`explore` and of the robustness repetitions (`run --runs N` of the hostile_input preset,
whose rounds after the first follow the inputs that reached new lines).
--coverage-only measures just that (no AFL++ needed).

Usage: tools/bench/efficacy --structural [--seeds S] [--alone-seeds S] [--runs N,N,...]
           [--afl-seeds S] [--afl-execs N] [--afl-long-seeds S]
           [--coverage-runs N] [--coverage-seeds S] [--coverage-only]
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
BUILD = Path(os.environ.get("SBX_BUILD_DIR", REPO / "build"))
HOST = BUILD / "bin" / "sandbox-runner"
TARGET = BUILD / "bin" / "sbx-bench-structural-bugs"
SOURCE = REPO / "tools" / "bench" / "structural_bugs.cpp"
DICT = REPO / "tools" / "bench" / "efficacy.d" / "json.dict"
EXAMPLE = ('{"id": 42, "user": "ada", "admin": false, "quantity": 3, "price": 9.5, '
           '"currency": "EUR", "tags": ["new", "gift"], "items": [{"sku": "A1", "count": 1}], '
           '"note": "leave at the door", "shipping": {"method": "post", "days": 2}}')
BUG_LINE = re.compile(r"planted bug (\w+)")
DEEP_BUGS = ("deep_courier_same_day", "deep_second_item")


def bugs():
    out = subprocess.run([str(TARGET), "--list"], check=True, capture_output=True, text=True)
    return [line.split("\t") for line in out.stdout.splitlines()]


def bug_of(stderr):
    found = BUG_LINE.search(stderr or "")
    return found.group(1) if found else None


def sandbox_runner(work, seeds, runs, workers, armed):
    """[{bug: runs to its first failure}], one per seed and armed bug set: `run --runs runs`
    of a workflow per entry of `armed` (a bug's name, or None for every bug at once)."""
    workflows = {bug or "all": {"name": f"orders-{bug or 'all'}", "steps": [{
        "run": [str(TARGET)] + (["--bug", bug] if bug else []), "stdin": "{{input.order}}",
        "inputs": {"order": {"type": "json", "example": EXAMPLE}},
        "rejects": {"exit_codes": [2]}, "timeout": "20s"}]} for bug in armed}
    settings = {"injectors": [], "stub_cache": False, "workflows": list(workflows.values())}
    (work / "settings.json").write_text(json.dumps(settings))
    (work / "preset.json").write_text(json.dumps(
        {"SCENARIO_NAME": "hostile_input", "SANDBOX_STUB_STRATEGY": "hostile"}))
    data = work / f"sbx-data-{len(armed)}"
    for seed in seeds:
        for workflow in workflows.values():
            subprocess.run([str(HOST), "--log-level", "error", "--config",
                            str(work / "settings.json"), "--data-dir", str(data), "run", "-w",
                            workflow["name"], "--runs", str(runs), "--seed", str(seed),
                            "--workers", str(workers), "--preset-file", str(work / "preset.json")],
                           stdout=subprocess.DEVNULL, check=False)
    db = sqlite3.connect(data / "metrics.db")
    # One session per command: the seeds of one armed set are its sessions in order.
    rows = db.execute("""SELECT r.session_id, r.repetition, json_extract(s.result, '$.stderr')
                         FROM runs r JOIN steps s ON s.run_id = r.id
                         WHERE s.status = 'SG' ORDER BY r.session_id, r.repetition""").fetchall()
    sessions = [row[0] for row in db.execute("SELECT id FROM sessions ORDER BY id")]
    first = {session: {} for session in sessions}
    for session, repetition, stderr in rows:
        bug = bug_of(stderr)
        if bug:
            first[session].setdefault(bug, repetition + 1)
    # Per seed, the union over its workflows (each arms its own bug).
    per_seed = []
    for s in range(len(sessions) // len(workflows)):
        merged = {}
        for session in sessions[s * len(workflows):(s + 1) * len(workflows)]:
            for bug, at in first[session].items():
                merged[bug] = min(at, merged.get(bug, at))
        per_seed.append(merged)
    return per_seed


def afl_build(work):
    cached = BUILD / "bench-cache" / "structural-bugs-afl"
    if not cached.exists() or cached.stat().st_mtime < SOURCE.stat().st_mtime:
        cached.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["afl-c++", "-O2", "-o", str(cached), str(SOURCE)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, AFL_QUIET="1"))
    return cached


def afl_campaign(binary, work, seed, execs, dictionary):
    """{bug: execs of its first saved crash} of one AFL++ campaign."""
    out = work / f"afl-{seed}-{execs}-{int(dictionary)}"
    seeds = work / "afl-in"
    command = ["afl-fuzz", "-i", str(seeds), "-o", str(out), "-s", str(seed), "-E", str(execs)]
    if dictionary:
        command += ["-x", str(DICT)]
    env = dict(os.environ, AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1", AFL_SKIP_CPUFREQ="1",
               AFL_NO_UI="1", AFL_NO_AFFINITY="1", AFL_QUIET="1")
    subprocess.run(command + ["--", str(binary)], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False, timeout=3600)
    first = {}
    crashes = out / "default" / "crashes"
    for crash in sorted(crashes.glob("id:*")) if crashes.exists() else []:
        execs_at = int(re.search(r"execs:(\d+)", crash.name).group(1))
        replay = subprocess.run([str(binary)], stdin=crash.open("rb"), capture_output=True,
                                text=True, errors="replace", check=False)
        bug = bug_of(replay.stderr)
        if bug and (bug not in first or execs_at < first[bug]):
            first[bug] = execs_at
    shutil.rmtree(out, ignore_errors=True)
    return first


def found_within(firsts, n):
    """Median, over seeds, of the bugs found within n executions."""
    return statistics.median(sum(1 for at in first.values() if at <= n) for first in firsts)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def first_failure(firsts, bug, limit):
    """'median / p90' runs to the bug's first failure over seeds; '-' past the limit."""
    values = [first.get(bug, float("inf")) for first in firsts]
    shown = lambda v: "-" if v == float("inf") or v > limit else str(int(v))
    return f"{shown(statistics.median(values))} / {shown(percentile(values, 0.9))}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--structural", action="store_true")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--runs", default="13,100,1000")
    parser.add_argument("--alone-seeds", type=int, default=5,
                        help="seeds for the one-bug-per-workflow column (14 workflows each)")
    parser.add_argument("--afl-seeds", type=int, default=100,
                        help="AFL++ campaigns of --afl-execs executions")
    parser.add_argument("--afl-execs", type=int, default=10000)
    parser.add_argument("--afl-long-seeds", type=int, default=20,
                        help="AFL++ campaigns of 100,000 executions (the goal's line)")
    parser.add_argument("--coverage-runs", type=int, default=1000,
                        help="explore's budget per seed with and without coverage feedback")
    parser.add_argument("--coverage-seeds", type=int, default=3)
    parser.add_argument("--coverage-only", action="store_true",
                        help="measure only coverage feedback (explore and the repetitions)")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("SBX_BENCH_WORKERS", 2)))
    args = parser.parse_args()
    counts = [int(n) for n in args.runs.split(",")]
    afl_counts = [n for n in (13, 100, 1000, 10000, 100000) if n <= args.afl_execs] + \
        ([100000] if args.afl_long_seeds > 0 and args.afl_execs < 100000 else [])
    subprocess.run([str(REPO / "tools" / "build")], check=True, stdout=subprocess.DEVNULL)
    if args.coverage_only:
        with tempfile.TemporaryDirectory(prefix="sbx-structural-") as tmp:
            explored = explore_with_and_without_coverage(Path(tmp), args.coverage_runs,
                                                         args.coverage_seeds, args.workers)
        print(f"structural efficacy, coverage feedback ({os.cpu_count()} cores, "
              f"{os.uname().release})")
        print_explored(explored, args.coverage_runs, args.coverage_seeds)
        return
    if shutil.which("afl-fuzz") is None:
        sys.exit("efficacy --structural: AFL++ is needed for the peer column "
                 "(apt-get install afl++)")
    listed = bugs()
    with tempfile.TemporaryDirectory(prefix="sbx-structural-") as tmp:
        work = Path(tmp)
        (work / "afl-in").mkdir()
        (work / "afl-in" / "example.json").write_text(EXAMPLE)
        names = [name for name, _ in listed]
        ours = sandbox_runner(work, range(1, args.seeds + 1), max(counts), args.workers, [None])
        alone = sandbox_runner(work, range(1, args.alone_seeds + 1), max(counts), args.workers,
                               names)
        explored = explore_with_and_without_coverage(work, args.coverage_runs,
                                                     args.coverage_seeds, args.workers)
        binary = afl_build(work)
        afl, afl_long = {}, {}
        with ThreadPoolExecutor(max_workers=args.workers) as pool:
            for dictionary in (False, True):
                jobs = [pool.submit(afl_campaign, binary, work, seed, args.afl_execs, dictionary)
                        for seed in range(1, args.afl_seeds + 1)]
                long_jobs = [pool.submit(afl_campaign, binary, work, seed, 100000, dictionary)
                             for seed in range(1001, 1001 + args.afl_long_seeds)]
                afl[dictionary] = [job.result() for job in jobs]
                afl_long[dictionary] = [job.result() for job in long_jobs]

    print(f"structural efficacy: {len(listed)} planted bugs in one order processor "
          f"({os.cpu_count()} cores, {os.uname().release})")
    print(f"  bugs found within N executions, median over seeds (sandbox-runner {args.seeds} "
          f"seeds, one bug armed per workflow {args.alone_seeds}; AFL++ {args.afl_seeds} seeds, "
          f"{args.afl_long_seeds} at 100,000)")
    print(f"  {'N':>7} {'sandbox-runner':>15} {'AFL++':>7} {'AFL++ +dict':>12} "
          f"{'sandbox-runner, one bug armed per workflow':>44}")
    def afl_at(dictionary, n):
        if n <= args.afl_execs:
            return found_within(afl[dictionary], n)
        return found_within(afl_long[dictionary], n) if afl_long[dictionary] else "-"

    for n in sorted(set(counts) | set(afl_counts)):
        ours_n = found_within(ours, n) if n <= max(counts) else "-"
        afl_n = afl_at(False, n)
        dict_n = afl_at(True, n)
        alone_n = found_within(alone, n) if n <= max(counts) else "-"
        print(f"  {n:>7} {ours_n!s:>15} {afl_n!s:>7} {dict_n!s:>12} {alone_n!s:>44}")
    print()
    print("  executions to the first failure, median / p90 over seeds (- = not within the budget;"
          " AFL++ from its 100,000-execution campaigns)")
    print(f"  {'bug':<30} {'reached by':<46} {'sandbox-runner':>15} {'AFL++':>17} "
          f"{'AFL++ +dict':>17} {'one armed':>11}")
    for name, reached_by in listed:
        print(f"  {name:<30} {reached_by[:46]:<46} {first_failure(ours, name, max(counts)):>15} "
              f"{first_failure(afl_long[False] or afl[False], name, max(afl_counts)):>17} "
              f"{first_failure(afl_long[True] or afl[True], name, max(afl_counts)):>17} "
              f"{first_failure(alone, name, max(counts)):>11}")
    print_explored(explored, args.coverage_runs, args.coverage_seeds)


def explore_with_and_without_coverage(work, runs, seeds, workers):
    """{(command, mode): {bug: [runs to first failure per seed]}} on the deep bugs, for
    `explore` and for the robustness repetitions (`run`): the target built with --coverage
    and the coverage collector on, and the plain build."""
    if runs <= 0 or seeds <= 0:
        return {}
    covered = work / "covered"
    covered.mkdir()
    subprocess.run(["g++", "-std=c++17", "--coverage", "-O0", "-o", str(covered / "orders"),
                    str(SOURCE)], check=True, cwd=covered)
    (work / "hostile.json").write_text(json.dumps(
        {"SCENARIO_NAME": "hostile_input", "SANDBOX_STUB_STRATEGY": "hostile"}))
    out = {}
    for mode, binary, extra in (("with coverage", covered / "orders",
                                 {"injectors": ["+coverage_capture"], "metrics": ["+coverage"]}),
                                ("without", TARGET, {"injectors": []})):
        for command in ("explore", "run"):
            out[(command, mode)] = {}
        for bug in DEEP_BUGS:
            settings = dict(extra, stub_cache=False, workflows=[{"name": "orders", "steps": [{
                "run": [str(binary), "--bug", bug], "stdin": "{{input.order}}",
                "inputs": {"order": {"type": "json", "example": EXAMPLE}},
                "rejects": {"exit_codes": [2]}, "timeout": "20s"}]}])
            tag = f"{bug}-{mode.replace(' ', '-')}"
            path = work / f"coverage-{tag}.json"
            path.write_text(json.dumps(settings))
            explored, repeated = [], []
            for seed in range(1, seeds + 1):
                data = work / f"coverage-data-{tag}-{seed}"
                base = [str(HOST), "--log-level", "error", "--config", str(path), "--data-dir",
                        str(data)]
                result = subprocess.run(
                    base + ["explore", "orders", "--runs", str(runs), "--seed", str(seed),
                            "--shrink-runs", "0", "--json"],
                    capture_output=True, text=True, check=False)
                report = json.loads(result.stdout) if result.stdout.strip() else {"failures": []}
                found = [c["found_at"] for c in report["failures"] if bug in c["summary"]]
                explored.append(found[0] if found else float("inf"))
                subprocess.run(base + ["run", "-w", "orders", "--runs", str(runs), "--seed",
                                       str(seed), "--workers", str(workers), "--preset-file",
                                       str(work / "hostile.json")],
                               stdout=subprocess.DEVNULL, check=False)
                repeated.append(first_repetition(data, bug))
                shutil.rmtree(data, ignore_errors=True)
            out[("explore", mode)][bug] = explored
            out[("run", mode)][bug] = repeated
    return out


def first_repetition(data, bug):
    """Runs to the first crash with `bug` in the newest `run` session of `data`."""
    db = sqlite3.connect(data / "metrics.db")
    rows = db.execute("""SELECT r.repetition, json_extract(s.result, '$.stderr')
                         FROM runs r JOIN steps s ON s.run_id = r.id
                         WHERE s.status = 'SG' AND r.flag = 'on' AND
                               r.session_id = (SELECT MAX(id) FROM sessions)
                         ORDER BY r.repetition""").fetchall()
    db.close()
    return next((repetition + 1 for repetition, stderr in rows if bug_of(stderr) == bug),
                float("inf"))


def print_explored(explored, runs, seeds):
    if not explored:
        return
    print()
    print(f"  coverage feedback: runs to the first failure of the bugs behind nested branches,"
          f" median / p90 over {seeds} seeds (- = not within {runs} runs)")
    print(f"  {'bug':<24} {'command':<28} {'with coverage feedback':>24} {'without':>10}")
    shown = lambda v: "-" if v == float("inf") else str(int(v))
    for bug in DEEP_BUGS:
        for command, label in (("explore", "explore"),
                               ("run", "run (robustness repetitions)")):
            cells = []
            for mode in ("with coverage", "without"):
                values = explored[(command, mode)][bug]
                cells.append(f"{shown(statistics.median(values))} / "
                             f"{shown(percentile(values, 0.9))}")
            print(f"  {bug:<24} {label:<28} {cells[0]:>24} {cells[1]:>10}")


if __name__ == "__main__":
    main()
