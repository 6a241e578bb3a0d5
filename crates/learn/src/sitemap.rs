//! The sitemap: vertices (kinds of pages) and arcs (kinds of links) rebuilt from a sample
//! (iRobot §5.2 and §5.3).
//!
//! A vertex is a set of sampled pages with one layout and one URL pattern, as in iRobot: the
//! layout cluster says what the template shows, the URL pattern tells apart pages of one
//! template reached by different spellings (a board list and the same list in another sort
//! order; a thread and the thread shown through a post permalink). An arc is a kind of link:
//! from a source vertex, with a URL pattern, at a location on the page. Two links with the same
//! URL pattern at different places are different arcs, which is what lets the plan follow a
//! thread title in the thread list and skip the same thread in a "latest topics" box.
//!
//! Each vertex gets iRobot's informativeness (eq. 3: family size share × relative page size ×
//! share of pages that are not near-duplicates) and the skeleton paper's entropy informativeness
//! of its duplicate groups, and a role read from what the page analysis found on its pages:
//! posts with times make a thread vertex, thread entries leading into thread vertices make a
//! thread-list vertex.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use trawl_page::links::LinkLocation;

use crate::duplicates::{DuplicateGroups, PageText, entropy_informativeness};
use crate::layout::{LayoutClustering, cluster_layouts};
use crate::summary::PageSummary;
use crate::url_patterns::{UrlPatternId, UrlPatternSet};

mod entry_targets;
mod message_indexes;
mod roles;
mod slug_levels;

use roles::assign_roles;

/// What a vertex's pages are, as far as the learner can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// The vertex holding the portal.
    Portal,
    /// Pages listing threads (board pages, their later pages).
    ThreadList,
    /// Pages holding posts.
    Thread,
    /// Redirects: pages with no content of their own.
    Redirect,
    /// Error answers (4xx, 5xx).
    Error,
    /// Anything else (board indexes, profiles, calendars, prompts).
    Other,
}

impl Role {
    /// The role's name in the plan file and in summaries.
    pub fn name(self) -> &'static str {
        match self {
            Role::Portal => "portal",
            Role::ThreadList => "thread-list",
            Role::Thread => "thread",
            Role::Redirect => "redirect",
            Role::Error => "error",
            Role::Other => "other",
        }
    }

    /// The role a [`Role::name`] names, as stores and plan files write it.
    pub fn from_name(name: &str) -> Option<Role> {
        [
            Role::Portal,
            Role::ThreadList,
            Role::Thread,
            Role::Redirect,
            Role::Error,
            Role::Other,
        ]
        .into_iter()
        .find(|role| role.name() == name)
    }
}

/// One vertex of the sitemap.
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    /// Position in [`Sitemap::vertices`].
    pub id: usize,
    /// The layout cluster.
    pub layout: usize,
    /// The URL pattern of its pages.
    pub url_pattern: UrlPatternId,
    /// Sampled pages, by index in the sample.
    pub pages: Vec<usize>,
    /// Mean sampling level of its pages (iRobot's approximation of depth).
    pub depth: f64,
    /// Mean body size in bytes.
    pub average_size: f64,
    /// Pages that are near-duplicates of another sampled page kept before them (N_dup of eq. 3).
    pub duplicates: usize,
    /// Distinct duplicate groups among its pages (K of the skeleton paper).
    pub unique_pages: usize,
    /// iRobot's eq. 3.
    pub informativeness: f64,
    /// The skeleton paper's entropy informativeness of its duplicate groups.
    pub entropy_informativeness: f64,
    /// What its pages are.
    pub role: Role,
    /// Mean thread entries per page (a board page lists a full page of them, a profile's "recent
    /// topics" box a few).
    pub mean_entries: f64,
}

/// The identity of an arc: the kind of link it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArcKey {
    /// The vertex whose pages hold the links.
    pub source: usize,
    /// The links' URL pattern.
    pub url_pattern: UrlPatternId,
    /// Where the links sit.
    pub location: LocationKey,
}

/// A link location made orderable (the page crate's type is only hashable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LocationKey {
    /// In a repetitive region: (pattern, column).
    Region {
        /// The region's pattern.
        #[serde(with = "crate::hex")]
        pattern: u64,
        /// The column in the record.
        #[serde(with = "crate::hex")]
        column: u64,
    },
    /// Outside regions: the tag-path hash.
    Path {
        /// The path hash.
        #[serde(with = "crate::hex")]
        path: u64,
    },
}

impl From<LinkLocation> for LocationKey {
    fn from(location: LinkLocation) -> Self {
        match location {
            LinkLocation::Region { pattern, column } => LocationKey::Region { pattern, column },
            LinkLocation::Path(path) => LocationKey::Path { path },
        }
    }
}

/// One arc: every sampled link of one kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Arc {
    /// What kind of link.
    pub key: ArcKey,
    /// Link instances seen on sampled pages.
    pub links: usize,
    /// Distinct sampled pages holding such links.
    pub source_pages: usize,
    /// Sampled pages the links lead to, by vertex: (vertex, distinct target pages).
    pub targets: BTreeMap<usize, usize>,
    /// (source page, target page) pairs between sampled pages, for connectivity and coverage.
    pub sampled_pairs: Vec<(usize, usize)>,
    /// Share of sampled targets that are near-duplicates of the very page linking to them, or
    /// whose text that page already holds (a permalink to a post on the page itself, a
    /// `?page=1` spelling of page 1, a single post shown alone).
    pub self_duplicate_share: f64,
    /// Share of sampled (source, target) pairs whose source page's own text is nearly all on
    /// the target: the target shows the source's content and more (a thread's page 1 and the
    /// whole thread as one "raw" or "archive" page).
    pub source_contained_share: f64,
    /// Share of worded anchor texts that read like page-flipping (page numbers, "next",
    /// arrows). Links without visible text (an icon, `&nbsp;` padding around a CSS arrow) say
    /// nothing either way and are left out; an arc with no worded link has a share of 0.
    pub flipping_text_share: f64,
    /// Share of worded anchor texts that step through a named series ("Thread Next", "Next
    /// topic »"; see [`trawl_page::links::series_of_step_link`]).
    pub series_step_share: f64,
    /// Links of the arc whose anchor shows no visible text at all.
    pub wordless_links: usize,
    /// Share of sampled (source, target) pairs whose two pages share a distinctive text block
    /// (a thread's title, a board's name and description), or which a pager's numbered link
    /// spells as pages of one list ([`crate::later_pages::lists_by_page_numbers`]): pages of one
    /// list do, pages of different threads do not.
    pub same_list_share: f64,
    /// Share of sampled (source, target) pairs whose two pages' non-empty titles agree, page
    /// numbers and reply markers aside ([`crate::titles::titles_agree`]): pages of one list do,
    /// pages of neighbouring threads do not.
    pub same_title_share: f64,
    /// Share of the arc's source pages (of those with a sampled pair) with at least one link
    /// whose target's title agrees with theirs: a thread's step links join every message of a
    /// thread of two or more to a neighbour of its thread, however often they run on into the
    /// next thread at its ends, while the next message by date does so only in a busy thread.
    pub same_title_source_share: f64,
    /// A few anchor texts, for the plan summary.
    pub example_texts: Vec<String>,
    /// Every distinct URL the sampled links point to, sampled or not, except the linking page's
    /// own URL.
    pub target_urls: Vec<String>,
}

impl Arc {
    /// The vertex most of its sampled targets belong to.
    pub fn main_target(&self) -> Option<usize> {
        self.targets
            .iter()
            .max_by_key(|(vertex, count)| (**count, std::cmp::Reverse(**vertex)))
            .map(|(vertex, _)| *vertex)
    }
}

/// The rebuilt sitemap.
#[derive(Debug, Clone)]
pub struct Sitemap {
    /// The sample it was built from.
    pub pages: Vec<PageSummary>,
    /// Layout clusters and the model to classify new pages.
    pub layout: LayoutClustering,
    /// URL patterns of every same-site URL seen.
    pub url_patterns: UrlPatternSet,
    /// Near-duplicate groups of the sampled pages.
    pub duplicate_groups: DuplicateGroups,
    /// Vertices in order of first sampled page (the portal's vertex first).
    pub vertices: Vec<Vertex>,
    /// The vertex of every sampled page.
    pub vertex_of_page: Vec<usize>,
    /// Arcs, sorted by key.
    pub arcs: Vec<Arc>,
    /// Redundant URL parts learned from near-duplicate pairs.
    pub rewrites: Vec<crate::rewrites::UrlRewrite>,
}

impl Sitemap {
    /// The index in `arcs` of each arc, by its key.
    pub fn arc_index_by_key(&self) -> HashMap<ArcKey, usize> {
        self.arcs
            .iter()
            .enumerate()
            .map(|(index, arc)| (arc.key, index))
            .collect()
    }

    /// Builds the sitemap of a sample whose first page is the portal.
    pub fn build(mut pages: Vec<PageSummary>) -> Sitemap {
        put_portal_first(&mut pages);
        // Patterns seen repeating anywhere in the sample; a page holding one record of such a
        // pattern (a thread with one post) gets it as a region of one record, so it lands in
        // the layout of its kind instead of among the pages with no regions at all.
        let repeating: BTreeSet<u64> = pages
            .iter()
            .flat_map(|page| page.regions.iter().map(|region| region.pattern))
            .collect();
        for page in &mut pages {
            page.regions =
                crate::summary::with_lone_records(&page.regions, &page.lone_records, |pattern| {
                    repeating.contains(&pattern)
                });
        }
        let regions: Vec<&[crate::summary::RegionSummary]> =
            pages.iter().map(|page| page.regions.as_slice()).collect();
        let layout = cluster_layouts(&regions);
        let mut url_patterns = UrlPatternSet::learn(
            pages
                .iter()
                .flat_map(|page| {
                    std::iter::once(&page.url)
                        .chain(page.links.iter().map(|link| &link.url))
                        .chain(page.redirect.iter())
                })
                .collect::<Vec<_>>(),
        );
        if let Some(folded) =
            slug_levels::fold_slug_levels(&url_patterns, &pages, &layout.cluster_of_page)
        {
            url_patterns = folded;
        }
        let texts: Vec<PageText> = pages
            .iter()
            .enumerate()
            .map(|(index, page)| PageText {
                blocks: page.text_blocks.clone(),
                template_group: layout.cluster_of_page[index] as u32,
            })
            .collect();
        let duplicate_groups = DuplicateGroups::find(&texts);
        let (vertices, vertex_of_page) =
            build_vertices(&pages, &layout, &url_patterns, &duplicate_groups);
        let arcs = build_arcs(
            &pages,
            &layout.cluster_of_page,
            &vertex_of_page,
            &url_patterns,
            &duplicate_groups,
        );
        let sampled_urls: Vec<&url::Url> = pages.iter().map(|page| &page.url).collect();
        let rewrites = crate::rewrites::learn_rewrites(&sampled_urls, &duplicate_groups);
        let mut sitemap = Sitemap {
            rewrites,
            pages,
            layout,
            url_patterns,
            duplicate_groups,
            vertices,
            vertex_of_page,
            arcs,
        };
        assign_roles(&mut sitemap);
        entry_targets::infer_entry_targets(&mut sitemap);
        sitemap
    }

    /// The arcs leaving `vertex`.
    pub fn arcs_from(&self, vertex: usize) -> impl Iterator<Item = &Arc> {
        self.arcs.iter().filter(move |arc| arc.key.source == vertex)
    }

    /// The vertex of the portal (the first sampled page).
    pub fn portal_vertex(&self) -> usize {
        self.vertex_of_page.first().copied().unwrap_or(0)
    }
}

/// Redirects followed from the given portal URL to the forum's front page.
const MAX_PORTAL_REDIRECTS: usize = 10;

/// Puts the forum's front page first when the URL the sample started from redirects to it.
///
/// A portal URL that answers with a redirect (`/` to `/forum/`, a list's address to its
/// archive index) is no page of the forum: it holds no link but its target. Taken as the
/// portal, it left the real front page a vertex like any other, so roles were read from the
/// wrong root (the board index became a thread list, boards "other") and the traversal reached
/// no thread. The page the redirects end at, when the sample holds it, is the portal; the
/// redirect keeps a vertex of its own, and the crawler follows a portal's redirects itself.
fn put_portal_first(pages: &mut Vec<PageSummary>) {
    let mut current = 0;
    for _ in 0..MAX_PORTAL_REDIRECTS {
        let Some(target) = pages.get(current).and_then(|page| page.redirect.as_ref()) else {
            break;
        };
        match pages.iter().position(|page| page.url == *target) {
            Some(next) if next != current => current = next,
            _ => break,
        }
    }
    if current != 0 && pages[current].redirect.is_none() {
        let portal = pages.remove(current);
        pages.insert(0, portal);
    }
}

fn build_vertices(
    pages: &[PageSummary],
    layout: &LayoutClustering,
    url_patterns: &UrlPatternSet,
    groups: &DuplicateGroups,
) -> (Vec<Vertex>, Vec<usize>) {
    let mut vertex_of_key: HashMap<(usize, UrlPatternId), usize> = HashMap::new();
    let mut vertices: Vec<Vertex> = Vec::new();
    let mut vertex_of_page = Vec::with_capacity(pages.len());
    for (index, page) in pages.iter().enumerate() {
        // Every sampled URL took part in learning the patterns, so it always has one; the
        // fallback only guards against a pattern set built from other URLs.
        let pattern = url_patterns
            .classify(&page.url)
            .unwrap_or(UrlPatternId(u32::MAX));
        let key = (layout.cluster_of_page[index], pattern);
        let next = vertices.len();
        let vertex = *vertex_of_key.entry(key).or_insert(next);
        if vertex == next {
            vertices.push(Vertex {
                id: next,
                layout: key.0,
                url_pattern: pattern,
                pages: Vec::new(),
                depth: 0.0,
                average_size: 0.0,
                duplicates: 0,
                unique_pages: 0,
                informativeness: 0.0,
                entropy_informativeness: 0.0,
                role: Role::Other,
                mean_entries: 0.0,
            });
        }
        vertices[vertex].pages.push(index);
        vertex_of_page.push(vertex);
    }
    // A page is a duplicate when a page of its group came before it in the sample, wherever that
    // page sits: the first copy found is the one a crawler would have kept.
    let mut first_of_group: HashMap<usize, usize> = HashMap::new();
    let mut is_duplicate = vec![false; pages.len()];
    for (index, duplicate) in is_duplicate.iter_mut().enumerate() {
        let group = groups.group_of(index);
        if first_of_group.insert(group, index).is_some() {
            *duplicate = true;
        }
    }
    let average_size_overall =
        pages.iter().map(|page| page.size as f64).sum::<f64>() / pages.len().max(1) as f64;
    for vertex in &mut vertices {
        let count = vertex.pages.len() as f64;
        vertex.depth = vertex
            .pages
            .iter()
            .map(|page| f64::from(pages[*page].depth))
            .sum::<f64>()
            / count;
        vertex.average_size = vertex
            .pages
            .iter()
            .map(|page| pages[*page].size as f64)
            .sum::<f64>()
            / count;
        vertex.duplicates = vertex
            .pages
            .iter()
            .filter(|page| is_duplicate[**page])
            .count();
        let distinct: BTreeSet<usize> = vertex
            .pages
            .iter()
            .map(|page| groups.group_of(*page))
            .collect();
        vertex.unique_pages = distinct.len();
        vertex.informativeness = count / pages.len() as f64
            * (vertex.average_size / average_size_overall.max(1.0))
            * (1.0 - vertex.duplicates as f64 / count);
        vertex.entropy_informativeness =
            entropy_informativeness(vertex.pages.iter().map(|page| groups.group_of(*page)));
    }
    (vertices, vertex_of_page)
}

fn build_arcs(
    pages: &[PageSummary],
    cluster_of_page: &[usize],
    vertex_of_page: &[usize],
    url_patterns: &UrlPatternSet,
    groups: &DuplicateGroups,
) -> Vec<Arc> {
    let page_of_url: HashMap<&str, usize> = pages
        .iter()
        .enumerate()
        .map(|(index, page)| (page.url.as_str(), index))
        .collect();
    struct Building {
        links: usize,
        source_pages: BTreeSet<usize>,
        pairs: BTreeSet<(usize, usize)>,
        flipping_texts: usize,
        series_steps: usize,
        wordless: usize,
        texts: Vec<String>,
        urls: BTreeSet<String>,
    }
    let distinctive = distinctive_blocks(pages, cluster_of_page);
    let list_of_page = crate::later_pages::lists_by_page_numbers(pages);
    let pattern_of_vertex: HashMap<usize, UrlPatternId> = pages
        .iter()
        .enumerate()
        .filter_map(|(index, page)| {
            Some((vertex_of_page[index], url_patterns.classify(&page.url)?))
        })
        .collect();
    let mut building: BTreeMap<ArcKey, Building> = BTreeMap::new();
    for (source_page, page) in pages.iter().enumerate() {
        let source = vertex_of_page[source_page];
        let mut links: Vec<(&url::Url, &str, LocationKey)> = page
            .links
            .iter()
            .map(|link| {
                (
                    &link.url,
                    link.text.as_str(),
                    LocationKey::from(link.location),
                )
            })
            .collect();
        // A redirect is a link the server follows for the browser; it gets a location of its
        // own so the plan can say whether redirects of a kind lead anywhere useful.
        if let Some(target) = &page.redirect {
            links.push((target, "", LocationKey::Path { path: 0 }));
        }
        for (url, text, location) in links {
            let Some(url_pattern) = url_patterns.classify(url) else {
                continue;
            };
            let key = ArcKey {
                source,
                url_pattern,
                location,
            };
            let entry = building.entry(key).or_insert_with(|| Building {
                links: 0,
                source_pages: BTreeSet::new(),
                pairs: BTreeSet::new(),
                flipping_texts: 0,
                series_steps: 0,
                wordless: 0,
                texts: Vec::new(),
                urls: BTreeSet::new(),
            });
            // A link to the very page it sits on (a board's own name in its topic rows, the
            // current page in a pager) reaches nothing new, so it does not count toward the
            // coverage arc selection measures. Counting it let a board's category column,
            // which on every board page names that board, "cover" all five boards of the
            // simulator's Discourse seed 1, and the portal's route to its fifth board was
            // dropped (one board and its threads missed, 90.4 % coverage).
            if url != &page.url {
                entry.urls.insert(url.to_string());
            }
            entry.links += 1;
            entry.source_pages.insert(source_page);
            if text.trim().is_empty() {
                entry.wordless += 1;
            } else {
                entry.flipping_texts += usize::from(reads_like_page_flipping(text));
                entry.series_steps +=
                    usize::from(trawl_page::links::series_of_step_link(text).is_some());
            }
            if entry.texts.len() < 5 && !entry.texts.iter().any(|seen| seen == text) {
                entry.texts.push(text.to_string());
            }
            if let Some(&target_page) = page_of_url.get(url.as_str())
                && target_page != source_page
            {
                entry.pairs.insert((source_page, target_page));
            }
        }
    }
    building
        .into_iter()
        .map(|(key, built)| {
            let mut targets: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
            let mut self_duplicates = 0;
            let mut sources_contained = 0;
            let mut same_list = 0;
            let mut same_title = 0;
            let mut sources_with_pairs: BTreeSet<usize> = BTreeSet::new();
            let mut sources_with_same_title: BTreeSet<usize> = BTreeSet::new();
            for (source_page, target_page) in &built.pairs {
                sources_with_pairs.insert(*source_page);
                // Titles agree up to page numbers and reply markers ("Re: "), as a mail
                // thread's next message answers the first (`crate::titles`).
                let (title, target_title) =
                    (&pages[*source_page].title, &pages[*target_page].title);
                if !title.is_empty()
                    && !target_title.is_empty()
                    && crate::titles::titles_agree(title, target_title)
                {
                    same_title += 1;
                    sources_with_same_title.insert(*source_page);
                }
                // Pages of one list share their list's distinctive text, or a pager's numbered
                // link spells one as a later page of the other's list.
                if !distinctive[*source_page].is_disjoint(&distinctive[*target_page])
                    || list_of_page[*source_page] == list_of_page[*target_page]
                {
                    same_list += 1;
                }
                targets
                    .entry(vertex_of_page[*target_page])
                    .or_default()
                    .insert(*target_page);
                // A copy of the linking page, or a part of it (a single post shown alone, a
                // permalink to a post on the page), brings nothing the source did not have.
                if groups.group_of(*source_page) == groups.group_of(*target_page)
                    || groups.containment(*target_page, *source_page) >= CONTAINED_SHARE
                {
                    self_duplicates += 1;
                }
                if groups.containment(*source_page, *target_page) >= CONTAINED_SHARE {
                    sources_contained += 1;
                }
            }
            let same_list_share = if built.pairs.is_empty() {
                0.0
            } else {
                same_list as f64 / built.pairs.len() as f64
            };
            let same_title_share = if built.pairs.is_empty() {
                0.0
            } else {
                same_title as f64 / built.pairs.len() as f64
            };
            let mut targets: BTreeMap<usize, usize> = targets
                .into_iter()
                .map(|(vertex, pages)| (vertex, pages.len()))
                .collect();
            // Links to the source's own URL pattern whose targets were never sampled (a board's
            // later pages when they are spelled like its first) lead back to the source vertex.
            if targets.is_empty() && pattern_of_vertex.get(&key.source) == Some(&key.url_pattern) {
                targets.insert(key.source, 0);
            }
            Arc {
                key,
                links: built.links,
                source_pages: built.source_pages.len(),
                targets,
                self_duplicate_share: if built.pairs.is_empty() {
                    0.0
                } else {
                    self_duplicates as f64 / built.pairs.len() as f64
                },
                source_contained_share: if built.pairs.is_empty() {
                    0.0
                } else {
                    sources_contained as f64 / built.pairs.len() as f64
                },
                sampled_pairs: built.pairs.iter().copied().collect(),
                flipping_text_share: built.flipping_texts as f64
                    / (built.links - built.wordless).max(1) as f64,
                series_step_share: built.series_steps as f64
                    / (built.links - built.wordless).max(1) as f64,
                wordless_links: built.wordless,
                same_list_share,
                same_title_share,
                same_title_source_share: if sources_with_pairs.is_empty() {
                    0.0
                } else {
                    sources_with_same_title.len() as f64 / sources_with_pairs.len() as f64
                },
                example_texts: built.texts,
                target_urls: built.urls.into_iter().collect(),
            }
        })
        .collect()
}

/// A target page with at least this share of its own text on the page linking to it is part of
/// that page.
pub const CONTAINED_SHARE: f64 = 0.8;

/// Text blocks shorter than this say too little to tie two pages to one list.
const DISTINCTIVE_BLOCK_CHARACTERS: usize = 8;

/// For every page, hashes of its *distinctive* text blocks: long enough, and found on at most
/// half the sampled pages of its layout (and on at most two when the layout has fewer than four
/// pages). Template text is on most pages of a layout and says nothing; a thread's title is on
/// that thread's pages only, a board's name on that board's pages.
fn distinctive_blocks(pages: &[PageSummary], cluster_of_page: &[usize]) -> Vec<BTreeSet<u64>> {
    let hash = |text: &str| -> u64 {
        text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    let per_page: Vec<BTreeSet<u64>> = pages
        .iter()
        .map(|page| {
            page.text_blocks
                .iter()
                .filter(|block| block.text.chars().count() >= DISTINCTIVE_BLOCK_CHARACTERS)
                .map(|block| hash(&block.text))
                .collect()
        })
        .collect();
    let mut pages_holding: HashMap<(usize, u64), usize> = HashMap::new();
    let mut layout_sizes: HashMap<usize, usize> = HashMap::new();
    for (index, blocks) in per_page.iter().enumerate() {
        let layout = cluster_of_page[index];
        *layout_sizes.entry(layout).or_default() += 1;
        for block in blocks {
            *pages_holding.entry((layout, *block)).or_default() += 1;
        }
    }
    per_page
        .into_iter()
        .enumerate()
        .map(|(index, blocks)| {
            let layout = cluster_of_page[index];
            let limit = (layout_sizes[&layout] / 2).max(2);
            blocks
                .into_iter()
                .filter(|block| pages_holding[&(layout, *block)] <= limit)
                .collect()
        })
        .collect()
}

/// Words of pagers in the languages forums are written in most.
const FLIPPING_WORDS: [&str; 30] = [
    "next",
    "prev",
    "previous",
    "first",
    "last",
    "page",
    "older",
    "newer",
    "more",
    "seite",
    "weiter",
    "zurück",
    "nächste",
    "vorherige",
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
    "下一页",
    "上一页",
    "下一頁",
    "上一頁",
    "首页",
    "尾页",
];

/// Verbs that ask for more of a list ("Load more", "Show older"): words of a pager beside a
/// pager word, never on their own ("Show" opens a spoiler, "View" a profile). Infinite scrolls
/// fall back to one such link to the next page, often with a cursor rather than a number.
const LOADING_VERBS: [&str; 11] = [
    "load", "show", "see", "view", "laden", "anzeigen", "charger", "afficher", "cargar", "mostrar",
    "ver",
];

/// True when an anchor reads like a pager: page numbers, arrows, or pager words ("Next ›",
/// "« Previous", "2", "下一页", "Load more") and nothing else. "Next topic »" is not: it leads to another
/// thread, which is exactly the loop-back that must not be taken for page flipping. Nor is
/// "#12": forums number their posts so, and the permalink leads to a post, not a page (the
/// simulator's slug-only forum at seed 2 with 100 samples took its post permalinks for a pager
/// and fetched 867 of them, 85.9 % of the crawl).
pub fn reads_like_page_flipping(text: &str) -> bool {
    let lowered = text.trim().to_lowercase();
    if lowered.starts_with('#') {
        return false;
    }
    let words: Vec<&str> = lowered
        .split(|character: char| !character.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    if words.is_empty() {
        // Arrows and guillemets alone.
        return !lowered.is_empty()
            && lowered
                .chars()
                .all(|character| "<>«»‹›←→…".contains(character) || character.is_whitespace());
    }
    let pager_word = |word: &&str| {
        word.chars().all(|character| character.is_ascii_digit()) || FLIPPING_WORDS.contains(word)
    };
    words.iter().any(pager_word)
        && words
            .iter()
            .all(|word| pager_word(word) || LOADING_VERBS.contains(word))
}
