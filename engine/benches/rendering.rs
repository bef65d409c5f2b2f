//! Rendering deliveries: a prompt delivery of 20 rules with 10 imports from
//! 5 documents (the Codex text and the Claude Code frames), and frames for
//! a 190,000-character delivery. Run with `scripts/bench`; prints medians.

use std::hint::black_box;

#[path = "support/median.rs"]
mod support;
use support::median;

use rule_fairy_engine::Facts;
use rule_fairy_engine::FrameLimits;
use rule_fairy_engine::MemoryFs;
use rule_fairy_engine::Project;
use rule_fairy_engine::{claude_delivery, codex_text, select, Selection};
use rule_fairy_engine::{Event, Query};

fn select_prompt(project: &Project, prompt: &str) -> Selection {
    select(
        project,
        &Query::new(&Event::prompt(prompt), &Facts::default()),
    )
}

fn document(d: usize) -> String {
    let mut text = format!("# Guide {d}\n\nIntro.\n");
    for s in 0..8 {
        text.push_str(&format!("\n## Section {s}\n\n"));
        for p in 0..6 {
            text.push_str(&format!("Paragraph {p} of section {s} in guide {d}, with enough words to look like documentation.\n\n"));
        }
    }
    text
}

fn documented_project() -> (MemoryFs, Project) {
    let mut fs = MemoryFs::new();
    for d in 0..5 {
        fs.add_file(&format!("/p/docs/guide{d}.md"), document(d));
    }
    for r in 0..20 {
        let import = if r < 10 {
            format!("\n@docs/guide{}.md#section-{}\n", r % 5, r % 8)
        } else {
            String::new()
        };
        let body = "- A rule line that says what to do and why it matters here.\n".repeat(12);
        fs.add_file(
            &format!("/p/.cursor/rules/rule{r:02}.mdc"),
            format!("---\npromptAnyOf: shared, topic{r}\n---\n# Rule {r}\n\n{body}{import}"),
        );
    }
    let project = Project::load(&fs, "/p").unwrap();
    (fs, project)
}

fn large_project() -> (MemoryFs, Project) {
    let mut fs = MemoryFs::new();
    // Ten rules of about 19,000 characters each: 190,000 in all, two frames.
    for r in 0..10 {
        let body =
            format!("Paragraph of rule {r} with enough text to fill the frame steadily.\n\n")
                .repeat(287);
        fs.add_file(
            &format!("/p/.cursor/rules/big{r}.mdc"),
            format!("---\nalwaysApply: true\n---\n{body}"),
        );
    }
    let project = Project::load(&fs, "/p").unwrap();
    (fs, project)
}

fn main() {
    let (fs, project) = documented_project();
    let selection = select_prompt(&project, "a shared change");
    assert_eq!(selection.rules.len(), 20);
    let codex = median(31, 50, || {
        black_box(codex_text(&fs, &project, &selection, &selection.rules).unwrap());
    });
    let claude = median(31, 50, || {
        black_box(
            claude_delivery(
                &fs,
                &project,
                &selection.trigger,
                &selection.rules,
                "bench",
                FrameLimits::default(),
            )
            .unwrap(),
        );
    });
    println!("20 rules, 10 imports from 5 documents: Codex text {:.1} µs, Claude frames {:.1} µs (medians)", codex.as_secs_f64() * 1e6, claude.as_secs_f64() * 1e6);

    let (fs, project) = large_project();
    let selection = select_prompt(&project, "anything");
    let delivery = claude_delivery(
        &fs,
        &project,
        &selection.trigger,
        &selection.rules,
        "bench",
        FrameLimits::default(),
    )
    .unwrap();
    let chars: usize = delivery
        .frames
        .iter()
        .map(|f| f.encode_utf16().count())
        .sum();
    let frames = median(31, 10, || {
        black_box(
            claude_delivery(
                &fs,
                &project,
                &selection.trigger,
                &selection.rules,
                "bench",
                FrameLimits::default(),
            )
            .unwrap(),
        );
    });
    println!(
        "{} rules, {chars} characters in {} frames: {:.2} ms (median)",
        delivery.delivered.len(),
        delivery.frames.len(),
        frames.as_secs_f64() * 1e3
    );
}
