//! What the audit reads of one page, reduced where the page is stored, so that an audit of a big
//! crawl reads a few numbers and links per page instead of every post's text and every body.
//!
//! The audit compares posts only with one another (a post a forum shows on two pages of a
//! thread is counted once), so a post is read as a 64-bit key of what tells it apart
//! ([`post_identity`]), and a page's posts as their keys and the latest time among them
//! ([`PostsSeen`]): that is all the audit asks of them. Two distinct posts of one thread share a
//! key with a chance of about one in 2^64 per pair.
//!
//! Of a list page's links the audit reads only those spelled as pages of the page's own list
//! ([`crate::pages_linked_alike`]) and, on a list of one page, a link naming its page 2
//! (`trawl_learn::later_pages::later_page_number`). [`links_for_audit`] keeps every link that
//! could be either, judged from the page alone: a link with the shape (digits set aside) of the
//! page's own URL or of one of its page-flipping links, or naming the page's own list's page 2.
//! The page's own URL and its page-flipping links are left out: the audit knows them already
//! and never reads them among the links. A link would be lost only on a list whose pages are
//! spelled in two shapes where a page's own URL and page-flipping links show neither shape of
//! the link; no simulated family's or real engine's list is spelled so.

use std::collections::HashSet;

use trawl_learn::sitemap::Role;
use trawl_learn::spellings::shape_and_numbers;
use url::Url;

use crate::anchor_links;
use crate::states::without_fragment;

/// The roles of list pages (threads and boards) as stores name them: only their bodies' links
/// are read for the audit.
pub fn list_role_names() -> [&'static str; 2] {
    [Role::Thread.name(), Role::ThreadList.name()]
}

/// A page's posts as the audit reads them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostsSeen {
    /// Each post's key ([`post_identity`]), in page order.
    pub identities: Vec<u64>,
    /// The latest post time, ISO 8601 as the store keeps it (local time, with an offset when
    /// the page gave one): times of one forum compare as written.
    pub newest: Option<String>,
}

impl PostsSeen {
    /// Posts read as `(identity, time)`.
    pub fn of<'a>(posts: impl IntoIterator<Item = (u64, Option<&'a str>)>) -> PostsSeen {
        let mut seen = PostsSeen::default();
        for (identity, time) in posts {
            seen.identities.push(identity);
            seen.note_time(time);
        }
        seen
    }

    /// Keeps `time` when it is later than every time noted so far.
    pub fn note_time(&mut self, time: Option<&str>) {
        if let Some(time) = time
            && self.newest.as_deref().is_none_or(|newest| time > newest)
        {
            self.newest = Some(time.to_string());
        }
    }

    /// Posts on the page.
    pub fn len(&self) -> usize {
        self.identities.len()
    }

    /// Whether the page holds no post.
    pub fn is_empty(&self) -> bool {
        self.identities.is_empty()
    }
}

/// Characters of a post's text its identity keeps: enough to tell two posts of one author and
/// minute apart.
pub const TEXT_IN_IDENTITY: usize = 200;

/// The key of a post read with these fields: of its permalink when it has one, or else of its
/// author, time and the start of its text (as `trawl export` tells posts apart).
pub fn post_identity(
    permalink: Option<&str>,
    author: Option<&str>,
    time: Option<&str>,
    text: &str,
) -> u64 {
    let mut key = Fnv64::new();
    match permalink {
        Some(permalink) => {
            key.write(b"link ");
            key.write(permalink.as_bytes());
        }
        None => {
            key.write(b"post ");
            key.write(author.unwrap_or("").as_bytes());
            key.write(&[1]);
            key.write(time.unwrap_or("").as_bytes());
            key.write(&[1]);
            let end = text
                .char_indices()
                .nth(TEXT_IN_IDENTITY)
                .map_or(text.len(), |(index, _)| index);
            key.write(&text.as_bytes()[..end]);
        }
    }
    key.finish()
}

/// The key of a post named by `identity` alone (hand-made crawls name their posts).
pub fn identity_key(identity: &str) -> u64 {
    let mut key = Fnv64::new();
    key.write(identity.as_bytes());
    key.finish()
}

/// FNV-1a over 64 bits: a hash fixed for ever, since keys are stored (the standard library's
/// hasher may change between releases).
struct Fnv64(u64);

impl Fnv64 {
    fn new() -> Fnv64 {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The links of a list page's `body` the audit may read (see the module's essay), each once,
/// in order, as written (fragments kept).
pub fn links_for_audit(page_url: &str, list_links: &[String], body: &[u8]) -> Vec<String> {
    let links = anchor_links(body, page_url);
    if links.is_empty() {
        return links;
    }
    let own: HashSet<&str> = std::iter::once(page_url)
        .chain(list_links.iter().map(String::as_str))
        .map(without_fragment)
        .collect();
    let shapes: HashSet<String> = own.iter().map(|url| shape_and_numbers(url).0).collect();
    let page = Url::parse(page_url).ok();
    // A later page of the page's own list has its path: only such links are parsed.
    let own_path = page_url.split(['?', '#']).next().unwrap_or(page_url);
    links
        .into_iter()
        .filter(|link| {
            let url = without_fragment(link);
            if own.contains(url) {
                return false;
            }
            shapes.contains(&shape_and_numbers(url).0)
                || url.split('?').next() == Some(own_path)
                    && page.as_ref().is_some_and(|page| {
                        Url::parse(link).is_ok_and(|link| {
                            trawl_learn::later_pages::later_page_number(page, &link) == Some(2)
                        })
                    })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(page: &str, list_links: &[&str], html: &str, expected: &[&str]) {
        let list_links: Vec<String> = list_links.iter().map(|link| link.to_string()).collect();
        assert_eq!(
            links_for_audit(page, &list_links, html.as_bytes()),
            expected,
            "{html}"
        );
    }

    #[test]
    fn links_spelled_as_pages_of_the_list_are_kept() {
        // A pager's "4" the crawler did not take is kept; the page itself, its page-flipping
        // links and links of other shapes (a post, a profile) are not.
        check(
            "http://f.test/t?id=5&start=10",
            &["http://f.test/t?id=5&start=20"],
            r##"<a href="/t?id=5&amp;start=10">2</a><a href="/t?id=5&amp;start=20">3</a>
            <a href="/t?id=5&amp;start=30">4</a><a href="/p?id=77#p77">post</a>
            <a href="/u/3">who</a><a href="/t?id=6&amp;start=10#x">other</a>"##,
            &[
                "http://f.test/t?id=5&start=30",
                "http://f.test/t?id=6&start=10#x",
            ],
        );
        // A lone page's pager: page 2 spelled with a number the page's URL lacks.
        check(
            "http://f.test/q/5",
            &[],
            r#"<a href="/q/5?sort=oldest&page=2">2</a><a href="/q/5?sort=oldest&page=3">3</a>
            <a href="/q/6">next question</a>"#,
            &["http://f.test/q/5?sort=oldest&page=2", "http://f.test/q/6"],
        );
        check("http://f.test/b/1.html", &[], "<p>no links</p>", &[]);
    }

    #[test]
    fn posts_are_keyed_by_permalink_or_by_author_time_and_text() {
        let by_link = post_identity(Some("http://f.test/p/1"), Some("ann"), None, "hello");
        assert_eq!(
            by_link,
            post_identity(Some("http://f.test/p/1"), Some("bob"), None, "other")
        );
        let by_text = post_identity(None, Some("ann"), Some("2024-01-01T10:00"), "hello");
        assert_ne!(by_text, by_link);
        assert_ne!(
            by_text,
            post_identity(None, Some("ann"), Some("2024-01-01T10:01"), "hello")
        );
        // Only the start of the text tells posts apart.
        let long = "x".repeat(TEXT_IN_IDENTITY);
        assert_eq!(
            post_identity(None, None, None, &format!("{long}tail one")),
            post_identity(None, None, None, &format!("{long}tail two"))
        );
    }

    #[test]
    fn a_page_keeps_its_latest_post_time() {
        let seen = PostsSeen::of([
            (1, Some("2024-01-01T10:00")),
            (2, None),
            (3, Some("2024-01-02T09:00")),
            (4, Some("2023-12-31T23:00")),
        ]);
        assert_eq!(seen.len(), 4);
        assert_eq!(seen.newest.as_deref(), Some("2024-01-02T09:00"));
    }
}
