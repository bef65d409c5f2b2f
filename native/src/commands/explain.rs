//! `rule-fairy explain`: the rules an event selects and why.

use std::process::ExitCode;

use rule_fairy_engine::explain::{explain_paths, explain_prompt, Event, Explanation, Reason};
use rule_fairy_engine::project::Project;

use crate::location::{display_path, event_path, project_root};
use crate::stdfs::StdFs;
use crate::ExplainArgs;

pub fn run(args: &ExplainArgs) -> Result<ExitCode, String> {
    let root = project_root(args.project.as_deref())?;
    let project = Project::load(&StdFs, &root).map_err(|e| located(&root, &e))?;
    if let Some(host) = args.render {
        return super::render::run(&project, args, host);
    }
    let explanation = match &args.prompt {
        Some(prompt) => explain_prompt(&project.index, prompt),
        None => {
            let paths: Vec<String> = args.path.iter().map(|p| event_path(&root, p)).collect();
            explain_paths(&project.index, &paths)
        }
    };
    if args.json {
        println!(
            "{}",
            serde_json::to_string(&explanation).expect("explanations serialise")
        );
    } else {
        print!("{}", human(&explanation, args));
    }
    // Problems that touched this answer: unreadable rules, invalid globs reached.
    let mut failed = false;
    for finding in project.rules.findings.iter().filter(|f| f.is_error()) {
        eprintln!(
            "rule-fairy: {}: {} (this rule was left out)",
            display_path(&root, &finding.place.to_string()),
            finding.message
        );
        failed = true;
    }
    for error in &explanation.errors {
        eprintln!("rule-fairy: {}", located(&root, error));
        failed = true;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

pub fn located(root: &str, error: &rule_fairy_engine::Error) -> String {
    match &error.place {
        Some(place) => format!(
            "{}: {}",
            display_path(root, &place.to_string()),
            error.message
        ),
        None => error.message.clone(),
    }
}

fn human(explanation: &Explanation, args: &ExplainArgs) -> String {
    let count = explanation.rules.len();
    let subject = match explanation.event {
        Event::Prompt => "This prompt".to_string(),
        Event::Edit if args.path.len() == 1 => format!("Editing {}", args.path[0]),
        Event::Edit => format!("Editing these {} paths", args.path.len()),
    };
    if count == 0 {
        return format!("{subject} selects no rule.\n");
    }
    let mut out = format!(
        "{subject} selects {count} rule{}:\n",
        if count == 1 { "" } else { "s" }
    );
    let width = explanation
        .rules
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0);
    for rule in &explanation.rules {
        let reasons: Vec<String> = rule.reasons.iter().map(describe).collect();
        out.push_str(&format!("  {:width$}  {}\n", rule.name, reasons.join("; ")));
    }
    out
}

fn describe(reason: &Reason) -> String {
    match reason {
        Reason::AlwaysApply => "alwaysApply".to_string(),
        Reason::Keywords { keywords } => {
            let quoted: Vec<String> = keywords.iter().map(|k| format!("\"{k}\"")).collect();
            format!("keyword {}", quoted.join(", "))
        }
        Reason::Glob { glob, path } => format!("glob `{glob}` on {path}"),
    }
}
