//! The engine, the host functions a script gets, and the run.

use std::io::{Read, Write};

use boa_engine::object::ObjectInitializer;
use boa_engine::property::Attribute;
use boa_engine::{
    Context, JsError, JsNativeError, JsResult, JsString, JsValue, NativeFunction, Source, js_string,
};

/// The variable ghost sets to the task's scratch directory (the same as
/// `ghost_task::SCRATCH_VAR`, which a guest cannot depend on).
const SCRATCH_VAR: &str = "GHOST_TASK_SCRATCH";

/// Runs the script its arguments name; returns the exit code.
pub fn main() -> i32 {
    let argv: Vec<String> = std::env::args().collect();
    let (code, rest) = match argv.get(1).map(String::as_str) {
        Some("--eval") if argv.len() > 2 => (argv[2].clone(), &argv[3..]),
        _ => {
            eprintln!("usage: ghost_task_js --eval CODE [ARGS…]");
            return 2;
        }
    };
    let mut ctx = Context::default();
    if let Err(e) = install(&mut ctx, rest) {
        eprintln!("ghost_task_js: {e}");
        return 2;
    }
    let outcome = ctx.eval(Source::from_bytes(code.as_bytes()));
    let _ = ctx.run_jobs();
    let _ = std::io::stdout().flush();
    match outcome {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("Uncaught {}", describe(&e, &mut ctx));
            1
        }
    }
}

fn describe(e: &JsError, ctx: &mut Context) -> String {
    match e.try_native(ctx) {
        Ok(native) => native.to_string(),
        Err(_) => e.to_string(),
    }
}

/// The global functions and values a script gets.
fn install(ctx: &mut Context, args: &[String]) -> JsResult<()> {
    let globals: [(&str, usize, NativeFunction); 5] = [
        ("print", 0, NativeFunction::from_fn_ptr(print_out)),
        ("readFile", 1, NativeFunction::from_fn_ptr(read_file)),
        ("writeFile", 2, NativeFunction::from_fn_ptr(write_file)),
        ("readStdin", 0, NativeFunction::from_fn_ptr(read_stdin)),
        ("tcpRequest", 2, NativeFunction::from_fn_ptr(tcp_request)),
    ];
    for (name, length, f) in globals {
        ctx.register_global_callable(JsString::from(name), length, f)?;
    }
    let console = ObjectInitializer::new(ctx)
        .function(NativeFunction::from_fn_ptr(print_out), js_string!("log"), 0)
        .function(
            NativeFunction::from_fn_ptr(print_out),
            js_string!("info"),
            0,
        )
        .function(
            NativeFunction::from_fn_ptr(print_err),
            js_string!("error"),
            0,
        )
        .function(
            NativeFunction::from_fn_ptr(print_err),
            js_string!("warn"),
            0,
        )
        .build();
    ctx.register_global_property(js_string!("console"), console, Attribute::all())?;
    let list: Vec<JsValue> = args
        .iter()
        .map(|a| JsValue::from(JsString::from(a.as_str())))
        .collect();
    let array = boa_engine::object::builtins::JsArray::from_iter(list, ctx);
    ctx.register_global_property(js_string!("args"), array, Attribute::all())?;
    // Where the task may write, when ghost gave it a scratch directory.
    let scratch = std::env::var(SCRATCH_VAR).map_or(JsValue::undefined(), |dir| {
        JsValue::from(JsString::from(dir.as_str()))
    });
    ctx.register_global_property(js_string!("scratch"), scratch, Attribute::all())?;
    Ok(())
}

fn joined(args: &[JsValue], ctx: &mut Context) -> JsResult<String> {
    let mut parts = Vec::with_capacity(args.len());
    for a in args {
        parts.push(if let Some(s) = a.as_string() {
            s.to_std_string_escaped()
        } else {
            a.display().to_string()
        });
    }
    let _ = ctx;
    Ok(parts.join(" "))
}

fn print_out(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let line = joined(args, ctx)?;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
    Ok(JsValue::undefined())
}

fn print_err(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let line = joined(args, ctx)?;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
    Ok(JsValue::undefined())
}

fn string_arg(args: &[JsValue], i: usize, what: &str, ctx: &mut Context) -> JsResult<String> {
    match args.get(i) {
        Some(v) => Ok(v.to_string(ctx)?.to_std_string_escaped()),
        None => Err(JsNativeError::typ()
            .with_message(format!("{what} is required"))
            .into()),
    }
}

fn io_error(path: &str, e: std::io::Error) -> JsError {
    JsNativeError::error()
        .with_message(format!("{path}: {e} (is it inside a granted directory?)"))
        .into()
}

fn read_file(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let path = string_arg(args, 0, "readFile(path): path", ctx)?;
    let text = std::fs::read_to_string(&path).map_err(|e| io_error(&path, e))?;
    Ok(JsValue::from(JsString::from(text.as_str())))
}

fn write_file(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let path = string_arg(args, 0, "writeFile(path, text): path", ctx)?;
    let text = string_arg(args, 1, "writeFile(path, text): text", ctx)?;
    std::fs::write(&path, text).map_err(|e| io_error(&path, e))?;
    Ok(JsValue::undefined())
}

fn tcp_request(_: &JsValue, args: &[JsValue], ctx: &mut Context) -> JsResult<JsValue> {
    let addr = string_arg(args, 0, "tcpRequest(addr, data): addr", ctx)?;
    let data = string_arg(args, 1, "tcpRequest(addr, data): data", ctx)?;
    let answer = crate::net::tcp_request(&addr, data.as_bytes())
        .map_err(|e| JsError::from(JsNativeError::error().with_message(e)))?;
    Ok(JsValue::from(JsString::from(
        String::from_utf8_lossy(&answer).as_ref(),
    )))
}

fn read_stdin(_: &JsValue, _: &[JsValue], _: &mut Context) -> JsResult<JsValue> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| io_error("stdin", e))?;
    Ok(JsValue::from(JsString::from(text.as_str())))
}
