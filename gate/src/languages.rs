//! Which language a file is parsed as: `languageGlobs` first (so a project
//! can have its TypeScript rules see `.tsx` files), then ast-grep's own
//! extension table, as `ast-grep scan` decides it.

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::language::SupportLang;

/// `languageGlobs` from `sgconfig.yml`, compiled.
#[derive(Debug, Clone, Default)]
pub(crate) struct LanguageGlobs {
    /// In the order given; the first language whose globs match wins.
    entries: Vec<(SupportLang, GlobSet)>,
}

impl LanguageGlobs {
    /// Compiles `(language, globs)` pairs. A glob without `/` matches the
    /// file name at any depth (`*.tsx`), as ast-grep's file types do; one
    /// with `/` matches the project-relative path.
    pub(crate) fn new(entries: &[(SupportLang, Vec<String>)]) -> Result<Self, String> {
        let mut compiled = Vec::new();
        for (lang, globs) in entries {
            let mut builder = GlobSetBuilder::new();
            for glob in globs {
                let glob = Glob::new(glob).map_err(|e| format!("{lang}: {e}"))?;
                builder.add(glob);
            }
            let set = builder.build().map_err(|e| format!("{lang}: {e}"))?;
            compiled.push((*lang, set));
        }
        Ok(LanguageGlobs { entries: compiled })
    }

    /// The language of a project-relative path (with `/`), if any.
    pub(crate) fn language_of(&self, path: &str) -> Option<SupportLang> {
        let name = path.rsplit('/').next().unwrap_or(path);
        for (lang, set) in &self.entries {
            if set.is_match(name) || set.is_match(path) {
                return Some(*lang);
            }
        }
        use ast_grep_core::Language;
        SupportLang::from_path(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_come_before_the_extension_table() {
        let globs = LanguageGlobs::new(&[(SupportLang::TypeScript, vec!["*.tsx".into()])]).unwrap();
        assert_eq!(
            globs.language_of("src/App.tsx"),
            Some(SupportLang::TypeScript)
        );
        assert_eq!(
            LanguageGlobs::default().language_of("src/App.tsx"),
            Some(SupportLang::Tsx)
        );
        assert_eq!(globs.language_of("README"), None);
    }
}
