//! A position in the text and the small reading steps every grammar is built from.
//!
//! Every grammar function takes a `&mut Cursor`, and on failure either leaves it where it was or
//! the caller drops it: a cursor is `Copy`, so trying an alternative is copying the cursor and
//! reading ahead on the copy. Positions only ever move by whole characters, which keeps every
//! slice on a character boundary without checks that could panic.

/// Whether `character` belongs to a script whose words are not separated by spaces (Chinese,
/// Japanese kana and kanji, Korean hangul); such characters never form "words" for lookup and a
/// digit right after one still starts a number.
pub(super) fn is_cjk(character: char) -> bool {
    matches!(
        u32::from(character),
        0x1100..=0x11FF
            | 0x3040..=0x30FF
            | 0x3130..=0x318F
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xAC00..=0xD7AF
            | 0xF900..=0xFAFF
            | 0x20000..=0x2FFFF
    )
}

/// Whether `character` is a letter of a space-separated script, the stuff words are made of.
/// Latin-1 and Cyrillic letters and CJK characters are decided without the Unicode tables,
/// whose lookup costs as much as scanning a whole word.
pub(super) fn is_word_char(character: char) -> bool {
    if character.is_ascii() {
        return character.is_ascii_alphabetic();
    }
    match character {
        '\u{c0}'..='\u{d6}' | '\u{d8}'..='\u{f6}' | '\u{f8}'..='\u{24f}' => true,
        '\u{400}'..='\u{481}' | '\u{48a}'..='\u{52f}' => true,
        _ => !is_cjk(character) && character.is_alphabetic(),
    }
}

/// Whether `character` separates tokens: ASCII whitespace, and the no-break, thin and ideographic
/// spaces that pages put between dates and times (`昨天&nbsp;22:32`, ICU's `10:11\u{202f}PM`).
pub(super) fn is_space(character: char) -> bool {
    matches!(
        character,
        ' ' | '\t' | '\n' | '\r' | '\u{0c}' | '\u{a0}' | '\u{2002}'
            ..='\u{200a}' | '\u{202f}' | '\u{3000}'
    )
}

/// Whether `character` is an apostrophe as pages type it ("aujourd'hui", "aujourd’hui").
pub(super) fn is_apostrophe(character: char) -> bool {
    matches!(character, '\'' | '\u{2019}' | '\u{02bc}')
}

/// A run of ASCII digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Number {
    /// Its value, saturated at `u32::MAX` for absurdly long runs.
    pub value: u32,
    /// How many digits it has (saturating), so `09` and `9` can be told apart.
    pub digits: u32,
}

/// A byte position inside a text, always on a character boundary.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cursor<'text> {
    text: &'text str,
    position: usize,
}

impl<'text> Cursor<'text> {
    /// A cursor at `position`, which must be a character boundary of `text`; a position that is
    /// not one is moved to the end so that nothing can be read from it.
    pub fn new(text: &'text str, position: usize) -> Cursor<'text> {
        let position = if text.is_char_boundary(position) {
            position
        } else {
            text.len()
        };
        Cursor { text, position }
    }

    /// The byte position.
    pub fn position(&self) -> usize {
        self.position
    }

    /// The text not yet read.
    pub fn rest(&self) -> &'text str {
        self.text.get(self.position..).unwrap_or("")
    }

    /// The next character, without reading it.
    pub fn peek(&self) -> Option<char> {
        // ASCII is most of what the grammars look at; decoding UTF-8 only when needed keeps a
        // failed attempt at a start down to a few dozen instructions.
        match self.text.as_bytes().get(self.position) {
            Some(&byte) if byte < 0x80 => Some(char::from(byte)),
            Some(_) => self.rest().chars().next(),
            None => None,
        }
    }

    /// The character after the next one, without reading either.
    pub fn peek_second(&self) -> Option<char> {
        let mut characters = self.rest().chars();
        characters.next();
        characters.next()
    }

    /// Reads one character.
    pub fn next_char(&mut self) -> Option<char> {
        let character = self.peek()?;
        self.position += character.len_utf8();
        Some(character)
    }

    /// Reads `expected` if it is next.
    pub fn eat(&mut self, expected: char) -> bool {
        if self.peek() == Some(expected) {
            self.position += expected.len_utf8();
            true
        } else {
            false
        }
    }

    /// Reads the next character if it is one of `choices`, and returns it.
    pub fn eat_one_of(&mut self, choices: &[char]) -> Option<char> {
        let character = self.peek()?;
        if choices.contains(&character) {
            self.position += character.len_utf8();
            Some(character)
        } else {
            None
        }
    }

    /// Skips spaces and returns whether there were any.
    pub fn skip_spaces(&mut self) -> bool {
        let start = self.position;
        while let Some(character) = self.peek() {
            if !is_space(character) {
                break;
            }
            self.position += character.len_utf8();
        }
        self.position > start
    }

    /// Skips at most one space character and returns whether there was one.
    pub fn skip_one_space(&mut self) -> bool {
        match self.peek() {
            Some(character) if is_space(character) => {
                self.position += character.len_utf8();
                true
            }
            _ => false,
        }
    }

    /// Reads a run of ASCII digits.
    pub fn number(&mut self) -> Option<Number> {
        let bytes = self.rest().as_bytes();
        let mut value: u32 = 0;
        let mut digits: u32 = 0;
        for byte in bytes {
            if !byte.is_ascii_digit() {
                break;
            }
            value = value
                .saturating_mul(10)
                .saturating_add(u32::from(byte - b'0'));
            digits = digits.saturating_add(1);
        }
        if digits == 0 {
            return None;
        }
        // Digits are one byte each, so this stays on a character boundary.
        self.position += digits as usize;
        Some(Number { value, digits })
    }

    /// Reads a number of one or two digits whose value lies in `range`.
    pub fn small_number(&mut self, range: std::ops::RangeInclusive<u32>) -> Option<u32> {
        let mut probe = *self;
        let number = probe.number()?;
        if number.digits > 2 || !range.contains(&number.value) {
            return None;
        }
        *self = probe;
        Some(number.value)
    }

    /// Reads a word: letters of space-separated scripts, with apostrophes allowed between
    /// letters so that "aujourd'hui" and "un'ora" are one word.
    pub fn word(&mut self) -> Option<&'text str> {
        let rest = self.rest();
        // ASCII words, most of what the grammars read, end at the first byte that is neither
        // a letter nor the start of a longer character.
        let ascii_letters = rest.bytes().take_while(u8::is_ascii_alphabetic).count();
        let continues = rest
            .as_bytes()
            .get(ascii_letters)
            .is_some_and(|&byte| byte >= 0x80 || is_apostrophe(char::from(byte)));
        if !continues {
            if ascii_letters == 0 {
                return None;
            }
            self.position += ascii_letters;
            return rest.get(..ascii_letters);
        }
        let mut end = 0;
        let mut characters = rest.char_indices().peekable();
        while let Some((offset, character)) = characters.next() {
            if is_word_char(character) {
                end = offset + character.len_utf8();
                continue;
            }
            let inside_word = end > 0 && end == offset;
            let letter_follows = characters
                .peek()
                .is_some_and(|&(_, next)| is_word_char(next));
            if is_apostrophe(character) && inside_word && letter_follows {
                continue;
            }
            break;
        }
        if end == 0 {
            return None;
        }
        let word = rest.get(..end)?;
        self.position += end;
        Some(word)
    }

    /// Whether the next character cannot continue a word, so that a word just read really ended.
    pub fn at_word_end(&self) -> bool {
        !self.peek().is_some_and(is_word_char)
    }

    /// Whether the next character can neither continue a word nor a number.
    pub fn at_token_end(&self) -> bool {
        !self
            .peek()
            .is_some_and(|character| is_word_char(character) || character.is_ascii_digit())
    }

    /// Reads `phrase` if it is next, ignoring case. In the phrase (which must be lowercase) a
    /// space stands for one or more spaces of the text and an apostrophe for any apostrophe. A
    /// phrase ending in a letter of a space-separated script must end a word in the text too.
    pub fn eat_phrase(&mut self, phrase: &str) -> bool {
        let mut probe = *self;
        let mut ends_with_letter = false;
        for expected in phrase.chars() {
            if expected == ' ' {
                if !probe.skip_spaces() {
                    return false;
                }
                ends_with_letter = false;
                continue;
            }
            let Some(actual) = probe.next_char() else {
                return false;
            };
            if !same_letter_ignoring_case(actual, expected) {
                return false;
            }
            ends_with_letter = is_word_char(expected);
        }
        if ends_with_letter && !probe.at_word_end() {
            return false;
        }
        *self = probe;
        true
    }

    /// Reads the first phrase of `list` that is next and returns its value.
    pub fn eat_listed<T: Copy>(&mut self, list: &PhraseList<T>) -> Option<T> {
        let first = lowercase_first(self.peek()?);
        if !list.may_start_with(first) {
            return None;
        }
        let mut encoded = [0u8; 4];
        let first_byte = first.encode_utf8(&mut encoded).as_bytes().first().copied();
        list.entries
            .iter()
            .find(|(phrase, _)| {
                phrase.as_bytes().first().copied() == first_byte && self.eat_phrase(phrase)
            })
            .map(|(_, value)| *value)
    }
}

/// The lowercase form of a character, or its first character when that is several. Lowercase
/// letters of the Latin, Latin-1 and Cyrillic alphabets and CJK characters, which have no case,
/// skip the Unicode table lookup, which costs as much as scanning a whole word.
pub(super) fn lowercase_first(character: char) -> char {
    if character.is_ascii() {
        return character.to_ascii_lowercase();
    }
    let already_lowercase = matches!(
        character,
        '\u{df}'..='\u{f6}' | '\u{f8}'..='\u{ff}' | '\u{430}'..='\u{45f}'
    );
    if already_lowercase || is_cjk(character) {
        return character;
    }
    character.to_lowercase().next().unwrap_or(character)
}

/// A list of lowercase phrases with their values, longer phrases before their prefixes, and the
/// set of bytes their first characters begin with, so that a list that cannot match at a
/// position is dismissed with one bit test.
#[derive(Debug)]
pub(super) struct PhraseList<T: 'static> {
    entries: &'static [(&'static str, T)],
    first_bytes: [u64; 4],
}

impl<T: Copy> PhraseList<T> {
    /// The list of `entries`; the byte set is computed at compile time.
    pub const fn new(entries: &'static [(&'static str, T)]) -> PhraseList<T> {
        let mut first_bytes = [0u64; 4];
        let mut index = 0;
        while index < entries.len() {
            let bytes = entries[index].0.as_bytes();
            if !bytes.is_empty() {
                let byte = bytes[0] as usize;
                first_bytes[byte / 64] |= 1 << (byte % 64);
            }
            index += 1;
        }
        PhraseList {
            entries,
            first_bytes,
        }
    }

    /// The phrases and their values.
    pub fn entries(&self) -> &'static [(&'static str, T)] {
        self.entries
    }

    /// Whether some phrase begins with the lowercase character `first`.
    fn may_start_with(&self, first: char) -> bool {
        let mut buffer = [0u8; 4];
        let byte = usize::from(first.encode_utf8(&mut buffer).as_bytes()[0]);
        self.first_bytes[byte / 64] & (1 << (byte % 64)) != 0
    }
}

/// Whether the text's `actual` character matches the lowercase `expected` character of a phrase.
fn same_letter_ignoring_case(actual: char, expected: char) -> bool {
    if actual == expected {
        return true;
    }
    if expected == '\'' {
        return is_apostrophe(actual);
    }
    lowercase_first(actual) == expected
}

/// Lowercases `word` into `buffer` (apostrophes become `'`) and returns the lowercase text, or
/// `None` when it does not fit; no lexicon word is that long.
pub(super) fn lowercase_into<'buffer>(
    word: &str,
    buffer: &'buffer mut [u8; 64],
) -> Option<&'buffer str> {
    if word.is_ascii() {
        let slot = buffer.get_mut(..word.len())?;
        slot.copy_from_slice(word.as_bytes());
        slot.make_ascii_lowercase();
        return std::str::from_utf8(slot).ok();
    }
    let mut length = 0;
    for character in word.chars() {
        let normalised = if is_apostrophe(character) {
            '\''
        } else {
            character
        };
        for lower in normalised.to_lowercase() {
            let size = lower.len_utf8();
            let slot = buffer.get_mut(length..length + size)?;
            lower.encode_utf8(slot);
            length += size;
        }
    }
    std::str::from_utf8(buffer.get(..length)?).ok()
}
