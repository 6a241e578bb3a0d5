//! `trawl patterns LOG... --out patterns.json`: learn URL patterns and their rankings from a
//! site's browse logs (`trawl-behaviour`), print the tree with each pattern's figures, and write
//! the model for `trawl crawl` to order its frontier by.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use trawl_behaviour::{LogReader, PatternModel, PatternTree, TreeSettings};

#[derive(Debug, Args)]
pub struct PatternsArgs {
    /// Browse logs of one site, in order: combined server logs (Apache/nginx), TSV (target,
    /// referrer, user) or JSON lines ({"target", "referrer", "user"}); `-` reads standard input.
    #[arg(required = true)]
    pub logs: Vec<PathBuf>,
    /// Where to write the patterns as JSON.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run(args: PatternsArgs) -> Result<()> {
    let mut reader = LogReader::new();
    for path in &args.logs {
        if path.as_os_str() == "-" {
            read_into(&mut reader, std::io::stdin().lock()).context("reading standard input")?;
        } else {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            read_into(&mut reader, BufReader::new(file))
                .with_context(|| format!("reading {}", path.display()))?;
        }
    }
    let log = reader.finish();
    let model = PatternModel::learn(&log, TreeSettings::default());
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    print_model(&mut out, &model)?;
    out.flush()?;
    if let Some(path) = &args.out {
        let file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        let mut writer = BufWriter::new(file);
        serde_json::to_writer_pretty(&mut writer, &model)
            .with_context(|| format!("writing {}", path.display()))?;
        writer
            .flush()
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Feeds every line to the reader; bytes that are not UTF-8 (a log line's user agent in
/// Latin-1) are replaced rather than failing the file, and the line is still read.
fn read_into(reader: &mut LogReader, mut input: impl BufRead) -> std::io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&line);
        reader.read_line(text.trim_end_matches(['\n', '\r']));
    }
}

fn print_model(out: &mut impl Write, model: &PatternModel) -> Result<()> {
    let report = &model.report;
    writeln!(
        out,
        "{} lines: {} records, {} malformed, {} not page views, {} of other sites, {} ignored; \
         {} duplicate transitions removed; {} transitions of {} users; site {}",
        report.lines,
        report.records,
        report.malformed,
        report.not_page_views,
        report.other_sites,
        report.ignored,
        report.duplicates,
        model.transitions,
        model.users,
        report.site_host.as_deref().unwrap_or("(no host named)")
    )?;
    for (line, reason) in &report.malformed_examples {
        writeln!(out, "  malformed line {line}: {reason}")?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "pattern tree (urls, F_in, F_out, entries, attention, fetch score, new pages found, \
         discovery score):"
    )?;
    print_node(out, model, &model.tree, 0, 0)?;
    for (title, ranking) in [
        ("comprehensive fetch", &model.fetch_ranking),
        ("timely discovery", &model.discovery_ranking),
    ] {
        writeln!(out)?;
        writeln!(out, "ranking for {title}:")?;
        for (rank, pattern) in ranking.iter().enumerate() {
            writeln!(
                out,
                "{:>4}. {:<12.6} {}",
                rank + 1,
                pattern.score,
                pattern.pattern
            )?;
        }
    }
    Ok(())
}

fn print_node(
    out: &mut impl Write,
    model: &PatternModel,
    tree: &PatternTree,
    id: usize,
    depth: usize,
) -> Result<()> {
    let node = &tree.nodes[id];
    let figures = &node.figures;
    let scores = &model.graph.scores[id];
    writeln!(
        out,
        "{}{}  urls={} in={} out={} entries={} attention={:.4} fetch={:.6} found={} discovery={:.4}{}",
        "  ".repeat(depth),
        node.pattern,
        figures.urls,
        figures.f_in,
        figures.f_out,
        figures.entries,
        scores.attention,
        scores.fetch,
        scores.new_pages_found,
        scores.discovery,
        if node.generalised.is_empty() {
            String::new()
        } else {
            let keys: Vec<String> = node.generalised.iter().map(ToString::to_string).collect();
            format!("  (users alike over {})", keys.join(", "))
        }
    )?;
    for &child in &node.children {
        print_node(out, model, tree, child, depth + 1)?;
    }
    Ok(())
}
