//! Helpers shared by the learning tests whose forums are written by hand (shapes of real
//! engines the simulator has no family like).

use trawl_learn::summary::PageSummary;
use trawl_page::analysis::analyse;
use trawl_page::time::DateContext;
use url::Url;

/// The origin of every hand-made forum.
pub const ORIGIN: &str = "http://forum.test";

/// A post of `words` words, different for every (thread, post) so no page is a near-duplicate
/// of another.
pub fn post_text(thread: usize, post: usize, words: usize) -> String {
    let vocabulary = [
        "gearbox",
        "sprocket",
        "warranty",
        "commute",
        "pannier",
        "derailleur",
        "saddle",
        "cadence",
        "puncture",
        "headwind",
        "climb",
        "tyre",
        "chain",
        "brake",
        "frame",
        "wheel",
        "the",
        "a",
        "my",
        "after",
        "before",
        "with",
    ];
    let sentence: Vec<&str> = (0..words)
        .map(|word| vocabulary[(thread * 7 + post * 3 + word * 5 + word * word) % vocabulary.len()])
        .collect();
    format!("{} (thread {thread}, reply {post}).", sentence.join(" "))
}

/// The page at `path` of the hand-made forum, summarised as the sampler would summarise it
/// when fetched at `fetched_at`.
pub fn summarise(path: &str, depth: u32, html: &str, fetched_at: &str) -> PageSummary {
    let fetched_at: jiff::Timestamp = fetched_at.parse().expect("a timestamp");
    let context = DateContext::new(fetched_at, None);
    let url = Url::parse(&format!("{ORIGIN}{path}")).expect("a URL");
    let analysis = analyse(html.as_bytes(), Some("text/html"), &url, &context);
    PageSummary::from_analysis(&analysis, depth, 200, None, html.len())
}
