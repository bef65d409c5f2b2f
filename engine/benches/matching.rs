//! Index build and matching for generated rule sets (2 globs and 3
//! keywords per rule), up to 30,000 rules. Parsing is timed apart from
//! the build: a cache of parsed rules skips the one, never the other.
//! The globs compile at the first path event, so that event is timed
//! with the build too. Selection should follow the hits, so the prompt
//! match over 30,000 rules is printed as a ratio to the one over 10,000.
//! Run with `scripts/bench`; prints medians.

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

fn parse(texts: &[(String, String)]) -> Vec<Rule> {
    texts
        .iter()
        .map(|(name, text)| Rule::parse(name, name, text))
        .collect()
}

fn micros(d: Duration) -> String {
    format!("{:.2} µs", d.as_secs_f64() * 1e6)
}

fn millis(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let prompt = "Please refactor the checkout flow so that topic7 handling moves into its own module, \
                  keep feature42x behind its flag, and make sure the area 3 tests still pass afterwards.";
    println!(
        "{:>7}  {:>10}  {:>12}  {:>16}  {:>13}  {:>11}  {:>14}",
        "rules",
        "parse",
        "index build",
        "build+1st path",
        "prompt match",
        "path match",
        "prompt + path"
    );
    let mut prompt_at = Vec::new();
    for count in [10, 100, 1_000, 10_000, 30_000] {
        let texts = rules(count);
        let path = format!("src/mod{}/deep/nested/file.ts", count / 2);
        let build_runs = if count >= 10_000 { 5 } else { 21 };
        let parsed = median(build_runs, 1, || {
            black_box(parse(&texts));
        });
        let rules = parse(&texts);
        let built = median(build_runs, 1, || {
            black_box(RuleIndex::build(black_box(&rules)));
        });
        let first_path = median(build_runs, 1, || {
            let index = RuleIndex::build(black_box(&rules));
            black_box(index.match_paths(&[black_box(path.as_str())]));
        });
        let index = RuleIndex::build(&rules);
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
        prompt_at.push((count, prompt_time));
        println!(
            "{count:>7}  {:>10}  {:>12}  {:>16}  {:>13}  {:>11}  {:>14}",
            millis(parsed),
            millis(built),
            millis(first_path),
            micros(prompt_time),
            micros(path_time),
            micros(both)
        );
    }
    let at = |n: usize| prompt_at.iter().find(|(c, _)| *c == n).map(|(_, t)| *t);
    if let (Some(ten), Some(thirty)) = (at(10_000), at(30_000)) {
        println!(
            "prompt match 30,000 / 10,000 rules: {:.2}x (target 3x or less)",
            thirty.as_secs_f64() / ten.as_secs_f64()
        );
    }
}
