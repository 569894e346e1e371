//! The log compressor's principles on real tool output it was not written
//! against: runner summaries, diagnostics, rare lines, failure exits and
//! outlines survive; what repeats folds. Fixtures under `tests/fixtures/`
//! are real output of ruff 0.17, mypy and pip 24 -vv (trimmed: every
//! unindented line, one in fifteen of the rest) on code written for them,
//! and of Node 20 running a project's own test runner (one printing each
//! failing test's `error.stack`, as CoffeeScript's Cakefile does), and
//! criterion's first run of a benchmark built on this machine (whole), and
//! `cargo build -vv` of a crate with a build script (whole).

use ghost_log_folding::compress;

fn kept(out: &str, line: &str) -> bool {
    out.lines().any(|l| l.trim_end() == line.trim_end())
}

/// Every line of `input` that matches `pick` is in `out`, verbatim.
fn assert_all_kept(input: &str, out: &str, pick: impl Fn(&str) -> bool) {
    let wanted: Vec<&str> = input.lines().filter(|l| pick(l)).collect();
    assert!(!wanted.is_empty(), "the fixture has lines to keep");
    for line in wanted {
        assert!(kept(out, line), "lost {line:?} in:\n{out}");
    }
}

fn words(i: usize) -> String {
    (0..3)
        .map(|k| char::from(b'a' + ((i * 7 + k * 11 + i / 26) % 26) as u8))
        .collect()
}

#[test]
fn a_passing_cargo_test_collapses_to_its_summaries() {
    let mut log = String::new();
    for krate in 0..3 {
        log.push_str(&format!(
            "     Running unittests src/lib.rs (target/debug/deps/k{krate}-0f3a)\n\nrunning 150 tests\n"
        ));
        for t in 0..150 {
            log.push_str(&format!(
                "test {}::{} ... ok\n",
                words(t + krate),
                words(t * 3)
            ));
        }
        log.push_str(&format!(
            "\ntest result: ok. 150 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.0{krate}s\n\n"
        ));
    }
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.starts_with("test result:"));
    let passing_lines = out.lines().filter(|l| l.ends_with("... ok")).count();
    assert!(
        passing_lines <= 3,
        "{passing_lines} passing lines kept:\n{out}"
    );
    assert!(
        out.len() * 10 < log.len(),
        "{} of {} bytes",
        out.len(),
        log.len()
    );
}

#[test]
fn a_failing_test_among_hundreds_of_passing_ones_is_kept() {
    let mut log = String::from("running 300 tests\n");
    for t in 0..300 {
        if t == 177 {
            log.push_str("test parser::rejects_empty_input ... FAILED\n");
        }
        log.push_str(&format!("test {}::{} ... ok\n", words(t), words(t + 5)));
    }
    log.push_str("\ntest result: FAILED. 300 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.31s\n");
    let out = compress(&log).text;
    assert!(
        kept(&out, "test parser::rejects_empty_input ... FAILED"),
        "{out}"
    );
    assert!(out.contains("test result: FAILED."));
}

#[test]
fn ruff_keeps_every_distinct_diagnostic() {
    let input = include_str!("fixtures/ruff-full.txt");
    let out = compress(input).text;
    assert_all_kept(input, &out, |l| {
        l.starts_with("F401 ") || l.starts_with("F841 ") || l.trim_start().starts_with("-->")
    });
    assert!(kept(&out, "Found 5 errors."));
}

#[test]
fn mypy_diagnostics_are_not_regrouped() {
    let input = include_str!("fixtures/mypy.txt");
    let out = compress(input).text;
    assert_all_kept(input, &out, |l| {
        l.contains(": error: ") || l.starts_with("Found ")
    });
}

#[test]
fn pester_failures_and_their_expectations_are_kept() {
    let mut log = String::from(
        "Starting discovery in 1 files.\nDiscovery found 40 tests in 52ms.\nRunning tests.\n",
    );
    for t in 0..40 {
        if t == 23 {
            log.push_str(
                "[-] Get-Config.returns the default port 15ms (13ms|2ms)\n Expected 8080, but got 80.\n at $cfg.Port | Should -Be 8080, /src/Config.Tests.ps1:31\n at <ScriptBlock>, /src/Config.Tests.ps1:31\n",
            );
        }
        log.push_str(&format!(
            "[+] Get-Config.{} {} {}ms ({}ms|1ms)\n",
            words(t),
            words(t + 9),
            t % 7 + 1,
            t % 5
        ));
    }
    log.push_str("Tests completed in 1.2s\nTests Passed: 40, Failed: 1, Skipped: 0, Inconclusive: 0, NotRun: 0\n");
    let out = compress(&log).text;
    for line in [
        "[-] Get-Config.returns the default port 15ms (13ms|2ms)",
        " Expected 8080, but got 80.",
        "Tests Passed: 40, Failed: 1, Skipped: 0, Inconclusive: 0, NotRun: 0",
    ] {
        assert!(kept(&out, line), "lost {line:?}:\n{out}");
    }
    let passing = out.lines().filter(|l| l.starts_with("[+]")).count();
    assert!(passing <= 3, "{passing} passing tests kept:\n{out}");
}

#[test]
fn an_unusual_line_without_an_error_word_is_kept() {
    let mut log = String::new();
    for i in 0..300 {
        log.push_str(&format!(
            "  -{} value\n    \tsets the {} of the {} (default {})\n",
            words(i),
            words(i + 1),
            words(i + 2),
            i
        ));
    }
    let log = format!(
        "go: downloading golang.org/x/sys v0.20.0\nflag provided but not defined: -trace2_event_file\nUsage of /tmp/go-build1/b001/exe/tool:\n{log}"
    );
    let out = compress(&log).text;
    assert!(
        kept(&out, "flag provided but not defined: -trace2_event_file"),
        "{out}"
    );
}

#[test]
fn an_outline_keeps_its_headers() {
    let input = include_str!("fixtures/pip-install-vv.txt");
    let out = compress(input).text;
    assert_all_kept(input, &out, |l| l.starts_with("Collecting "));
    assert!(
        out.len() * 5 < input.len(),
        "{} of {} bytes",
        out.len(),
        input.len()
    );
}

#[test]
fn the_lines_before_a_failure_exit_are_kept() {
    let mut log = String::new();
    for i in 0..200 {
        log.push_str(&format!(
            "cc -O2 -c src/{}.c -o build/{}.o\n",
            words(i),
            words(i)
        ));
    }
    log.push_str("ld: symbol(s) not found for architecture x86_64\nclang: note: use -v to see invocation\nmake: *** [Makefile:31: app] Error 1\n");
    let out = compress(&log).text;
    for line in [
        "ld: symbol(s) not found for architecture x86_64",
        "clang: note: use -v to see invocation",
        "make: *** [Makefile:31: app] Error 1",
    ] {
        assert!(kept(&out, line), "lost {line:?}:\n{out}");
    }
}

#[test]
fn an_exceptions_message_is_kept_up_to_its_stack() {
    // The message is two JSON dumps, unindented, between `Error:` and the
    // first `at` frame; the one line where they differ is the failure.
    let input = include_str!("fixtures/node-own-runner.txt");
    let out = compress(input).text;
    let lines: Vec<&str> = input.lines().collect();
    let error = lines
        .iter()
        .position(|l| l.trim_start().starts_with("Error:"));
    let error = error.expect("the fixture has a failing test");
    let frame = lines[error..]
        .iter()
        .position(|l| l.trim_start().starts_with("at "));
    let frame = error + frame.expect("the error has a stack");
    let message = &lines[error..frame];
    assert!(message.len() > 60, "the message spans the two dumps");
    for (k, line) in message.iter().enumerate() {
        // A line printed above folds as a repeat; every other one stays.
        let repeat = message[..k].contains(line);
        assert!(repeat || kept(&out, line), "lost {line:?} in:\n{out}");
    }
    assert!(kept(&out, r#"  "type": "K""#), "{out}");
}

#[test]
fn an_error_folded_as_a_repeat_takes_its_message_along() {
    let mut log = String::new();
    for k in 0..30 {
        log.push_str(&format!(
            "  test {k} parses a property\n  AssertionError: expected {k} to equal 1000\n{{\n\"type\": \"K{k}\",\n\"start\": {k}\n}}\n    at eq (/src/test/helpers.js:1:1)\n    at Object.<anonymous> (/src/test/ast.js:{}:3)\n",
            k + 10
        ));
    }
    let out = compress(&log).text;
    assert!(
        kept(&out, r#""type": "K0","#),
        "the first error's message stays:\n{out}"
    );
    assert!(out.contains("like this in the log"), "{out}");
    assert!(
        !out.contains(r#""K17""#),
        "a repeat's message folds with it:\n{out}"
    );
}

/// 200 lines a CI job printed before the step that matters.
fn setup_lines() -> String {
    (0..200)
        .map(|i| format!("cc -O2 -c src/{}.c -o build/{}.o\n", words(i), words(i)))
        .collect()
}

#[test]
fn a_retry_wrapper_giving_up_is_a_failure_exit() {
    // travis_retry: three attempts that differ in a number, then its verdict.
    let mut log = setup_lines();
    let command = "git clone --depth=50 --branch=feature https://github.com/acme/app.git acme/app";
    for attempt in 1..=3 {
        log.push_str(
            "Cloning into 'acme/app'...\nwarning: Could not find remote branch feature to clone.\nfatal: Remote branch feature not found in upstream origin\n",
        );
        if attempt < 3 {
            log.push_str(&format!(
                "The command \"{command}\" failed. Retrying, {} of 3.\n\n",
                attempt + 1
            ));
        }
    }
    log.push_str(&format!("The command \"{command}\" failed 3 times.\n"));
    let out = compress(&log).text;
    for attempt in [2, 3] {
        let line = format!("The command \"{command}\" failed. Retrying, {attempt} of 3.");
        assert!(kept(&out, &line), "lost {line:?}:\n{out}");
    }
}

#[test]
fn the_lines_before_a_stalled_step_are_kept() {
    // The services came up one by one, and the last ones never did.
    let mut log = setup_lines();
    for i in 0..40 {
        log.push_str(&format!(
            "Connecting to {}.internal:5432 (attempt 1)\nConnected to {}.internal\n",
            words(i),
            words(i)
        ));
    }
    for (i, host) in ["alpha", "beta", "gamma"].iter().enumerate() {
        log.push_str(&format!(
            "Connecting to {host}.internal:5432 (attempt {})\n",
            i + 1
        ));
    }
    log.push_str("Waiting for the database to accept connections\n\n");
    log.push_str("No output has been received in the last 10m0s, this potentially indicates a stalled build or something wrong with the build itself.\n");
    // What the CI does after it stopped the step.
    for part in 0..12 {
        log.push_str(&format!("uploading cache archive, part {part} of 12\n"));
    }
    let out = compress(&log).text;
    let stuck = ["alpha.", "beta.", "gamma.", "Waiting"];
    assert_all_kept(&log, &out, |l| stuck.iter().any(|s| l.contains(s)));
}

#[test]
fn a_short_line_that_differs_in_one_name_is_not_a_repeat() {
    // pip's dependencies, one a line: the package is what each line says.
    let mut log = String::from(
        "Looking in links: /opt/wheels\nCollecting rich==13.9.4\n  Downloading rich-13.9.4-py3-none-any.whl (242 kB)\n",
    );
    for (i, package) in [
        "markdown-it-py",
        "pygments",
        "mdurl",
        "typing-extensions",
        "idna",
        "certifi",
        "urllib3",
        "charset-normalizer",
    ]
    .iter()
    .enumerate()
    {
        log.push_str(&format!(
            "Collecting {package}>=1.{i} (from rich==13.9.4)\n  Downloading {package}-1.{i}.0-py3-none-any.whl ({} kB)\n",
            i * 7 + 10
        ));
    }
    log.push_str("Installing collected packages: rich\nSuccessfully installed rich-13.9.4\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.starts_with("Collecting "));
}

#[test]
fn a_fold_of_passing_tests_says_so_across_blank_lines() {
    // Gradle with its test events on: a blank line between results.
    let mut log = String::from(":compileJava\n:testClasses\n:test\n\n");
    for t in 0..40 {
        log.push_str(&format!(
            "demo.Calc{}Test > adds{} PASSED\n\n",
            t / 6,
            t % 6
        ));
    }
    log.push_str("demo.Calc9Test > labelsPlural FAILED\n    org.junit.ComparisonFailure: expected:<2 item[s]> but was:<2 item[]>\n        at demo.Calc9Test.labelsPlural(Calc9Test.java:13)\n\n41 tests completed, 1 failed\n:test FAILED\n\nBUILD FAILED in 2s\n");
    let out = compress(&log).text;
    assert!(out.contains("passing test lines folded]"), "{out}");
    assert!(!out.contains("adds3 PASSED"), "{out}");
    assert!(
        kept(
            &out,
            "    org.junit.ComparisonFailure: expected:<2 item[s]> but was:<2 item[]>"
        ),
        "{out}"
    );
}

#[test]
fn a_surefire_run_collapses_to_its_totals_and_its_failing_classes() {
    let mut log = String::from(
        "[INFO] -------------------------------------------------------\n[INFO]  T E S T S\n[INFO] -------------------------------------------------------\n",
    );
    for class in 0..12 {
        log.push_str(&format!("[INFO] Running demo.Cart{class}Test\n"));
        if class == 5 {
            log.push_str("[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.001 s <<< FAILURE! - in demo.Cart5Test\n[ERROR] countsMerged(demo.Cart5Test)  Time elapsed: 0 s  <<< FAILURE!\njava.lang.AssertionError: expected:<4> but was:<3>\n\tat demo.Cart5Test.countsMerged(Cart5Test.java:19)\n\n");
        } else {
            log.push_str(&format!("[INFO] Tests run: 10, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.0{class} s - in demo.Cart{class}Test\n"));
        }
    }
    log.push_str("[INFO] \n[INFO] Results:\n[INFO] \n[ERROR] Failures: \n[ERROR]   Cart5Test.countsMerged:19 expected:<4> but was:<3>\n[INFO] \n[ERROR] Tests run: 122, Failures: 1, Errors: 0, Skipped: 0\n[INFO] \n[INFO] BUILD FAILURE\n");
    let out = compress(&log).text;
    for line in [
        "[INFO] Running demo.Cart5Test",
        "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.001 s <<< FAILURE! - in demo.Cart5Test",
        "java.lang.AssertionError: expected:<4> but was:<3>",
        "[ERROR] Tests run: 122, Failures: 1, Errors: 0, Skipped: 0",
        "[INFO] BUILD FAILURE",
    ] {
        assert!(kept(&out, line), "lost {line:?} in:\n{out}");
    }
    // The classes that passed are in the totals.
    assert!(!out.contains("Cart7Test"), "{out}");
    assert!(!out.contains("Running demo.Cart2Test"), "{out}");
}

#[test]
fn a_long_logs_failing_step_keeps_its_last_lines_but_repeated_shapes() {
    // A CI log: a long build, then the step that failed, whose last lines
    // hold a compiler's code frame after a download's progress.
    let mut log = String::new();
    for i in 0..400 {
        log.push_str(&format!(
            "cc -O2 -c src/{}.c -o build/{}.o\n",
            words(i),
            words(i)
        ));
    }
    log.push_str("$ make travis\n");
    for i in 0..8 {
        log.push_str(&format!(
            "Received {} of 314264396 ({}.0%), {i}.5 MBs/sec\n",
            i * 39283049,
            i * 12
        ));
    }
    let frame = [
        "error[E0407]: method `oom` is not a member of trait `Alloc`",
        "   --> /home/ci/.cargo/registry/src/linked_list_allocator-0.5.0/src/lib.rs:139:5",
        "    |",
        "139 | /     fn oom(&mut self, _: AllocErr) -> ! {",
        "140 | |         panic!(\"Out of memory\");",
        "141 | |     }",
        "    | |_____^ not a member of trait `Alloc`",
    ];
    for line in frame {
        log.push_str(line);
        log.push('\n');
    }
    log.push_str("error: Could not compile `linked_list_allocator`.\nmake: *** [travis] Error 101\n\nThe command \"make travis\" exited with 2.\n");
    log.push_str("store build cache\nchange detected\n");
    let out = compress(&log).text;
    for line in frame {
        assert!(kept(&out, line), "lost {line:?} in:\n{out}");
    }
    assert!(kept(&out, "$ make travis"), "{out}");
    // The progress folds to its first line and a count.
    assert!(!out.contains("Received 117849147"), "{out}");
    assert!(out.contains("[×8 similar]"), "{out}");
}

#[test]
fn a_smaller_budget_keeps_the_failures_and_says_so() {
    let mut log = String::new();
    for i in 0..400 {
        log.push_str(&format!(
            "[{}] step {} of the {} pipeline finished for {}\n",
            words(i),
            i,
            words(i + 3),
            words(i * 5)
        ));
        if i % 97 == 50 {
            log.push_str(&format!(
                "error: stage {} failed: disk quota exceeded\n",
                words(i)
            ));
        }
    }
    log.push_str("Process completed with exit code 1.\n");
    let roomy = ghost_log_folding::compress_within(&log, None);
    let tight = ghost_log_folding::compress_within(&log, Some(200));
    assert!(
        tight.text.len() < roomy.text.len(),
        "{} vs {}",
        tight.text.len(),
        roomy.text.len()
    );
    assert_all_kept(&log, &tight.text, |l| {
        l.starts_with("error: ") || l.starts_with("Process completed")
    });
    assert!(tight.text.contains("lines folded"));
    assert!(
        tight
            .notes
            .iter()
            .any(|n| n.contains("budget of 200 tokens")),
        "{:?}",
        tight.notes
    );
}

#[test]
fn a_failing_test_whose_message_repeats_one_above_says_so() {
    let mut log = String::from("Starting test execution, please wait...\n");
    for t in 0..3 {
        log.push_str(&format!(
            "  Failed Shop.Tests.CartTests.Total_{t} [2 s]\n   Assert.Equal() Failure: Values differ\nExpected: 10\nActual:   9\n"
        ));
    }
    log.push_str("Failed!  - Failed:     3, Passed:    30, Skipped:     0, Total:    33\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.starts_with("  Failed ") || l.starts_with("Failed!")
    });
    assert!(kept(&out, "Expected: 10"), "{out}");
    // The second and third messages are the first one's, and the text says it.
    assert!(out.contains("repeated from above]"), "{out}");
    assert!(!out.contains("lines folded]"), "{out}");
}

#[test]
fn every_failing_tests_section_title_is_kept_and_exceptions_count_as_failures() {
    // sympy's bin/test: one titled section per failing test, the titles
    // sharing one shape.
    let mut log = String::from(
        "============================= test process starts ==============================\n\
         random seed:        1234\n\n\
         geometry/tests/test_line.py[30] ..E..E..E.....................              [FAIL]\n\n",
    );
    for name in ["test_parallel", "test_perpendicular", "test_intersect"] {
        log.push_str(
            "________________________________________________________________________________\n",
        );
        log.push_str(&format!(
            "_____________ geometry/tests/test_line.py:{name} _____________\n\
             Traceback (most recent call last):\n\
             \x20 File \"/src/geometry/tests/test_line.py\", line 12, in {name}\n\
             \x20   assert Line(p, q).is_parallel(r)\n\
             \x20 File \"/src/geometry/line.py\", line 88, in is_parallel\n\
             \x20   return self.direction.cross(other.direction) == 0\n\
             TypeError: unsupported operand type(s) for *: 'Point' and 'NoneType'\n"
        ));
    }
    log.push_str(
        "\n=========== tests finished: 27 passed, 3 exceptions, in 0.41 seconds ===========\n",
    );
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.contains(".py:test_"));
    assert!(out.contains("3 failed, 27 passed"), "{out}");
    assert!(!out.contains("0 failed"), "{out}");
}

#[test]
fn code_frames_fold_while_every_diagnostic_keeps_its_header_location_and_labels() {
    // rustc's shape, two diagnostics with the same header at two places.
    let mut log = String::from("   Compiling shop v0.1.0 (/src/shop)\n");
    for (line, func) in [(6, "total"), (10, "count")] {
        log.push_str(&format!(
            "error[E0308]: mismatched types\n  --> src/lib.rs:{line}:5\n   |\n{line:>2} | pub fn {func}(xs: &[u32]) -> u32 {{\n   |                             --- expected `u32` because of return type\n...\n{line:>2} |     xs.iter().map(|x| *x as u64).sum::<u64>()\n   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ expected `u32`, found `u64`\n   |\nhelp: you can convert a `u64` to a `u32` and panic if the converted value doesn't fit\n   |\n{line:>2} |     xs.iter().map(|x| *x as u64).sum::<u64>().try_into().unwrap()\n   |                                              ++++++++++++++++++++\n\n"
        ));
    }
    log.push_str("error: could not compile `shop` (lib) due to 2 previous errors\n");
    let out = compress(&log).text;
    for line in [
        "  --> src/lib.rs:6:5",
        "  --> src/lib.rs:10:5",
        "   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ expected `u32`, found `u64`",
        "help: you can convert a `u64` to a `u32` and panic if the converted value doesn't fit",
        "error: could not compile `shop` (lib) due to 2 previous errors",
    ] {
        assert!(kept(&out, line), "lost {line:?} in:\n{out}");
    }
    // Each diagnostic's header, right above its own location.
    assert!(
        out.contains("error[E0308]: mismatched types\n  --> src/lib.rs:10:5"),
        "{out}"
    );
    // The source under the gutters folds (the file has it).
    assert!(!out.contains("try_into().unwrap()"), "{out}");
    assert!(!out.contains("pub fn count"), "{out}");
}

#[test]
fn every_line_of_a_rare_shape_and_every_source_place_in_a_short_log_is_kept() {
    // mocha: two numbered failures share a shape; both are facts.
    let mocha = "  slug\n    ✔ word 0\n    ✔ word 1\n    ✔ word 2\n    1) trims spaces\n    2) keeps numbers\n\n\
                 \x20 3 passing (7ms)\n  2 failing\n\n  1) slug\n       trims spaces:\n\n\
                 \x20     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n\
                 \x20     at Context.<anonymous> (test/slug.spec.js:34:35)\n\
                 \x20     at process.processImmediate (node:internal/timers:483:21)\n\n\
                 \x20 2) slug\n       keeps numbers:\n\n\
                 \x20     AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:\n\n\
                 \x20     at Context.<anonymous> (test/slug.spec.js:35:36)\n\
                 \x20     at process.processImmediate (node:internal/timers:483:21)\n";
    let out = compress(mocha).text;
    for line in [
        "  1) slug",
        "  2) slug",
        "      at Context.<anonymous> (test/slug.spec.js:34:35)",
        "      at Context.<anonymous> (test/slug.spec.js:35:36)",
    ] {
        assert!(kept(&out, line), "lost {line:?} in:\n{out}");
    }
    // valgrind: frames in the program's file under a shape printed before,
    // and a short run of lines that differ in words, all kept.
    let valgrind = "==7== Invalid write of size 4\n==7==    at 0x10918F: main (leak.c:3)\n\
                    ==7==  Address 0x4a40050 is 0 bytes after a block of size 16 alloc'd\n\
                    ==7==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)\n\
                    ==7==    by 0x10916A: main (leak.c:3)\n==7==\n==7== LEAK SUMMARY:\n\
                    ==7==    definitely lost: 16 bytes in 1 blocks\n==7==    indirectly lost: 0 bytes in 0 blocks\n\
                    ==7==      possibly lost: 0 bytes in 0 blocks\n==7==    still reachable: 0 bytes in 0 blocks\n\
                    ==7== ERROR SUMMARY: 3 errors from 3 contexts (suppressed: 0 from 0)\n";
    let out = compress(valgrind).text;
    assert_all_kept(valgrind, &out, |l| {
        l.contains("leak.c:") || l.contains(" lost: ") || l.contains("reachable:")
    });
}

#[test]
fn notes_in_library_headers_fold_while_every_error_and_the_projects_notes_stay() {
    let mut log = String::from(
        "m.cpp: In function 'int main()':\n\
         m.cpp:10:21: error: no match for 'operator+' (operand types are 'int' and 'std::vector<P>')\n",
    );
    for k in 0..12 {
        log.push_str(&format!(
            "/usr/include/c++/12/bits/basic_string.h:{}:5: note: candidate: 'template<class _CharT> std::basic_string<_CharT> std::operator+(const _CharT*, {k})'\n\
             /usr/include/c++/12/bits/basic_string.h:{}:5: note:   template argument deduction/substitution failed:\n\
             m.cpp:10:23: note:   mismatched types 'const _CharT*' and 'int {k}'\n",
            3400 + k * 7,
            3400 + k * 7
        ));
    }
    log.push_str("m.cpp:11:10: error: 'undefined_fn' was not declared in this scope\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.starts_with("m.cpp:"));
    let library_notes = out
        .lines()
        .filter(|l| l.starts_with("/usr/include"))
        .count();
    assert_eq!(library_notes, 0, "{out}");
    assert!(out.contains("lines folded]"), "{out}");
}

#[test]
fn passing_tests_under_a_failing_files_header_still_fold() {
    let mut log = String::from("FAIL ./slug.test.js\n  slug\n");
    for i in 0..30 {
        log.push_str(&format!("    ✓ word {i} (1 ms)\n"));
    }
    log.push_str("    ✕ trims spaces (1 ms)\n\n  ● slug › trims spaces\n\n    Expected: \"a-b\"\n    Received: \"-a-b-\"\n\n");
    log.push_str("Tests:       1 failed, 30 passed, 31 total\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.contains('✕') || l.contains('●') || l.starts_with("Tests:") || l.contains("Received:")
    });
    assert!(!out.contains("✓ word 17"), "{out}");
}

#[test]
fn under_a_budget_repeated_diagnostics_are_counted_with_every_place() {
    let mut log = String::new();
    for i in 0..120 {
        log.push_str(&format!(
            "src/client.py:{}:80: E501 line too long ({} > 79 characters)\n",
            10 + i * 7,
            80 + i % 20
        ));
        if i % 10 == 0 {
            log.push_str(&format!(
                "src/client.py:{}:1: F401 `mod{i}` imported but unused\n",
                3 + i
            ));
        }
    }
    log.push_str("Found 132 errors.\n");
    // Without a budget every diagnostic stays verbatim.
    let whole = ghost_log_folding::compress_within(&log, None).text;
    assert_all_kept(&log, &whole, |l| l.starts_with("src/"));
    // Under one, the E501 repeats are counted under the first, each place named;
    // every distinct diagnostic and the summary stay.
    let out = ghost_log_folding::compress_within(&log, Some(400)).text;
    assert_all_kept(&log, &out, |l| {
        l.contains("F401") || l.starts_with("Found ")
    });
    assert!(
        out.contains("[… 119 more at src/client.py:17:80, 24:80,"),
        "{out}"
    );
    for i in 1..120 {
        let place = 10 + i * 7;
        assert!(
            [", ", "py:"]
                .iter()
                .any(|before| out.contains(&format!("{before}{place}:80"))),
            "place {place} named"
        );
    }
    assert!(
        out.len() * 3 < log.len(),
        "{} of {} bytes",
        out.len(),
        log.len()
    );
}

#[test]
fn a_help_text_keeps_every_option_it_defines() {
    let mut help = String::from("Usage: tool [OPTIONS] FILE...\n\nOptions:\n");
    for i in 0..60 {
        help.push_str(&format!(
            "  -{c}, --option-{w}    Sets the {w} of the run; see the manual for\n                     details on how {w} interacts with the others.\n",
            c = char::from(b'a' + (i % 26) as u8),
            w = words(i)
        ));
    }
    help.push_str("  --version           Print the version and exit.\n");
    let out = compress(&help).text;
    assert_all_kept(&help, &out, |l| l.trim_start().starts_with('-'));
    assert!(
        out.len() < help.len(),
        "the descriptions' second lines fold"
    );
}

#[test]
fn a_linters_path_line_findings_are_never_regrouped_and_a_searchs_are() {
    // vulture, perlcritic and jshint print `path:line: message` or
    // `path: message`: the same shape as grep's results.
    let mut log = String::new();
    for (file, n) in [("urllib/parse.py", 12), ("urllib/request.py", 9)] {
        for i in 0..n {
            log.push_str(&format!(
                "{file}:{}: unused variable '{}' (60% confidence)\n",
                10 + i * 7,
                words(i)
            ));
        }
    }
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.ends_with("confidence)"));
    let searched = ghost_log_folding::compress_search_within(&log, None).text;
    assert!(searched.lines().any(|l| l == "urllib/parse.py"));
}

/// `find`'s real output (host/bench/corpus/local/find-py): every path is an
/// answer, kept as it is; under a budget too small for them the paths are
/// written by directory, every name still there.
#[test]
fn a_list_of_paths_keeps_every_path_and_under_a_budget_every_name() {
    let input = std::fs::read_to_string("../../host/bench/corpus/local/find-py/input.txt").unwrap();
    let out = compress(&input).text;
    assert_all_kept(&input, &out, |l| !l.trim().is_empty());
    let tight = ghost_log_folding::compress_within(&input, Some(60));
    assert!(tight.text.len() < input.len(), "{}", tight.text);
    assert!(tight.text.contains("./xml/dom/ ("), "{}", tight.text);
    for path in input.lines().filter(|l| !l.trim().is_empty()) {
        let name = path.rsplit('/').next().unwrap();
        assert!(tight.text.contains(name), "lost {name} in:\n{}", tight.text);
    }
}

#[test]
fn a_short_log_keeps_each_thing_it_names_and_folds_what_differs_only_in_numbers() {
    // apt-get: each package is set up once; the progress lines differ in numbers only.
    let mut log = String::from(
        "Reading package lists...\nBuilding dependency tree...\nReading state information...\n",
    );
    for p in 0..=20 {
        log.push_str(&format!("(Reading database ... {}%\n", p * 5));
    }
    // Interleaved, as apt prints them: no two lines of one shape in a row.
    for (name, version) in [
        ("tree", "2.1.0-1"),
        ("bats", "1.8.2-1"),
        ("sysstat", "12.6.1-1"),
        ("parallel", "20221122+ds-2"),
        ("cmake", "3.25.1-1"),
        ("lua", "5.4.4-3"),
    ] {
        log.push_str(&format!(
            "Selecting previously unselected package {name}.\nUnpacking {name} ({version}) ...\nSetting up {name} ({version}) ...\n"
        ));
    }
    log.push_str(
        "Processing triggers for man-db (2.11.2-2) ...\nDone.\nAll set.\nBye.\nOk.\nEnd.\nFin.\n",
    );
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.starts_with("Setting up ") || l.starts_with("Unpacking ")
    });
    assert!(!kept(&out, "(Reading database ... 50%"), "{out}");
}

#[test]
fn a_few_lines_differing_only_in_their_numbers_are_each_kept_as_measures() {
    // A short log: a build's 40 lines, then five benchmarks, each a time
    // line and an outliers count that differ from the others only in
    // their numbers: ten measures, not a counter ticking (which 30
    // progress lines are).
    let mut log = String::new();
    for i in 0..40 {
        log.push_str(&format!("   Compiling {} v1.{i}.0\n", words(i)));
    }
    for (n, ns) in [
        (10, 172),
        (15, 1979),
        (20, 21523),
        (25, 238610),
        (30, 2640112),
    ] {
        log.push_str(&format!("Benchmarking fib {n}: Collecting 100 samples\n"));
        log.push_str(&format!(
            "fib {n}                  time:   [{ns}.85 ns {ns}.69 ns {ns}.35 ns]\n"
        ));
        log.push_str(&format!(
            "Found {} outliers among 100 measurements ({}.00%)\n",
            n / 5,
            n / 5
        ));
    }
    for p in 0..30 {
        log.push_str(&format!("Writing report ... {}%\n", p * 3));
    }
    log.push_str("Done.\n");
    let out = compress(&log).text;
    let measure = |l: &str| l.contains("time:   [") || l.starts_with("Found ");
    assert_all_kept(&log, &out, measure);
    assert!(!kept(&out, "Writing report ... 45%"), "{out}");
    // Criterion's first run (105 lines, its results printed before the
    // build's): too long to read as a short log, short enough for its
    // measures. (One of its five outlier counts still folds here; the
    // fold is then not clearly smaller, so the pipeline passes it whole.)
    let run = include_str!("fixtures/criterion-first-run.txt");
    let out = compress(run).text;
    assert_all_kept(run, &out, |l| {
        l.contains("time:   [") || l.contains("thrpt:  [")
    });
}

#[test]
fn a_short_logs_run_of_lines_naming_different_things_is_printed_whole() {
    // pytest's slowest durations: ten lines of one shape in a row, each
    // naming another test: ten facts, in a log too short to fold them.
    let mut log = String::from(
        "....................................................                     [100%]\n\
         ============================= slowest 10 durations =============================\n",
    );
    for i in 0..10 {
        log.push_str(&format!(
            "0.0{}s call     test_speed.py::test_{}\n",
            9 - i % 9,
            words(i)
        ));
    }
    log.push_str("52 passed in 0.78s\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.contains(" call "));
}

#[test]
fn a_long_log_keeps_a_few_lines_of_one_shape_that_each_name_another_thing() {
    // 300 lines of one repeated shape, and three `Created wheel for …` lines
    // among them: the three wheels are three facts.
    let mut log = String::new();
    for i in 0..300 {
        log.push_str(&format!(
            "  copying build/lib/pkg/module{i}.py -> build/bdist/wheel/pkg\n"
        ));
        if i % 100 == 50 {
            log.push_str(&format!(
                "  Created wheel for {}: filename={}-1.0-py3-none-any.whl size={} sha256=0f{i}a\n",
                words(i),
                words(i),
                1000 + i
            ));
        }
    }
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.contains("Created wheel for "));
    assert!(out.lines().count() < 40, "{out}");
}

/// Three hundred lines of a CI job's set-up: each line different, none
/// of them an error.
fn setup_noise() -> String {
    (0..300)
        .map(|i| {
            format!(
                "Get:{i} http://deb.example.org/debian bookworm/main amd64 lib{} amd64 1.{i}.{} [{} kB]\n",
                words(i),
                i % 7,
                i * 13 % 900
            )
        })
        .collect()
}

/// Three hundred lines each of a shape of its own: more rare lines than a
/// long log keeps for being rare.
fn rare_noise() -> String {
    (0..300)
        .map(|i| {
            let w: Vec<String> = (0..4).map(|k| words(i * 4 + k)).collect();
            format!("{}\n", w.join(" "))
        })
        .collect()
}

#[test]
fn the_failing_steps_output_is_kept_however_long_the_log_before_it() {
    let findings = "\
docs/README.md: 29: MD012/no-multiple-blanks Multiple consecutive blank lines [Expected: 1; Actual: 2]
docs/README.md: 751: MD034/no-bare-urls Bare URL used [Context: \"https://example.org/a\"]
docs/README.md: 758: MD029/ol-prefix Ordered list item prefix [Expected: 1; Actual: 2; Style: 1/1/1]
docs/README.md: 759: MD029/ol-prefix Ordered list item prefix [Expected: 1; Actual: 3; Style: 1/1/1]
docs/README.md: 787: MD034/no-bare-urls Bare URL used [Context: \"https://example.org/b\"]
docs/README.md: 788: MD034/no-bare-urls Bare URL used [Context: \"https://example.org/c\"]
site.css
  47:6   ✖  Expected indentation of 2 spaces   indentation
  48:11  ✖  Expected indentation of 4 spaces   indentation
  83:6   ✖  Expected indentation of 2 spaces   indentation
 238:6   ✖  Expected indentation of 2 spaces   indentation
Use IO::Interactive::is_interactive() instead of -t at line 69, column 28.  See page 218 of PBP.  (Severity: 5)
Use IO::Interactive::is_interactive() instead of -t at line 203, column 28.  See page 218 of PBP.  (Severity: 5)
";
    let log = |exit: u8| {
        format!(
            "{}$ npm run lint\n\n> site@1.0.0 lint /home/ci/site\n\n{findings}\nnpm ERR! Lint failed. See above for more details.\n\nThe command \"npm run lint\" exited with {exit}.\n\nDone. Your build exited with {exit}.\n",
            setup_noise()
        )
    };
    let failed = log(1);
    let out = compress(&failed).text;
    assert_all_kept(&failed, &out, |l| findings.contains(l) && !l.is_empty());
    assert!(
        out.len() * 4 < failed.len(),
        "the set-up still folds:\n{out}"
    );
    // The step's last lines are what a budget keeps longest.
    let tight = ghost_log_folding::compress_within(&failed, Some(200)).text;
    assert_all_kept(&failed, &tight, |l| findings.contains(l) && !l.is_empty());

    // A step that exited with 0 did not fail: its lines fold as any others.
    let passed = log(0);
    let out = compress(&passed).text;
    assert!(
        findings.lines().any(|l| !kept(&out, l)),
        "exit 0 is no failure, yet every line stayed:\n{out}"
    );
}

#[test]
fn a_diagnostic_whose_message_is_below_its_header_keeps_it() {
    let mut log = rare_noise();
    for i in 0..200 {
        let m = words(i);
        log.push_str(&format!(
            "[{i:>3} of 200] Compiling Text.Doc.M{m} ( src/Text/Doc/M{m}.hs, dist/build/Text/Doc/M{m}.o )\n"
        ));
        if i % 5 == 0 {
            log.push_str(&format!(
                "\nsrc/Text/Doc/M{m}.hs:94:10: Warning:\n    No explicit implementation for {}\n      ‘{}’\n    In the instance declaration for ‘Monoid ({} a)’\n\n",
                words(i + 1),
                words(i + 2),
                words(i + 3)
            ));
        }
    }
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.contains("Warning:") || l.contains("instance declaration") || l.contains("explicit")
    });
}

#[test]
fn a_failures_detail_framed_above_it_is_kept() {
    let mut log = rare_noise();
    for t in 0..400 {
        log.push_str(&format!(
            "TEST {t}/400 [2/2 concurrent test workers running]\n"
        ));
        if t % 10 == 0 {
            let diff: String = (0..8)
                .map(|k| {
                    format!(
                        "{:03}{} {} {}\n",
                        k + 1,
                        if k % 2 == 0 { '+' } else { '-' },
                        words(t + k),
                        words(t * 3 + k)
                    )
                })
                .collect();
            log.push_str(&format!(
                "\n========DIFF========\n{diff}========DONE========\nFAIL Bug #{t} ({} hangs) [ext/standard/tests/file/bug{t}.phpt]\n",
                words(t)
            ));
        }
    }
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.len() > 4 && l.as_bytes()[..3].iter().all(u8::is_ascii_digit) || l.starts_with("FAIL")
    });
}

#[test]
fn an_sbt_failures_frames_under_their_level_tag_are_kept() {
    let mut log = rare_noise();
    for t in 0..300 {
        log.push_str(&format!(
            "[info] - {} answers {} (streaming)\n",
            words(t),
            words(t * 5)
        ));
        if t % 10 == 0 {
            log.push_str(&format!(
                "[info] - http/2 client: {} *** FAILED ***\n[info]   com.example.util.TimeoutException: {t}.seconds\n",
                words(t)
            ));
            for k in 0..6 {
                log.push_str(&format!(
                    "[info]   at com.example.{}.{}(Promise{k}.scala:{})\n",
                    words(t + k),
                    words(t * 2 + k),
                    100 + k
                ));
            }
        }
    }
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.starts_with("[info]   "));
}

#[test]
fn a_go_frame_kept_keeps_its_call_with_its_place() {
    let mut log = rare_noise();
    // `go list -m all`: one module path a line, each masked as a path.
    for m in 0..40 {
        log.push_str(&format!("github.com/{}/{}\n", words(m), words(m * 3)));
    }
    for t in 0..200 {
        log.push_str(&format!(
            "ok  \tgithub.com/example/app/internal/{}\t0.0{}s\n",
            words(t),
            t % 10
        ));
        if t == 100 {
            log.push_str(
                "--- FAIL: Test_cloud_null_config (0.00s)\n\
                 panic: runtime error: invalid memory address or nil pointer dereference [recovered]\n\
                 \tpanic: runtime error: invalid memory address or nil pointer dereference\n\
                 [signal SIGSEGV: segmentation violation code=0x1 addr=0x128 pc=0xd0ce46]\n\
                 \n\
                 goroutine 24 [running]:\n\
                 testing.tRunner.func1.2({0xdf8580, 0x1835d80})\n\
                 \t/opt/hostedtoolcache/go/1.18.0/x64/src/testing/testing.go:1389 +0x24e\n\
                 panic({0xdf8580, 0x1835d80})\n\
                 \t/opt/hostedtoolcache/go/1.18.0/x64/src/runtime/panic.go:838 +0x207\n\
                 github.com/example/app/internal/cloud/e2e.createOrganization(0xc0002ffba0)\n\
                 \t/home/runner/work/app/app/internal/cloud/e2e/helper_test.go:53 +0x126\n\
                 github.com/example/app/internal/cloud/e2e.Test_cloud_null_config(0xc0002ffba0)\n\
                 \t/home/runner/work/app/app/internal/cloud/e2e/env_variables_test.go:210 +0x45\n\
                 testing.tRunner(0xc0002ffba0, 0xf7a3a0)\n\
                 \t/opt/hostedtoolcache/go/1.18.0/x64/src/testing/testing.go:1439 +0x102\n\
                 FAIL\tgithub.com/example/app/internal/cloud/e2e\t8.299s\n",
            );
        }
    }
    let out = compress(&log).text;
    for line in [
        "github.com/example/app/internal/cloud/e2e.createOrganization(0xc0002ffba0)",
        "\t/home/runner/work/app/app/internal/cloud/e2e/helper_test.go:53 +0x126",
        "github.com/example/app/internal/cloud/e2e.Test_cloud_null_config(0xc0002ffba0)",
    ] {
        assert!(kept(&out, line), "lost {line:?} in:\n{out}");
    }
}

#[test]
fn a_failing_tests_own_line_is_kept_whatever_words_it_holds() {
    // `not ok 6 no errors`: the test is named "no errors", which reads as
    // a count of zero errors; its shape is the other failures' (which name
    // a failure, so they stay as errors) and the log is long enough that
    // no budget keeps every shape. The runner says it failed: it stays,
    // with its YAML block.
    let noise = |seed: usize| -> String {
        (0..300)
            .map(|i| {
                let n = seed + i;
                format!("{} {} {}\n", words(n), words(n * 7 + 3), words(n * 13 + 5))
            })
            .collect()
    };
    let failure = |n: usize, name: &str| {
        format!(
            "not ok {n} {name}\n  ---\n    operator: equal\n    at: Test.<anonymous> (/app/test/order.js:{n}:7)\n  ...\n"
        )
    };
    let mut log = noise(0);
    log.push_str("TAP version 13\n");
    for i in 1..=5 {
        log.push_str(&format!("ok {i} no warnings\n"));
    }
    log.push_str(&failure(6, "no errors"));
    log.push_str(&failure(7, "fails due to sort"));
    log.push_str("ok 8 fine\n");
    log.push_str(&failure(9, "fails due to sort"));
    log.push_str(&failure(10, "fails due to order"));
    log.push_str("1..10\n# tests 10\n# pass  6\n# fail  4\n");
    log.push_str(&noise(1000));
    let out = compress(&log).text;
    for line in [
        "not ok 6 no errors",
        "    at: Test.<anonymous> (/app/test/order.js:6:7)",
        "not ok 10 fails due to order",
        "# fail  4",
    ] {
        assert!(kept(&out, line), "lost {line:?}:\n{out}");
    }
}

#[test]
fn a_diff_is_read_whole_however_alike_its_lines() {
    // A generated-file check, far from the exit of a long log: the diff's
    // lines differ from each other only in numbers, as the values compared do.
    let mut log = String::from("$ make generate\n");
    for i in 0..150 {
        log.push_str(&format!("  GEN     api/part{i}.json\n"));
    }
    log.push_str("$ git diff --exit-code\ndiff --git a/api/schema.json b/api/schema.json\n--- a/api/schema.json\n+++ b/api/schema.json\n@@ -10,30 +10,30 @@\n   \"fields\": {\n");
    for k in 0..12 {
        log.push_str(&format!(
            "-    \"f{k}\": {},\n+    \"f{k}\": {},\n",
            k * 3,
            k * 3 + 1
        ));
    }
    log.push_str("   }\n");
    for i in 0..150 {
        log.push_str(&format!("store build cache: layer{i} saved\n"));
    }
    log.push_str("The command \"make generate && git diff --exit-code\" exited with 1.\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.starts_with("-    ") || l.starts_with("+    ")
    });
}

#[test]
fn a_finished_progress_bar_folds_in_a_short_log_too() {
    let mut log = String::from("Looking in links: /opt/wheels\n");
    for (i, package) in ["requests", "rich", "idna", "certifi", "urllib3", "pygments"]
        .iter()
        .enumerate()
    {
        let kb = 40 + i * 37;
        log.push_str(&format!(
            "Collecting {package}\n  Downloading {package}-1.{i}.0-py3-none-any.whl ({kb} kB)\n     {} {kb}.0/{kb}.0 kB {}.3 MB/s eta 0:00:00\n",
            "━".repeat(38 + i % 3),
            300 + i * 41
        ));
    }
    log.push_str("Installing collected packages: urllib3, requests\nSuccessfully installed certifi-1.3.0 idna-1.2.0 pygments-1.5.0 requests-1.0.0 rich-1.1.0 urllib3-1.4.0\n");
    let out = compress(&log).text;
    assert!(!out.contains('━'), "{out}");
    assert_all_kept(&log, &out, |l| {
        l.starts_with("Collecting ") || l.starts_with("Successfully installed")
    });
}

#[test]
fn a_formatting_checks_diff_of_a_whole_project_is_bounded() {
    // 30 files, 100 changed lines each: 3,000 diff lines in all.
    let mut log = String::from("$ cargo fmt --check\n");
    for file in 0..30 {
        log.push_str(&format!("Diff in /src/m{file}.rs at line 1:\n"));
        for k in 0..50 {
            log.push_str(&format!(
                "-    let v{k} = f{file}(a,b);\n+    let v{k} = f{file}(a, b);\n"
            ));
        }
    }
    log.push_str("The command \"cargo fmt --check\" exited with 1.\n");
    let out = compress(&log).text;
    let diff_lines = out
        .lines()
        .filter(|l| l.starts_with("-    ") || l.starts_with("+    "))
        .count();
    assert!(diff_lines >= 2000, "{diff_lines} diff lines kept");
    assert!(diff_lines < 2300, "{diff_lines} diff lines kept");
    assert_all_kept(&log, &out, |l| l.contains("f0(a"));
}

#[test]
fn a_section_the_ci_folds_shows_only_what_is_always_kept() {
    let mut log = String::new();
    for i in 0..10 {
        log.push_str(&format!("$ export STEP{i}=on\n"));
    }
    log.push_str("travis_fold:start:system_info\nBuild system information\n");
    for option in [
        "Send mail if the user is not in sudoers",
        "Use a separate timestamp for each user/tty combo",
        "Lecture user the first time they run sudo",
        "Root may run sudo",
        "Require fully-qualified hostnames in the sudoers file",
        "Visudo will honor the EDITOR environment variable",
    ] {
        log.push_str(&format!("{option}\n"));
    }
    log.push_str("travis_fold:end:system_info\n");
    for i in 0..150 {
        log.push_str(&format!("CC src/module{i}.o\n"));
    }
    log.push_str("src/parse.c:41:5: error: 'count' undeclared (first use in this function)\nmake: *** [Makefile:12: src/parse.o] Error 1\nThe command \"make\" exited with 2.\n");
    let out = compress(&log).text;
    assert!(!out.contains("Lecture user the first time"), "{out}");
    assert_all_kept(&log, &out, |l| {
        l.contains("error:") || l.starts_with("make:") || l.contains("exited with")
    });
}

/// Test::Unit's real output (host/bench/corpus/local/ruby-test-unit-failing,
/// Ruby 3.1's test-unit 3.5): its rules (`=====`) are a token or two each,
/// fewer than a marker standing for them, so they are printed, not folded;
/// and its summary is read as Test::Unit's, not as ExUnit's look-alike.
#[test]
fn rules_cost_less_than_a_marker_and_stay() {
    let input =
        std::fs::read_to_string("../../host/bench/corpus/local/ruby-test-unit-failing/input.txt")
            .unwrap();
    let out = compress(&input).text;
    let rules = |t: &str| t.lines().filter(|l| l.starts_with("=====")).count();
    assert_eq!(rules(&out), rules(&input), "{out}");
    assert!(
        out.starts_with("[tests (Test::Unit): 3 failed, 1 passed, 0 skipped]"),
        "{out}"
    );
}

/// A whole CI job under `bash -x` (host/bench/corpus/local/ci-job-python-dateutil:
/// python-dateutil's suite under pytest -v, with a bug put in): the
/// command the failures printed under is kept, with the failures.
#[test]
fn the_command_a_failure_printed_under_is_kept() {
    let input =
        std::fs::read_to_string("../../host/bench/corpus/local/ci-job-python-dateutil/input.txt")
            .unwrap();
    let out = compress(&input).text;
    assert!(
        kept(
            &out,
            "+ venv/bin/pytest -v -p no:cacheprovider -W ignore::DeprecationWarning tests"
        ),
        "{out}"
    );
    assert_all_kept(&input, &out, |l| l.starts_with("FAILED tests/"));
    // The 2,000 passing tests fold.
    assert!(
        out.len() * 10 < input.len(),
        "{} of {} bytes",
        out.len(),
        input.len()
    );
}

#[test]
fn a_link_checkers_numbered_issues_above_its_failure_exit_are_each_kept() {
    // Written in the shape of awesome_bot's report: every link numbered,
    // then the issues numbered again.
    let mut log = String::from("$ awesome_bot README.md\nLinks to check: 300\n");
    for i in 1..=300 {
        log.push_str(&format!(
            "  {i}. https://{}.example.org/{}\n",
            words(i),
            words(i + 5)
        ));
    }
    log.push_str("Checking URLs: ✓✓✓✓→✓✓\n\nIssues :-(\n> Links\n");
    let mut issues = Vec::new();
    for i in 1..=30 {
        issues.push(format!(
            "  {i}. 301 http://{}-{}.readthedocs.org/en/latest/ → http://{}-{}.readthedocs.io/en/latest/",
            words(i),
            words(i + 40),
            words(i),
            words(i + 40)
        ));
    }
    for issue in &issues {
        log.push_str(issue);
        log.push('\n');
    }
    log.push_str("\nThe command \"awesome_bot README.md\" exited with 1.\n");
    let out = compress(&log).text;
    for issue in &issues {
        assert!(kept(&out, issue), "lost {issue:?}:\n{out}");
    }
    let links = out.lines().filter(|l| l.contains(".example.org/")).count();
    assert!(links <= 3, "{links} links to check kept:\n{out}");
}

#[test]
fn phpunits_failures_keep_the_places_of_their_tests() {
    let mut log = String::from("PHPUnit 5.7.27 by Sebastian Bergmann.\n\n");
    log.push_str(&"E".repeat(40));
    log.push_str("\n\nTime: 36 seconds, Memory: 94.50MB\n\nThere were 40 errors:\n\n");
    let mut places = Vec::new();
    for t in 0..40 {
        let class = format!("{}_test", words(t));
        let place = format!("/build/app/tests/database/{class}.php:{}", 10 + t);
        log.push_str(&format!(
            "{}) {class}::test_{}\nRuntimeException: Undefined property: CI_DB_driver::$_is_unbuffered\n\n/build/app/tests/mocks/db.php:136\n{place}\n/build/app/tests/mocks/ci_testcase.php:351\n\n",
            t + 1,
            words(t + 3),
        ));
        places.push(place);
    }
    log.push_str("FAILURES!\nTests: 120, Assertions: 80, Errors: 40.\n");
    let out = compress(&log).text;
    for place in &places {
        assert!(kept(&out, place), "lost {place:?}:\n{out}");
    }
    // The mock's frame under every failure is not printed forty times
    // (once under the first failure, once in the log's last lines).
    let mock = out.lines().filter(|l| l.ends_with("db.php:136")).count();
    assert!(mock <= 2, "{mock} times:\n{out}");
}

#[test]
fn a_double_spaced_pester_failure_keeps_its_expectation_and_trace() {
    // Pester 5 as a CI service showed it: a blank line after every line.
    let mut log = String::from("Running tests.\n\n");
    let mut failures = Vec::new();
    for t in 0..160 {
        if t % 5 == 2 {
            let failure = [
                format!(
                    "[-] {} reads {} -> Expected and actual values differ!",
                    words(t),
                    words(t + 1)
                ),
                format!("Expected: '/tmp/dir/{}.Tests.ps1'", words(t + 2)),
                format!("Actual  : '{}.Tests.ps1'", words(t + 3)),
                "at Verify-Equal, /src/Axiom/Verify-Equal.ps1:16".to_string(),
                format!("at <ScriptBlock>, /src/Pester.RSpec.ts.ps1:{}", 100 + t),
            ];
            for line in &failure {
                log.push_str(line);
                log.push_str("\n\n");
            }
            log.push('\n');
            failures.extend(failure);
        }
        log.push_str(&format!(
            "    [+] {} {} {}ms\n\n",
            words(t),
            words(t + 9),
            t % 7 + 1
        ));
    }
    log.push_str("Tests completed in 192ms\n\nTests Passed: 128, Failed: 32, Skipped: 0\n");
    let out = compress(&log).text;
    for line in &failures {
        assert!(kept(&out, line), "lost {line:?}:\n{out}");
    }
}

#[test]
fn an_nunit_failure_keeps_its_own_frames_among_the_runtimes() {
    // NUnit 2.6's console under Mono with `-labels` (the shape Debian's
    // nunit-console prints): every test named as it starts, then each
    // failure's message and trace. Mono prints a frame's IL offset before
    // its place, and a frame of code built without symbols names no file.
    let mut log = String::from("NUnit-Console version 2.6.4.0\n\nExecution Runtime: mono-4.0\n");
    for t in 0..80 {
        log.push_str(&format!("***** Shop.Tests.CartTests.Adds{t}\n"));
    }
    log.push_str("\nTests run: 80, Errors: 0, Failures: 3, Inconclusive: 0, Time: 0.08 seconds\n  Not run: 0, Invalid: 0, Ignored: 0, Skipped: 0\n\nErrors and Failures:\n");
    let runtime = "at System.Reflection.RuntimeMethodInfo.Invoke (System.Object obj, System.Reflection.BindingFlags invokeAttr, System.Reflection.Binder binder, System.Object[] parameters, System.Globalization.CultureInfo culture) [0x0007c] in <12b418a7818c4ca0893feeaaf67f1e7f>:0";
    let mut own = Vec::new();
    for (k, test) in ["RefusesZero", "RefusesNegative", "RefusesHuge"]
        .iter()
        .enumerate()
    {
        let frames = [
            format!("  at Shop.Cart.Add (System.String sku, System.Decimal price, System.Int32 qty) [0x00031] in /src/shop/src/Cart.cs:{}", 16 + k),
            format!("  at Shop.Tests.CartTests.<{test}>m__0 () [0x00011] in /src/shop/tests/CartTests.cs:{}", 266 + 10 * k),
            "  at NUnit.Framework.Assert.Throws (NUnit.Framework.Constraints.IResolveConstraint expression, NUnit.Framework.TestDelegate code, System.String message, System.Object[] args) [0x00050] in <3cae647c28684bf8b8b5a713fda2d614>:0".to_string(),
            String::new(),
            format!("at Shop.Tests.CartTests.{test} () [0x0001e] in /src/shop/tests/CartTests.cs:{}", 266 + 10 * k),
            "at (wrapper managed-to-native) System.Reflection.RuntimeMethodInfo.InternalInvoke(System.Reflection.RuntimeMethodInfo,object,object[],System.Exception&)".to_string(),
            runtime.to_string(),
        ];
        log.push_str(&format!(
            "{}) Test Failure : Shop.Tests.CartTests.{test}\n     Expected: <System.ArgumentException>\n  But was:  <System.ArgumentOutOfRangeException> (quantity must be positive\nParameter name: qty\nActual value was {k}.)\n{}\n\n",
            k + 1,
            frames.join("\n")
        ));
        own.extend(frames.into_iter().filter(|f| f.contains("/src/shop/")));
    }
    let out = compress(&log).text;
    assert!(
        out.starts_with("[tests (NUnit): 3 failed, 77 passed"),
        "{out}"
    );
    for frame in &own {
        assert!(kept(&out, frame), "lost {frame:?}:\n{out}");
    }
}

#[test]
fn an_eunit_failure_keeps_the_places_it_failed_at() {
    // EUnit under `verbose` (OTP 25's shape): every test's line, then each
    // failure's places (`in function`, `in call from`) and its reason.
    let mut log = String::from(
        "======================== EUnit ========================\nmodule 'cart_tests'\n",
    );
    for t in 0..80 {
        log.push_str(&format!("  cart_tests: adds_{t}_test...ok\n"));
    }
    let runner = [
        "in call from eunit_test:'-mf_wrapper/2-fun-0-'/2 (eunit_test.erl, line 273)",
        "in call from eunit_test:run_testfun/1 (eunit_test.erl, line 71)",
        "in call from eunit_proc:run_test/1 (eunit_proc.erl, line 531)",
        "in call from eunit_proc:with_timeout/3 (eunit_proc.erl, line 356)",
        "in call from eunit_proc:handle_test/2 (eunit_proc.erl, line 514)",
    ]
    .join("\n");
    let mut own = Vec::new();
    for k in 0..12 {
        let test = format!("{}_test", words(k));
        let place = format!(
            "in function cart_tests:{test}/0 (cart_tests.erl, line {})",
            101 + 3 * k
        );
        log.push_str(&format!(
            "  cart_tests: {test}...*failed*\n{place}\n{runner}\n**error:{{assertEqual,[{{module,cart_tests}},\n              {{expected,{k}}},\n              {{value,{}}}]}}\n  output:<<\"\">>\n\n",
            k + 1
        ));
        own.push(place);
    }
    log.push_str("  [done in 0.118 s]\n=======================================================\n  Failed: 12.  Skipped: 0.  Passed: 80.\n");
    let out = compress(&log).text;
    assert!(
        out.starts_with("[tests (EUnit): 12 failed, 80 passed"),
        "{out}"
    );
    for place in &own {
        assert!(kept(&out, place), "lost {place:?}:\n{out}");
    }
}

#[test]
fn a_native_trace_keeps_where_the_project_failed_in_every_test_it_broke() {
    // valgrind over a test loop (3.19's shape): each run prints its banner
    // and heap summary; two tests read past the same buffer, called from
    // different places of the project.
    let mut log = String::new();
    let mut own = Vec::new();
    for t in 0..20 {
        let pid = 27000 + 9 * t;
        log.push_str(&format!(
            "== build/t{t:02}\n=={pid}== Memcheck, a memory error detector\n=={pid}== Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.\n=={pid}== Using Valgrind-3.19.0 and LibVEX; rerun with -h for copyright info\n=={pid}== Command: ./build/t{t:02}\n=={pid}==\n"
        ));
        let errors = if t == 7 || t == 15 {
            let caller = format!(
                "=={pid}==    by 0x1092DC: {}_{t} (t{t:02}.c:{})",
                words(t),
                10 + t
            );
            let innermost = format!("=={pid}==    at 0x1091FE: slot (ring.c:15)");
            log.push_str(&format!(
                "=={pid}== Invalid read of size 4\n{innermost}\n=={pid}==    by 0x109221: ring_peek (ring.c:17)\n{caller}\n=={pid}==    by 0x109300: main (t{t:02}.c:30)\n=={pid}==  Address 0x4a420a4 is 4 bytes after a block of size 16 alloc'd\n=={pid}==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)\n=={pid}==    by 0x109172: ring_new (ring.c:7)\n=={pid}==    by 0x1092A3: main (t{t:02}.c:11)\n=={pid}==\n"
            ));
            own.extend([
                format!("=={pid}== Invalid read of size 4"),
                innermost,
                caller,
            ]);
            1
        } else {
            0
        };
        log.push_str(&format!(
            "=={pid}== HEAP SUMMARY:\n=={pid}==     in use at exit: 0 bytes in 0 blocks\n=={pid}==   total heap usage: 2 allocs, 2 frees, 40 bytes allocated\n=={pid}==\n=={pid}== All heap blocks were freed -- no leaks are possible\n=={pid}==\n=={pid}== ERROR SUMMARY: {errors} errors from {errors} contexts (suppressed: 0 from 0)\n{}: build/t{t:02}\n",
            if errors > 0 { "FAIL" } else { "PASS" }
        ));
    }
    let out = compress(&log).text;
    for line in &own {
        assert!(kept(&out, line), "lost {line:?}:\n{out}");
    }
    // Twenty banners and heap summaries fold.
    assert!(out.len() * 2 < log.len(), "{out}");
}

#[test]
fn a_list_of_records_keeps_each_records_name_with_its_words() {
    // `git log`: each commit's hash heads its message; a message line
    // starting with `Tests:` is no test runner's summary.
    let mut log = String::new();
    let mut hashes = Vec::new();
    for c in 0..12 {
        let hash = format!("commit {:040x}", 0x3f2a_u128 * (c + 7) * 1_000_003);
        log.push_str(&format!(
            "{hash}\nAuthor: dev <dev@example.com>\nDate:   Fri Nov 27 2{}:0{}:39 2026 +0000\n\n    {} the {} parser\n\n",
            c % 4,
            c % 10,
            ["Fix", "Name", "Test", "Fold"][(c % 4) as usize],
            words(c as usize)
        ));
        hashes.push(hash);
    }
    log.push_str(&format!(
        "{}\nAuthor: dev <dev@example.com>\nDate:   Fri Nov 27 19:00:00 2026 +0000\n\n    Tests: cover the parser\n",
        "commit 1234567890abcdef1234567890abcdef12345678"
    ));
    hashes.push("commit 1234567890abcdef1234567890abcdef12345678".to_string());
    let out = compress(&log).text;
    assert!(!out.starts_with("[tests"), "{out}");
    for hash in &hashes {
        assert!(kept(&out, hash), "lost {hash:?}:\n{out}");
    }
    assert_all_kept(&log, &out, |l| l.starts_with("    "));
}

/// A CI log of `lines` compile lines, then a test run whose functional
/// test crashes under AddressSanitizer deep in the project's code (an
/// 80-frame trace, the sanitizer's own frames first, as the test harness
/// prints the sanitizer's log file: each line under `= `), then 600 more
/// tests' lines and the failure exit. Returns the log and the trace.
fn ci_log_with_a_crash(lines: usize) -> (String, Vec<String>) {
    let mut log = String::new();
    // Test lines of many shapes: a test's name is a sentence.
    for i in 0..lines {
        let name: Vec<String> = (0..2 + i % 9).map(|k| words(i + k)).collect();
        log.push_str(&format!(
            "[ RUN      ] {} spec: {}: {}.{:02} ms OK\n",
            words(i / 40),
            name.join(" "),
            i % 300,
            i % 97
        ));
    }
    log.push_str("Running functional tests\n= ==8123==ERROR: AddressSanitizer: SEGV on unknown address 0x000001d548d0 (pc 0x000000455084 bp 0x000000000000 sp 0x7ffc53357450 T0)\n= ==8123==The signal is caused by a WRITE memory access.\n");
    let mut trace = Vec::new();
    for k in 0..80 {
        let place = if k < 3 {
            format!(
                "/tmp/llvm/compiler-rt/lib/asan/asan_{}.cc:{}",
                words(k),
                100 + k
            )
        } else {
            format!(
                "/home/ci/build/../src/nvim/{}.c:{}:{}",
                words(k + 40),
                10 * k,
                k % 7 + 1
            )
        };
        trace.push(format!(
            "=     #{k} 0x{:x} in {} {place}",
            0x455083 + 977 * k,
            words(k + 80)
        ));
    }
    for frame in &trace {
        log.push_str(frame);
        log.push('\n');
    }
    log.push_str("= SUMMARY: AddressSanitizer: SEGV\n= ==8123==ABORTING\n");
    for t in 0..600 {
        log.push_str(&format!(
            "ok {} - {} handles {}\n",
            t + 2,
            words(t),
            words(t + 3)
        ));
    }
    log.push_str("make: *** [Makefile:120: functionaltest] Error 1\n");
    (log, trace)
}

#[test]
fn a_crash_trace_stays_whole_where_the_log_affords_it() {
    // In a long log the trace is a small part of it: every frame stays,
    // the sanitizer's own and the middle of the project's.
    let (log, trace) = ci_log_with_a_crash(8000);
    let out = compress(&log).text;
    for frame in &trace {
        assert!(kept(&out, frame), "lost {frame:?}:\n{out}");
    }
    assert!(out.len() * 10 < log.len(), "{}", out.len());
    // Under a tight budget its middle folds.
    let out = ghost_log_folding::compress_within(&log, Some(600)).text;
    let shown = trace.iter().filter(|f| kept(&out, f)).count();
    assert!(shown < trace.len() / 2, "{shown} frames:\n{out}");
}

/// cargo-nextest indents each failing test's output under its `FAIL`
/// line. Unbudgeted, all of it stays (it says why the test failed); under
/// a budget only its first lines are kept for being under the error, the
/// rest folds by the usual rules, and the test's panic message, the
/// runner's summary and its counts stay. (The nested libtest lines do not
/// count the test twice.)
#[test]
fn under_a_budget_a_failing_tests_indented_output_folds_past_its_first_lines() {
    let mut log = String::from(
        "    Starting 5 tests across 1 binary\n        PASS [   0.004s] (1/5) grid::reference empty\n",
    );
    for (k, (name, cells)) in [("wraps", 400), ("tabs", 3)].iter().enumerate() {
        log.push_str(&format!(
            "        FAIL [   0.09{k}s] ({}/5) grid::reference {name}\n  stdout ───\n\n    running 1 test\n",
            k + 2
        ));
        for c in 0..*cells {
            let (was, now) = (b'a' + (c % 26) as u8, b'a' + ((c * 7 + 3) % 26) as u8);
            log.push_str(&format!(
                "    [{}][{}] Cell {{ c: '{}', bold: false }} => Cell {{ c: '{}', bold: false }}\n",
                c / 40,
                c % 40,
                was as char,
                now as char
            ));
        }
        log.push_str(&format!(
            "    test {name} ... FAILED\n\n    failures:\n\n    failures:\n        {name}\n\n    test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 4 filtered out; finished in 0.09s\n\n  stderr ───\n\n    thread '{name}' (1{k}) panicked at tests/reference.rs:33:5:\n    Ref test {name} failed; {cells} cells differ\n\n"
        ));
    }
    log.push_str("        PASS [   0.005s] (4/5) grid::reference short\n        PASS [   0.005s] (5/5) grid::reference unicode\n────────────\n     Summary [   0.201s] 5 tests run: 3 passed, 2 failed, 0 skipped\n        FAIL [   0.090s] (2/5) grid::reference wraps\n        FAIL [   0.091s] (3/5) grid::reference tabs\nerror: test run failed\n");
    let whole = ghost_log_folding::compress_within(&log, None).text;
    assert_all_kept(&log, &whole, |l| l.contains("=> Cell"));
    let out = ghost_log_folding::compress_within(&log, Some(1500)).text;
    assert!(
        out.starts_with("[tests (cargo nextest): 2 failed, 3 passed, 0 skipped]"),
        "{out}"
    );
    assert_all_kept(&log, &out, |l| {
        l.contains("FAIL [")
            || l.contains("panicked at")
            || l.contains("cells differ")
            || l.contains("Summary [")
    });
    let cells = out.lines().filter(|l| l.contains("=> Cell")).count();
    assert!(
        (20..=120).contains(&cells),
        "{cells} cell lines kept: {out}"
    );
    assert!(
        out.len() * 3 < log.len(),
        "{} of {} bytes",
        out.len(),
        log.len()
    );
}

#[test]
fn a_warnings_indented_detail_is_kept_though_the_warning_repeats() {
    // bison -Wcounterexamples: one warning per conflict, the same words
    // for every conflict on one token; the counterexample under each is
    // what differs.
    let ops = ["'+'", "'-'", "'*'", "'/'"];
    let mut log = String::from("calc.y: warning: 16 shift/reduce conflicts [-Wconflicts-sr]\n");
    for left in ops {
        for right in ops {
            log.push_str(&format!(
                "calc.y: warning: shift/reduce conflict on token {right} [-Wcounterexamples]\n\
                 \x20 Example: expr {left} expr • {right} expr\n  Shift derivation\n    expr\n\
                 \x20   ↳ 8: expr {left} expr\n              ↳ 9: expr • {right} expr\n\
                 \x20 Reduce derivation\n    expr\n    ↳ 9: expr             {right} expr\n\
                 \x20        ↳ 8: expr {left} expr •\n"
            ));
        }
    }
    let out = compress(&log).text;
    assert!(out.len() < log.len() / 2, "the derivations fold:\n{out}");
    assert_all_kept(&log, &out, |l| l.trim_start().starts_with("Example:"));
}

#[test]
fn lines_pointing_at_the_input_are_kept_and_a_counter_of_lines_folds() {
    // pdflatex: package loading, then errors whose context ends at the
    // input's line (`l.N …`), the same shape each time, and a box warning
    // naming the lines of its paragraph.
    let mut log = String::from("This is pdfTeX, Version 3.141592653-2.6-1.40.24\n");
    for p in 0..60 {
        log.push_str(&format!(
            "(/usr/share/texlive/texmf-dist/tex/latex/pkg{p}/pkg{p}.sty)\n"
        ));
    }
    for k in 0..30 {
        let (w, v) = (words(k), words(k + 40));
        log.push_str(&format!(
            "! Undefined control sequence \\{w}.\n<argument> \\{v}\nl.{} \\begin{{{v}}}\n                   \n",
            k * 3 + 10
        ));
    }
    log.push_str("\nOverfull \\hbox (87.94148pt too wide) in paragraph at lines 11--16\n");
    for p in 0..40 {
        log.push_str(&format!("[{p}]\n"));
    }
    log.push_str("Output written on report.pdf (4 pages, 78501 bytes).\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.starts_with("l.") || l.starts_with("Overfull")
    });
    // A counter of lines read is no place to look.
    let counter: String = (1..=400)
        .map(|i| format!("reader: processed line {} of input.csv\n", i * 250))
        .collect();
    let out = compress(&counter).text;
    assert!(out.lines().count() < 40, "the counter folds:\n{out}");
}

#[test]
fn each_steps_completion_line_is_kept_however_often_its_shape_recurs() {
    // The JVM's unified GC log: each collection begins with a line, prints
    // its phases and ends with the begun line said again with the heap
    // before and after and the time it took (the collection's summary).
    let mut log = String::from("[0.006s][info][gc] Using G1\n");
    for n in 0..60 {
        let t = format!("[{}.{:03}s]", n / 10, n * 7 % 1000);
        let cause = if n % 9 == 8 {
            "Pause Full (G1 Compaction Pause)"
        } else {
            "Pause Young (Normal) (G1 Evacuation Pause)"
        };
        log.push_str(&format!("{t}[info][gc,start    ] GC({n}) {cause}\n"));
        log.push_str(&format!(
            "{t}[info][gc,task     ] GC({n}) Using 2 workers of 2 for evacuation\n"
        ));
        for phase in [
            "Pre Evacuate Collection Set",
            "Merge Heap Roots",
            "Evacuate Collection Set",
            "Other",
        ] {
            log.push_str(&format!(
                "{t}[info][gc,phases   ] GC({n})   {phase}: {}.{}ms\n",
                n % 4,
                n % 10
            ));
        }
        for region in ["Eden", "Survivor", "Old"] {
            log.push_str(&format!(
                "{t}[info][gc,heap     ] GC({n}) {region} regions: {}->{}({})\n",
                n,
                n / 2,
                64
            ));
        }
        log.push_str(&format!(
            "{t}[info][gc          ] GC({n}) {cause} {}M->{}M(64M) {}.{:03}ms\n",
            n + 6,
            n / 2 + 3,
            n % 13,
            n * 37 % 1000
        ));
        log.push_str(&format!(
            "{t}[info][gc,cpu      ] GC({n}) User=0.00s Sys=0.00s Real=0.00s\n"
        ));
    }
    log.push_str("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.contains("[gc          ] GC("));
    assert!(out.len() < log.len() / 3, "the phases fold:\n{out}");
}

#[test]
fn a_log_of_many_section_titles_keeps_the_first_title_of_each_shape() {
    // `tsc --traceResolution`: each module's resolution framed by a title
    // that opens it and one that gives its verdict, hundreds of each, and
    // between them the files it tried (`… does not exist`).
    let mut log = String::new();
    for m in 0..150 {
        let name = format!("{}{m}", words(m));
        log.push_str(&format!(
            "======== Resolving module '{name}' from '/app/src/index.ts'. ========\n"
        ));
        log.push_str("Explicitly specified module resolution kind: 'NodeNext'.\n");
        for dir in ["src", "lib", "app", "node_modules/@types", "node_modules"] {
            log.push_str(&format!(
                "Directory '/app/{dir}/{name}' does not exist, skipping all lookups in it.\n"
            ));
            log.push_str(&format!("File '/app/{dir}/{name}.ts' does not exist.\n"));
        }
        log.push_str(&format!("File '/app/node_modules/{name}/index.d.ts' exists - use it as a name resolution result.\n"));
        log.push_str(&format!(
            "======== Module name '{name}' was successfully resolved to '/app/node_modules/{name}/index.d.ts' with Package ID '{name}/index.d.ts@1.0.{m}'. ========\n"
        ));
    }
    let first = log
        .lines()
        .find(|l| l.contains("was successfully resolved"))
        .unwrap()
        .to_string();
    let out = compress(&log).text;
    assert!(kept(&out, &first), "{out}");
    assert!(
        out.matches("was successfully resolved").count() < 20,
        "the other verdicts fold:\n{out}"
    );
}

#[test]
fn tastys_passing_tests_fold_and_its_failures_stay() {
    // Haskell's tasty under pandoc's test suite: one line per test, passing
    // ones `OK` with their time.
    let mut log = String::from("pandoc tests\n  Command\n");
    for k in 0..300 {
        if k % 10 == 0 {
            log.push_str(&format!("    {} writer\n", words(k)));
        }
        let name = format!("{} {} round trip:", words(k + 3), words(k + 7));
        log.push_str(&format!("      {name:<40}OK (0.02s)\n"));
    }
    log.push_str("    4885.md\n      #1:                                  FAIL (0.03s)\n        expected: foo\n         but got: bar\n");
    log.push_str("\n1 out of 301 tests failed (3.21s)\n");
    let out = compress(&log).text;
    assert!(
        kept(
            &out,
            "      #1:                                  FAIL (0.03s)"
        ),
        "{out}"
    );
    assert!(kept(&out, "1 out of 301 tests failed (3.21s)"), "{out}");
    assert!(
        out.matches("OK (0.02s)").count() < 5,
        "the passing tests fold:\n{out}"
    );
}

#[test]
fn the_few_lines_logged_above_the_usual_level_are_kept() {
    // `CARGO_LOG=debug cargo build`: DEBUG lines of bookkeeping and two
    // INFO lines saying why the crate is rebuilt, all under one long span.
    let span = "main:exec:compile_ws:compile:compile{unit=Unit { pkg: Package { id: PackageId { name: \"app\", version: \"0.1.0\", source: \"/src/app\" }, ..: \"..\" }, target: TargetInner { name: \"app\", doc: true }, profile: Profile { name: \"dev\", opt_level: \"0\" }, kind: Host }}";
    let mut log = String::new();
    for i in 0..80 {
        log.push_str(&format!(
            "   0.{:09}s DEBUG {span}: cargo::core::compiler::{}: {} {i}\n",
            12_000_000 + i * 7919,
            ["fingerprint", "job_queue", "build_context"][i % 3],
            ["load", "write fingerprint", "start"][i % 3]
        ));
        if i == 40 {
            log.push_str(&format!("   0.012289147s  INFO {span}: cargo::core::compiler::fingerprint: fingerprint dirty for app v0.1.0 (/src/app)\n"));
            log.push_str(&format!("   0.012302296s  INFO {span}: cargo::core::compiler::fingerprint:     dirty: FsStatusOutdated(StaleItem(ChangedFile {{ stale: \"/src/app/src/main.rs\" }}))\n"));
        }
    }
    log.push_str("    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.12s\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.contains(" INFO ") || l.contains("Finished")
    });
    assert!(out.len() < log.len() / 2, "the DEBUG lines fold:\n{out}");
}

#[test]
fn every_benchmark_result_is_kept_while_progress_folds() {
    // `go test -bench . -benchmem` after a download: one line per
    // benchmark, a name then measurements, names differing in their digits
    // too (`/7bit`, `/26bit`).
    let mut log = String::new();
    for k in 0..200 {
        log.push_str(&format!(
            "go: downloading example.com/dep v1.{k}.0 ({} kB/s)\n",
            100 + k
        ));
    }
    log.push_str("goos: linux\ngoarch: amd64\npkg: strconv\n");
    for (k, op) in ["ParseInt", "Atoi", "FormatInt", "AppendInt"]
        .iter()
        .enumerate()
    {
        for sign in ["Pos", "Neg"] {
            for bits in [7, 26, 31, 56, 63] {
                log.push_str(&format!(
                    "Benchmark{op}/{sign}/{bits}bit-2  \t {:>8}\t {:>10.2} ns/op\t       0 B/op\t       0 allocs/op\n",
                    1_000_000 + bits * 7919 + k,
                    12.5 + bits as f64 / 3.0
                ));
            }
        }
    }
    log.push_str("PASS\nok  \tstrconv\t4.107s\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| l.starts_with("Benchmark"));
    assert!(out.len() < log.len() / 2, "the downloads fold:\n{out}");
}

#[test]
fn the_counters_a_crawl_closes_with_are_kept_while_its_requests_fold() {
    // Scrapy's log: a request crawled and an item scraped per page, then
    // the stats it kept, one key a line, all of one shape.
    let mut log = String::new();
    for k in 0..120 {
        log.push_str(&format!(
            "2026-12-03 09:33:17 [scrapy.core.engine] DEBUG: Crawled (200) <GET http://127.0.0.1:8000/p/{k}.html> (referer: http://127.0.0.1:8000/)\n\
             2026-12-03 09:33:17 [scrapy.core.scraper] DEBUG: Scraped from <200 http://127.0.0.1:8000/p/{k}.html>\n\
             {{'title': 'Product {k}', 'sku': 'SKU-{}', 'price': {}.99}}\n",
            1000 + k,
            k * 3 % 200
        ));
    }
    log.push_str("2026-12-03 09:33:18 [scrapy.statscollectors] INFO: Dumping Scrapy stats:\n");
    let stats = [
        ("downloader/request_bytes", "41307"),
        ("downloader/request_count", "121"),
        ("downloader/response_status_count/200", "121"),
        ("elapsed_time_seconds", "1.49"),
        ("finish_reason", "'finished'"),
        ("item_scraped_count", "120"),
        ("log_count/DEBUG", "241"),
        ("log_count/ERROR", "0"),
        ("memusage/max", "81510400"),
        ("response_received_count", "121"),
        ("scheduler/dequeued", "121"),
        ("scheduler/enqueued", "121"),
    ];
    for (k, (key, value)) in stats.iter().enumerate() {
        let open = if k == 0 { "{" } else { " " };
        let close = if k + 1 == stats.len() { "}" } else { "," };
        log.push_str(&format!("{open}'{key}': {value}{close}\n"));
    }
    log.push_str("2026-12-03 09:33:18 [scrapy.core.engine] INFO: Spider closed (finished)\n");
    let out = compress(&log).text;
    assert_all_kept(&log, &out, |l| {
        l.trim_start_matches(['{', ' ']).starts_with('\'') && !l.contains("'title'")
    });
    assert!(out.len() < log.len() / 4, "the requests fold:\n{out}");
}

#[test]
fn a_verbose_builds_echoed_commands_fold_but_its_warnings_stay() {
    // Each `Running` line echoes a command after dozens of its environment
    // settings, 1-2 KB apiece; the first stands for the next ones, in the
    // log's last lines too.
    let input = include_str!("fixtures/cargo-build-vv.txt");
    let out = compress(input).text;
    assert_all_kept(input, &out, |l| {
        l.contains("warning") && !l.contains("Running") || l.contains("Finished")
    });
    let running = |text: &str| text.lines().filter(|l| l.contains("Running `")).count();
    assert!(running(&out) < running(input), "{out}");
    assert!(
        out.len() * 3 < input.len() * 2,
        "{} of {} bytes",
        out.len(),
        input.len()
    );
    assert!(out.contains("folded]"), "{out}");
}
