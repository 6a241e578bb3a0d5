//! `trawl sim browse-log` and `trawl patterns`, run as a user runs them: a simulated forum's
//! server log in, a pattern tree with its figures and a patterns file out.

use std::process::{Command, Output};

/// Runs the `trawl` binary as a user would and waits for it.
fn trawl(arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trawl"))
        .args(arguments)
        .output()
        .expect("trawl runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A scratch directory of this test process, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("trawl-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path).expect("scratch directory");
        Scratch(path)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes a browse log of `family`, learns patterns from it, and checks that the tree names
/// each kind of page in `expected_patterns` and that the patterns file reads back.
fn check(family: &str, expected_patterns: &[&str]) {
    let scratch = Scratch::new(&format!("patterns-{family}"));
    let log = trawl(&[
        "sim",
        "browse-log",
        "--family",
        family,
        "--seed",
        "4",
        "--users",
        "40",
        "--days",
        "8",
    ]);
    assert!(log.status.success(), "{}", stderr(&log));
    let log_path = scratch.0.join("access.log");
    // A tenth of torn lines, as a log rotated mid-write has: counted, never fatal.
    let mut text = String::new();
    let mut torn = 0;
    for (index, line) in stdout(&log).lines().enumerate() {
        text.push_str(line);
        text.push('\n');
        if index % 9 == 8 {
            text.push_str(&line[..line.len() / 2]);
            text.push('\n');
            torn += 1;
        }
    }
    std::fs::write(&log_path, text).expect("log written");
    let out_path = scratch.0.join("patterns.json");
    let output = trawl(&[
        "patterns",
        log_path.to_str().expect("path"),
        "--out",
        out_path.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    assert!(
        printed.contains(&format!("{torn} malformed")),
        "{family}: {torn} torn lines not reported:\n{printed}"
    );
    for pattern in expected_patterns {
        assert!(
            printed
                .lines()
                .any(|line| line.trim_start().starts_with(pattern)),
            "{family}: no pattern {pattern} in:\n{printed}"
        );
    }
    let model = trawl_behaviour::PatternModel::from_json(
        &std::fs::read_to_string(&out_path).expect("patterns file"),
    )
    .expect("patterns file reads back");
    assert_eq!(model.report.malformed, torn);
}

#[test]
fn patterns_of_simulated_server_logs() {
    check(
        "phpbb",
        &["/index.php ", "/viewforum.php?f={n} ", "/memberlist.php?"],
    );
    check("xenforo", &["/ "]);
}

#[test]
fn browse_log_refuses_days_outside_the_history() {
    let output = trawl(&[
        "sim",
        "browse-log",
        "--family",
        "phpbb",
        "--days",
        "2",
        "--from",
        "1999-01-01",
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("outside the forum's history"),
        "{}",
        stderr(&output)
    );
}
