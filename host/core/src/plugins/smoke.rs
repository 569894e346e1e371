//! The small texts every new plugin must get through before it is installed:
//! one per class it claims (a classifier gets them all). Crashing, running
//! out of time or memory on any of them refuses the plugin; declining one
//! (`unsupported`) is allowed.

use ghost_runtime::{FailureKind, Plugin, PluginKind, PluginRuntime};
use ghost_types::{ClassifyRequest, CompressRequest, ContentClass};

/// A small sample of `class`.
pub fn sample(class: ContentClass) -> String {
    match class {
        ContentClass::Log => (1..=60)
            .map(|i| match i {
                41 => "test store::reopen ... FAILED\n".to_string(),
                _ => format!("test store::case_{i} ... ok\n"),
            })
            .chain(["\ntest result: FAILED. 59 passed; 1 failed\n".to_string()])
            .collect(),
        ContentClass::Code => (1..=12)
            .map(|i| {
                format!(
                    "pub fn step_{i}(x: u32) -> u32 {{\n    let y = x * {i};\n    y + 1\n}}\n\n"
                )
            })
            .collect(),
        ContentClass::Structured => format!(
            "{{\"items\": [{}], \"total\": 40}}",
            (1..=40)
                .map(|i| format!(
                    "{{\"id\": {i}, \"name\": \"item {i}\", \"tags\": [\"a\", \"b\"]}}"
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ContentClass::Prose => "ghost keeps the original of every tool result. The agent sees a \
             shorter version and a handle. When it needs the rest it asks for it by id. Nothing \
             is lost; the context stays small. "
            .repeat(8),
        ContentClass::Error => format!(
            "Traceback (most recent call last):\n{}ValueError: bad input\n",
            (1..=20)
                .map(|i| format!(
                    "  File \"/app/mod{i}.py\", line {i}, in f{i}\n    f{}()\n",
                    i + 1
                ))
                .collect::<String>()
        ),
        ContentClass::Prompt => "Please fix the failing test.".to_string(),
    }
}

/// Runs `plugin` on the sample of each of `classes` (every class but the
/// prompt for a classifier); `Err` names the sample and why it failed.
pub fn smoke_test(
    runtime: &PluginRuntime,
    plugin: &Plugin,
    classes: &[ContentClass],
) -> Result<(), String> {
    let all: Vec<ContentClass> = ContentClass::ALL
        .into_iter()
        .filter(|c| *c != ContentClass::Prompt)
        .collect();
    match plugin.kind() {
        PluginKind::Compressor => {
            for class in classes {
                let request = CompressRequest {
                    text: sample(*class),
                    class: *class,
                    tool_name: None,
                    source_path: None,
                    target_tokens: None,
                };
                if let Err(f) = runtime.compress(plugin, &request)
                    && f.kind == FailureKind::Stopped
                {
                    return Err(format!(
                        "smoke call on a small {class} text failed: {}",
                        f.reason
                    ));
                }
            }
        }
        PluginKind::Classifier => {
            for class in all {
                let request = ClassifyRequest {
                    text: sample(class),
                    tool_name: None,
                    source_path: None,
                    command: None,
                };
                runtime.classify(plugin, &request).map_err(|f| {
                    format!("smoke call on a small {class} text failed: {}", f.reason)
                })?;
            }
        }
    }
    Ok(())
}
