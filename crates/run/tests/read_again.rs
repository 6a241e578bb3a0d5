//! A page read before its vertex's post patterns were known is read again (issue 18, LBForum):
//! a hand-made forum shows a thread's opening post apart, above its replies, so a thread of one
//! reply has no repeating region and its reply is found only through the pattern the replies of
//! other threads repeat in. Whether that thread's page is the first thread page the crawl
//! fetches or the last, every post is stored once; and a crawl stopped before the page was read
//! again reads it when it is run again.

use std::collections::BTreeMap;
use std::path::PathBuf;

use jiff::Timestamp;
use trawl_crawl::{CrawlStrategy, Crawler};
use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, FetchError, FetchRequest, FetchResponse, Fetcher, FixedClock};
use trawl_run::{DriveOptions, drive, resume_crawler};
use trawl_store::{CrawlSettings, FrontierEntry, PostRecord, Store, remove_database_files};
use url::Url;

const ORIGIN: &str = "http://lone-replies.test";
const BOARDS: usize = 3;
const THREADS_PER_BOARD: usize = 8;

/// Where the threads of one reply are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LoneReplies {
    /// First in every board: the first thread page fetched holds two posts, and no page of the
    /// vertex has yet shown where replies repeat.
    First,
    /// Last in every board: the replies' pattern is known when they are fetched.
    Last,
}

/// A small forum whose threads show the opening post apart from the replies.
struct Forum {
    lone_replies: LoneReplies,
}

const WORDS: [&str; 24] = [
    "valve", "gasket", "pressure", "winter", "garden", "ladder", "copper", "timber", "window",
    "plaster", "boiler", "hinge", "mortar", "gutter", "shelf", "drill", "primer", "fence",
    "varnish", "radiator", "chimney", "roof", "tile", "grout",
];

/// A sentence of made-up advice, different for every `seed`.
fn message(seed: usize, length: usize) -> String {
    let words: Vec<&str> = (0..length)
        .map(|index| WORDS[(seed * 7 + index * 5 + index * index * 3) % WORDS.len()])
        .collect();
    format!("Post {seed} says: {}.", words.join(" "))
}

impl Forum {
    /// A thread's title, in words: boards listing threads whose titles differ only by their
    /// numbers would be one page to the sampler's duplicate test.
    fn title(thread: usize) -> String {
        format!(
            "How do I fix the {} {}",
            WORDS[(thread * 5) % WORDS.len()],
            WORDS[(thread * 11 + 3) % WORDS.len()]
        )
    }

    fn thread_number(board: usize, position: usize) -> usize {
        board * 100 + position
    }

    /// Replies of the thread at `position` of its board: one for the thread of one reply, two to
    /// four for the others.
    fn replies_of(&self, position: usize) -> usize {
        let lone = match self.lone_replies {
            LoneReplies::First => 0,
            LoneReplies::Last => THREADS_PER_BOARD - 1,
        };
        if position == lone {
            1
        } else {
            2 + position % 3
        }
    }

    /// Every thread's posts as (author, text), opening post first.
    fn posts(&self) -> BTreeMap<usize, Vec<(String, String)>> {
        let mut threads = BTreeMap::new();
        for board in 1..=BOARDS {
            for position in 0..THREADS_PER_BOARD {
                let thread = Forum::thread_number(board, position);
                let mut posts = vec![(format!("starter{thread}"), message(thread * 10, 18))];
                for reply in 1..=self.replies_of(position) {
                    posts.push((
                        format!("member{}", (thread + reply) % 7),
                        message(thread * 10 + reply, 14 + reply),
                    ));
                }
                threads.insert(thread, posts);
            }
        }
        threads
    }

    fn frame(title: &str, content: &str) -> String {
        format!(
            "<html><head><title>{title} - Lone Replies Forum</title></head><body>\
             <div class=\"header\"><a href=\"/\">Lone Replies Forum</a> <a href=\"/search/\">Search</a></div>\
             {content}<div class=\"footer\">Powered by a forum nobody has seen</div></body></html>"
        )
    }

    fn portal(&self) -> String {
        let boards: String = (1..=BOARDS)
            .map(|board| {
                format!(
                    "<tr class=\"board\"><td><a href=\"/board/{board}/\">Board number {board}</a>\
                     <p>Questions and answers about part {board} of the house.</p></td>\
                     <td class=\"count\">{THREADS_PER_BOARD}</td></tr>"
                )
            })
            .collect();
        Forum::frame(
            "Boards",
            &format!("<table class=\"boards\">{boards}</table>"),
        )
    }

    fn board(&self, board: usize) -> String {
        let rows: String = (0..THREADS_PER_BOARD)
            .map(|position| {
                let thread = Forum::thread_number(board, position);
                format!(
                    "<tr class=\"topic\"><td><a href=\"/topic/{thread}/\">{}</a></td>\
                     <td class=\"starter\">starter{thread}</td><td class=\"replies\">{}</td>\
                     <td class=\"last\">Jan. {}, 2025</td></tr>",
                    Forum::title(thread),
                    self.replies_of(position),
                    position + 2
                )
            })
            .collect();
        Forum::frame(
            &format!("Board number {board}"),
            &format!(
                "<div class=\"crumbs\"><a href=\"/\">Boards</a> / Board number {board}</div>\
                 <table class=\"topics\">{rows}</table>"
            ),
        )
    }

    fn thread(&self, thread: usize) -> Option<String> {
        let posts = self.posts().remove(&thread)?;
        let board = thread / 100;
        let (starter, opening) = &posts[0];
        let title = Forum::title(thread);
        let replies: String = posts[1..]
            .iter()
            .enumerate()
            .map(|(index, (author, text))| {
                format!(
                    "<div class=\"reply\"><div class=\"poster\"><a href=\"/member/{author}/\">{author}</a></div>\
                     <div class=\"body\"><span class=\"date\">Jan. {}, 2025, 4:1{index} p.m.</span>\
                     <p>{text}</p></div></div>",
                    index + 5
                )
            })
            .collect();
        Some(Forum::frame(
            &Forum::title(thread),
            &format!(
                "<div class=\"crumbs\"><a href=\"/\">Boards</a> / <a href=\"/board/{board}/\">Board number {board}</a></div>\
                 <div class=\"opening\"><h1>{title}</h1>\
                 <p class=\"by\">By <a href=\"/member/{starter}/\">{starter}</a> at Jan. 4, 2025, 9:05 a.m.</p>\
                 <div class=\"message\">{opening}</div></div>\
                 <div class=\"replies\">{replies}</div>"
            ),
        ))
    }

    fn answer(&self, url: &Url) -> Option<String> {
        let segments: Vec<&str> = url.path().trim_matches('/').split('/').collect();
        match segments.as_slice() {
            [""] => Some(self.portal()),
            ["board", board] => {
                let board: usize = board.parse().ok()?;
                (1..=BOARDS).contains(&board).then(|| self.board(board))
            }
            ["topic", thread] => self.thread(thread.parse().ok()?),
            _ => None,
        }
    }
}

impl Fetcher for Forum {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let url = Url::parse(&request.url).expect("absolute URLs are asked for");
        let (status, body) = match self.answer(&url) {
            Some(body) => (200, body),
            None => (404, Forum::frame("Not found", "<h1>Not found</h1>")),
        };
        Ok(FetchResponse {
            url: request.url.clone(),
            status,
            headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
            body: body.into_bytes(),
            fetched_at: request.at,
        })
    }
}

fn now() -> Timestamp {
    Timestamp::from_second(1_736_000_000).unwrap()
}

/// A store file of its own, removed when dropped.
struct TemporaryStore(PathBuf);

impl TemporaryStore {
    fn new(name: &str) -> TemporaryStore {
        let path =
            std::env::temp_dir().join(format!("trawl-read-again-{}-{name}.db", std::process::id()));
        remove_database_files(&path);
        TemporaryStore(path)
    }
}

impl Drop for TemporaryStore {
    fn drop(&mut self) {
        remove_database_files(&self.0);
    }
}

fn portal() -> Url {
    Url::parse(&format!("{ORIGIN}/")).unwrap()
}

/// The plan learned by sampling the whole forum.
fn learned_plan(forum: &Forum) -> CrawlStrategy {
    let options = SampleOptions {
        max_pages: 60,
        seed: 1,
        delay: NO_DELAY,
        ..SampleOptions::default()
    };
    let pages = sample_site(forum, &FixedClock::new(now()), portal(), &options, |_| {})
        .expect("the portal answers");
    let plan = trawl_learn::learn(&portal(), pages, Strategy::Skeleton).plan;
    CrawlStrategy::Plan(Box::new(plan))
}

/// Drives `crawler` to its end on `forum`, storing into `store`; returns the pages read again.
fn drive_to_the_end(store: &mut Store, crawler: &mut Crawler, forum: &Forum) -> usize {
    let fetcher = CookieJarFetcher::new(forum);
    let options = DriveOptions {
        max_pages: None,
        workers: 2,
        paced: false,
    };
    let (_, progress) = drive(
        store,
        crawler,
        &fetcher,
        &FixedClock::new(now()),
        options,
        |_| {},
    )
    .expect("the crawl is stored");
    progress.pages_read_again_this_run
}

/// Posts of the forum the store lacks, and posts it holds more than once, by their texts.
fn missing_and_doubled(store: &Store, forum: &Forum) -> (Vec<String>, Vec<String>) {
    let mut stored: Vec<PostRecord> = Vec::new();
    store
        .for_each_page(false, |page| stored.extend(page.record.posts))
        .unwrap();
    let mut missing = Vec::new();
    let mut doubled = Vec::new();
    for (_, text) in forum.posts().into_values().flatten() {
        match stored
            .iter()
            .filter(|post| post.text.contains(&text))
            .count()
        {
            0 => missing.push(text),
            1 => {}
            _ => doubled.push(text),
        }
    }
    (missing, doubled)
}

/// A new store at `file` holding the beginning of a crawl of the forum with `strategy`.
fn begun_store(file: &TemporaryStore, strategy: &CrawlStrategy) -> Store {
    let mut store = Store::open(&file.0).unwrap();
    let CrawlStrategy::Plan(plan) = strategy else {
        panic!("the forum is crawled by its plan");
    };
    let settings = CrawlSettings {
        portal: portal().to_string(),
        strategy: "plan".into(),
        plan_json: Some(plan.to_json()),
        plan_generation: 0,
        started_at: now(),
        order: Some("queue".into()),
        patterns_json: None,
    };
    let entry = FrontierEntry {
        url: portal().to_string(),
        depth: 0,
        redirects: 0,
    };
    store.begin_crawl(&settings, &entry).unwrap();
    store
}

fn check(lone_replies: LoneReplies) {
    let forum = Forum { lone_replies };
    let strategy = learned_plan(&forum);
    let file = TemporaryStore::new(&format!("{lone_replies:?}"));
    let mut store = begun_store(&file, &strategy);
    let mut crawler = Crawler::new(portal(), strategy);
    drive_to_the_end(&mut store, &mut crawler, &forum);
    let (missing, doubled) = missing_and_doubled(&store, &forum);
    assert_eq!(
        (missing, doubled),
        (Vec::<String>::new(), Vec::<String>::new()),
        "{lone_replies:?}"
    );
}

#[test]
fn threads_of_one_reply_fetched_before_any_other_thread_keep_their_reply() {
    check(LoneReplies::First);
}

#[test]
fn threads_of_one_reply_fetched_after_the_others_keep_their_reply() {
    check(LoneReplies::Last);
}

#[test]
fn a_crawl_stopped_before_its_pages_were_read_again_reads_them_when_run_again() {
    let forum = Forum {
        lone_replies: LoneReplies::First,
    };
    let strategy = learned_plan(&forum);
    let file = TemporaryStore::new("stopped");
    let mut store = begun_store(&file, &strategy);
    let mut crawler = Crawler::new(portal(), strategy.clone());
    let read_again = drive_to_the_end(&mut store, &mut crawler, &forum);
    assert_eq!(
        read_again, 1,
        "the first thread page fetched, of one reply, came before any page showed the replies' pattern"
    );
    // The store as a drive killed after its last fetch and before reading again left it: the
    // first thread of one reply fetched holds its opening post alone (the others were fetched
    // once the pattern was known, and read whole).
    let mut lone_pages: Vec<(i64, PostRecord)> = Vec::new();
    store
        .for_each_page(false, |page| {
            if page.record.url.ends_with("00/") {
                lone_pages.push((page.id, page.record.posts[0].clone()));
            }
        })
        .unwrap();
    assert_eq!(lone_pages.len(), BOARDS);
    let (id, opening) = lone_pages.iter().min_by_key(|(id, _)| *id).unwrap();
    store
        .replace_posts(*id, std::slice::from_ref(opening))
        .unwrap();
    assert_eq!(missing_and_doubled(&store, &forum).0.len(), 1);
    drop((store, crawler));

    let mut store = Store::open(&file.0).unwrap();
    let mut crawler = resume_crawler(&store, &portal(), strategy).unwrap();
    assert_eq!(
        drive_to_the_end(&mut store, &mut crawler, &forum),
        1,
        "the run again fetches nothing and reads the page again"
    );
    let (missing, doubled) = missing_and_doubled(&store, &forum);
    assert_eq!(
        (missing, doubled),
        (Vec::<String>::new(), Vec::<String>::new())
    );
    // A third run finds nothing more to read.
    let mut crawler = resume_crawler(&store, &portal(), crawler.strategy().clone()).unwrap();
    assert_eq!(drive_to_the_end(&mut store, &mut crawler, &forum), 0);
}
