//! `trawl sim …`: the forum simulator on the command line.

use std::io::{BufWriter, Write};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use trawl_sim::{FamilyName, Scale, Site, SiteConfig, Traps};
use trawl_sim_server::{ServerClock, SimServer};

use crate::time::parse_instant;

#[derive(Debug, Subcommand)]
pub enum SimCommand {
    /// List the engine families and the traps a simulated forum can set.
    Families,
    /// Serve a simulated forum over HTTP until interrupted.
    ///
    /// Requests are answered as of the server's clock; a request may name its own instant with the
    /// header `X-Trawl-At: 2025-06-01T12:00:00Z`.
    Serve(ServeArgs),
    /// Print the ground truth as JSON lines: one object per URL the forum serves, one per post.
    ///
    /// URL objects: {"url", "class", "canonical", "role", "list", "position"}. Post objects:
    /// {"post", "thread", "board", "page", "author", "created", "text"}. See docs/SIMULATOR.md.
    Truth(TruthArgs),
    /// Print statistics of the forum's generated history (board rates, daily cycle, lifetimes).
    Stats(StatsArgs),
    /// Print one page as the server answers it (status, headers, then the body as UTF-8).
    Page(PageArgs),
    /// Build the papers' 18-forum corpus and print its size.
    Corpus,
    /// Print the combined-format log (Apache/nginx) the forum's server would keep of simulated
    /// human visitors over some days: entries at the portal or from a search engine, boards,
    /// new threads more than old, later and last pages, profiles, search and login.
    BrowseLog(crate::browse_log::BrowseLogArgs),
    /// Replay a revisit policy on a simulated forum (or the papers' corpus) from an empty store
    /// under a budget of fetches a day, and print per-day and stable-stage freshness figures.
    Replay(crate::freshness::ReplayArgs),
}

/// Which simulated forum.
#[derive(Debug, Args, Clone)]
pub struct SiteArgs {
    /// Engine family (see `trawl sim families`).
    #[arg(long, default_value = "phpbb")]
    pub family: String,
    /// Seed of the forum's history; the same seed always gives the same forum.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Size of the forum.
    #[arg(long, value_enum, default_value_t = ScaleArg::Small)]
    pub scale: ScaleArg,
    /// Switch off traps by name, comma-separated (see `trawl sim families`).
    #[arg(long, value_delimiter = ',')]
    pub trap_off: Vec<String>,
    /// Switch off every trap.
    #[arg(long, conflicts_with = "trap_off")]
    pub no_traps: bool,
    /// Spell the cursors of cursor-paged lists (nodebb) as opaque tokens instead of numbers.
    #[arg(long)]
    pub opaque_cursors: bool,
    /// Make cursor-paged lists (nodebb) show their newest thread first and name later pages by
    /// `?before=<id>`, ids counting down page after page.
    #[arg(long)]
    pub cursors_counting_down: bool,
    /// Serve the forum in disguise: its URL words (script names, path words, query keys) and
    /// the words of its class and id names renamed from this seed.
    #[arg(long, value_name = "SEED")]
    pub disguise: Option<u64>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ScaleArg {
    /// 45 days, 5 boards, about 2,500 posts.
    Small,
    /// A year, 12 boards, about 40,000 posts.
    Medium,
    /// Three years, 24 boards, about 300,000 posts (the papers' per-forum scale).
    Large,
}

impl SiteArgs {
    pub fn config(&self) -> Result<SiteConfig> {
        let Some(family) = FamilyName::parse(&self.family) else {
            let names: Vec<&str> = FamilyName::ALL.iter().map(|family| family.name()).collect();
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
        let mut traps = if self.no_traps {
            Traps::none()
        } else {
            Traps::all()
        };
        for name in &self.trap_off {
            traps.set(name.trim(), false)?;
        }
        Ok(SiteConfig {
            family,
            seed: self.seed,
            scale,
            traps,
        })
    }

    pub fn build(&self) -> Result<Site> {
        let site = Site::build(self.config()?);
        let site = if self.cursors_counting_down {
            site.with_cursors_counting_down()
        } else {
            site
        };
        let site = if self.opaque_cursors {
            site.with_opaque_cursors()
        } else {
            site
        };
        Ok(match self.disguise {
            Some(seed) => site.with_disguise(seed),
            None => site,
        })
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ClockArg {
    /// Always the instant given by --at.
    Fixed,
    /// The machine's wall clock (after the generated history, so the forum looks finished).
    Real,
    /// Starts at --at and runs --speed times faster than real time.
    Accelerated,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// Address to listen on; use port 0 for any free port.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Which clock answers "now".
    #[arg(long, value_enum, default_value_t = ClockArg::Fixed)]
    pub clock: ClockArg,
    /// The fixed instant, or the accelerated clock's start: `end` (the history's end), a date, or
    /// an RFC 3339 instant.
    #[arg(long, default_value = "end")]
    pub at: String,
    /// Simulated seconds per real second for the accelerated clock.
    #[arg(long, default_value_t = 60.0)]
    pub speed: f64,
    /// Server worker threads.
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
}

#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum TruthPart {
    /// URL records and post records.
    All,
    /// URL records only.
    Urls,
    /// Post records only.
    Posts,
}

#[derive(Debug, Args)]
pub struct TruthArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// The instant the truth is about: `end`, a date, or an RFC 3339 instant.
    #[arg(long, default_value = "end")]
    pub at: String,
    /// Which records to print.
    #[arg(long, value_enum, default_value_t = TruthPart::All)]
    pub only: TruthPart,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// Print JSON instead of a report.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct PageArgs {
    #[command(flatten)]
    pub site: SiteArgs,
    /// Path and query of the page, as in a link (`/viewtopic.php?t=3`). Defaults to the portal.
    pub path: Option<String>,
    /// The instant asked at.
    #[arg(long, default_value = "end")]
    pub at: String,
}

pub fn run(command: SimCommand) -> Result<()> {
    match command {
        SimCommand::Families => families(),
        SimCommand::Serve(args) => serve(args),
        SimCommand::Truth(args) => truth(args),
        SimCommand::Stats(args) => stats(args),
        SimCommand::Page(args) => page(args),
        SimCommand::Corpus => corpus(),
        SimCommand::BrowseLog(args) => crate::browse_log::run(args),
        SimCommand::Replay(args) => crate::freshness::replay(args),
    }
}

fn families() -> Result<()> {
    println!("Families (--family):");
    for family in FamilyName::ALL {
        let built = family.build();
        let profile = built.profile();
        println!(
            "  {:<11} {} [{}, {}{}]",
            family.name(),
            profile.description,
            profile.charset.label(),
            if profile.charset_in_header {
                "charset in header"
            } else {
                "charset in <meta> only"
            },
            if profile.session_parameter.is_some() {
                ", URL sessions"
            } else {
                ""
            }
        );
    }
    println!("\nTraps (all on by default; --trap-off NAME,NAME or --no-traps):");
    for name in Traps::NAMES {
        println!("  {name}");
    }
    Ok(())
}

fn serve(args: ServeArgs) -> Result<()> {
    let site = Arc::new(args.site.build()?);
    let at = parse_instant(&args.at, site.history().end)?;
    let clock = match args.clock {
        ClockArg::Fixed => ServerClock::Fixed(at),
        ClockArg::Real => ServerClock::Real,
        ClockArg::Accelerated => {
            if !args.speed.is_finite() || args.speed <= 0.0 {
                bail!("--speed must be a positive number of simulated seconds per real second");
            }
            ServerClock::Accelerated {
                origin: at,
                factor: args.speed,
            }
        }
    };
    let portal = site.portal_path();
    let description = format!(
        "{} forum {:?} (seed {}, {} scale)",
        site.config().family.name(),
        site.forum_name(),
        site.config().seed,
        site.config().scale.name()
    );
    let server = SimServer::start(site, clock.into_clock(), &args.addr, args.workers)
        .with_context(|| {
            format!(
                "pick another --addr than {} (port 0 picks a free one)",
                args.addr
            )
        })?;
    eprintln!("serving the {description}");
    eprintln!("portal: {}{portal}", server.origin());
    eprintln!("clock:  {clock:?}; press Ctrl-C to stop");
    server.wait();
    Ok(())
}

fn truth(args: TruthArgs) -> Result<()> {
    let site = args.site.build()?;
    let at = parse_instant(&args.at, site.history().end)?.as_second();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failure = None;
    if args.only != TruthPart::Posts {
        site.for_each_url_truth(at, |record| {
            if failure.is_none() {
                failure = serde_json::to_writer(&mut out, &record)
                    .map_err(anyhow::Error::from)
                    .and_then(|()| Ok(out.write_all(b"\n")?))
                    .err();
            }
        });
    }
    if args.only != TruthPart::Urls {
        site.for_each_post_truth(at, |record| {
            if failure.is_none() {
                failure = serde_json::to_writer(&mut out, &record)
                    .map_err(anyhow::Error::from)
                    .and_then(|()| Ok(out.write_all(b"\n")?))
                    .err();
            }
        });
    }
    if let Some(error) = failure {
        return Err(error).context("writing the truth to standard output failed");
    }
    out.flush()
        .context("writing the truth to standard output failed")?;
    Ok(())
}

fn stats(args: StatsArgs) -> Result<()> {
    let site = args.site.build()?;
    let stats = trawl_sim::stats::HistoryStats::of(site.history());
    if args.json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
    } else {
        println!(
            "{} forum {:?}, seed {}, {} scale",
            site.config().family.name(),
            site.forum_name(),
            site.config().seed,
            site.config().scale.name()
        );
        println!("{}", stats.report());
    }
    Ok(())
}

fn page(args: PageArgs) -> Result<()> {
    let site = args.site.build()?;
    let at = parse_instant(&args.at, site.history().end)?.as_second();
    let path = args.path.unwrap_or_else(|| site.portal_path());
    if !path.starts_with('/') {
        bail!(
            "the page must be a path starting with `/`, such as {}",
            site.portal_path()
        );
    }
    let answer = site.serve(&path, at, None);
    // Written with errors returned (not `print!`, which panics on a closed pipe): a page is
    // often piped into `head` or a pager that quits early.
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    writeln!(out, "HTTP {}", answer.status)?;
    for (name, value) in &answer.headers {
        writeln!(out, "{name}: {value}")?;
    }
    writeln!(out)?;
    let encoding = site.family().profile().charset.encoding();
    let (text, _, _) = encoding.decode(&answer.body);
    write!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

fn corpus() -> Result<()> {
    let configs = trawl_sim::corpus::papers_corpus();
    let started = std::time::Instant::now();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let sites = trawl_sim::corpus::build_all(&configs, workers);
    let elapsed = started.elapsed();
    let size = trawl_sim::corpus::measure(&sites);
    println!(
        "{} forums built in {:.1} s: {} posts, {} threads, {} valuable pages, {} content pages",
        size.forums,
        elapsed.as_secs_f64(),
        size.posts,
        size.threads,
        size.valuable_pages,
        size.content_pages
    );
    Ok(())
}
