//! `meta.json` beside a review's artifacts: the code revision, the mode,
//! the paths, and the rules revision, for the reviewer to state what was
//! compared with what.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::revision::RulesRevision;

/// A diff review's metadata. Fields of one mode only are absent in the
/// others.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct DiffMeta {
    pub mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_number: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_url: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_title: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_state: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pr_draft: Option<Value>,
    pub head_ref_oid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_ref_name: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_ref_name: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_ref: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_ref_oid: Option<String>,
    pub repo_slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checked_out: Option<bool>,
    pub working_tree_included: bool,
    pub changed_paths: Vec<String>,
    pub rules: RulesRevision,
    pub generated_at: String,
}

/// A plan review's metadata.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct PlanMeta {
    pub mode: String,
    pub plan_file: String,
    pub path_source: String,
    pub changed_paths: Vec<String>,
    pub added_paths: Vec<String>,
    pub dropped_paths: Vec<String>,
    pub expanded_directories: BTreeMap<String, usize>,
    pub rules: RulesRevision,
    pub generated_at: String,
}

/// Pretty JSON with a final newline.
pub(super) fn to_json<T: Serialize>(meta: &T) -> Vec<u8> {
    let mut json = serde_json::to_vec_pretty(meta).expect("metadata serialises");
    json.push(b'\n');
    json
}

/// A diff review's `meta.json`, from the bytes read; `file` names it.
pub(super) fn parse_diff_meta(file: &Path, bytes: &[u8]) -> Result<DiffMeta, String> {
    serde_json::from_slice(bytes).map_err(|e| {
        format!(
            "{} is not the metadata `review fetch` writes ({e}); run `review fetch` again",
            file.display()
        )
    })
}

/// The current time as an ISO-8601 instant in UTC, to the millisecond.
pub(super) fn now() -> String {
    instant(crate::utc::now_ms())
}

/// `2026-01-02T03:04:05.678Z` for milliseconds since the epoch.
fn instant(ms: i64) -> String {
    let t = crate::utc::utc(ms);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        t.year, t.month, t.day, t.hour, t.minute, t.second, t.milli
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants() {
        assert_eq!(instant(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(instant(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(instant(1_798_761_599_999), "2026-12-31T23:59:59.999Z");
        assert!(now().ends_with('Z') && now().len() == 24);
    }

    #[test]
    fn mode_fields_are_absent_in_other_modes_and_nulls_stay() {
        let meta = DiffMeta {
            mode: "local".into(),
            pr_number: None,
            pr_url: None,
            pr_title: None,
            pr_state: None,
            pr_draft: None,
            head_ref_oid: None,
            head_ref_name: None,
            base_ref_name: None,
            base_ref: None,
            base_ref_oid: None,
            repo_slug: None,
            checked_out: None,
            working_tree_included: true,
            changed_paths: vec!["a".into()],
            rules: RulesRevision {
                dirs: vec![".cursor/rules".into()],
                head_ref_oid: None,
                clean: None,
            },
            generated_at: now(),
        };
        let json: Value = serde_json::from_slice(&to_json(&meta)).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert!(!keys.contains(&"pr_number") && !keys.contains(&"base_ref"));
        assert_eq!(json["head_ref_oid"], Value::Null);
        assert_eq!(json["rules"]["clean"], Value::Null);
        let back: DiffMeta = serde_json::from_value(json).unwrap();
        assert_eq!(back, meta);
    }
}
