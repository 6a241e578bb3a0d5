//! Reading browse logs: each form of line, what is not a page view, malformed lines,
//! duplicates, and the paper's three frequencies.

use trawl_behaviour::{Frequencies, read_logs};

/// Lines naming the site's host as referrer, read before the line under test so that the site's
/// host is known, as it is in any real log.
const CONTEXT: &str = "/a\thttp://forum.test/b\tcontext\n/b\thttp://forum.test/a\tcontext\n";

/// Reads `line` after the context and says what became of it: `record TARGET <- REFERRER`
/// (`-` for an entry), `malformed REASON`, `not a page view`, `ignored` or `other site`.
fn outcome_of(line: &str) -> String {
    let log = read_logs([CONTEXT, line]);
    let report = &log.report;
    if report.malformed > 0 {
        return format!("malformed {:?}", report.malformed_examples[0].1);
    }
    if report.not_page_views > 0 {
        return "not a page view".to_string();
    }
    if report.ignored > 0 {
        return "ignored".to_string();
    }
    if report.other_sites > 0 {
        return "other site".to_string();
    }
    let transition = log.transitions.last().expect("a transition");
    format!(
        "record {} <- {}",
        transition.target,
        transition.referrer.as_deref().unwrap_or("-")
    )
}

fn check(line: &str, expected: &str) {
    assert_eq!(outcome_of(line), expected, "line: {line}");
}

#[test]
fn tab_separated_lines() {
    check(
        "/viewtopic.php?t=1\thttp://forum.test/index.php\tu1",
        "record /viewtopic.php?t=1 <- /index.php",
    );
    check(
        "/viewtopic.php?t=1\t-\tu1",
        "record /viewtopic.php?t=1 <- -",
    );
    check("/t/1\t\tu1", "record /t/1 <- -");
    check(
        "http://forum.test/t/1#post-3\thttps://search.example/?q=x\tu1",
        "record /t/1 <- -",
    );
    check("http://forum.test/t/1\t/t/0\tu1", "record /t/1 <- /t/0");
    check("target\treferrer\tuser", "ignored");
    check("/t/1\t-", "malformed BadTsv");
    check("/t/1\t-\t", "malformed BadTsv");
    check("viewtopic.php\t-\tu1", "malformed BadTarget");
    check("http://elsewhere.test/t/1\t-\tu1", "other site");
}

#[test]
fn json_lines() {
    check(
        r#"{"target": "/t/2", "referrer": "http://forum.test/f/1", "user": "ab12"}"#,
        "record /t/2 <- /f/1",
    );
    check(
        r#"{"url": "/t/2", "referer": null, "guid": "ab12"}"#,
        "record /t/2 <- -",
    );
    check(r#"{"target": "/t/2"}"#, "malformed BadJson");
    check(r#"{"target": "/t/2", "user": "#, "malformed BadJson");
    check(r#"["/t/2", "-", "u"]"#, "malformed BadCombined");
}

#[test]
fn combined_server_log_lines() {
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "GET /viewtopic.php?t=9 HTTP/1.1" 200 5120 "http://forum.test/viewforum.php?f=2" "Mozilla/5.0 (X11)""#,
        "record /viewtopic.php?t=9 <- /viewforum.php?f=2",
    );
    check(
        r#"10.0.0.7 - frank [02/Mar/2026:10:11:12 +0100] "GET /t/9 HTTP/2.0" 304 0 "-" "Mozilla/5.0""#,
        "record /t/9 <- -",
    );
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "GET /t/9 HTTP/1.1" 200 99 "https://www.search.example/search?q=forum" "curl/8""#,
        "record /t/9 <- -",
    );
    // nginx writes a quote inside a field as \x22, Apache as \".
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "GET /t/9 HTTP/1.1" 200 99 "http://forum.test/" "Agent \x22quoted\x22 \"too\"""#,
        "record /t/9 <- /",
    );
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "POST /posting.php HTTP/1.1" 200 99 "http://forum.test/" "Mozilla""#,
        "not a page view",
    );
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "GET /t/404 HTTP/1.1" 404 99 "-" "Mozilla""#,
        "not a page view",
    );
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "GET /login HTTP/1.1" 302 0 "-" "Mozilla""#,
        "not a page view",
    );
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "GET /styles/main.css?v=3 HTTP/1.1" 200 99 "http://forum.test/" "Mozilla""#,
        "not a page view",
    );
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "GET /t/9 HTTP/1.1" 200 99 "http://forum.te"#,
        "malformed BadCombined",
    );
    check(
        r#"10.0.0.7 - - 02/Mar/2026:10:11:12 "GET /t/9 HTTP/1.1" 200 99 "-" "M""#,
        "malformed BadCombined",
    );
    check(
        r#"10.0.0.7 - - [02/Mar/2026:10:11:12 +0100] "GET" 200 99 "-" "M""#,
        "malformed BadCombined",
    );
    check("just some words", "malformed BadCombined");
    check("   ", "ignored");
    check("# a comment", "ignored");
}

#[test]
fn server_log_users_are_address_and_agent() {
    let line = |address: &str, agent: &str| {
        format!(
            r#"{address} - - [02/Mar/2026:10:11:12 +0100] "GET /t/1 HTTP/1.1" 200 9 "-" "{agent}""#
        )
    };
    let log = read_logs([[
        line("10.0.0.1", "Firefox"),
        line("10.0.0.1", "Firefox"),
        line("10.0.0.1", "Chrome"),
        line("10.0.0.2", "Firefox"),
    ]
    .join("\n")
    .as_str()]);
    assert_eq!(log.users, 3);
    assert_eq!(log.transitions.len(), 3);
    assert_eq!(log.report.duplicates, 1);
}

#[test]
fn duplicates_of_one_users_transition_are_removed() {
    let log = read_logs([concat!(
        "/t/1\t/f/1\tu1\n",
        "/t/1\t/f/1\tu1\n",
        "/t/1\t/f/1\tu2\n",
        "/t/1\t-\tu1\n",
        "/t/1\t-\tu1\n",
        "/t/2\t/f/1\tu1\n",
    )]);
    assert_eq!(log.transitions.len(), 4);
    assert_eq!(log.report.duplicates, 2);
    assert_eq!(log.report.records, 6);
}

#[test]
fn malformed_lines_are_counted_and_never_stop_the_reading() {
    let mut text = String::new();
    for index in 0..30 {
        text.push_str(&format!("/t/{index}\t/f/1\tu1\n"));
        text.push_str("\"broken\n");
    }
    let log = read_logs([text.as_str()]);
    assert_eq!(log.transitions.len(), 30);
    assert_eq!(log.report.malformed, 30);
    // Only the first few are kept with their line numbers.
    assert_eq!(log.report.malformed_examples.len(), 10);
    assert_eq!(log.report.malformed_examples[0].0, 2);
    assert_eq!(log.report.malformed_examples[9].0, 20);
}

/// One frequency of a log: `in URL`, `out URL` or `trans FROM TO`.
fn check_frequency(log_text: &str, measure: &str, expected: u32) {
    let frequencies = Frequencies::of(&read_logs([log_text]));
    let words: Vec<&str> = measure.split(' ').collect();
    let found = match words.as_slice() {
        ["in", url] => frequencies.f_in(url),
        ["out", url] => frequencies.f_out(url),
        ["trans", from, to] => frequencies.f_trans(from, to),
        _ => panic!("unknown measure {measure}"),
    };
    assert_eq!(found, expected, "{measure}");
}

#[test]
fn the_papers_frequencies() {
    let log = concat!(
        "/f/1\t-\tu1\n",
        "/t/1\t/f/1\tu1\n",
        "/t/1\t/f/1\tu1\n",
        "/t/1\t/f/1\tu2\n",
        "/t/2\t/f/1\tu2\n",
        "/t/1/page-2\t/t/1\tu2\n",
        "/f/1\t/t/2\tu2\n",
    );
    check_frequency(log, "in /f/1", 2);
    check_frequency(log, "out /f/1", 3);
    check_frequency(log, "in /t/1", 2);
    check_frequency(log, "out /t/1", 1);
    check_frequency(log, "trans /f/1 /t/1", 2);
    check_frequency(log, "trans /f/1 /t/2", 1);
    check_frequency(log, "trans /t/2 /f/1", 1);
    check_frequency(log, "trans /t/1 /f/1", 0);
    check_frequency(log, "in /never", 0);
}
