//! What `check` says when a project has no rule at all: where it looked,
//! and what lies nearby that could be meant (a misspelt folder, another
//! host's folder not switched on, files with another extension).

use crate::base::error::Place;
use crate::base::finding::{Code, Finding};
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::config::formats::LAYOUTS;
use crate::config::RulesSource;

/// Folders people write for `.cursor/rules` by mistake.
const NEAR_MISSES: &[&str] = &[
    ".cursor/rule",
    ".cursor/Rules",
    "cursor/rules",
    ".cursor-rules",
];

/// How many files of another extension are named as examples.
const EXAMPLES: usize = 3;

/// The warning for a project where no rule was found.
pub(crate) fn nothing_found(fs: &dyn FileSource, source: &RulesSource) -> Finding {
    let relative = |path: &str| {
        paths::strip_base(path, &source.root).map_or_else(|| path.to_string(), str::to_string)
    };
    let mut looked: Vec<String> = source
        .dirs
        .iter()
        .map(|dir| format!("{} ({})", relative(dir), source.extensions.join(", ")))
        .collect();
    looked.extend(
        LAYOUTS
            .iter()
            .filter(|layout| source.formats.contains(&layout.format))
            .map(|layout| layout.dir.to_string()),
    );
    let mut nearby = Vec::new();
    for dir in &source.dirs {
        let Ok(names) = fs.list(dir) else { continue };
        let others: Vec<&String> = names
            .iter()
            .filter(|name| !name.starts_with('.'))
            .filter(|name| fs.is_file(&paths::join(dir, name)))
            .collect();
        if !others.is_empty() {
            let shown: Vec<&str> = others.iter().take(EXAMPLES).map(|n| n.as_str()).collect();
            nearby.push(format!(
                "{} holds {} file(s) with another extension ({}): rules there end in {}, or add theirs under {{:rules {{:extensions [...]}}}}",
                relative(dir),
                others.len(),
                shown.join(", "),
                source.extensions.join(", "),
            ));
        }
    }
    for miss in NEAR_MISSES {
        if fs.is_dir(&paths::join(&source.root, miss)) {
            nearby.push(format!(
                "{miss} exists: the folder Cursor reads is .cursor/rules"
            ));
        }
    }
    for layout in LAYOUTS
        .iter()
        .filter(|l| !source.formats.contains(&l.format))
    {
        if fs.exists(&paths::join(&source.root, layout.dir)) {
            nearby.push(format!(
                "{} exists: switch it on with {{:formats [:{}]}} in rule-fairy.edn",
                layout.dir, layout.key
            ));
        }
    }
    let finding = Finding::warning(
        Code::RuleNothingFound,
        Place::file(&source.root),
        format!("no rule found: looked in {}", looked.join(", ")),
    );
    if nearby.is_empty() {
        finding.with_hint("add a rule: .cursor/rules/<name>.mdc with `alwaysApply: true`, `globs:` or a `description:`")
    } else {
        finding.with_hint(nearby.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use crate::base::fs::MemoryFs;
    use crate::check::check_project;

    #[test]
    fn an_empty_project_says_where_it_looked_and_what_is_near() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rule/ui.mdc", "---\nalwaysApply: true\n---\nU")
            .add_file("/p/.cursor/rules/notes.txt", "n")
            .add_file("/p/.github/instructions/ts.instructions.md", "T");
        let report = check_project(&fs, "/p");
        assert_eq!(report.rules, 0);
        let finding = &report.findings[0];
        assert_eq!(
            finding.message,
            "no rule found: looked in .cursor/rules (.mdc, .md)"
        );
        let hint = finding.hint.as_deref().unwrap();
        assert!(
            hint.contains(".cursor/rules holds 1 file(s) with another extension (notes.txt)"),
            "{hint}"
        );
        assert!(
            hint.contains(".cursor/rule exists: the folder Cursor reads is .cursor/rules"),
            "{hint}"
        );
        assert!(
            hint.contains(".github/instructions exists: switch it on with {:formats [:copilot]}"),
            "{hint}"
        );

        let mut bare = MemoryFs::new();
        bare.add_dir("/p/src");
        let report = check_project(&bare, "/p");
        assert!(report.findings[0]
            .hint
            .as_deref()
            .unwrap()
            .starts_with("add a rule"));

        let mut one = MemoryFs::new();
        one.add_file("/p/.cursor/rules/a.mdc", "---\nalwaysApply: true\n---\nA");
        assert!(check_project(&one, "/p").findings.is_empty());
    }
}
