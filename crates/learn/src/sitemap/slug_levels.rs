//! Levels of a URL hierarchy named by slugs alone: `/c/<category>/<board>/<thread>/`.
//!
//! URL pattern learning decides each position from the URLs alone, and a position holding a
//! few words with no id beside them (five board slugs, two category slugs) reads as a
//! vocabulary of page kinds, like `action=login`: every board became a pattern of its own, and
//! every board's threads another (120 vertices from 324 pages on one such forum; boards the
//! sample missed were patterns the plan had never seen, so the crawl reached 3 of 11). Page
//! kinds differ in layout, though, while the boards of a forum are laid out alike. So, once
//! layouts are known, patterns that differ in one literal path segment, whose sampled pages
//! share one layout, and where that segment is a level of the hierarchy (URLs continue below
//! it) are one pattern with that segment free. Patterns never sampled that fit exactly one such
//! group join it, since they are the same kind of URL under a slug the sample did not meet.
//! Repeated until nothing changes, so categories fold after the boards under them.
//!
//! A sampled pattern that forms no group of its own layout (its pages split between layouts, or
//! mostly in a layout no other pattern of its shape has) joins a group of its shape when a
//! quarter or more of its pages are laid out like that group: a forum showing one message a
//! page lays out a message with replies listed under it apart from one without, and a list
//! whose messages fell mostly in the second kept a pattern of its own, which the plan then left
//! uncrawled. A pattern whose pages split so that no layout holds most of them stands in the
//! group of every layout holding a quarter of them, and a literal pattern laid out like some
//! pages of an already folded kin (`/archives/{*}/...` beside `/archives/hardware/...`) joins it.
//!
//! A segment that ends every URL it appears in (`/latest`, `/top`, `/login.php`) is left
//! alone: those are page kinds, even when their pages look alike. So is the first segment,
//! and any segment not under a literal one: sections of a site (`/t/`, `/u/`, `/msg/`) are
//! page kinds whose pages may look alike (a member's page listing their posts, a thread),
//! while a hierarchy of slugs hangs below a section of its own (`/c/`, `/forum/`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::summary::PageSummary;
use crate::url_patterns::{UrlPattern, UrlPatternId, UrlPatternSet};

/// Share of a pattern's sampled pages that must fall in one layout for it to have a layout.
const LAYOUT_AGREEMENT: f64 = 0.6;

/// A pattern text cut into its path segments, whether the path ends with a slash, and its
/// query (with the `?`), to put back together with one segment replaced.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Shape {
    segments: Vec<String>,
    trailing_slash: bool,
    query: String,
}

impl Shape {
    fn of(text: &str) -> Shape {
        let (path, query) = match text.find('?') {
            Some(start) => (&text[..start], &text[start..]),
            None => (text, ""),
        };
        let trailing_slash = path.len() > 1 && path.ends_with('/');
        let segments = path
            .trim_start_matches('/')
            .trim_end_matches('/')
            .split('/')
            .filter(|segment| !segment.is_empty())
            .map(str::to_string)
            .collect();
        Shape {
            segments,
            trailing_slash,
            query: query.to_string(),
        }
    }

    fn text(&self) -> String {
        let mut text = format!("/{}", self.segments.join("/"));
        if self.trailing_slash && !self.segments.is_empty() {
            text.push('/');
        }
        text.push_str(&self.query);
        text
    }

    /// The shape with segment `position` blanked, the key of the group it may fold into.
    fn without(&self, position: usize) -> Shape {
        let mut key = self.clone();
        key.segments[position] = String::new();
        key
    }

    fn is_literal(&self, position: usize) -> bool {
        let segment = &self.segments[position];
        !segment.is_empty() && !segment.contains('{') && !segment.contains('}')
    }

    /// Whether segment `position` may be a level of slugs: literal, not the first, and
    /// below a literal segment or a level already folded.
    fn may_fold(&self, position: usize) -> bool {
        position >= 1
            && self.segments.len() > position
            && self.is_literal(position)
            && (self.is_literal(position - 1) || self.segments[position - 1] == "{*}")
    }
}

/// The pattern set with hierarchy levels named by slugs made free, or `None` when no level
/// folds. `layout_of_page` gives each sampled page's layout cluster.
pub(super) fn fold_slug_levels(
    patterns: &UrlPatternSet,
    pages: &[PageSummary],
    layout_of_page: &[usize],
) -> Option<UrlPatternSet> {
    // The layout most of each pattern's sampled pages have. A redirect or an error answer is
    // not laid out as the pattern's pages are (it is the login page, or an empty answer), so
    // it says nothing of the pattern's layout: a board's "Start a thread" button spelled like
    // its threads (`/c/CAT/BOARD/new/`) answered with a login redirect, and when the sample
    // held no thread of that board the button's page alone made the board's thread pattern
    // one of the redirects' layout; it never folded with its kin, and the board's threads,
    // classified under it, were never crawled (the simulator's slugtree seed 3 from 60
    // samples: 41.7 % coverage).
    let mut layouts_of_text: HashMap<String, BTreeMap<usize, usize>> = HashMap::new();
    for (page, layout) in pages.iter().zip(layout_of_page) {
        if page.redirect.is_some() || page.status >= 400 {
            continue;
        }
        if let Some(pattern) = patterns.classify(&page.url).and_then(|id| patterns.get(id)) {
            *layouts_of_text
                .entry(pattern.text().to_string())
                .or_default()
                .entry(*layout)
                .or_default() += 1;
        }
    }
    let mut layout_of_text: HashMap<String, usize> = HashMap::new();
    for (text, counts) in &layouts_of_text {
        let total: usize = counts.values().sum();
        if let Some((layout, count)) = counts.iter().max_by_key(|(_, count)| **count)
            && *count as f64 >= LAYOUT_AGREEMENT * total as f64
        {
            layout_of_text.insert(text.clone(), *layout);
        }
    }
    let mut shapes: BTreeSet<Shape> = patterns
        .patterns()
        .iter()
        .map(|pattern| Shape::of(pattern.text()))
        .collect();
    let mut layout_of_shape: HashMap<Shape, usize> = layout_of_text
        .into_iter()
        .map(|(text, layout)| (Shape::of(&text), layout))
        .collect();
    let mut sampled_layouts_of_shape: HashMap<Shape, BTreeMap<usize, usize>> = layouts_of_text
        .into_iter()
        .map(|(text, counts)| (Shape::of(&text), counts))
        .collect();
    let mut folded_any = false;
    loop {
        let widened = widen_lone_branches(&shapes, &layout_of_shape, &sampled_layouts_of_shape);
        if !widened.is_empty() {
            folded_any = true;
            for (old, (new, layout)) in &widened {
                layout_of_shape.remove(old);
                layout_of_shape.insert(new.clone(), *layout);
            }
            let widened: HashMap<Shape, Shape> = widened
                .into_iter()
                .map(|(old, (new, _))| (old, new))
                .collect();
            shapes = shapes
                .into_iter()
                .map(|shape| widened.get(&shape).cloned().unwrap_or(shape))
                .collect();
        }
        let mut replaced: HashMap<Shape, Shape> = HashMap::new();
        let deepest = shapes.iter().map(|shape| shape.segments.len()).max();
        for position in 0..deepest.unwrap_or(0) {
            join_folded_kin(&shapes, &sampled_layouts_of_shape, position, &mut replaced);
            // Groups of sampled shapes, by everything but this segment and by layout.
            let mut groups: BTreeMap<(Shape, usize), BTreeSet<String>> = BTreeMap::new();
            for shape in &shapes {
                if !shape.may_fold(position)
                    || replaced.contains_key(shape)
                    || !is_level(&shapes, shape, position)
                {
                    continue;
                }
                for layout in grouping_layouts(shape, &layout_of_shape, &sampled_layouts_of_shape) {
                    groups
                        .entry((shape.without(position), layout))
                        .or_default()
                        .insert(shape.segments[position].clone());
                }
            }
            groups.retain(|_, values| values.len() >= 2);
            if groups.is_empty() {
                continue;
            }
            let mut layouts_of_key: HashMap<&Shape, Vec<usize>> = HashMap::new();
            for (key, layout) in groups.keys() {
                layouts_of_key.entry(key).or_default().push(*layout);
            }
            for shape in &shapes {
                if !shape.may_fold(position) || replaced.contains_key(shape) {
                    continue;
                }
                let key = shape.without(position);
                let own_layout = layout_of_shape.get(shape).copied();
                let in_a_group =
                    own_layout.is_some_and(|own| groups.contains_key(&(key.clone(), own)));
                let layout = match (own_layout, sampled_layouts_of_shape.get(shape)) {
                    (Some(own), _) if in_a_group => own,
                    // Sampled, but laid out apart from every group of its shape, or with its
                    // pages split between layouts: where a thread page holds one message, a
                    // page listing the replies to it has a repetitive region and one answered
                    // by none has not, so one list's messages can fall mostly in the other
                    // layout, or in both about evenly. It joins the group of its shape that a
                    // quarter or more of its pages are laid out like, the largest share first.
                    (_, Some(counts)) => {
                        let total: usize = counts.values().sum();
                        let joined = layouts_of_key.get(&key).and_then(|layouts| {
                            layouts
                                .iter()
                                .map(|layout| (counts.get(layout).copied().unwrap_or(0), *layout))
                                .filter(|(count, _)| *count > 0 && count * 4 >= total)
                                .max()
                        });
                        match joined {
                            Some((_, layout)) if is_level(&shapes, shape, position) => layout,
                            _ => continue,
                        }
                    }
                    (Some(own), None) => own,
                    // Never sampled: it joins the one group of its shape, if there is one.
                    (None, None) => match layouts_of_key.get(&key).map(Vec::as_slice) {
                        Some([layout]) if is_level(&shapes, shape, position) => *layout,
                        _ => continue,
                    },
                };
                if groups.contains_key(&(key.clone(), layout)) {
                    let mut free = shape.clone();
                    free.segments[position] = "{*}".to_string();
                    replaced.insert(shape.clone(), free);
                }
            }
        }
        if replaced.is_empty() {
            break;
        }
        folded_any = true;
        for (old, new) in &replaced {
            if let Some(layout) = layout_of_shape.remove(old) {
                layout_of_shape.insert(new.clone(), layout);
            }
            // The folded shape's pages are those of every shape folded into it.
            if let Some(counts) = sampled_layouts_of_shape.get(old).cloned() {
                let merged = sampled_layouts_of_shape.entry(new.clone()).or_default();
                for (layout, count) in counts {
                    *merged.entry(layout).or_default() += count;
                }
            }
        }
        shapes = shapes
            .into_iter()
            .map(|shape| replaced.get(&shape).cloned().unwrap_or(shape))
            .collect();
    }
    folded_any |= fold_names_in_query_values(&mut shapes, &mut layout_of_shape);
    if !folded_any {
        return None;
    }
    let texts: BTreeSet<String> = shapes.iter().map(Shape::text).collect();
    let parsed: Vec<UrlPattern> = texts
        .iter()
        .enumerate()
        .filter_map(|(index, text)| UrlPattern::parse(UrlPatternId(index as u32), text).ok())
        .collect();
    let set = UrlPatternSet::from_patterns(parsed);
    Some(match patterns.site_host() {
        Some(host) => set.with_site_host(host),
        None => set,
    })
}

/// Shapes literal at `position` whose shape with that segment free is already a folded pattern
/// (in `shapes`), added to `replaced` with it: one never sampled, as the same kind of URL under
/// a name the sample did not meet, and one sampled when a quarter or more of its pages are laid
/// out like pages of the folded pattern. A group needs two names of one layout, and a list the
/// sample met only through messages without follow-ups, all laid out apart, formed none, though
/// the other lists' messages folded and some of theirs were laid out so too: the list kept a
/// literal pattern, more specific than the folded one and never crawled (the simulator's mail
/// archive seed 2 with 100 samples: 118 messages of one list missed, 96.2 % coverage).
fn join_folded_kin(
    shapes: &BTreeSet<Shape>,
    sampled_layouts_of_shape: &HashMap<Shape, BTreeMap<usize, usize>>,
    position: usize,
    replaced: &mut HashMap<Shape, Shape>,
) {
    for shape in shapes {
        if !shape.may_fold(position) || replaced.contains_key(shape) {
            continue;
        }
        let mut free = shape.clone();
        free.segments[position] = "{*}".to_string();
        if !shapes.contains(&free) || !is_level(shapes, shape, position) {
            continue;
        }
        let laid_out_alike = match sampled_layouts_of_shape.get(shape) {
            None => true,
            Some(counts) => {
                let total: usize = counts.values().sum();
                let folded = sampled_layouts_of_shape.get(&free);
                counts.iter().any(|(layout, count)| {
                    count * 4 >= total
                        && folded.is_some_and(|folded| folded.get(layout).is_some_and(|n| *n > 0))
                })
            }
        };
        if laid_out_alike {
            replaced.insert(shape.clone(), free);
        }
    }
}

/// The layouts a shape stands in a group of: its own, when most of its sampled pages share one
/// ([`LAYOUT_AGREEMENT`]), else every layout holding a quarter or more of them. Where a thread
/// page holds one message, a message with replies listed under it is laid out apart from one
/// with none, and a list's messages in a sample of a hundred pages often split about evenly
/// between the two: every list's pattern had its pages split, no two of them had a layout, no
/// group formed, and each list kept a literal pattern of its own, of which the plan crawled
/// those the sample had reached (the simulator's mail archive seed 3 with 100 samples: two
/// lists of five never crawled, 78.1 % coverage). A split pattern is still one kind of page in
/// each of its layouts, so it stands beside its kin in both; the fold it joins is decided by
/// the group, as for any pattern.
fn grouping_layouts(
    shape: &Shape,
    layout_of_shape: &HashMap<Shape, usize>,
    sampled_layouts_of_shape: &HashMap<Shape, BTreeMap<usize, usize>>,
) -> Vec<usize> {
    if let Some(layout) = layout_of_shape.get(shape) {
        return vec![*layout];
    }
    let Some(counts) = sampled_layouts_of_shape.get(shape) else {
        return Vec::new();
    };
    let total: usize = counts.values().sum();
    counts
        .iter()
        .filter(|(_, count)| **count * 4 >= total)
        .map(|(layout, _)| *layout)
        .collect()
}

/// The same folding for names in query values: old CGI engines name a board by a word in its
/// query (`?board=hardware`, later pages `?board=hardware/20`), which URL learning reads as a
/// vocabulary of page kinds (`?action=login`) since no id comes with it. Every board became a
/// pattern and a vertex of its own, one layout kept one of them, and the crawl followed a
/// single board from the portal (the simulator's YaBB seed 2 with 100 samples: 16.8 %
/// coverage). Patterns that differ only in the name a query value begins with, and whose
/// sampled pages share one layout, are one pattern with that name free (`board={*}`,
/// `board={*}/{n}`); page kinds differ in layout (`action=login`, `action=ml`). Unsampled
/// patterns that fit exactly one such group join it. Returns whether anything folded.
fn fold_names_in_query_values(
    shapes: &mut BTreeSet<Shape>,
    layout_of_shape: &mut HashMap<Shape, usize>,
) -> bool {
    // Per shape and pair position: the shape with that value's leading name made free, when
    // the value begins with a name (letters, `_` or `-`).
    let named_pairs = |shape: &Shape| -> Vec<(usize, Shape)> {
        let pairs: Vec<&str> = shape.query.trim_start_matches('?').split('&').collect();
        pairs
            .iter()
            .enumerate()
            .filter_map(|(position, pair)| {
                let (key, value) = pair.split_once('=')?;
                let free = value_with_free_name(value)?;
                let mut folded = pairs.clone();
                let replaced = format!("{key}={free}");
                folded[position] = &replaced;
                let query = format!("?{}", folded.join("&"));
                Some((
                    position,
                    Shape {
                        query,
                        ..shape.clone()
                    },
                ))
            })
            .collect()
    };
    let mut groups: BTreeMap<(Shape, usize), BTreeSet<String>> = BTreeMap::new();
    for shape in shapes.iter().filter(|shape| !shape.query.is_empty()) {
        let Some(layout) = layout_of_shape.get(shape) else {
            continue;
        };
        for (_, folded) in named_pairs(shape) {
            groups
                .entry((folded, *layout))
                .or_default()
                .insert(shape.query.clone());
        }
    }
    groups.retain(|_, queries| queries.len() >= 2);
    if groups.is_empty() {
        return false;
    }
    let mut layouts_of_folded: HashMap<&Shape, Vec<usize>> = HashMap::new();
    for (folded, layout) in groups.keys() {
        layouts_of_folded.entry(folded).or_default().push(*layout);
    }
    let mut replaced: HashMap<Shape, Shape> = HashMap::new();
    for shape in shapes.iter().filter(|shape| !shape.query.is_empty()) {
        for (_, folded) in named_pairs(shape) {
            let layout = match layout_of_shape.get(shape) {
                Some(layout) => *layout,
                None => match layouts_of_folded.get(&folded).map(Vec::as_slice) {
                    Some([layout]) => *layout,
                    _ => continue,
                },
            };
            if groups.contains_key(&(folded.clone(), layout)) {
                replaced.insert(shape.clone(), folded);
                break;
            }
        }
    }
    if replaced.is_empty() {
        return false;
    }
    for (old, new) in &replaced {
        if let Some(layout) = layout_of_shape.remove(old) {
            layout_of_shape.insert(new.clone(), layout);
        }
    }
    *shapes = std::mem::take(shapes)
        .into_iter()
        .map(|shape| replaced.get(&shape).cloned().unwrap_or(shape))
        .collect();
    true
}

/// A query value with the name it begins with made free (`hardware` → `{*}`, `hardware/{n}` →
/// `{*}/{n}`), or `None` when it begins with no name of two letters or more.
fn value_with_free_name(value: &str) -> Option<String> {
    let name_length = value
        .bytes()
        .take_while(|byte| byte.is_ascii_alphabetic() || matches!(byte, b'_' | b'-'))
        .count();
    let rest = &value[name_length..];
    if name_length < 2 || !(rest.is_empty() || rest.starts_with(['/', '.', ','])) {
        return None;
    }
    Some(format!("{{*}}{rest}"))
}

/// Whether segment `position` of `shape` is a level of the hierarchy: URLs go on below it,
/// in this pattern or in another one under the same path, or, when it ends the path, the same
/// path comes with more than one query (a list's later pages or other orders). Measured on the
/// simulator's question-and-answer family: tags are boards named by a last segment
/// (`/questions/tagged/<tag>/`, later pages `?sort=active&page=2`), each tag was a pattern and
/// a vertex of its own, all but one left out as copies of the all-questions list's layout, and
/// no tag list was crawled. A page kind that ends the path (`/members/list/`, `/search/`)
/// rarely comes in several queries with siblings of one layout beside it.
/// Shapes of a branch of the hierarchy the sample met one value of at a level below another
/// (`/c/technology/networking/`, the one board of its category), each widened to the folded
/// shape it differs from in that level and one level above (`/c/community/{*}/`), with that
/// shape's layout: with `/c/technology/{*}/` beside it, the level above folds as it would with
/// two boards of each category sampled. A level folds only where the sample holds two values
/// of it under one parent, so a category of one board kept its board's literal patterns,
/// which its layout's representative (the other categories' boards) did not stand for, and
/// the crawl never entered it. Measured on the simulator's slugtree seed 1 at 100 and 300
/// samples: one board of eleven and its 29 threads missed (91.3 % coverage).
///
/// A shape laid out like its kin widens, as does one never sampled (the later pages of the
/// branch's threads, met only as links) and one sampled in several layouts of which its kin's
/// holds a quarter or more (a thread's "Start a thread" link spelled like the threads). So do
/// the later pages of a folded pattern's pages, whose query the folded pattern lacks
/// (`/c/tech/software/{*}/?page={n}` beside `/c/{*}/{*}/{*}/`), however many levels apart:
/// each board's threads' later pages kept a pattern of their own, and those of boards the
/// sample held no later thread page of were never fetched (the simulator's slugtree seed 3
/// with 100 samples: 44 pages missed, 87.8 % coverage). So does a sampled shape laid out like
/// a folded kin that it differs from at the kin's free level and in one literal segment below
/// it, another kind of page of the same lists (`/archives/NAME/threads2.html`, a list's later
/// pages, beside `/archives/{*}/threads.html`).
fn widen_lone_branches(
    shapes: &BTreeSet<Shape>,
    layout_of_shape: &HashMap<Shape, usize>,
    sampled_layouts_of_shape: &HashMap<Shape, BTreeMap<usize, usize>>,
) -> HashMap<Shape, (Shape, usize)> {
    let laid_out_alike = |shape: &Shape, layout: usize| match (
        layout_of_shape.get(shape),
        sampled_layouts_of_shape.get(shape),
    ) {
        (Some(own), _) => *own == layout,
        (None, Some(counts)) => {
            let total: usize = counts.values().sum();
            counts.get(&layout).is_some_and(|count| count * 4 >= total)
        }
        (None, None) => true,
    };
    let mut widened = HashMap::new();
    for shape in shapes {
        for other in shapes {
            let Some(layout) = layout_of_shape.get(other) else {
                continue;
            };
            if other == shape
                || other.segments.len() != shape.segments.len()
                || other.trailing_slash != shape.trailing_slash
                || (other.query != shape.query && !other.query.is_empty())
                || !laid_out_alike(shape, *layout)
            {
                continue;
            }
            let differing: Vec<usize> = (0..shape.segments.len())
                .filter(|position| shape.segments[*position] != other.segments[*position])
                .collect();
            // The later pages of a folded pattern's pages (`/c/a/b/{*}/?page={n}` beside
            // `/c/{*}/{*}/{*}/`) fold as their first pages did.
            if other.query.is_empty()
                && !shape.query.is_empty()
                && !differing.is_empty()
                && differing
                    .iter()
                    .all(|position| other.segments[*position] == "{*}" && shape.may_fold(*position))
            {
                let mut wide = shape.clone();
                wide.segments = other.segments.clone();
                widened.insert(shape.clone(), (wide, *layout));
                break;
            }
            let [level, free] = differing.as_slice() else {
                continue;
            };
            // Another kind of page of a folded level's lists, laid out like the folded kin and
            // named apart from it below that level (a word, or a word with a number, not a
            // free name): a list's later pages named by a number added to its first page's
            // file name (`/archives/NAME/threads2.html` beside `/archives/{*}/threads.html`).
            // With the later pages of one list sampled, that name formed no group of two,
            // every list's later pages kept a literal pattern, and those of the lists whose
            // later pages the sample missed were never crawled (the simulator's mail archive
            // seed 3 from 60 samples: 77 % coverage). It must have been sampled: a name never
            // sampled joins the widened pattern as folded kin.
            if other.query == shape.query
                && level < free
                && other.segments[*level] == "{*}"
                && shape.may_fold(*level)
                && shape.segments[*free] != "{*}"
                && other.segments[*free] != "{*}"
                && sampled_layouts_of_shape.contains_key(shape)
                && is_level(shapes, shape, *level)
            {
                let mut wide = shape.clone();
                wide.segments[*level] = "{*}".to_string();
                widened.insert(shape.clone(), (wide, *layout));
                break;
            }
            if other.query == shape.query
                && other.segments[*free] == "{*}"
                && shape.is_literal(*free)
                && shape.may_fold(*level)
                && other.may_fold(*level)
            {
                let mut wide = shape.clone();
                wide.segments[*free] = "{*}".to_string();
                widened.insert(shape.clone(), (wide, *layout));
                break;
            }
        }
    }
    widened
}

fn is_level(shapes: &BTreeSet<Shape>, shape: &Shape, position: usize) -> bool {
    let ends_path = shape.segments.len() == position + 1;
    shape.segments.len() > position + 1
        || shapes.iter().any(|other| {
            other.segments.len() > position + 1
                && other.segments[..=position] == shape.segments[..=position]
        })
        || (ends_path
            && shapes
                .iter()
                .filter(|other| other.segments == shape.segments)
                .map(|other| other.query.as_str())
                .collect::<BTreeSet<&str>>()
                .len()
                >= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_spell_their_text_back() {
        for text in [
            "/",
            "/c/general/boards/",
            "/c/general/boards/?page={n}",
            "/viewtopic.php?start={n}&t={n}",
            "/t/{*}/{n}",
        ] {
            assert_eq!(Shape::of(text).text(), text);
        }
    }

    /// `shapes` with the layout of their sampled pages (`None`: never sampled), and the
    /// shapes expected widened.
    #[track_caller]
    fn check_widened(shapes: &[(&str, Option<usize>)], expected: &[(&str, &str)]) {
        let layout_of_shape: HashMap<Shape, usize> = shapes
            .iter()
            .filter_map(|(text, layout)| Some((Shape::of(text), (*layout)?)))
            .collect();
        let sampled: HashMap<Shape, BTreeMap<usize, usize>> = layout_of_shape
            .iter()
            .map(|(shape, layout)| (shape.clone(), BTreeMap::from([(*layout, 3)])))
            .collect();
        let set: BTreeSet<Shape> = shapes.iter().map(|(text, _)| Shape::of(text)).collect();
        let mut widened: Vec<(String, String)> =
            widen_lone_branches(&set, &layout_of_shape, &sampled)
                .into_iter()
                .map(|(old, (new, _))| (old.text(), new.text()))
                .collect();
        widened.sort();
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(old, new)| (old.to_string(), new.to_string()))
            .collect();
        assert_eq!(widened, expected, "{shapes:?}");
    }

    #[test]
    fn lone_branches_of_a_hierarchy_widen_to_their_folded_kin() {
        // The one board of a category, beside another category's boards folded.
        check_widened(
            &[
                ("/c/community/{*}/", Some(1)),
                ("/c/technology/networking/", Some(1)),
            ],
            &[("/c/technology/networking/", "/c/technology/{*}/")],
        );
        // Its threads, beside the other category's threads, and their later pages, met only
        // as links.
        check_widened(
            &[
                ("/c/community/{*}/{*}/", Some(2)),
                ("/c/technology/networking/{*}/", Some(2)),
                ("/c/community/{*}/{*}/?page={n}", Some(2)),
                ("/c/technology/networking/{*}/?page={n}", None),
            ],
            &[
                ("/c/technology/networking/{*}/", "/c/technology/{*}/{*}/"),
                (
                    "/c/technology/networking/{*}/?page={n}",
                    "/c/technology/{*}/{*}/?page={n}",
                ),
            ],
        );
        // Laid out otherwise: another kind of page.
        check_widened(
            &[
                ("/c/community/{*}/", Some(1)),
                ("/c/technology/networking/", Some(3)),
            ],
            &[],
        );
        // The first segment is a section of the site, never a level.
        check_widened(&[("/c/{*}/", Some(1)), ("/u/alice/", Some(1))], &[]);
        // Later pages of threads, beside the folded threads.
        check_widened(
            &[
                ("/c/{*}/{*}/{*}/", Some(2)),
                ("/c/technology/software/{*}/?page={n}", Some(2)),
                ("/c/community/general/{*}/?page={n}", None),
            ],
            &[
                (
                    "/c/community/general/{*}/?page={n}",
                    "/c/{*}/{*}/{*}/?page={n}",
                ),
                (
                    "/c/technology/software/{*}/?page={n}",
                    "/c/{*}/{*}/{*}/?page={n}",
                ),
            ],
        );
        // Three segments apart, or a query of its own: no kin.
        check_widened(
            &[
                ("/c/community/{*}/x/", Some(1)),
                ("/c/technology/networking/y/", Some(1)),
            ],
            &[],
        );
        check_widened(
            &[
                ("/c/community/{*}/", Some(1)),
                ("/c/technology/networking/?page={n}", Some(1)),
            ],
            &[],
        );
    }

    #[test]
    fn names_in_query_values_are_made_free() {
        let cases = [
            ("hardware", Some("{*}")),
            ("hardware/{n}", Some("{*}/{n}")),
            ("general_discussion.{n}", Some("{*}.{n}")),
            ("{n}", None),
            ("a", None),
            ("v2", None),
        ];
        for (value, expected) in cases {
            assert_eq!(value_with_free_name(value).as_deref(), expected, "{value}");
        }
    }
}
