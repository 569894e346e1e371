//! Reading the context size off upstream's answer as it streams by, without
//! changing a byte of it: the `usage` of a Messages answer (input tokens,
//! cache writes and cache reads together are the context the model read).
//!
//! A streamed answer reports it in `message_start` (and may update it in
//! `message_delta`); a JSON answer at its end. The scanner keeps only the
//! line being read (a streamed answer) or the answer itself up to a cap.

use serde::Deserialize;

/// Most bytes of a JSON (not streamed) answer kept to read its usage.
const MAX_JSON_BYTES: usize = 8 << 20;

/// The input side of a Messages `usage` object.
#[derive(Debug, Default, Deserialize)]
struct Usage {
    #[serde(default)]
    input_tokens: Option<i64>,
    #[serde(default)]
    cache_creation_input_tokens: Option<i64>,
    #[serde(default)]
    cache_read_input_tokens: Option<i64>,
}

impl Usage {
    fn context_tokens(&self) -> Option<i64> {
        let parts = [
            self.input_tokens,
            self.cache_creation_input_tokens,
            self.cache_read_input_tokens,
        ];
        parts
            .iter()
            .any(Option::is_some)
            .then(|| parts.iter().flatten().sum())
    }
}

/// An event of a streamed answer, or a whole JSON answer: where usage sits.
#[derive(Debug, Default, Deserialize)]
struct Event {
    #[serde(default)]
    message: Option<Message>,
    #[serde(default)]
    usage: Option<Usage>,
}

#[derive(Debug, Default, Deserialize)]
struct Message {
    #[serde(default)]
    usage: Option<Usage>,
}

/// What a usage reading says of the cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reading {
    /// Every input token: the context's size.
    pub context_tokens: i64,
    /// Of which read from the cache.
    pub cache_read: i64,
    /// Of which written to the cache.
    pub cache_write: i64,
}

/// Scans an answer's bytes for its usage.
#[derive(Debug)]
pub struct UsageScanner {
    streamed: bool,
    line: Vec<u8>,
    json: Vec<u8>,
    reading: Option<Reading>,
}

impl UsageScanner {
    /// A scanner for an answer that is streamed (server-sent events) or not.
    pub fn new(streamed: bool) -> Self {
        Self {
            streamed,
            line: Vec::new(),
            json: Vec::new(),
            reading: None,
        }
    }

    /// Reads the next bytes of the answer.
    pub fn feed(&mut self, bytes: &[u8]) {
        if !self.streamed {
            if self.json.len() + bytes.len() <= MAX_JSON_BYTES {
                self.json.extend_from_slice(bytes);
            }
            return;
        }
        for &b in bytes {
            if b == b'\n' {
                let line = std::mem::take(&mut self.line);
                self.event_line(&line);
            } else if self.line.len() < MAX_JSON_BYTES {
                self.line.push(b);
            }
        }
    }

    fn event_line(&mut self, line: &[u8]) {
        let Some(data) = line.strip_prefix(b"data:") else {
            return;
        };
        // Only the events that carry usage are parsed.
        let has_usage = data.windows(7).any(|w| w == b"\"usage\"");
        if has_usage && let Ok(event) = serde_json::from_slice::<Event>(data.trim_ascii()) {
            self.take(&event);
        }
    }

    fn take(&mut self, event: &Event) {
        let usage = event
            .message
            .as_ref()
            .and_then(|m| m.usage.as_ref())
            .or(event.usage.as_ref());
        if let Some(u) = usage
            && let Some(tokens) = u.context_tokens()
            && tokens > 0
        {
            self.reading = Some(Reading {
                context_tokens: tokens,
                cache_read: u.cache_read_input_tokens.unwrap_or(0),
                cache_write: u.cache_creation_input_tokens.unwrap_or(0),
            });
        }
    }

    /// The usage read, once the answer has ended.
    pub fn finish(mut self) -> Option<Reading> {
        if self.streamed {
            let line = std::mem::take(&mut self.line);
            self.event_line(&line);
        } else if let Ok(event) = serde_json::from_slice::<Event>(&self.json) {
            self.take(&event);
        }
        self.reading
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_is_read_from_a_stream_cut_anywhere() {
        let stream = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":12,\"cache_creation_input_tokens\":100,\"cache_read_input_tokens\":5000,\"output_tokens\":1}}}\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{},\"usage\":{\"output_tokens\":40}}\n\n";
        for cut in [1, 7, 50, stream.len()] {
            let mut s = UsageScanner::new(true);
            for chunk in stream.as_bytes().chunks(cut) {
                s.feed(chunk);
            }
            assert_eq!(
                s.finish(),
                Some(Reading {
                    context_tokens: 5112,
                    cache_read: 5000,
                    cache_write: 100
                })
            );
        }
        let mut s = UsageScanner::new(false);
        s.feed(br#"{"id":"m","usage":{"input_tokens":7,"output_tokens":3}}"#);
        assert_eq!(s.finish().map(|r| r.context_tokens), Some(7));
        assert_eq!(UsageScanner::new(true).finish(), None);
    }
}
