//! `trawl sim replay` and `trawl bench freshness`: argument parsing and printing around the
//! replay harness of `trawl-eval`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use trawl_eval::freshness::bench::SweepRun;
use trawl_eval::freshness::{PagePath, Replay, ReplayConfig, bench, replay_sites};
use trawl_eval::html_report;
use trawl_schedule::POLICY_NAMES;
use trawl_sim::corpus::{build_all, papers_corpus};
use trawl_sim::{FamilyName, Scale, Site, SiteConfig, Traps};

use crate::sim::ScaleArg;

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum CorpusArg {
    /// The papers' 18 forums (the ten families in turn, seeds 1 to 18, large scale).
    Papers,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum PathArg {
    /// Hand the scheduler the records a page would show, without rendering it.
    Fast,
    /// Render every page, fetch it in process and read it with page analysis.
    Page,
}

/// Which forums to replay.
#[derive(Debug, Args, Clone)]
pub struct ForumsArgs {
    /// Engine family of the one forum replayed (see `trawl sim families`).
    #[arg(long, default_value = "phpbb")]
    pub family: String,
    /// Seed of its history.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Its size (large is the papers' per-forum scale: three years of history).
    #[arg(long, value_enum, default_value_t = ScaleArg::Large)]
    pub scale: ScaleArg,
    /// Replay a corpus instead of one forum.
    #[arg(long, value_enum, conflicts_with_all = ["family", "seed", "scale"])]
    pub corpus: Option<CorpusArg>,
    /// Only the first N forums of the corpus.
    #[arg(long, requires = "corpus")]
    pub forums: Option<usize>,
    /// Switch off every trap (they matter only on the page path).
    #[arg(long)]
    pub no_traps: bool,
}

impl ForumsArgs {
    fn configs(&self) -> Result<Vec<SiteConfig>> {
        let mut configs = match self.corpus {
            Some(CorpusArg::Papers) => {
                let mut corpus = papers_corpus();
                corpus.truncate(self.forums.unwrap_or(corpus.len()));
                corpus
            }
            None => {
                let Some(family) = FamilyName::parse(&self.family) else {
                    let names: Vec<&str> = FamilyName::ALL.iter().map(|f| f.name()).collect();
                    bail!(
                        "unknown family {:?}; choose one of: {}",
                        self.family,
                        names.join(", ")
                    );
                };
                let scale = match self.scale {
                    ScaleArg::Small => Scale::Small,
                    ScaleArg::Medium => Scale::Medium,
                    ScaleArg::Large => Scale::Large,
                };
                vec![SiteConfig::new(family, self.seed, scale)]
            }
        };
        if self.no_traps {
            for config in &mut configs {
                config.traps = Traps::none();
            }
        }
        Ok(configs)
    }

    fn build(&self, workers: usize) -> Result<Vec<Arc<Site>>> {
        let configs = self.configs()?;
        Ok(build_all(&configs, workers)
            .into_iter()
            .map(Arc::new)
            .collect())
    }
}

/// A budget as `3000/day` or `3000`.
pub(crate) fn parse_budget(text: &str) -> Result<u32, String> {
    let number = text
        .strip_suffix("/day")
        .unwrap_or(text)
        .replace(['_', ','], "");
    match number.parse::<u32>() {
        Ok(budget) if budget > 0 => Ok(budget),
        _ => Err(format!(
            "{text:?} is not a budget: give fetches a day, as 3000/day"
        )),
    }
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The revisit policy: trawl (ours, the default), oracle, rate-oracle, lws, lws-bc, bic-bra,
    /// era, wra, lra, uniform, bfs, poisson, curve-fitting, bound-based, nutch, stormcrawler.
    #[arg(long, default_value = "trawl")]
    pub policy: String,
    /// Fetches a day, per forum (`3000/day` or `3000`).
    #[arg(long, default_value = "3000/day", value_parser = parse_budget)]
    pub budget: u32,
    /// The date the first day is labelled with (the replay covers the forum's last --days days
    /// of history, whatever the label).
    #[arg(long)]
    pub from: Option<jiff::civil::Date>,
    /// Days replayed and judged (a settling day follows them, not judged).
    #[arg(long, default_value_t = 365)]
    pub days: u32,
    /// The last days judged as the stable stage.
    #[arg(long, default_value_t = 90)]
    pub stable_days: u32,
    #[command(flatten)]
    pub forums: ForumsArgs,
    /// How pages reach the scheduler.
    #[arg(long, value_enum, default_value_t = PathArg::Fast)]
    pub path: PathArg,
    /// Worker threads (one forum each at a time).
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
    /// Print one JSON object with the stable stage's figures instead of the report.
    #[arg(long)]
    pub json: bool,
}

fn replay_config(
    policy: &str,
    budget: u32,
    args_days: u32,
    stable_days: u32,
    path: PathArg,
) -> ReplayConfig {
    ReplayConfig {
        stable_days,
        path: match path {
            PathArg::Fast => PagePath::Fast,
            PathArg::Page => PagePath::Full,
        },
        ..ReplayConfig::new(policy, budget, args_days)
    }
}

fn check_policy(name: &str) -> Result<()> {
    if !POLICY_NAMES.contains(&name) {
        bail!(
            "unknown policy {name:?}; choose one of: {}",
            POLICY_NAMES.join(", ")
        );
    }
    Ok(())
}

pub fn replay(args: ReplayArgs) -> Result<()> {
    check_policy(&args.policy)?;
    let sites = args.forums.build(args.workers)?;
    let mut config = replay_config(
        &args.policy,
        args.budget,
        args.days,
        args.stable_days,
        args.path,
    );
    config.label_from = args.from;
    let started = Instant::now();
    let replay = replay_sites(&sites, &config, args.workers)
        .with_context(|| format!("cannot replay policy {}", args.policy))?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let mut value = serde_json::to_value(replay.summary())?;
        value["seconds"] = serde_json::json!(seconds);
        value["per_forum"] = serde_json::to_value(
            replay
                .forums
                .iter()
                .map(|forum| (forum.forum.clone(), forum.stage.clone()))
                .collect::<Vec<_>>(),
        )?;
        println!("{value}");
        return Ok(());
    }
    print_report(&replay, seconds);
    Ok(())
}

fn minutes(seconds: f64) -> f64 {
    seconds / 60.0
}

fn print_report(replay: &Replay, seconds: f64) {
    println!(
        "policy {} at {} fetches a day on {} forum(s), {} path ({seconds:.1} s)",
        replay.policy,
        replay.budget_per_day,
        replay.forums.len(),
        replay.path.name()
    );
    println!(
        "{:>4} {:>10} {:>8} {:>6} {:>6} {:>8} {:>7} {:>10} {:>10} {:>12}",
        "day",
        "date",
        "fetches",
        "index",
        "util",
        "coverage",
        "posts",
        "mean min",
        "p95 min",
        "total h"
    );
    for day in &replay.days {
        println!(
            "{:>4} {:>10} {:>8} {:>6} {:>6.3} {:>8.4} {:>7} {:>10.1} {:>10.1} {:>12.1}",
            day.day,
            day.date,
            day.fetches,
            day.index_fetches,
            day.utilisation,
            day.coverage,
            day.posts_written,
            minutes(day.mean_delay_s),
            minutes(day.p95_delay_s),
            day.total_delay_s / 3600.0
        );
    }
    if replay.forums.len() > 1 {
        println!("\nstable stage per forum:");
        for forum in &replay.forums {
            let stage = &forum.stage;
            println!(
                "  {:<24} mean {:>7.1} min  p95 {:>7.1} min  coverage {:.4}  lost {:>5}  utilisation {:.3}",
                forum.forum,
                minutes(stage.mean_delay_s),
                minutes(stage.p95_delay_s),
                stage.coverage,
                stage.posts_lost,
                stage.utilisation
            );
        }
    }
    let stage = &replay.overall;
    println!("\nstable stage (last judged days, all forums pooled):");
    println!(
        "  posts {} stored {} coverage {:.4} lost {}",
        stage.posts_written, stage.posts_stored, stage.coverage, stage.posts_lost
    );
    println!(
        "  delay mean {:.1} min, p95 {:.1} min, total {:.1} h",
        minutes(stage.mean_delay_s),
        minutes(stage.p95_delay_s),
        stage.total_delay_s / 3600.0
    );
    println!(
        "  fetches {} utilisation {:.3}",
        stage.fetches, stage.utilisation
    );
    println!(
        "  index lists: {} fetches, utilisation {:.3}, {} new threads listed after {:.1} min on average (p95 {:.1})",
        stage.index.fetches,
        stage.index.utilisation,
        stage.index.items,
        minutes(stage.index.mean_delay_s),
        minutes(stage.index.p95_delay_s)
    );
    println!(
        "  post lists: {} fetches, utilisation {:.3}, {} replies stored after {:.1} min on average (p95 {:.1})",
        stage.post.fetches,
        stage.post.utilisation,
        stage.post.items,
        minutes(stage.post.mean_delay_s),
        minutes(stage.post.p95_delay_s)
    );
}

#[derive(Debug, Args)]
pub struct FreshnessArgs {
    /// Policies to run, comma-separated (all when empty).
    #[arg(long, value_delimiter = ',')]
    pub policies: Vec<String>,
    /// Budgets, fetches a day, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [1_000, 3_000, 10_000])]
    pub budgets: Vec<u32>,
    /// Days replayed and judged.
    #[arg(long, default_value_t = 365)]
    pub days: u32,
    /// The last days judged as the stable stage.
    #[arg(long, default_value_t = 90)]
    pub stable_days: u32,
    #[command(flatten)]
    pub forums: ForumsArgs,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
    /// Directory the table (freshness.md), the plots (SVG) and each run's figures
    /// (`runs/POLICY-BUDGET.json`) are written to.
    #[arg(long, default_value = "target/freshness")]
    pub out: PathBuf,
    /// Replay nothing: table and plot the runs earlier sweeps kept in these directories (their
    /// `runs/*.json`), a later file of the same policy and budget replacing an earlier one.
    #[arg(long, num_args = 1..)]
    pub runs_from: Vec<PathBuf>,
    /// Also write the table and every plot as one self-contained HTML page to this file.
    #[arg(long)]
    pub html: Option<PathBuf>,
}

/// The runs kept under `directories` (`DIR/runs/*.json`), in the order the policies are named
/// in `POLICY_NAMES` and then by budget.
fn kept_runs(directories: &[PathBuf]) -> Result<Vec<SweepRun>> {
    let mut runs: Vec<SweepRun> = Vec::new();
    for directory in directories {
        let folder = directory.join("runs");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .with_context(|| format!("cannot read {}", folder.display()))?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let run: SweepRun = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a kept run", file.display()))?;
            runs.retain(|kept| {
                (kept.policy.as_str(), kept.budget_per_day)
                    != (run.policy.as_str(), run.budget_per_day)
            });
            runs.push(run);
        }
    }
    let rank = |policy: &str| {
        POLICY_NAMES
            .iter()
            .position(|name| *name == policy)
            .unwrap_or(POLICY_NAMES.len())
    };
    runs.sort_by(|a, b| {
        (a.budget_per_day, rank(&a.policy)).cmp(&(b.budget_per_day, rank(&b.policy)))
    });
    Ok(runs)
}

pub fn bench_freshness(args: FreshnessArgs) -> Result<()> {
    if !args.runs_from.is_empty() {
        let runs = kept_runs(&args.runs_from)?;
        let budgets: Vec<u32> = {
            let mut budgets: Vec<u32> = runs.iter().map(|run| run.budget_per_day).collect();
            budgets.dedup();
            budgets
        };
        return write_sweep(&args.out, &runs, &budgets, false, args.html.as_deref());
    }
    let policies: Vec<String> = if args.policies.is_empty() {
        POLICY_NAMES.iter().map(|name| name.to_string()).collect()
    } else {
        args.policies.clone()
    };
    for policy in &policies {
        check_policy(policy)?;
    }
    let started = Instant::now();
    let sites = args.forums.build(args.workers)?;
    eprintln!(
        "built {} forum(s) in {:.1} s",
        sites.len(),
        started.elapsed().as_secs_f64()
    );
    let mut replays = Vec::new();
    for &budget in &args.budgets {
        for policy in &policies {
            let run_started = Instant::now();
            let config = replay_config(policy, budget, args.days, args.stable_days, PathArg::Fast);
            let replay = replay_sites(&sites, &config, args.workers)
                .with_context(|| format!("cannot replay policy {policy} at {budget} a day"))?;
            let stage = &replay.overall;
            eprintln!(
                "{policy:>14} {budget:>6}/day: mean {:>8.1} min, p95 {:>8.1} min, coverage {:.4}, lost {:>6} ({:.1} s)",
                minutes(stage.mean_delay_s),
                minutes(stage.p95_delay_s),
                stage.coverage,
                stage.posts_lost,
                run_started.elapsed().as_secs_f64()
            );
            replays.push(SweepRun::from(&replay));
        }
    }
    write_sweep(
        &args.out,
        &replays,
        &args.budgets,
        true,
        args.html.as_deref(),
    )?;
    eprintln!(
        "wrote {} ({:.1} s in all)",
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes the table and the plots of `replays` into `out`, (`keep`) each run's figures, and
/// (`html`) the table and plots as one page.
fn write_sweep(
    out: &std::path::Path,
    replays: &[SweepRun],
    budgets: &[u32],
    keep: bool,
    html: Option<&std::path::Path>,
) -> Result<()> {
    std::fs::create_dir_all(out.join("runs"))
        .with_context(|| format!("cannot create {}", out.display()))?;
    let write = |name: &str, text: &str| -> Result<()> {
        let path = out.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    if keep {
        for run in replays {
            write(
                &format!("runs/{}", run.file_name()),
                &serde_json::to_string(run)?,
            )?;
        }
    }
    let table = bench::table(replays);
    write("freshness.md", &table)?;
    let mut figures = Vec::new();
    for &budget in budgets {
        for figure in bench::DailyFigure::ALL {
            let svg = bench::daily_plot(replays, budget, figure)?;
            write(&format!("daily-{}-{budget}.svg", figure.name()), &svg)?;
            figures.push(html_report::Figure {
                caption: format!("{} per day at {budget} fetches a day", figure.name()),
                svg,
            });
        }
    }
    let against_budget = bench::delay_against_budget_plot(replays)?;
    write("delay-against-budget.svg", &against_budget)?;
    figures.push(html_report::Figure {
        caption: "mean delay of the stable stage against the budget".to_string(),
        svg: against_budget,
    });
    print!("{table}");
    if let Some(path) = html {
        let report = html_report::Report {
            title: "trawl bench freshness".to_string(),
            subtitle: format!(
                "revisit policies against budgets; written {}",
                jiff::Timestamp::now().strftime("%Y-%m-%d %H:%M UTC")
            ),
            sections: vec![html_report::Section {
                heading: "Policies and budgets".to_string(),
                markdown: table,
                figures,
            }],
        };
        std::fs::write(path, html_report::render(&report))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
