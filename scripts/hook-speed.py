#!/usr/bin/env python3
"""Whole-process cost of `ghost hook post-tool-use` on a 100 KB Bash result,
against a Node.js hook that only parses stdin and exits, in the same run.

Usage: python3 scripts/hook-speed.py [RUNS]   (after cargo build --release -p ghost)
Prints the medians and their ratio."""
import json, os, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
ghost = os.path.join(root, "target/release/ghost")
log = open(os.path.join(root, "examples/ci-failure.log")).read()[:100_000]
payload = json.load(open(os.path.join(root, "../shared/claude-code/payloads/PostToolUse-Bash-large.json")))
payload["tool_response"]["stdout"] = log
for k in ("persistedOutputPath", "persistedOutputSize"):
    payload["tool_response"].pop(k, None)
env = dict(os.environ, GHOST_HOME=tempfile.mkdtemp())
node = ["node", "-e", 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{JSON.parse(s);process.exit(0)})']


def timed(cmd, i):
    # A distinct output each run: the same text twice is answered by a
    # one-line reference to the first (what the agent already saw), which
    # would measure that path instead of compressing.
    p = json.loads(json.dumps(payload))
    p["tool_use_id"] = f"toolu_speed_{i}"
    p["tool_response"]["stdout"] = log + f"\nrun {i}\n"
    start = time.perf_counter()
    out = subprocess.run(cmd, input=json.dumps(p).encode(), capture_output=True, env=env)
    elapsed = time.perf_counter() - start
    assert out.returncode == 0, out.stderr
    return elapsed, out.stdout


timed([ghost, "hook", "post-tool-use"], -1)  # fills the compile cache
g, n = [], []
for i in range(runs):
    t, out = timed([ghost, "hook", "post-tool-use"], i)
    assert b"updatedToolOutput" in out
    g.append(t)
    n.append(timed(node, i)[0])
mg, mn = statistics.median(g) * 1000, statistics.median(n) * 1000
print(f"ghost hook post-tool-use, 100 KB Bash result: median {mg:.1f} ms over {runs} runs")
print(f"node hook that parses stdin and exits:       median {mn:.1f} ms")
print(f"ratio {mg / mn:.2f}")
