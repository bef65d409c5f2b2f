//! Path strings. The engine never touches the file system, so paths are
//! plain `/`-separated strings; these helpers do the lexical work on them.

/// Normalises a path or glob for matching (behaviour §2.1): `\` becomes `/`,
/// then one leading `./` and then one leading `/` are removed. Nothing else
/// changes.
///
/// ```
/// use rule_fairy_engine::paths::normalize_for_match;
/// assert_eq!(normalize_for_match("./src/a.clj"), "src/a.clj");
/// assert_eq!(normalize_for_match("/src/a.clj"), "src/a.clj");
/// assert_eq!(normalize_for_match("src\\a.clj"), "src/a.clj");
/// ```
pub fn normalize_for_match(path: &str) -> String {
    let slashed = path.replace('\\', "/");
    let without_dot = slashed.strip_prefix("./").unwrap_or(&slashed);
    without_dot
        .strip_prefix('/')
        .unwrap_or(without_dot)
        .to_string()
}

/// Whether a `/`-separated path starts at the root.
pub fn is_absolute(path: &str) -> bool {
    path.starts_with('/')
}

/// Joins `rel` onto `base`; an absolute `rel` stays as written.
pub fn join(base: &str, rel: &str) -> String {
    if is_absolute(rel) || base.is_empty() {
        rel.to_string()
    } else if base.ends_with('/') {
        format!("{base}{rel}")
    } else {
        format!("{base}/{rel}")
    }
}

/// Collapses `.` and `..` segments and repeated slashes without looking at
/// the file system. A relative path that climbs above its start keeps its
/// leading `..` segments; an empty result is `.`.
///
/// ```
/// use rule_fairy_engine::paths::normalize_lexically;
/// assert_eq!(normalize_lexically("./a/./b/../c"), "a/c");
/// assert_eq!(normalize_lexically("/r/x/../../.."), "/");
/// assert_eq!(normalize_lexically("../a"), "../a");
/// assert_eq!(normalize_lexically("."), ".");
/// ```
pub fn normalize_lexically(path: &str) -> String {
    let absolute = is_absolute(path);
    let mut parts: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if absolute => {}
                _ => parts.push(".."),
            },
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    match (absolute, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

/// The parent directory of a normalised path, if it has one.
pub fn parent(path: &str) -> Option<&str> {
    let trimmed = path.trim_end_matches('/');
    match trimmed.rfind('/') {
        Some(0) if trimmed.len() > 1 => Some("/"),
        Some(0) => None,
        Some(index) => Some(&trimmed[..index]),
        None if trimmed.is_empty() || trimmed == "." => None,
        None => Some("."),
    }
}

/// The last segment of a path.
pub fn file_name(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// `path` relative to `base`, when `path` is `base` or below it (both
/// normalised the same way). `base` itself gives `""`.
pub fn strip_base<'a>(path: &'a str, base: &str) -> Option<&'a str> {
    if base == "." && !is_absolute(path) {
        return Some(if path == "." { "" } else { path });
    }
    if base == "/" {
        return path.strip_prefix('/');
    }
    let rest = path.strip_prefix(base)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}

/// A relative path from directory `from` to `to` (both absolute and
/// normalised), with `..` segments where needed.
pub fn relative_path(from: &str, to: &str) -> String {
    let from_parts: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
    let to_parts: Vec<&str> = to.split('/').filter(|s| !s.is_empty()).collect();
    let common = from_parts
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<&str> = vec![".."; from_parts.len() - common];
    parts.extend(&to_parts[common..]);
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_normalisation_changes_only_the_prefix_and_slashes() {
        assert_eq!(normalize_for_match("././a"), "./a");
        assert_eq!(normalize_for_match("//a"), "/a");
        assert_eq!(normalize_for_match("a//b/../c/"), "a//b/../c/");
        assert_eq!(normalize_for_match("./*.clj"), "*.clj");
    }

    #[test]
    fn parents_and_names() {
        assert_eq!(parent("/a/b"), Some("/a"));
        assert_eq!(parent("/a"), Some("/"));
        assert_eq!(parent("/"), None);
        assert_eq!(parent("a"), Some("."));
        assert_eq!(file_name("/a/b.mdc"), "b.mdc");
        assert_eq!(file_name("b.mdc"), "b.mdc");
    }

    #[test]
    fn bases_and_relative_paths() {
        assert_eq!(strip_base("/r/a/b", "/r"), Some("a/b"));
        assert_eq!(strip_base("/r", "/r"), Some(""));
        assert_eq!(strip_base("/rx/a", "/r"), None);
        assert_eq!(strip_base("/a", "/"), Some("a"));
        assert_eq!(relative_path("/r/a", "/r/b/c"), "../b/c");
        assert_eq!(relative_path("/r", "/r"), ".");
        assert_eq!(join("/r", "a"), "/r/a");
        assert_eq!(join("/r", "/abs"), "/abs");
        assert_eq!(join(".", "a"), "./a");
    }
}
