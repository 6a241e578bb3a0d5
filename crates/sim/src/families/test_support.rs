//! Test-only scaffolding shared by the engine families' tests: cached fixture sites, URL checks,
//! page-reading helpers, the `cases!` and `contains!` macros and small route constructors.

use std::sync::OnceLock;

use encoding_rs::Encoding;

use crate::families::FamilyName;
use crate::history::Scale;
use crate::route::{Address, Route, SortOrder};
use crate::site::{Site, SiteConfig};

/// The seed every fixture site is built from.
const SEED: u64 = 7;

/// The site every test of `family` runs against, built once per family and then shared.
pub(crate) fn fixture(family: FamilyName) -> &'static Site {
    static SITES: [OnceLock<Site>; FamilyName::ALL.len()] =
        [const { OnceLock::new() }; FamilyName::ALL.len()];
    let slot = FamilyName::ALL
        .iter()
        .position(|&candidate| candidate == family)
        .expect("every family is listed in FamilyName::ALL");
    SITES[slot].get_or_init(|| Site::build(SiteConfig::new(family, SEED, Scale::Small)))
}

/// Decodes `url` and compares the whole address (`None`: the engine has no such page).
pub(crate) fn check_decodes(site: &Site, url: &str, expected: Option<Address>) {
    assert_eq!(site.address_of(url), expected, "decoding {url}");
}

/// Asserts that `url` decodes to `expected` and, unless that is an alias, encodes back.
pub(crate) fn check_round_trips(site: &Site, url: &str, expected: Option<Address>) {
    assert_eq!(site.address_of(url), expected, "decoding {url}");
    if let Some(address) = expected.filter(|address| !address.variant.alias) {
        assert_eq!(site.url_of(&address), url, "encoding {address:?}");
    }
}

/// How a test case writes a decoded address: the route's `Debug` form, then the variant's
/// departures from the canonical spelling; "None" for URLs the engine does not have.
pub(crate) fn summary(address: Option<Address>) -> String {
    let Some(Address { route, variant }) = address else {
        return "None".to_string();
    };
    let mut text = format!("{route:?}");
    if variant.sort != SortOrder::LastPost {
        text += &format!(" sort={:?}", variant.sort);
    }
    if let Some(page) = variant.ignored_page {
        text += &format!(" ignored-page={page}");
    }
    if variant.answers != crate::route::AnswerOrder::Oldest {
        text += &format!(" answers={:?}", variant.answers);
    }
    for (flag, name) in [
        (variant.explicit_first_page, " explicit"),
        (variant.alias, " alias"),
    ] {
        text += if flag { name } else { "" };
    }
    text
}

/// Serves `url` at the end of history and reads it back from `charset`, asserting every
/// character was representable.
pub(crate) fn served_in(site: &Site, url: &str, charset: &'static Encoding) -> (u16, String) {
    let response = site.serve(url, crate::HISTORY_END_SECONDS, None);
    let (page, _, had_errors) = charset.decode(&response.body);
    assert!(!had_errors && !page.contains('\u{fffd}'), "{url}");
    // The encoder writes characters the charset lacks as numeric references; there must be none.
    assert!(!page.contains("&#"), "{url}");
    (response.status, page.into_owned())
}

/// Serves the canonical URL of `route` at the end of history, asserts that it answers 200 and
/// returns the page, which must be UTF-8.
pub(crate) fn served_canonical(site: &Site, route: Route) -> String {
    let url = site.url_of(&Address::canonical(route));
    let response = site.serve(&url, crate::HISTORY_END_SECONDS, None);
    assert_eq!(response.status, 200, "{url}");
    String::from_utf8(response.body).expect("utf-8")
}

/// One `check` per line: `url => route` (canonical spelling), `url => route, variant`, or
/// `url => None`. A macro keeps the table one case a line. Each case calls the
/// `check(url, expected)` function of the module the macro is used in, so that every family
/// decides what a check asserts.
macro_rules! cases {
    (@variant) => { $crate::Variant::default() };
    (@variant $variant:expr) => { $variant };
    ($($url:expr => $route:expr $(, $variant:expr)?;)*) => {$(
        let variant = $crate::families::test_support::cases!(@variant $($variant)?);
        check($url, ($route).map(|route| $crate::Address { route, variant }));
    )*};
}
pub(crate) use cases;

/// Asserts that a page holds every landmark; a macro keeps several landmarks a line.
macro_rules! contains {
    ($page:expr; $($landmark:expr),* $(,)?) => {$(
        assert!($page.contains($landmark), "missing {}", $landmark);
    )*};
}
pub(crate) use contains;

/// Constructors for `cases!` tables, where a case names an optional route and a variant.
pub(crate) mod table {
    use crate::families::common::action;
    use crate::route::{ActionKind, Route, Variant};

    /// Page `page` of board `board`.
    pub(crate) fn board(board: u32, page: u32) -> Option<Route> {
        Some(Route::Board { board, page })
    }

    /// Page `page` of thread `thread`.
    pub(crate) fn thread(thread: u32, page: u32) -> Option<Route> {
        Some(Route::Thread { thread, page })
    }

    /// The member-only action `kind` on `target`.
    pub(crate) fn act(kind: ActionKind, target: u32) -> Option<Route> {
        Some(action(kind, target))
    }

    /// The spelling that writes the first page's number out.
    pub(crate) fn explicit() -> Variant {
        Variant {
            explicit_first_page: true,
            ..Variant::default()
        }
    }

    /// The canonical spelling carrying session `token`.
    pub(crate) fn session(token: u64) -> Variant {
        Variant {
            session: Some(token),
            ..Variant::default()
        }
    }
}

/// Constructors for checks that spell out the whole expected address.
pub(crate) mod address {
    use crate::route::{Address, Route, Variant};

    /// The canonical spelling of `route`.
    pub(crate) fn at(route: Route) -> Option<Address> {
        Some(Address::canonical(route))
    }

    /// The canonical spelling of `route` with its variant changed by `change`.
    pub(crate) fn with(route: Route, change: impl FnOnce(&mut Variant)) -> Option<Address> {
        let mut address = Address::canonical(route);
        change(&mut address.variant);
        Some(address)
    }

    /// The spelling of `route` that writes the first page's number out.
    pub(crate) fn explicit(route: Route) -> Option<Address> {
        with(route, |variant| variant.explicit_first_page = true)
    }

    /// Page `page` of board `board`.
    pub(crate) fn board(board: u32, page: u32) -> Route {
        Route::Board { board, page }
    }

    /// Page `page` of thread `thread`.
    pub(crate) fn thread(thread: u32, page: u32) -> Route {
        Route::Thread { thread, page }
    }
}
