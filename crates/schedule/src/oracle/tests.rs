use super::*;
use crate::policy::Policy;
use crate::toy::{ToyForum, at, replay};
use crate::trawl::{Trawl, TrawlConfig};

const DAY_SECONDS: i64 = 86_400;

/// Every post of the toy forum as the arrival oracle is told it.
fn arrivals_of(forum: &ToyForum) -> KnownArrivals {
    KnownArrivals::new(forum.threads.iter().flat_map(|thread| {
        thread
            .posts
            .iter()
            .enumerate()
            .map(move |(position, &written)| Arrival {
                at: at(written),
                list: thread.id,
                page: (position / forum.posts_per_page) as u32 + 1,
                board: thread.board,
            })
    }))
}

/// The toy forum's true hourly rates per board, in blocks of `block_days`.
fn rates_of(forum: &ToyForum, block_days: u32, blocks: usize) -> KnownRates {
    KnownRates::from_arrivals(
        at(0),
        block_days,
        blocks,
        true,
        forum.threads.iter().flat_map(|thread| {
            thread
                .posts
                .iter()
                .map(move |&written| (thread.board, written))
        }),
    )
}

fn check_rates(
    arrivals: &[(u64, i64)],
    block_days: u32,
    asked: (u64, i64),
    expected: Option<[f64; 24]>,
) {
    let rates = KnownRates::from_arrivals(
        at(0),
        block_days,
        2,
        false,
        arrivals
            .iter()
            .map(|&(list, second)| (ListId(list), second)),
    );
    assert_eq!(
        rates.hourly(ListId(asked.0), asked.1).copied(),
        expected,
        "{arrivals:?} asked {asked:?}"
    );
}

fn hourly_rate(counts: &[(usize, f64)], block_days: u32) -> [f64; 24] {
    let mut rates = [0.0; 24];
    for &(hour, count) in counts {
        rates[hour] = count / (f64::from(block_days) * 3600.0);
    }
    rates
}

#[test]
fn a_shared_shape_spreads_each_lists_count_as_the_site_spreads_its_arrivals() {
    let hour = 3600;
    // List 1 posts twice at 01:xx, list 2 twice at 03:xx: each list's two posts are spread
    // half and half over hours 1 and 3.
    let arrivals = [(1, hour), (1, hour + 9), (2, 3 * hour), (2, 3 * hour + 9)];
    let rates = KnownRates::from_arrivals(
        at(0),
        1,
        1,
        true,
        arrivals
            .iter()
            .map(|&(list, second)| (ListId(list), second)),
    );
    let expected = hourly_rate(&[(1, 1.0), (3, 1.0)], 1);
    assert_eq!(rates.hourly(ListId(1), 0), Some(&expected));
    assert_eq!(rates.hourly(ListId(2), 0), Some(&expected));
}

#[test]
fn known_rates_count_arrivals_per_block_and_hour() {
    let hour = 3600;
    // Two posts at 01:xx in the first block of 2 days: a rate of 2 per 2 × 3600 s.
    check_rates(
        &[(1, hour + 5), (1, DAY_SECONDS + hour + 9)],
        2,
        (1, 10),
        Some(hourly_rate(&[(1, 2.0)], 2)),
    );
    // The second block has its own rates; instants after the last block read the last.
    check_rates(
        &[(1, hour), (1, 2 * DAY_SECONDS + 5 * hour)],
        2,
        (1, 9 * DAY_SECONDS),
        Some(hourly_rate(&[(5, 1.0)], 2)),
    );
    // Arrivals outside the blocks are not counted; unknown lists have no rates.
    check_rates(&[(1, 7 * DAY_SECONDS)], 2, (1, 0), None);
    check_rates(&[(1, hour)], 2, (2, 0), None);
}

#[test]
fn the_arrival_oracle_stores_every_post_when_it_is_written() {
    let forum = ToyForum::generate(5, 4, 20.0, 20 * DAY_SECONDS);
    // Ample budget after a day's warm-up: every post is fetched at its instant.
    let oracle = Box::new(ArrivalOracle::new(arrivals_of(&forum)));
    let outcome = replay(
        oracle,
        &forum,
        0,
        20 * DAY_SECONDS,
        3600,
        200,
        5 * DAY_SECONDS,
    );
    assert!(outcome.measured_posts > 300, "{outcome:?}");
    assert_eq!(outcome.lost, 0, "{outcome:?}");
    assert!(outcome.mean_delay < 1.0, "{outcome:?}");
}

#[test]
fn the_arrival_oracle_keeps_to_a_short_budget_and_loses_nothing() {
    let forum = ToyForum::generate(6, 4, 40.0, 20 * DAY_SECONDS);
    let oracle = Box::new(ArrivalOracle::new(arrivals_of(&forum)));
    // Twenty fetches an hour for about 300 posts a day, a board and a thread page for each new
    // thread: short at the evening peak, so pages are fetched at their last arrival in an hour
    // and what does not fit waits for the next.
    let outcome = replay(
        oracle,
        &forum,
        0,
        20 * DAY_SECONDS,
        3600,
        20,
        5 * DAY_SECONDS,
    );
    eprintln!("{outcome:?}");
    assert_eq!(outcome.lost, 0, "{outcome:?}");
    assert!(outcome.mean_delay < 1800.0, "{outcome:?}");
}

#[test]
fn the_rate_oracle_beats_uniform_polling_and_is_named_as_such() {
    let forum = ToyForum::generate(7, 6, 30.0, 30 * DAY_SECONDS);
    let rate_oracle = Trawl::rate_oracle(rates_of(&forum, 10, 3));
    assert_eq!(rate_oracle.name(), "rate-oracle");
    let run = |policy: Box<dyn Policy>| {
        replay(
            policy,
            &forum,
            0,
            30 * DAY_SECONDS,
            3600,
            6,
            10 * DAY_SECONDS,
        )
    };
    let oracle = run(Box::new(rate_oracle));
    let estimated = run(Box::new(Trawl::new(TrawlConfig::default())));
    let uniform = run(Box::new(crate::baselines::RoundRobin::new()));
    eprintln!("rate-oracle {oracle:?}\ntrawl {estimated:?}\nuniform {uniform:?}");
    assert!(
        oracle.mean_delay < uniform.mean_delay,
        "{oracle:?} {uniform:?}"
    );
    assert!(
        oracle.mean_delay < 1.1 * estimated.mean_delay,
        "{oracle:?} {estimated:?}"
    );
}

/// Boards whose threads start as stationary Poisson arrivals at `per_day` threads a day each,
/// and never get a reply: the setting of the closed forms.
fn stationary_forum(seed: u64, per_day: &[f64], horizon: i64) -> ToyForum {
    let mut random = crate::random::SplitMix64::new(seed);
    let mut threads = Vec::new();
    for (index, &rate) in per_day.iter().enumerate() {
        let board = ListId(index as u64 + 1);
        for start in random.poisson_arrivals(rate / DAY_SECONDS as f64, horizon as f64) {
            let id = ListId(1000 + threads.len() as u64);
            threads.push(crate::toy::ToyThread {
                id,
                board,
                posts: vec![start as i64],
            });
        }
    }
    // Thread ids must follow their position; the toy forum finds a thread by id − 1000.
    ToyForum {
        boards: (1..=per_day.len() as u64).map(ListId).collect(),
        threads,
        entries_per_page: 10,
        posts_per_page: 10,
    }
}

#[test]
fn square_root_polling_reaches_its_closed_form_on_stationary_poisson_boards() {
    // Rates falling off as k^-1.5 over eight boards, 200 threads a day in all.
    let weights: Vec<f64> = (1..=8).map(|k| 1.0 / f64::from(k).powf(1.5)).collect();
    let total: f64 = weights.iter().sum();
    let per_day: Vec<f64> = weights
        .iter()
        .map(|weight| 200.0 * weight / total)
        .collect();
    let horizon = 40 * DAY_SECONDS;
    let forum = stationary_forum(11, &per_day, horizon);
    let rates = rates_of(&forum, 40, 1);
    // Without the floor of ours, which bounds the longest gap at the mean's expense when the
    // rates are exactly known and stationary.
    let pure = TrawlConfig {
        least_share_of_even_polls: 0.0,
        most_predicted_tail_ratio: f64::INFINITY,
        ..TrawlConfig::default()
    };
    let outcome = replay(
        Box::new(Trawl::rate_oracle_with(rates, pure)),
        &forum,
        0,
        horizon,
        3600,
        40,
        10 * DAY_SECONDS,
    );
    // Every fetch that is not a board poll is a new thread's page.
    let polls_per_second = (outcome.fetches - forum.threads.len() as u64) as f64 / horizon as f64;
    let lambdas: Vec<f64> = per_day
        .iter()
        .map(|rate| rate / DAY_SECONDS as f64)
        .collect();
    let expected = crate::optimal::square_root_mean_delay(&lambdas, polls_per_second);
    let uniform = crate::optimal::uniform_mean_delay(lambdas.len(), polls_per_second);
    eprintln!(
        "{outcome:?}: √-rate closed form {expected:.0} s, uniform {uniform:.0} s, measured {:.0} s",
        outcome.mean_delay
    );
    let ratio = outcome.mean_delay / expected;
    // The measured delay adds to the polling gap the wait of the follow-ups a busy hour defers.
    assert!(
        (0.9..1.15).contains(&ratio),
        "measured {} against {expected}",
        outcome.mean_delay
    );
    assert!(outcome.mean_delay < 0.9 * uniform, "{uniform}");
}
