//! Claude Code frames (behaviour §4.4): one delivery is at most two context
//! entries ("frames") of at most 100,000 characters each, because past
//! either limit Claude Code hands the model a preview and a file path
//! instead of the text. Each frame opens with a shard header naming the
//! delivery, so a reader of the conversation can tell whether every frame
//! of a delivery is still there (behaviour §5.5).
//!
//! Where we differ from the original: pieces go into frames in rendering
//! order whenever that fits the limits, so a rule's parts stay together and
//! in order. The original packs largest first; we fall back to that only
//! when the ordered packings need more frames than a delivery carries.

use std::borrow::Cow;
use std::cmp::Reverse;

use sha2::{Digest, Sha256};

use crate::base::error::{Error, ErrorKind};
use crate::base::text::utf16_len;
use crate::matching::event::EventKind;
use crate::render::block::Block;
use crate::render::labels;
use crate::render::split::split_block;

/// Characters (UTF-16 code units) in one frame, header included: Claude
/// Code passes a context entry of up to this many through whole.
pub(crate) const FRAME_CHARS: usize = 100_000;
/// Frames one delivery may use: Claude Code reads one event's entries
/// whole up to 200,000 characters together.
pub(crate) const FRAMES_PER_DELIVERY: usize = 2;
/// Characters kept free in every frame for the shard header line.
pub(crate) const FRAME_HEADER_RESERVE: usize = 64;
/// Between two pieces of one frame.
pub(crate) const PIECE_SEPARATOR: &str = "\n\n---\n\n";
/// Hex digits of the event id that name a delivery.
pub(crate) const DELIVERY_ID_LEN: usize = 12;

/// How large a delivery may be. Tests lower `frame_chars` to exercise
/// splitting and deferral with small rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameLimits {
    /// Characters (UTF-16 code units) per frame, header included.
    pub frame_chars: usize,
    /// Frames one delivery may use.
    pub frames_per_delivery: usize,
}

impl Default for FrameLimits {
    fn default() -> Self {
        FrameLimits {
            frame_chars: FRAME_CHARS,
            frames_per_delivery: FRAMES_PER_DELIVERY,
        }
    }
}

/// The event id: SHA-256 of `<kind>\n<raw input>` as 64 lower-case hex
/// digits. The same event always gets the same id, another kind another.
pub(crate) fn event_id(kind: EventKind, raw_input: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(kind.name().as_bytes());
    hasher.update(b"\n");
    hasher.update(raw_input.as_bytes());
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The delivery id a frame's shard header carries: the first 12 hex digits
/// of the event id. It tells apart the deliveries of one session; it is not
/// a global identifier.
pub(crate) fn delivery_id(kind: EventKind, raw_input: &str) -> String {
    let mut id = event_id(kind, raw_input);
    id.truncate(DELIVERY_ID_LEN);
    id
}

/// The frames of one delivery: every block split into pieces (behaviour
/// §4.3), the pieces packed into frames, frame `i` of `n` opening with
/// `[rule-fairy shard i/n <id>]`, and the first frame carrying `prefix` and
/// a blank line before its pieces.
///
/// The result may hold more frames than `limits.frames_per_delivery`;
/// deciding what to leave out is the caller's job (see [`crate::delivery::fit`]).
pub(crate) fn build_frames(
    blocks: &[Block],
    prefix: &str,
    delivery_id: &str,
    limits: FrameLimits,
) -> Result<Vec<String>, Error> {
    let later_limit = limits.frame_chars.saturating_sub(FRAME_HEADER_RESERVE);
    let first_limit = later_limit.saturating_sub(utf16_len(prefix));
    if first_limit == 0 {
        return Err(Error::new(ErrorKind::PrefixTooLong));
    }
    // Every piece is bounded by the first frame's limit, so any piece fits
    // any empty frame.
    let mut pieces = Vec::new();
    for block in blocks {
        // A heading names a rule or a file: kept on its line, so a name
        // holding a line break cannot start a line of its own.
        match labels::line_safe(&block.heading) {
            Cow::Borrowed(_) => pieces.extend(split_block(block, first_limit)?),
            Cow::Owned(heading) => {
                let safe = Block {
                    heading,
                    ..block.clone()
                };
                pieces.extend(split_block(&safe, first_limit)?);
            }
        }
    }
    let lengths: Vec<usize> = pieces.iter().map(|piece| utf16_len(piece)).collect();
    let bins = Bins {
        lengths: &lengths,
        first_limit,
        later_limit,
    };
    let packing = bins.pack(limits.frames_per_delivery);

    let count = packing.len();
    let mut frames = Vec::with_capacity(count);
    for (index, members) in packing.iter().enumerate() {
        let mut frame = labels::shard_header(index + 1, count, delivery_id);
        frame.push('\n');
        if index == 0 {
            frame.push_str(prefix);
            frame.push_str("\n\n");
        }
        let body: Vec<&str> = members.iter().map(|&i| pieces[i].as_str()).collect();
        frame.push_str(&body.join(PIECE_SEPARATOR));
        if utf16_len(&frame) > limits.frame_chars {
            return Err(Error::new(ErrorKind::FrameTooLong));
        }
        frames.push(frame);
    }
    Ok(frames)
}

/// Frames as lists of piece indices, each list in rendering order.
type Packing = Vec<Vec<usize>>;

/// Piece lengths and the body room of the first and of later frames.
struct Bins<'a> {
    lengths: &'a [usize],
    first_limit: usize,
    later_limit: usize,
}

impl Bins<'_> {
    /// The packing that keeps the most order within `max_frames`: strictly
    /// in order (each frame a run of consecutive pieces); else first fit in
    /// rendering order; else first fit largest first, as the original
    /// does. When none stays within `max_frames`, the one with the fewest
    /// frames, so the caller can say how many the set needs.
    fn pack(&self, max_frames: usize) -> Packing {
        let strategies: [&dyn Fn() -> Packing; 3] = [
            &|| self.consecutive(),
            &|| self.first_fit((0..self.lengths.len()).collect()),
            &|| self.first_fit(self.largest_first()),
        ];
        let mut fewest: Option<Packing> = None;
        for strategy in strategies {
            let packing = strategy();
            if packing.len() <= max_frames {
                return packing;
            }
            if fewest
                .as_ref()
                .is_none_or(|best| packing.len() < best.len())
            {
                fewest = Some(packing);
            }
        }
        fewest.unwrap_or_default()
    }

    fn limit(&self, frame: usize) -> usize {
        if frame == 0 {
            self.first_limit
        } else {
            self.later_limit
        }
    }

    /// Whether `piece` joins a frame whose pieces so far are `members`: the
    /// pieces, a separator before each added one, and the new piece.
    fn fits(&self, frame: usize, members: &[usize], piece: usize) -> bool {
        let used: usize = members.iter().map(|&i| self.lengths[i]).sum();
        used + utf16_len(PIECE_SEPARATOR) * members.len() + self.lengths[piece] <= self.limit(frame)
    }

    /// Fills one frame after the other: never reorders a piece.
    fn consecutive(&self) -> Packing {
        let mut frames: Packing = vec![Vec::new()];
        for piece in 0..self.lengths.len() {
            let last = frames.len() - 1;
            if frames[last].is_empty() || self.fits(last, &frames[last], piece) {
                frames[last].push(piece);
            } else {
                frames.push(vec![piece]);
            }
        }
        frames
    }

    /// Each piece, in `order`, into the first frame with room.
    fn first_fit(&self, order: Vec<usize>) -> Packing {
        let mut frames: Packing = Vec::new();
        for piece in order {
            match (0..frames.len()).find(|&f| self.fits(f, &frames[f], piece)) {
                Some(frame) => frames[frame].push(piece),
                None => frames.push(vec![piece]),
            }
        }
        for members in &mut frames {
            members.sort_unstable();
        }
        if frames.is_empty() {
            frames.push(Vec::new());
        }
        frames
    }

    /// Piece indices longest first; equal lengths keep rendering order.
    fn largest_first(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.lengths.len()).collect();
        order.sort_by_key(|&i| Reverse(self.lengths[i]));
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::block::BlockKind;

    fn rule(name: &str, content: &str) -> Block {
        Block {
            kind: BlockKind::Rule { name: name.into() },
            heading: format!("# {name}"),
            content: content.into(),
        }
    }

    fn documentation(heading: &str, content: &str) -> Block {
        Block {
            kind: BlockKind::Documentation {
                paths: vec!["doc/guide.md".into()],
            },
            heading: heading.into(),
            content: content.into(),
        }
    }

    /// About `chars` characters of paragraphs ending with `last`, plus a
    /// fenced example.
    fn body(chars: usize, last: &str) -> String {
        let paragraph = "word ".repeat(60).trim_end().to_string();
        let mut parts = Vec::new();
        let mut len = 0;
        while len < chars {
            len += paragraph.len() + 2;
            parts.push(paragraph.clone());
        }
        parts.push(format!("```clojure\n(example \"{last}\")\n```"));
        parts.push(last.to_string());
        parts.join("\n\n")
    }

    fn small(frame_chars: usize) -> FrameLimits {
        FrameLimits {
            frame_chars,
            frames_per_delivery: FRAMES_PER_DELIVERY,
        }
    }

    #[test]
    fn delivery_ids_are_the_head_of_the_event_hash() {
        // Case 77.
        assert_eq!(
            event_id(EventKind::Prompt, "input"),
            event_id(EventKind::Prompt, "input")
        );
        assert!(event_id(EventKind::Prompt, "input").starts_with("b7238d82d473fb52"));
        assert_eq!(event_id(EventKind::Prompt, "input").len(), 64);
        assert_ne!(
            event_id(EventKind::Prompt, "input"),
            event_id(EventKind::Edit, "input")
        );
        assert_ne!(
            delivery_id(EventKind::Shell, "input"),
            delivery_id(EventKind::Edit, "input")
        );
        assert_eq!(delivery_id(EventKind::Prompt, "input"), "b7238d82d473");
    }

    #[test]
    fn one_small_delivery_is_one_frame() {
        let blocks = [
            rule("a.mdc", "# A rule"),
            documentation("## Required context: `doc/guide.md` (a.mdc)", "Text."),
        ];
        let frames = build_frames(
            &blocks,
            "[rule-fairy injected: a.mdc]",
            "d1",
            FrameLimits::default(),
        )
        .unwrap();
        assert_eq!(
            frames,
            vec![
                "[rule-fairy shard 1/1 d1]\n[rule-fairy injected: a.mdc]\n\n# a.mdc\n\n# A rule\n\n---\n\n## Required context: `doc/guide.md` (a.mdc)\n\nText."
            ]
        );
    }

    #[test]
    fn large_sets_spread_over_frames_within_the_limit() {
        // Case 71, with the blocks the renderer would give: four rules of
        // about 9,000 characters, the section two of them import once.
        let prefix = "[rule-fairy matched: test]";
        let mut blocks: Vec<Block> = ["a", "b", "c", "d"]
            .iter()
            .map(|name| {
                rule(
                    &format!("{name}.mdc"),
                    &body(9_000, &format!("last of {name}")),
                )
            })
            .collect();
        blocks.push(documentation(
            "## Required context: `doc/guide.md#shared` (b.mdc, c.mdc)",
            "## Shared\n\nshared section text",
        ));
        let frames = build_frames(
            &blocks,
            prefix,
            "d1",
            FrameLimits {
                frame_chars: 9_000,
                frames_per_delivery: 10,
            },
        )
        .unwrap();
        assert!(frames.len() > 1);
        for frame in &frames {
            assert!(utf16_len(frame) <= 9_000);
            assert!(frame.starts_with("[rule-fairy shard "));
        }
        let all = frames.concat();
        assert_eq!(frames.iter().filter(|f| f.contains(prefix)).count(), 1);
        for name in ["a", "b", "c", "d"] {
            assert!(all.contains(&format!("\n\nlast of {name}")), "{name}");
            assert!(
                all.contains(&format!("```clojure\n(example \"last of {name}\")\n```")),
                "{name}"
            );
        }
        assert_eq!(all.matches("shared section text").count(), 1);
    }

    #[test]
    fn three_large_rules_fit_one_default_frame() {
        // Case 72, the frame half: the fitting half is in `fit`.
        let blocks: Vec<Block> = ["x", "y", "z"]
            .iter()
            .map(|name| {
                rule(
                    &format!("{name}.mdc"),
                    &body(12_000, &format!("end of {name}")),
                )
            })
            .collect();
        let prefix = "[rule-fairy injected: x.mdc]\n[rule-fairy injected: y.mdc]\n[rule-fairy injected: z.mdc]";
        let frames = build_frames(&blocks, prefix, "large", FrameLimits::default()).unwrap();
        assert_eq!(frames.len(), 1);
        assert!(utf16_len(&frames[0]) > 30_000);
        assert!(frames[0].starts_with(&format!("[rule-fairy shard 1/1 large]\n{prefix}\n\n")));
        for name in ["x", "y", "z"] {
            assert!(frames[0].contains(&format!("end of {name}")));
        }
    }

    #[test]
    fn pieces_stay_in_match_order() {
        // Largest-first packing (the original) would put the long `b`
        // before `a` and split `a`'s parts around it; in order, `a` comes
        // first and its parts follow each other.
        let blocks = [
            rule("a.mdc", &body(3_000, "end of a")),
            rule("b.mdc", &body(6_000, "end of b")),
            rule("c.mdc", "short c"),
        ];
        let frames =
            build_frames(&blocks, "[rule-fairy injected: a.mdc]", "d1", small(9_000)).unwrap();
        let all = frames.concat();
        let a = all.find("# a.mdc").unwrap();
        let b = all.find("# b.mdc").unwrap();
        let c = all.find("# c.mdc").unwrap();
        assert!(a < b && b < c, "{a} {b} {c}");
        let b_parts: Vec<usize> = (1..=9)
            .filter_map(|i| all.find(&format!("# b.mdc (part {i}/")))
            .collect();
        assert!(b_parts.windows(2).all(|w| w[0] < w[1]), "{b_parts:?}");
    }

    #[test]
    fn packing_falls_back_when_order_needs_too_many_frames() {
        // Every piece also costs a 7-character separator against the room.
        // Strictly in order, 60 | 50 40 | 60 is three frames; first fit in
        // rendering order moves 40 back into the first frame: two.
        let lengths = [60, 50, 40, 60];
        let bins = Bins {
            lengths: &lengths,
            first_limit: 107,
            later_limit: 117,
        };
        assert_eq!(bins.pack(3), vec![vec![0], vec![1, 2], vec![3]]);
        assert_eq!(bins.pack(2), vec![vec![0, 2], vec![1, 3]]);

        // Here only largest first (the original's order) reaches two.
        let lengths = [33, 73, 63];
        let bins = Bins {
            lengths: &lengths,
            first_limit: 93,
            later_limit: 113,
        };
        assert_eq!(bins.first_fit(vec![0, 1, 2]).len(), 3);
        assert_eq!(bins.pack(3), vec![vec![0], vec![1], vec![2]]);
        assert_eq!(bins.pack(2), vec![vec![1], vec![0, 2]]);
        // Nothing fits one frame: the fewest frames are reported.
        assert_eq!(bins.pack(1).len(), 2);
    }

    #[test]
    fn frame_limits_are_errors_with_the_reference_texts() {
        let blocks = [rule("a.mdc", "body")];
        let long_prefix = "p".repeat(1_000 - 64);
        assert_eq!(
            build_frames(&blocks, &long_prefix, "d1", small(1_000))
                .unwrap_err()
                .message(),
            "Hook context prefix exceeds the frame limit"
        );
        assert!(build_frames(&blocks, &long_prefix[1..], "d1", small(1_000)).is_err());
        let fence = rule("f.mdc", &format!("```\n{}\n```", "x".repeat(500)));
        assert_eq!(
            build_frames(&[fence], "prefix", "d1", small(400))
                .unwrap_err()
                .message(),
            "A fenced Markdown block exceeds the hook context frame limit"
        );
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn delivery_id_example() {
        use crate::delivery::frames::delivery_id;
        use crate::matching::event::EventKind;
        assert_eq!(delivery_id(EventKind::Prompt, "input"), "b7238d82d473");
    }
}
