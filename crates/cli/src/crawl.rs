//! `trawl crawl`: crawl a forum into a crawl database, learning its plan first unless one is
//! given, and resume a stopped crawl when run again with the same database.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use trawl_crawl::CrawlStrategy;
use trawl_fetch::{FetchConfig, PolitenessOptions};
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, Fetcher};
use trawl_store::{Store, StoreLocation};
use url::Url;

use crate::audit::describe;
use crate::progress::{ProgressLines, progress_line};
use trawl_learn::plan::Plan;
use trawl_run::{
    CrawlEnd, DriveOptions, MAX_RELEARNS_PER_RUN, SampledAnswers, TemplateChange, audit_store,
    close_gaps, drive_with_relearning, open_crawl,
};

#[derive(Debug, Args)]
pub struct CrawlArgs {
    /// The forum's portal URL.
    pub url: String,
    /// The crawl database (created when missing; a crawl already in it is resumed): a file, or
    /// a `postgres://` URL of a database that keeps each forum's crawl apart by its URL.
    #[arg(long)]
    pub db: StoreLocation,
    /// A plan written by `trawl learn`; without one, the plan is learned first.
    #[arg(long)]
    pub plan: Option<PathBuf>,
    /// Stop when the database holds this many pages (rerun with a higher limit to go on).
    #[arg(long)]
    pub max_pages: Option<usize>,
    /// `plan` follows the learned plan; `bfs` is the generic breadth-first baseline.
    #[arg(long, value_enum, default_value_t = CrawlStrategyArg::Plan)]
    pub strategy: CrawlStrategyArg,
    /// Pages to sample when learning the plan.
    #[arg(long, default_value_t = 300)]
    pub samples: usize,
    #[command(flatten)]
    pub fetching: FetchArgs,
    #[command(flatten)]
    pub order: crate::behaviour_order::OrderArgs,
    /// Seed of the sampler's choices when learning.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads fetching and analysing pages (politeness still limits requests per host).
    #[arg(long, default_value_t = default_workers())]
    pub workers: usize,
    #[command(flatten)]
    pub clock: crate::shared_clock::ClockArgs,
}

/// One worker per core: page analysis is the costly part of a crawl without politeness.
pub fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(2, |cores| cores.get())
}

/// How requests are made: politeness, robots.txt, login headers.
#[derive(Debug, Args)]
pub struct FetchArgs {
    /// Least time between the end of one answer from the forum and the next request to it, in
    /// milliseconds (robots.txt's Crawl-delay lengthens it, never shortens it).
    #[arg(long, default_value_t = 1000)]
    pub delay_ms: u64,
    /// Requests to the forum in flight at once.
    #[arg(long, default_value_t = 1)]
    pub max_in_flight: usize,
    /// Do not read or obey robots.txt (only for a forum you run yourself).
    #[arg(long)]
    pub ignore_robots: bool,
    /// A header sent with every request, such as a logged-in session:
    /// --header "Cookie: session=abc" (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
}

impl FetchArgs {
    /// The fetch stack these options describe. The cookie jar is left out: the crawl keeps its
    /// own, so it can store the session cookies and put them back on resume.
    pub fn config(&self) -> Result<FetchConfig> {
        if self.max_in_flight == 0 {
            bail!("--max-in-flight must be at least 1");
        }
        let mut default_headers = Vec::new();
        for header in &self.headers {
            let Some((name, value)) = header.split_once(':') else {
                bail!("--header {header:?} has no colon; write it as \"Name: value\"");
            };
            default_headers.push((name.trim().to_string(), value.trim().to_string()));
        }
        let mut config = FetchConfig {
            cookie_jar: false,
            default_headers,
            politeness: PolitenessOptions {
                min_delay: Duration::from_millis(self.delay_ms),
                max_in_flight_per_host: self.max_in_flight,
                ..PolitenessOptions::default()
            },
            ..FetchConfig::default()
        };
        if self.ignore_robots {
            config.robots = None;
        }
        Ok(config)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CrawlStrategyArg {
    /// Learn (or read) a traversal plan and follow it.
    Plan,
    /// Follow every same-site link once, breadth first.
    Bfs,
}

/// The portal URL a user typed, checked: an absolute http or https URL.
pub fn parse_portal(text: &str) -> Result<Url> {
    let portal = Url::parse(text).with_context(|| {
        format!("{text:?} is not a URL; give the forum's portal, like https://forum.example.org/")
    })?;
    if !matches!(portal.scheme(), "http" | "https") {
        bail!("trawl crawls http and https sites; {portal} is neither");
    }
    Ok(portal)
}

/// The arguments that name one crawl to a later command: `--db`, and for a PostgreSQL database,
/// which may hold many forums, `--site` too.
pub fn database_arguments(db: &StoreLocation, portal: &Url) -> String {
    match db {
        StoreLocation::File(_) => format!("--db {db}"),
        StoreLocation::Postgres(_) => format!("--db {db} --site {portal}"),
    }
}

pub fn run(args: CrawlArgs) -> Result<()> {
    let portal = parse_portal(&args.url)?;
    if args.plan.is_some() && args.strategy == CrawlStrategyArg::Bfs {
        bail!(
            "--plan and --strategy bfs contradict each other: a breadth-first crawl uses no plan"
        );
    }
    // A crawl that cannot even start (a portal that does not answer, a plan file that cannot
    // be read) leaves no database behind when it made a new one: a rerun with the mistake
    // mended starts clean, and no empty crawl file is left to puzzle over.
    let asked_order = args.order.asked()?;
    let mut store = Store::open_at(&args.db, portal.as_str())
        .with_context(|| format!("cannot open the crawl database {}", args.db))?;
    // The pages sampled to learn the plan answer the crawl's first requests for them, so the
    // forum serves each page once (see `trawl_run::SampledAnswers`).
    let fetcher = CookieJarFetcher::new(SampledAnswers::new(args.fetching.config()?.build()));
    let clock = args.clock.clock()?;
    let opened = open_crawl(
        &mut store,
        &portal,
        &fetcher,
        &clock,
        asked_order,
        || match args.strategy {
            CrawlStrategyArg::Bfs => Ok(CrawlStrategy::BreadthFirst),
            CrawlStrategyArg::Plan => {
                if let Some(path) = &args.plan {
                    return Ok(CrawlStrategy::Plan(Box::new(crate::learn::read_plan(
                        path,
                    )?)));
                }
                // A handle of its own on the crawl's store, which the opening holds, keeps the
                // sampled pages as they arrive (see `trawl_run::kept_samples`).
                let kept = Store::open_at(&args.db, portal.as_str())
                    .with_context(|| format!("cannot open the crawl database {}", args.db))?;
                Ok(CrawlStrategy::Plan(Box::new(learn_plan(
                    &fetcher,
                    &portal,
                    &args,
                    Some(kept),
                )?)))
            }
        },
    );
    let opened = match opened {
        Ok(opened) => opened,
        Err(error) => {
            if store.was_created() {
                // The crawl's own error says what went wrong; a store that could not be
                // removed shows itself on the rerun.
                let _ = store.discard();
            }
            return Err(error);
        }
    };
    fetcher.inner().offer(opened.sampled);
    let priority = opened.order.priority()?;
    let mut crawler = opened.crawler.with_priority(priority);
    if opened.resumed_pages > 0 {
        eprintln!(
            "resuming the crawl in {}: {} pages stored, {} waiting, in {} order",
            args.db,
            opened.resumed_pages,
            crawler.frontier_len(),
            opened.order.name()
        );
    }
    let mut progress = ProgressLines::new(Duration::from_secs(1));
    let (end, status) = drive_with_relearning(
        &mut store,
        &mut crawler,
        &portal,
        &fetcher,
        &clock,
        DriveOptions {
            max_pages: args.max_pages,
            workers: args.workers,
            paced: args.fetching.delay_ms > 0,
        },
        |change: TemplateChange| -> Result<Plan> {
            eprintln!(
                "{} of the recent pages matched no vertex of the plan: the forum's templates \
                 seem to have changed; learning the plan again",
                change.unclassified
            );
            fetcher.inner().let_go();
            let plan = learn_plan(&fetcher, &portal, &args, None)?;
            eprintln!(
                "learned plan {}; the crawl goes on with it",
                change.generation
            );
            Ok(plan)
        },
        |status| progress.update(status),
    )?;
    // A crawl that ran dry is audited against the forum's own counts, and what the audit
    // names as missing and fetchable is asked for before the crawl says it is done.
    let closing = if end == CrawlEnd::FrontierEmpty {
        let closing = close_gaps(
            &mut store,
            &mut crawler,
            &portal,
            &fetcher,
            &clock,
            DriveOptions {
                max_pages: args.max_pages,
                workers: args.workers,
                paced: args.fetching.delay_ms > 0,
            },
            |status| progress.update(status),
        )?;
        Some(closing)
    } else {
        None
    };
    progress.finish(&status);
    let total_posts = store.post_count()?;
    println!(
        "{} pages fetched this run ({} failed), {:.1} % of them valuable, {} posts ({} in the database), {:.1} pages/s",
        status.pages_this_run,
        status.failures_this_run,
        status.valuable_share() * 100.0,
        status.posts_this_run,
        total_posts,
        status.rate()
    );
    if !crawler.learned_rewrites().is_empty() {
        println!(
            "learned while crawling: {} redundant URL part(s) dropped",
            crawler.learned_rewrites().len()
        );
    }
    if crawler.unclassified() > 0 {
        println!(
            "{} pages matched no vertex of the plan",
            crawler.unclassified()
        );
    }
    if let Some(closing) = &closing
        && closing.rounds > 0
    {
        println!(
            "closing gaps: {} URLs the audit named asked for, {} pages fetched in {} round(s)",
            closing.asked, closing.fetched, closing.rounds
        );
    }
    let report = match closing {
        Some(closing) => closing.report,
        None => audit_store(&store)?,
    };
    print!("audit: {}", describe(&report, 3));
    match end {
        CrawlEnd::FrontierEmpty if report.is_incomplete() => println!(
            "crawl ended with gaps it could not close: {} pages in {}; `trawl audit {}` \
             lists them, a rerun of this command tries them again",
            store.page_count()?,
            args.db,
            database_arguments(&args.db, &portal)
        ),
        CrawlEnd::FrontierEmpty => println!(
            "crawl complete: {} pages in {}; export with `trawl export {} threads`",
            store.page_count()?,
            args.db,
            database_arguments(&args.db, &portal)
        ),
        CrawlEnd::PageLimit => println!(
            "stopped at the page limit with {} URLs waiting; rerun with a higher --max-pages to go on ({})",
            status.frontier,
            progress_line(&status)
        ),
        CrawlEnd::TemplateChanged { unclassified } => println!(
            "stopped: {unclassified} of the recent pages still match no \
             vertex after {MAX_RELEARNS_PER_RUN} new plans; the site may not be a forum trawl \
             understands. Rerun to try again, or crawl it with --strategy bfs"
        ),
    }
    Ok(())
}

/// Samples the forum and learns its plan, with progress; with `kept`, the crawl's store, the
/// sampled pages are kept there and an earlier sampling cut short is gone on with.
fn learn_plan<F: Fetcher>(
    fetcher: &CookieJarFetcher<F>,
    portal: &Url,
    args: &CrawlArgs,
    kept: Option<Store>,
) -> Result<Plan> {
    if args.samples == 0 {
        bail!("--samples must be at least 1 to learn a plan (or give one with --plan)");
    }
    let pages = match kept {
        Some(store) => {
            crate::learn::sample_keeping(fetcher, store, portal, args.samples, args.seed)?
        }
        None => crate::learn::sample_with_progress(fetcher, portal, args.samples, args.seed)?,
    };
    let sampled = pages.len();
    let learned = trawl_learn::learn(portal, pages, Strategy::Skeleton);
    eprintln!(
        "learned a plan from {sampled} pages: {} vertices; the plan is kept in the crawl database",
        learned.sitemap.vertices.len()
    );
    Ok(learned.plan)
}
