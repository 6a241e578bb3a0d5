//! Character references (`&amp;`, `&#8217;`, `&#x2014;`) as the WHATWG tokenizer reads them.
//!
//! The rules follow html5ever's `char_ref` module, which the tests compare against: a named
//! reference is the longest name in the entity table that the input starts with (names without
//! a semicolon included, for the legacy ones); inside an attribute value such a name without its
//! semicolon stays literal when a letter, digit or `=` follows (`?a=1&copy=2` in a URL); numeric
//! references map zero, surrogates and values past U+10FFFF to U+FFFD and C1 controls through
//! the windows-1252 table.

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

/// What the tokenizer reads at an `&`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reference {
    /// Not a reference: the `&` stays as it is and reading goes on after it.
    Literal,
    /// A reference standing for one or two characters, ending at byte `end`.
    Decoded {
        first: char,
        second: Option<char>,
        end: usize,
    },
}

/// Reads the reference starting at the `&` at byte `ampersand` of `text`.
pub(super) fn read_reference(text: &str, ampersand: usize, in_attribute: bool) -> Reference {
    let bytes = text.as_bytes();
    match bytes.get(ampersand + 1) {
        Some(b'#') => read_numeric(bytes, ampersand + 2),
        Some(byte) if byte.is_ascii_alphanumeric() => read_named(text, ampersand + 1, in_attribute),
        _ => Reference::Literal,
    }
}

fn read_named(text: &str, name_start: usize, in_attribute: bool) -> Reference {
    let bytes = text.as_bytes();
    if let Some(reference) = read_whole_name(text, name_start) {
        return reference;
    }
    // The table holds every prefix of every name (with the value (0, 0) when the prefix is not
    // itself a name), so reading stops at the first character that leaves the table. Names are
    // ASCII, so a non-ASCII byte ends the name without slicing inside a character.
    let mut best: Option<((u32, u32), usize)> = None;
    let mut end = name_start;
    while end < bytes.len() && bytes[end].is_ascii() {
        match NAMED_ENTITIES.get(&text[name_start..=end]) {
            Some(&value) => {
                end += 1;
                if value.0 != 0 {
                    best = Some((value, end));
                }
            }
            None => break,
        }
    }
    let Some(((first, second), match_end)) = best else {
        return Reference::Literal;
    };
    let ends_with_semicolon = bytes[match_end - 1] == b';';
    let letter_or_equals_follows = bytes
        .get(match_end)
        .is_some_and(|&next| next == b'=' || next.is_ascii_alphanumeric());
    if in_attribute && !ends_with_semicolon && letter_or_equals_follows {
        return Reference::Literal;
    }
    Reference::Decoded {
        first: char::from_u32(first).unwrap_or('\u{fffd}'),
        second: (second != 0).then(|| char::from_u32(second).unwrap_or('\u{fffd}')),
        end: match_end,
    }
}

/// The reference when the letters and digits after the `&` end in a `;` and together name an
/// entity: the usual shape (`&nbsp;`, `&quot;`, `&hellip;`), and the longest match there can
/// be, since every name in the table ends at its first `;`. One hash of the whole name instead
/// of one per prefix, which the general walk below needs (a page's references cost a sixth of
/// tokenizing it that way); the handful of names forums use most are matched without hashing.
fn read_whole_name(text: &str, name_start: usize) -> Option<Reference> {
    let bytes = text.as_bytes();
    let name_length = bytes[name_start..]
        .iter()
        .position(|byte| !byte.is_ascii_alphanumeric())?;
    let end = name_start + name_length + 1;
    if bytes.get(end - 1) != Some(&b';') {
        return None;
    }
    let common = match &text[name_start..end] {
        "amp;" => Some('&'),
        "nbsp;" => Some('\u{a0}'),
        "quot;" => Some('"'),
        "lt;" => Some('<'),
        "gt;" => Some('>'),
        "apos;" => Some('\''),
        _ => None,
    };
    if let Some(first) = common {
        return Some(Reference::Decoded {
            first,
            second: None,
            end,
        });
    }
    match NAMED_ENTITIES.get(&text[name_start..end]) {
        Some(&(first, second)) if first != 0 => Some(Reference::Decoded {
            first: as_char(first),
            second: (second != 0).then(|| as_char(second)),
            end,
        }),
        // Not a name: the walk below finds a legacy name that is a prefix of it, if any.
        _ => None,
    }
}

fn read_numeric(bytes: &[u8], after_hash: usize) -> Reference {
    let (base, digits_start) = match bytes.get(after_hash) {
        Some(b'x' | b'X') => (16, after_hash + 1),
        Some(_) => (10, after_hash),
        // `&#` at the end of the page stays literal.
        None => return Reference::Literal,
    };
    let mut value: u32 = 0;
    let mut too_big = false;
    let mut end = digits_start;
    while let Some(digit) = bytes
        .get(end)
        .and_then(|&byte| (byte as char).to_digit(base))
    {
        // The same order of steps as html5ever: the overflow flag is set after the multiply,
        // before the digit is added.
        value = value.wrapping_mul(base);
        if value > 0x10FFFF {
            too_big = true;
        }
        value = value.wrapping_add(digit);
        end += 1;
    }
    if end == digits_start {
        return Reference::Literal;
    }
    if bytes.get(end) == Some(&b';') {
        end += 1;
    }
    let character = match value {
        _ if too_big || value > 0x10FFFF => '\u{fffd}',
        0 | 0xD800..=0xDFFF => '\u{fffd}',
        0x80..=0x9F => C1_REPLACEMENTS[(value - 0x80) as usize].unwrap_or_else(|| as_char(value)),
        _ => as_char(value),
    };
    Reference::Decoded {
        first: character,
        second: None,
        end,
    }
}

fn as_char(value: u32) -> char {
    char::from_u32(value).unwrap_or('\u{fffd}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, in_attribute: bool, expected: Option<(&str, usize)>) {
        let got = match read_reference(text, 0, in_attribute) {
            Reference::Literal => None,
            Reference::Decoded { first, second, end } => {
                let mut decoded = first.to_string();
                decoded.extend(second);
                Some((decoded, end))
            }
        };
        let expected = expected.map(|(decoded, end)| (decoded.to_string(), end));
        assert_eq!(
            got, expected,
            "reading {text:?} (in attribute: {in_attribute})"
        );
    }

    #[test]
    fn named_references_take_the_longest_name_in_the_table() {
        check("&amp;", false, Some(("&", 5)));
        check("&ampx", false, Some(("&", 4)));
        check("&notin;", false, Some(("∉", 7)));
        check("&notit;", false, Some(("¬", 4)));
        check("&nosuch;", false, None);
        check("&", false, None);
        check("& b", false, None);
        check("&NotEqualTilde;", false, Some(("\u{2242}\u{338}", 15)));
        check("&nbsp;x", false, Some(("\u{a0}", 6)));
        check("&apos;", true, Some(("'", 6)));
        check("&AMP;", false, Some(("&", 5)));
        check("&hellip;", false, Some(("\u{2026}", 8)));
        check("&ampere;", false, Some(("&", 4)));
        check("&ampere;", true, None);
        check("&amp", false, Some(("&", 4)));
        check("&zzzz", false, None);
    }

    #[test]
    fn legacy_names_without_semicolon_stay_literal_before_letters_in_attributes() {
        check("&copy=2", true, None);
        check("&copyx", true, None);
        check("&copy;x", true, Some(("©", 6)));
        check("&copy x", true, Some(("©", 5)));
        check("&copy=2", false, Some(("©", 5)));
    }

    #[test]
    fn numeric_references_follow_the_replacement_rules() {
        check("&#8217;", false, Some(("\u{2019}", 7)));
        check("&#x2014;", false, Some(("\u{2014}", 8)));
        check("&#X41", false, Some(("A", 5)));
        check("&#0;", false, Some(("\u{fffd}", 4)));
        check("&#xD800;", false, Some(("\u{fffd}", 8)));
        check("&#x110000;", false, Some(("\u{fffd}", 10)));
        check("&#99999999999999;", false, Some(("\u{fffd}", 17)));
        check("&#150;", false, Some(("\u{2013}", 6)));
        check("&#129;", false, Some(("\u{81}", 6)));
        check("&#;", false, None);
        check("&#x;", false, None);
        check("&#", false, None);
    }
}
