//! `trawl audit` run as a user runs it: on crawls of a simulated forum served over loopback
//! (stopped by a page limit, then resumed to the end), and on files that are not crawls it can
//! read, each refused with a message that says what to do.

use std::path::Path;

mod support;
use support::{path, scratch, serve, text, trawl};

/// Runs `trawl audit` on a file `make` writes, and checks its exit status and that its error
/// says `says`.
fn check_refusal(case: &str, make: impl FnOnce(&Path), says: &[&str]) {
    let directory = scratch("audit", case);
    let db = directory.join("crawl.db");
    make(&db);
    let existed = db.exists();
    let output = trawl(&["audit", "--db", path(&db)]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{case}: {stderr}");
    for words in says {
        assert!(stderr.contains(words), "{case}: {stderr:?} lacks {words:?}");
    }
    assert_eq!(db.exists(), existed, "{case}: the audit created the file");
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn files_the_audit_cannot_read_are_refused_with_what_to_do() {
    check_refusal(
        "missing",
        |_| {},
        &["does not exist", "crawl first with `trawl crawl URL"],
    );
    check_refusal(
        "text",
        |db| std::fs::write(db, "not a database ".repeat(100)).unwrap(),
        &["is not a trawl crawl database", "choose another --db file"],
    );
    check_refusal(
        "other-database",
        |db| {
            rusqlite::Connection::open(db)
                .unwrap()
                .execute_batch("CREATE TABLE notes (text TEXT)")
                .unwrap()
        },
        &["is not a trawl crawl database"],
    );
    check_refusal(
        "older-format",
        |db| {
            let connection = rusqlite::Connection::open(db).unwrap();
            connection
                .execute_batch(
                    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                     INSERT INTO meta VALUES ('format', '0');",
                )
                .unwrap();
        },
        &[
            "in format 0",
            "this trawl reads format",
            "start a new crawl in another file",
        ],
    );
}

#[test]
fn a_crawl_stopped_early_audits_incomplete_and_a_whole_one_complete() {
    let (server, site) = serve("phpbb", 2);
    let directory = scratch("audit", "crawl");
    let db = directory.join("crawl.db");
    let portal = format!("{}{}", server.origin(), site.portal_path());
    let crawl = |limit: Option<&str>| {
        let mut arguments = vec!["crawl", &portal, "--db", path(&db), "--delay-ms", "0"];
        if let Some(limit) = limit {
            arguments.extend(["--max-pages", limit]);
        }
        let output = trawl(&arguments);
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
    };

    let stopped = crawl(Some("60"));
    assert!(stopped.contains("audit: pages: 60 fetched"), "{stopped}");
    assert!(stopped.contains("incomplete:"), "{stopped}");
    let output = trawl(&["audit", "--db", path(&db), "--worst", "5"]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stdout.contains("URLs waiting"), "{stdout}");
    assert!(stdout.contains("worst lists:"), "{stdout}");
    assert!(
        stderr.contains("is incomplete") && stderr.contains(&format!("trawl crawl {portal}")),
        "{stderr}"
    );

    let whole = crawl(None);
    assert!(whole.contains("complete: no gap"), "{whole}");
    assert!(whole.contains("crawl complete"), "{whole}");
    let output = trawl(&["audit", "--db", path(&db)]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("0 URLs waiting"));
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}
