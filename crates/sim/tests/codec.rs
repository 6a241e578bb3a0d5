//! Every family reads back every URL it writes, for every address a forum serves.

mod common;

use common::small_site;
use trawl_sim::{FamilyName, PageClass};

fn check_round_trip(family: FamilyName) {
    let site = small_site(family);
    let at = site.history().end;
    let has_url_sessions = site.family().profile().session_parameter.is_some();
    let mut checked = 0;
    site.for_each_address(at, |address| {
        let url = site.url_of(&address);
        assert!(
            url.starts_with('/') && !url.contains('#'),
            "{}: {url}",
            family.name()
        );
        assert_eq!(
            site.address_of(&url).as_ref(),
            Some(&address),
            "{}: {url}",
            family.name()
        );
        if has_url_sessions {
            let mut with_session = address.clone();
            with_session.variant.session = Some(0x1234_5678_9abc_def0);
            let url = site.url_of(&with_session);
            assert_eq!(
                site.address_of(&url),
                Some(with_session),
                "{}: {url}",
                family.name()
            );
        }
        checked += 1;
    });
    assert!(
        checked > 1_000,
        "{}: only {checked} addresses",
        family.name()
    );
}

#[test]
fn every_family_round_trips_every_address() {
    for family in FamilyName::ALL {
        check_round_trip(family);
    }
}

/// Duplicates name a canonical URL that is itself listed as valuable; valuable list pages form
/// complete lists numbered 1..n.
#[test]
fn truth_is_self_consistent() {
    for family in FamilyName::ALL {
        let site = small_site(family);
        let at = site.history().end;
        let mut records = Vec::new();
        site.for_each_url_truth(at, |truth| records.push(truth));
        let valuable: std::collections::HashSet<&str> = records
            .iter()
            .filter(|t| t.class == PageClass::Valuable)
            .map(|t| t.url.as_str())
            .collect();
        let mut lists: std::collections::HashMap<&str, Vec<u32>> = Default::default();
        for record in &records {
            match record.class {
                PageClass::Duplicate => {
                    let canonical = record
                        .canonical
                        .as_deref()
                        .expect("duplicates name a canonical");
                    assert!(
                        valuable.contains(canonical),
                        "{}: {record:?}",
                        family.name()
                    );
                }
                PageClass::Valuable => {
                    if let (Some(list), Some(position)) = (&record.list, record.position) {
                        lists.entry(list.as_str()).or_default().push(position);
                    }
                }
                _ => assert!(record.canonical.is_none() && record.list.is_none()),
            }
        }
        for (list, mut positions) in lists {
            positions.sort_unstable();
            let expected: Vec<u32> = (1..=positions.len() as u32).collect();
            assert_eq!(positions, expected, "{}: list {list}", family.name());
        }
    }
}

/// Family names, URL schemes and templates really differ: no two families spell a thread page
/// the same way, and portals differ.
#[test]
fn families_differ() {
    let mut thread_urls = std::collections::HashSet::new();
    let mut portals = std::collections::HashSet::new();
    for family in FamilyName::ALL {
        let site = small_site(family);
        let url = site.url_of(&trawl_sim::Address::canonical(trawl_sim::Route::Thread {
            thread: 3,
            page: 2,
        }));
        assert!(
            thread_urls.insert(url.clone()),
            "{} repeats {url}",
            family.name()
        );
        let portal = site
            .serve(&site.portal_path(), site.history().end, None)
            .body;
        assert!(
            portals.insert(portal),
            "{} repeats another family's portal",
            family.name()
        );
    }
}
