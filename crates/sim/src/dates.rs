//! Civil-time helpers for families that print dates in their own formats.
//!
//! Instants are Unix seconds; a forum shows them in its local time zone, a fixed offset from UTC.

use jiff::Timestamp;
use jiff::tz::{Offset, TimeZone};

/// An instant as the forum's local wall clock shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalTime {
    /// Year.
    pub year: i32,
    /// Month 1..=12.
    pub month: u32,
    /// Day of month 1..=31.
    pub day: u32,
    /// Hour 0..=23.
    pub hour: u32,
    /// Minute 0..=59.
    pub minute: u32,
    /// Second 0..=59.
    pub second: u32,
    /// Day of week, 0 = Monday.
    pub weekday: u32,
}

fn zone(utc_offset_seconds: i32) -> TimeZone {
    TimeZone::fixed(Offset::from_seconds(utc_offset_seconds).unwrap_or(Offset::UTC))
}

/// `instant` on the local clock of a forum `utc_offset_seconds` east of UTC.
pub fn local_time(instant: i64, utc_offset_seconds: i32) -> LocalTime {
    let timestamp = Timestamp::from_second(instant).unwrap_or(Timestamp::UNIX_EPOCH);
    let civil = timestamp.to_zoned(zone(utc_offset_seconds)).datetime();
    LocalTime {
        year: i32::from(civil.year()),
        month: civil.month() as u32,
        day: civil.day() as u32,
        hour: civil.hour() as u32,
        minute: civil.minute() as u32,
        second: civil.second() as u32,
        weekday: civil.weekday().to_monday_zero_offset() as u32,
    }
}

/// ISO 8601 with the forum's offset, e.g. `2025-11-03T21:14:05+08:00`.
pub fn iso8601(instant: i64, utc_offset_seconds: i32) -> String {
    let local = local_time(instant, utc_offset_seconds);
    let sign = if utc_offset_seconds < 0 { '-' } else { '+' };
    let offset = utc_offset_seconds.unsigned_abs();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}{:02}:{:02}",
        local.year,
        local.month,
        local.day,
        local.hour,
        local.minute,
        local.second,
        sign,
        offset / 3600,
        (offset % 3600) / 60
    )
}

/// The instant of local midnight starting the given local date.
pub fn local_midnight(year: i32, month: u32, day: u32, utc_offset_seconds: i32) -> i64 {
    let date = jiff::civil::date(year as i16, month as i8, day as i8);
    date.to_zoned(zone(utc_offset_seconds))
        .map(|zoned| zoned.timestamp().as_second())
        .unwrap_or(0)
}

/// Whole local calendar days from `instant` to `now` (0 = same local day, 1 = yesterday).
pub fn local_days_before(instant: i64, now: i64, utc_offset_seconds: i32) -> i64 {
    let day = |t: i64| (t + i64::from(utc_offset_seconds)).div_euclid(86_400);
    day(now) - day(instant)
}

/// English month names.
pub const ENGLISH_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
/// German month names.
pub const GERMAN_MONTHS: [&str; 12] = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
];
/// English weekday names, Monday first.
pub const ENGLISH_WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The first three letters of an English month name.
pub fn short_month(month: u32) -> &'static str {
    &ENGLISH_MONTHS[(month as usize).clamp(1, 12) - 1][..3]
}

/// Hour on a 12-hour clock and whether it is after noon.
pub fn twelve_hour(hour: u32) -> (u32, bool) {
    let pm = hour >= 12;
    let shown = match hour % 12 {
        0 => 12,
        other => other,
    };
    (shown, pm)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_time_and_iso_agree() {
        // 2025-03-30T22:11:05Z at +08:00 is the next morning.
        let instant = 1_743_372_665;
        let local = local_time(instant, 8 * 3600);
        assert_eq!(
            (local.year, local.month, local.day, local.hour),
            (2025, 3, 31, 6)
        );
        assert_eq!(iso8601(instant, 8 * 3600), "2025-03-31T06:11:05+08:00");
        assert_eq!(iso8601(instant, -5 * 3600), "2025-03-30T17:11:05-05:00");
        assert_eq!(local_time(instant, 0).weekday, 6);
    }

    #[test]
    fn days_and_midnights() {
        let midnight = local_midnight(2025, 3, 31, 8 * 3600);
        assert_eq!(iso8601(midnight, 8 * 3600), "2025-03-31T00:00:00+08:00");
        assert_eq!(local_days_before(midnight - 1, midnight, 8 * 3600), 1);
        assert_eq!(local_days_before(midnight, midnight + 86_399, 8 * 3600), 0);
        assert_eq!(twelve_hour(0), (12, false));
        assert_eq!(twelve_hour(22), (10, true));
    }
}
