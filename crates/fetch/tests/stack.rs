//! The layers over real loopback HTTP, waiting on a virtual clock: retries, robots.txt,
//! pacing, cookies and redirects as the crawler will meet them.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use support::{Reply, closed_port, response, serve};
use trawl_fetch::{
    FetchConfig, HttpFetcher, HttpOptions, RetryPolicy, RetryingFetcher, Sleeper, VirtualSleeper,
};
use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher, Timestamp};

fn secs(seconds: u64) -> Duration {
    Duration::from_secs(seconds)
}

fn get(fetcher: &dyn Fetcher, url: &str) -> Result<FetchResponse, FetchError> {
    fetcher.fetch(&FetchRequest::new(url, Timestamp::UNIX_EPOCH))
}

fn paths(seen: &[support::Seen]) -> Vec<&str> {
    seen.iter().map(|seen| seen.path.as_str()).collect()
}

#[test]
fn a_503_is_retried_after_its_retry_after() {
    let served = Arc::new(AtomicUsize::new(0));
    let counter = served.clone();
    let server = serve(move |_| {
        if counter.fetch_add(1, Ordering::SeqCst) == 0 {
            response(503, &[("Retry-After", "1")], b"busy")
        } else {
            response(200, &[], b"done")
        }
    });
    let sleeper = Arc::new(VirtualSleeper::new());
    let policy = RetryPolicy {
        base_delay: Duration::from_millis(100),
        ..RetryPolicy::default()
    };
    let fetcher = RetryingFetcher::new(HttpFetcher::default(), policy, sleeper.clone());
    let answer = get(&fetcher, &server.url("/t/1")).unwrap();
    let seen = server.finish();
    assert_eq!(
        (answer.status, answer.body.as_slice()),
        (200, b"done".as_slice())
    );
    assert_eq!(paths(&seen), ["/t/1", "/t/1"]);
    // The server's one second, longer than the 50–100 ms backoff, is what was waited.
    assert_eq!(sleeper.waits(), [secs(1)]);
}

#[test]
fn failures_are_retried_a_bounded_number_of_times() {
    let sleeper = Arc::new(VirtualSleeper::new());
    let policy = RetryPolicy {
        max_attempts: 3,
        ..RetryPolicy::default()
    };
    let fetcher = RetryingFetcher::new(HttpFetcher::default(), policy.clone(), sleeper.clone());
    let answer = get(&fetcher, &format!("http://127.0.0.1:{}/", closed_port()));
    assert!(
        matches!(answer, Err(FetchError::Connection { .. })),
        "{answer:?}"
    );
    assert_eq!(sleeper.waits().len(), 2);

    let server = serve(|_| Reply::Silence);
    let sleeper = Arc::new(VirtualSleeper::new());
    let impatient = HttpFetcher::new(HttpOptions {
        timeout: Duration::from_millis(200),
        ..HttpOptions::default()
    });
    let policy = RetryPolicy {
        max_attempts: 2,
        ..policy
    };
    let fetcher = RetryingFetcher::new(impatient, policy, sleeper.clone());
    let answer = get(&fetcher, &server.url("/slow"));
    let seen = server.finish();
    assert!(
        matches!(answer, Err(FetchError::Timeout { .. })),
        "{answer:?}"
    );
    assert_eq!(paths(&seen), ["/slow", "/slow"]);
    assert_eq!(sleeper.waits().len(), 1);
}

/// A forum on loopback: robots.txt forbids `/private` and asks for two seconds between
/// requests; pages set a session cookie and echo the cookies they were sent.
fn forum() -> support::Server {
    serve(|seen| match seen.path.as_str() {
        "/robots.txt" => response(
            200,
            &[("Content-Type", "text/plain")],
            b"User-agent: *\nDisallow: /private\nCrawl-delay: 2\n",
        ),
        _ => {
            let cookies = seen.header("cookie").unwrap_or("").to_string();
            response(
                200,
                &[
                    ("Set-Cookie", "sid=s1; Path=/"),
                    ("Content-Type", "text/html"),
                ],
                cookies.as_bytes(),
            )
        }
    })
}

#[test]
fn the_default_stack_obeys_robots_txt_and_its_crawl_delay() {
    let server = forum();
    let sleeper = Arc::new(VirtualSleeper::new());
    let config = FetchConfig {
        default_headers: vec![("Cookie".to_string(), "login=me".to_string())],
        ..FetchConfig::default()
    };
    let stack = config.build_over(HttpFetcher::default(), sleeper.clone());
    let first = get(&stack, &server.url("/a")).unwrap();
    let private = server.url("/private/x");
    let refused = get(&stack, &private);
    let second = get(&stack, &server.url("/b")).unwrap();
    let third = get(&stack, &server.url("/c")).unwrap();
    let seen = server.finish();

    assert_eq!(paths(&seen), ["/robots.txt", "/a", "/b", "/c"]);
    match refused {
        Err(FetchError::Disallowed { url, reason }) => {
            assert_eq!(url, private);
            assert!(
                reason.contains("/robots.txt disallows it for trawl"),
                "{reason}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // robots.txt went at once; each page waited the two seconds robots.txt asked for (the
    // refused URL cost no wait at all).
    assert_eq!(sleeper.waits(), [secs(2), secs(2), secs(2)]);
    assert_eq!(stack.crawl_delays().get("127.0.0.1"), Some(secs(2)));
    // The configured login cookie went everywhere; the session cookie once it was set.
    assert_eq!(seen[0].header("cookie"), Some("login=me"));
    assert_eq!(first.body, b"login=me");
    assert_eq!(second.body, b"sid=s1; login=me");
    assert_eq!(third.body, b"sid=s1; login=me");
}

#[test]
fn an_unreachable_robots_txt_closes_the_site() {
    let server = serve(|seen| match seen.path.as_str() {
        "/robots.txt" => response(503, &[], b""),
        _ => response(200, &[], b"page"),
    });
    let sleeper = Arc::new(VirtualSleeper::new());
    let stack = FetchConfig::default().build_over(HttpFetcher::default(), sleeper.clone());
    let first = get(&stack, &server.url("/a"));
    let again = get(&stack, &server.url("/b"));
    let seen = server.finish();
    for answer in [first, again] {
        match answer {
            Err(FetchError::Disallowed { reason, .. }) => {
                assert!(reason.contains("robots.txt answered 503"), "{reason}");
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
    // The default policy's four attempts at robots.txt, then nothing more: the verdict is kept
    // for ten minutes of request time. Backoff and pacing both held the attempts apart, at least
    // the one second per host pacing asks for.
    assert_eq!(paths(&seen), ["/robots.txt"; 4]);
    assert!(sleeper.now() >= secs(3), "{:?}", sleeper.waits());
}

#[test]
fn two_threads_share_one_hosts_pace() {
    let server = serve(|_| response(200, &[], b"page"));
    let sleeper = Arc::new(VirtualSleeper::new());
    let stack = FetchConfig {
        retry: None,
        ..FetchConfig::default()
    }
    .build_over(HttpFetcher::default(), sleeper.clone());
    std::thread::scope(|scope| {
        for thread in 0..2 {
            let (stack, server) = (&stack, &server);
            scope.spawn(move || {
                for page in 0..4 {
                    let answer = get(stack, &server.url(&format!("/{thread}/{page}"))).unwrap();
                    assert_eq!(answer.status, 200);
                }
            });
        }
    });
    let seen = server.finish();
    // robots.txt (absent: 404) and eight pages, one at a time, each a second after the last.
    assert_eq!(seen.len(), 9);
    assert_eq!(seen[0].path, "/robots.txt");
    assert_eq!(sleeper.waits(), [secs(1); 8]);
    assert_eq!(sleeper.now(), secs(8));
}

#[test]
fn the_benchmark_stack_never_waits() {
    let server = serve(|_| response(200, &[], b"page"));
    let sleeper = Arc::new(VirtualSleeper::new());
    let stack = FetchConfig::local_benchmark().build_over(HttpFetcher::default(), sleeper.clone());
    for page in 0..5 {
        assert_eq!(
            get(&stack, &server.url(&format!("/{page}")))
                .unwrap()
                .status,
            200
        );
    }
    let seen = server.finish();
    assert_eq!(seen.len(), 5, "no robots.txt either");
    assert!(sleeper.waits().is_empty());
}

#[test]
fn conditional_requests_pass_through_the_stack() {
    let server = serve(|seen| {
        if seen.path == "/robots.txt" {
            response(404, &[], b"")
        } else if seen.header("if-none-match") == Some("\"v7\"") {
            response(304, &[("ETag", "\"v7\"")], b"")
        } else {
            response(200, &[("ETag", "\"v7\"")], b"thread")
        }
    });
    let stack =
        FetchConfig::default().build_over(HttpFetcher::default(), Arc::new(VirtualSleeper::new()));
    let url = server.url("/t/7");
    let first = get(&stack, &url).unwrap();
    let revalidated = stack
        .fetch(&FetchRequest::new(&url, Timestamp::UNIX_EPOCH).with_validators_from(&first))
        .unwrap();
    let seen = server.finish();
    assert_eq!(first.status, 200);
    assert!(revalidated.is_not_modified());
    assert_eq!(paths(&seen), ["/robots.txt", "/t/7", "/t/7"]);
}

#[test]
fn redirects_are_followed_only_when_asked() {
    let server = serve(|seen| match seen.path.as_str() {
        "/old" => response(301, &[("Location", "/new")], b""),
        "/x" => response(302, &[("Location", "/y")], b""),
        "/y" => response(302, &[("Location", "/x")], b""),
        _ => response(200, &[], b"here"),
    });
    let sleeper = Arc::new(VirtualSleeper::new());
    let crawling =
        FetchConfig::local_benchmark().build_over(HttpFetcher::default(), sleeper.clone());
    let hop = get(&crawling, &server.url("/old")).unwrap();
    assert_eq!((hop.status, hop.header("location")), (301, Some("/new")));

    let following = FetchConfig {
        follow_redirects: Some(3),
        ..FetchConfig::local_benchmark()
    }
    .build_over(HttpFetcher::default(), sleeper);
    let landed = get(&following, &server.url("/old")).unwrap();
    assert_eq!(
        (landed.status, landed.url.clone()),
        (200, server.url("/new"))
    );
    let x = server.url("/x");
    let looped = get(&following, &x);
    let seen = server.finish();
    assert_eq!(
        looped,
        Err(FetchError::RedirectLoop {
            url: x.clone(),
            target: x,
        })
    );
    assert_eq!(paths(&seen), ["/old", "/old", "/new", "/x", "/y"]);
}
