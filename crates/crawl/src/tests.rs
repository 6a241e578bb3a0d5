use super::*;

fn url(text: &str) -> Url {
    Url::parse(text).unwrap()
}

/// Queues `queued` behind the portal with `seen` marked seen and `rules` in force, and
/// checks which URLs the frontier hands out.
fn check_frontier(rules: &[ScopedRewrite], seen: &[&str], queued: &[&str], expected: &[&str]) {
    let mut crawler = Crawler::new(url("http://f.test/"), CrawlStrategy::BreadthFirst);
    crawler.online_rewrites.rules = rules.to_vec();
    for url_text in seen {
        crawler.seen.insert(url_key(url(url_text).as_str()));
    }
    for url_text in queued {
        crawler.frontier.push_back(WaitingUrl::of(&Queued {
            url: url(url_text),
            depth: 1,
            redirects: 0,
        }));
    }
    let mut handed_out = Vec::new();
    while let Some(next) = crawler.next_request() {
        handed_out.push(next.url.to_string());
    }
    let mut wanted = vec!["http://f.test/".to_string()];
    wanted.extend(expected.iter().map(|text| text.to_string()));
    assert_eq!(handed_out, wanted);
    assert_eq!(
        crawler.skipped_spellings(),
        queued.len() - expected.len(),
        "skips counted"
    );
}

/// Fetches `first` and `second` from the simulator's phpBB seed 2 at medium scale and
/// checks whether their record signatures agree.
fn check_same_records(first: &str, second: &str, same: bool) {
    use std::sync::Arc;
    use trawl_model::Fetcher;
    let site = Arc::new(trawl_sim::Site::build(trawl_sim::SiteConfig::new(
        trawl_sim::FamilyName::Phpbb,
        2,
        trawl_sim::Scale::Medium,
    )));
    let at = jiff::Timestamp::from_second(site.history().end).unwrap();
    let fetcher = trawl_sim::SimFetcher::new(Arc::clone(&site), "http://f.test");
    let signature_of = |path: &str| {
        let queued = Queued {
            url: url(&format!("http://f.test{path}")),
            depth: 1,
            redirects: 0,
        };
        let response = fetcher
            .fetch(&trawl_model::FetchRequest::new(queued.url.as_str(), at))
            .unwrap();
        let signature = record_signature(&AnalysedPage::of(&queued, &response, None).analysis);
        assert!(signature.is_some(), "{path} lists records");
        signature
    };
    assert_eq!(
        signature_of(first) == signature_of(second),
        same,
        "{first} and {second}"
    );
}

#[test]
fn signatures_ignore_records_read_outside_the_main_region() {
    // The `&start=0` spelling of this thread is served with another "last visit" date in
    // its header, which page analysis reads as one more post; the thread's posts are the
    // same.
    check_same_records(
        "/viewtopic.php?t=3989",
        "/viewtopic.php?t=3989&start=0",
        true,
    );
    check_same_records(
        "/viewtopic.php?t=3998",
        "/viewtopic.php?t=3998&start=0",
        true,
    );
    // Other pages of the thread, and other threads, list other posts.
    check_same_records(
        "/viewtopic.php?t=3989",
        "/viewtopic.php?t=3989&start=15",
        false,
    );
    check_same_records("/viewtopic.php?t=3989", "/viewtopic.php?t=3998", false);
    // Boards are compared by their thread entries.
    check_same_records("/viewforum.php?f=1", "/viewforum.php?f=1&start=0", true);
    check_same_records("/viewforum.php?f=1", "/viewforum.php?f=1&start=25", false);
}

fn page_one_rule(scope: &str) -> ScopedRewrite {
    ScopedRewrite {
        scope: scope.into(),
        rule: OnlineRule::Part(trawl_learn::rewrites::UrlRewrite::DropQueryPair {
            key: "page".into(),
            value: "1".into(),
        }),
    }
}

#[test]
fn spellings_queued_before_their_rule_are_not_fetched() {
    let threads = [page_one_rule("t")];
    // The long spelling of a thread already queued is dropped ...
    check_frontier(
        &threads,
        &["http://f.test/t/a/5"],
        &["http://f.test/t/a/5?page=1", "http://f.test/t/a/5?page=2"],
        &["http://f.test/t/a/5?page=2"],
    );
    // ... but not when its short spelling was never queued (nothing else fetches it) ...
    check_frontier(
        &threads,
        &[],
        &["http://f.test/t/a/5?page=1"],
        &["http://f.test/t/a/5?page=1"],
    );
    // ... nor outside the rule's scope, nor without rules.
    check_frontier(
        &threads,
        &["http://f.test/c/b/5"],
        &["http://f.test/c/b/5?page=1"],
        &["http://f.test/c/b/5?page=1"],
    );
    check_frontier(
        &[],
        &["http://f.test/t/a/5"],
        &["http://f.test/t/a/5?page=1"],
        &["http://f.test/t/a/5?page=1"],
    );
}

#[track_caller]
fn check_dropped_number(written: &str, rewritten: &str, expected: bool) {
    assert_eq!(
        dropped_a_number(&url(written), &url(rewritten)),
        expected,
        "{written} -> {rewritten}"
    );
}

#[test]
fn a_rewrite_dropping_a_number_names_a_first_page() {
    let cases = [
        (
            "http://f.test/q/5/?sort=oldest&page=1",
            "http://f.test/q/5/?sort=oldest",
            true,
        ),
        ("http://f.test/t?id=5&start=0", "http://f.test/t?id=5", true),
        // A view option dropped, or a spelling turned into another, names no first page.
        (
            "http://f.test/q/5/?sort=votes&page=2",
            "http://f.test/q/5/?page=2",
            false,
        ),
        (
            "http://f.test/YaBB.pl?num=5/15",
            "http://f.test/YaBB.pl?num=5;r=15",
            false,
        ),
        ("http://f.test/t?id=5", "http://f.test/t?id=5", false),
    ];
    for (written, rewritten, expected) in cases {
        check_dropped_number(written, rewritten, expected);
    }
}

/// Spellings learned while crawling pool the pairs of threads named by slugs: two questions'
/// first pages spelled with their pager's number teach the rule for every question.
#[test]
fn first_pages_of_threads_named_by_slugs_share_one_spelling_rule() {
    let mut online = OnlineRewrites::default();
    let pages = [
        ("http://f.test/questions/1/router-drops/", 1),
        (
            "http://f.test/questions/1/router-drops/?sort=oldest&page=2",
            11,
        ),
        (
            "http://f.test/questions/1/router-drops/?sort=oldest&page=1",
            1,
        ),
        ("http://f.test/questions/2/mesh-or-not/", 2),
        (
            "http://f.test/questions/2/mesh-or-not/?sort=oldest&page=1",
            2,
        ),
    ];
    for (page, records) in pages {
        online.observe(&url(page), Some(records));
    }
    let cases = [
        (
            "http://f.test/questions/9/fan-noise-again/?sort=oldest&page=1",
            "http://f.test/questions/9/fan-noise-again/",
        ),
        // A later page keeps its spelling, and so does a page under another kind of name.
        (
            "http://f.test/questions/9/fan-noise-again/?sort=oldest&page=2",
            "http://f.test/questions/9/fan-noise-again/?sort=oldest&page=2",
        ),
        (
            "http://f.test/users/9/fan-noise-again/?sort=oldest&page=1",
            "http://f.test/users/9/fan-noise-again/?sort=oldest&page=1",
        ),
    ];
    for (before, after) in cases {
        assert_eq!(online.canonical(&url(before)).as_str(), after, "{before}");
    }
}

/// A thread page of a small engine that dates only its opening post, shown apart above the
/// replies ("Replied by <small>name</small>", no time), with suggested topics below.
fn opener_and_replies_page(thread: usize, replies: &[(&str, &str)]) -> String {
    let replies: String = replies
        .iter()
        .map(|(name, message)| {
            format!(
                "<div class=\"reply\"><div class=\"meta\"><span class=\"who\">Replied by<small>{name}</small></span></div>\
                 <p class=\"message\">{message}</p></div>"
            )
        })
        .collect();
    let suggestions: String = (1..=5)
        .map(|step| {
            format!(
                "<div class=\"topic\"><a href=\"/topic/view/another-topic-number-{}/\">Another topic number {}</a>\
                 <span class=\"updated\">Updated on Jan. {}, 2025, 3:0{} p.m.</span><span class=\"replies\">{}</span></div>",
                thread + step,
                thread + step,
                step + 2,
                step,
                step * 2
            )
        })
        .collect();
    format!(
        "<html><head><title>Topic {thread}</title></head><body><div class=\"menu\"><a href=\"/\">Forum</a></div>\
         <div class=\"thread\"><div class=\"opener\"><h3>Topic {thread}</h3><p>The opening post of topic {thread} asks a \
         question that takes a few sentences to put, with some detail about what was tried.</p>\
         <span class=\"who\">Created by<small>starter{thread}, Jan. 2, 2025, 9:05 p.m.</small></span></div>{replies}</div>\
         <h4>Suggested topics</h4><div class=\"topics\">{suggestions}</div></body></html>"
    )
}

/// The crawled page of `html` at `address`, as the crawler builds it before reading posts by
/// vertex, with the page's single-record candidates.
fn crawled_page(address: &str, html: &str) -> (CrawledPage, Vec<SingleRecord>) {
    let queued = Queued {
        url: url(address),
        depth: 1,
        redirects: 0,
    };
    let response = FetchResponse {
        url: address.to_string(),
        status: 200,
        headers: vec![("content-type".into(), "text/html; charset=utf-8".into())],
        body: html.as_bytes().to_vec(),
        fetched_at: "2025-02-01T12:00:00Z".parse().unwrap(),
    };
    let analysed = AnalysedPage::of(&queued, &response, None);
    let page = CrawledPage {
        url: queued.url.clone(),
        status: 200,
        fetched_at: response.fetched_at,
        vertex: None,
        role: None,
        placement: Placement::Classified,
        signature: None,
        post_pattern: None,
        list_links: Vec::new(),
        queued: Vec::new(),
        requeued: false,
        authored_links: 0,
        analysis: analysed.analysis,
    };
    (page, analysed.single_records)
}

/// Reads a thread page whose opening post, shown apart, is followed by two replies of
/// sentences, so that vertex 0 learns the pattern its replies repeat in.
fn learn_post_pattern_from_a_thread_of_two_replies(post_patterns: &mut HashMap<usize, Vec<u64>>) {
    let (mut learned, singles) = crawled_page(
        "http://forum.test/topic/view/topic-number-one/",
        &opener_and_replies_page(
            1,
            &[
                (
                    "alice",
                    "A first reply with enough words in it to be a message of its own, not a label.",
                ),
                (
                    "bob",
                    "A second reply, which says something else entirely and at some length as well.",
                ),
            ],
        ),
    );
    read_posts_by_vertex(post_patterns, &mut learned, 0, singles);
    assert_eq!(
        learned.analysis.posts.len(),
        3,
        "opening post and two replies"
    );
}

#[test]
fn a_lone_reply_beside_an_opening_post_read_apart_is_read_by_its_known_pattern() {
    // Regression (django-simple-forum): a thread of one reply gave its opening post, read on
    // its own, and the crawler read no lone record beside it, so the reply was lost.
    let mut post_patterns = HashMap::new();
    learn_post_pattern_from_a_thread_of_two_replies(&mut post_patterns);
    let (mut lone, singles) = crawled_page(
        "http://forum.test/topic/view/topic-number-two/",
        &opener_and_replies_page(
            2,
            &[(
                "carol",
                "The only reply to this topic, long enough to read as a message of its own.",
            )],
        ),
    );
    assert_eq!(
        lone.analysis.posts.len(),
        1,
        "read alone, the page gives its opening post"
    );
    read_posts_by_vertex(&mut post_patterns, &mut lone, 0, singles);
    let authors: Vec<Option<&str>> = lone
        .analysis
        .posts
        .iter()
        .map(|post| post.author.as_deref())
        .collect();
    assert_eq!(authors, vec![Some("starter2"), Some("carol")]);
}

#[test]
fn a_portal_asked_for_again_for_its_session_keeps_no_records_of_its_first_fetch() {
    // Regression (django-machina): a site that sets a session cookie on the first visit, and
    // writes it into no link, has its portal fetched again; the first fetch, read before it was
    // placed in the plan, had its board index's rows stored as posts beside the second's.
    let portal = "http://forum.test/";
    let html = opener_and_replies_page(
        3,
        &[
            (
                "alice",
                "A reply with enough words in it to be read as a message of its own.",
            ),
            (
                "bob",
                "Another reply with enough words in it to be read as a message too.",
            ),
        ],
    );
    let mut crawler = Crawler::new(url(portal), CrawlStrategy::BreadthFirst);
    let queued = crawler.next_request().unwrap();
    let response = FetchResponse {
        url: portal.to_string(),
        status: 200,
        headers: vec![
            ("content-type".into(), "text/html; charset=utf-8".into()),
            (
                "set-cookie".into(),
                "sessionid=5f2a9c81d3e64b7a; Path=/".into(),
            ),
        ],
        body: html.into_bytes(),
        fetched_at: "2025-02-01T12:00:00Z".parse().unwrap(),
    };
    let first = crawler.record(&queued, &response);
    assert!(first.requeued, "the portal is asked for again");
    assert_eq!(
        (
            first.analysis.posts.len(),
            first.analysis.thread_entries.len(),
            first.signature
        ),
        (0, 0, None)
    );
    let again = crawler.next_request().unwrap();
    assert_eq!(again.url.as_str(), portal);
    let second = crawler.record(&again, &response);
    assert!(!second.requeued);
    assert!(
        !second.analysis.posts.is_empty(),
        "the second fetch is read"
    );
}

/// Crawls a hand-made site breadth-first from its portal under `priority` and gives the paths
/// of its first `fetches` fetches. The portal links an endless search result list
/// (`/search/1`, each page linking the next) and four messages (`/m/1` … `/m/4`).
fn ordered_crawl(priority: FrontierPriority, fetches: usize) -> Vec<String> {
    let mut crawler = Crawler::new(url("http://f.test/"), CrawlStrategy::BreadthFirst)
        .with_priority(Some(priority));
    let mut order = Vec::new();
    while let Some(queued) = crawler.next_request() {
        let path = queued.url.path().to_string();
        let links: Vec<String> = match path.as_str() {
            "/" => ["/search/1", "/m/1", "/m/2", "/m/3", "/m/4"]
                .map(String::from)
                .to_vec(),
            search if search.starts_with("/search/") => {
                let page: u32 = search["/search/".len()..].parse().unwrap();
                vec![format!("/search/{}", page + 1)]
            }
            _ => Vec::new(),
        };
        let anchors: String = links
            .iter()
            .map(|link| format!("<li><a href=\"{link}\">{link}</a></li>"))
            .collect();
        let response = FetchResponse {
            url: queued.url.to_string(),
            status: 200,
            headers: vec![("content-type".into(), "text/html; charset=utf-8".into())],
            body: format!("<html><body><ul>{anchors}</ul></body></html>").into_bytes(),
            fetched_at: "2025-02-01T12:00:00Z".parse().unwrap(),
        };
        crawler.record(&queued, &response);
        order.push(path);
        if order.len() == fetches {
            break;
        }
    }
    order
}

/// Kind: the first path segment; score: 8 for search pages, 2 for messages, 9 for the portal.
fn by_section(address: &str) -> (Option<usize>, f64) {
    let path = Url::parse(address)
        .map(|url| url.path().to_string())
        .unwrap();
    match path.split('/').nth(1) {
        Some("search") => (Some(1), 8.0),
        Some("m") => (Some(2), 2.0),
        _ => (None, 9.0),
    }
}

#[test]
fn an_ordered_crawl_does_not_follow_a_highly_scored_endless_list_for_ever() {
    // Regression (the simulator's mailarchive and nodebb families, 2026-11-28): the search
    // results users paged through scored above the messages, and the crawl ordered by score
    // walked down them page after page. Discounted along its chain, the list falls behind.
    assert_eq!(
        ordered_crawl(FrontierPriority::new(by_section).with_chain_factor(0.5), 8),
        [
            "/",
            "/search/1",
            "/search/2",
            "/m/1",
            "/m/2",
            "/m/3",
            "/m/4",
            "/search/3"
        ]
    );
    assert_eq!(
        ordered_crawl(FrontierPriority::new(by_section), 6),
        [
            "/",
            "/search/1",
            "/search/2",
            "/search/3",
            "/search/4",
            "/search/5"
        ]
    );
}

#[test]
fn short_replies_made_like_the_replies_of_other_pages_are_read_as_posts() {
    // Regression (django-simple-forum): undated replies are read as posts by page analysis
    // only when their messages are sentences (80 characters on average); a thread whose two
    // replies were 20 and 42 characters long gave its opening post, then the longer reply
    // alone as a lone record of the known pattern, and the shorter was lost.
    let mut post_patterns = HashMap::new();
    learn_post_pattern_from_a_thread_of_two_replies(&mut post_patterns);
    let (mut short, singles) = crawled_page(
        "http://forum.test/topic/view/topic-number-two/",
        &opener_and_replies_page(
            2,
            &[
                ("carol", "Worked for me too."),
                ("dave", "Same here, thanks for asking this one."),
            ],
        ),
    );
    assert_eq!(
        short.analysis.posts.len(),
        1,
        "read alone: the opening post"
    );
    read_posts_by_vertex(&mut post_patterns, &mut short, 0, singles);
    let read: Vec<(Option<&str>, &str)> = short
        .analysis
        .posts
        .iter()
        .map(|post| (post.author.as_deref(), post.text.trim()))
        .collect();
    assert_eq!(
        read[1..],
        [
            (Some("carol"), "Worked for me too."),
            (Some("dave"), "Same here, thanks for asking this one.")
        ]
    );
    assert_eq!(read[0].0, Some("starter2"));
}
