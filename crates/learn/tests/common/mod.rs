//! Helpers shared by the learning tests whose forums are written by hand (shapes of real
//! engines the simulator has no family like).

// Each test file compiles this module on its own and uses only part of it.
#![allow(dead_code)]

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

/// Words of a thread title drawn from one cycling vocabulary, a different run for every
/// thread: `count` words, the `word`-th at `thread * thread_step + word * word_step + thread *
/// word` in the first `vocabulary_size` words, so no two list pages look alike once their
/// template is gone.
pub fn title_words(
    thread: usize,
    count: usize,
    (thread_step, word_step): (usize, usize),
    vocabulary_size: usize,
) -> String {
    const VOCABULARY: [&str; 32] = [
        "chain",
        "winter",
        "commute",
        "tubeless",
        "gravel",
        "saddle",
        "slipping",
        "panniers",
        "touring",
        "hills",
        "brakes",
        "squeal",
        "rain",
        "lights",
        "darkness",
        "frame",
        "steel",
        "carbon",
        "wheels",
        "spokes",
        "cassette",
        "cleats",
        "pedals",
        "helmet",
        "jacket",
        "mudguards",
        "racks",
        "tyres",
        "pressure",
        "valves",
        "pumps",
        "saddlebags",
    ];
    let vocabulary = &VOCABULARY[..vocabulary_size.min(VOCABULARY.len())];
    let picked: Vec<&str> = (0..count)
        .map(|word| {
            vocabulary[(thread * thread_step + word * word_step + thread * word) % vocabulary.len()]
        })
        .collect();
    picked.join(" ")
}

/// When post `post` of thread `thread` was written, spelled `2025-MM-DD H:MM` in `month`: the
/// day and minute spread by the thread (minutes `minute_step` apart from one thread to the next),
/// the hour counted from `first_hour` by the post.
pub fn written_in_2025(
    month: u32,
    first_hour: usize,
    minute_step: usize,
    thread: usize,
    post: usize,
) -> String {
    format!(
        "2025-{month:02}-{:02} {}:{:02}",
        1 + (thread + post) % 27,
        first_hour + post,
        (thread * minute_step + post) % 60
    )
}

/// A page of the hand-made forum named `forum`: its menu, `body` and a footer.
pub fn framed_page(forum: &str, title: &str, body: &str) -> String {
    format!(
        "<html><head><title>{title}</title></head><body>\
         <nav class=\"menu\"><a href=\"/\">{forum}</a> <a href=\"/search/\">Search</a></nav>\
         <div class=\"container\">{body}</div>\
         <footer>Powered by a forum engine</footer></body></html>"
    )
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
