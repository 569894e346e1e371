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

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

/// A hook ghost installs: the event, its matcher, the `ghost hook` argument,
/// the timeout in seconds.
pub const HOOKS: &[(&str, Option<&str>, &str, u64)] = &[
    (
        "PostToolUse",
        Some("^(Bash|Read|Grep|Glob|WebFetch|mcp__.*)$"),
        "post-tool-use",
        10,
    ),
    ("PostToolUseFailure", Some("*"), "post-tool-use-failure", 5),
    ("UserPromptSubmit", None, "user-prompt-submit", 5),
    ("PreCompact", None, "pre-compact", 10),
    ("PostCompact", None, "post-compact", 5),
    ("SessionStart", Some("compact|resume"), "session-start", 5),
];

/// The prefix of every command ghost installs: how its entries are found.
pub const COMMAND_PREFIX: &str = "ghost hook ";

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
    for (event, matcher, arg, timeout) in HOOKS {
        let mut group = json!({
            "hooks": [{"type": "command", "command": format!("{COMMAND_PREFIX}{arg}"), "timeout": timeout}]
        });
        if let Some(m) = matcher {
            group["matcher"] = json!(m);
        }
        let groups = hooks.entry(event.to_string()).or_insert_with(|| json!([]));
        match groups.as_array_mut() {
            Some(list) => list.push(group),
            None => bail!(
                "hooks.{event} in {} is not a list",
                targets.settings.display()
            ),
        }
    }
    let status = json!({"type": "command", "command": format!("{COMMAND_PREFIX}status-line")});
    match settings.get("statusLine") {
        None => {
            settings.insert("statusLine".into(), status);
        }
        Some(existing) if is_ghost_hook(existing) => {}
        Some(_) => crate::logging::info("install: a statusLine is already set; left as it is"),
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
    servers.insert(
        "ghost".into(),
        json!({"command": "ghost", "args": ["serve"]}),
    );
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
        for (event, ..) in HOOKS {
            assert!(s["hooks"][event].is_array(), "{event}");
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

    #[test]
    fn the_plugin_declares_the_same_hooks() {
        let dir = tempfile::tempdir().unwrap();
        let targets = Targets::new(dir.path(), None);
        let installed: Value =
            serde_json::from_str(&plan_install(&targets).unwrap()[0].after).unwrap();
        let plugin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../claude-plugin");
        let hooks: Value = serde_json::from_str(
            &std::fs::read_to_string(plugin.join("hooks/hooks.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(hooks["hooks"], installed["hooks"]);
        let mcp: Value =
            serde_json::from_str(&std::fs::read_to_string(plugin.join(".mcp.json")).unwrap())
                .unwrap();
        assert_eq!(
            mcp["mcpServers"]["ghost"],
            json!({"command": "ghost", "args": ["serve"]})
        );
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(plugin.join(".claude-plugin/plugin.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(manifest["name"], "ghost");
    }

    #[test]
    fn diffs_show_what_changes() {
        assert_eq!(diff("a\nb\nc\n", "a\nc\nd\n"), "  a\n- b\n  c\n+ d\n");
    }
}
