//! The clock: epoch milliseconds now, and as a UTC calendar date and
//! time, for what the program prints and records (a review's metadata,
//! `status`, the hooks' state).

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A moment in UTC, its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Utc {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
    pub milli: i64,
}

/// The UTC date and time of `ms` milliseconds since the epoch: days to a
/// civil date by Howard Hinnant's algorithm (proleptic Gregorian).
pub(crate) fn utc(ms: i64) -> Utc {
    let (days, ms_of_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    Utc {
        year: yoe + era * 400 + i64::from(month <= 2),
        month,
        day,
        hour: ms_of_day / 3_600_000,
        minute: ms_of_day / 60_000 % 60,
        second: ms_of_day / 1000 % 60,
        milli: ms_of_day % 1000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_across_leap_days_and_before_the_epoch() {
        let at = |ms| {
            let t = utc(ms);
            (t.year, t.month, t.day, t.hour, t.minute, t.second, t.milli)
        };
        assert_eq!(at(0), (1970, 1, 1, 0, 0, 0, 0));
        assert_eq!(at(951_782_400_000), (2000, 2, 29, 0, 0, 0, 0));
        assert_eq!(at(1_796_299_199_999), (2026, 12, 3, 11, 59, 59, 999));
        assert_eq!(at(-1), (1969, 12, 31, 23, 59, 59, 999));
    }
}
