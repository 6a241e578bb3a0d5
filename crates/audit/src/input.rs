//! What the audit reads: a crawl as its store holds it, reduced to the facts that state or
//! show a forum's size. The caller (the CLI, from a crawl database; a test, from a crawl run in
//! process) fills these plain values; nothing here knows a database or a page parser.

use trawl_learn::sitemap::Role;

/// One crawl, as far as the audit needs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrawlRecord {
    /// Every fetch, in fetch order (a URL fetched twice appears twice).
    pub pages: Vec<FetchedPage>,
    /// URLs queued and not fetched yet: the crawl stopped before them.
    pub waiting: Vec<String>,
    /// URLs queued and then passed over without a fetch, because the crawler found them to be
    /// another spelling of a URL it had queued.
    pub passed_over: Vec<String>,
}

/// One fetch and what was read from it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FetchedPage {
    /// The URL fetched.
    pub url: String,
    /// The HTTP status; 0 when no answer came.
    pub status: u16,
    /// Why no answer came, when none did.
    pub error: Option<String>,
    /// The absolute URL a redirect answer points to.
    pub redirect_to: Option<String>,
    /// The role of the page's vertex under the plan (`None` breadth-first or unplaced).
    pub role: Option<Role>,
    /// The page's page-flipping links, as the crawler queued them.
    pub list_links: Vec<String>,
    /// The page's document title, which tells the pages of one list from those a link past its
    /// end leads to (see `trawl_crawl::lists`).
    pub title: Option<String>,
    /// Every link of the page ([`crate::anchor_links`] reads them from a stored body); empty
    /// when not known. A list page's links spelled as pages of its list are pages of it.
    pub links: Vec<LinkSeen>,
    /// The posts read from the page.
    pub posts: Vec<PostSeen>,
    /// The thread entries read from the page.
    pub thread_entries: Vec<EntrySeen>,
}

/// A post, as far as telling it from others and dating it goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostSeen {
    /// What tells the post apart from every other: its permalink, or else its author, time and
    /// the start of its text. A post a forum shows on two pages (the last post of one page
    /// repeated at the top of the next) has the same identity on both.
    pub identity: String,
    /// When it was written, ISO 8601 as the store keeps it (local time, with an offset when the
    /// page gave one).
    pub time: Option<String>,
}

impl PostSeen {
    /// Characters of a post's text its identity keeps: enough to tell two posts of one author
    /// and minute apart, without carrying every post's whole text through the audit.
    pub const TEXT_IN_IDENTITY: usize = 200;

    /// The identity of a post read with these fields: its permalink when it has one, or else
    /// its author, time and the start of its text (as `trawl export` tells posts apart).
    pub fn identity_of(
        permalink: Option<&str>,
        author: Option<&str>,
        time: Option<&str>,
        text: &str,
    ) -> String {
        match permalink {
            Some(permalink) => format!("link {permalink}"),
            None => {
                let start: String = text.chars().take(Self::TEXT_IN_IDENTITY).collect();
                format!(
                    "post {}\u{1}{}\u{1}{start}",
                    author.unwrap_or(""),
                    time.unwrap_or("")
                )
            }
        }
    }
}

/// A thread entry of a board page: what the board says about one of its threads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntrySeen {
    /// The thread's title.
    pub title: String,
    /// The thread's URL as the crawler would queue it (fragment dropped, spelling rewrites
    /// applied).
    pub url: String,
    /// The reply count the board shows.
    pub replies: Option<u64>,
    /// The last reply's time the board shows, ISO 8601.
    pub last_reply: Option<String>,
}

/// A link of a page as written, and as the crawler would queue it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkSeen {
    /// The link's absolute URL as the page writes it.
    pub url: String,
    /// The URL the crawler would queue for it (spelling rewrites applied): a link the crawler
    /// takes for another spelling of a page it has is that page to it.
    pub queued_as: String,
}
