//! The classifier as a `ghost:plugin/classifier` component.

use ghost_plugin_sdk::classifier::{
    Classification, ClassifyContext, ClassifyRequest, ContentClass as Wit,
};
use ghost_types::ContentClass;

fn classify(request: ClassifyRequest, context: ClassifyContext) -> Classification {
    let hints = crate::Hints {
        tool_name: request.tool_name.as_deref(),
        source_path: request.source_path.as_deref(),
        command: context.command.as_deref(),
    };
    let (class, confidence) = crate::classify(&request.text, hints);
    // ghost's class → the WIT contract's.
    let class = match class {
        ContentClass::Log => Wit::Log,
        ContentClass::Code => Wit::Code,
        ContentClass::Structured => Wit::Structured,
        ContentClass::Prose => Wit::Prose,
        ContentClass::Error => Wit::Error,
        ContentClass::Prompt => Wit::Prompt,
    };
    Classification { class, confidence }
}

ghost_plugin_sdk::classifier!(in_context: classify);
