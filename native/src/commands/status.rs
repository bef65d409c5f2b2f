//! `rule-fairy status`: what each session has received (behaviour §10.2),
//! read from the state files both hosts keep under `.rule-fairy/`. It only
//! reads: a file it cannot use is reported and the others are shown.

use std::path::Path;
use std::process::ExitCode;

use rule_fairy_engine::status::{
    estimated_tokens, upfront_cost, SessionHost, SessionReport, UpfrontCost,
};
use rule_fairy_engine::{describe, session_id_problem, Project};
use serde::Serialize;

use crate::codex::STATE_CAP;
use crate::location::project_root;
use crate::owned_dir;
use crate::stdfs::StdFs;
use crate::StatusArgs;

/// One state file found.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Session {
    host: SessionHost,
    /// The session's id, as its file is named.
    id: String,
    /// The subagent whose record it is (Claude Code keeps one per agent).
    #[serde(skip_serializing_if = "Option::is_none")]
    agent: Option<String>,
    /// The file, relative to the project.
    file: String,
    #[serde(flatten)]
    report: SessionReport,
}

/// A file or directory that could not be read, and why.
#[derive(Serialize)]
struct Unread {
    file: String,
    problem: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status {
    project: String,
    sessions: Vec<Session>,
    /// What delivering every rule at session start would have cost, for
    /// comparison with each session's totals.
    every_rule_at_start: Upfront,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unread: Vec<Unread>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Upfront {
    #[serde(flatten)]
    cost: UpfrontCost,
    estimated_tokens: u64,
}

pub(crate) fn run(args: &StatusArgs) -> Result<ExitCode, String> {
    let root = project_root(args.project.as_deref())?;
    let mut unread = Vec::new();
    let mut sessions = Vec::new();
    for host in SessionHost::ALL {
        if args.host.is_some_and(|wanted| wanted.host() != host) {
            continue;
        }
        read_sessions(Path::new(&root), host, &mut sessions, &mut unread);
    }
    if let Some(id) = &args.session {
        sessions.retain(|s| s.id == *id);
    }
    // Newest first; the same id of both hosts stays two sessions.
    sessions.sort_by_key(|s| std::cmp::Reverse(s.report.saved_at_ms.unwrap_or(0)));
    if args.latest {
        sessions.truncate(1);
    }
    let cost = match Project::load(&StdFs, &root) {
        Ok(project) => upfront_cost(&StdFs, &project),
        Err(e) => {
            unread.push(Unread {
                file: rule_fairy_engine::CONFIG_FILE.to_string(),
                problem: format!("the rules could not be loaded: {e}"),
            });
            UpfrontCost::default()
        }
    };
    let status = Status {
        project: root,
        sessions,
        every_rule_at_start: Upfront {
            cost,
            estimated_tokens: estimated_tokens(cost.chars),
        },
        unread,
    };
    if args.json {
        crate::output::print_line(&serde_json::to_string(&status).expect("reports serialise"))?;
    } else {
        crate::output::print(&human(&status, args.session.as_deref()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The state files of `host` under `root`, each read as a report; what
/// cannot be read goes to `unread`.
fn read_sessions(
    root: &Path,
    host: SessionHost,
    sessions: &mut Vec<Session>,
    unread: &mut Vec<Unread>,
) {
    let parts = [".rule-fairy", host.name()];
    let shown_dir = parts.join("/");
    let dir = match owned_dir::existing(root, &parts) {
        Ok(Some(dir)) => dir,
        Ok(None) => return,
        Err(problem) => {
            unread.push(Unread {
                file: shown_dir,
                problem,
            });
            return;
        }
    };
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) => {
            unread.push(Unread {
                file: shown_dir,
                problem: format!("cannot list it: {e}"),
            });
            return;
        }
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    for name in names {
        let file = format!("{shown_dir}/{name}");
        let stem = name.trim_end_matches(".json");
        let (id, agent) = match stem.split_once(".agent-") {
            Some((id, agent)) if host.keeps_claude_state() => {
                (id.to_string(), Some(agent.to_string()))
            }
            _ => (stem.to_string(), None),
        };
        let read = read_state(&dir.join(&name)).and_then(|text| {
            let report = if host.keeps_claude_state() {
                rule_fairy_engine::claude::session_report(&text)
            } else {
                rule_fairy_engine::codex::session_report(&text)
            };
            report.map_err(|why| format!("not a session state: {why}"))
        });
        match read {
            Ok(report) => sessions.push(Session {
                host,
                id,
                agent,
                file,
                report,
            }),
            Err(problem) => unread.push(Unread { file, problem }),
        }
    }
}

/// The text of `host`'s state file of session `id` under `root`; `None`
/// when there is none. An id the hosts' policy refuses names no file.
pub(crate) fn state_text(
    root: &Path,
    host: SessionHost,
    id: &str,
) -> Result<Option<String>, String> {
    if let Some(problem) = session_id_problem(id) {
        return Err(format!("the session id {id:?} {problem}"));
    }
    let Some(dir) = owned_dir::existing(root, &[".rule-fairy", host.name()])? else {
        return Ok(None);
    };
    let file = dir.join(format!("{id}.json"));
    if std::fs::symlink_metadata(&file).is_err() {
        return Ok(None);
    }
    read_state(&file)
        .map(Some)
        .map_err(|e| format!(".rule-fairy/{}/{id}.json: {e}", host.name()))
}

/// A state file's text, read as the hooks read theirs: no link followed,
/// no FIFO opened, at most the hooks' own bound.
fn read_state(file: &Path) -> Result<String, String> {
    let bytes = owned_dir::read_capped(file, STATE_CAP).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
}

fn human(status: &Status, wanted: Option<&str>) -> String {
    let mut out = String::new();
    let upfront = &status.every_rule_at_start;
    if status.sessions.is_empty() {
        match wanted {
            Some(id) => out.push_str(&format!("No session {id} in {}.\n", status.project)),
            None => out.push_str(&format!(
                "No session has been recorded in {} yet: sessions appear here after their first event.\n",
                status.project
            )),
        }
    }
    for session in &status.sessions {
        let host = session.host.title();
        let agent = session
            .agent
            .as_ref()
            .map(|a| format!(", subagent {a}"))
            .unwrap_or_default();
        let saved = session
            .report
            .saved_at_ms
            .map(|at| format!(", last saved {}", utc_time(at)))
            .unwrap_or_default();
        out.push_str(&format!(
            "{host} session {}{agent} ({}{saved})\n",
            session.id, session.file
        ));
        let report = &session.report;
        if report.deliveries.is_empty() {
            out.push_str("  nothing delivered yet\n");
        }
        for delivery in &report.deliveries {
            out.push_str(&format!(
                "  {} {}: {} chars, about {} tokens\n",
                utc_time(delivery.at_ms),
                delivery.event,
                delivery.chars,
                estimated_tokens(delivery.chars)
            ));
            for rule in &delivery.rules {
                // In full, with the path a glob matched: the person asked.
                let why: Vec<String> = rule.reasons.iter().map(describe).collect();
                let why = if why.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", why.join(", "))
                };
                out.push_str(&format!("    {}{why}, {} chars\n", rule.name, rule.chars));
            }
        }
        if !report.deferred.is_empty() {
            out.push_str(&format!("  deferred: {}\n", report.deferred.join(", ")));
        }
        if !report.pending_shell_paths.is_empty() {
            out.push_str(&format!(
                "  pending shell paths: {}\n",
                report.pending_shell_paths.join(", ")
            ));
        }
        for problem in &report.problems {
            let times = if problem.count > 1 {
                format!(
                    " ({} times, last {})",
                    problem.count,
                    utc_time(problem.last_at_ms)
                )
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  problem at {}{times}: {}\n",
                utc_time(problem.first_at_ms),
                problem.text
            ));
        }
        let totals = &report.totals;
        out.push_str(&format!(
            "  total: {} deliveries, {} rules, {} chars, about {} tokens; every rule at session start would be {} rules, {} chars, about {} tokens\n",
            totals.deliveries,
            totals.rules,
            totals.chars,
            report.estimated_tokens,
            upfront.cost.rules,
            upfront.cost.chars,
            upfront.estimated_tokens
        ));
    }
    for unread in &status.unread {
        out.push_str(&format!("not read: {}: {}\n", unread.file, unread.problem));
    }
    out
}

/// `YYYY-MM-DD HH:MM:SS UTC` of epoch milliseconds.
fn utc_time(at_ms: i64) -> String {
    let t = crate::utc::utc(at_ms);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_utc_dates() {
        assert_eq!(utc_time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_time(951_782_400_000), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_time(1_796_299_199_999), "2026-12-03 11:59:59 UTC");
    }
}
