//! Speed and memory of the simulator and of page analysis, measured in this process.
//!
//! The functions here take the measurements and return them; the command-line program prints
//! them as the rows of docs/BENCHMARKS.md. Timing is wall-clock time on whatever the machine
//! gives: run the benchmarks on an otherwise idle machine.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use trawl_fetch::{HttpFetcher, HttpOptions};
use trawl_model::{FetchRequest, Fetcher, Timestamp};
use trawl_page::analysis::analyse_text;
use trawl_page::dom::Document;
use trawl_page::links::link_table;
use trawl_page::regions::{find_regions, record_slots};
use trawl_page::time::DateContext;
use trawl_sim::{FamilyName, PageClass, Scale, SimFetcher, Site, SiteConfig};
use trawl_sim_server::{ServerClock, SimServer};

use crate::error::{EvalError, Result};

/// Peak resident memory of this process so far, from /proc (Linux), in bytes.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

/// Building the 18-forum corpus of the papers.
#[derive(Debug, Clone, Copy)]
pub struct CorpusBuild {
    pub workers: usize,
    pub seconds: f64,
    /// Peak resident memory of the process after the build, in bytes (0 where unknown).
    pub peak_bytes: u64,
    pub size: trawl_sim::corpus::CorpusSize,
}

/// Builds the papers' corpus on every core and measures time and peak memory.
pub fn corpus_build() -> CorpusBuild {
    let configs = trawl_sim::corpus::papers_corpus();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let started = Instant::now();
    let sites = trawl_sim::corpus::build_all(&configs, workers);
    let seconds = started.elapsed().as_secs_f64();
    let peak_bytes = peak_resident_bytes().unwrap_or(0);
    let size = trawl_sim::corpus::measure(&sites);
    CorpusBuild {
        workers,
        seconds,
        peak_bytes,
        size,
    }
}

/// Rendering through the in-process fetcher, for one family.
#[derive(Debug, Clone, Copy)]
pub struct RenderingRate {
    pub family: FamilyName,
    pub pages: usize,
    pub bytes: usize,
    pub seconds: f64,
}

impl RenderingRate {
    pub fn pages_per_second(&self) -> f64 {
        self.pages as f64 / self.seconds
    }
    pub fn mean_kilobytes(&self) -> f64 {
        self.bytes as f64 / self.pages.max(1) as f64 / 1024.0
    }
}

/// Renders `pages` valuable pages of a medium forum of `family` through the in-process fetcher
/// on this thread.
pub fn rendering_rate(family: FamilyName, pages: usize) -> Result<RenderingRate> {
    let site = Arc::new(Site::build(SiteConfig::new(family, 3, Scale::Medium)));
    let sample = valuable_sample(&site, pages);
    let urls: Vec<&String> = sample.iter().cycle().take(pages).collect();
    let fetcher = SimFetcher::new(Arc::clone(&site), "http://forum.test");
    let at = Timestamp::from_second(site.history().end)?;
    let started = Instant::now();
    let mut bytes = 0usize;
    for path in &urls {
        let answer = fetcher.fetch(&FetchRequest::new(format!("http://forum.test{path}"), at))?;
        bytes += answer.body.len();
    }
    Ok(RenderingRate {
        family,
        pages: urls.len(),
        bytes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Serving over loopback HTTP.
#[derive(Debug, Clone, Copy)]
pub struct ServingRate {
    pub clients: usize,
    pub answered: usize,
    pub seconds: f64,
}

/// Serves a medium phpBB forum from two server threads to four keep-alive clients sending
/// `requests` requests between them.
pub fn serving_rate(requests: usize) -> Result<ServingRate> {
    let site = Arc::new(Site::build(SiteConfig::new(
        FamilyName::Phpbb,
        3,
        Scale::Medium,
    )));
    let urls = Arc::new(valuable_sample(&site, 5_000));
    let clock = ServerClock::Fixed(Timestamp::from_second(site.history().end)?).into_clock();
    let server = SimServer::start(Arc::clone(&site), clock, "127.0.0.1:0", 2)
        .map_err(|source| EvalError::Server(source.to_string()))?;
    let origin = server.origin();
    let clients = 4;
    let per_client = requests / clients;
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
                    let answer =
                        client.fetch(&FetchRequest::new(url.as_str(), Timestamp::now()))?;
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
            .map_err(|_| EvalError::Server("a benchmark client panicked".to_string()))??;
    }
    let seconds = started.elapsed().as_secs_f64();
    server.stop();
    Ok(ServingRate {
        clients,
        answered,
        seconds,
    })
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

/// Page analysis over real pages.
#[derive(Debug, Clone)]
pub struct AnalysisSpeed {
    pub pages: usize,
    pub bytes: usize,
    /// Posts found per pass over the pages.
    pub posts_per_pass: usize,
    pub rounds: usize,
    pub seconds: f64,
    /// Milliseconds of one pass over the pages for growing prefixes of the analysis (parse,
    /// then regions, slots, links, the whole analysis), to show where the time goes.
    pub stages: Vec<(&'static str, f64)>,
}

impl AnalysisSpeed {
    pub fn pages_per_second(&self) -> f64 {
        (self.pages * self.rounds) as f64 / self.seconds
    }
    pub fn megabytes_per_second(&self) -> f64 {
        (self.bytes * self.rounds) as f64 / self.seconds / 1e6
    }
    pub fn mean_kilobytes(&self) -> f64 {
        self.bytes as f64 / self.pages.max(1) as f64 / 1024.0
    }
}

/// Everything page analysis reads from each gold page of `gold_dir`, one block per page in
/// the order the pages are read: the regions, the record slot of every node, the link table,
/// the posts, the thread entries and the date context, printed with `Debug`. Two builds whose
/// dumps are byte-identical read these pages alike, which is what a change made only for speed
/// must show; the tree itself is left out, so its layout in memory may change.
pub fn analysis_dump(gold_dir: &Path) -> Result<String> {
    let context = DateContext::new(Timestamp::from_second(1_609_459_200)?, None);
    let mut dump = String::new();
    for page in crate::wf52::read_gold_pages(gold_dir)? {
        let analysis = analyse_text(page.html(), "UTF-8", &page.url, &context);
        dump.push_str(&format!(
            "== {}\ncharset {}\nregions {:#?}\nslots {:?}\nlinks {:#?}\nposts {:#?}\nthread entries {:#?}\ndate context {:?}\n",
            page.url,
            analysis.charset,
            analysis.regions,
            analysis.slots,
            analysis.links,
            analysis.posts,
            analysis.thread_entries,
            analysis.date_context,
        ));
    }
    Ok(dump)
}

/// Analyses the gold pages of `gold_dir` `rounds` times on this thread, then once more stage by
/// stage.
pub fn analysis_speed(gold_dir: &Path, rounds: usize) -> Result<AnalysisSpeed> {
    let pages: Vec<(String, url::Url)> = crate::wf52::read_gold_pages(gold_dir)?
        .into_iter()
        .map(|page| (page.html().to_string(), page.url))
        .collect();
    let context = DateContext::new(Timestamp::from_second(1_609_459_200)?, None);
    let bytes: usize = pages.iter().map(|(html, _)| html.len()).sum();
    let started = Instant::now();
    let mut posts = 0;
    for _ in 0..rounds {
        for (html, url) in &pages {
            posts += analyse_text(html, "UTF-8", url, &context).posts.len();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let stage = |work: &dyn Fn(&str, &url::Url) -> usize| {
        let started = Instant::now();
        for (html, url) in &pages {
            std::hint::black_box(work(html, url));
        }
        started.elapsed().as_secs_f64() * 1e3
    };
    let stages = vec![
        ("parse", stage(&|html, _| Document::parse(html).len())),
        (
            "parse+regions",
            stage(&|html, _| find_regions(&Document::parse(html)).len()),
        ),
        (
            "parse+regions+slots",
            stage(&|html, _| {
                let document = Document::parse(html);
                let regions = find_regions(&document);
                record_slots(&document, &regions).len()
            }),
        ),
        (
            "parse+regions+links",
            stage(&|html, url| {
                let document = Document::parse(html);
                let regions = find_regions(&document);
                link_table(&document, &regions, url).len()
            }),
        ),
        (
            "whole analysis",
            stage(&|html, url| analyse_text(html, "UTF-8", url, &context).posts.len()),
        ),
    ];
    Ok(AnalysisSpeed {
        pages: pages.len(),
        bytes,
        posts_per_pass: posts / rounds.max(1),
        rounds,
        seconds,
        stages,
    })
}
