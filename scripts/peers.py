#!/usr/bin/env python3
"""Runs the peers that work offline on a corpus laid out like
../shared/corpus/cases and writes each one's outputs as OUT/<peer>/<case>.txt,
for `ghost bench corpus CASES --outputs OUT/<peer>` to score with the same
tokenizer and must-keep rule as ghost.

Peers (install them first; see the README's performance section):
  ptk       python-token-killer (pip): ptk.minimize(text), every class
  headroom  headroom-ai (pip): headroom.compress() on a tool message, every class
  drain3    drain3 (pip): a log line dedup, the first line of each template, logs only
  repomix   repomix --compress (npm), code only

usage: peers.py CASES OUT [--peers ptk,headroom,drain3,repomix] [--repomix PATH]
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile


def cases(root):
    for d in sorted(pathlib.Path(root).iterdir()):
        if (d / "input.txt").is_file() and (d / "meta.json").is_file():
            meta = json.loads((d / "meta.json").read_text())
            text = (d / "input.txt").read_bytes().decode("utf-8", "replace")
            yield d.name, meta, text


def run_ptk(meta, text):
    import ptk
    return str(ptk.minimize(text))


def run_headroom(meta, text):
    from headroom import compress
    messages = [
        {"role": "user", "content": "What does this output tell us?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "t1", "type": "function", "function": {"name": meta.get("tool", "tool"), "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "t1", "content": text},
    ]
    out = compress(messages, model="gpt-4o").messages[-1]["content"]
    return out if isinstance(out, str) else json.dumps(out)


def run_drain3(meta, text):
    if meta["class"] != "log":
        return None
    from drain3 import TemplateMiner
    miner = TemplateMiner()
    kept = []
    for line in text.splitlines():
        if not line.strip():
            continue
        result = miner.add_log_message(line)
        if result["change_type"] == "cluster_created":
            kept.append(line)
    return "\n".join(kept) + "\n"


def run_repomix(meta, text, repomix):
    if meta["class"] != "code":
        return None
    name = os.path.basename(meta.get("command") or "input.txt")
    with tempfile.TemporaryDirectory() as tmp:
        pathlib.Path(tmp, name).write_text(text)
        proc = subprocess.run(
            [repomix, "--compress", "--stdout", "--style", "plain", "--no-file-summary",
             "--no-directory-structure", "--no-security-check"],
            cwd=tmp, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            print(f"repomix failed on {name}: {proc.stderr[:300]}", file=sys.stderr)
            return None
        return proc.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("out")
    ap.add_argument("--peers", default="ptk,headroom,drain3,repomix")
    ap.add_argument("--repomix", default=shutil.which("repomix") or "repomix")
    args = ap.parse_args()
    runners = {
        "ptk": run_ptk,
        "headroom": run_headroom,
        "drain3": run_drain3,
        "repomix": lambda m, t: run_repomix(m, t, args.repomix),
    }
    for peer in args.peers.split(","):
        out = pathlib.Path(args.out, peer)
        out.mkdir(parents=True, exist_ok=True)
        for case_id, meta, text in cases(args.cases):
            try:
                result = runners[peer](meta, text)
            except Exception as e:  # a peer failing on one case passes it through
                print(f"{peer} failed on {case_id}: {e}", file=sys.stderr)
                result = None
            if result is not None:
                (out / f"{case_id}.txt").write_text(result)
        print(f"{peer}: outputs in {out}")


if __name__ == "__main__":
    main()
