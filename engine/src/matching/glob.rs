//! Cursor's glob dialect (behaviour §2.2) on `globset`. A glob without `/`
//! matches the file name at any depth; one with `/` is anchored at the
//! project root; `**` as a whole segment crosses directories and anywhere
//! else acts as `*`; `{` and `}` are literal unless the glob was written as
//! an item of a YAML sequence.

use globset::{Glob, GlobBuilder};

use crate::base::error::{Error, ErrorKind};

/// Translates a normalised Cursor glob into globset syntax.
pub(crate) fn translate(glob: &str, braces: bool) -> String {
    if !glob.contains('/') {
        return format!("**/{}", segment(glob, braces));
    }
    let mut segments: Vec<&str> = glob.split('/').collect();
    while segments.len() > 1 && segments.last() == Some(&"") {
        segments.pop();
    }
    segments
        .iter()
        .map(|s| {
            if *s == "**" {
                "**".to_string()
            } else {
                segment(s, braces)
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// One path segment: a run of stars is one `*` (it never crosses `/`),
/// braces are escaped unless alternation is wanted, and a bracket class
/// starting with `^` or `!` keeps that character literal, as the original's
/// regular expression does.
fn segment(text: &str, braces: bool) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                out.push('*');
            }
            '{' | '}' if !braces => {
                out.push('\\');
                out.push(c);
            }
            '[' => {
                out.push('[');
                if let Some(&negation) = chars.peek().filter(|n| **n == '^' || **n == '!') {
                    chars.next();
                    // Moved to the end of the class, where it is literal.
                    let mut class = String::new();
                    let mut closed = false;
                    for c in chars.by_ref() {
                        if c == ']' && !class.is_empty() {
                            closed = true;
                            break;
                        }
                        class.push(c);
                    }
                    if closed {
                        out.push_str(&class);
                        out.push(negation);
                        out.push(']');
                    } else {
                        // Left unclosed, so it fails to compile as the original's does.
                        out.push(negation);
                        out.push_str(&class);
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The longest glob, in characters, that is compiled at all (behaviour
/// §2.2). Real globs are far shorter; a longer one is refused before it
/// reaches the regex engine, whose matcher for it could be too large to
/// build (300,000 `*a` are) or slow to run.
pub(crate) const MAX_GLOB_CHARS: usize = 4_096;

/// Characters of an overlong glob its error quotes.
const QUOTED_CHARS: usize = 60;

/// The start of a glob, as an error about its size quotes it.
pub(crate) fn excerpt(glob: &str) -> String {
    glob.chars().take(QUOTED_CHARS).collect()
}

/// Compiles one normalised glob; a bad one is `Invalid rule glob: <glob>`,
/// one over [`MAX_GLOB_CHARS`] is refused unread.
pub(crate) fn compile(glob: &str, braces: bool) -> Result<Glob, Error> {
    let chars = glob.chars().count();
    if chars > MAX_GLOB_CHARS {
        return Err(Error::new(ErrorKind::GlobTooLong {
            start: excerpt(glob),
            chars,
            limit: MAX_GLOB_CHARS,
        }));
    }
    GlobBuilder::new(&translate(glob, braces))
        .literal_separator(true)
        .backslash_escape(true)
        .empty_alternates(true)
        .build()
        .map_err(|_| {
            Error::new(ErrorKind::InvalidGlob {
                glob: glob.to_string(),
            })
        })
}

/// Compiles a glob and builds its matcher, as an event would: a glob
/// whose matcher the regex engine refuses (over its size limit) is an
/// error here, so `check` finds what an event would otherwise meet.
pub(crate) fn compile_matcher(glob: &str, braces: bool) -> Result<Matcher, Error> {
    let compiled = compile(glob, braces)?;
    matcher(&compiled).ok_or_else(|| {
        Error::new(ErrorKind::GlobTooComplex {
            start: excerpt(glob),
        })
    })
}

/// One glob's matcher. `globset` matches bytes, so its `?` is one byte and
/// its classes hold bytes; a glob with `?` or a class is matched instead by
/// the same regular expression read in characters (behaviour §2.2: `?`
/// is one character, `src/a?.ts` matches `src/aé.ts`).
#[derive(Debug)]
pub(crate) enum Matcher {
    Bytes(globset::GlobSet),
    Chars(regex::Regex),
}

impl Matcher {
    pub(crate) fn is_match(&self, path: &str) -> bool {
        match self {
            Matcher::Bytes(set) => set.is_match(path),
            Matcher::Chars(regex) => regex.is_match(path),
        }
    }
}

/// Builds a compiled glob's matcher; `None` when the regex engine refuses
/// it (over its size limit), which its owner reports.
pub(crate) fn matcher(glob: &Glob) -> Option<Matcher> {
    if glob.glob().contains(['?', '[']) {
        regex::Regex::new(&in_characters(glob.regex()))
            .ok()
            .map(Matcher::Chars)
    } else {
        globset::GlobSetBuilder::new()
            .add(glob.clone())
            .build()
            .ok()
            .map(Matcher::Bytes)
    }
}

/// `globset`'s byte regex read in characters: the `(?-u)` flag goes and
/// each run of `\xNN` escapes (a non-ASCII character's UTF-8 bytes)
/// becomes the character itself.
fn in_characters(byte_regex: &str) -> String {
    let text = byte_regex.strip_prefix("(?-u)").unwrap_or(byte_regex);
    let mut out = String::with_capacity(text.len());
    let mut bytes: Vec<u8> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let flush = |bytes: &mut Vec<u8>, out: &mut String| {
        if !bytes.is_empty() {
            out.push_str(&regex::escape(&String::from_utf8_lossy(bytes)));
            bytes.clear();
        }
    };
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            flush(&mut bytes, &mut out);
            out.push(c);
            continue;
        }
        let hex = text
            .get(i + 1..i + 4)
            .and_then(|h| h.strip_prefix('x'))
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(byte) => {
                bytes.push(byte);
                for _ in 0..3 {
                    chars.next();
                }
            }
            None => {
                flush(&mut bytes, &mut out);
                out.push(c);
                if let Some((_, next)) = chars.next() {
                    out.push(next);
                }
            }
        }
    }
    flush(&mut bytes, &mut out);
    out
}

/// A compiled glob of a nested rules folder's rule, anchored at `base`,
/// the project-relative directory holding the folder (behaviour §1.2):
/// it matches the paths below `base` the glob matches relative to it. The
/// base is literal, whatever characters its names hold.
pub(crate) fn below(base: &str, glob: &Glob) -> Result<Glob, Error> {
    let mut pattern = String::with_capacity(base.len() + glob.glob().len() + 1);
    for c in base.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('/');
    pattern.push_str(glob.glob());
    // The options `compile` builds with.
    GlobBuilder::new(&pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .empty_alternates(true)
        .build()
        .map_err(|_| {
            Error::new(ErrorKind::InvalidGlob {
                glob: pattern.clone(),
            })
        })
}

/// Whether one glob matches one path, both as written (normalised here).
/// An empty glob or path matches nothing and is never an error.
#[cfg(test)]
pub(crate) fn matches(glob: &str, path: &str) -> Result<bool, Error> {
    let (glob, path) = (
        crate::base::paths::normalize_for_match(glob),
        crate::base::paths::normalize_for_match(path),
    );
    if glob.is_empty() || path.is_empty() {
        return Ok(false);
    }
    Ok(compile_matcher(&glob, false)?.is_match(&path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is(glob: &str, path: &str) -> bool {
        matches(glob, path).unwrap()
    }

    #[test]
    fn original_cases_27_to_33() {
        assert!(
            is("*.clj", "deep/dir/file.clj")
                && is("*.clj", "file.clj")
                && !is("*.clj", "file.cljs")
        );
        assert!(is("apps/**/ui/**/*.clj", "apps/x/src/x/ui/a.clj"));
        assert!(is("apps/**/ui/**/*.clj", "apps/ui/a.clj"));
        assert!(!is("apps/**/ui/**/*.clj", "other/apps/x/ui/a.clj"));
        assert!(is("db/**", "db/migrations/001.sql") && !is("db/**", "db"));
        assert!(!is("src/*.clj", "src/a/b.clj"));
        assert!(is("src/a?.clj", "src/ab.clj") && !is("src/a?.clj", "src/a/.clj"));
    }

    #[test]
    fn a_question_mark_is_one_character_whatever_its_length() {
        for path in ["src/aé.ts", "src/a€.ts", "src/a😀.ts", "src/ab.ts"] {
            assert!(is("src/a?.ts", path), "{path}");
        }
        assert!(!is("src/a?.ts", "src/aéé.ts") && !is("src/a?.ts", "src/a.ts"));
        assert!(is("src/??.ts", "src/é€.ts") && !is("src/??.ts", "src/€.ts"));
        assert!(is("*?.ts", "deep/é.ts") && is("?", "a/é") && !is("?", "a/éé"));
        // Classes hold characters too, and literals beside them stay literal.
        assert!(is("src/[é-ü].ts", "src/ö.ts") && !is("src/[é-ü].ts", "src/a.ts"));
        assert!(is("é/[a]?.ts", "é/aß.ts") && !is("é/[a]?.ts", "e/aß.ts"));
        assert!(!is("src.main.clj", "srcXmain.clj"));
        assert!(is("a+b/(c).clj", "a+b/(c).clj"));
        for path in ["./src/a.clj", "/src/a.clj", "src\\a.clj"] {
            assert!(is("src/*.clj", path), "{path}");
        }
        assert!(is("./src/*.clj", "src/a.clj"));
        assert!(!is("", "src/a.clj") && !is("src/**", "") && !is("", ""));
    }

    #[test]
    fn invalid_globs_name_themselves() {
        assert_eq!(
            matches("src/[a", "src/a.clj").unwrap_err().message(),
            "Invalid rule glob: src/[a"
        );
        assert_eq!(
            matches("./src/[a", "x").unwrap_err().message(),
            "Invalid rule glob: src/[a"
        );
        assert!(matches("src/[z-a].clj", "x").is_err());
        assert!(matches("src/[].clj", "x").is_err());
        assert!(matches("src/[^a", "x").is_err());
    }

    #[test]
    fn dialect_details() {
        // Braces are literal in a comma line, so a split brace glob matches nothing.
        assert!(!is("src/{a", "src/a.clj") && !is("b}.clj", "src/a.clj"));
        assert!(is("src/{a}.clj", "src/{a}.clj"));
        assert!(compile("src/*.{ts,tsx}", true)
            .unwrap()
            .compile_matcher()
            .is_match("src/a.tsx"));
        // No negation; `!` is literal.
        assert!(!is("!src/**", "src/a.clj") && is("!src/**", "!src/a.clj"));
        // `**` inside a segment never crosses `/`; an unrooted `**` matches any name.
        assert!(is("src/**.clj", "src/a.clj") && !is("src/**.clj", "src/a/b.clj"));
        assert!(is("**", "a/b/c"));
        // Classes work; a leading `^` or `!` is literal, not a negation.
        assert!(
            is("src/[ab].clj", "src/b.clj")
                && is("src/[a-c].clj", "src/c.clj")
                && !is("src/[ab].clj", "src/c.clj")
        );
        assert!(
            is("src/[^a].clj", "src/a.clj")
                && is("src/[^a].clj", "src/^.clj")
                && !is("src/[^a].clj", "src/b.clj")
        );
        // Case-sensitive; dot files are ordinary names.
        assert!(!is("*.CLJ", "a.clj") && is("src/*.clj", "src/.clj"));
        // A trailing slash is dropped: `db/` matches only `db`.
        assert!(is("db/", "db") && !is("db/", "db/x"));
        // `..` and repeated slashes are compared as written.
        assert!(!is("src/*.clj", "src/../src/a.clj"));
    }

    #[test]
    fn huge_globs_fail_or_match_without_panicking() {
        let long = "a".repeat(MAX_GLOB_CHARS);
        assert!(is(&long, &long));
        // One character more is refused unread, with a short message.
        let over = "a".repeat(MAX_GLOB_CHARS + 1);
        let error = matches(&over, &over).unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "Rule glob is 4097 characters long, over the limit of 4096: {}...",
                "a".repeat(60)
            )
        );
        let stars = "*?".repeat(2_500);
        let _ = matches(&stars, "abc");
        let classes = "[a-z]".repeat(1_000);
        let _ = matches(&classes, "abc");
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn translate_example() {
        use crate::matching::glob::translate;
        assert_eq!(translate("*.clj", false), "**/*.clj");
        assert_eq!(translate("src/**.clj", false), "src/*.clj");
        assert_eq!(translate("db/", false), "db");
        assert_eq!(translate("a{b}.ts", false), "**/a\\{b\\}.ts");
        assert_eq!(translate("*.{ts,tsx}", true), "**/*.{ts,tsx}");
    }
}
