//! `trawl crawl` and `trawl export` run as a user runs them, against simulated forums served
//! over loopback HTTP; and the crash test: a crawl killed at random points, resumed each time,
//! must end with the same store as a crawl never interrupted.

use std::path::Path;
use std::process::Command;

mod support;
use std::time::{Duration, Instant};
use support::{
    learn_plan, path, repeated_paths, scratch, serve, serve_logged, serve_site, text, trawl,
};

fn export(db: &Path, what: &str) -> Vec<serde_json::Value> {
    let output = trawl(&["export", "--db", path(db), what]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// Crawls `portal` into `db` with `trawl crawl`, learning from `samples` pages and with no delay
/// between requests, and checks that it succeeds and says the crawl is complete.
#[track_caller]
fn crawl_to_completion(portal: &str, db: &Path, samples: &str) {
    let output = trawl(&[
        "crawl",
        portal,
        "--db",
        path(db),
        "--samples",
        samples,
        "--delay-ms",
        "0",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("crawl complete"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn a_crawl_exports_threads_in_page_order_with_their_posts() {
    let (server, site) = serve("phpbb", 2);
    let directory = scratch("crawl", "export");
    let db = directory.join("crawl.db");
    let portal = format!("{}{}", server.origin(), site.portal_path());
    crawl_to_completion(&portal, &db, "200");

    let threads = export(&db, "threads");
    let thread_count = site.history().thread_count() as usize;
    assert!(
        threads.len() * 100 >= thread_count * 95,
        "{} of {thread_count} threads exported",
        threads.len()
    );
    let mut posts = 0;
    let mut with_board = 0;
    let mut without_posts = 0;
    for thread in &threads {
        let url = &thread["url"];
        let pages: Vec<&str> = thread["pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|page| page.as_str().unwrap())
            .collect();
        assert_eq!(url.as_str(), Some(pages[0]));
        assert!(thread["title"].is_string(), "{url}");
        // A thread reached only through a shortcut (the portal's latest threads) has no board
        // when its board page was not crawled.
        with_board += usize::from(thread["board"].is_string());
        // Later pages carry growing offsets; the first has none.
        let offsets: Vec<u64> = pages
            .iter()
            .map(|page| {
                page.split("start=")
                    .nth(1)
                    .map_or(0, |offset| offset.parse().unwrap())
            })
            .collect();
        // Non-decreasing rather than increasing: a first page the crawl fetched under two
        // spellings (`t=5` and `t=5&start=0`, a duplicate fetch) shows offset 0 twice.
        assert!(
            offsets.windows(2).all(|pair| pair[0] <= pair[1]),
            "{pages:?}"
        );
        let thread_posts = thread["posts"].as_array().unwrap();
        // A thread of one post shows no repetition for page analysis to find (issue 3).
        without_posts += usize::from(thread_posts.is_empty());
        for post in thread_posts {
            assert!(post["time"].is_string(), "{post}");
            assert!(post["author"].is_string(), "{post}");
        }
        posts += thread_posts.len();
    }
    assert!(
        with_board * 100 >= threads.len() * 95,
        "{with_board} of {} threads have a board",
        threads.len()
    );
    assert!(
        without_posts * 100 <= threads.len() * 3,
        "{without_posts} of {} threads without posts",
        threads.len()
    );
    let post_count = site.history().post_count() as usize;
    assert!(
        posts * 100 >= post_count * 95,
        "{posts} of {post_count} posts exported"
    );

    let pages = export(&db, "pages");
    assert!(
        pages.iter().all(|page| page["status"] == 200),
        "all fetched"
    );
    let listed = pages.iter().filter(|page| page["list"].is_string()).count();
    assert!(
        listed * 2 > pages.len(),
        "{listed} of {} in lists",
        pages.len()
    );

    let warc = directory.join("crawl.warc.gz");
    let output = trawl(&["export", "--db", path(&db), "--warc", path(&warc)]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let mut archive = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(&warc).unwrap()),
        &mut archive,
    )
    .unwrap();
    assert_eq!(
        archive.matches("WARC-Type: response\r\n").count(),
        pages.len()
    );
    assert_eq!(archive.matches("WARC-Type: warcinfo\r\n").count(), 1);
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_store_from_another_crawl_or_no_store_gets_a_clear_error() {
    let directory = scratch("crawl", "errors");
    let db = directory.join("missing.db");
    let output = trawl(&["export", "--db", path(&db), "threads"]);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("crawl first"),
        "{}",
        text(&output.stderr)
    );

    let (server, site) = serve("smf", 1);
    let db = directory.join("crawl.db");
    let portal = format!("{}{}", server.origin(), site.portal_path());
    let first = trawl(&[
        "crawl",
        &portal,
        "--db",
        path(&db),
        "--strategy",
        "bfs",
        "--max-pages",
        "40",
        "--delay-ms",
        "0",
    ]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    // A crawl without a plan knows no thread's other pages, but each page with posts is still
    // exported as a thread of one page.
    let threads = export(&db, "threads");
    assert!(
        !threads.is_empty(),
        "a breadth-first crawl exports its threads"
    );
    for thread in &threads {
        assert_eq!(
            thread["pages"].as_array().map(Vec::len),
            Some(1),
            "{thread}"
        );
        assert!(!thread["posts"].as_array().unwrap().is_empty(), "{thread}");
    }
    let other = trawl(&[
        "crawl",
        "http://127.0.0.1:9/",
        "--db",
        path(&db),
        "--delay-ms",
        "0",
    ]);
    assert!(!other.status.success());
    assert!(
        text(&other.stderr).contains("holds a crawl of"),
        "{}",
        text(&other.stderr)
    );
    assert!(
        !export(&db, "threads").is_empty(),
        "the refused crawl left the store as it was"
    );
    // Regression: a crawl that could not start left a new, empty database behind.
    let fresh = directory.join("fresh.db");
    for arguments in [
        vec![
            "crawl",
            "http://127.0.0.1:9/",
            "--db",
            path(&fresh),
            "--delay-ms",
            "0",
        ],
        vec![
            "crawl",
            &portal,
            "--plan",
            "/nonexistent/plan.json",
            "--db",
            path(&fresh),
        ],
    ] {
        let output = trawl(&arguments);
        assert!(!output.status.success(), "{arguments:?}");
        assert!(!fresh.exists(), "{arguments:?} left {}", fresh.display());
    }
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}

/// A small deterministic generator for kill points (xorshift), so a failure can be replayed.
struct KillPoints(u64);

impl KillPoints {
    fn next_fraction(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Pages the crawl database holds so far, read beside the running crawl (0 before it exists).
fn stored_pages(db: &Path) -> i64 {
    let Ok(connection) =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return 0;
    };
    connection
        .query_row("SELECT count(*) FROM pages", [], |row| row.get(0))
        .unwrap_or(0)
}

/// Everything a crawl stored that does not depend on when it ran.
fn store_contents(db: &Path) -> (Vec<serde_json::Value>, Vec<serde_json::Value>) {
    let mut pages = export(db, "pages");
    for page in &mut pages {
        page.as_object_mut().unwrap().remove("fetched_at");
    }
    (pages, export(db, "threads"))
}

#[test]
fn a_crawl_killed_at_random_points_ends_with_the_same_store() {
    let (server, site) = serve("vbulletin", 3);
    let directory = scratch("crawl", "crash");
    let portal = format!("{}{}", server.origin(), site.portal_path());
    let plan = directory.join("plan.json");
    learn_plan(&portal, 200, &plan);
    let crawl = |db: &Path| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_trawl"));
        command
            .args(["crawl", &portal, "--plan", path(&plan), "--db", path(db)])
            .args(["--delay-ms", "0"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        command
    };

    let reference = directory.join("reference.db");
    let started = Instant::now();
    assert!(crawl(&reference).status().unwrap().success());
    let uninterrupted = started.elapsed();
    let (reference_pages, reference_threads) = store_contents(&reference);
    assert!(reference_pages.len() > 100, "a crawl long enough to kill");

    let crashed = directory.join("crashed.db");
    let mut kill_points = KillPoints(0x5eed_cafe_f00d);
    let mut kills_mid_crawl = 0;
    for kill in 0..5 {
        // Kill points are chosen by progress, not by time, so a loaded machine cannot make the
        // crawl outrun them: the n-th run is killed once the store holds about n/6 of the
        // reference's pages, give or take a random twelfth.
        let share = (kill as f64 + 1.0) / 6.0 + (kill_points.next_fraction() - 0.5) / 12.0;
        let target = (reference_pages.len() as f64 * share) as i64;
        let mut child = crawl(&crashed).spawn().unwrap();
        let deadline = Instant::now() + uninterrupted * 4 + Duration::from_secs(10);
        let mut finished = false;
        while Instant::now() < deadline {
            if child.try_wait().unwrap().is_some() {
                finished = true;
                break;
            }
            if stored_pages(&crashed) >= target {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        // SIGKILL: no destructor, no flush, no chance to tidy up.
        child.kill().unwrap();
        child.wait().unwrap();
        if !finished && (stored_pages(&crashed) as usize) < reference_pages.len() {
            kills_mid_crawl += 1;
        }
    }
    assert!(
        kills_mid_crawl >= 4,
        "only {kills_mid_crawl} kills landed mid-crawl; the test proved too little"
    );
    assert!(crawl(&crashed).status().unwrap().success());
    let (crashed_pages, crashed_threads) = store_contents(&crashed);
    assert_eq!(crashed_pages.len(), reference_pages.len());
    assert_eq!(crashed_pages, reference_pages);
    assert_eq!(crashed_threads, reference_threads);
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_plan_whose_templates_are_gone_is_learned_again_and_the_crawl_goes_on() {
    // A plan learned on one forum stands for the same forum after a template change: its pages
    // no longer classify into any vertex.
    let (old_server, old_site) = serve("phpbb", 1);
    let directory = scratch("crawl", "relearn");
    let plan = directory.join("old-plan.json");
    let old_portal = format!("{}{}", old_server.origin(), old_site.portal_path());
    learn_plan(&old_portal, 150, &plan);
    old_server.stop();

    let (server, site) = serve("smf", 2);
    let portal = format!("{}{}", server.origin(), site.portal_path());
    let db = directory.join("crawl.db");
    let output = trawl(&[
        "crawl",
        &portal,
        "--plan",
        path(&plan),
        "--db",
        path(&db),
        "--delay-ms",
        "0",
        "--samples",
        "200",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let log = text(&output.stderr);
    assert!(log.contains("learning the plan again"), "{log}");
    assert!(log.contains("learned plan 1"), "{log}");
    let threads = export(&db, "threads");
    let thread_count = site.history().thread_count() as usize;
    assert!(
        threads.len() * 100 >= thread_count * 90,
        "{} of {thread_count} threads after learning again",
        threads.len()
    );
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}

/// Crawls a small forum of `family` with `trawl crawl` (learning its plan first, auditing and
/// closing gaps at the end) and checks the paths the server was asked for more than once.
fn check_repeated_requests(family: &str, expected: &[(&str, usize)]) {
    let (server, site, log) = serve_logged(family, 1);
    let directory = scratch("crawl", &format!("once-{family}"));
    let db = directory.join("crawl.db");
    let portal = format!("{}{}", server.origin(), site.portal_path());
    crawl_to_completion(&portal, &db, "60");
    let expected: Vec<(String, usize)> = expected
        .iter()
        .map(|(path, times)| (path.to_string(), *times))
        .collect();
    assert_eq!(repeated_paths(&log), expected, "{family}");
    let _ = std::fs::remove_dir_all(&directory);
}

/// The crawl used to fetch again every page learning had sampled (about 18 a forum). Now the
/// sampled pages answer the crawl's first requests for them, and each page is fetched once;
/// only the portal of a forum opening a session on the first visit is asked twice, by the
/// sampler, which asks it again as a returning visitor sees it.
#[test]
fn a_crawl_fetches_each_page_once_taking_over_the_pages_learning_sampled() {
    check_repeated_requests("phpbb", &[("/index.php", 2)]);
    check_repeated_requests("xenforo", &[]);
    check_repeated_requests("discourse", &[]);
}

/// A forum whose boards list their newest thread first and page by cursors counting down
/// (`?before=<id>`, the id of the last thread shown), crawled over loopback as a user would:
/// every board page and every thread page the truth has is fetched, the crawl says it is
/// complete, and `trawl audit` agrees.
#[test]
fn boards_paged_by_cursors_counting_down_are_crawled_whole_over_loopback() {
    let site = trawl_sim::Site::build(trawl_sim::SiteConfig::new(
        trawl_sim::FamilyName::Nodebb,
        1,
        trawl_sim::Scale::Small,
    ))
    .with_cursors_counting_down();
    let (server, site, _) = serve_site(site);
    let directory = scratch("crawl", "counting-down");
    let db = directory.join("crawl.db");
    let portal = format!("{}{}", server.origin(), site.portal_path());
    crawl_to_completion(&portal, &db, "300");
    let fetched: std::collections::HashSet<String> = export(&db, "pages")
        .iter()
        .filter(|page| page["status"].as_u64() == Some(200))
        .filter_map(|page| {
            let url = url::Url::parse(page["url"].as_str()?).ok()?;
            Some(match url.query() {
                Some(query) => format!("{}?{query}", url.path()),
                None => url.path().to_string(),
            })
        })
        .collect();
    let mut missed = Vec::new();
    let mut cursor_pages = 0;
    site.for_each_url_truth(site.history().end, |truth| {
        let list_page = matches!(truth.role, trawl_sim::Role::Board | trawl_sim::Role::Thread);
        if truth.class == trawl_sim::PageClass::Valuable && list_page {
            cursor_pages += usize::from(truth.url.contains("before="));
            if !fetched.contains(&truth.url) {
                missed.push(truth.url);
            }
        }
    });
    assert!(
        cursor_pages >= 3,
        "{cursor_pages} board pages named by a cursor"
    );
    assert!(missed.is_empty(), "pages never fetched: {missed:?}");
    let audited = trawl(&["audit", "--db", path(&db)]);
    assert!(
        audited.status.success(),
        "{}{}",
        text(&audited.stdout),
        text(&audited.stderr)
    );
    let _ = std::fs::remove_dir_all(&directory);
}
