//! What the learner keeps of one sampled page.
//!
//! A parsed page holds its whole tree; five hundred of them would hold hundreds of megabytes that
//! learning never looks at again. [`PageSummary`] keeps only what the sitemap needs: the page's
//! repetitive patterns with their record counts and area shares (layout clustering), its link
//! table (arcs), its text blocks (near-duplicates), what records it holds (roles) and its size
//! and sampling level (informativeness, depth).

use trawl_model::FetchResponse;
use trawl_page::analysis::{PageAnalysis, PageStructure, RecordsWanted, analyse_structure};
use trawl_page::links::LinkLocation;
use trawl_page::regions::{PatternId, Region, single_record_candidates};
use trawl_page::time::DateContext;
use url::Url;

use crate::sample::SampleRequest;

/// One repetitive region of a page, as layout clustering sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionSummary {
    /// The region's pattern, stable across the pages of one site.
    pub pattern: PatternId,
    /// Records in the region.
    pub records: usize,
    /// The region's share of the page (text and elements averaged), our stand-in for the rendered
    /// area iRobot measured with a layout engine.
    pub area: f64,
}

/// One link of a page.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkSummary {
    /// Absolute URL, fragment removed.
    pub url: Url,
    /// Anchor text, whitespace collapsed.
    pub text: String,
    /// Where the link sits.
    pub location: LinkLocation,
}

/// One sampled page, reduced to what learning uses.
#[derive(Debug, Clone, PartialEq)]
pub struct PageSummary {
    /// The URL asked for.
    pub url: Url,
    /// Sampling level: links followed from the portal.
    pub depth: u32,
    /// HTTP status.
    pub status: u16,
    /// Where a redirect points, resolved against the URL.
    pub redirect: Option<Url>,
    /// Body size in bytes.
    pub size: usize,
    /// Repetitive regions.
    pub regions: Vec<RegionSummary>,
    /// Elements that would be records of a pattern if they repeated (one per pattern, records
    /// = 1), to recognise lone records of patterns known from other pages.
    pub lone_records: Vec<RegionSummary>,
    /// Every followable link.
    pub links: Vec<LinkSummary>,
    /// Visible text blocks in document order, for near-duplicate detection.
    pub text_blocks: Vec<crate::duplicates::TextBlock>,
    /// Posts read from the page.
    pub posts: usize,
    /// Posts whose time was read.
    pub posts_with_time: usize,
    /// Mean length of the posts' text in words, each CJK character counting as a word (0
    /// without posts): posts are paragraphs, while rows of a board misread as posts are a title
    /// and a few numbers.
    pub mean_post_words: f64,
    /// URLs of the thread entries read from the page (when it lists threads).
    pub thread_entry_urls: Vec<Url>,
    /// Where the posts' author names link (their members' pages), resolved against the page's
    /// URL, without fragments.
    pub post_author_urls: Vec<Url>,
    /// The posts' permalinks, resolved against the page's URL, without fragments: a page whose
    /// posts' permalinks spell another URL shape names that shape as its posts' single-post
    /// views.
    pub post_permalink_urls: Vec<Url>,
    /// Distinct author names among the posts.
    pub distinct_post_authors: usize,
    /// The document's `<title>`, whitespace collapsed, digits left out (pages of one list differ
    /// in their page number at most).
    pub title: String,
}

impl PageSummary {
    /// Summarises the response to a sampling request.
    pub fn from_response(request: &SampleRequest, response: &FetchResponse) -> PageSummary {
        let analysis = analyse_response(&request.url, response);
        PageSummary::from_analysis(
            &analysis,
            request.depth,
            response.status,
            redirect_target(&request.url, response),
            response.body.len(),
        )
    }

    /// Summarises an analysed page.
    pub fn from_analysis(
        analysis: &PageAnalysis,
        depth: u32,
        status: u16,
        redirect: Option<Url>,
        size: usize,
    ) -> PageSummary {
        let regions = region_summaries(&analysis.regions);
        let links = analysis
            .links
            .iter()
            .filter_map(|link| {
                Some(LinkSummary {
                    url: Url::parse(&link.url).ok()?,
                    text: link.text.clone(),
                    location: link.location,
                })
            })
            .collect();
        PageSummary {
            url: analysis.url.clone(),
            depth,
            status,
            redirect,
            size,
            regions,
            lone_records: lone_records(&analysis.document),
            links,
            text_blocks: crate::duplicates::text_blocks(&analysis.document),
            posts: analysis.posts.len(),
            posts_with_time: analysis
                .posts
                .iter()
                .filter(|post| post.time.is_some())
                .count(),
            mean_post_words: analysis
                .posts
                .iter()
                .map(|post| word_count(&post.text) as f64)
                .sum::<f64>()
                / analysis.posts.len().max(1) as f64,
            thread_entry_urls: analysis
                .thread_entries
                .iter()
                .filter_map(|entry| Url::parse(&entry.url).ok())
                .collect(),
            post_author_urls: analysis
                .posts
                .iter()
                .filter_map(|post| {
                    let mut url = analysis.url.join(post.author_url.as_deref()?).ok()?;
                    url.set_fragment(None);
                    Some(url)
                })
                .collect(),
            post_permalink_urls: analysis
                .posts
                .iter()
                .filter_map(|post| {
                    let mut url = analysis.url.join(post.permalink.as_deref()?).ok()?;
                    url.set_fragment(None);
                    Some(url)
                })
                .collect(),
            distinct_post_authors: analysis
                .posts
                .iter()
                .filter_map(|post| post.author.as_deref())
                .collect::<std::collections::HashSet<&str>>()
                .len(),
            title: title_without_digits(&analysis.document),
        }
    }
}

/// The document's title with whitespace collapsed and digits left out.
fn title_without_digits(document: &trawl_page::dom::Document) -> String {
    let Some(title) = document.find("title") else {
        return String::new();
    };
    document
        .text_content(title)
        .split_whitespace()
        .map(|word| {
            word.chars()
                .filter(|c| !c.is_ascii_digit())
                .collect::<String>()
        })
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lone-record candidates of a page, one per pattern (the largest).
pub fn lone_records(document: &trawl_page::dom::Document) -> Vec<RegionSummary> {
    lone_records_of(&single_record_candidates(document))
}

/// [`lone_records`] from candidates already found, for a caller that needs them too.
pub fn lone_records_of(candidates: &[trawl_page::regions::SingleRecord]) -> Vec<RegionSummary> {
    let mut by_pattern: std::collections::BTreeMap<PatternId, f64> = Default::default();
    for candidate in candidates {
        let area = f64::from(candidate.text_share + candidate.node_share) / 2.0;
        let entry = by_pattern.entry(candidate.pattern).or_insert(area);
        *entry = entry.max(area);
    }
    by_pattern
        .into_iter()
        .map(|(pattern, area)| RegionSummary {
            pattern,
            records: 1,
            area,
        })
        .collect()
}

/// A page's regions, completed with its lone records of patterns that `is_known` (patterns seen
/// repeating elsewhere on the site) when the page has no region of that pattern already.
pub fn with_lone_records(
    regions: &[RegionSummary],
    lone_records: &[RegionSummary],
    is_known: impl Fn(PatternId) -> bool,
) -> Vec<RegionSummary> {
    let mut completed = regions.to_vec();
    for lone in lone_records {
        if is_known(lone.pattern) && !regions.iter().any(|region| region.pattern == lone.pattern) {
            completed.push(lone.clone());
        }
    }
    completed
}

/// Words of a text: runs of letters and digits, each Chinese, Japanese or Korean character
/// counting as one (those scripts do not separate words with spaces).
pub fn word_count(text: &str) -> usize {
    let mut words = 0;
    let mut in_word = false;
    for character in text.chars() {
        let cjk = matches!(u32::from(character), 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF);
        if cjk {
            words += 1;
            in_word = false;
        } else if character.is_alphanumeric() {
            if !in_word {
                words += 1;
            }
            in_word = true;
        } else {
            in_word = false;
        }
    }
    words
}

/// Analyses the body of a response to a request for `url`, with relative dates resolved against
/// the response's instant. The sampler and the crawler read pages the same way through this.
///
/// A response that declares a type other than HTML (an RSS or Atom feed, JSON, an image) is read
/// as an empty page: its text is no post and its URLs no links of the site's pages, and parsing a
/// feed as HTML made its items look like a thread's posts. A response without a type is sniffed
/// as HTML, as browsers do.
pub fn analyse_response(url: &Url, response: &FetchResponse) -> PageAnalysis {
    response_structure(url, response).read_records(RecordsWanted::Both)
}

/// The first half of [`analyse_response`]: the page parsed, its regions found and its links
/// placed, for a crawler that classifies the page before it reads its records.
pub fn response_structure(url: &Url, response: &FetchResponse) -> PageStructure {
    let context = DateContext::new(response.fetched_at, None);
    let content_type = response.header("content-type");
    if !declares_html(content_type) {
        return analyse_structure(b"", Some("text/html"), url, &context);
    }
    analyse_structure(&response.body, content_type, url, &context)
}

/// Whether a `Content-Type` value names an HTML page (or says nothing).
fn declares_html(content_type: Option<&str>) -> bool {
    let Some(value) = content_type else {
        return true;
    };
    let media_type = value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    media_type.is_empty() || media_type == "text/html" || media_type == "application/xhtml+xml"
}

/// Where a redirect answer points, resolved against the URL asked for.
pub fn redirect_target(url: &Url, response: &FetchResponse) -> Option<Url> {
    if !response.is_redirect() {
        return None;
    }
    // The fragment names a place in the target page, not another page: kept, every redirect to
    // `…?page=3#p17` would be a new URL to the seen set and the same page fetched again per post.
    response
        .header("location")
        .and_then(|location| url.join(location).ok())
        .map(|mut target| {
            target.set_fragment(None);
            target
        })
}

/// The regions of a page as layout clustering sees them.
pub fn region_summaries(regions: &[Region]) -> Vec<RegionSummary> {
    regions
        .iter()
        .map(|region| RegionSummary {
            pattern: region.pattern,
            records: region.records.len(),
            area: f64::from(region.text_share + region.node_share) / 2.0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, headers: &[(&str, &str)], body: &str) -> FetchResponse {
        FetchResponse {
            url: "http://forum.test/".to_string(),
            status,
            headers: headers
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            body: body.as_bytes().to_vec(),
            fetched_at: "2026-01-01T00:00:00Z".parse().expect("a valid instant"),
        }
    }

    fn check_redirect(location: &str, expected: Option<&str>) {
        let asked = Url::parse("http://forum.test/post/17").expect("a valid URL");
        let answer = response(302, &[("Location", location)], "");
        assert_eq!(
            redirect_target(&asked, &answer)
                .map(String::from)
                .as_deref(),
            expected,
            "{location}"
        );
    }

    #[test]
    fn redirect_targets_are_pages_without_fragments() {
        check_redirect(
            "/topic/3-printer?page=2#pid17",
            Some("http://forum.test/topic/3-printer?page=2"),
        );
        check_redirect("../t/9", Some("http://forum.test/t/9"));
        check_redirect("http://forum.test/a?b=1", Some("http://forum.test/a?b=1"));
    }

    fn check_declares_html(content_type: Option<&str>, expected: bool) {
        assert_eq!(declares_html(content_type), expected, "{content_type:?}");
    }

    #[test]
    fn only_html_types_are_pages() {
        check_declares_html(None, true);
        check_declares_html(Some("text/html; charset=GBK"), true);
        check_declares_html(Some("TEXT/HTML"), true);
        check_declares_html(Some("application/xhtml+xml"), true);
        check_declares_html(Some("application/rss+xml; charset=utf-8"), false);
        check_declares_html(Some("application/atom+xml"), false);
        check_declares_html(Some("application/json"), false);
        check_declares_html(Some("image/png"), false);
    }

    #[test]
    fn a_feed_gives_no_links_and_no_posts() {
        let url = Url::parse("http://forum.test/forum/3/feed/").expect("a valid URL");
        let feed = "<rss><channel><item><title>Printer</title>\
                    <link>http://forum.test/topic/3/</link><pubDate>Mon, 13 Mar 2025 10:00:00 GMT</pubDate>\
                    <description>My printer stops.</description></item><item><title>Router</title>\
                    <link>http://forum.test/topic/4/</link><pubDate>Mon, 13 Mar 2025 11:00:00 GMT</pubDate>\
                    <description>My router drops.</description></item></channel></rss>";
        let analysis = analyse_response(
            &url,
            &response(200, &[("Content-Type", "application/rss+xml")], feed),
        );
        assert!(analysis.links.is_empty() && analysis.posts.is_empty());
        let as_page = analyse_response(&url, &response(200, &[], "<a href=/t/1>one</a>"));
        assert_eq!(
            as_page.links.len(),
            1,
            "a page without a type is still read"
        );
    }
}
