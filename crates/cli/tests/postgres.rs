//! `trawl crawl`, `export` and `audit` with `--db postgres://...`, against simulated forums
//! served over loopback HTTP and a database of the test cluster (`scripts/test-postgres.sh`
//! starts it; without it these tests fail, naming the script).

mod support;
use support::{learn_plan, path, scratch, serve, text, trawl};
use trawl_store::test_support::fresh_database;

/// What `trawl export` prints for `arguments` (after `export`), one JSON value a line.
fn export(arguments: &[&str]) -> Vec<serde_json::Value> {
    let output = trawl(&[&["export"], arguments].concat());
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// The pages export without the instant of each fetch, which two crawls never share.
fn pages_without_times(mut pages: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    for page in &mut pages {
        page.as_object_mut().unwrap().remove("fetched_at");
    }
    pages
}

#[test]
fn a_crawl_into_postgres_exports_what_a_crawl_into_a_file_exports() {
    let (server, site) = serve("phpbb", 2);
    let directory = scratch("postgres", "same-export");
    let portal = format!("{}{}", server.origin(), site.portal_path());
    let plan = directory.join("plan.json");
    learn_plan(&portal, 200, &plan);
    let file = directory.join("crawl.db");
    let database = fresh_database();
    for db in [path(&file), database.as_str()] {
        let output = trawl(&[
            "crawl",
            &portal,
            "--plan",
            path(&plan),
            "--db",
            db,
            "--delay-ms",
            "0",
        ]);
        assert!(output.status.success(), "{db}: {}", text(&output.stderr));
        assert!(
            text(&output.stdout).contains("crawl complete"),
            "{db}: {}",
            text(&output.stdout)
        );
    }
    let from_file = export(&["--db", path(&file), "threads"]);
    let from_postgres = export(&["--db", &database, "threads"]);
    assert!(from_file.len() > 5, "{} threads", from_file.len());
    assert_eq!(from_postgres, from_file, "the threads differ");
    assert_eq!(
        pages_without_times(export(&["--db", &database, "pages"])),
        pages_without_times(export(&["--db", path(&file), "pages"])),
        "the pages differ"
    );

    // A rerun resumes the stored crawl, which has nothing left to do.
    let rerun = trawl(&["crawl", &portal, "--db", &database, "--delay-ms", "0"]);
    assert!(rerun.status.success(), "{}", text(&rerun.stderr));
    assert!(
        text(&rerun.stderr).contains("resuming the crawl"),
        "{}",
        text(&rerun.stderr)
    );
    assert_eq!(export(&["--db", &database, "threads"]), from_file);

    // The audit reads the same crawl from either store.
    let audit = |db: &str| {
        let output = trawl(&["audit", "--db", db]);
        (output.status.code(), text(&output.stdout))
    };
    assert_eq!(audit(&database), audit(path(&file)));

    // A second forum in the same database: commands that read must now name their site.
    let (other_server, other_site) = serve("smf", 1);
    let other_portal = format!("{}{}", other_server.origin(), other_site.portal_path());
    let other = trawl(&[
        "crawl",
        &other_portal,
        "--db",
        &database,
        "--strategy",
        "bfs",
        "--max-pages",
        "30",
        "--delay-ms",
        "0",
    ]);
    assert!(other.status.success(), "{}", text(&other.stderr));
    let unnamed = trawl(&["export", "--db", &database, "threads"]);
    assert!(!unnamed.status.success());
    assert!(
        text(&unnamed.stderr).contains("name one with --site"),
        "{}",
        text(&unnamed.stderr)
    );
    assert_eq!(
        export(&["--db", &database, "--site", &portal, "threads"]),
        from_file
    );
    let other_pages = export(&["--db", &database, "--site", &other_portal, "pages"]);
    assert_eq!(other_pages.len(), 30, "the second forum's pages alone");

    other_server.stop();
    server.stop();
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn a_crawl_that_cannot_start_leaves_no_site_behind_and_a_missing_site_is_named() {
    let database = fresh_database();
    let failed = trawl(&[
        "crawl",
        "http://127.0.0.1:9/",
        "--db",
        &database,
        "--delay-ms",
        "0",
    ]);
    assert!(!failed.status.success());
    for command in ["export", "audit"] {
        let arguments: &[&str] = match command {
            "export" => &["export", "--db", &database, "threads"],
            _ => &["audit", "--db", &database],
        };
        let output = trawl(arguments);
        assert_eq!(output.status.code(), Some(1), "{command}");
        assert!(
            text(&output.stderr).contains("crawl first with `trawl crawl URL"),
            "{command}: {}",
            text(&output.stderr)
        );
    }
    let watch = trawl(&["watch", "http://127.0.0.1:9/", "--db", &database]);
    assert!(!watch.status.success());
    assert!(
        text(&watch.stderr).contains("there is no crawl of http://127.0.0.1:9/"),
        "{}",
        text(&watch.stderr)
    );
}
