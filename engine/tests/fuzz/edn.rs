//! `rule-fairy.edn`: the EDN reader and the configuration's keys
//! (behaviour §1.1).

use proptest::prelude::*;
use rule_fairy_engine::{Config, ErrorKind, Format, Result};

use crate::inputs::{bounded, config, mutated, token_soup};

const FILE: &str = "/p/rule-fairy.edn";

const SEEDS: &[&[u8]] = &[
    b"{:rules {:dirs [\".cursor/rules\" \"rules\"] :extensions [\".mdc\" \".md\"]}\n :formats [:claude :copilot :windsurf :cline :opencode]\n :shell-hook {:claude true :codex false}\n :instructions {:files [\"AGENTS.md\" \"CLAUDE.md\"]}\n :gate {:dirs [\"rules/ast-grep\"] :test-dirs [\"rules/tests\"]}}\n",
    b";; a comment\n{:rules nil, :formats (:claude)\n #_ :ignored {:a 1}}\n",
    b"{:formats [:claude \"str\" \\c 1.5 -7 #inst \"2020\" #{1 2} sym nil true]}",
    b"{:rules {:dirs [\"a\\tb\\\"c\\\\d\\u00e9\"]}}",
    b"{:gate {:dirs []}}",
    b"",
    b"nil",
];

fn line_count(text: &str) -> usize {
    text.matches('\n').count() + 1
}

/// An EDN form, nested a few levels.
fn form() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("nil".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        "-?[0-9]{1,30}(\\.[0-9]{0,10})?([eE][+-]?[0-9]{1,4})?M?N?",
        ":[a-zA-Z*+!_?<>=-][a-zA-Z0-9*+!_?<>=./:#-]{0,10}",
        "[a-zA-Z*+!_?<>=][a-zA-Z0-9*+!_?<>=./:#-]{0,10}",
        "\\\\(newline|space|tab|return|u[0-9a-fA-F]{4}|[a-z]|\\\\)",
        any::<String>().prop_map(|s| format!("{s:?}")),
        "\"([^\"\\\\]|\\\\[ntr\"\\\\]|\\\\u[0-9a-fA-F]{0,4}|\\\\.)*\"?",
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(|v| format!("[{}]", v.join(" "))),
            prop::collection::vec(inner.clone(), 0..8).prop_map(|v| format!("({})", v.join(" "))),
            prop::collection::vec(inner.clone(), 0..8)
                .prop_map(|v| format!("#{{{}}}", v.join(", "))),
            prop::collection::vec((inner.clone(), inner.clone()), 0..6).prop_map(|v| {
                let entries: Vec<String> = v.into_iter().map(|(k, v)| format!("{k} {v}")).collect();
                format!("{{{}}}", entries.join(",\n"))
            }),
            inner.clone().prop_map(|v| format!("#_ {v}")),
            inner.clone().prop_map(|v| format!("#tag {v}")),
            inner.clone().prop_map(|v| format!("; comment\n{v}")),
        ]
    })
}

/// A configuration: the known keys with generated values, perhaps others.
fn configuration() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just(":rules".to_string()),
        Just(":formats".to_string()),
        Just(":shell-hook".to_string()),
        Just(":instructions".to_string()),
        Just(":gate".to_string()),
    ];
    prop::collection::vec((key, form()), 0..5).prop_map(|entries| {
        let entries: Vec<String> = entries
            .into_iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!("{{{}}}", entries.join("\n"))
    })
}

/// Every reading of a configuration the program makes, each error checked
/// to name the file and a line in it.
fn every_reading(text: String) -> Vec<Result<()>> {
    bounded("configuration", move || {
        let config = match Config::parse_file(&text, FILE) {
            Ok(config) => config,
            Err(e) => return vec![Err(e)],
        };
        let mut results = vec![
            config.rules_source("/p").map(drop),
            config.formats().map(drop),
            config.gate_dirs().map(drop),
            config.shell_hook().map(drop),
            config.instruction_files().map(drop),
        ];
        results.extend(config.validate("/p").into_iter().map(Err));
        results
    })
}

fn check_places(text: &str, results: &[Result<()>]) -> std::result::Result<(), TestCaseError> {
    let lines = line_count(text);
    for result in results {
        if let Err(error) = result {
            let place = error
                .place
                .as_ref()
                .expect("a configuration error has a place");
            prop_assert_eq!(&place.file, FILE, "{}", error);
            let line = place.line.expect("a configuration error has a line");
            prop_assert!(
                (1..=lines).contains(&line),
                "line {} of {}: {}",
                line,
                lines,
                error
            );
            prop_assert!(!error.message().is_empty());
        }
    }
    Ok(())
}

fn formats_error(text: &str) -> Option<String> {
    match Config::parse_file(text, FILE).and_then(|c| c.formats()) {
        Err(e) => match e.kind {
            ErrorKind::UnknownFormat { format, .. } => Some(format),
            _ => None,
        },
        Ok(_) => None,
    }
}

proptest! {
    #![proptest_config(config(256))]

    /// Mutated real configurations: every error names the file and a line.
    #[test]
    fn mutated_configurations_name_file_and_line(bytes in mutated(SEEDS)) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let results = every_reading(text.clone());
        check_places(&text, &results)?;
    }

    /// Generated configurations of nested forms.
    #[test]
    fn generated_configurations_name_file_and_line(text in configuration()) {
        let results = every_reading(text.clone());
        check_places(&text, &results)?;
    }

    /// Any text at all.
    #[test]
    fn token_soup_names_file_and_line(text in token_soup()) {
        let results = every_reading(text.clone());
        check_places(&text, &results)?;
    }

    /// Deep nesting, closed or not, is read or refused without exhausting
    /// the stack.
    #[test]
    fn deep_nesting_is_bounded(
        open in prop::sample::select(vec!["[", "(", "{:a ", "#{", "#_ [", "#tag ("]),
        depth in 1..100_000usize,
        closed in any::<bool>(),
    ) {
        let close = match open { "[" | "#_ [" => "]", "(" | "#tag (" => ")", _ => "}" };
        let mut text = format!("{{:formats {}", open.repeat(depth));
        if closed {
            text.push_str(&close.repeat(depth));
            text.push('}');
        }
        let results = every_reading(text.clone());
        check_places(&text, &results)?;
    }

    /// `:rules :dirs` and `:extensions` strings, escapes included, and
    /// `:formats` keywords read back as written.
    #[test]
    fn rules_and_formats_round_trip(
        dirs in prop::collection::vec(prop::collection::vec("[a-zA-Z0-9 _\"\\\\\t\u{e9}\u{1F600}-]{1,8}", 1..4), 1..4),
        extensions in prop::collection::vec("\\.[a-zA-Z0-9]{1,6}", 1..4),
        formats in prop::collection::vec(prop::sample::select(vec![
            ("claude", Format::Claude), ("copilot", Format::Copilot), ("windsurf", Format::Windsurf),
            ("cline", Format::Cline), ("opencode", Format::Opencode),
        ]), 0..6),
    ) {
        let dirs: Vec<String> = dirs.into_iter().map(|segments| segments.join("/"))
            .filter(|d| d.split('/').all(|s| s.trim() == s && s != "." && s != ".."))
            .collect();
        prop_assume!(!dirs.is_empty());
        let edn_string = |s: &String| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"").replace('\t', "\\t"));
        let text = format!(
            "{{:rules {{:dirs [{}] :extensions [{}]}} :formats [{}]}}",
            dirs.iter().map(edn_string).collect::<Vec<_>>().join(" "),
            extensions.iter().map(edn_string).collect::<Vec<_>>().join(" "),
            formats.iter().map(|(k, _)| format!(":{k}")).collect::<Vec<_>>().join(" "),
        );
        let source = Config::parse_file(&text, FILE).and_then(|c| c.rules_source("/p"));
        let source = source.map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        let expected: Vec<String> = dirs.iter().map(|d| format!("/p/{d}")).collect();
        prop_assert_eq!(source.dirs, expected);
        prop_assert_eq!(source.extensions, extensions);
        let mut wanted: Vec<Format> = Vec::new();
        for (_, format) in formats {
            if !wanted.contains(&format) {
                wanted.push(format);
            }
        }
        prop_assert_eq!(source.formats, wanted);
    }

    /// The printer and the reader agree: a form the configuration prints
    /// in its message (an unknown format) prints the same once read again.
    #[test]
    fn printed_forms_read_back(value in form()) {
        let text = format!("{{:formats [{value}]}}");
        if let Some(printed) = formats_error(&text) {
            let again = formats_error(&format!("{{:formats [{printed}]}}"));
            prop_assert_eq!(again.as_deref(), Some(printed.as_str()), "{}", text);
        }
    }
}
