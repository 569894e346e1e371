//! `ghost install` / `ghost uninstall`: ghost's hooks, statusLine and MCP
//! server in Claude Code's settings, for people who do not use plugins.
//!
//! Settings are merged, never replaced: other hooks, other MCP servers and
//! every other key stay as they were; running install twice changes nothing
//! the second time. Each file is backed up before it is written
//! (`<file>.ghost-backup`), and `--dry-run` prints the diff instead.
//!
//! Where things go (Claude Code's own layout):
//! - hooks and statusLine: `~/.claude/settings.json`, or with `--project`
//!   `<project>/.claude/settings.json`;
//! - the MCP server: `~/.claude.json` (`mcpServers`), or with `--project`
//!   `<project>/.mcp.json`.
//!
//! The hooks come from one table ([`registrations`], whose PostToolUse
//! matcher is [`crate::tools::post_tool_use_matcher`]); the Claude Code
//! plugin's `hooks/hooks.json` and `.mcp.json` are generated from the same
//! table ([`plugin_files`]), and a test fails when the checked-in files
//! differ.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

use crate::hooks::HookEvent;
use crate::policy::{QUICK_HOOK_TIMEOUT_SECS, SLOW_HOOK_TIMEOUT_SECS};
use crate::tools;

/// The prefix of every command ghost installs: how its entries are found.
pub const COMMAND_PREFIX: &str = "ghost hook ";

/// One hook ghost installs in Claude Code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// Claude Code's event name (`PostToolUse`).
    pub event: &'static str,
    /// The matcher (a tool-name pattern, or the session start's sources);
    /// `None` for events that take none.
    pub matcher: Option<String>,
    /// What `ghost hook` handles it as.
    pub handler: HookEvent,
    /// Seconds Claude Code waits for it.
    pub timeout_secs: u64,
}

impl Registration {
    /// The command Claude Code runs: `ghost hook post-tool-use`.
    pub fn command(&self) -> String {
        format!("{COMMAND_PREFIX}{}", self.handler.arg())
    }
}

/// Every hook ghost installs, in the order it writes them.
pub fn registrations() -> Vec<Registration> {
    let hook = |event, matcher: Option<&str>, handler, timeout_secs| Registration {
        event,
        matcher: matcher.map(str::to_string),
        handler,
        timeout_secs,
    };
    vec![
        // Before any tool: the memory flush nudge when the context is full.
        hook(
            "PreToolUse",
            None,
            HookEvent::PreToolUse,
            QUICK_HOOK_TIMEOUT_SECS,
        ),
        Registration {
            matcher: Some(tools::post_tool_use_matcher()),
            ..hook(
                "PostToolUse",
                None,
                HookEvent::PostToolUse,
                SLOW_HOOK_TIMEOUT_SECS,
            )
        },
        // A failed call of any tool: its error is worth keeping.
        hook(
            "PostToolUseFailure",
            Some("*"),
            HookEvent::PostToolUseFailure,
            QUICK_HOOK_TIMEOUT_SECS,
        ),
        hook(
            "UserPromptSubmit",
            None,
            HookEvent::UserPromptSubmit,
            QUICK_HOOK_TIMEOUT_SECS,
        ),
        hook(
            "PreCompact",
            None,
            HookEvent::PreCompact,
            SLOW_HOOK_TIMEOUT_SECS,
        ),
        hook(
            "PostCompact",
            None,
            HookEvent::PostCompact,
            QUICK_HOOK_TIMEOUT_SECS,
        ),
        // After compaction, on resume, and at a fresh start in a project
        // worked on within a day: the checkpoint and memories come back.
        hook(
            "SessionStart",
            Some("startup|resume|compact"),
            HookEvent::SessionStart,
            QUICK_HOOK_TIMEOUT_SECS,
        ),
        // A session's turns become searchable with memory_search.
        hook(
            "SessionEnd",
            None,
            HookEvent::SessionEnd,
            QUICK_HOOK_TIMEOUT_SECS,
        ),
    ]
}

/// The `hooks` object of Claude Code's settings for [`registrations`]:
/// `{"PostToolUse": [{"matcher": …, "hooks": [{"type": "command", …}]}], …}`.
pub fn hooks_value() -> Map<String, Value> {
    let mut hooks = Map::new();
    for r in registrations() {
        let mut group = Map::new();
        if let Some(m) = &r.matcher {
            group.insert("matcher".into(), json!(m));
        }
        group.insert(
            "hooks".into(),
            json!([{"type": "command", "command": r.command(), "timeout": r.timeout_secs}]),
        );
        let group = Value::Object(group);
        match hooks
            .entry(r.event.to_string())
            .or_insert_with(|| json!([]))
        {
            Value::Array(groups) => groups.push(group),
            _ => unreachable!("built as a list above"),
        }
    }
    hooks
}

/// ghost's MCP server entry (`mcpServers.ghost`).
pub fn mcp_server() -> Value {
    json!({"command": "ghost", "args": ["serve"]})
}

/// The Claude Code plugin's generated files, relative to `claude-plugin/`,
/// with their text: `hooks/hooks.json` and `.mcp.json`.
pub fn plugin_files() -> Vec<(&'static str, String)> {
    let hooks = json!({
        "description": "ghost: compress large tool results, keep the originals, feed compaction with what ghost holds.",
        "hooks": Value::Object(hooks_value()),
    });
    let mcp = json!({"mcpServers": {"ghost": mcp_server()}});
    let text = |v: &Value| {
        let mut s = serde_json::to_string_pretty(v).expect("JSON");
        s.push('\n');
        s
    };
    vec![
        ("hooks/hooks.json", text(&hooks)),
        (".mcp.json", text(&mcp)),
    ]
}

/// Where install writes.
#[derive(Debug, Clone)]
pub struct Targets {
    /// The settings file (hooks, statusLine).
    pub settings: PathBuf,
    /// The file with the MCP servers.
    pub mcp: PathBuf,
}

impl Targets {
    /// The user's files under `home`, or the project's under `project`.
    pub fn new(home: &Path, project: Option<&Path>) -> Self {
        match project {
            Some(p) => Self {
                settings: p.join(".claude/settings.json"),
                mcp: p.join(".mcp.json"),
            },
            None => Self {
                settings: home.join(".claude/settings.json"),
                mcp: home.join(".claude.json"),
            },
        }
    }
}

/// One file's change.
#[derive(Debug, Clone)]
pub struct FileChange {
    /// The file.
    pub path: PathBuf,
    /// Its text before (empty when it does not exist).
    pub before: String,
    /// Its text after.
    pub after: String,
}

impl FileChange {
    /// Whether anything changes.
    pub fn changes(&self) -> bool {
        self.before != self.after
    }
}

fn read_json(path: &Path) -> Result<(String, Map<String, Value>)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((String::new(), Map::new()));
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    if text.trim().is_empty() {
        return Ok((text, Map::new()));
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok((text, map)),
        Ok(_) => bail!(
            "{} is not a JSON object; fix or move it, then run again",
            path.display()
        ),
        Err(e) => bail!(
            "{} is not valid JSON ({e}); fix it, then run again (nothing was changed)",
            path.display()
        ),
    }
}

fn render(map: &Map<String, Value>) -> String {
    let mut s = serde_json::to_string_pretty(&Value::Object(map.clone())).expect("JSON");
    s.push('\n');
    s
}

fn is_ghost_hook(handler: &Value) -> bool {
    handler["command"]
        .as_str()
        .is_some_and(|c| c.starts_with(COMMAND_PREFIX))
}

/// Removes ghost's handlers from a `hooks` object; drops emptied groups and events.
fn strip_hooks(hooks: &mut Map<String, Value>) {
    for groups in hooks.values_mut() {
        if let Some(groups) = groups.as_array_mut() {
            for group in groups.iter_mut() {
                if let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) {
                    list.retain(|h| !is_ghost_hook(h));
                }
            }
            groups.retain(|g| g["hooks"].as_array().is_none_or(|l| !l.is_empty()));
        }
    }
    hooks.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
}

/// The changes `ghost install` makes.
pub fn plan_install(targets: &Targets) -> Result<Vec<FileChange>> {
    let (before, mut settings) = read_json(&targets.settings)?;
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .with_context(|| {
            format!(
                "\"hooks\" in {} is not an object",
                targets.settings.display()
            )
        })?;
    // Replace ghost's own entries, keep everyone else's.
    strip_hooks(hooks);
    for (event, groups) in hooks_value() {
        let Value::Array(ours) = groups else {
            unreachable!("hooks_value makes lists")
        };
        let existing = hooks.entry(event.clone()).or_insert_with(|| json!([]));
        match existing.as_array_mut() {
            Some(list) => list.extend(ours),
            None => bail!(
                "hooks.{event} in {} is not a list",
                targets.settings.display()
            ),
        }
    }
    let status = json!({"type": "command", "command": format!("{COMMAND_PREFIX}{}", HookEvent::StatusLine.arg())});
    match settings.get("statusLine") {
        None => {
            settings.insert("statusLine".into(), status);
        }
        Some(existing) if is_ghost_hook(existing) => {}
        Some(_) => log::info!("install: a statusLine is already set; left as it is"),
    }
    let settings_change = FileChange {
        path: targets.settings.clone(),
        before,
        after: render(&settings),
    };
    let (before, mut mcp) = read_json(&targets.mcp)?;
    let servers = mcp
        .entry("mcpServers")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .with_context(|| {
            format!(
                "\"mcpServers\" in {} is not an object",
                targets.mcp.display()
            )
        })?;
    servers.insert("ghost".into(), mcp_server());
    let mcp_change = FileChange {
        path: targets.mcp.clone(),
        before,
        after: render(&mcp),
    };
    Ok(vec![settings_change, mcp_change])
}

/// The changes `ghost uninstall` makes.
pub fn plan_uninstall(targets: &Targets) -> Result<Vec<FileChange>> {
    let mut changes = Vec::new();
    let (before, mut settings) = read_json(&targets.settings)?;
    if let Some(hooks) = settings.get_mut("hooks").and_then(Value::as_object_mut) {
        strip_hooks(hooks);
        if hooks.is_empty() {
            settings.remove("hooks");
        }
    }
    if settings.get("statusLine").is_some_and(is_ghost_hook) {
        settings.remove("statusLine");
    }
    if !before.is_empty() {
        changes.push(FileChange {
            path: targets.settings.clone(),
            after: render(&settings),
            before,
        });
    }
    let (before, mut mcp) = read_json(&targets.mcp)?;
    if let Some(servers) = mcp.get_mut("mcpServers").and_then(Value::as_object_mut)
        && servers
            .get("ghost")
            .is_some_and(|s| s["command"].as_str().is_some_and(|c| c.ends_with("ghost")))
    {
        servers.remove("ghost");
    }
    if !before.is_empty() {
        changes.push(FileChange {
            path: targets.mcp.clone(),
            after: render(&mcp),
            before,
        });
    }
    Ok(changes)
}

/// Writes `changes`: each changed file backed up, then replaced atomically.
/// Returns the backups made.
pub fn apply(changes: &[FileChange]) -> Result<Vec<PathBuf>> {
    let mut backups = Vec::new();
    for c in changes.iter().filter(|c| c.changes()) {
        if let Some(dir) = c.path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        if !c.before.is_empty() {
            let backup = PathBuf::from(format!("{}.ghost-backup", c.path.display()));
            std::fs::write(&backup, &c.before)
                .with_context(|| format!("backing up to {}", backup.display()))?;
            backups.push(backup);
        }
        let tmp = PathBuf::from(format!("{}.ghost-tmp", c.path.display()));
        std::fs::write(&tmp, &c.after).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &c.path)
            .with_context(|| format!("replacing {}", c.path.display()))?;
    }
    Ok(backups)
}

/// A line diff of `before` → `after` (`-`/`+` lines, unchanged lines as
/// context with a leading space).
pub fn diff(before: &str, after: &str) -> String {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    // Longest common subsequence table; settings files are small.
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push_str(&format!("  {}\n", a[i]));
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i][j + 1] >= lcs[i + 1][j]) {
            out.push_str(&format!("+ {}\n", b[j]));
            j += 1;
        } else {
            out.push_str(&format!("- {}\n", a[i]));
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_merges_and_uninstall_restores() {
        let dir = tempfile::tempdir().unwrap();
        let targets = Targets::new(dir.path(), None);
        std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
        let mine = json!({"model": "opus", "hooks": {"PostToolUse": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}]},
            "statusLine": {"type": "command", "command": "my-status"}});
        std::fs::write(
            &targets.settings,
            serde_json::to_string_pretty(&mine).unwrap(),
        )
        .unwrap();
        std::fs::write(
            &targets.mcp,
            r#"{"mcpServers": {"other": {"command": "x"}}, "numStartups": 3}"#,
        )
        .unwrap();

        apply(&plan_install(&targets).unwrap()).unwrap();
        let s: Value =
            serde_json::from_str(&std::fs::read_to_string(&targets.settings).unwrap()).unwrap();
        assert_eq!(s["model"], "opus");
        assert_eq!(
            s["statusLine"]["command"], "my-status",
            "a user's statusLine is kept"
        );
        let post = s["hooks"]["PostToolUse"].as_array().unwrap();
        assert_eq!(post.len(), 2);
        assert_eq!(post[0]["hooks"][0]["command"], "prettier --write");
        assert_eq!(post[1]["hooks"][0]["command"], "ghost hook post-tool-use");
        for r in registrations() {
            assert!(s["hooks"][r.event].is_array(), "{}", r.event);
        }
        let m: Value =
            serde_json::from_str(&std::fs::read_to_string(&targets.mcp).unwrap()).unwrap();
        assert_eq!(m["mcpServers"]["ghost"]["args"], json!(["serve"]));
        assert_eq!(m["mcpServers"]["other"]["command"], "x");
        assert_eq!(m["numStartups"], 3);
        assert!(PathBuf::from(format!("{}.ghost-backup", targets.settings.display())).exists());

        // Twice is once.
        assert!(plan_install(&targets).unwrap().iter().all(|c| !c.changes()));

        apply(&plan_uninstall(&targets).unwrap()).unwrap();
        let s: Value =
            serde_json::from_str(&std::fs::read_to_string(&targets.settings).unwrap()).unwrap();
        assert_eq!(s, mine);
        let m: Value =
            serde_json::from_str(&std::fs::read_to_string(&targets.mcp).unwrap()).unwrap();
        assert_eq!(
            m,
            json!({"mcpServers": {"other": {"command": "x"}}, "numStartups": 3})
        );
    }

    #[test]
    fn invalid_settings_are_refused_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let targets = Targets::new(dir.path(), Some(dir.path()));
        std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
        std::fs::write(&targets.settings, "{ not json").unwrap();
        let err = plan_install(&targets).unwrap_err().to_string();
        assert!(err.contains("is not valid JSON"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&targets.settings).unwrap(),
            "{ not json"
        );
    }

    /// The plugin's `hooks/hooks.json` and `.mcp.json` are what
    /// [`plugin_files`] generates from the same table `ghost install` writes.
    /// `GHOST_BLESS=1 cargo test -p ghost-claude plugin_files` rewrites them.
    #[test]
    fn the_plugin_files_are_generated_from_the_table() {
        let plugin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../claude-plugin");
        let bless = std::env::var_os("GHOST_BLESS").is_some();
        for (rel, text) in plugin_files() {
            let path = plugin.join(rel);
            if bless {
                std::fs::write(&path, &text).unwrap();
            }
            let on_disk = std::fs::read_to_string(&path).unwrap();
            assert_eq!(
                on_disk,
                text,
                "{} is not what ghost generates; run `GHOST_BLESS=1 cargo test -p ghost-claude plugin_files` and commit it",
                path.display()
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let targets = Targets::new(dir.path(), None);
        let installed: Value =
            serde_json::from_str(&plan_install(&targets).unwrap()[0].after).unwrap();
        let hooks: Value = serde_json::from_str(&plugin_files()[0].1).unwrap();
        assert_eq!(hooks["hooks"], installed["hooks"]);
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(plugin.join(".claude-plugin/plugin.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(manifest["name"], "ghost");
    }

    #[test]
    fn every_tool_the_hook_handles_reaches_it() {
        let hooks = hooks_value();
        let matcher = hooks["PostToolUse"][0]["matcher"].as_str().unwrap();
        let matcher = regex::Regex::new(matcher).unwrap();
        for (name, _) in tools::HANDLED {
            let example = match name {
                tools::ToolName::Exact(n) => n.to_string(),
                tools::ToolName::Prefix(p) => format!("{p}server__tool"),
            };
            assert!(matcher.is_match(&example), "{example}");
        }
        assert!(matcher.is_match("TaskOutput"));
        assert!(!matcher.is_match("Write"));
    }

    #[test]
    fn diffs_show_what_changes() {
        assert_eq!(diff("a\nb\nc\n", "a\nc\nd\n"), "  a\n- b\n  c\n+ d\n");
    }
}
