//! The gate's part of `rule-fairy check`: each rule with its language,
//! severity and test coverage, or the problem that stops the gate.

use std::path::Path;

use rule_fairy_engine::Config;
use rule_fairy_gate::Gate;
use serde_json::{json, Value};

use crate::commands::check::GateListing as Listing;
use crate::stdfs::StdFs;

pub(crate) fn for_check(root: &str) -> Listing {
    // A `:gate` the configuration rejects is already among the engine's
    // findings; saying it twice would only add noise.
    if Config::load(&StdFs, root)
        .and_then(|c| c.gate_dirs())
        .is_err()
    {
        return Listing {
            error: true,
            ..Listing::default()
        };
    }
    let loaded = Gate::load(Path::new(root)).and_then(|gate| {
        let coverage = gate.coverage()?;
        Ok(coverage)
    });
    let coverage = match loaded {
        Ok(coverage) => coverage,
        Err(e) => {
            return Listing {
                text: format!("gate: error: {e}\n"),
                json: Some(json!({"error": e.to_string()})),
                error: true,
            }
        }
    };
    if coverage.is_empty() {
        return Listing::default();
    }
    let tested = coverage
        .iter()
        .filter(|c| c.valid_cases + c.invalid_cases > 0)
        .count();
    let mut text = format!(
        "Gate: {} ast-grep rule{}, {tested} with tests:\n",
        coverage.len(),
        if coverage.len() == 1 { "" } else { "s" }
    );
    let width = coverage.iter().map(|c| c.id.len()).max().unwrap_or(0);
    for rule in &coverage {
        let tests = if rule.valid_cases + rule.invalid_cases == 0 {
            "no tests".to_string()
        } else {
            format!("{} valid, {} invalid", rule.valid_cases, rule.invalid_cases)
        };
        text.push_str(&format!(
            "  {:width$}  {:10}  {:7}  {tests}  ({}:{})\n",
            rule.id,
            rule.language,
            rule.severity.as_str(),
            rule.file,
            rule.line
        ));
    }
    let rules: Vec<Value> = coverage
        .iter()
        .map(|c| {
            json!({
                "id": c.id, "language": c.language, "severity": c.severity,
                "file": c.file, "line": c.line,
                "validCases": c.valid_cases, "invalidCases": c.invalid_cases,
            })
        })
        .collect();
    Listing {
        text,
        json: Some(json!({"rules": rules})),
        error: false,
    }
}
