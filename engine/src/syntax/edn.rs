//! A reader for the EDN that `rule-fairy.edn` needs: maps, vectors, lists,
//! sets, keywords, symbols, strings, characters, numbers, booleans and nil,
//! with comments, discards and tagged literals. Every value keeps the line
//! and columns it was written on, so configuration errors can point at it.

use std::fmt;

use crate::base::finding::Span;

/// A value read from EDN, with the 1-based line where it starts and its
/// columns on that line (in characters).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Edn {
    pub value: Value,
    pub line: usize,
    /// The column of its first character.
    pub column: usize,
    /// The column just past its last character when it ends on its first
    /// line; just past its opening delimiter when it goes on below.
    pub end_column: usize,
}

impl Edn {
    /// Where the value is written on its first line.
    pub(crate) fn span(&self) -> Span {
        Span {
            column: self.column,
            end_column: self.end_column.max(self.column + 1),
        }
    }
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) enum Value {
    Nil,
    Bool(bool),
    Integer(String),
    Float(String),
    Str(String),
    Char(char),
    /// A keyword, without its leading colon.
    Keyword(String),
    Symbol(String),
    List(Vec<Edn>),
    Vector(Vec<Edn>),
    Set(Vec<Edn>),
    Map(Vec<(Edn, Edn)>),
    Tagged(String, Box<Edn>),
}

impl PartialEq for Edn {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        use Value::*;
        match (self, other) {
            (Nil, Nil) => true,
            (Bool(a), Bool(b)) => a == b,
            (Integer(a), Integer(b)) | (Float(a), Float(b)) => a == b,
            (Str(a), Str(b)) | (Keyword(a), Keyword(b)) | (Symbol(a), Symbol(b)) => a == b,
            (Char(a), Char(b)) => a == b,
            // EDN lists and vectors with equal items are equal, as in Clojure.
            (List(a) | Vector(a), List(b) | Vector(b)) => a == b,
            (Set(a), Set(b)) => a.len() == b.len() && a.iter().all(|x| b.contains(x)),
            (Map(a), Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(k, v)| b.iter().any(|(k2, v2)| k == k2 && v == v2))
            }
            (Tagged(t1, a), Tagged(t2, b)) => t1 == t2 && a == b,
            _ => false,
        }
    }
}

impl Value {
    pub(crate) fn is_keyword(&self, name: &str) -> bool {
        matches!(self, Value::Keyword(k) if k == name)
    }

    /// The items of a vector or list ("sequential" in Clojure's terms).
    pub(crate) fn as_sequential(&self) -> Option<&[Edn]> {
        match self {
            Value::Vector(items) | Value::List(items) => Some(items),
            _ => None,
        }
    }

    pub(crate) fn as_map(&self) -> Option<&[(Edn, Edn)]> {
        match self {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }
}

impl fmt::Display for Edn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

/// Prints the value in EDN form, as Clojure's `pr-str` would.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn items(
            f: &mut fmt::Formatter<'_>,
            open: &str,
            items: &[Edn],
            close: &str,
        ) -> fmt::Result {
            f.write_str(open)?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{item}")?;
            }
            f.write_str(close)
        }
        match self {
            Value::Nil => f.write_str("nil"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Integer(n) | Value::Float(n) => f.write_str(n),
            Value::Str(s) => write_string(f, s),
            Value::Char(c) => write_char(f, *c),
            Value::Keyword(k) => write!(f, ":{k}"),
            Value::Symbol(s) => f.write_str(s),
            Value::List(v) => items(f, "(", v, ")"),
            Value::Vector(v) => items(f, "[", v, "]"),
            Value::Set(v) => items(f, "#{", v, "}"),
            Value::Map(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k} {v}")?;
                }
                f.write_str("}")
            }
            Value::Tagged(tag, value) => write!(f, "#{tag} {value}"),
        }
    }
}

fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\t' => f.write_str("\\t")?,
            '\r' => f.write_str("\\r")?,
            other => write!(f, "{other}")?,
        }
    }
    f.write_str("\"")
}

fn write_char(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    match c {
        '\n' => f.write_str("\\newline"),
        ' ' => f.write_str("\\space"),
        '\t' => f.write_str("\\tab"),
        '\r' => f.write_str("\\return"),
        other => write!(f, "\\{other}"),
    }
}

/// A syntax error with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (line {}, column {})",
            self.message, self.line, self.column
        )
    }
}

/// How deep collections may nest before the reader refuses (keeps a hostile
/// file from exhausting the stack).
const MAX_DEPTH: usize = 256;

/// Reads the first value of `text`; `None` when the text holds no value.
/// Text after the first value must be blank or comments, as a configuration
/// file holds exactly one form.
pub(crate) fn read(text: &str) -> Result<Option<Edn>, SyntaxError> {
    let mut reader = Reader {
        chars: text.chars().collect(),
        pos: 0,
        line: 1,
        column: 1,
        depth: 0,
    };
    let first = reader.next_value()?;
    if first.is_some() {
        if let Some(extra) = reader.next_value()? {
            return Err(SyntaxError {
                line: extra.line,
                column: extra.column,
                message: "rule-fairy.edn must hold a single form; found another after the first"
                    .to_string(),
            });
        }
    }
    Ok(first)
}

struct Reader {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    column: usize,
    depth: usize,
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | '(' | ')' | '[' | ']' | '{' | '}' | '"' | ';')
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, SyntaxError> {
        Err(SyntaxError {
            line: self.line,
            column: self.column,
            message: message.into(),
        })
    }

    fn skip_blank(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == ',' {
                self.bump();
            } else if c == ';' {
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    /// The next value, or `None` at the end of the text.
    fn next_value(&mut self) -> Result<Option<Edn>, SyntaxError> {
        loop {
            self.skip_blank();
            let Some(c) = self.peek() else {
                return Ok(None);
            };
            if c == '#' && self.chars.get(self.pos + 1) == Some(&'_') {
                self.bump();
                self.bump();
                if self.next_value()?.is_none() {
                    return self.error("EOF after #_");
                }
                continue;
            }
            return self.value().map(Some);
        }
    }

    fn value(&mut self) -> Result<Edn, SyntaxError> {
        let (line, column) = (self.line, self.column);
        let c = self.peek().expect("caller checked for a character");
        let value = match c {
            '(' | '[' | '{' => {
                self.bump();
                let close = match c {
                    '(' => ')',
                    '[' => ']',
                    _ => '}',
                };
                let items = self.items(close, line)?;
                match c {
                    '(' => Value::List(items),
                    '[' => Value::Vector(items),
                    _ => self.map(items, line, column)?,
                }
            }
            ')' | ']' | '}' => return self.error(format!("Unmatched delimiter: {c}")),
            '"' => Value::Str(self.string()?),
            '\\' => Value::Char(self.character()?),
            '#' => {
                self.bump();
                match self.peek() {
                    Some('{') => {
                        self.bump();
                        Value::Set(self.items('}', line)?)
                    }
                    Some(c) if c.is_alphabetic() => {
                        let tag = self.token();
                        self.skip_blank();
                        if self.peek().is_none() {
                            return self.error(format!("EOF after tag #{tag}"));
                        }
                        Value::Tagged(tag, Box::new(self.value()?))
                    }
                    _ => return self.error("Unsupported # dispatch"),
                }
            }
            ':' => {
                self.bump();
                let name = self.token();
                if name.is_empty() || name.starts_with(':') {
                    return self.error(format!("Invalid keyword: :{name}"));
                }
                Value::Keyword(name)
            }
            _ => self.atom()?,
        };
        // A value that goes on below its first line is marked by where it
        // opens: the rest of that line may hold other values.
        let end_column = if self.line == line {
            self.column
        } else {
            column + 1
        };
        Ok(Edn {
            value,
            line,
            column,
            end_column,
        })
    }

    fn items(&mut self, close: char, start_line: usize) -> Result<Vec<Edn>, SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.error(format!("Collections nest deeper than {MAX_DEPTH} levels"));
        }
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            match self.peek() {
                None => {
                    let what = match close {
                        ')' => "a list",
                        ']' => "a vector",
                        _ => "a map",
                    };
                    return self.error(format!(
                        "EOF while reading {what} started on line {start_line}"
                    ));
                }
                Some(c) if c == close => {
                    self.bump();
                    self.depth -= 1;
                    return Ok(items);
                }
                Some(_) => {
                    if let Some(item) = self.next_value_in_collection(close)? {
                        items.push(item);
                    }
                }
            }
        }
    }

    /// Like `next_value`, but a `#_` discard may be followed by the closing
    /// delimiter's neighbour; returns `None` when only a discard was read.
    fn next_value_in_collection(&mut self, close: char) -> Result<Option<Edn>, SyntaxError> {
        if self.peek() == Some('#') && self.chars.get(self.pos + 1) == Some(&'_') {
            self.bump();
            self.bump();
            self.skip_blank();
            match self.peek() {
                None => return self.error("EOF after #_"),
                Some(c) if c == close => return self.error("Nothing to discard after #_"),
                _ => {}
            }
            self.value()?;
            return Ok(None);
        }
        self.value().map(Some)
    }

    fn map(&self, items: Vec<Edn>, line: usize, column: usize) -> Result<Value, SyntaxError> {
        if !items.len().is_multiple_of(2) {
            return Err(SyntaxError {
                line,
                column,
                message: "Map literal must contain an even number of forms".to_string(),
            });
        }
        let mut entries: Vec<(Edn, Edn)> = Vec::with_capacity(items.len() / 2);
        let mut items = items.into_iter();
        while let (Some(key), Some(value)) = (items.next(), items.next()) {
            if entries.iter().any(|(k, _)| *k == key) {
                return Err(SyntaxError {
                    line: key.line,
                    column: key.column,
                    message: format!("Duplicate key: {key}"),
                });
            }
            entries.push((key, value));
        }
        Ok(Value::Map(entries))
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        let start_line = self.line;
        self.bump();
        let mut out = String::new();
        loop {
            match self.bump() {
                None => {
                    return self.error(format!(
                        "EOF while reading a string started on line {start_line}"
                    ))
                }
                Some('"') => return Ok(out),
                Some('\\') => match self.bump() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('r') => out.push('\r'),
                    Some('b') => out.push('\u{8}'),
                    Some('f') => out.push('\u{c}'),
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('u') => out.push(self.unicode_escape()?),
                    Some(other) => {
                        return self.error(format!("Unsupported escape character: \\{other}"))
                    }
                    None => return self.error("EOF in a string escape"),
                },
                Some(c) => out.push(c),
            }
        }
    }

    fn unicode_escape(&mut self) -> Result<char, SyntaxError> {
        let digits: String = (0..4).filter_map(|_| self.bump()).collect();
        u32::from_str_radix(&digits, 16)
            .ok()
            .filter(|_| digits.len() == 4)
            .and_then(char::from_u32)
            .map_or_else(
                || self.error(format!("Invalid unicode escape: \\u{digits}")),
                Ok,
            )
    }

    fn character(&mut self) -> Result<char, SyntaxError> {
        self.bump();
        let Some(first) = self.bump() else {
            return self.error("EOF while reading a character");
        };
        let mut name = first.to_string();
        while let Some(c) = self.peek() {
            if is_delimiter(c) {
                break;
            }
            name.push(c);
            self.bump();
        }
        match name.as_str() {
            "newline" => Ok('\n'),
            "space" => Ok(' '),
            "tab" => Ok('\t'),
            "return" => Ok('\r'),
            "backspace" => Ok('\u{8}'),
            "formfeed" => Ok('\u{c}'),
            _ if name.chars().count() == 1 => Ok(first),
            _ if name.starts_with('u') && name.len() == 5 => u32::from_str_radix(&name[1..], 16)
                .ok()
                .and_then(char::from_u32)
                .map_or_else(|| self.error(format!("Invalid character: \\{name}")), Ok),
            _ => self.error(format!("Unsupported character: \\{name}")),
        }
    }

    fn token(&mut self) -> String {
        let mut token = String::new();
        while let Some(c) = self.peek() {
            if is_delimiter(c) {
                break;
            }
            token.push(c);
            self.bump();
        }
        token
    }

    fn atom(&mut self) -> Result<Value, SyntaxError> {
        let (line, column) = (self.line, self.column);
        let token = self.token();
        let fail = |message: String| {
            Err(SyntaxError {
                line,
                column,
                message,
            })
        };
        if token.is_empty() {
            let c = self.peek().unwrap_or(' ');
            return fail(format!("Unexpected character: {c}"));
        }
        let starts_numeric = token.starts_with(|c: char| c.is_ascii_digit())
            || (token.len() > 1
                && token.starts_with(['+', '-'])
                && token[1..].starts_with(|c: char| c.is_ascii_digit()));
        if starts_numeric {
            return number(&token).map_or_else(|| fail(format!("Invalid number: {token}")), Ok);
        }
        Ok(match token.as_str() {
            "nil" => Value::Nil,
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::Symbol(token),
        })
    }
}

fn number(token: &str) -> Option<Value> {
    let body = token.strip_prefix(['+', '-']).unwrap_or(token);
    let integer = body.strip_suffix('N').unwrap_or(body);
    if !integer.is_empty() && integer.chars().all(|c| c.is_ascii_digit()) {
        return Some(Value::Integer(token.to_string()));
    }
    let float = body.strip_suffix('M').unwrap_or(body);
    let valid_float = float.parse::<f64>().is_ok()
        && float
            .chars()
            .all(|c| c.is_ascii_digit() || ".eE+-".contains(c));
    valid_float.then(|| Value::Float(token.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_one(text: &str) -> Edn {
        read(text).unwrap().unwrap()
    }

    #[test]
    fn reads_the_config_shapes() {
        let edn = read_one("{:rules {:dirs [\".cursor/rules\" \"docs/rules\"]\n :extensions [\".mdc\"]}\n :shell-hook {:claude true :codex false}}");
        let map = edn.value.as_map().unwrap();
        assert!(map[0].0.value.is_keyword("rules"));
        assert_eq!(map[1].0.line, 3);
        assert_eq!(edn.to_string(), "{:rules {:dirs [\".cursor/rules\" \"docs/rules\"], :extensions [\".mdc\"]}, :shell-hook {:claude true, :codex false}}");
    }

    #[test]
    fn reads_scalars_and_prints_them_back() {
        for text in [
            "nil",
            "true",
            "-12",
            "1.5",
            "3N",
            ":a/b",
            "sym",
            "\"q\\\"x\\n\"",
            "\\a",
            "\\newline",
            "#{1 2}",
            "(1 [2])",
            "#inst \"2020\"",
        ] {
            assert_eq!(read_one(text).to_string(), text, "{text}");
        }
        assert_eq!(read_one("[1, 2 ,3]").to_string(), "[1 2 3]");
        assert_eq!(read_one("[1 #_ 2 3]").to_string(), "[1 3]");
        assert_eq!(read_one("#_ {:a 1} [:b]").to_string(), "[:b]");
        assert!(matches!(read_one("\"\\u00e9\"").value, Value::Str(ref s) if s == "é"));
    }

    #[test]
    fn values_keep_their_columns() {
        let edn = read_one("{:rules {:dirs [\"a\"  \"é\"]}\n :notify\n [1\n  2]}");
        let map = edn.value.as_map().unwrap();
        let spans = |e: &Edn| (e.line, e.span().column, e.span().end_column);
        // The outer map goes on below line 1: it is marked by its brace.
        assert_eq!(spans(&edn), (1, 1, 2));
        assert_eq!(spans(&map[0].0), (1, 2, 8));
        assert_eq!(spans(&map[0].1), (1, 9, 27));
        let dirs = map[0].1.value.as_map().unwrap()[0]
            .1
            .value
            .as_sequential()
            .unwrap();
        // Columns count characters, not bytes: `é` is one.
        assert_eq!(spans(&dirs[1]), (1, 22, 25));
        assert_eq!(spans(&map[1].0), (2, 2, 9));
        assert_eq!(spans(&map[1].1), (3, 2, 3));
        let duplicate = read("{:a 1\n   :a 2}").unwrap_err();
        assert_eq!((duplicate.line, duplicate.column), (2, 4));
        let extra = read("{}  [1]").unwrap_err();
        assert_eq!((extra.line, extra.column), (1, 5));
    }

    #[test]
    fn lists_equal_vectors() {
        assert_eq!(read_one("[1 2]"), read_one("(1 2)"));
        assert_ne!(read_one("[1 2]"), read_one("#{1 2}"));
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let cases = [
            ("{:a 1", "EOF while reading a map started on line 1"),
            (
                "{:a 1 :b}",
                "Map literal must contain an even number of forms",
            ),
            ("{:a 1 :a 2}", "Duplicate key: :a"),
            (
                "[1 2] [3]",
                "rule-fairy.edn must hold a single form; found another after the first",
            ),
            ("\"abc", "EOF while reading a string started on line 1"),
            ("\n\n  )", "Unmatched delimiter: )"),
            ("[1 2))", "Unmatched delimiter: )"),
            ("1x", "Invalid number: 1x"),
            (":", "Invalid keyword: :"),
            ("\"\\q\"", "Unsupported escape character: \\q"),
            ("#_", "EOF after #_"),
        ];
        for (text, message) in cases {
            assert_eq!(read(text).unwrap_err().message, message, "{text}");
        }
        assert_eq!(read("\n\n  )").unwrap_err().line, 3);
    }

    #[test]
    fn hostile_nesting_is_refused_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        assert!(read(&deep).unwrap_err().message.contains("nest deeper"));
    }

    #[test]
    fn empty_and_nil() {
        assert!(read("").unwrap().is_none());
        assert!(matches!(read_one("nil").value, Value::Nil));
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn read_example() {
        use crate::syntax::edn::read;
        let config = read("{:rules {:dirs [\"docs/rules\"]}} ; one map")
            .unwrap()
            .unwrap();
        assert_eq!(config.to_string(), "{:rules {:dirs [\"docs/rules\"]}}");
        assert!(read("  ; nothing\n").unwrap().is_none());
        assert_eq!(
            read("{:a 1").unwrap_err().message,
            "EOF while reading a map started on line 1"
        );
    }
}
