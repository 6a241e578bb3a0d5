//! `trawl`: the command-line program.
//!
//! This crate is the only one that prints to the terminal or reads command-line arguments. Its
//! modules map to subcommands: [`sim`] (the forum simulator: serve, truth, stats, pages, corpus),
//! [`bench`] (measured figures for docs/BENCHMARKS.md) and [`demo`] (a simulated forum walked over
//! loopback HTTP, checked against its ground truth). Errors are `anyhow` chains whose outermost
//! context says what the user can do about them.

use clap::{Parser, Subcommand};

/// Page analysis builds and drops many small trees and strings per page on several threads;
/// glibc's allocator spent about a sixth of a crawl's instructions on them (perf, medium phpBB
/// crawl in process). mimalloc's thread-local free lists take most of that away.
#[global_allocator]
static GLOBAL_ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod audit;
mod behaviour_bench;
mod behaviour_order;
mod bench;
mod bench_report;
mod browse_log;
mod crawl;
mod crawl_bench;
mod demo;
mod export;
mod extract;
mod fleet;
mod fleet_bench;
mod fleet_watch;
mod fleet_week_bench;
mod freshness;
mod frontier_bench;
mod learn;
mod patterns;
mod plan_graph;
mod plan_show;
mod progress;
mod serve;
mod shared_clock;
mod sim;
mod time;
mod warc_export;
mod watch;

/// trawl: a crawler that understands web forums.
///
/// trawl learns how a forum is organised from a few hundred sampled pages, crawls only the
/// informative pages, reassembles boards and threads that span many pages, and extracts every post
/// with its author and time: `trawl crawl` does it all from a portal URL, `trawl learn` and `trawl
/// plan` show what it learns, `trawl extract` reads one saved page, and `trawl export` writes
/// what a crawl stored. `trawl watch` keeps a crawl's store fresh under a budget of fetches a day.
/// `trawl demo` runs the whole job on the built-in forum simulator (`trawl sim`), which the
/// benchmarks (`trawl bench`) measure against.
#[derive(Debug, Parser)]
#[command(
    name = "trawl",
    version,
    propagate_version = true,
    max_term_width = 100
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve a simulated forum on loopback, learn its plan and crawl it over HTTP, walk it
    /// breadth-first for comparison, and judge both by the simulator's ground truth.
    Demo(demo::DemoArgs),
    /// Crawl a forum into a crawl database: learn its plan (unless --plan is given), follow it,
    /// and store every page with its posts; rerun the same command to resume a stopped crawl.
    Crawl(crawl::CrawlArgs),
    /// Keep a crawl's database fresh: revisit the forum under a budget of fetches a day, storing
    /// new threads and posts as `trawl crawl` stores pages; rerun the same command after a stop
    /// to go on.
    Watch(watch::WatchArgs),
    /// Many forums in one PostgreSQL database, crawled by `trawl worker`s: register forums,
    /// show the sites with their leases and due times.
    #[command(subcommand)]
    Fleet(fleet::FleetCommand),
    /// Crawl the sites of a fleet's PostgreSQL database that are due, each under a lease that
    /// keeps other workers off it; run as many workers on as many machines as wanted.
    Worker(fleet::WorkerArgs),
    /// Audit a crawl against the forum's own counts (threads its boards list, pages its pagers
    /// show, posts its entries count): totals, then the worst lists. Exits with status 2 when
    /// the crawl is known to be incomplete.
    Audit(audit::AuditArgs),
    /// Print a crawl database's threads or pages as JSON lines, or write its responses as WARC.
    Export(export::ExportArgs),
    /// Print the posts of a saved forum page as JSON lines ({"author", "time", "text",
    /// "permalink"}), or with --records every record of every repetitive region.
    Extract(extract::ExtractArgs),
    /// Sample a forum from its portal over HTTP, learn its sitemap and traversal plan, and write
    /// the plan as JSON.
    Learn(learn::LearnArgs),
    /// Read a plan file: a readable summary, or the sitemap drawn.
    #[command(subcommand)]
    Plan(learn::PlanCommand),
    /// Learn URL patterns from a site's browse logs (combined server log, TSV or JSON lines):
    /// print the pattern tree with each pattern's figures and its rankings for comprehensive
    /// fetch and timely discovery, and write them as JSON with --out.
    Patterns(patterns::PatternsArgs),
    /// Serve the web console over a crawl database: plan review and editing, progress, the
    /// audit's gaps and a thread reader, in a browser (loopback unless --addr says otherwise).
    Serve(serve::ServeArgs),
    /// The forum simulator: serve forums, print their ground truth and statistics.
    #[command(subcommand)]
    Sim(sim::SimCommand),
    /// Measure speed and memory (figures for docs/BENCHMARKS.md).
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

fn main() {
    end_quietly_when_the_output_pipe_closes();
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Demo(args) => demo::run(args),
        Command::Crawl(args) => crawl::run(args),
        Command::Watch(args) => watch::run(args),
        Command::Fleet(command) => fleet::run(command),
        Command::Worker(args) => fleet::run_worker(args),
        Command::Audit(args) => audit::run(args),
        Command::Export(args) => export::run(args),
        Command::Extract(args) => extract::run(args),
        Command::Learn(args) => learn::run_learn(args),
        Command::Plan(command) => learn::run_plan(command),
        Command::Patterns(args) => patterns::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Sim(command) => sim::run(command),
        Command::Bench(command) => bench::run(command),
    };
    if let Err(error) = outcome {
        // A reader that stops early (`trawl extract page.html | head`) closes the pipe: that is
        // its choice, not a failure worth an error message or a failing exit status.
        if is_broken_pipe(&error) {
            return;
        }
        // An audit that finds the crawl incomplete has done its job; its own status tells a
        // script so apart from a failure to audit.
        if let Some(incomplete) = error.downcast_ref::<audit::Incomplete>() {
            eprintln!("{incomplete}");
            std::process::exit(2);
        }
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

/// `print!` and `println!` panic when standard output's reader has gone (`trawl bench extract
/// ... | head -1`). Most commands print their tables and reports that way, and a reader that
/// stops early is the user's choice, as it is for the commands that return the write error
/// (see [`is_broken_pipe`]): the process ends quietly with success instead of a panic message.
/// Every other panic keeps the default report.
fn end_quietly_when_the_output_pipe_closes() {
    let default_report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        // The standard library's own wording for a failed `print!`, followed by the I/O error.
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default_report(info);
    }));
}

/// Whether `error` comes from writing to a pipe whose reader has gone, directly or through
/// `serde_json` (whose error does not list the I/O error among its sources).
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let kind = match cause.downcast_ref::<std::io::Error>() {
            Some(io) => Some(io.kind()),
            None => cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}
