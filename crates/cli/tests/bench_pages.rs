//! `trawl bench crawl --html` and `trawl bench learn --html`: the tables printed, and the
//! learning curve, written as one self-contained page too.

mod support;
use support::{text, trawl};

/// Runs `trawl bench` with `arguments` and `--html`; checks that the page holds every table
/// the run printed, row by row, and `figures` plots; returns the page.
fn check_page(name: &str, arguments: &[&str], tables: usize, figures: usize) -> String {
    let path = std::env::temp_dir().join(format!("trawl-{name}-{}.html", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut all = vec!["bench"];
    all.extend(arguments);
    all.extend(["--html", path.to_str().unwrap()]);
    let output = trawl(&all);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let printed = text(&output.stdout);
    let page = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(page.starts_with("<!doctype html>"), "{page}");
    assert_eq!(page.matches("<table>").count(), tables, "{printed}\n{page}");
    // Every printed row of every table is a row of the page: the header and separator lines
    // of each table make one row together.
    let rows = printed.lines().filter(|line| line.starts_with('|')).count();
    assert_eq!(
        page.matches("<tr>").count(),
        rows - tables,
        "{printed}\n{page}"
    );
    for line in printed.lines().filter(|line| line.starts_with("| ")) {
        let first_cell = line.split('|').nth(1).unwrap().trim();
        assert!(
            page.contains(&format!("<th>{first_cell}</th>"))
                || page.contains(&format!("<td>{first_cell}</td>"))
                || page.contains(&format!("<td class=\"number\">{first_cell}</td>")),
            "{first_cell} of {line} is not on the page"
        );
    }
    assert_eq!(page.matches("<figure>").count(), figures, "{page}");
    assert_eq!(page.matches("<svg").count(), figures, "{page}");
    // Self-contained: nothing is fetched from anywhere.
    assert!(!page.contains("src=") && !page.contains("<link"), "{page}");
    page
}

#[test]
fn bench_crawl_writes_its_tables_as_one_page() {
    let page = check_page(
        "bench-crawl",
        &[
            "crawl",
            "--family",
            "phpbb",
            "--crawlers",
            "bfs,plan",
            "--in-process",
            "--samples",
            "80",
            "--max-fetches",
            "300",
        ],
        2,
        0,
    );
    for crawler in ["breadth-first", "trawl plan"] {
        assert!(page.contains(&format!("<td>{crawler}</td>")), "{crawler}");
    }
}

#[test]
fn bench_learn_writes_its_tables_and_curve_as_one_page() {
    let page = check_page(
        "bench-learn",
        &[
            "learn",
            "--family",
            "phpbb",
            "--seeds",
            "1",
            "--samples",
            "60,120",
            "--max-fetches",
            "300",
        ],
        2,
        1,
    );
    assert!(page.contains("<h2>The learning curve</h2>"), "{page}");
}
