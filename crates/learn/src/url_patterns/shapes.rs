//! What a single path segment or query value looks like: its digits, whether it is an opaque id
//! or a slug, and its id-like head or tail. Learning decides positions from these.

use std::hash::{BuildHasherDefault, Hasher};

use super::pattern::escape_into;

/// Values with at least this many characters besides digits are free text (nested URLs, long
/// titles), never a page-kind word.
const LONG_VALUE_CHARACTERS: usize = 24;
/// A value with at least this many words (runs of letters between `-`, `+` or spaces) is a slug.
/// Page-kind words rarely have more than two (`whats-new`, `new-topic`); titles almost always do.
const SLUG_WORDS: usize = 3;
/// An alphanumeric run this long is an opaque id (hex, base64: `e56afc3b`, a session hash) when
/// it switches between letters and digits at least [`OPAQUE_SWITCHES`] times, or when it mixes
/// digits with hex letters only (`4309a377`). Names with a number at the end (`Skyvi48`) and
/// words like `wap2` switch once, and most words have letters beyond `f`.
///
/// A run of that length that writes letters in both cases is an opaque id too when it cannot
/// be read as words in camel case ([`mixes_cases_unlike_words`]): signed or encrypted cursors
/// (`?after=GgdQDeNvt6`) are drawn from all 62 letters and digits, and one in two such tokens
/// of ten characters switches between letters and digits fewer than three times.
const OPAQUE_RUN_LENGTH: usize = 8;
const OPAQUE_SWITCHES: usize = 3;
/// A camel-case piece of this many lowercase letters or more holds a vowel (`Html` and `Rpc`
/// do not, and are shorter).
const VOWELLESS_WORD_LETTERS: usize = 4;

/// The letters and digits seen in the current alphanumeric run of a value.
#[derive(Debug, Clone, Copy, Default)]
struct Run {
    length: usize,
    switches: usize,
    last_was_digit: bool,
    has_digits: bool,
    has_letters: bool,
    letters_beyond_hex: bool,
}

impl Run {
    fn add(&mut self, characters: &[u8], digits: bool) {
        self.switches += usize::from(self.length > 0 && self.last_was_digit != digits);
        self.length += characters.len();
        self.last_was_digit = digits;
        self.has_digits |= digits;
        self.has_letters |= !digits;
        self.letters_beyond_hex |= !digits && !characters.iter().all(u8::is_ascii_hexdigit);
    }

    fn is_opaque(&self) -> bool {
        let hex = self.has_digits && self.has_letters && !self.letters_beyond_hex;
        self.length >= OPAQUE_RUN_LENGTH && (self.switches >= OPAQUE_SWITCHES || hex)
    }
}

/// Whether an alphanumeric run with both uppercase and lowercase letters cannot be read as words
/// written in camel case, as a token drawn from all 62 letters and digits cannot. The run is cut
/// into pieces at every change between letters and digits and before every uppercase letter
/// that follows a lowercase one; a piece of letters is some uppercase letters and then some
/// lowercase ones. Words in camel case (`ShowNewPosts`, `HTMLParser`, `iPhone15ProMax`,
/// `PostID`) give pieces that are acronyms, a capital and a word, or a word; a random token
/// soon gives a piece that is none of these: two capitals before one lowercase letter (`QDe`), a
/// capital and one consonant (`Zr`), one lowercase letter after a digit (`6x`), or four
/// lowercase letters or more without a vowel (`Gdqkt`). Measured on random tokens of the 62
/// letters and digits: 76 % of those of 8 characters are opaque by this test or the
/// letters-and-digits switches, 86 % of 10 and 97 % of 16, and a position whose values are
/// opaque more often than not is wildcarded whole.
fn mixes_cases_unlike_words(run: &[u8]) -> bool {
    let has_lower = run.iter().any(u8::is_ascii_lowercase);
    let has_upper = run.iter().any(u8::is_ascii_uppercase);
    if !has_lower || !has_upper {
        return false;
    }
    let is_vowel = |byte: u8| {
        matches!(
            byte.to_ascii_lowercase(),
            b'a' | b'e' | b'i' | b'o' | b'u' | b'y'
        )
    };
    let mut start = 0;
    while start < run.len() {
        let digits = run[start].is_ascii_digit();
        let mut end = start + 1;
        while end < run.len()
            && run[end].is_ascii_digit() == digits
            && !(run[end].is_ascii_uppercase() && run[end - 1].is_ascii_lowercase())
        {
            end += 1;
        }
        let piece = &run[start..end];
        if !digits {
            let capitals = piece
                .iter()
                .take_while(|byte| byte.is_ascii_uppercase())
                .count();
            let lowercase = &piece[capitals..];
            let unreadable = match (capitals, lowercase.len()) {
                (_, 0) => false,
                (2.., 1) => true,
                (1, 1) => !is_vowel(lowercase[0]),
                // A lone lowercase letter after a digit; a run may begin with one (`iPhone`).
                (0, 1) => start > 0,
                (_, letters) => {
                    letters >= VOWELLESS_WORD_LETTERS
                        && !lowercase.iter().any(|byte| is_vowel(*byte))
                }
            };
            if unreadable {
                return true;
            }
        }
        start = end;
    }
    false
}

/// Whether the alphanumeric runs of a value without digits hold an opaque id: a run of
/// [`OPAQUE_RUN_LENGTH`] or more letters in both cases that reads as no words.
fn letters_are_opaque(bytes: &[u8]) -> bool {
    bytes
        .split(|byte| !byte.is_ascii_alphanumeric())
        .any(|run| run.len() >= OPAQUE_RUN_LENGTH && mixes_cases_unlike_words(run))
}

/// True at `%` followed by two hex digits. Digits inside escapes are not numbers: `%3F` is `?`.
fn escape_at(bytes: &[u8], index: usize) -> bool {
    bytes[index] == b'%'
        && bytes.get(index + 1).is_some_and(u8::is_ascii_hexdigit)
        && bytes.get(index + 2).is_some_and(u8::is_ascii_hexdigit)
}

/// ASCII punctuation other than `%`, which starts an escape rather than separating anything.
fn is_separator(byte: u8) -> bool {
    byte.is_ascii_punctuation() && byte != b'%'
}

/// Appends `raw` with every digit run replaced by `{n}` and braces doubled.
pub(super) fn generalise_digits(raw: &str, out: &mut String) {
    let bytes = raw.as_bytes();
    let mut index = 0;
    let mut literal_from = 0;
    while index < bytes.len() {
        if escape_at(bytes, index) {
            index += 3;
        } else if bytes[index].is_ascii_digit() {
            escape_into(&raw[literal_from..index], out);
            while index < bytes.len() && bytes[index].is_ascii_digit() {
                index += 1;
            }
            out.push_str("{n}");
            literal_from = index;
        } else {
            index += 1;
        }
    }
    escape_into(&raw[literal_from..], out);
}

/// What one pass over a raw value finds besides its digit-generalised text.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scan {
    /// A hash of the first digit run outside escapes (0 when there is none): the value's
    /// candidate entity id.
    pub(super) first_run: u64,
    /// A hash of all its digit runs (0 when there are none).
    pub(super) digits: u64,
    /// Whether it holds an opaque id (see [`OPAQUE_RUN_LENGTH`]).
    pub(super) opaque: bool,
}

/// Appends `raw` digit-generalised to `out` (as [`generalise_digits`] does) and reads its digit
/// runs and opacity on the way: learning does this for every value of every URL, so in one pass.
pub(super) fn scan(raw: &str, out: &mut String) -> Scan {
    let bytes = raw.as_bytes();
    let mut found = Scan {
        first_run: 0,
        digits: 0,
        opaque: false,
    };
    // Words without digits and plain numbers are most values; see them without the loop.
    let digit_count = bytes.iter().filter(|byte| byte.is_ascii_digit()).count();
    if digit_count == 0 {
        escape_into(raw, out);
        found.opaque = letters_are_opaque(bytes);
        return found;
    }
    if digit_count == bytes.len() {
        out.push_str("{n}");
        found.digits = add_number(0, bytes);
        found.first_run = found.digits;
        return found;
    }
    // Literal stretches are copied as they are unless the value has braces to double.
    let has_braces = bytes.iter().any(|&byte| byte == b'{' || byte == b'}');
    let copy = |text: &str, out: &mut String| match has_braces {
        true => escape_into(text, out),
        false => out.push_str(text),
    };
    let mut run = Run::default();
    let mut run_start = 0;
    let mut literal_from = 0;
    let mut index = 0;
    let run_is_opaque = |run: &Run, letters_and_digits: &[u8]| {
        run.is_opaque()
            || (run.length >= OPAQUE_RUN_LENGTH && mixes_cases_unlike_words(letters_and_digits))
    };
    // Whole runs at a time: digits, letters, or one other character (an escape is one).
    while index < bytes.len() {
        let start = index;
        let byte = bytes[index];
        if byte.is_ascii_digit() {
            index += bytes[index..]
                .iter()
                .take_while(|byte| byte.is_ascii_digit())
                .count();
            copy(&raw[literal_from..start], out);
            out.push_str("{n}");
            literal_from = index;
            found.digits = add_number(found.digits, &bytes[start..index]);
            if found.first_run == 0 {
                found.first_run = found.digits;
            }
        } else if byte.is_ascii_alphabetic() {
            index += bytes[index..]
                .iter()
                .take_while(|byte| byte.is_ascii_alphabetic())
                .count();
        } else {
            found.opaque |= run_is_opaque(&run, &bytes[run_start..start]);
            run = Run::default();
            // Digits inside escapes are not numbers: `%3F` is `?`.
            index += if escape_at(bytes, index) { 3 } else { 1 };
            run_start = index;
            continue;
        }
        run.add(&bytes[start..index], byte.is_ascii_digit());
    }
    found.opaque |= run_is_opaque(&run, &bytes[run_start..]);
    copy(&raw[literal_from..], out);
    found
}

/// Adds a digit run to a hash of digit runs; the result is never 0, which stands for "none".
fn add_number(hash: u64, digits: &[u8]) -> u64 {
    let mut hasher = FastHasher(hash);
    hasher.write(digits);
    // The length keeps `1`,`23` apart from `12`,`3`.
    hasher.write_usize(digits.len());
    hasher.finish() | 1
}

/// Whether a query value holds a path or URL (`next=/t/5/reply`, `url=%2Fshowthread.php...`,
/// `back=https%3A%2F%2F...`, `to=t/5/reply`): a value that starts with a slash, names a scheme,
/// or has two slashes or more, plain or escaped. One slash between a name and a number
/// (`board=hardware/20`, `num=1763385455/15`) is an item with its page offset, which old CGI
/// engines write that way: wildcarding it as a nested URL put every board's later pages in one
/// pattern with its sort orders, apart from the first pages it flips from.
pub(super) fn holds_path(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    // One quick pass rules out most values, which have neither a slash nor an escape.
    if !bytes.iter().any(|&byte| byte == b'/' || byte == b'%') {
        return false;
    }
    let escaped_slash =
        |window: &[u8]| window[0] == b'%' && window[1] == b'2' && window[2] | 0x20 == b'f';
    let slashes = bytes.iter().filter(|&&byte| byte == b'/').count()
        + bytes
            .windows(3)
            .filter(|window| escaped_slash(window))
            .count();
    bytes.first() == Some(&b'/') || bytes.get(..3).is_some_and(escaped_slash) || slashes >= 2
}

/// A title slug or other free text: [`SLUG_WORDS`] or more words, or [`LONG_VALUE_CHARACTERS`]
/// or more characters besides digits. Words are runs holding letters (or escaped non-ASCII
/// bytes, for titles in other scripts) between `-`, `+` and escaped or plain spaces; `_` joins
/// words into one identifier (`last_post`), as programmers write them.
pub(super) fn is_slug_shaped(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    let stem_length = split_extension(raw).0.len();
    let (mut words, mut in_word, mut characters) = (0, false, 0);
    let mut index = 0;
    while index < bytes.len() {
        let (step, is_letter, is_break) = if escape_at(bytes, index) {
            let byte = u8::from_str_radix(&raw[index + 1..index + 3], 16).unwrap_or(0);
            (3, byte >= 0x80, byte == b' ')
        } else {
            let byte = bytes[index];
            (
                1,
                byte.is_ascii_alphabetic(),
                matches!(byte, b'-' | b'+' | b' '),
            )
        };
        if index < stem_length {
            if is_break {
                in_word = false;
            } else if is_letter && !in_word {
                in_word = true;
                words += 1;
            }
        }
        characters += usize::from(!bytes[index].is_ascii_digit());
        index += step;
    }
    words >= SLUG_WORDS || characters >= LONG_VALUE_CHARACTERS
}

/// Splits off a file extension: a dot and one to five letters ending a non-empty stem.
fn split_extension(raw: &str) -> (&str, &str) {
    if let Some(dot) = raw.rfind('.') {
        let extension = &raw[dot + 1..];
        if dot > 0
            && (1..=5).contains(&extension.len())
            && extension.bytes().all(|byte| byte.is_ascii_alphabetic())
        {
            return (&raw[..dot], &raw[dot..]);
        }
    }
    (raw, "")
}

/// A path segment cut for a free position: an id-like head (`123-`) or tail (`.123`, `-2`), an
/// extension (`.html`), and the variable core between them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Template<'a> {
    head: &'a str,
    core: &'a str,
    tail: &'a str,
    extension: &'a str,
}

impl<'a> Template<'a> {
    /// `None` when nothing is left for the core. A head wins over a tail, so `123-iphone-15`
    /// reads as an id and a title, not a title ending in a number.
    pub(super) fn of(raw: &'a str) -> Option<Template<'a>> {
        let (stem, extension) = split_extension(raw);
        let bytes = stem.as_bytes();
        let length = bytes.len();
        let leading = bytes
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        let trailing = bytes
            .iter()
            .rev()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        let (head, core, tail) =
            if leading > 0 && leading + 1 < length && is_separator(bytes[leading]) {
                (&stem[..=leading], &stem[leading + 1..], "")
            } else if trailing > 0
                && trailing + 1 < length
                && is_separator(bytes[length - trailing - 1])
            {
                let cut = length - trailing - 1;
                ("", &stem[..cut], &stem[cut..])
            } else {
                ("", stem, "")
            };
        (!core.is_empty()).then_some(Template {
            head,
            core,
            tail,
            extension,
        })
    }

    /// The variable part.
    pub(super) fn core(&self) -> &'a str {
        self.core
    }

    /// True when the variable part is all digits, as in a hex id that happens to have no letter.
    pub(super) fn core_is_digits(&self) -> bool {
        self.core.bytes().all(|byte| byte.is_ascii_digit())
    }

    /// Appends the pattern text with `middle` (`{*}` or `{n}`) in place of the core.
    pub(super) fn write(&self, middle: &str, out: &mut String) {
        generalise_digits(self.head, out);
        out.push_str(middle);
        generalise_digits(self.tail, out);
        generalise_digits(self.extension, out);
    }
}

/// A small multiplicative hasher for the learner's many short keys; SipHash's protection
/// against chosen collisions costs more than the whole of learning here, and a site that crafts
/// colliding URLs can only slow its own sampling down.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        const FACTOR: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(FACTOR);
        }
        for &byte in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(byte)).wrapping_mul(FACTOR);
        }
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }

    fn finish(&self) -> u64 {
        // Mix the high bits down: hash tables index with the low bits.
        self.0 ^ (self.0 >> 29)
    }
}

pub(super) type FastMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FastHasher>>;
pub(super) type FastSet<K> = std::collections::HashSet<K, BuildHasherDefault<FastHasher>>;
