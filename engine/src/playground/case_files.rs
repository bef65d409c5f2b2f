//! Which files of a picked folder a playground case takes: the
//! configuration and the rule files it names. A folder may be a whole
//! repository (dependencies, build output), so only these are read at
//! first; the documents they import follow, named by
//! [`crate::playground::case::Case::missing_documents`].

use crate::base::fs::MemoryFs;
use crate::base::paths;
use crate::config::{Config, CONFIG_FILE};
use crate::playground::case::ROOT;
use crate::rules::discovery::scan_rule_files;

/// The project-relative paths of `listing` that hold rules, under the
/// configuration `config` (the text of `rule-fairy.edn`, when the folder
/// has one), in the order rules are read; `rule-fairy.edn` first when
/// present. A configuration that does not parse still brings itself, so
/// its error shows, and the default rule directories.
///
/// ```
/// use rule_fairy_engine::rule_files_in;
/// let listing = [".cursor/rules/a.mdc", "node_modules/x/.cursor/rules/b.mdc", "docs/g.md", "rules/c.md"]
///     .map(String::from);
/// assert_eq!(rule_files_in(&listing, None), [".cursor/rules/a.mdc"]);
/// let edn = r#"{:rules {:dirs ["rules"] :extensions [".md"]}}"#;
/// assert_eq!(rule_files_in(&listing, Some(edn)), ["rule-fairy.edn", "rules/c.md"]);
/// ```
pub fn rule_files_in(listing: &[String], config: Option<&str>) -> Vec<String> {
    // Contents do not decide where rules are, so the listing is mounted
    // empty: a large folder costs only its paths.
    let mut fs = MemoryFs::from_files(ROOT, listing.iter().map(|path| (path.as_str(), "")));
    let has_config = config.is_some() || listing.iter().any(|path| path == CONFIG_FILE);
    if let Some(text) = config {
        fs.add_file(&paths::join(ROOT, CONFIG_FILE), text);
    }
    let config = Config::load(&fs, ROOT).unwrap_or_default();
    let Ok(source) = config
        .rules_source(ROOT)
        .or_else(|_| Config::default().rules_source(ROOT))
    else {
        return Vec::new();
    };
    let (found, _) = scan_rule_files(&fs, &source);
    let rules = found
        .files
        .into_iter()
        .filter_map(|file| paths::strip_base(&file.path, ROOT).map(str::to_string));
    has_config
        .then(|| CONFIG_FILE.to_string())
        .into_iter()
        .chain(rules)
        .collect()
}
