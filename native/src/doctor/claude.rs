//! Claude Code's part of doctor (placeholder until the record's shape is read).
use super::report::Section;
pub(crate) fn section(_project: Option<&str>) -> Section {
    Section::new("claudeCode", "Claude Code")
}
