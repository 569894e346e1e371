#!/usr/bin/env python3
"""Builds a corpus of real failing GitHub Actions logs from the cidiff data
set's `data/breakages_dump/` (Apache-2.0; not the `breakages/` that
`../shared/corpus/cases/cidiff-*` came from): 34 failed runs of two
Terraform workflows, each with the line ranges the data set marks as the
error. Not copied into this repository; fetch github.com/labri-progress/cidiff
and run

    python3 host/bench/corpus/make-cidiff-actions.py CIDIFF_CHECKOUT OUT_DIR
    ./target/release/ghost-bench corpus OUT_DIR

`--other-cases CIDIFF_CHECKOUT OUT_DIR` writes `data/other_cases/` instead:
seven failed Maven builds of Java projects, the same way.

Each case is `gha-terraform-<workflow>-<run>`, so its source (for the
tuning/evaluation split) is the workflow. must_keep: the lines of the
data set's own error ranges (`E a-b` in `groundtruth`, 1-based), ANSI
stripped, trimmed, lines saying fewer than 8 characters after their
timestamp skipped, as for the shared corpus's cidiff cases.
"""

import re
import sys
from pathlib import Path

from ci_log_case import write_log_case

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z")
WORKFLOWS = {"Build Terraform CLI Packages_": "build", "Quick Checks_": "checks"}


def error_lines(groundtruth, lines):
    keep = []
    for entry in groundtruth.splitlines():
        parts = entry.split()
        if len(parts) != 2 or parts[0] != "E":
            continue
        lo, _, hi = parts[1].partition("-")
        for n in range(int(lo), int(hi or lo) + 1):
            if n <= len(lines):
                line = ANSI.sub("", lines[n - 1]).strip()
                said = TIMESTAMP.sub("", line).strip()
                if len(said) >= 8 and line not in keep:
                    keep.append(line)
    return keep


def other_cases(checkout, out):
    """`data/other_cases/`: seven failed Maven builds of Java projects
    (Travis), each `cidiff-other-<project>_<build>`, must-keep as above."""
    made = 0
    for case in sorted((checkout / "data" / "other_cases").iterdir()):
        fail, truth = case / "fail.log", case / "groundtruth"
        if not (fail.exists() and truth.exists()):
            continue
        raw = fail.read_text(encoding="utf-8", errors="replace")
        keep = error_lines(truth.read_text(), raw.split("\n"))
        if keep:
            write_log_case(
                out,
                f"cidiff-other-{case.name}",
                raw,
                f"cidiff other_cases ({case.name})",
                keep,
                "lines of the data set's own error ranges (E a-b in groundtruth), ANSI stripped, trimmed, lines of fewer than 8 characters skipped",
            )
            made += 1
    print(f"{made} cases in {out}")


def main():
    if sys.argv[1] == "--other-cases":
        other_cases(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    root, out = Path(sys.argv[1]) / "data" / "breakages_dump", Path(sys.argv[2])
    made = 0
    for workflow, short in WORKFLOWS.items():
        for run in sorted((root / workflow).iterdir()):
            fail, truth = run / "fail.log", run / "groundtruth"
            if not (fail.exists() and truth.exists()):
                continue
            raw = fail.read_text(encoding="utf-8", errors="replace")
            keep = error_lines(truth.read_text(), raw.split("\n"))
            if not keep:
                continue
            write_log_case(
                out,
                f"gha-terraform-{short}-{run.name.removeprefix('run')}",
                raw,
                f"cidiff breakages_dump (GitHub Actions, terraform, {workflow.rstrip('_')})",
                keep,
                "lines of the data set's own error ranges (E a-b in groundtruth), ANSI stripped, trimmed, lines saying fewer than 8 characters after their timestamp skipped",
            )
            made += 1
    print(f"{made} cases in {out}")


if __name__ == "__main__":
    main()
