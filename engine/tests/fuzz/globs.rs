//! Globs: compiled and matched, against a reference matcher of the dialect
//! and under pathological patterns (behaviour §2.2, §2.3).

use proptest::prelude::*;
use rule_fairy_engine::{check_project, MemoryFs, Rule, RuleIndex, Severity};

use crate::inputs::{bounded, config, token_soup};

/// One segment of a glob: `*`, `?` and literal characters matched within
/// the segment (a `**` inside a segment is a `*`).
fn segment_matches(glob: &[u8], text: &[u8]) -> bool {
    match glob.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => (0..=text.len()).any(|i| segment_matches(rest, &text[i..])),
        Some((b'?', rest)) => !text.is_empty() && segment_matches(rest, &text[1..]),
        Some((c, rest)) => text.first() == Some(c) && segment_matches(rest, &text[1..]),
    }
}

fn segments_match(glob: &[&str], path: &[&str]) -> bool {
    match glob.split_first() {
        None => path.is_empty(),
        Some((&"**", [])) => !path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|i| segments_match(rest, &path[i..])),
        Some((segment, rest)) => {
            !path.is_empty()
                && segment_matches(segment.as_bytes(), path[0].as_bytes())
                && segments_match(rest, &path[1..])
        }
    }
}

/// The dialect of behaviour §2.2 for globs of literals, `*`, `?` and `**`.
fn reference(glob: &str, path: &str) -> bool {
    let path: Vec<&str> = path.split('/').collect();
    if glob.contains('/') {
        segments_match(&glob.split('/').collect::<Vec<_>>(), &path)
    } else {
        segment_matches(glob.as_bytes(), path.last().unwrap().as_bytes())
    }
}

fn rule_with_globs(globs: &str) -> Rule {
    Rule::parse(
        "r.mdc",
        "/p/.cursor/rules/r.mdc",
        &format!("---\nglobs: {globs}\n---\nbody"),
    )
}

fn glob_segment() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just("**".to_string()),
        4 => "[ab.*?]{1,4}".prop_filter("not a dot segment", |s| s != "." && s != ".."),
    ]
}

fn path_segment() -> impl Strategy<Value = String> {
    "[ab.]{1,4}".prop_filter("not a dot segment", |s| s != "." && s != "..")
}

proptest! {
    #![proptest_config(config(512))]

    /// The compiled glob agrees with the reference matcher.
    #[test]
    fn globs_match_as_the_dialect_says(
        glob in prop::collection::vec(glob_segment(), 1..5).prop_map(|s| s.join("/")),
        path in prop::collection::vec(path_segment(), 1..6).prop_map(|s| s.join("/")),
    ) {
        let index = RuleIndex::build(&[rule_with_globs(&glob)]);
        let matches = index.match_paths(&[&path]);
        prop_assert!(matches.errors.is_empty(), "{:?}", matches.errors);
        prop_assert_eq!(!matches.rules.is_empty(), reference(&glob, &path), "{} on {}", glob, path);
    }

    /// A literal glob matches exactly its own path, and a directory's `**`
    /// every path below it.
    #[test]
    fn literal_and_directory_globs(
        dir in prop::collection::vec("[a-zA-Z0-9_ .()+|^$-]{1,8}", 1..4).prop_map(|s| s.join("/")),
        file in "[a-zA-Z0-9_ .()+|^$-]{1,8}",
    ) {
        prop_assume!(dir.split('/').chain([file.as_str()]).all(|s| s.trim() == s && !s.starts_with('.')));
        let path = format!("{dir}/{file}");
        let literal = RuleIndex::build(&[rule_with_globs(&path)]);
        prop_assert_eq!(literal.match_paths(&[&path]).rules.len(), 1);
        prop_assert_eq!(literal.match_paths(&[&format!("{path}x")]).rules.len(), 0);
        prop_assert_eq!(literal.match_paths(&[&format!("x/{path}")]).rules.len(), 0);
        let below = RuleIndex::build(&[rule_with_globs(&format!("{dir}/**"))]);
        prop_assert_eq!(below.match_paths(&[&path]).rules.len(), 1);
        prop_assert_eq!(below.match_paths(&[&dir]).rules.len(), 0);
    }

    /// Pathological patterns of moderate size (brackets, braces, runs of
    /// stars) compile or fail with an error naming the rule's file and line,
    /// and match within the bound; `check` reports each invalid one.
    #[test]
    fn pathological_globs_fail_with_their_place(
        glob in prop_oneof![
            token_soup().prop_map(|s| s.replace(['\n', '\r', ','], "")),
            ("[*?a/\\[\\]{}!^-]{1,16}", 1..200usize).prop_map(|(unit, n)| unit.repeat(n)),
        ],
        paths in prop::collection::vec("[a-z*?/.\\[\\]{}-]{0,40}", 1..4),
    ) {
        prop_assume!(glob.len() <= 4_000);
        let (matches, report) = bounded("glob", move || {
            let rule = Rule::parse("r.mdc", "/p/.cursor/rules/r.mdc",
                &format!("---\nglobs:\n  - \"{}\"\n---\nbody", glob.replace('\\', "\\\\").replace('"', "\\\"")));
            let index = RuleIndex::build(std::slice::from_ref(&rule));
            let matches = index.match_paths(&paths);
            let mut fs = MemoryFs::new();
            fs.add_dir("/p/.git");
            let text = format!("---\nglobs: {}\n---\nbody", rule.globs.first().map_or("", |g| g.pattern.as_str()).replace(['\n', '\r'], ""));
            fs.add_file("/p/.cursor/rules/r.mdc", text.as_bytes());
            (matches, check_project(&fs, "/p"))
        });
        for error in &matches.errors {
            let place = error.place.as_ref().expect("a glob error has a place");
            prop_assert_eq!(&place.file, "/p/.cursor/rules/r.mdc");
            prop_assert!(place.line.is_some_and(|l| (2..=3).contains(&l)), "{:?}", place);
        }
        for finding in &report.findings {
            prop_assert_eq!(&finding.place.file, "/p/.cursor/rules/r.mdc");
        }
    }
}

proptest! {
    #![proptest_config(config(16))]

    /// A glob too large to compile is a `check` error with file and line,
    /// and an event that reaches it reports it beside the other rules'
    /// matches instead of panicking (behaviour §2.2, issue 20).
    #[test]
    fn huge_globs_are_check_errors_never_panics(
        unit in prop::sample::select(vec!["*a", "a*", "?", "**/a", "[a-z]", "{a,b}", "a"]),
        times in 50_000..300_000usize,
    ) {
        let glob = unit.repeat(times);
        let (errors, report) = bounded("huge glob", move || {
            let text = format!("---\nglobs: {glob}\n---\nbody");
            let rules = [
                Rule::parse("big.mdc", "/p/.cursor/rules/big.mdc", &text),
                rule_with_globs("src/**"),
            ];
            let index = RuleIndex::build(&rules);
            let matches = index.match_paths(&["src/a.ts", "aaa"]);
            assert_eq!(matches.rules.iter().filter(|m| m.name == "r.mdc").count(), 1);
            let mut fs = MemoryFs::new();
            fs.add_dir("/p/.git");
            fs.add_file("/p/.cursor/rules/big.mdc", text.as_bytes());
            (matches.errors, check_project(&fs, "/p"))
        });
        for error in &errors {
            prop_assert!(error.place.as_ref().is_some_and(|p| p.file == "/p/.cursor/rules/big.mdc"), "{}", error);
        }
        prop_assert!(
            report.findings.iter().any(|f| f.severity == Severity::Error
                && f.place.file == "/p/.cursor/rules/big.mdc"
                && f.place.line == Some(2)),
            "{:?}", report.findings
        );
    }

    /// `check`'s brace hint on a comma line stays small however many
    /// `{a,b}` groups the line holds (issue 20: 22 groups took 13 s).
    #[test]
    fn brace_hints_stay_small(groups in 12..40usize) {
        let line = "{a,b}".repeat(groups);
        let report = bounded("brace hint", move || {
            let mut fs = MemoryFs::new();
            fs.add_dir("/p/.git");
            fs.add_file("/p/.cursor/rules/r.mdc", format!("---\nglobs: src/{line}.ts\n---\nbody"));
            check_project(&fs, "/p")
        });
        let printed: usize = report.findings.iter()
            .map(|f| f.message.len() + f.hint.as_ref().map_or(0, String::len))
            .sum();
        prop_assert!(printed < 64 * 1024, "{} bytes of findings", printed);
    }
}
