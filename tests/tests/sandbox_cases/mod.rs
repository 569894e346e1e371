//! Hostile components against the real runtime: each is stopped within its
//! limit or refused with a clear message, the original text comes back, and
//! the next call on the same runtime still works. No call sees what an
//! earlier one left. Run twice: with an instance made for each call
//! (`sandbox.rs`, as a hook runs) and with instances from the pool
//! (`sandbox_pooled.rs`, as the gateway and MCP server run).

use std::time::Duration;

use ghost_core::builtin;
use ghost_runtime::{CompressOutcome, FailOpen, PluginKind, PluginRuntime, RuntimeConfig};
use ghost_tests::hostile_component;
use ghost_types::{CompressRequest, ContentClass};

/// A log worth compressing, for the call that must work after each failure.
fn sample_log() -> String {
    let mut log = String::new();
    for i in 0..400 {
        log.push_str(&format!(
            "[INFO] Downloading artifact {i} from https://repo.example/a/{i}.jar\n"
        ));
    }
    log.push_str("[ERROR] Tests run: 3, Failures: 1\n");
    log
}

/// A runtime on the engine the including test binary chose.
fn runtime() -> PluginRuntime {
    runtime_with(RuntimeConfig::default())
}

fn runtime_with(config: RuntimeConfig) -> PluginRuntime {
    crate::prepare_engine();
    PluginRuntime::new(config).expect("runtime")
}

/// Runs `guest` on a text, checks the original came back for `expected_reason`,
/// then checks the built-in log compressor still works on the same runtime.
fn contained(guest: &str, expected_reason: &str, max: Duration) -> Vec<String> {
    contained_in(runtime(), guest, expected_reason, max)
}

/// [`contained`] on the runtime `rt`.
fn contained_in(
    rt: PluginRuntime,
    guest: &str,
    expected_reason: &str,
    max: Duration,
) -> Vec<String> {
    let plugin = rt
        .load(guest, &hostile_component(guest))
        .expect("hostile guests load");
    let text = "some tool output that must survive\n".repeat(50);
    let outcome = rt.compress_or_original(
        &plugin,
        &CompressRequest::new(text.clone(), ContentClass::Log),
    );
    assert!(!outcome.applied, "{guest}: its output must not be used");
    assert_eq!(
        outcome.text, text,
        "{guest}: the original must come back unchanged"
    );
    let reason = outcome.fallback_reason.clone().unwrap_or_default();
    assert!(
        reason.contains(expected_reason),
        "{guest}: reason {reason:?} should mention {expected_reason:?}"
    );
    assert!(
        outcome.elapsed < max,
        "{guest}: ran {:?}, limit {max:?}",
        outcome.elapsed
    );

    // The same runtime serves the next call, and the same plugin fails again cleanly.
    let log = builtin::LOG_COMPRESSOR;
    let good = rt
        .load_kind(log.name, log.bytes, PluginKind::Compressor)
        .unwrap();
    let next = rt.compress_or_original(
        &good,
        &CompressRequest::new(sample_log(), ContentClass::Log),
    );
    assert!(
        next.applied,
        "{guest}: the next call must work: {:?}",
        next.fallback_reason
    );
    assert!(next.text.contains("[ERROR] Tests run: 3, Failures: 1"));
    let again = rt.compress_or_original(
        &plugin,
        &CompressRequest::new(text.clone(), ContentClass::Log),
    );
    assert_eq!(again.text, text);
    outcome.plugin_log
}

#[test]
fn infinite_loop_is_stopped_at_the_deadline() {
    // The default deadline; one epoch tick of slack plus scheduling on a
    // busy machine.
    let deadline = ghost_runtime::PluginLimits::default().deadline;
    contained(
        "guest-spin",
        &format!("deadline of {} ms exceeded", deadline.as_millis()),
        deadline + Duration::from_millis(1750),
    );
}

#[test]
fn memory_bomb_is_stopped_at_the_cap() {
    // A deadline far off, so that on a busy machine (where touching 128 MiB
    // may take longer than the default deadline) the cap is still what
    // stops it.
    let mut config = RuntimeConfig::default();
    config.limits.deadline = Duration::from_secs(10);
    contained_in(
        runtime_with(config),
        "guest-memory-bomb",
        "memory cap of 128 MiB exceeded",
        Duration::from_secs(10),
    );
}

#[test]
fn unbounded_recursion_is_stopped() {
    contained("guest-recursion", "stack overflow", Duration::from_secs(2));
}

#[test]
fn panic_is_caught() {
    let log = contained("guest-panic", "panic", Duration::from_secs(2));
    assert!(
        log.iter()
            .any(|l| l.starts_with("stderr:") && l.contains("guest-panic refuses")),
        "the guest's panic message is captured from stderr: {log:?}"
    );
}

#[test]
fn output_larger_than_input_is_refused() {
    contained(
        "guest-inflate",
        "output not clearly smaller than input",
        Duration::from_secs(2),
    );
}

#[test]
fn files_env_args_stdin_and_network_are_denied() {
    // SAFETY: set before any runtime exists in this test; no other test reads it.
    unsafe { std::env::set_var("GHOST_TEST_SECRET", "hunter2") };
    let log = contained("guest-escape", "sandbox held", Duration::from_secs(2));
    for what in [
        "file", "root-dir", "cwd-dir", "env", "env-all", "args", "stdin", "tcp", "udp", "dns",
    ] {
        assert!(
            log.iter()
                .any(|l| l.starts_with(&format!("info: denied {what}:"))),
            "no denial logged for {what}: {log:?}"
        );
    }
    assert!(
        log.iter()
            .any(|l| l == "stderr: escape guest: every attempt was denied"),
        "{log:?}"
    );
}

#[test]
fn component_for_another_wit_version_is_refused() {
    let rt = runtime();
    let err = rt
        .load(
            "guest-wrong-version",
            &hostile_component("guest-wrong-version"),
        )
        .err()
        .expect("refused");
    let msg = err.to_string();
    assert!(
        msg.contains("ghost:plugin@0.9.0"),
        "names the version it targets: {msg}"
    );
    assert!(
        msg.contains("ghost:plugin@0.1.0"),
        "names the version ghost speaks: {msg}"
    );
}

#[test]
fn bytes_that_are_not_a_component_are_refused() {
    let rt = runtime();
    let err = rt.load("junk", b"not wasm at all").err().expect("refused");
    assert!(
        err.to_string()
            .contains("not a valid WebAssembly component"),
        "{err}"
    );
}

#[test]
fn a_compressor_is_not_accepted_as_a_classifier() {
    let rt = runtime();
    let log = builtin::LOG_COMPRESSOR;
    let err = rt
        .load_kind(log.name, log.bytes, PluginKind::Classifier)
        .err()
        .expect("refused");
    assert!(
        err.to_string()
            .contains("is a compressor plugin, but a classifier was expected"),
        "{err}"
    );
}

/// What the guest that loops forever comes to on `text` under a 40 ms deadline.
fn spin_under_40_ms(text: String) -> CompressOutcome {
    let mut config = RuntimeConfig::default();
    config.limits.deadline = Duration::from_millis(40);
    let rt = runtime_with(config);
    let plugin = rt
        .load("guest-spin", &hostile_component("guest-spin"))
        .unwrap();
    rt.compress_or_original(&plugin, &CompressRequest::new(text, ContentClass::Log))
}

#[test]
fn deadline_is_configurable() {
    let outcome = spin_under_40_ms("x".repeat(100));
    assert_eq!(
        outcome.fallback_reason.as_deref(),
        Some("deadline of 40 ms exceeded")
    );
    assert!(
        outcome.elapsed < Duration::from_millis(1000),
        "{:?}",
        outcome.elapsed
    );
}

#[test]
fn a_larger_input_gets_the_deadline_per_mib() {
    // Three MiB: a loop is still stopped, after three times the deadline.
    let outcome = spin_under_40_ms("x".repeat(3 << 20));
    assert_eq!(
        outcome.fallback_reason.as_deref(),
        Some("deadline of 120 ms exceeded")
    );
    // Three times 40 ms, less one epoch tick (the first may come at once).
    assert!(
        outcome.elapsed >= Duration::from_millis(110),
        "{:?}",
        outcome.elapsed
    );
    assert_eq!(outcome.text.len(), 3 << 20);
}

#[test]
fn no_call_sees_what_an_earlier_call_left() {
    let rt = runtime();
    let plugin = rt
        .load("guest-stateful", &hostile_component("guest-stateful"))
        .unwrap();
    let text = "a line the guest remembers, if it can\n".repeat(20);
    for _ in 0..5 {
        let outcome = rt.compress_or_original(
            &plugin,
            &CompressRequest::new(text.clone(), ContentClass::Log),
        );
        assert!(outcome.applied, "{:?}", outcome.fallback_reason);
        assert_eq!(
            outcome.text, "[stateful] call 1; nothing left by an earlier call",
            "each call starts from the component's initial state"
        );
    }
    // After a trap too: the memory bomb's pages are not the next call's.
    let bomb = rt
        .load("guest-memory-bomb", &hostile_component("guest-memory-bomb"))
        .unwrap();
    let stopped = rt.compress_or_original(
        &bomb,
        &CompressRequest::new(text.clone(), ContentClass::Log),
    );
    assert!(!stopped.applied);
    let outcome = rt.compress_or_original(
        &plugin,
        &CompressRequest::new(text.clone(), ContentClass::Log),
    );
    assert_eq!(
        outcome.text,
        "[stateful] call 1; nothing left by an earlier call"
    );
}

#[test]
fn the_same_request_gives_the_same_answer_on_every_call() {
    let rt = runtime();
    let log = builtin::LOG_COMPRESSOR;
    let plugin = rt
        .load_kind(log.name, log.bytes, PluginKind::Compressor)
        .unwrap();
    let first = rt.compress_or_original(
        &plugin,
        &CompressRequest::new(sample_log(), ContentClass::Log),
    );
    assert!(first.applied, "{:?}", first.fallback_reason);
    for i in 0..20 {
        // Other inputs in between dirty other pages of the reused memory.
        let other = format!("{}\nline {i}\n", "x".repeat(10_000 * (i % 3 + 1)));
        rt.compress_or_original(&plugin, &CompressRequest::new(other, ContentClass::Log));
        let again = rt.compress_or_original(
            &plugin,
            &CompressRequest::new(sample_log(), ContentClass::Log),
        );
        assert_eq!(again.text, first.text, "call {i} differs from the first");
    }
}
