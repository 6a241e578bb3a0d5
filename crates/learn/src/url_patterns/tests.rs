//! The rules, one small case at a time: each case is the URLs seen and the patterns expected.

use url::Url;

use super::{UrlPattern, UrlPatternError, UrlPatternId, UrlPatternSet};

fn url(path_and_query: &str) -> Url {
    match path_and_query.starts_with('/') {
        true => Url::parse(&format!("http://forum.test{path_and_query}")),
        false => Url::parse(path_and_query),
    }
    .expect("test URLs are valid")
}

fn learn(urls: &[&str]) -> UrlPatternSet {
    let urls: Vec<Url> = urls.iter().map(|text| url(text)).collect();
    UrlPatternSet::learn(&urls)
}

/// Learns from `urls` and checks the patterns (in any order), that every URL learned from
/// classifies to a pattern that matches it (other hosts to none), and that every text reads back
/// as its pattern.
fn check(urls: &[&str], expected: &[&str]) {
    let set = learn(urls);
    let texts: Vec<&str> = set.patterns().iter().map(UrlPattern::text).collect();
    let mut expected = expected.to_vec();
    expected.sort_unstable();
    assert_eq!(texts, expected, "learned from {urls:?}");
    for text in urls {
        let url = url(text);
        let id = set.classify(&url);
        if url.host_str() != set.site_host() {
            assert_eq!(id, None, "{text}");
            continue;
        }
        let pattern = id.and_then(|id| set.get(id));
        assert!(
            pattern.is_some_and(|pattern| pattern.matches(&url)),
            "{text} -> {id:?}"
        );
    }
    for pattern in set.patterns() {
        assert_eq!(
            UrlPattern::parse(pattern.id(), pattern.text()).as_ref(),
            Ok(pattern)
        );
    }
}

#[test]
fn digit_runs_become_numbers() {
    check(
        &["/thread-123-1-1.html", "/thread-7-2-1.html"],
        &["/thread-{n}-{n}-{n}.html"],
    );
    check(
        &["/index.php?board=1.20", "/index.php?board=2.0"],
        &["/index.php?board={n}.{n}"],
    );
    check(&["/calendar?month=2024-11"], &["/calendar?month={n}-{n}"]);
    // Digits inside percent escapes are characters, not numbers.
    check(&["/search?q=in%3Anew"], &["/search?q=in%3Anew"]);
}

#[test]
fn page_kind_words_stay_literal() {
    check(
        &[
            "/index.php",
            "/memberlist.php",
            "/viewtopic.php?t=1",
            "/viewforum.php?f=2",
        ],
        &[
            "/index.php",
            "/memberlist.php",
            "/viewforum.php?f={n}",
            "/viewtopic.php?t={n}",
        ],
    );
    // Sort orders come with every board id, so they are a vocabulary, not slugs.
    check(
        &[
            "/forumdisplay.php?f=1&sort=title&order=asc",
            "/forumdisplay.php?f=2&sort=title&order=asc",
            "/forumdisplay.php?f=1&sort=dateline&order=desc",
            "/forumdisplay.php?f=2&sort=dateline&order=desc",
            "/forumdisplay.php?f=3&sort=replycount&order=desc",
            "/forumdisplay.php?f=3&sort=title&order=asc",
        ],
        &[
            "/forumdisplay.php?f={n}&order=asc&sort=title",
            "/forumdisplay.php?f={n}&order=desc&sort=dateline",
            "/forumdisplay.php?f={n}&order=desc&sort=replycount",
        ],
    );
    // One board's sort orders all come with that board's id: still words.
    check(
        &[
            "/forum?f=1&sort=title",
            "/forum?f=1&sort=author",
            "/forum?f=1&sort=replies",
        ],
        &[
            "/forum?f={n}&sort=author",
            "/forum?f={n}&sort=replies",
            "/forum?f={n}&sort=title",
        ],
    );
    // Words seen once each and with no id are a vocabulary too.
    check(
        &[
            "/index.php?action=login",
            "/index.php?action=help",
            "/index.php?action=search",
            "/index.php?action=register",
        ],
        &[
            "/index.php?action=help",
            "/index.php?action=login",
            "/index.php?action=register",
            "/index.php?action=search",
        ],
    );
}

#[test]
fn smf_semicolons_separate_pairs() {
    check(
        &[
            "/index.php?action=profile;u=5",
            "/index.php?action=profile;u=7",
            "/index.php?action=calendar",
            "/index.php?topic=5.0;wap2",
            "/index.php?topic=6.15",
            "/index.php?topic=6.15;wap2=",
        ],
        &[
            "/index.php?action=calendar",
            "/index.php?action=profile&u={n}",
            "/index.php?topic={n}.{n}",
            "/index.php?topic={n}.{n}&wap2",
            "/index.php?topic={n}.{n}&wap2=",
        ],
    );
}

#[test]
fn slugs_beside_ids_become_wildcards() {
    // Discourse: the slug's segment, whatever follows it.
    check(
        &[
            "/t/how-to-fix-it/123",
            "/t/printer-is-broken-again/124",
            "/t/how-to-fix-it/123/4",
            "/t/another-one-here/200/2",
            "/t/some-slug-more/7?page=2",
        ],
        &["/t/{*}/{n}", "/t/{*}/{n}/{n}", "/t/{*}/{n}?page={n}"],
    );
    // XenForo: one-word slugs too, tied to their ids; board and thread slugs stay apart.
    check(
        &[
            "/threads/how-to-fix-it.12/",
            "/threads/my-printer-broke.13/page-2",
            "/threads/abc.14/",
            "/threads/def.15/print",
            "/forums/general.1/",
            "/forums/news.2/",
            "/forums/help.3/page-2",
        ],
        &[
            "/forums/{*}.{n}/",
            "/forums/{*}.{n}/page-{n}",
            "/threads/{*}.{n}/",
            "/threads/{*}.{n}/page-{n}",
            "/threads/{*}.{n}/print",
        ],
    );
    // An id before the title.
    check(
        &[
            "/topic/12-how-to-fix-it",
            "/topic/13-printer-broke-again",
            "/topic/14-hello",
        ],
        &["/topic/{n}-{*}"],
    );
    // Constant digits (an API version) are not the entity.
    check(
        &["/api/v2/t/alpha/1", "/api/v2/t/beta/2", "/api/v2/t/gamma/3"],
        &["/api/v{n}/t/{*}/{n}"],
    );
}

#[test]
fn two_samples_are_enough_when_the_shape_is_clear() {
    check(
        &["/threads/how-to-fix-it.1/", "/threads/printer-is-broken.2/"],
        &["/threads/{*}.{n}/"],
    );
    check(
        &["/forums/x.1/", "/threads/y.2/"],
        &["/forums/x.{n}/", "/threads/y.{n}/"],
    );
    check(
        &["/index.php", "/memberlist.php"],
        &["/index.php", "/memberlist.php"],
    );
}

#[test]
fn many_names_without_digits_become_wildcards() {
    let syllables = ["ka", "lo", "mi", "ne", "su", "ta"];
    let paths: Vec<String> = syllables
        .iter()
        .flat_map(|a| syllables.iter().map(move |b| format!("/u/{a}{b}x")))
        .collect();
    let mut urls: Vec<&str> = paths.iter().map(String::as_str).collect();
    urls.push("/u");
    check(&urls, &["/u", "/u/{*}"]);
    // A handful of such names stays literal: they could as well be page kinds.
    check(
        &urls[..4],
        &["/u/kakax", "/u/kalox", "/u/kamix", "/u/kanex"],
    );
}

#[test]
fn opaque_ids_become_wildcards() {
    // One session id in the whole sample must still match the next one.
    let session = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
    let first = format!("/viewtopic.php?t=1&sid={session}");
    let second = format!("/viewtopic.php?t=2&sid={session}");
    check(
        &[&first, &second, "/viewtopic.php?t=1"],
        &["/viewtopic.php?sid={*}&t={n}", "/viewtopic.php?t={n}"],
    );
    // Hex ids keep a page suffix apart from the first page.
    check(
        &[
            "/t/7253d73c.html",
            "/t/4309a377.html",
            "/t/c578a13f-2.html",
            "/t/c578a13f.html",
        ],
        &["/t/{*}-{n}.html", "/t/{*}.html"],
    );
    check(&["/p/22f23acb", "/p/d71e4b29"], &["/p/{*}"]);
}

/// Cursors drawn from all 62 letters and digits are opaque however few times they switch
/// between letters and digits (`GgdQDeNvt6` switches once, `CJJNdhstkb` never): before, each
/// such token made a pattern of its own (`after=GgdQDeNvt{n}`), and the board pages it named
/// matched no arc of the plan.
#[test]
fn cursor_tokens_in_both_cases_become_wildcards() {
    check(
        &[
            "/board.php?id=0",
            "/board.php?id=1",
            "/board.php?id=0&after=CJJNdhstkb",
            "/board.php?id=1&after=8qXJlz6OXD",
            "/board.php?id=1&after=GgdQDeNvt6",
            "/board.php?id=2&after=tZr2IMlnVn",
            "/board.php?id=3&after=ZIo7LUPgha",
            "/board.php?id=3&after=RJsddXdqcJ",
            "/board.php?id=4&after=6B7B5CoAAm",
        ],
        &["/board.php?after={*}&id={n}", "/board.php?id={n}"],
    );
    check(
        &[
            "/b/1/",
            "/b/2/",
            "/b/1/page/RJsddXdqcJ/",
            "/b/2/page/QpLmZxWvTk/",
            "/b/3/page/kWnbGtRzHq/",
        ],
        &["/b/{n}/", "/b/{n}/page/{*}/"],
    );
}

/// Page-kind words written in camel case are read as words, not tokens: acronyms
/// (`HTMLParser`, `PostID`), a lowercase start (`iPhone`), digits between words.
#[test]
fn camel_case_words_stay_literal() {
    check(
        &[
            "/index.php?action=ShowNewPosts",
            "/index.php?action=ForumDisplay",
            "/index.php?action=PrivateMessages",
            "/index.php?action=MarkAllRead",
        ],
        &[
            "/index.php?action=ForumDisplay",
            "/index.php?action=MarkAllRead",
            "/index.php?action=PrivateMessages",
            "/index.php?action=ShowNewPosts",
        ],
    );
    check(
        &[
            "/view?f=1&mode=HTMLParser",
            "/view?f=2&mode=HTMLParser",
            "/view?f=1&mode=iPhone15ProMax",
            "/view?f=2&mode=iPhone15ProMax",
            "/view?f=3&mode=SortByPostID",
        ],
        &[
            "/view?f={n}&mode=HTMLParser",
            "/view?f={n}&mode=SortByPostID",
            "/view?f={n}&mode=iPhone{n}ProMax",
        ],
    );
}

#[test]
fn hex_ids_without_letters_fold_into_the_common_form() {
    check(
        &[
            "/t/7253d73c.html",
            "/t/e56afc3b.html",
            "/t/f3c8a781.html",
            "/t/c02e696f.html",
            "/t/12345678.html",
            "/t/e56afc3b-2.html",
            "/t/12345678-2.html",
        ],
        &["/t/{*}-{n}.html", "/t/{*}.html"],
    );
    // Too rare a `{*}` form to be sure: the all-digit one keeps its own pattern.
    check(
        &["/t/12345678.html", "/t/e56afc3b.html"],
        &["/t/{*}.html", "/t/{n}.html"],
    );
}

#[test]
fn nested_urls_become_wildcards() {
    check(
        &[
            "/login?next=/new-topic%3Fcategory_id%3D1",
            "/login?next=/t/slug/5/reply",
            "/login",
        ],
        &["/login", "/login?next={*}"],
    );
}

/// One slash between a name or id and a number is an item with its page offset (old CGI
/// engines' `?board=hardware/20`, `?num=1763385455/15`), not a nested URL: it keeps its
/// number and stays apart from the item's first page.
#[test]
fn an_item_with_its_offset_is_no_nested_url() {
    check(
        &[
            "/YaBB.pl?num=1763385455/15",
            "/YaBB.pl?num=1763385499/30",
            "/YaBB.pl?num=1763385455",
            "/YaBB.pl?num=1763385499",
        ],
        &["/YaBB.pl?num={n}", "/YaBB.pl?num={n}/{n}"],
    );
    check(
        &[
            "/login?to=t/5/reply",
            "/login?back=https%3A%2F%2Fforum.test%2F",
            "/login",
        ],
        &["/login", "/login?back={*}", "/login?to={*}"],
    );
}

#[test]
fn shape_separates_patterns() {
    check(
        &[
            "/t/a/1",
            "/t/a/1/2",
            "/members/",
            "/members",
            "/",
            "/?page=2",
        ],
        &[
            "/",
            "/?page={n}",
            "/members",
            "/members/",
            "/t/a/{n}",
            "/t/a/{n}/{n}",
        ],
    );
}

#[test]
fn braces_in_urls_are_escaped() {
    check(&["/s?q={1}", "/s?q={2}"], &["/s?q={{{n}}}"]);
    // In paths the URL parser already escapes them.
    check(&["/a{b}/c"], &["/a%7Bb%7D/c"]);
}

#[test]
fn other_hosts_fragments_repeats_and_order_are_ignored() {
    let urls = [
        "/a?x=1#top",
        "/a?x=2",
        "/a?x=2",
        "http://elsewhere.test/b/1",
        "/c/d",
    ];
    check(&urls, &["/a?x={n}", "/c/d"]);
    let mut reversed = urls;
    reversed.reverse();
    assert_eq!(learn(&urls), learn(&reversed));
    let set = learn(&urls);
    assert_eq!(set.site_host(), Some("forum.test"));
    assert_eq!(set.classify(&url("http://elsewhere.test/c/d")), None);
    assert_eq!(set.classify(&url("/c/e")), None, "a literal never seen");
    assert_eq!(set.classify(&url("/c/d?x=1")), None, "a key set never seen");
    assert_eq!(UrlPatternSet::learn(&[]), UrlPatternSet::default());
}

#[test]
fn ids_follow_the_patterns_text_order() {
    let set = learn(&["/z", "/a", "/m?x=1"]);
    let listed: Vec<(u32, &str)> = set
        .patterns()
        .iter()
        .map(|pattern| (pattern.id().0, pattern.text()))
        .collect();
    assert_eq!(listed, [(0, "/a"), (1, "/m?x={n}"), (2, "/z")]);
    assert_eq!(
        set.get(UrlPatternId(1)).map(UrlPattern::text),
        Some("/m?x={n}")
    );
    assert_eq!(set.get(UrlPatternId(3)), None);
    assert_eq!(
        serde_json::to_string(&UrlPatternId(7)).ok().as_deref(),
        Some("7")
    );
}

#[test]
fn the_most_specific_pattern_wins() {
    let texts = ["/t/{*}.html", "/t/{*}-{n}.html", "/t/{n}.html", "/t/{*}"];
    let patterns = texts
        .iter()
        .enumerate()
        .map(|(id, text)| UrlPattern::parse(UrlPatternId(id as u32 * 10), text))
        .collect::<Result<Vec<_>, _>>()
        .expect("valid patterns");
    let set = UrlPatternSet::from_patterns(patterns);
    let cases = [
        ("/t/abc-2.html", Some(10)),
        ("/t/123.html", Some(20)),
        ("/t/abc.html", Some(0)),
        ("/t/abc", Some(30)),
        ("/t/abc.html?x=1", None),
        ("/t", None),
    ];
    for (text, expected) in cases {
        assert_eq!(set.classify(&url(text)).map(|id| id.0), expected, "{text}");
    }
    // A rebuilt set matches any host until it is told its own.
    assert_eq!(
        set.classify(&url("http://other.test/t/a")),
        Some(UrlPatternId(30))
    );
    let set = set.with_site_host("forum.test");
    assert_eq!(set.classify(&url("http://other.test/t/a")), None);
    assert_eq!(
        set.get(UrlPatternId(20)).map(UrlPattern::text),
        Some("/t/{n}.html")
    );
}

#[test]
fn texts_are_normalised_and_read_back() {
    let cases = [
        ("/a?b=1;a=2", "/a?a=2&b=1"),
        ("/a?", "/a"),
        ("/", "/"),
        ("//x/", "//x/"),
        ("/a{{b}}/{n}?k={*}&flag", "/a{{b}}/{n}?flag&k={*}"),
    ];
    for (text, normalised) in cases {
        let pattern = UrlPattern::parse(UrlPatternId(0), text).expect("valid pattern");
        assert_eq!(pattern.text(), normalised);
        assert_eq!(
            UrlPattern::parse(UrlPatternId(0), normalised).as_ref(),
            Ok(&pattern)
        );
    }
    let literal_braces = UrlPattern::parse(UrlPatternId(0), "/s?q={{x}}").expect("valid");
    assert!(literal_braces.matches(&url("/s?q={x}")));
}

#[test]
fn bad_texts_are_refused_with_reasons() {
    type Expected = fn(&UrlPatternError) -> bool;
    let cases: [(&str, Expected); 6] = [
        ("viewtopic.php", |error| {
            matches!(error, UrlPatternError::MissingLeadingSlash { .. })
        }),
        ("/a{n", |error| {
            matches!(error, UrlPatternError::UnclosedBrace { .. })
        }),
        ("/a}", |error| {
            matches!(error, UrlPatternError::StrayClosingBrace { .. })
        }),
        (
            "/a/{id}",
            |error| matches!(error, UrlPatternError::UnknownWildcard { name, .. } if name == "id"),
        ),
        ("/a?{n}=1", |error| {
            matches!(error, UrlPatternError::WildcardInKey { .. })
        }),
        ("/a?=1", |error| {
            matches!(error, UrlPatternError::EmptyKey { .. })
        }),
    ];
    for (text, expected) in cases {
        let error = UrlPattern::parse(UrlPatternId(0), text).expect_err(text);
        assert!(expected(&error), "{text}: {error:?}");
        assert!(error.to_string().contains(text), "{error}");
    }
}
