//! Roles of the sitemap's vertices: portal, thread list, thread, redirect, error or other, from
//! what the page analysis found on their sampled pages and where their links lead.

use std::collections::{HashMap, HashSet};

use super::{Role, Sitemap};
use crate::summary::PageSummary;
use crate::url_patterns::UrlPatternId;

/// Pages whose "posts" are this long on average hold real posts, whatever entries the entry
/// reader also found in them (a thread page whose posts link to single-post views).
const LONGEST_LIST_ROW_WORDS: f64 = 25.0;

/// Pages whose "posts" are shorter than this on average hold rows of facts, not posts: a
/// profile's "Joined", "Last seen" and "Posts" lines each carry a date or a number, so the post
/// reader finds dated records there. Measured on the simulator: profiles of Discourse,
/// vBulletin and tablecraft average 1.3-3.7 words per such "post", while every sampled thread
/// page of every family averages 10.5 words or more. Without it, Discourse's profiles were
/// learned as threads and the member list as their thread list (13 % of the crawl invalid).
const SHORTEST_POST_WORDS: f64 = 6.0;

/// Share of a layout's pages that must hold posts for it to be a thread layout. Threads of one
/// post have no repetition to find posts in, so a thread layout of a young forum can have many
/// post-less pages; a third is well above what board or profile layouts ever show.
const THREAD_LAYOUT_POST_SHARE: f64 = 0.3;

/// Roles from what the page analysis found. A vertex is a *thread list* when most of its pages
/// list entries that lead into a layout of post pages other than its own; it is a *thread*
/// vertex when its layout is a post layout and it is not a thread list. Post readers and entry
/// readers both fire on the wrong pages now and then (a board row has an author and a time; a
/// post has a title link), which is why roles are decided by where entries lead rather than by
/// which reader found more records.
pub(super) fn assign_roles(sitemap: &mut Sitemap) {
    let portal_vertex = sitemap.portal_vertex();
    let layouts = sitemap.layout.model.exemplars.len();
    let mut pages_of_layout = vec![0usize; layouts];
    let mut with_posts_of_layout = vec![0usize; layouts];
    for (index, page) in sitemap.pages.iter().enumerate() {
        let layout = sitemap.layout.cluster_of_page[index];
        pages_of_layout[layout] += 1;
        with_posts_of_layout[layout] += usize::from(page.posts_with_time >= 1);
    }
    let post_layout: Vec<bool> = (0..layouts)
        .map(|layout| {
            with_posts_of_layout[layout] as f64
                >= THREAD_LAYOUT_POST_SHARE * pages_of_layout[layout].max(1) as f64
        })
        .collect();
    // Where a URL pattern leads: the layout of the largest vertex with that pattern whose
    // pages mostly answered. Links of a thread's pattern in post bodies that lead to
    // members-only threads answer 404 with an error page, and a sample can hold more of those
    // than of real threads: they must not make the board's entries lead "to errors".
    let mostly_answered = |vertex: &super::Vertex| {
        let failed = vertex
            .pages
            .iter()
            .filter(|page| {
                let page = &sitemap.pages[**page];
                page.status >= 400 || page.redirect.is_some()
            })
            .count();
        2 * failed <= vertex.pages.len()
    };
    let mut layout_of_pattern: HashMap<UrlPatternId, (usize, usize)> = HashMap::new();
    // Beside the layout, whether that vertex's own pages mostly hold posts: what an entry leads
    // to when list and thread share one layout.
    let mut posts_of_pattern: HashMap<UrlPatternId, bool> = HashMap::new();
    for vertex in sitemap
        .vertices
        .iter()
        .filter(|vertex| mostly_answered(vertex))
    {
        let entry = layout_of_pattern
            .entry(vertex.url_pattern)
            .or_insert((vertex.layout, 0));
        if vertex.pages.len() > entry.1 {
            *entry = (vertex.layout, vertex.pages.len());
            let with_posts = vertex
                .pages
                .iter()
                .filter(|page| sitemap.pages[**page].posts_with_time >= 1)
                .count();
            posts_of_pattern.insert(
                vertex.url_pattern,
                with_posts as f64 >= THREAD_LAYOUT_POST_SHARE * vertex.pages.len() as f64,
            );
        }
    }
    for vertex in &mut sitemap.vertices {
        let pages: Vec<&PageSummary> = vertex
            .pages
            .iter()
            .map(|page| &sitemap.pages[*page])
            .collect();
        let count = pages.len();
        let redirects = pages.iter().filter(|page| page.redirect.is_some()).count();
        let errors = pages.iter().filter(|page| page.status >= 400).count();
        // Per page listing entries, (entries, entries into another layout holding posts,
        // entries into another layout at all), each entry URL classified once.
        let entry_counts: Vec<(usize, usize, usize)> = pages
            .iter()
            .filter(|page| page.mean_post_words < LONGEST_LIST_ROW_WORDS)
            .map(|page| {
                let entries = &page.thread_entry_urls;
                let mut into_posts = 0;
                let mut elsewhere = 0;
                for url in entries {
                    let pattern = sitemap.url_patterns.classify(url);
                    let other_layout = pattern
                        .and_then(|pattern| layout_of_pattern.get(&pattern))
                        .map(|(layout, _)| *layout)
                        .filter(|layout| *layout != vertex.layout);
                    // Some engines lay boards, threads and the portal out alike (a frame of
                    // hidden dialogs outweighing what each page shows, threads listing
                    // suggested topics in rows made like a board's): a page holding no post
                    // whose entries lead to pages of another pattern that hold posts lists
                    // threads all the same. A thread page's own suggestions are read as posts'
                    // company, since the page holds posts. Before, django-simple-forum's
                    // categories were never crawled as such.
                    if other_layout.is_none()
                        && page.posts_with_time == 0
                        && let Some(pattern) = pattern
                        && pattern != vertex.url_pattern
                        && posts_of_pattern.get(&pattern) == Some(&true)
                    {
                        elsewhere += 1;
                        into_posts += 1;
                        continue;
                    }
                    // A post's author name read as an entry's title is no sign of a list of
                    // members: the entry reader finds a dated row with a link in every short
                    // post, and posts are written by their authors. (A board's row read as a
                    // post names the thread as its "author", which leads into posts and
                    // counts.)
                    if let Some(layout) = other_layout
                        && (post_layout[layout] || !page.post_author_urls.contains(url))
                    {
                        elsewhere += 1;
                        into_posts += usize::from(post_layout[layout]);
                    }
                }
                (entries.len(), into_posts, elsewhere)
            })
            .collect();
        let listing = entry_counts
            .iter()
            .filter(|(entries, into_posts, _)| *entries >= 2 && 2 * into_posts > *entries)
            .count();
        // Pages listing things of another layout that holds no posts: member lists, lists of
        // boards. Their rows have names and dates too, so the post reader finds "posts" there.
        let listing_other = entry_counts
            .iter()
            .filter(|(entries, _, elsewhere)| *entries >= 2 && 2 * elsewhere > *entries)
            .count();
        let with_posts = pages
            .iter()
            .filter(|page| page.posts_with_time >= 1)
            .count();
        let with_worded_posts = pages
            .iter()
            .filter(|page| page.posts_with_time >= 1 && page.mean_post_words >= SHORTEST_POST_WORDS)
            .count();
        vertex.mean_entries = pages
            .iter()
            .map(|page| page.thread_entry_urls.len() as f64)
            .sum::<f64>()
            / count.max(1) as f64;
        vertex.role = if 2 * redirects > count {
            Role::Redirect
        } else if 2 * errors > count {
            Role::Error
        } else if 2 * listing > count {
            Role::ThreadList
        } else if post_layout[vertex.layout]
            && with_posts > 0
            && 2 * with_worded_posts > with_posts
            && 2 * listing_other <= count
        {
            Role::Thread
        } else {
            Role::Other
        };
    }
    demote_member_pages(sitemap);
    super::message_indexes::mark_indexes_without_entries(sitemap);
    if let Some(vertex) = sitemap.vertices.get_mut(portal_vertex) {
        vertex.role = Role::Portal;
    }
}

/// Member pages showing their member's latest posts read like threads (a list of dated
/// paragraphs), and a plan that takes them for threads crawls every member of the forum: on
/// django-machina, 30 of 270 fetches went to profiles. What gives them away is how the forum
/// itself links them: a post's author name links its member's page, never a thread. A thread
/// vertex most of whose sampled pages are such author pages, and whose pages each show posts of
/// one author at most (a member's own posts, often with no name on them at all), becomes
/// [`Role::Other`].
///
/// Both tests are needed. Author links alone would let one misread author column (a permalink
/// taken for the name) turn real threads into member pages; one author per page alone would
/// take a thread whose replies are all its starter's, or a forum whose names are not read, for
/// a member page. Threads are written by many, and nothing links a thread from a name.
fn demote_member_pages(sitemap: &mut Sitemap) {
    let author_pages: HashSet<&url::Url> = sitemap
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::Thread)
        .flat_map(|vertex| vertex.pages.iter())
        .flat_map(|page| {
            let page = &sitemap.pages[*page];
            page.post_author_urls
                .iter()
                .filter(move |url| **url != page.url)
        })
        .collect();
    if author_pages.is_empty() {
        return;
    }
    let member_vertices: Vec<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::Thread)
        .filter(|vertex| {
            let pages = vertex.pages.len();
            let named = vertex
                .pages
                .iter()
                .filter(|page| author_pages.contains(&sitemap.pages[**page].url))
                .count();
            let one_author = vertex
                .pages
                .iter()
                .filter(|page| sitemap.pages[**page].distinct_post_authors <= 1)
                .count();
            2 * named > pages && 2 * one_author > pages
        })
        .map(|vertex| vertex.id)
        .collect();
    for vertex in member_vertices {
        sitemap.vertices[vertex].role = Role::Other;
    }
}
