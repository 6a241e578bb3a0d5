//! Crawl recall on forums shaped unlike the simulator's families (issue 18): a hand-made forum
//! ([`support::handmade`]) in one unusual shape per case is sampled, learned and crawled with the
//! plan, and the crawl must reach every page worth having and every post, without fetching
//! pages that do not exist more than the bound allows.

mod support;

use std::collections::BTreeSet;

use support::handmade::{
    BoardPager, CursorSpelling, HandmadeForum, ORIGIN, Portal, Shape, ThreadPager, now,
};
use trawl_crawl::{CrawlStrategy, Crawler, Placement};
use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::traverse::Strategy;
use trawl_model::{FetchRequest, Fetcher, FixedClock};
use url::Url;

/// What one crawl of a hand-made forum reached.
#[derive(Debug)]
struct Reached {
    /// Pages worth having that were never fetched.
    missed_pages: Vec<String>,
    /// Posts no fetched page showed.
    missed_posts: usize,
    /// Fetches answered 404.
    missing_fetches: usize,
    /// Fetches of a URL worth having fetched before, or of a page that is no such URL and
    /// answered 200 (another spelling of a page).
    extra_fetches: Vec<String>,
    fetches: usize,
    /// Pages the plan could not classify, placed by their nearest layout.
    placed_by_nearest: usize,
}

fn path_and_query(url: &Url) -> String {
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    }
}

fn learn_and_crawl(shape: Shape, samples: usize) -> Reached {
    learn_one_and_crawl_another(shape, shape, samples)
}

/// Learns the plan of the forum of `learned`, and crawls the forum of `crawled` with it.
fn learn_one_and_crawl_another(learned: Shape, crawled: Shape, samples: usize) -> Reached {
    let sampled_forum = HandmadeForum::new(learned);
    let sampled_portal = sampled_forum.portal();
    let options = SampleOptions {
        max_pages: samples,
        seed: 1,
        delay: NO_DELAY,
        ..SampleOptions::default()
    };
    let pages = sample_site(
        &sampled_forum,
        &FixedClock::new(now()),
        sampled_portal.clone(),
        &options,
        |_| {},
    )
    .expect("the portal answers");
    let plan = trawl_learn::learn(&sampled_portal, pages, Strategy::Skeleton).plan;
    let forum = HandmadeForum::new(crawled);
    let portal = forum.portal();
    let mut crawler = Crawler::new(portal, CrawlStrategy::Plan(Box::new(plan)));
    let valuable = forum.valuable_urls();
    let mut fetched: BTreeSet<String> = BTreeSet::new();
    let mut posts_seen: BTreeSet<String> = BTreeSet::new();
    let mut reached = Reached {
        missed_pages: Vec::new(),
        missed_posts: 0,
        missing_fetches: 0,
        extra_fetches: Vec::new(),
        fetches: 0,
        placed_by_nearest: 0,
    };
    while let Some(queued) = crawler.next_request() {
        assert!(
            reached.fetches < 2_000,
            "the crawl of a small forum must end"
        );
        reached.fetches += 1;
        let response = forum
            .fetch(&FetchRequest::new(queued.url.as_str(), now()))
            .unwrap();
        let page = crawler.record(&queued, &response);
        reached.placed_by_nearest += usize::from(page.placement == Placement::Nearest);
        let spelled = path_and_query(&page.url);
        if response.status == 404 {
            reached.missing_fetches += 1;
        } else if response.status == 200
            && (!fetched.insert(spelled.clone()) || !valuable.contains(&spelled))
        {
            reached.extra_fetches.push(spelled.clone());
        }
        for post in &page.analysis.posts {
            posts_seen.extend(
                post.text
                    .split_whitespace()
                    .filter(|word| word.starts_with("postmark"))
                    .map(|word| word.trim_end_matches('.').to_string()),
            );
        }
    }
    reached.missed_pages = valuable.difference(&fetched).cloned().collect();
    reached.missed_posts = forum
        .posts()
        .into_iter()
        .filter(|post| !posts_seen.contains(&HandmadeForum::post_marker(*post)))
        .count();
    reached
}

/// Crawls the forum of `shape` learned from `samples` pages and checks that every page worth
/// having and every post was reached, with at most `extra` fetches of other pages (other
/// spellings, member profiles the plan may keep) and `missing` fetches answered 404.
fn check(shape: Shape, samples: usize, extra: usize, missing: usize) {
    if let Some(failure) = failure_of(shape, samples, extra, missing) {
        panic!("{failure}");
    }
}

/// What [`check`] would fail with, if anything, so that a test of many shapes can name every
/// shape that fails rather than the first.
fn failure_of(shape: Shape, samples: usize, extra: usize, missing: usize) -> Option<String> {
    let reached = learn_and_crawl(shape, samples);
    if !reached.missed_pages.is_empty() || reached.missed_posts != 0 {
        return Some(format!(
            "{shape:?} at {ORIGIN}: {} pages and {} posts missed: {:?} ({} fetches)",
            reached.missed_pages.len(),
            reached.missed_posts,
            reached.missed_pages,
            reached.fetches
        ));
    }
    if reached.extra_fetches.len() > extra {
        return Some(format!(
            "{shape:?}: {} extra fetches: {:?}",
            reached.extra_fetches.len(),
            reached.extra_fetches
        ));
    }
    if reached.missing_fetches > missing {
        return Some(format!(
            "{shape:?}: {} fetches answered 404",
            reached.missing_fetches
        ));
    }
    None
}

#[test]
fn a_plain_forum_is_crawled_whole() {
    check(Shape::PLAIN, 300, 0, 0);
}

#[test]
fn a_portal_that_redirects_is_followed() {
    let shape = Shape {
        portal: Portal::Redirects,
        ..Shape::PLAIN
    };
    check(shape, 300, 0, 0);
}

#[test]
fn a_portal_given_with_its_index_file_is_crawled() {
    let shape = Shape {
        portal: Portal::IndexFile,
        ..Shape::PLAIN
    };
    check(shape, 300, 1, 0);
}

#[test]
fn boards_paged_only_by_head_links_and_cursors_are_crawled_whole() {
    let shape = Shape {
        board_pager: BoardPager::HeadLinksWithCursor,
        ..Shape::PLAIN
    };
    check(shape, 300, 2, 0);
}

/// A young forum whose one long board is paged only by `<link rel="next">` with a cursor: the
/// sample meets a single pair of board pages, the first page and its short last page, joined by
/// the head's `next` and answered by its `prev`. Before, one pair was too few for a link showing
/// no text, and the short last page made its vertex look like a secondary list; the board's
/// second page was never fetched (the simulator's NodeBB family crawled at day 10 of its
/// history did the same).
#[test]
fn the_one_long_board_of_a_young_forum_paged_by_head_links_is_crawled_whole() {
    let shape = Shape {
        board_pager: BoardPager::HeadLinksWithCursor,
        one_long_board: true,
        ..Shape::PLAIN
    };
    check(shape, 300, 2, 0);
}

/// Boards whose later pages are reached by one "Load more" link with a cursor
/// (`&before=<id>`), the fallback of an infinite scroll: no page numbers, no link back.
#[test]
fn boards_paged_by_a_load_more_link_with_a_cursor_are_crawled_whole() {
    let shape = Shape {
        board_pager: BoardPager::LoadMoreWithCursor,
        ..Shape::PLAIN
    };
    check(shape, 300, 0, 0);
}

/// [`boards_paged_by_a_load_more_link_with_a_cursor_are_crawled_whole`] on a young forum, one
/// board with a second page.
#[test]
fn the_one_long_board_of_a_young_forum_paged_by_load_more_is_crawled_whole() {
    let shape = Shape {
        board_pager: BoardPager::LoadMoreWithCursor,
        one_long_board: true,
        ..Shape::PLAIN
    };
    check(shape, 300, 0, 0);
}

/// A board whose pager never ends (each page offers the next, and a page past the last shows
/// the first page's threads again, as forums answer a page number out of range) is followed
/// until a page shows again the records of a page its pager names: one page past the last is
/// fetched per board, and the crawl ends. Those pages teach no rewrite either (`&page=3` is not
/// dropped as redundant), so a board's real third page is still fetched. The plan is learned from the same forum with pagers
/// that end, so the arc flipping a board's pages is in the plan and the crawler alone must end
/// the list. (Before, the crawl never ended.)
#[test]
fn a_board_pager_that_never_ends_is_left_where_a_page_repeats_the_first() {
    let endless = Shape {
        board_pager: BoardPager::Endless,
        ..Shape::PLAIN
    };
    let reached = learn_one_and_crawl_another(Shape::PLAIN, endless, 300);
    assert!(
        reached.missed_pages.is_empty() && reached.missed_posts == 0,
        "{} pages and {} posts missed: {:?} ({} fetches)",
        reached.missed_pages.len(),
        reached.missed_posts,
        reached.missed_pages,
        reached.fetches
    );
    // In fetch order. Board 1's last page (its third) holds one thread, which page analysis
    // reads as a board's lone entry, so that board too has one page past its last fetched.
    assert_eq!(
        reached.extra_fetches,
        [
            "/board.php?id=0&page=3",
            "/board.php?id=2&page=3",
            "/board.php?id=4&page=3",
            "/board.php?id=1&page=4",
            "/board.php?id=3&page=4",
        ],
        "one page past the last per board"
    );
    assert_eq!(reached.missing_fetches, 0);
}

#[test]
fn later_thread_pages_behind_pager_links_with_extra_parameters_are_crawled() {
    let shape = Shape {
        thread_pager: ThreadPager::SortedWithExtraParameters,
        ..Shape::PLAIN
    };
    check(shape, 300, 2, 0);
}

/// The portal is a paged list of every thread beside the boards: every board page and thread is
/// reached, and no page of the global list past the portal is fetched, since the boards list the
/// same threads (before, the plan read threads from the global list and its 8 later pages were
/// extra fetches).
#[test]
fn per_board_lists_beside_a_global_list_are_crawled() {
    let shape = Shape {
        global_list: true,
        ..Shape::PLAIN
    };
    check(shape, 300, 0, 0);
}

#[test]
fn links_in_post_bodies_to_missing_pages_are_not_followed() {
    let shape = Shape {
        body_links_to_missing: true,
        ..Shape::PLAIN
    };
    check(shape, 300, 0, 0);
}

#[test]
fn slug_urls_without_ids_are_crawled_whole() {
    let shape = Shape {
        slugs: true,
        ..Shape::PLAIN
    };
    check(shape, 300, 0, 0);
}

/// A plan learned from a forum whose portal is `/` crawls the same forum entered at
/// `/index.php`, a URL of a shape the sample never met: the portal is placed by its layout
/// (before, it matched no vertex and the crawl ended with it).
#[test]
fn a_page_the_plan_cannot_classify_is_placed_by_its_nearest_layout() {
    let entered_by_index_file = Shape {
        portal: Portal::IndexFile,
        ..Shape::PLAIN
    };
    let reached = learn_one_and_crawl_another(Shape::PLAIN, entered_by_index_file, 300);
    assert!(
        reached.missed_pages.is_empty() && reached.missed_posts == 0,
        "{} pages and {} posts missed: {:?}",
        reached.missed_pages.len(),
        reached.missed_posts,
        reached.missed_pages
    );
    assert_eq!(reached.placed_by_nearest, 1, "the portal alone");
}

/// Cursors that are no numbers: an opaque token, the base64 of a small JSON object, a hash as a
/// path segment. Each cursor pager is crawled whole in each spelling, on a forum of several long
/// boards and on a young forum with one.
#[test]
fn boards_paged_by_cursors_that_are_not_numbers_are_crawled_whole() {
    let mut failures = Vec::new();
    for board_pager in [
        BoardPager::HeadLinksWithCursor,
        BoardPager::LoadMoreWithCursor,
    ] {
        for cursor in [
            CursorSpelling::OpaqueToken,
            CursorSpelling::Base64,
            CursorSpelling::PathHash,
        ] {
            for one_long_board in [false, true] {
                let shape = Shape {
                    board_pager,
                    cursor,
                    one_long_board,
                    ..Shape::PLAIN
                };
                failures.extend(failure_of(shape, 300, 2, 0));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Portal, boards and threads in one layout: the portal lists every topic with a pager, a side
/// bar on every page names every board, and each thread page lists suggested topics in rows
/// made like a board's, more of them than a board page shows, and names no board of its own
/// (django-simple-forum's shape). The boards' pages must be crawled as thread lists, not
/// dropped as pages of the threads' layout.
#[test]
fn boards_laid_out_like_the_threads_and_the_portal_are_crawled() {
    let shape = Shape {
        global_list: true,
        one_layout: true,
        ..Shape::PLAIN
    };
    check(shape, 300, 0, 0);
}
