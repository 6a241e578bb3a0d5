//! Choosing the traversal: which vertices are worth crawling and which arcs to follow.
//!
//! Three steps, each from a paper, plus one of trawl's own:
//!
//! 1. *Cleaning* (iRobot §5.4). Vertices whose eq.-3 informativeness is below `mean − std` are
//!    dropped, as are vertices whose pages are nearly all one page (entropy informativeness under
//!    [`MINIMUM_ENTROPY`], login prompts); in each layout cluster only the largest vertex is kept,
//!    except vertices joined to it by page-flipping links (later pages of the same lists, which
//!    often have their own URL pattern, such as `&start=20`). A kept vertex whose pages show
//!    the content of another kept vertex of the same role in another layout (a thread's raw or
//!    print view, a board's archive listing) is dropped as its copy, judged by links between
//!    the two or by pairs of pages alike whose URLs name one item (module `same_content`).
//! 2. *Page-flipping links* (skeleton paper §5.2). Loop-backs are grouped into kinds by layout
//!    cluster and target URL pattern; a kind's *connectivity* is the share of ordered page pairs
//!    joined one way that are also joined the other way, following only that kind's links. trawl
//!    adds iRobot's anchor test (page numbers and pager words only) and, where the sample holds
//!    too few pairs to measure connectivity, a list-identity test (see [`find_page_flipping`]).
//! 3. *Arc selection*, two ways. The *skeleton* search (skeleton paper §5.1) visits vertices by
//!    depth and, for each, searches subsets of its candidate in-links by branch and bound for
//!    the smallest set that keeps coverage and entropy informativeness within [`COVERAGE_SLACK`]
//!    and [`INFORMATIVENESS_SLACK`] of the best. The *spanning tree* (iRobot §5.4) grows from the
//!    portal like Prim's algorithm, an arc costing its target's depth, ties to the more
//!    informative target.
//! 4. *Goal-directed pruning* (trawl). A forum is crawled for its threads: after selection only
//!    vertices from which a thread or thread-list vertex can be reached through selected arcs
//!    are kept. Profiles, member lists, calendars and login prompts are left with no reason to
//!    be fetched even when their pages look informative.
//! 5. *Lending between kin* (trawl, module `kin`). One kind of page can be split over several
//!    vertices (a thread's first page and its `?page=N` pages; a board with and without a
//!    sub-forum table). A page-flipping kind of link found on one vertex of a layout is lent to
//!    the layout's other crawled vertices, as new plan rows ([`CopiedArc`]) where their sampled
//!    pages never showed it, and a vertex the crawl will land on but left out for its layout
//!    alone is crawled like its twin of the same role and URL pattern.
//!
//! Arcs whose sampled targets are mostly near-duplicates of the very page that links to them
//! (permalinks to posts on the page, `?page=1` spellings of page 1) are never candidates: they
//! can only lead to copies.

mod endless;
mod flipping;
mod kin;
mod primary_lists;
mod pruning;
mod same_content;
mod selection;
mod single_posts;

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::sitemap::{Role, Sitemap};
use flipping::find_page_flipping;
pub use kin::CopiedArc;
use kin::{adopt_twins, copy_flipping_rows, keep_later_pages};
use primary_lists::{add_later_pages_of_primary_lists, primary_thread_lists};
use pruning::{connect_to_portal, prune_toward_goals};
pub(crate) use same_content::{copy_test_candidates, numbers_of_pages, same_content, url_numbers};
use selection::{follow_alike_on_pages_of_the_same_lists, skeleton_links, spanning_tree};

/// Vertices whose duplicate groups have lower entropy informativeness than this are prompts
/// and error pages, not content.
pub const MINIMUM_ENTROPY: f64 = 0.5;
/// The skeleton search accepts any link set keeping this share of the best coverage.
pub const COVERAGE_SLACK: f64 = 0.95;
/// ... and this share of the best entropy informativeness.
pub const INFORMATIVENESS_SLACK: f64 = 0.95;
/// Arcs whose sampled targets are copies of their source page at least this often are skipped.
pub const SELF_DUPLICATE_LIMIT: f64 = 0.5;
/// Copies between vertices are believed from this many sampled link pairs on.
pub const MINIMUM_PAIRS_FOR_COPIES: usize = 2;
/// Connectivity measured on fewer sampled pairs than this is not trusted.
pub const MINIMUM_PAIRS_FOR_CONNECTIVITY: usize = 3;
/// Thread lists with at least this share of their entries listed by a better-linked list are
/// views of it.
pub const SECONDARY_LIST_SHARE: f64 = 0.5;
/// Thread lists listing fewer entries per page than this share of the fullest are secondary.
pub const PRIMARY_LIST_SHARE: f64 = 0.5;
/// The branch-and-bound search gives up refining after this many states and keeps its best.
const SEARCH_BUDGET: usize = 200_000;

/// How arcs are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// The skeleton paper's branch-and-bound link search.
    Skeleton,
    /// iRobot's directed spanning tree.
    SpanningTree,
}

/// What to do with a kind of link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// Do not fetch.
    Skip,
    /// Fetch.
    Follow,
    /// Fetch and record that the target continues the source's list (page flipping).
    FollowKeepRelation,
}

/// Why a vertex is or is not crawled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VertexVerdict {
    /// Crawled.
    Kept,
    /// Eq.-3 informativeness below `mean − std`.
    LowInformativeness,
    /// Its pages are nearly all the same page.
    AllDuplicates,
    /// Another vertex of the same layout is its representative.
    NotRepresentative,
    /// Its pages are copies of the pages of a better-linked vertex of another layout.
    Copy,
    /// No selected arc reaches it.
    Unreached,
    /// Reached, but no thread or thread list lies beyond it.
    LeadsNowhere,
}

/// The chosen traversal.
#[derive(Debug, Clone)]
pub struct Traversal {
    /// The strategy used.
    pub strategy: Strategy,
    /// Verdict per vertex.
    pub verdicts: Vec<VertexVerdict>,
    /// Decision per arc, in the sitemap's arc order.
    pub decisions: Vec<Decision>,
    /// Connectivity of each arc's loop-back group, when it is a loop-back with sampled pairs.
    pub connectivity: Vec<Option<f64>>,
    /// Whether each arc is a page-flipping link (whether or not it is followed).
    pub flipping: Vec<bool>,
    /// The vertex each arc leads to: its sampled main target, or, for an arc none of whose links
    /// was sampled but which is followed because the same kind of link is followed on other
    /// pages of the same lists, the target of that twin.
    pub targets: Vec<Option<usize>>,
    /// Page-flipping rows lent to crawled vertices whose sampled pages never showed such a
    /// link (see [`CopiedArc`]); the plan follows them and keeps the relation.
    pub copied_arcs: Vec<CopiedArc>,
}

/// Chooses the traversal of `sitemap` with `strategy`.
pub fn choose_traversal(sitemap: &Sitemap, strategy: Strategy) -> Traversal {
    let traversal = choose_reachable(sitemap, strategy, Spellings::Representatives);
    let reaches_threads = sitemap.vertices.iter().any(|vertex| {
        vertex.role == Role::Thread && traversal.verdicts[vertex.id] == VertexVerdict::Kept
    });
    if reaches_threads {
        return traversal;
    }
    // The representative chosen for the thread layout may be one the portal cannot reach (the
    // later pages of threads, a post permalink). The other thread spellings are tried one at a
    // time, best rank first, and the first that yields a plan reaching threads is kept. Keeping
    // every spelling at once, as trawl did before, let the selection keep print, archive and
    // "next/previous thread" views beside the thread pages whenever they led somewhere: with
    // 500 samples of the simulator's phpBB seed 1 that crawled each thread up to four times
    // (88 % duplicate fetches).
    let ranks = vertex_ranks(sitemap);
    let thread_layouts: HashSet<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::Thread)
        .map(|vertex| vertex.layout)
        .collect();
    let mut spellings: Vec<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| {
            vertex.role == Role::Thread
                && thread_layouts.contains(&vertex.layout)
                && traversal.verdicts[vertex.id] == VertexVerdict::NotRepresentative
        })
        .map(|vertex| vertex.id)
        .collect();
    spellings.sort_by(|a, b| {
        ranks[*b]
            .partial_cmp(&ranks[*a])
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    for spelling in spellings {
        let attempt = choose_reachable(sitemap, strategy, Spellings::AlsoKeep(spelling));
        if sitemap.vertices.iter().any(|vertex| {
            vertex.role == Role::Thread && attempt.verdicts[vertex.id] == VertexVerdict::Kept
        }) {
            return attempt;
        }
    }
    // No single spelling reaches threads: every spelling of a layout holding threads is kept
    // as a candidate, and the arc selection and the pruning choose among them.
    choose_reachable(sitemap, strategy, Spellings::EveryThreadSpelling)
}

/// Which vertices besides each layout's representative are kept before arc selection.
#[derive(Debug, Clone, Copy)]
enum Spellings {
    /// The representatives only.
    Representatives,
    /// The representatives and this other spelling of a thread layout.
    AlsoKeep(usize),
    /// Every spelling of every layout holding threads.
    EveryThreadSpelling,
}

/// Rounds of [`choose_reachable`] that turn copy verdicts round.
const COPY_REVERSALS: usize = 3;

/// [`choose_with`], then, while a vertex kept in place of its copy ends up not crawled
/// (unreached, or leading to nothing the plan keeps), again with that copy verdict turned round.
///
/// Which of two vertices showing one content is the copy is judged before arcs are chosen,
/// from how many kinds of page link each and their rank, on a handful of sampled pages. A view
/// linked from the footer of every page (a board's archive listing) can win that judgement and
/// still be unreachable by the arcs the plan may follow, or lead only to views the plan drops,
/// and the boards it stood in for were then never crawled (`copies_left_unreachable.rs`, a
/// hand-made forum; the simulator's vBulletin seed 3 with 45 samples, first taken for this
/// case, dropped its boards as copies of the "new posts" list instead, see
/// [`same_content::one_view_linked_by_many`]). A copy dropped for a vertex the plan does not
/// crawl saves nothing; keeping it is the safe side.
fn choose_reachable(sitemap: &Sitemap, strategy: Strategy, spellings: Spellings) -> Traversal {
    let mut reversed: BTreeSet<(usize, usize)> = BTreeSet::new();
    let (mut traversal, mut copies) = choose_with(sitemap, strategy, spellings, &reversed);
    for _ in 0..COPY_REVERSALS {
        let unreached: Vec<(usize, usize)> = copies
            .iter()
            .copied()
            .filter(|(_, kept)| traversal.verdicts[*kept] != VertexVerdict::Kept)
            .filter(|pair| !reversed.contains(pair))
            .collect();
        if unreached.is_empty() {
            break;
        }
        reversed.extend(unreached);
        (traversal, copies) = choose_with(sitemap, strategy, spellings, &reversed);
    }
    traversal
}

/// Chooses the traversal, with the copy verdicts of `reversed` (copy, vertex kept in its place)
/// turned round; returns it with the copy verdicts the cleaning gave.
fn choose_with(
    sitemap: &Sitemap,
    strategy: Strategy,
    spellings: Spellings,
    reversed: &BTreeSet<(usize, usize)>,
) -> (Traversal, Vec<(usize, usize)>) {
    let ranks = vertex_ranks(sitemap);
    let (flipping, connectivity) = find_page_flipping(sitemap);
    let (mut verdicts, copies) = clean_vertices(sitemap, &ranks, &flipping);
    for &(copy, kept) in reversed {
        if verdicts[copy] == VertexVerdict::Copy && verdicts[kept] == VertexVerdict::Kept {
            verdicts[copy] = VertexVerdict::Kept;
            verdicts[kept] = VertexVerdict::Copy;
        }
    }
    if let Spellings::AlsoKeep(spelling) = spellings
        && verdicts[spelling] == VertexVerdict::NotRepresentative
    {
        verdicts[spelling] = VertexVerdict::Kept;
    }
    if let Spellings::EveryThreadSpelling = spellings {
        let thread_layouts: HashSet<usize> = sitemap
            .vertices
            .iter()
            .filter(|vertex| vertex.role == Role::Thread)
            .map(|vertex| vertex.layout)
            .collect();
        for vertex in &sitemap.vertices {
            if thread_layouts.contains(&vertex.layout)
                && verdicts[vertex.id] == VertexVerdict::NotRepresentative
            {
                verdicts[vertex.id] = VertexVerdict::Kept;
            }
        }
    }
    primary_lists::boards_left_as_spellings(sitemap, &mut verdicts);
    // Vertices a representative's flipping links lead to are the later pages of its lists. (Not
    // the other way round: every spelling of a thread page, permalinks and "next thread" views
    // included, carries the thread's pager.)
    let representatives: Vec<bool> = verdicts
        .iter()
        .map(|verdict| *verdict == VertexVerdict::Kept)
        .collect();
    for (index, arc) in sitemap.arcs.iter().enumerate() {
        if !flipping[index] {
            continue;
        }
        let Some(target) = arc.main_target() else {
            continue;
        };
        let source = arc.key.source;
        if representatives[source] && verdicts[target] == VertexVerdict::NotRepresentative {
            verdicts[target] = VertexVerdict::Kept;
        }
    }
    keep_later_pages(sitemap, &flipping, &mut verdicts);
    // Only now are a view's later pages kept beside its first page, so that their pairs can
    // show it repeats itself.
    endless::drop_endless_views(sitemap, &mut verdicts);
    let mut primary = primary_thread_lists(sitemap, &verdicts, &ranks, &flipping);
    add_later_pages_of_primary_lists(sitemap, &verdicts, &flipping, &mut primary);
    let portal = sitemap.portal_vertex();
    let candidate: Vec<bool> = sitemap
        .arcs
        .iter()
        .map(|arc| {
            let Some(target) = arc.main_target() else {
                return false;
            };
            let source = arc.key.source;
            // Threads are read from the lists that hold them (and from their own pages and the
            // portal), not from profiles' "recent topics" or search results, which list a
            // changing subset and lead the crawler into pages it does not want.
            let source_may_lead_to_threads = source == portal
                || primary.contains(&source)
                || sitemap.vertices[source].role == Role::Thread;
            arc.self_duplicate_share < SELF_DUPLICATE_LIMIT
                && verdicts[target] == VertexVerdict::Kept
                && verdicts[source] == VertexVerdict::Kept
                && (sitemap.vertices[target].role != Role::Thread || source_may_lead_to_threads)
        })
        .collect();
    let mut selected = match strategy {
        Strategy::Skeleton => skeleton_links(sitemap, &candidate),
        Strategy::SpanningTree => spanning_tree(sitemap, &candidate, &flipping),
    };
    for (index, is_flipping) in flipping.iter().enumerate() {
        if *is_flipping && candidate[index] {
            selected.insert(index);
        }
    }
    let mut inferred_targets =
        follow_alike_on_pages_of_the_same_lists(sitemap, &flipping, &candidate, &mut selected);
    let (mut copied_arcs, lent_targets) =
        copy_flipping_rows(sitemap, &flipping, &candidate, &verdicts, &mut selected);
    for (index, target) in lent_targets {
        inferred_targets.entry(index).or_insert(target);
    }
    connect_to_portal(sitemap, &candidate, &mut selected);
    let targets: Vec<Option<usize>> = sitemap
        .arcs
        .iter()
        .enumerate()
        .map(|(index, arc)| {
            arc.main_target()
                .or_else(|| inferred_targets.get(&index).copied())
        })
        .collect();
    // A lent pager row flips the pages of the borrowing vertex's own lists only when its
    // target is spelled like them: the "1" and "Next" links of a board's later pages, lent to
    // a global "all topics" list of the same layout, name no board from that list's pages, and
    // counting them as a route let the pruning drop the board index, the one real way to the
    // boards (threads reached only through the global list's pages).
    let copied_edges: Vec<(usize, usize)> = copied_arcs
        .iter()
        .filter(|copied| {
            kin::spelled_alike(
                sitemap,
                sitemap.vertices[copied.key.source].url_pattern,
                sitemap.vertices[copied.target].url_pattern,
            )
        })
        .map(|copied| (copied.key.source, copied.target))
        .collect();
    prune_toward_goals(
        sitemap,
        &primary,
        &targets,
        &copied_edges,
        &mut verdicts,
        &mut selected,
    );
    let decide = |selected: &BTreeSet<usize>| -> Vec<Decision> {
        (0..sitemap.arcs.len())
            .map(|index| {
                if !selected.contains(&index) {
                    Decision::Skip
                } else if flipping[index] {
                    Decision::FollowKeepRelation
                } else {
                    Decision::Follow
                }
            })
            .collect()
    };
    let pruned_decisions = decide(&selected);
    let overrides = adopt_twins(sitemap, &mut verdicts, &mut selected, &pruned_decisions);
    let mut decisions = decide(&selected);
    for (index, decision) in overrides {
        decisions[index] = decision;
    }
    copied_arcs.retain(|copied| {
        verdicts[copied.key.source] == VertexVerdict::Kept
            && verdicts[copied.target] == VertexVerdict::Kept
    });
    (
        Traversal {
            strategy,
            verdicts,
            decisions,
            connectivity,
            flipping,
            targets,
            copied_arcs,
        },
        copies,
    )
}

/// How much a vertex stands for its kind of page: the content factors of eq. 3 (mean page size,
/// share of pages that are not near-duplicates) times one plus the number of other layouts
/// linking to it (a forum links a thread's canonical URL from boards, the portal, searches and
/// profiles, its sort-order, print and session spellings from one kind of page each); then the
/// sampled pages linking to it, its distinct pages, and the lower id. Eq. 3's family-size factor
/// is left out here: with shape-balanced sampling, how many pages a vertex got says more about
/// the sampler than about the site.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
struct Rank(f64, usize, usize, std::cmp::Reverse<usize>);

fn vertex_ranks(sitemap: &Sitemap) -> Vec<Rank> {
    let mut linking_pages: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    for arc in &sitemap.arcs {
        if let Some(target) = arc.main_target() {
            linking_pages
                .entry(target)
                .or_default()
                .extend(arc.sampled_pairs.iter().map(|(source, _)| *source));
        }
    }
    let kinds = linking_layouts(sitemap);
    (0..sitemap.vertices.len())
        .map(|vertex| {
            let data = &sitemap.vertices[vertex];
            let unique_share = 1.0 - data.duplicates as f64 / data.pages.len().max(1) as f64;
            Rank(
                data.average_size * unique_share * (1 + kinds[vertex]) as f64,
                linking_pages.get(&vertex).map_or(0, BTreeSet::len),
                sitemap.vertices[vertex].unique_pages,
                std::cmp::Reverse(vertex),
            )
        })
        .collect()
}

/// Per vertex, the number of other layouts whose sampled pages link to it: the kinds of page
/// that lead to it.
fn linking_layouts(sitemap: &Sitemap) -> Vec<usize> {
    let mut linking_kinds: HashMap<usize, BTreeSet<usize>> = HashMap::new();
    for arc in &sitemap.arcs {
        if let Some(target) = arc.main_target() {
            let source_layout = sitemap.vertices[arc.key.source].layout;
            if source_layout != sitemap.vertices[target].layout {
                linking_kinds
                    .entry(target)
                    .or_default()
                    .insert(source_layout);
            }
        }
    }
    (0..sitemap.vertices.len())
        .map(|vertex| linking_kinds.get(&vertex).map_or(0, BTreeSet::len))
        .collect()
}

/// The cleaned verdicts, and the copy verdicts given as (copy, vertex kept in its place).
fn clean_vertices(
    sitemap: &Sitemap,
    ranks: &[Rank],
    flipping: &[bool],
) -> (Vec<VertexVerdict>, Vec<(usize, usize)>) {
    let scores: Vec<f64> = sitemap
        .vertices
        .iter()
        .map(|vertex| vertex.informativeness)
        .collect();
    let mean = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
    let variance = scores
        .iter()
        .map(|score| (score - mean) * (score - mean))
        .sum::<f64>()
        / scores.len().max(1) as f64;
    let cut = mean - variance.sqrt();
    let portal = sitemap.portal_vertex();
    let mut verdicts: Vec<VertexVerdict> = sitemap
        .vertices
        .iter()
        .map(|vertex| {
            if vertex.id == portal {
                VertexVerdict::Kept
            } else if matches!(vertex.role, Role::Redirect | Role::Error) {
                VertexVerdict::LowInformativeness
            } else if vertex.pages.len() >= 3 && vertex.entropy_informativeness < MINIMUM_ENTROPY {
                VertexVerdict::AllDuplicates
            } else if vertex.informativeness < cut {
                VertexVerdict::LowInformativeness
            } else {
                VertexVerdict::Kept
            }
        })
        .collect();
    // Single-post views are told before representatives are chosen, so that one left alone in
    // its layout does not stand for it.
    single_posts::drop_single_post_views(sitemap, &mut verdicts);
    // One representative per layout cluster. iRobot keeps the largest vertex, but the size of a
    // vertex in a sample says as much about the sampler as about the site; trawl keeps the
    // vertex of highest [`Rank`], which weighs its content by how many kinds of page link to it.
    //
    // For thread vertices the rank comes second to how many of the sample's thread-list entries
    // lead to the vertex's URL pattern: a list names each thread by its own spelling (the title
    // link), while "last post" columns, permalinks and "next thread" links use others. Rank
    // alone was measured to fail: on the simulator's SMF seed 3 sampled with seed 1 the
    // "last post" spelling (`?topic=N.msgM`) outranked the titles' `?topic=N.0` (more of its
    // pages were sampled, so its informativeness and link kinds were higher); the boards, whose
    // entries then led to no kept thread vertex, stopped counting as thread lists, and the crawl
    // fetched 10 pages (0.3 % coverage).
    //
    // The entries are counted as list pages naming the pattern, not as single entries: an
    // archive view lists every thread of a board on one page, so its few sampled pages held
    // more entries than all the sampled board pages together. Measured on the simulator's
    // phpBB seed 2 at medium scale, where entries were counted one by one: the archive spelling
    // (`archive.php?t=N`, all of a thread's posts on one low-fidelity page) became the threads'
    // representative, and the crawl fetched 4,040 archive pages for 0.23 % coverage.
    let entries_into = thread_list_pages_per_pattern(sitemap);
    let rank = |vertex: usize| {
        let data = &sitemap.vertices[vertex];
        let entries = if data.role == Role::Thread {
            entries_into.get(&data.url_pattern).copied().unwrap_or(0)
        } else {
            0
        };
        (entries, ranks[vertex])
    };
    // Thread lists and the rest are represented apart within a layout: some engines lay boards
    // and threads out alike (a heavy frame of hidden dialogs, threads listing suggested topics
    // in rows made like a board's), and a layout's one representative, its threads, then
    // stood for its boards too, which were never crawled (django-simple-forum's 12 category
    // pages). A vertex is a thread list only when its entries lead to pages of posts, so a
    // layout of threads alone keeps one representative as before.
    let representative_key =
        |vertex: &crate::sitemap::Vertex| (vertex.layout, vertex.role == Role::ThreadList);
    // The portal's later pages are kept as the portal's (its page-flipping links lead there),
    // and take no part in choosing a layout's representative: a portal listing every topic with
    // a pager, laid out like the boards, outranked them (it lists more threads) and stood for
    // them.
    let portal_pages: HashSet<usize> = sitemap
        .arcs
        .iter()
        .zip(flipping)
        .filter(|(arc, is_flipping)| **is_flipping && arc.key.source == portal)
        .filter_map(|(arc, _)| arc.main_target())
        .filter(|target| *target != portal)
        .collect();
    let mut best_of_layout: HashMap<(usize, bool), usize> = HashMap::new();
    for vertex in &sitemap.vertices {
        if verdicts[vertex.id] != VertexVerdict::Kept
            || vertex.id == portal
            || portal_pages.contains(&vertex.id)
        {
            continue;
        }
        let best = best_of_layout
            .entry(representative_key(vertex))
            .or_insert(vertex.id);
        if rank(vertex.id) > rank(*best) {
            *best = vertex.id;
        }
    }
    // Of two vertices showing one content, the one more kinds of page link to is kept, and
    // only then the higher rank: the rank multiplies the kinds by the mean page size, and a
    // view that puts a whole board or thread on one page is large. Measured on the
    // simulator's XenForo seed 2 at medium scale, rank alone kept the boards' archive view,
    // linked only from the boards, and dropped the boards as its copy; the archive was then
    // unreachable and the crawl stopped after 7 fetches (0.06 % coverage).
    let kinds = linking_layouts(sitemap);
    let standing = |vertex: usize| (kinds[vertex], ranks[vertex]);
    for vertex in &sitemap.vertices {
        if verdicts[vertex.id] == VertexVerdict::Kept
            && vertex.id != portal
            && !portal_pages.contains(&vertex.id)
            && best_of_layout.get(&representative_key(vertex)) != Some(&vertex.id)
        {
            verdicts[vertex.id] = VertexVerdict::NotRepresentative;
        }
    }
    let mut copies: Vec<(usize, usize)> = Vec::new();
    // Copies across layouts: when one kind of link leads from pages of a vertex to copies (or
    // parts) of those very pages in another vertex (a thread's "archive" or "print" link), the
    // two vertices show the same content; the one linked from fewer kinds of page is dropped.
    for arc in &sitemap.arcs {
        let Some(target) = arc.main_target() else {
            continue;
        };
        let source = arc.key.source;
        if source == target
            || source == portal
            || target == portal
            || arc.sampled_pairs.len() < MINIMUM_PAIRS_FOR_COPIES
            // The other direction counts too: a page holding all of the linking page's text
            // and more (a whole thread as one "raw" or "archive" page, linked from each of its
            // pages) repeats content the crawl already gets page by page. Without it, the
            // simulator's Discourse seed 2 fetched every thread a second time as its raw view
            // (256 duplicate fetches, 43.7 % of the crawl).
            || (arc.self_duplicate_share < SELF_DUPLICATE_LIMIT
                && arc.source_contained_share < SELF_DUPLICATE_LIMIT)
            || verdicts[source] != VertexVerdict::Kept
            || verdicts[target] != VertexVerdict::Kept
            || same_content::one_view_linked_by_many(sitemap, arc)
        {
            continue;
        }
        // Only content vertices of one kind are compared: a board page may well contain the
        // text of a short thread's first post, which makes neither a copy of the other.
        if sitemap.vertices[source].role != sitemap.vertices[target].role {
            continue;
        }
        // A target that only shows a part of the page linking to it (a member profile listing
        // the few threads its member started, all of them rows of the board that links the
        // profile from its author column) is no spelling of that page: the linking page holds
        // everything the target holds and more, so it is the target that goes, however many
        // kinds of page link to it. Measured on the simulator's slugtree seed 3 with 300
        // samples: one of two sampled profiles linked from the boards was contained in its
        // board, the profiles (linked from nine kinds of page) stood higher, the boards were
        // dropped as their copy, and the crawl reached 8.8 % of the forum.
        let copy = if !pairs_show_the_source(sitemap, arc) || standing(target) <= standing(source) {
            target
        } else {
            source
        };
        verdicts[copy] = VertexVerdict::Copy;
        copies.push((copy, if copy == target { source } else { target }));
    }
    drop_copies_by_content(sitemap, &standing, &mut verdicts, &mut copies);
    (verdicts, copies)
}

/// A target holding at most this share of its linking page's text, on average over the pairs
/// that make it a copy, shows only a part of that page.
pub const PART_SHARE: f64 = 0.25;

/// Whether the sampled pairs of `arc` show its source page on its target, rather than only a
/// part of it: of the pairs that make the arc's pages copies (near-duplicates, or one page
/// holding the other's text), the targets hold on average more than [`PART_SHARE`] of their
/// source's text. A board and its printable or mobile view each hold most of the other's
/// titles (measured on the simulator's SMF seed 2 with 300 samples: the boards' text was 23 to
/// 61 % on their `;wap2` view); a profile listing the two threads its member started holds a
/// twentieth of its board (slugtree seed 3: 5 %).
fn pairs_show_the_source(sitemap: &Sitemap, arc: &crate::sitemap::Arc) -> bool {
    let groups = &sitemap.duplicate_groups;
    let shares: Vec<f64> = arc
        .sampled_pairs
        .iter()
        .filter(|&&(source, target)| {
            groups.group_of(source) == groups.group_of(target)
                || groups.containment(source, target) >= crate::sitemap::CONTAINED_SHARE
                || groups.containment(target, source) >= crate::sitemap::CONTAINED_SHARE
        })
        .map(|&(source, target)| {
            if groups.group_of(source) == groups.group_of(target) {
                1.0
            } else {
                groups.containment(source, target)
            }
        })
        .collect();
    shares.is_empty() || shares.iter().sum::<f64>() / shares.len() as f64 > PART_SHARE
}

/// Per URL pattern, the sampled thread-list pages with at least one thread entry whose URL it
/// matches.
fn thread_list_pages_per_pattern(
    sitemap: &Sitemap,
) -> HashMap<crate::url_patterns::UrlPatternId, usize> {
    let mut counts = HashMap::new();
    for vertex in &sitemap.vertices {
        if vertex.role != Role::ThreadList {
            continue;
        }
        for page in &vertex.pages {
            let named: HashSet<crate::url_patterns::UrlPatternId> = sitemap.pages[*page]
                .thread_entry_urls
                .iter()
                .filter_map(|url| sitemap.url_patterns.classify(url))
                .collect();
            for pattern in named {
                *counts.entry(pattern).or_insert(0) += 1;
            }
        }
    }
    counts
}

/// Share of a vertex's sampled pages that must show the content of pages of another vertex for
/// the two to be one content under two spellings.
pub const COPY_PAGE_SHARE: f64 = 0.5;

/// How many pages of a vertex with `pages` sampled pages must show the content of pages of
/// another vertex for the two to be one content: [`MINIMUM_PAIRS_FOR_COPIES`] and
/// [`COPY_PAGE_SHARE`] of them, or the one page of a vertex sampled once.
///
/// A view sampled once was never judged, as one page cannot make two pairs, and the partner
/// checks asked for none: with 40 to 60 samples, views of which the sample held one page (an
/// SMF board's and thread's `;wap2` copies, a Discourse thread's raw page) were kept beside
/// what they copy and crawled in full (the simulator's SMF seed 3 at 44 samples: 42 % duplicate
/// fetches; Discourse seed 2 at 45: 44 %). One page whose URL names the item of a page showing
/// its content is all the sample can say, and the copy then goes by standing, as with more.
pub(crate) fn partners_needed(pages: usize) -> usize {
    if pages == 1 {
        return 1;
    }
    MINIMUM_PAIRS_FOR_COPIES.max((COPY_PAGE_SHARE * pages as f64).ceil() as usize)
}

/// Copies found by content alone, without links between them: of two kept vertices of one
/// role in different layouts, when most sampled pages of one are near-duplicates of, contain,
/// or are contained in sampled pages of the other whose URLs carry one of their numbers, the
/// two show one content (a thread and the whole thread as a single "raw" page, a board and its
/// archive listing), and the vertex of lower standing (kinds of page linking to it, then rank)
/// is dropped. The link-based test above needs two sampled links from one to the other;
/// samplers reach such views mostly from elsewhere (an archive index), so on the simulator's
/// Discourse seed 2 the raw view had no such pair and every thread was fetched twice (256
/// duplicate fetches, 43.7 % of the crawl).
///
/// The sample must hold pages of the same items under both spellings. With 300 samples of
/// that Discourse forum it did not by itself (of the four sampled raw pages, only one had a
/// sampled page of its thread; 43.99 % duplicate fetches), so the sampler now fetches the few
/// partners this test needs after the sample ([`crate::partners`]).
fn drop_copies_by_content(
    sitemap: &Sitemap,
    standing: &dyn Fn(usize) -> (usize, Rank),
    verdicts: &mut [VertexVerdict],
    copies: &mut Vec<(usize, usize)>,
) {
    let numbers = numbers_of_pages(sitemap);
    let same_content = |a: usize, b: usize| same_content(sitemap, &numbers, a, b);
    let content_vertices = copy_test_candidates(sitemap, verdicts);
    for (position, &first) in content_vertices.iter().enumerate() {
        for &second in &content_vertices[position + 1..] {
            let (a, b) = (&sitemap.vertices[first], &sitemap.vertices[second]);
            if a.role != b.role
                || a.layout == b.layout
                || verdicts[first] != VertexVerdict::Kept
                || verdicts[second] != VertexVerdict::Kept
            {
                continue;
            }
            // Checked from the smaller vertex: its pages are the ones that need a partner.
            let (small, large) = if a.pages.len() <= b.pages.len() {
                (a, b)
            } else {
                (b, a)
            };
            let with_partner = small
                .pages
                .iter()
                .filter(|page| large.pages.iter().any(|other| same_content(**page, *other)))
                .count();
            if with_partner >= partners_needed(small.pages.len()) {
                let copy = if standing(first) < standing(second) {
                    first
                } else {
                    second
                };
                verdicts[copy] = VertexVerdict::Copy;
                copies.push((copy, if copy == first { second } else { first }));
            }
        }
    }
}
