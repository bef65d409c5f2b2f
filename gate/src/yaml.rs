//! YAML as ast-grep reads it (its parser and options), split into
//! documents that keep their line numbers so every error names the line
//! in the file, not in the document.

use serde::Deserialize;

use crate::error::GateError;

/// One document of a multi-document file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Document<'a> {
    pub text: &'a str,
    /// 1-based line of the document's first line in the file.
    pub first_line: usize,
    /// 1-based line of its first line that is not blank or a comment (where
    /// a rule "is", for messages); `None` for an empty document.
    pub content_line: Option<usize>,
}

fn is_marker(line: &str) -> bool {
    let line = line.trim_end_matches(['\r', '\n']);
    line == "---" || line.starts_with("--- ") || line.starts_with("---\t")
}

/// Splits a file at its `---` lines. A `---` at the start of a line cannot
/// occur inside a YAML value, so this split agrees with the parser's.
pub(crate) fn documents(text: &str) -> Vec<Document<'_>> {
    let mut docs = Vec::new();
    let mut start = 0;
    let mut first_line = 1;
    let mut offset = 0;
    for (line_no, line) in (1..).zip(text.split_inclusive('\n')) {
        if is_marker(line) {
            if offset > start || line_no > 1 {
                docs.push((start, offset, first_line));
            }
            // The marker's own line may carry content (`--- !tag`); blank it
            // by starting after `---`, keeping the line count.
            start = offset + 3;
            first_line = line_no;
        }
        offset += line.len();
    }
    docs.push((start, text.len(), first_line));
    docs.into_iter()
        .map(|(start, end, first_line)| {
            let text = &text[start..end];
            let content_line = text
                .lines()
                .position(|l| {
                    let t = l.trim();
                    !t.is_empty() && !t.starts_with('#') && t != "..."
                })
                .map(|i| first_line + i);
            Document {
                text,
                first_line,
                content_line,
            }
        })
        .collect()
}

/// Turns a parser error into one naming `file` and the line in it.
pub(crate) fn error(
    file: &str,
    doc: &Document<'_>,
    prefix: &str,
    err: &serde_saphyr::Error,
) -> GateError {
    let plain = err.without_snippet().to_string();
    // The parser appends its own document-relative position; ours replaces it.
    let message = plain
        .rsplit_once(" at line ")
        .map_or(plain.as_str(), |(head, _)| head)
        .trim()
        .to_string();
    let line = err
        .location()
        .map(|l| l.line() as usize)
        .filter(|l| *l > 0)
        .map_or(doc.content_line.unwrap_or(doc.first_line), |l| {
            doc.first_line + l - 1
        });
    GateError::at(file, line, format!("{prefix}{message}"))
}

/// Parses one document with ast-grep's YAML options.
pub(crate) fn parse<'a, T: Deserialize<'a>>(
    file: &str,
    doc: &Document<'a>,
    prefix: &str,
) -> Result<T, GateError> {
    ast_grep_config::from_str(doc.text).map_err(|e| error(file, doc, prefix, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_keep_their_lines() {
        let docs = documents("id: a\n---\n# c\nid: b\n--- \n\n");
        assert_eq!(docs.len(), 3);
        assert_eq!((docs[0].first_line, docs[0].content_line), (1, Some(1)));
        assert_eq!((docs[1].first_line, docs[1].content_line), (2, Some(4)));
        assert_eq!(docs[2].content_line, None);
        let leading = documents("---\nid: a\n");
        assert_eq!(leading.len(), 1);
        assert_eq!(leading[0].content_line, Some(2));
    }

    #[test]
    fn a_syntax_error_names_the_line_in_the_file() {
        let text = "id: a\n---\nid: b\nrule: [unclosed\n";
        let docs = documents(text);
        let err = parse::<serde::de::IgnoredAny>("r.yml", &docs[1], "").unwrap_err();
        assert_eq!(err.file(), Some("r.yml"));
        assert!(matches!(err.line(), Some(4 | 5)), "{err}");
    }
}
