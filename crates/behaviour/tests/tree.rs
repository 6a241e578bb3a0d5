//! The pattern tree learned from hand-made logs of two forums spelled differently: which
//! patterns it ends with, where URLs never seen fall, and that noise in the log changes
//! nothing.

mod support;

use support::{
    FeedForum, ListArchive, QuestionForum, RewrittenForum, ScriptForum, SlugForum, Spelling,
    browse_log,
};
use trawl_behaviour::{PatternModel, TreeSettings, read_logs};

fn model_of(lines: &[String]) -> PatternModel {
    PatternModel::learn(
        &read_logs([lines.join("\n").as_str()]),
        TreeSettings::default(),
    )
}

fn standard_log(spelling: &dyn Spelling) -> Vec<String> {
    browse_log(spelling, 30, 40, 7)
}

/// The leaves' patterns, sorted.
fn check_leaves(spelling: &dyn Spelling, expected: &[&str]) {
    let model = model_of(&standard_log(spelling));
    let mut leaves: Vec<&str> = model
        .tree
        .leaves()
        .map(|node| node.pattern.as_str())
        .collect();
    leaves.sort_unstable();
    assert_eq!(leaves, expected, "tree:\n{}", model.tree.render());
}

#[test]
fn leaves_of_a_forum_of_scripts_and_queries() {
    check_leaves(
        &ScriptForum,
        &[
            "/index.php",
            "/memberlist.php?mode=viewprofile&u={n}",
            "/search.php?search_id=newposts",
            "/ucp.php?mode=login",
            "/viewforum.php?f={n}",
            "/viewforum.php?f={n}&start={n}",
            "/viewtopic.php?start=80&t={n}",
            "/viewtopic.php?start={n}&t={n}",
            "/viewtopic.php?t={n}",
        ],
    );
}

#[test]
fn leaves_of_a_forum_of_slugs() {
    check_leaves(
        &SlugForum,
        &[
            "/",
            "/forums/{*}",
            "/forums/{*}/page-{n}",
            "/login",
            "/members/{*}",
            "/threads/{*}",
            // The fifth page of six-page threads: few readers get that far and stay.
            "/threads/{*}/page-5",
            "/threads/{*}/page-{n}",
            "/whats-new",
        ],
    );
}

#[test]
fn leaves_of_a_forum_of_rewritten_one_segment_pages() {
    // Without runs as keys, the thread, board and profile pages were one pattern, `/{*}`. Runs
    // tell them apart: the number of runs first (threads have five), then within boards and
    // profiles (four runs each, and nothing else to tell them by) the third run, a board's
    // page or a member's number: page 1, the later pages seen, and the other numbers, with
    // the first run below the first two. So a profile whose member number is also a page
    // number sits beside the boards' pages of that number, and the others apart. The thread's
    // trailing `1` reads as `{n}`, the form the split took for numbers beyond those seen.
    check_leaves(
        &RewrittenForum,
        &[
            "/forum-{n}-1.html",
            "/forum-{n}-{n}.html",
            "/forum.php",
            "/member.php?action=login&mod=logging",
            "/search.php?mod=forum&srchtype=new",
            "/space-uid-1.html",
            "/space-uid-{n}.html",
            "/space-uid-{n}.html",
            "/thread-{n}-1-{n}.html",
            "/thread-{n}-5-{n}.html",
            "/thread-{n}-{n}-{n}.html",
        ],
    );
}

/// The pattern a URL no user visited falls in.
fn check_unseen(spelling: &dyn Spelling, url: &str, expected: Option<&str>) {
    let model = model_of(&standard_log(spelling));
    assert_eq!(
        model.pattern_of(url).map(|node| node.pattern.as_str()),
        expected,
        "url: {url}"
    );
}

#[test]
fn urls_never_seen_find_their_pattern() {
    check_unseen(
        &ScriptForum,
        "/viewtopic.php?t=98765",
        Some("/viewtopic.php?t={n}"),
    );
    check_unseen(
        &ScriptForum,
        "http://forum.test/viewtopic.php?t=98765&start=2000",
        Some("/viewtopic.php?start={n}&t={n}"),
    );
    check_unseen(
        &ScriptForum,
        "/memberlist.php?mode=viewprofile&u=4321",
        Some("/memberlist.php?mode=viewprofile&u={n}"),
    );
    check_unseen(
        &ScriptForum,
        "/viewforum.php?f=77",
        Some("/viewforum.php?f={n}"),
    );
    check_unseen(
        &SlugForum,
        "/threads/brand-new-topic.9999/",
        Some("/threads/{*}"),
    );
    check_unseen(
        &SlugForum,
        "/threads/brand-new-topic.9999/page-31",
        Some("/threads/{*}/page-{n}"),
    );
    check_unseen(&SlugForum, "/members/newcomer.5000/", Some("/members/{*}"));
    check_unseen(&SlugForum, "/forums/new-board.12/", Some("/forums/{*}"));
    check_unseen(
        &RewrittenForum,
        "/thread-98765-1-1.html",
        Some("/thread-{n}-1-{n}.html"),
    );
    check_unseen(
        &RewrittenForum,
        "http://forum.test/space-uid-4321.html",
        Some("/space-uid-{n}.html"),
    );
}

#[test]
fn a_word_among_ids_is_a_kind_of_page_however_few_its_urls() {
    // Regression (the simulator's qa family): the tag lists, a few per cent of the URLs, were
    // pooled with the question ids as rare values, so a tag list ranked as a question.
    let model = model_of(&standard_log(&QuestionForum));
    let tag = model
        .pattern_of("/questions/tagged/brandnew")
        .map(|node| node.pattern.clone());
    let question = model
        .pattern_of("/questions/98765/brand-new-question")
        .map(|node| node.pattern.clone());
    assert!(
        tag.as_deref()
            .is_some_and(|pattern| pattern.contains("tagged")),
        "a new tag's list: {tag:?}\n{}",
        model.tree.render()
    );
    assert!(
        question.is_some() && question != tag,
        "a new question: {question:?}, a new tag: {tag:?}\n{}",
        model.tree.render()
    );
}

#[test]
fn urls_of_kinds_no_user_visited_have_no_pattern() {
    // No user opened the FAQ: its script name matches no child of the root.
    check_unseen(&ScriptForum, "/faq.php", None);
    // A board list sorted otherwise: a key no URL of the board pattern has.
    check_unseen(&ScriptForum, "/viewforum.php?f=2&sk=t&sd=a", None);
    check_unseen(&SlugForum, "/threads/some-topic.12/?order=votes", None);
    // A rewritten page of a kind no user opened: its first run names no pattern.
    check_unseen(&RewrittenForum, "/blog-12-1.html", None);
    let model = model_of(&standard_log(&ScriptForum));
    assert_eq!(model.tree.classify("/faq.php"), 0);
    assert_eq!(
        model.priority("/faq.php", trawl_behaviour::Goal::Fetch),
        0.0
    );
}

#[test]
fn values_of_a_form_no_user_visited_have_no_pattern() {
    // Regression (the simulator's nodebb family, 2026-11-28): the thread pattern `/topic/{n}/{*}`
    // took `/topic/2317.rss`, each thread's feed, a key short and the id with a suffix; ranked
    // as a thread, feeds were four fifths of an ordered crawl's fetches.
    check_unseen(&FeedForum, "/topic/41.rss", None);
    check_unseen(&FeedForum, "/category/2.rss", None);
    check_unseen(
        &FeedForum,
        "/topic/98765/brand-new?page=2",
        Some("/topic/{n}/{*}?page={n}"),
    );
    check_unseen(&FeedForum, "/topic/98765/brand-new", Some("/topic/{n}/{*}"));
    // Regression (the simulator's mailarchive family): a list's index pattern took the same
    // index by date, author and subject, which no user opened, and ranked them as the index
    // users read, far above the messages.
    check_unseen(&ListArchive, "/archives/list2/date3.html", None);
    check_unseen(&ListArchive, "/archives/list2/author.html", None);
    check_unseen(&ListArchive, "/archives/list2/threads3.rss", None);
    check_unseen(
        &ListArchive,
        "/archives/list2/threads9.html",
        Some("/archives/{*}/threads{n}.html"),
    );
    check_unseen(
        &ListArchive,
        "/archives/list3/msg99999.html",
        Some("/archives/{*}/{garden|kettle|lantern|…4 more}{n}.html"),
    );
    // Thread ids and slugs stay open: new threads, new members still find their patterns.
    check_unseen(&SlugForum, "/members/newcomer.5000/", Some("/members/{*}"));
    check_unseen(
        &ScriptForum,
        "/viewtopic.php?t=98765",
        Some("/viewtopic.php?t={n}"),
    );
}

/// The same log with a malformed line after every ninth (a tenth of the lines), of every kind
/// a damaged log shows.
fn with_malformed_lines(lines: &[String]) -> (Vec<String>, usize) {
    let damaged = [
        "10.0.0.9 - - [02/Mar/2026:10:11:12 +0100] \"GET /viewtopic.php?t=1 HTTP/1.1\" 200 5",
        "{\"target\": \"/viewtopic.php?t=3\"",
        "/viewtopic.php?t=2\t-",
        "\u{0}\u{0}\u{0}garbage",
        "viewtopic.php?t=5\t-\tuser001",
    ];
    let mut out = Vec::new();
    let mut inserted = 0;
    for (index, line) in lines.iter().enumerate() {
        out.push(line.clone());
        if index % 9 == 8 {
            out.push(damaged[inserted % damaged.len()].to_string());
            inserted += 1;
        }
    }
    (out, inserted)
}

#[test]
fn a_tenth_of_malformed_lines_builds_the_same_tree() {
    for spelling in [&ScriptForum as &dyn Spelling, &SlugForum, &RewrittenForum] {
        let clean = standard_log(spelling);
        let (damaged, inserted) = with_malformed_lines(&clean);
        assert!(inserted * 10 + 10 > damaged.len(), "a tenth of the lines");
        let clean_model = model_of(&clean);
        let damaged_model = model_of(&damaged);
        assert_eq!(damaged_model.report.malformed, inserted);
        assert_eq!(clean_model.tree, damaged_model.tree);
        assert_eq!(clean_model.graph, damaged_model.graph);
    }
}

#[test]
fn every_url_of_the_log_is_in_exactly_one_leaf() {
    for spelling in [&ScriptForum as &dyn Spelling, &SlugForum, &RewrittenForum] {
        let model = model_of(&standard_log(spelling));
        let root_urls = model.tree.nodes[0].figures.urls;
        let leaf_urls: u32 = model.tree.leaves().map(|node| node.figures.urls).sum();
        assert_eq!(root_urls, leaf_urls);
    }
}
