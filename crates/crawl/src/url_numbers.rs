//! A URL seen as a *shape*, its text with each run of digits replaced by a mark, and the
//! numbers that fill the shape. Pages of one list differ only in the numbers their shape
//! carries (`lists`), and two spellings of one page can carry the same numbers in two shapes
//! (`online_rewrites`); both read URLs through this one split.

use url::Url;

/// The mark standing for a run of digits in a shape (defined beside the sampler's spellings,
/// which read URLs through the same split).
pub(crate) use trawl_learn::spellings::DIGITS_MARK;
/// `text`'s shape and the numbers it carries, in order, as written (the sampler reads pairs of
/// spellings through the same split, so it is defined beside them).
pub(crate) use trawl_learn::spellings::shape_and_numbers;

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
