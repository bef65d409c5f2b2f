//! The formats `check` and the gate print findings in: the code frame,
//! colour, GitHub's workflow commands, SARIF against its published
//! schema; and the completions and man page written from the command line.

use std::process::Output;

use rule_fairy_test_support::{code, NO_EVAL};
use serde_json::Value;

use crate::util::*;

fn run(p: &Project, args: &[&str]) -> Output {
    p.rule_fairy()
        .cwd(p.root())
        .env("RULE_FAIRY_PROJECT_DIR", p.root())
        .env_remove("NO_COLOR")
        .args(args)
        .output()
}

fn violating() -> Project {
    let p = Project::new();
    p.write(".kairoku/rules/security/no-eval.yml", NO_EVAL)
        .write("src/api.ts", "const a = 1;\nexport const b = eval(body);\n")
        .write(
            ".cursor/rules/braces.mdc",
            "---\nglobs: src/{a,b}.ts\n---\nBody\n",
        );
    p
}

/// The SARIF log in `text`, parsed. Its validation against the published
/// schema is tests/sarif/validate's (a Python validator, so no validator
/// crate joins this crate's dev-dependencies, whose features would change
/// the binary the benches time).
fn assert_valid_sarif(text: &str) -> Value {
    let log: Value = serde_json::from_str(text).expect("one JSON document");
    assert_eq!(log["version"], "2.1.0", "{text}");
    log
}

#[test]
fn the_human_format_shows_the_column_the_line_and_a_marker() {
    let p = violating();
    let out = run(&p, &["gate", "scan"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.starts_with("error[no-eval]: "), "{text}");
    assert!(text.contains(" --> src/api.ts:2:18\n"), "{text}");
    assert!(
        text.contains("2 | export const b = eval(body);\n"),
        "{text}"
    );
    assert!(text.contains("  |                  ^^^^^^^^^^\n"), "{text}");
    assert!(!text.contains('\x1b'), "no colour off a terminal: {text}");
    let check = stdout(&run(&p, &["check"]));
    assert!(
        check.contains(" --> .cursor/rules/braces.mdc:2:8\n"),
        "{check}"
    );
    assert!(check.contains("  |        ^^^^^^^^^^^^\n"), "{check}");
}

#[test]
fn a_config_error_marks_the_key_or_value_it_is_about() {
    let p = Project::new();
    p.write(
        "rule-fairy.edn",
        "{:rules {:dirs [\".cursor/rules\"]}\n :notify \"no\"\n :formats [:claude :cursorrules]}\n",
    )
    .write(".cursor/rules/a.mdc", "---\nalwaysApply: true\n---\nA\n");
    let human = stdout(&run(&p, &["check"]));
    assert!(human.contains(" --> rule-fairy.edn:2:10\n"), "{human}");
    assert!(human.contains("2 |  :notify \"no\"\n"), "{human}");
    assert!(human.contains("  |          ^^^^\n"), "{human}");
    assert!(human.contains(" --> rule-fairy.edn:3:20\n"), "{human}");
    let github = stdout(&run(&p, &["check", "--format", "github"]));
    assert!(
        github.contains("::error file=rule-fairy.edn,line=3,col=20,endLine=3,endColumn=32,title=config/invalid-value::"),
        "{github}"
    );
    let json: Value = serde_json::from_str(&stdout(&run(&p, &["check", "--json"]))).unwrap();
    let notify = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["line"] == 2)
        .expect("the :notify finding");
    assert_eq!(
        (notify["column"].clone(), notify["endColumn"].clone()),
        (10.into(), 14.into())
    );
    let sarif = assert_valid_sarif(&stdout(&run(&p, &["check", "--format", "sarif"])));
    let regions: Vec<&Value> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["locations"][0]["physicalLocation"]["region"])
        .collect();
    assert!(
        regions
            .iter()
            .any(|r| r["startLine"] == 3 && r["startColumn"] == 20 && r["endColumn"] == 32),
        "{regions:?}"
    );
}

#[test]
fn a_glob_that_matches_no_file_is_marked_where_it_is_written() {
    let p = Project::new();
    p.write("src/a.ts", "x\n").write(
        ".cursor/rules/r.mdc",
        "---\nglobs:\n  - src/**\n  - src/nowhere/**\n---\nBody\n",
    );
    let github = stdout(&run(&p, &["check", "--format", "github"]));
    assert!(
        github.contains("::warning file=.cursor/rules/r.mdc,line=4,col=5,endLine=4,endColumn=19,title=rule/glob-matches-nothing::"),
        "{github}"
    );
    let human = stdout(&run(&p, &["check"]));
    assert!(human.contains("4 |   - src/nowhere/**\n"), "{human}");
    assert!(human.contains("  |     ^^^^^^^^^^^^^^\n"), "{human}");
}

#[test]
fn colour_is_asked_for_or_refused_and_no_color_is_honoured() {
    let p = violating();
    assert!(stdout(&run(&p, &["gate", "scan", "--color", "always"])).contains("\x1b["));
    assert!(!stdout(&run(&p, &["check", "--color", "never"])).contains('\x1b'));
    let quiet = p
        .rule_fairy()
        .cwd(p.root())
        .env("NO_COLOR", "1")
        .args(["check"])
        .output();
    assert!(!stdout(&quiet).contains('\x1b'));
}

#[test]
fn github_format_is_one_workflow_command_per_finding() {
    let p = violating();
    let out = run(&p, &["gate", "scan", "--format", "github"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "::error file=src/api.ts,line=2,col=18,endLine=2,endColumn=28,title=no-eval::"
        ),
        "{text}"
    );
    let check = stdout(&run(&p, &["check", "--format", "github"]));
    assert!(
        check.starts_with("::error file=.cursor/rules/braces.mdc,line=2,col=8,endLine=2,endColumn=20,title=rule/split-braces::"),
        "{check}"
    );
}

#[test]
fn sarif_names_the_tool_rules_and_regions() {
    let p = violating();
    let out = run(&p, &["gate", "scan", "--format", "sarif"]);
    assert_eq!(code(&out), 1);
    let log = assert_valid_sarif(&stdout(&out));
    let run0 = &log["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "rule-fairy");
    assert_eq!(run0["tool"]["driver"]["rules"][0]["id"], "no-eval");
    let result = &run0["results"][0];
    assert_eq!(result["level"], "error");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "src/api.ts");
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(location["region"]["startLine"], 2);
    assert_eq!(location["region"]["startColumn"], 18);
    let check = run(&p, &["check", "--format", "sarif"]);
    assert_eq!(code(&check), 1);
    let log = assert_valid_sarif(&stdout(&check));
    // Each finding's code is its rule, listed with what it means.
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "rule/split-braces");
    let rules = &log["runs"][0]["tool"]["driver"]["rules"];
    let index = result["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(rules[index]["id"], "rule/split-braces");
    assert!(rules[index]["shortDescription"]["text"]
        .as_str()
        .unwrap()
        .contains("brace group"));
}

#[test]
fn json_stays_an_alias_and_a_bad_format_is_a_usage_error() {
    let p = violating();
    let alias = stdout(&run(&p, &["gate", "check", "src/api.ts", "--json"]));
    let format = stdout(&run(
        &p,
        &["gate", "check", "src/api.ts", "--format", "json"],
    ));
    assert_eq!(alias, format);
    let finding: Value = serde_json::from_str(alias.lines().next().unwrap()).unwrap();
    assert_eq!(finding["ruleId"], "no-eval");
    let bad = run(&p, &["check", "--format", "xml"]);
    assert_eq!(code(&bad), 2);
    assert!(stderr(&bad).contains("invalid value 'xml' for '--format <FORMAT>'"));
    let both = run(&p, &["gate", "scan", "--json", "--format", "sarif"]);
    assert_eq!(code(&both), 2);
}

const SUBCOMMANDS: &[&str] = &[
    "explain",
    "check",
    "status",
    "doctor",
    "codex",
    "review",
    "review-plan",
    "gate",
    "test",
    "completions",
    "man",
];

#[test]
fn each_shell_gets_a_completion_script_naming_the_subcommands() {
    let p = Project::new();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = run(&p, &["completions", shell]);
        assert_eq!(code(&out), 0, "{shell}");
        let script = stdout(&out);
        for name in SUBCOMMANDS {
            assert!(script.contains(name), "{shell} lacks {name}");
        }
    }
    assert_eq!(code(&run(&p, &["completions", "tcsh"])), 2);
}

#[test]
fn the_man_page_names_every_subcommand() {
    let p = Project::new();
    let page = stdout(&run(&p, &["man"]));
    assert!(
        page.starts_with(".ie \\n(.g .ds Aq") || page.contains(".TH rule-fairy"),
        "{page}"
    );
    for name in SUBCOMMANDS {
        assert!(
            page.contains(&format!("\\fBrule-fairy {name}\\fR")),
            "{name}"
        );
    }
    for name in ["gate scan", "gate check", "gate test"] {
        assert!(
            page.contains(&format!("\\fBrule-fairy {name}\\fR")),
            "{name}"
        );
    }
}

#[test]
fn every_finding_code_is_listed_in_the_docs_and_in_sarif() {
    let docs = std::fs::read_to_string(repo_root().join("docs/commands.md")).unwrap();
    for code in rule_fairy_engine::Code::ALL {
        assert!(
            docs.contains(&format!("| `{}` | {} |", code.name(), code.description())),
            "docs/commands.md does not list {}",
            code.name()
        );
    }
    let log = assert_valid_sarif(&stdout(&run(&violating(), &["check", "--format", "sarif"])));
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert_eq!(rules.len(), rule_fairy_engine::Code::ALL.len());
}
