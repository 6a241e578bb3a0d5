//! The crawlers trawl is compared against, built from the same learned sitemap.
//!
//! The breadth-first crawler needs nothing ([`crate::CrawlStrategy::BreadthFirst`]). The
//! structure-driven crawler (Vidal et al., SIGIR 2006, the traversal paper's second baseline)
//! learns, from one example of a target page, the navigation path that leads to it from the
//! entry page, generalises each step to a pattern, and follows only links matching the path's
//! patterns, level by level. It has no notion of page flipping: a board's later pages are
//! reached only if the path itself goes through them. [`structure_driven_plan`] derives that
//! crawler from a learned plan: the example is the thread vertex with the most sampled pages,
//! the path the fewest arcs from the portal's vertex to it, and the plan follows those arcs and
//! nothing else. Expressed as a plan, it runs on the same online machinery, so a comparison
//! measures the traversal alone.

use std::collections::{HashMap, VecDeque};

use trawl_learn::plan::Plan;
use trawl_learn::sitemap::Role;
use trawl_learn::traverse::{Decision, VertexVerdict};

/// The structure-driven crawler's plan, or `None` when the plan has no thread vertex reachable
/// from the portal's.
pub fn structure_driven_plan(plan: &Plan) -> Option<Plan> {
    let portal = plan
        .vertices
        .iter()
        .find(|vertex| vertex.role == Role::Portal)?
        .id;
    let example = plan
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::Thread && vertex.verdict == VertexVerdict::Kept)
        .max_by_key(|vertex| (vertex.sampled_pages, std::cmp::Reverse(vertex.id)))?
        .id;
    // The example is reached the way a person would show it: through the board list that
    // links to the thread vertex most (the sample's links count), not through a shortcut such
    // as the portal's latest threads or a member profile listing a few threads.
    let links_between = |source: usize, target: usize| -> usize {
        plan.arcs
            .iter()
            .filter(|arc| arc.source == source && arc.target == Some(target))
            .map(|arc| arc.links)
            .sum()
    };
    let list_vertex = plan
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::ThreadList && vertex.id != example)
        .map(|vertex| (links_between(vertex.id, example), vertex.id))
        .filter(|(links, _)| *links > 0)
        .max_by_key(|&(links, id)| (links, std::cmp::Reverse(id)))
        .map(|(_, id)| id);
    // The fewest arcs from the portal's vertex to the board list (or straight to the example
    // when no board list links to it), over arcs between different vertices.
    let goal = list_vertex.unwrap_or(example);
    let mut arc_into: HashMap<usize, usize> = HashMap::new();
    let mut queue = VecDeque::from([portal]);
    while let Some(vertex) = queue.pop_front() {
        if vertex == goal {
            break;
        }
        for (index, arc) in plan.arcs.iter().enumerate() {
            let Some(target) = arc.target else {
                continue;
            };
            if arc.source == vertex
                && target != vertex
                && target != portal
                && !arc_into.contains_key(&target)
            {
                arc_into.insert(target, index);
                queue.push_back(target);
            }
        }
    }
    let mut steps: Vec<(usize, Option<usize>)> = Vec::new();
    let mut vertex = goal;
    while vertex != portal {
        let index = *arc_into.get(&vertex)?;
        steps.push((plan.arcs[index].source, plan.arcs[index].target));
        vertex = plan.arcs[index].source;
    }
    if let Some(list) = list_vertex {
        steps.push((list, Some(example)));
    }
    // Each step is generalised to every arc between its two vertices: the method's navigation
    // patterns describe a kind of link (all thread links of a board page), not one table cell.
    let mut derived = plan.clone();
    for arc in &mut derived.arcs {
        arc.decision = if steps.contains(&(arc.source, arc.target)) {
            Decision::Follow
        } else {
            Decision::Skip
        };
    }
    // The lookup index is rebuilt from the arcs by reading the plan back.
    Plan::from_json(&derived.to_json()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use trawl_learn::learn;
    use trawl_learn::sample::{SampleOptions, sample_site};
    use trawl_learn::traverse::Strategy;
    use trawl_model::{CookieJarFetcher, FixedClock};
    use url::Url;

    #[test]
    fn the_structure_driven_plan_follows_one_path_and_never_flips_pages() {
        let site = std::sync::Arc::new(trawl_sim::Site::build(trawl_sim::SiteConfig::new(
            trawl_sim::FamilyName::Phpbb,
            2,
            trawl_sim::Scale::Small,
        )));
        let origin = "http://forum.test";
        let fetcher = CookieJarFetcher::new(trawl_sim::SimFetcher::new(site.clone(), origin));
        let clock = FixedClock::new(jiff::Timestamp::from_second(site.history().end).unwrap());
        let portal = Url::parse(&format!("{origin}{}", site.portal_path())).unwrap();
        let options = SampleOptions {
            max_pages: 200,
            delay: std::time::Duration::ZERO,
            ..SampleOptions::default()
        };
        let pages = sample_site(&fetcher, &clock, portal.clone(), &options, |_| {}).unwrap();
        let learned = learn(&portal, pages, Strategy::Skeleton);
        let derived = structure_driven_plan(&learned.plan).expect("a path to the threads");
        let followed: Vec<_> = derived
            .arcs
            .iter()
            .filter(|arc| arc.decision != Decision::Skip)
            .collect();
        let steps: HashSet<(usize, Option<usize>)> = followed
            .iter()
            .map(|arc| (arc.source, arc.target))
            .collect();
        assert!(!steps.is_empty() && steps.len() <= 3, "{steps:?}");
        assert!(
            followed
                .iter()
                .all(|arc| arc.decision == Decision::Follow && arc.target != Some(arc.source))
        );
        let path_end = followed
            .iter()
            .filter_map(|arc| arc.target)
            .map(|target| derived.vertices[target].role)
            .collect::<Vec<_>>();
        assert!(path_end.contains(&Role::Thread), "{path_end:?}");
    }
}
