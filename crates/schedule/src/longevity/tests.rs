use super::*;
use crate::lists::{ListId, PageContent, SiteId};
use crate::toy::{ToyForum, at, replay};

fn history(visits: u32, changes: u32, span: i64, samples: &[(f64, f64)]) -> PageHistory {
    PageHistory {
        first_fetch: 0,
        last_fetch: span,
        visits,
        changes,
        samples: samples.iter().copied().collect(),
        due: 0,
    }
}

fn check_curve_fitting(samples: &[(f64, f64)], threshold: f64, expected_slope: f64) {
    let policy = Longevity::curve_fitting();
    let page = history(samples.len() as u32 + 1, 0, 0, samples);
    let slope = Longevity::slope(&page);
    assert!(
        (slope - expected_slope).abs() < 1e-12 * expected_slope.max(1.0),
        "{samples:?}: slope {slope}"
    );
    // U(τ*) = a·τ*²/2 = T.
    let interval = policy.interval(&page, threshold);
    let expected = (2.0 * threshold / expected_slope).sqrt();
    assert!(
        (interval - expected.clamp(SHORTEST_INTERVAL, LONGEST_INTERVAL)).abs() < 1e-6,
        "{samples:?}: {interval} against {expected}"
    );
}

#[test]
fn curve_fitting_fits_a_line_through_the_origin_and_inverts_its_utility() {
    // A page fetched once: one record a day.
    check_curve_fitting(&[], 1000.0, 1.0 / DAY);
    // Ten records an hour, then twenty in two hours: least squares through the origin.
    let hour = 3600.0;
    check_curve_fitting(
        &[(hour, 10.0), (hour, 10.0), (2.0 * hour, 20.0)],
        50.0,
        10.0 / hour,
    );
    let slope = (10.0 * hour + 10.0 * 2.0 * hour) / (hour * hour + 4.0 * hour * hour);
    check_curve_fitting(&[(hour, 10.0), (2.0 * hour, 10.0)], 50.0, slope);
    // A page that never changed: half a record over the two days seen and one more.
    check_curve_fitting(&[(DAY, 0.0), (DAY, 0.0)], 10.0, 0.5 / (3.0 * DAY));
}

fn check_bound_based(visits: u32, changes: u32, span: i64, threshold: f64) {
    let policy = Longevity::bound_based();
    let page = history(visits, changes, span, &[]);
    let rate = Longevity::change_rate(&page);
    let utility = |tau: f64| (1.0 - (-rate * tau).exp() * (1.0 + rate * tau)) / rate;
    let interval = policy.interval(&page, threshold);
    if rate * threshold >= 1.0 {
        assert_eq!(interval, LONGEST_INTERVAL, "never reaches the threshold");
    } else if interval > SHORTEST_INTERVAL && interval < LONGEST_INTERVAL {
        let reached = utility(interval);
        assert!(
            (reached - threshold).abs() < 1e-3 * threshold,
            "{visits} {changes}: U({interval}) = {reached} against {threshold}"
        );
    }
}

#[test]
fn bound_based_refreshes_when_the_utility_bound_reaches_the_threshold() {
    // Rates from Cho and Garcia-Molina's estimator over a day of hourly visits.
    for (visits, changes) in [(25, 0), (25, 3), (25, 12), (25, 24), (1, 0)] {
        for threshold in [10.0, 300.0, 3000.0, 50_000.0] {
            check_bound_based(visits, changes, 86_400, threshold);
        }
    }
}

#[test]
fn the_threshold_fills_the_budget_and_favours_pages_that_change() {
    let mut lists = Lists::new();
    let mut policy = Longevity::curve_fitting();
    lists.add_index_list(ListId(1), SiteId(0));
    // Thread 10 grows by ten posts an hour; thread 20 never.
    for (thread, posts_per_visit) in [(10u64, 10usize), (20, 0)] {
        lists.add_post_list(ListId(thread), SiteId(0), Some(ListId(1)));
        let mut posts = vec![at(0)];
        for visit in 0..6i64 {
            let when = visit * 3600;
            posts.extend((0..posts_per_visit).map(|k| at(when - 1 - k as i64).max(at(0))));
            posts.sort();
            let fetched = FetchedPage {
                list: ListId(thread),
                page: 1,
                fetched_at: at(when),
                page_count: Some(1),
                content: PageContent::Posts(posts.clone()),
            };
            let change = lists.record(&fetched).unwrap();
            policy.observe(&lists, &fetched, &change);
        }
    }
    policy.set_threshold(48.0);
    let per_day = policy.refreshes_per_day(policy.threshold);
    assert!((per_day - 48.0).abs() < 0.01, "{per_day}");
    let busy = policy.pages[&(ListId(10), 1)].due - 5 * 3600;
    let quiet = policy.pages[&(ListId(20), 1)].due - 5 * 3600;
    assert!(
        busy * 4 < quiet,
        "busy page every {busy} s, quiet every {quiet} s"
    );
}

#[test]
fn both_keep_to_the_budget_on_a_toy_forum() {
    let day = 86_400;
    let forum = ToyForum::generate(31, 4, 20.0, 20 * day);
    for policy in [Longevity::curve_fitting(), Longevity::bound_based()] {
        let name = policy.name();
        let outcome = replay(Box::new(policy), &forum, day, 20 * day, 3600, 30, 10 * day);
        eprintln!("{name} {outcome:?}");
        assert!(outcome.measured_posts > 500, "{name}: {outcome:?}");
        assert!(
            outcome.lost * 2 < outcome.measured_posts,
            "{name}: {outcome:?}"
        );
    }
}

/// A policy of `model` knowing `quiet` pages that never changed and one that gains ten records
/// an hour, each visited hourly for a day.
fn many_pages(model: LongevityModel, quiet: u32) -> Longevity {
    let mut policy = Longevity::new(model);
    let hourly = |records: f64| vec![(3600.0, records); SAMPLES_KEPT];
    let mut add = |page: u32, records: f64, changes: u32| {
        let mut kept = history(25, changes, DAY as i64, &hourly(records));
        kept.last_fetch = DAY as i64;
        policy.pages.insert((ListId(1), page), kept);
    };
    add(1, 10.0, 24);
    for page in 2..=quiet + 1 {
        add(page, 0.0, 0);
    }
    policy
}

fn check_threshold_sets_the_refreshes(model: LongevityModel, quiet: u32, per_day: f64) {
    let mut policy = many_pages(model, quiet);
    policy.set_threshold(per_day);
    let refreshes = policy.refreshes_per_day(policy.threshold);
    assert!(
        (refreshes - per_day).abs() < 0.01 * per_day,
        "{model:?}, {quiet} quiet pages: {refreshes} refreshes a day against {per_day}"
    );
    let busy = policy.interval(&policy.pages[&(ListId(1), 1)], policy.threshold);
    let quiet_interval = policy.interval(&policy.pages[&(ListId(1), 2)], policy.threshold);
    assert!(
        busy * 10.0 < quiet_interval,
        "{model:?}, {quiet} quiet pages: busy every {busy} s, quiet every {quiet_interval} s"
    );
}

#[test]
fn the_threshold_still_chooses_when_the_longest_interval_alone_would_fill_the_budget() {
    // Regression: with more pages than 30 days of the budget (3,000 pages at 60 refreshes a day
    // is 100 a day at the longest interval alone) every page waited the longest interval, the
    // threshold pinned at the top of its range, and both models made the same fetches.
    for model in [LongevityModel::CurveFitting, LongevityModel::BoundBased] {
        check_threshold_sets_the_refreshes(model, 3_000, 60.0);
        check_threshold_sets_the_refreshes(model, 30_000, 900.0);
        // Few pages: the longest interval stays 30 days.
        check_threshold_sets_the_refreshes(model, 20, 48.0);
    }
}

#[test]
fn a_page_the_threshold_never_reaches_waits_the_unstretched_longest_interval() {
    // Regression: with the longest interval stretched for a large forum under a small budget,
    // the bound-based pages changing faster than 1/T (boards) waited months, and at 1,000 a day
    // the corpus' stable stage stored no post.
    let mut policy = many_pages(LongevityModel::BoundBased, 30_000);
    policy.set_threshold(900.0);
    assert!(policy.longest_interval > LONGEST_INTERVAL);
    let fast = history(25, 24, DAY as i64, &[]);
    let rate = Longevity::change_rate(&fast);
    // A threshold its utility bound 1/λ stays below.
    assert_eq!(policy.interval(&fast, 2.0 / rate), LONGEST_INTERVAL);
    // A page seen never to change waits the stretched interval.
    let still = history(25, 0, DAY as i64, &[]);
    assert_eq!(
        policy.interval(&still, policy.threshold),
        policy.longest_interval
    );
}

fn check_inverse(y: f64) {
    let policy = Longevity::bound_based();
    let x = policy.inverse_of(y);
    let back = utility_shape(x);
    assert!(
        (back - y).abs() < 0.01 * (1.0 - y),
        "g(g⁻¹({y})) = g({x}) = {back}"
    );
}

#[test]
fn the_inverse_of_the_utility_shape_holds_up_to_one() {
    // Regression: above the table's last finite point (y > 0.99951) the inverse gave back the
    // position in the table, about 4,094, for x; g(4,094) is 1, not y, and a page changing a
    // little slower than 1/T waited the longest interval.
    for y in [
        0.0, 1e-6, 0.01, 0.3, 0.9, 0.999, 0.9995, 0.99952, 0.9999, 0.999_999,
    ] {
        check_inverse(y);
    }
}
