//! What a watch has done to a store, read back for people: the freshness views of the web
//! console (`trawl serve`) and anyone else who wants to see how fresh an archive is kept.
//!
//! The watch's own state ([`crate::state`]) is for its restart and stays private; this is the
//! narrow public reading of it and of the pages the watch stored, as a typed [`WatchSnapshot`]:
//! per board, how often its pages were polled, the delays of the posts the watch stored in its
//! threads and the fetches spent on it; for the forum, the fetches spent discovering pages
//! against refreshing known ones, day by day, and the fetches planned next.
//!
//! Everything is derived from the stored pages, in fetch order, and the state's text, so a
//! reader needs nothing the store does not keep and the figures are the same whoever reads
//! them. The pages are those after the point where the first watch began (the state says how
//! many pages the crawl left); what counts as what:
//!
//! - A *poll* is a watch fetch of a page of a board's thread list.
//! - A *discovery* fetch is a read of the portal (looking for new boards) or the first fetch of
//!   a URL the store never held (a new thread, a thread's new last page, a new board); a
//!   *refresh* is a fetch of a URL fetched before.
//! - A post is *new* when its thread's page shows it written after every post the store held
//!   of that thread until then (the rule the watch's own status line counts by); its *delay* is
//!   from its writing to the fetch that stored it, times read on the forum's clock.
//!
//! A thread belongs to the board whose stored list pages name it; threads reached otherwise
//! (from the portal's latest posts) are counted apart, as are fetches of pages of no list.

use std::collections::{HashMap, HashSet};

use jiff::Timestamp;
use trawl_learn::plan::Plan;
use trawl_learn::sitemap::Role;
use trawl_schedule::{ListId, ListKind};
use trawl_store::{PageRecord, Store, StoreError};
use url::Url;

use crate::list_urls::{ListOutline, ListUrls};
use crate::pages::instant_of;
use crate::state::{DOCUMENT_NAME, WatchState};

const DAY: i64 = 86_400;

/// Fetches spent, by what they were for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FetchesSpent {
    /// Portal reads and first fetches of URLs the store never held.
    pub discovery: usize,
    /// Fetches of URLs fetched before.
    pub refresh: usize,
    /// Of both, fetches that got no answer or an error status.
    pub failed: usize,
}

impl FetchesSpent {
    /// Every fetch counted.
    pub fn total(&self) -> usize {
        self.discovery + self.refresh
    }

    fn count(&mut self, discovery: bool, failed: bool) {
        if discovery {
            self.discovery += 1;
        } else {
            self.refresh += 1;
        }
        self.failed += usize::from(failed);
    }
}

/// The delays of the new posts the watch stored, in seconds, sorted from the shortest.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Delays {
    sorted: Vec<i64>,
}

impl Delays {
    /// The delays given, in seconds, in any order.
    pub fn from_seconds(mut delays: Vec<i64>) -> Delays {
        delays.sort_unstable();
        Delays { sorted: delays }
    }

    /// Every delay, shortest first.
    pub fn seconds(&self) -> &[i64] {
        &self.sorted
    }

    /// How many new posts they are.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Whether the watch stored no new post.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// The mean delay, seconds.
    pub fn mean(&self) -> Option<f64> {
        (!self.sorted.is_empty())
            .then(|| self.sorted.iter().sum::<i64>() as f64 / self.sorted.len() as f64)
    }

    /// The delay that a share `quantile` (0 to 1) of the posts waited at most: the nearest
    /// rank, so the answer is always one of the delays measured.
    pub fn quantile(&self, quantile: f64) -> Option<i64> {
        if self.sorted.is_empty() {
            return None;
        }
        let rank = (quantile.clamp(0.0, 1.0) * self.sorted.len() as f64).ceil() as usize;
        Some(self.sorted[rank.clamp(1, self.sorted.len()) - 1])
    }
}

/// One board as the watch kept it.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardFreshness {
    /// The board's list (a stable hash of its first page's URL, as the watch names lists).
    pub list: u64,
    /// Its first page's URL.
    pub url: String,
    /// Its title, as its first page's `<title>` shows it.
    pub title: Option<String>,
    /// Pages of its list known (fetched or named by a pager).
    pub pages: usize,
    /// Threads its pages name.
    pub threads: usize,
    /// When the watch fetched one of its list's pages, in order.
    pub polls: Vec<Timestamp>,
    /// Fetches of its list's pages and its threads' pages.
    pub spent: FetchesSpent,
    /// The new posts stored in its threads.
    pub delays: Delays,
}

/// One day of the watch, from its first fetch (day 0 is its first 24 hours).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DayFreshness {
    /// The day's number from the watch's first fetch.
    pub day: u32,
    /// Fetches that day.
    pub spent: FetchesSpent,
    /// New posts stored that day, and the sum of their delays (seconds).
    pub new_posts: usize,
    pub delay_seconds: i64,
}

impl DayFreshness {
    /// The mean delay of the day's new posts, seconds.
    pub fn mean_delay(&self) -> Option<f64> {
        (self.new_posts > 0).then(|| self.delay_seconds as f64 / self.new_posts as f64)
    }
}

/// A fetch the watch has planned and not yet made.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedFetch {
    /// When it is due.
    pub at: Timestamp,
    /// The page's URL, when the stored pages name it (a page a new pager named is known to the
    /// watch before any stored page links it only in the rare case of a state from an older
    /// store; such a fetch has no URL here).
    pub url: Option<String>,
    /// Page number in its list.
    pub page: u32,
    /// Whether the page is a board's list page (else a thread's).
    pub board_page: bool,
    /// The board it belongs to (its list), when known.
    pub board: Option<u64>,
}

/// Everything the freshness views show, read from a store a watch wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct WatchSnapshot {
    /// Pages the crawl left before the first watch began, when the state says (a state
    /// written by a watch older than this reading does not; then no page is taken for the
    /// watch's and the figures below are empty).
    pub crawl_pages: Option<usize>,
    /// Pages the store holds.
    pub pages: usize,
    /// The watch's first and last fetch.
    pub first_fetch: Option<Timestamp>,
    pub last_fetch: Option<Timestamp>,
    /// Every watch fetch by what it was for.
    pub spent: FetchesSpent,
    /// Of them, reads of the portal (looking for new boards).
    pub portal_reads: usize,
    /// The new posts stored, whatever their thread.
    pub delays: Delays,
    /// Boards in the order the lists became known.
    pub boards: Vec<BoardFreshness>,
    /// Fetches and new posts of threads no stored board names, and of pages of no list.
    pub unattributed: FetchesSpent,
    pub unattributed_delays: Delays,
    /// Day by day from the first fetch.
    pub days: Vec<DayFreshness>,
    /// Fetches planned and not yet made, in the order the watch will make them.
    pub next_fetches: Vec<PlannedFetch>,
    /// When the portal is next read for new boards, and pages its last read found and the
    /// watch has still to fetch.
    pub next_portal_read: Option<Timestamp>,
    pub discoveries_waiting: Vec<String>,
    /// Whether the state was written with the store's last page: `false` when pages were
    /// stored since by something else (a crawl resumed into the store), so the planned fetches
    /// are those of the watch that last ran, not necessarily of the next.
    pub state_is_current: bool,
}

impl WatchSnapshot {
    /// The board whose list is `list`.
    pub fn board(&self, list: u64) -> Option<&BoardFreshness> {
        self.boards.iter().find(|board| board.list == list)
    }
}

/// Why a store's watch could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("cannot read the crawl database")]
    Store(#[from] StoreError),
    #[error("the plan stored with the crawl cannot be read")]
    Plan(#[from] trawl_learn::plan::PlanError),
}

/// The snapshot of the watch that wrote `store`, `None` when no watch keeping its state did
/// (a crawl never watched, or watched by a policy that keeps no state).
pub fn read_snapshot(store: &Store) -> Result<Option<WatchSnapshot>, SnapshotError> {
    let Some(state_text) = store.document(DOCUMENT_NAME)? else {
        return Ok(None);
    };
    let Some(plan_json) = store.settings()?.and_then(|settings| settings.plan_json) else {
        return Ok(None);
    };
    let plan = Plan::from_json(&plan_json)?;
    let mut pages = Vec::new();
    store.for_each_page_outline(0, &[], |page| pages.push(page.record))?;
    Ok(snapshot_of_pages(pages.iter(), &state_text, &|url| {
        plan.canonical(url)
    }))
}

/// The snapshot from the stored pages, in fetch order (post texts and bodies may be left
/// out), the text of the watch's state document (`Store::document("watch")`) and the crawl's
/// spelling of links (`Plan::canonical` for a plan crawl), by which a board's entries are
/// matched with the threads' stored URLs. `None` when the text is no watch state.
pub fn snapshot_of_pages<'page, Pages>(
    pages: Pages,
    state_text: &str,
    spelling: &dyn Fn(&Url) -> Url,
) -> Option<WatchSnapshot>
where
    Pages: Iterator<Item = &'page PageRecord> + Clone,
{
    let state = WatchState::from_text(state_text)?;
    let outlines: Vec<ListOutline> = pages.clone().filter_map(ListOutline::of).collect();
    let urls = ListUrls::from_outlines(&outlines);
    drop(outlines);
    let mut reading = Reading::new(&urls, spelling, &state);
    for (index, record) in pages.enumerate() {
        reading.read(index, record);
    }
    Some(reading.finish(&state))
}

/// The tallies made while the pages are read.
struct Reading<'lists> {
    urls: &'lists ListUrls,
    spelling: &'lists dyn Fn(&Url) -> Url,
    crawl_pages: Option<usize>,
    forum_offset: Option<i32>,
    fetched_urls: HashSet<String>,
    /// Per thread, the newest post time the store held so far (Unix seconds).
    newest_of_thread: HashMap<ListId, i64>,
    board_of_thread: HashMap<ListId, ListId>,
    threads_of_board: HashMap<ListId, HashSet<ListId>>,
    title_of_list: HashMap<ListId, String>,
    boards: HashMap<ListId, (Vec<Timestamp>, FetchesSpent, Vec<i64>)>,
    unattributed: FetchesSpent,
    unattributed_delays: Vec<i64>,
    spent: FetchesSpent,
    portal_reads: usize,
    delays: Vec<i64>,
    days: Vec<DayFreshness>,
    first_fetch: Option<Timestamp>,
    last_fetch: Option<Timestamp>,
    pages: usize,
}

impl<'lists> Reading<'lists> {
    fn new(
        urls: &'lists ListUrls,
        spelling: &'lists dyn Fn(&Url) -> Url,
        state: &WatchState,
    ) -> Reading<'lists> {
        Reading {
            urls,
            spelling,
            crawl_pages: state.crawl_pages,
            forum_offset: state.forum_offset,
            fetched_urls: HashSet::new(),
            newest_of_thread: HashMap::new(),
            board_of_thread: HashMap::new(),
            threads_of_board: HashMap::new(),
            title_of_list: HashMap::new(),
            boards: HashMap::new(),
            unattributed: FetchesSpent::default(),
            unattributed_delays: Vec::new(),
            spent: FetchesSpent::default(),
            portal_reads: 0,
            delays: Vec::new(),
            days: Vec::new(),
            first_fetch: None,
            last_fetch: None,
            pages: 0,
        }
    }

    fn read(&mut self, index: usize, record: &PageRecord) {
        self.pages += 1;
        let by_watch = self
            .crawl_pages
            .is_some_and(|crawl_pages| index >= crawl_pages);
        let first_fetch_of_url = self.fetched_urls.insert(record.url.clone());
        let place = self.urls.page_of(&record.url);
        let kind = place.and_then(|(list, _)| self.urls.kind(list));
        if let (Some((list, 1)), Some(title)) = (place, &record.title) {
            self.title_of_list
                .entry(list)
                .or_insert_with(|| title.clone());
        }
        if let (Some((board, _)), Some(ListKind::Index)) = (place, kind) {
            self.note_threads_of(board, record);
        }
        let new_delays = match (place, kind) {
            (Some((thread, _)), Some(ListKind::Post)) => self.new_post_delays(thread, record),
            _ => Vec::new(),
        };
        if !by_watch {
            return;
        }
        let failed = record.status != 200 || record.error.is_some();
        let portal = record.role.as_deref().and_then(Role::from_name) == Some(Role::Portal);
        let discovery = portal || first_fetch_of_url;
        self.spent.count(discovery, failed);
        self.portal_reads += usize::from(portal);
        let at = record.fetched_at;
        let first = *self.first_fetch.get_or_insert(at);
        self.last_fetch = Some(at);
        let day = ((at.as_second() - first.as_second()).max(0) / DAY) as usize;
        if self.days.len() <= day {
            self.days.resize_with(day + 1, DayFreshness::default);
            for (number, entry) in self.days.iter_mut().enumerate() {
                entry.day = number as u32;
            }
        }
        let today = &mut self.days[day];
        today.spent.count(discovery, failed);
        today.new_posts += new_delays.len();
        today.delay_seconds += new_delays.iter().sum::<i64>();
        self.delays.extend(&new_delays);
        let board = match (place, kind) {
            (Some((board, _)), Some(ListKind::Index)) => Some(board),
            (Some((thread, _)), Some(ListKind::Post)) => self.board_of_thread.get(&thread).copied(),
            _ => None,
        };
        match board {
            Some(board) => {
                let (polls, spent, delays) = self.boards.entry(board).or_default();
                if kind == Some(ListKind::Index) {
                    polls.push(at);
                }
                spent.count(discovery, failed);
                delays.extend(new_delays);
            }
            None => {
                self.unattributed.count(discovery, failed);
                self.unattributed_delays.extend(new_delays);
            }
        }
    }

    /// Notes the threads a board's page names as the board's (the first board to name a
    /// thread keeps it: a thread moved later is still counted where it was found).
    fn note_threads_of(&mut self, board: ListId, record: &PageRecord) {
        for entry in &record.thread_entries {
            let Ok(mut url) = Url::parse(&entry.url) else {
                continue;
            };
            url.set_fragment(None);
            let canonical = (self.spelling)(&url);
            let thread = [canonical.as_str(), url.as_str()]
                .into_iter()
                .find_map(|spelling| self.urls.page_of(spelling))
                .filter(|&(list, _)| self.urls.kind(list) == Some(ListKind::Post))
                .map(|(list, _)| list);
            if let Some(thread) = thread {
                self.board_of_thread.entry(thread).or_insert(board);
                self.threads_of_board
                    .entry(board)
                    .or_default()
                    .insert(thread);
            }
        }
    }

    /// The delays of the posts of a thread's page written after every post held before (all of
    /// them for a thread the store held no post of), and the thread's newest post moved on.
    /// Only a page that answered shows posts.
    fn new_post_delays(&mut self, thread: ListId, record: &PageRecord) -> Vec<i64> {
        if record.status != 200 || record.error.is_some() {
            return Vec::new();
        }
        let newest_before = self.newest_of_thread.get(&thread).copied();
        let fetched = record.fetched_at.as_second();
        let mut delays = Vec::new();
        let mut newest = newest_before;
        for post in &record.posts {
            let Some(written) = post
                .time
                .as_deref()
                .and_then(|time| instant_of(time, self.forum_offset))
            else {
                continue;
            };
            let written = written.as_second();
            if newest_before.is_none_or(|before| written > before) {
                delays.push((fetched - written).max(0));
            }
            newest = Some(newest.map_or(written, |known| known.max(written)));
        }
        if let Some(newest) = newest {
            self.newest_of_thread.insert(thread, newest);
        }
        delays
    }

    fn finish(mut self, state: &WatchState) -> WatchSnapshot {
        let boards = self
            .urls
            .index_lists()
            .map(|list| {
                let (polls, spent, delays) = self.boards.remove(&list).unwrap_or_default();
                BoardFreshness {
                    list: list.0,
                    url: self.urls.url_of(list, 1).unwrap_or_default().to_string(),
                    title: self.title_of_list.get(&list).cloned(),
                    pages: self.urls.page_count(list),
                    threads: self.threads_of_board.get(&list).map_or(0, HashSet::len),
                    polls,
                    spent,
                    delays: Delays::from_seconds(delays),
                }
            })
            .collect();
        let next_fetches = state
            .queue
            .iter()
            .map(|request| {
                let kind = self.urls.kind(request.list);
                let board = match kind {
                    Some(ListKind::Index) => Some(request.list),
                    _ => self.board_of_thread.get(&request.list).copied(),
                };
                PlannedFetch {
                    at: request.at,
                    url: self
                        .urls
                        .url_of(request.list, request.page)
                        .map(str::to_string),
                    page: request.page,
                    board_page: kind == Some(ListKind::Index),
                    board: board.map(|board| board.0),
                }
            })
            .collect();
        WatchSnapshot {
            crawl_pages: self.crawl_pages,
            pages: self.pages,
            first_fetch: self.first_fetch,
            last_fetch: self.last_fetch,
            spent: self.spent,
            portal_reads: self.portal_reads,
            delays: Delays::from_seconds(self.delays),
            boards,
            unattributed: self.unattributed,
            unattributed_delays: Delays::from_seconds(self.unattributed_delays),
            days: self.days,
            next_fetches,
            next_portal_read: (state.next_portal_read > 0)
                .then(|| Timestamp::from_second(state.next_portal_read).ok())
                .flatten(),
            discoveries_waiting: state.discoveries.clone(),
            state_is_current: state.pages == self.pages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use trawl_schedule::PageRequest;
    use trawl_store::{PostRecord, ThreadEntryRecord};

    const BOARD: &str = "http://f.test/board?b=1";

    fn at(time: &str) -> Timestamp {
        time.parse().expect("a test instant")
    }

    fn page(url: &str, role: Role, fetched: &str) -> PageRecord {
        PageRecord {
            url: url.to_string(),
            status: 200,
            fetched_at: at(fetched),
            role: Some(role.name().to_string()),
            ..PageRecord::default()
        }
    }

    fn board(fetched: &str, threads: &[&str]) -> PageRecord {
        PageRecord {
            title: Some("Board one".to_string()),
            thread_entries: threads
                .iter()
                .map(|thread| ThreadEntryRecord {
                    title: thread.to_string(),
                    url: format!("http://f.test/t?t={thread}#unread"),
                    ..ThreadEntryRecord::default()
                })
                .collect(),
            ..page(BOARD, Role::ThreadList, fetched)
        }
    }

    fn thread(number: &str, fetched: &str, written: &[&str]) -> PageRecord {
        PageRecord {
            posts: written
                .iter()
                .map(|time| PostRecord {
                    time: Some(time.to_string()),
                    ..PostRecord::default()
                })
                .collect(),
            ..page(
                &format!("http://f.test/t?t={number}"),
                Role::Thread,
                fetched,
            )
        }
    }

    fn state(crawl_pages: Option<usize>, pages: usize, forum_offset: Option<i32>) -> WatchState {
        WatchState {
            pages,
            window_start: 0,
            window_index: 0,
            queue: Vec::new(),
            next_portal_read: 0,
            spent_outside_plan: 0,
            discoveries: Vec::new(),
            crawl_pages,
            forum_offset,
            policy: String::new(),
        }
    }

    /// The crawl: the portal, one board naming two threads, the two threads.
    fn crawl() -> Vec<PageRecord> {
        vec![
            page("http://f.test/", Role::Portal, "2024-01-01T00:00:00Z"),
            board("2024-01-01T00:00:01Z", &["1", "2"]),
            thread(
                "1",
                "2024-01-01T00:00:02Z",
                &["2023-12-31T20:00", "2023-12-31T22:00"],
            ),
            thread("2", "2024-01-01T00:00:03Z", &["2023-12-31T21:00"]),
        ]
    }

    /// The crawl, then a watch over two days: the board polled (a new thread listed), an old
    /// thread's new reply, the new thread, the portal read a day later, a failed poll.
    fn watched() -> Vec<PageRecord> {
        let mut pages = crawl();
        pages.extend([
            board("2024-01-01T01:00:00Z", &["1", "2", "3"]),
            thread(
                "1",
                "2024-01-01T01:00:10Z",
                &["2023-12-31T20:00", "2023-12-31T22:00", "2024-01-01T00:30"],
            ),
            thread("3", "2024-01-01T01:10:00Z", &["2024-01-01T00:50"]),
            page("http://f.test/", Role::Portal, "2024-01-02T03:00:00Z"),
            PageRecord {
                status: 500,
                ..board("2024-01-02T04:00:00Z", &[])
            },
        ]);
        pages
    }

    fn snapshot(pages: &[PageRecord], state: &WatchState) -> WatchSnapshot {
        snapshot_of_pages(pages.iter(), &state.to_text(), &|url| url.clone())
            .expect("the state reads")
    }

    /// (discovery, refresh, failed) of the whole watch, the board, and what no board holds.
    type Spent = [(usize, usize, usize); 3];

    fn spent_of(snapshot: &WatchSnapshot) -> Spent {
        let triple = |spent: &FetchesSpent| (spent.discovery, spent.refresh, spent.failed);
        [
            triple(&snapshot.spent),
            snapshot
                .boards
                .first()
                .map_or((0, 0, 0), |board| triple(&board.spent)),
            triple(&snapshot.unattributed),
        ]
    }

    fn check_spent(pages: &[PageRecord], state: &WatchState, expected: Spent) {
        assert_eq!(spent_of(&snapshot(pages, state)), expected, "{state:?}");
    }

    #[test]
    fn fetches_are_discovery_or_refresh_and_belong_to_their_board() {
        check_spent(
            &watched(),
            &state(Some(4), 9, None),
            [(2, 3, 1), (1, 3, 1), (1, 0, 0)],
        );
    }

    #[test]
    fn pages_the_crawl_stored_are_not_the_watchs() {
        check_spent(&crawl(), &state(Some(4), 4, None), [(0, 0, 0); 3]);
        // A state that does not say where the crawl ended takes no page for the watch's.
        check_spent(&watched(), &state(None, 9, None), [(0, 0, 0); 3]);
    }

    #[test]
    fn a_thread_no_board_names_is_counted_apart() {
        let mut pages = crawl();
        pages.push(thread("9", "2024-01-01T02:00:00Z", &["2024-01-01T01:00"]));
        let snapshot = snapshot(&pages, &state(Some(4), 5, None));
        assert_eq!(spent_of(&snapshot), [(1, 0, 0), (0, 0, 0), (1, 0, 0)]);
        assert_eq!(snapshot.unattributed_delays.seconds(), &[3600]);
    }

    fn check_delays(forum_offset: Option<i32>, expected: &[i64]) {
        let snapshot = snapshot(&watched(), &state(Some(4), 9, forum_offset));
        assert_eq!(snapshot.delays.seconds(), expected, "{forum_offset:?}");
        assert_eq!(snapshot.boards[0].delays.seconds(), expected);
    }

    #[test]
    fn new_posts_wait_from_their_writing_on_the_forums_clock() {
        // The reply written 00:30 stored 01:00:10, the new thread's post 00:50 stored 01:10.
        check_delays(None, &[1200, 1810]);
        // A forum an hour east of UTC shows 00:30 for 23:30 UTC.
        check_delays(Some(3600), &[4800, 5410]);
        // A forum whose clock runs ahead of the fetch gives no negative delay.
        check_delays(Some(-7200), &[0, 0]);
    }

    #[test]
    fn polls_threads_and_pages_of_a_board() {
        let snapshot = snapshot(&watched(), &state(Some(4), 9, None));
        let board = &snapshot.boards[0];
        assert_eq!(board.url, BOARD);
        assert_eq!(board.title.as_deref(), Some("Board one"));
        assert_eq!(
            board.polls,
            vec![at("2024-01-01T01:00:00Z"), at("2024-01-02T04:00:00Z")]
        );
        assert_eq!((board.pages, board.threads), (1, 3));
        assert_eq!(snapshot.portal_reads, 1);
        assert_eq!(snapshot.first_fetch, Some(at("2024-01-01T01:00:00Z")));
        assert_eq!(snapshot.last_fetch, Some(at("2024-01-02T04:00:00Z")));
        assert!(snapshot.state_is_current);
        assert!(
            !snapshot_of_pages(
                watched().iter(),
                &state(Some(4), 8, None).to_text(),
                &|url| url.clone()
            )
            .expect("the state reads")
            .state_is_current
        );
    }

    #[test]
    fn days_count_from_the_first_fetch() {
        let snapshot = snapshot(&watched(), &state(Some(4), 9, None));
        let days: Vec<(u32, usize, usize, usize, i64)> = snapshot
            .days
            .iter()
            .map(|day| {
                (
                    day.day,
                    day.spent.discovery,
                    day.spent.refresh,
                    day.new_posts,
                    day.delay_seconds,
                )
            })
            .collect();
        assert_eq!(days, vec![(0, 1, 2, 2, 3010), (1, 1, 1, 0, 0)]);
        assert_eq!(snapshot.days[0].mean_delay(), Some(1505.0));
        assert_eq!(snapshot.days[1].mean_delay(), None);
    }

    #[test]
    fn planned_fetches_are_named_by_url_and_board() {
        let mut planned = state(Some(4), 9, None);
        let list_of = |url: &str| crate::list_urls::list_id_of(url);
        planned.queue = vec![
            PageRequest {
                at: at("2024-01-02T05:00:00Z"),
                list: list_of(BOARD),
                page: 1,
            },
            PageRequest {
                at: at("2024-01-02T05:10:00Z"),
                list: list_of("http://f.test/t?t=3"),
                page: 1,
            },
            PageRequest {
                at: at("2024-01-02T05:20:00Z"),
                list: ListId(7),
                page: 2,
            },
        ];
        planned.next_portal_read = at("2024-01-03T03:00:00Z").as_second();
        planned.discoveries = vec!["http://f.test/board?b=2".to_string()];
        let snapshot = snapshot(&watched(), &planned);
        let next: Vec<(Option<&str>, bool, bool)> = snapshot
            .next_fetches
            .iter()
            .map(|fetch| {
                (
                    fetch.url.as_deref(),
                    fetch.board_page,
                    fetch.board == Some(list_of(BOARD).0),
                )
            })
            .collect();
        assert_eq!(
            next,
            vec![
                (Some(BOARD), true, true),
                (Some("http://f.test/t?t=3"), false, true),
                (None, false, false),
            ]
        );
        assert_eq!(snapshot.next_portal_read, Some(at("2024-01-03T03:00:00Z")));
        assert_eq!(
            snapshot.discoveries_waiting,
            vec!["http://f.test/board?b=2"]
        );
    }

    #[test]
    fn text_that_is_no_state_gives_no_snapshot() {
        assert!(snapshot_of_pages(watched().iter(), "not a state", &|url| url.clone()).is_none());
    }

    fn check_quantile(delays: &[i64], quantile: f64, expected: Option<i64>) {
        let delays = Delays::from_seconds(delays.to_vec());
        assert_eq!(
            delays.quantile(quantile),
            expected,
            "{delays:?} at {quantile}"
        );
    }

    #[test]
    fn quantiles_are_nearest_ranks() {
        check_quantile(&[], 0.5, None);
        check_quantile(&[30], 0.0, Some(30));
        check_quantile(&[30], 1.0, Some(30));
        check_quantile(&[40, 10, 30, 20], 0.5, Some(20));
        check_quantile(&[40, 10, 30, 20], 0.51, Some(30));
        check_quantile(&[40, 10, 30, 20], 0.95, Some(40));
        check_quantile(&[40, 10, 30, 20], 2.0, Some(40));
    }

    #[test]
    fn the_mean_delay() {
        assert_eq!(Delays::from_seconds(vec![]).mean(), None);
        assert_eq!(Delays::from_seconds(vec![10, 20, 60]).mean(), Some(30.0));
    }
}
