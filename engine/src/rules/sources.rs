//! Where a project's rules come from, summed up: each place the rule walk
//! (behaviour §1.2) found rules in, with its format and how many, for a
//! report such as `rule-fairy doctor`'s. The walk decides; this only
//! counts what it found.

use crate::base::error::Result;
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::config::formats::Format;
use crate::config::Config;
use crate::rules::discovery::{java_order, scan_rule_files, RuleFile};

/// What kind of place a [`RuleSource`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// A rules directory at the project root: `:rules :dirs` or a format's
    /// folder (`.claude/rules`).
    Folder,
    /// A nested rules folder below the root (`services/api/.cursor/rules`).
    Nested,
    /// A location that is one file: a legacy root file (`.cursorrules`,
    /// `.windsurfrules`) or Cline's `.clinerules` written as a file.
    File,
}

/// One place rules were found in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSource {
    /// Project-relative, `/`-separated.
    pub place: String,
    /// The dialect its rules are read in.
    pub format: Format,
    /// A folder, a nested folder or one file.
    pub kind: SourceKind,
    /// How many rule files it holds.
    pub rules: usize,
}

/// The places a project's rules come from, sorted by place; a place that
/// holds no rule is not listed. Fails as loading the project does on a
/// broken configuration; duplicate names are counted in each place.
///
/// ```
/// use rule_fairy_engine::{rule_sources, Format, MemoryFs, SourceKind};
/// let mut fs = MemoryFs::new();
/// fs.add_file("/p/rule-fairy.edn", "{:formats [:claude]}")
///     .add_file("/p/.cursor/rules/a.mdc", "A.")
///     .add_file("/p/.cursor/rules/ui/b.mdc", "B.")
///     .add_file("/p/.claude/rules/c.md", "C.")
///     .add_file("/p/.cursorrules", "Legacy.");
/// let sources = rule_sources(&fs, "/p").unwrap();
/// let summary: Vec<_> = sources
///     .iter()
///     .map(|s| (s.place.as_str(), s.format, s.kind, s.rules))
///     .collect();
/// assert_eq!(
///     summary,
///     vec![
///         (".claude/rules", Format::Claude, SourceKind::Folder, 1),
///         (".cursor/rules", Format::Cursor, SourceKind::Folder, 2),
///         (".cursorrules", Format::Cursor, SourceKind::File, 1),
///     ]
/// );
/// ```
pub fn rule_sources(fs: &dyn FileSource, root: &str) -> Result<Vec<RuleSource>> {
    let config = Config::load(fs, root)?;
    let source = config.rules_source(root)?;
    let (listing, _duplicates) = scan_rule_files(fs, &source);
    Ok(summarise(root, &listing.files))
}

fn summarise(root: &str, files: &[RuleFile]) -> Vec<RuleSource> {
    let root = paths::normalize_lexically(root);
    let mut sources: Vec<RuleSource> = Vec::new();
    for file in files {
        let place = paths::strip_base(&file.source, &root)
            .unwrap_or(&file.source)
            .to_string();
        if let Some(known) = sources.iter_mut().find(|s| s.place == place) {
            known.rules += 1;
            continue;
        }
        let kind = if file.base.is_some() {
            SourceKind::Nested
        } else if file.source == file.path {
            SourceKind::File
        } else {
            SourceKind::Folder
        };
        sources.push(RuleSource {
            place,
            format: file.format,
            kind,
            rules: 1,
        });
    }
    sources.sort_by(|a, b| java_order(&a.place, &b.place));
    sources
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    #[test]
    fn nested_folders_and_one_file_locations_are_told_apart() {
        let mut fs = MemoryFs::new();
        fs.add_dir("/p/.git")
            .add_file("/p/rule-fairy.edn", "{:formats [:cline :windsurf]}")
            .add_file("/p/.cursor/rules/a.mdc", "A.")
            .add_file("/p/services/api/.cursor/rules/b.mdc", "B.")
            .add_file("/p/services/api/.cursor/rules/c.mdc", "C.")
            .add_file("/p/.clinerules", "Cline, one file.")
            .add_file("/p/.windsurfrules", "Windsurf legacy.");
        let sources = rule_sources(&fs, "/p").unwrap();
        let summary: Vec<_> = sources
            .iter()
            .map(|s| (s.place.as_str(), s.format, s.kind, s.rules))
            .collect();
        assert_eq!(
            summary,
            vec![
                (".clinerules", Format::Cline, SourceKind::File, 1),
                (".cursor/rules", Format::Cursor, SourceKind::Folder, 1),
                (".windsurfrules", Format::Windsurf, SourceKind::File, 1),
                (
                    "services/api/.cursor/rules",
                    Format::Cursor,
                    SourceKind::Nested,
                    2
                ),
            ]
        );
    }

    #[test]
    fn a_broken_configuration_fails_as_loading_does() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/rule-fairy.edn", "{:rules");
        assert!(rule_sources(&fs, "/p").is_err());
        let empty = MemoryFs::new();
        assert_eq!(rule_sources(&empty, "/p").unwrap(), Vec::new());
    }
}
