//! SARIF 2.1.0: one run of the tool `rule-fairy`, its rules, and each
//! finding with its level, message and region, the file relative to
//! `%SRCROOT%` (the project root) as code scanning uploads expect.

use serde_json::{json, Value};

use super::{Diagnostic, Level, RuleInfo};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The whole log, one JSON document. `root` is the project root's
/// absolute path, named as `%SRCROOT%`'s URI.
pub(crate) fn render(diagnostics: &[Diagnostic], rules: &[RuleInfo], root: &str) -> String {
    let mut rules: Vec<RuleInfo> = rules.to_vec();
    for d in diagnostics {
        if !rules.iter().any(|r| r.id == d.rule) {
            rules.push(RuleInfo {
                id: d.rule.clone(),
                description: d.rule.clone(),
            });
        }
    }
    let results: Vec<Value> = diagnostics
        .iter()
        .map(|d| result(d, rules.iter().position(|r| r.id == d.rule)))
        .collect();
    let rules: Vec<Value> = rules
        .iter()
        .map(|r| json!({"id": r.id, "shortDescription": {"text": r.description}}))
        .collect();
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rule-fairy",
                "version": rule_fairy_engine::version::VERSION,
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root_uri(root)}},
            "results": results,
        }],
    });
    serde_json::to_string(&log).expect("SARIF serialises") + "\n"
}

fn result(d: &Diagnostic, rule_index: Option<usize>) -> Value {
    let level = match d.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    };
    let mut text = d.message.clone();
    if let Some(note) = &d.note {
        text.push_str("\n\n");
        text.push_str(note.text());
    }
    let mut location =
        json!({"artifactLocation": {"uri": encode(&d.file, false), "uriBaseId": "%SRCROOT%"}});
    if let Some(line) = d.line {
        let mut region = json!({"startLine": line});
        if let Some(span) = d.span {
            region["startColumn"] = json!(span.column);
            region["endLine"] = json!(span.end_line);
            region["endColumn"] = json!(span.end_column);
        }
        location["region"] = region;
    }
    let mut result = json!({
        "ruleId": d.rule,
        "level": level,
        "message": {"text": text},
        "locations": [{"physicalLocation": location}],
    });
    if let Some(index) = rule_index {
        result["ruleIndex"] = json!(index);
    }
    result
}

/// `file:///<root>/`, the root's path percent-encoded; a Windows path
/// gets its drive after the third slash.
fn root_uri(root: &str) -> String {
    let path = root.replace('\\', "/");
    let path = path.trim_end_matches('/');
    let lead = if path.starts_with('/') { "" } else { "/" };
    format!("file://{lead}{}/", encode(path, true))
}

/// A path as a URI reference: every byte but the unreserved ones, `/`
/// and, with `drive`, a drive's `:` percent-encoded (RFC 3986); a
/// relative path's `:` would read as a scheme.
fn encode(path: &str, drive: bool) -> String {
    let mut out = String::with_capacity(path.len());
    for (i, byte) in path.bytes().enumerate() {
        let keep = byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/')
            || (drive && byte == b':' && i == 1);
        if keep {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_percent_encoded_uris() {
        assert_eq!(encode("src/a b#.ts", false), "src/a%20b%23.ts");
        assert_eq!(encode("a:b", false), "a%3Ab");
        assert_eq!(root_uri("/p/pro ject/"), "file:///p/pro%20ject/");
        assert_eq!(root_uri("C:\\src\\p"), "file:///C:/src/p/");
    }
}
