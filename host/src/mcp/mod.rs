//! `ghost serve`: the MCP server the agent talks to, over stdio, on the
//! official Rust SDK (rmcp), speaking protocol 2025-11-25.
//!
//! - [`tools`]: recall, get, context_pressure, forget, stats;
//! - resources: every active entry as `ghost://entry/{id}` (the original).
//!
//! stdout carries the protocol and nothing else; ghost's own log goes to its
//! log file (and stderr with `-v`).

pub mod tools;

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::store::{Store, now_ms};

/// The protocol revision ghost speaks.
pub const PROTOCOL_VERSION: ProtocolVersion = ProtocolVersion::V_2025_11_25;

/// URI scheme prefix of an entry resource.
pub const ENTRY_URI_PREFIX: &str = "ghost://entry/";

/// How many recent entries `resources/list` shows (all are readable).
pub const LISTED_RESOURCES: usize = 100;

/// How often the server runs the store's maintenance pass.
pub const MAINTENANCE_EVERY: Duration = Duration::from_secs(3_600);

/// ghost's MCP server: the store behind a lock.
#[derive(Clone)]
pub struct GhostServer {
    store: Arc<Mutex<Store>>,
}

impl GhostServer {
    /// A server on `store`.
    pub fn new(store: Store) -> Self {
        Self {
            store: Arc::new(Mutex::new(store)),
        }
    }

    fn with_store<T>(&self, f: impl FnOnce(&mut Store) -> T) -> Result<T, ErrorData> {
        let mut store = self
            .store
            .lock()
            .map_err(|_| ErrorData::internal_error("the store lock is poisoned", None))?;
        Ok(f(&mut store))
    }
}

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

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            tools::shared_definitions().as_ref().clone(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::shared_definitions()
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.get_tool(&request.name).is_none() {
            return Err(ErrorData::invalid_params(
                format!("no tool named '{}'", request.name),
                None,
            ));
        }
        let outcome =
            self.with_store(|store| tools::call(store, &request.name, request.arguments))?;
        Ok(match outcome {
            Ok(result) => result.into(),
            Err(failure) => {
                crate::logging::warn(&format!("mcp {}: {}", request.name, failure.0));
                CallToolResult::error(vec![ContentBlock::text(failure.0)]).into()
            }
        })
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let listed = self
            .with_store(|store| store.recent(LISTED_RESOURCES))?
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
            .with_store(|store| store.read(id, now_ms()))?
            .map_err(|e| ErrorData::resource_not_found(e.to_string(), None))?;
        Ok(ReadResourceResult::new(vec![
            ResourceContents::text(entry.original, request.uri).with_mime_type("text/plain"),
        ])
        .into())
    }
}

/// The server's maintenance pass: expiry, priorities, exact token counts.
fn maintain(store: &mut Store) {
    if let Err(e) = store.maintain(now_ms()) {
        crate::logging::warn(&format!("store maintenance failed: {e}"));
    }
    if let Err(e) = store.settle_token_counts(usize::MAX >> 1) {
        crate::logging::warn(&format!("counting tokens failed: {e}"));
    }
}

/// Serves `store` over stdin/stdout until the client goes away.
pub fn serve_stdio(mut store: Store) -> Result<()> {
    maintain(&mut store);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let server = GhostServer::new(store);
        let maintainer = server.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(MAINTENANCE_EVERY);
            tick.tick().await;
            loop {
                tick.tick().await;
                let _ = maintainer.with_store(maintain);
            }
        });
        crate::logging::info("mcp server: serving on stdio");
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .context("MCP handshake over stdio")?;
        let reason = running.waiting().await.context("MCP server task")?;
        crate::logging::info(&format!("mcp server: stopped ({reason:?})"));
        Ok(())
    })
}
