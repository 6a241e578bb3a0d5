//! `trawl sim replay` and `trawl bench freshness`, run as a user runs them.

// The shared support also serves forums over HTTP, which a replay never needs.
mod support;
use support::{text, trawl};

#[test]
fn replay_prints_one_json_object_with_the_stable_stage() {
    let output = trawl(&[
        "sim",
        "replay",
        "--policy",
        "lws-bc",
        "--budget",
        "500/day",
        "--days",
        "20",
        "--stable-days",
        "5",
        "--scale",
        "small",
        "--seed",
        "3",
        "--json",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let value: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(value["policy"], "lws-bc");
    assert_eq!(value["budget_per_day"], 500);
    for field in ["mean_delay_s", "p95_delay_s", "coverage", "utilisation"] {
        assert!(value[field].is_f64(), "{field}: {value}");
    }
    assert!(value["posts_lost"].is_u64(), "{value}");
}

#[test]
fn replay_reports_days_labelled_from_the_given_date() {
    let output = trawl(&[
        "sim",
        "replay",
        "--budget",
        "400",
        "--days",
        "10",
        "--stable-days",
        "3",
        "--scale",
        "small",
        "--from",
        "2006-01-01",
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("2006-01-01") && stdout.contains("2006-01-10"),
        "{stdout}"
    );
    assert!(!stdout.contains("2006-01-11"), "{stdout}");
    assert!(
        stdout.contains("index lists:") && stdout.contains("post lists:"),
        "{stdout}"
    );
}

#[test]
fn replay_mistakes_say_what_to_do() {
    for (arguments, expected) in [
        (vec!["--policy", "fastest"], "choose one of: trawl, oracle"),
        (vec!["--budget", "lots"], "give fetches a day, as 3000/day"),
        (vec!["--family", "nosuch"], "unknown family"),
    ] {
        let mut all = vec!["sim", "replay", "--scale", "small", "--days", "5"];
        all.extend(arguments);
        let output = trawl(&all);
        assert!(!output.status.success(), "{all:?}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(expected), "{all:?}: {stderr}");
    }
}

/// One small sweep checks the table, the plots, and `--html`: the table and every plot in one
/// self-contained page.
#[test]
fn bench_freshness_writes_the_table_the_plots_and_one_page_of_both() {
    let out = std::env::temp_dir().join(format!("trawl-freshness-{}", std::process::id()));
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
    let table = std::fs::read_to_string(out.join("freshness.md")).unwrap();
    assert_eq!(table.lines().count(), 6, "{table}");
    for name in [
        "daily-utilisation-200.svg",
        "daily-coverage-800.svg",
        "daily-timeliness-800.svg",
        "delay-against-budget.svg",
    ] {
        let svg = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(svg.starts_with("<svg"), "{name}");
    }
    let page = std::fs::read_to_string(&page_path).unwrap();
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

#[test]
fn bench_freshness_tables_and_plots_runs_kept_by_earlier_sweeps() {
    // Corpus sweeps run one policy at a time; `--runs-from` puts their kept runs together.
    let base = std::env::temp_dir().join(format!("trawl-kept-runs-{}", std::process::id()));
    let sweep = |policy: &str| {
        let out = base.join(policy);
        let output = trawl(&[
            "bench",
            "freshness",
            "--policies",
            policy,
            "--budgets",
            "300",
            "--days",
            "10",
            "--stable-days",
            "4",
            "--scale",
            "small",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{}", text(&output.stderr));
        assert!(out.join(format!("runs/{policy}-300.json")).exists());
        let table = std::fs::read_to_string(out.join("freshness.md")).unwrap();
        table.lines().nth(2).unwrap().to_string()
    };
    let rows = [sweep("uniform"), sweep("trawl")];
    let together = base.join("together");
    let output = trawl(&[
        "bench",
        "freshness",
        "--runs-from",
        base.join("uniform").to_str().unwrap(),
        base.join("trawl").to_str().unwrap(),
        "--out",
        together.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let table = std::fs::read_to_string(together.join("freshness.md")).unwrap();
    // Ours first, as in the policy list; each row as its own sweep wrote it.
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines[2..], [rows[1].as_str(), rows[0].as_str()], "{table}");
    let svg = std::fs::read_to_string(together.join("daily-coverage-300.svg")).unwrap();
    assert!(svg.contains("trawl") && svg.contains("uniform"));
    std::fs::remove_dir_all(&base).unwrap();
}
