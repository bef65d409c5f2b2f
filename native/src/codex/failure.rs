//! What a hook says when it cannot deliver: an entry in the model's context
//! and a warning for the person, so a broken rule or configuration is seen
//! instead of rules silently missing. The entry and the warning are the
//! engine's (`hosts::failure`, behaviour §4.7), the same as Claude Code's;
//! the entry carries no `injected` marker, so it never reads as a delivery.

use rule_fairy_engine::EventKind as Kind;
use rule_fairy_engine::{delivery_failed, failure_summary};

use super::output::HookOutput;

/// The output for a failed delivery; `detail` names the file and line
/// where there is one. Also printed on standard error by the caller.
pub(super) fn output(kind: Kind, detail: &str) -> HookOutput {
    let context = delivery_failed(kind.name(), "failed", detail);
    HookOutput::context(kind, context).with_problems(&[failure_summary(
        kind.name(),
        "failed",
        detail,
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_names_the_kind_and_the_place() {
        let out = output(
            Kind::Shell,
            ".cursor/rules/lib.mdc: Rule import does not exist: doc/lib.md",
        );
        let context = out.hook_specific_output.unwrap().additional_context;
        assert_eq!(
            context,
            "[rule-fairy error: shell delivery failed]\n.cursor/rules/lib.mdc: Rule import does not exist: doc/lib.md\nNo matched rules were injected or marked as injected."
        );
        assert!(out
            .system_message
            .unwrap()
            .starts_with("Rule Fairy: shell delivery failed: .cursor/rules/lib.mdc"));
    }
}
