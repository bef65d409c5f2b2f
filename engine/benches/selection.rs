//! Selection for events touching many paths: an edit tool naming 250 to
//! 2,000 matched files (an `apply_patch`), and a shell change of 1,000 to
//! 100,000 files with the pending list cleared after the delivery. Both
//! must grow linearly with the paths (behaviour §2.6, §5.4). Run with
//! `scripts/bench`; prints medians.

use std::hint::black_box;
use std::time::Duration;

#[path = "support/median.rs"]
mod support;
use support::median;

use rule_fairy_engine::shell::ShellState;
use rule_fairy_engine::{select, Event, Facts, MemoryFs, Project, Query};

/// Ten rules, each matching every TypeScript file under `src/`, and ten
/// more that match nothing the events name.
fn project() -> Project {
    let mut fs = MemoryFs::new();
    for i in 0..10 {
        fs.add_file(
            &format!("/p/.cursor/rules/wide{i:02}.mdc"),
            format!("---\nglobs: src/**/*.ts, **/part{i}*.ts\n---\n# Wide {i}"),
        );
        fs.add_file(
            &format!("/p/.cursor/rules/other{i:02}.mdc"),
            format!("---\nglobs: docs/{i}/**/*.md\n---\n# Other {i}"),
        );
    }
    Project::load(&fs, "/p").unwrap()
}

fn paths(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| format!("src/module{}/part{}/file{i}.ts", i % 100, i % 7))
        .collect()
}

fn millis(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let project = project();
    let facts = Facts::default();
    println!("{:>8}  {:>14}  {:>14}", "paths", "edit select", "per path");
    for count in [250, 1_000, 2_000] {
        let event = Event::edit(&paths(count));
        let time = median(11, 1, || {
            black_box(select(&project, &Query::new(&event, &facts)));
        });
        println!(
            "{count:>8}  {:>14}  {:>14}",
            millis(time),
            format!("{:.2} µs", time.as_secs_f64() * 1e6 / count as f64)
        );
    }
    println!();
    println!(
        "{:>8}  {:>14}  {:>14}  {:>14}",
        "paths", "shell select", "record+clear", "per path"
    );
    for count in [1_000, 10_000, 100_000] {
        let changed = paths(count);
        let event = Event::shell(&changed);
        let runs = if count >= 100_000 { 5 } else { 11 };
        let selected = median(runs, 1, || {
            black_box(select(&project, &Query::new(&event, &facts)));
        });
        let bookkeeping = median(runs, 1, || {
            let mut state = ShellState::default();
            let pending = state.record_check(0, &changed).to_vec();
            state.clear(&pending);
            black_box(state);
        });
        println!(
            "{count:>8}  {:>14}  {:>14}  {:>14}",
            millis(selected),
            millis(bookkeeping),
            format!(
                "{:.2} µs",
                (selected + bookkeeping).as_secs_f64() * 1e6 / count as f64
            )
        );
    }
}
