use super::*;
use crate::baselines::BreadthFirst;
use crate::lists::{PageContent, SiteId};
use crate::toy::{ToyForum, at, replay};

/// A board of two pages and two threads of one page each, every page fetched once.
fn board_and_two_threads() -> Lists {
    let mut lists = Lists::new();
    lists.add_index_list(ListId(1), SiteId(0));
    lists.add_post_list(ListId(10), SiteId(0), Some(ListId(1)));
    lists.add_post_list(ListId(11), SiteId(0), Some(ListId(1)));
    for (list, page, pages) in [(1, 1, 2), (1, 2, 2), (10, 1, 1), (11, 1, 1)] {
        let content = if list == 1 {
            PageContent::Entries(Vec::new())
        } else {
            PageContent::Posts(vec![at(0)])
        };
        let fetched = FetchedPage {
            list: ListId(list),
            page,
            fetched_at: at(0),
            page_count: Some(pages),
            content,
        };
        lists.record(&fetched).unwrap();
    }
    lists
}

/// Plans a day of hourly windows with the scores of `scored` ((list, page) → score, others
/// zero) and checks each page's share of the re-crawl's polls against `expected`.
fn check_shares(scored: &[((u64, u32), f64)], expected: &[((u64, u32), f64)]) {
    let lists = board_and_two_threads();
    let table: HashMap<(u64, u32), f64> = scored.iter().copied().collect();
    let scores =
        PageScores::new(move |list, page| table.get(&(list.0, page)).copied().unwrap_or(0.0));
    let mut policy = DiscoveryRanked::new(scores);
    let mut counts: HashMap<(u64, u32), f64> = HashMap::new();
    let mut total = 0.0;
    for hour in 0..24 {
        let window = Window::new(at(3600 * hour), at(3600 * (hour + 1))).unwrap();
        for request in policy.plan(&lists, window, 200) {
            *counts.entry((request.list.0, request.page)).or_default() += 1.0;
            total += 1.0;
        }
    }
    for &(page, share) in expected {
        let got = counts.get(&page).copied().unwrap_or(0.0) / total;
        assert!(
            (got - share).abs() < 0.01,
            "scores {scored:?}: page {page:?} got share {got:.4}, expected {share:.4} ({counts:?})"
        );
    }
}

#[test]
fn pages_are_revisited_in_proportion_to_the_square_root_of_their_scores() {
    // Weights 10, 5, 1, 1.
    check_shares(
        &[
            ((1, 1), 100.0),
            ((1, 2), 25.0),
            ((10, 1), 1.0),
            ((11, 1), 1.0),
        ],
        &[
            ((1, 1), 10.0 / 17.0),
            ((1, 2), 5.0 / 17.0),
            ((10, 1), 1.0 / 17.0),
            ((11, 1), 1.0 / 17.0),
        ],
    );
    // Equal scores, whatever their scale: a plain cyclic re-crawl.
    check_shares(
        &[((1, 1), 0.3), ((1, 2), 0.3), ((10, 1), 0.3), ((11, 1), 0.3)],
        &[
            ((1, 1), 0.25),
            ((1, 2), 0.25),
            ((10, 1), 0.25),
            ((11, 1), 0.25),
        ],
    );
}

#[test]
fn pages_scored_zero_are_still_revisited_after_the_others() {
    // Weight 2 for the first board page; the three others get a tenth of it, 0.2 each.
    check_shares(
        &[((1, 1), 4.0)],
        &[
            ((1, 1), 2.0 / 2.6),
            ((1, 2), 0.2 / 2.6),
            ((10, 1), 0.2 / 2.6),
            ((11, 1), 0.2 / 2.6),
        ],
    );
    // Nothing scored, or only nonsense scored: every page alike.
    for nonsense in [0.0, -3.0, f64::NAN, f64::INFINITY] {
        check_shares(
            &[((1, 1), nonsense), ((10, 1), nonsense)],
            &[
                ((1, 1), 0.25),
                ((1, 2), 0.25),
                ((10, 1), 0.25),
                ((11, 1), 0.25),
            ],
        );
    }
}

#[test]
fn a_page_is_scored_once_and_weighs_the_square_root_of_its_score() {
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = std::sync::Arc::clone(&calls);
    let scores = PageScores::new(move |list, page| {
        counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if list == ListId(1) && page == 1 {
            9.0
        } else {
            1.0
        }
    });
    let mut policy = DiscoveryRanked::new(scores);
    let lists = board_and_two_threads();
    assert_eq!(policy.weight(ListId(1), 1), None);
    for hour in 0..3 {
        let window = Window::new(at(3600 * hour), at(3600 * (hour + 1))).unwrap();
        policy.plan(&lists, window, 10);
    }
    assert_eq!(policy.weight(ListId(1), 1), Some(3.0));
    assert_eq!(policy.weight(ListId(11), 1), Some(1.0));
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 4);
}

#[test]
fn board_pages_scored_for_discovery_find_new_threads_sooner_than_breadth_first() {
    // The scores a browse log gives a forum: a board's first page finds most new threads, its
    // later pages a few, thread pages almost none. At the same budget the ranked re-crawl
    // visits first pages more often than a breadth-first walk over every page can, so new
    // threads are found (and their first posts stored) sooner, and the budget is kept (the
    // toy replay panics otherwise).
    let day = 86_400;
    let forum = ToyForum::generate(5, 4, 20.0, 20 * day);
    let boards = forum.boards.clone();
    let scores = PageScores::new(move |list, page| match (boards.contains(&list), page) {
        (true, 1) => 16.0,
        (true, _) => 4.0,
        (false, _) => 0.25,
    });
    let ranked = replay(
        Box::new(DiscoveryRanked::new(scores)),
        &forum,
        0,
        20 * day,
        3600,
        20,
        10 * day,
    );
    let breadth_first = replay(
        Box::new(BreadthFirst::new()),
        &forum,
        0,
        20 * day,
        3600,
        20,
        10 * day,
    );
    eprintln!("behaviour {ranked:?}\nbfs {breadth_first:?}");
    assert!(ranked.measured_posts > 500, "{ranked:?}");
    assert!(
        ranked.first_post_mean_delay * 2.0 < breadth_first.first_post_mean_delay,
        "behaviour {ranked:?}, bfs {breadth_first:?}"
    );
}
