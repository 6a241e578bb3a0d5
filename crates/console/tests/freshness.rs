//! The freshness views over a crawl a watch kept fresh, through HTTP: the forum's and each
//! board's figures are the watch's own snapshot, the plots are drawn, and a crawl no watch
//! kept says so.

mod support;

use trawl_store::{Store, StoreLocation};
use trawl_watch::snapshot::read_snapshot;

use support::{client, crawled_file, get, serve, watched_file};

/// The text of the element of id `id` in `html` (no nested elements).
fn text_of<'html>(html: &'html str, id: &str) -> &'html str {
    let start = html
        .find(&format!("id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no #{id} in {html}"))
        + id.len()
        + 6;
    let end = start + html[start..].find('<').expect("the element ends");
    &html[start..end]
}

#[test]
fn the_freshness_views_show_what_the_watch_did() {
    let path = watched_file("freshness");
    let location = StoreLocation::File(path.clone());
    let snapshot = {
        let store = Store::open_existing(&location, None, true).unwrap();
        read_snapshot(&store)
            .unwrap()
            .expect("the watch kept its state")
    };
    // The watch fetched, found new posts, and planned more.
    let crawl_pages = snapshot
        .crawl_pages
        .expect("the watch noted where the crawl ended");
    assert!(snapshot.pages > crawl_pages, "{snapshot:?}");
    assert_eq!(snapshot.spent.total(), snapshot.pages - crawl_pages);
    assert!(!snapshot.delays.is_empty(), "no new post in 30 hours");
    assert_eq!(snapshot.days.len(), 2);
    assert!(snapshot.state_is_current);
    let board = snapshot
        .boards
        .iter()
        .max_by_key(|board| board.polls.len())
        .expect("the crawl has boards");
    assert!(!board.polls.is_empty());

    let console = serve(location.clone());
    let base = format!("http://{}", console.address());
    let agent = client();
    let (status, forum) = get(&agent, &format!("{base}/site/0/freshness"));
    assert_eq!(status, 200, "{forum}");
    assert!(
        text_of(&forum, "spent").starts_with(&format!(
            "{} fetches: {} discovery",
            snapshot.spent.total(),
            snapshot.spent.discovery
        )),
        "{forum}"
    );
    assert!(
        text_of(&forum, "delay").starts_with(&format!("{} new posts;", snapshot.delays.len())),
        "{forum}"
    );
    // Three plots: the delays' distribution, fetches and mean delay per day.
    assert_eq!(
        forum.matches("<figure class=\"plot\"").count(),
        3,
        "{forum}"
    );
    assert_eq!(forum.matches("<svg").count(), 3);
    // Every board is listed with a link to its own view.
    let board_href = format!("/site/0/freshness/board/{:016x}", board.list);
    assert!(forum.contains(&board_href), "{forum}");
    for listed in &snapshot.boards {
        assert!(
            forum.contains(&format!("/site/0/freshness/board/{:016x}", listed.list)),
            "board {} is not listed",
            listed.url
        );
    }

    let (status, board_page) = get(&agent, &format!("{base}{board_href}"));
    assert_eq!(status, 200, "{board_page}");
    assert!(
        text_of(&board_page, "polls").starts_with(&format!("{},", board.polls.len())),
        "{board_page}"
    );
    assert!(
        text_of(&board_page, "delay").starts_with(&match board.delays.len() {
            0 => "no new post".to_string(),
            count => format!("{count} new posts;"),
        }),
        "{board_page}"
    );
    assert_eq!(board_page.matches("<figure class=\"plot\"").count(), 2);

    // A board the watch does not know, and a name that is no board.
    assert_eq!(
        get(
            &agent,
            &format!("{base}/site/0/freshness/board/00000000000000ff")
        )
        .0,
        404
    );
    assert_eq!(
        get(&agent, &format!("{base}/site/0/freshness/board/nothex")).0,
        400
    );
    console.stop();
    trawl_store::remove_database_files(&path);
}

#[test]
fn a_crawl_no_watch_kept_says_so() {
    let path = crawled_file("unwatched");
    let console = serve(StoreLocation::File(path.clone()));
    let base = format!("http://{}", console.address());
    let agent = client();
    let (status, body) = get(&agent, &format!("{base}/site/0/freshness"));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("id=\"not-watched\""), "{body}");
    console.stop();
    trawl_store::remove_database_files(&path);
}
