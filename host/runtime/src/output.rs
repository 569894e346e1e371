//! A plugin's stdout or stderr: the first bytes up to a cap are kept, the
//! rest are counted and dropped. Writing past the cap is never an error, so
//! a chatty plugin is cut, not trapped (and not counted as failing).

use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError};

/// How much a guest may write at once; any amount is accepted.
const WRITE_PERMIT: usize = 64 << 10;

/// One captured output stream (clones share it).
#[derive(Debug, Clone)]
pub struct CappedOutput {
    cap: usize,
    kept: Arc<Mutex<Vec<u8>>>,
    dropped: Arc<AtomicUsize>,
}

impl CappedOutput {
    /// A stream that keeps at most `cap` bytes.
    pub fn new(cap: usize) -> Self {
        Self {
            cap,
            kept: Arc::new(Mutex::new(Vec::new())),
            dropped: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The bytes kept.
    pub fn contents(&self) -> Vec<u8> {
        self.kept.lock().map(|k| k.clone()).unwrap_or_default()
    }

    /// How many bytes were written past the cap.
    pub fn dropped(&self) -> usize {
        self.dropped.load(Ordering::Relaxed)
    }

    fn take(&self, bytes: &[u8]) {
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        let room = self.cap.saturating_sub(kept.len()).min(bytes.len());
        kept.extend_from_slice(&bytes[..room]);
        self.dropped
            .fetch_add(bytes.len() - room, Ordering::Relaxed);
    }
}

#[wasmtime_wasi::async_trait]
impl OutputStream for CappedOutput {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        self.take(&bytes);
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        Ok(WRITE_PERMIT)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for CappedOutput {
    async fn ready(&mut self) {}
}

impl tokio::io::AsyncWrite for CappedOutput {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.take(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

impl IsTerminal for CappedOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CappedOutput {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_past_the_cap_are_counted_not_refused() {
        let mut out = CappedOutput::new(4);
        out.write(Bytes::from_static(b"abc")).unwrap();
        out.write(Bytes::from_static(b"defgh")).unwrap();
        assert_eq!(out.contents(), b"abcd");
        assert_eq!(out.dropped(), 4);
        assert!(out.check_write().unwrap() > 0);
    }
}
