//! New threads found in a simulated month of re-crawling: the re-crawl ranked by where users
//! find new pages against breadth-first re-crawling, at the same budget (issue 21's second bar).
//!
//! The forum's server log of the month before the judged one is written by the simulator's
//! visitors (`trawl_sim::browse`, what `trawl sim browse-log` prints), the behaviour crate learns
//! its URL patterns from it, and every page of every list is scored by the discovery ranking of
//! the pattern its address falls in ([`page_scores`]). The replay then runs twice from an empty
//! store at the portal, over a warm-up before the month and the month itself, once with
//! `trawl_schedule::DiscoveryRanked` given those scores and once with `bfs`. Both fetch the
//! backlog first and every new thread's pages as soon as a board page lists it; they differ only
//! in which known pages the re-crawl visits. A new thread is discovered when a fetched board page
//! first lists it, and its delay runs from its first post; the median ranks threads never found
//! after every found one, so losing threads cannot shorten it.
//!
//! The patterns come strictly from before the month they are judged on: the scores a crawler
//! would have when it starts re-crawling.

use std::sync::Arc;

use trawl_behaviour::{Goal, LogReader, PatternModel, TreeSettings};
use trawl_schedule::{DiscoveryRanked, PageScores};
use trawl_sim::browse::{BrowseLogConfig, browse_log};
use trawl_sim::{Address, Route, Site, SortOrder};

use super::FreshnessError;
use super::forum::{ListName, list_name};
use super::replay::{ForumReplay, ReplayConfig, replay_site, replay_site_with_policy};

const DAY: i64 = 86_400;

/// What to compare.
#[derive(Clone, Debug, PartialEq)]
pub struct DiscoveryConfig {
    /// Seed of the visitors in the logs.
    pub seed: u64,
    /// Distinct visitors in the logs.
    pub users: u32,
    /// Days logged, ending where the judged month begins.
    pub log_days: u32,
    /// Days judged, ending where the forum's history ends.
    pub days: u32,
    /// Days re-crawled before the judged ones, so that both start the month past the first
    /// crawl's backlog.
    pub warm_up_days: u32,
    /// Fetches a day for either policy.
    pub budget_per_day: u32,
}

impl Default for DiscoveryConfig {
    fn default() -> Self {
        DiscoveryConfig {
            seed: 1,
            users: 200,
            log_days: 30,
            days: 30,
            warm_up_days: 7,
            budget_per_day: 3000,
        }
    }
}

/// One policy's month.
#[derive(Clone, Debug, PartialEq)]
pub struct RecrawlFigures {
    pub policy: String,
    /// Threads started in the judged days.
    pub new_threads: u64,
    /// Of those, the ones a fetched board page listed by the end of the run.
    pub threads_found: u64,
    /// Median delay from a new thread's first post to its first listing; `None` when half or
    /// more were never found.
    pub median_discovery_delay_s: Option<f64>,
    /// Mean over the threads found.
    pub mean_discovery_delay_s: f64,
    /// Every post of the judged days: mean delay to storing, and posts never stored.
    pub post_mean_delay_s: f64,
    pub posts_lost: u64,
    /// Fetches in the judged days, and the board-page share of them.
    pub fetches: u64,
    pub index_fetches: u64,
}

impl RecrawlFigures {
    fn of(replay: &ForumReplay, policy: &str) -> RecrawlFigures {
        let threads = &replay.stage_data.threads;
        RecrawlFigures {
            policy: policy.to_string(),
            new_threads: threads.count() + threads.lost(),
            threads_found: threads.count(),
            median_discovery_delay_s: threads.median_counting_lost(),
            mean_discovery_delay_s: threads.mean(),
            post_mean_delay_s: replay.stage.mean_delay_s,
            posts_lost: replay.stage.posts_lost,
            fetches: replay.stage.fetches,
            index_fetches: replay.stage.index.fetches,
        }
    }
}

/// The comparison on one forum.
#[derive(Clone, Debug, PartialEq)]
pub struct DiscoveryComparison {
    /// `family/seed/scale`.
    pub forum: String,
    /// Lines of the log the patterns were learned from, and the patterns (leaves).
    pub log_lines: usize,
    pub patterns: usize,
    pub breadth_first: RecrawlFigures,
    pub behaviour: RecrawlFigures,
}

/// Learns URL patterns from the log the simulator's visitors leave over `config`'s days.
pub fn browse_patterns(site: &Site, config: &BrowseLogConfig) -> (PatternModel, usize) {
    let mut reader = LogReader::new();
    let requests = browse_log(site, config);
    for request in &requests {
        reader.read_line(&request.line);
    }
    let model = PatternModel::learn(&reader.finish(), TreeSettings::default());
    (model, requests.len())
}

/// The address of page `page` of a list as the forum spells it (a board's list sorted by last
/// post, as the replay reads it; a cursor-paged board as of `at`), path and query only.
pub fn list_page_address(site: &Site, list: trawl_schedule::ListId, page: u32, at: i64) -> String {
    let route = match list_name(list) {
        ListName::Board(board) => site.board_page_route(board, page, SortOrder::LastPost, at),
        ListName::Thread(thread) => Route::Thread { thread, page },
    };
    site.url_of(&Address::canonical(route))
}

/// Every page's score: the discovery ranking of the pattern its address falls in, zero for an
/// address of a kind no visitor reached anything from.
pub fn page_scores(site: Arc<Site>, model: PatternModel, at: i64) -> PageScores {
    PageScores::new(move |list, page| {
        model.priority(&list_page_address(&site, list, page, at), Goal::Discovery)
    })
}

/// Replays both policies on `site` over `config`'s month, patterns learned from the month
/// before.
pub fn compare_discovery(
    site: Arc<Site>,
    config: &DiscoveryConfig,
) -> Result<DiscoveryComparison, FreshnessError> {
    let history = site.history();
    let judged_start = history.end - i64::from(config.days) * DAY;
    let replay_start = (judged_start - i64::from(config.warm_up_days) * DAY).max(history.start);
    let log_start = (judged_start - i64::from(config.log_days) * DAY).max(history.start);
    let log_config = BrowseLogConfig {
        seed: config.seed,
        users: config.users,
        days: ((judged_start - log_start) / DAY) as u32,
        from: log_start,
        origin: "http://forum.test".to_string(),
    };
    let (model, log_lines) = browse_patterns(&site, &log_config);
    let patterns = model.tree.leaves().count();
    let run_days = ((history.end - replay_start) / DAY) as u32;
    let replay_config = |policy: &str| ReplayConfig {
        stable_days: config.days,
        start: Some(replay_start),
        ..ReplayConfig::new(policy, config.budget_per_day, run_days)
    };
    let breadth_first = replay_site(Arc::clone(&site), &replay_config("bfs"))?;
    let ranked = DiscoveryRanked::new(page_scores(Arc::clone(&site), model, judged_start));
    let behaviour = replay_site_with_policy(
        Arc::clone(&site),
        &replay_config("behaviour"),
        Box::new(ranked),
    )?;
    Ok(DiscoveryComparison {
        forum: behaviour.forum.clone(),
        log_lines,
        patterns,
        breadth_first: RecrawlFigures::of(&breadth_first, "bfs"),
        behaviour: RecrawlFigures::of(&behaviour, "behaviour"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use trawl_sim::{FamilyName, Scale, SiteConfig};

    fn small_site(family: &str) -> Arc<Site> {
        let family = FamilyName::parse(family).expect("a simulator family");
        Arc::new(Site::build(SiteConfig::new(family, 3, Scale::Small)))
    }

    #[test]
    fn list_pages_are_scored_by_their_addresses_pattern() {
        let site = small_site("phpbb");
        let at = site.history().end;
        let config = BrowseLogConfig {
            seed: 3,
            users: 60,
            days: 14,
            from: at - 14 * DAY,
            origin: "http://forum.test".to_string(),
        };
        let (model, lines) = browse_patterns(&site, &config);
        assert!(lines > 1000, "{lines} log lines");
        let board = super::super::board_list(1);
        let thread = super::super::thread_list(1);
        assert_eq!(list_page_address(&site, board, 1, at), "/viewforum.php?f=1");
        assert_eq!(
            list_page_address(&site, thread, 1, at),
            "/viewtopic.php?t=1"
        );
        let scores = page_scores(Arc::clone(&site), model, at);
        // Visitors find new threads on boards' first pages, hardly on thread pages.
        assert!(
            scores.of(board, 1) > 10.0 * scores.of(thread, 1),
            "board {} thread {}",
            scores.of(board, 1),
            scores.of(thread, 1)
        );
    }

    #[test]
    fn the_ranked_re_crawl_finds_new_threads_sooner_than_breadth_first() {
        let config = DiscoveryConfig {
            seed: 3,
            users: 60,
            log_days: 14,
            days: 10,
            warm_up_days: 3,
            budget_per_day: 400,
        };
        let comparison = compare_discovery(small_site("phpbb"), &config).unwrap();
        eprintln!("{comparison:#?}");
        let (bfs, ranked) = (&comparison.breadth_first, &comparison.behaviour);
        assert!(bfs.new_threads > 20, "{bfs:?}");
        assert_eq!(bfs.new_threads, ranked.new_threads);
        // Both spend the month's budget (a quarter of a day's may be carried over into it).
        let month = u64::from(config.budget_per_day * config.days);
        for figures in [bfs, ranked] {
            assert!(
                figures.fetches * 10 >= month * 9
                    && figures.fetches <= month + u64::from(config.budget_per_day / 4),
                "{figures:?}"
            );
        }
        let median = |figures: &RecrawlFigures| figures.median_discovery_delay_s.unwrap();
        assert!(median(ranked) * 2.0 < median(bfs), "{comparison:#?}");
    }
}
