//! Recognising stack frames in the trace formats of Python, Java/Kotlin,
//! JavaScript/Node, .NET, Rust, Go, Elixir, PHP, Ruby, Common Lisp (SBCL),
//! Scheme (Guile) and native code (gdb, the sanitizers), and telling project code from
//! library, framework and runtime code.

/// One recognised stack frame line.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// What to group library frames by: a package, crate, module or app.
    pub package: String,
    /// Whether the frame is in library, framework or runtime code.
    pub library: bool,
    /// How many lines after this one belong to the frame (a Python source
    /// line and its carets, a Rust or Go `at path:line`).
    pub extra_lines: usize,
    /// A key identifying the frame's location, to spot recursion.
    pub key: String,
    /// Whether its trace lists the innermost call last (Python) rather
    /// than first (the JVM, Node, Rust, Go).
    pub innermost_last: bool,
    /// The source file, where the format names one plainly (Python).
    pub file: Option<String>,
}

impl Frame {
    /// A frame on a line of its own, in a trace listing the innermost call
    /// first (the JVM, Node, .NET, PHP, Ruby, Elixir).
    fn one_line(package: String, library: bool, key: String) -> Self {
        Self {
            package,
            library,
            extra_lines: 0,
            key,
            innermost_last: false,
            file: None,
        }
    }
}

/// Java/Kotlin/Scala package prefixes that are libraries or the runtime.
const JVM_LIBRARY: &[&str] = &[
    "java.",
    "javax.",
    "jdk.",
    "sun.",
    "com.sun.",
    "kotlin.",
    "kotlinx.",
    "scala.",
    "clojure.",
    "org.junit.",
    "junit.",
    "org.apache.",
    "org.springframework.",
    "org.gradle.",
    "org.codehaus.",
    "org.eclipse.",
    "com.google.inject.",
    "org.testng.",
    "net.bytebuddy.",
    "org.mockito.",
    "io.netty.",
    "reactor.",
    "hudson.",
    "jenkins.",
    "org.jenkinsci.",
    "akka.",
    "worker.org.gradle.",
    "org.hibernate.",
    // .NET: `at System.Linq.Enumerable.First(…)`.
    "System.",
    "Microsoft.",
];

/// Elixir/Erlang applications that are the runtime or common frameworks.
const BEAM_LIBRARY: &[&str] = &[
    "elixir",
    "stdlib",
    "kernel",
    "ex_unit",
    "mix",
    "iex",
    "logger",
    "phoenix",
    "plug",
    "ecto",
    "ecto_sql",
    "cowboy",
    "ranch",
    "postgrex",
    "db_connection",
    "telemetry",
    "jason",
];

/// Recognises `lines[i]` as a frame, looking ahead for lines that belong to it.
pub fn parse(lines: &[&str], i: usize) -> Option<Frame> {
    let line = lines[i];
    let t = line.trim_start();
    python(lines, i, t)
        .or_else(|| jvm_or_js(t))
        // Before Rust's: V8's ` 1: 0xb78db3 node::OOMErrorHandler(…)
        // [node]` is numbered as Rust's ` 1: core::panicking::panic_fmt`.
        .or_else(|| native(t))
        // Before Rust's too: SBCL's `13: (SB-IMPL::PROCESS-SCRIPT …)` is
        // numbered as Rust's frames are and names its packages with `::`.
        .or_else(|| lisp_counted(t))
        .or_else(|| rust(lines, i, t))
        .or_else(|| go(lines, i, line))
        .or_else(|| elixir(t))
        .or_else(|| php(t))
        .or_else(|| ruby(t))
        .or_else(|| clojure_data(t))
        .or_else(|| guile_file(lines, i))
}

/// The calls Guile's backtrace lists under the file they were made in
/// (`In ice-9/boot-9.scm:`, then `   222:17  2 (map1 ((42)))`, counted
/// down to the innermost, 0, at the bottom), read as one frame: the file
/// and its calls. A script's file is named by its path from the root
/// (`In /src/prices.scm:`); Guile's own modules by their path on its load
/// path (`ice-9/`, `system/`), and calls with no file (`In unknown
/// file:`) are the runtime's: those are library frames.
fn guile_file(lines: &[&str], i: usize) -> Option<Frame> {
    let file = ghost_log_folding::counted_calls::file_above(lines[i], lines.get(i + 1)?)?;
    let calls = lines[i + 1..]
        .iter()
        .take_while(|l| ghost_log_folding::counted_calls::number(l).is_some())
        .count();
    Some(Frame {
        package: file.to_string(),
        library: !file.starts_with('/'),
        extra_lines: calls,
        key: format!("{file} {}", lines[i + 1].trim()),
        innermost_last: true,
        file: Some(file.to_string()),
    })
}

/// SBCL's backtrace frame, innermost first and counted from 0: `4:
/// (PARSE-AMOUNT "n/a")`, `11: ((LABELS SB-FASL::EVAL-FORM :IN
/// SB-INT:LOAD-AS-SOURCE) …)`. The script's own functions print bare (they
/// are in the package it runs in); the implementation's are qualified by
/// theirs (`SB-IMPL::PROCESS-SCRIPT`), and those are library frames.
fn lisp_counted(t: &str) -> Option<Frame> {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let call = t[digits..].strip_prefix(": (").filter(|_| digits > 0)?;
    // The called function, or the head of a local one (`(FLET NAME :IN
    // OWNER)`): up to the first space, or the head's closing parenthesis.
    let head = match call.strip_prefix('(') {
        Some(local) => &local[..local.find(')')?],
        None => &call[..call.find([' ', ')']).unwrap_or(call.len())],
    };
    if head.is_empty() {
        return None;
    }
    let qualified = |symbol: &str| symbol.find(':').is_some_and(|at| at > 0);
    let package = head
        .split(' ')
        .map(|s| s.trim_start_matches('('))
        .find(|s| qualified(s))
        .and_then(|s| s.split(':').next());
    Some(Frame::one_line(
        package.unwrap_or(head).to_string(),
        package.is_some(),
        head.to_string(),
    ))
}

/// A frame of Clojure's report as data (`--report stderr`, its `:trace`):
/// `[shop.cart$price invokeStatic "cart.clj" 13]`, the vector's brackets
/// and commas around it (`[[…]`, `…]],`), innermost first.
fn clojure_data(t: &str) -> Option<Frame> {
    let inner = t.strip_prefix('[')?.trim_start_matches('[');
    let inner = inner.trim_end_matches([']', ',', '}']);
    if !t.trim_end_matches([',', '}']).ends_with(']') {
        return None;
    }
    let parts: Vec<&str> = inner.split(' ').collect();
    let [class, method, file, line] = parts[..] else {
        return None;
    };
    let quoted = file.len() > 2 && file.starts_with('"') && file.ends_with('"');
    if !quoted || line.parse::<i64>().is_err() || !class.contains('.') || method.is_empty() {
        return None;
    }
    let library = JVM_LIBRARY.iter().any(|p| class.starts_with(p));
    let package = class
        .split(['.', '$'])
        .take(2)
        .collect::<Vec<_>>()
        .join(".");
    Some(Frame::one_line(
        package,
        library,
        format!("{class} {method} {file}"),
    ))
}

/// `from /usr/lib/ruby/gems/3.1.0/gems/rack-3.0.8/lib/rack/builder.rb:12:in
/// 'call'` (Ruby, innermost first; the first line, `app.rb:2:in '/':
/// message (Error)`, is the exception's and stays as it is).
fn ruby(t: &str) -> Option<Frame> {
    let rest = t.strip_prefix("from ")?;
    let (place, _) = rest.split_once(":in ")?;
    let path = place.rsplit_once(':').map_or(place, |(path, _)| path);
    let gem = path
        .split_once("/gems/")
        .and_then(|(_, after)| after.split('/').find(|seg| seg.contains('-')))
        .map(|seg| {
            seg.rsplit_once('-')
                .map_or(seg, |(name, _)| name)
                .to_string()
        });
    let stdlib = path.contains("/lib/ruby/") && gem.is_none();
    let library = gem.is_some() || stdlib || path.starts_with("<internal:");
    let package = match gem {
        Some(g) => g,
        None if library => "Ruby".to_string(),
        None => path.to_string(),
    };
    Some(Frame::one_line(package, library, rest.to_string()))
}

/// A native frame, innermost first: the sanitizers' `#0 0x55ffca782223 in
/// sum /tmp/t/heap.c:6`, ThreadSanitizer's `#0 count /tmp/race.c:8
/// (race+0x11d9)`, gdb's `#1  main () at seg.c:14`, valgrind's `by
/// 0x1092DC: main (t07.c:13)`, read as the log compressor reads them (see
/// [`ghost_log_folding::native_trace`]: which frames are the system's, the
/// C library's or a sanitizer's).
fn native(t: &str) -> Option<Frame> {
    let frame = ghost_log_folding::native_trace::parse(t)?;
    let package = frame.place.rsplit('/').next().unwrap_or(frame.place);
    Some(Frame::one_line(
        package.to_string(),
        frame.library,
        format!("{} {}", frame.function, frame.place),
    ))
}

/// `#1 /app/vendor/laravel/framework/src/Router.php(693): run()`,
/// `#0 [internal function]: price()`, `#3 {main}` (PHP, innermost first).
fn php(t: &str) -> Option<Frame> {
    let rest = t.strip_prefix('#')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let frame = rest[digits..].strip_prefix(' ')?;
    if frame == "{main}" {
        return Some(Frame::one_line(
            "{main}".to_string(),
            false,
            frame.to_string(),
        ));
    }
    let (place, _call) = frame.split_once("): ").or_else(|| {
        frame
            .strip_prefix("[internal function]: ")
            .map(|call| ("[internal function]", call))
    })?;
    let path = place.rsplit_once('(').map_or(place, |(path, _)| path);
    let vendor = path.split_once("/vendor/").map(|(_, after)| after);
    let library = vendor.is_some() || path == "[internal function]";
    let package = match vendor {
        Some(after) => after.split('/').take(2).collect::<Vec<_>>().join("/"),
        None if library => "PHP".to_string(),
        None => path.to_string(),
    };
    Some(Frame::one_line(package, library, place.to_string()))
}

/// `  File "/usr/lib/python3.11/copy.py", line 153, in deepcopy`
fn python(lines: &[&str], i: usize, t: &str) -> Option<Frame> {
    let rest = t.strip_prefix("File \"")?;
    let (path, rest) = rest.split_once('"')?;
    let line_no = rest.split(", line ").nth(1)?.split(',').next()?.trim();
    let func = rest.split(", in ").nth(1).unwrap_or("").trim();
    let library = path.contains("/site-packages/")
        || path.contains("/dist-packages/")
        || path.starts_with("<frozen")
        // Code a library compiled at run time (`six.raise_from`'s
        // `<string>`); the user's own is `<stdin>` or a file.
        || path == "<string>"
        || is_python_stdlib(path);
    let package = if library {
        path.rsplit_once("-packages/")
            .map(|(_, p)| {
                p.split('/')
                    .next()
                    .unwrap_or(p)
                    .trim_end_matches(".py")
                    .to_string()
            })
            .unwrap_or_else(|| "the standard library".to_string())
    } else {
        path.to_string()
    };
    // The source line and caret lines printed under the frame, more indented.
    let indent = lines[i].len() - t.len();
    let mut extra = 0;
    while let Some(next) = lines.get(i + 1 + extra) {
        let next_indent = next.len() - next.trim_start().len();
        if next.trim().is_empty()
            || next_indent <= indent
            || next.trim_start().starts_with("File \"")
        {
            break;
        }
        extra += 1;
    }
    Some(Frame {
        package,
        library,
        extra_lines: extra,
        key: format!("{path}:{line_no}:{func}"),
        innermost_last: true,
        file: Some(path.to_string()),
    })
}

fn is_python_stdlib(path: &str) -> bool {
    // /usr/lib/python3.11/copy.py, ~/.pyenv/versions/3.11.7/lib/python3.11/asyncio/tasks.py
    path.split('/')
        .any(|seg| seg.starts_with("python3") || seg.starts_with("python2"))
        && path.contains("/lib/")
}

/// `at org.example.Foo.bar(Foo.java:12)` (JVM; .NET and Mono alike, Mono's
/// `at (wrapper delegate-invoke) System.Func…` glue the runtime's) or
/// `at fn (/app/node_modules/pkg/index.js:1:2)` / `at /app/src/x.js:3:4` (Node).
fn jvm_or_js(t: &str) -> Option<Frame> {
    let rest = t.strip_prefix("at ")?;
    if rest.contains("node_modules/")
        || rest.contains("node:")
        || rest.contains(".js:")
        || rest.contains(".ts:")
        || rest.contains(".mjs:")
    {
        let library = rest.contains("node_modules/")
            || rest.contains("node:internal")
            || rest.starts_with("node:");
        let package = if let Some((_, after)) = rest.rsplit_once("node_modules/") {
            let mut parts = after.split('/');
            let first = parts.next().unwrap_or("");
            if first.starts_with('@') {
                format!("{first}/{}", parts.next().unwrap_or(""))
            } else {
                first.to_string()
            }
        } else if library {
            "node".to_string()
        } else {
            "project".to_string()
        };
        return Some(Frame::one_line(package, library, rest.to_string()));
    }
    // Mono's own glue between frames: `at (wrapper managed-to-native)
    // System.Reflection.RuntimeMethodInfo.InternalInvoke(…)`.
    if let Some(glue) = rest.strip_prefix("(wrapper ") {
        let call = glue.split_once(") ").map_or("", |(_, call)| call);
        let name = call.split(['`', '[', '(']).next().unwrap_or(call);
        let package = name.split('.').take(2).collect::<Vec<_>>().join(".");
        return Some(Frame::one_line(package, true, rest.to_string()));
    }
    // JVM: qualified.name.method(Source:line) — possibly "at a.b.C.m (C.java:3)".
    let name = rest.split(['(', ' ']).next()?;
    if !name.contains('.') || !rest.contains('(') {
        return None;
    }
    let library = JVM_LIBRARY.iter().any(|p| name.starts_with(p));
    let package = name.split('.').take(2).collect::<Vec<_>>().join(".");
    Some(Frame::one_line(package, library, rest.to_string()))
}

/// `   3: std::panicking::begin_panic` followed by `at /rustc/…/panicking.rs:616:12`.
fn rust(lines: &[&str], i: usize, t: &str) -> Option<Frame> {
    let (num, symbol) = t.split_once(": ")?;
    if num.is_empty()
        || !num.bytes().all(|b| b.is_ascii_digit())
        || !symbol.contains("::") && !symbol.starts_with('<')
    {
        return None;
    }
    let location = lines
        .get(i + 1)
        .map(|l| l.trim_start())
        .filter(|l| l.starts_with("at "));
    let path = location.unwrap_or("");
    let crate_name = symbol
        .trim_start_matches('<')
        .split("::")
        .next()
        .unwrap_or(symbol)
        .to_string();
    let library = matches!(
        crate_name.as_str(),
        "std"
            | "core"
            | "alloc"
            | "__rust_begin_short_backtrace"
            | "__rust_end_short_backtrace"
            | "test"
            | "tokio"
            | "futures"
            | "rayon"
            | "rayon_core"
    ) || path.contains("/rustc/")
        || path.contains(".cargo/registry");
    Some(Frame {
        package: crate_name,
        library,
        extra_lines: usize::from(location.is_some()),
        key: symbol.to_string(),
        innermost_last: false,
        file: None,
    })
}

/// `main.main()` followed by `\t/home/u/app/main.go:5 +0x1d`.
fn go(lines: &[&str], i: usize, line: &str) -> Option<Frame> {
    if line.starts_with([' ', '\t']) || !line.trim_end().ends_with(')') || !line.contains('(') {
        return None;
    }
    let next = lines.get(i + 1)?;
    // Go code (`.go:`) or the runtime's assembly (`asm_amd64.s:570`).
    if !next.starts_with('\t') || !(next.contains(".go:") || next.contains(".s:")) {
        return None;
    }
    let func = line.split('(').next().unwrap_or(line);
    let path = next.trim();
    // `main.go:5 +0x1c fp=0xc0… sp=0xc0… pc=0x48…`: the place is the line
    // and the offset in the function (the call that recursed, or the check
    // that overflowed); the frame and stack pointers differ in every call.
    let place: Vec<&str> = path.split_whitespace().take(2).collect();
    let place = place.join(" ");
    let package = func.rsplit_once('.').map_or(func, |(p, _)| p).to_string();
    let library = path.contains("/go/src/")
        || path.contains("/pkg/mod/")
        || func.starts_with("runtime.")
        || func.starts_with("testing.");
    Some(Frame {
        package,
        library,
        extra_lines: 1,
        key: format!("{func} {place}"),
        innermost_last: false,
        file: None,
    })
}

/// `    (elixir 1.14.0) lib/enum.ex:1658: Enum."-map/2-lists^map/1-0-"/2`
fn elixir(t: &str) -> Option<Frame> {
    let rest = t.strip_prefix('(')?;
    let (app, rest) = rest.split_once(')')?;
    let app_name = app.split_whitespace().next()?;
    if !rest.contains(':') {
        return None;
    }
    let library = BEAM_LIBRARY.contains(&app_name) || rest.trim_start().starts_with("deps/");
    Some(Frame::one_line(
        app_name.to_string(),
        library,
        rest.trim().to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(text: &str) -> Frame {
        let lines: Vec<&str> = text.lines().collect();
        parse(&lines, 0).expect("a frame")
    }

    #[test]
    fn recognises_each_language() {
        let py = frame(
            "  File \"/usr/lib/python3.11/json/decoder.py\", line 355, in raw_decode\n    raise JSONDecodeError(\"x\")\n    ^^^^\nValueError: x",
        );
        assert!(py.library);
        assert_eq!(py.extra_lines, 2);
        let own = frame("  File \"/home/me/app/main.py\", line 3, in <module>");
        assert!(!own.library);
        assert!(frame("\tat java.lang.Thread.run(Thread.java:834)").library);
        assert!(!frame("\tat com.acme.Billing.charge(Billing.java:42)").library);
        let node =
            frame("    at Object.<anonymous> (/app/node_modules/express/lib/router.js:10:5)");
        assert_eq!((node.package.as_str(), node.library), ("express", true));
        assert!(!frame("    at main (/app/src/index.js:3:9)").library);
        let rs = frame(
            "   3: std::panicking::begin_panic\n             at /rustc/abc/library/std/src/panicking.rs:616:12",
        );
        assert!(rs.library && rs.extra_lines == 1);
        assert!(!frame("   9: myapp::run\n             at ./src/main.rs:4:5").library);
        assert!(
            frame("runtime.gopanic(0x1)\n\t/usr/local/go/src/runtime/panic.go:914 +0x21f").library
        );
        assert!(!frame("main.main()\n\t/home/me/app/main.go:5 +0x1d").library);
        assert!(frame("    (elixir 1.14.0) lib/enum.ex:1658: Enum.map/2").library);
        assert!(!frame("    (my_app 0.1.0) lib/my_app.ex:5: MyApp.run/0").library);
        let php =
            frame("#4 /app/vendor/laravel/framework/src/Illuminate/Routing/Router.php(693): run()");
        assert_eq!(
            (php.package.as_str(), php.library),
            ("laravel/framework", true)
        );
        assert!(!frame("#1 /app/src/Order.php(6): array_map()").library);
        assert!(frame("#0 [internal function]: price()").library);
        let rb = frame(
            "\tfrom /usr/lib/ruby/gems/3.1.0/gems/rack-3.0.8/lib/rack/builder.rb:12:in `call'",
        );
        assert_eq!((rb.package.as_str(), rb.library), ("rack", true));
        assert!(!frame("\tfrom app.rb:6:in `report'").library);
        assert!(frame("   at System.Linq.Enumerable.First[TSource](IEnumerable`1 source)").library);
        // Clojure's report as data.
        let clj = frame("  [[shop.cart$price invokeStatic \"cart.clj\" 13]");
        assert_eq!((clj.package.as_str(), clj.library), ("shop.cart", false));
        assert!(frame("   [clojure.main main \"main.java\" 40]],").library);
        // Mono: its IL offset before the place, and its glue between frames.
        assert!(
            !frame("  at Shop.Orders.Price (System.Int32 id) [0x00025] in /src/app/Orders.cs:20 ")
                .library
        );
        let glue = frame(
            "  at (wrapper delegate-invoke) System.Func`2[System.String,System.Decimal].invoke_TResult_T(string)",
        );
        assert_eq!((glue.package.as_str(), glue.library), ("System.Func", true));
    }

    #[test]
    fn native_frames_tell_the_program_from_the_system() {
        let own = frame("    #0 0x55ffca782223 in sum /tmp/t/heap.c:6");
        assert_eq!((own.package.as_str(), own.library), ("heap.c", false));
        // clang's sanitizers add the column.
        let clang = frame("    #1 0x4f5a1c in main /src/app/heap.c:13:5");
        assert_eq!((clang.package.as_str(), clang.library), ("heap.c", false));
        assert!(
            frame("    #1 0x7f3b29e45304 in __libc_start_main_impl ../csu/libc-start.c:360")
                .library
        );
        assert!(frame("    #0 0x7f32e9ab89cf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69").library);
        let start = frame("    #4 0x55ffca7820f0 in _start (/tmp/t/heap+0x10f0)");
        assert_eq!((start.package.as_str(), start.library), ("heap", true));
        assert!(frame("    #3 0x7f3b29e29d90 (/lib/x86_64-linux-gnu/libc.so.6+0x29d90)").library);
        assert!(!frame("#0  0x0000555555555161 in total (n=0x0) at seg.c:8").library);
        assert!(!frame("#1  main () at seg.c:14").library);
        let libc = frame(
            "#2  0x00007ffff7c29d90 in __libc_start_call_main () from /lib/x86_64-linux-gnu/libc.so.6",
        );
        assert_eq!((libc.package.as_str(), libc.library), ("libc.so.6", true));
        // Frames of the same call differ only in their addresses.
        assert_eq!(
            frame("#5  0x1 in walk (n=0x2) at tree.c:9").key,
            frame("#6  0x3 in walk (n=0x4) at tree.c:9").key
        );
        let tsan = frame("    #0 count /tmp/race.c:8 (race+0x11d9)");
        assert_eq!((tsan.package.as_str(), tsan.library), ("race.c", false));
        assert!(frame("    #0 pthread_create ../../../../src/libsanitizer/tsan/tsan_interceptors_posix.cpp:1001 (libtsan.so.2+0x5e686)").library);
        // PHP's frames are not native ones.
        assert_eq!(
            frame("#1 /app/src/Order.php(6): array_map()").package,
            "/app/src/Order.php"
        );
    }
}
