//! The check every engine page goes through: the page is read by the whole analysis, as `trawl
//! extract` reads a saved page, and every post must come out with its author, its time and its
//! text, in page order, and no other post with them.

use jiff::Timestamp;
use trawl_page::analysis::analyse_text;
use trawl_page::time::DateContext;
use url::Url;

/// The instant every page is fetched at: Wednesday 2 April 2025, 12:00 UTC. Pages that print
/// "Today" or "3 hours ago" resolve against it.
pub const FETCHED_AT: &str = "2025-04-02T12:00:00Z";

/// One thread page in one engine's layout.
pub struct EnginePage<'a> {
    /// The engine and version the markup imitates, for failure messages.
    pub engine: &'a str,
    /// The page's address; relative links resolve against it.
    pub url: &'a str,
    /// The `lang` of the page.
    pub language: &'a str,
    /// The page title.
    pub title: &'a str,
    /// The body between the site's navigation and its footer.
    pub body: String,
}

/// What one post must give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wanted {
    /// The author's link as the page writes it when the name is a link (the analysis reports
    /// it as `author_url`), else the name as shown.
    pub author: String,
    /// The time in ISO 8601 at the precision the page gives, with the offset when the page names
    /// one; empty when the page shows no time of the post.
    pub time: String,
    /// The post's text with runs of whitespace folded to one space: the message with its quotes,
    /// without the signature, the author's badges or the buttons.
    pub text: String,
}

impl Wanted {
    pub fn new(author: impl Into<String>, time: impl Into<String>, text: &str) -> Wanted {
        Wanted {
            author: author.into(),
            time: time.into(),
            text: fold_spaces(text),
        }
    }
}

/// Runs of whitespace become one space; ends are trimmed.
pub fn fold_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads `page` and compares every post with `wanted`, reporting all differences at once.
#[track_caller]
pub fn check(page: EnginePage<'_>, wanted: &[Wanted]) {
    let html = format!(
        "<!DOCTYPE html><html lang=\"{language}\"><head><meta charset=\"utf-8\">\
         <title>{title}</title></head><body>\
         <div id=\"site-nav\"><a href=\"/\">Home</a> <a href=\"/forums/\">Forums</a> \
         <a href=\"/members/\">Members</a> <a href=\"/search/\">Search</a> <a href=\"/help/\">Help</a></div>\
         {body}\
         <div id=\"site-footer\"><a href=\"/terms/\">Terms</a> <a href=\"/privacy/\">Privacy</a> \
         <a href=\"/contact/\">Contact</a></div></body></html>",
        language = page.language,
        title = page.title,
        body = page.body,
    );
    let url = Url::parse(page.url).expect("a valid page address");
    let fetched_at: Timestamp = FETCHED_AT.parse().expect("a valid instant");
    let analysis = analyse_text(&html, "UTF-8", &url, &DateContext::new(fetched_at, None));
    let read: Vec<Wanted> = analysis
        .posts
        .iter()
        .map(|post| Wanted {
            author: post
                .author_url
                .clone()
                .or_else(|| post.author.clone())
                .unwrap_or_default(),
            time: post.time.map(|time| time.to_iso8601()).unwrap_or_default(),
            text: fold_spaces(&post.text),
        })
        .collect();
    assert_eq!(
        read, wanted,
        "{}: posts read (left) and wanted (right)",
        page.engine
    );
}
