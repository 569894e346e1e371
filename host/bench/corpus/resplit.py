#!/usr/bin/env python3
"""Splits a corpus report's evaluation half again, by source, for when the
tuning half no longer tells rules apart (LogChunks' tuning half keeps 0.998
of each log's labelled lines): part A of the evaluation half may then be
read and tuned on like the tuning half, and part B stays unread, the
figure to trust. A source falls in A when the first byte of
md5("resplit:" + source) is even; the rule was fixed before any figure
was looked at.

    ghost-bench corpus DIR --json REPORT
    python3 host/bench/corpus/resplit.py REPORT [PART]

prints lines kept, logs losing any, mean kept per case and tokens out/in
for the tuning half, evaluation part A and evaluation part B; with PART
(`tuning`, `A` or `B`) it also lists that part's cases losing lines.
"""

import hashlib
import json
import sys


def part_of(case):
    if case["half"].lower() == "tuning":
        return "tuning"
    digest = hashlib.md5(("resplit:" + case["source"]).encode()).digest()
    return "A" if digest[0] % 2 == 0 else "B"


def main():
    cases = json.load(open(sys.argv[1]))["cases"]
    show = sys.argv[2] if len(sys.argv) > 2 else None
    for part in ("tuning", "A", "B"):
        group = [c for c in cases if part_of(c) == part]
        if not group:
            continue
        kept = sum(c["kept"] for c in group)
        must = sum(c["must_keep"] for c in group)
        t_in = sum(c["tokens_in"] for c in group)
        t_out = sum(c["tokens_out"] for c in group)
        per_case = [c["kept"] / c["must_keep"] for c in group if c["must_keep"]]
        losing = [c for c in group if c["kept"] < c["must_keep"]]
        sources = len({c["source"] for c in group})
        print(
            f"{part}: {len(group)} cases, {sources} sources; lines {kept}/{must} "
            f"({kept / max(must, 1):.1%}); losing {len(losing)}; "
            f"mean per case {sum(per_case) / max(len(per_case), 1):.3f}; "
            f"tokens {t_out / max(t_in, 1):.4f}"
        )
        if part == show:
            for c in sorted(losing, key=lambda c: c["kept"] - c["must_keep"]):
                print(f"   {c['id']}: {c['kept']}/{c['must_keep']}")


if __name__ == "__main__":
    main()
