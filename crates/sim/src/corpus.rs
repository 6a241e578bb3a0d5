//! The papers' corpus: 18 forums at the per-forum scale of the iRobot evaluation, together about
//! 5.4 million posts and a million pages over three years.

use crate::families::FamilyName;
use crate::history::Scale;
use crate::site::{Site, SiteConfig};

/// Number of forums in the papers' corpus.
pub const CORPUS_FORUMS: usize = 18;

/// The 18 site configurations: the families in turn, seeds 1 to 18, large scale, all traps on.
pub fn papers_corpus() -> Vec<SiteConfig> {
    (0..CORPUS_FORUMS)
        .map(|index| {
            let family = FamilyName::ALL[index % FamilyName::ALL.len()];
            SiteConfig::new(family, index as u64 + 1, Scale::Large)
        })
        .collect()
}

/// Builds `configs` on up to `workers` threads; the result keeps the order of `configs`.
pub fn build_all(configs: &[SiteConfig], workers: usize) -> Vec<Site> {
    let workers = workers.clamp(1, configs.len().max(1));
    let mut built: Vec<Option<Site>> = (0..configs.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let chunks: Vec<_> = built.chunks_mut(configs.len().div_ceil(workers)).collect();
        let mut start = 0;
        for chunk in chunks {
            let first = start;
            start += chunk.len();
            scope.spawn(move || {
                for (offset, slot) in chunk.iter_mut().enumerate() {
                    *slot = Some(Site::build(configs[first + offset]));
                }
            });
        }
    });
    built
        .into_iter()
        .map(|site| site.expect("every slot is built"))
        .collect()
}

/// Size figures of a set of sites.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CorpusSize {
    /// Forums.
    pub forums: usize,
    /// Posts.
    pub posts: u64,
    /// Threads.
    pub threads: u64,
    /// Valuable pages: portal, board list pages and thread pages.
    pub valuable_pages: u64,
    /// Pages with content of their own: valuable pages plus profiles and member-list pages.
    pub content_pages: u64,
}

/// Counts `sites` as of the end of their histories.
pub fn measure(sites: &[Site]) -> CorpusSize {
    let mut size = CorpusSize {
        forums: sites.len(),
        ..CorpusSize::default()
    };
    for site in sites {
        let history = site.history();
        let at = history.end;
        size.posts += u64::from(history.post_count());
        size.threads += u64::from(history.thread_count());
        let thread_pages: u64 = (1..=history.thread_count())
            .map(|thread| u64::from(site.thread_pages(thread, at)))
            .sum();
        let board_pages: u64 = (1..=history.board_count())
            .map(|board| u64::from(site.board_pages(board, at)))
            .sum();
        let valuable = 1 + thread_pages + board_pages;
        size.valuable_pages += valuable;
        size.content_pages +=
            valuable + u64::from(history.user_count()) + u64::from(site.member_pages(at));
    }
    size
}
