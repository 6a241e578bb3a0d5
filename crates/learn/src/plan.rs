//! The traversal plan: what the online crawler needs, saved as a human-editable JSON file.
//!
//! iRobot stores its traversal as a lookup table `IsFollow(url pattern | vertex, location) ∈
//! {don't follow, follow, follow and keep the relationship}` (eq. 4). A [`Plan`] is that table
//! plus what it takes to use it on pages the sample never saw: the URL patterns (as text, so a
//! person can read and edit them), the layout model (pattern weights, threshold and exemplar
//! features) and one entry per vertex saying what it is and whether it is crawled.
//!
//! The file carries [`PLAN_FORMAT_VERSION`]; a file of another version is refused with a message
//! that says so rather than read wrongly. Hand edits are welcome: flip a `decision`, change a
//! pattern's text; [`Plan::from_json`] checks what it can (pattern syntax, vertex references)
//! and says where the file is wrong.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use url::Url;

use crate::layout::LayoutModel;
use crate::sitemap::{LocationKey, Role, Sitemap};
use crate::summary::RegionSummary;
use crate::traverse::{Decision, Strategy, Traversal, VertexVerdict};
use crate::url_patterns::{UrlPattern, UrlPatternId, UrlPatternSet};

/// The plan file format this build reads and writes.
pub const PLAN_FORMAT_VERSION: u32 = 1;

/// One URL pattern in the plan file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanUrlPattern {
    /// The id arcs and vertices refer to.
    pub id: u32,
    /// The pattern, e.g. `/viewtopic.php?t={n}&start={n}`.
    pub pattern: String,
}

/// One vertex in the plan file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanVertex {
    /// Position in the vertex list.
    pub id: usize,
    /// What its pages are.
    pub role: Role,
    /// Whether it is crawled, and why not.
    pub verdict: VertexVerdict,
    /// Its layout cluster.
    pub layout: usize,
    /// Its URL pattern's id.
    pub url_pattern: u32,
    /// Sampled pages.
    pub sampled_pages: usize,
    /// Distinct pages among them after near-duplicate detection.
    pub unique_pages: usize,
    /// Mean sampling level.
    pub depth: f64,
    /// Mean page size in bytes.
    pub average_size: f64,
    /// iRobot's eq. 3.
    pub informativeness: f64,
    /// The skeleton paper's entropy informativeness.
    pub entropy_informativeness: f64,
    /// Up to three sampled URLs.
    pub examples: Vec<String>,
}

/// One arc in the plan file: a row of the lookup table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanArc {
    /// The vertex whose pages hold the links.
    pub source: usize,
    /// The links' URL pattern id.
    pub url_pattern: u32,
    /// Where the links sit.
    pub location: LocationKey,
    /// What to do.
    pub decision: Decision,
    /// The vertex the sampled links led to, when any was sampled, or the vertex its twin on
    /// other pages of the same lists leads to (see [`Traversal::targets`]).
    pub target: Option<usize>,
    /// Link instances in the sample.
    pub links: usize,
    /// Connectivity of its loop-back group, when measured.
    pub connectivity: Option<f64>,
    /// A few anchor texts.
    pub examples: Vec<String>,
}

/// A traversal plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// [`PLAN_FORMAT_VERSION`].
    pub format_version: u32,
    /// The portal the sample started from.
    pub portal: String,
    /// Pages sampled.
    pub sampled_pages: usize,
    /// How arcs were chosen.
    pub strategy: Strategy,
    /// URL patterns.
    pub url_patterns: Vec<PlanUrlPattern>,
    /// The layout model.
    pub layout: LayoutModel,
    /// Vertices.
    pub vertices: Vec<PlanVertex>,
    /// The lookup table.
    pub arcs: Vec<PlanArc>,
    /// Redundant URL parts, dropped from every link before it is looked up or queued.
    #[serde(default)]
    pub url_rewrites: Vec<crate::rewrites::UrlRewrite>,
    /// Pairs of sampled URLs that may spell one page, with whether they did: evidence the
    /// crawler weighs as it weighs pairs met while crawling (see [`crate::spellings`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spelling_pairs: Vec<crate::spellings::SpellingPair>,
    #[serde(skip)]
    index: PlanIndex,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct PlanIndex {
    patterns: UrlPatternSet,
    vertex_of_key: HashMap<(usize, u32), usize>,
    vertices_of_pattern: HashMap<u32, Vec<usize>>,
    decision_of_arc: HashMap<(usize, u32, LocationKey), Decision>,
}

/// Why a plan file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Not JSON of the plan's shape.
    #[error("the plan file is not valid plan JSON")]
    Json(#[from] serde_json::Error),
    /// Another format version.
    #[error(
        "the plan file has format version {found}, this trawl reads version {expected}; learn the plan again with `trawl learn`"
    )]
    Version {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// A pattern that does not parse.
    #[error("URL pattern {id} ({text:?}) is invalid: {reason}")]
    Pattern {
        /// The pattern id.
        id: u32,
        /// Its text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A reference to a vertex or pattern that does not exist.
    #[error("{0}")]
    Reference(String),
}

/// How the online crawler classified a page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageClass {
    /// The vertex.
    pub vertex: usize,
    /// Distance to the nearest sampled layout.
    pub layout_distance: f64,
}

impl Plan {
    /// The arcs whose decision the plan judged from the sample. An arc none of whose links the
    /// sample fetched (no target) was never judged: the learner skips it for want of evidence,
    /// not because its links lead somewhere unwanted. A skipped arc leading to a vertex that
    /// followed arcs of the same pattern from the same vertex lead to was not judged either: the
    /// arc selection leaves out links that reach no new vertex, however many new pages they
    /// reach (a board's sticky threads, listed apart from its other threads, lead to the same
    /// thread vertex). The crawler weighs the places the plan never judged by these arcs, and
    /// the sampler finds the places the crawler would follow on trust by the same weighing.
    pub fn judged_arcs(&self) -> impl Iterator<Item = &PlanArc> {
        let followed_targets: HashSet<(usize, u32, usize)> = self
            .arcs
            .iter()
            .filter(|arc| arc.decision != Decision::Skip)
            .filter_map(|arc| Some((arc.source, arc.url_pattern, arc.target?)))
            .collect();
        self.arcs.iter().filter(move |arc| match arc.target {
            None => false,
            Some(target) => {
                arc.decision != Decision::Skip
                    || !followed_targets.contains(&(arc.source, arc.url_pattern, target))
            }
        })
    }

    /// Builds the plan of a sitemap and its chosen traversal.
    pub fn new(portal: &Url, sitemap: &Sitemap, traversal: &Traversal) -> Plan {
        let url_patterns = sitemap
            .url_patterns
            .patterns()
            .iter()
            .map(|pattern| PlanUrlPattern {
                id: pattern.id().0,
                pattern: pattern.text().to_string(),
            })
            .collect();
        let vertices = sitemap
            .vertices
            .iter()
            .map(|vertex| PlanVertex {
                id: vertex.id,
                role: vertex.role,
                verdict: traversal.verdicts[vertex.id],
                layout: vertex.layout,
                url_pattern: vertex.url_pattern.0,
                sampled_pages: vertex.pages.len(),
                unique_pages: vertex.unique_pages,
                depth: round(vertex.depth),
                average_size: round(vertex.average_size),
                informativeness: round(vertex.informativeness),
                entropy_informativeness: round(vertex.entropy_informativeness),
                examples: vertex
                    .pages
                    .iter()
                    .take(3)
                    .map(|page| sitemap.pages[*page].url.to_string())
                    .collect(),
            })
            .collect();
        let arcs = sitemap
            .arcs
            .iter()
            .enumerate()
            .map(|(index, arc)| PlanArc {
                source: arc.key.source,
                url_pattern: arc.key.url_pattern.0,
                location: arc.key.location,
                decision: traversal.decisions[index],
                target: traversal.targets[index],
                links: arc.links,
                connectivity: traversal.connectivity[index].map(round),
                examples: arc.example_texts.clone(),
            })
            .chain(traversal.copied_arcs.iter().map(|copied| {
                let original = &sitemap.arcs[copied.copied_from];
                PlanArc {
                    source: copied.key.source,
                    url_pattern: copied.key.url_pattern.0,
                    location: copied.key.location,
                    decision: Decision::FollowKeepRelation,
                    target: Some(copied.target),
                    // No link of this kind was sampled on the vertex's own pages.
                    links: 0,
                    connectivity: traversal.connectivity[copied.copied_from].map(round),
                    examples: original.example_texts.clone(),
                }
            }))
            .collect();
        let mut plan = Plan {
            format_version: PLAN_FORMAT_VERSION,
            portal: portal.to_string(),
            sampled_pages: sitemap.pages.len(),
            strategy: traversal.strategy,
            url_patterns,
            layout: sitemap.layout.model.clone(),
            vertices,
            arcs,
            url_rewrites: sitemap.rewrites.clone(),
            spelling_pairs: crate::spellings::sampled_spellings(
                &sitemap
                    .pages
                    .iter()
                    .map(|page| &page.url)
                    .collect::<Vec<_>>(),
                &sitemap.duplicate_groups,
            ),
            index: PlanIndex::default(),
        };
        plan.index = PlanIndex::build(&plan).expect("a plan built from a sitemap is consistent");
        plan
    }

    /// Reads a plan file's text.
    pub fn from_json(text: &str) -> Result<Plan, PlanError> {
        #[derive(Deserialize)]
        struct VersionOnly {
            format_version: u32,
        }
        let version: VersionOnly = serde_json::from_str(text)?;
        if version.format_version != PLAN_FORMAT_VERSION {
            return Err(PlanError::Version {
                found: version.format_version,
                expected: PLAN_FORMAT_VERSION,
            });
        }
        let mut plan: Plan = serde_json::from_str(text)?;
        plan.index = PlanIndex::build(&plan)?;
        Ok(plan)
    }

    /// The plan file's text: pretty JSON, one field per line, so diffs and hand edits are easy.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plans serialise")
    }

    /// The URL with its redundant parts dropped.
    pub fn canonical(&self, url: &Url) -> Url {
        crate::rewrites::canonical_url(url, &self.url_rewrites)
    }

    /// The URL pattern of a URL, if any pattern matches.
    pub fn url_pattern_of(&self, url: &Url) -> Option<u32> {
        self.index.patterns.classify(url).map(|id| id.0)
    }

    /// Classifies a fetched page into a vertex by its URL pattern and layout (its regions, and
    /// its lone records of patterns the plan knows). `None` when the layout is unlike every
    /// sampled page or the URL matches no pattern.
    pub fn classify(
        &self,
        url: &Url,
        regions: &[RegionSummary],
        lone_records: &[RegionSummary],
    ) -> Option<PageClass> {
        let pattern = self.url_pattern_of(url)?;
        let regions = crate::summary::with_lone_records(regions, lone_records, |pattern| {
            self.layout.knows(pattern)
        });
        let (layout, layout_distance) = self.layout.classify(&regions)?;
        if let Some(vertex) = self.index.vertex_of_key.get(&(layout, pattern)) {
            return Some(PageClass {
                vertex: *vertex,
                layout_distance,
            });
        }
        // A layout never sampled with this URL pattern: the pattern decides, preferring a
        // crawled vertex, because the link that led here was followed for its pattern.
        let candidates = self.index.vertices_of_pattern.get(&pattern)?;
        let vertex = candidates
            .iter()
            .copied()
            .find(|vertex| self.vertices[*vertex].verdict == VertexVerdict::Kept)
            .unwrap_or(candidates[0]);
        Some(PageClass {
            vertex,
            layout_distance,
        })
    }

    /// Places a page [`Plan::classify`] could not, by the half of the evidence that speaks:
    /// a URL of a known pattern whose layout is unlike every sampled one goes to the crawled
    /// vertex of that pattern nearest in layout; a URL of a shape never sampled goes to the
    /// crawled vertex of its nearest layout with the most sampled pages. Dropping such pages
    /// cost whole forums: a board index under a URL the sample never saw, or thread pages
    /// whose layout gained a block, ended the crawl there. `None` when the plan has no
    /// crawled vertex to offer.
    pub fn classify_nearest(
        &self,
        url: &Url,
        regions: &[RegionSummary],
        lone_records: &[RegionSummary],
    ) -> Option<PageClass> {
        let regions = crate::summary::with_lone_records(regions, lone_records, |pattern| {
            self.layout.knows(pattern)
        });
        let (layout, layout_distance) = self.layout.nearest(&self.layout.feature(&regions))?;
        let kept = |vertex: &usize| self.vertices[*vertex].verdict == VertexVerdict::Kept;
        let vertex = match self.url_pattern_of(url) {
            Some(pattern) => {
                let candidates = self.index.vertices_of_pattern.get(&pattern)?;
                candidates
                    .iter()
                    .copied()
                    .filter(kept)
                    .find(|vertex| self.vertices[*vertex].layout == layout)
                    .or_else(|| candidates.iter().copied().find(kept))?
            }
            None => {
                self.vertices
                    .iter()
                    .filter(|vertex| vertex.layout == layout && kept(&vertex.id))
                    .max_by_key(|vertex| (vertex.sampled_pages, std::cmp::Reverse(vertex.id)))?
                    .id
            }
        };
        Some(PageClass {
            vertex,
            layout_distance,
        })
    }

    /// What to do with a link found on a page of `source_vertex`.
    pub fn decide(&self, source_vertex: usize, url: &Url, location: LocationKey) -> Decision {
        let Some(pattern) = self.url_pattern_of(url) else {
            return Decision::Skip;
        };
        self.decide_for_pattern(source_vertex, pattern, location)
    }

    /// What to do with a link of URL pattern `pattern` (from [`Plan::url_pattern_of`]) found on a
    /// page of `source_vertex`: [`Plan::decide`] for a caller that already classified the URL,
    /// since matching a URL against every pattern is the costly half of the decision.
    pub fn decide_for_pattern(
        &self,
        source_vertex: usize,
        pattern: u32,
        location: LocationKey,
    ) -> Decision {
        self.index
            .decision_of_arc
            .get(&(source_vertex, pattern, location))
            .copied()
            .unwrap_or(Decision::Skip)
    }

    /// The vertex the portal belongs to.
    pub fn portal_vertex(&self) -> usize {
        0
    }

    /// The role of `vertex`, when the plan has such a vertex.
    pub fn role_of(&self, vertex: usize) -> Option<Role> {
        self.vertices.get(vertex).map(|vertex| vertex.role)
    }

    /// The arcs merged by the pair of vertices they join ([`crate::plan_arcs::bundle_arcs`]).
    pub fn arc_bundles(&self) -> Vec<crate::plan_arcs::ArcBundle> {
        crate::plan_arcs::bundle_arcs(&self.arcs)
    }
}

impl PlanIndex {
    fn build(plan: &Plan) -> Result<PlanIndex, PlanError> {
        let mut patterns = Vec::with_capacity(plan.url_patterns.len());
        for entry in &plan.url_patterns {
            let pattern =
                UrlPattern::parse(UrlPatternId(entry.id), &entry.pattern).map_err(|error| {
                    PlanError::Pattern {
                        id: entry.id,
                        text: entry.pattern.clone(),
                        reason: error.to_string(),
                    }
                })?;
            patterns.push(pattern);
        }
        let known_patterns: std::collections::HashSet<u32> =
            plan.url_patterns.iter().map(|entry| entry.id).collect();
        let mut vertex_of_key = HashMap::new();
        let mut vertices_of_pattern: HashMap<u32, Vec<usize>> = HashMap::new();
        for (position, vertex) in plan.vertices.iter().enumerate() {
            if vertex.id != position {
                return Err(PlanError::Reference(format!(
                    "vertex at position {position} says its id is {}; ids must count from 0 in order",
                    vertex.id
                )));
            }
            if !known_patterns.contains(&vertex.url_pattern) {
                return Err(PlanError::Reference(format!(
                    "vertex {position} refers to URL pattern {}, which the plan does not define",
                    vertex.url_pattern
                )));
            }
            vertex_of_key.insert((vertex.layout, vertex.url_pattern), position);
            vertices_of_pattern
                .entry(vertex.url_pattern)
                .or_default()
                .push(position);
        }
        let mut decision_of_arc = HashMap::new();
        for (position, arc) in plan.arcs.iter().enumerate() {
            if arc.source >= plan.vertices.len() {
                return Err(PlanError::Reference(format!(
                    "arc {position} starts at vertex {}, which does not exist",
                    arc.source
                )));
            }
            decision_of_arc.insert((arc.source, arc.url_pattern, arc.location), arc.decision);
        }
        Ok(PlanIndex {
            patterns: UrlPatternSet::from_patterns(patterns),
            vertex_of_key,
            vertices_of_pattern,
            decision_of_arc,
        })
    }
}

fn round(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}
