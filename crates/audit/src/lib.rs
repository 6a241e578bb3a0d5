//! A crawl's audit: what the forum says it holds, against what the crawl holds.
//!
//! A forum states its own size. A board page lists its threads with a reply count and the time
//! of the last reply; a pager shows the numbers of a list's pages up to the last; a thread page
//! links the thread's other pages. A crawl that trusted only the links it chose to follow
//! cannot tell a forum it read whole from one it left half read; read against those numbers,
//! it can. [`audit`] is a pure function from what a crawl's store holds ([`CrawlRecord`]: the
//! fetches with the records read from them, the URLs still waiting, the URLs passed over as
//! other spellings) to an [`AuditReport`]: no network, no file, no clock.
//!
//! The gaps it names, each with why the page is missing (never queued, waiting, failed):
//!
//! - **Threads listed, never fetched** ([`GapKind::ListedThread`]): a thread entry's URL, read
//!   through the spelling rewrites the crawler applies (the caller does that), leads to no
//!   fetched page, after redirects. An entry the crawler never queued whose title names a
//!   thread fetched under another entry is that thread shown again (a box of latest posts
//!   links each thread's last post, which the plan rightly leaves alone).
//! - **List pages linked, never fetched** ([`GapKind::LinkedListPage`]): a fetched page of a
//!   board or thread links a page of its own list that the crawl lacks: a page-flipping link,
//!   or any link of the page spelled as a page of the list (the list's URL template with only
//!   its page number changed, `pager`), since a pager link the plan did not take for page
//!   flipping is the blind spot an audit is for. Every link is read from the stored page
//!   (`links`: anchors, without building a tree).
//! - **List pages within the pager's numbers** ([`GapKind::NumberedListPage`]): between two
//!   page numbers a list's pages and pagers show, at the list's step, a number no page has
//!   (`pager`): the window `1 2 3 … 17` implies pages 4 to 16 even when page 3 was never
//!   fetched to link them.
//! - **Threads cut short** ([`GapKind::ShortThread`]): the board entry counts more posts than
//!   the thread's fetched pages hold, and more than that many pages hold at the forum's posts per
//!   page (the most common number of posts on thread pages followed by another page of their
//!   thread). Whether a forum counts replies or
//!   posts is read from the crawl itself: the convention most of its threads agree with. Where
//!   a board shows no count, a last-reply time later than every post the crawl holds, with the
//!   thread's last fetched page full, says the same.
//!
//! The roles of pages (board, thread) come from the crawl's plan: a crawl without one
//! (breadth first) is audited only by the URLs it still waits for.
//!
//! A thread whose pages are all there by those counts and which still holds fewer posts than
//! counted is not a gap of the crawl (fetching again brings nothing): it is reported apart, as
//! posts unread ([`UnreadPosts`]), for page analysis to answer for.
//!
//! The audit never guesses a page into existence from one number: every gap rests on a link a
//! fetched page holds, a count a board shows, or two pager numbers around it. So a crawl that is
//! whole by the forum's own statements reports no gap; and a page a crawl lost (a failed fetch,
//! a page limit) is named as long as any fetched page states it.

mod input;
mod links;
mod pager;
mod report;

use std::collections::{HashMap, HashSet};

use trawl_crawl::lists::{ListPage, assemble_lists};
use trawl_learn::sitemap::Role;

pub use input::{CrawlRecord, EntrySeen, FetchedPage, LinkSeen, PostSeen};
pub use links::anchor_links;
pub use pager::{AlikePage, pages_between_numbers, pages_linked_alike};
pub use report::{AuditReport, AuditTotals, Gap, GapKind, ListGaps, Missing, UnreadPosts};

/// Redirects followed to find the page a URL leads to, as the crawler follows them.
const MOST_REDIRECTS: usize = 10;

/// Audits `record`: see the crate's essay.
pub fn audit(record: &CrawlRecord) -> AuditReport {
    let states = UrlStates::of(record);
    let lists = Lists::of(record);
    let mut gaps: Vec<Gap> = Vec::new();
    let mut totals = AuditTotals {
        pages_fetched: record.pages.len(),
        pages_failed: record.pages.iter().filter(|page| !answered(page)).count(),
        urls_waiting: record.waiting.len(),
        lists: lists.lists.len(),
        ..AuditTotals::default()
    };

    // Pages of each list: linked by its pagers, or numbered between them.
    let mut named_missing: HashSet<String> = HashSet::new();
    for list in &lists.lists {
        let first = record.pages[list[0]].url.as_str();
        let mut known: Vec<&str> = Vec::new();
        let mut seen_in_list: HashSet<&str> = HashSet::new();
        for &page in list {
            let page = &record.pages[page];
            for url in std::iter::once(&page.url).chain(&page.list_links) {
                let url = without_fragment(url);
                if seen_in_list.insert(url) {
                    known.push(url);
                }
            }
        }
        let mut queued_as: HashMap<&str, &str> = HashMap::new();
        let mut links: Vec<&str> = Vec::new();
        for &page in list {
            for link in &record.pages[page].links {
                let url = without_fragment(&link.url);
                if queued_as.insert(url, link.queued_as.as_str()).is_none() {
                    links.push(url);
                }
            }
        }
        let alike = pages_linked_alike(&known, &links);
        // A page of the list the crawler takes for another page (a spelling rewrite learned
        // wrongly, `/4.html` read as the first page `/`) is never fetched, and only its
        // spelling as written shows it; the first page spelled with its number is the one
        // page such a rewrite rightly joins to another.
        let mut taken_for_another: Vec<(&str, &str)> = Vec::new();
        for page in &alike {
            let url = page.url.as_str();
            let queued = queued_as.get(url).copied().unwrap_or(url);
            if queued == url {
                if seen_in_list.insert(url) {
                    known.push(url);
                }
            } else if !page.first_page
                && !matches!(states.resolve(url), UrlState::Fetched(_))
                && seen_in_list.insert(url)
            {
                taken_for_another.push((url, queued));
            }
        }
        for (url, queued) in taken_for_another {
            totals.list_pages_known += 1;
            if named_missing.insert(url.to_string()) {
                gaps.push(Gap {
                    kind: GapKind::LinkedListPage,
                    url: url.to_string(),
                    list: Some(first.to_string()),
                    missing: Missing::TakenForAnother {
                        queued_as: queued.to_string(),
                    },
                    posts_missing: 0,
                });
            }
        }
        let implied = pages_between_numbers(&known);
        totals.list_pages_known += known.len() + implied.len();
        let linked = known
            .iter()
            .map(|url| (url.to_string(), GapKind::LinkedListPage));
        let numbered = implied
            .into_iter()
            .map(|url| (url, GapKind::NumberedListPage));
        for (url, kind) in linked.chain(numbered) {
            match states.resolve(&url) {
                UrlState::Fetched(_) | UrlState::PassedOver => totals.list_pages_fetched += 1,
                other => {
                    if named_missing.insert(url.clone()) {
                        gaps.push(Gap {
                            kind,
                            url,
                            list: Some(first.to_string()),
                            missing: other.missing_of(record),
                            posts_missing: 0,
                        });
                    }
                }
            }
        }
    }

    // A crawl without a plan (breadth first) knows no page's role: it cannot tell a board's
    // entries from a box of latest posts, a thread's first page from the same page under
    // another spelling, or a thread's pages from one another. Its audit rests on what it
    // waits for alone.
    totals.without_roles = record.pages.iter().all(|page| page.role.is_none());
    if totals.without_roles {
        return AuditReport {
            totals,
            gaps,
            unread: Vec::new(),
        };
    }

    // Threads the boards list, and what their entries count.
    let mut listed: Vec<ListedThread> = Vec::new();
    let mut listed_index: HashMap<&str, usize> = HashMap::new();
    for page in record.pages.iter().filter(|page| answered(page)) {
        if page.role == Some(Role::Thread) {
            continue;
        }
        for entry in &page.thread_entries {
            let url = without_fragment(&entry.url);
            let index = *listed_index.entry(url).or_insert_with(|| {
                listed.push(ListedThread {
                    url,
                    title: entry.title.as_str(),
                    board: page.url.as_str(),
                    replies: None,
                    last_reply: None,
                });
                listed.len() - 1
            });
            // Counts are taken from boards: a box elsewhere (a portal's latest threads) may
            // show another number in the place of replies (views), and a board states its own
            // threads. A crawl without roles has only pages to go by; where entries disagree,
            // the smallest count stands, since a number read from the wrong column (views) is
            // larger, never smaller, than the replies.
            if page.role.is_none_or(|role| role == Role::ThreadList) {
                let thread = &mut listed[index];
                thread.replies = smaller_known(thread.replies, entry.replies);
                thread.last_reply = smaller_known(thread.last_reply, entry.last_reply.as_deref());
            }
        }
    }
    let threads = lists.thread_posts(record);
    let mut counted: HashMap<usize, Counted<'_>> = HashMap::new();
    let mut unfetched: Vec<(&ListedThread, UrlState)> = Vec::new();
    let mut fetched_titles: HashSet<&str> = HashSet::new();
    let mut fetched_kinds: HashSet<UrlKind<'_>> = HashSet::new();
    for thread in &listed {
        match states.resolve(thread.url) {
            UrlState::Fetched(page) => {
                totals.threads_listed_fetched += 1;
                fetched_titles.insert(thread.title);
                fetched_kinds.insert(UrlKind::of(thread.url));
                if let Some(&list) = lists.thread_of_page.get(&page) {
                    let count = counted.entry(list).or_default();
                    count.replies = smaller_known(count.replies, thread.replies);
                    count.last_reply = smaller_known(count.last_reply, thread.last_reply);
                }
            }
            UrlState::PassedOver => {
                totals.threads_listed_fetched += 1;
                fetched_titles.insert(thread.title);
                fetched_kinds.insert(UrlKind::of(thread.url));
            }
            other => unfetched.push((thread, other)),
        }
    }
    // An entry the crawler never queued is a gap only when its link is of the kind the crawl
    // follows to threads and its title names no thread the crawl has. A box of latest posts
    // lists a thread again under a link to one of its posts (the same title, another kind of
    // link), which the plan rightly leaves alone; an entry read from the wrong link of its row
    // (a last-post date) is not a thread's link at all. An entry the crawler asked for and did
    // not get is named whatever its link and title.
    let before = unfetched.len();
    unfetched.retain(|(thread, state)| {
        *state != UrlState::NeverQueued
            || (fetched_kinds.contains(&UrlKind::of(thread.url))
                && !fetched_titles.contains(thread.title))
    });
    totals.entries_not_followed = before - unfetched.len();
    totals.threads_listed = totals.threads_listed_fetched + unfetched.len();
    let posts_per_page = posts_per_page(&threads);
    totals.posts_per_page = posts_per_page.unwrap_or(0);
    let counts_are_replies = counts_are_replies(&threads, &counted);
    totals.counts_are_replies = counts_are_replies;
    let posts_of = |replies: u64| replies + u64::from(counts_are_replies);
    for (thread, state) in unfetched {
        gaps.push(Gap {
            kind: GapKind::ListedThread,
            url: thread.url.to_string(),
            list: Some(thread.board.to_string()),
            missing: state.missing_of(record),
            posts_missing: thread.replies.map_or(0, posts_of),
        });
    }

    // Threads whose counts say pages are missing.
    let mut unread = Vec::new();
    let mut counted_lists: Vec<(&usize, &Counted<'_>)> = counted.iter().collect();
    counted_lists.sort_by_key(|(list, _)| **list);
    for (&list, count) in counted_lists {
        let thread = &threads[list];
        let first = record.pages[lists.lists[list][0]].url.clone();
        let per_page = posts_per_page.unwrap_or(1).max(1);
        if let Some(replies) = count.replies {
            let posts = posts_of(replies);
            totals.posts_counted += posts;
            totals.posts_stored_of_counted += thread.posts.min(posts);
            if thread.posts >= posts {
                continue;
            }
            let pages_needed = posts.div_ceil(per_page as u64) as usize;
            if thread.pages_with_posts < pages_needed {
                gaps.push(Gap {
                    kind: GapKind::ShortThread,
                    url: first,
                    list: None,
                    missing: Missing::PagesMissing {
                        pages_fetched: thread.pages_with_posts,
                        pages_needed,
                    },
                    posts_missing: posts - thread.posts,
                });
            } else {
                unread.push(UnreadPosts {
                    thread: first,
                    counted: posts,
                    stored: thread.posts,
                });
            }
        } else if let (Some(last_reply), Some(newest)) = (count.last_reply, &thread.newest_post)
            && later_minute(last_reply, newest)
            && thread.last_page_posts >= per_page
        {
            gaps.push(Gap {
                kind: GapKind::ShortThread,
                url: first,
                list: None,
                missing: Missing::PagesMissing {
                    pages_fetched: thread.pages_with_posts,
                    pages_needed: thread.pages_with_posts + 1,
                },
                posts_missing: 0,
            });
        }
    }
    gaps.sort_by_key(|gap| gap.kind);
    AuditReport {
        totals,
        gaps,
        unread,
    }
}

/// A thread a board lists, with the largest counts its entries show.
#[derive(Debug)]
struct ListedThread<'a> {
    url: &'a str,
    title: &'a str,
    board: &'a str,
    replies: Option<u64>,
    last_reply: Option<&'a str>,
}

/// What the entries of a fetched thread count.
#[derive(Debug, Default)]
struct Counted<'a> {
    replies: Option<u64>,
    last_reply: Option<&'a str>,
}

/// The forum's posts per page: the most common number of posts on thread pages followed by
/// another page of their thread (pages the forum filled), the larger on a tie; with no thread
/// of two pages, the most posts on one page (every thread then fits on one). The largest
/// number on any page would do if page analysis never read one post too many (a quoted box
/// read as a post); a full page's number is what the forum pages by.
fn posts_per_page(threads: &[ThreadPosts<'_>]) -> Option<usize> {
    let mut counts: HashMap<usize, usize> = HashMap::new();
    for count in threads.iter().flat_map(|thread| &thread.full_pages) {
        *counts.entry(*count).or_default() += 1;
    }
    counts
        .into_iter()
        .filter(|(posts, _)| *posts > 0)
        .max_by_key(|(posts, times)| (*times, *posts))
        .map(|(posts, _)| posts)
        .or_else(|| threads.iter().map(|thread| thread.most_on_a_page).max())
}

/// Whether the boards' counts leave the first post out. Threads the crawl holds whole agree on
/// one convention; those it holds in part or over-read agree with neither, so the vote is
/// between the threads holding exactly the count and those holding one more. With no thread to
/// tell, counts are taken as replies, which is what the column is called on most boards.
fn counts_are_replies(threads: &[ThreadPosts<'_>], counted: &HashMap<usize, Counted<'_>>) -> bool {
    let (mut as_replies, mut as_posts) = (0usize, 0usize);
    for (list, count) in counted {
        let Some(replies) = count.replies else {
            continue;
        };
        let posts = threads[*list].posts;
        as_replies += usize::from(posts == replies + 1);
        as_posts += usize::from(posts == replies);
    }
    as_replies >= as_posts
}

/// Whether ISO 8601 time `later` names a later minute than `earlier`. Both come from one
/// forum's pages, read with the same zone, so their local dates and times compare as written;
/// times of a day's precision, or shorter, say nothing.
fn later_minute(later: &str, earlier: &str) -> bool {
    const MINUTE: usize = "2026-01-02T03:04".len();
    match (later.get(..MINUTE), earlier.get(..MINUTE)) {
        (Some(later), Some(earlier)) => later > earlier,
        _ => false,
    }
}

/// What kind of link a URL is, coarsely: its path's depth, its first path segment with digits
/// set aside, and its query's parameter names. A thread's link and a link to one of its posts
/// differ in it (`/t/slug/251` and `/t/slug/251/6`, `thread-13-1-1.html` and
/// `forum.php?mod=redirect&goto=findpost`); two threads' links do not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct UrlKind<'a> {
    depth: usize,
    first_segment: String,
    query_names: Vec<&'a str>,
}

impl<'a> UrlKind<'a> {
    fn of(url: &'a str) -> UrlKind<'a> {
        let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
        let (path, query) = after_scheme.split_once('?').unwrap_or((after_scheme, ""));
        let segments: Vec<&str> = path.split('/').skip(1).filter(|s| !s.is_empty()).collect();
        let mut query_names: Vec<&str> = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| pair.split('=').next().unwrap_or(pair))
            .collect();
        query_names.sort_unstable();
        query_names.dedup();
        UrlKind {
            depth: segments.len(),
            first_segment: segments
                .first()
                .map(|segment| digits_set_aside(segment))
                .unwrap_or_default(),
            query_names,
        }
    }
}

/// The smaller of two values where both are known, else the one known.
fn smaller_known<T: Ord>(first: Option<T>, second: Option<T>) -> Option<T> {
    match (first, second) {
        (Some(first), Some(second)) => Some(first.min(second)),
        (first, second) => first.or(second),
    }
}

/// `text` with each run of digits written as one `0`.
fn digits_set_aside(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        if character.is_ascii_digit() {
            if !out.ends_with('0') {
                out.push('0');
            }
        } else {
            out.push(character);
        }
    }
    out
}

fn answered(page: &FetchedPage) -> bool {
    (200..300).contains(&page.status)
}

fn without_fragment(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

/// What the crawl did with one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UrlState {
    /// Fetched with an answer, at this page (after redirects).
    Fetched(usize),
    /// Fetched, and the last answer was this page, not a usable one.
    Failed(usize),
    /// Passed over as another spelling of a queued URL.
    PassedOver,
    /// In the frontier.
    Waiting,
    /// Never queued.
    NeverQueued,
}

impl UrlState {
    /// Why the page is missing, for a state that is not fetched.
    fn missing_of(self, record: &CrawlRecord) -> Missing {
        match self {
            UrlState::Failed(page) => Missing::Failed {
                status: record.pages[page].status,
                error: record.pages[page].error.clone(),
            },
            UrlState::Waiting => Missing::Waiting,
            _ => Missing::NeverQueued,
        }
    }
}

/// [`UrlState`]s, with the record they were read from.
struct UrlStates<'a> {
    record: &'a CrawlRecord,
    /// Per URL, its answered fetch, or else its last fetch.
    page_of_url: HashMap<&'a str, usize>,
    waiting: HashSet<&'a str>,
    passed_over: HashSet<&'a str>,
}

impl<'a> UrlStates<'a> {
    fn of(record: &'a CrawlRecord) -> UrlStates<'a> {
        let mut page_of_url: HashMap<&str, usize> = HashMap::new();
        for (index, page) in record.pages.iter().enumerate() {
            let url = without_fragment(&page.url);
            match page_of_url.get(url) {
                // An answer stands; a later failure (a gap closed, then asked again) does not
                // undo it.
                Some(&earlier) if answered(&record.pages[earlier]) => {}
                _ => {
                    page_of_url.insert(url, index);
                }
            }
        }
        UrlStates {
            record,
            page_of_url,
            waiting: record.waiting.iter().map(|url| url.as_str()).collect(),
            passed_over: record.passed_over.iter().map(|url| url.as_str()).collect(),
        }
    }

    fn resolve(&self, url: &str) -> UrlState {
        let mut url = without_fragment(url).to_string();
        let mut state = UrlState::NeverQueued;
        for _ in 0..=MOST_REDIRECTS {
            state = match self.page_of_url.get(url.as_str()) {
                Some(&page) => {
                    let fetched = &self.record.pages[page];
                    if let (300..400, Some(target)) = (fetched.status, &fetched.redirect_to) {
                        url = without_fragment(target).to_string();
                        continue;
                    }
                    if answered(fetched) {
                        UrlState::Fetched(page)
                    } else {
                        UrlState::Failed(page)
                    }
                }
                None if self.waiting.contains(url.as_str()) => UrlState::Waiting,
                None if self.passed_over.contains(url.as_str()) => UrlState::PassedOver,
                None => UrlState::NeverQueued,
            };
            break;
        }
        state
    }
}

/// The crawl's lists (boards and threads) put together from page-flipping links, and which
/// thread each page belongs to.
struct Lists {
    /// Page indices of each list, in page order. Pages with posts that the plan placed in no
    /// vertex are threads of one page each.
    lists: Vec<Vec<usize>>,
    /// The list of each page of a thread.
    thread_of_page: HashMap<usize, usize>,
    /// Whether each list is a thread.
    is_thread: Vec<bool>,
}

/// What the crawl holds of one thread.
#[derive(Debug, Default)]
struct ThreadPosts<'a> {
    /// Distinct posts.
    posts: u64,
    /// Pages that brought posts no earlier page of the thread showed.
    pages_with_posts: usize,
    /// Most posts on one of its pages.
    most_on_a_page: usize,
    /// Posts on each of its pages with posts but the last: pages the forum filled.
    full_pages: Vec<usize>,
    /// Posts on its last page holding any.
    last_page_posts: usize,
    /// The latest post time.
    newest_post: Option<&'a str>,
}

impl Lists {
    fn of(record: &CrawlRecord) -> Lists {
        let input: Vec<ListPage<'_>> = record
            .pages
            .iter()
            .map(|page| ListPage {
                url: &page.url,
                role: page.role.filter(|_| answered(page)),
                list_links: &page.list_links,
            })
            .collect();
        let mut lists: Vec<Vec<usize>> = assemble_lists(&input)
            .into_iter()
            .map(|list| list.pages)
            .collect();
        let mut is_thread: Vec<bool> = lists
            .iter()
            .map(|list| record.pages[list[0]].role == Some(Role::Thread))
            .collect();
        let mut first_fetch: HashSet<&str> = HashSet::new();
        for (index, page) in record.pages.iter().enumerate() {
            if page.role.is_none()
                && answered(page)
                && !page.posts.is_empty()
                && first_fetch.insert(page.url.as_str())
            {
                lists.push(vec![index]);
                is_thread.push(true);
            }
        }
        let mut thread_of_page = HashMap::new();
        for (list_index, list) in lists.iter().enumerate() {
            if is_thread[list_index] {
                for &page in list {
                    thread_of_page.insert(page, list_index);
                }
            }
        }
        Lists {
            lists,
            thread_of_page,
            is_thread,
        }
    }

    /// Per list, what it holds of posts (empty for boards).
    fn thread_posts<'a>(&self, record: &'a CrawlRecord) -> Vec<ThreadPosts<'a>> {
        self.lists
            .iter()
            .zip(&self.is_thread)
            .map(|(list, is_thread)| {
                let mut thread = ThreadPosts::default();
                if !is_thread {
                    return thread;
                }
                let mut seen: HashSet<&str> = HashSet::new();
                for &page in list {
                    let posts = &record.pages[page].posts;
                    let mut new_posts = 0;
                    for post in posts {
                        if seen.insert(post.identity.as_str()) {
                            new_posts += 1;
                        }
                        if let Some(time) = post.time.as_deref()
                            && thread.newest_post.is_none_or(|newest| time > newest)
                        {
                            thread.newest_post = Some(time);
                        }
                    }
                    if new_posts > 0 {
                        if thread.pages_with_posts > 0 {
                            thread.full_pages.push(thread.last_page_posts);
                        }
                        thread.pages_with_posts += 1;
                        thread.last_page_posts = posts.len();
                    }
                    thread.most_on_a_page = thread.most_on_a_page.max(posts.len());
                    thread.posts += new_posts;
                }
                thread
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
