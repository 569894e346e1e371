//! The gateway's HTTP side: a server on loopback that speaks whatever the
//! client speaks to the model API, and forwards it.
//!
//! Pass-through discipline:
//! - every request header but the hop-by-hop ones reaches upstream as sent
//!   (`authorization`, `x-api-key`, `anthropic-*`, unknown ones); `host`
//!   names the upstream; credentials are never logged;
//! - `POST /v1/messages` is gardened, `POST /v1/messages/count_tokens` gets
//!   the recorded rewrites (it must count what will be sent); every other
//!   method and path goes through as received;
//! - the answer streams back as it arrives, every byte and header as
//!   upstream sent them (events, `ping`s, error statuses and bodies,
//!   compressed bodies with their `content-encoding`); the usage is read off
//!   it on the way ([`crate::usage`]).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use anyhow::{Context, Result, bail};
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{HeaderMap, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;

use crate::gardener::{Gardened, RequestInfo};
use crate::usage::{Reading, UsageScanner};
use crate::worker::GardenerHandle;

/// Anthropic's API, where requests go unless told otherwise.
pub const DEFAULT_UPSTREAM: &str = "https://api.anthropic.com";

/// The header a remote client proves it may use the gateway with (when it
/// listens beyond loopback); never forwarded.
pub const ACCESS_TOKEN_HEADER: &str = "x-ghost-gateway-token";

/// Largest request body the gateway reads (the Messages API takes 32 MB).
pub const MAX_REQUEST_BYTES: usize = 256 << 20;

/// How long connecting to upstream may take before the client gets a 502.
pub const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Headers that belong to one connection, not to the request (RFC 9110 §7.6.1).
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// How the gateway listens and where it forwards.
#[derive(Debug, Clone)]
pub struct GatewayConfig {
    /// Where it listens.
    pub listen: SocketAddr,
    /// The model API's base URL (`https://api.anthropic.com`).
    pub upstream: String,
    /// Whether a non-loopback `listen` is allowed (with `access_token`).
    pub allow_remote: bool,
    /// The token remote clients must send in [`ACCESS_TOKEN_HEADER`].
    pub access_token: Option<String>,
}

impl GatewayConfig {
    /// Refuses a configuration that would expose the gateway: a
    /// non-loopback address without `allow_remote` and an access token.
    pub fn check(&self) -> Result<()> {
        let has_token = self.access_token.as_deref().is_some_and(|t| !t.is_empty());
        let remote_allowed = self.allow_remote && has_token;
        if !self.listen.ip().is_loopback() && !remote_allowed {
            bail!(
                "refusing to listen on {}: it is not a loopback address, and anyone who can reach \
                 it could use your API credentials through it. Listen on 127.0.0.1, or pass \
                 --allow-remote with --access-token TOKEN (clients then send the header \
                 {ACCESS_TOKEN_HEADER}: TOKEN)",
                self.listen
            );
        }
        let uri: Uri = self
            .upstream
            .parse()
            .with_context(|| format!("--upstream {} is not a URL", self.upstream))?;
        if !matches!(uri.scheme_str(), Some("http" | "https")) || uri.host().is_none() {
            bail!(
                "--upstream {} must be an http:// or https:// URL with a host",
                self.upstream
            );
        }
        Ok(())
    }
}

type Upstream = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

struct Shared {
    config: GatewayConfig,
    upstream_base: Uri,
    client: Upstream,
    gardener: GardenerHandle,
}

/// A gateway listening on its address.
pub struct Gateway {
    listener: TcpListener,
    shared: Arc<Shared>,
}

impl Gateway {
    /// Binds `config.listen` (port 0: any free port) after checking the
    /// configuration; requests are gardened by `gardener`.
    pub async fn bind(config: GatewayConfig, gardener: GardenerHandle) -> Result<Self> {
        config.check()?;
        let listener = TcpListener::bind(config.listen)
            .await
            .with_context(|| format!("listening on {}", config.listen))?;
        let tls = rustls::crypto::ring::default_provider();
        let mut tcp = HttpConnector::new();
        tcp.enforce_http(false);
        tcp.set_connect_timeout(Some(CONNECT_TIMEOUT));
        tcp.set_nodelay(true);
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(tls)
            .context("setting up TLS")?
            .https_or_http()
            .enable_http1()
            .enable_http2()
            .wrap_connector(tcp);
        let client = Client::builder(TokioExecutor::new()).build(https);
        let upstream_base = config.upstream.trim_end_matches('/').parse()?;
        Ok(Self {
            listener,
            shared: Arc::new(Shared {
                config,
                upstream_base,
                client,
                gardener,
            }),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> Result<SocketAddr> {
        Ok(self.listener.local_addr()?)
    }

    /// Serves connections until the task is dropped.
    pub async fn serve(self) -> Result<()> {
        log::info!(
            "gateway: listening on {}, forwarding to {}",
            self.local_addr()?,
            self.shared.config.upstream
        );
        loop {
            let (stream, peer) = match self.listener.accept().await {
                Ok(s) => s,
                Err(e) => {
                    log::warn!("gateway: accepting a connection failed: {e}");
                    continue;
                }
            };
            let shared = self.shared.clone();
            tokio::spawn(async move {
                let service = service_fn(move |req| handle(req, shared.clone()));
                let served = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
                if let Err(e) = served {
                    log::info!("gateway: connection from {peer} ended: {e}");
                }
            });
        }
    }
}

/// What the gateway answers when it cannot: an error in the API's shape.
fn error_response(status: StatusCode, message: &str) -> Response<BoxBody<Bytes, hyper::Error>> {
    let body = serde_json::json!({
        "type": "error",
        "error": {"type": "api_error", "message": format!("ghost gateway: {message}")}
    })
    .to_string();
    let mut response = Response::new(
        Full::new(Bytes::from(body))
            .map_err(|never: Infallible| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// Which gardening a request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    Messages,
    CountTokens,
    Forward,
}

fn route(method: &Method, path: &str) -> Route {
    match (method, path.trim_end_matches('/')) {
        (&Method::POST, "/v1/messages") => Route::Messages,
        (&Method::POST, "/v1/messages/count_tokens") => Route::CountTokens,
        _ => Route::Forward,
    }
}

fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

async fn handle(
    req: Request<Incoming>,
    shared: Arc<Shared>,
) -> Result<Response<BoxBody<Bytes, hyper::Error>>, Infallible> {
    let started = std::time::Instant::now();
    if let Some(token) = &shared.config.access_token
        && header(req.headers(), ACCESS_TOKEN_HEADER).as_deref() != Some(token.as_str())
    {
        return Ok(error_response(
            StatusCode::UNAUTHORIZED,
            &format!("missing or wrong {ACCESS_TOKEN_HEADER}"),
        ));
    }
    let (parts, body) = req.into_parts();
    let body = match Limited::new(body, MAX_REQUEST_BYTES).collect().await {
        Ok(b) => b.to_bytes(),
        Err(e) => {
            return Ok(error_response(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("reading the request failed: {e}"),
            ));
        }
    };
    let route = route(&parts.method, parts.uri.path());
    let info = RequestInfo {
        session_header: header(&parts.headers, "x-claude-code-session-id"),
        beta: header(&parts.headers, "anthropic-beta"),
        now: ghost_store::now_ms(),
    };
    let gardened = match route {
        Route::Messages => Some(shared.gardener.garden(body.to_vec(), info).await),
        Route::CountTokens => Some(shared.gardener.replay(body.to_vec(), info).await),
        Route::Forward => None,
    };
    let sent = match gardened.as_ref().and_then(|g| g.body.clone()) {
        Some(new_body) => Bytes::from(new_body),
        None => body,
    };
    let uri = match upstream_uri(&shared.upstream_base, &parts.uri) {
        Ok(u) => u,
        Err(e) => return Ok(error_response(StatusCode::BAD_GATEWAY, &e.to_string())),
    };
    let mut upstream_req = Request::builder()
        .method(parts.method.clone())
        .uri(uri)
        .body(Full::new(sent.clone()))
        .expect("a request from valid parts");
    *upstream_req.headers_mut() =
        forwarded_headers(&parts.headers, sent.len(), &shared.upstream_base);
    let response = match shared.client.request(upstream_req).await {
        Ok(r) => r,
        Err(e) => {
            log::warn!(
                "gateway: {} {}: upstream failed: {e}",
                parts.method,
                parts.uri.path()
            );
            return Ok(error_response(
                StatusCode::BAD_GATEWAY,
                &format!(
                    "the upstream {} could not be reached: {e}",
                    shared.config.upstream
                ),
            ));
        }
    };
    if let Some(g) = &gardened {
        log_request(
            &parts.method,
            parts.uri.path(),
            g,
            response.status(),
            started,
        );
    }
    let (mut head, incoming) = response.into_parts();
    head.headers = without_hop_by_hop(&head.headers);
    // The usage is read when the answer is a Messages one, not compressed.
    let tap = match (&gardened, route) {
        (Some(g), Route::Messages) if !head.headers.contains_key("content-encoding") => {
            g.conversation.clone().map(|conversation| {
                let streamed = head
                    .headers
                    .get(hyper::header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .is_some_and(|t| t.starts_with("text/event-stream"));
                UsageTap {
                    scanner: Some(UsageScanner::new(streamed)),
                    conversation,
                    gardener: shared.gardener.clone(),
                }
            })
        }
        _ => None,
    };
    let body = Tapped {
        inner: incoming,
        tap,
    }
    .boxed();
    Ok(Response::from_parts(head, body))
}

/// `base` (the upstream's scheme, host and path prefix) with the client's
/// path and query.
fn upstream_uri(base: &Uri, asked: &Uri) -> Result<Uri> {
    let prefix = base.path().trim_end_matches('/');
    let path = asked.path_and_query().map_or("/", |p| p.as_str());
    let mut parts = base.clone().into_parts();
    parts.path_and_query = Some(format!("{prefix}{path}").parse()?);
    Ok(Uri::from_parts(parts)?)
}

/// The client's headers for upstream: all but the hop-by-hop ones, the
/// gateway's own token and the length (recomputed); `host` names upstream.
fn forwarded_headers(headers: &HeaderMap, body_len: usize, upstream: &Uri) -> HeaderMap {
    let mut out = without_hop_by_hop(headers);
    out.remove(ACCESS_TOKEN_HEADER);
    out.remove(hyper::header::HOST);
    out.remove(hyper::header::CONTENT_LENGTH);
    if let Some(authority) = upstream.authority()
        && let Ok(v) = HeaderValue::from_str(authority.as_str())
    {
        out.insert(hyper::header::HOST, v);
    }
    out.insert(hyper::header::CONTENT_LENGTH, HeaderValue::from(body_len));
    out
}

/// `headers` without the hop-by-hop ones (and those `connection` names).
fn without_hop_by_hop(headers: &HeaderMap) -> HeaderMap {
    let named: Vec<String> = headers
        .get_all(hyper::header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(',').map(|n| n.trim().to_ascii_lowercase()))
        .collect();
    let mut out = HeaderMap::with_capacity(headers.len());
    for (name, value) in headers {
        let n = name.as_str();
        if HOP_BY_HOP.contains(&n) || named.iter().any(|c| c == n) {
            continue;
        }
        out.append(name.clone(), value.clone());
    }
    out
}

/// One line per gardened request.
fn log_request(
    method: &Method,
    path: &str,
    g: &Gardened,
    status: StatusCode,
    started: std::time::Instant,
) {
    let cache = match (g.gc_step, &g.passed_through) {
        (_, Some(why)) => format!("passed through ({why})"),
        (Some(step), _) => format!("garbage-collection step {step}: one cache break"),
        (None, _) => "cached prefix kept".to_string(),
    };
    log::info!(
        "gateway: {method} {path} → {status} · {} · ~{}k → ~{}k tokens of {}k · {} blocks rewritten ({} new) · {} → {} bytes · {cache} · {:.1} ms",
        g.conversation.as_deref().unwrap_or("-"),
        g.tokens_before / 1000,
        g.tokens_after / 1000,
        g.window / 1000,
        g.blocks_rewritten,
        g.new_rewrites,
        g.bytes_in,
        g.bytes_out,
        started.elapsed().as_secs_f64() * 1000.0
    );
}

/// Reads the usage off an answer as it goes by.
struct UsageTap {
    scanner: Option<UsageScanner>,
    conversation: String,
    gardener: GardenerHandle,
}

impl UsageTap {
    fn finish(&mut self) {
        if let Some(scanner) = self.scanner.take() {
            match scanner.finish() {
                Some(Reading {
                    context_tokens,
                    cache_read,
                    cache_write,
                }) => {
                    log::info!(
                        "gateway: {}: upstream read {context_tokens} input tokens ({cache_read} from the cache, {cache_write} written to it)",
                        self.conversation
                    );
                    self.gardener
                        .usage(self.conversation.clone(), context_tokens);
                }
                None => log::info!("gateway: {}: no usage in the answer", self.conversation),
            }
        }
    }
}

/// An answer's body, passed through frame by frame, with a usage tap.
struct Tapped {
    inner: Incoming,
    tap: Option<UsageTap>,
}

impl Body for Tapped {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = &mut *self;
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let (Some(data), Some(tap)) = (frame.data_ref(), this.tap.as_mut())
                    && let Some(scanner) = tap.scanner.as_mut()
                {
                    scanner.feed(data);
                }
            }
            Poll::Ready(None) | Poll::Ready(Some(Err(_))) => {
                if let Some(tap) = this.tap.as_mut() {
                    tap.finish();
                }
            }
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Tapped {
    fn drop(&mut self) {
        if let Some(tap) = self.tap.as_mut() {
            tap.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(listen: &str) -> GatewayConfig {
        GatewayConfig {
            listen: listen.parse().unwrap(),
            upstream: DEFAULT_UPSTREAM.into(),
            allow_remote: false,
            access_token: None,
        }
    }

    #[test]
    fn a_non_loopback_address_needs_the_flag_and_a_token() {
        assert!(config("127.0.0.1:0").check().is_ok());
        assert!(config("[::1]:0").check().is_ok());
        let err = config("0.0.0.0:8080").check().unwrap_err().to_string();
        assert!(err.contains("--allow-remote"), "{err}");
        let mut c = config("0.0.0.0:8080");
        c.allow_remote = true;
        assert!(c.check().is_err(), "a token is required too");
        c.access_token = Some("s3cret".into());
        assert!(c.check().is_ok());
        let mut c = config("127.0.0.1:0");
        c.upstream = "ftp://x".into();
        assert!(c.check().is_err());
    }

    #[test]
    fn upstream_paths_keep_the_prefix_and_the_query() {
        let base: Uri = "https://api.example.com/anthropic".parse().unwrap();
        let asked: Uri = "/v1/messages?beta=true".parse().unwrap();
        assert_eq!(
            upstream_uri(&base, &asked).unwrap().to_string(),
            "https://api.example.com/anthropic/v1/messages?beta=true"
        );
        let base: Uri = "http://127.0.0.1:9".parse().unwrap();
        assert_eq!(
            upstream_uri(&base, &"/".parse().unwrap())
                .unwrap()
                .to_string(),
            "http://127.0.0.1:9/"
        );
    }

    #[test]
    fn hop_by_hop_headers_stay_behind() {
        let mut h = HeaderMap::new();
        h.insert(
            "connection",
            HeaderValue::from_static("keep-alive, x-private"),
        );
        h.insert("x-private", HeaderValue::from_static("1"));
        h.insert("keep-alive", HeaderValue::from_static("timeout=5"));
        h.insert("x-api-key", HeaderValue::from_static("sk-ant-x"));
        h.insert("anthropic-beta", HeaderValue::from_static("a,b"));
        h.insert(ACCESS_TOKEN_HEADER, HeaderValue::from_static("t"));
        let out = forwarded_headers(&h, 12, &"https://api.anthropic.com".parse().unwrap());
        assert_eq!(out["x-api-key"], "sk-ant-x");
        assert_eq!(out["anthropic-beta"], "a,b");
        assert_eq!(out["host"], "api.anthropic.com");
        assert_eq!(out["content-length"], "12");
        for gone in ["connection", "x-private", "keep-alive", ACCESS_TOKEN_HEADER] {
            assert!(!out.contains_key(gone), "{gone}");
        }
    }
}
