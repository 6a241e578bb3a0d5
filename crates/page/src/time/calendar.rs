//! Calendar arithmetic: valid dates, the fetch instant on the forum's clock, two-digit and
//! missing years, and turning a date and a clock into a [`ParsedTime`].

use std::cell::OnceCell;

use jiff::civil::{Date, DateTime};
use jiff::tz::{Offset, TimeZone};
use jiff::{SignedDuration, Span, Timestamp};

use super::{DateContext, ParsedTime, Precision};

/// The earliest year a four-digit year may name; older numbers are not forum dates.
pub(super) const FIRST_YEAR: i32 = 1900;
/// The latest year a four-digit year may name.
pub(super) const LAST_YEAR: i32 = 2199;

/// The fetch instant as the forum's wall clock showed it, and how the text is being read.
#[derive(Debug, Clone)]
pub(super) struct FetchClock {
    /// The fetch instant.
    fetched_at: Timestamp,
    /// The forum's offset, or UTC.
    offset: Offset,
    /// The local wall-clock time of the fetch, to the second, computed when first needed:
    /// callers run [`super::find_times`] on every small text node of a page, and most of them
    /// hold no relative expression.
    local: OnceCell<DateTime>,
    /// Whether the text is running text ([`super::find_times`]) rather than a string that is one
    /// expression ([`super::parse_time`]); running text is stricter about lone day words, which
    /// prose uses as ordinary words ("upgrade your router today").
    pub running_text: bool,
}

impl FetchClock {
    /// The fetch instant of `context` on the forum's clock (UTC when the offset is unknown or
    /// outside what a zone can be).
    pub fn new(context: &DateContext, running_text: bool) -> FetchClock {
        let offset = context
            .utc_offset_seconds
            .and_then(|seconds| Offset::from_seconds(seconds).ok())
            .unwrap_or(Offset::UTC);
        FetchClock {
            fetched_at: context.fetched_at,
            offset,
            local: OnceCell::new(),
            running_text,
        }
    }

    /// The local wall-clock time of the fetch, to the second.
    pub fn local(&self) -> DateTime {
        *self.local.get_or_init(|| {
            let local = self
                .fetched_at
                .to_zoned(TimeZone::fixed(self.offset))
                .datetime();
            // Sub-second digits would make "just now" print fractions no page showed.
            local.with().subsec_nanosecond(0).build().unwrap_or(local)
        })
    }

    /// The local calendar day of the fetch.
    pub fn date(&self) -> Date {
        self.local().date()
    }
}

/// The date `year-month-day` when it exists and the year is a forum year.
pub(super) fn make_date(year: i32, month: u32, day: u32) -> Option<Date> {
    if !(FIRST_YEAR..=LAST_YEAR).contains(&year) || !(1..=12).contains(&month) || day == 0 {
        return None;
    }
    let year = i16::try_from(year).ok()?;
    let month = i8::try_from(month).ok()?;
    let day = i8::try_from(day).ok()?;
    Date::new(year, month, day).ok()
}

/// The four-digit year of a two-digit one: the latest year ending in those digits that is not
/// after the year following the fetch (forums do not date posts in the future).
pub(super) fn expand_two_digit_year(two_digits: u32, fetch: &FetchClock) -> i32 {
    let latest = i32::from(fetch.date().year()) + 1;
    let century_start = latest - latest.rem_euclid(100);
    let candidate = century_start + (two_digits % 100) as i32;
    if candidate > latest {
        candidate - 100
    } else {
        candidate
    }
}

/// The date of a month and day printed without a year: the latest year in which it is not after
/// the day following the fetch day (one day of slack for zone differences). February 29th looks
/// back to the latest leap year.
pub(super) fn date_without_year(month: u32, day: u32, fetch: &FetchClock) -> Option<Date> {
    let latest = fetch.date().tomorrow().ok()?;
    let year = i32::from(latest.year());
    (0..9)
        .filter_map(|back| make_date(year - back, month, day))
        .find(|date| *date <= latest)
}

/// The date `days` local calendar days before the fetch day, when it is a forum year.
pub(super) fn days_before_fetch(fetch: &FetchClock, days: i64) -> Option<Date> {
    let date = fetch
        .date()
        .checked_sub(Span::new().try_days(days).ok()?)
        .ok()?;
    (FIRST_YEAR..=LAST_YEAR)
        .contains(&i32::from(date.year()))
        .then_some(date)
}

/// A time of day as a page printed it, with the offset it named, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Clock {
    pub hour: i8,
    pub minute: i8,
    /// The second, when the page printed one.
    pub second: Option<i8>,
    /// The offset in seconds east of UTC, when the page named one.
    pub offset_seconds: Option<i32>,
}

/// An absolute date, with the clock that followed it, as a [`ParsedTime`].
pub(super) fn date_and_clock(date: Date, clock: Option<Clock>) -> ParsedTime {
    let Some(clock) = clock else {
        return ParsedTime {
            local: date.to_datetime(jiff::civil::Time::midnight()),
            precision: Precision::Day,
            explicit_offset_seconds: None,
            relative: false,
            ambiguous_day_month: false,
        };
    };
    let second = clock.second.unwrap_or(0);
    ParsedTime {
        local: date.at(clock.hour, clock.minute, second, 0),
        precision: if clock.second.is_some() {
            Precision::Second
        } else {
            Precision::Minute
        },
        explicit_offset_seconds: clock.offset_seconds,
        relative: false,
        ambiguous_day_month: false,
    }
}

/// The first day of a month named without a day, as a [`ParsedTime`] of [`Precision::Month`].
pub(super) fn month_only(date: Date) -> ParsedTime {
    ParsedTime {
        local: date
            .first_of_month()
            .to_datetime(jiff::civil::Time::midnight()),
        precision: Precision::Month,
        explicit_offset_seconds: None,
        relative: false,
        ambiguous_day_month: false,
    }
}

/// Amounts of "N units ago", added up by unit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Amounts {
    pub years: i64,
    pub months: i64,
    pub days: i64,
    pub seconds: i64,
    /// The precision of the finest unit named.
    pub precision: Option<Precision>,
}

/// The local time `amounts` before the fetch, truncated to the precision of the finest unit:
/// seconds stay exact, minutes and hours drop the seconds, days and weeks fall on local midnight,
/// months and years on the first of the month.
pub(super) fn before_fetch(fetch: &FetchClock, amounts: &Amounts) -> Option<ParsedTime> {
    let precision = amounts.precision?;
    let calendar = Span::new()
        .try_years(amounts.years)
        .ok()?
        .try_months(amounts.months)
        .ok()?
        .try_days(amounts.days)
        .ok()?;
    let shifted = fetch
        .local()
        .checked_sub(calendar)
        .ok()?
        .checked_sub(SignedDuration::from_secs(amounts.seconds))
        .ok()?;
    let year = i32::from(shifted.year());
    if !(FIRST_YEAR..=LAST_YEAR).contains(&year) {
        return None;
    }
    let local = match precision {
        Precision::Second => shifted,
        Precision::Minute => shifted.with().second(0).build().ok()?,
        Precision::Day => shifted.date().to_datetime(jiff::civil::Time::midnight()),
        Precision::Month => shifted
            .date()
            .first_of_month()
            .to_datetime(jiff::civil::Time::midnight()),
    };
    Some(ParsedTime {
        local,
        precision,
        explicit_offset_seconds: None,
        relative: true,
        ambiguous_day_month: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetch_at(text: &str, offset: Option<i32>) -> FetchClock {
        let fetched_at: Timestamp = text.parse().unwrap_or(Timestamp::UNIX_EPOCH);
        FetchClock::new(&DateContext::new(fetched_at, offset), false)
    }

    #[test]
    fn fetch_clock_uses_the_forum_offset() {
        let fetch = fetch_at("2025-03-30T22:11:05.5Z", Some(8 * 3600));
        assert_eq!(fetch.local().to_string(), "2025-03-31T06:11:05");
        let fetch = fetch_at("2025-03-30T22:11:05Z", Some(i32::MAX));
        assert_eq!(fetch.local().to_string(), "2025-03-30T22:11:05");
    }

    #[test]
    fn two_digit_years_and_missing_years() {
        let fetch = fetch_at("2025-03-30T12:00:00Z", None);
        assert_eq!(expand_two_digit_year(19, &fetch), 2019);
        assert_eq!(expand_two_digit_year(26, &fetch), 2026);
        assert_eq!(expand_two_digit_year(27, &fetch), 1927);
        assert_eq!(expand_two_digit_year(99, &fetch), 1999);
        let date = |month, day| date_without_year(month, day, &fetch).map(|d| d.to_string());
        assert_eq!(date(3, 31).as_deref(), Some("2025-03-31"));
        assert_eq!(date(4, 1).as_deref(), Some("2024-04-01"));
        assert_eq!(date(2, 29).as_deref(), Some("2024-02-29"));
        assert_eq!(date(2, 30), None);
    }

    #[test]
    fn dates_outside_forum_years_or_calendars_are_refused() {
        assert!(make_date(2019, 2, 29).is_none());
        assert!(make_date(2020, 2, 29).is_some());
        assert!(make_date(1899, 1, 1).is_none());
        assert!(make_date(2019, 13, 1).is_none());
        assert!(make_date(2019, 1, 0).is_none());
        assert!(make_date(2019, 1, 400).is_none());
    }

    #[test]
    fn huge_amounts_do_not_overflow() {
        let fetch = fetch_at("2025-03-30T12:00:00Z", None);
        let amounts = Amounts {
            years: i64::MAX,
            precision: Some(Precision::Month),
            ..Amounts::default()
        };
        assert!(before_fetch(&fetch, &amounts).is_none());
        let amounts = Amounts {
            seconds: i64::MAX,
            precision: Some(Precision::Second),
            ..Amounts::default()
        };
        assert!(before_fetch(&fetch, &amounts).is_none());
    }
}
