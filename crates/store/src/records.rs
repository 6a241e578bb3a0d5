//! The plain values written to and read from a store. They name no crawler or page-analysis
//! type, so the store depends on neither and any driver can fill them.

use jiff::Timestamp;

/// What a crawl was started with; written once, read back on every rerun.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrawlSettings {
    /// The portal URL the crawl began at.
    pub portal: String,
    /// `plan` or `bfs`.
    pub strategy: String,
    /// The traversal plan's JSON text, for the plan strategy.
    pub plan_json: Option<String>,
    /// How many times the plan was learned again during the crawl (0 for the first plan).
    /// Vertex numbers mean something only within one generation.
    pub plan_generation: u32,
    /// When the crawl began.
    pub started_at: Timestamp,
    /// The order the frontier hands out URLs in (`queue`, `behaviour`), so that a resumed
    /// crawl keeps it; `None` for a crawl begun before orders were stored.
    pub order: Option<String>,
    /// The patterns file's text for the `behaviour` order: kept whole, so a resume needs
    /// neither the file nor its path.
    pub patterns_json: Option<String>,
}

/// A URL in the frontier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontierEntry {
    /// The URL to fetch.
    pub url: String,
    /// Links followed from the portal.
    pub depth: u32,
    /// Redirects followed in a row to reach it.
    pub redirects: u32,
}

/// A post read from a thread page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PostRecord {
    /// Author's name as shown.
    pub author: Option<String>,
    /// Creation time, ISO 8601.
    pub time: Option<String>,
    /// Body text.
    pub text: String,
    /// Absolute permalink URL.
    pub permalink: Option<String>,
}

/// A thread entry read from a board page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ThreadEntryRecord {
    /// Title as shown.
    pub title: String,
    /// Absolute URL of the thread.
    pub url: String,
    /// Starter, when shown.
    pub author: Option<String>,
    /// Reply count, when shown.
    pub replies: Option<u64>,
    /// Last reply time, ISO 8601, when shown.
    pub last_reply: Option<String>,
}

/// One fetch: the exchange and what was read from it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageRecord {
    /// The URL fetched.
    pub url: String,
    /// Links followed from the portal.
    pub depth: u32,
    /// HTTP status; 0 when no response arrived.
    pub status: u16,
    /// Why no response arrived (connection refused, timeout, disallowed by robots.txt).
    pub error: Option<String>,
    /// When it was fetched.
    pub fetched_at: Timestamp,
    /// Response headers as received.
    pub headers: Vec<(String, String)>,
    /// Body as received (after content decoding).
    pub body: Vec<u8>,
    /// The sitemap vertex the page was classified into.
    pub vertex: Option<u32>,
    /// The vertex's role (`thread`, `thread-list`, ...).
    pub role: Option<String>,
    /// The document title.
    pub title: Option<String>,
    /// A hash of the records the page lists, for rewrites learned while crawling.
    pub signature: Option<u64>,
    /// The repetitive pattern its posts were found in, which tells a resumed crawler where its
    /// vertex's posts sit.
    pub post_pattern: Option<u64>,
    /// Links continuing this page's list (page flipping), in page order.
    pub list_links: Vec<String>,
    /// Posts, on thread pages.
    pub posts: Vec<PostRecord>,
    /// Thread entries, on board pages.
    pub thread_entries: Vec<ThreadEntryRecord>,
}

/// Everything one fetch changes, committed together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchOutcome {
    /// The page.
    pub page: PageRecord,
    /// The frontier URL this fetch answered; it leaves the frontier unless `requeued`.
    pub frontier_url: String,
    /// The crawler asked for the same URL again (the portal, after a session cookie was set).
    pub requeued: bool,
    /// URLs the page added to the frontier, in order.
    pub queued: Vec<FrontierEntry>,
    /// The session cookies, when this exchange changed them.
    pub cookies: Option<Vec<(String, String)>>,
    /// Frontier URLs the crawler passed over without fetching (known spellings of URLs
    /// already queued); they leave the frontier with this fetch.
    pub skipped: Vec<String>,
}

/// What a crawler needs to go on where it stopped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResumeState {
    /// URLs still to fetch, in queue order.
    pub pending: Vec<FrontierEntry>,
    /// Every URL ever queued, fetched or not.
    pub seen: Vec<String>,
    /// Fetched pages' URLs and record signatures, in fetch order.
    pub signatures: Vec<(String, Option<u64>)>,
    /// Pages fetched so far.
    pub fetched: usize,
    /// Fetched pages not classified into a vertex (plan strategy).
    pub unclassified: usize,
    /// (vertex, post pattern) of fetched pages that have both, in fetch order.
    pub post_patterns: Vec<(u32, u64)>,
}

/// A fetched page as read back for export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPage {
    /// Fetch order, from 1.
    pub id: i64,
    /// The plan generation the page was written under: its `record.vertex` is a vertex of that
    /// generation's plan, the plan held now only from [`crate::Store::plan_vertices_since`] on.
    pub plan_generation: u32,
    /// Everything written for it.
    pub record: PageRecord,
}

/// How a plan replaced the one before it, which decides whether its vertex numbers go on
/// naming the same vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlanChange {
    /// Learned again: a new sitemap, whose vertex numbers name other vertices.
    Relearned,
    /// The same sitemap deciding otherwise on some arcs: the same vertex numbers.
    Decisions,
}

/// The `meta` key holding [`crate::Store::plan_vertices_since`].
pub(crate) const PLAN_VERTICES_SINCE: &str = "plan_vertices_since";

/// The first generation whose vertex numbers the plan of `generation` keeps, as `change` made
/// it from the plan before; `kept_before` is what the store held for the plan before (`None`
/// for a crawl whose plan was replaced before the store kept it).
pub(crate) fn vertices_since_after(
    change: PlanChange,
    generation: u32,
    kept_before: Option<u32>,
) -> u32 {
    match change {
        PlanChange::Relearned => generation,
        // Without a record the plan before is known only to number its vertices as itself.
        PlanChange::Decisions => kept_before.unwrap_or(generation - 1),
    }
}

/// The frontier's URLs that no fetch answered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnfetchedFrontier {
    /// Queued and not fetched yet, in queue order.
    pub waiting: Vec<String>,
    /// Queued, then passed over as another spelling of a URL already queued.
    pub passed_over: Vec<String>,
}

/// A stored page whose posts may read otherwise now than when it was stored: a page of the
/// current plan, answered, holding at most one post, and fetched before the first page showing
/// one of the post patterns its vertex is now known by (see
/// [`crate::Store::pages_before_post_patterns`]). What it needs to be read again, but its body,
/// which [`crate::Store::page_body`] gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageBeforePostPatterns {
    /// Fetch order, from 1.
    pub id: i64,
    /// The URL fetched.
    pub url: String,
    /// Links followed from the portal.
    pub depth: u32,
    /// HTTP status.
    pub status: u16,
    /// When it was fetched.
    pub fetched_at: Timestamp,
    /// Response headers as received.
    pub headers: Vec<(String, String)>,
    /// The sitemap vertex it was classified into.
    pub vertex: u32,
    /// Posts stored for it (0 or 1).
    pub posts: usize,
}
