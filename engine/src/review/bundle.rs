//! The review bundle (behaviour §6.5): one Markdown document holding what a
//! reviewer must read for a set of changed or planned paths. The instruction
//! files that apply to them, every always-on rule and every rule whose globs
//! match one of them, with the documentation those rules import; duplicates
//! across all of it collapsed into lines naming the kept copy; a header
//! naming what went in; and, under each rule, a scope line saying which of
//! the paths it covers, so a change spanning several conventions is judged
//! by the right ones.

use crate::base::error::{Error, ErrorKind, Result};
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::config::CONFIG_FILE;
use crate::delivery::broken::BrokenRule;
use crate::delivery::selection;
use crate::matching::facts::Facts;
use crate::matching::project::Project;
use crate::render::block::{Block, BlockKind, DOCUMENTATION_BUDGET};
use crate::review::dedup::{self, Input};
use crate::rules::discovery::java_order;
use crate::rules::instructions::Reading;
use crate::rules::instructions::{self, InstructionDocument};
use crate::rules::rule::Rule;

const SEPARATOR: &str = "\n\n---\n\n";

/// A built bundle and what went into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// The paths it was built for, normalised, in the order given.
    pub changed_paths: Vec<String>,
    /// Instruction files by display path, in bundle order.
    pub instruction_paths: Vec<String>,
    /// Applicable rules by name, sorted: those the bundle holds.
    pub rule_names: Vec<String>,
    /// Applicable rules left out as broken (an import that fails, an
    /// invalid glob or pattern these paths reached), named in the text.
    pub broken: Vec<BrokenRule>,
    /// Rule files in the rules source.
    pub rule_count: usize,
    /// Every duplicate dedup replaced by an omission line, in bundle order.
    pub omissions: Vec<Omission>,
    /// Every file besides the rules the bundle read, for the revision
    /// check: each instruction file under every path it was shown by and
    /// the path it was reached by, the imported documentation, and the
    /// configuration file.
    pub input_paths: Vec<String>,
    /// `rules.md`.
    pub text: String,
}

/// One omission line: the block it stands in and the kept copy it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omission {
    /// The block's label: an instruction file's display path, a rule
    /// name, or a documentation block's references.
    pub in_block: String,
    /// Where the kept copy is, as the omission line names it.
    pub kept: String,
}

/// Builds the bundle for `changed` paths of a loaded project. `home`
/// resolves `@~/` imports of instruction files.
///
/// Anything that would make the bundle partial without saying so fails it:
/// an invalid `:instructions`, an unreadable instruction or rule file,
/// documentation over the budget. A rule that is broken for these paths
/// (an invalid glob or pattern reached, an import that does not resolve)
/// is left out and named under the header with its file, line and
/// problem, so one broken rule never hides the others from a reviewer.
///
/// `facts` are what the reviewing machine can tell (os, ci, branch,
/// project); a rule's conditions on them take part as in a delivery, and
/// `fileContains` reads the changed files from the working tree.
pub fn build<S: AsRef<str>>(
    fs: &dyn FileSource,
    project: &Project,
    changed: &[S],
    home: Option<&str>,
    facts: &Facts,
) -> Result<Bundle> {
    let changed: Vec<String> = changed
        .iter()
        .map(|p| paths::normalize_for_match(p.as_ref()))
        .collect();
    if let Some(unreadable) = project.rules.findings.iter().find(|f| f.is_error()) {
        return Err(Error::at(
            unreadable.place.clone(),
            ErrorKind::BundleMissesRule {
                problem: unreadable.message.clone(),
            },
        ));
    }
    let names = project.config.instruction_files()?;
    let documents = instructions::documents(fs, &project.root, &names, &changed, home)?;
    let contents = selection::read_contents(fs, project, &changed);
    let matches = project
        .index
        .match_paths_with(&changed, facts, contents.as_deref());
    // A rule broken for these paths (an invalid glob or pattern reached, an
    // import that fails) is left out and named, never silencing the rest.
    let mut broken = BrokenRule::from_match_errors(project, &matches.errors);
    let mut rule_names: Vec<String> = project
        .rules
        .all()
        .iter()
        // A nested folder's always-on rule comes with the changes below
        // its base, which the path matches found (behaviour §2.3).
        .filter(|rule| rule.always_apply && rule.base.is_none())
        .map(|rule| rule.name.clone())
        .chain(matches.rules.iter().map(|m| m.name.clone()))
        .collect();
    rule_names.sort_by(|a, b| java_order(a, b));
    rule_names.dedup();
    let names: Vec<&str> = rule_names.iter().map(String::as_str).collect();
    // Only rules: the bundle reads its instruction files itself (§6.3).
    let screened =
        selection::render_screened(fs, project, &names, Reading::Whole).map_err(|e| e.error)?;
    let rendered: Vec<String> = screened.rendered.iter().map(ToString::to_string).collect();
    broken.extend(screened.broken);
    let blocks = screened.blocks.map_err(|e| match e.expanded_bytes {
        Some(bytes) => budget_error(e.error, bytes, rendered.len(), changed.len()),
        None => e.error,
    })?;
    let rule_names = rendered;

    let scope_of = |name: &str| {
        let matched: Vec<&str> = matches
            .rules
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.hits.iter().map(|hit| hit.path.as_str()).collect())
            .unwrap_or_default();
        project
            .rules
            .get(name)
            .map(|rule| scope_line(rule, &matched))
            .unwrap_or_default()
    };
    let mut entries: Vec<Entry> = documents.iter().map(instruction_entry).collect();
    for block in &blocks {
        entries.push(match &block.kind {
            BlockKind::Rule { name } => Entry {
                part: Part::Rule,
                label: name.clone(),
                heading: block.heading.clone(),
                scope: Some(scope_of(name)),
                content: block.content.clone(),
            },
            BlockKind::Documentation { .. } => Entry {
                part: Part::Documentation,
                label: documentation_label(&block.heading),
                heading: block.heading.clone(),
                scope: None,
                content: block.content.clone(),
            },
        });
    }
    let deduped = dedup::dedup(
        &entries
            .iter()
            .map(|e| Input {
                label: &e.label,
                content: &e.content,
            })
            .collect::<Vec<_>>(),
    );
    let mut omissions = Vec::new();
    for (entry, deduped) in entries.iter_mut().zip(deduped) {
        omissions.extend(deduped.omissions.into_iter().map(|kept| Omission {
            in_block: entry.label.clone(),
            kept,
        }));
        entry.content = deduped.content;
    }

    let instruction_paths: Vec<String> = documents.iter().map(|d| d.path.clone()).collect();
    let mut header = header(
        changed.len(),
        &instruction_paths,
        &rule_names,
        project.rules.len(),
        omissions.len(),
    );
    header.push_str(&broken_part(&broken));
    Ok(Bundle {
        text: render(&header, &entries),
        broken,
        input_paths: input_paths(&documents, &blocks),
        changed_paths: changed,
        instruction_paths,
        rule_names,
        rule_count: project.rules.len(),
        omissions,
    })
}

fn budget_error(error: Error, bytes: usize, rules: usize, paths: usize) -> Error {
    let limit = match error.kind {
        ErrorKind::DocumentationBudget { limit } => limit,
        _ => DOCUMENTATION_BUDGET,
    };
    Error {
        kind: ErrorKind::BundleBudget {
            limit,
            bytes,
            rules,
            paths,
        },
        place: error.place,
        span: error.span,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Instructions,
    Rule,
    Documentation,
}

/// A block of the bundle on its way to the text.
struct Entry {
    part: Part,
    /// What an omission line elsewhere calls this block.
    label: String,
    heading: String,
    /// A rule's scope line, which stays outside dedup.
    scope: Option<String>,
    content: String,
}

fn instruction_entry(document: &InstructionDocument) -> Entry {
    let mut heading = format!("# {}", document.path);
    if let Some(importer) = &document.imported_by {
        heading.push_str(&format!(" (imported by {importer})"));
    }
    if !document.also_at.is_empty() {
        heading.push_str(&format!(" (also {})", document.also_at.join(", ")));
    }
    Entry {
        part: Part::Instructions,
        label: document.path.clone(),
        heading,
        scope: None,
        content: document.content.clone(),
    }
}

/// The references a documentation block's heading names, joined by `, `:
/// `## Required context: `a.md#x` (r.mdc), `b.md` (s.mdc, t.mdc)` gives
/// `a.md#x, b.md`.
fn documentation_label(heading: &str) -> String {
    let named = heading
        .strip_prefix("## Required context: ")
        .unwrap_or(heading);
    named
        .split("), `")
        .filter_map(|part| {
            let part = part.strip_prefix('`').unwrap_or(part);
            part.split_once('`').map(|(reference, _)| reference)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a rule is in the bundle and which of the paths it covers.
///
/// ```
/// use rule_fairy_engine::bundle::scope_line;
/// use rule_fairy_engine::Rule;
/// let rule = Rule::parse("ui.mdc", "/p/.cursor/rules/ui.mdc", "---\nglobs: src/ui/**\n---\n# UI");
/// assert_eq!(scope_line(&rule, &["src/ui/a.tsx"]), "*Scope: globs `src/ui/**`; matched `src/ui/a.tsx`.*");
/// assert_eq!(scope_line(&rule, &[]), "*Scope: globs `src/ui/**`; matched none.*");
/// ```
pub fn scope_line(rule: &Rule, matched: &[&str]) -> String {
    let mut parts = Vec::new();
    match (&rule.base, rule.always_apply) {
        (None, true) => parts.push("applies everywhere (alwaysApply)".to_string()),
        (Some(base), true) => parts.push(format!("applies below `{base}` (alwaysApply)")),
        (_, false) => {}
    }
    if !rule.globs.is_empty() {
        let globs: Vec<&str> = rule.globs.iter().map(|g| g.pattern.as_str()).collect();
        parts.push(format!(
            "globs {}; matched {}",
            listed(&globs),
            listed(matched)
        ));
    }
    format!("*Scope: {}.*", parts.join("; "))
}

fn listed<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return "none".to_string();
    }
    items
        .iter()
        .map(|item| format!("`{}`", item.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn header(
    changed: usize,
    instruction_paths: &[String],
    rule_names: &[String],
    rule_count: usize,
    omitted: usize,
) -> String {
    let mut text = format!(
        "# Review bundle\n\n- Changed paths: {changed}\n- Instruction files: {}\n- Rules: {} ({} of {rule_count} rule files)\n- Duplicates omitted: {omitted}",
        listed(instruction_paths),
        listed(rule_names),
        rule_names.len(),
    );
    if omitted > 0 {
        text.push_str(", each replaced by a line naming the kept copy");
    }
    text
}

/// The header's line and list for the broken rules left out; empty when
/// there is none.
fn broken_part(broken: &[BrokenRule]) -> String {
    if broken.is_empty() {
        return String::new();
    }
    let mut part = format!(
        "\n- Broken rules left out: {}; read their files yourself:",
        broken.len()
    );
    for rule in broken {
        part.push_str(&format!("\n  - {}", rule.located()));
    }
    part
}

fn render(header: &str, entries: &[Entry]) -> String {
    let mut parts: Vec<String> = vec![header.to_string()];
    for entry in entries.iter().filter(|e| e.part != Part::Documentation) {
        parts.push(match &entry.scope {
            Some(scope) => format!("{}\n\n{scope}\n\n{}", entry.heading, entry.content),
            None => format!("{}\n\n{}", entry.heading, entry.content),
        });
    }
    let documentation: Vec<String> = entries
        .iter()
        .filter(|e| e.part == Part::Documentation)
        .map(|e| format!("{}\n\n{}", e.heading, e.content))
        .collect();
    if !documentation.is_empty() {
        parts.push(format!(
            "# Required documentation\n\n{}",
            documentation.join(SEPARATOR)
        ));
    }
    let mut text = parts.join(SEPARATOR);
    text.push('\n');
    text
}

fn input_paths(documents: &[InstructionDocument], blocks: &[Block]) -> Vec<String> {
    let mut inputs: Vec<String> = Vec::new();
    let mut add = |path: &str| {
        if !inputs.iter().any(|p| p == path) {
            inputs.push(path.to_string());
        }
    };
    for document in documents {
        add(&document.path);
        document.also_at.iter().for_each(|p| add(p));
        add(&document.file);
    }
    for block in blocks {
        if let BlockKind::Documentation { paths } = &block.kind {
            paths.iter().for_each(|p| add(p));
        }
    }
    add(CONFIG_FILE);
    inputs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    fn build_for(fs: &MemoryFs, changed: &[&str]) -> Bundle {
        let project = Project::load(fs, "/p").unwrap();
        build(fs, &project, changed, None, &Facts::default()).unwrap()
    }

    #[test]
    fn conditions_take_part_in_a_review() {
        let mut fs = MemoryFs::new();
        fs.add_file(
            "/p/.cursor/rules/sql.mdc",
            "---\nfileContains: [\"DROP TABLE\"]\n---\n# SQL care",
        )
        .add_file(
            "/p/.cursor/rules/linux.mdc",
            "---\nglobs: db/**\nos: [linux]\nmatch: all\n---\n# Linux only",
        )
        .add_file(
            "/p/.cursor/rules/model.mdc",
            "---\nglobs: db/**\nmodel: [gpt-5]\nmatch: all\n---\n# Model only",
        )
        .add_file("/p/db/drop.sql", "DROP TABLE orders;\n");
        let project = Project::load(&fs, "/p").unwrap();
        let facts = Facts {
            os: Some("linux".into()),
            ..Facts::default()
        };
        let bundle = build(&fs, &project, &["db/drop.sql"], None, &facts).unwrap();
        assert!(
            bundle.text.contains("# SQL care") && bundle.text.contains("# Linux only"),
            "{}",
            bundle.text
        );
        assert!(
            !bundle.text.contains("# Model only"),
            "a review has no model"
        );
    }

    #[test]
    fn a_nested_always_on_rule_joins_a_review_of_changes_below_its_base() {
        let mut fs = MemoryFs::new();
        fs.add_dir("/p/.git")
            .add_file(
                "/p/packages/web/.cursor/rules/web.mdc",
                "---\nalwaysApply: true\n---\n# Web always",
            )
            .add_file(
                "/p/.cursor/rules/base.mdc",
                "---\nalwaysApply: true\n---\n# Base",
            );
        let root_only = build_for(&fs, &["src/a.ts"]);
        assert!(root_only.text.contains("# Base"));
        assert!(
            !root_only.text.contains("# Web always"),
            "{}",
            root_only.text
        );
        let below = build_for(&fs, &["packages/web/src/a.ts"]);
        assert!(below.text.contains("# Web always"), "{}", below.text);
        assert!(below
            .text
            .contains("applies below `packages/web` (alwaysApply)"));
    }

    const GUIDE: &str = "# Guide\n\nDeveloper context.\n\n## Agent checks\n\n\
        Check the imported constraint.\n\n<!-- agent-context: omit -->\n\
        Developer-only explanation.\n<!-- /agent-context -->\n\n\
        Keep the final constraint.\n\n## Other section\n\nDo not import this section.\n";

    fn project_152() -> MemoryFs {
        MemoryFs::from_files(
            "/p",
            [
                ("CLAUDE.md", "Repository instructions."),
                (
                    ".cursor/rules/review.mdc",
                    "---\nglobs: apps/other/**\nalwaysApply: false\n---\n# Top-level collision\n",
                ),
                (
                    ".cursor/rules/tasks/review.mdc",
                    "---\ndescription: Review rule\nglobs: apps/**/src/*.clj\nalwaysApply: false\n---\n\
                     # Review rule\n\nApply this rule.\n\n@doc/guide.md#agent-checks\n",
                ),
                (
                    ".cursor/rules/unmatched.mdc",
                    "---\nglobs: apps/other/**\nalwaysApply: false\n---\n# Unmatched\n",
                ),
                (
                    ".cursor/rules/base.mdc",
                    "---\ndescription: Base\nalwaysApply: true\n---\n# Base rule\n",
                ),
                (
                    ".cursor/rules/win.mdc",
                    "---\r\nglobs: apps/**/src/*.clj\r\nalwaysApply: false\r\n---\r\n# Windows rule\r\n",
                ),
                ("doc/guide.md", GUIDE),
            ],
        )
    }

    #[test]
    fn case_152_bundle_build() {
        let bundle = build_for(&project_152(), &["./apps/example/src/example.clj"]);
        assert_eq!(bundle.changed_paths, vec!["apps/example/src/example.clj"]);
        assert_eq!(bundle.instruction_paths, vec!["CLAUDE.md"]);
        assert_eq!(
            bundle.rule_names,
            vec!["base.mdc", "tasks/review.mdc", "win.mdc"]
        );
        assert_eq!(bundle.rule_count, 5);
        assert!(bundle.omissions.is_empty());
        let text = &bundle.text;
        assert!(text.starts_with(
            "# Review bundle\n\n- Changed paths: 1\n- Instruction files: `CLAUDE.md`\n\
             - Rules: `base.mdc`, `tasks/review.mdc`, `win.mdc` (3 of 5 rule files)\n\
             - Duplicates omitted: 0\n\n---\n\n"
        ));
        assert!(text.contains("# CLAUDE.md\n\nRepository instructions."));
        let scope = "*Scope: globs `apps/**/src/*.clj`; matched `apps/example/src/example.clj`.*";
        assert!(text.contains(&format!("# tasks/review.mdc\n\n{scope}\n\n# Review rule")));
        assert!(text.contains(&format!("# win.mdc\n\n{scope}\n\n# Windows rule")));
        assert!(text
            .contains("# base.mdc\n\n*Scope: applies everywhere (alwaysApply).*\n\n# Base rule"));
        assert!(text.contains(
            "# Required documentation\n\n## Required context: `doc/guide.md#agent-checks`"
        ));
        assert!(
            text.contains("Check the imported constraint.")
                && text.contains("Keep the final constraint.")
        );
        for absent in [
            "Developer-only explanation.",
            "Do not import this section.",
            "# Top-level collision",
            "# Unmatched",
            "globs:",
            "@doc/guide.md",
        ] {
            assert!(!text.contains(absent), "{absent}");
        }
        let at = |s: &str| text.find(s).unwrap();
        assert!(
            at("# CLAUDE.md") < at("# base.mdc")
                && at("# base.mdc") < at("# Required documentation")
        );
        assert!(text.ends_with("Keep the final constraint.\n"));
        assert_eq!(
            bundle.input_paths,
            vec![
                "CLAUDE.md",
                "/p/CLAUDE.md",
                "doc/guide.md",
                "rule-fairy.edn"
            ]
        );
    }

    #[test]
    fn case_153_no_instruction_files_and_only_matching_rules() {
        let fs = MemoryFs::from_files(
            "/p",
            [
                (
                    ".cursor/rules/ui.mdc",
                    "---\nglobs: apps/**/ui/**\nalwaysApply: false\n---\n# UI rule\n",
                ),
                (
                    ".cursor/rules/db.mdc",
                    "---\nglobs: db/**\nalwaysApply: false\n---\n# DB rule\n",
                ),
            ],
        );
        let bundle = build_for(&fs, &["apps/x/ui/a.clj", "new/file.clj"]);
        assert_eq!(bundle.rule_names, vec!["ui.mdc"]);
        assert_eq!(bundle.rule_count, 2);
        assert!(bundle.instruction_paths.is_empty());
        assert!(bundle.text.contains("- Instruction files: none\n"));
        assert!(bundle.text.contains("# UI rule") && !bundle.text.contains("# DB rule"));
        let none = build_for(&fs, &["README.md"]);
        assert!(none.text.contains("- Rules: none (0 of 2 rule files)\n"));
    }

    #[test]
    fn case_154_imported_instruction_files() {
        let fs = MemoryFs::from_files(
            "/p",
            [
                ("AGENTS.md", "# Agents\n\nRoot agents."),
                ("CLAUDE.md", "# Claude\n\nSee @docs/shared.md for more."),
                ("docs/shared.md", "# Shared\n\nShared guidance."),
                ("apps/web/CLAUDE.md", "# Web\n\nWeb only."),
                ("apps/api/CLAUDE.md", "# Api\n\nApi only."),
            ],
        );
        let bundle = build_for(&fs, &["apps/web/src/x.clj"]);
        assert_eq!(
            bundle.instruction_paths,
            vec![
                "AGENTS.md",
                "CLAUDE.md",
                "docs/shared.md",
                "apps/web/CLAUDE.md"
            ]
        );
        assert!(bundle
            .text
            .contains("# docs/shared.md (imported by CLAUDE.md)\n\n# Shared"));
        assert!(!bundle.text.contains("Api only."));
    }

    #[test]
    fn case_155_a_linked_instruction_file_appears_once() {
        let mut fs = MemoryFs::from_files(
            "/p",
            [
                ("AGENTS.md", "# Agents\n\nShared guidance."),
                ("api/x.clj", ""),
            ],
        );
        fs.add_link("/p/api/AGENTS.md", "../AGENTS.md");
        let bundle = build_for(&fs, &["api/x.clj"]);
        assert!(bundle
            .text
            .contains("# AGENTS.md (also api/AGENTS.md)\n\n# Agents"));
        assert_eq!(bundle.text.matches("Shared guidance").count(), 1);
        assert_eq!(bundle.instruction_paths, vec!["AGENTS.md"]);
        assert_eq!(
            bundle.input_paths,
            vec![
                "AGENTS.md",
                "api/AGENTS.md",
                "/p/AGENTS.md",
                "rule-fairy.edn"
            ]
        );
    }

    #[test]
    fn case_156_dedup_across_the_bundle() {
        let long = "This sentence pads the paragraph well past the duplicate threshold. "
            .repeat(6)
            .trim()
            .to_string();
        let fs = MemoryFs::from_files(
            "/p",
            [
                ("AGENTS.md", format!("# Agents\n\n## Testing\n\n{long}")),
                ("CLAUDE.md", format!("# Claude\n\n## Testing\n\n{long}")),
                (
                    ".cursor/rules/testing.mdc",
                    format!("---\nalwaysApply: true\n---\n# Testing rule\n\n{long}\n\nRule-only line.\n"),
                ),
            ],
        );
        let bundle = build_for(&fs, &[]);
        let omission = dedup::omission_line("AGENTS.md#testing");
        assert_eq!(
            bundle.omissions,
            vec![
                Omission {
                    in_block: "CLAUDE.md".into(),
                    kept: "AGENTS.md#testing".into()
                },
                Omission {
                    in_block: "testing.mdc".into(),
                    kept: "AGENTS.md#testing".into()
                },
            ]
        );
        assert!(bundle
            .text
            .contains(&format!("# CLAUDE.md\n\n# Claude\n\n{omission}")));
        assert!(bundle.text.contains(&format!(
            "# testing.mdc\n\n*Scope: applies everywhere (alwaysApply).*\n\n# Testing rule\n\n{omission}\n\nRule-only line."
        )));
        assert!(bundle
            .text
            .contains("- Duplicates omitted: 2, each replaced by a line naming the kept copy"));
    }

    #[test]
    fn case_157_scope_lines() {
        let fs = MemoryFs::from_files(
            "/p",
            [
                (
                    ".cursor/rules/both.mdc",
                    "---\nglobs: db/**, apps/**/ui/**\nalwaysApply: true\n---\n# Both\n",
                ),
                (
                    ".cursor/rules/ui.mdc",
                    "---\nglobs: apps/**/ui/**\n---\n# UI\n",
                ),
            ],
        );
        let bundle = build_for(&fs, &["apps/x/ui/a.clj", "apps/x/ui/b.clj", "README.md"]);
        assert!(bundle.text.contains(
            "# both.mdc\n\n*Scope: applies everywhere (alwaysApply); globs `db/**`, `apps/**/ui/**`; matched `apps/x/ui/a.clj`, `apps/x/ui/b.clj`.*"
        ));
        let bundle = build_for(&fs, &["README.md"]);
        assert!(bundle.text.contains(
            "*Scope: applies everywhere (alwaysApply); globs `db/**`, `apps/**/ui/**`; matched none.*"
        ));
        assert!(!bundle.text.contains("# ui.mdc"));
    }

    #[test]
    fn case_158_a_missing_import_leaves_out_its_rule_alone() {
        let fs = MemoryFs::from_files(
            "/p",
            [
                (
                    ".cursor/rules/broken.mdc",
                    "---\nalwaysApply: true\n---\n# Broken\n\n@doc/missing.md\n",
                ),
                (
                    ".cursor/rules/ok.mdc",
                    "---\nalwaysApply: true\n---\n# Fine\n",
                ),
            ],
        );
        let bundle = build_for(&fs, &["README.md"]);
        assert_eq!(bundle.rule_names, vec!["ok.mdc"]);
        assert_eq!(bundle.broken.len(), 1);
        assert!(bundle.text.starts_with("# Review bundle\n\n- Changed paths: 1\n- Instruction files: none\n- Rules: `ok.mdc` (1 of 2 rule files)\n- Duplicates omitted: 0\n- Broken rules left out: 1; read their files yourself:\n  - .cursor/rules/broken.mdc:6: broken.mdc: Rule import does not exist: doc/missing.md\n\n---\n\n# ok.mdc\n"), "{}", bundle.text);
        assert!(!bundle.text.contains("# Broken"));
    }

    #[test]
    fn documentation_over_the_budget_fails_with_what_applies() {
        let big = format!("# Big\n\n{}", "x".repeat(70_000));
        let fs = MemoryFs::from_files(
            "/p",
            [
                ("doc/big.md", big.as_str()),
                (
                    ".cursor/rules/big.mdc",
                    "---\nglobs: src/**\n---\n# Big\n\n@doc/big.md\n",
                ),
            ],
        );
        let project = Project::load(&fs, "/p").unwrap();
        let err = build(&fs, &project, &["src/a.ts"], None, &Facts::default()).unwrap_err();
        assert!(
            err.message()
                .starts_with("Expanded rule documentation exceeds 65536 bytes: "),
            "{}",
            err.message()
        );
        assert!(err
            .message()
            .contains("imported by 1 applicable rule for 1 changed path;"));
    }

    #[test]
    fn an_invalid_glob_a_path_reaches_is_named_and_an_unreadable_rule_fails() {
        let fs = MemoryFs::from_files(
            "/p",
            [
                (
                    ".cursor/rules/bad.mdc",
                    "---\nglobs: src/[z-a]\n---\n# Bad\n",
                ),
                (".cursor/rules/src.mdc", "---\nglobs: src/**\n---\n# Src\n"),
            ],
        );
        let bundle = build_for(&fs, &["src/x"]);
        assert_eq!(bundle.rule_names, vec!["src.mdc"]);
        assert!(bundle
            .text
            .contains("\n  - .cursor/rules/bad.mdc:2: bad.mdc: Invalid rule glob: src/[z-a]\n"));
        let fs = MemoryFs::from_files(
            "/p",
            [(".cursor/rules/latin.mdc", b"# \xe9t\xe9".as_slice())],
        );
        let project = Project::load(&fs, "/p").unwrap();
        let err = build(&fs, &project, &["src/x"], None, &Facts::default()).unwrap_err();
        assert!(
            err.message().ends_with("(the bundle would miss this rule)"),
            "{}",
            err.message()
        );
    }

    #[test]
    fn documentation_labels_name_the_references() {
        assert_eq!(
            documentation_label("## Required context: `a.md#x` (r.mdc), `b.md` (s.mdc, t.mdc)"),
            "a.md#x, b.md"
        );
    }
}
