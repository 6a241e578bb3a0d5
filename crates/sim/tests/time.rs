//! A page requested at time t shows the forum as of t.

mod common;

use common::{decode_body, small_site, visible_text};
use trawl_sim::{Address, FamilyName, PageClass, Route};

#[test]
fn threads_and_posts_appear_only_once_created() {
    for family in FamilyName::ALL {
        let site = small_site(family);
        let history = site.history();
        // A thread in the middle of the history with at least two posts.
        let thread = (history.thread_count() / 2..history.thread_count())
            .find(|&t| history.thread_posts(t).len() >= 2)
            .expect("some thread has replies");
        let posts = history.thread_posts(thread);
        let first = history.post(posts[0]).unwrap().created;
        let second = history.post(posts[1]).unwrap().created;
        let page = site.url_of(&Address::canonical(Route::Thread { thread, page: 1 }));
        let before = site.classify(&page, first - 1);
        assert_eq!(
            before.class,
            PageClass::Invalid,
            "{}: {page} before it exists",
            family.name()
        );
        assert_eq!(
            site.classify(&page, first).class,
            PageClass::Valuable,
            "{}",
            family.name()
        );
        if second > first {
            // The reply's page: the first one, unless the family shows one message a page.
            let per_page = site.family().profile().posts_per_page;
            let reply_page = site.url_of(&Address::canonical(Route::Thread {
                thread,
                page: 1 / per_page + 1,
            }));
            let early = site.serve(&reply_page, first, None);
            let late = site.serve(&reply_page, second, None);
            let reply_text = history_text(&site, posts[1]);
            let early_text = visible_text(&decode_body(&site, &early.body));
            let late_text = visible_text(&decode_body(&site, &late.body));
            assert!(
                !early_text.contains(&reply_text),
                "{}: reply shown too early",
                family.name()
            );
            assert!(
                late_text.contains(&reply_text),
                "{}: reply missing",
                family.name()
            );
        }
    }
}

fn history_text(site: &trawl_sim::Site, post: u32) -> String {
    let mut text = None;
    site.for_each_post_truth(site.history().end, |truth| {
        if truth.post == post {
            text = Some(truth.text.split('\n').next().unwrap_or("").to_string());
        }
    });
    text.expect("post exists")
}

#[test]
fn board_pages_are_numbered_in_order() {
    let site = small_site(FamilyName::Phpbb);
    let at = site.history().end;
    let mut threads = Vec::new();
    site.for_each_address(at, |address| {
        if let Route::Board { board: 1, .. } = address.route
            && address.variant.is_canonical()
        {
            threads.push(address);
        }
    });
    assert!(!threads.is_empty());
    let positions: Vec<Option<u32>> = threads
        .iter()
        .map(|address| site.truth_of(address, at).position)
        .collect();
    let expected: Vec<Option<u32>> = (1..=threads.len() as u32).map(Some).collect();
    assert_eq!(positions, expected);
}
