//! `trawl plan show`: a plan file as a person reads it.

use std::collections::BTreeMap;
use std::fmt::Write;

use trawl_learn::plan::Plan;
use trawl_learn::rewrites::UrlRewrite;
use trawl_learn::sitemap::LocationKey;
use trawl_learn::traverse::{Decision, VertexVerdict};

/// The readable summary: vertices with their role, verdict, sizes, informativeness and example
/// URLs, then each vertex's arcs with pattern, location and decision (followed arcs first).
pub fn render(plan: &Plan) -> String {
    let mut out = String::new();
    let pattern_text: BTreeMap<u32, &str> = plan
        .url_patterns
        .iter()
        .map(|pattern| (pattern.id, pattern.pattern.as_str()))
        .collect();
    let kept = plan
        .vertices
        .iter()
        .filter(|vertex| vertex.verdict == VertexVerdict::Kept)
        .count();
    let followed = plan
        .arcs
        .iter()
        .filter(|arc| arc.decision != Decision::Skip)
        .count();
    let _ = writeln!(
        out,
        "plan for {} (format {}, {} pages sampled, {:?} strategy)\n{} vertices, {} crawled; {} arcs, {} followed; {} URL patterns; {} layouts (threshold {:.3})",
        plan.portal,
        plan.format_version,
        plan.sampled_pages,
        plan.strategy,
        plan.vertices.len(),
        kept,
        plan.arcs.len(),
        followed,
        plan.url_patterns.len(),
        plan.layout.exemplars.len(),
        plan.layout.threshold,
    );
    for rewrite in &plan.url_rewrites {
        let _ = match rewrite {
            UrlRewrite::DropQueryPair { key, value } => {
                writeln!(out, "URLs lose the redundant query pair {key}={value}")
            }
            UrlRewrite::DropLastSegment { segment } => {
                writeln!(out, "URLs lose the redundant last path segment {segment}")
            }
        };
    }
    for vertex in &plan.vertices {
        let _ = writeln!(
            out,
            "\nvertex {} [{}] {:?}: layout {}, pattern {}\n  {} pages sampled ({} distinct), depth {:.1}, {:.0} bytes, informativeness {:.4}, entropy {:.2}",
            vertex.id,
            vertex.role.name(),
            vertex.verdict,
            vertex.layout,
            pattern_text.get(&vertex.url_pattern).unwrap_or(&"?"),
            vertex.sampled_pages,
            vertex.unique_pages,
            vertex.depth,
            vertex.average_size,
            vertex.informativeness,
            vertex.entropy_informativeness,
        );
        for example in &vertex.examples {
            let _ = writeln!(out, "  e.g. {example}");
        }
        let mut arcs: Vec<_> = plan
            .arcs
            .iter()
            .filter(|arc| arc.source == vertex.id)
            .collect();
        arcs.sort_by_key(|arc| (arc.decision == Decision::Skip, std::cmp::Reverse(arc.links)));
        for arc in arcs {
            if arc.decision == Decision::Skip && arc.target.is_none() {
                continue;
            }
            let _ = writeln!(
                out,
                "  {:<22} {:<40} at {:<30} -> {} ({} links{}) e.g. {:?}",
                match arc.decision {
                    Decision::Skip => "skip",
                    Decision::Follow => "FOLLOW",
                    Decision::FollowKeepRelation => "FOLLOW+KEEP (flipping)",
                },
                pattern_text.get(&arc.url_pattern).unwrap_or(&"?"),
                location_text(arc.location),
                arc.target
                    .map(|target| format!("vertex {target}"))
                    .unwrap_or_else(|| "unsampled".to_string()),
                arc.links,
                arc.connectivity
                    .map(|value| format!(", connectivity {value:.2}"))
                    .unwrap_or_default(),
                arc.examples.iter().take(3).collect::<Vec<_>>(),
            );
        }
    }
    out
}

/// A location as short text: `region 1a2b…/col 3c4d…` or `path 5e6f…`.
pub fn location_text(location: LocationKey) -> String {
    match location {
        LocationKey::Region { pattern, column } => {
            format!("region {:08x}/col {:06x}", pattern >> 32, column >> 40)
        }
        LocationKey::Path { path } => format!("path {:08x}", path >> 32),
    }
}
