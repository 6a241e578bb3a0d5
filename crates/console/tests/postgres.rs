//! The console over PostgreSQL: a database holding two forums' crawls offers a site picker, and
//! each site's views and plan saves reach that site's rows only. Run through
//! scripts/test-postgres.sh, which starts the server these tests need.

mod support;

use trawl_learn::plan::Plan;
use trawl_sim::FamilyName;
use trawl_store::test_support::fresh_database;
use trawl_store::{Store, StoreLocation};

use support::{client, crawl_into, get, post_form, serve};

fn generation_of(location: &StoreLocation, site: &str) -> (Plan, u32) {
    let store = Store::open_existing(location, Some(site), true).unwrap();
    let settings = store.settings().unwrap().unwrap();
    (
        Plan::from_json(settings.plan_json.as_deref().unwrap()).unwrap(),
        settings.plan_generation,
    )
}

#[test]
fn a_fleet_database_offers_its_sites_and_saves_to_the_one_picked() {
    let url = fresh_database();
    let location = StoreLocation::Postgres(url.clone());
    // Two forums under two site names (the simulator serves both under one origin).
    let sites = ["http://first.sim.test/", "http://second.sim.test/"];
    for (site, family) in sites.iter().zip([FamilyName::Phpbb, FamilyName::Vbulletin]) {
        let mut store = Store::open_at(&location, site).unwrap();
        crawl_into(&mut store, family, 5);
    }
    let console = serve(location.clone());
    assert_eq!(console.sites(), sites);
    let base = format!("http://{}", console.address());
    let agent = client();
    let (status, picker) = get(&agent, &format!("{base}/"));
    assert_eq!(status, 200);
    for (index, site) in sites.iter().enumerate() {
        assert!(
            picker.contains(&format!("<a href=\"/site/{index}/\">{site}</a>")),
            "{picker}"
        );
        for view in ["", "plan", "audit", "threads", "vertex/0"] {
            let (status, body) = get(&agent, &format!("{base}/site/{index}/{view}"));
            assert_eq!(status, 200, "site {index} {view}: {body}");
            assert!(
                body.contains("<a href=\"/\">sites</a>"),
                "the picker is linked"
            );
        }
    }
    // A change saved on the second site leaves the first alone.
    let (plan, _) = generation_of(&location, sites[1]);
    let arc = plan
        .arcs
        .iter()
        .position(|arc| arc.decision == trawl_learn::traverse::Decision::Skip)
        .unwrap();
    let field = format!("arc-{arc}");
    let (status, saved) = post_form(
        &agent,
        &format!("{base}/site/1/save"),
        &[("generation", "0"), (field.as_str(), "follow")],
    );
    assert_eq!(status, 200, "{saved}");
    assert_eq!(generation_of(&location, sites[1]).1, 1);
    assert_eq!(generation_of(&location, sites[0]).1, 0);
    console.stop();
}
