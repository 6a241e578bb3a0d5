//! How a crawl stands, for the overview: from the totals the store keeps, or, for a store
//! written before it kept them and opened for reading only, counted from the pages read.

use std::collections::HashMap;

use jiff::Timestamp;
use trawl_store::{CrawlSummary, StoredPage};

/// How a crawl stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// Pages fetched (every fetch, revisits included).
    pub pages: usize,
    /// Posts stored.
    pub posts: usize,
    /// Fetches that got no answer or an error status (400 and above).
    pub errors: usize,
    /// URLs waiting in the frontier.
    pub frontier: usize,
    /// Fetches by role (`None`: not placed in a vertex).
    pub by_role: Vec<(Option<String>, usize)>,
    /// The first and last fetch.
    pub first_fetch: Option<Timestamp>,
    /// The last fetch.
    pub last_fetch: Option<Timestamp>,
    /// Pages a minute over the last minute of fetching.
    pub recent_rate: f64,
    /// Pages a minute from the first fetch to the last.
    pub overall_rate: f64,
}

/// A crawl is taken to be running when its last fetch is this recent.
pub const RUNNING_WITHIN_SECONDS: i64 = 120;

impl Progress {
    /// Reads the progress from the loaded pages and the frontier's length: what a store
    /// written before it kept its totals shows (see [`Progress::of_summary`]).
    pub fn of(pages: &[StoredPage], frontier: usize) -> Progress {
        let mut by_role: HashMap<Option<String>, usize> = HashMap::new();
        let mut posts = 0;
        let mut errors = 0;
        for page in pages {
            let record = &page.record;
            posts += record.posts.len();
            errors += usize::from(record.status == 0 || record.status >= 400);
            *by_role.entry(record.role.clone()).or_default() += 1;
        }
        let first_fetch = pages.iter().map(|page| page.record.fetched_at).min();
        let last_fetch = pages.iter().map(|page| page.record.fetched_at).max();
        let recent = last_fetch.map_or(0, |last| {
            let minute_before = last.as_second() - 60;
            pages
                .iter()
                .filter(|page| page.record.fetched_at.as_second() > minute_before)
                .count()
        });
        Progress::made(
            Counts {
                pages: pages.len(),
                posts,
                errors,
                frontier,
                recent,
            },
            by_role.into_iter().collect(),
            (first_fetch, last_fetch),
        )
    }

    /// The progress from the totals the store keeps: the same figures without reading a page
    /// or counting the frontier, so the overview of a crawl of 100,000 pages answers at once,
    /// however far the crawl moved since the last view. The fetch times are to the second.
    pub fn of_summary(summary: &CrawlSummary) -> Progress {
        Progress::made(
            Counts {
                pages: summary.pages,
                posts: summary.posts,
                errors: summary.errors,
                frontier: summary.frontier_waiting,
                recent: summary.pages_in_last_minute,
            },
            summary
                .by_role
                .iter()
                .filter(|role| role.pages > 0)
                .map(|role| (role.role.clone(), role.pages))
                .collect(),
            (summary.first_fetch, summary.last_fetch),
        )
    }

    /// The progress of these counts: roles by pages, most first; the rates over the last
    /// minute and from the first fetch to the last.
    fn made(
        counts: Counts,
        mut by_role: Vec<(Option<String>, usize)>,
        (first_fetch, last_fetch): (Option<Timestamp>, Option<Timestamp>),
    ) -> Progress {
        by_role.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let (recent_rate, overall_rate) = match (first_fetch, last_fetch) {
            (Some(first), Some(last)) => {
                let span_minutes = (last.as_second() - first.as_second()) as f64 / 60.0;
                let overall = if span_minutes > 0.0 {
                    counts.pages as f64 / span_minutes
                } else {
                    0.0
                };
                (counts.recent as f64, overall)
            }
            _ => (0.0, 0.0),
        };
        Progress {
            pages: counts.pages,
            posts: counts.posts,
            errors: counts.errors,
            frontier: counts.frontier,
            by_role,
            first_fetch,
            last_fetch,
            recent_rate,
            overall_rate,
        }
    }

    /// Whether the crawl (or a watch) is fetching: its last fetch is recent at `now`.
    pub fn is_running(&self, now: Timestamp) -> bool {
        self.last_fetch
            .is_some_and(|last| now.as_second() - last.as_second() <= RUNNING_WITHIN_SECONDS)
    }
}

/// The counts a progress is made of, wherever they were read.
struct Counts {
    pages: usize,
    posts: usize,
    errors: usize,
    frontier: usize,
    /// Pages fetched in the minute up to the last fetch.
    recent: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use trawl_store::{FetchOutcome, FrontierEntry, PageRecord, PostRecord, Store};

    const FIRST: &str = "http://f.test/topic?id=5";
    const SECOND: &str = "http://f.test/topic?id=5&page=2";
    const BOARD: &str = "http://f.test/board?id=1";

    fn at(second: i64) -> Timestamp {
        Timestamp::from_second(second).unwrap()
    }

    fn page(url: &str, role: &str, status: u16, second: i64) -> StoredPage {
        StoredPage {
            id: 0,
            plan_generation: 0,
            record: PageRecord {
                url: url.to_string(),
                role: (!role.is_empty()).then(|| role.to_string()),
                status,
                fetched_at: at(second),
                ..PageRecord::default()
            },
        }
    }

    fn with_posts(mut page: StoredPage, posts: &[(&str, Option<&str>)]) -> StoredPage {
        page.record.posts = posts
            .iter()
            .map(|(text, permalink)| PostRecord {
                text: text.to_string(),
                permalink: permalink.map(str::to_string),
                ..PostRecord::default()
            })
            .collect();
        page
    }

    #[test]
    fn progress_counts_pages_posts_errors_and_rates() {
        let pages = vec![
            with_posts(page(FIRST, "thread", 200, 0), &[("a", None), ("b", None)]),
            page(SECOND, "thread", 500, 60),
            page(BOARD, "thread-list", 0, 110),
            page("http://f.test/x", "", 404, 120),
        ];
        let progress = Progress::of(&pages, 7);
        assert_eq!(
            (
                progress.pages,
                progress.posts,
                progress.errors,
                progress.frontier
            ),
            (4, 2, 3, 7)
        );
        assert_eq!(progress.recent_rate, 2.0);
        assert_eq!(progress.overall_rate, 2.0);
        assert_eq!(
            progress.by_role,
            vec![
                (Some("thread".to_string()), 2),
                (None, 1),
                (Some("thread-list".to_string()), 1)
            ]
        );
        assert!(progress.is_running(at(200)));
        assert!(!progress.is_running(at(241)));
        let empty = Progress::of(&[], 1);
        assert_eq!(
            (empty.pages, empty.recent_rate, empty.overall_rate),
            (0, 0.0, 0.0)
        );
        assert!(!empty.is_running(at(0)));
    }

    /// The progress read from the totals of a store holding `pages` (with `waiting` more URLs
    /// in its frontier) is the one counted from the pages themselves.
    fn check_summary_agrees(pages: &[StoredPage], waiting: usize) {
        let path = std::env::temp_dir().join(format!(
            "trawl-console-progress-{}-{}.db",
            std::process::id(),
            pages.len()
        ));
        trawl_store::remove_database_files(&path);
        let mut store = Store::open(&path).unwrap();
        store
            .begin_crawl(
                &trawl_store::CrawlSettings {
                    portal: BOARD.into(),
                    strategy: "plan".into(),
                    plan_json: None,
                    plan_generation: 0,
                    started_at: at(0),
                    order: None,
                    patterns_json: None,
                },
                &FrontierEntry {
                    url: BOARD.into(),
                    depth: 0,
                    redirects: 0,
                },
            )
            .unwrap();
        let outcomes: Vec<FetchOutcome> = pages
            .iter()
            .enumerate()
            .map(|(index, page)| FetchOutcome {
                page: page.record.clone(),
                frontier_url: page.record.url.clone(),
                requeued: false,
                // The last page queues the URLs left waiting.
                queued: if index + 1 == pages.len() {
                    (0..waiting)
                        .map(|number| FrontierEntry {
                            url: format!("http://f.test/waiting/{number}"),
                            depth: 1,
                            redirects: 0,
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                cookies: None,
                skipped: Vec::new(),
            })
            .collect();
        store.record_fetches(&outcomes).unwrap();
        let summary = store.summary().unwrap().unwrap();
        drop(store);
        trawl_store::remove_database_files(&path);
        // The portal was fetched among the pages only when one of them is its URL.
        let portal_waits = usize::from(!pages.iter().any(|page| page.record.url == BOARD));
        assert_eq!(
            Progress::of_summary(&summary),
            Progress::of(pages, waiting + portal_waits)
        );
    }

    #[test]
    fn the_totals_the_store_keeps_give_the_progress_the_pages_give() {
        check_summary_agrees(
            &[
                with_posts(page(FIRST, "thread", 200, 0), &[("a", None), ("b", None)]),
                page(SECOND, "thread", 500, 60),
                page(BOARD, "thread-list", 0, 110),
                page("http://f.test/x", "", 404, 120),
            ],
            7,
        );
        // Fetches out of time order, and more than a minute apart.
        check_summary_agrees(
            &[
                page(FIRST, "thread", 200, 500),
                page(SECOND, "", 200, 20),
                with_posts(page("http://f.test/y", "thread", 200, 441), &[("c", None)]),
            ],
            0,
        );
        check_summary_agrees(&[page(FIRST, "thread", 200, 1_700_000_000)], 2);
    }
}
