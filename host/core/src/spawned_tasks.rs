//! Tasks an agent started in the background (the MCP `spawn_task` tool)
//! and what it can ask of them: their status, their output, to stop.
//!
//! The table holds each task's [`TaskControl`] while it runs and its answer
//! once it ended; whoever runs the task reports the answer with
//! [`SpawnedTasks::finish`]. It is bounded: at most [`MAX_RUNNING`] tasks at
//! once, and the last [`MAX_KEPT`] ended ones are remembered.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

use ghost_task::TaskControl;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tasks::RunTaskOutput;

/// Most tasks running at once; more are refused until one ends.
pub const MAX_RUNNING: usize = 4;

/// Ended tasks remembered (the oldest are forgotten first; their output
/// stays in the store under its handle).
pub const MAX_KEPT: usize = 64;

/// Most bytes of a running task's output shown by `task_output` (its tail).
const PARTIAL_SHOWN_BYTES: usize = 2 << 10;

/// A request naming one spawned task.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskId {
    /// The id `spawn_task` returned.
    pub id: String,
}

/// Where a spawned task is.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TaskStatus {
    /// Its id.
    pub id: String,
    /// `running`, `ended` (its answer is ready), or `failed` (it could not
    /// run or its output could not be stored; `error` says why).
    pub state: String,
    /// Milliseconds since it started (until it ended, once it has).
    pub elapsed_ms: u64,
    /// Bytes of stdout so far (while it runs).
    pub output_bytes: usize,
    /// Its exit code, once it ended.
    pub exit_code: Option<i32>,
    /// Why it was stopped, when it was.
    pub stopped: Option<String>,
    /// Why it failed, when it did.
    pub error: Option<String>,
}

/// `task_output`'s answer: the task's answer once it ended, else its
/// status and the tail of its output so far.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct TaskOutputAnswer {
    /// Where it is.
    pub status: TaskStatus,
    /// Its answer (compressed output with a handle), once it ended.
    pub result: Option<RunTaskOutput>,
    /// The tail of its output so far, while it runs.
    pub partial: Option<String>,
}

struct Spawned {
    control: TaskControl,
    started: Instant,
    ended: Option<(u64, Result<RunTaskOutput, String>)>,
    /// Order of starting (ids sort by it too).
    seq: u64,
}

/// Why a spawned task could not be found or started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// Too many tasks are running.
    #[error(
        "spawn_task: {MAX_RUNNING} tasks are already running; wait for one to end or cancel \
         one (task_cancel)"
    )]
    Busy,
    /// No task has this id (or it was forgotten).
    #[error(
        "no task {0}: ids come from spawn_task, and only the last {MAX_KEPT} ended tasks are \
         remembered"
    )]
    Unknown(String),
}

/// The spawned tasks of one server.
#[derive(Default)]
pub struct SpawnedTasks {
    tasks: Mutex<BTreeMap<String, Spawned>>,
    next: Mutex<u64>,
}

impl SpawnedTasks {
    /// Registers a task about to start under `control`; its new id.
    pub fn start(&self, control: TaskControl) -> Result<String, SpawnError> {
        let mut tasks = self.lock();
        if tasks.values().filter(|t| t.ended.is_none()).count() >= MAX_RUNNING {
            return Err(SpawnError::Busy);
        }
        let seq = {
            let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
            *next += 1;
            *next
        };
        let id = format!("task-{seq}");
        tasks.insert(
            id.clone(),
            Spawned {
                control,
                started: Instant::now(),
                ended: None,
                seq,
            },
        );
        // Forget the oldest ended tasks beyond the bound.
        let mut ended: Vec<(u64, String)> = tasks
            .iter()
            .filter(|(_, t)| t.ended.is_some())
            .map(|(id, t)| (t.seq, id.clone()))
            .collect();
        ended.sort();
        let excess = ended.len().saturating_sub(MAX_KEPT);
        for (_, old) in ended.into_iter().take(excess) {
            tasks.remove(&old);
        }
        Ok(id)
    }

    /// Records how task `id` ended: its answer, or why there is none.
    pub fn finish(&self, id: &str, answer: Result<RunTaskOutput, String>) {
        if let Some(task) = self.lock().get_mut(id) {
            let elapsed = task.started.elapsed().as_millis() as u64;
            task.ended = Some((elapsed, answer));
        }
    }

    /// Where task `id` is.
    pub fn status(&self, id: &str) -> Result<TaskStatus, SpawnError> {
        let tasks = self.lock();
        let task = tasks
            .get(id)
            .ok_or_else(|| SpawnError::Unknown(id.to_string()))?;
        Ok(status_of(id, task))
    }

    /// Task `id`'s answer once it ended, else its status and output so far.
    pub fn output(&self, id: &str) -> Result<TaskOutputAnswer, SpawnError> {
        let tasks = self.lock();
        let task = tasks
            .get(id)
            .ok_or_else(|| SpawnError::Unknown(id.to_string()))?;
        let status = status_of(id, task);
        Ok(match &task.ended {
            Some((_, Ok(out))) => TaskOutputAnswer {
                status,
                result: Some(out.clone()),
                partial: None,
            },
            Some((_, Err(_))) => TaskOutputAnswer {
                status,
                result: None,
                partial: None,
            },
            None => {
                let (out, _) = task.control.stdout_so_far();
                let text = String::from_utf8_lossy(&out);
                TaskOutputAnswer {
                    status,
                    result: None,
                    partial: Some(crate::tasks::tail(&text, PARTIAL_SHOWN_BYTES).to_string()),
                }
            }
        })
    }

    /// Asks task `id` to stop (nothing happens to one that already ended).
    pub fn cancel(&self, id: &str) -> Result<(), SpawnError> {
        let tasks = self.lock();
        let task = tasks
            .get(id)
            .ok_or_else(|| SpawnError::Unknown(id.to_string()))?;
        task.control.cancel();
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Spawned>> {
        // A panic elsewhere leaves the table usable: entries are plain data.
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn status_of(id: &str, task: &Spawned) -> TaskStatus {
    let mut status = TaskStatus {
        id: id.to_string(),
        state: "running".into(),
        elapsed_ms: task.started.elapsed().as_millis() as u64,
        output_bytes: 0,
        exit_code: None,
        stopped: None,
        error: None,
    };
    match &task.ended {
        None => {
            let (out, dropped) = task.control.stdout_so_far();
            status.output_bytes = out.len() + dropped;
        }
        Some((elapsed, Ok(out))) => {
            status.state = "ended".into();
            status.elapsed_ms = *elapsed;
            status.exit_code = Some(out.exit_code);
            status.stopped = out.stopped.clone();
        }
        Some((elapsed, Err(why))) => {
            status.state = "failed".into();
            status.elapsed_ms = *elapsed;
            status.error = Some(why.clone());
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(code: i32) -> RunTaskOutput {
        RunTaskOutput {
            exit_code: code,
            stopped: None,
            output: "42".into(),
            id: None,
            stderr: String::new(),
            scratch: String::new(),
            elapsed_ms: 1,
        }
    }

    #[test]
    fn a_task_runs_then_ends_with_its_answer() {
        let table = SpawnedTasks::default();
        let id = table.start(TaskControl::default()).unwrap();
        assert_eq!(table.status(&id).unwrap().state, "running");
        assert_eq!(table.output(&id).unwrap().partial.as_deref(), Some(""));
        table.finish(&id, Ok(answer(0)));
        let out = table.output(&id).unwrap();
        assert_eq!(out.status.state, "ended");
        assert_eq!(out.status.exit_code, Some(0));
        assert_eq!(out.result.unwrap().output, "42");
    }

    #[test]
    fn running_tasks_are_bounded_and_ended_ones_forgotten_oldest_first() {
        let table = SpawnedTasks::default();
        let ids: Vec<String> = (0..MAX_RUNNING)
            .map(|_| table.start(TaskControl::default()).unwrap())
            .collect();
        assert!(matches!(
            table.start(TaskControl::default()),
            Err(SpawnError::Busy)
        ));
        table.finish(&ids[0], Err("could not store".into()));
        assert_eq!(table.status(&ids[0]).unwrap().state, "failed");
        let mut last = String::new();
        for _ in 0..MAX_KEPT + 1 {
            last = table.start(TaskControl::default()).unwrap();
            table.finish(&last, Ok(answer(1)));
        }
        assert!(matches!(table.status(&ids[0]), Err(SpawnError::Unknown(_))));
        assert_eq!(table.status(&last).unwrap().exit_code, Some(1));
        assert_eq!(table.status(&ids[1]).unwrap().state, "running");
    }

    #[test]
    fn cancel_reaches_the_task_control() {
        let table = SpawnedTasks::default();
        let control = TaskControl::default();
        let id = table.start(control.clone()).unwrap();
        table.cancel(&id).unwrap();
        assert!(control.is_cancelled());
        assert!(table.cancel("task-999").is_err());
    }
}
