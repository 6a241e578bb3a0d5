//! The online crawler: a frontier, page classification and the plan's lookup table.
//!
//! [`Crawler`] is a pure state machine, like the sampler: [`Crawler::next_request`] hands out the
//! next URL and [`Crawler::record`] takes back the response, analyses the page, classifies it into
//! a sitemap vertex (iRobot's online crawling), looks every link up in the plan and queues what
//! the plan says to follow. Links the plan marks "follow and keep the relationship" (page
//! flipping) are remembered on the page as list links whether or not their target is queued
//! again, so boards and threads can be put back together afterwards even when a later page was
//! first reached some other way. Driving the machine through a [`trawl_model::Fetcher`] is left
//! to the caller, which is where politeness, storage and progress belong.
//!
//! Spellings the plan does not know are learned while crawling (`online_rewrites`): a page
//! whose records repeat those of a page fetched under a URL one part shorter (`&start=0`,
//! `-1.html`), or under a URL of another shape carrying the same numbers
//! (`/index.php/topic,8.0.html` and `?topic=8.0`), teaches a [`ScopedRewrite`]; links are
//! rewritten with the rules in force before they are queued, and URLs queued before a rule came
//! into force are checked again when they leave the frontier. Pairs of spellings the sampler
//! settled (the plan's `spelling_pairs`) count as such pages before the first fetch, so the
//! rules they teach cost the crawl no duplicate fetch. The session id a portal writes into its
//! links on a first visit is dropped from them (`session`) rather than fetching the portal again.
//!
//! A link in a place the plan never judged (no sampled page held a link there, none of the
//! links seen there was fetched, or its arc was skipped only as redundant) is followed when most sampled links of its URL pattern from
//! the same vertex were followed (`unplaced`): a board's block of sticky threads that the
//! sampler never opened holds threads like the rest. When most of those flipped pages and the
//! link names another page of the page's own list ([`lists`]), it flips pages too: a pager
//! longer than any sampled one is laid out in a place of its own.
//!
//! Two strategies share the machine: [`CrawlStrategy::Plan`] and the generic breadth-first
//! crawler the papers compare against ([`CrawlStrategy::BreadthFirst`]: every same-site link, in
//! discovery order).

pub mod baselines;
mod frontier;
mod global_list;
pub mod lists;
mod online_rewrites;
mod session;
mod slug_shapes;
mod unplaced;
mod url_numbers;
mod user_content;

pub use frontier::FrontierPriority;
pub use online_rewrites::{OnlineRule, REWRITE_EVIDENCE, ScopedRewrite};

use std::collections::{HashMap, HashSet};

use global_list::BoardsOverGlobalList;
use jiff::Timestamp;
use online_rewrites::OnlineRewrites;
use trawl_learn::plan::{PageClass, Plan};
use trawl_learn::sitemap::{LocationKey, Role};
use trawl_learn::summary::{redirect_target, region_summaries, response_structure};
use trawl_learn::traverse::Decision;
use trawl_model::FetchResponse;
use trawl_page::analysis::{PageAnalysis, RecordsWanted, known_region_posts, lone_record_posts};
use trawl_page::regions::{SingleRecord, single_record_candidates};
use unplaced::UnplacedLinks;
use url::Url;

/// How links are chosen.
#[derive(Debug, Clone)]
pub enum CrawlStrategy {
    /// Follow what a learned plan says.
    Plan(Box<Plan>),
    /// Follow every same-site link once, breadth first.
    BreadthFirst,
}

/// A URL waiting in the frontier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    /// What to fetch.
    pub url: Url,
    /// Links followed from the portal.
    pub depth: u32,
    /// Redirects followed in a row to reach this URL (0 for a link found on a page).
    pub redirects: u32,
}

/// Redirects followed in a row before the chain is abandoned. Browsers stop at about twenty;
/// a forum that needs more than ten hops to reach a page is looping through distinct URLs
/// (a session id or a counter in each `Location`), which the seen set alone would not stop.
pub const MAX_REDIRECTS: u32 = 10;

/// A URL in the frontier, kept compact: a crawl of a large forum holds millions of them, and a
/// parsed [`Url`] costs about 90 bytes before its text. The text alone, with the depth and the
/// redirect count, is about 24 bytes plus the text.
#[derive(Debug, Clone)]
struct WaitingUrl {
    url: Box<str>,
    depth: u32,
    redirects: u32,
}

impl WaitingUrl {
    fn of(queued: &Queued) -> WaitingUrl {
        WaitingUrl {
            url: queued.url.as_str().into(),
            depth: queued.depth,
            redirects: queued.redirects,
        }
    }

    fn to_queued(&self) -> Option<Queued> {
        Some(Queued {
            url: Url::parse(&self.url).ok()?,
            depth: self.depth,
            redirects: self.redirects,
        })
    }
}

/// The seen set holds a 64-bit hash of each URL rather than its text: 8 bytes instead of about
/// 80 per URL. Two different URLs share a hash with probability about n²/2⁶⁵, under 10⁻⁷ for a
/// million URLs; the cost of such a collision is one page not fetched, which is far below the
/// losses a crawl meets anyway. The hash is never stored (a resumed crawl rehashes the stored
/// URLs), so the standard library's fixed-key SipHash is stable enough.
fn url_key(url: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    url.hash(&mut hasher);
    hasher.finish()
}

/// Where a stopped crawl stood, to build a [`Crawler`] that goes on from there.
#[derive(Debug, Clone, Default)]
pub struct ResumePoint {
    /// URLs still to fetch, in queue order.
    pub pending: Vec<Queued>,
    /// Every URL ever queued.
    pub seen: Vec<String>,
    /// Fetched pages' URLs with their record signatures ([`CrawledPage::signature`]), in fetch
    /// order.
    pub signatures: Vec<(Url, Option<u64>)>,
    /// Pages fetched.
    pub fetched: usize,
    /// Pages that matched no vertex.
    pub unclassified: usize,
    /// Post patterns seen, as (vertex, pattern) per page in fetch order
    /// ([`CrawledPage::post_pattern`]).
    pub post_patterns: Vec<(usize, u64)>,
}

/// The part of recording a page that needs no crawler state: the page analysis, the redirect
/// target, the region summaries classification reads, and, when the plan was at hand, the
/// classification itself.
#[derive(Debug, Clone)]
pub struct AnalysedPage {
    analysis: PageAnalysis,
    redirect: Option<Url>,
    regions: Vec<trawl_learn::summary::RegionSummary>,
    lone_records: Vec<trawl_learn::summary::RegionSummary>,
    /// Where single records sit; `lone_records` summarises them for classification, and a page
    /// whose post did not repeat is read from them.
    single_records: Vec<SingleRecord>,
    /// The page's class under the plan [`AnalysedPage::of`] was given, or `None` when it was
    /// given none (the crawler then classifies the page itself).
    class: Option<Option<PageClass>>,
}

impl AnalysedPage {
    /// Analyses the response to `queued`. With the crawl's `plan`, the page is classified first
    /// and only the records its role holds are read (a thread page's posts, a list page's thread
    /// entries; see [`RecordsWanted`]): reading both kinds on every page cost 7 % of a
    /// crawl's work for records nobody keeps. The plan must be the one the crawler that records
    /// the page follows.
    pub fn of(queued: &Queued, response: &FetchResponse, plan: Option<&Plan>) -> AnalysedPage {
        let structure = response_structure(&queued.url, response);
        let regions = region_summaries(&structure.regions);
        let single_records = single_record_candidates(&structure.document);
        let lone_records = trawl_learn::summary::lone_records_of(&single_records);
        let class = plan.map(|plan| plan.classify(&queued.url, &regions, &lone_records));
        let role = plan
            .zip(class.flatten())
            .and_then(|(plan, class)| plan.role_of(class.vertex));
        let wanted = records_wanted_for(role);
        AnalysedPage {
            redirect: redirect_target(&queued.url, response),
            analysis: structure.read_records(wanted),
            lone_records,
            single_records,
            regions,
            class,
        }
    }
}

/// Which records a page of a vertex of role `role` is read for (see [`RecordsWanted`]). A
/// portal is read like a list page: a board index's rows (a board's link above its
/// description, its counts, the last post's author and time) are authored and dated like
/// posts, but they are the boards, and a portal holds no thread's posts; a portal without
/// entries is still read for posts.
fn records_wanted_for(role: Option<Role>) -> RecordsWanted {
    match role {
        Some(Role::Thread) => RecordsWanted::PostsFirst,
        Some(Role::ThreadList | Role::Portal) => RecordsWanted::ThreadEntriesFirst,
        _ => RecordsWanted::Both,
    }
}

/// How a page was placed in the plan's sitemap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// By its URL pattern and layout, as the plan classifies pages (or breadth-first, where
    /// nothing is placed).
    #[default]
    Classified,
    /// The plan could not classify it; it was placed by its nearest layout or its URL pattern
    /// alone ([`Plan::classify_nearest`]) and its links were followed from there.
    Nearest,
    /// Nowhere: no vertex of the plan is near it (or it is an error or a redirect).
    Unplaced,
}

/// What the crawler made of one fetched page.
#[derive(Debug, Clone)]
pub struct CrawledPage {
    /// The URL fetched.
    pub url: Url,
    /// HTTP status.
    pub status: u16,
    /// When it was fetched.
    pub fetched_at: Timestamp,
    /// The sitemap vertex it was classified into (always `None` breadth-first).
    pub vertex: Option<usize>,
    /// The role of that vertex in the plan.
    pub role: Option<Role>,
    /// How the vertex was found.
    pub placement: Placement,
    /// A hash of the records the page lists (posts' texts, or thread entries' URLs), which is
    /// what rewrites learned while crawling compare; keep it to resume a crawl.
    pub signature: Option<u64>,
    /// The repetitive pattern holding the page's posts, when they were found repeating; keep
    /// it to resume a crawl.
    pub post_pattern: Option<u64>,
    /// Links the plan marks as page flipping: the pages continuing this page's list.
    pub list_links: Vec<Url>,
    /// URLs this page added to the frontier (new URLs only), in queue order.
    pub queued: Vec<Queued>,
    /// The fetched URL went back to the front of the frontier: the portal, asked for again
    /// once the site has set its session cookie.
    pub requeued: bool,
    /// Links in the page's posts' texts, which their authors wrote and which are never
    /// followed (see `user_content`).
    pub authored_links: usize,
    /// The full analysis, for extraction and storage.
    pub analysis: PageAnalysis,
}

impl CrawledPage {
    /// The page's document title, trimmed, when it has one: what list assembly compares
    /// ([`lists::ListPage::title`]).
    pub fn title(&self) -> Option<String> {
        let document = &self.analysis.document;
        document
            .find("title")
            .map(|title| document.text_content(title).trim().to_string())
            .filter(|title| !title.is_empty())
    }
}

/// One distinct link URL of a page, resolved once however often the page names it.
struct ResolvedLink {
    /// The canonical URL.
    url: Url,
    /// The plan's URL pattern it matches.
    pattern: Option<u32>,
    /// The link as written and its pattern, when the rewrites changed its pattern.
    written: Option<(Url, Option<u32>)>,
    /// Already among the URLs to follow.
    handed_on: bool,
}

/// The crawler's state.
#[derive(Debug, Clone)]
pub struct Crawler {
    strategy: CrawlStrategy,
    host: Option<String>,
    port: Option<u16>,
    frontier: frontier::Frontier,
    /// Hashes of every URL ever queued (see [`url_key`]).
    seen: HashSet<u64>,
    fetched: usize,
    unclassified: usize,
    session_checked: bool,
    /// Values of the session cookies the portal's answer set, dropped from links (see
    /// `session`).
    session_values: Vec<String>,
    online_rewrites: OnlineRewrites,
    /// Per vertex, the patterns its pages' posts repeat in. A page of the vertex whose post did
    /// not repeat (a thread of one post) is read through them: page analysis alone finds no
    /// region on it, but the crawler knows where the vertex's posts sit.
    post_patterns: HashMap<usize, Vec<u64>>,
    /// See [`Crawler::skipped_spellings`].
    skipped_spellings: usize,
    /// Skipped URLs not yet handed to the caller (see [`Crawler::take_skipped`]).
    skipped_not_taken: Vec<String>,
    /// The plan's arcs summed up for links in places the sample never saw (empty
    /// breadth-first).
    unplaced: UnplacedLinks,
    /// Threads read from the boards the plan fetches rather than from a global list beside
    /// them (see `global_list`; empty breadth-first).
    boards_over_global_list: BoardsOverGlobalList,
}

/// Whether `canonical` is `url` with only parts holding no digit dropped (query pairs whose
/// value has none, path segments with none): view options such as `sort=votes`, not page
/// numbers.
fn dropped_only_words(url: &Url, canonical: &Url) -> bool {
    let kept: Vec<(String, String)> = canonical
        .query_pairs()
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect();
    let pairs_dropped_hold_no_digit = url
        .query_pairs()
        .filter(|(key, value)| {
            !kept
                .iter()
                .any(|(kept_key, kept_value)| kept_key == key && kept_value == value)
        })
        .all(|(_, value)| !value.bytes().any(|byte| byte.is_ascii_digit()));
    let segments_dropped_hold_no_digit = url
        .path()
        .strip_prefix(canonical.path())
        .is_some_and(|dropped| !dropped.bytes().any(|byte| byte.is_ascii_digit()));
    pairs_dropped_hold_no_digit && segments_dropped_hold_no_digit
}

/// Whether `canonical` is `url` with a query pair holding a number dropped: a rewrite that
/// names a list's first page (`&page=1`, `&start=0`).
fn dropped_a_number(url: &Url, canonical: &Url) -> bool {
    url.query_pairs().any(|(key, value)| {
        !value.is_empty()
            && value.bytes().all(|byte| byte.is_ascii_digit())
            && !canonical
                .query_pairs()
                .any(|(kept_key, kept_value)| kept_key == key && kept_value == value)
    })
}

/// Learns where a vertex's posts repeat from a page that has them, or reads a page that has
/// none through what was learned (see the crawler's `post_patterns`).
fn read_posts_by_vertex(
    post_patterns: &mut HashMap<usize, Vec<u64>>,
    page: &mut CrawledPage,
    vertex: usize,
    single_records: Vec<SingleRecord>,
) {
    let analysis = &page.analysis;
    if !analysis.posts.is_empty() {
        page.post_pattern = post_region_pattern(analysis);
        if let Some(pattern) = page.post_pattern {
            remember_post_pattern(post_patterns, vertex, pattern);
        }
        // A page read for one post may still hold a lone reply of a known pattern: the opening
        // post shown apart was read on its own (a thread of one reply whose list of suggested
        // threads is the page's only list), and the reply repeats nothing.
        if analysis.posts.len() > 1 {
            return;
        }
    }
    let Some(known) = post_patterns.get(&vertex) else {
        return;
    };
    if let Some(posts) = lone_post_by_patterns(&page.analysis, known, single_records) {
        page.analysis.posts = posts;
        page.signature = record_signature(&page.analysis);
    }
}

/// The posts of a page read for at most one post, read again through `known` (the patterns
/// its vertex's posts repeat in on other pages), when that finds more posts than the page
/// analysis did: a region of a known pattern whose records the analysis did not take for
/// posts, or else a lone record of a known pattern.
///
/// A region comes first. Page analysis reads a list of undated records as posts only when
/// their messages are sentences, since a board index's one-line descriptions are made like
/// short replies; a thread whose few replies are all short ("Thanks, that worked.") was read
/// for its opening post, then for the longest reply alone as a lone record, and its other
/// replies were lost (django-simple-forum: a reply of 20 characters beside one of 42). Records
/// made like the posts of the vertex's other pages are posts whatever their length.
fn lone_post_by_patterns(
    analysis: &PageAnalysis,
    known: &[u64],
    single_records: Vec<SingleRecord>,
) -> Option<Vec<trawl_page::records::Post>> {
    let read: Vec<_> = analysis.posts.iter().map(|post| post.node).collect();
    {
        let from_region = analysis
            .regions
            .iter()
            .enumerate()
            .filter(|(_, region)| {
                known.contains(&region.pattern)
                    && region.records.len() >= 2
                    && !region.records.iter().any(|record| read.contains(record))
            })
            .map(|(index, _)| {
                // The posts read already (the opening post shown apart) stay, in page order
                // with the region's, unless the region's reading found them too.
                let mut posts = known_region_posts(analysis, index, &analysis.date_context);
                for post in &analysis.posts {
                    if !posts.iter().any(|read| read.node == post.node) {
                        posts.push(post.clone());
                    }
                }
                posts.sort_by_key(|post| post.node);
                posts
            })
            .max_by_key(Vec::len);
        if let Some(posts) = from_region.filter(|posts| posts.len() > analysis.posts.len()) {
            return Some(posts);
        }
    }
    let lone = single_records
        .into_iter()
        .filter(|candidate| known.contains(&candidate.pattern) && !read.contains(&candidate.first))
        .max_by(|first, second| first.text_share.total_cmp(&second.text_share))?;
    let posts = lone_record_posts(analysis, &lone, &analysis.date_context);
    (posts.len() > analysis.posts.len()).then_some(posts)
}

/// The posts of a stored page read again with `known`, the post patterns its vertex is known
/// by now, or `None` when they find no post more than the page's stored `stored_posts`.
///
/// The crawler reads a page of one post through the patterns its vertex's posts were seen
/// repeating in (a lone reply beside an opening post shown apart), and learns those patterns
/// from the pages it fetches: a page fetched before any page of its vertex showed them was read
/// without them, and which posts it gave depended on the order pages were fetched in. The
/// driver reads such pages again from the store once the patterns are known
/// (`Store::pages_before_post_patterns`). The page is analysed and classified as a fetch is
/// ([`AnalysedPage::of`] under the crawl's `plan`), so reading it again is reading it as it
/// would have been read had the patterns been known when it came.
pub fn posts_read_again(
    queued: &Queued,
    response: &FetchResponse,
    plan: &Plan,
    known: &[u64],
    stored_posts: usize,
) -> Option<Vec<trawl_page::records::Post>> {
    let analysed = AnalysedPage::of(queued, response, Some(plan));
    if analysed.analysis.posts.len() > 1 {
        // Read whole by page analysis now, which reads the page as it did when it was fetched
        // unless the program changed since; more posts than stored are kept either way.
        let posts = analysed.analysis.posts;
        return (posts.len() > stored_posts).then_some(posts);
    }
    let posts = lone_post_by_patterns(&analysed.analysis, known, analysed.single_records)?;
    (posts.len() > stored_posts).then_some(posts)
}

fn remember_post_pattern(
    post_patterns: &mut HashMap<usize, Vec<u64>>,
    vertex: usize,
    pattern: u64,
) {
    let patterns = post_patterns.entry(vertex).or_default();
    if !patterns.contains(&pattern) {
        patterns.push(pattern);
    }
}

/// The pattern of the region most of the page's posts are records of.
fn post_region_pattern(analysis: &PageAnalysis) -> Option<u64> {
    let mut votes: HashMap<u64, usize> = HashMap::new();
    for post in &analysis.posts {
        if let Some(region) = analysis
            .regions
            .iter()
            .find(|region| region.records.contains(&post.node))
        {
            *votes.entry(region.pattern).or_default() += 1;
        }
    }
    votes
        .into_iter()
        .max_by_key(|(pattern, count)| (*count, *pattern))
        .map(|(pattern, _)| pattern)
}

/// A hash of what a page lists: the texts, in order, of its posts in the region holding most of
/// them, or else its thread entries' URLs in order; `None` for pages with neither (prompts,
/// errors), which prove nothing.
///
/// Posts read outside the main region are left out because they are where two fetches of one
/// page differ: a forum's header changes from one request to the next (the "last visit" date,
/// a rotating banner), and page analysis sometimes reads it as one more record. Measured on the
/// simulator's phpBB seed 2 at medium scale: with every post hashed, a thread's `&start=0`
/// spelling whose header was read as a post contradicted the rule dropping `start=0` on the
/// very first pairs, so the rule never came into force and the crawl fetched 798 first pages
/// twice (12.5 % of its fetches).
fn record_signature(analysis: &PageAnalysis) -> Option<u64> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |text: &str| {
        for byte in text.bytes().chain(std::iter::once(0)) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    if !analysis.posts.is_empty() {
        let main_region = post_region_pattern(analysis).and_then(|pattern| {
            analysis
                .regions
                .iter()
                .find(|region| region.pattern == pattern)
        });
        analysis
            .posts
            .iter()
            .filter(|post| main_region.is_none_or(|region| region.records.contains(&post.node)))
            .for_each(|post| feed(&post.text));
    } else if !analysis.thread_entries.is_empty() {
        analysis
            .thread_entries
            .iter()
            .for_each(|entry| feed(&entry.url));
    } else {
        return None;
    }
    Some(hash)
}

impl Crawler {
    /// A crawler starting at `portal`.
    pub fn new(portal: Url, strategy: CrawlStrategy) -> Crawler {
        let mut seen = HashSet::new();
        seen.insert(url_key(portal.as_str()));
        let (unplaced, boards_over_global_list) = match &strategy {
            CrawlStrategy::Plan(plan) => (UnplacedLinks::of(plan), BoardsOverGlobalList::of(plan)),
            CrawlStrategy::BreadthFirst => Default::default(),
        };
        // Pairs of spellings the sampler settled count as pages met while crawling, so the
        // rules they teach are in force before the first link is read.
        let mut online_rewrites = OnlineRewrites::default();
        if let CrawlStrategy::Plan(plan) = &strategy {
            for pair in &plan.spelling_pairs {
                if let (Ok(url), Ok(same_as)) = (Url::parse(&pair.url), Url::parse(&pair.same_as)) {
                    online_rewrites.weigh_sampled(&url, &same_as, pair.same);
                }
            }
        }
        Crawler {
            unplaced,
            boards_over_global_list,
            strategy,
            host: portal.host_str().map(str::to_ascii_lowercase),
            port: portal.port_or_known_default(),
            frontier: [WaitingUrl::of(&Queued {
                url: portal,
                depth: 0,
                redirects: 0,
            })]
            .into_iter()
            .collect(),
            seen,
            fetched: 0,
            unclassified: 0,
            session_checked: false,
            session_values: Vec::new(),
            online_rewrites,
            post_patterns: HashMap::new(),
            skipped_spellings: 0,
            skipped_not_taken: Vec::new(),
        }
    }

    /// A crawler going on from `point`, as if it had never stopped: the same frontier, seen
    /// set and rewrites learned while crawling (replayed from the signatures in fetch order).
    /// The portal's session check is taken as done, since the cookies are the caller's to keep.
    pub fn resume(portal: Url, strategy: CrawlStrategy, point: ResumePoint) -> Crawler {
        let mut crawler = Crawler::new(portal, strategy);
        crawler.frontier = point.pending.iter().map(WaitingUrl::of).collect();
        crawler
            .seen
            .extend(point.seen.iter().map(|url| url_key(url)));
        crawler.fetched = point.fetched;
        crawler.unclassified = point.unclassified;
        crawler.session_checked = point.fetched > 0;
        if matches!(crawler.strategy, CrawlStrategy::Plan(_)) {
            for (url, signature) in &point.signatures {
                crawler.online_rewrites.observe(url, *signature);
            }
        }
        for (vertex, pattern) in point.post_patterns {
            remember_post_pattern(&mut crawler.post_patterns, vertex, pattern);
        }
        crawler
    }

    /// Orders the frontier by `priority` from now on (URLs waiting included): the URL with the
    /// highest score is handed out first, URLs of equal score in the order they were queued.
    /// `None` goes back to first in, first out. What is followed does not change.
    pub fn with_priority(mut self, priority: Option<FrontierPriority>) -> Crawler {
        self.frontier.set_priority(priority);
        self
    }

    /// The frontier's priority, when it has one (to carry over to a crawler rebuilt from the
    /// store).
    pub fn priority(&self) -> Option<&FrontierPriority> {
        self.frontier.priority()
    }

    /// The next URL to fetch, or `None` when the frontier is empty.
    pub fn next_request(&mut self) -> Option<Queued> {
        // A waiting URL was a parsed URL when queued, so it parses again; the check only keeps
        // the function total.
        while let Some(waiting) = self.frontier.pop_front() {
            let Some(queued) = waiting.to_queued() else {
                continue;
            };
            if self.is_known_spelling(&queued.url) {
                self.skipped_spellings += 1;
                self.skipped_not_taken.push(queued.url.to_string());
                continue;
            }
            return Some(queued);
        }
        None
    }

    /// How links are chosen.
    pub fn strategy(&self) -> &CrawlStrategy {
        &self.strategy
    }

    /// The plan followed, when the crawl follows one.
    pub fn plan(&self) -> Option<&Plan> {
        match &self.strategy {
            CrawlStrategy::Plan(plan) => Some(plan.as_ref()),
            CrawlStrategy::BreadthFirst => None,
        }
    }

    /// URLs waiting.
    pub fn frontier_len(&self) -> usize {
        self.frontier.len()
    }

    /// Pages recorded so far.
    pub fn fetched(&self) -> usize {
        self.fetched
    }

    /// The patterns the posts of `vertex`'s pages were seen repeating in, in the order they
    /// were first seen (see [`posts_read_again`]).
    pub fn post_patterns_of(&self, vertex: usize) -> &[u64] {
        self.post_patterns.get(&vertex).map_or(&[], Vec::as_slice)
    }

    /// URL rewrites learned while crawling (see [`REWRITE_EVIDENCE`]).
    pub fn learned_rewrites(&self) -> &[ScopedRewrite] {
        &self.online_rewrites.rules
    }

    /// Pages whose layout matched no vertex of the plan. Many of them mean the forum's templates
    /// changed since the plan was learned.
    pub fn unclassified(&self) -> usize {
        self.unclassified
    }

    /// Counts a fetch that got no response at all (refused, timed out, disallowed). The URL is
    /// not tried again by this crawler; the caller stores the failure.
    pub fn record_failure(&mut self) {
        self.fetched += 1;
    }

    /// Takes back the response to `queued`: analyses the page, classifies it, and queues the
    /// links to follow.
    pub fn record(&mut self, queued: &Queued, response: &FetchResponse) -> CrawledPage {
        let analysed = AnalysedPage::of(queued, response, self.plan());
        self.record_analysed(queued, response, analysed)
    }

    /// [`Crawler::record`] for a page already analysed by [`AnalysedPage::of`], which is the
    /// expensive part and needs no crawler state, so drivers can run it on worker threads and
    /// only this step in order.
    pub fn record_analysed(
        &mut self,
        queued: &Queued,
        response: &FetchResponse,
        analysed: AnalysedPage,
    ) -> CrawledPage {
        self.fetched += 1;
        let AnalysedPage {
            analysis,
            redirect,
            regions,
            lone_records,
            single_records,
            class: class_under_plan,
        } = analysed;
        let mut page = CrawledPage {
            url: queued.url.clone(),
            status: response.status,
            fetched_at: response.fetched_at,
            vertex: None,
            role: None,
            placement: Placement::Classified,
            signature: record_signature(&analysis),
            post_pattern: None,
            list_links: Vec::new(),
            queued: Vec::new(),
            requeued: false,
            authored_links: 0,
            analysis,
        };
        let mut to_follow: Vec<Url> = Vec::new();
        // A site that opens a session on the first visit writes its session id into every link
        // of that page. The links are read without the pairs carrying the session cookie's
        // value, as a returning visitor with the cookie sees them (the sampler keeps the links
        // a returning visitor sees, so the plan knows those); when no link carries it, the
        // portal is asked for again before any of its links are read.
        if self.fetched == 1 && !self.session_checked {
            self.session_checked = true;
            if response.header("set-cookie").is_some() {
                self.session_values = session::cookie_values(response);
                let carried =
                    |url: &Url| session::without_session_pairs(url, &self.session_values).is_some();
                let in_links = page
                    .analysis
                    .links
                    .iter()
                    .any(|link| Url::parse(&link.url).is_ok_and(|url| carried(&url)))
                    || redirect.as_ref().is_some_and(carried);
                if !in_links {
                    self.session_values.clear();
                    self.frontier.push_front(WaitingUrl::of(queued));
                    page.requeued = true;
                    // The page is read again in a moment, placed in the plan this time; its
                    // records now, read without knowing what the page is, would be stored twice
                    // (and a board index's rows as posts).
                    page.analysis.posts.clear();
                    page.analysis.thread_entries.clear();
                    page.signature = None;
                    return page;
                }
            }
        }
        let redirect = redirect.map(|target| self.without_session(target));
        match &self.strategy {
            CrawlStrategy::BreadthFirst => {
                to_follow.extend(
                    page.analysis
                        .links
                        .iter()
                        .filter_map(|link| Some(self.without_session(Url::parse(&link.url).ok()?))),
                );
                to_follow.extend(redirect.clone());
            }
            CrawlStrategy::Plan(plan) => {
                let mut class = class_under_plan
                    .unwrap_or_else(|| plan.classify(&page.url, &regions, &lone_records));
                // A page the plan cannot place is not dropped: a page that answered is put
                // where its nearest layout (or its URL pattern) says, and read from there.
                if class.is_none() && (200..300).contains(&response.status) {
                    class = plan.classify_nearest(&page.url, &regions, &lone_records);
                    page.placement = match class {
                        Some(_) => Placement::Nearest,
                        None => Placement::Unplaced,
                    };
                } else if class.is_none() {
                    page.placement = Placement::Unplaced;
                }
                if let Some(class) = &class {
                    read_posts_by_vertex(
                        &mut self.post_patterns,
                        &mut page,
                        class.vertex,
                        single_records,
                    );
                }
                self.online_rewrites.observe(&page.url, page.signature);
                // A redirect is the server naming where the page is, not a page: the portal's
                // redirects (`/` to `/forum/`) are always followed, since the plan's portal is
                // where they end, and so is the redirect of a page the plan cannot place.
                // Other redirects stay the plan's to judge (one to a login page leads nowhere).
                let portal_redirect = queued.depth == queued.redirects;
                if let Some(target) = &redirect
                    && (portal_redirect || page.placement != Placement::Classified)
                {
                    to_follow.push(self.resolve_link(plan, target).url);
                }
                match class {
                    None => self.unclassified += 1,
                    Some(class) => {
                        page.vertex = Some(class.vertex);
                        page.role = plan.role_of(class.vertex);
                        // A page names many URLs more than once (a board link beside every
                        // post, the same pager above and below the list): each distinct
                        // spelling is parsed, canonicalised and matched against the plan's URL
                        // patterns once per page, and only the decision, which depends on the
                        // link's place, is taken per link. A URL already handed to the
                        // frontier step is not handed again, which changes nothing there (the
                        // seen set would drop it) but saves its copy.
                        let mut spellings: HashMap<&str, Option<usize>> =
                            HashMap::with_capacity(page.analysis.links.len());
                        let mut resolved: Vec<ResolvedLink> = Vec::new();
                        let mut places: Vec<(usize, LocationKey)> =
                            Vec::with_capacity(page.analysis.links.len() + 1);
                        // Links that posts' authors wrote are not the forum's navigation
                        // (see `user_content`); only a thread's posts are read for them, as a
                        // board's rows misread as posts hold its thread links.
                        let authored = if page.role == Some(Role::Thread) {
                            user_content::authored_links(&page.analysis)
                        } else {
                            Vec::new()
                        };
                        for (position, link) in page.analysis.links.iter().enumerate() {
                            if authored.get(position).copied().unwrap_or(false) {
                                page.authored_links += 1;
                                continue;
                            }
                            let index = *spellings.entry(link.url.as_str()).or_insert_with(|| {
                                let url = self.without_session(Url::parse(&link.url).ok()?);
                                resolved.push(self.resolve_link(plan, &url));
                                Some(resolved.len() - 1)
                            });
                            if let Some(index) = index {
                                places.push((index, link.location.into()));
                            }
                        }
                        if let Some(target) = &redirect {
                            resolved.push(self.resolve_link(plan, target));
                            places.push((resolved.len() - 1, LocationKey::Path { path: 0 }));
                        }
                        let mut decisions: Vec<(usize, Decision)> = Vec::new();
                        for (index, location) in places {
                            let decide = |url: &Url, pattern: Option<u32>| {
                                let decision = self.unplaced.decide(
                                    plan,
                                    class.vertex,
                                    &page.url,
                                    url,
                                    pattern,
                                    location,
                                );
                                self.boards_over_global_list.adjust(
                                    class.vertex,
                                    pattern,
                                    location,
                                    decision,
                                )
                            };
                            let link = &resolved[index];
                            let mut decision = decide(&link.url, link.pattern);
                            // A spelling rule may turn a link the plan follows into a spelling
                            // it skips: a later page of a thread (`?num=5/15`) shows what the
                            // permalink of a post on it (`?num=5;r=15`) shows, and the sample
                            // paired them. A pager link is then followed as written, with its
                            // relation, since the plan knows how to crawl that spelling and skips
                            // the other (a plain follow, such as a board's links to a thread's
                            // later pages, would reach them outside their thread), unless the
                            // rewritten spelling is queued already (Discuz!'s pagers name page 1
                            // in a dynamic spelling of a static URL the crawl has), and unless the
                            // rewrite dropped a number (a dropped `&page=1` names a first page the
                            // list's own spelling reaches, see `resolve_link`, whether or not what
                            // is left falls in a pattern: a question's answers in their default
                            // order page as `?sort=oldest&page=2`, and the `?sort=oldest` left of
                            // page 1's link is one of the answer orders the plan skips as copies,
                            // so 10-17 % of a question-and-answer site's fetches were first pages
                            // fetched again under their pager's spelling). Measured on
                            // the simulator's YaBB seed 2 with 100 samples: every thread's
                            // later pages were rewritten into skipped permalinks (99 pages
                            // missed, 73.2 % coverage).
                            let as_written = match &link.written {
                                Some((written, pattern))
                                    if decision == Decision::Skip
                                        && link.pattern.is_some()
                                        && !dropped_a_number(written, &link.url)
                                        && !self.seen.contains(&url_key(link.url.as_str())) =>
                                {
                                    Some((written.clone(), *pattern, decide(written, *pattern)))
                                }
                                _ => None,
                            };
                            if let Some((written, pattern, written_decision)) = as_written
                                && written_decision == Decision::FollowKeepRelation
                            {
                                let link = &mut resolved[index];
                                link.url = written;
                                link.pattern = pattern;
                                link.written = None;
                                decision = written_decision;
                            }
                            decisions.push((index, decision));
                        }
                        for &(index, decision) in &decisions {
                            let url = &resolved[index].url;
                            if decision == Decision::FollowKeepRelation
                                && !page.list_links.contains(url)
                            {
                                page.list_links.push(url.clone());
                            }
                        }
                        // An ended list's pager is neither followed nor kept as the page's
                        // list links: the pages past this one are not pages of the list, and an
                        // audit would take them for pages the crawl left out. The page itself
                        // stays in its list through the links of the page before it.
                        let list_ended = page
                            .role
                            .is_some_and(|role| self.list_has_ended(role, response.status, &page));
                        if list_ended {
                            page.list_links.clear();
                        }
                        for (index, decision) in decisions {
                            let link = &mut resolved[index];
                            let pager_of_an_ended_list =
                                list_ended && decision == Decision::FollowKeepRelation;
                            if decision != Decision::Skip
                                && !pager_of_an_ended_list
                                && !link.handed_on
                                && !to_follow.contains(&link.url)
                            {
                                link.handed_on = true;
                                to_follow.push(link.url.clone());
                            }
                        }
                    }
                }
            }
        }
        // A portal from which the plan follows no link is not the portal the plan knows, even
        // when its URL pattern places it (every engine names its portal `/index.php`): the
        // crawl would end with it. Counted as unclassified, it tells the driver that the
        // forum's templates changed, and a plan learned again reads it once more. (The second
        // fetch of a portal that set a session cookie used to hide this: its first, unread
        // answer counted as unclassified.)
        if self.fetched == 1
            && matches!(self.strategy, CrawlStrategy::Plan(_))
            && page.vertex.is_some()
            && to_follow.is_empty()
        {
            page.vertex = None;
            page.role = None;
            page.placement = Placement::Unplaced;
            self.unclassified += 1;
        }
        let source = self.frontier.take_source(queued.url.as_str());
        for url in to_follow {
            if !self.is_same_site(&url) {
                continue;
            }
            // A redirect's target continues the chain of the page that redirected; anything
            // else starts a new one.
            let redirects = if redirect.as_ref() == Some(&url) {
                queued.redirects + 1
            } else {
                0
            };
            if redirects > MAX_REDIRECTS {
                continue;
            }
            if self.seen.insert(url_key(url.as_str())) {
                let entry = Queued {
                    url,
                    depth: queued.depth + 1,
                    redirects,
                };
                self.frontier.push_link(WaitingUrl::of(&entry), source);
                page.queued.push(entry);
            }
        }
        page
    }

    /// Whether the list `page` belongs to has ended with it, so its page-flipping links are not
    /// followed: a thread or thread-list page that shows no records at all (a page past the
    /// end), or one that shows exactly the records of a page its own pager names, fetched
    /// before. Forums answer a page number past the end with the first page again, and lists
    /// computed on request (a "what's new" view, search results, a calendar) show the same
    /// latest records under every page number while their pager always offers one more page:
    /// following such a pager never ends. Measured on the simulator's XenForo seeds 3 and 7
    /// (`trawl bench learn`), whose "what's new" view the plan keeps as a thread list with
    /// page-flipping arcs: 89 % of 3,000 fetches were of that view before.
    ///
    /// The records compared are the pages' signatures (`record_signature`: a whole page's
    /// records in order, so a post quoted or a thread listed on two pages is no repeat), as the
    /// rewrites learned while crawling keep them; [`Crawler::resume`] rebuilds those from the
    /// store, so a resumed crawl ends the same lists. Only pages the pager names are compared,
    /// not every page spelled like one of the list: a board's page and the board index can
    /// show the same sidebar read as records, and spellings alone (`/forums/` and
    /// `/forums/hardware.3/`) would take the index for the board's first page.
    fn list_has_ended(&self, role: Role, status: u16, page: &CrawledPage) -> bool {
        if !matches!(role, Role::Thread | Role::ThreadList) || !(200..300).contains(&status) {
            return false;
        }
        let Some(signature) = page.signature else {
            return true;
        };
        page.list_links.iter().any(|link| {
            *link != page.url
                && self.online_rewrites.signature_of_url.get(link.as_str()) == Some(&signature)
        })
    }

    /// A link's URL as the plan weighs it: redundant parts (`&start=0`) dropped first, by the
    /// plan's rewrites and then by those learned while crawling, so a list's first page is not
    /// fetched again under its pager's spelling; and the URL pattern it matches.
    ///
    /// A rewrite that drops a view option (a word, no number) and turns a link into a URL no
    /// pattern of the plan matches is not applied: a rule learned from first pages
    /// (`&sort=votes` dropped because `?id=5&sort=votes` showed what `?id=5` shows) must not
    /// take the later pages it also fits (`?id=5&sort=votes&page=2`) out of every pattern the
    /// plan follows, which cut every long thread to its first page. A rule dropping a number
    /// (`&page=1`) names a list's first page, which the list's own spelling reaches; such a
    /// link stays unfollowed (Discuz!'s `?mod=viewthread&page=1&tid=5` beside
    /// `thread-5-1-1.html`).
    fn resolve_link(&self, plan: &Plan, url: &Url) -> ResolvedLink {
        let written_url = url.clone();
        let canonical = self.online_rewrites.canonical(&plan.canonical(url));
        let (url, pattern) = match plan.url_pattern_of(&canonical) {
            Some(pattern) => (canonical, Some(pattern)),
            None if dropped_only_words(url, &canonical) => match plan.url_pattern_of(url) {
                Some(pattern) => (url.clone(), Some(pattern)),
                None => (canonical, None),
            },
            None => (canonical, None),
        };
        let written = match plan.url_pattern_of(&written_url) {
            written_pattern if written_pattern != pattern => Some((written_url, written_pattern)),
            _ => None,
        };
        ResolvedLink {
            pattern,
            url,
            written,
            handed_on: false,
        }
    }

    /// The spelling under which this crawler queues a link to `url`: without the portal's
    /// session id, then with the plan's redundant parts dropped and the rewrites learned while
    /// crawling applied (breadth-first, only the session id is dropped). A crawl's audit reads
    /// the URLs a forum names (a thread entry's link) through it, so a thread fetched under its
    /// short spelling is not taken for one never fetched.
    pub fn queued_spelling(&self, url: &Url) -> Url {
        let url = self.without_session(url.clone());
        match &self.strategy {
            CrawlStrategy::Plan(plan) => {
                let canonical = self.online_rewrites.canonical(&plan.canonical(&url));
                // A link followed as written because its rewritten spelling is one the plan
                // skips (see `record_analysed`) was queued as written.
                if canonical != url
                    && !self.seen.contains(&url_key(canonical.as_str()))
                    && self.seen.contains(&url_key(url.as_str()))
                {
                    url
                } else {
                    canonical
                }
            }
            CrawlStrategy::BreadthFirst => url,
        }
    }

    /// Whether `url` is another spelling of a URL already queued, by the rewrites learned while
    /// crawling. Links are rewritten when they are queued, but a rule comes into force only
    /// after [`REWRITE_EVIDENCE`] pages agree, and by then a breadth-first frontier already
    /// holds the long spelling of nearly every list's first page: each thread's second page is
    /// fetched, and queues its pager's "1", before any of those is fetched. Checking again when
    /// a URL leaves the frontier drops them. Measured on the simulator's phpBB seed 2 (sampled
    /// with seed 1): 52 duplicate fetches of `&start=0` first pages before, 5 after (the pages
    /// that teach the rules, for threads and for boards).
    ///
    /// The check reads only the rules in force and the seen set, both rebuilt by
    /// [`Crawler::resume`], so a resumed crawl skips the same URLs, with one exception: a URL
    /// skipped under a rule that a later page withdrew is still pending in the store and would
    /// be fetched after a resume.
    fn is_known_spelling(&self, url: &Url) -> bool {
        let canonical = self.online_rewrites.canonical(url);
        canonical != *url && self.seen.contains(&url_key(canonical.as_str()))
    }

    /// URLs taken from the frontier and not handed out because the rewrites learned while
    /// crawling showed them to be another spelling of a URL already queued.
    pub fn skipped_spellings(&self) -> usize {
        self.skipped_spellings
    }

    /// The URLs skipped as known spellings since the last call, for a store to mark as done:
    /// a resumed crawl must not fetch a URL the uninterrupted one passed over, even when a
    /// later page withdrew the rewrite that made it a known spelling.
    pub fn take_skipped(&mut self) -> Vec<String> {
        std::mem::take(&mut self.skipped_not_taken)
    }

    fn is_same_site(&self, url: &Url) -> bool {
        matches!(url.scheme(), "http" | "https")
            && url.host_str().map(str::to_ascii_lowercase) == self.host
            && url.port_or_known_default() == self.port
    }

    /// `url` without the query pairs carrying the portal's session id (see `session`).
    fn without_session(&self, url: Url) -> Url {
        if self.session_values.is_empty() {
            return url;
        }
        session::without_session_pairs(&url, &self.session_values).unwrap_or(url)
    }
}

#[cfg(test)]
mod tests;
