//! What delivering every rule at session start would cost (behaviour
//! §10.2): the figure `rule-fairy status` sets beside what a session
//! received, so the saving of delivering rules when they matter is seen.

use serde::Serialize;

use crate::base::fs::FileSource;
use crate::base::text::utf16_len;
use crate::delivery::selection::{render, render_screened};
use crate::matching::project::Project;
use crate::render::imports::render_full;
use crate::rules::instructions::Reading;

/// Every working rule of a project, rendered whole as one delivery.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UpfrontCost {
    /// The rules that render (a broken one could not be delivered).
    pub rules: u64,
    /// Their rendering's characters, documentation included.
    pub chars: u64,
}

/// The cost of delivering every rule of `project` that renders at session
/// start, as Codex's full rendering carries them. Rules whose imports
/// together pass the documentation budget are counted one by one, each
/// with its own documentation, as that many deliveries would carry them.
pub fn upfront_cost(fs: &dyn FileSource, project: &Project) -> UpfrontCost {
    let names: Vec<&str> = project
        .rules
        .all()
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    let Ok(screened) = render_screened(fs, project, &names, Reading::Whole) else {
        return UpfrontCost::default();
    };
    let rules = screened.rendered.len() as u64;
    let chars = match &screened.blocks {
        Ok(blocks) => utf16_len(&render_full(blocks)) as u64,
        Err(_) => screened
            .rendered
            .iter()
            .filter_map(|name| render(fs, project, &[name], Reading::Whole).ok())
            .map(|blocks| utf16_len(&render_full(&blocks)) as u64)
            .sum(),
    };
    UpfrontCost { rules, chars }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    #[test]
    fn every_rule_that_renders_is_counted() {
        let fs = MemoryFs::from_files(
            "/p",
            [
                (".cursor/rules/a.mdc", "---\nalwaysApply: true\n---\nAAAA"),
                (".cursor/rules/b.mdc", "---\nglobs: src/**\n---\nBB"),
                (
                    ".cursor/rules/broken.mdc",
                    "---\nglobs: x/**\n---\n@doc/missing.md",
                ),
            ],
        );
        let project = Project::load(&fs, "/p").unwrap();
        let cost = upfront_cost(&fs, &project);
        assert_eq!(cost.rules, 2);
        // Both rules' headings and texts, and the separator between.
        assert_eq!(
            cost.chars,
            "# a.mdc\n\nAAAA\n\n---\n\n# b.mdc\n\nBB".len() as u64
        );
    }
}
