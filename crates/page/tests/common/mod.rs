//! What the page tests share: reading one page of a simulated forum as `trawl extract` reads a
//! saved page, and the authors the whole analysis reads on a page written by hand.

// Each test file compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use jiff::Timestamp;
use trawl_page::analysis::{
    PageAnalysis, PageStructure, RecordsWanted, analyse_structure, analyse_text,
};
use trawl_page::time::DateContext;
use trawl_sim::Site;
use url::Url;

/// Analyses `path` of `site` as served at the end of its history, in the forum's zone.
pub fn analyse_page(site: &Site, path: &str) -> PageAnalysis {
    structure_of_page(site, path).read_records(RecordsWanted::Both)
}

/// The structure of `path` of `site` (the first half of [`analyse_page`]), records not read.
pub fn structure_of_page(site: &Site, path: &str) -> PageStructure {
    let at = site.history().end;
    let answer = site.serve(path, at, None);
    let content_type = answer.header("Content-Type");
    let url = Url::parse(&format!("http://forum.test{path}")).expect("a valid URL");
    let context = DateContext::new(
        Timestamp::from_second(at).expect("a valid instant"),
        Some(site.family().profile().utc_offset_seconds),
    );
    analyse_structure(&answer.body, content_type, &url, &context)
}

/// The authors of the posts of `html` read from `url` at `fetched_at` (an RFC 3339 instant) in
/// UTC, in page order, with "" for a post read without one.
pub fn authors_read(html: &str, url: &str, fetched_at: &str) -> Vec<String> {
    posts_read(html, url, fetched_at)
        .into_iter()
        .map(|(author, _, _)| author)
        .collect()
}

/// One post as the hand-made thread tests read it: author, time (ISO 8601, "" for none) and
/// text with its whitespace folded to single spaces.
pub type PostRead = (String, String, String);

/// The posts of `html` read from `url` at `fetched_at` (an RFC 3339 instant) in UTC, in page
/// order, each as a [`PostRead`].
pub fn posts_read(html: &str, url: &str, fetched_at: &str) -> Vec<PostRead> {
    let url = Url::parse(url).expect("a valid URL");
    let fetched_at: Timestamp = fetched_at.parse().expect("a valid instant");
    let analysis = analyse_text(html, "UTF-8", &url, &DateContext::new(fetched_at, Some(0)));
    analysis
        .posts
        .iter()
        .map(|post| {
            (
                post.author.clone().unwrap_or_default(),
                post.time.map(|time| time.to_iso8601()).unwrap_or_default(),
                post.text.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        })
        .collect()
}

/// Asserts that `read` (what [`posts_read`] gave for `html`) is `expected`, post by post as
/// (author, time, text), showing the page when it is not.
#[track_caller]
pub fn assert_posts(read: Vec<PostRead>, expected: &[(&str, &str, &str)], html: &str) {
    let expected: Vec<PostRead> = expected
        .iter()
        .map(|(author, time, text)| (author.to_string(), time.to_string(), text.to_string()))
        .collect();
    assert_eq!(read, expected, "posts of:\n{html}");
}
