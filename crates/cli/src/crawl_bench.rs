//! `trawl bench crawl`: the papers' comparison table, end to end.
//!
//! For every family and seed a simulated forum is served on loopback (or answered in process
//! with `--in-process`), trawl samples it and learns a plan, and then three crawlers run through
//! the same driver and store a user's `trawl crawl` uses: the generic breadth-first crawler, the
//! structure-driven crawler (one navigation path, no page flipping) and trawl's plan. Each crawl
//! is judged from what its store holds against the simulator's ground truth: invalid and
//! duplicate fetches, coverage of valuable pages, valuable share of the first 5,000 fetches,
//! fetches needed for 5,000 valuable pages, relationships preserved (later list pages put in the
//! list of their first page by the same list assembly `trawl export` uses), and posts extracted
//! with the right time.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use trawl_crawl::CrawlStrategy;
use trawl_crawl::baselines::structure_driven_plan;
use trawl_fetch::{HttpFetcher, HttpOptions};
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, Fetcher, FixedClock};
use trawl_sim::{PageClass, Site, SiteConfig};
use trawl_sim_server::{ServerClock, SimServer};
use trawl_store::{Store, StoredPage};
use url::Url;

use crate::bench_report::PrintedTables;
use crate::sim::ScaleArg;
use trawl_run::{DriveOptions, drive, open_crawl};

#[derive(Debug, Args)]
pub struct CrawlBenchArgs {
    /// Families to run (all when empty), comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub family: Vec<String>,
    /// Forum seeds, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1")]
    pub seeds: Vec<u64>,
    /// Size of each forum (medium or large for the 5,000-page figures).
    #[arg(long, value_enum, default_value_t = ScaleArg::Small)]
    pub scale: ScaleArg,
    /// Pages sampled to learn each plan.
    #[arg(long, default_value_t = 300)]
    pub samples: usize,
    /// Crawlers to compare, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "bfs,structure,plan"
    )]
    pub crawlers: Vec<CrawlerArg>,
    /// Stop each crawl after this many fetches (default: three times the forum's valuable pages).
    #[arg(long)]
    pub max_fetches: Option<usize>,
    /// Answer in process instead of serving each forum over loopback HTTP.
    #[arg(long)]
    pub in_process: bool,
    /// Threads fetching and analysing pages in each crawl.
    #[arg(long, default_value_t = crate::crawl::default_workers())]
    pub workers: usize,
    /// Also write the tables as one HTML page to this file.
    #[arg(long)]
    pub html: Option<std::path::PathBuf>,
    /// Serve every forum in disguise: its URL words and markup names renamed from this seed.
    #[arg(long, value_name = "SEED")]
    pub disguise: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CrawlerArg {
    /// Every same-site link once, breadth first.
    Bfs,
    /// One navigation path from the portal to a thread example (Vidal et al.).
    Structure,
    /// trawl's learned plan.
    Plan,
}

impl CrawlerArg {
    fn name(self) -> &'static str {
        match self {
            CrawlerArg::Bfs => "breadth-first",
            CrawlerArg::Structure => "structure-driven",
            CrawlerArg::Plan => "trawl plan",
        }
    }
}

/// One crawl's figures.
#[derive(Debug, Clone, Default)]
pub struct CrawlFigures {
    pub fetched: usize,
    pub invalid: usize,
    pub duplicate: usize,
    pub valuable: usize,
    pub valuable_total: usize,
    pub valuable_in_first_5000: usize,
    pub fetches_for_5000_valuable: Option<usize>,
    pub relations_kept: usize,
    pub relations_total: usize,
    pub posts_total: usize,
    pub posts_found: usize,
    pub posts_right_time: usize,
    pub seconds: f64,
}

impl CrawlFigures {
    fn ratio(part: usize, whole: usize) -> f64 {
        part as f64 / whole.max(1) as f64
    }
    pub fn coverage(&self) -> f64 {
        Self::ratio(self.valuable, self.valuable_total)
    }
    pub fn invalid_share(&self) -> f64 {
        Self::ratio(self.invalid, self.fetched)
    }
    pub fn duplicate_share(&self) -> f64 {
        Self::ratio(self.duplicate, self.fetched)
    }
    pub fn first_5000_share(&self) -> f64 {
        Self::ratio(self.valuable_in_first_5000, self.fetched.min(5_000))
    }
    pub fn relations(&self) -> f64 {
        Self::ratio(self.relations_kept, self.relations_total)
    }
    pub fn posts_time(&self) -> f64 {
        Self::ratio(self.posts_right_time, self.posts_total)
    }
}

pub fn run(args: CrawlBenchArgs) -> Result<()> {
    let families = crate::bench::families_named(&args.family)?;
    if args.samples == 0 {
        bail!("--samples must be at least 1");
    }
    let scale = match args.scale {
        ScaleArg::Small => trawl_sim::Scale::Small,
        ScaleArg::Medium => trawl_sim::Scale::Medium,
        ScaleArg::Large => trawl_sim::Scale::Large,
    };
    let scratch = std::env::temp_dir().join(format!("trawl-bench-crawl-{}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    let mut tables = PrintedTables::default();
    tables.section("Crawls");
    tables.line(
        "| family | seed | crawler | fetches | coverage | invalid | duplicate | valuable in first 5,000 | fetches for 5,000 valuable | relations kept | posts with right time | pages/s |",
    );
    tables.line("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut totals: HashMap<&'static str, Vec<CrawlFigures>> = HashMap::new();
    for family in &families {
        for &seed in &args.seeds {
            let site = Arc::new(trawl_eval::learning::bench_site(
                SiteConfig::new(*family, seed, scale),
                args.disguise,
            ));
            let at = jiff::Timestamp::from_second(site.history().end)?;
            let server = if args.in_process {
                None
            } else {
                Some(
                    SimServer::start(
                        Arc::clone(&site),
                        ServerClock::Fixed(at).into_clock(),
                        "127.0.0.1:0",
                        2,
                    )
                    .context("cannot start the simulated forum on loopback")?,
                )
            };
            let origin = server.as_ref().map_or_else(
                || trawl_eval::learning::SIM_ORIGIN.to_string(),
                SimServer::origin,
            );
            let fetcher_for = || -> Arc<dyn Fetcher> {
                if args.in_process {
                    Arc::new(trawl_sim::SimFetcher::new(
                        Arc::clone(&site),
                        origin.clone(),
                    ))
                } else {
                    Arc::new(HttpFetcher::new(HttpOptions::default()))
                }
            };
            let (learned, _, _) = trawl_eval::learning::learn_through(
                &site,
                &CookieJarFetcher::new(fetcher_for()),
                &origin,
                args.samples,
                1,
                Strategy::Skeleton,
            )?;
            let plan = learned.plan;
            for &crawler in &args.crawlers {
                let strategy = match crawler {
                    CrawlerArg::Bfs => CrawlStrategy::BreadthFirst,
                    CrawlerArg::Plan => CrawlStrategy::Plan(Box::new(plan.clone())),
                    CrawlerArg::Structure => match structure_driven_plan(&plan) {
                        Some(derived) => CrawlStrategy::Plan(Box::new(derived)),
                        None => {
                            tables.line(&format!(
                                "| {} | {seed} | {} | no path from the portal to a thread vertex |",
                                family.name(),
                                crawler.name()
                            ));
                            continue;
                        }
                    },
                };
                let db = scratch.join(format!("{}-{seed}-{crawler:?}.db", family.name()));
                trawl_store::remove_database_files(&db);
                let figures = crawl_and_judge(
                    &site,
                    &origin,
                    fetcher_for(),
                    strategy,
                    &db,
                    args.max_fetches,
                    args.workers,
                )?;
                trawl_store::remove_database_files(&db);
                tables.line(&row(
                    family.name(),
                    &seed.to_string(),
                    crawler.name(),
                    &figures,
                ));
                totals.entry(crawler.name()).or_default().push(figures);
            }
            if let Some(server) = server {
                server.stop();
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    tables.line("");
    tables.section("Means by crawler");
    tables.line(
        "| crawler | runs | mean coverage | worst coverage | mean invalid | mean duplicate | mean valuable in first 5,000 | mean relations kept | mean posts with right time |",
    );
    tables.line("|---|---|---|---|---|---|---|---|---|");
    for crawler in &args.crawlers {
        let Some(runs) = totals.get(crawler.name()) else {
            continue;
        };
        let mean = |value: &dyn Fn(&CrawlFigures) -> f64| {
            runs.iter().map(value).sum::<f64>() / runs.len().max(1) as f64
        };
        let worst = runs
            .iter()
            .map(CrawlFigures::coverage)
            .fold(f64::INFINITY, f64::min);
        tables.line(&format!(
            "| {} | {} | {:.2} % | {:.2} % | {:.2} % | {:.2} % | {:.2} % | {:.2} % | {:.2} % |",
            crawler.name(),
            runs.len(),
            100.0 * mean(&CrawlFigures::coverage),
            100.0 * worst,
            100.0 * mean(&CrawlFigures::invalid_share),
            100.0 * mean(&CrawlFigures::duplicate_share),
            100.0 * mean(&CrawlFigures::first_5000_share),
            100.0 * mean(&CrawlFigures::relations),
            100.0 * mean(&CrawlFigures::posts_time),
        ));
    }
    if let Some(path) = &args.html {
        tables.write_html(path, "trawl bench crawl")?;
    }
    Ok(())
}

/// A crawl's row of the table.
fn row(family: &str, seed: &str, crawler: &str, figures: &CrawlFigures) -> String {
    let for_5000 = match figures.fetches_for_5000_valuable {
        Some(fetches) => fetches.to_string(),
        None => format!("n/a ({} valuable)", figures.valuable),
    };
    format!(
        "| {family} | {seed} | {crawler} | {} | {:.2} % | {:.2} % | {:.2} % | {:.2} % | {for_5000} | {:.2} % | {:.2} % | {:.0} |",
        figures.fetched,
        100.0 * figures.coverage(),
        100.0 * figures.invalid_share(),
        100.0 * figures.duplicate_share(),
        100.0 * figures.first_5000_share(),
        100.0 * figures.relations(),
        100.0 * figures.posts_time(),
        figures.fetched as f64 / figures.seconds.max(1e-9)
    )
}

/// Crawls `site` (under `origin`, through `fetcher`) into a new store at `db` and judges it.
pub fn crawl_and_judge(
    site: &Site,
    origin: &str,
    fetcher: Arc<dyn Fetcher>,
    strategy: CrawlStrategy,
    db: &std::path::Path,
    max_fetches: Option<usize>,
    workers: usize,
) -> Result<CrawlFigures> {
    let at_seconds = site.history().end;
    let clock = FixedClock::new(jiff::Timestamp::from_second(at_seconds)?);
    let portal = Url::parse(&format!("{origin}{}", site.portal_path()))?;
    let mut valuable_total = 0;
    site.for_each_url_truth(at_seconds, |truth| {
        valuable_total += usize::from(truth.class == PageClass::Valuable)
    });
    let limit = max_fetches.unwrap_or(3 * valuable_total);
    let fetcher = CookieJarFetcher::new(fetcher);
    let mut store = Store::open(db)?;
    let mut opened = open_crawl(&mut store, &portal, &fetcher, &clock, None, || {
        Ok::<_, anyhow::Error>(strategy)
    })?;
    let started = Instant::now();
    drive(
        &mut store,
        &mut opened.crawler,
        &fetcher,
        &clock,
        DriveOptions {
            max_pages: Some(limit),
            workers,
            // The benchmark's fetcher does not pace its requests.
            paced: false,
        },
        |_| {},
    )?;
    let seconds = started.elapsed().as_secs_f64();
    let mut pages = Vec::new();
    store.for_each_page(false, |page| pages.push(page))?;
    let mut figures = judge(site, at_seconds, &pages);
    figures.valuable_total = valuable_total;
    figures.seconds = seconds;
    Ok(figures)
}

fn path_and_query(url: &str) -> String {
    Url::parse(url).map_or_else(
        |_| url.to_string(),
        |url| trawl_eval::learning::path_and_query(&url),
    )
}

/// Judges stored pages by the simulator's truth at `at_seconds`.
pub fn judge(site: &Site, at_seconds: i64, pages: &[StoredPage]) -> CrawlFigures {
    let mut figures = CrawlFigures::default();
    let mut tally = trawl_eval::learning::FetchTally::default();
    let mut truths = Vec::with_capacity(pages.len());
    for page in pages {
        let truth = site.classify(&path_and_query(&page.record.url), at_seconds);
        tally.count(&truth);
        truths.push(truth);
    }
    figures.fetched = tally.fetched;
    figures.valuable = tally.valuable;
    figures.valuable_in_first_5000 = tally.valuable_in_first_5000;
    figures.fetches_for_5000_valuable = tally.fetches_for_5000_valuable;
    figures.duplicate = tally.duplicate;
    // The papers' invalid ratio counts every fetch that is neither valuable nor a duplicate.
    figures.invalid = tally.invalid + tally.endless;
    // Relationships: a valuable later page of a list is kept when the crawl's list holding it
    // also holds the list's first page.
    let list_of_page: HashMap<usize, usize> = crate::export::lists(pages)
        .list_of_page
        .into_iter()
        .map(|(page, (list, _))| (page, list))
        .collect();
    let mut first_page_lists: HashMap<&str, HashSet<usize>> = HashMap::new();
    for (index, truth) in truths.iter().enumerate() {
        if truth.class == PageClass::Valuable
            && truth.position == Some(1)
            && let (Some(list), Some(&crawl_list)) = (&truth.list, list_of_page.get(&index))
        {
            first_page_lists
                .entry(list.as_str())
                .or_default()
                .insert(crawl_list);
        }
    }
    let mut later_pages_judged: HashSet<&str> = HashSet::new();
    for (index, truth) in truths.iter().enumerate() {
        let (Some(list), Some(position)) = (&truth.list, truth.position) else {
            continue;
        };
        if truth.class != PageClass::Valuable
            || position < 2
            || !later_pages_judged.insert(truth.url.as_str())
        {
            continue;
        }
        figures.relations_total += 1;
        if let (Some(crawl_list), Some(firsts)) = (
            list_of_page.get(&index),
            first_page_lists.get(list.as_str()),
        ) && firsts.contains(crawl_list)
        {
            figures.relations_kept += 1;
        }
    }
    // Posts: every post of the forum, found by its text in some fetched page, with the minute
    // the forum shows.
    let mut truth_posts: HashMap<String, (u32, String)> = HashMap::new();
    site.for_each_post_truth(at_seconds, |post| {
        let minute = post.created.get(..16).unwrap_or(&post.created).to_string();
        truth_posts.insert(
            trawl_eval::sim_extraction::normalise(&post.text),
            (post.post, minute),
        );
    });
    figures.posts_total = truth_posts.len();
    let forum_offset_seconds = site.history().utc_offset_seconds;
    let mut found: HashSet<u32> = HashSet::new();
    let mut right_time: HashSet<u32> = HashSet::new();
    for page in pages {
        for post in &page.record.posts {
            let Some((id, minute)) =
                truth_posts.get(&trawl_eval::sim_extraction::normalise(&post.text))
            else {
                continue;
            };
            found.insert(*id);
            let shown = post
                .time
                .as_deref()
                .map(|time| minute_on_forum_clock(time, forum_offset_seconds));
            if shown.as_deref() == Some(minute.as_str()) {
                right_time.insert(*id);
            }
        }
    }
    figures.posts_found = found.len();
    figures.posts_right_time = right_time.len();
    figures
}

/// The minute (`2025-11-17T01:04`) a stored post time names on the forum's clock, which is how
/// the truth states times: a time stored with its own offset (`2025-11-17T00:04:52+00:00`, read
/// from an ISO 8601 `Z` an engine leaves for the browser to localise) names an instant and is
/// moved to the forum's clock; a time without one is the forum's wall clock already.
fn minute_on_forum_clock(stored: &str, forum_offset_seconds: i32) -> String {
    let has_offset = stored.len() > 19 && stored[19..].contains(['+', '-', 'Z']);
    let instant = has_offset
        .then(|| stored.parse::<jiff::Timestamp>().ok())
        .flatten();
    match (
        instant,
        jiff::tz::Offset::from_seconds(forum_offset_seconds),
    ) {
        (Some(instant), Ok(offset)) => instant
            .to_zoned(jiff::tz::TimeZone::fixed(offset))
            .datetime()
            .to_string()
            .chars()
            .take(16)
            .collect(),
        _ => stored.chars().take(16).collect(),
    }
}

#[cfg(test)]
mod time_tests {
    use super::minute_on_forum_clock;

    #[test]
    fn stored_times_are_read_on_the_forums_clock() {
        let check = |stored: &str, offset: i32, expected: &str| {
            assert_eq!(minute_on_forum_clock(stored, offset), expected, "{stored}");
        };
        check("2025-11-17T00:04:52+00:00", 3600, "2025-11-17T01:04");
        check("2025-11-17T00:04:52-05:00", 0, "2025-11-17T05:04");
        check("2025-11-17T00:04", 3600, "2025-11-17T00:04");
        check("2025-11-17T00:04:52", -3600, "2025-11-17T00:04");
        check("2025-11-17", 3600, "2025-11-17");
    }
}
