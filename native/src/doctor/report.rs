//! What doctor found: checks with a status, a detail and the fix, grouped
//! by section, and the two ways it is printed (a line per check, or one
//! JSON object).

use serde::Serialize;
use serde_json::{json, Map, Value};

/// How a check came out. Ordered so the worst is the greatest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Status {
    Ok,
    /// Works, but something is worth knowing (a host not set up, versions
    /// that differ).
    Warning,
    /// Something does not work as it should; doctor exits 1.
    Broken,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warning => "warning",
            Status::Broken => "broken",
        }
    }
}

/// One check.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Check {
    /// camelCase, stable for scripts.
    pub(crate) id: &'static str,
    /// For people, in the text output.
    #[serde(skip)]
    pub(crate) label: &'static str,
    pub(crate) status: Status,
    pub(crate) detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) fix: Option<String>,
    /// Figures a script may want beside the words (counts, paths).
    #[serde(flatten)]
    pub(crate) data: Map<String, Value>,
}

impl Check {
    pub(crate) fn new(
        id: &'static str,
        label: &'static str,
        status: Status,
        detail: impl Into<String>,
    ) -> Check {
        Check {
            id,
            label,
            status,
            detail: detail.into(),
            fix: None,
            data: Map::new(),
        }
    }

    pub(crate) fn ok(id: &'static str, label: &'static str, detail: impl Into<String>) -> Check {
        Check::new(id, label, Status::Ok, detail)
    }

    pub(crate) fn warning(
        id: &'static str,
        label: &'static str,
        detail: impl Into<String>,
    ) -> Check {
        Check::new(id, label, Status::Warning, detail)
    }

    pub(crate) fn broken(
        id: &'static str,
        label: &'static str,
        detail: impl Into<String>,
    ) -> Check {
        Check::new(id, label, Status::Broken, detail)
    }

    pub(crate) fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }

    pub(crate) fn with(mut self, key: &str, value: impl Into<Value>) -> Check {
        self.data.insert(key.to_string(), value.into());
        self
    }
}

/// The checks of one area: the program, a host, the project.
#[derive(Debug, Clone)]
pub(crate) struct Section {
    pub(crate) id: &'static str,
    pub(crate) title: String,
    pub(crate) checks: Vec<Check>,
}

impl Section {
    pub(crate) fn new(id: &'static str, title: impl Into<String>) -> Section {
        Section {
            id,
            title: title.into(),
            checks: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, check: Check) {
        self.checks.push(check);
    }

    fn status(&self) -> Status {
        worst(self.checks.iter().map(|c| c.status))
    }
}

fn worst(statuses: impl Iterator<Item = Status>) -> Status {
    statuses.max().unwrap_or(Status::Ok)
}

/// Every section, in the order they are printed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Report {
    pub(crate) sections: Vec<Section>,
}

impl Report {
    pub(crate) fn status(&self) -> Status {
        worst(self.sections.iter().map(Section::status))
    }

    fn count(&self, status: Status) -> usize {
        self.sections
            .iter()
            .flat_map(|s| &s.checks)
            .filter(|c| c.status == status)
            .count()
    }

    pub(crate) fn json(&self) -> Value {
        let sections: Vec<Value> = self
            .sections
            .iter()
            .map(
                |s| json!({"id": s.id, "title": s.title, "status": s.status(), "checks": s.checks}),
            )
            .collect();
        json!({
            "status": self.status(),
            "broken": self.count(Status::Broken),
            "warnings": self.count(Status::Warning),
            "sections": sections,
        })
    }

    /// A heading per section, a line per check (its fix on the same line),
    /// and a closing count.
    pub(crate) fn text(&self) -> String {
        let mut out = String::new();
        for section in &self.sections {
            out.push_str(&format!("{}\n", section.title));
            for check in &section.checks {
                out.push_str(&format!(
                    "  {:<8}{}: {}",
                    check.status.word(),
                    check.label,
                    check.detail
                ));
                if let Some(fix) = &check.fix {
                    out.push_str(&format!(" (fix: {fix})"));
                }
                out.push('\n');
            }
        }
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let broken = self.count(Status::Broken);
        let warnings = self.count(Status::Warning);
        out.push_str(&if broken + warnings == 0 {
            "Everything is in order.\n".to_string()
        } else {
            format!("{} broken, {}.\n", broken, plural(warnings, "warning"))
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> Report {
        let mut program = Section::new("program", "Rule Fairy");
        program.push(Check::ok("version", "version", "rule-fairy 1.0.0"));
        let mut host = Section::new("codex", "Codex");
        host.push(
            Check::broken("trust", "hook trust", "2 hooks changed since trusted")
                .fix("rule-fairy codex trust")
                .with("hooks", 2),
        );
        host.push(Check::warning("plugin", "plugin", "not installed"));
        Report {
            sections: vec![program, host],
        }
    }

    #[test]
    fn the_worst_check_decides() {
        let mut report = report();
        assert_eq!(report.status(), Status::Broken);
        report.sections[1].checks.remove(0);
        assert_eq!(report.status(), Status::Warning);
        report.sections.remove(1);
        assert_eq!(report.status(), Status::Ok);
        assert_eq!(Report::default().status(), Status::Ok);
    }

    #[test]
    fn json_has_camel_case_keys_and_a_fix_only_where_there_is_one() {
        let value = report().json();
        assert_eq!(value["status"], "broken");
        assert_eq!(value["broken"], 1);
        assert_eq!(value["warnings"], 1);
        let trust = &value["sections"][1]["checks"][0];
        assert_eq!(trust["id"], "trust");
        assert_eq!(trust["fix"], "rule-fairy codex trust");
        assert_eq!(trust["hooks"], 2);
        assert!(trust.get("label").is_none());
        assert!(value["sections"][1]["checks"][1].get("fix").is_none());
        assert_eq!(value["sections"][1]["status"], "broken");
    }

    #[test]
    fn text_is_a_line_per_check_under_its_section() {
        assert_eq!(
            report().text(),
            "Rule Fairy\n  ok      version: rule-fairy 1.0.0\nCodex\n  broken  hook trust: 2 hooks changed since trusted (fix: rule-fairy codex trust)\n  warning plugin: not installed\n1 broken, 1 warning.\n"
        );
    }
}
