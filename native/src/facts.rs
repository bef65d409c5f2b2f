//! The facts rule conditions are tested against, for `explain`: taken from
//! the command line, else from the machine and git where they exist.

use std::collections::BTreeMap;
use std::process::Command;

use clap::Args;
use rule_fairy_engine::normalize_os;
use rule_fairy_engine::paths;
use rule_fairy_engine::Project;
use rule_fairy_engine::{branch_from_symbolic_ref, ci_from_env, os_name, project_tags, Facts};

use crate::stdfs::StdFs;

#[derive(Args, Debug, Default)]
pub(crate) struct FactArgs {
    /// The model in use, for `model:` conditions.
    #[arg(long, value_name = "MODEL")]
    model: Option<String>,
    /// The agent in use, for `agent:` conditions.
    #[arg(long, value_name = "AGENT")]
    agent: Option<String>,
    /// An available tool, for `tools:` conditions (repeat for several).
    #[arg(long = "tool", value_name = "TOOL")]
    tools: Vec<String>,
    /// The prompt's slash command (default: the prompt's first word when it
    /// starts with `/`).
    #[arg(long, value_name = "COMMAND")]
    command: Option<String>,
    /// The branch (default: the project's current git branch).
    #[arg(long, value_name = "BRANCH")]
    branch: Option<String>,
    /// The operating system: linux, darwin, win32 (default: this machine's).
    #[arg(long, value_name = "OS")]
    os: Option<String>,
    /// Whether this is a CI run (default: from CI variables).
    #[arg(long, value_name = "BOOL")]
    ci: Option<bool>,
    /// Content for `fileContains`: PATH=FILE reads FILE as the content of
    /// the edited PATH (default: the file at PATH in the project).
    #[arg(long = "file-content", value_name = "PATH=FILE", value_parser = parse_content)]
    file_content: Vec<(String, String)>,
}

fn parse_content(text: &str) -> Result<(String, String), String> {
    let (path, file) = text.split_once('=').ok_or("expected PATH=FILE")?;
    Ok((paths::normalize_for_match(path), file.to_string()))
}

/// This machine's operating system in the names rules use (the engine's
/// [`os_name`]).
pub(crate) fn machine_os() -> Option<String> {
    os_name(std::env::consts::OS)
}

/// The project's git branch; none when detached or outside git.
pub(crate) fn git_branch(root: &str) -> Option<String> {
    let out = Command::new("git")
        .args(["symbolic-ref", "--quiet", "--short", "HEAD"])
        .current_dir(root)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    branch_from_symbolic_ref(&String::from_utf8(out.stdout).ok()?)
}

/// The facts this machine can tell about a session in `project`, with the
/// model, agent and tools the host reported. Git runs only when a rule has
/// a `branch` condition (it costs more than the rest of a prompt event),
/// and the project's marker files are looked for only when one has a
/// `project` condition, as in the Claude Code mod.
pub(crate) fn host_facts(
    project: &Project,
    model: Option<String>,
    agent: Option<String>,
    tools: Option<Vec<String>>,
) -> Facts {
    let wanted = project.index.wanted_facts();
    let wants_branch = wanted.contains(&"branch");
    Facts {
        command: None,
        project: wanted
            .contains(&"project")
            .then(|| project_tags(&StdFs, &project.root)),
        os: machine_os(),
        ci: Some(ci_from_env(|name| std::env::var(name).ok())),
        branch: wants_branch.then(|| git_branch(&project.root)).flatten(),
        model,
        agent,
        tools,
    }
}

impl FactArgs {
    /// The facts for an event in `project`: the flags, else the host's.
    pub(crate) fn facts(&self, project: &Project) -> Facts {
        let mut facts = host_facts(project, self.model.clone(), self.agent.clone(), None);
        facts.command = self.command.clone();
        if let Some(os) = &self.os {
            facts.os = Some(normalize_os(os));
        }
        if let Some(ci) = self.ci {
            facts.ci = Some(ci);
        }
        if let Some(branch) = &self.branch {
            facts.branch = Some(branch.clone());
        }
        if !self.tools.is_empty() {
            facts.tools = Some(self.tools.clone());
        }
        facts
    }

    /// Each path's content for `fileContains`: from `--file-content`, else
    /// the file in the project; read once.
    pub(crate) fn contents(
        &self,
        root: &str,
        edited: &[String],
    ) -> Result<Vec<Option<String>>, String> {
        let given: BTreeMap<&str, &str> = self
            .file_content
            .iter()
            .map(|(p, f)| (p.as_str(), f.as_str()))
            .collect();
        edited
            .iter()
            .map(|path| match given.get(path.as_str()) {
                Some(file) => std::fs::read_to_string(file)
                    .map(Some)
                    .map_err(|e| format!("--file-content {path}={file}: {e}")),
                None => Ok(std::fs::read_to_string(paths::join(root, path)).ok()),
            })
            .collect()
    }
}
