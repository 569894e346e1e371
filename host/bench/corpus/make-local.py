#!/usr/bin/env python3
"""Builds `host/bench/corpus/local/`: real output of real tools run on this
machine, each case laid out like ../shared/corpus/cases (input.txt +
meta.json), its must-keep lines picked by a rule written here before
ghost's output was looked at. Run from the repository root:

    python3 host/bench/corpus/make-local.py VENV_BIN

VENV_BIN holds ruff, mypy and pytest (`python3 -m venv v && v/bin/pip
install ruff mypy pytest`). Needs cargo, gcc, javac and node on PATH.
"""
import json, os, re, shutil, subprocess, sys, tempfile

OUT = os.path.join("host", "bench", "corpus", "local")
VENV = sys.argv[1] if len(sys.argv) > 1 else "venv/bin"
STDLIB = os.path.dirname(os.__file__)


def run(cmd, cwd=None, stderr=True):
    p = subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True)
    return p.stdout + (p.stderr if stderr else "")


def case(cid, cls, command, text, rule, how, tool="Bash"):
    keep = rule if isinstance(rule, list) else [l for l in text.splitlines() if rule(l)]
    assert keep, f"{cid}: the rule picked nothing"
    d = os.path.join(OUT, cid)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "input.txt"), "w").write(text)
    meta = {"id": cid, "class": cls, "tool": tool, "command": command,
            "source": "real tool output on this machine (host/bench/corpus/make-local.py)",
            "bytes": len(text.encode()), "must_keep": keep, "how_must_keep_was_derived": how}
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"), indent=1)
    print(f"{cid}: {len(text)} bytes, {len(keep)} must-keep")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    # ruff on a stdlib package, both formats: every diagnostic header.
    for pkg in ["email", "json"]:
        src = os.path.join(STDLIB, pkg)
        t = run(f"{VENV}/ruff check --no-cache --select F,E,W,B --output-format concise {src}")
        case(f"ruff-concise-{pkg}", "log", f"ruff check --output-format concise {pkg}", t,
             lambda l: re.match(r"^\S+:\d+:\d+: [A-Z]+\d+ ", l) or l.startswith("Found "),
             "every `path:line:col: CODE message` line and the `Found N errors` summary")
        t = run(f"{VENV}/ruff check --no-cache --select F,E,W,B {src}")
        case(f"ruff-full-{pkg}", "log", f"ruff check {pkg}", t,
             lambda l: re.match(r"^[A-Z]+\d+ ", l) or l.strip().startswith("--> ") or l.startswith("Found "),
             "every diagnostic header (`CODE message`), its `--> path:line:col` line and the summary")
    # mypy on stdlib modules: every error line and the summary.
    for mod in ["json", "http"]:
        t = run(f"{VENV}/mypy --strict --no-incremental --ignore-missing-imports {os.path.join(STDLIB, mod)}")
        case(f"mypy-{mod}", "log", f"mypy {mod}", t,
             lambda l: ": error: " in l or l.startswith("Found ") or l.startswith("Success"),
             "every `path:line: error:` line and the `Found N errors` summary")
    with tempfile.TemporaryDirectory() as tmp:
        # pytest on a small suite with failures.
        open(os.path.join(tmp, "test_calc.py"), "w").write(
            "import pytest\n\n"
            + "".join(f"def test_ok_{i}():\n    assert {i} + 1 == {i + 1}\n\n" for i in range(60))
            + "def test_div():\n    assert 1 / 2 == 0\n\n"
            + "def test_keys():\n    assert {'a': 1} == {'a': 2}\n\n"
            + "@pytest.mark.skip(reason='later')\ndef test_later():\n    pass\n")
        t = run(f"{VENV}/pytest -v test_calc.py", cwd=tmp)
        case("pytest-verbose", "log", "pytest -v test_calc.py", t,
             lambda l: l.startswith("FAILED ") or re.search(r"::\S+ FAILED", l) or re.match(r"^=+ .*\d+ (passed|failed).* in ", l) or l.startswith("E   "),
             "FAILED lines (verbose and short summary), E lines, the final summary")
        # unittest
        open(os.path.join(tmp, "test_u.py"), "w").write(
            "import unittest\nclass T(unittest.TestCase):\n"
            + "".join(f"    def test_{i}(self):\n        self.assertEqual({i}, {i})\n" for i in range(40))
            + "    def test_bad(self):\n        self.assertIn('x', 'abc')\n")
        t = run(f"{VENV}/python -m unittest -v test_u", cwd=tmp)
        case("unittest-verbose", "log", "python -m unittest -v test_u", t,
             lambda l: l.startswith("FAIL:") or l.startswith("AssertionError") or l.startswith("Ran ") or l.startswith("FAILED ("),
             "FAIL headers, the assertion line, `Ran N tests` and `FAILED (…)`")
        # gcc warnings and an error.
        open(os.path.join(tmp, "m.c"), "w").write(
            "#include <stdio.h>\nint f(int x) { int unused; if (x = 2) return 1; }\n"
            "int main(void) { char b[4]; sprintf(b, \"%s\", 42); printf(\"%d\\n\", \"s\"); return g(); }\n")
        t = run("gcc -Wall -Wextra -c m.c -o m.o", cwd=tmp)
        case("gcc-warnings", "log", "gcc -Wall -Wextra -c m.c", t,
             lambda l: re.match(r"^m\.c:\d+:\d+: (warning|error): ", l),
             "every `file:line:col: warning|error:` header")
        # javac errors.
        open(os.path.join(tmp, "A.java"), "w").write(
            "import java.util.*;\npublic class A {\n  int f() { return \"s\"; }\n  void g() { List<String> l = new ArrayList<>(); l.add(3); undefined(); }\n}\n")
        t = run("javac A.java", cwd=tmp)
        case("javac-errors", "log", "javac A.java", t,
             lambda l: re.match(r"^A\.java:\d+: error: ", l) or re.match(r"^\d+ errors?$", l),
             "every `A.java:N: error:` line and the error count")
        # node's test runner, TAP and spec.
        open(os.path.join(tmp, "t.test.mjs"), "w").write(
            "import test from 'node:test';\nimport assert from 'node:assert';\n"
            + "".join(f"test('adds {i}', () => assert.strictEqual({i} + 1, {i + 1}));\n" for i in range(50))
            + "test('parses dates', () => assert.strictEqual(new Date(0).getUTCFullYear(), 1971));\n")
        for rep in ["tap", "spec"]:
            t = run(f"node --test --test-reporter={rep} t.test.mjs", cwd=tmp)
            case(f"node-test-{rep}", "log", f"node --test --test-reporter={rep}", t,
                 lambda l: re.match(r"^not ok ", l.strip()) or re.match(r"^[#ℹ] (tests|pass|fail) \d+", l.strip()) or l.strip().startswith("✖ parses dates"),
                 "failing test lines and the pass/fail/tests counts")
    # cargo test of a crate of this repository (passing): every test result line.
    t = run("cargo test -p ghost-types -p ghost-log-folding -p ghost-store --offline 2>&1 | grep -v '^\\s*\\(Compiling\\|Finished\\|Blocking\\)'")
    case("cargo-test-passing", "log", "cargo test -p ghost-types -p ghost-log-folding -p ghost-store", t,
         lambda l: l.startswith("test result:"),
         "every `test result:` line")
    # pip list as JSON: every package name.
    t = run(f"{VENV}/pip list --format json", stderr=False)
    case("pip-list-json", "structured", "pip list --format json", t,
         [p["name"] for p in json.loads(t)], "every package name")
    # npm ls --all --json of a small real project: every package in the tree.
    with tempfile.TemporaryDirectory() as tmp:
        run("npm init -y && npm install --no-audit --no-fund express@4", cwd=tmp)
        t = run("npm ls --all --json", cwd=tmp, stderr=False)
        names = set()
        def walk(deps):
            for name, info in (deps or {}).items():
                names.add(name)
                walk(info.get("dependencies"))
        walk(json.loads(t).get("dependencies"))
        case("npm-ls-all-json", "structured", "npm ls --all --json", t, sorted(names),
             "every package name anywhere in the dependency tree")


main()
