//! Thread entries of board pages read alone, on every simulated engine family, checked against
//! the simulator's history: each page gives as many entries as it lists threads (sticky threads
//! shown in a list of their own included, a board's last page holding one thread included),
//! and every entry names a thread of the board with its title, reply count and last-reply
//! minute; on families whose lists stand beside boxes of other threads, no post is read.

mod common;

use jiff::Timestamp;
use trawl_page::time::DateContext;
use trawl_sim::{Address, FamilyName, Scale, Site, SiteConfig, SortOrder};
use url::Url;

use common::analyse_page;

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
    // Cursor-paged families name later pages by the thread they follow, and answer the numbered
    // spelling with the first page again.
    let route = site.board_page_route(board, page as u32, SortOrder::LastPost, at);
    let path = site.url_of(&Address::canonical(route));
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
            .and_then(|rest| site.thread_of_first_page(rest));
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
        // Compared as instants to the minute: a page may state the time with its own offset
        // (an ISO 8601 `Z` in a `title`), and then its wall clock is not the forum's.
        let got = entry
            .last_reply
            .map(|time| time.instant(offset).as_second());
        if got.map(|got| got.div_euclid(60)) != Some(last.div_euclid(60)) {
            let shown = entry.last_reply.map(|time| time.to_iso8601());
            wrong.push(format!(
                "{path}: last reply {shown:?} of thread {thread}, truth {want}"
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

/// Every board page of `family` for `seeds` that reads as posts, one line each.
fn board_pages_read_as_posts(family: FamilyName, seeds: &[u64]) -> Vec<String> {
    let mut wrong = Vec::new();
    for &seed in seeds {
        let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
        let at = site.history().end;
        for board in 1..=site.history().board_count() {
            let (pages, _) = expected_count(&site, board, 1);
            for page in 1..=pages {
                let route = site.board_page_route(board, page as u32, SortOrder::LastPost, at);
                let path = site.url_of(&Address::canonical(route));
                let analysis = analyse_page(&site, &path);
                if let Some(post) = analysis.posts.first() {
                    wrong.push(format!(
                        "{} seed {seed} {path}: {} posts read, the first {:?}",
                        family.name(),
                        analysis.posts.len(),
                        post.text
                    ));
                }
            }
        }
    }
    wrong
}

/// A board page holds no post. XenForo's lists stand beside a box of the latest threads whose
/// records each show a title link, the last poster and time, and a line "Started by X ·
/// Replies: N": authored and dated like posts, but thread entries (seed 1 read every board page
/// as seven posts, and the crawl took boards for threads). Its sticky threads stand in a group
/// of their own, whose titles must not read as posts either.
#[test]
fn boards_beside_a_box_of_latest_threads_give_no_posts() {
    let wrong = board_pages_read_as_posts(FamilyName::Xenforo, &[1, 41, 7, 3, 12, 99, 2024]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Families whose board pages cannot give what this test checks: a mailing-list archive's index
/// shows no reply count at all (a thread's size is the tree of its messages), so its entries
/// cannot give one.
const INDEXES_WITHOUT_REPLY_COUNTS: [FamilyName; 1] = [FamilyName::Mailarchive];

/// Every board page of a forum of each family, for six seeds.
#[test]
fn every_board_page_of_every_family_gives_its_entries() {
    let mut wrong = Vec::new();
    for family in FamilyName::ALL
        .into_iter()
        .filter(|family| !INDEXES_WITHOUT_REPLY_COUNTS.contains(family))
    {
        for seed in [41, 7, 3, 12, 99, 2024] {
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

/// (title, replies, last reply to the minute) of the entries of a handwritten board page.
fn entries_of(html: &str) -> Vec<(String, Option<u64>, String)> {
    let url = Url::parse("http://forum.test/board/2").expect("a valid URL");
    let fetched_at: Timestamp = "2026-01-01T12:00:00Z".parse().expect("a valid instant");
    let analysis = trawl_page::analysis::analyse_text(
        html,
        "UTF-8",
        &url,
        &DateContext::new(fetched_at, Some(0)),
    );
    analysis
        .thread_entries
        .iter()
        .map(|entry| {
            let minute = entry
                .last_reply
                .map(|time| time.to_iso8601())
                .unwrap_or_default();
            (
                entry.title.clone(),
                entry.replies,
                minute.get(..16).unwrap_or(&minute).to_string(),
            )
        })
        .collect()
}

/// A board page: a table of `rows` (each a title, replies and last reply) after `sticky`
/// (a table of one row, or nothing) and before a box of the latest threads.
fn board_page(sticky: &[(&str, u32, &str)], rows: &[(&str, u32, &str)]) -> String {
    let row = |(title, replies, last): &(&str, u32, &str)| {
        let id: u32 = title.bytes().map(u32::from).sum();
        format!(
            "<tr class=\"topic\"><td class=\"title\"><a href=\"/topic/{id}\">{title}</a><br>by \
             <a href=\"/user/{id}\">starter{id}</a></td><td class=\"count\">{replies}</td>\
             <td class=\"count\">{views}</td><td class=\"last\">{last}</td></tr>",
            views = replies * 10 + 7
        )
    };
    let table = |rows: &[(&str, u32, &str)]| {
        format!(
            "<table class=\"topics\">{}</table>",
            rows.iter().map(row).collect::<String>()
        )
    };
    let latest: String = [
        "Other board question",
        "Another talk here",
        "Weekend plans thread",
        "Help with my setup",
    ]
    .iter()
    .enumerate()
    .map(|(index, title)| {
        format!(
            "<li><a href=\"/topic/{}\">{title}</a> <span>{} hours ago</span></li>",
            100 + index,
            index + 2
        )
    })
    .collect();
    let sticky = if sticky.is_empty() {
        String::new()
    } else {
        format!("<h3>Announcements</h3>{}", table(sticky))
    };
    format!(
        "<html><body><div id=\"menu\"><a href=\"/\">Home</a> <a href=\"/members\">Members</a></div>\
         <div id=\"main\">{sticky}<h3>Topics</h3>{}</div>\
         <div id=\"side\"><h4>Latest topics</h4><ul>{latest}</ul></div></body></html>",
        table(rows)
    )
}

fn check_page(html: &str, expected: &[(&str, u64, &str)]) {
    let expected: Vec<(String, Option<u64>, String)> = expected
        .iter()
        .map(|(title, replies, last)| (title.to_string(), Some(*replies), last.to_string()))
        .collect();
    assert_eq!(entries_of(html), expected, "{html}");
}

#[test]
fn handwritten_board_pages_give_their_entries() {
    let normal = [
        ("Printer will not start", 4, "2025-12-30 10:15"),
        ("Which cable for the screen", 0, "2025-12-29 08:01"),
        ("Noisy fan after cleaning", 12, "2025-12-28 22:40"),
    ];
    // The list alone, beside a box of relative times that are not counts.
    check_page(
        &board_page(&[], &normal),
        &[
            ("Printer will not start", 4, "2025-12-30T10:15"),
            ("Which cable for the screen", 0, "2025-12-29T08:01"),
            ("Noisy fan after cleaning", 12, "2025-12-28T22:40"),
        ],
    );
    // One announcement in a table of its own comes first.
    check_page(
        &board_page(
            &[("Read this before posting", 1, "2025-11-02 09:00")],
            &normal,
        ),
        &[
            ("Read this before posting", 1, "2025-11-02T09:00"),
            ("Printer will not start", 4, "2025-12-30T10:15"),
            ("Which cable for the screen", 0, "2025-12-29T08:01"),
            ("Noisy fan after cleaning", 12, "2025-12-28T22:40"),
        ],
    );
    // A last page holding one thread: its entry, not the box's four.
    check_page(
        &board_page(&[], &[("Old keyboard question", 3, "2025-10-01 17:30")]),
        &[("Old keyboard question", 3, "2025-10-01T17:30")],
    );
}

/// Lists that count a thread's posts ("4 Posts", "4 Beiträge") rather than its replies give the
/// reply count, one less; counts of replies or of nothing named stay as shown.
#[test]
fn post_counts_are_read_as_reply_counts() {
    let page = |label: &str, split: bool| {
        let rows: String = [
            ("Printer will not start", 4),
            ("Which cable for the screen", 1),
            ("Router drops at night", 12),
        ]
        .iter()
        .enumerate()
        .map(|(index, (title, count))| {
            let count = if split {
                format!("<span class=\"n\">{count}</span> {label}")
            } else {
                format!("{count} {label}")
            };
            format!(
                "<li class=\"topic\"><h3><a href=\"/topic/{index}\">{title}</a></h3>\
                     <div class=\"stats\">{count} <span class=\"n\">{}</span> Views</div>\
                     <div class=\"last\">2025-12-3{index} 10:15</div></li>",
                index * 10 + 33
            )
        })
        .collect();
        format!("<html><body><ul class=\"topics\">{rows}</ul></body></html>")
    };
    let replies = |html: &str| -> Vec<Option<u64>> {
        entries_of(html)
            .into_iter()
            .map(|(_, replies, _)| replies)
            .collect()
    };
    for (label, split, expected) in [
        ("Posts", true, [3, 0, 11]),
        ("posts", false, [3, 0, 11]),
        ("Beiträge", true, [3, 0, 11]),
        ("Replies", true, [4, 1, 12]),
        ("Antworten", false, [4, 1, 12]),
    ] {
        assert_eq!(
            replies(&page(label, split)),
            expected.map(Some),
            "{label} (split: {split})"
        );
    }
}

/// A board page whose threads are rows of one table, the first `sticky` of them marked by a
/// class on the row alone (`<tr class="sticky">`), with no box of other threads beside it.
fn one_table_board_page(rows: &[(&str, u32, &str)], sticky: usize) -> String {
    let body: String = rows
        .iter()
        .enumerate()
        .map(|(index, (title, replies, last))| {
            let class = if index < sticky {
                " class=\"sticky\""
            } else {
                ""
            };
            format!(
                "<tr{class}><td><a href=\"/board/2/thread/{id}/\">{title}</a></td><td><a href=\"/members/m{id}/\">m{id}</a></td>\
                 <td>{replies}</td><td>{views}</td><td>{last} by <a href=\"/members/r{id}/\">r{id}</a></td></tr>",
                id = 40 + index,
                views = replies * 9 + 5
            )
        })
        .collect();
    format!(
        "<html><body><div id=\"menu\"><a href=\"/\">Home</a> <a href=\"/members/\">Members</a></div>\
         <h1>Hardware</h1><table class=\"threads\"><tr><th>Thread</th><th>Started by</th><th>Replies</th><th>Views</th><th>Last post</th></tr>\
         {body}</table><ul class=\"pager\"><li><a href=\"/board/2?page=1\">1</a></li><li><a href=\"/board/2?page=2\">2</a></li></ul>\
         <div id=\"footer\">120 posts in 12 threads</div></body></html>"
    )
}

#[test]
fn sticky_rows_marked_by_their_class_and_a_lone_thread_without_a_box_are_entries() {
    let rows = [
        ("Read this before posting", 1, "2025-11-02 09:00"),
        ("Forum rules for the market", 0, "2025-10-12 11:20"),
        ("Printer will not start", 4, "2025-12-30 10:15"),
        ("Which cable for the screen", 0, "2025-12-29 08:01"),
        ("Noisy fan after cleaning", 12, "2025-12-28 22:40"),
        ("Laptop battery drains fast", 2, "2025-12-27 19:05"),
    ];
    let wanted: Vec<(&str, u64, String)> = rows
        .iter()
        .map(|(title, replies, last)| (*title, u64::from(*replies), last.replace(' ', "T")))
        .collect();
    let wanted: Vec<(&str, u64, &str)> = wanted
        .iter()
        .map(|(title, replies, last)| (*title, *replies, last.as_str()))
        .collect();
    // One sticky row, then two, run into the normal rows of the same table.
    check_page(&one_table_board_page(&rows[1..], 1), &wanted[1..]);
    check_page(&one_table_board_page(&rows, 2), &wanted);
    // A board's last page holding one thread, with no other list of threads on the page.
    check_page(&one_table_board_page(&rows[4..5], 0), &wanted[4..5]);
}

/// Question lists show a thread's votes (or score) beside its answers, and the votes are often
/// the smaller numbers: a count labelled as votes or a score is not the reply count when
/// another count is shown, whatever the order of the two.
#[test]
fn vote_counts_beside_answer_counts_are_not_reply_counts() {
    let page = |score_label: &str, reply_label: &str, score_first: bool| {
        let rows: String = [
            ("Printer will not start", 0, 4),
            ("Which cable for the screen", 1, 2),
            ("Router drops at night", 0, 7),
        ]
        .iter()
        .enumerate()
        .map(|(index, (title, votes, answers))| {
            let votes = format!("<div class=\"votes\"><span>{votes}</span> {score_label}</div>");
            let answers =
                format!("<div class=\"status\"><strong>{answers}</strong> {reply_label}</div>");
            let stats = if score_first {
                format!("{votes}{answers}")
            } else {
                format!("{answers}{votes}")
            };
            format!(
                "<div class=\"summary\"><div class=\"stats\">{stats}</div><h3><a \
                 href=\"/questions/{index}/q\">{title}</a></h3>\
                 <div class=\"last\">2025-12-3{index} 10:15</div></div>"
            )
        })
        .collect();
        format!("<html><body><div class=\"questions\">{rows}</div></body></html>")
    };
    for (score_label, reply_label, score_first) in [
        ("votes", "answers", true),
        ("votes", "answers", false),
        ("score", "replies", true),
        ("Stimmen", "Antworten", true),
    ] {
        let replies: Vec<Option<u64>> = entries_of(&page(score_label, reply_label, score_first))
            .into_iter()
            .map(|(_, replies, _)| replies)
            .collect();
        assert_eq!(
            replies,
            [4, 2, 7].map(Some),
            "{score_label} beside {reply_label} (first: {score_first})"
        );
    }
}

/// The last page of a question list may hold one question alone: its entry is read from its
/// own element, whose title is the heading's link, not the link to the tag's listing beside it
/// (made like a thread link but unnumbered), and whose score counts as a bare count even below
/// zero.
#[test]
fn a_lone_question_on_a_last_page_is_its_entry() {
    let page = |votes: &str| {
        format!(
            "<html><head><title>Hardware - Answers</title></head><body>\
             <header><a class=\"logo\" href=\"/\">Answers Community Site</a></header>\
             <div id=\"content\"><div class=\"crumbs\"><a href=\"/\">Answers Community Site</a></div>\
             <div id=\"questions\"><div class=\"question-summary\"><div class=\"stats\">\
             <div class=\"votes\"><span>{votes}</span> votes</div><div class=\"status\">\
             <strong>2</strong> answers</div><div class=\"views\">31 views</div></div>\
             <div class=\"summary\"><h3><a href=\"/questions/8/fan-noise-after-cleaning/\">Fan \
             noise after cleaning</a></h3><div class=\"tags\"><a href=\"/questions/tagged/hardware/\">\
             Hardware</a></div><div class=\"asked\">asked by <a href=\"/users/45/ash/\">ash</a> \
             2025-11-17 14:25</div></div></div></div>\
             <ul class=\"pager\"><li><a href=\"/questions/tagged/hardware/?page=1\">1</a></li>\
             <li><span>2</span></li></ul></div></body></html>"
        )
    };
    for votes in ["3", "0", "-1"] {
        check_page(
            &page(votes),
            &[("Fan noise after cleaning", 2, "2025-11-17T14:25")],
        );
    }
}
