//! What the fuzz properties share: mutations of real inputs, the seeds
//! they start from, the case count, and the time bound of one case.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::Config;

/// One case's bound: generous, so a loaded machine never trips it; what it
/// catches is an input that never finishes, or takes minutes.
pub(crate) const CASE_LIMIT: Duration = Duration::from_secs(20);

/// The proptest configuration of a property: `default` cases, or
/// `PROPTEST_CASES` when set (the long runs of `scripts/fuzz`).
pub(crate) fn config(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default);
    Config {
        cases,
        max_shrink_iters: 2_000,
        // Long runs filter many generated paths; never give up on them.
        max_global_rejects: cases.saturating_mul(4).max(1_024),
        ..Config::default()
    }
}

/// Runs `f` on a thread of its own and returns its answer; panics when it
/// gives none within [`CASE_LIMIT`], and passes a panic of `f` on.
pub(crate) fn bounded<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = thread::Builder::new()
        .name(format!("fuzz: {what}"))
        // The native program's main thread has 8 MiB.
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = tx.send(f());
        })
        .expect("a thread for the case");
    match rx.recv_timeout(CASE_LIMIT) {
        Ok(value) => {
            let _ = handle.join();
            value
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{what}: no answer within {CASE_LIMIT:?} (a hang or a blow-up)")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => match handle.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => panic!("{what}: the case ended without an answer"),
        },
    }
}

/// Bytes that break readers: line ends, brackets, quotes, escapes, fence
/// and frontmatter markers, glob syntax, a byte order mark, invalid and
/// partial UTF-8, Unicode line separators, and the engine's own header.
pub(crate) const TOKENS: &[&[u8]] = &[
    b"\n",
    b"\r\n",
    b"\r",
    b"\0",
    b"\t",
    b" ",
    b"{",
    b"}",
    b"[",
    b"]",
    b"(",
    b")",
    b"#{",
    b"\"",
    b"\\",
    b"'",
    b",",
    b":",
    b";",
    b"#",
    b"## ",
    b"---\n",
    b"```",
    b"~~~",
    b"@",
    b"@docs/api-guide.md#",
    b"*",
    b"**",
    b"?",
    b"{a,b}",
    b"../",
    b"/",
    b"- ",
    b"%",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xc3",
    b"\xe2\x80\xa8",
    b"\xf0\x9f\x92\xa9",
    b"<!-- agent-context: omit -->\n",
    b"<!-- /agent-context -->\n",
    b"[rule-fairy injected: x.mdc]\n",
    b"[rule-fairy shard 1/1 d1]\n",
];

/// One change to a byte string, at positions chosen relative to its
/// length.
#[derive(Debug, Clone)]
pub(crate) enum Mutation {
    /// Inserts one of [`TOKENS`].
    Token(Index, Index),
    /// Inserts one byte.
    Byte(Index, u8),
    /// Deletes up to `n` bytes.
    Delete(Index, usize),
    /// Duplicates up to `n` bytes in place.
    Duplicate(Index, usize),
    /// Flips one bit.
    Flip(Index, u8),
    /// Repeats up to `n` bytes `times` times (the huge inputs).
    Repeat(Index, usize, usize),
    /// Inserts a piece of another seed.
    Splice(Index, Index, Index, usize),
    /// Cuts everything from a point.
    Truncate(Index),
}

pub(crate) fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Token(a, b)),
        2 => (any::<Index>(), any::<u8>()).prop_map(|(a, b)| Mutation::Byte(a, b)),
        2 => (any::<Index>(), 1..64usize).prop_map(|(a, n)| Mutation::Delete(a, n)),
        2 => (any::<Index>(), 1..64usize).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
        2 => (any::<Index>(), 0..8u8).prop_map(|(a, b)| Mutation::Flip(a, b)),
        1 => (any::<Index>(), 1..16usize, 2..4_000usize)
            .prop_map(|(a, n, t)| Mutation::Repeat(a, n, t)),
        1 => (any::<Index>(), any::<Index>(), any::<Index>(), 1..256usize)
            .prop_map(|(a, s, f, n)| Mutation::Splice(a, s, f, n)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
    ]
}

/// Applies `mutations` to `bytes` in order; `seeds` feed the splices.
pub(crate) fn apply(mut bytes: Vec<u8>, mutations: &[Mutation], seeds: &[&[u8]]) -> Vec<u8> {
    // A position in 0..=len.
    let at = |index: &Index, len: usize| index.index(len + 1);
    for mutation in mutations {
        let len = bytes.len();
        match mutation {
            Mutation::Token(pos, token) => {
                let token = TOKENS[token.index(TOKENS.len())];
                let pos = at(pos, len);
                bytes.splice(pos..pos, token.iter().copied());
            }
            Mutation::Byte(pos, byte) => bytes.insert(at(pos, len), *byte),
            Mutation::Delete(pos, n) => {
                let pos = at(pos, len);
                bytes.drain(pos..(pos + n).min(len));
            }
            Mutation::Duplicate(pos, n) => {
                let pos = at(pos, len);
                let piece = bytes[pos..(pos + n).min(len)].to_vec();
                bytes.splice(pos..pos, piece);
            }
            Mutation::Flip(pos, bit) => {
                if len > 0 {
                    bytes[pos.index(len)] ^= 1 << bit;
                }
            }
            Mutation::Repeat(pos, n, times) => {
                let pos = at(pos, len);
                let piece = bytes[pos..(pos + n).min(len)].to_vec();
                let repeated = piece.repeat(*times);
                bytes.splice(pos..pos, repeated);
            }
            Mutation::Splice(pos, seed, from, n) => {
                let seed = seeds[seed.index(seeds.len())];
                let from = at(from, seed.len());
                let piece = &seed[from..(from + n).min(seed.len())];
                let pos = at(pos, len);
                bytes.splice(pos..pos, piece.iter().copied());
            }
            Mutation::Truncate(pos) => bytes.truncate(at(pos, len)),
        }
    }
    bytes
}

/// One of `seeds`, mutated a few times.
pub(crate) fn mutated(seeds: &'static [&'static [u8]]) -> impl Strategy<Value = Vec<u8>> {
    (0..seeds.len(), prop::collection::vec(mutation(), 0..8))
        .prop_map(move |(seed, mutations)| apply(seeds[seed].to_vec(), &mutations, seeds))
}

/// Text made of [`TOKENS`] and short words, for readers that take text.
pub(crate) fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            3 => any::<Index>().prop_map(|i| String::from_utf8_lossy(TOKENS[i.index(TOKENS.len())]).into_owned()),
            2 => prop::collection::vec(prop::sample::select(&b"abcxyz019_./-"[..]), 1..8)
                .prop_map(|b| String::from_utf8(b).expect("ASCII")),
            1 => prop::collection::vec(any::<char>(), 1..4).prop_map(String::from_iter),
        ],
        0..48,
    )
    .prop_map(|parts| parts.concat())
}

/// The real files of the example project (`examples/webshop`), by path
/// below it.
pub(crate) const WEBSHOP: &[(&str, &[u8])] = &[
    (
        ".cursor/rules/base.mdc",
        include_bytes!("../../../examples/webshop/.cursor/rules/base.mdc"),
    ),
    (
        ".cursor/rules/testing.mdc",
        include_bytes!("../../../examples/webshop/.cursor/rules/testing.mdc"),
    ),
    (
        ".cursor/rules/api/handlers.mdc",
        include_bytes!("../../../examples/webshop/.cursor/rules/api/handlers.mdc"),
    ),
    (
        ".cursor/rules/db/migrations.mdc",
        include_bytes!("../../../examples/webshop/.cursor/rules/db/migrations.mdc"),
    ),
    (
        ".cursor/rules/ui/components.mdc",
        include_bytes!("../../../examples/webshop/.cursor/rules/ui/components.mdc"),
    ),
    (
        "docs/api-guide.md",
        include_bytes!("../../../examples/webshop/docs/api-guide.md"),
    ),
    (
        "docs/ui-guide.md",
        include_bytes!("../../../examples/webshop/docs/ui-guide.md"),
    ),
    (
        "AGENTS.md",
        include_bytes!("../../../examples/webshop/AGENTS.md"),
    ),
    (
        "src/api/orders.ts",
        include_bytes!("../../../examples/webshop/src/api/orders.ts"),
    ),
    (
        "src/api/payments.ts",
        include_bytes!("../../../examples/webshop/src/api/payments.ts"),
    ),
    (
        "src/ui/Button.tsx",
        include_bytes!("../../../examples/webshop/src/ui/Button.tsx"),
    ),
    (
        "db/migrations/001_init.sql",
        include_bytes!("../../../examples/webshop/db/migrations/001_init.sql"),
    ),
];

/// The example's rule files, as seeds.
pub(crate) const RULE_SEEDS: &[&[u8]] = &[
    WEBSHOP[0].1,
    WEBSHOP[1].1,
    WEBSHOP[2].1,
    WEBSHOP[3].1,
    WEBSHOP[4].1,
    b"---\nglobs:\n  - \"src/**/*.{ts,tsx}\"\n  - db/*.sql\nalwaysApply: false\nkeywords: [\"deploy\", 'ship it']\nos: linux\n---\n# Rule\n",
    b"---\ndescription: x\npaths: src/a/**, src/b/*.ts\npromptAnyOf: foo, bar\npromptRequires: baz\n---\nbody\n",
    b"\xef\xbb\xbf---\r\nalwaysApply: true\r\n---\r\n# CRLF rule\r\n",
    b"---\nglobs: [unclosed\n",
    b"no frontmatter at all\n",
];

/// The documents the example's rules import, as seeds.
pub(crate) const DOC_SEEDS: &[&[u8]] = &[
    WEBSHOP[5].1,
    WEBSHOP[6].1,
    WEBSHOP[7].1,
    b"# Top\n\n## One\n\none\n\n```\n## not a heading\n```\n\n## Two ##\n\n<!-- agent-context: omit -->\nhidden\n<!-- /agent-context -->\n\n### Child\n\nchild\n",
];
