//! Wall-clock time as the records carry it: milliseconds since the Unix
//! epoch, and RFC 3339 time stamps in UTC with their offset written out.
//! Pure arithmetic beside one read of the system clock.

use std::time::{SystemTime, UNIX_EPOCH};

/// `n` thousandths (microseconds as milliseconds, milliseconds as
/// seconds) with three decimals: `1234` is `1.234`. Integer arithmetic,
/// which keeps float formatting out of the binary.
pub fn thousandths(n: u64) -> String {
    format!("{}.{:03}", n / 1000, n % 1000)
}

/// `n` thousandths rounded to one decimal: `1250` is `1.3`.
pub fn tenths_of_thousandths(n: u64) -> String {
    let t = n.saturating_add(50) / 100;
    format!("{}.{}", t / 10, t % 10)
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// `2026-12-02T14:31:00.123+00:00`: RFC 3339 in UTC, milliseconds, with its
/// offset written out.
pub fn rfc3339(ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// Parses what `rfc3339` writes back to milliseconds.
pub fn parse_rfc3339(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    if b.len() < 23 {
        return None;
    }
    let num = |r: std::ops::Range<usize>| text.get(r)?.parse::<i64>().ok();
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, m, s, ms) = (num(11..13)?, num(14..16)?, num(17..19)?, num(20..23)?);
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if month > 2 { month - 3 } else { month + 9 };
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let total = ((days * 86_400 + h * 3600 + m * 60 + s) * 1000) + ms;
    u64::try_from(total).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_without_floats() {
        assert_eq!(thousandths(1234), "1.234");
        assert_eq!(thousandths(5), "0.005");
        assert_eq!(tenths_of_thousandths(1250), "1.3");
        assert_eq!(tenths_of_thousandths(1249), "1.2");
        assert_eq!(tenths_of_thousandths(0), "0.0");
    }

    #[test]
    fn time_stamps_round_trip() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000+00:00");
        assert_eq!(rfc3339(1_796_221_860_123), "2026-12-02T14:31:00.123+00:00");
        for ms in [0, 951_782_400_000, 1_796_221_860_123, 4_102_444_800_999] {
            assert_eq!(parse_rfc3339(&rfc3339(ms)), Some(ms));
        }
    }
}
