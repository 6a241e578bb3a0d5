//! The tables a benchmark prints, kept to be written as one HTML page too (`--html`).
//!
//! `trawl bench crawl` and `trawl bench learn` print markdown tables as their runs finish, which
//! docs/BENCHMARKS.md takes as they are. With `--html report.html` the same lines, and the
//! plots the run drew, are written as one self-contained page through
//! [`trawl_eval::html_report`], as `trawl bench freshness --html` writes its own.

use std::path::Path;

use anyhow::{Context, Result};
use trawl_eval::html_report::{Figure, Report, Section, render};

/// The markdown a benchmark prints, section by section, kept for its page.
#[derive(Debug, Default)]
pub struct PrintedTables {
    sections: Vec<Section>,
}

impl PrintedTables {
    /// Starts a section of the page under `heading`: the lines printed from now on are its.
    pub fn section(&mut self, heading: &str) {
        self.sections.push(Section {
            heading: heading.to_string(),
            ..Section::default()
        });
    }

    /// Prints `line` (a table's row, a blank line, a sentence) and keeps it in the section.
    pub fn line(&mut self, line: &str) {
        println!("{line}");
        if let Some(section) = self.sections.last_mut() {
            section.markdown.push_str(line);
            section.markdown.push('\n');
        }
    }

    /// Adds a plot (an SVG picture's text) to the section.
    pub fn figure(&mut self, caption: &str, svg: String) {
        if let Some(section) = self.sections.last_mut() {
            section.figures.push(Figure {
                caption: caption.to_string(),
                svg,
            });
        }
    }

    /// Writes every section to `path` as one page titled `title`, under a line naming the
    /// command that made it and when.
    pub fn write_html(self, path: &Path, title: &str) -> Result<()> {
        let command: Vec<String> = std::env::args().collect();
        let report = Report {
            title: title.to_string(),
            subtitle: format!(
                "{}; written {}",
                command.join(" "),
                jiff::Timestamp::now().strftime("%Y-%m-%d %H:%M UTC")
            ),
            sections: self.sections,
        };
        std::fs::write(path, render(&report))
            .with_context(|| format!("cannot write {}", path.display()))
    }
}
