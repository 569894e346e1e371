//! ghost's Python task runtime: `ghost_task_py --eval CODE [ARGS…]` runs
//! CODE (Python 3, the RustPython interpreter with its standard library
//! frozen in) inside the task sandbox. The script sees only its task's
//! grants, through the standard library (`open`, `os`, `sys.stdin`,
//! `socket`…) and two globals:
//!
//! - `args`: the arguments after the code (also `sys.argv[1:]`);
//! - `scratch`: the directory it may write into, when it has one;
//!
//! and a module, `ghost`, with `tcp_request("ip:port", data: bytes | str)` →
//! the answer as bytes (to a granted address: RustPython has no `socket`
//! module under WASI).
//!
//! An uncaught exception is printed on stderr and the task fails.

#[cfg(target_arch = "wasm32")]
#[path = "../../net.rs"]
mod net;
#[cfg(target_arch = "wasm32")]
mod runtime;

#[cfg(target_arch = "wasm32")]
fn main() {
    std::process::exit(runtime::main());
}

/// Natively there is nothing to run: the runtime exists as a component.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("ghost_task_py runs as a WebAssembly component: use `ghost task run --py FILE`");
    std::process::exit(2);
}
