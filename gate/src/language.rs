//! Language names as ast-grep reads them, and which grammars this build
//! carries. ast-grep's language enum lists every language whether or not
//! its grammar was compiled in, and panics when one that was left out is
//! used, so every name passes through [`parse_language`] first.

use std::str::FromStr;

pub use ast_grep_language::SupportLang;

/// The languages whose grammars this build carries, in the order messages
/// list them.
pub(crate) fn compiled_languages() -> Vec<SupportLang> {
    SupportLang::all_langs()
        .iter()
        .copied()
        .filter(|lang| is_compiled(*lang))
        .collect()
}

/// The grammars compiled in, each by its cargo feature of the gate crate.
const COMPILED: &[SupportLang] = &[
    #[cfg(feature = "lang-bash")]
    SupportLang::Bash,
    #[cfg(feature = "lang-go")]
    SupportLang::Go,
    #[cfg(feature = "lang-java")]
    SupportLang::Java,
    #[cfg(feature = "lang-javascript")]
    SupportLang::JavaScript,
    #[cfg(feature = "lang-python")]
    SupportLang::Python,
    #[cfg(feature = "lang-rust")]
    SupportLang::Rust,
    #[cfg(feature = "lang-typescript")]
    SupportLang::TypeScript,
    #[cfg(feature = "lang-typescript")]
    SupportLang::Tsx,
    #[cfg(feature = "lang-yaml")]
    SupportLang::Yaml,
];

/// True when this build carries `lang`'s grammar.
pub(crate) fn is_compiled(lang: SupportLang) -> bool {
    COMPILED.contains(&lang)
}

/// The gate's cargo feature for a language, when it offers one.
fn feature_for(lang: SupportLang) -> Option<&'static str> {
    use SupportLang as L;
    Some(match lang {
        L::Bash => "lang-bash",
        L::Go => "lang-go",
        L::Java => "lang-java",
        L::JavaScript => "lang-javascript",
        L::Python => "lang-python",
        L::Rust => "lang-rust",
        L::TypeScript | L::Tsx => "lang-typescript",
        L::Yaml => "lang-yaml",
        _ => return None,
    })
}

fn list(langs: &[SupportLang]) -> String {
    if langs.is_empty() {
        return "none".to_string();
    }
    langs
        .iter()
        .map(std::string::ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads a language name (`TypeScript`, `ts`, `tsx`, `python`, any case, as
/// ast-grep accepts them) and refuses one this build cannot parse.
pub(crate) fn parse_language(name: &str) -> Result<SupportLang, String> {
    let Ok(lang) = SupportLang::from_str(name) else {
        let known: Vec<SupportLang> = SupportLang::all_langs().to_vec();
        return Err(format!(
            "unknown language `{name}` (ast-grep knows {})",
            list(&known)
        ));
    };
    if is_compiled(lang) {
        return Ok(lang);
    }
    let remedy = match feature_for(lang) {
        Some(feature) => format!("build rule-fairy with the gate feature `{feature}` to check it"),
        None => "this gate does not offer its grammar".to_string(),
    };
    Err(format!(
        "language `{name}` ({lang}) is not compiled into this build of rule-fairy, so its rules cannot be checked; this build parses {}; {remedy}",
        list(&compiled_languages())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_case_follow_ast_grep() {
        assert_eq!(
            parse_language("TypeScript").unwrap(),
            SupportLang::TypeScript
        );
        assert_eq!(parse_language("TSX").unwrap(), SupportLang::Tsx);
        assert_eq!(parse_language("py").unwrap(), SupportLang::Python);
        assert_eq!(parse_language("golang").unwrap(), SupportLang::Go);
        assert_eq!(parse_language("yml").unwrap(), SupportLang::Yaml);
        assert_eq!(parse_language("ts").unwrap(), SupportLang::TypeScript);
    }

    #[test]
    fn an_unknown_name_is_refused_by_name() {
        let message = parse_language("Klingon").unwrap_err();
        assert!(
            message.starts_with("unknown language `Klingon` (ast-grep knows "),
            "{message}"
        );
    }

    #[test]
    fn a_language_left_out_is_refused_by_name() {
        // Ruby is never among the gate's grammars: using it would panic
        // inside ast-grep, so the name must stop here.
        let message = parse_language("ruby").unwrap_err();
        assert!(
            message.starts_with("language `ruby` (Ruby) is not compiled into this build"),
            "{message}"
        );
        assert!(message.contains("TypeScript"), "{message}");
        assert!(!is_compiled(SupportLang::Ruby));
    }

    #[test]
    #[cfg(all(
        feature = "lang-bash",
        feature = "lang-go",
        feature = "lang-java",
        feature = "lang-javascript",
        feature = "lang-python",
        feature = "lang-rust",
        feature = "lang-typescript",
        feature = "lang-yaml"
    ))]
    fn the_default_build_carries_the_issue_s_languages() {
        for name in [
            "typescript",
            "tsx",
            "javascript",
            "python",
            "rust",
            "go",
            "java",
            "yaml",
            "bash",
        ] {
            assert!(parse_language(name).is_ok(), "{name}");
        }
    }
}
