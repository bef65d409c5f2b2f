//! Evaluating every condition of 1,000 rules on one event: a prompt with
//! facts, and an edit whose 1 MB file is tested by `fileContains` patterns.
//! Run with `scripts/bench`; prints medians.

use std::hint::black_box;

#[path = "support/median.rs"]
mod support;
use support::median;

use rule_fairy_engine::Facts;
use rule_fairy_engine::Rule;
use rule_fairy_engine::RuleIndex;

fn rule_text(i: usize) -> String {
    let conditions = match i % 5 {
        0 => format!("os: [linux]\nproject: [rust, node]\nbranch: [\"feature/{i}-*\"]"),
        1 => format!("model: [model-{i}]\nagent: [build]\nmatch: all"),
        2 => format!("fileContains: [\"TODO\\\\({i}\\\\)\", \"fn name_{i}\\\\b\"]"),
        3 => format!("tools: [tool_{i}]\ncommand: [/cmd{i}]\nci: false"),
        _ => format!("keywords: [topic{i}, \"area {i}\"]"),
    };
    format!("---\nglobs: src/mod{i}/**/*.rs, **/*_{i}.rs\n{conditions}\n---\n# Rule {i}\n")
}

fn main() {
    let rules: Vec<Rule> = (0..1_000)
        .map(|i| Rule::parse(&format!("r{i:04}.mdc"), "r", &rule_text(i)))
        .collect();
    let index = RuleIndex::build(&rules);
    let facts = Facts {
        os: Some("linux".into()),
        project: Some(vec!["rust".into()]),
        branch: Some("feature/500-x".into()),
        model: Some("model-501".into()),
        agent: Some("build".into()),
        tools: Some(vec!["tool_503".into()]),
        ci: Some(false),
        command: None,
    };
    let prompt = "/cmd3 please look at topic4 and area 9 before the release";
    let fired = index.match_prompt_with(prompt, &facts).len();
    let prompt_time = median(31, 100, || {
        black_box(index.match_prompt_with(black_box(prompt), &facts));
    });
    let paths = ["src/mod502/deep/file.rs"];
    for lines in [1_300, 70_000] {
        let mut content = "fn helper() {}\n".repeat(lines);
        content.push_str("// TODO(502)\n");
        let kb = content.len() / 1024;
        let contents = vec![Some(content)];
        let matched = index
            .match_paths_with(&paths, &facts, Some(&contents))
            .rules
            .len();
        let path_time = median(31, 10, || {
            black_box(index.match_paths_with(&paths, &facts, Some(&contents)));
        });
        println!(
            "1,000 rules with conditions: edit of a {kb} KB file with fileContains {:.1} µs ({matched} fired) (median)",
            path_time.as_secs_f64() * 1e6
        );
    }
    println!(
        "1,000 rules with conditions: prompt with facts {:.1} µs ({fired} fired) (median)",
        prompt_time.as_secs_f64() * 1e6
    );
}
