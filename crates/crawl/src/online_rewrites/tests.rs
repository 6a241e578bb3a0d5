//! Tests of the URL rewrites learned while crawling and from the sample's pairs.

use super::*;

fn url(text: &str) -> Url {
    Url::parse(text).unwrap()
}

#[test]
fn a_part_is_redundant_after_two_pages_agree_and_none_disagrees() {
    let mut online = OnlineRewrites::default();
    let start_zero = UrlRewrite::DropQueryPair {
        key: "start".into(),
        value: "0".into(),
    };
    online.observe(&url("http://f.test/v?t=5"), Some(1));
    online.observe(&url("http://f.test/v?t=5&start=0"), Some(1));
    assert!(online.rules.is_empty(), "one agreeing page is not enough");
    online.observe(&url("http://f.test/v?t=6"), Some(2));
    online.observe(&url("http://f.test/v?t=6&start=0"), Some(2));
    assert_eq!(
        online.rules,
        [ScopedRewrite {
            scope: "v".into(),
            rule: OnlineRule::Part(start_zero)
        }]
    );
    online.observe(&url("http://f.test/v?t=7"), Some(3));
    online.observe(&url("http://f.test/v?t=7&start=0"), Some(4));
    assert!(
        online.rules.is_empty(),
        "a contradiction withdraws the rule"
    );
}

/// Weighs `pairs` (URL, spelling it may be, whether the sample found them alike) and checks
/// the spelling each URL of `cases` is read as.
fn check_sampled(pairs: &[(&str, &str, bool)], cases: &[(&str, &str)]) {
    let mut online = OnlineRewrites::default();
    for (longer, same_as, same) in pairs {
        online.weigh_sampled(&url(longer), &url(same_as), *same);
    }
    for (before, after) in cases {
        assert_eq!(
            online.canonical(&url(before)).as_str(),
            *after,
            "{before} after {pairs:?}"
        );
    }
}

#[test]
fn pairs_the_sampler_settled_put_rules_in_force_before_the_crawl() {
    let start_zero = [
        (
            "http://f.test/v.php?t=1&start=0",
            "http://f.test/v.php?t=1",
            true,
        ),
        (
            "http://f.test/v.php?t=2&start=0",
            "http://f.test/v.php?t=2",
            true,
        ),
    ];
    check_sampled(
        &start_zero,
        &[
            ("http://f.test/v.php?t=9&start=0", "http://f.test/v.php?t=9"),
            (
                "http://f.test/v.php?t=9&start=15",
                "http://f.test/v.php?t=9&start=15",
            ),
            // Learned in the scope `v.php` only.
            (
                "http://f.test/f.php?f=9&start=0",
                "http://f.test/f.php?f=9&start=0",
            ),
        ],
    );
    // One pair is not enough, and a pair found different withdraws the rule.
    check_sampled(
        &start_zero[..1],
        &[(
            "http://f.test/v.php?t=9&start=0",
            "http://f.test/v.php?t=9&start=0",
        )],
    );
    let mut contradicted = start_zero.to_vec();
    contradicted.push((
        "http://f.test/v.php?t=3&start=0",
        "http://f.test/v.php?t=3",
        false,
    ));
    check_sampled(
        &contradicted,
        &[(
            "http://f.test/v.php?t=9&start=0",
            "http://f.test/v.php?t=9&start=0",
        )],
    );
    check_sampled(
        &[
            (
                "http://f.test/t/5a3f-1.html",
                "http://f.test/t/5a3f.html",
                true,
            ),
            (
                "http://f.test/t/9b1c-1.html",
                "http://f.test/t/9b1c.html",
                true,
            ),
        ],
        &[
            ("http://f.test/t/0e0e-1.html", "http://f.test/t/0e0e.html"),
            ("http://f.test/t/0e0e-2.html", "http://f.test/t/0e0e-2.html"),
        ],
    );
    check_sampled(
        &[
            (
                "http://f.test/index.php/board,1.0.html",
                "http://f.test/index.php?board=1.0",
                true,
            ),
            (
                "http://f.test/index.php/board,2.0.html",
                "http://f.test/index.php?board=2.0",
                true,
            ),
            // Pairs that fit no rule are ignored.
            ("http://f.test/a", "http://f.test/b", true),
        ],
        &[
            (
                "http://f.test/index.php/board,7.20.html",
                "http://f.test/index.php?board=7.20",
            ),
            ("http://f.test/a", "http://f.test/a"),
        ],
    );
}

#[test]
fn first_pages_with_default_arguments_are_folded_once_the_sample_agrees() {
    // YaBB-like offsets at the end of a query value: the boards' and the threads' rules.
    check_sampled(
        &[
            (
                "http://f.test/Y.pl?board=news/0",
                "http://f.test/Y.pl?board=news",
                true,
            ),
            (
                "http://f.test/Y.pl?board=bikes/0",
                "http://f.test/Y.pl?board=bikes",
                true,
            ),
            (
                "http://f.test/Y.pl?num=170001/0",
                "http://f.test/Y.pl?num=170001",
                true,
            ),
            (
                "http://f.test/Y.pl?num=170002/0",
                "http://f.test/Y.pl?num=170002",
                true,
            ),
        ],
        &[
            (
                "http://f.test/Y.pl?board=tools/0",
                "http://f.test/Y.pl?board=tools",
            ),
            (
                "http://f.test/Y.pl?num=170009/0",
                "http://f.test/Y.pl?num=170009",
            ),
            // Later pages keep their offset; another key's offset is another rule.
            (
                "http://f.test/Y.pl?board=tools/20",
                "http://f.test/Y.pl?board=tools/20",
            ),
            (
                "http://f.test/Y.pl?num=170009/15",
                "http://f.test/Y.pl?num=170009/15",
            ),
            ("http://f.test/Y.pl?cat=a/0", "http://f.test/Y.pl?cat=a/0"),
        ],
    );
    // A first page's number with its default sort order.
    let active_first = [
        (
            "http://f.test/q/tagged/a/?sort=active&page=1",
            "http://f.test/q/tagged/a/",
            true,
        ),
        (
            "http://f.test/q/tagged/b/?sort=active&page=1",
            "http://f.test/q/tagged/b/",
            true,
        ),
    ];
    check_sampled(
        &active_first,
        &[
            (
                "http://f.test/q/tagged/c/?sort=active&page=1",
                "http://f.test/q/tagged/c/",
            ),
            (
                "http://f.test/q/tagged/c/?sort=active&page=2",
                "http://f.test/q/tagged/c/?sort=active&page=2",
            ),
            (
                "http://f.test/q/tagged/c/?sort=newest&page=1",
                "http://f.test/q/tagged/c/?sort=newest&page=1",
            ),
        ],
    );
    // One list whose page 1 of that order shows other content than its plain URL (its own
    // default order is another) keeps every such pair apart.
    let mut contradicted = active_first.to_vec();
    contradicted.push((
        "http://f.test/q/?sort=active&page=1",
        "http://f.test/q/",
        false,
    ));
    check_sampled(
        &contradicted,
        &[
            (
                "http://f.test/q/?sort=active&page=1",
                "http://f.test/q/?sort=active&page=1",
            ),
            (
                "http://f.test/q/tagged/c/?sort=active&page=1",
                "http://f.test/q/tagged/c/?sort=active&page=1",
            ),
        ],
    );
}

#[test]
fn default_arguments_are_learned_while_crawling_from_first_pages_only() {
    let mut online = OnlineRewrites::default();
    for (board, records) in [("news", 1), ("bikes", 2)] {
        online.observe(
            &url(&format!("http://f.test/Y.pl?board={board}")),
            Some(records),
        );
        online.observe(
            &url(&format!("http://f.test/Y.pl?board={board}/0")),
            Some(records),
        );
    }
    assert_eq!(
        online
            .canonical(&url("http://f.test/Y.pl?board=tools/0"))
            .as_str(),
        "http://f.test/Y.pl?board=tools"
    );
    // Lists whose page 1 of a sort order differs from their plain URL teach nothing.
    let mut online = OnlineRewrites::default();
    for (list, records) in [("a", 1), ("b", 2), ("c", 3)] {
        online.observe(&url(&format!("http://f.test/q/{list}/")), Some(records));
        online.observe(
            &url(&format!("http://f.test/q/{list}/?sort=newest&page=1")),
            Some(records + 10),
        );
    }
    assert!(online.rules.is_empty(), "{:?}", online.rules);
}

fn page_one_rule(scope: &str) -> ScopedRewrite {
    ScopedRewrite {
        scope: scope.into(),
        rule: OnlineRule::Part(UrlRewrite::DropQueryPair {
            key: "page".into(),
            value: "1".into(),
        }),
    }
}

#[test]
fn rules_hold_only_in_the_scope_they_were_learned_in() {
    // Threads number their pages from 1 and boards from 0, as on the simulator's Discourse.
    let mut online = OnlineRewrites::default();
    for thread in 1..=3 {
        online.observe(&url(&format!("http://f.test/t/a/{thread}")), Some(thread));
        online.observe(
            &url(&format!("http://f.test/t/a/{thread}?page=1")),
            Some(thread),
        );
    }
    for board in 1..=3 {
        online.observe(
            &url(&format!("http://f.test/c/b/{board}")),
            Some(10 + board),
        );
        online.observe(
            &url(&format!("http://f.test/c/b/{board}?page=1")),
            Some(20 + board),
        );
    }
    assert_eq!(online.rules, [page_one_rule("t")]);
    let cases = [
        ("http://f.test/t/z/9?page=1", "http://f.test/t/z/9"),
        ("http://f.test/c/b/9?page=1", "http://f.test/c/b/9?page=1"),
        ("http://f.test/t/z/9?page=2", "http://f.test/t/z/9?page=2"),
    ];
    for (before, after) in cases {
        assert_eq!(online.canonical(&url(before)).as_str(), after, "{before}");
    }
}

#[test]
fn numbered_name_suffixes_are_learned_from_first_pages_only() {
    let mut online = OnlineRewrites::default();
    for thread in ["5a3f", "9b1c", "77d0"] {
        online.observe(&url(&format!("http://f.test/t/{thread}.html")), Some(1));
        online.observe(&url(&format!("http://f.test/t/{thread}-1.html")), Some(1));
        online.observe(&url(&format!("http://f.test/t/{thread}-2.html")), Some(2));
    }
    assert_eq!(
        online.rules,
        [ScopedRewrite {
            scope: "t".into(),
            rule: OnlineRule::NameSuffix("-1".into())
        }]
    );
    let cases = [
        ("http://f.test/t/0e0e-1.html", "http://f.test/t/0e0e.html"),
        ("http://f.test/t/0e0e-2.html", "http://f.test/t/0e0e-2.html"),
        ("http://f.test/b/0e0e-1.html", "http://f.test/b/0e0e-1.html"),
    ];
    for (before, after) in cases {
        assert_eq!(online.canonical(&url(before)).as_str(), after, "{before}");
    }
}

#[test]
fn pages_past_a_lists_end_answering_its_first_page_teach_no_rule() {
    let mut online = OnlineRewrites::default();
    for board in 0..4 {
        let first = format!("http://f.test/board.php?id={board}");
        online.observe(&url(&first), Some(board));
        online.observe(&url(&format!("{first}&page=3")), Some(board));
        online.observe(
            &url(&format!("http://f.test/forums/b.{board}/")),
            Some(10 + board),
        );
        online.observe(
            &url(&format!("http://f.test/forums/b.{board}/page-7")),
            Some(10 + board),
        );
    }
    assert!(online.rules.is_empty(), "{:?}", online.rules);
}

#[test]
fn pages_without_records_prove_nothing() {
    let mut online = OnlineRewrites::default();
    for thread in 0..5 {
        online.observe(&url(&format!("http://f.test/login?next={thread}")), None);
        online.observe(&url("http://f.test/login"), None);
    }
    assert!(online.rules.is_empty());
    assert!(online.signature_of_url.is_empty());
}

#[test]
fn shapes_carrying_the_same_numbers_are_joined_by_their_records() {
    let mut online = OnlineRewrites::default();
    for topic in 1..=3u64 {
        online.observe(
            &url(&format!("http://f.test/index.php?topic={topic}.0")),
            Some(topic),
        );
        online.observe(
            &url(&format!("http://f.test/index.php/topic,{topic}.0.html")),
            Some(topic),
        );
        // A board with the same number lists other records: no evidence either way for the
        // topic shapes.
        online.observe(
            &url(&format!("http://f.test/index.php?board={topic}.0")),
            Some(100 + topic),
        );
    }
    let cases = [
        (
            "http://f.test/index.php/topic,9.0.html",
            "http://f.test/index.php?topic=9.0",
        ),
        (
            "http://f.test/index.php/topic,9.15.html",
            "http://f.test/index.php?topic=9.15",
        ),
        (
            "http://f.test/index.php?topic=9.0",
            "http://f.test/index.php?topic=9.0",
        ),
        (
            "http://f.test/index.php?board=9.0",
            "http://f.test/index.php?board=9.0",
        ),
    ];
    for (before, after) in cases {
        assert_eq!(online.canonical(&url(before)).as_str(), after, "{before}");
    }
}

#[test]
fn shapes_are_not_joined_when_one_pair_disagrees() {
    let mut online = OnlineRewrites::default();
    for (number, same) in [(1u64, true), (2, true), (3, false)] {
        online.observe(&url(&format!("http://f.test/f?id={number}")), Some(number));
        let other = if same { number } else { 50 };
        online.observe(&url(&format!("http://f.test/g?id={number}")), Some(other));
    }
    assert!(online.twins.is_empty(), "{:?}", online.twins);
    assert_eq!(
        online.canonical(&url("http://f.test/g?id=7")).as_str(),
        "http://f.test/g?id=7"
    );
}

/// Observes `pages` (URL, records) in order and checks the spelling each URL of `cases`
/// is read as.
fn check_twins(pages: &[(&str, u64)], cases: &[(&str, &str)]) {
    let mut online = OnlineRewrites::default();
    for (page, records) in pages {
        online.observe(&url(page), Some(*records));
    }
    for (before, after) in cases {
        assert_eq!(online.canonical(&url(before)).as_str(), *after, "{before}");
    }
}

#[test]
fn shapes_carrying_one_number_more_are_joined_by_their_records() {
    let static_then_dynamic = [
        ("http://f.test/thread-1-1-1.html", 1),
        ("http://f.test/thread-1-2-1.html", 11),
        ("http://f.test/forum.php?mod=viewthread&tid=1&page=1", 1),
        ("http://f.test/thread-2-1-1.html", 2),
        ("http://f.test/forum.php?mod=viewthread&tid=2&page=1", 2),
    ];
    check_twins(
        &static_then_dynamic,
        &[
            // The dynamic spelling of a first page is read as the static one ...
            (
                "http://f.test/forum.php?mod=viewthread&tid=9&page=1",
                "http://f.test/thread-9-1-1.html",
            ),
            // ... and of a later page too, as the two rules in force (the `1` put in
            // before or after the page's `1`) agree on it only when it is 1: a second page
            // is left alone.
            (
                "http://f.test/forum.php?mod=viewthread&tid=9&page=2",
                "http://f.test/forum.php?mod=viewthread&tid=9&page=2",
            ),
            // The static spelling is the earlier one and stays.
            (
                "http://f.test/thread-9-1-1.html",
                "http://f.test/thread-9-1-1.html",
            ),
        ],
    );
    // Met the other way round, the longer spelling is read as the shorter one, but only
    // with the left-out number it was learned with.
    let dynamic_then_static = [
        ("http://f.test/forum.php?mod=viewthread&tid=1&page=1", 1),
        ("http://f.test/thread-1-1-3.html", 1),
        ("http://f.test/forum.php?mod=viewthread&tid=2&page=2", 2),
        ("http://f.test/thread-2-2-3.html", 2),
    ];
    check_twins(
        &dynamic_then_static,
        &[
            (
                "http://f.test/thread-9-4-3.html",
                "http://f.test/forum.php?mod=viewthread&tid=9&page=4",
            ),
            (
                "http://f.test/thread-9-4-5.html",
                "http://f.test/thread-9-4-5.html",
            ),
        ],
    );
    // Records that differ once keep the shapes apart.
    let disagreeing = [
        ("http://f.test/thread-1-1-1.html", 1),
        ("http://f.test/forum.php?mod=viewthread&tid=1&page=1", 1),
        ("http://f.test/thread-2-1-1.html", 2),
        ("http://f.test/forum.php?mod=viewthread&tid=2&page=1", 2),
        ("http://f.test/thread-3-1-1.html", 3),
        ("http://f.test/forum.php?mod=viewthread&tid=3&page=1", 30),
    ];
    check_twins(
        &disagreeing,
        &[(
            "http://f.test/forum.php?mod=viewthread&tid=9&page=1",
            "http://f.test/forum.php?mod=viewthread&tid=9&page=1",
        )],
    );
}

#[test]
fn shapes_round_trip_their_numbers() {
    let cases = [
        "http://f.test/index.php/topic,8.15.html",
        "http://f.test/t/slug-2/227?page=1",
        "http://f.test/",
    ];
    for text in cases {
        let (shape, numbers) = shape_and_numbers(url(text).as_str());
        assert_eq!(
            fill_shape(&shape, &numbers).map(String::from),
            Some(text.to_string())
        );
    }
}
