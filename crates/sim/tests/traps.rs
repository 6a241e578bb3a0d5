//! Each trap can be switched off, and when off leaves no trace in the truth or the pages.

mod common;

use common::{decode_body, small_site_with};
use trawl_sim::truth::UrlTruth;
use trawl_sim::{Address, FamilyName, PageClass, Role, Route, Site, SortOrder, Traps};

/// Checks that `trap` produces URLs matching `sign` when on, and none when off, in every family.
fn check(trap: &str, sign: fn(&Site, &UrlTruth) -> bool) {
    for family in FamilyName::ALL {
        for on in [true, false] {
            let mut traps = Traps::all();
            traps.set(trap, on).unwrap();
            let site = small_site_with(family, traps);
            let mut found = 0;
            site.for_each_url_truth(site.history().end, |truth| {
                found += usize::from(sign(&site, &truth))
            });
            if on {
                assert!(found > 0, "{}: trap {trap} on but absent", family.name());
            } else {
                assert_eq!(found, 0, "{}: trap {trap} off but present", family.name());
            }
        }
    }
}

#[test]
fn sort_orders() {
    check("sort-orders", |site, t| {
        site.address_of(&t.url)
            .is_some_and(|a| a.variant.sort != SortOrder::LastPost)
    });
}

#[test]
fn permalinks() {
    check("permalinks", |_, t| t.role == Role::Post);
}

#[test]
fn print_views() {
    check("print-views", |_, t| t.role == Role::Print);
}

#[test]
fn archive_views() {
    check("archive-views", |_, t| t.role == Role::Archive);
}

#[test]
fn login_walls() {
    check("login-walls", |site, t| {
        t.role == Role::Login
            && t.url != site.url_of(&Address::canonical(Route::Login { next: None }))
    });
}

#[test]
fn endless_spaces() {
    check("endless", |_, t| t.class == PageClass::Endless);
}

#[test]
fn profiles() {
    check("profiles", |_, t| {
        matches!(t.role, Role::Profile | Role::Memberlist)
    });
}

#[test]
fn explicit_first_page() {
    check("explicit-first-page", |site, t| {
        site.address_of(&t.url)
            .is_some_and(|a| a.variant.explicit_first_page)
    });
}

/// Traps that show on pages rather than as URLs: checked on a rendered thread page.
#[test]
fn page_level_traps_show_only_when_on() {
    for family in FamilyName::ALL {
        let render = |traps: Traps| {
            let site = small_site_with(family, traps);
            let at = site.history().end;
            let thread = site.history().thread_count() / 2;
            let url = site.url_of(&trawl_sim::Address::canonical(trawl_sim::Route::Thread {
                thread,
                page: 1,
            }));
            decode_body(&site, &site.serve(&url, at, None).body)
        };
        let with = render(Traps::all());
        let without = render(Traps::none());
        assert!(with.len() > without.len(), "{}", family.name());
        assert!(
            with.contains("ads.example.net"),
            "{}: no advertisement",
            family.name()
        );
        assert!(
            !without.contains("ads.example.net"),
            "{}: advertisement with traps off",
            family.name()
        );
    }
}
