//! The engine's fuzz suite: property tests with generated inputs and with
//! mutations of the real examples (`examples/`), one module per reader.
//! Each property holds for every input: no panic, an answer within a
//! generous bound, errors that name the file (and line where there is
//! one), round-trips where the format has them, and what a result must
//! hold (a rule's name is its file's name; every line of a rendered
//! delivery is a header the engine writes or text from the rules).
//!
//! The default run is a few hundred cases per property; `PROPTEST_CASES`
//! sets the count for long runs (`scripts/fuzz`). Every failure proptest
//! ever found is kept in `proptest-regressions/` and replayed first.

mod inputs;

mod claude_request;
mod edn;
mod frontmatter;
mod globs;
mod markdown;
mod patch;
mod transcript;
