//! The gardener: what ghost changes in one request's conversation, and
//! nothing else.
//!
//! Three kinds of change, each recorded per conversation so that every later
//! request gets exactly the same bytes (the prompt cache keeps its prefix):
//! - **on arrival**: a tool result in the newest user message (and a file
//!   Claude Code re-attaches after compaction) is shown as the hooks would
//!   show it ([`ghost_claude::replacement`]: compressed, stored, with its
//!   handle), unless the hooks already did;
//! - **replay**: every block rewritten by an earlier request, whose bytes are
//!   still what they were, gets the recorded replacement;
//! - **garbage collection**: when the context crosses the policy's step (or
//!   the prompt cache has gone cold anyway), everything before the last few
//!   assistant turns is gardened once: results not yet shortened become
//!   summaries, summaries become one-line references, long strings of tool
//!   calls' inputs (a Write's content, an Edit's strings) become references. One cache break per step, not per request.
//!
//! Never touched: the user's own words, thinking blocks, images, system and
//! tools, anything the agent fetched back with `get` recently. Any failure
//! leaves the request as it came (fail open), with the reason.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::PathBuf;

use anyhow::Result;
use ghost_claude::hooks::HookContext;
use ghost_claude::replacement::{self, ResultToShow};
use ghost_claude::response::is_ghost_tool;
use ghost_core::config::Config;
use ghost_core::ingest::{IngestRequest, Ingestor, short_count};
use ghost_core::pipeline::Pipeline;
use ghost_store::{Rewrite, RewriteKind, SentRequest, Store};
use ghost_types::ContentClass;
use serde_json::value::RawValue;

use crate::dialect::{self, Block, JsonText, Request, Role, ToolResult, ToolUse, json_string};
use crate::results::{CallInput, ModelResult};
use crate::splice::{self, Splice};

/// When the gardener collects, and what it spares.
#[derive(Debug, Clone, PartialEq)]
pub struct GardenPolicy {
    /// A step is taken when the context reaches this share of the window…
    pub step_share: f64,
    /// …and has grown by this share of the window since the last step.
    pub step_gap_share: f64,
    /// When the prompt cache has gone cold anyway, a step is taken from
    /// this share of the window on (it costs no extra cache write).
    pub cold_step_share: f64,
    /// The last this many assistant turns, and what follows them, are never
    /// collected.
    pub keep_turns: usize,
    /// Results and Write/Edit strings under this many bytes are left as they
    /// are by collection (a reference would save too little).
    pub reference_min_bytes: usize,
    /// Seconds after which the prompt cache has gone cold: 5 minutes, or an
    /// hour when the request asks for the 1-hour cache.
    pub cache_ttl_secs: i64,
    /// Whether collection turns summaries into one-line references (else
    /// it stops at summaries).
    pub references: bool,
}

impl Default for GardenPolicy {
    /// The defaults `ghost bench longevity` chose (see the README).
    fn default() -> Self {
        Self {
            step_share: 0.3,
            step_gap_share: 0.1,
            cold_step_share: 0.3,
            keep_turns: 4,
            reference_min_bytes: 512,
            cache_ttl_secs: 300,
            references: true,
        }
    }
}

impl GardenPolicy {
    /// The defaults, with what `config.toml`'s `[gateway]` table sets.
    pub fn from_settings(settings: &ghost_core::config::GatewaySettings) -> Self {
        let d = Self::default();
        Self {
            step_share: settings.step_share.unwrap_or(d.step_share),
            step_gap_share: settings.step_gap_share.unwrap_or(d.step_gap_share),
            cold_step_share: settings.cold_step_share.unwrap_or(d.cold_step_share),
            keep_turns: settings.keep_turns.unwrap_or(d.keep_turns),
            reference_min_bytes: settings
                .reference_min_bytes
                .unwrap_or(d.reference_min_bytes),
            cache_ttl_secs: d.cache_ttl_secs,
            references: d.references,
        }
    }
}

/// The context window of `model`, given the request's `anthropic-beta`
/// header: 1,000,000 tokens for the 1M-context models and beta, else 200,000.
pub fn context_window(model: Option<&str>, beta: Option<&str>) -> i64 {
    let one_m = model.is_some_and(|m| m.contains("[1m]"))
        || beta.is_some_and(|b| b.split(',').any(|f| f.trim().starts_with("context-1m")));
    if one_m { 1_000_000 } else { 200_000 }
}

/// What a request came with besides its body.
#[derive(Debug, Clone, Default)]
pub struct RequestInfo {
    /// The agent's session id from the request's headers
    /// (`x-claude-code-session-id`).
    pub session_header: Option<String>,
    /// The `anthropic-beta` header.
    pub beta: Option<String>,
    /// When it arrived (Unix milliseconds).
    pub now: i64,
}

/// What the gardener did to one request.
#[derive(Debug, Clone, Default)]
pub struct Gardened {
    /// The body to send upstream; `None`: the exact bytes received.
    pub body: Option<Vec<u8>>,
    /// The conversation it belongs to, when it could be parsed.
    pub conversation: Option<String>,
    /// Blocks spliced (replayed and new).
    pub blocks_rewritten: usize,
    /// Of which decided by this request.
    pub new_rewrites: usize,
    /// The garbage-collection step this request took, if it took one.
    pub gc_step: Option<u32>,
    /// Bytes received.
    pub bytes_in: usize,
    /// Bytes sent.
    pub bytes_out: usize,
    /// The estimated context before and after this request's changes, tokens.
    pub tokens_before: i64,
    /// After.
    pub tokens_after: i64,
    /// The context window, tokens.
    pub window: i64,
    /// Why the body went through untouched, when something failed.
    pub passed_through: Option<String>,
}

/// A conversation's recorded decisions and figures, in memory.
#[derive(Debug, Clone, Default)]
struct ConversationState {
    session: Option<String>,
    rewrites: HashMap<String, Rewrite>,
    gc_step: u32,
    gc_floor_tokens: Option<i64>,
    input_tokens: Option<i64>,
    sent_bytes: Option<i64>,
    last_request_at: Option<i64>,
}

/// Bytes per token ghost assumes before upstream has reported any usage.
const BYTES_PER_TOKEN: f64 = 3.6;

/// The gardener of every conversation through one gateway.
pub struct Gardener {
    store: Store,
    store_path: PathBuf,
    config: Config,
    pipeline: Pipeline,
    policy: GardenPolicy,
    conversations: HashMap<String, ConversationState>,
}

impl Gardener {
    /// A gardener storing originals and decisions in the store at
    /// `store_path`, compressing with `pipeline`.
    pub fn new(
        store_path: PathBuf,
        config: Config,
        pipeline: Pipeline,
        policy: GardenPolicy,
    ) -> Result<Self> {
        let store = config.open_store(&store_path)?;
        Ok(Self {
            store,
            store_path,
            config,
            pipeline,
            policy,
            conversations: HashMap::new(),
        })
    }

    /// The policy in force.
    pub fn policy(&self) -> &GardenPolicy {
        &self.policy
    }

    /// Gardens one Messages request (see the module's doc). Never fails: on
    /// any error the body goes through as received and the reason is given.
    pub fn garden(&mut self, body: &[u8], info: &RequestInfo) -> Gardened {
        self.run(body, info, true)
    }

    /// Only replays recorded rewrites (for `count_tokens`, which must count
    /// what the next request will send): no new decision, nothing recorded.
    pub fn replay(&mut self, body: &[u8], info: &RequestInfo) -> Gardened {
        self.run(body, info, false)
    }

    fn run(&mut self, body: &[u8], info: &RequestInfo, decide: bool) -> Gardened {
        let mut out = Gardened {
            bytes_in: body.len(),
            bytes_out: body.len(),
            ..Gardened::default()
        };
        let request = match dialect::anthropic::parse(body) {
            Ok(r) => r,
            Err(e) => {
                out.passed_through = Some(e.to_string());
                return out;
            }
        };
        match self.edit(&request, info, decide, &mut out) {
            Ok(mut splices) if !splices.is_empty() => match splice::apply(body, &mut splices) {
                Ok(new_body) => {
                    out.bytes_out = new_body.len();
                    out.body = Some(new_body);
                }
                Err(e) => out.passed_through = Some(e.to_string()),
            },
            Ok(_) => {}
            Err(e) => out.passed_through = Some(format!("{e:#}")),
        }
        if decide
            && out.passed_through.is_none()
            && let Some(conversation) = &out.conversation
            && let Err(e) = self.record_request(conversation, &out, info.now)
        {
            log::warn!("gateway: recording the request failed: {e:#}");
        }
        out
    }

    /// Records the input tokens upstream reported for the last request of
    /// `conversation` (input, cache writes and cache reads together).
    pub fn record_usage(&mut self, conversation: &str, input_tokens: i64) {
        if let Some(state) = self.conversations.get_mut(conversation) {
            state.input_tokens = Some(input_tokens);
        }
        if let Err(e) = self
            .store
            .gateway_state()
            .record_usage(conversation, input_tokens)
        {
            log::warn!("gateway: recording usage failed: {e}");
        }
    }

    fn record_request(&mut self, conversation: &str, out: &Gardened, now: i64) -> Result<()> {
        let state = self
            .conversations
            .entry(conversation.to_string())
            .or_default();
        state.sent_bytes = Some(out.bytes_out as i64);
        state.last_request_at = Some(now);
        let sent = SentRequest {
            session: state.session.clone(),
            sent_bytes: out.bytes_out as i64,
            gc_step: state.gc_step,
            gc_floor_tokens: state.gc_floor_tokens,
            window_tokens: out.window,
        };
        self.store
            .gateway_state()
            .record_request(conversation, &sent, now)?;
        Ok(())
    }

    /// The splices for `request`.
    fn edit(
        &mut self,
        request: &Request,
        info: &RequestInfo,
        decide: bool,
        out: &mut Gardened,
    ) -> Result<Vec<Splice>> {
        let Some(first) = request.messages.first() else {
            return Ok(Vec::new());
        };
        let session = info.session_header.clone().or(request.session.clone());
        let conversation = conversation_key(session.as_deref(), request, first);
        out.conversation = Some(conversation.clone());
        self.load(&conversation, session.as_deref())?;
        let mut edits = Edits::default();
        self.replay_recorded(&conversation, request, &mut edits);
        out.window = context_window(request.model.as_deref(), info.beta.as_deref());
        if decide {
            out.new_rewrites += self.on_arrival(&conversation, request, &mut edits)?;
        }
        let state = &self.conversations[&conversation];
        let tokens = estimate_tokens(state, request.body.len(), edits.delta());
        out.tokens_before = tokens;
        out.tokens_after = tokens;
        if decide && self.step_due(&conversation, tokens, out.window, request, info.now) {
            let before = edits.delta();
            let (changed, step) = self.collect(&conversation, request, &mut edits)?;
            if changed > 0 {
                out.new_rewrites += changed;
                out.gc_step = Some(step);
                let state = self
                    .conversations
                    .get_mut(&conversation)
                    .expect("loaded above");
                let after = estimate_tokens(state, request.body.len(), edits.delta());
                state.gc_step = step;
                state.gc_floor_tokens = Some(after);
                out.tokens_after = after;
                log::info!(
                    "gateway: {conversation}: garbage-collection step {step}: {changed} blocks, \
                     {} → {} bytes",
                    request.body.len() as i64 + before,
                    request.body.len() as i64 + edits.delta()
                );
            }
        } else {
            let state = &self.conversations[&conversation];
            out.tokens_after = estimate_tokens(state, request.body.len(), edits.delta());
        }
        out.blocks_rewritten = edits.by_block.len();
        Ok(edits.by_block.into_values().collect())
    }

    /// Loads `conversation`'s recorded decisions once.
    fn load(&mut self, conversation: &str, session: Option<&str>) -> Result<()> {
        if self.conversations.contains_key(conversation) {
            return Ok(());
        }
        let gateway = self.store.gateway_state();
        let rewrites = gateway
            .rewrites(conversation)?
            .into_iter()
            .map(|r| (r.block_key.clone(), r))
            .collect();
        let figures = gateway.conversation(conversation)?;
        let state = ConversationState {
            session: session
                .map(str::to_string)
                .or_else(|| figures.as_ref().and_then(|f| f.session_id.clone())),
            rewrites,
            gc_step: figures.as_ref().map_or(0, |f| f.gc_step),
            gc_floor_tokens: figures.as_ref().and_then(|f| f.gc_floor_tokens),
            input_tokens: figures.as_ref().and_then(|f| f.input_tokens),
            sent_bytes: figures.as_ref().and_then(|f| f.sent_bytes),
            last_request_at: figures.as_ref().map(|f| f.last_request_at),
        };
        self.conversations.insert(conversation.to_string(), state);
        Ok(())
    }

    /// Every block of `request` rewritten earlier whose bytes are still the
    /// same gets its recorded replacement.
    fn replay_recorded(&self, conversation: &str, request: &Request, edits: &mut Edits) {
        let rewrites = &self.conversations[conversation].rewrites;
        if rewrites.is_empty() {
            return;
        }
        for (key, span, raw) in candidates(request) {
            if let Some(r) = rewrites.get(&key)
                && r.original_digest == digest(raw)
            {
                edits.put(key, span, r.replacement.clone());
            }
        }
    }

    /// New tool results (and re-attached files): those after the model's
    /// last turn.
    fn on_arrival(
        &mut self,
        conversation: &str,
        request: &Request,
        edits: &mut Edits,
    ) -> Result<usize> {
        // What came after the model's last turn: the new results (and the
        // notes Claude Code adds after them as system messages).
        let newest = request
            .messages
            .iter()
            .rposition(|m| m.role == Role::Assistant)
            .map_or(0, |i| i + 1);
        let fresh = &request.messages[newest..];
        if fresh.is_empty() {
            return Ok(0);
        }
        let calls = request.tool_uses();
        let share = {
            let state = &self.conversations[conversation];
            let window = context_window(request.model.as_deref(), None);
            estimate_tokens(state, request.body.len(), edits.delta()) as f64 / window as f64
        };
        let mut made = 0;
        let mut read_input: Option<CallInput> = None;
        for block in fresh
            .iter()
            .filter(|m| m.role == Role::User)
            .flat_map(|m| &m.blocks)
        {
            match block {
                Block::ToolResult(result) => {
                    let key = result.tool_use_id.clone();
                    if edits.by_block.contains_key(&key)
                        || self.conversations[conversation].rewrites.contains_key(&key)
                    {
                        continue;
                    }
                    let Some(call) = calls.get(result.tool_use_id.as_str()) else {
                        continue;
                    };
                    let text = result.text();
                    if handle_id(&text).is_some() {
                        continue; // the hooks already showed it shorter
                    }
                    let input = CallInput::parse(call.input_raw);
                    let Some(taken) =
                        ModelResult::take_apart(&call.name, &input, &text, result.is_error)
                    else {
                        continue;
                    };
                    let shown =
                        self.shorter(conversation, &call.name, &key, &taken, Some(share))?;
                    if let (Some(text), id) = shown {
                        let replacement = result_content(result, &taken.put_back(&text));
                        self.record(
                            conversation,
                            edits,
                            &key,
                            result.content_span.clone(),
                            result.content_raw,
                            replacement,
                            RewriteKind::Summary,
                            0,
                            id,
                        )?;
                        made += 1;
                    }
                }
                Block::Text(t) => {
                    made += self.reattached_file(conversation, t, &mut read_input, edits)?;
                }
                _ => {}
            }
        }
        Ok(made)
    }

    /// A file Claude Code re-attached after compaction, as user text:
    /// `<system-reminder>Called the Read tool with the following input: {…}`
    /// then `Result of calling the Read tool: 1\t…`.
    fn reattached_file(
        &mut self,
        conversation: &str,
        text: &JsonText,
        read_input: &mut Option<CallInput>,
        edits: &mut Edits,
    ) -> Result<usize> {
        const CALLED: &str = "Called the Read tool with the following input: ";
        const RESULT: &str = "Result of calling the Read tool: ";
        let body = text.text();
        if let Some(at) = body.find(CALLED) {
            let rest = &body[at + CALLED.len()..];
            let json = rest.split("</system-reminder>").next().unwrap_or(rest);
            *read_input = serde_json::from_str::<CallInput>(json.trim()).ok();
        }
        let Some(at) = body.find(RESULT) else {
            return Ok(0);
        };
        let Some(input) = read_input.as_ref().filter(|i| i.file_path.is_some()) else {
            return Ok(0);
        };
        let key = format!("text:{}", &digest(text.raw)[..24]);
        if self.conversations[conversation].rewrites.contains_key(&key) {
            return Ok(0);
        }
        let start = at + RESULT.len();
        let end = body[start..]
            .rfind("</system-reminder>")
            .map_or(body.len(), |e| start + e);
        // Reads re-attached in full: their policy is a whole-file Read's.
        let whole = CallInput {
            file_path: input.file_path.clone(),
            ..CallInput::default()
        };
        let Some(taken) = ModelResult::take_apart("Read", &whole, &body[start..end], false) else {
            return Ok(0);
        };
        let (Some(shorter), id) = self.shorter(conversation, "Read", &key, &taken, None)? else {
            return Ok(0);
        };
        let new_text = format!(
            "{}{}{}",
            &body[..start],
            taken.put_back(&shorter),
            &body[end..]
        );
        self.record(
            conversation,
            edits,
            &key,
            text.span.clone(),
            text.raw,
            json_string(&new_text),
            RewriteKind::Summary,
            0,
            id,
        )?;
        Ok(1)
    }

    /// The hooks' decision on `taken` (see [`replacement::shorter_text`]).
    fn shorter(
        &mut self,
        conversation: &str,
        tool: &str,
        key: &str,
        taken: &ModelResult,
        context_share: Option<f64>,
    ) -> Result<(Option<String>, Option<String>)> {
        let pipeline = self.pipeline.clone();
        let make = move || Ok(pipeline.clone());
        let ctx = HookContext {
            store_path: self.store_path.clone(),
            config: &self.config,
            pipeline: &make,
        };
        let session = self.session_of(conversation);
        let shown = replacement::shorter_text(
            &ctx,
            &ResultToShow {
                session: &session,
                agent: conversation,
                tool,
                tool_use_id: key,
                extracted: &taken.extracted,
                context_share,
            },
        )?;
        Ok((shown.text, shown.id))
    }

    fn session_of(&self, conversation: &str) -> String {
        self.conversations
            .get(conversation)
            .and_then(|s| s.session.clone())
            .unwrap_or_else(|| "gateway".to_string())
    }

    /// Records a rewrite and splices it in.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        conversation: &str,
        edits: &mut Edits,
        key: &str,
        span: Range<usize>,
        raw: &str,
        replacement: String,
        kind: RewriteKind,
        step: u32,
        entry_id: Option<String>,
    ) -> Result<()> {
        let rewrite = Rewrite {
            block_key: key.to_string(),
            original_digest: digest(raw),
            replacement: replacement.clone(),
            kind,
            step,
            entry_id,
            original_bytes: raw.len() as i64,
        };
        self.store
            .gateway_state()
            .record(conversation, &rewrite, ghost_store::now_ms())?;
        self.conversations
            .get_mut(conversation)
            .expect("loaded")
            .rewrites
            .insert(key.to_string(), rewrite);
        edits.put(key.to_string(), span, replacement);
        Ok(())
    }

    /// Whether `conversation`, at `tokens` of a `window`, is due a
    /// garbage-collection step.
    fn step_due(
        &self,
        conversation: &str,
        tokens: i64,
        window: i64,
        request: &Request,
        now: i64,
    ) -> bool {
        let state = &self.conversations[conversation];
        let p = &self.policy;
        let share = tokens as f64 / window as f64;
        let floor = state.gc_floor_tokens.unwrap_or(0) as f64 / window as f64;
        let hot = share >= p.step_share && share >= floor + p.step_gap_share;
        let ttl = if request.body.contains("\"ttl\":\"1h\"") {
            3_600
        } else {
            p.cache_ttl_secs
        };
        let cold = state
            .last_request_at
            .is_some_and(|last| now - last > ttl * 1_000)
            && share >= p.cold_step_share;
        hot || cold
    }

    /// One garbage-collection step: gardens everything before the last
    /// `keep_turns` assistant turns. Returns how many blocks changed and the
    /// step's number.
    fn collect(
        &mut self,
        conversation: &str,
        request: &Request,
        edits: &mut Edits,
    ) -> Result<(usize, u32)> {
        let step = self.conversations[conversation].gc_step + 1;
        let Some(protected_from) = protected_from(request, self.policy.keep_turns) else {
            return Ok((0, step));
        };
        let fetched = fetched_recently(request, protected_from);
        let calls = request.tool_uses();
        let mut changed = 0;
        for message in &request.messages[..protected_from] {
            for block in &message.blocks {
                let done = match block {
                    Block::ToolResult(result) => {
                        let call = calls.get(result.tool_use_id.as_str()).copied();
                        self.collect_result(conversation, result, call, &fetched, step, edits)?
                    }
                    Block::ToolUse(call) => self.collect_input(conversation, call, step, edits)?,
                    _ => false,
                };
                changed += usize::from(done);
            }
        }
        Ok((changed, step))
    }

    /// One old tool result: to its summary, or from its summary (or the
    /// hooks' one) to a reference.
    fn collect_result(
        &mut self,
        conversation: &str,
        result: &ToolResult,
        call: Option<&ToolUse>,
        fetched: &HashSet<String>,
        step: u32,
        edits: &mut Edits,
    ) -> Result<bool> {
        let key = result.tool_use_id.clone();
        let recorded = self.conversations[conversation].rewrites.get(&key).cloned();
        let current_is_recorded = edits.by_block.contains_key(&key);
        let (tool, input) = match call {
            Some(c) => (c.name.clone(), CallInput::parse(c.input_raw)),
            None => ("tool".to_string(), CallInput::default()),
        };
        let text = result.text();
        match recorded.filter(|_| current_is_recorded) {
            Some(r) if r.kind == RewriteKind::Reference || !self.policy.references => Ok(false),
            Some(r) => {
                // A summary: now a reference, unless the agent asked for it back.
                let Some(id) = r.entry_id.clone() else {
                    return Ok(false);
                };
                if fetched.contains(&id) {
                    return Ok(false);
                }
                let facts = facts_of(&r.replacement);
                let line = reference(&tool, &input, &text_of_original(result), &facts, &id);
                let replacement = result_content(result, &line);
                self.record(
                    conversation,
                    edits,
                    &key,
                    result.content_span.clone(),
                    result.content_raw,
                    replacement,
                    RewriteKind::Reference,
                    step,
                    Some(id),
                )?;
                Ok(true)
            }
            None => {
                if result.content_raw.len() < self.policy.reference_min_bytes {
                    return Ok(false);
                }
                if let Some(id) = handle_id(&text) {
                    if !self.policy.references {
                        return Ok(false);
                    }
                    // The hooks showed it shorter: now a reference.
                    if fetched.contains(&id) {
                        return Ok(false);
                    }
                    let line = reference(&tool, &input, &text, &facts_of(&text), &id);
                    let replacement = result_content(result, &line);
                    self.record(
                        conversation,
                        edits,
                        &key,
                        result.content_span.clone(),
                        result.content_raw,
                        replacement,
                        RewriteKind::Reference,
                        step,
                        Some(id),
                    )?;
                    return Ok(true);
                }
                // The original: its summary when one is worth showing, else
                // a reference.
                let taken = ModelResult::take_apart(&tool, &input, &text, result.is_error);
                if let Some(taken) = &taken
                    && let (Some(shorter), id) =
                        self.shorter(conversation, &tool, &key, taken, Some(1.0))?
                {
                    let replacement = result_content(result, &taken.put_back(&shorter));
                    self.record(
                        conversation,
                        edits,
                        &key,
                        result.content_span.clone(),
                        result.content_raw,
                        replacement,
                        RewriteKind::Summary,
                        step,
                        id,
                    )?;
                    return Ok(true);
                }
                if !self.policy.references {
                    return Ok(false);
                }
                let id = self.store_original(conversation, &key, &tool, &input, &text)?;
                let line = reference(&tool, &input, &text, &facts_of(&text), &id);
                let replacement = result_content(result, &line);
                self.record(
                    conversation,
                    edits,
                    &key,
                    result.content_span.clone(),
                    result.content_raw,
                    replacement,
                    RewriteKind::Reference,
                    step,
                    Some(id),
                )?;
                Ok(true)
            }
        }
    }

    /// An old tool call: each long string of its input (a file's content,
    /// an Edit's old and new strings, a command with a here-document)
    /// becomes a reference. ghost's own calls are left as they are.
    fn collect_input(
        &mut self,
        conversation: &str,
        call: &ToolUse,
        step: u32,
        edits: &mut Edits,
    ) -> Result<bool> {
        if is_ghost_tool(&call.name) {
            return Ok(false);
        }
        let key = format!("input:{}", call.id);
        if self.conversations[conversation].rewrites.contains_key(&key) {
            return Ok(false);
        }
        let mut long = Vec::new();
        long_strings(
            call.input_raw,
            "",
            self.policy.reference_min_bytes,
            &mut long,
        );
        if long.is_empty() {
            return Ok(false);
        }
        let input = CallInput::parse(call.input_raw);
        let file = input.file_path.clone().unwrap_or_default();
        let base = call.input_raw.as_ptr() as usize;
        let mut inner = Vec::new();
        for (field, raw) in long {
            let text: String = serde_json::from_str(raw).unwrap_or_default();
            let id = self.store_input(conversation, call, &field, &file, &text)?;
            let of_file = if file.is_empty() {
                String::new()
            } else {
                format!(" of {file}")
            };
            let line = format!(
                "[ghost: {} lines ({} bytes){of_file}, the `{field}` of this {} call; the text: get id={id}]",
                text.lines().count(),
                text.len(),
                call.name
            );
            let start = raw.as_ptr() as usize - base;
            inner.push(Splice {
                range: start..start + raw.len(),
                with: json_string(&line),
            });
        }
        let new_input = splice::apply(call.input_raw.as_bytes(), &mut inner)?;
        let new_input = String::from_utf8(new_input).expect("JSON splices keep UTF-8");
        self.record(
            conversation,
            edits,
            &key,
            call.input_span.clone(),
            call.input_raw,
            new_input,
            RewriteKind::Reference,
            step,
            None,
        )?;
        Ok(true)
    }

    /// Stores an original the gardener references (idempotent on the call).
    fn store_original(
        &mut self,
        conversation: &str,
        key: &str,
        tool: &str,
        input: &CallInput,
        text: &str,
    ) -> Result<String> {
        let mut request = IngestRequest::new(text, self.session_of(conversation));
        request.agent_id = conversation.to_string();
        request.tool_use_id = Some(key.to_string());
        request.tool_name = Some(tool.to_string());
        request.source_path = input.file_path.clone();
        request.context = input.subject();
        request.summary = Some(text.to_string());
        request.class = Some(ContentClass::Log);
        self.ingest(request)
    }

    /// Stores one long string of a tool call's input.
    fn store_input(
        &mut self,
        conversation: &str,
        call: &ToolUse,
        field: &str,
        file: &str,
        text: &str,
    ) -> Result<String> {
        let mut request = IngestRequest::new(text, self.session_of(conversation));
        request.agent_id = conversation.to_string();
        request.tool_use_id = Some(format!("input:{}:{field}", call.id));
        request.tool_name = Some(call.name.clone());
        request.source_path = (!file.is_empty()).then(|| file.to_string());
        request.context = format!("{} {field}", call.name);
        request.summary = Some(text.to_string());
        request.class = Some(ghost_types::class_of_path(file).unwrap_or(ContentClass::Code));
        self.ingest(request)
    }

    fn ingest(&mut self, request: IngestRequest) -> Result<String> {
        let pipeline = self.pipeline.clone();
        let mut ingestor = Ingestor::new(&mut self.store, usize::MAX, move || Ok(pipeline.clone()));
        ingestor.estimate_tokens();
        ingestor.set_retention(self.config.retention.clone());
        Ok(ingestor.ingest(request)?.id)
    }
}

/// The splices of one request, one per block.
#[derive(Debug, Default)]
struct Edits {
    by_block: HashMap<String, Splice>,
}

impl Edits {
    /// Sets (or replaces) the splice of block `key`.
    fn put(&mut self, key: String, range: Range<usize>, with: String) {
        self.by_block.insert(key, Splice { range, with });
    }

    /// How many bytes the splices add (negative: remove).
    fn delta(&self) -> i64 {
        self.by_block
            .values()
            .map(|s| s.with.len() as i64 - s.range.len() as i64)
            .sum()
    }
}

/// A conversation's key: the agent's session, and the digest of the
/// conversation's first message (a subagent, or the context after a
/// compaction, starts another conversation in the same session). Without a
/// session id, the model and the first message.
fn conversation_key(session: Option<&str>, request: &Request, first: &dialect::Message) -> String {
    let first_raw = &request.body[first.content_span.clone()];
    match session {
        Some(s) => format!("{s}/{}", &digest(first_raw)[..12]),
        None => {
            let mut h = blake3::Hasher::new();
            h.update(request.model.as_deref().unwrap_or_default().as_bytes());
            h.update(b"\0");
            h.update(first_raw.as_bytes());
            format!("anonymous/{}", &h.finalize().to_hex()[..24])
        }
    }
}

/// Every block the gardener may rewrite: (its key, its span, its raw bytes).
fn candidates<'a>(request: &'a Request) -> Vec<(String, Range<usize>, &'a str)> {
    let mut out = Vec::new();
    for m in &request.messages {
        for b in &m.blocks {
            match b {
                Block::ToolResult(r) => {
                    out.push((r.tool_use_id.clone(), r.content_span.clone(), r.content_raw))
                }
                Block::ToolUse(u) => {
                    out.push((format!("input:{}", u.id), u.input_span.clone(), u.input_raw))
                }
                Block::Text(t) if m.role == Role::User && t.raw.len() > 200 => out.push((
                    format!("text:{}", &digest(t.raw)[..24]),
                    t.span.clone(),
                    t.raw,
                )),
                _ => {}
            }
        }
    }
    out
}

/// The blake3 digest (hex) of `raw`.
fn digest(raw: &str) -> String {
    blake3::hash(raw.as_bytes()).to_hex().to_string()
}

/// The estimated context of a request of `body_len` bytes changed by
/// `delta` bytes: by the tokens per byte upstream reported for the last
/// request, else by [`BYTES_PER_TOKEN`].
fn estimate_tokens(state: &ConversationState, body_len: usize, delta: i64) -> i64 {
    let bytes = (body_len as i64 + delta).max(0) as f64;
    match (state.input_tokens, state.sent_bytes) {
        (Some(tokens), Some(sent)) if sent > 0 => (bytes * tokens as f64 / sent as f64) as i64,
        _ => (bytes / BYTES_PER_TOKEN) as i64,
    }
}

/// The index of the first message the gardener must leave alone: the
/// `keep` -th assistant message from the end; `None` when there are not
/// that many (everything is recent).
fn protected_from(request: &Request, keep: usize) -> Option<usize> {
    let assistants: Vec<usize> = request
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == Role::Assistant)
        .map(|(i, _)| i)
        .collect();
    if keep == 0 {
        return Some(request.messages.len());
    }
    (assistants.len() >= keep).then(|| assistants[assistants.len() - keep])
}

/// The ids the agent fetched back with ghost's `get` from message `from` on.
fn fetched_recently(request: &Request, from: usize) -> HashSet<String> {
    request.messages[from..]
        .iter()
        .flat_map(|m| &m.blocks)
        .filter_map(|b| match b {
            Block::ToolUse(u) if is_ghost_tool(&u.name) => CallInput::parse(u.input_raw).id,
            _ => None,
        })
        .collect()
}

/// The id in a ghost handle line (`… get id=7f3a9c0b12de …`) in `text`.
fn handle_id(text: &str) -> Option<String> {
    let at = text.rfind("get id=")? + "get id=".len();
    let id: String = text[at..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    (id.len() >= 12 && text.contains("[ghost ")).then_some(id)
}

/// A tool result's content as the original would be read for a reference.
fn text_of_original(result: &ToolResult) -> String {
    result.text()
}

/// Up to two lines of `text` that name a failure, shortened: what a
/// reference keeps of a result (failing tests, errors).
fn facts_of(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with("[ghost") && replacement::names_a_failure(l))
        .map(|l| {
            let l = l.trim();
            let short: String = l.chars().take(120).collect();
            if short.len() < l.len() {
                format!("{short}…")
            } else {
                short
            }
        })
        .take(2)
        .collect()
}

/// The one line that stands for an old result.
fn reference(tool: &str, input: &CallInput, original: &str, facts: &[String], id: &str) -> String {
    let subject = input.subject();
    let what = if subject.is_empty() {
        tool.to_string()
    } else {
        format!("{tool} `{subject}`")
    };
    let mut line = format!(
        "[ghost: an earlier result, {what}: {} lines, ~{} tokens",
        original.lines().count(),
        short_count(ghost_core::tokens::estimate(original) as i64)
    );
    for fact in facts {
        line.push_str(" · ");
        line.push_str(fact);
    }
    line.push_str(&format!(" · full text: get id={id}]"));
    line
}

/// A tool result's new `content` JSON holding `text`: a string where there
/// was one, else a text block followed by the result's other blocks
/// (images) as they were.
fn result_content(result: &ToolResult, text: &str) -> String {
    if result.content_is_string {
        return json_string(text);
    }
    let mut parts = vec![format!(
        "{{\"type\":\"text\",\"text\":{}}}",
        json_string(text)
    )];
    parts.extend(result.others.iter().map(|o| o.to_string()));
    format!("[{}]", parts.join(","))
}

/// The string values of the JSON `raw` at least `min` bytes long, with
/// their paths (`content`, `edits.0.old_string`), borrowing from `raw`.
fn long_strings<'a>(raw: &'a str, path: &str, min: usize, out: &mut Vec<(String, &'a str)>) {
    if raw.starts_with('"') {
        if raw.len() >= min {
            out.push((path.to_string(), raw));
        }
        return;
    }
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    if raw.starts_with('{') {
        if let Ok(fields) = serde_json::from_str::<HashMap<String, &'a RawValue>>(raw) {
            let mut fields: Vec<(String, &'a RawValue)> = fields.into_iter().collect();
            fields.sort_by_key(|(_, v)| v.get().as_ptr() as usize);
            for (key, value) in fields {
                long_strings(value.get(), &join(&key), min, out);
            }
        }
    } else if raw.starts_with('[')
        && let Ok(items) = serde_json::from_str::<Vec<&'a RawValue>>(raw)
    {
        for (i, value) in items.into_iter().enumerate() {
            long_strings(value.get(), &join(&i.to_string()), min, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_strings_of_an_input_are_found_with_their_paths() {
        let raw = r#"{"file_path":"/a.rs","edits":[{"old_string":"xxxxxxxxxx","new_string":"y"}],"content":"zzzzzzzzzzzz"}"#;
        let mut found = Vec::new();
        long_strings(raw, "", 10, &mut found);
        let paths: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, vec!["edits.0.old_string", "content"]);
        assert_eq!(found[1].1, "\"zzzzzzzzzzzz\"");
    }

    #[test]
    fn handles_are_found_only_in_ghost_lines() {
        assert_eq!(
            handle_id(
                "x\n[ghost 1.2k→300 tokens · full text: get id=7f3a9c0b12de · search: recall]"
            ),
            Some("7f3a9c0b12de".into())
        );
        assert_eq!(handle_id("get id=7f3a9c0b12de"), None);
    }

    #[test]
    fn windows_follow_the_model_and_the_beta() {
        assert_eq!(context_window(Some("claude-opus-5-5"), None), 200_000);
        assert_eq!(
            context_window(Some("claude-sonnet-4-5[1m]"), None),
            1_000_000
        );
        assert_eq!(
            context_window(Some("x"), Some("a-2025,context-1m-2025-08-07")),
            1_000_000
        );
    }
}
