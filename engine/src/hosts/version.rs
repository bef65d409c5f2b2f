//! The plugin's version against the program's (behaviour §10.5). The
//! plugin (the Claude Code mod, the Codex hooks) and the `rule-fairy`
//! program are installed apart, so they can drift; this says whether they
//! did, and what the person is told: both versions and how to bring them
//! together. Each host learns the two versions its own way, once per
//! session, and tells the line as it tells its other problems.

use std::cmp::Ordering;

/// This engine's version: the program's when it runs natively, the
/// plugin's when it is the mod's (the manifests carry the same version as
/// the crates, and the mod's engine is built from the plugin's checkout).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The longest version compared: a manifest's `version` is outside input.
const MAX_VERSION_CHARS: usize = 64;

/// The host a plugin runs in, for the words that update it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluginHost {
    /// The Claude Code plugin (the mod).
    Claude,
    /// The Codex plugin (the hooks).
    Codex,
}

/// The plugin's id when it is installed from this repository's
/// marketplace.
pub const PLUGIN_ID: &str = "rule-fairy@rule-fairy";

/// How to bring the program to `version`: npm first, cargo the other way
/// (from git, the newest).
///
/// ```
/// use rule_fairy_engine::version::program_install;
/// assert_eq!(
///     program_install("0.2.0"),
///     "npm install -g rule-fairy@0.2.0 (or with cargo: cargo install --locked --force --git https://github.com/rule-fairy/rule-fairy rule-fairy)"
/// );
/// ```
pub fn program_install(version: &str) -> String {
    format!(
        "npm install -g rule-fairy@{version} (or with cargo: cargo install --locked --force --git https://github.com/rule-fairy/rule-fairy rule-fairy)"
    )
}

/// How to update the plugin installed as `id` (`<name>@<marketplace>`)
/// in `host`.
///
/// ```
/// use rule_fairy_engine::version::{plugin_update, PluginHost, PLUGIN_ID};
/// assert_eq!(
///     plugin_update(PluginHost::Claude, PLUGIN_ID),
///     "claude plugin marketplace update rule-fairy, then claude plugin update rule-fairy@rule-fairy"
/// );
/// assert_eq!(
///     plugin_update(PluginHost::Codex, "rule-fairy@mine"),
///     "codex plugin marketplace upgrade mine, codex plugin add rule-fairy@mine, then rule-fairy codex trust"
/// );
/// ```
pub fn plugin_update(host: PluginHost, id: &str) -> String {
    let marketplace = id.split_once('@').map_or("rule-fairy", |(_, m)| m);
    match host {
        PluginHost::Claude => format!(
            "claude plugin marketplace update {marketplace}, then claude plugin update {id}"
        ),
        PluginHost::Codex => format!(
            "codex plugin marketplace upgrade {marketplace}, codex plugin add {id}, then rule-fairy codex trust"
        ),
    }
}

/// What to do when the plugin is `plugin` and the program `program`:
/// bring the program to the plugin's version, or, unless the plugin is
/// the newer one, update the plugin with `update` (see [`plugin_update`]).
///
/// ```
/// use rule_fairy_engine::version::version_fix;
/// assert_eq!(
///     version_fix("0.3.0", "0.2.0", "UPDATE"),
///     "bring the program to the plugin's version: npm install -g rule-fairy@0.3.0 (or with cargo: cargo install --locked --force --git https://github.com/rule-fairy/rule-fairy rule-fairy)"
/// );
/// assert!(version_fix("0.2.0", "0.3.0", "UPDATE").ends_with("; or update the plugin: UPDATE"));
/// ```
pub fn version_fix(plugin: &str, program: &str, update: &str) -> String {
    let program_fix = format!(
        "bring the program to the plugin's version: {}",
        program_install(plugin)
    );
    match order(plugin, program) {
        // Updating the plugin would only widen the gap.
        Some(Ordering::Greater) => program_fix,
        _ => format!("{program_fix}; or update the plugin: {update}"),
    }
}

/// The person's line when the plugin that runs the program (`plugin`, as
/// its manifest or its engine says) has another version than the program
/// (`program`, the one at `program_at` when the host knows where it
/// is); `None` when they are the same, or when `plugin` is not a
/// version (empty, too long, or with characters no version has: nothing
/// is compared, and `rule-fairy doctor` reports the manifest). The line
/// has no prefix: each host puts its own (`Rule Fairy:`, `rule-fairy:`).
///
/// ```
/// use rule_fairy_engine::version::{version_mismatch, PluginHost};
/// assert_eq!(version_mismatch(PluginHost::Codex, "0.1.0", "0.1.0", None), None);
/// let line = version_mismatch(PluginHost::Codex, "0.2.0", "0.1.0", Some("/usr/local/bin/rule-fairy")).unwrap();
/// assert!(line.starts_with("the plugin is 0.2.0 but the rule-fairy program at /usr/local/bin/rule-fairy is 0.1.0; bring the program to the plugin's version: npm install -g rule-fairy@0.2.0"));
/// assert_eq!(version_mismatch(PluginHost::Codex, "0.2.0\nx", "0.1.0", None), None);
/// ```
pub fn version_mismatch(
    host: PluginHost,
    plugin: &str,
    program: &str,
    program_at: Option<&str>,
) -> Option<String> {
    let plugin = plugin.trim();
    if plugin == program.trim() || !is_version(plugin) {
        return None;
    }
    // Which program: an older one earlier on PATH is the usual cause.
    let at = program_at.map_or_else(String::new, |path| format!(" at {path}"));
    Some(format!(
        "the plugin is {plugin} but the rule-fairy program{at} is {}; {}",
        program.trim(),
        version_fix(plugin, program.trim(), &plugin_update(host, PLUGIN_ID))
    ))
}

/// Whether `text` can be a version: 1 to 64 letters, digits, `.`, `+`, `-`.
fn is_version(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= MAX_VERSION_CHARS
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-'))
}

/// Which of two versions is newer, when both are `MAJOR.MINOR.PATCH`
/// (a pre-release or build suffix makes the order unknown unless the
/// numbers already decide it).
fn order(a: &str, b: &str) -> Option<Ordering> {
    let (a_numbers, a_plain) = numbers(a)?;
    let (b_numbers, b_plain) = numbers(b)?;
    match a_numbers.cmp(&b_numbers) {
        Ordering::Equal if !(a_plain && b_plain) => None,
        decided => Some(decided),
    }
}

/// `MAJOR.MINOR.PATCH` as numbers, and whether nothing followed them.
fn numbers(version: &str) -> Option<([u64; 3], bool)> {
    let core_end = version.find(['-', '+']).unwrap_or(version.len());
    let mut parts = version[..core_end].split('.');
    let mut numbers = [0; 3];
    for number in &mut numbers {
        *number = parts.next()?.parse().ok()?;
    }
    if parts.next().is_some() {
        return None;
    }
    Some((numbers, core_end == version.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_version_is_no_mismatch() {
        assert_eq!(
            version_mismatch(PluginHost::Claude, VERSION, VERSION, None),
            None
        );
        assert_eq!(
            version_mismatch(PluginHost::Claude, " 1.0.0\n", "1.0.0", None),
            None
        );
    }

    #[test]
    fn a_mismatch_names_both_versions_and_both_fixes() {
        let line = version_mismatch(PluginHost::Claude, "0.1.0", "0.2.0", None).unwrap();
        assert_eq!(
            line,
            "the plugin is 0.1.0 but the rule-fairy program is 0.2.0; bring the program to the plugin's version: npm install -g rule-fairy@0.1.0 (or with cargo: cargo install --locked --force --git https://github.com/rule-fairy/rule-fairy rule-fairy); or update the plugin: claude plugin marketplace update rule-fairy, then claude plugin update rule-fairy@rule-fairy"
        );
        assert!(!line.contains("Rule Fairy:") && !line.contains("rule-fairy: "));
    }

    #[test]
    fn the_program_is_named_where_the_host_knows_it() {
        let line = version_mismatch(
            PluginHost::Codex,
            "0.2.0",
            "0.1.0",
            Some("/opt/old/bin/rule-fairy"),
        )
        .unwrap();
        assert!(
            line.starts_with(
                "the plugin is 0.2.0 but the rule-fairy program at /opt/old/bin/rule-fairy is 0.1.0; "
            ),
            "{line}"
        );
    }

    #[test]
    fn a_newer_plugin_is_not_told_to_update() {
        let line = version_mismatch(PluginHost::Codex, "1.10.0", "1.9.3", None).unwrap();
        assert!(!line.contains("update the plugin"), "{line}");
        // Unknown order: both ways.
        let line = version_mismatch(PluginHost::Codex, "1.0.0-rc.1", "1.0.0", None).unwrap();
        assert!(
            line.contains("codex plugin marketplace upgrade rule-fairy"),
            "{line}"
        );
    }

    #[test]
    fn what_is_no_version_is_not_compared() {
        for plugin in [
            "",
            "  ",
            "1.0.0; rm -rf /",
            "1.0.0\n[rule-fairy x]",
            &"9".repeat(65),
        ] {
            assert_eq!(
                version_mismatch(PluginHost::Codex, plugin, "0.1.0", None),
                None,
                "{plugin:?}"
            );
        }
        assert!(version_mismatch(PluginHost::Codex, &"9".repeat(64), "0.1.0", None).is_some());
    }

    #[test]
    fn versions_are_ordered_by_their_numbers() {
        assert_eq!(order("0.10.0", "0.9.9"), Some(Ordering::Greater));
        assert_eq!(order("1.0.0", "1.0.0+build"), None);
        assert_eq!(order("2.0.0-rc.1", "1.0.0"), Some(Ordering::Greater));
        assert_eq!(order("1.0", "1.0.0"), None);
        assert_eq!(order("1.0.0.0", "1.0.0"), None);
        assert_eq!(order("x", "1.0.0"), None);
    }
}
