//! The same forum over real HTTP on loopback answers byte for byte like the in-process fetcher.

mod common;

use std::sync::Arc;

use common::small_site;
use trawl_model::{FetchRequest, Fetcher, Timestamp};
use trawl_sim::{FamilyName, SimFetcher};
use trawl_sim_server::{ServerClock, SimServer};

fn get(agent: &ureq::Agent, url: &str, at: Option<&str>) -> (u16, Vec<u8>) {
    let mut request = agent.get(url);
    if let Some(at) = at {
        request = request.header("X-Trawl-At", at);
    }
    let mut response = request.call().expect("loopback request");
    let status = response.status().as_u16();
    (status, response.body_mut().read_to_vec().expect("body"))
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into()
}

#[test]
fn http_answers_match_the_in_process_fetcher() {
    for family in [FamilyName::Discuz, FamilyName::Xenforo] {
        let site = Arc::new(small_site(family));
        let end = Timestamp::from_second(site.history().end).unwrap();
        let server = SimServer::start(
            Arc::clone(&site),
            ServerClock::Fixed(end).into_clock(),
            "127.0.0.1:0",
            1,
        )
        .expect("bind loopback");
        let fetcher = SimFetcher::new(Arc::clone(&site), "http://forum.test");
        let agent = agent();
        for path in [site.portal_path(), "/no/such/page".to_string()] {
            let (status, body) = get(&agent, &format!("{}{path}", server.origin()), None);
            let local = fetcher
                .fetch(&FetchRequest::new(format!("http://forum.test{path}"), end))
                .unwrap();
            assert_eq!(status, local.status, "{}: {path}", family.name());
            assert_eq!(body, local.body, "{}: {path}", family.name());
        }
        server.stop();
    }
}

#[test]
fn requests_can_ask_for_an_instant() {
    let site = Arc::new(small_site(FamilyName::Phpbb));
    let end = Timestamp::from_second(site.history().end).unwrap();
    let server = SimServer::start(
        Arc::clone(&site),
        ServerClock::Fixed(end).into_clock(),
        "127.0.0.1:0",
        1,
    )
    .unwrap();
    let agent = agent();
    let last_thread = format!(
        "{}/viewtopic.php?t={}",
        server.origin(),
        site.history().thread_count()
    );
    let (now_status, _) = get(&agent, &last_thread, None);
    assert_eq!(now_status, 200);
    let start = Timestamp::from_second(site.history().start)
        .unwrap()
        .to_string();
    let (then_status, _) = get(&agent, &last_thread, Some(&start));
    assert_eq!(
        then_status, 404,
        "the newest thread did not exist when the forum started"
    );
    let (bad_status, _) = get(&agent, &last_thread, Some("last tuesday"));
    assert_eq!(bad_status, 400);
    server.stop();
}

#[test]
fn accelerated_clock_moves_the_forum_forward() {
    let site = Arc::new(small_site(FamilyName::Phpbb));
    let origin = Timestamp::from_second(site.history().start + 86_400).unwrap();
    let clock = ServerClock::Accelerated {
        origin,
        factor: 86_400.0 * 30.0,
    }
    .into_clock();
    let first = clock.now();
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(
        clock.now().as_second() - first.as_second() >= 86_400,
        "a day passes in 50 ms"
    );
    let server = SimServer::start(site, clock, "127.0.0.1:0", 1).unwrap();
    let (status, _) = get(&agent(), &format!("{}/index.php", server.origin()), None);
    assert_eq!(status, 200);
}

#[test]
fn a_taken_port_is_a_clear_error() {
    let site = Arc::new(small_site(FamilyName::Phpbb));
    let clock = ServerClock::Real.into_clock();
    let first = SimServer::start(Arc::clone(&site), Arc::clone(&clock), "127.0.0.1:0", 1).unwrap();
    let taken = first.address().to_string();
    let error = SimServer::start(site, clock, &taken, 1).unwrap_err();
    assert!(error.to_string().contains(&taken), "{error}");
}
