//! The console over a real crawl, through HTTP: every view loads, a change of decisions is
//! previewed and saved as a new plan generation, stale forms and missing things are refused,
//! and a console on a non-loopback address asks for its token.

mod support;

use trawl_console::{ConsoleError, ConsoleOptions, plan_edit};
use trawl_learn::plan::Plan;
use trawl_learn::traverse::Decision;
use trawl_store::{Store, StoreLocation};

use support::{client, crawled_file, get, post_form, serve};

fn stored_plan(location: &StoreLocation) -> (Plan, u32) {
    let store = Store::open_existing(location, None, true).unwrap();
    let settings = store.settings().unwrap().unwrap();
    (
        Plan::from_json(settings.plan_json.as_deref().unwrap()).unwrap(),
        settings.plan_generation,
    )
}

/// The first skipped arc with a target outside the traversal: following it adds pages.
fn arc_that_adds(plan: &Plan) -> usize {
    let reached = plan_edit::reached_vertices(plan);
    plan.arcs
        .iter()
        .position(|arc| {
            arc.decision == Decision::Skip
                && reached[arc.source]
                && arc.target.is_some_and(|target| !reached[target])
        })
        .expect("the learned plan skips an arc to a vertex it does not reach")
}

#[test]
fn every_view_loads_and_a_saved_change_is_a_new_generation() {
    let path = crawled_file("views");
    let location = StoreLocation::File(path.clone());
    let console = serve(location.clone());
    let base = format!("http://{}", console.address());
    let agent = client();
    // One crawl: the index leads to its overview.
    let (status, overview) = get(&agent, &format!("{base}/"));
    assert_eq!(status, 200);
    assert!(overview.contains("id=\"pages\">250<"), "{overview}");
    let (plan, generation) = stored_plan(&location);
    assert_eq!(generation, 0);
    for view in [
        "plan", "plan.svg", "audit", "threads", "vertex/0", "vertex/1",
    ] {
        let (status, body) = get(&agent, &format!("{base}/site/0/{view}"));
        assert_eq!(status, 200, "{view}: {body}");
    }
    for asset in ["console.css", "console.js"] {
        assert_eq!(get(&agent, &format!("{base}/assets/{asset}")).0, 200);
    }
    // The plan page draws every vertex as a link.
    let (_, plan_page) = get(&agent, &format!("{base}/site/0/plan"));
    assert_eq!(
        plan_page.matches("data-vertex=").count(),
        plan.vertices.len()
    );
    // A thread reassembled, from the thread list.
    let (_, threads) = get(&agent, &format!("{base}/site/0/threads"));
    let first_thread = threads
        .split("href=\"/site/0/thread?url=")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the crawl put a thread together");
    let (status, thread) = get(&agent, &format!("{base}/site/0/thread?url={first_thread}"));
    assert_eq!(status, 200);
    assert!(thread.contains("class=\"post\""), "{thread}");
    // The audit is made on a thread of its own; the view refreshes itself until it is there.
    let audit = wait_for_audit(&agent, &base);
    assert!(audit.contains("The crawl is incomplete"), "{audit}");
    assert!(audit.contains("waiting in the frontier"), "{audit}");
    assert!(!audit.contains("id=\"stale\""), "{audit}");
    // A page more in the store: the audit shown says it is older, and a new one follows.
    {
        let mut store = Store::open(&path).unwrap();
        let mut fetched = trawl_store::PageRecord {
            url: "http://forum.sim.test/extra".into(),
            status: 404,
            ..trawl_store::PageRecord::default()
        };
        fetched.fetched_at = jiff::Timestamp::from_second(1_800_000_000).unwrap();
        store
            .record_fetch(&trawl_store::FetchOutcome {
                page: fetched,
                frontier_url: "http://forum.sim.test/extra".into(),
                requeued: false,
                queued: Vec::new(),
                cookies: None,
                skipped: Vec::new(),
            })
            .unwrap();
    }
    let (_, stale) = get(&agent, &format!("{base}/site/0/audit"));
    assert!(
        stale.contains("read the crawl at 250 pages; it holds 251 now"),
        "{stale}"
    );
    let started = std::time::Instant::now();
    loop {
        let (_, audit) = get(&agent, &format!("{base}/site/0/audit"));
        if !audit.contains("id=\"stale\"") {
            assert!(
                audit.contains("<dt>pages fetched</dt><dd>251</dd>"),
                "{audit}"
            );
            break;
        }
        assert!(started.elapsed().as_secs() < 60, "the new audit never came");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let (_, overview) = get(&agent, &format!("{base}/site/0/"));
    assert!(overview.contains("id=\"pages\">251<"), "{overview}");
    assert!(overview.contains("id=\"errors\">1 "), "{overview}");
    // Missing things are told, not shown as empty pages.
    assert_eq!(get(&agent, &format!("{base}/site/0/vertex/9999")).0, 404);
    assert_eq!(get(&agent, &format!("{base}/site/7/")).0, 404);
    assert_eq!(
        get(
            &agent,
            &format!("{base}/site/0/thread?url=http%3A%2F%2Fnone.test%2F")
        )
        .0,
        404
    );
    // Preview a change: the counts shown are the sample's.
    let arc = arc_that_adds(&plan);
    let field = format!("arc-{arc}");
    let form = [
        ("generation", "0"),
        ("vertex", "0"),
        (field.as_str(), "follow"),
    ];
    let (status, preview) = post_form(&agent, &format!("{base}/site/0/preview"), &form);
    assert_eq!(status, 200, "{preview}");
    let changed = plan_edit::apply_changes(
        &plan,
        &[plan_edit::DecisionChange {
            arc,
            decision: Decision::Follow,
        }],
    )
    .unwrap();
    let expected = plan_edit::preview(&plan, &changed);
    assert!(expected.pages_after > expected.pages_before);
    assert!(
        preview.contains(&format!(
            "{} → <strong>{}</strong>",
            expected.pages_before, expected.pages_after
        )),
        "{preview}"
    );
    // Nothing is saved by a preview.
    assert_eq!(stored_plan(&location).1, 0);
    // Save: a new generation holding exactly the changed plan.
    let (status, saved) = post_form(&agent, &format!("{base}/site/0/save"), &form);
    assert_eq!(status, 200, "{saved}");
    assert!(saved.contains("Saved as plan generation 1"), "{saved}");
    let (after, generation) = stored_plan(&location);
    assert_eq!(generation, 1);
    assert_eq!(after, changed);
    // The same form again is stale: the plan moved on.
    let (status, stale) = post_form(&agent, &format!("{base}/site/0/save"), &form);
    assert_eq!(status, 409, "{stale}");
    assert_eq!(stored_plan(&location).1, 1);
    // A post from another origin is refused.
    let body = "generation=1&arc-0=skip";
    let refused = agent
        .post(&format!("{base}/site/0/save"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Origin", "http://elsewhere.test")
        .send(body)
        .unwrap();
    assert_eq!(refused.status().as_u16(), 400);
    assert_eq!(stored_plan(&location).1, 1);
    console.stop();
    trawl_store::remove_database_files(&path);
}

/// The audit view once the audit is made.
fn wait_for_audit(agent: &ureq::Agent, base: &str) -> String {
    let started = std::time::Instant::now();
    loop {
        let (status, audit) = get(agent, &format!("{base}/site/0/audit"));
        assert_eq!(status, 200, "{audit}");
        if audit.contains("id=\"verdict\"") {
            return audit;
        }
        assert!(audit.contains("id=\"making\""), "{audit}");
        assert!(started.elapsed().as_secs() < 60, "the audit never came");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_console_off_loopback_asks_for_its_token() {
    let path = crawled_file("token");
    let console = trawl_console::start(ConsoleOptions {
        location: StoreLocation::File(path.clone()),
        address: "0.0.0.0:0".parse().unwrap(),
        token: None,
    })
    .unwrap();
    let token = console.token().expect("a token was generated").to_string();
    let base = format!("http://127.0.0.1:{}", console.address().port());
    let agent = client();
    let (status, refused) = get(&agent, &format!("{base}/site/0/plan"));
    assert_eq!(status, 401, "{refused}");
    assert_eq!(get(&agent, &format!("{base}/assets/console.css")).0, 401);
    let (status, _) = get(&agent, &format!("{base}/site/0/plan?token=wrong"));
    assert_eq!(status, 401);
    // The token in the query is traded for a cookie; the redirect drops it from the address.
    let mut traded = agent
        .get(&format!("{base}/site/0/page?url=x&token={token}"))
        .config()
        .max_redirects(0)
        .build()
        .call()
        .unwrap();
    assert_eq!(traded.status().as_u16(), 303);
    assert_eq!(
        traded.headers().get("location").unwrap(),
        "/site/0/page?url=x"
    );
    let cookie = traded
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let _ = traded.body_mut().read_to_string();
    let mut with_cookie = agent
        .get(&format!("{base}/site/0/plan"))
        .header("Cookie", &cookie)
        .call()
        .unwrap();
    assert_eq!(with_cookie.status().as_u16(), 200);
    let _ = with_cookie.body_mut().read_to_string();
    let with_header = agent
        .get(&format!("{base}/site/0/plan"))
        .header("Authorization", &format!("Bearer {token}"))
        .call()
        .unwrap();
    assert_eq!(with_header.status().as_u16(), 200);
    console.stop();
    trawl_store::remove_database_files(&path);
}

#[test]
fn a_missing_database_or_one_without_a_crawl_is_refused() {
    let missing =
        std::env::temp_dir().join(format!("trawl-console-none-{}.db", std::process::id()));
    trawl_store::remove_database_files(&missing);
    let error = trawl_console::start(ConsoleOptions {
        location: StoreLocation::File(missing.clone()),
        address: "127.0.0.1:0".parse().unwrap(),
        token: None,
    })
    .unwrap_err();
    assert!(matches!(error, ConsoleError::Store(_)), "{error:?}");
    assert!(!missing.exists(), "the console must create nothing");
    // An empty crawl database: made, but never crawled.
    drop(Store::open(&missing).unwrap());
    let error = trawl_console::start(ConsoleOptions {
        location: StoreLocation::File(missing.clone()),
        address: "127.0.0.1:0".parse().unwrap(),
        token: None,
    })
    .unwrap_err();
    assert!(error.to_string().contains("holds no crawl"), "{error}");
    trawl_store::remove_database_files(&missing);
}

#[test]
fn a_page_of_a_vertex_is_drawn_with_its_regions_and_nothing_that_loads() {
    let path = crawled_file("rendered");
    let location = StoreLocation::File(path.clone());
    let (plan, _) = stored_plan(&location);
    let console = serve(location);
    let base = format!("http://{}", console.address());
    let agent = client();
    // The first thread vertex the crawl holds a page of links it drawn.
    let drawn = (0..plan.vertices.len())
        .filter(|&vertex| plan.vertices[vertex].role == trawl_learn::sitemap::Role::Thread)
        .find_map(|vertex| {
            let (_, view) = get(&agent, &format!("{base}/site/0/vertex/{vertex}"));
            view.split("href=\"/site/0/rendered?url=")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .map(str::to_string)
        })
        .expect("a thread vertex's view links a drawn page");
    let mut response = agent
        .get(&format!("{base}/site/0/rendered?url={drawn}"))
        .call()
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let policy = response
        .headers()
        .get("content-security-policy")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(policy.starts_with("default-src 'none'"), "{policy}");
    let page = response.body_mut().read_to_string().unwrap();
    let rendering = page
        .split("id=\"rendering\">")
        .nth(1)
        .expect("the page is drawn");
    // A thread page's posts are a region, marked as the one the posts were read from.
    assert!(rendering.contains("class=\"region"), "{rendering}");
    assert!(rendering.contains("class=\"record"), "{rendering}");
    assert!(rendering.contains("posts read here"), "{rendering}");
    for loader in [
        "<script", "<link", "<img", "<iframe", "src=", "href=", "style=",
    ] {
        assert!(!rendering.contains(loader), "{loader} in {rendering}");
    }
    // A URL the crawl never fetched is refused.
    let (status, _) = get(
        &agent,
        &format!("{base}/site/0/rendered?url=http%3A%2F%2Fnowhere.test%2F"),
    );
    assert_eq!(status, 404);
    console.stop();
    trawl_store::remove_database_files(&path);
}

/// The vertex view of vertex `vertex` under a link of plan generation `generation`: (status,
/// whether it lists pages of the store, the page).
fn vertex_view(
    agent: &ureq::Agent,
    base: &str,
    vertex: u32,
    generation: u32,
) -> (u16, bool, String) {
    let (status, view) = get(
        agent,
        &format!("{base}/site/0/vertex/{vertex}?generation={generation}"),
    );
    let lists_pages = status == 200 && !view.contains("colspan=\"5\">none yet");
    (status, lists_pages, view)
}

#[test]
fn a_vertex_link_names_its_plan_generation_and_a_stale_one_says_so() {
    let path = crawled_file("generations");
    let location = StoreLocation::File(path.clone());
    // A vertex the crawl placed pages in.
    let mut placed = None;
    Store::open_existing(&location, None, true)
        .unwrap()
        .for_each_page_after(0, false, |page| {
            placed = placed.or(page.record.vertex);
        })
        .unwrap();
    let vertex = placed.expect("the crawl placed pages in vertices");
    let console = serve(location.clone());
    let base = format!("http://{}", console.address());
    let agent = client();
    let (plan, generation) = stored_plan(&location);
    assert_eq!(generation, 0);
    let (_, plan_page) = get(&agent, &format!("{base}/site/0/plan"));
    assert!(
        plan_page.contains(&format!("/site/0/vertex/{vertex}?generation=0\"")),
        "{plan_page}"
    );
    let (status, lists_pages, view) = vertex_view(&agent, &base, vertex, 0);
    assert_eq!(status, 200, "{view}");
    assert!(lists_pages, "{view}");
    // A change of decisions saved from the console keeps the vertex numbers: the link of the
    // generation before still shows the vertex, with its pages.
    let arc = format!("arc-{}", arc_that_adds(&plan));
    let form = [("generation", "0"), (arc.as_str(), "follow")];
    let (status, saved) = post_form(&agent, &format!("{base}/site/0/save"), &form);
    assert_eq!(status, 200, "{saved}");
    assert_eq!(stored_plan(&location).1, 1);
    for generation in [0, 1] {
        let (status, lists_pages, view) = vertex_view(&agent, &base, vertex, generation);
        assert_eq!(status, 200, "generation {generation}: {view}");
        assert!(lists_pages, "generation {generation}: {view}");
    }
    // The plan learned again (as a crawl's relearning stores it): its numbers name other
    // vertices, so a link of an earlier generation says it is stale, and the vertex of the new
    // plan shows none of the pages placed under the old numbers.
    let mut store = Store::open_existing(&location, None, false).unwrap();
    assert_eq!(store.replace_plan(&plan.to_json()).unwrap(), 2);
    drop(store);
    for generation in [0, 1] {
        let (status, _, view) = vertex_view(&agent, &base, vertex, generation);
        assert_eq!(status, 410, "generation {generation}: {view}");
        assert!(
            view.contains(&format!(
                "vertex {vertex} of plan generation {generation}; the plan was learned again"
            )),
            "{view}"
        );
    }
    let (status, lists_pages, view) = vertex_view(&agent, &base, vertex, 2);
    assert_eq!(status, 200, "{view}");
    assert!(!lists_pages, "pages of the old numbering shown: {view}");
    assert_eq!(vertex_view(&agent, &base, vertex, 3).0, 404);
    console.stop();
    trawl_store::remove_database_files(&path);
}
