//! `trawl demo`: a simulated forum served on loopback; trawl samples it over HTTP, learns its
//! plan, crawls it with the plan, and then walks it breadth-first for comparison; both crawls
//! are judged by the forum's ground truth.
//!
//! The walk is the generic breadth-first crawler the papers compare against: it follows every
//! same-site link once, in discovery order, and knows nothing about forums. Its report shows what
//! such a crawler spends its fetches on, which is the problem the rest of trawl exists to solve.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use trawl_sim::{PageClass, Site};
use trawl_sim_server::{ServerClock, SimServer};

use trawl_crawl::CrawlStrategy;
use trawl_fetch::{HttpFetcher, HttpOptions};
use trawl_learn::traverse::{Strategy, VertexVerdict};
use trawl_model::CookieJarFetcher;

use crate::http::LoopbackClient;
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
    let fetcher = CookieJarFetcher::new(HttpFetcher::new(HttpOptions::default()));
    let (learned, learn_seconds, sample_seconds) = crate::plan_bench::learn_through(
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
    let fetcher = CookieJarFetcher::new(HttpFetcher::new(HttpOptions::default()));
    let outcome = crate::plan_bench::crawl_through(
        &site,
        &fetcher,
        &origin,
        CrawlStrategy::Plan(Box::new(learned.plan)),
        args.max_pages,
    )
    .context("crawling the simulated forum with its plan failed")?;
    println!("{}", render_plan_crawl(&outcome));
    let report = walk_breadth_first(&site, &origin, args.max_pages, at)?;
    server.stop();
    println!("{}", report.render());
    Ok(())
}

fn render_plan_crawl(outcome: &crate::plan_bench::CrawlOutcome) -> String {
    let share = |count: usize| 100.0 * outcome.share(count);
    [
        format!("crawl with the learned plan: {} fetches", outcome.fetched),
        format!(
            "  valuable   {:>7}  ({:.1} %)",
            outcome.valuable,
            share(outcome.valuable)
        ),
        format!(
            "  duplicate  {:>7}  ({:.1} %)",
            outcome.duplicate,
            share(outcome.duplicate)
        ),
        format!(
            "  invalid    {:>7}  ({:.1} %)",
            outcome.invalid,
            share(outcome.invalid)
        ),
        format!(
            "  endless    {:>7}  ({:.1} %)",
            outcome.endless,
            share(outcome.endless)
        ),
        format!(
            "  coverage of valuable pages: {} of {} ({:.1} %)",
            outcome.valuable,
            outcome.valuable_total,
            100.0 * outcome.coverage()
        ),
        format!(
            "  later list pages kept with their list: {} of {}",
            outcome.relations_kept, outcome.relations_total
        ),
    ]
    .join("\n")
}

/// What a breadth-first walk fetched, judged by the ground truth.
#[derive(Debug, Default)]
pub struct WalkReport {
    pub fetched: usize,
    pub by_class: HashMap<&'static str, usize>,
    pub valuable_reached: usize,
    pub valuable_total: usize,
    pub valuable_in_first_1000: usize,
}

impl WalkReport {
    pub fn render(&self) -> String {
        let share = |count: usize| 100.0 * count as f64 / self.fetched.max(1) as f64;
        let mut lines = vec![format!("breadth-first walk: {} fetches", self.fetched)];
        for class in ["valuable", "duplicate", "invalid", "endless"] {
            let count = self.by_class.get(class).copied().unwrap_or(0);
            lines.push(format!("  {class:<10} {count:>7}  ({:.1} %)", share(count)));
        }
        lines.push(format!(
            "  coverage of valuable pages: {} of {} ({:.1} %)",
            self.valuable_reached,
            self.valuable_total,
            100.0 * self.valuable_reached as f64 / self.valuable_total.max(1) as f64
        ));
        lines.push(format!(
            "  valuable among the first 1,000 fetches: {}",
            self.valuable_in_first_1000
        ));
        lines.join("\n")
    }
}

fn class_name(class: PageClass) -> &'static str {
    match class {
        PageClass::Valuable => "valuable",
        PageClass::Invalid => "invalid",
        PageClass::Duplicate => "duplicate",
        PageClass::Endless => "endless",
    }
}

/// Walks `site` served at `origin` breadth-first for at most `max_pages` fetches.
pub fn walk_breadth_first(
    site: &Site,
    origin: &str,
    max_pages: usize,
    at: i64,
) -> Result<WalkReport> {
    let client = LoopbackClient::new();
    let mut valuable_total = 0;
    site.for_each_url_truth(at, |truth| {
        valuable_total += usize::from(truth.class == PageClass::Valuable)
    });
    let mut report = WalkReport {
        valuable_total,
        ..WalkReport::default()
    };
    let mut queue = VecDeque::from([site.portal_path()]);
    let mut seen: HashSet<String> = queue.iter().cloned().collect();
    let mut valuable_seen = HashSet::new();
    while let Some(path) = queue.pop_front() {
        if report.fetched >= max_pages {
            break;
        }
        let answer = client.get(&format!("{origin}{path}"))?;
        report.fetched += 1;
        let truth = site.classify(&path, at);
        *report.by_class.entry(class_name(truth.class)).or_default() += 1;
        if truth.class == PageClass::Valuable && valuable_seen.insert(path.clone()) {
            report.valuable_reached += 1;
            if report.fetched <= 1_000 {
                report.valuable_in_first_1000 += 1;
            }
        }
        let mut links = same_site_links(&answer.body, &format!("{origin}{path}"), origin);
        links.extend(
            answer
                .location
                .and_then(|location| same_site_path(&location, origin)),
        );
        for link in links {
            if seen.insert(link.clone()) {
                queue.push_back(link);
            }
        }
    }
    Ok(report)
}

/// The same-site paths (fragments removed) of every link of a page, read with the page
/// analysis's own charset detection, parser and link table.
pub fn same_site_links(body: &[u8], page_url: &str, origin: &str) -> Vec<String> {
    let Ok(url) = url::Url::parse(page_url) else {
        return Vec::new();
    };
    let text = trawl_page::charset::decode_html(body, None, None).text;
    let document = trawl_page::dom::Document::parse(&text);
    trawl_page::links::link_table(&document, &[], &url)
        .into_iter()
        .filter_map(|link| same_site_path(&link.url, origin))
        .collect()
}

fn same_site_path(link: &str, origin: &str) -> Option<String> {
    let path = match link.strip_prefix(origin) {
        Some(rest) => rest,
        None if link.starts_with('/') && !link.starts_with("//") => link,
        None => return None,
    };
    let path = path.split('#').next().unwrap_or("");
    (!path.is_empty()).then(|| path.to_string())
}
