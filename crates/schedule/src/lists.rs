//! What a crawl has observed of a forum's lists.
//!
//! A *list* is the unit every policy here schedules: an index list (all pages of one board's
//! thread list, newest activity first) or a post list (all pages of one thread, oldest post
//! first). The driver registers the boards it knows; threads register themselves when a board
//! page lists them. Each fetched page is handed to [`Lists::record`], which stores what the page
//! showed and answers with a [`ListChange`]: what was new compared with what the crawl knew.
//!
//! Times inside are Unix seconds (`i64`): the statistics are arithmetic on them, and the public
//! seams take and give [`Timestamp`]s.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};

use jiff::Timestamp;

use crate::ScheduleError;

/// The identity of a list, chosen by the driver (a store row id, a simulator id, a URL hash).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ListId(pub u64);

/// The site a list belongs to: the list-wise strategy fits its regressions per site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SiteId(pub u32);

/// The two kinds of list a forum has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// A board's thread list: page 1 shows the threads with the newest activity.
    Index,
    /// A thread's posts: page 1 holds the oldest posts, the last page the newest.
    Post,
}

/// One thread as a board page lists it. Every field but the thread is what the entry happens to
/// show; boards that show neither a last-post time nor a reply count cannot tell a crawler which
/// threads grew.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadEntry {
    /// The thread's post list (the driver maps the entry's link to an id).
    pub thread: ListId,
    /// When the thread was started, if the entry shows it.
    pub started_at: Option<Timestamp>,
    /// The time of the thread's newest post, if the entry shows it.
    pub last_post_at: Option<Timestamp>,
    /// The reply count, if the entry shows it.
    pub replies: Option<u32>,
    /// How many pages the thread has, if the entry shows page links.
    pub pages: Option<u32>,
    /// A sticky thread, pinned on top whatever its activity.
    pub pinned: bool,
}

/// What a fetched page held, as page analysis read it.
#[derive(Clone, Debug, PartialEq)]
pub enum PageContent {
    /// A post list page: the creation times of its posts in page order.
    Posts(Vec<Timestamp>),
    /// An index list page: its thread entries in page order.
    Entries(Vec<ThreadEntry>),
    /// No usable answer (an error, a login wall): the visit counts, nothing is learned.
    Failed,
}

/// One fetched page of one list, as the driver hands it to the scheduler.
#[derive(Clone, Debug, PartialEq)]
pub struct FetchedPage {
    pub list: ListId,
    /// 1-based page number within the list.
    pub page: u32,
    pub fetched_at: Timestamp,
    /// The number of pages the page's pager shows, if it has one.
    pub page_count: Option<u32>,
    pub content: PageContent,
}

/// What one page of a list looked like the last time it was fetched.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PageSeen {
    /// When it was last fetched; `None` for a page known only from a pager.
    pub fetched_at: Option<i64>,
    /// How many records it showed.
    pub records: u32,
    /// The newest record time it showed (the newest post, the most recent entry activity).
    pub newest: Option<i64>,
    /// A hash of what it showed, to tell a changed page from an unchanged one the way a generic
    /// crawler's content signature does.
    pub signature: u64,
}

/// Everything the crawl knows about one list.
#[derive(Clone, Debug)]
pub struct ListState {
    pub id: ListId,
    pub kind: ListKind,
    pub site: SiteId,
    /// For a thread: the board whose list showed it first.
    pub board: Option<ListId>,
    /// The number of pages known to exist (at least one).
    pub page_count: u32,
    /// The most records seen on one page (0 while unknown).
    pub records_per_page: u32,
    /// Per page, what its last fetch showed (index = page − 1).
    pub pages: Vec<PageSeen>,
    /// Record times, ascending: post times for a post list; for an index list, the times of the
    /// activity that reordered it (a new thread, a thread bumped by a reply), one per thread and
    /// visit, which is what decides how far down the list the news reaches.
    pub record_times: Vec<i64>,
    /// Σ of the squared intervals between consecutive record times, kept as records come so the
    /// statistics need no pass over a long list's history.
    pub interval_squares: f64,
    /// The last fetch of any page of the list.
    pub last_visit: Option<i64>,
    /// Fetches of the list's pages, and how many of them found something new.
    pub visits: u32,
    pub visits_with_news: u32,
    /// For a thread: the newest activity and reply count its board's entry showed.
    pub listed_last_post_at: Option<i64>,
    pub listed_replies: Option<u32>,
    /// For a thread: since when its board has shown activity the crawl has not stored yet.
    pub unseen_activity_since: Option<i64>,
    /// For a board: whether its entries show a change signal (last-post time or reply count).
    pub entries_show_activity: bool,
    /// For a board: the instant as of which every thread with activity up to it has been listed
    /// to the crawl, the start of the last walk down its pages that reached an entry older than
    /// the walk before it (or the list's end).
    pub listed_through: Option<i64>,
    /// For a board: the walk down its pages under way, if any.
    walk: Option<BoardWalk>,
}

/// A walk down a board's pages: when its first page was read, the deepest page read in order
/// since, and when that page was read.
#[derive(Clone, Copy, Debug, PartialEq)]
struct BoardWalk {
    started: i64,
    depth: u32,
    last_step: i64,
}

impl ListState {
    fn new(id: ListId, kind: ListKind, site: SiteId, board: Option<ListId>) -> Self {
        ListState {
            id,
            kind,
            site,
            board,
            page_count: 1,
            records_per_page: 0,
            pages: vec![PageSeen::default()],
            record_times: Vec::new(),
            interval_squares: 0.0,
            last_visit: None,
            visits: 0,
            visits_with_news: 0,
            listed_last_post_at: None,
            listed_replies: None,
            unseen_activity_since: None,
            entries_show_activity: false,
            listed_through: None,
            walk: None,
        }
    }

    /// The page a revisit starts from: the first page of an index list (newest activity), the
    /// last page of a post list (newest posts).
    pub fn front_page(&self) -> u32 {
        match self.kind {
            ListKind::Index => 1,
            ListKind::Post => self.page_count,
        }
    }

    /// The newest record time the crawl has stored for this list.
    pub fn newest_record(&self) -> Option<i64> {
        self.record_times.last().copied()
    }

    /// Whether the page was ever fetched.
    pub fn page_fetched(&self, page: u32) -> bool {
        self.page_seen(page)
            .is_some_and(|seen| seen.fetched_at.is_some())
    }

    pub fn page_seen(&self, page: u32) -> Option<&PageSeen> {
        page.checked_sub(1)
            .and_then(|index| self.pages.get(index as usize))
    }

    /// Records per page, or `fallback` while no page has shown it.
    pub fn records_per_page_or(&self, fallback: u32) -> u32 {
        if self.records_per_page == 0 {
            fallback
        } else {
            self.records_per_page
        }
    }

    /// Inserts a record time in order, keeping the sum of squared intervals.
    fn insert_record_time(&mut self, time: i64) {
        let position = self.record_times.partition_point(|&other| other <= time);
        let before = position
            .checked_sub(1)
            .map(|index| self.record_times[index]);
        let after = self.record_times.get(position).copied();
        let square = |gap: i64| (gap as f64) * (gap as f64);
        if let (Some(before), Some(after)) = (before, after) {
            self.interval_squares -= square(after - before);
        }
        if let Some(before) = before {
            self.interval_squares += square(time - before);
        }
        if let Some(after) = after {
            self.interval_squares += square(after - time);
        }
        self.record_times.insert(position, time);
    }

    fn grow_to(&mut self, pages: u32) -> bool {
        if pages > self.page_count {
            self.page_count = pages;
            self.pages.resize(pages as usize, PageSeen::default());
            true
        } else {
            false
        }
    }
}

/// Whether a board event was a thread start or a reply (BRA weighs them apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActivityKind {
    NewThread,
    Reply,
}

/// A board's stored posts by creation time, kept for [`ACTIVITY_KEPT_SECONDS`] behind the newest:
/// the histogram of the board-based method and our rate estimates read it.
#[derive(Clone, Debug, Default)]
pub struct BoardActivity {
    events: VecDeque<(i64, ActivityKind)>,
}

/// How long board events are kept: longer than the 20-day window the board paper found enough,
/// so a policy may choose its own window up to this.
pub const ACTIVITY_KEPT_SECONDS: i64 = 40 * 86_400;

impl BoardActivity {
    fn add(&mut self, time: i64, kind: ActivityKind) {
        // Posts usually arrive in time order; an older one found late is inserted in place.
        let position = self.events.partition_point(|&(other, _)| other <= time);
        self.events.insert(position, (time, kind));
        let newest = self.events.back().map_or(time, |&(newest, _)| newest);
        while self
            .events
            .front()
            .is_some_and(|&(oldest, _)| oldest < newest - ACTIVITY_KEPT_SECONDS)
        {
            self.events.pop_front();
        }
    }

    /// Events with `from <= time < to`, oldest first.
    pub fn between(&self, from: i64, to: i64) -> impl Iterator<Item = (i64, ActivityKind)> + '_ {
        let start = self.events.partition_point(|&(time, _)| time < from);
        self.events
            .range(start..)
            .take_while(move |&&(time, _)| time < to)
            .copied()
    }
}

/// What one recorded page changed in the crawl's knowledge.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListChange {
    /// New records: posts stored for a post list, new or bumped threads for an index list.
    pub new_records: u32,
    /// Their times (posts' creation times, entries' activity times).
    pub new_record_times: Vec<i64>,
    /// Threads this index page listed for the first time.
    pub new_threads: Vec<ListId>,
    /// Known threads whose entry shows activity the crawl has not stored.
    pub changed_threads: Vec<ListId>,
    /// Whether the page differs from its previous fetch (a generic crawler's signature test); a
    /// first fetch counts as changed.
    pub page_modified: bool,
    /// Index pages: every unpinned entry was new or bumped, so the list moved further down than
    /// this page and the next page may hold activity the crawl has not seen.
    pub moved_past_page: bool,
    /// The list turned out to have more pages than known.
    pub pages_grew: bool,
}

/// The observed state of every list of a crawl.
#[derive(Clone, Debug, Default)]
pub struct Lists {
    states: Vec<ListState>,
    position: HashMap<ListId, usize>,
    activity: HashMap<ListId, BoardActivity>,
    /// Pages known to exist and never fetched, in the order they became known.
    backlog: VecDeque<(ListId, u32)>,
    /// Positions (in `states`) of the index lists, and of the post lists by the board that
    /// listed them first (`None` for threads found outside any board), so a policy that polls
    /// boards need not walk every thread of the crawl to find them.
    index_positions: Vec<usize>,
    threads_by_board: HashMap<Option<ListId>, Vec<usize>>,
    /// Per site, the most posts one thread page has shown: the site's page size, as far as the
    /// crawl has seen (a thread's own count is short of it until one of its pages is full).
    posts_per_page: HashMap<SiteId, u32>,
}

impl Lists {
    pub fn new() -> Self {
        Lists::default()
    }

    /// Registers a board's thread list (once; registering again changes nothing).
    pub fn add_index_list(&mut self, id: ListId, site: SiteId) {
        self.add(id, ListKind::Index, site, None);
    }

    /// Registers a thread found outside a board list (a portal's latest-threads box).
    pub fn add_post_list(&mut self, id: ListId, site: SiteId, board: Option<ListId>) {
        self.add(id, ListKind::Post, site, board);
    }

    fn add(&mut self, id: ListId, kind: ListKind, site: SiteId, board: Option<ListId>) -> bool {
        if self.position.contains_key(&id) {
            return false;
        }
        let position = self.states.len();
        self.position.insert(id, position);
        match kind {
            ListKind::Index => self.index_positions.push(position),
            ListKind::Post => self
                .threads_by_board
                .entry(board)
                .or_default()
                .push(position),
        }
        self.states.push(ListState::new(id, kind, site, board));
        self.backlog.push_back((id, 1));
        if kind == ListKind::Index {
            self.activity.insert(id, BoardActivity::default());
        }
        true
    }

    pub fn get(&self, id: ListId) -> Option<&ListState> {
        self.position.get(&id).map(|&index| &self.states[index])
    }

    fn get_mut(&mut self, id: ListId) -> Option<&mut ListState> {
        self.position.get(&id).map(|&index| &mut self.states[index])
    }

    /// Every list, in the order it became known (stable, so plans are deterministic).
    pub fn iter(&self) -> impl Iterator<Item = &ListState> {
        self.states.iter()
    }

    /// Every index list, in the order it became known.
    pub fn index_lists(&self) -> impl Iterator<Item = &ListState> {
        self.index_positions
            .iter()
            .map(|&position| &self.states[position])
    }

    /// The post lists first listed by `board` (`None`: found outside any board), in the order
    /// they became known.
    pub fn threads_of(&self, board: Option<ListId>) -> impl Iterator<Item = &ListState> {
        self.threads_by_board
            .get(&board)
            .into_iter()
            .flatten()
            .map(|&position| &self.states[position])
    }

    /// The boards post lists were registered under that are not registered index lists
    /// themselves (`None` among them for threads found outside any board), in id order.
    pub fn boards_not_registered(&self) -> Vec<Option<ListId>> {
        let mut boards: Vec<Option<ListId>> = self
            .threads_by_board
            .keys()
            .copied()
            .filter(|board| board.is_none_or(|board| self.get(board).is_none()))
            .collect();
        boards.sort_unstable();
        boards
    }

    /// The position of a list in [`Lists::iter`].
    pub fn position_of(&self, id: ListId) -> Option<usize> {
        self.position.get(&id).copied()
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The most posts a thread page of `site` has shown (0 before any).
    pub fn posts_per_page(&self, site: SiteId) -> u32 {
        self.posts_per_page.get(&site).copied().unwrap_or(0)
    }

    /// The stored activity of a board (`None` for a post list or an unknown id).
    pub fn activity(&self, board: ListId) -> Option<&BoardActivity> {
        self.activity.get(&board)
    }

    /// Pages known to exist and never fetched, oldest knowledge first: the warm-up stage's work
    /// and every newly discovered page afterwards.
    pub fn backlog(&self) -> impl Iterator<Item = (ListId, u32)> + '_ {
        self.backlog.iter().copied().filter(|&(list, page)| {
            self.get(list)
                .is_some_and(|state| !state.page_fetched(page))
        })
    }

    /// Stores what a fetched page showed and says what was new.
    pub fn record(&mut self, fetched: &FetchedPage) -> Result<ListChange, ScheduleError> {
        let at = fetched.fetched_at.as_second();
        let state = self
            .get_mut(fetched.list)
            .ok_or(ScheduleError::UnknownList(fetched.list))?;
        if fetched.page == 0 {
            return Err(ScheduleError::PageZero(fetched.list));
        }
        let kind = state.kind;
        let mut change = ListChange::default();
        let old_pages = state.page_count;
        let grew_by_pager = state.grow_to(fetched.page_count.unwrap_or(0).max(fetched.page));
        match (&fetched.content, kind) {
            (PageContent::Failed, _) => {}
            (PageContent::Posts(posts), ListKind::Post) => {
                self.record_posts(fetched.list, fetched.page, at, posts, &mut change);
            }
            (PageContent::Entries(entries), ListKind::Index) => {
                self.record_entries(fetched.list, fetched.page, at, entries, &mut change);
            }
            _ => return Err(ScheduleError::ContentKind(fetched.list)),
        }
        let state = self
            .get_mut(fetched.list)
            .expect("the list was found above");
        state.last_visit = Some(state.last_visit.map_or(at, |last| last.max(at)));
        state.visits += 1;
        if change.new_records > 0 {
            state.visits_with_news += 1;
        }
        change.pages_grew = grew_by_pager;
        if grew_by_pager {
            let list = state.id;
            let unfetched: Vec<u32> = (old_pages + 1..=state.page_count)
                .filter(|&page| !state.page_fetched(page))
                .collect();
            self.backlog
                .extend(unfetched.into_iter().map(|page| (list, page)));
        }
        self.compact_backlog();
        Ok(change)
    }

    fn record_posts(
        &mut self,
        list: ListId,
        page: u32,
        at: i64,
        posts: &[Timestamp],
        change: &mut ListChange,
    ) {
        let state = self.get_mut(list).expect("checked by record");
        let index = (page - 1) as usize;
        let previous = state.pages[index];
        let times: Vec<i64> = posts.iter().map(|time| time.as_second()).collect();
        // Posts are never deleted and pages fill in order, so the records past the count this
        // page showed before are the new ones.
        let already = (previous.records as usize).min(times.len());
        let fresh = &times[already..];
        for &time in fresh {
            state.insert_record_time(time);
        }
        let signature = signature_of(&times);
        change.page_modified = previous.fetched_at.is_none() || previous.signature != signature;
        change.new_records = fresh.len() as u32;
        change.new_record_times = fresh.to_vec();
        let count = times.len() as u32;
        state.records_per_page = state.records_per_page.max(count);
        let site = state.site;
        state.pages[index] = PageSeen {
            fetched_at: Some(at),
            records: count.max(previous.records),
            newest: times.iter().copied().max().or(previous.newest),
            signature,
        };
        if state.unseen_activity_since.is_some() {
            // The board showed activity this thread's stored posts lack: it is caught up once
            // the stored posts reach the listed time, or the last page was read after the news.
            let reached_listed = match (state.newest_record(), state.listed_last_post_at) {
                (Some(newest), Some(listed)) => newest >= listed,
                _ => false,
            };
            if reached_listed || page == state.page_count {
                state.unseen_activity_since = None;
            }
        }
        let board = state.board;
        let first_position = already;
        let site_page = self.posts_per_page.entry(site).or_insert(0);
        *site_page = (*site_page).max(count);
        if let Some(activity) = board.and_then(|board| self.activity.get_mut(&board)) {
            for (offset, &time) in fresh.iter().enumerate() {
                let is_first_post = page == 1 && first_position + offset == 0;
                let kind = if is_first_post {
                    ActivityKind::NewThread
                } else {
                    ActivityKind::Reply
                };
                activity.add(time, kind);
            }
        }
    }

    fn record_entries(
        &mut self,
        board: ListId,
        page: u32,
        at: i64,
        entries: &[ThreadEntry],
        change: &mut ListChange,
    ) {
        let site = self.get(board).expect("checked by record").site;
        let mut unpinned = 0usize;
        let mut unpinned_news = 0usize;
        let mut activity_times = Vec::new();
        let mut shows_activity = false;
        for entry in entries {
            let last_post = entry.last_post_at.map(|time| time.as_second());
            let started = entry.started_at.map(|time| time.as_second());
            shows_activity |= last_post.is_some() || entry.replies.is_some();
            let activity_time = last_post.or(started).unwrap_or(at);
            let is_new = self.add(entry.thread, ListKind::Post, site, Some(board));
            let thread = self.get_mut(entry.thread).expect("just added or known");
            let news = if is_new {
                if let Some(pages) = entry.pages {
                    thread.grow_to(pages);
                }
                thread.listed_last_post_at = last_post;
                thread.listed_replies = entry.replies;
                change.new_threads.push(entry.thread);
                true
            } else {
                let known_activity = thread.listed_last_post_at.max(thread.newest_record());
                let newer_post = last_post.is_some_and(|time| Some(time) > known_activity);
                let more_replies = match (entry.replies, thread.listed_replies) {
                    (Some(now), Some(before)) => now > before,
                    _ => false,
                };
                if newer_post || more_replies {
                    thread.listed_last_post_at = last_post.or(thread.listed_last_post_at);
                    thread.listed_replies = entry.replies.or(thread.listed_replies);
                    thread.unseen_activity_since.get_or_insert(activity_time);
                    if let Some(pages) = entry.pages {
                        thread.grow_to(pages);
                    }
                    change.changed_threads.push(entry.thread);
                    true
                } else {
                    false
                }
            };
            if is_new {
                // A new thread's pages beyond the first are known from its entry.
                let count = self.get(entry.thread).map_or(1, |thread| thread.page_count);
                for extra in 2..=count {
                    self.backlog.push_back((entry.thread, extra));
                }
            }
            if !entry.pinned {
                unpinned += 1;
                if news {
                    unpinned_news += 1;
                }
            }
            if news {
                activity_times.push(activity_time);
            }
        }
        let state = self.get_mut(board).expect("checked by record");
        state.entries_show_activity |= shows_activity;
        let index = (page - 1) as usize;
        let previous = state.pages[index];
        let mut hashed: Vec<i64> = Vec::with_capacity(entries.len() * 2);
        for entry in entries {
            hashed.push(entry.thread.0 as i64);
            hashed.push(entry.last_post_at.map_or(-1, |time| time.as_second()));
        }
        let signature = signature_of(&hashed);
        change.page_modified = previous.fetched_at.is_none() || previous.signature != signature;
        // The page moved past itself when every unpinned entry was news. That alone stops a walk
        // at the first entry the crawl knows, which is right only when the crawl learnt of it
        // from the board: a thread whose posts were stored another way (a warm-up's backlog, a
        // discovery follow-up) shows as unchanged high on a list that moved pages further than
        // the last walk read, and every thread below it went unread (54 posts of one board of
        // the simulator's mailarchive/12 in its warm-up at 1,000 fetches a day, lost for good
        // when the threads went quiet). So a walk in page order also goes on while the page's
        // oldest entry shows activity since the last complete walk began. (Forums print
        // minutes: a thread shown in the very minute that walk began is taken as listed by it,
        // which could miss a thread below it only if both had posts in that minute after the
        // walk's read and a page ended between them.)
        let every_entry_news = unpinned > 0 && unpinned_news == unpinned;
        let oldest_shown = entries
            .iter()
            .filter(|entry| !entry.pinned)
            .filter_map(|entry| entry.last_post_at.or(entry.started_at))
            .map(|time| time.as_second())
            .min();
        // A first page read starts a walk, unless one is under way and has read a page since
        // the first page was last read: restarting it at every poll of a busy board would keep
        // a long walk (after a warm-up that left the board unpolled for days) from ever
        // reaching the activity the last complete walk listed. A walk that made no step since
        // the last poll (its next page never fetched) starts again.
        let previous_front_read = state.pages[0].fetched_at;
        let walk_progressing = state.walk.is_some_and(|walk| {
            walk.depth > 1 && previous_front_read.is_some_and(|read| walk.last_step > read)
        });
        let walking = match state.walk {
            _ if page == 1 && !walk_progressing => {
                state.walk = Some(BoardWalk {
                    started: at,
                    depth: 1,
                    last_step: at,
                });
                true
            }
            Some(walk) if page > 1 && page == walk.depth + 1 => {
                state.walk = Some(BoardWalk {
                    depth: page,
                    last_step: at,
                    ..walk
                });
                true
            }
            _ => false,
        };
        let newer_than_last_walk = walking
            && matches!((oldest_shown, state.listed_through),
                (Some(oldest), Some(through)) if oldest > through);
        change.moved_past_page = every_entry_news || newer_than_last_walk;
        if walking && (!change.moved_past_page || page >= state.page_count) {
            // The walk reached activity the last complete walk had listed, or the list's end.
            state.listed_through = state.walk.take().map(|walk| walk.started);
        }
        change.new_records = activity_times.len() as u32;
        for &time in &activity_times {
            state.insert_record_time(time);
        }
        change.new_record_times = activity_times;
        let count = entries.len() as u32;
        state.records_per_page = state.records_per_page.max(count);
        let newest = entries
            .iter()
            .filter_map(|entry| entry.last_post_at.or(entry.started_at))
            .map(|time| time.as_second())
            .max();
        state.pages[index] = PageSeen {
            fetched_at: Some(at),
            records: count,
            newest,
            signature,
        };
    }

    fn compact_backlog(&mut self) {
        while let Some(&(list, page)) = self.backlog.front() {
            if self
                .get(list)
                .is_some_and(|state| !state.page_fetched(page))
            {
                break;
            }
            self.backlog.pop_front();
        }
    }
}

/// Marks as pinned every entry whose activity is older than an entry below it: a board list
/// is ordered by last post, so only a pinned thread can stand out of that order. Drivers call it
/// on the entries page analysis read, since list pages show pins in too many ways to read the
/// flag itself reliably.
pub fn infer_pins(entries: &mut [ThreadEntry]) {
    let mut newest_below: Option<Timestamp> = None;
    for entry in entries.iter_mut().rev() {
        if let (Some(time), Some(below)) = (entry.last_post_at, newest_below)
            && time < below
        {
            entry.pinned = true;
            continue;
        }
        newest_below = newest_below.max(entry.last_post_at);
    }
}

fn signature_of(values: &[i64]) -> u64 {
    let mut hasher = DefaultHasher::new();
    values.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests;
