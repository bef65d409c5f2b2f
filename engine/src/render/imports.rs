//! Documentation imports (behaviour §3) and the blocks a render yields (4.1,
//! 4.2). A rule body line `@doc/guide.md#section` pulls that section of a
//! project document into the delivery: the line itself becomes a pointer,
//! and the section arrives after all rule bodies in a documentation block.
//! Sections imported by several rules, or touching each other, merge into
//! one block, so each piece of documentation is delivered once.
//!
//! A rule whose import fails (a missing file or heading, an import leaving
//! the project root, a broken omission block) is left out of a render and
//! named ([`render_each`], behaviour §3.9), so it never silences the rules
//! rendered with it; more than [`DOCUMENTATION_BUDGET`] bytes of
//! documentation fails the set. [`check_imports`] finds all of a rule's
//! problems at once, for `rule-fairy check`.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::base::contain::Containment;
use crate::base::error::{Error, ErrorKind, Place};
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::base::text;
use crate::render::block::{Block, BlockKind, RenderError, DOCUMENTATION_BUDGET};
use crate::rules::rule::Rule;
use crate::syntax::markdown::{self, Outline};

const OMIT_START: &str = "<!-- agent-context: omit -->";
const OMIT_END: &str = "<!-- /agent-context -->";
const BLOCK_SEPARATOR: &str = "\n\n---\n\n";

/// One `@path` or `@path#fragment` line of a rule body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Directive {
    /// As written, relative to the project root.
    pub path: String,
    /// As written, not decoded.
    pub fragment: Option<String>,
    /// 1-based line in the rule file.
    pub line: usize,
}

impl Directive {
    /// The path, plus `#` and the fragment when there is one: how blocks and
    /// pointers name the import.
    pub(crate) fn reference(&self) -> String {
        match &self.fragment {
            Some(fragment) => format!("{}#{}", self.path, fragment),
            None => self.path.clone(),
        }
    }
}

/// Reads a directive line (behaviour §3.1): optional spaces or tabs, `@`, a
/// path of ASCII letters, digits, `.`, `_`, `/` and `-`, optionally `#` and
/// a fragment without spaces or tabs, optional spaces or tabs. Returns the
/// path and the fragment. A path with neither `/` nor `.` is text: `@Data`,
/// `@Service` and `@asynccontextmanager` are a Java annotation or a Python
/// decorator outside a fence, not a file.
pub(crate) fn parse_directive(line: &str) -> Option<(&str, Option<&str>)> {
    let rest = line.trim_matches([' ', '\t']).strip_prefix('@')?;
    let path_len = rest
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b"._/-".contains(&b))
        .count();
    if path_len == 0 || !rest[..path_len].contains(['/', '.']) {
        return None;
    }
    let (path, after) = rest.split_at(path_len);
    if after.is_empty() {
        return Some((path, None));
    }
    let fragment = after.strip_prefix('#')?;
    if fragment.is_empty() || fragment.contains([' ', '\t']) {
        return None;
    }
    Some((path, Some(fragment)))
}

/// Whether a line that is not a directive looks like a Java annotation or
/// a Python decorator (`@Data`, `@Service`, `@app.route("/")`,
/// `@Test(timeout = 5)`): code written outside a fence, which `check`
/// notes, since the host reads it as text.
pub(crate) fn looks_like_annotation(line: &str) -> bool {
    let Some(rest) = line.trim_matches([' ', '\t']).strip_prefix('@') else {
        return false;
    };
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(name_len);
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && !name.ends_with('.')
        && (after.is_empty() || after.starts_with('('))
        && parse_directive(line).is_none()
}

/// Body lines outside fences that look like annotations or decorators,
/// with their line in the rule file.
pub(crate) fn annotation_lines(rule: &Rule) -> Vec<(usize, String)> {
    let body_lines = markdown::lines(rule.body());
    let fenced = markdown::fenced_lines(&body_lines);
    body_lines
        .iter()
        .enumerate()
        .filter(|(index, line)| !fenced[*index] && looks_like_annotation(line))
        .map(|(index, line)| (rule.document.body_line + index, line.trim().to_string()))
        .collect()
}

/// The line that replaces a directive in the rendered body.
pub(crate) fn pointer_line(reference: &str) -> String {
    format!("Imported: `{reference}` (delivered as a Required context block)")
}

/// A rule body with its directives replaced by pointers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExpandedBody {
    pub lines: Vec<String>,
    /// In body order, repeats kept.
    pub directives: Vec<Directive>,
}

/// Finds a rule's directives, outside fences only: a directive inside a
/// fence is example text and stays as written.
pub(crate) fn expand_body(rule: &Rule) -> ExpandedBody {
    let body_lines = markdown::lines(rule.body());
    let fenced = markdown::fenced_lines(&body_lines);
    let mut expanded = ExpandedBody {
        lines: Vec::with_capacity(body_lines.len()),
        directives: Vec::new(),
    };
    for (index, line) in body_lines.iter().enumerate() {
        match parse_directive(line).filter(|_| !fenced[index]) {
            Some((path, fragment)) => {
                let directive = Directive {
                    path: path.to_string(),
                    fragment: fragment.map(str::to_string),
                    line: rule.document.body_line + index,
                };
                expanded.lines.push(pointer_line(&directive.reference()));
                expanded.directives.push(directive);
            }
            None => expanded.lines.push(line.to_string()),
        }
    }
    expanded
}

/// URL-form-decodes a fragment as the original does (Java's
/// `URLDecoder`): `+` is a space, each run of `%XX` escapes is UTF-8 (bytes
/// that are not become U+FFFD), anything else stays. A `%` without two hex
/// digits is an error, described in the `Err`.
pub(crate) fn decode_fragment(fragment: &str) -> Result<String, String> {
    let mut decoded = String::with_capacity(fragment.len());
    let mut escaped: Vec<u8> = Vec::new();
    let mut rest = fragment;
    while let Some(c) = rest.chars().next() {
        if c == '%' {
            let digits = rest
                .get(1..3)
                .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
            let Some(digits) = digits else {
                let shown: String = rest.chars().take(3).collect();
                return Err(format!(
                    "`{shown}` is not a percent escape (% and two hex digits)"
                ));
            };
            escaped.push(u8::from_str_radix(digits, 16).expect("two hex digits"));
            rest = &rest[3..];
            continue;
        }
        if !escaped.is_empty() {
            decoded.push_str(&String::from_utf8_lossy(&escaped));
            escaped.clear();
        }
        decoded.push(if c == '+' { ' ' } else { c });
        rest = &rest[c.len_utf8()..];
    }
    decoded.push_str(&String::from_utf8_lossy(&escaped));
    Ok(decoded)
}

/// Renders rules into blocks (behaviour §4.1): one rule block per rule, in
/// the order given, then the merged documentation blocks (3.7). `root` is
/// the project root imports resolve against. The first broken import fails
/// the whole render; [`render_each`] leaves such a rule out instead.
pub(crate) fn render_blocks(
    fs: &dyn FileSource,
    root: &str,
    rules: &[&Rule],
) -> Result<Vec<Block>, RenderError> {
    let rendered = render_each(fs, root, rules);
    match rendered.broken.into_iter().next() {
        Some((_, error)) => Err(error.into()),
        None => rendered.blocks,
    }
}

/// A render that leaves broken rules out (behaviour §3.9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rendered {
    /// The blocks of every rule not in `broken`, as [`render_blocks`]
    /// gives them for those rules alone, or the budget error they meet
    /// together.
    pub blocks: Result<Vec<Block>, RenderError>,
    /// Each rule (by its index in the rules given) whose imports do not
    /// resolve, with the first problem: it has no block, and nothing it
    /// imports is in the documentation.
    pub broken: Vec<(usize, Error)>,
}

/// Renders rules as [`render_blocks`] does, but a rule whose import fails
/// (a missing file or heading, an import leaving the project, a broken
/// omission block in a document it imports, an undecodable fragment) is
/// left out whole and named with its error, so it never silences the
/// rules rendered with it.
pub(crate) fn render_each(fs: &dyn FileSource, root: &str, rules: &[&Rule]) -> Rendered {
    let mut resolver = Resolver::new(fs, root);
    let mut blocks = Vec::with_capacity(rules.len());
    let mut selections = Vec::new();
    let mut broken = Vec::new();
    for (index, rule) in rules.iter().enumerate() {
        let body = expand_body(rule);
        match resolve_rule(&mut resolver, rule, body.directives) {
            Ok(resolved) => {
                selections.extend(resolved);
                blocks.push(rule_block(&rule.name, &body.lines));
            }
            Err(error) => broken.push((index, error)),
        }
    }
    let documentation = documentation_blocks(&resolver.documents, selections);
    let bytes = rendered_len(&documentation);
    let blocks = if bytes > DOCUMENTATION_BUDGET {
        Err(RenderError {
            error: Error::new(budget()),
            expanded_bytes: Some(bytes),
        })
    } else {
        blocks.extend(documentation);
        Ok(blocks)
    };
    Rendered { blocks, broken }
}

/// A rule's imports resolved, or its first problem. A document's broken
/// omission block is a problem for every rule importing it, however often
/// the document was opened before.
fn resolve_rule(
    resolver: &mut Resolver<'_>,
    rule: &Rule,
    directives: Vec<Directive>,
) -> Result<Vec<Selection>, Error> {
    let mut selections = Vec::new();
    let mut seen = HashSet::new();
    for directive in directives {
        // The original drops exact repeats before resolving anything.
        if !seen.insert((directive.path.clone(), directive.fragment.clone())) {
            continue;
        }
        let place = Place::line(&rule.path, directive.line);
        let (document, _) = resolver.open(&directive.path, &place)?;
        if let Some(first) = resolver.documents[document].omission_errors.first() {
            return Err(first.clone());
        }
        let lines = resolver.select(document, &directive, &place)?;
        selections.push(Selection {
            document,
            lines,
            reference: directive.reference(),
            path: directive.path,
            rule: rule.name.clone(),
        });
    }
    Ok(selections)
}

/// The full rendering (behaviour §4.2): rule blocks joined by a rule line,
/// then, when there is documentation, a `# Required documentation` heading
/// and the documentation blocks. No trailing newline.
pub(crate) fn render_full(blocks: &[Block]) -> String {
    let (rules, documentation): (Vec<&Block>, Vec<&Block>) = blocks
        .iter()
        .partition(|block| matches!(block.kind, BlockKind::Rule { .. }));
    let join = |blocks: Vec<&Block>| {
        blocks
            .iter()
            .map(|block| block.render())
            .collect::<Vec<_>>()
            .join(BLOCK_SEPARATOR)
    };
    let mut full = join(rules);
    if !documentation.is_empty() {
        full.push_str(BLOCK_SEPARATOR);
        full.push_str("# Required documentation\n\n");
        full.push_str(&join(documentation));
    }
    full
}

/// Every import problem of one rule, each with its file and line: escapes,
/// missing files and headings, broken omission blocks in the documents it
/// imports, undecodable fragments, and the documentation budget for this
/// rule rendered alone. Empty when the rule renders.
pub(crate) fn check_imports(fs: &dyn FileSource, root: &str, rule: &Rule) -> Vec<Error> {
    let mut resolver = Resolver::new(fs, root);
    let mut errors = Vec::new();
    let mut selections = Vec::new();
    let mut seen = HashSet::new();
    for directive in expand_body(rule).directives {
        let place = Place::line(&rule.path, directive.line);
        let (document, fresh) = match resolver.open(&directive.path, &place) {
            Ok(opened) => opened,
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        if fresh {
            errors.extend(resolver.documents[document].omission_errors.iter().cloned());
        }
        let lines = match resolver.select(document, &directive, &place) {
            Ok(lines) => lines,
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        // A repeated line is checked like any other but counts once for
        // the budget, as in a render.
        if seen.insert((directive.path.clone(), directive.fragment.clone())) {
            selections.push(Selection {
                document,
                lines,
                reference: directive.reference(),
                path: directive.path,
                rule: rule.name.clone(),
            });
        }
    }
    let bytes = rendered_len(&documentation_blocks(&resolver.documents, selections));
    if bytes > DOCUMENTATION_BUDGET {
        errors.push(Error::at(Place::file(&rule.path), budget()));
    }
    errors
}

fn budget() -> ErrorKind {
    ErrorKind::DocumentationBudget {
        limit: DOCUMENTATION_BUDGET,
    }
}

fn rule_block(name: &str, lines: &[String]) -> Block {
    Block {
        kind: BlockKind::Rule {
            name: name.to_string(),
        },
        heading: format!("# {name}"),
        content: markdown::trim(&lines.join("\n")).to_string(),
    }
}

/// The length of the blocks rendered and joined, as the budget counts it.
fn rendered_len(blocks: &[Block]) -> usize {
    let separators = blocks.len().saturating_sub(1) * BLOCK_SEPARATOR.len();
    blocks
        .iter()
        .map(|block| block.heading.len() + 2 + block.content.len())
        .sum::<usize>()
        + separators
}

/// A document loaded for imports, once per real path within one render.
struct Document {
    text: String,
    /// Byte ranges of [`markdown::lines`] in `text`.
    lines: Vec<Range<usize>>,
    outline: Outline,
    slugs: HashMap<String, usize>,
    omitted: Vec<bool>,
    /// Nested, unexpected and unclosed markers, in line order with an
    /// unclosed one last: the first is the error the original raises.
    omission_errors: Vec<Error>,
}

impl Document {
    /// Parses a document loaded through directive path `written` from the
    /// root-joined `file`, where its own problems are placed.
    fn parse(written: &str, file: &str, text: String) -> Document {
        let line_ranges = line_ranges(&text);
        let lines: Vec<&str> = line_ranges
            .iter()
            .map(|range| &text[range.clone()])
            .collect();
        let outline = Outline::new(&lines);
        let (omitted, omission_errors) = omissions(written, file, &lines, &outline.fenced);
        let slugs = outline
            .headings
            .iter()
            .enumerate()
            .map(|(index, heading)| (heading.slug.clone(), index))
            .collect();
        Document {
            text,
            lines: line_ranges,
            outline,
            slugs,
            omitted,
            omission_errors,
        }
    }

    fn line(&self, index: usize) -> &str {
        &self.text[self.lines[index].clone()]
    }

    /// The lines of a range minus omitted ones, joined and trimmed.
    fn content(&self, range: Range<usize>) -> String {
        let kept: Vec<&str> = range
            .filter(|&index| !self.omitted[index])
            .map(|index| self.line(index))
            .collect();
        markdown::trim(&kept.join("\n")).to_string()
    }
}

/// Where each line of [`markdown::lines`] sits in the text.
fn line_ranges(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for (at, _) in text.match_indices('\n') {
        let end = if text[..at].ends_with('\r') {
            at - 1
        } else {
            at
        };
        ranges.push(start..end);
        start = at + 1;
    }
    ranges.push(start..text.len());
    ranges
}

/// Marks the lines of omission blocks (behaviour §3.6) and collects every
/// marker problem. After a problem the scan goes on as if the stray marker
/// were not there, so `check` can report the others.
fn omissions(
    written: &str,
    file: &str,
    lines: &[&str],
    fenced: &[bool],
) -> (Vec<bool>, Vec<Error>) {
    let mut omitted = vec![false; lines.len()];
    let mut errors = Vec::new();
    let mut open: Option<usize> = None;
    let problem = |kind: fn(String) -> ErrorKind, index: usize| {
        Error::at(Place::line(file, index + 1), kind(written.to_string()))
    };
    for (index, line) in lines.iter().enumerate() {
        if fenced[index] {
            continue;
        }
        match markdown::trim(line) {
            OMIT_START if open.is_some() => errors.push(problem(
                |document| ErrorKind::NestedOmission { document },
                index,
            )),
            OMIT_START => open = Some(index),
            OMIT_END => match open.take() {
                Some(start) => omitted[start..=index].fill(true),
                None => errors.push(problem(
                    |document| ErrorKind::UnexpectedOmissionEnd { document },
                    index,
                )),
            },
            _ => {}
        }
    }
    if let Some(start) = open {
        errors.push(problem(
            |document| ErrorKind::UnclosedOmission { document },
            start,
        ));
    }
    (omitted, errors)
}

/// One resolved import: a line range of a document, and who asked for it.
struct Selection {
    document: usize,
    lines: Range<usize>,
    reference: String,
    /// The directive's path as written.
    path: String,
    rule: String,
}

/// Resolves directive paths against the project root and loads each
/// document once per real path, so two spellings of one file (a link and
/// its target) are one document whose selections merge.
struct Resolver<'a> {
    fs: &'a dyn FileSource,
    root: &'a str,
    real_root: Option<String>,
    documents: Vec<Document>,
    by_real_path: HashMap<String, usize>,
}

impl<'a> Resolver<'a> {
    fn new(fs: &'a dyn FileSource, root: &'a str) -> Self {
        Resolver {
            fs,
            root,
            real_root: None,
            documents: Vec::new(),
            by_real_path: HashMap::new(),
        }
    }

    fn real_root(&mut self, place: &Place) -> Result<String, Error> {
        if let Some(real) = &self.real_root {
            return Ok(real.clone());
        }
        let real = self.fs.real_path(self.root).map_err(|e| {
            Error::at(
                place.clone(),
                ErrorKind::CannotResolveRoot {
                    root: self.root.to_string(),
                    reason: e.to_string(),
                },
            )
        })?;
        self.real_root = Some(real.clone());
        Ok(real)
    }

    /// The document a directive path names (behaviour §3.3), loading it on
    /// first use; `true` when this call loaded it.
    fn open(&mut self, path: &str, place: &Place) -> Result<(usize, bool), Error> {
        let fail = |kind: fn(String) -> ErrorKind| Error::at(place.clone(), kind(path.to_string()));
        let real_root = self.real_root(place)?;
        let candidate = paths::normalize_lexically(&paths::join(&real_root, path));
        if paths::strip_base(&candidate, &real_root).is_none() {
            return Err(fail(|path| ErrorKind::ImportEscapesRoot { path }));
        }
        if !self.fs.is_file(&candidate) {
            return Err(fail(|path| ErrorKind::ImportMissing { path }));
        }
        let real = self.fs.real_path(&candidate).map_err(|e| {
            Error::at(
                place.clone(),
                ErrorKind::CannotResolveImport {
                    path: path.to_string(),
                    reason: e.to_string(),
                },
            )
        })?;
        if paths::strip_base(&real, &real_root).is_none() {
            return Err(fail(|path| ErrorKind::ImportOutsideRoot { path }));
        }
        if let Some(&index) = self.by_real_path.get(&real) {
            return Ok((index, false));
        }
        // Inside the root, checked above; a regular file within the read
        // bound (behaviour §0.1), so a FIFO or a huge file fails here.
        let bytes = Containment::project(self.fs, &real_root)
            .read(self.fs, &candidate)
            .map_err(|why| {
                Error::at(
                    place.clone(),
                    ErrorKind::CannotReadImport {
                        path: path.to_string(),
                        reason: why.to_string(),
                    },
                )
            })?;
        let text = decode_document(path, &candidate, &bytes)?;
        self.documents.push(Document::parse(path, &candidate, text));
        self.by_real_path.insert(real, self.documents.len() - 1);
        Ok((self.documents.len() - 1, true))
    }

    /// The line range a directive selects: every line, or the section of
    /// the heading whose slug the decoded, lower-cased fragment equals.
    fn select(
        &self,
        document: usize,
        directive: &Directive,
        place: &Place,
    ) -> Result<Range<usize>, Error> {
        let document = &self.documents[document];
        let Some(fragment) = &directive.fragment else {
            return Ok(0..document.outline.line_count());
        };
        let wanted = decode_fragment(fragment)
            .map_err(|why| {
                Error::at(
                    place.clone(),
                    ErrorKind::ImportFragmentEncoding {
                        reference: directive.reference(),
                        why,
                    },
                )
            })?
            .to_lowercase();
        match document.slugs.get(&wanted) {
            Some(&heading) => Ok(document.outline.section(heading)),
            None => Err(Error::at(
                place.clone(),
                ErrorKind::ImportHeadingMissing {
                    path: directive.path.clone(),
                    nearest: nearest_slug(&wanted, document.slugs.keys()),
                    heading: wanted.into(),
                },
            )),
        }
    }
}

/// The heading slug a missing `#fragment` most likely means, compared
/// without the separators slugs differ by (`#rollback` against
/// `## Roll back`, slug `roll-back`), then by edit distance.
fn nearest_slug<'a>(wanted: &str, slugs: impl Iterator<Item = &'a String>) -> Option<Box<str>> {
    let bare = |slug: &str| -> String { slug.chars().filter(|c| c.is_alphanumeric()).collect() };
    let wanted = bare(wanted);
    let slugs: Vec<(String, &String)> = slugs.map(|slug| (bare(slug), slug)).collect();
    let near = text::closest(&wanted, slugs.iter().map(|(bare, _)| bare.as_str()))?;
    slugs
        .iter()
        .filter(|(bare, _)| bare == near)
        .map(|(_, slug)| slug.as_str())
        .min()
        .map(Box::from)
}

/// A document's text. A byte order mark is dropped so a heading on the
/// first line is still a heading; text that is not UTF-8 is an error at
/// the document's line rather than silently replaced characters.
fn decode_document(written: &str, file: &str, bytes: &[u8]) -> Result<String, Error> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    text::decode(bytes).map_err(|error| {
        Error::at(
            Place::line(file, error.line),
            ErrorKind::ImportNotUtf8 {
                import: written.to_string(),
                error,
            },
        )
    })
}

/// Merges selections into documentation blocks (behaviour §3.7): grouped by
/// document in order of first import, sorted by (start, end), overlapping or
/// adjacent ranges joined.
fn documentation_blocks(documents: &[Document], selections: Vec<Selection>) -> Vec<Block> {
    let mut order: Vec<usize> = Vec::new();
    let mut groups: HashMap<usize, Vec<Selection>> = HashMap::new();
    for selection in selections {
        if !groups.contains_key(&selection.document) {
            order.push(selection.document);
        }
        groups
            .entry(selection.document)
            .or_default()
            .push(selection);
    }
    let mut blocks = Vec::new();
    for document in order {
        let mut group = groups.remove(&document).unwrap_or_default();
        group.sort_by_key(|selection| (selection.lines.start, selection.lines.end));
        for merged in merge_ranges(group) {
            blocks.push(documentation_block(&documents[document], &merged));
        }
    }
    blocks
}

/// Selections whose ranges overlap or touch, as one range.
struct Merged {
    lines: Range<usize>,
    selections: Vec<Selection>,
}

fn merge_ranges(sorted: Vec<Selection>) -> Vec<Merged> {
    let mut merged: Vec<Merged> = Vec::new();
    for selection in sorted {
        match merged.last_mut() {
            // Ends are exclusive, so `<=` joins adjacent sections too.
            Some(current) if selection.lines.start <= current.lines.end => {
                current.lines.end = current.lines.end.max(selection.lines.end);
                current.selections.push(selection);
            }
            _ => merged.push(Merged {
                lines: selection.lines.clone(),
                selections: vec![selection],
            }),
        }
    }
    merged
}

fn documentation_block(document: &Document, merged: &Merged) -> Block {
    // References in order of first appearance, each with its rules.
    let mut references: Vec<(&str, &str, Vec<&str>)> = Vec::new();
    for selection in &merged.selections {
        match references
            .iter_mut()
            .find(|(reference, _, _)| *reference == selection.reference)
        {
            Some((_, _, rules)) => {
                if !rules.contains(&selection.rule.as_str()) {
                    rules.push(&selection.rule);
                }
            }
            None => references.push((&selection.reference, &selection.path, vec![&selection.rule])),
        }
    }
    let named: Vec<String> = references
        .iter()
        .map(|(reference, _, rules)| format!("`{reference}` ({})", rules.join(", ")))
        .collect();
    Block {
        kind: BlockKind::Documentation {
            paths: references
                .iter()
                .map(|(_, path, _)| paths::normalize_for_match(path))
                .collect(),
        },
        heading: format!("## Required context: {}", named.join(", ")),
        content: document.content(merged.lines.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;

    const ROOT: &str = "/p";

    fn rule(name: &str, text: &str) -> Rule {
        Rule::parse(name, &format!("/p/.cursor/rules/{name}"), text)
    }

    fn project(files: &[(&str, &str)]) -> MemoryFs {
        let mut fs = MemoryFs::new();
        fs.add_dir(ROOT);
        for (path, content) in files {
            fs.add_file(&paths::join(ROOT, path), content);
        }
        fs
    }

    fn render(fs: &MemoryFs, rules: &[&Rule]) -> Result<String, RenderError> {
        render_blocks(fs, ROOT, rules).map(|blocks| render_full(&blocks))
    }

    fn render_err(fs: &MemoryFs, rules: &[&Rule]) -> Error {
        render(fs, rules).unwrap_err().error
    }

    fn documentation(blocks: &[Block]) -> Vec<&Block> {
        blocks
            .iter()
            .filter(|b| matches!(b.kind, BlockKind::Documentation { .. }))
            .collect()
    }

    const GUIDE_45: &str =
        "# Guide\n\n## UI\n\nui text\n\n## Middle\n\nmiddle text\n\n## API\n\napi text\n";

    #[test]
    fn case_45_sections_and_a_shared_file_render_once_each() {
        let fs = project(&[
            ("doc/guide.md", GUIDE_45),
            ("doc/shared.md", "# Shared\n\nshared text\n"),
        ]);
        let ui = rule("ui.mdc", "# UI\n\n@doc/guide.md#ui\n@doc/shared.md\n");
        let api = rule("api.mdc", "# API\n\n@doc/guide.md#api\n@doc/shared.md\n");
        let out = render(&fs, &[&ui, &api]).unwrap();
        assert!(
            out.contains("## Required context: `doc/guide.md#ui` (ui.mdc)\n\n## UI\n\nui text"),
            "{out}"
        );
        assert!(
            out.contains("## Required context: `doc/guide.md#api` (api.mdc)\n\n## API\n\napi text"),
            "{out}"
        );
        assert!(
            out.contains("## Required context: `doc/shared.md` (ui.mdc, api.mdc)"),
            "{out}"
        );
        assert!(!out.contains("middle text"));
        assert_eq!(out.matches("shared text").count(), 1);
    }

    #[test]
    fn annotations_and_decorators_are_text_not_imports() {
        // A bare `@Data` line once failed the import and silenced the rule.
        let fs = project(&[("doc/x.md", "# X\n\nx text\n")]);
        let java = rule(
            "java.mdc",
            "# Java\n\n@Data\n@Service\npublic class A {}\n\n@asynccontextmanager\n@doc/x.md\n",
        );
        let out = render(&fs, &[&java]).unwrap();
        assert!(
            out.contains("\n@Data\n@Service\npublic class A {}"),
            "{out}"
        );
        assert!(out.contains("\n@asynccontextmanager\n"), "{out}");
        assert!(out.contains("x text"), "{out}");
        assert_eq!(expand_body(&java).directives.len(), 1);
    }

    #[test]
    fn case_46_a_heading_with_a_link_is_found_by_its_text() {
        let fs = project(&[(
            "doc/guide.md",
            "# Guide\n\n## [Testing](testing.md)\n\nrun the tests\n\n## Next\n\nnext text\n",
        )]);
        let out = render(&fs, &[&rule("t.mdc", "@doc/guide.md#testing")]).unwrap();
        assert!(
            out.contains("## [Testing](testing.md)\n\nrun the tests"),
            "{out}"
        );
        assert!(!out.contains("next text"));
    }

    #[test]
    fn case_47_adjacent_sections_of_two_rules_merge_into_one_block() {
        let fs = project(&[(
            "doc/guide.md",
            "## One\n\none\n\n## Two\n\ntwo\n\n## Three\n\nthree\n\n## Four\n\nfour\n",
        )]);
        let a = rule("a.mdc", "@doc/guide.md#one\n@doc/guide.md#two");
        let b = rule("b.mdc", "@doc/guide.md#two\n@doc/guide.md#three");
        let blocks = render_blocks(&fs, ROOT, &[&a, &b]).unwrap();
        let docs = documentation(&blocks);
        assert_eq!(docs.len(), 1);
        assert_eq!(
            docs[0].heading,
            "## Required context: `doc/guide.md#one` (a.mdc), `doc/guide.md#two` (a.mdc, b.mdc), `doc/guide.md#three` (b.mdc)"
        );
        assert_eq!(
            docs[0].content,
            "## One\n\none\n\n## Two\n\ntwo\n\n## Three\n\nthree"
        );
        assert_eq!(render_full(&blocks).matches("## Two").count(), 1);
    }

    #[test]
    fn sections_with_a_gap_stay_apart_and_a_whole_file_absorbs_sections() {
        let fs = project(&[(
            "doc/guide.md",
            "## One\n\none\n\n## Two\n\ntwo\n\n## Three\n\nthree\n",
        )]);
        let apart = rule("a.mdc", "@doc/guide.md#three\n@doc/guide.md#one");
        let blocks = render_blocks(&fs, ROOT, &[&apart]).unwrap();
        let headings: Vec<&str> = documentation(&blocks)
            .iter()
            .map(|b| b.heading.as_str())
            .collect();
        assert_eq!(
            headings,
            vec![
                "## Required context: `doc/guide.md#one` (a.mdc)",
                "## Required context: `doc/guide.md#three` (a.mdc)"
            ]
        );
        let whole = rule("w.mdc", "@doc/guide.md#two\n@doc/guide.md");
        let blocks = render_blocks(&fs, ROOT, &[&whole]).unwrap();
        let docs = documentation(&blocks);
        assert_eq!(docs.len(), 1);
        assert_eq!(
            docs[0].heading,
            "## Required context: `doc/guide.md` (w.mdc), `doc/guide.md#two` (w.mdc)"
        );
        assert_eq!(
            docs[0].kind,
            BlockKind::Documentation {
                paths: vec!["doc/guide.md".into(), "doc/guide.md".into()]
            }
        );
    }

    #[test]
    fn case_48_a_link_keeps_the_path_as_written_and_merges_with_its_target() {
        let mut fs = project(&[("doc/guide.md", "## One\n\none\n\n## Two\n\ntwo\n")]);
        fs.add_link("/p/doc/link.md", "guide.md");
        let c = rule("c.mdc", "@doc/link.md#one");
        let blocks = render_blocks(&fs, ROOT, &[&c]).unwrap();
        assert_eq!(
            documentation(&blocks)[0].kind,
            BlockKind::Documentation {
                paths: vec!["doc/link.md".into()]
            }
        );
        // Two spellings of one file are one document: adjacent selections merge.
        let both = rule("d.mdc", "@doc/link.md#one\n@./doc/guide.md#two");
        let blocks = render_blocks(&fs, ROOT, &[&both]).unwrap();
        let docs = documentation(&blocks);
        assert_eq!(docs.len(), 1);
        assert_eq!(
            docs[0].heading,
            "## Required context: `doc/link.md#one` (d.mdc), `./doc/guide.md#two` (d.mdc)"
        );
        assert_eq!(
            docs[0].kind,
            BlockKind::Documentation {
                paths: vec!["doc/link.md".into(), "doc/guide.md".into()]
            }
        );
    }

    #[test]
    fn links_leaving_the_root_and_paths_escaping_it_fail() {
        let mut fs = project(&[("doc/guide.md", "# G")]);
        fs.add_file("/outside.md", "# O")
            .add_file("/p-other/x.md", "# X");
        fs.add_link("/p/doc/out.md", "/outside.md");
        fs.add_link("/p/doc/sibling.md", "../../p-other/x.md");
        let message = |body: &str| render_err(&fs, &[&rule("r.mdc", body)]).message();
        assert_eq!(
            message("@doc/out.md"),
            "Rule import resolves outside the project root: doc/out.md"
        );
        assert_eq!(
            message("@doc/sibling.md"),
            "Rule import resolves outside the project root: doc/sibling.md"
        );
        assert_eq!(
            message("@../outside.md"),
            "Rule import escapes the project root: ../outside.md"
        );
        assert_eq!(
            message("@doc/../../p-other/x.md"),
            "Rule import escapes the project root: doc/../../p-other/x.md"
        );
        assert_eq!(
            message("@/etc/passwd"),
            "Rule import escapes the project root: /etc/passwd"
        );
        assert_eq!(
            message("@doc/missing.md"),
            "Rule import does not exist: doc/missing.md"
        );
        // A path with neither `/` nor `.` is text (behaviour §3.1).
        assert!(render(&fs, &[&rule("r.mdc", "@doc")]).is_ok());
        assert_eq!(message("@."), "Rule import does not exist: .");
        // Climbing out and back in stays inside.
        assert!(render(&fs, &[&rule("r.mdc", "@doc/../doc/guide.md")]).is_ok());
    }

    #[test]
    fn a_root_reached_through_a_link_resolves_imports() {
        let mut fs = MemoryFs::new();
        fs.add_file("/real/doc/guide.md", "## One\n\none\n");
        fs.add_link("/p", "/real");
        let blocks = render_blocks(&fs, "/p", &[&rule("r.mdc", "@doc/guide.md#one")]).unwrap();
        assert_eq!(documentation(&blocks)[0].content, "## One\n\none");
        let err = render_blocks(&fs, "/nowhere", &[&rule("r.mdc", "@doc/guide.md")]).unwrap_err();
        assert!(
            err.error
                .message()
                .starts_with("Cannot resolve the project root /nowhere"),
            "{}",
            err.error
        );
    }

    const WIN_RULE: &str =
        "---\r\nglobs: src/**\r\n---\r\n# Windows rule\r\n\r\n@doc/guide.md#section\r\n";
    const WIN_GUIDE: &str =
        "# Guide\r\n\r\n## Section\r\n\r\nline one\r\n\r\n## Other\r\n\r\nnot imported\r\n";

    #[test]
    fn case_49_crlf_rules_and_documents() {
        let fs = project(&[("doc/guide.md", WIN_GUIDE)]);
        let out = render(&fs, &[&rule("win.mdc", WIN_RULE)]).unwrap();
        assert!(out.starts_with("# win.mdc\n\n# Windows rule"), "{out}");
        assert!(!out.contains("globs:") && !out.contains('\r'));
        assert!(out.contains("## Required context: `doc/guide.md#section` "));
        assert!(out.contains("line one") && !out.contains("not imported"));
        // The same files with LF, or with mixed endings, render the same.
        let lf = project(&[("doc/guide.md", &WIN_GUIDE.replace("\r\n", "\n"))]);
        assert_eq!(
            render(&lf, &[&rule("win.mdc", &WIN_RULE.replace("\r\n", "\n"))]).unwrap(),
            out
        );
        let mixed = project(&[("doc/guide.md", &WIN_GUIDE.replacen("\r\n", "\n", 3))]);
        assert_eq!(
            render(
                &mixed,
                &[&rule("win.mdc", &WIN_RULE.replacen("\r\n", "\n", 2))]
            )
            .unwrap(),
            out
        );
    }

    #[test]
    fn case_50_the_directive_line_becomes_a_pointer() {
        let fs = project(&[(
            "doc/guide.md",
            "# Guide\n\n## Dialogs\n\ndialog text\n\n## Menus\n\nmenu text\n",
        )]);
        let ui = rule(
            "ui.mdc",
            "# UI\n\n### Dialogs\n\n@doc/guide.md#dialogs\n\n### Next\n\nprose",
        );
        let out = render(&fs, &[&ui]).unwrap();
        assert!(out.contains(
            "### Dialogs\n\nImported: `doc/guide.md#dialogs` (delivered as a Required context block)\n\n### Next"
        ));
        assert!(!out.contains("@doc/guide.md"));
        assert_eq!(out.matches("dialog text").count(), 1);
        assert!(out.contains(
            "## Required context: `doc/guide.md#dialogs` (ui.mdc)\n\n## Dialogs\n\ndialog text"
        ));
        // The pointer keeps the fragment as written; a whole file has none.
        let shouty = rule("s.mdc", "  @doc/guide.md#DIALOGS\t\n@doc/guide.md");
        let blocks = render_blocks(&fs, ROOT, &[&shouty]).unwrap();
        assert_eq!(
            blocks[0].content,
            "Imported: `doc/guide.md#DIALOGS` (delivered as a Required context block)\n\
             Imported: `doc/guide.md` (delivered as a Required context block)"
        );
    }

    #[test]
    fn case_51_a_child_section_inside_an_imported_parent_is_delivered_once() {
        let fs = project(&[(
            "doc/guide.md",
            "## Alpha\n\nalpha body\n\n### Detail\n\ndetail body\n\n## Beta\n\nbeta body\n",
        )]);
        let a = rule("a.mdc", "@doc/guide.md#alpha");
        let d = rule("d.mdc", "@doc/guide.md#detail");
        let out = render(&fs, &[&a, &d]).unwrap();
        assert!(out.contains("## Alpha") && out.contains("### Detail"));
        assert!(!out.contains("beta body"));
        assert_eq!(out.matches("detail body").count(), 1);
    }

    #[test]
    fn case_52_omission_blocks_are_removed_outside_fences_only() {
        let doc = "# Doc\n\nvisible\n\n<!-- agent-context: omit -->\nhuman-only detail\n  <!-- /agent-context -->  \n\n\
                   ```\n<!-- agent-context: omit -->\nexample detail\n<!-- /agent-context -->\n```\n\nafter\n";
        let fs = project(&[("doc/guide.md", doc)]);
        let out = render(&fs, &[&rule("r.mdc", "@doc/guide.md")]).unwrap();
        assert!(
            out.contains("visible") && out.contains("after") && out.contains("example detail"),
            "{out}"
        );
        assert!(!out.contains("human-only detail"));
        assert_eq!(out.matches("<!-- agent-context: omit -->").count(), 1);
    }

    #[test]
    fn an_omission_is_cut_from_every_range_it_touches() {
        let doc = "## One\n\none\n<!-- agent-context: omit -->\nsecret one\n\n## Two\n\nsecret two\n<!-- /agent-context -->\ntwo\n";
        let fs = project(&[("doc/guide.md", doc)]);
        let blocks = render_blocks(&fs, ROOT, &[&rule("r.mdc", "@doc/guide.md#two")]).unwrap();
        assert_eq!(documentation(&blocks)[0].content, "two");
        let blocks = render_blocks(&fs, ROOT, &[&rule("r.mdc", "@doc/guide.md#one")]).unwrap();
        assert_eq!(documentation(&blocks)[0].content, "## One\n\none");
    }

    #[test]
    fn case_53_a_directive_inside_a_fence_is_example_text() {
        let body = "# Example\n\n```md\n@doc/missing.md#missing\n```\n";
        let out = render(&project(&[]), &[&rule("r.mdc", body)]).unwrap();
        assert!(out.contains("```md\n@doc/missing.md#missing\n```"));
        assert!(!out.contains("Required documentation"));
        // An unclosed fence hides every directive after it.
        let unclosed = "~~~\n@doc/missing.md\n\n@doc/missing.md#x";
        assert!(render(&project(&[]), &[&rule("r.mdc", unclosed)]).is_ok());
    }

    #[test]
    fn plain_text_that_resembles_a_directive_stays() {
        let body = "see @doc/missing.md here\n- @doc/missing.md\n@doc/has space.md\n@~/x.md\n@doc/x.md#\n@doc/x.md#a b";
        let blocks = render_blocks(&project(&[]), ROOT, &[&rule("r.mdc", body)]).unwrap();
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].content, body);
    }

    #[test]
    fn case_54_a_missing_heading_names_the_decoded_fragment_and_the_line() {
        let fs = project(&[("doc/guide.md", "# Guide\n\n## Agent checks\n")]);
        let r = rule("r.mdc", "---\nglobs: src/**\n---\n# R\n\n@doc/guide.md#Agent-Checks\n@doc/guide.md#No%20Such+Heading\n");
        let err = render_err(&fs, &[&r]);
        assert_eq!(
            err.message(),
            "Rule import heading does not exist: doc/guide.md#no such heading"
        );
        assert_eq!(err.place, Some(Place::line("/p/.cursor/rules/r.mdc", 7)));
    }

    #[test]
    fn a_missing_heading_suggests_the_one_it_most_likely_means() {
        let fs = project(&[(
            "doc/ops.md",
            "# Ops\n\n## Roll back\n\n## Deploy\n\n## Monitoring\n",
        )]);
        let said = |fragment: &str| {
            let r = rule(
                "r.mdc",
                &format!("---\nglobs: src/**\n---\n# R\n\n@doc/ops.md#{fragment}\n"),
            );
            render_err(&fs, &[&r]).message()
        };
        // Slugs are compared without their separators first.
        assert_eq!(
            said("rollback"),
            "Rule import heading does not exist: doc/ops.md#rollback; did you mean doc/ops.md#roll-back?"
        );
        assert_eq!(
            said("deploi"),
            "Rule import heading does not exist: doc/ops.md#deploi; did you mean doc/ops.md#deploy?"
        );
        // Nothing near: no guess.
        assert_eq!(
            said("security"),
            "Rule import heading does not exist: doc/ops.md#security"
        );
    }

    #[test]
    fn fragments_are_decoded_and_lower_cased() {
        let fs = project(&[("doc/guide.md", "## Café crème\n\nfound\n")]);
        for fragment in ["caf%C3%A9-cr%C3%A8me", "Caf%c3%a9-CRÈME", "café-crème"] {
            let blocks = render_blocks(
                &fs,
                ROOT,
                &[&rule("r.mdc", &format!("@doc/guide.md#{fragment}"))],
            )
            .unwrap();
            assert_eq!(
                documentation(&blocks)[0].content,
                "## Café crème\n\nfound",
                "{fragment}"
            );
        }
        assert_eq!(decode_fragment("a+b%2Bc").unwrap(), "a b+c");
        assert_eq!(decode_fragment("%C3").unwrap(), "\u{fffd}");
        assert_eq!(decode_fragment("%C3x%A9").unwrap(), "\u{fffd}x\u{fffd}");
    }

    #[test]
    fn a_malformed_percent_escape_is_a_clear_error() {
        let fs = project(&[("doc/guide.md", "## A\n")]);
        for fragment in ["%", "a%4", "%zz", "%é1", "%%41"] {
            let err = render_err(
                &fs,
                &[&rule("r.mdc", &format!("\n@doc/guide.md#{fragment}"))],
            );
            assert!(
                err.message().starts_with(
                    "Rule import fragment is not valid percent-encoding: doc/guide.md#"
                ),
                "{err}"
            );
            // The body starts at its first non-blank line.
            assert_eq!(err.place, Some(Place::line("/p/.cursor/rules/r.mdc", 2)));
        }
    }

    #[test]
    fn case_55_an_unclosed_omission_names_its_line_in_the_document() {
        let fs = project(&[(
            "doc/guide.md",
            "# G\n\n## A\n\n<!-- agent-context: omit -->\nhidden\n",
        )]);
        let err = render_err(&fs, &[&rule("r.mdc", "@doc/guide.md#a")]);
        assert_eq!(
            err.message(),
            "Unclosed agent-context omission in doc/guide.md"
        );
        assert_eq!(err.place, Some(Place::line("/p/doc/guide.md", 5)));
    }

    #[test]
    fn case_56_nested_and_unexpected_omission_markers() {
        let nested = "<!-- agent-context: omit -->\n<!-- agent-context: omit -->\nx\n<!-- /agent-context -->\n<!-- /agent-context -->\n";
        let fs = project(&[
            ("doc/nested.md", nested),
            ("doc/stray.md", "## A\n\n<!-- /agent-context -->\n"),
        ]);
        let err = render_err(&fs, &[&rule("r.mdc", "@doc/nested.md")]);
        assert_eq!(
            err.message(),
            "Nested agent-context omission in doc/nested.md"
        );
        assert_eq!(err.place, Some(Place::line("/p/doc/nested.md", 2)));
        // Validated over the whole document, even for a section elsewhere.
        let fs = project(&[(
            "doc/stray.md",
            "## A\n\na\n\n## B\n\n<!-- /agent-context -->\n",
        )]);
        let err = render_err(&fs, &[&rule("r.mdc", "@doc/stray.md#a")]);
        assert_eq!(
            err.message(),
            "Unexpected agent-context omission end in doc/stray.md"
        );
        assert_eq!(err.place, Some(Place::line("/p/doc/stray.md", 7)));
    }

    #[test]
    fn case_57_a_parent_path_escapes_the_root() {
        let mut fs = project(&[]);
        fs.add_file("/outside.md", "# Outside");
        let r = rule("r.mdc", "# R\n\n@../outside.md\n");
        let err = render_err(&fs, &[&r]);
        assert!(err.message().contains("escapes the project root"));
        assert_eq!(err.place, Some(Place::line("/p/.cursor/rules/r.mdc", 3)));
    }

    /// A document whose whole-file block renders to exactly `bytes`.
    fn document_rendering_to(bytes: usize) -> String {
        let heading = "## Required context: `doc/big.md` (big.mdc)\n\n";
        let body_len = bytes - heading.len() - "# Big\n\n".len();
        format!(
            "# Big\n\n{}",
            "é".repeat(body_len / 2) + &"x".repeat(body_len % 2)
        )
    }

    #[test]
    fn case_58_the_documentation_budget() {
        let big = rule("big.mdc", "@doc/big.md");
        let fs = project(&[("doc/big.md", &"x".repeat(65_537))]);
        let err = render(&fs, &[&big]).unwrap_err();
        assert_eq!(
            err.error.message(),
            "Expanded rule documentation exceeds 65536 bytes"
        );
        assert!(err.expanded_bytes.unwrap() > 65_537);
        let exact = project(&[("doc/big.md", &document_rendering_to(65_536))]);
        assert!(render(&exact, &[&big]).is_ok());
        let over = project(&[("doc/big.md", &document_rendering_to(65_537))]);
        assert_eq!(
            render(&over, &[&big]).unwrap_err().expanded_bytes,
            Some(65_537)
        );
        // Rule bodies do not count.
        let long_rule = rule("long.mdc", &"y".repeat(200_000));
        assert!(render(&exact, &[&long_rule, &big]).is_ok());
    }

    #[test]
    fn the_budget_counts_the_separators_between_blocks() {
        let half = document_rendering_to(32_768);
        let fs = project(&[
            ("doc/big.md", &half),
            ("doc/other.md", &half.replace("big", "oth")),
        ]);
        let a = rule("big.mdc", "@doc/big.md");
        let b = rule("big.mdc", "@doc/other.md");
        let err = render(&fs, &[&a, &b]).unwrap_err();
        assert_eq!(err.expanded_bytes, Some(65_536 + 2 + BLOCK_SEPARATOR.len()));
    }

    #[test]
    fn case_59_rendering_the_rules_two_paths_matched() {
        let fs = project(&[
            (
                "doc/ui.md",
                "# UI docs\n\n## Components\n\nreuse components\n\n## Other\n\nnot imported\n",
            ),
            ("doc/db.md", "# Database\n"),
        ]);
        let ui = rule(
            "ui.mdc",
            "---\nglobs: apps/**/ui/**/*.clj\n---\n# UI\n\n@doc/ui.md#components\n",
        );
        let testing = rule(
            "testing.mdc",
            "---\nglobs: **/test/**/*.clj\n---\n# Testing\n\nWrite tests.\n",
        );
        let out = render(&fs, &[&testing, &ui]).unwrap();
        assert!(out.contains("# ui.mdc\n\n# UI") && out.contains("# testing.mdc\n\n# Testing"));
        assert!(
            out.contains("## Required context: `doc/ui.md#components` ")
                && out.contains("reuse components")
        );
        assert!(!out.contains("# Database") && !out.contains("not imported"));
    }

    #[test]
    fn case_60_the_full_rendering() {
        let conventions = "# Test conventions\n\n## Given, when, then\n\nName each testing block by its phase.\n\n## Fixtures\n\nfixture text\n";
        let fs = project(&[("doc/conventions/test_conventions.md", conventions)]);
        let testing = rule(
            "testing.mdc",
            "---\nglobs: **/test/**\n---\n# Testing\n\n@doc/conventions/test_conventions.md#given-when-then\n",
        );
        assert_eq!(
            render(&fs, &[&testing]).unwrap(),
            "# testing.mdc\n\n# Testing\n\n\
             Imported: `doc/conventions/test_conventions.md#given-when-then` (delivered as a Required context block)\n\n\
             ---\n\n# Required documentation\n\n\
             ## Required context: `doc/conventions/test_conventions.md#given-when-then` (testing.mdc)\n\n\
             ## Given, when, then\n\nName each testing block by its phase."
        );
    }

    #[test]
    fn rules_without_imports_and_empty_bodies() {
        let a = rule("a.mdc", "# A\n\ntext");
        let empty = rule("empty.mdc", "---\nalwaysApply: true\n---\n");
        let out = render(&project(&[]), &[&a, &empty]).unwrap();
        assert_eq!(out, "# a.mdc\n\n# A\n\ntext\n\n---\n\n# empty.mdc\n\n");
        assert_eq!(render_full(&[]), "");
    }

    #[test]
    fn rule_files_importing_each_other_just_render() {
        let a_text = "# A\n\n@.cursor/rules/b.mdc\n";
        let b_text = "---\nalwaysApply: true\n---\n# B\n\n@.cursor/rules/a.mdc\n";
        let fs = project(&[
            (".cursor/rules/a.mdc", a_text),
            (".cursor/rules/b.mdc", b_text),
        ]);
        let (a, b) = (rule("a.mdc", a_text), rule("b.mdc", b_text));
        let out = render(&fs, &[&a, &b]).unwrap();
        // Imports are not recursive: b's text, frontmatter included, verbatim.
        assert!(out.contains("## Required context: `.cursor/rules/b.mdc` (a.mdc)\n\n---\nalwaysApply: true\n---\n# B\n\n@.cursor/rules/a.mdc"));
        assert!(out.contains(
            "## Required context: `.cursor/rules/a.mdc` (b.mdc)\n\n# A\n\n@.cursor/rules/b.mdc"
        ));
        assert!(check_imports(&fs, ROOT, &a).is_empty());
    }

    #[test]
    fn a_heading_repeated_a_thousand_times() {
        let doc = "## x\n\ntext\n\n".repeat(1_000);
        let fs = project(&[("doc/many.md", &doc)]);
        let r = rule(
            "r.mdc",
            "@doc/many.md#x\n@doc/many.md#x-500\n@doc/many.md#x-999\n@doc/many.md#x-1000",
        );
        assert_eq!(
            render_err(&fs, &[&r]).message(),
            "Rule import heading does not exist: doc/many.md#x-1000; did you mean doc/many.md#x-100?"
        );
        let r = rule(
            "r.mdc",
            "@doc/many.md#x\n@doc/many.md#x-500\n@doc/many.md#x-999",
        );
        let blocks = render_blocks(&fs, ROOT, &[&r]).unwrap();
        assert_eq!(documentation(&blocks).len(), 3);
        assert_eq!(documentation(&blocks)[2].content, "## x\n\ntext");
    }

    #[test]
    fn a_four_megabyte_document_and_one_over_the_read_bound() {
        let doc = format!(
            "# Big\n\n{}## Small\n\nsmall text\n",
            "A line of prose that goes on.\n".repeat(135_000)
        );
        assert!(doc.len() > 4_000_000);
        let fs = project(&[("doc/big.md", &doc)]);
        let section = render_blocks(&fs, ROOT, &[&rule("r.mdc", "@doc/big.md#small")]).unwrap();
        assert_eq!(documentation(&section)[0].content, "## Small\n\nsmall text");
        let whole = render_blocks(&fs, ROOT, &[&rule("r.mdc", "@doc/big.md")]).unwrap_err();
        assert!(whole.expanded_bytes.unwrap() > 4_000_000);
        // Over 4 MiB the document is not read (behaviour §0.1).
        let huge = project(&[("doc/huge.md", &doc.repeat(2))]);
        let error =
            render_blocks(&huge, ROOT, &[&rule("r.mdc", "@doc/huge.md#small")]).unwrap_err();
        assert!(
            error
                .error
                .to_string()
                .contains("Cannot read rule import doc/huge.md: it is too large"),
            "{}",
            error.error
        );
        let one_line = project(&[("doc/line.md", &format!("# {}", "[`](".repeat(1_300_000)))]);
        assert!(render_blocks(&one_line, ROOT, &[&rule("r.mdc", "@doc/line.md#x")]).is_err());
    }

    #[test]
    fn a_fence_that_never_closes_hides_the_headings_after_it() {
        let fs = project(&[(
            "doc/guide.md",
            "## Before\n\n```\ncode\n\n## After\n\n<!-- agent-context: omit -->\n",
        )]);
        let blocks = render_blocks(&fs, ROOT, &[&rule("r.mdc", "@doc/guide.md#before")]).unwrap();
        assert!(documentation(&blocks)[0]
            .content
            .ends_with("<!-- agent-context: omit -->"));
        let err = render_err(&fs, &[&rule("r.mdc", "@doc/guide.md#after")]);
        assert_eq!(
            err.message(),
            "Rule import heading does not exist: doc/guide.md#after"
        );
    }

    #[test]
    fn documents_that_are_not_utf8_are_named_with_their_line() {
        let mut fs = project(&[]);
        fs.add_file("/p/doc/bad.md", b"# Bad\n\n\xff\xfe".as_slice());
        fs.add_file(
            "/p/doc/bom.md",
            "\u{feff}# Title\n\nwith a byte order mark\n",
        );
        let err = render_err(&fs, &[&rule("r.mdc", "@doc/bad.md")]);
        assert_eq!(
            err.message(),
            "Rule import doc/bad.md is not valid UTF-8 text (invalid byte at offset 7, line 3)"
        );
        assert_eq!(err.place, Some(Place::line("/p/doc/bad.md", 3)));
        let blocks = render_blocks(&fs, ROOT, &[&rule("r.mdc", "@doc/bom.md#title")]).unwrap();
        assert_eq!(
            documentation(&blocks)[0].content,
            "# Title\n\nwith a byte order mark"
        );
    }

    #[test]
    fn check_reports_every_problem_with_its_line() {
        let fs = project(&[
            ("doc/guide.md", "## A\n\na\n"),
            ("doc/broken.md", "<!-- /agent-context -->\n<!-- agent-context: omit -->\n<!-- agent-context: omit -->\n"),
            ("doc/big.md", &"x".repeat(70_000)),
        ]);
        let r = rule(
            "r.mdc",
            "---\nglobs: x\n---\n# R\n@doc/missing.md\n@doc/guide.md#nope\n@../up.md\n@doc/broken.md\n@doc/guide.md#a\n@doc/guide.md#%zz\n@doc/broken.md#none\n@doc/big.md\n",
        );
        let found: Vec<(String, Option<usize>, String)> = check_imports(&fs, ROOT, &r)
            .into_iter()
            .map(|e| {
                let message = e.message();
                let place = e.place.unwrap();
                (place.file, place.line, message)
            })
            .collect();
        let rule_file = "/p/.cursor/rules/r.mdc".to_string();
        let broken = "/p/doc/broken.md".to_string();
        assert_eq!(
            found,
            vec![
                (rule_file.clone(), Some(5), "Rule import does not exist: doc/missing.md".into()),
                (rule_file.clone(), Some(6), "Rule import heading does not exist: doc/guide.md#nope".into()),
                (rule_file.clone(), Some(7), "Rule import escapes the project root: ../up.md".into()),
                (broken.clone(), Some(1), "Unexpected agent-context omission end in doc/broken.md".into()),
                (broken.clone(), Some(3), "Nested agent-context omission in doc/broken.md".into()),
                (broken.clone(), Some(2), "Unclosed agent-context omission in doc/broken.md".into()),
                (
                    rule_file.clone(),
                    Some(10),
                    "Rule import fragment is not valid percent-encoding: doc/guide.md#%zz (`%zz` is not a percent escape (% and two hex digits))".into()
                ),
                (rule_file.clone(), Some(11), "Rule import heading does not exist: doc/broken.md#none".into()),
                (rule_file.clone(), None, "Expanded rule documentation exceeds 65536 bytes".into()),
            ]
        );
        assert!(check_imports(&fs, ROOT, &rule("ok.mdc", "@doc/guide.md#a")).is_empty());
    }

    #[test]
    fn arbitrary_documents_and_directives_neither_panic_nor_hang() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        const PIECES: &[&str] = &[
            "# ",
            "## ",
            "### ",
            "A",
            "a",
            "b",
            " ",
            "\n",
            "\r\n",
            "\r",
            "```",
            "~~~",
            "`",
            "[",
            "](",
            ")",
            "<!-- agent-context: omit -->",
            "<!-- /agent-context -->",
            "é",
            "%",
            "+",
            "-",
        ];
        const FRAGMENTS: &[&str] = &[
            "a", "b", "a-1", "A", "%41", "%", "%zz", "a+b", "b-1", "é", "%C3%A9",
        ];
        for _ in 0..500 {
            let doc: String = (0..next(80)).map(|_| PIECES[next(PIECES.len())]).collect();
            let fs = project(&[("doc/x.md", &doc)]);
            let body: String = (0..next(6))
                .map(|_| match next(3) {
                    0 => "@doc/x.md\n".to_string(),
                    1 => format!("@doc/x.md#{}\n", FRAGMENTS[next(FRAGMENTS.len())]),
                    _ => "```\n".to_string(),
                })
                .collect();
            let r = rule("r.mdc", &body);
            let rendered = render_blocks(&fs, ROOT, &[&r]);
            let problems = check_imports(&fs, ROOT, &r);
            // `check` finds a problem exactly when rendering fails.
            assert_eq!(rendered.is_err(), !problems.is_empty(), "{doc:?} {body:?}");
        }
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn parse_directive_example() {
        use crate::render::imports::parse_directive;
        assert_eq!(
            parse_directive("  @doc/guide.md#Set-up "),
            Some(("doc/guide.md", Some("Set-up")))
        );
        assert_eq!(parse_directive("@doc/x.md"), Some(("doc/x.md", None)));
        assert_eq!(parse_directive("- @doc/x.md"), None);
        assert_eq!(parse_directive("@~/x.md"), None);
        assert_eq!(parse_directive("@Data"), None);
        use crate::render::imports::looks_like_annotation;
        for code in [
            "@Data",
            "  @Service",
            "@app.route(\"/\")",
            "@Test(timeout = 5)",
            "@_private",
        ] {
            assert!(looks_like_annotation(code), "{code}");
        }
        for text in [
            "@doc/x.md",
            "@ alone",
            "@mention in a sentence",
            "email@x.org",
            "@1x",
            "@a.md",
        ] {
            assert!(!looks_like_annotation(text), "{text}");
        }
        assert_eq!(parse_directive("@asynccontextmanager"), None);
        assert_eq!(parse_directive("@Service#x"), None);
        assert_eq!(parse_directive("@docs/API"), Some(("docs/API", None)));
        assert_eq!(
            parse_directive("@.env.example"),
            Some((".env.example", None))
        );
    }

    #[test]
    fn decode_fragment_example() {
        use crate::render::imports::decode_fragment;
        assert_eq!(decode_fragment("caf%C3%A9+bar").unwrap(), "café bar");
        assert!(decode_fragment("100%").is_err());
    }

    #[test]
    fn render_blocks_example() {
        use crate::base::fs::MemoryFs;
        use crate::render::imports::{render_blocks, render_full};
        use crate::rules::rule::Rule;
        let mut fs = MemoryFs::new();
        fs.add_file(
            "/p/doc/guide.md",
            "# Guide\n\n## Set up\n\nRun it.\n\n## Later\n\nNot now.\n",
        );
        let rule = Rule::parse(
            "a.mdc",
            "/p/.cursor/rules/a.mdc",
            "# A\n\n@doc/guide.md#set-up\n",
        );
        let blocks = render_blocks(&fs, "/p", &[&rule]).unwrap();
        assert_eq!(
            render_full(&blocks),
            "# a.mdc\n\n# A\n\nImported: `doc/guide.md#set-up` (delivered as a Required context block)\
             \n\n---\n\n# Required documentation\
             \n\n## Required context: `doc/guide.md#set-up` (a.mdc)\n\n## Set up\n\nRun it."
        );
    }
}
