#!/usr/bin/env python3
"""Builds `host/bench/corpus/local/`: real output of real tools run on this
machine, each case laid out like ../shared/corpus/cases (input.txt +
meta.json), its must-keep lines picked by a rule written here before
ghost's output was looked at. Run from the repository root:

    python3 host/bench/corpus/make-local.py VENV_BIN

VENV_BIN holds ruff, mypy and pytest (`python3 -m venv v && v/bin/pip
install ruff mypy pytest`). Needs cargo, gcc, javac, java, make and node on
PATH.

`python3 host/bench/corpus/make-local.py VENV_BIN --add` writes only the
cases of `more_cases()` (added later, with their rules written before
ghost's output was looked at) and leaves the others as they are.
"""
import json, os, re, shutil, subprocess, sys, tempfile

OUT = os.path.join("host", "bench", "corpus", "local")
VENV = next((a for a in sys.argv[1:] if not a.startswith("--")), "venv/bin")
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


def more_cases():
    """Cases added in a second round, across more tools (rules first)."""
    with tempfile.TemporaryDirectory() as tmp:
        # A Rust crate that does not compile: every `error[E…]`/`warning:`
        # header and its `--> file:line:col` line, and the final `error:`.
        crate = os.path.join(tmp, "broken")
        os.makedirs(os.path.join(crate, "src"))
        open(os.path.join(crate, "Cargo.toml"), "w").write(
            '[package]\nname = "broken"\nversion = "0.1.0"\nedition = "2021"\n')
        open(os.path.join(crate, "src", "lib.rs"), "w").write(
            "use std::collections::HashMap;\n\n"
            "pub fn total(xs: &[u32]) -> u32 {\n    let mut sum = 0;\n    for x in xs { sum += x }\n    sum as u64\n}\n\n"
            "pub fn name(m: &HashMap<String, String>) -> &str {\n    m.get(\"name\")\n}\n\n"
            "pub fn unused_arg(a: i32, b: i32) -> i32 { let c = 3; a }\n")
        t = run("cargo build --offline --color never", cwd=crate)
        case("cargo-build-errors", "log", "cargo build", t,
             lambda l: re.match(r"^(error|warning)(\[[A-Z]\d+\])?: ", l) or l.strip().startswith("--> "),
             "every `error[E…]:`/`warning:` header, every `--> file:line:col` line, the final `error:` line")
        # The same crate fixed, with a failing test: the panic messages,
        # the failing test names, the `test result:` line.
        open(os.path.join(crate, "src", "lib.rs"), "w").write(
            "pub fn total(xs: &[u32]) -> u32 { xs.iter().sum() }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n"
            + "".join(f"    #[test]\n    fn sums_{i}() {{ assert_eq!(total(&[{i}, 1]), {i + 1}); }}\n" for i in range(30))
            + "    #[test]\n    fn sums_wrongly() { assert_eq!(total(&[2, 2]), 5, \"two and two\"); }\n"
            + "    #[test]\n    fn overflows() { let v = vec![u32::MAX, 1]; assert!(total(&v) > 0); }\n}\n")
        t = run("cargo test --offline --color never 2>&1 | grep -v '^\\s*\\(Compiling\\|Finished\\|Running\\)'", cwd=crate)
        case("cargo-test-failing", "log", "cargo test", t,
             lambda l: re.match(r"^test \S+ \.\.\. FAILED", l) or l.startswith("test result:")
             or re.match(r"^thread '.*'( \(\d+\))? panicked at ", l) or l.startswith("  left:") or l.startswith(" right:")
             or l.startswith("attempt to add with overflow") or l.startswith("assertion `left == right` failed"),
             "FAILED test lines, panic headers and their messages (left/right), `test result:`")
        # make running a failing compile: the compiler's error header and make's `*** … Error` line.
        open(os.path.join(tmp, "Makefile"), "w").write(
            "all: a.o b.o\n\n%.o: %.c\n\tgcc -Wall -c $< -o $@\n")
        open(os.path.join(tmp, "a.c"), "w").write("int a(void) { return 1; }\n")
        open(os.path.join(tmp, "b.c"), "w").write("int b(void) { return undefined_thing + 1; }\n")
        t = run("make", cwd=tmp)
        case("make-failure", "log", "make", t,
             lambda l: re.match(r"^b\.c:\d+:\d+: error: ", l) or l.startswith("make: ***"),
             "the compiler's `file:line:col: error:` header and make's `make: *** … Error` line")
        # A Python script that crashes with a chained exception: every
        # exception line and the project's own frames.
        open(os.path.join(tmp, "load.py"), "w").write(
            "import json\n\ndef read(path):\n    with open(path) as f:\n        return json.load(f)\n\n"
            "def config():\n    try:\n        return read('missing.json')\n    except FileNotFoundError as e:\n"
            "        raise RuntimeError('no configuration found') from e\n\nprint('starting')\nconfig()\n")
        t = run("python3 load.py", cwd=tmp)
        case("python-chained-crash", "error", "python3 load.py", t,
             lambda l: re.match(r"^\w+(Error|Exception): ", l) or re.search(r'File ".*load\.py", line \d+', l),
             "every exception line and every frame in load.py")
        # Node throwing from nested calls: the error line and the script's frames.
        open(os.path.join(tmp, "app.js"), "w").write(
            "function parse(s) { return JSON.parse(s).items.map(x => x.id); }\n"
            "function main() { console.log('parsing'); return parse('{\"items\": null}'); }\nmain();\n")
        t = run("node app.js", cwd=tmp)
        case("node-type-error", "error", "node app.js", t,
             lambda l: l.startswith("TypeError: ") or re.search(r"at \w+ \(.*app\.js:\d+:\d+\)", l),
             "the TypeError line and every frame in app.js")
        # A Java program dying with a cause chain: the exception lines and
        # the program's own frames.
        open(os.path.join(tmp, "Main.java"), "w").write(
            "import java.util.*;\npublic class Main {\n"
            "  static int parse(String s) { return Integer.parseInt(s); }\n"
            "  static List<Integer> all(List<String> xs) { List<Integer> out = new ArrayList<>(); for (String x : xs) out.add(parse(x)); return out; }\n"
            "  public static void main(String[] a) {\n    try { all(List.of(\"1\", \"x2\")); }\n"
            "    catch (NumberFormatException e) { throw new IllegalStateException(\"bad input list\", e); }\n  }\n}\n")
        t = run("javac Main.java && java Main", cwd=tmp)
        case("java-caused-by", "error", "java Main", t,
             lambda l: re.match(r"^(Exception in thread|Caused by: )", l) or re.search(r"at Main\.\w+\(Main\.java:\d+\)", l),
             "the exception and `Caused by:` lines and every frame in Main.java")
        # pip installing a local package verbosely, offline: every
        # `Processing`/`Building`/`Created wheel`/`Successfully` line.
        pkg = os.path.join(tmp, "pkg")
        os.makedirs(os.path.join(pkg, "tinypkg"))
        open(os.path.join(pkg, "tinypkg", "__init__.py"), "w").write("X = 1\n")
        open(os.path.join(pkg, "pyproject.toml"), "w").write(
            '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
            '[project]\nname = "tinypkg"\nversion = "0.1.0"\n')
        venv2 = os.path.join(tmp, "v")
        run(f"python3 -m venv {venv2}")
        t = run(f"{venv2}/bin/pip install --no-build-isolation --no-index -v {pkg}")
        case("pip-install-verbose", "log", "pip install -v ./pkg", t,
             lambda l: re.match(r"^(Processing |Building wheels|Created wheel|Successfully |ERROR: |error: |× |Installing collected)", l.strip()),
             "Processing, Building wheels, Created wheel, Installing collected, Successfully lines; every `error:`/`ERROR:` line and pip's `×` failure lines")
    # cargo metadata of this repository: every package name.
    t = run("cargo metadata --format-version 1 --offline --no-deps", stderr=False)
    case("cargo-metadata-json", "structured", "cargo metadata --format-version 1 --no-deps", t,
         sorted({p["name"] for p in json.loads(t)["packages"]}), "every package name")


def main():
    if "--add" in sys.argv:
        more_cases()
        return
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
    more_cases()


main()
