//! The classifier as a `ghost:plugin/classifier` component.

use ghost_plugin_sdk::classifier::{Classification, ClassifyRequest, ContentClass, Guest};

use crate::Class;

struct Classifier;

impl Guest for Classifier {
    fn classify(request: ClassifyRequest) -> Classification {
        let hints = crate::Hints {
            tool_name: request.tool_name.as_deref(),
            source_path: request.source_path.as_deref(),
        };
        let (class, confidence) = crate::classify(&request.text, hints);
        let class = match class {
            Class::Log => ContentClass::Log,
            Class::Code => ContentClass::Code,
            Class::Structured => ContentClass::Structured,
            Class::Prose => ContentClass::Prose,
            Class::Error => ContentClass::Error,
            Class::Prompt => ContentClass::Prompt,
        };
        Classification { class, confidence }
    }
}

ghost_plugin_sdk::classifier::export_classifier!(Classifier);
