//! Learning a forum's sitemap and traversal plan from a few hundred sampled pages.
//!
//! This is the offline half of iRobot and of the skeleton-and-page-flipping paper. A
//! [`sample::Sampler`] walks the forum from its portal with a double-ended queue and keeps a
//! [`summary::PageSummary`] of every page (repetitive patterns, link table, text, records). From
//! the sample, [`sitemap::Sitemap::build`] rebuilds the forum's sitemap:
//!
//! - [`layout`] clusters pages by the repetitive patterns they hold (TF-IDF-weighted counts,
//!   area-weighted distance, single linkage with a threshold chosen per site);
//! - [`url_patterns`] generalises URLs into patterns (digits and high-cardinality parts such as
//!   title slugs and session ids), and each (layout cluster, URL pattern) pair is a vertex;
//! - [`duplicates`] finds near-duplicate pages (template text removed, 5-word shingles,
//!   fingerprints, locality-sensitive hashing), which feed the informativeness of every vertex;
//! - arcs are kinds of links: (source vertex, URL pattern, link location);
//! - [`rewrites`] learns redundant URL parts (`&start=0`, `page-1`) from near-duplicate pairs;
//! - [`spellings`] finds pairs of URLs that may spell one page, has the sampler complete a few
//!   of them, and lists them with their verdicts for the crawler's rewrites ([`default_arguments`]
//!   holds the kinds of a first page spelled with its default arguments, `?board=NAME/0`,
//!   `?sort=active&page=1`);
//! - [`unjudged_places`] has the sampler fetch a link of each place the crawler would follow
//!   without the plan having judged it (an arc whose links the sample never fetched);
//! - [`partners`] has the sampler fetch, for a view its copy test could not judge (a thread's
//!   raw view reached from an index), a few pages of the same items under the other vertex's
//!   URL pattern, so the test has pages to compare.
//!
//! [`traverse::choose_traversal`] then cleans the sitemap, finds page-flipping links by
//! connectivity, selects the arcs to follow (the skeleton paper's branch-and-bound search, or
//! iRobot's directed spanning tree) and prunes what leads to no thread. The result is a
//! [`plan::Plan`]: the lookup table `follow(url pattern | vertex, location)` plus what the
//! online crawler needs to classify new pages, saved as versioned JSON.
//!
//! Everything here except [`sample::sample_site`] is a pure function of its inputs and cannot
//! fail; `sample_site` talks to the network only through the [`trawl_model::Fetcher`] seam it is
//! handed, so learning runs the same against a live forum, the simulator over HTTP or in process.

pub mod default_arguments;
pub mod duplicates;
pub(crate) mod hex;
pub mod later_pages;
pub mod layout;
pub mod partners;
pub mod plan;
pub mod plan_arcs;
pub mod rewrites;
pub mod sample;
pub mod sitemap;
pub mod spellings;
pub mod summary;
pub mod titles;
pub mod traverse;
pub mod unjudged_places;
pub mod url_patterns;

use url::Url;

use crate::plan::Plan;
use crate::sitemap::Sitemap;
use crate::summary::PageSummary;
use crate::traverse::{Strategy, Traversal, choose_traversal};

/// Everything learned from one sample.
#[derive(Debug, Clone)]
pub struct Learned {
    /// The rebuilt sitemap.
    pub sitemap: Sitemap,
    /// The chosen traversal.
    pub traversal: Traversal,
    /// The plan for the online crawler.
    pub plan: Plan,
}

/// Learns the sitemap and plan of a sample whose first page is the portal.
pub fn learn(portal: &Url, pages: Vec<PageSummary>, strategy: Strategy) -> Learned {
    let sitemap = Sitemap::build(pages);
    let traversal = choose_traversal(&sitemap, strategy);
    let plan = Plan::new(portal, &sitemap, &traversal);
    Learned {
        sitemap,
        traversal,
        plan,
    }
}
