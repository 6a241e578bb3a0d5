//! What the tests on simulated forums share: reading one page of a simulated forum as
//! `trawl extract` reads a saved page.

use jiff::Timestamp;
use trawl_page::analysis::{PageAnalysis, analyse};
use trawl_page::time::DateContext;
use trawl_sim::Site;
use url::Url;

/// Analyses `path` of `site` as served at the end of its history, in the forum's zone.
pub fn analyse_page(site: &Site, path: &str) -> PageAnalysis {
    let at = site.history().end;
    let answer = site.serve(path, at, None);
    let content_type = answer.header("Content-Type");
    let url = Url::parse(&format!("http://forum.test{path}")).expect("a valid URL");
    let context = DateContext::new(
        Timestamp::from_second(at).expect("a valid instant"),
        Some(site.family().profile().utc_offset_seconds),
    );
    analyse(&answer.body, content_type, &url, &context)
}
