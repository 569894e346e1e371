//! The gardener on a thread of its own: it holds the store connection and
//! the compression pipeline (neither may cross threads), and the server's
//! tasks hand it requests through a channel. Requests are gardened one at
//! a time, in the order they arrive.

use std::sync::mpsc;
use std::thread;

use anyhow::{Context, Result, anyhow};
use tokio::sync::oneshot;

use crate::gardener::{Gardened, Gardener, RequestInfo};

/// What the gardener is asked.
enum Job {
    Garden(Vec<u8>, RequestInfo, oneshot::Sender<Gardened>),
    Replay(Vec<u8>, RequestInfo, oneshot::Sender<Gardened>),
    Usage(String, i64),
}

/// A handle on the gardener's thread; cheap to clone.
#[derive(Clone)]
pub struct GardenerHandle {
    jobs: mpsc::Sender<Job>,
}

impl GardenerHandle {
    /// Starts the gardener built by `make` on its own thread; returns once it
    /// is built (or failed to be), with the thread, which ends once every
    /// handle is dropped and every job taken is done.
    pub fn start(
        make: impl FnOnce() -> Result<Gardener> + Send + 'static,
    ) -> Result<(Self, thread::JoinHandle<()>)> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<()>>();
        let thread = thread::Builder::new()
            .name("ghost-gardener".into())
            .spawn(move || {
                let mut gardener = match make() {
                    Ok(g) => {
                        let _ = ready_tx.send(Ok(()));
                        g
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                for job in inbox {
                    match job {
                        Job::Garden(body, info, reply) => {
                            let _ =
                                reply.send(guarded(body.len(), || gardener.garden(&body, &info)));
                        }
                        Job::Replay(body, info, reply) => {
                            let _ =
                                reply.send(guarded(body.len(), || gardener.replay(&body, &info)));
                        }
                        Job::Usage(conversation, tokens) => {
                            gardener.record_usage(&conversation, tokens)
                        }
                    }
                }
            })
            .context("starting the gardener's thread")?;
        ready_rx
            .recv()
            .map_err(|_| anyhow!("the gardener's thread ended while starting"))??;
        Ok((Self { jobs }, thread))
    }

    /// Gardens `body` (see [`Gardener::garden`]); if the gardener is gone,
    /// the body goes through untouched.
    pub async fn garden(&self, body: Vec<u8>, info: RequestInfo) -> Gardened {
        let len = body.len();
        let (tx, rx) = oneshot::channel();
        if self.jobs.send(Job::Garden(body, info, tx)).is_err() {
            return gone(len);
        }
        rx.await.unwrap_or_else(|_| gone(len))
    }

    /// Replays recorded rewrites on `body` (see [`Gardener::replay`]).
    pub async fn replay(&self, body: Vec<u8>, info: RequestInfo) -> Gardened {
        let len = body.len();
        let (tx, rx) = oneshot::channel();
        if self.jobs.send(Job::Replay(body, info, tx)).is_err() {
            return gone(len);
        }
        rx.await.unwrap_or_else(|_| gone(len))
    }

    /// Tells the gardener upstream's usage for `conversation`'s last request.
    pub fn usage(&self, conversation: String, tokens: i64) {
        let _ = self.jobs.send(Job::Usage(conversation, tokens));
    }
}

/// `garden()`'s answer, or, should it panic, the body untouched (a bug in
/// ghost must never break the agent; the thread goes on with the next
/// request).
fn guarded(len: usize, garden: impl FnOnce() -> Gardened) -> Gardened {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(garden)).unwrap_or_else(|_| {
        log::warn!("gateway: the gardener panicked; the request goes through untouched");
        Gardened {
            bytes_in: len,
            bytes_out: len,
            passed_through: Some("the gardener panicked".into()),
            ..Gardened::default()
        }
    })
}

fn gone(len: usize) -> Gardened {
    Gardened {
        bytes_in: len,
        bytes_out: len,
        passed_through: Some("the gardener is not running".into()),
        ..Gardened::default()
    }
}
