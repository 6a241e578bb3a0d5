//! `trawl bench …`: measured figures, written for docs/BENCHMARKS.md.

use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use trawl_model::{FetchRequest, Fetcher, Timestamp};
use trawl_sim::{FamilyName, PageClass, Scale, SimFetcher, Site, SiteConfig};
use trawl_sim_server::{ServerClock, SimServer};

use trawl_fetch::{HttpFetcher, HttpOptions};

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
    /// Memory the crawler's frontier takes per URL waiting.
    Frontier(crate::frontier_bench::FrontierBenchArgs),
    /// Revisit policies against budgets: every policy at 1,000, 3,000 and 10,000 fetches a day
    /// on the fast path; writes a markdown table and SVG plots of the daily curves and of delay
    /// against budget.
    Freshness(crate::freshness::FreshnessArgs),
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
            let counts = crate::fuzz::run(
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
        BenchCommand::Frontier(args) => crate::frontier_bench::run(args),
        BenchCommand::Freshness(args) => crate::freshness::bench_freshness(args),
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
                let score = crate::sim_extraction::score_family(family, 41, 60, &mut miss)?;
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
                let score = crate::sim_extraction::score_entries(family, 41, &mut miss)?;
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
                let score = crate::sim_extraction::score_other_pages(family, 41, 40, &mut miss)?;
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
            let score = crate::wf52::evaluate(&args.gold, &args.out, &mut |row| {
                if verbose {
                    eprintln!("{row}");
                }
            })?;
            println!("{}", score.summary());
            println!("predictions in {}", args.out.display());
            Ok(())
        }
    }
}

/// Peak resident memory of this process so far, from /proc (Linux), in bytes.
fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

fn bench_sim(args: SimBenchArgs) -> Result<()> {
    println!("| measurement | result | bar |");
    println!("|---|---|---|");
    if !args.skip_corpus {
        let configs = trawl_sim::corpus::papers_corpus();
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        let started = Instant::now();
        let sites = trawl_sim::corpus::build_all(&configs, workers);
        let elapsed = started.elapsed().as_secs_f64();
        let peak = peak_resident_bytes().unwrap_or(0) as f64 / (1u64 << 30) as f64;
        let size = trawl_sim::corpus::measure(&sites);
        println!(
            "| build the 18-forum corpus ({} posts, {} threads, {} valuable pages, {} content pages) on {workers} threads | {elapsed:.1} s, peak RSS {peak:.2} GiB | < 30 s, < 4 GiB |",
            size.posts, size.threads, size.valuable_pages, size.content_pages
        );
        drop(sites);
    }
    let mut total_pages = 0usize;
    let mut total_seconds = 0.0f64;
    for family in FamilyName::ALL {
        let site = Arc::new(Site::build(SiteConfig::new(family, 3, Scale::Medium)));
        let sample = valuable_sample(&site, args.pages);
        let urls: Vec<&String> = sample.iter().cycle().take(args.pages).collect();
        let fetcher = SimFetcher::new(Arc::clone(&site), "http://forum.test");
        let at = Timestamp::from_second(site.history().end)?;
        let started = Instant::now();
        let mut bytes = 0usize;
        for path in urls.iter() {
            let answer =
                fetcher.fetch(&FetchRequest::new(format!("http://forum.test{path}"), at))?;
            bytes += answer.body.len();
        }
        let seconds = started.elapsed().as_secs_f64();
        total_pages += urls.len();
        total_seconds += seconds;
        println!(
            "| in-process fetcher, {} (medium), one core, {} valuable pages averaging {:.0} KB | {:.0} pages/s | >= 5,000 pages/s |",
            family.name(),
            urls.len(),
            bytes as f64 / urls.len().max(1) as f64 / 1024.0,
            urls.len() as f64 / seconds
        );
    }
    println!(
        "| in-process fetcher, all families | {:.0} pages/s | >= 5,000 pages/s |",
        total_pages as f64 / total_seconds
    );
    let site = Arc::new(Site::build(SiteConfig::new(
        FamilyName::Phpbb,
        3,
        Scale::Medium,
    )));
    let urls = Arc::new(valuable_sample(&site, 5_000));
    let clock = ServerClock::Fixed(Timestamp::from_second(site.history().end)?).into_clock();
    let server = SimServer::start(Arc::clone(&site), clock, "127.0.0.1:0", 2)
        .context("cannot start the benchmark server on loopback")?;
    let origin = server.origin();
    let clients = 4;
    let per_client = args.requests / clients;
    let started = Instant::now();
    let handles: Vec<_> = (0..clients)
        .map(|client_index| {
            let urls = Arc::clone(&urls);
            let origin = origin.clone();
            std::thread::spawn(move || -> Result<usize> {
                let client = HttpFetcher::new(HttpOptions::default());
                let mut answered = 0;
                for request in 0..per_client {
                    let path = &urls[(client_index * 7919 + request) % urls.len()];
                    let url = format!("{origin}{path}");
                    let answer = client
                        .fetch(&FetchRequest::new(url.as_str(), Timestamp::now()))
                        .with_context(|| format!("GET {url} failed"))?;
                    answered += usize::from(answer.status == 200);
                }
                Ok(answered)
            })
        })
        .collect();
    let mut answered = 0;
    for handle in handles {
        answered += handle
            .join()
            .map_err(|_| anyhow::anyhow!("a benchmark client panicked"))??;
    }
    let seconds = started.elapsed().as_secs_f64();
    server.stop();
    println!(
        "| HTTP server on loopback, phpbb (medium), 2 server threads, {clients} keep-alive clients on the same 2 cores | {:.0} pages/s ({answered} answered 200) | >= 2,000 pages/s |",
        answered as f64 / seconds
    );
    Ok(())
}

/// Up to `count` valuable page paths of `site`, spread over the whole forum.
fn valuable_sample(site: &Site, count: usize) -> Vec<String> {
    let at = site.history().end;
    let mut urls = Vec::new();
    site.for_each_url_truth(at, |truth| {
        if truth.class == PageClass::Valuable {
            urls.push(truth.url);
        }
    });
    let step = (urls.len() / count.max(1)).max(1);
    let mut sample: Vec<String> = urls.into_iter().step_by(step).collect();
    sample.truncate(count);
    sample
}

fn bench_page(args: PageBenchArgs) -> Result<()> {
    use trawl_page::analysis::analyse_text;
    use trawl_page::time::DateContext;
    let pages: Vec<(String, url::Url)> = crate::wf52::read_gold_pages(&args.gold)?
        .into_iter()
        .map(|page| (page.html().to_string(), page.url))
        .collect();
    let context = DateContext::new(Timestamp::from_second(1_609_459_200)?, None);
    let bytes: usize = pages.iter().map(|(html, _)| html.len()).sum();
    let started = Instant::now();
    let mut posts = 0;
    for _ in 0..args.rounds {
        for (html, url) in &pages {
            posts += analyse_text(html, "UTF-8", url, &context).posts.len();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let analysed = pages.len() * args.rounds;
    let megabytes_per_second = (bytes * args.rounds) as f64 / seconds / 1e6;
    // Stage by stage, to show where the time goes.
    let stage = |name: &str, work: &dyn Fn(&str, &url::Url) -> usize| {
        let started = Instant::now();
        for (html, url) in &pages {
            std::hint::black_box(work(html, url));
        }
        eprintln!(
            "  {name:<28} {:>8.2} ms per pass",
            started.elapsed().as_secs_f64() * 1e3
        );
    };
    use trawl_page::{
        dom::Document,
        links::link_table,
        regions::{find_regions, record_slots},
    };
    stage("parse", &|html, _| Document::parse(html).len());
    stage("parse+regions", &|html, _| {
        find_regions(&Document::parse(html)).len()
    });
    stage("parse+regions+slots", &|html, _| {
        let document = Document::parse(html);
        let regions = find_regions(&document);
        record_slots(&document, &regions).len()
    });
    stage("parse+regions+links", &|html, url| {
        let document = Document::parse(html);
        let regions = find_regions(&document);
        link_table(&document, &regions, url).len()
    });
    stage("whole analysis", &|html, url| {
        analyse_text(html, "UTF-8", url, &context).posts.len()
    });
    println!("| measurement | result | bar |");
    println!("|---|---|---|");
    println!(
        "| page analysis (parse, regions, links, records), one core, {} real pages averaging {:.0} KB, {} posts | {:.0} pages/s, {:.1} MB/s = {:.0} pages/s at 60 KB | >= 1,000 pages/s at 60 KB |",
        pages.len(),
        bytes as f64 / pages.len().max(1) as f64 / 1024.0,
        posts / args.rounds.max(1),
        analysed as f64 / seconds,
        megabytes_per_second,
        megabytes_per_second * 1e6 / 60_000.0
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
    println!(
        "| family | seed | samples | sample + analysis s | learn s | vertices kept | flipping arcs (FP/FN) | role errors | fetches | coverage | invalid | duplicate | endless | relations kept |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    // (samples, coverage, invalid share, duplicate share) of every run, for the curve.
    let mut runs: Vec<(usize, f64, f64, f64)> = Vec::new();
    for family in families {
        for seed in &args.seeds {
            let site = Arc::new(Site::build(SiteConfig::new(family, *seed, Scale::Small)));
            for samples in &args.samples {
                let (learned, seconds, sample_seconds) = crate::plan_bench::learn_in_process(
                    &site,
                    *samples,
                    *seed,
                    args.strategy.strategy(),
                )?;
                if args.verbose {
                    eprintln!("{}", crate::plan_show::render(&learned.plan));
                }
                let judged = crate::plan_bench::judge_learning(&site, &learned, seconds);
                let crawl = crate::plan_bench::crawl_in_process(
                    &site,
                    trawl_crawl::CrawlStrategy::Plan(Box::new(learned.plan.clone())),
                    args.max_fetches,
                )?;
                println!(
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
                );
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
                }
                runs.push((
                    *samples,
                    100.0 * crawl.coverage(),
                    100.0 * crawl.share(crawl.invalid + crawl.endless),
                    100.0 * crawl.share(crawl.duplicate),
                ));
            }
        }
    }
    let mut sizes: Vec<usize> = runs.iter().map(|run| run.0).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let points: Vec<crate::curve::CurvePoint> = sizes
        .iter()
        .map(|size| {
            let at_size: Vec<_> = runs.iter().filter(|run| run.0 == *size).collect();
            let mean = |select: fn(&(usize, f64, f64, f64)) -> f64| {
                at_size.iter().map(|run| select(run)).sum::<f64>() / at_size.len() as f64
            };
            crate::curve::CurvePoint {
                samples: *size,
                coverage: mean(|run| run.1),
                invalid: mean(|run| run.2),
                duplicate: mean(|run| run.3),
                worst_coverage: at_size.iter().map(|run| run.1).fold(100.0, f64::min),
            }
        })
        .collect();
    println!();
    println!(
        "| samples | mean coverage | worst coverage | mean invalid + endless | mean duplicate |"
    );
    println!("|---|---|---|---|---|");
    for point in &points {
        println!(
            "| {} | {:.2} % | {:.2} % | {:.2} % | {:.2} % |",
            point.samples, point.coverage, point.worst_coverage, point.invalid, point.duplicate
        );
    }
    if let Some(path) = &args.plot {
        crate::curve::draw(&points, path)?;
        println!("learning curve drawn to {}", path.display());
    }
    Ok(())
}
