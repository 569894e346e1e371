//! `ghost gateway` and `ghost run`: flags and glue over `ghost-gateway`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use anyhow::{Context, Result, bail};
use ghost_core::config::Config;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_gateway::gardener::{GardenPolicy, Gardener};
use ghost_gateway::server::{DEFAULT_UPSTREAM, GatewayConfig};
use ghost_runtime::PluginLimits;

/// Arguments of `ghost gateway`.
#[derive(Debug, clap::Args)]
pub struct GatewayArgs {
    /// Where to listen (a loopback address unless --allow-remote).
    #[arg(long, default_value = "127.0.0.1:8787", value_name = "ADDR:PORT")]
    listen: SocketAddr,
    /// The model API's base URL (default: `upstream` in config.toml's
    /// [gateway], else https://api.anthropic.com).
    #[arg(long, env = "GHOST_UPSTREAM", value_name = "URL")]
    upstream: Option<String>,
    /// Allow a non-loopback --listen address (requires --access-token).
    #[arg(long)]
    allow_remote: bool,
    /// The token remote clients must send in the x-ghost-gateway-token header.
    #[arg(
        long,
        env = "GHOST_GATEWAY_TOKEN",
        value_name = "TOKEN",
        hide_env_values = true
    )]
    access_token: Option<String>,
}

/// Arguments of `ghost run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The model API's base URL (default: `upstream` in config.toml's
    /// [gateway], else the ANTHROPIC_BASE_URL the command would have used,
    /// else https://api.anthropic.com).
    #[arg(long, env = "GHOST_UPSTREAM", value_name = "URL")]
    upstream: Option<String>,
    /// The agent command and its arguments (after `--`).
    #[arg(
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "COMMAND"
    )]
    command: Vec<String>,
}

/// Everything a gardener needs, to build it on the gardener's own thread.
struct GardenerParts {
    dirs: Option<GhostDirs>,
    limits: PluginLimits,
    config: Config,
    store: PathBuf,
}

impl GardenerParts {
    fn new(
        dirs: Option<&GhostDirs>,
        limits: &PluginLimits,
        explicit_store: Option<&std::path::Path>,
    ) -> Result<Self> {
        let config = Config::from_dirs(dirs)?;
        let store = config.store_path(explicit_store, dirs)?;
        Ok(Self {
            dirs: dirs.cloned(),
            limits: limits.clone(),
            config,
            store,
        })
    }

    fn upstream(&self, flag: Option<String>, inherited: Option<String>) -> String {
        flag.or_else(|| self.config.gateway.upstream.clone())
            .or(inherited)
            .unwrap_or_else(|| DEFAULT_UPSTREAM.to_string())
    }

    fn make(self) -> impl FnOnce() -> Result<Gardener> + Send + 'static {
        move || {
            let pipeline = Pipeline::new_with(self.dirs.as_ref(), self.limits)?;
            let policy = GardenPolicy::from_settings(&self.config.gateway);
            Gardener::new(self.store, self.config, pipeline, policy)
        }
    }
}

/// Runs `ghost gateway` until it is stopped.
pub fn gateway(
    args: GatewayArgs,
    dirs: Option<&GhostDirs>,
    limits: &PluginLimits,
    store: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let parts = GardenerParts::new(dirs, limits, store)?;
    let config = GatewayConfig {
        listen: args.listen,
        upstream: parts.upstream(args.upstream, None),
        allow_remote: args.allow_remote,
        access_token: args.access_token,
    };
    ghost_gateway::run::serve(config, parts.make())?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `ghost run -- COMMAND…`: the command, with a gateway for its life.
pub fn run(
    args: RunArgs,
    dirs: Option<&GhostDirs>,
    limits: &PluginLimits,
    store: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let parts = GardenerParts::new(dirs, limits, store)?;
    // The command's own API base (a proxy it already used) becomes ours.
    let inherited = std::env::var("ANTHROPIC_BASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    let config = GatewayConfig {
        listen: "127.0.0.1:0".parse().expect("a loopback address"),
        upstream: parts.upstream(args.upstream, inherited),
        allow_remote: false,
        access_token: None,
    };
    let Some((program, rest)) = args.command.split_first() else {
        bail!("ghost run needs a command: ghost run -- claude …");
    };
    let mut command = Command::new(program);
    command.args(rest);
    let status = ghost_gateway::run::run(config, parts.make(), &mut command)
        .with_context(|| format!("ghost run {program}"))?;
    Ok(match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::from(1),
    })
}
