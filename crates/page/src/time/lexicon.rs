//! The words forums print around dates, in the languages the module reads, and the table that
//! tells the scanner which expressions may start where.
//!
//! Single words (months, weekdays, units, "ago", connectors) live in one hash map from the
//! lowercase word to everything it can mean, because one word often means several things ("mar"
//! is March and, in French and Spanish, Tuesday). Expressions of several words or of CJK
//! characters, which have no spaces to split on, are phrase lists that the grammars try in order,
//! longer phrases before their prefixes. The map and the start table are built once, on first
//! use.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::LazyLock;

use super::cursor::{is_cjk, is_word_char, lowercase_first, lowercase_into};
use super::relative_words::{
    AGO_AFTER_WORDS, AGO_BEFORE, AND_WORDS, CJK_QUANTITIES, DAY_WORDS, MOMENTS, QUANTITY_WORDS,
    UNIT_WORDS,
};
use super::words::{
    CJK_WEEKDAYS, CONNECTOR_WORDS, DATE_PARTICLES, ENGLISH_MONTHS, OTHER_MONTH_ABBREVIATIONS,
    OTHER_MONTH_NAMES, WEEKDAY_ABBREVIATIONS, WEEKDAY_NAMES,
};

/// A unit of "N units ago".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

/// Before or after noon on a twelve-hour clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Meridiem {
    BeforeNoon,
    AfterNoon,
}

/// Everything one lowercase word can mean.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct WordMeaning {
    /// The month it names, 1..=12.
    pub month: Option<u8>,
    /// Whether it is an English month name or abbreviation, which with a capital is trusted
    /// without a year in either order ("Mar 30", "30 March").
    pub english_month: bool,
    /// Whether the month name may come first in a date ("März 2025"); abbreviations that are
    /// common words in another language ("sie", "out") may only follow a day number.
    pub month_may_lead: bool,
    /// The weekday it names, 0 = Monday.
    pub weekday: Option<u8>,
    /// Whether the weekday is written in full, which "Sunday at 10:11 PM" requires.
    pub full_weekday: bool,
    /// The unit it names in "N units ago".
    pub unit: Option<Unit>,
    /// Whether the unit alone means one of it (Russian "час назад", Polish "godzinę temu").
    pub unit_alone_means_one: bool,
    /// Whether it is a word for one ("a", "an", "ein", "une", "одну").
    pub quantity_one: bool,
    /// Whether it is "ago" written after the amount ("ago", "назад", "fa", "geleden").
    pub ago_after: bool,
    /// Whether it may join a date to its time ("at", "um", "à", "alle", "a las", "в").
    pub connector: bool,
    /// Whether it may sit between day, month and year ("de", "del", "of").
    pub date_particle: bool,
    /// Whether it joins two amounts ("1 hour and 5 minutes").
    pub and_word: bool,
}

/// A fast hash for the short keys of the lexicon (FNV-1a for words, one multiplication for
/// packed ASCII words); the default SipHash costs more than the whole lookup is allowed to, and
/// the keys are the module's own words, not input an attacker chooses.
#[derive(Debug)]
pub(super) struct ShortKeyHasher(u64);

impl Default for ShortKeyHasher {
    fn default() -> Self {
        ShortKeyHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for ShortKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u64(&mut self, value: u64) {
        // One multiplication spreads a packed word's bytes over all bits of the hash.
        self.0 = (value ^ (value >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The lowercase bytes of an ASCII word of one to eight letters packed into a `u64`, or `None`
/// for other words. Apostrophes are not letters here, so "un'ora" takes the general path.
fn short_ascii_key(word: &str) -> Option<u64> {
    let bytes = word.as_bytes();
    if bytes.is_empty() || bytes.len() > 8 || !bytes.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    let mut packed = [0u8; 8];
    for (slot, byte) in packed.iter_mut().zip(bytes) {
        *slot = byte.to_ascii_lowercase();
    }
    Some(u64::from_le_bytes(packed))
}

/// Slots in the start table; with about seven hundred start keys, one word in twenty that
/// starts nothing finds a slot taken by accident.
const START_SLOTS: usize = 16_384;

/// The kinds of expression that may begin with a given word, so that a start position runs only
/// the grammars that can match there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct StartKinds(u16);

impl StartKinds {
    /// A month name: "Mar 30, 2009", "März 2025".
    pub const MONTH: StartKinds = StartKinds(1);
    /// A weekday: "Mon Mar 30, 2009", "Sunday at 10:11 PM", "星期日 22:11".
    pub const WEEKDAY: StartKinds = StartKinds(1 << 1);
    /// French "le 30/03/2009".
    pub const LE: StartKinds = StartKinds(1 << 2);
    /// "just now", "half an hour ago", "刚刚".
    pub const MOMENT: StartKinds = StartKinds(1 << 3);
    /// "Yesterday", "Gestern", "昨天".
    pub const DAY_WORD: StartKinds = StartKinds(1 << 4);
    /// "vor", "il y a", "hace" before an amount.
    pub const AGO_BEFORE: StartKinds = StartKinds(1 << 5);
    /// An amount that does not start with a digit: "an hour ago", "час назад", "一个小时前".
    pub const AMOUNT: StartKinds = StartKinds(1 << 6);
    /// Everything: numbers, which every digit grammar sorts out itself, and the start of a
    /// string read as a whole.
    pub const ALL: StartKinds = StartKinds(u16::MAX);

    /// Whether these kinds include any of `other`.
    pub fn has(self, other: StartKinds) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether no expression may start here.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The lexicon: word meanings and the start table.
#[derive(Debug)]
pub(super) struct Lexicon {
    words: HashMap<&'static str, WordMeaning, BuildHasherDefault<ShortKeyHasher>>,
    /// The words of at most eight ASCII letters again, keyed by their lowercase bytes packed
    /// into a `u64`: most lookups are of such words, and this key needs no lowercase copy, no
    /// UTF-8 check and no byte-by-byte hash.
    short_ascii_words: HashMap<u64, WordMeaning, BuildHasherDefault<ShortKeyHasher>>,
    /// The start kinds of every start key, at the key's slot; keys that share a slot share
    /// their kinds, which only costs a grammar that fails.
    start_kinds: Vec<StartKinds>,
    /// For each pair of first two prefix symbols, one bit per third symbol: whether a start
    /// word may begin with that ASCII prefix of up to three letters. Most words of a page are
    /// passed over after this one test, without hashing them whole.
    ascii_prefixes: Vec<u32>,
    /// One bit per character of the Basic Multilingual Plane: whether a CJK start phrase
    /// begins with it. CJK text is walked character by character, so most characters must be
    /// dismissed with one load.
    cjk_starts: Vec<u64>,
}

/// The symbols of an ASCII prefix: 26 letters, the end of the word, and a non-ASCII byte.
const PREFIX_SYMBOLS: usize = 28;
const END: usize = 26;
const NON_ASCII: usize = 27;

/// The prefix symbol of each byte: 0..=25 for letters of either case, `END` for bytes that end a
/// word's letters, `NON_ASCII` for bytes of longer characters.
const PREFIX_SYMBOL_OF_BYTE: [u8; 256] = {
    let mut table = [END as u8; 256];
    let mut byte = 0;
    while byte < 256 {
        let value = byte as u8;
        if value.is_ascii_uppercase() {
            table[byte] = value - b'A';
        } else if value.is_ascii_lowercase() {
            table[byte] = value - b'a';
        } else if value >= 0x80 {
            table[byte] = NON_ASCII as u8;
        }
        byte += 1;
    }
    table
};

/// The prefix symbols of the first three bytes of the word at `start` (spaces past the end).
fn prefix_symbols(bytes: &[u8], start: usize) -> [usize; 3] {
    let byte_at = |offset: usize| bytes.get(start + offset).copied().unwrap_or(b' ');
    let three = match bytes.get(start..start + 3) {
        Some(&[first, second, third]) => [first, second, third],
        _ => [byte_at(0), byte_at(1), byte_at(2)],
    };
    three.map(|byte| usize::from(PREFIX_SYMBOL_OF_BYTE[usize::from(byte)]))
}

/// The lexicon, built on first use.
pub(super) fn lexicon() -> &'static Lexicon {
    static LEXICON: LazyLock<Lexicon> = LazyLock::new(Lexicon::build);
    &LEXICON
}

/// The longest first word of any start phrase, in characters; longer words start nothing.
const LONGEST_START_WORD: u32 = 16;

/// A start key being built one lowercase character at a time. The scanner builds one for every
/// word of a page, so each character costs only a rotation and an exclusive or; the finishing
/// multiplication spreads the bits over the table once per word.
#[derive(Debug, Clone, Copy)]
pub(super) struct StartKey {
    hash: u32,
    length: u32,
}

impl StartKey {
    pub fn new() -> StartKey {
        StartKey { hash: 0, length: 0 }
    }

    /// Adds the next lowercase character.
    pub fn push(&mut self, lowercase: char) {
        self.hash = self.hash.rotate_left(5) ^ u32::from(lowercase);
        self.length = self.length.saturating_add(1);
    }

    /// The key, unless the word is too long to start anything.
    pub fn finish(self) -> Option<u32> {
        let spread = (self.hash ^ (self.hash >> 15)).wrapping_mul(0x2c1b_3c6d);
        (self.length > 0 && self.length <= LONGEST_START_WORD).then_some(spread ^ (spread >> 12))
    }
}

/// The start key of a word or phrase: a hash of its whole first word in lowercase, or of its
/// first character alone when that is a CJK character (CJK words have no spaces around them, so
/// only their first character is known at a start position). The scanner builds the same key
/// while it walks over a word of the text.
pub(super) fn start_key(mut characters: impl Iterator<Item = char>) -> Option<u32> {
    let first = characters.next()?;
    let mut key = StartKey::new();
    if is_cjk(first) {
        key.push(first);
        return key.finish();
    }
    if !is_word_char(first) {
        return None;
    }
    key.push(lowercase_first(first));
    for character in characters {
        if !is_word_char(character) {
            break;
        }
        key.push(lowercase_first(character));
    }
    key.finish()
}

impl Lexicon {
    fn build() -> Lexicon {
        let mut lexicon = Lexicon {
            words: HashMap::default(),
            short_ascii_words: HashMap::default(),
            start_kinds: vec![StartKinds::default(); START_SLOTS],
            ascii_prefixes: vec![0; PREFIX_SYMBOLS * PREFIX_SYMBOLS],
            cjk_starts: vec![0; 65_536 / 64],
        };
        let month = Some(StartKinds::MONTH);
        let weekday = Some(StartKinds::WEEKDAY);
        for &(word, month_number) in ENGLISH_MONTHS {
            lexicon.add(word, month, |meaning| {
                meaning.month = Some(month_number);
                meaning.english_month = true;
                meaning.month_may_lead = true;
            });
        }
        for &(word, month_number) in OTHER_MONTH_NAMES {
            lexicon.add(word, month, |meaning| {
                meaning.month = Some(month_number);
                meaning.month_may_lead = true;
            });
        }
        for &(word, month_number) in OTHER_MONTH_ABBREVIATIONS {
            lexicon.add(word, None, |meaning| meaning.month = Some(month_number));
        }
        for &(word, day) in WEEKDAY_NAMES {
            lexicon.add(word, weekday, |meaning| {
                meaning.weekday = Some(day);
                meaning.full_weekday = true;
            });
        }
        for &(word, day) in WEEKDAY_ABBREVIATIONS {
            lexicon.add(word, weekday, |meaning| meaning.weekday = Some(day));
        }
        for &(word, unit, alone_means_one) in UNIT_WORDS {
            let kind = alone_means_one.then_some(StartKinds::AMOUNT);
            lexicon.add(word, kind, |meaning| {
                meaning.unit = Some(unit);
                meaning.unit_alone_means_one |= alone_means_one;
            });
        }
        for &word in QUANTITY_WORDS {
            lexicon.add(word, Some(StartKinds::AMOUNT), |meaning| {
                meaning.quantity_one = true;
            });
        }
        for &word in AGO_AFTER_WORDS {
            lexicon.add(word, None, |meaning| meaning.ago_after = true);
        }
        for &word in CONNECTOR_WORDS {
            lexicon.add(word, None, |meaning| meaning.connector = true);
        }
        for &word in DATE_PARTICLES {
            lexicon.add(word, None, |meaning| meaning.date_particle = true);
        }
        for &word in AND_WORDS {
            lexicon.add(word, None, |meaning| meaning.and_word = true);
        }
        for (phrase, _) in MOMENTS.entries() {
            lexicon.add_start(phrase, StartKinds::MOMENT);
        }
        for (phrase, _) in AGO_BEFORE.entries() {
            lexicon.add_start(phrase, StartKinds::AGO_BEFORE);
        }
        for (phrase, _) in DAY_WORDS.entries() {
            lexicon.add_start(phrase, StartKinds::DAY_WORD);
        }
        for (phrase, _) in CJK_WEEKDAYS.entries() {
            lexicon.add_start(phrase, StartKinds::WEEKDAY);
        }
        for (phrase, _) in CJK_QUANTITIES.entries() {
            lexicon.add_start(phrase, StartKinds::AMOUNT);
        }
        lexicon.add_start("le", StartKinds::LE);
        lexicon.short_ascii_words = lexicon
            .words
            .iter()
            .filter_map(|(word, meaning)| Some((short_ascii_key(word)?, *meaning)))
            .collect();
        lexicon
    }

    /// Records a meaning of `word` and, when an expression of kind `start` may begin with it,
    /// its start key.
    fn add(
        &mut self,
        word: &'static str,
        start: Option<StartKinds>,
        set: impl FnOnce(&mut WordMeaning),
    ) {
        set(self.words.entry(word).or_default());
        if let Some(kind) = start {
            self.add_start(word, kind);
        }
    }

    fn add_start(&mut self, phrase: &str, kind: StartKinds) {
        let Some(key) = start_key(phrase.chars()) else {
            return;
        };
        if let Some(kinds) = self.start_kinds.get_mut(key as usize % START_SLOTS) {
            kinds.0 |= kind.0;
        }
        self.add_ascii_prefix(phrase.as_bytes());
        if let Some(first) = phrase.chars().next().filter(|c| is_cjk(*c))
            && let Some(slot) = self.cjk_starts.get_mut(u32::from(first) as usize / 64)
        {
            *slot |= 1 << (u32::from(first) % 64);
        }
    }

    /// Whether a CJK start phrase begins with `character`; exact.
    pub fn may_start_cjk(&self, character: char) -> bool {
        let code = u32::from(character) as usize;
        self.cjk_starts
            .get(code / 64)
            .is_some_and(|slot| slot >> (code % 64) & 1 == 1)
    }

    /// The kinds of expression that may start with the CJK character `character`.
    pub fn cjk_start_kinds(&self, character: char) -> StartKinds {
        if self.may_start_cjk(character) {
            self.start_kinds(start_key([character].into_iter()))
        } else {
            StartKinds::default()
        }
    }

    /// Records the ASCII prefix of a start phrase so that words beginning like it are looked at.
    /// A phrase whose first word is shorter than two letters, or has a non-ASCII second
    /// character, admits any third symbol after its first two.
    fn add_ascii_prefix(&mut self, phrase: &[u8]) {
        let [first, second, third] = prefix_symbols(phrase, 0);
        if first == END || first == NON_ASCII {
            return;
        }
        let bits = if second == END || second == NON_ASCII {
            u32::MAX
        } else {
            1 << third
        };
        if let Some(slot) = self.ascii_prefixes.get_mut(first * PREFIX_SYMBOLS + second) {
            *slot |= bits;
        }
    }

    /// Whether some start word may begin like the word at `start` of `bytes`: false only when
    /// the word's first three letters are ASCII and begin no start word.
    pub fn ascii_prefix_may_start(&self, bytes: &[u8], start: usize) -> bool {
        let [first, second, third] = prefix_symbols(bytes, start);
        self.ascii_prefixes
            .get(first * PREFIX_SYMBOLS + second)
            .is_none_or(|bits| bits >> third & 1 == 1)
    }

    /// The kinds of expression that may start with the word or CJK character whose key is
    /// `key`; an empty answer is certain, others are checked by the grammars.
    pub fn start_kinds(&self, key: Option<u32>) -> StartKinds {
        key.and_then(|key| self.start_kinds.get(key as usize % START_SLOTS))
            .copied()
            .unwrap_or_default()
    }

    /// What `word` can mean, in any case.
    pub fn meaning(&self, word: &str) -> Option<&WordMeaning> {
        if let Some(key) = short_ascii_key(word) {
            return self.short_ascii_words.get(&key);
        }
        let mut buffer = [0u8; 64];
        let lower = lowercase_into(word, &mut buffer)?;
        self.words.get(lower)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lexicon_word_is_lowercase_and_a_single_word() {
        let lists: [&[(&str, u8)]; 5] = [
            ENGLISH_MONTHS,
            OTHER_MONTH_NAMES,
            OTHER_MONTH_ABBREVIATIONS,
            WEEKDAY_NAMES,
            WEEKDAY_ABBREVIATIONS,
        ];
        let mut all: Vec<&str> = lists.into_iter().flatten().map(|(word, _)| *word).collect();
        all.extend(UNIT_WORDS.iter().map(|(word, _, _)| *word));
        all.extend(
            QUANTITY_WORDS
                .iter()
                .chain(AGO_AFTER_WORDS)
                .chain(CONNECTOR_WORDS),
        );
        all.extend(DATE_PARTICLES.iter().chain(AND_WORDS));
        for word in all {
            let mut cursor = super::super::cursor::Cursor::new(word, 0);
            assert_eq!(cursor.word(), Some(word), "{word} is not one word");
            assert_eq!(word.to_lowercase(), word, "{word} is not lowercase");
            assert!(lexicon().meaning(word).is_some());
        }
    }

    #[test]
    fn meanings_combine_and_ignore_case() {
        let mar = lexicon().meaning("MAR").copied().unwrap_or_default();
        assert_eq!(mar.month, Some(3));
        assert_eq!(mar.weekday, Some(1));
        assert_eq!(lexicon().meaning("März").and_then(|m| m.month), Some(3));
        assert_eq!(lexicon().meaning("МАРТА").and_then(|m| m.month), Some(3));
        assert!(lexicon().meaning("house").is_none());
    }

    #[test]
    fn ascii_prefix_test_admits_every_start_word_and_few_others() {
        let lexicon = lexicon();
        let mut starts: Vec<&str> = lexicon
            .words
            .iter()
            .filter(|(_, meaning)| {
                meaning.month_may_lead
                    || meaning.weekday.is_some()
                    || meaning.quantity_one
                    || meaning.unit_alone_means_one
            })
            .map(|(word, _)| *word)
            .collect();
        starts.extend(MOMENTS.entries().iter().map(|(phrase, _)| *phrase));
        starts.extend(DAY_WORDS.entries().iter().map(|(phrase, _)| *phrase));
        starts.extend(AGO_BEFORE.entries().iter().map(|(phrase, _)| *phrase));
        for phrase in starts {
            let capitalised: String = phrase
                .chars()
                .enumerate()
                .map(|(index, c)| {
                    if index == 0 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect();
            if phrase.starts_with(|c: char| c.is_ascii_alphabetic()) {
                for text in [phrase, capitalised.as_str()] {
                    let padded = format!("{text} 12");
                    assert!(
                        lexicon.ascii_prefix_may_start(padded.as_bytes(), 0),
                        "{text}"
                    );
                }
            }
        }
        for word in ["the", "house", "and", "of", "Grüße", "with", "people"] {
            assert!(
                !lexicon.ascii_prefix_may_start(word.as_bytes(), 0),
                "{word}"
            );
        }
    }

    #[test]
    fn start_table_admits_every_start_word() {
        for word in [
            "yesterday",
            "Gestern",
            "il",
            "昨天",
            "刚刚",
            "сегодня",
            "mar",
            "le",
        ] {
            assert!(
                !lexicon().start_kinds(start_key(word.chars())).is_empty(),
                "{word}"
            );
        }
    }
}
