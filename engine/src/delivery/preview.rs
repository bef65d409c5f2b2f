//! One event, whole: which rules fire and why, and the delivery each host
//! would carry for them (Codex's text, Claude Code's frames). What
//! `rule-fairy explain --render` prints and the playground shows; neither
//! adapter state nor dedup is involved, so every matched rule is rendered.

use serde::Serialize;

use crate::base::error::Error;
use crate::base::fs::FileSource;
use crate::delivery::frames::{delivery_id, FrameLimits};
use crate::delivery::selection::{claude_delivery, codex_text, read_contents, select, Selection};
use crate::matching::event::{Event, Query};
use crate::matching::explain::{explain, Explanation};
use crate::matching::project::Project;

/// A Claude Code delivery as it would be attached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClaudePreview {
    /// The context entries: frames, then the one entry naming the broken
    /// rules left out (behaviour §4.10), when there are any.
    pub entries: Vec<String>,
    /// How many of the entries are frames.
    pub frames: usize,
    /// The rules the frames carry, in match order.
    pub delivered: Vec<String>,
    /// Rules that did not fit this delivery; they would come with the next
    /// matching event.
    pub deferred: Vec<String>,
}

/// An event's rules and both deliveries. A broken rule (an import that
/// fails, too large) is left out and named in the delivery's error entry;
/// a delivery that cannot be rendered at all is its error, with its place.
#[derive(Debug, Clone)]
pub struct Preview {
    /// Which rules fire and why.
    pub explanation: Explanation,
    /// The rules the event selects, in match order.
    pub selection: Selection,
    /// Codex's text; `None` when Codex was not asked for or no rule was
    /// selected.
    pub codex: Option<Result<String, Error>>,
    /// Claude Code's entries; `None` when Claude Code was not asked for or
    /// no rule was selected.
    pub claude: Option<Result<ClaudePreview, Error>>,
}

/// Which deliveries to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hosts {
    /// Render Codex's text.
    pub codex: bool,
    /// Render Claude Code's frames.
    pub claude: bool,
}

/// Previews an event. The query's contents hold each edited path's
/// content for `fileContains` when the caller has it; otherwise they are
/// read through `fs`.
pub fn preview(
    fs: &dyn FileSource,
    project: &Project,
    query: &Query<'_>,
    hosts: Hosts,
    limits: FrameLimits,
) -> Preview {
    let read = match query.contents {
        Some(_) => None,
        None => read_contents(fs, project, &query.event.matched_paths()),
    };
    let query = query.with_contents(query.contents.or(read.as_deref()));
    let explanation = explain(&project.index, &query);
    let selection = select(project, &query);
    let raw = match query.event {
        Event::Prompt { text } => text.clone(),
        Event::Edit { paths } | Event::Shell { paths } | Event::Read { paths } => paths.join("\n"),
        Event::SessionStart { .. } => String::new(),
    };
    let nothing = selection.rules.is_empty();
    let codex = (hosts.codex && !nothing).then(|| {
        codex_text(fs, project, &selection, &selection.rules)
            .map(|text| text.text)
            .map_err(|e| e.error)
    });
    let reached = selection.reached_broken(project);
    let claude = (hosts.claude && !nothing).then(|| {
        claude_delivery(
            fs,
            project,
            &selection.trigger,
            &selection.rules,
            &delivery_id(query.event.kind(), &raw),
            limits,
        )
        .map(|d| ClaudePreview {
            entries: d.entries_with(&reached),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;
    use crate::matching::facts::Facts;

    fn preview_of(fs: &MemoryFs, project: &Project, event: Event, hosts: Hosts) -> Preview {
        let facts = Facts::default();
        let query = Query::new(&event, &facts);
        preview(fs, project, &query, hosts, FrameLimits::default())
    }

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
        let ok = preview_of(&fs, &project, Event::edit(&["src/a.ts"]), all);
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
        // The broken rule is left out and named; the other is delivered.
        let both = preview_of(&fs, &project, Event::edit(&["lib/x", "src/a.ts"]), all);
        let line = "- .cursor/rules/broken.mdc:4: broken.mdc: Rule import heading does not exist: doc/g.md#none; did you mean doc/g.md#one?\n";
        let codex = both.codex.unwrap().unwrap();
        assert!(
            codex.starts_with("[rule-fairy injected: ui.mdc]\n"),
            "{codex}"
        );
        assert!(codex.contains(line), "{codex}");
        let claude = both.claude.unwrap().unwrap();
        assert_eq!((claude.frames, claude.entries.len()), (1, 2));
        assert_eq!(claude.delivered, vec!["ui.mdc".to_string()]);
        assert!(claude.entries[1].contains(line), "{:?}", claude.entries);
        let none = preview_of(&fs, &project, Event::prompt("hi"), all);
        assert!(none.codex.is_none() && none.claude.is_none());
    }
}
