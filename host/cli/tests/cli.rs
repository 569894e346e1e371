//! The `ghost` binary as a user runs it, end to end: `compress`, `classify`,
//! and one-line errors for bad input. (It lives in the `ghost` package so
//! cargo builds the binary for it.)

mod common;

use std::process::Output;

use common::workspace;

fn ghost(home: &std::path::Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    common::run_ghost(home, args, stdin.unwrap_or_default())
}

fn example_log() -> String {
    workspace()
        .join("examples/ci-failure.log")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn compress_prints_the_compressed_log_and_stats() {
    let home = tempfile::tempdir().unwrap();
    let out = ghost(
        home.path(),
        &["compress", "--class", "log", "--stats", &example_log()],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stdout.contains("[ghost log:"), "{stdout}");
    assert!(stdout.len() < std::fs::read_to_string(example_log()).unwrap().len() / 3);
    assert!(stderr.contains("tokens o200k_base"), "{stderr}");
    assert!(stderr.contains("compressor builtin:log"), "{stderr}");
    // The compiled components are now cached under GHOST_HOME.
    let cached = std::fs::read_dir(home.path().join("cache/components"))
        .unwrap()
        .count();
    assert!(cached >= 1);
}

#[test]
fn compress_reads_stdin_and_classifies_when_no_class_is_given() {
    let home = tempfile::tempdir().unwrap();
    let log = std::fs::read(example_log()).unwrap();
    let out = ghost(
        home.path(),
        &["compress", "--stats", "--plugin-deadline-ms", "5000", "-"],
        Some(&log),
    );
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("class log (classified"), "{stderr}");
}

#[test]
fn classify_prints_class_and_confidence() {
    let home = tempfile::tempdir().unwrap();
    let out = ghost(
        home.path(),
        &["classify", "-"],
        Some(b"{\"name\": \"ghost\", \"tags\": [1, 2, 3]}"),
    );
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let (class, confidence) = stdout.trim().split_once(' ').unwrap();
    assert_eq!(class, "structured");
    let confidence: f32 = confidence.parse().unwrap();
    assert!((0.0..=1.0).contains(&confidence));
}

/// Bad input: exit code 2, one line on stderr naming the problem, no panic.
fn assert_one_line_error(out: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("ghost: error: "), "{stderr}");
    assert!(stderr.contains(needle), "{stderr} should mention {needle}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn bad_input_gets_a_one_line_error() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("blob.bin");
    std::fs::write(&binary, [0x7f, b'E', b'L', b'F', 0, 0, 1, 2]).unwrap();
    let latin1 = dir.path().join("latin1.txt");
    std::fs::write(&latin1, b"caf\xe9 au lait\n").unwrap();
    let dir_arg = dir.path().to_string_lossy().into_owned();

    assert_one_line_error(
        &ghost(home.path(), &["compress", &dir_arg], None),
        "is a directory",
    );
    assert_one_line_error(
        &ghost(home.path(), &["compress", binary.to_str().unwrap()], None),
        "binary file",
    );
    assert_one_line_error(
        &ghost(home.path(), &["compress", latin1.to_str().unwrap()], None),
        "not valid UTF-8 (first bad byte at offset 3)",
    );
    assert_one_line_error(
        &ghost(
            home.path(),
            &["compress", "--class", "poetry", &example_log()],
            None,
        ),
        "unknown class 'poetry'",
    );
    assert_one_line_error(
        &ghost(home.path(), &["compress", "/no/such/file.log"], None),
        "No such file or directory",
    );
    assert_one_line_error(
        &ghost(home.path(), &["classify", &dir_arg], None),
        "is a directory",
    );
    assert_one_line_error(
        &ghost(home.path(), &["compress", "-"], Some(b"\xff\xfe")),
        "standard input is not valid UTF-8",
    );
}

#[test]
fn small_or_incompressible_input_passes_through_unchanged() {
    let home = tempfile::tempdir().unwrap();
    let out = ghost(
        home.path(),
        &["compress", "--class", "log", "-"],
        Some(b"one short line\n"),
    );
    assert!(out.status.success());
    assert_eq!(out.stdout, b"one short line\n");
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn the_store_commands_twin_the_mcp_tools() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let log = example_log();
    let ingested: serde_json::Value = serde_json::from_str(&stdout(&ghost(
        h,
        &[
            "ingest",
            "--session",
            "s1",
            "--tool-use-id",
            "t1",
            "--tool",
            "Bash",
            "--json",
            &log,
        ],
        None,
    )))
    .unwrap();
    let id = ingested["id"].as_str().unwrap().to_string();
    assert_eq!(ingested["compressed"], serde_json::json!(true));
    assert!(
        ingested["text"]
            .as_str()
            .unwrap()
            .ends_with(&format!("get id={id} · search: recall]"))
    );
    // The human view of ingest is what the agent sees.
    let seen = stdout(&ghost(
        h,
        &["ingest", "--session", "s1", "--tool-use-id", "t1", &log],
        None,
    ));
    assert_eq!(
        seen.trim_end(),
        ingested["text"].as_str().unwrap().trim_end()
    );

    let hits: serde_json::Value = serde_json::from_str(&stdout(&ghost(
        h,
        &["recall", "BUILD", "FAILURE", "--json"],
        None,
    )))
    .unwrap();
    assert_eq!(hits["hits"][0]["id"], serde_json::json!(id));
    let table = stdout(&ghost(h, &["recall", "BUILD FAILURE"], None));
    assert!(
        table.starts_with(&format!("1. id={id} · log · Bash")),
        "{table}"
    );

    let original = std::fs::read_to_string(&log).unwrap();
    let got = stdout(&ghost(
        h,
        &["get", &id, "--start-line", "2", "--end-line", "3"],
        None,
    ));
    let lines: Vec<&str> = got.lines().skip(1).collect();
    let want: Vec<String> = original
        .lines()
        .skip(1)
        .take(2)
        .enumerate()
        .map(|(i, l)| format!("{:>4}\t{l}", i + 2))
        .collect();
    assert_eq!(lines, want);

    assert!(stdout(&ghost(h, &["pressure"], None)).contains("log "));
    assert!(stdout(&ghost(h, &["stats"], None)).contains("1 entries"));
    assert!(stdout(&ghost(h, &["forget", &id], None)).starts_with(&format!("Forgot id={id}")));
    assert!(stdout(&ghost(h, &["recall", "BUILD FAILURE"], None)).starts_with("No entry matches"));
    let gc: serde_json::Value =
        serde_json::from_str(&stdout(&ghost(h, &["gc", "--json"], None))).unwrap();
    assert_eq!(gc["purged"], serde_json::json!(1));

    // An unknown id is one line and exit 2.
    let out = ghost(h, &["get", "abcdef123456"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no entry with id 'abcdef123456'"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn a_bad_config_file_is_named_with_the_problem() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), "stor = \"/tmp/x\"\n").unwrap();
    let out = ghost(home.path(), &["stats"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("config.toml is not a valid ghost config"),
        "{err}"
    );
    assert!(err.contains("stor"), "{err}");
}

#[test]
fn a_reader_that_stops_early_is_no_error() {
    // `ghost compress --class prompt | head -1` (prompts pass through whole,
    // megabytes of them): the pipe closes under ghost.
    use std::io::BufRead;
    let home = tempfile::tempdir().unwrap();
    let text: String = (0..200_000)
        .map(|i| format!("line of output number {i}\n"))
        .collect();
    let mut child = common::spawn_ghost(
        home.path(),
        &["compress", "--class", "prompt"],
        text.as_bytes(),
    );
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether `needle` is anywhere in the bytes of the store's files.
fn in_store_files(home: &std::path::Path, needle: &str) -> bool {
    ["store.sqlite3", "store.sqlite3-wal"].iter().any(|f| {
        std::fs::read(home.join(f))
            .is_ok_and(|b| b.windows(needle.len()).any(|w| w == needle.as_bytes()))
    })
}

#[test]
fn forget_by_session_by_date_and_everything_leaves_no_byte_behind() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let lines = |word: &str| -> Vec<u8> {
        (0..300)
            .map(|i| format!("{word} step {i} done in 0.{i}s\n"))
            .collect::<String>()
            .into_bytes()
    };
    for (session, word) in [("first", "narwhal"), ("second", "pangolin")] {
        stdout(&ghost(
            h,
            &["ingest", "--session", session, "--class", "log", "-"],
            Some(&lines(word)),
        ));
    }
    assert!(in_store_files(h, "narwhal"));
    let out = stdout(&ghost(h, &["forget", "--session", "first"], None));
    assert!(
        out.starts_with("Forgot session first: 1 entries, 1 sessions"),
        "{out}"
    );
    assert!(
        !in_store_files(h, "narwhal"),
        "a forgotten session is still in the store"
    );
    assert!(stdout(&ghost(h, &["recall", "pangolin"], None)).starts_with("1. id="));

    // A date in the future takes everything before it; an age of a week, nothing new.
    let json: serde_json::Value = serde_json::from_str(&stdout(&ghost(
        h,
        &["forget", "--before", "1w", "--json"],
        None,
    )))
    .unwrap();
    assert_eq!(json["entries"], serde_json::json!(0));
    let out = stdout(&ghost(h, &["forget", "--before", "2999-01-01"], None));
    assert!(out.contains("1 entries"), "{out}");
    assert!(!in_store_files(h, "pangolin"));

    // --all empties the log too.
    stdout(&ghost(
        h,
        &["ingest", "--session", "third", "-"],
        Some(&lines("okapi")),
    ));
    std::fs::write(h.join("ghost.log"), "a line about okapi\n").unwrap();
    let out = stdout(&ghost(h, &["forget", "--all"], None));
    assert!(out.starts_with("Forgot everything: 1 entries"), "{out}");
    assert!(!in_store_files(h, "okapi"));
    assert_eq!(std::fs::read(h.join("ghost.log")).unwrap(), b"");

    // Bad input: one line saying what is accepted; nothing chosen, or two at once, refused.
    let out = ghost(h, &["forget", "--before", "last tuesday"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("an age (30d, 12h, 2w)"), "{err}");
    assert!(!ghost(h, &["forget"], None).status.success());
    assert!(
        !ghost(h, &["forget", "--all", "--session", "x"], None)
            .status
            .success()
    );
}
