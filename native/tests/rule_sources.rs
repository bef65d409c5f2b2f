//! Rule sources stay inside the project (behaviour §1.1, §1.2): a rule
//! file or rules directory linking outside it is named and never read, a
//! configured directory outside it is an error at its line, and only
//! regular files are read as rules.

use std::process::Command;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use crate::util::codex::*;
use crate::util::*;

const KEY: &str = "-----BEGIN OPENSSH PRIVATE KEY-----";

/// A project whose `.claude/rules/team.md`, `.clinerules` and
/// `.opencode/rules/notes` link to a private key and a folder beside it.
fn linked_outside() -> Project {
    let p = project();
    let home = p.beside("home");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), KEY).unwrap();
    std::fs::create_dir_all(home.join("notes")).unwrap();
    std::fs::write(home.join("notes/n.md"), "# Private notes").unwrap();
    p.write("rule-fairy.edn", "{:formats [:claude :cline :opencode]}")
        .write(".claude/rules/ok.md", "# Ok rule")
        .link(".claude/rules/team.md", home.join(".ssh/id_rsa"))
        .link(".clinerules", "../home/.ssh/id_rsa")
        .link(".opencode/rules/notes", home.join("notes"));
    p
}

#[test]
fn a_rule_linked_outside_the_project_is_never_delivered() {
    // issue 20: the key's text was the first prompt's always-on rule.
    let p = linked_outside();
    let out = p.hook("prompt", &prompt_input("s1", "hello", None));
    let context = codex_accepts(PROMPT, &out).unwrap();
    assert!(!context.contains(KEY), "{context}");
    assert!(!context.contains("Private notes"), "{context}");
    assert_eq!(injected(&context), vec!["ok.md"]);
}

#[test]
fn check_names_each_rule_source_that_links_outside() {
    let p = linked_outside();
    let out = p.run(&["check", "--format", "short"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(!text.contains(KEY));
    for line in [
        ".claude/rules/team.md: error: Links outside the project, so it is not read as a rule",
        ".clinerules: error: Links outside the project, so it is not read as a rule",
        ".opencode/rules/notes: error: Links outside the project, so no rule below it is read",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
}

#[test]
fn links_inside_the_project_keep_working() {
    let p = project();
    p.write("rule-fairy.edn", "{:formats [:claude]}")
        .write(
            "docs/shared/team.md",
            "---\nalwaysApply: true\n---\n# Team rule",
        )
        .link(".claude/rules/shared", "../../docs/shared")
        .link(".cursor/rules/base.mdc", "../../docs/shared/team.md");
    let out = p.hook("prompt", &prompt_input("s1", "hello", None));
    let context = codex_accepts(PROMPT, &out).unwrap();
    assert_eq!(injected(&context), vec!["base.mdc", "shared/team.md"]);
    assert!(p.run(&["check", "--format", "short"]).status.success());
}

#[test]
fn a_configured_rules_directory_outside_the_project_is_an_error_at_its_line() {
    for dir in ["/", "../shared", "/etc"] {
        let p = project();
        p.write(
            "rule-fairy.edn",
            format!("{{:rules\n {{:dirs [\".cursor/rules\"\n         \"{dir}\"]}}}}"),
        );
        let message =
            format!(":rules :dirs in rule-fairy.edn names a directory outside the project: {dir}");
        let check = p.run(&["check", "--format", "short"]);
        assert_eq!(check.status.code(), Some(1));
        assert!(
            stdout(&check).contains(&format!("rule-fairy.edn:3: error: {message}")),
            "{}",
            stdout(&check)
        );
        let out = p.hook("prompt", &prompt_input("s1", "hello", None));
        let context = codex_accepts(PROMPT, &out).unwrap();
        assert!(context.contains(&message), "{context}");
    }
}

#[test]
fn a_fifo_among_the_rules_is_named_and_never_opened() {
    let p = project();
    p.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    let made = Command::new("mkfifo")
        .arg(p.path(".cursor/rules/pipe.mdc"))
        .status()
        .unwrap();
    assert!(made.success());
    // Opening the FIFO for reading would wait for a writer forever.
    let (done, finished) = mpsc::channel();
    let root = p.path("");
    thread::spawn(move || {
        let out = Command::new(BIN)
            .args(["check"])
            .current_dir(root)
            .output()
            .unwrap();
        done.send(out).unwrap();
    });
    let check = finished
        .recv_timeout(Duration::from_secs(10))
        .expect("check returns within 10 s");
    assert_eq!(check.status.code(), Some(1));
    assert!(
        stdout(&check).contains("error[rule/unreadable]: Not a regular file")
            && stdout(&check).contains("--> .cursor/rules/pipe.mdc\n"),
        "{}",
        stdout(&check)
    );
    let out = p.hook("prompt", &prompt_input("s1", "hello", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
}
