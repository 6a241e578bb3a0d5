//! `trawl bench behaviour`: issue 21's bars on simulated forums. Two months of simulated
//! browse logs; patterns learned from the first month rank the second month's new URLs
//! (temporal reliability, Spearman's rank correlation against visits), and patterns learned
//! from the latest month order a crawl's frontier, compared with the same crawl in queue order
//! by the valuable pages (the simulator's truth) fetched in the first tenth of an equal budget.
//! Then a simulated month of re-crawling (`trawl_eval::freshness::discovery`): patterns learned
//! from the month before it rank every list page for discovery, and the re-crawl ranked by them
//! is compared with breadth-first re-crawling at the same budget by the median delay before a
//! new thread is found.

use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use trawl_behaviour::reliability::rank_correlation;
use trawl_behaviour::{BrowseLog, Goal, LogReader, PatternModel, TreeSettings};
use trawl_crawl::CrawlStrategy;
use trawl_eval::freshness::discovery::{DiscoveryConfig, compare_discovery};
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, FixedClock};
use trawl_sim::browse::{BrowseLogConfig, browse_log};
use trawl_sim::{PageClass, Site, SiteConfig};
use trawl_store::Store;
use url::Url;

use crate::sim::ScaleArg;
use trawl_run::{CrawlOrder, DriveOptions, drive, open_crawl};

/// Seconds in a day.
const DAY: i64 = 86_400;

#[derive(Debug, Args)]
pub struct BehaviourBenchArgs {
    /// Families to measure, comma-separated (all when omitted).
    #[arg(long, value_delimiter = ',')]
    pub family: Vec<String>,
    /// Seed of each forum and its visitors.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Size of the forums; a month of logs before another needs `medium` or `large`.
    #[arg(long, value_enum, default_value_t = ScaleArg::Medium)]
    pub scale: ScaleArg,
    /// Distinct visitors in the logs.
    #[arg(long, default_value_t = 200)]
    pub users: u32,
    /// Days in each of the two logged periods.
    #[arg(long, default_value_t = 30)]
    pub days: u32,
    /// Fetches per crawl (by default as many as the forum has valuable pages).
    #[arg(long)]
    pub budget: Option<usize>,
    /// Also crawl with a learned plan, in queue order and by behaviour (slower: samples the
    /// forum first).
    #[arg(long)]
    pub with_plan: bool,
    /// Worker threads per crawl.
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
    /// Fetches a day in the month of re-crawling, for either policy.
    #[arg(long, default_value_t = 3000)]
    pub recrawl_budget: u32,
    /// Days re-crawled before the judged month, past the first crawl's backlog.
    #[arg(long, default_value_t = 7)]
    pub warm_up_days: u32,
    /// Measure only the month of re-crawling (skip the logs' rank correlation and the crawls).
    #[arg(long)]
    pub recrawl_only: bool,
}

pub fn run(args: BehaviourBenchArgs) -> Result<()> {
    let families = crate::bench::families_named(&args.family)?;
    let scale = match args.scale {
        ScaleArg::Small => trawl_sim::Scale::Small,
        ScaleArg::Medium => trawl_sim::Scale::Medium,
        ScaleArg::Large => trawl_sim::Scale::Large,
    };
    let scratch =
        std::env::temp_dir().join(format!("trawl-bench-behaviour-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    if !args.recrawl_only {
        println!(
            "| family | patterns | ρ first month (URLs) | ρ next month's new URLs (URLs) | budget | crawler | valuable in first 10 % | × queue order | valuable in budget |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
    }
    let mut recrawl_rows = Vec::new();
    for family in families {
        let site = Arc::new(Site::build(SiteConfig::new(family, args.seed, scale)));
        recrawl_rows.push(recrawl_row(&site, &args)?);
        if args.recrawl_only {
            continue;
        }
        let end = site.history().end;
        let period = i64::from(args.days) * DAY;
        let log_of = |from: i64| -> BrowseLog {
            let config = BrowseLogConfig {
                seed: args.seed,
                users: args.users,
                days: args.days,
                from,
                origin: "http://forum.test".to_string(),
            };
            let mut reader = LogReader::new();
            for request in browse_log(&site, &config) {
                reader.read_line(&request.line);
            }
            reader.finish()
        };
        let first_month = log_of((end - 2 * period).max(site.history().start));
        let next_month = log_of(end - period);
        let first_model = PatternModel::learn(&first_month, TreeSettings::default());
        let (same, same_urls) = rank_correlation(&first_model, &first_month, Goal::Fetch, None);
        let (next, new_urls) =
            rank_correlation(&first_model, &next_month, Goal::Fetch, Some(&first_month));
        let latest_model = PatternModel::learn(&next_month, TreeSettings::default());
        let patterns = latest_model.tree.leaves().count();
        let shown = |rho: Option<f64>| rho.map_or("n/a".to_string(), |rho| format!("{rho:.3}"));
        let reliability = format!(
            "{patterns} | {} ({same_urls}) | {} ({new_urls})",
            shown(same),
            shown(next)
        );

        let mut valuable_total = 0;
        site.for_each_url_truth(end, |truth| {
            valuable_total += usize::from(truth.class == PageClass::Valuable)
        });
        let budget = args.budget.unwrap_or(valuable_total);
        let behaviour_order = CrawlOrder::of_model(&latest_model)?;
        let mut strategies: Vec<(&str, CrawlStrategy)> = vec![("bfs", CrawlStrategy::BreadthFirst)];
        if args.with_plan {
            let origin = trawl_eval::learning::SIM_ORIGIN;
            let fetcher = CookieJarFetcher::new(trawl_sim::SimFetcher::new(
                Arc::clone(&site),
                origin.to_string(),
            ));
            let (learned, _, _) = trawl_eval::learning::learn_through(
                &site,
                &fetcher,
                origin,
                300,
                1,
                Strategy::Skeleton,
            )?;
            strategies.push(("plan", CrawlStrategy::Plan(Box::new(learned.plan))));
        }
        for (name, strategy) in strategies {
            let db = scratch.join(format!("{}-{name}.db", family.name()));
            let queue = first_tenth(
                &site,
                strategy.clone(),
                CrawlOrder::Queue,
                &db,
                budget,
                args.workers,
            )?;
            let ordered = first_tenth(
                &site,
                strategy,
                behaviour_order.clone(),
                &db,
                budget,
                args.workers,
            )?;
            for (crawler, figures) in [
                (name.to_string(), &queue),
                (format!("{name} + behaviour"), &ordered),
            ] {
                println!(
                    "| {} | {reliability} | {budget} | {crawler} | {} | {:.2} | {} |",
                    family.name(),
                    figures.0,
                    figures.0 as f64 / queue.0.max(1) as f64,
                    figures.1
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    println!();
    println!(
        "Re-crawling for a month at {}/day after {} days of warm-up, patterns from the {} days before it:",
        args.recrawl_budget, args.warm_up_days, args.days
    );
    println!();
    println!(
        "| family | log lines | patterns | new threads | median discovery delay bfs (min) | behaviour (min) | × sooner | mean bfs / behaviour (min) | threads never found bfs / behaviour | post mean delay bfs / behaviour (min) | board fetches bfs / behaviour |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for row in recrawl_rows {
        println!("{row}");
    }
    Ok(())
}

/// One family's month of re-crawling, both policies, as a table row.
fn recrawl_row(site: &Arc<Site>, args: &BehaviourBenchArgs) -> Result<String> {
    let config = DiscoveryConfig {
        seed: args.seed,
        users: args.users,
        log_days: args.days,
        days: args.days,
        warm_up_days: args.warm_up_days,
        budget_per_day: args.recrawl_budget,
    };
    let comparison = compare_discovery(Arc::clone(site), &config)?;
    let (bfs, ranked) = (&comparison.breadth_first, &comparison.behaviour);
    let minutes = |seconds: Option<f64>| {
        seconds.map_or("not found (half or more lost)".to_string(), |seconds| {
            format!("{:.1}", seconds / 60.0)
        })
    };
    let sooner = match (
        bfs.median_discovery_delay_s,
        ranked.median_discovery_delay_s,
    ) {
        (Some(bfs), Some(ranked)) if ranked > 0.0 => format!("{:.1}x", bfs / ranked),
        _ => "n/a".to_string(),
    };
    Ok(format!(
        "| {} | {} | {} | {} | {} | {} | {sooner} | {:.1} / {:.1} | {} / {} | {:.1} / {:.1} | {} / {} |",
        comparison.forum,
        comparison.log_lines,
        comparison.patterns,
        bfs.new_threads,
        minutes(bfs.median_discovery_delay_s),
        minutes(ranked.median_discovery_delay_s),
        bfs.mean_discovery_delay_s / 60.0,
        ranked.mean_discovery_delay_s / 60.0,
        bfs.new_threads - bfs.threads_found,
        ranked.new_threads - ranked.threads_found,
        bfs.post_mean_delay_s / 60.0,
        ranked.post_mean_delay_s / 60.0,
        bfs.index_fetches,
        ranked.index_fetches,
    ))
}

/// Crawls `site` in process for `budget` fetches and counts the valuable pages among the first
/// tenth of them and among all.
fn first_tenth(
    site: &Arc<Site>,
    strategy: CrawlStrategy,
    order: CrawlOrder,
    db: &std::path::Path,
    budget: usize,
    workers: usize,
) -> Result<(usize, usize)> {
    trawl_store::remove_database_files(db);
    let at = site.history().end;
    let clock = FixedClock::new(jiff::Timestamp::from_second(at)?);
    let origin = trawl_eval::learning::SIM_ORIGIN;
    let portal = Url::parse(&format!("{origin}{}", site.portal_path()))?;
    let fetcher = CookieJarFetcher::new(trawl_sim::SimFetcher::new(
        Arc::clone(site),
        origin.to_string(),
    ));
    let mut store = Store::open(db)?;
    let opened = open_crawl(&mut store, &portal, &fetcher, &clock, Some(order), || {
        Ok::<_, anyhow::Error>(strategy)
    })?;
    let priority = opened.order.priority()?;
    let mut crawler = opened.crawler.with_priority(priority);
    drive(
        &mut store,
        &mut crawler,
        &fetcher,
        &clock,
        DriveOptions {
            max_pages: Some(budget),
            workers,
            // The benchmark's fetcher does not pace its requests.
            paced: false,
        },
        |_| {},
    )?;
    let tenth = budget.div_ceil(10);
    let (mut in_tenth, mut in_budget, mut index) = (0, 0, 0);
    store.for_each_page(false, |page| {
        let path = Url::parse(&page.record.url).map_or_else(
            |_| page.record.url.clone(),
            |url| trawl_eval::learning::path_and_query(&url),
        );
        let valuable = site.classify(&path, at).class == PageClass::Valuable;
        in_budget += usize::from(valuable);
        in_tenth += usize::from(valuable && index < tenth);
        index += 1;
    })?;
    drop(store);
    trawl_store::remove_database_files(db);
    Ok((in_tenth, in_budget))
}
