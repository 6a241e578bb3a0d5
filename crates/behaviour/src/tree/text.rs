//! A node's pattern as text.

use std::collections::{BTreeMap, BTreeSet};

use super::ValueSet;
use crate::frequencies::UrlId;
use crate::url_parts::{DecomposedUrl, Key, is_number, segment_separators};

/// A node's pattern as text: its URLs' path segments and query keys, each as the value set
/// an ancestor fixed or, for a key no ancestor split, as the URLs show it (one value: the
/// value; several: `{n}` for numbers, `{*}` otherwise). A key some URLs lack is bracketed. A
/// segment split into runs reads as its runs, each shown the same way, between the separators
/// its values share (`thread-{n}-{n}-1.html`), when they share them.
pub(super) fn pattern_text(
    urls: &[UrlId],
    fixed: &BTreeMap<Key, Option<ValueSet>>,
    decomposed: &[DecomposedUrl],
) -> String {
    if urls.is_empty() {
        return "/".to_string();
    }
    let keys: BTreeSet<Key> = urls
        .iter()
        .flat_map(|&url| decomposed[url as usize].keys())
        .collect();
    let mut path = String::new();
    let mut query: Vec<String> = Vec::new();
    for key in &keys {
        let shown = match key {
            // Runs are shown inside their segment.
            Key::Run { .. } => continue,
            Key::Segment(position) => segment_by_runs(*position, urls, fixed, decomposed)
                .or_else(|| shown_value(key, urls, fixed, decomposed)),
            Key::Query(_) => shown_value(key, urls, fixed, decomposed),
        };
        let Some(shown) = shown else { continue };
        let optional = urls
            .iter()
            .any(|&url| decomposed[url as usize].value(key).is_none());
        match key {
            Key::Segment(_) | Key::Run { .. } if optional => {
                path.push_str(&format!("[/{shown}]"));
            }
            Key::Segment(_) | Key::Run { .. } => path.push_str(&format!("/{shown}")),
            Key::Query(name) if optional => query.push(format!("[{name}={shown}]")),
            Key::Query(name) => query.push(format!("{name}={shown}")),
        }
    }
    if path.is_empty() {
        path.push('/');
    }
    if query.is_empty() {
        path
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

/// How one key's values read: the value set an ancestor fixed, else what the URLs show.
fn shown_value(
    key: &Key,
    urls: &[UrlId],
    fixed: &BTreeMap<Key, Option<ValueSet>>,
    decomposed: &[DecomposedUrl],
) -> Option<String> {
    let present: BTreeSet<&str> = urls
        .iter()
        .filter_map(|&url| decomposed[url as usize].value(key))
        .collect();
    match fixed.get(key) {
        Some(Some(set)) => set.render_present(&present),
        _ => match present.len() {
            0 => None,
            1 => present.first().map(|value| value.to_string()),
            _ if present.iter().all(|value| is_number(value)) => Some("{n}".to_string()),
            _ => Some("{*}".to_string()),
        },
    }
}

/// A segment split into runs, read run by run between the separators every value of the node
/// shares; `None` when the position is not split or its values are not made alike.
fn segment_by_runs(
    position: u32,
    urls: &[UrlId],
    fixed: &BTreeMap<Key, Option<ValueSet>>,
    decomposed: &[DecomposedUrl],
) -> Option<String> {
    let mut separators: Option<Vec<&str>> = None;
    for &url in urls {
        let url = &decomposed[url as usize];
        if !url.runs.iter().any(|(split, _)| *split == position) {
            continue;
        }
        let Some(segment) = url.segments.get(position as usize) else {
            continue;
        };
        let these = segment_separators(segment);
        match &separators {
            None => separators = Some(these),
            Some(shared) if *shared == these => {}
            Some(_) => return None,
        }
    }
    let separators = separators?;
    let mut text = String::new();
    for (run, separator) in separators.iter().enumerate() {
        text.push_str(separator);
        if run + 1 < separators.len() {
            let key = Key::Run {
                segment: position,
                run: run as u32,
            };
            text.push_str(&shown_value(&key, urls, fixed, decomposed)?);
        }
    }
    Some(text)
}
