//! The forms a node's values take, key by key: what a pattern says of a key no split named.
//!
//! A split fixes the values a child takes for one key; every other key of a pattern is shown as
//! its URLs show it (`{n}`, `{*}`) and, until this module, took any value at all. So a pattern
//! learned from users who only ever opened a list's `threads.html`, `threads2.html` and
//! `threads3.html` also took `date3.html` and `author3.html`, the same list in other orders
//! that no user opened, and gave them the score users gave the thread view; and a NodeBB-like
//! thread pattern `/topic/{n}/{*}` took `/topic/2317.rss`, the thread's feed. Ranked like the
//! pages users read, such copies fill the first fetches of an ordered crawl (the simulated
//! mailing-list archive and NodeBB forum, 2026-11-28). A form is the value with every run of
//! digits read as `{n}` (`threads{n}.html`); where a key's values show a few forms, each shared
//! by several values, the forms are what users visited and a value of another form is a kind
//! of page no user visited.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::frequencies::UrlId;
use crate::url_parts::{DecomposedUrl, Key, number_form};

/// The forms the values of one key take at a node, when they are few: a value of another form
/// is of a kind no user visited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyForms {
    /// The key.
    pub key: Key,
    /// Its values' forms, sorted (`threads{n}.html`, `{n}`, `login`).
    pub forms: Vec<String>,
}

impl KeyForms {
    /// Whether `value` reads as one of the forms.
    pub fn admits(&self, value: &str) -> bool {
        self.forms
            .binary_search_by(|form| form.as_str().cmp(&number_form(value)))
            .is_ok()
    }
}

/// The keys of `urls` whose values take few forms, with those forms, sorted by key. A key's
/// forms are few when there are at most `most_forms` of them and at most the square root of
/// its distinct values: thread ids (one form, `{n}`), page names (`threads.html`,
/// `threads{n}.html`), a single script name. Slugs and names are each a form of their own, so
/// a key of slugs is never closed and a new thread's slug still finds its pattern.
pub(super) fn closed_key_forms(
    urls: &[UrlId],
    decomposed: &[DecomposedUrl],
    most_forms: usize,
) -> Vec<KeyForms> {
    let keys: BTreeSet<Key> = urls
        .iter()
        .flat_map(|&url| decomposed[url as usize].keys())
        .collect();
    keys.into_iter()
        .filter_map(|key| {
            let values: BTreeSet<&str> = urls
                .iter()
                .filter_map(|&url| decomposed[url as usize].value(&key))
                .collect();
            let forms: BTreeSet<String> = values.iter().map(|value| number_form(value)).collect();
            let few = forms.len() <= most_forms && forms.len() * forms.len() <= values.len();
            few.then(|| KeyForms {
                key,
                forms: forms.into_iter().collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closed keys of `urls` (as `key: form|form`) with at most 16 forms.
    fn check(urls: &[&str], expected: &[&str]) {
        let decomposed: Vec<DecomposedUrl> =
            urls.iter().map(|url| DecomposedUrl::of(url)).collect();
        let ids: Vec<UrlId> = (0..urls.len() as UrlId).collect();
        let shown: Vec<String> = closed_key_forms(&ids, &decomposed, 16)
            .into_iter()
            .map(|forms| format!("{}: {}", forms.key, forms.forms.join("|")))
            .collect();
        assert_eq!(shown, expected, "urls: {urls:?}");
    }

    #[test]
    fn keys_whose_values_take_few_forms_are_closed() {
        // Page names of one list view: two forms over four values.
        check(
            &[
                "/archives/cycling/threads.html",
                "/archives/cycling/threads2.html",
                "/archives/cycling/threads3.html",
                "/archives/cycling/threads4.html",
            ],
            &[
                "/[0]: archives",
                "/[1]: cycling",
                "/[2]: threads.html|threads{n}.html",
            ],
        );
        // Thread ids are one form; slugs are each their own, and stay open.
        check(
            &[
                "/topic/12/first-words",
                "/topic/345/other-words",
                "/topic/6789/more-words",
                "/topic/4/last-words",
            ],
            &["/[0]: topic", "/[1]: {n}"],
        );
        // Page numbers in a query; the thread ids beside them too.
        check(
            &[
                "/t.php?id=1&p=2",
                "/t.php?id=2&p=3",
                "/t.php?id=3&p=4",
                "/t.php?id=9",
            ],
            &["/[0]: t.php", "?id: {n}", "?p: {n}"],
        );
        // Two values of two forms: too few values to say the key takes only these.
        check(
            &["/archives/threads.html", "/archives/date.html"],
            &["/[0]: archives"],
        );
    }

    #[test]
    fn a_value_is_admitted_by_its_form() {
        let forms = KeyForms {
            key: Key::Segment(2),
            forms: vec!["threads.html".to_string(), "threads{n}.html".to_string()],
        };
        assert!(forms.admits("threads52.html"));
        assert!(forms.admits("threads.html"));
        assert!(!forms.admits("date3.html"));
        assert!(!forms.admits("threads3.rss"));
        let ids = KeyForms {
            key: Key::Segment(1),
            forms: vec!["{n}".to_string()],
        };
        assert!(ids.admits("98765"));
        assert!(!ids.admits("2317.rss"));
    }
}
