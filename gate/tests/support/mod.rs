//! The gate's test fixtures: the workspace's temporary projects, and the
//! rules the tests share.

#![allow(dead_code)]

use std::path::PathBuf;

pub(crate) use rule_fairy_test_support::{Project, NO_EVAL};

pub(crate) fn paths(list: &[&str]) -> Vec<PathBuf> {
    list.iter().map(PathBuf::from).collect()
}

pub(crate) const NO_CONSOLE_WARNING: &str = "id: no-console
language: TypeScript
severity: warning
message: Use the logger.
rule:
  pattern: console.log($$$)
";
