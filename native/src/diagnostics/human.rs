//! Findings for people, as rustc prints its own: the title, then
//! `--> file:line:column`, the source line and a marker under the span,
//! then the note or fix; rendered by annotate-snippets, the library rustc
//! uses, in colour when asked.

use std::collections::HashMap;
use std::path::PathBuf;

use annotate_snippets::{AnnotationKind, Group, Level as SnippetLevel, Origin, Renderer, Snippet};
use rule_fairy_engine::FileSource;

use super::{Diagnostic, Level, Note};
use crate::stdfs::StdFs;

/// The project's files as the frames quote them, each read once.
pub(crate) struct Sources {
    root: PathBuf,
    texts: HashMap<String, Option<String>>,
}

impl Sources {
    /// Files are read relative to `root`, as the findings name them.
    pub(crate) fn new(root: impl Into<PathBuf>) -> Self {
        Sources {
            root: root.into(),
            texts: HashMap::new(),
        }
    }

    fn text(&mut self, file: &str) -> Option<&str> {
        let root = &self.root;
        self.texts
            .entry(file.to_string())
            .or_insert_with(|| read_regular(&root.join(file)))
            .as_deref()
    }
}

/// A file's text as every read of the program takes it (a regular file
/// only, so a FIFO never blocks, within the engine's read bound); a file
/// that cannot be read so is shown without its frame.
fn read_regular(path: &std::path::Path) -> Option<String> {
    let bytes = StdFs.read(path.to_str()?).ok()?;
    String::from_utf8(bytes).ok()
}

/// Every finding, a blank line after each.
pub(crate) fn render(diagnostics: &[Diagnostic], sources: &mut Sources, colored: bool) -> String {
    let renderer = if colored {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&one(d, sources, &renderer));
        out.push_str("\n\n");
    }
    out
}

fn one(d: &Diagnostic, sources: &mut Sources, renderer: &Renderer) -> String {
    let level = match d.level {
        Level::Error => SnippetLevel::ERROR,
        Level::Warning => SnippetLevel::WARNING,
        Level::Note => SnippetLevel::NOTE,
    };
    let title = level.primary_title(d.message.as_str()).id(d.rule.as_str());
    let frame = d.line.and_then(|line| {
        sources
            .text(&d.file)
            .and_then(|text| frame(text, line, d.span))
    });
    let group = match (&frame, d.line) {
        (Some((source, range, first)), _) => Group::with_title(title).element(
            Snippet::source(source.as_str())
                .line_start(*first)
                .path(d.file.as_str())
                .annotation(AnnotationKind::Primary.span(range.clone())),
        ),
        (None, Some(line)) => {
            Group::with_title(title).element(Origin::path(d.file.as_str()).line(line))
        }
        (None, None) => Group::with_title(title).element(Origin::path(d.file.as_str())),
    };
    let group = match &d.note {
        Some(Note::Note(text)) => group.element(SnippetLevel::NOTE.message(text.as_str())),
        Some(Note::Fix(text)) => group.element(SnippetLevel::HELP.message(text.as_str())),
        None => group,
    };
    renderer.render(&[group])
}

/// The lines from `line` to the span's end, and the span as a byte range
/// in them; without a span, the line's text from its first non-blank
/// character. `None` when the file has no such line.
fn frame(
    text: &str,
    line: usize,
    span: Option<super::Span>,
) -> Option<(String, std::ops::Range<usize>, usize)> {
    let end_line = span.map_or(line, |s| s.end_line.max(line));
    let lines: Vec<&str> = text
        .lines()
        .skip(line.checked_sub(1)?)
        .take(end_line - line + 1)
        .collect();
    let first = *lines.first()?;
    let source = lines.join("\n");
    let range = match span {
        Some(span) => {
            let start = byte_at(first, span.column);
            let last_start = source.len() - lines.last()?.len();
            let end = last_start + byte_at(lines.last()?, span.end_column);
            start..end.max(start)
        }
        None => {
            let start = first.len() - first.trim_start().len();
            start..first.trim_end().len().max(start)
        }
    };
    Some((source, range, line))
}

/// The byte offset of a 1-based character column, clamped to the line.
fn byte_at(line: &str, column: usize) -> usize {
    line.char_indices()
        .nth(column.saturating_sub(1))
        .map_or(line.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::super::Span;
    use super::*;

    #[test]
    fn a_finding_shows_its_line_and_a_marker_under_the_span() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.ts"), "let x = 1;\nconst é = eval(y);\n").unwrap();
        let d = Diagnostic {
            level: Level::Error,
            rule: "no-eval".into(),
            file: "a.ts".into(),
            line: Some(2),
            span: Some(Span {
                column: 11,
                end_line: 2,
                end_column: 18,
            }),
            message: "Do not call eval.".into(),
            note: Some(Note::Note("PR #12".into())),
        };
        let text = render(&[d], &mut Sources::new(dir.path()), false);
        assert_eq!(
            text,
            "error[no-eval]: Do not call eval.\n --> a.ts:2:11\n  |\n2 | const é = eval(y);\n  |           ^^^^^^^\n  |\n  = note: PR #12\n\n"
        );
    }
}
