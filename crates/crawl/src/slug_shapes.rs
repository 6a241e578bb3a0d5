//! Shapes of URLs that carry a thread's title as a slug.
//!
//! A spelling rule learned while crawling joins two URL shapes (see `online_rewrites`), and a
//! shape keeps every letter of its URL. Sites that name a thread by a slug beside its number
//! (`/questions/255/after-delivery/?sort=oldest&page=1` beside `/questions/255/after-delivery/`)
//! give every thread a shape of its own, so no two threads ever agree on a rule, and a thread's
//! first page spelled with its pager's number was fetched again on every thread (15 % of a
//! question-and-answer site's fetches). A path segment that both shapes of a pair hold at the
//! same place and that reads as a slug (words joined by `-` or `_`) is the thread's name, not
//! part of the spelling: the pair's rule holds it as a mark, so the threads' pairs pool, and a
//! URL is read through the rule with its own slug put back.

use crate::url_numbers::DIGITS_MARK;

/// Stands for a slug both spellings of a pair carry.
const SLUG_MARK: char = '\u{2}';

/// Whether a path segment reads as a slug: words of letters joined by `-` or `_`, no number
/// and no query.
fn is_slug(segment: &str) -> bool {
    segment.contains(['-', '_'])
        && segment.chars().any(char::is_alphabetic)
        && segment
            .chars()
            .all(|character| character.is_alphanumeric() || matches!(character, '-' | '_'))
        && !segment.contains(DIGITS_MARK)
}

/// `shape` with every slug segment it holds at the same place as `other` put as a mark.
pub(crate) fn without_shared_slugs(shape: &str, other: &str) -> String {
    let other_segments: Vec<&str> = other.split('/').collect();
    shape
        .split('/')
        .enumerate()
        .map(|(index, segment)| {
            if is_slug(segment) && other_segments.get(index) == Some(&segment) {
                SLUG_MARK.to_string()
            } else {
                segment.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The slugs `shape` holds where `marked` (a rule's shape) holds marks, in order, when the two
/// are alike everywhere else.
pub(crate) fn slugs_where_marked<'s>(marked: &str, shape: &'s str) -> Option<Vec<&'s str>> {
    let marked_segments: Vec<&str> = marked.split('/').collect();
    let segments: Vec<&str> = shape.split('/').collect();
    if marked_segments.len() != segments.len() {
        return None;
    }
    let mut slugs = Vec::new();
    for (marked_segment, segment) in marked_segments.iter().zip(&segments) {
        if *marked_segment == SLUG_MARK.to_string() {
            if !is_slug(segment) {
                return None;
            }
            slugs.push(*segment);
        } else if marked_segment != segment {
            return None;
        }
    }
    Some(slugs)
}

/// `marked` with its marks filled with `slugs` in order; `None` when their counts differ.
pub(crate) fn with_slugs(marked: &str, slugs: &[&str]) -> Option<String> {
    let mut slugs = slugs.iter();
    let segments: Option<Vec<&str>> = marked
        .split('/')
        .map(|segment| {
            if segment == SLUG_MARK.to_string() {
                slugs.next().copied()
            } else {
                Some(segment)
            }
        })
        .collect();
    let filled = segments?.join("/");
    slugs.next().is_none().then_some(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_shared_at_one_place_are_marked_and_put_back() {
        let first = "http://f.test/questions/\u{1}/after-delivery/?sort=oldest&page=\u{1}";
        let other = "http://f.test/questions/\u{1}/after-delivery/";
        let marked = without_shared_slugs(first, other);
        assert_eq!(
            marked,
            "http://f.test/questions/\u{1}/\u{2}/?sort=oldest&page=\u{1}"
        );
        let another = "http://f.test/questions/\u{1}/broken-match/?sort=oldest&page=\u{1}";
        let slugs = slugs_where_marked(&marked, another).expect("alike but for the slug");
        assert_eq!(slugs, ["broken-match"]);
        assert_eq!(
            with_slugs(&without_shared_slugs(other, first), &slugs).as_deref(),
            Some("http://f.test/questions/\u{1}/broken-match/")
        );
    }

    #[test]
    fn only_slugs_both_shapes_hold_in_one_place_are_marked() {
        let cases = [
            // Another slug in the other shape: a spelling of another page.
            (
                "http://f.test/t/router-drops/\u{1}",
                "http://f.test/t/mesh-or-not/\u{1}",
                "http://f.test/t/router-drops/\u{1}",
            ),
            // Words without a joiner, files and queries are no slugs.
            (
                "http://f.test/forum/hardware/\u{1}",
                "http://f.test/forum/hardware/",
                "http://f.test/forum/hardware/\u{1}",
            ),
            (
                "http://f.test/thread-\u{1}.html",
                "http://f.test/thread-\u{1}.html?x",
                "http://f.test/thread-\u{1}.html",
            ),
        ];
        for (shape, other, expected) in cases {
            assert_eq!(without_shared_slugs(shape, other), expected, "{shape}");
        }
        assert_eq!(
            slugs_where_marked(
                "http://f.test/t/\u{2}/\u{1}",
                "http://f.test/u/some-one/\u{1}"
            ),
            None
        );
        assert_eq!(with_slugs("http://f.test/t/\u{2}/", &[]), None);
    }
}
