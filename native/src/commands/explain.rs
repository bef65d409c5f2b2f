//! `rule-fairy explain`: the rules an event selects and why.

use std::process::ExitCode;

use rule_fairy_engine::FrameLimits;
use rule_fairy_engine::Project;
use rule_fairy_engine::{describe, describe_condition};
use rule_fairy_engine::{paths, unloaded_by_claude_code, unread_instruction_files};
use rule_fairy_engine::{preview, Hosts};
use rule_fairy_engine::{Event, EventKind as Fired, Query};
use rule_fairy_engine::{Explanation, FiredRule};

use crate::location::{display_path, event_paths, project_root};
use crate::stdfs::StdFs;
use crate::{ExplainArgs, RenderHost};

/// The event the flags name, with each path's content when some rule
/// tests it (`fileContains`).
pub(crate) type FlagEvent = (Event, Option<Vec<Option<String>>>);

/// The event `--prompt` or `--path` names, for `project` at `root`.
pub(crate) fn event_of(
    args: &ExplainArgs,
    root: &str,
    project: &Project,
) -> Result<FlagEvent, String> {
    Ok(match &args.prompt {
        Some(prompt) => (Event::prompt(prompt.clone()), None),
        None => {
            let paths = event_paths(root, &args.path);
            let contents = match project.index.needs_contents() {
                true => Some(args.facts.contents(root, &paths)?),
                false => None,
            };
            (Event::Edit { paths }, contents)
        }
    })
}

pub(crate) fn run(args: &ExplainArgs) -> Result<ExitCode, String> {
    let root = project_root(args.project.as_deref())?;
    let project = crate::project_cache::load(&root).map_err(|e| located(&root, &e))?;
    if let Some(rule) = &args.why_not {
        return super::why_not::run(args, &root, project, rule);
    }
    let facts = args.facts.facts(project);
    let (event, contents) = event_of(args, &root, project)?;
    let hosts = Hosts {
        codex: args.render == Some(RenderHost::Codex),
        claude: args.render == Some(RenderHost::Claude),
    };
    let query = Query::new(&event, &facts).with_contents(contents.as_deref());
    let preview = preview(&StdFs, project, &query, hosts, FrameLimits::default());
    let explanation = &preview.explanation;
    let instructions = match &event {
        Event::Edit { .. } => {
            let working_dir = args.working_dir.as_deref().map_or(String::new(), |dir| {
                paths::normalize_for_match(dir)
                    .trim_end_matches('/')
                    .to_string()
            });
            let edited = event.matched_paths();
            Instructions {
                codex: unread_instruction_files(&StdFs, project, &edited, &working_dir),
                claude: ClaudeInstructions {
                    edit: unloaded_by_claude_code(&StdFs, project, &edited, false),
                    shell: unloaded_by_claude_code(&StdFs, project, &edited, true),
                },
            }
        }
        _ => Instructions::default(),
    };
    let mut failed = false;
    match args.render {
        Some(host) => match super::render::render(&root, &preview, host) {
            Some(Ok(text)) => crate::output::print(&text)?,
            Some(Err(message)) => {
                crate::output::warn(format_args!("rule-fairy: {message}"));
                failed = true;
            }
            None => {
                crate::output::warn(format_args!(
                    "rule-fairy: no rule fires for this event, so nothing would be delivered"
                ));
            }
        },
        None if args.json => crate::output::print_line(&json(explanation, &instructions))?,
        None => crate::output::print(&format!(
            "{}{}",
            human(explanation, args),
            unread_instructions(&instructions)
        ))?,
    }
    // Problems that touched this answer: unreadable rules, invalid globs reached.
    for finding in project.rules.findings.iter().filter(|f| f.is_error()) {
        let place = display_path(&root, &finding.place.to_string());
        crate::output::warn(format_args!(
            "rule-fairy: {place}: {} (this rule was left out)",
            finding.message
        ));
        failed = true;
    }
    for error in &explanation.errors {
        crate::output::warn(format_args!("rule-fairy: {}", located(&root, error)));
        failed = true;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

pub(crate) fn located(root: &str, error: &rule_fairy_engine::Error) -> String {
    match &error.place {
        Some(place) => format!("{}: {}", display_path(root, &place.to_string()), error.kind),
        None => error.kind.to_string(),
    }
}

/// The instruction files the hosts do not load themselves that the edited
/// paths bring (behaviour §5.2.2, §5.3).
#[derive(Default, serde::Serialize)]
struct Instructions {
    /// Those Codex did not read below the working directory.
    codex: Vec<String>,
    claude: ClaudeInstructions,
}

/// Those Claude Code did not load: for an edit, and for a shell change.
#[derive(Default, serde::Serialize)]
struct ClaudeInstructions {
    edit: Vec<String>,
    shell: Vec<String>,
}

impl ClaudeInstructions {
    fn is_empty(&self) -> bool {
        self.edit.is_empty() && self.shell.is_empty()
    }
}

/// The explanation as JSON, with `instructions` (the instruction files
/// Codex did not read, behaviour §5.3) and `claudeInstructions` (those
/// Claude Code did not load, §5.2.2) after its own fields when there are
/// any.
fn json(explanation: &Explanation, instructions: &Instructions) -> String {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct WithInstructions<'a> {
        #[serde(flatten)]
        explanation: &'a Explanation,
        #[serde(skip_serializing_if = "<[String]>::is_empty")]
        instructions: &'a [String],
        #[serde(skip_serializing_if = "ClaudeInstructions::is_empty")]
        claude_instructions: &'a ClaudeInstructions,
    }
    serde_json::to_string(&WithInstructions {
        explanation,
        instructions: &instructions.codex,
        claude_instructions: &instructions.claude,
    })
    .expect("explanations serialise")
}

/// The instruction files the hosts do not load that the edit brings.
fn unread_instructions(instructions: &Instructions) -> String {
    let mut out = String::new();
    let mut list = |host: &str, files: &[String], why: &str| {
        if files.is_empty() {
            return;
        }
        let plural = if files.len() == 1 { "" } else { "s" };
        out.push_str(&format!(
            "{host} it also brings {} instruction file{plural} {why}:\n",
            files.len()
        ));
        for path in files {
            out.push_str(&format!("  {path}\n"));
        }
    };
    let claude = &instructions.claude;
    let shell_only: Vec<String> = claude
        .shell
        .iter()
        .filter(|path| !claude.edit.contains(path))
        .cloned()
        .collect();
    list(
        "In Codex",
        &instructions.codex,
        "Codex did not read below the working directory",
    );
    list("In Claude Code", &claude.edit, "Claude Code does not load");
    list(
        "Changed by a shell command in Claude Code,",
        &shell_only,
        "Claude Code loads only for its own tools",
    );
    out
}

fn human(explanation: &Explanation, args: &ExplainArgs) -> String {
    let count = explanation.rules.len();
    let subject = match explanation.event {
        Fired::Prompt => "This prompt".to_string(),
        Fired::Edit if args.path.len() == 1 => format!("Editing {}", args.path[0]),
        _ => format!("Editing these {} paths", args.path.len()),
    };
    let mut out = if count == 0 {
        format!("{subject} selects no rule.\n")
    } else {
        format!(
            "{subject} selects {count} rule{}:\n",
            if count == 1 { "" } else { "s" }
        )
    };
    let width = explanation
        .rules
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0);
    for rule in &explanation.rules {
        out.push_str(&format!("  {:width$}  {}\n", rule.name, why(rule)));
    }
    // After the rules it lists, so each list stands under its own heading.
    out.push_str(&requests(explanation));
    out
}

/// The requestable rules the index offers with a prompt, and the mentions
/// that name no one rule (behaviour §9).
fn requests(explanation: &Explanation) -> String {
    let mut out = String::new();
    let offered = &explanation.requestable;
    if !offered.is_empty() {
        out.push_str(&format!(
            "The index offers {} requestable rule{} (the model reads a file to get its rule):\n",
            offered.len(),
            if offered.len() == 1 { "" } else { "s" }
        ));
        for rule in offered {
            out.push_str(&format!(
                "  {}  {}: {}\n",
                rule.name, rule.file, rule.description
            ));
        }
    }
    for hint in &explanation.hints {
        match hint.candidates.as_slice() {
            [] => out.push_str(&match &hint.nearest {
                Some(near) => format!(
                    "hint: {} names no rule; did you mean {near}?\n",
                    hint.mention
                ),
                None => format!("hint: {} names no rule\n", hint.mention),
            }),
            candidates => out.push_str(&format!(
                "hint: {} could mean {}; write more of its path\n",
                hint.mention,
                candidates.join(", ")
            )),
        }
    }
    out
}

/// The reasons a rule fired, its other conditions held (✓) or failed (✗),
/// and whether it is delivered every turn.
fn why(rule: &FiredRule) -> String {
    let mut parts: Vec<String> = rule.reasons.iter().map(describe).collect();
    parts.extend(rule.conditions.iter().map(describe_condition));
    let mut line = parts.join("; ");
    if rule.delivery.is_some() {
        line.push_str(" (ephemeral: delivered every turn it holds)");
    }
    line
}
