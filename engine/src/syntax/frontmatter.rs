//! Rule frontmatter (behaviour §1.3): Cursor's `key: value` line dialect,
//! exactly as the original reads it, plus YAML sequences for list fields
//! (`globs: ["a", "b"]` or a block of `- a` lines), which the original
//! silently drops, and YAML's multi-line values (block scalars `>` and
//! `|`, quoted and plain scalars continued on indented lines), read as
//! YAML reads them. Read by hand: a YAML library would cost the
//! WebAssembly engine far more than these few rules (the tests hold them
//! to a library's answers).

/// A field's value: the raw text after the colon, or the items of a YAML
/// sequence.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FieldValue {
    Text(String),
    List(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Field {
    pub key: String,
    pub value: FieldValue,
    /// 1-based line of the key in the rule file.
    pub line: usize,
    /// 1-based column, in characters, where the value starts on the key's
    /// line: `check` points at a glob inside it.
    pub value_column: usize,
    /// The value as YAML reads a scalar (quotes and escapes read, block
    /// scalars and continued lines folded); `None` for a sequence or a
    /// value YAML cannot read.
    pub scalar: Option<String>,
    /// Where a sequence's items are written: each `- item` line's number,
    /// the column its item starts at and the item as written; for a flow
    /// sequence, the key's line from the value on. Empty for other
    /// values. `check` points at an item inside them.
    pub item_lines: Vec<WrittenItem>,
}

/// An item of a sequence as it is written on its line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WrittenItem {
    /// 1-based line in the rule file.
    pub line: usize,
    /// 1-based column, in characters, where `text` starts.
    pub column: usize,
    /// The line's text from that column on.
    pub text: String,
}

/// A line inside the block that is not a field (a comment, an indented
/// continuation, `key : value`...). Kept so `check` can point at it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct IgnoredLine {
    pub line: usize,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Frontmatter {
    /// Fields in file order; a repeated key's last line wins on lookup.
    pub fields: Vec<Field>,
    pub ignored: Vec<IgnoredLine>,
    /// YAML sequences that could not be read: line and the parser's words.
    pub list_errors: Vec<IgnoredLine>,
}

/// A frontmatter block kept as its text and read into fields when first
/// asked: a loaded rule's meaning is read at load, and its fields are only
/// wanted again by `check` and a few words of `explain`, so a kept project
/// holds one string per block instead of several per field.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Block {
    /// The lines between the fences, as written, line endings included.
    text: String,
    /// Boxed: a block never asked for costs a pointer, not the fields'
    /// three vectors.
    #[serde(skip)]
    read: std::sync::OnceLock<Box<Frontmatter>>,
}

impl Block {
    fn new(text: String) -> Block {
        Block {
            text,
            read: std::sync::OnceLock::new(),
        }
    }

    /// The block's fields, read on first use.
    pub(crate) fn fields(&self) -> &Frontmatter {
        self.read.get_or_init(|| {
            let lines: Vec<&str> = self.text.split_inclusive('\n').map(content).collect();
            Box::new(parse_block(&lines, 2))
        })
    }
}

/// Two blocks are the same when their fields are: a CRLF block reads as
/// its LF twin.
impl PartialEq for Block {
    fn eq(&self, other: &Block) -> bool {
        self.fields() == other.fields()
    }
}

impl Eq for Block {}

/// A rule file split into frontmatter and body.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Document {
    /// `None` when the file has no frontmatter block (absent, not empty).
    block: Option<Block>,
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
            block: None,
            body: text.trim().to_string(),
            body_line: body_line(text, 0),
            unclosed_at: opens.then_some(1),
            had_bom,
        };
    };
    let start = raw_lines[0].len();
    let end: usize = raw_lines[..close].iter().map(|line| line.len()).sum();
    let after = end + raw_lines[close].len();
    Document {
        block: Some(Block::new(text[start..end].to_string())),
        body: text[after..].trim().to_string(),
        body_line: body_line(text, after),
        unclosed_at: None,
        had_bom,
    }
}

impl Document {
    /// The frontmatter's fields, `None` when the file has no block.
    pub fn frontmatter(&self) -> Option<&Frontmatter> {
        self.block.as_ref().map(Block::fields)
    }

    /// Whether the file has a frontmatter block, without reading it.
    pub fn has_frontmatter(&self) -> bool {
        self.block.is_some()
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
        // `value` is a slice of the line, so its offset is where it starts.
        let offset = value.as_ptr() as usize - lines[i].as_ptr() as usize;
        let value_column = lines[i][..offset].chars().count() + 1;
        let items = lines[i + 1..]
            .iter()
            .take_while(|line| is_list_item(line))
            .count();
        let mut scalar = None;
        let mut item_lines = Vec::new();
        let value = if let Some(header) = block_header(value) {
            let taken = block_lines(&lines[i + 1..], header.indent);
            let text = read_block(&lines[i + 1..=i + taken], &header);
            i += taken;
            scalar = Some(text.clone());
            FieldValue::Text(text)
        } else if let Some((taken, raw, read)) = continued(value, &lines[i + 1..]) {
            i += taken;
            scalar = read;
            FieldValue::Text(raw)
        } else if value.is_empty() && items > 0 {
            let snippet: String = lines[i + 1..=i + items]
                .iter()
                .map(|l| format!("{l}\n"))
                .collect();
            item_lines = lines[i + 1..=i + items]
                .iter()
                .enumerate()
                .map(|(n, line)| {
                    let item = line
                        .trim_start_matches([' ', '\t'])
                        .strip_prefix('-')
                        .unwrap_or_default()
                        .trim_start_matches([' ', '\t']);
                    WrittenItem {
                        line: line_no + 1 + n,
                        column: line[..line.len() - item.len()].chars().count() + 1,
                        text: item.to_string(),
                    }
                })
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
            let read = yaml_sequence(value);
            if read.is_ok() {
                item_lines.push(WrittenItem {
                    line: line_no,
                    column: value_column,
                    text: value.to_string(),
                });
            }
            read.unwrap_or_else(|_| FieldValue::Text(value.to_string()))
        } else {
            FieldValue::Text(value.to_string())
        };
        if scalar.is_none() {
            if let FieldValue::Text(text) = &value {
                scalar = crate::syntax::yaml_list::scalar_text(text).ok();
            }
        }
        fm.fields.push(Field {
            key: key.to_string(),
            value,
            line: line_no,
            value_column,
            scalar,
            item_lines,
        });
        i += 1;
    }
    fm
}

/// A block scalar's header: `|` (literal) or `>` (folded), then at most
/// one chomping indicator and one indentation digit, in either order.
struct BlockHeader {
    folded: bool,
    /// `-` strips the final line breaks, `+` keeps them all; else one.
    chomp: Option<char>,
    indent: Option<usize>,
}

fn block_header(value: &str) -> Option<BlockHeader> {
    let folded = match value.chars().next()? {
        '|' => false,
        '>' => true,
        _ => return None,
    };
    let rest = &value[1..];
    let indicators_len = rest
        .find(|c: char| !(c == '-' || c == '+' || c.is_ascii_digit()))
        .unwrap_or(rest.len());
    let (indicators, after) = rest.split_at(indicators_len);
    let after = after.trim_start_matches([' ', '\t']);
    if !(after.is_empty() || (after.starts_with('#') && after.len() < rest.len())) {
        return None;
    }
    let chomp = indicators.chars().find(|c| *c == '-' || *c == '+');
    let digits: Vec<char> = indicators.chars().filter(char::is_ascii_digit).collect();
    if indicators.len() > 2 || digits.len() > 1 || digits == ['0'] {
        return None;
    }
    Some(BlockHeader {
        folded,
        chomp,
        indent: digits
            .first()
            .and_then(|d| d.to_digit(10))
            .map(|d| d as usize),
    })
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank(line: &str) -> bool {
    line.trim_matches([' ', '\t']).is_empty()
}

/// How many lines after the header belong to the block: blank lines and
/// lines indented at least as deep as the block (its first line's depth,
/// or the header's digit), up to the first line that is neither.
fn block_lines(lines: &[&str], explicit: Option<usize>) -> usize {
    let indent = explicit.unwrap_or_else(|| {
        lines
            .iter()
            .find(|l| !is_blank(l))
            .map_or(0, |l| indent_of(l))
    });
    if indent == 0 {
        return lines.iter().take_while(|l| l.is_empty()).count();
    }
    let taken = lines
        .iter()
        .take_while(|l| is_blank(l) || indent_of(l) >= indent)
        .count();
    // Trailing blank lines before the next key are the block's (for
    // chomping) only as far as they are taken; either way nothing is lost.
    taken
}

/// A block scalar's text, as YAML reads it.
fn read_block(lines: &[&str], header: &BlockHeader) -> String {
    let indent = header.indent.unwrap_or_else(|| {
        lines
            .iter()
            .find(|l| !is_blank(l))
            .map_or(0, |l| indent_of(l))
    });
    let content: Vec<&str> = lines
        .iter()
        .map(|l| {
            if is_blank(l) && l.len() <= indent {
                ""
            } else {
                l.get(indent..).unwrap_or("")
            }
        })
        .collect();
    let last = content.iter().rposition(|l| !l.is_empty());
    let Some(last) = last else {
        return match header.chomp {
            Some('+') => "\n".repeat(content.len()),
            _ => String::new(),
        };
    };
    let trailing = content.len() - last - 1;
    let body = &content[..=last];
    let mut out = String::new();
    if header.folded {
        let mut pending = 0;
        let mut started = false;
        let mut previous_more = false;
        for line in body {
            if line.is_empty() {
                pending += 1;
                continue;
            }
            let more = line.starts_with([' ', '\t']);
            if !started {
                out.push_str(&"\n".repeat(pending));
            } else if more || previous_more {
                out.push_str(&"\n".repeat(pending + 1));
            } else if pending == 0 {
                out.push(' ');
            } else {
                out.push_str(&"\n".repeat(pending));
            }
            out.push_str(line);
            started = true;
            previous_more = more;
            pending = 0;
        }
    } else {
        out = body.join("\n");
    }
    match header.chomp {
        Some('-') => {}
        Some('+') => out.push_str(&"\n".repeat(trailing + 1)),
        _ => out.push('\n'),
    }
    out
}

/// A quoted scalar left open on the key's line, or a plain one, continued
/// on the indented lines after it: how many lines it takes, the raw value
/// (its lines joined with spaces, quotes kept) and YAML's reading.
fn continued(value: &str, after: &[&str]) -> Option<(usize, String, Option<String>)> {
    let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'');
    let continues = |l: &&&str| l.starts_with([' ', '\t']) && !is_blank(l) && !is_list_item(l);
    let taken = match quote {
        Some(q) if !closes(&value[1..], q) => {
            let end = after.iter().position(|l| closes(l, q))?;
            end + 1
        }
        Some(_) => return None,
        None if value.starts_with(['[', '{', '#', '&', '*', '!']) => return None,
        None => after.iter().take_while(continues).count(),
    };
    if taken == 0 {
        return None;
    }
    // `key:` alone, then indented text: the text is the value.
    let first = (!value.is_empty()).then_some(value);
    let lines: Vec<&str> = first
        .into_iter()
        .chain(after[..taken].iter().map(|l| l.trim_matches([' ', '\t'])))
        .collect();
    let raw = lines
        .iter()
        .filter(|l| !l.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let read = match quote {
        Some('"') => {
            let folded = fold(&lines, true);
            crate::syntax::yaml_list::scalar_text(&folded).ok()
        }
        Some(_) => crate::syntax::yaml_list::scalar_text(&fold(&lines, false)).ok(),
        None => Some(fold(&lines, false)),
    };
    Some((taken, raw, read))
}

/// Whether a line closes a quoted scalar opened earlier.
fn closes(text: &str, quote: char) -> bool {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quote == '"' => {
                chars.next();
            }
            '\'' if quote == '\'' && chars.peek() == Some(&'\'') => {
                chars.next();
            }
            c if c == quote => return true,
            _ => {}
        }
    }
    false
}

/// YAML's line folding of a flow scalar's lines (each trimmed): one line
/// break between text is a space, each empty line is a line break; in a
/// double-quoted scalar a `\` at a line's end joins without a space.
fn fold(lines: &[&str], double: bool) -> String {
    let mut out = String::new();
    let mut pending = 0;
    for (index, line) in lines.iter().enumerate() {
        let line = if index == 0 {
            line.trim_end_matches([' ', '\t'])
        } else {
            line
        };
        if line.is_empty() {
            pending += 1;
            continue;
        }
        if index > 0 {
            let escaped_break = double && out.ends_with('\\') && !out.ends_with("\\\\");
            if escaped_break {
                out.pop();
                out.push_str(&"\\n".repeat(pending));
            } else if pending == 0 {
                out.push(' ');
            } else {
                let newline = if double { "\\n" } else { "\n" };
                out.push_str(&newline.repeat(pending));
            }
        }
        out.push_str(line);
        pending = 0;
    }
    out
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

    /// A field's value as YAML reads a scalar: quotes and escapes read,
    /// multi-line values folded (`description: >` and its lines).
    pub fn scalar(&self, key: &str) -> Option<String> {
        self.get(key)?.scalar.clone()
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
        doc.frontmatter().unwrap().text(key).unwrap().to_string()
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
        assert_eq!(
            doc.frontmatter()
                .cloned()
                .unwrap()
                .get("globs")
                .unwrap()
                .line,
            3
        );
    }

    #[test]
    fn crlf_parses_to_the_same_fields() {
        let lf = parse(CASE_14);
        let crlf = parse(&CASE_14.replace('\n', "\r\n"));
        assert_eq!(lf.frontmatter(), crlf.frontmatter());
        assert_eq!(
            crate::base::text::lines(&lf.body),
            crate::base::text::lines(&crlf.body)
        );
    }

    #[test]
    fn absent_empty_and_unclosed() {
        let plain = parse("# Plain\n\nBody.\n");
        assert!(plain.frontmatter().is_none());
        assert_eq!(plain.body, "# Plain\n\nBody.");
        assert!(parse("--- not a fence\n# Title").frontmatter().is_none());
        let empty = parse("---\n---\n# Title");
        assert_eq!(empty.frontmatter().cloned().unwrap().fields, vec![]);
        assert_eq!(empty.body, "# Title");
        let bare = parse("---\nglobs: a/**\n---");
        assert_eq!(
            bare.frontmatter().cloned().unwrap().text("globs"),
            Some("a/**")
        );
        assert_eq!(bare.body, "");
        let unclosed = parse("---\nglobs: src/**\n# Body");
        assert!(unclosed.frontmatter().is_none());
        assert_eq!(unclosed.unclosed_at, Some(1));
        assert!(unclosed.body.contains("---") && unclosed.body.contains("globs: src/**"));
        assert!(parse("---").frontmatter().is_none());
        assert!(parse("---  \t\nk: v\n--- \n").frontmatter().is_some());
    }

    #[test]
    fn line_dialect_details() {
        let doc = parse("---\n# comment\n  indented: x\nkey : spaced\n1bad: x\nrepeat: one\nrepeat: two\nx_y-z: a:b: c \t\n---\n");
        let fm = doc.frontmatter().cloned().unwrap();
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
        let fm = |text: &str| parse(text).frontmatter().cloned().unwrap();
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

    fn scalar(text: &str, key: &str) -> Option<String> {
        parse(text).frontmatter().cloned().unwrap().scalar(key)
    }

    #[test]
    fn block_scalars_and_continued_lines_read_as_yaml_reads_them() {
        let doc = parse("---\ndescription: >\n  Use this rule\n  for migrations.\n\n  Second paragraph.\nglobs: db/**\n---\nBody");
        let fm = doc.frontmatter().cloned().unwrap();
        assert!(fm.ignored.is_empty(), "{:?}", fm.ignored);
        assert_eq!(
            fm.scalar("description").as_deref(),
            Some("Use this rule for migrations.\nSecond paragraph.\n")
        );
        assert_eq!(fm.text("globs"), Some("db/**"));
        assert_eq!(fm.get("globs").unwrap().line, 7);
        assert_eq!(
            scalar("---\ndescription: |-\n  one\n    two\n---\n", "description").as_deref(),
            Some("one\n  two")
        );
        assert_eq!(
            scalar("---\ndescription: \"Long text\n  continued, \\\"quoted\\\"\"\nalwaysApply: true\n---\n", "description").as_deref(),
            Some("Long text continued, \"quoted\"")
        );
        assert_eq!(
            scalar(
                "---\ndescription: plain text\n  goes on\n---\n",
                "description"
            )
            .as_deref(),
            Some("plain text goes on")
        );
        let alone =
            parse("---\ndescription:\n  on the next line\n  and one more\nglobs:\n  - a/**\n---\n");
        let alone = alone.frontmatter().cloned().unwrap();
        assert_eq!(
            alone.scalar("description").as_deref(),
            Some("on the next line and one more")
        );
        assert_eq!(alone.list("globs"), vec!["a/**"]);
        assert!(alone.ignored.is_empty());
        assert_eq!(
            scalar(
                "---\ndescription: 'it''s: fine' # note\n---\n",
                "description"
            )
            .as_deref(),
            Some("it's: fine")
        );
        // The raw text keeps Cursor's reading: quotes stay.
        let quoted = parse("---\nalwaysApply: \"true\"\n---\n")
            .frontmatter()
            .cloned()
            .unwrap();
        assert_eq!(quoted.text("alwaysApply"), Some("\"true\""));
        assert_eq!(quoted.scalar("alwaysApply").as_deref(), Some("true"));
        // A quote never closed reads nothing and its lines stay ignored.
        let open = parse("---\ndescription: \"never\n  closed\n---\n")
            .frontmatter()
            .cloned()
            .unwrap();
        assert_eq!(open.scalar("description"), None);
        assert_eq!(open.ignored.len(), 1);
    }

    /// The same answers as a YAML library, on generated multi-line values.
    #[test]
    fn multi_line_values_agree_with_a_yaml_library() {
        let headers = ["|", ">", "|-", ">-", "|+", ">+", "|2", ">2-"];
        let lines = [
            "  text",
            "  more text",
            "",
            "    deeper",
            "  a: b",
            "  # not a comment",
            "  \"q\"",
            "  ünï",
        ];
        let flows = [
            "\"one\n  two\"",
            "\"one\n\n  two\"",
            "\"one \\\n  two\"",
            "\"esc \\t\n  \\u00e9\"",
            "'one\n  two'",
            "'it''s\n\n  x'",
            "plain\n  more",
            "plain\n  more\n  and more",
            "\n  alone\n  on its lines",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut cases: Vec<String> = flows.iter().map(|f| format!("k: {f}\nz: end\n")).collect();
        for _ in 0..1500 {
            let header = headers[next(headers.len())];
            let count = 1 + next(4);
            let body: Vec<&str> = (0..count).map(|_| lines[next(lines.len())]).collect();
            if body.iter().all(|l| l.is_empty()) || body.first() == Some(&"    deeper") {
                continue;
            }
            cases.push(format!("k: {header}\n{}\nz: end\n", body.join("\n")));
        }
        let mut compared = 0;
        for case in cases {
            let theirs = library(&case);
            let fm = parse(&format!("---\n{case}---\n"))
                .frontmatter()
                .cloned()
                .unwrap();
            if let Some(theirs) = theirs {
                assert_eq!(fm.scalar("k"), Some(theirs), "{case:?}");
                assert_eq!(fm.text("z"), Some("end"), "{case:?}");
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    fn library(text: &str) -> Option<String> {
        use yaml_serde::Value;
        let Value::Mapping(map) = yaml_serde::from_str::<Value>(text).ok()? else {
            return None;
        };
        match map.get(Value::String("k".into()))? {
            Value::String(s) => Some(s.clone()),
            _ => None,
        }
    }

    #[test]
    fn a_byte_order_mark_does_not_hide_the_frontmatter() {
        let doc = parse("\u{feff}---\nalwaysApply: true\n---\nBody");
        assert!(doc.had_bom);
        assert_eq!(
            doc.frontmatter().cloned().unwrap().text("alwaysApply"),
            Some("true")
        );
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
        let fm = doc.frontmatter().cloned().unwrap();
        assert_eq!(
            fm.get("globs").unwrap().value,
            FieldValue::Text("src/**, *.ts".into())
        );
        assert_eq!(doc.body, "# Body");
        assert_eq!(doc.body_line, 5);
    }
}
