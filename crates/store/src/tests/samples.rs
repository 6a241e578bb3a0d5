//! Pages sampled to learn a plan, kept as they are fetched, on both backends.

use super::for_each_backend;
use crate::SampledPage;

fn sampled(url: &str, status: u16, body: &str) -> SampledPage {
    SampledPage {
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
