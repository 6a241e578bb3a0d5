//! Calendar dates without their time: numeric (`30.03.2009`, `03-30-2009`, `2025-3-30`,
//! `2025. 3. 30.`), CJK (`2009年3月30日`, `2009년 3월 30일`, `3月30日`), day before a month name
//! (`30. März 2009`, `30 de marzo de 2009`, `29th of September 2019`, `30-Mar-2009`) and month
//! name first (`Sep 29th, 2019`, `Mar 2025`, `Mar '24`, `Mar 30`).

use jiff::civil::Date;

use super::DayMonthOrder;
use super::calendar::{FetchClock, date_without_year, expand_two_digit_year, make_date};
use super::cursor::{Cursor, Number, is_apostrophe};
use super::lexicon::lexicon;
use super::words::YEAR_SUFFIXES;

/// One reading of a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DateReading {
    /// The date this module prefers.
    pub date: Date,
    /// The date with day and month swapped, when that is also valid and different.
    pub alternative: Option<Date>,
    /// Whether `date` was picked over `alternative` only by the month-first default, so that a
    /// page whose other dates prove day-first order may swap them.
    pub order_by_default: bool,
    /// The order the digits alone prove, for the page-wide decision.
    pub evidence: Option<DayMonthOrder>,
    /// Whether only year and month were given ("Mar 2025", "2009年3月").
    pub month_only: bool,
    /// Whether the year was not printed and came from the fetch instant ("Mar 30").
    pub year_inferred: bool,
    /// Whether it is an ISO-style year-month-day date, which a `T` and a time may follow.
    pub iso_style: bool,
}

impl DateReading {
    fn plain(date: Date) -> DateReading {
        DateReading {
            date,
            alternative: None,
            order_by_default: false,
            evidence: None,
            month_only: false,
            year_inferred: false,
            iso_style: false,
        }
    }
}

/// Reads any date that starts with a digit.
pub(super) fn read_date_from_digit(
    cursor: &mut Cursor<'_>,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<DateReading> {
    // What follows the first number decides which grammars can apply: a separator a numeric
    // date, or a month name when no digit follows it ("30. März", "30-Mar-2009"), and a space,
    // letter or CJK character a month name or a CJK date.
    let mut after = *cursor;
    after.number();
    let separator = matches!(after.peek(), Some('.' | '-' | '/'));
    let digit_after_separator = after.peek_second().is_some_and(|c| c.is_ascii_digit());
    // Korean "2025. 3. 30." puts a space after the dot, so any separator may begin a number.
    let numeric = separator;
    let named = !(separator && digit_after_separator);
    let cjk = !separator;
    let attempts = [
        numeric
            .then(|| attempt(cursor, |probe| read_numeric_date(probe, fetch, order)))
            .flatten(),
        cjk.then(|| attempt(cursor, |probe| read_cjk_date(probe, fetch)))
            .flatten(),
        named
            .then(|| attempt(cursor, |probe| read_day_then_month_name(probe, fetch)))
            .flatten(),
    ];
    // The reading that reaches furthest wins; on a tie, the earlier grammar.
    let (end, reading) = attempts.into_iter().flatten().reduce(|best, next| {
        if next.0.position() > best.0.position() {
            next
        } else {
            best
        }
    })?;
    *cursor = end;
    Some(reading)
}

/// Runs `grammar` on a copy of `cursor` and returns where it ended with what it read.
fn attempt<'text>(
    cursor: &Cursor<'text>,
    grammar: impl FnOnce(&mut Cursor<'text>) -> Option<DateReading>,
) -> Option<(Cursor<'text>, DateReading)> {
    let mut probe = *cursor;
    grammar(&mut probe).map(|reading| (probe, reading))
}

/// Whether a chain of dotted, dashed, slashed or colon-separated numbers goes on at the cursor,
/// as after `10.0.0` in `10.0.0.1`; a date must not be cut out of such a chain.
pub(super) fn chain_continues(cursor: &Cursor<'_>) -> bool {
    matches!(cursor.peek(), Some('.' | '-' | '/' | ':'))
        && cursor.peek_second().is_some_and(|c| c.is_ascii_digit())
}

/// Reads `30.03.2009`, `03-30-2009`, `30/03/09`, `2025/03/30`, `2025-3-30` and `2025. 3. 30.`.
fn read_numeric_date(
    cursor: &mut Cursor<'_>,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<DateReading> {
    let mut probe = *cursor;
    let first = probe.number()?;
    let separator = probe.eat_one_of(&['.', '-', '/'])?;
    // Korean pages write "2025. 3. 30.", with a space after each dot.
    let korean = separator == '.' && first.digits == 4 && probe.skip_one_space();
    let second = probe.number()?;
    if second.digits > 2 {
        return None;
    }
    if !probe.eat(separator) {
        let reading = read_iso_year_and_month(probe, first, separator, second, fetch)?;
        *cursor = probe;
        return Some(reading);
    }
    if korean && !probe.skip_one_space() {
        return None;
    }
    let third = probe.number()?;
    if korean {
        probe.eat('.');
    }
    // "10.0.0.1" and "2019-09-29-1" go on with the same separator; "30.03.2009/31.03.2009" is
    // two dates.
    if probe.peek() == Some(separator) && probe.peek_second().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let reading = if first.digits == 4 {
        if third.digits > 2 {
            return None;
        }
        let date = make_date(first.value as i32, second.value, third.value)?;
        DateReading {
            iso_style: separator == '-',
            ..DateReading::plain(date)
        }
    } else {
        day_and_month(first, second, third, separator, fetch, order)?
    };
    *cursor = probe;
    Some(reading)
}

/// Reads ISO 8601's year and month (`2025-03`), which [`super::ParsedTime::to_iso8601`] prints
/// for [`super::Precision::Month`], so that every printed time reads back. Only a string read as
/// a whole may be one: in running text `2025-03` is as often a range of years or a part number.
fn read_iso_year_and_month(
    after: Cursor<'_>,
    year: Number,
    separator: char,
    month: Number,
    fetch: &FetchClock,
) -> Option<DateReading> {
    if fetch.running_text
        || separator != '-'
        || year.digits != 4
        || month.digits != 2
        || !after.at_token_end()
    {
        return None;
    }
    Some(DateReading {
        month_only: true,
        ..DateReading::plain(make_date(year.value as i32, month.value, 1)?)
    })
}

/// Reads the year-last numeric date `first sep second sep year` by the order rules.
fn day_and_month(
    first: Number,
    second: Number,
    third: Number,
    separator: char,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<DateReading> {
    if first.digits > 2 {
        return None;
    }
    // A two-digit year is trusted only in fully padded dates ("29.09.19"), because "5.1.20" is
    // far more often a version number; or between slashes, which versions never use, and where
    // American short dates leave day and month unpadded ("9/14/16", as phpBB's and vBulletin's
    // `m/d/y` formats print them).
    let padded = first.digits == 2 && second.digits == 2;
    let year = match third.digits {
        4 => third.value as i32,
        2 if padded || separator == '/' => expand_two_digit_year(third.value, fetch),
        _ => return None,
    };
    let day_first = make_date(year, second.value, first.value);
    if separator == '.' {
        return day_first.map(DateReading::plain);
    }
    let month_first = make_date(year, first.value, second.value);
    let reading = match (day_first, month_first) {
        (None, None) => return None,
        (Some(date), None) => DateReading {
            evidence: Some(DayMonthOrder::DayFirst),
            ..DateReading::plain(date)
        },
        (None, Some(date)) => DateReading {
            evidence: Some(DayMonthOrder::MonthFirst),
            ..DateReading::plain(date)
        },
        (Some(day_first), Some(month_first)) if day_first == month_first => {
            DateReading::plain(day_first)
        }
        (Some(day_first), Some(month_first)) => {
            let (date, alternative) = match order {
                DayMonthOrder::DayFirst => (day_first, month_first),
                _ => (month_first, day_first),
            };
            DateReading {
                alternative: Some(alternative),
                order_by_default: order == DayMonthOrder::Unknown,
                ..DateReading::plain(date)
            }
        }
    };
    Some(reading)
}

/// Reads `2009年3月30日`, `2009 年 3 月 30 日`, `2009년 3월 30일`, `2009年3月` (month only) and
/// `3月30日` (year from the fetch instant).
fn read_cjk_date(cursor: &mut Cursor<'_>, fetch: &FetchClock) -> Option<DateReading> {
    let mut probe = *cursor;
    let first = probe.number()?;
    probe.skip_spaces();
    if first.digits == 4 && probe.eat_one_of(&['年', '년']).is_some() {
        probe.skip_spaces();
        let month = probe.small_number(1..=12)?;
        probe.skip_spaces();
        probe.eat_one_of(&['月', '월'])?;
        let mut day_probe = probe;
        day_probe.skip_spaces();
        let reading = match day_probe.small_number(1..=31) {
            Some(day) => {
                day_probe.skip_spaces();
                day_probe.eat_one_of(&['日', '일'])?;
                probe = day_probe;
                DateReading::plain(make_date(first.value as i32, month, day)?)
            }
            None => DateReading {
                month_only: true,
                ..DateReading::plain(make_date(first.value as i32, month, 1)?)
            },
        };
        *cursor = probe;
        return Some(reading);
    }
    if first.digits > 2 || probe.eat_one_of(&['月', '월']).is_none() {
        return None;
    }
    probe.skip_spaces();
    let day = probe.small_number(1..=31)?;
    probe.skip_spaces();
    probe.eat_one_of(&['日', '일'])?;
    let date = date_without_year(first.value, day, fetch)?;
    *cursor = probe;
    Some(DateReading {
        year_inferred: true,
        ..DateReading::plain(date)
    })
}

/// Reads a day number's ordinal ending ("29th", "1er", "1º") or German dot ("30."), and returns
/// whether there was a dot.
fn skip_ordinal(cursor: &mut Cursor<'_>) -> bool {
    if cursor.eat('.') {
        return true;
    }
    let mut probe = *cursor;
    if let Some(word) = probe.word()
        && ["st", "nd", "rd", "th", "er", "e", "ème", "eme", "º", "ª"]
            .iter()
            .any(|ending| word.eq_ignore_ascii_case(ending))
    {
        *cursor = probe;
    }
    false
}

/// Skips a word such as "de" or "of" that may sit between parts of a date, with its spaces.
fn skip_particle(cursor: &mut Cursor<'_>) {
    let mut probe = *cursor;
    if let Some(word) = probe.word()
        && lexicon()
            .meaning(word)
            .is_some_and(|meaning| meaning.date_particle)
        && probe.skip_spaces()
    {
        *cursor = probe;
    }
}

/// A month name just read.
struct MonthWord {
    /// 1..=12.
    month: u32,
    /// An English name or abbreviation written with a capital ("Mar", "March"): trusted without
    /// a year wherever it stands ("Mar 30", "30 March"), while "may" and "march" are verbs.
    english_capitalised: bool,
    /// A full name in another language ("März", "mars", "marzo", "марта"): trusted without a
    /// year after a day number ("12. März", "12 mars"), where no such word is anything but a
    /// month.
    other_full_name: bool,
}

/// Reads a month name. A month that `leads` the date must be one that may start an expression
/// (not an abbreviation such as "sie" or "out" that is a word elsewhere).
fn read_month_name(cursor: &mut Cursor<'_>, leads: bool) -> Option<MonthWord> {
    let mut probe = *cursor;
    let word = probe.word()?;
    let meaning = lexicon().meaning(word)?;
    let month = meaning.month?;
    if leads && !meaning.month_may_lead {
        return None;
    }
    let capitalised = word.chars().next().is_some_and(char::is_uppercase);
    probe.eat('.');
    *cursor = probe;
    Some(MonthWord {
        month: u32::from(month),
        english_capitalised: meaning.english_month && capitalised,
        other_full_name: meaning.month_may_lead && !meaning.english_month,
    })
}

/// Reads a year: four digits, or an apostrophe and two digits ("'24"), then a Russian or Polish
/// year word if present.
fn read_year(cursor: &mut Cursor<'_>, fetch: &FetchClock) -> Option<i32> {
    let mut probe = *cursor;
    let apostrophe = probe.peek().is_some_and(is_apostrophe);
    if apostrophe {
        probe.next_char();
    }
    let number = probe.number()?;
    let year = match (apostrophe, number.digits) {
        (false, 4) => number.value as i32,
        (true, 2) => expand_two_digit_year(number.value, fetch),
        _ => return None,
    };
    if !probe.at_token_end() || chain_continues(&probe) {
        return None;
    }
    let mut suffix = probe;
    suffix.skip_spaces();
    if suffix.eat_listed(&YEAR_SUFFIXES).is_some() {
        probe = suffix;
    }
    *cursor = probe;
    Some(year)
}

/// Whether a date may end here without a year: the day or month just read must not be part of
/// a longer number chain, and no number that looks like a year may follow (a broken year such as
/// "2009abc" must not leave "30 March" behind as a date of the current year).
fn may_end_without_year(cursor: &Cursor<'_>) -> bool {
    if !cursor.at_token_end() || chain_continues(cursor) {
        return false;
    }
    let mut probe = *cursor;
    probe.eat(',');
    probe.skip_spaces();
    if probe.peek().is_some_and(is_apostrophe) {
        return false;
    }
    probe.number().is_none_or(|number| number.digits < 3)
}

/// Reads `30 March 2009`, `30. März 2009`, `30 de marzo de 2009`, `29th of September, 2019`,
/// `30 Mar '24`, `30-Mar-2009`, `30 марта 2009 г.`, and `30 March` without a year.
fn read_day_then_month_name(cursor: &mut Cursor<'_>, fetch: &FetchClock) -> Option<DateReading> {
    let mut probe = *cursor;
    let day = probe.small_number(1..=31)?;
    let dotted = skip_ordinal(&mut probe);
    let separator = probe.eat_one_of(&['-', '/']);
    if separator.is_none() && !probe.skip_spaces() && !dotted {
        return None;
    }
    skip_particle(&mut probe);
    let month_word = read_month_name(&mut probe, false)?;
    let month = month_word.month;
    // After a day number a month stands without a year when it is plainly a month: an English
    // name with a capital, a full name of another language, or any name after a day written
    // with a dot ("12. Okt."), which German-speaking forums print for dates of the current
    // year.
    let trusted_without_year =
        month_word.english_capitalised || month_word.other_full_name || dotted;
    let mut year_probe = probe;
    let year = match separator {
        Some(separator) => {
            if !year_probe.eat(separator) {
                return None;
            }
            let number = year_probe.number()?;
            match number.digits {
                4 => Some(number.value as i32),
                2 => Some(expand_two_digit_year(number.value, fetch)),
                _ => None,
            }
        }
        None => {
            year_probe.eat(',');
            year_probe.skip_spaces();
            skip_particle(&mut year_probe);
            read_year(&mut year_probe, fetch)
        }
    };
    let reading = match year {
        Some(year) => {
            probe = year_probe;
            DateReading::plain(make_date(year, month, day)?)
        }
        None if trusted_without_year && separator.is_none() && may_end_without_year(&probe) => {
            DateReading {
                year_inferred: true,
                ..DateReading::plain(date_without_year(month, day, fetch)?)
            }
        }
        None => return None,
    };
    *cursor = probe;
    Some(reading)
}

/// Reads `Sep 29th, 2019`, `March 30 2009`, `Mar. 30, '24`, `Mar 2025`, `März 2025`,
/// `March, 2025`, `Mar '24` and `Mar 30` without a year.
pub(super) fn read_month_name_first(
    cursor: &mut Cursor<'_>,
    fetch: &FetchClock,
) -> Option<DateReading> {
    let mut probe = *cursor;
    let month_word = read_month_name(&mut probe, true)?;
    let (month, trusted_without_year) = (month_word.month, month_word.english_capitalised);
    // Month and year alone: "Mar 2025", "March, 2025", "Mar '24".
    let mut year_probe = probe;
    year_probe.eat(',');
    if year_probe.skip_spaces()
        && let Some(year) = read_year(&mut year_probe, fetch)
    {
        *cursor = year_probe;
        return Some(DateReading {
            month_only: true,
            ..DateReading::plain(make_date(year, month, 1)?)
        });
    }
    if !probe.skip_spaces() {
        return None;
    }
    let day = probe.small_number(1..=31)?;
    skip_ordinal(&mut probe);
    let mut year_probe = probe;
    year_probe.eat(',');
    year_probe.skip_spaces();
    let reading = match read_year(&mut year_probe, fetch) {
        Some(year) => {
            probe = year_probe;
            DateReading::plain(make_date(year, month, day)?)
        }
        None if trusted_without_year && may_end_without_year(&probe) => DateReading {
            year_inferred: true,
            ..DateReading::plain(date_without_year(month, day, fetch)?)
        },
        None => return None,
    };
    *cursor = probe;
    Some(reading)
}
