//! What the tests on simulated forums share: reading one page of a simulated forum as
//! `trawl extract` reads a saved page.

use jiff::Timestamp;
use trawl_page::analysis::{PageAnalysis, PageStructure, RecordsWanted, analyse_structure};
use trawl_page::time::DateContext;
use trawl_sim::Site;
use url::Url;

/// Analyses `path` of `site` as served at the end of its history, in the forum's zone.
pub fn analyse_page(site: &Site, path: &str) -> PageAnalysis {
    structure_of_page(site, path).read_records(RecordsWanted::Both)
}

/// The structure of `path` of `site` (the first half of [`analyse_page`]), records not read.
pub fn structure_of_page(site: &Site, path: &str) -> PageStructure {
    let at = site.history().end;
    let answer = site.serve(path, at, None);
    let content_type = answer.header("Content-Type");
    let url = Url::parse(&format!("http://forum.test{path}")).expect("a valid URL");
    let context = DateContext::new(
        Timestamp::from_second(at).expect("a valid instant"),
        Some(site.family().profile().utc_offset_seconds),
    );
    analyse_structure(&answer.body, content_type, &url, &context)
}
