//! Pages sampled to learn a plan, kept as they are fetched, on both backends.

use jiff::Timestamp;

use super::{entry, for_each_backend, settings};
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

#[test]
fn beginning_the_crawl_lets_its_samples_go_and_no_other_crawls() {
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
            .save_sample(&sampled("http://forum.test/b/1", 200, "board"))
            .unwrap();
        store
            .begin_crawl(&settings(), &entry("http://forum.test/", 0))
            .unwrap();
        assert!(store.samples().unwrap().is_empty());
        assert!(place.open().samples().unwrap().is_empty());
        assert_eq!(other.open().samples().unwrap().len(), 1);
    });
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
