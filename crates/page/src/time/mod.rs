//! Finding and reading the date and time expressions that forums print.
//!
//! # The main types and how they connect
//!
//! A caller holds the text of one page (or one attribute value) and a [`DateContext`]: the
//! instant the page was fetched and, when known, the forum's offset from UTC. [`find_times`]
//! walks the text and returns every [`TimeMatch`]: the byte range of one expression, the
//! [`ParsedTime`] it means and, when the day and month could be read either way, the
//! `alternative` reading. [`parse_time`] reads a string that must be one expression as a whole,
//! which is what `title="..."` and `<time datetime="...">` attribute values are, and
//! [`parse_unix_time`] reads the Unix seconds or milliseconds that engines put in `data-time`.
//!
//! A [`ParsedTime`] keeps the wall-clock time the page shows (`local`), how much of it is known
//! ([`Precision`]), the offset the text itself names if any, whether reading it needed the fetch
//! instant (`relative`), and whether its day and month could be swapped
//! (`ambiguous_day_month`). [`ParsedTime::to_iso8601`] prints exactly the known part, and
//! [`ParsedTime::instant`] turns it into a `jiff::Timestamp` once the caller supplies the site's
//! offset for texts that name none.
//!
//! Inside, the work is split by concern: `cursor` holds the reading steps every grammar is built
//! from (numbers, words, phrases, spaces); `words` (dates and clocks) and `relative_words` list
//! the words of sixteen languages, and `lexicon` merges them into a fast lookup and the table of
//! where an expression may start; `clock` reads the time of day and zones, `dates` numeric and
//! month-name dates, `absolute` joins dates and clocks into whole expressions, `relative` reads
//! the expressions that need the fetch instant, `calendar` does the calendar arithmetic, and
//! `scan` walks a page and tries the grammars where they can match. [`site_utc_offset`]
//! (`site_zone`) reads the forum's offset from what a page says about its clock ("All times are
//! GMT -5", "The time now is 10:32 PM"), for callers that do not know it.
//!
//! # Formats
//!
//! - ISO 8601 and RFC 3339 (`2019-09-29T10:46:47+02:00`, `...Z`, `+0000`, fractional seconds,
//!   a space instead of `T`), RFC 2822 (`Sun, 29 Sep 2019 10:46:47 +0200`).
//! - Numeric dates with `.`, `-` or `/`, with or without zero padding, with four-digit years or
//!   zero-padded two-digit years (`29.09.19`) or any two-digit year between slashes (`9/14/16`),
//!   year first (`2025/03/30`, `2025-3-30`, Korean
//!   `2025. 3. 30.`) or last (`30.03.2009`, `03-30-2009`), and the CJK forms `2009年3月30日`,
//!   `2009年3月` and `2009년 3월 30일`.
//! - Month names in English, German, French, Spanish, Italian, Portuguese, Dutch, Polish,
//!   Russian, Ukrainian, Czech, Swedish, Danish, Norwegian and Turkish, full or abbreviated, any
//!   case, with or without a dot, day first (`30. März 2009`, `30 de marzo de 2009`,
//!   `29th of September 2019`, `30 Mar '24`, `30-Mar-2009`) or month first (`Sep 29th, 2019`,
//!   `Mon Mar 30, 2009`), optionally behind a weekday name.
//! - Month and year alone (`Join Date: Mar 2025`, `März 2025`, `Mar '24`, `2009年3月`), returned
//!   with day 1 and [`Precision::Month`] so callers can refuse them as record times.
//! - Times after the date, joined by spaces, commas, `T`, `@`, a dash or a word (`at`, `um`,
//!   `à`, `alle`, `às`, `a las`, `om`, `в`, `o`, `kl.`): `22:11`, `22:11:05`, `10:11 PM`,
//!   `10:11pm`, `10:11 p.m.`, `10pm`, `22h11`, `22 Uhr`, `22.11 Uhr`, `下午 10:11`, followed by an
//!   optional zone (`Z`, `+02:00`, `+0200`, `UTC`, `GMT-5`, `GMT +5:30`, `CET`, `PST`...). A time
//!   may also come first (`22:11, 30.03.2009`). A Japanese weekday in brackets may sit between
//!   date and time (`2009/03/30(月) 22:11`).
//!
//! # Relative expressions
//!
//! They are resolved against `fetched_at` as the forum's own clock shows it (the context's
//! offset, UTC when unknown; page analysis fills an unknown offset in from the page with
//! [`site_utc_offset`]), and marked `relative`:
//!
//! - "Today", "Yesterday", "the day before yesterday" and their translations ("Heute",
//!   "Gestern", "vorgestern", "aujourd'hui", "hier", "hoy", "ayer", "昨天", "前天", "вчера"...)
//!   name that many local calendar days before the fetch day. With a time after them
//!   ("Yesterday, 10:32 PM", "Gestern um 08:11", "昨天 22:32") the result has that time;
//!   alone it has [`Precision::Day`]. French "hier" is accepted only with a time, because in
//!   German it means "here". In running text ([`find_times`]) a lone day word must be
//!   capitalised or CJK: forums print "Today" and "Gestern" as labels, while prose says
//!   "upgrade your router today"; a whole string ([`parse_time`]) may be lowercase ("hoy").
//! - A full weekday name with a time ("Sunday at 10:11 PM", "Sonntag um 22:11") is the latest such
//!   weekday strictly before the fetch day (one to seven days back), as XenForo prints them
//!   within a week.
//! - "N units ago" in every supported language ("3 hours ago", "vor 3 Stunden", "il y a 3
//!   heures", "hace 3 horas", "3 ore fa", "3 часа назад", "3小时前", "3時間前", "3시간 전"), and
//!   sums of them ("1 hour 5 minutes ago"), subtract from the fetch instant: seconds keep
//!   [`Precision::Second`], minutes and hours [`Precision::Minute`], days and weeks step back
//!   local calendar days with [`Precision::Day`], months and years step back calendar months
//!   with [`Precision::Month`].
//! - "just now", "a moment ago", "gerade eben", "à l'instant", "刚刚" and the like are the fetch
//!   instant itself, to the second; "half an hour ago" and "半小时前" are thirty minutes.
//! - A month and day without a year, as Discourse and Vanilla print dates of the current year,
//!   takes the latest year in which that day is not after the day following the fetch day, and
//!   is marked `relative` because it needed the fetch instant. The month must plainly be one: a
//!   capitalised English name in either order ("Mar 30", "30 March"; "may 5" is prose), or after
//!   a day number a full name of another language ("30. März", "30 mars", "30 de marzo") or any
//!   name after a dotted day ("12. Okt."); an abbreviation that is a word elsewhere ("12 out of
//!   20") is not.
//!   Two-digit years likewise become the latest century's year not after the fetch year plus one.
//!
//! A bare clock ("22:11", and so scores such as "2:1") is never a match on its own: it is only
//! read after a date, a relative day word or a weekday, or before a date.
//!
//! # Day and month order
//!
//! A numeric date with `.` separators is day first. One with the four-digit year first is year,
//! month, day. Otherwise (`-` and `/` with the year last), a first number above 12 proves day
//! first and a second number above 12 proves month first. When both numbers are 12 or less and
//! differ, both readings are valid: the one returned follows [`DateContext::day_month_order`],
//! then a French "le" just before the date (day first), then the page itself (if every provable
//! date in the same [`find_times`] text is day first, so are its ambiguous ones), and otherwise
//! the month-first reading of the English engines (vBulletin's `03-30-2009`). Ambiguous results
//! have `ambiguous_day_month` set and the other reading in [`TimeMatch::alternative`]; a weekday
//! name that agrees with only one reading settles it instead.
//!
//! # What never matches
//!
//! Version numbers (`5.1.0`), addresses (`10.0.0.1`), prices (`1,299.00`), plain numbers and
//! years, phone numbers, kernel timestamps (`1.290549`), fractions (`3/4`), scores (`2:1`),
//! impossible dates (`31.02.2019`, `2019-13-01`) and clocks (`25:61`). A number glued to a
//! preceding letter or continuing a chain of dotted, dashed or slashed numbers never starts a
//! date, and a date followed by more of such a chain is refused. Four-digit years must lie in
//! 1900..=2199.
//!
//! # Speed
//!
//! [`find_times`] classifies the text eight bytes at a time in a `u64` and stops only at the
//! first letter or digit of each word and at non-ASCII characters. A word is dismissed after one
//! table test when its first three letters begin no month, weekday or relative word; the rest are
//! hashed whole into the lexicon's start table, which says which grammars may begin there. A
//! number is dismissed when it continues a chain such as `10.0.0.1`, or when its length and the
//! character after it fit no grammar (`1,299`, `42%`). CJK text is walked character by character,
//! and a one-bit test dismisses the characters that begin no relative word. No allocation happens
//! per character; words are lowercased into a stack buffer for lookup. The `regex` crate is not
//! used: a regular expression per format would scan the text once per format.
//!
//! On the development machine (a shared virtual machine on which one naive pass that only
//! classifies each byte of 60 KB takes about 60 µs) the walk that finds the candidates of a
//! 60 KB English thread page takes about 80 µs, and the whole of [`find_times`] with about 70
//! dates about 180 µs; pages with a date every hundred bytes take 0.4 to 0.7 ms (measured by the
//! module's author on a release build; the page-analysis benchmark in docs/BENCHMARKS.md covers
//! the whole analysis).

mod absolute;
mod calendar;
mod clock;
mod cursor;
mod dates;
mod lexicon;
mod relative;
mod relative_words;
mod scan;
mod site_zone;
mod words;

#[cfg(test)]
mod tests;

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::{Offset, TimeZone};

pub use scan::{find_times, parse_time, parse_time_with_alternative, parse_unix_time};
pub use site_zone::site_utc_offset;

/// Whether `word` (letters only, any case) is one the date grammars know: a month, a weekday, a
/// relative day ("today", "gestern"), a meridiem or a unit. A name printed before a date must not
/// be one of them ("Monday, May 4" names no one).
pub fn is_date_word(word: &str) -> bool {
    lexicon::lexicon().meaning(word).is_some()
}

/// What the caller knows about the page a text comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateContext {
    /// The instant the page was fetched; relative expressions count back from it.
    pub fetched_at: Timestamp,
    /// The forum's offset from UTC in seconds east, when known; relative expressions are resolved
    /// on this clock, and on UTC when it is `None`.
    pub utc_offset_seconds: Option<i32>,
    /// How to read numeric dates whose day and month could be swapped.
    pub day_month_order: DayMonthOrder,
}

impl DateContext {
    /// A context with no preference for the day and month order.
    pub fn new(fetched_at: Timestamp, utc_offset_seconds: Option<i32>) -> DateContext {
        DateContext {
            fetched_at,
            utc_offset_seconds,
            day_month_order: DayMonthOrder::Unknown,
        }
    }

    /// The same context with a known day and month order, as a caller that has learned the
    /// forum's locale (from its other dates or its language) would set it.
    pub fn with_day_month_order(self, day_month_order: DayMonthOrder) -> DateContext {
        DateContext {
            day_month_order,
            ..self
        }
    }
}

/// The order of day and month in numeric dates such as `03/04/2019`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DayMonthOrder {
    /// Not known: the page's own provable dates decide, and otherwise month first.
    #[default]
    Unknown,
    /// Day first, as in most of Europe: `03/04/2019` is the 3rd of April.
    DayFirst,
    /// Month first, as in the United States: `03/04/2019` is the 4th of March.
    MonthFirst,
}

/// How much of a [`ParsedTime`] the text actually gave; fields finer than this are zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Precision {
    /// Only year and month ("Join Date: Mar 2025", "3 months ago"); the day is 1.
    Month,
    /// A calendar day without a time ("30.03.2009", "Yesterday", "2 days ago").
    Day,
    /// A time to the minute ("10:11 PM", "3 hours ago").
    Minute,
    /// A time to the second ("22:11:05", "just now").
    Second,
}

/// The meaning of one date or time expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParsedTime {
    /// The wall-clock time as the page shows it, with relative expressions resolved; in the
    /// forum's local time unless `explicit_offset_seconds` says otherwise.
    pub local: DateTime,
    /// How much of `local` the text gave.
    pub precision: Precision,
    /// The offset from UTC in seconds east when the text itself names a zone or offset
    /// ("+0100", "Z", "UTC", "GMT-5").
    pub explicit_offset_seconds: Option<i32>,
    /// Whether reading the expression needed the fetch instant ("3 hours ago", "Yesterday",
    /// "昨天", "vor 3 Stunden", and dates without a year).
    pub relative: bool,
    /// Whether the day and month could be swapped and the other reading is also a valid date.
    pub ambiguous_day_month: bool,
}

impl ParsedTime {
    /// The known part of the time in ISO 8601: `2025-03` for [`Precision::Month`], `2025-03-30`
    /// for [`Precision::Day`], `2025-03-30T22:11` or `2025-03-30T22:11:05` for times, followed
    /// by `+02:00` when the text named an offset.
    pub fn to_iso8601(&self) -> String {
        let local = self.local;
        let date = format!("{:04}-{:02}", local.year(), local.month());
        let mut text = match self.precision {
            Precision::Month => return date,
            Precision::Day => return format!("{date}-{:02}", local.day()),
            Precision::Minute => format!(
                "{date}-{:02}T{:02}:{:02}",
                local.day(),
                local.hour(),
                local.minute()
            ),
            Precision::Second => format!(
                "{date}-{:02}T{:02}:{:02}:{:02}",
                local.day(),
                local.hour(),
                local.minute(),
                local.second()
            ),
        };
        if let Some(offset) = self.explicit_offset_seconds {
            let sign = if offset < 0 { '-' } else { '+' };
            let magnitude = offset.unsigned_abs();
            text.push_str(&format!(
                "{sign}{:02}:{:02}",
                magnitude / 3600,
                magnitude % 3600 / 60
            ));
        }
        text
    }

    /// The instant this time names, reading `local` at the offset the text named or else at
    /// `default_offset_seconds` (the forum's offset; use the one the [`DateContext`] had, so that
    /// relative expressions come back to the instant they were resolved from).
    ///
    /// Every time this module returns lies within years 1900..=2199 and converts exactly; the
    /// Unix epoch stands in only for a hand-built value outside what `jiff` can represent.
    pub fn instant(&self, default_offset_seconds: i32) -> Timestamp {
        let seconds = self
            .explicit_offset_seconds
            .unwrap_or(default_offset_seconds);
        let offset = Offset::from_seconds(seconds).unwrap_or(Offset::UTC);
        self.local
            .to_zoned(TimeZone::fixed(offset))
            .map(|zoned| zoned.timestamp())
            .unwrap_or(Timestamp::UNIX_EPOCH)
    }

    /// The instant this time names on the clock of `context`.
    pub fn instant_in(&self, context: &DateContext) -> Timestamp {
        self.instant(context.utc_offset_seconds.unwrap_or(0))
    }
}

/// One expression found in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeMatch {
    /// Byte offset of the first byte of the expression.
    pub start: usize,
    /// Byte offset just past the expression.
    pub end: usize,
    /// The reading this module prefers.
    pub time: ParsedTime,
    /// The other reading of an ambiguous day and month, when it is also a valid date.
    pub alternative: Option<ParsedTime>,
    /// Whether `time` was preferred to `alternative` only by the month-first default, which
    /// evidence elsewhere on the page (a "28/02/2007") may overturn.
    pub order_by_default: bool,
    /// The day and month order this expression's digits prove ("28/02/2007": day first).
    pub evidence: Option<DayMonthOrder>,
}
