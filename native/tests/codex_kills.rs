//! Sixteen hooks of one session at once, some killed with SIGKILL at
//! random points, round after round (behaviour §5.1, "Lock" and
//! "Recording"). After each round a hook must find the state readable and
//! the lock free, every delivery a hook finished must be recorded, and no
//! rule may be recorded that no hook printed. `RULE_FAIRY_KILL_ROUNDS`
//! sets the rounds (12 by default, a few seconds; a long run takes
//! hundreds).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use crate::util::codex::*;
use crate::util::*;

const HOOKS: usize = 16;

/// A small generator of its own (xorshift), seeded from the clock; the
/// seed is printed so a failing run can be told apart.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// What one hook did.
struct Run {
    killed: bool,
    exited: bool,
    printed: Vec<String>,
    lock_timeout: bool,
}

fn rule_of(i: usize) -> String {
    format!("r{i:02}.mdc")
}

#[test]
fn hooks_killed_at_random_lose_no_record_and_record_nothing_unprinted() {
    let rounds: usize = std::env::var("RULE_FAIRY_KILL_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let mut random = Random(seed);
    let p = project();
    for i in 0..HOOKS {
        p.rule(
            &rule_of(i),
            format!("---\nglobs: src/m{i:02}/**\n---\n# Rule {i}"),
        );
    }
    p.rule("shared.mdc", "---\nglobs: src/**\n---\n# Shared");
    let mut all: Vec<String> = (0..HOOKS).map(rule_of).collect();
    all.push("shared.mdc".to_string());
    let (mut hooks, mut kills, mut lock_timeouts, mut lost, mut unprinted, mut repeats) =
        (0, 0, 0, 0, 0, 0);
    let started = Instant::now();
    for round in 0..rounds {
        let session = format!("k{round}");
        // Start all before feeding any, so they race for the lock.
        let children: Vec<_> = (0..HOOKS)
            .map(|i| {
                let kill_after = random
                    .next()
                    .is_multiple_of(2)
                    .then(|| Duration::from_micros(random.next() % 60_000));
                let input = patch_input(
                    &session,
                    &add_file_patch(&format!("src/m{i:02}/a.ts")),
                    None,
                )
                .to_string();
                (
                    p.rule_fairy().args(["codex", "post-tool"]).spawn(),
                    input,
                    kill_after,
                )
            })
            .collect();
        let handles: Vec<_> = children
            .into_iter()
            .map(|(mut child, input, kill_after)| {
                thread::spawn(move || {
                    // A hook killed before it read its input closes the pipe.
                    if let Some(mut pipe) = child.stdin.take() {
                        use std::io::Write;
                        let _ = pipe.write_all(input.as_bytes());
                    }
                    let killed = kill_after.is_some_and(|after| {
                        thread::sleep(after);
                        child.kill().is_ok()
                    });
                    let out = child.wait_with_output().unwrap();
                    (killed, out)
                })
            })
            .collect();
        let mut runs = Vec::new();
        for handle in handles {
            let (killed, out) = handle.join().unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            // What reached standard output as one whole JSON object.
            let printed = serde_json::from_str::<Value>(text.trim())
                .ok()
                .and_then(|v| {
                    v["hookSpecificOutput"]["additionalContext"]
                        .as_str()
                        .map(injected)
                })
                .unwrap_or_default();
            let exited = out.status.code().is_some();
            if exited {
                codex_accepts(POST_TOOL, &out);
            }
            runs.push(Run {
                killed: killed && !exited,
                exited,
                printed,
                lock_timeout: stderr(&out).contains("was not free within"),
            });
        }
        hooks += runs.len();
        kills += runs.iter().filter(|r| r.killed).count();
        lock_timeouts += runs.iter().filter(|r| r.lock_timeout).count();
        let printed: BTreeSet<&String> = runs.iter().flat_map(|r| &r.printed).collect();
        let finished: BTreeSet<&String> = runs
            .iter()
            .filter(|r| r.exited)
            .flat_map(|r| &r.printed)
            .collect();
        let mut times: BTreeMap<&String, usize> = BTreeMap::new();
        for rule in runs.iter().flat_map(|r| &r.printed) {
            *times.entry(rule).or_default() += 1;
        }
        repeats += times
            .values()
            .filter(|&&n| n > 1)
            .map(|n| n - 1)
            .sum::<usize>();
        // Then a hook of the same session, touching every path: it finds
        // the state readable and the lock free, and delivers exactly what
        // is not recorded.
        let state_file = p.state_dir().join(format!("{session}.json"));
        let recorded: BTreeSet<String> = match fs::read_to_string(&state_file) {
            Ok(text) => {
                let state: Value = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("round {round}: the state is unreadable ({e})"));
                state["injected"]
                    .as_object()
                    .unwrap()
                    .keys()
                    .cloned()
                    .collect()
            }
            Err(_) => BTreeSet::new(),
        };
        lost += finished.iter().filter(|r| !recorded.contains(**r)).count();
        unprinted += recorded.iter().filter(|r| !printed.contains(r)).count();
        let lock = p.state_dir().join(format!("locks/{session}.lock"));
        if let Ok(file) = fs::File::options().write(true).open(&lock) {
            assert!(file.try_lock().is_ok(), "round {round}: the lock is held");
        }
        let patch: String = (0..HOOKS)
            .map(|i| format!("*** Add File: src/m{i:02}/b.ts\n+x\n"))
            .collect();
        let patch = format!("*** Begin Patch\n{patch}*** End Patch\n");
        let mut check = p.rule_fairy().args(["codex", "post-tool"]).spawn();
        feed(
            &mut check,
            patch_input(&session, &patch, None).to_string().as_bytes(),
        );
        let out = within(check, Duration::from_secs(30), "the hook after a round");
        let note = stderr(&out);
        assert!(!note.contains("afresh"), "round {round}: {note}");
        assert!(!note.contains("was not free"), "round {round}: {note}");
        let mut delivered = codex_accepts(POST_TOOL, &out)
            .map(|c| injected(&c))
            .unwrap_or_default();
        delivered.sort();
        let missing: Vec<String> = all
            .iter()
            .filter(|r| !recorded.contains(*r))
            .cloned()
            .collect();
        assert_eq!(delivered, missing, "round {round}");
    }
    eprintln!(
        "kill rounds: {rounds} rounds (seed {seed}), {hooks} hooks, {kills} killed, {lock_timeouts} lock timeouts, {lost} records lost, {unprinted} recorded but never printed, {repeats} delivered again after a kill, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert_eq!(lost, 0, "records lost");
    assert_eq!(unprinted, 0, "rules recorded but never printed");
    assert_eq!(lock_timeouts, 0, "lock timeouts");
}
