//! `ghost task run` with a real task component (`tests/guests/guest-task-probe`):
//! each capability attempted without its grant is denied, with it allowed
//! and nothing more; an endless loop, a memory bomb and unbounded output
//! are stopped or cut with a clear message, and the next task runs fine.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Output;

use common::run_ghost;

fn probe() -> String {
    let path = ghost_tests::guest_path("guest-task-probe");
    assert!(path.exists(), "{} was not built", path.display());
    path.to_string_lossy().into_owned()
}

/// `ghost task run GRANTS… -- probe ACTION…`.
fn task(home: &Path, grants: &[&str], action: &[&str]) -> Output {
    let probe = probe();
    let mut args = vec!["task", "run"];
    args.extend_from_slice(grants);
    args.push("--");
    args.push(&probe);
    args.extend_from_slice(action);
    run_ghost(home, &args, b"")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// In `work`: `data/errors.log` holding `log`, and an empty `out/`; their
/// paths (data, out, the log).
fn workspace_with_log(
    work: &Path,
    log: &str,
) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let (data, out) = (work.join("data"), work.join("out"));
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    let file = data.join("errors.log");
    std::fs::write(&file, log).unwrap();
    (data, out, file)
}

/// The next task after a hostile one runs as if nothing happened.
fn next_task_is_fine(home: &Path) {
    let out = task(home, &[], &["spam", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 2);
}

#[test]
fn files_are_reachable_only_as_granted() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (data, out_dir, file) = workspace_with_log(work.path(), "E1 timeout\nE2 refused\n");
    let (data_s, file_s) = (data.to_str().unwrap(), file.to_str().unwrap());

    // Granted read: the task reads it.
    let out = task(home.path(), &["--allow-read", data_s], &["read", file_s]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "E1 timeout\nE2 refused\n");
    // No grant: not even the file's existence.
    let out = task(home.path(), &[], &["read", file_s]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("denied:"),
        "{}",
        text(&out.stderr)
    );
    // Outside the grant: denied.
    let out = task(
        home.path(),
        &["--allow-read", data_s],
        &["read", "/etc/passwd"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    // Writing into a read-only grant: denied, nothing written.
    let target = data.join("new.txt");
    let out = task(
        home.path(),
        &["--allow-read", data_s],
        &["write", target.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(!target.exists());
    // A read-write grant: written.
    let target = out_dir.join("new.txt");
    let out = task(
        home.path(),
        &["--allow-write", out_dir.to_str().unwrap()],
        &["write", target.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "written by a task\n"
    );
    // A grant that is not a directory is refused before anything runs.
    let out = task(
        home.path(),
        &["--allow-read", "/no/such/dir"],
        &["spam", "1"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--allow-read /no/such/dir"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn environment_variables_are_seen_only_by_name() {
    let home = tempfile::tempdir().unwrap();
    // The variable is in ghost's own environment; the task sees it only
    // when granted.
    let var = "GHOST_TASK_TEST_VAR";
    let probe = probe();
    let with_var = |grants: &[&str], name: &str| -> Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_ghost"))
            .args(["task", "run"])
            .args(grants)
            .args(["--", &probe, "env", name])
            .env("GHOST_HOME", home.path())
            .env(var, "visible-when-granted")
            .output()
            .unwrap()
    };
    let out = with_var(&[], var);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("denied:"));
    let out = with_var(&["--allow-env", var], var);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "visible-when-granted");
    let out = with_var(&["--allow-env", var], "HOME");
    assert_eq!(out.status.code(), Some(1), "HOME was not granted");
}

#[test]
fn connections_go_only_to_granted_addresses() {
    let home = tempfile::tempdir().unwrap();
    let server = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in server.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 5];
            let _ = stream.read_exact(&mut buf);
            let _ = stream.write_all(b"pong\n");
        }
    });
    // Granted: connected, and the reply comes back.
    let out = task(home.path(), &["--allow-net", &addr], &["connect", &addr]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "reply: pong");
    // Not granted (another port granted): denied and named.
    let other = TcpListener::bind("127.0.0.1:0").unwrap();
    let other_addr = other.local_addr().unwrap().to_string();
    let out = task(
        home.path(),
        &["--allow-net", &other_addr],
        &["connect", &addr],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("denied a connection to {addr}")),
        "{err}"
    );
    // No grant at all: denied too.
    let out = task(home.path(), &[], &["connect", &addr]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("denied a connection"));
    // The built-in runtimes reach the network only as granted, too.
    for (lang, script) in [
        ("--js", format!("print(tcpRequest('{addr}', 'ping\\n'))")),
        (
            "--py",
            format!("import ghost\nprint(ghost.tcp_request('{addr}', b'ping\\n').decode())"),
        ),
    ] {
        let granted = run_ghost(
            home.path(),
            &["task", "run", "--allow-net", &addr, lang, "-"],
            script.as_bytes(),
        );
        assert_eq!(granted.status.code(), Some(0), "{}", text(&granted.stderr));
        assert_eq!(text(&granted.stdout).trim(), "pong", "{lang}");
        let denied = run_ghost(
            home.path(),
            &["task", "run", "--allow-net", &other_addr, lang, "-"],
            script.as_bytes(),
        );
        assert_eq!(denied.status.code(), Some(1), "{lang}");
        assert!(
            text(&denied.stderr).contains(&format!("denied a connection to {addr}")),
            "{}",
            text(&denied.stderr)
        );
    }
    // A grant that is not host:port is refused.
    let out = task(home.path(), &["--allow-net", "localhost"], &["spam", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("give a host and a port"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn loops_memory_bombs_and_floods_are_stopped_and_the_next_task_runs() {
    let home = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let out = task(home.path(), &["--timeout", "300ms"], &["loop"]);
    assert_eq!(out.status.code(), Some(124));
    assert!(
        text(&out.stderr).contains("past its 300ms deadline"),
        "{}",
        text(&out.stderr)
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    next_task_is_fine(home.path());

    let out = task(home.path(), &["--memory", "64"], &["alloc"]);
    assert_eq!(out.status.code(), Some(137));
    assert!(
        text(&out.stderr).contains("64 MiB memory cap"),
        "{}",
        text(&out.stderr)
    );
    next_task_is_fine(home.path());

    let out = task(home.path(), &["--max-output", "4096"], &["spam", "100000"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout.len(), 4096);
    assert!(
        text(&out.stderr).contains("more bytes of stdout were cut"),
        "{}",
        text(&out.stderr)
    );
    next_task_is_fine(home.path());

    // Not a component: a clear error, exit 2.
    let junk = home.path().join("junk.wasm");
    std::fs::write(&junk, b"not wasm").unwrap();
    let out = run_ghost(
        home.path(),
        &["task", "run", "--", junk.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a WebAssembly component"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_javascript_snippet_reads_a_granted_file_and_nothing_else() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (data, _, log) =
        workspace_with_log(work.path(), "E1 timeout\nE2 refused\nE1 timeout again\n");
    let script = work.path().join("count.js");
    std::fs::write(
        &script,
        "const kinds = {};\n\
         for (const l of readFile(args[0]).split('\\n').filter(l => l)) {\n\
           const k = l.split(' ')[0]; kinds[k] = (kinds[k] || 0) + 1;\n\
         }\n\
         console.log(JSON.stringify(kinds));\n",
    )
    .unwrap();
    let (data_s, log_s, script_s) = (
        data.to_str().unwrap(),
        log.to_str().unwrap(),
        script.to_str().unwrap(),
    );
    let js = |grants: &[&str], arg: &str| {
        let mut args = vec!["task", "run"];
        args.extend_from_slice(grants);
        args.extend_from_slice(&["--js", script_s, "--", arg]);
        run_ghost(home.path(), &args, b"")
    };
    let out = js(&["--allow-read", data_s], log_s);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), r#"{"E1":2,"E2":1}"#);
    // Without the grant the same script fails with the reason.
    let out = js(&[], log_s);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("Uncaught Error") && err.contains("granted directory"),
        "{err}"
    );
    // Outside the grant, too.
    let out = js(&["--allow-read", data_s], "/etc/hostname");
    assert_eq!(out.status.code(), Some(1));
    // A script from stdin; an endless one is stopped at its deadline.
    let out = run_ghost(home.path(), &["task", "run", "--js", "-"], b"print(6 * 7)");
    assert_eq!(text(&out.stdout).trim(), "42", "{}", text(&out.stderr));
    let out = run_ghost(
        home.path(),
        &["task", "run", "--timeout", "500ms", "--js", "-"],
        b"while (true) {}",
    );
    assert_eq!(out.status.code(), Some(124), "{}", text(&out.stderr));
}

#[test]
fn a_python_snippet_reads_a_granted_file_and_nothing_else() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let (data, out_dir, log) =
        workspace_with_log(work.path(), "E1 timeout\nE2 refused\nE1 timeout again\n");
    let script = work.path().join("count.py");
    std::fs::write(
        &script,
        "import collections, json, os, sys\n\
         kinds = collections.Counter(l.split()[0] for l in open(args[0]) if l.strip())\n\
         print(json.dumps(dict(sorted(kinds.items()))))\n\
         if len(args) > 1:\n\
         \x20   open(os.path.join(args[1], 'kinds.txt'), 'w').write(str(len(kinds)))\n\
         print(os.environ.get('GHOST_TEST_SECRET', 'no variable'), file=sys.stderr)\n",
    )
    .unwrap();
    let (data_s, log_s, script_s, out_s) = (
        data.to_str().unwrap(),
        log.to_str().unwrap(),
        script.to_str().unwrap(),
        out_dir.to_str().unwrap(),
    );
    let py = |grants: &[&str], rest: &[&str]| {
        let mut args = vec!["task", "run"];
        args.extend_from_slice(grants);
        args.extend_from_slice(&["--py", script_s, "--"]);
        args.extend_from_slice(rest);
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ghost"));
        cmd.args(&args)
            .env("GHOST_HOME", home.path().join("ghost"))
            .env("GHOST_TEST_SECRET", "s3cr3t-value")
            .output()
            .unwrap()
    };
    let out = py(&["--allow-read", data_s], &[log_s]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), r#"{"E1": 2, "E2": 1}"#);
    // A variable not granted is not there; granted, it is.
    assert!(
        text(&out.stderr).contains("no variable"),
        "{}",
        text(&out.stderr)
    );
    let out = py(
        &["--allow-read", data_s, "--allow-env", "GHOST_TEST_SECRET"],
        &[log_s],
    );
    assert!(
        text(&out.stderr).contains("s3cr3t-value"),
        "{}",
        text(&out.stderr)
    );
    // Without the grant the same script fails with Python's own error.
    let out = py(&[], &[log_s]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("Traceback") && err.contains("Error"), "{err}");
    // Outside the grant, too; and no writing into a read-only grant.
    let out = py(&["--allow-read", data_s], &["/etc/hostname"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let out = py(&["--allow-read", data_s], &[log_s, data_s]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!data.join("kinds.txt").exists());
    // A writable grant takes the file.
    let out = py(
        &["--allow-read", data_s, "--allow-write", out_s],
        &[log_s, out_s],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(out_dir.join("kinds.txt")).unwrap(),
        "2"
    );
    // `-v` names the grants actually used, what a grant refused, and the
    // grants never used.
    let out = py(&["-v", "--allow-read", data_s], &[log_s, data_s]);
    let err = text(&out.stderr);
    let refused = format!(
        "could not open {}/kinds.txt to write: not-permitted",
        data.canonicalize().unwrap().display()
    );
    assert!(err.contains(&refused), "{err}");
    let out = py(
        &["-v", "--allow-read", data_s, "--allow-write", out_s],
        &[log_s],
    );
    let err = text(&out.stderr);
    assert!(err.contains(&format!("opened {log_s} to read")), "{err}");
    assert!(
        err.contains(&format!("unused grant: --allow-write {out_s}")),
        "{err}"
    );
    // A script from stdin; `sys.exit(3)` fails the task; an endless one is
    // stopped at its deadline.
    let out = run_ghost(home.path(), &["task", "run", "--py", "-"], b"print(6 * 7)");
    assert_eq!(text(&out.stdout).trim(), "42", "{}", text(&out.stderr));
    let out = run_ghost(
        home.path(),
        &["task", "run", "--py", "-"],
        b"import sys\nsys.exit(3)",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let out = run_ghost(
        home.path(),
        &["task", "run", "--timeout", "500ms", "--py", "-"],
        b"while True: pass",
    );
    assert_eq!(out.status.code(), Some(124), "{}", text(&out.stderr));
}
