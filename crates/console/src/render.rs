//! A stored page drawn inside the console with its repetitive regions outlined: what page
//! analysis saw on it, for a person judging a vertex of the plan.
//!
//! The page is the forum's own HTML, which must neither run nor reach out from the console: it
//! is parsed as page analysis parses it ([`trawl_page::dom::Document`]) and written again from
//! the tree with only the elements that lay text out (paragraphs, lists, tables, headings,
//! inline emphasis). Scripts, styles, frames, objects, forms' fields and the document's head go
//! with their content; images, video and audio become a bracketed word with their alternative
//! text; links keep their text and lose their target, so nothing on the rendering loads or goes
//! anywhere; every attribute goes but a table cell's spans. Any other element is left out and
//! its content kept. The view carries a content security policy that allows nothing but the
//! console's own stylesheet and script besides, in case a forum's markup slips a loader past
//! these rules.
//!
//! The regions are [`trawl_page::regions::find_regions`]' own: each region's parent is outlined
//! and labelled with its number, records and pattern, and each record's elements are outlined
//! apart; the region the page's posts were read from (its stored post pattern) is marked so.

use std::collections::HashMap;
use std::fmt::Write;

use trawl_model::escape_html as escape;
use trawl_page::dom::{Document, NodeId, NodeKind, ROOT};
use trawl_page::regions::{PatternId, find_regions};

/// Elements written again as they are (without attributes but a cell's spans).
const KEPT: &[&str] = &[
    "div",
    "span",
    "p",
    "br",
    "hr",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "td",
    "th",
    "caption",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "code",
    "em",
    "strong",
    "b",
    "i",
    "u",
    "s",
    "small",
    "sub",
    "sup",
    "section",
    "article",
    "header",
    "footer",
    "nav",
    "main",
    "aside",
    "fieldset",
    "legend",
    "label",
    "abbr",
    "cite",
    "q",
    "del",
    "ins",
    "kbd",
    "var",
    "time",
    "address",
    "figure",
    "figcaption",
    "center",
    "font",
    "tt",
    "big",
    "strike",
    "mark",
];

/// Elements left out with everything inside them.
const DROPPED: &[&str] = &[
    "head", "script", "style", "noscript", "template", "iframe", "frame", "frameset", "object",
    "embed", "applet", "link", "meta", "base", "svg", "math", "canvas", "input", "select",
    "textarea", "button", "option", "datalist", "source", "track", "param", "title",
];

/// Elements that would load something, shown as a bracketed word.
const MEDIA: &[(&str, &str)] = &[
    ("img", "image"),
    ("picture", "image"),
    ("video", "video"),
    ("audio", "audio"),
];

/// Elements with no closing tag.
const VOID: &[&str] = &["br", "hr"];

/// How a node is marked.
#[derive(Debug, Clone, Default)]
struct Marks {
    /// The label of the region whose parent this is.
    region: Option<String>,
    /// The region whose record this element belongs to.
    record_of: Option<usize>,
    /// Whether the page's posts were read from that region.
    posts: bool,
}

/// A rendering and what it marked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendering {
    /// The page's body, written again (see the module's essay).
    pub html: String,
    /// Regions outlined.
    pub regions: usize,
    /// Records outlined, in all regions.
    pub records: usize,
}

/// `html` written again safely, its repetitive regions outlined; `post_pattern` is the pattern
/// the crawl read the page's posts from, when it read any.
pub fn outlined(html: &str, post_pattern: Option<PatternId>) -> Rendering {
    let document = Document::parse(html);
    let regions = find_regions(&document);
    let mut marks: HashMap<NodeId, Marks> = HashMap::new();
    let mut records = 0;
    for (number, region) in regions.iter().enumerate() {
        let posts = post_pattern == Some(region.pattern);
        let label = format!(
            "region {}: {} records{}",
            number + 1,
            region.records.len(),
            if posts { ", posts read here" } else { "" }
        );
        let parent = marks.entry(region.parent).or_default();
        // Two regions can share a parent (runs of two templates under one element): the
        // labels are joined.
        parent.region = Some(match parent.region.take() {
            Some(earlier) => format!("{earlier}; {label}"),
            None => label,
        });
        parent.posts |= posts;
        for &first in &region.records {
            records += 1;
            let mut element = Some(first);
            for _ in 0..region.width {
                let Some(node) = element else { break };
                let entry = marks.entry(node).or_default();
                entry.record_of = Some(number);
                entry.posts |= posts;
                element = next_element(&document, node);
            }
        }
    }
    let mut out = String::with_capacity(html.len() / 2);
    write_children(&document, ROOT, &marks, &mut out);
    Rendering {
        html: out,
        regions: regions.len(),
        records,
    }
}

/// The element after `node` among its siblings.
fn next_element(document: &Document, node: NodeId) -> Option<NodeId> {
    let mut next = document.node(node).next_sibling;
    while let Some(sibling) = next {
        if document.node(sibling).kind == NodeKind::Element {
            return Some(sibling);
        }
        next = document.node(sibling).next_sibling;
    }
    None
}

fn write_children(
    document: &Document,
    node: NodeId,
    marks: &HashMap<NodeId, Marks>,
    out: &mut String,
) {
    for child in document.children(node) {
        write_node(document, child, marks, out);
    }
}

fn write_node(document: &Document, node: NodeId, marks: &HashMap<NodeId, Marks>, out: &mut String) {
    let entry = document.node(node);
    match entry.kind {
        NodeKind::Text => out.push_str(&escape(document.text_of(node))),
        NodeKind::Document => write_children(document, node, marks, out),
        NodeKind::Doctype | NodeKind::Comment => {}
        NodeKind::Element => {
            let tag: &str = entry.tag();
            if DROPPED.contains(&tag) {
                return;
            }
            if let Some((_, word)) = MEDIA.iter().find(|(name, _)| *name == tag) {
                let alternative = document.attribute(node, "alt").unwrap_or("").trim();
                let _ = write!(
                    out,
                    "<span class=\"media\">[{word}{}{}]</span>",
                    if alternative.is_empty() { "" } else { ": " },
                    escape(alternative)
                );
                return;
            }
            let mark = marks.get(&node);
            let written = if tag == "a" {
                Some("span")
            } else {
                KEPT.iter().copied().find(|kept| *kept == tag)
            };
            // An element left out keeps its content; a marked one is written as a `div` (or
            // as itself when kept) so that its outline has something to sit on.
            let written = written.or(mark.map(|_| "div"));
            let Some(written) = written else {
                write_children(document, node, marks, out);
                return;
            };
            out.push('<');
            out.push_str(written);
            let mut classes: Vec<&str> = Vec::new();
            if tag == "a" {
                classes.push("link");
            }
            if let Some(mark) = mark {
                if mark.region.is_some() {
                    classes.push("region");
                }
                if mark.record_of.is_some() {
                    classes.push("record");
                }
                if mark.posts {
                    classes.push("posts");
                }
            }
            if !classes.is_empty() {
                let _ = write!(out, " class=\"{}\"", classes.join(" "));
            }
            if let Some(label) = mark.and_then(|mark| mark.region.as_deref()) {
                let _ = write!(out, " data-region=\"{}\"", escape(label));
            }
            if let Some(region) = mark.and_then(|mark| mark.record_of) {
                let _ = write!(out, " data-record=\"{}\"", region + 1);
            }
            if matches!(tag, "td" | "th") {
                for name in ["colspan", "rowspan"] {
                    if let Some(span) = document
                        .attribute(node, name)
                        .and_then(|value| value.trim().parse::<u16>().ok())
                    {
                        let _ = write!(out, " {name}=\"{span}\"");
                    }
                }
            }
            out.push('>');
            if VOID.contains(&written) {
                return;
            }
            write_children(document, node, marks, out);
            let _ = write!(out, "</{written}>");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renders `html` and checks that every piece of `expected` is in the rendering and no
    /// piece of `absent` is.
    fn check(html: &str, expected: &[&str], absent: &[&str]) -> Rendering {
        let rendering = outlined(html, None);
        for piece in expected {
            assert!(
                rendering.html.contains(piece),
                "{piece:?} missing from {}",
                rendering.html
            );
        }
        for piece in absent {
            assert!(
                !rendering.html.contains(piece),
                "{piece:?} left in {}",
                rendering.html
            );
        }
        rendering
    }

    #[test]
    fn scripts_styles_and_loads_are_removed() {
        check(
            r#"<html><head><title>T</title><link rel="stylesheet" href="http://x.test/a.css">
            <script>alert(1)</script></head><body onload="go()">
            <p style="background:url(http://x.test/b.png)">Hello <b>there</b></p>
            <img src="http://x.test/c.png" alt="logo"><iframe src="http://x.test/"></iframe>
            <script src="http://x.test/d.js"></script><a href="http://x.test/e" onclick="go()">next</a>
            <form action="/login"><input name="user"><button>Log in</button></form>
            <object data="x.swf"></object><video src="v.mp4"></video></body></html>"#,
            &[
                "<p>Hello <b>there</b></p>",
                "<span class=\"media\">[image: logo]</span>",
                "<span class=\"link\">next</span>",
                "[video]",
            ],
            &[
                "script", "alert", "http://", "style", "onload", "onclick", "iframe", "href",
                "src=", "Log in", "<title", "object", "<form",
            ],
        );
    }

    #[test]
    fn text_and_attribute_values_are_escaped() {
        check(
            r#"<p>a &lt;b&gt; &amp; "c"</p><img alt="&quot;><script>x</script>">"#,
            &[
                "a &lt;b&gt; &amp;",
                "[image: &quot;&gt;&lt;script&gt;x&lt;/script&gt;]",
            ],
            &["<script>"],
        );
    }

    #[test]
    fn table_cells_keep_only_their_spans() {
        check(
            r#"<table><tr><td colspan="2" width="9" class="x">a</td><td rowspan="evil">b</td></tr></table>"#,
            &["<td colspan=\"2\">a</td>", "<td>b</td>"],
            &["width", "class=\"x\"", "evil"],
        );
    }

    #[test]
    fn records_and_their_region_are_outlined() {
        let post = |number: usize| {
            format!(
                "<div class=\"post\"><div class=\"author\">member{number}</div>\
                 <div class=\"body\"><p>Reply number {number} with some words.</p></div>\
                 <div class=\"date\">2024-01-0{number}</div></div>"
            )
        };
        let html = format!(
            "<html><body><div class=\"head\">Forum</div><div id=\"posts\">{}</div>\
             <div class=\"foot\">Footer</div></body></html>",
            (1..=4).map(post).collect::<String>()
        );
        let document = Document::parse(&html);
        let pattern = find_regions(&document)
            .iter()
            .find(|region| region.records.len() == 4)
            .expect("the posts are a region")
            .pattern;
        let rendering = outlined(&html, Some(pattern));
        assert!(rendering.regions >= 1, "{rendering:?}");
        assert!(rendering.records >= 4, "{rendering:?}");
        assert!(
            rendering.html.contains(": 4 records, posts read here\""),
            "{}",
            rendering.html
        );
        assert_eq!(
            rendering.html.matches("class=\"record posts\"").count(),
            4,
            "{}",
            rendering.html
        );
        // No region on a page without repetition.
        let plain = outlined("<p>one</p><div>two</div>", None);
        assert_eq!((plain.regions, plain.records), (0, 0));
    }
}
