//! The project's part of doctor: where its rules come from (the engine's
//! walk, behaviour §1.2), what `check` finds in them, the gate's state, and
//! whether the state directory can hold the hooks' records (behaviour
//! §5.1, "State directory").

use rule_fairy_engine::version::{program_install, VERSION};
use std::path::Path;

use rule_fairy_engine::gate_check::gate_probes;
use rule_fairy_engine::{rule_sources, Config, FileSource, RuleSource, SourceKind};
use serde_json::json;

use super::report::{Check, Section};
use crate::stdfs::StdFs;

/// The project's checks; `root` is the project found, or why there is none.
pub(crate) fn section(root: &Result<String, String>) -> Section {
    let root = match root {
        Ok(root) => root,
        Err(problem) => {
            let mut section = Section::new("project", "Project");
            section.push(
                Check::broken(
                    "project",
                    "project",
                    format!("{problem}; nothing in it was checked"),
                )
                .fix("run doctor in the project, or name it with --project DIR"),
            );
            return section;
        }
    };
    let mut section = Section::new("project", format!("Project {root}"));
    section.push(rules(root));
    section.push(findings(root));
    section.push(gate(root));
    section.push(state_dir(root));
    section
}

fn rules(root: &str) -> Check {
    const ID: &str = "rules";
    const LABEL: &str = "rules";
    let sources = match rule_sources(&StdFs, root) {
        Ok(sources) => sources,
        Err(e) => {
            return Check::broken(ID, LABEL, format!("the rules cannot be listed: {e}"))
                .fix("correct rule-fairy.edn; rule-fairy check names the line");
        }
    };
    let total: usize = sources.iter().map(|s| s.rules).sum();
    let listed: Vec<_> = sources.iter().map(source_json).collect();
    if total == 0 {
        return Check::warning(ID, LABEL, "no rule found, so nothing is delivered")
            .fix("run rule-fairy check: it says where it looked and what lies nearby")
            .with("rules", 0)
            .with("sources", listed);
    }
    let words: Vec<String> = sources.iter().map(source_words).collect();
    Check::ok(
        ID,
        LABEL,
        format!("{}: {}", plural(total, "rule"), words.join(", ")),
    )
    .with("rules", total)
    .with("sources", listed)
}

fn kind_word(kind: SourceKind) -> &'static str {
    match kind {
        SourceKind::Folder => "folder",
        SourceKind::Nested => "nested",
        SourceKind::File => "file",
    }
}

fn source_words(source: &RuleSource) -> String {
    let kind = match source.kind {
        SourceKind::Folder => "",
        SourceKind::Nested => ", nested",
        SourceKind::File => ", one file",
    };
    format!(
        "{} ({}{kind}, {})",
        source.place,
        source.format.name(),
        source.rules
    )
}

fn source_json(source: &RuleSource) -> serde_json::Value {
    json!({
        "place": source.place,
        "format": source.format.name(),
        "kind": kind_word(source.kind),
        "rules": source.rules,
    })
}

/// What `check` finds, counted.
fn findings(root: &str) -> Check {
    const ID: &str = "check";
    const LABEL: &str = "check";
    let report = crate::commands::check::report(root);
    let counts = format!(
        "{}: {}, {}",
        plural(report.rules, "rule"),
        plural(report.errors, "error"),
        plural(report.warnings, "warning")
    );
    let check = if report.errors > 0 {
        Check::broken(ID, LABEL, counts)
    } else if report.warnings > 0 {
        Check::warning(ID, LABEL, counts)
    } else {
        Check::ok(ID, LABEL, counts)
    };
    let check = if report.errors + report.warnings > 0 {
        check.fix(format!(
            "rule-fairy check --project {root} lists each finding with its fix"
        ))
    } else {
        check
    };
    check
        .with("errors", report.errors)
        .with("warnings", report.warnings)
}

/// Whether the project keeps gate rules, and whether this build can check
/// them.
fn gate(root: &str) -> Check {
    const ID: &str = "gate";
    const LABEL: &str = "gate";
    let built = cfg!(feature = "gate");
    let config = Config::load(&StdFs, root).ok();
    let probes: Vec<String> = gate_probes(root, config.as_ref())
        .into_iter()
        .filter(|probe| StdFs.exists(probe))
        .map(|probe| crate::location::display_path(root, &probe))
        .collect();
    let check = if probes.is_empty() {
        let build = if built {
            "this build has the gate"
        } else {
            "this build has no gate"
        };
        Check::ok(
            ID,
            LABEL,
            format!("no gate rules (sgconfig.yml, .kairoku/rules or :gate); {build}"),
        )
    } else if let Some(loaded) = gate_rules(root, &probes) {
        loaded
    } else {
        Check::broken(
            ID,
            LABEL,
            format!(
                "the project keeps gate rules ({}) but this rule-fairy was built without the gate, so written files are not checked",
                probes.join(", ")
            ),
        )
        // The engine's install words; every released program has the gate.
        .fix(program_install(VERSION))
    };
    check
        .with("hasRules", !probes.is_empty())
        .with("built", built)
}

/// The gate's rules loaded, as a check; `None` in a build without the gate.
#[cfg(feature = "gate")]
fn gate_rules(root: &str, probes: &[String]) -> Option<Check> {
    Some(match rule_fairy_gate::Gate::load(Path::new(root)) {
        Ok(gate) => Check::ok(
            "gate",
            "gate",
            format!(
                "{} ({}); this build has the gate",
                plural(gate.rules().len(), "ast-grep rule"),
                probes.join(", ")
            ),
        ),
        Err(e) => Check::broken("gate", "gate", format!("the gate cannot load: {e}")).fix(
            "rule-fairy check shows the gate's problem; rule-fairy gate test runs its rule tests",
        ),
    })
}

#[cfg(not(feature = "gate"))]
fn gate_rules(_root: &str, _probes: &[String]) -> Option<Check> {
    None
}

/// `.rule-fairy` and the hosts' folders in it must be real directories
/// (or not yet made): through a file nothing is recorded, and through a
/// link Rule Fairy writes nothing (behaviour §5.1).
fn state_dir(root: &str) -> Check {
    const ID: &str = "stateDir";
    const LABEL: &str = "state directory";
    let base = Path::new(root).join(".rule-fairy");
    for (dir, shown) in [
        (base.clone(), ".rule-fairy"),
        (base.join("claude"), ".rule-fairy/claude"),
        (base.join("codex"), ".rule-fairy/codex"),
    ] {
        let meta = match std::fs::symlink_metadata(&dir) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                return Check::broken(ID, LABEL, format!("cannot look at {shown}: {e}"))
                    .fix(format!("make {shown} readable by you"));
            }
        };
        if meta.file_type().is_symlink() {
            return Check::broken(
                ID,
                LABEL,
                format!("{shown} is a symbolic link; Rule Fairy writes nothing through it, so no delivery is recorded and rules repeat"),
            )
            .fix(format!("remove the link {shown}; the hooks make the directory themselves"));
        }
        if !meta.is_dir() {
            return Check::broken(
                ID,
                LABEL,
                format!("{shown} is a file, not a directory, so no delivery is recorded and rules repeat"),
            )
            .fix(format!("remove or rename the file {shown}; the hooks make the directory themselves"));
        }
    }
    if base.exists() {
        Check::ok(ID, LABEL, ".rule-fairy is a directory")
    } else {
        Check::ok(
            ID,
            LABEL,
            ".rule-fairy is not made yet; the first hook makes it",
        )
    }
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
