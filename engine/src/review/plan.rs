//! The paths a plan will touch (behaviour §6.7), so the plan can be reviewed
//! against the rules for those paths before any code exists. Paths come
//! from the plan's file-list sections ("Files", "Files to change", ...)
//! when it has any, otherwise from every path-like token in its text, kept
//! when the file or its parent directory exists. A directory stands for the
//! files under it. Globs match path strings, so a file the plan will create
//! selects its rules the same way an existing one does.

use std::collections::BTreeMap;

use crate::base::fs::{FileSource, Kind};
use crate::base::paths;
use crate::matching::locate::locate;
use crate::rules::discovery::java_order;
use crate::syntax::markdown;

/// Where a plan's paths came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathSource {
    /// File-list sections, taken as written.
    List,
    /// Path-like tokens anywhere in the text, kept when they exist.
    Extracted,
}

impl PathSource {
    pub fn as_str(self) -> &'static str {
        match self {
            PathSource::List => "list",
            PathSource::Extracted => "extracted",
        }
    }
}

/// The paths a plan touches, project-relative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanPaths {
    /// The paths kept, each once, directories replaced by their files: in
    /// the plan's order from a file list, sorted when extracted.
    pub paths: Vec<String>,
    /// Tokens left out: outside the project, or (extracted) neither the
    /// file nor its parent directory exists. Sorted.
    pub dropped: Vec<String>,
    /// The dropped tokens that lie outside the project; the others were
    /// dropped because neither they nor their directory exist.
    pub outside: Vec<String>,
    /// Each directory replaced by the files under it, with their count.
    pub expanded: BTreeMap<String, usize>,
    /// Whether the paths came from file-list sections or from the text.
    pub source: PathSource,
}

/// The paths `content` touches under the absolute project `root`.
pub fn plan_paths(fs: &dyn FileSource, root: &str, content: &str) -> PlanPaths {
    let listed = listed_paths(content);
    let source = if listed.is_some() {
        PathSource::List
    } else {
        PathSource::Extracted
    };
    let tokens = listed.unwrap_or_else(|| candidate_paths(content));
    let mut dropped = Vec::new();
    let mut placed = Vec::new();
    for token in tokens {
        match place(fs, root, &token) {
            Some(path) => placed.push(path),
            None => dropped.push(token),
        }
    }
    let mut outside = dropped.clone();
    if source == PathSource::Extracted {
        let (kept, missing): (Vec<String>, Vec<String>) = placed
            .into_iter()
            .partition(|path| exists_or_parent_does(fs, root, path));
        placed = kept;
        dropped.extend(missing);
    }
    let mut expanded = BTreeMap::new();
    let mut result: Vec<String> = Vec::new();
    for path in placed {
        let files = files_under(fs, root, &path);
        if files.is_empty() {
            result.push(path);
        } else {
            expanded.insert(path, files.len());
            result.extend(files);
        }
    }
    if source == PathSource::Extracted {
        result.sort_by(|a, b| java_order(a, b));
    }
    dropped.sort_by(|a, b| java_order(a, b));
    outside.sort_by(|a, b| java_order(a, b));
    PlanPaths {
        paths: distinct(result),
        dropped,
        outside,
        expanded,
        source,
    }
}

fn distinct(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    let mut seen = std::collections::HashSet::new();
    for item in items {
        if seen.insert(item.clone()) {
            out.push(item);
        }
    }
    out
}

/// A path as the project's globs see it, or `None` when it lies outside
/// the project: an absolute path is placed by where it really resolves (so
/// the root may be named through a link), and must lie under the root, not
/// merely in the same checkout; a relative one must not climb out of it.
///
/// ```
/// use rule_fairy_engine::MemoryFs;
/// use rule_fairy_engine::place;
/// let mut fs = MemoryFs::new();
/// fs.add_dir("/p/src");
/// assert_eq!(place(&fs, "/p", "/p/src/new.ts").as_deref(), Some("src/new.ts"));
/// assert_eq!(place(&fs, "/p", "./src/a.ts").as_deref(), Some("src/a.ts"));
/// assert_eq!(place(&fs, "/p", "/elsewhere/a.ts"), None);
/// assert_eq!(place(&fs, "/p", "../q/a.ts"), None);
/// ```
pub fn place(fs: &dyn FileSource, root: &str, path: &str) -> Option<String> {
    if paths::is_absolute(path) {
        let real = locate(fs, root, path).real?;
        return (real != ".." && !real.starts_with("../")).then_some(real);
    }
    let lexical = paths::normalize_lexically(path);
    if lexical == ".." || lexical.starts_with("../") {
        return None;
    }
    Some(paths::normalize_for_match(path))
}

fn exists_or_parent_does(fs: &dyn FileSource, root: &str, path: &str) -> bool {
    let file = paths::join(root, path);
    fs.exists(&file) || paths::parent(&file).is_some_and(|dir| fs.is_dir(dir))
}

/// The regular files under a directory of the project, sorted, as
/// project-relative paths: hidden files included, anything under a `.git`
/// entry skipped, linked directories below it not entered. Empty when the
/// path is not a directory.
fn files_under(fs: &dyn FileSource, root: &str, dir: &str) -> Vec<String> {
    if dir.split('/').any(|segment| segment == ".git") || !fs.is_dir(&paths::join(root, dir)) {
        return Vec::new();
    }
    let mut files = Vec::new();
    walk(fs, &paths::join(root, dir), dir, &mut files);
    files.sort_by(|a, b| java_order(a, b));
    files
}

fn walk(fs: &dyn FileSource, dir: &str, rel: &str, files: &mut Vec<String>) {
    let Ok(names) = fs.list(dir) else { return };
    let real_dir = fs.real_path(dir).ok();
    for name in names {
        if name == ".git" {
            continue;
        }
        let path = paths::join(dir, &name);
        let child = if rel == "." {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        match fs.try_stat(&path).map(|meta| meta.kind) {
            Some(Kind::File) => files.push(child),
            Some(Kind::Dir) => {
                // A link resolves somewhere other than beside its parent.
                let linked = match (&real_dir, fs.real_path(&path)) {
                    (Some(parent), Ok(real)) => real != paths::join(parent, &name),
                    _ => true,
                };
                if !linked {
                    walk(fs, &path, &child, files);
                }
            }
            _ => {}
        }
    }
}

/// The headings that mark a file-list section, lower-cased.
fn is_list_heading(text: &str) -> bool {
    const VERBS: &[&str] = &["edit", "change", "touch", "create", "modify", "add"];
    const STATES: &[&str] = &["touched", "changed", "affected", "modified"];
    let text = markdown::trim(text).to_ascii_lowercase();
    let noun = |s: &str| s == "file" || s == "files";
    if noun(&text) {
        return true;
    }
    if let Some((head, verb)) = text.split_once(" to ") {
        return noun(head) && VERBS.contains(&verb);
    }
    match text.split_once(' ') {
        Some((state, "files")) if STATES.contains(&state) => true,
        Some((head, state)) => noun(head) && STATES.contains(&state),
        None => false,
    }
}

/// A list item line: optional indentation, `-`, `*`, `+` or a number with
/// `.` or `)`, then whitespace.
fn is_list_item(line: &str) -> bool {
    let rest = line.trim_start_matches(is_ascii_space);
    let after = if let Some(rest) = rest.strip_prefix(['-', '*', '+']) {
        rest
    } else {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return false;
        }
        match rest[digits..].strip_prefix(['.', ')']) {
            Some(after) => after,
            None => return false,
        }
    };
    after.starts_with(is_ascii_space)
}

/// Java's `\s`.
fn is_ascii_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

/// The paths of every file-list section, in document order: the first
/// path-like token of each list item. `None` when the plan has no such
/// section or they list nothing.
pub(crate) fn listed_paths(content: &str) -> Option<Vec<String>> {
    let mut paths: Vec<String> = Vec::new();
    for section in markdown::sections(content) {
        if !section
            .heading
            .as_ref()
            .is_some_and(|h| is_list_heading(&h.text))
        {
            continue;
        }
        for line in &section.lines[1..] {
            if !is_list_item(line) {
                continue;
            }
            if let Some(path) = line_candidates(line).into_iter().next() {
                if !paths.contains(&path) {
                    paths.push(path);
                }
            }
        }
    }
    (!paths.is_empty()).then_some(paths)
}

/// Every path-like token of a plan, in order of first appearance: code
/// spans holding a path or a file name with an extension, and bare tokens
/// with a slash inside (absolute ones and link destinations too). Fenced
/// blocks count: plans list files in trees and commands.
pub(crate) fn candidate_paths(content: &str) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    for line in markdown::lines(content) {
        for path in line_candidates(line) {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    paths
}

/// A line's candidates: code spans first, then bare tokens of the line with
/// its code spans blanked out.
fn line_candidates(line: &str) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    // Each span becomes one space in the text bare tokens are read from.
    let mut blanked: Vec<char> = Vec::with_capacity(chars.len());
    let mut from = 0;
    for span in plan_code_spans(&chars) {
        let raw: String = chars[span.start + 1..span.end - 1].iter().collect();
        out.extend(candidate(&raw, true));
        blanked.extend(&chars[from..span.start]);
        blanked.push(' ');
        from = span.end;
    }
    blanked.extend(&chars[from..]);
    for token in bare_tokens(&blanked) {
        out.extend(candidate(&token, false));
    }
    out
}

/// Code spans as a plan reads them: a backtick, text without backticks,
/// a backtick. Ranges include both backticks.
fn plan_code_spans(chars: &[char]) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        match chars[i + 1..].iter().position(|&c| c == '`') {
            Some(0) => i += 1,
            Some(offset) => {
                let end = i + 1 + offset + 1;
                spans.push(i..end);
                i = end;
            }
            None => break,
        }
    }
    spans
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_token_char(c: char) -> bool {
    is_word(c) || c == '.' || c == '-'
}

/// Bare path tokens: not after a word character, `/`, `.` or `-`; an
/// optional `/`, `./` or `../`; runs of word characters, `.` and `-` joined
/// by `/`, at least one `/` inside; an optional trailing `/`. The parts of a
/// URL after its scheme never start a token, since they follow a `/`.
fn bare_tokens(chars: &[char]) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let boundary = at == 0 || !(is_token_char(chars[at - 1]) || chars[at - 1] == '/');
        match boundary.then(|| token_at(chars, at)).flatten() {
            Some(end) => {
                tokens.push(chars[at..end].iter().collect());
                at = end;
            }
            None => at += 1,
        }
    }
    tokens
}

/// The end of a token starting at `at`, trying the prefixes the way a
/// backtracking matcher does: `/`, `../`, `./`, then none.
fn token_at(chars: &[char], at: usize) -> Option<usize> {
    let has = |offset: usize, text: &str| {
        text.chars()
            .enumerate()
            .all(|(i, c)| chars.get(at + offset + i) == Some(&c))
    };
    let mut prefixes = Vec::new();
    if has(0, "/") {
        prefixes.push(1);
    }
    if has(0, "../") {
        prefixes.push(3);
    }
    if has(0, "./") {
        prefixes.push(2);
    }
    prefixes.push(0);
    prefixes
        .into_iter()
        .find_map(|prefix| token_body(chars, at + prefix))
}

fn token_body(chars: &[char], start: usize) -> Option<usize> {
    let run = |from: usize| {
        chars[from.min(chars.len())..]
            .iter()
            .take_while(|&&c| is_token_char(c))
            .count()
    };
    let first = run(start);
    if first == 0 {
        return None;
    }
    let mut end = start + first;
    let mut segments = 0;
    while chars.get(end) == Some(&'/') {
        let next = run(end + 1);
        if next == 0 {
            break;
        }
        end += 1 + next;
        segments += 1;
    }
    if segments == 0 {
        return None;
    }
    if chars.get(end) == Some(&'/') {
        end += 1;
    }
    Some(end)
}

/// A raw token, cleaned, when it is path-like: no whitespace, `*`, `?`,
/// `(` or `://` in it, and a `/` in it, or (a code span) a file extension.
fn candidate(raw: &str, code_span: bool) -> Option<String> {
    let cleaned = clean_token(raw);
    let path_like = !markdown::is_blank(&cleaned)
        && !raw
            .chars()
            .any(|c| is_ascii_space(c) || c == '*' || c == '?' || c == '(')
        && !raw.contains("://")
        && (raw.contains('/') || (code_span && has_extension(&cleaned)));
    path_like.then_some(cleaned)
}

/// Trimmed; a `:line` or `#anchor` suffix without a `/` after it removed;
/// trailing `.,;:)` and `/` removed; normalised, an absolute path kept so.
fn clean_token(token: &str) -> String {
    let mut cleaned = markdown::trim(token);
    if let Some(at) = cleaned
        .char_indices()
        .find(|&(i, c)| (c == ':' || c == '#') && !cleaned[i..].contains('/'))
        .map(|(i, _)| i)
    {
        cleaned = &cleaned[..at];
    }
    let cleaned = cleaned.trim_end_matches(['.', ',', ';', ':', ')']);
    let cleaned = cleaned.trim_end_matches('/');
    let normalized = paths::normalize_for_match(cleaned);
    if cleaned.starts_with('/') {
        format!("/{normalized}")
    } else {
        normalized
    }
}

/// Ends with `.` and one to ten ASCII letters or digits.
fn has_extension(path: &str) -> bool {
    match path.rfind('.') {
        Some(dot) => {
            let ext = &path[dot + 1..];
            (1..=10).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    #[test]
    fn case_160_code_spans() {
        assert_eq!(
            candidate_paths(
                "Edit `src/a.clj:42` and `docs/guide.md#testing`, then `README.md`.\n\
                 Also touch `./bb.edn`, run `bb test`, and see `(defn foo [])`."
            ),
            vec!["src/a.clj", "docs/guide.md", "README.md", "bb.edn"]
        );
    }

    #[test]
    fn case_161_bare_tokens() {
        assert_eq!(
            candidate_paths(
                "Move apps/web/core.clj (e.g. the ns) into db/migrations/ later.\n\
                 See https://example.com/x/y.md and version 1.2.3 and either/or?"
            ),
            vec!["apps/web/core.clj", "db/migrations", "either/or"]
        );
    }

    #[test]
    fn case_162_globs_and_spaces_are_not_paths() {
        assert!(candidate_paths("Match `src/**/*.clj` and `apps/* /x`, plus `a b/c`.").is_empty());
    }

    #[test]
    fn case_163_absolute_paths() {
        assert_eq!(
            candidate_paths("Edit `/repo/src/a.clj:3`."),
            vec!["/repo/src/a.clj"]
        );
        assert_eq!(
            candidate_paths(
                "See /repo/src/b.clj and [the guide](/repo/docs/g.md), not https://example.com/x/y.md."
            ),
            vec!["/repo/src/b.clj", "/repo/docs/g.md"]
        );
    }

    #[test]
    fn case_164_fences_count_and_duplicates_collapse() {
        assert_eq!(
            candidate_paths(
                "```sh\nbb test/rules_test.bb\n```\n\n- `src/x.clj`\n- `src/x.clj` again\n"
            ),
            vec!["test/rules_test.bb", "src/x.clj"]
        );
    }

    #[test]
    fn bare_token_prefixes_backtrack_like_the_reference() {
        // `./x` alone has no inner slash after its prefix, but `.` is a run.
        assert_eq!(
            candidate_paths("run ./bb.edn and ../up/x.md"),
            vec!["bb.edn", "../up/x.md"]
        );
        assert!(candidate_paths("a.b/ alone, x/ too").is_empty());
        assert_eq!(candidate_paths("see a/b//c"), vec!["a/b"]);
    }

    #[test]
    fn case_165_listed_paths() {
        let plan = "# Plan\n\n## Files to change\n\n\
            - `db/migrations/001.sql`: new table, see `docs/other.md`\n\
            * apps/web/src/ui.clj\n\
            1. Create `docs/new.md`\n\
            Not a list item: `ignored/x.clj`\n\n\
            ## Steps\n\n- `steps/are/not/files.clj`\n";
        assert_eq!(
            listed_paths(plan),
            Some(vec![
                "db/migrations/001.sql".to_string(),
                "apps/web/src/ui.clj".to_string(),
                "docs/new.md".to_string()
            ])
        );
        assert_eq!(
            listed_paths("## Files\n\n- /repo/src/a.clj: the widget\n"),
            Some(vec!["/repo/src/a.clj".to_string()])
        );
        for heading in [
            "Files",
            "FILES",
            "File",
            "Affected files",
            "Changed Files",
            "Files touched",
            "Files to create",
        ] {
            assert_eq!(
                listed_paths(&format!("## {heading}\n\n- `a/b.clj`\n")),
                Some(vec!["a/b.clj".to_string()]),
                "{heading}"
            );
        }
        for heading in [
            "Files and folders",
            "Profiles",
            "Files to remove",
            "The files",
        ] {
            assert_eq!(
                listed_paths(&format!("## {heading}\n\n- `a/b.clj`\n")),
                None,
                "{heading}"
            );
        }
        assert_eq!(
            listed_paths(
                "## Files to create\n\n- `src/new.clj`\n\n## Files to modify\n\n- `src/old.clj`\n\n## Steps\n\n- `steps/x.clj`\n"
            ),
            Some(vec!["src/new.clj".to_string(), "src/old.clj".to_string()])
        );
        assert_eq!(listed_paths("# Plan\n\n- `a/b.clj`\n"), None);
        assert_eq!(listed_paths("## Files\n\nNothing listed here.\n"), None);
        assert!(is_list_item("  10) x") && !is_list_item("-x") && !is_list_item("1.x"));
    }

    fn project_166() -> MemoryFs {
        MemoryFs::from_files(
            "/p",
            [
                ("apps/web/src/existing.clj", "(ns existing)"),
                ("apps/.git/config", "not a source file"),
                ("docs/readme.md", "docs"),
            ],
        )
    }

    fn expanded(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
        pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
    }

    #[test]
    fn case_166_extracted_paths() {
        let mut fs = project_166();
        let result = plan_paths(
            &fs,
            "/p",
            "Edit `apps/web/src/existing.clj`, add `apps/web/src/new.clj`,\n\
             touch the `docs/` folder and `elsewhere/thing.clj`, either/or.\n",
        );
        assert_eq!(
            result,
            PlanPaths {
                paths: vec![
                    "apps/web/src/existing.clj".into(),
                    "apps/web/src/new.clj".into(),
                    "docs/readme.md".into()
                ],
                dropped: vec!["either/or".into(), "elsewhere/thing.clj".into()],
                outside: vec![],
                expanded: expanded(&[("docs", 1)]),
                source: PathSource::Extracted,
            }
        );
        fs.add_dir("/p/empty");
        let result = plan_paths(&fs, "/p", "Rework `apps/`, `empty/` and `docs/newdir/`.\n");
        assert_eq!(
            result,
            PlanPaths {
                paths: vec![
                    "apps/web/src/existing.clj".into(),
                    "docs/newdir".into(),
                    "empty".into()
                ],
                dropped: vec![],
                outside: vec![],
                expanded: expanded(&[("apps", 1)]),
                source: PathSource::Extracted,
            }
        );
    }

    #[test]
    fn case_166_listed_paths_are_taken_as_written() {
        let fs = project_166();
        let result = plan_paths(
            &fs,
            "/p",
            "## Files\n\n- `elsewhere/thing.clj`\n- `docs/`\n- `apps/web/src/existing.clj`\n\n\
             ## Steps\n\nAlso `docs/readme.md`.\n",
        );
        assert_eq!(
            result,
            PlanPaths {
                paths: vec![
                    "elsewhere/thing.clj".into(),
                    "docs/readme.md".into(),
                    "apps/web/src/existing.clj".into()
                ],
                dropped: vec![],
                outside: vec![],
                expanded: expanded(&[("docs", 1)]),
                source: PathSource::List,
            }
        );
    }

    #[test]
    fn case_166_absolute_paths_are_placed_by_where_they_resolve() {
        let mut fs = project_166();
        fs.add_link("/alias", "/p");
        let listed = plan_paths(
            &fs,
            "/p",
            "## Files\n\n- `/p/apps/web/src/existing.clj`\n- `/alias/docs/readme.md`\n- `/elsewhere/thing.clj`\n",
        );
        assert_eq!(
            listed.paths,
            vec!["apps/web/src/existing.clj", "docs/readme.md"]
        );
        assert_eq!(listed.dropped, vec!["/elsewhere/thing.clj"]);
        assert_eq!(listed.outside, vec!["/elsewhere/thing.clj"]);
        let extracted = plan_paths(
            &fs,
            "/p",
            "Edit /p/apps/web/src/existing.clj, see [docs](/alias/docs/readme.md) and /elsewhere/thing.clj.\n",
        );
        assert_eq!(
            extracted.paths,
            vec!["apps/web/src/existing.clj", "docs/readme.md"]
        );
        assert_eq!(extracted.dropped, vec!["/elsewhere/thing.clj"]);
        assert_eq!(extracted.source, PathSource::Extracted);
    }

    #[test]
    fn a_path_elsewhere_in_the_checkout_is_outside_the_project() {
        let mut fs = MemoryFs::new();
        fs.add_dir("/w/.git")
            .add_file("/w/shared/rules/r.mdc", "")
            .add_file("/w/app/src/a.clj", "");
        assert_eq!(place(&fs, "/w/app", "/w/shared/rules/r.mdc"), None);
        assert_eq!(
            place(&fs, "/w/app", "/w/app/src/a.clj").as_deref(),
            Some("src/a.clj")
        );
    }

    #[test]
    fn linked_directories_below_an_expanded_one_are_not_entered() {
        let mut fs = MemoryFs::from_files("/p", [("docs/a.md", "a"), ("other/b.md", "b")]);
        fs.add_link("/p/docs/link", "/p/other");
        fs.add_link("/p/docs/file-link.md", "/p/other/b.md");
        let result = plan_paths(&fs, "/p", "Rework `docs/`.");
        assert_eq!(result.paths, vec!["docs/a.md", "docs/file-link.md"]);
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn listed_paths_example() {
        use crate::review::plan::listed_paths;
        let plan = "# Plan\n\n## Files to change\n\n- `src/a.ts`: the widget\n\n## Steps\n\n- `src/b.ts`\n";
        assert_eq!(listed_paths(plan), Some(vec!["src/a.ts".to_string()]));
    }

    #[test]
    fn candidate_paths_example() {
        use crate::review::plan::candidate_paths;
        assert_eq!(
            candidate_paths(
                "Edit `src/a.ts:42`, then `README.md`; run `npm test`; see https://x.io/a/b."
            ),
            vec!["src/a.ts", "README.md"]
        );
    }
}
