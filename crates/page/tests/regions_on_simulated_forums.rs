//! Repetitive regions on pages of every simulated engine family.

use trawl_page::charset::decode_html;
use trawl_page::dom::Document;
use trawl_page::regions::{Region, find_regions};
use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig};

struct Fixture {
    site: Site,
}

impl Fixture {
    fn new(family: FamilyName) -> Self {
        Fixture {
            site: Site::build(SiteConfig::new(family, 41, Scale::Small)),
        }
    }

    fn page(&self, route: Route) -> Document {
        let at = self.site.history().end;
        let url = self.site.url_of(&Address::canonical(route));
        let answer = self.site.serve(&url, at, None);
        let content_type = answer.header("Content-Type");
        Document::parse(&decode_html(&answer.body, content_type, None).text)
    }

    /// Threads with at least `posts` posts.
    fn threads_with(&self, posts: usize) -> Vec<u32> {
        let history = self.site.history();
        (1..=history.thread_count())
            .filter(|&t| history.thread_posts(t).len() >= posts)
            .collect()
    }
}

/// Among the regions holding at least a fifth of the page's text, the one with most records
/// (an outer region of two tables holds more text than the list inside one of them).
fn main_region(document: &Document) -> Region {
    find_regions(document)
        .into_iter()
        .filter(|region| region.text_share >= 0.2)
        .max_by_key(|region| region.records.len())
        .expect("a page of records has a region")
}

fn check_thread_pages(family: FamilyName) {
    let fixture = Fixture::new(family);
    let per_page = fixture.site.family().profile().posts_per_page as usize;
    let mut patterns = Vec::new();
    for thread in fixture.threads_with(3).into_iter().take(6) {
        let posts = fixture
            .site
            .history()
            .thread_posts(thread)
            .len()
            .min(per_page);
        // Question-and-answer sites show the question apart, above the list of its answers.
        let apart = usize::from(fixture.site.family().profile().quirks.question_and_answer);
        let document = fixture.page(Route::Thread { thread, page: 1 });
        let region = main_region(&document);
        assert_eq!(
            region.records.len(),
            posts - apart,
            "{}: thread {thread}",
            family.name()
        );
        assert!(
            region.text_share > 0.3,
            "{}: {}",
            family.name(),
            region.text_share
        );
        patterns.push(region.pattern);
    }
    patterns.dedup();
    assert_eq!(
        patterns.len(),
        1,
        "{}: post lists of one site share one pattern",
        family.name()
    );
}

fn check_board_pages(family: FamilyName) {
    let fixture = Fixture::new(family);
    let thread_pattern = main_region(&fixture.page(Route::Thread {
        thread: fixture.threads_with(3)[0],
        page: 1,
    }))
    .pattern;
    let mut patterns = Vec::new();
    for board in 1..=fixture.site.history().board_count() {
        let document = fixture.page(Route::Board { board, page: 1 });
        let region = main_region(&document);
        assert!(
            region.records.len() >= 3,
            "{}: board {board}",
            family.name()
        );
        assert_ne!(
            region.pattern,
            thread_pattern,
            "{}: boards and threads differ",
            family.name()
        );
        patterns.push(region.pattern);
    }
    patterns.sort_unstable();
    patterns.dedup();
    assert!(
        patterns.len() <= 2,
        "{}: thread lists share a pattern: {patterns:?}",
        family.name()
    );
}

/// Whether a family's thread pages list posts: a mailing-list archive shows one message a
/// page, which repeats nothing (its pages are read by their mail header instead).
fn lists_posts(family: FamilyName) -> bool {
    family.build().profile().posts_per_page > 1
}

#[test]
fn post_lists_are_found_with_one_record_per_post() {
    for family in FamilyName::ALL.into_iter().filter(|&f| lists_posts(f)) {
        check_thread_pages(family);
    }
}

#[test]
fn thread_lists_are_found_and_differ_from_post_lists() {
    for family in FamilyName::ALL.into_iter().filter(|&f| lists_posts(f)) {
        check_board_pages(family);
    }
}
