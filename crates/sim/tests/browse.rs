//! Browse logs written by the simulator: well-formed combined log lines naming only pages the
//! server shows, for every family, with the behaviours readers have.

mod common;

use common::{SEED, small_site};
use trawl_sim::browse::{BrowseLogConfig, LoggedRequest, browse_log};
use trawl_sim::{FamilyName, Route, Site};

/// One line's fields: address, time, path, status, referrer, agent.
struct Fields {
    address: String,
    path: String,
    status: u16,
    referrer: String,
}

/// Reads a combined log line strictly; panics with the line when it is not one.
fn fields_of(line: &str) -> Fields {
    let (address, rest) = line.split_once(" - - [").expect(line);
    let (_time, rest) = rest.split_once("] \"GET ").expect(line);
    let (path, rest) = rest.split_once(" HTTP/1.1\" ").expect(line);
    let mut parts = rest.splitn(3, ' ');
    let status = parts.next().expect(line).parse().expect(line);
    let _bytes: usize = parts.next().expect(line).parse().expect(line);
    let quoted = parts.next().expect(line);
    let (referrer, agent) = quoted
        .strip_prefix('"')
        .and_then(|rest| rest.split_once("\" \""))
        .expect(line);
    assert!(agent.ends_with('"'), "{line}");
    Fields {
        address: address.to_string(),
        path: path.to_string(),
        status,
        referrer: referrer.to_string(),
    }
}

fn log_of(site: &Site, users: u32, days: u32) -> Vec<LoggedRequest> {
    browse_log(site, &BrowseLogConfig::last_days(site, 5, users, days))
}

#[test]
fn every_family_logs_well_formed_lines_of_pages_it_serves() {
    for family in FamilyName::ALL {
        let site = small_site(family);
        let log = log_of(&site, 12, 3);
        assert!(log.len() > 50, "{}: {} lines", family.name(), log.len());
        assert!(log.windows(2).all(|pair| pair[0].at <= pair[1].at));
        for request in &log {
            let fields = fields_of(&request.line);
            assert!(fields.address.starts_with("10."));
            assert!(
                site.address_of(&fields.path).is_some(),
                "{}: no such page {}",
                family.name(),
                fields.path
            );
            // Families that keep profiles and the member list for members answer guests
            // with their login wall, and a server logs that status.
            let members_only = matches!(
                site.address_of(&fields.path).map(|address| address.route),
                Some(Route::Profile { .. } | Route::MemberList { .. })
            ) && site.family().profile().profiles_need_login;
            assert!(
                matches!(fields.status, 200 | 301 | 302 | 303)
                    || (members_only && matches!(fields.status, 401 | 403)),
                "{}: {} answered {}",
                family.name(),
                fields.path,
                fields.status
            );
            let referrer = &fields.referrer;
            assert!(
                referrer == "-"
                    || referrer.starts_with("https://www.search.example/")
                    || referrer
                        .strip_prefix("http://forum.test")
                        .is_some_and(|path| site.address_of(path).is_some()),
                "{}: referrer {referrer}",
                family.name()
            );
        }
    }
}

#[test]
fn the_same_seed_writes_the_same_log() {
    let site = small_site(FamilyName::Phpbb);
    assert_eq!(log_of(&site, 10, 2), log_of(&site, 10, 2));
    let other = browse_log(&site, &BrowseLogConfig::last_days(&site, 6, 10, 2));
    assert_ne!(log_of(&site, 10, 2), other);
}

/// How many logged page views are of each behaviour the issue asks for.
#[derive(Debug, Default)]
struct Behaviours {
    views: usize,
    portal_entries: usize,
    search_engine_entries: usize,
    next_thread_pages: usize,
    jumps_to_last_page: usize,
    profiles: usize,
    searches: usize,
    logins: usize,
    views_of_new_threads: usize,
}

fn behaviours_of(site: &Site, log: &[LoggedRequest]) -> Behaviours {
    let mut behaviours = Behaviours::default();
    let day = 86_400;
    for request in log {
        let fields = fields_of(&request.line);
        let route = site.address_of(&fields.path).expect("known page").route;
        let from = fields
            .referrer
            .strip_prefix("http://forum.test")
            .and_then(|path| site.address_of(path))
            .map(|address| address.route);
        behaviours.views += 1;
        match (&route, &from) {
            (Route::Portal, None) => behaviours.portal_entries += 1,
            (Route::Thread { .. }, None) if fields.referrer.contains("search.example") => {
                behaviours.search_engine_entries += 1
            }
            (
                Route::Thread { thread, page },
                Some(Route::Thread {
                    thread: before,
                    page: was,
                }),
            ) if thread == before => {
                if *page == was + 1 {
                    behaviours.next_thread_pages += 1;
                } else if *was == 1 && *page > 2 {
                    behaviours.jumps_to_last_page += 1;
                }
            }
            (Route::Profile { .. }, _) => behaviours.profiles += 1,
            (Route::Search { .. }, _) => behaviours.searches += 1,
            (Route::Login { .. }, _) => behaviours.logins += 1,
            _ => {}
        }
        if let Route::Thread { thread, .. } = route {
            let created = site.history().thread(thread).expect("thread").created;
            if request.at - created < 7 * day {
                behaviours.views_of_new_threads += 1;
            }
        }
    }
    behaviours
}

#[test]
fn readers_behave_as_forum_readers_do() {
    let site = Site::build(trawl_sim::SiteConfig::new(
        FamilyName::Phpbb,
        SEED,
        trawl_sim::Scale::Medium,
    ));
    let log = log_of(&site, 60, 7);
    let behaviours = behaviours_of(&site, &log);
    let share = |count: usize| count as f64 / behaviours.views as f64;
    assert!(share(behaviours.portal_entries) > 0.05, "{behaviours:?}");
    assert!(
        share(behaviours.search_engine_entries) > 0.02,
        "{behaviours:?}"
    );
    assert!(share(behaviours.next_thread_pages) > 0.01, "{behaviours:?}");
    assert!(behaviours.jumps_to_last_page > 0, "{behaviours:?}");
    assert!(behaviours.profiles > 0, "{behaviours:?}");
    assert!(behaviours.searches > 0, "{behaviours:?}");
    assert!(behaviours.logins > 0, "{behaviours:?}");
    // New threads are read more than old: threads younger than a week are a small share of the
    // year's threads but draw a large share of thread views.
    let end = site.history().end;
    let threads = site.history().threads_up_to(end) as f64;
    let young = (site.history().threads_up_to(end)
        - site.history().threads_up_to(end - 14 * 86_400)) as f64;
    let thread_views = log
        .iter()
        .filter(|request| {
            matches!(
                site.address_of(&fields_of(&request.line).path)
                    .map(|a| a.route),
                Some(Route::Thread { .. })
            )
        })
        .count() as f64;
    assert!(
        behaviours.views_of_new_threads as f64 / thread_views > 3.0 * young / threads,
        "{behaviours:?}, young threads {young} of {threads}"
    );
}

#[test]
fn sessions_follow_the_daily_cycle() {
    let site = small_site(FamilyName::Phpbb);
    let log = log_of(&site, 40, 10);
    let offset = i64::from(site.history().utc_offset_seconds);
    let mut by_hour = [0usize; 24];
    for request in &log {
        let local_hour = ((request.at + offset).rem_euclid(86_400) / 3_600) as usize;
        by_hour[local_hour] += 1;
    }
    let night: usize = by_hour[2..6].iter().sum();
    let evening: usize = by_hour[18..22].iter().sum();
    assert!(evening > 4 * night, "by hour {by_hour:?}");
}
