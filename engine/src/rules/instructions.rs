//! The harness instruction files a review reads (behaviour §6.3):
//! `AGENTS.md`, `CLAUDE.md` and their relatives in the project root and in
//! every directory above a changed path, with their `@path` imports
//! followed the way Claude Code follows them, block comments stripped as
//! Claude Code strips them, and each real file included once however it is
//! reached (a link, an import, another directory's link to it).
//!
//! The list is the union of what either harness reads, less the files no
//! harness reads: Codex reads only `AGENTS.override.md` where one exists,
//! and Claude Code reads `AGENTS.md` only while no CLAUDE file is there.

use std::collections::HashMap;

use crate::base::contain::Containment;
use crate::base::error::{Error, ErrorKind, Place, Result};
use crate::base::fs::FileSource;
use crate::base::paths;
use crate::base::text;
use crate::rules::discovery::java_order;
use crate::syntax::markdown;

/// How many `@path` hops are followed from a discovered file, Claude Code's
/// limit: a file four hops away is included, its own imports are not.
pub(crate) const MAX_IMPORT_DEPTH: usize = 4;

/// The files whose presence makes Claude Code read CLAUDE files instead of
/// `AGENTS.md`: at the root for the whole session, in a directory for that
/// directory.
const CLAUDE_FILES: &[&str] = &["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];

/// One instruction file in the bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InstructionDocument {
    /// Relative to the project root when the file lies under it
    /// (lexically), otherwise absolute with `.` and `..` collapsed.
    pub path: String,
    /// Other display paths the same real file was reached under.
    pub also_at: Vec<String>,
    /// The file as it was reached: absolute and uncollapsed, so a `..` after
    /// a link can still be followed the way the file system follows it.
    pub file: String,
    /// The display path of the file whose `@path` pulled this one in.
    pub imported_by: Option<String>,
    /// Block comments stripped, LF line endings, trimmed.
    pub content: String,
}

/// The directories whose instruction files apply to the changed paths: the
/// root (`""`) and every ancestor directory of every path, by depth and
/// then by name. A path climbing out of the project adds nothing.
pub(crate) fn directories<S: AsRef<str>>(changed: &[S]) -> Vec<String> {
    let mut dirs: Vec<String> = vec![String::new()];
    for path in changed {
        let path = paths::normalize_for_match(path.as_ref());
        let segments: Vec<&str> = path.split('/').collect();
        if segments
            .iter()
            .any(|s| s.is_empty() || *s == "." || *s == "..")
        {
            continue;
        }
        for depth in 1..segments.len() {
            let dir = segments[..depth].join("/");
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
    }
    dirs.sort_by(|a, b| depth(a).cmp(&depth(b)).then_with(|| java_order(a, b)));
    dirs
}

fn depth(dir: &str) -> usize {
    if dir.is_empty() {
        0
    } else {
        dir.matches('/').count() + 1
    }
}

fn in_directory(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The instruction files that apply to `changed` under `root`, in bundle
/// order: each directory's files in `names` order, each followed depth
/// first by what it imports. `names` are the configured file names
/// ([`crate::config::Config::instruction_files`]); `home` resolves `@~/`
/// imports (none are followed without it).
pub(crate) fn documents<S: AsRef<str>>(
    fs: &dyn FileSource,
    root: &str,
    names: &[String],
    changed: &[S],
    home: Option<&str>,
) -> Result<Vec<InstructionDocument>> {
    let mut collector = Collector {
        fs,
        root: paths::normalize_lexically(root),
        home,
        inside: readable_instructions(fs, root, home),
        documents: Vec::new(),
        seen: HashMap::new(),
        lenient: false,
    };
    for path in discover(fs, root, names, changed) {
        let file = paths::join(root, &path);
        collector.include(path, file, None, 0)?;
    }
    Ok(collector.documents)
}

/// The configured files present in the directories `changed` reaches, less
/// those no harness reads. Each exception applies only when the configured
/// list holds the file it depends on (the override, or `CLAUDE.md`), so a
/// list naming `AGENTS.md` or `.claude/AGENTS.md` alone is taken as written.
fn discover<S: AsRef<str>>(
    fs: &dyn FileSource,
    root: &str,
    names: &[String],
    changed: &[S],
) -> Vec<String> {
    let is_file = |rel: &str| fs.is_file(&paths::join(root, rel));
    let claude_in = |dir: &str| CLAUDE_FILES.iter().any(|n| is_file(&in_directory(dir, n)));
    let override_listed = names.iter().any(|n| n == "AGENTS.override.md");
    let claude_listed = names.iter().any(|n| n == "CLAUDE.md");
    let claude_at_root = claude_in("");
    let mut found = Vec::new();
    for dir in directories(changed) {
        let overridden = override_listed && is_file(&in_directory(&dir, "AGENTS.override.md"));
        // Codex reads only the override; Claude Code skips AGENTS.md once a
        // CLAUDE file is at the root or here.
        let agents_unread = overridden && (claude_at_root || claude_in(&dir));
        // Codex never reads .claude/AGENTS.md; Claude Code reads it only at
        // the root, and only while no CLAUDE file is there.
        let dot_agents_unread = claude_listed && (!dir.is_empty() || claude_at_root);
        for name in names {
            let path = in_directory(&dir, name);
            let unread = (agents_unread && name == "AGENTS.md")
                || (dot_agents_unread && name == ".claude/AGENTS.md");
            if !unread && is_file(&path) {
                found.push(path);
            }
        }
    }
    found
}

/// What an instruction file a Codex hook delivers is named (behaviour
/// §5.3): a rule's name is a path inside a rules folder, so none starts
/// with these words.
const DELIVERED_PREFIX: &str = "instruction file ";

/// The name the instruction file at project-relative `path` is delivered
/// and recorded under.
pub(crate) fn delivered_name(path: &str) -> String {
    format!("{DELIVERED_PREFIX}{path}")
}

/// The project-relative path of a delivered instruction file's name.
pub(crate) fn delivered_path(name: &str) -> Option<&str> {
    name.strip_prefix(DELIVERED_PREFIX)
}

/// The instruction files Codex did not load for `paths` (project-relative,
/// normalised): Codex reads them once, from the checkout's root down to the
/// session's working directory `loaded_to` (project-relative, `""` for the
/// root), so a directory strictly below it is never read. In each such
/// directory on a path's way down, shallowest first, its AGENTS file as
/// Codex reads it ([`agents_file`]), when `names` lists it.
pub(crate) fn unloaded_by_codex<S: AsRef<str>>(
    fs: &dyn FileSource,
    root: &str,
    names: &[String],
    loaded_to: &str,
    paths: &[S],
) -> Vec<String> {
    let mut found = Vec::new();
    for dir in directories(paths) {
        let below = match loaded_to {
            "" => !dir.is_empty(),
            base => paths::strip_base(&dir, base).is_some_and(|rest| !rest.is_empty()),
        };
        if !below {
            continue;
        }
        if let Some((name, path)) = agents_file(fs, root, &dir, &|_| true) {
            if names.iter().any(|n| n == name) {
                found.push(path);
            }
        }
    }
    found
}

/// A directory's AGENTS file as Codex reads it: `AGENTS.override.md` where
/// there is one, else `AGENTS.md`; with its name. A path `may_exist` rules
/// out is taken as absent without a look.
fn agents_file(
    fs: &dyn FileSource,
    root: &str,
    dir: &str,
    may_exist: &dyn Fn(&str) -> bool,
) -> Option<(&'static str, String)> {
    ["AGENTS.override.md", "AGENTS.md"]
        .into_iter()
        .map(|name| (name, in_directory(dir, name)))
        .find(|(_, path)| may_exist(path) && fs.is_file(&paths::join(root, path)))
}

/// The instruction files Claude Code did not load for `paths`
/// (project-relative, normalised), each followed by what it imports, each
/// real file once (behaviour §5.2.2). Claude Code loads a directory's CLAUDE
/// files below its root when its own Read, Write or Edit touches a file
/// there, never for what a shell command changed, and it never reads an
/// AGENTS file below the root. So, in each directory strictly below the
/// root on a path's way down, shallowest first: the AGENTS file Codex
/// would read there ([`agents_file`]) when the directory has no CLAUDE
/// file (which would be the guidance Claude Code takes instead), and the
/// CLAUDE files when `by_shell`; each when `names` lists it. Imports are
/// followed as Claude Code follows them, inside the project; a file that
/// cannot be read is still named, so its delivery tells why. An
/// instruction file (project-relative) `may_exist` rules out is taken as
/// absent without a look; its imports are looked for wherever they are.
pub(crate) fn unloaded_by_claude<S: AsRef<str>>(
    fs: &dyn FileSource,
    root: &str,
    names: &[String],
    paths: &[S],
    by_shell: bool,
    may_exist: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let listed = |name: &str| names.iter().any(|n| n == name);
    let mut collector = Collector {
        fs,
        root: paths::normalize_lexically(root),
        home: None,
        inside: Containment::project(fs, root),
        documents: Vec::new(),
        seen: HashMap::new(),
        lenient: true,
    };
    let present = |path: &str| may_exist(path) && fs.is_file(&paths::join(root, path));
    for dir in directories(paths).into_iter().filter(|dir| !dir.is_empty()) {
        let claude: Vec<&str> = CLAUDE_FILES
            .iter()
            .copied()
            .filter(|name| present(&in_directory(&dir, name)))
            .collect();
        let mut starts = Vec::new();
        if claude.is_empty() {
            starts.extend(agents_file(fs, root, &dir, may_exist).filter(|(name, _)| listed(name)));
        } else if by_shell {
            starts.extend(
                claude
                    .into_iter()
                    .filter(|name| listed(name))
                    .map(|name| (name, in_directory(&dir, name))),
            );
        }
        for (_, path) in starts {
            let file = paths::join(root, &path);
            // Lenient: a file that cannot be read is kept, not expanded.
            let _ = collector.include(path, file, None, 0);
        }
    }
    collector.documents.into_iter().map(|d| d.path).collect()
}

/// Which instruction files a host loads by itself, so a delivery after an
/// edit or a shell change adds the others (behaviour §5.2.2, §5.2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum HostLoading {
    /// Claude Code: CLAUDE files below the root when its own tools touch a
    /// file there, never an AGENTS file below the root
    /// ([`unloaded_by_claude`]).
    #[default]
    ClaudeCode,
    /// opencode: what its `read` tool attaches, never what its edit tools
    /// or shell commands touch ([`unloaded_by_opencode`]).
    Opencode,
}

impl HostLoading {
    /// The host as its deliveries name it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            HostLoading::ClaudeCode => "Claude Code",
            HostLoading::Opencode => "opencode",
        }
    }

    /// How the host reads an instruction file: Claude Code strips block
    /// comments; opencode takes the file whole.
    pub(crate) fn reading(self) -> Reading {
        match self {
            HostLoading::ClaudeCode => Reading::ClaudeCode,
            HostLoading::Opencode => Reading::Whole,
        }
    }

    /// The instruction files the host did not load for `paths`
    /// (project-relative, normalised), shallowest first; `by_shell` when a
    /// shell command changed them rather than the host's own edit tool.
    pub(crate) fn unloaded<S: AsRef<str>>(
        self,
        fs: &dyn FileSource,
        root: &str,
        names: &[String],
        paths: &[S],
        by_shell: bool,
        may_exist: &dyn Fn(&str) -> bool,
    ) -> Vec<String> {
        match self {
            HostLoading::ClaudeCode => {
                unloaded_by_claude(fs, root, names, paths, by_shell, may_exist)
            }
            HostLoading::Opencode => unloaded_by_opencode(fs, root, names, paths, may_exist),
        }
    }

    /// The file names whose places tell where the host may have left an
    /// instruction file out: the configured `names` and those whose
    /// presence decides whether a listed file is the one the host takes.
    pub(crate) fn looks_for(self, names: &[String]) -> Vec<String> {
        let deciding: &[&str] = match self {
            HostLoading::ClaudeCode => CLAUDE_FILES,
            HostLoading::Opencode => &OPENCODE_FILES,
        };
        let mut all = names.to_vec();
        for name in deciding {
            if !all.iter().any(|n| n == name) {
                all.push((*name).to_string());
            }
        }
        all
    }
}

/// The instruction files opencode's `read` tool takes from a directory,
/// the first present (behaviour §5.2.4).
const OPENCODE_FILES: [&str; 2] = ["AGENTS.md", "CLAUDE.md"];

/// The instruction files opencode did not load for `paths`
/// (project-relative, normalised), behaviour §5.2.4. opencode puts the
/// instruction file of the root (its working directory's way up) into the
/// system prompt, and attaches a directory's below it only when its `read`
/// tool reads a file there; its edit, write and patch tools and shell
/// commands load nothing. So, in each directory strictly below the root
/// on a path's way down, shallowest first: the first present of
/// `AGENTS.md` and `CLAUDE.md`, when `names` lists it. opencode follows no
/// imports, so none are. A file `may_exist` rules out is taken as absent
/// without a look.
pub(crate) fn unloaded_by_opencode<S: AsRef<str>>(
    fs: &dyn FileSource,
    root: &str,
    names: &[String],
    paths: &[S],
    may_exist: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let present = |path: &str| may_exist(path) && fs.is_file(&paths::join(root, path));
    directories(paths)
        .into_iter()
        .filter(|dir| !dir.is_empty())
        .filter_map(|dir| {
            OPENCODE_FILES
                .iter()
                .map(|name| (*name, in_directory(&dir, name)))
                .find(|(_, path)| present(path))
        })
        .filter(|(name, _)| names.iter().any(|n| n == name))
        .map(|(_, path)| path)
        .collect()
}

/// How the host a hook delivers an instruction file to reads such files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Whole, as Codex reads `AGENTS.md` and opencode its instruction
    /// files.
    Whole,
    /// With whole-line block comments stripped, as Claude Code reads its
    /// memory files (their imports are delivered as files of their own).
    ClaudeCode,
}

/// An instruction file's text as the host of `reading` reads it, for a
/// hook to deliver: inside the project, a regular file within the read
/// bound, UTF-8, and trimmed. Each failure is an error naming the file.
pub(crate) fn text_for_hook(
    fs: &dyn FileSource,
    root: &str,
    path: &str,
    reading: Reading,
) -> Result<String> {
    let file = paths::join(root, path);
    let bytes = Containment::project(fs, root)
        .read(fs, &file)
        .map_err(|why| {
            Error::at(
                Place::file(&file),
                ErrorKind::CannotReadInstruction {
                    file: path.to_string(),
                    reason: why.to_string(),
                },
            )
        })?;
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
    let decoded = text::decode(bytes).map_err(|error| {
        Error::at(
            Place::line(&file, error.line),
            ErrorKind::InstructionNotUtf8 {
                file: path.to_string(),
                error,
            },
        )
    })?;
    Ok(match reading {
        Reading::Whole => markdown::trim(&decoded).to_string(),
        Reading::ClaudeCode => markdown::trim(&strip_block_comments(&decoded)).to_string(),
    })
}

/// Where instruction files may be read from (behaviour §0.1, §6.3): the
/// project, and the user's own instruction folders, which home imports
/// are for. A repository cannot make the bundle carry any other file.
fn readable_instructions(fs: &dyn FileSource, root: &str, home: Option<&str>) -> Containment {
    let mut inside = Containment::project(fs, root);
    if let Some(home) = home {
        for folder in USER_INSTRUCTION_FOLDERS {
            inside = inside.with(fs, &paths::join(home, folder));
        }
    }
    inside
}

/// The folders below the home directory where Claude Code and Codex keep
/// a user's own instructions.
const USER_INSTRUCTION_FOLDERS: [&str; 2] = [".claude", ".codex"];

struct Collector<'a> {
    fs: &'a dyn FileSource,
    root: String,
    home: Option<&'a str>,
    inside: Containment,
    documents: Vec<InstructionDocument>,
    /// Real path of every included file, to its position.
    seen: HashMap<String, usize>,
    /// Whether a file that cannot be read is kept (with no content and no
    /// imports) rather than failing the whole collection.
    lenient: bool,
}

impl Collector<'_> {
    fn include(
        &mut self,
        display: String,
        file: String,
        imported_by: Option<String>,
        depth: usize,
    ) -> Result<()> {
        let identity = self
            .fs
            .real_path(&file)
            .unwrap_or_else(|_| paths::normalize_lexically(&file));
        if let Some(&index) = self.seen.get(&identity) {
            let kept = &mut self.documents[index];
            if kept.path != display && !kept.also_at.contains(&display) {
                kept.also_at.push(display);
            }
            return Ok(());
        }
        let content = match read_document(self.fs, &self.inside, &display, &file) {
            Ok(content) => content,
            Err(_) if self.lenient => String::new(),
            Err(error) => return Err(error),
        };
        let references = if depth < MAX_IMPORT_DEPTH {
            import_references(&content)
        } else {
            Vec::new()
        };
        self.seen.insert(identity, self.documents.len());
        self.documents.push(InstructionDocument {
            path: display.clone(),
            also_at: Vec::new(),
            file: file.clone(),
            imported_by,
            content,
        });
        for reference in references {
            if let Some(imported) = self.resolve(&file, &reference) {
                let shown = self.display_path(&imported);
                self.include(shown, imported, Some(display.clone()), depth + 1)?;
            }
        }
        Ok(())
    }

    /// The existing regular file a reference names: `~/` from the home
    /// directory, `/` absolute, anything else relative to the importing
    /// file's directory as reached (links not collapsed first).
    fn resolve(&self, importer: &str, reference: &str) -> Option<String> {
        let file = if let Some(rest) = reference.strip_prefix("~/") {
            paths::join(self.home?, rest)
        } else if paths::is_absolute(reference) {
            reference.to_string()
        } else {
            paths::join(paths::parent(importer)?, reference)
        };
        // Outside the readable folders a reference is not followed, as one
        // to a missing file is not.
        self.inside.check(self.fs, &file).is_ok().then_some(file)
    }

    fn display_path(&self, file: &str) -> String {
        let lexical = paths::normalize_lexically(file);
        match paths::strip_base(&lexical, &self.root) {
            Some(rest) if !rest.is_empty() => rest.to_string(),
            _ => lexical,
        }
    }
}

/// A file's content as the bundle shows it. Text that is not UTF-8 is an
/// error naming the file: the bundle must not quietly hold mangled guidance.
fn read_document(
    fs: &dyn FileSource,
    inside: &Containment,
    display: &str,
    file: &str,
) -> Result<String> {
    let bytes = inside.read(fs, file).map_err(|why| {
        Error::at(
            Place::file(file),
            ErrorKind::CannotReadInstruction {
                file: display.to_string(),
                reason: why.to_string(),
            },
        )
    })?;
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
    let decoded = text::decode(bytes).map_err(|error| {
        Error::at(
            Place::line(file, error.line),
            ErrorKind::InstructionNotUtf8 {
                file: display.to_string(),
                error,
            },
        )
    })?;
    Ok(markdown::trim(&strip_block_comments(&decoded)).to_string())
}

/// Removes HTML comments that occupy whole lines outside fences, as Claude
/// Code does before it reads an instruction file; line endings become LF.
/// A comment sharing a line with other text, inside a fence, or never
/// closed stays.
pub(crate) fn strip_block_comments(content: &str) -> String {
    let lines = markdown::lines(content);
    let fenced = markdown::fenced_lines(&lines);
    let mut kept: Vec<&str> = Vec::with_capacity(lines.len());
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let opens = !fenced[index]
            && line
                .trim_start_matches(markdown::is_whitespace)
                .starts_with("<!--");
        match opens.then(|| block_comment_end(&lines, index)).flatten() {
            Some(end) => index = end,
            None => {
                kept.push(line);
                index += 1;
            }
        }
    }
    kept.join("\n")
}

/// The index just past a block comment opening at `start`, or `None` when
/// it shares its closing line with other text or never closes.
fn block_comment_end(lines: &[&str], start: usize) -> Option<usize> {
    for (index, line) in lines.iter().enumerate().skip(start) {
        let line = markdown::trim(line);
        let remainder = if index == start { &line[4..] } else { line };
        if let Some(close) = remainder.find("-->") {
            return markdown::is_blank(&remainder[close + 3..]).then_some(index + 1);
        }
    }
    None
}

/// The `@path` imports of an instruction file, in order of appearance, as
/// Claude Code reads them: outside fences and code spans, an `@` not after
/// a word character or another `@`, then a path; trailing sentence
/// punctuation is not part of it.
pub(crate) fn import_references(content: &str) -> Vec<String> {
    let lines = markdown::lines(content);
    let fenced = markdown::fenced_lines(&lines);
    let mut references: Vec<String> = Vec::new();
    for (line, _) in lines.iter().zip(&fenced).filter(|(_, fenced)| !**fenced) {
        let visible = markdown::without_code_spans(line);
        for reference in line_references(&visible) {
            let trimmed = reference.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
            if !markdown::is_blank(trimmed) && !references.iter().any(|r| r == trimmed) {
                references.push(trimmed.to_string());
            }
        }
    }
    references
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn line_references(line: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut previous: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let after_word = previous.is_some_and(|p| is_word(p) || p == '@');
        previous = Some(c);
        if c != '@' || after_word {
            continue;
        }
        let start = at + 1;
        let mut end = start;
        let mut first = true;
        while let Some(&(index, next)) = chars.peek() {
            let allowed =
                is_word(next) || matches!(next, '.' | '/' | '-') || (first && next == '~');
            if !allowed {
                break;
            }
            first = false;
            end = index + next.len_utf8();
            previous = Some(next);
            chars.next();
        }
        if end > start {
            found.push(&line[start..end]);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;
    use crate::config::DEFAULT_INSTRUCTION_FILES;

    fn defaults() -> Vec<String> {
        DEFAULT_INSTRUCTION_FILES
            .iter()
            .map(std::string::ToString::to_string)
            .collect()
    }

    fn project(files: &[(&str, &str)]) -> MemoryFs {
        MemoryFs::from_files("/p", files.iter().copied())
    }

    fn found(fs: &MemoryFs, names: &[String], changed: &[&str]) -> Vec<String> {
        documents(fs, "/p", names, changed, None)
            .unwrap()
            .into_iter()
            .map(|d| d.path)
            .collect()
    }

    #[test]
    fn opencode_leaves_out_the_first_of_agents_and_claude_below_the_root() {
        // behaviour §5.2.4.
        let fs = project(&[
            ("AGENTS.md", "root, in the system prompt"),
            ("a/AGENTS.md", "A agents"),
            ("a/CLAUDE.md", "A claude, not taken beside AGENTS.md"),
            ("a/b/CLAUDE.md", "B claude @notes.md"),
            ("a/b/notes.md", "not followed"),
            ("a/b/c/CONTEXT.md", "not looked for"),
            ("d/CLAUDE.local.md", "not looked for"),
        ]);
        let all = |names: &[String], path: &str, may: &dyn Fn(&str) -> bool| {
            unloaded_by_opencode(&fs, "/p", names, &[path], may)
        };
        let names = defaults();
        assert_eq!(
            all(&names, "a/b/c/x.ts", &|_| true),
            vec!["a/AGENTS.md", "a/b/CLAUDE.md"]
        );
        assert!(all(&names, "x.ts", &|_| true).is_empty());
        assert!(all(&names, "d/x.ts", &|_| true).is_empty());
        // The first present is the one taken, listed or not.
        let claude_only = vec!["CLAUDE.md".to_string()];
        assert_eq!(
            all(&claude_only, "a/b/x.ts", &|_| true),
            vec!["a/b/CLAUDE.md"]
        );
        // What git's listing rules out is not there: the next one is.
        let not_a_agents = |path: &str| path != "a/AGENTS.md";
        assert_eq!(
            all(&claude_only, "a/x.ts", &not_a_agents),
            vec!["a/CLAUDE.md"]
        );
        assert!(all(&claude_only, "a/x.ts", &|_| true).is_empty());
        // The policy: the same files, by the host's choice, whatever the
        // change was; Claude Code's differs.
        for by_shell in [false, true] {
            assert_eq!(
                HostLoading::Opencode
                    .unloaded(&fs, "/p", &names, &["a/b/x.ts"], by_shell, &|_| true),
                vec!["a/AGENTS.md", "a/b/CLAUDE.md"]
            );
        }
        assert_eq!(
            HostLoading::ClaudeCode.unloaded(&fs, "/p", &names, &["a/b/x.ts"], true, &|_| true),
            vec!["a/CLAUDE.md", "a/b/CLAUDE.md", "a/b/notes.md"]
        );
    }

    #[test]
    fn each_host_lists_the_files_that_decide_what_it_takes() {
        let agents = vec!["AGENTS.md".to_string()];
        assert_eq!(
            HostLoading::Opencode.looks_for(&agents),
            vec!["AGENTS.md", "CLAUDE.md"]
        );
        assert_eq!(
            HostLoading::ClaudeCode.looks_for(&agents),
            vec![
                "AGENTS.md",
                "CLAUDE.md",
                ".claude/CLAUDE.md",
                "CLAUDE.local.md"
            ]
        );
        assert_eq!(HostLoading::Opencode.name(), "opencode");
        assert_eq!(HostLoading::Opencode.reading(), Reading::Whole);
        assert_eq!(HostLoading::default(), HostLoading::ClaudeCode);
    }

    #[test]
    fn case_140_directories() {
        assert_eq!(directories::<&str>(&[]), vec![""]);
        assert_eq!(
            directories(&["apps/web/src/x.clj", "README.md"]),
            vec!["", "apps", "apps/web", "apps/web/src"]
        );
        assert_eq!(directories(&["../out/x.clj"]), vec![""]);
    }

    #[test]
    fn case_141_default_discovery() {
        let fs = project(&[
            ("AGENTS.md", "# Agents\n\nShared."),
            ("CLAUDE.md", "# Claude\n\n@AGENTS.md\n"),
            ("CLAUDE.local.md", "local"),
            (".claude/CLAUDE.md", "dot claude"),
            ("apps/CLAUDE.md", "apps"),
            ("apps/web/CLAUDE.md", "web"),
            ("apps/web/AGENTS.md", "web agents"),
            ("apps/api/CLAUDE.md", "api, untouched"),
        ]);
        let docs = documents(
            &fs,
            "/p",
            &defaults(),
            &["apps/web/src/x.clj", "README.md"],
            None,
        )
        .unwrap();
        let paths: Vec<&str> = docs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "AGENTS.md",
                "CLAUDE.md",
                ".claude/CLAUDE.md",
                "CLAUDE.local.md",
                "apps/CLAUDE.md",
                "apps/web/AGENTS.md",
                "apps/web/CLAUDE.md"
            ]
        );
        assert!(docs.iter().all(|d| d.imported_by.is_none()));
        assert_eq!(docs[1].content, "# Claude\n\n@AGENTS.md");
        assert_eq!(docs[0].file, "/p/AGENTS.md");
        assert_eq!(
            found(&fs, &defaults(), &[]),
            vec![
                "AGENTS.md",
                "CLAUDE.md",
                ".claude/CLAUDE.md",
                "CLAUDE.local.md"
            ]
        );
    }

    #[test]
    fn case_142_the_override_rule() {
        let fs = project(&[
            ("AGENTS.override.md", "o"),
            ("AGENTS.md", "a"),
            ("CLAUDE.md", "c"),
            ("apps/AGENTS.override.md", "ao"),
            ("apps/AGENTS.md", "aa"),
        ]);
        assert_eq!(
            found(&fs, &defaults(), &["apps/x.clj"]),
            vec!["AGENTS.override.md", "CLAUDE.md", "apps/AGENTS.override.md"]
        );
        let fs = project(&[
            ("AGENTS.override.md", "o"),
            ("AGENTS.md", "a"),
            ("apps/AGENTS.override.md", "ao"),
            ("apps/AGENTS.md", "aa"),
            ("apps/CLAUDE.md", "ac"),
        ]);
        assert_eq!(
            found(&fs, &defaults(), &["apps/x.clj"]),
            vec![
                "AGENTS.override.md",
                "AGENTS.md",
                "apps/AGENTS.override.md",
                "apps/CLAUDE.md"
            ]
        );
        let fs = project(&[("AGENTS.md", "a"), ("CLAUDE.md", "c")]);
        assert_eq!(found(&fs, &defaults(), &[]), vec!["AGENTS.md", "CLAUDE.md"]);
        let fs = project(&[
            ("AGENTS.override.md", "o"),
            ("AGENTS.md", "a"),
            ("CLAUDE.md", "c"),
        ]);
        let listed = vec!["AGENTS.md".to_string(), "CLAUDE.md".to_string()];
        assert_eq!(found(&fs, &listed, &[]), vec!["AGENTS.md", "CLAUDE.md"]);
    }

    #[test]
    fn case_143_dot_claude_agents() {
        let fs = project(&[("CLAUDE.md", "c"), (".claude/AGENTS.md", "d")]);
        assert_eq!(found(&fs, &defaults(), &[]), vec!["CLAUDE.md"]);
        let fs = project(&[
            ("AGENTS.md", "a"),
            (".claude/AGENTS.md", "d"),
            ("apps/AGENTS.md", "aa"),
            ("apps/.claude/AGENTS.md", "ad"),
        ]);
        assert_eq!(
            found(&fs, &defaults(), &["apps/x.clj"]),
            vec!["AGENTS.md", ".claude/AGENTS.md", "apps/AGENTS.md"]
        );
        let fs = project(&[("CLAUDE.md", "c"), (".claude/AGENTS.md", "d")]);
        assert_eq!(
            found(&fs, &[".claude/AGENTS.md".to_string()], &[]),
            vec![".claude/AGENTS.md"]
        );
    }

    #[test]
    fn case_144_configured_lists() {
        let fs = project(&[
            ("AGENTS.md", "a"),
            ("CLAUDE.md", "c"),
            ("docs/GUIDE.md", "g"),
        ]);
        let listed = vec!["docs/GUIDE.md".to_string(), "CLAUDE.md".to_string()];
        assert_eq!(
            found(&fs, &listed, &["x.clj"]),
            vec!["docs/GUIDE.md", "CLAUDE.md"]
        );
        assert!(found(&fs, &[], &["x.clj"]).is_empty());
    }

    #[test]
    fn case_145_one_copy_per_real_file() {
        let mut fs = project(&[
            ("AGENTS.md", "# Agents\n\nShared."),
            ("CLAUDE.local.md", "Personal notes, then @AGENTS.md again."),
            ("api/x.clj", ""),
        ]);
        fs.add_link("/p/CLAUDE.md", "AGENTS.md");
        fs.add_link("/p/api/AGENTS.md", "../AGENTS.md");
        let docs = documents(&fs, "/p", &defaults(), &["api/x.clj"], None).unwrap();
        let paths: Vec<&str> = docs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, vec!["AGENTS.md", "CLAUDE.local.md"]);
        assert_eq!(docs[0].also_at, vec!["CLAUDE.md", "api/AGENTS.md"]);
        assert!(docs[1].also_at.is_empty());
    }

    const CLAUDE_147: &str = "# Project\n\
        \n\
        See @docs/guide.md. Also @docs/missing.md and @./docs/style.md, but not\n\
        `@docs/ignored.md` in a span, someone@example.com, or @claude.\n\
        \n\
        ```text\n\
        @docs/fenced.md\n\
        ```\n";

    #[test]
    fn case_147_import_references() {
        assert_eq!(
            import_references(CLAUDE_147),
            vec![
                "docs/guide.md",
                "docs/missing.md",
                "./docs/style.md",
                "claude"
            ]
        );
        assert_eq!(
            import_references("Read @~/.claude/shared.md and @/abs/file.md!"),
            vec!["~/.claude/shared.md", "/abs/file.md"]
        );
        assert!(import_references("@@x.md and a@b.md and @ alone").is_empty());
    }

    #[test]
    fn case_148_import_chain_depth_first_up_to_four_hops() {
        let fs = project(&[
            ("CLAUDE.md", CLAUDE_147),
            (
                "docs/guide.md",
                "# Guide\n\nRefers to @deeper/a.md relative to this file.",
            ),
            ("docs/style.md", "style"),
            ("docs/ignored.md", "ignored"),
            ("docs/fenced.md", "fenced"),
            ("docs/deeper/a.md", "a @b.md"),
            ("docs/deeper/b.md", "b @c.md"),
            ("docs/deeper/c.md", "c @d.md"),
            ("docs/deeper/d.md", "d @e.md"),
            ("docs/deeper/e.md", "e"),
        ]);
        let docs = documents(&fs, "/p", &defaults(), &[] as &[&str], None).unwrap();
        let paths: Vec<&str> = docs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                "CLAUDE.md",
                "docs/guide.md",
                "docs/deeper/a.md",
                "docs/deeper/b.md",
                "docs/deeper/c.md",
                "docs/style.md"
            ]
        );
        let importers: Vec<Option<&str>> = docs.iter().map(|d| d.imported_by.as_deref()).collect();
        assert_eq!(
            importers,
            vec![
                None,
                Some("CLAUDE.md"),
                Some("docs/guide.md"),
                Some("docs/deeper/a.md"),
                Some("docs/deeper/b.md"),
                Some("CLAUDE.md")
            ]
        );
        assert_eq!(docs[5].file, "/p/./docs/style.md");
    }

    #[test]
    fn case_149_home_and_outside_imports() {
        let mut fs = project(&[("CLAUDE.md", "@~/.claude/shared.md\n@../shared/team.md")]);
        fs.add_file("/p/fake-home/.claude/shared.md", "shared");
        fs.add_file("/shared/team.md", "team");
        let docs = documents(&fs, "/p", &defaults(), &[] as &[&str], Some("/p/fake-home")).unwrap();
        let paths: Vec<&str> = docs.iter().map(|d| d.path.as_str()).collect();
        // An import outside the project and the user's instruction folders
        // is not followed (behaviour §0.1).
        assert_eq!(paths, vec!["CLAUDE.md", "fake-home/.claude/shared.md"]);
        assert_eq!(docs[1].content, "shared");
        // Without a home directory a home import is not followed.
        let docs = documents(&fs, "/p", &defaults(), &[] as &[&str], None).unwrap();
        assert_eq!(docs.len(), 1);
    }

    #[test]
    fn instruction_files_never_carry_a_file_from_outside() {
        let mut fs = project(&[(
            "CLAUDE.md",
            "@~/.claude/mine.md\n@~/.ssh/id_rsa\n@/etc/passwd\n@key.md",
        )]);
        fs.add_file("/h/.claude/mine.md", "mine")
            .add_file("/h/.ssh/id_rsa", "secret")
            .add_file("/etc/passwd", "root")
            .add_link("/p/key.md", "/h/.ssh/id_rsa")
            .add_link("/p/AGENTS.md", "/h/.ssh/id_rsa");
        let docs = documents(&fs, "/p", &defaults(), &[] as &[&str], Some("/h"));
        let error = docs.unwrap_err();
        assert_eq!(
            error.place.as_ref().map(|p| p.file.as_str()),
            Some("/p/AGENTS.md")
        );
        assert!(
            error.to_string().contains("leads outside the project"),
            "{error}"
        );
        fs.remove("/p/AGENTS.md");
        let docs = documents(&fs, "/p", &defaults(), &[] as &[&str], Some("/h")).unwrap();
        let paths: Vec<&str> = docs.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, vec!["CLAUDE.md", "/h/.claude/mine.md"]);
        assert!(docs.iter().all(|d| !d.content.contains("secret")));
    }

    #[test]
    fn case_150_comment_stripping() {
        let input = "# Title\n\
            <!-- one line -->\n\
            Text <!-- inline --> more.\n  <!--\nmulti\nline\n-->\n\
            <!-- not block --> trailing\n\
            ```md\n<!-- kept in fence -->\n```\n\
            <!-- unclosed";
        assert_eq!(
            strip_block_comments(input),
            "# Title\nText <!-- inline --> more.\n<!-- not block --> trailing\n\
             ```md\n<!-- kept in fence -->\n```\n<!-- unclosed"
        );
        assert_eq!(strip_block_comments("a\r\nb"), "a\nb");
        let fs = project(&[(
            "AGENTS.md",
            "\r\n<!-- maintainers: keep short -->\r\n# Agents\r\n\r\nBody.\r\n",
        )]);
        let docs = documents(&fs, "/p", &defaults(), &[] as &[&str], None).unwrap();
        assert_eq!(docs[0].content, "# Agents\n\nBody.");
    }

    #[test]
    fn an_import_inside_a_block_comment_is_not_followed() {
        let fs = project(&[
            ("CLAUDE.md", "<!--\n@docs/hidden.md\n-->\nVisible."),
            ("docs/hidden.md", "hidden"),
        ]);
        assert_eq!(found(&fs, &defaults(), &[]), vec!["CLAUDE.md"]);
    }

    #[test]
    fn text_that_is_not_utf8_is_an_error_naming_the_file() {
        let fs = MemoryFs::from_files("/p", [("AGENTS.md", b"ok\n\xff".as_slice())]);
        let err = documents(&fs, "/p", &defaults(), &[] as &[&str], None).unwrap_err();
        assert_eq!(err.place, Some(Place::line("/p/AGENTS.md", 2)));
        assert!(err
            .message()
            .starts_with("Instruction file AGENTS.md is not valid UTF-8"));
    }
}

#[cfg(test)]
mod doc_examples {
    //! What the items' documentation promised, held by unit tests (the
    //! items are private to the crate, so rustdoc cannot run them).

    #[test]
    fn directories_example() {
        use crate::rules::instructions::directories;
        assert_eq!(
            directories(&["b/c/x.clj", "./a/y.clj", "/b/z.clj"]),
            vec!["", "a", "b", "b/c"]
        );
    }

    #[test]
    fn strip_block_comments_example() {
        use crate::rules::instructions::strip_block_comments;
        assert_eq!(
            strip_block_comments("a\r\n<!-- note\r\nmore -->\r\nb"),
            "a\nb"
        );
    }

    #[test]
    fn import_references_example() {
        use crate::rules::instructions::import_references;
        assert_eq!(
            import_references("See @docs/guide.md. Mail someone@example.com, not `@x.md`."),
            vec!["docs/guide.md"]
        );
    }
}
