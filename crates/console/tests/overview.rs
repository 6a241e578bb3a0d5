//! The overview reads the totals the store keeps; a store written before it kept them, which
//! the console opens read only and so cannot give them, shows the same figures counted from
//! its pages and frontier.

mod support;

use trawl_store::StoreLocation;

use support::{client, crawled_file, get, serve};

/// The figures of the overview of the store at `location`: pages, posts, frontier, errors, in
/// the words the page gives them.
fn overview_figures(location: &StoreLocation) -> Vec<String> {
    let console = serve(location.clone());
    let (status, overview) = get(&client(), &format!("http://{}/site/0/", console.address()));
    assert_eq!(status, 200, "{overview}");
    ["pages", "posts", "frontier", "errors"]
        .iter()
        .map(|figure| {
            let opening = format!("<dd id=\"{figure}\">");
            overview
                .split(&opening)
                .nth(1)
                .and_then(|rest| rest.split("</dd>").next())
                .unwrap_or_else(|| panic!("no {figure} in {overview}"))
                .to_string()
        })
        .collect()
}

#[test]
fn a_store_without_totals_shows_the_figures_its_totals_would() {
    let path = crawled_file("overview-totals");
    let location = StoreLocation::File(path.clone());
    let kept = overview_figures(&location);
    assert_eq!(kept[0], "250", "{kept:?}");
    assert!(kept[2].ends_with(" URLs waiting"), "{kept:?}");
    trawl_store::test_support::remove_the_totals(&location);
    let store = trawl_store::Store::open_read_only(&path).unwrap();
    assert_eq!(store.summary().unwrap(), None);
    drop(store);
    assert_eq!(overview_figures(&location), kept);
    trawl_store::remove_database_files(&path);
}
