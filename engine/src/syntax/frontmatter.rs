//! Rule frontmatter (behaviour §1.3): Cursor's `key: value` line dialect,
//! exactly as the original reads it, plus YAML sequences for list fields
//! (`globs: ["a", "b"]` or a block of `- a` lines), which the original
//! silently drops.

/// A field's value: the raw text after the colon, or the items of a YAML
/// sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    Text(String),
    List(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub key: String,
    pub value: FieldValue,
    /// 1-based line of the key in the rule file.
    pub line: usize,
}

/// A line inside the block that is not a field (a comment, an indented
/// continuation, `key : value`...). Kept so `check` can point at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoredLine {
    pub line: usize,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frontmatter {
    /// Fields in file order; a repeated key's last line wins on lookup.
    pub fields: Vec<Field>,
    pub ignored: Vec<IgnoredLine>,
    /// YAML sequences that could not be read: line and the parser's words.
    pub list_errors: Vec<IgnoredLine>,
}

/// A rule file split into frontmatter and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// `None` when the file has no frontmatter block (absent, not empty).
    pub frontmatter: Option<Frontmatter>,
    /// Everything after the block, trimmed.
    pub body: String,
    /// 1-based line of the body's first line in the file.
    pub body_line: usize,
    /// The line of an opening `---` that is never closed: the original
    /// then reads no frontmatter and renders those lines as body.
    pub unclosed_at: Option<usize>,
    /// The file started with a byte order mark, which was skipped.
    pub had_bom: bool,
}

fn is_fence_line(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|rest| rest.chars().all(|c| c == ' ' || c == '\t'))
}

/// A line's text without its LF or CRLF ending.
fn content(line: &str) -> &str {
    let line = line.strip_suffix('\n').unwrap_or(line);
    line.strip_suffix('\r').unwrap_or(line)
}

/// Parses a rule file's text.
pub(crate) fn parse(text: &str) -> Document {
    let had_bom = text.starts_with('\u{feff}');
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let raw_lines: Vec<&str> = text.split_inclusive('\n').collect();
    let opens = raw_lines
        .first()
        .is_some_and(|first| first.ends_with('\n') && is_fence_line(content(first)));
    let close = if opens {
        raw_lines
            .iter()
            .skip(1)
            .position(|line| is_fence_line(content(line)))
            .map(|i| i + 1)
    } else {
        None
    };
    let Some(close) = close else {
        return Document {
            frontmatter: None,
            body: text.trim().to_string(),
            body_line: body_line(text, 0),
            unclosed_at: opens.then_some(1),
            had_bom,
        };
    };
    let block: Vec<&str> = raw_lines[1..close]
        .iter()
        .map(|line| content(line))
        .collect();
    let after: usize = raw_lines[..=close].iter().map(|line| line.len()).sum();
    Document {
        frontmatter: Some(parse_block(&block, 2)),
        body: text[after..].trim().to_string(),
        body_line: body_line(text, after),
        unclosed_at: None,
        had_bom,
    }
}

fn body_line(text: &str, start: usize) -> usize {
    let rest = &text[start..];
    let first_content = start + (rest.len() - rest.trim_start().len());
    text[..first_content].matches('\n').count() + 1
}

/// `key: value`, the key starting at column 0 with an ASCII letter.
fn key_line(line: &str) -> Option<(&str, &str)> {
    let key_len = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(line.len());
    let key = &line[..key_len];
    if !key.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let value = line[key_len..].strip_prefix(':')?;
    Some((
        key,
        value
            .trim_start_matches([' ', '\t'])
            .trim_end_matches([' ', '\t']),
    ))
}

fn is_list_item(line: &str) -> bool {
    let item = line.trim_start_matches([' ', '\t']);
    item == "-" || item.starts_with("- ") || item.starts_with("-\t")
}

fn parse_block(lines: &[&str], first_line: usize) -> Frontmatter {
    let mut fm = Frontmatter::default();
    let mut i = 0;
    while i < lines.len() {
        let line_no = first_line + i;
        let Some((key, value)) = key_line(lines[i]) else {
            if !lines[i].trim().is_empty() {
                fm.ignored.push(IgnoredLine {
                    line: line_no,
                    text: lines[i].to_string(),
                });
            }
            i += 1;
            continue;
        };
        let items = lines[i + 1..]
            .iter()
            .take_while(|line| is_list_item(line))
            .count();
        let value = if value.is_empty() && items > 0 {
            let snippet: String = lines[i + 1..=i + items]
                .iter()
                .map(|l| format!("{l}\n"))
                .collect();
            i += items;
            yaml_sequence(&snippet).unwrap_or_else(|e| {
                fm.list_errors.push(IgnoredLine {
                    line: line_no,
                    text: e,
                });
                FieldValue::Text(String::new())
            })
        } else if value.starts_with('[') && value.ends_with(']') {
            yaml_sequence(value).unwrap_or_else(|_| FieldValue::Text(value.to_string()))
        } else {
            FieldValue::Text(value.to_string())
        };
        fm.fields.push(Field {
            key: key.to_string(),
            value,
            line: line_no,
        });
        i += 1;
    }
    fm
}

/// Reads a YAML sequence of scalars (flow `[a, "b"]` or block `- a` lines).
fn yaml_sequence(text: &str) -> Result<FieldValue, String> {
    crate::syntax::yaml_list::parse_sequence(text).map(FieldValue::List)
}

impl Frontmatter {
    /// The field a key names; the last line wins when a key repeats.
    pub fn get(&self, key: &str) -> Option<&Field> {
        self.fields.iter().rev().find(|field| field.key == key)
    }

    /// A list field's items: a text value split at every comma, or a YAML
    /// sequence's items; each trimmed, empties dropped.
    pub fn list(&self, key: &str) -> Vec<String> {
        self.get(key)
            .map(|field| field.value.items())
            .unwrap_or_default()
    }

    /// The raw text of a field; `None` for absent fields and sequences.
    pub fn text(&self, key: &str) -> Option<&str> {
        match &self.get(key)?.value {
            FieldValue::Text(text) => Some(text),
            FieldValue::List(_) => None,
        }
    }
}

impl FieldValue {
    pub fn items(&self) -> Vec<String> {
        let raw: Vec<&str> = match self {
            FieldValue::Text(text) => text.split(',').collect(),
            FieldValue::List(items) => items.iter().map(String::as_str).collect(),
        };
        raw.into_iter()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CASE_14: &str = "---\ndescription: UI rules: components and styling\nglobs: apps/**/ui/**/*.clj, **/*.cljs\nalwaysApply: false\npromptAnyOf: Widget, HTMX\npromptRequires: UI\ncustom: kept\n---\n\n# UI\n\nBody.\n";

    fn text(doc: &Document, key: &str) -> String {
        doc.frontmatter
            .as_ref()
            .unwrap()
            .text(key)
            .unwrap()
            .to_string()
    }

    #[test]
    fn original_case_14_fields_and_body() {
        let doc = parse(CASE_14);
        assert_eq!(
            text(&doc, "description"),
            "UI rules: components and styling"
        );
        assert_eq!(text(&doc, "globs"), "apps/**/ui/**/*.clj, **/*.cljs");
        assert_eq!(text(&doc, "alwaysApply"), "false");
        assert_eq!(text(&doc, "promptAnyOf"), "Widget, HTMX");
        assert_eq!(text(&doc, "promptRequires"), "UI");
        assert_eq!(text(&doc, "custom"), "kept");
        assert_eq!(doc.body, "# UI\n\nBody.");
        assert_eq!(doc.body_line, 10);
        assert_eq!(doc.frontmatter.unwrap().get("globs").unwrap().line, 3);
    }

    #[test]
    fn crlf_parses_to_the_same_fields() {
        let lf = parse(CASE_14);
        let crlf = parse(&CASE_14.replace('\n', "\r\n"));
        assert_eq!(lf.frontmatter, crlf.frontmatter);
        assert_eq!(
            crate::base::text::lines(&lf.body),
            crate::base::text::lines(&crlf.body)
        );
    }

    #[test]
    fn absent_empty_and_unclosed() {
        let plain = parse("# Plain\n\nBody.\n");
        assert!(plain.frontmatter.is_none());
        assert_eq!(plain.body, "# Plain\n\nBody.");
        assert!(parse("--- not a fence\n# Title").frontmatter.is_none());
        let empty = parse("---\n---\n# Title");
        assert_eq!(empty.frontmatter.unwrap().fields, vec![]);
        assert_eq!(empty.body, "# Title");
        let bare = parse("---\nglobs: a/**\n---");
        assert_eq!(bare.frontmatter.unwrap().text("globs"), Some("a/**"));
        assert_eq!(bare.body, "");
        let unclosed = parse("---\nglobs: src/**\n# Body");
        assert!(unclosed.frontmatter.is_none());
        assert_eq!(unclosed.unclosed_at, Some(1));
        assert!(unclosed.body.contains("---") && unclosed.body.contains("globs: src/**"));
        assert!(parse("---").frontmatter.is_none());
        assert!(parse("---  \t\nk: v\n--- \n").frontmatter.is_some());
    }

    #[test]
    fn line_dialect_details() {
        let doc = parse("---\n# comment\n  indented: x\nkey : spaced\n1bad: x\nrepeat: one\nrepeat: two\nx_y-z: a:b: c \t\n---\n");
        let fm = doc.frontmatter.unwrap();
        assert_eq!(fm.text("repeat"), Some("two"));
        assert_eq!(fm.text("x_y-z"), Some("a:b: c"));
        assert!(
            fm.get("indented").is_none() && fm.get("key").is_none() && fm.get("1bad").is_none()
        );
        let ignored: Vec<usize> = fm.ignored.iter().map(|l| l.line).collect();
        assert_eq!(ignored, vec![2, 3, 4, 5]);
    }

    #[test]
    fn comma_lists_and_yaml_sequences() {
        let fm = |text: &str| parse(text).frontmatter.unwrap();
        assert_eq!(
            fm("---\nglobs:  , \n---\n").list("globs"),
            Vec::<String>::new()
        );
        assert_eq!(
            fm("---\nglobs: src/{a,b}.clj\n---\n").list("globs"),
            vec!["src/{a", "b}.clj"]
        );
        assert_eq!(
            fm("---\nglobs: [\"a/**\", 'b/*.ts']\n---\n").list("globs"),
            vec!["a/**", "b/*.ts"]
        );
        assert_eq!(
            fm("---\nglobs: [src/{a,b}.ts]\n---\n").list("globs"),
            vec!["[src/{a", "b}.ts]"]
        );
        assert_eq!(
            fm("---\nglobs: [\"src/{a,b}.ts\"]\n---\n").list("globs"),
            vec!["src/{a,b}.ts"]
        );
        let block = fm("---\nglobs:\n  - \"src/**\"\n  - '*.md'\nalwaysApply: true\n---\n");
        assert_eq!(block.list("globs"), vec!["src/**", "*.md"]);
        assert_eq!(block.text("alwaysApply"), Some("true"));
        assert!(block.ignored.is_empty());
        let flush = fm("---\npaths:\n- a\n- b\n---\n");
        assert_eq!(flush.list("paths"), vec!["a", "b"]);
        // A bracket glob that is not a sequence stays raw text.
        assert_eq!(fm("---\nglobs: [ab\n---\n").list("globs"), vec!["[ab"]);
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_the_frontmatter() {
        let doc = parse("\u{feff}---\nalwaysApply: true\n---\nBody");
        assert!(doc.had_bom);
        assert_eq!(doc.frontmatter.unwrap().text("alwaysApply"), Some("true"));
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn parse_example() {
        use crate::syntax::frontmatter::{parse, FieldValue};
        let doc = parse("---\nglobs: src/**, *.ts\n---\n\n# Body\n");
        let fm = doc.frontmatter.unwrap();
        assert_eq!(
            fm.get("globs").unwrap().value,
            FieldValue::Text("src/**, *.ts".into())
        );
        assert_eq!(doc.body, "# Body");
        assert_eq!(doc.body_line, 5);
    }
}
