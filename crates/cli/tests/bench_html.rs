//! `trawl bench freshness --html`: the sweep's table and every plot in one self-contained page.

mod support;
use support::{text, trawl};

#[test]
fn bench_freshness_writes_one_page_holding_the_table_and_every_plot() {
    let out = std::env::temp_dir().join(format!("trawl-bench-html-{}", std::process::id()));
    let page_path = out.join("report.html");
    let output = trawl(&[
        "bench",
        "freshness",
        "--policies",
        "trawl,uniform",
        "--budgets",
        "200,800",
        "--days",
        "12",
        "--stable-days",
        "4",
        "--scale",
        "small",
        "--out",
        out.to_str().unwrap(),
        "--html",
        page_path.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let page = std::fs::read_to_string(&page_path).unwrap();
    let table = std::fs::read_to_string(out.join("freshness.md")).unwrap();
    // One table, with a row for each of the table's body lines, each policy named in it.
    assert_eq!(page.matches("<table>").count(), 1, "{page}");
    let body_rows = table.lines().filter(|line| line.starts_with('|')).count() - 2;
    assert_eq!(page.matches("<tr>").count(), body_rows + 1, "{table}");
    for policy in ["trawl", "uniform"] {
        assert!(page.contains(&format!("<td>{policy}</td>")), "{policy}");
    }
    // Three daily plots per budget and the delay against the budget, inline.
    assert_eq!(page.matches("<figure>").count(), 2 * 3 + 1);
    assert_eq!(page.matches("<svg").count(), 2 * 3 + 1);
    assert!(!page.contains("<?xml") && !page.contains("src="));
    std::fs::remove_dir_all(&out).unwrap();
}
