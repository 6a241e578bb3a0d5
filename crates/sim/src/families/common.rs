//! Small helpers that several families share word for word.

use crate::route::{ActionKind, Route};

/// A decimal number written the one way engines write ids and page numbers: digits only, no
/// sign, no leading zero. Other spellings are refused so that no page gains spellings nothing
/// lists.
pub(super) fn plain_number(text: &str) -> Option<u32> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    let canonical = digits && (text == "0" || !text.starts_with('0'));
    if canonical { text.parse().ok() } else { None }
}

/// Reads the `YYYY-MM` of calendar URLs: four or more digits of year, exactly two of month.
pub(super) fn year_month(text: &str) -> Option<(i32, u32)> {
    let (year, month) = text.split_once('-')?;
    let digits = |text: &str| text.bytes().all(|byte| byte.is_ascii_digit());
    if year.len() < 4 || month.len() != 2 || !digits(year) || !digits(month) {
        return None;
    }
    Some((year.parse().ok()?, month.parse().ok()?))
}

/// The route of a member-only action on `target`.
pub(super) fn action(kind: ActionKind, target: u32) -> Route {
    Route::Action { kind, target }
}

/// `make(value)` when there is a value, else nothing: the optional parts of templates.
pub(super) fn either<T>(value: Option<T>, make: impl FnOnce(T) -> String) -> String {
    value.map(make).unwrap_or_default()
}
