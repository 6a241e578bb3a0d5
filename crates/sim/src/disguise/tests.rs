//! Hand-made cases of the renaming, then the disguise of every family's real vocabulary.

use super::*;
use crate::families::FamilyName;
use crate::history::Scale;
use crate::site::SiteConfig;

/// A disguise swapping exactly the given word and token pairs.
fn swapping(pairs: &[(&str, &str)]) -> Disguise {
    let mut swaps = HashMap::new();
    for (word, token) in pairs {
        swaps.insert(word.to_string(), token.to_string());
        swaps.insert(token.to_string(), word.to_string());
    }
    Disguise {
        seed: 3,
        swaps,
        vocabulary: pairs.iter().map(|(word, _)| word.to_string()).collect(),
        markup: Mutex::new(MarkupTable::default()),
    }
}

fn check_url(disguise: &Disguise, url: &str, expected: &str) {
    assert_eq!(disguise.url(url), expected, "disguising {url}");
    // The fragment is renamed one way only; the rest comes back whole.
    let without_fragment = |text: &str| text.split('#').next().unwrap_or("").to_string();
    assert_eq!(
        without_fragment(&disguise.url(expected)),
        without_fragment(url),
        "undisguising {expected}"
    );
}

#[test]
fn url_words_are_swapped_and_ids_numbers_and_extensions_kept() {
    let disguise = swapping(&[
        ("viewtopic", "ravoku"),
        ("t", "ze"),
        ("start", "mibol"),
        ("threads", "kelumo"),
        ("page", "tosa"),
        ("php", "zopo"),
    ]);
    check_url(
        &disguise,
        "/viewtopic.php?t=5&start=15",
        "/ravoku.php?ze=5&mibol=15",
    );
    check_url(
        &disguise,
        "/threads/some-slug.123/page-2",
        "/kelumo/some-slug.123/tosa-2",
    );
    // A word holding a digit is an id (hexadecimal, session, percent-encoded), never a word.
    check_url(&disguise, "/t/3fa9b?t=x7", "/ze/3fa9b?ze=x7");
    // The extension stays even when its word is in the vocabulary elsewhere.
    check_url(&disguise, "/php/index.php", "/zopo/index.php");
    check_url(
        &disguise,
        "/index.php/page,1.0.html",
        "/index.php/tosa,1.0.html",
    );
    // Words outside the vocabulary stay; a made-up request in the family's own words is
    // foreign to the disguised site, as to another engine.
    check_url(&disguise, "/about?ze=1", "/about?t=1");
    check_url(&disguise, "/ravoku.php", "/viewtopic.php");
}

#[test]
fn fragments_get_the_names_of_the_ids_they_point_to() {
    let disguise = swapping(&[("viewtopic", "ravoku")]);
    let page = disguise.page("<div id=\"p17\"><a href=\"/viewtopic.php?p=17#p17\">x</a></div>");
    let id = disguise.markup_names("p17");
    assert!(id.ends_with("17") && !id.starts_with("p17"), "{id}");
    assert_eq!(
        page,
        format!("<div id=\"{id}\"><a href=\"/ravoku.php?p=17#{id}\">x</a></div>")
    );
}

fn check_page(disguise: &Disguise, page: &str, expected: &str) {
    assert_eq!(disguise.page(page), expected, "disguising {page}");
}

#[test]
fn pages_rename_links_and_markup_names_and_leave_the_rest() {
    let disguise = swapping(&[("viewtopic", "ravoku"), ("t", "ze")]);
    let post = disguise.markup_token("post");
    let body = disguise.markup_token("body");
    let first = disguise.markup_token("first");
    check_page(
        &disguise,
        "<p class=\"post-body first\">t viewtopic</p>",
        &format!("<p class=\"{post}-{body} {first}\">t viewtopic</p>"),
    );
    check_page(
        &disguise,
        "<a href=\"/viewtopic.php?t=1&amp;t=2\" title=\"viewtopic\">viewtopic</a>",
        "<a href=\"/ravoku.php?ze=1&amp;ze=2\" title=\"viewtopic\">viewtopic</a>",
    );
    check_page(
        &disguise,
        "<a href=\"https://example.org/viewtopic.php?t=1\">out</a>",
        "<a href=\"https://example.org/viewtopic.php?t=1\">out</a>",
    );
    check_page(
        &disguise,
        "<link rel=\"next\" href=\"viewtopic.php?t=2\"><form action=\"/viewtopic.php\">",
        "<link rel=\"next\" href=\"ravoku.php?ze=2\"><form action=\"/ravoku.php\">",
    );
    check_page(
        &disguise,
        "<!-- <a href=\"/viewtopic.php\"> --><input name=\"t\">",
        "<!-- <a href=\"/viewtopic.php\"> --><input name=\"t\">",
    );
    let anchor = disguise.markup_token("post");
    check_page(
        &disguise,
        "<a name=\"post5\"></a>",
        &format!("<a name=\"{anchor}5\"></a>"),
    );
}

#[test]
fn robots_rules_name_disguised_paths() {
    let disguise = swapping(&[("user", "kamo"), ("compose", "tuvelin")]);
    assert_eq!(
        disguise.robots_txt("User-agent: *\nDisallow: /user/\nDisallow: /compose\n"),
        "User-agent: *\nDisallow: /kamo/\nDisallow: /tuvelin\n"
    );
}

/// Every family's disguise renames the words its URLs are made of and leaves its content:
/// every address it lists reads back through the disguise, no vocabulary word is left in a
/// disguised URL, and its tokens are distinct.
#[test]
fn every_family_disguise_is_a_bijection_over_its_urls() {
    for family in FamilyName::ALL {
        let plain = Site::build(SiteConfig::new(family, 4, Scale::Small));
        let disguised = Site::build(SiteConfig::new(family, 4, Scale::Small)).with_disguise(9);
        let words: HashSet<&str> = disguised
            .disguised_words()
            .iter()
            .map(String::as_str)
            .collect();
        // A family writes a few dozen fixed words; hundreds would mean content (titles, names)
        // taken for vocabulary, as the slugs in login URLs' return paths once were.
        assert!(
            (3..=60).contains(&words.len()),
            "{}: {words:?}",
            family.name()
        );
        let at = plain.history().end;
        let mut checked = 0;
        plain.for_each_address(at, |address| {
            let url = disguised.url_of(&address);
            assert_eq!(
                disguised.address_of(&url),
                plain.address_of(&plain.url_of(&address)),
                "{}: {url}",
                family.name()
            );
            for word in url_words(&url) {
                assert!(
                    !words.contains(word),
                    "{}: {word} left in {url}",
                    family.name()
                );
            }
            // Content slugs stay: every word of a thread's title its plain URL spells is in the
            // disguised URL too, unless the family's vocabulary has the same word.
            if let Route::Thread { thread, .. } = address.route {
                let title = name_words(&plain.thread_title(thread));
                let disguised_words = url_words(&url);
                let plain_url = plain.url_of(&address);
                for word in url_words(&plain_url) {
                    let content = title.iter().any(|known| known == word);
                    assert!(
                        !content || words.contains(word) || disguised_words.contains(&word),
                        "{}: title word {word} of {plain_url} renamed in {url}",
                        family.name()
                    );
                }
            }
            checked += 1;
        });
        assert!(checked > 100, "{}", family.name());
    }
}

#[test]
fn a_markup_name_whose_token_is_taken_draws_again() {
    let mut table = MarkupTable::default();
    let first_draw = drawn_markup_token(3, "post", 0);
    table.taken.insert(first_draw.clone());
    let token = table.token(3, "post");
    assert_ne!(token, first_draw);
    assert_eq!(token, drawn_markup_token(3, "post", 1));
    // The same name keeps its token; another name never gets it.
    assert_eq!(table.token(3, "post"), token);
    assert_eq!(table.tokens.len(), 1);
    assert!(table.taken.contains(&token));
}

#[test]
fn markup_names_are_read_from_class_id_for_and_anchor_name_values() {
    let mut names = HashSet::new();
    collect_markup_names(
        "<div class=\"post-body first\" title=\"alpha\"><a name=\"p17\" href=\"/x\">\
         <!-- <b class=\"gone\"> --><label for=\"box\"><input name=\"field\" id=\"q2\">",
        &mut names,
    );
    let mut names: Vec<String> = names.into_iter().collect();
    names.sort();
    assert_eq!(names, ["body", "box", "first", "p", "post", "q"]);
}

/// No two markup names of a family's pages share a token, on every family under seeds 1 to 5:
/// the names of the table's pages and of a sample of every page the site lists, met afterwards.
#[test]
fn markup_names_of_every_family_get_distinct_tokens() {
    for family in FamilyName::ALL {
        for seed in 1..=5 {
            let site = Site::build(SiteConfig::new(family, seed, Scale::Small));
            let disguise = Disguise::of_site(&site, seed);
            let encoding = site.family().profile().charset.encoding();
            let mut urls = Vec::new();
            let mut index = 0;
            site.for_each_address(site.history().end, |address| {
                if index % 97 == 0 {
                    urls.push(site.plain_url_of(&address));
                }
                index += 1;
            });
            let mut names: HashSet<String> = HashSet::new();
            for url in &urls {
                let answer = site.serve(url, site.history().end, None);
                collect_markup_names(&encoding.decode(&answer.body).0, &mut names);
            }
            let tokens: HashSet<String> = names
                .iter()
                .map(|name| disguise.markup_token(name))
                .collect();
            assert!(names.len() > 10, "{} seed {seed}", family.name());
            assert_eq!(tokens.len(), names.len(), "{} seed {seed}", family.name());
            let table = disguise.markup_table();
            assert_eq!(table.taken.len(), table.tokens.len());
        }
    }
}
