//! The gate as the hooks and CI run it, whole processes start to exit:
//! `rule-fairy gate check` of one 1,000-line TypeScript file against 20
//! rules (the per-write check), the same among 200 rules of five languages
//! (the check compiles only the 20 that can judge it), the same check of files of 1 MB, 4 MB and
//! 4 MB on one line (parsing is linear in the size) and of a 52 MB file the
//! gate refuses unread, and `rule-fairy gate scan` of a 2,000-file
//! TypeScript tree with the same rules (the scan of record), beside
//! `ast-grep scan` from npm `@ast-grep/cli` on the same rules and tree when
//! it is installed (`scripts/bench` installs the version pinned in
//! `benches/ast-grep/package.json`; `AST_GREP=/path/to/ast-grep` picks
//! another). Run with `scripts/bench`; prints medians.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use rule_fairy_test_support::{stderr, Project, Run};

/// Twenty rules of the kinds repositories keep: bare patterns, node kinds,
/// relational rules (`inside`/`has` with `stopBy: end`), kairoku's own.
const RULES: &[(&str, &str)] = &[
    ("no-eval", "pattern: eval($X)"),
    ("no-console-log", "pattern: console.log($$$)"),
    ("no-debugger", "kind: debugger_statement"),
    ("no-new-function", "pattern: new Function($$$)"),
    ("no-zero-timeout", "pattern: setTimeout($F, 0)"),
    ("no-any-cast", "pattern: $X as any"),
    ("no-non-null", "kind: non_null_expression"),
    ("no-var", "kind: variable_declaration"),
    ("no-loose-null", "pattern: $A == null"),
    (
        "no-throw-string",
        "all:\n    - kind: throw_statement\n    - has:\n        kind: string",
    ),
    (
        "no-await-in-loop",
        "all:\n    - pattern: await $X\n    - inside:\n        kind: for_statement\n        stopBy: end",
    ),
    ("no-process-exit", "pattern: process.exit($$$)"),
    ("no-document-write", "pattern: document.write($$$)"),
    ("no-inner-html", "pattern: $E.innerHTML = $V"),
    ("no-deep-clone-json", "pattern: JSON.parse(JSON.stringify($X))"),
    ("no-array-constructor", "pattern: new Array($$$)"),
    ("no-reject-literal", "pattern: Promise.reject('$S')"),
    (
        "bun-spawn-resolved-path",
        "all:\n    - pattern: Bun.spawn([$CMD, $$$ARGS], $$$OPTS)\n    - inside:\n        stopBy: end\n        has:\n          stopBy: end\n          pattern: Bun.which($CMD)",
    ),
    ("no-assign-empty", "pattern: Object.assign({}, $$$)"),
    (
        "no-empty-catch",
        "all:\n    - kind: catch_clause\n    - has:\n        field: body\n        not:\n          has:\n            kind: expression_statement",
    ),
];

/// A block of ordinary TypeScript, 25 lines, with one violation every
/// `every` blocks so findings are few, as in a healthy repository.
fn block(i: usize, every: usize) -> String {
    let violation = if i.is_multiple_of(every) {
        "    console.log(\"debug\", total);"
    } else {
        "    logger.info(\"total\", { total });"
    };
    format!(
        r#"export interface Order{i} {{
  id: string;
  lines: Array<{{ sku: string; quantity: number; price: number }}>;
  customer?: {{ name: string; email: string }};
}}

export async function total{i}(order: Order{i}, rates: Map<string, number>): Promise<number> {{
  let total = 0;
  for (const line of order.lines) {{
    const rate = rates.get(line.sku) ?? 1;
    total += line.quantity * line.price * rate;
  }}
  if (order.customer === undefined) {{
    throw new Error(`order ${{order.id}} has no customer`);
  }}
{violation}
  return Math.round(total * 100) / 100;
}}

export class Repository{i} {{
  private readonly cache = new Map<string, Order{i}>();
  async find(id: string): Promise<Order{i} | undefined> {{
    return this.cache.get(id) ?? (await fetchOrder(id));
  }}
}}
"#
    )
}

fn write_rules(p: &Project) {
    p.write("sgconfig.yml", "ruleDirs:\n  - rules\n");
    for (id, rule) in RULES {
        let text = format!(
            "id: {id}\nlanguage: TypeScript\nseverity: error\nmessage: {id} is refused here.\nnote: The defect this rule exists for.\nrule:\n  {rule}\n"
        );
        p.write(&format!("rules/{id}.yml"), text);
    }
}

/// The twenty rules among 180 more for other languages, as a repository
/// that holds its Python, JavaScript, Rust and Go to rules as well keeps
/// them: a check of a TypeScript file compiles only its twenty.
fn write_mixed_rules(p: &Project) {
    write_rules(p);
    for lang in ["Python", "JavaScript", "Rust", "Go"] {
        for n in 0..45 {
            let id = format!("{}-{n}", lang.to_lowercase());
            p.write(
                &format!("rules/{id}.yml"),
                format!(
                    "id: {id}\nlanguage: {lang}\nseverity: error\nmessage: {id} is refused here.\nrule:\n  pattern: call{n}($X)\n"
                ),
            );
        }
    }
}

fn one_big_file(p: &Project) -> PathBuf {
    // 40 blocks of 25 lines: 1,000 lines.
    let text: String = (0..40).map(|i| block(i, 20)).collect();
    assert_eq!(text.lines().count(), 1000);
    p.write("src/big.ts", text);
    p.path("src/big.ts")
}

fn tree(p: &Project, files: usize) {
    for f in 0..files {
        // 4 blocks per file: 100 lines, 20 directories of 100 files.
        let text: String = (0..4).map(|i| block(f * 4 + i, 50)).collect();
        p.write(&format!("src/area{:02}/module{f:04}.ts", f % 20), text);
    }
}

/// Median and fastest of `times`.
fn stats(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[0])
}

/// Runs `ours` and, when given, `theirs` alternately, so both see the same
/// load on a shared machine; returns each one's times.
fn alternate(
    runs: usize,
    mut ours: impl FnMut() -> Duration,
    mut theirs: Option<&mut dyn FnMut() -> Duration>,
) -> (Vec<Duration>, Vec<Duration>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        a.push(ours());
        if let Some(theirs) = theirs.as_mut() {
            b.push(theirs());
        }
    }
    (a, b)
}

/// The median of each run's time over the ast-grep run beside it: pairing
/// keeps the ratio when the shared machine's speed drifts.
fn paired_ratio(ours: &[Duration], theirs: &[Duration]) -> f64 {
    let mut ratios: Vec<f64> = ours
        .iter()
        .zip(theirs)
        .map(|(a, b)| a.as_secs_f64() / b.as_secs_f64())
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

fn report(label: &str, target: &str, ours: Vec<Duration>, theirs: Vec<Duration>) {
    let runs = ours.len();
    let paired = (!theirs.is_empty()).then(|| paired_ratio(&ours, &theirs));
    let (median, fastest) = stats(ours);
    println!(
        "{label}: gate median {} (fastest {}, {runs} runs; target {target})",
        ms(median),
        ms(fastest)
    );
    if theirs.is_empty() {
        println!("  ast-grep scan: not measured (no ast-grep: run scripts/bench, or set AST_GREP)");
        return;
    }
    let (their_median, their_fastest) = stats(theirs);
    println!(
        "  ast-grep scan, same rules and files, runs alternating: median {} (fastest {}); gate / ast-grep = {:.2}, pair by pair {:.2} (median)",
        ms(their_median),
        ms(their_fastest),
        median.as_secs_f64() / their_median.as_secs_f64(),
        paired.unwrap_or(f64::NAN)
    );
}

fn timed(run: Run) -> (Duration, Output) {
    let start = Instant::now();
    let out = run.output();
    (start.elapsed(), out)
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn ast_grep() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("AST_GREP") {
        return Some(PathBuf::from(path));
    }
    let pinned =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/ast-grep/node_modules/.bin/ast-grep");
    pinned.exists().then_some(pinned)
}

fn count_lines(out: &Output) -> usize {
    String::from_utf8_lossy(&out.stdout).lines().count()
}

/// TypeScript of at least `bytes` bytes in whole blocks, one violation
/// every 20 blocks; on one line when `one_line`, as a minified build is.
fn sized(bytes: usize, one_line: bool) -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < bytes {
        let block = block(i, 20);
        if one_line {
            text.push_str(&block.replace('\n', " "));
        } else {
            text.push_str(&block);
        }
        i += 1;
    }
    text
}

/// `gate check` of one file per size: time grows with the size, and a file
/// over the gate's bound is refused without being read (behaviour §8.2).
fn sized_checks(binary: &str) {
    let p = Project::new();
    write_rules(&p);
    for (label, bytes, one_line, status) in [
        ("1 MB", 1_000_000, false, 1),
        ("4 MB", 4_000_000, false, 1),
        ("4 MB on one line", 4_000_000, true, 1),
        ("52 MB, over the bound", 52_000_000, false, 2),
    ] {
        p.write("src/sized.ts", sized(bytes, one_line));
        let file = p.path("src/sized.ts");
        let (times, _) = alternate(
            5,
            || {
                let (time, out) = timed(
                    p.command(binary)
                        .args(["gate", "check", "--json"])
                        .arg(&file),
                );
                assert_eq!(out.status.code(), Some(status), "{}", stderr(&out));
                time
            },
            None,
        );
        let (median, fastest) = stats(times);
        println!(
            "check, one file of {label}, 20 rules: gate median {} (fastest {}, 5 runs)",
            ms(median),
            ms(fastest)
        );
    }
}

/// `gate check` of the 1,000-line file in `p`, alternating with
/// `ast-grep scan` of it when ast-grep is installed; both find its two
/// problems.
fn check_beside_ast_grep(p: &Project, binary: &str, sg: Option<&Path>, label: &str) {
    let big = one_big_file(p);
    let ours = || {
        let (time, out) = timed(
            p.command(binary)
                .args(["gate", "check", "--json"])
                .arg(&big),
        );
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(count_lines(&out), 2);
        time
    };
    let mut theirs = || {
        let (time, out) = timed(
            p.command(sg.unwrap())
                .args(["scan", "--json=stream"])
                .arg(&big),
        );
        assert_eq!(count_lines(&out), 2, "{}", stderr(&out));
        time
    };
    let (ours, theirs) = alternate(
        40,
        ours,
        sg.is_some()
            .then_some(&mut theirs as &mut dyn FnMut() -> Duration),
    );
    report(label, "10 ms", ours, theirs);
}

fn main() {
    let binary = env!("CARGO_BIN_EXE_rule-fairy");
    let sg = ast_grep();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);

    let check = Project::new();
    write_rules(&check);
    check_beside_ast_grep(
        &check,
        binary,
        sg.as_deref(),
        "check, one 1,000-line file, 20 rules (a whole process)",
    );

    // 200 rules of five languages, 20 of them TypeScript: the check
    // compiles only the 20 (behaviour §8.4).
    let mixed = Project::new();
    write_mixed_rules(&mixed);
    check_beside_ast_grep(
        &mixed,
        binary,
        sg.as_deref(),
        "check, one 1,000-line file, 200 rules of 5 languages, 20 of them TypeScript (a whole process)",
    );

    sized_checks(binary);

    let scanned = Project::new();
    write_rules(&scanned);
    tree(&scanned, 2000);
    let expected = 2000 * 4 / 50;
    let gate_scan = || {
        let (time, out) = timed(scanned.command(binary).args(["gate", "scan", "--json"]));
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_eq!(count_lines(&out), expected);
        time
    };
    let mut sg_scan = || {
        let (time, out) = timed(
            scanned
                .command(sg.as_ref().unwrap())
                .args(["scan", "--json=stream"]),
        );
        assert_eq!(count_lines(&out), expected, "{}", stderr(&out));
        time
    };
    let (ours, theirs) = alternate(
        9,
        gate_scan,
        sg.is_some()
            .then_some(&mut sg_scan as &mut dyn FnMut() -> Duration),
    );
    report(
        &format!("scan, 2,000 files (200,000 lines), 20 rules, {cores} cores"),
        "5 s",
        ours,
        theirs,
    );
}
