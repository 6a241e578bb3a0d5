//! `WARC-Date` values: UTC, W3C-DTF (the RFC 3339 profile), fractional seconds when present.

use jiff::Timestamp;
use jiff::tz::Offset;

use crate::error::WarcError;

/// Formats `instant` as a `WARC-Date`, such as `2024-03-09T14:05:07Z` or
/// `2024-03-09T14:05:07.25Z`.
///
/// WARC 1.1 allows a decimal fraction of a second, and trawl keeps it because fetches in a
/// simulated year can be milliseconds apart, and the date is part of each record's identity.
/// The fraction is written only when it is not zero, with trailing zeros dropped, so whole-second
/// instants look exactly as WARC 1.0 readers expect. Readers that keep only microseconds
/// (warcio, pywb) truncate the rest, which loses nothing they index by.
///
/// The formatting is done here rather than with `Timestamp`'s `Display` so the spelling is pinned
/// by this crate's tests and cannot drift with the `jiff` version; years outside 0000 to 9999,
/// which W3C-DTF cannot spell, are refused rather than written in a form readers reject.
pub(crate) fn format_warc_date(instant: Timestamp) -> Result<String, WarcError> {
    let civil = Offset::UTC.to_datetime(instant);
    let year = civil.year();
    if !(0..=9999).contains(&year) {
        return Err(WarcError::DateOutOfRange { instant });
    }
    let mut text = format!(
        "{year:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        civil.month(),
        civil.day(),
        civil.hour(),
        civil.minute(),
        civil.second()
    );
    let nanoseconds = civil.subsec_nanosecond();
    if nanoseconds != 0 {
        let fraction = format!("{nanoseconds:09}");
        text.push('.');
        text.push_str(fraction.trim_end_matches('0'));
    }
    text.push('Z');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(seconds: i64, nanoseconds: i32, expected: Option<&str>) {
        let instant = Timestamp::new(seconds, nanoseconds).expect("test instant in jiff's range");
        let formatted = format_warc_date(instant).ok();
        assert_eq!(formatted.as_deref(), expected, "instant {instant}");
    }

    #[test]
    fn dates_are_utc_with_a_trimmed_fraction() {
        check(0, 0, Some("1970-01-01T00:00:00Z"));
        check(1_710_000_000, 0, Some("2024-03-09T16:00:00Z"));
        check(1_710_000_000, 250_000_000, Some("2024-03-09T16:00:00.25Z"));
        check(1_710_000_000, 1, Some("2024-03-09T16:00:00.000000001Z"));
        check(
            1_710_000_000,
            123_456_000,
            Some("2024-03-09T16:00:00.123456Z"),
        );
        check(-1, 0, Some("1969-12-31T23:59:59Z"));
        check(-1, 500_000_000, Some("1969-12-31T23:59:59.5Z"));
        check(253_402_207_200, 0, Some("9999-12-30T22:00:00Z"));
        check(-62_167_219_200, 0, Some("0000-01-01T00:00:00Z"));
        check(-62_167_219_201, 0, None);
    }
}
