//! Rules kept encoded elsewhere (the native project cache, behaviour §5.1,
//! "Rule changes"), each decoded the first time it is asked for: a prompt
//! over 10,000 kept rules decodes the few it delivers, not all of them.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::rules::rule::Rule;

/// Decodes the rule at a place, `None` when its bytes no longer decode.
pub type Decode = Arc<dyn Fn(usize) -> Option<Rule> + Send + Sync>;

/// Rules in name order, decoded on first use and then kept.
#[derive(Clone)]
pub struct KeptRules {
    decode: Decode,
    /// Each rule, once asked for by place.
    one: Box<[OnceLock<Box<Rule>>]>,
    /// Every rule, once a question about all of them was asked.
    every: OnceLock<Vec<Rule>>,
}

impl KeptRules {
    /// `len` rules, the one at a place made by `decode`.
    pub fn new(len: usize, decode: Decode) -> KeptRules {
        KeptRules {
            decode,
            one: (0..len).map(|_| OnceLock::new()).collect(),
            every: OnceLock::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.one.len()
    }

    pub(crate) fn at(&self, place: usize) -> &Rule {
        if let Some(every) = self.every.get() {
            return &every[place];
        }
        self.one[place].get_or_init(|| Box::new(self.decoded(place)))
    }

    pub(crate) fn all(&self) -> &[Rule] {
        self.every.get_or_init(|| {
            (0..self.len())
                .map(|place| match self.one[place].get() {
                    Some(rule) => Rule::clone(rule),
                    None => self.decoded(place),
                })
                .collect()
        })
    }

    /// The rule at a place; one whose bytes no longer decode stands as an
    /// empty rule that no name or event reaches, so every other rule keeps
    /// its place. Only a cache changed in place after its checksum was
    /// read can hold one: the cache is written from rules that encoded.
    fn decoded(&self, place: usize) -> Rule {
        (self.decode)(place)
            .unwrap_or_else(|| Rule::parse(&format!("(unreadable kept rule {place})"), "", ""))
    }
}

impl fmt::Debug for KeptRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeptRules")
            .field("len", &self.len())
            .field(
                "decoded",
                &self.one.iter().filter(|r| r.get().is_some()).count(),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn each_rule_is_decoded_once_and_only_when_asked_for() {
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = calls.clone();
        let kept = KeptRules::new(
            3,
            Arc::new(move |place| {
                counted.fetch_add(1, Ordering::SeqCst);
                (place != 2).then(|| Rule::parse(&format!("r{place}.mdc"), "", "# R"))
            }),
        );
        assert_eq!(calls.load(Ordering::SeqCst), 0);
        assert_eq!(kept.at(1).name, "r1.mdc");
        assert_eq!(kept.at(1).name, "r1.mdc");
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        // Every rule: the one decoded already is not decoded again.
        let names: Vec<&str> = kept.all().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["r0.mdc", "r1.mdc", "(unreadable kept rule 2)"]);
        assert_eq!(calls.load(Ordering::SeqCst), 3);
        assert_eq!(kept.at(0).name, "r0.mdc");
        assert_eq!(calls.load(Ordering::SeqCst), 3);
    }
}
