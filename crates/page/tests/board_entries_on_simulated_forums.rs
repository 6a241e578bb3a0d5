//! Thread entries of board pages read alone, on every simulated engine family, checked against
//! the simulator's history: each page gives as many entries as it lists threads (sticky threads
//! shown in a list of their own included, a board's last page holding one thread included), and
//! every entry names a thread of the board with its title, reply count and last-reply minute.

use jiff::Timestamp;
use trawl_page::analysis::{PageAnalysis, analyse};
use trawl_page::time::DateContext;
use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig};
use url::Url;

/// Analyses `path` of `site` as served at the end of its history, in the forum's zone.
fn analyse_page(site: &Site, path: &str) -> PageAnalysis {
    let at = site.history().end;
    let answer = site.serve(path, at, None);
    let content_type = answer
        .headers
        .iter()
        .find(|(name, _)| name == "Content-Type")
        .map(|(_, value)| value.as_str());
    let url = Url::parse(&format!("http://forum.test{path}")).expect("a valid URL");
    let context = DateContext::new(
        Timestamp::from_second(at).expect("a valid instant"),
        Some(site.family().profile().utc_offset_seconds),
    );
    analyse(&answer.body, content_type, &url, &context)
}

/// Threads of `board` that exist at the end of the history: (sticky ones, normal ones).
fn threads_of(site: &Site, board: u32) -> (Vec<u32>, Vec<u32>) {
    let history = site.history();
    let at = history.end;
    let record = history.board(board).expect("a board of the forum");
    record
        .threads
        .iter()
        .copied()
        .filter(|&thread| history.thread(thread).is_some_and(|t| t.created <= at))
        .partition(|&thread| history.thread(thread).is_some_and(|t| t.sticky))
}

/// How many board pages `board` has, and how many entries page `page` lists.
fn expected_count(site: &Site, board: u32, page: usize) -> (usize, usize) {
    let per_page = site.family().profile().threads_per_page as usize;
    let (stickies, normal) = threads_of(site, board);
    let pages = normal.len().div_ceil(per_page).max(1);
    let on_page = normal
        .len()
        .saturating_sub((page - 1) * per_page)
        .min(per_page)
        + if page == 1 { stickies.len() } else { 0 };
    (pages, on_page)
}

/// Reads page `page` of `board` and returns every mismatch with the history, one line each.
fn mismatches(site: &Site, board: u32, page: usize) -> Vec<String> {
    let history = site.history();
    let at = history.end;
    let offset = site.family().profile().utc_offset_seconds;
    let path = site.url_of(&Address::canonical(Route::Board {
        board,
        page: page as u32,
    }));
    let analysis = analyse_page(site, &path);
    let (_, expected) = expected_count(site, board, page);
    let (stickies, normal) = threads_of(site, board);
    let mut wrong = Vec::new();
    if analysis.thread_entries.len() != expected {
        wrong.push(format!(
            "{path}: {} entries, {expected} expected",
            analysis.thread_entries.len()
        ));
    }
    let mut seen = Vec::new();
    for entry in &analysis.thread_entries {
        let thread = entry
            .url
            .strip_prefix("http://forum.test")
            .and_then(|rest| site.address_of(rest))
            .and_then(|address| match address.route {
                Route::Thread { thread, page: 1 } => Some(thread),
                _ => None,
            });
        let Some(thread) = thread else {
            wrong.push(format!("{path}: {:?} links to {}", entry.title, entry.url));
            continue;
        };
        if !stickies.contains(&thread) && !normal.contains(&thread) || seen.contains(&thread) {
            wrong.push(format!(
                "{path}: thread {thread} is not one of the board's or twice"
            ));
        }
        seen.push(thread);
        if entry.title != site.thread_title(thread) {
            wrong.push(format!(
                "{path}: title {:?} of thread {thread}",
                entry.title
            ));
        }
        let posts = history.thread_posts_at(thread, at);
        if entry.replies != Some(posts.len() as u64 - 1) {
            wrong.push(format!(
                "{path}: replies {:?} of thread {thread}",
                entry.replies
            ));
        }
        let last = posts
            .last()
            .and_then(|&post| history.post(post))
            .map_or(0, |post| post.created);
        let want = trawl_sim::dates::iso8601(last, offset);
        let got = entry.last_reply.map(|time| time.local.to_string());
        if got.as_deref().and_then(|got| got.get(..16)) != want.get(..16) {
            wrong.push(format!(
                "{path}: last reply {got:?} of thread {thread}, truth {want}"
            ));
        }
    }
    wrong
}

/// Checks one board page: `case` says what the page shows.
fn check(family: FamilyName, seed: u64, board: u32, page: usize, case: &str) {
    let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
    let wrong = mismatches(&site, board, page);
    assert!(
        wrong.is_empty(),
        "{} seed {seed} board {board} page {page} ({case}):\n{}",
        family.name(),
        wrong.join("\n")
    );
}

#[test]
fn sticky_threads_shown_apart_are_entries() {
    check(
        FamilyName::Phpbb,
        41,
        1,
        1,
        "one announcement in a list of its own",
    );
    check(
        FamilyName::Phpbb,
        41,
        2,
        1,
        "two announcements in a list of their own",
    );
    check(
        FamilyName::Vbulletin,
        41,
        1,
        1,
        "a sticky row above a separator row",
    );
    check(
        FamilyName::Discuz,
        41,
        3,
        1,
        "a sticky tbody above the separator line",
    );
    check(
        FamilyName::Xenforo,
        41,
        2,
        1,
        "a sticky group above the normal group",
    );
}

#[test]
fn the_lone_entry_of_a_last_page_is_read_instead_of_a_latest_threads_box() {
    check(
        FamilyName::Vbulletin,
        41,
        3,
        7,
        "box above the list, no counts",
    );
    check(FamilyName::Discuz, 41, 3, 5, "box of relative times");
    check(FamilyName::Smf, 41, 3, 7, "box of two-element records");
    check(
        FamilyName::Xenforo,
        41,
        3,
        7,
        "sidebar box with reply counts",
    );
    check(FamilyName::Tablecraft, 41, 3, 4, "box table below the list");
}

#[test]
fn a_short_list_beats_a_longer_box_that_shows_fewer_counts() {
    check(
        FamilyName::Xenforo,
        41,
        4,
        2,
        "four threads beside a six-thread box",
    );
}

/// Every board page of a forum of each family, for two seeds.
#[test]
fn every_board_page_of_every_family_gives_its_entries() {
    let mut wrong = Vec::new();
    for family in FamilyName::ALL {
        for seed in [41, 7] {
            let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
            for board in 1..=site.history().board_count() {
                let (pages, _) = expected_count(&site, board, 1);
                for page in 1..=pages {
                    wrong.extend(
                        mismatches(&site, board, page)
                            .into_iter()
                            .map(|line| format!("{} seed {seed} {line}", family.name())),
                    );
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
