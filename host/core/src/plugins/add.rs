//! `ghost plugin add`: a component file, or a plugin project's folder, into
//! the registry, once it has proved itself: it is a component of a world and
//! WIT version ghost speaks, imports nothing forbidden, compiles within a time
//! limit, and survives a smoke call on each class it claims.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use ghost_registry::{Checked, Draft, InstallOutcome, Project, Registry, World};

use super::{limits_for, smoke};
use ghost_runtime::{PluginKind, PluginLimits, PluginRuntime, RuntimeConfig};
use ghost_types::ContentClass;

/// The longest compilation `add` waits for.
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(180);

/// Components larger than this are refused before anything else.
pub const MAX_COMPONENT_BYTES: u64 = 64 << 20;

/// What the user asked `ghost plugin add` for.
#[derive(Debug, Clone, Default)]
pub struct AddRequest {
    /// A `.wasm` component, or a project folder with a `ghost-plugin.toml`.
    pub path: PathBuf,
    /// Its id (default: the project's, else the file's name).
    pub id: Option<String>,
    /// The classes it serves (default: the project's).
    pub classes: Vec<ContentClass>,
    /// Its priority (default: the project's, else 0).
    pub priority: Option<i32>,
    /// Its version (default: the project's, else `0.0.0`).
    pub version: Option<String>,
}

/// Where the compile cache is, and the host's default limits.
#[derive(Debug, Clone)]
pub struct AddContext {
    /// The compile cache (shared with every other ghost process).
    pub cache_dir: Option<PathBuf>,
    /// The limits calls run under unless a manifest asks for others.
    pub limits: PluginLimits,
}

/// Adds the plugin `request` names to `registry`.
pub fn add(registry: &Registry, ctx: &AddContext, request: &AddRequest) -> Result<InstallOutcome> {
    let (bytes, draft) = read_request(request)?;
    let outcome = registry.install(&bytes, &draft, |bytes| check(ctx, &draft, bytes))?;
    Ok(outcome)
}

/// The component's bytes and the draft manifest from a file or a project.
fn read_request(request: &AddRequest) -> Result<(Vec<u8>, Draft)> {
    let path = &request.path;
    let meta = std::fs::metadata(path)
        .with_context(|| format!("{}: no such file or folder", path.display()))?;
    let (component, project) = if meta.is_dir() {
        let project = Project::read(path)?;
        (path.join(&project.component), Some(project))
    } else {
        (path.clone(), None)
    };
    let size = std::fs::metadata(&component)
        .with_context(|| {
            format!(
                "{}: the component is not there; build the plugin first",
                component.display()
            )
        })?
        .len();
    if size > MAX_COMPONENT_BYTES {
        bail!(
            "{}: {size} bytes is over the {MAX_COMPONENT_BYTES}-byte limit for a plugin",
            component.display()
        );
    }
    let bytes =
        std::fs::read(&component).with_context(|| format!("reading {}", component.display()))?;
    let id = match (&request.id, &project) {
        (Some(id), _) => id.clone(),
        (None, Some(p)) => p.id.clone(),
        (None, None) => id_from_file(&component),
    };
    let classes = match (&request.classes, &project) {
        (c, _) if !c.is_empty() => c.clone(),
        (_, Some(p)) => p.classes.clone(),
        _ => Vec::new(),
    };
    let draft = Draft {
        id,
        version: request
            .version
            .clone()
            .or(project.as_ref().map(|p| p.version.clone()))
            .unwrap_or_else(|| "0.0.0".to_string()),
        classes,
        priority: request
            .priority
            .or(project.as_ref().map(|p| p.priority))
            .unwrap_or(0),
        limits: project
            .as_ref()
            .map(|p| p.limits.clone())
            .unwrap_or_default(),
        source: std::fs::canonicalize(&component)
            .unwrap_or(component)
            .display()
            .to_string(),
    };
    Ok((bytes, draft))
}

/// `Short_Logs.wasm` → `short-logs`.
fn id_from_file(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    id.trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string()
}

/// Inspects, compiles and smoke-tests `bytes`: what the registry's install
/// asks of the host before anything is written.
fn check(ctx: &AddContext, draft: &Draft, bytes: &[u8]) -> Result<Checked, String> {
    compile_within(ctx, &draft.id, bytes, COMPILE_TIMEOUT)?;
    // Compiled above into the shared cache: this load does not compile again.
    let runtime = PluginRuntime::new(RuntimeConfig {
        cache_dir: ctx.cache_dir.clone(),
        limits: ctx.limits.clone(),
    })
    .map_err(|e| format!("{e:#}"))?;
    let plugin = runtime
        .load_third_party(&draft.id, bytes)
        .map_err(|e| e.to_string())?
        .with_limits(limits_for(&ctx.limits, &draft.limits));
    let world = match plugin.kind() {
        PluginKind::Compressor => World::Compressor,
        PluginKind::Classifier => World::Classifier,
    };
    check_classes(world, &draft.classes)?;
    smoke::smoke_test(&runtime, &plugin, &draft.classes)?;
    Ok(Checked {
        world,
        wit: plugin.wit_version().to_string(),
    })
}

/// A compressor must say which classes it serves, each one a compressor
/// may serve.
fn check_classes(world: World, classes: &[ContentClass]) -> Result<(), String> {
    let known = ContentClass::list(&ContentClass::COMPRESSIBLE);
    if world == World::Compressor && classes.is_empty() {
        return Err(format!(
            "say which classes this compressor serves: --class CLASS (one or more of {known})"
        ));
    }
    match classes.iter().find(|c| !c.is_compressible()) {
        Some(c) => Err(format!(
            "{c} is not a class a plugin can serve (one of {known})"
        )),
        None => Ok(()),
    }
}

/// Compiles `bytes` (into the cache) on another thread, refusing it when
/// compiling takes longer than `limit`, and refusing it when its imports,
/// world or WIT version are not acceptable.
fn compile_within(ctx: &AddContext, id: &str, bytes: &[u8], limit: Duration) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let config = RuntimeConfig {
        cache_dir: ctx.cache_dir.clone(),
        limits: ctx.limits.clone(),
    };
    let (id, bytes) = (id.to_string(), bytes.to_vec());
    std::thread::spawn(move || {
        let result = PluginRuntime::new(config)
            .map_err(|e| format!("{e:#}"))
            .and_then(|rt| {
                rt.load_third_party(&id, &bytes)
                    .map(drop)
                    .map_err(|e| e.to_string())
            });
        let _ = tx.send(result);
    });
    match rx.recv_timeout(limit) {
        Ok(result) => result,
        Err(_) => Err(format!(
            "compiling the component took over {} s; it is refused",
            limit.as_secs()
        )),
    }
}

/// `ghost plugin add`'s one-line report.
pub fn describe(outcome: &InstallOutcome) -> String {
    let what = |m: &ghost_registry::Manifest| match m.world {
        World::Classifier => "classifier".to_string(),
        World::Compressor => format!("compressor for {}", ContentClass::list(&m.classes)),
    };
    match outcome {
        InstallOutcome::Added(m) => format!(
            "added {} {} ({}, ghost:plugin@{}, priority {}, digest {}); smoke-tested",
            m.id,
            m.version,
            what(m),
            m.wit,
            m.priority,
            &m.digest[..12]
        ),
        InstallOutcome::Unchanged(m) => format!(
            "{} {} is already installed with these bytes (digest {}): nothing to do",
            m.id,
            m.version,
            &m.digest[..12]
        ),
        InstallOutcome::Repaired(m) => format!(
            "{} {} was installed with these bytes but its stored copy or the lock file was damaged, missing or behind: repaired (digest {})",
            m.id,
            m.version,
            &m.digest[..12]
        ),
        InstallOutcome::Upgraded { from, to } => format!(
            "upgraded {} {} → {} ({}, digest {} → {}); the old blob stays until `ghost plugin gc`",
            to.id,
            from.version,
            to.version,
            what(to),
            &from.digest[..12],
            &to.digest[..12]
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_file_names() {
        assert_eq!(id_from_file(Path::new("/x/Short_Logs.wasm")), "short-logs");
        assert_eq!(id_from_file(Path::new("__x__.wasm")), "x");
    }
}
