//! Progress of a crawl on standard error, as `trawl crawl` and `trawl watch` print it.

use std::time::{Duration, Instant};

use trawl_run::CrawlProgress;

/// Prints progress to standard error at most every `interval`. On a terminal the line is
/// rewritten in place; elsewhere (a log file, CI) each update is a line of its own, so a log
/// shows how the crawl went without control characters in it.
#[derive(Debug)]
pub struct ProgressLines {
    interval: Duration,
    last: Option<Instant>,
    in_place: bool,
}

impl ProgressLines {
    /// A printer that speaks at most once per `interval`.
    pub fn new(interval: Duration) -> ProgressLines {
        use std::io::IsTerminal;
        ProgressLines {
            interval,
            last: None,
            in_place: std::io::stderr().is_terminal(),
        }
    }

    /// Called after every page.
    pub fn update(&mut self, status: &CrawlProgress) {
        if self.last.is_some_and(|last| last.elapsed() < self.interval) {
            return;
        }
        self.last = Some(Instant::now());
        if self.in_place {
            eprint!("\r{}\x1b[K", progress_line(status));
        } else {
            eprintln!("{}", progress_line(status));
        }
    }

    /// Ends the in-place line, so what follows starts on a line of its own.
    pub fn finish(&mut self, status: &CrawlProgress) {
        if self.in_place {
            eprintln!("\r{}\x1b[K", progress_line(status));
        }
    }
}

/// One line: pages, valuable share, posts, rate, and the time left when bounded.
pub fn progress_line(status: &CrawlProgress) -> String {
    let limit = status
        .max_pages
        .map(|limit| format!("/{limit}"))
        .unwrap_or_default();
    let eta = status
        .eta_seconds()
        .map(|seconds| format!(", about {} left", human_duration(seconds)))
        .unwrap_or_default();
    // Pages the plan did not know are said, with what was done with them.
    let placed = match status.placed_by_nearest_this_run {
        0 => String::new(),
        pages => format!(", {pages} unknown to the plan placed by nearest layout"),
    };
    format!(
        "{}{limit} pages ({:.1} % valuable), {} posts, {} waiting, {:.0} pages/s{placed}{eta}",
        status.pages,
        status.valuable_share() * 100.0,
        status.posts_this_run,
        status.frontier,
        status.rate()
    )
}

/// Seconds in words: `42 s`, `3 min 5 s`, `2 h 10 min`.
pub fn human_duration(seconds: f64) -> String {
    let seconds = seconds.round() as u64;
    match seconds {
        0..60 => format!("{seconds} s"),
        60..3600 => format!("{} min {} s", seconds / 60, seconds % 60),
        _ => format!("{} h {} min", seconds / 3600, (seconds % 3600) / 60),
    }
}
