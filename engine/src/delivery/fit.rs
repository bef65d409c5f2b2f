//! What fits one Claude Code delivery (behaviour §4.6): the longest run of
//! the candidate rules, in match order, whose documentation stays within
//! the budget and whose frames stay within the frames one delivery carries.
//! The rest is deferred to the next matching event.
//!
//! Where we differ from the original: a rule too large to deliver even
//! alone is left out and named (behaviour §4.10), and the rules that fit
//! are still delivered. The original gives up on the whole event when the
//! first rule alone does not fit, so one oversized rule blocks every rule
//! matched after it, on every event, until it is fixed.

use std::fmt;

use crate::base::error::ErrorKind;
use crate::delivery::broken::{broken_entry, BrokenRule};
use crate::delivery::frames::{build_frames, FrameLimits};
use crate::render::block::{Block, RenderError, DOCUMENTATION_BUDGET};
use crate::render::labels;

/// The outcome of fitting one delivery.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Delivery {
    /// The rules the frames carry, in match order.
    pub delivered: Vec<String>,
    /// The frames carrying them; empty when nothing was delivered.
    pub frames: Vec<String>,
    /// Rules left out because the set did not fit one delivery. The frames
    /// say so in their deferred line; they come with the next matching
    /// event, so they must not be recorded as delivered.
    pub deferred: Vec<String>,
    /// Rules that do not fit a delivery even alone, and why. Not recorded
    /// either, so the error comes back with every matching event until the
    /// rule is fixed.
    pub oversized: Vec<OversizedRule>,
    /// Every rule left out as broken, placed, in match order: those whose
    /// imports fail and the oversized ones (filled by
    /// [`crate::claude_delivery`]; the fit alone
    /// leaves it empty).
    pub broken: Vec<BrokenRule>,
    /// Each rendered rule's own block size in characters (filled by
    /// [`crate::claude_delivery`]; the fit alone leaves it empty).
    pub sizes: Vec<(String, u64)>,
}

impl Delivery {
    /// The context entries to attach: the frames, then the one entry
    /// naming the broken rules (behaviour §4.10).
    pub fn entries(&self) -> Vec<String> {
        self.entries_with(&[])
    }

    /// The frames, then the one entry naming the broken rules and `more`
    /// (the invalid globs and patterns the event reached). Frames go first
    /// because Claude Code reads one event's entries whole only up to a
    /// total size: past it, it is the short error entry that gets cut to a
    /// preview, not a frame.
    pub fn entries_with(&self, more: &[BrokenRule]) -> Vec<String> {
        let mut broken = self.broken.clone();
        broken.extend(more.iter().cloned());
        let mut entries = self.frames.clone();
        entries.extend(broken_entry(&broken));
        entries
    }
}

/// A rule too large for any delivery, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OversizedRule {
    pub rule: String,
    pub reason: Oversize,
}

/// Why a set of rules does not fit one delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Oversize {
    /// Its documentation expands past the budget (behaviour §3.8).
    Documentation { expanded_bytes: usize },
    /// Its frames outnumber what one delivery carries.
    Frames { needed: usize, allowed: usize },
    /// A piece of it cannot be cut to fit a frame (behaviour §4.3): a
    /// fence, a line or a heading too long; the error's message.
    Piece { problem: String },
}

impl fmt::Display for Oversize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Oversize::Documentation { expanded_bytes } => write!(
                f,
                "expands to {expanded_bytes} bytes of documentation, over the {DOCUMENTATION_BUDGET}-byte budget"
            ),
            Oversize::Frames { needed, allowed } => {
                write!(f, "needs {needed} context entries, but one delivery carries {allowed}")
            }
            Oversize::Piece { problem } => write!(f, "cannot be cut into context entries: {problem}"),
        }
    }
}

/// Fits the candidate `rules` (in match order) into one delivery.
///
/// `render` renders the rules at the given indices of `rules` into blocks;
/// it is called again for every set tried, because documentation merges
/// differently for different sets. A documentation-budget error (one with
/// `expanded_bytes`) means "too large"; any other error is returned as is.
/// `prefix` gives the marker lines for the rules delivered (see
/// [`crate::render::prefix::Trigger::prefix`]); the deferred line is added here.
///
/// The search: try every remaining rule; if that does not fit, try the
/// first alone. A first rule too large alone is oversized: leave it out and
/// start again with the rest. Otherwise drop rules from the end until the
/// set fits, as the original does; then try the first rule left behind
/// alone: too large alone, it is oversized and the search starts again
/// without it, so it never holds back the rules after it. One render when
/// everything fits; `2n - 1` for `n` rules all oversized.
pub(crate) fn fit_delivery<S, R, P>(
    rules: &[S],
    delivery_id: &str,
    limits: FrameLimits,
    render: R,
    prefix: P,
) -> Result<Delivery, RenderError>
where
    S: AsRef<str>,
    R: FnMut(&[usize]) -> Result<Vec<Block>, RenderError>,
    P: Fn(&[&str]) -> String,
{
    let mut search = Search {
        rules,
        delivery_id,
        limits,
        render,
        prefix,
    };
    let mut remaining: Vec<usize> = (0..rules.len()).collect();
    let mut oversized = Vec::new();
    'search: while !remaining.is_empty() {
        let alone = match search.attempt(&remaining, &[])? {
            Attempt::Fits(frames) => {
                return Ok(search.delivery(&remaining, &[], frames, oversized))
            }
            // Already alone: no need to render it twice.
            too_large if remaining.len() == 1 => too_large,
            Attempt::TooLarge(_) => search.attempt(&remaining[..1], &remaining[1..])?,
        };
        let frames_alone = match alone {
            Attempt::TooLarge(reason) => {
                let rule = search.name(remaining.remove(0)).to_string();
                oversized.push(OversizedRule { rule, reason });
                continue;
            }
            Attempt::Fits(frames) => frames,
        };
        let mut fitting = (1, frames_alone);
        for take in (2..remaining.len()).rev() {
            let (tried, deferred) = remaining.split_at(take);
            if let Attempt::Fits(frames) = search.attempt(tried, deferred)? {
                fitting = (take, frames);
                break;
            }
        }
        let (take, frames) = fitting;
        // The first rule left behind: deferred when it fits alone, set
        // aside when not, so a later rule need not wait for it.
        if let Attempt::TooLarge(reason) =
            search.attempt(&remaining[take..take + 1], &remaining[take + 1..])?
        {
            let rule = search.name(remaining.remove(take)).to_string();
            oversized.push(OversizedRule { rule, reason });
            continue 'search;
        }
        let (tried, deferred) = remaining.split_at(take);
        return Ok(search.delivery(tried, deferred, frames, oversized));
    }
    Ok(Delivery {
        delivered: Vec::new(),
        frames: Vec::new(),
        deferred: Vec::new(),
        oversized,
        broken: Vec::new(),
        sizes: Vec::new(),
    })
}

enum Attempt {
    Fits(Vec<String>),
    TooLarge(Oversize),
}

struct Search<'a, S, R, P> {
    rules: &'a [S],
    delivery_id: &'a str,
    limits: FrameLimits,
    render: R,
    prefix: P,
}

impl<S, R, P> Search<'_, S, R, P>
where
    S: AsRef<str>,
    R: FnMut(&[usize]) -> Result<Vec<Block>, RenderError>,
    P: Fn(&[&str]) -> String,
{
    fn name(&self, index: usize) -> &str {
        self.rules[index].as_ref()
    }

    fn names(&self, indices: &[usize]) -> Vec<&str> {
        indices.iter().map(|&i| self.name(i)).collect()
    }

    /// Renders and frames `tried`, with `deferred` named in the deferred
    /// line, which counts against the first frame like any marker line.
    fn attempt(&mut self, tried: &[usize], deferred: &[usize]) -> Result<Attempt, RenderError> {
        let blocks = match (self.render)(tried) {
            Ok(blocks) => blocks,
            Err(error) => {
                return match error.expanded_bytes {
                    Some(expanded_bytes) => Ok(Attempt::TooLarge(Oversize::Documentation {
                        expanded_bytes,
                    })),
                    None => Err(error),
                }
            }
        };
        let mut prefix = String::new();
        if !deferred.is_empty() {
            prefix.push_str(&labels::deferred(&self.names(deferred)));
            prefix.push('\n');
        }
        prefix.push_str(&(self.prefix)(&self.names(tried)));
        let frames = match build_frames(&blocks, &prefix, self.delivery_id, self.limits) {
            Ok(frames) => frames,
            // Each rule tried adds a marker line: fewer may fit, and the
            // rest are deferred. One rule alone with a prefix too long is
            // the event's, not the rule's.
            Err(error) if error.kind == ErrorKind::PrefixTooLong && tried.len() > 1 => {
                return Ok(Attempt::TooLarge(Oversize::Piece {
                    problem: error.kind.to_string(),
                }))
            }
            Err(error) if error.kind == ErrorKind::PrefixTooLong => return Err(error.into()),
            Err(error) => {
                return Ok(Attempt::TooLarge(Oversize::Piece {
                    problem: error.kind.to_string(),
                }))
            }
        };
        let allowed = self.limits.frames_per_delivery;
        Ok(if frames.len() <= allowed {
            Attempt::Fits(frames)
        } else {
            Attempt::TooLarge(Oversize::Frames {
                needed: frames.len(),
                allowed,
            })
        })
    }

    fn delivery(
        &self,
        tried: &[usize],
        deferred: &[usize],
        frames: Vec<String>,
        oversized: Vec<OversizedRule>,
    ) -> Delivery {
        let owned = |indices: &[usize]| indices.iter().map(|&i| self.name(i).to_string()).collect();
        Delivery {
            delivered: owned(tried),
            frames,
            deferred: owned(deferred),
            oversized,
            broken: Vec::new(),
            sizes: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::base::error::Error;
    use crate::base::text::utf16_len;
    use crate::delivery::frames::FRAMES_PER_DELIVERY;
    use crate::delivery::readback::delivered_rules;
    use crate::render::block::BlockKind;
    use crate::render::prefix::Trigger;

    /// A stand-in for the import renderer: rule blocks, then one block per
    /// distinct imported section naming every rule importing it, and the
    /// documentation budget of behaviour §3.8.
    struct Project {
        rules: Vec<FakeRule>,
        renders: Cell<usize>,
    }

    struct FakeRule {
        name: String,
        body: String,
        imports: Vec<(String, String)>,
    }

    impl Project {
        fn new() -> Self {
            Project {
                rules: Vec::new(),
                renders: Cell::new(0),
            }
        }

        fn rule(mut self, name: &str, body: String, imports: &[(&str, &str)]) -> Self {
            self.rules.push(FakeRule {
                name: name.into(),
                body,
                imports: imports
                    .iter()
                    .map(|(r, c)| (r.to_string(), c.to_string()))
                    .collect(),
            });
            self
        }

        fn render(&self, indices: &[usize]) -> Result<Vec<Block>, RenderError> {
            self.renders.set(self.renders.get() + 1);
            let tried: Vec<&FakeRule> = indices.iter().map(|&i| &self.rules[i]).collect();
            let mut blocks: Vec<Block> = tried
                .iter()
                .map(|rule| Block {
                    kind: BlockKind::Rule {
                        name: rule.name.clone(),
                    },
                    heading: format!("# {}", rule.name),
                    content: rule.body.clone(),
                })
                .collect();
            let mut sections: Vec<(&str, &str, Vec<&str>)> = Vec::new();
            for rule in &tried {
                for (reference, content) in &rule.imports {
                    match sections.iter_mut().find(|(r, _, _)| r == reference) {
                        Some((_, _, importers)) => importers.push(&rule.name),
                        None => sections.push((reference, content, vec![&rule.name])),
                    }
                }
            }
            let docs: Vec<Block> = sections
                .iter()
                .map(|(reference, content, importers)| Block {
                    kind: BlockKind::Documentation {
                        paths: vec![reference.split('#').next().unwrap().to_string()],
                    },
                    heading: format!(
                        "## Required context: `{reference}` ({})",
                        importers.join(", ")
                    ),
                    content: content.to_string(),
                })
                .collect();
            let expanded = docs
                .iter()
                .map(Block::render)
                .collect::<Vec<_>>()
                .join("\n\n---\n\n");
            if expanded.len() > DOCUMENTATION_BUDGET {
                return Err(RenderError {
                    error: Error::new(ErrorKind::DocumentationBudget {
                        limit: DOCUMENTATION_BUDGET,
                    }),
                    expanded_bytes: Some(expanded.len()),
                });
            }
            blocks.extend(docs);
            Ok(blocks)
        }

        fn fit(&self, rules: &[&str], id: &str, limits: FrameLimits) -> Delivery {
            let trigger = Trigger::Edit {
                path: "src/a.clj".into(),
            };
            self.fit_with(rules, id, limits, |names| trigger.prefix(names))
        }

        /// Fits the named rules, rendering them through this project.
        fn fit_with(
            &self,
            rules: &[&str],
            id: &str,
            limits: FrameLimits,
            prefix: impl Fn(&[&str]) -> String,
        ) -> Delivery {
            let positions: Vec<usize> = rules
                .iter()
                .map(|name| self.rules.iter().position(|r| r.name == *name).unwrap())
                .collect();
            let render = |tried: &[usize]| {
                self.render(&tried.iter().map(|&i| positions[i]).collect::<Vec<_>>())
            };
            fit_delivery(rules, id, limits, render, prefix).unwrap()
        }
    }

    /// About `chars` characters of paragraphs, ending with `last`.
    fn body(chars: usize, last: &str) -> String {
        let paragraph = "text ".repeat(40).trim_end().to_string();
        let mut parts = vec![format!("# {last}")];
        while parts.iter().map(|p| p.len() + 2).sum::<usize>() < chars {
            parts.push(paragraph.clone());
        }
        parts.push(last.to_string());
        parts.join("\n\n")
    }

    fn section(bytes: usize, name: &str) -> String {
        format!("## {name}\n\n{}", body(bytes, &format!("{name} ends here")))
    }

    fn limits(frame_chars: usize, frames_per_delivery: usize) -> FrameLimits {
        FrameLimits {
            frame_chars,
            frames_per_delivery,
        }
    }

    fn small_rules(project: Project, names: &[&str]) -> Project {
        names.iter().fold(project, |p, name| {
            p.rule(name, format!("# {name} body"), &[])
        })
    }

    #[test]
    fn an_oversized_first_rule_no_longer_blocks_the_rules_after_it() {
        // The original defect: `big.mdc` alone expands past the budget, so
        // the original delivers nothing of [big, a, b], on every event.
        let project = small_rules(Project::new(), &["a.mdc", "b.mdc"]).rule(
            "big.mdc",
            "# Big".into(),
            &[("doc/big.md", &section(70_000, "Big"))],
        );
        let delivery = project.fit(&["big.mdc", "a.mdc", "b.mdc"], "d1", FrameLimits::default());
        assert_eq!(delivery.delivered, vec!["a.mdc", "b.mdc"]);
        assert!(delivery.deferred.is_empty());
        assert_eq!(delivery.oversized.len(), 1);
        assert_eq!(delivery.oversized[0].rule, "big.mdc");
        let reason = delivery.oversized[0].reason.to_string();
        assert!(reason.starts_with("expands to "), "{reason}");
        assert!(
            reason.ends_with(" bytes of documentation, over the 65536-byte budget"),
            "{reason}"
        );
        assert_eq!(delivery.frames.len(), 1);
        assert!(delivery.frames[0].starts_with(
            "[rule-fairy shard 1/1 d1]\n[rule-fairy injected: a.mdc]\n[rule-fairy injected: b.mdc]\n[rule-fairy matched: glob on src/a.clj]\n\n"
        ));
        assert!(!delivery.frames[0].contains("big.mdc"));
        // All three, the first alone, then the rest.
        assert_eq!(project.renders.get(), 3);
    }

    #[test]
    fn marker_lines_past_the_first_frame_defer_rules_instead_of_failing() {
        // Each rule tried adds an `injected` line: forty of them do not fit
        // one small frame's prefix together, so some wait.
        let names: Vec<String> = (0..40).map(|i| format!("r{i:02}.mdc")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let project = small_rules(Project::new(), &names);
        let limits = FrameLimits {
            frame_chars: 1_000,
            frames_per_delivery: 1,
        };
        let delivery = project.fit(&names, "d1", limits);
        assert!(
            !delivery.delivered.is_empty() && !delivery.deferred.is_empty(),
            "{delivery:?}"
        );
        assert_eq!(delivery.delivered.len() + delivery.deferred.len(), 40);
        assert!(delivery.oversized.is_empty());
        assert!(delivery.frames[0].chars().count() <= 1_000);
    }

    #[test]
    fn a_set_that_fits_is_rendered_once() {
        // Case 72: three 12,000-character rules, default limits.
        let project = ["x", "y", "z"].iter().fold(Project::new(), |p, name| {
            p.rule(
                &format!("{name}.mdc"),
                body(12_000, &format!("end of {name}")),
                &[],
            )
        });
        let rules = ["x.mdc", "y.mdc", "z.mdc"];
        let trigger = Trigger::Prompt(Vec::new());
        let delivery = project.fit_with(&rules, "large", FrameLimits::default(), |names| {
            trigger.prefix(names)
        });
        assert_eq!(delivery.delivered, rules);
        assert_eq!(delivery.frames.len(), 1);
        let frame = &delivery.frames[0];
        assert!(utf16_len(frame) > 30_000);
        assert!(frame.starts_with("[rule-fairy shard 1/1 large]\n[rule-fairy injected: x.mdc]\n[rule-fairy injected: y.mdc]\n[rule-fairy injected: z.mdc]\n\n"));
        for name in ["x", "y", "z"] {
            assert!(frame.contains(&format!("\n\nend of {name}")), "{name}");
        }
        assert_eq!(project.renders.get(), 1);
    }

    #[test]
    fn what_does_not_fit_two_frames_is_deferred() {
        // Case 73.
        let project = ["alpha", "beta", "gamma"]
            .iter()
            .fold(Project::new(), |p, name| {
                p.rule(
                    &format!("{name}.mdc"),
                    body(12_000, &format!("end of {name}")),
                    &[],
                )
            });
        let delivery = project.fit(
            &["alpha.mdc", "beta.mdc", "gamma.mdc"],
            "event",
            limits(9_000, 2),
        );
        assert_eq!(delivery.delivered, vec!["alpha.mdc"]);
        assert_eq!(delivery.deferred, vec!["beta.mdc", "gamma.mdc"]);
        assert_eq!(delivery.frames.len(), 2);
        let first: Vec<&str> = delivery.frames[0].lines().take(3).collect();
        assert_eq!(
            first,
            vec![
                "[rule-fairy shard 1/2 event]",
                "[rule-fairy deferred: beta.mdc, gamma.mdc (past what one delivery can carry; delivered with the next matching event)]",
                "[rule-fairy injected: alpha.mdc]",
            ]
        );
        assert!(delivery.frames[1].starts_with("[rule-fairy shard 2/2 event]\n"));
        assert!(delivery.frames.iter().all(|f| utf16_len(f) <= 9_000));
        assert_eq!(delivered_rules(&delivery.frames), vec!["alpha.mdc"]);
        assert!(delivered_rules(&delivery.frames[..1]).is_empty());
    }

    #[test]
    fn the_documentation_budget_defers_and_reports() {
        // Case 74: four sections of about 20,000 bytes and one of 70,000.
        let mut project = Project::new();
        for (rule, name) in [("a", "one"), ("b", "two"), ("c", "three"), ("d", "four")] {
            let reference = format!("doc/guide.md#{name}");
            project = project.rule(
                &format!("{rule}.mdc"),
                format!("# Rule {rule}"),
                &[(&reference, &section(20_000, name))],
            );
        }
        let project = project.rule(
            "e.mdc",
            "# Rule e".into(),
            &[("doc/guide.md#big", &section(70_000, "big"))],
        );

        let delivery = project.fit(
            &["a.mdc", "b.mdc", "c.mdc", "d.mdc"],
            "d1",
            FrameLimits::default(),
        );
        assert!(delivery.frames.len() <= FRAMES_PER_DELIVERY);
        assert!(delivery.frames[0].contains(
            "[rule-fairy deferred: d.mdc (past what one delivery can carry; delivered with the next matching event)]"
        ));
        assert!(delivery.frames[0].contains("[rule-fairy injected: c.mdc]"));
        assert!(!delivery.entries().concat().contains("injected: d.mdc"));
        assert_eq!(delivery.delivered, vec!["a.mdc", "b.mdc", "c.mdc"]);
        assert_eq!(delivery.deferred, vec!["d.mdc"]);
        // All four, `a` alone, `a, b, c`, then `d` alone: it fits alone,
        // so it waits rather than being reported.
        assert_eq!(project.renders.get(), 4);

        let delivery = project.fit(&["e.mdc"], "d2", FrameLimits::default());
        assert!(delivery.delivered.is_empty() && delivery.frames.is_empty());
        assert!(delivery.entries().is_empty());
        assert_eq!(delivery.oversized.len(), 1);
        assert!(matches!(
            delivery.oversized[0].reason,
            Oversize::Documentation { expanded_bytes } if expanded_bytes > DOCUMENTATION_BUDGET
        ));
    }

    #[test]
    fn one_frame_per_delivery_delivers_one_rule_per_event() {
        // Case 75, with the real frame builder: each rule fills most of a
        // frame, so two never share one.
        let project = ["a", "b"].iter().fold(Project::new(), |p, name| {
            p.rule(
                &format!("{name}.mdc"),
                body(6_000, &format!("end of {name}")),
                &[],
            )
        });
        let fit = |rules: &[&str]| {
            project.fit_with(rules, "id", limits(9_000, 1), |names| {
                format!("injected {}", names.join(", "))
            })
        };
        let first = fit(&["a.mdc", "b.mdc"]);
        assert_eq!(
            first.entries(),
            vec![format!(
                "[rule-fairy shard 1/1 id]\n[rule-fairy deferred: b.mdc (past what one delivery can carry; delivered with the next matching event)]\ninjected a.mdc\n\n# a.mdc\n\n{}",
                project.rules[0].body
            )]
        );
        assert_eq!(first.delivered, vec!["a.mdc"]);
        assert_eq!(first.deferred, vec!["b.mdc"]);
        // The next event matches `b` again; `a` is recorded, so only `b` is a candidate.
        let second = fit(&["b.mdc"]);
        assert_eq!(
            second.entries(),
            vec![format!(
                "[rule-fairy shard 1/1 id]\ninjected b.mdc\n\n# b.mdc\n\n{}",
                project.rules[1].body
            )]
        );
        assert_eq!(second.delivered, vec!["b.mdc"]);
    }

    #[test]
    fn a_rule_needing_more_frames_than_allowed_is_reported_every_time() {
        // Case 76: one frame allowed, the rule needs two.
        let project = Project::new().rule("testing.mdc", body(12_000, "end"), &[]);
        for _ in 0..2 {
            let delivery = project.fit(&["testing.mdc"], "id", limits(9_000, 1));
            assert!(delivery.delivered.is_empty() && delivery.frames.is_empty());
            assert_eq!(
                delivery.oversized[0].reason.to_string(),
                "needs 2 context entries, but one delivery carries 1"
            );
        }
    }

    #[test]
    fn an_oversized_rule_after_others_no_longer_holds_back_the_rest() {
        // It used to be deferred behind `a` and hold `c` back with it.
        let big = section(70_000, "Big");
        let project = small_rules(Project::new(), &["a.mdc", "c.mdc"]).rule(
            "big.mdc",
            "# Big".into(),
            &[("doc/big.md", &big)],
        );
        let first = project.fit(&["a.mdc", "big.mdc", "c.mdc"], "d1", FrameLimits::default());
        assert_eq!(first.delivered, vec!["a.mdc", "c.mdc"]);
        assert!(first.deferred.is_empty());
        assert_eq!(
            first
                .oversized
                .iter()
                .map(|o| o.rule.as_str())
                .collect::<Vec<_>>(),
            vec!["big.mdc"]
        );
        // All three, `a` alone, `a, big`, `big` alone, then `a, c`.
        assert_eq!(project.renders.get(), 5);
    }

    #[test]
    fn a_fence_too_large_for_a_frame_is_the_rule_s_alone() {
        let fence = format!("```\n{}\n```", "x".repeat(2_000));
        let project = small_rules(Project::new(), &["a.mdc", "c.mdc"]).rule("f.mdc", fence, &[]);
        let delivery = project.fit(&["a.mdc", "f.mdc", "c.mdc"], "d1", limits(1_000, 2));
        assert_eq!(delivery.delivered, vec!["a.mdc", "c.mdc"]);
        assert_eq!(delivery.oversized.len(), 1);
        assert_eq!(
            delivery.oversized[0].reason.to_string(),
            "cannot be cut into context entries: A fenced Markdown block exceeds the hook context frame limit"
        );
    }

    #[test]
    fn renders_stay_linear_when_every_rule_is_oversized() {
        let big = section(70_000, "Big");
        let names = ["w.mdc", "x.mdc", "y.mdc", "z.mdc"];
        let project = names.iter().fold(Project::new(), |p, name| {
            p.rule(name, "# Big".into(), &[(&format!("doc/{name}.md"), &big)])
        });
        let delivery = project.fit(&names, "d1", FrameLimits::default());
        assert!(
            delivery.delivered.is_empty()
                && delivery.frames.is_empty()
                && delivery.deferred.is_empty()
        );
        assert_eq!(
            delivery
                .oversized
                .iter()
                .map(|o| o.rule.as_str())
                .collect::<Vec<_>>(),
            names
        );
        assert_eq!(project.renders.get(), 2 * names.len() - 1);
    }

    #[test]
    fn other_render_errors_fail_the_delivery() {
        let missing = RenderError::from(Error::new(ErrorKind::ImportMissing {
            path: "doc/missing.md".to_string(),
        }));
        let result = fit_delivery(
            &["a.mdc"],
            "d1",
            FrameLimits::default(),
            |_| Err(missing.clone()),
            |names| names.join(","),
        );
        assert_eq!(result.unwrap_err(), missing);
        assert!(fit_delivery::<&str, _, _>(
            &[],
            "d1",
            FrameLimits::default(),
            |_| unreachable!(),
            |_| String::new()
        )
        .unwrap()
        .entries()
        .is_empty());
    }
}
