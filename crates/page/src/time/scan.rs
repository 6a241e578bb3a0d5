//! The walk over a page's text, and the entry points that read one string.
//!
//! The walk classifies eight bytes at a time and stops only where something may start: the
//! first letter or digit of a word (one after a space or punctuation) and any non-ASCII
//! character. A word whose first three letters begin no start word, a number that continues a
//! chain such as `10.0.0.1`, and a CJK character that begins no relative word are dismissed with
//! one table test each. Everywhere else the start table of the lexicon says which grammars may
//! begin there; they are tried, and the longest match wins and moves the walk past it.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::absolute::{self, longer};
use super::calendar::{FIRST_YEAR, FetchClock, LAST_YEAR};
use super::cursor::{Cursor, is_cjk, is_space, is_word_char, lowercase_first};
use super::lexicon::{Lexicon, StartKey, StartKinds, lexicon};
use super::relative;
use super::{DateContext, DayMonthOrder, ParsedTime, Precision, TimeMatch};

/// A match as the grammars return it, before it becomes a [`TimeMatch`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Found {
    /// Byte offset just past the match.
    pub end: usize,
    pub time: ParsedTime,
    pub alternative: Option<ParsedTime>,
    /// Whether `time` was picked over `alternative` only by the month-first default.
    pub order_by_default: bool,
    /// The day and month order the digits of this match prove.
    pub evidence: Option<DayMonthOrder>,
}

/// Finds every date and time expression in `text`, in order and without overlaps, with byte
/// offsets. Ambiguous numeric dates follow the order the page's provable dates show (see the
/// module documentation).
pub fn find_times(text: &str, context: &DateContext) -> Vec<TimeMatch> {
    let mut walk = Walk::new(text, context, true);
    walk.run();
    let mut found = walk.found;
    if context.day_month_order == DayMonthOrder::Unknown {
        follow_page_order(&mut found);
    }
    found
        .into_iter()
        .map(|(start, result)| TimeMatch {
            start,
            end: result.end,
            time: result.time,
            alternative: result.alternative,
            order_by_default: result.order_by_default,
            evidence: result.evidence,
        })
        .collect()
}

/// The state of one walk over a text.
struct Walk<'text> {
    text: &'text str,
    fetch: FetchClock,
    order: DayMonthOrder,
    lexicon: &'static Lexicon,
    found: Vec<(usize, Found)>,
    /// Where the last match ended: a separator right after a match ("30.03.2009/31.03.2009")
    /// does not make the next number part of a chain.
    last_end: usize,
    /// Whether to try the grammars at candidates, or only to count them.
    try_grammars: bool,
    /// How many places the grammars were or would have been tried at.
    candidates: usize,
}

impl<'text> Walk<'text> {
    fn new(text: &'text str, context: &DateContext, try_grammars: bool) -> Walk<'text> {
        Walk {
            text,
            fetch: FetchClock::new(context, true),
            order: context.day_month_order,
            lexicon: lexicon(),
            found: Vec::new(),
            last_end: usize::MAX,
            try_grammars,
            candidates: 0,
        }
    }

    /// Walks the whole text.
    fn run(&mut self) {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut index = 0;
        let mut boundary_before = true;
        // Eight bytes at a time: the candidates of a chunk are the bits of one mask, and most
        // are words that begin like no start word, dismissed without leaving the loop.
        'chunks: while let Some(chunk) = bytes.get(index..index + 8) {
            let Ok(array) = <[u8; 8]>::try_from(chunk) else {
                break;
            };
            let classes = ChunkClasses::of(u64::from_le_bytes(array));
            let boundaries = (classes.boundary << 8) | if boundary_before { 0x80 } else { 0 };
            let mut candidates = (classes.word & boundaries) | classes.non_ascii;
            while candidates != 0 {
                let position = index + (candidates.trailing_zeros() / 8) as usize;
                candidates &= candidates - 1;
                let byte = bytes.get(position).copied().unwrap_or_default();
                let dismissed = match BYTE_CLASS[usize::from(byte)] {
                    LETTER => !self.lexicon.ascii_prefix_may_start(bytes, position),
                    DIGIT => {
                        continues_number_chain(bytes, position)
                            && self.last_end != position.wrapping_sub(1)
                    }
                    _ => false,
                };
                if dismissed {
                    continue;
                }
                let next = self.visit_from_boundary(position);
                if next != position + 1 {
                    // A match or a run of non-ASCII text moved the walk: start a new chunk there.
                    index = next;
                    boundary_before = !ends_inside_word(text, index);
                    continue 'chunks;
                }
            }
            boundary_before = classes.boundary >> 63 != 0;
            index += 8;
        }
        // The last few bytes, one at a time.
        while let Some(&byte) = bytes.get(index) {
            let class = BYTE_CLASS[usize::from(byte)];
            if class == NON_ASCII || (class != OTHER && boundary_before) {
                let next = self.visit_from_boundary(index);
                boundary_before = !ends_inside_word(text, next);
                index = next;
            } else {
                boundary_before = class == OTHER;
                index += 1;
            }
        }
    }

    /// Visits a candidate that follows a boundary, or any non-ASCII character, and then the rest
    /// of a run of non-ASCII text character by character: every CJK character may start an
    /// expression, and other scripts' words end at no ASCII boundary. Returns where the walk
    /// goes on.
    fn visit_from_boundary(&mut self, position: usize) -> usize {
        let text = self.text;
        let bytes = text.as_bytes();
        let Some(&first) = bytes.get(position) else {
            return position + 1;
        };
        if first < 0x80 {
            return self.visit(position, char::from(first), false);
        }
        let mut index = position;
        let mut after_word = ends_inside_word(text, position);
        // The run goes on until a space or ASCII punctuation; knowing the character just
        // visited tells whether the next one follows a word, without decoding backwards.
        while let Some(character) = suffix(text, index).chars().next() {
            if character.is_ascii() && BYTE_CLASS[usize::from(character as u8)] == OTHER {
                break;
            }
            // Most characters of CJK text start nothing; one bit says so.
            if is_cjk(character) && !self.lexicon.may_start_cjk(character) {
                index += character.len_utf8();
                after_word = false;
                continue;
            }
            let next = self.visit(index, character, after_word);
            if next == index + character.len_utf8() {
                after_word =
                    !is_cjk(character) && (is_word_char(character) || character.is_ascii_digit());
            } else {
                after_word = ends_inside_word(text, next);
            }
            index = next;
        }
        index
    }

    /// Tries the grammars at `position`, where `character` is, when an expression may start
    /// there, records a match, and returns where the walk goes on: after the match, or after
    /// this character. `after_word` says whether a letter or digit comes right before, which
    /// forbids a start of anything but a CJK word.
    fn visit(&mut self, position: usize, character: char, after_word: bool) -> usize {
        let text = self.text;
        let bytes = text.as_bytes();
        let kinds = if character.is_ascii_digit() {
            let chained = continues_number_chain(bytes, position)
                && self.last_end != position.wrapping_sub(1);
            if after_word || chained {
                StartKinds::default()
            } else {
                StartKinds::ALL
            }
        } else if character.is_ascii() {
            // Most words begin like no start word and are passed over without hashing.
            if !character.is_ascii_alphabetic()
                || after_word
                || !self.lexicon.ascii_prefix_may_start(bytes, position)
            {
                StartKinds::default()
            } else {
                self.lexicon.start_kinds(word_start_key(text, position))
            }
        } else if is_cjk(character) {
            // CJK words have no spaces around them: any CJK character may start one.
            self.lexicon.cjk_start_kinds(character)
        } else if is_word_char(character) && !after_word {
            self.lexicon.start_kinds(word_start_key(text, position))
        } else {
            StartKinds::default()
        };
        if kinds.is_empty() {
            return position + character.len_utf8();
        }
        self.candidates += 1;
        if self.try_grammars
            && let Some(result) = match_at(text, position, kinds, &self.fetch, self.order)
        {
            self.found.push((position, result));
            self.last_end = result.end;
            return result.end;
        }
        position + character.len_utf8()
    }
}

/// The classes of the eight bytes of a `u64`, one flag in the high bit of each byte.
struct ChunkClasses {
    /// ASCII letters and digits.
    word: u64,
    /// Spaces and ASCII punctuation, after which a word starts.
    boundary: u64,
    /// Bytes of non-ASCII characters.
    non_ascii: u64,
}

impl ChunkClasses {
    fn of(word: u64) -> ChunkClasses {
        let splat = |byte: u8| u64::from(byte) * 0x0101_0101_0101_0101;
        let high_bits = splat(0x80);
        // With the high bit of each byte cleared, adding never carries into the next byte, and
        // the high bit of each sum tells whether the byte reached a bound.
        let in_range = |value: u64, low: u8, high: u8| {
            let seven_bits = value & splat(0x7f);
            (seven_bits + splat(0x80 - low)) & !(seven_bits + splat(0x7f - high)) & high_bits
        };
        let non_ascii = word & high_bits;
        let letters_or_digits =
            (in_range(word | splat(0x20), b'a', b'z') | in_range(word, b'0', b'9')) & !non_ascii;
        ChunkClasses {
            word: letters_or_digits,
            boundary: !letters_or_digits & !non_ascii & high_bits,
            non_ascii,
        }
    }
}

/// Reads `text` as one expression, ignoring spaces around it (an attribute value such as
/// `title="Mar 30, 2025 at 10:11 PM"` or `datetime="2025-03-30T22:11:05+0000"`).
pub fn parse_time(text: &str, context: &DateContext) -> Option<ParsedTime> {
    parse_time_with_alternative(text, context).map(|found| found.time)
}

/// Like [`parse_time`], and keeps the alternative reading of an ambiguous day and month; the
/// match covers the whole of `text`.
pub fn parse_time_with_alternative(text: &str, context: &DateContext) -> Option<TimeMatch> {
    let trimmed = text.trim_matches(is_space);
    let start = text.len() - text.trim_start_matches(is_space).len();
    let fetch = FetchClock::new(context, false);
    let result = match_at(
        text,
        start,
        StartKinds::ALL,
        &fetch,
        context.day_month_order,
    )?;
    if result.end != start + trimmed.len() {
        return None;
    }
    Some(TimeMatch {
        start,
        end: result.end,
        time: result.time,
        alternative: result.alternative,
        order_by_default: result.order_by_default,
        evidence: result.evidence,
    })
}

/// Reads the Unix time that engines put in `data-time` attributes: 9 or 10 digits are seconds,
/// 12 or 13 digits milliseconds. The result is UTC (`explicit_offset_seconds` is zero).
pub fn parse_unix_time(text: &str) -> Option<ParsedTime> {
    let digits = text.trim_matches(is_space);
    if !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let value: i64 = digits.parse().ok()?;
    let timestamp = match digits.len() {
        9 | 10 => Timestamp::from_second(value).ok()?,
        12 | 13 => Timestamp::from_millisecond(value).ok()?,
        _ => return None,
    };
    let local = timestamp.to_zoned(TimeZone::UTC).datetime();
    let local = local.with().subsec_nanosecond(0).build().ok()?;
    if !(FIRST_YEAR..=LAST_YEAR).contains(&i32::from(local.year())) {
        return None;
    }
    Some(ParsedTime {
        local,
        precision: Precision::Second,
        explicit_offset_seconds: Some(0),
        relative: false,
        ambiguous_day_month: false,
    })
}

/// The longest match at byte `position` of the grammars that `kinds` allows there.
fn match_at(
    text: &str,
    position: usize,
    kinds: StartKinds,
    fetch: &FetchClock,
    order: DayMonthOrder,
) -> Option<Found> {
    let cursor = Cursor::new(text, position);
    let result = if cursor.peek()?.is_ascii_digit() {
        let shape = NumberShape::at(text, position);
        let date_first = shape
            .may_begin_date()
            .then(|| absolute::read_date_then_clock(cursor, fetch, order));
        let clock_first = shape
            .may_begin_clock()
            .then(|| absolute::read_clock_then_date(cursor, fetch, order));
        let amounts = shape
            .may_begin_amount()
            .then(|| relative::read_from_digit(cursor, fetch));
        longer(
            longer(date_first.flatten(), clock_first.flatten()),
            amounts.flatten(),
        )
    } else {
        longer(
            absolute::read_from_letter(cursor, kinds, fetch, order),
            relative::read_from_word(cursor, kinds, fetch),
        )
    };
    // A match must end where a word or number ends; "30 March 2009abc" is not a date.
    result.filter(|found| {
        let next_continues = suffix(text, found.end)
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || is_word_char(c));
        found.end > position && !(ends_inside_word(text, found.end) && next_continues)
    })
}

/// The number a start begins with and the character after it, which decide cheaply which
/// grammars can match there at all: the grammars are the expensive part of a start, and most
/// numbers of a page ("1,299", "42%", "192.168.1.20", post counts) are no date.
#[derive(Debug, Clone, Copy)]
struct NumberShape {
    digits: usize,
    next: Option<char>,
}

impl NumberShape {
    fn at(text: &str, position: usize) -> NumberShape {
        let rest = suffix(text, position);
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        NumberShape {
            digits,
            next: suffix(rest, digits).chars().next(),
        }
    }

    /// Days, months and years have one, two or four digits and are followed by a separator, a
    /// space, an ordinal ending, or a CJK date character.
    fn may_begin_date(self) -> bool {
        matches!(self.digits, 1 | 2 | 4)
            && self.next.is_some_and(|c| {
                matches!(c, '.' | '-' | '/') || is_space(c) || c.is_alphabetic() || !c.is_ascii()
            })
    }

    /// A clock before its date has an hour of one or two digits and a colon.
    fn may_begin_clock(self) -> bool {
        self.digits <= 2 && self.next == Some(':')
    }

    /// An amount of "N units ago" is followed by a space, a unit letter or a CJK unit.
    fn may_begin_amount(self) -> bool {
        self.digits <= 6
            && self
                .next
                .is_some_and(|c| is_space(c) || c.is_ascii_alphabetic() || !c.is_ascii())
    }
}

/// The text from `index` on, empty when `index` is not a character boundary.
fn suffix(text: &str, index: usize) -> &str {
    text.get(index..).unwrap_or("")
}

/// Whether the digit at `index` continues a chain such as `10.0.0.1` or `1,299.00`'s cents:
/// a separator right before it with a digit before that.
fn continues_number_chain(bytes: &[u8], index: usize) -> bool {
    let before = index.checked_sub(1).and_then(|i| bytes.get(i));
    let two_before = index.checked_sub(2).and_then(|i| bytes.get(i));
    matches!(before, Some(b'.' | b'-' | b'/' | b':')) && two_before.is_some_and(u8::is_ascii_digit)
}

/// The start key (see [`super::lexicon::start_key`]) of the word at `index`, built from its leading letters
/// without decoding ASCII.
fn word_start_key(text: &str, index: usize) -> Option<u32> {
    let bytes = text.as_bytes();
    let mut key = StartKey::new();
    let mut end = index;
    while let Some(&byte) = bytes.get(end) {
        if byte.is_ascii_alphabetic() {
            key.push(char::from(byte.to_ascii_lowercase()));
            end += 1;
        } else if byte < 0x80 {
            break;
        } else {
            match suffix(text, end).chars().next() {
                Some(character) if is_word_char(character) => {
                    key.push(lowercase_first(character));
                    end += character.len_utf8();
                }
                _ => break,
            }
        }
    }
    key.finish()
}

/// The class of a byte for the walk: other ASCII (spaces, punctuation), ASCII letter, ASCII
/// digit, or part of a longer UTF-8 character.
const BYTE_CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut byte = 0;
    while byte < 256 {
        let value = byte as u8;
        table[byte] = if value.is_ascii_alphabetic() {
            LETTER
        } else if value.is_ascii_digit() {
            DIGIT
        } else if value >= 0x80 {
            NON_ASCII
        } else {
            OTHER
        };
        byte += 1;
    }
    table
};
const OTHER: u8 = 0;
const LETTER: u8 = 1;
const DIGIT: u8 = 2;
const NON_ASCII: u8 = 3;

/// Whether the character just before `end` is a letter or digit that a following one would
/// continue, so that no match may start right at `end`.
fn ends_inside_word(text: &str, end: usize) -> bool {
    text.get(..end)
        .and_then(|before| before.chars().next_back())
        .is_some_and(|c| c.is_ascii_digit() || is_word_char(c))
}

/// Applies the page-wide order rule: when every numeric date whose digits prove an order is day
/// first, ambiguous dates that only the month-first default decided are read day first too.
fn follow_page_order(found: &mut [(usize, Found)]) {
    let proves = |order: DayMonthOrder| found.iter().any(|(_, f)| f.evidence == Some(order));
    if !proves(DayMonthOrder::DayFirst) || proves(DayMonthOrder::MonthFirst) {
        return;
    }
    for (_, result) in found.iter_mut() {
        if let (true, Some(alternative)) = (result.order_by_default, result.alternative) {
            result.alternative = Some(result.time);
            result.time = alternative;
            result.order_by_default = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexicon::start_key;
    use super::*;

    #[test]
    fn the_walk_builds_the_lexicon_start_key() {
        for word in [
            "Yesterday",
            "MÄRZ",
            "il",
            "aujourd'hui",
            "Сегодня",
            "dün",
            "x9",
        ] {
            assert_eq!(word_start_key(word, 0), start_key(word.chars()), "{word}");
        }
    }

    #[test]
    fn eight_byte_classes_agree_with_the_byte_table() {
        let text = "Re: Fan noise #12 by member12 » Mon Mar 13, 2025 1:24 pm, Grüße 昨天 ok.";
        for chunk in text.as_bytes().chunks_exact(8) {
            let mut array = [0u8; 8];
            array.copy_from_slice(chunk);
            let classes = ChunkClasses::of(u64::from_le_bytes(array));
            for (offset, &byte) in chunk.iter().enumerate() {
                let bit = |mask: u64| mask >> (offset * 8 + 7) & 1 == 1;
                let class = BYTE_CLASS[usize::from(byte)];
                assert_eq!(
                    bit(classes.word),
                    class == LETTER || class == DIGIT,
                    "{byte}"
                );
                assert_eq!(bit(classes.boundary), class == OTHER, "{byte}");
                assert_eq!(bit(classes.non_ascii), class == NON_ASCII, "{byte}");
            }
        }
    }

    #[test]
    fn byte_classes() {
        assert_eq!(BYTE_CLASS[usize::from(b'a')], LETTER);
        assert_eq!(BYTE_CLASS[usize::from(b'Z')], LETTER);
        assert_eq!(BYTE_CLASS[usize::from(b'7')], DIGIT);
        assert_eq!(BYTE_CLASS[usize::from(b' ')], OTHER);
        assert_eq!(BYTE_CLASS[0xe4], NON_ASCII);
    }
}
