use super::*;

fn answer(status: u16, body: &str) -> FetchResponse {
    FetchResponse {
        url: "http://forum.test/robots.txt".into(),
        status,
        headers: Vec::new(),
        body: body.as_bytes().to_vec(),
        fetched_at: Timestamp::UNIX_EPOCH,
    }
}

/// Reads a robots.txt answered with `status` and `body` for the agent `trawl`, and checks for
/// each path whether it is allowed, and the crawl delay.
fn check(status: u16, body: &str, paths: &[(&str, bool)], expected_delay: Option<Duration>) {
    let robots = RobotsTxt::from_response(
        "http://forum.test/robots.txt",
        "trawl",
        &answer(status, body),
        500 * 1024,
    );
    for (path, expected) in paths {
        let url = format!("http://forum.test{path}");
        assert_eq!(
            robots.allows(&url),
            *expected,
            "{path} under {status} {body:?}"
        );
    }
    assert_eq!(robots.crawl_delay(), expected_delay, "{status} {body:?}");
}

#[test]
fn rules_for_our_agent_apply() {
    let everyone = "User-agent: *\nDisallow: /private\nCrawl-delay: 2\n";
    check(
        200,
        everyone,
        &[("/", true), ("/private/a", false), ("/public", true)],
        Some(Duration::from_secs(2)),
    );
    // Our own group wins over the catch-all one.
    check(
        200,
        "User-agent: trawl\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n",
        &[("/a", false), ("/b", true)],
        None,
    );
    check(
        200,
        "User-agent: Trawl\nCrawl-delay: 0.5\n",
        &[("/", true)],
        Some(Duration::from_millis(500)),
    );
    // Another agent's rules are not ours.
    check(
        200,
        "User-agent: otherbot\nDisallow: /\n",
        &[("/", true), ("/x", true)],
        None,
    );
    // The longest match decides; wildcards and end anchors work.
    check(
        200,
        "User-agent: *\nDisallow: /forum\nAllow: /forum/viewtopic\nDisallow: /*?sid=\nDisallow: /*.php$\n",
        &[
            ("/forum/viewtopic.php?t=1", true),
            ("/forum/index", false),
            ("/index?sid=abc", false),
            ("/memberlist.php", false),
            ("/memberlist.php?mode=x", true),
        ],
        None,
    );
    check(200, "", &[("/anything", true)], None);
    // robots.txt itself is always allowed.
    check(
        200,
        "User-agent: *\nDisallow: /\n",
        &[("/robots.txt", true), ("/", false)],
        None,
    );
}

#[test]
fn status_decides_when_there_are_no_rules() {
    let strict = "User-agent: *\nDisallow: /\n";
    for status in [404, 410, 401, 403, 400] {
        check(status, strict, &[("/", true), ("/x", true)], None);
    }
    for status in [429, 500, 502, 503, 504, 304, 100] {
        check(
            status,
            "",
            &[("/", false), ("/x", false), ("/robots.txt", true)],
            None,
        );
    }
}

#[test]
fn only_the_parse_limit_is_read() {
    let mut body = String::from("User-agent: *\n");
    while body.len() < 600 * 1024 {
        body.push_str("# padding padding padding padding padding padding padding\n");
    }
    body.push_str("Disallow: /late\n");
    check(200, &body, &[("/late", true)], None);
    let robots = RobotsTxt::from_response(
        "http://forum.test/robots.txt",
        "trawl",
        &answer(200, &body),
        1024 * 1024,
    );
    assert!(!robots.allows("http://forum.test/late"));
}

#[test]
fn fetch_failures_disallow_or_allow_by_kind() {
    let url = "http://forum.test/robots.txt".to_string();
    let check_error = |error: FetchError, allowed: bool| {
        let robots = RobotsTxt::from_error(&url, "trawl", &error);
        assert_eq!(robots.allows("http://forum.test/x"), allowed, "{error}");
        assert_eq!(robots.is_unreachable(), !allowed, "{error}");
    };
    check_error(
        FetchError::Connection {
            url: url.clone(),
            reason: "refused".into(),
        },
        false,
    );
    check_error(FetchError::Timeout { url: url.clone() }, false);
    check_error(
        FetchError::TooLarge {
            url: url.clone(),
            limit_bytes: 1,
        },
        false,
    );
    check_error(
        FetchError::TooManyRedirects {
            url: url.clone(),
            limit: 5,
        },
        true,
    );
    check_error(
        FetchError::RedirectLoop {
            url: url.clone(),
            target: url.clone(),
        },
        true,
    );
    check_error(FetchError::ForeignHost { url: url.clone() }, true);
}

#[test]
fn sitemaps_and_reasons_are_exposed() {
    let robots = RobotsTxt::from_response(
        "http://forum.test/robots.txt",
        "trawl",
        &answer(
            200,
            "Sitemap: http://forum.test/sitemap.xml\nUser-agent: *\nDisallow: /admin\n",
        ),
        1024,
    );
    assert_eq!(robots.sitemaps(), ["http://forum.test/sitemap.xml"]);
    assert_eq!(robots.why_no_rules(), None);
    assert_eq!(
        robots.check("http://forum.test/admin/"),
        Err("http://forum.test/robots.txt disallows it for trawl".to_string())
    );
    let unreachable = RobotsTxt::from_response(
        "http://forum.test/robots.txt",
        "trawl",
        &answer(503, ""),
        1024,
    );
    assert_eq!(
        unreachable.check("http://forum.test/a"),
        Err(
            "its robots.txt answered 503, so everything on http://forum.test is off limits \
             until it can be read (RFC 9309)"
                .to_string()
        )
    );
}

/// A scripted answer: status and body (the body is the `Location` of a 3xx), or a failure.
type Scripted = Result<(u16, String), FetchError>;

/// A site: answers by URL from a mutable table (404 for anything not in it) and counts the
/// requests for each URL.
#[derive(Debug, Default)]
struct Site {
    answers: Mutex<HashMap<String, Scripted>>,
    asked: Mutex<Vec<String>>,
}

impl Site {
    fn set(&self, url: &str, answer: Result<(u16, &str), FetchError>) {
        self.answers.lock().unwrap().insert(
            url.to_string(),
            answer.map(|(status, body)| (status, body.to_string())),
        );
    }

    fn times_asked(&self, url: &str) -> usize {
        self.asked
            .lock()
            .unwrap()
            .iter()
            .filter(|asked| *asked == url)
            .count()
    }
}

impl Fetcher for Site {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        self.asked.lock().unwrap().push(request.url.clone());
        let (status, body) = self
            .answers
            .lock()
            .unwrap()
            .get(&request.url)
            .cloned()
            .unwrap_or(Ok((404, String::new())))?;
        let headers = if (300..400).contains(&status) {
            vec![("Location".to_string(), body.clone())]
        } else {
            Vec::new()
        };
        Ok(FetchResponse {
            url: request.url.clone(),
            status,
            headers,
            body: body.into_bytes(),
            fetched_at: request.at,
        })
    }
}

const ROBOTS: &str = "http://forum.test/robots.txt";

fn at(seconds: i64) -> Timestamp {
    Timestamp::from_second(seconds).unwrap()
}

/// Asks `fetcher` for `url` at `seconds` and sums the outcome up as the status or `disallowed`.
fn outcome(fetcher: &RobotsFetcher<&Site>, url: &str, seconds: i64) -> String {
    match fetcher.fetch(&FetchRequest::new(url, at(seconds))) {
        Ok(response) => response.status.to_string(),
        Err(FetchError::Disallowed { .. }) => "disallowed".to_string(),
        Err(other) => panic!("unexpected {other}"),
    }
}

#[test]
fn robots_txt_is_fetched_once_and_obeyed() {
    let site = Site::default();
    site.set(
        ROBOTS,
        Ok((200, "User-agent: *\nDisallow: /private\nCrawl-delay: 3\n")),
    );
    site.set("http://forum.test/a", Ok((200, "a")));
    let board = Arc::new(HostDelays::new());
    let fetcher = RobotsFetcher::new(&site, RobotsOptions::default(), board.clone());
    assert_eq!(outcome(&fetcher, "http://forum.test/a", 0), "200");
    assert_eq!(
        outcome(&fetcher, "http://forum.test/private/1", 1),
        "disallowed"
    );
    assert_eq!(outcome(&fetcher, "http://forum.test/b", 2), "404");
    assert_eq!(site.times_asked(ROBOTS), 1);
    assert_eq!(site.times_asked("http://forum.test/private/1"), 0);
    assert_eq!(board.get("forum.test"), Some(Duration::from_secs(3)));
    assert_eq!(
        fetcher.crawl_delay("http://forum.test/x"),
        Some(Duration::from_secs(3))
    );
    // Another origin of the same host has its own robots.txt.
    assert_eq!(outcome(&fetcher, "https://forum.test/private/1", 3), "404");
    assert_eq!(site.times_asked("https://forum.test/robots.txt"), 1);
    // A day later (in request time) it is read again, and a new Crawl-delay replaces the old.
    site.set(ROBOTS, Ok((200, "User-agent: *\nDisallow: /b\n")));
    assert_eq!(
        outcome(&fetcher, "http://forum.test/private/1", 86_399),
        "disallowed"
    );
    assert_eq!(site.times_asked(ROBOTS), 1);
    assert_eq!(
        outcome(&fetcher, "http://forum.test/private/1", 86_400),
        "404"
    );
    assert_eq!(
        outcome(&fetcher, "http://forum.test/b", 86_401),
        "disallowed"
    );
    assert_eq!(site.times_asked(ROBOTS), 2);
    assert_eq!(board.get("forum.test"), None);
}

#[test]
fn unreachable_robots_txt_disallows_until_asked_again() {
    let site = Site::default();
    site.set(ROBOTS, Ok((503, "")));
    site.set("http://forum.test/a", Ok((200, "a")));
    let fetcher = RobotsFetcher::new(&site, RobotsOptions::default(), Arc::new(HostDelays::new()));
    assert_eq!(outcome(&fetcher, "http://forum.test/a", 0), "disallowed");
    assert_eq!(outcome(&fetcher, "http://forum.test/a", 599), "disallowed");
    assert_eq!(site.times_asked(ROBOTS), 1);
    assert_eq!(site.times_asked("http://forum.test/a"), 0);
    // Ten minutes on it is asked for again, and now it is there.
    site.set(ROBOTS, Ok((404, "")));
    assert_eq!(outcome(&fetcher, "http://forum.test/a", 600), "200");
    assert_eq!(site.times_asked(ROBOTS), 2);
}

#[test]
fn a_copy_once_read_outlives_an_outage() {
    let site = Site::default();
    site.set(ROBOTS, Ok((200, "User-agent: *\nDisallow: /private\n")));
    let fetcher = RobotsFetcher::new(&site, RobotsOptions::default(), Arc::new(HostDelays::new()));
    assert_eq!(outcome(&fetcher, "http://forum.test/a", 0), "404");
    site.set(
        ROBOTS,
        Err(FetchError::Connection {
            url: ROBOTS.into(),
            reason: "reset".into(),
        }),
    );
    // Expired and unreachable: the old copy is obeyed, not "disallow everything".
    assert_eq!(outcome(&fetcher, "http://forum.test/a", 90_000), "404");
    assert_eq!(
        outcome(&fetcher, "http://forum.test/private", 90_001),
        "disallowed"
    );
    assert_eq!(site.times_asked(ROBOTS), 2);
    // It is tried again after the retry interval, not after another day.
    site.set(ROBOTS, Ok((200, "User-agent: *\nDisallow: /\n")));
    assert_eq!(
        outcome(&fetcher, "http://forum.test/a", 90_600),
        "disallowed"
    );
    assert_eq!(site.times_asked(ROBOTS), 3);
}

#[test]
fn redirects_to_robots_txt_are_followed() {
    let site = Site::default();
    site.set(ROBOTS, Ok((301, "https://www.forum.test/robots.txt")));
    site.set(
        "https://www.forum.test/robots.txt",
        Ok((200, "User-agent: *\nDisallow: /x\n")),
    );
    let fetcher = RobotsFetcher::new(&site, RobotsOptions::default(), Arc::new(HostDelays::new()));
    assert_eq!(outcome(&fetcher, "http://forum.test/x", 0), "disallowed");
    assert_eq!(outcome(&fetcher, "http://forum.test/y", 0), "404");

    // Six hops is one more than allowed: treated as no robots.txt.
    let site = Site::default();
    for hop in 0..6 {
        let from = if hop == 0 {
            ROBOTS.to_string()
        } else {
            format!("http://forum.test/r{hop}")
        };
        site.set(&from, Ok((302, &format!("/r{}", hop + 1))));
    }
    site.set(
        "http://forum.test/r6",
        Ok((200, "User-agent: *\nDisallow: /\n")),
    );
    let fetcher = RobotsFetcher::new(&site, RobotsOptions::default(), Arc::new(HostDelays::new()));
    assert_eq!(outcome(&fetcher, "http://forum.test/x", 0), "404");
    assert_eq!(site.times_asked("http://forum.test/r6"), 0);
}

#[test]
fn threads_wait_for_one_robots_fetch() {
    let site = Site::default();
    site.set(ROBOTS, Ok((200, "User-agent: *\nDisallow: /no\n")));
    let fetcher = RobotsFetcher::new(&site, RobotsOptions::default(), Arc::new(HostDelays::new()));
    let outcomes: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|thread| {
                let fetcher = &fetcher;
                let path = if thread % 2 == 0 { "no" } else { "yes" };
                scope.spawn(move || outcome(fetcher, &format!("http://forum.test/{path}"), 0))
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().unwrap())
            .collect()
    });
    assert_eq!(
        outcomes,
        [
            "disallowed",
            "404",
            "disallowed",
            "404",
            "disallowed",
            "404",
            "disallowed",
            "404"
        ]
    );
    assert_eq!(site.times_asked(ROBOTS), 1);
}

#[test]
fn urls_without_an_origin_pass_through() {
    let site = Site::default();
    let fetcher = RobotsFetcher::new(&site, RobotsOptions::default(), Arc::new(HostDelays::new()));
    assert!(fetcher.robots_for("not a url", at(0)).is_none());
    assert_eq!(outcome(&fetcher, "not a url", 0), "404");
    assert_eq!(site.times_asked("not a url"), 1);
}
