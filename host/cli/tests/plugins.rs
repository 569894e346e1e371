//! `ghost plugin …` on a real data directory with real components: the
//! third-party test guests of `tests/guests/` (built by the `ghost-tests`
//! crate), each added, routed, disabled, tampered with or refused as a user
//! would see it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{run_ghost, spawn_ghost};
use serde_json::{Value, json};

/// What a call stopped at the default deadline reports.
fn deadline_exceeded() -> String {
    let deadline = ghost_runtime::PluginLimits::default().deadline;
    format!("deadline of {} ms exceeded", deadline.as_millis())
}

fn guest(name: &str) -> PathBuf {
    let path = ghost_tests::guest_path(name);
    assert!(path.exists(), "{} was not built", path.display());
    path
}

fn ghost(home: &Path, args: &[&str]) -> Output {
    run_ghost(home, args, b"")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "stdout: {}\nstderr: {}",
        stdout(&out),
        stderr(&out)
    );
    stdout(&out)
}

fn add(home: &Path, path: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["plugin", "add", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    ghost(home, &args)
}

fn list(home: &Path) -> Value {
    serde_json::from_str(&ok(ghost(home, &["plugin", "list", "--json"]))).unwrap()
}

fn plugin<'a>(listing: &'a Value, id: &str) -> &'a Value {
    listing["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("{id} not listed: {listing}"))
}

/// `ghost compress --class CLASS --stats` on `text`: (output, the compressor that ran).
fn compress(home: &Path, class: &str, text: &str) -> (String, String) {
    let out = run_ghost(
        home,
        &["compress", "--class", class, "--stats"],
        text.as_bytes(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let compressor = err
        .split("compressor ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no stats line: {err}"))
        .to_string();
    (stdout(&out), compressor)
}

/// What the model sees of a Bash call that printed `output`, through
/// `ghost hook post-tool-use`.
fn bash_through_hook(home: &Path, command: &str, output: &str) -> String {
    let payload = json!({"session_id": "s1", "hook_event_name": "PostToolUse",
        "tool_name": "Bash", "tool_use_id": format!("toolu_{command}"),
        "tool_input": {"command": command},
        "tool_response": {"stdout": output, "stderr": "", "interrupted": false,
            "isImage": false, "noOutputExpected": false}});
    let hook = ok(run_ghost(
        home,
        &["hook", "post-tool-use"],
        payload.to_string().as_bytes(),
    ));
    let answer: Value = serde_json::from_str(&hook).unwrap();
    answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
        .as_str()
        .expect("a replacement")
        .to_string()
}

/// A log with long lines, which every compressor shrinks.
fn long_log() -> String {
    (0..200)
        .map(|i| {
            format!(
                "step {i:03}: {} done\n",
                "compiling the dependency graph ".repeat(4)
            )
        })
        .collect()
}

#[test]
fn a_plugin_is_added_serves_its_class_and_is_disabled_enabled_and_removed() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let path = guest("guest-short-lines");

    let out = ok(add(home, &path, &["--class", "log", "--priority", "5"]));
    assert!(
        out.contains("added guest-short-lines 0.0.0 (compressor for log"),
        "{out}"
    );
    assert!(out.contains("smoke-tested"), "{out}");
    // The same bytes again: nothing to do.
    let again = ok(add(home, &path, &["--class", "log"]));
    assert!(
        again.contains("already installed with these bytes"),
        "{again}"
    );

    let listing = list(home);
    let p = plugin(&listing, "guest-short-lines");
    assert_eq!(p["status"], "enabled");
    assert_eq!(p["serves"], json!(["log"]));
    assert_eq!(p["world"], "compressor");
    assert_eq!(p["wit"], "0.2.0");
    let table = ok(ghost(home, &["plugin", "list"]));
    assert!(
        table.contains("guest-short-lines") && table.contains(" log "),
        "{table}"
    );

    // It serves log, in `ghost compress` and in a hook.
    let (text, by) = compress(home, "log", &long_log());
    assert_eq!(by, "plugin:guest-short-lines");
    assert!(text.starts_with("[short-lines]"), "{text}");
    let (_, by) = compress(home, "prose", &"A sentence of prose. ".repeat(200));
    assert_eq!(by, "builtin:prose", "only its class");
    let shown = bash_through_hook(home, "make", &long_log());
    assert!(shown.starts_with("[short-lines]"), "{shown}");

    // Disabled: the built-in serves again; enabled: the plugin again.
    ok(ghost(home, &["plugin", "disable", "guest-short-lines"]));
    assert_eq!(
        plugin(&list(home), "guest-short-lines")["status"],
        "disabled"
    );
    assert_eq!(compress(home, "log", &long_log()).1, "builtin:log");
    ok(ghost(home, &["plugin", "enable", "guest-short-lines"]));
    assert_eq!(
        compress(home, "log", &long_log()).1,
        "plugin:guest-short-lines"
    );

    let verified = ok(ghost(home, &["plugin", "verify"]));
    assert!(verified.contains("1 plugins verified"), "{verified}");

    // Removed: the built-in serves; the blob stays until gc.
    ok(ghost(home, &["plugin", "remove", "guest-short-lines"]));
    assert_eq!(compress(home, "log", &long_log()).1, "builtin:log");
    assert!(list(home)["plugins"].as_array().unwrap().is_empty());
    let gc = ok(ghost(home, &["plugin", "gc"]));
    assert!(gc.contains("1 unused blobs deleted"), "{gc}");
    let gone = ghost(home, &["plugin", "remove", "guest-short-lines"]);
    assert_eq!(gone.status.code(), Some(2));
    assert!(stderr(&gone).contains("no plugin `guest-short-lines` is installed"));
}

#[test]
fn new_bytes_under_an_installed_id_upgrade_it_and_the_old_blob_stays_until_gc() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let v1 = guest("guest-short-lines");
    ok(add(
        home,
        &v1,
        &[
            "--id",
            "short",
            "--class",
            "log",
            "--plugin-version",
            "1.0.0",
        ],
    ));
    // The same component with a custom section appended: other bytes.
    let mut bytes = std::fs::read(&v1).unwrap();
    bytes.extend_from_slice(&[0x00, 0x04, 0x03, b'v', b'e', b'r']);
    let v2 = home.join("short-v2.wasm");
    std::fs::write(&v2, &bytes).unwrap();
    let out = ok(add(
        home,
        &v2,
        &[
            "--id",
            "short",
            "--class",
            "log",
            "--plugin-version",
            "2.0.0",
        ],
    ));
    assert!(out.contains("upgraded short 1.0.0 → 2.0.0"), "{out}");
    assert_eq!(plugin(&list(home), "short")["version"], "2.0.0");
    let blobs = std::fs::read_dir(home.join("plugins/store"))
        .unwrap()
        .count();
    assert_eq!(blobs, 2, "the old blob is kept");
    let lock = std::fs::read_to_string(home.join("plugins/ghost-plugins.lock")).unwrap();
    assert!(
        lock.contains("version = \"2.0.0\"") && !lock.contains("1.0.0"),
        "{lock}"
    );
    // Compiled entries: v1's (compiled when it was added), one of another
    // engine and an interrupted write go; v2's, the built-ins', a task
    // runtime's, a write in progress and a file ghost did not name stay.
    let cache = home.join("cache/components");
    let entries = |dir: &Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let v1_hex = ghost_runtime::cache::digest_hex(&std::fs::read(&v1).unwrap());
    let v2_hex = ghost_runtime::cache::digest_hex(&bytes);
    assert!(
        entries(&cache)
            .iter()
            .any(|n| n.ends_with(&format!("{v1_hex}.cwasm")))
    );
    std::fs::write(
        cache.join(format!("0123456789abcdef-{v2_hex}.cwasm")),
        b"old engine",
    )
    .unwrap();
    std::fs::write(cache.join(".in-progress.cwasm.42.tmp"), b"partial").unwrap();
    std::fs::write(cache.join("notes.txt"), b"mine").unwrap();
    // A write interrupted two hours ago.
    let interrupted = cache.join(".interrupted.cwasm.7.tmp");
    std::fs::write(&interrupted, b"partial").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&interrupted)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(7200))
        .unwrap();
    // A task's runtime is compiled into the same cache, and kept: the
    // Python one takes seconds to compile again.
    let script = home.join("two.js");
    std::fs::write(&script, "console.log(1 + 1)").unwrap();
    assert_eq!(
        ok(ghost(
            home,
            &["task", "run", "--js", script.to_str().unwrap()]
        ))
        .trim(),
        "2"
    );
    let js_hex = ghost_runtime::cache::digest_hex(ghost_task::JS_RUNTIME);
    let before = entries(&cache);
    assert!(
        before
            .iter()
            .any(|n| n.ends_with(&format!("{js_hex}.cwasm"))),
        "{before:?}"
    );
    let gc = ok(ghost(home, &["plugin", "gc"]));
    assert!(gc.contains("1 unused blobs deleted"), "{gc}");
    assert!(
        gc.contains("3 compiled components no longer needed deleted"),
        "{gc}"
    );
    let after = entries(&cache);
    let gone: Vec<&String> = before.iter().filter(|n| !after.contains(n)).collect();
    assert_eq!(gone.len(), 3, "{gone:?}");
    assert!(
        gone.contains(&&".interrupted.cwasm.7.tmp".to_string()),
        "{gone:?}"
    );
    assert!(
        gone.iter().any(|n| n.ends_with(&format!("{v1_hex}.cwasm"))),
        "{gone:?}"
    );
    assert!(
        gone.iter().any(|n| n.starts_with("0123456789abcdef-")),
        "{gone:?}"
    );
    assert!(
        after
            .iter()
            .any(|n| n.ends_with(&format!("{v2_hex}.cwasm"))),
        "{after:?}"
    );
    assert!(after.contains(&"notes.txt".to_string()));
    assert!(
        after
            .iter()
            .any(|n| n.ends_with(&format!("{js_hex}.cwasm"))),
        "{after:?}"
    );
    assert!(after.contains(&".in-progress.cwasm.42.tmp".to_string()));
    assert_eq!(compress(home, "log", &long_log()).1, "plugin:short");
    // Nothing left to delete, and nothing was compiled again for it.
    let again = ok(ghost(home, &["plugin", "gc"]));
    assert!(
        again.contains("0 compiled components no longer needed deleted"),
        "{again}"
    );
    assert_eq!(entries(&cache), after);
}

#[test]
fn a_tampered_blob_is_reported_by_verify_and_refused_at_load() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    ok(add(home, &guest("guest-short-lines"), &["--class", "log"]));
    let listing = list(home);
    let digest = plugin(&listing, "guest-short-lines")["digest"]
        .as_str()
        .unwrap()
        .to_string();
    // Swap in other (valid, working) component bytes: only the digest tells.
    let blob = home.join(format!("plugins/store/{digest}.wasm"));
    let mut perms = std::fs::metadata(&blob).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&blob, perms).unwrap();
    std::fs::copy(guest("guest-moody"), &blob).unwrap();

    let verify = ghost(home, &["plugin", "verify"]);
    assert_eq!(verify.status.code(), Some(1));
    let report = stdout(&verify);
    assert!(
        report.contains("TAMPERED OR BROKEN: guest-short-lines"),
        "{report}"
    );
    assert!(report.contains("changed after it was added"), "{report}");
    let doctor = stdout(&ghost(home, &["doctor"]));
    assert!(doctor.contains("FAIL  installed plugins"), "{doctor}");
    // Not loaded: the built-in serves, and the log says why.
    let (text, by) = compress(home, "log", &long_log());
    assert_eq!(by, "builtin:log");
    assert!(!text.contains("[moody]"));
    let log = std::fs::read_to_string(home.join("ghost.log")).unwrap();
    assert!(log.contains("plugin guest-short-lines not loaded"), "{log}");
    // The listing says so, and it serves nothing.
    let listing = list(home);
    let p = plugin(&listing, "guest-short-lines");
    assert!(p["status"].as_str().unwrap().starts_with("TAMPERED"), "{p}");
    assert_eq!(p["serves"], json!([]));
    // Adding the same file again repairs the blob.
    let again = ok(add(home, &guest("guest-short-lines"), &["--class", "log"]));
    assert!(again.contains("repaired"), "{again}");
    assert!(ghost(home, &["plugin", "verify"]).status.success());
    assert_eq!(
        plugin(&list(home), "guest-short-lines")["status"],
        json!("enabled")
    );
}

#[test]
fn hostile_components_are_refused_at_add_and_nothing_is_installed() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let refused = |name: &str, needles: &[&str]| {
        let out = add(home, &guest(name), &["--class", "log"]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains("the plugin was not added"), "{name}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{name}: {needle:?} not in {err}");
        }
    };
    refused("guest-escape", &["wasi:sockets"]);
    refused(
        "guest-wrong-version",
        &["ghost:plugin@0.9.0", "ghost:plugin@0.1.0"],
    );
    refused("guest-spin", &["smoke call", &deadline_exceeded()]);
    // Usually the memory cap; on a loaded machine the deadline may come first.
    refused("guest-memory-bomb", &["smoke call"]);
    let bomb = stderr(&add(home, &guest("guest-memory-bomb"), &["--class", "log"]));
    assert!(
        bomb.contains("memory cap of 128 MiB exceeded") || bomb.contains(&deadline_exceeded()),
        "{bomb}"
    );
    let not_wasm = home.join("notes.wasm");
    std::fs::write(&not_wasm, b"definitely not a component").unwrap();
    let out = add(home, &not_wasm, &["--class", "log"]);
    assert!(
        stderr(&out).contains("not a valid WebAssembly component"),
        "{}",
        stderr(&out)
    );
    let out = add(home, &guest("guest-short-lines"), &[]);
    assert!(stderr(&out).contains("--class"), "{}", stderr(&out));
    assert!(list(home)["plugins"].as_array().unwrap().is_empty());
    let store = home.join("plugins/store");
    assert!(!store.exists() || std::fs::read_dir(&store).unwrap().count() == 0);
}

#[test]
fn a_plugin_that_keeps_failing_is_disabled_with_a_backoff_and_the_text_passes_on() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    ok(add(home, &guest("guest-moody"), &["--class", "log"]));
    let (text, by) = compress(home, "log", &long_log());
    assert_eq!(by, "plugin:guest-moody");
    assert!(text.starts_with("[moody]"));
    let spin = format!("SPIN\n{}", long_log());
    for round in 0..3 {
        // Stopped at its deadline; the built-in compresses instead.
        let (text, by) = compress(home, "log", &spin);
        assert_eq!(by, "builtin:log");
        assert!(text.contains("SPIN"));
        if round == 0 {
            let listing = list(home);
            let status = plugin(&listing, "guest-moody")["status"]
                .as_str()
                .unwrap()
                .to_string();
            assert!(status.starts_with("enabled, failing (1 of 3"), "{status}");
        }
    }
    let listing = list(home);
    let status = plugin(&listing, "guest-moody")["status"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(status.starts_with("auto-disabled for"), "{status}");
    assert!(status.contains(&deadline_exceeded()), "{status}");
    assert_eq!(plugin(&listing, "guest-moody")["serves"], json!([]));
    // While disabled, even its good inputs go to the built-in.
    assert_eq!(compress(home, "log", &long_log()).1, "builtin:log");
    // Its user can give it another chance at once.
    ok(ghost(home, &["plugin", "enable", "guest-moody"]));
    assert_eq!(compress(home, "log", &long_log()).1, "plugin:guest-moody");
}

#[test]
fn a_third_party_classifier_replaces_the_built_in_one() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    let log = long_log();
    let classify = |home: &Path| ok(run_ghost(home, &["classify"], log.as_bytes()));
    assert!(classify(home).starts_with("log"), "{}", classify(home));
    let out = ok(add(home, &guest("guest-classify-all"), &[]));
    assert!(out.contains("(classifier, ghost:plugin@0.2.0"), "{out}");
    assert_eq!(
        plugin(&list(home), "guest-classify-all")["serves"],
        json!(["classifier"])
    );
    assert!(classify(home).starts_with("prose"), "{}", classify(home));
    // It targets 0.2.0, so it is told the command that printed the text.
    let with_command = ok(run_ghost(
        home,
        &["classify", "--command", "make check"],
        log.as_bytes(),
    ));
    assert!(with_command.starts_with("code"), "{with_command}");
    ok(ghost(home, &["plugin", "disable", "guest-classify-all"]));
    assert!(classify(home).starts_with("log"));
    // A classifier claims no classes.
    let out = add(
        home,
        &guest("guest-classify-all"),
        &["--id", "other", "--class", "log"],
    );
    assert!(
        stderr(&out).contains("claims no classes"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn two_processes_adding_at_once_leave_a_consistent_registry() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().to_path_buf();
    let jobs: Vec<_> = [
        ("a", "guest-short-lines"),
        ("b", "guest-moody"),
        ("c", "guest-short-lines"),
    ]
    .into_iter()
    .map(|(id, name)| {
        let home = home.clone();
        let path = guest(name);
        std::thread::spawn(move || add(&home, &path, &["--id", id, "--class", "log"]))
    })
    .collect();
    for job in jobs {
        ok(job.join().unwrap());
    }
    let listing = list(&home);
    let ids: Vec<&str> = listing["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "b", "c"]);
    let verified = ok(ghost(&home, &["plugin", "verify"]));
    assert!(verified.contains("3 plugins verified"), "{verified}");
    let lock = std::fs::read_to_string(home.join("plugins/ghost-plugins.lock")).unwrap();
    assert_eq!(lock.matches("[[plugin]]").count(), 3, "{lock}");
}

#[test]
fn a_scaffolded_plugin_builds_with_one_command_and_is_added() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    ok(ghost(
        home,
        &[
            "plugin",
            "new",
            "fold-repeats",
            "--dir",
            home.to_str().unwrap(),
        ],
    ));
    let project = home.join("fold-repeats");
    // Built into the workspace's target folder, so repeated runs are quick.
    let target = common::workspace().join("target/scaffolded-plugin");
    let build = std::process::Command::new(std::env::var("CARGO").unwrap_or("cargo".into()))
        .args(["build", "--release"])
        .current_dir(&project)
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    // The project points at its own target folder: use the one built here.
    let manifest = std::fs::read_to_string(project.join("ghost-plugin.toml")).unwrap();
    let built = target.join("wasm32-wasip2/release/fold_repeats.wasm");
    let manifest = manifest.replace(
        "target/wasm32-wasip2/release/fold_repeats.wasm",
        built.to_str().unwrap(),
    );
    std::fs::write(project.join("ghost-plugin.toml"), manifest).unwrap();
    let out = ok(ghost(home, &["plugin", "add", project.to_str().unwrap()]));
    assert!(
        out.contains("added fold-repeats 0.1.0 (compressor for log"),
        "{out}"
    );
    let repeats: String = (0..100)
        .map(|i| format!("retrying connection… {}\n", i / 50))
        .collect();
    let (text, by) = compress(home, "log", &repeats);
    assert_eq!(by, "plugin:fold-repeats");
    assert_eq!(
        text,
        "retrying connection… 0 [×50]\nretrying connection… 1 [×50]\n"
    );
}

/// `plugins/examples/json-compact-js`, with its npm dependencies installed
/// (by `.ci/run`, else here); `None` when npm cannot install them.
fn js_example() -> Option<PathBuf> {
    let dir = common::workspace().join("plugins/examples/json-compact-js");
    let tool = dir.join("node_modules/@bytecodealliance/componentize-js");
    if !tool.is_dir() {
        // `npm ci` first; npm 11 refuses this lock file (optional platform
        // packages never published), so then the same locked versions
        // without rewriting the lock.
        for args in [
            ["ci", "--no-audit", "--no-fund"].as_slice(),
            ["install", "--no-save", "--no-audit", "--no-fund"].as_slice(),
        ] {
            let _ = std::process::Command::new("npm")
                .args(args)
                .current_dir(&dir)
                .output();
            if tool.is_dir() {
                break;
            }
        }
    }
    tool.is_dir().then_some(dir)
}

#[test]
fn a_plugin_written_in_javascript_is_added_and_serves_its_class() {
    let Some(project) = js_example() else {
        eprintln!(
            "SKIPPED: npm could not install @bytecodealliance/componentize-js (no registry?); \
             the JavaScript plugin was not built"
        );
        return;
    };
    let build = std::process::Command::new("node")
        .arg("build.mjs")
        .current_dir(&project)
        .output()
        .expect("node runs");
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );

    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    // Killed half-way (compiling a 12 MB component takes seconds): the
    // registry is as it was, empty and sound.
    let mut child = spawn_ghost(home, &["plugin", "add", project.to_str().unwrap()], b"");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(list(home)["plugins"].as_array().unwrap().is_empty());
    assert!(!home.join("plugins/installed/json-compact-js").exists());
    assert!(ok(ghost(home, &["plugin", "verify"])).contains("0 plugins verified"));

    let out = ok(ghost(home, &["plugin", "add", project.to_str().unwrap()]));
    assert!(
        out.contains("added json-compact-js 0.1.0 (compressor for structured, ghost:plugin@0.1.0"),
        "{out}"
    );
    let json: String = serde_json::to_string(&json!({
        "items": (0..100).map(|i| json!({"id": i, "name": format!("item {i}")})).collect::<Vec<_>>(),
        "total": 100,
    }))
    .unwrap();
    let (text, by) = compress(home, "structured", &json);
    assert_eq!(by, "plugin:json-compact-js");
    assert!(text.contains("\"… 97 more items\""), "{text}");
    // What is not JSON it declines: the built-in serves.
    let toml: String = (0..60)
        .map(|i| format!("key_{i} = \"value {i}\"\n"))
        .collect();
    assert_eq!(compress(home, "structured", &toml).1, "builtin:structured");
    // In a hook: a command that printed JSON.
    let shown = bash_through_hook(home, "cat items.json", &json);
    assert!(shown.contains("\"… 97 more items\""), "{shown}");
}

#[test]
fn a_running_pipeline_picks_up_registry_changes_without_a_restart() {
    use ghost_core::paths::GhostDirs;
    use ghost_core::plugins::add::{AddContext, AddRequest};
    use ghost_types::{CompressRequest, ContentClass};

    let home = tempfile::tempdir().unwrap();
    let dirs = GhostDirs {
        data: home.path().to_path_buf(),
        cache: home.path().join("cache"),
        config: home.path().to_path_buf(),
    };
    // One long-lived pipeline, as in `ghost serve` or a benchmark run.
    let pipeline = ghost_core::pipeline::Pipeline::with_dirs(Some(&dirs)).unwrap();
    let request = CompressRequest {
        text: long_log(),
        class: ContentClass::Log,
        tool_name: None,
        source_path: None,
        target_tokens: None,
    };
    let by = |p: &ghost_core::pipeline::Pipeline| p.compress(&request).compressor.unwrap();
    assert_eq!(by(&pipeline), "builtin:log");
    let registry = ghost_core::plugins::registry(&dirs);
    let ctx = AddContext {
        cache_dir: Some(dirs.component_cache()),
        limits: Default::default(),
    };
    let add = AddRequest {
        path: guest("guest-short-lines"),
        classes: vec![ContentClass::Log],
        ..Default::default()
    };
    ghost_core::plugins::add::add(&registry, &ctx, &add).unwrap();
    assert_eq!(by(&pipeline), "plugin:guest-short-lines");
    registry.set_enabled("guest-short-lines", false).unwrap();
    assert_eq!(by(&pipeline), "builtin:log");
}

#[test]
fn three_looping_plugins_cannot_hold_a_hook_past_its_budget() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    for id in ["moody-a", "moody-b", "moody-c"] {
        ok(add(
            home,
            &guest("guest-moody"),
            &["--class", "log", "--id", id],
        ));
    }
    let spin = format!("SPIN\n{}", long_log());
    let payload = json!({"session_id": "s1", "hook_event_name": "PostToolUse",
        "tool_name": "Bash", "tool_use_id": "toolu_spin",
        "tool_input": {"command": "make"},
        "tool_response": {"stdout": spin, "stderr": "", "interrupted": false,
            "isImage": false, "noOutputExpected": false}});
    // The user allows each call 2 s: three loops would take 6 s; the hook's
    // budget (1.5 s) ends them all, and the original goes through. The
    // built-ins are compiled first: compiling is not what is measured.
    ok(ghost(home, &["plugin", "compile", "--quiet"]));
    let started = std::time::Instant::now();
    let out = run_ghost(
        home,
        &["--plugin-deadline-ms", "2000", "hook", "post-tool-use"],
        payload.to_string().as_bytes(),
    );
    let took = started.elapsed();
    assert!(out.status.success());
    assert!(took < std::time::Duration::from_millis(6_000), "{took:?}");
    assert!(!stdout(&out).contains("[moody]"), "{}", stdout(&out));
    let log = std::fs::read_to_string(home.join("ghost.log")).unwrap();
    assert!(log.contains("overall time budget"), "{log}");
    // Cut by the budget, not by their own deadline: not counted against them.
    let listing = list(home);
    for id in ["moody-a", "moody-b", "moody-c"] {
        let status = plugin(&listing, id)["status"].as_str().unwrap().to_string();
        assert_eq!(status, "enabled", "{id}");
    }
}
