//! Which anchor texts read like a pager: page numbers, arrows and pager words, and not post
//! numbers or "next topic" links.

use trawl_learn::sitemap::reads_like_page_flipping;

fn check(text: &str, expected: bool) {
    assert_eq!(reads_like_page_flipping(text), expected, "{text:?}");
}

#[test]
fn page_numbers_arrows_and_pager_words_read_like_a_pager() {
    for text in ["2", " 17 ", "Next ›", "« Previous", "»", "下一页", "weiter"] {
        check(text, true);
    }
}

/// The one link an infinite scroll leaves for clients without scripts asks for more of the
/// list; the verb alone names no page.
#[test]
fn load_more_links_read_like_a_pager_and_their_verbs_alone_do_not() {
    for (text, expected) in [
        ("Load more", true),
        ("Show more", true),
        ("Show older", true),
        ("See more ›", true),
        ("Show", false),
        ("Load", false),
        ("View profile", false),
        ("Load more topics", false),
    ] {
        check(text, expected);
    }
}

/// Post numbers (`#1`, `#29`) name posts: their permalinks were taken for a pager on a forum
/// whose posts link themselves so, and the crawl fetched a permalink per post (the simulator's
/// slugtree seed 2 with 100 samples: 867 duplicate fetches).
#[test]
fn post_numbers_and_topic_links_do_not() {
    for text in ["#1", "#29", " #4", "Next topic »", "Reply", ""] {
        check(text, false);
    }
}
