//! Which rules a check of some files needs: those whose language is the
//! language of one of the files and whose `files`/`ignores` let them judge
//! it. A per-write check compiles only these; the scan of record, the rule
//! tests and `rule-fairy check` still load every rule (behaviour §8.4).
//!
//! A rule is left out only when what rules it out was read cleanly: its
//! language names one this build parses, and its globs compile. Anything
//! less certain is loaded, so a broken rule that could apply is reported
//! exactly as the whole load reports it.

use globset::GlobSet;

use crate::language::SupportLang;
use crate::rules::globs_admit;

/// The files a check reads: each project-relative name with the language
/// it is parsed as.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scope {
    files: Vec<(String, SupportLang)>,
}

impl Scope {
    pub(crate) fn new(files: Vec<(String, SupportLang)>) -> Self {
        Scope { files }
    }

    /// Whether a rule of `lang` may judge one of the files.
    pub(crate) fn has_language(&self, lang: SupportLang) -> bool {
        self.files.iter().any(|(_, l)| *l == lang)
    }

    /// Whether a rule of `lang` with these `files`/`ignores` judges one of
    /// the files (ast-grep's reading: `ignores` first, then `files`).
    pub(crate) fn judged(
        &self,
        lang: SupportLang,
        files: Option<&GlobSet>,
        ignores: Option<&GlobSet>,
    ) -> bool {
        self.files
            .iter()
            .any(|(name, l)| *l == lang && globs_admit(files, ignores, name))
    }
}
