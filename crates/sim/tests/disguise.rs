//! A disguised forum is the same forum under other names: walked link by link beside the
//! undisguised one, every page answers alike, shows the same text, and every link leads where
//! the undisguised link leads, while no word of the family's URL vocabulary or markup names is
//! left in sight.

mod common;

use std::collections::{HashSet, VecDeque};

use common::{decode_body, same_site_links, small_site, visible_text};
use trawl_sim::{FamilyName, Site};

/// Pages walked per family: enough to meet every kind of page of a small forum.
const PAGES_WALKED: usize = 400;

/// The values of attribute `name` (double-quoted) on a page.
fn attribute_values(page: &str, name: &str) -> Vec<String> {
    let marker = format!(" {name}=\"");
    page.split(marker.as_str())
        .skip(1)
        .map(|piece| piece.split('"').next().unwrap_or("").to_string())
        .collect()
}

/// The words of markup names: runs of letters of every class and id value.
fn markup_words(page: &str) -> HashSet<String> {
    ["class", "id"]
        .iter()
        .flat_map(|name| attribute_values(page, name))
        .flat_map(|value| {
            value
                .split(|c: char| !c.is_ascii_alphabetic())
                .filter(|word| !word.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The words of a link's path and query a disguise may rename: runs of letters and digits that
/// hold letters only, but the extensions ending path segments.
fn link_words(link: &str) -> Vec<String> {
    let path_end = link.find('?').unwrap_or(link.len());
    let mut words = Vec::new();
    let mut start = 0;
    for (index, character) in link.char_indices().chain([(link.len(), '/')]) {
        if character.is_ascii_alphanumeric() {
            continue;
        }
        let word = &link[start..index];
        let ends_segment = index == path_end || link[index..].starts_with('/');
        let is_extension = start > 0 && link[..start].ends_with('.') && ends_segment;
        if !word.is_empty() && !is_extension && word.bytes().all(|b| b.is_ascii_alphabetic()) {
            words.push(word.to_string());
        }
        start = index + character.len_utf8();
    }
    words
}

fn check_disguised_walk(family: FamilyName, seed: u64) {
    let plain = small_site(family);
    let disguised = small_site(family).with_disguise(seed);
    let name = family.name();
    let vocabulary: HashSet<&str> = disguised
        .disguised_words()
        .iter()
        .map(String::as_str)
        .collect();
    assert!(vocabulary.len() >= 3, "{name}: {vocabulary:?}");
    let at = plain.history().end;
    let cookie = format!("{}=1", plain.family().profile().session_cookie);
    let mut queue = VecDeque::from([(plain.portal_path(), disguised.portal_path())]);
    let mut seen: HashSet<String> = HashSet::from([plain.portal_path()]);
    let mut walked = 0;
    let mut renamed_links = 0;
    let mut links_seen = 0;
    while let Some((plain_path, disguised_path)) = queue.pop_front() {
        walked += 1;
        if walked > PAGES_WALKED {
            break;
        }
        assert_eq!(
            plain.classify(&plain_path, at).canonical.is_some(),
            disguised.classify(&disguised_path, at).canonical.is_some(),
            "{name}: {plain_path} and {disguised_path} judged apart"
        );
        assert_eq!(
            plain.classify(&plain_path, at).class,
            disguised.classify(&disguised_path, at).class,
            "{name}: {plain_path} and {disguised_path} judged apart"
        );
        let plain_answer = plain.serve(&plain_path, at, Some(&cookie));
        let disguised_answer = disguised.serve(&disguised_path, at, Some(&cookie));
        assert_eq!(
            plain_answer.status, disguised_answer.status,
            "{name}: {plain_path} against {disguised_path}"
        );
        let plain_page = decode_body(&plain, &plain_answer.body);
        let disguised_page = decode_body(&disguised, &disguised_answer.body);
        assert_eq!(
            visible_text(&plain_page),
            visible_text(&disguised_page),
            "{name}: {plain_path} against {disguised_path}"
        );
        let shared: Vec<String> = markup_words(&plain_page)
            .intersection(&markup_words(&disguised_page))
            .cloned()
            .collect();
        assert!(
            shared.is_empty(),
            "{name}: {disguised_path} keeps {shared:?}"
        );
        let mut plain_links = same_site_links(&plain_page);
        let mut disguised_links = same_site_links(&disguised_page);
        if let (Some(plain_location), Some(disguised_location)) = (
            plain_answer.header("Location"),
            disguised_answer.header("Location"),
        ) {
            plain_links.push(plain_location.to_string());
            disguised_links.push(disguised_location.to_string());
        }
        assert_eq!(
            plain_links.len(),
            disguised_links.len(),
            "{name}: {disguised_path} links differently"
        );
        for (plain_link, disguised_link) in plain_links.into_iter().zip(disguised_links) {
            assert_eq!(
                plain.address_of(&plain_link),
                disguised.address_of(&disguised_link),
                "{name}: {disguised_link} does not lead where {plain_link} does"
            );
            for word in link_words(&disguised_link) {
                assert!(
                    !vocabulary.contains(word.as_str()),
                    "{name}: {word} left in {disguised_link}"
                );
            }
            links_seen += 1;
            renamed_links += usize::from(plain_link != disguised_link);
            if seen.insert(plain_link.clone()) {
                queue.push_back((plain_link, disguised_link));
            }
        }
    }
    assert!(walked > 50, "{name}: walked only {walked} pages");
    assert!(
        renamed_links * 10 > links_seen * 9,
        "{name}: only {renamed_links} of {links_seen} links renamed"
    );
}

/// Each family in two disguises.
fn check_family(family: FamilyName) {
    check_disguised_walk(family, 1);
    check_disguised_walk(family, 2);
}

#[test]
fn disguised_phpbb_is_the_same_forum() {
    check_family(FamilyName::Phpbb);
}

#[test]
fn disguised_vbulletin_is_the_same_forum() {
    check_family(FamilyName::Vbulletin);
}

#[test]
fn disguised_discuz_is_the_same_forum() {
    check_family(FamilyName::Discuz);
}

#[test]
fn disguised_smf_is_the_same_forum() {
    check_family(FamilyName::Smf);
}

#[test]
fn disguised_xenforo_is_the_same_forum() {
    check_family(FamilyName::Xenforo);
}

#[test]
fn disguised_discourse_is_the_same_forum() {
    check_family(FamilyName::Discourse);
}

#[test]
fn disguised_tablecraft_is_the_same_forum() {
    check_family(FamilyName::Tablecraft);
}

#[test]
fn disguised_nodebb_is_the_same_forum() {
    check_family(FamilyName::Nodebb);
}

#[test]
fn disguised_slugtree_is_the_same_forum() {
    check_family(FamilyName::Slugtree);
}

#[test]
fn disguised_yabb_is_the_same_forum() {
    check_family(FamilyName::Yabb);
}

#[test]
fn disguised_qa_is_the_same_forum() {
    check_family(FamilyName::Qa);
}

#[test]
fn disguised_mailarchive_is_the_same_forum() {
    check_family(FamilyName::Mailarchive);
}

/// Robots rules name the disguised paths: what they forbid undisguised, they forbid disguised.
#[test]
fn robots_rules_forbid_the_same_pages_disguised() {
    for family in FamilyName::ALL {
        let plain = small_site(family);
        let disguised = small_site(family).with_disguise(1);
        let at = plain.history().end;
        let plain_rules = plain.serve("/robots.txt", at, None);
        let disguised_rules = disguised.serve("/robots.txt", at, None);
        assert_eq!(
            plain_rules.status,
            disguised_rules.status,
            "{}",
            family.name()
        );
        if plain_rules.status != 200 {
            continue;
        }
        let rules = |body: &[u8]| -> Vec<String> {
            String::from_utf8_lossy(body)
                .lines()
                .filter_map(|line| line.strip_prefix("Disallow: ").map(str::to_string))
                .collect()
        };
        let plain_rules = rules(&plain_rules.body);
        let disguised_rules = rules(&disguised_rules.body);
        assert_eq!(plain_rules.len(), disguised_rules.len());
        // A family without robots.txt may answer it with a soft "not found" page.
        if plain_rules.is_empty() {
            continue;
        }
        assert_ne!(plain_rules, disguised_rules, "{}", family.name());
        // Every listed page a plain rule forbids, the disguised rule forbids under its name.
        plain.for_each_url_truth(at, |truth| {
            let Some(disguised_url) = disguised_url_of(&plain, &disguised, &truth.url) else {
                return;
            };
            for (plain_rule, disguised_rule) in plain_rules.iter().zip(&disguised_rules) {
                assert_eq!(
                    truth.url.starts_with(plain_rule.as_str()),
                    disguised_url.starts_with(disguised_rule.as_str()),
                    "{}: {} under {plain_rule} / {disguised_rule}",
                    family.name(),
                    truth.url
                );
            }
        });
    }
}

/// The disguised spelling of a URL of the plain site, when the URL is the one spelling of its
/// address (an alias the family reads, but never writes, has none).
fn disguised_url_of(plain: &Site, disguised: &Site, url: &str) -> Option<String> {
    let address = plain.address_of(url).expect("listed URLs read back");
    (plain.url_of(&address) == url).then(|| disguised.url_of(&address))
}
