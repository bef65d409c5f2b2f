//! The Markdown model's cases, across its parts.

use std::ops::Range;

use super::headings::{parse_heading, slug, AtxHeading};
use super::inline::code_spans;
use super::*;

const CASE_62: &str = "Preamble line.\n\n# Title\n\nIntro paragraph.\n\n```\n# not a heading\n```\n\n## Section ##\n\nBody one.\nBody two.\n\n## Section\n\nRepeated heading.\n";

fn outline(content: &str) -> Outline {
    Outline::new(&lines(content))
}

fn slugs(content: &str) -> Vec<String> {
    outline(content)
        .headings
        .into_iter()
        .map(|h| h.slug)
        .collect()
}

#[test]
fn case_62_headings_outside_fences_with_unique_slugs() {
    let found: Vec<(usize, String, usize, String)> = outline(CASE_62)
        .headings
        .into_iter()
        .map(|h| (h.level, h.text, h.line, h.slug))
        .collect();
    // The original numbers these lines 2, 10 and 15: 0-based indexes.
    assert_eq!(
        found,
        vec![
            (1, "Title".to_string(), 3, "title".to_string()),
            (2, "Section".to_string(), 11, "section".to_string()),
            (2, "Section".to_string(), 16, "section-1".to_string()),
        ]
    );
}

#[test]
fn case_63_slug_suffixes_skip_taken_slugs() {
    assert_eq!(
        slugs("# API\n# API\n# API-1"),
        vec!["api", "api-1", "api-1-1"]
    );
    assert_eq!(
        slugs("# API\n# API-1\n# API"),
        vec!["api", "api-1", "api-2"]
    );
    assert_eq!(
        slugs("## Section\n## Section"),
        vec!["section", "section-1"]
    );
    assert_eq!(
        slugs("# a\n# a\n# a-1\n# a\n# a-2"),
        vec!["a", "a-1", "a-1-1", "a-2", "a-2-1"]
    );
}

#[test]
fn case_64_closing_sequences_and_hashtags() {
    let heading = parse_heading("### Do it: now! ###").unwrap();
    assert_eq!(
        heading,
        AtxHeading {
            level: 3,
            text: "Do it: now!".into()
        }
    );
    assert_eq!(parse_heading("#hashtag"), None);
    assert_eq!(slug("Do it: now!"), "do-it-now");
}

#[test]
fn heading_edge_cases() {
    let text = |line: &str| parse_heading(line).map(|h| (h.level, h.text));
    assert_eq!(text("   # three spaces"), Some((1, "three spaces".into())));
    assert_eq!(text("    # four spaces"), None);
    assert_eq!(text("\t## tab"), Some((2, "tab".into())));
    assert_eq!(text("###### six"), Some((6, "six".into())));
    assert_eq!(text("####### seven"), None);
    assert_eq!(text("# C#"), Some((1, "C#".into())));
    assert_eq!(text("# a # #"), Some((1, "a #".into())));
    assert_eq!(text("# #"), Some((1, "#".into())));
    assert_eq!(text("# ###"), Some((1, "###".into())));
    assert_eq!(text("# Title #  \t"), Some((1, "Title".into())));
    assert_eq!(text("#"), None);
    assert_eq!(text("# "), None);
    assert_eq!(text("#  "), Some((1, String::new())));
    assert_eq!(text("# a\rb"), None);
    assert_eq!(text("# a\u{2028}"), None);
    assert_eq!(text("Title\n==="), None);
}

#[test]
fn case_65_slugs_with_links_and_code_spans() {
    assert_eq!(slug("Do it: now!"), "do-it-now");
    assert_eq!(slug("[Testing](testing.md)"), "testing");
    assert_eq!(slug("See [the API][api]"), "see-the-api");
    assert_eq!(slug("[API](guide_(v2).md)"), "api");
    assert_eq!(slug("`[API](api.md)`"), "apiapimd");
    assert_eq!(slug("See `code` and [docs](d.md)"), "see-code-and-docs");
    assert_eq!(slug("``x`[API](api.md)`` [y](y.md)"), "xapiapimd-y");
}

#[test]
fn slug_character_classes_follow_the_reference() {
    // Each whitespace character is its own hyphen.
    assert_eq!(slug("a  b\tc"), "a--b-c");
    assert_eq!(slug("Ünïcödé Straße 42 ½"), "ünïcödé-straße-42-½");
    assert_eq!(slug("snake_case-and-kebab"), "snake_case-and-kebab");
    // A no-break space is not `\s` in the original's pattern: removed.
    assert_eq!(slug("a\u{a0}b"), "ab");
    // Combining vowel signs are not letters there either.
    assert_eq!(slug("हिन्दी"), "हनद");
    assert_eq!(slug("日本語 見出し"), "日本語-見出し");
    assert_eq!(slug("Ⓐ"), "");
}

#[test]
fn links_need_a_destination_or_label() {
    assert_eq!(slug("[a] b"), "a-b");
    assert_eq!(slug("[a[b](c)"), "ab");
    assert_eq!(slug("[a](b(c(d)))"), "abcd");
    assert_eq!(slug("[a](b) [c][] [d](e"), "a-c-de");
    assert_eq!(slug("``unclosed"), "unclosed");
}

#[test]
fn fences_open_and_close_as_the_reference_says() {
    let flags = |content: &str| fenced_lines(&lines(content));
    assert_eq!(
        flags("a\n```js\nb\n```\nc"),
        vec![false, true, true, true, false]
    );
    // A shorter run or another character does not close; a longer one does.
    assert_eq!(
        flags("````\n```\n~~~~\n`````\nx"),
        vec![true, true, true, true, false]
    );
    // Inside a fence, an opening-looking line is content.
    assert_eq!(flags("~~~\n```\n~~~\nx"), vec![true, true, true, false]);
    // Closing lines allow only blanks after the run.
    assert_eq!(
        flags("```\n``` x\n```  \t\nx"),
        vec![true, true, true, false]
    );
    assert_eq!(flags("    ```\nx"), vec![false, false]);
    assert_eq!(flags("   ```\nx\n   ```"), vec![true, true, true]);
    // An unclosed fence runs to the end; an info string may hold anything.
    assert_eq!(flags("```a`b\n# no\n\ntext"), vec![true, true, true, true]);
    assert_eq!(flags("``\nx"), vec![false, false]);
}

#[test]
fn sections_span_to_the_next_heading_of_the_same_or_higher_level() {
    let doc = outline("# A\n## B\n### C\ntext\n## D\n# E\n```\n# fenced\n```\n");
    let spans: Vec<Range<usize>> = (0..doc.headings.len()).map(|i| doc.section(i)).collect();
    assert_eq!(spans, vec![0..5, 1..4, 2..4, 4..5, 5..10]);
}

#[test]
fn case_66_sections() {
    let parts = sections(CASE_62);
    let headings: Vec<Option<&str>> = parts
        .iter()
        .map(|s| s.heading.as_ref().map(|h| h.text.as_str()))
        .collect();
    assert_eq!(
        headings,
        vec![None, Some("Title"), Some("Section"), Some("Section")]
    );
    assert_eq!(parts[0].lines, vec!["Preamble line.", ""]);
    assert!(parts[1].lines.contains(&"# not a heading") && parts[1].lines.contains(&"```"));
    assert_eq!(parts[3].heading.as_ref().unwrap().slug, "section-1");

    let titled = sections("\n\n# Title\n\nBody\n");
    assert_eq!(titled.len(), 1);
    assert_eq!(titled[0].heading.as_ref().unwrap().text, "Title");
    let plain = sections("Just text.\n");
    assert_eq!(
        plain,
        vec![Section {
            heading: None,
            lines: vec!["Just text.", ""]
        }]
    );
    assert!(sections("").is_empty());
}

#[test]
fn case_67_units() {
    let found: Vec<(String, bool)> = units(CASE_62)
        .into_iter()
        .map(|u| (u.text, u.fenced))
        .collect();
    let expected: Vec<(String, bool)> = [
        ("Preamble line.", false),
        ("# Title", false),
        ("Intro paragraph.", false),
        ("```\n# not a heading\n```", true),
        ("## Section ##", false),
        ("Body one.\nBody two.", false),
        ("## Section", false),
        ("Repeated heading.", false),
    ]
    .into_iter()
    .map(|(text, fenced)| (text.to_string(), fenced))
    .collect();
    assert_eq!(found, expected);
    assert_eq!(units("a\r\n\r\nb\r\n"), units("a\n\nb\n"));
    assert_eq!(units(&CASE_62.replace('\n', "\r\n")), units(CASE_62));
}

#[test]
fn units_break_at_fences_and_headings_and_keep_open_fences_whole() {
    let texts = |content: &str| {
        units(content)
            .into_iter()
            .map(|u| (u.text, u.fenced))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        texts("para\n```\ncode\n\nmore\n```\nafter\n# H\nlead\nmore"),
        vec![
            ("para".into(), false),
            ("```\ncode\n\nmore\n```".into(), true),
            ("after".into(), false),
            ("# H\nlead\nmore".into(), false),
        ]
    );
    assert_eq!(
        texts("~~~\nnever closed\n\n# x"),
        vec![("~~~\nnever closed\n\n# x".into(), true)]
    );
    assert_eq!(
        texts("# A\n# B"),
        vec![("# A".into(), false), ("# B".into(), false)]
    );
    assert!(units("").is_empty() && units(" \n\t\n").is_empty());
}

#[test]
fn java_whitespace_for_trim_and_blank() {
    assert_eq!(trim("\u{1c} a \u{3000}"), "a");
    assert_eq!(trim("\u{a0}a\u{a0}"), "\u{a0}a\u{a0}");
    assert!(is_blank("") && is_blank(" \t\u{0b}") && !is_blank("\u{a0}"));
}

#[test]
fn a_thousand_equal_headings_get_their_suffixes_quickly() {
    let doc = "## x\n\ntext\n\n".repeat(20_000);
    let found = slugs(&doc);
    assert_eq!(found.len(), 20_000);
    assert_eq!(found[0], "x");
    assert_eq!(found[1], "x-1");
    assert_eq!(found[19_999], "x-19999");
}

/// Xorshift: deterministic, so a failure replays.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn text(&mut self, max_len: usize) -> String {
        const PIECES: &[&str] = &[
            "#",
            "# ",
            "## ",
            "`",
            "```",
            "~~~",
            "[",
            "]",
            "(",
            ")",
            "][",
            "](",
            "\n",
            "\r",
            "\r\n",
            " ",
            "\t",
            "a",
            "B",
            "é",
            "ि",
            "_",
            "-",
            "!",
            "<!-- agent-context: omit -->",
            "<!-- /agent-context -->",
            "\u{2028}",
            "\u{a0}",
            "😀",
        ];
        let len = self.below(max_len + 1);
        if self.below(4) == 0 {
            let bytes: Vec<u8> = (0..len).map(|_| self.next() as u8).collect();
            return String::from_utf8_lossy(&bytes).into_owned();
        }
        (0..len).map(|_| PIECES[self.below(PIECES.len())]).collect()
    }
}

/// The original's code span pattern run the slow way: every opening
/// length from the longest down, the nearest closing run.
fn code_spans_by_backtracking(chars: &[char]) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        let found = (1..=run).rev().find_map(|open| {
            let mut j = i + open;
            while j + open <= chars.len() {
                if chars[j..j + open].iter().all(|&c| c == '`') {
                    return Some(j + open);
                }
                if is_line_terminator(chars[j]) {
                    return None;
                }
                j += 1;
            }
            None
        });
        match found {
            Some(end) => {
                spans.push(i..end);
                i = end;
            }
            None => i += 1,
        }
    }
    spans
}

#[test]
fn code_spans_agree_with_backtracking() {
    let mut random = Random(0x5eed_cafe);
    for _ in 0..20_000 {
        let len = random.below(24);
        let chars: Vec<char> = (0..len)
            .map(|_| ['`', '`', '`', 'a', '\r', ' '][random.below(6)])
            .collect();
        assert_eq!(
            code_spans(&chars),
            code_spans_by_backtracking(&chars),
            "{:?}",
            chars.iter().collect::<String>()
        );
    }
}

#[test]
fn arbitrary_input_neither_panics_nor_hangs() {
    let mut random = Random(0x1234_5678_9abc_def1);
    for _ in 0..3_000 {
        let text = random.text(200);
        let _ = slug(&text);
        let _ = parse_heading(&text);
        let doc = outline(&text);
        for index in 0..doc.headings.len() {
            let span = doc.section(index);
            assert!(span.start < span.end && span.end <= doc.line_count());
        }
        for section in sections(&text) {
            assert!(!section.lines.is_empty());
        }
        for unit in units(&text) {
            assert!(!unit.text.is_empty());
        }
    }
}

#[test]
fn long_pathological_lines_stay_linear() {
    for line in [
        format!("# {}", "`".repeat(200_001)),
        format!("# {}", "``a".repeat(70_000)),
        format!("# {}", "[".repeat(200_000)),
        format!("# {}", "[a](".repeat(50_000)),
        format!("# {}", "[a]((b)".repeat(30_000)),
        format!("# {}", "](x(a)".repeat(30_000)),
        format!("# {}", "[a][".repeat(50_000)),
    ] {
        let heading = parse_heading(&line).unwrap();
        let _ = slug(&heading.text);
    }
    let long = format!("```\n{}", "~~~\n```x\n".repeat(100_000));
    assert_eq!(units(&long).len(), 1);
}

fn unit_texts(content: &str) -> Vec<(String, bool)> {
    units(content)
        .into_iter()
        .map(|u| (u.text, u.fenced))
        .collect()
}

#[test]
fn fences_headings_and_paragraphs_split_where_the_reference_splits() {
    assert_eq!(
        unit_texts("text\n```rust\nlet x;\n\nlet y;\n```\nafter\n# H\nunder"),
        vec![
            ("text".to_string(), false),
            ("```rust\nlet x;\n\nlet y;\n```".to_string(), true),
            ("after".to_string(), false),
            ("# H\nunder".to_string(), false),
        ]
    );
    // An unclosed fence runs to the end; a shorter run does not close it.
    assert_eq!(
        unit_texts("~~~~\na\n~~~\n\nb"),
        vec![("~~~~\na\n~~~\n\nb".to_string(), true)]
    );
    assert_eq!(
        unit_texts("#hashtag\nline"),
        vec![("#hashtag\nline".to_string(), false)]
    );
    assert_eq!(
        unit_texts("    ```\ncode"),
        vec![("    ```\ncode".to_string(), false)]
    );
    assert!(unit_texts(" \t\n\n").is_empty());
}
