#!/usr/bin/env python3
"""Prints the medians of ghost's criterion benchmarks and the ratios the README
reports. Run after `cargo bench -p ghost-bench --bench runtime`."""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")


def median(group, bench):
    path = root / group / bench / "new" / "estimates.json"
    if not path.exists():
        return None
    return json.loads(path.read_text())["median"]["point_estimate"] / 1e6  # ms


def fmt(ms):
    return "-" if ms is None else (f"{ms * 1000:.1f} µs" if ms < 1 else f"{ms:.2f} ms")


print("| input | component (fresh store, pooled instance, call) | native | component / native |")
print("| --- | --- | --- | --- |")
for size in ["16B", "1KB", "100KB", "1MB"]:
    wasm, native = median("per_call", size), median("native", size)
    ratio = f"{wasm / native:.2f}×" if wasm and native else "-"
    print(f"| {size} | {fmt(wasm)} | {fmt(native)} | {ratio} |")

ghost, node = median("cold_process", "ghost_compress_100KB"), median("cold_process", "node_noop")
print()
print("| whole process | median |")
print("| --- | --- |")
print(f"| `ghost compress --class log` on 100 KB | {fmt(ghost)} |")
print(f"| `node -e ''` (does nothing) | {fmt(node)} |")
if ghost and node:
    print(f"| ghost / node | {ghost / node:.2f} |")

print()
print("| compressor on 1 MB of its class | in the sandbox | native | sandbox / native |")
print("| --- | --- | --- | --- |")
for case, label in [
    ("err-py-recursion", "error (Python recursion trace)"),
    ("struct-npm-hidden-lockfile", "structured (npm lockfiles as one JSON array)"),
    ("prose-bumpalo-3-20-3", "prose (a README, repeated)"),
    ("code-py-argparse", "code (argparse.py, repeated)"),
    ("code-rs-either-1-19-0-lib", "code (either's lib.rs, repeated)"),
]:
    wasm, native = median("class_1MB", case), median("class_1MB_native", case)
    ratio = f"{wasm / native:.2f}×" if wasm and native else "-"
    print(f"| {label} | {fmt(wasm)} | {fmt(native)} | {ratio} |")
