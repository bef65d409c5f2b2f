//! `meta.json` beside a review's artifacts: the code revision, the mode,
//! the paths, and the rules revision, for the reviewer to state what was
//! compared with what.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

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
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    instant(since.as_millis() as i64)
}

/// `2026-01-02T03:04:05.678Z` for milliseconds since the epoch.
fn instant(ms: i64) -> String {
    let (days, ms_of_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    // Days to a civil date (Howard Hinnant's algorithm, proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, milli) = (
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1000 % 60,
        ms_of_day % 1000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
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
