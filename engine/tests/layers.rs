//! The engine's layer rule, held against the code: a module imports only
//! from its own layer and the layers below it, and the top-floor rooms
//! (`hosts`, `review`, `playground`, and inside `hosts` the two hosts)
//! never import each other. ARCHITECTURE.md draws the same picture.

use std::fs;
use std::path::{Path, PathBuf};

/// Bottom up. A layer may import every layer before it in this list.
const LAYERS: &[&str] = &[
    "base", "syntax", "config", "rules", "matching", "render", "delivery", "check",
];

/// Side by side above every layer: none imports another.
const ROOMS: &[&str] = &["hosts", "review", "playground"];

/// Inside `hosts`: shared modules sit at `hosts/*.rs`; the hosts' own
/// folders never import each other.
const HOSTS: &[&str] = &["claude", "codex"];

/// Where a module path (`delivery::frames`, `hosts::claude::state`) sits:
/// its floor (0 for base) and, on the top floor, its room and host.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place {
    floor: usize,
    room: Option<&'static str>,
    host: Option<&'static str>,
}

fn place_of(segments: &[&str]) -> Option<Place> {
    let first = *segments.first()?;
    if let Some(floor) = LAYERS.iter().position(|l| *l == first) {
        return Some(Place {
            floor,
            room: None,
            host: None,
        });
    }
    let room = ROOMS.iter().find(|r| **r == first)?;
    let host = match (*room, segments.get(1)) {
        ("hosts", Some(second)) => HOSTS.iter().find(|h| *h == second).copied(),
        _ => None,
    };
    Some(Place {
        floor: LAYERS.len(),
        room: Some(room),
        host,
    })
}

/// Why `from` may not import `to`, or `None` when it may.
fn violation(from: &Place, to: &Place) -> Option<&'static str> {
    if to.floor > from.floor {
        return Some("imports a higher layer");
    }
    if to.floor < from.floor || from.floor < LAYERS.len() {
        return None;
    }
    if from.room != to.room {
        return Some("imports a room beside it");
    }
    match (from.host, to.host) {
        (Some(a), Some(b)) if a != b => Some("imports the other host"),
        (None, Some(_)) => Some("shared host code imports one host"),
        _ => None,
    }
}

/// Every `crate::a::b` path in the code of `text` (comments left out),
/// with its line.
fn crate_paths(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = &rest[..at];
            let tail = &rest[at + "crate::".len()..];
            rest = tail;
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue; // `rule_fairy_engine::` or another crate's name
            }
            let path: Vec<String> = tail
                .split("::")
                .map(|s| {
                    s.chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect::<String>()
                })
                .take_while(|s| !s.is_empty())
                .collect();
            found.push((index + 1, path));
        }
    }
    found
}

/// The module path of a source file relative to `src`: `delivery/frames.rs`
/// is `delivery::frames`, `hosts/claude/mod.rs` is `hosts::claude`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut segments: Vec<String> = relative
        .iter()
        .map(|s| s.to_string_lossy().to_string())
        .collect();
    if let Some(last) = segments.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" {
            segments.push(stem.to_string());
        }
    }
    segments
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("engine/src is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every import of `text` (the file at module `module`) that breaks the
/// rule, as `line: module -> path: why`.
fn violations_in(module: &[String], text: &str) -> Vec<String> {
    let module_refs: Vec<&str> = module.iter().map(String::as_str).collect();
    let Some(from) = place_of(&module_refs) else {
        return vec![format!("{}: not in any layer", module.join("::"))];
    };
    let mut out = Vec::new();
    for (line, path) in crate_paths(text) {
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        // Crate-root items (`crate::Error`) are the base layer's re-exports.
        let Some(to) = place_of(&refs).or_else(|| {
            (refs.len() <= 1).then_some(Place {
                floor: 0,
                room: None,
                host: None,
            })
        }) else {
            out.push(format!("{line}: crate::{} is in no layer", path.join("::")));
            continue;
        };
        if let Some(why) = violation(&from, &to) {
            out.push(format!(
                "{line}: {} -> crate::{}: {why}",
                module.join("::"),
                path.join("::")
            ));
        }
    }
    out
}

#[test]
fn every_import_goes_down_or_stays_on_its_floor() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        if relative == Path::new("lib.rs") {
            continue; // the crate root re-exports from every layer
        }
        let text = fs::read_to_string(file).expect("source is UTF-8");
        checked += 1;
        for v in violations_in(&module_of(relative), &text) {
            broken.push(format!("{}:{v}", relative.display()));
        }
    }
    assert!(checked > 50, "found only {checked} modules under {src:?}");
    assert!(
        broken.is_empty(),
        "imports against the layer rule:\n{}",
        broken.join("\n")
    );
}

#[test]
fn every_folder_is_a_known_layer_or_room() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in fs::read_dir(&src).expect("engine/src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            assert!(
                LAYERS.contains(&name.as_str()) || ROOMS.contains(&name.as_str()),
                "engine/src/{name} is neither a layer nor a room: add it to LAYERS or ROOMS"
            );
        } else {
            assert_eq!(
                path.file_name().unwrap(),
                "lib.rs",
                "only lib.rs sits at engine/src's top: {path:?}"
            );
        }
    }
}

/// The checker catches what it is for: planted imports are reported.
#[test]
fn planted_imports_against_the_rule_are_caught() {
    let module = |m: &str| m.split("::").map(str::to_string).collect::<Vec<_>>();
    let upward = "use crate::delivery::frames::Frame;\n";
    assert_eq!(
        violations_in(&module("base::text"), upward),
        vec!["1: base::text -> crate::delivery::frames::Frame: imports a higher layer"]
    );
    let sideways = "fn f() { crate::review::bundle::build(); }\n";
    assert_eq!(violations_in(&module("hosts::shell"), sideways).len(), 1);
    let other_host = "use crate::hosts::codex::state::SessionState;\n";
    assert_eq!(
        violations_in(&module("hosts::claude::workspace"), other_host),
        vec![
            "1: hosts::claude::workspace -> crate::hosts::codex::state::SessionState: imports the other host"
        ]
    );
    let shared_to_host = "use crate::hosts::claude::labels;\n";
    assert_eq!(
        violations_in(&module("hosts::gate_check"), shared_to_host).len(),
        1
    );
    // Allowed: down, on the same floor, a host using shared host code, and
    // paths inside comments.
    let fine = "use crate::base::paths;\nuse crate::delivery::fit;\nuse crate::hosts::shell;\n// crate::playground::case\n";
    assert!(violations_in(&module("hosts::claude::event"), fine).is_empty());
    assert!(violations_in(&module("delivery::frames"), "use crate::delivery::fit;\n").is_empty());
}
