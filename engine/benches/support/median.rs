//! Timing shared by the engine's benchmarks.

use std::time::{Duration, Instant};

/// Median of `runs` timings of `f`, each repeated `inner` times.
pub(crate) fn median(runs: usize, inner: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..inner {
                f();
            }
            start.elapsed() / inner as u32
        })
        .collect();
    times.sort();
    times[runs / 2]
}
