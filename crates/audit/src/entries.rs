//! Threads the boards list: each entry's link and title, and the counts boards show.

/// A thread a board lists, with the smallest counts its boards show.
#[derive(Debug)]
pub(crate) struct ListedThread<'a> {
    pub(crate) url: &'a str,
    pub(crate) title: &'a str,
    pub(crate) board: &'a str,
    pub(crate) replies: Option<u64>,
    pub(crate) last_reply: Option<&'a str>,
}

/// What kind of link a URL is, coarsely: its path's depth, its first path segment with digits
/// set aside, and its query's parameter names. A thread's link and a link to one of its posts
/// differ in it (`/t/slug/251` and `/t/slug/251/6`, `thread-13-1-1.html` and
/// `forum.php?mod=redirect&goto=findpost`); two threads' links do not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct UrlKind<'a> {
    depth: usize,
    first_segment: String,
    query_names: Vec<&'a str>,
}

impl<'a> UrlKind<'a> {
    pub(crate) fn of(url: &'a str) -> UrlKind<'a> {
        let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
        let (path, query) = after_scheme.split_once('?').unwrap_or((after_scheme, ""));
        let segments: Vec<&str> = path.split('/').skip(1).filter(|s| !s.is_empty()).collect();
        let mut query_names: Vec<&str> = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| pair.split('=').next().unwrap_or(pair))
            .collect();
        query_names.sort_unstable();
        query_names.dedup();
        UrlKind {
            depth: segments.len(),
            first_segment: segments
                .first()
                .map(|segment| digits_set_aside(segment))
                .unwrap_or_default(),
            query_names,
        }
    }
}

/// `text` with each run of digits written as one `0`.
fn digits_set_aside(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        if character.is_ascii_digit() {
            if !out.ends_with('0') {
                out.push('0');
            }
        } else {
            out.push(character);
        }
    }
    out
}
