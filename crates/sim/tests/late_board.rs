//! A board opened after the history began: on no board index and missing, with its threads and
//! posts, before it opens; there with everything written in it from then on.

use trawl_sim::{Address, FamilyName, Route, Scale, Site, SiteConfig};

const DAY: i64 = 86_400;

/// On `family`, board 2 opened at day 20: what the portal links and how the board's first
/// page, one of its threads and one of its posts answer at `day`.
fn check(family: &str, day: i64, expected_open: bool) {
    let site = Site::build(SiteConfig::new(
        FamilyName::parse(family).unwrap(),
        4,
        Scale::Small,
    ));
    let opens = site.history().start + 20 * DAY;
    let site = site.with_board_opened_at(2, opens);
    let at = site.history().start + day * DAY;
    let board_url = site.url_of(&Address::canonical(Route::Board { board: 2, page: 1 }));
    let portal = site.serve(&site.portal_path(), at, None);
    let portal_text = String::from_utf8_lossy(&portal.body);
    assert_eq!(
        portal_text.contains(&board_url.replace('&', "&amp;")),
        expected_open,
        "{family} day {day}: the portal and {board_url}"
    );
    let answers = |route: Route| {
        let url = site.url_of(&Address::canonical(route));
        site.serve(&url, at, None).status
    };
    let open_status = |status: u16| status != 404;
    assert_eq!(
        open_status(answers(Route::Board { board: 2, page: 1 })),
        expected_open,
        "{family} day {day}: the board"
    );
    let thread = site.history().board(2).unwrap().threads[0];
    assert_eq!(
        open_status(answers(Route::Thread { thread, page: 1 })),
        expected_open,
        "{family} day {day}: thread {thread}"
    );
    // The other boards are there all along.
    assert!(open_status(answers(Route::Board { board: 1, page: 1 })));
}

#[test]
fn a_board_opened_late_is_absent_before_and_whole_after() {
    for family in ["phpbb", "nodebb", "smf"] {
        check(family, 10, false);
        check(family, 19, false);
        check(family, 21, true);
        check(family, 40, true);
    }
}
