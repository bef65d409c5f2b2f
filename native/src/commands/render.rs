//! `rule-fairy explain --render`: the delivery itself, exactly as a host
//! would carry it.

use std::process::ExitCode;

use rule_fairy_engine::codex_text::EditSource;
use rule_fairy_engine::delivery::{
    claude_delivery, codex_post_edit_text, codex_prompt_text, select_edit_with, select_prompt_with,
    Selection,
};
use rule_fairy_engine::frames::{delivery_id, DeliveryKind, FrameLimits};
use rule_fairy_engine::prefix::Trigger;
use rule_fairy_engine::project::Project;

use super::explain::located;
use crate::location::event_path;
use crate::stdfs::StdFs;
use crate::{ExplainArgs, RenderHost};

pub fn run(project: &Project, args: &ExplainArgs, host: RenderHost) -> Result<ExitCode, String> {
    let facts = args.facts.facts(&project.root);
    let (selection, kind, raw) = match &args.prompt {
        Some(prompt) => (
            select_prompt_with(project, prompt, &facts),
            DeliveryKind::Prompt,
            prompt.clone(),
        ),
        None => {
            let paths: Vec<String> = args
                .path
                .iter()
                .map(|p| event_path(&project.root, p))
                .collect();
            let raw = paths.join("\n");
            (
                select_edit_with(&StdFs, project, &paths, &facts),
                DeliveryKind::Edit,
                raw,
            )
        }
    };
    let mut failed = false;
    for error in &selection.errors {
        eprintln!("rule-fairy: {}", located(&project.root, error));
        failed = true;
    }
    if selection.rules.is_empty() {
        eprintln!("rule-fairy: no rule fires for this event, so nothing would be delivered");
        return Ok(if failed {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        });
    }
    let rendered = match host {
        RenderHost::Codex => codex(project, &selection),
        RenderHost::Claude => claude(project, &selection, &delivery_id(kind, &raw)),
    };
    match rendered {
        Ok(text) => print!("{text}"),
        Err(message) => {
            eprintln!("rule-fairy: {message}");
            failed = true;
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn codex(project: &Project, selection: &Selection) -> Result<String, String> {
    let text = match &selection.trigger {
        Trigger::Prompt(matches) => codex_prompt_text(&StdFs, project, matches),
        _ => codex_post_edit_text(
            &StdFs,
            project,
            &selection.rules,
            &selection.matched_paths,
            EditSource::Tool,
        ),
    };
    text.map(|text| format!("{text}\n"))
        .map_err(|e| located(&project.root, &e.error))
}

fn claude(project: &Project, selection: &Selection, id: &str) -> Result<String, String> {
    let delivery = claude_delivery(
        &StdFs,
        project,
        &selection.trigger,
        &selection.rules,
        id,
        FrameLimits::default(),
    )
    .map_err(|e| located(&project.root, &e.error))?;
    let mut out = String::new();
    let count = delivery.frames.len();
    for (i, frame) in delivery.frames.iter().enumerate() {
        out.push_str(&format!("=== frame {}/{count} ===\n{frame}\n", i + 1));
    }
    for oversized in &delivery.oversized {
        out.push_str(&format!("=== error entry ===\n{}\n", oversized.entry()));
    }
    Ok(out)
}
