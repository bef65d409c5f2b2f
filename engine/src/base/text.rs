//! Text helpers shared across the engine: decoding user files, splitting
//! lines the way the original does, counting characters the way the
//! hosts count them, and how far apart two names are.

use crate::base::error::NotUtf8;

/// Decodes a file's bytes as UTF-8. Invalid bytes are an error naming the
/// line and byte offset, never silently replaced: a rule that cannot be read
/// must not quietly match nothing.
pub fn decode(bytes: &[u8]) -> Result<String, NotUtf8> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let offset = e.valid_up_to();
            let line = bytes[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
            Err(NotUtf8 { offset, line })
        }
    }
}

/// Splits text into lines at LF or CRLF; a lone CR is not a line break. A
/// final line break does not produce an empty last line.
///
/// ```
/// use rule_fairy_engine::text::lines;
/// assert_eq!(lines("a\r\nb\nc\rd\n"), vec!["a", "b", "c\rd"]);
/// assert_eq!(lines(""), Vec::<&str>::new());
/// ```
pub fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n')
        .map(|line| {
            let line = line.strip_suffix('\n').unwrap_or(line);
            line.strip_suffix('\r').unwrap_or(line)
        })
        .collect()
}

/// Length in UTF-16 code units, the unit every host limit is counted in.
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// The edit distance of two texts, in characters: how many insertions,
/// deletions and substitutions turn one into the other. `check` finds a
/// misspelt key by it, `explain --why-not` a misspelt rule name.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Of `candidates`, the one `asked` most likely misspells, for a "did you
/// mean": the nearest by [`edit_distance`] (ignoring case) and no further
/// than a third of its length (two edits for a short one); of equals, the
/// first in sort order. `None` when none is that near.
pub(crate) fn closest<'a>(
    asked: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let asked = asked.to_lowercase();
    let bound = (asked.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(&asked, &candidate.to_lowercase()), candidate))
        .filter(|(distance, _)| *distance <= bound)
        .min()
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_names_the_line() {
        let err = decode(b"ok\nstill ok\n\xff\xfe").unwrap_err();
        assert_eq!(
            err.to_string(),
            "not valid UTF-8 text (invalid byte at offset 12, line 3)"
        );
        assert_eq!(
            err,
            NotUtf8 {
                offset: 12,
                line: 3
            }
        );
    }

    #[test]
    fn utf16_counts_surrogate_pairs_twice() {
        assert_eq!(utf16_len("a😀é"), 4);
    }

    #[test]
    fn the_closest_is_the_nearest_within_a_third_of_the_length() {
        assert_eq!(closest("dir", ["dirs", "extensions"]), Some("dirs"));
        assert_eq!(closest("Dirs", ["dirs"]), Some("dirs"));
        assert_eq!(closest("formt", ["format", "formats"]), Some("format"));
        assert_eq!(closest("gate", ["rules", "formats"]), None);
        assert_eq!(closest("x", std::iter::empty()), None);
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("globs", "glob"), 1);
        assert_eq!(edit_distance("ui.mdc", "iu.mdc"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("über", "uber"), 1);
    }
}
