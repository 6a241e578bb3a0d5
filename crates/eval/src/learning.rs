//! Learning and plan quality on the simulator: sample in process, learn, crawl with the plan, and
//! judge every fetch by the simulator's ground truth.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

use crate::error::Result;
use trawl_crawl::{CrawlStrategy, Crawler};
use trawl_learn::Learned;
use trawl_learn::sample::{NO_DELAY, SampleOptions, sample_site};
use trawl_learn::sitemap::Role as VertexRole;
use trawl_learn::traverse::Strategy;
use trawl_model::{CookieJarFetcher, FetchRequest, Fetcher, FixedClock};
use trawl_sim::{PageClass, Role as TruthRole, SimFetcher, Site};
use url::Url;

/// The origin in-process simulated sites answer under.
pub const SIM_ORIGIN: &str = "http://forum.sim.test";

/// The site a benchmark measures: the forum of `config` in its family's own words, or, with
/// `disguise`, the same forum with its URL words and markup names renamed from that seed
/// ([`Site::with_disguise`]), to measure on vocabulary trawl was not written against.
pub fn bench_site(config: trawl_sim::SiteConfig, disguise: Option<u64>) -> Site {
    let site = Site::build(config);
    match disguise {
        Some(seed) => site.with_disguise(seed),
        None => site,
    }
}

/// What learning produced for one site, judged.
#[derive(Debug, Clone, Default)]
pub struct LearnOutcome {
    pub samples: usize,
    pub learn_seconds: f64,
    pub vertices: usize,
    pub kept_vertices: usize,
    /// Arcs judged page flipping by the learner, and how many of them are wrong.
    pub flipping_arcs: usize,
    pub flipping_false_positives: usize,
    /// Arcs whose sampled links flip pages, missed by the learner.
    pub flipping_false_negatives: usize,
    /// One line per false negative (and false positive), for `--verbose` diagnosis.
    pub flipping_mistakes: Vec<String>,
    /// Vertices whose pages are mostly board or thread pages, labelled otherwise.
    pub role_errors: usize,
}

/// What a crawl with the plan fetched, judged.
#[derive(Debug, Clone, Default)]
pub struct CrawlOutcome {
    pub fetched: usize,
    pub valuable: usize,
    pub invalid: usize,
    pub duplicate: usize,
    pub endless: usize,
    pub valuable_total: usize,
    pub valuable_in_first_5000: usize,
    pub fetches_for_5000_valuable: Option<usize>,
    /// Valuable list pages after the first whose list the crawl put them in correctly.
    pub relations_kept: usize,
    pub relations_total: usize,
    /// Fetches by "class role", and valuable pages never fetched by role, for diagnosis.
    pub fetched_by_kind: BTreeMap<String, usize>,
    pub missed_by_role: BTreeMap<String, usize>,
    pub missed_examples: Vec<String>,
    /// The first few URLs fetched as duplicates, for `--verbose` runs.
    pub duplicate_examples: Vec<String>,
}

impl CrawlOutcome {
    pub fn coverage(&self) -> f64 {
        self.valuable as f64 / self.valuable_total.max(1) as f64
    }
    pub fn share(&self, count: usize) -> f64 {
        count as f64 / self.fetched.max(1) as f64
    }
}

/// Samples `site` in process and learns its plan. Returns the learning time (sitemap, traversal
/// and plan from the page summaries) and the sampling time (in-process fetches, which cost about
/// a tenth of a millisecond each, plus the analysis of every page).
pub fn learn_in_process(
    site: &Arc<Site>,
    samples: usize,
    seed: u64,
    strategy: Strategy,
) -> Result<(Learned, f64, f64)> {
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(site), SIM_ORIGIN));
    learn_through(site, &fetcher, SIM_ORIGIN, samples, seed, strategy)
}

/// Samples `site`, served under `origin` by `fetcher`, and learns its plan; the times as for
/// [`learn_in_process`].
pub fn learn_through(
    site: &Site,
    fetcher: &dyn Fetcher,
    origin: &str,
    samples: usize,
    seed: u64,
    strategy: Strategy,
) -> Result<(Learned, f64, f64)> {
    let at = jiff::Timestamp::from_second(site.history().end)?;
    let clock = FixedClock::new(at);
    let portal = Url::parse(&format!("{origin}{}", site.portal_path()))?;
    let options = SampleOptions {
        max_pages: samples,
        seed,
        delay: NO_DELAY,
        ..SampleOptions::default()
    };
    let sampling = Instant::now();
    let pages = sample_site(fetcher, &clock, portal.clone(), &options, |_| {})?;
    let sample_seconds = sampling.elapsed().as_secs_f64();
    let started = Instant::now();
    let learned = trawl_learn::learn(&portal, pages, strategy);
    Ok((learned, started.elapsed().as_secs_f64(), sample_seconds))
}

/// Judges the learned sitemap against the truth: page-flipping arcs and vertex roles.
pub fn judge_learning(site: &Site, learned: &Learned, learn_seconds: f64) -> LearnOutcome {
    let at = site.history().end;
    let sitemap = &learned.sitemap;
    let truth_of_page: Vec<trawl_sim::truth::UrlTruth> = sitemap
        .pages
        .iter()
        .map(|page| site.classify(&path_and_query(&page.url), at))
        .collect();
    let mut outcome = LearnOutcome {
        samples: sitemap.pages.len(),
        learn_seconds,
        vertices: sitemap.vertices.len(),
        kept_vertices: learned
            .traversal
            .verdicts
            .iter()
            .filter(|verdict| **verdict == trawl_learn::traverse::VertexVerdict::Kept)
            .count(),
        ..LearnOutcome::default()
    };
    // Each sampled page's (list, position), through its canonical page when it is a duplicate
    // spelling, so `?start=0` is page 1 of its thread.
    let list_position = |truth: &trawl_sim::truth::UrlTruth| -> Option<(String, u32)> {
        let resolved = match (&truth.class, &truth.canonical) {
            (PageClass::Duplicate, Some(canonical)) => site.classify(canonical, at),
            _ => truth.clone(),
        };
        Some((resolved.list?, resolved.position?))
    };
    let list_of_page: Vec<Option<(String, u32)>> =
        truth_of_page.iter().map(list_position).collect();
    for (index, arc) in sitemap.arcs.iter().enumerate() {
        // Only links between valuable pages, leaving list pages, are judged: a link to another
        // view of the list (sort order, print, archive) is a link to a duplicate, whatever the
        // learner calls it.
        let from_lists: Vec<&(usize, usize)> = arc
            .sampled_pairs
            .iter()
            .filter(|(source, target)| {
                truth_of_page[*source].class == PageClass::Valuable
                    && truth_of_page[*target].class == PageClass::Valuable
                    && list_of_page[*source].is_some()
            })
            .collect();
        if from_lists.is_empty() {
            continue;
        }
        // An arc flips pages when most of those links join two pages of one list.
        let same_list = from_lists
            .iter()
            .filter(
                |(source, target)| match (&list_of_page[*source], &list_of_page[*target]) {
                    (Some((list_a, position_a)), Some((list_b, position_b))) => {
                        list_a == list_b && position_a != position_b
                    }
                    _ => false,
                },
            )
            .count();
        let truly_flipping = 2 * same_list > from_lists.len();
        // A link that only ever leads back to its list's first page (a thread's title over its
        // later pages, a board's name in the rows of its later pages) joins pages of one list
        // but is not needed as page flipping: the crawl enters every list at its first page
        // from the parent board, and the first page's pager carries the list relation to the
        // later ones. The skeleton paper's connectivity does not call it flipping either (its
        // links lead one way only). Leaving such an arc unflagged is not a false negative;
        // flagging it is not a false positive.
        let leads_past_first_page = from_lists.iter().any(|(_, target)| {
            list_of_page[*target]
                .as_ref()
                .is_some_and(|(_, position)| *position > 1)
        });
        let judged_flipping = learned.traversal.flipping[index];
        if judged_flipping {
            outcome.flipping_arcs += 1;
        }
        let mistake = match (judged_flipping, truly_flipping) {
            (true, false) => {
                outcome.flipping_false_positives += 1;
                Some("FP")
            }
            (false, true) if leads_past_first_page => {
                outcome.flipping_false_negatives += 1;
                Some("FN")
            }
            _ => None,
        };
        if let Some(mistake) = mistake {
            let (source, target) = from_lists[0];
            outcome.flipping_mistakes.push(format!(
                "{mistake} arc {index}: vertex {} -> {:?} ({}/{} pairs in one list; connectivity {:?}, pager text {:.2}, same list {:.2}, self copies {:.2}, texts {:?}) e.g. {} -> {}",
                arc.key.source,
                arc.main_target(),
                same_list,
                from_lists.len(),
                learned.traversal.connectivity[index],
                arc.flipping_text_share,
                arc.same_list_share,
                arc.self_duplicate_share,
                arc.example_texts,
                sitemap.pages[*source].url,
                sitemap.pages[*target].url,
            ));
        }
    }
    for vertex in &sitemap.vertices {
        let mut roles: HashMap<TruthRole, usize> = HashMap::new();
        for page in &vertex.pages {
            let truth = &truth_of_page[*page];
            if truth.class == PageClass::Valuable {
                *roles.entry(truth.role).or_default() += 1;
            }
        }
        let boards = roles.get(&TruthRole::Board).copied().unwrap_or(0);
        let threads = roles.get(&TruthRole::Thread).copied().unwrap_or(0);
        let expected = if 2 * threads > vertex.pages.len() {
            Some(VertexRole::Thread)
        } else if 2 * boards > vertex.pages.len() {
            Some(VertexRole::ThreadList)
        } else {
            None
        };
        if let Some(expected) = expected
            && vertex.role != expected
        {
            outcome.role_errors += 1;
        }
    }
    outcome
}

/// Crawls `site` in process with `strategy` for at most `max_fetches` and judges every fetch.
pub fn crawl_in_process(
    site: &Arc<Site>,
    strategy: CrawlStrategy,
    max_fetches: usize,
) -> Result<CrawlOutcome> {
    let fetcher = CookieJarFetcher::new(SimFetcher::new(Arc::clone(site), SIM_ORIGIN));
    crawl_through(site, &fetcher, SIM_ORIGIN, strategy, max_fetches)
}

/// Crawls `site`, served under `origin` by `fetcher`, and judges every fetch.
pub fn crawl_through(
    site: &Site,
    fetcher: &dyn Fetcher,
    origin: &str,
    strategy: CrawlStrategy,
    max_fetches: usize,
) -> Result<CrawlOutcome> {
    let at_seconds = site.history().end;
    let at = jiff::Timestamp::from_second(at_seconds)?;
    let portal = Url::parse(&format!("{origin}{}", site.portal_path()))?;
    let mut crawler = Crawler::new(portal, strategy);
    let mut outcome = CrawlOutcome::default();
    site.for_each_url_truth(at_seconds, |truth| {
        outcome.valuable_total += usize::from(truth.class == PageClass::Valuable)
    });
    let mut tally = FetchTally::default();
    // For relationships: each fetched page's truth, and the list links between fetched pages.
    let mut truth_of_url: HashMap<String, trawl_sim::truth::UrlTruth> = HashMap::new();
    let mut list_edges: Vec<(String, String)> = Vec::new();
    while let Some(queued) = crawler.next_request() {
        if tally.fetched >= max_fetches {
            break;
        }
        let response = fetcher.fetch(&FetchRequest::new(queued.url.as_str(), at))?;
        let page = crawler.record(&queued, &response);
        let path = path_and_query(&page.url);
        let truth = site.classify(&path, at_seconds);
        *outcome
            .fetched_by_kind
            .entry(format!(
                "{:?} {:?} in vertex {:?}",
                truth.class, truth.role, page.vertex
            ))
            .or_default() += 1;
        let duplicates_before = tally.duplicate;
        tally.count(&truth);
        if tally.duplicate > duplicates_before && outcome.duplicate_examples.len() < 12 {
            outcome.duplicate_examples.push(path.clone());
        }
        for link in &page.list_links {
            list_edges.push((path.clone(), path_and_query(link)));
        }
        truth_of_url.insert(path, truth);
    }
    outcome.fetched = tally.fetched;
    outcome.valuable = tally.valuable;
    outcome.invalid = tally.invalid;
    outcome.duplicate = tally.duplicate;
    outcome.endless = tally.endless;
    outcome.valuable_in_first_5000 = tally.valuable_in_first_5000;
    outcome.fetches_for_5000_valuable = tally.fetches_for_5000_valuable;
    site.for_each_url_truth(at_seconds, |truth| {
        if truth.class == PageClass::Valuable && !tally.valuable_seen.contains(&truth.url) {
            *outcome
                .missed_by_role
                .entry(format!("{:?}", truth.role))
                .or_default() += 1;
            if outcome.missed_examples.len() < 8 {
                outcome.missed_examples.push(truth.url.clone());
            }
        }
    });
    // Lists as the crawl put them together: pages joined by list links, fetched ones only.
    let mut union_find: BTreeMap<String, String> = BTreeMap::new();
    fn find(parents: &mut BTreeMap<String, String>, item: &str) -> String {
        let mut current = item.to_string();
        while let Some(parent) = parents.get(&current).cloned() {
            if parent == current {
                break;
            }
            current = parent;
        }
        current
    }
    for (a, b) in &list_edges {
        if !truth_of_url.contains_key(b) {
            continue;
        }
        let (root_a, root_b) = (find(&mut union_find, a), find(&mut union_find, b));
        if root_a != root_b {
            union_find.insert(root_b.clone(), root_a.clone());
            union_find
                .entry(root_a)
                .or_insert_with_key(|key| key.clone());
        }
    }
    // A valuable later page keeps its relationship when the crawl's list holding it also holds
    // page 1 of its true list.
    let mut first_pages: HashMap<String, String> = HashMap::new();
    for (url, truth) in &truth_of_url {
        if truth.class == PageClass::Valuable
            && truth.position == Some(1)
            && let Some(list) = &truth.list
        {
            first_pages.insert(list.clone(), url.clone());
        }
    }
    for (url, truth) in &truth_of_url {
        let (Some(list), Some(position)) = (&truth.list, truth.position) else {
            continue;
        };
        if truth.class != PageClass::Valuable || position < 2 {
            continue;
        }
        outcome.relations_total += 1;
        if let Some(first) = first_pages.get(list)
            && find(&mut union_find, first) == find(&mut union_find, url)
        {
            outcome.relations_kept += 1;
        }
    }
    Ok(outcome)
}

/// A URL as the simulator's truth names it: path and query.
pub fn path_and_query(url: &Url) -> String {
    match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_string(),
    }
}

/// Fetches counted the papers' way, one at a time in fetch order: the first fetch of a
/// valuable page is valuable, a later fetch of the same page (under any spelling) is a duplicate.
/// Both crawl benchmarks (`trawl bench crawl` over the store, `trawl bench learn` in memory) count
/// through this one tally so their figures cannot drift apart.
#[derive(Debug, Default)]
pub struct FetchTally {
    pub fetched: usize,
    pub valuable: usize,
    pub invalid: usize,
    pub duplicate: usize,
    pub endless: usize,
    pub valuable_in_first_5000: usize,
    pub fetches_for_5000_valuable: Option<usize>,
    /// The simulator's names of the valuable pages fetched so far.
    pub valuable_seen: HashSet<String>,
}

impl FetchTally {
    /// Counts one more fetch, of the page `truth` describes.
    pub fn count(&mut self, truth: &trawl_sim::truth::UrlTruth) {
        self.fetched += 1;
        match truth.class {
            PageClass::Valuable => {
                if self.valuable_seen.insert(truth.url.clone()) {
                    self.valuable += 1;
                    if self.fetched <= 5_000 {
                        self.valuable_in_first_5000 += 1;
                    }
                    if self.valuable == 5_000 {
                        self.fetches_for_5000_valuable = Some(self.fetched);
                    }
                } else {
                    self.duplicate += 1;
                }
            }
            PageClass::Duplicate => self.duplicate += 1,
            PageClass::Invalid => self.invalid += 1,
            PageClass::Endless => self.endless += 1,
        }
    }
}
