//! Many short strings kept in one buffer: the index holds thousands of
//! names, terms, paths and globs, and one allocation each was most of a
//! warm run's allocator time (docs/benchmarks.md).

use std::ops::Range;

/// Strings packed end to end, each read back by its place.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Packed {
    text: String,
    /// Where each string ends in `text`; the next one starts there.
    ends: Vec<usize>,
}

impl Packed {
    /// Adds `s` and returns its place.
    pub(crate) fn push(&mut self, s: &str) -> usize {
        self.text.push_str(s);
        self.ends.push(self.text.len());
        self.ends.len() - 1
    }

    /// The string at `place`; panics past the end, as indexing a slice does.
    pub(crate) fn get(&self, place: usize) -> &str {
        &self.text[self.span(place)]
    }

    fn span(&self, place: usize) -> Range<usize> {
        let start = if place == 0 { 0 } else { self.ends[place - 1] };
        start..self.ends[place]
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
    #[should_panic]
    fn a_place_past_the_end_panics() {
        Packed::default().get(0);
    }
}
