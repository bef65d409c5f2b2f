//! Which documents a rule set imports, without reading them: a host that
//! hands the engine an in-memory snapshot (the Claude Code mod) must put
//! those documents into it before anything renders.

use crate::base::paths;
use crate::render::imports::expand_body;
use crate::rules::discovery::java_order;
use crate::rules::rule::Rule;

/// The documents the rules' import directives name (outside fences, as a
/// render reads them), joined onto `root` and normalised lexically,
/// distinct and sorted. A path that climbs out of the root is left out:
/// rendering refuses it without reading anything.
pub(crate) fn imported_documents<'a>(
    root: &str,
    rules: impl IntoIterator<Item = &'a Rule>,
) -> Vec<String> {
    let mut documents: Vec<String> = rules
        .into_iter()
        .flat_map(|rule| expand_body(rule).directives)
        .map(|directive| paths::normalize_lexically(&paths::join(root, &directive.path)))
        .filter(|path| paths::strip_base(path, root).is_some_and(|rest| !rest.is_empty()))
        .collect();
    documents.sort_by(|a, b| java_order(a, b));
    documents.dedup();
    documents
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn imported_documents_example() {
        use crate::render::import_paths::imported_documents;
        use crate::rules::rule::Rule;
        let a = Rule::parse(
            "a.mdc",
            "/p/.cursor/rules/a.mdc",
            "# A\n\n@doc/guide.md#set-up\n@./doc/guide.md\n",
        );
        let b = Rule::parse(
            "b.mdc",
            "/p/.cursor/rules/b.mdc",
            "```\n@doc/example.md\n```\n@../outside.md\n@doc/api.md",
        );
        assert_eq!(
            imported_documents("/p", &[a, b]),
            vec!["/p/doc/api.md", "/p/doc/guide.md"]
        );
    }
}
