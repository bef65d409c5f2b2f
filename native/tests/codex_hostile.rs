//! The Codex hooks and the review against a hostile checkout and hostile
//! input (behaviour §5.1, §5.3): state and review directories that are
//! links, transcripts that are FIFOs, a lock that is never released, a
//! reader that went away, counters no hook wrote. Nothing is written or
//! deleted outside the project, no hook hangs, no delivery is recorded
//! that was not printed, and Codex's one-JSON-object contract holds.

use std::fs;
use std::os::unix::fs::symlink;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::util::codex::*;
use crate::util::*;

fn base_project() -> Project {
    let p = project();
    p.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    p
}

/// The hook's warning to the person.
fn system_message(out: &std::process::Output) -> String {
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    value["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Every file below `dir`, relative, sorted (links listed, not followed).
fn listing(dir: &std::path::Path) -> Vec<String> {
    fn walk(base: &std::path::Path, dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            out.push(path.strip_prefix(base).unwrap().display().to_string());
            if entry.file_type().unwrap().is_dir() {
                walk(base, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// A directory outside the project holding old `.json` files, one of them
/// nested, as the cleanup used to find them through a link.
fn outside_with_old_files(p: &Project) -> std::path::PathBuf {
    let outside = p.beside("outside");
    fs::create_dir_all(outside.join("deep")).unwrap();
    for rel in ["keep.json", "deep/old.json", "notes.txt"] {
        let file = outside.join(rel);
        fs::write(&file, "{}").unwrap();
        age(&file, Duration::from_secs(5 * 60 * 60));
    }
    outside
}

#[test]
fn a_linked_state_directory_is_refused_delivers_unrecorded_and_writes_nothing_outside() {
    for linked in [
        ".rule-fairy/codex",
        ".rule-fairy",
        ".rule-fairy/codex/locks",
    ] {
        let p = base_project();
        let outside = outside_with_old_files(&p);
        let before = listing(&outside);
        if linked == ".rule-fairy/codex/locks" {
            p.dir(".rule-fairy/codex");
        } else if linked == ".rule-fairy/codex" {
            p.dir(".rule-fairy");
        }
        symlink(&outside, p.path(linked)).unwrap();
        for _ in 0..2 {
            let out = p.hook("prompt", &prompt_input("s1", "hi", None));
            let context = codex_accepts(PROMPT, &out).unwrap();
            // Delivered each time, since nothing could be recorded.
            assert_eq!(injected(&context), vec!["base.mdc"], "{linked}");
            let warning = system_message(&out);
            assert!(
                warning.contains(&format!("{linked} is a symbolic link")),
                "{linked}: {warning}"
            );
            assert!(
                warning.contains("delivered without recording"),
                "{linked}: {warning}"
            );
        }
        // A session start after a compaction, too.
        let out = p.hook("session-start", &session_start_input("s1", "compact", None));
        assert_eq!(
            injected(&codex_accepts(SESSION_START, &out).unwrap()),
            vec!["base.mdc"]
        );
        assert_eq!(listing(&outside), before, "{linked}");
    }
}

#[test]
fn the_cleanup_removes_only_old_session_files_in_its_own_directory() {
    let p = base_project();
    let dir = p.state_dir();
    fs::create_dir_all(dir.join("nested")).unwrap();
    let outside = outside_with_old_files(&p);
    symlink(&outside, dir.join("elsewhere")).unwrap();
    let old = |rel: &str| {
        let file = dir.join(rel);
        fs::write(&file, "{}").unwrap();
        age(&file, Duration::from_secs(5 * 60 * 60));
        file
    };
    let gone = [old("old-session.json"), old("s9.json.1-2-3.tmp")];
    let kept = [
        old("nested/old.json"),
        old("backup.json.bak"),
        old("my notes.json"),
        old("s9.json.tmp"),
    ];
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", None))).unwrap();
    for file in &gone {
        assert!(!file.exists(), "{}", file.display());
    }
    for file in &kept {
        assert!(file.exists(), "{}", file.display());
    }
    assert_eq!(
        listing(&outside),
        vec!["deep", "deep/old.json", "keep.json", "notes.txt"]
    );
}

#[test]
fn a_session_file_that_is_a_link_or_a_fifo_is_not_read() {
    let p = base_project();
    let secret = p.beside("elsewhere").join("secret.json");
    fs::write(
        &secret,
        r#"{"injected":{"base.mdc":{"size":1,"compaction_count":0}}}"#,
    )
    .unwrap();
    fs::create_dir_all(p.state_dir()).unwrap();
    symlink(&secret, p.state_dir().join("s1.json")).unwrap();
    mkfifo(&p.state_dir().join("s2.json"));
    for session in ["s1", "s2"] {
        let child = p.rule_fairy().args(["codex", "prompt"]).spawn();
        let mut child = child;
        feed(
            &mut child,
            prompt_input(session, "hi", None).to_string().as_bytes(),
        );
        let out = within(
            child,
            Duration::from_secs(20),
            "a hook over a FIFO state file",
        );
        // Read as a fresh session: the link's target is not trusted.
        assert_eq!(
            injected(&codex_accepts(PROMPT, &out).unwrap()),
            vec!["base.mdc"],
            "{session}"
        );
        assert!(
            stderr(&out).contains("starting this session's record afresh"),
            "{}",
            stderr(&out)
        );
    }
    assert!(fs::read_to_string(&secret).unwrap().contains("\"size\":1"));
}

#[test]
fn a_fifo_or_a_device_as_the_transcript_returns_at_once_and_frees_the_lock() {
    let p = base_project();
    let fifo = p.root().join("rollout.fifo");
    mkfifo(&fifo);
    for transcript in [fifo.as_path(), std::path::Path::new("/dev/zero")] {
        let session = if transcript == fifo { "s1" } else { "s2" };
        let mut child = p.rule_fairy().args(["codex", "prompt"]).spawn();
        feed(
            &mut child,
            prompt_input(session, "hi", Some(transcript))
                .to_string()
                .as_bytes(),
        );
        let out = within(
            child,
            Duration::from_secs(20),
            "a hook with a FIFO transcript",
        );
        assert_eq!(
            injected(&codex_accepts(PROMPT, &out).unwrap()),
            vec!["base.mdc"]
        );
        assert!(
            stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
        // Recorded, and the lock is free: the next hook sends nothing.
        let mut next = p.rule_fairy().args(["codex", "prompt"]).spawn();
        feed(
            &mut next,
            prompt_input(session, "hi", Some(transcript))
                .to_string()
                .as_bytes(),
        );
        let next = within(next, Duration::from_secs(20), "the next hook");
        assert_eq!(codex_accepts(PROMPT, &next), None);
    }
}

#[test]
fn a_lock_that_is_never_released_holds_the_next_hook_only_for_its_bound() {
    let p = base_project();
    // The first hook makes the directory, the lock file and the record.
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s0", "hi", None))).unwrap();
    let lock = p.state_dir().join("locks/s1.lock");
    // A holder that never lets go, as a stopped hook would.
    let holder = fs::File::create(&lock).unwrap();
    holder.lock().unwrap();
    let started = Instant::now();
    let mut child = p.rule_fairy().args(["codex", "prompt"]).spawn();
    feed(
        &mut child,
        prompt_input("s1", "hi", None).to_string().as_bytes(),
    );
    let out = within(child, Duration::from_secs(40), "a hook behind a held lock");
    let waited = started.elapsed();
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
    let warning = system_message(&out);
    assert!(
        warning.contains("s1.lock: the session's lock was not free within 10.0 s"),
        "{warning}"
    );
    assert!(warning.contains("delivered without recording"), "{warning}");
    assert!(!p.state_dir().join("s1.json").exists());
    eprintln!("a hook behind a held lock returned after {waited:?}");
    drop(holder);
    // Free again: delivered once more (it was never recorded), then held.
    let out = p.hook("prompt", &prompt_input("s1", "hi", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
    assert_eq!(
        codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s1", "hi", None))),
        None
    );
}

#[test]
fn a_stopped_hook_holding_the_lock_does_not_block_the_next_past_its_bound() {
    let p = base_project();
    // A transcript long enough that a hook holds the lock for a while
    // reading it, so it can be stopped (SIGSTOP) while it holds it.
    let transcript = p.beside("codex").join("rollout.jsonl");
    let line = format!("{EVENT_LINE}\n");
    fs::write(&transcript, line.repeat(48 * 1024 * 1024 / line.len())).unwrap();
    codex_accepts(PROMPT, &p.hook("prompt", &prompt_input("s0", "hi", None))).unwrap();
    let lock = p.state_dir().join("locks/s1.lock");
    let signal = |what: &str, pid: u32| {
        std::process::Command::new("kill")
            .args([what, &pid.to_string()])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap()
    };
    let input = prompt_input("s1", "hi", Some(&transcript)).to_string();
    let mut stopped = None;
    for _ in 0..20 {
        let _ = fs::remove_file(p.state_dir().join("s1.json"));
        let mut child = p.rule_fairy().args(["codex", "prompt"]).spawn();
        feed(&mut child, input.as_bytes());
        let probe = fs::File::options()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock)
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut held = false;
        while Instant::now() < deadline && child.try_wait().unwrap().is_none() {
            if matches!(probe.try_lock(), Err(fs::TryLockError::WouldBlock)) {
                signal("-STOP", child.id());
                held = matches!(probe.try_lock(), Err(fs::TryLockError::WouldBlock));
                break;
            }
            let _ = probe.unlock();
        }
        let _ = probe.unlock();
        if held {
            stopped = Some(child);
            break;
        }
        signal("-CONT", child.id());
        let _ = child.wait_with_output();
    }
    let stopped = stopped.expect("a hook stopped while it holds the lock");
    let started = Instant::now();
    let mut child = p.rule_fairy().args(["codex", "prompt"]).spawn();
    feed(
        &mut child,
        prompt_input("s1", "hi", None).to_string().as_bytes(),
    );
    let out = within(
        child,
        Duration::from_secs(40),
        "a hook behind a stopped one",
    );
    eprintln!(
        "a hook behind a stopped holder returned after {:?}",
        started.elapsed()
    );
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
    let warning = system_message(&out);
    assert!(warning.contains("was not free within"), "{warning}");
    signal("-CONT", stopped.id());
    let resumed = within(stopped, Duration::from_secs(60), "the resumed hook");
    assert_eq!(
        injected(&codex_accepts(PROMPT, &resumed).unwrap()),
        vec!["base.mdc"]
    );
    assert!(p.state("s1")["injected"]["base.mdc"].is_object());
}

#[test]
fn a_reader_that_went_away_is_no_panic_and_no_record() {
    let p = base_project();
    for (hook, input) in [
        ("prompt", prompt_input("s1", "hi", None)),
        ("session-start", session_start_input("s1", "compact", None)),
    ] {
        let out = p
            .rule_fairy()
            .args(["codex", hook])
            .closed_stdout()
            .stdin(input.to_string())
            .output();
        assert_eq!(out.status.code(), Some(0), "{hook}: {}", stderr(&out));
        let note = stderr(&out);
        assert!(!note.contains("panicked"), "{note}");
        assert!(note.contains("cannot write the hook's output"), "{note}");
        assert!(note.contains("nothing was recorded"), "{note}");
    }
    // Nothing recorded: the next hook with a reader delivers the rule.
    let out = p.hook("prompt", &prompt_input("s1", "hi", None));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
}

#[test]
fn every_command_survives_a_closed_standard_output() {
    let p = base_project();
    for args in [
        &["check"][..],
        &["check", "--json"],
        &["explain", "--prompt", "hi"],
        &["explain", "--prompt", "hi", "--json"],
        &["explain", "--prompt", "hi", "--render"],
    ] {
        let out = p.rule_fairy().args(args).closed_stdout().output();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("panicked"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn counters_no_hook_could_write_are_reset_not_trusted() {
    let p = base_project();
    let transcript = p.root().join("rollout.jsonl");
    append(&transcript, COMPACTED);
    fs::create_dir_all(p.state_dir()).unwrap();
    let max = u64::MAX;
    fs::write(
        p.state_dir().join("s1.json"),
        json!({"injected": {"base.mdc": {"size": 10, "compaction_count": max}},
               "transcript_scan": {"scanned_bytes": 0, "compaction_count": max},
               "announced_compactions": max})
        .to_string(),
    )
    .unwrap();
    let out = p.hook("prompt", &prompt_input("s1", "hi", Some(&transcript)));
    assert_eq!(
        injected(&codex_accepts(PROMPT, &out).unwrap()),
        vec!["base.mdc"]
    );
    assert!(
        stderr(&out).contains("counters that no hook could have written"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        p.state("s1")["transcript_scan"]["compaction_count"],
        json!(1)
    );
    // Without a transcript, an announced count at the top saturates.
    fs::write(
        p.state_dir().join("s2.json"),
        json!({"announced_compactions": 4_294_967_296_u64}).to_string(),
    )
    .unwrap();
    let out = p.hook("session-start", &session_start_input("s2", "compact", None));
    assert_eq!(
        injected(&codex_accepts(SESSION_START, &out).unwrap()),
        vec!["base.mdc"]
    );
    assert_eq!(
        p.state("s2")["announced_compactions"],
        json!(4_294_967_297_u64)
    );
}

#[test]
fn a_linked_review_directory_is_refused_and_its_target_survives() {
    let repo = Project::new();
    repo.init_git();
    repo.rule("base.mdc", "---\nalwaysApply: true\n---\n# Base");
    repo.commit_all("start");
    repo.write("a.txt", "changed\n");
    let outside = repo.beside("kept");
    fs::create_dir_all(outside.join("diff")).unwrap();
    fs::write(outside.join("diff/patch.diff"), "mine").unwrap();
    fs::write(outside.join("diff/notes.txt"), "mine").unwrap();
    repo.dir(".rule-fairy");
    symlink(&outside, repo.path(".rule-fairy/review")).unwrap();
    for args in [
        &["review", "fetch", "--local"][..],
        &["review", "clean"],
        &["review", "bundle"],
        &["review-plan", "clean"],
    ] {
        let out = repo.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stdout(&out));
        assert!(
            stderr(&out).contains(".rule-fairy/review is a symbolic link"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert_eq!(
        fs::read_to_string(outside.join("diff/patch.diff")).unwrap(),
        "mine"
    );
    assert_eq!(
        fs::read_to_string(outside.join("diff/notes.txt")).unwrap(),
        "mine"
    );
    assert_eq!(
        listing(&outside),
        vec!["diff", "diff/notes.txt", "diff/patch.diff"]
    );
    // A link in place of an artifact is replaced by nothing of its target's.
    fs::remove_file(repo.path(".rule-fairy/review")).unwrap();
    repo.dir(".rule-fairy/review/diff");
    let target = repo.beside("home").join("bashrc");
    fs::write(&target, "mine").unwrap();
    symlink(&target, repo.path(".rule-fairy/review/diff/meta.json")).unwrap();
    let out = repo.run(&["review", "fetch", "--local"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
    assert!(
        fs::symlink_metadata(repo.path(".rule-fairy/review/diff/meta.json"))
            .unwrap()
            .is_file()
    );
}
