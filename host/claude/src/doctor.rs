//! `ghost doctor`: checks an installation and says what is wrong and how to
//! fix it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::hooks::HookEvent;
use crate::install::{COMMAND_PREFIX, Targets, registrations};

/// One check's verdict.
#[derive(Debug, Clone)]
pub struct Check {
    /// What was checked.
    pub what: String,
    /// `None` when it is fine; else what is wrong and how to fix it.
    pub problem: Option<String>,
}

impl Check {
    fn ok(what: impl Into<String>) -> Self {
        Self {
            what: what.into(),
            problem: None,
        }
    }

    fn bad(what: impl Into<String>, problem: impl Into<String>) -> Self {
        Self {
            what: what.into(),
            problem: Some(problem.into()),
        }
    }
}

/// `name` on `PATH`, if it is there.
pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

fn json_file(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// Checks the binary, the store, the built-in components, the installed
/// plugins (`plugins`) and the Claude Code configuration in `targets`.
pub fn checks(
    targets: &Targets,
    store: &Path,
    plugins: Option<&ghost_registry::Registry>,
    pipeline: impl FnOnce() -> anyhow::Result<ghost_core::pipeline::Pipeline>,
) -> Vec<Check> {
    let mut out = Vec::new();
    out.push(match on_path("ghost") {
        Some(p) => Check::ok(format!("ghost is on PATH ({})", p.display())),
        None => Check::bad(
            "ghost is on PATH",
            "hooks run `ghost`: install it with `cargo install --path host/cli` (or put it on PATH)",
        ),
    });
    out.push(match ghost_store::Store::open(store) {
        Ok(s) => match s.stats() {
            Ok(st) => Check::ok(format!(
                "store {} opens (schema v{}, {} entries)",
                store.display(),
                st.schema_version,
                st.entries
            )),
            Err(e) => Check::bad(format!("store {}", store.display()), e.to_string()),
        },
        Err(e) => Check::bad(format!("store {}", store.display()), e.to_string()),
    });
    out.push(match pipeline() {
        Ok(p) => {
            let c = p.classify(&ghost_types::ClassifyRequest {
                text: "error: test failed".into(),
                tool_name: Some("Bash".into()),
                source_path: None,
                command: None,
            });
            match c.fallback_reason {
                None => Check::ok("built-in classifier and compressors load in the sandbox"),
                Some(r) => Check::bad("built-in components", r),
            }
        }
        Err(e) => Check::bad("built-in components", format!("{e:#}")),
    });
    let settings = json_file(&targets.settings);
    let plugin_hint = "run `ghost install` (or install the plugin: `/plugin marketplace add <ghost repo>`, then `/plugin install ghost@ghost`)";
    match &settings {
        None => out.push(Check::bad(
            format!("hooks in {}", targets.settings.display()),
            format!("no readable settings file; {plugin_hint}"),
        )),
        Some(s) => {
            for r in registrations() {
                let (event, command) = (r.event, r.command());
                let group = s["hooks"][event].as_array().and_then(|groups| {
                    groups.iter().find(|g| {
                        g["hooks"]
                            .as_array()
                            .is_some_and(|l| l.iter().any(|h| h["command"] == command.as_str()))
                    })
                });
                out.push(match group {
                    None => Check::bad(format!("{event} hook"), format!("missing; {plugin_hint}")),
                    Some(g) if g["matcher"].as_str() != r.matcher.as_deref() => Check::bad(
                        format!("{event} hook"),
                        format!(
                            "its matcher is {}, ghost's is {}: some results never reach ghost; \
                             run `ghost install` again",
                            g["matcher"],
                            r.matcher
                                .as_deref()
                                .map_or("(none)".into(), |m| format!("{m:?}"))
                        ),
                    ),
                    Some(_) => Check::ok(format!("{event} runs `{command}`")),
                });
            }
            let status = &s["statusLine"]["command"];
            out.push(
                if status
                    == &Value::from(format!("{COMMAND_PREFIX}{}", HookEvent::StatusLine.arg()))
                {
                    Check::ok("statusLine feeds ghost the context readings")
                } else {
                    Check::bad(
                        "statusLine",
                        "not ghost's: context pressure falls back to ghost's own estimate \
                     (set statusLine.command to `ghost hook status-line`)",
                    )
                },
            );
        }
    }
    if let Some(registry) = plugins {
        out.push(plugin_check(registry));
    }
    let mcp = json_file(&targets.mcp);
    out.push(match mcp.as_ref().map(|m| &m["mcpServers"]["ghost"]) {
        Some(s) if s["command"].as_str().is_some_and(|c| c.ends_with("ghost")) => {
            Check::ok(format!("MCP server ghost in {}", targets.mcp.display()))
        }
        _ => Check::bad(
            format!("MCP server in {}", targets.mcp.display()),
            format!("ghost is not there; {plugin_hint}"),
        ),
    });
    out
}

/// The installed plugins: every blob matches its digest, no plugin is
/// auto-disabled.
fn plugin_check(registry: &ghost_registry::Registry) -> Check {
    let what = format!("installed plugins ({})", registry.root().display());
    let problems = match registry.verify() {
        Ok(p) => p,
        Err(e) => return Check::bad(what, e.to_string()),
    };
    if let Some(p) = problems.first() {
        return Check::bad(
            what,
            format!(
                "{p} ({} problem(s); `ghost plugin verify` lists them, `ghost plugin remove ID` \
                 then add it again fixes one)",
                problems.len()
            ),
        );
    }
    let now = ghost_registry::now_secs();
    let plugins = registry.list().map(|(p, _)| p).unwrap_or_default();
    let disabled: Vec<&str> = plugins
        .iter()
        .filter(|p| {
            matches!(
                p.state.status(now),
                ghost_registry::Status::AutoDisabled { .. }
            )
        })
        .map(|p| p.manifest.id.as_str())
        .collect();
    if disabled.is_empty() {
        Check::ok(format!("{what}: {} verified", plugins.len()))
    } else {
        Check::bad(
            what,
            format!(
                "auto-disabled after repeated failures: {} (`ghost plugin list` says why)",
                disabled.join(", ")
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::{apply, plan_install};

    #[test]
    fn an_outdated_matcher_is_reported_with_its_fix() {
        let dir = tempfile::tempdir().unwrap();
        let targets = Targets::new(dir.path(), None);
        apply(&plan_install(&targets).unwrap()).unwrap();
        let store = dir.path().join("store.sqlite3");
        let no_pipeline = || anyhow::bail!("not needed here");
        let hooks_ok = |checks: &[Check]| {
            checks
                .iter()
                .filter(|c| c.what.starts_with("PostToolUse "))
                .all(|c| c.problem.is_none())
        };
        assert!(hooks_ok(&checks(&targets, &store, None, no_pipeline)));
        // An install from before TaskOutput was handled.
        let text = std::fs::read_to_string(&targets.settings).unwrap();
        let old = text.replace("|TaskOutput", "");
        assert_ne!(old, text);
        std::fs::write(&targets.settings, old).unwrap();
        let found = checks(&targets, &store, None, no_pipeline);
        let problem = found
            .iter()
            .find(|c| c.what == "PostToolUse hook")
            .and_then(|c| c.problem.clone())
            .expect("the old matcher is a problem");
        assert!(problem.contains("run `ghost install` again"), "{problem}");
    }
}
