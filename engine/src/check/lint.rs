//! Lints for one rule file: the frontmatter mistakes that silently disable a
//! rule (in Cursor's dialect above all) and condition values that can never
//! hold, each with its line and what to write instead.

use crate::base::error::{ErrorKind, Place};
use crate::base::finding::{Code, Finding, Span};
use crate::base::text::edit_distance;
use crate::config::formats::Format;
use crate::matching::conditions::compile_pattern;
use crate::matching::glob;
use crate::matching::mentions::stem;
use crate::rules::conditions::{CONDITION_KEYS, PROJECT_TAGS};
use crate::rules::reach;
use crate::rules::rule::{Rule, GLOB_KEYS};
use crate::rules::triggers::own_keys;
use crate::syntax::frontmatter::{Field, FieldValue, Frontmatter};

const LIST_KEYS: &[&str] = &[
    "globs",
    "paths",
    "promptAnyOf",
    "promptRequires",
    "applyTo",
    "fileContains",
    "keywords",
    "command",
    "project",
    "os",
    "branch",
    "model",
    "agent",
    "tools",
];

/// The keys a rule of `format` may carry: its own and the shared conditions.
fn known_keys(format: Format) -> Vec<&'static str> {
    own_keys(format)
        .iter()
        .chain(CONDITION_KEYS)
        .copied()
        .collect()
}

/// Every finding for one rule.
pub(crate) fn lint_rule(rule: &Rule) -> Vec<Finding> {
    let mut out = Vec::new();
    let at = |line: usize| Place::line(&rule.path, line);
    let doc = &rule.document;
    if doc.had_bom {
        out.push(
            Finding::warning(Code::RuleByteOrderMark, at(1), "The file starts with a byte order mark; Rule Fairy skips it, but Cursor then reads no frontmatter")
                .with_hint("save the file as UTF-8 without a byte order mark"),
        );
    }
    if let Some(line) = doc.unclosed_at {
        out.push(
            Finding::error(Code::RuleUnclosedFrontmatter, at(line), "The frontmatter has no closing `---` line, so none of its fields are read and its lines are delivered as text")
                .with_hint("add a line `---` after the last field"),
        );
    }
    if let Some(fm) = doc.frontmatter() {
        lint_frontmatter(fm, rule.format, &at, &mut out);
        lint_conditions(fm, &at, &mut out);
    }
    if rule.format != Format::Cursor {
        lint_format_globs(rule, &at, &mut out);
    }
    lint_body(rule, &at, &mut out);
    out
}

/// The other formats' globs (`applyTo`, `paths`, Continue's `globs`), as
/// the rule reads them, each built as an event would: one that cannot
/// match (`applyTo: "src/{a,b"`) is an error at its line, not a surprise at
/// the first edit.
fn lint_format_globs(rule: &Rule, at: &dyn Fn(usize) -> Place, out: &mut Vec<Finding>) {
    for spec in &rule.globs {
        if let Err(e) = glob::compile_matcher(&spec.pattern, spec.from_sequence) {
            out.push(
                Finding::error(Code::RuleInvalidGlob, at(spec.line), e.message())
                    .with_hint("close every `{` with `}` and every `[` with `]`"),
            );
        }
    }
}

fn lint_body(rule: &Rule, at: &dyn Fn(usize) -> Place, out: &mut Vec<Finding>) {
    // A trigger key that is present but misread has its own finding; one
    // left empty (`globs:`, as Cursor's editor writes) or
    // `alwaysApply: false` declares no trigger.
    let misread_trigger_key = rule
        .frontmatter()
        .is_some_and(|fm| fm.fields.iter().any(declares_a_trigger));
    let fires = reach::fires_by_itself(rule) || misread_trigger_key;
    if rule.body().is_empty() && !rule.document.has_frontmatter() {
        out.push(Finding::warning(
            Code::RuleEmpty,
            at(1),
            "The rule file is empty",
        ));
        return;
    }
    if rule.body().is_empty() {
        out.push(Finding::warning(
            Code::RuleEmpty,
            at(rule.document.body_line),
            "The rule has no body: only its heading would be delivered",
        ));
    }
    if rule.body().contains('\0') {
        out.push(Finding::warning(
            Code::RuleEmpty,
            at(1),
            "The rule contains NUL bytes; is it a text file?",
        ));
    }
    let annotations = crate::render::imports::annotation_lines(rule);
    if let Some((line, first)) = annotations.first() {
        let more = match annotations.len() {
            1 => String::new(),
            n => format!(" (and {} more such lines)", n - 1),
        };
        out.push(
            Finding::warning(
                Code::RuleCodeOutsideFence,
                at(*line),
                format!("`{first}` looks like code (an annotation or decorator) outside a code fence{more}; it is delivered as text, never read as an import"),
            )
            .with_hint("put code examples in a fenced block (```java ... ```), where nothing is read as an import"),
        );
    }
    if rule.mention_only {
        out.push(
            Finding::warning(Code::RuleMentionOnly, at(1), "The rule is mention-only (a Cline workflow or Windsurf's `trigger: manual`): it comes only when a person names it")
                .with_hint(format!("name it in a prompt as @{}", rule.name)),
        );
        return;
    }
    if rule.document.unclosed_at.is_some() {
        return;
    }
    // How a rule with no trigger of its own reaches the model now
    // (behaviour §9): the index and a read of its file, or a mention.
    let mention = format!("@{}", stem(&rule.name));
    if reach::is_requestable(rule) {
        out.push(
            Finding::warning(Code::RuleRequestable, at(1), format!("The rule has no trigger of its own: the model is offered it by its description in the index of requestable rules and gets it by reading its file; a prompt naming {mention} brings it too"))
                .with_hint("to deliver it without the model asking, add `globs: <pattern>`, `promptAnyOf: <terms>` or `alwaysApply: true`"),
        );
    } else if !fires {
        let (what, hint) = match rule.format {
            Format::Copilot => ("it has no applyTo", "add `applyTo: \"<glob>\"`"),
            Format::Windsurf => (
                "its trigger is model_decision with no description, or it has none",
                "use `trigger: always_on`, or `trigger: glob` with `globs:`, or add `description:` or `keywords: [<terms>]`",
            ),
            _ => (
                "it has no alwaysApply, globs, promptAnyOf or description",
                "add `description: <when it applies>` to offer it to the model, or `globs: <pattern>`, `promptAnyOf: <terms>` or `alwaysApply: true`",
            ),
        };
        out.push(
            Finding::warning(Code::RuleNoTrigger, at(1), format!("The rule never fires on its own: {what}; only a prompt naming {mention} brings it"))
                .with_hint(hint),
        );
    }
}

/// A field's key: keys start their line.
fn key_span(field: &Field) -> Option<Span> {
    Some(Span::at(1, field.key.chars().count()))
}

/// `needle` inside a field's value on the key's line (a glob, a quoted
/// value); the key when the value is a list or `needle` is not on that line.
fn value_span(field: &Field, needle: &str) -> Option<Span> {
    if let FieldValue::Text(text) = &field.value {
        if let Some(offset) = text.find(needle) {
            if !text[..offset + needle.len()].contains('\n') && !needle.is_empty() {
                let column = field.value_column + text[..offset].chars().count();
                return Some(Span::at(column, needle.chars().count()));
            }
        }
    }
    key_span(field)
}

/// Where an item of a field is written (a glob, a term): the line and
/// span of the item line or flow sequence that holds it, or the key's
/// line and `value_span` for a value on one line.
pub(crate) fn item_place(field: &Field, item: &str) -> (usize, Option<Span>) {
    if !item.is_empty() {
        for written in &field.item_lines {
            if let Some(offset) = written.text.find(item) {
                let column = written.column + written.text[..offset].chars().count();
                return (written.line, Some(Span::at(column, item.chars().count())));
            }
        }
    }
    (field.line, value_span(field, item))
}

/// Where a glob of `rule` is written, given the line of the field that
/// declared it and its normalised pattern (a glob the index names): the
/// item that normalises to it, placed as the glob lints place theirs.
pub(crate) fn glob_place(rule: &Rule, line: usize, pattern: &str) -> Option<(usize, Option<Span>)> {
    let field = rule
        .frontmatter()?
        .fields
        .iter()
        .find(|field| field.line == line)?;
    let item = field
        .value
        .items()
        .into_iter()
        .find(|item| crate::base::paths::normalize_for_match(item) == pattern);
    Some(item_place(field, item.as_deref().unwrap_or(pattern)))
}

/// Whether a field is a trigger key with a value that declares something.
fn declares_a_trigger(field: &Field) -> bool {
    let key = field.key.to_lowercase();
    if !["alwaysapply", "globs", "paths", "promptanyof"].contains(&key.as_str()) {
        return false;
    }
    match &field.value {
        FieldValue::List(items) => !items.is_empty(),
        FieldValue::Text(text) => {
            let text = text.trim();
            !(text.is_empty()
                || ["[]", "\"\"", "''"].contains(&text)
                || (key == "alwaysapply" && text.eq_ignore_ascii_case("false")))
        }
    }
}

fn lint_frontmatter(
    fm: &Frontmatter,
    format: Format,
    at: &dyn Fn(usize) -> Place,
    out: &mut Vec<Finding>,
) {
    let known = known_keys(format);
    for ignored in &fm.ignored {
        lint_ignored_line(&ignored.text, at(ignored.line), out);
    }
    for error in &fm.list_errors {
        out.push(Finding::error(
            Code::RuleUnreadableList,
            at(error.line),
            format!("The list under this key cannot be read: {}", error.text),
        ));
    }
    for (index, field) in fm.fields.iter().enumerate() {
        if let Some(later) = fm.fields[index + 1..].iter().find(|f| f.key == field.key) {
            out.push(
                Finding::warning(
                    Code::RuleDuplicateKey,
                    at(field.line),
                    format!(
                        "`{}` appears again on line {}; only the last one is read",
                        field.key, later.line
                    ),
                )
                .with_span(key_span(field)),
            );
        }
        lint_key(field, &known, at(field.line), out);
        if matches!(field.value, FieldValue::List(_))
            && !LIST_KEYS.contains(&field.key.as_str())
            && known.contains(&field.key.as_str())
        {
            out.push(
                Finding::error(
                    Code::RuleNotAList,
                    at(field.line),
                    format!(
                        "`{}` takes one value, not a list; the list is ignored",
                        field.key
                    ),
                )
                .with_span(key_span(field)),
            );
        }
    }
    // The rest are the mistakes of Cursor's raw `key: value` dialect.
    if format != Format::Cursor {
        return;
    }
    if let Some(field) = fm.get("alwaysApply") {
        let first = out.len();
        lint_always_apply(field, at(field.line), out);
        let span = field
            .value
            .items()
            .first()
            .and_then(|v| value_span(field, v));
        for finding in &mut out[first..] {
            finding.span = span;
        }
    }
    for key in GLOB_KEYS {
        if let Some(field) = fm.get(key) {
            lint_globs(field, &at, out);
        }
    }
    for key in ["promptAnyOf", "promptRequires"] {
        if let Some(field) = fm.get(key) {
            lint_terms(field, at(field.line), out);
        }
    }
    if fm.get("promptRequires").is_some() && fm.list("promptAnyOf").is_empty() {
        let line = fm.get("promptRequires").map_or(1, |f| f.line);
        out.push(
            Finding::warning(Code::RuleRequiresAlone, at(line), "promptRequires without promptAnyOf never selects the rule: it only narrows promptAnyOf")
                .with_hint("add `promptAnyOf: <terms>`"),
        );
    }
}

/// The shared condition keys: values that can never hold, patterns that
/// do not compile, a `match` that is neither any nor all.
fn lint_conditions(fm: &Frontmatter, at: &dyn Fn(usize) -> Place, out: &mut Vec<Finding>) {
    use crate::rules::conditions::unquote;
    if let Some(field) = fm.get("match") {
        let value = field.value.items().join(", ");
        let value = unquote(&value);
        if !value.eq_ignore_ascii_case("any") && !value.eq_ignore_ascii_case("all") {
            out.push(
                Finding::error(
                    Code::RuleInvalidCondition,
                    at(field.line),
                    format!("`match: {value}` is neither `any` nor `all`; it reads as any"),
                )
                .with_hint("write `match: any` or `match: all`"),
            );
        }
    }
    if let Some(field) = fm.get("ci") {
        let value = field.value.items().join(", ");
        if !matches!(unquote(&value).to_lowercase().as_str(), "true" | "false") {
            out.push(
                Finding::error(
                    Code::RuleInvalidCondition,
                    at(field.line),
                    format!(
                        "`ci: {value}` is neither true nor false, so the condition is not read"
                    ),
                )
                .with_hint("write `ci: true` or `ci: false`"),
            );
        }
    }
    if let Some(field) = fm.get("branch") {
        for value in field.value.items() {
            let value = unquote(&value);
            if !value.contains(['*', '?', '[', '{']) {
                continue;
            }
            if let Err(e) = glob::compile_matcher(value, true) {
                if matches!(
                    e.kind,
                    ErrorKind::GlobTooLong { .. } | ErrorKind::GlobTooComplex { .. }
                ) {
                    out.push(
                        Finding::error(
                            Code::RuleInvalidCondition,
                            at(field.line),
                            format!("The branch glob is not matched as a glob: {}", e.message()),
                        )
                        .with_hint("write a shorter branch glob"),
                    );
                }
            }
        }
    }
    if let Some(field) = fm.get("project") {
        for tag in field
            .value
            .items()
            .iter()
            .map(|t| unquote(t).to_lowercase())
        {
            if !PROJECT_TAGS.contains(&tag.as_str()) {
                out.push(
                    Finding::error(
                        Code::RuleInvalidCondition,
                        at(field.line),
                        format!("Unknown project tag `{tag}`, so it never holds"),
                    )
                    .with_hint(format!("use one of {}", PROJECT_TAGS.join(", "))),
                );
            }
        }
    }
    if let Some(field) = fm.get("os") {
        for os in field
            .value
            .items()
            .iter()
            .map(|o| crate::rules::conditions::normalize_os(unquote(o)))
        {
            if ![
                "linux", "darwin", "win32", "freebsd", "openbsd", "netbsd", "android",
            ]
            .contains(&os.as_str())
            {
                out.push(
                    Finding::warning(
                        Code::RuleInvalidCondition,
                        at(field.line),
                        format!("Unknown operating system `{os}`"),
                    )
                    .with_hint("use linux, darwin (or macos) or win32 (or windows)"),
                );
            }
        }
    }
    if let Some(field) = fm.get("fileContains") {
        for pattern in field.value.items().iter().map(|p| unquote(p).to_string()) {
            if let Err(why) = compile_pattern(&pattern) {
                out.push(Finding::error(
                    Code::RuleInvalidCondition,
                    at(field.line),
                    format!("Invalid fileContains pattern: {pattern} ({why})"),
                ));
            }
        }
    }
}

fn lint_ignored_line(text: &str, place: Place, out: &mut Vec<Finding>) {
    let trimmed = text.trim_start();
    if trimmed.starts_with('#') {
        return;
    }
    if let Some((key, _)) = trimmed.split_once(':') {
        let key_trimmed = key.trim_end();
        let looks_like_key = !key_trimmed.is_empty()
            && key_trimmed
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if looks_like_key && key_trimmed.len() != key.len() && trimmed.len() == text.len() {
            out.push(
                Finding::error(
                    Code::RuleUnreadLine,
                    place,
                    format!("`{key_trimmed} :` is not read: no space is allowed before the colon"),
                )
                .with_hint(format!("write `{key_trimmed}:`")),
            );
            return;
        }
        if looks_like_key && trimmed.len() != text.len() {
            out.push(
                Finding::warning(
                    Code::RuleUnreadLine,
                    place,
                    format!(
                        "The indented line `{}` is not read: keys start at the beginning of a line",
                        text.trim()
                    ),
                )
                .with_hint(format!("write `{}` without leading spaces", text.trim())),
            );
            return;
        }
    }
    if trimmed.starts_with('-') {
        out.push(
            Finding::warning(
                Code::RuleUnreadLine,
                place,
                "This list item is not read: it does not follow an empty `key:` line",
            )
            .with_hint("write the list directly under its key, or as `key: a, b`"),
        );
        return;
    }
    out.push(Finding::warning(
        Code::RuleUnreadLine,
        place,
        format!(
            "`{}` is not a `key: value` line and is not read",
            text.trim()
        ),
    ));
}

fn lint_key(field: &Field, known_keys: &[&str], place: Place, out: &mut Vec<Finding>) {
    if known_keys.contains(&field.key.as_str()) {
        return;
    }
    let first = out.len();
    lint_unknown_key(field, known_keys, place, out);
    for finding in &mut out[first..] {
        finding.span = key_span(field);
    }
}

fn lint_unknown_key(field: &Field, known_keys: &[&str], place: Place, out: &mut Vec<Finding>) {
    if let Some(known) = known_keys
        .iter()
        .find(|k| k.eq_ignore_ascii_case(&field.key))
    {
        out.push(
            Finding::error(
                Code::RuleKeyCase,
                place,
                format!(
                    "`{}` is not `{known}`: keys are case-sensitive, so this field is ignored",
                    field.key
                ),
            )
            .with_hint(format!("write `{known}:`")),
        );
    } else if let Some(known) = known_keys
        .iter()
        .find(|k| edit_distance(&k.to_lowercase(), &field.key.to_lowercase()) <= 2)
    {
        out.push(
            Finding::warning(
                Code::RuleUnknownKey,
                place,
                format!(
                    "Unknown key `{}`; it is kept but nothing reads it",
                    field.key
                ),
            )
            .with_hint(format!("did you mean `{known}:`?")),
        );
    } else {
        out.push(Finding::warning(
            Code::RuleUnknownKey,
            place,
            format!(
                "Unknown key `{}`; it is kept but nothing reads it",
                field.key
            ),
        ));
    }
}

fn is_quoted(text: &str) -> bool {
    let t = text.trim();
    t.len() >= 2
        && ((t.starts_with('"') && t.ends_with('"')) || (t.starts_with('\'') && t.ends_with('\'')))
}

fn unquoted(text: &str) -> &str {
    let t = text.trim();
    if is_quoted(t) {
        &t[1..t.len() - 1]
    } else {
        t
    }
}

fn lint_always_apply(field: &Field, place: Place, out: &mut Vec<Finding>) {
    let FieldValue::Text(value) = &field.value else {
        return;
    };
    let lowered = value.to_lowercase();
    if lowered == "true" || lowered == "false" || value.is_empty() {
        return;
    }
    if is_quoted(value) && matches!(unquoted(value).to_lowercase().as_str(), "true" | "false") {
        out.push(
            Finding::error(Code::RuleQuoted, place, format!("alwaysApply is {value} with quotes, which reads as false: values are taken as written"))
                .with_hint(format!("write `alwaysApply: {}`", unquoted(value).to_lowercase())),
        );
    } else {
        out.push(
            Finding::error(
                Code::RuleAlwaysApply,
                place,
                format!("alwaysApply is `{value}`, which reads as false: only `true` turns it on"),
            )
            .with_hint("write `alwaysApply: true` or `alwaysApply: false`"),
        );
    }
}

fn lint_globs(field: &Field, at: &dyn Fn(usize) -> Place, out: &mut Vec<Finding>) {
    let place = || at(field.line);
    match &field.value {
        FieldValue::Text(text) => {
            if let Some(expanded) = split_brace_globs(text) {
                let line = quoted_excerpt(text.trim());
                let hint = match expanded {
                    Some(globs) => format!("write each glob out: `{}: {}`", field.key, globs.join(", ")),
                    None => format!(
                        "write the globs out, or use a list, where braces alternate: `{}: [\"src/**/*.{{ts,tsx}}\"]` (the braces here stand for more than {BRACE_HINT_GLOBS} globs)",
                        field.key
                    ),
                };
                out.push(
                    Finding::error(Code::RuleSplitBraces, place(), format!("`{line}` is split at the comma inside its braces, so none of its parts match"))
                        .with_hint(hint)
                        .with_span(value_span(field, text.trim())),
                );
                return;
            }
        }
        FieldValue::List(_) if field.key == "globs" => out.push(
            Finding::warning(Code::RuleGlobList, place(), "Cursor reads `globs` as one comma-separated line and may not read this list; Rule Fairy does")
                .with_hint(format!("for Cursor, write `globs: {}`", field.value.items().join(", ")))
                .with_span(key_span(field)),
        ),
        FieldValue::List(_) => {}
    }
    let from_sequence = matches!(field.value, FieldValue::List(_));
    for item in field.value.items() {
        let first = out.len();
        lint_glob(field, &item, from_sequence, &place, out);
        let (line, span) = item_place(field, &item);
        for finding in &mut out[first..] {
            finding.place = at(line);
            finding.span = span;
        }
    }
}

/// One glob of a field: quotes kept, a pattern that does not compile, and
/// the characters that do not mean what they seem.
fn lint_glob(
    field: &Field,
    item: &str,
    from_sequence: bool,
    place: &dyn Fn() -> Place,
    out: &mut Vec<Finding>,
) {
    {
        if !from_sequence && is_quoted(item)
            || item.starts_with(['"', '\''])
            || item.ends_with(['"', '\''])
        {
            out.push(
                Finding::error(
                    Code::RuleQuoted,
                    place(),
                    format!("The glob {item} keeps its quotes, so it matches no path"),
                )
                .with_hint(format!("write it without quotes: `{}`", unquoted(item))),
            );
            return;
        }
        let pattern = crate::base::paths::normalize_for_match(item);
        if let Err(e) = glob::compile_matcher(&pattern, from_sequence) {
            let hint = match e.kind {
                ErrorKind::GlobTooLong { .. } | ErrorKind::GlobTooComplex { .. } => {
                    "write shorter globs: several short ones match what one long one does"
                }
                _ => "close every `[` with `]`, and write ranges low to high, like `[a-z]`",
            };
            out.push(Finding::error(Code::RuleInvalidGlob, place(), e.message()).with_hint(hint));
            return;
        }
        if pattern.starts_with('!') {
            out.push(Finding::warning(
                Code::RuleLiteralGlob,
                place(),
                format!("`{pattern}` is not a negation: `!` is an ordinary character in globs"),
            ));
        }
        if !from_sequence && pattern.contains(['{', '}']) {
            out.push(
                Finding::warning(Code::RuleLiteralGlob, place(), format!("The braces in `{pattern}` are literal characters in a comma-separated line"))
                    .with_hint(format!("write the alternatives out, or use a list: `{}: [\"{pattern}\"]`", field.key)),
            );
        }
        if pattern.contains("[^") || pattern.contains("[!") {
            out.push(Finding::warning(
                Code::RuleLiteralGlob,
                place(),
                format!(
                    "`{pattern}` has no negated class: `^` and `!` inside brackets are literal"
                ),
            ));
        }
    }
}

fn lint_terms(field: &Field, place: Place, out: &mut Vec<Finding>) {
    for term in field.value.items() {
        if is_quoted(&term) || term.starts_with(['"', '\'']) || term.ends_with(['"', '\'']) {
            out.push(
                Finding::error(
                    Code::RuleQuoted,
                    place.clone(),
                    format!(
                        "The term {term} keeps its quotes, so a prompt must contain the quotes too"
                    ),
                )
                .with_hint(format!("write it without quotes: `{}`", unquoted(&term))),
            );
        }
    }
}

/// The most globs the brace hint writes out; past it the hint says so
/// instead, since every brace group doubles them (22 groups are four
/// million globs).
const BRACE_HINT_GLOBS: usize = 64;

/// The characters of a field a finding quotes; the rest is `...`.
const QUOTED_CHARS: usize = 200;

/// A field's text as a finding quotes it: at most [`QUOTED_CHARS`].
fn quoted_excerpt(text: &str) -> String {
    if text.chars().count() <= QUOTED_CHARS {
        return text.to_string();
    }
    let start: String = text.chars().take(QUOTED_CHARS).collect();
    format!("{start}...")
}

/// When a comma-separated line splits a brace group like `src/{a,b}.clj`,
/// the globs the author meant, written out: `Some(None)` when they are
/// more than [`BRACE_HINT_GLOBS`] (or the line is longer than a glob may
/// be), so the hint stays short and is found at once.
fn split_brace_globs(text: &str) -> Option<Option<Vec<String>>> {
    let mut depth = 0i32;
    let mut comma_inside = false;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth > 0 => comma_inside = true,
            _ => {}
        }
    }
    if !comma_inside {
        return None;
    }
    if text.chars().count() > glob::MAX_GLOB_CHARS {
        return Some(None);
    }
    let mut items = Vec::new();
    let mut budget = BRACE_HINT_GLOBS;
    for item in split_outside_braces(text) {
        if !expand_braces(item.trim(), &mut budget, &mut items) {
            return Some(None);
        }
    }
    Some(Some(items.into_iter().filter(|s| !s.is_empty()).collect()))
}

fn split_outside_braces(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth <= 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Expands the first brace group, recursively, into `out`; unbalanced text
/// stays as is. Each glob written out spends one of `budget`; false, and
/// the expansion stops, when it runs out, so the work is bounded by the
/// budget times the line's length however many groups the line holds.
fn expand_braces(glob: &str, budget: &mut usize, out: &mut Vec<String>) -> bool {
    let Some(open) = glob.find('{') else {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        out.push(glob.to_string());
        return true;
    };
    let mut depth = 0;
    let close = glob[open..].char_indices().find_map(|(i, c)| {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(open + i)
    });
    let Some(close) = close else {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        out.push(glob.to_string());
        return true;
    };
    let (head, inner, tail) = (&glob[..open], &glob[open + 1..close], &glob[close + 1..]);
    split_outside_braces(inner)
        .into_iter()
        .all(|alt| expand_braces(&format!("{head}{alt}{tail}"), budget, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::finding::Severity;

    fn lint(text: &str) -> Vec<(Severity, usize, String, Option<String>)> {
        let rule = Rule::parse("r.mdc", "r.mdc", text);
        lint_rule(&rule)
            .into_iter()
            .map(|f| (f.severity, f.place.line.unwrap_or(0), f.message, f.hint))
            .collect()
    }

    fn errors(text: &str) -> Vec<(usize, String)> {
        lint(text)
            .into_iter()
            .filter(|f| f.0 == Severity::Error)
            .map(|f| (f.1, f.2))
            .collect()
    }

    #[test]
    fn unfenced_annotations_are_noted_once_with_their_line() {
        let found = lint("---\nalwaysApply: true\n---\n# Java\n\n@Data\n@Service\npublic class A {}\n\n```java\n@Fenced\n```\n");
        let notes: Vec<_> = found
            .iter()
            .filter(|f| f.2.contains("annotation or decorator"))
            .collect();
        assert_eq!(notes.len(), 1, "{found:?}");
        assert_eq!(notes[0].0, Severity::Warning);
        assert_eq!(notes[0].1, 6);
        assert!(
            notes[0].2.starts_with("`@Data` looks like code") && notes[0].2.contains("and 1 more")
        );
        let fenced = lint("---\nalwaysApply: true\n---\n```py\n@asynccontextmanager\n```\n");
        assert!(
            fenced.iter().all(|f| !f.2.contains("decorator")),
            "{fenced:?}"
        );
    }

    #[test]
    fn a_mention_only_rule_says_how_it_comes() {
        let workflow = Rule::parse_as(
            Format::Cline,
            "workflows/release.md",
            "/p/.clinerules/workflows/release.md",
            "# Release",
        );
        let found = lint_rule(&workflow);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].message.starts_with("The rule is mention-only"));
        assert_eq!(
            found[0].hint.as_deref(),
            Some("name it in a prompt as @workflows/release.md")
        );
    }

    #[test]
    fn a_clean_rule_has_no_findings() {
        assert!(lint(
            "---\ndescription: UI\nglobs: src/**, *.ts\nalwaysApply: false\n---\n# UI\n\nBody."
        )
        .is_empty());
        assert!(lint("---\npaths:\n  - \"src/**/*.{ts,tsx}\"\n---\nBody").is_empty());
    }

    #[test]
    fn quoted_always_apply() {
        let found = lint("---\nalwaysApply: \"true\"\n---\nBody");
        assert_eq!(found[0].0, Severity::Error);
        assert_eq!(found[0].1, 2);
        assert!(found[0].2.contains("reads as false"));
        assert_eq!(found[0].3.as_deref(), Some("write `alwaysApply: true`"));
        assert!(errors("---\nalwaysApply: yes\n---\nBody")[0]
            .1
            .contains("`yes`"));
    }

    #[test]
    fn unclosed_frontmatter() {
        let found = errors("---\nglobs: src/**\n# Body");
        assert_eq!(found, vec![(1, "The frontmatter has no closing `---` line, so none of its fields are read and its lines are delivered as text".to_string())]);
    }

    #[test]
    fn wrong_case_and_unknown_keys() {
        assert_eq!(
            errors("---\nalwaysapply: true\n---\nBody")[0].1,
            "`alwaysapply` is not `alwaysApply`: keys are case-sensitive, so this field is ignored"
        );
        let unknown = lint("---\nglobs: a\nglob: b\ncustom: kept\n---\nBody");
        assert!(unknown.iter().any(|f| f.0 == Severity::Warning
            && f.2.contains("`glob`")
            && f.3.as_deref() == Some("did you mean `globs:`?")));
        assert!(unknown
            .iter()
            .any(|f| f.0 == Severity::Warning && f.2.contains("`custom`") && f.3.is_none()));
    }

    #[test]
    fn a_brace_glob_split_by_the_comma() {
        let found = lint("---\nglobs: src/{a,b}.clj, lib/**\n---\nBody");
        assert_eq!(found[0].0, Severity::Error);
        assert_eq!(
            found[0].3.as_deref(),
            Some("write each glob out: `globs: src/a.clj, src/b.clj, lib/**`")
        );
        let (mut budget, mut out) = (BRACE_HINT_GLOBS, Vec::new());
        assert!(expand_braces("a/{b,c{d,e}}/f", &mut budget, &mut out));
        assert_eq!(out, vec!["a/b/f", "a/cd/f", "a/ce/f"]);
        assert_eq!(budget, BRACE_HINT_GLOBS - 3);
    }

    #[test]
    fn a_brace_hint_of_many_groups_is_capped_and_found_at_once() {
        // Twenty-two groups stand for four million globs: the hint wrote
        // every one out (13 s, 622 MB, 130 MB printed). Now it stops at
        // the cap and says so, in a short finding.
        let line = "{a,b}".repeat(22);
        let started = std::time::Instant::now();
        let found = lint(&format!("---\nglobs: src/{line}.ts, lib/**\n---\nBody"));
        assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
        assert_eq!(found[0].0, Severity::Error);
        let hint = found[0].3.as_deref().unwrap();
        assert!(hint.contains("more than 64 globs"), "{hint}");
        assert!(hint.len() < 300, "{hint}");
        assert!(found[0].2.len() < 400, "{}", found[0].2);
        // Within the cap, the globs are still written out.
        let few = lint("---\nglobs: src/{a,b}/{c,d}.ts\n---\nBody");
        assert_eq!(
            few[0].3.as_deref(),
            Some("write each glob out: `globs: src/a/c.ts, src/a/d.ts, src/b/c.ts, src/b/d.ts`")
        );
    }

    #[test]
    fn globs_over_the_limit_are_errors_naming_the_line() {
        // 300,000 `*a` passed `check` and failed at every event.
        let long = format!("src/{}", "*a".repeat(300_000));
        let found = errors(&format!("---\ndescription: x\nglobs: {long}\n---\nBody"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 3);
        assert!(
            found[0].1.starts_with(
                "Rule glob is 600004 characters long, over the limit of 4096: src/*a*a"
            ),
            "{}",
            found[0].1
        );
        assert!(found[0].1.len() < 200);
        // A branch glob too large for the regex engine (it panicked every
        // event at load) is reported too.
        let branch = format!("feat/{}", "*a".repeat(100_000));
        let found = errors(&format!("---\nbranch: {branch}\nglobs: src/**\n---\nBody"));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].1.contains("over the limit of 4096"),
            "{}",
            found[0].1
        );
    }

    #[test]
    fn block_lists_and_ignored_lines() {
        let under_always = errors("---\nalwaysApply:\n  - true\n---\nBody");
        assert!(
            under_always.iter().any(|e| e.1.contains("takes one value")),
            "{under_always:?}"
        );
        let globs_list = lint("---\nglobs:\n  - a/**\n  - b/**\n---\nBody");
        assert_eq!(globs_list.len(), 1);
        assert_eq!(
            globs_list[0].3.as_deref(),
            Some("for Cursor, write `globs: a/**, b/**`")
        );
        let spaced = errors("---\nglobs : src/**\n---\nBody");
        assert_eq!(
            spaced,
            vec![(
                2,
                "`globs :` is not read: no space is allowed before the colon".to_string()
            )]
        );
        let stray = lint("---\nalwaysApply: true\n  - stray\n  indented: x\n---\nBody");
        assert!(stray.iter().any(|f| f.1 == 3 && f.2.contains("list item")));
        assert!(stray.iter().any(|f| f.1 == 4 && f.2.contains("indented")));
    }

    #[test]
    fn glob_mistakes() {
        assert_eq!(
            errors("---\nglobs: src/[a\n---\nBody"),
            vec![(2, "Invalid rule glob: src/[a".to_string())]
        );
        assert!(errors("---\nglobs: \"src/**\"\n---\nBody")[0]
            .1
            .contains("keeps its quotes"));
        let negation = lint("---\nglobs: !src/**\n---\nBody");
        assert!(negation[0].2.contains("not a negation"));
    }

    #[test]
    fn a_rule_with_no_trigger_is_told_how_it_reaches_the_model() {
        // Exactly what Cursor's editor writes for an Agent Requested rule.
        let requested =
            lint("---\ndescription: Steps before a release\nglobs:\nalwaysApply: false\n---\nBody");
        assert_eq!(requested.len(), 1, "{requested:?}");
        assert_eq!(requested[0].0, Severity::Warning);
        assert_eq!(requested[0].1, 1);
        assert_eq!(requested[0].2, "The rule has no trigger of its own: the model is offered it by its description in the index of requestable rules and gets it by reading its file; a prompt naming @r brings it too");
        // A Manual rule: no description, so only a mention.
        let manual = lint("---\nglobs:\nalwaysApply: false\n---\nBody");
        assert!(
            manual
                .iter()
                .any(|f| f.2.ends_with("only a prompt naming @r brings it")),
            "{manual:?}"
        );
        // A rule that fires says nothing of either.
        assert!(lint("---\ndescription: d\nglobs: src/**\n---\nBody").is_empty());
    }

    #[test]
    fn triggers_that_never_fire() {
        assert!(lint("---\npromptRequires: ui\n---\nBody")
            .iter()
            .any(|f| f.2.contains("promptRequires without promptAnyOf")));
        assert!(lint("# Plain").iter().any(|f| f.2
            == "The rule never fires on its own: it has no alwaysApply, globs, promptAnyOf or description; only a prompt naming @r brings it"));
        assert!(lint("").iter().any(|f| f.2 == "The rule file is empty"));
        assert!(lint("---\nglobs: a\nglobs: b\n---\nx")
            .iter()
            .any(|f| f.1 == 2 && f.2.contains("appears again on line 3")));
    }

    #[test]
    fn condition_keys_are_validated() {
        let found = lint("---\nproject: [rust, cobol]\nmatch: some\nci: maybe\nos: [plan9]\nfileContains: [\"(open\"]\nmodel: [gpt-5]\n---\nBody");
        let errors: Vec<(usize, &str)> = found
            .iter()
            .filter(|f| f.0 == Severity::Error)
            .map(|f| (f.1, f.2.as_str()))
            .collect();
        assert!(
            errors.contains(&(2, "Unknown project tag `cobol`, so it never holds")),
            "{errors:?}"
        );
        assert!(
            errors.contains(&(
                3,
                "`match: some` is neither `any` nor `all`; it reads as any"
            )),
            "{errors:?}"
        );
        assert!(
            errors.contains(&(
                4,
                "`ci: maybe` is neither true nor false, so the condition is not read"
            )),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.0 == 6 && e.1.starts_with("Invalid fileContains pattern: (open (")),
            "{errors:?}"
        );
        assert!(found.iter().any(|f| f.0 == Severity::Warning
            && f.1 == 5
            && f.2 == "Unknown operating system `plan9`"));
        // The condition keys are known keys, and a rule with one fires.
        assert!(
            !found
                .iter()
                .any(|f| f.2.contains("Unknown key") || f.2.contains("never fires")),
            "{found:?}"
        );
        assert!(
            lint("---\nkeywords: [deploy]\nos: macos\nmatch: all\nci: true\n---\nBody").is_empty()
        );
    }

    #[test]
    fn other_formats_know_their_own_keys() {
        let windsurf = Rule::parse_as(
            Format::Windsurf,
            "w.md",
            "w.md",
            "---\ntrigger: model_decision\ndescription: d\n---\nBody",
        );
        // model_decision with a description is requestable: the index.
        let found = lint_rule(&windsurf);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].message.contains("index of requestable rules"));
        let copilot = Rule::parse_as(
            Format::Copilot,
            "c.instructions.md",
            "c",
            "---\napplyTo: \"**/*.py\"\nexcludeAgent: code-review\n---\nBody",
        );
        assert!(lint_rule(&copilot).is_empty());
        // A quoted Claude `paths:` is YAML, not Cursor's raw dialect: no finding.
        let claude = Rule::parse_as(
            Format::Claude,
            "a.md",
            "a",
            "---\npaths: \"src/**\"\n---\nBody",
        );
        assert!(lint_rule(&claude).is_empty(), "{:?}", lint_rule(&claude));
    }
}

#[cfg(test)]
mod span_tests {
    use super::*;

    fn spans(text: &str) -> Vec<(usize, Option<Span>)> {
        let rule = Rule::parse("r.mdc", "r.mdc", text);
        lint_rule(&rule)
            .into_iter()
            .map(|f| (f.place.line.unwrap_or(0), f.span))
            .collect()
    }

    #[test]
    fn a_glob_finding_points_at_the_glob_in_its_line() {
        // `globs:  a.ts, "b.ts"`: the quoted glob starts at column 15.
        let found = spans("---\nglobs:  a.ts, \"b.ts\"\n---\nBody\n");
        assert!(
            found.contains(&(
                2,
                Some(Span {
                    column: 15,
                    end_column: 21
                })
            )),
            "{found:?}"
        );
    }

    #[test]
    fn a_sequence_item_finding_points_at_the_item_on_its_line() {
        let found = spans("---\nglobs:\n  - ok/**\n  -  src/[\n---\nBody\n");
        assert!(found.contains(&(4, Some(Span::at(6, 5)))), "{found:?}");
        let flow = spans("---\npaths: [\"ok/**\", \"src/[\"]\n---\nBody\n");
        assert!(flow.contains(&(2, Some(Span::at(19, 5)))), "{flow:?}");
    }

    #[test]
    fn a_key_finding_points_at_the_key() {
        let found = spans("---\nalwaysapply: true\n---\nBody\n");
        assert!(
            found.contains(&(
                2,
                Some(Span {
                    column: 1,
                    end_column: 12
                })
            )),
            "{found:?}"
        );
    }

    #[test]
    fn a_quoted_always_apply_points_at_its_value() {
        let found = spans("---\nalwaysApply: \"true\"\n---\nBody\n");
        assert_eq!(
            found,
            vec![(
                2,
                Some(Span {
                    column: 14,
                    end_column: 20
                })
            )]
        );
    }
}
