#!/usr/bin/env python3
"""Summarises a kernel-matrix run: the guest's facts, then per leg the counts and each
failed test with the first lines that say why (gtest's failure lines, else the output's
tail), read from the JUnit file ctest wrote in the guest.

    report.py RESULTS_DIR LEG...
"""
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

WHY_LINES = 6


def why(output: str) -> list[str]:
    """The lines that explain a failure: from the first gtest 'Failure' or an error, else
    the last lines (a crash or a timeout prints no failure line)."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    for index, line in enumerate(lines):
        if "Failure" in line or line.startswith(("terminate called", "unknown file")):
            return lines[index:index + WHY_LINES]
    return lines[-WHY_LINES:]


def leg_report(results: Path, leg: str) -> list[str]:
    status_file = results / leg / "status"
    if not status_file.exists():
        return [f"leg {leg}: did not finish (see console.log)"]
    seconds = (results / leg / "seconds").read_text().strip()
    junit = results / leg / "junit.xml"
    if not junit.exists():
        return [f"leg {leg}: ctest exit {status_file.read_text().strip()}, no JUnit file "
                f"(see {leg}/ctest.log)"]
    cases = ElementTree.parse(junit).getroot().iter("testcase")
    failed, passed, skipped = [], 0, 0
    for case in cases:
        status = case.get("status", "")
        if status == "fail" or case.find("failure") is not None:
            failed.append(case)
        elif status in ("notrun", "disabled") or case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    lines = [f"leg {leg}: {passed} passed, {len(failed)} failed, {skipped} not run "
             f"in {seconds} s"]
    for case in failed:
        output = case.findtext("system-out") or ""
        lines.append(f"  FAILED {case.get('name')}")
        lines.extend(f"      {line}" for line in why(output))
    leftovers = results / leg / "leftover-processes.txt"
    if leftovers.exists() and leftovers.read_text().strip():
        lines.append(f"  processes the user still had after the leg:")
        lines.extend(f"      {line}" for line in leftovers.read_text().splitlines())
    return lines


def main() -> None:
    results = Path(sys.argv[1])
    facts = results / "facts.txt"
    if facts.exists():
        print("guest: " + "; ".join(facts.read_text().splitlines()))
    for leg in sys.argv[2:]:
        print("\n".join(leg_report(results, leg)))


if __name__ == "__main__":
    main()
