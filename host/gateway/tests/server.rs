//! The gateway over HTTP, between a real HTTP client and a recording
//! upstream on 127.0.0.1: what upstream receives and what the client gets
//! back, byte for byte.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use ghost_core::config::Config;
use ghost_core::paths::GhostDirs;
use ghost_core::pipeline::Pipeline;
use ghost_gateway::gardener::{GardenPolicy, Gardener};
use ghost_gateway::run::Background;
use ghost_gateway::server::GatewayConfig;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::{Value, json};

/// What the recording upstream received.
#[derive(Debug, Clone)]
struct Received {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

const SSE: &str = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":900,\"output_tokens\":1}}}\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"done\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":2}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

/// A recording upstream: answers by the request's `x-test-answer` header.
async fn upstream(log: Arc<Mutex<Vec<Received>>>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let log = log.clone();
            tokio::spawn(async move {
                let service = service_fn(move |req: Request<hyper::body::Incoming>| {
                    let log = log.clone();
                    async move {
                        let (parts, body) = req.into_parts();
                        let body = body.collect().await.unwrap().to_bytes().to_vec();
                        let answer = parts
                            .headers
                            .get("x-test-answer")
                            .map(|v| v.to_str().unwrap().to_string())
                            .unwrap_or_default();
                        log.lock().unwrap().push(Received {
                            method: parts.method.to_string(),
                            path: parts.uri.to_string(),
                            headers: parts
                                .headers
                                .iter()
                                .map(|(n, v)| {
                                    (n.to_string(), v.to_str().unwrap_or("?").to_string())
                                })
                                .collect(),
                            body,
                        });
                        let response = match answer.as_str() {
                            "429" => Response::builder()
                                .status(429)
                                .header("retry-after", "7")
                                .header("content-type", "application/json")
                                .body(Full::new(Bytes::from_static(
                                    br#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#,
                                ))),
                            "gzip" => Response::builder()
                                .header("content-type", "application/json")
                                .header("content-encoding", "gzip")
                                .body(Full::new(Bytes::from_static(&[0x1f, 0x8b, 8, 0, 1, 2, 3]))),
                            _ => Response::builder()
                                .header("content-type", "text/event-stream")
                                .header("request-id", "req_1")
                                .body(Full::new(Bytes::from_static(SSE.as_bytes()))),
                        };
                        Ok::<_, Infallible>(response.unwrap())
                    }
                });
                let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    addr
}

fn start_gateway(home: &std::path::Path, upstream: SocketAddr) -> Background {
    let store = home.join("store.sqlite3");
    let dirs = GhostDirs {
        data: home.to_path_buf(),
        cache: home.join("cache"),
        config: home.to_path_buf(),
    };
    let config = GatewayConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        upstream: format!("http://{upstream}"),
        allow_remote: false,
        access_token: None,
    };
    Background::start(config, move || {
        let pipeline = Pipeline::with_dirs(Some(&dirs))?;
        Gardener::new(store, Config::default(), pipeline, GardenPolicy::default())
    })
    .unwrap()
}

struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

async fn send(
    gateway: &Background,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let client: Client<_, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let mut req = Request::builder()
        .method(method)
        .uri(format!("{}{path}", gateway.base_url()));
    for (n, v) in headers {
        req = req.header(*n, *v);
    }
    let res = client
        .request(req.body(Full::new(Bytes::copy_from_slice(body))).unwrap())
        .await
        .unwrap();
    let status = res.status().as_u16();
    let headers = res
        .headers()
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("?").to_string()))
        .collect();
    let body = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

const CLAUDE_HEADERS: &[(&str, &str)] = &[
    ("content-type", "application/json"),
    ("x-api-key", "sk-ant-test-key"),
    ("anthropic-version", "2023-06-01"),
    (
        "anthropic-beta",
        "claude-code-20250219,interleaved-thinking-2025-05-14",
    ),
    ("x-claude-code-session-id", "sess-http"),
    ("x-unknown-header", "kept as it is"),
    ("accept-encoding", "gzip, deflate, br, zstd"),
];

fn messages_body(result: &str) -> Vec<u8> {
    json!({
        "model": "claude-opus-5-5", "max_tokens": 1000, "stream": true,
        "system": [{"type": "text", "text": "sys", "cache_control": {"type": "ephemeral"}}],
        "messages": [
            {"role": "user", "content": "why does the build fail?"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "let me look", "signature": "U0lHTkFUVVJF"},
                {"type": "tool_use", "id": "toolu_h1", "name": "Bash", "input": {"command": "mvn verify"}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_h1", "content": result, "is_error": true}]}
        ]
    })
    .to_string()
    .into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_pass_through_and_answers_stream_back_unchanged() {
    let home = tempfile::tempdir().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let up = upstream(log.clone()).await;
    let gateway = start_gateway(home.path(), up);
    let received = |i: usize| log.lock().unwrap()[i].clone();

    // A Messages request with a long failing result: gardened, every header
    // through, the streamed answer (pings included) byte for byte.
    let ci = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ci-failure.log"),
    )
    .unwrap();
    let body = messages_body(&format!("Exit code 1\n{ci}"));
    let answer = send(
        &gateway,
        "POST",
        "/v1/messages?beta=true",
        CLAUDE_HEADERS,
        &body,
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body, SSE.as_bytes());
    assert!(
        answer
            .headers
            .iter()
            .any(|(n, v)| n == "request-id" && v == "req_1")
    );
    let r = received(0);
    assert_eq!(
        (r.method.as_str(), r.path.as_str()),
        ("POST", "/v1/messages?beta=true")
    );
    for (name, value) in CLAUDE_HEADERS {
        assert_eq!(r.header(name), Some(*value), "{name}");
    }
    assert_eq!(
        r.header("content-length"),
        Some(r.body.len().to_string().as_str())
    );
    assert!(
        r.body.len() < body.len() / 3,
        "{} of {}",
        r.body.len(),
        body.len()
    );
    let sent: Value = serde_json::from_slice(&r.body).unwrap();
    let original: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(sent["system"], original["system"]);
    assert_eq!(
        sent["messages"][1], original["messages"][1],
        "thinking and the call untouched"
    );
    let shown = sent["messages"][2]["content"][0]["content"]
        .as_str()
        .unwrap();
    assert!(
        shown.contains("BUILD FAILURE") && shown.contains("get id="),
        "{shown}"
    );
    assert_eq!(sent["messages"][2]["content"][0]["is_error"], json!(true));

    // The same conversation again: the same bytes for that block.
    let answer = send(&gateway, "POST", "/v1/messages", CLAUDE_HEADERS, &body).await;
    assert_eq!(answer.status, 200);
    assert_eq!(received(1).body, r.body);

    // count_tokens counts what will be sent.
    send(
        &gateway,
        "POST",
        "/v1/messages/count_tokens",
        CLAUDE_HEADERS,
        &body,
    )
    .await;
    assert_eq!(received(2).body, r.body);

    // A body ghost cannot parse reaches upstream byte for byte.
    let junk = b"{\"messages\": [ this is not json";
    send(&gateway, "POST", "/v1/messages", CLAUDE_HEADERS, junk).await;
    assert_eq!(received(3).body, junk);

    // Upstream errors reach the client as they are.
    let mut h = CLAUDE_HEADERS.to_vec();
    h.push(("x-test-answer", "429"));
    let answer = send(&gateway, "POST", "/v1/messages", &h, &body).await;
    assert_eq!(answer.status, 429);
    assert_eq!(
        answer.body,
        br#"{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}"#
    );
    assert!(
        answer
            .headers
            .iter()
            .any(|(n, v)| n == "retry-after" && v == "7")
    );

    // A compressed answer goes back compressed, with its header.
    let mut h = CLAUDE_HEADERS.to_vec();
    h.push(("x-test-answer", "gzip"));
    let answer = send(&gateway, "POST", "/v1/messages", &h, &body).await;
    assert_eq!(answer.body, [0x1f, 0x8b, 8, 0, 1, 2, 3]);
    assert!(
        answer
            .headers
            .iter()
            .any(|(n, v)| n == "content-encoding" && v == "gzip")
    );

    // Every other method and path goes through as received.
    let answer = send(&gateway, "HEAD", "/", &[("x-api-key", "k")], b"").await;
    assert_eq!(answer.status, 200);
    let r = received(6);
    assert_eq!((r.method.as_str(), r.path.as_str()), ("HEAD", "/"));
    send(
        &gateway,
        "GET",
        "/v1/models?limit=3",
        &[("x-api-key", "k")],
        b"",
    )
    .await;
    assert_eq!(received(7).path, "/v1/models?limit=3");

    // The stream's usage reached the gardener: the store has the request.
    gateway.stop();
    let store = ghost_store::Store::open(&home.path().join("store.sqlite3")).unwrap();
    let savings = store.gateway_state().savings("sess-http").unwrap();
    assert!(savings.requests >= 3, "{savings:?}");
    assert_eq!(savings.blocks_rewritten, 1);
    assert!(savings.bytes_after < savings.bytes_before / 3);
    assert_eq!(
        savings.context_tokens,
        Some(910),
        "the stream's usage was read"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_upstream_is_a_clear_error_in_the_apis_shape() {
    let home = tempfile::tempdir().unwrap();
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let gateway = start_gateway(home.path(), closed);
    let answer = send(
        &gateway,
        "POST",
        "/v1/messages",
        CLAUDE_HEADERS,
        &messages_body("x"),
    )
    .await;
    assert_eq!(answer.status, 502);
    let error: Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(error["type"], "error");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("could not be reached")
    );
}
