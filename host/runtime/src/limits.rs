//! Resource limits for one plugin call, and the limiter that enforces them.
//!
//! Every call gets a fresh store with these caps; a plugin that exceeds one is
//! stopped, and the caller passes the original text through.

use std::time::Duration;

/// The caps a plugin call runs under. Defaults suit a synchronous agent hook.
#[derive(Debug, Clone)]
pub struct PluginLimits {
    /// Wall-clock budget for one call on up to a MiB of input, enforced by
    /// epoch interruption; a larger input gets as much per MiB (see
    /// [`PluginLimits::deadline_for`]). 500 ms by default: twice what the
    /// built-ins need per MiB on a slow, busy machine (on one, 250 ms
    /// passed 6 of LogChunks' 781 CI logs, 1 to 3 MB, through whole, and
    /// which 6 changed from run to run).
    pub deadline: Duration,
    /// Largest linear memory (all memories of the store together), in bytes.
    pub memory_bytes: usize,
    /// Largest number of elements in any one table.
    pub table_elements: usize,
    /// Most core instances a component may create.
    pub instances: usize,
    /// Most tables a component may create.
    pub tables: usize,
    /// Most linear memories a component may create.
    pub memories: usize,
    /// Most bytes of a guest's stdout and of its stderr kept per call.
    pub captured_output_bytes: usize,
    /// Most `log` messages kept per call.
    pub log_messages: usize,
    /// Longest `log` message kept, in bytes; longer ones are cut.
    pub log_message_bytes: usize,
}

impl Default for PluginLimits {
    fn default() -> Self {
        Self {
            deadline: Duration::from_millis(500),
            memory_bytes: 128 << 20,
            table_elements: 100_000,
            instances: 32,
            tables: 32,
            memories: 4,
            captured_output_bytes: 16 << 10,
            log_messages: 64,
            log_message_bytes: 1024,
        }
    }
}

/// Bytes in a MiB, the unit a deadline scales by.
const MIB: f64 = (1 << 20) as f64;

impl PluginLimits {
    /// The deadline of a call given `input_bytes` of input: `deadline`, or
    /// `deadline` per MiB for a larger input. A compressor's work grows
    /// with its input (the built-ins aim at 100 ms per MB), so a fixed
    /// deadline stopped every input past a size, 2.5 MB at that aim and
    /// less on a busy machine, and a log the agent most needed shortened
    /// went through whole. A plugin that loops still stops, in a time
    /// proportional to what it was given.
    pub fn deadline_for(&self, input_bytes: usize) -> Duration {
        self.deadline.mul_f64((input_bytes as f64 / MIB).max(1.0))
    }
}

/// Enforces [`PluginLimits`] on one store and remembers which cap was hit, so
/// the failure can be reported as "memory cap exceeded" rather than a bare trap.
pub struct CallLimiter {
    memory_cap: usize,
    memory_in_use: usize,
    table_elements: usize,
    instances: usize,
    tables: usize,
    memories: usize,
    /// Set when a memory grow was refused.
    pub memory_exceeded: bool,
}

impl CallLimiter {
    /// A limiter for one call under `limits`.
    pub fn new(limits: &PluginLimits) -> Self {
        Self {
            memory_cap: limits.memory_bytes,
            memory_in_use: 0,
            table_elements: limits.table_elements,
            instances: limits.instances,
            tables: limits.tables,
            memories: limits.memories,
            memory_exceeded: false,
        }
    }
}

impl wasmtime::ResourceLimiter for CallLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let total = self.memory_in_use - current.min(self.memory_in_use) + desired;
        if total > self.memory_cap {
            self.memory_exceeded = true;
            return Err(wasmtime::Error::msg(format!(
                "memory cap of {} MiB exceeded",
                self.memory_cap >> 20
            )));
        }
        self.memory_in_use = total;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.table_elements {
            return Err(wasmtime::Error::msg(format!(
                "table cap of {} elements exceeded",
                self.table_elements
            )));
        }
        Ok(true)
    }

    fn instances(&self) -> usize {
        self.instances
    }

    fn tables(&self) -> usize {
        self.tables
    }

    fn memories(&self) -> usize {
        self.memories
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_holds_per_mib_of_a_larger_input() {
        let limits = PluginLimits::default();
        assert_eq!(limits.deadline_for(0), limits.deadline);
        assert_eq!(limits.deadline_for(1 << 20), limits.deadline);
        assert_eq!(limits.deadline_for(4 << 20), limits.deadline * 4);
    }
}
