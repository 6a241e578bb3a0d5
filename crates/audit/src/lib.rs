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

mod digest;
mod entries;
mod input;
mod links;
mod pager;
mod report;
mod states;
mod threads;

// The audit hashes every URL of a crawl several times: a faster hasher than the standard
// library's (which resists hash flooding, no concern for a crawl's own URLs) is a fifth of it.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use trawl_learn::sitemap::Role;

use entries::{ListedThread, UrlKind};
use states::{UrlState, UrlStates, answered, without_fragment};
use threads::{
    Counted, Lists, ThreadPosts, counts_are_replies, counts_say_posts, later_minute,
    posts_per_page, smaller_known,
};

pub use digest::{
    PostsSeen, TEXT_IN_IDENTITY, identity_key, links_for_audit, list_role_names, post_identity,
};
pub use input::{CrawlRecord, EntrySeen, FetchedPage, LinkSeen};
pub use links::anchor_links;
pub use pager::{AlikePage, pages_between_numbers, pages_linked_alike};
pub use report::{AuditReport, AuditTotals, Gap, GapKind, ListGaps, Missing, UnreadPosts};

/// Audits `record`: see the crate's essay.
pub fn audit(record: &CrawlRecord) -> AuditReport {
    let mut auditing = Auditing {
        record,
        states: UrlStates::of(record),
        lists: Lists::of(record),
        totals: AuditTotals {
            pages_fetched: record.pages.len(),
            pages_failed: record.pages.iter().filter(|page| !answered(page)).count(),
            urls_waiting: record.waiting.len(),
            ..AuditTotals::default()
        },
        gaps: Vec::new(),
    };
    auditing.totals.lists = auditing.lists.lists.len();
    auditing.list_page_gaps();
    // A crawl without a plan (breadth first) knows no page's role: it cannot tell a board's
    // entries from a box of latest posts, a thread's first page from the same page under
    // another spelling, or a thread's pages from one another. Its audit rests on what it
    // waits for alone.
    auditing.totals.without_roles = record.pages.iter().all(|page| page.role.is_none());
    let mut unread = Vec::new();
    if !auditing.totals.without_roles {
        let listed = listed_threads(record);
        let threads = auditing.lists.thread_posts(record);
        let counted = auditing.listed_thread_gaps(&listed, &threads);
        unread = auditing.thread_count_gaps(&counted, &threads);
    }
    let Auditing {
        totals, mut gaps, ..
    } = auditing;
    gaps.sort_by_key(|gap| gap.kind);
    AuditReport {
        totals,
        gaps,
        unread,
    }
}

/// An audit under way: the crawl, what it did with each URL, its lists, and what was found.
struct Auditing<'a> {
    record: &'a CrawlRecord,
    states: UrlStates<'a>,
    lists: Lists,
    totals: AuditTotals,
    gaps: Vec<Gap>,
}

/// Threads the boards list (entries of every answered page but thread pages), each once, with
/// the counts boards show.
fn listed_threads(record: &CrawlRecord) -> Vec<ListedThread<'_>> {
    let mut listed: Vec<ListedThread> = Vec::new();
    let mut listed_index: HashMap<&str, usize> = HashMap::with_capacity(record.pages.len());
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
    listed
}

impl<'a> Auditing<'a> {
    /// Pages of each list the crawl lacks: linked by its pagers, spelled as its pages, or
    /// numbered between them.
    fn list_page_gaps(&mut self) {
        let mut named_missing: HashSet<String> = HashSet::new();
        // One of each for every list, emptied between them: a crawl of 100,000 pages holds tens
        // of thousands of lists, and maps made for each cost more than their lookups. (The
        // pages a list knows are made per list: they hold URLs shaped for that list alone.)
        let mut queued_as: HashMap<&str, &str> = HashMap::new();
        let mut links: Vec<&str> = Vec::new();
        let mut written_links: Vec<&str> = Vec::new();
        for list in &self.lists.lists {
            let first = self.record.pages[list[0]].url.as_str();
            let mut known: Vec<&str> = Vec::new();
            let mut seen_in_list: HashSet<&str> = HashSet::new();
            queued_as.clear();
            links.clear();
            written_links.clear();
            for &page in list {
                let page = &self.record.pages[page];
                for url in std::iter::once(&page.url).chain(&page.list_links) {
                    let url = without_fragment(url);
                    if seen_in_list.insert(url) {
                        known.push(url);
                    }
                }
            }
            // The links as written (`written_links`), fragments kept: a fragment tells a post's
            // permalink from a later page spelled alike (`?post=2#2` beside `?page=2`).
            for &page in list {
                for link in &self.record.pages[page].links {
                    let url = without_fragment(&link.url);
                    if queued_as.insert(url, link.queued_as.as_str()).is_none() {
                        links.push(url);
                        written_links.push(&link.url);
                    }
                }
            }
            // No link, no page spelled alike: most lists of a crawl read from its digests keep
            // no links beside their page-flipping ones, and their URLs need not be shaped.
            let mut alike = if links.is_empty() {
                Vec::new()
            } else {
                pages_linked_alike(&known, &links)
            };
            // A list the crawl fetched one page of shows no template of its page numbers, but
            // its pager names page 2 as the page's own URL with a page number added, maybe with
            // the list's order (`?sort=oldest&page=2`): the simulator's qa seed 41 crawl stopped
            // long questions at their first page, and the audit saw no gap. A page whose
            // page-flipping links already name its next page (a cursor in `<link rel="next">`)
            // has its page 2 there: the numbered pager such a page prints for clients without
            // scripts answers the first page again, and the crawler's rewrites rightly take it
            // for the first page (nodebb with its board's second page removed showed it as
            // taken for another).
            if list.len() == 1
                && known.len() == 1
                && let Ok(page_url) = url::Url::parse(first)
            {
                for (link, written) in links.iter().zip(&written_links) {
                    let second = url::Url::parse(written).ok().filter(|written| {
                        trawl_learn::later_pages::later_page_number(&page_url, written) == Some(2)
                    });
                    if second.is_some() && !alike.iter().any(|page| page.url == *link) {
                        alike.push(AlikePage {
                            url: link.to_string(),
                            first_page: false,
                        });
                    }
                }
            }
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
                    && !matches!(self.states.resolve(url), UrlState::Fetched(_))
                    && seen_in_list.insert(url)
                {
                    taken_for_another.push((url, queued));
                }
            }
            for (url, queued) in taken_for_another {
                self.totals.list_pages_known += 1;
                if named_missing.insert(url.to_string()) {
                    self.gaps.push(Gap {
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
            self.totals.list_pages_known += known.len() + implied.len();
            // A URL is copied only for a gap: most pages a list knows are fetched.
            let linked = known.iter().map(|url| (*url, GapKind::LinkedListPage));
            let numbered = implied
                .iter()
                .map(|url| (url.as_str(), GapKind::NumberedListPage));
            for (url, kind) in linked.chain(numbered) {
                match self.states.resolve(url) {
                    UrlState::Fetched(_) | UrlState::PassedOver => {
                        self.totals.list_pages_fetched += 1
                    }
                    other => {
                        if !named_missing.contains(url) {
                            named_missing.insert(url.to_string());
                            self.gaps.push(Gap {
                                kind,
                                url: url.to_string(),
                                list: Some(first.to_string()),
                                missing: other.missing_of(self.record),
                                posts_missing: 0,
                            });
                        }
                    }
                }
            }
        }
    }

    /// Threads listed and never fetched, and what the boards count for those fetched (by
    /// list). Sets the totals of threads, posts per page and the boards' way of counting.
    fn listed_thread_gaps(
        &mut self,
        listed: &[ListedThread<'a>],
        threads: &[ThreadPosts<'a>],
    ) -> HashMap<usize, Counted<'a>> {
        let mut counted: HashMap<usize, Counted<'_>> = HashMap::new();
        let mut unfetched: Vec<(&ListedThread, UrlState)> = Vec::new();
        let mut fetched_titles: HashSet<&str> = HashSet::new();
        let mut fetched_kinds: HashSet<UrlKind<'_>> = HashSet::new();
        for thread in listed {
            match self.states.resolve(thread.url) {
                // A board index lists boards the way a board lists threads (a title, a count,
                // a last post): an entry leading to a board page is a board, which the
                // list-page step audits, not a thread.
                UrlState::Fetched(page)
                    if self.record.pages[page].role == Some(Role::ThreadList) => {}
                UrlState::Fetched(page) => {
                    self.totals.threads_listed_fetched += 1;
                    fetched_titles.insert(thread.title);
                    fetched_kinds.insert(UrlKind::of(thread.url));
                    if let Some(list) = self.lists.thread_of_page[page] {
                        let count = counted.entry(list).or_default();
                        count.replies = smaller_known(count.replies, thread.replies);
                        count.last_reply = smaller_known(count.last_reply, thread.last_reply);
                    }
                }
                UrlState::PassedOver => {
                    self.totals.threads_listed_fetched += 1;
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
        // A crawl that reached no thread at all knows no kind of link that leads to threads:
        // then every entry it never queued is a gap (a plan that follows nothing from the
        // boards must not end the crawl as complete).
        let before = unfetched.len();
        let no_thread_reached = fetched_kinds.is_empty();
        unfetched.retain(|(thread, state)| {
            *state != UrlState::NeverQueued
                || no_thread_reached
                || (fetched_kinds.contains(&UrlKind::of(thread.url))
                    && !fetched_titles.contains(thread.title))
        });
        self.totals.entries_not_followed = before - unfetched.len();
        self.totals.threads_listed = self.totals.threads_listed_fetched + unfetched.len();
        let posts_per_page = posts_per_page(threads);
        self.totals.posts_per_page = posts_per_page.unwrap_or(0);
        let counts_are_replies = counts_are_replies(threads, &counted);
        self.totals.counts_are_replies = counts_are_replies;
        let posts_of = |replies: u64| replies + u64::from(counts_are_replies);
        for (thread, state) in unfetched {
            self.gaps.push(Gap {
                kind: GapKind::ListedThread,
                url: thread.url.to_string(),
                list: Some(thread.board.to_string()),
                missing: state.missing_of(self.record),
                posts_missing: thread.replies.map_or(0, posts_of),
            });
        }

        counted
    }

    /// Threads whose counts say pages are missing (gaps), or posts unread on pages all there.
    fn thread_count_gaps(
        &mut self,
        counted: &HashMap<usize, Counted<'a>>,
        threads: &[ThreadPosts<'a>],
    ) -> Vec<UnreadPosts> {
        let mut unread = Vec::new();
        let per_page = self.totals.posts_per_page.max(1);
        if !counts_say_posts(threads, counted, per_page) {
            return unread;
        }
        let mut counted_lists: Vec<(&usize, &Counted<'_>)> = counted.iter().collect();
        counted_lists.sort_by_key(|(list, _)| **list);
        for (&list, count) in counted_lists {
            let thread = &threads[list];
            let first = self.record.pages[self.lists.lists[list][0]].url.clone();
            let per_page = self.totals.posts_per_page.max(1);
            if let Some(replies) = count.replies {
                let posts = replies + u64::from(self.totals.counts_are_replies);
                self.totals.posts_counted += posts;
                self.totals.posts_stored_of_counted += thread.posts.min(posts);
                if thread.posts >= posts {
                    continue;
                }
                let pages_needed = posts.div_ceil(per_page as u64) as usize;
                if thread.pages_with_posts < pages_needed {
                    self.gaps.push(Gap {
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
                self.gaps.push(Gap {
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
        unread
    }
}

#[cfg(test)]
mod tests;
