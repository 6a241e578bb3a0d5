//! The time of day: `22:11`, `22:11:05.123`, `10:11 PM`, `10pm`, `22h11`, `22 Uhr`,
//! `22.11 Uhr`, `下午 10:11`, `22时11分`, and the zone that may follow (`Z`, `+02:00`, `+0200`,
//! `UTC`, `GMT -5`, `GMT+5:30`, `CET`).

use super::calendar::Clock;
use super::cursor::Cursor;
use super::lexicon::Meridiem;
use super::words::{CLOCK_SUFFIXES, MERIDIEM_AFTER, MERIDIEM_BEFORE, ZONES};

/// Which clock forms to accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClockForms {
    /// Every form, as after a date or a day word where nothing else can follow.
    All,
    /// Only `H:MM` forms, as before a date, where a looser form would swallow ordinary numbers.
    ColonOnly,
}

/// The largest offset from UTC a page may name, in seconds.
const LARGEST_OFFSET: i32 = 18 * 3600;

/// Reads a time of day and the zone after it.
pub(super) fn read_clock(cursor: &mut Cursor<'_>, forms: ClockForms) -> Option<Clock> {
    let mut probe = *cursor;
    let mut meridiem = probe.eat_listed(&MERIDIEM_BEFORE);
    if meridiem.is_some() {
        probe.skip_spaces();
    }
    let hour = probe.number()?;
    if hour.digits > 2 {
        return None;
    }
    let mut minute = 0;
    let mut second = None;
    let mut needs_marker = false;
    if probe.eat(':') {
        minute = two_digits(&mut probe, 59)?;
        if probe.peek() == Some(':') && probe.peek_second().is_some_and(|c| c.is_ascii_digit()) {
            probe.eat(':');
            second = Some(two_digits(&mut probe, 59)?);
            skip_fraction(&mut probe);
        }
    } else if forms == ClockForms::ColonOnly {
        return None;
    } else if probe.eat_one_of(&['h', 'H']).is_some() {
        // French "22h11" and "22h".
        if probe.peek().is_some_and(|c| c.is_ascii_digit()) {
            minute = two_digits(&mut probe, 59)?;
        }
        if !probe.at_token_end() {
            return None;
        }
    } else if probe.eat_one_of(&['时', '時', '点', '點']).is_some() {
        // Chinese "22时11分05秒"; the minutes may be missing ("22点").
        if let Some(value) = probe.small_number(0..=59) {
            minute = value as i8;
            probe.eat_one_of(&['分'])?;
            if let Some(value) = probe.small_number(0..=59) {
                second = Some(value as i8);
                probe.eat_one_of(&['秒'])?;
            }
        }
    } else if probe.peek() == Some('.') {
        // German "22.11 Uhr" and British "9.05pm" are times only with their marker: a dotted
        // pair of numbers alone is a decimal or a version.
        probe.eat('.');
        minute = two_digits(&mut probe, 59)?;
        let mut suffix = probe;
        suffix.skip_spaces();
        let meridiem_follows = hour.value <= 12 && {
            let mut marker = suffix;
            marker.eat_listed(&MERIDIEM_AFTER).is_some()
        };
        if !suffix.eat_phrase("uhr") && !meridiem_follows {
            return None;
        }
    } else if let Some(spaced_minute) = spaced_french_minutes(&mut probe) {
        // French typography puts spaces around the "h": "21 h 05".
        minute = spaced_minute;
    } else {
        // "10pm" and "22 Uhr" have no minutes and need their marker.
        needs_marker = true;
    }
    let mut hour = hour.value;
    if meridiem.is_none() && hour <= 12 {
        let mut marker = probe;
        marker.skip_spaces();
        if let Some(found) = marker.eat_listed(&MERIDIEM_AFTER) {
            meridiem = Some(found);
            probe = marker;
        }
    }
    let mut has_suffix = false;
    let mut suffix = probe;
    suffix.skip_spaces();
    if suffix.eat_listed(&CLOCK_SUFFIXES).is_some() {
        probe = suffix;
        has_suffix = true;
    }
    if needs_marker && meridiem.is_none() && !has_suffix {
        return None;
    }
    match meridiem {
        Some(_) if hour > 12 => return None,
        Some(Meridiem::BeforeNoon) if hour == 12 => hour = 0,
        Some(Meridiem::AfterNoon) if hour < 12 => hour += 12,
        _ => {}
    }
    if hour > 23 {
        return None;
    }
    let offset_seconds = read_zone(&mut probe);
    *cursor = probe;
    Some(Clock {
        hour: hour as i8,
        minute,
        second,
        offset_seconds,
    })
}

/// Reads the " h 05" of French "21 h 05", spaces around the "h" and two digits of minutes
/// after it; "21 h" alone is not read here, since "3 h" is as often an amount of hours.
fn spaced_french_minutes(cursor: &mut Cursor<'_>) -> Option<i8> {
    let mut probe = *cursor;
    if !probe.skip_spaces() || probe.eat_one_of(&['h', 'H']).is_none() || !probe.skip_spaces() {
        return None;
    }
    let minute = two_digits(&mut probe, 59)?;
    if !probe.at_token_end() {
        return None;
    }
    *cursor = probe;
    Some(minute)
}

/// Reads exactly two digits whose value is at most `largest`.
fn two_digits(cursor: &mut Cursor<'_>, largest: u32) -> Option<i8> {
    let mut probe = *cursor;
    let number = probe.number()?;
    if number.digits != 2 || number.value > largest {
        return None;
    }
    *cursor = probe;
    Some(number.value as i8)
}

/// Skips fractional seconds (`.123`, `,5`), which no forum date needs.
fn skip_fraction(cursor: &mut Cursor<'_>) {
    let mut probe = *cursor;
    if probe.eat_one_of(&['.', ',']).is_some() && probe.number().is_some() {
        *cursor = probe;
    }
}

/// Reads the zone after a clock and returns its offset in seconds east of UTC.
pub(super) fn read_zone(cursor: &mut Cursor<'_>) -> Option<i32> {
    let mut probe = *cursor;
    let spaced = probe.skip_spaces();
    if !spaced && probe.eat('Z') && probe.at_token_end() {
        *cursor = probe;
        return Some(0);
    }
    let mut zone = probe;
    if let Some(offset) = signed_offset(&mut zone, spaced) {
        *cursor = zone;
        return Some(offset);
    }
    let bracketed = probe.eat('(');
    let name = probe.word()?;
    let &(_, base) = ZONES.iter().find(|(zone_name, _)| *zone_name == name)?;
    // "GMT+2", "GMT -5", "UTC+05:30": an offset may follow the name, after one space at most,
    // and after a zone name even an hour alone is an offset.
    let mut after = probe;
    after.skip_one_space();
    let mut offset = base;
    if let Some(extra) = signed_offset(&mut after, false) {
        offset = base.checked_add(extra)?;
        probe = after;
    }
    if bracketed && !probe.eat(')') {
        return None;
    }
    if offset.abs() > LARGEST_OFFSET {
        return None;
    }
    *cursor = probe;
    Some(offset)
}

/// Reads `+02:00`, `+0200`, `-5` or `+5:30`. After a space, or when `strict` is set, the short
/// hour-only forms are refused, so that "10:46 - 5 replies" keeps its dash.
fn signed_offset(cursor: &mut Cursor<'_>, strict: bool) -> Option<i32> {
    let mut probe = *cursor;
    let sign = match probe.eat_one_of(&['+', '-', '\u{2212}'])? {
        '+' => 1,
        _ => -1,
    };
    let first = probe.number()?;
    let (hours, minutes) = match first.digits {
        4 => (first.value / 100, first.value % 100),
        1 | 2 if probe.peek() == Some(':') => {
            probe.eat(':');
            let minutes = probe.number()?;
            if minutes.digits != 2 {
                return None;
            }
            (first.value, minutes.value)
        }
        1 | 2 if !strict => (first.value, 0),
        _ => return None,
    };
    if hours > 18 || minutes > 59 || !probe.at_token_end() {
        return None;
    }
    let seconds = (hours * 3600 + minutes * 60) as i32;
    if seconds > LARGEST_OFFSET {
        return None;
    }
    *cursor = probe;
    Some(sign * seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hour, minute, second, offset and the end of the clock read from `text`.
    type Reading = (i8, i8, Option<i8>, Option<i32>, usize);

    fn clock(text: &str) -> Option<Reading> {
        let mut cursor = Cursor::new(text, 0);
        let clock = read_clock(&mut cursor, ClockForms::All)?;
        Some((
            clock.hour,
            clock.minute,
            clock.second,
            clock.offset_seconds,
            cursor.position(),
        ))
    }

    #[test]
    fn clock_forms() {
        assert_eq!(clock("22:11"), Some((22, 11, None, None, 5)));
        assert_eq!(clock("22:11:05.123Z"), Some((22, 11, Some(5), Some(0), 13)));
        assert_eq!(clock("10:11 PM"), Some((22, 11, None, None, 8)));
        assert_eq!(clock("12:05 AM"), Some((0, 5, None, None, 8)));
        assert_eq!(clock("12:05 p.m."), Some((12, 5, None, None, 10)));
        assert_eq!(clock("10pm"), Some((22, 0, None, None, 4)));
        assert_eq!(clock("22h11"), Some((22, 11, None, None, 5)));
        assert_eq!(clock("22 Uhr"), Some((22, 0, None, None, 6)));
        assert_eq!(clock("22.11 Uhr"), Some((22, 11, None, None, 9)));
        assert_eq!(clock("下午 10:11"), Some((22, 11, None, None, 12)));
        assert_eq!(clock("22时11分"), Some((22, 11, None, None, 10)));
        assert_eq!(
            clock("10:46:47 +0200"),
            Some((10, 46, Some(47), Some(7200), 14))
        );
        assert_eq!(
            clock("10:11 GMT -5"),
            Some((10, 11, None, Some(-18000), 12))
        );
        assert_eq!(clock("10:11 (UTC)"), Some((10, 11, None, Some(0), 11)));
        assert_eq!(clock("10:11 - 5 replies"), Some((10, 11, None, None, 5)));
    }

    #[test]
    fn impossible_clocks() {
        for text in [
            "25:61", "24:00", "10:5", "22", "3hours", "22.11", "10:11:5", "0:60",
        ] {
            assert_eq!(clock(text), None, "{text}");
        }
        // A twelve-hour marker after an hour past noon is not read as one: "13:00 pm" ends at
        // "13:00", and German "um 10:11 am 30.03." keeps "am" for the date when the hour is 22.
        assert_eq!(clock("13:00 pm"), Some((13, 0, None, None, 5)));
    }
}
