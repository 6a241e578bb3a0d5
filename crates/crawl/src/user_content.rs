//! Links that posts' authors wrote: user content, not the forum's navigation.
//!
//! A post's text may link anywhere: another thread (already reached through the lists), a
//! members-only thread (404 for a crawler), the same thread's page 3. Such a link is never the
//! reason to fetch a page: the forum's own lists reach every page it shows to a crawler, and
//! what they do not reach is mostly what the forum does not show (the simulator's families
//! never link from a post body; a JavaScript-first engine's posts linked members-only threads,
//! 3 % of its crawl's fetches answered 404). A link is the author's when it sits in a post's
//! record and its anchor text is part of the post's text, which the post reader keeps apart
//! from the author's name, the date and the permalink.

use trawl_learn::sitemap::reads_like_page_flipping;
use trawl_page::analysis::PageAnalysis;

/// For each link of the page, whether a post's author wrote it.
pub(crate) fn authored_links(analysis: &PageAnalysis) -> Vec<bool> {
    analysis
        .links
        .iter()
        .map(|link| {
            let Some((region, record)) = link.record else {
                return false;
            };
            let Some(node) = analysis
                .regions
                .get(region)
                .and_then(|region| region.records.get(record))
            else {
                return false;
            };
            let text = link.text.trim();
            // Short anchors ("2", "#1", "»") say nothing about where they sit.
            if text.chars().count() < 3 || reads_like_page_flipping(text) {
                return false;
            }
            analysis
                .posts
                .iter()
                .any(|post| post.node == *node && post.text.contains(text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `html` as a thread page and checks which link URLs its posts' authors wrote.
    fn check(html: &str, expected: &[&str]) {
        let url = url::Url::parse("http://forum.test/topic.php?id=5").unwrap();
        let context = trawl_page::time::DateContext::new(
            jiff::Timestamp::from_second(1_712_000_000).unwrap(),
            None,
        );
        let analysis = trawl_page::analysis::analyse(html.as_bytes(), None, &url, &context);
        assert!(analysis.posts.len() >= 3, "the page's posts are read");
        let authored: Vec<&str> = analysis
            .links
            .iter()
            .zip(authored_links(&analysis))
            .filter(|(_, authored)| *authored)
            .map(|(link, _)| link.url.as_str())
            .collect();
        assert_eq!(authored, expected);
    }

    fn post(id: u32, body: &str) -> String {
        format!(
            "<div class='post' id='p{id}'><div class='who'><a href='/member.php?id={id}'>member{id}</a></div>\
             <div class='when'><a href='#p{id}'>#{id}</a> 2024-03-0{id} 10:1{id}</div>\
             <div class='body'>{body}</div></div>"
        )
    }

    fn thread(posts: &[String]) -> String {
        format!(
            "<html><body><div class='nav'><a href='/'>Index</a> <a href='/board.php?id=2'>Board</a></div>\
             <div class='pager'><a href='/topic.php?id=5&page=2'>2</a> <a href='/topic.php?id=5&page=2'>Next</a></div>\
             {}</body></html>",
            posts.concat()
        )
    }

    #[test]
    fn links_in_post_texts_are_the_authors() {
        check(
            &thread(&[
                post(
                    1,
                    "I asked the same in <a href='/topic.php?id=9001'>the members' thread</a> yesterday, no answer.",
                ),
                post(
                    2,
                    "Nothing to link here, only words about the weather and the garden.",
                ),
                post(
                    3,
                    "See <a href='https://other.test/manual'>the manual</a> and <a href='/topic.php?id=7'>an older topic</a> for it.",
                ),
            ]),
            &[
                "http://forum.test/topic.php?id=9001",
                "https://other.test/manual",
                "http://forum.test/topic.php?id=7",
            ],
        );
    }

    #[test]
    fn names_permalinks_and_pagers_are_not() {
        check(
            &thread(&[
                post(
                    1,
                    "A first post of some length that says nothing in particular at all.",
                ),
                post(
                    2,
                    "A second post, as long, about member1 and what was said before.",
                ),
                post(
                    3,
                    "A third one with a page number 2 in it and Next as a word.",
                ),
            ]),
            &[],
        );
    }
}
