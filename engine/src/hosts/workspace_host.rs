//! Which host an in-memory workspace serves: Claude Code (the mod) or
//! opencode (its plugin, over the same workspace). The three things that
//! differ between them are decided here (behaviour §5.2.4): which rule
//! formats are read without `:formats` naming them, whether a global rules
//! directory is read, and which instruction files the host loads itself.

use crate::config::formats::{Format, GlobalRules};
use crate::config::RulesSource;
use crate::rules::instructions::HostLoading;

/// The host a workspace serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WorkspaceHost {
    /// Claude Code, through the mod: the default.
    #[default]
    ClaudeCode,
    /// opencode, through its plugin.
    Opencode,
}

impl WorkspaceHost {
    /// The host as people call it, as [`WorkspaceHost::named`] takes it.
    pub fn name(self) -> &'static str {
        match self {
            WorkspaceHost::ClaudeCode => "Claude Code",
            WorkspaceHost::Opencode => "opencode",
        }
    }

    /// The host called `name`; an unknown one is an error naming those
    /// there are.
    ///
    /// ```
    /// use rule_fairy_engine::claude::WorkspaceHost;
    /// assert_eq!(WorkspaceHost::named("opencode"), Ok(WorkspaceHost::Opencode));
    /// assert!(WorkspaceHost::named("vim").unwrap_err().contains("\"Claude Code\""));
    /// ```
    pub fn named(name: &str) -> Result<WorkspaceHost, String> {
        [WorkspaceHost::ClaudeCode, WorkspaceHost::Opencode]
            .into_iter()
            .find(|host| host.name() == name)
            .ok_or_else(|| {
                format!("Unknown host {name:?}: a workspace serves \"Claude Code\" or \"opencode\"")
            })
    }

    /// Whether the host sends the rules on per-turn facts apart, with the
    /// turn's model calls only (opencode's transient messages), rather than
    /// with the rest of the delivery (behaviour §5.2.4).
    pub(crate) fn per_turn_apart(self) -> bool {
        matches!(self, WorkspaceHost::Opencode)
    }

    /// Which instruction files the host loads itself.
    pub(crate) fn loading(self) -> HostLoading {
        match self {
            WorkspaceHost::ClaudeCode => HostLoading::ClaudeCode,
            WorkspaceHost::Opencode => HostLoading::Opencode,
        }
    }

    /// Where the host reads rules from, given what the configuration says:
    /// for opencode, its own layout whether `:formats` lists it or not (a
    /// project using opencode-rules works as it is), and the global rules
    /// directory after the project's. Claude Code reads the configuration's
    /// sources only.
    pub(crate) fn rules_source(
        self,
        mut source: RulesSource,
        global: Option<&GlobalRules>,
    ) -> RulesSource {
        if self == WorkspaceHost::Opencode {
            if !source.formats.contains(&Format::Opencode) {
                source.formats.push(Format::Opencode);
            }
            source.global = global.cloned();
        }
        source
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;
    use crate::config::Config;

    fn configured(edn: &str) -> RulesSource {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/rule-fairy.edn", edn);
        Config::load(&fs, "/p").unwrap().rules_source("/p").unwrap()
    }

    #[test]
    fn hosts_are_named_as_people_call_them() {
        for host in [WorkspaceHost::ClaudeCode, WorkspaceHost::Opencode] {
            assert_eq!(WorkspaceHost::named(host.name()), Ok(host));
        }
        assert_eq!(WorkspaceHost::default(), WorkspaceHost::ClaudeCode);
        for unknown in ["", "claude", "OpenCode", "opencode "] {
            let error = WorkspaceHost::named(unknown).unwrap_err();
            assert!(error.starts_with("Unknown host"), "{error}");
        }
    }

    #[test]
    fn opencode_reads_its_layout_and_the_global_rules_claude_code_does_not() {
        let global = GlobalRules::new("/h/.config/opencode/rules", Some("/h")).unwrap();
        let plain = configured("{}");
        let claude = WorkspaceHost::ClaudeCode.rules_source(plain.clone(), Some(&global));
        assert_eq!(claude, plain);
        let opencode = WorkspaceHost::Opencode.rules_source(plain.clone(), Some(&global));
        assert_eq!(opencode.formats, vec![Format::Opencode]);
        assert_eq!(opencode.dirs, plain.dirs, "Cursor's folder stays read");
        assert_eq!(opencode.global, Some(global.clone()));
        // Listed already: not twice, and the configured order kept.
        let listed = configured("{:formats [:opencode :claude]}");
        let opencode = WorkspaceHost::Opencode.rules_source(listed, None);
        assert_eq!(opencode.formats, vec![Format::Opencode, Format::Claude]);
        assert_eq!(opencode.global, None);
    }
}
