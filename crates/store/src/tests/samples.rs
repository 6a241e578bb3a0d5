//! Pages sampled to learn a plan, kept as they are fetched, on both backends.

use jiff::Timestamp;

use super::{entry, for_each_backend, outcome, settings};
use crate::SampledPage;

fn sampled(url: &str, status: u16, body: &str) -> SampledPage {
    SampledPage {
        fetched_at: Some(Timestamp::from_second(1_700_000_000 + body.len() as i64).unwrap()),
        url: url.into(),
        status,
        headers: vec![
            ("content-type".into(), "text/html".into()),
            ("set-cookie".into(), "sid=1".into()),
        ],
        body: body.as_bytes().to_vec(),
    }
}

#[test]
fn sampled_pages_come_back_in_fetch_order_after_reopening() {
    for_each_backend(|place| {
        let pages = [
            sampled("http://forum.test/", 200, "<p>portal</p>"),
            sampled("http://forum.test/b/1", 200, "<p>board</p>"),
            sampled("http://forum.test/gone", 404, ""),
            sampled("http://forum.test/", 200, "<p>portal again</p>"),
        ];
        {
            let mut store = place.open();
            assert!(store.samples().unwrap().is_empty());
            for page in &pages {
                store.save_sample(page).unwrap();
            }
        }
        assert_eq!(place.open().samples().unwrap(), pages);
    });
}

#[test]
fn each_crawl_keeps_its_own_samples() {
    for_each_backend(|place| {
        let other = place.another();
        place
            .open()
            .save_sample(&sampled("http://forum.test/", 200, "one"))
            .unwrap();
        other
            .open()
            .save_sample(&sampled("http://forum.test/", 200, "two"))
            .unwrap();
        let bodies: Vec<Vec<u8>> = [place, &other]
            .iter()
            .flat_map(|place| place.open().samples().unwrap())
            .map(|page| page.body)
            .collect();
        assert_eq!(bodies, [b"one".to_vec(), b"two".to_vec()]);
    });
}

#[test]
fn a_sample_kept_without_its_time_comes_back_without_one() {
    for_each_backend(|place| {
        let page = SampledPage {
            fetched_at: None,
            ..sampled("http://forum.test/", 200, "portal")
        };
        place.open().save_sample(&page).unwrap();
        assert_eq!(place.open().samples().unwrap(), [page]);
    });
}

/// The bodies of the samples `store` keeps, in fetch order.
fn kept_bodies(store: &crate::Store) -> Vec<String> {
    store
        .samples()
        .unwrap()
        .into_iter()
        .map(|page| String::from_utf8(page.body).unwrap())
        .collect()
}

/// Begins a crawl holding samples of `sampled_urls` (the body of each its URL's
/// path), then writes one batch for each of `batches` (pages by URL), and checks the bodies of
/// the samples left after each batch. Another crawl's sample of the same URLs stays.
fn check_samples_left(sampled_urls: &[&str], batches: &[&[&str]], left: &[&[&str]]) {
    for_each_backend(|place| {
        let other = place.another();
        other
            .open()
            .save_sample(&sampled("http://forum.test/", 200, "other"))
            .unwrap();
        // The samples come through a handle of their own, as learning keeps them.
        let mut store = place.open();
        {
            let mut keeping = place.open();
            for url in sampled_urls {
                let path = url.trim_start_matches("http://forum.test");
                keeping.save_sample(&sampled(url, 200, path)).unwrap();
            }
        }
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        let every: Vec<&str> = sampled_urls
            .iter()
            .map(|url| url.trim_start_matches("http://forum.test"))
            .collect();
        assert_eq!(kept_bodies(&store), every, "beginning the crawl keeps them");
        for (batch, expected) in batches.iter().zip(left) {
            let outcomes: Vec<_> = batch.iter().map(|url| outcome(url, &[])).collect();
            store.record_fetches(&outcomes).unwrap();
            assert_eq!(kept_bodies(&store), *expected, "after {batch:?}");
            assert_eq!(kept_bodies(&place.open()), *expected, "reopened");
        }
        assert_eq!(kept_bodies(&other.open()), ["other"]);
    });
}

#[test]
fn a_sample_stays_until_a_page_of_its_url_is_stored() {
    check_samples_left(
        &["http://forum.test/", "http://forum.test/b/1"],
        &[&["http://forum.test/"], &["http://forum.test/t/9"]],
        &[&["/b/1"], &["/b/1"]],
    );
    check_samples_left(
        &[
            "http://forum.test/",
            "http://forum.test/b/1",
            "http://forum.test/b/2",
        ],
        &[&[
            "http://forum.test/b/2",
            "http://forum.test/t/9",
            "http://forum.test/b/1",
        ]],
        &[&["/"]],
    );
    // The portal sampled twice (as a returning visitor sees it) leaves with its first page.
    check_samples_left(
        &[
            "http://forum.test/",
            "http://forum.test/b/1",
            "http://forum.test/",
        ],
        &[
            &["http://forum.test/"],
            &["http://forum.test/"],
            &["http://forum.test/b/1"],
        ],
        &[&["/b/1"], &["/b/1"], &[]],
    );
    check_samples_left(&[], &[&["http://forum.test/"]], &[&[]]);
}

#[test]
fn a_sample_saved_after_the_first_write_leaves_with_its_page_too() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        store
            .record_fetches(&[outcome("http://forum.test/", &[])])
            .unwrap();
        store
            .save_sample(&sampled("http://forum.test/b/1", 200, "board"))
            .unwrap();
        store
            .record_fetches(&[outcome("http://forum.test/b/1", &[])])
            .unwrap();
        assert!(store.samples().unwrap().is_empty());
    });
}

#[test]
fn the_samples_left_go_at_the_crawl_s_end_or_with_a_plan_learned_again() {
    for end_by_new_plan in [false, true] {
        for_each_backend(|place| {
            let other = place.another();
            other
                .open()
                .save_sample(&sampled("http://forum.test/", 200, "other"))
                .unwrap();
            let mut store = place.open();
            store
                .save_sample(&sampled("http://forum.test/", 200, "mine"))
                .unwrap();
            store
                .begin_crawl(&settings(), &entry("http://forum.test/", 0))
                .unwrap();
            if end_by_new_plan {
                store.replace_plan("{}").unwrap();
            } else {
                store.let_samples_go().unwrap();
            }
            assert!(store.samples().unwrap().is_empty());
            assert!(place.open().samples().unwrap().is_empty());
            assert_eq!(other.open().samples().unwrap().len(), 1);
        });
    }
}

#[test]
fn beginning_a_crawl_that_never_sampled_changes_nothing_else() {
    for_each_backend(|place| {
        let mut store = place.open();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        assert!(store.samples().unwrap().is_empty());
        assert!(store.settings().unwrap().is_some());
    });
}
