//! Plan review: the sitemap, one vertex with its pages and arcs, and the preview of a change.

use std::fmt::Write;

use trawl_learn::plan::Plan;
use trawl_learn::sitemap::LocationKey;
use trawl_learn::traverse::Decision;
use trawl_store::StoredPage;

use crate::html::{SiteNav, escape, page, query_value};
use crate::plan_edit::{Preview, decision_name, decision_words, reached_vertices};
use crate::render::Rendering;

/// Stored pages of a vertex shown on its view.
pub const PAGES_SHOWN: usize = 20;

/// Where an arc's links sit, in words.
pub fn location_words(location: &LocationKey) -> String {
    match location {
        LocationKey::Region { pattern, column } => {
            format!("repetitive region {pattern:016x}, column {column:x}")
        }
        LocationKey::Path { path } => format!("outside regions, path {path:016x}"),
    }
}

fn pattern_text(plan: &Plan, id: u32) -> &str {
    plan.url_patterns
        .iter()
        .find(|pattern| pattern.id == id)
        .map_or("?", |pattern| pattern.pattern.as_str())
}

fn verdict_name(verdict: trawl_learn::traverse::VertexVerdict) -> String {
    serde_json::to_value(verdict)
        .ok()
        .and_then(|value| value.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The plan page: generation, the graph, and every vertex in a table.
pub fn plan_view(
    site: SiteNav<'_>,
    plan: &Plan,
    generation: u32,
    saved: Option<u32>,
    svg: &str,
) -> String {
    let reached = reached_vertices(plan);
    let mut body = String::new();
    if let Some(saved) = saved {
        let _ = write!(
            body,
            "<p class=\"notice\" role=\"status\" id=\"saved\">Saved as plan generation {saved}.</p>"
        );
    }
    let pages: usize = plan
        .vertices
        .iter()
        .filter(|vertex| reached[vertex.id])
        .map(|vertex| vertex.sampled_pages)
        .sum();
    let _ = write!(
        body,
        "<p>Generation <strong id=\"generation\">{generation}</strong> of the plan learned from \
         {} sampled pages of {}: {} vertices, {} arcs; the traversal reaches {} vertices holding \
         {pages} sampled pages. Blue: followed; red: page flipping (followed, keeping the \
         relationship); grey: skipped; dashed vertices are not reached. Arrow keys move between \
         vertices, Enter opens one.</p>",
        plan.sampled_pages,
        escape(&plan.portal),
        plan.vertices.len(),
        plan.arcs.len(),
        reached.iter().filter(|reached| **reached).count()
    );
    let _ = write!(body, "<div class=\"graph\">{svg}</div>");
    body.push_str(
        "<h2>Vertices</h2><table><thead><tr><th>vertex</th><th>role</th><th>verdict</th>\
         <th>reached</th><th>sampled pages</th><th>URL pattern</th><th>arcs out</th></tr></thead><tbody>",
    );
    for vertex in &plan.vertices {
        let arcs_out = plan
            .arcs
            .iter()
            .filter(|arc| arc.source == vertex.id)
            .count();
        let _ = write!(
            body,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td><code>{}</code></td><td>{arcs_out}</td></tr>",
            vertex_href(site.index, vertex.id, generation),
            vertex.id,
            vertex.role.name(),
            verdict_name(vertex.verdict),
            if reached[vertex.id] { "yes" } else { "no" },
            vertex.sampled_pages,
            escape(pattern_text(plan, vertex.url_pattern))
        );
    }
    body.push_str("</tbody></table>");
    page("Plan", Some(site), None, &body)
}

fn decision_select(arc: usize, current: Decision) -> String {
    let mut out = format!(
        "<select name=\"arc-{arc}\" id=\"arc-{arc}\" aria-label=\"decision of arc {arc}\">"
    );
    for decision in [
        Decision::Skip,
        Decision::Follow,
        Decision::FollowKeepRelation,
    ] {
        let _ = write!(
            out,
            "<option value=\"{}\"{}>{}</option>",
            decision_name(decision),
            if decision == current { " selected" } else { "" },
            decision_words(decision)
        );
    }
    out.push_str("</select>");
    out
}

/// A vertex: what it is, its pages in the store, and its arcs with a form to change them;
/// `drawable` says whether the store holds an answered fetch of a sampled page's URL (which
/// can then be drawn with its regions).
pub fn vertex_view(
    site: SiteNav<'_>,
    plan: &Plan,
    generation: u32,
    vertex: usize,
    stored: &[&StoredPage],
    drawable: &dyn Fn(&str) -> bool,
) -> String {
    let entry = &plan.vertices[vertex];
    let reached = reached_vertices(plan);
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>Role <strong>{}</strong>, verdict <strong>{}</strong>, {} by the traversal; URL \
         pattern <code>{}</code>; {} sampled pages ({} distinct), mean depth {:.1}, \
         informativeness {:.3}.</p>",
        entry.role.name(),
        verdict_name(entry.verdict),
        if reached[vertex] {
            "reached"
        } else {
            "not reached"
        },
        escape(pattern_text(plan, entry.url_pattern)),
        entry.sampled_pages,
        entry.unique_pages,
        entry.depth,
        entry.informativeness
    );
    body.push_str("<h2>Sampled pages</h2><ul class=\"examples\">");
    for example in &entry.examples {
        // Only a page the crawl holds an answer of can be drawn.
        let drawn = if drawable(example) {
            format!(
                " (<a href=\"/site/{}/rendered?url={}\" class=\"rendered\">drawn with its \
                 regions</a>)",
                site.index,
                query_value(example)
            )
        } else {
            String::new()
        };
        let _ = write!(
            body,
            "<li><a href=\"/site/{}/page?url={}\">{}</a>{drawn}</li>",
            site.index,
            query_value(example),
            escape(example)
        );
    }
    body.push_str("</ul>");
    let _ = write!(
        body,
        "<h2>Pages of this vertex in the store</h2><p>The first {} of them (pages fetched under \
         a plan learned before this one are left out: their vertex numbers name its vertices).</p>\
         <table><thead><tr><th>page</th><th>URL</th><th>status</th><th>role</th><th>records read</th></tr></thead><tbody>",
        PAGES_SHOWN
    );
    for page_shown in stored.iter().take(PAGES_SHOWN) {
        let record = &page_shown.record;
        let _ = write!(
            body,
            "<tr><td>{0}</td><td><a href=\"/site/{1}/page?url={2}\">{3}</a>{8}</td><td>{4}</td>\
             <td>{5}</td><td>{6} posts, {7} thread entries</td></tr>",
            page_shown.id,
            site.index,
            query_value(&record.url),
            escape(&record.url),
            record.status,
            escape(record.role.as_deref().unwrap_or("-")),
            record.posts.len(),
            record.thread_entries.len(),
            if (200..300).contains(&record.status) {
                format!(
                    " (<a href=\"/site/{}/rendered?url={}\" class=\"rendered\">drawn</a>)",
                    site.index,
                    query_value(&record.url)
                )
            } else {
                String::new()
            }
        );
    }
    if stored.is_empty() {
        body.push_str("<tr><td colspan=\"5\">none yet</td></tr>");
    }
    body.push_str("</tbody></table>");
    let _ = write!(
        body,
        "<h2>Arcs</h2><form method=\"post\" action=\"/site/{}/preview\" id=\"decisions\">\
         <input type=\"hidden\" name=\"generation\" value=\"{generation}\">\
         <input type=\"hidden\" name=\"vertex\" value=\"{vertex}\">\
         <table><thead><tr><th>arc</th><th>links to</th><th>target</th><th>where</th>\
         <th>links sampled</th><th>anchor texts</th><th>decision</th></tr></thead><tbody>",
        site.index
    );
    let mut any = false;
    for (index, arc) in plan.arcs.iter().enumerate() {
        if arc.source != vertex {
            continue;
        }
        any = true;
        let target = match arc.target {
            Some(target) => format!(
                "<a href=\"{}\">{target}</a>",
                vertex_href(site.index, target, generation)
            ),
            None => "-".to_string(),
        };
        let examples: Vec<String> = arc
            .examples
            .iter()
            .take(3)
            .map(|text| escape(text))
            .collect();
        let _ = write!(
            body,
            "<tr><td>{index}</td><td><code>{}</code></td><td>{target}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            escape(pattern_text(plan, arc.url_pattern)),
            escape(&location_words(&arc.location)),
            arc.links,
            examples.join(" · "),
            decision_select(index, arc.decision)
        );
    }
    if !any {
        body.push_str("<tr><td colspan=\"7\">no arcs leave this vertex</td></tr>");
    }
    body.push_str(
        "</tbody></table><p><button type=\"submit\" id=\"preview\">Preview the change</button></p></form>",
    );
    page(
        &format!("Vertex {vertex}: {}", entry.role.name()),
        Some(site),
        None,
        &body,
    )
}

/// Where vertex `vertex` of plan generation `generation` is shown. The link names the
/// generation: after the plan is learned again the same number names another vertex, and the
/// view then says the link is stale rather than show that other vertex.
pub fn vertex_href(site: usize, vertex: usize, generation: u32) -> String {
    format!("/site/{site}/vertex/{vertex}?generation={generation}")
}

/// What a link to vertex `vertex` of plan generation `asked` says once the plan was learned
/// again (it is at `now`): the number names another vertex now.
pub fn stale_vertex_words(vertex: usize, asked: u32, now: u32) -> String {
    format!(
        "this link names vertex {vertex} of plan generation {asked}; the plan was learned again \
         since (generation {now} now), and its vertex numbers name other vertices: open the plan \
         to find the vertex you want"
    )
}

fn vertex_list(site: usize, plan: &Plan, generation: u32, vertices: &[usize]) -> String {
    if vertices.is_empty() {
        return "none".to_string();
    }
    vertices
        .iter()
        .map(|vertex| {
            format!(
                "<a href=\"{}\">{vertex}</a> ({}, {} pages)",
                vertex_href(site, *vertex, generation),
                plan.vertices[*vertex].role.name(),
                plan.vertices[*vertex].sampled_pages
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a change would do, with the button that saves it.
pub fn preview_view(
    site: SiteNav<'_>,
    plan: &Plan,
    generation: u32,
    vertex: Option<usize>,
    preview: &Preview,
) -> String {
    let mut body = String::new();
    if !preview.changes_anything() {
        body.push_str("<p id=\"verdict\">No decision changed: there is nothing to save.</p>");
    } else {
        body.push_str("<h2>Decisions changed</h2><ul id=\"changes\">");
        for (arc, before, after) in &preview.changed_arcs {
            let source = plan.arcs[*arc].source;
            let _ = write!(
                body,
                "<li>arc {arc} from vertex {source} to <code>{}</code>: {} → <strong>{}</strong></li>",
                escape(pattern_text(plan, plan.arcs[*arc].url_pattern)),
                decision_words(*before),
                decision_words(*after)
            );
        }
        let difference = preview.pages_after as i64 - preview.pages_before as i64;
        let _ = write!(
            body,
            "</ul><h2>Pages reachable, by the sample</h2><p id=\"verdict\">{} → <strong>{}</strong> \
             sampled pages ({difference:+}).</p><p>Vertices added: <span id=\"added\">{}</span>.</p>\
             <p>Vertices removed: <span id=\"removed\">{}</span>.</p>",
            preview.pages_before,
            preview.pages_after,
            vertex_list(site.index, plan, generation, &preview.vertices_added),
            vertex_list(site.index, plan, generation, &preview.vertices_removed)
        );
        let _ = write!(
            body,
            "<form method=\"post\" action=\"/site/{}/save\"><input type=\"hidden\" \
             name=\"generation\" value=\"{generation}\">",
            site.index
        );
        for (arc, _, after) in &preview.changed_arcs {
            let _ = write!(
                body,
                "<input type=\"hidden\" name=\"arc-{arc}\" value=\"{}\">",
                decision_name(*after)
            );
        }
        let _ = write!(
            body,
            "<p><button type=\"submit\" id=\"save\">Save as plan generation {}</button></p></form>",
            generation + 1
        );
    }
    if let Some(vertex) = vertex {
        let _ = write!(
            body,
            "<p><a href=\"{}\" id=\"back\">Back to vertex {vertex}</a></p>",
            vertex_href(site.index, vertex, generation)
        );
    }
    page("Preview of a plan change", Some(site), None, &body)
}

/// A stored page drawn with its repetitive regions outlined ([`crate::render`]).
pub fn rendered_view(site: SiteNav<'_>, fetch: &StoredPage, rendering: &Rendering) -> String {
    let record = &fetch.record;
    let mut body = String::new();
    let _ = write!(
        body,
        "<p><a href=\"/site/{0}/page?url={1}\">{2}</a>, fetch {3}, role {4}{5}: {6} repetitive \
         regions outlined in blue, their {7} records in orange; the region the posts were read \
         from in green. The page is drawn without its scripts, styles, images or links' \
         targets, so nothing on it loads or leads anywhere.</p>",
        site.index,
        query_value(&record.url),
        escape(&record.url),
        fetch.id,
        escape(record.role.as_deref().unwrap_or("none")),
        record
            .vertex
            .map(|vertex| format!(
                ", <a href=\"{}\">vertex {vertex}</a>",
                vertex_href(site.index, vertex as usize, fetch.plan_generation)
            ))
            .unwrap_or_default(),
        rendering.regions,
        rendering.records
    );
    let _ = write!(
        body,
        "<div class=\"rendering\" id=\"rendering\">{}</div>",
        rendering.html
    );
    page(&format!("Drawn: {}", record.url), Some(site), None, &body)
}
