//! The `trawl` binary, run as a user runs it.

use std::process::Output;

mod support;
use support::{serve, trawl};

/// The development pages of WEB-FORUM-52, in `shared/` beside the repository.
const GOLD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/web-forum-52-dev"
);

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn families_lists_every_family_and_trap() {
    let output = trawl(&["sim", "families"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for name in [
        "phpbb",
        "vbulletin",
        "discuz",
        "smf",
        "xenforo",
        "discourse",
        "tablecraft",
    ] {
        assert!(text.contains(name), "{name} missing from:\n{text}");
    }
    assert!(
        text.contains("session-ids") && text.contains("gbk"),
        "{text}"
    );
}

#[test]
fn truth_prints_one_json_object_per_line() {
    let output = trawl(&[
        "sim", "truth", "--family", "smf", "--seed", "3", "--only", "posts",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let mut count = 0;
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        for field in ["post", "thread", "author", "created", "text"] {
            assert!(record.get(field).is_some(), "{field} missing in {line}");
        }
        count += 1;
    }
    assert!(count > 1_000, "only {count} posts");
    let urls = trawl(&[
        "sim", "truth", "--family", "smf", "--seed", "3", "--only", "urls",
    ]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&urls).lines().next().expect("a URL record")).unwrap();
    for field in ["url", "class", "canonical", "role", "list", "position"] {
        assert!(first.get(field).is_some(), "{field} missing in {first}");
    }
}

#[test]
fn truth_at_an_earlier_instant_has_fewer_posts() {
    let count = |at: &str| {
        let output = trawl(&["sim", "truth", "--only", "posts", "--at", at]);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output).lines().count()
    };
    assert!(count("2025-12-01") < count("end"));
}

#[test]
fn stats_report_the_papers_shapes() {
    let output = trawl(&["sim", "stats", "--family", "xenforo"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("active <= 24 h"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn page_prints_status_headers_and_body() {
    let output = trawl(&["sim", "page", "--family", "discuz"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("HTTP 200"), "{text}");
    assert!(
        text.contains("charset=gbk"),
        "the GBK family names its charset in <meta>"
    );
}

/// Checks that `text` reports between `asked` and `asked` plus a tenth sampled pages between
/// `before` and `after`: the sampler may fetch a few more pages than asked to complete pairs of
/// spellings of one page, at most a tenth of the sample.
fn assert_sampled(text: &str, before: &str, after: &str, asked: usize) {
    let count = text
        .split(before)
        .nth(1)
        .and_then(|rest| rest.split(after).next())
        .and_then(|number| number.trim().parse::<usize>().ok())
        .unwrap_or_else(|| panic!("no count of sampled pages in: {text}"));
    assert!(
        (asked..=asked + asked / 10).contains(&count),
        "sampled {count} pages when {asked} were asked for: {text}"
    );
}

#[test]
fn demo_walks_a_forum_over_loopback() {
    let output = trawl(&["demo", "--family", "xenforo", "--max-pages", "300"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_sampled(&text, "learned a plan from ", " sampled pages", 300);
    assert!(text.contains("crawl with the learned plan"), "{text}");
    assert!(text.contains("breadth-first crawl: 300 fetches"), "{text}");
    assert!(text.contains("a thread put back together"), "{text}");
    assert!(text.contains("coverage of valuable pages"), "{text}");
}

#[test]
fn mistakes_get_errors_that_say_what_to_do() {
    let cases: [(&[&str], &str); 7] = [
        (
            &["sim", "stats", "--family", "mybb"],
            "choose one of: phpbb",
        ),
        (&["sim", "truth", "--at", "last week"], "2025-06-01"),
        (&["sim", "stats", "--trap-off", "cookies"], "the traps are"),
        (&["sim", "page", "viewtopic.php"], "starting with `/`"),
        // Regression: a plan that cannot be written was found out only after sampling.
        (
            &[
                "learn",
                "http://127.0.0.1:9/",
                "--out",
                "/no/such/dir/plan.json",
            ],
            "create it or choose another --out",
        ),
        // Regression: a gold directory that does not exist fuzzed random strings alone.
        (
            &["bench", "fuzz", "--gold", "/no/such/gold", "--seconds", "1"],
            "give --gold the folder",
        ),
        (
            &[
                "bench",
                "fuzz",
                "--gold",
                env!("CARGO_MANIFEST_DIR"),
                "--seconds",
                "1",
            ],
            "holds no gold pages",
        ),
    ];
    for (arguments, hint) in cases {
        let output = trawl(arguments);
        assert!(!output.status.success(), "{arguments:?} should fail");
        assert!(
            stderr(&output).contains(hint),
            "{arguments:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn watch_says_what_it_needs_and_what_to_run_first() {
    let output = trawl(&["watch", "--help"]);
    assert!(output.status.success(), "{}", stderr(&output));
    for option in [
        "--db",
        "--budget",
        "--policy",
        "--delay-ms",
        "--ignore-robots",
    ] {
        assert!(
            stdout(&output).contains(option),
            "{option}: {}",
            stdout(&output)
        );
    }
    let directory = std::env::temp_dir().join(format!("trawl-cli-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    // No database: say which crawl to run, and leave no file behind.
    let missing = directory.join("missing.db");
    let output = trawl(&[
        "watch",
        "http://127.0.0.1:9/",
        "--db",
        missing.to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("run `trawl crawl http://127.0.0.1:9/ --db"),
        "{}",
        stderr(&output)
    );
    assert!(!missing.exists());
    // A database holding no crawl.
    let empty = directory.join("empty.db");
    drop(trawl_store::Store::open(&empty).unwrap());
    let output = trawl(&[
        "watch",
        "http://127.0.0.1:9/",
        "--db",
        empty.to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("holds no crawl; run `trawl crawl URL --db"),
        "{}",
        stderr(&output)
    );
    let output = trawl(&[
        "watch",
        "http://127.0.0.1:9/",
        "--db",
        empty.to_str().unwrap(),
        "--budget",
        "lots",
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("as 3000/day"),
        "{}",
        stderr(&output)
    );
    let _ = std::fs::remove_dir_all(&directory);
}

#[test]
fn extract_reads_posts_of_a_saved_page() {
    let page = trawl(&[
        "sim",
        "page",
        "--family",
        "vbulletin",
        "--seed",
        "4",
        "/showthread.php?t=9",
    ]);
    assert!(page.status.success(), "{}", stderr(&page));
    let text = stdout(&page);
    let body = text.split_once("\n\n").map_or("", |(_, body)| body);
    let file = std::env::temp_dir().join(format!("trawl-extract-{}.html", std::process::id()));
    std::fs::write(&file, body).unwrap();
    let extract = |url: Option<&str>| -> Vec<serde_json::Value> {
        let mut arguments = vec!["extract", "--fetched-at", "2026-01-01T00:00:00Z"];
        if let Some(url) = url {
            arguments.extend(["--url", url]);
        }
        arguments.push(file.to_str().unwrap());
        let output = trawl(&arguments);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    };
    let posts = extract(Some("http://forum.test/showthread.php?t=9"));
    // Regression: without its address the page's relative profile links were dropped, and
    // every post lost its author.
    let posts_without_address = extract(None);
    std::fs::remove_file(&file).ok();
    assert!(!posts.is_empty(), "no posts extracted");
    for post in &posts {
        assert!(
            post["author"].is_string() && post["time"].is_string(),
            "{post}"
        );
        assert!(!post["text"].as_str().unwrap_or("").is_empty(), "{post}");
    }
    // Profile links and permalinks are absolute, resolved against the page's address.
    for post in &posts {
        for field in ["author_url", "permalink"] {
            if let Some(link) = post[field].as_str() {
                assert!(link.starts_with("http://forum.test/"), "{field}: {post}");
            }
        }
    }
    assert!(
        posts.iter().any(|post| post["author_url"].is_string()),
        "no profile link: {posts:?}"
    );
    let authors = |posts: &[serde_json::Value]| -> Vec<serde_json::Value> {
        posts.iter().map(|post| post["author"].clone()).collect()
    };
    assert_eq!(authors(&posts_without_address), authors(&posts));
}

/// Regression: output piped into a reader that stops early (`| head`) made `extract`, `sim
/// page`, `plan show` and `plan graph` panic and `sim truth` report an error; all now stop
/// quietly. So do commands that print with `println!` (`sim families` here, `bench extract`
/// when it was found). (The page's 3,000 records are 3,000 lines of `extract --records`.)
#[test]
fn a_closed_output_pipe_ends_commands_quietly() {
    use std::process::{Command, Stdio};
    let (server, site) = serve("phpbb", 1);
    let plan = std::env::temp_dir().join(format!("trawl-pipe-plan-{}.json", std::process::id()));
    let portal = format!("{}{}", server.origin(), site.portal_path());
    support::learn_plan(&portal, 60, &plan);
    let page = std::env::temp_dir().join(format!("trawl-pipe-{}.html", std::process::id()));
    let posts: String = (0..3_000)
        .map(|n| format!("<div class=post><b>user{n}</b><p>message number {n}</p></div>"))
        .collect();
    std::fs::write(&page, format!("<html><body>{posts}</body></html>")).unwrap();
    for arguments in [
        vec!["extract", "--records", page.to_str().unwrap()],
        vec![
            "sim", "truth", "--family", "smf", "--seed", "3", "--only", "posts",
        ],
        vec!["sim", "page", "--family", "phpbb", "--seed", "1"],
        vec!["plan", "show", plan.to_str().unwrap()],
        vec!["plan", "graph", plan.to_str().unwrap(), "--format", "svg"],
        vec!["sim", "families"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_trawl"))
            .args(&arguments)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("trawl runs");
        // Closing the reading end before trawl writes makes its first write fail.
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("trawl ends");
        assert!(
            output.status.success(),
            "{arguments:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).is_empty(),
            "{arguments:?}: {}",
            stderr(&output)
        );
    }
    std::fs::remove_file(&page).ok();
    std::fs::remove_file(&plan).ok();
}

/// A page whose declared charset is wrong is read right with `--charset`, and a label that names
/// no charset is refused with what to give instead.
#[test]
fn extract_reads_a_page_in_the_charset_it_is_told() {
    let posts: String = ["Jürgen", "Björn", "Zoë"]
        .iter()
        .enumerate()
        .map(|(n, name)| {
            format!(
                "<div class=post><a href=/u/{n}>{name}</a><span>12.03.2020 10:1{n}</span>\
                 <p>Grüße aus München, Nachricht Nummer {n} über die Brücke</p></div>"
            )
        })
        .collect();
    let html = format!("<html><head><meta charset=utf-8></head><body>{posts}</body></html>");
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&html);
    let file = std::env::temp_dir().join(format!("trawl-charset-{}.html", std::process::id()));
    std::fs::write(&file, &bytes).unwrap();
    let path = file.to_str().unwrap();
    let base = [
        "extract",
        "--url",
        "http://forum.test/t/1",
        "--fetched-at",
        "2026-01-01",
    ];
    let told = trawl(&[&base[..], &["--charset", "windows-1252", path]].concat());
    let refused = trawl(&[&base[..], &["--charset", "latin-nine", path]].concat());
    std::fs::remove_file(&file).ok();
    assert!(told.status.success(), "{}", stderr(&told));
    let authors: Vec<String> = stdout(&told)
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["author"].to_string())
        .collect();
    assert_eq!(authors, ["\"Jürgen\"", "\"Björn\"", "\"Zoë\""]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("names no charset") && stderr(&refused).contains("windows-1252"),
        "{}",
        stderr(&refused)
    );
}

/// The forum's offset from UTC is kept in the printed times where the page states it or the user
/// gives it; a time that names its own offset keeps that one, and a bare date stays bare.
#[test]
fn extract_keeps_the_forums_offset_in_its_times() {
    let posts: String = [
        "12.03.2020 10:15",
        "12.03.2020 11:20",
        "2020-03-12T12:30:00Z",
    ]
    .iter()
    .enumerate()
    .map(|(n, time)| {
        format!(
            "<div class=post><a href=/u/{n}>user{n}</a><span>{time}</span>\
                 <p>Message number {n} says something of its own here</p></div>"
        )
    })
    .collect();
    let write = |footer: &str| {
        let file = std::env::temp_dir().join(format!(
            "trawl-offset-{}-{}.html",
            std::process::id(),
            footer.len()
        ));
        std::fs::write(
            &file,
            format!("<html><body>{posts}<p>{footer}</p></body></html>"),
        )
        .unwrap();
        file
    };
    let times = |file: &std::path::Path, extra: &[&str]| -> Vec<String> {
        let base = [
            "extract",
            "--url",
            "http://forum.test/t/1",
            "--fetched-at",
            "2026-01-01",
        ];
        let output = trawl(&[&base[..], extra, &[file.to_str().unwrap()]].concat());
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
            .lines()
            .map(|line| {
                serde_json::from_str::<serde_json::Value>(line).unwrap()["time"].to_string()
            })
            .collect()
    };
    let stated = write("All times are GMT +2. The time now is 10:00.");
    let silent = write("Powered by a forum");
    let stated_times = times(&stated, &[]);
    let silent_times = times(&silent, &[]);
    let given_times = times(&silent, &["--utc-offset", "-05:30"]);
    std::fs::remove_file(&stated).ok();
    std::fs::remove_file(&silent).ok();
    assert_eq!(
        stated_times,
        [
            "\"2020-03-12T10:15+02:00\"",
            "\"2020-03-12T11:20+02:00\"",
            "\"2020-03-12T12:30:00+00:00\""
        ]
    );
    assert_eq!(
        silent_times,
        [
            "\"2020-03-12T10:15\"",
            "\"2020-03-12T11:20\"",
            "\"2020-03-12T12:30:00+00:00\""
        ]
    );
    assert_eq!(
        given_times,
        [
            "\"2020-03-12T10:15-05:30\"",
            "\"2020-03-12T11:20-05:30\"",
            "\"2020-03-12T12:30:00+00:00\""
        ]
    );
}

/// A regression floor for post extraction on the development pages of WEB-FORUM-52, scored by
/// the corrected reference rules: the bars for the development half (F1 0.98, time 0.97,
/// author 0.97; the figures reached are in docs/BENCHMARKS.md).
#[test]
fn web_forum_52_extraction_does_not_regress() {
    let out = std::env::temp_dir().join(format!("trawl-wf52-{}", std::process::id()));
    let output = trawl(&[
        "bench",
        "extract",
        "--gold",
        GOLD,
        "--out",
        out.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&out).ok();
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = stdout(&output);
    let figure = |name: &str| -> f64 {
        let rest = summary
            .split(name)
            .nth(1)
            .unwrap_or_else(|| panic!("{name} in {summary}"));
        rest.trim_start()
            .split(|c: char| c == ';' || c.is_whitespace())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(figure("F1") >= 0.98, "{summary}");
    assert!(figure("time") >= 0.97, "{summary}");
    assert!(figure("author") >= 0.97, "{summary}");
}

/// A short fuzzing run finds no panic and no page the two tokenizers read differently, and says
/// how many inputs each tokenizer read.
#[test]
fn fuzzing_checks_the_tokenizer_against_html5evers() {
    let crashes = std::env::temp_dir().join(format!("trawl-fuzz-test-{}", std::process::id()));
    let output = trawl(&[
        "bench",
        "fuzz",
        "--gold",
        GOLD,
        "--seconds",
        "3",
        "--seed",
        "11",
        "--crashes",
        crashes.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = stdout(&output);
    assert!(summary.contains("no panic"), "{summary}");
    let read: u64 = summary
        .split("tokens on all ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("a count of pages read in {summary}"));
    assert!(read > 0, "{summary}");
}

#[test]
fn learn_writes_a_plan_that_show_and_graph_read() {
    let (server, _) = serve("phpbb", 2);
    let directory = std::env::temp_dir().join(format!("trawl-learn-test-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let plan = directory.join("plan.json");
    let portal = format!("{}/index.php", server.origin());
    let output = trawl(&[
        "learn",
        &portal,
        "--samples",
        "150",
        "--delay-ms",
        "0",
        "--out",
        plan.to_str().unwrap(),
    ]);
    server.stop();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_sampled(&stderr(&output), "learned from ", " pages", 150);

    let shown = trawl(&["plan", "show", plan.to_str().unwrap()]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    let text = stdout(&shown);
    assert!(
        text.contains("[thread]") && text.contains("[thread-list]"),
        "{text}"
    );
    assert!(text.contains("FOLLOW+KEEP (flipping)"), "{text}");

    let dot = trawl(&["plan", "graph", plan.to_str().unwrap()]);
    assert!(
        stdout(&dot).starts_with("digraph sitemap {"),
        "{}",
        stdout(&dot)
    );
    let svg_file = directory.join("plan.svg");
    let svg = trawl(&[
        "plan",
        "graph",
        plan.to_str().unwrap(),
        "--format",
        "svg",
        "--out",
        svg_file.to_str().unwrap(),
    ]);
    assert!(svg.status.success(), "{}", stderr(&svg));
    let drawing = std::fs::read_to_string(&svg_file).unwrap();
    assert!(drawing.starts_with("<svg") && drawing.contains("</svg>"));
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn plan_files_that_are_not_plans_get_a_clear_error() {
    let directory = std::env::temp_dir().join(format!("trawl-plan-test-{}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let plan = directory.join("broken.json");
    std::fs::write(&plan, "{\"format_version\": 7}").unwrap();
    let output = trawl(&["plan", "show", plan.to_str().unwrap()]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("is not a usable plan") && message.contains("trawl learn"),
        "{message}"
    );
    let missing = trawl(&["plan", "show", "/nonexistent/plan.json"]);
    assert!(stderr(&missing).contains("cannot read the plan file"));
    // Regression: an error that also named its cause in its own message printed the cause
    // twice ("missing field ...: missing field ...").
    std::fs::write(&plan, "{\"x\": 1}").unwrap();
    let not_json = stderr(&trawl(&["plan", "show", plan.to_str().unwrap()]));
    assert_eq!(
        not_json.matches("missing field `format_version`").count(),
        1,
        "{not_json}"
    );
    std::fs::remove_dir_all(&directory).unwrap();
}

/// The same for a portal that does not answer: each cause once, from the outer context in.
#[test]
fn an_unreachable_portal_is_reported_once() {
    // Port 9 (discard) on loopback: nothing listens there on a test machine.
    let output = trawl(&["learn", "http://127.0.0.1:9/", "--out", "/dev/null"]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(message.contains("cannot fetch the portal"), "{message}");
    assert_eq!(
        message.matches("could not be fetched").count(),
        1,
        "{message}"
    );
}
