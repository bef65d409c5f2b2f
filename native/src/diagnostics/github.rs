//! GitHub Actions workflow commands: `::error file=F,line=L,...::message`,
//! which the runner turns into annotations on the pull request.

use super::{Diagnostic, Level};

/// One command per finding, each on its own line.
pub(crate) fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(command).collect()
}

fn command(d: &Diagnostic) -> String {
    let kind = match d.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "notice",
    };
    let mut properties = vec![format!("file={}", property(&d.file))];
    if let Some(line) = d.line {
        properties.push(format!("line={line}"));
        if let Some(span) = d.span {
            properties.push(format!("col={}", span.column));
            properties.push(format!("endLine={}", span.end_line));
            // GitHub's docs leave open whether the end column is inside
            // the span; the runner is found to end it before that column,
            // as SARIF and ruff's GitHub format do: one past the last.
            properties.push(format!("endColumn={}", span.end_column));
        }
    }
    properties.push(format!("title={}", property(&d.rule)));
    let mut message = d.message.clone();
    if let Some(note) = &d.note {
        message.push_str("\n\n");
        message.push_str(note.text());
    }
    format!("::{kind} {}::{}\n", properties.join(","), data(&message))
}

/// A command's message, escaped as the runner reads it back.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property's value: the message's escapes, and `:` and `,`, which end it.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::super::{Note, Span};
    use super::*;

    #[test]
    fn a_finding_is_one_escaped_command() {
        let d = Diagnostic {
            level: Level::Error,
            rule: "no-eval".into(),
            file: "src/a,b:c.ts".into(),
            line: Some(3),
            span: Some(Span {
                column: 5,
                end_line: 3,
                end_column: 9,
            }),
            message: "100% bad\r\nreally".into(),
            note: Some(Note::Note("PR #1".into())),
        };
        assert_eq!(
            render(&[d]),
            "::error file=src/a%2Cb%3Ac.ts,line=3,col=5,endLine=3,endColumn=9,title=no-eval::100%25 bad%0D%0Areally%0A%0APR #1\n"
        );
    }

    #[test]
    fn a_whole_file_finding_has_no_line() {
        let d = Diagnostic {
            level: Level::Note,
            rule: "config/syntax".into(),
            file: "rule-fairy.edn".into(),
            line: None,
            span: None,
            message: "m".into(),
            note: None,
        };
        assert_eq!(
            render(&[d]),
            "::notice file=rule-fairy.edn,title=config/syntax::m\n"
        );
    }
}
