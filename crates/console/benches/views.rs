//! How long each view of the console takes on a crawl of 100,000 pages, the bar of issue 23
//! (under 300 ms a view).
//!
//! The crawl is made, not crawled: a plan learned from a small simulated phpBB forum, and
//! 100,000 pages stored as a crawl of a big forum would store them (boards of 20 thread entries
//! a page joined by their pagers, threads of 10 posts a page joined by theirs, a few failed
//! fetches, URLs left waiting), written straight through the store under target/ and removed at
//! the end. The console reads the crawl's pages when it starts, on a thread of its own: the
//! first view answers meanwhile (the overview, from the totals the store keeps), and the time
//! until the pages are read is measured apart, and so is a new audit alone (`audit_store`, which
//! reads the store's audit digests of pages). Then each view is asked five times (median and slowest), and the
//! overview once more after 1,000 pages were added, which it reads alone.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use trawl_console::ConsoleOptions;
use trawl_eval::learning::{SIM_ORIGIN, learn_in_process};
use trawl_learn::sitemap::Role;
use trawl_learn::traverse::Strategy;
use trawl_sim::{FamilyName, Scale, Site, SiteConfig};
use trawl_store::{
    CrawlSettings, FetchOutcome, FrontierEntry, PageRecord, PostRecord, Store, StoreLocation,
    ThreadEntryRecord,
};

const PAGES: usize = 100_000;
const BOARDS: usize = 50;
const BOARD_PAGES: usize = 40;
const ENTRIES_PER_BOARD_PAGE: usize = 20;
const POSTS_PER_PAGE: usize = 10;
/// In the file's name, bumped when the made crawl changes.
const STORE_VERSION: u32 = 2;

fn board_url(board: usize, page: usize) -> String {
    format!(
        "{SIM_ORIGIN}/viewforum.php?f={board}&start={}",
        page * ENTRIES_PER_BOARD_PAGE
    )
}

fn thread_url(thread: usize, page: usize) -> String {
    format!(
        "{SIM_ORIGIN}/viewtopic.php?t={thread}&start={}",
        page * POSTS_PER_PAGE
    )
}

/// Where the made crawl is written: under the workspace's target directory, removed after.
fn store_path() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join(format!("console-bench-{PAGES}-v{STORE_VERSION}.db"))
}

fn make_store(path: &Path) {
    let site = Arc::new(Site::build(SiteConfig::new(
        FamilyName::Phpbb,
        1,
        Scale::Small,
    )));
    let (learned, _, _) = learn_in_process(&site, 200, 1, Strategy::Skeleton).unwrap();
    let plan = learned.plan;
    let vertex_of = |role: Role| {
        plan.vertices
            .iter()
            .find(|vertex| vertex.role == role)
            .map(|vertex| vertex.id as u32)
    };
    let (board_vertex, thread_vertex) = (vertex_of(Role::ThreadList), vertex_of(Role::Thread));
    trawl_store::remove_database_files(path);
    let mut store = Store::open(path).unwrap();
    let portal = format!("{SIM_ORIGIN}/index.php");
    let started_at = jiff::Timestamp::from_second(1_700_000_000).unwrap();
    store
        .begin_crawl(
            &CrawlSettings {
                portal: portal.clone(),
                strategy: "plan".into(),
                plan_json: Some(plan.to_json()),
                plan_generation: 0,
                started_at,
                order: Some("queue".into()),
                patterns_json: None,
            },
            &FrontierEntry {
                url: portal.clone(),
                depth: 0,
                redirects: 0,
            },
        )
        .unwrap();
    let thread_pages = PAGES - 1 - BOARDS * BOARD_PAGES;
    let threads = BOARDS * BOARD_PAGES * ENTRIES_PER_BOARD_PAGE;
    let pages_per_thread = thread_pages.div_ceil(threads);
    let mut records: Vec<(PageRecord, String)> = Vec::with_capacity(PAGES);
    records.push((
        PageRecord {
            url: portal.clone(),
            status: 200,
            role: Some("portal".into()),
            ..PageRecord::default()
        },
        portal,
    ));
    for board in 0..BOARDS {
        for page in 0..BOARD_PAGES {
            let url = board_url(board, page);
            let first_thread = (board * BOARD_PAGES + page) * ENTRIES_PER_BOARD_PAGE;
            records.push((
                PageRecord {
                    url: url.clone(),
                    status: 200,
                    vertex: board_vertex,
                    role: Some("thread-list".into()),
                    title: Some(format!("Board {board}")),
                    list_links: [
                        page.checked_sub(1),
                        Some(page + 1).filter(|next| *next < BOARD_PAGES),
                    ]
                    .into_iter()
                    .flatten()
                    .map(|other| board_url(board, other))
                    .collect(),
                    thread_entries: (first_thread..first_thread + ENTRIES_PER_BOARD_PAGE)
                        .map(|thread| ThreadEntryRecord {
                            title: format!("Thread number {thread}"),
                            url: thread_url(thread, 0),
                            author: Some(format!("member{}", thread % 997)),
                            replies: Some((pages_per_thread * POSTS_PER_PAGE - 1) as u64),
                            last_reply: Some("2024-03-01T10:00:00".into()),
                        })
                        .collect(),
                    ..PageRecord::default()
                },
                url,
            ));
        }
    }
    'threads: for thread in 0..threads {
        for page in 0..pages_per_thread {
            if records.len() == PAGES {
                break 'threads;
            }
            let url = thread_url(thread, page);
            // One fetch in 500 failed.
            let failed = records.len().is_multiple_of(500);
            records.push((
                PageRecord {
                    url: url.clone(),
                    status: if failed { 0 } else { 200 },
                    error: failed.then(|| "connection reset".to_string()),
                    vertex: thread_vertex,
                    role: Some("thread".into()),
                    title: Some(format!("Thread number {thread}")),
                    list_links: [
                        page.checked_sub(1),
                        Some(page + 1).filter(|next| *next < pages_per_thread),
                    ]
                    .into_iter()
                    .flatten()
                    .map(|other| thread_url(thread, other))
                    .collect(),
                    posts: if failed {
                        Vec::new()
                    } else {
                        (0..POSTS_PER_PAGE)
                            .map(|post| PostRecord {
                                author: Some(format!("member{}", (thread + post) % 997)),
                                time: Some(format!("2024-03-01T{:02}:{:02}:00", post, page % 60)),
                                text: format!(
                                    "Post {post} of page {page} of thread {thread}: a reply of \
                                     about the length forum replies have, a sentence or two."
                                ),
                                permalink: Some(format!(
                                    "{url}#p{}",
                                    thread * 1000 + page * 10 + post
                                )),
                            })
                            .collect()
                    },
                    ..PageRecord::default()
                },
                url,
            ));
        }
    }
    let waiting: Vec<FrontierEntry> = (0..500)
        .map(|index| FrontierEntry {
            url: thread_url(threads + index, 0),
            depth: 3,
            redirects: 0,
        })
        .collect();
    let count = records.len();
    let mut outcomes: Vec<FetchOutcome> = records
        .into_iter()
        .enumerate()
        .map(|(index, (mut page, url))| {
            page.fetched_at = started_at + Duration::from_millis(500 * index as u64);
            page.depth = u32::from(index > 0) + u32::from(index > BOARDS * BOARD_PAGES);
            FetchOutcome {
                page,
                frontier_url: url,
                requeued: false,
                queued: Vec::new(),
                cookies: None,
                skipped: Vec::new(),
            }
        })
        .collect();
    // Each page queues the next one, as a crawl does, so every fetch answers a frontier URL.
    for index in 0..count.saturating_sub(1) {
        let next = outcomes[index + 1].frontier_url.clone();
        outcomes[index].queued.push(FrontierEntry {
            url: next,
            depth: 1,
            redirects: 0,
        });
    }
    if let Some(last) = outcomes.last_mut() {
        last.queued = waiting;
    }
    for batch in outcomes.chunks(1000) {
        store.record_fetches(batch).unwrap();
    }
}

fn time_get(agent: &ureq::Agent, url: &str) -> Duration {
    let started = Instant::now();
    let mut response = agent.get(url).call().unwrap();
    let status = response.status().as_u16();
    let _ = response.body_mut().read_to_vec().unwrap();
    let elapsed = started.elapsed();
    assert_eq!(status, 200, "{url}");
    elapsed
}

/// Asks `url` until its page shows the store as it is (neither being made nor older than the
/// store); the time it took.
fn time_until_current(agent: &ureq::Agent, url: &str) -> Duration {
    let started = Instant::now();
    loop {
        let mut response = agent.get(url).call().unwrap();
        let page = response.body_mut().read_to_string().unwrap();
        if !page.contains("id=\"making\"")
            && !page.contains("id=\"stale\"")
            && !page.contains("id=\"reading\"")
        {
            return started.elapsed();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Stores `count` more thread pages at the end of the crawl, as a crawl going on would.
fn add_pages(path: &Path, count: usize) {
    let mut store = Store::open(path).unwrap();
    let first = store.page_count().unwrap();
    let outcomes: Vec<FetchOutcome> = (0..count)
        .map(|index| {
            let url = format!(
                "{SIM_ORIGIN}/viewtopic.php?t=900000&start={}",
                (first + index) * POSTS_PER_PAGE
            );
            FetchOutcome {
                page: PageRecord {
                    url: url.clone(),
                    status: 200,
                    role: Some("thread".into()),
                    fetched_at: jiff::Timestamp::from_second(1_800_000_000).unwrap(),
                    posts: (0..POSTS_PER_PAGE)
                        .map(|post| PostRecord {
                            text: format!("added post {post}"),
                            ..PostRecord::default()
                        })
                        .collect(),
                    ..PageRecord::default()
                },
                frontier_url: url,
                requeued: false,
                queued: Vec::new(),
                cookies: None,
                skipped: Vec::new(),
            }
        })
        .collect();
    store.record_fetches(&outcomes).unwrap();
}

/// The CPU time this thread has used (user and system, in the kernel's ticks of 10 ms), read
/// from /proc: wall times on a loaded machine say little, CPU times compare.
fn thread_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // The fields after the command's closing parenthesis: utime and stime are the 12th and
    // 13th of them.
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |index: usize| {
        fields
            .get(index)
            .and_then(|field| field.parse::<u64>().ok())
    };
    let total = ticks(11).unwrap_or(0) + ticks(12).unwrap_or(0);
    Duration::from_millis(total * 10)
}

fn milliseconds(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn main() {
    let path = store_path();
    // The made crawl is made again every run, as this run adds pages to it.
    let started = Instant::now();
    make_store(&path);
    eprintln!(
        "made {} in {:.1} s",
        path.display(),
        started.elapsed().as_secs_f64()
    );
    let location = StoreLocation::File(path.clone());
    let pages = Store::open_read_only(&path).unwrap().page_count().unwrap();
    // A new audit alone, as the console's audit thread makes it (the store opened read only,
    // its pages read from their audit digests): three times, the median shown.
    let mut audits: Vec<(Duration, Duration)> = (0..3)
        .map(|_| {
            let started = Instant::now();
            let cpu = thread_cpu();
            let store = Store::open_read_only(&path).unwrap();
            let report = trawl_run::audit_store(&store).unwrap();
            let elapsed = started.elapsed();
            assert_eq!(report.totals.pages_fetched, pages);
            (thread_cpu() - cpu, elapsed)
        })
        .collect();
    audits.sort();
    // Its parts: the crawler rebuilt from the store (for its spellings), the pages' digests,
    // and the frontier's unfetched URLs; the audit proper is the rest.
    let store = Store::open_read_only(&path).unwrap();
    let started = thread_cpu();
    let _crawler = trawl_run::stored_crawler(&store).unwrap();
    let crawler_time = thread_cpu() - started;
    let started = thread_cpu();
    let digests = store.audit_pages().unwrap();
    let digests_time = thread_cpu() - started;
    let started = thread_cpu();
    let frontier = store.unfetched_frontier().unwrap();
    let frontier_time = thread_cpu() - started;
    println!(
        "its parts in CPU time: the crawler rebuilt {:.0} ms, {} pages' digests read {:.0} ms, \
         the frontier's {} unfetched URLs {:.0} ms",
        milliseconds(crawler_time),
        digests.len(),
        milliseconds(digests_time),
        frontier.waiting.len() + frontier.passed_over.len(),
        milliseconds(frontier_time)
    );
    drop((digests, frontier));
    // The audit as it was made before the digests, from the pages themselves (every list
    // page's body scanned for its links, every post's text read), for comparison.
    let started = thread_cpu();
    let before = trawl_run::audit_of_stored_pages(&store).unwrap();
    let before_time = thread_cpu() - started;
    println!(
        "the same audit read from the pages themselves (as before the digests): CPU {:.0} ms",
        milliseconds(before_time)
    );
    assert_eq!(
        before,
        trawl_run::audit_store(&store).unwrap(),
        "the audit from the digests is the audit from the pages"
    );
    // What the report says, in short, and a fingerprint of all of it (the standard library's
    // hasher of fixed keys over its debug text), so that two versions' reports compare.
    let fingerprint = {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        format!("{before:?}").hash(&mut hasher);
        hasher.finish()
    };
    println!(
        "the report: {} gaps, {} threads with posts unread, fingerprint {fingerprint:016x}",
        before.gaps.len(),
        before.unread.len()
    );
    drop(store);
    println!(
        "a new audit of the {pages} pages (trawl_run::audit_store): CPU median {:.0} ms, \
         slowest {:.0} (wall {:.0} and {:.0})",
        milliseconds(audits[1].0),
        milliseconds(audits[2].0),
        milliseconds(audits[1].1),
        milliseconds(audits[2].1)
    );
    let started = Instant::now();
    let console = trawl_console::start(ConsoleOptions {
        location,
        address: "127.0.0.1:0".parse().unwrap(),
        token: None,
    })
    .unwrap();
    let base = format!("http://{}/site/0", console.address());
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(600)))
        .build()
        .into();
    let thread_query =
        url::form_urlencoded::byte_serialize(thread_url(0, 0).as_bytes()).collect::<String>();
    let page_query =
        url::form_urlencoded::byte_serialize(board_url(3, 2).as_bytes()).collect::<String>();
    let first_thread = format!("/thread?url={thread_query}");
    let a_page = format!("/page?url={page_query}");
    // The first view answers at once from the totals the store keeps while the pages are read
    // on a thread of their own; then the time until they are read (a stored page is shown
    // from them), and the first audit made.
    let first = time_get(&agent, &format!("{base}/"));
    let first_view_since_start = started.elapsed();
    let read = time_until_current(&agent, &format!("{base}{a_page}"));
    let since_start = started.elapsed();
    let audited = time_until_current(&agent, &format!("{base}/audit"));
    let views = [
        "/",
        "/plan",
        "/plan.svg",
        "/vertex/0",
        "/audit",
        "/threads",
        "/threads?from=50000",
        "/freshness",
        first_thread.as_str(),
        a_page.as_str(),
    ];
    println!("console views on a crawl of {pages} pages (ms)");
    println!(
        "start to the first view answered: {:.0} (its request {:.0}); pages read {:.0} after \
         it ({:.0} from start); the audit made after that: {:.0}",
        milliseconds(first_view_since_start),
        milliseconds(first),
        milliseconds(read),
        milliseconds(since_start),
        milliseconds(audited)
    );
    println!("{:<28} {:>10} {:>10}", "view", "median", "slowest");
    let every_view = |label: &str| {
        for view in views {
            let mut times: Vec<Duration> = (0..5)
                .map(|_| time_get(&agent, &format!("{base}{view}")))
                .collect();
            times.sort();
            let shown: String = format!("{label}{view}").chars().take(28).collect();
            println!(
                "{shown:<28} {:>10.1} {:>10.1}",
                milliseconds(times[2]),
                milliseconds(times[4])
            );
        }
    };
    every_view("");
    // A crawl going on: 1,000 pages more, read alone by the next view.
    add_pages(&path, 1_000);
    let caught_up = time_get(&agent, &format!("{base}/"));
    let threads_again = time_get(&agent, &format!("{base}/threads"));
    let threads_current = time_until_current(&agent, &format!("{base}/threads"));
    let audit_again = time_get(&agent, &format!("{base}/audit"));
    let audit_current = time_until_current(&agent, &format!("{base}/audit"));
    println!(
        "after 1,000 pages more: the overview catching up {:.1}; the threads view (the last \
         threads, new ones begun) {:.1}, current after {:.0}; the audit view (the last audit, a \
         new one begun) {:.1}, current after {:.0}",
        milliseconds(caught_up),
        milliseconds(threads_again),
        milliseconds(threads_current),
        milliseconds(audit_again),
        milliseconds(audit_current)
    );
    console.stop();
    trawl_store::remove_database_files(&path);
}
