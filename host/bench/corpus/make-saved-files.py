#!/usr/bin/env python3
"""Builds a set of real texts labelled by where they come from, to measure
what the classifier makes of a saved file (`ghost classify saved.txt`: no
tool, no command, only a weak `.txt` path), on texts it was not tuned on:

    python3 host/bench/corpus/make-saved-files.py OUT_DIR
    ./target/release/ghost-bench corpus OUT_DIR --as-saved-file --cases

Taken from this machine, a fixed random pick (seed 20261126):
- code: Rust sources of crates in cargo's registry, Python's standard
  library, C headers in /usr/include, Perl modules, shell scripts in
  /usr/bin;
- structured: crates' Cargo.toml, iso-codes' JSON, YAML files of crates;
- prose: crates' README.md and CHANGELOG.md, Debian's READMEs;
- log: /var/log's logs and the output of commands run here (a test suite
  at -v, unittest failing, git log --stat, ps, ls -la, perl -V, apt-cache,
  Maven, javac and gcc diagnostics and help, node's test runner, pip list,
  npm ls, cargo tree, pip check);
- error: programs dying (Python recursion, JSON and a chained exception,
  Node's TypeError, a Java stream's NullPointerException).

Files under 1 KB are skipped (but errors from 150 bytes), files over 200 KB
cut. The class is the file's origin, written before the classifier is run.
The set depends on what this machine holds; the README gives its figures.
"""

import glob
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

SEED = 20261126
MAX_BYTES = 200_000


class Writer:
    def __init__(self, out):
        self.out = Path(out)
        self.n = 0

    def add(self, cls, source, text, tag, min_bytes=1024):
        if len(text) < min_bytes:
            return False
        self.n += 1
        case = self.out / f"fr-{tag}-{self.n:03d}"
        case.mkdir(parents=True)
        (case / "input.txt").write_text(text[:MAX_BYTES], encoding="utf-8")
        meta = {"class": cls, "tool": None, "command": None, "source": source, "must_keep": []}
        (case / "meta.json").write_text(json.dumps(meta, indent=1))
        return True


def read(path):
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def pick(writer, cls, tag, paths, count):
    taken = 0
    for p in paths:
        if taken >= count:
            break
        taken += writer.add(cls, p, read(p), tag)


def shell_scripts():
    found = []
    for f in sorted(glob.glob("/usr/bin/*")):
        try:
            with open(f, "rb") as fh:
                head = fh.read(30)
        except OSError:
            continue
        if head.startswith((b"#!/bin/sh", b"#! /bin/sh", b"#!/bin/bash")):
            found.append(f)
    return found


def run(cmd, cwd):
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True, errors="replace", cwd=cwd)
    return r.stdout + r.stderr


COMMANDS = {
    "python-test-v": "python3 -m test test_textwrap -v 2>&1 | head -300",
    "unittest-fail": "printf 'import unittest\\nclass T(unittest.TestCase):\\n' > t.py && "
    "for i in $(seq 1 40); do printf '    def test_%s(self):\\n        self.assertEqual(%s %% 7, 3)\\n' $i $i >> t.py; done "
    "&& python3 -m unittest -v t",
    "git-log-stat": "git -C {repo} log --stat -15",
    "ps": "ps aux",
    "ls-la": "ls -la /usr/lib/x86_64-linux-gnu | head -250",
    "perl-V": "perl -V",
    "apt-policy": "apt-cache policy gcc python3 git make perl",
    "mvn": "mvn -v; mvn -o help:system | head -80",
    "javac": "printf 'public class A {\\n  void f() { int x = \"s\"; undefined(); String s = 1; }\\n"
    "  void g() { List<String> l; y = 2; }\\n}\\n' > A.java && javac -Xlint:all A.java; javac -help | head -60",
    "gcc": "printf '#include <stdio.h>\\nint f(int a){ int b; if(a) return b; }\\nint main(){ char buf[4]; "
    "sprintf(buf, \"%%d\", 123456); printf(\"%%s\"); unused_fn(); return f(1); }\\n' > m.c && "
    "gcc -Wall -Wextra -O2 -c m.c; make -C /nonexistent; gcc -Q --help=warnings | head -120",
    "node-test": "printf \"const t=require('node:test');const a=require('node:assert');\\n"
    "for(let i=0;i<30;i++){t.test('case '+i,()=>{a.strictEqual(i%%9,0)})}\\n\" > x.test.js && node --test x.test.js",
    "pip-list-v": "python3 -m pip list -v",
    "npm-ls": "npm ls --all --prefix {repo}/plugins/examples/json-compact-js | head -200",
    "cargo-tree": "cargo tree --manifest-path {repo}/Cargo.toml -p ghost-classifier | head -150",
    "pip-check": "python3 -m pip check; python3 -m pip install --dry-run --no-index nonexistentpkg; "
    "python3 -m pip debug --verbose | head -100",
}

CRASHES = {
    "py-recursion": "python3 -c 'def f(n): return f(n+1)\nf(0)' 2>&1 | head -40",
    "py-json": "python3 -c \"import json; json.loads(open('/etc/hostname').read()+'x{')\"",
    "py-chain": "python3 -c \"\ntry:\n  {}['k']\nexcept KeyError as e:\n  raise RuntimeError('config missing key') from e\n\"",
    "node-typeerror": "node -e \"const o={a:{b:null}}; function g(x){return x.a.b.c} "
    "function h(){return [1,2].map(()=>g(o))} h()\"; node -e 'JSON.parse(\"{bad\")'",
    "java-npe": "printf 'import java.util.*;\\npublic class B { static String f(Map<String,String> m)"
    "{ return m.get(\"k\").trim(); }\\n public static void main(String[] a){ List<Integer> l=List.of(1,2,3); "
    "l.stream().map(i -> f(new HashMap<>())).forEach(System.out::println);} }\\n' > B.java && javac B.java && java B",
}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make-saved-files.py OUT_DIR")
    writer = Writer(sys.argv[1])
    rng = random.Random(SEED)
    repo = Path(__file__).resolve().parents[3]
    crates = sorted(glob.glob(os.path.expanduser("~/.cargo/registry/src/*/*")))
    rng.shuffle(crates)

    def shuffled(paths):
        paths = sorted(paths)
        rng.shuffle(paths)
        return paths

    pick(writer, "code", "rs", shuffled(f for c in crates[:80] for f in glob.glob(c + "/src/*.rs")), 15)
    stdlib = os.path.dirname(os.__file__)
    pick(writer, "code", "py", shuffled(glob.glob(stdlib + "/*.py")), 15)
    pick(writer, "code", "h", shuffled(glob.glob("/usr/include/*.h")), 10)
    perl = glob.glob("/usr/share/perl5/**/*.pm", recursive=True) + glob.glob("/usr/share/perl/*/*.pm")
    pick(writer, "code", "pm", shuffled(perl), 8)
    pick(writer, "code", "sh", shuffled(shell_scripts()), 8)
    pick(writer, "structured", "toml", shuffled(c + "/Cargo.toml" for c in crates[80:200]), 10)
    pick(writer, "structured", "json", shuffled(glob.glob("/usr/share/iso-codes/json/*.json")), 5)
    ymls = (f for c in crates[200:500] for f in glob.glob(c + "/.github/workflows/*.yml") + glob.glob(c + "/*.yml"))
    pick(writer, "structured", "yml", shuffled(ymls), 10)
    pick(writer, "prose", "md", shuffled(c + "/README.md" for c in crates[300:]), 15)
    pick(writer, "prose", "changelog", shuffled(c + "/CHANGELOG.md" for c in crates), 8)
    docs = (f for f in glob.glob("/usr/share/doc/*/README*") if not f.endswith(".gz"))
    pick(writer, "prose", "doc", shuffled(docs), 8)
    for f in ["/var/log/dpkg.log", "/var/log/alternatives.log", "/var/log/apt/history.log",
              "/var/log/apt/term.log", "/var/log/fontconfig.log"]:
        writer.add("log", f, read(f)[-60000:], "varlog")
    with tempfile.TemporaryDirectory() as scratch:
        for tag, cmd in COMMANDS.items():
            cmd = cmd.replace("{repo}", str(repo))
            writer.add("log", cmd, run(cmd + " 2>&1", scratch), tag)
        for tag, cmd in CRASHES.items():
            writer.add("error", cmd, run(cmd + " 2>&1", scratch), tag, min_bytes=150)
    print(f"{writer.n} cases in {writer.out}")


if __name__ == "__main__":
    main()
