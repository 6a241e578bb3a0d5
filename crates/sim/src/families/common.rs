//! Small helpers that several families share word for word.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};

use crate::history::ForumHistory;
use crate::route::{ActionKind, Address, Route, Variant};
use crate::text::{self, Language, slugify};

/// A decimal number written the one way engines write ids and page numbers: digits only, no
/// sign, no leading zero. Other spellings are refused so that no page gains spellings nothing
/// lists.
pub(super) fn plain_number(text: &str) -> Option<u32> {
    let digits = !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    let canonical = digits && (text == "0" || !text.starts_with('0'));
    if canonical { text.parse().ok() } else { None }
}

/// Reads `?page=N` of numbered lists: no `page` is the first page, `page=1` its explicit
/// spelling, anything but a plain positive number no page at all.
pub(super) fn page_parameter(pairs: &[(String, String)], variant: &mut Variant) -> Option<u32> {
    let Some(text) = crate::html::query_value(pairs, "page") else {
        return Some(1);
    };
    let page = plain_number(text).filter(|&page| page >= 1)?;
    variant.explicit_first_page = page == 1;
    Some(page)
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

/// The plain address a quirk's route stands for, for families without that quirk: a cursor
/// page as the list's first page, a members-only thread as a thread id (which such families
/// answer "not found", having no thread of that id), the forum-wide thread list of
/// question-and-answer sites as the portal, another order of answers as the canonical one. No
/// page of theirs links any of them.
pub(super) fn without_quirks(address: &Address) -> Address {
    let route = match address.route {
        Route::BoardAfter { board, .. } => Route::Board { board, page: 1 },
        Route::HiddenThread { thread } => Route::Thread { thread, page: 1 },
        Route::AllThreads { .. } => Route::Portal,
        ref other => other.clone(),
    };
    Address {
        route,
        variant: Variant {
            ignored_page: None,
            answers: crate::route::AnswerOrder::Oldest,
            ..address.variant.clone()
        },
    }
}

/// The route of a member-only action on `target`.
pub(super) fn action(kind: ActionKind, target: u32) -> Route {
    Route::Action { kind, target }
}

/// `make(value)` when there is a value, else nothing: the optional parts of templates.
pub(super) fn either<T>(value: Option<T>, make: impl FnOnce(T) -> String) -> String {
    value.map(make).unwrap_or_default()
}

thread_local! {
    /// The thread slug this OS thread made last. A page links one thread many times (every
    /// permalink and quote link of a thread page carries its slug) and making a title is the
    /// dearest part of encoding, so remembering one slug is worth it.
    static LAST_SLUG: RefCell<(u64, Language, u32, String)> =
        const { RefCell::new((0, Language::English, 0, String::new())) };
}

/// The URL slug of a thread's title, for the families that put slugs in paths.
pub(super) fn thread_slug(history: &ForumHistory, thread: u32) -> String {
    LAST_SLUG.with(|last| {
        let mut last = last.borrow_mut();
        let key = (history.seed, history.language, thread);
        if (last.0, last.1, last.2) != key || last.3.is_empty() {
            let slug = slugify(&text::title(history.seed, history.language, thread));
            *last = (key.0, key.1, key.2, slug);
        }
        last.3.clone()
    })
}

/// An index a family derives from a history (slugs to ids, timestamps to ids), made once for
/// the last history asked about: a family is built before its history and shared by threads.
#[derive(Debug)]
pub(super) struct HistoryCache<T> {
    slot: Mutex<Option<(HistoryKey, Arc<T>)>>,
}

/// What tells two histories apart for a family's indexes.
type HistoryKey = (u64, Language, u32);

impl<T> HistoryCache<T> {
    pub(super) const fn new() -> Self {
        HistoryCache {
            slot: Mutex::new(None),
        }
    }

    /// The index of `history`, made by `make` unless it is the one made last.
    pub(super) fn get(
        &self,
        history: &ForumHistory,
        make: impl FnOnce(&ForumHistory) -> T,
    ) -> Arc<T> {
        let key = (history.seed, history.language, history.thread_count());
        let mut slot = self.slot.lock().expect("history cache");
        if let Some((known, index)) = slot.as_ref()
            && *known == key
        {
            return Arc::clone(index);
        }
        let index = Arc::new(make(history));
        *slot = Some((key, Arc::clone(&index)));
        index
    }
}
