//! How long each view of the console takes on a crawl of 100,000 pages, the bar of issue 23
//! (under 300 ms a view).
//!
//! The crawl is made, not crawled: a plan learned from a small simulated phpBB forum, and
//! 100,000 pages stored as a crawl of a big forum would store them (boards of 20 thread entries
//! a page joined by their pagers, threads of 10 posts a page joined by theirs, a few failed
//! fetches, URLs left waiting), written straight through the store. The store is made once
//! under target/ and kept for later runs. Each view is asked once cold (the console reading the
//! store's pages for the first time) and then five times warm; the table gives both.

use std::path::PathBuf;
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
/// Bumped when the made crawl changes, so an old file is made again.
const STORE_VERSION: u32 = 1;

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

fn store_path() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join(format!("console-bench-{PAGES}-v{STORE_VERSION}.db"))
}

fn make_store(path: &PathBuf) {
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
            let failed = records.len() % 500 == 0;
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

fn main() {
    let path = store_path();
    if !path.exists() {
        let started = Instant::now();
        make_store(&path);
        eprintln!(
            "made {} in {:.1} s",
            path.display(),
            started.elapsed().as_secs_f64()
        );
    }
    let location = StoreLocation::File(path.clone());
    let pages = Store::open_read_only(&path).unwrap().page_count().unwrap();
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
    let first_thread = format!(
        "/thread?url={}",
        url::form_urlencoded::byte_serialize(thread_url(0, 0).as_bytes()).collect::<String>()
    );
    let a_page = format!(
        "/page?url={}",
        url::form_urlencoded::byte_serialize(board_url(3, 2).as_bytes()).collect::<String>()
    );
    let views = [
        "/",
        "/plan",
        "/plan.svg",
        "/vertex/0",
        "/audit",
        "/threads",
        "/threads?from=50000",
        first_thread.as_str(),
        a_page.as_str(),
    ];
    println!(
        "console views on a crawl of {pages} pages (ms): cold is the first request, warm the median of five after it"
    );
    println!("{:<28} {:>10} {:>10}", "view", "cold", "warm");
    for view in views {
        let cold = time_get(&agent, &format!("{base}{view}"));
        let mut warm: Vec<Duration> = (0..5)
            .map(|_| time_get(&agent, &format!("{base}{view}")))
            .collect();
        warm.sort();
        let shown: String = view.chars().take(28).collect();
        println!(
            "{shown:<28} {:>10.1} {:>10.1}",
            cold.as_secs_f64() * 1000.0,
            warm[2].as_secs_f64() * 1000.0
        );
    }
    console.stop();
}
