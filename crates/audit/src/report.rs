//! What an audit finds: totals, the gaps that make a crawl incomplete, and the posts a forum
//! counts that page analysis did not read from pages the crawl has.

use std::collections::HashMap;

/// What kind of evidence shows a gap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GapKind {
    /// A board lists the thread, and the crawl has none of its pages.
    ListedThread,
    /// A fetched page of a board or thread links to this page of its list, and the crawl does
    /// not have it.
    LinkedListPage,
    /// The page's number falls between the numbers of pages the list's pagers show (a pager
    /// shows a window, `1 2 3 … 17`), and the crawl does not have it.
    NumberedListPage,
    /// A board's entry counts more posts for the thread than its fetched pages hold, and more
    /// than that many pages can hold: later pages were never found.
    ShortThread,
}

impl GapKind {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            GapKind::ListedThread => "thread listed, never fetched",
            GapKind::LinkedListPage => "list page linked, never fetched",
            GapKind::NumberedListPage => "list page within the pager's numbers, never fetched",
            GapKind::ShortThread => "thread cut short",
        }
    }

    /// Every kind, in report order.
    pub const ALL: [GapKind; 4] = [
        GapKind::ListedThread,
        GapKind::LinkedListPage,
        GapKind::NumberedListPage,
        GapKind::ShortThread,
    ];
}

/// Why the crawl lacks a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// It was never queued: no followed link led to it.
    NeverQueued,
    /// It is queued: the crawl stopped before it (a page limit).
    Waiting,
    /// It was asked for and no usable answer came.
    Failed {
        /// The HTTP status (0: no answer).
        status: u16,
        /// Why no answer came, when none did.
        error: Option<String>,
    },
    /// The crawler takes its link for another spelling of a page it has (`queued_as`), so it
    /// is never queued under its own: a rewrite of spellings joins two pages of one list.
    /// Asking for it again does not help (the crawler passes it over); the rewrite is at
    /// fault.
    TakenForAnother {
        /// What the crawler queues in its place.
        queued_as: String,
    },
    /// Some of its pages were fetched, not all (a short thread).
    PagesMissing {
        /// Pages that hold the posts the crawl has.
        pages_fetched: usize,
        /// Pages the counted posts need at the forum's posts per page.
        pages_needed: usize,
    },
}

impl Missing {
    /// Whether fetching the gap's URL may close it (it was never asked for, or asking failed;
    /// a waiting URL is fetched by the crawl going on anyway).
    pub fn fetching_may_close(&self) -> bool {
        matches!(self, Missing::NeverQueued | Missing::Failed { .. })
    }
}

/// One gap: a page or a thread the forum states and the crawl lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// The evidence.
    pub kind: GapKind,
    /// The missing page (for a short thread, its first fetched page).
    pub url: String,
    /// The first fetched page of the list the gap belongs to: the board page listing a
    /// thread, the thread or board a missing page continues.
    pub list: Option<String>,
    /// Why it is missing.
    pub missing: Missing,
    /// Posts the forum counts there that the crawl lacks, when the forum counts them.
    pub posts_missing: u64,
}

/// A thread whose pages the crawl has, all of them by the forum's counts, holding fewer posts
/// than its board entry counts: page analysis did not read them (or the forum counts posts it
/// does not show). Not a gap of the crawl: fetching again would bring nothing new.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadPosts {
    /// The thread's first fetched page.
    pub thread: String,
    /// Posts the board entry counts.
    pub counted: u64,
    /// Distinct posts read from the thread's pages.
    pub stored: u64,
}

/// The audit's sums.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditTotals {
    /// Fetches stored.
    pub pages_fetched: usize,
    /// Fetches that got no usable answer (no response, or an error status).
    pub pages_failed: usize,
    /// URLs queued and not fetched: the crawl stopped before them.
    pub urls_waiting: usize,
    /// Distinct threads the boards list.
    pub threads_listed: usize,
    /// Of those, threads the crawl has at least one page of.
    pub threads_listed_fetched: usize,
    /// Entries whose links the crawl did not follow and which name no thread it lacks: links
    /// of another kind than those leading to threads (a latest post), or titles of threads
    /// fetched under another link.
    pub entries_not_followed: usize,
    /// Lists (boards and threads) put together from the crawl's pages.
    pub lists: usize,
    /// Pages of those lists the crawl knows of: fetched, linked, or numbered between them.
    pub list_pages_known: usize,
    /// Of those, pages fetched.
    pub list_pages_fetched: usize,
    /// Posts the board entries count for threads the crawl fetched.
    pub posts_counted: u64,
    /// Distinct posts the crawl holds in those threads.
    pub posts_stored_of_counted: u64,
    /// The forum's posts per page, as far as the crawl shows: the most common number of posts
    /// on thread pages followed by another page of their thread.
    pub posts_per_page: usize,
    /// Whether no page has a role (a crawl without a plan): the forum's counts cannot be
    /// read, and only the URLs waiting say whether the crawl is incomplete.
    pub without_roles: bool,
    /// Whether the boards' counts read as replies (the first post not counted) rather than
    /// posts, as the crawl's own complete threads show.
    pub counts_are_replies: bool,
}

/// An audit of one crawl.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditReport {
    /// The sums.
    pub totals: AuditTotals,
    /// Every gap found, by kind, then in the order the crawl met the evidence.
    pub gaps: Vec<Gap>,
    /// Threads whose posts were counted but not all read, though every page was fetched.
    pub unread: Vec<UnreadPosts>,
}

/// The gaps of one list, for the "worst lists" of a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListGaps {
    /// The list's first fetched page (or the missing thread itself).
    pub list: String,
    /// Gaps in it.
    pub gaps: usize,
    /// Posts missing there, as far as counted.
    pub posts_missing: u64,
}

impl AuditReport {
    /// Whether the crawl is known to be incomplete: a gap, or URLs still waiting.
    pub fn is_incomplete(&self) -> bool {
        !self.gaps.is_empty() || self.totals.urls_waiting > 0
    }

    /// Gaps of `kind`.
    pub fn count(&self, kind: GapKind) -> usize {
        self.gaps.iter().filter(|gap| gap.kind == kind).count()
    }

    /// Posts the gaps' counts say are missing.
    pub fn posts_missing(&self) -> u64 {
        self.gaps.iter().map(|gap| gap.posts_missing).sum()
    }

    /// The URLs whose fetch may close a gap (never queued, or failed), each once, in gap order.
    pub fn urls_to_fetch(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        self.gaps
            .iter()
            .filter(|gap| gap.kind != GapKind::ShortThread && gap.missing.fetching_may_close())
            .filter(|gap| seen.insert(gap.url.as_str()))
            .map(|gap| gap.url.clone())
            .collect()
    }

    /// The `count` lists with most posts missing (then most gaps).
    pub fn worst_lists(&self, count: usize) -> Vec<ListGaps> {
        let mut by_list: HashMap<&str, (usize, u64, usize)> = HashMap::new();
        for (order, gap) in self.gaps.iter().enumerate() {
            let list = gap.list.as_deref().unwrap_or(&gap.url);
            let entry = by_list.entry(list).or_insert((0, 0, order));
            entry.0 += 1;
            entry.1 += gap.posts_missing;
        }
        let mut lists: Vec<(&str, (usize, u64, usize))> = by_list.into_iter().collect();
        lists.sort_by(|(_, first), (_, second)| {
            (second.1, second.0)
                .cmp(&(first.1, first.0))
                .then(first.2.cmp(&second.2))
        });
        lists
            .into_iter()
            .take(count)
            .map(|(list, (gaps, posts_missing, _))| ListGaps {
                list: list.to_string(),
                gaps,
                posts_missing,
            })
            .collect()
    }
}
