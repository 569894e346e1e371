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

`--round3` writes only the third round's cases (`third_cases()`: Go, Ruby,
PHP, JUnit, jest, vitest, mocha, eslint, tsc, prove, g++, the linker,
valgrind, pylint, flake8, nextest, npm and go JSON; and `crash_cases()`:
programs crashing in Go, Ruby, PHP, Perl, Node and Python), rules again written
before ghost's output was looked at. It needs go, ruby, rspec, rubocop,
php, phpunit, junit4 (Debian packages: golang-go ruby ruby-rspec rubocop
php-cli phpunit junit4), valgrind, cargo-nextest, pylint and flake8 in
VENV_BIN, and a folder given by `--js DIR` where `npm install jest vitest
mocha eslint@9 typescript` was run.

`--round4` writes only `fourth_cases()`: Elixir (ExUnit, a compile error,
a crash), OCaml, Lua and R (Debian packages elixir, ocaml-nox, lua5.4,
r-base-core).

`--round5` writes only `help_cases()`: help texts and manual pages (pip,
go, gcc, rspec, python3, ruff, mypy, man grep, man tar).

`--round6 --js DIR` writes only `json_cases()`: JSON reports of ruff,
mypy (JSON lines) and eslint, `npm view --json`, `pip inspect`.

`--round8 --js DIR` writes only `lint_cases()`: linters and installers whose
formats no rule of ghost was written for: shellcheck (both formats),
yamllint, black, isort, bandit, pyright, prettier, markdownlint, cppcheck,
npm and pip failing to install, pytest failing to collect (Debian
packages shellcheck cppcheck; yamllint black isort bandit in VENV_BIN;
pyright prettier markdownlint-cli in DIR).

`--round9 --js DIR` writes only `more_lint_cases()`, run once the eighth
round's fixes were in, to see whether they hold on tools none of ghost's
rules was looked at against: pycodestyle, pydocstyle, vulture, codespell,
xmllint, tidy, perlcritic, jshint, htmlhint, clippy, rustfmt --check,
npm outdated (Debian packages libxml2-utils tidy
libperl-critic-perl; pycodestyle pydocstyle vulture codespell in VENV_BIN;
jshint htmlhint in DIR).

`--round10` writes only `tenth_cases()`, run once the ninth round's fixes
were in, again before any change: minitest, bats, luacheck, sqlfluff,
cpplint, pyflakes, cmake failing to configure, apt-get and gem failing to
install, make -k over several broken files, pytest -q with --tb=line
(Debian packages bats lua-check cmake; sqlfluff cpplint pyflakes in
VENV_BIN).

`--round11 --js DIR` writes only `listing_cases()`: listings an agent asks
for, each line an item: `npm ls --all` and `cargo tree` (the tree rule was
written looking at these two), then `tree`, `ls -la`, `find`, `git log
--oneline`, `dpkg -l`, `pip list`, `pip freeze` (Debian package tree).

`--round12 --js DIR` writes only `twelfth_cases()`, run once round 11's
fixes were in, before any change: pip and npm installing with success,
doctest failing, javac -Xlint warnings, gcc -fanalyzer, coverage tables of
pytest-cov and jest, ruff format --check, git diff --stat, git status,
go test -cover (pytest-cov in VENV_BIN).

`--round13` writes only `thirteenth_cases()`: long logs where one error
comes back many times with new numbers: a PostgreSQL server's log under a
client retrying inserts it made already, wget and curl retrying a closed
port, pip and npm retrying a closed index, Python's http.server answering
404s, dmesg (Debian packages postgresql wget curl).

`--round14` writes only `fourteenth_cases()`: big runs an agent reads:
`cargo build -v` with dependencies, clippy's pedantic lints and `cargo
test` over a real crate (base64 from cargo's registry), CPython's and Go's
standard library tests at -v, more-itertools' own suite under pytest -v,
`pip install -vv`, pip building a C extension at -v, `npm install
--verbose`, apt-get reinstalling, Maven failing to reach its repository,
a CMake build, and deep crashes (Java's and Go's stack overflows, Python's
http.server on a taken port) (Debian packages cmake golang-go; needs the
network for crates.io, PyPI and npm, and root for apt-get).

`--round15` writes only `fifteenth_cases()`: tools of ecosystems no earlier
round ran: ansible-playbook with a failing task, pre-commit with local
hooks, tox with a passing and a failing env, sphinx-build with broken
references, Django's test runner at -v 2, Hypothesis falsifying a
property, gfortran, GHC, `uv pip install`, `mkdocs build --strict`
(Debian packages gfortran ghc; ansible-core pre-commit tox sphinx django
hypothesis uv mkdocs in VENV_BIN).

`--round16` writes only `code_cases()`: source files an agent reads, in
languages the code cases lack: Go (its standard library), C (libraries
vendored in cargo's registry), TypeScript (rxjs, from npm), Java (the JDK's
sources), Ruby (its standard library), PHP (Composer), Perl and shell
(Debian packages golang-go ruby openjdk-17-source composer).

`--round17` writes only `lockfile_cases()`: lockfiles of uv, pnpm and Yarn
1, each resolving a small real project from its registry (uv in VENV_BIN;
pnpm and yarn through npx).

`--round18` writes only `library_crash_cases()`: programs dying inside
library code: Ruby (JSON, OptionParser), Node (the yaml package from
npm), Java (a stream's lambda), PHP (Composer's semver) (Debian packages
ruby php-cli composer).

`--round19` writes only `maven_cases()`: Maven builds of a small Java
project, offline against Debian's repository (Debian packages maven,
maven-debian-helper, libsurefire-java, junit4): surefire with failing
tests, surefire passing, and a compile error.

`--round20` writes only `gradle_cases()`: Gradle 4.4 (Debian's, offline,
JUnit 4 from /usr/share/java) on a small Java project: failing tests with
the default logging and with every test's event and full exceptions, and
a compile error (Debian packages gradle junit4).

`--round21` writes only `twenty_first_cases()`: formats no rule of ghost
was read against: AddressSanitizer, LeakSanitizer and UBSan reports, gdb's
backtrace, valgrind's invalid read, pytest with setup errors and with -x
over parametrized tests, unittest's subtests, a failing doctest under
cargo test, Test::Unit, rake, prove with subtests, a conflicting git merge,
sqlite3 reading a broken script, Node's error with a cause, pip failing to
resolve and make -k -j2 (pytest in VENV_BIN; Debian packages gdb valgrind
sqlite3).

`--round22 --js DIR` writes only `twenty_second_cases()`, run once round
21's fixes were in, before any change: Go tests over several packages, the
race detector and vet; PHPUnit and a PHP TypeError; RSpec with pending
examples; esbuild, jest, tsc and mocha (in DIR); CTest, a configure script,
clang-tidy, valgrind on uninitialised memory; mypy --pretty and tox (in
VENV_BIN); clippy denying warnings; asyncio's unretrieved task exception
(Debian packages golang-go php-cli phpunit ruby-rspec cmake autoconf
clang-tidy).

`--round23` writes only `ci_job_cases()`: whole CI jobs under `bash -x`
on real projects with a bug put in: python-dateutil's suite under pytest -v
and strsim from cargo's registry (pip needs network).

`--round24` writes only `native_crash_cases()`: native crashes (the
sanitizers, gdb, glibc's aborts, valgrind, Python's faulthandler, Node out
of heap).

`--round25 --js DIR` writes only `js_tool_cases()`: Biome, oxlint,
stylelint, AVA, node-tap, c8 and a vite build (in DIR).

`--round26 --js DIR` writes only `php_and_link_cases()`: PHPUnit 9 with a
data provider's failing cases and errors thrown through the project's
classes (Debian's phpunit), markdown-link-check offline (in DIR).

`--round27` writes only `dotnet_cases()`: .NET as Debian's Mono runs it
(mcs errors among warnings, NUnit 2.6's console plain and with -labels,
its XML result, a program dying of a wrapped exception; Debian packages
mono-mcs mono-runtime nunit-console libnunit-cil-dev).

`--round28` writes only `beam_and_clojure_cases()`: Erlang (erlc, EUnit
plain and verbose, an escript crash) and Clojure (clojure.test, a crash
reported on stderr); Debian packages erlang-base erlang-eunit erlang-dev
clojure.

`--round29 VENV_BIN` writes only `native_trace_in_log_cases()`: a crash's
trace inside a longer log (AddressSanitizer and LeakSanitizer under `make
check`, valgrind over a test loop, gdb in a CI script under `bash -x`, a
Rust backtrace under `cargo test`, a Go test's panic, a pytest run dying in
faulthandler; pytest in VENV_BIN).

`--round30 VENV_BIN --js DIR` writes only `event_stream_cases()`: reports
tools print for machines (go test -json, go vet -json, cargo build
--message-format=json, gcc -fdiagnostics-format=json, pip install
--dry-run --report with network, oxlint's and Biome's JSON reports in
DIR).

`--round31 --js DIR` writes only `diff_cases()`: diffs an agent reads (git diff of
edits to standard-library modules, git show, git log -p, diff -u of two
configuration files, a rename across many files, a Cargo.lock updated).

`--round32 VENV_BIN` writes only `history_cases()`: lists of records (git
log and git log --stat of this repository at a fixed commit, pip show of
four packages in VENV_BIN).

`--round33` writes only `whole_trace_cases()`: a long log in which one
failure printed its stack trace and the run went on (a Node job runner, a
Python thread dying, a Java batch's printStackTrace with its cause, a Ruby
worker's rescued backtrace).

`--round34` writes only `config_cases()`: manifests, configuration and
data files an agent reads (two crates' Cargo.toml, a GitHub workflow, boto's
pylintrc, a gcloud flags YAML, a Maven POM, a Go dependency TSV, rows of a
Go checksum CSV), all from packages on this machine.

`--round35` writes only `json_config_cases()`: JSON an agent reads that
is mostly maps, not arrays of records (go env -json, npm view's versions,
three package.json files, all from this machine or its registry).

`--round36` writes only `system_listing_cases()`: listings of a machine's
state, a record a line (nm -D, apt list --installed, getent services,
readelf -S and -Ws).

`--round37` writes only `unhinted_cases()`: what is piped into ghost with
no tool and no path (Ruby source, Cargo.toml manifests, CI workflows, a
YAML table of flags) and cargo-nextest's run of a reference-test crate.

`--round38` writes only `unseen_tool_cases()`: tools no earlier round ran
(terraform validate, plan and fmt, javadoc's doclint, cargo doc's broken
links, strace, perl's warnings, npm query).

`--round39 VENV_BIN` writes only `unseen_runner_cases()`: test runners and
build tools no earlier round ran (Meson and Ninja, meson test, Robot
Framework, behave, busted, testthat, PHP_CodeSniffer, pytest-xdist,
pip-compile with network, cfn-lint); Debian packages meson ninja-build
lua-busted r-cran-testthat php-codesniffer, and in VENV_BIN robotframework
behave pytest pytest-xdist pip-tools cfn-lint.

`--round40` writes only `more_language_code_cases()`: source files in
languages no code case is in (Lua from Penlight and busted, Tcl's library,
libstdc++'s headers); Debian packages lua-busted (with lua-penlight) and
tcl.

`--round41` writes only `script_language_code_cases()`: source files in R
(remotes), Vim script (Vim's runtime), PowerShell (a venv's activation
script in cargo's registry) and SQL (PostgreSQL's catalog); Debian
packages r-cran-remotes (with r-cran-testthat), vim-runtime and
postgresql.

`--round42` writes only `held_out_script_code_cases()`: more R and Vim
script files (robustbase, TH.data, Vim's completion scripts), added after
the rules for those languages were written from round 41; Debian packages
r-cran-robustbase, r-cran-th.data and vim-runtime.

`--round43` writes only `markup_prose_cases()`: documents in
reStructuredText (awscli in the machine's Python, wadllib, cachetools in
the Google Cloud SDK, RustPython's email docs in cargo's registry), Perl's
POD and Org (R's mets).

`--round44 VENV_BIN` writes only `hashed_lockfile_cases()`: pinned requirements
and lockfiles with their checksums (pip-compile --generate-hashes of two
sets of requirements, pip refusing a package whose hash does not match,
pipenv's Pipfile.lock, go.sum of three Go projects fetched as git mirrors
under /work/.mirror: cli/cli, prometheus/node_exporter, junegunn/fzf);
needs PyPI, and in VENV_BIN pip-tools and pipenv.

`--round45` writes only `digest_table_cases()`: tables of Debian packages
with their versions and checksums, from apt-cache's package lists (a CSV
printed by a pipeline, a TSV file read), added after the rule that folds a
table's digests beside its versions was written.

`--round46` writes only `npm_tree_cases()`: `npm ls --all --json` of
installed trees (eslint with jest, webpack with its CLI, express with axios
and lodash in `--long` form); needs the npm registry.

`--round47 VENV_BIN` writes only `package_tool_cases()`: package managers,
auditors, profilers and build tools no earlier round ran (npm's ERESOLVE
and audit as text and JSON, pip-audit, pip breaking an installed package,
cargo failing to resolve, R CMD check, criterion, PostgreSQL's EXPLAIN ANALYZE, strace -c, a Fortran
bounds check, python -X importtime, naga); needs the npm registry, PyPI,
crates.io, pip-audit in VENV_BIN, and Debian packages
r-base-core postgresql strace gfortran, naga on PATH.

`--round48 VENV_BIN` writes only `dependency_upkeep_cases()`: keeping
dependencies up to date and finding what is slow (cargo update of a held
back lockfile, cargo tree -d of this workspace, cargo check's short
diagnostics, pip list --outdated and pip install -U, npm outdated --json,
npm explain, pytest --durations, cProfile's table); needs crates.io, PyPI
and the npm registry, pytest in VENV_BIN.

`--round49` writes only `listing_dump_cases()`: listings and dumps (npm
pack --dry-run of round 46's installed express, cargo package --list of
regex from cargo's registry, ldd, php -m, perl -V, git shortlog -sn of the
fzf mirror, pg_dump --schema-only and psql's \\d+ of a table); Debian
packages php-cli postgresql.

`--round50 VENV_BIN` writes only `test_report_cases()`: JUnit-style XML
test reports (pytest --junitxml over python-dateutil and more-itertools
with a bug put in, Maven surefire's reports of round 19's project, Node's
junit reporter, mocha's xunit reporter, jest-junit, libtest's junit format
over strsim with a bug put in); needs PyPI and the npm registry, pytest,
hypothesis and freezegun in VENV_BIN, Debian's maven with its repository
(maven-debian-helper; skipped without it), and a nightly toolchain.

`--round51` writes only `verbose_run_twin_cases()`: tuning twins of
`strace-missing-file` (strace of node) and `cargo-build-verbose` (another
crate), their rules their twins'; needs crates.io and strace.

`--round52 VENV_BIN` writes only `build_system_cases()`: build systems and
C tooling on a small C ring buffer with a bug put in (meson and ninja,
CMake and CTest with its JUnit XML, SCons, gprof, gcov, GNU time -v, curl
-v against a local 404, `npm run` of a failing script); meson, ninja,
cmake and scons in VENV_BIN (PyPI), gcc, gprof, gcov, curl, node.

`--round53 VENV_BIN` writes only `listing_tool_cases()`: longer outputs
(pytest --collect-only, cargo test -- --list, unzip -l, dpkg -L, openssl
x509 -text, git log --stat, ninja -v over 40 files, CTest over 60 tests,
objdump -d, gprof's whole report); PyPI, round 52's tools.

`--round54 VENV_BIN` writes only `collect_twin_cases()`: a tuning twin of
`pytest-collect-only-dateutil` (pytest --collect-only over packaging's
suite); pytest and pretend in VENV_BIN, PyPI.

`--round55 VENV_BIN` writes only `package_install_cases()`: yarn 1, pnpm
and `npm ci` installing, `yarn why`, `pnpm why`, `npm ls debug`, poetry
install, pipenv install, `uv pip install` of fifteen packages, `pip check`
over a broken environment; poetry and pipenv in VENV_BIN, the npm
registry and PyPI.

`--round56` writes only `js_project_tool_cases()`: tsc --checkJs, eslint,
prettier --check over express's sources, jest --coverage, license-checker,
madge --circular, webpack missing a module; the npm registry.

`--round57 VENV_BIN` writes only `install_twin_cases()`: a tuning twin of
`pipenv-install` (pipenv installing click and attrs); PyPI.

`--round58 VENV_BIN` writes only `json_listing_cases()`: yarn list --json,
pnpm list --json, uv pip list --format json, npm config ls --json, cargo
metadata --no-deps of this workspace, rustc's target spec, Python's
sysconfig as JSON; uv in VENV_BIN, the npm registry and PyPI, nightly.

`--round59` writes only `yarn_list_twin_cases()`: a tuning twin of
`yarn-list-json` (a command-line tool's tree); the npm registry.

`--round61` writes only `crash_twin_cases()`: tuning twins of the
crashes the classifier missed in the evaluation half: node running out of
heap (V8's numbered native frames), UBSan's `runtime error:` reports in a
program's output, `php -l` of a file that does not parse.

`--round62` writes only `yarn_lock_twin_cases()`: a tuning twin of
`lock-yarn` (Yarn 1's lockfile of a command-line tool); the npm registry.

`--round63 VENV_BIN` writes only `verbose_build_cases()`: held-out
verbose builds and a crash, all in the evaluation half: `make V=1` of a
C library, `cmake --build --verbose` of it under Ninja, `cargo build
-vv` of a crate whose build script warns, node overflowing its stack;
cmake and ninja in VENV_BIN.

`--round64 VENV_BIN` writes only `verbose_build_twin_cases()`: tuning
twins of round 63's builds (another C library under `make V=1` and
`cmake --build --verbose`, `cargo build -vv` of another crate whose
build script warns); cmake and ninja in VENV_BIN.

`--round65` writes only `held_out_runtime_cases()`: held out, all in the
evaluation half: a Fortran program stopped by its bounds check (with
its backtrace), a Tcl script dying of an error (with its errorInfo),
`perl -c` of a script that does not parse, `javac -Xlint:all` over
classes with rawtypes, unchecked, deprecation and fallthrough warnings.

`--round66` writes only `runtime_twin_cases()`: tuning twins of round
65's two misclassified crashes: a Perl script that does not compile (run,
not `-c`), a Tcl script calling a command that does not exist.

`--round67` writes only `held_out_package_build_cases()`: held out, all
in the evaluation half: `R CMD INSTALL` of a package with C code that
`-Wall` warns about, `pandoc --verbose` of a document with an unused
note and a missing image, a Perl module's `perl Makefile.PL && make &&
make test` with a failing test.

`--round68` writes only `perl_make_test_twin_cases()`: a tuning twin of
`perl-module-make-test` (another Perl module, two test files, one
failing).

`--round69` writes only `held_out_shell_file_cases()`: held out, all in
the evaluation half: files and listings an agent prints through its
shell (`cat` of a Makefile, a Dockerfile and /etc/os-release, `sed -n`
of a Rust source, `ps aux`, `df -h`).

`--round70` writes only `shell_file_twin_cases()`: tuning twins of round
69's three misclassified files: `cat` of another Makefile and another
Dockerfile, and `locale` (settings as `KEY=value`).

`--round71` writes only `held_out_dev_tool_cases()`: held out, all in
the evaluation half: `rustc --explain E0382`, `git branch -vv` of a repo
with seven branches, sqlite3's `-header -column` query, `cargo --list`.

`--round72` writes only `dev_tool_twin_cases()`: tuning twins of round
71's `git branch -vv` (lines lost) and `rustc --explain` (called a log):
another repository's branches, `rustc --explain E0502`.

`--round73` writes only `held_out_file_list_cases()`: held out, all in
the evaluation half: long listings whose every line names a file beside
a status or a number: `git status --short` and `git diff --name-status`
over Python's standard library edited, `wc -l *.py`, `du -sh
/usr/share/*`, `grep -c import *.py`.

`--round74` writes only `file_list_twin_cases()`: tuning twins of round
73's two git listings that lost names: `git status --short` and `git
diff --name-status` over Perl's library (in folders) edited; and of its
`du -sh` (called structured): `du -sh /usr/lib/*`.

`--round75 VENV_BIN` writes only `held_out_named_listing_cases()`: held
out, all in the evaluation half: listings whose every line names a file
or a package beside a digest, a mode or a version: `sha256sum` of a
library, `git ls-files -s`, `pip show -f hypothesis`, `git log
--name-only`, `cargo tree --prefix none` of this workspace; pip in
VENV_BIN.

`--round76` writes only `named_listing_twin_cases()`: tuning twins of
round 75: `cargo tree --prefix none` of a crate using clap, serde_json,
regex, tokio, reqwest and tracing-subscriber, `git ls-files -s` and `sha256sum` of Python's `json` and
`xml` packages.

`--round77 VENV_BIN` writes only `held_out_name_list_cases()`: held out,
all in the evaluation half: names one a line with no folder in them:
`ls -1` of R's site library (423 packages), `pip freeze` of a venv of
102 packages; and a ranked count (`sort | uniq -c | sort -rn`) of
words; pip in VENV_BIN.

`--round78` writes only `held_out_setting_list_cases()`: held out, all
in the evaluation half: long lists of settings, each a name beside its
value: `getconf -a` (320), `npm config ls -l` (about 200).

`--round79` writes only `setting_list_twin_cases()`: a tuning twin of
round 78's `getconf -a` (names lost): `cat /proc/vmstat`.

`--round80` writes only `held_out_language_cases()`: held out, all in
the evaluation half: languages no round had run: Nim's unittest and
`nim check`, Free Pascal, D's unittests (gdc), Ada (gnatmake -k),
GnuCOBOL, SBCL's unhandled error and compile-file warnings, SWI-Prolog's
plunit, Guile's backtrace and Crystal's spec runner (Debian's nim,
fp-compiler, gdc, gnat, gnucobol3, sbcl, swi-prolog-nox, guile-3.0 and
crystal).

`--round81` writes only `language_twin_cases()`: tuning twins of round
80's misread cases: SBCL's unhandled error and Guile's backtrace (called
logs) and SBCL's compile-file warnings (saved as `.txt`, called code).

`--round82` writes only `held_out_jvm_and_racket_cases()`: held out, all
in the evaluation half: kotlinc's errors and `raco test` of rackunit
checks (Debian's kotlin and racket).

`--round83` writes only `racket_twin_cases()`: a tuning twin of round
82's `raco test` (saved as `.txt`, called prose): another rackunit suite.

`--round84` writes only `held_out_hardware_and_grammar_cases()`: held
out, all in the evaluation half: tools no round had run: bison's
counterexamples, flex, protoc, nasm, Icarus Verilog (elaboration errors,
a failing testbench), Verilator's lint, GHDL (analysis errors, a failing
testbench), pdflatex and chktex.

`--round85` writes only `hardware_and_grammar_twin_cases()`: tuning
twins of round 84's bison counterexamples, pdflatex (two: one making its
fonts anew) and chktex cases.

`--round86` writes only `held_out_build_and_docs_tool_cases()`: held
out, all in the evaluation half: Ant compiling Java, Doxygen's warnings,
include-what-you-use, gawk's lint, hyperfine, ApacheBench and lintian.

`--round87` writes only `build_and_docs_twin_cases()`: tuning twins of
round 86's gawk lint (not shrunk) and lintian (tags lost) cases.

`--round88 VENV_BIN --js DIR` writes only
`held_out_js_and_python_tool_cases()`: held out, all in the evaluation
half: bun's test runner, Jasmine, radon, interrogate, pytest-benchmark,
nose2 and djLint (Python tools in VENV_BIN, bun and jasmine from npm in
DIR).

`--round89 VENV_BIN` writes only `js_and_python_tool_twin_cases()`: a
tuning twin of round 88's radon report: another package's.

`--round90 --js DIR` writes only `held_out_analyser_and_linter_cases()`:
held out, all in the evaluation half: Checkstyle, flawfinder, massif read
by ms_print, PHP Mess Detector, lintr, CSpell and commitlint (cspell and
commitlint from npm in DIR).

`--round91` writes only `analyser_twin_cases()`: tuning twins of round
90's flawfinder audit and ms_print report.

`--round92 VENV_BIN` writes only `held_out_profile_and_coverage_cases()`:
held out, all in the evaluation half: callgrind_annotate, pipdeptree,
coverage.py's report and gcovr (the Python tools in VENV_BIN).

`--round93 VENV_BIN` writes only `coverage_twin_cases()`: a tuning twin
of round 92's coverage report.

`--round94` writes only `held_out_debugging_session_cases()`: held out,
all in the evaluation half: clang's static analyzer, `git bisect run`
and a script traced by `bash -x` failing.

`--round95` writes only `debugging_twin_cases()`: a tuning twin of round
94's `git bisect run`.

`--round98`, `--round99` and `--round100` write `perf report` and `node
--prof-process` cases (see their functions).

`--round101` writes only `gc_log_cases()`: two JVMs' unified GC logs
(`-Xlog:gc*`) up to an OutOfMemoryError: G1's (tuning half, a probe) and
the serial collector's (evaluation half, held out).

`--round102 --js DIR` writes only `trace_resolution_cases()`: `tsc
--traceResolution` of two projects with an import that does not resolve
(typescript and knip from npm in DIR): nodenext's (tuning half, a probe)
and bundler's (evaluation half, held out).

`--round103 VENV_BIN` writes only `call_tree_cases()`: pyinstrument's
call trees (`--show-all`, pyinstrument in VENV_BIN) of `pip list` (tuning
half, a probe) and `pydoc -k xml` (evaluation half, held out).

`--round104` writes only `cargo_log_cases()`: cargo's own debug log
(`CARGO_LOG=debug`) of a rebuild: after a source file changed (tuning
half, a probe) and after the manifest changed a dependency's features
(evaluation half, held out).

`--round105` writes only `go_bench_cases()`: `go test -bench . -benchmem`
of two standard-library packages: strconv's (tuning half, a probe) and
sort's (evaluation half, held out).

`--round106` writes only `held_out_go_bench_cases()`: `go test -bench .`
(no `-benchmem`) of bytes and unicode/utf8 (both evaluation half, held
out), written after round 105's rule was built.

`--round107 VENV_BIN --js DIR` writes only `debug_log_diagnostic_cases()`:
a checker's diagnostics amid its own debug log: `mypy -v` (mypy in
VENV_BIN; tuning half, a probe) and `eslint --debug` (eslint 9 and
@eslint/js 9 in DIR; evaluation half, held out).

`--round108` writes only `include_tree_cases()`: the include tree `-H`
prints while compiling: gcc's of a C file (tuning half, a probe) and g++'s
of a C++ file (evaluation half, held out).

`--round109` writes only `go_x_cases()`: the go tool printing every
command it runs (`-x`): `go build -x` of a package that does not compile
(tuning half, a probe) and `go test -x` of one whose test fails
(evaluation half, held out).

`--round110 VENV_BIN` writes only `django_check_cases()`: Django's
system checks (Django in VENV_BIN): `manage.py check` of a project whose
models break its rules (tuning half, a probe) and `manage.py check
--deploy` of one with insecure settings and a broken admin (evaluation
half, held out).

`--round111 VENV_BIN` writes only `scrapy_crawl_cases()`: Scrapy's log
of a crawl of a site served on 127.0.0.1 (Scrapy in VENV_BIN): a
catalogue whose spider fails on some pages and follows dead links
(tuning half, a probe) and a crawl whose pipeline drops items and whose
links lead to a refused port (evaluation half, held out).

`--round112 VENV_BIN` writes only `pytest_log_cases()`: pytest runs
whose code under test logs (pytest in VENV_BIN): `pytest -v
--log-cli-level=DEBUG`, the records printed live between the tests (tuning
half, a probe), and `pytest -rA --log-level=DEBUG`, the records captured
under each test's report (evaluation half, held out).

`--round113 --js DIR` writes only `rollup_cases()`: rollup 4 (in
DIR/node_modules) bundling: an app whose imports go unresolved and loop
(tuning half, a probe) and a library whose build warns, then fails on an
import its module does not export (evaluation half, held out).

`--round114 --js DIR` writes only `tsc_build_cases()`: `tsc --build
--verbose` (TypeScript 5 in DIR/node_modules) of monorepos of composite
projects: one whose shared package has type errors (tuning half, a
probe) and one rebuilt after a change, two packages failing (evaluation
half, held out).

`--round115 VENV_BIN` writes only `sql_echo_cases()`: SQLAlchemy's
engine log (SQLAlchemy and Alembic in VENV_BIN): an app's statements
echoed until a constraint fails (tuning half, a probe) and `alembic
upgrade head` with the engine's log on, a migration failing (evaluation
half, held out).

`--round116` writes only `npm_debug_log_cases()`: the debug log npm
writes under `~/.npm/_logs` when a command fails, read with `cat` as an
agent reads it after npm names it: `npm install` of packages one of which
does not exist (tuning half, a probe) and `npm install` of express and a
local package whose install script fails (evaluation half, held out).

`--round117` writes only `java_logging_cases()`: a Java batch job
logging with java.util.logging (the JDK's javac and java): the default
two-line records, a logged exception's trace among them (tuning half, a
probe), and records on one line by `SimpleFormatter.format` (evaluation
half, held out).

`--round118` writes only `node_warning_cases()`: Node programs that
run to their end while Node prints warnings with the stack that caused
each (`--trace-warnings`, `--trace-deprecation`): deprecated APIs in a
report script (tuning half, a probe) and an event emitter's listener leak
and an experimental API in a worker (evaluation half, held out).

`--round119` writes only `cargo_registry_cases()`: what cargo says of a
crate on the registry (crates.io through this machine's index):
`cargo info reqwest` and `cargo add tokio --features full` (tuning half,
probes), `cargo info tokio` and `cargo add reqwest --features json`
(evaluation half, held out).

`--round120` writes only `cargo_add_twin_cases()`: a tuning twin of
round 119's held-out `cargo add reqwest` (which lost most of its
features, its output unread): nine `cargo add` commands of a service's
dependencies run one after another, its rule round 119's.

`--round121` writes only `cargo_update_cases()`: `cargo update` of a
lock written against exact pins (`=4.0.32`) once the pins are relaxed
(`4.0.32`, cargo's default caret), each package
it moves a line in the order of their names (`Updating clap v4.0.32 ->
v4.5.x`, `Adding`, `Removing`): a command-line tool's dependencies
(tuning half, a probe) and, with `--verbose` (its `Unchanged` lines
too), a service's (evaluation half, held out); the rule written before
ghost ran on either, after the rule for cargo's sorted package lines
(session 63) was.

`--round122` writes only `cargo_update_large_cases()`: a held-out twin
of round 121 at a size a short log is not read whole at: `cargo update
--dry-run` of twenty crates' lock written against exact pins of their
2022 versions (evaluation half), its rule round 121's.

`--round123` writes only `cargo_update_verbose_cases()`: a tuning twin
of round 122 long enough to be folded: `cargo update --verbose` of
forty crates' lock written against exact pins of their 2021 and 2022
versions (tuning half, a probe), its rule round 121's.

`--round124` writes only `rust_link_error_cases()`: cargo builds whose
link step fails, rustc printing the linker's whole command line as one
note and the linker's own messages under it: symbols an `extern "C"`
block declares and nothing defines (tuning half, a probe) and a
`#[link(name = …)]` library that is not installed, in a test build
(evaluation half, held out).

`--round125 VENV_BIN` writes only `pytest_setup_show_cases(VENV_BIN)`:
pytest tracing its fixtures (`--setup-show`: a `SETUP`/`TEARDOWN` line
for each fixture around each test): a suite of sixty tests with
function fixtures, three failing and one fixture raising (tuning half, a
probe), and a suite with class, module and parametrized fixtures under
`-v` (evaluation half, held out).

`--round126` writes only `cargo_update_workspace_cases()`: `cargo
update --dry-run` of this repository's own workspace lock (wasmtime,
the parsers, the MCP and HTTP stacks: some 500 packages) against the
index of the day: long enough to be folded, updates, removals and
additions interleaved in the order of the names (tuning half, a probe),
its rule round 121's.

`--round127` writes only `encoded_data_cases()`: certificates printed
as text with their encoded bytes (hex bytes joined by `:`, the PEM
block's base64 lines): `openssl x509 -text` of a self-signed
certificate (tuning half, a probe) and `openssl req -text` of a
request with a longer key (evaluation half, held out).

`--round128 VENV_BIN` writes only `search_trace_cases(VENV_BIN)`: a
checker tracing its own search (`mypy -v`: `Metadata not found for …`
for each module it looks up, hundreds of times, the diagnostics among
them) on a package importing more of the standard library than round
107's probe (evaluation half, held out), its rule round 107's.

`--round7 --js DIR` writes only `prose_cases()`: Markdown documents an agent
reads: READMEs of crates in cargo's registry (~/.cargo/registry/src), of npm
packages in DIR/node_modules and Debian's /usr/share/doc.
"""
import glob, hashlib, json, os, re, shutil, subprocess, sys, tempfile, time

OUT = os.path.join("host", "bench", "corpus", "local")
VENV = next((a for a in sys.argv[1:] if not a.startswith("--")), "venv/bin")
STDLIB = os.path.dirname(os.__file__)


def run(cmd, cwd=None, stderr=True):
    p = subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True)
    return p.stdout + (p.stderr if stderr else "")


def git(cmd, cwd):
    """`git CMD` in `cwd` as a user of its own, with no pager."""
    return run(f"git -c user.name=dev -c user.email=dev@example.com -c core.pager=cat {cmd}", cwd=cwd)


def case(cid, cls, command, text, rule, how, tool="Bash"):
    keep = rule if isinstance(rule, list) else [l for l in text.splitlines() if rule(l)]
    keep = list(dict.fromkeys(keep))  # a line printed many times is one fact
    assert keep, f"{cid}: the rule picked nothing"
    d = os.path.join(OUT, cid)
    # An id names one case: a case of another round under the same id
    # (another command or rule) would be overwritten.
    old = os.path.join(d, "meta.json")
    if os.path.exists(old):
        was = json.load(open(old))
        assert (was.get("command"), was.get("how_must_keep_was_derived")) == (command, how), \
            f"{cid}: the id is taken by another case ({was.get('command')!r}); choose another"
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "input.txt"), "w").write(text)
    meta = {"id": cid, "class": cls, "tool": tool, "command": command,
            "source": "real tool output on this machine (host/bench/corpus/make-local.py)",
            "bytes": len(text.encode()), "must_keep": keep, "how_must_keep_was_derived": how}
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"), indent=1)
    print(f"{cid}: {len(text)} bytes, {len(keep)} must-keep")


def declared_names(text, patterns):
    """The `name` group of the first of `patterns` matching each line of
    `text`: the names a source file declares, by a regex per language."""
    out = []
    for l in text.splitlines():
        for p in patterns:
            m = re.match(p, l)
            if m:
                out.append(m.group("name"))
                break
    return out


def read_code_cases(files, how):
    """A code case (a Read of the file, its path the hint) for each
    `(id, path, patterns)` of `files`, its must-keep lines the names the
    patterns find; a missing file is skipped."""
    for cid, path, patterns in files:
        if not os.path.exists(path):
            print(f"{cid}: {path} missing, skipped")
            continue
        text = open(path, errors="replace").read()
        case(cid, "code", path, text, declared_names(text, patterns), how, tool="Read")


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

def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write(text)


def js_dir():
    args = sys.argv[1:]
    return args[args.index("--js") + 1] if "--js" in args else "jsenv"


def third_cases():
    """The third round: more ecosystems (rules written before ghost's output was looked at)."""
    js = os.path.abspath(js_dir())
    bin_ = os.path.join(js, "node_modules", ".bin")
    env_go = "GOFLAGS=-mod=mod GOPROXY=off GOCACHE=/tmp/ghost-gocache GOPATH=/tmp/ghost-gopath"
    with tempfile.TemporaryDirectory() as tmp:
        # go test -v with failures: every `--- FAIL:` line, every
        # `file_test.go:N:` message line, the package's FAIL line.
        g = os.path.join(tmp, "calc")
        write(os.path.join(g, "go.mod"), "module example.com/calc\n\ngo 1.19\n")
        write(os.path.join(g, "calc.go"), "package calc\n\nfunc Add(a, b int) int { return a + b }\n\n"
              "func Div(a, b int) int { return a / b }\n")
        write(os.path.join(g, "calc_test.go"), "package calc\n\nimport \"testing\"\n\n"
              + "".join(f"func TestAdd{i}(t *testing.T) {{ if Add({i}, 1) != {i + 1} {{ t.Fatal(\"bad\") }} }}\n" for i in range(40))
              + "func TestDivRounds(t *testing.T) {\n\tif got := Div(7, 2); got != 4 {\n\t\tt.Errorf(\"Div(7, 2) = %d, want 4\", got)\n\t}\n}\n"
              + "func TestTable(t *testing.T) {\n\tfor _, c := range []struct{ a, b, want int }{{1, 1, 2}, {2, 2, 5}, {3, 3, 6}} {\n"
              + "\t\tt.Run(\"case\", func(t *testing.T) {\n\t\t\tif Add(c.a, c.b) != c.want {\n\t\t\t\tt.Errorf(\"Add(%d, %d) != %d\", c.a, c.b, c.want)\n\t\t\t}\n\t\t})\n\t}\n}\n")
        t = run(f"{env_go} go test -v ./...", cwd=g)
        case("go-test-failing", "log", "go test -v ./...", t,
             lambda l: l.strip().startswith("--- FAIL:") or re.match(r"^\s+calc_test\.go:\d+: ", l) or re.match(r"^(FAIL|ok)\s", l),
             "every `--- FAIL:` line (subtests too), every `calc_test.go:N:` message, the package's FAIL line")
        # go test passing, verbose: the `ok` package line and `PASS`.
        write(os.path.join(g, "calc_test.go"), "package calc\n\nimport \"testing\"\n\n"
              + "".join(f"func TestAdd{i}(t *testing.T) {{ if Add({i}, 1) != {i + 1} {{ t.Fatal(\"bad\") }} }}\n" for i in range(60)))
        t = run(f"{env_go} go test -v ./...", cwd=g)
        case("go-test-passing", "log", "go test -v ./...", t,
             lambda l: re.match(r"^(ok|PASS)\b", l),
             "the `PASS` line and the package's `ok` line")
        # go vet: every `file:line:col:` diagnostic.
        write(os.path.join(g, "calc.go"), "package calc\n\nimport \"fmt\"\n\nfunc Add(a, b int) int { return a + b }\n\n"
              "func Show(n int) string { return fmt.Sprintf(\"%s items\", n) }\n\n"
              "func Log(s string) { fmt.Printf(\"%d\\n\", s) }\n\n"
              "func Loop() int {\n\tfor {\n\t}\n\treturn 1\n}\n\n"
              "type T struct{ a int }\n\nfunc (t T) Set(v int) { t.a = v; t.a = t.a }\n")
        t = run(f"{env_go} go vet ./...", cwd=g)
        case("go-vet", "log", "go vet ./...", t,
             lambda l: re.match(r"^\S+\.go:\d+:\d+: ", l),
             "every `file.go:line:col: message` diagnostic")
        # go build errors: every diagnostic line.
        write(os.path.join(g, "calc.go"), "package calc\n\nimport \"os\"\n\nfunc Add(a, b int) int { return a + c }\n\n"
              "func Name() string { var n int = \"x\"; return n }\n\nfunc Use() { undefinedCall() }\n")
        t = run(f"{env_go} go build ./...", cwd=g)
        case("go-build-errors", "log", "go build ./...", t,
             lambda l: re.match(r"^\S+\.go:\d+:\d+: ", l),
             "every `file.go:line:col: message` line")
        # a Go program panicking: the panic line, the program's frames, exit status.
        m = os.path.join(tmp, "gomain")
        write(os.path.join(m, "go.mod"), "module example.com/gomain\n\ngo 1.19\n")
        write(os.path.join(m, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc pick(xs []int, i int) int { return xs[i] }\n\n"
              "func main() {\n\tfmt.Println(\"picking\")\n\tfmt.Println(pick([]int{1, 2, 3}, 5))\n}\n")
        t = run(f"{env_go} go run .", cwd=m)
        case("go-panic", "error", "go run .", t,
             lambda l: l.startswith("panic: ") or re.search(r"/main\.go:\d+", l) or l.startswith("exit status"),
             "the `panic:` line, every frame location in main.go, `exit status N`")
        # go list -json: a stream of JSON objects; every ImportPath.
        write(os.path.join(g, "calc.go"), "package calc\n\nfunc Add(a, b int) int { return a + b }\n")
        for sub in ["parse", "render", "store"]:
            write(os.path.join(g, sub, f"{sub}.go"), f"package {sub}\n\nimport \"strings\"\n\nfunc Up(s string) string {{ return strings.ToUpper(s) }}\n")
        t = run(f"{env_go} go list -json ./...", cwd=g, stderr=False)
        paths = re.findall(r'^\t"ImportPath": "([^"]+)"', t, re.M)
        case("go-list-json", "structured", "go list -json ./...", t, paths, "every package's ImportPath")
        # RSpec, documentation format: failure headers, expected/got, the
        # summary, every `rspec ./…:N` rerun line.
        r = os.path.join(tmp, "rb")
        write(os.path.join(r, "lib", "cart.rb"), "class Cart\n  def initialize; @items = []; end\n  def add(p); @items << p; self; end\n"
              "  def total; @items.sum; end\n  def count; @items.size + 1; end\nend\n")
        write(os.path.join(r, "spec", "cart_spec.rb"), "require_relative '../lib/cart'\n\nRSpec.describe Cart do\n"
              + "".join(f"  it 'totals {i}' do\n    expect(Cart.new.add({i}).add(1).total).to eq({i + 1})\n  end\n" for i in range(30))
              + "  it 'counts items' do\n    expect(Cart.new.add(1).count).to eq(1)\n  end\n"
              + "  it 'is empty at first' do\n    expect(Cart.new.total).to be_nil\n  end\n"
              + "  it 'handles strings' do\n    expect { Cart.new.add('a').total }.not_to raise_error\n  end\nend\n")
        t = run("rspec --format documentation", cwd=r)
        case("rspec-failing", "log", "rspec --format documentation", t,
             lambda l: l.startswith("rspec ./") or re.match(r"^\d+ examples?, \d+ failures?", l) or re.match(r"^\s+\d+\) Cart ", l)
             or re.match(r"^\s+(expected|got):", l) or re.match(r"^\s+expected no Exception, got", l),
             "every `rspec ./spec…:N` rerun line, the `N examples, M failures` summary, each numbered failure header, expected/got lines")
        # A Ruby crash: the error line and the script's frames.
        write(os.path.join(r, "app.rb"), "def ratio(a, b)\n  a / b\nend\n\ndef report(xs)\n  xs.map { |x| ratio(10, x) }\nend\n\nputs 'start'\np report([1, 2, 0])\n")
        t = run("ruby app.rb", cwd=r)
        case("ruby-crash", "error", "ruby app.rb", t,
             lambda l: re.search(r"app\.rb:\d+:in ", l) or "ZeroDivisionError" in l,
             "the error line (with ZeroDivisionError) and every app.rb frame")
        # rubocop on the cart: every `file:line:col: C: Cop: message` offense and the summary.
        t = run("rubocop --no-color lib spec", cwd=r, stderr=False)
        case("rubocop", "log", "rubocop lib spec", t,
             lambda l: re.match(r"^\S+\.rb:\d+:\d+: [A-Z]: ", l) or re.match(r"^\d+ files? inspected", l),
             "every `file:line:col: S: Cop: message` offense and the `N files inspected, M offenses` summary")
        # PHPUnit with failures: numbered failure headers, the assertion
        # message, FAILURES! and the counts line.
        ph = os.path.join(tmp, "php")
        write(os.path.join(ph, "src", "Money.php"), "<?php\nfinal class Money {\n  public function __construct(public int $cents) {}\n"
              "  public function add(Money $o): Money { return new Money($this->cents + $o->cents); }\n"
              "  public function format(): string { return sprintf('%d.%d', intdiv($this->cents, 100), $this->cents % 100); }\n}\n")
        write(os.path.join(ph, "tests", "MoneyTest.php"), "<?php\nuse PHPUnit\\Framework\\TestCase;\nrequire_once __DIR__ . '/../src/Money.php';\n"
              "final class MoneyTest extends TestCase {\n"
              + "".join(f"  public function testAdds{i}(): void {{ $this->assertSame({i + 1}, (new Money({i}))->add(new Money(1))->cents); }}\n" for i in range(35))
              + "  public function testFormatsCents(): void { $this->assertSame('1.05', (new Money(105))->format()); }\n"
              + "  public function testIsPositive(): void { $this->assertTrue((new Money(-1))->cents > 0, 'money must be positive'); }\n}\n")
        t = run("phpunit --colors=never tests", cwd=ph)
        case("phpunit-failing", "log", "phpunit tests", t,
             lambda l: re.match(r"^\d+\) MoneyTest::", l) or l.startswith("Failed asserting") or l.startswith("money must be positive")
             or l.startswith("FAILURES!") or l.startswith("Tests: ") or re.match(r"^[-+]'", l),
             "numbered failure headers, `Failed asserting …` lines, the custom message, the -/+ diff lines, FAILURES! and the counts")
        # php -l on a broken file: the parse error.
        write(os.path.join(ph, "broken.php"), "<?php\nfunction f($a) {\n  return $a +;\n}\n")
        t = run("php -l broken.php", cwd=ph)
        case("php-lint", "error", "php -l broken.php", t,
             lambda l: "Parse error" in l or l.startswith("Errors parsing"),
             "the parse error line and `Errors parsing`")
        # JUnit 4's console runner: failure headers, assertion lines, counts.
        j = os.path.join(tmp, "junit")
        write(os.path.join(j, "CalcTest.java"), "import org.junit.Test;\nimport static org.junit.Assert.*;\npublic class CalcTest {\n"
              + "".join(f"  @Test public void adds{i}() {{ assertEquals({i + 1}, {i} + 1); }}\n" for i in range(30))
              + "  @Test public void divides() { assertEquals(3, 7 / 2 + 1); }\n"
              + "  @Test public void parsesHex() { assertEquals(\"hex\", 255, Integer.parseInt(\"ff\", 10)); }\n"
              + "  @Test public void joins() { assertEquals(\"a,b\", String.join(\";\", \"a\", \"b\")); }\n}\n")
        cp = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar:."
        t = run(f"javac -cp {cp} CalcTest.java && java -cp {cp} org.junit.runner.JUnitCore CalcTest", cwd=j)
        case("junit4-failing", "log", "java org.junit.runner.JUnitCore CalcTest", t,
             lambda l: re.match(r"^\d+\) \w+\(CalcTest\)", l) or re.match(r"^(org\.junit\.ComparisonFailure|java\.lang\.\w+(Error|Exception))", l)
             or l.startswith("FAILURES!!!") or l.startswith("Tests run:") or re.search(r"at CalcTest\.\w+\(CalcTest\.java:\d+\)", l),
             "numbered failure headers, the exception/assertion lines, the CalcTest frames, FAILURES!!! and `Tests run:`")
        # jest with failures: ✕ lines, ● headers, Expected/Received, Tests: summary.
        s = os.path.join(tmp, "js")
        write(os.path.join(s, "slug.js"), "exports.slug = s => s.toLowerCase().replace(/ /g, '-');\n")
        write(os.path.join(s, "slug.test.js"), "const { slug } = require('./slug');\ndescribe('slug', () => {\n"
              + "".join(f"  test('word {i}', () => expect(slug('Word {i}')).toBe('word-{i}'));\n" for i in range(30))
              + "  test('trims spaces', () => expect(slug(' a b ')).toBe('a-b'));\n"
              + "  test('drops punctuation', () => expect(slug('Hi, there!')).toEqual('hi-there'));\n});\n")
        write(os.path.join(s, "package.json"), '{"name": "s", "version": "1.0.0"}\n')
        t = run(f"{bin_}/jest --ci --verbose --no-color slug.test.js", cwd=s)
        case("jest-failing", "log", "jest --verbose", t,
             lambda l: l.strip().startswith("✕") or l.strip().startswith("● slug ›") or re.match(r"^\s+(Expected|Received):", l)
             or l.startswith("Tests:") or l.startswith("Test Suites:"),
             "✕ lines, `● slug › test` headers, Expected/Received lines, the Tests: and Test Suites: lines")
        # vitest run: the same test file under vitest.
        write(os.path.join(s, "slug.test.mjs"), "import { describe, test, expect } from 'vitest';\nimport { createRequire } from 'module';\n"
              "const { slug } = createRequire(import.meta.url)('./slug.js');\ndescribe('slug', () => {\n"
              + "".join(f"  test('word {i}', () => expect(slug('Word {i}')).toBe('word-{i}'));\n" for i in range(30))
              + "  test('trims spaces', () => expect(slug(' a b ')).toBe('a-b'));\n});\n")
        t = run(f"NO_COLOR=1 {bin_}/vitest run --reporter=verbose slug.test.mjs", cwd=s)
        case("vitest-failing", "log", "vitest run --reporter=verbose", t,
             lambda l: re.match(r"^\s*(×|FAIL)\s", l) or l.strip().startswith("AssertionError") or re.match(r"^\s+Tests\s+\d+", l)
             or re.match(r"^\s+Test Files\s+\d+", l),
             "× and FAIL lines, the AssertionError line, the Tests and Test Files counts")
        # mocha, spec reporter: passing/failing counts, numbered failures, assertion messages.
        write(os.path.join(s, "test", "slug.spec.js"), "const assert = require('assert');\nconst { slug } = require('../slug');\ndescribe('slug', () => {\n"
              + "".join(f"  it('word {i}', () => assert.strictEqual(slug('Word {i}'), 'word-{i}'));\n" for i in range(30))
              + "  it('trims spaces', () => assert.strictEqual(slug(' a b '), 'a-b'));\n"
              + "  it('keeps numbers', () => assert.deepStrictEqual([slug('A 1')], ['a1']));\n});\n")
        t = run(f"{bin_}/mocha --no-color", cwd=s)
        case("mocha-failing", "log", "mocha", t,
             lambda l: re.match(r"^\s+\d+ (passing|failing)", l) or re.match(r"^\s+\d+\) slug", l) or l.strip().startswith("AssertionError"),
             "the passing/failing counts, each numbered failure header, each AssertionError line")
        # eslint (flat config, recommended rules): every problem row, the file, the summary.
        write(os.path.join(s, "eslint.config.mjs"), "export default [{ rules: { 'no-unused-vars': 'error', 'no-undef': 'error', "
              "'eqeqeq': 'warn', 'no-var': 'warn', 'prefer-const': 'warn' }, languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', console: 'readonly' } } }];\n")
        write(os.path.join(s, "src", "app.js"), "var fs = require('fs');\nvar path = require('path');\nlet count = 0;\n"
              "function load(name) {\n  let unused = 1;\n  if (name == null) return missing;\n  return fs.readFileSync(name);\n}\n"
              + "".join(f"var v{i} = {i};\nconsole.log(v{i} == '{i}');\n" for i in range(12))
              + "module.exports = { load };\n")
        t = run(f"{bin_}/eslint --no-color src", cwd=s)
        case("eslint-stylish", "log", "eslint src", t,
             lambda l: re.match(r"^\s+\d+:\d+\s+(error|warning)\s", l) or l.strip().endswith("app.js") or re.match(r"^✖ \d+ problems?", l),
             "every `line:col  error|warning  message  rule` row, the file's path, the `✖ N problems` summary")
        # tsc: every `file(line,col): error TSnnnn:` line.
        write(os.path.join(s, "tsconfig.json"), '{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020"}, "include": ["ts"]}\n')
        write(os.path.join(s, "ts", "user.ts"), "interface User { id: number; name: string }\n"
              "export function find(users: User[], id: string): User { return users.find(u => u.id === id); }\n"
              "export function greet(u?: User) { return 'hi ' + u.name.toUpperCase(); }\n"
              "export const n: number = '3';\nexport function f(x) { return x * 2 }\n")
        t = run(f"{bin_}/tsc -p . --pretty false", cwd=s)
        case("tsc-errors", "log", "tsc -p . --pretty false", t,
             lambda l: re.search(r"\(\d+,\d+\): error TS\d+:", l),
             "every `file(line,col): error TSnnnn:` line")
        # prove (TAP from Perl): not ok lines, `Failed test` comments, the result.
        p = os.path.join(tmp, "perl")
        write(os.path.join(p, "t", "math.t"), "use strict;\nuse warnings;\nuse Test::More;\n"
              + "".join(f"is({i} * 2, {2 * i}, 'doubles {i}');\n" for i in range(40))
              + "is(7 / 2, 3, 'integer division');\nlike('abc', qr/^b/, 'starts with b');\ndone_testing();\n")
        write(os.path.join(p, "t", "ok.t"), "use Test::More tests => 3;\nok(1, 'one');\nok(2, 'two');\nok(3, 'three');\n")
        t = run("prove -v t", cwd=p)
        case("prove-tap", "log", "prove -v t", t,
             lambda l: l.startswith("not ok") or re.match(r"^#\s+Failed test", l) or l.startswith("Result:") or l.startswith("Files=")
             or re.match(r"^t/\S+\.t\s+\(Wstat", l),
             "`not ok` lines, `#   Failed test` comments, the per-file failure line, Files= and Result:")
        # g++ with template and overload errors: every `file:line:col: error:` line.
        c = os.path.join(tmp, "cpp")
        write(os.path.join(c, "m.cpp"), "#include <vector>\n#include <string>\n#include <map>\n#include <algorithm>\n"
              "struct P { int x; };\nint main() {\n  std::vector<P> v{{1}, {2}};\n  std::sort(v.begin(), v.end());\n"
              "  std::map<std::string, int> m; m[3] = 1;\n  std::string s = 5 + v;\n  return undefined_fn(v);\n}\n")
        t = run("g++ -std=c++17 -c m.cpp -o m.o", cwd=c)
        case("gxx-errors", "log", "g++ -c m.cpp", t,
             lambda l: re.match(r"^m\.cpp:\d+:\d+: error: ", l),
             "every `m.cpp:line:col: error:` line")
        # The linker: undefined references and ld's summary (no `error:` keyword on most lines).
        write(os.path.join(c, "main.c"), "int helper(int);\nint other(void);\nint main(void) { return helper(1) + other(); }\n")
        t = run("gcc main.c -o main", cwd=c)
        case("ld-undefined", "log", "gcc main.c -o main", t,
             lambda l: "undefined reference to" in l or "ld returned" in l,
             "every `undefined reference to` line and ld's exit line")
        # valgrind on a leaking, overreading program: the error kinds, the leak summary lines, the ERROR SUMMARY.
        write(os.path.join(c, "leak.c"), "#include <stdlib.h>\n#include <stdio.h>\n"
              "int main(void) { int *a = malloc(4 * sizeof(int)); for (int i = 0; i <= 4; i++) a[i] = i;\n"
              "  char *s = malloc(16); s[0] = 'x'; printf(\"%d\\n\", a[4]);\n  free(a); return 0; }\n")
        t = run("gcc -g leak.c -o leak && valgrind --leak-check=full ./leak", cwd=c)
        case("valgrind-leak", "log", "valgrind --leak-check=full ./leak", t,
             lambda l: re.search(r"==\d+== (Invalid (read|write)|\d+ bytes in \d+ blocks are definitely lost|ERROR SUMMARY:|\s+definitely lost:)", l)
             or re.search(r"==\d+==\s+(at|by) 0x\w+: main \(leak\.c:\d+\)", l),
             "Invalid read/write lines, definitely-lost lines, the ERROR SUMMARY and every frame in leak.c")
        # pylint and flake8 on a stdlib package: every diagnostic and pylint's rating.
        src = os.path.join(STDLIB, "wsgiref")
        t = run(f"{VENV}/pylint --disable=C,R --score=y {src}", stderr=False)
        case("pylint-wsgiref", "log", "pylint --disable=C,R wsgiref", t,
             lambda l: re.match(r"^\S+\.py:\d+:\d+: [EWF]\d+: ", l) or l.startswith("Your code has been rated"),
             "every `path:line:col: CODE: message` line and the rating")
        t = run(f"{VENV}/flake8 {os.path.join(STDLIB, 'xmlrpc')}", stderr=False)
        case("flake8-xmlrpc", "log", "flake8 xmlrpc", t,
             lambda l: re.match(r"^\S+\.py:\d+:\d+: [A-Z]\d+ ", l),
             "every `path:line:col: CODE message` line")
        # cargo nextest with a failing test: FAIL lines, panic messages, the Summary.
        crate = os.path.join(tmp, "nx")
        write(os.path.join(crate, "Cargo.toml"), '[package]\nname = "nx"\nversion = "0.1.0"\nedition = "2021"\n')
        write(os.path.join(crate, "src", "lib.rs"), "pub fn half(x: u32) -> u32 { x / 2 }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n"
              + "".join(f"    #[test]\n    fn halves_{i}() {{ assert_eq!(half({2 * i}), {i}); }}\n" for i in range(30))
              + "    #[test]\n    fn rounds_up() { assert_eq!(half(3), 2, \"three halves\"); }\n}\n")
        t = run("cargo nextest run --offline --color never --no-fail-fast 2>&1 | grep -v '^\\s*\\(Compiling\\|Finished\\|Blocking\\)'", cwd=crate)
        case("nextest-failing", "log", "cargo nextest run", t,
             lambda l: re.match(r"^\s+FAIL \[", l) or re.match(r"^\s+Summary \[", l) or re.match(r"^\s*(left|right):", l)
             or l.strip().startswith("three halves") or re.match(r"^\s*thread '.*' .*panicked at", l),
             "FAIL lines, the panic header and its left/right/message lines, the Summary line")
        # package-lock.json of the JS folder: every package path under `packages`.
        lock = json.load(open(os.path.join(js, "package-lock.json")))
        t = open(os.path.join(js, "package-lock.json")).read()
        names = sorted({k.split("node_modules/")[-1] for k in lock["packages"] if k})
        case("package-lock-json", "structured", "cat package-lock.json", t, names, "every package named under `packages`", tool="Read")
        # npm view --json of an installed package's metadata, offline from the cache: name, version, every dependency name.
        t = open(os.path.join(js, "node_modules", "jest", "package.json")).read()
        meta = json.loads(t)
        case("jest-package-json", "structured", "cat node_modules/jest/package.json", t,
             [meta["name"], meta["version"]] + sorted(meta.get("dependencies", {})),
             "the name, the version and every dependency name", tool="Read")

def crash_cases():
    """Crashes of programs in more languages, run through a shell (rules first)."""
    env_go = "GOFLAGS=-mod=mod GOPROXY=off GOCACHE=/tmp/ghost-gocache GOPATH=/tmp/ghost-gopath"
    with tempfile.TemporaryDirectory() as tmp:
        # A Go program whose goroutine dereferences nil after some output.
        m = os.path.join(tmp, "worker")
        write(os.path.join(m, "go.mod"), "module example.com/worker\n\ngo 1.19\n")
        write(os.path.join(m, "main.go"), "package main\n\nimport (\n\t\"fmt\"\n\t\"sync\"\n)\n\ntype Job struct{ Name *string }\n\n"
              "func run(j Job, wg *sync.WaitGroup) {\n\tdefer wg.Done()\n\tfmt.Println(\"job\", len(*j.Name))\n}\n\n"
              "func main() {\n\tvar wg sync.WaitGroup\n\tn := \"a\"\n\tfor _, j := range []Job{{&n}, {nil}} {\n\t\twg.Add(1)\n\t\trun(j, &wg)\n\t}\n\twg.Wait()\n}\n")
        t = run(f"{env_go} go run .", cwd=m)
        case("go-nil-deref", "error", "go run .", t,
             lambda l: l.startswith("panic: ") or l.startswith("[signal") or re.search(r"/main\.go:\d+", l) or l.startswith("exit status"),
             "the `panic:` and `[signal` lines, every main.go location, `exit status N`")
        # Ruby: a NoMethodError deep in a small program, after some output.
        r = os.path.join(tmp, "rb")
        write(os.path.join(r, "inventory.rb"), "class Inventory\n  def initialize(items) = @items = items\n"
              "  def names = @items.map { |i| label(i) }\n  def label(i) = i[:name].upcase\nend\n\n"
              "puts 'loading'\nputs Inventory.new([{ name: 'a' }, { title: 'b' }]).names.inspect\n")
        t = run("ruby inventory.rb", cwd=r)
        case("ruby-no-method", "error", "ruby inventory.rb", t,
             lambda l: "NoMethodError" in l or re.search(r"inventory\.rb:\d+:in ", l),
             "the NoMethodError line and every inventory.rb frame")
        # PHP: an uncaught exception with its stack trace.
        p = os.path.join(tmp, "php")
        write(os.path.join(p, "order.php"), "<?php\nfunction price(array $o): float {\n  if (!isset($o['qty'])) { throw new InvalidArgumentException('order has no qty'); }\n"
              "  return $o['qty'] * 2.5;\n}\nfunction total(array $os): float { return array_sum(array_map('price', $os)); }\n"
              "echo \"summing\\n\";\necho total([['qty' => 1], ['sku' => 'x']]);\n")
        t = run("php -d display_errors=stderr order.php", cwd=p)
        case("php-uncaught", "error", "php order.php", t,
             lambda l: "InvalidArgumentException" in l or re.search(r"order\.php[:(]\d+", l),
             "the exception line and every order.php location")
        # Perl dying with a full stack (Carp::confess).
        write(os.path.join(p, "conf.pl"), "use strict;\nuse warnings;\nuse Carp;\nsub parse { my $s = shift; confess \"bad line: $s\" unless $s =~ /=/; return split /=/, $s; }\n"
              "sub load { my %h; for (@_) { my ($k, $v) = parse($_); $h{$k} = $v } return \\%h }\nprint \"reading\\n\";\nload('a=1', 'b');\n")
        t = run("perl conf.pl", cwd=p)
        case("perl-confess", "error", "perl conf.pl", t,
             lambda l: l.startswith("bad line: ") or re.search(r"conf\.pl line \d+", l),
             "the message and every `conf.pl line N` location")
        # Node: an unhandled promise rejection from an async function.
        write(os.path.join(p, "fetch.mjs"), "async function load(id) { if (id > 2) throw new RangeError(`no item ${id}`); return { id }; }\n"
              "async function main() { console.log('loading'); for (const id of [1, 2, 3]) console.log(await load(id)); }\nmain();\n")
        t = run("node fetch.mjs", cwd=p)
        case("node-async-rejection", "error", "node fetch.mjs", t,
             lambda l: "RangeError" in l or re.search(r"fetch\.mjs:\d+:\d+", l),
             "the RangeError line and every fetch.mjs location")
        # Python: a KeyError raised inside a library call (json), with the script's frames.
        write(os.path.join(p, "report.py"), "import json\n\ndef field(rows, key):\n    return [r[key] for r in rows]\n\n"
              "def main():\n    rows = json.loads('[{\"a\": 1}, {\"b\": 2}]')\n    print('rows', len(rows))\n    print(sum(field(rows, 'a')))\n\nmain()\n")
        t = run("python3 report.py", cwd=p)
        case("python-key-error", "error", "python3 report.py", t,
             lambda l: l.startswith("KeyError") or re.search(r'File ".*report\.py", line \d+', l),
             "the KeyError line and every report.py frame")

def fourth_cases():
    """The fourth round: Elixir, OCaml, Lua and R (rules written before ghost's output was looked at)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = "MIX_ENV=test HEX_OFFLINE=1"
        run("mix new ledger >/dev/null", cwd=tmp)
        m = os.path.join(tmp, "ledger")
        write(os.path.join(m, "lib", "ledger.ex"), "defmodule Ledger do\n  def balance(entries), do: Enum.sum(entries)\n"
              "  def fee(amount) when amount > 100, do: amount * 0.01\n  def fee(_amount), do: 1\nend\n")
        write(os.path.join(m, "test", "ledger_test.exs"), "defmodule LedgerTest do\n  use ExUnit.Case\n"
              + "".join(f"  test \"balance {i}\" do\n    assert Ledger.balance([{i}, 1]) == {i + 1}\n  end\n" for i in range(30))
              + "  test \"fee of a large amount\" do\n    assert Ledger.fee(1000) == 10\n  end\n"
              + "  test \"fee of nothing\" do\n    assert Ledger.fee(0) == 0\n  end\nend\n")
        # ExUnit with failures: numbered failure headers, the assertion's
        # code/left/right lines, the summary.
        t = run(f"{env} mix test --seed 0 2>&1", cwd=m)
        case("exunit-failing", "log", "mix test", t,
             lambda l: re.match(r"^\s+\d+\) test ", l) or re.match(r"^\s+(code|left|right):", l)
             or re.match(r"^\d+ tests?, \d+ failures?", l),
             "numbered failure headers, the code/left/right lines, the `N tests, M failures` summary")
        # A compile error in the same project: the error lines.
        write(os.path.join(m, "lib", "ledger.ex"), "defmodule Ledger do\n  def balance(entries), do: Enum.summ(entries)\n"
              "  def fee(amount), do: amount * rate()\nend\n")
        t = run(f"{env} mix compile 2>&1", cwd=m)
        case("mix-compile-error", "log", "mix compile", t,
             lambda l: re.match(r"^\s*(\*\* \(|error:|warning:)", l) or re.search(r"lib/ledger\.ex:\d+", l),
             "every `error:`/`warning:`/`** (` line and every lib/ledger.ex location")
        # An Elixir script crashing: the `** (` line and the script's frames.
        write(os.path.join(tmp, "split.exs"), "defmodule Split do\n  def share(total, n), do: div(total, n)\n"
              "  def all(totals), do: Enum.map(totals, &share(&1, length(totals) - 3))\nend\nIO.puts(\"splitting\")\nSplit.all([10, 20, 30])\n")
        t = run("elixir split.exs 2>&1", cwd=tmp)
        case("elixir-crash", "error", "elixir split.exs", t,
             lambda l: l.startswith("** (") or "split.exs:" in l,
             "the `** (` line and every split.exs location")
        # OCaml type errors: every `File "…", line N` location and `Error:` line.
        write(os.path.join(tmp, "shapes.ml"), "type shape = Circle of float | Square of float\n"
              "let area = function Circle r -> 3.14 *. r *. r | Square s -> s * s\n"
              "let describe s = \"area: \" ^ area s\n")
        t = run("ocamlc -c shapes.ml 2>&1", cwd=tmp)
        case("ocaml-type-error", "log", "ocamlc -c shapes.ml", t,
             lambda l: l.startswith("File \"shapes.ml\"") or l.startswith("Error:"),
             "every `File \"shapes.ml\", line N` location and `Error:` line")
        # Lua failing at run time: the error line and the script's frames.
        write(os.path.join(tmp, "cart.lua"), "local function price(item) return item.qty * item.unit end\n"
              "local function total(items)\n  local sum = 0\n  for _, it in ipairs(items) do sum = sum + price(it) end\n  return sum\nend\n"
              "print('totalling')\nprint(total({{qty = 1, unit = 2}, {qty = 3}}))\n")
        t = run("lua5.4 cart.lua 2>&1", cwd=tmp)
        case("lua-error", "error", "lua5.4 cart.lua", t,
             lambda l: re.search(r"cart\.lua:\d+:", l),
             "every cart.lua location (the error and its traceback frames)")
        # R stopping with an error: the Error line, the Calls line, Execution halted.
        write(os.path.join(tmp, "fit.R"), "scale_col <- function(d, col) (d[[col]] - mean(d[[col]])) / sd(d[[col]])\n"
              "prep <- function(d) { d$z <- scale_col(d, 'weight'); d }\ncat('preparing\\n')\n"
              "d <- data.frame(height = c(1.7, 1.8), mass = c(70, 80))\nprint(prep(d))\nstop('unreachable')\n")
        t = run("Rscript fit.R 2>&1", cwd=tmp)
        case("r-error", "error", "Rscript fit.R", t,
             lambda l: l.startswith("Error") or l.startswith("Calls:") or l.startswith("Execution halted"),
             "the Error line, the Calls: line, `Execution halted`")

def help_cases():
    """The fifth round: help texts and manual pages an agent reads to learn a
    tool's options (rules written before ghost's output was looked at)."""
    option = re.compile(r"^\s*--?[A-Za-z][\w-]*")
    pages = [
        ("help-pip-install", f"{VENV}/pip install --help", "pip install --help"),
        ("help-go-build", "go help build", "go help build"),
        ("help-gcc", "gcc --help", "gcc --help"),
        ("help-rspec", "rspec --help", "rspec --help"),
        ("help-python3", "python3 --help", "python3 --help"),
        ("help-ruff-check", f"{VENV}/ruff check --help", "ruff check --help"),
        ("help-mypy", f"{VENV}/mypy --help", "mypy --help"),
        ("man-grep", "MANWIDTH=80 man -P cat grep 2>/dev/null", "man grep"),
        ("man-tar", "MANWIDTH=80 man -P cat tar 2>/dev/null", "man tar"),
    ]
    for cid, cmd, shown in pages:
        t = run(cmd)
        # Every line that defines an option (`-a, --all`, `--block-size=SIZE`, `-c  text`).
        case(cid, "log", shown, t, lambda l: option.match(l),
             "every line that defines an option (its text starts with -x or --name)")

def verbatim(text):
    """A set that holds exactly the strings found in `text` as they are."""
    class Verbatim(set):
        def __rand__(self, other):
            return {s for s in other if s in text}
    return Verbatim()


def json_cases():
    """The sixth round: tools' JSON reports and package metadata (rules
    written before ghost's output was looked at)."""
    js = os.path.abspath(js_dir())
    # ruff's JSON report: an array of diagnostics; every distinct message.
    src = os.path.join(STDLIB, "xmlrpc")
    t = run(f"{VENV}/ruff check --no-cache --select F,E,W,B --output-format json {src}", stderr=False)
    case("ruff-json-report", "structured", "ruff check --output-format json xmlrpc", t,
         sorted({d["message"] for d in json.loads(t)} & verbatim(t)), "every distinct diagnostic message (as written in the text: one without escapes)")
    # mypy's JSON lines: one object per line; every distinct message.
    t = run(f"{VENV}/mypy --strict --no-incremental --ignore-missing-imports -O json {os.path.join(STDLIB, 'wsgiref')}", stderr=False)
    msgs = sorted({json.loads(l)["message"] for l in t.splitlines() if l.startswith("{")} & verbatim(t))
    case("mypy-json-lines", "structured", "mypy -O json wsgiref", t, msgs or [json.loads(t.splitlines()[0])["file"]],
         "every distinct message as written in the text (without escapes); else the first file")
    # eslint's JSON report: files, each with its messages; every message text.
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "eslint.config.mjs"), "export default [{ rules: { 'no-unused-vars': 'error', 'no-undef': 'error', "
              "'eqeqeq': 'warn', 'no-var': 'warn' }, languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } } }];\n")
        for name in ["cart", "user", "report"]:
            write(os.path.join(tmp, "src", f"{name}.js"), f"var {name}Count = 0;\nfunction load_{name}(x) {{\n  let unused_{name} = 1;\n"
                  f"  if (x == null) return missing_{name};\n  return x;\n}}\nmodule.exports = {{ load_{name} }};\n")
        t = run(f"{os.path.join(js, 'node_modules', '.bin', 'eslint')} -f json src", cwd=tmp, stderr=False)
        msgs = sorted({m["message"] for f in json.loads(t) for m in f["messages"]} & verbatim(t))
        case("eslint-json-report", "structured", "eslint -f json src", t, msgs, "every distinct message (as written in the text)")
    # npm view of a package, as JSON: its name, its latest version, every dependency name.
    t = run("npm view express@4.21.2 --json 2>/dev/null", stderr=False)
    data = json.loads(t)
    data = data[-1] if isinstance(data, list) else data
    case("npm-view-json", "structured", "npm view express@4.21.2 --json", t,
         [data["name"], data["version"]] + sorted(data.get("dependencies", {})),
         "the name, the version and every dependency name")
    # pip inspect: every installed distribution's name.
    t = run(f"{VENV}/pip inspect 2>/dev/null", stderr=False)
    names = sorted({d["metadata"]["name"] for d in json.loads(t)["installed"]})
    case("pip-inspect-json", "structured", "pip inspect", t, names, "every installed distribution's name")


def prose_cases():
    """The seventh round: Markdown documents (rule written before ghost's
    output was looked at: every line starting with `#`, as the shared cases'
    prose rule reads headings; code comments in fences count too)."""
    import glob, gzip
    heading = lambda l: l.startswith("#")
    how = "every line starting with `#` (Markdown headings, as ../shared/corpus/cases reads them)"
    def usable(text):
        return 1500 < len(text) < 40000 and sum(1 for l in text.splitlines() if heading(l)) >= 2
    # Crate READMEs, one per crate (newest version), every sixth by name,
    # leaving out the three crates the shared cases already hold.
    crates = {}
    for p in sorted(glob.glob(os.path.expanduser("~/.cargo/registry/src/*/*/README.md"))):
        name = re.sub(r"-\d+(\.\d+)*([-+].*)?$", "", os.path.basename(os.path.dirname(p)))
        if name not in ("anyhow", "bumpalo", "crossbeam-deque") and usable(open(p, errors="replace").read()):
            crates[name] = p
    for name in sorted(crates)[::6][:30]:
        case(f"prose-crate-{name}", "prose", "README.md", open(crates[name], errors="replace").read(),
             heading, how, tool="Read")
    # npm packages' READMEs, every fifth usable one.
    js = os.path.abspath(js_dir())
    npm = sorted(p for p in glob.glob(os.path.join(js, "node_modules", "*", "README.md"))
                 if usable(open(p, errors="replace").read()))
    for p in npm[::5][:12]:
        name = os.path.basename(os.path.dirname(p))
        case(f"prose-npm-{name}", "prose", "README.md", open(p, errors="replace").read(), heading, how, tool="Read")
    # Debian's documentation in Markdown (some gzipped), every second usable one.
    docs = []
    for p in sorted(glob.glob("/usr/share/doc/*/*.md") + glob.glob("/usr/share/doc/*/*.md.gz")):
        text = (gzip.open(p, "rt", errors="replace") if p.endswith(".gz") else open(p, errors="replace")).read()
        if usable(text) and all(text != t for _, t in docs):  # one copy of a shared README
            docs.append((p, text))
    for p, text in docs[::2][:12]:
        pkg = os.path.basename(os.path.dirname(p))
        stem = re.sub(r"\.md(\.gz)?$", "", os.path.basename(p)).lower()
        case(f"prose-doc-{pkg}-{stem}", "prose", os.path.basename(p).removesuffix(".gz"), text, heading, how, tool="Read")


def lint_cases():
    """The eighth round: linters, formatters and installers in formats no
    rule of ghost was written for (rules written before ghost's output was
    looked at)."""
    import glob
    js = os.path.join(os.path.abspath(js_dir()), "node_modules", ".bin")
    # shellcheck on real scripts of this system, its own format and gcc's.
    scripts = "/usr/bin/bzexe /usr/bin/gdb-add-index /usr/bin/dpkg-maintscript-helper"
    t = run(f"shellcheck {scripts}", stderr=False)
    case("shellcheck-tty", "log", "shellcheck bzexe gdb-add-index dpkg-maintscript-helper", t,
         lambda l: re.match(r"^In \S+ line \d+:$", l) or re.search(r"SC\d{4} \((error|warning|info|style)\)", l),
         "every `In FILE line N:` header and every `SCnnnn (level)` message line")
    t = run("shellcheck -f gcc /usr/bin/bzgrep /usr/bin/gcore /usr/bin/cscope-indexer", stderr=False)
    case("shellcheck-gcc", "log", "shellcheck -f gcc bzgrep gcore cscope-indexer", t,
         lambda l: re.match(r"^\S+:\d+:\d+: (error|warning|note): ", l),
         "every `file:line:col: level: message [SCnnnn]` line")
    # yamllint on real CI workflows shipped in crates.
    flows = sorted(glob.glob(os.path.expanduser("~/.cargo/registry/src/*/*/.github/workflows/*.yml")))[::12][:12]
    t = run(f"{VENV}/yamllint " + " ".join(flows), stderr=False)
    case("yamllint-workflows", "log", "yamllint .github/workflows/*.yml", t,
         lambda l: re.match(r"^\s+\d+:\d+\s+(error|warning)\s", l),
         "every `  line:col  level  message  (rule)` line")
    # Python formatters and linters on stdlib packages.
    with tempfile.TemporaryDirectory() as tmp:
        for pkg in ["email", "http", "xmlrpc"]:
            shutil.copytree(os.path.join(STDLIB, pkg), os.path.join(tmp, pkg), ignore=shutil.ignore_patterns("__pycache__"))
        t = run(f"{VENV}/black --check email http", cwd=tmp)
        case("black-check", "log", "black --check email http", t,
             lambda l: l.startswith("would reformat ") or "would be reformatted" in l,
             "every `would reformat FILE` line and the summary")
        t = run(f"{VENV}/isort --check-only email http xmlrpc", cwd=tmp)
        case("isort-check", "log", "isort --check-only email http xmlrpc", t,
             lambda l: l.startswith("ERROR: "), "every `ERROR: FILE Imports are incorrectly sorted` line")
        t = run(f"{VENV}/bandit -r http xmlrpc", cwd=tmp, stderr=False)
        issues = sorted({l for l in t.splitlines() if l.startswith(">> Issue: ")})
        places = [l for l in t.splitlines() if l.strip().startswith("Location: ")]
        case("bandit-report", "log", "bandit -r http xmlrpc", t, issues + places,
             "every distinct `>> Issue: [Bnnn:name] message` line and every `Location: path:line:col` line")
        t = run(f"{js}/pyright xmlrpc http", cwd=tmp, stderr=False)
        case("pyright-errors", "log", "pyright xmlrpc http", t,
             lambda l: re.search(r":\d+:\d+ - (error|warning)", l) or re.match(r"^\d+ errors?, \d+ warnings?", l),
             "every `path:line:col - error|warning: message` line and the summary")
    # prettier and markdownlint on real npm packages' files.
    mods = os.path.join(os.path.abspath(js_dir()), "node_modules")
    t = run(f"{js}/prettier --check 'ms/*.js' 'chalk/source/*.js' 'yallist/*.js' 'semver/functions/*.js'", cwd=mods)
    case("prettier-check", "log", "prettier --check ms chalk yallist semver", t,
         lambda l: l.startswith("[warn] "), "every `[warn] FILE` line and the summary")
    t = run(f"{js}/markdownlint ms/readme.md chalk/readme.md semver/README.md yallist/README.md", cwd=mods)
    case("markdownlint", "log", "markdownlint ms chalk semver yallist READMEs", t,
         lambda l: re.match(r"^\S+:\d+(:\d+)? (error )?MD\d{3}/", l), "every `file:line[:col] MDnnn/rule message` line")
    # cppcheck on a small C program with real bugs.
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "buf.c"), "#include <stdlib.h>\n#include <string.h>\n\nint sum(int *a) {\n  int s = 0;\n"
              "  for (int i = 0; i <= 4; i++) s += a[i];\n  return s;\n}\n\nint main(void) {\n  int a[4] = {1, 2, 3, 4};\n"
              "  char *p = malloc(8);\n  strcpy(p, \"overflowing\");\n  int x;\n  if (a[4] > 0) return x;\n  return sum(a);\n}\n")
        t = run("cppcheck --enable=all --suppress=missingIncludeSystem --template=gcc buf.c", cwd=tmp)
        case("cppcheck-bugs", "log", "cppcheck --enable=all buf.c", t,
             lambda l: re.match(r"^buf\.c:\d+:\d+: (error|warning|style|performance|portability|information): ", l),
             "every `buf.c:line:col: severity: message [id]` line")
    # Installers failing.
    with tempfile.TemporaryDirectory() as tmp:
        run("npm init -y", cwd=tmp)
        t = run("npm install ghost-no-such-package-xyzzy@1.0.0", cwd=tmp)
        case("npm-install-404", "log", "npm install ghost-no-such-package-xyzzy", t,
             lambda l: l.startswith("npm error code") or l.startswith("npm error 404 Not Found"),
             "the `npm error code` line and the `npm error 404 Not Found` line")
    t = run(f"{VENV}/pip install --no-cache-dir 'requests==0.0.1'")
    case("pip-install-no-version", "log", "pip install requests==0.0.1", t,
         lambda l: l.startswith("ERROR: "), "every `ERROR:` line")
    # pytest failing to collect a module.
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "test_ok.py"), "".join(f"def test_{i}():\n    assert True\n\n" for i in range(20)))
        write(os.path.join(tmp, "test_broken.py"), "import yaml_missing_module\n\ndef test_x():\n    assert yaml_missing_module\n")
        t = run(f"{VENV}/pytest", cwd=tmp)
        case("pytest-collection-error", "log", "pytest", t,
             lambda l: l.startswith("ERROR ") or l.startswith("E   ") or "Interrupted:" in l or re.match(r"^=+ .*\d+ errors? in ", l),
             "`ERROR` lines, `E` lines, the `Interrupted` line and the final summary")


def more_lint_cases():
    """The ninth round: more linters and package tools, to test the eighth
    round's principles on formats they were not written against (rules
    written before ghost's output was looked at)."""
    js = os.path.join(os.path.abspath(js_dir()), "node_modules", ".bin")
    mods = os.path.join(os.path.abspath(js_dir()), "node_modules")
    with tempfile.TemporaryDirectory() as tmp:
        for pkg in ["json", "urllib", "wsgiref"]:
            shutil.copytree(os.path.join(STDLIB, pkg), os.path.join(tmp, pkg), ignore=shutil.ignore_patterns("__pycache__"))
        t = run(f"{VENV}/pycodestyle --max-line-length=100 json wsgiref", cwd=tmp)
        case("pycodestyle", "log", "pycodestyle json wsgiref", t,
             lambda l: re.match(r"^\S+:\d+:\d+: [EW]\d+ ", l), "every `path:line:col: CODE message` line")
        t = run(f"{VENV}/pydocstyle urllib", cwd=tmp)
        case("pydocstyle", "log", "pydocstyle urllib", t,
             lambda l: re.match(r"^\S+:\d+ in ", l) or re.match(r"^\s+D\d{3}: ", l),
             "every `path:line in …:` header and every `Dnnn: message` line")
        t = run(f"{VENV}/vulture urllib wsgiref", cwd=tmp)
        case("vulture", "log", "vulture urllib wsgiref", t,
             lambda l: l.endswith("% confidence)"), "every finding (`… (N% confidence)`)")
        t = run(f"{VENV}/codespell json urllib wsgiref", cwd=tmp)
        case("codespell", "log", "codespell json urllib wsgiref", t,
             lambda l: " ==> " in l, "every `path:line: typo ==> fix` line")
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "feed.xml"), "<?xml version=\"1.0\"?>\n<feed>\n  <entry id=\"1\">\n    <title>One</titel>\n"
              "  </entry>\n  <entry id=\"2\" id=\"3\">\n    <title>Two &nbsp; three</title>\n  </entry>\n</feed>\n")
        t = run("xmllint --noout feed.xml", cwd=tmp)
        case("xmllint-errors", "log", "xmllint --noout feed.xml", t,
             lambda l: re.match(r"^feed\.xml:\d+: .*error", l), "every `feed.xml:line: … error : message` line")
        write(os.path.join(tmp, "page.html"), "<html><head><title>T</title></head><body>\n<p>One\n<div><p>Two</div>\n"
              "<img src=\"a.png\">\n<table><tr><td>x</td></tr>\n<a href=\"#\">link\n</body></html>\n")
        t = run("tidy -q -e page.html", cwd=tmp)
        case("tidy-html", "log", "tidy -q -e page.html", t,
             lambda l: re.match(r"^line \d+ column \d+ - (Warning|Error|Info): ", l),
             "every `line N column M - Level: message` line")
    t = run("perlcritic --severity 3 /usr/share/perl5/Error.pm /usr/share/perl5/JSON.pm")
    case("perlcritic", "log", "perlcritic --severity 3 Error.pm JSON.pm", t,
         lambda l: re.search(r"\(Severity: \d\)", l), "every finding (`… (Severity: N)`)")
    with tempfile.TemporaryDirectory() as tmp:
        rc = os.path.join(tmp, "jshintrc")
        write(rc, '{"esversion": 11, "undef": true, "unused": true, "node": true}\n')
        t = run(f"{js}/jshint --config {rc} picomatch/lib/parse.js picomatch/lib/scan.js yallist/yallist.js", cwd=mods)
    case("jshint", "log", "jshint picomatch yallist", t,
         lambda l: re.search(r": line \d+, col \d+, ", l) or re.match(r"^\d+ errors?$", l),
         "every `file: line N, col M, message` line and the count")
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "a.html"), "<!DOCTYPE html>\n<html><head><title>A</title></head>\n<body>\n<div id=\"x\"><span>one</div>\n"
              "<img src=\"a.png\">\n<div id=\"x\">two</div>\n<P CLASS=a>three</P>\n</body></html>\n")
        write(os.path.join(tmp, "b.html"), "<html>\n<body>\n<ul><li>one<li>two</ul>\n<a href='x'>link</a>\n</body>\n</html>\n")
        t = run(f"{js}/htmlhint a.html b.html", cwd=tmp)
        plain = [re.sub(r"\x1b\[[0-9;]*m", "", l).rstrip() for l in t.splitlines()]
        case("htmlhint", "log", "htmlhint a.html b.html", t,
             [l for l in plain if re.search(r"\([a-z0-9-]+\)$", l) or l.strip().startswith("Scanned ")],
             "every finding line (ending with `(rule-name)`, colours removed) and the `Scanned N files` summary")
    # clippy and rustfmt on a small crate.
    with tempfile.TemporaryDirectory() as tmp:
        run("cargo init --lib --name lints --vcs none -q", cwd=tmp)
        write(os.path.join(tmp, "src", "lib.rs"), "pub fn total(v: &Vec<i32>) -> i32 {\n    let mut s = 0;\n    for i in 0..v.len() { s = s + v[i]; }\n"
              "    return s;\n}\n\npub fn is_empty(s: &String) -> bool { s.len() == 0 }\n\npub fn first(v: &Vec<String>) -> String {\n"
              "    v.iter().next().unwrap().clone()\n}\n")
        t = run("cargo clippy --offline -q 2>&1", cwd=tmp)
        case("clippy-lints", "log", "cargo clippy", t,
             lambda l: re.match(r"^(warning|error)(\[\w+\])?: ", l) or l.strip().startswith("--> "),
             "every `warning:`/`error:` header and every `--> path:line:col` line")
        t = run("cargo fmt --check 2>&1", cwd=tmp)
        case("rustfmt-check", "log", "cargo fmt --check", t,
             lambda l: l.startswith("Diff in "), "every `Diff in path:line:` line")
    # npm: what is outdated in a project pinned to old versions (`npm audit`
    # was tried too; this machine's registry proxy refuses its endpoint).
    with tempfile.TemporaryDirectory() as tmp:
        run("npm init -y && npm install --no-audit express@4.16.0 lodash@4.17.4 minimist@1.2.0", cwd=tmp)
        t = run("npm outdated", cwd=tmp, stderr=False)
        rows = t.splitlines()[1:]
        case("npm-outdated", "log", "npm outdated", t, rows, "every row (one per outdated package)")


def tenth_cases():
    """The tenth round: more runners, linters and build tools, to test the
    ninth round's principles on formats they were not written against
    (rules written before ghost's output was looked at)."""
    with tempfile.TemporaryDirectory() as tmp:
        # minitest: two failures among passing tests.
        write(os.path.join(tmp, "cart_test.rb"), "require 'minitest/autorun'\n\nclass Cart\n  def initialize; @items = []; end\n"
              "  def add(p); @items << p; self; end\n  def total; @items.sum; end\n  def count; @items.size + 1; end\nend\n\n"
              "class CartTest < Minitest::Test\n"
              + "".join(f"  def test_add_{i}\n    assert_equal {i}, Cart.new.add({i}).total\n  end\n" for i in range(25))
              + "  def test_count\n    assert_equal 2, Cart.new.add(1).add(2).count\n  end\n"
              "  def test_nil\n    assert_equal 0, Cart.new.add(nil).total\n  end\nend\n")
        t = run("ruby cart_test.rb -v", cwd=tmp)
        case("minitest-failing", "log", "ruby cart_test.rb -v", t,
             lambda l: re.search(r"\b(Failure|Error):$", l) or re.match(r"^\w+#test_\w+ \[", l) or re.match(r"^\s*(Expected|Actual):", l)
             or re.match(r"^\d+ runs, \d+ assertions", l),
             "`Failure:`/`Error:` lines, each failing `Class#test [file:line]` line, Expected/Actual lines, the summary")
        # bats: TAP with failures.
        write(os.path.join(tmp, "calc.bats"), "#!/usr/bin/env bats\n\n"
              + "".join(f"@test \"adds {i}\" {{\n  [ $(( {i} + 1 )) -eq {i + 1} ]\n}}\n\n" for i in range(20))
              + "@test \"divides by zero\" {\n  result=$(( 1 / 0 ))\n}\n\n@test \"compares strings\" {\n  [ \"abc\" = \"abd\" ]\n}\n")
        t = run("bats --tap calc.bats", cwd=tmp)
        case("bats-tap", "log", "bats --tap calc.bats", t,
             lambda l: l.startswith("not ok ") or l.startswith("# (in test file"),
             "every `not ok` line and every `# (in test file …, line N)` line")
        # luacheck on Lua with unused and undefined names.
        write(os.path.join(tmp, "inventory.lua"), "local json = require('json')\nlocal M = {}\n\nfunction M.total(items)\n  local sum, unused = 0, 1\n"
              "  for i, item in ipairs(items) do\n    sum = sum + item.price\n  end\n  return summ\nend\n\nfunction M.count(items)\n"
              "  count = #items\n  return count\nend\n\nreturn M\n")
        write(os.path.join(tmp, "report.lua"), "local inv = require('inventory')\nlocal fmt = string.format\n\nlocal function show(items)\n"
              "  local total = inv.total(items)\n  print(string.format('%d', totl))\nend\n\nshow({})\n")
        t = run("luacheck --no-color inventory.lua report.lua", cwd=tmp)
        case("luacheck", "log", "luacheck inventory.lua report.lua", t,
             lambda l: re.match(r"^\s+\S+\.lua:\d+:\d+: ", l) or l.startswith("Total: "),
             "every `file:line:col: message` line and the `Total:` line")
        # sqlfluff on SQL with style problems.
        write(os.path.join(tmp, "report.sql"), "select a.id,b.name, sum(b.total) as Total\nFROM accounts a join bills b on a.id=b.account_id\n"
              "where b.total>100\ngroup by 1,2\nORDER BY Total desc\n")
        write(os.path.join(tmp, "users.sql"), "SELECT * from users WHERE active = 1 and created_at > '2024-01-01'   \n")
        t = run(f"{VENV}/sqlfluff lint --dialect ansi report.sql users.sql", cwd=tmp)
        case("sqlfluff", "log", "sqlfluff lint report.sql users.sql", t,
             lambda l: re.match(r"^L:\s*\d+ \| P:\s*\d+ \| \w+ \|", l), "every `L: n | P: m | CODE | message` line")
        # cpplint on C++.
        write(os.path.join(tmp, "stack.cc"), "#include <vector>\nusing namespace std;\nclass Stack{\npublic:\n  void push(int x){ v.push_back(x); }\n"
              "  int pop(){int x=v.back();v.pop_back();return x;}\nprivate:\n  vector<int> v;\n};\n")
        t = run(f"{VENV}/cpplint stack.cc", cwd=tmp)
        case("cpplint", "log", "cpplint stack.cc", t,
             lambda l: re.search(r":\d+:  .*\[[\w/+-]+\] \[\d\]$", l), "every `file:line:  message  [category] [confidence]` line")
        # make -k over several broken C files.
        for name, body in [("a.c", "int f(void) { return x; }\n"), ("b.c", "int g(void) { return 1 }\n"), ("c.c", "int h(void) { return 2; }\n")]:
            write(os.path.join(tmp, "mk", name), body)
        write(os.path.join(tmp, "mk", "Makefile"), "all: a.o b.o c.o\n%.o: %.c\n\tgcc -c $< -o $@\n")
        t = run("make -k", cwd=os.path.join(tmp, "mk"))
        case("make-k-errors", "log", "make -k", t,
             lambda l: re.match(r"^\w\.c:\d+:\d+: error: ", l) or l.startswith("make: ***") or "not remade" in l,
             "every `file:line:col: error:` line, every `make: ***` line and the `not remade` line")
        # pytest -q with --tb=line.
        write(os.path.join(tmp, "py", "test_q.py"), "".join(f"def test_{i}():\n    assert {i} == {i}\n\n" for i in range(40))
              + "def test_sum():\n    assert sum([1, 2]) == 4\n\ndef test_upper():\n    assert 'a'.upper() == 'a'\n")
        t = run(f"{VENV}/pytest -q --tb=line", cwd=os.path.join(tmp, "py"))
        case("pytest-quiet-tb-line", "log", "pytest -q --tb=line", t,
             lambda l: l.startswith("FAILED ") or re.match(r"^/\S+:\d+: ", l) or re.match(r"^\d+ failed", l),
             "FAILED lines, each `path:line: message` traceback line, the summary")
    # pyflakes on a stdlib package.
    t = run(f"{VENV}/pyflakes {os.path.join(STDLIB, 'email')}", stderr=False)
    case("pyflakes-email", "log", "pyflakes email", t,
         lambda l: re.match(r"^\S+:\d+:\d+:? ", l), "every `path:line:col message` line")
    # cmake failing to configure.
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "CMakeLists.txt"), "cmake_minimum_required(VERSION 3.10)\nproject(demo C)\n"
              "find_package(GhostNoSuchLib REQUIRED)\nadd_executable(demo main.c)\n")
        write(os.path.join(tmp, "main.c"), "int main(void) { return 0; }\n")
        t = run("cmake -S . -B build", cwd=tmp)
        case("cmake-missing-package", "log", "cmake -S . -B build", t,
             lambda l: l.startswith("CMake Error at") or l.startswith("-- Configuring incomplete"),
             "the `CMake Error at …` line and the `Configuring incomplete` line")
    # Installers that cannot find a package.
    t = run("apt-get install -y ghost-no-such-package 2>&1")
    case("apt-get-missing", "log", "apt-get install ghost-no-such-package", t,
         lambda l: l.startswith("E: "), "every `E:` line")
    t = run("gem install ghost-no-such-gem-xyzzy 2>&1")
    case("gem-install-missing", "log", "gem install ghost-no-such-gem-xyzzy", t,
         lambda l: l.startswith("ERROR:"), "every `ERROR:` line")


def listing_cases():
    """The eleventh round: listings, every line an item the agent asked for
    (rules written before ghost's output was looked at, except that the tree
    rule of the log compressor was written looking at `npm ls --all` and
    `cargo tree` output)."""
    glyph = re.compile(r"^[│├└─┬ |`+\\-]*(├|└|\+-|\\-|`-)")
    node = lambda l: glyph.match(l) and not l.endswith(" deduped") and not l.endswith("(*)")
    how = "every node line of the tree but those the tool marks as shown already (`deduped`, `(*)`)"
    t = run("npm ls --all", cwd=os.path.abspath(js_dir()), stderr=False)
    t = "\n".join(t.splitlines()[:600]) + "\n"
    case("npm-ls-all-text", "log", "npm ls --all", t, node, how)
    t = run("cargo tree -p ghost-store -p ghost-redact --offline", stderr=False)
    case("cargo-tree", "log", "cargo tree -p ghost-store -p ghost-redact", t, node, how)
    t = run("tree /usr/share/doc/python3-yaml /usr/share/doc/ruby-rspec-core /usr/share/doc/libxml2-utils", stderr=False)
    case("tree-docs", "log", "tree /usr/share/doc/…", t, lambda l: glyph.match(l), "every node line (each a file or folder)")
    t = run(f"ls -la {os.path.join(STDLIB, 'email')} {os.path.join(STDLIB, 'json')}", stderr=False)
    case("ls-la", "log", "ls -la email json", t, lambda l: re.match(r"^[-dl][rwx-]{9}", l),
         "every entry line (`-rw-r--r-- 1 root root … name`)")
    t = run(f"cd {STDLIB} && find . -name '*.py' -path '*/http/*' -o -name '*.py' -path '*/xml/*'", stderr=False)
    case("find-py", "log", "find . -name '*.py' -path '*/http/*' -o …", t, lambda l: l.startswith("./"), "every path found")
    t = run("git log --oneline -60 376d9b8", stderr=False)
    case("git-log-oneline", "log", "git log --oneline -60", t, lambda l: re.match(r"^[0-9a-f]{7,} ", l), "every commit line")
    t = run("dpkg -l 'lib*' | head -120", stderr=False)
    case("dpkg-l", "log", "dpkg -l 'lib*'", t, lambda l: l.startswith("ii "), "every installed package line")
    t = run(f"{VENV}/pip list", stderr=False)
    case("pip-list-text", "log", "pip list", t, lambda l: not l.startswith("Package") and not l.startswith("---") and l.strip(),
         "every package row")
    t = run(f"{VENV}/pip freeze", stderr=False)
    case("pip-freeze", "log", "pip freeze", t, lambda l: "==" in l, "every `name==version` line")


def masked(text):
    """A line's text with timestamps, pids and every number that is not part
    of a name written as 0 (how the thirteenth round tells one message from
    another)."""
    return re.sub(r"(?<![A-Za-z_])\d+(?![A-Za-z_\d])", "0", text)


def first_of_each(lines, pick, text_of=lambda l: l):
    """The first line of each distinct (masked) message among the lines `pick` chooses."""
    seen, keep = set(), []
    for l in lines:
        if not pick(l):
            continue
        k = masked(text_of(l))
        if k not in seen:
            seen.add(k)
            keep.append(l)
    return keep


def thirteenth_cases():
    """The thirteenth round: long logs of servers and retrying clients,
    where one error comes back many times with new numbers (rules written
    before ghost's output was looked at: the first line of each distinct
    message, numbers masked, as Loghub's must-keeps are built, and the
    outcome at the end)."""
    pg = "/usr/lib/postgresql/15/bin"
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o777)
        data, log = os.path.join(tmp, "pg"), os.path.join(tmp, "pg.log")
        run(f"su postgres -c '{pg}/initdb -D {data} -A trust'")
        run(f"su postgres -c \"{pg}/pg_ctl -D {data} -l {log} -o '-p 5499 -k {tmp}' -w start\"")
        psql = f"su postgres -c \"psql -h {tmp} -p 5499 -X -q"
        run(psql + " -c 'create table orders(id int primary key, total int)'\"")
        run(psql + " -c 'insert into orders select g, g * 10 from generate_series(1, 60) g'\"")
        # A client retrying inserts it already made: each duplicate is an ERROR, a DETAIL and a STATEMENT.
        script = os.path.join(tmp, "retry.sql")
        write(script, "".join(f"insert into orders values ({i}, {i * 10});\n" for i in range(1, 121))
              + "select * from users;\nselect 1 / 0;\nselect * form orders;\n")
        os.chmod(script, 0o644)
        run(psql + f" -f {script}\"")
        for _ in range(25):
            run(f"su postgres -c \"psql -h {tmp} -p 5499 -X -q -d appdb -c 'select 1'\"")
        run(f"su postgres -c \"{pg}/pg_ctl -D {data} -m fast -w stop\"")
        t = open(log).read()
        strip = lambda l: re.sub(r"^\S+ \S+ \S+ \[\d+\] ", "", l)
        keep = first_of_each(t.splitlines(), lambda l: re.search(r"\b(ERROR|FATAL|WARNING|PANIC):", l), strip)
        case("postgres-server-log", "log", "cat pg.log", t, keep,
             "the first line of each distinct ERROR/FATAL/WARNING/PANIC message (prefix stripped, numbers masked)")
    t = run("wget -t 40 --waitretry=0 --retry-connrefused -O /dev/null http://127.0.0.1:9/data.tar.gz")
    lines = t.splitlines()
    case("wget-retrying", "log", "wget -t 40 --retry-connrefused http://127.0.0.1:9/data.tar.gz", t,
         first_of_each(lines, lambda l: "failed" in l or "Giving up" in l) + [l for l in lines[-2:] if l.strip()],
         "the first line of each distinct failure (numbers masked) and the last lines")
    t = run("curl -sS -v --retry 30 --retry-delay 1 --retry-connrefused --retry-max-time 0 http://127.0.0.1:9/health")
    lines = t.splitlines()
    case("curl-retrying", "log", "curl -v --retry 30 --retry-delay 1 --retry-connrefused http://127.0.0.1:9/health", t,
         first_of_each(lines, lambda l: re.search(r"(?i)fail|warning|refused|curl: \(", l)) + [lines[-1]],
         "the first line of each distinct failure or warning (numbers masked) and the last line")
    with tempfile.TemporaryDirectory() as tmp:
        run(f"python3 -m venv {tmp}/v")
        t = run(f"{tmp}/v/bin/pip install -v --no-cache-dir --retries 4 --timeout 1 --index-url http://127.0.0.1:9/simple six attrs")
        lines = t.splitlines()
        case("pip-retrying", "log", "pip install -v --retries 4 --index-url http://127.0.0.1:9/simple six attrs", t,
             first_of_each(lines, lambda l: l.startswith("WARNING") or l.startswith("ERROR")),
             "the first line of each distinct WARNING/ERROR message (numbers masked)")
    with tempfile.TemporaryDirectory() as tmp:
        run("npm init -y", cwd=tmp)
        t = run("npm install --no-audit --no-fund --registry http://127.0.0.1:9/ --fetch-retries 4 "
                "--fetch-retry-mintimeout 10 --fetch-retry-maxtimeout 20 --loglevel silly left-pad is-odd", cwd=tmp)
        lines = t.splitlines()
        case("npm-retrying", "log", "npm install --registry http://127.0.0.1:9/ --loglevel silly left-pad is-odd", t,
             first_of_each(lines, lambda l: l.startswith("npm error") or "failed" in l),
             "the first line of each distinct `npm error` or failure message (numbers masked)")
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "index.html"), "<h1>shop</h1>\n")
        server = subprocess.Popen(["python3", "-m", "http.server", "8765", "--bind", "127.0.0.1"], cwd=tmp,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        import time
        time.sleep(1)
        for i in range(80):
            path = "/" if i % 8 == 0 else f"/api/orders/{1000 + i}" if i % 3 else f"/static/app.{i}.js"
            run(f"curl -s -o /dev/null http://127.0.0.1:8765{path}")
        server.terminate()
        t = server.communicate()[0]
        lines = t.splitlines()
        case("http-server-404s", "log", "python3 -m http.server 8765", t,
             first_of_each(lines, lambda l: "404" in l, lambda l: re.sub(r"\[[^]]*\]", "", l)),
             "the first line of each distinct 404 message (timestamp stripped, numbers masked)")
    t = run("dmesg")
    # (First written without word boundaries, the rule took the kernel's
    # "no debug enabled" lines for bugs; corrected before ghost changed.)
    case("dmesg", "log", "dmesg", t, lambda l: re.search(r"(?i)\b(warn\w*|error\w*|fail\w*|bug)\b", l),
         "every line with a word warn…, error…, fail… or bug")


def twelfth_cases():
    """The twelfth round: installs that succeed, coverage tables, doctest,
    warnings of javac and gcc's analyzer, formatters, git (rules written
    before ghost's output was looked at)."""
    js = os.path.abspath(js_dir())
    with tempfile.TemporaryDirectory() as tmp:
        run(f"python3 -m venv {tmp}/v")
        t = run(f"{tmp}/v/bin/pip install --no-cache-dir requests==2.32.3 rich==13.9.4")
        case("pip-install-success", "log", "pip install requests rich", t,
             lambda l: l.startswith("Successfully installed") or l.startswith("ERROR"),
             "the `Successfully installed …` line")
    with tempfile.TemporaryDirectory() as tmp:
        run("npm init -y", cwd=tmp)
        t = run("npm install --no-audit --no-fund request@2.88.2 uuid@3.4.0", cwd=tmp)
        case("npm-install-deprecated", "log", "npm install request@2.88.2 uuid@3.4.0", t,
             lambda l: l.startswith("npm warn deprecated") or re.match(r"^added \d+ packages?", l),
             "every `npm warn deprecated` line and the `added N packages` line")
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "money.py"), '"""Money helpers.\n\n>>> cents(1.5)\n150\n"""\n\n'
              "def cents(x):\n    \"\"\"\n    >>> cents(2)\n    200\n    >>> cents(0.1)\n    10\n    >>> cents(-1)\n    -100\n    \"\"\"\n    return int(x * 100)\n\n"
              "def split(total, n):\n    \"\"\"\n    >>> split(10, 3)\n    [3, 3, 4]\n    >>> split(9, 3)\n    [3, 3, 3]\n    \"\"\"\n    return [total // n] * n\n")
        t = run(f"{VENV}/python -m doctest -v money.py", cwd=tmp)
        case("doctest-failing", "log", "python -m doctest -v money.py", t,
             lambda l: l.startswith("File ") or l.startswith("Failed example:") or "Test Failed" in l or re.match(r"^\d+ tests? in ", l),
             "each failure's `File …, line N` line, `Failed example:` lines, the totals and `***Test Failed***`")
        write(os.path.join(tmp, "Box.java"), "import java.util.*;\npublic class Box implements java.io.Serializable {\n  List items = new ArrayList();\n"
              "  void add(Object o) { items.add(o); }\n  int size() { return ((List<String>) (Object) items).size(); }\n"
              "  @Deprecated void old() {}\n  void use() { old(); int x = (int) 3; switch (x) { case 1: x++; case 2: x--; } }\n}\n")
        t = run("javac -Xlint:all Box.java", cwd=tmp)
        case("javac-xlint", "log", "javac -Xlint:all Box.java", t,
             lambda l: re.match(r"^Box\.java:\d+: warning: ", l) or re.match(r"^\d+ warnings?$", l),
             "every `Box.java:N: warning:` line and the count")
        write(os.path.join(tmp, "leak.c"), "#include <stdlib.h>\n#include <string.h>\n\nchar *dup(const char *s) {\n  char *p = malloc(strlen(s) + 1);\n"
              "  strcpy(p, s);\n  return p;\n}\n\nint main(void) {\n  char *a = dup(\"x\");\n  free(a);\n  free(a);\n  char *b = malloc(4);\n  return b[0];\n}\n")
        t = run("gcc -fanalyzer -c leak.c -o leak.o", cwd=tmp)
        case("gcc-fanalyzer", "log", "gcc -fanalyzer -c leak.c", t,
             lambda l: re.match(r"^leak\.c:\d+:\d+: warning: ", l), "every `leak.c:line:col: warning:` header")
        # pytest-cov's coverage table.
        write(os.path.join(tmp, "cov", "shop", "__init__.py"), "")
        write(os.path.join(tmp, "cov", "shop", "cart.py"), "def total(items):\n    return sum(items)\n\ndef empty(items):\n    if not items:\n        return True\n    return False\n")
        write(os.path.join(tmp, "cov", "shop", "tax.py"), "RATE = 0.2\n\ndef tax(x):\n    return x * RATE\n\ndef gross(x):\n    return x + tax(x)\n\ndef unused(x):\n    return -x\n")
        write(os.path.join(tmp, "cov", "test_shop.py"), "from shop.cart import total\nfrom shop.tax import gross\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n"
              "def test_gross():\n    assert gross(10) == 12\n")
        t = run(f"{VENV}/pytest --cov=shop --cov-report=term-missing", cwd=os.path.join(tmp, "cov"))
        case("pytest-cov-table", "log", "pytest --cov=shop --cov-report=term-missing", t,
             lambda l: re.match(r"^(shop/\S+|TOTAL)\s+\d+", l) or re.match(r"^=+ \d+ passed", l),
             "every row of the coverage table, its TOTAL and the test summary")
        # ruff format --check.
        for pkg in ["json", "wsgiref"]:
            shutil.copytree(os.path.join(STDLIB, pkg), os.path.join(tmp, "fmt", pkg), ignore=shutil.ignore_patterns("__pycache__"))
        t = run(f"{VENV}/ruff format --check .", cwd=os.path.join(tmp, "fmt"))
        case("ruff-format-check", "log", "ruff format --check .", t,
             lambda l: l.startswith("Would reformat") or "would be reformatted" in l or l.strip().startswith("--> "),
             "every file that would be reformatted (`Would reformat: FILE` or `--> FILE:line:col` under its header) and the summary")
    # jest's coverage table.
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "price.js"), "function net(x) { return x; }\nfunction gross(x) { return x * 1.2; }\nfunction unused(x) { return -x; }\n"
              "module.exports = { net, gross, unused };\n")
        write(os.path.join(tmp, "slug.js"), "module.exports = (s) => s.toLowerCase().replace(/ /g, '-');\n")
        write(os.path.join(tmp, "jest.config.js"), "module.exports = {};\n")
        write(os.path.join(tmp, "price.test.js"), "const { net, gross } = require('./price');\nconst slug = require('./slug');\n"
              "test('net', () => expect(net(1)).toBe(1));\ntest('gross', () => expect(gross(10)).toBe(12));\ntest('slug', () => expect(slug('A B')).toBe('a-b'));\n")
        t = run(f"{os.path.join(js, 'node_modules', '.bin', 'jest')} --coverage --ci", cwd=tmp)
        case("jest-coverage-table", "log", "jest --coverage", t,
             lambda l: re.match(r"^\s*(All files|[\w.]+\.js)\s+\|", l) or l.startswith("Tests:"),
             "every row of the coverage table (All files and each file) and the `Tests:` line")
    # git: a diff's stat and a status, on a clone of this repository with changes.
    with tempfile.TemporaryDirectory() as tmp:
        run(f"git clone -q {os.getcwd()} repo", cwd=tmp)
        r = os.path.join(tmp, "repo")
        t = run("git diff --stat 376d9b8~12 376d9b8", cwd=r, stderr=False)
        case("git-diff-stat", "log", "git diff --stat", t,
             lambda l: re.match(r"^ \S.* \| +\d+", l) or "files changed" in l or "file changed" in l,
             "every file line and the `N files changed` summary")
        for f in ["README.md", "Cargo.toml", "host/cli/src/main.rs"]:
            open(os.path.join(r, f), "a").write("\n")
        write(os.path.join(r, "notes.txt"), "x\n")
        write(os.path.join(r, "scratch", "a.rs"), "x\n")
        run("git rm -q --cached ARCHITECTURE.md", cwd=r)
        t = run("git status", cwd=r, stderr=False)
        case("git-status", "log", "git status", t,
             lambda l: re.match(r"^\t\S", l), "every changed, staged and untracked path line")
    # go test -cover over two packages.
    with tempfile.TemporaryDirectory() as tmp:
        run("go mod init example.com/shop", cwd=tmp)
        write(os.path.join(tmp, "cart", "cart.go"), "package cart\n\nfunc Total(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n\n"
              "func Empty(xs []int) bool { return len(xs) == 0 }\n")
        write(os.path.join(tmp, "cart", "cart_test.go"), "package cart\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif Total([]int{1, 2}) != 3 {\n\t\tt.Fatal(\"total\")\n\t}\n}\n")
        write(os.path.join(tmp, "tax", "tax.go"), "package tax\n\nfunc Tax(x float64) float64 { return x * 0.2 }\n")
        write(os.path.join(tmp, "tax", "tax_test.go"), "package tax\n\nimport \"testing\"\n\nfunc TestTax(t *testing.T) {\n\tif Tax(10) != 3 {\n\t\tt.Errorf(\"Tax(10) = %v, want 3\", Tax(10))\n\t}\n}\n")
        t = run("GOFLAGS=-mod=mod GOPROXY=off go test -cover ./...", cwd=tmp)
        case("go-test-cover", "log", "go test -cover ./...", t,
             lambda l: re.search(r"coverage: [\d.]+% of statements", l) or l.startswith("FAIL") or l.startswith("--- FAIL") or re.match(r"^\s+\w+_test\.go:\d+: ", l),
             "each package's coverage line, FAIL lines and the failing assertion")


def fourteenth_cases():
    """Round 14, written before ghost's output was looked at: big runs an
    agent starts and then has to read, each from a real project or tool —
    a verbose build with dependencies, clippy's pedantic lints over a real
    crate, real test suites passing at -v (CPython's, Go's standard
    library, a registry crate's, a PyPI package's), installers at -v and
    -vv, apt-get, Maven failing to reach its repository, CMake's build,
    deep crashes (Java's and Go's stack overflows, a Python server whose
    port is taken)."""
    reg = next(iter(sorted(os.listdir(os.path.expanduser("~/.cargo/registry/src")))))
    reg = os.path.join(os.path.expanduser("~/.cargo/registry/src"), reg)
    warn_header = lambda l: re.match(r"^(warning|error)(\[\w+\])?: ", l) or l.strip().startswith("--> ")
    with tempfile.TemporaryDirectory() as tmp:
        # cargo build -v of a crate with dependencies from crates.io and
        # one warning in its own code: the warning, its place, Finished.
        crate = os.path.join(tmp, "app")
        write(os.path.join(crate, "Cargo.toml"), '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'
              '[dependencies]\nserde = { version = "1", features = ["derive"] }\nserde_json = "1"\n')
        write(os.path.join(crate, "src", "main.rs"), "use serde::Deserialize;\n\n#[derive(Deserialize, Debug)]\nstruct Config { name: String }\n\n"
              "fn main() {\n    let unused = 3;\n    let c: Config = serde_json::from_str(r#\"{\"name\": \"x\"}\"#).unwrap();\n    println!(\"{c:?}\");\n}\n")
        t = run("cargo build -v --color never", cwd=crate)
        case("cargo-build-verbose", "log", "cargo build -v", t,
             lambda l: warn_header(l) or l.strip().startswith("Finished "),
             "every `warning:`/`error:` header, its `--> file:line:col`, and the `Finished` line")
        # clippy's pedantic lints over a real crate (base64 from the registry).
        b64 = os.path.join(tmp, "b64")
        shutil.copytree(os.path.join(reg, next(d for d in sorted(os.listdir(reg)) if d.startswith("base64-"))), b64)
        t = run("cargo clippy --color never -- -W clippy::pedantic", cwd=b64)
        case("clippy-pedantic-base64", "log", "cargo clippy -- -W clippy::pedantic", t, warn_header,
             "every `warning:` header and every `--> file:line:col` line")
        # cargo test of the same real crate, passing: every `test result:` line.
        t = run("cargo test --color never 2>&1 | grep -v '^\\s*\\(Compiling\\|Downloaded\\|Downloading\\|Locking\\|Adding\\|Updating\\)'", cwd=b64)
        case("cargo-test-base64", "log", "cargo test", t,
             lambda l: l.startswith("test result:") or " FAILED" in l or "panicked at" in l,
             "every `test result:` line and any FAILED or panic line")
    # CPython's own test suite at -v, passing.
    t = run("python3 -m test -v test_json test_csv")
    case("cpython-test-verbose", "log", "python3 -m test -v test_json test_csv", t,
         lambda l: re.match(r"^(Ran \d+ tests?|OK\b|FAILED \(|== Tests result|Total tests:|Result: |All \d+ tests OK|\d+ tests? OK)", l),
         "unittest's `Ran N tests` and `OK`/`FAILED` lines and regrtest's totals and result")
    # Go's standard library tests at -v.
    t = run("go test -v sort strconv")
    case("go-test-verbose-std", "log", "go test -v sort strconv", t,
         lambda l: re.match(r"^(ok|FAIL)\s", l) or l.startswith("--- FAIL"),
         "each package's `ok`/`FAIL` line and any `--- FAIL` line")
    with tempfile.TemporaryDirectory() as tmp:
        # A PyPI package's own test suite under pytest -v (more-itertools' sdist).
        run(f"{VENV}/pip download -q --no-deps --no-binary :all: more-itertools==10.5.0 -d {tmp}")
        run("tar xzf more*itertools-10.5.0.tar.gz && mv more*itertools-10.5.0/ mi", cwd=tmp)
        t = run(f"{VENV}/pytest -v -p no:cacheprovider tests", cwd=os.path.join(tmp, "mi"))
        case("pytest-verbose-more-itertools", "log", "pytest -v tests", t,
             lambda l: re.match(r"^=+ .*\d+ (passed|failed)", l) or l.startswith("FAILED ") or l.startswith("ERROR "),
             "pytest's final summary line and any FAILED/ERROR line")
        # pip install -vv into a fresh venv: every Collecting line and the outcome.
        run(f"python3 -m venv {tmp}/v")
        t = run(f"{tmp}/v/bin/pip install -vv --no-cache-dir requests==2.32.3")
        case("pip-install-vv", "log", "pip install -vv requests", t,
             lambda l: re.match(r"^(Collecting |Installing collected packages|Successfully installed|ERROR: |WARNING: )", l),
             "every `Collecting` line, `Installing collected packages`, `Successfully installed`, every ERROR/WARNING line")
        # pip building a C extension from source at -v: the wheel it made, the outcome, any compiler diagnostic.
        t = run(f"{tmp}/v/bin/pip install -v --no-cache-dir --no-binary :all: markupsafe==2.1.5")
        case("pip-build-c-extension", "log", "pip install -v --no-binary :all: markupsafe", t,
             lambda l: re.match(r"^\s*(Created wheel for|Successfully installed|ERROR: )", l) or re.search(r": (warning|error): ", l),
             "`Created wheel for`, `Successfully installed`, ERROR lines and every compiler `warning:`/`error:` line")
        # npm install --verbose.
        run("npm init -y", cwd=tmp)
        t = run("npm install --verbose --no-audit --no-fund express@4.21.2", cwd=tmp)
        case("npm-install-verbose", "log", "npm install --verbose express@4", t,
             lambda l: re.match(r"^(npm warn|npm error|added \d+ packages?)", l),
             "every `npm warn`/`npm error` line and the `added N packages` line")
    # apt-get reinstalling two packages.
    t = run("apt-get install -y --reinstall tree bats")
    case("apt-get-reinstall", "log", "apt-get install --reinstall tree bats", t,
         lambda l: re.match(r"^(\d+ upgraded, \d+ newly installed|[EW]: |Setting up )", l),
         "the `N upgraded, N newly installed` summary, every `Setting up` line and every `E:`/`W:` line")
    with tempfile.TemporaryDirectory() as tmp:
        # Maven building a project whose plugins it cannot download.
        write(os.path.join(tmp, "pom.xml"), '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n'
              "  <groupId>example</groupId>\n  <artifactId>shop</artifactId>\n  <version>1.0</version>\n"
              "  <properties><maven.compiler.release>17</maven.compiler.release></properties>\n"
              "  <dependencies><dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency></dependencies>\n</project>\n")
        write(os.path.join(tmp, "src", "main", "java", "shop", "Cart.java"), "package shop;\npublic class Cart { public int total() { return 0; } }\n")
        t = run(f"mvn -B -Dmaven.repo.local={tmp}/m2 test", cwd=tmp)
        case("mvn-unreachable-repo", "log", "mvn -B test", t,
             lambda l: l.startswith("[INFO] BUILD FAILURE") or (l.startswith("[ERROR]") and re.search(r"Failed|Could not|Non-resolvable|Unknown", l)),
             "`BUILD FAILURE` and every `[ERROR]` line saying what failed (Failed, Could not, Non-resolvable, Unknown)")
        # CMake configuring and building 40 C files, one with a warning.
        src = os.path.join(tmp, "c")
        names = [f"part{i:02}" for i in range(40)]
        write(os.path.join(src, "CMakeLists.txt"), "cmake_minimum_required(VERSION 3.10)\nproject(parts C)\n"
              "add_compile_options(-Wall)\nadd_executable(parts main.c " + " ".join(f"{n}.c" for n in names) + ")\n")
        for i, n in enumerate(names):
            body = f"int {n}(int x) {{ return x + {i}; }}\n"
            if i == 27:
                body = f"int {n}(int x) {{ int y; return x + {i}; }}\n"
            write(os.path.join(src, f"{n}.c"), body)
        write(os.path.join(src, "main.c"), "".join(f"int {n}(int);\n" for n in names) + "int main(void) { return part00(0); }\n")
        t = run(f"cmake -S {src} -B {src}/build && cmake --build {src}/build", cwd=tmp)
        case("cmake-build", "log", "cmake -S . -B build && cmake --build build", t,
             lambda l: re.search(r": (warning|error): ", l) or re.match(r"^\[100%\] Built target", l) or l.startswith("-- Build files have been written"),
             "every compiler `warning:`/`error:` header, `[100%] Built target` and the configure step's last line")
        # Deep crashes: Java's and Go's stack overflows, a Python server whose port is taken.
        write(os.path.join(tmp, "Deep.java"), "public class Deep {\n  static int depth(int n) { return depth(n + 1) + 1; }\n"
              "  public static void main(String[] a) { System.out.println(depth(0)); }\n}\n")
        t = run("javac Deep.java && java Deep", cwd=tmp)
        case("java-stack-overflow", "error", "java Deep", t,
             lambda l: l.startswith("Exception in thread") or re.match(r"^\s+at Deep\.depth\(Deep\.java:\d+\)$", l),
             "the exception line and the recursing frame `at Deep.depth(Deep.java:2)`")
        write(os.path.join(tmp, "deep", "go.mod"), "module deep\n\ngo 1.19\n")
        write(os.path.join(tmp, "deep", "main.go"), "package main\n\nimport \"fmt\"\n\nfunc depth(n int) int { return depth(n+1) + 1 }\n\n"
              "func main() { fmt.Println(depth(0)) }\n")
        t = run("go run .", cwd=os.path.join(tmp, "deep"))
        case("go-stack-overflow", "error", "go run .", t,
             lambda l: re.match(r"^(runtime: goroutine stack exceeds|fatal error: stack overflow|exit status)", l) or re.match(r"^main\.depth\(", l),
             "the runtime's `goroutine stack exceeds` and `fatal error` lines, the recursing frame's `main.depth(` line and `exit status`")
        t = run("python3 -c \"import socket,subprocess,sys; s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen(); "
                "sys.exit(subprocess.run([sys.executable,'-m','http.server','--bind','127.0.0.1',str(s.getsockname()[1])]).returncode)\"")
        case("python-port-taken", "error", "python3 -m http.server PORT", t,
             lambda l: re.match(r"^OSError: ", l) or re.match(r'^\s+File ".*http/server\.py", line \d+, in (test|<module>)', l),
             "the `OSError:` line and http.server's own frames (`test`, `<module>`)")


def fifteenth_cases():
    """Round 15, written before ghost's output was looked at: tools of
    ecosystems no earlier round ran — Ansible, pre-commit, tox, Sphinx,
    Django's test runner, Hypothesis, gfortran, GHC, uv, MkDocs."""
    with tempfile.TemporaryDirectory() as tmp:
        # ansible-playbook on localhost: a loop, changes, one failing task.
        write(os.path.join(tmp, "play.yml"), "- hosts: all\n  gather_facts: false\n  tasks:\n"
              "    - name: make folders\n      ansible.builtin.file: {path: '" + tmp + "/out/{{ item }}', state: directory}\n"
              "      loop: [alpha, beta, gamma, delta]\n"
              "    - name: write a config\n      ansible.builtin.copy: {dest: '" + tmp + "/out/app.conf', content: 'port=8080\\n'}\n"
              "    - name: check the service binary\n      ansible.builtin.command: ls /opt/shop/bin/shopd\n"
              "    - name: never reached\n      ansible.builtin.debug: {msg: done}\n")
        t = run(f"ANSIBLE_NOCOLOR=1 {VENV}/ansible-playbook -i localhost, -c local play.yml", cwd=tmp)
        lines = t.splitlines()
        keep = [l for l in lines if re.match(r"^(fatal|failed): ", l) or l.startswith("PLAY RECAP") or re.match(r"^localhost\s+:", l)]
        keep += [lines[i - 1] for i, l in enumerate(lines) if re.match(r"^(fatal|failed): ", l) and i > 0 and lines[i - 1].startswith("TASK [")]
        case("ansible-playbook-failing", "log", "ansible-playbook -i localhost, -c local play.yml", t, keep,
             "every `fatal:`/`failed:` line with the `TASK [...]` header right above it, `PLAY RECAP` and the host's recap line")
        # pre-commit with local hooks: one passing, two failing.
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        run("git init -q && git config user.email a@b && git config user.name a", cwd=repo)
        write(os.path.join(repo, ".pre-commit-config.yaml"), "repos:\n  - repo: local\n    hooks:\n"
              "      - {id: json, name: check json, entry: python3 -m json.tool, language: system, files: '\\.json$'}\n"
              f"      - {{id: ruff, name: ruff, entry: {VENV}/ruff check --no-cache, language: system, types: [python]}}\n"
              "      - {id: yaml, name: no tabs in yaml, entry: 'grep -n -P \"\\t\"', language: system, files: '\\.ya?ml$'}\n")
        write(os.path.join(repo, "config.json"), '{"name": "shop", "port": 8080,}\n')
        write(os.path.join(repo, "app.py"), "import os, sys\n\ndef main():\n    x = 1\n    return undefined_name\n")
        write(os.path.join(repo, "ok.yaml"), "a: 1\n")
        run("git add -A", cwd=repo)
        t = run(f"PATH={VENV}:$PATH {VENV}/pre-commit run --all-files", cwd=repo)
        case("pre-commit-local-hooks", "log", "pre-commit run --all-files", t,
             lambda l: re.search(r"\.{3,}(Passed|Failed|Skipped)$", l) or l.startswith("- exit code:") or re.match(r"^app\.py:\d+:\d+: ", l),
             "every hook's status line (`name....Passed/Failed`), every `- exit code:` line and ruff's `app.py:line:col:` findings")
        # tox: a passing test env and a failing lint env.
        proj = os.path.join(tmp, "proj")
        write(os.path.join(proj, "tox.ini"), "[tox]\nenv_list = py, lint\nskipsdist = true\n\n[testenv]\ndeps = pytest\ncommands = pytest -q\n\n"
              "[testenv:lint]\ndeps = ruff\ncommands = ruff check --no-cache .\n")
        write(os.path.join(proj, "test_shop.py"), "".join(f"def test_{i}():\n    assert {i} == {i}\n\n" for i in range(12)))
        write(os.path.join(proj, "shop.py"), "import json\n\ndef total(xs):\n    l = 0\n    return sum(xs)\n")
        t = run(f"{VENV}/tox", cwd=proj)
        case("tox-two-envs", "log", "tox", t,
             lambda l: re.match(r"^\s+(py|lint): (OK|FAIL)", l) or "evaluation failed" in l or "congratulations" in l
             or re.match(r"^\S+\.py:\d+:\d+: ", l) or re.match(r"^[A-Z]+\d+ ", l) or re.match(r"^\d+ passed", l),
             "each env's `py: OK`/`lint: FAIL` summary, the final verdict, every ruff finding (header or `path:line:col:`) and pytest's `N passed`")
        # sphinx-build with broken references.
        docs = os.path.join(tmp, "docs")
        write(os.path.join(docs, "conf.py"), "project = 'shop'\nextensions = []\n")
        write(os.path.join(docs, "index.rst"), "Shop\n====\n\n.. toctree::\n\n   usage\n   missing\n\nSee :ref:`nowhere` and :doc:`gone`.\n")
        write(os.path.join(docs, "usage.rst"), "Usage\n-----\n\nCall :func:`shop.total`.\n\n.. code-block:: python\n\n   total([1, 2]\n\nTitle\n==\n")
        write(os.path.join(docs, "orphan.rst"), "Orphan\n======\n\nNot in any toctree.\n")
        t = run(f"{VENV}/sphinx-build -n -b html {docs} {tmp}/html")
        case("sphinx-warnings", "log", "sphinx-build -n -b html docs html", t,
             lambda l: "WARNING:" in l or "ERROR:" in l or re.match(r"^build (succeeded|finished)", l),
             "every `WARNING:`/`ERROR:` line and the `build succeeded, N warnings` line")
        # Django's test runner at -v 2 with a failure and an error.
        os.makedirs(os.path.join(tmp, "site_p"))
        run(f"{VENV}/django-admin startproject shopsite {tmp}/site_p", cwd=tmp)
        site = os.path.join(tmp, "site_p")
        run(f"{VENV}/python manage.py startapp shop", cwd=site)
        settings = os.path.join(site, "shopsite", "settings.py")
        open(settings, "a").write("\nINSTALLED_APPS += ['shop']\n")
        write(os.path.join(site, "shop", "models.py"), "from django.db import models\n\nclass Item(models.Model):\n    name = models.CharField(max_length=20)\n    price = models.IntegerField()\n")
        write(os.path.join(site, "shop", "tests.py"), "from django.test import TestCase\nfrom .models import Item\n\nclass ItemTests(TestCase):\n"
              + "".join(f"    def test_price_{i}(self):\n        Item.objects.create(name='i{i}', price={i})\n        self.assertEqual(Item.objects.get(name='i{i}').price, {i})\n\n" for i in range(15))
              + "    def test_total(self):\n        Item.objects.create(name='a', price=2)\n        self.assertEqual(sum(i.price for i in Item.objects.all()), 3)\n\n"
              + "    def test_lookup(self):\n        Item.objects.get(name='zzz')\n")
        run(f"{VENV}/python manage.py makemigrations shop", cwd=site)
        t = run(f"{VENV}/python manage.py test -v 2", cwd=site)
        case("django-test-verbose", "log", "python manage.py test -v 2", t,
             lambda l: re.match(r"^(FAIL|ERROR): ", l) or re.match(r"^(AssertionError|shop\.models\.Item\.DoesNotExist|\w+\.DoesNotExist)", l)
             or l.startswith("Ran ") or l.startswith("FAILED ("),
             "FAIL/ERROR headers, the assertion and DoesNotExist lines, `Ran N tests` and `FAILED (…)`")
        # Hypothesis finding a counterexample.
        write(os.path.join(tmp, "hyp", "test_prop.py"), "from hypothesis import given, strategies as st\n\n"
              "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n\n"
              "@given(st.integers(), st.integers(), st.integers())\ndef test_clamp_within(x, lo, hi):\n    assert lo <= clamp(x, lo, hi) <= hi\n\n"
              "@given(st.lists(st.integers()))\ndef test_sorted_is_idempotent(xs):\n    assert sorted(sorted(xs)) == sorted(xs)\n")
        t = run(f"{VENV}/pytest -p no:cacheprovider test_prop.py", cwd=os.path.join(tmp, "hyp"))
        case("hypothesis-falsified", "log", "pytest test_prop.py", t,
             lambda l: l.startswith("Falsifying example") or l.startswith("FAILED ") or re.match(r"^=+ .*\d+ (passed|failed)", l) or l.startswith("E   "),
             "the `Falsifying example:` line, E lines, the FAILED line and the final summary")
        # gfortran errors and warnings.
        write(os.path.join(tmp, "stats.f90"), "program stats\n  implicit none\n  integer :: i, n\n  real :: total\n  n = 10\n"
              "  do i = 1, n\n    total = total + i\n  end do\n  print *, mean\n  call report(total, n\nend program stats\n")
        t = run("gfortran -Wall -c stats.f90", cwd=tmp)
        case("gfortran-errors", "log", "gfortran -Wall -c stats.f90", t,
             lambda l: re.match(r"^(Error|Warning): ", l) or re.match(r"^stats\.f90:\d+:\d+:$", l),
             "every `stats.f90:line:col:` location and every `Error:`/`Warning:` line")
        # GHC type errors.
        write(os.path.join(tmp, "Shop.hs"), "module Main where\n\nimport Data.List (sortOn)\n\ntotal :: [Int] -> Int\ntotal xs = sum xs + \"0\"\n\n"
              "main :: IO ()\nmain = do\n  print (total [1, 2, 3])\n  print (averge [1.0, 2.0])\n  let unused = 3\n  putStrLn 42\n")
        t = run("ghc -Wall -fno-code Shop.hs", cwd=tmp)
        case("ghc-type-errors", "log", "ghc -Wall Shop.hs", t,
             lambda l: re.match(r"^Shop\.hs:\d+:\d+(-\d+)?: (error|warning)", l),
             "every `Shop.hs:line:col: error|warning` header")
        # uv installing into a fresh environment.
        run(f"{VENV}/uv venv -q {tmp}/uvenv")
        t = run(f"{VENV}/uv pip install --python {tmp}/uvenv/bin/python --no-cache flask==3.0.3")
        case("uv-pip-install", "log", "uv pip install flask", t,
             lambda l: re.match(r"^(Resolved|Prepared|Installed) \d+ packages?", l) or re.match(r"^ \+ \S+==", l),
             "`Resolved`/`Prepared`/`Installed N packages` and every ` + name==version` line")
        # mkdocs build --strict with broken links.
        site = os.path.join(tmp, "mk")
        write(os.path.join(site, "mkdocs.yml"), "site_name: Shop\nnav:\n  - Home: index.md\n  - Usage: usage.md\n  - API: api.md\n")
        write(os.path.join(site, "docs", "index.md"), "# Shop\n\nSee [usage](usage.md), [the install guide](install.md) and [FAQ](faq.md#top).\n")
        write(os.path.join(site, "docs", "usage.md"), "# Usage\n\n![diagram](img/flow.png)\n\nBack to [home](index.md#nowhere).\n")
        write(os.path.join(site, "docs", "extra.md"), "# Extra\n")
        t = run(f"{VENV}/mkdocs build --strict", cwd=site)
        case("mkdocs-strict", "log", "mkdocs build --strict", t,
             lambda l: l.startswith("WARNING") or l.startswith("ERROR") or l.startswith("Aborted"),
             "every WARNING/ERROR line and `Aborted with N warnings in strict mode!`")


def code_cases():
    """Round 16, written before ghost's output was looked at: source files
    an agent reads (Claude Code's Read, the path as the hint) in languages
    none of the code cases is in: Go, C, TypeScript, Java, Ruby, PHP, Perl
    and shell, from real projects on this machine (Go's standard library,
    C libraries vendored in cargo's registry, rxjs from npm, the JDK's
    sources, Ruby's standard library, Composer, Perl's, Debian's scripts).
    The must-keep lines are the names each file declares at its top level
    (and a class's methods), by a regex per language at line start."""
    reg = os.path.join(os.path.expanduser("~/.cargo/registry/src"), sorted(os.listdir(os.path.expanduser("~/.cargo/registry/src")))[0])
    crate = lambda prefix: os.path.join(reg, next(d for d in sorted(os.listdir(reg)) if d.startswith(prefix)))
    go = [r"^func (\([^)]*\) )?(?P<name>\w+)", r"^type (?P<name>\w+)", r"^(var|const) (?P<name>\w+)"]
    c = [r"^(static |extern |inline |const |unsigned |struct )*[\w\*]+[\s\*]+\**(?P<name>\w+)\([^;]*$", r"^(typedef )?struct (?P<name>\w+) \{", r"^#define (?P<name>\w+)"]
    ts = [r"^(export )?(default )?(declare )?(abstract )?(async )?(function\*?|class|interface|type|const|let|enum) (?P<name>\w+)"]
    java = [r"^(public |final |abstract )*(class|interface|enum|record) (?P<name>\w+)",
            r"^    (public |protected |private |static |final |abstract |synchronized |native |default )+[\w<>\[\], ?.]+ (?P<name>\w+)\("]
    ruby = [r"^\s*(def|class|module) (self\.)?(?P<name>[\w?!=]+)"]
    php = [r"^\s*(abstract |final )?(class|interface|trait) (?P<name>\w+)", r"^\s*(public |protected |private |static |abstract |final )*function (?P<name>\w+)"]
    perl = [r"^sub (?P<name>\w+)", r"^package (?P<name>[\w:]+)"]
    shell = [r"^(function )?(?P<name>[\w-]+)\s*\(\)\s*\{?\s*$"]
    files = [
        ("code-go-net-http-client", "/usr/lib/go-1.19/src/net/http/client.go", go),
        ("code-go-encoding-json-decode", "/usr/lib/go-1.19/src/encoding/json/decode.go", go),
        ("code-go-bufio-scan", "/usr/lib/go-1.19/src/bufio/scan.go", go),
        ("code-c-liblzma-alone-decoder", os.path.join(crate("liblzma-sys-"), "xz/src/liblzma/common/alone_decoder.c"), c),
        ("code-c-libffi-closures", os.path.join(crate("libffi-sys-"), "libffi/src/closures.c"), c),
        ("code-c-sqlite-wasi-vfs", os.path.join(crate("libsqlite3-sys-"), "sqlite3/wasm32-wasi-vfs.c"), c),
        ("code-java-util-arraydeque", "java.base/java/util/ArrayDeque.java", java),
        ("code-java-util-concurrent-semaphore", "java.base/java/util/concurrent/Semaphore.java", java),
        ("code-ruby-set", "/usr/lib/ruby/3.1.0/set.rb", ruby),
        ("code-ruby-optparse", "/usr/lib/ruby/3.1.0/optparse.rb", ruby),
        ("code-php-composer-installer", "/usr/share/php/Composer/Installer.php", php),
        ("code-php-composer-autoload-classloader", "/usr/share/php/Composer/Autoload/ClassLoader.php", php),
        ("code-perl-text-wrap", "/usr/share/perl/5.36/Text/Wrap.pm", perl),
        ("code-perl-file-find", "/usr/share/perl/5.36/File/Find.pm", perl),
        ("code-sh-gettext", "/usr/bin/gettext.sh", shell),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        run("unzip -q -o /usr/lib/jvm/openjdk-17/lib/src.zip 'java.base/java/util/ArrayDeque.java' 'java.base/java/util/concurrent/Semaphore.java'", cwd=tmp)
        run("npm pack -q rxjs@7.8.1 && tar xzf rxjs-7.8.1.tgz", cwd=tmp)
        files += [
            ("code-ts-rxjs-observable", os.path.join(tmp, "package/src/internal/Observable.ts"), ts),
            ("code-ts-rxjs-subject", os.path.join(tmp, "package/src/internal/Subject.ts"), ts),
            ("code-ts-rxjs-operators-mergeinternals", os.path.join(tmp, "package/src/internal/operators/mergeInternals.ts"), ts),
        ]
        for cid, path, patterns in files:
            full = path if os.path.isabs(path) else os.path.join(tmp, path)
            if not os.path.exists(full):
                print(f"{cid}: {full} missing, skipped")
                continue
            text = open(full, errors="replace").read()
            shown = path if not os.path.isabs(path) else path
            if full.startswith(tmp):
                shown = os.path.relpath(full, tmp)
            case(cid, "code", shown, text, declared_names(text, patterns),
                 "names of top-level declarations (and a class's methods), by a regex per language at line start", tool="Read")


def lockfile_cases():
    """Round 17, written before ghost's output was looked at: lockfiles an
    agent reads (Claude Code's Read, the file's name as the hint) from
    package managers no earlier case came from — uv, pnpm, Yarn 1 (Poetry
    could not reach PyPI's JSON API from this machine) —
    each resolving a real project from its registry. The must-keep lines
    are every package's name and every version the lock pins."""
    def lock_case(cid, path, names, versions):
        text = open(path).read()
        keep = list(dict.fromkeys(sorted(names) + sorted(versions)))
        case(cid, "structured", os.path.basename(path), text, keep,
             "every package name and every version the lockfile pins", tool="Read")
    with tempfile.TemporaryDirectory() as tmp:
        py = os.path.join(tmp, "py")
        write(os.path.join(py, "pyproject.toml"), '[project]\nname = "shop"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n'
              'dependencies = ["flask==3.0.3", "requests==2.32.3", "sqlalchemy==2.0.36"]\n')
        run(f"{VENV}/uv lock -q", cwd=py)
        text = open(os.path.join(py, "uv.lock")).read()
        pkgs = re.findall(r'\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"', text)
        lock_case("lock-uv", os.path.join(py, "uv.lock"), [n for n, _ in pkgs], [v for _, v in pkgs])
        js = os.path.join(tmp, "js")
        write(os.path.join(js, "package.json"), '{"name": "shop", "version": "1.0.0", "dependencies": {"express": "4.21.2", "lodash": "4.17.21"}}\n')
        run("npx --yes pnpm@9 install --lockfile-only --silent", cwd=js)
        text = open(os.path.join(js, "pnpm-lock.yaml")).read()
        section = text.split("\npackages:\n", 1)[1].split("\nsnapshots:\n", 1)[0]
        pkgs = re.findall(r"^  '?(@?[^@\s']+)@([^:'(\s]+)'?:", section, re.M)
        lock_case("lock-pnpm", os.path.join(js, "pnpm-lock.yaml"), [n for n, _ in pkgs], [v for _, v in pkgs])
        yarn = os.path.join(tmp, "yarn")
        write(os.path.join(yarn, "package.json"), '{"name": "shop", "version": "1.0.0", "dependencies": {"express": "4.21.2", "chalk": "4.1.2"}}\n')
        run("npx --yes yarn@1 install --silent --ignore-scripts", cwd=yarn)
        text = open(os.path.join(yarn, "yarn.lock")).read()
        names = [re.match(r'^"?(@?[^@"]+)@', l).group(1) for l in text.splitlines() if re.match(r'^"?@?[^\s#].*:$', l)]
        versions = re.findall(r'^  version "([^"]+)"', text, re.M)
        lock_case("lock-yarn", os.path.join(yarn, "yarn.lock"), names, versions)


MAVEN_SHOP_POM = ("<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n"
                  "  <groupId>demo</groupId>\n  <artifactId>shop</artifactId>\n  <version>1.0</version>\n"
                  "  <properties>\n    <maven.compiler.source>11</maven.compiler.source>\n"
                  "    <maven.compiler.target>11</maven.compiler.target>\n"
                  "    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>\n  </properties>\n"
                  "  <dependencies>\n    <dependency><groupId>junit</groupId><artifactId>junit</artifactId>"
                  "<version>4.13.2</version><scope>test</scope></dependency>\n  </dependencies>\n"
                  "  <build>\n    <plugins>\n"
                  + "".join(f"      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>{a}</artifactId><version>{v}</version></plugin>\n"
                            for a, v in [("maven-resources-plugin", "3.3.0"), ("maven-compiler-plugin", "3.10.1"),
                                         ("maven-surefire-plugin", "2.22.3")])
                  + "    </plugins>\n  </build>\n</project>\n")
MAVEN_OFFLINE = "mvn -B -s /etc/maven/settings-debian.xml"
MAVEN_SHOP_MAIN = ("package demo;\n\nimport java.util.*;\n\npublic class Cart {\n"
                   "    private final Map<String, Integer> items = new LinkedHashMap<>();\n"
                   "    public Cart add(String sku, int qty) {\n        if (qty <= 0) throw new IllegalArgumentException(\"qty must be positive: \" + qty);\n"
                   "        items.merge(sku, qty, Integer::sum);\n        return this;\n    }\n"
                   "    public int count() { return items.values().stream().mapToInt(Integer::intValue).sum(); }\n"
                   "    public int price(Map<String, Integer> prices) {\n        int total = 0;\n"
                   "        for (var e : items.entrySet()) total += prices.get(e.getKey()) * e.getValue();\n        return total;\n    }\n"
                   "    public String label() { return items.size() + \" items\"; }\n}\n")


def maven_test_class(name, tests):
    return ("package demo;\n\nimport static org.junit.Assert.*;\nimport java.util.*;\nimport org.junit.Test;\n\n"
            f"public class {name} {{\n" + "".join(tests) + "}\n")


def maven_shop(root, failing):
    """Writes round 19's Maven project under `root`: a cart class and twelve
    JUnit 4 test classes of ten passing tests, four of them failing in two
    classes when `failing`."""
    write(os.path.join(root, "pom.xml"), MAVEN_SHOP_POM)
    write(os.path.join(root, "src", "main", "java", "demo", "Cart.java"), MAVEN_SHOP_MAIN)
    for k in range(12):
        tests = [f"    @Test public void addsSku{i}() {{ assertEquals({i + 1}, new Cart().add(\"s{i}\", {i + 1}).count()); }}\n"
                 for i in range(10)]
        if failing and k == 3:
            tests.append("    @Test public void labelsItems() { assertEquals(\"2 items\", new Cart().add(\"a\", 1).label()); }\n")
            tests.append("    @Test public void pricesUnknownSku() { assertEquals(0, new Cart().add(\"x\", 1).price(Map.of())); }\n")
        if failing and k == 8:
            tests.append("    @Test public void rejectsZero() { new Cart().add(\"a\", 0); }\n")
            tests.append("    @Test public void countsMerged() { assertEquals(4, new Cart().add(\"a\", 1).add(\"a\", 2).count()); }\n")
        write(os.path.join(root, "src", "test", "java", "demo", f"Cart{k}Test.java"), maven_test_class(f"Cart{k}Test", tests))


def maven_cases():
    """The nineteenth round: Maven and its surefire runner (rules written
    before ghost's output was looked at). Offline: Debian's settings point
    Maven at /usr/share/maven-repo."""
    mvn = MAVEN_OFFLINE
    with tempfile.TemporaryDirectory() as tmp:
        maven_shop(tmp, failing=True)
        t = run(f"{mvn} test", cwd=tmp)
        runs = [l for l in t.splitlines() if "Tests run:" in l]
        case("mvn-surefire-failing", "log", "mvn test", t,
             lambda l: "<<< FAILURE!" in l or "<<< ERROR!" in l
             or re.match(r"^\[ERROR\]   \w+\.\w+:\d+ ", l) or l == runs[-1] or "BUILD FAILURE" in l,
             "every test surefire marks `<<< FAILURE!` or `<<< ERROR!`, each line of the Results list "
             "(`[ERROR]   Class.test:line message`), the last `Tests run:` line and BUILD FAILURE")
    with tempfile.TemporaryDirectory() as tmp:
        maven_shop(tmp, failing=False)
        t = run(f"{mvn} test", cwd=tmp)
        runs = [l for l in t.splitlines() if "Tests run:" in l]
        case("mvn-surefire-passing", "log", "mvn test", t,
             lambda l: l == runs[-1] or "BUILD SUCCESS" in l,
             "the last `Tests run:` line and BUILD SUCCESS")
    with tempfile.TemporaryDirectory() as tmp:
        maven_shop(tmp, failing=False)
        broken = MAVEN_SHOP_MAIN.replace("return this;", "return self;").replace("Integer::intValue", "Integer::intVal")
        write(os.path.join(tmp, "src", "main", "java", "demo", "Cart.java"), broken)
        t = run(f"{mvn} test", cwd=tmp)
        case("mvn-compile-error", "log", "mvn test", t,
             lambda l: re.match(r"^\[ERROR\] /\S+\.java:\[\d+,\d+\] ", l) or "BUILD FAILURE" in l,
             "every `[ERROR] /path/X.java:[line,col] message` line and BUILD FAILURE")


def gradle_cases():
    """The twentieth round: Gradle (Debian's 4.4.1, offline, JUnit 4 from
    /usr/share/java) testing and compiling a small Java project, rules
    written before ghost's output was looked at: with its default test
    logging, with every test's event and full exceptions (as CI builds
    configure it), and a compile error."""
    main_src = ("package demo;\n\npublic class Calc {\n"
                "    public static int add(int a, int b) { return a + b + (a > 50 ? 1 : 0); }\n"
                "    public static int div(int a, int b) { return a / b; }\n"
                "    public static String label(int n) { return n + (n == 1 ? \" item\" : \" item\"); }\n}\n")

    def project(root, events):
        logging = ("\ntest { testLogging { events 'passed', 'skipped', 'failed'; exceptionFormat 'full' } }\n"
                   if events else "")
        write(os.path.join(root, "build.gradle"),
              "apply plugin: 'java'\nrepositories { flatDir { dirs '/usr/share/java' } }\n"
              "dependencies { testCompile name: 'junit4'; testCompile name: 'hamcrest-core' }\n" + logging)
        write(os.path.join(root, "src", "main", "java", "demo", "Calc.java"), main_src)
        for k in range(15):
            tests = [f"    @Test public void adds{i}() {{ assertEquals({k * 3 + i * 2}, Calc.add({k * 3}, {i * 2})); }}\n"
                     for i in range(6)]
            if k == 4:
                tests.append("    @Test public void dividesByZero() { assertEquals(0, Calc.div(1, 0)); }\n")
            if k == 9:
                tests.append("    @Test public void labelsPlural() { assertEquals(\"2 items\", Calc.label(2)); }\n")
            write(os.path.join(root, "src", "test", "java", "demo", f"Calc{k}Test.java"),
                  "package demo;\n\nimport static org.junit.Assert.*;\nimport org.junit.Test;\n\n"
                  f"public class Calc{k}Test {{\n" + "".join(tests) + "}\n")

    gradle = "gradle --offline --console=plain --no-daemon"
    with tempfile.TemporaryDirectory() as tmp:
        project(tmp, events=False)
        t = run(f"{gradle} test", cwd=tmp)
        lines = t.splitlines()
        keep = [l for i, l in enumerate(lines)
                if re.match(r"^\S+ > \S+ FAILED$", l) or (i > 0 and re.match(r"^\S+ > \S+ FAILED$", lines[i - 1]))
                or re.match(r"^\d+ tests completed, \d+ failed", l) or "Execution failed for task" in l
                or l.startswith("BUILD FAILED")]
        case("gradle-test-failing", "log", "gradle test", t, keep,
             "every `Class > test FAILED` line and the exception line under it, the `N tests completed, "
             "M failed` summary, `Execution failed for task` and BUILD FAILED")
    with tempfile.TemporaryDirectory() as tmp:
        project(tmp, events=True)
        t = run(f"{gradle} test", cwd=tmp)
        case("gradle-test-events", "log", "gradle test", t,
             lambda l: re.match(r"^\S+ > \S+ FAILED$", l) or re.match(r"^\s+[\w.]+(Error|Exception|Failure)(: |$)", l)
             or re.match(r"^\s+at demo\.", l) or re.match(r"^\d+ tests completed, \d+ failed", l)
             or l.startswith("BUILD FAILED"),
             "every `Class > test FAILED` line, each exception's line with its message, every frame in "
             "the project (`at demo.…`), the summary and BUILD FAILED")
    with tempfile.TemporaryDirectory() as tmp:
        project(tmp, events=False)
        broken = MAVEN_SHOP_MAIN.replace("return a / b;", "return a / c;").replace("n == 1", "n.isOne()")
        write(os.path.join(tmp, "src", "main", "java", "demo", "Calc.java"), broken)
        t = run(f"{gradle} test", cwd=tmp)
        case("gradle-compile-error", "log", "gradle test", t,
             lambda l: re.match(r"^\S+\.java:\d+: error: ", l) or "Execution failed for task" in l
             or l.startswith("BUILD FAILED"),
             "every `path/X.java:line: error: message` line, `Execution failed for task` and BUILD FAILED")


def library_crash_cases():
    """Round 18, written before ghost's output was looked at: programs
    dying inside library code, in languages whose traces the error
    compressor read only from hand-written tests until now — Ruby (its
    standard library's JSON and OptionParser), Node (an npm package),
    Java (streams and lambdas) and PHP (a Composer class). The must-keep
    lines are the exception's line and every frame in the program's own
    file."""
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "config.rb"), "require 'json'\nrequire 'optparse'\n\n"
              "def load_config(text)\n  JSON.parse(text, symbolize_names: true)\nend\n\n"
              "def settings\n  load_config('{\"port\": 8080,}')\nend\n\nputs settings[:port]\n")
        t = run("ruby config.rb", cwd=tmp)
        case("ruby-json-parse-crash", "error", "ruby config.rb", t,
             lambda l: "(JSON::ParserError)" in l or re.search(r"config\.rb:\d+:in", l),
             "the line naming JSON::ParserError and every frame in config.rb")
        write(os.path.join(tmp, "cli.rb"), "require 'optparse'\n\ndef parse(argv)\n  opts = {}\n"
              "  OptionParser.new do |o|\n    o.on('-p', '--port N', Integer) { |v| opts[:port] = v }\n  end.parse!(argv)\n  opts\nend\n\n"
              "p parse(['--port', 'eighty'])\n")
        t = run("ruby cli.rb", cwd=tmp)
        case("ruby-optparse-crash", "error", "ruby cli.rb", t,
             lambda l: "(OptionParser::InvalidArgument)" in l or re.search(r"cli\.rb:\d+:in", l),
             "the line naming OptionParser::InvalidArgument and every frame in cli.rb")
        run("npm init -y && npm install --no-audit --no-fund yaml@2.6.1", cwd=tmp)
        write(os.path.join(tmp, "deploy.js"), "const YAML = require('yaml');\nconst fs = require('fs');\n\n"
              "function readManifest(text) {\n  return YAML.parse(text, { strict: true, uniqueKeys: true });\n}\n\n"
              "function main() {\n  const m = readManifest('name: shop\\nport: 1\\nport: 2\\n');\n  console.log(m.name);\n}\n\nmain();\n")
        t = run("node deploy.js", cwd=tmp)
        case("node-yaml-crash", "error", "node deploy.js", t,
             lambda l: re.match(r"^\w*Error: ", l.strip()) or re.search(r"deploy\.js:\d+:\d+", l),
             "the error line and every frame in deploy.js")
        write(os.path.join(tmp, "Orders.java"), "import java.util.*;\nimport java.util.stream.*;\n\npublic class Orders {\n"
              "  static int qty(String s) { return Integer.parseInt(s.trim()); }\n"
              "  static int total(List<String> xs) { return xs.stream().map(Orders::qty).filter(q -> q > 0).mapToInt(q -> q).sum(); }\n"
              "  public static void main(String[] a) { System.out.println(total(List.of(\"1\", \" 2\", \"three\"))); }\n}\n")
        t = run("javac Orders.java && java Orders", cwd=tmp)
        case("java-stream-crash", "error", "java Orders", t,
             lambda l: l.startswith("Exception in thread") or re.search(r"at Orders\.\w+\(Orders\.java:\d+\)", l),
             "the exception line and every frame in Orders.java")
        write(os.path.join(tmp, "shop.php"), "<?php\nrequire '/usr/share/php/Composer/Semver/autoload.php';\n"
              "use Composer\\Semver\\VersionParser;\n\nfunction pinned($constraint) {\n  return (new VersionParser())->normalize($constraint);\n}\n\n"
              "function check(array $deps) {\n  return array_map('pinned', $deps);\n}\n\nprint_r(check(['1.0.0', 'not a version']));\n")
        t = run("php shop.php", cwd=tmp)
        case("php-composer-crash", "error", "php shop.php", t,
             lambda l: "UnexpectedValueException" in l and "Uncaught" in l or re.search(r"shop\.php\(\d+\)", l),
             "the `Uncaught UnexpectedValueException` lines and every frame in shop.php")


def twenty_first_cases():
    """Round 21, written before ghost's output was looked at: formats no
    rule of ghost was read against. Native crashes as the sanitizers, gdb
    and valgrind report them (each names its error, then frames: the
    must-keep lines are the error's line, every frame in the program's own
    file and the tool's summary); test runs with setup errors, subtests,
    doctests and `-x` (every failing test's name, its assertion and the
    runner's closing counts); Test::Unit, rake, prove with subtests, a git
    merge that conflicts, sqlite3 reading a script with errors, Node's
    error with a cause, pip failing to resolve, and make -j with two
    broken files (pytest in VENV_BIN; Debian packages gdb valgrind sqlite3
    ruby)."""
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "heap.c"), "#include <stdlib.h>\n#include <stdio.h>\n\n"
              "static int sum(const int *xs, int n) {\n  int s = 0;\n  for (int i = 0; i <= n; i++) s += xs[i];\n  return s;\n}\n\n"
              "int main(void) {\n  int *xs = malloc(4 * sizeof *xs);\n  for (int i = 0; i < 4; i++) xs[i] = i;\n"
              "  printf(\"%d\\n\", sum(xs, 4));\n  free(xs);\n  return 0;\n}\n")
        t = run("gcc -g -O0 -fsanitize=address heap.c -o heap && ./heap", cwd=tmp)
        case("asan-heap-overflow", "error", "./heap", t,
             lambda l: "ERROR: AddressSanitizer:" in l or re.match(r"^(READ|WRITE) of size", l)
             or re.search(r"heap\.c:\d+", l) or l.startswith("SUMMARY: AddressSanitizer"),
             "the `ERROR: AddressSanitizer` line, the READ/WRITE line, every frame in heap.c and the SUMMARY line")
        write(os.path.join(tmp, "leak.c"), "#include <stdlib.h>\n#include <string.h>\n\n"
              "static char *copy(const char *s) {\n  char *d = malloc(strlen(s) + 1);\n  strcpy(d, s);\n  return d;\n}\n\n"
              "int main(void) {\n  for (int i = 0; i < 3; i++) copy(\"ledger\");\n  char *kept = copy(\"report\");\n  kept = 0;\n  return 0;\n}\n")
        t = run("gcc -g -O0 -fsanitize=address leak.c -o leak && ./leak", cwd=tmp)
        case("lsan-leaks", "error", "./leak", t,
             lambda l: "ERROR: LeakSanitizer:" in l or re.match(r"^(Direct|Indirect) leak of", l)
             or re.search(r"leak\.c:\d+", l) or l.startswith("SUMMARY: AddressSanitizer"),
             "the `ERROR: LeakSanitizer` line, every `Direct leak of` line, every frame in leak.c and the SUMMARY line")
        write(os.path.join(tmp, "ub.c"), "#include <limits.h>\n#include <stdio.h>\n\n"
              "int scale(int x) { return x * 1000; }\nint shift(int x, int n) { return x << n; }\n\n"
              "int main(void) {\n  int a[3] = {1, 2, 3};\n  int i = 3;\n  printf(\"%d\\n\", scale(INT_MAX / 10));\n"
              "  printf(\"%d\\n\", shift(1, 40));\n  printf(\"%d\\n\", a[i]);\n  return 0;\n}\n")
        t = run("gcc -g -O0 -fsanitize=undefined ub.c -o ub && ./ub", cwd=tmp)
        case("ubsan-runtime-errors", "error", "./ub", t,
             lambda l: "runtime error:" in l,
             "every `file:line:col: runtime error:` line")
        write(os.path.join(tmp, "seg.c"), "#include <stdio.h>\n#include <string.h>\n\n"
              "struct node { const char *name; struct node *next; };\n\n"
              "static size_t total(const struct node *n) {\n  size_t t = 0;\n  for (; ; n = n->next) t += strlen(n->name);\n  return t;\n}\n\n"
              "int main(void) {\n  struct node b = {\"beta\", 0}, a = {\"alpha\", &b};\n  printf(\"%zu\\n\", total(&a));\n  return 0;\n}\n")
        t = run("gcc -g -O0 seg.c -o seg && gdb -q -batch -ex run -ex bt ./seg", cwd=tmp)
        case("gdb-backtrace", "error", "gdb -batch -ex run -ex bt ./seg", t,
             lambda l: l.startswith("Program received signal") or re.match(r"^#\d+ .* at seg\.c:\d+", l),
             "the `Program received signal` line and every frame `#N … at seg.c:L`")
        t = run("gcc -g -O0 heap.c -o heapv && valgrind ./heapv", cwd=tmp)
        case("valgrind-invalid-read", "log", "valgrind ./heapv", t,
             lambda l: re.search(r"==\d+== Invalid (read|write) of size", l) or re.search(r"\(heap\.c:\d+\)", l)
             or re.search(r"==\d+== ERROR SUMMARY:", l),
             "the `Invalid read of size` line, every frame in heap.c and the ERROR SUMMARY line")
        write(os.path.join(tmp, "test_store.py"), "import pytest\n\n\n@pytest.fixture\ndef db():\n"
              "    raise ConnectionError('database at 127.0.0.1:5432 refused the connection')\n\n\n"
              "@pytest.fixture\ndef cache():\n    yield {}\n    raise RuntimeError('cache flush failed: 3 keys left')\n\n\n"
              "def test_reads(db):\n    assert db\n\n\ndef test_cache(cache):\n    cache['a'] = 1\n\n\n"
              "def test_total():\n    assert sum([1, 2, 3]) == 7\n\n\ndef test_name():\n    assert 'shop'.title() == 'Shop'\n\n\n"
              "@pytest.mark.xfail(strict=True, reason='bug 12')\ndef test_known():\n    assert True\n")
        t = run(f"{VENV}/pytest -p no:cacheprovider test_store.py", cwd=tmp)
        case("pytest-setup-errors", "log", "pytest test_store.py", t,
             lambda l: l.startswith("E ") or re.match(r"^(FAILED|ERROR) ", l) or re.match(r"^=+ .*\d+ (failed|passed|error)", l)
             or re.match(r"^_+ (ERROR at \w+ of )?test_\w+ _+$", l),
             "every `E` line, every failing test's and erroring test's header, the short summary's FAILED/ERROR lines and the closing counts")
        write(os.path.join(tmp, "test_money.py"), "import pytest\n\n\n"
              "def cents(s):\n    whole, _, frac = s.partition('.')\n    return int(whole) * 100 + int(frac or 0)\n\n\n"
              "@pytest.mark.parametrize('text,expected', [('1.50', 150), ('2', 200), ('0.5', 50), ('3.05', 305), ('x', 0)])\n"
              "def test_cents(text, expected):\n    assert cents(text) == expected\n\n\n"
              "def test_after():\n    assert cents('4.00') == 400\n")
        t = run(f"{VENV}/pytest -p no:cacheprovider -x --tb=short -v test_money.py", cwd=tmp)
        case("pytest-exitfirst-parametrize", "log", "pytest -x --tb=short -v test_money.py", t,
             lambda l: l.startswith("E ") or re.match(r"^FAILED ", l) or " FAILED " in l or "stopping after" in l
             or re.match(r"^=+ .*\d+ (failed|passed)", l),
             "every `E` line, every FAILED line, the `stopping after` line and the closing counts")
        write(os.path.join(tmp, "test_sub.py"), "import unittest\n\n\nclass Parse(unittest.TestCase):\n"
              "    def test_ports(self):\n        for text, port in [('80', 80), ('8o', 80), ('443', 443), ('-1', 65535)]:\n"
              "            with self.subTest(text=text):\n                self.assertEqual(int(text) % 65536, port)\n\n"
              "    def test_hosts(self):\n        for h in ['a.b', 'c', 'd.e']:\n            with self.subTest(host=h):\n                self.assertIn('.', h)\n\n"
              "    def test_ok(self):\n        self.assertTrue(True)\n\n\nif __name__ == '__main__':\n    unittest.main()\n")
        t = run("python3 -m unittest -v test_sub", cwd=tmp)
        case("unittest-subtests", "log", "python -m unittest -v test_sub", t,
             lambda l: re.match(r"^(FAIL|ERROR): ", l) or re.match(r"^\w*(Error|Exception): ", l) or re.match(r"^FAILED \(", l)
             or re.match(r"^Ran \d+ tests?", l),
             "every `FAIL:`/`ERROR:` header with its subtest, every exception line, `Ran N tests` and `FAILED (…)`")
        run("cargo new --lib --vcs none --quiet ledger", cwd=tmp)
        write(os.path.join(tmp, "ledger", "src", "lib.rs"),
              "/// Adds two amounts in cents.\n///\n/// ```\n/// assert_eq!(ledger::add(2, 2), 5);\n/// ```\n"
              "pub fn add(a: u64, b: u64) -> u64 {\n    a + b\n}\n\n"
              "/// Splits an amount into `n` shares.\npub fn split(total: u64, n: u64) -> Vec<u64> {\n    vec![total / n; n as usize]\n}\n\n"
              "#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n\n"
              "    #[test]\n    #[should_panic(expected = \"divide by zero\")]\n    fn split_by_zero_panics() {\n        split(10, 1);\n    }\n\n"
              "    #[test]\n    fn split_keeps_total() {\n        assert_eq!(split(10, 3).iter().sum::<u64>(), 10, \"a cent went missing\");\n    }\n}\n")
        t = run("cargo test --no-fail-fast 2>&1", cwd=os.path.join(tmp, "ledger"))
        case("cargo-test-doctest-failing", "log", "cargo test --no-fail-fast", t,
             lambda l: re.match(r"^test .* FAILED$", l) or re.match(r"^---- .* stdout ----$", l)
             or "panicked at" in l or l.startswith("assertion ") or re.match(r"^test result: ", l) or re.match(r"^error: ", l)
             or re.match(r"^\s+(left|right): ", l) or "note: test did not panic" in l,
             "every `test … FAILED` line, every `---- … stdout ----` header, each panic's line with its assertion and left/right, "
             "every `test result:` line and every `error:` line")
        write(os.path.join(tmp, "test_cart.rb"), "require 'test/unit'\n\nclass Cart\n  def initialize; @items = []; end\n"
              "  def add(name, price); @items << [name, price]; self; end\n  def total; @items.sum { |_, p| p }; end\n"
              "  def names; @items.map(&:first).sort; end\nend\n\n"
              "class TestCart < Test::Unit::TestCase\n  def test_total\n    assert_equal(7, Cart.new.add('a', 3).add('b', 5).total)\n  end\n\n"
              "  def test_names\n    assert_equal(%w[apple pear], Cart.new.add('pear', 1).add('fig', 2).names)\n  end\n\n"
              "  def test_coupon\n    Cart.new.apply_coupon('TEN')\n  end\n\n  def test_empty\n    assert_equal(0, Cart.new.total)\n  end\nend\n")
        t = run("ruby test_cart.rb", cwd=tmp)
        case("ruby-test-unit-failing", "log", "ruby test_cart.rb", t,
             lambda l: re.match(r"^(Failure|Error): ", l) or re.search(r"expected but was", l) or re.match(r"^\w+Error: ", l.strip())
             or re.match(r"^\d+ tests, \d+ assertions", l) or re.search(r"test_cart\.rb:\d+:in `test_", l),
             "every `Failure:`/`Error:` header, `expected but was`, each exception line, each frame in a test method and the closing counts")
        write(os.path.join(tmp, "Rakefile"), "task :compile do\n  sh 'gcc -c missing.c -o missing.o'\nend\n\n"
              "task build: :compile do\n  puts 'built'\nend\n\ntask default: :build\n")
        t = run("rake build", cwd=tmp)
        case("rake-aborted", "log", "rake build", t,
             lambda l: l.startswith("rake aborted!") or "fatal error" in l or "error:" in l or l.startswith("Command failed with status")
             or l.startswith("Tasks: "),
             "the compiler's error lines, `rake aborted!`, `Command failed with status` and the `Tasks:` line")
        os.makedirs(os.path.join(tmp, "t"), exist_ok=True)
        write(os.path.join(tmp, "t", "price.t"), "use strict;\nuse warnings;\nuse Test::More;\n\n"
              "sub price { my ($c, $q) = @_; return $c * $q; }\nsub label { my ($n) = @_; return ucfirst lc $n; }\n\n"
              "subtest 'prices' => sub {\n  is(price(3, 4), 12, 'three by four');\n  is(price(5, 0), 5, 'zero quantity');\n  is(price(2, 2), 4, 'two by two');\n};\n\n"
              "subtest 'labels' => sub {\n  is(label('APPLE'), 'Apple', 'apple');\n  is(label('o\\'neil'), \"O'Neil\", 'apostrophe');\n};\n\n"
              "ok(1, 'loads');\ndone_testing;\n")
        t = run("prove -v t/price.t", cwd=tmp)
        case("prove-verbose-subtests", "log", "prove -v t/price.t", t,
             lambda l: re.match(r"^\s*not ok ", l) or re.match(r"^\s*#\s+Failed test", l) or re.match(r"^\s*#\s+at t/", l)
             or re.match(r"^\s*#\s+(got|expected):", l) or l.startswith("Result: ") or re.match(r"^Failed \d+/\d+ subtests", l),
             "every `not ok` line, every `# Failed test` with its `at` line, got and expected, `Failed N/M subtests` and `Result:`")
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        run("git init -q -b main && git config user.email a@b && git config user.name a", cwd=repo)
        write(os.path.join(repo, "config.toml"), "[server]\nport = 8080\nhost = \"localhost\"\n\n[db]\nurl = \"postgres://db/shop\"\npool = 5\n")
        write(os.path.join(repo, "VERSION"), "1.4.0\n")
        write(os.path.join(repo, "notes.md"), "# Notes\n\nfirst\n")
        run("git add . && git commit -qm base && git checkout -qb feature", cwd=repo)
        write(os.path.join(repo, "config.toml"), "[server]\nport = 9090\nhost = \"0.0.0.0\"\n\n[db]\nurl = \"postgres://db/shop\"\npool = 20\n")
        write(os.path.join(repo, "VERSION"), "1.5.0-beta\n")
        write(os.path.join(repo, "api.py"), "def ping():\n    return 'pong'\n")
        run("git add . && git commit -qm feature && git checkout -q main", cwd=repo)
        write(os.path.join(repo, "config.toml"), "[server]\nport = 8081\nhost = \"localhost\"\n\n[db]\nurl = \"postgres://db/shop\"\npool = 10\n")
        write(os.path.join(repo, "VERSION"), "1.4.1\n")
        write(os.path.join(repo, "notes.md"), "# Notes\n\nfirst\nsecond\n")
        run("git add . && git commit -qm hotfix", cwd=repo)
        t = run("git merge feature", cwd=repo)
        case("git-merge-conflict", "log", "git merge feature", t,
             lambda l: l.startswith("CONFLICT ") or l.startswith("Automatic merge failed"),
             "every `CONFLICT` line and `Automatic merge failed`")
        write(os.path.join(tmp, "seed.sql"), "CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT UNIQUE);\n"
              "INSERT INTO users VALUES (1, 'a@shop.test');\nINSERT INTO users VALUES (2, 'a@shop.test');\n"
              "INSERT INTO orders VALUES (1, 1);\nSELECT emial FROM users;\nINSERT INTO users VALUES (3, 'c@shop.test');\n"
              "SELECT count(*) FROM users;\n")
        t = run("sqlite3 shop.db < seed.sql", cwd=tmp)
        case("sqlite3-script-errors", "log", "sqlite3 shop.db < seed.sql", t,
             lambda l: re.match(r"^(Parse|Runtime) error", l) or l.startswith("Error:"),
             "every `Parse error`/`Runtime error` line")
        write(os.path.join(tmp, "fetch.js"), "const fs = require('fs');\n\n"
              "function readConfig(path) {\n  try {\n    return JSON.parse(fs.readFileSync(path, 'utf8'));\n  } catch (err) {\n"
              "    throw new Error(`cannot load config ${path}`, { cause: err });\n  }\n}\n\n"
              "function start() {\n  const c = readConfig('/etc/shop/config.json');\n  console.log(c.port);\n}\n\nstart();\n")
        t = run("node fetch.js", cwd=tmp)
        case("node-error-cause", "error", "node fetch.js", t,
             lambda l: re.match(r"^\w*Error: ", l.strip()) or "[cause]:" in l or re.search(r"fetch\.js:\d+:\d+", l),
             "the error line, the `[cause]` line and every frame in fetch.js")
        t = run(f"{VENV}/pip install --dry-run --no-cache-dir 'requests==2.31.0' 'urllib3==1.20'", cwd=tmp)
        case("pip-resolution-impossible", "log", "pip install requests==2.31.0 urllib3==1.20", t,
             lambda l: l.startswith("ERROR: ") or re.match(r"^\s+The user requested", l) or re.match(r"^\s+\S+ \S+ depends on", l)
             or l.startswith("The conflict is caused by"),
             "every `ERROR:` line, `The conflict is caused by`, and each `The user requested`/`depends on` line under it")
        write(os.path.join(tmp, "Makefile"), "all: a.o b.o c.o\n\n%.o: %.c\n\tgcc -Wall -c $< -o $@\n")
        write(os.path.join(tmp, "a.c"), "int area(int w, int h) { return w * h }\n")
        write(os.path.join(tmp, "b.c"), "#include <stdio.h>\nvoid show(void) { printf(\"%d\\n\", total); }\n")
        write(os.path.join(tmp, "c.c"), "int half(int x) { return x / 2; }\n")
        t = run("make -k -j2 all", cwd=tmp)
        case("make-j-errors", "log", "make -k -j2", t,
             lambda l: re.search(r"\.c:\d+:\d+: error:", l) or l.startswith("make: ***") or l.startswith("make: Target"),
             "every `file:line:col: error:` line and every `make: ***` line")


def twenty_second_cases():
    """Round 22, written before ghost's output was looked at, after round
    21's fixes: more formats no rule of ghost was read against, from
    ecosystems the earlier rounds touched least: Go (tests over several
    packages, the race detector, vet), PHP (PHPUnit with an error and a
    failure, a fatal TypeError), RSpec with pending examples, esbuild,
    jest, tsc, mocha's hooks and timeouts, CMake with CTest, a configure
    script, clang-tidy, mypy --pretty, tox, clippy denying warnings,
    valgrind on uninitialised memory and asyncio's unretrieved task
    exception. JS tools come from DIR (`npm install jest typescript esbuild
    mocha`); mypy and tox from VENV_BIN; Debian packages golang-go php-cli
    phpunit ruby-rspec cmake autoconf clang-tidy valgrind."""
    js = js_dir()
    with tempfile.TemporaryDirectory() as tmp:
        mod = os.path.join(tmp, "shop")
        for d in ["money", "cart", "tax"]:
            os.makedirs(os.path.join(mod, d))
        write(os.path.join(mod, "go.mod"), "module example.com/shop\n\ngo 1.19\n")
        write(os.path.join(mod, "money", "money.go"), "package money\n\nimport \"fmt\"\n\n"
              "// Format writes cents as dollars.\nfunc Format(c int) string { return fmt.Sprintf(\"$%d.%02d\", c/100, c%100) }\n")
        write(os.path.join(mod, "money", "money_test.go"), "package money\n\nimport \"testing\"\n\n"
              "func TestFormat(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tin  int\n\t\twant string\n\t}{{150, \"$1.50\"}, {5, \"$0.05\"}} {\n"
              "\t\tif got := Format(c.in); got != c.want {\n\t\t\tt.Errorf(\"Format(%d) = %q, want %q\", c.in, got, c.want)\n\t\t}\n\t}\n}\n")
        write(os.path.join(mod, "cart", "cart.go"), "package cart\n\n// Total sums the prices.\nfunc Total(ps []int) int {\n"
              "\tt := 0\n\tfor i := 1; i < len(ps); i++ {\n\t\tt += ps[i]\n\t}\n\treturn t\n}\n\n"
              "// Count counts the items concurrently.\nfunc Count(n int) int {\n\tc := 0\n\tdone := make(chan bool)\n"
              "\tfor i := 0; i < n; i++ {\n\t\tgo func() { c++; done <- true }()\n\t}\n\tfor i := 0; i < n; i++ {\n\t\t<-done\n\t}\n\treturn c\n}\n")
        write(os.path.join(mod, "cart", "cart_test.go"), "package cart\n\nimport \"testing\"\n\n"
              "func TestTotal(t *testing.T) {\n\tif got := Total([]int{3, 4, 5}); got != 12 {\n\t\tt.Errorf(\"Total = %d, want 12\", got)\n\t}\n}\n\n"
              "func TestTotalEmpty(t *testing.T) {\n\tif Total(nil) != 0 {\n\t\tt.Fatal(\"empty cart is not free\")\n\t}\n}\n\n"
              "func TestCount(t *testing.T) {\n\tif got := Count(50); got > 50 {\n\t\tt.Fatalf(\"Count = %d\", got)\n\t}\n}\n")
        write(os.path.join(mod, "tax", "tax.go"), "package tax\n\nimport \"fmt\"\n\n"
              "// Rate is the tax rate for a region.\nfunc Rate(region string) float64 {\n\tswitch region {\n\tcase \"EU\":\n\t\treturn 0.2\n\t}\n"
              "\tfmt.Printf(\"unknown region %d\\n\", region)\n\treturn 0\n}\n")
        write(os.path.join(mod, "tax", "tax_test.go"), "package tax\n\nimport \"testing\"\n\n"
              "func TestRate(t *testing.T) {\n\tif Rate(\"US\") != 0.07 {\n\t\tt.Errorf(\"US rate = %v\", Rate(\"US\"))\n\t}\n}\n")
        t = run("go test ./...", cwd=mod)
        case("go-test-several-packages", "log", "go test ./...", t,
             lambda l: l.startswith("--- FAIL:") or re.match(r"^\s+\w+_test\.go:\d+: ", l) or re.match(r"^(FAIL|ok)\s+\S+", l)
             or l.strip() == "FAIL" or re.match(r"^#\s", l) or re.match(r"^\S+\.go:\d+:\d+: ", l),
             "every `--- FAIL:` line, every `x_test.go:N:` message, every `ok`/`FAIL` package line, "
             "vet's `# pkg` and `file.go:N:M:` lines and the closing FAIL")
        t = run("go test -race -run TestCount ./cart/", cwd=mod)
        case("go-test-race", "log", "go test -race ./cart/", t,
             lambda l: "WARNING: DATA RACE" in l or re.match(r"^(Read|Write|Previous (read|write)) at ", l)
             or re.search(r"cart(_test)?\.go:\d+", l) or l.startswith("--- FAIL:") or "race detected" in l
             or re.match(r"^(FAIL|ok)\s+\S+", l),
             "`WARNING: DATA RACE`, every `Read at`/`Write at`/`Previous write at` line, every frame in cart.go or "
             "cart_test.go, `--- FAIL:`, `race detected …` and the package's FAIL line")
        t = run("go vet ./...", cwd=mod)
        case("go-vet-printf", "log", "go vet ./...", t,
             lambda l: re.match(r"^#\s", l) or re.match(r"^\S+\.go:\d+:\d+: ", l),
             "every `# pkg` line and every `file.go:N:M:` diagnostic")
        os.makedirs(os.path.join(tmp, "php", "tests"))
        write(os.path.join(tmp, "php", "tests", "InvoiceTest.php"), "<?php\nuse PHPUnit\\Framework\\TestCase;\n\n"
              "function invoice_total(array $lines): float {\n  return array_sum(array_map(fn($l) => $l['qty'] * $l['price'], $lines));\n}\n\n"
              "final class InvoiceTest extends TestCase {\n"
              "  public function testTotal(): void {\n    $this->assertSame(7.5, invoice_total([['qty' => 2, 'price' => 2.5], ['qty' => 1, 'price' => 3.0]]));\n  }\n"
              "  public function testMissingPrice(): void {\n    $this->assertSame(0.0, invoice_total([['qty' => 1]]));\n  }\n"
              "  public function testLines(): void {\n    $this->assertEquals(['a' => 1, 'b' => 2], ['a' => 1, 'b' => 3]);\n  }\n"
              "  public function testEmpty(): void {\n    $this->assertSame(0, invoice_total([]));\n  }\n}\n")
        t = run("phpunit tests/InvoiceTest.php", cwd=os.path.join(tmp, "php"))
        case("phpunit-error-and-failures", "log", "phpunit tests/InvoiceTest.php", t,
             lambda l: re.match(r"^\d+\) \S+::\S+", l) or re.match(r"^(Failed asserting|Undefined array key|Warning|TypeError|Error)", l)
             or re.search(r"InvoiceTest\.php:\d+$", l) or re.match(r"^(FAILURES|ERRORS)!$", l) or re.match(r"^Tests: \d+", l),
             "every numbered failing test, its first message line, every InvoiceTest.php:N line, FAILURES!/ERRORS! and the `Tests:` counts")
        write(os.path.join(tmp, "php", "orders.php"), "<?php\ndeclare(strict_types=1);\n\n"
              "function line_total(int $qty, float $price): float { return $qty * $price; }\n\n"
              "function order_total(array $rows): float {\n  $t = 0.0;\n  foreach ($rows as $r) { $t += line_total($r[0], $r[1]); }\n  return $t;\n}\n\n"
              "echo order_total([[1, 2.5], ['2', 1.0]]), \"\\n\";\n")
        t = run("php orders.php", cwd=os.path.join(tmp, "php"))
        case("php-type-error", "error", "php orders.php", t,
             lambda l: "Uncaught TypeError" in l or re.match(r"^#\d+ ", l) or "thrown in" in l,
             "the `Uncaught TypeError` line, every `#N` frame and the `thrown in` line")
        os.makedirs(os.path.join(tmp, "rb", "spec"))
        write(os.path.join(tmp, "rb", "spec", "wallet_spec.rb"), "class Wallet\n  def initialize; @coins = []; end\n"
              "  def add(c); @coins << c; self; end\n  def total; @coins.sum; end\n  def largest; @coins.max; end\nend\n\n"
              "RSpec.describe Wallet do\n  it 'sums its coins' do\n    expect(Wallet.new.add(5).add(10).total).to eq(15)\n  end\n\n"
              "  it 'finds the largest coin' do\n    expect(Wallet.new.add(5).add(10).largest).to eq(5)\n  end\n\n"
              "  it 'spends coins' do\n    Wallet.new.spend(5)\n  end\n\n  it 'converts currency' do\n    pending 'rates API'\n    expect(1).to eq(2)\n  end\n\n"
              "  it 'lists coins', :skip do\n  end\n\n  it 'holds no coins at first' do\n    expect(Wallet.new.total).to be_zero\n  end\nend\n")
        t = run("rspec spec/wallet_spec.rb", cwd=os.path.join(tmp, "rb"))
        case("rspec-pending-and-failures", "log", "rspec spec/wallet_spec.rb", t,
             lambda l: re.match(r"^\s+\d+\) Wallet ", l) or "Failure/Error:" in l or re.match(r"^\s+(expected|got):", l)
             or re.match(r"^\s+NoMethodError:", l) or re.match(r"^\s+# \./spec/", l) or re.match(r"^\d+ examples?, ", l)
             or l.startswith("rspec ./spec/"),
             "every numbered failing example, `Failure/Error:`, expected/got, the exception line, every `# ./spec/…` "
             "line, the `N examples, …` counts and every `rspec ./spec/…` rerun line")
        src = os.path.join(tmp, "web")
        os.makedirs(os.path.join(src, "src"))
        write(os.path.join(src, "src", "main.js"), "import { render } from './view.js';\nimport { fetchUser } from './api.js';\nimport dayjs from 'dayjs';\n\n"
              "render(fetchUser(1), dayjs());\n")
        write(os.path.join(src, "src", "view.js"), "export function render(user, now) {\n  const el = document.querySelector('#app');\n"
              "  el.innerHTML = `<h1>${user.name}</h1><p>${now}</p>;\n}\n")
        t = run(f"{js}/node_modules/.bin/esbuild src/main.js --bundle --outfile=out.js", cwd=src)
        case("esbuild-errors", "log", "esbuild src/main.js --bundle", t,
             lambda l: "[ERROR]" in l or re.match(r"^\s+src/\S+\.js:\d+:\d+:", l) or re.match(r"^\d+ errors?", l),
             "every `✘ [ERROR]` line, every `src/x.js:L:C:` location and the `N errors` line")
        write(os.path.join(js, "orders.test.js"), "function parseOrder(s) {\n  const [id, qty] = s.split(':');\n"
              "  if (!id) throw new TypeError(`order without id: \"${s}\"`);\n  return { id, qty: Number(qty), tags: [] };\n}\n\n"
              "describe('parseOrder', () => {\n  test('reads id and qty', () => {\n    expect(parseOrder('a1:3')).toEqual({ id: 'a1', qty: 3, tags: ['new'] });\n  });\n"
              "  test('rejects an empty id', () => {\n    expect(() => parseOrder(':3')).toThrow(RangeError);\n  });\n"
              "  test('reads a large qty', () => {\n    expect(parseOrder('b:1e3').qty).toBe(1000);\n  });\n"
              "  test('keeps the id as text', () => {\n    expect(typeof parseOrder('7:1').id).toBe('number');\n  });\n});\n")
        t = run("node_modules/.bin/jest orders.test.js", cwd=js)
        case("jest-object-diff-and-throw", "log", "jest orders.test.js", t,
             lambda l: l.strip().startswith("● ") or re.match(r"^\s+(Expected|Received)( constructor| message| value)?:", l)
             or re.match(r"^\s+expect\(", l) or re.match(r"^(Tests|Test Suites):", l),
             "every `●` header, each `expect(…)` line, every Expected/Received line and the Tests/Test Suites counts")
        os.remove(os.path.join(js, "orders.test.js"))
        ts = os.path.join(tmp, "ts")
        os.makedirs(os.path.join(ts, "src"))
        write(os.path.join(ts, "tsconfig.json"), '{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2020"}, "include": ["src"]}\n')
        write(os.path.join(ts, "src", "user.ts"), "export interface User { id: number; name: string; email?: string }\n\n"
              "export function greet(u: User): string {\n  return 'Hi ' + u.email.toLowerCase();\n}\n\n"
              "export const admin: User = { id: '1', name: 'root', role: 'admin' };\n")
        write(os.path.join(ts, "src", "main.ts"), "import { greet, User } from './user';\n\n"
              "const users: User[] = [{ id: 1, name: 'a' }, { id: 2 }];\nconsole.log(users.map(greet).join(1));\n"
              "function find(id: number): User { for (const u of users) { if (u.id === id) return u; } }\n")
        t = run(f"{js}/node_modules/.bin/tsc -p . --pretty false", cwd=ts)
        case("tsc-strict-errors", "log", "tsc -p . --pretty false", t,
             lambda l: re.match(r"^src/\S+\.ts\(\d+,\d+\): error TS\d+:", l) or re.match(r"^Found \d+ error", l),
             "every `file.ts(L,C): error TSnnnn:` header and the `Found N errors` line (if printed)")
        write(os.path.join(js, "hooks.spec.js"), "const assert = require('assert');\n\n"
              "describe('inventory', function () {\n  let db;\n  beforeEach(function () {\n    if (this.currentTest.title.includes('remote')) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');\n"
              "    db = { items: ['a'] };\n  });\n  it('counts items', function () { assert.strictEqual(db.items.length, 1); });\n"
              "  it('syncs remote stock', function () { assert.ok(db); });\n"
              "  it('waits for the queue', function (done) { this.timeout(200); setTimeout(done, 1000); });\n"
              "  it('sorts items', function () { assert.deepStrictEqual([3, 1, 2].sort(), [1, 2, 3, 4]); });\n});\n")
        t = run("node_modules/.bin/mocha hooks.spec.js", cwd=js)
        case("mocha-hook-and-timeout", "log", "mocha hooks.spec.js", t,
             lambda l: re.match(r"^\s+\d+\) ", l) or re.match(r"^\s+\d+ (passing|failing|pending)", l)
             or re.match(r"^\s+(Error|AssertionError)\S*: ", l) or "Timeout of" in l,
             "every numbered failure (in the list and in the details), each error's line, the timeout's line and the passing/failing counts")
        os.remove(os.path.join(js, "hooks.spec.js"))
        cm = os.path.join(tmp, "cm")
        os.makedirs(cm)
        write(os.path.join(cm, "CMakeLists.txt"), "cmake_minimum_required(VERSION 3.10)\nproject(ring C)\nenable_testing()\n"
              "add_library(ring ring.c)\nadd_executable(test_push test_push.c)\ntarget_link_libraries(test_push ring)\n"
              "add_executable(test_wrap test_wrap.c)\ntarget_link_libraries(test_wrap ring)\n"
              "add_executable(test_empty test_empty.c)\ntarget_link_libraries(test_empty ring)\n"
              "add_test(NAME push COMMAND test_push)\nadd_test(NAME wrap COMMAND test_wrap)\nadd_test(NAME empty COMMAND test_empty)\n")
        write(os.path.join(cm, "ring.c"), "int ring_next(int i, int n) { return i + 1 < n ? i + 1 : n; }\nint ring_size(int n) { return n; }\n")
        write(os.path.join(cm, "test_push.c"), "#include <stdio.h>\nint ring_size(int);\nint main(void) { printf(\"size ok\\n\"); return ring_size(4) == 4 ? 0 : 1; }\n")
        write(os.path.join(cm, "test_wrap.c"), "#include <stdio.h>\nint ring_next(int, int);\n"
              "int main(void) { int got = ring_next(3, 4); if (got != 0) { fprintf(stderr, \"test_wrap.c:3: ring_next(3, 4) = %d, want 0\\n\", got); return 1; } return 0; }\n")
        write(os.path.join(cm, "test_empty.c"), "#include <assert.h>\nint ring_size(int);\nint main(void) { assert(ring_size(0) > 0); return 0; }\n")
        run("cmake -S . -B build && cmake --build build", cwd=cm)
        t = run("ctest --test-dir build --output-on-failure", cwd=cm)
        case("ctest-failing", "log", "ctest --output-on-failure", t,
             lambda l: "***Failed" in l or "Subprocess aborted" in l or re.search(r"tests passed, \d+ tests? failed", l)
             or l.startswith("The following tests FAILED") or re.match(r"^\s+\d+ - \w+ \(", l)
             or re.match(r"^test_\w+\.c:\d+: ", l) or "Assertion" in l,
             "every failing test's status line, each test's own failure message, the `N% tests passed` line "
             "and the list after `The following tests FAILED`")
        ac = os.path.join(tmp, "ac")
        os.makedirs(ac)
        write(os.path.join(ac, "configure.ac"), "AC_INIT([shop], [1.0])\nAC_PROG_CC\nAC_CHECK_HEADERS([stdio.h stdlib.h string.h])\n"
              "AC_CHECK_LIB([m], [cos])\nAC_CHECK_LIB([ssl9], [SSL_new], [], [AC_MSG_ERROR([libssl9 is required: install libssl9-dev])])\nAC_OUTPUT\n")
        t = run("autoconf && ./configure", cwd=ac)
        case("configure-missing-library", "log", "./configure", t,
             lambda l: l.startswith("configure: error:") or l.startswith("checking for SSL_new in -lssl9"),
             "the `configure: error:` line and the check that failed before it")
        write(os.path.join(tmp, "buf.c"), "#include <stdlib.h>\n#include <string.h>\n\n"
              "char *dup_name(const char *s) {\n  char *d = malloc(strlen(s));\n  strcpy(d, s);\n  return d;\n}\n\n"
              "int main(int argc, char **argv) {\n  int n;\n  if (argc > 3) n = 1;\n  char *p = dup_name(argv[0]);\n  free(p);\n  free(p);\n  return n;\n}\n")
        t = run("clang-tidy buf.c -checks='clang-analyzer-*,bugprone-*' -- 2>&1", cwd=tmp)
        case("clang-tidy-warnings", "log", "clang-tidy buf.c", t,
             lambda l: re.match(r"^\S+\.c:\d+:\d+: (warning|error): ", l),
             "every `file.c:L:C: warning|error:` header")
        write(os.path.join(tmp, "uninit.c"), "#include <stdio.h>\n\nstatic int pick(int flag) {\n  int v;\n  if (flag) v = 3;\n  return v;\n}\n\n"
              "int main(void) {\n  if (pick(0) > 2) puts(\"big\");\n  return 0;\n}\n")
        t = run("gcc -g -O0 uninit.c -o uninit && valgrind --track-origins=yes ./uninit", cwd=tmp)
        case("valgrind-uninitialised", "log", "valgrind --track-origins=yes ./uninit", t,
             lambda l: "Conditional jump or move depends on uninitialised" in l or "Uninitialised value was created" in l
             or re.search(r"\(uninit\.c:\d+\)", l) or re.search(r"==\d+== ERROR SUMMARY:", l),
             "the `Conditional jump` line, the origin line, every frame in uninit.c and the ERROR SUMMARY line")
        write(os.path.join(tmp, "inv.py"), "from dataclasses import dataclass\n\n\n@dataclass\nclass Item:\n    name: str\n    qty: int\n\n\n"
              "def restock(items: list[Item], extra: dict[str, int]) -> list[Item]:\n    return [Item(i.name, i.qty + extra.get(i.name)) for i in items]\n\n\n"
              "def names(items: list[Item]) -> str:\n    return ', '.join(i.qty for i in items)\n\n\n"
              "total: int = sum(i.qty for i in restock([Item('a', 1)], {}))\nlabel: str = total\n")
        t = run(f"{VENV}/mypy --pretty --strict inv.py", cwd=tmp)
        case("mypy-pretty", "log", "mypy --pretty --strict inv.py", t,
             lambda l: re.match(r"^inv\.py:\d+: error:", l) or re.match(r"^Found \d+ errors?", l),
             "every `inv.py:N: error:` header and the `Found N errors` line")
        tx = os.path.join(tmp, "tx")
        os.makedirs(tx)
        write(os.path.join(tx, "tox.ini"), "[tox]\nenv_list = lint, unit\nskipsdist = true\n\n"
              "[testenv:lint]\ncommands = python -c \"import sys; print('lint.py:3: unused import os'); sys.exit(1)\"\n\n"
              "[testenv:unit]\ncommands = python -m unittest -v test_calc\n")
        write(os.path.join(tx, "test_calc.py"), "import unittest\n\n\nclass Calc(unittest.TestCase):\n"
              "    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n\n    def test_div(self):\n        self.assertEqual(7 // 2, 3.5)\n")
        t = run(f"{VENV}/tox", cwd=tx)
        case("tox-two-failing-envs", "log", "tox", t,
             lambda l: re.search(r"\b(lint|unit): FAIL code", l) or "evaluation failed" in l or l.startswith("lint.py:")
             or re.match(r"^(FAIL|ERROR): ", l) or l.startswith("AssertionError") or re.match(r"^FAILED \(", l),
             "each env's `FAIL code` line, `evaluation failed`, the lint's own message, the failing test's header, "
             "its AssertionError and unittest's FAILED counts")
        run("cargo new --lib --vcs none --quiet stock", cwd=tmp)
        write(os.path.join(tmp, "stock", "src", "lib.rs"), "#![deny(warnings)]\n\npub fn reorder(levels: &Vec<u32>, min: u32) -> Vec<usize> {\n"
              "    let mut out = Vec::new();\n    for i in 0..levels.len() {\n        if levels[i] < min {\n            out.push(i);\n        }\n    }\n    return out;\n}\n\n"
              "pub fn name(s: &String) -> String {\n    let unused = 3;\n    s.clone()\n}\n")
        t = run("cargo clippy --quiet 2>&1", cwd=os.path.join(tmp, "stock"))
        case("clippy-deny-warnings", "log", "cargo clippy", t,
             lambda l: re.match(r"^error(\[E\d+\])?: ", l) or re.match(r"^\s+--> src/", l),
             "every `error:` header (with the `could not compile` line) and every `--> src/…` location")
        write(os.path.join(tmp, "tasks.py"), "import asyncio\n\n\nasync def fetch(n):\n    await asyncio.sleep(0)\n"
              "    if n == 2:\n        raise ConnectionResetError(f'peer reset while reading page {n}')\n    return n\n\n\n"
              "async def main():\n    tasks = [asyncio.create_task(fetch(n)) for n in range(4)]\n    await asyncio.sleep(0.01)\n"
              "    print('fetched', tasks[0].result())\n    del tasks\n\n\nasyncio.run(main())\nimport gc; gc.collect()\n")
        t = run("python3 tasks.py", cwd=tmp)
        case("python-task-exception", "error", "python3 tasks.py", t,
             lambda l: "Task exception was never retrieved" in l or re.search(r'File ".*tasks\.py", line \d+', l)
             or l.startswith("ConnectionResetError"),
             "`Task exception was never retrieved`, every frame in tasks.py and the ConnectionResetError line")


def ci_job_cases():
    """Round 23, written before ghost's output was looked at: whole CI
    jobs, as `bash -x` runs them (each command echoed as `+ cmd`), on real
    projects with a bug put in: python-dateutil 2.9.0's own suite under
    pytest -v (2,000 passing tests around six failing ones, after the
    venv and installs) and strsim 0.11.1 from cargo's registry built with
    -v and tested. The must-keep lines are what a person reads to fix the
    build: the failing command, each failing test's name, its assertion
    lines, and the runner's summaries. Needs network for pip."""
    with tempfile.TemporaryDirectory() as tmp:
        run("pip download -q --no-binary :all: --no-deps python-dateutil==2.9.0.post0 -d .", cwd=tmp)
        run("tar xzf python-dateutil-2.9.0.post0.tar.gz", cwd=tmp)
        src = os.path.join(tmp, "python-dateutil-2.9.0.post0")
        for path, old, new in [
            ("src/dateutil/relativedelta.py", "        return int(self.days / 7.0)", "        return self.days // 7"),
            ("src/dateutil/utils.py", "    return -delta <= difference <= delta", "    return -delta < difference < delta"),
        ]:
            text = open(os.path.join(src, path)).read()
            assert old in text, f"{path}: {old!r} not found"
            write(os.path.join(src, path), text.replace(old, new))
        write(os.path.join(src, "job.sh"), "set -e\npython3 --version\npython3 -m venv venv\n"
              "venv/bin/pip install --no-cache-dir 'pytest<8' pytest-cov hypothesis freezegun six\n"
              "venv/bin/pip install --no-cache-dir -e .\nvenv/bin/pytest -v -p no:cacheprovider -W ignore::DeprecationWarning tests\n"
              "venv/bin/python -m build\n")
        t = run("bash -x job.sh 2>&1", cwd=src)
        case("ci-job-python-dateutil", "log", "bash -x job.sh", t,
             lambda l: l.startswith("+ venv/bin/pytest") or (" FAILED" in l and "::" in l) or l.startswith("E ")
             or re.match(r"^_{3,} \S+ _{3,}$", l) or re.match(r"^=+ \d+ failed", l),
             "the failing command's `+` line, every FAILED line (progress and short summary), every `E` line, "
             "every failing test's `___ name ___` header and the closing counts")
        registry = os.path.expanduser("~/.cargo/registry/src")
        strsim = os.path.join(registry, next(os.listdir(registry).__iter__()), "strsim-0.11.1")
        crate = os.path.join(tmp, "strsim")
        shutil.copytree(strsim, crate)
        lib = os.path.join(crate, "src", "lib.rs")
        text = open(lib).read()
        for old, new in [(".take(4)", ".take(5)"), ("(a.chars().count().max(b.chars().count()) as f64)",
                                                    "(a.chars().count().min(b.chars().count()) as f64)")]:
            assert old in text, f"strsim: {old!r} not found"
            text = text.replace(old, new, 1)
        write(lib, text)
        write(os.path.join(crate, "job.sh"), "set -e\ncargo --version\ncargo build -v --offline\ncargo test --offline --no-fail-fast\n")
        t = run("bash -x job.sh 2>&1", cwd=crate)
        case("ci-job-rust-strsim", "log", "bash -x job.sh", t,
             lambda l: l.startswith("+ cargo test") or re.match(r"^test .* FAILED$", l) or re.match(r"^---- .* stdout ----$", l)
             or "panicked at" in l or l.startswith("assertion ") or re.match(r"^\s+(left|right): ", l)
             or re.match(r"^test result: FAILED", l) or re.match(r"^error: ", l),
             "the failing command's `+` line, every `test … FAILED` line, every `---- … stdout ----` header, each "
             "panic's line with its assertion and left/right, every failing `test result:` and every `error:` line")


def native_crash_cases():
    """Round 24, written before ghost's output was looked at: native
    programs dying in ways round 21 did not show, and the runtimes that
    report them. Each rule keeps the line naming the error, every frame in
    the program's own file (the sanitizers', gdb's and valgrind's frames
    alike) and the tool's summary: AddressSanitizer on a use after free and
    on a stack buffer overflow in C++, ThreadSanitizer on a data race,
    C++'s uncaught exception, gdb on a C++ abort, glibc's double free and
    stack protector, valgrind's leak check, Python's faulthandler on a
    segfault, and Node running out of heap (Debian packages gcc g++ gdb
    valgrind; Node)."""
    with tempfile.TemporaryDirectory() as tmp:
        write(os.path.join(tmp, "uaf.c"), "#include <stdlib.h>\n#include <string.h>\n#include <stdio.h>\n\n"
              "struct order { char id[16]; int qty; };\n\n"
              "static struct order *make(const char *id) {\n  struct order *o = malloc(sizeof *o);\n"
              "  strcpy(o->id, id);\n  o->qty = 1;\n  return o;\n}\n\n"
              "static void drop(struct order *o) { free(o); }\n\n"
              "int main(void) {\n  struct order *o = make(\"A-17\");\n  drop(o);\n"
              "  printf(\"%d\\n\", o->qty);\n  return 0;\n}\n")
        t = run("gcc -g -O0 -fsanitize=address uaf.c -o uaf && ./uaf", cwd=tmp)
        case("asan-use-after-free", "error", "./uaf", t,
             lambda l: "ERROR: AddressSanitizer:" in l or re.match(r"^(READ|WRITE) of size", l)
             or re.search(r"uaf\.c:\d+", l) or re.match(r"^(freed|previously allocated) by thread", l)
             or l.startswith("SUMMARY: AddressSanitizer"),
             "the `ERROR: AddressSanitizer` line, the READ/WRITE line, the `freed by`/`previously allocated by` "
             "lines, every frame in uaf.c and the SUMMARY line")
        write(os.path.join(tmp, "stack.cpp"), "#include <cstdio>\n#include <cstring>\n#include <string>\n\n"
              "static void label(const std::string &name) {\n  char buf[8];\n  std::strcpy(buf, name.c_str());\n"
              "  std::printf(\"%s\\n\", buf);\n}\n\n"
              "int main() {\n  label(\"short\");\n  label(\"a name far too long for it\");\n  return 0;\n}\n")
        t = run("g++ -g -O0 -fsanitize=address stack.cpp -o stack && ./stack", cwd=tmp)
        case("asan-stack-buffer-overflow-cpp", "error", "./stack", t,
             lambda l: "ERROR: AddressSanitizer:" in l or re.match(r"^(READ|WRITE) of size", l)
             or re.search(r"stack\.cpp:\d+", l) or "is located in stack of thread" in l
             or "<== Memory access at offset" in l or l.startswith("SUMMARY: AddressSanitizer"),
             "the `ERROR: AddressSanitizer` line, the READ/WRITE line, where the address is (`located in stack`, the "
             "variable's `<== Memory access` line), every frame in stack.cpp and the SUMMARY line")
        write(os.path.join(tmp, "race.c"), "#include <pthread.h>\n#include <stdio.h>\n\n"
              "static long hits;\n\n"
              "static void *count(void *arg) {\n  (void)arg;\n  for (int i = 0; i < 100000; i++) hits++;\n  return NULL;\n}\n\n"
              "int main(void) {\n  pthread_t a, b;\n  pthread_create(&a, NULL, count, NULL);\n"
              "  pthread_create(&b, NULL, count, NULL);\n  pthread_join(a, NULL);\n  pthread_join(b, NULL);\n"
              "  printf(\"%ld\\n\", hits);\n  return 0;\n}\n")
        t = run("gcc -g -O0 -fsanitize=thread race.c -o race && setarch -R ./race", cwd=tmp)
        case("tsan-data-race", "error", "./race", t,
             lambda l: "WARNING: ThreadSanitizer:" in l or re.match(r"^\s*(Previous )?(read|write|Read|Write) of size", l)
             or re.search(r"race\.c:\d+", l) or l.startswith("SUMMARY: ThreadSanitizer")
             or l.startswith("ThreadSanitizer: reported"),
             "the `WARNING: ThreadSanitizer` line, each access's `Write of size`/`Previous write of size` line, every "
             "frame in race.c, the SUMMARY line and the `reported N warnings` line")
        write(os.path.join(tmp, "stock.cpp"), "#include <iostream>\n#include <vector>\n\n"
              "static int pick(const std::vector<int> &shelf, std::size_t slot) { return shelf.at(slot); }\n\n"
              "int main() {\n  std::vector<int> shelf{4, 8, 15};\n  std::cout << pick(shelf, 1) << std::endl;\n"
              "  std::cout << pick(shelf, 7) << std::endl;\n  return 0;\n}\n")
        t = run("g++ -g -O0 stock.cpp -o stock && bash -c ./stock 2>&1", cwd=tmp)
        case("cpp-uncaught-exception", "error", "./stock", t,
             lambda l: l.startswith("terminate called") or l.strip().startswith("what():"),
             "the `terminate called after throwing` line and the exception's `what():` line")
        t = run("gdb -q -batch -ex run -ex bt ./stock", cwd=tmp)
        case("gdb-backtrace-cpp-abort", "error", "gdb -batch -ex run -ex bt ./stock", t,
             lambda l: l.startswith("Program received signal") or l.startswith("terminate called")
             or l.strip().startswith("what():") or re.match(r"^#\d+ .* at stock\.cpp:\d+", l),
             "the `Program received signal` line, the exception's two lines and every frame `#N … at stock.cpp:L`")
        write(os.path.join(tmp, "twice.c"), "#include <stdlib.h>\n#include <string.h>\n\n"
              "static void release(char *p) { free(p); }\n\n"
              "int main(void) {\n  char *p = malloc(32);\n  strcpy(p, \"receipt\");\n  release(p);\n  release(p);\n  return 0;\n}\n")
        t = run("gcc -g -O0 twice.c -o twice && bash -c ./twice 2>&1", cwd=tmp)
        case("glibc-double-free", "error", "./twice", t,
             lambda l: "double free" in l or "Aborted" in l,
             "glibc's `double free detected` line and the shell's `Aborted` line")
        write(os.path.join(tmp, "smash.c"), "#include <string.h>\n#include <stdio.h>\n\n"
              "static void greet(const char *who) {\n  char line[8];\n  strcpy(line, who);\n  puts(line);\n}\n\n"
              "int main(int argc, char **argv) {\n  greet(argc > 1 ? argv[1] : \"world\");\n  return 0;\n}\n")
        t = run("gcc -g -O0 -fstack-protector-all smash.c -o smash && bash -c './smash a-visitor-with-a-long-name' 2>&1", cwd=tmp)
        case("glibc-stack-smashing", "error", "./smash a-visitor-with-a-long-name", t,
             lambda l: "stack smashing detected" in l or "Aborted" in l,
             "the `stack smashing detected` line and the shell's `Aborted` line")
        write(os.path.join(tmp, "cache.c"), "#include <stdlib.h>\n#include <string.h>\n\n"
              "struct entry { char *key; struct entry *next; };\n\n"
              "static struct entry *push(struct entry *head, const char *key) {\n  struct entry *e = malloc(sizeof *e);\n"
              "  e->key = strdup(key);\n  e->next = head;\n  return e;\n}\n\n"
              "int main(void) {\n  struct entry *head = NULL;\n  const char *keys[] = {\"a\", \"b\", \"c\", \"d\"};\n"
              "  for (int i = 0; i < 4; i++) head = push(head, keys[i]);\n  free(head);\n  return 0;\n}\n")
        t = run("gcc -g -O0 cache.c -o cache && valgrind --leak-check=full ./cache", cwd=tmp)
        case("valgrind-leak-check-full", "log", "valgrind --leak-check=full ./cache", t,
             lambda l: re.search(r"==\d+== .* (definitely|indirectly) lost in loss record", l)
             or re.search(r"\(cache\.c:\d+\)", l) or re.search(r"==\d+== +definitely lost:", l)
             or re.search(r"==\d+== ERROR SUMMARY:", l),
             "every `lost in loss record` line, every frame in cache.c, the `definitely lost:` total and the ERROR SUMMARY line")
        write(os.path.join(tmp, "peek.py"), "import ctypes\nimport faulthandler\n\nfaulthandler.enable()\n\n\n"
              "def read_header(address):\n    return ctypes.string_at(address, 16)\n\n\n"
              "def main():\n    print('reading')\n    read_header(8)\n\n\nmain()\n")
        t = run("python3 peek.py", cwd=tmp)
        case("python-faulthandler-segfault", "error", "python3 peek.py", t,
             lambda l: l.startswith("Fatal Python error") or re.search(r'File "[^"]*peek\.py", line \d+', l),
             "the `Fatal Python error` line and every frame in peek.py")
        write(os.path.join(tmp, "grow.js"), "const rows = [];\nfunction load(n) {\n"
              "  for (let i = 0; i < n; i++) rows.push({ id: i, name: 'row ' + i, tags: ['a', 'b', 'c'] });\n}\n"
              "load(1e9);\n")
        t = run("node --max-old-space-size=16 grow.js", cwd=tmp)
        case("node-heap-out-of-memory", "error", "node --max-old-space-size=16 grow.js", t,
             lambda l: l.startswith("FATAL ERROR:"),
             "the `FATAL ERROR:` line")


def php_and_link_cases():
    """Round 26, written before ghost's output was looked at: PHPUnit 9
    with a data provider's failing cases, named and numbered, errors
    thrown through the project's own classes, and markdown-link-check on
    a README whose links cannot resolve offline. PHPUnit: the first line
    of each distinct failure header (`N) Class::test …`, numbers masked:
    a data provider's cases differing only in numbers are one failure
    counted, those differing in words each a failure), the first line of
    each distinct message (`Failed asserting …`, an exception's `Class:
    message`), every line naming a place in the project's `src/` or
    `tests/`, and the verdict and counts. markdown-link-check: every dead
    link's `[✖]` line and the counts. Needs phpunit (Debian's) and `npm
    install markdown-link-check` in the folder `--js` names."""
    js = os.path.abspath(js_dir())
    bin_ = os.path.join(js, "node_modules", ".bin")
    with tempfile.TemporaryDirectory() as tmp:
        shop = os.path.join(tmp, "shop")
        write(os.path.join(shop, "src", "Coupon.php"), "<?php\nnamespace Shop;\n\nfinal class Coupon\n{\n"
              "    private function __construct(private int $percent) {}\n\n"
              "    public static function parse(string $code): self\n    {\n"
              "        if (!preg_match('/^(\\d+)OFF$/', $code, $m)) {\n"
              "            throw new \\DomainException(\"unknown coupon '$code'\");\n        }\n"
              "        return new self((int) $m[1]);\n    }\n\n"
              "    public function apply(int $cents): int\n    {\n        return intdiv($cents * (100 - $this->percent), 100);\n    }\n}\n")
        write(os.path.join(shop, "src", "Cart.php"), "<?php\nnamespace Shop;\n\nfinal class Cart\n{\n    private array $items = [];\n\n"
              "    public function add(string $sku, int $cents, int $qty = 1): void\n    {\n"
              "        if ($qty < 1) {\n            throw new \\InvalidArgumentException(\"quantity must be positive, got $qty\");\n        }\n"
              "        $this->items[] = [$sku, $cents, $qty];\n    }\n\n"
              "    public function total(): int\n    {\n        $t = 0;\n"
              "        foreach ($this->items as [$sku, $cents, $qty]) {\n            $t += $cents * $qty;\n        }\n"
              "        return $t > 10000 ? $t - 500 : $t;\n    }\n\n"
              "    public function applyCoupon(string $code): int\n    {\n        return Coupon::parse($code)->apply($this->total());\n    }\n}\n")
        write(os.path.join(shop, "src", "Slug.php"), "<?php\nnamespace Shop;\n\nfinal class Slug\n{\n"
              "    public static function of(string $title): string\n    {\n"
              "        return strtolower(str_replace(' ', '-', $title));\n    }\n}\n")
        write(os.path.join(shop, "tests", "bootstrap.php"), "<?php\nforeach (['Coupon', 'Cart', 'Slug'] as $c) {\n"
              "    require_once __DIR__ . \"/../src/$c.php\";\n}\n")
        adds = "".join(f"    public function testAdd{i}(): void\n    {{\n        $c = new Cart();\n"
                       f"        $c->add('sku{i}', {i * 7 + 1}, {i % 3 + 1});\n"
                       f"        $this->assertSame({(i * 7 + 1) * (i % 3 + 1)}, $c->total());\n    }}\n\n" for i in range(15))
        totals = [([100, 2], 200), ([250, 4], 1000), ([5000, 2], 10000), ([5000, 3], 15000),
                  ([1, 1], 1), ([9999, 1], 9999), ([6000, 2], 12000), ([30, 3], 90)]
        provider = "".join(f"            [{a}, {b}, {want}],\n" for (a, b), want in totals)
        write(os.path.join(shop, "tests", "CartTest.php"), "<?php\nuse PHPUnit\\Framework\\TestCase;\nuse Shop\\Cart;\n\n"
              "final class CartTest extends TestCase\n{\n" + adds
              + "    /** @dataProvider totals */\n    public function testTotal(int $cents, int $qty, int $want): void\n    {\n"
              "        $c = new Cart();\n        $c->add('x', $cents, $qty);\n        $this->assertSame($want, $c->total());\n    }\n\n"
              "    public function totals(): array\n    {\n        return [\n" + provider + "        ];\n    }\n\n"
              "    public function testCoupon(): void\n    {\n        $c = new Cart();\n        $c->add('x', 1000);\n"
              "        $this->assertSame(900, $c->applyCoupon('10PERCENT'));\n    }\n\n"
              "    public function testAddNothing(): void\n    {\n        $c = new Cart();\n        $c->add('x', 5, 0);\n"
              "        $this->assertSame(0, $c->total());\n    }\n}\n")
        write(os.path.join(shop, "tests", "SlugTest.php"), "<?php\nuse PHPUnit\\Framework\\TestCase;\nuse Shop\\Slug;\n\n"
              "final class SlugTest extends TestCase\n{\n    /** @dataProvider titles */\n"
              "    public function testSlug(string $title, string $want): void\n    {\n"
              "        $this->assertSame($want, Slug::of($title));\n    }\n\n"
              "    public function titles(): array\n    {\n        return [\n"
              "            'plain' => ['Hello', 'hello'],\n            'spaces' => ['a  b', 'a-b'],\n"
              "            'accents' => ['Émile Zola', 'emile-zola'],\n            'trim' => [' x ', 'x'],\n"
              "            'words' => ['Two Words', 'two-words'],\n        ];\n    }\n}\n")
        t = run("phpunit --colors=never --bootstrap tests/bootstrap.php tests 2>&1", cwd=shop)
        lines = t.splitlines()
        keep = first_of_each(lines, lambda l: re.match(r"^\d+\) \S+::\S+", l))
        keep += first_of_each(lines, lambda l: l.startswith("Failed asserting") or re.match(r"^[A-Z]\w+(\\\w+)*: \S", l))
        keep += [l for l in lines if re.search(r"/(src|tests)/\w+\.php:\d+$", l)]
        keep += [l for l in lines if re.match(r"^(FAILURES!|ERRORS!|Tests: \d+)", l)]
        case("phpunit-data-providers", "log", "phpunit --bootstrap tests/bootstrap.php tests", t, keep,
             "the first line of each distinct failure header (`N) Class::test …`, numbers masked), the first line of "
             "each distinct message (`Failed asserting …`, `Class: message`), every place in the project's src/ or "
             "tests/, the verdict and the counts")
        links = "".join(f"- [{name}](https://{name}.invalid/docs/{k})\n" for k, name in enumerate(
            ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]))
        write(os.path.join(tmp, "docs", "README.md"), "# Shop\n\nSee [the cart](src/Cart.php), [the guide](docs/guide.md) "
              "and [install](#install).\n\n## Links\n\n" + links + "\n## Install\n\nRun `composer install`.\n")
        t = run(f"{bin_}/markdown-link-check README.md 2>&1", cwd=os.path.join(tmp, "docs"))
        case("markdown-link-check-offline", "log", "markdown-link-check README.md", t,
             lambda l: "[✖]" in l or re.match(r"^\s*(ERROR: )?\d+ (dead )?links? ", l),
             "every dead link's `[✖]` line and the counts (`N links checked.`, `ERROR: N dead links found!`)")


def js_tool_cases():
    """Round 25, written before ghost's output was looked at: JavaScript
    tools no round had run, each with its own format. Biome's and oxlint's
    diagnostics (every diagnostic's header with its place, and the count),
    stylelint (every problem's line and the count), AVA and node-tap with
    failing tests (every line naming a failing test, and the counts), c8's
    coverage table over node's test runner (every file's row and the
    totals) and a vite build that cannot resolve an import (the error's
    lines). Needs `npm install @biomejs/biome oxlint stylelint
    stylelint-config-standard ava tap c8 vite` in the folder `--js` names."""
    js = os.path.abspath(js_dir())
    bin_ = os.path.join(js, "node_modules", ".bin")
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        write(os.path.join(src, "cart.js"), "export function total(items, coupon) {\n  var sum = 0\n"
              "  for (var i = 0; i < items.length; i++) {\n    if (items[i].qty == 0) continue\n"
              "    sum += items[i].price * items[i].qty\n  }\n  if (coupon != undefined) {\n    debugger\n"
              "    sum = sum - coupon\n  }\n  return sum\n}\n\nexport function unused(a, b) {\n  const c = a\n  return a\n}\n")
        write(os.path.join(src, "user.js"), "export async function load(id) {\n  try {\n    return await fetch('/u/' + id)\n"
              "  } catch (e) {}\n}\n\nexport const names = (list) => list.map((u) => { return u.name })\n"
              "export const same = (a) => a === a\n")
        t = run(f"{bin_}/biome lint --max-diagnostics=50 src 2>&1", cwd=tmp)
        case("biome-lint", "log", "biome lint src", t,
             lambda l: re.match(r"^src/\S+:\d+:\d+ \S+", l) or re.match(r"^(Found|Checked) ", l),
             "every diagnostic's header (`src/file.js:L:C lint/group/rule`) and the `Found N errors`/`Checked` lines")
        t = run(f"{bin_}/oxlint -A all -W correctness -W suspicious -W pedantic src 2>&1", cwd=tmp)
        case("oxlint-warnings", "log", "oxlint -W correctness -W suspicious -W pedantic src", t,
             lambda l: re.match(r"^\s*[!x×⚠] ", l) or re.search(r"╭─\[src/\S+:\d+:\d+\]", l)
             or re.match(r"^Found \d+", l),
             "every diagnostic's header (`! eslint(rule): message`), its `╭─[src/file.js:L:C]` place and the `Found N warnings` line")
        write(os.path.join(tmp, "css", "site.css"), "a { colr: red; }\n\n.title {\n  font-size: 12px;\n  font-size: 14px;\n}\n\n"
                  ".nav {\n  color: #FFF;\n  margin: 0px;\n}\n\n.nav {\n  padding: 1px;\n}\n")
        write(os.path.join(tmp, "css", "print.css"), "@media print {\n  .ad { display: none }\n  .x { color: #ff00zz; }\n}\n")
        write(os.path.join(tmp, ".stylelintrc.json"), '{"extends": "stylelint-config-standard"}\n')
        t = run(f"{bin_}/stylelint --config-basedir {js} 'css/*.css' 2>&1", cwd=tmp)
        case("stylelint-problems", "log", "stylelint 'css/*.css'", t,
             lambda l: "✖" in l or "⚠" in l or re.match(r"^\s*\d+:\d+ ", l),
             "every problem's line (`L:C ✖ message rule`) and the `✖ N problems` count")
        write(os.path.join(tmp, "package.json"), '{"type": "module"}\n')
        # The test files import the runners from the project's own modules.
        os.symlink(os.path.join(js, "node_modules"), os.path.join(tmp, "node_modules"))
        write(os.path.join(tmp, "test", "money.test.js"), "import test from 'ava';\n\n"
              "const cents = (s) => Math.round(parseFloat(s) * 100);\n\n"
              "test('cents of a whole amount', (t) => { t.is(cents('2'), 200); });\n"
              "test('cents of a fraction', (t) => { t.is(cents('0.29'), 28); });\n"
              "test('cents of a string with a sign', (t) => { t.deepEqual({ v: cents('-1.5') }, { v: -151 }); });\n"
              "test('cents of garbage throws', (t) => { t.throws(() => cents('x')); });\n"
              + "".join(f"test('cents of {k}.{k}0', (t) => {{ t.is(cents('{k}.{k}0'), {k * 110}); }});\n" for k in range(1, 9)))
        failing_ava = ["cents of a fraction", "cents of a string with a sign", "cents of garbage throws"]
        t = run(f"{bin_}/ava test/money.test.js 2>&1", cwd=tmp)
        case("ava-failing", "log", "ava test/money.test.js", t,
             lambda l: any(name in l for name in failing_ava) or re.search(r"\d+ tests? failed", l),
             "every line naming a failing test and the `N tests failed` count")
        write(os.path.join(tmp, "tap", "ports.test.mjs"), "import t from 'tap';\n\n"
              "const port = (s) => Number(s.split(':')[1]);\n\n"
              "t.test('reads a port', async (t) => { t.equal(port('h:80'), 80); });\n"
              "t.test('reads a port after an IPv6 host', async (t) => { t.equal(port('[::1]:8080'), 8080); });\n"
              "t.test('reads no port', async (t) => { t.equal(port('h'), 0, 'a missing port is 0'); });\n"
              "t.test('reads ports of a list', async (t) => { t.same(['a:1', 'b:2'].map(port), [1, 2]); });\n")
        failing_tap = ["reads a port after an IPv6 host", "reads no port", "a missing port is 0"]
        t = run(f"{bin_}/tap --disable-coverage tap/ports.test.mjs 2>&1", cwd=tmp)
        case("node-tap-failing", "log", "tap tap/ports.test.mjs", t,
             lambda l: any(name in l for name in failing_tap) or re.search(r"# fail \d+|\bfail(ed|ing)?:? *\d+", l, re.I),
             "every line naming a failing test or its message, and the fail counts")
        write(os.path.join(tmp, "lib", "shipping.js"), "export function fee(kg, zone) {\n  if (kg <= 0) throw new Error('weight');\n"
              "  if (zone === 'eu') return 5 + kg;\n  if (zone === 'us') return 8 + 2 * kg;\n  return 20 + 3 * kg;\n}\n\n"
              "export function eta(zone) {\n  switch (zone) {\n    case 'eu': return 3;\n    case 'us': return 6;\n    default: return 14;\n  }\n}\n")
        write(os.path.join(tmp, "lib", "tax.js"), "export const vat = (net, rate = 0.2) => net * rate;\nexport const gross = (net) => net + vat(net);\n")
        write(os.path.join(tmp, "cov", "shipping.test.js"), "import { test } from 'node:test';\nimport assert from 'node:assert';\n"
              "import { fee } from '../lib/shipping.js';\nimport { gross } from '../lib/tax.js';\n\n"
              "test('eu fee', () => assert.equal(fee(2, 'eu'), 7));\ntest('gross', () => assert.equal(gross(10), 12));\n")
        t = run(f"{bin_}/c8 node --test cov/ 2>&1", cwd=tmp)
        case("c8-coverage-table", "log", "c8 node --test cov/", t,
             lambda l: re.match(r"^\s*(All files|\S+\.js)\s*\|", l),
             "the `All files` row and every file's row of the coverage table")
        write(os.path.join(tmp, "web", "index.html"), "<!doctype html><script type=module src=/main.js></script>\n")
        write(os.path.join(tmp, "web", "main.js"), "import { format } from './format.js';\nimport chart from 'chart-lib';\n\n"
              "document.body.textContent = format(chart(1));\n")
        write(os.path.join(tmp, "web", "format.js"), "export const format = (x) => `${x}`;\n")
        t = run(f"{bin_}/vite build web 2>&1", cwd=tmp)
        case("vite-build-unresolved", "log", "vite build web", t,
             lambda l: "chart-lib" in l or re.search(r"\berror\b", l, re.I),
             "every line naming the unresolved import or saying error")


def dotnet_cases():
    """Round 27, written before ghost's output was looked at: .NET as
    Debian's Mono runs it (no round had a C# compiler, runner or crash).
    mcs on a project with errors and many warnings: every `file.cs(L,C):
    error|warning CSNNNN:` line and the `Compilation failed:` count.
    NUnit 2.6's console over a suite with failures, an error and an
    ignored test, plain and with `-labels` (every test named as it
    starts): each `N) Test Failure|Test Error : name` line, the first
    line of each message (`Expected:`, `But was:`, an exception's `Type :
    message`), every frame in the project's own .cs files, the ignored
    test's line and the `Tests run:` and `Not run:` counts. Its XML
    result file read back: every test case's name. A program dying of an
    exception wrapping another: the `Unhandled Exception:` and `[ERROR]
    FATAL UNHANDLED EXCEPTION:` lines, every line naming an exception
    with its message, the inner trace's end marker and every frame in the
    project's own .cs files. Needs Debian's mono-mcs, mono-runtime,
    nunit-console and libnunit-cil-dev."""
    with tempfile.TemporaryDirectory() as tmp:
        shop = os.path.join(tmp, "shop")
        # A compile with errors among many warnings (unused variables and
        # fields, unreachable code), each warning naming its own variable.
        body = "".join(f"        public int Step{i}(int x)\n        {{\n            int unused{i};\n"
                       f"            return x + {i};\n        }}\n\n" for i in range(24))
        write(os.path.join(shop, "broken", "Ledger.cs"), "using System;\nusing System.Collections.Generic;\n\n"
              "namespace Shop\n{\n    public class Ledger\n    {\n        private int neverRead;\n\n"
              + body
              + "        public int Total(List<int> xs)\n        {\n            int sum = \"0\";\n"
              "            foreach (var x in xs) sum += x;\n            return sum;\n            Console.WriteLine(sum);\n        }\n\n"
              "        public string Name() { return Lookup(3); }\n\n"
              "        public decimal Tax(decimal net) { return net * 0.2; }\n    }\n}\n")
        t = run("mcs -target:library -warn:4 broken/Ledger.cs -out:broken.dll 2>&1", cwd=shop)
        case("mcs-errors-and-warnings", "log", "mcs -target:library -warn:4 broken/Ledger.cs", t,
             lambda l: re.match(r"^\S+\.cs\(\d+,\d+\): (error|warning) CS\d+: ", l) or l.startswith("Compilation failed:"),
             "every `file.cs(L,C): error|warning CSNNNN:` line and the `Compilation failed:` count")
        # A library and its NUnit tests, compiled with debug symbols so the
        # frames name their lines.
        write(os.path.join(shop, "src", "Cart.cs"), "using System;\nusing System.Collections.Generic;\nusing System.Linq;\n\n"
              "namespace Shop\n{\n    public class Cart\n    {\n        private readonly List<(string Sku, decimal Price, int Qty)> items =\n"
              "            new List<(string, decimal, int)>();\n\n"
              "        public void Add(string sku, decimal price, int qty = 1)\n        {\n"
              "            if (qty < 1) throw new ArgumentOutOfRangeException(nameof(qty), qty, \"quantity must be positive\");\n"
              "            items.Add((sku, price, qty));\n        }\n\n"
              "        public decimal Total()\n        {\n            var t = items.Sum(i => i.Price * i.Qty);\n"
              "            return t > 100m ? t - 5m : t;\n        }\n\n"
              "        public static int ParseQty(string s)\n        {\n            return int.Parse(s.Trim());\n        }\n    }\n}\n")
        adds = "".join(f"        [Test]\n        public void Adds{i}()\n        {{\n            var c = new Cart();\n"
                       f"            c.Add(\"sku{i}\", {i + 1}m, {i % 3 + 1});\n"
                       f"            Assert.AreEqual({(i + 1) * (i % 3 + 1)}m, c.Total());\n        }}\n\n" for i in range(30))
        write(os.path.join(shop, "tests", "CartTests.cs"), "using NUnit.Framework;\nusing Shop;\n\n"
              "namespace Shop.Tests\n{\n    [TestFixture]\n    public class CartTests\n    {\n" + adds
              + "        [Test]\n        public void TotalOfALargeCart()\n        {\n            var c = new Cart();\n"
              "            c.Add(\"tv\", 60m, 2);\n            Assert.AreEqual(120m, c.Total(), \"no discount under 200\");\n        }\n\n"
              "        [Test]\n        public void ParsesAPaddedQuantity()\n        {\n            Assert.AreEqual(3, Cart.ParseQty(\" 3x \"));\n        }\n\n"
              "        [Test]\n        public void RefusesZero()\n        {\n"
              "            Assert.Throws<System.ArgumentException>(() => new Cart().Add(\"x\", 1m, 0));\n        }\n\n"
              "        [Test]\n        public void NamesEveryItem()\n        {\n"
              "            CollectionAssert.AreEqual(new[] { \"a\", \"b\" }, new[] { \"a\", \"c\" });\n        }\n\n"
              "        [Test, Ignore(\"coupons come later\")]\n        public void AppliesACoupon()\n        {\n        }\n    }\n}\n")
        nunit = "/usr/lib/cli/nunit.framework-2.6/nunit.framework.dll"
        if not os.path.exists(nunit):
            nunit = run("find /usr/lib/cli /usr/lib/mono -name nunit.framework.dll 2>/dev/null | head -1").strip()
        run("mcs -debug -target:library src/Cart.cs -out:Shop.dll 2>&1", cwd=shop)
        run(f"mcs -debug -target:library -r:Shop.dll -r:{nunit} tests/CartTests.cs -out:Shop.Tests.dll 2>&1", cwd=shop)

        def nunit_rule(lines):
            keep = [l for l in lines if re.match(r"^\d+\) Test (Failure|Error) : ", l)]
            keep += first_of_each(lines, lambda l: re.match(r"^\s*(Expected|But was)[: ]", l)
                                  or re.match(r"^\s*(\w+\.)+\w*Exception : ", l))
            keep += [l for l in lines if re.search(r"/shop/(src|tests)/\w+\.cs:\d+", l)]
            keep += [l for l in lines if "AppliesACoupon" in l]
            keep += [l for l in lines if re.match(r"^\s*(Tests run: \d+|Not run: \d+)", l)]
            return keep

        # Mono names a frame's file and line only when run with --debug.
        for cid, flags in [("nunit-console-failing", ""), ("nunit-console-labels", " -labels")]:
            command = f"MONO_ENV_OPTIONS=--debug nunit-console{flags} Shop.Tests.dll"
            t = run(f"{command} 2>&1", cwd=shop)
            case(cid, "log", command, t, nunit_rule(t.splitlines()),
                 "each `N) Test Failure|Test Error : name` line, the first line of each message (`Expected:`, "
                 "`But was:`, `Type : message`), every frame in the project's .cs files, the ignored test's "
                 "line, the `Tests run:` and `Not run:` counts")
        xml = open(os.path.join(shop, "TestResult.xml")).read()
        names = re.findall(r'<test-case name="([^"]+)"', xml)
        case("nunit-result-xml", "structured", "cat TestResult.xml", xml, names,
             "every test case's name", tool="Bash")
        # A program dying of an exception wrapping another, thrown through
        # LINQ and a dictionary.
        write(os.path.join(shop, "app", "Orders.cs"), "using System;\nusing System.Collections.Generic;\nusing System.Linq;\n\n"
              "namespace Shop\n{\n    public static class Prices\n    {\n"
              "        static readonly Dictionary<string, decimal> table = new Dictionary<string, decimal> { [\"tv\"] = 60m, [\"radio\"] = 15m };\n\n"
              "        public static decimal Of(string sku) => table[sku];\n    }\n\n"
              "    public static class Orders\n    {\n        public static decimal Price(int id, string[] skus)\n        {\n"
              "            try\n            {\n                return skus.Select(Prices.Of).Sum();\n            }\n"
              "            catch (KeyNotFoundException e)\n            {\n"
              "                throw new InvalidOperationException($\"cannot price order {id}\", e);\n            }\n        }\n\n"
              "        public static void Main()\n        {\n            Console.WriteLine(Price(1, new[] { \"tv\" }));\n"
              "            Console.WriteLine(Price(7, new[] { \"tv\", \"lamp\" }));\n        }\n    }\n}\n")
        run("mcs -debug app/Orders.cs -out:orders.exe 2>&1", cwd=shop)
        t = run("mono --debug orders.exe 2>&1", cwd=shop)
        case("mono-unhandled-exception", "error", "mono --debug orders.exe", t,
             lambda l: l.startswith("Unhandled Exception:") or l.startswith("[ERROR] FATAL UNHANDLED EXCEPTION")
             or re.search(r"\b(\w+\.)+\w*Exception: \S", l) or "End of inner exception stack trace" in l
             or re.search(r"/shop/app/\w+\.cs:\d+", l),
             "the `Unhandled Exception:` and `[ERROR] FATAL UNHANDLED EXCEPTION:` lines, every line naming an "
             "exception with its message, the inner trace's end marker and every frame in the project's .cs files")


def beam_and_clojure_cases():
    """Round 28, written before ghost's output was looked at: Erlang and
    Clojure, which no round had run (Debian's erlang-base, erlang-eunit,
    erlang-dev and clojure). erlc on a module with errors among many
    warnings: every `file.erl:L:C:` diagnostic line. EUnit over a suite
    with failures, plain and verbose: every line saying `*failed*`, every
    line naming a place in the project's .erl files, the first line of
    each distinct failure reason (`**error:`, `**exit:`, `**throw:`) and
    the `Failed: N.` summary. An escript dying of a bad argument deep in
    the project's calls: the `exception error:` line, the `called as`
    line and every line naming the script's .erl file. clojure.test with a
    failure and an error: every `FAIL in`/`ERROR in` line, the first of
    each distinct `expected:`/`actual:` line and the `Ran N tests` and
    `N failures, N errors.` lines. A Clojure program dying of an ex-info
    through the project's functions, its report on stderr: the `Execution
    error` line, every line naming an exception's class or message, and
    every frame in the project's .clj files."""
    with tempfile.TemporaryDirectory() as tmp:
        erl = os.path.join(tmp, "erl")
        fns = "".join(f"step{i}(X) ->\n    Unused{i} = X * {i},\n    X + {i}.\n\n" for i in range(24))
        write(os.path.join(erl, "ledger.erl"), "-module(ledger).\n-export([total/1, name/0"
              + "".join(f", step{i}/1" for i in range(24)) + "]).\n\n" + fns
              + "total(Xs) ->\n    lists:foldl(fun(X, Acc) -> X + Acc end, \"0\", Xs) + Missing.\n\n"
              "name() -> lookup(3).\n\nhelper(_) -> ok.\n")
        t = run("erlc ledger.erl 2>&1", cwd=erl)
        case("erlc-errors-and-warnings", "log", "erlc ledger.erl", t,
             lambda l: re.match(r"^\S+\.erl:\d+(:\d+)?: ", l),
             "every `file.erl:L:C:` diagnostic line (errors and warnings)")
        write(os.path.join(erl, "cart.erl"), "-module(cart).\n-export([total/1, parse_qty/1, add/3]).\n\n"
              "total(Items) ->\n    T = lists:sum([P * Q || {_, P, Q} <- Items]),\n"
              "    case T > 100 of true -> T - 5; false -> T end.\n\n"
              "parse_qty(S) -> list_to_integer(string:trim(S)).\n\n"
              "add(Items, Sku, Qty) when Qty > 0 -> [{Sku, 1, Qty} | Items].\n")
        tests = "".join(f"adds_{i}_test() ->\n    ?assertEqual({(i + 1) * (i % 3 + 1)}, cart:total([{{sku{i}, {i + 1}, {i % 3 + 1}}}])).\n\n"
                        for i in range(30))
        write(os.path.join(erl, "cart_tests.erl"), "-module(cart_tests).\n-include_lib(\"eunit/include/eunit.hrl\").\n\n" + tests
              + "large_cart_test() ->\n    ?assertEqual(120, cart:total([{tv, 60, 2}])).\n\n"
              "padded_qty_test() ->\n    ?assertEqual(3, cart:parse_qty(\" 3x \")).\n\n"
              "zero_qty_test() ->\n    ?assertError(badarg, cart:add([], x, 0)).\n\n"
              "names_test() ->\n    ?assertMatch([a, b], [a, c]).\n")
        run("erlc cart.erl cart_tests.erl 2>&1", cwd=erl)

        def eunit_rule(lines):
            keep = [l for l in lines if "*failed*" in l]
            keep += [l for l in lines if re.search(r"\b(cart|cart_tests)\.erl, line \d+", l)]
            keep += first_of_each(lines, lambda l: re.match(r"^\s*\*\*(error|exit|throw):", l))
            keep += [l for l in lines if re.search(r"\bFailed: \d+\.", l)]
            return keep

        for cid, opts in [("eunit-failing", "[]"), ("eunit-verbose", "[verbose]")]:
            command = f"erl -noshell -eval 'eunit:test(cart_tests, {opts}), init:stop().'"
            t = run(f"{command} 2>&1", cwd=erl)
            case(cid, "log", command, t, eunit_rule(t.splitlines()),
                 "every `*failed*` line, every line naming a place in cart.erl or cart_tests.erl, the first line "
                 "of each distinct failure reason (`**error:` …) and the `Failed: N.` summary")
        write(os.path.join(erl, "prices.erl"), "#!/usr/bin/env escript\n-mode(compile).\n\n"
              "main(_) ->\n    Orders = [{1, [\"tv\"]}, {7, [\"tv\", \"lamp\"]}],\n"
              "    [io:format(\"~p~n\", [price(Id, Skus)]) || {Id, Skus} <- Orders].\n\n"
              "price(_Id, Skus) ->\n    lists:sum(lists:map(fun unit/1, Skus)).\n\n"
              "unit(Sku) ->\n    Table = #{\"tv\" => 60, \"radio\" => 15},\n    maps:get(Sku, Table) div length(Sku -- Sku).\n")
        t = run("escript prices.erl 2>&1", cwd=erl)
        case("escript-crash", "error", "escript prices.erl", t,
             lambda l: "exception error" in l or "called as" in l or "prices.erl" in l,
             "the `exception error:` line, the `called as` line and every line naming prices.erl")
        clj = os.path.join(tmp, "clj")
        write(os.path.join(clj, "src", "shop", "cart.clj"), "(ns shop.cart\n  (:require [clojure.string :as str]))\n\n"
              "(defn total [items]\n  (let [t (reduce + (map (fn [[_ p q]] (* p q)) items))]\n    (if (> t 100) (- t 5) t)))\n\n"
              "(defn parse-qty [s]\n  (Long/parseLong (str/trim s)))\n\n"
              "(defn price [table sku]\n  (or (get table sku)\n      (throw (ex-info \"unknown sku\" {:sku sku}))))\n\n"
              "(defn order-total [table skus]\n  (reduce + (map #(price table %) skus)))\n")
        adds = "".join(f"(deftest adds-{i}\n  (is (= {(i + 1) * (i % 3 + 1)} (total [[:sku{i} {i + 1} {i % 3 + 1}]]))))\n\n" for i in range(30))
        write(os.path.join(clj, "test", "shop", "cart_test.clj"), "(ns shop.cart-test\n  (:require [clojure.test :refer [deftest is]]\n"
              "            [shop.cart :refer [total parse-qty]]))\n\n" + adds
              + "(deftest large-cart\n  (is (= 120 (total [[:tv 60 2]])) \"no discount under 200\"))\n\n"
              "(deftest padded-qty\n  (is (= 3 (parse-qty \" 3x \"))))\n")
        t = run("clojure -cp src:test -e \"(require 'clojure.test 'shop.cart-test) "
                "(clojure.test/run-tests 'shop.cart-test)\" 2>&1", cwd=clj)
        lines = t.splitlines()
        keep = [l for l in lines if re.match(r"^(FAIL|ERROR) in ", l)]
        keep += first_of_each(lines, lambda l: re.match(r"^\s*(expected|actual): ", l))
        keep += [l for l in lines if re.match(r"^Ran \d+ tests", l) or re.match(r"^\d+ failures, \d+ errors\.", l)]
        case("clojure-test-failing", "log", "clojure -cp src:test -e \"(clojure.test/run-tests 'shop.cart-test)\"", t, keep,
             "every `FAIL in`/`ERROR in` line, the first of each distinct `expected:`/`actual:` line, the `Ran N "
             "tests` and `N failures, N errors.` lines")
        write(os.path.join(clj, "src", "shop", "main.clj"), "(ns shop.main\n  (:require [shop.cart :as cart]))\n\n"
              "(defn -main []\n  (let [table {\"tv\" 60 \"radio\" 15}]\n"
              "    (println (cart/order-total table [\"tv\"]))\n    (println (cart/order-total table [\"tv\" \"lamp\"]))))\n\n(-main)\n")
        # (Debian's wrapper reads -cp only as the first argument.)
        t = run("clojure -cp src --report stderr src/shop/main.clj 2>&1", cwd=clj)
        case("clojure-crash-report", "error", "clojure -cp src --report stderr src/shop/main.clj", t,
             lambda l: l.startswith("Execution error") or re.search(r"\bclojure\.lang\.ExceptionInfo\b|unknown sku", l)
             or re.search(r"\b(cart|main)\.clj:\d+", l) or re.search(r"\[shop\.\S+ \S+ \"\w+\.clj\" \d+\]", l),
             "the `Execution error` line, every line naming the exception's class or message, and every frame "
             "in the project's .clj files (`[shop.cart$price invokeStatic \"cart.clj\" 13]`)")


def stack_ends(lines, is_frame, is_own):
    """The innermost and the outermost of the project's own frames of each
    stack, a stack being a run of lines `is_frame` accepts, printed
    innermost first (as sanitizers, valgrind, gdb, Go and faulthandler do):
    where the program failed and where its own code was entered."""
    keep, stack = [], []
    for l in lines + [""]:
        if is_frame(l):
            stack.append(l)
            continue
        own = [f for f in stack if is_own(f)]
        keep += own[:1] + own[-1:]
        stack = []
    return keep


def native_trace_in_log_cases():
    """Round 29, written before ghost's output was looked at: a crash's
    trace inside a longer log, as CI prints it, in the ecosystems that
    print native or runtime traces. For every case, of each stack the
    innermost and the outermost of the project's own frames (where it
    failed and where its code was entered; a two-line frame keeps both
    lines), and the tool's own report lines, named per case."""
    with tempfile.TemporaryDirectory() as tmp:
        expr = os.path.join(tmp, "expr")
        write(os.path.join(expr, "expr.h"), "long expr_value(const char *text);\n")
        write(os.path.join(expr, "expr.c"), "#include <ctype.h>\n#include <stdlib.h>\n#include \"expr.h\"\n\n"
              "struct node { char op; long value; struct node *left, *right; };\n\n"
              "static struct node *parse_sum(const char **s);\n\n"
              "static struct node *leaf(long v) {\n  struct node *n = calloc(1, sizeof *n);\n  n->value = v;\n  return n;\n}\n\n"
              "static struct node *pair(char op, struct node *l, struct node *r) {\n  struct node *n = calloc(1, sizeof *n);\n"
              "  n->op = op;\n  n->left = l;\n  n->right = r;\n  return n;\n}\n\n"
              "static struct node *parse_atom(const char **s) {\n  if (**s == '(') {\n    (*s)++;\n"
              "    struct node *n = parse_sum(s);\n    if (**s == ')') (*s)++;\n    return n;\n  }\n"
              "  long v = 0;\n  while (isdigit((unsigned char)**s)) v = v * 10 + (*(*s)++ - '0');\n  return leaf(v);\n}\n\n"
              "static struct node *parse_unary(const char **s) {\n  if (**s == '-') {\n    (*s)++;\n"
              "    return pair('-', leaf(0), parse_unary(s));\n  }\n  return parse_atom(s);\n}\n\n"
              "static struct node *parse_product(const char **s) {\n  struct node *l = parse_unary(s);\n"
              "  while (**s == '*') {\n    (*s)++;\n    l = pair('*', l, parse_unary(s));\n  }\n  return l;\n}\n\n"
              "static struct node *parse_sum(const char **s) {\n  struct node *l = parse_product(s);\n"
              "  while (**s == '+') {\n    (*s)++;\n    l = pair('+', l, parse_product(s));\n  }\n  return l;\n}\n\n"
              "static void release(struct node *n) {\n  if (!n) return;\n  release(n->left);\n  release(n->right);\n  free(n);\n}\n\n"
              "static long eval(struct node *n) {\n  switch (n->op) {\n  case '+': return eval(n->left) + eval(n->right);\n"
              "  case '-': return eval(n->left) - eval(n->right);\n  case '*': {\n    long l = eval(n->left);\n"
              "    if (l == 0) release(n->right); /* nothing to multiply */\n    return l * eval(n->right);\n  }\n"
              "  default: return n->value;\n  }\n}\n\n"
              "long expr_value(const char *text) {\n  const char *s = text;\n  struct node *n = parse_sum(&s);\n"
              "  long v = eval(n);\n  release(n);\n  return v;\n}\n")
        sums = [(f"{i}+{i + 1}*{i % 4}", i + (i + 1) * (i % 4)) for i in range(36)]
        checks = "".join(f"  check(\"sum_{i}\", \"{e}\", {v});\n" for i, (e, v) in enumerate(sums))
        write(os.path.join(expr, "tests.c"), "#include <stdio.h>\n#include \"expr.h\"\n\n"
              "static int failed;\n\n"
              "static void check(const char *name, const char *text, long want) {\n  long got = expr_value(text);\n"
              "  if (got == want) printf(\"PASS: %s\\n\", name);\n"
              "  else { printf(\"FAIL: %s (%s gave %ld, want %ld)\\n\", name, text, got, want); failed++; }\n"
              "  fflush(stdout);\n}\n\n"
              "int main(void) {\n" + checks
              + "  check(\"negated_product\", \"-2*3\", -6);\n  check(\"double_negation\", \"--4\", 4);\n"
              "  check(\"nested_zero\", \"((1+(2*(0*((3+4)*5))))+6)\", 7);\n  return failed != 0;\n}\n")
        write(os.path.join(expr, "Makefile"), "CFLAGS = -g -O0 -fsanitize=address -fno-omit-frame-pointer -Wall\n\n"
              "check: tests\n\t./tests\n\ntests: expr.c tests.c expr.h\n\t$(CC) $(CFLAGS) -o $@ expr.c tests.c\n")
        t = run("make check 2>&1", cwd=expr)
        lines = t.splitlines()
        keep = [l for l in lines if "ERROR: AddressSanitizer" in l or re.match(r"^(READ|WRITE) of size", l)
                or re.match(r"^(freed|previously allocated) by thread", l) or l.startswith("SUMMARY: AddressSanitizer")
                or l.startswith("FAIL: ") or l.startswith("make: ***")]
        keep += stack_ends(lines, lambda l: re.match(r"^\s*#\d+ 0x", l), lambda l: re.search(r"\b(expr|tests)\.c:\d+", l))
        case("make-check-asan-recursion", "log", "make check", t, keep,
             "the `ERROR: AddressSanitizer` line, the READ/WRITE line, the `freed by`/`previously allocated by` lines, "
             "the SUMMARY line, every `FAIL:` line, make's `***` line, and of each stack the innermost and the outermost "
             "frame in expr.c or tests.c")

        inv = os.path.join(tmp, "inventory")
        write(os.path.join(inv, "inventory.c"), "#include <stdlib.h>\n#include <string.h>\n\n"
              "struct item { char *sku; char *label; int count; struct item *next; };\n"
              "struct shelf { struct item *items; char *name; };\n\n"
              "static char *copy(const char *s) { return strdup(s); }\n\n"
              "struct shelf *shelf_new(const char *name) {\n  struct shelf *s = calloc(1, sizeof *s);\n"
              "  s->name = copy(name);\n  return s;\n}\n\n"
              "static struct item *item_new(const char *sku, const char *label) {\n  struct item *i = calloc(1, sizeof *i);\n"
              "  i->sku = copy(sku);\n  i->label = copy(label);\n  return i;\n}\n\n"
              "void shelf_add(struct shelf *s, const char *sku, const char *label, int count) {\n"
              "  struct item *i = item_new(sku, label);\n  i->count = count;\n  i->next = s->items;\n  s->items = i;\n}\n\n"
              "int shelf_total(const struct shelf *s) {\n  int n = 0;\n  for (struct item *i = s->items; i; i = i->next) n += i->count;\n  return n;\n}\n\n"
              "char *shelf_report(const struct shelf *s) {\n  char *out = malloc(256);\n  strcpy(out, s->name);\n  return out;\n}\n\n"
              "void shelf_free(struct shelf *s) {\n  for (struct item *i = s->items, *next; i; i = next) {\n"
              "    next = i->next;\n    free(i->sku);\n    free(i);\n  }\n  free(s);\n}\n")
        tests = "".join(f"  {{\n    struct shelf *s = shelf_new(\"aisle-{i}\");\n    shelf_add(s, \"sku-{i}\", \"box {i}\", {i + 1});\n"
                        f"    report(\"total_{i}\", shelf_total(s) == {i + 1});\n"
                        + (f"    char *r = shelf_report(s);\n    report(\"report_{i}\", r[0] == 'a');\n" if i % 10 == 3 else "")
                        + "    shelf_free(s);\n  }\n" for i in range(30))
        write(os.path.join(inv, "check.c"), "#include <stdio.h>\n\n"
              "struct shelf;\nstruct shelf *shelf_new(const char *name);\n"
              "void shelf_add(struct shelf *s, const char *sku, const char *label, int count);\n"
              "int shelf_total(const struct shelf *s);\nchar *shelf_report(const struct shelf *s);\nvoid shelf_free(struct shelf *s);\n\n"
              "static void report(const char *name, int ok) { printf(\"%s: %s\\n\", ok ? \"PASS\" : \"FAIL\", name); }\n\n"
              "int main(void) {\n" + tests + "  return 0;\n}\n")
        write(os.path.join(inv, "Makefile"), "CFLAGS = -g -O0 -fsanitize=address -fno-omit-frame-pointer\n\n"
              "check: check-inventory\n\t./check-inventory\n\ncheck-inventory: inventory.c check.c\n"
              "\t$(CC) $(CFLAGS) -o $@ inventory.c check.c\n")
        t = run("make check 2>&1", cwd=inv)
        lines = t.splitlines()
        keep = [l for l in lines if re.match(r"^(Direct|Indirect) leak of", l) or l.startswith("SUMMARY: AddressSanitizer")
                or "ERROR: LeakSanitizer" in l or l.startswith("make: ***")]
        keep += stack_ends(lines, lambda l: re.match(r"^\s*#\d+ 0x", l), lambda l: re.search(r"\b(inventory|check)\.c:\d+", l))
        case("make-check-lsan-leaks", "log", "make check", t, keep,
             "the `ERROR: LeakSanitizer` line, every `Direct leak of`/`Indirect leak of` line, the SUMMARY line, make's "
             "`***` line, and of each leak's stack the innermost and the outermost frame in inventory.c or check.c")

        ring = os.path.join(tmp, "ring")
        write(os.path.join(ring, "ring.c"), "#include <stdlib.h>\n\n"
              "struct ring { int *slots; int size, head; };\n\n"
              "struct ring *ring_new(int size) {\n  struct ring *r = malloc(sizeof *r);\n"
              "  r->slots = malloc(size * sizeof *r->slots);\n  r->size = size;\n  r->head = 0;\n  return r;\n}\n\n"
              "void ring_push(struct ring *r, int v) { r->slots[r->head++ % r->size] = v; }\n\n"
              "static int slot(const struct ring *r, int back) { return r->slots[r->head - back]; }\n\n"
              "int ring_peek(const struct ring *r, int back) { return slot(r, back); }\n\n"
              "int ring_sum(const struct ring *r, int n) {\n  int s = 0;\n  for (int k = 1; k <= n; k++) s += ring_peek(r, k);\n  return s;\n}\n\n"
              "void ring_free(struct ring *r) { free(r->slots); free(r); }\n")
        for i in range(12):
            n = 3 + i % 4
            body = (f"  struct ring *r = ring_new({n});\n  for (int i = 0; i < {n}; i++) ring_push(r, i);\n"
                    f"  int ok = ring_sum(r, {n}) == {n * (n - 1) // 2};\n")
            if i == 7:
                body = "  struct ring *r = ring_new(4);\n  for (int i = 0; i < 6; i++) ring_push(r, i);\n  int ok = ring_sum(r, 3) == 12;\n"
            if i == 10:
                body = "  struct ring *r = ring_new(4);\n  int ok = ring_peek(r, 1) == 0;\n"
            write(os.path.join(ring, "tests", f"t{i:02d}.c"), "#include <stdio.h>\n\nstruct ring;\n"
                  "struct ring *ring_new(int size);\nvoid ring_push(struct ring *r, int v);\n"
                  "int ring_peek(const struct ring *r, int back);\nint ring_sum(const struct ring *r, int n);\n"
                  "void ring_free(struct ring *r);\n\nint main(void) {\n" + body
                  + "  ring_free(r);\n  return ok ? 0 : 1;\n}\n")
        write(os.path.join(ring, "run-tests.sh"), "set -u\nstatus=0\nfor src in tests/t*.c; do\n"
              "  t=build/$(basename $src .c)\n  gcc -g -O0 -Wall -o $t ring.c $src\n  echo \"== $t\"\n"
              "  if valgrind --error-exitcode=2 --leak-check=full ./$t; then echo \"PASS: $t\"; else echo \"FAIL: $t\"; status=1; fi\n"
              "done\nexit $status\n")
        os.makedirs(os.path.join(ring, "build"))
        t = run("bash run-tests.sh 2>&1", cwd=ring)
        lines = t.splitlines()
        keep = [l for l in lines if re.search(r"==\d+== (Invalid (read|write) of size|Conditional jump or move|Use of uninitialised)", l)
                or re.search(r"==\d+== ERROR SUMMARY: [1-9]", l) or l.startswith("FAIL: ")]
        keep += stack_ends(lines, lambda l: re.match(r"^==\d+== +(at|by) 0x", l), lambda l: re.search(r"\((ring|t\d+)\.c:\d+\)", l))
        case("valgrind-test-loop", "log", "bash run-tests.sh", t, keep,
             "every valgrind error header (`Invalid read of size`, `Conditional jump or move …`), every `ERROR SUMMARY` "
             "line counting errors, every `FAIL:` line, and of each stack the innermost and the outermost frame in "
             "ring.c or a test's .c")

        app = os.path.join(tmp, "app")
        write(os.path.join(app, "src", "conf.c"), "#include <stddef.h>\n#include <string.h>\n\n"
              "struct section { const char *name; struct section *child; const char *value; };\n\n"
              "static size_t value_len(const struct section *s) { return strlen(s->value); }\n\n"
              "size_t conf_width(const struct section *s) {\n  if (s->child) return 1 + conf_width(s->child);\n"
              "  return value_len(s);\n}\n")
        write(os.path.join(app, "src", "main.c"), "#include <stdio.h>\n#include <string.h>\n\n"
              "struct section { const char *name; struct section *child; const char *value; };\n"
              "size_t conf_width(const struct section *s);\n\n"
              "static int self_test(void) {\n  struct section leafs[6];\n  memset(leafs, 0, sizeof leafs);\n"
              "  for (int i = 0; i < 5; i++) { leafs[i].name = \"s\"; leafs[i].child = &leafs[i + 1]; }\n"
              "  leafs[5].name = \"port\";\n  printf(\"width %zu\\n\", conf_width(&leafs[0]));\n  return 0;\n}\n\n"
              "int main(int argc, char **argv) {\n  if (argc > 1 && strcmp(argv[1], \"--self-test\") == 0) return self_test();\n"
              "  return 0;\n}\n")
        for k in range(8):
            write(os.path.join(app, "src", f"util{k}.c"), f"int util{k}(int x) {{ return x * {k + 2}; }}\n")
        write(os.path.join(app, "ci.sh"), "set -eu\nmkdir -p build\nfor f in src/*.c; do\n"
              "  gcc -g -O0 -Wall -c \"$f\" -o \"build/$(basename \"$f\" .c).o\"\ndone\ngcc build/*.o -o build/app\n"
              "if ! ./build/app --self-test; then\n  gdb -q -batch -ex run -ex bt --args ./build/app --self-test\n  exit 1\nfi\n")
        t = run("bash -x ci.sh 2>&1", cwd=app)
        lines = t.splitlines()
        keep = [l for l in lines if l.startswith("Program received signal") or "Segmentation fault" in l or l == "+ exit 1"]
        keep += stack_ends(lines, lambda l: re.match(r"^#\d+ ", l), lambda l: re.search(r" at src/\w+\.c:\d+", l))
        case("ci-script-gdb-backtrace", "log", "bash -x ci.sh", t, keep,
             "the `Program received signal` line, the shell's `Segmentation fault` line, the `+ exit 1` line, and "
             "the innermost and the outermost frame `#N … at src/….c:L` of gdb's backtrace")

        crate = os.path.join(tmp, "tally")
        write(os.path.join(crate, "Cargo.toml"), '[package]\nname = "tally"\nversion = "0.1.0"\nedition = "2021"\n')
        write(os.path.join(crate, "src", "lib.rs"), "/// Depth of the deepest bracket in `text`.\n"
              "pub fn depth(text: &str) -> usize {\n    nest(text.as_bytes(), 0).0\n}\n\n"
              "fn nest(bytes: &[u8], at: usize) -> (usize, usize) {\n    let mut deepest = 0;\n    let mut i = at;\n"
              "    while i < bytes.len() && bytes[i] != b']' {\n        if bytes[i] == b'[' {\n"
              "            let (d, end) = nest(bytes, i + 1);\n            deepest = deepest.max(d + 1);\n"
              "            i = closing(bytes, end);\n        }\n        i += 1;\n    }\n    (deepest, i)\n}\n\n"
              "fn closing(bytes: &[u8], end: usize) -> usize {\n    assert_eq!(bytes[end], b']', \"bracket at {end} not closed\");\n    end\n}\n\n"
              "#[cfg(test)]\nmod tests {\n    use super::*;\n"
              + "".join(f"    #[test]\n    fn depth_{i}() {{\n        assert_eq!(depth(\"{'[' * (i % 5)}x{']' * (i % 5)}\"), {i % 5});\n    }}\n" for i in range(30))
              + "    #[test]\n    fn unclosed_inner() {\n        assert_eq!(depth(\"[[[x]]\"), 3);\n    }\n}\n")
        t = run("RUST_BACKTRACE=1 cargo test --offline --color never 2>&1", cwd=crate)
        lines = t.splitlines()
        keep = [l for l in lines if re.match(r"^---- \S+ stdout ----", l) or " panicked at " in l
                or l.startswith("test result:") or re.match(r"^    tests::\w+$", l)]
        keep += [lines[k + 1] for k, l in enumerate(lines[:-1]) if re.search(r" panicked at \S+:$", l)]
        frames = [k for k, l in enumerate(lines) if re.match(r"^ +\d+: ", l)]
        own = [k for k in frames if re.match(r"^ +\d+: tally::", lines[k])]
        for k in own[:1] + own[-1:]:
            keep.append(lines[k])
            if k + 1 < len(lines) and lines[k + 1].strip().startswith("at "):
                keep.append(lines[k + 1])
        case("cargo-test-backtrace", "log", "RUST_BACKTRACE=1 cargo test", t, keep,
             "every `---- name stdout ----` line, the `panicked at` line and the message below it, each failing "
             "test's name under `failures:`, the `test result:` line, and of the backtrace the innermost and the "
             "outermost frame in the crate (`N: tally::…` and its `at` line)")

        shop = os.path.join(tmp, "shop")
        write(os.path.join(shop, "go.mod"), "module example.com/shop\n\ngo 1.19\n")
        write(os.path.join(shop, "tree.go"), "package shop\n\n"
              "type Category struct {\n\tName     string\n\tChildren []*Category\n\tcounts   map[string]int\n}\n\n"
              "func (c *Category) tally(sku string) {\n\tc.counts[sku]++\n}\n\n"
              "func (c *Category) Add(path []string, sku string) {\n\tif len(path) == 0 {\n\t\tc.tally(sku)\n\t\treturn\n\t}\n"
              "\tfor _, child := range c.Children {\n\t\tif child.Name == path[0] {\n\t\t\tchild.Add(path[1:], sku)\n\t\t\treturn\n\t\t}\n\t}\n"
              "\tchild := &Category{Name: path[0]}\n\tc.Children = append(c.Children, child)\n\tchild.Add(path[1:], sku)\n}\n\n"
              "func New(name string) *Category { return &Category{Name: name, counts: map[string]int{}} }\n")
        subs = "".join(f"\t\t{{\"depth_{i}\", {i % 3}}},\n" for i in range(30))
        write(os.path.join(shop, "tree_test.go"), "package shop\n\nimport \"testing\"\n\n"
              "func TestAdd(t *testing.T) {\n\tfor _, tc := range []struct {\n\t\tname  string\n\t\tdepth int\n\t}{\n" + subs
              + "\t} {\n\t\tt.Run(tc.name, func(t *testing.T) {\n\t\t\tc := New(\"root\")\n\t\t\tif tc.depth == 0 {\n"
              "\t\t\t\tc.Add(nil, \"sku\")\n\t\t\t}\n\t\t\tif len(c.Children) != 0 {\n\t\t\t\tt.Fatalf(\"children %d\", len(c.Children))\n\t\t\t}\n\t\t})\n\t}\n}\n\n"
              "func TestAddNested(t *testing.T) {\n\tc := New(\"root\")\n\tc.Add([]string{\"garden\", \"tools\", \"spades\"}, \"sku-9\")\n}\n")
        t = run("GOFLAGS=-mod=mod GOPROXY=off go test -v ./... 2>&1", cwd=shop)
        lines = t.splitlines()
        keep = [l for l in lines if l.startswith("--- FAIL") or re.match(r"^\s*panic: ", l) or re.match(r"^FAIL\b", l)]
        places = [k for k, l in enumerate(lines) if k > 0 and l.startswith("\t/") and re.search(r"\.go:\d+", l)]
        own = [k for k in places if "/shop/" in lines[k]]
        for k in own[:1] + own[-1:]:
            keep += [lines[k - 1], lines[k]]
        case("go-test-panic-trace", "log", "go test -v ./...", t, keep,
             "every `--- FAIL` line, the `panic:` lines, the `FAIL` lines, and of the panicking goroutine's trace "
             "the innermost and the outermost frame in the module's files (the call and its place)")

        py = os.path.join(tmp, "blobs")
        write(os.path.join(py, "blobs.py"), "import ctypes\n\n\ndef _address(buf, offset):\n"
              "    return ctypes.addressof(buf) + offset if buf is not None else offset\n\n\n"
              "HEADER_AT = 16\n\n\ndef read_header(buf, size=4):\n    return ctypes.string_at(_address(buf, HEADER_AT), size)\n\n\n"
              "def magic(buf):\n    return read_header(buf)[:2]\n")
        tests = "".join(f"def test_magic_{i}():\n    buf = ctypes.create_string_buffer(b\"{'.' * 16}MZ{i:02d}\")\n"
                        f"    assert magic(buf) == b\"MZ\"\n\n\n" for i in range(30))
        write(os.path.join(py, "test_blobs.py"), "import ctypes\n\nfrom blobs import magic\n\n\n" + tests
              + "def test_magic_of_nothing():\n    assert magic(None) == b\"\"\n")
        venv = os.path.abspath(VENV)
        t = run(f"bash -c '{venv}/pytest -v -p no:cacheprovider test_blobs.py' 2>&1", cwd=py)
        lines = t.splitlines()
        keep = [l for l in lines if l.startswith("Fatal Python error") or "Segmentation fault" in l]
        keep += stack_ends(lines, lambda l: re.match(r'^  File ".*", line \d+ in ', l),
                           lambda l: re.search(r'/blobs/\w+\.py"', l))
        case("pytest-faulthandler-crash", "log", "pytest -v test_blobs.py", t, keep,
             "the `Fatal Python error` line, the shell's `Segmentation fault` line, and of the current thread's "
             "trace the innermost and the outermost frame in the project's .py files")


def json_values(text):
    """Every JSON document in `text`: one per line (JSON Lines), else the
    whole text, else the objects between lines that are not JSON (go vet's
    `# package` lines)."""
    docs = []
    for l in text.splitlines():
        l = l.strip()
        if l.startswith("{") and l.endswith("}"):
            try:
                docs.append(json.loads(l))
            except ValueError:
                pass
    if docs:
        return docs
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    chunk, docs = [], []
    for l in text.splitlines() + ["#"]:
        if l.startswith("#"):
            if chunk:
                docs.append(json.loads("\n".join(chunk)))
            chunk = []
        else:
            chunk.append(l)
    return docs


def event_stream_cases():
    """Round 30, written before ghost's output was looked at: reports tools
    print for machines, which agents ask for to parse them (JSON Lines
    event streams and JSON diagnostics). For each, the facts a reader
    needs, as values, whatever the rendering: go test -json with failing
    tests (each failing test's name, each failure's message after its
    `file:line:`, each failing package); go vet -json (each diagnostic's
    message and its file:line); cargo build --message-format=json (each
    compiler message's text and code); gcc -fdiagnostics-format=json (each
    diagnostic's message); pip install --dry-run --report (each package's
    name and version); oxlint and Biome's JSON reports (each diagnostic's
    message and rule)."""
    with tempfile.TemporaryDirectory() as tmp:
        mod = os.path.join(tmp, "calc")
        write(os.path.join(mod, "go.mod"), "module example.com/calc\n\ngo 1.19\n")
        write(os.path.join(mod, "calc.go"), "package calc\n\nimport \"fmt\"\n\n"
              "// Add adds.\nfunc Add(a, b int) int { return a + b }\n\n"
              "// Div divides, rounding down.\nfunc Div(a, b int) int { return a / b }\n\n"
              "// Label names a total.\nfunc Label(n int) string { return fmt.Sprintf(\"%d items\", n) }\n")
        cases_ = "".join(f"\t\t{{{i}, {i + 1}, {2 * i + 1}}},\n" for i in range(24))
        write(os.path.join(mod, "calc_test.go"), "package calc\n\nimport \"testing\"\n\n"
              "func TestAdd(t *testing.T) {\n\tfor _, c := range []struct{ a, b, want int }{\n" + cases_
              + "\t} {\n\t\tif got := Add(c.a, c.b); got != c.want {\n\t\t\tt.Errorf(\"Add(%d, %d) = %d, want %d\", c.a, c.b, got, c.want)\n\t\t}\n\t}\n}\n\n"
              "func TestDivRoundsDown(t *testing.T) {\n\tif got := Div(-7, 2); got != -4 {\n\t\tt.Errorf(\"Div(-7, 2) = %d, want -4\", got)\n\t}\n}\n\n"
              "func TestLabelSingular(t *testing.T) {\n\tif got := Label(1); got != \"1 item\" {\n\t\tt.Fatalf(\"Label(1) = %q, want %q\", got, \"1 item\")\n\t}\n}\n\n"
              + "".join(f"func TestLabel{i}(t *testing.T) {{\n\tif Label({i + 2}) == \"\" {{\n\t\tt.Fail()\n\t}}\n}}\n\n" for i in range(12)))
        write(os.path.join(mod, "parse", "parse.go"), "package parse\n\nimport \"strconv\"\n\n"
              "// Qty reads a quantity.\nfunc Qty(s string) (int, error) { return strconv.Atoi(s) }\n")
        write(os.path.join(mod, "parse", "parse_test.go"), "package parse\n\nimport \"testing\"\n\n"
              + "".join(f"func TestQty{i}(t *testing.T) {{\n\tif n, err := Qty(\"{i}\"); err != nil || n != {i} {{\n\t\tt.Fatal(err)\n\t}}\n}}\n\n" for i in range(10))
              + "func TestQtyPadded(t *testing.T) {\n\tn, err := Qty(\" 3\")\n\tif err != nil {\n\t\tt.Fatalf(\"Qty(%q): %v\", \" 3\", err)\n\t}\n\tif n != 3 {\n\t\tt.Errorf(\"n = %d\", n)\n\t}\n}\n")
        t = run("GOFLAGS=-mod=mod GOPROXY=off go test -json ./... 2>&1", cwd=mod)
        events = json_values(t)
        keep = [e["Test"] for e in events if e.get("Action") == "fail" and e.get("Test")]
        keep += [e["Package"] for e in events if e.get("Action") == "fail" and not e.get("Test")]
        keep += [re.sub(r"^\s*\w+_test\.go:\d+: ", "", e["Output"]).strip() for e in events
                 if e.get("Action") == "output" and re.match(r"^\s+\w+_test\.go:\d+: ", e.get("Output", ""))]
        case("go-test-json-failing", "structured", "go test -json ./...", t, keep,
             "each failing test's name (a `fail` event's Test), each failing package, and each failure's message "
             "(an `output` event's text after its `x_test.go:N:`)")
        write(os.path.join(mod, "report.go"), "package calc\n\nimport \"fmt\"\n\n"
              "// Report prints totals.\nfunc Report(n int, name string) {\n\tfmt.Printf(\"%s has %d\\n\", n, name)\n"
              "\tfmt.Printf(\"total %d\\n\")\n\tfmt.Println(\"done\\n\")\n}\n\n"
              "// Same compares.\nfunc Same(a int) bool { return a == a }\n")
        write(os.path.join(mod, "parse", "copy.go"), "package parse\n\nimport \"sync\"\n\n"
              "// Guard holds a lock.\ntype Guard struct{ mu sync.Mutex }\n\n"
              "// Snapshot copies the guard.\nfunc Snapshot(g Guard) Guard { return g }\n")
        t = run("GOFLAGS=-mod=mod GOPROXY=off go vet -json ./... 2>&1", cwd=mod)
        keep = []
        for doc in json_values(t):
            for analyzers in doc.values():
                for found in analyzers.values():
                    for d in found:
                        place = re.search(r"(\w+\.go:\d+)", d["posn"]).group(1)
                        keep += [d["message"], place]
        case("go-vet-json", "structured", "go vet -json ./...", t, keep,
             "each diagnostic's message and its place as file.go:line")
        crate = os.path.join(tmp, "ledger")
        write(os.path.join(crate, "Cargo.toml"), '[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n')
        write(os.path.join(crate, "src", "lib.rs"), "use std::collections::HashMap;\nuse std::fmt::Write;\n\n"
              "pub struct Entry {\n    pub amount: i64,\n    pub memo: String,\n}\n\n"
              "pub fn total(entries: &[Entry]) -> i64 {\n    let mut sum = 0;\n    let unused = entries.len();\n"
              "    for e in entries {\n        sum += e.amount;\n    }\n    sum as i32\n}\n\n"
              "pub fn memo_of(entries: &[Entry], i: usize) -> &str {\n    entries.get(i).map(|e| e.memo)\n}\n\n"
              "fn helper(x: i64) -> i64 {\n    let y = x;\n    x\n}\n\n"
              "pub fn by_memo(entries: &[Entry]) -> HashMap<&str, i64> {\n    let mut m = HashMap::new();\n"
              "    for e in entries {\n        *m.entry(e.memo.as_str()).or_insert(0) += e.amount;\n    }\n    m\n}\n")
        t = run("cargo build --offline --message-format=json 2>/dev/null", cwd=crate)
        keep = []
        for e in json_values(t):
            if e.get("reason") == "compiler-message":
                m = e["message"]
                keep.append(m["message"])
                if m.get("code"):
                    keep.append(m["code"]["code"])
        case("cargo-build-json", "structured", "cargo build --message-format=json", t, keep,
             "each compiler message's text (`message.message`) and its code (`E0308`)")
        c = os.path.join(tmp, "cjson")
        write(os.path.join(c, "stock.c"), "#include <stdio.h>\n#include <string.h>\n\n"
              "struct item { char sku[8]; int qty; };\n\n"
              "static int count(const struct item *items, int n) {\n  int total;\n  for (int i = 0; i < n; i++) total += items[i].qty;\n  return total;\n}\n\n"
              "int label(struct item *it, const char *sku) {\n  strcpy(it->sku, sku);\n  printf(\"%d\\n\", it->sku);\n}\n\n"
              "int main(void) {\n  struct item items[2] = {{\"a\", 1}, {\"b\", 2}};\n  unsigned u = -1;\n"
              "  if (u < 0) return 1;\n  printf(\"%d\\n\", count(items, 2), 3);\n  return missing(items);\n}\n")
        t = run("gcc -Wall -Wextra -fdiagnostics-format=json -c stock.c -o /dev/null 2>&1", cwd=c)
        keep = []
        for doc in json_values(t):
            for d in doc if isinstance(doc, list) else [doc]:
                keep.append(d["message"])
        case("gcc-json-diagnostics", "structured", "gcc -Wall -Wextra -fdiagnostics-format=json -c stock.c", t, keep,
             "each diagnostic's message")
        venv = os.path.abspath(VENV)
        t = run(f"{venv}/pip install --dry-run --quiet --ignore-installed --report - flask==3.0.3 2>/dev/null")
        keep = []
        for doc in json_values(t):
            for p in doc.get("install", []):
                keep += [p["metadata"]["name"], p["metadata"]["version"]]
        case("pip-install-report-json", "structured", "pip install --dry-run --report - flask==3.0.3", t, keep,
             "each package to install: its name and its version")
        js = os.path.abspath(js_dir())
        web = os.path.join(tmp, "web")
        write(os.path.join(web, "cart.js"), "var total = 0;\n\nfunction add(items, item) {\n  if (item.qty == 0) {\n"
              "    debugger;\n  }\n  for (var i = 0; i < items.length; i++) {\n    total += items[i].price;\n  }\n"
              "  return items.concat([item]);\n}\n\nfunction unused(a, b) {\n  return a;\n}\n\n"
              "const label = (n) => { if (n = 1) return 'one'; return n + ' items'; };\n\nmodule.exports = { add, label };\n")
        write(os.path.join(web, "util.js"), "const fs = require('fs');\n\nexport function read(path) {\n"
              "  try {\n    return JSON.parse(fs.readFileSync(path));\n  } catch (e) {}\n}\n\n"
              "export function same(a) {\n  return a === a;\n}\n\nexport async function wait() {\n  new Promise(() => {});\n}\n")
        t = run(f"{js}/node_modules/.bin/oxlint --format json . 2>&1", cwd=web)
        keep = []
        for doc in json_values(t):
            for d in doc.get("diagnostics", []) if isinstance(doc, dict) else doc:
                keep.append(d["message"])
                if d.get("code"):
                    keep.append(d["code"])
        case("oxlint-json-report", "structured", "oxlint --format json .", t, keep,
             "each diagnostic's message and its rule (`eslint(no-debugger)`)")
        t = run(f"{js}/node_modules/.bin/biome lint --reporter=json . 2>&1", cwd=web)
        keep = []
        for doc in json_values(t):
            if isinstance(doc, dict):
                for d in doc.get("diagnostics", []):
                    keep.append(d.get("category", ""))
                    desc = d.get("description") or d.get("message")
                    if isinstance(desc, str):
                        keep.append(desc)
        case("biome-json-report", "structured", "biome lint --reporter=json .", t, [k for k in keep if k],
             "each diagnostic's category (its rule) and description")


def changed_lines(text):
    """A unified diff's added and removed lines (not its `---`/`+++` file
    lines), those with more than their sign."""
    return [l for l in text.splitlines()
            if l[:1] in "+-" and not l.startswith(("+++ ", "--- ")) and l[1:].strip()]


def diff_facts(text):
    """What round 31's rule asks of a git diff: its changed lines, every
    `diff --git` line and every hunk's `@@` header."""
    return changed_lines(text) + [l for l in text.splitlines() if l.startswith("diff --git") or l.startswith("@@")]


def diff_cases():
    """Round 31, written before ghost's output on them was looked at: diffs
    an agent reads to see what changed (its own edits, a commit, a
    dependency update). The changed lines are what a diff says: for
    every case, every added and removed line, every file's `diff --git`
    (or `---`) line and every hunk's `@@` header; for a commit, its
    message's lines too. git diff over edits to three files of the
    standard library (a renamed function, a new parameter, a removed
    block, an added file), two modules added whole (added after the
    first six cases kept every line: their hunks were too short for the
    code compressor to fold), edits to Rust, Go and JavaScript sources
    with a Rust file added (added for the same reason: no case was in a
    language with braces), git show and git log -p of commits with
    messages, diff -u of two configuration files, a rename across many
    files (sed over a module's uses), and a Cargo.lock updated."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(repo)
        git("init -q -b main", repo)
        for name in ["textwrap.py", "shlex.py", "fnmatch.py", "glob.py"]:
            shutil.copy(os.path.join(STDLIB, name), os.path.join(repo, name))
        git("add -A", repo)
        git("commit -q -m 'Vendor four modules of the standard library'", repo)

        def edit(name, pairs, where=repo):
            p = os.path.join(where, name)
            s = open(p).read()
            for old, new in pairs:
                assert old in s, (name, old)
                s = s.replace(old, new)
            open(p, "w").write(s)

        edit("textwrap.py", [("def _split_chunks(self, text):", "def split_into_chunks(self, text):"),
                             ("self._split_chunks(text)", "self.split_into_chunks(text)"),
                             ("                 max_lines=None,\n", "                 max_lines=None,\n                 ellipsis='...',\n"),
                             ("        self.max_lines = max_lines\n", "        self.max_lines = max_lines\n        self.ellipsis = ellipsis\n")])
        edit("shlex.py", [("            if self.debug >= 3:\n                print(\"shlex: in state %r I see character: %r\" % (self.state,\n                                                                  nextchar))\n", ""),
                          ("def quote(s):\n    \"\"\"Return a shell-escaped version of the string *s*.\"\"\"\n",
                           "def quote(s, *, force=False):\n    \"\"\"Return a shell-escaped version of the string *s*; with *force*, always quoted.\"\"\"\n"),
                          ("    if _find_unsafe(s) is None:\n", "    if not force and _find_unsafe(s) is None:\n")])
        edit("fnmatch.py", [("    if os.path is posixpath:\n", "    if os.path is posixpath or name.isascii():\n")])
        write(os.path.join(repo, "paths.py"), "\"\"\"Helpers over glob and fnmatch.\"\"\"\n\nimport fnmatch\nimport glob\n\n\n"
              "def matching(pattern, names):\n    return [n for n in names if fnmatch.fnmatch(n, pattern)]\n\n\n"
              "def tree(root):\n    return sorted(glob.glob(f\"{root}/**\", recursive=True))\n")
        git("add -A", repo)
        t = git("diff --cached", repo)
        keep = diff_facts(t)
        case("git-diff-three-modules", "code", "git diff --cached", t, keep,
             "every added and removed line, every `diff --git` line and every hunk's `@@` header")
        git("commit -q -m 'Name the chunk splitter, let quote() force quoting' "
            "-m 'textwrap: split_into_chunks is public now, and a TextWrapper takes an ellipsis.' "
            "-m 'shlex: quote(force=True) quotes a safe string too; the debug prints are gone.'", repo)
        t = git("show", repo)
        keep = diff_facts(t)
        keep += [l for l in t.splitlines() if l.startswith("    ") and l.strip() and not l.startswith("     ")][:3]
        case("git-show-commit", "code", "git show", t, keep,
             "the commit message's lines, every added and removed line, every `diff --git` line and every `@@` header")
        edit("glob.py", [("def glob(pathname, *, root_dir=None, dir_fd=None, recursive=False,",
                          "def glob(pathname, *, root_dir=None, dir_fd=None, recursive=True,")])
        git("commit -q -am 'glob: recursive by default'", repo)
        edit("paths.py", [("def tree(root):", "def tree(root, pattern=\"**\"):"), ("{root}/**", "{root}/{pattern}")])
        git("commit -q -am 'paths: tree takes a pattern'", repo)
        t = git("log -p -3", repo)
        keep = diff_facts(t)
        keep += [l for l in t.splitlines() if re.match(r"^    \S", l)]
        case("git-log-patch", "code", "git log -p -3", t, keep,
             "every commit's message lines, every added and removed line, every `diff --git` line and every `@@` header")

        for name in ["colorsys.py", "bisect.py"]:
            shutil.copy(os.path.join(STDLIB, name), os.path.join(repo, name))
        edit("paths.py", [("import glob\n", "import glob\nimport bisect\n")])
        git("add -A", repo)
        t = git("diff --cached", repo)
        keep = diff_facts(t)
        case("git-diff-added-modules", "code", "git diff --cached", t, keep,
             "every added and removed line, every `diff --git` line and every hunk's `@@` header")
        git("commit -q -m 'Vendor colorsys and bisect'", repo)

        # Brace languages: edits to a Rust crate's, Go's and a JavaScript
        # package's sources, and a Rust file added whole.
        braces = os.path.join(tmp, "braces")
        os.makedirs(braces)
        git("init -q -b main", braces)
        reg = glob.glob(os.path.expanduser("~/.cargo/registry/src/*/strsim-0.11.1/src/lib.rs"))[0]
        shutil.copy(reg, os.path.join(braces, "strsim.rs"))
        shutil.copy("/usr/lib/go/src/strings/builder.go", os.path.join(braces, "builder.go"))
        shutil.copy(os.path.join(os.path.abspath(js_dir()), "node_modules", "semver", "functions", "coerce.js"),
                    os.path.join(braces, "coerce.js"))
        git("add -A", braces)
        git("commit -q -m base", braces)
        edit("strsim.rs", [("pub fn levenshtein(a: &str, b: &str) -> usize {\n    generic_levenshtein(&StringWrapper(a), &StringWrapper(b))\n}",
                            "pub fn levenshtein(a: &str, b: &str) -> usize {\n    if a == b {\n        return 0;\n    }\n"
                            "    generic_levenshtein(&StringWrapper(a), &StringWrapper(b))\n}\n\n"
                            "/// Levenshtein distance, ignoring ASCII case.\npub fn levenshtein_ignore_case(a: &str, b: &str) -> usize {\n"
                            "    levenshtein(&a.to_ascii_lowercase(), &b.to_ascii_lowercase())\n}"),
                           ("    1.0 - (levenshtein(a, b) as f64) / (a.chars().count().max(b.chars().count()) as f64)",
                            "    let longest = a.chars().count().max(b.chars().count());\n    1.0 - (levenshtein(a, b) as f64) / (longest as f64)")], braces)
        edit("builder.go", [("\tif n < 0 {\n\t\tpanic(\"strings.Builder.Grow: negative count\")\n\t}",
                             "\tif n < 0 {\n\t\tpanic(\"strings.Builder.Grow: negative count \" + itoa(n))\n\t}"),
                            ("func (b *Builder) WriteString(s string) (int, error) {\n\tb.copyCheck()\n",
                             "func (b *Builder) WriteString(s string) (int, error) {\n\tb.copyCheck()\n\tif s == \"\" {\n\t\treturn 0, nil\n\t}\n")], braces)
        edit("coerce.js", [("  if (typeof version === 'number') {\n    version = String(version)\n  }",
                            "  if (typeof version === 'number' || typeof version === 'bigint') {\n    version = String(version)\n  }")], braces)
        fnv = glob.glob(os.path.expanduser("~/.cargo/registry/src/*/fnv-1.0.7/lib.rs"))[0]
        shutil.copy(fnv, os.path.join(braces, "fnv.rs"))
        git("add -A", braces)
        t = git("diff --cached", braces)
        keep = diff_facts(t)
        case("git-diff-brace-languages", "code", "git diff --cached", t, keep,
             "every added and removed line, every `diff --git` line and every hunk's `@@` header")

        conf = os.path.join(tmp, "conf")
        old = "".join(f"[upstream_{i}]\nhost = 10.0.{i}.1\nport = {8000 + i}\nretries = 3\ntimeout = 30\n\n" for i in range(20))
        new = old.replace("port = 8004", "port = 9004").replace("timeout = 30\n\n[upstream_12]", "timeout = 45\n\n[upstream_12]")
        new = new.replace("[upstream_17]\nhost = 10.0.17.1\nport = 8017\nretries = 3\ntimeout = 30\n\n", "") + "[upstream_20]\nhost = 10.0.20.1\nport = 8020\nretries = 5\ntimeout = 30\n"
        write(os.path.join(conf, "old", "proxy.ini"), old)
        write(os.path.join(conf, "new", "proxy.ini"), new)
        t = run("diff -u old/proxy.ini new/proxy.ini", cwd=conf)
        keep = changed_lines(t) + [l for l in t.splitlines() if l.startswith("--- ") or l.startswith("@@")]
        case("diff-u-config", "code", "diff -u old/proxy.ini new/proxy.ini", t, keep,
             "every added and removed line, the `---` line and every `@@` header")

        pkg = os.path.join(tmp, "pkg")
        os.makedirs(pkg)
        git("init -q -b main", pkg)
        for k in range(14):
            write(os.path.join(pkg, f"mod{k}.py"), "from store import fetch_record\n\n\n"
                  + "".join(f"def step{k}_{j}(key):\n    rec = fetch_record(key, {j})\n    return rec\n\n\n" for j in range(3)))
        write(os.path.join(pkg, "store.py"), "def fetch_record(key, shard):\n    return (key, shard)\n")
        git("add -A", pkg)
        git("commit -q -m base", pkg)
        run("sed -i 's/fetch_record/load_record/g' *.py", cwd=pkg)
        t = git("diff", pkg)
        keep = diff_facts(t)
        case("git-diff-rename-across-files", "code", "git diff", t, keep,
             "every added and removed line, every `diff --git` line and every `@@` header")

        lock = os.path.join(tmp, "lock")
        os.makedirs(lock)
        git("init -q -b main", lock)
        regs = sorted(glob.glob(os.path.expanduser("~/.cargo/registry/src/*/*-*")))[:60]
        body = "# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n"
        entries = []
        for d in regs:
            name, _, version = os.path.basename(d).rpartition("-")
            if name and re.match(r"^\d+\.\d+\.\d+$", version):
                entries.append((name, version))
        entries = sorted(dict(entries).items())
        def lockfile(bump):
            out = body
            for i, (name, version) in enumerate(entries):
                if i in bump:
                    major, minor, patch = version.split(".")
                    version = f"{major}.{minor}.{int(patch) + 1}"
                out += (f"[[package]]\nname = \"{name}\"\nversion = \"{version}\"\n"
                        f"source = \"registry+https://github.com/rust-lang/crates.io-index\"\n"
                        f"checksum = \"{hashlib.sha256((name + version).encode()).hexdigest()}\"\n\n")
            return out
        write(os.path.join(lock, "Cargo.lock"), lockfile(set()))
        git("add -A", lock)
        git("commit -q -m base", lock)
        write(os.path.join(lock, "Cargo.lock"), lockfile({3, 11, 12, 30, 41}))
        t = git("diff", lock)
        lines = t.splitlines()
        keep = [l for l in lines if re.match(r'^[-+]version = ', l)]
        keep += [l for l in lines if l.startswith(" name = ") or l.startswith("@@")]
        case("git-diff-cargo-lock", "code", "git diff", t, keep,
             "every changed `version =` line and the `name =` line each hunk shows, and every `@@` header")


def history_cases():
    """Round 32, written before ghost's output on them was looked at:
    lists of records an agent reads, each record opened by a line naming
    it. git log and git log --stat of this repository at a fixed commit
    (4380717): every `commit <hash>` line and every line of every message;
    with --stat every changed file's line too. pip show of four packages:
    every `Name:`, `Version:` and `Requires:` line."""
    rev = "4380717"
    t = run(f"git -c core.pager=cat log -14 {rev}")
    lines = t.splitlines()
    keep = [l for l in lines if re.match(r"^commit [0-9a-f]{40}", l) or (l.startswith("    ") and l.strip())]
    case("git-log-full", "log", "git log -14", t, keep,
         "every `commit <hash>` line and every line of every commit message")
    t = run(f"git -c core.pager=cat log --stat -6 {rev}")
    lines = t.splitlines()
    keep = [l for l in lines if re.match(r"^commit [0-9a-f]{40}", l) or (l.startswith("    ") and l.strip())
            or re.match(r"^ \S.* \| +\d+", l)]
    case("git-log-stat", "log", "git log --stat -6", t, keep,
         "every `commit <hash>` line, every line of every commit message and every changed file's `path | N` line")
    venv = os.path.abspath(VENV)
    t = run(f"{venv}/pip show pytest pluggy iniconfig packaging")
    keep = [l for l in t.splitlines() if l.startswith(("Name:", "Version:", "Requires:"))]
    case("pip-show-packages", "log", "pip show pytest pluggy iniconfig packaging", t, keep,
         "every `Name:`, `Version:` and `Requires:` line")


def trace_run(lines, opens, is_frame):
    """The first trace in `lines`: the first line `opens` accepts and every
    line right after it that `is_frame` accepts."""
    start = next(i for i, l in enumerate(lines) if opens(l))
    end = start + 1
    while end < len(lines) and is_frame(lines[end]):
        end += 1
    return lines[start:end]


def whole_trace_cases():
    """Round 33, written before ghost's output on them was looked at: a
    long log (a job runner, a batch script, a test run of many packages)
    in which one failure printed its stack trace and the run went on, the
    trace far from the end. A reader of the failure reads its whole trace,
    so the rule is: every line of that trace (its header, its message and
    every frame, the runtime's frames too), and the run's own last
    summary line."""
    with tempfile.TemporaryDirectory() as tmp:
        # Node: a job runner that logs a failed job's error.stack and goes on.
        js = os.path.join(tmp, "jobs")
        write(os.path.join(js, "src", "rules.js"),
              "function applyRule(rule, order, depth) {\n  if (depth === 0) return rule.apply(order);\n"
              "  return applyRule(rule, order, depth - 1);\n}\nmodule.exports = { applyRule };\n")
        write(os.path.join(js, "src", "pricing.js"),
              "const { applyRule } = require('./rules');\n"
              "function price(order, rules) {\n  return rules.reduce((total, rule) => total + applyRule(rule, order, 6), 0);\n}\n"
              "module.exports = { price };\n")
        write(os.path.join(js, "run.js"),
              "const { price } = require('./src/pricing');\n"
              "const rules = [{ apply: (o) => o.qty * 2 }, { apply: (o) => o.discount.rate * o.qty }];\n"
              "let failed = 0;\n"
              "for (let i = 0; i < 3000; i++) {\n"
              "  const order = { id: i, qty: i % 13, discount: i === 1234 ? undefined : { rate: 0.1 } };\n"
              "  try {\n    const total = JSON.parse(JSON.stringify({ t: price(order, rules) }), (k, v) => v).t;\n"
              "    console.log(`job ${String(i).padStart(5, '0')} [orders] sku=A${(i * 7919) % 100000} total=${total.toFixed(2)} ok`);\n"
              "  } catch (err) {\n    failed++;\n    console.log(`job ${String(i).padStart(5, '0')} [orders] failed:`);\n"
              "    console.log(err.stack);\n  }\n}\n"
              "console.log(`done: 3000 jobs, ${failed} failed`);\nprocess.exitCode = failed ? 1 : 0;\n")
        t = run("node run.js", cwd=js)
        lines = t.splitlines()
        keep = trace_run(lines, lambda l: l.startswith("TypeError"), lambda l: l.startswith("    at "))
        keep += [l for l in lines if l.startswith("done: ")]
        case("node-job-runner-stack", "log", "node run.js", t, keep,
             "every line of the failed job's error.stack (the TypeError and every `at` frame) and the `done:` line")

        # Python: a thread dies with a traceback while the others go on logging.
        py = os.path.join(tmp, "etl")
        write(os.path.join(py, "etl", "__init__.py"), "")
        write(os.path.join(py, "etl", "parse.py"),
              "import json\n\ndef decode(raw, depth):\n    if depth == 0:\n        return json.loads(raw)\n"
              "    return decode(raw, depth - 1)\n")
        write(os.path.join(py, "etl", "load.py"),
              "from etl.parse import decode\n\ndef load_batch(batch):\n    return [decode(raw, 5) for raw in batch]\n")
        write(os.path.join(py, "main.py"),
              "import sys, threading, time\nfrom etl.load import load_batch\n\n"
              "def worker(n):\n    for i in range(700):\n        raw = '{\"id\": %d}' % i if not (n == 2 and i == 300) else '{\"id\": 300,'\n"
              "        load_batch([raw])\n        print(f'worker-{n} loaded row {i:05d} from shard {n} in {(i * 37) % 250 + 3}ms', flush=True)\n\n"
              "threads = [threading.Thread(target=worker, args=(n,), name=f'worker-{n}') for n in range(4)]\n"
              "for t in threads:\n    t.start()\n    t.join()\n"
              "print('finished: 4 workers, 2100 rows loaded', flush=True)\nsys.exit(1)\n")
        t = run("python3 main.py 2>&1", cwd=py)
        lines = t.splitlines()
        start = next(i for i, l in enumerate(lines) if l.startswith("Exception in thread"))
        end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("json.decoder.JSONDecodeError")) + 1
        keep = [l for l in lines[start:end] if l.strip()] + [l for l in lines if l.startswith("finished: ")]
        case("python-thread-traceback-in-log", "log", "python3 main.py", t, keep,
             "every non-blank line of the dead thread's traceback (the `Exception in thread` line, every frame's "
             "`File` line and source line, the exception) and the `finished:` line")

        # Java: a batch logs an exception's printStackTrace, with its cause, and goes on.
        jv = os.path.join(tmp, "batch")
        write(os.path.join(jv, "Batch.java"),
              "import java.util.*;\nimport java.util.stream.*;\n\npublic class Batch {\n"
              "  static int depth(int n, String raw) {\n    if (n == 0) return Integer.parseInt(raw);\n    return depth(n - 1, raw);\n  }\n"
              "  static int parse(String raw) {\n    try {\n      return depth(8, raw);\n    } catch (NumberFormatException e) {\n"
              "      throw new IllegalStateException(\"bad quantity in record: \" + raw, e);\n    }\n  }\n"
              "  public static void main(String[] args) {\n    int failed = 0;\n    for (int i = 0; i < 3000; i++) {\n"
              "      String raw = i == 1717 ? \"12x\" : Integer.toString(i % 13);\n"
              "      try {\n        int q = List.of(raw).stream().map(Batch::parse).collect(Collectors.toList()).get(0);\n"
              "        System.out.printf(\"record %05d [ledger] sku=A%05d qty=%d ok%n\", i, (i * 7919) % 100000, q);\n"
              "      } catch (IllegalStateException e) {\n        failed++;\n        e.printStackTrace(System.out);\n      }\n    }\n"
              "    System.out.println(\"BATCH FINISHED: 3000 records, \" + failed + \" failed\");\n    System.exit(failed > 0 ? 1 : 0);\n  }\n}\n")
        t = run("javac Batch.java && java Batch", cwd=jv)
        lines = t.splitlines()
        keep = trace_run(lines, lambda l: l.startswith("java.lang.IllegalStateException"),
                         lambda l: l.startswith(("\tat ", "Caused by:", "\t...")))
        keep += [l for l in lines if l.startswith("BATCH FINISHED")]
        case("java-batch-stacktrace-in-log", "log", "java Batch", t, keep,
             "every line of the printed stack trace (the exception, every `at` frame, `Caused by:` and `... N more`) "
             "and the `BATCH FINISHED` line")

        # Ruby: a rescued error's full backtrace printed by a worker that goes on.
        rb = os.path.join(tmp, "sync")
        write(os.path.join(rb, "lib", "mapper.rb"),
              "module Mapper\n  def self.field(row, name, depth)\n    return row.fetch(name) if depth.zero?\n"
              "    field(row, name, depth - 1)\n  end\nend\n")
        write(os.path.join(rb, "sync.rb"),
              "require_relative 'lib/mapper'\nrequire 'json'\nfailed = 0\n2500.times do |i|\n"
              "  row = i == 1999 ? { 'id' => i } : { 'id' => i, 'email' => \"user#{i}@example.com\" }\n"
              "  begin\n    email = [row].map { |r| Mapper.field(r, 'email', 6) }.first\n"
              "    puts format('synced user %05d <%s> in %dms', i, email, (i * 37) % 250 + 3)\n"
              "  rescue KeyError => e\n    failed += 1\n    puts \"sync failed for user #{i}: #{e.message} (#{e.class})\"\n"
              "    e.backtrace.each { |f| puts \"    from #{f}\" }\n  end\nend\nputs \"sync done: 2500 users, #{failed} failed\"\nexit(failed.zero? ? 0 : 1)\n")
        t = run("ruby sync.rb", cwd=rb)
        lines = t.splitlines()
        keep = trace_run(lines, lambda l: l.startswith("sync failed for user"), lambda l: l.startswith("    from "))
        keep += [l for l in lines if l.startswith("sync done:")]
        case("ruby-sync-backtrace-in-log", "log", "ruby sync.rb", t, keep,
             "the `sync failed` line, every `from` frame of its backtrace and the `sync done:` line")


GRID_LIB_RS = "//! A tiny terminal grid: writes text into cells, wrapping and scrolling.\n#[derive(Clone, Debug, PartialEq)]\npub struct Cell { pub c: char, pub fg: (u8, u8, u8), pub bold: bool }\nimpl Default for Cell { fn default() -> Self { Cell { c: ' ', fg: (234, 234, 234), bold: false } } }\npub struct Grid { pub cols: usize, pub rows: Vec<Vec<Cell>>, pub cursor: (usize, usize) }\nimpl Grid {\n    pub fn new(cols: usize, lines: usize) -> Self { Grid { cols, rows: vec![vec![Cell::default(); cols]; lines], cursor: (0, 0) } }\n    pub fn write(&mut self, text: &str) {\n        for ch in text.chars() {\n            if ch == '\\n' { self.newline(); continue; }\n            if ch == '\\t' { self.cursor.1 = (self.cursor.1 / 8 + 1) * 8; if self.cursor.1 >= self.cols { self.newline(); } continue; }\n            let (r, c) = self.cursor;\n            self.rows[r][c] = Cell { c: ch, ..Cell::default() };\n            self.cursor.1 += 1;\n            // bug: wraps one column early\n            if self.cursor.1 + 1 >= self.cols { self.newline(); }\n        }\n    }\n    fn newline(&mut self) {\n        self.cursor.1 = 0;\n        if self.cursor.0 + 1 == self.rows.len() { self.rows.remove(0); self.rows.push(vec![Cell::default(); self.cols]); } else { self.cursor.0 += 1; }\n    }\n}\n"

GRID_REFERENCE_RS = 'use gridref::{Cell, Grid};\n\n/// What a correct terminal shows: each line cut into rows of `cols` cells.\nfn expected(text: &str, cols: usize, lines: usize) -> Vec<Vec<Cell>> {\n    let mut rows: Vec<Vec<Cell>> = Vec::new();\n    for line in text.split(\'\\n\') {\n        let chars: Vec<char> = line.chars().collect();\n        let chunks: Vec<&[char]> = if chars.is_empty() { vec![&[][..]] } else { chars.chunks(cols).collect() };\n        for chunk in chunks {\n            let mut row = vec![Cell::default(); cols];\n            for (i, ch) in chunk.iter().enumerate() { row[i] = Cell { c: *ch, ..Cell::default() }; }\n            rows.push(row);\n        }\n    }\n    while rows.len() > lines { rows.remove(0); }\n    while rows.len() < lines { rows.push(vec![Cell::default(); cols]); }\n    rows\n}\n\nfn compare(name: &str, text: &str, cols: usize, lines: usize) {\n    let mut g = Grid::new(cols, lines);\n    g.write(text);\n    let want = expected(text, cols, lines);\n    let mut differ = 0;\n    for (r, (got, exp)) in g.rows.iter().zip(&want).enumerate() {\n        for (c, (a, b)) in got.iter().zip(exp).enumerate() {\n            if a != b {\n                println!("[{r}][{c}] {a:?} => {b:?}");\n                differ += 1;\n            }\n        }\n    }\n    assert!(differ == 0, "Ref test {name} failed; {differ} cells differ");\n}\n\n#[test] fn short_line() { compare("short_line", "hello", 80, 4); }\n#[test] fn empty() { compare("empty", "", 80, 4); }\n#[test] fn two_lines() { compare("two_lines", "ab\\ncd", 80, 4); }\n#[test] fn exact_width() { compare("exact_width", &"x".repeat(40), 40, 4); }\n#[test] fn long_paragraph() {\n    let text = "The quick brown fox jumps over the lazy dog while the terminal wraps every line it cannot fit. ".repeat(12);\n    compare("long_paragraph", &text, 40, 30);\n}\n#[test] fn log_lines() {\n    let text: Vec<String> = (0..40).map(|i| format!("{i:04} INFO worker-{} finished batch {} in {} ms with status ok", i % 7, i * 13, i * 37 % 1000)).collect();\n    compare("log_lines", &text.join("\\n"), 48, 24);\n}\n#[test] fn unicode() { compare("unicode", "héllo wörld", 80, 2); }\n'


def unhinted_cases():
    """Round 37, written before ghost's output on them was looked at: what
    an agent (or a person) pipes into ghost with no tool and no path, the
    way the issue's bars score it (`ghost compress --class C` on standard
    input; `ghost-bench corpus --as-saved-file` scores them so): Ruby
    source (no round had Ruby read without its `.rb`), Cargo.toml
    manifests whose features span lines, CI workflows and a YAML table of
    flags with block scalars, and cargo-nextest's run of a reference-test
    crate (each failing test's output indented under its FAIL line). The
    rules are those of earlier rounds for the same kinds: every `def`,
    `class` and `module` line of Ruby; every table header and pinned
    version of a manifest; every job id, `name:` and `uses:` of a
    workflow; every flag's key, `arg_name:` and `api_field:`; every FAIL
    line, panic and its message, the summary and every differing cell."""
    ruby = "/usr/lib/ruby/3.1.0"
    for name in ["delegate", "ostruct", "pp"]:
        path = os.path.join(ruby, name + ".rb")
        if not os.path.exists(path):
            print(f"{path} missing, skipped")
            continue
        text = open(path).read()
        case(f"unhinted-ruby-{name}", "code", f"cat {path}", text,
             lambda l: re.match(r"^\s*(def|class|module) ", l),
             "every `def`, `class` and `module` line")
    reg = os.path.join(os.path.expanduser("~/.cargo/registry/src"), sorted(os.listdir(os.path.expanduser("~/.cargo/registry/src")))[0])
    manifest = lambda l: l.startswith("[") or re.match(r"^version\s*=", l) or re.match(r"^[\w-]+\s*=\s*\{.*\bversion\s*=", l)
    for crate in ["clap_builder-4.6.7", "criterion-0.8.2", "chrono-0.4.45"]:
        path = os.path.join(reg, crate, "Cargo.toml")
        if os.path.exists(path):
            case(f"unhinted-manifest-{crate.rsplit('-', 1)[0]}", "structured", "cat Cargo.toml",
                 open(path).read(), manifest,
                 "every table header line and every line that pins a version (`version = …`, an inline table with a version)")
    flows = sorted(glob.glob(os.path.join(reg, "*", ".github", "workflows", "*.yml")))
    picked = []
    for flow in flows:
        owner = flow.split(os.sep)[-4]
        if owner.startswith("blake3-") or any(p.split(os.sep)[-4] == owner for p in picked):
            continue
        text = open(flow).read()
        if "\njobs:\n" in text and len(text) > 3000:
            picked.append(flow)
        if len(picked) == 2:
            break
    for flow in picked:
        text = open(flow).read()
        jobs = text.split("\njobs:\n", 1)[1]
        keep = [l for l in jobs.splitlines() if re.match(r"^  [\w-]+:\s*$", l)]
        keep += [l.strip() for l in text.splitlines() if re.match(r"^\s*(- )?(name|uses):", l)]
        owner = re.sub(r"-[\d.]+$", "", flow.split(os.sep)[-4])
        case(f"unhinted-workflow-{owner}", "structured", f"cat .github/workflows/{os.path.basename(flow)}", text, keep,
             "every job's id line, every `name:` line and every `uses:` line")
    for area in ["pubsub", "iam"]:
        path = f"/usr/lib/google-cloud-sdk/lib/googlecloudsdk/command_lib/{area}/flags.yaml"
        if os.path.exists(path):
            case(f"unhinted-flags-gcloud-{area}", "structured", f"cat {area}/flags.yaml", open(path).read(),
                 lambda l: re.match(r"^[\w-]+:\s*$", l) or re.match(r"^  (arg_name|api_field):", l),
                 "every flag's key (a top-level key) and its `arg_name:` and `api_field:` lines")
    with tempfile.TemporaryDirectory() as tmp:
        crate = os.path.join(tmp, "gridref")
        os.makedirs(os.path.join(crate, "src"))
        os.makedirs(os.path.join(crate, "tests"))
        open(os.path.join(crate, "Cargo.toml"), "w").write(
            '[package]\nname = "gridref"\nversion = "0.1.0"\nedition = "2021"\n[dependencies]\n')
        open(os.path.join(crate, "src", "lib.rs"), "w").write(GRID_LIB_RS)
        open(os.path.join(crate, "tests", "reference.rs"), "w").write(GRID_REFERENCE_RS)
        t = run("RUST_BACKTRACE=0 cargo nextest run --no-fail-fast --color never", cwd=crate)
        lines = t.splitlines()
        keep = [l.strip() for i, l in enumerate(lines)
                if re.match(r"^\s*FAIL \[", l) or re.match(r"^\s*Summary \[", l)
                or "=> Cell" in l or "panicked at" in l
                or (i > 0 and "panicked at" in lines[i - 1])]
        case("unhinted-nextest-reference", "log", "cargo nextest run --no-fail-fast", t, keep,
             "every FAIL line, the Summary line, every differing cell line, each panic line and the message after it")


def config_cases():
    """Round 34, written before ghost's output on them was looked at:
    manifests, configuration and data files an agent reads (Claude Code's
    Read, the file's path as the hint; the CSV through `head`), from
    formats no earlier case came in: Cargo.toml, a GitHub Actions
    workflow, an INI file, a YAML table of flags, a Maven POM, TSV and CSV.
    The rule, per format, is what an agent reads such a file for: every
    table header and every version a manifest pins; every job, step name
    and action of a workflow; every section and active setting of an INI
    file (its comments may go); every flag's key, argument name and API
    field; every dependency and version of a POM; every row's name and
    version (or revision) of a dependency table."""
    reg = os.path.join(os.path.expanduser("~/.cargo/registry/src"), sorted(os.listdir(os.path.expanduser("~/.cargo/registry/src")))[0])
    crate = lambda prefix: os.path.join(reg, next(d for d in sorted(os.listdir(reg)) if d.startswith(prefix)))
    def read_case(cid, path, rule, how):
        if not os.path.exists(path):
            print(f"{cid}: {path} missing, skipped")
            return
        text = open(path, errors="replace").read()
        case(cid, "structured", path.replace(os.path.expanduser("~"), "~"), text, rule, how, tool="Read")
    manifest = lambda l: l.startswith("[") or re.match(r"^version\s*=", l) or re.match(r"^[\w-]+\s*=\s*\{.*\bversion\s*=", l)
    for cid, prefix in [("manifest-cargo-tokio", "tokio-1."), ("manifest-cargo-wasmtime", "wasmtime-4")]:
        read_case(cid, os.path.join(crate(prefix), "Cargo.toml"), manifest,
                  "every table header line and every line that pins a version (`version = …`, an inline table with a version)")
    workflow = os.path.join(crate("blake3-"), ".github", "workflows", "ci.yml")
    if os.path.exists(workflow):
        text = open(workflow).read()
        jobs = text.split("\njobs:\n", 1)[1]
        keep = [l for l in jobs.splitlines() if re.match(r"^  [\w-]+:\s*$", l)]
        keep += [l.strip() for l in text.splitlines() if re.match(r"^\s*(- )?(name|uses):", l)]
        read_case("workflow-blake3-ci", workflow, keep, "every job's id line, every `name:` line and every `uses:` line")
    read_case("config-boto-pylintrc", "/usr/lib/google-cloud-sdk/platform/gsutil/gslib/vendored/boto/pylintrc",
              lambda l: l.strip() and not l.lstrip().startswith((";", "#")),
              "every section header and every active setting (every line that is not blank and not a `#` or `;` comment)")
    flags = "/usr/lib/google-cloud-sdk/lib/googlecloudsdk/command_lib/container/backup_restore/flags.yaml"
    read_case("flags-gcloud-backup-restore", flags,
              lambda l: re.match(r"^[\w-]+:\s*$", l) or re.match(r"^  (arg_name|api_field):", l),
              "every flag's key (a top-level key) and its `arg_name:` and `api_field:` lines")
    pom = "/usr/share/maven-repo/org/apache/maven/maven/3.8.7/maven-3.8.7.pom"
    if os.path.exists(pom):
        text = open(pom).read()
        keep = [l.strip() for l in text.splitlines() if re.match(r"^\s*<(artifactId|version|module)>[^<]+</", l)]
        read_case("pom-maven-3.8.7", pom, keep, "every `<artifactId>`, `<version>` and `<module>` line")
    tsv = "/usr/share/go-1.19/src/cmd/go/internal/modconv/testdata/juju.tsv"
    if os.path.exists(tsv):
        rows = [l.split("\t") for l in open(tsv).read().splitlines() if l.strip()]
        keep = [f for r in rows for f in (r[0], r[2])]
        read_case("deps-juju-tsv", tsv, keep, "every row's module path and its revision")
    csv_path = "/usr/share/go-1.19/src/cmd/go/internal/modfetch/zip_sum_test/testdata/zip_sums.csv"
    if os.path.exists(csv_path):
        t = run(f"head -300 {csv_path}")
        keep = [f for l in t.splitlines() if l.strip() for f in l.split(",")[:2]]
        case("sums-go-zip-csv", "structured", "head -300 zip_sums.csv", t, keep, "every row's module path and its version")


def json_config_cases():
    """Round 35, written before ghost's output on them was looked at: JSON
    an agent reads whose data is in the keys of maps and in lists of
    strings rather than in arrays of records: `go env -json` (every
    variable's name), `npm view express versions --json` (every version),
    and package.json files read with Read (every script's name, and every
    dependency's name and version spec, of every dependencies map)."""
    t = run("go env -json", stderr=False)
    case("go-env-json", "structured", "go env -json", t, list(json.loads(t)),
         "every variable's name")
    t = run("npm view express versions --json", stderr=False)
    versions = json.loads(t)
    case("npm-view-versions-json", "structured", "npm view express versions --json", t, versions,
         "every version")
    for cid, path in [("package-json-npm", "/usr/lib/node_modules/npm/package.json"),
                      ("package-json-bootstrap", "/usr/share/nodejs/bootstrap/package.json"),
                      ("package-json-undici", "/usr/lib/node_modules/npm/node_modules/undici/package.json")]:
        if not os.path.exists(path):
            print(f"{cid}: {path} missing, skipped")
            continue
        text = open(path).read()
        d = json.loads(text)
        keep = list(d.get("scripts", {}))
        for section in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
            for name, spec in d.get(section, {}).items():
                keep += [name, spec]
        case(cid, "structured", path, text, keep,
             "every script's name, and every dependency's name and version spec in every dependencies map", tool="Read")


def system_listing_cases():
    """Round 36, written before ghost's output on them was looked at:
    listings of this machine's state an agent asks for, each line a record
    the agent may be looking for, from tools no earlier case came from
    (not `ps`: it would show this sandbox's own processes). The rule:
    every record's identifying field (a symbol's name, a package's name
    and version, a service's name, a section's name)."""
    lib = "/usr/lib/x86_64-linux-gnu/libz.so.1"
    t = run(f"nm -D --defined-only {lib}", stderr=False)
    case("nm-dynamic-libz", "log", f"nm -D --defined-only {lib}", t,
         [l.split()[-1] for l in t.splitlines() if l.strip()], "every symbol's name")
    t = run("apt list --installed", stderr=False)
    keep = []
    for l in t.splitlines():
        m = re.match(r"^([^/\s]+)/\S+ (\S+) ", l)
        if m:
            keep += [m.group(1), m.group(2)]
    case("apt-list-installed", "log", "apt list --installed", t, keep, "every package's name and version")
    t = run("getent services", stderr=False)
    case("getent-services", "log", "getent services", t,
         [l.split()[0] for l in t.splitlines() if l.strip()], "every service's name")
    t = run("readelf -S -W /usr/bin/sqlite3", stderr=False)
    keep = [m.group(1) for m in re.finditer(r"^\s+\[\s*\d+\] (\S+)", t, re.M)]
    case("readelf-sections", "log", "readelf -S -W /usr/bin/sqlite3", t, keep, "every section's name")
    t = run(f"readelf -Ws --dyn-syms {lib}", stderr=False)
    keep = [l.split()[7] for l in t.splitlines() if re.match(r"^\s+\d+:", l) and len(l.split()) >= 8]
    case("readelf-dynsyms-libz", "log", f"readelf -Ws --dyn-syms {lib}", t, keep, "every symbol's name")


def unseen_tool_cases():
    """Round 38: tools no earlier round ran (Terraform, javadoc, rustdoc,
    strace, perl's warnings, npm query), each rule written before ghost's
    output was looked at."""
    tf = "TF_CLI_CONFIG_FILE=/dev/null terraform"
    with tempfile.TemporaryDirectory() as tmp:
        # terraform validate of a module with mistakes: every error's
        # title and the `on FILE line N` line that places it.
        mod = os.path.join(tmp, "module")
        os.makedirs(mod)
        open(os.path.join(mod, "main.tf"), "w").write(
            'variable "names" {\n  type    = list(string)\n  default = ["alpha", "beta"]\n}\n\n'
            'resource "terraform_data" "item" {\n  for_each = toset(var.names)\n  input    = "${each.key}-${var.region}"\n}\n\n'
            'resource "terraform_data" "copy" {\n  input = terraform_data.missing.output\n}\n\n'
            'output "first" {\n  value = terraform_data.item["alpha"].outputs\n}\n\n'
            'output "zone" {\n  value = local.zone\n}\n')
        open(os.path.join(mod, "extra.tf"), "w").write(
            'module "net" {\n  source = "./net"\n}\n\n'
            'resource "terraform_data" "tagged" {\n  input = { owner = var.owner, count = length(var.names, 2) }\n}\n')
        os.makedirs(os.path.join(mod, "net"))
        open(os.path.join(mod, "net", "main.tf"), "w").write('output "cidr" { value = "10.0.0.0/16" }\n')
        run(f"{tf} init -no-color", cwd=mod)
        t = run(f"{tf} validate -no-color", cwd=mod)
        case("terraform-validate-errors", "log", "terraform validate", t,
             lambda l: re.match(r"^(│ )?(Error|Warning): ", l) or re.match(r"^(│ )?\s+on \S+\.tf line \d+", l),
             "every `Error:`/`Warning:` title and every `on FILE line N` line")
        # terraform plan of 36 resources and an output map: every
        # resource's `# ADDRESS will be created` line, the `Plan:` line
        # and every output value.
        plan = os.path.join(tmp, "plan")
        os.makedirs(plan)
        services = ["api", "auth", "billing", "cart", "catalog", "checkout", "email", "gateway", "inventory",
                    "ledger", "media", "notify", "orders", "payments", "search", "shipping", "users", "webhooks"]
        body = ", ".join(f'{n} = {{ port = {8080 + i}, replicas = {1 + i % 4} }}' for i, n in enumerate(services))
        open(os.path.join(plan, "main.tf"), "w").write(
            'variable "services" {\n  type = map(object({ port = number, replicas = number }))\n'
            f'  default = {{ {body} }}\n}}\n'
            'resource "terraform_data" "service" {\n  for_each = var.services\n'
            '  input = { name = each.key, port = each.value.port, replicas = each.value.replicas, image = "registry.local/${each.key}:1.4.2" }\n}\n'
            'resource "terraform_data" "dns" {\n  for_each = var.services\n  input = "${each.key}.svc.cluster.local"\n'
            '  triggers_replace = [terraform_data.service[each.key].id]\n}\n'
            'output "endpoints" { value = { for k, v in var.services : k => "http://${k}:${v.port}" } }\n')
        run(f"{tf} init -no-color", cwd=plan)
        t = run(f"{tf} plan -no-color", cwd=plan)
        case("terraform-plan-create", "log", "terraform plan", t,
             lambda l: re.match(r"^  # \S+ will be ", l) or l.startswith("Plan: ") or re.match(r'^      \+ \w+ += "http', l),
             "every `# ADDRESS will be created` line, the `Plan:` line and every output value line")
        # terraform fmt -check -diff: a diff, every changed line.
        fmt = os.path.join(tmp, "fmt")
        os.makedirs(fmt)
        open(os.path.join(fmt, "network.tf"), "w").write(
            'variable "cidr" {\ntype = string\n  default     = "10.0.0.0/16"\n}\nvariable "zones" {\n   type = list(string)\n'
            'default = ["a","b","c"]\n}\n\nresource "terraform_data" "subnet" {\n  count = length(var.zones)\n  input = {\n'
            '      zone = var.zones[count.index]\n    cidr   = cidrsubnet(var.cidr, 8, count.index)\n  }\n}\nlocals {\n'
            '  names = [for z in var.zones: "subnet-${z}"]\n  tags = {\n    Owner="platform"\n    Environment   =    "staging"\n  }\n}\n')
        t = run(f"{tf} fmt -check -diff -no-color", cwd=fmt)
        case("terraform-fmt-diff", "code", "terraform fmt -check -diff", t,
             lambda l: re.match(r"^[+-](?![+-]{2} )", l) is not None,
             "every added and removed line")
        # javadoc's doclint: every `FILE:N: warning|error:` line and the counts.
        jd = os.path.join(tmp, "jd")
        os.makedirs(os.path.join(jd, "demo"))
        open(os.path.join(jd, "demo", "Ledger.java"), "w").write(
            "package demo;\n\nimport java.util.*;\n\n/** A ledger of accounts. */\npublic class Ledger {\n"
            "    public static final int LIMIT = 100;\n    private final Map<String, Long> balances = new HashMap<>();\n\n"
            "    public Ledger() {}\n\n    /**\n     * Credits an account.\n     * @param account the account\n     * @param amount\n"
            "     * @return the new balance\n     * @throws IllegalStateException when frozen\n     */\n"
            "    public long credit(String account, long amount) { return balances.merge(account, amount, Long::sum); }\n\n"
            "    public long debit(String account, long amount) { return credit(account, -amount); }\n\n"
            "    /** Balance of {@link #acount}. <p> unclosed */\n"
            "    public long balance(String account) { return balances.getOrDefault(account, 0L); }\n\n"
            "    public Set<String> accounts() { return balances.keySet(); }\n\n"
            "    /** @param from where\n     *  @param to where to */\n"
            "    public void transfer(String from, String to, long amount) throws Exception { debit(from, amount); credit(to, amount); }\n\n"
            "    public static class Entry {\n        public String memo;\n        public long cents;\n"
            "        public Entry(String memo, long cents) { this.memo = memo; this.cents = cents; }\n"
            "        public String toString() { return memo + \":\" + cents; }\n    }\n\n"
            "    public enum Kind { CREDIT, DEBIT, TRANSFER }\n}\n")
        t = run("javadoc -Xdoclint:all -d out demo/Ledger.java", cwd=jd)
        case("javadoc-doclint", "log", "javadoc -Xdoclint:all -d out demo/Ledger.java", t,
             lambda l: re.match(r"^\S+\.java:\d+: (warning|error): ", l) or re.match(r"^\d+ (warnings?|errors?)$", l),
             "every `FILE:N: warning|error:` line and the warning and error counts")
        # cargo doc with broken intra-doc links: every `warning:` header,
        # its `-->` line and the `generated N warnings` line.
        crate = os.path.join(tmp, "ledger")
        os.makedirs(os.path.join(crate, "src"))
        open(os.path.join(crate, "Cargo.toml"), "w").write('[package]\nname = "ledger"\nversion = "0.1.0"\nedition = "2021"\n')
        open(os.path.join(crate, "src", "lib.rs"), "w").write(
            "//! A ledger. See [`Acount`] and [the book](crate::book) for details.\n//! Balances are kept in <cents>.\n\n"
            "/// An account, credited by [`Ledger::credti`].\npub struct Account { pub name: String }\n\n"
            "/// The ledger itself: see [`Account`], [`Entry`] and [`Kind::Refund`].\npub struct Ledger;\n\nimpl Ledger {\n"
            "    /// Credits `account`; fails like [`std::io::Errr`] would. Returns a Vec<u64>.\n"
            "    pub fn credit(&self, account: &Account) -> u64 { let _ = account; 0 }\n"
            "    /// See [`Self::credit`] and [`Self::debit_all`].\n    pub fn debit(&self) {}\n}\n\n"
            "/// Kinds of entries: [`Kind::Credit`] or [`Kind::Debit`]; see <https://example.com>.\npub enum Kind { Credit, Debit }\n\n"
            "/// An unclosed <b>tag and a [broken link][ref].\npub fn helper() {}\n")
        t = run("cargo doc --offline --color never 2>&1 | grep -v '^\\s*\\(Compiling\\|Documenting\\)'", cwd=crate)
        case("cargo-doc-broken-links", "log", "cargo doc", t,
             lambda l: l.startswith("warning:") or l.strip().startswith("--> "),
             "every `warning:` header, its `--> file:line:col` line and the `generated N warnings` line")
        # strace of a Python script that opens a missing file: the failing
        # openat, what the process wrote to stderr, its exit.
        py = run("python3 -c 'import sys; print(sys.executable)'", stderr=False).strip()
        cmd = f"strace {py} -c \"import json; json.load(open('/etc/ghost-missing/settings.json'))\""
        t = run(cmd, cwd=tmp)
        case("strace-missing-file", "log", cmd, t,
             lambda l: "/etc/ghost-missing/settings.json" in l or (l.startswith('write(2, "') and not l.startswith('write(2, "", 0)'))
             or l.startswith("exit_group(") or l.startswith("+++ exited"),
             "every line naming the missing file, every non-empty write to stderr, exit_group and the exit line")
        # perl's warnings from a loop: every distinct warning.
        open(os.path.join(tmp, "w.pl"), "w").write(
            'use strict; use warnings;\nmy %seen; my @rows = (["alpha", 3], ["beta"], ["gamma", "x"], [undef, 4]);\n'
            'for my $i (1..40) {\n  for my $r (@rows) {\n    my $total = $r->[1] + $i;\n    $seen{$r->[0]}++;\n  }\n}\n'
            'my $s = "n=" . $seen{delta};\nprintf "%d\\n", "12abc";\n')
        t = run("perl w.pl", cwd=tmp)
        case("perl-warnings-loop", "log", "perl w.pl", t,
             lambda l: " at w.pl line " in l,
             "every distinct warning (` at w.pl line N`)")
        # npm query of an installed tree: every package's name and version.
        proj = os.path.join(tmp, "proj")
        os.makedirs(proj)
        run("npm init -y && npm install --no-audit --no-fund lodash@4.17.4 minimist@0.0.8 handlebars@4.0.5 node-fetch@2.6.0", cwd=proj)
        t = run('npm query "*"', cwd=proj, stderr=False)
        pkgs = json.loads(t)
        keep = [p["name"] for p in pkgs] + [p["version"] for p in pkgs if p.get("version")]
        case("npm-query-all", "structured", 'npm query "*"', t, keep, "every package's name and version")


def unseen_runner_cases():
    """Round 39: test runners and build tools no earlier round ran (Meson
    and Ninja, Meson's test runner, Robot Framework, behave, busted,
    testthat, PHP_CodeSniffer, pytest-xdist, pip-compile, cfn-lint), each
    rule written before ghost's output was looked at."""
    with tempfile.TemporaryDirectory() as tmp:
        # Meson and Ninja building a C program in which two of 24 files do
        # not compile (ninja -k 0 goes on past the first): every compiler
        # `error:`/`warning:` line, every `FAILED:` line and ninja's stop.
        proj = os.path.join(tmp, "calc")
        os.makedirs(os.path.join(proj, "src"))
        mods = [f"op{i:02d}" for i in range(22)]
        for m in mods:
            open(os.path.join(proj, "src", f"{m}.c"), "w").write(
                f"#include \"calc.h\"\n\nint {m}(int a, int b) {{\n    return a * {len(m)} + b;\n}}\n")
        open(os.path.join(proj, "src", "calc.h"), "w").write(
            "#pragma once\n" + "".join(f"int {m}(int a, int b);\n" for m in mods)
            + "struct token { int kind; const char *text; };\nint parse(const char *s, struct token *out);\n")
        open(os.path.join(proj, "src", "parse.c"), "w").write(
            "#include <string.h>\n#include \"calc.h\"\n\nint parse(const char *s, struct token *out) {\n"
            "    int n = 0;\n    for (size_t i = 0; i < strlen(s); i++) {\n        out[n].kind = s[i];\n"
            "        out[n].txt = s + i;\n        n += lenght;\n    }\n    return n;\n}\n")
        open(os.path.join(proj, "src", "main.c"), "w").write(
            "#include <stdio.h>\n#include \"calc.h\"\n\nint main(int argc, char **argv) {\n    struct token toks[64];\n"
            "    int unused;\n    int n = parse(argv[1], toks);\n    printf(\"%s tokens\\n\", n);\n"
            "    return op00(n, argc) + op99(1, 2);\n}\n")
        open(os.path.join(proj, "meson.build"), "w").write(
            "project('calc', 'c', default_options: ['warning_level=3'])\n"
            "executable('calc', files(" + ", ".join(f"'src/{m}.c'" for m in mods) + ", 'src/parse.c', 'src/main.c'))\n")
        run("meson setup build", cwd=proj)
        t = run("ninja -C build -k 0", cwd=proj)
        case("meson-ninja-errors", "log", "ninja -C build -k 0", t,
             lambda l: re.match(r"^\.\./src/\S+:\d+:\d+: (error|warning): ", l) or l.startswith("FAILED: ")
             or l.startswith("ninja: build stopped"),
             "every compiler `error:`/`warning:` line, every `FAILED:` line and ninja's `build stopped` line")
        # Meson's test runner over 14 tests, two failing and one timing
        # out, with their logs: every FAIL/TIMEOUT line, every line the
        # failing tests printed about their failure, the summary counts.
        suite = os.path.join(tmp, "suite")
        os.makedirs(suite)
        open(os.path.join(suite, "check.c"), "w").write(
            "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n\n"
            "int main(int argc, char **argv) {\n    const char *name = argv[1];\n    printf(\"running %s\\n\", name);\n"
            "    if (strcmp(name, \"overflow\") == 0) { fprintf(stderr, \"check.c:9: expected 2147483647, got -2147483648\\n\"); return 1; }\n"
            "    if (strcmp(name, \"rounding\") == 0) { fprintf(stderr, \"check.c:10: round(2.5) gave 2, wanted 3\\n\"); return 3; }\n"
            "    if (strcmp(name, \"network\") == 0) { sleep(5); }\n    printf(\"%s ok\\n\", name);\n    return 0;\n}\n")
        names = ["add", "sub", "mul", "div", "mod", "pow", "overflow", "rounding", "parse", "format", "network", "cache", "locale", "unicode"]
        open(os.path.join(suite, "meson.build"), "w").write(
            "project('suite', 'c')\nexe = executable('check', 'check.c')\n"
            + "".join(f"test('{n}', exe, args: ['{n}']" + (", timeout: 1" if n == "network" else "") + ")\n" for n in names))
        run("meson setup build && ninja -C build", cwd=suite)
        t = run("meson test -C build --print-errorlogs", cwd=suite)
        t = re.sub(r"/tmp/tmp\w+", "/tmp/suite", t)
        case("meson-test-failing", "log", "meson test -C build --print-errorlogs", t,
             lambda l: re.search(r"\b(FAIL|TIMEOUT)\b", l) or re.match(r"^check\.c:\d+: ", l)
             or re.match(r"^(Ok|Fail|Timeout|Skipped|Expected Fail|Unexpected Pass):\s+\d+", l),
             "every FAIL/TIMEOUT line, every line a failing test printed about its failure, the summary counts")
        # Robot Framework over 24 tests, three failing: every `| FAIL |`
        # line, the message under it and the totals.
        rb = os.path.join(tmp, "robot")
        os.makedirs(rb)
        tests = "".join(f"Price Of Item {i}\n    ${{p}}=    Evaluate    {i} * 3\n    Should Be Equal As Integers    ${{p}}    {i * 3}\n\n"
                        for i in range(20))
        open(os.path.join(rb, "shop.robot"), "w").write(
            "*** Settings ***\nDocumentation    Prices and the cart.\n\n*** Test Cases ***\n" + tests
            + "Cart Total Includes Tax\n    ${t}=    Evaluate    100 * 1.2\n    Should Be Equal As Numbers    ${t}    121\n\n"
            + "Cart Lists Every Item\n    @{items}=    Create List    apple    pear\n    Should Contain    ${items}    plum\n\n"
            + "Checkout Uses A Coupon\n    Apply Coupon    SPRING10\n\n"
            + "Empty Cart Is Zero\n    Should Be Equal    ${0}    ${0}\n")
        t = run(f"{VENV}/robot --output NONE --report NONE --log NONE shop.robot", cwd=rb)
        lines = t.splitlines()
        keep = []
        for i, l in enumerate(lines):
            if l.rstrip().endswith("| FAIL |"):
                keep += [l, lines[i + 1]]
            elif re.match(r"^\d+ tests?, \d+ passed, \d+ failed", l):
                keep.append(l)
        case("robot-failing", "log", "robot shop.robot", t, keep,
             "every `| FAIL |` line, the message line under it and the `N tests, N passed, N failed` lines")
        # behave over a feature with outlines, two scenarios failing:
        # every `ASSERT FAILED:` line, every failing or erroring
        # scenario's place and the three summary lines.
        bh = os.path.join(tmp, "bh")
        os.makedirs(os.path.join(bh, "features", "steps"))
        open(os.path.join(bh, "features", "cart.feature"), "w").write(
            "Feature: Cart\n  Scenario Outline: adding items\n    Given an empty cart\n    When I add <n> items at <price>\n"
            "    Then the total is <total>\n\n    Examples:\n      | n | price | total |\n"
            + "".join(f"      | {n} | {p} | {n * p} |\n" for n, p in [(1, 3), (2, 5), (3, 7), (4, 2), (5, 9), (6, 1)])
            + "      | 7 | 4 | 29 |\n\n  Scenario: removing the last item\n    Given an empty cart\n    When I add 1 items at 5\n"
            "    And I remove 1 items\n    Then the cart is empty\n\n  Scenario: a coupon\n    Given an empty cart\n"
            "    When I add 2 items at 10\n    And I apply the coupon \"HALF\"\n    Then the total is 10\n")
        open(os.path.join(bh, "features", "steps", "cart.py"), "w").write(
            "from behave import given, when, then\n\n@given('an empty cart')\ndef empty(ctx):\n    ctx.items = []\n\n"
            "@when('I add {n:d} items at {price:d}')\ndef add(ctx, n, price):\n    ctx.items += [price] * n\n\n"
            "@when('I remove {n:d} items')\ndef remove(ctx, n):\n    ctx.items = ctx.items[n:]\n\n"
            "@then('the total is {total:d}')\ndef total(ctx, total):\n    assert sum(ctx.items) == total, f'total {sum(ctx.items)} != {total}'\n\n"
            "@then('the cart is empty')\ndef is_empty(ctx):\n    assert not ctx.items\n")
        t = run(f"{VENV}/behave --no-color", cwd=bh)
        lines = t.splitlines()
        keep = [l for l in lines if "ASSERT FAILED:" in l or re.match(r"^\d+ (features?|scenarios?|steps?) passed", l)]
        for section in ["Failing scenarios:", "Errored scenarios:"]:
            if section in lines:
                for l in lines[lines.index(section) + 1:]:
                    if not l.strip():
                        break
                    keep.append(l)
        case("behave-failing", "log", "behave", t, keep,
             "every `ASSERT FAILED:` line, every line under `Failing scenarios:` and `Errored scenarios:`, the summary lines")
        # busted over 30 specs, two failing and one erroring: every
        # `Failure ->`/`Error ->` header, the line naming the failing
        # test and the `file:N:` message, and the summary line.
        bs = os.path.join(tmp, "busted")
        os.makedirs(os.path.join(bs, "spec"))
        open(os.path.join(bs, "money.lua"), "w").write(
            "local M = {}\nfunction M.add(a, b) return a + b end\nfunction M.round(x) return math.floor(x) end\n"
            "function M.parse(s) return tonumber(s:match('%d+')) end\nreturn M\n")
        open(os.path.join(bs, "spec", "money_spec.lua"), "w").write(
            "local money = require('money')\ndescribe('money', function()\n"
            + "".join(f"  it('adds {i} and {i + 1}', function() assert.are.equal({2 * i + 1}, money.add({i}, {i + 1})) end)\n" for i in range(27))
            + "  it('rounds half up', function() assert.are.equal(3, money.round(2.5)) end)\n"
            "  it('parses a price', function() assert.are.same({amount = 12}, {amount = money.parse('12 EUR') + 1}) end)\n"
            "  it('parses nothing', function() assert.is_nil(money.parse(nil)) end)\nend)\n")
        t = run("busted --output=plainTerminal", cwd=bs)
        lines = t.splitlines()
        keep = []
        for i, l in enumerate(lines):
            if re.match(r"^(Failure|Error) (→|->) ", l):
                keep += [l, lines[i + 1]]
            elif re.match(r"^\S+\.lua:\d+: ", l) or re.match(r"^\d+ success(es)? / \d+ failures? / \d+ errors? / \d+ pending", l):
                keep.append(l)
        case("busted-failing", "log", "busted", t, keep,
             "every `Failure ->`/`Error ->` header, the test name under it, every `FILE.lua:N:` message and the summary line")
        # testthat over three files, two expectations failing and one
        # test erroring: every `Failure`/`Error`/`Warning` header, the
        # message line under it and the `[ FAIL n | WARN n | SKIP n | PASS n ]` line.
        tt = os.path.join(tmp, "tt")
        os.makedirs(os.path.join(tt, "tests"))
        open(os.path.join(tt, "tests", "test-math.R"), "w").write(
            "".join(f"test_that(\"square of {i}\", {{ expect_equal({i}^2, {i * i}) }})\n" for i in range(15))
            + "test_that(\"mean ignores NA\", { expect_equal(mean(c(1, NA, 3)), 2) })\n")
        open(os.path.join(tt, "tests", "test-strings.R"), "w").write(
            "test_that(\"upper\", { expect_equal(toupper(\"abc\"), \"ABC\") })\n"
            "test_that(\"padding\", { expect_identical(formatC(7, width = 3, flag = \"0\"), \"007 \") })\n"
            "test_that(\"split\", { expect_length(strsplit(\"a,b,c\", \",\")[[1]], 3) })\n")
        open(os.path.join(tt, "tests", "test-io.R"), "w").write(
            "test_that(\"reads settings\", { s <- readRDS(\"settings.rds\"); expect_true(s$ok) })\n"
            "test_that(\"skips on CI\", { skip(\"needs a display\") })\n")
        t = run("Rscript -e 'testthat::test_dir(\"tests\", stop_on_failure = FALSE)'", cwd=tt)
        lines = t.splitlines()
        keep = []
        for i, l in enumerate(lines):
            if re.match(r"^(Failure|Error|Warning) \('", l):
                keep += [l, lines[i + 1]]
            elif re.match(r"^\[ FAIL \d+ \| WARN \d+ \| SKIP \d+ \| PASS \d+ \]", l):
                keep.append(l)
        case("testthat-failing", "log", "Rscript -e 'testthat::test_dir(\"tests\")'", t, keep,
             "every `Failure ('FILE:N')`/`Error`/`Warning` header, the line under it and the `[ FAIL | WARN | SKIP | PASS ]` line")
        # PHP_CodeSniffer (PSR12) over two files: every `FILE:` line, every
        # `FOUND … AFFECTING` line and every table row's line, type and message start.
        pc = os.path.join(tmp, "phpcs")
        os.makedirs(os.path.join(pc, "src"))
        open(os.path.join(pc, "src", "Ledger.php"), "w").write(
            "<?php\nnamespace App;\nuse Exception;\nclass Ledger {\n  private $balances = array();\n"
            "  public function credit($account,$amount){\n    if($amount<0) throw new Exception('negative');\n"
            "    $this->balances[$account] = ($this->balances[$account] ?? 0) + $amount ;\n    return $this->balances[$account];\n  }\n"
            "  function Debit($account, $amount) { return $this->credit($account, -$amount); }\n}\n?>\n")
        open(os.path.join(pc, "src", "helpers.php"), "w").write(
            "<?php\nfunction format_money( $cents ) {\n\treturn sprintf('%d.%02d', $cents / 100, $cents % 100);\n}\n"
            "function parse_money($s)\n{\n    if (! preg_match('/^(\\d+)\\.(\\d\\d)$/', $s, $m)) return NULL;\n"
            "    return $m[1] * 100 + $m[2];\n}\necho format_money(1234);\n")
        t = run("phpcs --standard=PSR12 --report-width=100 src", cwd=pc).replace(tmp, "/tmp")
        case("phpcs-psr12", "log", "phpcs --standard=PSR12 src", t,
             lambda l: l.startswith("FILE: ") or l.startswith("FOUND ") or re.match(r"^\s*\d+ \| (ERROR|WARNING) \|", l),
             "every `FILE:` line, every `FOUND … AFFECTING` line and every row's `N | ERROR|WARNING |` line")
        # pytest with xdist over 60 tests on two workers, three failing:
        # every `FAILED` line, every `E ` line and the final count line.
        px = os.path.join(tmp, "px")
        os.makedirs(px)
        open(os.path.join(px, "test_inventory.py"), "w").write(
            "import pytest\n\nSTOCK = {f'sku{i}': i for i in range(60)}\n\n"
            "@pytest.mark.parametrize('sku', sorted(STOCK))\ndef test_stock_is_counted(sku):\n"
            "    assert STOCK[sku] >= 0\n\n"
            "def test_reorder_level():\n    level = {'sku3': 2}\n    assert level['sku3'] == STOCK['sku3'], 'reorder level drifted'\n\n"
            "def test_missing_sku():\n    assert STOCK['sku99'] == 0\n\n"
            "def test_total_value():\n    assert sum(STOCK.values()) == 1700\n")
        t = run(f"{VENV}/pytest -n 2 -v -p no:cacheprovider", cwd=px)
        t = re.sub(r"/tmp/tmp\w+", "/tmp/px", t)
        case("pytest-xdist-failing", "log", "pytest -n 2 -v", t,
             lambda l: " FAILED " in l or l.startswith("FAILED ") or l.startswith("E ") or re.match(r"^=+ \d+ failed", l),
             "every `FAILED` line (per worker and in the summary), every `E ` line and the final count line")
        # pip-compile of four top-level requirements (needs PyPI): every
        # pinned `name==version` line.
        pcdir = os.path.join(tmp, "pipc")
        os.makedirs(pcdir)
        open(os.path.join(pcdir, "requirements.in"), "w").write("requests==2.32.3\nflask==3.0.3\nrich==13.7.1\nattrs==23.2.0\n")
        t = run(f"{VENV}/pip-compile --quiet --no-header --output-file=- requirements.in", cwd=pcdir, stderr=False)
        case("pip-compile-pins", "log", "pip-compile --output-file=- requirements.in", t,
             lambda l: re.match(r"^[A-Za-z0-9_.-]+==\S+", l),
             "every pinned `name==version` line")
        # cfn-lint over a CloudFormation template with mistakes: every
        # rule line (`E3012 …`, `W2001 …`) and the `file:line:col` under it.
        cf = os.path.join(tmp, "cf")
        os.makedirs(cf)
        open(os.path.join(cf, "stack.yaml"), "w").write(
            "AWSTemplateFormatVersion: '2010-09-09'\nParameters:\n  Env:\n    Type: String\n  Unused:\n    Type: String\n"
            "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Sub '${Env}-data'\n"
            "      VersioningConfiguration:\n        Status: On\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties:\n"
            "      VisibilityTimeout: ninety\n      MessageRetentionPeriod: 100\n  Topic:\n    Type: AWS::SNS::Topicc\n"
            "  Function:\n    Type: AWS::Lambda::Function\n    Properties:\n      Runtime: python2.7\n      Handler: index.handler\n"
            "      Role: !GetAtt Role.Arn\n      Code:\n        ZipFile: print(1)\n"
            "Outputs:\n  QueueUrl:\n    Value: !Ref Queu\n")
        t = run(f"{VENV}/cfn-lint stack.yaml", cwd=cf)
        case("cfn-lint-template", "log", "cfn-lint stack.yaml", t,
             lambda l: re.match(r"^[EWI]\d{4} ", l) or re.match(r"^stack\.yaml:\d+:\d+$", l),
             "every rule line (`E3012 …`) and every `stack.yaml:N:N` line")


def more_language_code_cases():
    """Round 40: source files an agent reads in languages no code case is
    in (Lua, Tcl, C++ headers), from packages on this machine (Penlight,
    busted, Tcl's library, GCC's libstdc++). The must-keep lines are the
    names each file declares (and a class's methods), by a regex per
    language at line start, written before ghost's output was looked at."""
    lua = [r"^(local\s+)?function\s+(?P<name>[\w.:]+)\s*\(", r"^(local\s+)?(?P<name>[\w.]+)\s*=\s*function\b"]
    tcl = [r"^\s*proc\s+(?P<name>\S+)", r"^namespace eval (?P<name>\S+)"]
    # libstdc++ puts a function's name at the start of its own line, six
    # spaces in, under its return type; a class or struct opens its line.
    # Keywords and the library's macros start such lines too: not names.
    cpp = [r"^\s*(class|struct) (?P<name>\w+)\s*(:.*|\{.*)?$",
           r"^      (?!static_assert|noexcept|__glibcxx_|_GLIBCXX_)(?P<name>~?[A-Za-z_]\w*|operator\S+)\((?!.*\);\s*$)"]
    files = [
        ("code-lua-penlight-tablex", "/usr/share/lua/5.4/pl/tablex.lua", lua),
        ("code-lua-penlight-list", "/usr/share/lua/5.4/pl/List.lua", lua),
        ("code-lua-busted-core", "/usr/share/lua/5.2/busted/core.lua", lua),
        ("code-tcl-package", "/usr/share/tcltk/tcl8.6/package.tcl", tcl),
        ("code-tcl-safe", "/usr/share/tcltk/tcl8.6/safe.tcl", tcl),
        ("code-cpp-stl-list", "/usr/include/c++/12/bits/stl_list.h", cpp),
        ("code-cpp-stl-map", "/usr/include/c++/12/bits/stl_map.h", cpp),
    ]
    read_code_cases(files, "names of top-level declarations (and a class's methods), by a regex per language at line start")


def script_language_code_cases():
    """Round 41: source files an agent reads in more languages no code case
    is in (R, Vim script, PowerShell, SQL), from packages on this machine
    (R's remotes, Vim's runtime, a Python venv's activation script vendored
    in cargo's registry, PostgreSQL's catalog). The must-keep lines are the
    names each file declares, by a regex per language, written before
    ghost's output was looked at."""
    reg = os.path.join(os.path.expanduser("~/.cargo/registry/src"), sorted(os.listdir(os.path.expanduser("~/.cargo/registry/src")))[0])
    crate = lambda prefix: os.path.join(reg, next(d for d in sorted(os.listdir(reg)) if d.startswith(prefix)))
    # R defines a function by assigning it, at the top level or (in a file
    # generated into one closure) nested.
    r = [r"^\s*(?P<name>[\w.]+)\s*<-\s*function\b"]
    # Legacy `function!`/`fun!` and Vim9's `def`/`export def`.
    vim = [r"^\s*fu(n|nc|nct|ncti|nctio|nction)?!?\s+(?P<name>[\w#:.<>]+)\s*\(",
           r"^\s*(export\s+)?def\s+(?P<name>[\w#:.<>]+)\s*\("]
    ps1 = [r"^\s*function (?P<name>[\w-]+)"]
    sql = [r"^CREATE (OR REPLACE )?(FUNCTION|VIEW|TABLE|TYPE|AGGREGATE|PROCEDURE) (?P<name>[\w.]+)"]
    files = [
        ("code-r-remotes-install-github", "/usr/lib/R/site-library/remotes/install-github.R", r),
        ("code-vim-tar", "/usr/share/vim/vim90/autoload/tar.vim", vim),
        ("code-vim-dist-ft", "/usr/share/vim/vim90/autoload/dist/ft.vim", vim),
        ("code-ps1-venv-activate", os.path.join(crate("rustpython-pylib-"), "Lib/venv/scripts/common/Activate.ps1"), ps1),
        ("code-sql-postgres-system-functions", "/usr/share/postgresql/15/system_functions.sql", sql),
    ]
    read_code_cases(files, "names each file declares (R's functions nested too), by a regex per language at line start")


def held_out_script_code_cases():
    """Round 42: more R and Vim script files, added after round 41's rules
    for those languages were written, to measure them on files they were
    not written from (R's robustbase and TH.data, Vim's completion
    scripts). The must-keep lines are the names each file declares, by
    round 41's regexes."""
    r = [r"^\s*(?P<name>[\w.]+)\s*<-\s*function\b"]
    vim = [r"^\s*fu(n|nc|nct|ncti|nctio|nction)?!?\s+(?P<name>[\w#:.<>]+)\s*\(",
           r"^\s*(export\s+)?def\s+(?P<name>[\w#:.<>]+)\s*\("]
    files = [
        ("code-r-robustbase-simulation-functions", "/usr/lib/R/site-library/robustbase/doc/simulation.functions.R", r),
        ("code-r-thdata-psglmm", "/usr/lib/R/site-library/TH.data/PSGLMM_MEE/R/psglmm.R", r),
        ("code-vim-sqlcomplete", "/usr/share/vim/vim90/autoload/sqlcomplete.vim", vim),
        ("code-vim-rubycomplete", "/usr/share/vim/vim90/autoload/rubycomplete.vim", vim),
        ("code-vim-syntaxcomplete", "/usr/share/vim/vim90/autoload/syntaxcomplete.vim", vim),
    ]
    read_code_cases(files, "names each file declares (R's functions nested too), by a regex per language at line start")


def markup_prose_cases():
    """Round 43: documents an agent reads in markup other than Markdown
    (reStructuredText, Perl's POD, Org), from packages on this machine
    (awscli, wadllib, cachetools, RustPython's email docs, Perl's
    Locale::Maketext and ExtUtils::MakeMaker, R's mets). The must-keep
    lines are every heading: reStructuredText's title over its underline
    (and under its overline), POD's `=headN` lines, Org's `*` lines,
    each without trailing spaces. Before the rules were written, seven of
    these were tried (see the note in the README); the others were not
    looked at until they were scored."""
    def rst_headings(text):
        lines = text.splitlines()
        out = []
        for i in range(len(lines) - 1):
            title, under = lines[i].strip(), lines[i + 1].rstrip()
            if (title and len(under) >= 3 and len(set(under)) == 1 and under[0] in "=-~^*#\"+`:.'_"
                    and len(under) >= len(title) and not re.fullmatch(r"[=\-~^*#\"+`:.'_]+", title)):
                out.append(title)
        return out
    pod = lambda text: [l.rstrip() for l in text.splitlines() if re.match(r"^=head\d ", l)]
    org = lambda text: [l.rstrip() for l in text.splitlines() if re.match(r"^\*+ \S", l)]
    site = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages"
    reg = os.path.join(os.path.expanduser("~/.cargo/registry/src"), sorted(os.listdir(os.path.expanduser("~/.cargo/registry/src")))[0])
    crate = lambda prefix: os.path.join(reg, next(d for d in sorted(os.listdir(reg)) if d.startswith(prefix)))
    files = [
        ("prose-rst-awscli-config-vars", f"{site}/awscli/topics/config-vars.rst", rst_headings),
        ("prose-rst-awscli-s3-config", f"{site}/awscli/topics/s3-config.rst", rst_headings),
        ("prose-rst-wadllib-index", "/usr/lib/python3/dist-packages/wadllib/docs/index.rst", rst_headings),
        ("prose-rst-cachetools-index", "/usr/lib/google-cloud-sdk/platform/gsutil/third_party/cachetools/docs/index.rst", rst_headings),
        ("prose-rst-email-architecture", os.path.join(crate("rustpython-pylib-"), "Lib/email/architecture.rst"), rst_headings),
        ("prose-pod-locale-maketext", "/usr/share/perl/5.36.0/Locale/Maketext.pod", pod),
        ("prose-pod-locale-maketext-tpj13", "/usr/share/perl/5.36.0/Locale/Maketext/TPJ13.pod", pod),
        ("prose-pod-makemaker-faq", "/usr/share/perl/5.36.0/ExtUtils/MakeMaker/FAQ.pod", pod),
        ("prose-pod-makemaker-tutorial", "/usr/share/perl/5.36.0/ExtUtils/MakeMaker/Tutorial.pod", pod),
        ("prose-org-mets-dutils", "/usr/lib/R/site-library/mets/misc/dutils.org", org),
        ("prose-org-mets-workshop-src", "/usr/lib/R/site-library/mets/misc/workshop-src.org", org),
    ]
    for cid, path, rule in files:
        if not os.path.exists(path):
            print(f"{cid}: {path} missing, skipped")
            continue
        text = open(path, errors="replace").read()
        case(cid, "prose", path, text, rule(text),
             "every heading (reStructuredText's titles, POD's =headN lines, Org's * lines), without trailing spaces", tool="Read")


def hashed_lockfile_cases(venv):
    """Round 44: pinned requirements and lockfiles, whose bytes are mostly
    checksums. The must-keep facts are what they pin: every package (or Go
    module) with its version; for pip's refusal, the refusal, the package
    and the expected and actual hashes. Written before any of these was
    compressed; `pip-compile-hashes-web` was then the one tried while the
    rules were written."""
    work = tempfile.mkdtemp(prefix="ghost-round44-")
    pins = lambda text: re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*==[^\s\\;]+)", text, re.M)
    for cid, reqs in [("pip-compile-hashes-web", "requests==2.31.0\nflask==3.0.0\nrich\n"),
                      ("pip-compile-hashes-tasks", "django\ncelery\npyyaml\n")]:
        d = os.path.join(work, cid)
        os.makedirs(d)
        open(os.path.join(d, "requirements.in"), "w").write(reqs)
        command = "pip-compile --generate-hashes --output-file=- requirements.in"
        t = run(f"{venv}/{command}", cwd=d, stderr=False)
        case(cid, "log", command, t, pins(t), "every pin: name==version")
    # pip refusing a download whose hash is not the pinned one.
    d = os.path.join(work, "mismatch")
    os.makedirs(d)
    open(os.path.join(d, "requirements.txt"), "w").write(
        "six==1.16.0 --hash=sha256:" + "0" * 64 + "\n")
    command = "pip install --no-deps --require-hashes --target out -r requirements.txt"
    t = run(f"{venv}/{command}", cwd=d)
    case("pip-install-hash-mismatch", "log", command, t,
         lambda l: "DO NOT MATCH" in l or "Expected sha256" in l or re.match(r"\s+Got\s", l) or "six==" in l,
         "the refusal, the package line, the expected and the actual hash")
    # pipenv's lockfile, read.
    d = os.path.join(work, "pipenv")
    os.makedirs(d)
    open(os.path.join(d, "Pipfile"), "w").write(
        '[packages]\nrequests = "*"\nclick = "*"\n\n[dev-packages]\npytest = "*"\n')
    run(f"{venv}/pipenv lock", cwd=d)
    path = os.path.join(d, "Pipfile.lock")
    t = open(path).read()
    lock = json.loads(t)
    keep = [x for group in ("default", "develop") for name, p in lock[group].items() for x in (name, p["version"])]
    case("pipfile-lock", "structured", path, t, keep,
         "every package of default and develop and its ==version", tool="Read")
    # go.sum of Go projects (git mirrors fetched from GitHub).
    for cid, repo in [("go-sum-gh-cli", "cli+cli"), ("go-sum-node-exporter", "prometheus+node_exporter"),
                      ("go-sum-fzf", "junegunn+fzf")]:
        git_dir = f"/work/.mirror/{repo}/repo"
        if not os.path.isdir(git_dir):
            print(f"{cid}: {git_dir} missing, skipped")
            continue
        t = run(f"git -C {git_dir} show HEAD:go.sum", stderr=False)
        keep = [x for l in t.splitlines() if l.strip() for x in (l.split()[0], l.split()[1].removesuffix("/go.mod"))]
        case(cid, "structured", f"{repo.replace('+', '/')}/go.sum", t, keep,
             "every module path and its version", tool="Read")


def digest_table_cases():
    """Round 45: tables pinning packages with their checksums, built from
    apt-cache's lists on this machine, after tables' digest columns were
    folded (from round 44's lockfiles): held out from that rule. The
    must-keep facts are every package name and version."""
    names = run("dpkg-query -W -f '${Package}\\n' | sort | sed -n '1~3p' | head -120", stderr=False).split()
    awk_csv = "awk -F': ' '/^Package:/{p=$2} /^Version:/{v=$2} /^SHA256:/{print p\",\"v\",\"$2}'"
    command = f"(echo package,version,sha256; apt-cache show {' '.join(names[:60])} | {awk_csv})"
    t = run(command, stderr=False)
    rows = [l.split(",") for l in t.splitlines()[1:] if l.count(",") == 2]
    case("apt-packages-sha256-csv", "structured", command, t, [x for r in rows for x in r[:2]],
         "every package name and version")
    work = tempfile.mkdtemp(prefix="ghost-round45-")
    path = os.path.join(work, "packages.tsv")
    awk_tsv = "awk -F': ' -v OFS='\\t' '/^Package:/{p=$2} /^Version:/{v=$2} /^MD5sum:/{m=$2} /^SHA256:/{print p, v, m, $2}'"
    t = run(f"(printf 'package\\tversion\\tmd5\\tsha256\\n'; apt-cache show {' '.join(names[60:])} | {awk_tsv})", stderr=False)
    open(path, "w").write(t)
    rows = [l.split("\t") for l in t.splitlines()[1:] if l.count("\t") == 3]
    case("apt-packages-checksums-tsv", "structured", path, t, [x for r in rows for x in r[:2]],
         "every package name and version", tool="Read")


def npm_tree_cases():
    """Round 46: `npm ls --all --json` of real dependency trees. The
    must-keep facts are every installed package's name and version. The
    eslint and jest tree was the one the rule for short trees of records
    was written on (221 of its 333 packages had been lost); the webpack
    and the `--long` express trees were scored after, unread."""
    work = tempfile.mkdtemp(prefix="ghost-round46-")
    for cid, packages, flags in [
        ("npm-ls-all-json-eslint-jest", "eslint@8 jest@29", "--all --json"),
        ("npm-ls-all-json-webpack", "webpack@5 webpack-cli@5", "--all --json"),
        ("npm-ls-all-json-long-express", "express@4.17.1 lodash@4.17.15 minimist@1.2.0 axios@0.21.0", "--all --json --long"),
    ]:
        d = os.path.join(work, cid)
        os.makedirs(d)
        run("npm init -y", cwd=d)
        run(f"npm install {packages} --no-audit --no-fund", cwd=d)
        command = f"npm ls {flags}"
        t = run(command, cwd=d, stderr=False)
        pairs = []
        def walk(node):
            for name, dep in (node.get("dependencies") or {}).items():
                if dep.get("version"):
                    pairs.append((name, dep["version"]))
                walk(dep)
        walk(json.loads(t))
        keep = [x for name, version in dict.fromkeys(pairs) for x in (name, version)]
        case(cid, "structured", command, t, keep, "every installed package's name and version")


def new_dir(work, name):
    """A new folder `name` under `work`."""
    d = os.path.join(work, name)
    os.makedirs(d)
    return d


def profile_facts(text):
    """cProfile's must-keep facts (round 48): the count of calls and time,
    the table's header and its first fifteen rows, the largest by the
    column it was sorted by."""
    lines = text.splitlines()
    head = next(i for i, l in enumerate(lines) if "ncalls" in l and "tottime" in l)
    return ([l for l in lines if re.search(r"function calls .* in [\d.]+ seconds", l)]
            + [lines[head]] + [l for l in lines[head + 1:head + 16] if l.strip()])


def package_tool_cases(venv):
    """Round 47: what package managers, auditors, profilers and build tools
    print when an agent works on dependencies and speed, from tools no
    earlier round ran: npm refusing a peer conflict and auditing a tree
    (text and JSON), pip-audit, pip warning that an install broke another
    package, cargo failing to resolve, R CMD check with problems, criterion's benchmarks,
    PostgreSQL's EXPLAIN ANALYZE, strace's syscall summary, a Fortran
    bounds check, Python's import times and naga's WGSL validation. Each
    rule was written before ghost's output was looked at."""
    work = tempfile.mkdtemp(prefix="ghost-round47-")
    os.chmod(work, 0o777)
    project = lambda name: new_dir(work, name)
    # npm refusing to install react-dom 18 beside react 17.
    d = project("eresolve")
    run("npm init -y", cwd=d)
    command = "npm install react@17 react-dom@18 --no-audit --no-fund"
    t = run(command, cwd=d)
    case("npm-eresolve-peer-conflict", "log", command, t,
         lambda l: re.search(r"ERESOLVE|Found: |Could not resolve dependency|Conflicting peer dependency|peer \S+@", l),
         "the ERESOLVE code and message, what was found, what could not be resolved and every peer requirement")
    # npm audit of an old tree, as text and as JSON.
    d = project("audit")
    run("npm init -y", cwd=d)
    run("npm install express@4.17.1 lodash@4.17.15 minimist@1.2.0 axios@0.21.0 handlebars@4.0.5 --no-audit --no-fund", cwd=d)
    t = run("npm audit", cwd=d)
    if "audit endpoint returned an error" in t:
        print("npm-audit-text, npm-audit-json: the registry refused the audit, skipped")
        t = None
    if t is not None:
        audit_cases(d, t)
    # pip-audit of old pins.
    d = project("pip-audit")
    write(os.path.join(d, "requirements.txt"), "requests==2.19.0\nurllib3==1.24.1\njinja2==2.10\npyyaml==5.3\n")
    command = "pip-audit --no-deps --disable-pip -r requirements.txt"
    t = run(f"{venv}/{command}", cwd=d)
    if not re.search(r"^Found \d+ known vulnerabilit", t, re.M):
        print("pip-audit-old-pins: no vulnerability service answered, skipped")
    else:
        case("pip-audit-old-pins", "log", command, t,
             lambda l: re.match(r"^\S+\s+\S+\s+(PYSEC|GHSA|CVE)-", l) or re.match(r"^Found \d+ known vulnerabilit", l),
             "every row (package, version, vulnerability id) and the count found")
    # pip installing a package that breaks another one installed.
    d = project("pip-conflict")
    run(f"{venv}/python -m venv {d}/v")
    run(f"{d}/v/bin/pip install -q requests==2.31.0")
    command = "pip install urllib3==1.21"
    t = run(f"{d}/v/bin/{command}")
    case("pip-install-breaks-another", "log", command, t,
         lambda l: l.startswith("ERROR:") or " requires " in l or l.startswith("Successfully installed"),
         "pip's ERROR line, every broken requirement and what was installed")
    # cargo failing to resolve pinned versions.
    d = project("cargo-conflict")
    run("cargo init -q --name conflict", cwd=d)
    with open(os.path.join(d, "Cargo.toml"), "a") as f:
        f.write('serde = "=1.0.100"\nserde_json = "=1.0.140"\n')
    t = run("cargo generate-lockfile", cwd=d)
    case("cargo-resolve-conflict", "log", "cargo generate-lockfile", t,
         lambda l: re.search(r"failed to select|required by package|previously selected package|all possible versions conflict|versions that meet the requirements", l),
         "every line of cargo's account of the conflict: what failed, what required it, what was selected before")
    # R CMD check of a package with a failing test, an undocumented export and a bad DESCRIPTION field.
    d = project("rpkg")
    pkg = os.path.join(d, "tidyish")
    os.makedirs(os.path.join(pkg, "R"))
    os.makedirs(os.path.join(pkg, "man"))
    os.makedirs(os.path.join(pkg, "tests"))
    write(os.path.join(pkg, "DESCRIPTION"), "Package: tidyish\nTitle: tidy helpers\nVersion: 0.1.0\n"
          "Authors@R: person('A', 'B', email = 'a@b.org', role = c('aut', 'cre'))\n"
          "Description: Helpers.\nLicense: MIT\nEncoding: UTF-8\n")
    write(os.path.join(pkg, "NAMESPACE"), "export(add_one)\nexport(scale_to)\n")
    write(os.path.join(pkg, "R", "add.R"), "add_one <- function(x) x + 1\nscale_to <- function(x, to) x / max(x) * tu\n")
    write(os.path.join(pkg, "man", "add_one.Rd"), "\\name{add_one}\n\\alias{add_one}\n\\title{Add one}\n"
          "\\usage{add_one(x, y)}\n\\arguments{\\item{x}{a number}}\n\\value{x plus one}\n\\description{Adds one.}\n")
    write(os.path.join(pkg, "tests", "basic.R"), "library(tidyish)\nstopifnot(add_one(1) == 2)\nstopifnot(scale_to(c(1, 2), 10)[2] == 10)\n")
    run("R CMD build --no-build-vignettes tidyish", cwd=d)
    command = "R CMD check --no-manual tidyish_0.1.0.tar.gz"
    t = run(command, cwd=d)
    case("r-cmd-check-problems", "log", command, t,
         lambda l: re.match(r"^\* .*\.\.\. ?(ERROR|WARNING|NOTE)", l) or l.startswith("Status:") or l.startswith("Error in "),
         "every check that ended in ERROR, WARNING or NOTE, R's `Error in` lines and the status")
    # criterion's benchmarks.
    d = project("bench")
    run("cargo init -q --lib --name benched", cwd=d)
    with open(os.path.join(d, "Cargo.toml"), "a") as f:
        f.write('\n[dev-dependencies]\ncriterion = "0.8"\n\n[[bench]]\nname = "speed"\nharness = false\n')
    os.makedirs(os.path.join(d, "benches"))
    write(os.path.join(d, "benches", "speed.rs"), """use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn fib(n: u64) -> u64 { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }

fn benches(c: &mut Criterion) {
    for n in [10u64, 15, 20] {
        c.bench_function(&format!("fib {n}"), |b| b.iter(|| fib(black_box(n))));
    }
    let data: Vec<u32> = (0..10_000).rev().collect();
    c.bench_function("sort 10k reversed", |b| b.iter(|| { let mut v = data.clone(); v.sort(); v }));
    c.bench_function("sort_unstable 10k reversed", |b| b.iter(|| { let mut v = data.clone(); v.sort_unstable(); v }));
}

criterion_group!(all, benches);
criterion_main!(all);
""")
    command = "cargo bench --bench speed -- --warm-up-time 0.5 --measurement-time 1"
    t = run(command, cwd=d)
    case("criterion-bench", "log", "cargo bench", t,
         lambda l: "time:   [" in l or "thrpt:  [" in l or re.match(r"^Found \d+ outliers", l),
         "every benchmark's time line and every outliers count")
    # criterion again, in groups with throughput, in a project of its own,
    # run twice: the first run builds it, the second compares against the
    # first (tuning cases added once `criterion-bench`, in the evaluation
    # half, had lost lines, so that one stays unread; their rule was
    # written before they ran).
    d = project("bench-groups")
    run("cargo init -q --lib --name grouped", cwd=d)
    with open(os.path.join(d, "Cargo.toml"), "a") as f:
        f.write('\n[dev-dependencies]\ncriterion = "0.8"\n\n[[bench]]\nname = "speed"\nharness = false\n')
    os.makedirs(os.path.join(d, "benches"))
    write(os.path.join(d, "benches", "speed.rs"), """use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

fn checksum(data: &[u8]) -> u32 { data.iter().fold(0u32, |a, &b| a.rotate_left(5) ^ u32::from(b)) }

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("checksum");
    for size in [64usize, 1024, 16384] {
        let data = vec![7u8; size];
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(BenchmarkId::from_parameter(size), &data, |b, d| b.iter(|| checksum(black_box(d))));
    }
    group.finish();
    let mut group = c.benchmark_group("split");
    let text = "alpha,beta,gamma,delta,".repeat(200);
    group.bench_function("by char", |b| b.iter(|| black_box(&text).split(',').count()));
    group.bench_function("by str", |b| b.iter(|| black_box(&text).split(",").count()));
    group.finish();
}

criterion_group!(all, benches);
criterion_main!(all);
""")
    results = lambda l: ("time:   [" in l or "thrpt:  [" in l or "change: [" in l or re.match(r"^Found \d+ outliers", l)
                         or re.search(r"Performance has (regressed|improved)|No change in performance detected|Change within noise threshold", l))
    how = "every benchmark's time, throughput and change lines, each verdict on the change and every outliers count"
    t = run(command, cwd=d)
    case("criterion-groups-first-run", "log", "cargo bench", t, results, how)
    t = run(command, cwd=d)
    case("criterion-bench-groups", "log", "cargo bench", t, results, how)
    # PostgreSQL's plan of a join, analysed.
    pg = "/usr/lib/postgresql/15/bin"
    data, log = os.path.join(work, "pg"), os.path.join(work, "pg.log")
    run(f"su postgres -c '{pg}/initdb -D {data} -A trust'")
    run(f"su postgres -c \"{pg}/pg_ctl -D {data} -l {log} -o '-p 5498 -k {work}' -w start\"")
    sql = os.path.join(work, "plan.sql")
    write(sql, "create table customers(id int primary key, region text);\n"
          "create table orders(id int primary key, customer_id int, total int, placed date);\n"
          "insert into customers select g, (array['north','south','east','west'])[g % 4 + 1] from generate_series(1, 5000) g;\n"
          "insert into orders select g, g % 5000 + 1, g % 977, date '2026-01-01' + g % 300 from generate_series(1, 200000) g;\n"
          "create index on orders(placed);\nanalyze;\n"
          "explain (analyze, buffers) select c.region, count(*), sum(o.total) from orders o join customers c on c.id = o.customer_id "
          "where o.placed between date '2026-03-01' and date '2026-04-30' group by c.region order by sum(o.total) desc;\n")
    os.chmod(sql, 0o644)
    command = "psql -X -f plan.sql"
    t = run(f"su postgres -c \"psql -h {work} -p 5498 -X -f {sql}\"", stderr=True)
    run(f"su postgres -c \"{pg}/pg_ctl -D {data} -m fast -w stop\"")
    case("psql-explain-analyze", "log", command, t,
         lambda l: "->  " in l or re.match(r"^ (Sort|Hash|Seq|Index|Bitmap|Finalize|Gather|Aggregate|GroupAggregate|HashAggregate|Nested|Merge)\b", l) or "Planning Time" in l or "Execution Time" in l,
         "every node of the plan and the planning and execution times")
    # strace's count of system calls.
    py = run("python3 -c 'import sys; print(sys.executable)'", stderr=False).strip()
    command = f"strace -c -f {py} -c \"import json, email.mime.multipart, http.client\""
    t = run(command)
    case("strace-syscall-summary", "log", command, t,
         lambda l: re.match(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+\d+\s+(\d+\s+)?\w+$", l) or re.match(r"^\s*100\.00\s", l),
         "every system call's row and the total row")
    # A Fortran array index out of bounds, checked at run time.
    d = project("fortran")
    write(os.path.join(d, "bounds.f90"), "program bounds\n  implicit none\n  integer :: a(10), i\n  do i = 1, 11\n"
          "    a(i) = i * i\n  end do\n  print *, sum(a)\nend program bounds\n")
    run("gfortran -g -fcheck=all -o bounds bounds.f90", cwd=d)
    t = run("./bounds", cwd=d)
    case("fortran-runtime-bounds", "error", "./bounds", t,
         lambda l: l.startswith("At line") or "Fortran runtime error" in l or l.startswith("Error termination"),
         "the place, the runtime error and the termination line")
    # Python's import times: each module imported at the top and the ten slowest.
    command = f"{py} -X importtime -c \"import asyncio, email.mime.multipart, http.client, json, decimal\""
    t = run(command)
    rows = [(l, int(m.group(1))) for l in t.splitlines() if (m := re.match(r"^import time:\s+\d+ \|\s+(\d+) \|", l))]
    top = [l for l in t.splitlines() if re.match(r"^import time:\s+\d+ \|\s+\d+ \| \S", l)]
    slowest = [l for l, _ in sorted(rows, key=lambda r: -r[1])[:10]]
    case("python-importtime", "log", "python3 -X importtime -c \"import asyncio, email.mime.multipart, http.client, json, decimal\"",
         t, top + slowest, "every module imported at the top level and the ten largest cumulative times")
    # naga validating a WGSL shader with a type error.
    d = project("wgsl")
    write(os.path.join(d, "shade.wgsl"), "@group(0) @binding(0) var<storage, read_write> data: array<f32>;\n\n"
          "@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) id: vec3<u32>) {\n"
          "    let i = id.x;\n    let scale: f32 = 2;\n    data[i] = data[i] * scale + i;\n}\n")
    t = run("naga shade.wgsl", cwd=d)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", t)
    keep = [l for l in plain.splitlines() if re.match(r"^(error|warning)", l.strip()) or re.search(r"┌─ \S+:\d+:\d+", l)]
    case("naga-wgsl-error", "log", "naga shade.wgsl", t, keep,
         "every error header and the place it points at (naga colours them when piped: read without colours)")


def dependency_upkeep_cases(venv):
    """Round 48: what an agent reads while keeping dependencies up to date
    and finding what is slow, from tools no earlier round ran: cargo
    update of a lockfile held back, cargo tree's duplicates, cargo check's
    short diagnostics, pip listing outdated packages and upgrading them,
    npm's outdated report as JSON and npm explaining why a package is
    installed, pytest's slowest durations and cProfile's table. Each rule
    was written before ghost's output was looked at."""
    work = tempfile.mkdtemp(prefix="ghost-round48-")
    project = lambda name: new_dir(work, name)
    # cargo update of a lockfile whose packages were held back.
    d = project("cargo-update")
    run("cargo init -q --name upkeep", cwd=d)
    with open(os.path.join(d, "Cargo.toml"), "a") as f:
        f.write('serde = { version = "1", features = ["derive"] }\nrand = "0.8"\nregex = "1"\nclap = { version = "4", features = ["derive"] }\n')
    run("cargo generate-lockfile", cwd=d)
    for name, version in [("serde", "1.0.150"), ("rand", "0.8.0"), ("regex", "1.5.0"), ("clap", "4.0.0")]:
        run(f"cargo update -p {name} --precise {version}", cwd=d)
    t = run("cargo update", cwd=d)
    case("cargo-update-held-back", "log", "cargo update", t,
         lambda l: re.match(r"^\s*(Updating|Adding|Removing|Downgrading|Upgrading|Locking)\s", l) and "crates.io index" not in l,
         "every package cargo updated, added or removed, and its count")
    # cargo tree's duplicated packages in this workspace.
    t = run("cargo tree -d --workspace --offline -e normal", stderr=False)
    case("cargo-tree-duplicates", "log", "cargo tree -d --workspace -e normal", t,
         lambda l: re.match(r"^[a-z0-9_-]+ v\d", l),
         "every duplicated package at the margin with its version")
    # cargo check's short diagnostics of a broken crate.
    d = project("short")
    run("cargo init -q --name shortdiag", cwd=d)
    write(os.path.join(d, "src", "main.rs"),
          "use std::collections::HashMap;\nuse std::fs;\n\nstruct Point { x: i32, y: i32 }\n\n"
          "fn area(p: &Point) -> u32 { p.x * p.y }\n\n"
          "fn main() {\n    let unused = 4;\n    let mut names: Vec<String> = Vec::new();\n"
          "    names.push(3);\n    let p = Point { x: 1, z: 2 };\n    println!(\"{}\", area(&p));\n"
          "    let total: i64 = names.len();\n    undefined_call();\n}\n")
    t = run("cargo check --message-format short", cwd=d)
    case("cargo-check-short", "log", "cargo check --message-format short", t,
         lambda l: re.match(r"^src/\S+:\d+:\d+: (error|warning)", l) or re.match(r"^(error|warning): (could not compile|`shortdiag`)", l),
         "every `path:line:col: level` diagnostic and cargo's verdict")
    # pip listing outdated packages, then upgrading them.
    d = project("pip-old")
    run(f"{venv}/python -m venv {d}/v")
    run(f"{d}/v/bin/pip install -q requests==2.25.0 urllib3==1.26.5 idna==2.10 certifi==2021.5.30 chardet==3.0.4 six==1.15.0 click==7.1.2 packaging==20.9")
    command = "pip list --outdated"
    t = run(f"{d}/v/bin/{command}", stderr=False)
    rows = [l.split() for l in t.splitlines()[2:] if len(l.split()) >= 3]
    case("pip-list-outdated", "log", command, t, [x for r in rows for x in r[:3]],
         "every outdated package with its installed and its latest version")
    command = "pip install -U requests click packaging six"
    t = run(f"{d}/v/bin/{command}")
    case("pip-install-upgrade", "log", command, t,
         lambda l: re.match(r"^\s*(Successfully uninstalled|Successfully installed|Found existing installation:)", l) or l.startswith("ERROR:"),
         "every installation found and uninstalled, what was installed, and any ERROR")
    # npm's outdated report as JSON, and npm explaining an installed package.
    d = project("npm-old")
    run("npm init -y", cwd=d)
    run("npm install express@4.17.1 lodash@4.17.15 minimist@1.2.0 debug@2.6.8 chalk@2.4.2 --no-audit --no-fund --save-exact", cwd=d)
    t = run("npm outdated --json", cwd=d, stderr=False)
    keep = [x for name, v in json.loads(t).items() for x in (name, v["current"], v["latest"])]
    case("npm-outdated-json", "structured", "npm outdated --json", t, keep,
         "every outdated package with its current and its latest version")
    t = run("npm explain debug", cwd=d, stderr=False)
    case("npm-explain", "log", "npm explain debug", t,
         lambda l: re.match(r"^\s*(\S+@\S+)", l) and not l.strip().startswith("node_modules"),
         "every package@version line of each path that brings `debug` in")
    # pytest's slowest durations.
    d = project("durations")
    write(os.path.join(d, "test_speed.py"), "import time\nimport pytest\n\n"
          + "".join(f"def test_step_{i}():\n    time.sleep({(i * 37 % 11) / 400:.4f})\n\n" for i in range(40))
          + "@pytest.mark.parametrize('n', range(12))\ndef test_sizes(n):\n    time.sleep(n / 300)\n")
    command = "pytest --durations=10 -q"
    t = run(f"{venv}/{command} -p no:cacheprovider", cwd=d)
    case("pytest-durations", "log", command, t,
         lambda l: re.match(r"^\d+\.\d+s (call|setup|teardown)\s", l) or re.match(r"^\d+ passed", l),
         "every line of the slowest-durations table and the summary")
    # cProfile's table, sorted by cumulative time.
    d = project("profile")
    write(os.path.join(d, "work.py"), "import json, re, collections\n\n"
          "def tokens(text):\n    return re.findall(r'\\w+', text)\n\n"
          "def count(words):\n    return collections.Counter(w.lower() for w in words)\n\n"
          "def main():\n    text = json.dumps([{'id': i, 'name': f'item {i}', 'tags': ['a', 'b', str(i % 7)]} for i in range(20000)])\n"
          "    for _ in range(3):\n        c = count(tokens(text))\n    print(c.most_common(3))\n\nmain()\n")
    py = run("python3 -c 'import sys; print(sys.executable)'", stderr=False).strip()
    command = "python3 -m cProfile -s cumulative work.py"
    t = run(f"{py} -m cProfile -s cumulative work.py", cwd=d)
    case("cprofile-cumulative", "log", command, t, profile_facts(t),
         "the count of calls and time, the table's header and its first fifteen rows (the largest cumulative times)")
    # Tuning twins of the two long outputs above, added once those (in the
    # evaluation half) had lost lines, so they stay unread; rules written
    # before these ran. cProfile by own time over another workload:
    write(os.path.join(d, "parse.py"), "import csv, io, statistics, datetime\n\n"
          "def rows(n):\n    out = io.StringIO()\n    w = csv.writer(out)\n"
          "    for i in range(n):\n        w.writerow([i, f'2026-01-{i % 28 + 1:02d}', i * 0.5, 'x' * (i % 13)])\n"
          "    return out.getvalue()\n\n"
          "def parse(text):\n    return [(int(a), datetime.date.fromisoformat(b), float(c), d) for a, b, c, d in csv.reader(io.StringIO(text))]\n\n"
          "def main():\n    data = parse(rows(30000))\n    print(statistics.mean(r[2] for r in data), max(r[1] for r in data))\n\nmain()\n")
    command = "python3 -m cProfile -s tottime parse.py"
    t = run(f"{py} -m cProfile -s tottime parse.py", cwd=d)
    case("cprofile-tottime", "log", command, t, profile_facts(t),
         "the count of calls and time, the table's header and its first fifteen rows (the largest own times)")
    # cargo tree's duplicates over every kind of edge.
    t = run("cargo tree -d --workspace --offline", stderr=False)
    case("cargo-tree-duplicates-all-edges", "log", "cargo tree -d --workspace", t,
         lambda l: re.match(r"^[a-z0-9_-]+ v\d", l),
         "every duplicated package at the margin with its version")


def listing_dump_cases():
    """Round 49: listings and dumps an agent asks for, from tools no earlier
    round ran: what npm would pack, what cargo would package, a binary's
    shared libraries, PHP's modules, Perl's configuration, a project's
    authors, a database's schema as pg_dump writes it and psql's
    description of a table. Each rule was written before ghost's output was
    looked at."""
    work = tempfile.mkdtemp(prefix="ghost-round49-")
    os.chmod(work, 0o777)
    # npm pack --dry-run of an installed package.
    express = glob.glob("/tmp/ghost-round46-*/npm-ls-all-json-long-express/node_modules/express")
    if express:
        d = os.path.join(work, "express")
        shutil.copytree(express[0], d)
        t = run("npm pack --dry-run", cwd=d)
        case("npm-pack-dry-run", "log", "npm pack --dry-run", t,
             lambda l: re.match(r"^npm notice [\d.]+k?B\s+\S", l) or "total files" in l,
             "every file npm would pack and the count of files")
    else:
        print("npm-pack-dry-run: no installed express (run --round46 first), skipped")
    # cargo package --list of a crate from the registry.
    regex = sorted(glob.glob(os.path.expanduser("~/.cargo/registry/src/*/regex-1.*")))
    if regex:
        d = os.path.join(work, "regex")
        shutil.copytree(regex[-1], d)
        t = run("cargo package --list --allow-dirty", cwd=d)
        case("cargo-package-list", "log", "cargo package --list", t,
             lambda l: re.match(r"^[\w.-]+(/[\w.-]+)*$", l),
             "every file cargo would package")
    # A binary's shared libraries.
    t = run("ldd /usr/lib/postgresql/15/bin/postgres", stderr=False)
    case("ldd-postgres", "log", "ldd /usr/lib/postgresql/15/bin/postgres", t,
         lambda l: "=>" in l or l.strip().startswith("/"),
         "every shared library with where it resolves")
    # A tuning twin of `ldd-postgres` (evaluation half, called structured),
    # added after it was scored, so it stays unread; rule written before
    # it ran.
    t = run("ldd /usr/bin/php", stderr=False)
    case("ldd-php", "log", "ldd /usr/bin/php", t,
         lambda l: "=>" in l or l.strip().startswith("/"),
         "every shared library with where it resolves")
    # PHP's modules.
    t = run("php -m", stderr=False)
    case("php-modules", "log", "php -m", t,
         lambda l: re.match(r"^[A-Za-z][\w ]*$", l),
         "every module name")
    # Perl's configuration.
    t = run("perl -V", stderr=False)
    case("perl-config", "log", "perl -V", t,
         lambda l: re.match(r"^    /", l) or l.startswith("Summary of my perl5") or re.match(r"^\s+(osname|cc|version)=", l),
         "the summary line, the OS, compiler and version lines, and every @INC path")
    # A project's authors.
    repo = "/work/.mirror/junegunn+fzf/repo"
    if os.path.isdir(repo):
        t = run(f"git -C {repo} shortlog -sn HEAD", stderr=False)
        case("git-shortlog-fzf", "log", "git shortlog -sn HEAD", t,
             lambda l: re.match(r"^\s+\d+\t", l),
             "every author with their count of commits")
    # A database's schema, and one table described.
    pg = "/usr/lib/postgresql/15/bin"
    data, log = os.path.join(work, "pg"), os.path.join(work, "pg.log")
    run(f"su postgres -c '{pg}/initdb -D {data} -A trust'")
    run(f"su postgres -c \"{pg}/pg_ctl -D {data} -l {log} -o '-p 5497 -k {work}' -w start\"")
    sql = os.path.join(work, "schema.sql")
    write(sql, "create table customers(id serial primary key, email text not null unique, region text, created timestamptz default now());\n"
          "create table products(id serial primary key, sku text not null unique, title text not null, price numeric(10,2) check (price >= 0));\n"
          "create table orders(id bigserial primary key, customer_id int not null references customers(id), placed date not null, status text default 'new');\n"
          "create table order_lines(order_id bigint references orders(id) on delete cascade, product_id int references products(id), qty int not null check (qty > 0), primary key (order_id, product_id));\n"
          "create index orders_placed_idx on orders(placed);\ncreate index order_lines_product_idx on order_lines(product_id);\n"
          "create view order_totals as select o.id, sum(l.qty * p.price) as total from orders o join order_lines l on l.order_id = o.id join products p on p.id = l.product_id group by o.id;\n"
          "create function order_total(oid bigint) returns numeric language sql as $$ select total from order_totals where id = oid $$;\n"
          "create type order_status as enum ('new', 'paid', 'shipped', 'cancelled');\n")
    os.chmod(sql, 0o644)
    run(f"su postgres -c \"psql -h {work} -p 5497 -X -q -f {sql}\"")
    t = run(f"su postgres -c \"pg_dump -h {work} -p 5497 --schema-only postgres\"", stderr=False)
    names = re.findall(r"^CREATE (?:TABLE|VIEW|FUNCTION|TYPE|INDEX|SEQUENCE) (\S+?)(?:\(| |$)", t, re.M)
    case("pg-dump-schema", "code", "pg_dump --schema-only", t, names,
         "the name of every table, view, function, type, index and sequence created")
    t = run(f"su postgres -c \"psql -h {work} -p 5497 -X -c '\\\\d+ orders'\"", stderr=False)
    keep = [l for l in t.splitlines() if re.match(r"^ \w+\s+\|", l) or re.match(r'^    "\w+', l) or l.startswith('    TABLE "')]
    case("psql-describe-table", "log", "psql -c '\\d+ orders'", t, keep,
         "every column's row, every index and every table referring to it")
    # Tuning twins of `pg-dump-schema` (evaluation half, classified as a
    # log with its command's hint), added after it was scored, so it stays
    # unread; rules written before these ran: the same database with rows,
    # dumped whole, and SQLite's schema.
    run(f"su postgres -c \"psql -h {work} -p 5497 -X -q -c \\\"insert into customers(email, region) select 'c' || g || '@example.org', 'north' from generate_series(1, 5) g\\\"\"")
    t = run(f"su postgres -c \"pg_dump -h {work} -p 5497 postgres\"", stderr=False)
    names = re.findall(r"^CREATE (?:TABLE|VIEW|FUNCTION|TYPE|INDEX|SEQUENCE) (\S+?)(?:\(| |$)", t, re.M)
    case("pg-dump-data-and-schema", "code", "pg_dump", t, names,
         "the name of every table, view, function, type, index and sequence created")
    db = os.path.join(work, "shop.db")
    run(f"sqlite3 {db} \"create table users(id integer primary key, email text unique not null, created text default current_timestamp);"
        " create table carts(id integer primary key, user_id integer references users(id), opened text);"
        " create table cart_items(cart_id integer references carts(id), sku text, qty integer check (qty > 0), primary key (cart_id, sku));"
        " create index carts_user_idx on carts(user_id);"
        " create view open_carts as select c.id, u.email from carts c join users u on u.id = c.user_id;"
        " create trigger cart_items_touch after insert on cart_items begin update carts set opened = current_timestamp where id = new.cart_id; end;\"")
    t = run(f"sqlite3 {db} .schema", stderr=False)
    names = re.findall(r"^CREATE (?:TABLE|VIEW|INDEX|TRIGGER) (\w+)", t, re.M)
    case("sqlite3-schema", "code", "sqlite3 shop.db .schema", t, names,
         "the name of every table, view, index and trigger created")
    run(f"su postgres -c \"{pg}/pg_ctl -D {data} -m fast -w stop\"")


def report_facts(text):
    """The must-keep facts of JUnit-style XML test reports in `text` (one
    document or several printed one after another): for every test case
    holding a `<failure>` or an `<error>`, its name and its message. A
    message is its `message` attribute's first line, else its text's first
    non-blank line, cut to its longest run of characters XML leaves
    unescaped (an outline shows `&quot;` as `"`, the file as `&quot;`), when
    that run has at least 8 characters."""
    import html
    facts = []
    for m in re.finditer(r"<testcase\b([^>]*?)(/>|>(.*?)</testcase>)", text, re.S):
        body = m.group(3) or ""
        failed = re.search(r"<(failure|error)\b([^>]*?)(/>|>(.*?)</\1>)", body, re.S)
        if not failed:
            continue
        name = re.search(r'\bname="([^"]*)"', m.group(1))
        if name:
            facts.append(html.unescape(name.group(1)))
        message = re.search(r'\bmessage="([^"]*)"', failed.group(2))
        said = html.unescape(message.group(1)) if message else (failed.group(4) or "")
        said = said.replace("<![CDATA[", "").replace("]]>", "")
        first = next((l.strip() for l in said.splitlines() if l.strip()), "")
        run_ = max(re.split(r"[&<>\"']", first), key=len).strip()
        if len(run_) >= 8:
            facts.append(run_)
    return facts


JS_SUITE = {
    "cart.js": (
        "'use strict';\n"
        "class Cart {\n"
        "  constructor() { this.items = new Map(); }\n"
        "  add(sku, qty) {\n"
        "    if (qty <= 0) throw new RangeError(`qty must be positive: ${qty}`);\n"
        "    this.items.set(sku, (this.items.get(sku) || 0) + qty);\n"
        "    return this;\n"
        "  }\n"
        "  count() { let n = 0; for (const q of this.items.values()) n += q; return n; }\n"
        "  price(prices) { let t = 0; for (const [s, q] of this.items) t += prices[s] * q; return t; }\n"
        "  label() { return `${this.items.size} items`; }\n"
        "}\n"
        "module.exports = { Cart };\n"),
}


def js_cart_tests(header):
    """A test file of the cart above under `header` (the runner's imports):
    eight groups of six passing tests and three failing ones."""
    body = [header, "const assert = require('node:assert');\nconst { Cart } = require('./cart.js');\n"]
    for g in range(8):
        body.append(f"describe('cart group {g}', () => {{\n")
        for i in range(6):
            body.append(f"  it('adds sku {g}-{i}', () => {{ assert.strictEqual(new Cart().add('s{i}', {i + 1}).count(), {i + 1}); }});\n")
        if g == 2:
            body.append("  it('labels two items', () => { assert.strictEqual(new Cart().add('a', 1).label(), '2 items'); });\n")
            body.append("  it('prices an unknown sku as zero', () => { assert.strictEqual(new Cart().add('x', 1).price({}), 0); });\n")
        if g == 5:
            body.append("  it('rejects a zero quantity', () => { new Cart().add('a', 0); });\n")
        body.append("});\n")
    return "".join(body)


def test_report_cases(venv):
    """Round 50: test reports written as files (JUnit-style XML), as an
    agent reads them after a CI run: pytest's `--junitxml` over
    python-dateutil's and more-itertools' own suites with a bug put in,
    Maven surefire's per-class reports (one class, and every class `cat`
    together), Node's test runner with its junit reporter, mocha's xunit
    reporter, jest-junit and libtest's junit format (nightly cargo) over
    strsim with a bug put in. Each rule (`report_facts`: every failing
    test's name and message) was written before any of these ran. Needs
    network for PyPI and npm."""
    work = tempfile.mkdtemp(prefix="ghost-round50-")
    pytest = os.path.join(venv, "pytest")
    # pytest --junitxml over python-dateutil with round 23's two bugs.
    d = new_dir(work, "dateutil")
    run("pip download -q --no-binary :all: --no-deps python-dateutil==2.9.0.post0 -d .", cwd=d)
    run("tar xzf python-dateutil-2.9.0.post0.tar.gz", cwd=d)
    src = os.path.join(d, "python-dateutil-2.9.0.post0")
    for path, old, new in [
        ("src/dateutil/relativedelta.py", "        return int(self.days / 7.0)", "        return self.days // 7"),
        ("src/dateutil/utils.py", "    return -delta <= difference <= delta", "    return -delta < difference < delta"),
    ]:
        text = open(os.path.join(src, path)).read()
        assert old in text, f"{path}: {old!r} not found"
        write(os.path.join(src, path), text.replace(old, new))
    run(f"PYTHONPATH=src {pytest} -q -p no:cacheprovider -W ignore::DeprecationWarning -W ignore::pytest.PytestUnknownMarkWarning --junitxml=report.xml tests", cwd=src)
    t = open(os.path.join(src, "report.xml")).read()
    case("pytest-junitxml-dateutil", "structured", "cat report.xml", t, report_facts(t),
         "every failing test's name and message (`report_facts`)")
    # pytest --junitxml (the xunit1 family) over more-itertools with ilen off by one.
    d = new_dir(work, "more-itertools")
    run("pip download -q --no-binary :all: --no-deps more-itertools==10.5.0 -d .", cwd=d)
    run("tar xzf more-itertools-10.5.0.tar.gz", cwd=d)
    src = os.path.join(d, "more-itertools-10.5.0")
    path = os.path.join(src, "more_itertools", "more.py")
    text = open(path).read()
    old = "    return sum(compress(repeat(1), zip(iterable)))"
    assert old in text, "more-itertools: ilen not found"
    write(path, text.replace(old, "    return sum(compress(repeat(1), zip(iterable))) or 1"))
    run(f"{pytest} -q -p no:cacheprovider -o junit_family=xunit1 --junitxml=report.xml tests", cwd=src)
    t = open(os.path.join(src, "report.xml")).read()
    case("pytest-junitxml-more-itertools", "structured", "cat report.xml", t, report_facts(t),
         "every failing test's name and message (`report_facts`)")
    # Maven surefire's XML reports of round 19's failing project.
    # (Offline only against Debian's repository: skipped without it.)
    if os.path.exists("/etc/maven/settings-debian.xml"):
        d = new_dir(work, "shop")
        maven_shop(d, failing=True)
        run(f"{MAVEN_OFFLINE} test", cwd=d)
        reports = os.path.join(d, "target", "surefire-reports")
        t = open(os.path.join(reports, "TEST-demo.Cart3Test.xml")).read()
        case("surefire-xml-failing", "structured", "cat target/surefire-reports/TEST-demo.Cart3Test.xml", t,
             report_facts(t), "every failing test's name and message (`report_facts`)")
        t = run("cat target/surefire-reports/*.xml", cwd=d, stderr=False)
        case("surefire-reports-cat", "structured", "cat target/surefire-reports/*.xml", t, report_facts(t),
             "every failing test's name and message (`report_facts`)")
    else:
        print("surefire-xml-failing, surefire-reports-cat: no Debian Maven repository, skipped")
    # The same JavaScript suite under three runners' XML reporters.
    d = new_dir(work, "js")
    for name, text in JS_SUITE.items():
        write(os.path.join(d, name), text)
    write(os.path.join(d, "package.json"), '{"name": "cart", "version": "1.0.0", "private": true}\n')
    run("npm install -q --no-audit --no-fund mocha@10 jest@29 jest-junit@16", cwd=d)
    write(os.path.join(d, "node.test.js"), js_cart_tests("const { describe, it } = require('node:test');\n"))
    t = run("node --test --test-reporter=junit node.test.js", cwd=d, stderr=False)
    case("node-test-junit-xml", "structured", "node --test --test-reporter=junit", t, report_facts(t),
         "every failing test's name and message (`report_facts`)")
    write(os.path.join(d, "mocha.spec.js"), js_cart_tests(""))
    t = run("npx mocha --reporter xunit mocha.spec.js", cwd=d, stderr=False)
    case("mocha-xunit-xml", "structured", "npx mocha --reporter xunit", t, report_facts(t),
         "every failing test's name and message (`report_facts`)")
    write(os.path.join(d, "cart.test.js"), js_cart_tests("const it = test;\n"))
    run("JEST_JUNIT_OUTPUT_DIR=. npx jest cart.test.js --ci --reporters=jest-junit", cwd=d)
    t = open(os.path.join(d, "junit.xml")).read()
    case("jest-junit-xml", "structured", "cat junit.xml", t, report_facts(t),
         "every failing test's name and message (`report_facts`)")
    # libtest's junit format over strsim with round 23's two bugs.
    registry = os.path.expanduser("~/.cargo/registry/src")
    strsim = glob.glob(os.path.join(registry, "*", "strsim-0.11.1"))
    if strsim:
        crate = os.path.join(work, "strsim")
        shutil.copytree(strsim[0], crate)
        lib = os.path.join(crate, "src", "lib.rs")
        text = open(lib).read()
        for old, new in [(".take(4)", ".take(5)"), ("(a.chars().count().max(b.chars().count()) as f64)",
                                                    "(a.chars().count().min(b.chars().count()) as f64)")]:
            assert old in text, f"strsim: {old!r} not found"
            text = text.replace(old, new, 1)
        write(lib, text)
        t = run("cargo +nightly test --offline -q --no-fail-fast -- -Z unstable-options --format junit", cwd=crate, stderr=False)
        case("cargo-junit-xml", "structured", "cargo +nightly test -- -Z unstable-options --format junit", t,
             report_facts(t), "every failing test's name and message (`report_facts`)")
    else:
        print("cargo-junit-xml: no strsim 0.11.1 in cargo's registry, skipped")


def verbose_run_twin_cases():
    """Round 51: tuning twins of two evaluation cases whose figures (not
    their output, which stays unread) showed most of a long run kept:
    `strace` of Node opening a missing file (twin of
    `strace-missing-file`, Python's) and `cargo build -v` of another
    crate with dependencies and one warning (twin of
    `cargo-build-verbose`). Each rule is its twin's, written before these
    ran. Needs crates.io."""
    work = tempfile.mkdtemp(prefix="ghost-round51-")
    cmd = "strace node -e \"require('fs').readFileSync('/etc/ghost-missing/settings.json')\""
    t = run(cmd, cwd=work)
    case("strace-node-missing-file", "log", cmd, t,
         lambda l: "/etc/ghost-missing/settings.json" in l or (l.startswith('write(2, "') and not l.startswith('write(2, "", 0)'))
         or l.startswith("exit_group(") or l.startswith("+++ exited"),
         "every line naming the missing file, every non-empty write to stderr, exit_group and the exit line")
    crate = new_dir(work, "app")
    write(os.path.join(crate, "Cargo.toml"), '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n'
          '[dependencies]\nclap = { version = "4", features = ["derive"] }\nanyhow = "1"\n')
    write(os.path.join(crate, "src", "main.rs"), "use clap::Parser;\n\n#[derive(Parser, Debug)]\nstruct Args { name: String }\n\n"
          "fn main() -> anyhow::Result<()> {\n    let unused = 3;\n    let args = Args::parse();\n    println!(\"{args:?}\");\n    Ok(())\n}\n")
    t = run("cargo build -v --color never", cwd=crate)
    warn_header = lambda l: re.match(r"^(warning|error)(\[\w+\])?: ", l) or l.strip().startswith("--> ")
    case("cargo-build-verbose-clap", "log", "cargo build -v", t,
         lambda l: warn_header(l) or l.strip().startswith("Finished "),
         "every `warning:`/`error:` header, its `--> file:line:col`, and the `Finished` line")


RING_H = ("#ifndef RING_H\n#define RING_H\n#include <stddef.h>\n\n"
          "typedef struct { int items[4]; size_t head, tail, count; } ring;\n\n"
          "void ring_init(ring *r);\nint ring_push(ring *r, int v);\nint ring_pop(ring *r, int *out);\n#endif\n")
RING_C = ("#include \"ring.h\"\n\n"
          "void ring_init(ring *r) { r->head = r->tail = r->count = 0; }\n\n"
          "int ring_push(ring *r, int v) {\n    if (r->count == 4) return -1;\n"
          "    r->items[r->tail] = v;\n    r->tail = (r->tail + 1) % 4;\n    r->count++;\n    return 0;\n}\n\n"
          "int ring_pop(ring *r, int *out) {\n    if (r->count == 0) return -1;\n"
          "    *out = r->items[r->head];\n    r->head = (r->head + 1) % 3;\n    r->count--;\n    return 0;\n}\n")


def ring_test(name, body):
    """A test program of the ring buffer: `body` returns non-zero on failure,
    saying why on stderr as an assertion would."""
    return ("#include <stdio.h>\n#include \"ring.h\"\n\n"
            "#define CHECK(c, got) do { if (!(c)) { fprintf(stderr, \"assertion failed: %s (got %d) at %s:%d\\n\", #c, got, __FILE__, __LINE__); return 1; } } while (0)\n\n"
            f"int main(void) {{\n    ring r; int v = 0;\n    ring_init(&r);\n{body}    printf(\"{name}: ok\\n\");\n    return 0;\n}}\n")


RING_TESTS = {
    "ring_push": "    CHECK(ring_push(&r, 1) == 0, 0);\n    CHECK(r.count == 1, (int) r.count);\n",
    "ring_full": "    for (int i = 0; i < 4; i++) ring_push(&r, i);\n    CHECK(ring_push(&r, 9) == -1, 0);\n",
    "ring_wrap": "    for (int i = 0; i < 4; i++) ring_push(&r, i);\n    for (int i = 0; i < 3; i++) ring_pop(&r, &v);\n"
                 "    ring_push(&r, 7);\n    ring_pop(&r, &v);\n    CHECK(v == 3, v);\n",
}


def ring_project(root, broken=False):
    """Writes the ring buffer's sources and tests under `root`; `broken`
    puts a compile error (an undeclared name) and a warning (an unused
    variable) in ring.c."""
    write(os.path.join(root, "src", "ring.h"), RING_H)
    c = RING_C
    if broken:
        c = c.replace("    r->count--;\n", "    size_t unused = 0;\n    r->count -= step;\n")
    write(os.path.join(root, "src", "ring.c"), c)
    for name, body in RING_TESTS.items():
        write(os.path.join(root, "tests", f"{name}.c"), ring_test(name, body))


def gcc_diagnostic(l):
    return re.match(r"^\S+\.[ch]:\d+:\d+: (error|warning): ", l)


def build_system_cases(venv):
    """Round 52: build systems and C tooling no earlier round ran, on a
    small C ring buffer with a bug put in (its wrap-around divides by 3):
    meson and ninja (a compile error, a failing test), CMake (a compile
    error) and CTest (its output on failure and its JUnit XML), SCons (a
    compile error), gprof's flat profile, gcov's branch summary and
    annotated source, GNU time -v, curl -v against a local server's 404
    and `npm run` of a failing script. Each rule was written before any of
    these ran. meson, ninja, cmake and scons in VENV_BIN (from PyPI)."""
    work = tempfile.mkdtemp(prefix="ghost-round52-")
    env = f"PATH={venv}:$PATH"
    meson_build = ("project('ring', 'c')\ninc = include_directories('src')\n"
                   "lib = static_library('ring', 'src/ring.c', include_directories: inc)\n"
                   + "".join(f"test('{n}', executable('{n}', 'tests/{n}.c', include_directories: inc, link_with: lib))\n"
                             for n in RING_TESTS))
    d = new_dir(work, "meson-broken")
    ring_project(d, broken=True)
    write(os.path.join(d, "meson.build"), meson_build)
    t = run(f"{env} meson setup build && {env} ninja -C build", cwd=d)
    case("meson-compile-error", "log", "meson setup build && ninja -C build", t,
         lambda l: gcc_diagnostic(l) or l.startswith("FAILED: ") or l.startswith("ninja: build stopped"),
         "every gcc `file:line:col: error:`/`warning:` line, ninja's `FAILED:` line and `ninja: build stopped`")
    d = new_dir(work, "meson")
    ring_project(d)
    write(os.path.join(d, "meson.build"), meson_build)
    run(f"{env} meson setup build && {env} ninja -C build", cwd=d)
    t = run(f"{env} meson test -C build", cwd=d)
    case("meson-test-ring", "log", "meson test -C build", t,
         lambda l: re.match(r"^\s*\d+/\d+ ", l) or re.match(r"^(Ok|Fail):\s+\d+", l),
         "every test's result line (`N/M name OK|FAIL`) and the `Ok:` and `Fail:` counts")
    cmake_lists = ("cmake_minimum_required(VERSION 3.16)\nproject(ring C)\nenable_testing()\n"
                   "add_library(ring src/ring.c)\ntarget_include_directories(ring PUBLIC src)\n"
                   + "".join(f"add_executable({n} tests/{n}.c)\ntarget_link_libraries({n} ring)\nadd_test(NAME {n} COMMAND {n})\n"
                             for n in RING_TESTS))
    d = new_dir(work, "cmake-broken")
    ring_project(d, broken=True)
    write(os.path.join(d, "CMakeLists.txt"), cmake_lists)
    t = run(f"{env} cmake -S . -B build && {env} cmake --build build", cwd=d)
    case("cmake-build-error", "log", "cmake -S . -B build && cmake --build build", t,
         lambda l: gcc_diagnostic(l) or re.match(r"^g?make(\[\d+\])?: \*\*\* ", l),
         "every gcc `file:line:col: error:`/`warning:` line and every make `***` line")
    d = new_dir(work, "cmake")
    ring_project(d)
    write(os.path.join(d, "CMakeLists.txt"), cmake_lists)
    run(f"{env} cmake -S . -B build && {env} cmake --build build", cwd=d)
    t = run(f"{env} ctest --test-dir build --output-on-failure --output-junit report.xml", cwd=d)
    case("ctest-output-on-failure", "log", "ctest --output-on-failure", t,
         lambda l: re.search(r"Test\s+#\d+: ", l) or "tests passed" in l or l.startswith("assertion failed")
         or l.startswith("The following tests FAILED") or re.match(r"^\s+\d+ - \w+ \(Failed\)", l),
         "every `Test #N: name` result line, the failing test's assertion, the `% tests passed` line and the FAILED list")
    t = open(os.path.join(d, "build", "report.xml")).read()
    case("ctest-junit-xml", "structured", "cat build/report.xml", t, report_facts(t),
         "every failing test's name and message (`report_facts`)")
    d = new_dir(work, "scons")
    ring_project(d, broken=True)
    write(os.path.join(d, "SConstruct"), "env = Environment(CPPPATH=['src'])\nlib = env.StaticLibrary('ring', ['src/ring.c'])\n"
          + "".join(f"env.Program('{n}', ['tests/{n}.c'], LIBS=[lib])\n" for n in RING_TESTS))
    t = run(f"{env} scons -Q", cwd=d)
    case("scons-build-error", "log", "scons -Q", t,
         lambda l: gcc_diagnostic(l) or l.startswith("scons: *** ") or l.startswith("scons: building terminated"),
         "every gcc `file:line:col: error:`/`warning:` line, `scons: ***` and `scons: building terminated`")
    # gprof: a CPU-bound program of a few functions.
    d = new_dir(work, "gprof")
    write(os.path.join(d, "work.c"),
          "#include <stdio.h>\nstatic unsigned long mix(unsigned long x) { for (int i = 0; i < 200; i++) x = x * 6364136223846793005UL + 1; return x; }\n"
          "static unsigned long hash_block(int n) { unsigned long h = 0; for (int i = 0; i < n; i++) h ^= mix(i); return h; }\n"
          "static int is_prime(int n) { if (n < 2) return 0; for (int d = 2; d * d <= n; d++) if (n % d == 0) return 0; return 1; }\n"
          "static int count_primes(int n) { int c = 0; for (int i = 0; i < n; i++) c += is_prime(i); return c; }\n"
          "static double series(int n) { double s = 0; for (int i = 1; i < n; i++) s += 1.0 / ((double) i * i); return s; }\n"
          "int main(void) {\n    unsigned long h = 0; for (int r = 0; r < 40; r++) h += hash_block(20000);\n"
          "    printf(\"%lu %d %f\\n\", h, count_primes(2000000), series(50000000));\n    return 0;\n}\n")
    run("gcc -pg -O1 -fno-inline -o work work.c && ./work", cwd=d)
    t = run("gprof -b work gmon.out", cwd=d, stderr=False)
    flat = t.split("Call graph")[0]
    rows = [l for l in flat.splitlines() if re.match(r"^\s*[\d.]+\s+[\d.]+\s+[\d.]+\s+.*\b\w+$", l)]
    case("gprof-flat-profile", "log", "gprof -b work gmon.out", t, rows,
         "every row of the flat profile (each function with its share of the time)")
    # gcov of the ring tests, built with coverage.
    d = new_dir(work, "gcov")
    ring_project(d)
    run("gcc --coverage -Isrc -c src/ring.c -o ring.o && "
        "gcc --coverage -Isrc -o ring_wrap tests/ring_wrap.c ring.o && ./ring_wrap; "
        "gcc --coverage -Isrc -o ring_full tests/ring_full.c ring.o && ./ring_full", cwd=d)
    t = run("gcov -b -o . src/ring.c", cwd=d)
    case("gcov-branches", "log", "gcov -b src/ring.c", t,
         lambda l: l.strip() != "",
         "every line (a short summary: files, lines, branches and calls executed)")
    gcov_file = next((f for f in glob.glob(os.path.join(d, "*ring.c.gcov"))), None)
    if gcov_file:
        t = open(gcov_file).read()
        case("gcov-annotated", "code", "cat ring.c.gcov", t,
             lambda l: l.lstrip().startswith("#####:") or l.startswith("function "),
             "every line never executed (`#####:`) and every `function … called` line")
    # GNU time's resource report.
    t = run("/usr/bin/time -v python3 -c 'sum(range(10**7))'", cwd=work)
    case("time-verbose", "log", "/usr/bin/time -v python3 -c 'sum(range(10**7))'", t,
         lambda l: re.match(r"^\s+(Maximum resident set size|Elapsed \(wall clock\) time|Exit status|User time|System time)", l),
         "the maximum resident set size, the elapsed, user and system times and the exit status")
    # curl -v against a local server's 404.
    d = new_dir(work, "www")
    server = subprocess.Popen(["python3", "-m", "http.server", "8765", "--bind", "127.0.0.1"], cwd=d,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import time
        time.sleep(1.5)
        t = run("curl -v http://127.0.0.1:8765/missing/report.txt", cwd=d)
    finally:
        server.terminate()
    case("curl-verbose-404", "log", "curl -v http://127.0.0.1:8765/missing/report.txt", t,
         lambda l: re.match(r"^[<>] \S", l) or "Connected to" in l,
         "the `Connected to` line and every request and response header line (`> …`, `< …`)")
    # npm run of a failing script.
    d = new_dir(work, "npm-run")
    write(os.path.join(d, "package.json"), '{"name": "report", "version": "1.0.0", "scripts": {"check": "node check.js"}}\n')
    write(os.path.join(d, "check.js"), "const fs = require('fs');\nfunction load(p) { return JSON.parse(fs.readFileSync(p, 'utf8')); }\n"
          "const cfg = load('./package.json');\nif (!cfg.engines) throw new Error('package.json has no engines field');\n")
    t = run("npm run check", cwd=d)
    case("npm-run-failing", "log", "npm run check", t,
         lambda l: l.startswith("Error: ") or ("check.js:" in l and l.strip().startswith("at ")) or l.startswith("npm error"),
         "the thrown error, its frames in check.js and every `npm error` line")


def listing_tool_cases(venv):
    """Round 53: longer outputs of tools no earlier round ran, listings and
    dumps an agent asks for and verbose builds: pytest --collect-only
    over python-dateutil, `cargo test -- --list` of semver, `unzip -l` of
    a wheel, `dpkg -L git`, `openssl x509 -text` of a CA certificate, `git
    log --stat` of the fzf mirror, ninja -v over a 40-file C project with
    one warning, CTest over 60 tests with two failing, objdump's
    disassembly and gprof's whole report (flat profile and call graph).
    Each rule was written before any of these ran. pytest, meson, ninja
    and cmake in VENV_BIN; needs PyPI."""
    work = tempfile.mkdtemp(prefix="ghost-round53-")
    env = f"PATH={venv}:$PATH"
    # pytest --collect-only -q over python-dateutil's suite.
    d = new_dir(work, "dateutil")
    run("pip download -q --no-binary :all: --no-deps python-dateutil==2.9.0.post0 -d .", cwd=d)
    run("tar xzf python-dateutil-2.9.0.post0.tar.gz", cwd=d)
    src = os.path.join(d, "python-dateutil-2.9.0.post0")
    t = run(f"PYTHONPATH=src {env} pytest --collect-only -q -p no:cacheprovider -W ignore::pytest.PytestUnknownMarkWarning tests", cwd=src)
    files = sorted({m.group(1) for m in re.finditer(r"^(tests/\S+?\.py)::", t, re.M)})
    closing = [l for l in t.splitlines() if re.match(r"^\d+ tests? collected", l)]
    case("pytest-collect-only-dateutil", "log", "pytest --collect-only -q tests", t, files + closing,
         "every test file named and the closing `N tests collected` line")
    # cargo test -- --list of semver from cargo's registry.
    semver = sorted(glob.glob(os.path.expanduser("~/.cargo/registry/src/*/semver-1.*")))
    if semver:
        crate = os.path.join(work, "semver")
        shutil.copytree(semver[-1], crate)
        t = run("cargo test -q -- --list", cwd=crate, stderr=False)
        case("cargo-test-list", "log", "cargo test -- --list", t,
             lambda l: l.endswith(": test") or re.match(r"^\d+ tests?, \d+ benchmarks?$", l),
             "every test named (`name: test`) and each `N tests, M benchmarks` line")
    # unzip -l of a wheel.
    d = new_dir(work, "wheel")
    run("pip download -q --only-binary :all: --no-deps rich==13.9.4 -d .", cwd=d)
    wheel = glob.glob(os.path.join(d, "*.whl"))
    if wheel:
        t = run(f"unzip -l {os.path.basename(wheel[0])}", cwd=d, stderr=False)
        case("unzip-list-wheel", "log", f"unzip -l {os.path.basename(wheel[0])}", t,
             lambda l: re.match(r"^\s*\d+\s+\S+ \S+\s+\S", l) or re.match(r"^\s*\d+\s+\d+ files$", l),
             "every file of the archive with its size and the closing total")
    # The files of an installed package.
    t = run("dpkg -L git", stderr=False)
    case("dpkg-list-files", "log", "dpkg -L git", t,
         lambda l: l.startswith("/usr/bin/") or l.startswith("/usr/lib/git-core/git-") and "/" not in l[len("/usr/lib/git-core/"):],
         "every program the package installs (`/usr/bin/…`, `/usr/lib/git-core/git-…`)")
    # A CA certificate as text.
    cert = sorted(glob.glob("/etc/ssl/certs/*.pem"))[0]
    t = run(f"openssl x509 -in {cert} -text -noout", stderr=False)
    case("openssl-x509-text", "log", "openssl x509 -in cert.pem -text -noout", t,
         lambda l: re.match(r"^\s+(Issuer|Subject|Not Before|Not After|Serial Number|Signature Algorithm|Public Key Algorithm):", l),
         "the issuer, subject, validity, serial number and algorithm lines")
    # git log --stat of the fzf mirror.
    repo = "/work/.mirror/junegunn+fzf/repo"
    if os.path.isdir(repo):
        t = run(f"git -C {repo} log --stat -n 30 HEAD", stderr=False)
        case("git-log-stat-fzf", "log", "git log --stat -n 30", t,
             lambda l: re.match(r"^commit [0-9a-f]{40}", l) or re.match(r"^ \d+ files? changed", l),
             "every commit's `commit <sha>` line and its `N files changed` line")
    # ninja -v over a 40-file C project with one warning.
    d = new_dir(work, "mods")
    for k in range(40):
        body = f"int mod{k}(int x) {{ return x * {k + 1} + {k}; }}\n"
        if k == 27:
            body = f"int mod{k}(int x) {{ int unused; return x * {k + 1} + {k}; }}\n"
        write(os.path.join(d, "src", f"mod{k}.c"), body)
    write(os.path.join(d, "src", "main.c"), "#include <stdio.h>\n" + "".join(f"int mod{k}(int);\n" for k in range(40))
          + "int main(void) { int s = 0;\n" + "".join(f"  s += mod{k}({k});\n" for k in range(40)) + "  printf(\"%d\\n\", s); return 0; }\n")
    write(os.path.join(d, "meson.build"), "project('mods', 'c', default_options: ['warning_level=2'])\n"
          "executable('mods', 'src/main.c', " + ", ".join(f"'src/mod{k}.c'" for k in range(40)) + ")\n")
    run(f"{env} meson setup build", cwd=d)
    t = run(f"{env} ninja -v -C build", cwd=d)
    steps = [l for l in t.splitlines() if re.match(r"^\[\d+/\d+\] ", l)]
    case("ninja-verbose-build", "log", "ninja -v -C build", t,
         lambda l: gcc_diagnostic(l) or (steps and l == steps[-1]),
         "every gcc `warning:` line and the last `[N/M]` step")
    # CTest over 60 tests, two failing.
    d = new_dir(work, "ctest")
    ring_project(d)
    tests = []
    for k in range(60):
        expect = k % 4 if k not in (17, 43) else 9
        write(os.path.join(d, "tests", f"fill_{k}.c"), ring_test(f"fill_{k}",
              f"    for (int i = 0; i < {k % 4 + 1}; i++) ring_push(&r, i);\n    ring_pop(&r, &v);\n"
              f"    CHECK(v == 0 && r.count == {k % 4}, (int) r.count);\n    CHECK({expect} == {k % 4}, {expect});\n"))
        tests.append(f"fill_{k}")
    write(os.path.join(d, "CMakeLists.txt"), "cmake_minimum_required(VERSION 3.16)\nproject(ring C)\nenable_testing()\n"
          "add_library(ring src/ring.c)\ntarget_include_directories(ring PUBLIC src)\n"
          + "".join(f"add_executable({n} tests/{n}.c)\ntarget_link_libraries({n} ring)\nadd_test(NAME {n} COMMAND {n})\n" for n in tests))
    run(f"{env} cmake -S . -B build && {env} cmake --build build -j2", cwd=d)
    t = run(f"{env} ctest --test-dir build --output-on-failure", cwd=d)
    case("ctest-many-tests", "log", "ctest --output-on-failure", t,
         lambda l: re.search(r"Test\s+#\d+: .*\*\*\*Failed", l) or "tests passed" in l or l.startswith("assertion failed")
         or l.startswith("The following tests FAILED") or re.match(r"^\s+\d+ - \w+ \(Failed\)", l),
         "every failing `Test #N: name ***Failed` line, each failing test's assertion, the `% tests passed` line and the FAILED list")
    # objdump's disassembly and gprof's whole report of a small program.
    d = new_dir(work, "prof")
    write(os.path.join(d, "work.c"),
          "#include <stdio.h>\nstatic unsigned long mix(unsigned long x) { for (int i = 0; i < 200; i++) x = x * 6364136223846793005UL + 1; return x; }\n"
          "static unsigned long hash_block(int n) { unsigned long h = 0; for (int i = 0; i < n; i++) h ^= mix(i); return h; }\n"
          "static int is_prime(int n) { if (n < 2) return 0; for (int d = 2; d * d <= n; d++) if (n % d == 0) return 0; return 1; }\n"
          "static int count_primes(int n) { int c = 0; for (int i = 0; i < n; i++) c += is_prime(i); return c; }\n"
          "static double term(int i) { return 1.0 / ((double) i * i); }\n"
          "static double series(int n) { double s = 0; for (int i = 1; i < n; i++) s += term(i); return s; }\n"
          "int main(void) {\n    unsigned long h = 0; for (int r = 0; r < 40; r++) h += hash_block(20000);\n"
          "    printf(\"%lu %d %f\\n\", h, count_primes(2000000), series(50000000));\n    return 0;\n}\n")
    run("gcc -pg -O1 -fno-inline -o work work.c && ./work", cwd=d)
    t = run("objdump -d --no-show-raw-insn work", cwd=d, stderr=False)
    case("objdump-disassemble", "code", "objdump -d --no-show-raw-insn work", t,
         lambda l: re.match(r"^[0-9a-f]+ <(mix|hash_block|is_prime|count_primes|term|series|main)>:$", l),
         "the label line of each of the program's own functions")
    t = run("gprof work gmon.out", cwd=d, stderr=False)
    flat = t.split("Call graph")[0]
    rows = [l for l in flat.splitlines() if re.match(r"^\s*[\d.]+\s+[\d.]+\s+[\d.]+\s+.*\b\w+$", l)]
    primary = [l for l in t.splitlines() if re.match(r"^\[\d+\]\s+[\d.]+", l)]
    case("gprof-call-graph", "log", "gprof work gmon.out", t, rows + primary,
         "every row of the flat profile and every primary line of the call graph (`[N] %time …`)")


def collect_twin_cases(venv):
    """Round 54: a tuning twin of `pytest-collect-only-dateutil` (round 53,
    evaluation half, 3/13 kept when scored; its output stays unread):
    pytest --collect-only -q over packaging's own suite, its rule the
    twin's, written before it ran. pytest and pretend in VENV_BIN; needs
    PyPI."""
    work = tempfile.mkdtemp(prefix="ghost-round54-")
    d = new_dir(work, "packaging")
    run("pip download -q --no-binary :all: --no-deps packaging==24.2 -d .", cwd=d)
    run("tar xzf packaging-24.2.tar.gz", cwd=d)
    src = os.path.join(d, "packaging-24.2")
    # (Its two largest files, 23,000 generated cases, are left out: the
    # listing stays at 3,600 tests.)
    skip = "--ignore=tests/test_version.py --ignore=tests/test_requirements.py"
    t = run(f"PYTHONPATH=src PATH={venv}:$PATH pytest --collect-only -q -p no:cacheprovider {skip} tests", cwd=src)
    files = sorted({m.group(1) for m in re.finditer(r"^(tests/\S+?\.py)::", t, re.M)})
    closing = [l for l in t.splitlines() if re.match(r"^\d+ tests? collected", l)]
    case("pytest-collect-only-packaging", "log", f"pytest --collect-only -q {skip} tests", t, files + closing,
         "every test file named and the closing `N tests collected` line")


def package_install_cases(venv):
    """Round 55: package managers installing and explaining, at their
    normal verbosity, tools and commands no earlier round ran: yarn 1,
    pnpm and `npm ci` installing a project with deprecated dependencies,
    `yarn why`, `pnpm why` and `npm ls` of one package, poetry installing
    from a lock it writes, pipenv installing, `uv pip install` of fifteen
    packages and `pip check` over a broken environment. Each rule was
    written before any of these ran. poetry and pipenv in VENV_BIN, uv
    installed there from PyPI; needs the npm registry and PyPI."""
    work = tempfile.mkdtemp(prefix="ghost-round55-")
    os.chmod(work, 0o777)
    deps = '{"express": "4.19.2", "request": "2.88.2", "uuid": "3.4.0", "chalk": "4.1.2", "commander": "9.5.0", "debug": "4.3.4"}'
    package = '{"name": "shop", "version": "1.0.0", "private": true, "dependencies": ' + deps + '}\n'
    d = new_dir(work, "yarn")
    write(os.path.join(d, "package.json"), package)
    t = run("npx --yes yarn@1.22.22 install --no-progress --non-interactive", cwd=d)
    case("yarn-install-warnings", "log", "yarn install", t,
         lambda l: l.startswith("warning ") or l.startswith("Done in "),
         "every `warning` line and the `Done in` line")
    t = run("npx --yes yarn@1.22.22 why debug", cwd=d)
    case("yarn-why", "log", "yarn why debug", t,
         lambda l: "Found \"" in l or re.match(r'^info Reasons this module exists|^\s*- "', l),
         "every `=> Found` line and each reason the module exists")
    d = new_dir(work, "pnpm")
    write(os.path.join(d, "package.json"), package)
    t = run("npx --yes pnpm@9 install --reporter=append-only", cwd=d)
    case("pnpm-install-listing", "log", "pnpm install", t,
         lambda l: re.match(r"^\+ \S+ \d", l) or " deprecated" in l or l.startswith("Done in "),
         "every `+ name version` line, every deprecation warning and the `Done in` line")
    t = run("npx --yes pnpm@9 why debug", cwd=d, stderr=False)
    case("pnpm-why", "log", "pnpm why debug", t,
         lambda l: re.search(r"\bdebug \d", l),
         "every line naming debug with its version")
    d = new_dir(work, "npm")
    write(os.path.join(d, "package.json"), package)
    run("npm install --no-audit --no-fund -q", cwd=d)
    shutil.rmtree(os.path.join(d, "node_modules"))
    t = run("npm ci --no-fund", cwd=d)
    case("npm-ci-fresh", "log", "npm ci", t,
         lambda l: l.startswith("npm warn deprecated") or re.match(r"^added \d+ packages", l),
         "every `npm warn deprecated` line and the `added N packages` line")
    t = run("npm ls debug", cwd=d, stderr=False)
    case("npm-ls-package", "log", "npm ls debug", t,
         lambda l: "debug@" in l,
         "every line naming debug with its version")
    # Python's package managers, each in a project of its own.
    d = new_dir(work, "poetry")
    write(os.path.join(d, "pyproject.toml"), "[tool.poetry]\nname = \"shop\"\nversion = \"0.1.0\"\ndescription = \"\"\nauthors = [\"a <a@example.org>\"]\npackage-mode = false\n\n"
          "[tool.poetry.dependencies]\npython = \"^3.10\"\nrequests = \"2.32.3\"\nrich = \"13.9.4\"\nclick = \"8.1.7\"\n\n"
          "[build-system]\nrequires = [\"poetry-core\"]\nbuild-backend = \"poetry.core.masonry.api\"\n")
    t = run(f"POETRY_VIRTUALENVS_IN_PROJECT=true {venv}/poetry install --no-interaction --no-ansi", cwd=d)
    # (Poetry resolves through PyPI's JSON API, which some networks do not
    # reach: then it finds nothing, and the case is skipped.)
    if "Installing" in t:
        case("poetry-install-lock", "log", "poetry install", t,
             lambda l: re.match(r"^\s+- Installing \S+ \(", l) or "Writing lock file" in l,
             "every `- Installing name (version)` line and `Writing lock file`")
    else:
        print("poetry-install-lock: poetry resolved nothing (PyPI's JSON API unreachable?), skipped")
    d = new_dir(work, "pipenv")
    t = run(f"PIPENV_VENV_IN_PROJECT=1 PIPENV_NOSPIN=1 PIPENV_COLORBLIND=1 {venv}/pipenv install requests==2.32.3 rich==13.9.4", cwd=d)
    case("pipenv-install", "log", "pipenv install requests rich", t,
         lambda l: "Installing" in l or "Pipfile.lock" in l or "Success" in l or "rror" in l,
         "every `Installing` line, every line naming Pipfile.lock, the success and any error line")
    run(f"{venv}/pip install -q uv")
    d = new_dir(work, "uv")
    write(os.path.join(d, "requirements.txt"), "".join(f"{p}\n" for p in [
        "requests==2.32.3", "rich==13.9.4", "click==8.1.7", "attrs==24.2.0", "pydantic==2.9.2", "httpx==0.27.2",
        "jinja2==3.1.4", "pyyaml==6.0.2", "tomli==2.0.2", "packaging==24.2", "more-itertools==10.5.0",
        "python-dateutil==2.9.0.post0", "typing-extensions==4.12.2", "idna==3.10", "certifi==2024.8.30"]))
    t = run(f"{venv}/uv venv -q .venv && {venv}/uv pip install --python .venv -r requirements.txt", cwd=d)
    case("uv-pip-install-many", "log", "uv pip install -r requirements.txt", t,
         lambda l: re.match(r"^ \+ \S+==\S+", l) or re.match(r"^Installed \d+ packages", l),
         "every ` + name==version` line and the `Installed N packages` line")
    d = new_dir(work, "broken")
    run(f"python3 -m venv {d}/v && {d}/v/bin/pip install -q botocore==1.31.0 && {d}/v/bin/pip install -q --no-deps urllib3==2.2.3 python-dateutil==2.1")
    t = run(f"{d}/v/bin/pip check", cwd=d)
    case("pip-check-broken", "log", "pip check", t,
         lambda l: " has requirement " in l or " requires " in l,
         "every `has requirement` or `requires` line")


def js_project_tool_cases():
    """Round 56: JavaScript tools over a real package's sources (express
    4.19.2 from npm), outputs of a size an agent meets: tsc checking its
    JavaScript strictly, eslint's recommended rules, prettier --check, jest
    with coverage over round 50's cart suite, license-checker's summary,
    madge looking for circular imports, and webpack failing on a missing
    module. Each rule was written before any of these ran. Needs the npm
    registry."""
    work = tempfile.mkdtemp(prefix="ghost-round56-")
    d = new_dir(work, "tools")
    write(os.path.join(d, "package.json"), '{"name": "tools", "version": "1.0.0", "private": true}\n')
    run("npm install -q --no-audit --no-fund express@4.19.2 typescript@5.6 eslint@9 @eslint/js@9 globals@15 prettier@3.3 "
        "jest@29 license-checker@25 madge@8 webpack@5 webpack-cli@5", cwd=d)
    express = os.path.join(d, "express")
    shutil.copytree(os.path.join(d, "node_modules", "express"), express)
    # tsc over express's JavaScript, strictly.
    t = run(f"npx tsc --noEmit --allowJs --checkJs --strict --target es2020 --module commonjs --types node "
            f"--typeRoots {d}/node_modules/@types express/index.js express/lib/*.js express/lib/**/*.js", cwd=d)
    case("tsc-checkjs-express", "log", "tsc --noEmit --allowJs --checkJs --strict express/lib/*.js", t,
         lambda l: re.match(r"^\S+\.js\(\d+,\d+\): error TS\d+: ", l) or re.match(r"^Found \d+ errors?", l),
         "every `file(line,col): error TSnnnn:` line and the `Found N errors` line")
    # eslint's recommended rules over express's sources.
    write(os.path.join(d, "eslint.config.js"), "const js = require('@eslint/js');\nconst globals = require('globals');\n"
          "module.exports = [js.configs.recommended, {languageOptions: {sourceType: 'commonjs', globals: {...globals.node}}}];\n")
    t = run("npx eslint express/index.js express/lib", cwd=d)
    current = [None]

    def eslint_rule(l):
        if l.startswith("/"):
            current[0] = l
            return True
        return re.match(r"^\s+\d+:\d+\s+(error|warning)\s+", l) or re.match(r"^✖ \d+ problems?", l)
    case("eslint-recommended-express", "log", "eslint express/index.js express/lib", t, eslint_rule,
         "every file's header, every `line:col error|warning message rule` row and the `✖ N problems` line")
    # prettier --check over the same sources.
    t = run("npx prettier --check 'express/lib/**/*.js' express/index.js", cwd=d)
    case("prettier-check-express", "log", "prettier --check 'express/lib/**/*.js'", t,
         lambda l: l.startswith("[warn] express/") or "Code style issues" in l,
         "every `[warn] file` line and the closing `Code style issues …` line")
    # jest --coverage over round 50's cart suite.
    write(os.path.join(d, "cart.js"), JS_SUITE["cart.js"])
    write(os.path.join(d, "cart.test.js"), js_cart_tests("const it = test;\n"))
    t = run("npx jest cart.test.js --coverage --ci", cwd=d)
    case("jest-coverage-cart", "log", "jest --coverage", t,
         lambda l: re.match(r"^\s*(All files|cart\.js)\s+\|", l) or re.match(r"^Tests:\s+\d", l) or l.startswith("  ● "),
         "every coverage table row, each failing test's `●` header and the `Tests:` line")
    # license-checker's summary over the installed tree.
    t = run("npx license-checker --summary", cwd=d, stderr=False)
    case("license-checker-summary", "log", "license-checker --summary", t,
         lambda l: re.match(r"^[├└]─ \S.*: \d+$", l),
         "every license with its count")
    # madge looking for circular imports in a package that has them.
    mods = new_dir(work, "cycles")
    for name, imports in [("a", ["b"]), ("b", ["c"]), ("c", ["a"]), ("d", ["e"]), ("e", ["d"]), ("f", ["a", "d"]), ("index", ["f"])]:
        write(os.path.join(mods, f"{name}.js"), "".join(f"require('./{i}');\n" for i in imports) + f"module.exports = '{name}';\n")
    t = run(f"npx --prefix {d} madge --circular {mods}/index.js", cwd=d)
    case("madge-circular", "log", "madge --circular index.js", t,
         lambda l: re.match(r"^\d+\) \S", l) or "circular dependenc" in l.lower(),
         "every cycle (`1) a.js > b.js > c.js`) and the line counting them")
    # webpack failing on a missing module.
    app = new_dir(work, "app")
    write(os.path.join(app, "src", "index.js"), "import { total } from './cart';\nimport fmt from './format-money';\nconsole.log(fmt(total()));\n")
    write(os.path.join(app, "src", "cart.js"), "import { rates } from './rates';\nexport function total() { return rates.eur * 3; }\n")
    t = run(f"npx --prefix {d} webpack --mode production --entry ./src/index.js --output-path dist", cwd=app)
    case("webpack-missing-module", "log", "webpack --mode production", t,
         lambda l: l.startswith("ERROR in ") or l.startswith("Module not found:") or re.search(r"compiled with \d+ errors?", l),
         "every `ERROR in` line, every `Module not found:` line and the `compiled with N errors` line")


def install_twin_cases(venv):
    """Round 57: a tuning twin of `pipenv-install` (round 55, evaluation
    half, called prose when saved as a `.txt`; its output stays unread):
    pipenv installing click and attrs in another project, its rule the
    twin's, written before it ran. pipenv in VENV_BIN; needs PyPI."""
    work = tempfile.mkdtemp(prefix="ghost-round57-")
    d = new_dir(work, "pipenv")
    t = run(f"PIPENV_VENV_IN_PROJECT=1 PIPENV_NOSPIN=1 PIPENV_COLORBLIND=1 {venv}/pipenv install click==8.1.7 attrs==24.2.0", cwd=d)
    case("pipenv-install-click", "log", "pipenv install click attrs", t,
         lambda l: "Installing" in l or "Pipfile.lock" in l or "Success" in l or "rror" in l,
         "every `Installing` line, every line naming Pipfile.lock, the success and any error line")


def json_listing_cases(venv):
    """Round 58: JSON an agent asks tools for, from tools and commands no
    earlier round ran: yarn 1's `list --json` (a tree in JSON lines),
    `pnpm list --json`, `uv pip list --format json`, `npm config ls
    --json`, `cargo metadata --no-deps` of this workspace, rustc's target
    spec (nightly) and Python's build configuration as JSON. Each rule was
    written before any of these ran. uv in VENV_BIN (round 55); needs the
    npm registry and PyPI."""
    work = tempfile.mkdtemp(prefix="ghost-round58-")
    deps = '{"express": "4.19.2", "commander": "9.5.0", "debug": "4.3.4"}'
    package = '{"name": "shop", "version": "1.0.0", "private": true, "dependencies": ' + deps + '}\n'
    d = new_dir(work, "yarn")
    write(os.path.join(d, "package.json"), package)
    run("npx --yes yarn@1.22.22 install --no-progress --non-interactive", cwd=d)
    t = run("npx --yes yarn@1.22.22 list --json", cwd=d, stderr=False)
    names = sorted(set(re.findall(r'"name":"(@?[\w.-]+(?:/[\w.-]+)?@[^"]+)"', t)))
    case("yarn-list-json", "structured", "yarn list --json", t, names,
         "every package in the tree as `name@version`")
    d = new_dir(work, "pnpm")
    write(os.path.join(d, "package.json"), package)
    run("npx --yes pnpm@9 install --reporter=silent", cwd=d)
    t = run("npx --yes pnpm@9 list --json --depth 1", cwd=d, stderr=False)
    tree = json.loads(t)
    keep = []
    for project in tree:
        for name, dep in project.get("dependencies", {}).items():
            keep += [name, dep["version"]]
            for sub, subdep in dep.get("dependencies", {}).items():
                keep.append(sub)
    case("pnpm-list-json", "structured", "pnpm list --json --depth 1", t, keep,
         "every dependency's name and version, and every name one level below")
    d = new_dir(work, "uv")
    run(f"{venv}/uv venv -q .venv && {venv}/uv pip install -q --python .venv requests==2.32.3 rich==13.9.4 httpx==0.27.2", cwd=d)
    t = run(f"{venv}/uv pip list --python .venv --format json", cwd=d, stderr=False)
    keep = [x for p in json.loads(t) for x in (p["name"], p["version"])]
    case("uv-pip-list-json", "structured", "uv pip list --format json", t, keep,
         "every package's name and version")
    t = run("npm config ls --json", cwd=work, stderr=False)
    case("npm-config-json", "structured", "npm config ls --json", t, list(json.loads(t).keys()),
         "every setting's key")
    t = run("cargo metadata --no-deps --format-version 1 --offline", cwd=os.getcwd(), stderr=False)
    meta = json.loads(t)
    keep = [x for p in meta["packages"] for x in [p["name"]] + [tg["name"] for tg in p["targets"]]]
    case("cargo-metadata-no-deps", "structured", "cargo metadata --no-deps --format-version 1", t, keep,
         "every package's name and every target's name")
    t = run("rustc +nightly -Z unstable-options --print target-spec-json", cwd=work, stderr=False)
    case("rustc-target-spec-json", "structured", "rustc +nightly -Z unstable-options --print target-spec-json", t,
         list(json.loads(t).keys()), "every top-level key")
    t = run("python3 -c 'import json, sysconfig; print(json.dumps(sysconfig.get_config_vars(), indent=2, default=str))'",
            cwd=work, stderr=False)
    keep = [k for k, v in json.loads(t).items() if k.isupper() and k.startswith(("CC", "CFLAGS", "LDFLAGS", "prefix", "VERSION", "SOABI", "EXT_SUFFIX", "HOST_GNU_TYPE"))]
    case("python-sysconfig-json", "structured", "python3 -c 'print(json.dumps(sysconfig.get_config_vars()))'", t, keep,
         "the compiler, its flags, the linker's flags, the version, the ABI tag, the extension suffix and the host type")


def c_library(d):
    """A small C library of twelve modules in `d`, two of them with
    something `-Wall -Wextra` warns about, and a program using it."""
    for k in range(12):
        body = f"int shop_part{k}(int x) {{\n    return x * {k + 2} + {k};\n}}\n"
        if k == 4:
            body = "int shop_part4(int x) {\n    int unused_total = 0;\n    return x * 6 + 4;\n}\n"
        if k == 9:
            body = "int shop_part9(int x) {\n    unsigned n = 3;\n    return (x < n) ? 1 : x * 11 + 9;\n}\n"
        write(os.path.join(d, "src", f"part{k}.c"), f"#include \"shop.h\"\n{body}")
    write(os.path.join(d, "src", "shop.h"), "".join(f"int shop_part{k}(int x);\n" for k in range(12)))
    write(os.path.join(d, "src", "main.c"), "#include <stdio.h>\n#include \"shop.h\"\n"
          "int main(void) {\n    printf(\"%d\\n\", shop_part4(2) + shop_part9(3));\n    return 0;\n}\n")


def setting_list_twin_cases():
    """Round 79: a tuning twin of `getconf-all` (round 78, evaluation
    half, 40/320 kept; its output unread): the kernel's counters, a name
    beside a number each, its rule the counterpart's."""
    t = open("/proc/vmstat").read()
    case("cat-proc-vmstat", "log", "cat /proc/vmstat", t,
         [l.split()[0] for l in t.splitlines() if l.strip()], "every setting's name")


def sbcl_crash_facts(text, functions):
    """SBCL's unhandled error (rounds 80 and 81): the condition's line and
    its message (the condition's line may wrap, the thread's name; its
    message is the line after the one closing it, `…}>:`), the innermost
    and outermost frames of the script's own `functions`."""
    lines = text.splitlines()
    names = "|".join(functions)
    ours = [l.strip() for l in lines if re.match(rf"^\d+: \(({names}) ", l)]
    opens = next(i for i, l in enumerate(lines) if l.startswith("Unhandled"))
    closes = next(i for i in range(opens, len(lines)) if lines[i].rstrip().endswith(">:"))
    return [lines[opens], lines[closes + 1].strip(), ours[0], ours[-1]]


def sbcl_compile_facts(text):
    """SBCL's `compile-file` notes (rounds 80 and 81): every `; in:` form,
    every `; caught …:` line with its message, the undefined functions
    and the tally."""
    lines = text.splitlines()
    caught = lambda l: re.match(r"^; caught [A-Z-]+:", l)
    return [l.strip() for i, l in enumerate(lines)
            if caught(l) or re.match(r"^; in: ", l)
            or re.match(r"^;   caught \d+ ", l) or "Undefined function" in l
            or (i > 0 and caught(lines[i - 1]))
            or (i > 0 and "Undefined function" in lines[i - 1])]


def guile_crash_facts(text, script):
    """Guile's backtrace (rounds 80 and 81): the line naming the script's
    file last in the trace and the frame under it, and the error and its
    message (`ERROR:` and `In procedure` lines)."""
    lines = text.splitlines()
    at = max(i for i, l in enumerate(lines) if l.startswith("In ") and l.rstrip().endswith(f"{script}:"))
    keep = [lines[at].strip(), lines[at + 1].strip()]
    return keep + [l.strip() for l in lines if l.startswith("ERROR:") or l.startswith("In procedure")]


KOTLIN_CART = """data class Item(val name: String, val price: Double, val count: Int)

fun total(items: List<Item>): Double {
    val unused = 3
    return items.sumByDouble { it.price * it.qty }
}

fun main(args: Array<String>) {
    val items = listOf(Item("bolt", 0.5, 10), Item("nut", "cheap", 4))
    println(total(items) + discount)
    var label: String = null
}
"""


def held_out_jvm_and_racket_cases():
    """Round 82, held out (every id in the evaluation half; the rules
    written before ghost ran on them): Kotlin's compiler (Debian's kotlin
    1.3) and Racket's `raco test` of rackunit checks, 100 passing and 3
    failing."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "kotlin")
        open(os.path.join(d, "Cart.kt"), "w").write(KOTLIN_CART)
        t = run("kotlinc Cart.kt", cwd=d)
        case("kotlinc-compile-errors", "log", "kotlinc Cart.kt", t,
             lambda l: re.match(r"^\S+\.kt:\d+:\d+: (error|warning): ", l),
             "every diagnostic (file.kt:line:col: level:)")
        d = new_dir(work, "racket")
        checks = ["#lang racket/base", "(require rackunit)", "(define (parse s) (string->number s))"]
        checks += [f'(check-equal? (parse "{i}") {i})' for i in range(100)]
        checks += ['(check-equal? (parse "-5") 5 "negatives")', '(check-true (string? (parse "12")))',
                   '(test-case "splits fields" (check-equal? (length (regexp-split #rx"," "a,b,c")) 2))']
        open(os.path.join(d, "parse-test.rkt"), "w").write("\n".join(checks) + "\n")
        t = run("raco test parse-test.rkt", cwd=d)
        lines = t.splitlines()
        keep = [l.strip() for i, l in enumerate(lines)
                if re.match(r"^(location|message|actual|expected|params):", l)
                or re.search(r"\d+/\d+ test failures", l)
                or (i + 1 < len(lines) and lines[i + 1] == "FAILURE" and not l.startswith("---"))]
        case("raco-test-failures", "log", "raco test parse-test.rkt", t, keep,
             "every failing check's place, message, actual and expected values, the test case's name, the tally")


def racket_twin_cases():
    """Round 83: a tuning twin of round 82's `raco-test-failures` (saved
    as `.txt`, called prose; its output unread): another rackunit suite
    run by `raco test`, its rule the counterpart's."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "racket")
        checks = ["#lang racket/base", "(require rackunit racket/string)",
                  "(define (slug s) (string-downcase (string-replace s \" \" \"-\")))"]
        checks += [f'(check-equal? (slug "Item {i}") "item-{i}")' for i in range(80)]
        checks += ['(check-equal? (slug "A  B") "a-b" "collapses spaces")',
                   '(check-pred string? (string->number "x"))',
                   '(test-case "trims ends" (check-equal? (slug " a ") "a"))',
                   '(test-case "keeps digits" (check-equal? (slug "R2 D2") "r2d2"))']
        open(os.path.join(d, "slug-test.rkt"), "w").write("\n".join(checks) + "\n")
        t = run("raco test slug-test.rkt", cwd=d)
        lines = t.splitlines()
        keep = [l.strip() for i, l in enumerate(lines)
                if re.match(r"^(location|message|actual|expected|params):", l)
                or re.search(r"\d+/\d+ test failures", l)
                or (i + 1 < len(lines) and lines[i + 1] == "FAILURE" and not l.startswith("---"))]
        case("raco-test-failing", "log", "raco test slug-test.rkt", t, keep,
             "every failing check's place, message, actual and expected values, the test case's name, the tally")


BISON_CALC = r"""%{
#include <stdio.h>
int yylex(void);
void yyerror(const char *s) { fprintf(stderr, "%s\n", s); }
%}
%token NUM IDENT IF ELSE THEN
%%
program: stmts ;
stmts: %empty | stmts stmt ;
stmt: expr ';'
    | IF expr THEN stmt
    | IF expr THEN stmt ELSE stmt
    | IDENT '=' expr ';'
    ;
expr: expr '+' expr
    | expr '-' expr
    | expr '*' expr
    | expr '/' expr
    | '-' expr
    | '(' expr ')'
    | call
    | NUM
    | IDENT
    ;
call: IDENT '(' args ')' ;
args: %empty | expr | args ',' expr ;
target: IDENT | call ;
%%
"""

PROTO_ORDER = r"""syntax = "proto3";
package shop.v1;

import "shop/money.proto";
import "google/protobuf/timestamp.proto";

message Order {
  string id = 1;
  repeated LineItem items = 2;
  Money total = 3;
  google.protobuf.Timestamp placed_at = 4;
  Status status = 5;
  string customer_id = 2;
  Address shipping = 6;
  map<string, Discount> discounts = 7;
  optional int32 priority = 8 [default = 3];
}

message LineItem {
  string sku = 1;
  int32 quantity = 2;
  Money unit_price = 3;
  string sku = 4;
}

enum Status {
  PENDING = 1;
  PAID = 2;
  SHIPPED = 3;
}

service Orders {
  rpc Place(Order) returns (OrderReceipt);
  rpc Get(GetOrderRequest) returns (Order);
}
"""

PROTO_MONEY = r"""syntax = "proto3";
package shop.v1;
message Money {
  string currency = 1;
  int64 units = 2;
  int32 nanos = 3;
}
"""

NASM_SUM = r"""; sum an array of dwords
        bits 64
        section .data
values: dd 3, 5, 8, 13, 21
count   equ ($ - values) / 4
        section .text
        global _start
_start:
        xor eax, eax
        mov rcx, count
        lea rsi, [values]
.loop:
        add eax, [rsi]
        add rsi, 4
        dec rcx
        jnz .loop
        mov edi, eax
        mov eax, 60
        syscall
print:
        mov rdx, [rsi + rcx*3]
        push eax
        movzx rax, qword [rsi]
        jmp .done
        mov al, 300
        add [rsi], 1
        shl eax, cl, 2
        db 'unterminated
.done:
        ret
"""

VERILOG_ALU = r"""module alu(input [7:0] a, input [7:0] b, input [2:0] op, output reg [7:0] y, output zero);
  always @(*) begin
    case (op)
      3'd0: y = a + b;
      3'd1: y = a - b;
      3'd2: y = a & b;
      3'd3: y = a | bb;
      3'd4: y = a ^ b;
      3'd5: y = carry_out;
      default: y = 8'd0;
    endcase
  end
  assign zero = (y == 0);
  assign flags = {zero, y[7]};
endmodule

module top;
  wire [7:0] y;
  alu u0(.a(8'd1), .b(8'd2), .op(3'd0), .y(y), .zero(z), .carry(c));
endmodule
"""

VERILOG_ADDER_TB = r"""module adder(input [7:0] a, input [7:0] b, output [8:0] s);
  assign s = a + b + (a[0] & b[0] & a[7]);
endmodule

module tb;
  reg [7:0] a, b;
  wire [8:0] s;
  integer i, errors;
  adder dut(.a(a), .b(b), .s(s));
  initial begin
    errors = 0;
    for (i = 0; i < 64; i = i + 1) begin
      a = i * 3; b = i * 5;
      #1;
      if (s !== a + b) begin
        $display("FAIL t=%0t a=%0d b=%0d: s=%0d, expected %0d", $time, a, b, s, a + b);
        errors = errors + 1;
      end else
        $display("ok   t=%0t a=%0d b=%0d s=%0d", $time, a, b, s);
    end
    if (errors != 0) $fatal(1, "%0d of 64 checks failed", errors);
    $display("all 64 checks passed");
    $finish;
  end
endmodule
"""

LATEX_REPORT = r"""\documentclass{article}
\usepackage{graphicx}
\begin{document}
\title{Quarterly Throughput Report}
\author{Platform Team}
\maketitle
\section{Introduction}\label{sec:intro}
This report covers throughput of the ingestion pipeline, see Section~\ref{sec:method} and Table~\ref{tab:results}.
As discussed in \cite{kafka2011} the partitioning scheme matters.
\section{Method}\label{sec:method}
We measured with \texttt{pipeline-bench-verylongcommandnamewithoutbreaks --iterations=100000 --warmup=5000}.
\begin{tabular}{lll}
a & b & c \\
1 & 2 \\
\end{tabular}
\section{Results}
Throughput rose by 12\% \percent over last quarter.
See Figure~\ref{fig:latency}.
\includegraphics[width=\textwidth]{latency-plot}
\begin{itemize}
\item First point
\item Second point with a very long unbreakable identifier ingestion_pipeline_partition_rebalancer_coordinator_timeout_ms
\end{itemize}
\section{Conclusion}
Future work includes $x^2 + y^2 = z^2 and more.
\end{document}
"""

VHDL_FIFO = r"""library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity fifo is
  generic (DEPTH : natural := 8);
  port (clk, rst : in std_logic;
        push, pop : in std_logic;
        din : in std_logic_vector(7 downto 0);
        dout : out std_logic_vector(7 downto 0);
        full, empty : out std_logic);
end entity;

architecture rtl of fifo is
  type mem_t is array (0 to DEPTH-1) of std_logic_vector(7 downto 0);
  signal mem : mem_t;
  signal head, tail : unsigned(2 downto 0);
  signal count : integer range 0 to DEPTH;
begin
  process (clk)
  begin
    if rising_edge(clk) then
      if rst = '1' then
        head <= 0;
        count <= 0;
      else
        if push = '1' and count < DEPTH then
          mem(to_integer(tail)) <= din;
          tail <= tail + 1;
          count <= count + 1;
        end if;
        if pop = '1' and count > 0 then
          dout <= mem(head);
          head <= head + 1;
          count <= count - 1;
        end if;
      end if;
    end if;
  end process;
  full <= '1' when count = DEPTH else '0';
  empty <= count = 0;
  level <= count;
end architecture;
"""

VHDL_PARITY_TB = r"""library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity parity is
  port (d : in std_logic_vector(7 downto 0); p : out std_logic);
end entity;

architecture rtl of parity is
begin
  process (d)
    variable acc : std_logic;
  begin
    acc := '0';
    for i in 0 to 6 loop
      acc := acc xor d(i);
    end loop;
    p <= acc;
  end process;
end architecture;

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_parity is
end entity;

architecture sim of tb_parity is
  signal d : std_logic_vector(7 downto 0);
  signal p : std_logic;
  function expected(v : std_logic_vector) return std_logic is
    variable acc : std_logic := '0';
  begin
    for i in v'range loop acc := acc xor v(i); end loop;
    return acc;
  end function;
begin
  dut : entity work.parity port map (d => d, p => p);
  stim : process
    variable failures : natural := 0;
  begin
    for n in 0 to 40 loop
      d <= std_logic_vector(to_unsigned(n * 7, 8));
      wait for 10 ns;
      if p /= expected(d) then
        report "parity of " & integer'image(n * 7) & " is " & std_logic'image(p) & ", expected " & std_logic'image(expected(d)) severity error;
        failures := failures + 1;
      else
        report "vector " & integer'image(n) & " ok" severity note;
      end if;
    end loop;
    assert failures = 0 report integer'image(failures) & " of 41 vectors failed" severity failure;
    wait;
  end process;
end architecture;
"""

VERILOG_UART = r"""module uart_tx #(parameter CLKS_PER_BIT = 87) (
  input clk, input rst, input start, input [7:0] data,
  input [3:0] unused_cfg,
  output reg tx, output busy, output reg done
);
  reg [2:0] state;
  reg [7:0] clk_count;
  reg [2:0] bit_index;
  reg [7:0] shift;
  wire debug_tap;
  localparam IDLE = 0, START = 1, DATA = 2, STOP = 3;
  assign busy = state != IDLE;
  always @(posedge clk) begin
    if (rst) begin
      state <= IDLE; tx <= 1; done <= 0;
    end else case (state)
      IDLE: if (start) begin shift <= data; state <= START; clk_count <= 0; end
      START: begin tx <= 0; if (clk_count == CLKS_PER_BIT - 1) begin state <= DATA; clk_count = 0; end else clk_count <= clk_count + 1; end
      DATA: begin
        tx <= shift[bit_index];
        if (clk_count < CLKS_PER_BIT - 1) clk_count <= clk_count + 1;
        else begin clk_count <= 0; bit_index <= bit_index + 1; if (bit_index == 7) state <= STOP; end
      end
      STOP: begin tx <= 1; done <= 1; state <= IDLE; end
    endcase
  end
  wire [3:0] width_mismatch = data;
endmodule
"""

FLEX_SCAN = r"""%option noyywrap
%{
#include "calc.tab.h"
%}
DIGIT   [0-9]
ID      [a-z][a-z0-9]*
%%
{DIGIT}+        { yylval = atoi(yytext); return NUM; }
{ID}            { return IDENT; }
"if"            { return IF; }
{FLOAT}         { return NUM; }
[ \t\n]+        ;
"("|")          { return yytext[0]; }
.               { return yytext[0]; }
[a-z            { return IDENT; }
%%
"""


def held_out_hardware_and_grammar_cases():
    """Round 84, held out (every id in the evaluation half; the rules
    written before ghost ran on them): tools no round had run: bison's
    conflicts with counterexamples, flex, protoc, nasm, Icarus Verilog's
    elaboration errors and a failing testbench, Verilator's lint, GHDL's
    analysis errors and a failing VHDL testbench, pdflatex with errors and
    undefined references, and chktex (Debian's bison, flex,
    protobuf-compiler, nasm, iverilog, verilator, ghdl, texlive-latex-base
    and chktex)."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "bison")
        write(os.path.join(d, "calc.y"), BISON_CALC)
        t = run("bison -Wcounterexamples -o calc.c calc.y", cwd=d)
        case("bison-wcounterexamples", "log", "bison -Wcounterexamples -o calc.c calc.y", t,
             bison_rule,
             "every diagnostic (calc.y[:line.col]: level:) and every counterexample's `Example:` line")
        write(os.path.join(d, "scan.l"), FLEX_SCAN)
        t = run("flex -o scan.c scan.l", cwd=d)
        case("flex-scanner-errors", "log", "flex -o scan.c scan.l", t,
             lambda l: re.match(r"^scan\.l:\d+: ", l), "every diagnostic (scan.l:line:)")
        d = new_dir(work, "proto")
        write(os.path.join(d, "shop", "order.proto"), PROTO_ORDER)
        write(os.path.join(d, "shop", "money.proto"), PROTO_MONEY)
        os.makedirs(os.path.join(d, "gen"))
        t = run("protoc -I. --python_out=gen shop/order.proto", cwd=d)
        case("protoc-undefined-types", "log", "protoc -I. --python_out=gen shop/order.proto", t,
             lambda l: l.startswith("shop/order.proto"), "every diagnostic (shop/order.proto[:line:col]:)")
        d = new_dir(work, "asm")
        write(os.path.join(d, "sum.asm"), NASM_SUM)
        t = run("nasm -f elf64 -w+all sum.asm -o sum.o", cwd=d)
        case("nasm-assemble-errors", "log", "nasm -f elf64 -w+all sum.asm -o sum.o", t,
             lambda l: re.match(r"^sum\.asm:\d+: (error|warning): ", l), "every diagnostic (sum.asm:line: level:)")
        d = new_dir(work, "verilog")
        write(os.path.join(d, "alu.v"), VERILOG_ALU)
        t = run("iverilog -Wall -o alu.vvp alu.v", cwd=d)
        case("iverilog-elaboration-errors", "log", "iverilog -Wall -o alu.vvp alu.v", t,
             lambda l: re.match(r"^alu\.v:\d+: (error|warning): ", l) or "error(s) during elaboration" in l,
             "every diagnostic (alu.v:line: level:) and the count of errors")
        write(os.path.join(d, "tb.v"), VERILOG_ADDER_TB)
        t = run("iverilog -o tb.vvp tb.v && vvp tb.vvp", cwd=d)
        case("vvp-simulation-failures", "log", "iverilog -o tb.vvp tb.v && vvp tb.vvp", t,
             lambda l: l.startswith("FAIL ") or l.startswith("FATAL:"),
             "every failing check the testbench printed and the $fatal line")
        write(os.path.join(d, "uart_tx.v"), VERILOG_UART)
        t = run("verilator --lint-only -Wall uart_tx.v", cwd=d)
        case("verilator-lint-warnings", "log", "verilator --lint-only -Wall uart_tx.v", t,
             lambda l: l.startswith("%Warning-") or l.startswith("%Error"),
             "every diagnostic (%Warning-CODE:, %Error…) and the exit line")
        d = new_dir(work, "vhdl")
        write(os.path.join(d, "fifo.vhd"), VHDL_FIFO)
        t = run("ghdl -a fifo.vhd", cwd=d)
        case("ghdl-analysis-errors", "log", "ghdl -a fifo.vhd", t,
             lambda l: re.match(r"^fifo\.vhd:\d+:\d+: ", l), "every diagnostic (fifo.vhd:line:col:)")
        write(os.path.join(d, "parity.vhd"), VHDL_PARITY_TB)
        t = run("ghdl -a parity.vhd && ghdl -e tb_parity && ghdl -r tb_parity", cwd=d)
        case("ghdl-testbench-asserts", "log", "ghdl -a parity.vhd && ghdl -e tb_parity && ghdl -r tb_parity", t,
             lambda l: "(report error)" in l or "(assertion failure)" in l or ":error:" in l,
             "every `(report error)` line, the failed assertion and ghdl's own error lines")
        d = new_dir(work, "latex")
        write(os.path.join(d, "report.tex"), LATEX_REPORT)
        t = run("pdflatex -interaction=nonstopmode report.tex", cwd=d)
        case("pdflatex-undefined-refs", "log", "pdflatex -interaction=nonstopmode report.tex", t,
             pdflatex_rule("report.pdf"),
             "every TeX error (`!`), its `l.N` place, every LaTeX warning, every over/underfull box and the output line")
        paper = [r"\documentclass{article}", r"\begin{document}"]
        for i, topic in enumerate(["caching", "sharding", "replication", "batching",
                                   "compaction", "indexing", "tracing", "retries"]):
            paper += [r"\section{%s}" % topic.title(),
                      f"The {topic} layer is described in \\cite{{ref{i}}} and evaluated in Section \\ref{{sec:{topic}}}.",
                      f"We use \"{topic}\" as in the original paper... but with changes.",
                      f"Latency dropped from 10ms to 4ms (see Fig. \\ref{{fig:{topic}}}), i.e. a 60% gain.",
                      "Values range from 1 - 10 and  the default is 5 ."]
        write(os.path.join(d, "paper.tex"), "\n".join(paper + [r"\end{document}"]) + "\n")
        t = run("chktex -q paper.tex", cwd=d)
        case("chktex-report", "log", "chktex -q paper.tex", t,
             chktex_rule,
             "every finding's header (Warning N in FILE line N: message)")


BISON_QUERY = r"""%{
int yylex(void);
void yyerror(const char *s);
%}
%token SELECT FROM WHERE AND OR NOT IDENT NUMBER STRING ORDER BY ASC DESC LIMIT LIKE IN
%%
query: SELECT columns FROM IDENT where order limit ;
columns: '*' | column_list ;
column_list: IDENT | column_list ',' IDENT | column_list IDENT ;
where: %empty | WHERE cond ;
cond: cond AND cond
    | cond OR cond
    | NOT cond
    | '(' cond ')'
    | operand '=' operand
    | operand '<' operand
    | operand '>' operand
    | operand LIKE STRING
    | operand IN '(' operand_list ')'
    | IDENT
    ;
operand_list: operand | operand_list ',' operand ;
operand: IDENT | NUMBER | STRING
    | operand '+' operand | operand '-' operand
    | operand '*' operand | operand '/' operand
    | '-' operand ;
order: %empty | ORDER BY sort_keys ;
sort_keys: sort_key | sort_keys ',' sort_key ;
sort_key: IDENT | IDENT ASC | IDENT DESC | operand ;
limit: %empty | LIMIT NUMBER ;
%%
"""

LATEX_THESIS = r"""\documentclass{report}
\usepackage{amsmath}
\usepackage{graphicx}
\usepackage{hyperref}
\begin{document}
\tableofcontents
\chapter{Background}\label{ch:background}
Prior work on consensus \cite{lamport1998,ongaro2014} is summarised in Chapter~\ref{ch:related}.
Equation~\eqref{eq:quorum} gives the quorum size.
\begin{equation}\label{eq:quorum}
q = \lfloor n/2 \rfloor + 1
\end{equation}
\chapter{Design}
The leader election uses \textbf{randomised timeouts} between $150$ and $300\,\mathrm{ms}, see Figure~\ref{fig:timeline}.
\begin{table}
\centering
\begin{tabular}{lr}

nodes & latency \\

3 & 4.1 \\
5 & 6.3 & 1 \\

\end{tabular}
\caption{Latency by cluster size}\label{tab:latency}
\end{table}
The replicated log stores entries in \texttt{/var/lib/raft/segments/0000000000000000001-0000000000000065536.log} files.
\begin{figure}
\includegraphics[width=\linewidth]{timeline}
\caption{Election timeline}\label{fig:timeline}
\end{figure}
\chapter{Evaluation}
We ran \numprint{100000} operations on the cluster described in Section~\ref{sec:setup}.
\begin{enumerate}
\item Throughput
\item Tail latency \end{itemize}
Results are in Table~\ref{tab:results} and discussed by \citet{howard2016}.
\end{document}
"""

LATEX_NOTES = r"""\documentclass{article}
\begin{document}
\section{Setup}\label{sec:setup}
The cluster ran at 21\textdegree{}C as in \cite{cooling2019}, see Section~\ref{sec:results}.

We invoked \texttt{bench-runner-with-an-exceptionally-long-name --duration=3600 --concurrency=512} on each node.
\section{Results}
Latency fell 30\% \reduction over the baseline of Figure~\ref{fig:base}.
\includegraphics{baseline}
\begin{description}
\item[p99] fell from 40 to 12 ms with the new scheduler_backoff_multiplier setting
\end{enumerate}
Cost is $c = n \cdot k and rises linearly.
\end{document}
"""


def hardware_and_grammar_twin_cases():
    """Round 85: tuning twins of round 84's three cases that lost facts or
    were misread (their outputs unread): bison's counterexamples, pdflatex
    stopping on errors, chktex's findings (called prose given the
    command), each another input of the same kind, its rule the
    counterpart's."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "bison")
        write(os.path.join(d, "query.y"), BISON_QUERY)
        t = run("bison -Wcounterexamples -o query.c query.y", cwd=d)
        case("bison-conflicts", "log", "bison -Wcounterexamples -o query.c query.y", t,
             bison_rule,
             "every diagnostic (query.y[:line.col]: level:) and every counterexample's `Example:` line")
        d = new_dir(work, "latex")
        write(os.path.join(d, "thesis.tex"), LATEX_THESIS)
        t = run("pdflatex -interaction=nonstopmode thesis.tex", cwd=d)
        case("pdflatex-thesis", "log", "pdflatex -interaction=nonstopmode thesis.tex", t,
             pdflatex_rule("thesis.pdf"),
             "every TeX error (`!`), its `l.N` place, every LaTeX warning, every over/underfull box and the output line")
        # The fonts it needs made anew (mktexpk's and METAFONT's lines, as
        # on a first run), in a font cache of its own.
        write(os.path.join(d, "notes.tex"), LATEX_NOTES)
        t = run(f"TEXMFVAR={os.path.join(work, 'texmf-var')} pdflatex -interaction=nonstopmode notes.tex", cwd=d)
        case("pdflatex-thesis-2", "log", "pdflatex -interaction=nonstopmode notes.tex", t,
             pdflatex_rule("notes.pdf"),
             "every TeX error (`!`), its `l.N` place, every LaTeX warning, every over/underfull box and the output line")
        notes = [r"\documentclass{article}", r"\begin{document}"]
        for topic in ["parser", "lexer", "optimiser", "linker", "loader", "profiler", "debugger"]:
            notes += [r"\subsection{The %s}" % topic,
                      f"As shown in Table \\ref{{tab:{topic}}} , the {topic} is fast(er) than before.",
                      "It handles 'single' quotes and \"double\" ones ; see also pages 3-7.",
                      f"The {topic} runs in $O(n \\log n)$ time , e.g. for inputs of 10^6 tokens."]
        write(os.path.join(d, "notes.tex"), "\n".join(notes + [r"\end{document}"]) + "\n")
        t = run("chktex -q notes.tex", cwd=d)
        case("chktex-lint", "log", "chktex -q notes.tex", t,
             chktex_rule,
             "every finding's header (Warning N in FILE line N: message)")


ANT_BUILD_XML = r"""<project name="shop" default="jar" basedir=".">
  <property name="src" location="src"/>
  <property name="build" location="build"/>
  <target name="init">
    <mkdir dir="${build}"/>
  </target>
  <target name="compile" depends="init" description="compile the sources">
    <javac srcdir="${src}" destdir="${build}" includeantruntime="false" debug="true">
      <compilerarg value="-Xlint:all"/>
    </javac>
  </target>
  <target name="jar" depends="compile">
    <jar destfile="shop.jar" basedir="${build}"/>
  </target>
</project>
"""

JAVA_SHOP_CART = r"""package shop;

import java.util.ArrayList;
import java.util.List;
import java.util.Date;

public class Cart {
    private List items = new ArrayList();
    private Date created = new Date(2024, 1, 1);

    public void add(Item item) {
        items.add(item);
    }

    public double total() {
        double sum = 0;
        for (Object o : items) {
            Item i = (Item) o;
            sum += i.price() * i.quantity;
        }
        return sum;
    }

    public String receipt() {
        StringBuilder b = new StringBuilder();
        for (Item i : items) {
            b.append(i.name()).append('\n');
        }
        return b.toString();
    }
}
"""

JAVA_SHOP_ITEM = r"""package shop;

public record Item(String name, double price, int count) {
    public Item {
        if (price < 0) throw new IllegalArgumentException("negative price");
    }
    public double subtotal() { return price * count; }
}
"""

JAVA_SHOP_CHECKOUT = r"""package shop;

import java.io.Serializable;

public class Checkout implements Serializable {
    private final Cart cart;
    public Checkout(Cart cart) { this.cart = cart; }
    public long pay(PaymentGateway gateway) {
        return gateway.charge(cart.total());
    }
    @Override
    public String tostring() { return "Checkout(" + cart.total() + ")"; }
}
"""

DOXY_RING_H = r"""/**
 * @file ring.h
 * @brief A fixed-size ring buffer.
 */
#ifndef RING_H
#define RING_H
#include <stddef.h>

/** A ring buffer of bytes. */
struct ring {
    unsigned char *data; /**< storage */
    size_t cap;
    size_t head;
    size_t tail;
};

/**
 * Create a ring.
 * @param cap capacity in bytes
 * @param flags unused
 * @return the ring, or NULL
 */
struct ring *ring_new(size_t capacity);

/**
 * Push a byte.
 * @param r the ring
 * @param b the byte
 * @retval 0 on success
 * @retval -1 when full
 */
int ring_push(struct ring *r, unsigned char b);

int ring_pop(struct ring *r, unsigned char *out);

/** Free it. @param r the ring @param extra nothing */
void ring_free(struct ring *r);

/** Bytes stored. See ring_capacity(). */
size_t ring_len(const struct ring *r);

/** @brief Peek.
 * @param r ring
 * @param at offset, see \ref ring_offsets
 */
int ring_peek(const struct ring *r, size_t at);
#endif
"""

C_REPORT = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <ctype.h>
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>

struct row { char name[32]; double value; };

static size_t parse(const char *line, struct row *out) {
    char *end;
    out->value = strtod(line, &end);
    memcpy(out->name, "row", 4);
    return (size_t)(end - line);
}

int main(int argc, char **argv) {
    struct row r;
    FILE *f = fopen(argc > 1 ? argv[1] : "data.txt", "r");
    char buf[256];
    while (f && fgets(buf, sizeof buf, f)) {
        parse(buf, &r);
        printf("%s %f\n", r.name, r.value);
    }
    uint8_t flags = 0;
    (void)flags;
    return 0;
}
"""

C_STATS = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/types.h>

double mean(const double *xs, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += xs[i];
    return n ? s / n : 0;
}

double stddev(const double *xs, size_t n) {
    double m = mean(xs, n), s = 0;
    for (size_t i = 0; i < n; i++) s += (xs[i] - m) * (xs[i] - m);
    return n ? sqrt(s / n) : 0;
}
"""

AWK_REPORT = r"""BEGIN { FS = ","; total = 0 }
NR == 1 { next }
{
    sales[$1] += $3
    count[$1]++
    total += $3
    if ($4 = "refund") refunds++
    last = substr($2, 0, 4)
}
END {
    for (region in sales)
        printf "%s %d %.2f\n", region, count[region], sales[region] / count[regoin]
    print "total", total, "refunds", refunds
    print avg
    close("summary.txt")
    getline line < "missing.csv"
}
"""

DEB_CONTROL = r"""Package: cartctl
Version: 0.3-1
Architecture: all
Maintainer: Dev <dev@localhost>
Description: command-line tool for carts
Depends: python3
Section: utils
Priority: optional
"""


def held_out_build_and_docs_tool_cases():
    """Round 86, held out (every id in the evaluation half; the rules
    written before ghost ran on them): tools no round had run: Ant
    compiling Java (its `[javac]` tags), Doxygen's warnings,
    include-what-you-use, gawk's lint, hyperfine, ApacheBench and
    lintian (Debian's ant, doxygen, iwyu, gawk, hyperfine,
    apache2-utils and lintian)."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "ant")
        write(os.path.join(d, "build.xml"), ANT_BUILD_XML)
        write(os.path.join(d, "src", "shop", "Cart.java"), JAVA_SHOP_CART)
        write(os.path.join(d, "src", "shop", "Item.java"), JAVA_SHOP_ITEM)
        write(os.path.join(d, "src", "shop", "Checkout.java"), JAVA_SHOP_CHECKOUT)
        t = run("ant", cwd=d)
        case("ant-javac-build-failed", "log", "ant", t,
             lambda l: re.search(r"\[javac\] \S+\.java:\d+: (error|warning): ", l)
             or re.match(r"^\s+\[javac\]\s+(symbol|location):", l)
             or re.match(r"^\s+\[javac\] \d+ (errors?|warnings?)$", l)
             or l.startswith("BUILD FAILED") or re.match(r"^\S+build\.xml:\d+: ", l),
             "every javac diagnostic, its symbol and location lines, the counts, BUILD FAILED and the build file's line")
        d = new_dir(work, "doxygen")
        write(os.path.join(d, "src", "ring.h"), DOXY_RING_H)
        for m in ["codec", "parser", "lexer", "store"]:
            write(os.path.join(d, "src", f"{m}.c"),
                  f'#include "ring.h"\n/** Encode for {m}. @param in input @param len length */\n'
                  f"int {m}_encode(const char *in, size_t len, char *out) {{ (void)in; (void)len; (void)out; return 0; }}\n"
                  f"int {m}_decode(const char *in) {{ (void)in; return 0; }}\n"
                  f"/** \\brief Reset {m} state. \\param force whether to force */\nvoid {m}_reset(void) {{}}\n")
        run("doxygen -g Doxyfile", cwd=d)
        doxyfile = open(os.path.join(d, "Doxyfile")).read()
        for key, value in [("INPUT", "src"), ("EXTRACT_ALL", "NO"), ("WARN_IF_UNDOCUMENTED", "YES"),
                           ("GENERATE_LATEX", "NO")]:
            doxyfile = re.sub(rf"(?m)^{key}\s*=.*$", f"{key} = {value}", doxyfile)
        write(os.path.join(d, "Doxyfile"), doxyfile)
        t = run("doxygen Doxyfile", cwd=d)
        case("doxygen-warnings", "log", "doxygen Doxyfile", t,
             lambda l: re.search(r": (warning|error): ", l) or l.startswith("error: ") or l.startswith("  parameter '"),
             "every warning and error, and the parameters a warning lists under it")
        d = new_dir(work, "iwyu")
        write(os.path.join(d, "report.c"), C_REPORT)
        write(os.path.join(d, "stats.c"), C_STATS)
        t = run("include-what-you-use report.c; include-what-you-use stats.c", cwd=d)
        case("iwyu-suggestions", "log", "include-what-you-use report.c; include-what-you-use stats.c", t,
             lambda l: l.startswith("- #include") or l.endswith("should add these lines:")
             or l.endswith("should remove these lines:") or re.match(r"^\S+\.c:\d+:\d+: (warning|error): ", l),
             "every include to remove, each file's add/remove headers and every compiler diagnostic")
        d = new_dir(work, "awk")
        write(os.path.join(d, "report.awk"), AWK_REPORT)
        rng = __import__("random").Random(4)
        rows = ["region,date,amount,kind"] + [
            f"{rng.choice(['north', 'south', 'east', 'west'])},2024-0{i % 9 + 1}-1{i % 9},"
            f"{rng.randint(5, 500)},{rng.choice(['sale', 'sale', 'refund'])}" for i in range(60)]
        write(os.path.join(d, "sales.csv"), "\n".join(rows) + "\n")
        t = run("gawk --lint -f report.awk sales.csv", cwd=d)
        keep = gawk_lint_facts(t)
        case("gawk-lint-warnings", "log", "gawk --lint -f report.awk sales.csv", t, keep,
             "the first of each distinct warning (script line and message, the record number aside) and the fatal error")
        d = new_dir(work, "hyperfine")
        write(os.path.join(d, "nums.txt"), "\n".join(str((i * 7919) % 50000) for i in range(50000)) + "\n")
        t = run("hyperfine --style basic --warmup 2 --runs 20 'sort -n nums.txt' 'sort -g nums.txt' 'sort nums.txt'", cwd=d)
        case("hyperfine-compare", "log",
             "hyperfine --style basic --warmup 2 --runs 20 'sort -n nums.txt' 'sort -g nums.txt' 'sort nums.txt'", t,
             lambda l: re.match(r"^Benchmark \d+: ", l) or "Time (mean" in l or "Range (min" in l
             or "times faster than" in l or l.strip().endswith(" ran"),
             "every benchmark's name, mean, range and the summary's comparisons")
        d = new_dir(work, "www")
        write(os.path.join(d, "index.html"), "hello\n")
        server = subprocess.Popen(["python3", "-m", "http.server", "18734", "--bind", "127.0.0.1", "--directory", d],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            __import__("time").sleep(1)
            t = run("ab -n 300 -c 5 http://127.0.0.1:18734/index.html", cwd=d)
        finally:
            server.terminate()
        case("apache-bench-report", "log", "ab -n 300 -c 5 http://127.0.0.1:18734/index.html", t,
             lambda l: re.match(r"^(Complete requests|Failed requests|Requests per second|Time per request|Non-2xx responses):", l)
             or re.match(r"^Total:\s", l) or re.match(r"^\s+(50|95|99|100)%\s", l),
             "the request counts, failures, rate, time per request, the total connection times and the 50/95/99/100% times")
        d = new_dir(work, "deb")
        write(os.path.join(d, "pkg", "DEBIAN", "control"), DEB_CONTROL)
        write(os.path.join(d, "pkg", "usr", "bin", "cartctl"), '#!/usr/bin/python3\nprint("cart")\n')
        os.chmod(os.path.join(d, "pkg", "usr", "bin", "cartctl"), 0o755)
        write(os.path.join(d, "pkg", "usr", "share", "doc", "cartctl", "README"), "cartctl 0.3\n")
        os.chmod(os.path.join(d, "pkg", "usr", "share", "doc", "cartctl", "README"), 0o666)
        run("dpkg-deb --root-owner-group --build pkg cartctl_0.3-1_all.deb", cwd=d)
        t = run("lintian --info cartctl_0.3-1_all.deb", cwd=d)
        case("lintian-findings", "log", "lintian --info cartctl_0.3-1_all.deb", t,
             lintian_rule, "every tag lintian reports (E:/W:/I:/P: package: tag …)")


AWK_TALLY = r"""BEGIN { OFS = "\t" }
/^#/ { next }
{
    hits[$2]++
    bytes[$2] += $5
    if ($3 ~ "^5") errors++
    if (length($4) > maxlen) maxlen = length($4)
    path = substr($4, 0)
    split($1, when, ":")
    hour = when[2] + 0
    byhour[hour] += 1
}
END {
    for (h = 0; h < 24; h++) print h, byhour[h]
    for (host in hits) print host, hits[host], bytes[host] / hits[hots]
    print "errors", errors, "longest", maxlen, "avg", total / NR
}
"""

DEB_CONTROL_LEDGER = r"""Package: ledger-tool
Version: 1.2
Architecture: amd64
Maintainer: Ops Team <ops@example.invalid>
Description: Ledger reconciliation tool.
 Reconciles ledgers.
Section: misc
Priority: extra
Depends: libc6, python
"""


def build_and_docs_twin_cases():
    """Round 87: tuning twins of round 86's two cases that lost facts or
    did not shrink (their outputs unread): gawk's lint over many records
    and lintian's explained tags, each another input of the same kind,
    its rule the counterpart's."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "awk")
        write(os.path.join(d, "tally.awk"), AWK_TALLY)
        rng = __import__("random").Random(9)
        rows = ["# time host status path bytes"] + [
            f"2024-05-0{i % 7 + 1}:{rng.randint(0, 23)}:00 {rng.choice(['web1', 'web2', 'api1'])} "
            f"{rng.choice(['200', '200', '404', '503'])} /p/{rng.randint(1, 40)} {rng.randint(100, 9000)}"
            for i in range(70)]
        write(os.path.join(d, "access.log"), "\n".join(rows) + "\n")
        t = run("gawk --lint -f tally.awk access.log", cwd=d)
        keep = gawk_lint_facts(t)
        case("gawk-lint-report", "log", "gawk --lint -f tally.awk access.log", t, keep,
             "the first of each distinct warning (script line and message, the record number aside) and the fatal error")
        d = new_dir(work, "deb")
        write(os.path.join(d, "pkg", "DEBIAN", "control"), DEB_CONTROL_LEDGER)
        write(os.path.join(d, "pkg", "usr", "local", "bin", "ledger-tool"), "#!/bin/sh\necho ledger\n")
        os.chmod(os.path.join(d, "pkg", "usr", "local", "bin", "ledger-tool"), 0o775)
        write(os.path.join(d, "pkg", "etc", "ledger.conf"), "rates=zero\n")
        run("dpkg-deb --root-owner-group --build pkg ledger-tool_1.2_amd64.deb", cwd=d)
        t = run("lintian --info ledger-tool_1.2_amd64.deb", cwd=d)
        case("lintian-tags", "log", "lintian --info ledger-tool_1.2_amd64.deb", t,
             lintian_rule, "every tag lintian reports (E:/W:/I:/P: package: tag …)")


BUN_CART_TS = r"""export type Line = { sku: string; price: number; qty: number };
export function total(lines: Line[]): number {
  return lines.reduce((s, l) => s + l.price * l.qty, 0);
}
export function discount(amount: number, code: string): number {
  if (code === "HALF") return amount / 2;
  if (code === "TENOFF") return amount - 10;
  throw new Error(`unknown code ${code}`);
}
export function normalizeSku(sku: string): string {
  return sku.trim().toUpperCase();
}
"""

JS_INVENTORY = r"""class Inventory {
  constructor() { this.items = new Map(); }
  add(sku, n) { this.items.set(sku, (this.items.get(sku) || 0) + n); }
  remove(sku, n) {
    const have = this.items.get(sku) || 0;
    if (n > have) throw new RangeError(`only ${have} of ${sku} left`);
    this.items.set(sku, have - n);
  }
  count(sku) { return this.items.get(sku); }
  skus() { return [...this.items.keys()].sort(); }
}
module.exports = { Inventory };
"""

PY_BENCH_CODECS = r"""import base64, json, zlib, hashlib

DATA = bytes(range(256)) * 64

def test_base64_encode(benchmark):
    benchmark(base64.b64encode, DATA)

def test_base64_decode(benchmark):
    enc = base64.b64encode(DATA)
    benchmark(base64.b64decode, enc)

def test_zlib_compress(benchmark):
    benchmark(zlib.compress, DATA)

def test_zlib_decompress(benchmark):
    c = zlib.compress(DATA)
    benchmark(zlib.decompress, c)

def test_json_dumps(benchmark):
    obj = [{"id": i, "name": f"n{i}"} for i in range(200)]
    benchmark(json.dumps, obj)

def test_sha256(benchmark):
    benchmark(lambda: hashlib.sha256(DATA).hexdigest())
"""

PY_NOSE_LEDGER = r"""import unittest

def balance(entries):
    return sum(e["amount"] for e in entries if e.get("kind") != "void")

def parse_amount(text):
    return round(float(text.replace(",", "")), 2)

class BalanceTests(unittest.TestCase):
    def test_empty(self):
        self.assertEqual(balance([]), 0)

    def test_voids_are_skipped(self):
        self.assertEqual(balance([{"amount": 5}, {"amount": 7, "kind": "void"}]), 5)

    def test_refunds_subtract(self):
        self.assertEqual(balance([{"amount": 5}, {"amount": 2, "kind": "refund"}]), 3)

    def test_missing_amount(self):
        self.assertEqual(balance([{"kind": "sale"}]), 0)

class ParseTests(unittest.TestCase):
    def test_plain(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertEqual(parse_amount(f"{i}.50"), i + 0.5)

    def test_thousands(self):
        self.assertEqual(parse_amount("1,234.5"), 1234.5)

    def test_euro_format(self):
        self.assertEqual(parse_amount("1.234,50"), 1234.5)

for n in range(25):
    setattr(BalanceTests, f"test_single_{n}", lambda self, n=n: self.assertEqual(balance([{"amount": n}]), n))
"""

DJ_BASE_HTML = r"""<!DOCTYPE html>
<html>
<head>
<title>{{ title }}</title>
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<div class="nav"><a href="/">Home</a> <a href="/cart">Cart</a></div>
<img src="/static/logo.png">
{% block content %}{% endblock %}
<script src="/static/app.js"></script>
</body>
</html>
"""

DJ_CART_HTML = r"""{% extends "base.html" %}
{% block content %}
<h1>Your cart</h1>
<table>
{% for line in lines %}
<tr><td>{{line.sku}}</td><td>{{ line.qty }}</td><td style="color: red">{{ line.total }}</td></tr>
{% endfor %}
</table>
<form method="post" action="/checkout"><input type="submit" value="Pay"></form>
<a href="javascript:void(0)" onclick="clearCart()">Clear</a>
<img src="{{ banner }}" alt="">
{% endblock %}
"""


def held_out_js_and_python_tool_cases(venv, js):
    """Round 88, held out (every id in the evaluation half; the rules
    written before ghost ran on them): test runners and reports no round
    had run: bun's test runner, Jasmine, radon's complexity ranks,
    interrogate's docstring coverage, pytest-benchmark's table, nose2 and
    djLint. Python tools from `venv` (radon, interrogate, pytest,
    pytest-benchmark, nose2, djlint); bun and jasmine from npm in `js`."""
    bin_ = os.path.join(os.path.abspath(js), "node_modules", ".bin")
    venv = os.path.abspath(venv)
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "bun")
        write(os.path.join(d, "cart.ts"), BUN_CART_TS)
        tests = ['import { expect, test, describe } from "bun:test";',
                 'import { total, discount, normalizeSku } from "./cart";', "", 'describe("total", () => {']
        tests += [f'  test("sums {i} lines", () => {{ expect(total(Array.from({{length: {i}}}, '
                  f'() => ({{sku: "a", price: 2, qty: 1}})))).toBe({2 * i}); }});' for i in range(30)]
        tests += ['  test("rounds cents", () => { expect(total([{sku: "a", price: 0.1, qty: 3}])).toBe(0.3); });', "});",
                  'describe("discount", () => {',
                  '  test("halves", () => { expect(discount(10, "HALF")).toBe(5); });',
                  '  test("never negative", () => { expect(discount(5, "TENOFF")).toBeGreaterThanOrEqual(0); });',
                  '  test("rejects unknown codes politely", () => { expect(discount(5, "BOGUS")).toBe(5); });', "});",
                  'test("normalizes skus", () => { expect({ sku: normalizeSku(" ab-1 ") }).toEqual({ sku: "AB1" }); });']
        write(os.path.join(d, "cart.test.ts"), "\n".join(tests) + "\n")
        t = run(f"{bin_}/bun test", cwd=d)
        case("bun-test-failures", "log", "bun test", t,
             lambda l: l.startswith("(fail)") or l.startswith("error: ") or re.match(r"^(Expected|Received): ", l)
             or re.match(r"^[-+]   \S", l) or re.match(r"^ \d+ (pass|fail)$", l) or l.startswith("Ran "),
             "every failing test, its error and expected/received lines or diff, the pass/fail counts and the tally")
        d = new_dir(work, "jasmine")
        write(os.path.join(d, "inventory.js"), JS_INVENTORY)
        spec = ['const { Inventory } = require("../inventory");', "", 'describe("Inventory", () => {', "  let inv;",
                "  beforeEach(() => { inv = new Inventory(); });"]
        spec += [f'  it("adds batch {i}", () => {{ inv.add("s{i}", {i + 1}); expect(inv.count("s{i}")).toBe({i + 1}); }});'
                 for i in range(40)]
        spec += ['  it("counts unknown skus as zero", () => { expect(inv.count("nope")).toBe(0); });',
                 '  it("removes stock", () => { inv.add("a", 2); inv.remove("a", 1); expect(inv.count("a")).toEqual(1); });',
                 '  it("refuses to oversell", () => { inv.add("a", 1); expect(() => inv.remove("a", 2)).toThrowError(Error, "out of stock"); });',
                 '  it("lists skus in order", () => { inv.add("b", 1); inv.add("a", 1); expect(inv.skus()).toEqual(["a", "c"]); });',
                 '  xit("reserves stock", () => {});', "});"]
        write(os.path.join(d, "spec", "inventory.spec.js"), "\n".join(spec) + "\n")
        write(os.path.join(d, "spec", "support", "jasmine.json"),
              '{"spec_dir": "spec", "spec_files": ["**/*[sS]pec.js"]}\n')
        t = run(f"{bin_}/jasmine --random=false", cwd=d)
        lines = t.splitlines()
        keep = [l for i, l in enumerate(lines)
                if re.match(r"^\d+\) ", l) or (i > 0 and lines[i - 1].strip() == "Message:")
                or re.search(r"inventory\.spec\.js:\d+:\d+", l) or re.match(r"^\d+ specs, ", l)]
        case("jasmine-failing", "log", "npx jasmine --random=false", t, keep,
             "every failing (and pending) spec's title, its expectation message, its place in the spec, the tally")
        d = new_dir(work, "py")
        shutil.copytree(os.path.join(STDLIB, "email"), os.path.join(d, "email"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        t = run(f"{venv}/radon cc -s -a email/", cwd=d)
        keep = radon_facts(t)
        case("radon-cc-report", "log", "radon cc -s -a email/", t, keep,
             "every block ranked C to F with its file, the count of blocks and the average")
        t = run(f"{venv}/interrogate -v --fail-under 80 email/", cwd=d)
        case("interrogate-fail-under", "log", "interrogate -v --fail-under 80 email/", t,
             lambda l: re.match(r"^\| \S+\.py\s+\|", l) or l.startswith("| TOTAL") or "RESULT:" in l,
             "every file's row of the summary, the total and the result")
        write(os.path.join(d, "test_codecs.py"), PY_BENCH_CODECS)
        cmd = "pytest -q test_codecs.py --benchmark-columns=min,max,mean,stddev,median,ops,rounds"
        t = run(f"{venv}/{cmd}", cwd=d)
        case("pytest-benchmark-table", "log", cmd, t,
             lambda l: l.startswith("test_") or l.startswith("Name (time in") or re.search(r"\d+ passed", l),
             "every benchmark's row, the table's header and the tally")
        write(os.path.join(d, "test_ledger.py"), PY_NOSE_LEDGER)
        t = run(f"{venv}/nose2 -v", cwd=d)
        case("nose2-failing", "log", "nose2 -v", t,
             lambda l: re.match(r"^(ERROR|FAIL): ", l) or re.match(r"^\w+(Error|Exception): ", l)
             or re.match(r'^\s+File ".*test_ledger\.py", line \d+', l) or l.startswith("Ran ") or l.startswith("FAILED ("),
             "every failing and erroring test, its exception, its frames in the test file, the count run and the tally")
        write(os.path.join(d, "templates", "base.html"), DJ_BASE_HTML)
        write(os.path.join(d, "templates", "cart.html"), DJ_CART_HTML)
        t = run(f"{venv}/djlint templates --lint", cwd=d)
        case("djlint-report", "log", "djlint templates --lint", t,
             lambda l: re.match(r"^[A-Z]\d{3} \d+:\d+ ", l) or re.match(r"^\S+\.html$", l) or l.startswith("Linted "),
             "every finding, each file's name above its findings and the tally")


def js_and_python_tool_twin_cases(venv):
    """Round 89: a tuning twin of round 88's radon report (facts lost; its
    output unread): `radon cc -s -a` of another package of the standard
    library, its rule the counterpart's. radon from `venv`."""
    venv = os.path.abspath(venv)
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "py")
        shutil.copytree(os.path.join(STDLIB, "asyncio"), os.path.join(d, "asyncio"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        t = run(f"{venv}/radon cc -s -a asyncio/", cwd=d)
        keep = radon_facts(t)
        case("radon-complexity", "log", "radon cc -s -a asyncio/", t, keep,
             "every block ranked C to F with its file, the count of blocks and the average")


C_NET_UNSAFE = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char last_user[32];

int greet(const char *name) {
    char buf[64];
    strcpy(buf, "hello ");
    strcat(buf, name);
    sprintf(last_user, "%s", name);
    printf(buf);
    return (int)strlen(buf);
}

int run_hook(const char *script) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "sh %s", script);
    return system(cmd);
}

int read_config(const char *path) {
    char line[80];
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "tmp=", 4) == 0) {
            char *dir = getenv("TMPDIR");
            char tmp[40];
            strcpy(tmp, dir ? dir : "/tmp");
            mktemp(tmp);
        }
    }
    fclose(f);
    return access(path, W_OK);
}

int main(int argc, char **argv) {
    char name[16];
    if (argc > 1) strncpy(name, argv[1], sizeof name);
    gets(name);
    srand(42);
    return greet(name) + rand() % 2 + run_hook("post.sh") + read_config("app.conf");
}
"""

C_MASSIF_GROW = r"""#include <stdlib.h>
#include <string.h>
static char *keep[64];
static void *make_buffer(size_t n) { char *p = malloc(n); memset(p, 1, n); return p; }
static void load_index(int k) { keep[k] = make_buffer(4096 * (k + 1)); }
static void load_cache(void) { for (int i = 0; i < 20; i++) keep[32 + i] = make_buffer(20000); }
int main(void) {
    for (int k = 0; k < 24; k++) load_index(k);
    load_cache();
    for (int k = 0; k < 12; k++) { free(keep[k]); keep[k] = 0; }
    return 0;
}
"""

PHP_CART_MD = r"""<?php
class Cart
{
    private $items = [];
    private $unusedField;

    public function add($sku, $qty, $price, $note = null)
    {
        $x = 1;
        if ($qty > 0) {
            if ($price > 0) {
                if (isset($this->items[$sku])) {
                    $this->items[$sku]['qty'] += $qty;
                } else {
                    $this->items[$sku] = ['qty' => $qty, 'price' => $price];
                }
            } else {
                throw new \InvalidArgumentException('price');
            }
        } else {
            return false;
        }
        return true;
    }

    public function t()
    {
        $sum = 0;
        foreach ($this->items as $sku => $i) {
            $sum += $i['qty'] * $i['price'];
        }
        return $sum;
    }

    public static function make() { return new Cart(); }
}
"""

R_STATS_LINT = r"""summarise_sales = function(df){
  x <- df[df$amount>0,]
  Total <- sum(x$amount)
  avg=mean(x$amount)
  if(nrow(x)==0) return(NULL)
  result <- list(total = Total, mean = avg, n = nrow(x) )
  return (result)
}
very_long_function_name_for_reporting_quarterly_results <- function(sales_data_frame, region_name_filter, include_refunds_flag = FALSE) {
  T
}
"""

MD_LEDGR_README = r"""# Ledgr

Ledgr reconcilies bank statments against the general ledger. It reads CSV
exports, normalises the payee feild and flags discrepencies for review.

## Instalation

Run `pip install ledgr` and then `ledgr init --recieve-dir ./inbox`.

## Configuraton

The `ledgr.toml` file sets the tolerence for rounding and the acount map.
"""

JS_LEDGR_APP = r"""// recieve the paylod and normalise it
function normaliseRecord(recrd) {
  const amnt = Number(recrd.amount);
  return { payee: recrd.payee.trim(), amnt, curency: recrd.currency || "EUR" };
}
module.exports = { normaliseRecord };
"""


def bison_rule(l):
    """bison's must-keep lines: every diagnostic (FILE.y[:line.col]:
    level:) and every counterexample's `Example:` line (rounds 84-85)."""
    return (re.match(r"^\S+\.y(:[\d.\-]+)?: (warning|error|note): ", l)
            or re.match(r"^\s+(First |Second )?[Ee]xample:", l))


def pdflatex_rule(pdf):
    """pdflatex's must-keep lines (rounds 84-85): every TeX error (`!`),
    its `l.N` place, every LaTeX warning, every over/underfull box and the
    line saying `pdf` was written."""
    return lambda l: (l.startswith("!") or re.match(r"^l\.\d+ ", l) or l.startswith("LaTeX Warning:")
                      or re.match(r"^(Overfull|Underfull) \\[hv]box", l)
                      or l.startswith(f"Output written on {pdf}"))


def chktex_rule(l):
    """chktex's must-keep lines: every finding's header (rounds 84-85)."""
    return re.match(r"^(Warning|Error) \d+ in \S+ line \d+: ", l)


def gawk_lint_facts(text):
    """gawk --lint's must-keep facts (rounds 86-87): the first of each
    distinct warning (script line and message, the record number aside)
    and the fatal error."""
    seen, keep = set(), []
    for l in text.splitlines():
        key = re.sub(r"FNR=\d+", "FNR=", l)
        if l.startswith("gawk: ") and key not in seen:
            seen.add(key)
            keep.append(l)
    return keep


def lintian_rule(l):
    """lintian's must-keep lines: every tag it reports (rounds 86-87)."""
    return re.match(r"^[EWIPXO]: \S+: ", l)


def radon_facts(text):
    """radon cc's must-keep facts (rounds 88-89): every block ranked C to
    F with its file, the count of blocks and the average."""
    keep, header = [], None
    for l in text.splitlines():
        if not l.startswith(" ") and l.strip():
            header = l
        if re.search(r" - [C-F] \(\d+\)$", l):
            keep += [header, l] if header not in keep else [l]
        if re.match(r"^\d+ blocks .* analyzed\.$", l) or l.startswith("Average complexity:"):
            keep.append(l)
    return keep


def flawfinder_rule(l):
    """flawfinder's must-keep lines (rounds 90-91): every hit's header
    (place, risk level, category, function) and the count of hits."""
    return re.match(r"^\S+\.c:\d+:\d+:\s+\[\d\] \(\w+\) \w+:", l) or l.startswith("Hits = ")


def bisect_facts(text, subject):
    """`git bisect run`'s must-keep facts (rounds 94-95): the first bad
    commit's line, its subject (the first line after it starting with
    `subject`) and bisect's verdict."""
    lines = text.splitlines()
    keep = [l for l in lines if "is the first bad commit" in l or l.startswith("bisect found")]
    at = next(i for i, l in enumerate(lines) if "is the first bad commit" in l)
    return keep + [next(l for l in lines[at:] if l.startswith(subject))]


def massif_peak_facts(text):
    """ms_print's must-keep facts: the command, the list of detailed
    snapshots and every allocation line (`->…`) of the peak snapshot's
    tree."""
    lines = text.splitlines()
    keep = [l for l in lines if l.startswith("Command:") or l.strip().startswith("Detailed snapshots:")]
    peak = re.search(r"(\d+) \(peak\)", text).group(1)
    row = next(i for i, l in enumerate(lines) if re.match(rf"^\s+{peak}\s+[\d,]+\s", l))
    for l in lines[row + 1:]:
        if re.match(r"^\s+\d+\s+[\d,]+\s", l) or l.startswith("---"):
            break
        if re.match(r"^[\s|]*->", l):
            keep.append(l)
    return keep


def held_out_analyser_and_linter_cases(js):
    """Round 90, held out (every id in the evaluation half; the rules
    written before ghost ran on them): analysers and linters no round had
    run: Checkstyle, flawfinder, Valgrind's massif read by ms_print, PHP
    Mess Detector, lintr, CSpell and commitlint (Debian's checkstyle,
    flawfinder, valgrind, phpmd and r-cran-lintr; cspell, @commitlint/cli
    and @commitlint/config-conventional from npm in `js`)."""
    js = os.path.abspath(js)
    bin_ = os.path.join(js, "node_modules", ".bin")
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "java")
        for name, text in [("Cart.java", JAVA_SHOP_CART), ("Item.java", JAVA_SHOP_ITEM), ("Checkout.java", JAVA_SHOP_CHECKOUT)]:
            write(os.path.join(d, "src", name), text)
        t = run("checkstyle -c /sun_checks.xml src/", cwd=d)
        case("checkstyle-violations", "log", "checkstyle -c /sun_checks.xml src/", t,
             lambda l: re.match(r"^\[(ERROR|WARN)\] ", l) or l.startswith("Checkstyle ends with"),
             "every violation ([ERROR]/[WARN] path:line[:col]: message [Check]) and the count")
        d = new_dir(work, "c")
        write(os.path.join(d, "net.c"), C_NET_UNSAFE)
        t = run("flawfinder --columns net.c", cwd=d)
        case("flawfinder-c-audit", "log", "flawfinder --columns net.c", t,
             flawfinder_rule,
             "every hit's header (place, risk level, category, function) and the count of hits")
        d = new_dir(work, "massif")
        write(os.path.join(d, "grow.c"), C_MASSIF_GROW)
        run("gcc -g -O0 -o grow grow.c && valgrind --tool=massif --massif-out-file=massif.out ./grow", cwd=d)
        t = run("ms_print massif.out", cwd=d)
        case("massif-ms-print", "log", "ms_print massif.out", t, massif_peak_facts(t),
             "the command, the detailed snapshots and every allocation line of the peak snapshot's tree")
        d = new_dir(work, "php")
        write(os.path.join(d, "src", "Cart.php"), PHP_CART_MD)
        t = run("phpmd src text cleancode,codesize,naming,unusedcode", cwd=d)
        case("phpmd-report", "log", "phpmd src text cleancode,codesize,naming,unusedcode", t,
             lambda l: re.match(r"^\S+\.php:\d+\s+\w+\s+", l), "every violation (path:line rule message)")
        d = new_dir(work, "r")
        write(os.path.join(d, "stats.R"), R_STATS_LINT)
        t = run("Rscript -e 'lintr::lint(\"stats.R\")'", cwd=d)
        case("lintr-report", "log", "Rscript -e 'lintr::lint(\"stats.R\")'", t,
             lambda l: re.match(r"^\S+\.R:\d+:\d+: \w+: \[\w+\] ", l), "every lint (path:line:col: level: [linter] message)")
        d = new_dir(work, "docs")
        write(os.path.join(d, "README.md"), MD_LEDGR_README)
        write(os.path.join(d, "app.js"), JS_LEDGR_APP)
        t = run(f"{bin_}/cspell lint --no-progress '**/*.{{md,js}}'", cwd=d)
        case("cspell-report", "log", "npx cspell lint --no-progress '**/*.{md,js}'", t,
             lambda l: re.match(r"^\S+:\d+:\d+ - Unknown word", l) or l.startswith("CSpell: "),
             "every unknown word with its place (and fix) and the tally")
        t = run(f"printf 'Fixed the rounding bug in ledger totals.\\n\\nalso tidied stuff' | "
                f"{bin_}/commitlint --extends @commitlint/config-conventional", cwd=js)
        case("commitlint-errors", "log", "git log -1 --format=%B | npx commitlint --extends @commitlint/config-conventional", t,
             lambda l: l.startswith("✖ ") or l.startswith("⧗ "),
             "the input line and every problem with the tally")


C_PARSE_UNSAFE = r"""#include <stdio.h>
#include <string.h>
#include <stdlib.h>

struct rec { char id[12]; char name[24]; int qty; };

int load(const char *path, struct rec *out, int max) {
    char line[100];
    int n = 0;
    FILE *f = fopen(path, "r");
    while (f && n < max && fgets(line, sizeof line, f)) {
        char *tok = strtok(line, ",");
        strcpy(out[n].id, tok);
        tok = strtok(NULL, ",");
        strncpy(out[n].name, tok, sizeof out[n].name);
        out[n].qty = atoi(strtok(NULL, ","));
        n++;
    }
    return n;
}

void report(struct rec *r, int n, const char *title) {
    char header[40];
    sprintf(header, "== %s ==", title);
    puts(header);
    for (int i = 0; i < n; i++) {
        char row[64];
        snprintf(row, sizeof row, "%s %s %d", r[i].id, r[i].name, r[i].qty);
        fprintf(stderr, row);
    }
}

int main(int argc, char **argv) {
    struct rec recs[50];
    char path[256];
    strcpy(path, argc > 1 ? argv[1] : "stock.csv");
    int n = load(path, recs, 50);
    char *user = getenv("USER");
    char greeting[32];
    strcat(strcpy(greeting, "hi "), user);
    report(recs, n, greeting);
    char *t = tmpnam(NULL);
    return execlp("logger", "logger", t, (char *)NULL);
}
"""

C_MASSIF_POOL = r"""#include <stdlib.h>
#include <string.h>
static void *slots[128];
static void *alloc_node(size_t n) { void *p = calloc(1, n); return p; }
static void *alloc_page(void) { char *p = malloc(65536); memset(p, 0, 65536); return p; }
static void grow_tree(int depth) { for (int i = 0; i < depth * 4; i++) slots[i] = alloc_node(256 + i * 64); }
static void map_pages(void) { for (int i = 0; i < 16; i++) slots[64 + i] = alloc_page(); }
static char *dup_names(int n) { char *s = malloc(n * 40); for (int i = 0; i < n; i++) strcpy(s + i * 40, "name"); return s; }
int main(void) {
    grow_tree(12);
    map_pages();
    char *names = dup_names(2000);
    for (int i = 64; i < 72; i++) { free(slots[i]); slots[i] = 0; }
    free(names);
    return 0;
}
"""


def analyser_twin_cases():
    """Round 91: tuning twins of round 90's flawfinder audit and ms_print
    report (facts lost; their outputs unread): another C file for each,
    the rules the counterparts'."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "c")
        write(os.path.join(d, "parse.c"), C_PARSE_UNSAFE)
        t = run("flawfinder --columns parse.c", cwd=d)
        case("flawfinder-findings", "log", "flawfinder --columns parse.c", t,
             flawfinder_rule,
             "every hit's header (place, risk level, category, function) and the count of hits")
        d = new_dir(work, "massif")
        write(os.path.join(d, "pool.c"), C_MASSIF_POOL)
        run("gcc -g -O0 -o pool pool.c && valgrind --tool=massif --massif-out-file=massif.out ./pool", cwd=d)
        t = run("ms_print massif.out", cwd=d)
        case("ms-print-heap", "log", "ms_print massif.out", t, massif_peak_facts(t),
             "the command, the detailed snapshots and every allocation line of the peak snapshot's tree")


C_HOT_SORT = r"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static unsigned hash(const char *s) { unsigned h = 5381; while (*s) h = h * 33 + (unsigned char)*s++; return h; }
static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static char **make_words(int n) {
    char **w = malloc(n * sizeof *w);
    for (int i = 0; i < n; i++) { w[i] = malloc(16); snprintf(w[i], 16, "w%07d", (i * 7919) % n); }
    return w;
}
static unsigned checksum(char **w, int n) { unsigned c = 0; for (int i = 0; i < n; i++) c ^= hash(w[i]); return c; }
int main(void) {
    int n = 20000;
    char **w = make_words(n);
    qsort(w, n, sizeof *w, cmp);
    printf("%u\n", checksum(w, n));
    return 0;
}
"""

C_CLAMP_EXTRA = r"""int clamp(int v, int lo, int hi) { if (v < lo) return lo; if (v > hi) return hi; return v; }
int unused_branchy(int x) { int s = 0; for (int i = 0; i < x; i++) { if (i % 3 == 0) s += i; else if (i % 5 == 0) s -= i; else s ^= i; } return s; }
"""

PY_MONEY = r"""def to_cents(text):
    text = text.strip()
    if text.startswith("-"):
        return -to_cents(text[1:])
    if "," in text and "." in text:
        text = text.replace(",", "")
    if "." not in text:
        return int(text) * 100
    whole, frac = text.split(".")
    if len(frac) == 1:
        frac += "0"
    elif len(frac) > 2:
        raise ValueError(f"too many decimals: {text}")
    return int(whole) * 100 + int(frac)

def format_cents(c):
    sign = "-" if c < 0 else ""
    c = abs(c)
    return f"{sign}{c // 100}.{c % 100:02d}"
"""

PY_TEST_MONEY = r"""from money import to_cents, format_cents
def test_plain(): assert to_cents("12.5") == 1250
def test_whole(): assert to_cents("3") == 300
def test_format(): assert format_cents(1205) == "12.05"
"""


def callgrind_facts(text):
    """callgrind_annotate's must-keep facts: the program's total and the
    first fifteen rows of the table of functions, the most expensive."""
    lines = text.splitlines()
    keep = [l for l in lines if "PROGRAM TOTALS" in l]
    head = next(i for i, l in enumerate(lines) if "file:function" in l)
    rows = [l for l in lines[head + 2:] if l.strip()]
    return keep + rows[:15]


def held_out_profile_and_coverage_cases(venv):
    """Round 92, held out (every id in the evaluation half; the rules
    written before ghost ran on them): callgrind_annotate's profile,
    pipdeptree of a venv, coverage.py's report with missing lines and
    gcovr's summary (Debian's valgrind; pipdeptree, coverage, pytest and
    gcovr in `venv`)."""
    venv = os.path.abspath(venv)
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "cg")
        write(os.path.join(d, "hot.c"), C_HOT_SORT)
        run("gcc -g -O1 -o hot hot.c && valgrind --tool=callgrind --callgrind-out-file=cg.out ./hot", cwd=d)
        t = run("callgrind_annotate cg.out", cwd=d)
        case("callgrind-annotate-report", "log", "callgrind_annotate cg.out", t, callgrind_facts(t),
             "the program's total and the first fifteen rows of the table of functions")
        t = run(f"{venv}/pipdeptree", cwd=d)
        case("pipdeptree-warnings", "log", "pipdeptree", t,
             lambda l: re.match(r"^\S+==\S+", l) or "[required:" in l or l.startswith("Warning"),
             "every top-level package, every dependency node and every warning")
        d = new_dir(work, "cov")
        write(os.path.join(d, "money.py"), PY_MONEY)
        write(os.path.join(d, "test_money.py"), PY_TEST_MONEY)
        write(os.path.join(d, "test_ledger.py"), PY_NOSE_LEDGER)
        run(f"{venv}/coverage run -m pytest -q", cwd=d)
        t = run(f"{venv}/coverage report -m", cwd=d)
        case("coverage-report-missing", "log", "coverage report -m", t,
             lambda l: re.match(r"^\S+\.py\s+\d+\s+[1-9]\d*\s+\d+%", l) or l.startswith("TOTAL"),
             "every file with missed statements (and its missing lines) and the total")
        d = new_dir(work, "gcov")
        write(os.path.join(d, "hot.c"), "int clamp(int v, int lo, int hi);\n"
              + C_HOT_SORT.replace("    return 0;", "    return clamp(0, 1, 2) - 1;"))
        write(os.path.join(d, "extra.c"), C_CLAMP_EXTRA)
        run("gcc --coverage -O0 -o hotc hot.c extra.c && ./hotc", cwd=d)
        t = run(f"{venv}/gcovr -r .", cwd=d)
        case("gcovr-summary", "log", "gcovr -r .", t,
             lambda l: re.match(r"^\S+\.c\s+\d+\s+\d+\s+\d+%", l) or l.startswith("TOTAL"),
             "every file's row (lines, executed, cover, missing) and the total")


def coverage_twin_cases(venv):
    """Round 93: a tuning twin of round 92's coverage report (saved as
    `.txt`, called prose; its output unread): coverage.py's report over
    other modules, its rule the counterpart's. coverage and pytest from
    `venv`."""
    venv = os.path.abspath(venv)
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "cov")
        write(os.path.join(d, "slug.py"),
              "import re\n\ndef slug(text):\n    text = text.strip().lower()\n    if not text:\n        raise ValueError('empty')\n"
              "    text = re.sub(r'[^a-z0-9]+', '-', text)\n    return text.strip('-')\n\n"
              "def unslug(s):\n    return s.replace('-', ' ').title()\n")
        write(os.path.join(d, "units.py"),
              "FACTORS = {'kb': 1024, 'mb': 1024 ** 2, 'gb': 1024 ** 3}\n\ndef parse_size(text):\n    text = text.strip().lower()\n"
              "    for unit, factor in FACTORS.items():\n        if text.endswith(unit):\n            return int(float(text[:-2]) * factor)\n"
              "    if text.isdigit():\n        return int(text)\n    raise ValueError(text)\n\ndef human(n):\n"
              "    for unit in ['gb', 'mb', 'kb']:\n        if n >= FACTORS[unit]:\n            return f'{n / FACTORS[unit]:.1f}{unit}'\n"
              "    return str(n)\n")
        write(os.path.join(d, "test_slug.py"),
              "from slug import slug\nfrom units import parse_size\n\ndef test_slug():\n    assert slug(' Hello World ') == 'hello-world'\n\n"
              "def test_kb():\n    assert parse_size('2kb') == 2048\n")
        run(f"{venv}/coverage run -m pytest -q", cwd=d)
        t = run(f"{venv}/coverage report -m", cwd=d)
        case("coverage-report-m", "log", "coverage report -m", t,
             lambda l: re.match(r"^\S+\.py\s+\d+\s+[1-9]\d*\s+\d+%", l) or l.startswith("TOTAL"),
             "every file with missed statements (and its missing lines) and the total")


C_ANALYZE_BUF = r"""#include <stdlib.h>
#include <string.h>
struct node { int v; struct node *next; };
int sum(struct node *n) { int s = 0; while (n) { s += n->v; n = n->next; } return s; }
struct node *find(struct node *n, int v) { while (n && n->v != v) n = n->next; return n; }
int first_value(struct node *head, int v) {
    struct node *hit = find(head, v);
    return hit->v;
}
char *copy_name(const char *src) {
    char *dst = malloc(strlen(src));
    strcpy(dst, src);
    return dst;
}
int leak(int n) {
    int *a = malloc(n * sizeof *a);
    if (n > 10) return -1;
    a[0] = 1;
    int r = a[0];
    free(a);
    return r;
}
int divide(int a, int b) { int z = 0; if (b == 0) return a / z; return a / b; }
"""

SH_DEPLOY_X = r"""#!/bin/bash
set -euo pipefail
APP=ledger
RELEASE_DIR=/tmp/ghost-deploy-$$/releases
mkdir -p "$RELEASE_DIR"
for env in dev staging; do
  for f in app.conf db.conf cache.conf; do
    echo "rendering $f for $env" > /dev/null
    printf '%s=%s\n' "$env" "$f" >> "$RELEASE_DIR/$env.conf"
  done
done
version=$(git describe --tags 2>/dev/null || echo 0.0.0)
checksum=$(sha256sum "$RELEASE_DIR/dev.conf" | cut -c1-12)
cp "$RELEASE_DIR/dev.conf" "$RELEASE_DIR/../current/dev.conf"
echo "deployed $APP $version ($checksum)"
"""


def held_out_debugging_session_cases():
    """Round 94, held out (every id in the evaluation half; the rules
    written before ghost ran on them): what debugging prints: clang's
    static analyzer with its path notes, `git bisect run` finding the first
    bad commit, and a script traced by `bash -x` failing (Debian's clang;
    git, bash, python3)."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "c")
        write(os.path.join(d, "buf.c"), C_ANALYZE_BUF)
        t = run("clang --analyze -Xanalyzer -analyzer-output=text buf.c", cwd=d)
        case("clang-analyze-text", "log", "clang --analyze -Xanalyzer -analyzer-output=text buf.c", t,
             lambda l: re.match(r"^buf\.c:\d+:\d+: (warning|note|error): ", l) or re.search(r"\d+ warnings? generated", l),
             "every warning, every note of its path and the count")
        d = new_dir(work, "bisect")
        git("init -q", d)
        for i in range(1, 25):
            write(os.path.join(d, "calc.py"), f"def total(xs): return sum(xs) + {1 if i >= 17 else 0}\n")
            write(os.path.join(d, "VERSION"), f"v{i}\n")
            git("add -A", d)
            git(f"commit -qm 'change {i}: tweak calc and bump version'", d)
        write(os.path.join(d, "check.sh"),
              "#!/bin/sh\npython3 -c \"from calc import total; assert total([1, 2]) == 3, total([1, 2])\"\n")
        os.chmod(os.path.join(d, "check.sh"), 0o755)
        t = git("bisect start HEAD HEAD~23", d) + git("bisect run ./check.sh", d)
        keep = bisect_facts(t, "    change ")
        case("git-bisect-first-bad", "log", "git bisect start HEAD HEAD~23 && git bisect run ./check.sh", t, keep,
             "the first bad commit's line, its subject and bisect's verdict")
        d = new_dir(work, "sh")
        write(os.path.join(d, "deploy.sh"), SH_DEPLOY_X)
        t = run("bash -x deploy.sh", cwd=d)
        lines = t.splitlines()
        err = next(i for i, l in enumerate(lines) if l.startswith("cp: "))
        keep = [lines[err], next(l for l in reversed(lines[:err]) if l.startswith("+ "))]
        case("bash-set-x", "log", "bash -x deploy.sh", t, keep,
             "the failing command's error and its trace line")


JAVA_DEADLOCK = """package shop;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

public class Ledger {
    static final Object accounts = new Object();
    static final Object journal = new Object();

    static void pause(long ms) {
        try { Thread.sleep(ms); } catch (InterruptedException e) { }
    }

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        for (int i = 0; i < 3; i++) {
            pool.submit(() -> pause(60_000));
        }
        Thread posting = new Thread(() -> {
            synchronized (accounts) { pause(200); synchronized (journal) { System.out.println("posted"); } }
        }, "posting-worker");
        Thread audit = new Thread(() -> {
            synchronized (journal) { pause(200); synchronized (accounts) { System.out.println("audited"); } }
        }, "audit-worker");
        posting.start();
        audit.start();
        posting.join();
    }
}
"""

JAVA_HISTOGRAM = """package shop;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Catalog {
    record Product(String sku, String title, long cents) { }
    static final class PriceHistory { final long[] points = new long[16]; }
    static final class CartLine { final Product product; final int qty; CartLine(Product p, int q) { product = p; qty = q; } }

    public static void main(String[] args) throws Exception {
        List<Product> products = new ArrayList<>();
        Map<String, PriceHistory> history = new HashMap<>();
        List<CartLine> lines = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            Product p = new Product("SKU-" + i, "Item number " + i, 100L * i);
            products.add(p);
            history.put(p.sku(), new PriceHistory());
            if (i % 4 == 0) lines.add(new CartLine(p, i % 7 + 1));
        }
        System.out.println("ready " + products.size() + " " + history.size() + " " + lines.size());
        Thread.sleep(60_000);
    }
}
"""

ORDER_XSD = """<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="orders">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="order" maxOccurs="unbounded">
          <xs:complexType>
            <xs:sequence>
              <xs:element name="customer" type="xs:string"/>
              <xs:element name="qty" type="xs:positiveInteger"/>
              <xs:element name="price" type="xs:decimal"/>
              <xs:element name="placed" type="xs:date"/>
            </xs:sequence>
            <xs:attribute name="id" type="xs:ID" use="required"/>
            <xs:attribute name="status" use="required">
              <xs:simpleType>
                <xs:restriction base="xs:string">
                  <xs:enumeration value="open"/>
                  <xs:enumeration value="shipped"/>
                </xs:restriction>
              </xs:simpleType>
            </xs:attribute>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
    </xs:complexType>
  </xs:element>
</xs:schema>
"""

YAML_FILES = {
    "deploy.yml": "---\nservices:\n  web:\n      image: nginx:1.25\n      ports:\n        - 80:80\n  db:\n    image: postgres:16   \n    environment:\n      POSTGRES_PASSWORD: example\n      POSTGRES_PASSWORD: again\n",
    "ci/build.yaml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n    - uses: actions/checkout@v4\n    - run: make test\n    - run:   make lint\n\n\n\n",
    "config/app.yaml": "name: shop\nfeatures: [cart,checkout ,  search]\nlimits: {cart: 50,  checkout : 3}\ndebug: yes\nthis line is a key that is very long and goes on past the limit of eighty characters for sure: 1\n",
    "config/empty.yml": "",
}

LINE_PROFILE_SCRIPT = """import re


@profile
def tokens(text):
    words = []
    for line in text.splitlines():
        for word in re.findall(r"[a-z]+", line.lower()):
            if len(word) > 2:
                words.append(word)
    return words


@profile
def counts(words):
    seen = {}
    for word in words:
        seen[word] = seen.get(word, 0) + 1
    ranked = sorted(seen.items(), key=lambda kv: -kv[1])
    return ranked[:10]


text = "The quick brown fox jumps over the lazy dog near the river bank.\\n" * 3000
print(counts(tokens(text)))
"""

PROSE_DOC = """# Release notes

We are very excited to announce the the new release... It is very unique and
extremely important for all users. In my opinion, it's fairly obvious that
the new cart is a paradigm shift.

## Upgrading

Please note that you must upgrade ASAP. The system utilizes a new database,
and at this point in time the old one is deprecated. Irregardless of your
setup, you should of read the guide first.

## Thanks

Thanks to everyone who helped -- truly, we couldn't care less about the
bugs now. 2 + 2 = 4, obviously, and the results speak for themselves (c) 2026.
"""


THREAD_DUMP_RULE = ("every thread's header, and the deadlock report's lines: its heading, each thread, "
                    "what it waits to lock and who holds it, and the count")


def thread_dump_facts(t):
    """A JVM thread dump's must-keep facts (round 96): every thread's
    header, and the deadlock report's lines."""
    lines = t.splitlines()
    found = next(i for i, l in enumerate(lines) if l.startswith("Found one Java-level deadlock"))
    report = [l for l in lines[found:] if l.startswith(("Found", '"'))
              or l.strip().startswith(("waiting to lock", "which is held by"))]
    return [l for l in lines[:found] if l.startswith('"')] + report


CLASS_HISTOGRAM_RULE = "the column header, the ten largest classes, every class of the program's own and the total"


def class_histogram_facts(t, package):
    """A JVM class histogram's must-keep facts (round 96)."""
    lines = t.splitlines()
    head = next(i for i, l in enumerate(lines) if "#instances" in l)
    rows = [l for l in lines[head + 1:] if re.match(r"^\s*\d+:", l)]
    return [lines[head]] + rows[:10] + [l for l in rows if package in l] \
        + [l for l in lines if l.startswith("Total")]


LINE_PROFILE_RULE = ("each function's total time and name, the table's header and each function's "
                     "three hottest lines")


def line_profile_facts(t):
    """line_profiler's must-keep facts (round 96)."""
    lines = t.splitlines()
    keep = [l for l in lines if l.startswith(("Total time:", "Function:"))]
    keep += [l for l in lines if "% Time" in l][:1]
    table = []
    for l in lines:
        if l.startswith("Function:"):
            table.append([])
        m = re.match(r"^\s*\d+\s+\d+\s+[\d.e+]+\s+[\d.e+]+\s+([\d.]+)\s", l)
        if m and table:
            table[-1].append((float(m.group(1)), l))
    for rows in table:
        keep += [l for _, l in sorted(rows, key=lambda r: -r[0])[:3]]
    return keep


def held_out_runtime_and_lint_cases(venv):
    """Round 96, held out (every id in the evaluation half; the rules
    written before ghost ran on them): a JVM's thread dump with a deadlock
    (`jstack`) and its class histogram (`jcmd GC.class_histogram`),
    XML Schema validation (`xmllint --schema`), yamllint, line_profiler's
    `kernprof -l -v` and proselint (Debian's JDK 17 and libxml2-utils;
    yamllint, line_profiler and proselint from PyPI in VENV)."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "java")
        write(os.path.join(d, "shop", "Ledger.java"), JAVA_DEADLOCK)
        write(os.path.join(d, "shop", "Catalog.java"), JAVA_HISTOGRAM)
        run("javac -d out shop/Ledger.java shop/Catalog.java", cwd=d)
        ledger = subprocess.Popen(["java", "-cp", "out", "shop.Ledger"], cwd=d)
        catalog = subprocess.Popen(["java", "-cp", "out", "shop.Catalog"], cwd=d, stdout=subprocess.DEVNULL)
        try:
            time.sleep(4)
            t = run(f"jstack {ledger.pid}", cwd=d)
            case("jstack-deadlock", "log", "jstack $(pgrep -f shop.Ledger)", t, thread_dump_facts(t),
                 THREAD_DUMP_RULE)
            t = run(f"jcmd {catalog.pid} GC.class_histogram", cwd=d)
            case("jcmd-class-histogram", "log", "jcmd $(pgrep -f shop.Catalog) GC.class_histogram", t,
                 class_histogram_facts(t, "shop."), CLASS_HISTOGRAM_RULE)
        finally:
            ledger.kill()
            catalog.kill()
        d = new_dir(work, "xml")
        write(os.path.join(d, "order.xsd"), ORDER_XSD)
        orders = ['<?xml version="1.0"?>', "<orders>"]
        for k in range(1, 31):
            status = "open" if k % 6 else "cancelled"
            qty = str(k % 5) if k % 7 else "two"
            price = f"{k}.50" if k % 9 else "12,50"
            placed = f"2026-11-{k:02d}" if k % 11 else "yesterday"
            oid = f"o{k}" if k != 17 else "o16"
            orders.append(f'  <order id="{oid}" status="{status}">')
            orders.append(f"    <customer>c{k}</customer>")
            orders.append(f"    <qty>{qty}</qty>")
            orders.append(f"    <price>{price}</price>")
            if k != 23:
                orders.append(f"    <placed>{placed}</placed>")
            orders.append("  </order>")
        orders.append("</orders>")
        write(os.path.join(d, "orders.xml"), "\n".join(orders) + "\n")
        t = run("xmllint --noout --schema order.xsd orders.xml", cwd=d)
        case("xmllint-schema-errors", "log", "xmllint --noout --schema order.xsd orders.xml", t,
             lambda l: l.startswith("orders.xml"),
             "every validity error (each names its line) and the verdict")
        d = new_dir(work, "yaml")
        for name, text in YAML_FILES.items():
            write(os.path.join(d, name), text)
        t = run(f"{venv}/yamllint -f standard .", cwd=d)
        case("yamllint-errors", "log", "yamllint -f standard .", t,
             lambda l: re.match(r"^\S+\.ya?ml$", l) or re.match(r"^\s+\d+:\d+\s+(error|warning)\s", l),
             "every file named and every problem under it")
        d = new_dir(work, "prof")
        write(os.path.join(d, "words.py"), LINE_PROFILE_SCRIPT)
        t = run(f"{venv}/kernprof -l -v words.py", cwd=d)
        case("kernprof-line-profile", "log", "kernprof -l -v words.py", t, line_profile_facts(t),
             LINE_PROFILE_RULE)
        d = new_dir(work, "prose")
        write(os.path.join(d, "notes.md"), PROSE_DOC)
        t = run(f"{venv}/proselint check notes.md", cwd=d)
        case("proselint-errors", "log", "proselint check notes.md", t,
             lambda l: re.search(r"notes\.md:\d+:\d+", l),
             "every finding (each names its line and column)")


JAVA_DEADLOCK_TWIN = """package depot;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

public class Transfer {
    static final Object stock = new Object();
    static final Object orders = new Object();

    static void rest(long ms) {
        try { Thread.sleep(ms); } catch (InterruptedException e) { }
    }

    public static void main(String[] args) throws Exception {
        ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
        timers.scheduleAtFixedRate(() -> { }, 0, 1, TimeUnit.SECONDS);
        Thread picker = new Thread(() -> {
            synchronized (stock) { rest(150); synchronized (orders) { System.out.println("picked"); } }
        }, "picker");
        Thread packer = new Thread(() -> {
            synchronized (orders) { rest(150); synchronized (stock) { System.out.println("packed"); } }
        }, "packer");
        Thread idle = new Thread(() -> rest(60_000), "reporter");
        picker.start();
        packer.start();
        idle.start();
        picker.join();
    }
}
"""

JAVA_HISTOGRAM_TWIN = """package depot;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

public class Warehouse {
    record Bin(String code, int shelf) { }
    static final class Parcel { final Bin bin; final byte[] label = new byte[48]; Parcel(Bin b) { bin = b; } }

    public static void main(String[] args) throws Exception {
        List<Parcel> parcels = new ArrayList<>();
        TreeMap<String, Bin> bins = new TreeMap<>();
        for (int i = 0; i < 25_000; i++) {
            Bin b = new Bin("B" + i, i % 40);
            bins.put(b.code(), b);
            parcels.add(new Parcel(b));
        }
        System.out.println("ready " + parcels.size() + " " + bins.size());
        Thread.sleep(60_000);
    }
}
"""

LINE_PROFILE_TWIN = """import json


@profile
def parse(lines):
    rows = []
    for line in lines:
        rows.append(json.loads(line))
    return rows


@profile
def totals(rows):
    by_user = {}
    for row in rows:
        by_user.setdefault(row["user"], 0)
        by_user[row["user"]] += row["amount"]
    return sorted(by_user.items(), key=lambda kv: -kv[1])[:8]


lines = [json.dumps({"user": f"u{i % 50}", "amount": i % 13}) for i in range(20000)]
print(totals(parse(lines)))
"""


def runtime_and_lint_twin_cases(venv):
    """Round 97: tuning twins of round 96's thread dump, class histogram
    and line profile (their outputs unread): another deadlock dumped by
    `jcmd Thread.print`, another program's `jmap -histo` and another
    script under `kernprof -l -v`, each rule its counterpart's. (The
    script prints a list of pairs, as its counterpart does: printing one
    pair, it did not reproduce the counterpart's call, structured.)"""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "java")
        write(os.path.join(d, "depot", "Transfer.java"), JAVA_DEADLOCK_TWIN)
        write(os.path.join(d, "depot", "Warehouse.java"), JAVA_HISTOGRAM_TWIN)
        run("javac -d out depot/Transfer.java depot/Warehouse.java", cwd=d)
        transfer = subprocess.Popen(["java", "-cp", "out", "depot.Transfer"], cwd=d)
        warehouse = subprocess.Popen(["java", "-cp", "out", "depot.Warehouse"], cwd=d, stdout=subprocess.DEVNULL)
        try:
            time.sleep(4)
            t = run(f"jcmd {transfer.pid} Thread.print", cwd=d)
            case("jcmd-thread-print", "log", "jcmd $(pgrep -f depot.Transfer) Thread.print", t,
                 thread_dump_facts(t), THREAD_DUMP_RULE)
            t = run(f"jmap -histo {warehouse.pid}", cwd=d)
            case("jmap-histogram", "log", "jmap -histo $(pgrep -f depot.Warehouse)", t,
                 class_histogram_facts(t, "depot."), CLASS_HISTOGRAM_RULE)
        finally:
            transfer.kill()
            warehouse.kill()
        d = new_dir(work, "prof")
        write(os.path.join(d, "ledger.py"), LINE_PROFILE_TWIN)
        t = run(f"{venv}/kernprof -l -v ledger.py", cwd=d)
        case("kernprof-lines", "log", "kernprof -l -v ledger.py", t, line_profile_facts(t), LINE_PROFILE_RULE)


PERF_REPORT_RULE = "the column header and the ten rows of the largest overhead"
PERF_CALLGRAPH_RULE = "the column header and the ten largest entries' lines (each symbol's own line)"


def perf_report_facts(t, header="# Overhead", row=r"^\s+\d+\.\d+%\s"):
    """`perf report --stdio`'s must-keep facts (rounds 98 and 99): its
    column header and its ten largest rows or entries (perf sorts them by
    overhead). perf pads its last column with spaces: a row's fact is its
    text."""
    lines = [l.rstrip() for l in t.splitlines()]
    rows = [l for l in lines if re.match(row, l)]
    return [l for l in lines if l.startswith(header)][:1] + rows[:10]


def perf_callgraph_facts(t):
    """Round 99's facts: entries open with two shares (children, self)."""
    return perf_report_facts(t, "# Children", r"^\s+\d+\.\d+%\s+\d+\.\d+%\s")


PERF_PYTHON = """import json, re
d = [{'a': i, 'b': str(i) * 5} for i in range(200000)]
s = json.dumps(d)
json.loads(s)
[re.sub(r'\\d', 'x', x['b']) for x in d[:50000]]
"""


def perf_cases(record, report, cases, facts, rule):
    """Each (id, command) of `cases` sampled by `perf record RECORD` and
    reported by `perf report REPORT`, round 98's script at hand."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "perf")
        write(os.path.join(d, "load.py"), PERF_PYTHON)
        for cid, command in cases:
            run(f"perf record {record} -o perf.data -F 2000 -- {command}", cwd=d)
            t = run(f"perf report -i perf.data {report}", cwd=d)
            shown = f"perf record {record} -F 2000" if record else "perf record -F 2000"
            case(cid, "log", f"{shown} -- {command} && perf report {report}", t, facts(t), rule)


def perf_report_cases():
    """Round 98: `perf report --stdio` of two programs sampled by `perf
    record` (cpu-clock), sorted by symbol. perf-report-python (tuning
    half) was read first, by a probe of an unseen tool's output: its
    largest rows after the eighth folded as a run of similar lines;
    perf-report-shell-pipeline (evaluation half) is held out, its rule
    the same, written before ghost ran on it."""
    perf_cases("", "--stdio --no-children --sort symbol -g none", [
        ("perf-report-python", "python3 load.py"),
        ("perf-report-shell-pipeline", "sh -c 'seq 1 400000 | sort -R | sort -n | gzip -9 | md5sum'"),
    ], perf_report_facts, PERF_REPORT_RULE)


def perf_callgraph_cases():
    """Round 99: `perf report --stdio` of two programs sampled with call
    graphs (`perf record -g`), each symbol's entry followed by its tree.
    perf-callgraph-python (tuning half) samples round 98's script, as the
    probe that found the miss did; perf-report-callgraph-pipeline
    (evaluation half) is held out, its rule the same, written before ghost
    ran on it."""
    perf_cases("-g", "--stdio", [
        ("perf-callgraph-python", "python3 load.py"),
        ("perf-report-callgraph-pipeline", "sh -c 'seq 1 300000 | sort -R | sort -n | xz -6 | md5sum'"),
    ], perf_callgraph_facts, PERF_CALLGRAPH_RULE)


NODE_PROF_RULE = "every row of the [Summary] section and the first three rows of each of its other tables"


def node_prof_facts(t):
    """`node --prof-process`'s must-keep facts (round 100): each table's
    first three rows (the tool sorts them by ticks), every summary row."""
    lines = [l.rstrip() for l in t.splitlines()]
    keep, section, rows = [], "", 0
    for l in lines:
        if l.startswith(" ["):
            section, rows = l.strip(), 0
            continue
        if re.match(r"^\s+\d+\s+\d+\.\d+%", l):
            rows += 1
            if section == "[Summary]:" or (rows <= 3 and not section.startswith("[Bottom up")):
                keep.append(l)
    return keep


NODE_PROF_JSON = """const d = [];
for (let i = 0; i < 300000; i++) d.push({a: i, b: String(i).repeat(3)});
const s = JSON.stringify(d);
JSON.parse(s);
let n = 0;
for (const x of d.slice(0, 100000)) n += x.b.replace(/\\d/g, 'x').length;
console.log(n);
"""

NODE_PROF_REGEX = """const words = [];
for (let i = 0; i < 200000; i++) words.push('w' + (i * 7919 % 100000));
words.sort();
const counts = new Map();
for (const w of words) counts.set(w, (counts.get(w) || 0) + 1);
let n = 0;
for (const [w, c] of counts) if (/^w[0-9]*7$/.test(w)) n += c;
console.log(n);
"""


def node_prof_cases():
    """Round 100: `node --prof-process` of two scripts' V8 tick logs.
    node-prof-process-json (tuning half) profiles the script of the probe
    that found the miss (its [Summary] rows folded); node-prof-regex
    (evaluation half) is held out, its rule the same, written before ghost
    ran on it."""
    with tempfile.TemporaryDirectory() as work:
        for cid, script in [("node-prof-process-json", NODE_PROF_JSON), ("node-prof-regex", NODE_PROF_REGEX)]:
            d = new_dir(work, cid)
            write(os.path.join(d, "w.js"), script)
            run("node --prof w.js", cwd=d)
            log = next(f for f in os.listdir(d) if f.startswith("isolate"))
            t = run(f"node --prof-process {log}", cwd=d, stderr=False)
            case(cid, "log", "node --prof w.js && node --prof-process isolate-*.log", t,
                 node_prof_facts(t), NODE_PROF_RULE)


GC_LOG_RULE = ("every collection's summary line (tagged `gc` alone: its cause, heap before -> after, time) "
               "and the OutOfMemoryError line")


def gc_log_facts(t):
    """A unified GC log's must-keep facts (round 101): each collection's
    own summary (the line tagged `gc` alone that gives the heap before and
    after) and the error the program died of."""
    return [l for l in t.splitlines()
            if (re.match(r"^\[[^]]*\]\[\w+\]\[gc\s*\] GC\(\d+\) ", l) and "->" in l)
            or "OutOfMemoryError" in l]


JAVA_GROW = """package cache;
import java.util.*;
public class Grow {
    public static void main(String[] a) {
        List<byte[]> keep = new ArrayList<>();
        Random r = new Random(1);
        for (int i = 0; ; i++) {
            byte[] b = new byte[1024 * (1 + r.nextInt(64))];
            if (i % 3 == 0) keep.add(b);
        }
    }
}
"""

JAVA_SESSIONS = """package web;
import java.util.*;
public class Sessions {
    public static void main(String[] a) {
        Map<String, StringBuilder> live = new HashMap<>();
        for (long n = 0; ; n++) {
            StringBuilder s = new StringBuilder();
            for (int k = 0; k < 20; k++) s.append("user-").append(n).append(';');
            live.put("s" + n, s);
            if (n % 5 == 0) live.remove("s" + (n - 3));
        }
    }
}
"""


def gc_log_cases():
    """Round 101: unified GC logs (`-Xlog:gc*`) of two programs that grow
    until the heap is exhausted. jvm-xlog-gc (tuning half) is G1's log of
    the probe that found how such a log folds; java-gc-serial-oom
    (evaluation half) is held out, the serial collector's log of another
    program, its rule the same, written before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        for cid, src, main, flags in [
            ("jvm-xlog-gc", JAVA_GROW, "cache.Grow", "-Xmx64m"),
            ("java-gc-serial-oom", JAVA_SESSIONS, "web.Sessions", "-XX:+UseSerialGC -Xmx48m"),
        ]:
            d = new_dir(work, cid)
            write(os.path.join(d, *main.split(".")) + ".java", src)
            run(f"javac -d out {main.replace('.', '/')}.java", cwd=d)
            command = f"java {flags} -Xlog:gc*:stdout -cp out {main}"
            t = run(command, cwd=d)
            case(cid, "log", command, t, gc_log_facts(t), GC_LOG_RULE)


TRACE_RESOLUTION_RULE = ("every error TS line and the verdict (`======== Module name 'X' was ...`) "
                         "of each module the sources import")


def trace_resolution_facts(t, modules):
    """`tsc --traceResolution`'s must-keep facts (round 102): the
    compiler's errors and the verdict on each module the sources import
    (`modules`), resolved or not."""
    verdicts = tuple(f"======== Module name '{m}' was " for m in modules)
    return [l for l in t.splitlines() if " error TS" in l or l.startswith(verdicts)]


TRACE_NODENEXT = {
    "tsconfig.json": '{"compilerOptions":{"strict":true,"module":"nodenext","moduleResolution":"nodenext",'
                     '"noEmit":true,"types":[]},"include":["src"]}\n',
    "src/index.ts": 'import { load } from "./config.js";\nimport { parse } from "yaml";\n'
                    'import { format } from "./util/format.js";\nimport chalk from "chalk";\n'
                    'import type { Options } from "knip";\n'
                    'console.log(format(load(parse("a: 1"))), chalk, {} as Options);\n',
    "src/config.ts": "export function load(x: unknown) { return String(x); }\n",
    "src/util/format.ts": "export function format(s: string) { return s.trim(); }\n",
}

TRACE_BUNDLER = {
    "tsconfig.json": '{"compilerOptions":{"strict":true,"module":"esnext","moduleResolution":"bundler",'
                     '"noEmit":true,"types":[],"baseUrl":".","paths":{"@app/*":["src/app/*"]}},"include":["src"]}\n',
    "src/main.ts": 'import { route } from "@app/router";\nimport { stringify } from "yaml";\n'
                   'import { clamp } from "./lib/math";\nimport lodash from "lodash-es";\n'
                   'import { missing } from "@app/missing";\n'
                   'console.log(route(stringify({ n: clamp(3) })), lodash, missing);\n',
    "src/app/router.ts": "export const route = (s: string) => `/${s}`;\n",
    "src/lib/math.ts": "export function clamp(n: number) { return Math.min(1, n); }\n",
}


def trace_resolution_cases():
    """Round 102: `tsc --traceResolution` of two small projects, each with
    an import that does not resolve. tsc-trace-resolution (tuning half) is
    the nodenext project of the probe that found how the trace folds;
    tsc-trace-resolution-bundler (evaluation half) is held out, a project
    resolved for a bundler with path aliases, its rule the same, written
    before ghost ran on it."""
    js = os.path.abspath(js_dir())
    with tempfile.TemporaryDirectory() as work:
        for cid, files, modules in [
            ("tsc-trace-resolution", TRACE_NODENEXT, ["./config.js", "yaml", "./util/format.js", "chalk", "knip"]),
            ("tsc-trace-resolution-bundler", TRACE_BUNDLER,
             ["@app/router", "yaml", "./lib/math", "lodash-es", "@app/missing"]),
        ]:
            d = new_dir(work, cid)
            for name, text in files.items():
                write(os.path.join(d, name), text)
            os.symlink(os.path.join(js, "node_modules"), os.path.join(d, "node_modules"))
            t = run("node_modules/.bin/tsc -p . --traceResolution", cwd=d)
            case(cid, "log", "npx tsc -p . --traceResolution", t, trace_resolution_facts(t, modules),
                 TRACE_RESOLUTION_RULE)


CALL_TREE_RULE = "the Duration line and the lines of the ten frames that took the most time (the first of equal ones)"


def call_tree_facts(t):
    """A profiler's call tree's must-keep facts (round 103): the run's
    duration and the ten frames that took longest, each line's text after
    its tree drawing (frames of equal time in the order printed)."""
    lines = t.splitlines()
    frames = []
    for i, l in enumerate(lines):
        m = re.match(r"^[\s│├└─]*?(\d+\.\d+ \S.*)$", l)
        if m and not m.group(1).startswith(("0.0 ",)):
            frames.append((-float(m.group(1).split()[0]), i, m.group(1).rstrip()))
    top = [f for _, _, f in sorted(frames)[:10]]
    return [l.strip() for l in lines if "Duration:" in l][:1] + top


def call_tree_cases():
    """Round 103: pyinstrument's call trees with every frame shown
    (`--show-all`). pyinstrument-pip-list (tuning half) profiles `pip
    list`, the probe that found every node of such a tree kept (2,825
    lines in, 2,819 out); pyinstrument-pydoc (evaluation half) is held out,
    `pydoc -k xml` profiled, its rule the same, written before ghost ran on
    it."""
    venv = os.path.abspath(VENV)
    with tempfile.TemporaryDirectory() as work:
        for cid, args in [("pyinstrument-pip-list", "-m pip list"), ("pyinstrument-pydoc", "-m pydoc -k xml")]:
            d = new_dir(work, cid)
            t = run(f"{venv}/pyinstrument --show-all {args}", cwd=d)
            case(cid, "log", f"pyinstrument --show-all {args}", t, call_tree_facts(t), CALL_TREE_RULE)


CARGO_LOG_RULE = "every line cargo logged at INFO (its fingerprint's verdicts: what is dirty and why) and its Finished line"


def cargo_log_facts(t):
    """`CARGO_LOG=debug`'s must-keep facts (round 104): the lines logged
    at INFO amid the DEBUG ones and the build's outcome."""
    return [l.rstrip() for l in t.splitlines()
            if re.match(r"^\s*\d+\.\d+s\s+INFO ", l) or l.strip().startswith("Finished ")]


def cargo_log_cases():
    """Round 104: cargo's debug log of a rebuild of a small binary crate
    using memchr and fnv from cargo's registry (offline).
    cargo-debug-log-rebuild (tuning half) rebuilds after its main.rs was
    touched, the probe that found the two INFO lines saying why folded
    among the DEBUG ones; cargo-log-manifest-edit (evaluation half) is
    held out, a rebuild after its manifest turned memchr's default
    features off, its rule the same, written before ghost ran on it."""
    manifest = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n{memchr}\nfnv = "1"\n'
    main = ('fn main() { let mut m = fnv::FnvHashMap::default(); m.insert(1, 2); '
            'println!("{:?} {:?}", m, memchr::memchr(b\'a\', b"xa")); }\n')
    with tempfile.TemporaryDirectory() as work:
        for cid, change in [("cargo-debug-log-rebuild", "touch"), ("cargo-log-manifest-edit", "features")]:
            d = new_dir(work, "app")
            write(os.path.join(d, "Cargo.toml"), manifest.format(memchr='memchr = "2"'))
            write(os.path.join(d, "src", "main.rs"), main)
            run("cargo build --offline -q", cwd=d)
            time.sleep(1)
            if change == "touch":
                os.utime(os.path.join(d, "src", "main.rs"))
            else:
                write(os.path.join(d, "Cargo.toml"), manifest.format(
                    memchr='memchr = { version = "2", default-features = false, features = ["alloc"] }'))
            t = run("CARGO_LOG=debug cargo build --offline", cwd=d)
            case(cid, "log", "CARGO_LOG=debug cargo build", t, cargo_log_facts(t), CARGO_LOG_RULE)
            shutil.rmtree(d)


GO_BENCH_RULE = "every benchmark's result line (its name, iterations and measurements) and the run's PASS/ok verdict"


def go_bench_facts(t):
    """`go test -bench`'s must-keep facts (round 105): each result line,
    one per benchmark, and the package's verdict."""
    return [l.rstrip() for l in t.splitlines()
            if re.match(r"^Benchmark\S+\s+\d+\s+[\d.]+ ns/op", l)
            or l.strip() == "PASS" or re.match(r"^(ok|FAIL)\s", l)]


def go_bench_cases():
    """Round 105: the standard library's own benchmarks run by `go test
    -run '^$' -bench . -benchmem`, a short bench time each.
    go-test-benchmem-strconv (tuning half) is the probe;
    go-test-benchmem-sort (evaluation half) is held out, its rule the
    same, written before ghost ran on it."""
    env_go = "GOFLAGS=-mod=mod GOPROXY=off GOCACHE=/tmp/ghost-gocache GOPATH=/tmp/ghost-gopath"
    for cid, pkg, bench_time in [("go-test-benchmem-strconv", "strconv", "20ms"),
                                 ("go-test-benchmem-sort", "sort", "5x")]:
        command = f"go test -run '^$' -bench . -benchmem -benchtime {bench_time} {pkg}"
        t = run(f"{env_go} {command}", cwd="/tmp")
        case(cid, "log", command, t, go_bench_facts(t), GO_BENCH_RULE)


def held_out_go_bench_cases():
    """Round 106: two more held-out benchmark runs for round 105's rule
    (sort's run was short enough to pass whole): the standard library's
    bytes and unicode/utf8 benchmarks, `go test -bench .` without
    `-benchmem` (throughput columns, `MB/s`, where a benchmark sets its
    bytes), their rule round 105's, written before ghost ran on them."""
    env_go = "GOFLAGS=-mod=mod GOPROXY=off GOCACHE=/tmp/ghost-gocache GOPATH=/tmp/ghost-gopath"
    for cid, pkg in [("go-test-bench-bytes", "bytes"), ("go-test-bench-unicode-utf8", "unicode/utf8")]:
        command = f"go test -run '^$' -bench . -benchtime 10ms {pkg}"
        t = run(f"{env_go} {command}", cwd="/tmp")
        case(cid, "log", command, t, go_bench_facts(t), GO_BENCH_RULE)


DEBUG_LOG_DIAGNOSTIC_RULE = ("every diagnostic the checker reported (mypy's `path:line: error|note:` lines; "
                             "eslint's problem lines and the file each is under) and its closing summary")


def debug_log_diagnostic_facts(t):
    """Round 107's must-keep facts: the diagnostics and the summary a
    checker prints amid its debug log."""
    return [l.rstrip() for l in t.splitlines()
            if re.match(r"^\S+\.py:\d+: (error|note):", l)
            or re.match(r"^(Found \d+ errors? in|Success: no issues)", l)
            or re.match(r"^\s+\d+:\d+\s+(error|warning)\s", l)
            or re.match(r"^/\S+\.js$", l)
            or re.match(r"^✖ \d+ problems?", l)]


def debug_log_diagnostic_cases(venv, js):
    """Round 107: a checker run with its debug log on, the diagnostics
    printed among the log lines. mypy-verbose-log (tuning half) is the
    probe: `mypy -v` on a small package with four type errors;
    eslint-debug-problems (evaluation half) is held out: `eslint --debug`
    on two files with problems (recommended rules), its rule the same,
    written before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "shop")
        write(os.path.join(d, "shop", "__init__.py"), "")
        write(os.path.join(d, "shop", "cart.py"),
              "from dataclasses import dataclass\n\n\n@dataclass\nclass Item:\n    name: str\n    price: int\n\n\n"
              "def total(items: list[Item]) -> int:\n    return sum(i.price for i in items) + \"0\"\n\n\n"
              "def cheapest(items: list[Item]) -> Item:\n    return min(items, key=lambda i: i.price).name\n")
        write(os.path.join(d, "shop", "orders.py"),
              "import json\nfrom shop.cart import Item, total\n\n\n"
              "def load(path: str) -> list[Item]:\n    with open(path) as f:\n        rows = json.load(f)\n"
              "    return [Item(r[\"name\"], r[\"price\"], r[\"sku\"]) for r in rows]\n\n\n"
              "def report(path: str) -> str:\n    return total(load(path)).upper()\n")
        t = run(f"{venv}/mypy -v --no-incremental shop", cwd=d)
        case("mypy-verbose-log", "log", "mypy -v shop", t, debug_log_diagnostic_facts(t), DEBUG_LOG_DIAGNOSTIC_RULE)
        e = new_dir(work, "web")
        write(os.path.join(e, "eslint.config.js"),
              "const js = require(\"@eslint/js\");\nmodule.exports = [js.configs.recommended, "
              "{ languageOptions: { sourceType: \"commonjs\", globals: { require: \"readonly\", module: \"writable\" } } }];\n")
        write(os.path.join(e, "src", "routes.js"),
              "const unused = 1;\nfunction handler(req, res) {\n  if (req.method == \"GET\") { return res.send(body); }\n"
              "  debugger;\n}\nmodule.exports = { handler };\n")
        write(os.path.join(e, "src", "store.js"),
              "function get(map, key) {\n  switch (key) {\n    case 1: return map[1];\n    case 1: return map[2];\n  }\n"
              "  return map[key]\n}\nconst get = 2;\nmodule.exports = { get };\n")
        os.symlink(os.path.join(os.path.abspath(js), "node_modules"), os.path.join(e, "node_modules"))
        t = run(f"{js}/node_modules/.bin/eslint --debug src", cwd=e)
        case("eslint-debug-problems", "log", "eslint --debug src", t, debug_log_diagnostic_facts(t), DEBUG_LOG_DIAGNOSTIC_RULE)


INCLUDE_TREE_RULE = ("every header the source file includes itself (the tree's depth-one `. ` lines) "
                     "and every error or warning the compiler printed")


def include_tree_facts(t):
    """`-H`'s must-keep facts (round 108): the headers at depth one and
    the compiler's diagnostics."""
    return [l.rstrip() for l in t.splitlines()
            if l.startswith(". ") or re.search(r": (fatal error|error|warning): ", l)]


def include_tree_cases():
    """Round 108: `-H -fsyntax-only -Wall`, the tree of every header read,
    indented by dots. gcc-include-tree (tuning half) is the probe: a C file
    including four standard headers, one of its own and a missing one;
    gxx-h-includes (evaluation half) is held out: a C++ file including
    five standard headers and one of its own, calling a function never
    declared, its rule the same, written before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "tool")
        write(os.path.join(d, "util.h"), "#include <stdint.h>\n#include <stddef.h>\nuint32_t checksum(const char *p, size_t n);\n")
        write(os.path.join(d, "main.c"),
              "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <errno.h>\n#include \"util.h\"\n"
              "#include \"config.h\"\n\nint main(void) { return (int)checksum(\"x\", 1); }\n")
        t = run("gcc -H -fsyntax-only -Wall main.c", cwd=d)
        case("gcc-include-tree", "log", "gcc -H -fsyntax-only -Wall main.c", t, include_tree_facts(t), INCLUDE_TREE_RULE)
        write(os.path.join(d, "shape.hpp"), "#pragma once\n#include <cmath>\nstruct Shape { double w, h; };\n")
        write(os.path.join(d, "main.cpp"),
              "#include <vector>\n#include <map>\n#include <string>\n#include <iostream>\n#include <algorithm>\n"
              "#include \"shape.hpp\"\n\nint main() {\n  std::vector<Shape> v{{1, 2}};\n  int unused = 0;\n"
              "  std::cout << area(v[0]) << std::endl;\n}\n")
        t = run("g++ -H -fsyntax-only -Wall main.cpp", cwd=d)
        case("gxx-h-includes", "log", "g++ -H -fsyntax-only -Wall main.cpp", t, include_tree_facts(t), INCLUDE_TREE_RULE)


GO_X_RULE = ("every compiler error (`./file.go:line:col: …`), every failing test's `--- FAIL:` line "
             "and the message under it, and the go tool's FAIL/ok verdicts")


def go_x_facts(t):
    """`go … -x`'s must-keep facts (round 109): diagnostics, failing tests
    with their messages, verdicts, among the commands echoed."""
    lines = t.splitlines()
    keep = []
    for i, l in enumerate(lines):
        if re.match(r"^\./\S+\.go:\d+:\d+: ", l) or re.match(r"^(FAIL|ok)\s", l) or l.strip() == "FAIL":
            keep.append(l.rstrip())
        if l.startswith("--- FAIL:"):
            keep.append(l.rstrip())
            if i + 1 < len(lines) and lines[i + 1].startswith("    "):
                keep.append(lines[i + 1].rstrip())
    return keep


def go_x_cases():
    """Round 109: a module of the standard library only, built or tested
    with `-x`, the commands the go tool runs (work directories, importcfg
    heredocs, compile and link lines) printed around what went wrong.
    go-build-x-undefined (tuning half) is the probe: two names undefined;
    go-test-x (evaluation half) is held out: a table test with two failing
    cases, its rule the same, written before ghost ran on it."""
    env_go = "GOFLAGS=-mod=mod GOPROXY=off GOCACHE=/tmp/ghost-gocache-x GOPATH=/tmp/ghost-gopath"
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "calc")
        write(os.path.join(d, "go.mod"), "module example.com/calc\n\ngo 1.19\n")
        write(os.path.join(d, "calc.go"),
              "package calc\n\nimport (\n\t\"strconv\"\n\t\"strings\"\n)\n\n"
              "// Sum adds the numbers in a comma-separated list.\nfunc Sum(list string) int {\n\ttotal := 0\n"
              "\tfor _, f := range strings.Split(list, \",\") {\n\t\tn, _ := strconv.Atoi(strings.TrimSpace(f))\n"
              "\t\ttotal += n\n\t}\n\treturn totl\n}\n\nfunc Mean(list string) float64 {\n"
              "\treturn float64(Sum(list)) / float64(count(list))\n}\n")
        shutil.rmtree("/tmp/ghost-gocache-x", ignore_errors=True)
        t = run(f"{env_go} go build -x ./...", cwd=d)
        case("go-build-x-undefined", "log", "go build -x ./...", t, go_x_facts(t), GO_X_RULE)
        write(os.path.join(d, "calc.go"),
              "package calc\n\nimport (\n\t\"strconv\"\n\t\"strings\"\n)\n\n"
              "// Sum adds the numbers in a comma-separated list.\nfunc Sum(list string) int {\n\ttotal := 0\n"
              "\tfor _, f := range strings.Split(list, \",\") {\n\t\tn, _ := strconv.Atoi(f)\n"
              "\t\ttotal += n\n\t}\n\treturn total\n}\n")
        write(os.path.join(d, "calc_test.go"),
              "package calc\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n"
              "\tfor _, c := range []struct {\n\t\tin   string\n\t\twant int\n\t}{{\"1,2\", 3}, {\"1, 2\", 3}, {\" 4,5 \", 9}, {\"7\", 7}} {\n"
              "\t\tif got := Sum(c.in); got != c.want {\n\t\t\tt.Errorf(\"Sum(%q) = %d, want %d\", c.in, got, c.want)\n\t\t}\n\t}\n}\n\n"
              "func TestSumEmpty(t *testing.T) {\n\tif got := Sum(\"\"); got != 0 {\n\t\tt.Fatalf(\"Sum of nothing = %d\", got)\n\t}\n}\n")
        shutil.rmtree("/tmp/ghost-gocache-x", ignore_errors=True)
        t = run(f"{env_go} go test -x ./...", cwd=d)
        case("go-test-x", "log", "go test -x ./...", t, go_x_facts(t), GO_X_RULE)
        shutil.rmtree("/tmp/ghost-gocache-x", ignore_errors=True)


DJANGO_CHECK_RULE = ("every check message (`object: (app.E123) message` and `?: (security.W004) …` lines) "
                     "with its `HINT:` line, and the closing `System check identified N issues` line")


def django_check_facts(t):
    """Django's system-check facts (round 110): each message with the hint
    under it, and the count of issues."""
    lines = t.splitlines()
    keep = []
    for i, l in enumerate(lines):
        if re.match(r"^.+?: \([a-z_]+\.[EWCI]\d+\) ", l):
            keep.append(l.rstrip())
            if i + 1 < len(lines) and lines[i + 1].lstrip().startswith("HINT:"):
                keep.append(lines[i + 1].rstrip())
        if re.match(r"^System check identified \d+ issues?", l):
            keep.append(l.rstrip())
    return keep


def django_project(d, app, models, admin="", settings_extra=""):
    """A one-app Django project under `d` (settings, urls, manage.py)."""
    write(os.path.join(d, "manage.py"),
          "import os, sys\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site_conf.settings')\n"
          "from django.core.management import execute_from_command_line\nexecute_from_command_line(sys.argv)\n")
    write(os.path.join(d, "site_conf", "__init__.py"), "")
    write(os.path.join(d, "site_conf", "urls.py"),
          "from django.contrib import admin\nfrom django.urls import path\nurlpatterns = [path('admin/', admin.site.urls)]\n")
    write(os.path.join(d, "site_conf", "settings.py"),
          "SECRET_KEY = 'django-insecure-k3y'\nDEBUG = True\nALLOWED_HOSTS = []\nROOT_URLCONF = 'site_conf.urls'\n"
          f"INSTALLED_APPS = ['django.contrib.admin', 'django.contrib.auth', 'django.contrib.contenttypes', "
          f"'django.contrib.sessions', 'django.contrib.messages', '{app}']\n"
          "MIDDLEWARE = ['django.contrib.sessions.middleware.SessionMiddleware', "
          "'django.contrib.auth.middleware.AuthenticationMiddleware', "
          "'django.contrib.messages.middleware.MessageMiddleware']\n"
          "TEMPLATES = [{'BACKEND': 'django.template.backends.django.DjangoTemplates', 'APP_DIRS': True, "
          "'OPTIONS': {'context_processors': ['django.template.context_processors.request', "
          "'django.contrib.auth.context_processors.auth', 'django.contrib.messages.context_processors.messages']}}]\n"
          "DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': 'db.sqlite3'}}\n" + settings_extra)
    write(os.path.join(d, app, "__init__.py"), "")
    write(os.path.join(d, app, "models.py"), "from django.db import models\n\n" + models)
    write(os.path.join(d, app, "admin.py"), "from django.contrib import admin\n" + admin)


def django_check_cases(venv):
    """Round 110: Django's system checks, each message naming the object
    it is about (`shop.Order.buyer: (fields.E304) …`) with a `HINT:` line
    under most, many of one kind when a project has many models.
    django-check-models (tuning half) is the probe: `manage.py check` of a
    shop whose 24 models set no primary key type (a W042 warning each) and
    break field and Meta rules; django-check-deploy (evaluation half) is
    held out: `manage.py check --deploy` of a blog with insecure settings,
    a broken admin and a few models, its rule the same, written before
    ghost ran on it."""
    python = os.path.join(venv, "python")
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "shop")
        models = "".join(f"class {n}(models.Model):\n    name = models.CharField(max_length=80)\n"
                         f"    created = models.DateTimeField(auto_now_add=True)\n\n\n"
                         for n in ["Customer", "Supplier", "Warehouse", "Shelf", "Category", "Brand", "Product",
                                   "Variant", "PriceList", "Coupon", "Cart", "CartLine", "Shipment", "Carrier",
                                   "Invoice", "Refund", "Review", "Wishlist", "Tag", "Banner"])
        models += ("class Order(models.Model):\n    buyer = models.ForeignKey(Customer, on_delete=models.CASCADE)\n"
                   "    seller = models.ForeignKey(Customer, on_delete=models.CASCADE)\n"
                   "    note = models.CharField()\n    total = models.DecimalField(decimal_places=2)\n\n"
                   "    class Meta:\n        ordering = ['-placed_at']\n        unique_together = [('buyer', 'number')]\n\n\n"
                   "class OrderLine(models.Model):\n    order = models.ForeignKey('Order', on_delete=models.CASCADE)\n"
                   "    product = models.ForeignKey('Prodcut', on_delete=models.PROTECT)\n"
                   "    quantity = models.PositiveIntegerField(default='one')\n    pk = models.IntegerField()\n\n\n"
                   "class Payment(models.Model):\n    order = models.OneToOneField(Order, on_delete=models.SET_NULL)\n"
                   "    amount = models.FloatField(max_length=10)\n\n\n"
                   "class Stock(models.Model):\n    product = models.ForeignKey(Product, on_delete=models.CASCADE)\n"
                   "    shelf = models.ForeignKey(Shelf, on_delete=models.CASCADE)\n    count = models.IntegerField()\n\n"
                   "    class Meta:\n        indexes = [models.Index(fields=['count'], name='9_stock_count')]\n"
                   "        constraints = [models.UniqueConstraint(fields=['product', 'bin'], name='one_stock_per_bin')]\n")
        django_project(d, "shop", models)
        t = run(f"{python} manage.py check", cwd=d)
        case("django-check-models", "log", "python manage.py check", t, django_check_facts(t), DJANGO_CHECK_RULE)

        b = new_dir(work, "blog")
        models = ("class Author(models.Model):\n    name = models.CharField(max_length=80)\n\n\n"
                  "class Post(models.Model):\n    author = models.ForeignKey(Author, on_delete=models.CASCADE)\n"
                  "    title = models.CharField(max_length=200)\n    slug = models.SlugField(unique=True)\n"
                  "    body = models.TextField()\n    tags = models.ManyToManyField('Tag', through='Tagging')\n\n\n"
                  "class Tag(models.Model):\n    label = models.CharField(max_length=40)\n\n\n"
                  "class Tagging(models.Model):\n    post = models.ForeignKey(Post, on_delete=models.CASCADE)\n\n\n"
                  "class Comment(models.Model):\n    post = models.ForeignKey(Post, on_delete=models.CASCADE)\n"
                  "    email = models.EmailField()\n    text = models.TextField()\n")
        admin = ("from blog.models import Author, Post, Comment\n\n\n"
                 "@admin.register(Post)\nclass PostAdmin(admin.ModelAdmin):\n"
                 "    list_display = ['title', 'author', 'published']\n    list_filter = ['status']\n"
                 "    search_fields = 'title'\n    prepopulated_fields = {'slug': ('headline',)}\n"
                 "    raw_id_fields = ['tags']\n\n\n"
                 "@admin.register(Comment)\nclass CommentAdmin(admin.ModelAdmin):\n"
                 "    list_display = ['email', 'post']\n    list_editable = ['email']\n    ordering = 'email'\n\n\n"
                 "admin.site.register(Author, list_per_page='ten')\n")
        settings = "DEFAULT_AUTO_FIELD = 'django.db.models.BigAutoField'\nSESSION_COOKIE_SECURE = False\n"
        django_project(b, "blog", models, admin, settings)
        t = run(f"{python} manage.py check --deploy", cwd=b)
        case("django-check-deploy", "log", "python manage.py check --deploy", t, django_check_facts(t),
             DJANGO_CHECK_RULE)


SCRAPY_RULE = ("every ERROR and WARNING line, the exception closing each traceback, every `Ignoring response` "
               "line, the `Spider closed` line and the stats' finish_reason, item counts and log_count/ERROR")


def scrapy_facts(t):
    """Scrapy's must-keep facts (round 111): the crawl's errors and
    warnings with each traceback's exception, the pages it ignored, how
    it ended."""
    lines = t.splitlines()
    keep = []
    for i, l in enumerate(lines):
        if (re.search(r"\] (ERROR|WARNING): ", l) or "Ignoring response <" in l or "Spider closed (" in l
                or re.match(r"^\s*['{ ]*'(finish_reason|item_scraped_count|item_dropped_count|log_count/ERROR)'", l)):
            keep.append(l.rstrip())
        if l.startswith("Traceback (most recent call last):"):
            j = i + 1
            while j < len(lines) and (lines[j].startswith(" ") or not lines[j].strip()):
                j += 1
            if j < len(lines):
                keep.append(lines[j].rstrip())
    return keep


def serve_folder(folder):
    """`python3 -m http.server` on a free port of 127.0.0.1 serving
    `folder`: (process, port)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = subprocess.Popen(["python3", "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=folder,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return p, port


def scrapy_crawl_cases(venv):
    """Round 111: Scrapy's default log (DEBUG: every request crawled and
    every item scraped, as a dict over several lines), errors and their
    tracebacks among them, then the stats dumped as a dict.
    scrapy-crawl-log (tuning half) is the probe: a catalogue of 60
    product pages, 7 without a price (the spider's KeyError) and 5 links
    to pages that do not exist; scrapy-items-dropped (evaluation half) is
    held out: 40 articles, a pipeline dropping those without an author,
    and links to a port nothing listens on, its rule the same, written
    before ghost ran on it."""
    scrapy = os.path.join(venv, "scrapy")
    with tempfile.TemporaryDirectory() as work:
        site = new_dir(work, "site")
        links = []
        for i in range(60):
            price = "" if i % 9 == 4 else f"<span class='price'>{(i * 37) % 200 + 0.99:.2f}</span>"
            write(os.path.join(site, "p", f"{i}.html"),
                  f"<html><body><h1>Product {i}</h1><p class='sku'>SKU-{1000 + i}</p>{price}</body></html>")
            links.append(f"<a href='p/{i}.html'>{i}</a>")
        links += [f"<a href='p/{i}.html'>gone {i}</a>" for i in (71, 88, 93, 104, 117)]
        write(os.path.join(site, "index.html"), "<html><body>" + " ".join(links) + "</body></html>")
        spider = os.path.join(work, "catalogue.py")
        write(spider,
              "import scrapy\n\n\nclass Catalogue(scrapy.Spider):\n    name = 'catalogue'\n"
              "    custom_settings = {'ROBOTSTXT_OBEY': False, 'TELNETCONSOLE_ENABLED': False}\n\n"
              "    def __init__(self, root=None, **kw):\n        super().__init__(**kw)\n        self.start_urls = [root]\n\n"
              "    def parse(self, response):\n        for href in response.css('a::attr(href)').getall():\n"
              "            yield response.follow(href, self.parse_product)\n\n"
              "    def parse_product(self, response):\n        fields = {'title': response.css('h1::text').get(),\n"
              "                  'sku': response.css('.sku::text').get()}\n"
              "        prices = {k: v for k, v in [('price', response.css('.price::text').get())] if v}\n"
              "        yield {**fields, 'price': float(prices['price'])}\n")
        server, port = serve_folder(site)
        try:
            command = f"scrapy runspider catalogue.py -a root=http://127.0.0.1:{port}/ -o items.json"
            t = run(f"{scrapy} runspider catalogue.py -a root=http://127.0.0.1:{port}/ -o items.json", cwd=work)
        finally:
            server.kill()
        case("scrapy-crawl-log", "log", command, t, scrapy_facts(t), SCRAPY_RULE)

        blog = new_dir(work, "blog")
        links = []
        for i in range(40):
            author = "" if i % 8 == 3 else f"<p class='by'>author {i % 5}</p>"
            write(os.path.join(blog, "a", f"{i}.html"),
                  f"<html><body><h2>Article {i}</h2>{author}<div class='words'>{120 + i * 11}</div></body></html>")
            links.append(f"<a href='a/{i}.html'>{i}</a>")
        links += [f"<a href='http://127.0.0.1:1/mirror/{i}.html'>mirror {i}</a>" for i in (2, 5)]
        write(os.path.join(blog, "index.html"), "<html><body>" + " ".join(links) + "</body></html>")
        write(os.path.join(work, "articles.py"),
              "import scrapy\nfrom scrapy.exceptions import DropItem\n\n\nclass NeedsAuthor:\n"
              "    def process_item(self, item, spider):\n        if not item.get('author'):\n"
              "            raise DropItem(f\"no author on {item['url']}\")\n        return item\n\n\n"
              "class Articles(scrapy.Spider):\n    name = 'articles'\n"
              "    custom_settings = {'ROBOTSTXT_OBEY': False, 'TELNETCONSOLE_ENABLED': False, 'RETRY_TIMES': 1,\n"
              "                       'ITEM_PIPELINES': {'articles.NeedsAuthor': 100}}\n\n"
              "    def __init__(self, root=None, **kw):\n        super().__init__(**kw)\n        self.start_urls = [root]\n\n"
              "    def parse(self, response):\n        for href in response.css('a::attr(href)').getall():\n"
              "            yield response.follow(href, self.parse_article)\n\n"
              "    def parse_article(self, response):\n        yield {'url': response.url, 'title': response.css('h2::text').get(),\n"
              "               'author': response.css('.by::text').get(), 'words': int(response.css('.words::text').get())}\n")
        server, port = serve_folder(blog)
        try:
            command = f"scrapy runspider articles.py -a root=http://127.0.0.1:{port}/ -o articles.jsonl"
            t = run(f"PYTHONPATH={work} {scrapy} runspider articles.py -a root=http://127.0.0.1:{port}/ -o articles.jsonl",
                    cwd=work)
        finally:
            server.kill()
        case("scrapy-items-dropped", "log", command, t, scrapy_facts(t), SCRAPY_RULE)


PYTEST_LOG_RULE = ("every failing or erroring test's name (its `FAILED`/`ERROR` line), every `E   ` line, "
                   "every log record at WARNING or above, and the closing summary line")


def pytest_log_facts(t):
    """Round 112's must-keep facts: the failures, their assertion lines,
    the records at WARNING or above among the logs, the summary."""
    return [l.rstrip() for l in t.splitlines()
            if re.search(r"(FAILED|ERROR)( |$)", l) and ("::" in l or l.startswith(("FAILED", "ERROR")))
            and not re.match(r"^(FAILED|ERROR) +\[ *\d+%\]$", l)
            or l.startswith("E   ")
            or re.search(r"\b(WARNING|ERROR|CRITICAL)\b", l) and not l.startswith("=") and "::" not in l
            or re.match(r"^=+ .*\d+ (passed|failed)", l)]


INVENTORY_SERVICE = """import logging

log = logging.getLogger("inventory")


class OutOfStock(Exception):
    pass


class Inventory:
    def __init__(self, stock):
        self.stock = dict(stock)
        log.debug("loaded %d skus", len(self.stock))

    def reserve(self, sku, qty):
        log.debug("reserve %s x%d (have %s)", sku, qty, self.stock.get(sku))
        have = self.stock.get(sku, 0)
        if qty > have:
            log.warning("cannot reserve %s x%d: only %d left", sku, qty, have)
            raise OutOfStock(sku)
        self.stock[sku] = have - qty
        log.info("reserved %s x%d, %d left", sku, qty, self.stock[sku])
        return self.stock[sku]

    def restock(self, sku, qty):
        log.debug("restock %s x%d", sku, qty)
        if qty <= 0:
            log.error("refusing restock of %s by %d", sku, qty)
            return self.stock.get(sku, 0)
        self.stock[sku] = self.stock.get(sku, 0) + qty
        log.info("restocked %s to %d", sku, self.stock[sku])
        return self.stock[sku]

    def value(self, prices):
        total = 0
        for sku, n in self.stock.items():
            log.debug("valuing %s: %d at %s", sku, n, prices.get(sku))
            total += n * prices[sku]
        return round(total, 2)
"""


def pytest_log_cases(venv):
    """Round 112: the code under test logs, and pytest shows the records:
    live between the tests' lines, or captured under each report.
    pytest-live-log (tuning half) is the probe: 40 tests of an inventory
    whose every call logs at DEBUG and INFO, three failing, one warning and
    one error logged among passing tests, `pytest -v --log-cli-level=DEBUG`;
    pytest-logs-failing (evaluation half) is held out: the same code's
    other suite under `pytest -rA --log-level=DEBUG`, its rule the same,
    written before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "inv")
        write(os.path.join(d, "inventory.py"), INVENTORY_SERVICE)
        tests = "import pytest\nfrom inventory import Inventory, OutOfStock\n\n\n"
        tests += "@pytest.fixture\ndef inv():\n    return Inventory({f'SKU-{i}': i * 3 for i in range(1, 25)})\n\n\n"
        for i in range(1, 35):
            tests += f"def test_reserve_{i}(inv):\n    assert inv.reserve('SKU-{i % 24 + 1}', 1) == {(i % 24 + 1) * 3 - 1}\n\n\n"
        tests += ("def test_reserve_too_many(inv):\n    with pytest.raises(OutOfStock):\n        inv.reserve('SKU-2', 50)\n\n\n"
                  "def test_restock_zero(inv):\n    assert inv.restock('SKU-3', 0) == 9\n\n\n"
                  "def test_restock_adds(inv):\n    assert inv.restock('SKU-4', 5) == 18\n\n\n"
                  "def test_value(inv):\n    assert inv.value({f'SKU-{i}': 1.5 for i in range(1, 25)}) == 1350.0\n\n\n"
                  "def test_value_missing_price(inv):\n    assert inv.value({'SKU-1': 2.0}) == 6.0\n\n\n"
                  "def test_reserve_unknown(inv):\n    assert inv.reserve('SKU-99', 1) == 0\n")
        write(os.path.join(d, "test_inventory.py"), tests)
        py = os.path.join(venv, "python")
        t = run(f"{py} -m pytest -v -p no:cacheprovider --log-cli-level=DEBUG test_inventory.py", cwd=d)
        case("pytest-live-log", "log", "pytest -v --log-cli-level=DEBUG test_inventory.py", t, pytest_log_facts(t),
             PYTEST_LOG_RULE)

        tests = "import pytest\nfrom inventory import Inventory, OutOfStock\n\n\n"
        tests += "@pytest.fixture\ndef inv():\n    return Inventory({'A': 5, 'B': 0, 'C': 12})\n\n\n"
        for i in range(1, 21):
            tests += f"def test_restock_{i}(inv):\n    assert inv.restock('C', {i}) == {12 + i}\n\n\n"
        tests += ("def test_reserve_empty(inv):\n    assert inv.reserve('B', 1) == 0\n\n\n"
                  "def test_restock_negative(inv):\n    assert inv.restock('A', -2) == 3\n\n\n"
                  "def test_value_half(inv):\n    assert inv.value({'A': 0.5, 'B': 1, 'C': 0.25}) == 5.0\n\n\n"
                  "@pytest.fixture\ndef priced(inv):\n    return inv.value({'A': 1})\n\n\n"
                  "def test_value_with_fixture(priced):\n    assert priced > 0\n")
        write(os.path.join(d, "test_restock.py"), tests)
        t = run(f"{py} -m pytest -rA -p no:cacheprovider --log-level=DEBUG test_restock.py", cwd=d)
        case("pytest-logs-failing", "log", "pytest -rA --log-level=DEBUG test_restock.py", t, pytest_log_facts(t),
             PYTEST_LOG_RULE)


ROLLUP_RULE = ("every `(!)` warning title and every line listed under it (the modules, imports and "
               "cycles it names, up to a code frame), every `[!]` error line, and each `created …` line")


def rollup_facts(t):
    """rollup's must-keep facts (round 113): its warnings with what each
    lists, its errors, the bundles it wrote."""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", l).rstrip() for l in t.splitlines()]
    keep = []
    under = False
    for l in lines:
        if l.startswith(("(!) ", "[!] ")) or re.match(r"^created \S+ in ", l):
            keep.append(l)
            under = l.startswith("(!) ")
        elif under and re.match(r"^\d+: |^\s+\^", l):
            under = False  # a code frame, not a thing the warning names
        elif under and l.strip() and not l.startswith("http"):
            keep.append(l)
        elif not l.strip():
            under = False
    return keep


def rollup_cases(js):
    """Round 113: rollup's own report of a build, warnings titled `(!)`
    with the modules each concerns listed under them, and `[!]` for what
    stops it. rollup-build-warnings (tuning half) is the probe: an app of
    28 modules importing 16 packages that are not installed (built before
    `npm install`), with two import cycles, a module-level `this` and an `eval`; rollup-warnings
    (evaluation half) is held out: a library of two entry points whose
    build warns of cycles and an unused external import, then fails on a
    name its module does not export, its rule the same, written before
    ghost ran on it."""
    rollup = os.path.join(os.path.abspath(js), "node_modules", ".bin", "rollup")
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "app")
        names = ["router", "store", "view", "format", "api", "cache", "auth", "theme", "i18n", "log", "clock", "id"]
        for i, n in enumerate(names):
            nxt = names[(i + 1) % len(names)]
            imp = f"import {{ {nxt} }} from './{nxt}.js';\n" if n in ("router", "store", "view", "auth", "theme") else ""
            if n == "view":
                imp += "import { router } from './router.js';\n"
            if n == "theme":
                imp += "import { auth } from './auth.js';\n"
            extra = ""
            if n == "api":
                extra = "import axios from 'axios';\nexport const get = (u) => axios.get(u);\n"
            if n == "format":
                extra = "import { format as fmt } from 'date-fns';\nexport const day = (d) => fmt(d, 'yyyy-MM-dd');\n"
            if n == "log":
                extra = "const self = this;\nexport const where = () => self;\n"
            if n == "cache":
                extra = "export const compute = (src) => eval(src);\n"
            write(os.path.join(d, "src", f"{n}.js"), imp + extra + f"export function {n}() {{ return '{n}'; }}\n")
        write(os.path.join(d, "src", "main.js"),
              "".join(f"import {{ {n} }} from './{n}.js';\n" for n in names)
              + "import { get } from './api.js';\nimport { day } from './format.js';\n"
              + f"console.log([{', '.join(n + '()' for n in names)}], get, day);\n")
        pkgs = ["react", "react-dom", "zustand", "immer", "dayjs", "nanoid", "clsx", "zod", "ky", "mitt", "qs",
                "lodash-es", "marked", "dompurify"]
        for i, pk in enumerate(pkgs):
            write(os.path.join(d, "src", "vendor", f"use{i}.js"),
                  f"import * as m{i} from '{pk}';\nexport const use{i} = () => m{i};\n")
        write(os.path.join(d, "src", "main.js"), open(os.path.join(d, "src", "main.js")).read()
              + "".join(f"import {{ use{i} }} from './vendor/use{i}.js';\nconsole.log(use{i}());\n" for i in range(len(pkgs))))
        t = run(f"NO_COLOR=1 {rollup} src/main.js --file dist/bundle.js --format es", cwd=d)
        case("rollup-build-warnings", "log", "rollup src/main.js --file dist/bundle.js --format es", t,
             rollup_facts(t), ROLLUP_RULE)

        lib = new_dir(work, "lib")
        write(os.path.join(lib, "src", "parse.js"),
              "import { tokens } from './lex.js';\nimport chalk from 'chalk';\nexport function parse(s) { return tokens(s); }\n")
        write(os.path.join(lib, "src", "lex.js"),
              "import { parse } from './parse.js';\nexport function tokens(s) { return s.split(/\\s+/); }\n"
              "export const again = (s) => parse(s);\n")
        write(os.path.join(lib, "src", "print.js"),
              "import { tokens } from './lex.js';\nimport { indentBy } from './util.js';\n"
              "export function print(s) { return tokens(s).map((t) => indentBy(t, 2)).join('\\n'); }\n")
        write(os.path.join(lib, "src", "util.js"), "export function indent(s, n) { return ' '.repeat(n) + s; }\n")
        write(os.path.join(lib, "src", "index.js"), "export { parse } from './parse.js';\nexport { print } from './print.js';\n")
        write(os.path.join(lib, "src", "cli.js"), "import { parse } from './parse.js';\nconsole.log(parse(process.argv[2]));\n")
        write(os.path.join(lib, "rollup.config.mjs"),
              "export default [\n  { input: 'src/cli.js', output: { file: 'dist/cli.js', format: 'cjs' } },\n"
              "  { input: 'src/index.js', output: { file: 'dist/index.js', format: 'es' } },\n];\n")
        t = run(f"NO_COLOR=1 {rollup} -c", cwd=lib)
        case("rollup-warnings", "log", "rollup -c", t, rollup_facts(t), ROLLUP_RULE)


TSC_BUILD_RULE = ("every `error TS` line, every project's verdict (`Project '…' is out of date because …`, "
                  "`… is up to date …`, `Building project …`, `Skipping build of project …`) and `Found N errors`")


def tsc_build_facts(t):
    """`tsc --build --verbose`'s must-keep facts (round 114): the errors,
    what it decided for each project, the count."""
    return [l.rstrip() for l in t.splitlines()
            if re.search(r"error TS\d+:", l)
            or re.search(r"(\]| -) (Project '.*' is (out of date|up to date)|Building project |Skipping build of project "
                         r"|Updating (unchanged )?output timestamps)", l)
            or re.match(r"^Found \d+ errors?", l)]


def ts_package(root, name, refs, files):
    """A composite TypeScript project `packages/<name>` referencing the
    projects `refs`, with source `files` ({path: text})."""
    d = os.path.join(root, "packages", name)
    write(os.path.join(d, "tsconfig.json"), json.dumps({
        "compilerOptions": {"composite": True, "strict": True, "target": "ES2020", "module": "commonjs",
                            "rootDir": "src", "outDir": "dist", "declaration": True},
        "include": ["src"], "references": [{"path": f"../{r}"} for r in refs]}, indent=2))
    for path, text in files.items():
        write(os.path.join(d, "src", path), text)


def tsc_build_cases(js):
    """Round 114: `tsc --build --verbose` walks a monorepo's project
    references and says, per project, why it builds or skips it, its
    diagnostics among those lines. tsc-build-monorepo (tuning half) is the
    probe: seven packages, the shared `core` with three type errors, so
    the four depending on it are skipped; tsc-build-verbose (evaluation
    half) is held out: a six-package repo built clean, then rebuilt after
    edits that break two leaf packages, its rule the same, written before
    ghost ran on it."""
    tsc = os.path.join(os.path.abspath(js), "node_modules", ".bin", "tsc")
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "mono")
        ts_package(d, "types", [], {"index.ts": "export interface User { id: number; name: string; email?: string }\n"
                                                "export type Role = 'admin' | 'member';\n"})
        ts_package(d, "util", [], {"index.ts": "export const clamp = (n: number, lo: number, hi: number) => "
                                               "Math.min(hi, Math.max(lo, n));\n",
                                   "strings.ts": "export function title(s: string): string { return s[0].toUpperCase() + s.slice(1); }\n"})
        ts_package(d, "core", ["types", "util"], {
            "index.ts": "import { User, Role } from '../../types/src';\nimport { clamp } from '../../util/src';\n\n"
                        "export function rank(u: User): number { return clamp(u.name.length, 0, '10'); }\n"
                        "export function can(role: Role, act: string): boolean { return role === 'owner' || act === 'read'; }\n"
                        "export function mail(u: User): string { return u.email.toLowerCase(); }\n"})
        for name in ["api", "web", "cli", "jobs"]:
            ts_package(d, name, ["core"], {"index.ts": f"import {{ rank }} from '../../core/src';\n"
                                                       f"export const {name} = (n: string) => rank({{ id: 1, name: n }});\n"})
        write(os.path.join(d, "tsconfig.json"), json.dumps(
            {"files": [], "references": [{"path": f"packages/{n}"} for n in ["api", "web", "cli", "jobs"]]}, indent=2))
        t = run(f"{tsc} --build --verbose", cwd=d)
        case("tsc-build-monorepo", "log", "tsc --build --verbose", t, tsc_build_facts(t), TSC_BUILD_RULE)

        r = new_dir(work, "repo")
        ts_package(r, "model", [], {"index.ts": "export interface Order { id: string; lines: Line[] }\n"
                                                "export interface Line { sku: string; qty: number; cents: number }\n"})
        ts_package(r, "money", [], {"index.ts": "export const fmt = (cents: number) => `$${(cents / 100).toFixed(2)}`;\n"})
        ts_package(r, "pricing", ["model", "money"], {"index.ts": "import { Order } from '../../model/src';\n"
                   "export const total = (o: Order) => o.lines.reduce((s, l) => s + l.qty * l.cents, 0);\n"})
        ts_package(r, "invoice", ["pricing", "money"], {"index.ts": "import { total } from '../../pricing/src';\n"
                   "import { fmt } from '../../money/src';\nimport { Order } from '../../model/src';\n"
                   "export const invoice = (o: Order) => `Order ${o.id}: ${fmt(total(o))}`;\n"})
        ts_package(r, "export", ["pricing"], {"index.ts": "import { total } from '../../pricing/src';\n"
                   "import { Order } from '../../model/src';\nexport const csv = (os: Order[]) => os.map((o) => `${o.id},${total(o)}`).join('\\n');\n"})
        ts_package(r, "report", ["pricing"], {"index.ts": "import { total } from '../../pricing/src';\n"
                   "import { Order } from '../../model/src';\nexport const best = (os: Order[]) => os.sort((a, b) => total(b) - total(a))[0];\n"})
        write(os.path.join(r, "tsconfig.json"), json.dumps(
            {"files": [], "references": [{"path": f"packages/{n}"} for n in ["invoice", "export", "report"]]}, indent=2))
        run(f"{tsc} --build", cwd=r)
        write(os.path.join(r, "packages", "invoice", "src", "index.ts"),
              "import { total } from '../../pricing/src';\nimport { fmt } from '../../money/src';\n"
              "import { Order } from '../../model/src';\n"
              "export const invoice = (o: Order) => `Order ${o.id}: ${fmt(total(o), 'USD')}`;\n"
              "export const due = (o: Order): Date => o.placed;\n")
        write(os.path.join(r, "packages", "report", "src", "index.ts"),
              "import { total } from '../../pricing/src';\nimport { Order } from '../../model/src';\n"
              "export const best = (os: Order[]): Order => os.sort((a, b) => total(b) - total(a))[0].id;\n")
        t = run(f"{tsc} --build --verbose", cwd=r)
        case("tsc-build-verbose", "log", "tsc --build --verbose", t, tsc_build_facts(t), TSC_BUILD_RULE)


SQL_ECHO_RULE = ("the exception (`sqlalchemy.exc.…` line) with the `[SQL: …]` and `[parameters: …]` lines "
                 "under it, every ROLLBACK, and each `Running upgrade` line a migration tool printed")


def sql_echo_facts(t):
    """Round 115's must-keep facts: the database error with the statement
    and parameters it names, the rollbacks, the migrations run."""
    lines = t.splitlines()
    keep = []
    for i, l in enumerate(lines):
        if re.match(r"^sqlalchemy\.exc\.\w+: ", l):
            keep.append(l.rstrip())
            for j, m in enumerate(lines[i + 1:i + 6], i + 1):
                if m.rstrip() == "[SQL:":  # the statement on the lines below: its first
                    keep.append(next(n.rstrip() for n in lines[j + 1:] if n.strip()))
                elif m.startswith(("[SQL: ", "[parameters: ")):
                    keep.append(m.rstrip())
        if re.search(r"\bROLLBACK\b", l) or "Running upgrade " in l:
            keep.append(l.rstrip())
    return keep


SQL_ECHO_APP = """import logging
from sqlalchemy import create_engine, ForeignKey, String, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s %(message)s")


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "customers"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(120), unique=True)
    orders: Mapped[list["Order"]] = relationship(back_populates="customer")


class Order(Base):
    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(primary_key=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customers.id"))
    cents: Mapped[int]
    customer: Mapped[Customer] = relationship(back_populates="orders")


engine = create_engine("sqlite:///shop.db", echo=True)
Base.metadata.create_all(engine)
with Session(engine) as s:
    for i in range(12):
        c = Customer(email=f"user{i}@example.com")
        c.orders = [Order(cents=100 * (i + j)) for j in range(3)]
        s.add(c)
        s.commit()
    for c in s.scalars(select(Customer).where(Customer.id < 6)):
        print(c.email, sum(o.cents for o in c.orders))
    s.add(Customer(email="user7@example.com"))
    s.commit()
"""


def sql_echo_cases(venv):
    """Round 115: SQLAlchemy's engine log, every statement echoed with its
    parameters and timing, the database's error at the end as an
    exception naming the statement. sqlalchemy-echo (tuning half) is the
    probe: an app adding twelve customers with orders, querying, then
    adding a customer whose e-mail is taken; alembic-upgrade (evaluation
    half) is held out: `alembic upgrade head` of four migrations with the
    engine's log on, the fourth creating a table the second made, its
    rule the same, written before ghost ran on it."""
    py = os.path.join(venv, "python")
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "shop")
        write(os.path.join(d, "app.py"), SQL_ECHO_APP)
        t = run(f"{py} app.py", cwd=d)
        case("sqlalchemy-echo", "log", "python app.py", t, sql_echo_facts(t), SQL_ECHO_RULE)

        m = new_dir(work, "migrations")
        run(f"{os.path.join(venv, 'alembic')} init alembic", cwd=m)
        ini = open(os.path.join(m, "alembic.ini")).read()
        ini = ini.replace("sqlalchemy.url = driver://user:pass@localhost/dbname", "sqlalchemy.url = sqlite:///app.db")
        ini = re.sub(r"(\[logger_sqlalchemy\]\nlevel = )WARN(ING)?", r"\1INFO", ini)
        write(os.path.join(m, "alembic.ini"), ini)
        steps = [("a1f0c2d3e4b5", None, "create users",
                  "op.create_table('users', sa.Column('id', sa.Integer, primary_key=True), sa.Column('email', sa.String(120)))"),
                 ("b2e1d3c4f5a6", "a1f0c2d3e4b5", "create orders",
                  "op.create_table('orders', sa.Column('id', sa.Integer, primary_key=True), "
                  "sa.Column('user_id', sa.Integer, sa.ForeignKey('users.id')), sa.Column('cents', sa.Integer))"),
                 ("c3d2e4f5a6b7", "b2e1d3c4f5a6", "index order users",
                  "op.create_index('ix_orders_user', 'orders', ['user_id'])"),
                 ("d4c3f5a6b7c8", "c3d2e4f5a6b7", "add order lines",
                  "op.create_table('orders', sa.Column('id', sa.Integer, primary_key=True), sa.Column('sku', sa.String(20)))")]
        for rev, down, msg, body in steps:
            write(os.path.join(m, "alembic", "versions", f"{rev}_{msg.replace(' ', '_')}.py"),
                  f'"""{msg}"""\nfrom alembic import op\nimport sqlalchemy as sa\n\nrevision = "{rev}"\n'
                  f'down_revision = {down!r}\nbranch_labels = None\ndepends_on = None\n\n\n'
                  f'def upgrade():\n    {body}\n\n\ndef downgrade():\n    pass\n')
        t = run(f"{os.path.join(venv, 'alembic')} upgrade head", cwd=m)
        case("alembic-upgrade", "log", "alembic upgrade head", t, sql_echo_facts(t), SQL_ECHO_RULE)


NPM_DEBUG_LOG_RULE = ("every `error` record (`N error …`), the error a `verbose stack` record names (its "
                      "first line; the frames under it are npm's), and the `verbose exit` record")


def npm_debug_log_facts(t):
    """npm's debug-log facts (round 116): its error records, the error its
    stack names (the frames below are npm's own), how it exited."""
    keep = []
    for l in t.splitlines():
        if re.match(r"^\d+ (error|verbose exit) ", l) or re.match(r"^\d+ verbose stack (?!\s+at )", l):
            keep.append(l.rstrip())
    return keep


def npm_debug_log_cases():
    """Round 116: npm's debug log, a numbered record per line (`12 silly
    placeDep …`, `timing`, `http fetch`), the failure's records at its end.
    npm-debug-install (tuning half) is the probe: `npm install` of three
    packages in a project whose cache is empty, one of them not on the
    registry; npm-debug-log (evaluation half) is held out: `npm run build`
    whose script exits 2, its rule the same, written before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        logs = new_dir(work, "logs")
        d = new_dir(work, "app")
        write(os.path.join(d, "package.json"), json.dumps(
            {"name": "app", "version": "1.0.0", "private": True,
             "scripts": {"build": "node build.js && echo built"}}, indent=2))
        env = f"npm_config_logs_dir={logs} npm_config_cache={os.path.join(work, 'cache')} npm_config_loglevel=silly"
        run(f"{env} npm install is-number@7 ms@2.1.3 ghost-no-such-package-zz9@1.0.0", cwd=d)
        log = sorted(glob.glob(os.path.join(logs, "*-debug-0.log")))[-1]
        t = open(log).read()
        case("npm-debug-install", "log", f"cat ~/.npm/_logs/{os.path.basename(log)}", t, npm_debug_log_facts(t),
             NPM_DEBUG_LOG_RULE)
        for f in glob.glob(os.path.join(logs, "*")):
            os.remove(f)
        write(os.path.join(d, "native", "package.json"), json.dumps(
            {"name": "native", "version": "0.1.0", "scripts": {"postinstall": "node -e \"process.exit(require('fs').existsSync('binding.gyp') ? 0 : 3)\""}}))
        write(os.path.join(d, "package.json"), json.dumps(
            {"name": "app", "version": "1.0.0", "private": True,
             "dependencies": {"express": "4.21.2", "native": "file:native"}}, indent=2))
        run(f"{env} npm install", cwd=d)
        log = sorted(glob.glob(os.path.join(logs, "*-debug-0.log")))[-1]
        t = open(log).read()
        case("npm-debug-log", "log", f"cat ~/.npm/_logs/{os.path.basename(log)}", t, npm_debug_log_facts(t),
             NPM_DEBUG_LOG_RULE)


JAVA_LOGGING_RULE = ("every WARNING and SEVERE record's message line, every logged exception's line "
                     "(`java.…Exception: …` and each `Caused by:`), and the last record's message")


def java_logging_facts(t):
    """Round 117's must-keep facts: the job's warnings and failures, the
    exceptions it logged, its closing record."""
    lines = t.splitlines()
    keep = []
    for l in lines:
        if re.search(r"(^|\s)(WARNING|SEVERE):? ", l) or re.match(r"^(Caused by: )?[a-z]+(\.[a-z]+)+\.\w*(Exception|Error): ", l):
            keep.append(l.rstrip())
    last = [l for l in lines if re.search(r"(^|\s)INFO:? ", l)]
    if last:
        keep.append(last[-1].rstrip())
    return keep


JAVA_BATCH = """package com.shop;

import java.util.logging.Level;
import java.util.logging.Logger;

public class Batch {
    private static final Logger LOG = Logger.getLogger(Batch.class.getName());

    static int price(int order) {
        if (order %% %(every)d == %(rem)d) {
            try {
                return Integer.parseInt("x" + order);
            } catch (NumberFormatException e) {
                throw new IllegalStateException("no price for order " + order, e);
            }
        }
        return order * 7 %% 100;
    }

    public static void main(String[] args) {
        int done = 0, failed = 0;
        LOG.info("batch started: %(n)d orders");
        for (int order = 1; order <= %(n)d; order++) {
            LOG.info("processing order " + order);
            if (order %% %(warn)d == 0) {
                LOG.warning("order " + order + " has no shipping address; using the billing one");
            }
            try {
                int cents = price(order);
                LOG.info("order " + order + " priced at " + cents + " cents");
                done++;
            } catch (IllegalStateException e) {
                LOG.log(Level.SEVERE, "order " + order + " failed", e);
                failed++;
            }
        }
        LOG.info("batch done: " + done + " processed, " + failed + " failed");
    }
}
"""


def java_logging_cases():
    """Round 117: java.util.logging's records around a batch job, a
    logged exception's trace (with its cause) in the middle of the run,
    the job going on. java-util-logging (tuning half) is the probe: 60
    orders, JUL's default format (a line naming the time, class and
    method, then `LEVEL: message`); java-logging-one-line (evaluation
    half) is held out: 45 orders with other failures, each record on one
    line by `java.util.logging.SimpleFormatter.format`, its rule the same,
    written before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        for cid, params, props in [
                ("java-util-logging", {"n": 60, "every": 19, "rem": 4, "warn": 11}, ""),
                ("java-logging-one-line", {"n": 45, "every": 13, "rem": 6, "warn": 8},
                 "'-Djava.util.logging.SimpleFormatter.format=%1$tF %1$tT %4$s %3$s - %5$s%6$s%n'")]:
            d = new_dir(work, cid)
            write(os.path.join(d, "src", "com", "shop", "Batch.java"), JAVA_BATCH % params)
            run("javac -d out src/com/shop/Batch.java", cwd=d)
            command = f"java {props} -cp out com.shop.Batch".replace("  ", " ")
            t = run(command, cwd=d)
            case(cid, "log", command, t, java_logging_facts(t), JAVA_LOGGING_RULE)


NODE_WARNING_RULE = ("every warning Node printed (`(node:PID) [CODE] …Warning: …` lines), the first frame "
                     "of each in the program's own file, and the program's last line of output")


def node_warning_facts(t, own):
    """Round 118's must-keep facts: Node's warnings, where in the
    program each came from, how the program ended."""
    lines = t.splitlines()
    keep = []
    for i, l in enumerate(lines):
        if re.match(r"^\(node:\d+\) (\[\w+\] )?\w*Warning: ", l):
            keep.append(l.rstrip())
            frame = next((f for f in lines[i + 1:i + 30] if own in f and f.lstrip().startswith("at ")), None)
            if frame:
                keep.append(frame.rstrip())
    out = [l for l in lines if l.strip() and not l.startswith(("(node:", "    at ", "(Use `node"))]
    if out:
        keep.append(out[-1].rstrip())
    return keep


def node_warning_cases():
    """Round 118: a Node program going on after warnings, each printed
    with its stack trace by `--trace-warnings` or `--trace-deprecation`,
    the program's own output around them (the two streams as a shell's
    `2>&1` merges them). node-deprecation-warnings (tuning half) is the
    probe: a report script calling `new Buffer()`, `util.isArray` and
    `url.parse` for 30 rows, then a clean-up module calling
    `fs.rmdirSync(…, { recursive: true })` and `crypto.createCipher`; node-emitter-leak-warning
    (evaluation half) is held out: a job queue adding an eleventh
    listener to one emitter and emitting a custom warning, its rule the
    same, written before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "report")
        write(os.path.join(d, "report.js"),
              "const util = require('util');\nconst url = require('url');\n\n"
              "function row(i) {\n  const id = new Buffer(String(1000 + i)).toString('hex');\n"
              "  const tags = util.isArray([i]) ? ['a', 'b'] : [];\n"
              "  const link = url.parse(`http://shop.example/orders/${i}?page=2`).pathname;\n"
              "  return `${i}\\t${id}\\t${tags.join(',')}\\t${link}`;\n}\n\n"
              "console.log('row\\tid\\ttags\\tlink');\nfor (let i = 0; i < 30; i++) console.log(row(i));\n"
              "console.log('report: 30 rows written');\n")
        write(os.path.join(d, "cleanup.js"),
              "const fs = require('fs');\nconst crypto = require('crypto');\n"
              "fs.mkdirSync('tmp/a/b', { recursive: true });\nfs.rmdirSync('tmp', { recursive: true });\n"
              "const c = crypto.createCipher('aes192', 'secret');\nconsole.log('cleanup: cipher', typeof c.update);\n")
        write(os.path.join(d, "report.js"), open(os.path.join(d, "report.js")).read() + "require('./cleanup');\n")
        t = run("node --trace-deprecation --trace-warnings report.js 2>&1", cwd=d)
        case("node-deprecation-warnings", "log", "node --trace-deprecation --trace-warnings report.js", t,
             node_warning_facts(t, ".js:"), NODE_WARNING_RULE)

        q = new_dir(work, "queue")
        write(os.path.join(q, "queue.js"),
              "const { EventEmitter } = require('events');\n\nclass Queue extends EventEmitter {}\n"
              "const queue = new Queue();\n\nfunction subscribe(worker) {\n"
              "  queue.on('job', (job) => console.log(`worker ${worker} took job ${job}`));\n}\n\n"
              "for (let w = 1; w <= 11; w++) subscribe(w);\n"
              "process.emitWarning('queue depth 11 exceeds the soft limit of 8', { code: 'QUEUE_DEPTH', type: 'CapacityWarning' });\n"
              "for (let j = 1; j <= 3; j++) queue.emit('job', j);\n"
              "const { test } = require('node:test');\nconsole.log('queue drained: 3 jobs, 11 workers');\n")
        t = run("node --trace-warnings queue.js 2>&1", cwd=q)
        case("node-emitter-leak-warning", "log", "node --trace-warnings queue.js", t,
             node_warning_facts(t, "queue.js"), NODE_WARNING_RULE)


CARGO_REGISTRY_RULE = ("cargo info: its first line, the version line and every feature's line (`name = [...]`); "
                       "cargo add: the `Adding …` line and every feature line (`+ name`, `- name`); any warning or note")


def cargo_registry_facts(t):
    """Round 119's must-keep facts: the crate, its version and each of its
    features, as `cargo info` or `cargo add` lists them."""
    lines = t.splitlines()
    keep = []
    if lines and not lines[0].lstrip().startswith(("Updating", "Adding")):
        keep.append(lines[0].rstrip())
    for l in lines:
        if (re.match(r"^version: ", l) or re.match(r"^ [ +]\S+\s+= \[", l) or re.match(r"^\s+[+-] \S+$", l)
                or re.match(r"^\s+Adding \S+ v", l) or re.match(r"^(warning|note): ", l)):
            keep.append(l.rstrip())
    return keep


def cargo_registry_cases():
    """Round 119: cargo's account of a crate on the registry, a feature a
    line: `cargo info` (`name = [what it enables]`, `+` before the
    defaults) and `cargo add` (`+ name` for each feature enabled, `- name`
    for the rest). cargo-info-reqwest and cargo-add-tokio (tuning half)
    are the probes; cargo-info-tokio and cargo-add-reqwest (evaluation
    half) are held out, their rule the same, written before ghost ran on
    them."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "app")
        run("cargo init -q --name app", cwd=d)
        for cid, command in [("cargo-info-reqwest", "cargo info reqwest"),
                             ("cargo-add-tokio", "cargo add tokio --features full"),
                             ("cargo-info-tokio", "cargo info tokio"),
                             ("cargo-add-reqwest", "cargo add reqwest --features json")]:
            t = run(command, cwd=d)
            case(cid, "log", command, t, cargo_registry_facts(t), CARGO_REGISTRY_RULE)


def cargo_add_twin_cases():
    """Round 120: a tuning twin of round 119's held-out cargo-add-reqwest
    (32 of its 187 features kept; its output unread). One crate's list is
    short here (cargo counts a long one: sqlx's `43 deactivated
    features`), so the twin adds a service's dependencies in one command,
    a block of features for each: cargo-add-service-deps, its rule round
    119's, written before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "app")
        run("cargo init -q --name app", cwd=d)
        t = "".join(run(c, cwd=d) for c in [
            "cargo add serde --features derive", "cargo add serde_json", "cargo add tokio --features full",
            "cargo add anyhow", "cargo add clap --features derive", "cargo add tracing",
            "cargo add tracing-subscriber --features env-filter", "cargo add axum", "cargo add rustls"])
        command = ("cargo add serde --features derive && cargo add serde_json && cargo add tokio --features full && "
                   "cargo add anyhow && cargo add clap --features derive && cargo add tracing && "
                   "cargo add tracing-subscriber --features env-filter && cargo add axum && cargo add rustls")
        case("cargo-add-service-deps", "log", command, t, cargo_registry_facts(t), CARGO_REGISTRY_RULE)


CARGO_UPDATE_RULE = ("every line naming a package the lock change moves (`Updating name vA -> vB`, `Adding`, "
                     "`Removing`, `Downgrading`, `Unchanged`), the `Locking N packages` line, any warning or note")


def cargo_update_facts(t):
    """Round 121's must-keep facts: each package line of a lock change
    and cargo's count of what it locked."""
    return [l.rstrip() for l in t.splitlines()
            if re.match(r"^\s+(Updating|Adding|Removing|Downgrading|Unchanged) \S+ v", l)
            or re.match(r"^\s+Locking \d+ packages?", l) or re.match(r"^(warning|note): ", l)]


def cargo_update_output(work, name, pins, command):
    """What `command` (a `cargo update`) prints in a new crate under
    `work` whose dependencies `pins` were locked at exactly their versions
    (`=4.0.32`), then relaxed to carets (`4.0.32`)."""
    d = new_dir(work, name)
    run("cargo init -q --name app", cwd=d)
    manifest = open(os.path.join(d, "Cargo.toml")).read()
    write(os.path.join(d, "Cargo.toml"), manifest + "".join(f'{n} = "={v}"\n' for n, v in pins.items()))
    run("cargo generate-lockfile", cwd=d)
    write(os.path.join(d, "Cargo.toml"), manifest + "".join(f'{n} = "{v}"\n' for n, v in pins.items()))
    return run(command, cwd=d)


def cargo_update_cases():
    """Round 121: `cargo update` after a crate's exact pins (`=4.0.32`)
    are relaxed (`4.0.32`, a caret): the lock written against the pins moves to the
    latest compatible versions, cargo printing each package it updates,
    adds or removes, in the order of their names. cargo-update-cli
    (tuning half) is the probe, a command-line tool's dependencies;
    cargo-update-workspace (evaluation half) is held out, a service's,
    run with `--verbose` so the packages left behind are listed too
    (`Unchanged … (available: …)`). Both rules were written before ghost
    ran on either."""
    projects = [
        ("cargo-update-cli", "cargo update", {
            "clap": "4.0.32", "serde": "1.0.150", "regex": "1.7.0", "anyhow": "1.0.66",
            "toml": "0.5.9", "walkdir": "2.3.2", "indicatif": "0.17.2"}),
        ("cargo-update-workspace", "cargo update --verbose", {
            "tokio": "1.23.0", "serde_json": "1.0.89", "rand": "0.8.4", "chrono": "0.4.23",
            "log": "0.4.17", "uuid": "1.2.2", "reqwest": "0.11.13", "hyper": "0.14.23"}),
    ]
    with tempfile.TemporaryDirectory() as work:
        for cid, command, pins in projects:
            t = cargo_update_output(work, cid, pins, command)
            case(cid, "log", command, t, cargo_update_facts(t), CARGO_UPDATE_RULE)


def cargo_update_large_cases():
    """Round 122: round 121 at the size of a real project's lock, held
    out: twenty crates pinned exactly to their 2022 versions, the lock
    written, the pins relaxed to carets, and `cargo update --dry-run`
    listing every package it would move (hundreds of lines, updates,
    additions and removals interleaved in the order of their names).
    cargo-update-dry-run (evaluation half), its rule round 121's, written
    before ghost ran on it."""
    pins = {"syn": "1.0.100", "tokio": "1.20.0", "hyper": "0.14.20", "reqwest": "0.11.11",
            "serde": "1.0.140", "serde_json": "1.0.82", "clap": "3.2.16", "regex": "1.6.0",
            "rayon": "1.5.3", "chrono": "0.4.19", "tracing": "0.1.35", "tracing-subscriber": "0.3.15",
            "anyhow": "1.0.58", "thiserror": "1.0.31", "futures": "0.3.21", "bytes": "1.2.0",
            "url": "2.2.2", "rand": "0.8.5", "itertools": "0.10.3", "once_cell": "1.13.0"}
    with tempfile.TemporaryDirectory() as work:
        t = cargo_update_output(work, "app", pins, "cargo update --dry-run")
        case("cargo-update-dry-run", "log", "cargo update --dry-run", t, cargo_update_facts(t), CARGO_UPDATE_RULE)


def cargo_update_verbose_cases():
    """Round 123: a tuning twin of round 122 (92 lines, read whole as a
    short log): forty crates pinned exactly to 2021 and 2022 versions,
    the lock written, the pins relaxed, then `cargo update --verbose`,
    which also lists the packages a caret holds back (`Unchanged …
    (available: …)`). cargo-update-verbose (tuning half), its rule round
    121's, written before ghost ran on it."""
    pins = {"syn": "1.0.90", "quote": "1.0.15", "proc-macro2": "1.0.36", "tokio": "1.17.0",
            "hyper": "0.14.18", "reqwest": "0.11.10", "serde": "1.0.136", "serde_json": "1.0.79",
            "serde_yaml": "0.8.23", "toml": "0.5.8", "clap": "3.1.6", "regex": "1.5.5", "rayon": "1.5.1",
            "chrono": "0.4.19", "time": "0.3.9", "tracing": "0.1.32", "tracing-subscriber": "0.3.9",
            "log": "0.4.16", "env_logger": "0.9.0", "anyhow": "1.0.56", "thiserror": "1.0.30",
            "futures": "0.3.21", "bytes": "1.1.0", "url": "2.2.2", "rand": "0.8.5", "itertools": "0.10.3",
            "once_cell": "1.10.0", "lazy_static": "1.4.0", "parking_lot": "0.12.0", "crossbeam": "0.8.1",
            "dashmap": "5.2.0", "indexmap": "1.8.1", "smallvec": "1.8.0", "uuid": "0.8.2",
            "base64": "0.13.0", "sha2": "0.10.2", "walkdir": "2.3.2", "tempfile": "3.3.0",
            "glob": "0.3.0", "num_cpus": "1.13.1"}
    with tempfile.TemporaryDirectory() as work:
        t = cargo_update_output(work, "app", pins, "cargo update --verbose")
        case("cargo-update-verbose", "log", "cargo update --verbose", t, cargo_update_facts(t), CARGO_UPDATE_RULE)


RUST_LINK_RULE = ("every `error`/`warning` header rustc prints, every line of the linker's own "
                  "messages (`undefined reference to`, `cannot find -l`, `collect2: error`, `ld returned`), "
                  "and cargo's closing `error: could not compile` line")


def rust_link_facts(t):
    """Round 124's must-keep facts: rustc's headers and what the linker
    said, each line once (a note's long command line is not one)."""
    keep = []
    for l in t.splitlines():
        s = l.strip()
        if re.match(r"^(error|warning)(\[E\d+\])?: ", l) or (
                len(s) < 400 and re.search(r"undefined reference to|cannot find -l|collect2: error|ld returned", s)):
            keep.append(l.rstrip())
    return keep


def rust_link_error_cases():
    """Round 124: a Rust build failing at its link step. rustc prints
    `error: linking with `cc` failed`, then the whole `cc` command line as
    one `note:` of several kilobytes, then the linker's messages.
    cargo-build-link-error (tuning half) is the probe: a crate calling
    four C functions its `extern "C"` blocks declare in two modules and
    nothing defines. cargo-link-missing-lib (evaluation half) is held
    out: a crate linking `#[link(name = "shopdb")]`, a library not on
    the machine, built by `cargo test`. The rule was written before ghost
    ran on either."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "pricing")
        run("cargo init -q --name pricing", cwd=d)
        write(os.path.join(d, "src", "ffi.rs"),
              'unsafe extern "C" {\n    pub fn shop_total(cents: *const i64, n: usize) -> i64;\n'
              '    pub fn shop_tax(cents: i64, rate_bp: u32) -> i64;\n}\n')
        write(os.path.join(d, "src", "report.rs"),
              'unsafe extern "C" {\n    fn report_open(path: *const u8) -> i32;\n    fn report_row(fd: i32, cents: i64) -> i32;\n}\n\n'
              'pub fn write(total: i64) -> i32 {\n    unsafe {\n        let fd = report_open(b"report.txt\\0".as_ptr());\n'
              '        report_row(fd, total)\n    }\n}\n')
        write(os.path.join(d, "src", "main.rs"),
              'mod ffi;\nmod report;\n\nfn main() {\n    let cents = [1999i64, 500, 12050];\n'
              '    let total = unsafe { ffi::shop_total(cents.as_ptr(), cents.len()) };\n'
              '    let taxed = unsafe { ffi::shop_tax(total, 825) };\n'
              '    println!("total {} taxed {} rc {}", total, taxed, report::write(taxed));\n}\n')
        t = run("cargo build", cwd=d)
        case("cargo-build-link-error", "log", "cargo build", t, rust_link_facts(t), RUST_LINK_RULE)

        d = new_dir(work, "inventory")
        run("cargo init -q --lib --name inventory", cwd=d)
        write(os.path.join(d, "src", "lib.rs"),
              '#[link(name = "shopdb")]\nunsafe extern "C" {\n    fn shopdb_open(path: *const u8) -> i32;\n'
              '    fn shopdb_count(db: i32, table: *const u8) -> i64;\n}\n\n'
              'pub fn stock(table: &str) -> i64 {\n    let name = format!("{table}\\0");\n'
              '    unsafe { shopdb_count(shopdb_open(b"shop.db\\0".as_ptr()), name.as_ptr()) }\n}\n\n'
              '#[cfg(test)]\nmod tests {\n    #[test]\n    fn counts_items() {\n'
              '        assert!(super::stock("items") >= 0);\n    }\n}\n')
        t = run("cargo test", cwd=d)
        case("cargo-link-missing-lib", "log", "cargo test", t, rust_link_facts(t), RUST_LINK_RULE)


PYTEST_SETUP_RULE = ("every failing or erroring test's name (its `FAILED`/`ERROR` line), every `E   ` line "
                     "and the closing summary line")


def pytest_setup_facts(t):
    """Round 125's must-keep facts: the failures, their assertion lines,
    the summary; the fixtures' SETUP and TEARDOWN lines are not facts."""
    return [l.rstrip() for l in t.splitlines()
            if re.search(r"(FAILED|ERROR)( |$)", l) and ("::" in l or l.startswith(("FAILED", "ERROR")))
            and not re.match(r"^(FAILED|ERROR) +\[ *\d+%\]$", l)
            or l.startswith("E   ")
            or re.match(r"^=+ .*\d+ (passed|failed|error)", l)]


def pytest_setup_show_cases(venv):
    """Round 125: `pytest --setup-show` prints a line for every fixture
    set up and torn down around every test, the test's own line between,
    its outcome letter or word at its end. pytest-setup-show (tuning
    half) is the probe: sixty tests of a price list using `tmp_path` and
    two fixtures of their own, three failing and one whose fixture
    raises; pytest-setup-show-classes (evaluation half) is held out:
    tests in classes with class- and module-scoped fixtures and a
    parametrized one, under `-v`, its rule the same, written before ghost
    ran on either."""
    py = os.path.join(venv, "python")
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "prices")
        write(os.path.join(d, "prices.py"),
              "def parse(text):\n    out = {}\n    for line in text.splitlines():\n"
              "        name, cents = line.split(',')\n        out[name.strip()] = int(cents)\n    return out\n\n\n"
              "def total(prices, names):\n    return sum(prices[n] for n in names)\n")
        tests = ("import pytest\nfrom prices import parse, total\n\n\n"
                 "@pytest.fixture\ndef price_file(tmp_path):\n    p = tmp_path / 'prices.csv'\n"
                 "    p.write_text('\\n'.join(f'item{i}, {i * 100}' for i in range(1, 31)))\n    return p\n\n\n"
                 "@pytest.fixture\ndef prices(price_file):\n    return parse(price_file.read_text())\n\n\n"
                 "@pytest.fixture\ndef broken_file(tmp_path):\n    p = tmp_path / 'broken.csv'\n"
                 "    p.write_text('item1 100')\n    return parse(p.read_text())\n\n\n")
        for i in range(1, 58):
            tests += f"def test_price_{i}(prices):\n    assert prices['item{i % 30 + 1}'] == {(i % 30 + 1) * 100}\n\n\n"
        tests += ("def test_total_three(prices):\n    assert total(prices, ['item1', 'item2', 'item3']) == 700\n\n\n"
                  "def test_total_missing(prices):\n    assert total(prices, ['item1', 'item99']) == 100\n\n\n"
                  "def test_price_of_first(prices):\n    assert prices['item1'] == 1000\n\n\n"
                  "def test_broken_line(broken_file):\n    assert broken_file == {}\n")
        write(os.path.join(d, "test_prices.py"), tests)
        t = run(f"{py} -m pytest --setup-show -p no:cacheprovider test_prices.py", cwd=d)
        case("pytest-setup-show", "log", "pytest --setup-show test_prices.py", t, pytest_setup_facts(t),
             PYTEST_SETUP_RULE)

        tests = ("import pytest\nfrom prices import parse, total\n\n\n"
                 "@pytest.fixture(scope='module')\ndef catalogue():\n"
                 "    return parse('\\n'.join(f'sku{i}, {i * 25}' for i in range(1, 13)))\n\n\n"
                 "@pytest.fixture(params=['sku1', 'sku4', 'sku9'])\ndef sku(request):\n    return request.param\n\n\n"
                 "class TestCatalogue:\n    @pytest.fixture(scope='class')\n    def basket(self, catalogue):\n"
                 "        return ['sku2', 'sku3']\n\n")
        for i in range(1, 13):
            tests += f"    def test_sku_{i}(self, catalogue):\n        assert catalogue['sku{i}'] == {i * 25}\n\n"
        tests += ("    def test_basket_total(self, catalogue, basket):\n        assert total(catalogue, basket) == 130\n\n"
                  "    def test_param_price(self, catalogue, sku):\n        assert catalogue[sku] % 50 == 0\n\n\n"
                  "class TestParse:\n")
        for i in range(1, 9):
            tests += f"    def test_line_{i}(self):\n        assert parse('a{i}, {i}') == {{'a{i}': {i}}}\n\n"
        tests += "    def test_no_comma(self):\n        assert parse('a 1') == {}\n"
        write(os.path.join(d, "test_catalogue.py"), tests)
        t = run(f"{py} -m pytest --setup-show -v -p no:cacheprovider test_catalogue.py", cwd=d)
        case("pytest-setup-show-classes", "log", "pytest --setup-show -v test_catalogue.py", t,
             pytest_setup_facts(t), PYTEST_SETUP_RULE)


def search_trace_cases(venv):
    """Round 128: a checker tracing its own search, each module it looks up
    and finds no cache for said once (`LOG:  Metadata not found for …`),
    hundreds of times, the diagnostics among them. mypy-verbose-ledger
    (evaluation half) is held out, a twin of round 107's probe with more
    of the standard library imported; its rule round 107's, written
    before ghost ran on it."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "ledger")
        write(os.path.join(d, "ledger", "__init__.py"), "")
        write(os.path.join(d, "ledger", "entries.py"),
              "import csv\nimport datetime\nimport decimal\nimport logging\nimport pathlib\n"
              "from collections import defaultdict\nfrom typing import Iterator\n\n"
              "log = logging.getLogger(__name__)\n\n\n"
              "def read(path: pathlib.Path) -> Iterator[dict[str, str]]:\n"
              "    with path.open() as f:\n        yield from csv.DictReader(f)\n\n\n"
              "def balance(path: pathlib.Path) -> decimal.Decimal:\n"
              "    totals: dict[str, decimal.Decimal] = defaultdict(decimal.Decimal)\n"
              "    for row in read(path):\n        totals[row[\"account\"]] += row[\"amount\"]\n"
              "    return sum(totals.values()) + 0.5\n\n\n"
              "def opened_on(row: dict[str, str]) -> datetime.date:\n"
              "    return datetime.datetime.strptime(row[\"date\"], \"%Y-%m-%d\")\n")
        write(os.path.join(d, "ledger", "report.py"),
              "import json\nimport pathlib\nimport statistics\n\nfrom ledger.entries import balance, read\n\n\n"
              "def summary(path: pathlib.Path) -> str:\n"
              "    amounts = [float(r[\"amount\"]) for r in read(path)]\n"
              "    return json.dumps({\"balance\": balance(path), \"mean\": statistics.mean(amounts)}).encode()\n")
        t = run(f"{venv}/mypy -v --no-incremental ledger", cwd=d)
        case("mypy-verbose-ledger", "log", "mypy -v ledger", t, debug_log_diagnostic_facts(t), DEBUG_LOG_DIAGNOSTIC_RULE)


def encoded_data_cases():
    """Round 127: certificates printed as text with their encoded bytes:
    a key's modulus and a signature in hex bytes joined by `:`, and the
    PEM block itself (base64 lines) that `-text` prints when `-noout` is
    not given. What is read is the labelled fields and where the block
    starts and ends, not the bytes. openssl-x509-self-signed (tuning
    half) is the probe; openssl-req-csr-text (evaluation half) is held
    out, a request with a longer key. Both rules were written before
    ghost ran on them."""
    with tempfile.TemporaryDirectory() as work:
        run(f"openssl req -x509 -newkey rsa:2048 -nodes -keyout {work}/c.key -out {work}/c.pem"
            " -days 30 -subj '/CN=ghost.test/O=Ghost Round 127/C=FR'")
        t = run(f"openssl x509 -in {work}/c.pem -text", stderr=False)
        case("openssl-x509-self-signed", "log", "openssl x509 -in cert.pem -text", t,
             lambda l: re.match(r"^\s+(Issuer|Subject|Not Before|Not After|Serial Number|Signature Algorithm|Public Key Algorithm|Public-Key):", l)
             or l.startswith("-----BEGIN ") or l.startswith("-----END "),
             "the issuer, subject, validity, serial number, key and algorithm lines, and the PEM block's BEGIN and END lines")
        run(f"openssl req -new -newkey rsa:3072 -nodes -keyout {work}/r.key -out {work}/r.csr"
            " -subj '/CN=api.ghost.test/O=Ghost Held Out/C=DE'")
        t = run(f"openssl req -in {work}/r.csr -text", stderr=False)
        case("openssl-req-csr-text", "log", "openssl req -in request.csr -text", t,
             lambda l: re.match(r"^\s+(Subject|Signature Algorithm|Public Key Algorithm|Public-Key|Version):", l)
             or l.startswith("-----BEGIN ") or l.startswith("-----END "),
             "the subject, version, key and algorithm lines, and the PEM block's BEGIN and END lines")


def cargo_update_workspace_cases():
    """Round 126: a real lock's update at its real size: `cargo update
    --dry-run` of this repository's workspace (nothing is written),
    printing every package the index of the day would move, `Updating`,
    `Removing` and `Adding` lines interleaved in one order of names.
    cargo-update-real-workspace (tuning half) is the probe, its rule
    round 121's, written before ghost ran on it."""
    t = run("cargo update --dry-run")
    case("cargo-update-real-workspace", "log", "cargo update --dry-run", t, cargo_update_facts(t), CARGO_UPDATE_RULE)


def debugging_twin_cases():
    """Round 95: a tuning twin of round 94's `git bisect run` (called an
    error; its output unread): another history and another check, its
    rule the counterpart's."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "bisect")
        git("init -q", d)
        for i in range(1, 31):
            write(os.path.join(d, "slug.py"),
                  "def slug(s):\n    return s.strip().lower().replace(' ', '-')"
                  + (".replace('--', '-')" if i < 22 else "") + "\n")
            write(os.path.join(d, "NOTES"), f"note {i}\n")
            git("add -A", d)
            git(f"commit -qm 'step {i}: adjust slug rules and notes'", d)
        write(os.path.join(d, "test.sh"),
              "#!/bin/sh\npython3 -c \"from slug import slug; assert slug(' A  B ') == 'a-b', slug(' A  B ')\"\n")
        os.chmod(os.path.join(d, "test.sh"), 0o755)
        t = git("bisect start HEAD HEAD~29", d) + git("bisect run ./test.sh", d)
        keep = bisect_facts(t, "    step ")
        case("git-bisect-run", "log", "git bisect start HEAD HEAD~29 && git bisect run ./test.sh", t, keep,
             "the first bad commit's line, its subject and bisect's verdict")


LISP_GRADES = """(defun parse-grade (field)
  (let ((n (read-from-string field)))
    n))
(defun row-grades (row)
  (mapcar #'parse-grade (cdr row)))
(defun average (xs)
  (/ (reduce #'+ xs) (length xs)))
(defun student-average (row)
  (average (row-grades row)))
(defun class-report (rows)
  (loop for row in rows
        collect (cons (car row) (student-average row))))
(print (class-report '(("ada" "90" "85") ("bob" "70" "\\\\"x\\\\""))))
"""

SCHEME_SCORES = """(define (score-at board i) (vector-ref board i))
(define (row-total board indices)
  (let loop ((is indices) (sum 0))
    (if (null? is) sum (loop (cdr is) (+ sum (score-at board (car is)))))))
(define (game-total boards)
  (map (lambda (b) (row-total b '(0 1 2 10))) boards))
(display (game-total (list (vector 1 2 3 4))))
(newline)
"""


def language_twin_cases():
    """Round 81: tuning twins of round 80's three misread cases (their
    outputs unread): SBCL's unhandled error and Guile's backtrace, called
    logs, and SBCL's compile-file warnings saved as `.txt`, called code;
    the rules the counterparts'."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "lisp")
        open(os.path.join(d, "grades.lisp"), "w").write(LISP_GRADES)
        t = run("sbcl --script grades.lisp", cwd=d)
        case("sbcl-unhandled-error", "error", "sbcl --script grades.lisp", t,
             sbcl_crash_facts(t, ["PARSE-GRADE", "ROW-GRADES", "AVERAGE", "STUDENT-AVERAGE", "CLASS-REPORT"]),
             "the condition's line and its message, the innermost and outermost frames of the script's own functions")
        forms = [f"(defun rate-{i} (x)\n  (let ((r (/ x {i + 2})))\n    (round r)))" for i in range(30)]
        forms.append("(defun summary (rows)\n  (let ((count 0) (width 10))\n    (dolist (r rows) (incf count))\n    count))")
        forms.append("(defun label (x)\n  (concatenate 'string \"n=\" x 5))")
        forms.append("(defun widths (xs)\n  (mapcar #'string-lenght xs))")
        forms.append("(defun shout (s)\n  (string-upcase (rate-77 s)))")
        open(os.path.join(d, "rates.lisp"), "w").write("\n".join(forms) + "\n")
        t = run("sbcl --non-interactive --eval '(compile-file \"rates.lisp\")'", cwd=d)
        keep = sbcl_compile_facts(t)
        case("sbcl-compile-file", "log", "sbcl --non-interactive --eval '(compile-file \"rates.lisp\")'", t, keep,
             "every `; in:` form, every `; caught …:` line with its message, the undefined functions and the tally")

        d = new_dir(work, "scheme")
        open(os.path.join(d, "scores.scm"), "w").write(SCHEME_SCORES)
        cache = new_dir(work, "guile-cache")
        t = run(f"XDG_CACHE_HOME={cache} guile scores.scm", cwd=d)
        keep = guile_crash_facts(t, "scores.scm")
        case("guile-script-error", "error", "guile scores.scm", t, keep,
             "the error and its message, the script's innermost frame and the line naming its file")


NIM_PARSE_TESTS = """import unittest, strutils

suite "parsing":
  for i in 0 ..< 120:
    test "parses item " & $i:
      check parseInt($i) == i
  test "parses negative":
    check parseInt("-5") == 5
  test "rejects junk":
    expect ValueError:
      discard parseInt("12")
  test "splits fields":
    check "a,b,c".split(',') == @["a", "b"]
"""

NIM_INVENTORY = """import strutils, tables, os

type Item = object
  name: string
  count: int

proc value(i: Item): float =
  i.count * i.price

proc restock(i: var Item, n: int) =
  i.count += n
  i.total = 0

proc main() =
  var spare = 0
  var x = Item(name: "bolt", count: 3)
  restock(x, "four")
  echo value(x)
  echo missing

main()
"""

PASCAL_LEDGER = """program Ledger;
uses SysUtils;
type
  TEntry = record
    Name: string;
    Amount: Integer;
  end;
var
  Entries: array of TEntry;
  I, Total: Integer;
  Unused: Real;
function Sum(const E: array of TEntry): Integer;
var J: Integer;
begin
  Result := 0;
  for J := 0 to High(E) do
    Result := Result + E[J].Amount;
end;
begin
  SetLength(Entries, 3);
  Entries[0].Name := 'rent';
  Entries[0].Amount := 'many';
  Total := Sum(Entries) + Missing;
  WriteLn(Format('%d', [Totl]));
  for I := 0 to 2 do
    WriteLn(Entries[I].Nme);
end.
"""

D_MODULES = {
    "stats.d": """module stats;
import std.algorithm : sum;
double mean(const double[] xs) { return xs.sum / xs.length; }
double median(double[] xs) { import std.algorithm : sort; xs.sort(); return xs[xs.length / 2]; }
unittest { assert(mean([1.0, 2.0, 3.0]) == 2.0); }
unittest { assert(median([3.0, 1.0, 2.0, 4.0]) == 2.5, "median of an even count"); }
""",
    "text.d": """module text;
import std.string : strip, split;
string[] words(string s) { return s.strip.split(" "); }
unittest { assert(words(" a b ") == ["a", "b"]); }
unittest { assert(words("a  b").length == 2); }
""",
    "app.d": """module app;
import stats, text;
int add(int a, int b) { return a + b; }
unittest { assert(add(2, 2) == 4); }
""",
}

ADA_INVENTORY = {
    "inventory.ads": """package Inventory is
   type Item is record
      Count : Natural;
      Price : Float;
   end record;
   function Value (I : Item) return Float;
   procedure Restock (I : in out Item; N : Natural);
end Inventory;
""",
    "inventory.adb": """package body Inventory is
   function Value (I : Item) return Float is
   begin
      return I.Count * I.Price;
   end Value;
   procedure Restock (I : in out Item; N : Natural) is
      Unused : Integer;
   begin
      I.Count := I.Count + N;
      I.Total := 0;
   end Restock;
end Inventory;
""",
    "main.adb": """with Ada.Text_IO; use Ada.Text_IO;
with Inventory;
procedure Main is
   Spare : Integer := 0;
   X : Inventory.Item := (Count => 3, Price => 2.5);
begin
   Inventory.Restock (X, 4);
   Put_Line (Float'Image (Inventory.Value (X)));
   null;
end Main;
""",
}

COBOL_PAYROLL = """       IDENTIFICATION DIVISION.
       PROGRAM-ID. PAYROLL.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-HOURS      PIC 9(3) VALUE 40.
       01 WS-RATE       PIC 9(3)V99 VALUE 12.50.
       01 WS-PAY        PIC 9(5)V99.
       PROCEDURE DIVISION.
           COMPUTE WS-PAY = WS-HOURS * WS-RATE.
           MOVE WS-PAY TO WS-TOTAL.
           DISPLAY "PAY: " WS-PAY.
           PERFORM PRINT-SLIP.
           ADD WS-BONUS TO WS-PAY.
           STOP RUN.
"""

LISP_LEDGER = """(defstruct entry name amount)
(defun parse-amount (text)
  (let ((n (parse-integer text :junk-allowed t)))
    (unless n (error "not an amount: ~s" text))
    n))
(defun parse-line (line)
  (let ((comma (position #\\, line)))
    (make-entry :name (subseq line 0 comma)
                :amount (parse-amount (subseq line (1+ comma))))))
(defun load-ledger (lines)
  (mapcar #'parse-line lines))
(defun ledger-total (lines)
  (reduce #'+ (load-ledger lines) :key #'entry-amount))
(format t "total: ~a~%" (ledger-total '("rent,900" "food,250" "fuel,n/a")))
"""

SCHEME_PRICES = """(define (price-of item) (cdr (assq 'price item)))
(define (first-price items) (price-of (car items)))
(define (total-of orders)
  (apply + (map first-price orders)))
(display (total-of (list (list (list (cons 'price 3))) (list 42))))
(newline)
"""


def held_out_language_cases():
    """Round 80, held out (every id in the evaluation half; the rules
    written before ghost ran on them): compilers, test runners and crashes
    of languages no round had run: Nim (`nim c -r` of a unittest suite,
    `nim check`), Free Pascal, D (gdc's unittests), Ada (gnatmake -k),
    GnuCOBOL, Common Lisp (SBCL's unhandled error and compile-file's
    warnings), SWI-Prolog's plunit, Guile and Crystal's spec runner."""
    with tempfile.TemporaryDirectory() as work:
        d = new_dir(work, "nim")
        open(os.path.join(d, "tparse.nim"), "w").write(NIM_PARSE_TESTS)
        t = run("nim c -r tparse.nim", cwd=d)
        lines = t.splitlines()
        keep = [l.strip() for i, l in enumerate(lines)
                if "[FAILED]" in l or "Check failed:" in l or "Expect Failed" in l
                or (i > 0 and "Check failed:" in lines[i - 1])]
        case("nim-unittest-failing", "log", "nim c -r tparse.nim", t, keep,
             "every [FAILED] line, every failed check or expect with the line after a check (its value)")
        open(os.path.join(d, "inv.nim"), "w").write(NIM_INVENTORY)
        t = run("nim check inv.nim", cwd=d)
        case("nim-compile-errors", "log", "nim check inv.nim", t,
             lambda l: re.match(r"^\S+\(\d+, \d+\) (Error|Warning|Hint):", l),
             "every diagnostic with its place (file(line, col) Error|Warning|Hint:)")

        d = new_dir(work, "pascal")
        open(os.path.join(d, "ledger.pas"), "w").write(PASCAL_LEDGER)
        t = run("fpc -vewnhi ledger.pas", cwd=d)
        case("fpc-build-errors", "log", "fpc -vewnhi ledger.pas", t,
             lambda l: re.search(r"\b(Error|Fatal|Warning|Note):", l)
             or re.match(r"^\S+\(\d+(,\d+)?\) Hint:", l),
             "every Error, Fatal, Warning and Note line, and every hint with its place")

        d = new_dir(work, "dlang")
        for name, text in D_MODULES.items():
            open(os.path.join(d, name), "w").write(text)
        t = run("gdc -funittest -fmain -o tests stats.d text.d app.d && ./tests", cwd=d)
        case("gdc-unittest-failing", "log", "gdc -funittest -fmain -o tests *.d && ./tests", t,
             lambda l: re.search(r"\.d\(\d+\):", l) or "unittests" in l,
             "every failing unittest's place and message, and the modules' tally")

        d = new_dir(work, "ada")
        for name, text in ADA_INVENTORY.items():
            open(os.path.join(d, name), "w").write(text)
        t = run("gnatmake -k -gnatwa main.adb", cwd=d)
        case("gnat-compile-errors", "log", "gnatmake -k -gnatwa main.adb", t,
             lambda l: re.match(r"^\S+\.ad[bs]:\d+:\d+: ", l) or l.startswith("gnatmake:"),
             "every diagnostic (file:line:col:) and gnatmake's verdict")

        d = new_dir(work, "cobol")
        open(os.path.join(d, "payroll.cob"), "w").write(COBOL_PAYROLL)
        t = run("cobc -x -Wall payroll.cob", cwd=d)
        case("cobc-compile-failing", "log", "cobc -x -Wall payroll.cob", t,
             lambda l: re.match(r"^\S+:\d+: (error|warning|note):", l),
             "every diagnostic (file:line: level:)")

        d = new_dir(work, "lisp")
        open(os.path.join(d, "ledger.lisp"), "w").write(LISP_LEDGER)
        t = run("sbcl --script ledger.lisp", cwd=d)
        case("sbcl-error-backtrace", "error", "sbcl --script ledger.lisp", t,
             sbcl_crash_facts(t, ["PARSE-AMOUNT", "PARSE-LINE", "LOAD-LEDGER", "LEDGER-TOTAL"]),
             "the condition's line and its message, the innermost and outermost frames of the script's own functions")
        steps = [f"(defun step-{i} (x)\n  (let ((y (* x {i + 1})))\n    (+ y {i})))" for i in range(40)]
        steps.append("(defun print-report (x)\n  (let ((unused 3))\n    (format t \"~a~%\" (step-99 x))))")
        steps.append("(defun scale (x)\n  (* x \"two\"))")
        steps.append("(defun tally (xs)\n  (reduce #'+ xs :key #'lenght))")
        open(os.path.join(d, "steps.lisp"), "w").write("\n".join(steps) + "\n")
        t = run("sbcl --non-interactive --eval '(compile-file \"steps.lisp\")'", cwd=d)
        keep = sbcl_compile_facts(t)
        case("sbcl-style-warnings", "log", "sbcl --non-interactive --eval '(compile-file \"steps.lisp\")'", t, keep,
             "every `; in:` form, every `; caught …:` line with its message, the undefined functions and the tally")

        d = new_dir(work, "prolog")
        tests = [":- use_module(library(plunit)).", ":- use_module(library(lists)).", "",
                 ":- begin_tests(lists_extra)."]
        tests += [f"test(sum_{i}) :- sum_list([{i}, 1], S), S =:= {i + 1}." for i in range(60)]
        tests += ["test(bad_last) :- last([1,2,3], X), X =:= 2.",
                  "test(bad_length, [true(N =:= 4)]) :- length([a,b,c], N).",
                  "test(bad_throw, [throws(error(type_error(_,_),_))]) :- atom_length(abc, _).",
                  ":- end_tests(lists_extra)."]
        open(os.path.join(d, "lists_test.pl"), "w").write("\n".join(tests) + "\n")
        t = run("swipl -g run_tests -t halt lists_test.pl", cwd=d)
        case("swipl-tests-failing", "log", "swipl -g run_tests -t halt lists_test.pl", t,
             lambda l: "bad_" in l or re.search(r"\b(Expected|Got):", l)
             or re.search(r"\d+ tests? (failed|passed)", l) or "FAILED" in l,
             "every line naming a failing test, its expected and actual values, the tallies")

        d = new_dir(work, "scheme")
        open(os.path.join(d, "prices.scm"), "w").write(SCHEME_PRICES)
        cache = new_dir(work, "guile-cache")
        t = run(f"XDG_CACHE_HOME={cache} guile prices.scm", cwd=d)
        keep = guile_crash_facts(t, "prices.scm")
        case("guile-crash", "error", "guile prices.scm", t, keep,
             "the error and its message, the script's innermost frame and the line naming its file")

        d = new_dir(work, "crystal")
        os.makedirs(os.path.join(d, "src"))
        os.makedirs(os.path.join(d, "spec"))
        open(os.path.join(d, "src", "parser.cr"), "w").write(
            "module Parser\n  def self.parse(s : String) : Int32\n    s.to_i.abs\n  end\n"
            "  def self.fields(s : String) : Array(String)\n    s.split(',').first(2)\n  end\nend\n")
        spec = ['require "spec"', 'require "../src/parser"', '', 'describe Parser do']
        spec += [f'  it "parses {i}" do\n    Parser.parse("{i}").should eq {i}\n  end' for i in range(150)]
        spec += ['  it "parses negatives" do\n    Parser.parse("-5").should eq -5\n  end',
                 '  it "splits every field" do\n    Parser.fields("a,b,c").should eq ["a", "b", "c"]\n  end', 'end']
        open(os.path.join(d, "spec", "parser_spec.cr"), "w").write("\n".join(spec) + "\n")
        t = run(f"XDG_CACHE_HOME={cache} crystal spec", cwd=d)
        case("crystal-specs-failing", "log", "crystal spec", t,
             lambda l: re.match(r"^\s+\d+\) ", l) or "Failure/Error:" in l
             or re.match(r"^\s+(Expected|got):", l) or re.search(r"\d+ examples?, \d+ failures?", l)
             or l.startswith("crystal spec "),
             "every failure's header, its Failure/Error line, Expected and got, the tally and every rerun line")


def held_out_setting_list_cases():
    """Round 78, held out (every id in the evaluation half; the rules
    written before ghost ran on them): long lists of settings, a name
    beside its value, each setting a fact."""
    t = run("getconf -a")
    case("getconf-all", "log", "getconf -a", t,
         [l.split()[0] for l in t.splitlines() if l.strip()], "every setting's name")
    t = run("npm config ls -l", cwd=tempfile.gettempdir(), stderr=False)
    case("npm-config-list-long", "log", "npm config ls -l", t,
         [l.split(" = ")[0] for l in t.splitlines() if " = " in l and not l.startswith(";")],
         "every setting's name")


def held_out_name_list_cases(venv):
    """Round 77, held out (every id in the evaluation half; the rules
    written before ghost ran on them): long lists of bare names, one a
    line (no `/` to tell them for paths), each name a fact."""
    t = run("ls -1 /usr/lib/R/site-library")
    case("ls-r-site-library", "log", "ls -1 /usr/lib/R/site-library", t,
         lambda l: bool(l.strip()), "every name")
    t = run(f"{venv}/pip freeze")
    case("pip-freeze-long", "log", "pip freeze", t, lambda l: bool(l.strip()), "every pin")
    t = run(f"cat {STDLIB}/json/*.py {STDLIB}/csv.py {STDLIB}/shlex.py | grep -oE '\\b[a-z_]{{4,}}\\b' "
            "| sort | uniq -c | sort -rn | head -300")
    case("sort-uniq-count", "log", "grep -oE '\\b[a-z_]{4,}\\b' *.py | sort | uniq -c | sort -rn | head -300",
         t, t.splitlines()[:10], "the ten most frequent words, with their counts")


def named_listing_twin_cases():
    """Round 76: tuning twins of round 75's `cargo-tree-no-prefix` (60/488
    kept) and `git-ls-files-s` (called structured), their outputs unread,
    and a longer `sha256sum` listing than round 75's; the rules the
    counterparts', written before ghost ran on them. Needs crates.io's
    index."""
    work = tempfile.mkdtemp(prefix="ghost-round76-")
    try:
        c = new_dir(work, "tool")
        write(os.path.join(c, "Cargo.toml"), '[package]\nname = "tool"\nversion = "0.1.0"\nedition = "2021"\n\n'
              '[dependencies]\nclap = { version = "4", features = ["derive"] }\nserde_json = "1"\n'
              'regex = "1"\ntokio = { version = "1", features = ["full"] }\nreqwest = "0.12"\n'
              'tracing-subscriber = { version = "0.3", features = ["env-filter", "json"] }\n')
        write(os.path.join(c, "src", "main.rs"), "fn main() {}\n")
        t = run("cargo tree --prefix none -e normal", cwd=c, stderr=False)
        case("cargo-tree-flat", "log", "cargo tree --prefix none -e normal", t,
             lambda l: bool(l.strip()), "every line (each a package)")
        lib = os.path.join(work, "pylib")
        os.makedirs(lib)
        for pkg in ["json", "xml", "http", "urllib", "logging", "concurrent", "importlib", "unittest"]:
            shutil.copytree(os.path.join(STDLIB, pkg), os.path.join(lib, pkg),
                            ignore=shutil.ignore_patterns("__pycache__"))
        git("init -q -b main", lib)
        git("add -A", lib)
        git("commit -q -m base", lib)
        t = git("ls-files -s", lib)
        case("git-ls-files-stage", "log", "git ls-files -s", t,
             [l.split()[-1] for l in t.splitlines() if l.strip()], "every file's path")
        t = run("find . -type f -name '*.py' | sort | xargs sha256sum", cwd=lib)
        case("sha256sum-list", "log", "find . -name '*.py' | xargs sha256sum", t,
             [l.split()[-1] for l in t.splitlines() if l.strip()], "every file's path")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def held_out_named_listing_cases(venv):
    """Round 75, held out (every id in the evaluation half; the rules
    written before ghost ran on them): listings whose lines differ in a
    name beside a digest, a mode or a version, each name a fact."""
    work = tempfile.mkdtemp(prefix="ghost-round75-")
    try:
        lib = os.path.join(work, "email")
        shutil.copytree(os.path.join(STDLIB, "email"), lib, ignore=shutil.ignore_patterns("__pycache__"))
        t = run("find . -type f -name '*.py' | sort | xargs sha256sum", cwd=lib)
        case("sha256sum-files", "log", "find . -name '*.py' | xargs sha256sum", t,
             [l.split()[-1] for l in t.splitlines() if l.strip()], "every file's path")
        git("init -q -b main", lib)
        git("add -A", lib)
        git("commit -q -m base", lib)
        t = git("ls-files -s", lib)
        case("git-ls-files-s", "log", "git ls-files -s", t,
             [l.split()[-1] for l in t.splitlines() if l.strip()], "every file's path")
        for k, (f, msg) in enumerate([("utils.py", "Parse dates leniently"), ("header.py", "Fold long headers"),
                                      ("mime/text.py", "Default to utf-8"), ("parser.py", "Accept bytes"),
                                      ("message.py", "Keep the policy")]):
            with open(os.path.join(lib, f), "a") as fh:
                fh.write(f"\n# change {k}\n")
            with open(os.path.join(lib, "_policybase.py"), "a") as fh:
                fh.write(f"\n# change {k}\n")
            git("add -A", lib)
            git(f"commit -q -m '{msg}'", lib)
        t = git("log --name-only -n 5", lib)
        case("git-log-name-only", "log", "git log --name-only -n 5", t,
             lambda l: l.endswith(".py") or l.startswith("commit ") or l.startswith("    "),
             "every commit's line, every message line and every file named")
        t = run(f"{venv}/pip show -f hypothesis")
        case("pip-show-f", "log", "pip show -f hypothesis", t,
             lambda l: l.startswith("  ") or l.startswith("Name:") or l.startswith("Version:"),
             "the name, the version and every file")
        t = run("cargo tree --prefix none -e normal --workspace", cwd=os.getcwd(), stderr=False)
        case("cargo-tree-no-prefix", "log", "cargo tree --prefix none -e normal --workspace", t,
             lambda l: bool(l.strip()), "every line (each a package)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def file_list_twin_cases():
    """Round 74: tuning twins of `git-status-short-many` (17/155 kept) and
    `name-status-diff` (3/155 kept) of round 73, evaluation half, their
    outputs unread: Perl's library in its folders, edited, its files
    renamed and removed, under `git status --short` and `git diff
    --name-status`, the rules the counterparts'; and `du -sh` of another
    folder, a twin of `du-sh-dirs` (kept whole, called structured)."""
    work = tempfile.mkdtemp(prefix="ghost-round74-")
    try:
        repo = os.path.join(work, "perl")
        shutil.copytree("/usr/share/perl/5.36.0", repo, symlinks=True,
                        ignore=lambda d, names: [n for n in names if not (n.endswith(".pm") or os.path.isdir(os.path.join(d, n)))])
        files = sorted(os.path.relpath(os.path.join(d, n), repo)
                       for d, _, ns in os.walk(repo) for n in ns if n.endswith(".pm"))[:200]
        keep = set(files)
        for d, _, ns in os.walk(repo):
            for n in ns:
                if os.path.relpath(os.path.join(d, n), repo) not in keep:
                    os.remove(os.path.join(d, n))
        git("init -q -b main", repo)
        git("add -A", repo)
        git("commit -q -m base", repo)
        for f in files[:120]:
            with open(os.path.join(repo, f), "a") as fh:
                fh.write("\n# touched\n")
        for f in files[120:135]:
            git(f"mv {f} {f[:-3]}_old.pm", repo)
        for f in files[135:150]:
            os.remove(os.path.join(repo, f))
        for k in range(12):
            write(os.path.join(repo, "Local", f"Shop{k}.pm"), f"package Local::Shop{k};\n1;\n")
        t = git("status --short --untracked-files=all", repo)
        paths = lambda text: [l.split()[-1] for l in text.splitlines() if l.strip()]
        case("git-status-porcelain", "log", "git status --short --untracked-files=all", t, paths(t), "every path")
        git("add -A", repo)
        git("commit -q -m edits", repo)
        t = git("diff --name-status HEAD~1", repo)
        case("git-diff-name-status", "log", "git diff --name-status HEAD~1", t, paths(t), "every path")
        t = run("du -sh /usr/lib/*", stderr=False)
        case("du-sh", "log", "du -sh /usr/lib/*", t, paths(t), "every folder")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def held_out_file_list_cases():
    """Round 73, held out (every id in the evaluation half; the rules
    written before ghost ran on them): long listings in which each line
    names a file beside a status or a number, so lines differ from each
    other only in a path and a number. Every file named is a fact."""
    work = tempfile.mkdtemp(prefix="ghost-round73-")
    try:
        repo = new_dir(work, "lib")
        names = sorted(n for n in os.listdir(STDLIB) if n.endswith(".py"))[:160]
        for n in names:
            shutil.copy(os.path.join(STDLIB, n), os.path.join(repo, n))
        git("init -q -b main", repo)
        git("add -A", repo)
        git("commit -q -m base", repo)
        for n in names[:130]:
            with open(os.path.join(repo, n), "a") as f:
                f.write("\n# touched\n")
        for n in names[130:140]:
            os.remove(os.path.join(repo, n))
        for k in range(15):
            write(os.path.join(repo, "new", f"module_{k}.py"), f"VALUE = {k}\n")
        t = git("status --short --untracked-files=all", repo)
        paths = lambda text: [l.split()[-1] for l in text.splitlines() if l.strip()]
        case("git-status-short-many", "log", "git status --short --untracked-files=all", t, paths(t),
             "every path")
        git("add -A", repo)
        git("commit -q -m edits", repo)
        t = git("diff --name-status HEAD~1", repo)
        case("name-status-diff", "log", "git diff --name-status HEAD~1", t, paths(t), "every path")
        t = run("wc -l *.py", cwd=repo)
        case("wc-l-python-files", "log", "wc -l *.py", t, paths(t), "every file's name (and the total)")
        t = run("du -sh /usr/share/*", stderr=False)
        case("du-sh-dirs", "log", "du -sh /usr/share/*", t, paths(t), "every folder")
        t = run("grep -c import *.py", cwd=repo)
        case("grep-c-count", "log", "grep -c import *.py", t, [l.split(":")[0] for l in t.splitlines() if l],
             "every file's name")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def dev_tool_twin_cases():
    """Round 72: tuning twins of `git-branch-vv` (round 71, evaluation
    half, 4/7 kept) and `rustc-explain-e0382` (called a log given its
    command); their outputs stay unread. Each is another run of the same
    kind, its rule the counterpart's, written before it ran."""
    work = tempfile.mkdtemp(prefix="ghost-round72-")
    try:
        t = run("rustc --explain E0502")
        case("rustc-explain", "prose", "rustc --explain E0502", t, [t.splitlines()[0]],
             "the first line (what the error means)")
        repo = new_dir(work, "ledger")
        git("init -q -b trunk", repo)
        write(os.path.join(repo, "README"), "ledger\n")
        git("add -A", repo)
        git("commit -q -m 'Open the ledger'", repo)
        for k, name in enumerate(["bugfix/overdraft", "feature/export-csv", "feature/multi-currency",
                                  "hotfix/2.0.1", "experiment/sqlite", "chore/deps", "refactor/accounts"]):
            git(f"checkout -q -b {name} trunk", repo)
            write(os.path.join(repo, f"n{k}.txt"), f"{name}\n")
            git("add -A", repo)
            git(f"commit -q -m 'Begin {name}'", repo)
        git("checkout -q trunk", repo)
        t = git("branch -vv", repo)
        case("git-branch-vv-shop", "log", "git branch -vv", t, lambda l: bool(l.strip()),
             "every line (each a branch)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def held_out_dev_tool_cases():
    """Round 71, held out (every id in the evaluation half; the rules
    written before ghost ran on them): what an agent asks developer tools
    while it works: an error code's explanation, a repository's branches,
    a query's table, a tool's commands. Needs rustc, git, sqlite3, cargo."""
    work = tempfile.mkdtemp(prefix="ghost-round71-")
    try:
        t = run("rustc --explain E0382")
        case("rustc-explain-e0382", "prose", "rustc --explain E0382", t, [t.splitlines()[0]],
             "the first line (what the error means)")
        repo = new_dir(work, "repo")
        git("init -q -b main", repo)
        write(os.path.join(repo, "a.txt"), "a\n")
        git("add -A", repo)
        git("commit -q -m 'Start the shop'", repo)
        for k, name in enumerate(["feature/cart", "feature/checkout", "fix/rounding", "release/1.2",
                                  "spike/ledger", "docs/api"]):
            git(f"checkout -q -b {name} main", repo)
            write(os.path.join(repo, f"f{k}.txt"), f"{name}\n")
            git("add -A", repo)
            git(f"commit -q -m 'Work on {name}'", repo)
        git("checkout -q main", repo)
        t = git("branch -vv", repo)
        case("git-branch-vv", "log", "git branch -vv", t, lambda l: bool(l.strip()),
             "every line (each a branch)")
        db = os.path.join(work, "shop.db")
        run(f"sqlite3 {db} \"create table item(id integer primary key, name text, price real, stock integer); "
            "insert into item(name, price, stock) values ('apple', 0.5, 120), ('pear', 0.75, 80), "
            "('plum', 0.3, 0), ('kiwi', 0.9, 45), ('fig', 1.2, 12), ('lime', 0.25, 300), ('date', 2.5, 7), "
            "('melon', 3.0, 9), ('grape', 2.2, 60), ('peach', 0.8, 33);\"")
        t = run(f"sqlite3 -header -column {db} 'select id, name, price, stock from item order by name'")
        case("sqlite3-header-column", "log", "sqlite3 -header -column shop.db 'select …'", t,
             lambda l: bool(re.match(r"^\d+\s", l)), "every row")
        t = run("cargo --list")
        case("cargo-list-commands", "log", "cargo --list", t, lambda l: bool(re.match(r"^    \S", l)),
             "every command's line")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def shell_file_twin_cases():
    """Round 70: tuning twins of `makefile-xz-dos`, `cat-dockerfile-gdal`
    and `cat-etc-os-release` (round 69, evaluation half, which the
    classifier called logs; their outputs stay unread), each another file
    of the same kind printed through the shell, its rule written before
    ghost ran on it."""
    reg = os.path.expanduser("~/.cargo/registry/src")
    path = glob.glob(os.path.join(reg, "*", "r-efi-6.0.0", "Makefile"))[0]
    t = open(path).read()
    case("cat-makefile", "code", "cat Makefile", t,
         lambda l: re.match(r"^[^\s#=:][^=]*:([^=]|$)", l), "every rule's target line")
    t = open(os.path.expanduser("~/.pyenv/test/Dockerfile")).read()
    case("cat-dockerfile", "code", "cat test/Dockerfile", t,
         lambda l: re.match(r"^\s*[A-Z]+ ", l), "every instruction line (FROM, RUN, ARG, …)")
    t = run("locale")
    case("shell-locale", "structured", "locale", t,
         [l.split("=", 1)[0] for l in t.splitlines() if "=" in l], "every key")


def held_out_shell_file_cases():
    """Round 69, held out (every id in the evaluation half; the rules
    written before ghost ran on them): what an agent prints through Bash
    rather than reads: files by `cat` and `sed -n` (their class is the
    file's), and two system listings."""
    reg = os.path.expanduser("~/.cargo/registry/src")
    path = glob.glob(os.path.join(reg, "*", "liblzma-sys-0.4.9", "xz", "dos", "Makefile"))[0]
    t = open(path).read()
    case("makefile-xz-dos", "code", "cat xz/dos/Makefile", t,
         lambda l: re.match(r"^[^\s#=:][^=]*:([^=]|$)", l),
         "every rule's target line")
    path = "/usr/lib/R/site-library/sf/docker/gdal/Dockerfile"
    t = open(path).read()
    case("cat-dockerfile-gdal", "code", "cat docker/gdal/Dockerfile", t,
         lambda l: re.match(r"^[A-Z]+ ", l),
         "every instruction line (FROM, RUN, ENV, …)")
    t = open("/etc/os-release").read()
    case("cat-etc-os-release", "structured", "cat /etc/os-release", t,
         [l.split("=", 1)[0] for l in t.splitlines() if "=" in l], "every key")
    path = sorted(glob.glob(os.path.join(reg, "*", "itoa-1.*", "src", "lib.rs")))[-1]
    t = run(f"sed -n 1,160p {path}")
    case("sed-n-rust-source", "code", "sed -n 1,160p src/lib.rs", t,
         lambda l: re.match(r"^\s*(pub(\([\w:]+\))? )?(unsafe )?(fn|struct|enum|trait|impl|mod|const|type|macro_rules!) ", l),
         "every item's signature line (fn, struct, enum, trait, impl, mod, const, type, macro)")
    t = run("ps aux")
    case("ps-aux", "log", "ps aux", t, lambda l: bool(l.strip()), "every line (each a process)")
    t = run("df -h")
    case("df-human", "log", "df -h", t, lambda l: bool(l.strip()), "every line (each a file system)")


def perl_make_test_twin_cases():
    """Round 68: a tuning twin of `perl-module-make-test` (round 67,
    evaluation half, which the classifier calls prose given its command;
    that output stays unread): another Perl module's `perl Makefile.PL &&
    make && make test`, two test files, one failing, its rule the
    counterpart's, written before it ran. Needs perl and make."""
    work = tempfile.mkdtemp(prefix="ghost-round68-")
    try:
        m = new_dir(work, "ledger")
        write(os.path.join(m, "Makefile.PL"),
              "use ExtUtils::MakeMaker;\nWriteMakefile(NAME => 'Shop::Ledger', VERSION_FROM => 'lib/Shop/Ledger.pm');\n")
        write(os.path.join(m, "lib", "Shop", "Ledger.pm"),
              "package Shop::Ledger;\nour $VERSION = '0.02';\nsub balance { my ($in, $out) = @_; return $in - $out }\n"
              "sub fee { my ($amount) = @_; return int($amount / 100) }\n1;\n")
        write(os.path.join(m, "t", "balance.t"),
              "use strict;\nuse warnings;\nuse Test::More tests => 2;\nuse Shop::Ledger;\n"
              "is(Shop::Ledger::balance(10, 4), 6, 'balance');\nis(Shop::Ledger::balance(0, 0), 0, 'empty');\n")
        write(os.path.join(m, "t", "fee.t"),
              "use strict;\nuse warnings;\nuse Test::More tests => 2;\nuse Shop::Ledger;\n"
              "is(Shop::Ledger::fee(250), 2, 'fee of 250');\nis(Shop::Ledger::fee(99), 1, 'fee rounds up');\n")
        t = run("perl Makefile.PL && make && make test", cwd=m)
        case("perl-make-test", "log", "perl Makefile.PL && make && make test", t,
             lambda l: "Failed test" in l or re.match(r"^#\s+(got|expected):", l) or l.startswith("Result:")
             or l.startswith("make: ***"),
             "every `Failed test` line, each `got:`/`expected:` line, `Result:` and make's `***` line")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def held_out_package_build_cases():
    """Round 67, held out (every id in the evaluation half; the rules
    written before ghost ran on them): building and testing packages of
    R and Perl, and a document converter's warnings. Needs R with its
    headers, pandoc, perl and make."""
    work = tempfile.mkdtemp(prefix="ghost-round67-")
    try:
        pkg = new_dir(work, "shopr")
        write(os.path.join(pkg, "DESCRIPTION"), "Package: shopr\nVersion: 0.1.0\nTitle: Shop Totals\n"
              "Description: Sums a cart.\nAuthor: Ghost\nMaintainer: Ghost <g@example.com>\nLicense: MIT\n"
              "Encoding: UTF-8\n")
        write(os.path.join(pkg, "NAMESPACE"), "useDynLib(shopr, .registration = TRUE)\nexport(cart_total)\n")
        write(os.path.join(pkg, "R", "total.R"), "cart_total <- function(x) .Call(C_cart_total, as.numeric(x))\n")
        write(os.path.join(pkg, "src", "Makevars"), "PKG_CFLAGS = -Wall\n")
        write(os.path.join(pkg, "src", "total.c"),
              "#include <R.h>\n#include <Rinternals.h>\n#include <R_ext/Rdynload.h>\n"
              "SEXP cart_total(SEXP x) {\n    int unused_count = 0;\n    double s = 0;\n"
              "    for (R_xlen_t i = 0; i < XLENGTH(x); i++) s += REAL(x)[i];\n    return ScalarReal(s);\n}\n"
              "static const R_CallMethodDef calls[] = {{\"C_cart_total\", (DL_FUNC) &cart_total, 1}, {NULL, NULL, 0}};\n"
              "void R_init_shopr(DllInfo *dll) { R_registerRoutines(dll, NULL, calls, NULL, NULL); "
              "R_useDynamicSymbols(dll, FALSE); }\n")
        os.makedirs(os.path.join(work, "lib"))
        t = run("R CMD INSTALL --library=lib shopr", cwd=work)
        case("r-cmd-install-shop", "log", "R CMD INSTALL --library=lib shopr", t,
             lambda l: ": warning: " in l or l.startswith("* "),
             "every `warning:` line and R's own `*` lines (what it installs, DONE)")
        write(os.path.join(work, "doc.md"),
              "# Shop guide\n\nSee ![logo](img/logo.png) and ![chart](img/chart.svg).\n\n## Totals\n\n"
              "Use [the API][api].\n\n# Shop guide\n\nText with a footnote[^1].\n\n[^2]: An unused note.\n")
        t = run("pandoc --verbose --self-contained -o out.html doc.md", cwd=work)
        case("pandoc-missing-image", "log", "pandoc --verbose --self-contained -o out.html doc.md", t,
             lambda l: l.startswith("[WARNING]") or "not found" in l,
             "every `[WARNING]` line and the line saying what was not found")
        m = new_dir(work, "cart")
        write(os.path.join(m, "Makefile.PL"),
              "use ExtUtils::MakeMaker;\nWriteMakefile(NAME => 'Shop::Cart', VERSION_FROM => 'lib/Shop/Cart.pm');\n")
        write(os.path.join(m, "lib", "Shop", "Cart.pm"),
              "package Shop::Cart;\nour $VERSION = '0.01';\nsub total { my $s = 0; $s += $_ for @_; return $s }\n"
              "sub count { return scalar(@_) - 1 }\n1;\n")
        write(os.path.join(m, "t", "cart.t"),
              "use strict;\nuse warnings;\nuse Test::More tests => 3;\nuse Shop::Cart;\n"
              "is(Shop::Cart::total(1, 2, 3), 6, 'total');\nis(Shop::Cart::count(1, 2, 3), 3, 'count');\n"
              "ok(defined $Shop::Cart::VERSION, 'version');\n")
        t = run("perl Makefile.PL && make && make test", cwd=m)
        case("perl-module-make-test", "log", "perl Makefile.PL && make && make test", t,
             lambda l: "Failed test" in l or re.match(r"^#\s+(got|expected):", l) or l.startswith("Result:")
             or l.startswith("make: ***"),
             "every `Failed test` line, each `got:`/`expected:` line, `Result:` and make's `***` line")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def runtime_twin_cases():
    """Round 66: tuning twins of `perl-syntax-check` and `tcl-errorinfo`
    (round 65, evaluation half, which the classifier called logs; their
    outputs stay unread), each another script of the same kind, its rule
    written before it ran. Needs perl and tclsh."""
    work = tempfile.mkdtemp(prefix="ghost-round66-")
    try:
        write(os.path.join(work, "p2.pl"),
              'use strict;\nuse warnings;\nsub price {\n    my ($qty, $unit) = @_;\n    return $qty * $unitt;\n}\n'
              'print price(2, 3), "\\n";\n')
        t = run("perl p2.pl", cwd=work)
        case("perl-aborted-compilation", "error", "perl p2.pl", t,
             lambda l: " at p2.pl line " in l or "aborted due to compilation errors" in l,
             "every `at p2.pl line N` message and `aborted due to compilation errors`")
        write(os.path.join(work, "m.tcl"),
              "proc total {items} {\n    set sum 0\n    foreach i $items {\n"
              "        set sum [expr {$sum + [price_of $i]}]\n    }\n    return $sum\n}\n"
              "puts \"pricing the cart\"\nputs [total {apple pear}]\n")
        t = run("tclsh m.tcl", cwd=work)
        case("tcl-missing-proc", "error", "tclsh m.tcl", t,
             lambda l: l.startswith("invalid command name") or re.match(r'^\s+\((procedure|file) ', l),
             "the error's message and every `(procedure …)`/`(file …)` line of its errorInfo")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def held_out_runtime_cases():
    """Round 65, held out (every id in the evaluation half; the rules
    written before ghost ran on them): runtimes and checkers of languages
    the corpus has few cases of. Needs gfortran, tclsh, perl and javac."""
    work = tempfile.mkdtemp(prefix="ghost-round65-")
    try:
        write(os.path.join(work, "bounds.f90"),
              "program stock\n  implicit none\n  integer :: levels(10), i, total\n  do i = 1, 10\n"
              "    levels(i) = i * 3\n  end do\n  print *, 'summing stock levels'\n  total = 0\n"
              "  do i = 1, 11\n    total = total + levels(i)\n  end do\n  print *, total\nend program stock\n")
        run("gfortran -g -fcheck=bounds -fbacktrace -o bounds bounds.f90", cwd=work)
        t = run("./bounds", cwd=work)
        case("gfortran-backtrace", "error", "./bounds", t,
             lambda l: "bounds.f90" in l or l.startswith("Fortran runtime error"),
             "the `Fortran runtime error` line and every line naming bounds.f90")
        write(os.path.join(work, "t.tcl"),
              "proc load_config {path} {\n    set f [open $path r]\n    set data [read $f]\n    close $f\n"
              "    return $data\n}\nproc start {} {\n    puts \"starting the shop\"\n"
              "    set cfg [load_config /etc/shop/missing.conf]\n    puts $cfg\n}\nstart\n")
        t = run("tclsh t.tcl", cwd=work)
        case("tcl-errorinfo", "error", "tclsh t.tcl", t,
             lambda l: l.startswith("couldn't open") or re.match(r'^\s+\((procedure|file) ', l),
             "the error's message and every `(procedure …)`/`(file …)` line of its errorInfo")
        write(os.path.join(work, "s.pl"),
              'use strict;\nmy $total = 0;\nfor my $p (1..3) {\n    $total += $p\n    print "$total\\n";\n}\n')
        t = run("perl -c s.pl", cwd=work)
        case("perl-syntax-check", "error", "perl -c s.pl", t,
             lambda l: "syntax error" in l or "had compilation errors" in l,
             "the `syntax error at … line N` line and `had compilation errors`")
        j = new_dir(work, "java")
        write(os.path.join(j, "Inventory.java"),
              "import java.util.*;\npublic class Inventory {\n    private List items = new ArrayList();\n"
              "    public void add(Object o) { items.add(o); }\n"
              "    public int weight(int kind) {\n        int w = 0;\n        switch (kind) {\n"
              "            case 1: w += 2;\n            case 2: w += 3; break;\n            default: w = 1;\n"
              "        }\n        return w;\n    }\n"
              "    public Date stamp() { return new Date(2024, 1, 1); }\n}\n")
        write(os.path.join(j, "Orders.java"),
              "import java.util.*;\npublic class Orders {\n    @SuppressWarnings(\"rawtypes\")\n"
              "    private Map cache = new HashMap();\n"
              "    public List<String> names() { return (List<String>) cache.get(\"names\"); }\n"
              "    public Integer boxed(int n) { return new Integer(n); }\n}\n")
        t = run("javac -Xlint:all -d out Inventory.java Orders.java", cwd=j)
        case("java-lint-warnings", "log", "javac -Xlint:all -d out Inventory.java Orders.java", t,
             lambda l: ": warning: " in l or re.match(r"^\d+ warnings?$", l),
             "every `file:line: warning:` line and the count of warnings")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def verbose_build_twin_cases(venv):
    """Round 64: tuning twins of round 63's three verbose builds (scored
    once, unread, all their lines kept; two of them passed whole): another
    C library of sixteen modules with a warning under `make V=1` and
    `cmake --build --verbose`, and `cargo build -vv` of another crate
    whose build script warns, each rule its counterpart's, written before
    it ran."""
    work = tempfile.mkdtemp(prefix="ghost-round64-")
    try:
        d = new_dir(work, "ledger")
        for k in range(16):
            body = f"long ledger_sum{k}(long a, long b) {{\n    return a + b * {k + 1};\n}}\n"
            if k == 11:
                body = "long ledger_sum11(long a, long b) {\n    long a2 = a;\n    { long a2 = b; (void)a2; }\n    return a2;\n}\n"
            write(os.path.join(d, "lib", f"sum{k}.c"), f"#include \"ledger.h\"\n{body}")
        write(os.path.join(d, "lib", "ledger.h"), "".join(f"long ledger_sum{k}(long a, long b);\n" for k in range(16)))
        write(os.path.join(d, "lib", "app.c"), "#include <stdio.h>\n#include \"ledger.h\"\n"
              "int main(void) {\n    printf(\"%ld\\n\", ledger_sum11(2, 3));\n    return 0;\n}\n")
        objs = " ".join(f"lib/sum{k}.o" for k in range(16))
        write(os.path.join(d, "Makefile"),
              "CFLAGS = -Wall -Wshadow -O0 -g3 -fno-omit-frame-pointer -std=gnu11 -DLEDGER_DEBUG=1 -Ilib\n"
              f"OBJS = {objs}\n"
              "all: ledger\n"
              "libledger.a: $(OBJS)\n\t$(AR) rcs $@ $^\n"
              "ledger: lib/app.o libledger.a\n\t$(CC) $(CFLAGS) -o $@ lib/app.o -L. -lledger\n"
              "%.o: %.c\n\t$(CC) $(CFLAGS) -c -o $@ $<\n")
        t = run("make V=1", cwd=d)
        case("make-verbose-c", "log", "make V=1", t,
             lambda l: re.search(r": (warning|error): ", l) or l.startswith("make"),
             "every `warning:`/`error:` line with its place and every line make itself prints")
        write(os.path.join(d, "CMakeLists.txt"),
              "cmake_minimum_required(VERSION 3.16)\nproject(ledger C)\n"
              "add_compile_options(-Wall -Wshadow)\n"
              f"add_library(ledger STATIC {' '.join(f'lib/sum{k}.c' for k in range(16))})\n"
              "target_include_directories(ledger PUBLIC lib)\n"
              "add_executable(ledger_app lib/app.c)\ntarget_link_libraries(ledger_app ledger)\n")
        env = f"PATH={os.path.abspath(venv)}:$PATH"
        run(f"{env} cmake -S . -B build -G Ninja", cwd=d)
        t = run(f"{env} cmake --build build --verbose", cwd=d)
        case("cmake-verbose-ninja", "log", "cmake --build build --verbose", t,
             lambda l: re.search(r": (warning|error): ", l) or re.match(r"^\[\d+/\d+\] Linking", l),
             "every `warning:`/`error:` line with its place and each `Linking` step")
        c = new_dir(work, "crate")
        write(os.path.join(c, "Cargo.toml"), '[package]\nname = "ledger"\nversion = "0.2.0"\nedition = "2021"\n\n'
              '[dependencies]\nmemchr = "2"\nfnv = "1"\n')
        write(os.path.join(c, "build.rs"), 'fn main() {\n    println!("cargo:rerun-if-env-changed=LEDGER_RATES");\n'
              '    println!("cargo:warning=LEDGER_RATES is not set; rates default to zero");\n}\n')
        write(os.path.join(c, "src", "main.rs"), 'fn main() {\n    let mut m = fnv::FnvHashMap::default();\n'
              '    m.insert(1, memchr::memchr(b\'a\', b"cat").unwrap_or(0));\n    println!("{:?}", m);\n}\n')
        t = run("cargo build -vv", cwd=c)
        case("cargo-vv-script", "log", "cargo build -vv", t,
             lambda l: l.startswith("warning") or l.startswith("error") or "Finished" in l,
             "every `warning`/`error` line (the build script's own included) and the `Finished` line")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def verbose_build_cases(venv):
    """Round 63, held out (every id in the evaluation half; the rules
    written before ghost ran on them): verbose builds, whose every step
    echoes a long command line, and a crash. Needs gcc, make, cargo,
    node, and cmake and ninja in `venv`."""
    work = tempfile.mkdtemp(prefix="ghost-round63-")
    try:
        d = new_dir(work, "shop")
        c_library(d)
        objs = " ".join(f"src/part{k}.o" for k in range(12))
        write(os.path.join(d, "Makefile"),
              "CFLAGS = -Wall -Wextra -O2 -g -fPIC -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc\n"
              f"OBJS = {objs}\n"
              "all: shop\n"
              "libshop.a: $(OBJS)\n\t$(AR) rcs $@ $^\n"
              "shop: src/main.o libshop.a\n\t$(CC) $(CFLAGS) -o $@ src/main.o -L. -lshop\n"
              "%.o: %.c\n\t$(CC) $(CFLAGS) -c -o $@ $<\n")
        t = run("make V=1", cwd=d)
        case("make-v1-warnings", "log", "make V=1", t,
             lambda l: re.search(r": (warning|error): ", l) or l.startswith("make"),
             "every `warning:`/`error:` line with its place and every line make itself prints")
        write(os.path.join(d, "CMakeLists.txt"),
              "cmake_minimum_required(VERSION 3.16)\nproject(shop C)\n"
              "add_compile_options(-Wall -Wextra)\n"
              f"add_library(shop STATIC {' '.join(f'src/part{k}.c' for k in range(12))})\n"
              "target_include_directories(shop PUBLIC src)\n"
              "add_executable(shopper src/main.c)\ntarget_link_libraries(shopper shop)\n")
        env = f"PATH={os.path.abspath(venv)}:$PATH"
        run(f"{env} cmake -S . -B build -G Ninja", cwd=d)
        t = run(f"{env} cmake --build build --verbose", cwd=d)
        case("cmake-build-shop-v", "log", "cmake --build build --verbose", t,
             lambda l: re.search(r": (warning|error): ", l) or re.match(r"^\[\d+/\d+\] Linking", l),
             "every `warning:`/`error:` line with its place and each `Linking` step")
        c = new_dir(work, "crate")
        write(os.path.join(c, "Cargo.toml"), '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n'
              '[dependencies]\nitoa = "1"\nryu = "1"\n')
        write(os.path.join(c, "build.rs"), 'fn main() {\n    println!("cargo:rerun-if-changed=build.rs");\n'
              '    println!("cargo:warning=prices.csv is missing; building with no price table");\n'
              '    println!("cargo:rustc-cfg=no_prices");\n}\n')
        write(os.path.join(c, "src", "main.rs"), 'fn main() {\n    let mut b = itoa::Buffer::new();\n'
              '    let mut f = ryu::Buffer::new();\n    println!("{} {}", b.format(7), f.format(1.5));\n}\n')
        t = run("cargo build -vv", cwd=c)
        case("cargo-build-vv-script", "log", "cargo build -vv", t,
             lambda l: l.startswith("warning") or l.startswith("error") or "Finished" in l,
             "every `warning`/`error` line (the build script's own included) and the `Finished` line")
        write(os.path.join(work, "deep.js"),
              "function walk(node, depth) {\n  return walk({ parent: node, depth }, depth + 1);\n}\n"
              "console.log('walking the tree');\nwalk({}, 0);\n")
        t = run("node deep.js", cwd=work)
        case("node-stack-overflow", "error", "node deep.js", t,
             lambda l: l.startswith("RangeError") or "deep.js" in l,
             "the `RangeError` line and every line naming deep.js")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def yarn_lock_twin_cases():
    """Round 62: a tuning twin of `lock-yarn` (round 17, evaluation half,
    which the classifier calls a log when it is saved as `.txt`; that
    output stays unread): Yarn 1's lockfile of a command-line tool's
    dependencies, read by Claude Code's Read, its rule `lock-yarn`'s,
    written before it ran. Needs the npm registry."""
    work = tempfile.mkdtemp(prefix="ghost-round62-")
    try:
        d = new_dir(work, "cli")
        write(os.path.join(d, "package.json"), '{"name": "cli", "version": "1.0.0", "private": true, '
              '"dependencies": {"commander": "12.1.0", "ora": "5.4.1", "semver": "7.6.3", "glob": "10.4.5"}}\n')
        run("npx --yes yarn@1.22.22 install --silent --ignore-scripts", cwd=d)
        path = os.path.join(d, "yarn.lock")
        text = open(path).read()
        names = [re.match(r'^"?(@?[^@"]+)@', l).group(1) for l in text.splitlines() if re.match(r'^"?@?[^\s#].*:$', l)]
        versions = re.findall(r'^  version "([^"]+)"', text, re.M)
        case("yarn-lock-cli", "structured", "yarn.lock", text, list(dict.fromkeys(sorted(names) + sorted(versions))),
             "every package name and every version the lockfile pins", tool="Read")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def crash_twin_cases():
    """Round 61: tuning twins of three evaluation cases the classifier
    calls logs (`node-heap-out-of-memory`, `ubsan-runtime-errors`,
    `php-lint`; their outputs stay unread), each another program of the
    same kind, its rule written before it ran. Needs node, gcc with
    UBSan and php."""
    work = tempfile.mkdtemp(prefix="ghost-round61-")
    try:
        write(os.path.join(work, "cache.js"),
              "const seen = new Map();\nlet i = 0;\n"
              "for (;;) { seen.set(`key-${i}`, 'x'.repeat(1024) + i); i++; }\n")
        t = run("node --max-old-space-size=24 cache.js", cwd=work)
        case("node-oom-map", "error", "node --max-old-space-size=24 cache.js", t,
             lambda l: l.startswith("FATAL ERROR:"), "the `FATAL ERROR:` line")
        write(os.path.join(work, "ub.c"),
              "#include <stdio.h>\n#include <limits.h>\n"
              "static double scale(double v, double by) { return v / by; }\n"
              "static int widen(int v, int s) { return v << s; }\n"
              "int main(int argc, char **argv) {\n"
              "    int zero = argc - 1;\n    double big = 1e20;\n    int n = -3;\n"
              "    printf(\"starting with %d arguments\\n\", argc);\n"
              "    printf(\"ratio %f\\n\", scale(10, zero));\n"
              "    printf(\"widened %d\\n\", widen(1, n));\n"
              "    printf(\"cast %d\\n\", (int)big);\n"
              "    int m = INT_MIN;\n    printf(\"negated %d\\n\", -m);\n"
              "    printf(\"done\\n\");\n    return 0;\n}\n")
        run("gcc -g -fsanitize=undefined -fsanitize=float-cast-overflow "
            "-fsanitize=float-divide-by-zero -o ub ub.c", cwd=work)
        t = run("./ub", cwd=work)
        case("ubsan-checks", "error", "./ub", t, lambda l: ": runtime error: " in l,
             "every `file:line:col: runtime error:` line")
        write(os.path.join(work, "cart.php"),
              "<?php\nclass Cart {\n    public function total(array $items): float {\n"
              "        $sum = 0\n        foreach ($items as $i) { $sum += $i; }\n"
              "        return $sum;\n    }\n}\n")
        t = run("php -l cart.php", cwd=work)
        case("php-syntax-check", "error", "php -l cart.php", t,
             lambda l: "Parse error" in l or l.startswith("Errors parsing"),
             "the parse error line and `Errors parsing`")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def yarn_list_twin_cases():
    """Round 59: a tuning twin of `yarn-list-json` (round 58, evaluation
    half, 71/115 kept when scored; its output stays unread): yarn 1's
    `list --json` of a command-line tool's dependencies, its rule the
    twin's, written before it ran. Needs the npm registry."""
    work = tempfile.mkdtemp(prefix="ghost-round59-")
    d = new_dir(work, "cli")
    write(os.path.join(d, "package.json"), '{"name": "cli", "version": "1.0.0", "private": true, '
          '"dependencies": {"yargs": "17.7.2", "chalk": "4.1.2", "semver": "7.6.3", "glob": "10.4.5"}}\n')
    run("npx --yes yarn@1.22.22 install --no-progress --non-interactive", cwd=d)
    t = run("npx --yes yarn@1.22.22 list --json", cwd=d, stderr=False)
    names = sorted(set(re.findall(r'"name":"(@?[\w.-]+(?:/[\w.-]+)?@[^"]+)"', t)))
    case("yarn-list-json-cli", "structured", "yarn list --json", t, names,
         "every package in the tree as `name@version`")


def audit_cases(d, t):
    """npm audit of the tree in `d` (round 47), given its text report `t`."""
    case("npm-audit-text", "log", "npm audit", t,
         lambda l: re.match(r"^@?[\w.-]+(/[\w.-]+)?  \S", l) or "/advisories/GHSA-" in l or re.match(r"^\d+ (\w+ )?vulnerabilit", l),
         "every vulnerable package's header, every advisory line and the count of vulnerabilities")
    t = run("npm audit --json", cwd=d, stderr=False)
    report = json.loads(t)
    keep = [x for name, v in report["vulnerabilities"].items() for x in (name, v["severity"])]
    keep += [via["url"] for v in report["vulnerabilities"].values() for via in v["via"] if isinstance(via, dict)]
    case("npm-audit-json", "structured", "npm audit --json", t, keep,
         "every vulnerable package with its severity and every advisory's URL")


def main():
    if "--add" in sys.argv:
        more_cases()
        return
    if "--round3" in sys.argv:
        third_cases()
        crash_cases()
        return
    if "--round4" in sys.argv:
        fourth_cases()
        return
    if "--round5" in sys.argv:
        help_cases()
        return
    if "--round6" in sys.argv:
        json_cases()
        return
    if "--round7" in sys.argv:
        prose_cases()
        return
    if "--round8" in sys.argv:
        lint_cases()
        return
    if "--round9" in sys.argv:
        more_lint_cases()
        return
    if "--round10" in sys.argv:
        tenth_cases()
        return
    if "--round11" in sys.argv:
        listing_cases()
        return
    if "--round12" in sys.argv:
        twelfth_cases()
        return
    if "--round13" in sys.argv:
        thirteenth_cases()
        return
    if "--round14" in sys.argv:
        fourteenth_cases()
        return
    if "--round15" in sys.argv:
        fifteenth_cases()
        return
    if "--round16" in sys.argv:
        code_cases()
        return
    if "--round17" in sys.argv:
        lockfile_cases()
        return
    if "--round18" in sys.argv:
        library_crash_cases()
        return
    if "--round19" in sys.argv:
        maven_cases()
        return
    if "--round20" in sys.argv:
        gradle_cases()
        return
    if "--round21" in sys.argv:
        twenty_first_cases()
        return
    if "--round22" in sys.argv:
        twenty_second_cases()
        return
    if "--round23" in sys.argv:
        ci_job_cases()
        return
    if "--round24" in sys.argv:
        native_crash_cases()
        return
    if "--round25" in sys.argv:
        js_tool_cases()
        return
    if "--round26" in sys.argv:
        php_and_link_cases()
        return
    if "--round27" in sys.argv:
        dotnet_cases()
        return
    if "--round28" in sys.argv:
        beam_and_clojure_cases()
        return
    if "--round29" in sys.argv:
        native_trace_in_log_cases()
        return
    if "--round30" in sys.argv:
        event_stream_cases()
        return
    if "--round31" in sys.argv:
        diff_cases()
        return
    if "--round32" in sys.argv:
        history_cases()
        return
    if "--round33" in sys.argv:
        whole_trace_cases()
        return
    if "--round34" in sys.argv:
        config_cases()
        return
    if "--round35" in sys.argv:
        json_config_cases()
        return
    if "--round36" in sys.argv:
        system_listing_cases()
        return
    if "--round37" in sys.argv:
        unhinted_cases()
        return
    if "--round38" in sys.argv:
        unseen_tool_cases()
        return
    if "--round39" in sys.argv:
        unseen_runner_cases()
        return
    if "--round40" in sys.argv:
        more_language_code_cases()
        return
    if "--round41" in sys.argv:
        script_language_code_cases()
        return
    if "--round42" in sys.argv:
        held_out_script_code_cases()
        return
    if "--round128" in sys.argv:
        search_trace_cases(sys.argv[sys.argv.index("--round128") + 1])
        return
    if "--round127" in sys.argv:
        encoded_data_cases()
        return
    if "--round126" in sys.argv:
        cargo_update_workspace_cases()
        return
    if "--round125" in sys.argv:
        pytest_setup_show_cases(sys.argv[sys.argv.index("--round125") + 1])
        return
    if "--round124" in sys.argv:
        rust_link_error_cases()
        return
    if "--round123" in sys.argv:
        cargo_update_verbose_cases()
        return
    if "--round122" in sys.argv:
        cargo_update_large_cases()
        return
    if "--round121" in sys.argv:
        cargo_update_cases()
        return
    if "--round120" in sys.argv:
        cargo_add_twin_cases()
        return
    if "--round119" in sys.argv:
        cargo_registry_cases()
        return
    if "--round118" in sys.argv:
        node_warning_cases()
        return
    if "--round117" in sys.argv:
        java_logging_cases()
        return
    if "--round116" in sys.argv:
        npm_debug_log_cases()
        return
    if "--round115" in sys.argv:
        sql_echo_cases(sys.argv[sys.argv.index("--round115") + 1])
        return
    if "--round114" in sys.argv:
        tsc_build_cases(js_dir())
        return
    if "--round113" in sys.argv:
        rollup_cases(js_dir())
        return
    if "--round112" in sys.argv:
        pytest_log_cases(sys.argv[sys.argv.index("--round112") + 1])
        return
    if "--round111" in sys.argv:
        scrapy_crawl_cases(sys.argv[sys.argv.index("--round111") + 1])
        return
    if "--round110" in sys.argv:
        django_check_cases(sys.argv[sys.argv.index("--round110") + 1])
        return
    if "--round109" in sys.argv:
        go_x_cases()
        return
    if "--round108" in sys.argv:
        include_tree_cases()
        return
    if "--round107" in sys.argv:
        debug_log_diagnostic_cases(sys.argv[sys.argv.index("--round107") + 1],
                                   sys.argv[sys.argv.index("--js") + 1])
        return
    if "--round106" in sys.argv:
        held_out_go_bench_cases()
        return
    if "--round105" in sys.argv:
        go_bench_cases()
        return
    if "--round104" in sys.argv:
        cargo_log_cases()
        return
    if "--round103" in sys.argv:
        call_tree_cases()
        return
    if "--round102" in sys.argv:
        trace_resolution_cases()
        return
    if "--round101" in sys.argv:
        gc_log_cases()
        return
    if "--round100" in sys.argv:
        node_prof_cases()
        return
    if "--round99" in sys.argv:
        perf_callgraph_cases()
        return
    if "--round98" in sys.argv:
        perf_report_cases()
        return
    if "--round97" in sys.argv:
        runtime_and_lint_twin_cases(sys.argv[sys.argv.index("--round97") + 1])
        return
    if "--round96" in sys.argv:
        held_out_runtime_and_lint_cases(sys.argv[sys.argv.index("--round96") + 1])
        return
    if "--round95" in sys.argv:
        debugging_twin_cases()
        return
    if "--round94" in sys.argv:
        held_out_debugging_session_cases()
        return
    if "--round93" in sys.argv:
        coverage_twin_cases(sys.argv[sys.argv.index("--round93") + 1])
        return
    if "--round92" in sys.argv:
        held_out_profile_and_coverage_cases(sys.argv[sys.argv.index("--round92") + 1])
        return
    if "--round91" in sys.argv:
        analyser_twin_cases()
        return
    if "--round90" in sys.argv:
        held_out_analyser_and_linter_cases(js_dir())
        return
    if "--round89" in sys.argv:
        js_and_python_tool_twin_cases(sys.argv[sys.argv.index("--round89") + 1])
        return
    if "--round88" in sys.argv:
        held_out_js_and_python_tool_cases(sys.argv[sys.argv.index("--round88") + 1], js_dir())
        return
    if "--round87" in sys.argv:
        build_and_docs_twin_cases()
        return
    if "--round86" in sys.argv:
        held_out_build_and_docs_tool_cases()
        return
    if "--round85" in sys.argv:
        hardware_and_grammar_twin_cases()
        return
    if "--round84" in sys.argv:
        held_out_hardware_and_grammar_cases()
        return
    if "--round83" in sys.argv:
        racket_twin_cases()
        return
    if "--round82" in sys.argv:
        held_out_jvm_and_racket_cases()
        return
    if "--round81" in sys.argv:
        language_twin_cases()
        return
    if "--round80" in sys.argv:
        held_out_language_cases()
        return
    if "--round79" in sys.argv:
        setting_list_twin_cases()
        return
    if "--round78" in sys.argv:
        held_out_setting_list_cases()
        return
    if "--round77" in sys.argv:
        held_out_name_list_cases(sys.argv[sys.argv.index("--round77") + 1])
        return
    if "--round76" in sys.argv:
        named_listing_twin_cases()
        return
    if "--round75" in sys.argv:
        held_out_named_listing_cases(sys.argv[sys.argv.index("--round75") + 1])
        return
    if "--round74" in sys.argv:
        file_list_twin_cases()
        return
    if "--round73" in sys.argv:
        held_out_file_list_cases()
        return
    if "--round72" in sys.argv:
        dev_tool_twin_cases()
        return
    if "--round71" in sys.argv:
        held_out_dev_tool_cases()
        return
    if "--round70" in sys.argv:
        shell_file_twin_cases()
        return
    if "--round69" in sys.argv:
        held_out_shell_file_cases()
        return
    if "--round68" in sys.argv:
        perl_make_test_twin_cases()
        return
    if "--round67" in sys.argv:
        held_out_package_build_cases()
        return
    if "--round66" in sys.argv:
        runtime_twin_cases()
        return
    if "--round65" in sys.argv:
        held_out_runtime_cases()
        return
    if "--round64" in sys.argv:
        verbose_build_twin_cases(sys.argv[sys.argv.index("--round64") + 1])
        return
    if "--round63" in sys.argv:
        verbose_build_cases(sys.argv[sys.argv.index("--round63") + 1])
        return
    if "--round62" in sys.argv:
        yarn_lock_twin_cases()
        return
    if "--round61" in sys.argv:
        crash_twin_cases()
        return
    if "--round59" in sys.argv:
        yarn_list_twin_cases()
        return
    if "--round58" in sys.argv:
        json_listing_cases(sys.argv[sys.argv.index("--round58") + 1])
        return
    if "--round57" in sys.argv:
        install_twin_cases(sys.argv[sys.argv.index("--round57") + 1])
        return
    if "--round56" in sys.argv:
        js_project_tool_cases()
        return
    if "--round55" in sys.argv:
        package_install_cases(sys.argv[sys.argv.index("--round55") + 1])
        return
    if "--round54" in sys.argv:
        collect_twin_cases(sys.argv[sys.argv.index("--round54") + 1])
        return
    if "--round53" in sys.argv:
        listing_tool_cases(sys.argv[sys.argv.index("--round53") + 1])
        return
    if "--round52" in sys.argv:
        build_system_cases(sys.argv[sys.argv.index("--round52") + 1])
        return
    if "--round51" in sys.argv:
        verbose_run_twin_cases()
        return
    if "--round50" in sys.argv:
        test_report_cases(sys.argv[sys.argv.index("--round50") + 1])
        return
    if "--round49" in sys.argv:
        listing_dump_cases()
        return
    if "--round48" in sys.argv:
        dependency_upkeep_cases(sys.argv[sys.argv.index("--round48") + 1])
        return
    if "--round47" in sys.argv:
        package_tool_cases(sys.argv[sys.argv.index("--round47") + 1])
        return
    if "--round46" in sys.argv:
        npm_tree_cases()
        return
    if "--round45" in sys.argv:
        digest_table_cases()
        return
    if "--round44" in sys.argv:
        hashed_lockfile_cases(sys.argv[sys.argv.index("--round44") + 1])
        return
    if "--round43" in sys.argv:
        markup_prose_cases()
        return
    # Every round's flag returned above: anything else is a typo, and
    # rebuilding the whole corpus (below) must not be what a typo does.
    unknown = [a for a in sys.argv[1:] if a.startswith("--") and a != "--js"]
    if unknown:
        sys.exit(f"make-local.py: unknown option {unknown[0]} (rebuilding the whole corpus takes no option)")
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
    third_cases()
    crash_cases()
    fourth_cases()
    help_cases()
    json_cases()
    prose_cases()
    lint_cases()
    more_lint_cases()
    tenth_cases()
    listing_cases()
    twelfth_cases()
    thirteenth_cases()
    fourteenth_cases()
    fifteenth_cases()
    code_cases()
    lockfile_cases()
    library_crash_cases()
    maven_cases()


# Importing this file (to reuse a rule) must not rebuild the corpus: main()
# first deletes it.
if __name__ == "__main__":
    main()
