//! Index build and matching for generated rule sets (2 globs and 3
//! keywords per rule). Run with `scripts/bench`; prints medians.

use std::hint::black_box;
use std::time::Duration;

#[path = "support/median.rs"]
mod support;
use support::median;

use rule_fairy_engine::Rule;
use rule_fairy_engine::RuleIndex;

fn rule_text(i: usize) -> String {
    format!(
        "---\ndescription: generated rule {i}\nglobs: src/mod{i}/**/*.ts, **/*_{i}.test.ts\npromptAnyOf: topic{i}, feature{i}x, area {i}\n---\n# Rule {i}\n\nBody of rule {i}.\n"
    )
}

fn rules(count: usize) -> Vec<(String, String)> {
    let mut named: Vec<(String, String)> = (0..count)
        .map(|i| (format!("gen/rule{i:05}.mdc"), rule_text(i)))
        .collect();
    named.sort();
    named
}

fn build(texts: &[(String, String)]) -> RuleIndex {
    let parsed: Vec<Rule> = texts
        .iter()
        .map(|(name, text)| Rule::parse(name, name, text))
        .collect();
    RuleIndex::build(&parsed)
}

fn micros(d: Duration) -> String {
    format!("{:.2} µs", d.as_secs_f64() * 1e6)
}

fn main() {
    let prompt = "Please refactor the checkout flow so that topic7 handling moves into its own module, \
                  keep feature42x behind its flag, and make sure the area 3 tests still pass afterwards.";
    println!(
        "{:>7}  {:>14}  {:>14}  {:>14}  {:>16}",
        "rules", "index build", "prompt match", "path match", "prompt + path"
    );
    for count in [10, 100, 1_000, 10_000] {
        let texts = rules(count);
        let path = format!("src/mod{}/deep/nested/file.ts", count / 2);
        let build_runs = if count >= 10_000 { 5 } else { 21 };
        let built = median(build_runs, 1, || {
            black_box(build(&texts));
        });
        let index = build(&texts);
        let inner = if count >= 10_000 { 20 } else { 200 };
        let prompt_time = median(21, inner, || {
            black_box(index.match_prompt(black_box(prompt)));
        });
        let path_time = median(21, inner, || {
            black_box(index.match_paths(&[black_box(path.as_str())]));
        });
        let both = median(21, inner, || {
            black_box(index.match_prompt(black_box(prompt)));
            black_box(index.match_paths(&[black_box(path.as_str())]));
        });
        println!(
            "{count:>7}  {:>14}  {:>14}  {:>14}  {:>16}",
            format!("{:.2} ms", built.as_secs_f64() * 1e3),
            micros(prompt_time),
            micros(path_time),
            micros(both)
        );
    }
}
