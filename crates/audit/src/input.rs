//! What the audit reads: a crawl as its store holds it, reduced to the facts that state or
//! show a forum's size. The caller (the CLI, from a crawl database; a test, from a crawl run in
//! process) fills these plain values; nothing here knows a database or a page parser.

use trawl_learn::sitemap::Role;

use crate::PostsSeen;

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
    pub posts: PostsSeen,
    /// The thread entries read from the page.
    pub thread_entries: Vec<EntrySeen>,
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
