//! The forum's own offset from UTC, read from what a page says about its clock.
//!
//! Relative dates ("Today, 10:32 PM", "Yesterday", "3 hours ago") are printed on the forum's
//! clock, so resolving them needs the forum's offset; a crawler that has only the fetch instant
//! would otherwise resolve them on UTC and, for a forum five hours west, put every post written
//! after 19:00 local time on the wrong day. Forums usually say what clock they print on, in one
//! of two ways, and [`site_utc_offset`] reads both:
//!
//! - a **zone statement** in the footer or the header: "All times are GMT -5", "All times are
//!   UTC+01:00", "All times are UTC", "Time zone: GMT +5:30", "Alle Zeiten sind UTC+1"; the
//!   offset is read exactly;
//! - a **clock** of the current time: "The time now is 10:32 PM", "It is currently Thu Jan 01,
//!   2026 1:00 am", "Current time: 2026-01-01 09:00"; the page was rendered at the fetch
//!   instant, so the clock minus the fetch instant is the offset, rounded to the quarter hour
//!   (every zone in use is a whole number of quarter hours from UTC). A clock that names its own
//!   zone gives that zone directly.
//!
//! Both are recognised only right after a phrase that announces them, so that a post saying
//! "times are hard" or "it is currently 3 against 1" names no zone. A statement wins over a
//! clock because it is exact, whereas a clock read from a page served from a cache may be a few
//! minutes old. The alternative of guessing the offset from the spread of post times over the
//! day was rejected: it needs many posts and is wrong for forums with readers in every zone.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::clock::{ClockForms, read_clock, read_zone};
use super::cursor::Cursor;
use super::{DateContext, Precision, find_times};

/// Phrases after which a forum states the zone its times are printed in.
const ZONE_STATEMENTS: [&str; 13] = [
    "times are",
    "time zone:",
    "time zone is",
    "timezone:",
    "timezone is",
    "zeiten sind",
    "zeitzone:",
    "heures sont",
    "fuseau horaire :",
    "fuseau horaire:",
    "horas son",
    "orari sono",
    "时区",
];

/// Phrases after which a forum shows its current time.
const CLOCK_STATEMENTS: [&str; 14] = [
    "the time now is",
    "time now is",
    "it is currently",
    "current time:",
    "current time is",
    "the time is now",
    "aktuelle zeit:",
    "es ist jetzt",
    "heure actuelle :",
    "il est actuellement",
    "hora actual:",
    "现在时间",
    "当前时间",
    "現在時刻",
];

/// Clocks and fetch instants may disagree by this much beyond the quarter-hour grid (a page
/// rendered a little before it was sent, a clock printed without seconds) and still give an
/// offset; a larger disagreement means the clock is not the current time.
const CLOCK_TOLERANCE_SECONDS: i64 = 5 * 60;

/// A time of day alone cannot tell an offset from that offset minus a day; differences of the
/// clock from the fetch instant from this one on (13:45) are read as offsets to the west.
const LATEST_EAST_READING: i64 = 13 * 3600 + 45 * 60;

/// The offsets in use on Earth run from twelve hours west to fourteen hours east.
const WESTMOST_OFFSET: i64 = -12 * 3600;
const EASTMOST_OFFSET: i64 = 14 * 3600;

/// The forum's offset from UTC in seconds east, as the page `text` states it (a zone
/// statement) or shows it (a clock of the current time compared with `fetched_at`), or `None`
/// when the page says neither.
pub fn site_utc_offset(text: &str, fetched_at: Timestamp) -> Option<i32> {
    // The cues are ASCII or CJK (which has no case), so an ASCII lowercase copy finds them and
    // keeps every byte position of the original.
    let lowercase = text.to_ascii_lowercase();
    site_utc_offset_in(text, &lowercase, fetched_at)
}

fn site_utc_offset_in(text: &str, lowercase: &str, fetched_at: Timestamp) -> Option<i32> {
    // Statements are tried before clocks, each list in its order and each cue from the start
    // of the page: the cues are found in one pass and then read in that order.
    let cues = ZONE_STATEMENTS.iter().chain(CLOCK_STATEMENTS.iter());
    let mut matches = cue_positions(lowercase, &cues.copied().collect::<Vec<_>>());
    matches.sort_unstable();
    // `match_indices`, which this replaces, skipped a match overlapping the one before it of
    // the same cue; keep that so that the answer cannot change.
    let mut previous: Option<(usize, usize)> = None;
    for (cue_index, position) in matches {
        if previous.is_some_and(|(index, end)| index == cue_index && position < end) {
            continue;
        }
        let (cue, is_zone) = match cue_index.checked_sub(ZONE_STATEMENTS.len()) {
            None => (ZONE_STATEMENTS[cue_index], true),
            Some(clock_index) => (CLOCK_STATEMENTS[clock_index], false),
        };
        let end = position + cue.len();
        previous = Some((cue_index, end));
        let offset = if is_zone {
            zone_after(text, end)
        } else {
            clock_offset_after(text, end, fetched_at)
        };
        if offset.is_some() {
            return offset;
        }
    }
    None
}

// The cue table of [`cue_positions`] is a bit set in a `u32`.
const _: () = assert!(ZONE_STATEMENTS.len() + CLOCK_STATEMENTS.len() <= 32);

/// Every (cue index, byte position) at which one of `cues` (each two bytes long or longer)
/// starts in `haystack`.
///
/// One pass with a table of the cues' first bytes replaces a substring search per cue: with
/// twenty-seven cues the searches read a page's text twenty-seven times, which cost as much as
/// finding the page's regions.
fn cue_positions(haystack: &str, cues: &[&str]) -> Vec<(usize, usize)> {
    // Cues by first and by second byte: letters such as `t` and `h` start many words, and the
    // second byte dismisses most of them without comparing strings.
    let mut first_byte = [0u32; 256];
    let mut second_byte = [0u32; 256];
    for (index, cue) in cues.iter().enumerate() {
        let cue = cue.as_bytes();
        first_byte[cue[0] as usize] |= 1 << index;
        second_byte[cue.get(1).copied().unwrap_or_default() as usize] |= 1 << index;
    }
    let bytes = haystack.as_bytes();
    let mut found = Vec::new();
    for (position, pair) in bytes.windows(2).enumerate() {
        let mut candidates = first_byte[pair[0] as usize] & second_byte[pair[1] as usize];
        while candidates != 0 {
            let index = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            if bytes[position..].starts_with(cues[index].as_bytes()) {
                found.push((index, position));
            }
        }
    }
    found
}

/// Skips the spaces and punctuation between a cue and what it announces.
fn skip_separators(cursor: &mut Cursor<'_>) {
    while cursor
        .peek()
        .is_some_and(|c| c.is_whitespace() || matches!(c, ':' | '：' | '\u{a0}'))
    {
        cursor.next_char();
    }
}

/// Reads the zone named at `position` ("GMT -5", "UTC+01:00", "UTC", "CET", "GMT + 1 Hour").
fn zone_after(text: &str, position: usize) -> Option<i32> {
    let mut cursor = Cursor::new(text, position);
    skip_separators(&mut cursor);
    let mut zone = cursor;
    let offset = read_zone(&mut zone)?;
    // phpBB 2 writes "GMT + 1 Hour": a sign and an hour count spaced apart, which the clock
    // grammar refuses after a time ("10:46 - 5 replies"), but which a zone statement means.
    if offset == 0 {
        let mut spaced = zone;
        spaced.skip_spaces();
        if let Some(sign) = spaced.eat_one_of(&['+', '-', '\u{2212}']) {
            spaced.skip_spaces();
            if let Some(hours) = spaced.small_number(0..=14) {
                let mut seconds = hours as i32 * 3600;
                if spaced.eat('.') {
                    match spaced.small_number(0..=99)? {
                        5 | 50 => seconds += 1800,
                        75 => seconds += 2700,
                        25 => seconds += 900,
                        _ => return None,
                    }
                }
                return Some(if sign == '+' { seconds } else { -seconds });
            }
        }
    }
    Some(offset)
}

/// Reads the clock at `position` and compares it with the fetch instant.
fn clock_offset_after(text: &str, position: usize, fetched_at: Timestamp) -> Option<i32> {
    let mut cursor = Cursor::new(text, position);
    skip_separators(&mut cursor);
    let start = cursor.position();
    // A date and time ("Thu Jan 01, 2026 1:00 am", "2026-01-01 09:00"), read on UTC so that
    // the difference from the fetch instant is the offset.
    let utc = DateContext::new(fetched_at, Some(0));
    let window_end = floor_char_boundary(text, (start + 80).min(text.len()));
    let window = &text[start..window_end];
    if let Some(found) = find_times(window, &utc).into_iter().next()
        && found.start <= 3
        && !found.time.relative
        && found.time.precision >= Precision::Minute
    {
        if let Some(named) = found.time.explicit_offset_seconds {
            return Some(named);
        }
        let shown = found
            .time
            .local
            .to_zoned(TimeZone::UTC)
            .ok()?
            .timestamp()
            .as_second();
        return offset_on_grid(shown - fetched_at.as_second());
    }
    // A time of day alone ("10:32 PM"): the offset is the difference of the two times of day,
    // taken within the range of offsets in use.
    let clock = read_clock(&mut cursor, ClockForms::ColonOnly)?;
    if let Some(named) = clock.offset_seconds {
        return Some(named);
    }
    let shown = i64::from(clock.hour) * 3600 + i64::from(clock.minute) * 60;
    let fetched = fetched_at.as_second().rem_euclid(86_400);
    let mut difference = (shown - fetched).rem_euclid(86_400);
    // A difference of fourteen hours could be fourteen east (Kiribati) or ten west (Hawaii);
    // the differences from 13:45 on are read as west, where far more forums are.
    if difference >= LATEST_EAST_READING {
        difference -= 86_400;
    }
    offset_on_grid(difference)
}

/// The quarter hour nearest to `difference`, when it is near one and within the offsets in use.
fn offset_on_grid(difference: i64) -> Option<i32> {
    const QUARTER: i64 = 15 * 60;
    let rounded = (difference + QUARTER / 2).div_euclid(QUARTER) * QUARTER;
    if (difference - rounded).abs() > CLOCK_TOLERANCE_SECONDS
        || !(WESTMOST_OFFSET..=EASTMOST_OFFSET).contains(&rounded)
    {
        return None;
    }
    i32::try_from(rounded).ok()
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the offset read from `text` fetched at `fetched_at` (RFC 3339).
    #[track_caller]
    fn check(text: &str, fetched_at: &str, expected: Option<i32>) {
        let fetched_at: Timestamp = fetched_at.parse().expect("a valid instant");
        assert_eq!(site_utc_offset(text, fetched_at), expected, "{text:?}");
    }

    /// Checks the (cue index, position) pairs found for `cues` in `haystack`, by position.
    #[track_caller]
    fn check_cues(haystack: &str, cues: &[&str], expected: &[(usize, usize)]) {
        let mut found = cue_positions(haystack, cues);
        found.sort_unstable_by_key(|&(index, position)| (position, index));
        assert_eq!(found, expected, "{haystack:?}");
    }

    #[test]
    fn cue_positions_finds_every_start_of_every_cue() {
        check_cues("", &["time"], &[]);
        check_cues(
            "times are times",
            &["times", "are"],
            &[(0, 0), (1, 6), (0, 10)],
        );
        // Overlapping starts are all reported; the caller skips overlaps as `match_indices` did.
        check_cues("aaaa", &["aa"], &[(0, 0), (0, 1), (0, 2)]);
        check_cues("时区：UTC 时区", &["时区", "utc"], &[(0, 0), (0, 13)]);
        check_cues(
            "the time now is",
            &["the time now is", "time now is"],
            &[(0, 0), (1, 4)],
        );
        // A cue at the very end of the text.
        check_cues("clock: time zone:", &["time zone:"], &[(0, 7)]);
    }

    const HOUR: i32 = 3600;
    const MIDNIGHT: &str = "2026-01-01T00:00:00Z";

    #[test]
    fn zone_statements_give_their_offset_exactly() {
        let cases: [(&str, Option<i32>); 12] = [
            (
                "All times are GMT -5. The time now is 10:11 PM.",
                Some(-5 * HOUR),
            ),
            ("All times are GMT +5:30.", Some(5 * HOUR + 1800)),
            ("All times are GMT.", Some(0)),
            ("All times are UTC+01:00", Some(HOUR)),
            ("All times are UTC", Some(0)),
            ("Home | All times are UTC - 8 hours", Some(-8 * HOUR)),
            ("All times are GMT + 1 Hour [ DST ]", Some(HOUR)),
            ("All times are GMT + 5.5 Hours", Some(5 * HOUR + 1800)),
            ("Alle Zeiten sind UTC+02:00", Some(2 * HOUR)),
            ("Time zone: UTC-03:00", Some(-3 * HOUR)),
            ("All times are CET", Some(HOUR)),
            ("时区 GMT+8", Some(8 * HOUR)),
        ];
        for (text, expected) in cases {
            check(text, MIDNIGHT, expected);
        }
    }

    #[test]
    fn clocks_are_compared_with_the_fetch_instant() {
        let cases: [(&str, &str, Option<i32>); 10] = [
            // vBulletin's footer clock shows only the time of day.
            (
                "The time now is 10:11 PM.",
                "2026-01-01T03:11:40Z",
                Some(-5 * HOUR),
            ),
            (
                "The time now is 08:41 AM.",
                "2026-01-01T03:11:00Z",
                Some(5 * HOUR + 1800),
            ),
            (
                "It is currently Thu Jan 01, 2026 1:00 am",
                MIDNIGHT,
                Some(HOUR),
            ),
            (
                "It is currently Wed Dec 31, 2025 4:00 pm",
                MIDNIGHT,
                Some(-8 * HOUR),
            ),
            ("Current time: 2026-01-01 08:00", MIDNIGHT, Some(8 * HOUR)),
            ("现在时间 2026-1-1 08:00", MIDNIGHT, Some(8 * HOUR)),
            ("Aktuelle Zeit: 01.01.2026, 01:00", MIDNIGHT, Some(HOUR)),
            // A clock naming its zone gives that zone.
            ("Current time: 2026-01-01 01:00 UTC+1", MIDNIGHT, Some(HOUR)),
            // Fourteen hours ahead is read as ten hours behind, as Hawaii has more forums than Kiribati.
            ("The time now is 02:00 PM.", MIDNIGHT, Some(-10 * HOUR)),
            ("The time now is 01:00 PM.", MIDNIGHT, Some(13 * HOUR)),
        ];
        for (text, fetched_at, expected) in cases {
            check(text, fetched_at, expected);
        }
    }

    #[test]
    fn statements_win_over_clocks() {
        check(
            "It is currently Thu Jan 01, 2026 3:00 am ... All times are UTC+01:00",
            MIDNIGHT,
            Some(HOUR),
        );
    }

    #[test]
    fn pages_that_state_no_clock_give_nothing() {
        let cases: [&str; 8] = [
            "",
            "Posted Today, 10:32 PM by someone",
            "times are hard these days, the price is up",
            "It is currently 3 against 1 in the second half",
            "The time now is right to upgrade",
            // A clock far from the quarter-hour grid is not the current time.
            "The time now is 10:07 PM.",
            // A clock that is a date without a time of day tells no offset.
            "It is currently Thu Jan 01, 2026",
            "All times are relative to your browser",
        ];
        for text in cases {
            check(text, "2026-01-01T03:00:00Z", None);
        }
    }
}
