//! Expressions that need the fetch instant: "just now", "3 hours ago", "vor 3 Stunden",
//! "3小时前", "Yesterday, 10:32 PM", "昨天 22:32", "Sunday at 10:11 PM".

use super::ParsedTime;
use super::Precision;
use super::absolute::{longer, read_weekday, skip_joiner};
use super::calendar::{Amounts, FetchClock, before_fetch, date_and_clock, days_before_fetch};
use super::clock::{ClockForms, read_clock};
use super::cursor::Cursor;
use super::lexicon::{StartKinds, Unit, lexicon};
use super::relative_words::{
    AGO_BEFORE, CJK_AGO_AFTER, CJK_QUANTITIES, CJK_UNITS, DAY_WORDS, MOMENTS,
};
use super::scan::Found;

/// The largest amount of "N units ago" read; larger numbers are not relative dates.
const LARGEST_AMOUNT: u32 = 100_000;

/// Amounts of one expression at most; "1 hour 5 minutes ago" has two.
const MOST_AMOUNTS: usize = 3;

/// Reads a relative expression that starts with a digit ("3 hours ago", "3小时前").
pub(super) fn read_from_digit(start: Cursor<'_>, fetch: &FetchClock) -> Option<Found> {
    read_amounts_then_ago(start, fetch)
}

/// A grammar of relative expressions: where it starts, the fetch instant, and what it read.
type Grammar = fn(Cursor<'_>, &FetchClock) -> Option<Found>;

/// Reads a relative expression that starts with a letter or CJK character.
pub(super) fn read_from_word(
    start: Cursor<'_>,
    kinds: StartKinds,
    fetch: &FetchClock,
) -> Option<Found> {
    let grammars: [(StartKinds, Grammar); 5] = [
        (StartKinds::MOMENT, read_moment),
        (StartKinds::DAY_WORD, read_day_word),
        (StartKinds::WEEKDAY, read_weekday_and_clock),
        (StartKinds::AGO_BEFORE, read_ago_then_amounts),
        (StartKinds::AMOUNT, read_amounts_then_ago),
    ];
    grammars
        .into_iter()
        .filter(|(kind, _)| kinds.has(*kind))
        .fold(None, |best, (_, grammar)| {
            longer(best, grammar(start, fetch))
        })
}

/// A relative match ending at `end`.
fn relative_match(end: usize, mut time: ParsedTime) -> Found {
    time.relative = true;
    Found {
        end,
        time,
        alternative: None,
        order_by_default: false,
        evidence: None,
    }
}

/// Reads "just now", "gerade eben", "刚刚" (the fetch instant, to the second) and "half an hour
/// ago", "半小时前" (thirty minutes before it, to the minute).
fn read_moment(start: Cursor<'_>, fetch: &FetchClock) -> Option<Found> {
    let mut probe = start;
    let seconds = probe.eat_listed(&MOMENTS)?;
    let amounts = Amounts {
        seconds: i64::from(seconds),
        precision: Some(if seconds == 0 {
            Precision::Second
        } else {
            Precision::Minute
        }),
        ..Amounts::default()
    };
    Some(relative_match(
        probe.position(),
        before_fetch(fetch, &amounts)?,
    ))
}

/// Reads "Today", "Yesterday, 10:32 PM", "Gestern um 08:11", "hier à 22:11", "昨天 22:32".
///
/// In running text a day word without a time must be capitalised or CJK: forums print "Today"
/// and "Gestern" as labels, while prose says "upgrade your router today".
fn read_day_word(start: Cursor<'_>, fetch: &FetchClock) -> Option<Found> {
    let mut probe = start;
    let (days_back, needs_clock) = probe.eat_listed(&DAY_WORDS)?;
    let date = days_before_fetch(fetch, i64::from(days_back))?;
    let mut time_probe = probe;
    time_probe.eat('.');
    skip_joiner(&mut time_probe);
    match read_clock(&mut time_probe, ClockForms::All) {
        Some(clock) => Some(relative_match(
            time_probe.position(),
            date_and_clock(date, Some(clock)),
        )),
        None if needs_clock => None,
        None if fetch.running_text && start.peek().is_some_and(char::is_lowercase) => None,
        None => Some(relative_match(probe.position(), date_and_clock(date, None))),
    }
}

/// Reads "Sunday at 10:11 PM", "Sonntag um 22:11", "星期日 22:11": the latest such weekday
/// strictly before the fetch day, at that time.
fn read_weekday_and_clock(start: Cursor<'_>, fetch: &FetchClock) -> Option<Found> {
    let mut probe = start;
    let weekday = read_weekday(&mut probe, true)?;
    probe.eat(',');
    skip_joiner(&mut probe);
    let clock = read_clock(&mut probe, ClockForms::All)?;
    let fetch_weekday = fetch.date().weekday().to_monday_zero_offset();
    let back = match (fetch_weekday - weekday as i8).rem_euclid(7) {
        0 => 7,
        days => days,
    };
    let date = days_before_fetch(fetch, i64::from(back))?;
    Some(relative_match(
        probe.position(),
        date_and_clock(date, Some(clock)),
    ))
}

/// Reads "vor 3 Stunden", "il y a 3 heures", "hace 3 horas", "há 3 horas".
fn read_ago_then_amounts(start: Cursor<'_>, fetch: &FetchClock) -> Option<Found> {
    let mut probe = start;
    probe.eat_listed(&AGO_BEFORE)?;
    if !probe.skip_spaces() {
        return None;
    }
    let amounts = read_amounts(&mut probe)?;
    Some(relative_match(
        probe.position(),
        before_fetch(fetch, &amounts)?,
    ))
}

/// Reads "3 hours ago", "an hour ago", "3 ore fa", "3 часа назад", "час назад", "3小时前",
/// "3 小時前", "3時間前", "3시간 전".
fn read_amounts_then_ago(start: Cursor<'_>, fetch: &FetchClock) -> Option<Found> {
    let mut probe = start;
    let amounts = read_amounts(&mut probe)?;
    probe.skip_spaces();
    if probe.eat_listed(&CJK_AGO_AFTER).is_none() {
        let word = probe.word()?;
        if !lexicon()
            .meaning(word)
            .is_some_and(|meaning| meaning.ago_after)
        {
            return None;
        }
    }
    Some(relative_match(
        probe.position(),
        before_fetch(fetch, &amounts)?,
    ))
}

/// Reads one to three amounts ("3 hours", "1 hour, 5 minutes", "1 Tag und 3 Stunden").
fn read_amounts(cursor: &mut Cursor<'_>) -> Option<Amounts> {
    let mut amounts = Amounts::default();
    let mut probe = *cursor;
    let mut count = 0;
    while count < MOST_AMOUNTS {
        let mut item = probe;
        if count > 0 {
            item.skip_spaces();
            if item.eat(',') {
                item.skip_spaces();
            }
            let mut word_probe = item;
            if let Some(word) = word_probe.word()
                && lexicon()
                    .meaning(word)
                    .is_some_and(|meaning| meaning.and_word)
                && word_probe.skip_spaces()
            {
                item = word_probe;
            }
        }
        let Some((quantity, unit)) = read_amount(&mut item) else {
            break;
        };
        add_amount(&mut amounts, quantity, unit)?;
        probe = item;
        count += 1;
    }
    if count == 0 {
        return None;
    }
    *cursor = probe;
    Some(amounts)
}

/// Reads one amount: a number, a word for one or a CJK numeral, then a unit; or a unit that
/// alone means one of it.
fn read_amount(cursor: &mut Cursor<'_>) -> Option<(u32, Unit)> {
    let mut probe = *cursor;
    let mut quantity = None;
    if probe.peek().is_some_and(|c| c.is_ascii_digit()) {
        let number = probe.number()?;
        if number.value > LARGEST_AMOUNT {
            return None;
        }
        quantity = Some(number.value);
    } else if let Some(value) = probe.eat_listed(&CJK_QUANTITIES) {
        quantity = Some(value);
    } else {
        let mut word_probe = probe;
        if let Some(word) = word_probe.word()
            && lexicon()
                .meaning(word)
                .is_some_and(|meaning| meaning.quantity_one)
            && word_probe.skip_spaces()
        {
            quantity = Some(1);
            probe = word_probe;
        }
    }
    if quantity.is_some() {
        probe.skip_spaces();
    }
    let unit = match probe.eat_listed(&CJK_UNITS) {
        Some(unit) if quantity.is_some() => unit,
        Some(_) => return None,
        None => {
            let word = probe.word()?;
            let meaning = lexicon().meaning(word)?;
            let unit = meaning.unit?;
            if quantity.is_none() && !meaning.unit_alone_means_one {
                return None;
            }
            // "vor 3 Std." and "5 min. ago" write short units with a dot.
            if word.chars().count() <= 3 {
                probe.eat('.');
            }
            if !probe.at_token_end() {
                return None;
            }
            unit
        }
    };
    *cursor = probe;
    Some((quantity.unwrap_or(1), unit))
}

/// Adds `quantity` units to `amounts`; `None` when the sum would overflow.
fn add_amount(amounts: &mut Amounts, quantity: u32, unit: Unit) -> Option<()> {
    let quantity = i64::from(quantity);
    let (slot, multiplier, precision) = match unit {
        Unit::Second => (&mut amounts.seconds, 1, Precision::Second),
        Unit::Minute => (&mut amounts.seconds, 60, Precision::Minute),
        Unit::Hour => (&mut amounts.seconds, 3600, Precision::Minute),
        Unit::Day => (&mut amounts.days, 1, Precision::Day),
        Unit::Week => (&mut amounts.days, 7, Precision::Day),
        Unit::Month => (&mut amounts.months, 1, Precision::Month),
        Unit::Year => (&mut amounts.years, 1, Precision::Month),
    };
    *slot = slot.checked_add(quantity.checked_mul(multiplier)?)?;
    amounts.precision = Some(amounts.precision.map_or(precision, |p| p.max(precision)));
    Some(())
}
