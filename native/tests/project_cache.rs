//! The compiled project cache (behaviour §5.1, "Rule changes"): a run
//! whose rules did not change uses it and leaves it as it was; an edit, an
//! added or a deleted rule is seen at the next run, even one that keeps
//! the file's size and modification time; a cache that cannot be used is
//! passed over silently; hooks racing to build it all answer right.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::thread::sleep;
use std::time::Duration;

use crate::util::codex::*;
use crate::util::*;

const CACHE: &str = ".rule-fairy/cache/project.bin";

/// A project whose rule files were written a while ago: the clock has
/// moved on past their stamps, so the cache trusts them.
fn settled() -> Project {
    let p = project();
    p.rule("a.mdc", "---\nalwaysApply: true\n---\n# Alpha")
        .rule("k.mdc", "---\nkeywords: [deploy]\n---\n# Deploy");
    sleep(Duration::from_millis(50));
    p
}

/// The rules a prompt selects, as `explain --json` names them; standard
/// error must stay empty.
fn selected(p: &Project, prompt: &str) -> Vec<String> {
    let out = p.run(&["explain", "--prompt", prompt, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["name"].as_str().unwrap().to_string())
        .collect()
}

/// The text Codex would be given for a prompt.
fn delivered(p: &Project, prompt: &str) -> String {
    p.ok(&["explain", "--prompt", prompt, "--render=codex"])
}

/// The cache file's inode and change time: a run that used it leaves both.
fn identity(p: &Project) -> (u64, i64, i64) {
    let meta = fs::metadata(p.path(CACHE)).unwrap();
    (meta.ino(), meta.ctime(), meta.ctime_nsec())
}

fn cache_bytes(p: &Project) -> Vec<u8> {
    fs::read(p.path(CACHE)).unwrap()
}

#[test]
fn an_unchanged_project_is_read_from_the_cache_and_leaves_it_as_it_was() {
    let p = settled();
    assert_eq!(selected(&p, "deploy it"), ["a.mdc", "k.mdc"]);
    assert!(p.exists(CACHE));
    assert_eq!(p.read(".rule-fairy/cache/.gitignore"), "*\n");
    let before = identity(&p);
    assert_eq!(selected(&p, "deploy it"), ["a.mdc", "k.mdc"]);
    assert_eq!(selected(&p, "hello"), ["a.mdc"]);
    assert_eq!(
        identity(&p),
        before,
        "a run with no change rewrote the cache"
    );
    assert!(!p.exists(".rule-fairy/cache/project.bin.tmp"));
}

#[test]
fn an_edit_keeping_the_size_and_the_modification_time_is_delivered_as_edited() {
    let p = settled();
    assert!(delivered(&p, "hello").contains("# Alpha"));
    assert!(delivered(&p, "hello").contains("# Alpha"), "from the cache");
    let rule = p.path(".cursor/rules/a.mdc");
    let modified = fs::metadata(&rule).unwrap().modified().unwrap();
    fs::write(&rule, "---\nalwaysApply: true\n---\n# Omega").unwrap();
    fs::File::options()
        .write(true)
        .open(&rule)
        .unwrap()
        .set_times(fs::FileTimes::new().set_modified(modified))
        .unwrap();
    assert_eq!(fs::metadata(&rule).unwrap().modified().unwrap(), modified);
    let text = delivered(&p, "hello");
    assert!(
        text.contains("# Omega") && !text.contains("# Alpha"),
        "{text}"
    );
}

#[test]
fn an_edit_right_after_the_cache_was_written_is_seen() {
    // No pause: the edit falls within the clock's tick of the cache's own
    // write, where size and time alone could not tell.
    let p = project();
    p.rule("a.mdc", "---\nalwaysApply: true\n---\n# Alpha");
    for word in ["Bravo", "Gamma", "Delta"] {
        assert!(p.exists(".cursor/rules/a.mdc"));
        delivered(&p, "hello");
        p.rule("a.mdc", format!("---\nalwaysApply: true\n---\n# {word}"));
        let text = delivered(&p, "hello");
        assert!(text.contains(&format!("# {word}")), "{text}");
    }
}

#[test]
fn an_added_or_a_deleted_rule_file_is_noticed() {
    let p = settled();
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
    p.rule("nested/b.mdc", "---\nkeywords: [deploy]\n---\n# B");
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc", "nested/b.mdc"]);
    p.remove(".cursor/rules/k.mdc");
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "nested/b.mdc"]);
    p.write("rule-fairy.edn", "{:rules {:dirs [\"other\"]}}")
        .rule("../../other/o.mdc", "---\nalwaysApply: true\n---\n# O");
    assert_eq!(selected(&p, "deploy"), ["o.mdc"]);
}

#[test]
fn a_nested_rules_folder_added_later_is_found() {
    let p = git_project();
    p.rule("a.mdc", "---\nalwaysApply: true\n---\n# Alpha");
    sleep(Duration::from_millis(50));
    let edit = ["explain", "--path", "packages/web/x.ts", "--json"];
    let names = |p: &Project| p.json(&edit)["rules"].to_string();
    assert!(!names(&p).contains("ui.mdc"));
    assert!(!names(&p).contains("ui.mdc"));
    p.write(
        "packages/web/.cursor/rules/ui.mdc",
        "---\nalwaysApply: true\n---\n# UI",
    );
    assert!(names(&p).contains("ui.mdc"), "{}", names(&p));
}

/// Runs with a cache spoilt by `spoil`, then expects the right answer,
/// nothing on standard error, and a good cache again where one can be
/// written.
fn survives(spoil: impl Fn(&Project, &[u8]), rewritten: bool) {
    let p = settled();
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
    let good = cache_bytes(&p);
    spoil(&p, &good);
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
    assert!(delivered(&p, "hello").contains("# Alpha"));
    if rewritten {
        // Written again, whole: the next run uses it and leaves it as it
        // is. (Its length may differ by a byte or two from the first one:
        // its times are encoded as variable-length integers.)
        assert_eq!(
            cache_bytes(&p)[..8],
            good[..8],
            "the cache was written again"
        );
        let before = identity(&p);
        assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
        assert_eq!(identity(&p), before, "the cache written again is used");
    }
}

#[test]
fn a_truncated_cache_is_rebuilt() {
    survives(
        |p, good| fs::write(p.path(CACHE), &good[..good.len() / 2]).unwrap(),
        true,
    );
}

#[test]
fn a_foreign_or_empty_cache_is_rebuilt() {
    survives(
        |p, _| fs::write(p.path(CACHE), "not a cache").unwrap(),
        true,
    );
    survives(|p, _| fs::write(p.path(CACHE), "").unwrap(), true);
}

#[test]
fn a_cache_of_another_version_is_not_trusted() {
    let version = env!("CARGO_PKG_VERSION").as_bytes();
    survives(
        |p, good| {
            let at = good
                .windows(version.len())
                .position(|w| w == version)
                .expect("the version is in the cache");
            let mut other = good.to_vec();
            other[at] = if other[at] == b'9' { b'8' } else { b'9' };
            fs::write(p.path(CACHE), other).unwrap();
        },
        true,
    );
}

#[test]
fn a_hand_edited_cache_is_not_trusted() {
    // Every byte flipped in turn would be slow; a spread of them, each
    // a fresh project, covers the header, the key and the rules.
    let p = settled();
    selected(&p, "deploy");
    let good = cache_bytes(&p);
    // A rule's name, which still decodes when edited, among them.
    let name = good.windows(5).position(|w| w == b"k.mdc").unwrap();
    let spread = (8..good.len()).step_by(good.len() / 12 + 1);
    for at in spread.chain([name + 3]) {
        let mut edited = good.clone();
        edited[at] ^= 0x5a;
        fs::write(p.path(CACHE), &edited).unwrap();
        assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"], "byte {at}");
    }
    // A rule's text changed in the cache alone: the cache is still this
    // project's, so what it says is used only while its key holds, and a
    // change of the rule file replaces it.
    let at = good.windows(7).position(|w| w == b"# Alpha").unwrap();
    let mut forged = good.clone();
    forged[at + 2..at + 7].copy_from_slice(b"Forge");
    fs::write(p.path(CACHE), &forged).unwrap();
    p.rule("a.mdc", "---\nalwaysApply: true\n---\n# Alpha!");
    let text = delivered(&p, "hello");
    assert!(
        text.contains("# Alpha!") && !text.contains("Forge"),
        "{text}"
    );
}

#[test]
fn a_cache_that_is_a_directory_a_fifo_or_a_link_is_passed_over() {
    survives(
        |p, _| {
            fs::remove_file(p.path(CACHE)).unwrap();
            fs::create_dir(p.path(CACHE)).unwrap();
            fs::write(p.path(CACHE).join("x"), "x").unwrap();
        },
        false,
    );
    survives(
        |p, _| {
            fs::remove_file(p.path(CACHE)).unwrap();
            mkfifo(&p.path(CACHE));
        },
        true,
    );
    // A link to a good cache elsewhere is never followed; the link itself
    // is replaced, and what it named is left alone.
    let outside: PathBuf = tempfile::tempdir().unwrap().keep().join("elsewhere.bin");
    let target = outside.clone();
    survives(
        move |p, good| {
            fs::write(&target, good).unwrap();
            fs::remove_file(p.path(CACHE)).unwrap();
            std::os::unix::fs::symlink(&target, p.path(CACHE)).unwrap();
        },
        true,
    );
    assert!(fs::metadata(&outside).unwrap().is_file());
}

#[test]
fn a_linked_cache_directory_is_never_written_through() {
    let p = settled();
    let outside = tempfile::tempdir().unwrap();
    fs::create_dir_all(p.path(".rule-fairy")).unwrap();
    std::os::unix::fs::symlink(outside.path(), p.path(".rule-fairy/cache")).unwrap();
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
    assert_eq!(fs::read_dir(outside.path()).unwrap().count(), 0);
}

#[test]
fn a_temporary_file_left_by_a_hook_that_died_stops_no_one() {
    let p = settled();
    p.write(".rule-fairy/cache/project.bin.tmp", "half");
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
    // Fresh, it is another hook's: left alone, no cache written.
    assert!(!p.exists(CACHE));
    age(
        &p.path(".rule-fairy/cache/project.bin.tmp"),
        Duration::from_secs(3600),
    );
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
    assert_eq!(selected(&p, "deploy"), ["a.mdc", "k.mdc"]);
    assert!(p.exists(CACHE));
}

#[test]
fn sixteen_hooks_racing_to_build_the_cache_all_answer_right() {
    let p = settled();
    let children: Vec<_> = (0..16)
        .map(|i| {
            let input = prompt_input(&format!("race-{i}"), "deploy it", None);
            let mut child = p.rule_fairy().args(["codex", "prompt"]).spawn();
            feed(&mut child, input.to_string().as_bytes());
            child
        })
        .collect();
    for child in children {
        let out = within(child, Duration::from_secs(60), "a racing hook");
        assert_eq!(stderr(&out), "");
        let context = codex_accepts(PROMPT, &out).expect("a delivery");
        assert_eq!(injected(&context), ["a.mdc", "k.mdc"]);
    }
    assert!(p.exists(CACHE));
    assert!(!p.exists(".rule-fairy/cache/project.bin.tmp"));
    let before = identity(&p);
    let out = p.hook("prompt", &prompt_input("after", "deploy it", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        ["a.mdc", "k.mdc"]
    );
    assert_eq!(identity(&p), before);
}
