//! Hashing by hand, and the one tokenizer that both template keys and shingles read text with.
//!
//! Every hash here is written out (a multiply-rotate over 8-byte chunks, FNV-1a for short
//! labels, the SplitMix64 finaliser) so that keys, signatures and therefore groups stay the same
//! across Rust versions and platforms: std's `DefaultHasher` promises neither.

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// An odd multiplier (the golden ratio in fixed point) for the chunk hash.
const CHUNK_MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

/// The SplitMix64 finaliser: spreads every input bit over the whole word, so that the top bits
/// (which pick a signature bin) and the low bits (which compete for the minimum) of a hash are
/// independent.
pub(super) fn mix64(mut value: u64) -> u64 {
    value ^= value >> 30;
    value = value.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    value ^= value >> 27;
    value = value.wrapping_mul(0x94d0_49bb_1331_11eb);
    value ^ (value >> 31)
}

/// The start of an FNV-1a hash.
pub(super) fn fnv_start() -> u64 {
    FNV_OFFSET
}

/// One step of FNV-1a over a whole character or small number; used for element paths and
/// symbols, which are short.
pub(super) fn fnv_step(state: u64, unit: u32) -> u64 {
    (state ^ u64::from(unit)).wrapping_mul(FNV_PRIME)
}

/// The hash of a word from its lower-cased UTF-8 bytes, eight bytes at a time: every word of
/// every sampled page is hashed, and a byte-at-a-time hash made this the slowest step of the
/// whole search.
fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut hasher = ChunkHasher::default();
    for chunk in bytes.chunks(8) {
        let mut buffer = [0u8; 8];
        buffer[..chunk.len()].copy_from_slice(chunk);
        hasher.push(u64::from_le_bytes(buffer));
    }
    hasher.finish(bytes.len())
}

/// The state of a word hash: chunks of eight bytes (the last one padded with zeros) folded in
/// by a multiply and a rotation, the word's length folded in at the end, then mixed.
#[derive(Debug)]
struct ChunkHasher(u64);

impl Default for ChunkHasher {
    fn default() -> Self {
        ChunkHasher(FNV_OFFSET)
    }
}

impl ChunkHasher {
    fn push(&mut self, chunk: u64) {
        self.0 = (self.0 ^ chunk)
            .wrapping_mul(CHUNK_MULTIPLIER)
            .rotate_left(27);
    }

    fn finish(&self, length: usize) -> u64 {
        mix64(self.0 ^ (length as u64).wrapping_mul(CHUNK_MULTIPLIER))
    }
}

/// Byte class of an ASCII letter.
const LETTER: u8 = 1;
/// Byte class of an ASCII digit.
const DIGIT: u8 = 2;
/// Byte class of ASCII whitespace.
const SPACE: u8 = 4;
/// Byte class of the bytes from 0x80 up, which start or continue characters outside ASCII.
const NON_ASCII: u8 = 8;

/// What each byte is to the tokenizer. A table is cheaper than the range tests of
/// `is_ascii_alphanumeric`, and covering all 256 values spares the bounds check.
const BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut index = 0;
    while index < 256 {
        let byte = index as u8;
        table[index] = if !byte.is_ascii() {
            NON_ASCII
        } else if byte.is_ascii_alphabetic() {
            LETTER
        } else if byte.is_ascii_digit() {
            DIGIT
        } else if byte.is_ascii_whitespace() {
            SPACE
        } else {
            0
        };
        index += 1;
    }
    table
};

/// The high bit of every byte of a 64-bit word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// `byte` in every byte of a 64-bit word.
const fn repeated(byte: u8) -> u64 {
    byte as u64 * 0x0101_0101_0101_0101
}

/// For each byte of `chunk`, the high bit set when the byte is ASCII and within `low..=high`
/// (both below 0x80). Adding to the low seven bits of each byte never carries into the next
/// byte, so eight bytes are compared at once.
fn bytes_within(chunk: u64, low: u8, high: u8) -> u64 {
    let seven = chunk & !HIGH_BITS;
    let at_least_low = seven + repeated(0x80 - low);
    let above_high = seven + repeated(0x7f - high);
    at_least_low & !above_high & !chunk & HIGH_BITS
}

/// Reads the run of ASCII letters and digits starting at byte `start`: its length, whether it
/// holds a digit, and [`hash_bytes`] of it lower-cased. Eight bytes are classified and hashed at
/// a time while eight are left: this loop runs over every byte of every page, and byte by byte
/// it was the costliest part of the search. Setting bit 5 turns upper-case letters into
/// lower-case ones, leaves digits as they are, and turns no other byte into a letter.
fn read_ascii_word(bytes: &[u8], start: usize) -> (usize, bool, u64) {
    let mut hasher = ChunkHasher::default();
    let mut position = start;
    let mut has_digit = false;
    while let Some(eight) = bytes.get(position..position + 8) {
        let mut buffer = [0u8; 8];
        buffer.copy_from_slice(eight);
        let chunk = u64::from_le_bytes(buffer);
        let lower = chunk | repeated(0x20);
        let letters = bytes_within(lower, b'a', b'z');
        let digits = bytes_within(chunk, b'0', b'9');
        let ends = !(letters | digits) & HIGH_BITS;
        if ends == 0 {
            hasher.push(lower);
            has_digit |= digits != 0;
            position += 8;
            continue;
        }
        let taken = (ends.trailing_zeros() / 8) as usize;
        if taken > 0 {
            let kept = u64::MAX >> (8 * (8 - taken));
            hasher.push(lower & kept);
            has_digit |= digits & kept != 0;
        }
        position += taken;
        return (position - start, has_digit, hasher.finish(position - start));
    }
    // Fewer than eight bytes are left: one at a time into a last chunk.
    let mut last = 0u64;
    let mut taken = 0;
    while let Some(&byte) = bytes.get(position) {
        let class = BYTE_CLASS[usize::from(byte)];
        if class & (LETTER | DIGIT) == 0 {
            break;
        }
        has_digit |= class == DIGIT;
        last |= u64::from(byte.to_ascii_lowercase()) << (8 * taken);
        taken += 1;
        position += 1;
    }
    if taken > 0 {
        hasher.push(last);
    }
    (position - start, has_digit, hasher.finish(position - start))
}

/// Whether `character` belongs to a script written without spaces between words (Han
/// ideographs, kana), so that each character has to count as a word of its own: a Chinese post
/// is otherwise one "word" per sentence, and two posts would share no shingle even when they
/// differ by a single character.
pub(super) fn is_cjk(character: char) -> bool {
    matches!(
        u32::from(character),
        0x3040..=0x30ff       // Hiragana and Katakana.
        | 0x3400..=0x4dbf     // CJK Unified Ideographs Extension A.
        | 0x4e00..=0x9fff     // CJK Unified Ideographs.
        | 0xf900..=0xfaff     // CJK Compatibility Ideographs.
        | 0x20000..=0x323af // CJK Unified Ideographs Extensions B to H.
    )
}

/// A piece of text as the duplicate search reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Token {
    /// A word: a run of letters and digits, lower-cased, or a single CJK character.
    Word {
        /// The hash of the lower-cased word.
        hash: u64,
        /// Whether the word is likely a value that changes from page to page: it holds a digit
        /// (counts, dates, clocks, user names like "Karey52"), or it is an ASCII word of at most
        /// three letters (weekday and month abbreviations, am/pm, "of", "by").
        changing: bool,
    },
    /// A visible character that is neither a letter nor a digit: punctuation, symbols.
    Symbol(char),
}

/// Calls `visit` with every token of `text` in order; whitespace separates tokens and is not one.
/// `scratch` holds words with letters outside ASCII while they are lower-cased.
pub(super) fn for_each_token(text: &str, scratch: &mut Vec<u8>, mut visit: impl FnMut(Token)) {
    let bytes = text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        let class = BYTE_CLASS[usize::from(byte)];
        if class & (LETTER | DIGIT) != 0 {
            let start = index;
            let (length, mut has_digit, hash) = read_ascii_word(bytes, start);
            index += length;
            // Most words end at a single space; stepping over it here spares a turn of the loop.
            let spaced = bytes.get(index) == Some(&b' ');
            if bytes.get(index).is_some_and(|next| !next.is_ascii()) && continues_word(text, index)
            {
                scratch.clear();
                scratch.extend(bytes[start..index].iter().map(u8::to_ascii_lowercase));
                index = read_word(text, index, scratch, &mut has_digit);
                visit(Token::Word {
                    hash: hash_bytes(scratch),
                    changing: has_digit,
                });
            } else {
                visit(Token::Word {
                    hash,
                    changing: has_digit || length <= 3,
                });
                index += usize::from(spaced);
            }
        } else if byte.is_ascii() {
            index += 1;
            if class != SPACE {
                visit(Token::Symbol(char::from(byte)));
            }
        } else {
            let Some(character) = text[index..].chars().next() else {
                break;
            };
            if is_cjk(character) {
                let end = index + character.len_utf8();
                visit(Token::Word {
                    hash: hash_bytes(&bytes[index..end]),
                    changing: false,
                });
                index = end;
            } else if character.is_alphanumeric() {
                scratch.clear();
                let mut has_digit = false;
                index = read_word(text, index, scratch, &mut has_digit);
                visit(Token::Word {
                    hash: hash_bytes(scratch),
                    changing: has_digit,
                });
            } else {
                index += character.len_utf8();
                if !character.is_whitespace() {
                    visit(Token::Symbol(character));
                }
            }
        }
    }
}

/// Whether the character at byte `index` of `text` extends a word: a letter or digit outside
/// ASCII that is not CJK (an ASCII one would already have been read).
fn continues_word(text: &str, index: usize) -> bool {
    text.get(index..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(|character| {
            !character.is_ascii() && character.is_alphanumeric() && !is_cjk(character)
        })
}

/// Reads the rest of a word from byte `index` of `text` into `scratch`, lower-cased, and returns
/// the index after it.
fn read_word(text: &str, mut index: usize, scratch: &mut Vec<u8>, has_digit: &mut bool) -> usize {
    for character in text[index..].chars() {
        if !character.is_alphanumeric() || is_cjk(character) {
            break;
        }
        *has_digit |= character.is_numeric();
        for lower in character.to_lowercase() {
            let mut encoded = [0u8; 4];
            scratch.extend_from_slice(lower.encode_utf8(&mut encoded).as_bytes());
        }
        index += character.len_utf8();
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<Token> {
        let mut out = Vec::new();
        for_each_token(text, &mut Vec::new(), |token| out.push(token));
        out
    }

    fn word(text: &str) -> u64 {
        match tokens(text).as_slice() {
            [Token::Word { hash, .. }] => *hash,
            other => panic!("{text:?} is not one word: {other:?}"),
        }
    }

    /// Checks that `text` reads as `expected`, where a word is given by a text that reads as
    /// that one word and anything of one non-alphanumeric character is a symbol.
    fn check_tokens(text: &str, expected: &[&str]) {
        let expected: Vec<Token> = expected
            .iter()
            .map(|&piece| match piece.chars().next() {
                Some(first) if piece.chars().count() == 1 && !first.is_alphanumeric() => {
                    Token::Symbol(first)
                }
                _ => tokens(piece)[0],
            })
            .collect();
        assert_eq!(tokens(text), expected, "{text:?}");
    }

    #[test]
    fn words_are_lower_cased_runs_of_letters_and_digits() {
        check_tokens("Hello, World!", &["hello", ",", "world", "!"]);
        check_tokens("  re:  Odd  ", &["re", ":", "odd"]);
        check_tokens("ÄRGER über Ärger", &["ärger", "über", "ärger"]);
        check_tokens("SCHÖN schön Schön", &["schön", "schön", "schön"]);
        check_tokens("don't", &["don", "'", "t"]);
        check_tokens("a»b", &["a", "»", "b"]);
        check_tokens("", &[]);
        assert_eq!(
            word("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            word("abcdefghijklmnopqrstuvwxyz")
        );
        assert_eq!(word("Straße"), word("STRAßE"));
        assert_ne!(word("abcdefgh1"), word("abcdefgh2"));
        assert_ne!(hash_bytes(b"ab"), hash_bytes(b"ab\0"));
    }

    #[test]
    fn ascii_and_general_paths_hash_alike() {
        // "Café1" takes the general path because of "é"; its ASCII prefix must be lower-cased
        // the same way the fast path does it.
        let mut scratch = Vec::new();
        let mut has_digit = false;
        read_word("Cafe1", 0, &mut scratch, &mut has_digit);
        assert_eq!(hash_bytes(&scratch), word("CAFE1"));
        assert!(has_digit);
        assert_eq!(word("Crème"), word("crème"));
    }

    #[test]
    fn words_are_read_eight_bytes_at_a_time_as_one_at_a_time() {
        // Every byte value at every offset of a chunk, between letters, and words of all
        // lengths around the chunk size, read from every start.
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for byte in 0u8..=255 {
            for offset in 0..10 {
                let mut text = b"abcdEFGHijkl".to_vec();
                text.insert(offset, byte);
                texts.push(text);
            }
        }
        for length in 0..20 {
            texts.push([&b"Ab9"[..], &b"Z".repeat(length), b"7 x"].concat());
        }
        for text in texts {
            for start in 0..text.len() {
                let word: Vec<u8> = text[start..]
                    .iter()
                    .take_while(|byte| byte.is_ascii_alphanumeric())
                    .map(u8::to_ascii_lowercase)
                    .collect();
                let expected = (
                    word.len(),
                    word.iter().any(u8::is_ascii_digit),
                    hash_bytes(&word),
                );
                assert_eq!(
                    read_ascii_word(&text, start),
                    expected,
                    "{text:?} from {start}"
                );
            }
        }
    }

    #[test]
    fn each_cjk_character_is_a_word() {
        check_tokens("论坛帖子", &["论", "坛", "帖", "子"]);
        check_tokens("GBK编码abc", &["gbk", "编", "码", "abc"]);
        check_tokens("ひらがな", &["ひ", "ら", "が", "な"]);
        check_tokens("第3页", &["第", "3", "页"]);
        assert_ne!(word("论"), word("坛"));
    }

    #[test]
    fn changing_words_are_marked() {
        let changing = |text: &str| match tokens(text)[0] {
            Token::Word { changing, .. } => changing,
            Token::Symbol(_) => panic!("{text:?} is a symbol"),
        };
        for text in ["2025", "pm", "Dec", "of", "Karey52", "x9", "３日"] {
            assert!(changing(text), "{text:?}");
        }
        for text in ["Posts", "visit", "über", "论", "été"] {
            assert!(!changing(text), "{text:?}");
        }
    }

    #[test]
    fn hashes_are_stable_across_versions() {
        // Fixed values: a change here would regroup every stored sample.
        assert_eq!(mix64(0), 0);
        assert_eq!(mix64(1), 0x5692_161d_100b_05e5);
        assert_eq!(word("forum"), word("FORUM"));
        assert_eq!(word("forum"), FORUM);
    }

    const FORUM: u64 = 0x8c11_d5bb_ba74_de7e;
}
