//! A URL seen as a *shape*, its text with each run of digits replaced by a mark, and the
//! numbers that fill the shape. Pages of one list differ only in the numbers their shape
//! carries (`lists`), and two spellings of one page can carry the same numbers in two shapes
//! (`online_rewrites`); both read URLs through this one split.

use url::Url;

/// The mark standing for a run of digits in a shape: a control character, which a URL's text
/// never holds, so a shape cannot be confused with a URL.
pub(crate) const DIGITS_MARK: &str = "\u{1}";

/// `text`'s shape and the numbers it carries, in order, as written (leading zeros kept, so a
/// shape filled with them gives the URL back).
pub(crate) fn shape_and_numbers(text: &str) -> (String, Vec<String>) {
    let mut shape = String::with_capacity(text.len());
    let mut numbers = Vec::new();
    let mut digits = String::new();
    for character in text.chars() {
        if character.is_ascii_digit() {
            digits.push(character);
            continue;
        }
        if !digits.is_empty() {
            numbers.push(std::mem::take(&mut digits));
            shape.push_str(DIGITS_MARK);
        }
        shape.push(character);
    }
    if !digits.is_empty() {
        numbers.push(digits);
        shape.push_str(DIGITS_MARK);
    }
    (shape, numbers)
}

/// The URL of `shape` carrying `numbers`, or `None` when they do not fit.
pub(crate) fn fill_shape(shape: &str, numbers: &[String]) -> Option<Url> {
    let mut text = String::with_capacity(shape.len() + 8 * numbers.len());
    let mut numbers = numbers.iter();
    let mut pieces = shape.split(DIGITS_MARK);
    text.push_str(pieces.next()?);
    for piece in pieces {
        text.push_str(numbers.next()?);
        text.push_str(piece);
    }
    if numbers.next().is_some() {
        return None;
    }
    Url::parse(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shape_filled_with_its_numbers_gives_the_url_back() {
        for text in [
            "http://f.test/index.php?topic=8.0",
            "http://f.test/thread-007-2-1.html",
            "http://f.test/t/slug/123",
        ] {
            let (shape, numbers) = shape_and_numbers(text);
            assert!(!shape.chars().any(|c| c.is_ascii_digit()), "{shape:?}");
            assert_eq!(fill_shape(&shape, &numbers).unwrap().as_str(), text);
        }
        let (shape, _) = shape_and_numbers("http://f.test/t?id=5");
        assert_eq!(fill_shape(&shape, &["1".into(), "2".into()]), None);
    }
}
