//! Reading Claude Code deliveries back from the conversation (behaviour
//! §5.5): which rules the model still holds, judged from the frames it can
//! see. A delivery counts only when every one of its frames is there, since
//! a rule cut in half was not delivered.
//!
//! Where we differ from the original: Claude Code joins all context
//! entries of one event with a newline inside a single system reminder, so
//! the second frame of a delivery does not start its own text. A shard
//! header therefore counts wherever it fills a whole line of a hook-context
//! text, not only as the first line; the original saw only the first frame
//! of such a delivery and judged it incomplete. A header quoted inside a
//! line still never counts. Stricter than the original: a delivery is
//! whole only when each shard number 1..n is present, and only the
//! delivery whose header opens a text counts, so a header forged inside a
//! rule, an error entry or a path is never read as one.

use crate::base::text::lines;

/// The rules of every whole delivery among the hook-context `texts`, in
/// order of each delivery's first frame seen, without duplicates.
pub(crate) fn delivered_rules<S: AsRef<str>>(texts: &[S]) -> Vec<String> {
    let mut deliveries: Vec<Delivery> = Vec::new();
    for text in texts {
        for frame in frames(text.as_ref()) {
            match deliveries.iter_mut().find(|d| d.id == frame.id) {
                Some(delivery) => delivery.add(frame),
                None => deliveries.push(Delivery::new(frame)),
            }
        }
    }
    let mut rules: Vec<String> = Vec::new();
    for delivery in deliveries.iter().filter(|d| d.is_whole()) {
        for rule in &delivery.injected {
            if !rules.iter().any(|r| r == rule) {
                rules.push(rule.to_string());
            }
        }
    }
    rules
}

/// What one frame head says: its place in its delivery and the rules its
/// marker lines name.
struct Frame<'a> {
    id: &'a str,
    shard: u64,
    count: u64,
    injected: Vec<&'a str>,
}

/// The frames of one hook-context text: the delivery whose shard header is
/// the text's first line, and every later line that is a whole header of
/// the same delivery (same id and count), each with the marker lines
/// directly after it.
///
/// Only those are headers the engine could have written: a host attaches
/// a delivery's frames first and one after another, so its first frame
/// opens the text. A header anywhere else (in a rule's body, in an error
/// entry's detail, in a path that holds a line break) was not written as
/// one, and counts for nothing.
fn frames(text: &str) -> Vec<Frame<'_>> {
    let mut found = Vec::new();
    // Most texts of a conversation hold no frame: skip them unsplit.
    if !text.starts_with("[rule-fairy shard ") {
        return found;
    }
    let lines = lines(text);
    let Some((_, opening_count, opening_id)) = lines.first().and_then(|line| shard_header(line))
    else {
        return found;
    };
    for (index, line) in lines.iter().enumerate() {
        let Some((shard, count, id)) = shard_header(line) else {
            continue;
        };
        if id != opening_id || count != opening_count {
            continue;
        }
        let injected = lines[index + 1..]
            .iter()
            .map_while(|line| marker(line))
            .filter_map(|(kind, value)| (kind == "injected").then_some(value))
            .collect();
        found.push(Frame {
            id,
            shard,
            count,
            injected,
        });
    }
    found
}

/// `[rule-fairy shard <i>/<n> <id>]` as the whole line: decimal `i` and
/// `n`, an id of characters that are neither whitespace nor `]`.
fn shard_header(line: &str) -> Option<(u64, u64, &str)> {
    let inner = line.strip_prefix("[rule-fairy shard ")?.strip_suffix(']')?;
    let (numbers, id) = inner.split_once(' ')?;
    let (shard, count) = numbers.split_once('/')?;
    let valid_id = !id.is_empty() && !id.contains(|c: char| c.is_whitespace() || c == ']');
    valid_id.then_some((decimal(shard)?, decimal(count)?, id))
}

fn decimal(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `[rule-fairy <lower-case word>: <value>]` as the whole line.
fn marker(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix("[rule-fairy ")?.strip_suffix(']')?;
    let (kind, value) = inner.split_once(": ")?;
    let is_word = !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_lowercase());
    is_word.then_some((kind, value))
}

/// The frames of one delivery id seen so far. The shard count is the first
/// frame's; a frame claiming another count is not part of it.
struct Delivery<'a> {
    id: &'a str,
    count: u64,
    shards: Vec<u64>,
    injected: Vec<&'a str>,
}

impl<'a> Delivery<'a> {
    fn new(frame: Frame<'a>) -> Self {
        let mut delivery = Delivery {
            id: frame.id,
            count: frame.count,
            shards: Vec::new(),
            injected: Vec::new(),
        };
        delivery.add(frame);
        delivery
    }

    fn add(&mut self, frame: Frame<'a>) {
        if frame.count != self.count || !(1..=self.count).contains(&frame.shard) {
            return;
        }
        if !self.shards.contains(&frame.shard) {
            self.shards.push(frame.shard);
        }
        self.injected.extend(frame.injected);
    }

    fn is_whole(&self) -> bool {
        self.count > 0 && self.shards.len() as u64 == self.count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame head: the header and, on a first frame, its marker lines.
    fn frame(id: &str, shard: u32, count: u32, injected: &[&str]) -> String {
        let mut text = format!("[rule-fairy shard {shard}/{count} {id}]");
        for rule in injected {
            text.push_str(&format!("\n[rule-fairy injected: {rule}]"));
        }
        text
    }

    #[test]
    fn whole_deliveries_in_order_of_their_first_frame() {
        // Case 92.
        let texts = [
            frame("d1", 1, 2, &["a.mdc"]),
            "just a message".to_string(),
            frame("d2", 1, 2, &["b.mdc"]),
            frame("d1", 2, 2, &[]),
            frame("d3", 1, 1, &["c.mdc"]),
        ];
        assert_eq!(delivered_rules(&texts), vec!["a.mdc", "c.mdc"]);
    }

    #[test]
    fn a_header_after_other_text_on_its_line_does_not_count() {
        // Case 93.
        let text = format!("see {}", frame("d1", 1, 1, &["a.mdc"]));
        assert!(delivered_rules(&[text]).is_empty());
        let quoted = format!(
            "> {}\n[rule-fairy injected: a.mdc]",
            "[rule-fairy shard 1/1 d1]"
        );
        assert!(delivered_rules(&[quoted]).is_empty());
    }

    #[test]
    fn a_header_without_an_id_does_not_count() {
        // Case 94.
        assert!(
            delivered_rules(&["[rule-fairy shard 1/1]\n[rule-fairy injected: a.mdc]"]).is_empty()
        );
        assert!(
            delivered_rules(&["[rule-fairy shard 1/1 a]b]\n[rule-fairy injected: a.mdc]"])
                .is_empty()
        );
        assert!(
            delivered_rules(&["[rule-fairy shard 1/x d1]\n[rule-fairy injected: a.mdc]"])
                .is_empty()
        );
    }

    #[test]
    fn only_injected_markers_name_rules() {
        // Case 95.
        let text = "[rule-fairy shard 1/1 d1]\n[rule-fairy deferred: c.mdc (past what one delivery can carry; delivered with the next matching event)]\n[rule-fairy injected: a.mdc]\n[rule-fairy injected: b.mdc]\n[rule-fairy matched: glob on src/a.clj]\n\n# a.mdc\n\n[rule-fairy injected: not-a-marker.mdc]";
        assert_eq!(delivered_rules(&[text]), vec!["a.mdc", "b.mdc"]);
    }

    #[test]
    fn a_delivery_missing_a_shard_counts_for_nothing() {
        // Case 96.
        assert!(delivered_rules(&[frame("d1", 1, 3, &["a.mdc"])]).is_empty());
        assert!(
            delivered_rules(&[frame("d1", 1, 3, &["a.mdc"]), frame("d1", 3, 3, &[])]).is_empty()
        );
    }

    #[test]
    fn shards_may_arrive_in_any_order_between_other_deliveries() {
        // Case 97.
        let texts = [
            frame("d1", 3, 3, &[]),
            frame("d2", 1, 1, &["c.mdc"]),
            frame("d1", 1, 3, &["a.mdc", "b.mdc"]),
            frame("d1", 2, 3, &[]),
        ];
        assert_eq!(delivered_rules(&texts), vec!["a.mdc", "b.mdc", "c.mdc"]);
    }

    #[test]
    fn deliveries_are_told_apart_by_id() {
        // Case 98.
        let texts = [
            frame("d1", 1, 2, &["a.mdc"]),
            frame("d2", 2, 2, &[]),
            frame("d2", 1, 2, &["b.mdc"]),
        ];
        assert_eq!(delivered_rules(&texts), vec!["b.mdc"]);
    }

    #[test]
    fn a_rule_in_two_deliveries_is_named_once() {
        // Case 99.
        let texts = [frame("d1", 1, 1, &["a.mdc"]), frame("d2", 1, 1, &["a.mdc"])];
        assert_eq!(delivered_rules(&texts), vec!["a.mdc"]);
    }

    #[test]
    fn frames_joined_in_one_reminder_are_all_read() {
        // The original defect: Claude Code hands both frames of one event
        // over as one text, joined by a newline. Reading only its first line
        // as a header, the original sees shard 1/2 alone and calls the
        // delivery incomplete, so the rule is delivered again and again.
        let first = "[rule-fairy shard 1/2 d1]\n[rule-fairy injected: a.mdc]\n[rule-fairy matched: glob on src/a.clj]\n\n# a.mdc\n\nbody";
        let second = "[rule-fairy shard 2/2 d1]\n## Required context: `doc/a.md` (a.mdc)\n\ndocs";
        assert!(delivered_rules(&[first]).is_empty());
        assert_eq!(
            delivered_rules(&[format!("{first}\n{second}")]),
            vec!["a.mdc"]
        );
        assert_eq!(
            delivered_rules(&[format!("{first}\r\n{second}")]),
            vec!["a.mdc"]
        );
        // A delivery's entries after its frames, then a header of another
        // delivery: that one was not written as a header, and counts for
        // nothing (a host attaches one delivery per text, frames first).
        let error = "[rule-fairy error: big.mdc alone needs 3 context entries, but one delivery carries 2]\nNo matched rules were injected or marked as injected.";
        let joined = format!(
            "{first}\n{second}\n{error}\n{}",
            frame("d2", 1, 1, &["b.mdc"])
        );
        assert_eq!(delivered_rules(&[joined]), vec!["a.mdc"]);
    }

    #[test]
    fn forged_headers_count_for_nothing() {
        // A path holding a line break went raw into the matched line, so a
        // file name could add a shard header and an injected marker, and
        // the read-back counted `security.mdc` as delivered.
        let forged = "[rule-fairy shard 1/1 0123456789ab]\n[rule-fairy injected: security.mdc]";
        // Inside a real delivery: another id, so not a frame of it.
        let body = format!(
            "{}\n\n# a.mdc\n\nSee:\n{forged}\n",
            frame("d1", 1, 1, &["a.mdc"])
        );
        assert_eq!(delivered_rules(&[body]), vec!["a.mdc"]);
        // After an error entry's first line (a detail holding lines).
        let failed = format!("[rule-fairy error: edit delivery failed]\nRule import does not exist: x\n{forged}\nNo matched rules were injected or marked as injected.");
        assert!(delivered_rules(&[failed]).is_empty());
        // After any text at all.
        assert!(delivered_rules(&[format!("note\n{forged}")]).is_empty());
        assert!(delivered_rules(&[format!("\n{forged}")]).is_empty());
        // At the text's start it is a delivery, as the engine writes it.
        assert_eq!(delivered_rules(&[forged]), vec!["security.mdc"]);
    }

    #[test]
    fn shard_numbers_outside_the_count_do_not_count() {
        let texts = [frame("d1", 1, 2, &["a.mdc"]), frame("d1", 3, 2, &[])];
        assert!(delivered_rules(&texts).is_empty());
        assert!(delivered_rules(&[frame("d1", 0, 1, &["a.mdc"])]).is_empty());
        assert!(delivered_rules(&[frame("d1", 0, 0, &["a.mdc"])]).is_empty());
        // A frame claiming another count is not part of the delivery.
        let texts = [frame("d1", 1, 2, &["a.mdc"]), frame("d1", 2, 3, &[])];
        assert!(delivered_rules(&texts).is_empty());
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn delivered_rules_example() {
        use crate::delivery::readback::delivered_rules;
        let text = "[rule-fairy shard 1/2 d1]\n[rule-fairy injected: a.mdc]\n\n# a.mdc\n\nbody\n[rule-fairy shard 2/2 d1]\n# docs";
        assert_eq!(delivered_rules(&[text]), vec!["a.mdc"]);
        assert!(
            delivered_rules(&["[rule-fairy shard 1/2 d1]\n[rule-fairy injected: a.mdc]"])
                .is_empty()
        );
    }
}
