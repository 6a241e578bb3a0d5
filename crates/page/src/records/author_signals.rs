//! Signals that tell a post's author apart from the other short texts of a record, independent
//! of where in the record's markup they sit.
//!
//! Author links were first grouped by their column (the tag path inside the record), but real
//! templates move the author link around from post to post: an avatar cell present only for
//! members with an avatar shifts the cells after it, and a moderator's name carries a colour
//! class that an ordinary member's lacks. The URL the link points to is steadier: every author
//! link of a page goes to the same kind of profile URL. So links are grouped by the shape of their
//! URL, and positions only break ties.

use crate::dom::{Document, NodeId, NodeKind, trim_whitespace};

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

/// Whether `text` shows a count rather than a name: one of its words is a number ("1,234
/// posts", "+52", "Beiträge: 312", "(17)", "2.5k"). Badges beside a name print such counts
/// (posts, likes, reputation); a name that carries digits glues them to letters ("alice12",
/// "R2-D2"), so only a word that is a number by itself counts.
pub(super) fn count_like(text: &str) -> bool {
    text.split_whitespace().any(|word| {
        let word = word.trim_matches(|c: char| {
            matches!(
                c,
                '+' | '-' | '−' | '–' | ',' | '.' | ':' | ';' | '(' | ')' | '[' | ']'
            ) || matches!(c, '#' | '*' | '•' | '|' | '/' | '×' | '%')
        });
        let digits = word.trim_end_matches(['k', 'K', 'M']);
        digits.starts_with(|c: char| c.is_ascii_digit())
            && digits
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '\'' | '\u{a0}'))
    })
}

/// The name an element shows when a counter is glued to it: templates put the name and a badge
/// ("12 posts", "+52") in one link or one box, whose text then reads "alice 12 posts". The
/// element's text pieces (its text nodes) up to the first one that is a count, or the label
/// before a count ("Posts:"), are the name; an element whose first piece is a count names no
/// one and is left whole for [`count_like`] to refuse.
pub(super) fn name_without_counter(document: &Document, node: NodeId, text: &str) -> String {
    // Most names hold no digit at all: nothing to cut, and no walk over the element.
    if !text.bytes().any(|byte| byte.is_ascii_digit()) {
        return text.to_string();
    }
    let pieces: Vec<&str> = document
        .descendants(node)
        .filter(|&id| document.node(id).kind == NodeKind::Text)
        .map(|id| trim_whitespace(document.text_of(id)))
        .filter(|piece| !piece.is_empty())
        .collect();
    let Some(count_at) = pieces.iter().position(|piece| count_like(piece)) else {
        return text.to_string();
    };
    let mut end = count_at;
    while end > 0 && pieces[end - 1].ends_with(':') {
        end -= 1;
    }
    if end == 0 {
        return text.to_string();
    }
    pieces[..end].join(" ")
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

    #[test]
    fn counts_are_numbers_standing_as_words() {
        let cases = [
            ("1,234 posts", true),
            ("+52", true),
            ("Beiträge: 312", true),
            ("(17)", true),
            ("2.5k", true),
            ("Posts: 1.204", true),
            ("alice12", false),
            ("R2-D2", false),
            ("Senior Member", false),
            ("Carol D", false),
            ("", false),
        ];
        for (text, expected) in cases {
            assert_eq!(count_like(text), expected, "{text:?}");
        }
    }

    #[test]
    fn a_counter_glued_to_a_name_is_cut_off() {
        let cases = [
            ("<a><span>alice</span><em>12 posts</em></a>", "alice"),
            ("<a>bob_k <small>(1,204)</small></a>", "bob_k"),
            (
                "<div><b>Anna</b> <dt>Beiträge:</dt><dd>312</dd></div>",
                "Anna",
            ),
            ("<a>user42</a>", "user42"),
            ("<a><span>+52</span> Carol</a>", "+52 Carol"),
            ("<a>Carol D</a>", "Carol D"),
        ];
        for (html, expected) in cases {
            let document = Document::parse(html);
            let node = document
                .find("a")
                .or_else(|| document.find("div"))
                .expect("the element is there");
            let text = document.text_content(node);
            assert_eq!(
                name_without_counter(&document, node, &text),
                expected,
                "{html}"
            );
        }
    }
}
