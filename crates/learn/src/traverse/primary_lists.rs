//! Primary thread lists: the boards threads are read from, told from views of them ("what's
//! new", searches, profiles' recent topics) that list the same threads.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::{PRIMARY_LIST_SHARE, Rank, SECONDARY_LIST_SHARE, VertexVerdict};
use crate::sitemap::{Role, Sitemap};

/// A thread list is *primary* when most of its entries lead to a crawled thread vertex (not to
/// an archive or print spelling of threads) and its pages list at least [`PRIMARY_LIST_SHARE`]
/// as many entries as the fullest such list: boards list a full page of threads, while profiles'
/// "recent topics", the portal's "latest threads" and search teasers list a few.
pub(super) fn primary_thread_lists(
    sitemap: &Sitemap,
    verdicts: &[VertexVerdict],
    ranks: &[Rank],
    flipping: &[bool],
) -> HashSet<usize> {
    // Vertices joined by page-flipping links hold pages of the same lists (a board's first
    // pages and its later ones, whose pager also links page 1 as `&start=0`); they are never
    // views of one another, however many entries they share.
    let same_lists: HashSet<(usize, usize)> = sitemap
        .arcs
        .iter()
        .zip(flipping)
        .filter(|(_, is_flipping)| **is_flipping)
        .filter_map(|(arc, _)| {
            let target = arc.main_target()?;
            Some([(arc.key.source, target), (target, arc.key.source)])
        })
        .flatten()
        .collect();
    let kept_threads: HashSet<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::Thread && verdicts[vertex.id] == VertexVerdict::Kept)
        .map(|vertex| vertex.id)
        .collect();
    let thread_patterns: HashSet<crate::url_patterns::UrlPatternId> = kept_threads
        .iter()
        .map(|vertex| sitemap.vertices[*vertex].url_pattern)
        .collect();
    let lists: Vec<&crate::sitemap::Vertex> = sitemap
        .vertices
        .iter()
        .filter(|vertex| {
            vertex.role == Role::ThreadList && verdicts[vertex.id] == VertexVerdict::Kept
        })
        .filter(|vertex| {
            // Where an entry leads is read from the arc that holds its link: an arc's sampled
            // targets say which vertex its URLs belong to, while a URL pattern can be shared by
            // a crawled thread vertex and a copy of it in another layout. Measured on the
            // simulator's SMF seed 1 at medium scale: the WAP2 board view lists every thread
            // of a board on one page under the `?topic=N.0;wap2` pattern, which a small
            // sampled layout of real threads also had, so the pattern test took the view for a
            // list of crawled threads, the real boards (a twentieth of its entries per page)
            // for secondary lists, and the crawl reached 3.9 % of the forum.
            let mut leads_to_thread: HashMap<&str, bool> = HashMap::new();
            for arc in sitemap.arcs_from(vertex.id) {
                let into_thread = match arc.main_target() {
                    Some(target) => kept_threads.contains(&target),
                    None => thread_patterns.contains(&arc.key.url_pattern),
                };
                for url in &arc.target_urls {
                    *leads_to_thread.entry(url.as_str()).or_insert(false) |= into_thread;
                }
            }
            let (mut into_threads, mut entries) = (0usize, 0usize);
            for page in &vertex.pages {
                for url in &sitemap.pages[*page].thread_entry_urls {
                    entries += 1;
                    let into_thread = match leads_to_thread.get(url.as_str()) {
                        Some(into_thread) => *into_thread,
                        None => sitemap
                            .url_patterns
                            .classify(url)
                            .is_some_and(|pattern| thread_patterns.contains(&pattern)),
                    };
                    if into_thread {
                        into_threads += 1;
                    }
                }
            }
            2 * into_threads > entries
        })
        .collect();
    let fullest = lists
        .iter()
        .map(|vertex| vertex.mean_entries)
        .fold(0.0, f64::max);
    // A list whose entries mostly appear in a better-linked list is a view of it ("what's new",
    // "latest posts", a search): the site's own lists are the boards everything else draws from.
    let entries_of = |vertex: &crate::sitemap::Vertex| -> BTreeSet<&str> {
        vertex
            .pages
            .iter()
            .flat_map(|page| sitemap.pages[*page].thread_entry_urls.iter())
            .map(url::Url::as_str)
            .collect()
    };
    let entries: HashMap<usize, BTreeSet<&str>> = lists
        .iter()
        .map(|vertex| (vertex.id, entries_of(vertex)))
        .collect();
    // A list's later pages are as full as its first ones, though its last page may hold a
    // handful of entries: when a list's only sampled later page is its last (a young forum, one
    // board with a second page), the vertex of those later pages lists far fewer entries than
    // the boards' first pages, and was taken for a secondary list, never crawled. Before, the
    // simulator's NodeBB family crawled at day 10 of its history lost the later pages of its
    // one long board so. A vertex page-flipping links join to a full list counts as full.
    let full_enough =
        |vertex: &crate::sitemap::Vertex| vertex.mean_entries >= PRIMARY_LIST_SHARE * fullest;
    let full_lists: Vec<&&crate::sitemap::Vertex> = lists
        .iter()
        .filter(|vertex| {
            full_enough(vertex)
                || lists
                    .iter()
                    .any(|other| full_enough(other) && same_lists.contains(&(vertex.id, other.id)))
        })
        .collect();
    // "Better" is the list that lists more distinct threads in the sample, then the higher rank.
    // Rank alone was tried first: it counts the kinds of page linking to a list, and a "what's
    // new" page linked from the navigation bar of every page outranks the boards, so on the
    // simulator's XenForo seed 1 with 500 samples the boards' own entries looked like a view of
    // it, and the calendar that linked it was kept as the route to this "goal" (an endless
    // trap: 19,694 calendar fetches). A board lists every thread of the forum over its pages; a
    // view lists the latest few.
    let better = |other: usize, vertex: usize| -> bool {
        (entries[&other].len(), ranks[other]) > (entries[&vertex].len(), ranks[vertex])
    };
    let named_by_threads = boards_named_by_threads(sitemap, &kept_threads, &full_lists);
    full_lists
        .iter()
        .filter(|vertex| {
            // A board's later pages are as much the board as its first page, which is the one
            // threads name.
            if named_by_threads.contains(&vertex.id)
                || named_by_threads
                    .iter()
                    .any(|named| same_lists.contains(&(vertex.id, *named)))
            {
                return true;
            }
            if pages_on(sitemap, vertex.id, &same_lists) {
                return true;
            }
            let own = &entries[&vertex.id];
            let listed_elsewhere: BTreeSet<&str> = full_lists
                .iter()
                .filter(|other| {
                    other.id != vertex.id
                        && !same_lists.contains(&(vertex.id, other.id))
                        && better(other.id, vertex.id)
                })
                .flat_map(|other| entries[&other.id].iter().copied())
                .collect();
            let shared = own.intersection(&listed_elsewhere).count();
            own.is_empty() || (shared as f64) < SECONDARY_LIST_SHARE * own.len() as f64
        })
        .map(|vertex| vertex.id)
        .collect()
}

/// Adds to `primary` the later pages of its lists: the crawled vertices of a primary list's
/// layout that its page-flipping links lead to, whatever role their own sampled pages gave
/// them. A board's second page lists threads as its first page does, in the same regions, so
/// what the plan follows there it follows on the later pages too.
///
/// The role is read page by page, and a list's later pages can be misread where its first
/// pages are not: a list's last page may hold a single row, which shows no repetition and so
/// no entries, and when that page was one of the two sampled later pages of a mail archive's
/// thread index, the vertex of those pages was no thread list (the simulator's mail archive
/// seed 3 from 60 samples). The plan then judged that their thread links led nowhere, skipped
/// the index's pager, and never crawled the threads listed past the first page (77 %
/// coverage).
pub(super) fn add_later_pages_of_primary_lists(
    sitemap: &Sitemap,
    verdicts: &[VertexVerdict],
    flipping: &[bool],
    primary: &mut HashSet<usize>,
) {
    let portal = sitemap.portal_vertex();
    let later_pages: Vec<usize> = sitemap
        .arcs
        .iter()
        .zip(flipping)
        .filter(|(arc, is_flipping)| **is_flipping && primary.contains(&arc.key.source))
        .filter_map(|(arc, _)| {
            let target = arc.main_target()?;
            let data = &sitemap.vertices[target];
            (target != portal
                && data.layout == sitemap.vertices[arc.key.source].layout
                && data.role != Role::Thread
                && verdicts[target] == VertexVerdict::Kept)
                .then_some(target)
        })
        .collect();
    primary.extend(later_pages);
}

/// Whether the list of `vertex` pages on through pages of its own: its sampled pages, with
/// those of the vertices its page-flipping links join, show more threads than any one of them.
/// Such a list shows every thread of its kind over its pages, as a board does, however many of
/// them other lists show too: a question-and-answer site's list of every question beside its
/// per-tag lists (the sampled tag pages, more of them, held most of its sampled entries, so it
/// was taken for a view of them and never crawled: 18 of the simulator's qa seed 1's board
/// pages). A view of the latest threads ("what's new", an endless search) shows the same few
/// on every page, and one sampled page says nothing either way: taking an endless search
/// sampled once for a list that pages on made the qa seed 2 crawl from 100 samples fetch
/// 19,717 search pages.
fn pages_on(sitemap: &Sitemap, vertex: usize, same_lists: &HashSet<(usize, usize)>) -> bool {
    let group = same_lists
        .iter()
        .filter(|(list, _)| *list == vertex)
        .map(|(_, other)| *other)
        .chain([vertex])
        .collect::<BTreeSet<usize>>();
    let pages: BTreeSet<usize> = group
        .iter()
        .flat_map(|member| sitemap.vertices[*member].pages.iter().copied())
        .collect();
    if pages.len() < 2 {
        return false;
    }
    let most_on_one_page = pages
        .iter()
        .map(|page| sitemap.pages[*page].thread_entry_urls.len())
        .max()
        .unwrap_or(0);
    let shown: BTreeSet<&str> = pages
        .iter()
        .flat_map(|page| sitemap.pages[*page].thread_entry_urls.iter())
        .map(url::Url::as_str)
        .collect();
    most_on_one_page > 0 && shown.len() > most_on_one_page
}

/// Thread-list vertices left out as another spelling of their layout's representative that
/// sampled threads name as their own board: they are boards, and get their verdict back.
/// Question-and-answer sites lay out their per-tag lists like the one list of every question,
/// which outranks them (every page links it); keeping only that list reached every thread but
/// never a tag list (the boards of such a site: 19 of the simulator's qa seed 1's board pages,
/// 4.5 % of its valuable pages, and on a real engine the cause of threads reached only through
/// five pages of the global list).
pub(super) fn boards_left_as_spellings(sitemap: &Sitemap, verdicts: &mut [VertexVerdict]) {
    let kept_threads: HashSet<usize> = sitemap
        .vertices
        .iter()
        .filter(|vertex| vertex.role == Role::Thread && verdicts[vertex.id] == VertexVerdict::Kept)
        .map(|vertex| vertex.id)
        .collect();
    let spellings: Vec<&crate::sitemap::Vertex> = sitemap
        .vertices
        .iter()
        .filter(|vertex| {
            vertex.role == Role::ThreadList
                && verdicts[vertex.id] == VertexVerdict::NotRepresentative
        })
        .collect();
    let spellings: Vec<&&crate::sitemap::Vertex> = spellings.iter().collect();
    for board in boards_named_by_threads(sitemap, &kept_threads, &spellings) {
        verdicts[board] = VertexVerdict::Kept;
    }
}

/// The lists among `lists` that threads name as theirs: most sampled thread pages linking to
/// the list's URL pattern link one or two of its URLs (the board holding the thread, and its
/// parent board), and together they name several. A forum whose portal lists every topic with
/// paging (django-spirit's "latest topics") lists every thread its categories list, so the
/// categories look like views of the portal and were never crawled (14 of Spirit's 232 board
/// and thread pages at seed 7); but a view such as "what's new" is one URL that every page
/// links, while a board is the one list a thread's breadcrumb names. A thread linking many URLs
/// of a list pattern (a forum menu naming every board, a search link per post author) names
/// none of them as its own.
fn boards_named_by_threads(
    sitemap: &Sitemap,
    kept_threads: &HashSet<usize>,
    lists: &[&&crate::sitemap::Vertex],
) -> HashSet<usize> {
    // Each thread page's links are classified once, grouped by the list patterns they match;
    // every list then reads its own pattern's groups.
    let list_patterns: HashSet<crate::url_patterns::UrlPatternId> =
        lists.iter().map(|list| list.url_pattern).collect();
    let linked_by_page: Vec<HashMap<crate::url_patterns::UrlPatternId, HashSet<&str>>> =
        kept_threads
            .iter()
            .flat_map(|thread| sitemap.vertices[*thread].pages.iter())
            .map(|page| {
                let mut linked: HashMap<_, HashSet<&str>> = HashMap::new();
                for link in &sitemap.pages[*page].links {
                    if let Some(pattern) = sitemap.url_patterns.classify(&link.url)
                        && list_patterns.contains(&pattern)
                    {
                        linked.entry(pattern).or_default().insert(link.url.as_str());
                    }
                }
                linked
            })
            .collect();
    let mut named = HashSet::new();
    for list in lists {
        let mut naming_pages = 0usize;
        let mut naming_own_board = 0usize;
        let mut all_named: HashSet<&str> = HashSet::new();
        for linked in linked_by_page
            .iter()
            .filter_map(|linked| linked.get(&list.url_pattern))
        {
            naming_pages += 1;
            if linked.len() <= MOST_BOARDS_NAMED_BY_A_THREAD {
                naming_own_board += 1;
            }
            all_named.extend(linked.iter().copied());
        }
        if naming_pages >= FEWEST_THREAD_PAGES_NAMING_BOARDS
            && naming_own_board as f64 >= BOARD_NAMING_SHARE * naming_pages as f64
            && all_named.len() >= 2
        {
            named.insert(list.id);
        }
    }
    named
}

/// A thread's breadcrumb names its board and, for a sub-board, the parent board.
const MOST_BOARDS_NAMED_BY_A_THREAD: usize = 2;

/// Sampled thread pages that must link a list pattern before what they link says anything.
const FEWEST_THREAD_PAGES_NAMING_BOARDS: usize = 5;

/// Share of those pages that must name one or two of the pattern's lists.
const BOARD_NAMING_SHARE: f64 = 0.8;
