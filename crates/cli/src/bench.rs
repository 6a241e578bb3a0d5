//! `trawl bench …`: measured figures, written for docs/BENCHMARKS.md.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use trawl_eval::speed;

use crate::bench_report::PrintedTables;
use trawl_sim::{FamilyName, Scale, SiteConfig};

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// The simulator: corpus build time and memory, in-process rendering rate on one core, HTTP
    /// serving rate on loopback.
    Sim(SimBenchArgs),
    /// Post extraction on WEB-FORUM-52 gold pages: writes NAME.jsonl predictions and prints the
    /// score by the rules of shared/evals/wf52/score.py (which can then be run on them as is).
    Extract(ExtractBenchArgs),
    /// Page analysis speed on one core: parse, regions, link table and records, on the real
    /// pages of the WEB-FORUM-52 development set and on simulator pages.
    Page(PageBenchArgs),
    /// Random and mangled pages through the whole page analysis for a while, looking for panics,
    /// and through trawl's and html5ever's tokenizers, looking for pages they read differently.
    Fuzz(FuzzBenchArgs),
    /// Learning on every simulator family: sample in process, learn the plan, crawl with it, and
    /// judge the sitemap (page-flipping arcs, roles) and the crawl (coverage, invalid and
    /// duplicate fetches) by the ground truth.
    Learn(LearnBenchArgs),
    /// The papers' crawl comparison: breadth-first, structure-driven and trawl's plan crawls of
    /// every simulator family over loopback HTTP, stored as `trawl crawl` stores them and judged
    /// by the ground truth (invalid, duplicate, coverage, first 5,000 fetches, relationships,
    /// posts with the right time).
    Crawl(crate::crawl_bench::CrawlBenchArgs),
    /// Issue 21's bars: patterns from one month of simulated browse logs ranking the next
    /// month's new URLs (rank correlation), and the frontier ordered by behaviour against queue
    /// order (valuable pages in the first tenth of an equal budget); then a simulated month of
    /// re-crawling ranked by the discovery ranking against breadth-first re-crawling at the same
    /// budget (median delay before a new thread is found).
    Behaviour(crate::behaviour_bench::BehaviourBenchArgs),
    /// Memory the crawler's frontier takes per URL waiting.
    Frontier(crate::frontier_bench::FrontierBenchArgs),
    /// Revisit policies against budgets: every policy at 1,000, 3,000 and 10,000 fetches a day
    /// on the fast path; writes a markdown table and SVG plots of the daily curves and of delay
    /// against budget.
    Freshness(crate::freshness::FreshnessArgs),
    /// Issue 22's bar: many simulated forums on loopback (each with a per-request latency)
    /// crawled by 1, 2, 4, 8 `trawl worker` processes on one PostgreSQL database, against one
    /// `trawl crawl` process per forum; forums per hour, and politeness counted at the servers.
    Fleet(crate::fleet_bench::FleetBenchArgs),
    /// A fleet of workers keeping simulated forums fresh for a simulated week on an
    /// accelerated clock, against the same forums kept fresh forum by forum.
    FleetWeek(crate::fleet_week_bench::FleetWeekArgs),
}

#[derive(Debug, Args)]
pub struct LearnBenchArgs {
    /// Families to run (all when empty), comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub family: Vec<String>,
    /// Forum seeds, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 2, 3])]
    pub seeds: Vec<u64>,
    /// Pages sampled, comma-separated for a learning curve.
    #[arg(long, value_delimiter = ',', default_values_t = [300])]
    pub samples: Vec<usize>,
    /// How arcs are chosen.
    #[arg(long, value_enum, default_value_t = StrategyArg::Skeleton)]
    pub strategy: StrategyArg,
    /// Stop each crawl after this many fetches.
    #[arg(long, default_value_t = 20_000)]
    pub max_fetches: usize,
    /// Print every vertex and arc of each learned sitemap.
    #[arg(long)]
    pub verbose: bool,
    /// Draw the learning curve (quality against --samples) to this SVG file.
    #[arg(long)]
    pub plot: Option<std::path::PathBuf>,
    /// Also write the tables and the learning curve as one HTML page to this file.
    #[arg(long)]
    pub html: Option<std::path::PathBuf>,
    /// Serve every forum in disguise: its URL words and markup names renamed from this seed.
    #[arg(long, value_name = "SEED")]
    pub disguise: Option<u64>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum StrategyArg {
    /// The skeleton paper's branch-and-bound link search.
    Skeleton,
    /// iRobot's directed spanning tree.
    SpanningTree,
}

impl StrategyArg {
    pub fn strategy(self) -> trawl_learn::traverse::Strategy {
        match self {
            StrategyArg::Skeleton => trawl_learn::traverse::Strategy::Skeleton,
            StrategyArg::SpanningTree => trawl_learn::traverse::Strategy::SpanningTree,
        }
    }
}

#[derive(Debug, Args)]
pub struct FuzzBenchArgs {
    /// Real pages to mangle (NAME.json gold pages).
    #[arg(long, default_value = "../shared/data/web-forum-52-dev")]
    pub gold: std::path::PathBuf,
    /// How long to run, in seconds.
    #[arg(long, default_value_t = 600)]
    pub seconds: u64,
    /// Seed of the input stream.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where inputs that panic or make the tokenizers disagree are saved.
    #[arg(long, default_value = "target/fuzz-crashes")]
    pub crashes: std::path::PathBuf,
}

#[derive(Debug, Args)]
pub struct PageBenchArgs {
    /// Directory of gold pages (NAME.json) whose HTML is analysed.
    #[arg(long, default_value = "../shared/data/web-forum-52-dev")]
    pub gold: std::path::PathBuf,
    /// Passes over the pages.
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Write everything the analysis reads from each page (regions, record slots, links, posts,
    /// thread entries) to this file instead of timing, to check that a change made for speed
    /// reads every page alike (compare two builds' files byte for byte).
    #[arg(long, value_name = "FILE")]
    pub dump: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct ExtractBenchArgs {
    /// Directory of gold pages (NAME.json).
    #[arg(long, default_value = "../shared/data/web-forum-52-dev")]
    pub gold: std::path::PathBuf,
    /// Directory the predictions are written to.
    #[arg(long, default_value = "target/wf52-predictions")]
    pub out: std::path::PathBuf,
    /// Print one row per page.
    #[arg(long)]
    pub verbose: bool,
    /// Score on every simulator family against its ground truth instead of the gold pages.
    #[arg(long)]
    pub sim: bool,
    /// With `--sim`: print every post and thread entry that is not right, one line each, to
    /// standard error.
    #[arg(long)]
    pub misses: bool,
    /// Read every gold page after a meaning-preserving rewrite, to measure how much the reading
    /// leans on the development pages' words and shapes: `names` (class and id words), `labels`
    /// (label words in another language, dates joined otherwise), `wrappers` (extra wrapper
    /// elements), `all`, or `identity` (the page written back unchanged).
    #[arg(long, value_parser = parse_perturbation)]
    pub perturb: Option<trawl_eval::wf52::perturb::Perturbation>,
    /// Seed of `--perturb`'s random tokens, wrappers and label language (its last digit picks one of
    /// ten: 0 German, 1 French, 2 Spanish, 3 Italian, 4 Portuguese, 5 Dutch, 6 Polish, 7 Russian,
    /// 8 Chinese, 9 Japanese).
    #[arg(long, default_value_t = 19)]
    pub perturb_seed: u64,
}

fn parse_perturbation(name: &str) -> Result<trawl_eval::wf52::perturb::Perturbation, String> {
    trawl_eval::wf52::perturb::Perturbation::from_name(name)
        .ok_or_else(|| format!("{name}: expected identity, names, labels, wrappers or all"))
}

#[derive(Debug, Args)]
pub struct SimBenchArgs {
    /// Pages rendered per family for the in-process rate.
    #[arg(long, default_value_t = 20_000)]
    pub pages: usize,
    /// Requests sent for the HTTP rate.
    #[arg(long, default_value_t = 40_000)]
    pub requests: usize,
    /// Skip building the 18-forum corpus (it takes the most time and memory).
    #[arg(long)]
    pub skip_corpus: bool,
}

pub fn run(command: BenchCommand) -> Result<()> {
    match command {
        BenchCommand::Sim(args) => bench_sim(args),
        BenchCommand::Page(args) => bench_page(args),
        BenchCommand::Fuzz(args) => {
            let started = Instant::now();
            let counts = trawl_eval::fuzz::run(
                &args.gold,
                std::time::Duration::from_secs(args.seconds),
                args.seed,
                &args.crashes,
            )?;
            println!(
                "fuzzed page analysis with {} inputs in {:.0} s (seed {}): no panic; trawl's \
                 tokenizer gave html5ever's tokens on all {} it read ({} refused and left to \
                 html5ever's)",
                counts.inputs,
                started.elapsed().as_secs_f64(),
                args.seed,
                counts.tokenizer_agreed,
                counts.tokenizer_refused
            );
            Ok(())
        }
        BenchCommand::Learn(args) => bench_learn(args),
        BenchCommand::Crawl(args) => crate::crawl_bench::run(args),
        BenchCommand::Behaviour(args) => crate::behaviour_bench::run(args),
        BenchCommand::Frontier(args) => crate::frontier_bench::run(args),
        BenchCommand::Freshness(args) => crate::freshness::bench_freshness(args),
        BenchCommand::Fleet(args) => crate::fleet_bench::run(args),
        BenchCommand::FleetWeek(args) => crate::fleet_week_bench::run(args),
        BenchCommand::Extract(args) if args.sim => {
            let show_misses = args.misses;
            let mut miss = |line: String| {
                if show_misses {
                    eprintln!("{line}");
                }
            };
            println!("| family | thread pages | posts | F1 | right time | right author |");
            println!("|---|---|---|---|---|---|");
            for family in FamilyName::ALL {
                let score = trawl_eval::sim_extraction::score_family(family, 41, 60, &mut miss)?;
                println!(
                    "| {} | {} | {} | {:.3} | {:.3} | {:.3} |",
                    family.name(),
                    score.pages,
                    score.truth_posts,
                    score.f1(),
                    score.time(),
                    score.author()
                );
            }
            println!();
            println!(
                "| family | board pages | thread entries | F1 | right replies | right last-reply time |"
            );
            println!("|---|---|---|---|---|---|");
            for family in FamilyName::ALL {
                let score = trawl_eval::sim_extraction::score_entries(family, 41, &mut miss)?;
                println!(
                    "| {} | {} | {} | {:.3} | {:.3} | {:.3} |",
                    family.name(),
                    score.pages,
                    score.expected,
                    score.f1(),
                    score.replies_right as f64 / score.expected.max(1) as f64,
                    score.time_right as f64 / score.expected.max(1) as f64
                );
            }
            println!();
            println!("| family | pages holding no post | pages with posts extracted | posts |");
            println!("|---|---|---|---|");
            for family in FamilyName::ALL {
                let score =
                    trawl_eval::sim_extraction::score_other_pages(family, 41, 40, &mut miss)?;
                println!(
                    "| {} | {} | {} | {} |",
                    family.name(),
                    score.pages,
                    score.pages_with_posts,
                    score.posts
                );
            }
            Ok(())
        }
        BenchCommand::Extract(args) => {
            let verbose = args.verbose;
            let perturbation = args
                .perturb
                .map(|perturbation| (perturbation, args.perturb_seed));
            let score = trawl_eval::wf52::evaluate_perturbed(
                &args.gold,
                &args.out,
                perturbation,
                &mut |row| {
                    if verbose {
                        eprintln!("{row}");
                    }
                },
            )?;
            println!("{}", score.summary());
            println!("predictions in {}", args.out.display());
            Ok(())
        }
    }
}

fn bench_sim(args: SimBenchArgs) -> Result<()> {
    println!("| measurement | result | bar |");
    println!("|---|---|---|");
    if !args.skip_corpus {
        let build = speed::corpus_build();
        let size = build.size;
        println!(
            "| build the 18-forum corpus ({} posts, {} threads, {} valuable pages, {} content pages) on {} threads | {:.1} s, peak RSS {:.2} GiB | < 30 s, < 4 GiB |",
            size.posts,
            size.threads,
            size.valuable_pages,
            size.content_pages,
            build.workers,
            build.seconds,
            build.peak_bytes as f64 / (1u64 << 30) as f64
        );
    }
    let mut total_pages = 0usize;
    let mut total_seconds = 0.0f64;
    for family in FamilyName::ALL {
        let rate = speed::rendering_rate(family, args.pages)?;
        total_pages += rate.pages;
        total_seconds += rate.seconds;
        println!(
            "| in-process fetcher, {} (medium), one core, {} valuable pages averaging {:.0} KB | {:.0} pages/s | >= 5,000 pages/s |",
            family.name(),
            rate.pages,
            rate.mean_kilobytes(),
            rate.pages_per_second()
        );
    }
    println!(
        "| in-process fetcher, all families | {:.0} pages/s | >= 5,000 pages/s |",
        total_pages as f64 / total_seconds
    );
    let serving =
        speed::serving_rate(args.requests).context("cannot measure serving over loopback HTTP")?;
    println!(
        "| HTTP server on loopback, phpbb (medium), 2 server threads, {} keep-alive clients on the same 2 cores | {:.0} pages/s ({} answered 200) | >= 2,000 pages/s |",
        serving.clients,
        serving.answered as f64 / serving.seconds,
        serving.answered
    );
    Ok(())
}

fn bench_page(args: PageBenchArgs) -> Result<()> {
    if let Some(path) = &args.dump {
        let dump = speed::analysis_dump(&args.gold)?;
        std::fs::write(path, dump).with_context(|| format!("cannot write {}", path.display()))?;
        return Ok(());
    }
    let measured = speed::analysis_speed(&args.gold, args.rounds)?;
    for (stage, milliseconds) in &measured.stages {
        eprintln!("  {stage:<28} {milliseconds:>8.2} ms per pass");
    }
    println!("| measurement | result | bar |");
    println!("|---|---|---|");
    println!(
        "| page analysis (parse, regions, links, records), one core, {} real pages averaging {:.0} KB, {} posts | {:.0} pages/s, {:.1} MB/s = {:.0} pages/s at 60 KB | >= 1,000 pages/s at 60 KB |",
        measured.pages,
        measured.mean_kilobytes(),
        measured.posts_per_pass,
        measured.pages_per_second(),
        measured.megabytes_per_second(),
        measured.megabytes_per_second() * 1e6 / 60_000.0
    );
    Ok(())
}

/// The families a `--family` list names, or every family for an empty list.
pub fn families_named(names: &[String]) -> Result<Vec<FamilyName>> {
    if names.is_empty() {
        return Ok(FamilyName::ALL.to_vec());
    }
    names
        .iter()
        .map(|name| FamilyName::parse(name).with_context(|| format!("unknown family {name:?}")))
        .collect()
}

fn bench_learn(args: LearnBenchArgs) -> Result<()> {
    let families = families_named(&args.family)?;
    let mut tables = PrintedTables::default();
    tables.section("Learning and crawling each forum");
    tables.line(
        "| family | seed | samples | sample + analysis s | learn s | vertices kept | flipping arcs (FP/FN) | role errors | fetches | coverage | invalid | duplicate | endless | relations kept |",
    );
    tables.line("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut runs: Vec<trawl_eval::curve::LearningRun> = Vec::new();
    for family in families {
        for seed in &args.seeds {
            let site = Arc::new(trawl_eval::learning::bench_site(
                SiteConfig::new(family, *seed, Scale::Small),
                args.disguise,
            ));
            for samples in &args.samples {
                let (learned, seconds, sample_seconds) = trawl_eval::learning::learn_in_process(
                    &site,
                    *samples,
                    *seed,
                    args.strategy.strategy(),
                )?;
                if args.verbose {
                    eprintln!("{}", crate::plan_show::render(&learned.plan));
                }
                let judged = trawl_eval::learning::judge_learning(&site, &learned, seconds);
                let crawl = trawl_eval::learning::crawl_in_process(
                    &site,
                    trawl_crawl::CrawlStrategy::Plan(Box::new(learned.plan.clone())),
                    args.max_fetches,
                )?;
                tables.line(&format!(
                    "| {} | {} | {} | {:.2} | {:.2} | {}/{} | {} ({}/{}) | {} | {} | {:.1} % | {:.2} % | {:.2} % | {:.2} % | {}/{} |",
                    family.name(),
                    seed,
                    judged.samples,
                    sample_seconds,
                    judged.learn_seconds,
                    judged.kept_vertices,
                    judged.vertices,
                    judged.flipping_arcs,
                    judged.flipping_false_positives,
                    judged.flipping_false_negatives,
                    judged.role_errors,
                    crawl.fetched,
                    100.0 * crawl.coverage(),
                    100.0 * crawl.share(crawl.invalid),
                    100.0 * crawl.share(crawl.duplicate),
                    100.0 * crawl.share(crawl.endless),
                    crawl.relations_kept,
                    crawl.relations_total,
                ));
                if args.verbose {
                    for mistake in &judged.flipping_mistakes {
                        eprintln!("{} seed {seed}: {mistake}", family.name());
                    }
                    eprintln!(
                        "{} seed {seed}: fetched {:?}\n  missed {:?} e.g. {:?}",
                        family.name(),
                        crawl.fetched_by_kind,
                        crawl.missed_by_role,
                        crawl.missed_examples
                    );
                    eprintln!(
                        "{} seed {seed}: duplicates e.g. {:?}",
                        family.name(),
                        crawl.duplicate_examples
                    );
                }
                runs.push(trawl_eval::curve::LearningRun {
                    samples: *samples,
                    coverage: 100.0 * crawl.coverage(),
                    invalid: 100.0 * crawl.share(crawl.invalid + crawl.endless),
                    duplicate: 100.0 * crawl.share(crawl.duplicate),
                });
            }
        }
    }
    let points = trawl_eval::curve::points_of(&runs);
    tables.line("");
    tables.section("The learning curve");
    tables.line(
        "| samples | mean coverage | worst coverage | mean invalid + endless | mean duplicate |",
    );
    tables.line("|---|---|---|---|---|");
    for point in &points {
        tables.line(&format!(
            "| {} | {:.2} % | {:.2} % | {:.2} % | {:.2} % |",
            point.samples, point.coverage, point.worst_coverage, point.invalid, point.duplicate
        ));
    }
    if let Some(path) = &args.plot {
        trawl_eval::curve::draw(&points, path)?;
        println!("learning curve drawn to {}", path.display());
    }
    if let Some(path) = &args.html {
        tables.figure(
            "coverage, invalid and duplicate fetches against the pages sampled",
            trawl_eval::curve::svg(&points)?,
        );
        tables.write_html(path, "trawl bench learn")?;
    }
    Ok(())
}
