//! What the views read from the store: the sites it holds, a site's pages (read once per
//! state of the crawl and kept), its progress, and its threads put back together.
//!
//! Every request opens the store anew and reads only when the crawl moved: the pages are kept
//! with the page count they were read at, and a request whose count query answers the same
//! number uses them again. A store being written by a running crawl or watch is read as it
//! stands at each request; nothing here holds a connection or a lock between requests.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use trawl_audit::AuditReport;
use trawl_learn::sitemap::Role;
use trawl_store::{CrawlSettings, Store, StoreError, StoreLocation, StoredPage};

use crate::ConsoleError;

mod progress;
mod reading;

pub use progress::{Progress, RUNNING_WITHIN_SECONDS};
pub use reading::{PagesNow, READ_AT_ONCE_PAGES};

/// Opens the crawl of `site` at `location`: read only for the views, read and write to save a
/// plan. A file holds one crawl whatever the name.
pub fn open_site(
    location: &StoreLocation,
    site: &str,
    read_only: bool,
) -> Result<Store, StoreError> {
    Store::open_existing(location, Some(site), read_only)
}

/// The sites the store holds, by the portal URL each crawl began at. A file holds one; a
/// PostgreSQL database one or many, which the console offers to pick from.
pub fn list_sites(location: &StoreLocation) -> Result<Vec<String>, ConsoleError> {
    let opened = Store::open_existing(location, None, true);
    let store = match opened {
        Ok(store) => store,
        Err(StoreError::WhichSite { sites, .. }) => return Ok(sites),
        Err(source) => return Err(ConsoleError::Store(source)),
    };
    let settings = store.settings().map_err(ConsoleError::Store)?;
    match (settings, &store) {
        (_, Store::Postgres(postgres)) => Ok(vec![postgres.site().to_string()]),
        (Some(settings), Store::Sqlite(_)) => Ok(vec![settings.portal]),
        (None, Store::Sqlite(_)) => Err(ConsoleError::NoCrawl {
            database: location.to_string(),
        }),
    }
}

/// A site's pages as read at one page count.
#[derive(Debug, Clone)]
pub struct LoadedPages {
    /// The page count they were read at.
    pub count: usize,
    /// Every fetch, in fetch order, bodies left out.
    pub pages: Vec<StoredPage>,
    /// The threads they make, put together when first asked for: on a crawl of 100,000 pages
    /// that takes about half a second, which the overview of a running crawl, refreshed every
    /// few seconds, has no need to pay (see [`Cache::threads`]).
    threads: OnceLock<Arc<Vec<Thread>>>,
    /// The fetches of each URL, in fetch order (indices into `pages`).
    pub fetches_of_url: HashMap<String, Vec<usize>>,
}

impl LoadedPages {
    /// Reads and assembles `pages`.
    pub fn new(pages: Vec<StoredPage>) -> LoadedPages {
        let mut loaded = LoadedPages {
            count: 0,
            pages: Vec::new(),
            threads: OnceLock::new(),
            fetches_of_url: HashMap::new(),
        };
        loaded.extend(pages);
        loaded
    }

    /// Adds the pages fetched since; the threads are put together again when next asked for,
    /// over every page, since a new page may continue a list of any age.
    pub fn extend(&mut self, new_pages: Vec<StoredPage>) {
        for page in new_pages {
            self.fetches_of_url
                .entry(page.record.url.clone())
                .or_default()
                .push(self.pages.len());
            self.pages.push(page);
        }
        self.count = self.pages.len();
        self.threads = OnceLock::new();
    }

    /// The threads the pages make.
    pub fn threads(&self) -> &[Thread] {
        self.threads_shared()
    }

    fn threads_shared(&self) -> &Arc<Vec<Thread>> {
        self.threads.get_or_init(|| Arc::new(threads(&self.pages)))
    }

    /// A thread's posts in order, each once (see [`Thread::posts`]).
    pub fn posts_of(&self, thread: &Thread) -> Vec<(usize, usize)> {
        thread.posts(&self.pages, &self.fetches_of_url)
    }

    /// The id of the last page held (0 for none).
    pub fn last_id(&self) -> i64 {
        self.pages.last().map_or(0, |page| page.id)
    }
}

/// What the console keeps between requests, per site: the pages, the frontier's length and the
/// audit, each with the page count it was read at.
#[derive(Debug, Default)]
pub struct Cache {
    pages: Mutex<HashMap<String, Arc<LoadedPages>>>,
    frontiers: Mutex<HashMap<String, (usize, usize)>>,
    audits: Mutex<HashMap<String, AuditEntry>>,
    threads: Mutex<HashMap<String, ThreadsMade>>,
    /// Sites being read whole on a thread of their own, with the pages read so far
    /// ([`reading`]), and why the last such reading failed.
    reading: Mutex<HashMap<String, Arc<std::sync::atomic::AtomicUsize>>>,
    read_failures: Mutex<HashMap<String, String>>,
    /// Crawls of more pages than this are read in the background; `None`:
    /// [`READ_AT_ONCE_PAGES`].
    read_at_once: Option<usize>,
}

/// The threads last put together for a site, and whether newer ones are being made.
#[derive(Debug, Default)]
struct ThreadsMade {
    /// The threads and the page count they were made at, from pages whose first pages are the
    /// ones held now (a crawl only adds pages, so their indices stay right).
    last: Option<(Arc<Vec<Thread>>, usize)>,
    making: bool,
}

/// Threads to show, and the page count they were put together at.
#[derive(Debug, Clone)]
pub struct ThreadsNow {
    /// The threads.
    pub threads: Arc<Vec<Thread>>,
    /// The page count they were put together at; below the pages held while newer ones are
    /// being made.
    pub pages: usize,
}

/// A site's last audit and whether a newer one is being made.
#[derive(Debug, Default)]
struct AuditEntry {
    last: Option<AuditDone>,
    making: bool,
    failure: Option<String>,
}

/// An audit made, with the page count of the store it read.
#[derive(Debug, Clone)]
pub struct AuditDone {
    /// The report.
    pub report: Arc<AuditReport>,
    /// Pages the store held when it was made.
    pub pages: usize,
}

/// What the audit view can show now.
#[derive(Debug, Clone)]
pub enum AuditNow {
    /// The last audit made; `current` says whether it read the store as it is.
    Made {
        /// The audit.
        done: AuditDone,
        /// Whether the store still holds the pages it read.
        current: bool,
    },
    /// The first audit is being made.
    Making,
    /// Making it failed; the words say why.
    Failed(String),
}

impl Cache {
    /// The site's pages. When the store's page count moved, only the pages fetched since are
    /// read (a crawl or watch only ever adds pages), the lock held so that two requests
    /// arriving together read them once; a site never read, or a count that went down (another
    /// store at the same place), is read whole without the lock ([`Cache::pages_now`] is how
    /// views ask, so they need not wait for that).
    pub fn pages(&self, site: &str, store: &Store) -> Result<Arc<LoadedPages>, StoreError> {
        let count = store.page_count()?;
        let mut kept = self.pages.lock().expect("cache lock");
        let loaded = match kept.remove(site) {
            Some(loaded) if loaded.count == count => {
                kept.insert(site.to_string(), Arc::clone(&loaded));
                return Ok(loaded);
            }
            // Taken back whole when no view holds it any more, copied when one does.
            Some(loaded) if loaded.count < count => {
                Arc::try_unwrap(loaded).unwrap_or_else(|shared| (*shared).clone())
            }
            _ => {
                drop(kept);
                return self.read_whole(site, store, None);
            }
        };
        let mut loaded = loaded;
        let mut new_pages = Vec::with_capacity(count - loaded.count.min(count));
        store.for_each_page_after(loaded.last_id(), false, |page| new_pages.push(page))?;
        loaded.extend(new_pages);
        let loaded = Arc::new(loaded);
        kept.insert(site.to_string(), Arc::clone(&loaded));
        Ok(loaded)
    }

    /// The site's threads, at once: those of `loaded` when put together, else the last ones
    /// made (for fewer pages) while a thread of its own puts the new ones together; the first
    /// time, put together here.
    pub fn threads(self: &Arc<Self>, site: &str, loaded: &Arc<LoadedPages>) -> ThreadsNow {
        if let Some(threads) = loaded.threads.get() {
            return ThreadsNow {
                threads: Arc::clone(threads),
                pages: loaded.count,
            };
        }
        let mut made = self.threads.lock().expect("cache lock");
        let entry = made.entry(site.to_string()).or_default();
        let earlier = entry
            .last
            .clone()
            .filter(|(_, pages)| *pages < loaded.count);
        let Some((threads, pages)) = earlier else {
            drop(made);
            let threads = Arc::clone(loaded.threads_shared());
            self.remember_threads(site, &threads, loaded.count);
            return ThreadsNow {
                threads,
                pages: loaded.count,
            };
        };
        if !entry.making {
            entry.making = true;
            let cache = Arc::clone(self);
            let loaded = Arc::clone(loaded);
            let site_name = site.to_string();
            let spawned = std::thread::Builder::new()
                .name("trawl-console-threads".to_string())
                .spawn(move || {
                    let threads = Arc::clone(loaded.threads_shared());
                    cache.remember_threads(&site_name, &threads, loaded.count);
                });
            if spawned.is_err() {
                entry.making = false;
            }
        }
        ThreadsNow { threads, pages }
    }

    fn remember_threads(&self, site: &str, threads: &Arc<Vec<Thread>>, pages: usize) {
        let mut made = self.threads.lock().expect("cache lock");
        let entry = made.entry(site.to_string()).or_default();
        entry.making = false;
        if entry.last.as_ref().is_none_or(|(_, last)| *last <= pages) {
            entry.last = Some((Arc::clone(threads), pages));
        }
    }

    /// URLs waiting in the site's frontier, counted again when the page count moved (the
    /// frontier changes with fetches; a requeue between fetches shows at the next one): the
    /// overview's figure for a store written before it kept its totals, which count it as the
    /// crawl writes ([`trawl_store::Store::summary`]).
    pub fn waiting(&self, site: &str, store: &Store, pages: usize) -> Result<usize, StoreError> {
        if let Some(&(counted_at, waiting)) = self.frontiers.lock().expect("cache lock").get(site)
            && counted_at == pages
        {
            return Ok(waiting);
        }
        let waiting = store.unfetched_frontier()?.waiting.len();
        self.frontiers
            .lock()
            .expect("cache lock")
            .insert(site.to_string(), (pages, waiting));
        Ok(waiting)
    }

    /// The site's audit as it can be shown at once. An audit reads every page's audit digest
    /// (a fraction of a second on a crawl of 100,000 pages, more on a store written before the
    /// digests), so it is made on a thread of its own: the view shows the last
    /// one made, saying when it is older than the store, while a new one is made; `pages` is
    /// the store's page count now.
    pub fn audit(self: &Arc<Self>, location: &StoreLocation, site: &str, pages: usize) -> AuditNow {
        let mut audits = self.audits.lock().expect("cache lock");
        let entry = audits.entry(site.to_string()).or_default();
        let current = entry.last.as_ref().is_some_and(|done| done.pages == pages);
        if !current && !entry.making {
            entry.making = true;
            let cache = Arc::clone(self);
            let location = location.clone();
            let site = site.to_string();
            let spawned = std::thread::Builder::new()
                .name("trawl-console-audit".to_string())
                .spawn(move || cache.make_audit(&location, &site));
            if let Err(error) = spawned {
                entry.making = false;
                return AuditNow::Failed(format!("cannot start the audit: {error}"));
            }
        }
        match &entry.last {
            Some(done) => AuditNow::Made {
                done: done.clone(),
                current,
            },
            None => match &entry.failure {
                Some(failure) => AuditNow::Failed(failure.clone()),
                None => AuditNow::Making,
            },
        }
    }

    fn make_audit(&self, location: &StoreLocation, site: &str) {
        let made = open_site(location, site, true)
            .map_err(ConsoleError::Store)
            .and_then(|store| {
                let pages = store.page_count().map_err(ConsoleError::Store)?;
                let report = trawl_run::audit_store(&store).map_err(ConsoleError::Audit)?;
                Ok(AuditDone {
                    report: Arc::new(report),
                    pages,
                })
            });
        let mut audits = self.audits.lock().expect("cache lock");
        let entry = audits.entry(site.to_string()).or_default();
        entry.making = false;
        match made {
            Ok(done) => {
                entry.last = Some(done);
                entry.failure = None;
            }
            Err(error) => entry.failure = Some(crate::error_chain(&error)),
        }
    }
}

/// One thread put back together: its pages in order and its posts, each post once.
#[derive(Debug, Clone, PartialEq)]
pub struct Thread {
    /// The title its board entry gives, or its first page's document title.
    pub title: Option<String>,
    /// The first page of the board list that listed it.
    pub board: Option<String>,
    /// Its pages in page order (indices into the pages), each by its first fetch.
    pub pages: Vec<usize>,
}

impl Thread {
    /// Its posts in order, as (fetch index, post index on that fetch): every fetch of each of
    /// its pages read (a revisit's new posts included), and a post shown twice (atop the next
    /// page, or by a page fetched again) kept once.
    pub fn posts(
        &self,
        pages: &[StoredPage],
        fetches_of_url: &HashMap<String, Vec<usize>>,
    ) -> Vec<(usize, usize)> {
        let mut seen = HashSet::new();
        let mut posts = Vec::new();
        for &page in &self.pages {
            let fetches = fetches_of_url
                .get(&pages[page].record.url)
                .map_or(&[][..], Vec::as_slice);
            for &fetch in fetches {
                for (index, post) in pages[fetch].record.posts.iter().enumerate() {
                    if seen.insert(post_identity(post)) {
                        posts.push((fetch, index));
                    }
                }
            }
        }
        posts
    }

    /// The thread's URL: its first page's.
    pub fn url<'a>(&self, pages: &'a [StoredPage]) -> &'a str {
        &pages[self.pages[0]].record.url
    }
}

/// What names a post within its thread: the fragment of its permalink, since a post shown again
/// atop the next page carries that page's URL before the same fragment; else the whole
/// permalink; else its author, time and text.
fn post_identity(
    post: &trawl_store::PostRecord,
) -> (Option<&str>, Option<&str>, Option<&str>, &str) {
    match post.permalink.as_deref() {
        Some(permalink) => {
            let anchor = match permalink.split_once('#') {
                Some((_, fragment)) if !fragment.is_empty() => fragment,
                _ => permalink,
            };
            (Some(anchor), None, None, "")
        }
        None => (
            None,
            post.author.as_deref(),
            post.time.as_deref(),
            &post.text,
        ),
    }
}

/// The threads the pages make: lists of thread pages joined by page-flipping links, named by
/// the board entries linking to them. Pages of a crawl without a plan, which have no role, are
/// each a thread of their own when they show posts.
pub fn threads(pages: &[StoredPage]) -> Vec<Thread> {
    let (roles, lists) = trawl_run::assemble_stored_lists(pages);
    let mut fetches_of_url: HashMap<&str, Vec<usize>> = HashMap::new();
    for (index, page) in pages.iter().enumerate() {
        fetches_of_url
            .entry(page.record.url.as_str())
            .or_default()
            .push(index);
    }
    // The board entry naming each thread URL (fragment dropped): its title and board list.
    let mut list_of_board_page: HashMap<usize, usize> = HashMap::new();
    for (list_index, list) in lists.iter().enumerate() {
        for &page in &list.pages {
            list_of_board_page.insert(page, list_index);
        }
    }
    let mut entry_of_url: HashMap<&str, (&str, Option<usize>)> = HashMap::new();
    for (index, page) in pages.iter().enumerate() {
        if roles[index] != Some(Role::ThreadList) {
            continue;
        }
        let first_fetch = fetches_of_url[page.record.url.as_str()][0];
        let board_list = list_of_board_page.get(&first_fetch).copied();
        for entry in &page.record.thread_entries {
            let url = entry.url.split('#').next().unwrap_or(&entry.url);
            entry_of_url
                .entry(url)
                .or_insert((entry.title.as_str(), board_list));
        }
    }
    let unplaced: Vec<Vec<usize>> = pages
        .iter()
        .enumerate()
        .filter(|(_, page)| page.record.role.is_none() && !page.record.posts.is_empty())
        .map(|(index, _)| vec![index])
        .collect();
    lists
        .iter()
        .map(|list| &list.pages)
        .filter(|list| roles[list[0]] == Some(Role::Thread))
        .chain(&unplaced)
        .map(|list| {
            let entry = list
                .iter()
                .find_map(|&page| entry_of_url.get(pages[page].record.url.as_str()));
            let title = entry
                .map(|(title, _)| title.to_string())
                .or_else(|| pages[list[0]].record.title.clone());
            let board = entry
                .and_then(|(_, board)| *board)
                .map(|board| pages[lists[board].pages[0]].record.url.clone());
            Thread {
                title,
                board,
                pages: list.clone(),
            }
        })
        .collect()
}

/// The crawl's settings, or an error naming the database when it holds none.
pub fn settings_of(store: &Store) -> Result<CrawlSettings, ConsoleError> {
    store
        .settings()
        .map_err(ConsoleError::Store)?
        .ok_or_else(|| ConsoleError::NoCrawl {
            database: store.location().to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::Timestamp;
    use trawl_store::{PageRecord, PostRecord, ThreadEntryRecord};

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
                author: Some("ann".into()),
                time: Some("2024-01-01T10:00:00".into()),
                text: text.to_string(),
                permalink: permalink.map(str::to_string),
            })
            .collect();
        page
    }

    fn with_next(mut page: StoredPage, next: &str) -> StoredPage {
        page.record.list_links = vec![next.to_string()];
        page
    }

    fn check_threads(pages: &[StoredPage], expected: &[(Option<&str>, Option<&str>, &[&str])]) {
        let loaded = LoadedPages::new(pages.to_vec());
        let got: Vec<(Option<String>, Option<String>, Vec<String>)> = loaded
            .threads()
            .iter()
            .map(|thread| {
                (
                    thread.title.clone(),
                    thread.board.clone(),
                    loaded
                        .posts_of(thread)
                        .iter()
                        .map(|&(fetch, post)| pages[fetch].record.posts[post].text.clone())
                        .collect(),
                )
            })
            .collect();
        let expected: Vec<(Option<String>, Option<String>, Vec<String>)> = expected
            .iter()
            .map(|(title, board, posts)| {
                (
                    title.map(str::to_string),
                    board.map(str::to_string),
                    posts.iter().map(|post| post.to_string()).collect(),
                )
            })
            .collect();
        assert_eq!(got, expected);
    }

    const BOARD: &str = "http://f.test/board?id=1";
    const FIRST: &str = "http://f.test/topic?id=5";
    const SECOND: &str = "http://f.test/topic?id=5&page=2";

    fn board_listing(titles: &[(&str, &str)]) -> StoredPage {
        let mut board = page(BOARD, "thread-list", 200, 1);
        board.record.thread_entries = titles
            .iter()
            .map(|(title, url)| ThreadEntryRecord {
                title: title.to_string(),
                url: url.to_string(),
                ..ThreadEntryRecord::default()
            })
            .collect();
        board
    }

    #[test]
    fn threads_are_put_back_together_and_named_by_their_board() {
        let first_permalink = format!("{FIRST}#p2");
        let second_permalink = format!("{SECOND}#p2");
        check_threads(
            &[
                board_listing(&[("Hello", &format!("{FIRST}#unread"))]),
                with_posts(
                    with_next(page(FIRST, "thread", 200, 2), SECOND),
                    &[("one", Some("x#p1")), ("two", Some(&first_permalink))],
                ),
                // The last post of page 1 shown again atop page 2.
                with_posts(
                    page(SECOND, "thread", 200, 3),
                    &[("two", Some(&second_permalink)), ("three", Some("x#p3"))],
                ),
            ],
            &[(Some("Hello"), Some(BOARD), &["one", "two", "three"])],
        );
        // No board entry: the page's title; no permalinks: author, time and text.
        let mut lone = with_posts(page(FIRST, "thread", 200, 2), &[("a", None), ("a", None)]);
        lone.record.title = Some("Page title".into());
        check_threads(&[lone], &[(Some("Page title"), None, &["a"])]);
        // A breadth-first crawl: every page with posts on its own.
        check_threads(
            &[
                with_posts(page(FIRST, "", 200, 2), &[("x", None)]),
                page(BOARD, "", 200, 3),
            ],
            &[(None, None, &["x"])],
        );
        // A revisit's new posts join the thread.
        check_threads(
            &[
                with_posts(page(FIRST, "thread", 200, 2), &[("one", Some("a#p1"))]),
                with_posts(
                    page(FIRST, "thread", 200, 9),
                    &[("one", Some("a#p1")), ("new", Some("a#p9"))],
                ),
            ],
            &[(None, None, &["one", "new"])],
        );
    }

    #[test]
    fn the_cache_reads_only_the_pages_fetched_since() {
        let path =
            std::env::temp_dir().join(format!("trawl-console-cache-{}.db", std::process::id()));
        trawl_store::remove_database_files(&path);
        let mut store = Store::open(&path).unwrap();
        store
            .begin_crawl(
                &CrawlSettings {
                    portal: BOARD.into(),
                    strategy: "plan".into(),
                    plan_json: None,
                    plan_generation: 0,
                    started_at: at(0),
                    order: None,
                    patterns_json: None,
                },
                &trawl_store::FrontierEntry {
                    url: BOARD.into(),
                    depth: 0,
                    redirects: 0,
                },
            )
            .unwrap();
        let record = |store: &mut Store, page: StoredPage| {
            let url = page.record.url.clone();
            store
                .record_fetch(&trawl_store::FetchOutcome {
                    page: page.record,
                    frontier_url: url,
                    requeued: false,
                    queued: Vec::new(),
                    cookies: None,
                    skipped: Vec::new(),
                })
                .unwrap();
        };
        let cache = Arc::new(Cache::default());
        record(&mut store, board_listing(&[("Hello", FIRST)]));
        record(
            &mut store,
            with_posts(
                with_next(page(FIRST, "thread", 200, 2), SECOND),
                &[("one", None)],
            ),
        );
        let before = cache.pages("site", &store).unwrap();
        let threads_before = cache.threads("site", &before);
        assert_eq!((threads_before.pages, threads_before.threads.len()), (2, 1));
        assert_eq!((before.count, before.threads().len()), (2, 1));
        assert_eq!(before.posts_of(&before.threads()[0]).len(), 1);
        // Asked again unchanged: the very same reading.
        assert!(Arc::ptr_eq(&before, &cache.pages("site", &store).unwrap()));
        // The thread's second page arrives: read alone, joined to the thread read before.
        record(
            &mut store,
            with_posts(
                with_next(page(SECOND, "thread", 200, 3), FIRST),
                &[("two", None)],
            ),
        );
        let after = cache.pages("site", &store).unwrap();
        // The threads made before are shown while the new ones are put together apart.
        let shown_first = cache.threads("site", &after);
        assert_eq!(shown_first.pages, 2);
        let started = std::time::Instant::now();
        let shown_later = loop {
            let shown = cache.threads("site", &after);
            if shown.pages == 3 {
                break shown;
            }
            assert!(
                started.elapsed().as_secs() < 30,
                "the threads were never made again"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        assert_eq!(shown_later.threads[0].pages, vec![1, 2]);
        assert_eq!((after.count, after.threads().len()), (3, 1));
        assert_eq!(after.threads()[0].pages, vec![1, 2]);
        assert_eq!(after.posts_of(&after.threads()[0]).len(), 2);
        assert_eq!(after.fetches_of_url[SECOND], vec![2]);
        assert_eq!(
            after.pages.iter().map(|page| page.id).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        // The reading held by an earlier view is left as it was.
        assert_eq!(before.count, 2);
        drop(store);
        trawl_store::remove_database_files(&path);
    }
}
