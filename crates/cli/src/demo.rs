//! `trawl demo`: a simulated forum served on loopback; trawl samples it over HTTP, learns its
//! plan, crawls it with the plan into a crawl database exactly as `trawl crawl` does, and then
//! crawls it breadth-first for comparison; both crawls are judged by the forum's ground truth,
//! and one reassembled thread is shown as `trawl export` prints it.
//!
//! The breadth-first crawl is the generic crawler the papers compare against: it follows every
//! same-site link once, in discovery order, and knows nothing about forums. Its report shows what
//! such a crawler spends its fetches on, which is the problem the rest of trawl exists to solve.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use trawl_sim_server::{ServerClock, SimServer};

use trawl_crawl::CrawlStrategy;
use trawl_fetch::{HttpFetcher, HttpOptions};
use trawl_learn::traverse::{Strategy, VertexVerdict};
use trawl_model::{CookieJarFetcher, Fetcher};

use crate::crawl_bench::{CrawlFigures, crawl_and_judge};
use crate::sim::SiteArgs;

#[derive(Debug, Args)]
pub struct DemoArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// Stop each crawl after this many fetches.
    #[arg(long, default_value_t = 3_000)]
    pub max_pages: usize,
    /// Pages sampled to learn the plan.
    #[arg(long, default_value_t = 300)]
    pub samples: usize,
    /// Directory for the two crawl databases (a temporary one when not given).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run(args: DemoArgs) -> Result<()> {
    let site = Arc::new(args.site.build()?);
    let at = site.history().end;
    let clock = ServerClock::Fixed(jiff::Timestamp::from_second(at)?).into_clock();
    let server = SimServer::start(Arc::clone(&site), clock, "127.0.0.1:0", 2)
        .context("cannot start the simulated forum on loopback")?;
    let origin = server.origin();
    eprintln!(
        "serving a {} forum ({} threads, {} posts) at {origin}{}",
        site.config().family.name(),
        site.history().thread_count(),
        site.history().post_count(),
        site.portal_path()
    );
    let directory = args
        .out
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("trawl-demo-{}", std::process::id())));
    std::fs::create_dir_all(&directory)
        .with_context(|| format!("cannot create {}", directory.display()))?;
    let fetcher = CookieJarFetcher::new(HttpFetcher::new(HttpOptions::default()));
    let (learned, learn_seconds, sample_seconds) = trawl_eval::learning::learn_through(
        &site,
        &fetcher,
        &origin,
        args.samples,
        1,
        Strategy::Skeleton,
    )
    .context("learning the simulated forum's plan failed")?;
    let crawled = learned
        .traversal
        .verdicts
        .iter()
        .filter(|verdict| **verdict == VertexVerdict::Kept)
        .count();
    println!(
        "learned a plan from {} sampled pages ({sample_seconds:.1} s sampling, {learn_seconds:.2} s learning): {} vertices, {crawled} crawled, {} URL patterns",
        learned.sitemap.pages.len(),
        learned.sitemap.vertices.len(),
        learned.plan.url_patterns.len()
    );
    let workers = crate::crawl::default_workers();
    let http = || -> Arc<dyn Fetcher> { Arc::new(HttpFetcher::new(HttpOptions::default())) };
    let plan_db = directory.join("plan.db");
    let bfs_db = directory.join("bfs.db");
    for db in [&plan_db, &bfs_db] {
        trawl_store::remove_database_files(db);
    }
    let planned = crawl_and_judge(
        &site,
        &origin,
        http(),
        CrawlStrategy::Plan(Box::new(learned.plan)),
        &plan_db,
        Some(args.max_pages),
        workers,
    )
    .context("crawling the simulated forum with its plan failed")?;
    println!("{}", render("crawl with the learned plan", &planned));
    let walked = crawl_and_judge(
        &site,
        &origin,
        http(),
        CrawlStrategy::BreadthFirst,
        &bfs_db,
        Some(args.max_pages),
        workers,
    )
    .context("crawling the simulated forum breadth-first failed")?;
    server.stop();
    println!("{}", render("breadth-first crawl", &walked));
    let store = trawl_store::Store::open(&plan_db)?;
    let mut pages = Vec::new();
    store.for_each_page(false, |page| pages.push(page))?;
    let threads = crate::export::threads(&pages);
    if let Some(thread) = threads
        .iter()
        .find(|thread| {
            thread["pages"]
                .as_array()
                .is_some_and(|pages| pages.len() > 1)
        })
        .or(threads.first())
    {
        println!(
            "a thread put back together: {:?}, {} pages, {} posts, first by {} at {}",
            thread["title"].as_str().unwrap_or(""),
            thread["pages"].as_array().map_or(0, Vec::len),
            thread["posts"].as_array().map_or(0, Vec::len),
            thread["posts"][0]["author"].as_str().unwrap_or("?"),
            thread["posts"][0]["time"].as_str().unwrap_or("?"),
        );
    }
    println!(
        "the crawls are in {} and {}; try `trawl export --db {} threads`",
        plan_db.display(),
        bfs_db.display(),
        plan_db.display()
    );
    Ok(())
}

fn render(name: &str, figures: &CrawlFigures) -> String {
    let share = |count: usize| 100.0 * count as f64 / figures.fetched.max(1) as f64;
    [
        format!(
            "{name}: {} fetches ({:.0} pages/s)",
            figures.fetched,
            figures.fetched as f64 / figures.seconds.max(1e-9)
        ),
        format!(
            "  valuable   {:>7}  ({:.1} %)",
            figures.valuable,
            share(figures.valuable)
        ),
        format!(
            "  duplicate  {:>7}  ({:.1} %)",
            figures.duplicate,
            share(figures.duplicate)
        ),
        format!(
            "  invalid    {:>7}  ({:.1} %)",
            figures.invalid,
            share(figures.invalid)
        ),
        format!(
            "  coverage of valuable pages: {} of {} ({:.1} %)",
            figures.valuable,
            figures.valuable_total,
            100.0 * figures.coverage()
        ),
        format!(
            "  later list pages kept with their list: {} of {}",
            figures.relations_kept, figures.relations_total
        ),
        format!(
            "  posts stored with the right time: {} of {} ({:.1} %)",
            figures.posts_right_time,
            figures.posts_total,
            100.0 * figures.posts_time()
        ),
    ]
    .join("\n")
}
