//! The two rankings over the behaviour graph, the priority of URLs never seen, and the
//! patterns file.

mod support;

use support::{ListArchive, ScriptForum, SlugForum, Spelling, browse_log};
use trawl_behaviour::{Goal, PatternModel, PatternsError, TreeSettings, read_logs};

fn model_of(spelling: &dyn Spelling) -> PatternModel {
    let lines = browse_log(spelling, 30, 40, 7);
    PatternModel::learn(
        &read_logs([lines.join("\n").as_str()]),
        TreeSettings::default(),
    )
}

/// For `goal`, each URL of `order` has a strictly higher priority than the next.
fn check_order(spelling: &dyn Spelling, goal: Goal, order: &[&str]) {
    let model = model_of(spelling);
    let priorities: Vec<f64> = order.iter().map(|url| model.priority(url, goal)).collect();
    for (index, pair) in priorities.windows(2).enumerate() {
        assert!(
            pair[0] > pair[1],
            "{goal:?}: {} ({}) should rank above {} ({})",
            order[index],
            pair[0],
            order[index + 1],
            pair[1]
        );
    }
}

#[test]
fn comprehensive_fetch_puts_boards_and_threads_before_later_pages_and_profiles() {
    check_order(
        &ScriptForum,
        Goal::Fetch,
        &[
            "/viewforum.php?f=9",
            "/viewforum.php?f=9&start=25",
            "/viewtopic.php?t=5000",
            "/memberlist.php?mode=viewprofile&u=999",
        ],
    );
    check_order(
        &SlugForum,
        Goal::Fetch,
        &[
            "/forums/new.9/",
            "/forums/new.9/page-2",
            "/threads/new.5000/",
            "/members/someone.999/",
        ],
    );
}

#[test]
fn discovery_puts_new_post_lists_and_first_board_pages_before_threads() {
    check_order(
        &ScriptForum,
        Goal::Discovery,
        &[
            "/search.php?search_id=newposts",
            "/viewforum.php?f=9",
            "/viewtopic.php?t=5000&start=40",
        ],
    );
    check_order(
        &SlugForum,
        Goal::Discovery,
        &["/whats-new/", "/forums/new.9/", "/threads/new.5000/page-2"],
    );
    // Profiles and the login page lead to no new page.
    let model = model_of(&ScriptForum);
    assert_eq!(model.priority("/ucp.php?mode=login", Goal::Discovery), 0.0);
    assert_eq!(
        model.priority("/memberlist.php?mode=viewprofile&u=1", Goal::Discovery),
        0.0
    );
}

/// How far down a chain of `page_url(k)` pages (page `k` reached from page `k - 1`, the chain
/// starting at page 2, as an endless list's next pages do) the crawl still ranks a page of the
/// chain above `other`, linked from a page of another pattern: the last `k` that it does.
fn chain_ahead_of(
    model: &PatternModel,
    page_url: impl Fn(u32) -> String,
    other: &str,
) -> Option<u32> {
    let other = model.crawl_priority(other, 0);
    (2..200)
        .take_while(|&page| model.crawl_priority(&page_url(page), page - 2) > other)
        .last()
}

#[test]
fn a_chain_of_list_pages_falls_behind_the_messages_within_a_few_links() {
    // Regression (the simulator's mailarchive and nodebb families, 2026-11-28): a search
    // result list users paged through to page 4 ranked above the messages, each page linking
    // the next without end; ordered by pattern alone the crawl walked 120 pages down it within
    // its first tenth. Each link of a chain keeps the share of attention a user following
    // links keeps, so a chain falls behind what users read within a bounded number of links.
    let model = model_of(&ListArchive);
    let index = |page: u32| format!("/archives/list1/threads{page}.html");
    let message = "/archives/list2/msg00421.html";
    assert!(
        model.priority(&index(7), Goal::Fetch) > model.priority(message, Goal::Fetch),
        "users rank the index above the messages:\n{}",
        model.tree.render()
    );
    let ahead = chain_ahead_of(&model, index, message);
    assert!(
        ahead.is_some_and(|page| page < 40),
        "the index chain stays ahead of a message until page {ahead:?}"
    );
}

#[test]
fn attention_sums_to_one_over_the_leaves() {
    for spelling in [&ScriptForum as &dyn Spelling, &SlugForum] {
        let model = model_of(spelling);
        let total: f64 = model
            .tree
            .leaves()
            .map(|node| model.graph.scores[node.id].attention)
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "total attention {total}");
        assert!((model.graph.scores[0].attention - 1.0).abs() < 1e-9);
    }
}

#[test]
fn rankings_list_every_leaf_best_first() {
    let model = model_of(&SlugForum);
    let leaves = model.tree.leaves().count();
    for ranking in [&model.fetch_ranking, &model.discovery_ranking] {
        assert_eq!(ranking.len(), leaves);
        assert!(
            ranking
                .windows(2)
                .all(|pair| pair[0].score >= pair[1].score)
        );
    }
}

#[test]
fn a_patterns_file_reads_back_and_another_format_is_refused() {
    let model = model_of(&ScriptForum);
    let text = serde_json::to_string(&model).expect("serialises");
    let read = PatternModel::from_json(&text).expect("reads back");
    assert_eq!(read, model);
    let other = text.replacen("trawl-patterns/1", "trawl-patterns/0", 1);
    assert!(matches!(
        PatternModel::from_json(&other),
        Err(PatternsError::Format { .. })
    ));
    assert!(matches!(
        PatternModel::from_json("{}"),
        Err(PatternsError::Parse(_))
    ));
}

#[test]
fn an_empty_log_gives_one_pattern_and_no_preference() {
    let model = PatternModel::learn(&read_logs(["garbage line\n"]), TreeSettings::default());
    assert_eq!(model.tree.nodes.len(), 1);
    assert_eq!(model.priority("/anything", Goal::Fetch), 0.0);
    assert_eq!(model.report.malformed, 1);
}

fn check_spearman(first: &[f64], second: &[f64], expected: Option<f64>) {
    let found = trawl_behaviour::reliability::spearman(first, second);
    match (found, expected) {
        (Some(found), Some(expected)) => assert!((found - expected).abs() < 1e-9, "{found}"),
        _ => assert_eq!(found, expected),
    }
}

#[test]
fn spearman_rank_correlation() {
    check_spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0], Some(1.0));
    check_spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0], Some(-1.0));
    // Ties take their average rank: ranks (1.5, 1.5, 3) against (1, 2, 3).
    check_spearman(
        &[5.0, 5.0, 9.0],
        &[1.0, 2.0, 3.0],
        Some(0.866_025_403_784_438_6),
    );
    check_spearman(&[1.0, 1.0], &[1.0, 2.0], None);
    check_spearman(&[1.0], &[1.0], None);
}

#[test]
fn patterns_of_one_period_rank_the_next_periods_new_urls() {
    // Two periods of one forum: the second names threads the first never saw.
    let lines = browse_log(&ScriptForum, 30, 80, 11);
    let (first, second) = lines.split_at(lines.len() / 2);
    let first_log = read_logs([first.join("\n").as_str()]);
    let second_log = read_logs([second.join("\n").as_str()]);
    let model = PatternModel::learn(&first_log, TreeSettings::default());
    let (same_period, _) =
        trawl_behaviour::reliability::rank_correlation(&model, &first_log, Goal::Fetch, None);
    let (next_period, new_urls) = trawl_behaviour::reliability::rank_correlation(
        &model,
        &second_log,
        Goal::Fetch,
        Some(&first_log),
    );
    let (same_period, next_period) = (same_period.expect("ranked"), next_period.expect("ranked"));
    assert!(new_urls > 50, "{new_urls} new URLs");
    assert!(same_period > 0.3, "same period {same_period}");
    assert!(next_period > 0.3, "next period {next_period}");
}
