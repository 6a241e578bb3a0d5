//! A board whose listed threads were none of them sampled still leads to its threads.
//!
//! Written by hand after the shape of a classic board engine: the portal lists the boards and
//! a "latest topics" box; every board page repeats that box above its own list of topics. A
//! small sample can hold board pages and only threads of the latest box, none of which the
//! sampled boards list, so the boards' title column reaches no sampled page. It used to lead
//! "nowhere" and was skipped, and the crawl reached only the few threads the latest box names
//! (the simulator's phpBB seed 2 with 66 samples: 5.9 % of the posts).

use trawl_learn::learn;
use trawl_learn::summary::PageSummary;
use trawl_learn::traverse::{Decision, Strategy};
use url::Url;

mod common;
use common::{ORIGIN, framed_page, post_text, summarise, title_words, written_in_2025};

const BOARDS: usize = 3;
const THREADS_PER_BOARD: usize = 8;
const POSTS_PER_THREAD: usize = 3;
/// The latest box shows the newest threads of the last board.
const LATEST: usize = 4;

fn board_path(board: usize) -> String {
    format!("/board.php?b={}", board + 1)
}

fn thread_path(thread: usize) -> String {
    format!("/topic.php?t={}", thread + 1)
}

fn board_of(thread: usize) -> usize {
    thread / THREADS_PER_BOARD
}

fn title(thread: usize) -> String {
    format!("{} ({})", title_words(thread, 5, (3, 7), 32), thread + 1)
}

fn member_name(member: usize) -> &'static str {
    ["Orvald", "Kestrin", "Mabelle", "Tuomas", "Ysolde"][member % 5]
}

fn written(thread: usize, post: usize) -> String {
    written_in_2025(1, 10, 3, thread, post)
}

fn topic_row(thread: usize) -> String {
    format!(
        "<tr class=\"topic\"><td class=\"title\"><a href=\"{}\">{}</a></td>\
         <td class=\"starter\"><a href=\"/member.php?u={}\">{}</a></td>\
         <td class=\"replies\">{}</td><td class=\"last\">{}</td></tr>",
        thread_path(thread),
        title(thread),
        thread % 5 + 1,
        member_name(thread),
        POSTS_PER_THREAD - 1,
        written(thread, POSTS_PER_THREAD - 1)
    )
}

/// The box of latest topics every list page shows.
fn latest_box() -> String {
    let newest = BOARDS * THREADS_PER_BOARD;
    let rows: String = (newest - LATEST..newest)
        .map(|thread| {
            format!(
                "<li class=\"latest\"><a href=\"{}\">{}</a> <span>{}</span></li>",
                thread_path(thread),
                title(thread),
                written(thread, POSTS_PER_THREAD - 1)
            )
        })
        .collect();
    format!("<div class=\"sidebar\"><h3>Latest topics</h3><ul>{rows}</ul></div>")
}

fn portal_page() -> String {
    let boards: String = (0..BOARDS)
        .map(|board| {
            format!(
                "<tr class=\"board\"><td><a href=\"{}\">Board number {}</a></td>\
                 <td>{} topics</td></tr>",
                board_path(board),
                ["one", "two", "three"][board],
                THREADS_PER_BOARD
            )
        })
        .collect();
    framed_page(
        "Harbour Forums",
        "Harbour Forums",
        &format!("{}<table class=\"boards\">{boards}</table>", latest_box()),
    )
}

fn board_page(board: usize) -> String {
    let rows: String = (board * THREADS_PER_BOARD..(board + 1) * THREADS_PER_BOARD)
        .map(topic_row)
        .collect();
    let name = ["one", "two", "three"][board];
    framed_page(
        "Harbour Forums",
        &format!("Board number {name}"),
        &format!(
            "{}<h1>Board number {name}</h1><table class=\"topics\">{rows}</table>",
            latest_box()
        ),
    )
}

fn thread_page(thread: usize) -> String {
    let posts: String = (0..POSTS_PER_THREAD)
        .map(|post| {
            format!(
                "<div class=\"post\"><div class=\"head\">\
                 <a class=\"author\" href=\"/member.php?u={}\">{}</a> <span class=\"date\">{}</span></div>\
                 <div class=\"body\"><p>{}</p></div></div>",
                (thread + post) % 5 + 1,
                member_name(thread + post),
                written(thread, post),
                post_text(thread, post, 30)
            )
        })
        .collect();
    framed_page(
        "Harbour Forums",
        &title(thread),
        &format!(
            "<div class=\"crumbs\"><a href=\"{}\">Board</a></div><h1>{}</h1>{posts}",
            board_path(board_of(thread)),
            title(thread)
        ),
    )
}

fn summary(path: &str, depth: u32, html: &str) -> PageSummary {
    summarise(path, depth, html, "2025-01-30T12:00:00Z")
}

/// The portal, the given boards and the given threads.
fn sample(boards: &[usize], threads: &[usize]) -> Vec<PageSummary> {
    let mut pages = vec![summary("/", 0, &portal_page())];
    for board in boards {
        pages.push(summary(&board_path(*board), 1, &board_page(*board)));
    }
    for thread in threads {
        pages.push(summary(&thread_path(*thread), 1, &thread_page(*thread)));
    }
    pages
}

/// Learns from the sample and checks whether the plan follows the title links of the first
/// sampled board to the threads it lists.
#[track_caller]
fn check(boards: &[usize], threads: &[usize], followed: bool) {
    let portal = Url::parse(&format!("{ORIGIN}/")).expect("a URL");
    let learned = learn(&portal, sample(boards, threads), Strategy::Skeleton);
    let sitemap = &learned.sitemap;
    let board_page = sitemap
        .pages
        .iter()
        .position(|page| page.url.as_str() == format!("{ORIGIN}{}", board_path(boards[0])))
        .expect("the board was sampled");
    let board_vertex = sitemap.vertex_of_page[board_page];
    let listed = format!("{ORIGIN}{}", thread_path(boards[0] * THREADS_PER_BOARD));
    let title_arcs: Vec<usize> = sitemap
        .arcs
        .iter()
        .enumerate()
        .filter(|(_, arc)| arc.key.source == board_vertex && arc.target_urls.contains(&listed))
        .map(|(index, _)| index)
        .collect();
    assert!(
        !title_arcs.is_empty(),
        "the board's title links form an arc"
    );
    let follows = title_arcs
        .iter()
        .any(|index| learned.traversal.decisions[*index] != Decision::Skip);
    assert_eq!(
        follows, followed,
        "boards {boards:?} and threads {threads:?} sampled: title column followed"
    );
}

#[test]
fn a_board_whose_listed_threads_were_not_sampled_still_leads_to_them() {
    let newest = BOARDS * THREADS_PER_BOARD;
    // Only threads of the latest box (all of the last board) were sampled.
    check(&[0, 1], &[newest - 1, newest - 2, newest - 3], true);
    check(&[0], &[newest - 1, newest - 4], true);
}

#[test]
fn a_board_whose_listed_threads_were_sampled_leads_to_them_as_before() {
    check(&[0, 1], &[0, 3, 9, 12], true);
}
