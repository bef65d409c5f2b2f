//! Which files are rules, and their names (behaviour §1.2): every file below
//! a configured directory whose name ends with a configured extension, named
//! by its path relative to that directory; and below a nested rules folder
//! (`rules/nested`), named by its path relative to the project.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::io;

use crate::base::contain::Containment;
use crate::base::error::{Error, ErrorKind, Place, Result};
use crate::base::finding::{Code, Finding};
use crate::base::fs::{FileSource, Kind};
use crate::base::paths;
use crate::config::formats::{self, Format, GlobalRules};
use crate::config::RulesSource;
use crate::rules::kept::KeptRules;
use crate::rules::nested::{self, folder_owner, NESTED_DEPTH};
use crate::rules::rule::Rule;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleFile {
    pub name: String,
    pub path: String,
    pub format: Format,
    /// The directory holding its nested rules folder, project-relative;
    /// `None` for the project's own rules directories.
    pub base: Option<String>,
    /// The place it was found in: the rules directory or folder walked,
    /// or the file itself for a one-file location (`.cursorrules`).
    pub source: String,
}

/// The rule files found, and what could not be walked.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    pub files: Vec<RuleFile>,
    pub findings: Vec<Finding>,
}

/// The rules read from a source; files that could not be read are findings
/// rather than rules, so one broken file does not hide the others.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    /// The rules, sorted by name.
    rules: Rules,
    /// The files that could not be walked or read.
    pub findings: Vec<Finding>,
}

/// A rule set's rules: read now, or kept encoded and decoded at first use.
#[derive(Debug, Clone)]
enum Rules {
    Read(Vec<Rule>),
    Kept(KeptRules),
}

impl Default for Rules {
    fn default() -> Self {
        Rules::Read(Vec::new())
    }
}

/// How many directories deep below a rules directory the walk lists, links
/// followed included: a tree deeper than this is a loop the links hide. The
/// one depth policy, for both hosts: the Claude Code mod's walk is this
/// walk, run over its host's answers (`rules/steps`).
pub const MAX_DEPTH: usize = 40;

/// Java string order (UTF-16 code units), which the original sorts names by.
pub(crate) fn java_order(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Lists the rule files of a source, sorted by name. The same name in two
/// directories is an error (behaviour §1.2).
pub(crate) fn list_rule_files(fs: &dyn FileSource, source: &RulesSource) -> Result<Listing> {
    let (listing, duplicates) = scan_rule_files(fs, source);
    match duplicates {
        Some(error) => Err(error),
        None => Ok(listing),
    }
}

/// One directory to walk and which files in it are rules.
#[derive(Clone)]
struct Walk<'a> {
    dir: String,
    format: Format,
    suffixes: Vec<&'a str>,
    skip_hidden: bool,
    may_be_file: bool,
    /// Which paths below the folder may hold rules (formats::Layout).
    holds: fn(&str) -> bool,
    /// Set for a nested rules folder.
    nested: Option<Nested>,
    /// Set for the global rules directory, which names its rules. Its
    /// links may lead only inside it.
    global: Option<GlobalRules>,
}

/// A nested rules folder (behaviour §1.2): its project-relative path,
/// which starts its rules' names, and the directory holding it, which
/// their globs are relative to.
#[derive(Clone)]
struct Nested {
    folder: String,
    base: String,
}

impl Walk<'_> {
    fn takes(&self, name: &str) -> bool {
        !(self.skip_hidden && name.starts_with('.'))
            && self.suffixes.iter().any(|suffix| name.ends_with(suffix))
    }

    /// The name of the rule at `rel` below the directory: for a nested
    /// folder, its path relative to the project, so it never equals the
    /// name of a rule at the root (whose walks do not enter such folders).
    fn name(&self, rel: &str) -> String {
        match (&self.nested, &self.global) {
            (Some(nested), _) => format!("{}/{rel}", nested.folder),
            (None, Some(global)) => global.name(rel),
            (None, None) => rel.to_string(),
        }
    }

    /// The name of the rule the location itself is, when it is one file.
    fn file_name(&self) -> String {
        match &self.nested {
            Some(nested) => nested.folder.clone(),
            None => paths::file_name(&self.dir).to_string(),
        }
    }

    fn base(&self) -> Option<String> {
        self.nested.as_ref().map(|nested| nested.base.clone())
    }
}

fn anywhere(_: &str) -> bool {
    true
}

/// Cursor's folder form names a rule `<name>/RULE.md`; a directory by that
/// name is a mistake worth a word (its contents are still walked).
const FOLDER_RULE: &str = "RULE.md";

fn folder_rule_is_a_directory(path: &str) -> Finding {
    Finding::warning(
        Code::RuleUnreadable,
        Place::file(path),
        "RULE.md is a directory, not a file, so it is not read as a rule",
    )
    .with_hint("a folder rule is a file: <name>/RULE.md holding the rule's text")
}

/// Where a rule source may lead (behaviour §0.1, §1.2): the project, or
/// the checkout holding it (a subproject may link to rules its repository
/// shares). Real paths, links resolved; the checkout is looked for only
/// when a link leads out of the project.
struct Bounds<'a> {
    fs: &'a dyn FileSource,
    project: Containment,
    real_root: String,
    checkout: std::cell::OnceCell<Option<Containment>>,
    /// The global rules directory (behaviour §5.2.4): its own walk may
    /// lead inside it and nowhere else.
    global: Option<Containment>,
}

impl<'a> Bounds<'a> {
    fn new(fs: &'a dyn FileSource, root: &str, global: Option<&str>) -> Self {
        Bounds {
            fs,
            project: Containment::project(fs, root),
            real_root: fs
                .real_path(root)
                .unwrap_or_else(|_| paths::normalize_lexically(root)),
            checkout: std::cell::OnceCell::new(),
            global: global.map(|dir| Containment::project(fs, dir)),
        }
    }

    /// Whether `walk` may lead to `real`.
    fn admits(&self, walk: &Walk, real: &str) -> bool {
        if walk.global.is_some() {
            return self.global.as_ref().is_some_and(|g| g.admits(real));
        }
        self.project.admits(real)
            || self
                .checkout()
                .is_some_and(|checkout| checkout.admits(real))
    }

    fn checkout(&self) -> Option<&Containment> {
        self.checkout.get_or_init(|| self.find_checkout()).as_ref()
    }

    /// The nearest directory from the real root upwards holding `.git`.
    fn find_checkout(&self) -> Option<Containment> {
        let mut current = Some(self.real_root.as_str());
        while let Some(dir) = current {
            if self.fs.exists(&paths::join(dir, ".git")) {
                return Some(Containment::project(self.fs, dir));
            }
            current = paths::parent(dir);
        }
        None
    }
}

/// The finding for `path`, met by `walk`, that leads where the walk may
/// not (a directory when `dir`).
fn outside(walk: &Walk, path: &str, dir: bool) -> Finding {
    if walk.global.is_some() {
        return Finding::from_error(
            &Error::at(Place::file(path), ErrorKind::GlobalRuleLinksOutside { dir }),
            &Place::file(path),
        )
        .with_hint("keep global rules inside the global rules directory: copy the file in");
    }
    Finding::from_error(
        &Error::at(Place::file(path), ErrorKind::RuleLinksOutside { dir }),
        &Place::file(path),
    )
    .with_hint("keep rules inside the project: copy the file in, or share it through the repository (a subtree or submodule)")
}

fn not_regular(path: &str) -> Finding {
    Finding::from_error(
        &Error::at(Place::file(path), ErrorKind::RuleNotRegular),
        &Place::file(path),
    )
    .with_hint("remove it, or rename it so it does not end with a rule extension")
}

/// Lists every rule file, duplicates included, and the duplicate-name error
/// beside the listing, for `check`, which reports it and goes on.
pub fn scan_rule_files(fs: &dyn FileSource, source: &RulesSource) -> (Listing, Option<Error>) {
    let mut walks: Vec<Walk> = source
        .dirs
        .iter()
        .map(|dir| Walk {
            dir: dir.clone(),
            format: Format::Cursor,
            suffixes: source.extensions.iter().map(String::as_str).collect(),
            skip_hidden: false,
            may_be_file: false,
            holds: anywhere,
            nested: None,
            global: None,
        })
        .collect();
    // The legacy one-file rules at the root: `.cursorrules` with Cursor's
    // folder, `.windsurfrules` with `:windsurf` (behaviour §1.2).
    let cursor_dir = paths::normalize_lexically(&paths::join(&source.root, formats::CURSOR_DIR));
    let legacy_paths: Vec<(Format, String)> = formats::LEGACY_FILES
        .iter()
        .filter(|legacy| match legacy.format {
            Format::Cursor => source.dirs.contains(&cursor_dir),
            format => source.formats.contains(&format),
        })
        .map(|legacy| {
            (
                legacy.format,
                paths::normalize_lexically(&paths::join(&source.root, legacy.file)),
            )
        })
        .collect();
    let format_dirs: Vec<(Format, String)> = source
        .formats
        .iter()
        .filter_map(|format| formats::LAYOUTS.iter().find(|l| l.format == *format))
        .map(|layout| {
            (
                layout.format,
                paths::normalize_lexically(&paths::join(&source.root, layout.dir)),
            )
        })
        .collect();
    for (format, dir) in &format_dirs {
        let layout = formats::LAYOUTS
            .iter()
            .find(|l| l.format == *format)
            .expect("listed above");
        walks.push(Walk {
            dir: dir.clone(),
            format: *format,
            suffixes: layout.suffixes.to_vec(),
            skip_hidden: layout.skip_hidden,
            may_be_file: layout.may_be_file,
            holds: layout.holds,
            nested: None,
            global: None,
        });
    }
    for (format, path) in &legacy_paths {
        // One file, never a folder: no suffix is taken below it.
        walks.push(Walk {
            dir: path.clone(),
            format: *format,
            suffixes: Vec::new(),
            skip_hidden: false,
            may_be_file: true,
            holds: anywhere,
            nested: None,
            global: None,
        });
    }
    let mut listing = Listing::default();
    let mut homes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let bounds = Bounds::new(
        fs,
        &source.root,
        source.global.as_ref().map(|g| g.dir.as_str()),
    );
    let root = paths::normalize_lexically(&source.root);
    let folders = folder_names(source);
    let nested = nested_walks(fs, &root, &bounds, &walks, &folders, &mut listing.findings);
    walks.extend(nested);
    // A global directory that is one of the project's sources (opencode's
    // configuration kept in the project) is read once, at its place there.
    let global = source.global.as_ref();
    walks.extend(
        global
            .filter(|g| !walks.iter().any(|walk| walk.dir == g.dir))
            .map(global_walk),
    );
    for walk in &walks {
        let mut found = Vec::new();
        let meta = fs.stat(&walk.dir);
        let real = match &meta {
            Ok(_) => fs.real_path(&walk.dir).ok(),
            Err(_) => None,
        };
        if let (Ok(meta), Some(real)) = (&meta, &real) {
            if !bounds.admits(walk, real) {
                let dir = meta.kind == Kind::Dir;
                if dir || walk.may_be_file {
                    listing.findings.push(outside(walk, &walk.dir, dir));
                }
                continue;
            }
        }
        match meta {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => listing.findings.push(Finding::error(
                Code::RuleUnreadable,
                Place::file(&walk.dir),
                format!("Cannot read the rules directory: {e}"),
            )),
            Ok(meta) if meta.kind == Kind::Other && walk.may_be_file => {
                listing.findings.push(not_regular(&walk.dir));
            }
            Ok(meta) if meta.kind == Kind::File && walk.may_be_file => {
                found.push(RuleFile {
                    name: walk.file_name(),
                    path: walk.dir.clone(),
                    format: walk.format,
                    base: walk.base(),
                    source: walk.dir.clone(),
                });
            }
            // A legacy file that is a directory holds no rule.
            Ok(_) if walk.may_be_file && walk.suffixes.is_empty() => {}
            Ok(meta) if meta.kind != Kind::Dir => listing.findings.push(
                Finding::error(
                    Code::RuleUnreadable,
                    Place::file(&walk.dir),
                    "The rules directory is not a directory, so no rule in it can be read",
                )
                .with_hint(
                    "point :rules :dirs in rule-fairy.edn at a directory, or move this file away",
                ),
            ),
            Ok(_) => {
                let mut ancestors = vec![real.unwrap_or_else(|| walk.dir.clone())];
                let mut walker = Walker {
                    fs,
                    walk,
                    bounds: &bounds,
                    root: &root,
                    folders: &folders,
                    found: &mut found,
                    findings: &mut listing.findings,
                };
                walker.dir(&walk.dir, "", &mut ancestors);
            }
        }
        for file in found {
            homes
                .entry(file.name.clone())
                .or_default()
                .push(file.path.clone());
            listing.files.push(file);
        }
    }
    listing.files.sort_by(|a, b| java_order(&a.name, &b.name));
    let duplicates: Vec<(&String, &Vec<String>)> =
        homes.iter().filter(|(_, files)| files.len() > 1).collect();
    if duplicates.is_empty() {
        return (listing, None);
    }
    let mut names: Vec<&str> = duplicates.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_by(|a, b| java_order(a, b));
    let second_home = duplicates[0].1[1].clone();
    let error = Error::at(
        Place::file(second_home),
        ErrorKind::DuplicateRuleNames {
            names: names.iter().map(std::string::ToString::to_string).collect(),
        },
    );
    (listing, Some(error))
}

/// The walk of the global rules directory (behaviour §5.2.4): opencode's
/// layout, recursive, hidden names skipped, names shown from its place.
fn global_walk<'a>(global: &GlobalRules) -> Walk<'a> {
    let layout = formats::LAYOUTS
        .iter()
        .find(|l| l.format == Format::Opencode)
        .expect("opencode has a layout");
    Walk {
        dir: global.dir.clone(),
        format: Format::Opencode,
        suffixes: layout.suffixes.to_vec(),
        skip_hidden: layout.skip_hidden,
        may_be_file: false,
        holds: layout.holds,
        nested: None,
        global: Some(global.clone()),
    }
}

/// The folders a format keeps at any depth among a source's rules
/// directories (`.cursor/rules`, `.claude/rules`, ...), project-relative.
pub(crate) fn folder_names(source: &RulesSource) -> Vec<String> {
    let root = paths::normalize_lexically(&source.root);
    let mut folders: Vec<String> = Vec::new();
    let mut add = |dir: &str| {
        if nested::nestable(dir) && !folders.iter().any(|known| known == dir) {
            folders.push(dir.to_string());
        }
    };
    for dir in &source.dirs {
        add(paths::strip_base(dir, &root).unwrap_or_default());
    }
    for layout in formats::LAYOUTS {
        if source.formats.contains(&layout.format) {
            add(layout.dir);
        }
    }
    folders
}

/// The walks of the nested rules folders below the project (behaviour
/// §1.2), each like the project's own folder of its kind: looked for only
/// inside a git checkout, among the paths the file source lists as git
/// sees the tree.
fn nested_walks<'a>(
    fs: &dyn FileSource,
    root: &str,
    bounds: &Bounds,
    walks: &[Walk<'a>],
    folders: &[String],
    findings: &mut Vec<Finding>,
) -> Vec<Walk<'a>> {
    if folders.is_empty() || bounds.checkout().is_none() {
        return Vec::new();
    }
    let Some(found) = fs.find_folders(root, folders) else {
        return Vec::new();
    };
    let found = match found {
        Ok(listing) => nested::folders_in_listing(&listing, folders),
        Err(e) => {
            findings.push(Finding::warning(
                Code::RuleUnreadable,
                Place::file(root),
                format!("Nested rule folders were not looked for: {e}"),
            ));
            return Vec::new();
        }
    };
    found
        .into_iter()
        .filter_map(|folder| {
            let owner = folder_owner(&folder, folders)?;
            if owner.is_empty() || owner.split('/').count() > NESTED_DEPTH {
                return None;
            }
            let dir = paths::join(root, &folder);
            // A folder `:rules :dirs` names is read at its place already.
            if walks.iter().any(|walk| walk.dir == dir) {
                return None;
            }
            let kind = &folder[owner.len() + 1..];
            let like = walks
                .iter()
                .find(|walk| paths::strip_base(&walk.dir, root) == Some(kind))?;
            Some(Walk {
                dir,
                nested: Some(Nested {
                    base: owner.to_string(),
                    folder: folder.clone(),
                }),
                ..like.clone()
            })
        })
        .collect()
}

/// One rules directory's walk in progress.
struct Walker<'w, 'a> {
    fs: &'a dyn FileSource,
    walk: &'w Walk<'a>,
    bounds: &'w Bounds<'a>,
    /// The project root, normalised, and the folders a format keeps at
    /// any depth: a walk does not enter one (it is walked as its own).
    root: &'w str,
    folders: &'w [String],
    found: &'w mut Vec<RuleFile>,
    findings: &'w mut Vec<Finding>,
}

impl Walker<'_, '_> {
    /// Whether `path`, met below a rules directory, is a rules folder of
    /// its own: walked as a nested folder, never as part of this one.
    fn is_folder(&self, path: &str) -> bool {
        paths::strip_base(path, self.root)
            .is_some_and(|rel| folder_owner(rel, self.folders).is_some())
    }

    /// Lists `dir` (named `prefix` below the rules directory) and goes on
    /// below it; `ancestors` are the real paths of it and those above it.
    fn dir(&mut self, dir: &str, prefix: &str, ancestors: &mut Vec<String>) {
        let fs = self.fs;
        let mut entries = match fs.list_kinds(dir) {
            Ok(entries) => entries,
            Err(e) => {
                self.findings.push(Finding::error(
                    Code::RuleUnreadable,
                    Place::file(dir),
                    format!("Cannot list the rules directory: {e}"),
                ));
                return;
            }
        };
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, kind) in entries {
            let path = paths::join(dir, &name);
            let rel = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}/{name}")
            };
            // The listing tells regular files and directories; anything
            // else (a link, or what the listing could not tell) is
            // resolved, and must stay inside the project.
            let (kind, real) = match kind {
                Some(kind) => (Ok(kind), None),
                None => match fs.stat(&path) {
                    Ok(meta) => (Ok(meta.kind), fs.real_path(&path).ok()),
                    Err(e) => (Err(e), None),
                },
            };
            if let (Ok(kind), Some(real)) = (&kind, &real) {
                if !self.bounds.admits(self.walk, real) {
                    let dir = *kind == Kind::Dir;
                    if dir || self.walk.takes(&name) {
                        self.findings.push(outside(self.walk, &path, dir));
                    }
                    continue;
                }
            }
            match kind {
                Ok(Kind::Dir) => {
                    if self.walk.skip_hidden && name.starts_with('.') {
                        continue;
                    }
                    if name == FOLDER_RULE && self.walk.takes(&name) {
                        self.findings.push(folder_rule_is_a_directory(&path));
                    }
                    let real = real
                        .or_else(|| fs.real_path(&path).ok())
                        .unwrap_or_else(|| path.clone());
                    if ancestors.contains(&real) {
                        self.findings.push(
                            Finding::warning(Code::RuleUnreadable, Place::file(&path), "Symbolic link loop: this directory links back to one that contains it; skipped")
                                .with_hint("remove the link or point it outside the rules directory"),
                        );
                        continue;
                    }
                    if self.is_folder(&path) {
                        continue;
                    }
                    // `ancestors` holds this directory and those above it: one
                    // more level is listed only within the depth policy.
                    if ancestors.len() > MAX_DEPTH {
                        continue;
                    }
                    ancestors.push(real);
                    self.dir(&path, &rel, ancestors);
                    ancestors.pop();
                }
                Ok(Kind::File) => {
                    if self.walk.takes(&name) && (self.walk.holds)(&rel) {
                        self.found.push(RuleFile {
                            name: self.walk.name(&rel),
                            path,
                            format: self.walk.format,
                            base: self.walk.base(),
                            source: self.walk.dir.clone(),
                        });
                    }
                }
                // Only regular files are read: a FIFO or a device would
                // block or never end (issue 20).
                Ok(Kind::Other) => {
                    if self.walk.takes(&name) {
                        self.findings.push(not_regular(&path));
                    }
                }
                // A dangling link is not a rule; a link loop is worth saying.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => self.findings.push(Finding::warning(
                    Code::RuleUnreadable,
                    Place::file(&path),
                    format!("Skipped: {e}"),
                )),
            }
        }
    }
}

impl RuleSet {
    /// Lists and reads every rule of a source.
    pub fn load(fs: &dyn FileSource, source: &RulesSource) -> Result<RuleSet> {
        Ok(RuleSet::read(fs, list_rule_files(fs, source)?))
    }

    /// Rules already read, sorted by name, and the findings beside them.
    pub fn new(rules: Vec<Rule>, findings: Vec<Finding>) -> RuleSet {
        RuleSet {
            rules: Rules::Read(rules),
            findings,
        }
    }

    /// Rules kept encoded, sorted by name, each decoded at its first use.
    pub fn kept(rules: KeptRules, findings: Vec<Finding>) -> RuleSet {
        RuleSet {
            rules: Rules::Kept(rules),
            findings,
        }
    }

    /// Reads the files of a listing.
    pub fn read(fs: &dyn FileSource, listing: Listing) -> RuleSet {
        let mut rules = Vec::with_capacity(listing.files.len());
        let mut findings = listing.findings;
        for file in listing.files {
            let read = match fs.read(&file.path) {
                // Gone between the listing and the read: as if never listed.
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                read => read,
            };
            let read = read
                .map_err(|e| {
                    Error::at(
                        Place::file(&file.path),
                        ErrorKind::CannotReadRule {
                            reason: e.to_string(),
                        },
                    )
                })
                .and_then(|bytes| Rule::from_bytes_as(file.format, &file.name, &file.path, &bytes));
            match read {
                Ok(mut rule) => {
                    rule.base = file.base;
                    rules.push(rule);
                }
                Err(e) => findings.push(Finding::from_error(&e, &Place::file(&file.path))),
            }
        }
        RuleSet::new(rules, findings)
    }

    /// How many rules there are.
    pub fn len(&self) -> usize {
        match &self.rules {
            Rules::Read(rules) => rules.len(),
            Rules::Kept(rules) => rules.len(),
        }
    }

    /// Whether there is no rule.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rule at a place in name order (the index's places).
    pub fn at(&self, place: usize) -> &Rule {
        match &self.rules {
            Rules::Read(rules) => &rules[place],
            Rules::Kept(rules) => rules.at(place),
        }
    }

    /// Every rule, in name order: kept rules are all decoded, once. For
    /// questions about all of them; an event asks [`RuleSet::at`].
    pub fn all(&self) -> &[Rule] {
        match &self.rules {
            Rules::Read(rules) => rules,
            Rules::Kept(rules) => rules.all(),
        }
    }

    /// Whether the rules are kept encoded, decoded at first use.
    pub fn is_kept(&self) -> bool {
        matches!(self.rules, Rules::Kept(_))
    }

    /// The rule named `name`.
    pub fn get(&self, name: &str) -> Option<&Rule> {
        self.all().iter().find(|rule| rule.name == name)
    }

    /// The rules' names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.all().iter().map(|rule| rule.name.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::fs::MemoryFs;
    use crate::config::Config;

    fn source(fs: &MemoryFs, config: &str) -> RulesSource {
        let mut fs = fs.clone();
        if !config.is_empty() {
            fs.add_file("/p/rule-fairy.edn", config);
        }
        Config::load(&fs, "/p").unwrap().rules_source("/p").unwrap()
    }

    #[test]
    fn names_are_relative_to_their_directory_and_sorted() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/ui.mdc", "")
            .add_file("/p/.cursor/rules/base.mdc", "")
            .add_file("/p/.cursor/rules/tasks/testing.mdc", "")
            .add_file("/p/.cursor/rules/notes.md", "")
            .add_file("/p/.cursor/rules/.hidden/x.mdc", "")
            .add_file("/p/.cursor/rules/plain.mdc", "");
        let names: Vec<String> = list_rule_files(&fs, &source(&fs, ""))
            .unwrap()
            .files
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(
            names,
            vec![
                ".hidden/x.mdc",
                "base.mdc",
                "notes.md",
                "plain.mdc",
                "tasks/testing.mdc",
                "ui.mdc"
            ]
        );
    }

    #[test]
    fn several_directories_and_duplicate_names() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "")
            .add_file("/p/docs/rules/b.md", "")
            .add_file("/p/docs/rules/nested/d.mdc", "")
            .add_file("/p/docs/rules/c.txt", "");
        let config =
            "{:rules {:dirs [\".cursor/rules\" \"docs/rules\"] :extensions [\".mdc\" \".md\"]}}";
        let listing = list_rule_files(&fs, &source(&fs, config)).unwrap();
        let names: Vec<&str> = listing.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, vec!["a.mdc", "b.md", "nested/d.mdc"]);
        assert_eq!(listing.files[1].path, "/p/docs/rules/b.md");
        fs.add_file("/p/docs/rules/a.mdc", "");
        let err = list_rule_files(&fs, &source(&fs, config)).unwrap_err();
        assert_eq!(
            err.message(),
            "Rule names defined in more than one rules directory: a.mdc"
        );
        assert_eq!(err.place, Some(Place::file("/p/docs/rules/a.mdc")));
    }

    #[test]
    fn missing_directories_are_empty_and_a_file_is_a_finding() {
        let mut fs = MemoryFs::new();
        assert!(list_rule_files(&fs, &source(&fs, ""))
            .unwrap()
            .files
            .is_empty());
        fs.add_file("/p/.cursor/rules", "not a dir");
        let listing = list_rule_files(&fs, &source(&fs, "")).unwrap();
        assert!(listing.files.is_empty());
        assert!(listing.findings[0].is_error());
        assert!(listing.findings[0].message.contains("not a directory"));
    }

    #[test]
    fn links_are_followed_and_loops_are_skipped() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "")
            .add_file("/p/shared/s.mdc", "")
            .add_link("/p/.cursor/rules/shared", "/p/shared")
            .add_link("/p/.cursor/rules/loop", "..")
            .add_link("/p/.cursor/rules/self", "/p/.cursor/rules/self")
            .add_link("/p/.cursor/rules/dangling.mdc", "/nowhere");
        let listing = list_rule_files(&fs, &source(&fs, "")).unwrap();
        let names: Vec<&str> = listing.files.iter().map(|f| f.name.as_str()).collect();
        assert!(
            names.contains(&"a.mdc") && names.contains(&"shared/s.mdc"),
            "{names:?}"
        );
        // `loop` points at .cursor, whose `rules` is an ancestor: walked once, then stopped.
        assert!(
            listing.findings.iter().any(|f| f.message.contains("loop")),
            "{:?}",
            listing.findings
        );
        assert!(listing.findings.iter().all(|f| !f.is_error()));
    }

    fn error_at<'a>(listing: &'a Listing, path: &str) -> &'a Finding {
        listing
            .findings
            .iter()
            .find(|f| f.place.file == path)
            .unwrap_or_else(|| panic!("no finding at {path}: {:?}", listing.findings))
    }

    #[test]
    fn links_outside_the_project_are_findings_and_never_read() {
        // issue 20: `.claude/rules/team.md` linked to a private key.
        let mut fs = MemoryFs::new();
        fs.add_file("/outside/.ssh/id_rsa", "PRIVATE KEY")
            .add_file("/outside/notes/n.md", "# Notes")
            .add_file("/p/.claude/rules/ok.md", "# Ok")
            .add_link("/p/.claude/rules/team.md", "../../../outside/.ssh/id_rsa")
            .add_link("/p/.claude/rules/notes", "/outside/notes")
            .add_link("/p/.claude/rules/README.txt", "/outside/.ssh/id_rsa")
            .add_link("/p/.clinerules", "/outside/.ssh/id_rsa")
            .add_link("/p/.opencode/rules", "/outside/notes")
            .add_file("/p/inside/i.md", "# Inside")
            .add_link("/p/.claude/rules/inside", "../../inside");
        let source = source(&fs, "{:formats [:claude :cline :opencode]}");
        let set = RuleSet::load(&fs, &source).unwrap();
        assert_eq!(set.names(), vec!["inside/i.md", "ok.md"]);
        let listing = scan_rule_files(&fs, &source).0;
        let file = error_at(&listing, "/p/.claude/rules/team.md");
        assert!(file.is_error());
        assert_eq!(
            file.message,
            "Links outside the project, so it is not read as a rule"
        );
        assert_eq!(
            error_at(&listing, "/p/.claude/rules/notes").message,
            "Links outside the project, so no rule below it is read"
        );
        assert!(error_at(&listing, "/p/.clinerules").is_error());
        assert!(error_at(&listing, "/p/.opencode/rules").is_error());
        // Not named as a rule: not read, and nothing to say.
        assert!(listing
            .findings
            .iter()
            .all(|f| !f.place.file.ends_with("README.txt")));
        assert_eq!(listing.findings.len(), 4, "{:?}", listing.findings);
    }

    #[test]
    fn a_subproject_may_link_to_rules_its_checkout_shares() {
        let mut fs = MemoryFs::new();
        fs.add_dir("/repo/.git")
            .add_file("/repo/shared/rules/s.mdc", "# Shared")
            .add_link("/repo/app/.cursor/rules", "../../shared/rules")
            .add_file("/elsewhere/e.mdc", "# E")
            .add_link("/repo/shared/rules/e.mdc", "/elsewhere/e.mdc");
        let mut config = fs.clone();
        config.add_file("/repo/app/rule-fairy.edn", "{}");
        let source = Config::load(&config, "/repo/app")
            .unwrap()
            .rules_source("/repo/app")
            .unwrap();
        let set = RuleSet::load(&fs, &source).unwrap();
        assert_eq!(set.names(), vec!["s.mdc"]);
        assert!(set.findings[0]
            .message
            .starts_with("Links outside the project"));
    }

    /// A file source that says `/p/.cursor/rules/pipe.mdc` is neither a
    /// file nor a directory, as a FIFO is, and fails any read of it.
    struct WithFifo(MemoryFs);

    impl FileSource for WithFifo {
        fn read(&self, path: &str) -> io::Result<Vec<u8>> {
            assert!(!path.ends_with("pipe.mdc"), "a FIFO was opened");
            self.0.read(path)
        }
        fn list(&self, dir: &str) -> io::Result<Vec<String>> {
            self.0.list(dir)
        }
        fn stat(&self, path: &str) -> io::Result<crate::base::fs::Metadata> {
            let mut meta = self.0.stat(path)?;
            if path.ends_with("pipe.mdc") {
                meta.kind = Kind::Other;
            }
            Ok(meta)
        }
        fn real_path(&self, path: &str) -> io::Result<String> {
            self.0.real_path(path)
        }
    }

    #[test]
    fn only_regular_files_are_read_as_rules() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/pipe.mdc", "")
            .add_file("/p/.cursor/rules/a.mdc", "# A");
        let fs = WithFifo(fs);
        let set = RuleSet::load(&fs, &source(&fs.0, "")).unwrap();
        assert_eq!(set.names(), vec!["a.mdc"]);
        assert_eq!(set.findings.len(), 1);
        assert_eq!(set.findings[0].place.file, "/p/.cursor/rules/pipe.mdc");
        assert!(set.findings[0].message.starts_with("Not a regular file"));
    }

    #[test]
    fn the_walk_lists_max_depth_directories_below_and_no_deeper() {
        let mut fs = MemoryFs::new();
        let mut dir = "/p/.cursor/rules".to_string();
        for depth in 0..=MAX_DEPTH + 1 {
            fs.add_file(&format!("{dir}/r{depth}.mdc"), "");
            dir.push_str("/d");
        }
        let names: Vec<String> = list_rule_files(&fs, &source(&fs, ""))
            .unwrap()
            .files
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(names.len(), MAX_DEPTH + 1);
        let deepest = format!("{}r{MAX_DEPTH}.mdc", "d/".repeat(MAX_DEPTH));
        assert!(names.contains(&deepest), "{names:?}");
    }

    #[test]
    fn unreadable_rules_are_findings_not_fatal() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/good.mdc", "# Good").add_file(
            "/p/.cursor/rules/bad.mdc",
            b"\xff\xfe\x00garbage".as_slice(),
        );
        let set = RuleSet::load(&fs, &source(&fs, "")).unwrap();
        assert_eq!(set.names(), vec!["good.mdc"]);
        assert_eq!(set.findings.len(), 1);
        assert_eq!(
            set.findings[0].place,
            Place::line("/p/.cursor/rules/bad.mdc", 1)
        );
    }

    /// A checkout at `/p` with a root rule and nested folders.
    fn monorepo() -> MemoryFs {
        let mut fs = MemoryFs::new();
        fs.add_dir("/p/.git")
            .add_file(
                "/p/.cursor/rules/base.mdc",
                "---\nalwaysApply: true\n---\n# Base",
            )
            // A root rule whose name reads like a nested one's.
            .add_file("/p/.cursor/rules/packages/web/ui.mdc", "# Root UI")
            .add_file(
                "/p/packages/web/.cursor/rules/ui.mdc",
                "---\nglobs: src/**\n---\n# Web UI",
            )
            .add_file("/p/packages/web/.cursor/rules/notes.txt", "not a rule")
            .add_file("/p/packages/api/.claude/rules/db.md", "# Db")
            .add_file("/p/node_modules/dep/.cursor/rules/dep.mdc", "# Dep");
        fs
    }

    #[test]
    fn nested_folders_are_sources_named_from_the_project() {
        let fs = monorepo();
        let set = RuleSet::load(&fs, &source(&fs, "")).unwrap();
        assert_eq!(
            set.names(),
            vec![
                "base.mdc",
                "packages/web/.cursor/rules/ui.mdc",
                "packages/web/ui.mdc"
            ]
        );
        let ui = set.get("packages/web/.cursor/rules/ui.mdc").unwrap();
        assert_eq!(ui.base.as_deref(), Some("packages/web"));
        assert_eq!(ui.path, "/p/packages/web/.cursor/rules/ui.mdc");
        assert_eq!(set.get("packages/web/ui.mdc").unwrap().base, None);
        assert!(set.findings.is_empty(), "{:?}", set.findings);
        // A format's folder is nested only when the format is on.
        let set = RuleSet::load(&fs, &source(&fs, "{:formats [:claude]}")).unwrap();
        let db = set.get("packages/api/.claude/rules/db.md").unwrap();
        assert_eq!(
            (db.base.as_deref(), db.format),
            (Some("packages/api"), Format::Claude)
        );
    }

    #[test]
    fn nested_folders_are_looked_for_only_in_a_checkout() {
        let mut fs = monorepo();
        fs.remove("/p/.git");
        let set = RuleSet::load(&fs, &source(&fs, "")).unwrap();
        assert_eq!(set.names(), vec!["base.mdc", "packages/web/ui.mdc"]);
    }

    #[test]
    fn a_folder_inside_a_rules_folder_is_its_own() {
        // The root walk does not enter it, so no root name holds a folder.
        let mut fs = monorepo();
        fs.add_file("/p/.cursor/rules/team/.cursor/rules/t.mdc", "# T");
        let set = RuleSet::load(&fs, &source(&fs, "")).unwrap();
        let t = set.get(".cursor/rules/team/.cursor/rules/t.mdc").unwrap();
        assert_eq!(t.base.as_deref(), Some(".cursor/rules/team"));
        assert!(set.get("team/.cursor/rules/t.mdc").is_none());
        // Outside a checkout it is read by no one.
        fs.remove("/p/.git");
        let set = RuleSet::load(&fs, &source(&fs, "")).unwrap();
        assert!(set.names().iter().all(|name| !name.ends_with("t.mdc")));
    }

    #[test]
    fn a_nested_folder_that_loops_or_leads_out_is_a_finding() {
        let mut fs = monorepo();
        fs.add_file("/outside/rules/o.mdc", "# Outside")
            .add_link("/p/packages/out/.cursor/rules", "/outside/rules")
            .add_link("/p/packages/loop/.cursor/rules", "..")
            .add_link(
                "/p/packages/self/.cursor/rules",
                "/p/packages/self/.cursor/rules",
            );
        let set = RuleSet::load(&fs, &source(&fs, "")).unwrap();
        assert_eq!(
            set.names(),
            vec![
                "base.mdc",
                "packages/web/.cursor/rules/ui.mdc",
                "packages/web/ui.mdc"
            ]
        );
        let at = |path: &str| {
            set.findings
                .iter()
                .find(|f| f.place.file == path)
                .unwrap_or_else(|| panic!("no finding at {path}: {:?}", set.findings))
        };
        assert_eq!(
            at("/p/packages/out/.cursor/rules").message,
            "Links outside the project, so no rule below it is read"
        );
        assert!(at("/p/packages/loop/.cursor/rules/.cursor/rules")
            .message
            .starts_with("Symbolic link loop"));
        assert!(at("/p/packages/self/.cursor/rules")
            .message
            .starts_with("Cannot read the rules directory"));
        assert_eq!(set.findings.len(), 3, "{:?}", set.findings);
    }

    #[test]
    fn md_files_folder_rules_and_legacy_root_files_are_rules() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "# A")
            .add_file("/p/.cursor/rules/guide.md", "# Guide")
            .add_file("/p/.cursor/rules/release/RULE.md", "# Release")
            .add_file("/p/.cursor/rules/broken/RULE.md/inner.md", "# Inner")
            .add_file("/p/.cursorrules", "Always say hello.")
            .add_file("/p/.windsurfrules", "Windsurf legacy.");
        let set = RuleSet::load(&fs, &source(&fs, "")).unwrap();
        assert_eq!(
            set.names(),
            vec![
                ".cursorrules",
                "a.mdc",
                "broken/RULE.md/inner.md",
                "guide.md",
                "release/RULE.md"
            ]
        );
        assert!(set.get(".cursorrules").unwrap().always_apply);
        assert!(!set.get("guide.md").unwrap().always_apply);
        let finding = &set.findings[0];
        assert_eq!(finding.place.file, "/p/.cursor/rules/broken/RULE.md");
        assert!(finding.message.starts_with("RULE.md is a directory"));
        assert_eq!(set.findings.len(), 1, "{:?}", set.findings);
        // `.windsurfrules` comes with `:windsurf`; `.cursorrules` with Cursor's folder.
        let windsurf = RuleSet::load(&fs, &source(&fs, "{:formats [:windsurf]}")).unwrap();
        assert!(windsurf.get(".windsurfrules").unwrap().always_apply);
        let elsewhere = RuleSet::load(&fs, &source(&fs, "{:rules {:dirs [\"docs\"]}}")).unwrap();
        assert!(elsewhere.names().is_empty());
    }

    #[test]
    fn a_legacy_file_that_is_a_directory_is_no_rule() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursorrules/x.md", "# X")
            .add_file("/p/.cursor/rules/a.mdc", "# A");
        let set = RuleSet::load(&fs, &source(&fs, "")).unwrap();
        assert_eq!(set.names(), vec!["a.mdc"]);
        assert!(set.findings.is_empty(), "{:?}", set.findings);
    }

    #[test]
    fn continue_and_roo_folders() {
        let mut fs = MemoryFs::new();
        fs.add_file(
            "/p/.continue/rules/ts.md",
            "---\nglobs: \"**/*.ts\"\n---\n# TS",
        )
        .add_file("/p/.roo/rules/general.md", "# General")
        .add_file("/p/.roo/rules-code/style.txt", "Code style.")
        .add_file("/p/.roo/commands/deploy.md", "# Not a rule")
        .add_file("/p/.roo/mcp.md", "# Not a rule");
        let set = RuleSet::load(&fs, &source(&fs, "{:formats [:continue :roo]}")).unwrap();
        assert_eq!(
            set.names(),
            vec!["rules-code/style.txt", "rules/general.md", "ts.md"]
        );
        let mode = set.get("rules-code/style.txt").unwrap();
        assert_eq!(mode.conditions.agent.values, vec!["code"]);
        assert!(mode.always_apply && mode.conditions.match_all);
        assert!(set.get("rules/general.md").unwrap().always_apply);
        assert_eq!(set.get("ts.md").unwrap().globs[0].pattern, "**/*.ts");
    }

    #[test]
    fn cline_workflows_are_mention_only() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.clinerules/style.md", "# Style")
            .add_file("/p/.clinerules/workflows/release.md", "# Release steps");
        let set = RuleSet::load(&fs, &source(&fs, "{:formats [:cline]}")).unwrap();
        let style = set.get("style.md").unwrap();
        assert!(style.always_apply && !style.mention_only);
        let workflow = set.get("workflows/release.md").unwrap();
        assert!(workflow.mention_only && !workflow.always_apply);
        assert!(workflow.globs.is_empty() && workflow.trigger.is_none());
    }

    fn with_global(fs: &MemoryFs, dir: &str) -> RulesSource {
        let mut source = source(fs, "");
        source.global = GlobalRules::new(dir, Some("/h"));
        source
    }

    #[test]
    fn the_global_rules_directory_is_walked_as_opencode_s_named_from_home() {
        // behaviour §5.2.4: recursive, .md and .mdc, hidden names skipped.
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/style.mdc", "# Project style")
            .add_file("/h/.config/opencode/rules/style.md", "# Global style")
            .add_file("/h/.config/opencode/rules/deep/x.mdc", "# X")
            .add_file("/h/.config/opencode/rules/notes.txt", "not a rule")
            .add_file("/h/.config/opencode/rules/.draft.md", "hidden")
            .add_file("/h/.config/opencode/rules/.hidden/y.md", "hidden");
        let source = with_global(&fs, "/h/.config/opencode/rules");
        let set = RuleSet::load(&fs, &source).unwrap();
        assert_eq!(
            set.names(),
            vec![
                "style.mdc",
                "~/.config/opencode/rules/deep/x.mdc",
                "~/.config/opencode/rules/style.md"
            ]
        );
        let global = set.get("~/.config/opencode/rules/style.md").unwrap();
        assert_eq!(global.format, Format::Opencode);
        assert_eq!(global.base, None, "its globs match the project's paths");
        // The project's own folder as the global one: read once, there.
        let same = with_global(&fs, "/p/.cursor/rules");
        assert_eq!(
            RuleSet::load(&fs, &same).unwrap().names(),
            vec!["style.mdc"]
        );
        // A missing directory is silent.
        let missing = with_global(&fs, "/h/.config/opencode/none");
        let listing = list_rule_files(&fs, &missing).unwrap();
        assert_eq!(listing.files.len(), 1);
        assert!(listing.findings.is_empty(), "{:?}", listing.findings);
    }

    #[test]
    fn the_global_rules_directory_may_lead_only_inside_itself() {
        let mut fs = MemoryFs::new();
        fs.add_file("/p/.cursor/rules/a.mdc", "# A")
            .add_file("/p/secret.md", "project file")
            .add_file("/h/.ssh/id_rsa", "PRIVATE KEY")
            .add_file("/h/dotfiles/rules/real.md", "# Real")
            .add_file("/h/dotfiles/rules/shared/s.md", "# Shared")
            // The directory itself a link: admitted where it leads.
            .add_link("/h/.config/opencode/rules", "/h/dotfiles/rules")
            .add_link("/h/dotfiles/rules/key.md", "/h/.ssh/id_rsa")
            .add_link("/h/dotfiles/rules/project.md", "/p/secret.md")
            .add_link("/h/dotfiles/rules/inner.md", "shared/s.md")
            // A project rule may not lead into the global directory.
            .add_link("/p/.cursor/rules/g.mdc", "/h/dotfiles/rules/real.md");
        let source = with_global(&fs, "/h/.config/opencode/rules");
        let (listing, duplicates) = scan_rule_files(&fs, &source);
        assert!(duplicates.is_none());
        let names: Vec<&str> = listing.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            vec![
                "a.mdc",
                "~/.config/opencode/rules/inner.md",
                "~/.config/opencode/rules/real.md",
                "~/.config/opencode/rules/shared/s.md"
            ]
        );
        for refused in [
            "/h/.config/opencode/rules/key.md",
            "/h/.config/opencode/rules/project.md",
        ] {
            let finding = error_at(&listing, refused);
            assert!(finding.is_error(), "{refused}");
            assert_eq!(
                finding.message,
                "Links outside the global rules directory, so it is not read as a rule"
            );
        }
        assert_eq!(
            error_at(&listing, "/p/.cursor/rules/g.mdc").message,
            "Links outside the project, so it is not read as a rule"
        );
        let set = RuleSet::read(&fs, listing);
        assert!(set
            .all()
            .iter()
            .all(|r| r.path != "/h/.config/opencode/rules/key.md"));
    }

    #[test]
    fn java_order_is_utf16_order() {
        // U+FF5E sorts after U+1F600 in UTF-16 (surrogates are 0xD8xx) but before it in UTF-8.
        assert_eq!(java_order("\u{ff5e}", "\u{1f600}"), Ordering::Greater);
        assert_eq!(java_order("a.mdc", "a/b.mdc"), Ordering::Less);
    }
}
