//! The replay harness on small simulated forums: both page paths, the budget, the oracles.

use std::sync::Arc;

use trawl_eval::freshness::bench::SweepRun;
use trawl_eval::freshness::{PagePath, ReplayConfig, StageFigures, replay_site, replay_sites};
use trawl_sim::{FamilyName, Scale, Site, SiteConfig};

/// A small forum whose pages print plain dates: page analysis reads every post time on them
/// but for a post written in the very minute its page is fetched, whose time equals the page's
/// own clock and is read as the clock.
fn plain_dates_site(family: FamilyName, seed: u64) -> Arc<Site> {
    let mut config = SiteConfig::new(family, seed, Scale::Small);
    config.traps.noisy_dates = false;
    Arc::new(Site::build(config))
}

fn config(policy: &str, budget: u32, days: u32, path: PagePath) -> ReplayConfig {
    ReplayConfig {
        stable_days: 10,
        path,
        ..ReplayConfig::new(policy, budget, days)
    }
}

fn both_paths(site: &Arc<Site>, policy: &str) -> (StageFigures, StageFigures) {
    let fast = replay_site(Arc::clone(site), &config(policy, 150, 12, PagePath::Fast)).unwrap();
    let full = replay_site(Arc::clone(site), &config(policy, 150, 12, PagePath::Full)).unwrap();
    (fast.stage, full.stage)
}

#[test]
fn the_fast_path_and_the_page_path_give_the_same_figures() {
    let site = plain_dates_site(FamilyName::Phpbb, 1);
    // The per-page schedules and the round-robin baselines never fetch a page in the minute of
    // a post on it here: every figure is the same. (The list-wise strategy did too until its
    // deferred follow-ups were charged once; with the budget that freed it now does so, and
    // its run differs as the next test describes.)
    for policy in ["nutch", "stormcrawler", "uniform", "bfs"] {
        let (fast, full) = both_paths(&site, policy);
        assert_eq!(fast, full, "{policy}");
        assert!(fast.posts_written > 300, "{policy}: {fast:?}");
    }
}

#[test]
fn the_paths_differ_only_by_posts_fetched_in_their_own_minute() {
    // Ours polls often enough to fetch pages in the minute a post was written, which page
    // analysis reads as the page's clock; the run then differs a little, never in coverage.
    let site = plain_dates_site(FamilyName::Phpbb, 1);
    let (fast, full) = both_paths(&site, "trawl");
    assert_eq!(fast.posts_written, full.posts_written);
    assert_eq!(
        (fast.coverage, fast.posts_lost),
        (full.coverage, full.posts_lost)
    );
    let ratio = full.mean_delay_s / fast.mean_delay_s;
    assert!((0.9..1.1).contains(&ratio), "{fast:?}\n{full:?}");
}

fn small_site(family: FamilyName, seed: u64) -> Arc<Site> {
    Arc::new(Site::build(SiteConfig::new(family, seed, Scale::Small)))
}

#[test]
fn every_policy_keeps_to_its_budget_from_the_portal_on() {
    // The harness refuses a day with more fetches than the budget and its carry allow, so a
    // run that ends is a run within budget.
    let site = small_site(FamilyName::Vbulletin, 2);
    for policy in trawl_schedule::POLICY_NAMES {
        let replay = replay_site(Arc::clone(&site), &config(policy, 200, 20, PagePath::Fast))
            .unwrap_or_else(|error| panic!("{policy}: {error}"));
        assert_eq!(replay.days.len(), 20, "{policy}");
        let first = &replay.days[0];
        // The warm-up: the forum's existing posts are not all stored on the first day.
        assert!(first.coverage < 0.9, "{policy}: {first:?}");
        assert!(replay.days.iter().all(|day| day.fetches <= 251), "{policy}");
        assert!(
            replay.stage.posts_written > 100,
            "{policy}: {:?}",
            replay.stage
        );
    }
}

#[test]
fn the_arrival_oracle_stores_every_post_as_it_is_written() {
    let site = small_site(FamilyName::Discuz, 4);
    let replay = replay_site(
        Arc::clone(&site),
        &config("oracle", 1000, 20, PagePath::Fast),
    )
    .unwrap();
    assert_eq!(replay.stage.posts_lost, 0, "{:?}", replay.stage);
    assert_eq!(replay.stage.mean_delay_s, 0.0, "{:?}", replay.stage);
    assert_eq!(replay.stage.coverage, 1.0);
}

#[test]
fn a_corpus_pools_every_forums_posts_once() {
    let sites = vec![
        small_site(FamilyName::Smf, 5),
        small_site(FamilyName::Xenforo, 6),
    ];
    let config = config("bic-bra", 300, 15, PagePath::Fast);
    let pooled = replay_sites(&sites, &config, 2).unwrap();
    assert_eq!(pooled.forums.len(), 2);
    let written: u64 = pooled
        .forums
        .iter()
        .map(|forum| forum.stage.posts_written)
        .sum();
    let fetches: u64 = pooled.forums.iter().map(|forum| forum.stage.fetches).sum();
    assert_eq!(pooled.overall.posts_written, written);
    assert_eq!(pooled.overall.fetches, fetches);
    let day_fetches: u64 = pooled
        .forums
        .iter()
        .map(|forum| forum.days[3].fetches)
        .sum();
    assert_eq!(pooled.days[3].fetches, day_fetches);
    // The same forum alone gives the same figures as within the corpus.
    let alone = replay_site(Arc::clone(&sites[1]), &config).unwrap();
    assert_eq!(alone.stage, pooled.forums[1].stage);
    let summary = serde_json::to_value(pooled.summary()).unwrap();
    for field in [
        "policy",
        "budget_per_day",
        "mean_delay_s",
        "p95_delay_s",
        "coverage",
        "posts_lost",
        "utilisation",
    ] {
        assert!(summary.get(field).is_some(), "{field} in {summary}");
    }
}

#[test]
fn the_freshness_bench_writes_a_row_per_run_and_plots_each_policy() {
    let sites = vec![small_site(FamilyName::Phpbb, 7)];
    let mut replays = Vec::new();
    for budget in [100, 400] {
        for policy in ["trawl", "uniform"] {
            replays.push(
                replay_sites(&sites, &config(policy, budget, 15, PagePath::Fast), 1).unwrap(),
            );
        }
    }
    let replays: Vec<SweepRun> = replays.iter().map(SweepRun::from).collect();
    let table = trawl_eval::freshness::bench::table(&replays);
    assert_eq!(table.lines().count(), 2 + 4, "{table}");
    assert!(table.contains("| trawl | 400 |"), "{table}");
    for figure in trawl_eval::freshness::bench::DailyFigure::ALL {
        let svg = trawl_eval::freshness::bench::daily_plot(&replays, 400, figure).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("uniform"),
            "{figure:?}"
        );
    }
    let svg = trawl_eval::freshness::bench::delay_against_budget_plot(&replays).unwrap();
    assert!(svg.contains("trawl") && svg.contains("fetches a day"));
    // More budget, less delay, for both.
    for policy in ["trawl", "uniform"] {
        let delay = |budget: u32| {
            replays
                .iter()
                .find(|replay| replay.policy == policy && replay.budget_per_day == budget)
                .unwrap()
                .overall
                .mean_delay_s
        };
        assert!(delay(400) < delay(100), "{policy}");
    }
}

#[test]
fn a_sweep_run_read_back_from_its_json_plots_and_tables_as_the_run_did() {
    // Corpus sweeps run one policy at a time and keep each run as JSON; the table and plots of
    // several runs are made from those files afterwards, and must be those of the runs.
    let sites = vec![small_site(FamilyName::Phpbb, 7)];
    let runs: Vec<SweepRun> = ["trawl", "uniform"]
        .into_iter()
        .map(|policy| {
            SweepRun::from(
                &replay_sites(&sites, &config(policy, 200, 12, PagePath::Fast), 1).unwrap(),
            )
        })
        .collect();
    let read_back: Vec<SweepRun> = runs
        .iter()
        .map(|run| serde_json::from_str(&serde_json::to_string(run).unwrap()).unwrap())
        .collect();
    assert_eq!(read_back, runs);
    assert_eq!(runs[0].file_name(), "trawl-200.json");
    use trawl_eval::freshness::bench::{DailyFigure, daily_plot, delay_against_budget_plot, table};
    assert_eq!(table(&read_back), table(&runs));
    assert_eq!(
        daily_plot(&read_back, 200, DailyFigure::Coverage).unwrap(),
        daily_plot(&runs, 200, DailyFigure::Coverage).unwrap()
    );
    assert_eq!(
        delay_against_budget_plot(&read_back).unwrap(),
        delay_against_budget_plot(&runs).unwrap()
    );
}

#[test]
fn the_page_path_reads_planned_pages_ahead_on_threads_with_the_same_figures() {
    // The planned pages of each window are rendered and read ahead on worker threads; every
    // figure, day and post delay must be what one thread gives, for a policy that plans polls
    // (ours) and one that plans the backlog and refreshes at fixed instants (curve-fitting).
    let site = plain_dates_site(FamilyName::Phpbb, 2);
    for policy in ["trawl", "curve-fitting"] {
        let one = config(policy, 150, 6, PagePath::Full);
        let two = ReplayConfig {
            page_workers: 2,
            ..one.clone()
        };
        let alone = replay_site(Arc::clone(&site), &one).unwrap();
        let shared = replay_site(Arc::clone(&site), &two).unwrap();
        assert_eq!(alone.stage, shared.stage, "{policy}");
        assert_eq!(alone.days, shared.days, "{policy}");
        assert_eq!(alone.stage_delays, shared.stage_delays, "{policy}");
        assert!(
            alone.stage.posts_written > 100,
            "{policy}: {:?}",
            alone.stage
        );
    }
}

#[test]
fn the_page_path_reads_the_follow_ups_of_a_poll_ahead_on_threads_with_the_same_figures() {
    // The follow-ups a poll sets off (the threads a board page showed changed, a list's next
    // pages) are read ahead on worker threads as well; the scheduler must still see them in the
    // order it asked for them, so every figure, day and post delay is what one thread gives. A
    // policy that polls boards and follows their changed threads (ours), one that walks a
    // board's pages (BIC with BRA) and the list-wise one with bandwidth control.
    let site = plain_dates_site(FamilyName::Phpbb, 3);
    for policy in ["trawl", "bic-bra", "lws-bc"] {
        let one = config(policy, 150, 5, PagePath::Full);
        let two = ReplayConfig {
            page_workers: 2,
            ..one.clone()
        };
        let alone = replay_site(Arc::clone(&site), &one).unwrap();
        let shared = replay_site(Arc::clone(&site), &two).unwrap();
        assert_eq!(alone.stage, shared.stage, "{policy}");
        assert_eq!(alone.days, shared.days, "{policy}");
        assert_eq!(alone.stage_delays, shared.stage_delays, "{policy}");
        assert_eq!(alone.lost_posts, shared.lost_posts, "{policy}");
        assert_eq!(alone.pages_read_ahead, Default::default(), "{policy}");
        assert!(
            shared.pages_read_ahead.follow_ups > 0,
            "{policy}: {:?}",
            shared.pages_read_ahead
        );
        assert!(
            alone.stage.posts_written > 100,
            "{policy}: {:?}",
            alone.stage
        );
    }
}
