//! Whole absolute expressions: a date with the weekday, time and zone around it.
//!
//! The date grammars in `dates` read only the date; this module adds what may come before it
//! (a weekday name, French "le", a time as in `22:11, 30.03.2009`) and after it (a bracketed
//! weekday, a joining word and a time), and settles the day and month order when a weekday
//! agrees with only one reading.

use jiff::civil::Date;

use super::DayMonthOrder;
use super::calendar::{Clock, FetchClock, date_and_clock, make_date, month_only};
use super::clock::{ClockForms, read_clock};
use super::cursor::{Cursor, is_space};
use super::dates::{DateReading, read_date_from_digit, read_month_name_first};
use super::lexicon::{StartKinds, lexicon};
use super::scan::Found;
use super::words::{BRACKET_WEEKDAYS, CJK_WEEKDAYS};

/// Reads an absolute expression that starts with a date whose first number is at `start`, and
/// the time after it.
pub(super) fn read_date_then_clock(
    start: Cursor<'_>,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<Found> {
    let mut probe = start;
    let reading = read_date_from_digit(&mut probe, fetch, order)?;
    finish_date(probe, reading, None)
}

/// Reads an absolute expression that starts with a letter: a date behind a weekday name or
/// French "le", or a date whose month name comes first.
pub(super) fn read_from_letter(
    start: Cursor<'_>,
    kinds: StartKinds,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<Found> {
    let month_first = kinds.has(StartKinds::MONTH).then(|| {
        let mut probe = start;
        read_month_name_first(&mut probe, fetch)
            .and_then(|reading| finish_date(probe, reading, None))
    });
    let behind_weekday = kinds
        .has(StartKinds::WEEKDAY)
        .then(|| read_weekday_then_date(start, fetch, order));
    let behind_le = kinds
        .has(StartKinds::LE)
        .then(|| read_le_then_date(start, fetch, order));
    longer(
        longer(month_first.flatten(), behind_weekday.flatten()),
        behind_le.flatten(),
    )
}

/// The match that reaches further, the first on a tie.
pub(super) fn longer(first: Option<Found>, second: Option<Found>) -> Option<Found> {
    match (first, second) {
        (Some(a), Some(b)) => Some(if b.end > a.end { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Reads a date that starts at `cursor`, whether with a digit or with a month name.
fn read_any_date(
    cursor: &mut Cursor<'_>,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<DateReading> {
    if cursor.peek().is_some_and(|c| c.is_ascii_digit()) {
        read_date_from_digit(cursor, fetch, order)
    } else {
        read_month_name_first(cursor, fetch)
    }
}

/// Reads `Mon Mar 30, 2009`, `Sun, 29 Sep 2019`, `Montag, 30. März 2009`, `segunda-feira, 30
/// de março de 2009` and `星期一 2009-03-30`.
fn read_weekday_then_date(
    start: Cursor<'_>,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<Found> {
    let mut probe = start;
    let weekday = read_weekday(&mut probe, false)?;
    probe.eat('.');
    probe.eat_phrase("-feira");
    let comma = probe.eat(',');
    if !probe.skip_spaces() && !comma {
        return None;
    }
    let reading = read_any_date(&mut probe, fetch, order)?;
    finish_date(probe, reading, Some(weekday))
}

/// Reads a weekday name, any when `full_only` is false, and returns it (0 = Monday).
pub(super) fn read_weekday(cursor: &mut Cursor<'_>, full_only: bool) -> Option<u8> {
    if let Some(weekday) = cursor.eat_listed(&CJK_WEEKDAYS) {
        return Some(weekday);
    }
    let mut probe = *cursor;
    let word = probe.word()?;
    let meaning = lexicon().meaning(word)?;
    let weekday = meaning.weekday?;
    if full_only && !meaning.full_weekday {
        return None;
    }
    *cursor = probe;
    Some(weekday)
}

/// Reads French `le 30/03/2009`, whose numbers are day first.
fn read_le_then_date(start: Cursor<'_>, fetch: &FetchClock, order: DayMonthOrder) -> Option<Found> {
    let mut probe = start;
    if !probe.eat_phrase("le") || !probe.skip_spaces() {
        return None;
    }
    let order = match order {
        DayMonthOrder::MonthFirst => order,
        _ => DayMonthOrder::DayFirst,
    };
    let reading = read_date_from_digit(&mut probe, fetch, order)?;
    finish_date(probe, reading, None)
}

/// Reads `22:11, 30.03.2009`, `10:11 PM on Mar 30, 2009` and `22:11 le 30/03/2009`.
pub(super) fn read_clock_then_date(
    start: Cursor<'_>,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<Found> {
    let mut probe = start;
    let clock = read_clock(&mut probe, ClockForms::ColonOnly)?;
    probe.skip_spaces();
    if probe
        .eat_one_of(&[',', '-', '\u{2013}', '\u{2014}', '|', '@', '\u{b7}'])
        .is_some()
    {
        probe.skip_spaces();
    }
    let mut word_probe = probe;
    if let Some(word) = word_probe.word()
        && ["on", "le", "am", "den", "el", "del", "de", "dne"]
            .iter()
            .any(|joiner| word.eq_ignore_ascii_case(joiner))
        && word_probe.skip_spaces()
    {
        probe = word_probe;
    }
    let mut reading = read_any_date(&mut probe, fetch, order)?;
    if reading.month_only {
        return None;
    }
    let mut after = probe;
    if let Some(weekday) = read_bracketed_weekday(&mut after) {
        probe = after;
        settle_order_by_weekday(&mut reading, weekday);
    }
    Some(found(probe.position(), &reading, Some(clock)))
}

/// Completes a date read up to `probe`: a bracketed weekday, then a joining word and a time.
fn finish_date(
    mut probe: Cursor<'_>,
    mut reading: DateReading,
    weekday: Option<u8>,
) -> Option<Found> {
    if reading.month_only {
        return Some(found(probe.position(), &reading, None));
    }
    let mut weekday = weekday;
    let mut after = probe;
    if let Some(bracketed) = read_bracketed_weekday(&mut after) {
        probe = after;
        weekday = weekday.or(Some(bracketed));
    }
    if let Some(weekday) = weekday {
        settle_order_by_weekday(&mut reading, weekday);
    }
    let mut time_probe = probe;
    let mut joiner = Joiner::None;
    let clock = if reading.iso_style && time_probe.eat_one_of(&['T', 't']).is_some() {
        read_clock(&mut time_probe, ClockForms::ColonOnly)
    } else {
        joiner = skip_joiner(&mut time_probe);
        read_clock(&mut time_probe, ClockForms::All)
    };
    if clock.is_some() {
        probe = time_probe;
        if joiner == Joiner::DayFirstLanguage {
            settle_order_by_language(&mut reading);
        }
        if reading.year_inferred {
            take_year_after_clock(&mut probe, &mut reading);
        }
    }
    Some(found(probe.position(), &reading, clock))
}

/// What joined a date to its clock, as far as it tells the day and month order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Joiner {
    /// Spaces, punctuation, or a joining word of English ("at", "on"), whose writers put the
    /// month first in the United States and the day first elsewhere.
    None,
    /// A joining word of a language whose numeric dates are always day first: German "um",
    /// French "à", Spanish "a las", Italian "alle", Portuguese "às", Dutch "om", Russian "в",
    /// Polish "o", the Scandinavian "kl.".
    DayFirstLanguage,
}

/// Reads an ambiguous numeric date day first when the words around it are of a language that
/// writes dates day first ("04/05/2016 à 21:05" is the 4th of May), unless the caller knows the
/// forum's order; the month-first default is for English pages, which join with "at".
fn settle_order_by_language(reading: &mut DateReading) {
    if !reading.order_by_default {
        return;
    }
    if let Some(alternative) = reading.alternative {
        reading.alternative = Some(reading.date);
        reading.date = alternative;
        reading.order_by_default = false;
    }
}

/// Takes the year that `date(1)`, C's `asctime` and the mail archives built on them print after
/// the clock and its zone ("Wed May  4 21:05:12 CEST 2016", "Wed May 4 21:05:12 2016") for a
/// date read without one; without it the date would silently take the fetch year.
fn take_year_after_clock(probe: &mut Cursor<'_>, reading: &mut DateReading) {
    let mut year_probe = *probe;
    if !year_probe.skip_spaces() {
        return;
    }
    let Some(number) = year_probe.number() else {
        return;
    };
    if number.digits != 4 || !year_probe.at_token_end() {
        return;
    }
    let date = reading.date;
    let Some(dated) = make_date(number.value as i32, date.month() as u32, date.day() as u32) else {
        return;
    };
    reading.date = dated;
    reading.year_inferred = false;
    *probe = year_probe;
}

/// Skips what may join a date or day word to its time: spaces, a comma, dash or spaced colon, and up to two
/// joining words ("at", "um", "à", "a las", "alle ore", "o godz.", "kl."), and tells whether a
/// word of a day-first language was among them. Whether a time really follows is for the
/// caller to read.
pub(super) fn skip_joiner(cursor: &mut Cursor<'_>) -> Joiner {
    let mut joiner = Joiner::None;
    let mut probe = *cursor;
    let spaced = probe.skip_spaces();
    if probe
        .eat_one_of(&[
            ',', '\u{ff0c}', '@', '-', '\u{2013}', '\u{2014}', '|', '\u{b7}',
        ])
        .is_some()
    {
        probe.skip_spaces();
    } else if spaced && probe.peek() == Some(':') && probe.peek_second().is_some_and(is_space) {
        // A colon between spaces, as old ASP boards print "05/04/2016 : 21:05:12". A colon
        // glued to the date is a label's ("Date: ...") or part of a clock, never a joiner.
        probe.next_char();
        probe.skip_spaces();
    }
    for _ in 0..2 {
        let mut word_probe = probe;
        let Some(word) = word_probe.word() else {
            break;
        };
        if !lexicon()
            .meaning(word)
            .is_some_and(|meaning| meaning.connector)
        {
            break;
        }
        if !["at", "on"]
            .iter()
            .any(|english| word.eq_ignore_ascii_case(english))
        {
            joiner = Joiner::DayFirstLanguage;
        }
        word_probe.eat('.');
        word_probe.skip_spaces();
        probe = word_probe;
    }
    *cursor = probe;
    joiner
}

/// Reads a weekday in brackets after a date: `(月)`, `（月）`, `(Mo)`, `(Monday)`.
fn read_bracketed_weekday(cursor: &mut Cursor<'_>) -> Option<u8> {
    let mut probe = *cursor;
    probe.skip_spaces();
    let open = probe.eat_one_of(&['(', '\u{ff08}'])?;
    probe.skip_spaces();
    let weekday = match probe.eat_listed(&BRACKET_WEEKDAYS) {
        Some(weekday) => weekday,
        None => read_weekday(&mut probe, false)?,
    };
    probe.eat('.');
    probe.skip_spaces();
    let close = if open == '(' { ')' } else { '\u{ff09}' };
    if !probe.eat(close) {
        return None;
    }
    *cursor = probe;
    Some(weekday)
}

/// Keeps the reading of an ambiguous date whose weekday is the one printed beside it.
fn settle_order_by_weekday(reading: &mut DateReading, weekday: u8) {
    let Some(alternative) = reading.alternative else {
        return;
    };
    let matches = |date: Date| date.weekday().to_monday_zero_offset() == weekday as i8;
    if matches(reading.date) == matches(alternative) {
        return;
    }
    if matches(alternative) {
        reading.date = alternative;
    }
    reading.alternative = None;
    reading.order_by_default = false;
}

/// The match for a date reading and the clock that followed it.
fn found(end: usize, reading: &DateReading, clock: Option<Clock>) -> Found {
    let build = |date: Date| {
        let mut time = if reading.month_only {
            month_only(date)
        } else {
            date_and_clock(date, clock)
        };
        time.relative = reading.year_inferred;
        time.ambiguous_day_month = reading.alternative.is_some();
        time
    };
    Found {
        end,
        time: build(reading.date),
        alternative: reading.alternative.map(build),
        order_by_default: reading.order_by_default,
        evidence: reading.evidence,
    }
}
