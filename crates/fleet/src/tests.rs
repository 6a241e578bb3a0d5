//! Leases on a real PostgreSQL (the test cluster of `scripts/test-postgres.sh`), with workers
//! racing on separate connections as separate processes would.

use std::collections::BTreeSet;
use std::time::Duration;

use trawl_store::test_support::fresh_database;
use trawl_store::{CrawlSettings, FetchOutcome, FrontierEntry, PageRecord, StoreError};

use super::*;

const SLICE: Duration = Duration::from_secs(60);

fn sites(count: usize) -> Vec<String> {
    (0..count)
        .map(|index| format!("http://forum{index}.test/"))
        .collect()
}

/// A fleet of `count` sites in a new database, with its URL.
fn fleet_of(count: usize) -> (Fleet, String) {
    let url = fresh_database();
    let mut fleet = Fleet::connect(&url).unwrap();
    assert_eq!(fleet.add_sites(&sites(count)).unwrap(), count);
    (fleet, url)
}

fn fetch_of(url: &str) -> FetchOutcome {
    FetchOutcome {
        page: PageRecord {
            url: url.into(),
            status: 200,
            ..PageRecord::default()
        },
        frontier_url: url.into(),
        requeued: false,
        queued: Vec::new(),
        cookies: None,
        skipped: Vec::new(),
    }
}

fn begin(store: &mut Store, site: &str) {
    let settings = CrawlSettings {
        portal: site.into(),
        strategy: "bfs".into(),
        plan_json: None,
        plan_generation: 0,
        started_at: jiff::Timestamp::UNIX_EPOCH,
        order: None,
        patterns_json: None,
    };
    let portal = FrontierEntry {
        url: site.into(),
        depth: 0,
        redirects: 0,
    };
    store.begin_crawl(&settings, &portal).unwrap();
}

#[test]
fn sites_are_added_once() {
    let (mut fleet, _) = fleet_of(3);
    assert_eq!(fleet.add_sites(&sites(5)).unwrap(), 2);
    assert_eq!(fleet.status().unwrap().len(), 5);
}

/// Workers claiming at the same time, each on its own connection: every site is claimed by
/// exactly one of them, whatever the interleaving.
#[test]
fn workers_racing_claim_each_site_once() {
    let (_, url) = fleet_of(40);
    let claims: Vec<Vec<Lease>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|worker| {
                let url = url.clone();
                scope.spawn(move || {
                    let mut fleet = Fleet::connect(&url).unwrap();
                    let mut mine = Vec::new();
                    loop {
                        let claimed = fleet.claim(&format!("worker-{worker}"), 3, SLICE).unwrap();
                        if claimed.is_empty() {
                            return mine;
                        }
                        mine.extend(claimed);
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap())
            .collect()
    });
    let all: Vec<&str> = claims.iter().flatten().map(|l| l.site.as_str()).collect();
    let distinct: BTreeSet<&str> = all.iter().copied().collect();
    assert_eq!(all.len(), 40, "claims: {claims:?}");
    assert_eq!(distinct.len(), 40, "a site claimed twice: {claims:?}");
    for lease in claims.iter().flatten() {
        assert_eq!(lease.epoch, 1);
    }
}

#[test]
fn a_site_given_back_is_claimed_again_when_due_and_not_before() {
    let (mut fleet, _) = fleet_of(2);
    let leases = fleet.claim("a", 10, SLICE).unwrap();
    assert_eq!(leases.len(), 2);
    assert!(fleet.claim("b", 10, SLICE).unwrap().is_empty(), "both held");
    fleet.heartbeat(&leases[0], SLICE).unwrap();
    fleet
        .give_back(&leases[0], Duration::from_secs(3600))
        .unwrap();
    fleet.give_back(&leases[1], Duration::ZERO).unwrap();
    let again = fleet.claim("b", 10, SLICE).unwrap();
    assert_eq!(again.len(), 1, "only the site due now");
    assert_eq!(again[0].site, leases[1].site);
    assert_eq!(again[0].epoch, 2);
    let status = fleet.status().unwrap();
    assert_eq!(status[0].lease_holder, None);
    assert!(status[0].due_in_seconds > 3000.0, "{status:?}");
    assert_eq!(status[1].lease_holder.as_deref(), Some("b"));
    assert_eq!(status[1].strategy, None, "no crawl begun");
    assert!(status[1].lease_left_seconds.unwrap() > 30.0, "{status:?}");
}

/// A worker whose lease expired (it stopped heartbeating) loses the site to another: its
/// heartbeat, give-back and store writes are all refused, and the new holder's writes land.
#[test]
fn an_expired_lease_is_taken_over_and_the_old_holders_writes_are_refused() {
    let (mut first, url) = fleet_of(1);
    let old = first.claim("old", 1, Duration::ZERO).unwrap().remove(0);
    let mut old_store = first.open_store(&old).unwrap();
    begin(&mut old_store, &old.site);

    let mut second = Fleet::connect(&url).unwrap();
    let new = second.claim("new", 1, SLICE).unwrap().remove(0);
    assert_eq!(
        (new.site.as_str(), new.epoch),
        (old.site.as_str(), old.epoch + 1)
    );

    let refused = old_store.record_fetch(&fetch_of(&old.site)).unwrap_err();
    assert!(matches!(refused, StoreError::LeaseLost { .. }), "{refused}");
    assert!(matches!(
        old_store.save_cookies(&[]),
        Err(StoreError::LeaseLost { .. })
    ));
    assert!(matches!(
        first.heartbeat(&old, SLICE),
        Err(FleetError::LeaseLost { .. })
    ));
    assert!(matches!(
        first.give_back(&old, Duration::ZERO),
        Err(FleetError::LeaseLost { .. })
    ));

    let mut new_store = second.open_store(&new).unwrap();
    assert_eq!(new_store.record_fetch(&fetch_of(&new.site)).unwrap(), 1);
    assert_eq!(
        old_store.page_count().unwrap(),
        1,
        "reading is never fenced"
    );
    assert_eq!(
        second.status().unwrap()[0].lease_holder.as_deref(),
        Some("new")
    );
}

/// Two workers running rounds at once over many sites: each site's work runs once, and every
/// site is given back.
#[test]
fn worker_rounds_racing_do_each_sites_work_once() {
    let (_, url) = fleet_of(12);
    let worked: Vec<Vec<String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|worker| {
                let url = url.clone();
                scope.spawn(move || {
                    let mut fleet = Fleet::connect(&url).unwrap();
                    let options = WorkerOptions {
                        worker: format!("worker-{worker}"),
                        sites_at_once: 2,
                        slice: SLICE,
                        retry_after: SLICE,
                    };
                    let mut worked = Vec::new();
                    loop {
                        let round = work_round(&mut fleet, &options, |lease, store, heartbeat| {
                            begin(store, &lease.site);
                            heartbeat.beat()?;
                            store.record_fetch(&fetch_of(&lease.site))?;
                            Ok::<_, FleetError>(Duration::from_secs(3600))
                        })
                        .unwrap();
                        assert!(round.failed.is_empty(), "{:?}", round.failed);
                        if round.found_nothing() {
                            return worked;
                        }
                        worked.extend(round.done.into_iter().map(|lease| lease.site));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| worker.join().unwrap())
            .collect()
    });
    let mut all: Vec<String> = worked.into_iter().flatten().collect();
    all.sort();
    assert_eq!(all, {
        let mut expected = sites(12);
        expected.sort();
        expected
    });
    let status = Fleet::connect(&url).unwrap().status().unwrap();
    for site in &status {
        assert_eq!(site.pages, 1, "{site:?}");
        assert_eq!(site.strategy.as_deref(), Some("bfs"), "{site:?}");
        assert_eq!(site.lease_holder, None, "{site:?}");
    }
}

/// Work whose lease was taken over while it ran fails on its next write; the round leaves the
/// site to its new holder and gives nothing back. Work that fails under a lease still held
/// gives its site back, due again after the retry time, and the round goes on with the next.
#[test]
fn a_round_leaves_a_site_lost_meanwhile_and_gives_back_a_failed_one_for_later() {
    let (mut fleet, url) = fleet_of(2);
    let options = WorkerOptions {
        worker: "old".into(),
        sites_at_once: 2,
        slice: Duration::ZERO,
        retry_after: Duration::ZERO,
    };
    let mut rival = Fleet::connect(&url).unwrap();
    let mut taken = Vec::new();
    let round = work_round(&mut fleet, &options, |_, store, _| {
        // The lease of no time has expired already; a rival takes the site over.
        taken.extend(rival.claim("rival", 1, SLICE).unwrap());
        store.save_cookies(&[])?;
        Ok::<_, StoreError>(Duration::ZERO)
    })
    .unwrap();
    assert!(round.found_nothing(), "{round:?}");
    assert_eq!(taken.len(), 2);
    let status = rival.status().unwrap();
    assert!(
        status
            .iter()
            .all(|site| site.lease_holder.as_deref() == Some("rival"))
    );

    let (mut fleet, _) = fleet_of(2);
    let options = WorkerOptions {
        slice: SLICE,
        retry_after: Duration::from_secs(3600),
        ..options
    };
    let round = work_round(&mut fleet, &options, |lease, _, _| {
        if lease.site == sites(2)[0] {
            Err(std::io::Error::other("the forum answered nonsense"))
        } else {
            Ok(Duration::from_secs(60))
        }
    })
    .unwrap();
    assert_eq!(round.done.len(), 1);
    assert_eq!(round.failed.len(), 1);
    assert_eq!(round.failed[0].0.site, sites(2)[0]);
    let status = fleet.status().unwrap();
    assert!(
        status.iter().all(|site| site.lease_holder.is_none()),
        "{status:?}"
    );
    assert!(status[0].due_in_seconds > 3000.0, "{status:?}");
    assert!(status[1].due_in_seconds < 100.0, "{status:?}");
}

/// Claims every site of a fleet of `count` for one worker, after setting the budgets given.
fn budgeted_fleet(
    count: usize,
    fleet_pages: Option<i64>,
    site_pages: Option<i64>,
) -> (Fleet, String, Vec<Lease>) {
    let (mut fleet, url) = fleet_of(count);
    fleet.set_fleet_budget(fleet_pages).unwrap();
    for site in sites(count) {
        assert!(fleet.set_site_budget(&site, site_pages).unwrap());
    }
    let leases = fleet.claim("worker-a", count, SLICE).unwrap();
    assert_eq!(leases.len(), count);
    (fleet, url, leases)
}

/// Reserves `asked` pages one request after another on one site and compares the grants.
fn check_grants(
    fleet_pages: Option<i64>,
    site_pages: Option<i64>,
    asked: &[usize],
    granted: &[usize],
) {
    let (mut fleet, _url, leases) = budgeted_fleet(1, fleet_pages, site_pages);
    let grants: Vec<usize> = asked
        .iter()
        .map(|&wanted| fleet.reserve_pages(&leases[0], wanted).unwrap())
        .collect();
    assert_eq!(
        grants, granted,
        "fleet {fleet_pages:?}, site {site_pages:?}, asked {asked:?}"
    );
}

#[test]
fn reservations_are_granted_within_the_smaller_budget() {
    check_grants(None, None, &[500, 500], &[500, 500]);
    check_grants(Some(100), None, &[30, 30, 30, 30, 30], &[30, 30, 30, 10, 0]);
    check_grants(None, Some(40), &[30, 30, 30], &[30, 10, 0]);
    check_grants(Some(100), Some(40), &[30, 30], &[30, 10]);
    check_grants(Some(0), None, &[10], &[0]);
}

#[test]
fn pages_given_back_can_be_reserved_again_the_same_day() {
    let (mut fleet, _url, leases) = budgeted_fleet(1, Some(100), Some(40));
    assert_eq!(fleet.reserve_pages(&leases[0], 30).unwrap(), 30);
    fleet.return_pages(&leases[0], 20).unwrap();
    assert_eq!(fleet.fleet_budget().unwrap().reserved_today, 10);
    assert_eq!(fleet.reserve_pages(&leases[0], 50).unwrap(), 30);
}

#[test]
fn a_lost_lease_reserves_nothing() {
    let (mut fleet, url, leases) = budgeted_fleet(1, Some(100), None);
    let mut other = Fleet::connect(&url).unwrap();
    // The lease expires at once, and another worker claims the site.
    fleet.heartbeat(&leases[0], Duration::ZERO).unwrap();
    assert_eq!(other.claim("worker-b", 1, SLICE).unwrap().len(), 1);
    assert!(matches!(
        fleet.reserve_pages(&leases[0], 10),
        Err(FleetError::LeaseLost { .. })
    ));
    assert_eq!(fleet.fleet_budget().unwrap().reserved_today, 0);
}

#[test]
fn a_budget_of_a_past_day_counts_as_nothing_reserved() {
    let (mut fleet, _url, leases) = budgeted_fleet(1, Some(50), Some(50));
    assert_eq!(fleet.reserve_pages(&leases[0], 50).unwrap(), 50);
    fleet
        .client
        .batch_execute(
            "UPDATE fleet_budget SET day = current_date - 1; \
             UPDATE site_budgets SET day = current_date - 1",
        )
        .unwrap();
    assert_eq!(fleet.fleet_budget().unwrap().reserved_today, 0);
    assert_eq!(fleet.reserve_pages(&leases[0], 20).unwrap(), 20);
    // What was reserved yesterday is not given back to today's budget.
    fleet.return_pages(&leases[0], 0).unwrap();
    assert_eq!(fleet.fleet_budget().unwrap().reserved_today, 20);
}

#[test]
fn two_workers_reserving_at_once_never_pass_the_fleet_budget() {
    let (mut fleet, url) = fleet_of(2);
    fleet.set_fleet_budget(Some(1_000)).unwrap();
    let first = fleet.claim("worker-a", 1, SLICE).unwrap().remove(0);
    let mut other = Fleet::connect(&url).unwrap();
    let second = other.claim("worker-b", 1, SLICE).unwrap().remove(0);
    assert_ne!(first.site_id, second.site_id);
    let reserve_all = |mut worker: Fleet, lease: Lease| {
        std::thread::spawn(move || {
            let mut total = 0;
            loop {
                let granted = worker.reserve_pages(&lease, 7).unwrap();
                if granted == 0 {
                    return total;
                }
                total += granted;
            }
        })
    };
    let a = reserve_all(Fleet::connect(&url).unwrap(), first);
    let b = reserve_all(Fleet::connect(&url).unwrap(), second);
    let (a, b) = (a.join().unwrap(), b.join().unwrap());
    assert_eq!(a + b, 1_000, "worker a {a}, worker b {b}");
    assert!(
        a > 0 && b > 0,
        "both workers were granted pages: {a} and {b}"
    );
    assert_eq!(fleet.fleet_budget().unwrap().reserved_today, 1_000);
}

#[test]
fn the_last_audit_of_a_site_is_shown_and_a_lost_lease_records_none() {
    let (mut fleet, url) = fleet_of(2);
    let leases = fleet.claim("worker-a", 2, SLICE).unwrap();
    let audit = |gaps, posts_missing| AuditSummary {
        gaps,
        posts_missing,
    };
    fleet.record_audit(&leases[0], audit(3, 40)).unwrap();
    fleet.record_audit(&leases[0], audit(1, 5)).unwrap();
    // The second lease expires and another worker claims its site.
    fleet.heartbeat(&leases[1], Duration::ZERO).unwrap();
    let mut other = Fleet::connect(&url).unwrap();
    assert_eq!(other.claim("worker-b", 1, SLICE).unwrap().len(), 1);
    assert!(matches!(
        fleet.record_audit(&leases[1], audit(9, 9)),
        Err(FleetError::LeaseLost { .. })
    ));
    let audits: Vec<Option<AuditSummary>> = fleet
        .status()
        .unwrap()
        .iter()
        .map(|site| site.audit)
        .collect();
    assert_eq!(audits, [Some(audit(1, 5)), None]);
}

/// A site marked watched stays watched for every later lease, and an old holder cannot mark it.
#[test]
fn a_site_is_watched_from_the_lease_that_marks_it_and_an_old_holder_cannot_mark_one() {
    let (mut fleet, _url) = fleet_of(2);
    let first = fleet.claim("first", 2, SLICE).unwrap();
    assert_eq!(first.len(), 2);
    assert!(!fleet.is_watched(&first[0]).unwrap());
    fleet.start_watching(&first[0]).unwrap();
    // Marking twice is harmless: a lease retried after a failure marks again.
    fleet.start_watching(&first[0]).unwrap();
    assert!(fleet.is_watched(&first[0]).unwrap());
    assert!(!fleet.is_watched(&first[1]).unwrap());
    fleet.give_back(&first[0], Duration::ZERO).unwrap();
    let again = fleet.claim("second", 1, SLICE).unwrap();
    assert_eq!(again[0].site_id, first[0].site_id);
    assert!(fleet.is_watched(&again[0]).unwrap());

    // The second site's lease is taken over after it expired: its old holder is refused.
    fleet
        .client
        .execute(
            "UPDATE sites SET lease_expires = now() WHERE id = $1",
            &[&first[1].site_id],
        )
        .unwrap();
    let taken = fleet.claim("third", 1, SLICE).unwrap();
    assert_eq!(taken[0].site_id, first[1].site_id);
    assert!(matches!(
        fleet.start_watching(&first[1]),
        Err(FleetError::LeaseLost { .. })
    ));
    assert!(!fleet.is_watched(&taken[0]).unwrap());
    assert_eq!(fleet.watched_sites().unwrap(), 1);
}

/// Sites waiting for a worker are the due ones no one holds.
#[test]
fn sites_waiting_are_due_and_free() {
    let (mut fleet, _url) = fleet_of(3);
    assert_eq!(fleet.sites_waiting().unwrap(), 3);
    let held = fleet.claim("first", 1, SLICE).unwrap();
    assert_eq!(fleet.sites_waiting().unwrap(), 2);
    let other = fleet.claim("first", 1, SLICE).unwrap();
    fleet
        .give_back(&other[0], Duration::from_secs(3600))
        .unwrap();
    assert_eq!(fleet.sites_waiting().unwrap(), 1);
    fleet.give_back(&held[0], Duration::ZERO).unwrap();
    assert_eq!(fleet.sites_waiting().unwrap(), 2);
}

/// A heartbeat whose connection the server dropped (`pg_terminate_backend`, as an administrator
/// or a restart would) connects again and renews the lease, which stays this worker's: without
/// it the lease would run out while the work went on fetching, and a successor would fetch from
/// the same forum at the same time.
#[test]
fn a_heartbeat_whose_connection_was_dropped_connects_again_and_keeps_the_lease() {
    let (mut fleet, url) = fleet_of(1);
    let lease = fleet
        .claim("worker", 1, Duration::from_secs(2))
        .unwrap()
        .remove(0);
    let own_backend: i32 = fleet
        .client
        .query_one("SELECT pg_backend_pid()", &[])
        .unwrap()
        .get(0);
    let mut administrator = postgres::Client::connect(&url, NoTls).unwrap();
    administrator
        .execute("SELECT pg_terminate_backend($1)", &[&own_backend])
        .unwrap();
    let mut heartbeat = Heartbeat {
        fleet: &mut fleet,
        lease: &lease,
        slice: SLICE,
    };
    heartbeat.beat().unwrap();
    // Renewed for a minute: a rival finds nothing to claim once the first slice is over.
    std::thread::sleep(Duration::from_secs(3));
    let mut rival = Fleet::connect(&url).unwrap();
    assert!(rival.claim("rival", 1, SLICE).unwrap().is_empty());
    assert!(fleet.holds(&lease).unwrap());
    let status = fleet.status().unwrap();
    assert_eq!(status[0].lease_holder.as_deref(), Some("worker"));
    assert_eq!(status[0].lease_epoch, lease.epoch);
}

/// A claim says how long the site has been quiet since the last write under an earlier lease:
/// nothing for a site never written to, and for one written to, no more than the time since
/// that write (which the next holder keeps the politeness delay from).
#[test]
fn a_claim_says_how_long_the_site_has_been_quiet_since_the_last_lease_wrote() {
    let (mut fleet, url) = fleet_of(1);
    let first = fleet.claim("first", 1, SLICE).unwrap().remove(0);
    assert_eq!(first.quiet_for, None);
    let mut store = fleet.open_store(&first).unwrap();
    begin(&mut store, &first.site);
    let written = std::time::Instant::now();
    store.record_fetch(&fetch_of(&first.site)).unwrap();
    drop(store);
    fleet.give_back(&first, Duration::ZERO).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let mut other = Fleet::connect(&url).unwrap();
    let second = other.claim("second", 1, SLICE).unwrap().remove(0);
    let quiet = second.quiet_for.expect("the first lease wrote");
    assert!(
        quiet >= Duration::from_millis(150) && quiet <= written.elapsed(),
        "quiet for {quiet:?}, written {:?} ago",
        written.elapsed()
    );
}
