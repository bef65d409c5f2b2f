//! The facts rule conditions are tested against in a Claude Code session,
//! made from what the mod gathers: the model (`$.session.model()`), the
//! platform and the agent the session runs as (`$.session.info()`), the CI
//! variables (`$.env.get`), the tools the model can call (`$.tool.list()`),
//! the branch (`git symbolic-ref`) and the slash command a prompt runs.
//! Project tags come from the marker files the mod puts into the workspace.
//! The mod asks only for the facts some rule tests
//! ([`crate::matching::facts::wanted_facts`]): most projects declare no
//! condition, and their events cost nothing more.

use serde::Deserialize;

use crate::matching::facts::{branch_from_symbolic_ref, ci_from_env, os_name, Facts, CI_VARIABLES};

/// What the mod gathered for one event. A field left out is a fact the mod
/// did not ask for or the host could not tell: a condition on it does not
/// hold.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "ts", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct HostFacts {
    /// The main loop's model, as `$.session.model()` names it.
    #[serde(default)]
    pub model: Option<String>,
    /// `$.session.info().platform`: `macos`, `windows`, `wsl`, `linux` or
    /// `unknown`.
    #[serde(default)]
    pub platform: Option<String>,
    /// The value of each of [`CI_VARIABLES`], in its order (`None`: unset);
    /// empty when they were not read. A list rather than a map keeps the
    /// mod's engine small.
    #[serde(default)]
    pub ci_env: Vec<Option<String>>,
    /// What `git symbolic-ref --quiet --short HEAD` printed, when it
    /// succeeded.
    #[serde(default)]
    pub branch: Option<String>,
    /// The agent the session runs as (`claude --agent NAME`).
    #[serde(default)]
    pub agent: Option<String>,
    /// The tools the model can call.
    #[serde(default)]
    pub tools: Option<Vec<String>>,
    /// The slash command a prompt runs, without its slash (`e.command.name`);
    /// without it the prompt's first word decides.
    #[serde(default)]
    pub command: Option<String>,
}

impl HostFacts {
    /// The facts conditions are tested against; `project` is the project's
    /// tags when they were gathered.
    pub fn facts(&self, project: Option<Vec<String>>) -> Facts {
        let ci_env = &self.ci_env;
        Facts {
            command: self.command.as_deref().map(|name| format!("/{name}")),
            project,
            os: self.platform.as_deref().and_then(os_name),
            ci: (!ci_env.is_empty()).then(|| {
                ci_from_env(|name| {
                    let at = CI_VARIABLES.iter().position(|n| *n == name)?;
                    ci_env.get(at).cloned().flatten()
                })
            }),
            branch: self.branch.as_deref().and_then(branch_from_symbolic_ref),
            model: self.model.clone(),
            agent: self.agent.clone(),
            tools: self.tools.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gathered_facts_become_the_facts_conditions_read() {
        let host: HostFacts = serde_json::from_str(
            r#"{"model": "claude-opus-5-5", "platform": "macos", "ciEnv": [null, null, null, "true"],
                "branch": "feature/x\n", "tools": ["Edit", "Bash"], "command": "plan"}"#,
        )
        .unwrap();
        let facts = host.facts(Some(vec!["node".into()]));
        assert_eq!(
            facts,
            Facts {
                command: Some("/plan".into()),
                project: Some(vec!["node".into()]),
                os: Some("darwin".into()),
                ci: Some(true),
                branch: Some("feature/x".into()),
                model: Some("claude-opus-5-5".into()),
                agent: None,
                tools: Some(vec!["Edit".into(), "Bash".into()]),
            }
        );
        // Nothing gathered: every fact unknown, none guessed.
        assert_eq!(HostFacts::default().facts(None), Facts::default());
        // The CI variables read and none set: not a CI run, which is a fact.
        let read: HostFacts = serde_json::from_str(r#"{"ciEnv": [null]}"#).unwrap();
        assert_eq!(read.facts(None).ci, Some(false));
        assert!(serde_json::from_str::<HostFacts>(r#"{"modle": "x"}"#).is_err());
    }
}
