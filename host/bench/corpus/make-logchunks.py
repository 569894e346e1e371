#!/usr/bin/env python3
"""Builds a corpus of real failing CI logs from the LogChunks data set.

LogChunks (Brandt et al., MSR 2020) holds 797 Travis CI logs of failed
builds from 80 GitHub repositories in 29 languages, each with the chunk of
the log that a person marked as the reason the build failed. It is not
copied into this repository; fetch a copy (for instance the `LogChunks/`
folder of github.com/OthmanSEBTI/LOG6309_FinalProject) and run

    python3 host/bench/corpus/make-logchunks.py LOGCHUNKS_DIR OUT_DIR
    ./target/release/ghost-bench corpus OUT_DIR

Each case is `lc-<owner>@<repo>-<build id>` (so its source, for the
tuning/evaluation split, is the repository), class `log`, the raw log as
its input. must_keep: every non-blank line of the labelled chunk that is a
line of the log as a terminal shows it (ANSI codes stripped, the last
redraw of a line rewritten with carriage returns). Chunk lines the data
set's export mangled (an escape character or a `<` dropped) are matched
after the same mangling of the log's lines, and kept as the log has them.
"""

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from ci_log_case import write_log_case

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")
# What the export did to some chunks: an escape character dropped (leaving
# `[0m`), and `<` dropped.
MANGLED = re.compile(r"\[[0-9;]*[mK]|<")


def shown_lines(raw):
    """The log's lines as a terminal shows them."""
    for line in raw.split("\n"):
        line = line.rstrip("\r")
        redraws = [s for s in line.split("\r") if s]
        yield ANSI.sub("", redraws[-1] if redraws else "").rstrip()


def must_keep(chunk, lines):
    exact = set(lines)
    mangled = {}
    for line in lines:
        mangled.setdefault(MANGLED.sub("", line), line)
    keep = []
    for c in chunk.split("\n"):
        c = ANSI.sub("", c).rstrip()
        if not c.strip():
            continue
        found = c if c in exact else mangled.get(MANGLED.sub("", c))
        if found and found.strip() and found not in keep:
            keep.append(found)
    return keep


def main():
    root, out = Path(sys.argv[1]), Path(sys.argv[2])
    made = 0
    for xml in sorted((root / "build-failure-reason").glob("*/*.xml")):
        for example in ET.parse(xml).getroot():
            log = example.find("Log").text
            chunk = example.find("Chunk").text or ""
            lang, repo, _, name = log.split("/")
            raw = (root / "logs" / log).read_text(encoding="utf-8", errors="replace")
            keep = must_keep(chunk, list(shown_lines(raw)))
            if not keep:
                continue
            write_log_case(
                out,
                f"lc-{repo}-{Path(name).stem}",
                raw,
                f"LogChunks (Travis CI, {lang}, {repo})",
                keep,
                "every line of the labelled failure chunk found in the log",
            )
            made += 1
    print(f"{made} cases in {out}")


if __name__ == "__main__":
    main()
