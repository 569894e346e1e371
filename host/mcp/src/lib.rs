//! `ghost serve`: the MCP server the agent talks to, over stdio, on the
//! official Rust SDK (rmcp), speaking protocol 2025-11-25.
//!
//! A thin layer over `ghost_core::service`: each tool takes the service's
//! request type as its arguments (their JSON schema and descriptions come
//! from it), calls the service, and answers with the structured result and
//! its text rendering. Tools are declared with rmcp's `#[tool]` macros;
//! arguments are parsed here rather than by rmcp's extractor, so bad
//! arguments are a tool error the agent can read and correct, not a
//! protocol error. Every active entry is also a resource,
//! `ghost://entry/{id}` (the original).
//!
//! stdout carries the protocol and nothing else; ghost's own log goes
//! through the `log` facade (to ghost's log file, and stderr with `-v`).

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use ghost_claude::inspect::{ContextReport, ContextRequest};
use ghost_core::memory::{
    MemoryGetRequest, MemorySaveRequest, MemorySaved, MemorySearchOutput, MemorySearchRequest,
    MemoryText, ProjectMemory,
};
use ghost_core::render;
use ghost_core::service::{
    ForgetRequest, GetRequest, MAINTENANCE_EVERY, PressureRequest, RecallRequest, Service,
    StatsRequest,
};
use ghost_store::{Store, now_ms};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{schema_for_input, schema_for_output};
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, JsonObject, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The protocol revision ghost speaks.
pub const PROTOCOL_VERSION: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// URI scheme prefix of an entry resource.
pub const ENTRY_URI_PREFIX: &str = "ghost://entry/";

/// How many recent entries `resources/list` shows (all are readable).
pub const LISTED_RESOURCES: usize = 100;

/// The JSON schema of a tool's arguments, `T`.
fn input<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    schema_for_input::<T>().expect("every request type is a JSON object")
}

/// The JSON schema of a tool's structured output, `T`.
fn output<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    schema_for_output::<T>()
}

/// What `run_task` needs: where tasks run from, what bounds them, the
/// compiled-component cache and the pipeline their output goes through.
pub struct TaskRunner {
    /// The project directory (every task reads it).
    pub project: std::path::PathBuf,
    /// Where each task gets its scratch directory.
    pub scratch_root: std::path::PathBuf,
    /// The user's `[tasks]` bounds.
    pub settings: ghost_core::tasks::TaskSettings,
    /// Compiled components.
    pub cache: ghost_runtime::cache::ArtifactCache,
    /// Builds what compresses a task's output (a pipeline stays on the
    /// thread that built it).
    pub make_pipeline: Box<dyn Fn() -> Result<ghost_core::pipeline::Pipeline> + Send + Sync>,
    /// Outputs under this many bytes are stored as they are.
    pub min_compress_bytes: usize,
}

/// ghost's MCP server: the service behind a lock, and its tools.
#[derive(Clone)]
pub struct GhostServer {
    service: Arc<Mutex<Service>>,
    tasks: Option<Arc<TaskRunner>>,
    /// Tasks started with `spawn_task`.
    spawned: Arc<ghost_core::spawned_tasks::SpawnedTasks>,
    /// Every result passes through it: the store holds no secret, but
    /// memory files (people edit them) and transcripts may.
    redactor: ghost_redact::Redactor,
    memory: Arc<ProjectMemory>,
    tool_router: ToolRouter<GhostServer>,
}

#[tool_router]
impl GhostServer {
    /// A server on `store`, with the memory of the project it serves.
    pub fn new(store: Store, memory: ProjectMemory) -> Self {
        Self {
            redactor: store.redactor().clone(),
            service: Arc::new(Mutex::new(Service::new(store))),
            memory: Arc::new(memory),
            tasks: None,
            spawned: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    /// This server with `run_task` available, run by `tasks`.
    pub fn with_tasks(mut self, tasks: TaskRunner) -> Self {
        self.tasks = Some(Arc::new(tasks));
        self
    }

    /// Runs `call` on the service with `args` parsed as its request, and
    /// answers with the structured result and `text`'s rendering of it; a
    /// failure (bad arguments, no such entry) is a tool error with a message
    /// the agent can act on.
    fn answer<Req: DeserializeOwned, Out: Serialize, E: std::fmt::Display>(
        &self,
        tool: &str,
        args: JsonObject,
        call: impl FnOnce(&mut Service, &Req) -> Result<Out, E>,
        text: impl FnOnce(&Out) -> String,
    ) -> Result<CallToolResult, ErrorData> {
        let outcome = serde_json::from_value::<Req>(serde_json::Value::Object(args))
            .map_err(|e| format!("{tool}: bad arguments: {e}"))
            .and_then(|request| {
                let mut service = self
                    .service
                    .lock()
                    .map_err(|_| "the store lock is poisoned".to_string())?;
                call(&mut service, &request).map_err(|e| e.to_string())
            })
            .and_then(|out| {
                let value = serde_json::to_value(&out).map_err(|e| format!("serialising: {e}"))?;
                Ok((value, text(&out)))
            });
        Ok(match outcome {
            Ok((mut structured, text)) => {
                redact_json(&self.redactor, &mut structured);
                let mut result = CallToolResult::structured(structured);
                result.content = vec![ContentBlock::text(self.redactor.redact_owned(text))];
                result
            }
            Err(message) => self.refuse(tool, message),
        })
    }

    /// Search every tool result ghost has stored (full originals of
    /// compressed outputs, user prompts, errors) by words; ranked by
    /// relevance (BM25) and priority. Returns ids with the matching passage;
    /// `get` an id for its text. Use it instead of re-running a command or
    /// re-reading a file you saw before.
    #[tool(
        name = "recall",
        title = "Search ghost's store",
        input_schema = input::<RecallRequest>(),
        output_schema = output::<ghost_core::service::RecallOutput>(),
        // `full` refreshes access times, but never changes what is stored.
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn recall(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        self.answer(
            "recall",
            args,
            |s, r: &RecallRequest| s.recall(r),
            render::recall,
        )
    }

    /// The original text of a ghost entry with line numbers: all of it, a
    /// line range (start_line, end_line), or the lines around a match
    /// (around, context_lines). Ids appear in ghost's handle lines, e.g.
    /// `[ghost 41.2k→3.1k tokens · full text: get id=7f3a9c0b12de]`.
    #[tool(
        name = "get",
        title = "Get a stored original",
        input_schema = input::<GetRequest>(),
        output_schema = output::<ghost_core::service::GetOutput>(),
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn get(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        self.answer("get", args, |s, r: &GetRequest| s.get(r), render::get)
    }

    /// How full the context window is (Claude Code's own reading when ghost
    /// has one, else ghost's estimate), what ghost holds for the session per
    /// class (count, original and summary tokens, ratio), the
    /// lowest-priority entries, and a one-line recommendation.
    #[tool(
        name = "context_pressure",
        title = "Context pressure",
        input_schema = input::<PressureRequest>(),
        output_schema = output::<ghost_store::report::Pressure>(),
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn context_pressure(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        self.answer(
            "context_pressure",
            args,
            |s, r: &PressureRequest| s.pressure(r),
            render::pressure,
        )
    }

    /// Forget a stored entry: its text is erased and it stops appearing in
    /// recall and get.
    /// Forgetting twice is harmless.
    #[tool(
        name = "forget",
        title = "Forget an entry",
        input_schema = input::<ForgetRequest>(),
        output_schema = output::<ghost_core::service::ForgetOutput>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn forget(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        self.answer(
            "forget",
            args,
            |s, r: &ForgetRequest| s.forget(r),
            render::forget,
        )
    }

    /// ghost's store in figures: size on disk, entries, sessions, tokens
    /// saved overall and per day.
    #[tool(
        name = "stats",
        title = "Store statistics",
        input_schema = input::<StatsRequest>(),
        output_schema = output::<ghost_store::report::Stats>(),
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn stats(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        self.answer(
            "stats",
            args,
            |s, r: &StatsRequest| s.stats(r),
            render::stats,
        )
    }

    /// Save durable knowledge so it survives compaction and later sessions:
    /// a decision and its reason, a user preference, a debugging insight, a
    /// project fact. `target` `memory` (default) appends to the project's
    /// MEMORY.md, read at every session start; `log` to today's daily log.
    #[tool(
        name = "memory_save",
        title = "Save a memory",
        input_schema = input::<MemorySaveRequest>(),
        output_schema = output::<MemorySaved>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn memory_save(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        let memory = self.memory.clone();
        self.answer(
            "memory_save",
            args,
            |s, r: &MemorySaveRequest| memory.save(s.store(), r, chrono::Local::now()),
            render::memory_saved,
        )
    }

    /// Search this project's memories (MEMORY.md), daily logs and past
    /// sessions' turns by words; `source` narrows to `memory`, `log` or
    /// `session`. Hits give a path and lines for `memory_get`.
    #[tool(
        name = "memory_search",
        title = "Search memories",
        input_schema = input::<MemorySearchRequest>(),
        output_schema = output::<MemorySearchOutput>(),
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn memory_search(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        let memory = self.memory.clone();
        self.answer(
            "memory_search",
            args,
            |s, r: &MemorySearchRequest| memory.search(s.store(), r),
            render::memory_search,
        )
    }

    /// Read a memory file (MEMORY.md, memory/YYYY-MM-DD.md, a checkpoint, a
    /// path a search hit gave), optionally lines start_line..end_line. A
    /// file that does not exist yet reads as empty text.
    #[tool(
        name = "memory_get",
        title = "Read a memory file",
        input_schema = input::<MemoryGetRequest>(),
        output_schema = output::<MemoryText>(),
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn memory_get(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        let memory = self.memory.clone();
        self.answer(
            "memory_get",
            args,
            |s, r: &MemoryGetRequest| memory.get(s.store(), r),
            render::memory_text,
        )
    }

    /// What fills the session's context window now: tokens by kind
    /// (system + tools, prompts, assistant text, thinking, tool calls and
    /// results per tool), the largest items, tool results by age, what
    /// ghost replaced, and what it would swap out next.
    #[tool(
        name = "context",
        title = "What fills the context",
        input_schema = input::<ContextRequest>(),
        output_schema = output::<ContextReport>(),
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn context(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        self.answer(
            "context",
            args,
            |s, r: &ContextRequest| {
                ghost_claude::inspect::report(s.store(), r).map_err(|e| format!("{e:#}"))
            },
            |r| ghost_claude::inspect::render(r, true),
        )
    }

    /// Run a program you wrote (JavaScript, `lang` "js", or Python 3 with its
    /// standard library, `lang` "py") in ghost's sandbox instead of a shell: it reads the project (read-only) and writes only
    /// its own scratch directory; no environment or network unless the user
    /// allowed them. Its output comes back compressed with a handle (`get`
    /// it for the full text), so a 5 MB answer does not fill the context.
    /// Use it to count, filter or extract over big files or outputs.
    #[tool(
        name = "run_task",
        title = "Run a sandboxed task",
        input_schema = input::<ghost_core::tasks::RunTaskRequest>(),
        output_schema = output::<ghost_core::tasks::RunTaskOutput>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn run_task(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        let (tasks, task, scratch) = match self.prepare_task("run_task", &args) {
            Ok(prepared) => prepared,
            Err(refused) => return Ok(refused),
        };
        // The task runs on a thread of its own: WASI's synchronous bindings
        // drive their own async runtime.
        let (sender, receiver) = tokio::sync::oneshot::channel();
        let service = self.service.clone();
        std::thread::spawn(move || {
            let _ = sender.send(run_and_store(&tasks, &service, &task, &scratch));
        });
        let answer = receiver
            .await
            .unwrap_or_else(|_| Err("run_task: the task's thread ended without an answer".into()));
        self.answer(
            "run_task",
            args,
            |_, _: &ghost_core::tasks::RunTaskRequest| answer,
            render::run_task,
        )
    }

    /// Start the same sandboxed task as `run_task` in the background and
    /// return its id at once: for tasks that take a while. Ask
    /// `task_status` how it goes, `task_output` for its answer (compressed
    /// with a handle, as `run_task` gives it), `task_cancel` to stop it.
    #[tool(
        name = "spawn_task",
        title = "Start a sandboxed task in the background",
        input_schema = input::<ghost_core::tasks::RunTaskRequest>(),
        output_schema = output::<ghost_core::spawned_tasks::TaskStatus>(),
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn spawn_task(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        let (tasks, task, scratch) = match self.prepare_task("spawn_task", &args) {
            Ok(prepared) => prepared,
            Err(refused) => return Ok(refused),
        };
        let spawned = self.spawned.clone();
        let id = match spawned.start(task.control.clone()) {
            Ok(id) => id,
            Err(e) => {
                let _ = std::fs::remove_dir(&scratch);
                return Ok(self.refuse("spawn_task", e.to_string()));
            }
        };
        let service = self.service.clone();
        let task_id = id.clone();
        std::thread::spawn(move || {
            let answer = run_and_store(&tasks, &service, &task, &scratch);
            spawned.finish(&task_id, answer);
        });
        self.answer(
            "spawn_task",
            args,
            |_, _: &ghost_core::tasks::RunTaskRequest| self.spawned.status(&id),
            render::task_status,
        )
    }

    /// How a task started with `spawn_task` is going: running (with the
    /// bytes of output so far), ended (with its exit code) or failed.
    #[tool(
        name = "task_status",
        title = "A spawned task's status",
        input_schema = input::<ghost_core::spawned_tasks::TaskId>(),
        output_schema = output::<ghost_core::spawned_tasks::TaskStatus>(),
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn task_status(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        self.answer(
            "task_status",
            args,
            |_, r: &ghost_core::spawned_tasks::TaskId| self.spawned.status(&r.id),
            render::task_status,
        )
    }

    /// A spawned task's answer once it ended — its output compressed with a
    /// handle, as `run_task` gives it —, else the tail of its output so far.
    #[tool(
        name = "task_output",
        title = "A spawned task's output",
        input_schema = input::<ghost_core::spawned_tasks::TaskId>(),
        output_schema = output::<ghost_core::spawned_tasks::TaskOutputAnswer>(),
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn task_output(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        self.answer(
            "task_output",
            args,
            |_, r: &ghost_core::spawned_tasks::TaskId| self.spawned.output(&r.id),
            render::task_output,
        )
    }

    /// Stop a spawned task. It ends within milliseconds with exit code 130;
    /// what it printed so far is kept and `task_output` gives it.
    #[tool(
        name = "task_cancel",
        title = "Cancel a spawned task",
        input_schema = input::<ghost_core::spawned_tasks::TaskId>(),
        output_schema = output::<ghost_core::spawned_tasks::TaskStatus>(),
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    async fn task_cancel(&self, args: JsonObject) -> Result<CallToolResult, ErrorData> {
        let Ok(request) = serde_json::from_value::<ghost_core::spawned_tasks::TaskId>(
            serde_json::Value::Object(args.clone()),
        ) else {
            return Ok(self.refuse("task_cancel", "task_cancel: give the task's `id`".into()));
        };
        if let Err(e) = self.spawned.cancel(&request.id) {
            return Ok(self.refuse("task_cancel", e.to_string()));
        }
        // Give it a moment to end, so the answer says it has.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
        while std::time::Instant::now() < deadline
            && self
                .spawned
                .status(&request.id)
                .is_ok_and(|s| s.state == "running")
        {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        self.answer(
            "task_cancel",
            args,
            |_, r: &ghost_core::spawned_tasks::TaskId| self.spawned.status(&r.id),
            render::task_status,
        )
    }

    /// Parses and bounds a task request for `tool`; a refusal the agent can
    /// act on when it cannot run.
    #[allow(clippy::result_large_err)]
    fn prepare_task(
        &self,
        tool: &str,
        args: &JsonObject,
    ) -> Result<(Arc<TaskRunner>, ghost_task::TaskRequest, std::path::PathBuf), CallToolResult>
    {
        let Some(tasks) = self.tasks.clone() else {
            return Err(self.refuse(tool, format!("{tool}: this server runs no tasks")));
        };
        let request: ghost_core::tasks::RunTaskRequest =
            serde_json::from_value(serde_json::Value::Object(args.clone()))
                .map_err(|e| self.refuse(tool, format!("{tool}: bad arguments: {e}")))?;
        let ctx = ghost_core::tasks::TaskContext {
            project: &tasks.project,
            scratch_root: &tasks.scratch_root,
            settings: &tasks.settings,
        };
        let (task, scratch) = ghost_core::tasks::prepare(&request, &ctx)
            .map_err(|e| self.refuse(tool, format!("{e:#}")))?;
        Ok((tasks, task, scratch))
    }

    /// A tool error with `message` (redacted), logged.
    fn refuse(&self, tool: &str, message: String) -> CallToolResult {
        let message = self.redactor.redact_owned(message);
        log::warn!("mcp {tool}: {message}");
        CallToolResult::error(vec![ContentBlock::text(message)])
    }

    fn with_service<T>(&self, f: impl FnOnce(&mut Service) -> T) -> Result<T, ErrorData> {
        let mut service = self
            .service
            .lock()
            .map_err(|_| ErrorData::internal_error("the store lock is poisoned", None))?;
        Ok(f(&mut service))
    }
}

/// Runs `task` (on the calling thread) and stores its output through the
/// pipeline: the agent's answer, or why there is none.
fn run_and_store(
    tasks: &TaskRunner,
    service: &Mutex<Service>,
    task: &ghost_task::TaskRequest,
    scratch: &std::path::Path,
) -> Result<ghost_core::tasks::RunTaskOutput, String> {
    let outcome = ghost_task::run(task, &tasks.cache).map_err(|e| format!("run_task: {e}"))?;
    let session = format!("task:{}", now_ms() / 86_400_000);
    let pipeline = (tasks.make_pipeline)().map_err(|e| format!("{e:#}"))?;
    let mut service = service
        .lock()
        .map_err(|_| "the store lock is poisoned".to_string())?;
    ghost_core::tasks::store_output(
        &outcome,
        task,
        scratch,
        &session,
        service.store(),
        pipeline,
        tasks.min_compress_bytes,
    )
    .map_err(|e| format!("{e:#}"))
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for GhostServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_protocol_version(PROTOCOL_VERSION)
        .with_server_info(
            Implementation::new("ghost", env!("CARGO_PKG_VERSION"))
                .with_title("ghost — context gardener"),
        )
        .with_instructions(
            "ghost keeps the full original of every tool result it shortened. A line like \
             `[ghost 41.2k→3.1k tokens · full text: get id=…]` marks a shortened result: call \
             get(id) for the original or a line range of it, recall(query) to search \
             everything ghost holds, context_pressure() to see how full the context is.",
        )
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&PROTOCOL_VERSION))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let listed = self
            .with_service(|s| s.store().recent(LISTED_RESOURCES))?
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let resources = listed
            .into_iter()
            .map(|e| {
                Resource::new(format!("{ENTRY_URI_PREFIX}{}", e.id), e.id.clone())
                    .with_title(format!("{} · {}", e.class, e.source_label()))
                    .with_description(format!(
                        "{} original tokens, {} shown to the agent",
                        e.original_tokens, e.summary_tokens
                    ))
                    .with_mime_type("text/plain")
                    .with_size(e.original_bytes as u64)
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(format!("{ENTRY_URI_PREFIX}{{id}}"), "entry")
                .with_title("A stored original")
                .with_description("The full original text of the ghost entry {id}.")
                .with_mime_type("text/plain"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some(id) = request.uri.strip_prefix(ENTRY_URI_PREFIX) else {
            return Err(ErrorData::resource_not_found(
                format!(
                    "not a ghost resource: {} (expected {ENTRY_URI_PREFIX}<id>)",
                    request.uri
                ),
                None,
            ));
        };
        let entry = self
            .with_service(|s| s.store().read(id, now_ms()))?
            .map_err(|e| ErrorData::resource_not_found(e.to_string(), None))?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(self.redactor.redact_owned(entry.original), request.uri)
                .with_mime_type("text/plain"),
        ])
        .into())
    }
}

/// Redacts every string in `value`.
fn redact_json(redactor: &ghost_redact::Redactor, value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(s) => {
            if let Cow::Owned(redacted) = redactor.redact(s) {
                *s = redacted;
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                redact_json(redactor, item);
            }
        }
        serde_json::Value::Object(fields) => {
            for (_, field) in fields.iter_mut() {
                redact_json(redactor, field);
            }
        }
        _ => {}
    }
}

/// Serves `store` and the project's `memory` over stdin/stdout until the
/// client goes away, running the store's maintenance pass at start and every
/// [`MAINTENANCE_EVERY`].
pub fn serve_stdio(store: Store, memory: ProjectMemory, tasks: Option<TaskRunner>) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let mut server = GhostServer::new(store, memory);
        if let Some(tasks) = tasks {
            server = server.with_tasks(tasks);
        }
        let _ = server.with_service(Service::maintain);
        let maintainer = server.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(MAINTENANCE_EVERY);
            tick.tick().await;
            loop {
                tick.tick().await;
                let _ = maintainer.with_service(Service::maintain);
            }
        });
        log::info!("mcp server: serving on stdio");
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .context("MCP handshake over stdio")?;
        let reason = running.waiting().await.context("MCP server task")?;
        log::info!("mcp server: stopped ({reason:?})");
        Ok(())
    })
}
