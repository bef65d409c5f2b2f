//! The YAML that frontmatter lists need, and no more: a flow sequence on
//! one line (`["a/**", 'b', c]`) or block items (`- a` lines), each item a
//! scalar. Plain, single- and double-quoted scalars are read as YAML reads
//! them; items that YAML reads as numbers, booleans or null are dropped, as
//! opencode-rules drops them. A full YAML parser would cost the WebAssembly
//! engine a tenth of its size for this; the tests hold this reader to a
//! YAML library's answers.

/// The text items of a sequence, or why it is not a sequence of scalars.
pub(crate) fn parse_sequence(text: &str) -> Result<Vec<String>, String> {
    let trimmed = text.trim();
    let items = if trimmed.starts_with('[') {
        flow_items(trimmed)?
    } else {
        block_items(text)?
    };
    Ok(items.into_iter().flatten().collect())
}

/// `- item` lines; every line must be one, at the same indentation.
fn block_items(text: &str) -> Result<Vec<Option<String>>, String> {
    let mut indent = None;
    let mut items = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let content = line.trim_start_matches([' ', '\t']);
        let this_indent = line.len() - content.len();
        if *indent.get_or_insert(this_indent) != this_indent {
            return Err("the list items are not indented alike".to_string());
        }
        let item = match content.strip_prefix('-') {
            Some("") => "",
            Some(rest) if rest.starts_with([' ', '\t']) => rest.trim_start_matches([' ', '\t']),
            _ => return Err(format!("`{}` is not a list item", content.trim())),
        };
        items.push(scalar(item, false)?);
    }
    if items.is_empty() {
        return Err("the list is empty".to_string());
    }
    Ok(items)
}

/// `[a, "b", 'c']` on one line.
fn flow_items(text: &str) -> Result<Vec<Option<String>>, String> {
    let inner = text
        .strip_prefix('[')
        .and_then(|t| strip_comment(t).strip_suffix(']'))
        .ok_or("the list has no closing `]`")?;
    let mut items = Vec::new();
    for raw in split_flow(inner)? {
        let raw = raw.trim_matches([' ', '\t']);
        if raw.is_empty() {
            return Err("an item of the list is empty".to_string());
        }
        items.push(scalar(raw, true)?);
    }
    // YAML allows one trailing comma: `[a, b,]`.
    Ok(items)
}

/// Splits a flow sequence's inside at the commas outside quotes.
fn split_flow(inner: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let (mut start, mut quote, mut chars) = (0, None::<char>, inner.char_indices().peekable());
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some('\''), '\'') if chars.peek().map(|(_, n)| *n) == Some('\'') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if inner[start..i].trim().is_empty() => quote = Some(c),
            (None, '[' | ']' | '{' | '}') => {
                return Err("list items must be plain text".to_string())
            }
            (None, ',') => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            (None, _) => {}
        }
    }
    if quote.is_some() {
        return Err("a quoted item is never closed".to_string());
    }
    let last = &inner[start..];
    if !last.trim().is_empty() || parts.is_empty() {
        parts.push(last);
    }
    if parts.len() == 1 && parts[0].trim().is_empty() {
        return Ok(Vec::new());
    }
    Ok(parts)
}

/// A ` # comment` at the end of a line goes (a `#` inside a word stays).
fn strip_comment(text: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') if previous == ' ' || previous == '\t' => return text[..i].trim_end(),
            _ => {}
        }
        previous = c;
    }
    text.trim_end()
}

/// One scalar on one line as YAML reads it, whatever its type: quotes
/// removed and escapes read, a plain scalar's ` # comment` dropped
/// (`"a\tb"` is `a<tab>b`, `true` is `true`).
pub(crate) fn scalar_text(raw: &str) -> Result<String, String> {
    let raw = raw.trim_matches([' ', '\t']);
    if let Some(rest) = raw.strip_prefix('"') {
        return double_quoted(rest);
    }
    if let Some(rest) = raw.strip_prefix('\'') {
        return single_quoted(rest);
    }
    Ok(strip_comment(raw).to_string())
}

fn single_quoted(rest: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\'' {
            out.push(c);
        } else if chars.peek() == Some(&'\'') {
            chars.next();
            out.push('\'');
        } else {
            let after: String = chars.collect();
            return match strip_comment(&after).trim() {
                "" => Ok(out),
                _ => Err("text follows a quoted item".to_string()),
            };
        }
    }
    Err("a quoted item is never closed".to_string())
}

/// One scalar: `Some(text)`, or `None` for YAML's numbers, booleans and null.
fn scalar(raw: &str, in_flow: bool) -> Result<Option<String>, String> {
    let raw = if in_flow { raw } else { strip_comment(raw) };
    if let Some(rest) = raw.strip_prefix('"') {
        return double_quoted(rest).map(Some);
    }
    if let Some(rest) = raw.strip_prefix('\'') {
        let body = rest
            .strip_suffix('\'')
            .filter(|b| !b.replace("''", "").contains('\''))
            .ok_or("a quoted item is never closed")?;
        return Ok(Some(body.replace("''", "'")));
    }
    if raw.starts_with(['[', '{']) || (raw.contains(": ") || raw.ends_with(':')) {
        return Err("list items must be plain text".to_string());
    }
    // YAML reads these first characters as aliases, anchors, tags and the
    // like, never as text: `- *.ts` is not a glob to YAML.
    if let Some(first) = raw.chars().next().filter(|c| "*&!|>%@`".contains(*c)) {
        return Err(format!(
            "`{raw}` starts with `{first}`, which YAML does not read as text: quote it, \"{raw}\""
        ));
    }
    Ok((!is_non_text(raw)).then(|| raw.to_string()))
}

fn double_quoted(rest: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                return match strip_comment(chars.as_str()).trim() {
                    "" => Ok(out),
                    _ => Err("text follows a quoted item".to_string()),
                }
            }
            '\\' => {
                let escaped = match chars.next().ok_or("a quoted item is never closed")? {
                    '0' => '\0',
                    'a' => '\u{7}',
                    'b' => '\u{8}',
                    't' | '\t' => '\t',
                    'n' => '\n',
                    'v' => '\u{b}',
                    'f' => '\u{c}',
                    'r' => '\r',
                    'e' => '\u{1b}',
                    ' ' => ' ',
                    '"' => '"',
                    '/' => '/',
                    '\\' => '\\',
                    'N' => '\u{85}',
                    '_' => '\u{a0}',
                    'L' => '\u{2028}',
                    'P' => '\u{2029}',
                    x @ ('x' | 'u' | 'U') => {
                        let len = match x {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let digits: String = chars.by_ref().take(len).collect();
                        u32::from_str_radix(&digits, 16)
                            .ok()
                            .filter(|_| digits.len() == len)
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("`\\{x}{digits}` is not a character"))?
                    }
                    other => return Err(format!("`\\{other}` is not an escape YAML knows")),
                };
                out.push(escaped);
            }
            other => out.push(other),
        }
    }
    Err("a quoted item is never closed".to_string())
}

/// YAML 1.2's core schema: the plain scalars that are not text.
fn is_non_text(raw: &str) -> bool {
    let null = matches!(raw, "" | "~" | "null" | "Null" | "NULL");
    let boolean = matches!(raw, "true" | "True" | "TRUE" | "false" | "False" | "FALSE");
    let special = matches!(
        raw,
        ".inf"
            | ".Inf"
            | ".INF"
            | "+.inf"
            | "+.Inf"
            | "+.INF"
            | "-.inf"
            | "-.Inf"
            | "-.INF"
            | ".nan"
            | ".NaN"
            | ".NAN"
    );
    null || boolean || special || is_number(raw)
}

fn is_number(raw: &str) -> bool {
    let unsigned = raw.strip_prefix(['+', '-']).unwrap_or(raw);
    let radix = |prefix: &str, radix: u32| {
        raw.strip_prefix(prefix)
            .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_digit(radix)))
    };
    let decimal = !unsigned.is_empty() && unsigned.chars().all(|c| c.is_ascii_digit());
    let float = unsigned.chars().any(|c| c.is_ascii_digit())
        && unsigned
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        && unsigned.parse::<f64>().is_ok();
    decimal || float || radix("0x", 16) || radix("0o", 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flow_and_block_sequences() {
        assert_eq!(
            parse_sequence("[\"a/**\", 'b/*.ts']").unwrap(),
            vec!["a/**", "b/*.ts"]
        );
        assert_eq!(
            parse_sequence("[src/{a,b}.ts]").unwrap_err(),
            "list items must be plain text"
        );
        assert_eq!(
            parse_sequence("[\"src/{a,b}.ts\"]").unwrap(),
            vec!["src/{a,b}.ts"]
        );
        assert_eq!(parse_sequence("[a, b,]").unwrap(), vec!["a", "b"]);
        assert_eq!(parse_sequence("[]").unwrap(), Vec::<String>::new());
        assert_eq!(
            parse_sequence("  - \"src/**\"\n  - '*.md'\n").unwrap(),
            vec!["src/**", "*.md"]
        );
        assert_eq!(parse_sequence("- a\n- b\n").unwrap(), vec!["a", "b"]);
        assert!(parse_sequence("  - a\n    - b\n").is_err());
        assert_eq!(
            parse_sequence("[\"**/*.ts\", 123, true, ~, 1.5, 0x1F]").unwrap(),
            vec!["**/*.ts"]
        );
        assert_eq!(
            parse_sequence("[gpt-5, 4o, 1.2.3]").unwrap(),
            vec!["gpt-5", "4o", "1.2.3"]
        );
        assert_eq!(
            parse_sequence("[\"\\u00e9\\t\", 'it''s']").unwrap(),
            vec!["é\t", "it's"]
        );
        assert!(parse_sequence("[\"open]").is_err());
        assert!(parse_sequence("[a").is_err());
        assert!(parse_sequence("- key: value").is_err());
        assert_eq!(
            parse_sequence("- a # note\n- b#c\n").unwrap(),
            vec!["a", "b#c"]
        );
        assert_eq!(
            parse_sequence("- *.ts").unwrap_err(),
            "`*.ts` starts with `*`, which YAML does not read as text: quote it, \"*.ts\""
        );
    }

    /// The same answers as a YAML library, on generated lists.
    #[test]
    fn agrees_with_a_yaml_library() {
        let pieces = [
            "src/**",
            "*.ts",
            "a b",
            "x,y",
            "\"q\"",
            "'s'",
            "'it''s'",
            "\"a\\\"b\"",
            "12",
            "1.5",
            "true",
            "False",
            "~",
            "null",
            "gpt-5",
            "über",
            "\"\\u00e9\"",
            "/plan",
            "a#b",
            "0x1f",
            "-3",
            "1e3",
            "yes",
            ".inf",
            "v1.2",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for round in 0..3000 {
            let count = 1 + next(4);
            let items: Vec<&str> = (0..count).map(|_| pieces[next(pieces.len())]).collect();
            let flow = round % 2 == 0;
            let text = if flow {
                if items
                    .iter()
                    .any(|i| i.contains(',') && !i.starts_with(['"', '\'']))
                {
                    continue;
                }
                format!("[{}]", items.join(", "))
            } else {
                items.iter().map(|i| format!("  - {i}\n")).collect()
            };
            let ours = parse_sequence(&text);
            let theirs = library(&text);
            assert_eq!(ours.ok(), theirs, "{text}");
        }
    }

    fn library(text: &str) -> Option<Vec<String>> {
        use yaml_serde::Value;
        let Value::Sequence(items) = yaml_serde::from_str::<Value>(text).ok()? else {
            return None;
        };
        items
            .into_iter()
            .filter_map(|item| match item {
                Value::String(s) => Some(Some(s)),
                Value::Number(_) | Value::Bool(_) | Value::Null => None,
                _ => Some(None),
            })
            .collect()
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn parse_sequence_example() {
        use crate::syntax::yaml_list::parse_sequence;
        assert_eq!(
            parse_sequence(r#"["src/**", 'a''b', c, 12, true]"#).unwrap(),
            vec!["src/**", "a'b", "c"]
        );
        assert_eq!(
            parse_sequence("  - \"x\\ty\"\n  - plain  # comment\n").unwrap(),
            vec!["x\ty", "plain"]
        );
        assert!(parse_sequence("[a, [b]]").is_err());
    }
}
