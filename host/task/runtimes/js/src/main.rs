//! ghost's JavaScript task runtime: `ghost_task_js --eval CODE [ARGS…]`
//! runs CODE (ECMAScript, the boa engine) inside the task sandbox. The
//! script sees only its task's grants, through:
//!
//! - `print(…)`, `console.log(…)` (stdout), `console.error(…)` (stderr);
//! - `readFile(path)` → string, `writeFile(path, text)`, `readStdin()`;
//! - `tcpRequest("ip:port", data)` → the answer (to a granted address);
//! - `args`: the arguments after the code;
//! - `scratch`: the directory it may write into, when it has one.
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
    eprintln!("ghost_task_js runs as a WebAssembly component: use `ghost task run --js FILE`");
    std::process::exit(2);
}
