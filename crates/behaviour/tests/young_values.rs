//! Young URLs and values never seen: a list archive of our own making files every message in
//! the folder of the month it was sent (`/archives/list1/2025-12/msg00421.html`). A log that ends
//! a few days into a month has seen that month's folder only briefly, so its messages have had
//! few visits per URL; in the next period they and the next month's folder are where the new,
//! most read messages are. Patterns learned from the first period must rank them above old
//! messages, not below.

mod support;

use support::Walk;
use trawl_behaviour::reliability::rank_correlation;
use trawl_behaviour::{BrowseLog, Goal, PatternModel, TreeSettings, read_logs};

/// Messages sent a day.
const MESSAGES_PER_DAY: u64 = 6;
/// Mailing lists.
const LISTS: u64 = 3;
/// Visitors who browse on a day, out of [`VISITORS`].
const VISITORS_A_DAY: u64 = 20;
const VISITORS: u64 = 60;
/// The archive's host, which the log names in full as a server's log does.
const HOST: &str = "http://archive.test";

/// The month folder of a day: 30-day months, the second (`2025-11`) beginning on day 27, so that
/// a log of days 30 to 59 meets `2025-12` only in its last three days, and a log of days 60 to 89
/// meets `2026-01` from day 87.
fn month_of(day: u64) -> &'static str {
    ["2025-10", "2025-11", "2025-12", "2026-01", "2026-02"][((day + 3) / 30) as usize]
}

fn message_url(message: u64) -> String {
    let day = message / MESSAGES_PER_DAY;
    format!(
        "/archives/list{}/{}/msg{message:05}.html",
        message % LISTS,
        month_of(day)
    )
}

fn index_url(list: u64, page: u64) -> String {
    match page {
        1 => format!("/archives/list{list}/threads.html"),
        _ => format!("/archives/list{list}/threads{page}.html"),
    }
}

/// TSV lines (target, referrer, user) of visitors on days `first_day..last_day`: they enter at
/// the archive's front page or from a search engine on an old message, open a list's index, and
/// read mostly the messages of the last five days, sometimes an old one, following "Thread Next"
/// to the message three further on.
fn archive_log(first_day: u64, last_day: u64, seed: u64) -> Vec<String> {
    let mut walk = Walk::new(seed);
    let mut lines = Vec::new();
    for day in first_day..last_day {
        let published = (day + 1) * MESSAGES_PER_DAY;
        for _ in 0..VISITORS_A_DAY {
            let user = format!("visitor{:02}", walk.below(VISITORS));
            let (mut current, mut referrer) = if walk.chance(20) {
                (
                    message_url(walk.below(published)),
                    "https://search.example/?q=list".to_string(),
                )
            } else {
                ("/archives/".to_string(), "-".to_string())
            };
            let mut message: Option<u64> = None;
            for _step in 0..(3 + walk.below(5)) {
                lines.push(format!("{HOST}{current}\t{referrer}\t{user}"));
                let next_message = match message {
                    Some(shown) if walk.chance(50) && shown + 3 < published => Some(shown + 3),
                    Some(_) => None,
                    None if current.ends_with("threads.html") || current.contains("/threads") => {
                        Some(if walk.chance(70) {
                            published - 1 - walk.below(5 * MESSAGES_PER_DAY)
                        } else {
                            walk.below(published)
                        })
                    }
                    None => None,
                };
                referrer = format!("{HOST}{current}");
                match next_message {
                    Some(next) => {
                        message = Some(next);
                        current = message_url(next);
                    }
                    None => {
                        message = None;
                        let list = walk.below(LISTS);
                        current = index_url(list, if walk.chance(20) { 2 } else { 1 });
                    }
                }
            }
        }
    }
    lines
}

fn log_of(lines: &[String]) -> BrowseLog {
    read_logs([lines.join("\n").as_str()])
}

/// The first period is days 30 to 59 (the log ends three days into `2025-12`), the next days 60
/// to 89 (`2025-12` continued, then `2026-01`, a folder the first period never saw).
fn first_and_next_period() -> (BrowseLog, BrowseLog) {
    (
        log_of(&archive_log(30, 60, 3)),
        log_of(&archive_log(60, 90, 4)),
    )
}

/// Each URL of `order` has a strictly higher fetch priority than the next, under the patterns
/// of the first period.
fn check_fetch_order(model: &PatternModel, order: &[&str]) {
    let priorities: Vec<f64> = order
        .iter()
        .map(|url| model.priority(url, Goal::Fetch))
        .collect();
    for (index, pair) in priorities.windows(2).enumerate() {
        assert!(
            pair[0] > pair[1],
            "{} ({}) should rank above {} ({})\n{}",
            order[index],
            pair[0],
            order[index + 1],
            pair[1],
            model.tree.render()
        );
    }
}

#[test]
fn the_young_months_new_messages_rank_above_old_messages() {
    let (first, _) = first_and_next_period();
    let model = PatternModel::learn(&first, TreeSettings::default());
    // Day 70's messages: in `2025-12`, which the first period saw only in its last days.
    check_fetch_order(
        &model,
        &[
            "/archives/list1/2025-12/msg00421.html",
            "/archives/list1/2025-11/msg00205.html",
        ],
    );
}

#[test]
fn a_month_never_seen_takes_the_young_months_pattern() {
    let (first, _) = first_and_next_period();
    let model = PatternModel::learn(&first, TreeSettings::default());
    let young = model.priority("/archives/list1/2025-12/msg00421.html", Goal::Fetch);
    let unseen = model.priority("/archives/list2/2026-01/msg00531.html", Goal::Fetch);
    assert_eq!(
        model.pattern_of("/archives/list2/2026-01/msg00531.html"),
        model.pattern_of("/archives/list1/2025-12/msg00421.html"),
        "{}",
        model.tree.render()
    );
    assert_eq!(unseen, young);
    check_fetch_order(
        &model,
        &[
            "/archives/list2/2026-01/msg00531.html",
            "/archives/list1/2025-11/msg00205.html",
        ],
    );
}

#[test]
fn the_next_periods_new_urls_are_ranked_as_well_as_the_first_periods() {
    let (first, next) = first_and_next_period();
    let model = PatternModel::learn(&first, TreeSettings::default());
    let (same, _) = rank_correlation(&model, &first, Goal::Fetch, None);
    let (following, new_urls) = rank_correlation(&model, &next, Goal::Fetch, Some(&first));
    let (same, following) = (same.expect("ranked"), following.expect("ranked"));
    assert!(new_urls > 100, "{new_urls} new URLs");
    assert!(same > 0.3, "first period {same}");
    assert!(
        following > 0.3,
        "next period {following} against first period {same}\n{}",
        model.tree.render()
    );
}
