//! The rules a prompt could select, found without looking at the others
//! (behaviour §2.4, §9.3). A rule fires at a prompt only through what
//! holds there: it is always on, one of its any-of terms occurs (required
//! terms alone never fire it), a fact condition holds, or the prompt
//! mentions it. Posting lists built with the index name the rules behind
//! each of those, so selecting costs what the prompt hits, not the rule
//! count; each candidate is then judged as every rule used to be.

use foldhash::HashMap;

use crate::matching::conditions::{Compiled, Dimension, FactKey};
use crate::matching::facts::Facts;
use crate::matching::keywords::Found;

/// Entries (rule places in name order) behind each thing a prompt can hold.
#[derive(Debug, Clone, Default)]
pub(crate) struct PromptCandidates {
    /// Rules always on at a prompt.
    always: Vec<u32>,
    /// For term `t`, its rules are `by_term[starts[t]..starts[t + 1]]`:
    /// the rules with `t` among their any-of terms.
    starts: Vec<u32>,
    by_term: Vec<u32>,
    /// The rules with a condition on each fact value, by kind of fact.
    by_fact: [HashMap<String, Vec<u32>>; FACT_KINDS.len()],
    /// The rules with `ci: false`, then `ci: true`.
    by_ci: [Vec<u32>; 2],
    /// The rules with a branch glob: tried whenever a branch is known.
    branch_globs: Vec<u32>,
}

/// The facts compared by value, in the order `by_fact` holds them.
const FACT_KINDS: [Dimension; 7] = [
    Dimension::Command,
    Dimension::Project,
    Dimension::Os,
    Dimension::Branch,
    Dimension::Model,
    Dimension::Agent,
    Dimension::Tools,
];

fn slot(kind: Dimension) -> usize {
    FACT_KINDS
        .iter()
        .position(|k| *k == kind)
        .expect("every fact compared by value has a slot")
}

/// What the index knows of one rule, for its posting lists.
pub(crate) struct Posted<'a> {
    pub always_apply: bool,
    /// Its any-of term ids.
    pub any_of: &'a [u32],
    pub conditions: &'a Compiled,
}

impl PromptCandidates {
    /// Posting lists over rules in name order; `terms` is the number of
    /// distinct terms.
    pub(crate) fn new<'a>(rules: impl IntoIterator<Item = Posted<'a>>, terms: usize) -> Self {
        let mut out = PromptCandidates::default();
        // Term postings in one flat array: (term, rule) pairs counted per
        // term, then placed; rules come in order, so each list is sorted.
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for (at, rule) in rules.into_iter().enumerate() {
            let at = u32::try_from(at).expect("fewer than 2^32 rules");
            if rule.always_apply {
                out.always.push(at);
            }
            for &term in rule.any_of {
                pairs.push((term, at));
            }
            let mut last: Option<FactKey> = None;
            rule.conditions.each_fact_key(&mut |key| {
                // A value repeated in one rule posts it once.
                if last == Some(key) {
                    return;
                }
                last = Some(key);
                let list = match key {
                    FactKey::Value(kind, value) => out.by_fact[slot(kind)]
                        .entry(value.to_string())
                        .or_default(),
                    FactKey::Ci(wanted) => &mut out.by_ci[usize::from(wanted)],
                    FactKey::AnyBranch => &mut out.branch_globs,
                };
                if list.last() != Some(&at) {
                    list.push(at);
                }
            });
        }
        let mut starts = vec![0u32; terms + 1];
        for &(term, _) in &pairs {
            starts[term as usize + 1] += 1;
        }
        for t in 0..terms {
            starts[t + 1] += starts[t];
        }
        let mut next = starts.clone();
        let mut by_term = vec![0u32; pairs.len()];
        for (term, at) in pairs {
            let place = &mut next[term as usize];
            by_term[*place as usize] = at;
            *place += 1;
        }
        out.starts = starts;
        out.by_term = by_term;
        out
    }

    /// Every rule that could fire at a prompt holding `found` under
    /// `facts` (the prompt's `command` already derived), plus `mentioned`;
    /// ascending, each once.
    pub(crate) fn gather(
        &self,
        found: &Found,
        facts: &Facts,
        command: Option<&str>,
        mentioned: impl IntoIterator<Item = usize>,
    ) -> Vec<usize> {
        let mut out: Vec<u32> = self.always.clone();
        for &term in found.ids() {
            let (from, to) = (self.starts[term], self.starts[term + 1]);
            out.extend_from_slice(&self.by_term[from as usize..to as usize]);
        }
        let mut by = |kind: Dimension, value: &str| {
            if let Some(list) = self.by_fact[slot(kind)].get(value) {
                out.extend_from_slice(list);
            }
        };
        command.into_iter().for_each(|v| by(Dimension::Command, v));
        facts
            .project
            .iter()
            .flatten()
            .for_each(|v| by(Dimension::Project, v));
        facts.os.iter().for_each(|v| by(Dimension::Os, v));
        facts.branch.iter().for_each(|v| by(Dimension::Branch, v));
        facts.model.iter().for_each(|v| by(Dimension::Model, v));
        facts.agent.iter().for_each(|v| by(Dimension::Agent, v));
        facts
            .tools
            .iter()
            .flatten()
            .for_each(|v| by(Dimension::Tools, v));
        if let Some(ci) = facts.ci {
            out.extend_from_slice(&self.by_ci[usize::from(ci)]);
        }
        if facts.branch.is_some() {
            out.extend_from_slice(&self.branch_globs);
        }
        let mut out: Vec<usize> = out.into_iter().map(|at| at as usize).collect();
        out.extend(mentioned);
        out.sort_unstable();
        out.dedup();
        out
    }
}
