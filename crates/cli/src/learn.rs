//! `trawl learn` and `trawl plan`: learning a forum's plan over HTTP, and reading plan files.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use trawl_learn::plan::Plan;
use trawl_learn::sample::{SampleOptions, sample_site};
use trawl_learn::summary::PageSummary;
use trawl_model::{CookieJarFetcher, Fetcher, SystemClock};
use url::Url;

use crate::bench::StrategyArg;

#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The forum's portal URL.
    pub url: String,
    /// Pages to sample.
    #[arg(long, default_value_t = 300)]
    pub samples: usize,
    #[command(flatten)]
    pub fetching: crate::crawl::FetchArgs,
    /// Seed of the sampler's front-or-back choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How arcs are chosen.
    #[arg(long, value_enum, default_value_t = StrategyArg::Skeleton)]
    pub strategy: StrategyArg,
    /// Where the plan is written.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Debug, Subcommand)]
pub enum PlanCommand {
    /// Print a readable summary of a plan: vertices with example URLs, sizes, informativeness
    /// and roles; arcs with URL patterns, locations and decisions.
    Show {
        /// The plan file.
        plan: PathBuf,
    },
    /// Draw the sitemap with the chosen traversal highlighted.
    Graph {
        /// The plan file.
        plan: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = GraphFormat::Dot)]
        format: GraphFormat,
        /// Write to this file instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum GraphFormat {
    /// Graphviz DOT.
    Dot,
    /// A standalone SVG picture.
    Svg,
}

pub fn run_learn(args: LearnArgs) -> Result<()> {
    let portal = crate::crawl::parse_portal(&args.url)?;
    if args.samples == 0 {
        bail!("--samples must be at least 1");
    }
    // Checked before sampling, which takes minutes at a polite pace: finding out only at the
    // end that the plan cannot be written would throw that work away.
    if let Some(directory) = args
        .out
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        && !directory.is_dir()
    {
        bail!(
            "cannot write the plan to {}: {} is not a directory; create it or choose another --out",
            args.out.display(),
            directory.display()
        );
    }
    let fetcher = CookieJarFetcher::new(args.fetching.config()?.build());
    let pages = sample_with_progress(&fetcher, &portal, args.samples, args.seed)?;
    let sampled = pages.len();
    let learning = Instant::now();
    let learned = trawl_learn::learn(&portal, pages, args.strategy.strategy());
    let plan_text = learned.plan.to_json();
    std::fs::write(&args.out, plan_text)
        .with_context(|| format!("cannot write the plan to {}", args.out.display()))?;
    let kept = learned
        .traversal
        .verdicts
        .iter()
        .filter(|verdict| **verdict == trawl_learn::traverse::VertexVerdict::Kept)
        .count();
    eprintln!(
        "learned from {sampled} pages in {:.2} s: {} vertices ({kept} crawled), {} arcs ({} followed); plan written to {}",
        learning.elapsed().as_secs_f64(),
        learned.sitemap.vertices.len(),
        learned.sitemap.arcs.len(),
        learned
            .traversal
            .decisions
            .iter()
            .filter(|decision| **decision != trawl_learn::traverse::Decision::Skip)
            .count(),
        args.out.display()
    );
    Ok(())
}

/// Samples the forum from `portal` over the live clock, printing progress every 25 pages.
pub fn sample_with_progress(
    fetcher: &dyn Fetcher,
    portal: &Url,
    samples: usize,
    seed: u64,
) -> Result<Vec<PageSummary>> {
    let options = SampleOptions {
        max_pages: samples,
        seed,
        // The fetch stack paces requests per host; the sampler need not wait as well.
        delay: Duration::ZERO,
        ..SampleOptions::default()
    };
    let started = Instant::now();
    sample_site(fetcher, &SystemClock, portal.clone(), &options, |sampler| {
        let done = sampler.pages().len();
        if done % 25 == 0 || done == samples {
            eprintln!(
                "sampled {done}/{samples} pages ({} queued, {:.0} s)",
                sampler.queued(),
                started.elapsed().as_secs_f64()
            );
        }
    })
    .context("sampling the forum failed: check that the portal URL answers")
}

/// Samples the forum as [`sample_with_progress`] does, keeping every page in `store` (a handle
/// of its own on the crawl's store) and going on from the pages an earlier run kept there.
pub fn sample_keeping<F: Fetcher>(
    fetcher: &CookieJarFetcher<F>,
    store: trawl_store::Store,
    portal: &Url,
    samples: usize,
    seed: u64,
) -> Result<Vec<PageSummary>> {
    let sampled = trawl_run::sample_resumably(fetcher, store, |kept, kept_before| {
        if kept_before > 0 {
            eprintln!("going on from {kept_before} sampled pages kept by an earlier run");
        }
        sample_with_progress(kept, portal, samples, seed)
    })?;
    if sampled.replayed > 0 {
        eprintln!(
            "{} of the {} pages sampled were kept from before, not fetched again",
            sampled.replayed,
            sampled.pages.len()
        );
    }
    Ok(sampled.pages)
}

pub fn read_plan(path: &PathBuf) -> Result<Plan> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the plan file {}", path.display()))?;
    Plan::from_json(&text).with_context(|| format!("{} is not a usable plan", path.display()))
}

/// Writes `text` to standard output and says when that fails, where `print!` would panic: a
/// reader that stops early (`trawl plan show plan.json | head`) closes the pipe, and `main` ends
/// quietly on that error.
fn print_text(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

pub fn run_plan(command: PlanCommand) -> Result<()> {
    match command {
        PlanCommand::Show { plan } => print_text(&crate::plan_show::render(&read_plan(&plan)?)),
        PlanCommand::Graph { plan, format, out } => {
            let plan = read_plan(&plan)?;
            let text = match format {
                GraphFormat::Dot => crate::plan_graph::dot(&plan),
                GraphFormat::Svg => crate::plan_graph::svg(&plan),
            };
            match out {
                Some(path) => std::fs::write(&path, text)
                    .with_context(|| format!("cannot write {}", path.display())),
                None => print_text(&text),
            }
        }
    }
}
