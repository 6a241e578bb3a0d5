//! `trawl bench frontier`: how much memory the crawler's frontier takes per URL waiting.
//!
//! The crawler is fed synthetic board pages of a thousand distinct thread links each, through
//! its public `record` step, until the frontier holds the number of URLs asked for. The growth of
//! the process's resident memory, divided by the URLs waiting, is the figure. Resident memory
//! rather than a counting allocator because the workspace forbids `unsafe`, which a global
//! allocator needs; a warm-up page first lets the page analysis reach its working size, so what
//! grows afterwards is what the crawler keeps.

use anyhow::{Context, Result, bail};
use clap::Args;
use trawl_crawl::{CrawlStrategy, Crawler, Queued};
use trawl_model::FetchResponse;
use url::Url;

#[derive(Debug, Args)]
pub struct FrontierBenchArgs {
    /// URLs to queue.
    #[arg(long, default_value_t = 1_000_000)]
    pub urls: usize,
}

const LINKS_PER_PAGE: usize = 1_000;

/// A board page linking to threads `first..first + LINKS_PER_PAGE`, with URLs of the length
/// forum thread links have (`/forum/viewtopic.php?f=12&t=123456&sid=…` style, 60-70 bytes).
fn board_page(first: usize) -> Vec<u8> {
    let mut html = String::with_capacity(LINKS_PER_PAGE * 90);
    html.push_str("<html><head><title>Board</title></head><body><table>");
    for thread in first..first + LINKS_PER_PAGE {
        html.push_str(&format!(
            "<tr><td><a href=\"/community/viewtopic.php?f=12&amp;t={thread}&amp;view=unread\">Thread {thread}</a></td></tr>"
        ));
    }
    html.push_str("</table></body></html>");
    html.into_bytes()
}

fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

fn response(url: &Url, body: Vec<u8>) -> FetchResponse {
    FetchResponse {
        url: url.to_string(),
        status: 200,
        headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
        body,
        fetched_at: jiff::Timestamp::UNIX_EPOCH,
    }
}

pub fn run(args: FrontierBenchArgs) -> Result<()> {
    if args.urls < LINKS_PER_PAGE {
        bail!("--urls must be at least {LINKS_PER_PAGE}");
    }
    let portal = Url::parse("http://forum.bench.test/community/index.php")?;
    let board = |page: usize| -> Result<Queued> {
        Ok(Queued {
            url: Url::parse(&format!(
                "http://forum.bench.test/community/viewforum.php?f=12&start={page}"
            ))?,
            depth: 1,
            redirects: 0,
        })
    };
    // Warm-up: one page analysed and dropped, so buffers the analysis keeps are not counted.
    {
        let mut warm = Crawler::new(portal.clone(), CrawlStrategy::BreadthFirst);
        let queued = board(0)?;
        let _ = warm.record(&queued, &response(&queued.url, board_page(10_000_000_000)));
    }
    let before = resident_bytes().context("resident memory is read from /proc (Linux only)")?;
    let mut crawler = Crawler::new(portal, CrawlStrategy::BreadthFirst);
    let started = std::time::Instant::now();
    let mut page = 0;
    while crawler.frontier_len() < args.urls {
        let queued = board(page)?;
        let _ = crawler.record(
            &queued,
            &response(&queued.url, board_page(page * LINKS_PER_PAGE)),
        );
        page += 1;
    }
    let after = resident_bytes().context("resident memory is read from /proc (Linux only)")?;
    let waiting = crawler.frontier_len();
    println!("| measurement | result | bar |");
    println!("|---|---|---|");
    println!(
        "| frontier memory per URL waiting ({waiting} URLs, about 75 bytes of text each) | {:.0} bytes | < 200 bytes |",
        after.saturating_sub(before) as f64 / waiting as f64
    );
    println!(
        "| board pages of {LINKS_PER_PAGE} links recorded | {page} in {:.1} s |  |",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
