//! A benchmark's tables and plots as one self-contained HTML page (`trawl bench ... --html`).
//!
//! The benchmarks write what docs/BENCHMARKS.md shows: markdown tables and SVG plots, each in a
//! file of its own. A person reviewing a run would rather open one page. This module puts them
//! together: the markdown of each section is turned into HTML (pipe tables become tables, the
//! other lines paragraphs) and each SVG is put inline, so the page needs no other file and no
//! network; the only styling is a short stylesheet in the page itself.

use std::fmt::Write;

use trawl_model::escape_html as escape;

/// One plot of a section.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// What it shows, written under it.
    pub caption: String,
    /// The SVG picture's text.
    pub svg: String,
}

/// One part of the report: a heading, the benchmark's markdown and its plots.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Section {
    pub heading: String,
    /// Markdown as the benchmark prints it: pipe tables and lines of text.
    pub markdown: String,
    pub figures: Vec<Figure>,
}

/// The whole page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    pub title: String,
    /// A line under the title: the command that made it, and when.
    pub subtitle: String,
    pub sections: Vec<Section>,
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:80em;color:#1d1d1f}\
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:0.2em 0.6em}\
td.number{text-align:right}th{background:#f4f4f4}figure{margin:1em 0}\
figure svg{max-width:100%;height:auto}figcaption{color:#555}";

/// The cells of a pipe-table row, trimmed (`| a | b |` gives `a`, `b`).
fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim();
    let inner = inner.strip_prefix('|').unwrap_or(inner);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').map(str::trim).collect()
}

/// Whether a row is the line under a table's header (`| --- | ---: |`).
fn is_separator(line: &str) -> bool {
    cells(line).iter().all(|cell| {
        !cell.is_empty()
            && cell
                .chars()
                .all(|character| matches!(character, '-' | ':' | ' '))
    })
}

fn looks_numeric(cell: &str) -> bool {
    let digits = cell
        .trim_end_matches(['%', 's', 'h'])
        .replace([',', '.', '-', '+', ' '], "");
    !digits.is_empty() && digits.chars().all(|character| character.is_ascii_digit())
}

fn table_html(rows: &[&str], out: &mut String) {
    out.push_str("<table>");
    let header_rows = rows.iter().position(|row| is_separator(row)).unwrap_or(0);
    if header_rows > 0 {
        out.push_str("<thead>");
        for row in &rows[..header_rows] {
            out.push_str("<tr>");
            for cell in cells(row) {
                let _ = write!(out, "<th>{}</th>", escape(cell));
            }
            out.push_str("</tr>");
        }
        out.push_str("</thead>");
    }
    out.push_str("<tbody>");
    let body_start = if header_rows > 0 { header_rows + 1 } else { 0 };
    for row in &rows[body_start.min(rows.len())..] {
        out.push_str("<tr>");
        for cell in cells(row) {
            let class = if looks_numeric(cell) {
                " class=\"number\""
            } else {
                ""
            };
            let _ = write!(out, "<td{class}>{}</td>", escape(cell));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

/// The markdown of a benchmark as HTML: runs of lines starting with `|` are tables, headings
/// (`#`) headings, other lines paragraphs.
pub fn markdown_html(markdown: &str) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = markdown.lines().collect();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index].trim();
        if line.starts_with('|') {
            let start = index;
            while index < lines.len() && lines[index].trim().starts_with('|') {
                index += 1;
            }
            table_html(&lines[start..index], &mut out);
            continue;
        }
        if let Some(heading) = line.strip_prefix('#') {
            let _ = write!(
                out,
                "<h3>{}</h3>",
                escape(heading.trim_start_matches('#').trim())
            );
        } else if !line.is_empty() {
            let _ = write!(out, "<p>{}</p>", escape(line));
        }
        index += 1;
    }
    out
}

/// An SVG file's text made fit to stand inside HTML: an XML declaration dropped.
fn inline_svg(svg: &str) -> &str {
    let trimmed = svg.trim_start();
    match trimmed.strip_prefix("<?xml") {
        Some(rest) => rest
            .split_once("?>")
            .map_or(trimmed, |(_, after)| after.trim_start()),
        None => trimmed,
    }
}

/// The report as one HTML page.
pub fn render(report: &Report) -> String {
    let mut out = String::from("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">");
    let _ = write!(
        out,
        "<title>{}</title><style>{STYLE}</style></head><body><h1>{}</h1>",
        escape(&report.title),
        escape(&report.title)
    );
    if !report.subtitle.is_empty() {
        let _ = write!(
            out,
            "<p class=\"subtitle\">{}</p>",
            escape(&report.subtitle)
        );
    }
    for section in &report.sections {
        let _ = write!(out, "<section><h2>{}</h2>", escape(&section.heading));
        out.push_str(&markdown_html(&section.markdown));
        for figure in &section.figures {
            let _ = write!(
                out,
                "<figure>{}<figcaption>{}</figcaption></figure>",
                inline_svg(&figure.svg),
                escape(&figure.caption)
            );
        }
        out.push_str("</section>");
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_markdown(markdown: &str, expected: &str) {
        assert_eq!(markdown_html(markdown), expected, "{markdown}");
    }

    #[test]
    fn a_pipe_table_becomes_a_table() {
        check_markdown(
            "| policy | delay |\n| --- | ---: |\n| trawl | 1.5 h |\n| uniform | 12 |\n",
            "<table><thead><tr><th>policy</th><th>delay</th></tr></thead><tbody>\
             <tr><td>trawl</td><td class=\"number\">1.5 h</td></tr>\
             <tr><td>uniform</td><td class=\"number\">12</td></tr></tbody></table>",
        );
    }

    #[test]
    fn a_table_without_header_line_is_all_body() {
        check_markdown(
            "| a | 1 |\n",
            "<table><tbody><tr><td>a</td><td class=\"number\">1</td></tr></tbody></table>",
        );
    }

    #[test]
    fn lines_around_tables_are_paragraphs_and_headings() {
        check_markdown(
            "## Stable stage\nPooled over forums.\n\n| x |\n| - |\n| <1> |\nEnd & more",
            "<h3>Stable stage</h3><p>Pooled over forums.</p><table><thead><tr><th>x</th></tr>\
             </thead><tbody><tr><td>&lt;1&gt;</td></tr></tbody></table><p>End &amp; more</p>",
        );
    }

    #[test]
    fn numbers_are_told_from_words() {
        for (cell, numeric) in [
            ("12", true),
            ("1,234.5", true),
            ("-3.2%", true),
            ("0.5 h", true),
            ("trawl", false),
            ("", false),
            ("-", false),
        ] {
            assert_eq!(looks_numeric(cell), numeric, "{cell:?}");
        }
    }

    #[test]
    fn an_svg_loses_its_xml_declaration() {
        assert_eq!(
            inline_svg("<?xml version=\"1.0\"?>\n<svg></svg>"),
            "<svg></svg>"
        );
        assert_eq!(inline_svg("<svg/>"), "<svg/>");
    }

    #[test]
    fn the_page_holds_every_table_and_figure() {
        let report = Report {
            title: "Freshness".to_string(),
            subtitle: "trawl bench freshness, 2026-11-28".to_string(),
            sections: vec![
                Section {
                    heading: "Policies".to_string(),
                    markdown: "| policy | delay |\n| --- | --- |\n| trawl | 2 |\n".to_string(),
                    figures: vec![Figure {
                        caption: "delay per day".to_string(),
                        svg: "<?xml version=\"1.0\"?><svg id=\"one\"></svg>".to_string(),
                    }],
                },
                Section {
                    heading: "Budgets".to_string(),
                    markdown: "| budget |\n| --- |\n| 1000 |\n".to_string(),
                    figures: Vec::new(),
                },
            ],
        };
        let page = render(&report);
        assert!(page.starts_with("<!doctype html>"));
        assert_eq!(page.matches("<table>").count(), 2);
        assert_eq!(page.matches("<section>").count(), 2);
        assert!(page.contains("<svg id=\"one\"></svg><figcaption>delay per day</figcaption>"));
        assert!(!page.contains("<?xml"));
        assert!(page.contains("<td class=\"number\">1000</td>"));
        // Self-contained: nothing is fetched from anywhere.
        assert!(!page.contains("src="));
        assert!(!page.contains("<link"));
    }
}
