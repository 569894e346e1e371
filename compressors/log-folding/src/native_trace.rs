//! Native stack traces, as the sanitizers (`    #3 0x4f2a in eval
//! /src/expr.c:69`), gdb (`#1  0x… in value_len (s=0x0) at src/conf.c:6`)
//! valgrind (`==412==    by 0x1092DC: main (t07.c:13)`) and V8 (` 2:
//! 0xee8300 v8::Utils::ReportOOMFailure(…) [node]`) print them,
//! innermost first, whatever a log puts before them.
//!
//! Inside a log the frames any trace keeps stay (see [`crate::trace`]):
//! the innermost, where it failed, and the project's own frames, but for
//! the middle of a long trace. Not among them: the runtime's and the C
//! library's frames, and the sanitizer's own (its sources are
//! `compiler-rt` under clang, `libsanitizer` under gcc), which name no
//! code of the project. Those are left to the usual rules, as a failing
//! test's other frames are (see [`crate::failure_traces`]): in a failing
//! step's last lines they stay, elsewhere they fold where their shape was
//! shown. The error compressor reads frames by [`parse`] too.

use crate::search::Search;

use crate::markers::is_library_path;
use crate::pytest_tb::Role;
use crate::trace;

/// One native frame, as [`parse`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NativeFrame<'a> {
    /// The function's name, without arguments or template parameters'
    /// spaces (`eval`, `free_all_options`, `???`).
    pub function: &'a str,
    /// The source file, when the frame names one (`/src/expr.c`,
    /// `t07.c`), without line and column.
    pub source: Option<&'a str>,
    /// Where the frame is when no source is named: the module (`libc.so.6`
    /// of `(/lib/x86_64-linux-gnu/libc.so.6+0x2082f)`), else the place as
    /// printed.
    pub place: &'a str,
    /// Whether the frame is not the project's: the runtime's, the C
    /// library's, the sanitizer's, or one without a source file.
    pub library: bool,
    /// Whether the frame is a trace's innermost (`#0`, valgrind's `at`):
    /// a new trace starts there.
    pub starts_trace: bool,
}

/// Reads a line as a native frame (see the module's doc); a log's prefix
/// before it (`=  `, valgrind's `==412==`) is left out.
pub fn parse(line: &str) -> Option<NativeFrame<'_>> {
    let t = line.trim_ascii_start();
    let t = match t.strip_prefix("==") {
        Some(rest) => {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let after = rest[digits..].strip_prefix("==").filter(|_| digits > 0)?;
            return valgrind(after.trim_ascii_start());
        }
        None => t.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '#' && c != '('),
    };
    numbered(t).or_else(|| v8(t))
}

/// V8's frame as node prints it dying (`FATAL ERROR: Reached heap
/// limit`): its number from 1, the address, the function if known, the
/// module in brackets (`1: 0xb78db3 node::OOMErrorHandler(char const*)
/// [node]`, `10: 0x195e476  [node]`). None names a source file: each is
/// the runtime's.
fn v8(t: &str) -> Option<NativeFrame<'_>> {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let address = t[digits..].strip_prefix(": 0x").filter(|_| digits > 0)?;
    let hex = address.bytes().take_while(u8::is_ascii_hexdigit).count();
    let after = address[hex..].strip_prefix(' ').filter(|_| hex > 0)?;
    let (call, module) = after.strip_suffix(']')?.rsplit_around(" [")?;
    Some(frame_of(
        call.trim_ascii(),
        None,
        module,
        t[..digits] == *"1",
    ))
}

/// A sanitizer's or gdb's frame: `#N` then the address and `in`, or
/// (gdb, at a line's start) the call, or (ThreadSanitizer) the call with
/// its module and offset last.
fn numbered(t: &str) -> Option<NativeFrame<'_>> {
    let rest = t.strip_prefix('#')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !rest[digits..].starts_with(' ') {
        return None;
    }
    let frame = rest[digits..].trim_ascii_start();
    let (call, place) = match frame.strip_prefix("0x") {
        Some(address) => {
            let hex = address.bytes().take_while(u8::is_ascii_hexdigit).count();
            let after = address[hex..].strip_prefix(' ').filter(|_| hex > 0)?;
            match after.strip_prefix("in ") {
                Some(call) => split_call(call, true)?,
                None if after.starts_with('(') => ("", after),
                None => return None,
            }
        }
        None => match module_offset(frame) {
            Some(call) => split_call(call, true)?,
            // gdb's arguments in parentheses tell it from PHP's `#1
            // /app/x.php(6): f()`.
            None => split_call(frame, false).filter(|(call, _)| call.ends_with(')'))?,
        },
    };
    let source = (!place.starts_with('('))
        .then(|| trace::without_line_and_column(place))
        .filter(|path| !is_shared_object(path));
    Some(frame_of(
        call,
        source,
        module_of(place),
        rest[..digits] == *"0",
    ))
}

/// Valgrind's frame after its `==pid==`: `at 0x1091FE: slot (ring.c:15)`,
/// `by 0x48C1D8F: (below main) (libc_start_call_main.h:58)`, `at
/// 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck.so)`.
fn valgrind(t: &str) -> Option<NativeFrame<'_>> {
    let (starts_trace, rest) = match t.strip_prefix("at 0x") {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix("by 0x")?),
    };
    let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
    let call = rest[hex..].strip_prefix(": ").filter(|_| hex > 0)?;
    let (function, place) = match call.strip_suffix(')').and_then(|c| c.rsplit_around(" (")) {
        Some((function, place)) => (function, place),
        None => (call, ""),
    };
    let source = (!place.is_empty() && !place.starts_with("in "))
        .then(|| trace::without_line_and_column(place));
    let place = place.strip_prefix("in ").unwrap_or(place);
    let mut frame = frame_of(function, source, module_of(place), starts_trace);
    // `(below main)` is libc's start-up, whatever file it names.
    frame.library |= function.starts_with('(');
    Some(frame)
}

/// The frame of a call (`eval`, `value_len (s=0x0)`) at `source`, else
/// in `module`.
fn frame_of<'a>(
    call: &'a str,
    source: Option<&'a str>,
    module: &'a str,
    starts_trace: bool,
) -> NativeFrame<'a> {
    let function = call.split([' ', '(']).next().unwrap_or(call);
    let library = is_reserved(function) || source.is_none_or(is_runtime_source);
    NativeFrame {
        function,
        source,
        place: source.unwrap_or(module),
        library,
        starts_trace,
    }
}

/// A name C reserves for the implementation (`__libc_start_main`,
/// `_IO_puts`): the C library's or the compiler's.
fn is_reserved(function: &str) -> bool {
    function.starts_with("__")
        || function.starts_with('_') && function[1..].starts_with(|c: char| c.is_ascii_uppercase())
}

/// A source file of the system, the C library or a sanitizer: under
/// `/usr` or `/lib`, relative to gcc's build tree (`../../../../src/…`),
/// or in a sanitizer's runtime sources.
fn is_runtime_source(path: &str) -> bool {
    path.starts_with("/usr/")
        || path.starts_with("/lib")
        || path.starts_with("../")
        || path.has("/compiler-rt/")
        || path.has("/libsanitizer/")
        || is_library_path(path)
}

fn is_shared_object(path: &str) -> bool {
    path.ends_with(".so") || path.has(".so.")
}

/// The module a place names: `libc.so.6` of
/// `(/lib/x86_64-linux-gnu/libc.so.6+0x2082f)` or `/lib/libc.so.6`.
fn module_of(place: &str) -> &str {
    let path = place.trim_start_matches('(');
    let path = path.split('+').next().unwrap_or(path);
    path.rsplit('/').next().unwrap_or(path)
}

/// ThreadSanitizer's frame without its module and offset: `count
/// /tmp/race.c:8` of `count /tmp/race.c:8 (race+0x11d9)`.
fn module_offset(frame: &str) -> Option<&str> {
    let (call, module) = frame.strip_suffix(')')?.rsplit_around(" (")?;
    let (_, offset) = module.rsplit_around("+0x")?;
    (!offset.is_empty() && offset.bytes().all(|b| b.is_ascii_hexdigit())).then_some(call)
}

/// A native frame's call and place: gdb's `total (n=0x0) at seg.c:8` or
/// `f () from /lib/libc.so.6`, or (`last_word`, as the sanitizers print
/// them) `sum /tmp/t/heap.c:6`, the place being the last word.
fn split_call(call: &str, last_word: bool) -> Option<(&str, &str)> {
    call.rsplit_around(" at ")
        .or_else(|| call.rsplit_around(" from "))
        .or_else(|| call.rsplit_around(" ").filter(|_| last_word))
}

/// The role of every line of `contents` (timestamps removed): `Kept` for
/// the frames of a native trace that any trace keeps, `Whole` for its
/// other frames when the log affords them, `Other` elsewhere.
pub fn roles(contents: &[&str], allowance: &mut trace::Allowance) -> Vec<Role> {
    let mut roles = vec![Role::Other; contents.len()];
    let mut i = 0;
    while i < contents.len() {
        let Some(first) = parse(contents[i]) else {
            i += 1;
            continue;
        };
        // The trace: frames in a row, up to the next one's innermost.
        let mut library = vec![first.library];
        let mut end = i + 1;
        while let Some(frame) = contents.get(end).and_then(|c| parse(c)) {
            if frame.starts_trace {
                break;
            }
            library.push(frame.library);
            end += 1;
        }
        library.reverse();
        let bytes: Vec<usize> = contents[i..end].iter().rev().map(|c| c.len()).collect();
        let trace_roles = trace::frame_roles(&library, &bytes, allowance);
        for (role, frame_role) in roles[i..end].iter_mut().zip(trace_roles.into_iter().rev()) {
            *role = frame_role;
        }
        i = end;
    }
    roles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_sanitizers_gdbs_and_valgrinds_frames() {
        let asan = parse("    #4 0x1066974 in xfree /build/../src/nvim/memory.c:119:3").unwrap();
        assert_eq!(asan.function, "xfree");
        assert_eq!(asan.source, Some("/build/../src/nvim/memory.c"));
        assert!(!asan.library && !asan.starts_trace);
        let runtime = parse(
            "=     #0 0x455083 in atomic_compare_exchange_strong<__sanitizer::atomic_uint8_t> \
             /tmp/final/llvm.src/projects/compiler-rt/lib/asan/../sanitizer_common/sanitizer_atomic_clang.h:81:10",
        )
        .unwrap();
        assert!(runtime.library && runtime.starts_trace);
        let gdb = parse("#1  0x0000555555555185 in value_len (s=0x7fffffffe478) at src/conf.c:6")
            .unwrap();
        assert_eq!(
            (gdb.function, gdb.source),
            ("value_len", Some("src/conf.c"))
        );
        assert!(!gdb.library);
        let libc =
            parse("#0  __strlen_avx2 () at ../sysdeps/x86_64/multiarch/strlen-avx2.S:74").unwrap();
        assert!(libc.library && libc.starts_trace);
        let start =
            parse("    #9 0x7f3a in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x2082f)")
                .unwrap();
        assert_eq!(start.place, "libc.so.6");
        assert!(start.library);
        let by = parse("==27846==    by 0x1092DC: main (t07.c:13)").unwrap();
        assert_eq!((by.function, by.source), ("main", Some("t07.c")));
        assert!(!by.library && !by.starts_trace);
        let malloc = parse(
            "==27846==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)",
        )
        .unwrap();
        assert!(malloc.library && malloc.starts_trace);
        let below =
            parse("==1==    by 0x48C1D8F: (below main) (libc_start_call_main.h:58)").unwrap();
        assert!(below.library);
        let v8 =
            parse(" 1: 0xb78db3 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [node]")
                .unwrap();
        assert_eq!((v8.function, v8.place), ("node::OOMErrorHandler", "node"));
        assert!(v8.library && v8.starts_trace);
        let unnamed = parse("10: 0x195e476  [node]").unwrap();
        assert!(unnamed.library && !unnamed.starts_trace);
    }

    #[test]
    fn other_numbered_lines_are_not_frames() {
        for line in [
            "#1 /app/vendor/Router.php(693): run()",
            "#2 priority: fix the build",
            "==27846== Invalid read of size 4",
            "==27846==  Address 0x4a420a4 is 4 bytes after a block of size 16 alloc'd",
            "# 0x12 in nothing",
            "1: 0xff is the mask",
        ] {
            assert_eq!(parse(line), None, "{line}");
        }
    }

    #[test]
    fn a_long_trace_keeps_the_crash_and_where_the_project_was_entered_and_left() {
        // An ASan report: the sanitizer's frames innermost, then the
        // project's, ten deep, then libc's start-up.
        let mut log = vec![
            "==1==ERROR: AddressSanitizer: SEGV on unknown address".to_string(),
            "    #0 0x455083 in atomic_cas /llvm/compiler-rt/lib/asan/atomic.h:81:10".to_string(),
            "    #1 0x455084 in __interceptor_free /llvm/compiler-rt/lib/asan/malloc.cc:129"
                .to_string(),
        ];
        for k in 2..12 {
            log.push(format!(
                "    #{k} 0x4{k}0000 in step{k} /src/app/steps.c:{k}:3"
            ));
        }
        log.push("    #12 0x7f81 in __libc_start_main (/lib/libc.so.6+0x2082f)".to_string());
        log.push("    #0 0x455083 in main /src/app/main.c:3".to_string());
        let contents: Vec<&str> = log.iter().map(String::as_str).collect();
        let roles = roles(&contents, &mut trace::Allowance::none());
        let kept: Vec<usize> = roles
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == Role::Kept)
            .map(|(i, _)| i)
            .collect();
        // The innermost (1), the project's innermost (3) and outermost
        // (12) frames; the second trace's only frame (14).
        assert_eq!(kept, vec![1, 3, 12, 14]);
        // The others are left to the usual rules.
        assert_eq!(roles[0], Role::Other);
        assert_eq!(roles[5], Role::Other);
    }
}
