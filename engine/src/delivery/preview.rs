//! One event, whole: which rules fire and why, and the delivery each host
//! would carry for them (Codex's text, Claude Code's frames). What
//! `rule-fairy explain --render` prints and the playground shows; neither
//! adapter state nor dedup is involved, so every matched rule is rendered.

use serde::Serialize;

use crate::base::error::Error;
use crate::base::fs::FileSource;
use crate::delivery::codex_text::EditSource;
use crate::delivery::frames::{delivery_id, DeliveryKind, FrameLimits};
use crate::delivery::selection::{
    claude_delivery, codex_post_edit_text, codex_prompt_text, read_contents, select_edit_given,
    select_prompt_with, Selection,
};
use crate::matching::explain::{explain_paths_with, explain_prompt_with, Explanation};
use crate::matching::facts::Facts;
use crate::matching::project::Project;
use crate::render::prefix::Trigger;

/// The event to preview.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Prompt(String),
    /// Edited paths, project-relative, in the order the tool names them.
    Edit(Vec<String>),
}

/// A Claude Code delivery as it would be attached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClaudePreview {
    /// The context entries: frames, then an error entry per oversized rule.
    pub entries: Vec<String>,
    pub frames: usize,
    pub delivered: Vec<String>,
    pub deferred: Vec<String>,
}

/// An event's rules and both deliveries. A delivery that cannot be
/// rendered (a missing import, the budget) is its error, with its place.
#[derive(Debug, Clone)]
pub struct Preview {
    pub explanation: Explanation,
    pub selection: Selection,
    pub codex: Option<Result<String, Error>>,
    pub claude: Option<Result<ClaudePreview, Error>>,
}

/// Which deliveries to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hosts {
    pub codex: bool,
    pub claude: bool,
}

/// Previews an event. `contents` holds each edited path's content for
/// `fileContains` when the caller has it; otherwise it is read through `fs`.
pub fn preview(
    fs: &dyn FileSource,
    project: &Project,
    event: &Event,
    facts: &Facts,
    contents: Option<&[Option<String>]>,
    hosts: Hosts,
    limits: FrameLimits,
) -> Preview {
    let (explanation, selection, kind, raw) = match event {
        Event::Prompt(prompt) => (
            explain_prompt_with(&project.index, prompt, facts),
            select_prompt_with(project, prompt, facts),
            DeliveryKind::Prompt,
            prompt.clone(),
        ),
        Event::Edit(paths) => {
            let read = match contents {
                Some(_) => None,
                None => read_contents(fs, project, paths),
            };
            let contents = contents.or(read.as_deref());
            (
                explain_paths_with(&project.index, paths, facts, contents),
                select_edit_given(project, paths, facts, contents),
                DeliveryKind::Edit,
                paths.join("\n"),
            )
        }
    };
    let nothing = selection.rules.is_empty();
    let codex = (hosts.codex && !nothing).then(|| codex_text(fs, project, &selection));
    let claude = (hosts.claude && !nothing).then(|| {
        claude_delivery(
            fs,
            project,
            &selection.trigger,
            &selection.rules,
            &delivery_id(kind, &raw),
            limits,
        )
        .map(|d| ClaudePreview {
            entries: d.entries(),
            frames: d.frames.len(),
            delivered: d.delivered,
            deferred: d.deferred,
        })
        .map_err(|e| e.error)
    });
    Preview {
        explanation,
        selection,
        codex,
        claude,
    }
}

fn codex_text(
    fs: &dyn FileSource,
    project: &Project,
    selection: &Selection,
) -> Result<String, Error> {
    let text = match &selection.trigger {
        Trigger::Prompt(matches) => codex_prompt_text(fs, project, matches),
        _ => codex_post_edit_text(
            fs,
            project,
            &selection.rules,
            &selection.matched_paths,
            EditSource::Tool,
        ),
    };
    text.map_err(|e| e.error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    #[test]
    fn both_deliveries_for_one_event() {
        let mut fs = MemoryFs::new();
        fs.add_file(
            "/p/.cursor/rules/ui.mdc",
            "---\nglobs: src/**\n---\n# UI\n\n@doc/g.md#one",
        )
        .add_file(
            "/p/.cursor/rules/broken.mdc",
            "---\nglobs: lib/**\n---\n@doc/g.md#none",
        )
        .add_file("/p/doc/g.md", "## One\n\ntext\n");
        let project = Project::load(&fs, "/p").unwrap();
        let all = Hosts {
            codex: true,
            claude: true,
        };
        let ok = preview(
            &fs,
            &project,
            &Event::Edit(vec!["src/a.ts".into()]),
            &Facts::default(),
            None,
            all,
            FrameLimits::default(),
        );
        assert_eq!(ok.explanation.rules.len(), 1);
        assert!(ok
            .codex
            .unwrap()
            .unwrap()
            .contains("## Required context: `doc/g.md#one` (ui.mdc)"));
        let claude = ok.claude.unwrap().unwrap();
        assert_eq!(
            (claude.frames, claude.delivered.clone()),
            (1, vec!["ui.mdc".to_string()])
        );
        let bad = preview(
            &fs,
            &project,
            &Event::Edit(vec!["lib/x".into()]),
            &Facts::default(),
            None,
            all,
            FrameLimits::default(),
        );
        assert_eq!(
            bad.codex.unwrap().unwrap_err().message(),
            "Rule import heading does not exist: doc/g.md#none"
        );
        let none = preview(
            &fs,
            &project,
            &Event::Prompt("hi".into()),
            &Facts::default(),
            None,
            all,
            FrameLimits::default(),
        );
        assert!(none.codex.is_none() && none.claude.is_none());
    }
}
