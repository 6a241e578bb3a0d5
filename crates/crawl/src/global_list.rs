//! Threads read from their boards rather than from a global list beside them.
//!
//! Many forums open on a list of every thread, newest first ("latest topics", "all
//! questions"), paged like a board, beside the boards that list the same threads by subject.
//! The sample meets the global list first (its first page is the portal) and the learner's arc
//! selection keeps the fewest arcs that reach every wanted vertex: it reads threads from the
//! global list, flips its pages, and fetches the boards for themselves while skipping their
//! links to threads as redundant. Every board page is fetched either way, and the boards list
//! every thread, so each page of the global list past the portal is one fetch that finds
//! nothing the boards do not. Measured on a real engine of this kind (django-spirit, seed 7):
//! 9 of 243 fetches were the portal's later pages, which with the portal itself made the
//! crawl's share of fetches that were neither board nor thread pages 4.5 %.
//!
//! When the plan reads a thread vertex through such a global list and fetches boards (thread
//! lists outside the global list, reached from the portal or from one another rather than from
//! the global list's later pages) whose links into the same thread vertex it skips, the crawl
//! follows those links instead and does not flip the global list's pages. The portal's own
//! thread links stay followed: they cost no fetch of a list.

use std::collections::HashSet;

use trawl_learn::plan::Plan;
use trawl_learn::sitemap::{LocationKey, Role};
use trawl_learn::traverse::Decision;

/// The plan's decisions the crawl changes: boards' links into threads by (source vertex, URL
/// pattern, location), and the global list's later pages by their URL pattern.
#[derive(Debug, Clone, Default)]
pub(crate) struct BoardsOverGlobalList {
    /// Boards' links into threads the plan reads from the global list: followed.
    follow: HashSet<(usize, u32, LocationKey)>,
    /// URL patterns of the global list's later pages: not followed.
    skip: HashSet<u32>,
}

impl BoardsOverGlobalList {
    pub(crate) fn of(plan: &Plan) -> BoardsOverGlobalList {
        let role = |vertex: usize| plan.role_of(vertex);
        // Only arcs whose links the sample met say where pages lead: an arc without links
        // stands for its twin on other pages of the same lists.
        let sampled = || plan.arcs.iter().filter(|arc| arc.links > 0);
        let followed = |decision: Decision| decision != Decision::Skip;
        // The global list: the portal, and the pages its page-flipping links lead to (and theirs).
        let mut global: Vec<usize> = plan
            .vertices
            .iter()
            .filter(|vertex| vertex.role == Role::Portal)
            .map(|vertex| vertex.id)
            .collect();
        let portals = global.len();
        loop {
            let more: Vec<usize> = sampled()
                .filter(|arc| {
                    arc.decision == Decision::FollowKeepRelation && global.contains(&arc.source)
                })
                .filter_map(|arc| arc.target)
                .filter(|target| {
                    !global.contains(target)
                        && matches!(role(*target), Some(Role::ThreadList | Role::Portal))
                })
                .collect();
            if more.is_empty() {
                break;
            }
            for vertex in more {
                if !global.contains(&vertex) {
                    global.push(vertex);
                }
            }
        }
        // A portal that pages nothing is no global list.
        if global.len() == portals {
            return BoardsOverGlobalList::default();
        }
        let later_pages = &global[portals..];
        let threads: HashSet<usize> = sampled()
            .filter(|arc| followed(arc.decision) && later_pages.contains(&arc.source))
            .filter_map(|arc| arc.target)
            .filter(|target| role(*target) == Some(Role::Thread))
            .collect();
        if threads.is_empty() {
            return BoardsOverGlobalList::default();
        }
        // Boards: thread lists outside the global list that the plan fetches through something
        // other than the global list's later pages, so they stay reached without them.
        let boards: HashSet<usize> = sampled()
            .filter(|arc| followed(arc.decision) && !later_pages.contains(&arc.source))
            .filter_map(|arc| arc.target)
            .filter(|target| !global.contains(target) && role(*target) == Some(Role::ThreadList))
            .collect();
        let board_links: Vec<(usize, u32, LocationKey)> = sampled()
            .filter(|arc| {
                boards.contains(&arc.source)
                    && arc.target.is_some_and(|target| threads.contains(&target))
            })
            .map(|arc| (arc.source, arc.url_pattern, arc.location))
            .collect();
        // Every thread vertex the global list leads to must be listed by the boards too.
        let listed: HashSet<usize> = plan
            .arcs
            .iter()
            .filter(|arc| board_links.contains(&(arc.source, arc.url_pattern, arc.location)))
            .filter_map(|arc| arc.target)
            .collect();
        if listed != threads {
            return BoardsOverGlobalList::default();
        }
        // The later pages are known by their URL pattern wherever a link to them sits (a pager
        // above the list and one below it, a place the sample never judged), as long as the
        // pattern is theirs alone.
        let skip: HashSet<u32> = later_pages
            .iter()
            .map(|&vertex| plan.vertices[vertex].url_pattern)
            .filter(|&pattern| {
                plan.vertices
                    .iter()
                    .filter(|vertex| vertex.url_pattern == pattern)
                    .all(|vertex| later_pages.contains(&vertex.id))
            })
            .collect();
        if skip.is_empty() {
            return BoardsOverGlobalList::default();
        }
        BoardsOverGlobalList {
            follow: board_links.into_iter().collect(),
            skip,
        }
    }

    /// The crawl's decision on a link the plan (or the rule for unjudged places) decided
    /// `decision` on.
    pub(crate) fn adjust(
        &self,
        vertex: usize,
        pattern: Option<u32>,
        location: LocationKey,
        decision: Decision,
    ) -> Decision {
        let Some(pattern) = pattern else {
            return decision;
        };
        let key = (vertex, pattern, location);
        if decision == Decision::Skip && self.follow.contains(&key) {
            Decision::Follow
        } else if decision != Decision::Skip && self.skip.contains(&pattern) {
            Decision::Skip
        } else {
            decision
        }
    }
}
