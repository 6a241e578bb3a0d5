//! Signals that tell a post's author apart from the other short texts of a record, independent
//! of where in the record's markup they sit.
//!
//! Author links were first grouped by their column (the tag path inside the record), but real
//! templates move the author link around from post to post: an avatar cell present only for
//! members with an avatar shifts the cells after it, and a moderator's name carries a colour
//! class that an ordinary member's lacks. The URL the link points to is steadier: every author
//! link of a page goes to the same kind of profile URL. So links are grouped by the shape of their
//! URL, and positions only break ties.

use crate::dom::{Document, NodeId};

/// Attributes with which engines name a record's author on the record element itself
/// (XenForo's `data-author`, others' `data-user`/`data-username`/`data-poster`).
const EXPLICIT_AUTHOR_ATTRIBUTES: [&str; 4] =
    ["data-author", "data-username", "data-user", "data-poster"];

/// A key shared by links of the same kind on one page: the first path segment (with digits
/// generalised), the number of path segments and the sorted query keys. Profile links of one
/// forum (`memberlist.php?mode=viewprofile&u=5`, `/members/alice.12/`, `/u/alice`) share it while
/// permalinks, share buttons and action links get keys of their own. The host is left out: one
/// page's links to itself are what is compared.
pub(super) fn link_kind(url: &str) -> u64 {
    let after_scheme = url.find("://").map_or(url, |at| &url[at + 3..]);
    let path_and_query = after_scheme.find('/').map_or("", |at| &after_scheme[at..]);
    let (path, query) = match path_and_query.split_once('?') {
        Some((path, query)) => (path, query),
        None => (path_and_query, ""),
    };
    // Hashed as it is read, without lowercased copies or a list of segments: this runs for
    // every link of every candidate author column.
    let mut hash = FNV_START;
    let mut segments = path.split('/').filter(|s| !s.is_empty());
    let first = segments.next();
    let segment_count = first.map_or(0, |_| 1 + segments.count());
    match first {
        Some(first) if first.bytes().any(|b| b.is_ascii_digit()) => hash = fnv(hash, b"*"),
        Some(first) => hash = fnv_lowercase(hash, first.as_bytes()),
        None => hash = fnv(hash, b"/"),
    }
    hash = fnv(hash, &[segment_count.min(255) as u8]);
    let mut keys: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').map_or(pair, |(key, _)| key))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    for key in keys {
        hash = fnv(hash, b"&");
        hash = fnv_lowercase(hash, key.as_bytes());
    }
    hash
}

/// Whether a group of links, one per record at most, behaves like a button rather than a name:
/// the same words in every record while every record's link goes somewhere else ("Teilen",
/// "Share", "#"), which no column of names does, since one member's name always leads to one
/// profile. Needs two records to tell.
pub(super) fn is_button_group(values: &[(&str, &str)]) -> bool {
    if values.len() < 2 {
        return false;
    }
    let first_text = values[0].0;
    if values.iter().any(|(text, _)| *text != first_text) {
        return false;
    }
    let mut urls: Vec<&str> = values.iter().map(|(_, url)| *url).collect();
    urls.sort_unstable();
    urls.dedup();
    urls.len() == values.len()
}

/// The author a record element names in one of its own attributes, if any.
pub(super) fn explicit_author(document: &Document, member: NodeId) -> Option<String> {
    EXPLICIT_AUTHOR_ATTRIBUTES.iter().find_map(|attribute| {
        document
            .attribute(member, attribute)
            .map(str::trim)
            .filter(|value| !value.is_empty() && value.chars().count() <= 40)
            .map(str::to_string)
    })
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    fnv_each(hash, bytes.iter().copied())
}

/// [`fnv`] of the ASCII-lowercased bytes, without making the lowercased copy.
fn fnv_lowercase(hash: u64, bytes: &[u8]) -> u64 {
    fnv_each(hash, bytes.iter().map(u8::to_ascii_lowercase))
}

fn fnv_each(hash: u64, bytes: impl Iterator<Item = u8>) -> u64 {
    bytes.fold(hash, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_same_kind(first: &str, second: &str, expected: bool) {
        assert_eq!(
            link_kind(first) == link_kind(second),
            expected,
            "{first} vs {second}"
        );
    }

    #[test]
    fn profile_links_of_one_forum_share_a_kind() {
        check_same_kind(
            "https://f.example/memberlist.php?mode=viewprofile&u=5&sid=ab",
            "https://f.example/memberlist.php?mode=viewprofile&u=77&sid=ab",
            true,
        );
        check_same_kind(
            "https://f.example/members/alice.12/",
            "https://f.example/members/bob-smith.7/",
            true,
        );
        check_same_kind("https://f.example/u/alice", "https://f.example/u/bob", true);
        check_same_kind(
            "https://f.example/memberlist.php?mode=viewprofile&u=5",
            "https://f.example/viewtopic.php?p=5",
            false,
        );
        check_same_kind(
            "https://f.example/member.php?u=5",
            "https://f.example/showthread.php?t=5&page=2",
            false,
        );
        check_same_kind(
            "https://f.example/123-topic",
            "https://f.example/9-other",
            true,
        );
    }

    fn check_button(values: &[(&str, &str)], expected: bool) {
        assert_eq!(is_button_group(values), expected, "{values:?}");
    }

    #[test]
    fn buttons_repeat_their_words_and_change_their_target() {
        check_button(&[("Teilen", "/t?p=1"), ("Teilen", "/t?p=2")], true);
        check_button(
            &[("Yoyo", "/u/1"), ("Yoyo", "/u/1"), ("Yoyo", "/u/1")],
            false,
        );
        check_button(&[("ann", "/u/1"), ("bob", "/u/2")], false);
        check_button(&[("Share", "/t?p=1")], false);
        check_button(&[("Share", "/s/1"), ("Share", "/s/1")], false);
    }
}
