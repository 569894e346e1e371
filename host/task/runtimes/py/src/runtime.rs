//! The interpreter, the globals a script gets, and the run.

use rustpython::InterpreterBuilderExt;
use rustpython_vm::compiler::Mode;
use rustpython_vm::{InterpreterBuilder, PyResult, Settings, VirtualMachine};

/// The variable ghost sets to the task's scratch directory (the same as
/// `ghost_task::SCRATCH_VAR`, which a guest cannot depend on).
const SCRATCH_VAR: &str = "GHOST_TASK_SCRATCH";

/// The name the script runs under (its `sys.argv[0]` and tracebacks).
const SCRIPT_NAME: &str = "<task>";

/// Runs the script its arguments name; returns the exit code.
pub fn main() -> i32 {
    let argv: Vec<String> = std::env::args().collect();
    let (code, rest) = match argv.get(1).map(String::as_str) {
        Some("--eval") if argv.len() > 2 => (argv[2].clone(), argv[3..].to_vec()),
        _ => {
            eprintln!("usage: ghost_task_py --eval CODE [ARGS…]");
            return 2;
        }
    };
    let mut settings = Settings::default();
    settings.argv = std::iter::once(SCRIPT_NAME.to_string())
        .chain(rest.iter().cloned())
        .collect();
    // No site packages, no PYTHON* variables: the task gets what ghost
    // gives it and the frozen standard library.
    settings.import_site = false;
    settings.ignore_environment = true;
    settings.safe_path = true;
    let builder = InterpreterBuilder::new().settings(settings).init_stdlib();
    let ghost_module = ghost::module_def(&builder.ctx);
    let interpreter = builder.add_native_module(ghost_module).interpreter();
    let code_ = code.clone();
    interpreter.run(move |vm| run_script(vm, &code_, &rest)) as i32
}

/// Compiles and runs `code` in a fresh `__main__` scope with the task's
/// globals.
fn run_script(vm: &VirtualMachine, code: &str, args: &[String]) -> PyResult<()> {
    let scope = vm.new_scope_with_builtins();
    scope
        .globals
        .set_item("__name__", vm.ctx.new_str("__main__").into(), vm)?;
    let args = args
        .iter()
        .map(|a| vm.ctx.new_str(a.as_str()).into())
        .collect();
    scope
        .globals
        .set_item("args", vm.ctx.new_list(args).into(), vm)?;
    let scratch = match std::env::var(SCRATCH_VAR) {
        Ok(dir) => vm.ctx.new_str(dir).into(),
        Err(_) => vm.ctx.none(),
    };
    scope.globals.set_item("scratch", scratch, vm)?;
    let compiled = vm
        .compile(code, Mode::Exec, SCRIPT_NAME.to_string())
        .map_err(|e| vm.new_syntax_error(&e, Some(code)))?;
    vm.run_code_obj(compiled, scope).map(drop)
}

/// The `ghost` module: what a task gets beyond the standard library.
#[rustpython_vm::pymodule]
mod ghost {
    use rustpython_vm::builtins::PyBytesRef;
    use rustpython_vm::function::ArgStrOrBytesLike;
    use rustpython_vm::{PyResult, VirtualMachine};

    /// `tcp_request(addr, data)`: sends `data` to `addr` (`ip:port`, a
    /// granted address), closes its side, returns the whole answer.
    #[pyfunction]
    fn tcp_request(
        addr: String,
        data: ArgStrOrBytesLike,
        vm: &VirtualMachine,
    ) -> PyResult<PyBytesRef> {
        let bytes = data.borrow_bytes().to_vec();
        let answer = crate::net::tcp_request(&addr, &bytes).map_err(|e| vm.new_os_error(e))?;
        Ok(vm.ctx.new_bytes(answer))
    }
}
