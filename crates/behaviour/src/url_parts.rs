//! URLs as key-value pairs: path segments by position, query parameters by name, and for the
//! path positions a log shows built from a template (`thread-123-2-1.html`), the runs of letters
//! and of digits inside the segment by their order.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One key of a decomposed URL.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Key {
    /// The path segment at this 0-based position.
    Segment(u32),
    /// The `run`-th (0-based) run of letters or of digits inside the path segment at position
    /// `segment`, for positions split into runs ([`segments_to_split`]).
    Run { segment: u32, run: u32 },
    /// The query parameter of this name.
    Query(String),
}

impl fmt::Display for Key {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Segment(position) => write!(formatter, "/[{position}]"),
            Key::Run { segment, run } => write!(formatter, "/[{segment}].{run}"),
            Key::Query(name) => write!(formatter, "?{name}"),
        }
    }
}

/// A path and query split into its keys' values. Empty path segments (a doubled or trailing
/// slash) are dropped: engines serve `/t/12/` and `/t/12` alike far more often than not, and
/// keeping them would make two patterns of one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecomposedUrl {
    /// Path segments in order.
    pub segments: Vec<String>,
    /// Query parameters in order; a repeated name keeps its first value.
    pub query: Vec<(String, String)>,
    /// For each path position split into runs that the URL has: the position and its runs.
    pub runs: Vec<(u32, Vec<String>)>,
}

impl DecomposedUrl {
    /// Splits a path and query (an absolute URL loses its scheme and host first), no segment
    /// into runs.
    pub fn of(url: &str) -> DecomposedUrl {
        DecomposedUrl::with_runs(url, &[])
    }

    /// Splits a path and query, and the segments at `run_segments` into their runs too.
    pub fn with_runs(url: &str, run_segments: &[u32]) -> DecomposedUrl {
        let path_and_query = path_and_query_of(url);
        let (path, query) = path_and_query
            .split_once('?')
            .unwrap_or((path_and_query, ""));
        let segments: Vec<String> = path
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(str::to_string)
            .collect();
        let mut pairs: Vec<(String, String)> = Vec::new();
        for pair in query.split(['&', ';']).filter(|pair| !pair.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            if !pairs.iter().any(|(seen, _)| seen == name) {
                pairs.push((name.to_string(), value.to_string()));
            }
        }
        let runs = run_segments
            .iter()
            .filter_map(|&position| {
                let segment: &String = segments.get(position as usize)?;
                let runs = segment_runs(segment)
                    .into_iter()
                    .map(str::to_string)
                    .collect();
                Some((position, runs))
            })
            .collect();
        DecomposedUrl {
            segments,
            query: pairs,
            runs,
        }
    }

    /// The value under `key`, `None` when the URL lacks the key.
    pub fn value(&self, key: &Key) -> Option<&str> {
        match key {
            Key::Segment(position) => self.segments.get(*position as usize).map(String::as_str),
            Key::Run { segment, run } => self
                .runs
                .iter()
                .find(|(position, _)| position == segment)
                .and_then(|(_, runs)| runs.get(*run as usize))
                .map(String::as_str),
            Key::Query(name) => self
                .query
                .iter()
                .find(|(seen, _)| seen == name)
                .map(|(_, value)| value.as_str()),
        }
    }

    /// Every key the URL has.
    pub fn keys(&self) -> impl Iterator<Item = Key> + '_ {
        (0..self.segments.len() as u32)
            .map(Key::Segment)
            .chain(self.runs.iter().flat_map(|(segment, runs)| {
                (0..runs.len() as u32).map(|run| Key::Run {
                    segment: *segment,
                    run,
                })
            }))
            .chain(self.query.iter().map(|(name, _)| Key::Query(name.clone())))
    }
}

/// The path and query of a URL: an absolute http(s) URL loses scheme and host, a fragment is
/// dropped, a bare path is kept as it is.
pub fn path_and_query_of(url: &str) -> &str {
    let url = url.split('#').next().unwrap_or("");
    let lower_start = url
        .get(..8)
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    let after_scheme = if lower_start.starts_with("http://") {
        &url[7..]
    } else if lower_start.starts_with("https://") {
        &url[8..]
    } else {
        return url;
    };
    match after_scheme.find(['/', '?']) {
        Some(start) => &after_scheme[start..],
        None => "/",
    }
}

/// Whether a value is a plain decimal number (identifiers and page numbers).
pub fn is_number(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_digit())
}

/// Orders two values by their runs of digits read as numbers, left to right (`2026-01` after
/// `2025-12`, `page-10` after `page-9`; leading zeros do not count), then by their text. Meant
/// for values of one [`number_form`], whose letters agree.
pub(crate) fn compare_numbers_in(first: &str, second: &str) -> std::cmp::Ordering {
    let runs = |value: &str| -> Vec<String> {
        value
            .split(|character: char| !character.is_ascii_digit())
            .filter(|run| !run.is_empty())
            .map(|run| run.trim_start_matches('0').to_string())
            .collect()
    };
    let (first_runs, second_runs) = (runs(first), runs(second));
    for (a, b) in first_runs.iter().zip(&second_runs) {
        let order = a.len().cmp(&b.len()).then_with(|| a.cmp(b));
        if order != std::cmp::Ordering::Equal {
            return order;
        }
    }
    first_runs
        .len()
        .cmp(&second_runs.len())
        .then_with(|| first.cmp(second))
}

/// A value with every run of digits read as `{n}`: `page-12` is `page-{n}`, `40` is `{n}`.
pub(crate) fn number_form(value: &str) -> String {
    let mut form = String::new();
    let mut in_digits = false;
    for character in value.chars() {
        if character.is_ascii_digit() {
            if !in_digits {
                form.push_str("{n}");
            }
            in_digits = true;
        } else {
            form.push(character);
            in_digits = false;
        }
    }
    form
}

/// What kind of run a character continues: digits, letters, or neither (a separator).
fn run_kind(character: char) -> Option<bool> {
    if character.is_ascii_digit() {
        Some(true)
    } else if character.is_alphanumeric() {
        Some(false)
    } else {
        None
    }
}

/// The runs of letters and of digits a segment is made of, in order: `thread-123-2-1.html` is
/// `thread`, `123`, `2`, `1`, `html`; `msg00012.html` is `msg`, `00012`, `html`.
pub fn segment_runs(segment: &str) -> Vec<&str> {
    let mut runs = Vec::new();
    let mut start: Option<(usize, bool)> = None;
    for (index, character) in segment.char_indices() {
        let kind = run_kind(character);
        match (start, kind) {
            (Some((_, current)), Some(kind)) if current == kind => {}
            _ => {
                if let Some((from, _)) = start {
                    runs.push(&segment[from..index]);
                }
                start = kind.map(|kind| (index, kind));
            }
        }
    }
    if let Some((from, _)) = start {
        runs.push(&segment[from..]);
    }
    runs
}

/// What lies around a segment's runs: the text before the first, between each two, after the
/// last (one more than the runs). Segments with the same separators are made alike.
pub fn segment_separators(segment: &str) -> Vec<&str> {
    let mut separators = Vec::new();
    let mut from = 0;
    let mut previous: Option<bool> = None;
    let mut in_separator = true;
    for (index, character) in segment.char_indices() {
        let kind = run_kind(character);
        match kind {
            Some(kind) => {
                if in_separator || previous != Some(kind) {
                    separators.push(&segment[from..index]);
                }
                in_separator = false;
                from = index + character.len_utf8();
            }
            None => {
                if !in_separator {
                    from = index;
                }
                in_separator = true;
            }
        }
        previous = kind;
    }
    separators.push(if in_separator { &segment[from..] } else { "" });
    separators
}

/// Fewest distinct values built from a template a path position needs to be split into runs.
const MIN_TEMPLATED_VALUES: usize = 8;

/// Most forms (values with digits read as `{n}`) the templated values of a position may show.
const MOST_TEMPLATE_FORMS: usize = 16;

/// The path positions to split into runs: those where most distinct values are built from a
/// few templates around numbers (`thread-{n}-{n}-{n}.html`, `forum-{n}-{n}.html`), as engines
/// with rewritten URLs spell a whole page in one segment. A value is *templated* when it has
/// two runs or more and one of them is digits; the position is split when it shows at least
/// [`MIN_TEMPLATED_VALUES`] templated values, they are at least half of its distinct values,
/// and their forms number at most [`MOST_TEMPLATE_FORMS`] and at most the square root of the
/// templated values (the same rule that tells a key naming kinds of pages from one naming
/// items). A slug (`my-first-post-123`) is templated too, but every slug is its own form, so
/// slug positions stay whole: their words are no keys.
pub fn segments_to_split<'a>(urls: impl IntoIterator<Item = &'a str>) -> Vec<u32> {
    let mut values: std::collections::BTreeMap<u32, std::collections::BTreeSet<String>> =
        Default::default();
    for url in urls {
        for (position, segment) in DecomposedUrl::of(url).segments.into_iter().enumerate() {
            values.entry(position as u32).or_default().insert(segment);
        }
    }
    values
        .into_iter()
        .filter(|(_, values)| {
            let templated: Vec<&String> = values
                .iter()
                .filter(|value| {
                    let runs = segment_runs(value);
                    runs.len() >= 2 && runs.iter().any(|run| is_number(run))
                })
                .collect();
            let forms: std::collections::BTreeSet<String> =
                templated.iter().map(|value| number_form(value)).collect();
            templated.len() >= MIN_TEMPLATED_VALUES
                && templated.len() * 2 >= values.len()
                && forms.len() <= MOST_TEMPLATE_FORMS
                && (forms.len() as f64) <= (templated.len() as f64).sqrt()
        })
        .map(|(position, _)| position)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_runs(segment: &str, runs: &[&str], separators: &[&str]) {
        assert_eq!(segment_runs(segment), runs, "runs of {segment:?}");
        assert_eq!(
            segment_separators(segment),
            separators,
            "separators of {segment:?}"
        );
    }

    fn check_order(first: &str, second: &str, expected: std::cmp::Ordering) {
        assert_eq!(
            compare_numbers_in(first, second),
            expected,
            "{first:?} against {second:?}"
        );
        assert_eq!(
            compare_numbers_in(second, first),
            expected.reverse(),
            "{second:?} against {first:?}"
        );
    }

    #[test]
    fn values_are_ordered_by_their_numbers() {
        use std::cmp::Ordering::{Equal, Greater, Less};
        check_order("2026-01", "2025-12", Greater);
        check_order("2025-02", "2025-11", Less);
        check_order("page-10", "page-9", Greater);
        check_order("msg00100.html", "msg00099.html", Greater);
        // Equal numbers fall back to the text, so that the order is total.
        check_order("007", "7", Less);
        check_order("40", "40", Equal);
        check_order("2025-12-01", "2025-12", Greater);
    }

    #[test]
    fn segments_split_into_runs_of_letters_and_of_digits() {
        check_runs(
            "thread-123-2-1.html",
            &["thread", "123", "2", "1", "html"],
            &["", "-", "-", "-", ".", ""],
        );
        check_runs(
            "msg00012.html",
            &["msg", "00012", "html"],
            &["", "", ".", ""],
        );
        check_runs("page-5", &["page", "5"], &["", "-", ""]);
        check_runs("~user_7/", &["user", "7"], &["~", "_", "/"]);
        check_runs("forum.php", &["forum", "php"], &["", ".", ""]);
        check_runs("版块-12", &["版块", "12"], &["", "-", ""]);
        check_runs("--", &[], &["--"]);
        check_runs("", &[], &[""]);
    }

    fn check_split(urls: &[String], expected: &[u32]) {
        assert_eq!(
            segments_to_split(urls.iter().map(String::as_str)),
            expected,
            "{urls:?}"
        );
    }

    #[test]
    fn positions_whose_values_share_a_few_templates_are_split() {
        // Discuz-style rewritten pages, and a portal script beside them.
        let mut rewritten: Vec<String> = (1..=20)
            .flat_map(|id| {
                [
                    format!("/thread-{id}-1-1.html"),
                    format!("/forum-{}-{}.html", id % 4, id % 3 + 1),
                ]
            })
            .collect();
        rewritten.push("/forum.php".to_string());
        check_split(&rewritten, &[0]);
        // A list archive's message files, under a directory that is no template.
        let messages: Vec<String> = (1..=12)
            .map(|id| format!("/lists/dev/msg{id:05}.html"))
            .collect();
        check_split(&messages, &[2]);
    }

    #[test]
    fn slugs_scripts_and_few_values_stay_whole() {
        let slugs: Vec<String> = (1..=40)
            .map(|id| {
                format!(
                    "/threads/{}-post-{id}.{id}/",
                    ["my", "our", "a", "the", "this", "that", "one", "two"][id % 8]
                        .repeat(id / 8 + 1)
                )
            })
            .collect();
        check_split(&slugs, &[]);
        let scripts: Vec<String> = (1..=40)
            .map(|id| format!("/viewtopic.php?t={id}"))
            .collect();
        check_split(&scripts, &[]);
        // Seven templated values are too few to tell a template.
        let pages: Vec<String> = (2..=8)
            .map(|page| format!("/t/{page}/page-{page}"))
            .collect();
        check_split(&pages, &[]);
        // Templated values must be at least half of the position's values.
        let mut mixed: Vec<String> = (1..=10).map(|id| format!("/item-{id}")).collect();
        mixed.extend((1..=11).map(|id| format!("/{}", "abcdefghijklmnop".get(id..).unwrap())));
        check_split(&mixed, &[]);
    }

    #[test]
    fn run_keys_read_the_runs_of_split_positions_only() {
        let url = DecomposedUrl::with_runs("/bbs/thread-77-3-1.html?from=x", &[1, 4]);
        let keys: Vec<Key> = url.keys().collect();
        assert_eq!(
            keys,
            vec![
                Key::Segment(0),
                Key::Segment(1),
                Key::Run { segment: 1, run: 0 },
                Key::Run { segment: 1, run: 1 },
                Key::Run { segment: 1, run: 2 },
                Key::Run { segment: 1, run: 3 },
                Key::Run { segment: 1, run: 4 },
                Key::Query("from".to_string()),
            ]
        );
        assert_eq!(url.value(&Key::Run { segment: 1, run: 1 }), Some("77"));
        assert_eq!(url.value(&Key::Run { segment: 1, run: 5 }), None);
        assert_eq!(url.value(&Key::Run { segment: 0, run: 0 }), None);
        assert_eq!(DecomposedUrl::of("/thread-77-3-1.html").runs, vec![]);
    }
}
