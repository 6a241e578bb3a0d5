//! Link tables: every link of a page with its absolute URL, anchor text and location.
//!
//! iRobot describes an arc of the sitemap by a URL pattern *and* a link location, because links
//! with similar URLs play different roles depending on where they sit (a thread title in the
//! thread list versus the same thread in a "latest topics" box). A link inside a repetitive region
//! is located by the region's [`PatternId`] and its column in the record; a link outside every
//! region by a hash of its tag-and-class path from the root, so every link has a location and the
//! same place on two pages of one template gets the same location.

use url::Url;

use crate::dom::{Document, NodeId, NodeKind, ROOT};
use crate::regions::{ColumnId, PatternId, RecordSlot, Region, column_of, record_slots};

/// Where a link sits on its page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkLocation {
    /// In a record of a repetitive region.
    Region {
        /// The region's pattern.
        pattern: PatternId,
        /// The link's column in the record.
        column: ColumnId,
    },
    /// Outside every region: a hash of the tag-and-class path from the root.
    Path(u64),
}

/// One link of a page.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The `<a>` element.
    pub node: NodeId,
    /// Absolute URL with the fragment removed.
    pub url: String,
    /// Anchor text, whitespace collapsed.
    pub text: String,
    /// Where it sits.
    pub location: LinkLocation,
    /// Index of its region in the region list and of its record, when inside one.
    pub record: Option<(usize, usize)>,
}

/// Builds the link table of `document`, fetched from `page_url`, given its regions. Links that
/// cannot lead to a page (`javascript:`, `mailto:`, fragment-only, malformed) are left out.
pub fn link_table(document: &Document, regions: &[Region], page_url: &Url) -> Vec<Link> {
    link_table_in_slots(
        document,
        regions,
        &record_slots(document, regions),
        page_url,
    )
}

/// [`link_table`] for a caller that has the [`record_slots`] of `regions` already, as the whole
/// analysis does: placing every node in its record is a walk over all the records.
pub(crate) fn link_table_in_slots(
    document: &Document,
    regions: &[Region],
    slots: &[Option<RecordSlot>],
    page_url: &Url,
) -> Vec<Link> {
    let base = document
        .find("base")
        .and_then(|base| document.attribute(base, "href"))
        .and_then(|href| page_url.join(href).ok())
        .unwrap_or_else(|| page_url.clone());
    let mut links = Vec::new();
    for node in document.descendants(ROOT) {
        let data = document.node(node);
        if data.kind != NodeKind::Element {
            continue;
        }
        // A pager may be named only in the head (`<link rel="next">`), with the visible pager
        // drawn by a script or left in `<noscript>` with links the server ignores: the head's
        // `next` and `prev` links are the list's page-flipping links then. They show no text,
        // and they are not always a pager (SMF names the neighbouring threads so), so the
        // learner judges them as it judges links without words: by whether the pages they
        // join share their list's distinctive text.
        let is_head_link = data.is("link");
        if is_head_link {
            if !names_next_or_previous_page(document, node) {
                continue;
            }
        } else if !(data.is("a") || data.is("area")) {
            continue;
        }
        let Some(href) = document.attribute(node, "href") else {
            continue;
        };
        let Some(url) = resolve(&base, href) else {
            continue;
        };
        let (location, record) = match slots[node as usize] {
            Some(slot) => (
                LinkLocation::Region {
                    pattern: regions[slot.region as usize].pattern,
                    column: column_of(document, slot.member, node),
                },
                Some((slot.region as usize, slot.record as usize)),
            ),
            None => {
                // Links that step through different series from one bar ("[Date Prev][Date
                // Next][Thread Prev][Thread Next]" above a mail archive's message) share their
                // tag path: the series each names is part of its place, as a column would be.
                let text = document.text_content(node);
                let path = match series_of_step_link(&text) {
                    Some(series) => {
                        let mut hash = path_hash(document, node);
                        for byte in series.bytes() {
                            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                        }
                        hash
                    }
                    None => path_hash(document, node),
                };
                (LinkLocation::Path(path), None)
            }
        };
        links.push(Link {
            node,
            url,
            text: if is_head_link {
                String::new()
            } else {
                document.text_content(node)
            },
            location,
            record,
        });
    }
    links
}

/// Words that step to the next or the previous item of a series.
const STEP_WORDS: [&str; 19] = [
    "next",
    "prev",
    "previous",
    "older",
    "newer",
    "nächste",
    "nächster",
    "vorherige",
    "vorheriger",
    "suivant",
    "suivante",
    "précédent",
    "précédente",
    "siguiente",
    "anterior",
    "successivo",
    "precedente",
    "volgende",
    "vorige",
];

/// Words naming a list's pages rather than a series of their own ("Next page").
const PAGE_WORDS: [&str; 4] = ["page", "seite", "pagina", "página"];

/// The series a "next" or "previous" link names, when its anchor is one step word and one or
/// two other words of letters ("Thread Next", "Date Prev", "Next topic »"): those words, lower
/// case, in the order written. A bare "Next", a
/// pager's "Next page" and anything longer name no series.
pub fn series_of_step_link(text: &str) -> Option<String> {
    let lowered = text.to_lowercase();
    let words: Vec<&str> = lowered
        .split(|character: char| !character.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    if !(2..=3).contains(&words.len()) {
        return None;
    }
    let steps = words
        .iter()
        .filter(|word| STEP_WORDS.contains(word))
        .count();
    let series: Vec<&str> = words
        .iter()
        .copied()
        .filter(|word| !STEP_WORDS.contains(word))
        .collect();
    let named = !series.is_empty()
        && series
            .iter()
            .all(|word| !PAGE_WORDS.contains(word) && word.chars().all(char::is_alphabetic));
    (steps == 1 && named).then(|| series.join(" "))
}

/// Whether a `<link>`'s `rel` names the next or previous page of a series (HTML's
/// `rel="next"` and `rel="prev"`, tokens compared without regard to case).
fn names_next_or_previous_page(document: &Document, node: NodeId) -> bool {
    document.attribute(node, "rel").is_some_and(|rel| {
        rel.split_ascii_whitespace().any(|token| {
            token.eq_ignore_ascii_case("next")
                || token.eq_ignore_ascii_case("prev")
                || token.eq_ignore_ascii_case("previous")
        })
    })
}

fn resolve(base: &Url, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let mut url = base.join(href).ok()?;
    // Only web links lead anywhere a crawler goes (not `javascript:` or `mailto:`). A page saved
    // to disk and read without its address (`trawl extract page.html`) has a `file:` base, and
    // its relative links resolve to `file:` URLs: they are kept, or such a page would lose every
    // profile link and permalink and with them its authors.
    let saved_page_link = base.scheme() == "file" && url.scheme() == "file";
    if !matches!(url.scheme(), "http" | "https") && !saved_page_link {
        return None;
    }
    url.set_fragment(None);
    Some(url.into())
}

/// Hash of the tag-and-class path from the root to `node` (digits in classes ignored), the same
/// signature regions use, so template positions match across pages.
fn path_hash(document: &Document, node: NodeId) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut current = Some(node);
    while let Some(id) = current {
        let data = document.node(id);
        if data.kind == NodeKind::Element {
            for byte in data.tag().as_bytes() {
                hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
            }
            if let Some(class) = document.attribute(id, "class") {
                for byte in class.bytes().filter(|b| !b.is_ascii_digit()) {
                    hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                }
            }
            hash = (hash ^ u64::from(b'/')).wrapping_mul(0x0100_0000_01b3);
        }
        current = data.parent;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regions::find_regions;

    fn table(html: &str) -> Vec<Link> {
        let document = Document::parse(html);
        let regions = find_regions(&document);
        link_table(
            &document,
            &regions,
            &Url::parse("http://forum.test/board/index.php?x=1").unwrap(),
        )
    }

    #[test]
    fn step_links_name_their_series() {
        let cases = [
            ("Thread Next", Some("thread")),
            ("Date Prev", Some("date")),
            ("Next topic »", Some("topic")),
            ("« Previous thread", Some("thread")),
            ("Next", None),
            ("Next page", None),
            ("Seite 2", None),
            ("2", None),
            ("Next 10 results here", None),
            ("Date Index", None),
        ];
        for (text, expected) in cases {
            assert_eq!(series_of_step_link(text).as_deref(), expected, "{text}");
        }
    }

    #[test]
    fn step_links_of_one_bar_are_placed_by_the_series_they_name() {
        let links = table(
            "<div class='msgnav'>[<a href='m1.html'>Date Prev</a>][<a href='m3.html'>Date Next</a>]\
             [<a href='m0.html'>Thread Prev</a>][<a href='m7.html'>Thread Next</a>]\
             [<a href='m9.html'>Next</a>][<a href='m8.html'>2</a>]</div>",
        );
        let place = |text: &str| {
            links
                .iter()
                .find(|link| link.text == text)
                .map(|link| link.location)
                .expect("the link is read")
        };
        assert_eq!(place("Date Prev"), place("Date Next"));
        assert_eq!(place("Thread Prev"), place("Thread Next"));
        assert_ne!(place("Date Next"), place("Thread Next"));
        assert_eq!(place("Next"), place("2"));
        assert_ne!(place("Next"), place("Thread Next"));
    }

    #[test]
    fn urls_resolve_and_unusable_links_are_dropped() {
        let links = table(
            "<a href='viewtopic.php?t=1#p3'>A</a><a href='/u/2'>B</a><a href='https://other.test/x'>C</a>\
             <a href='#top'>D</a><a href='javascript:void(0)'>E</a><a href='mailto:a@b'>F</a><a>G</a>\
             <a href='http://[bad'>H</a>",
        );
        let urls: Vec<&str> = links.iter().map(|link| link.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "http://forum.test/board/viewtopic.php?t=1",
                "http://forum.test/u/2",
                "https://other.test/x"
            ]
        );
        assert_eq!(links[0].text, "A");
    }

    /// Regression: a saved page read without its address lost every relative link, and with
    /// them its posts' authors.
    #[test]
    fn a_saved_pages_relative_links_are_kept() {
        let html = "<a href='viewtopic.php?t=1'>A</a><a href='/u/2'>B</a>\
                    <a href='javascript:void(0)'>C</a><a href='https://other.test/x'>D</a>";
        let document = Document::parse(html);
        let regions = find_regions(&document);
        let base = Url::parse("file:///saved/page.html").unwrap();
        let links = link_table(&document, &regions, &base);
        let urls: Vec<&str> = links.iter().map(|link| link.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "file:///saved/viewtopic.php?t=1",
                "file:///u/2",
                "https://other.test/x"
            ]
        );
        // A web page's links to local files stay out.
        assert!(table("<a href='file:///etc/passwd'>x</a>").is_empty());
    }

    /// Regression: a list paged only by `<link rel="next">` in the head was never paged.
    #[test]
    fn head_links_to_the_next_and_previous_page_are_links() {
        let links = table(
            "<head><link rel='stylesheet' href='/s.css'><link rel='canonical' href='/b?id=1'>\
             <link rel='prev' href='?id=1&after=7'><link rel='Next' href='?id=1&after=19'>\
             <link rel='alternate next' href='?id=1&after=20'><link rel='next'></head>\
             <body><a href='/t/1'>Topic</a></body>",
        );
        let found: Vec<(&str, &str)> = links
            .iter()
            .map(|link| (link.url.as_str(), link.text.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("http://forum.test/board/index.php?id=1&after=7", ""),
                ("http://forum.test/board/index.php?id=1&after=19", ""),
                ("http://forum.test/board/index.php?id=1&after=20", ""),
                ("http://forum.test/t/1", "Topic"),
            ]
        );
    }

    #[test]
    fn base_elements_change_resolution() {
        let links = table("<head><base href='/forum/'></head><a href='t/1'>x</a>");
        assert_eq!(links[0].url, "http://forum.test/forum/t/1");
    }

    #[test]
    fn links_in_records_share_columns_and_outside_links_have_paths() {
        let row = |n: u32| {
            format!(
                "<li class='row{n}'><a class='title' href='/t/{n}'>T</a> <a class='who' href='/u/{n}'>U</a></li>"
            )
        };
        let html = format!(
            "<div class='nav'><a href='/'>Home</a></div><ul>{}{}{}</ul><div class='foot'><a href='/faq'>FAQ</a></div>",
            row(1),
            row(2),
            row(3)
        );
        let links = table(&html);
        assert_eq!(links.len(), 8);
        assert!(matches!(links[0].location, LinkLocation::Path(_)));
        assert!(matches!(links[7].location, LinkLocation::Path(_)));
        assert_ne!(links[0].location, links[7].location);
        assert_eq!(links[1].location, links[3].location);
        assert_eq!(links[2].location, links[6].location);
        assert_ne!(links[1].location, links[2].location);
        assert_eq!(links[3].record.map(|(_, record)| record), Some(1));
    }
}
