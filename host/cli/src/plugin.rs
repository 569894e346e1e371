//! `ghost plugin …`: a thin layer over the registry library and
//! `ghost_core::plugins`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Subcommand;
use ghost_core::paths::GhostDirs;
use ghost_core::plugins::add::{AddContext, AddRequest};
use ghost_core::plugins::routes::Routes;
use ghost_core::plugins::scaffold::{self, Lang};
use ghost_registry::{Registry, Status, World};
use ghost_runtime::PluginLimits;
use ghost_types::ContentClass;
use serde_json::json;

/// `ghost plugin` subcommands.
#[derive(Debug, Subcommand)]
pub enum Args {
    /// Check a component (or a plugin project's folder), smoke-test it and install it
    Add {
        /// A `.wasm` component, or a folder with a `ghost-plugin.toml`
        path: PathBuf,
        /// Its id (default: the project's, else the file's name)
        #[arg(long)]
        id: Option<String>,
        /// A class it serves: log, code, structured, prose, error (repeatable)
        #[arg(long = "class", value_name = "CLASS")]
        classes: Vec<ContentClass>,
        /// Higher runs first among the plugins for a class (default: the project's, else 0)
        #[arg(long, allow_negative_numbers = true)]
        priority: Option<i32>,
        /// Its version (default: the project's, else 0.0.0)
        #[arg(long, value_name = "VERSION")]
        plugin_version: Option<String>,
    },
    /// The installed plugins, their status and the classes they serve now
    List {
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// Uninstall a plugin (its bytes stay until `ghost plugin gc`)
    Remove {
        /// The plugin's id
        id: String,
    },
    /// Let a plugin serve again (also clears an automatic disabling)
    Enable {
        /// The plugin's id
        id: String,
    },
    /// Stop a plugin from serving (the built-in serves its classes)
    Disable {
        /// The plugin's id
        id: String,
    },
    /// Re-hash every plugin's bytes and re-check every manifest
    Verify,
    /// Delete the bytes no installed plugin uses any more, and the compiled
    /// components this ghost will not load (older builds', removed plugins')
    Gc,
    /// Compile the built-in plugins into the component cache now, so the
    /// first hook calls of a session do not wait for the compiler (`ghost
    /// install` and a session's start do it too)
    Compile {
        /// Print nothing (exit 1 still says a plugin failed)
        #[arg(long)]
        quiet: bool,
    },
    /// Create a plugin project that builds with one command
    New {
        /// Its name (and id)
        name: String,
        /// Its language (rust)
        #[arg(long, default_value = "rust")]
        lang: Lang,
        /// The folder to create it in
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
}

/// Runs `ghost plugin …`.
pub fn run(args: Args, dirs: Option<&GhostDirs>, limits: &PluginLimits) -> Result<ExitCode> {
    if let Args::New { name, lang, dir } = &args {
        let project = scaffold::scaffold(dir, name, *lang)?;
        println!(
            "created {}\n  cd {}\n  cargo build --release\n  ghost plugin add .",
            project.display(),
            project.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let Some(dirs) = dirs else {
        bail!("no data directory: set GHOST_HOME (or HOME) so ghost knows where plugins live");
    };
    let registry = ghost_core::plugins::registry(dirs);
    match args {
        Args::Add {
            path,
            id,
            classes,
            priority,
            plugin_version,
        } => {
            let request = AddRequest {
                path,
                id,
                classes,
                priority,
                version: plugin_version,
            };
            let ctx = AddContext {
                cache_dir: Some(dirs.component_cache()),
                limits: limits.clone(),
            };
            let outcome = ghost_core::plugins::add::add(&registry, &ctx, &request)
                .context("the plugin was not added")?;
            println!("{}", ghost_core::plugins::add::describe(&outcome));
        }
        Args::List { json } => list(&registry, json)?,
        Args::Remove { id } => {
            let m = registry.remove(&id)?;
            println!(
                "removed {} {}; the built-in serves its classes again (its bytes stay until `ghost plugin gc`)",
                m.id, m.version
            );
        }
        Args::Enable { id } => {
            registry.set_enabled(&id, true)?;
            println!("enabled {id}");
        }
        Args::Disable { id } => {
            registry.set_enabled(&id, false)?;
            println!("disabled {id}; the built-in serves its classes");
        }
        Args::Verify => {
            let problems = registry.verify()?;
            let (plugins, _) = registry.list()?;
            let installed: Vec<(String, String)> = plugins
                .iter()
                .map(|p| (p.manifest.id.clone(), p.manifest.digest.clone()))
                .collect();
            let cache = ghost_core::plugins::cache_problems(dirs, &installed)
                .context("checking the compiled-component cache")?;
            if problems.is_empty() && cache.is_empty() {
                println!(
                    "{} plugins verified: every blob matches its digest, every cached compiled component is bound to its own",
                    plugins.len()
                );
            } else {
                for p in &problems {
                    println!("TAMPERED OR BROKEN: {p}");
                }
                for c in &cache {
                    println!("CACHE: {c}");
                }
                if !problems.is_empty() {
                    println!(
                        "{} plugin problems; a tampered plugin is refused at load. Fix: `ghost plugin add` the same file again (it repairs the blob), or `ghost plugin remove ID`",
                        problems.len()
                    );
                }
                if !cache.is_empty() {
                    println!(
                        "{} cache problems; a bad entry is never run: it is rebuilt at its next load (or delete {})",
                        cache.len(),
                        dirs.component_cache().display()
                    );
                }
                return Ok(ExitCode::from(1));
            }
        }
        Args::Gc => {
            let removed = registry.gc()?;
            println!("{} unused blobs deleted", removed.len());
            let (plugins, _) = registry.list()?;
            let keep: Vec<String> = ghost_core::builtin::ALL
                .iter()
                .map(|b| b.bytes)
                .chain(ghost_task::Lang::ALL.iter().map(|l| l.runtime()))
                .map(ghost_runtime::cache::digest_hex)
                .chain(plugins.iter().map(|p| p.manifest.digest.clone()))
                .collect();
            let cache = dirs.component_cache();
            let pruned = ghost_runtime::cache::prune(&cache, &keep).with_context(|| {
                format!("pruning the compiled components in {}", cache.display())
            })?;
            println!(
                "{} compiled components no longer needed deleted ({:.1} MB)",
                pruned.entries,
                pruned.bytes as f64 / 1e6
            );
        }
        Args::Compile { quiet } => {
            if !compile_builtins(dirs, limits, quiet)? {
                return Ok(ExitCode::from(1));
            }
        }
        Args::New { .. } => unreachable!("handled above"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Compiles every built-in plugin into the component cache under `dirs`,
/// saying (unless `quiet`) how each was obtained; `false` when one failed.
pub fn compile_builtins(dirs: &GhostDirs, limits: &PluginLimits, quiet: bool) -> Result<bool> {
    let runtime = ghost_runtime::PluginRuntime::new(ghost_runtime::RuntimeConfig {
        cache_dir: Some(dirs.component_cache()),
        limits: limits.clone(),
    })?;
    let mut ok = true;
    for compiled in ghost_core::builtin::compile_all(&runtime) {
        let name = compiled.name;
        let said = match compiled.outcome {
            Ok(ghost_runtime::cache::CacheStatus::Hit) => "already compiled".to_string(),
            Ok(_) => format!("compiled ({:.1} s)", compiled.elapsed.as_secs_f64()),
            Err(why) => {
                ok = false;
                log::warn!("compiling {name}: {why}");
                format!("FAILED: {why}")
            }
        };
        if !quiet {
            println!("{name}: {said}");
        }
    }
    if !quiet {
        println!("cache: {}", dirs.component_cache().display());
    }
    Ok(ok)
}

fn list(registry: &Registry, as_json: bool) -> Result<()> {
    let (plugins, problems) = registry.list()?;
    let serving = Routes::load(registry).serving();
    let now = ghost_registry::now_secs();
    // A plugin whose stored bytes no longer match its digest is never
    // loaded; one failing now is named so, before it is disabled.
    let tampered: std::collections::HashMap<&str, String> = plugins
        .iter()
        .filter_map(|p| {
            let why = registry.load_bytes(&p.manifest).err()?;
            Some((p.manifest.id.as_str(), why.to_string()))
        })
        .collect();
    let status = |p: &ghost_registry::Installed| {
        if let Some(why) = tampered.get(p.manifest.id.as_str()) {
            return format!(
                "TAMPERED, not loaded ({why}); `ghost plugin add` the same file repairs it"
            );
        }
        match p.state.status(now) {
            Status::Enabled if p.state.failures > 0 => format!(
                "enabled, failing ({} of {} failures in a row before it is disabled; last: {})",
                p.state.failures,
                ghost_registry::FAILURES_TO_DISABLE,
                p.state.last_error.as_deref().unwrap_or("unknown")
            ),
            Status::Enabled => "enabled".to_string(),
            Status::Disabled => "disabled".to_string(),
            Status::AutoDisabled { until, reason } => format!(
                "auto-disabled for {} s more ({} failures in a row; last: {reason})",
                until.saturating_sub(now),
                ghost_registry::FAILURES_TO_DISABLE
            ),
        }
    };
    let serving = |p: &ghost_registry::Installed| {
        if tampered.contains_key(p.manifest.id.as_str()) {
            Vec::new()
        } else {
            serving.get(&p.manifest.id).cloned().unwrap_or_default()
        }
    };
    if as_json {
        let rows: Vec<_> = plugins
            .iter()
            .map(|p| {
                let m = &p.manifest;
                json!({
                    "id": m.id, "version": m.version, "world": m.world.as_str(), "wit": m.wit,
                    "classes": m.classes, "priority": m.priority, "digest": m.digest,
                    "status": status(p), "serves": serving(p),
                    "source": m.source, "added": m.added,
                })
            })
            .collect();
        let problems: Vec<String> = problems.iter().map(ToString::to_string).collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"plugins": rows, "problems": problems}))?
        );
        return Ok(());
    }
    if plugins.is_empty() && problems.is_empty() {
        println!(
            "no plugins installed; the built-ins serve every class (`ghost plugin add FILE.wasm`)"
        );
        return Ok(());
    }
    println!(
        "{:<20} {:<10} {:<24} {:>4} {:<12} {:<10} status",
        "id", "version", "classes", "prio", "digest", "serves"
    );
    for p in &plugins {
        let m = &p.manifest;
        let classes = match m.world {
            World::Classifier => "(classifier)".to_string(),
            World::Compressor => m
                .classes
                .iter()
                .map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join(","),
        };
        let serves = match serving(p) {
            classes if classes.is_empty() => "-".to_string(),
            classes => classes.join(","),
        };
        println!(
            "{:<20} {:<10} {:<24} {:>4} {:<12} {:<10} {}",
            m.id,
            m.version,
            classes,
            m.priority,
            &m.digest[..12],
            serves,
            status(p)
        );
    }
    for p in problems {
        println!("BROKEN: {p} (`ghost plugin verify`)");
    }
    Ok(())
}
