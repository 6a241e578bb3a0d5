//! Tests of the time module, by concern: absolute formats, relative ones, texts that must not
//! match, finding in longer texts, and robustness and speed.

mod absolute_cases;
mod finding;
mod joining_cases;
mod language_matrix;
mod rejections;
mod relative_cases;
mod robustness;

use jiff::Timestamp;

use super::{DateContext, ParsedTime, find_times, parse_time};

/// The instant every table test is fetched at: Wednesday 2 April 2025, 12:00:00 on a forum two
/// hours east of UTC.
pub(super) const FETCHED_AT: &str = "2025-04-02T10:00:00Z";

/// The offset of the test forum.
pub(super) const FORUM_OFFSET: i32 = 2 * 3600;

/// The context of the table tests.
pub(super) fn context() -> DateContext {
    context_at(FETCHED_AT, Some(FORUM_OFFSET))
}

/// A context fetched at `instant` (RFC 3339) on a forum at `offset`.
pub(super) fn context_at(instant: &str, offset: Option<i32>) -> DateContext {
    let fetched_at: Timestamp = instant.parse().unwrap_or(Timestamp::UNIX_EPOCH);
    DateContext::new(fetched_at, offset)
}

/// Checks that `text` as a whole reads as `expected` (ISO 8601 at the parsed precision) in the
/// tests' context, or does not read at all; and that `find_times` agrees, finding exactly that
/// one match spanning the text, or nothing.
#[track_caller]
pub(super) fn check(text: &str, expected: Option<&str>) {
    check_in(text, expected, &context());
}

/// [`check`] in a given context.
#[track_caller]
pub(super) fn check_in(text: &str, expected: Option<&str>, context: &DateContext) {
    if let Err(failure) = verify(text, expected, context) {
        panic!("{failure}");
    }
}

/// Checks every case of a table, as [`check`] does, and reports all failures at once, so that one run shows every
/// format that regressed.
#[track_caller]
pub(super) fn check_table<'a>(cases: impl IntoIterator<Item = (&'a str, Option<&'a str>)>) {
    let context = context();
    let failures: Vec<String> = cases
        .into_iter()
        .filter_map(|(text, expected)| verify(text, expected, &context).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The checks of [`check_in`], with the first failure described.
fn verify(text: &str, expected: Option<&str>, context: &DateContext) -> Result<(), String> {
    let parsed = parse_time(text, context);
    let reading = parsed.map(|time| time.to_iso8601());
    if reading.as_deref() != expected {
        return Err(format!(
            "parse_time({text:?}) = {reading:?}, expected {expected:?}"
        ));
    }
    let found = find_times(text, context);
    match expected {
        Some(_) => {
            let start = text.len() - text.trim_start().len();
            let spans: Vec<(usize, usize)> = found.iter().map(|f| (f.start, f.end)).collect();
            if spans != [(start, text.trim_end().len())] || Some(found[0].time) != parsed {
                return Err(format!("find_times({text:?}) found {spans:?}: {found:?}"));
            }
        }
        None if !found.is_empty() => {
            return Err(format!("find_times({text:?}) found {found:?}"));
        }
        None => {}
    }
    Ok(())
}

/// The readings `find_times` gives for `text`, as (matched text, ISO 8601).
pub(super) fn found_in(text: &str, context: &DateContext) -> Vec<(String, String)> {
    find_times(text, context)
        .into_iter()
        .map(|found| {
            let matched = text.get(found.start..found.end).unwrap_or("?");
            (matched.to_string(), found.time.to_iso8601())
        })
        .collect()
}

/// The reading of `text` as a whole, which the test expects to exist.
#[track_caller]
pub(super) fn parsed(text: &str) -> ParsedTime {
    match parse_time(text, &context()) {
        Some(time) => time,
        None => panic!("{text:?} did not parse"),
    }
}
