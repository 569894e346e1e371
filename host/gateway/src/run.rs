//! Starting a gateway: in the foreground (`ghost gateway`), or in the
//! background for the life of one agent command (`ghost run -- claude …`).

use std::process::{Command, ExitStatus};
use std::thread;

use anyhow::{Context, Result, anyhow};
use tokio::sync::oneshot;

use crate::gardener::Gardener;
use crate::server::{Gateway, GatewayConfig};
use crate::worker::GardenerHandle;

/// Threads the gateway's async runtime uses.
const WORKER_THREADS: usize = 2;

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKER_THREADS)
        .thread_name("ghost-gateway")
        .enable_all()
        .build()
        .context("starting the gateway's async runtime")
}

/// Runs a gateway until the process is stopped (`ghost gateway`).
pub fn serve(
    config: GatewayConfig,
    make: impl FnOnce() -> Result<Gardener> + Send + 'static,
) -> Result<()> {
    config.check()?;
    let (gardener, _thread) = GardenerHandle::start(make)?;
    runtime()?.block_on(async move {
        let gateway = Gateway::bind(config, gardener).await?;
        eprintln!(
            "ghost gateway: listening on http://{} (point the agent at it: ANTHROPIC_BASE_URL=http://{})",
            gateway.local_addr()?,
            gateway.local_addr()?
        );
        gateway.serve().await
    })
}

/// A gateway running on a thread of its own.
pub struct Background {
    addr: std::net::SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
    gardener: Option<thread::JoinHandle<()>>,
}

impl Background {
    /// Starts a gateway per `config` (port 0: a free one) on a thread of its
    /// own; returns once it listens.
    pub fn start(
        config: GatewayConfig,
        make: impl FnOnce() -> Result<Gardener> + Send + 'static,
    ) -> Result<Self> {
        config.check()?;
        let (gardener, gardener_thread) = GardenerHandle::start(make)?;
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let thread = thread::Builder::new()
            .name("ghost-gateway".into())
            .spawn(move || {
                let rt = match runtime() {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                rt.block_on(async move {
                    let gateway = match Gateway::bind(config, gardener).await {
                        Ok(g) => g,
                        Err(e) => {
                            let _ = ready_tx.send(Err(e));
                            return;
                        }
                    };
                    let _ = ready_tx.send(gateway.local_addr());
                    tokio::select! {
                        served = gateway.serve() => {
                            if let Err(e) = served {
                                log::warn!("gateway: {e:#}");
                            }
                        }
                        _ = stop_rx => {}
                    }
                });
                // Dropping the runtime ends every connection still open.
                rt.shutdown_timeout(std::time::Duration::from_secs(1));
            })
            .context("starting the gateway's thread")?;
        let addr = ready_rx
            .recv()
            .map_err(|_| anyhow!("the gateway's thread ended while starting"))??;
        Ok(Self {
            addr,
            stop: Some(stop_tx),
            thread: Some(thread),
            gardener: Some(gardener_thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// The base URL an agent reaches it at.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops it and waits until it has, and until the gardener has done
    /// what it was asked (a usage reading of the last answer).
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        if let Some(gardener) = self.gardener.take() {
            let _ = gardener.join();
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The environment `ghost run` gives an agent command: its API base URL is
/// the gateway, and Claude Code keeps loading tool definitions on demand
/// (through a custom base URL it stops doing so unless told, which costs
/// every request the full definitions of every tool).
pub fn agent_env(gateway: &Background) -> Vec<(&'static str, String)> {
    vec![
        ("ANTHROPIC_BASE_URL", gateway.base_url()),
        ("ENABLE_TOOL_SEARCH", "true".to_string()),
    ]
}

/// Runs `command` with [`agent_env`] pointing at a gateway started for it;
/// the gateway stops when the command ends. Returns the command's status.
pub fn run(
    config: GatewayConfig,
    make: impl FnOnce() -> Result<Gardener> + Send + 'static,
    command: &mut Command,
) -> Result<ExitStatus> {
    let gateway = Background::start(config, make)?;
    log::info!(
        "run: gateway at {} for {:?}",
        gateway.base_url(),
        command.get_program()
    );
    for (name, value) in agent_env(&gateway) {
        // A value the user set explicitly wins, except the base URL.
        if name == "ANTHROPIC_BASE_URL" || std::env::var_os(name).is_none() {
            command.env(name, value);
        }
    }
    let status = command
        .status()
        .with_context(|| format!("running {:?}", command.get_program()))?;
    gateway.stop();
    Ok(status)
}
