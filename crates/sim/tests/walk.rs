//! Walks every link of a small forum of each family and checks each URL against the ground truth.

mod common;

use std::collections::{HashMap, HashSet, VecDeque};

use common::{SEED, decode_body, same_site_links, small_site};
use trawl_sim::{FamilyName, PageClass, Role, Site};

/// Fetches everything reachable from the portal (endless spaces only up to the listed bound) and
/// checks that every linked URL is known to the truth with the class the server's answer implies.
fn check_walk(family: FamilyName) {
    check_walk_of(&small_site(family));
}

/// [`check_walk`] on a site built with options beyond its family.
fn check_walk_of(site: &Site) {
    let family = site.config().family;
    let at = site.history().end;
    let mut listed: HashMap<String, trawl_sim::truth::UrlTruth> = HashMap::new();
    site.for_each_url_truth(at, |truth| {
        let previous = listed.insert(truth.url.clone(), truth);
        assert!(
            previous.is_none(),
            "{}: a URL is listed twice",
            family.name()
        );
    });
    // A client that keeps cookies gets URLs without session ids, so every URL it meets must be
    // listed; the session-id walk is checked separately.
    let cookie = format!("{}=1", site.family().profile().session_cookie);
    let mut queue = VecDeque::from([site.portal_path()]);
    let mut seen: HashSet<String> = queue.iter().cloned().collect();
    let mut reached_valuable = HashSet::new();
    while let Some(path) = queue.pop_front() {
        let truth = site.classify(&path, at);
        assert_ne!(
            truth.role,
            Role::Error,
            "{}: {path} is linked but does not exist",
            family.name()
        );
        let expected = listed
            .get(&path)
            .unwrap_or_else(|| panic!("{}: linked {path} is not in the truth", family.name()));
        assert_eq!(
            &truth,
            expected,
            "{}: classify and enumeration disagree",
            family.name()
        );
        let answer = site.serve(&path, at, Some(&cookie));
        match truth.class {
            PageClass::Valuable => {
                assert_eq!(answer.status, 200, "{}: valuable {path}", family.name());
                reached_valuable.insert(path.clone());
            }
            PageClass::Duplicate => {
                assert!(
                    matches!(answer.status, 200 | 301 | 302),
                    "{}: {path}",
                    family.name()
                )
            }
            PageClass::Invalid | PageClass::Endless => {}
        }
        let mut links = if answer.status == 200 || answer.status == 403 {
            same_site_links(&decode_body(site, &answer.body))
        } else {
            Vec::new()
        };
        if let Some((_, location)) = answer.headers.iter().find(|(name, _)| name == "Location") {
            links.push(location.clone());
        }
        for link in links {
            if seen.contains(&link) {
                continue;
            }
            let link_truth = site.classify(&link, at);
            // Endless spaces go on forever: follow them only as far as the truth lists them.
            if link_truth.class == PageClass::Endless && !listed.contains_key(&link) {
                continue;
            }
            seen.insert(link.clone());
            queue.push_back(link);
        }
    }
    let valuable: Vec<&String> = listed
        .values()
        .filter(|t| t.class == PageClass::Valuable)
        .map(|t| &t.url)
        .collect();
    let unreached: Vec<&&String> = valuable
        .iter()
        .filter(|url| !reached_valuable.contains(url.as_str()))
        .collect();
    assert!(
        unreached.is_empty(),
        "{}: valuable pages no link reaches: {unreached:?}",
        family.name()
    );
    assert!(
        valuable.len() > 100,
        "{}: only {} valuable pages",
        family.name(),
        valuable.len()
    );
}

#[test]
fn phpbb_walk_agrees_with_truth() {
    check_walk(FamilyName::Phpbb);
}

#[test]
fn vbulletin_walk_agrees_with_truth() {
    check_walk(FamilyName::Vbulletin);
}

#[test]
fn discuz_walk_agrees_with_truth() {
    check_walk(FamilyName::Discuz);
}

#[test]
fn smf_walk_agrees_with_truth() {
    check_walk(FamilyName::Smf);
}

#[test]
fn xenforo_walk_agrees_with_truth() {
    check_walk(FamilyName::Xenforo);
}

#[test]
fn discourse_walk_agrees_with_truth() {
    check_walk(FamilyName::Discourse);
}

#[test]
fn tablecraft_walk_agrees_with_truth() {
    check_walk(FamilyName::Tablecraft);
}

/// Without cookies, URL-session families put a session id in every link; every such URL must be
/// a duplicate (or keep the class) of the same URL without the session id.
#[test]
fn session_links_are_variants_of_listed_urls() {
    for family in FamilyName::ALL {
        let site: Site = small_site(family);
        if site.family().profile().session_parameter.is_none() {
            continue;
        }
        let at = site.history().end;
        let portal = site.serve(&site.portal_path(), at, None);
        let links = same_site_links(&decode_body(&site, &portal.body));
        let parameter = site
            .family()
            .profile()
            .session_parameter
            .unwrap_or_default();
        assert!(
            links.iter().all(|link| link.contains(parameter)),
            "{}: {links:?}",
            family.name()
        );
        for link in links.iter().take(60) {
            let truth = site.classify(link, at);
            let mut address = site.address_of(link).expect("linked URLs decode");
            assert!(address.variant.session.is_some(), "{link}");
            address.variant.session = None;
            let plain = site.truth_of(&address, at);
            match plain.class {
                PageClass::Valuable => {
                    assert_eq!(truth.class, PageClass::Duplicate, "{link}");
                    assert_eq!(
                        truth.canonical.as_deref(),
                        Some(plain.url.as_str()),
                        "{link}"
                    );
                }
                other => assert_eq!(truth.class, other, "{link}"),
            }
        }
        let _ = SEED;
    }
}

#[test]
fn nodebb_walk_agrees_with_truth() {
    check_walk(FamilyName::Nodebb);
}

/// The same forum with its cursors spelled as opaque tokens: every cursor link must still be
/// listed by the truth and answer its page, and no link may spell a cursor as a plain number.
#[test]
fn nodebb_walk_with_opaque_cursors_agrees_with_truth() {
    let site = small_site(FamilyName::Nodebb).with_opaque_cursors();
    check_walk_of(&site);
    let at = site.history().end;
    let mut cursor_urls = 0;
    site.for_each_url_truth(at, |truth| {
        if let Some((_, value)) = truth.url.split_once("after=") {
            cursor_urls += 1;
            assert!(
                value.len() == 11 && value.bytes().any(|b| b.is_ascii_alphabetic()),
                "a cursor spelled as a number: {}",
                truth.url
            );
            let plain = truth.url.replace(value, "17");
            assert_eq!(
                site.classify(&plain, at).role,
                Role::Error,
                "a plain-number cursor answered: {plain}"
            );
        }
    });
    assert!(cursor_urls > 5, "{cursor_urls} cursor URLs");
}

/// The same forum with its cursors counting down (`?before=<id>`, newest thread first): every
/// cursor link must still be listed by the truth and answer its page, the family's own cursor
/// key must answer nothing, and on every board the cursor of each later page must be below the
/// cursor of the page before. Opaque tokens may stand for the ids too.
#[test]
fn nodebb_walk_with_cursors_counting_down_agrees_with_truth() {
    let site = small_site(FamilyName::Nodebb).with_cursors_counting_down();
    assert!(site.cursors_count_down());
    check_walk_of(&site);
    let at = site.history().end;
    // Per board, (page, cursor) of every later page.
    let mut cursors: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
    site.for_each_url_truth(at, |truth| {
        assert!(
            !truth.url.contains("after="),
            "a cursor under the codec's key: {}",
            truth.url
        );
        let Some((_, value)) = truth.url.split_once("before=") else {
            return;
        };
        let value = value.split('&').next().unwrap_or(value);
        let cursor: u32 = value
            .parse()
            .unwrap_or_else(|_| panic!("a cursor that is no id: {}", truth.url));
        let own_key = truth.url.replace("before=", "after=");
        assert_eq!(
            site.classify(&own_key, at).role,
            Role::Error,
            "the codec's own cursor key answered: {own_key}"
        );
        if truth.class == PageClass::Valuable {
            let list = truth
                .list
                .clone()
                .expect("a valuable list page names its list");
            let page = truth.position.expect("a valuable list page has a position");
            cursors.entry(list).or_default().push((page, cursor));
        }
    });
    assert!(
        cursors.values().any(|pages| pages.len() >= 2),
        "{cursors:?}"
    );
    for (list, mut pages) in cursors {
        pages.sort_unstable();
        assert_eq!(pages[0].0, 2, "{list}: the first cursor page is page 2");
        for pair in pages.windows(2) {
            assert!(
                pair[1].0 == pair[0].0 + 1 && pair[1].1 < pair[0].1,
                "{list}: cursors must count down page after page: {pages:?}"
            );
        }
    }
    let opaque = small_site(FamilyName::Nodebb)
        .with_cursors_counting_down()
        .with_opaque_cursors();
    check_walk_of(&opaque);
    let mut tokens = 0;
    opaque.for_each_url_truth(at, |truth| {
        if let Some((_, value)) = truth.url.split_once("before=") {
            tokens += 1;
            assert!(
                value.len() == 11 && value.bytes().any(|b| b.is_ascii_alphabetic()),
                "a cursor spelled as a number: {}",
                truth.url
            );
        }
    });
    assert!(tokens > 5, "{tokens} opaque cursors counting down");
}

/// Families without cursors are unchanged by the option.
#[test]
fn cursors_counting_down_leave_families_without_cursors_alone() {
    let site = small_site(FamilyName::Phpbb).with_cursors_counting_down();
    assert!(!site.cursors_count_down());
    check_walk_of(&site);
}

#[test]
fn slugtree_walk_agrees_with_truth() {
    check_walk(FamilyName::Slugtree);
}

#[test]
fn yabb_walk_agrees_with_truth() {
    check_walk(FamilyName::Yabb);
}

#[test]
fn qa_walk_agrees_with_truth() {
    check_walk(FamilyName::Qa);
}

#[test]
fn mailarchive_walk_agrees_with_truth() {
    check_walk(FamilyName::Mailarchive);
}

/// The truth checks of every family's walk hold on the family in disguise: the truth speaks the
/// disguise's words, and every page it lists is linked under them.
#[test]
fn disguised_walks_agree_with_truth() {
    for family in FamilyName::ALL {
        check_walk_of(&small_site(family).with_disguise(3));
    }
}
