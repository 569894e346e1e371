//! Text renderings of the store's answers, for people (the CLI twins) and
//! for the agent (the text block beside an MCP tool's structured output).

use std::fmt::Write;

use ghost_store::recall::RecallHit;
use ghost_store::report::{Pressure, Stats};
use ghost_store::{Forgotten, GatewaySavings};

use crate::ingest::short_count;
use crate::service::{ForgetOutput, GcOutput, GetOutput, RecallOutput};

/// `42s`, `5m`, `3h`, `2d`.
pub fn age(seconds: i64) -> String {
    match seconds {
        s if s < 60 => format!("{s}s"),
        s if s < 3_600 => format!("{}m", s / 60),
        s if s < 86_400 => format!("{}h", s / 3_600),
        s => format!("{}d", s / 86_400),
    }
}

/// A recall answer as a list: one header line per hit, its snippet indented.
pub fn recall(out: &RecallOutput) -> String {
    recall_hits(&out.query, &out.hits)
}

/// Recall hits as a list: one header line per hit, its snippet indented.
pub fn recall_hits(query: &str, hits: &[RecallHit]) -> String {
    if hits.is_empty() {
        return format!("No entry matches '{query}'.\n");
    }
    let mut out = String::new();
    for (i, h) in hits.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}. id={} · {} · {} · {} ago · {}→{} tokens · score {:.3}",
            i + 1,
            h.id,
            h.class,
            h.source,
            age(h.age_seconds),
            short_count(h.original_tokens),
            short_count(h.summary_tokens),
            h.score,
        );
        let snippet = h.snippet.split_whitespace().collect::<Vec<_>>().join(" ");
        match h.line {
            Some(n) => {
                let _ = writeln!(out, "   line {n}: {snippet}");
            }
            None => {
                let _ = writeln!(out, "   {snippet}");
            }
        }
        if let Some(original) = &h.original {
            let _ = writeln!(out, "   --- original ---\n{}", original.trim_end());
        }
    }
    out.push_str("Full text of one: get id=<id> (start_line/end_line or around for a part).\n");
    out
}

/// A `get` answer: a header, then the numbered lines.
pub fn get(out: &GetOutput) -> String {
    let e = &out.excerpt;
    let mut text = format!(
        "id={} · {} · {} · lines {}–{} of {}{}\n",
        out.id,
        out.class,
        out.source,
        e.start_line,
        e.end_line,
        e.total_lines,
        if e.matches > 0 {
            format!(" · {} matching lines", e.matches)
        } else {
            String::new()
        }
    );
    if e.text.is_empty() {
        text.push_str("(no lines selected)\n");
    }
    text.push_str(&e.text);
    text
}

/// A `forget` answer.
pub fn forget(out: &ForgetOutput) -> String {
    match out.status {
        Forgotten::Now => format!(
            "Forgot id={}: its text is erased and it no longer appears in recall.\n",
            out.id
        ),
        Forgotten::Already => format!("id={} was already forgotten.\n", out.id),
    }
}

/// A task's answer: how it ended, its (compressed) output, its stderr.
pub fn run_task(out: &crate::tasks::RunTaskOutput) -> String {
    let mut text = String::new();
    match &out.stopped {
        Some(why) => text.push_str(&format!("task {why} (exit {})\n", out.exit_code)),
        None => text.push_str(&format!(
            "task exited {} in {} ms\n",
            out.exit_code, out.elapsed_ms
        )),
    }
    if !out.output.is_empty() {
        text.push_str(&out.output);
        if !out.output.ends_with('\n') {
            text.push('\n');
        }
    }
    if !out.scratch.is_empty() {
        text.push_str(&format!("files it wrote: {}\n", out.scratch));
    }
    if !out.stderr.is_empty() {
        text.push_str("stderr:\n");
        text.push_str(&out.stderr);
        if !out.stderr.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

/// A spawned task's status, in a line or two.
pub fn task_status(s: &crate::spawned_tasks::TaskStatus) -> String {
    let mut text = match s.state.as_str() {
        "running" => format!(
            "{} running for {} ms, {} bytes of output so far (task_output for them, \
             task_cancel to stop it)\n",
            s.id, s.elapsed_ms, s.output_bytes
        ),
        "ended" => format!(
            "{} ended: exit {} after {} ms (task_output for its answer)\n",
            s.id,
            s.exit_code.unwrap_or_default(),
            s.elapsed_ms
        ),
        _ => format!("{} failed after {} ms\n", s.id, s.elapsed_ms),
    };
    for line in [&s.stopped, &s.error].into_iter().flatten() {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// A spawned task's answer, or its status and output so far.
pub fn task_output(out: &crate::spawned_tasks::TaskOutputAnswer) -> String {
    match (&out.result, &out.partial) {
        (Some(result), _) => format!("{}: {}", out.status.id, run_task(result)),
        (None, Some(partial)) if !partial.is_empty() => format!(
            "{}output so far (its tail):\n{partial}",
            task_status(&out.status)
        ),
        _ => task_status(&out.status),
    }
}

/// What a purge removed, in one line.
pub fn purged(what: &str, p: &ghost_store::Purged) -> String {
    let mut out = format!(
        "Forgot {what}: {} entries, {} sessions, {} gateway rewrites, {} memory-index chunks.\n",
        p.entries, p.sessions, p.gateway_rewrites, p.memory_chunks
    );
    if !p.wal_cleared {
        out.push_str(
            "Another ghost process is reading the store: the write-ahead log keeps the old pages \
             until its next checkpoint (run `ghost gc` when it has ended).\n",
        );
    }
    out
}

/// Context pressure as a short report with a per-class table.
pub fn pressure(p: &Pressure) -> String {
    let mut out = String::new();
    let c = &p.context;
    let _ = writeln!(
        out,
        "session {} · context {}/{} tokens ({:.1}%, {}{})",
        p.session.as_deref().unwrap_or("(none yet)"),
        short_count(c.used_tokens),
        short_count(c.window_tokens),
        c.percent,
        c.source.replace('_', " "),
        c.age_seconds
            .map(|a| format!(", {} ago", age(a)))
            .unwrap_or_default(),
    );
    let _ = writeln!(
        out,
        "ghost holds {} entries: {} → {} tokens (ratio {:.3})",
        p.entries,
        short_count(p.original_tokens),
        short_count(p.summary_tokens),
        p.ratio
    );
    if !p.by_class.is_empty() {
        let _ = writeln!(
            out,
            "{:<11} {:>6} {:>9} {:>9} {:>6}",
            "class", "count", "orig", "sum", "ratio"
        );
        for (class, t) in &p.by_class {
            let _ = writeln!(
                out,
                "{class:<11} {:>6} {:>9} {:>9} {:>6.3}",
                t.count, t.orig, t.sum, t.ratio
            );
        }
    }
    if !p.eviction_candidates.is_empty() {
        out.push_str("lowest priority:\n");
        for e in &p.eviction_candidates {
            let _ = writeln!(
                out,
                "  id={} · {} · {} · priority {:.1} · {} tokens in context",
                e.id, e.class, e.source, e.priority, e.summary_tokens
            );
        }
    }
    if let Some(g) = &p.gateway {
        out.push_str(&gateway_line(g));
    }
    let _ = writeln!(out, "{}", p.recommendation);
    out
}

/// What the gateway did, on one line (estimated tokens at four bytes each).
pub fn gateway_line(g: &GatewaySavings) -> String {
    format!(
        "gateway: {} requests in {} conversations · {} blocks rewritten, {} → {} tokens (est.) · {} garbage-collection steps\n",
        g.requests,
        g.conversations,
        g.blocks_rewritten,
        short_count(g.bytes_before / 4),
        short_count(g.bytes_after / 4),
        g.gc_steps
    )
}

/// What `gc` did, on one line.
pub fn gc(out: &GcOutput) -> String {
    format!(
        "expired {} · redacted {} · purged {} forgotten entries · {:.1} MB → {:.1} MB\n",
        out.expired,
        out.redacted,
        out.purged,
        out.bytes_before as f64 / 1e6,
        out.bytes_after as f64 / 1e6
    )
}

/// Store statistics with a per-day table.
pub fn stats(s: &Stats) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "store {} · {:.1} MB · schema v{}",
        s.path,
        s.bytes_on_disk as f64 / 1e6,
        s.schema_version
    );
    let _ = writeln!(
        out,
        "{} entries ({} forgotten, not yet purged) in {} sessions",
        s.entries, s.forgotten, s.sessions
    );
    let _ = writeln!(
        out,
        "tokens: {} original → {} seen · {} saved",
        short_count(s.original_tokens),
        short_count(s.summary_tokens),
        short_count(s.saved_tokens)
    );
    if s.gateway.requests > 0 {
        out.push_str(&gateway_line(&s.gateway));
    }
    if !s.per_day.is_empty() {
        let _ = writeln!(
            out,
            "{:<10} {:>8} {:>10} {:>10}",
            "day", "entries", "original", "saved"
        );
        for d in &s.per_day {
            let _ = writeln!(
                out,
                "{:<10} {:>8} {:>10} {:>10}",
                d.date, d.entries, d.original_tokens, d.saved_tokens
            );
        }
    }
    out
}

/// `memory_save`'s answer.
pub fn memory_saved(out: &crate::memory::MemorySaved) -> String {
    format!("saved to {} (line {})", out.path, out.line)
}

/// `memory_search`'s hits, one block each.
pub fn memory_search(out: &crate::memory::MemorySearchOutput) -> String {
    if out.hits.is_empty() {
        return "no memory matches; memory_save stores one".to_string();
    }
    let mut text = String::new();
    for h in &out.hits {
        text.push_str(&format!(
            "{} · {}:{}-{}\n{}\n\n",
            h.source, h.path, h.start_line, h.end_line, h.text
        ));
    }
    text.push_str("memory_get(path, start_line, end_line) reads more around a hit");
    text
}

/// `memory_get`'s answer: the text, or a note that the file is empty.
pub fn memory_text(out: &crate::memory::MemoryText) -> String {
    if out.text.is_empty() {
        format!("{} is empty or does not exist yet", out.path)
    } else {
        out.text.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::age;

    #[test]
    fn ages_are_short() {
        assert_eq!(age(5), "5s");
        assert_eq!(age(300), "5m");
        assert_eq!(age(7_200), "2h");
        assert_eq!(age(172_800), "2d");
    }
}
