//! The copy-on-write memory image wasmtime makes for each module, and the
//! kernel's occasional, passing refusal to seal one.
//!
//! On Linux, a module's first instantiation writes its initial memory to a
//! `memfd` and seals it read-only (`F_ADD_SEALS`). The kernel answers
//! `EBUSY` while a page just written is still referenced elsewhere (a
//! per-CPU page batch not yet drained), and waits only a moment for it. A
//! task's first instantiation then failed once in about twenty fresh-clone
//! CI runs. Nothing has run at that point and wasmtime makes the image again
//! on the next attempt, so trying again is safe.

use std::thread;
use std::time::Duration;

use wasmtime::Result;
use wasmtime::component::Component;

/// Attempts at making a component's memory images before giving up.
pub const ATTEMPTS: u32 = 5;

/// Pause between two attempts: long enough for the kernel to drain its page
/// batches, short beside a task's start.
pub const PAUSE: Duration = Duration::from_millis(10);

/// Whether `error` is the kernel refusing, for the moment, to seal a
/// module's memory image; nothing ran, and instantiating again may succeed.
pub fn is_seal_refusal(error: &wasmtime::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.to_string().contains("memfd"))
}

/// Makes the memory images of `component`'s modules now, trying again
/// after a seal refusal, so that instantiating it does not fail for one.
/// Cheap once made: each module keeps its image.
pub fn prepare(component: &Component) -> Result<()> {
    let mut attempt = 1;
    loop {
        match component.initialize_copy_on_write_image() {
            Err(error) if attempt < ATTEMPTS && is_seal_refusal(&error) => {
                log::debug!("memory image refused ({error:#}); attempt {attempt} of {ATTEMPTS}");
                attempt += 1;
                thread::sleep(PAUSE);
            }
            done => return done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seal_refusal_is_told_by_its_cause_anywhere_in_the_chain() {
        let io = std::io::Error::from_raw_os_error(16);
        let refused = wasmtime::Error::new(io)
            .context("cannot add seals to the memfd")
            .context("instantiating the task");
        assert!(is_seal_refusal(&refused));
        let trap = wasmtime::Error::msg("wasm trap: unreachable").context("calling run");
        assert!(!is_seal_refusal(&trap));
    }
}
