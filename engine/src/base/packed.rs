//! Many short strings kept in one buffer: the index holds thousands of
//! names, terms, paths and globs, and one allocation each was most of a
//! warm run's allocator time (docs/benchmarks.md).

use std::ops::Range;

use serde::{Deserialize, Serialize};

/// Strings packed end to end, each read back by its place. Kept in the
/// native project cache; read back only when its ends hold together, so a
/// damaged one is an error there, never a panic at a later `get`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Unchecked")]
pub(crate) struct Packed {
    text: String,
    /// Where each string ends in `text`; the next one starts there. Four
    /// bytes each, not eight: 10,000 rules pack 70,000 strings.
    ends: Vec<u32>,
}

impl Packed {
    /// Adds `s` and returns its place.
    pub(crate) fn push(&mut self, s: &str) -> usize {
        self.text.push_str(s);
        // Every string packed comes from a rule file of at most
        // `MAX_READ_BYTES`: 4 GiB of them is a thousand files at that cap,
        // whose load would need many times that memory before this.
        let end = u32::try_from(self.text.len()).expect("packed strings stay below 4 GiB");
        self.ends.push(end);
        self.ends.len() - 1
    }

    /// The string at `place`; panics past the end, as indexing a slice does.
    pub(crate) fn get(&self, place: usize) -> &str {
        &self.text[self.span(place)]
    }

    fn span(&self, place: usize) -> Range<usize> {
        let start = if place == 0 { 0 } else { self.ends[place - 1] };
        start as usize..self.ends[place] as usize
    }

    /// How many strings it holds.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether it holds none.
    pub(crate) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Every string, in place order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(|place| self.get(place))
    }

    /// Every string's bytes together.
    pub(crate) fn bytes(&self) -> usize {
        self.text.len()
    }
}

/// [`Packed`] as decoded, before its ends are checked.
#[derive(Deserialize)]
struct Unchecked {
    text: String,
    ends: Vec<u32>,
}

impl TryFrom<Unchecked> for Packed {
    type Error = &'static str;

    fn try_from(Unchecked { text, ends }: Unchecked) -> Result<Packed, Self::Error> {
        let mut start = 0;
        for &end in &ends {
            if end < start || !text.is_char_boundary(end as usize) {
                return Err("packed strings whose ends do not hold together");
            }
            start = end;
        }
        Ok(Packed { text, ends })
    }
}

impl<'a> FromIterator<&'a str> for Packed {
    fn from_iter<I: IntoIterator<Item = &'a str>>(strings: I) -> Packed {
        let mut packed = Packed::default();
        strings.into_iter().for_each(|s| {
            packed.push(s);
        });
        packed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_string_reads_back_by_its_place() {
        let mut packed: Packed = ["a", "", "ünï"].into_iter().collect();
        assert_eq!(packed.push("last"), 3);
        assert_eq!(packed.iter().collect::<Vec<_>>(), ["a", "", "ünï", "last"]);
        assert_eq!(
            (packed.get(2), packed.len(), packed.bytes()),
            ("ünï", 4, 10)
        );
        assert!(!packed.is_empty() && Packed::default().is_empty());
    }

    #[test]
    fn it_is_read_back_only_when_its_ends_hold_together() {
        let packed: Packed = ["a", "ünï"].into_iter().collect();
        let kept = serde_json::to_string(&packed).unwrap();
        assert_eq!(serde_json::from_str::<Packed>(&kept).unwrap(), packed);
        for bad in [
            r#"{"text":"ab","ends":[1,3]}"#,
            r#"{"text":"ab","ends":[2,1]}"#,
            r#"{"text":"ü","ends":[1]}"#,
        ] {
            assert!(serde_json::from_str::<Packed>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    #[should_panic]
    fn a_place_past_the_end_panics() {
        Packed::default().get(0);
    }
}
