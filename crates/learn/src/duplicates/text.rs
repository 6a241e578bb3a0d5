//! The visible text of a page as blocks, each with the path of the element that holds it.

use trawl_page::dom::{Document, NodeId, NodeKind, ROOT};

use super::words::{fnv_start, fnv_step, mix64};

/// One block of a page's visible text and where the markup put it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TextBlock {
    /// The text, whitespace-collapsed.
    pub text: String,
    /// A hash of the path from the root to the element holding the text: each element's tag,
    /// `class` and `id`, with digits generalised and without sibling positions, so that every
    /// row of one list shares a path while a page header and a post body do not. Zero when the
    /// path is unknown, which leaves only the text to tell template text apart.
    pub element_path: u64,
}

/// Elements whose text flows into the surrounding block instead of starting one of their own.
/// Everything else (`div`, `p`, `li`, `td`, headings, ...) and any element not listed here
/// closes the current block, which errs on the side of smaller blocks: a block split in two is
/// still recognised as template text, while a template line merged with content is not.
const INLINE_ELEMENTS: [&str; 32] = [
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "dfn", "em",
    "font", "i", "img", "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong",
    "sub", "sup", "time", "tt", "u", "var", "wbr",
];

/// Elements whose content is never shown as text: scripts and styles, `noscript` fallbacks, the
/// `head` (its title repeats the page's heading) and drop-down lists (board jump menus).
const HIDDEN_ELEMENTS: [&str; 6] = ["script", "style", "noscript", "template", "head", "select"];

/// The visible text of `document` as blocks in document order: the text of each block-level
/// element outside its nested blocks, whitespace-collapsed, with inline elements (links,
/// emphasis, `<br>`) flowing into their block. Hidden elements are skipped and empty blocks left
/// out.
pub fn text_blocks(document: &Document) -> Vec<TextBlock> {
    let mut blocks = Vec::new();
    let mut current = String::new();
    // The paths of the open block elements; the innermost one owns the current text.
    let mut open_paths = vec![fnv_start()];
    // An explicit stack instead of recursion: forum markup can nest thousands of levels deep
    // when the parser repairs unclosed elements. `true` marks the exit from a block element.
    let mut stack: Vec<(NodeId, bool)> = vec![(ROOT, false)];
    while let Some((id, leaving)) = stack.pop() {
        let node = document.node(id);
        if leaving {
            flush(&mut current, &open_paths, &mut blocks);
            open_paths.pop();
            continue;
        }
        match node.kind {
            NodeKind::Text => current.push_str(document.text_of(id)),
            NodeKind::Element => {
                let tag: &str = node.tag();
                if HIDDEN_ELEMENTS.contains(&tag) {
                    continue;
                }
                if INLINE_ELEMENTS.contains(&tag) {
                    if tag == "br" || tag == "img" {
                        current.push(' ');
                    }
                } else {
                    flush(&mut current, &open_paths, &mut blocks);
                    let parent = *open_paths.last().unwrap_or(&fnv_start());
                    open_paths.push(extend_path(parent, document, id, tag));
                    stack.push((id, true));
                }
                let first = stack.len();
                stack.extend(document.children(id).map(|child| (child, false)));
                stack[first..].reverse();
            }
            NodeKind::Document => {
                let first = stack.len();
                stack.extend(document.children(id).map(|child| (child, false)));
                stack[first..].reverse();
            }
            NodeKind::Doctype | NodeKind::Comment => {}
        }
    }
    flush(&mut current, &open_paths, &mut blocks);
    blocks
}

/// Ends the current block: collapses its whitespace and keeps it when anything is left.
fn flush(current: &mut String, open_paths: &[u64], blocks: &mut Vec<TextBlock>) {
    if !current.trim().is_empty() {
        let path = open_paths.last().copied().unwrap_or(0);
        let mut text = String::with_capacity(current.len());
        for piece in current.split_whitespace() {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(piece);
        }
        blocks.push(TextBlock {
            text,
            // Zero is reserved for "unknown"; a real path hashing to it is pushed off it.
            element_path: mix64(path).max(1),
        });
    }
    current.clear();
}

/// The path of block element `id` below a block element with path `parent`: its tag, `id` and
/// `class` attributes, lower-cased with every run of digits as one marker, so that `post bg1`
/// and `post bg2`, or `p123` and `p124`, name one position.
fn extend_path(parent: u64, document: &Document, id: NodeId, tag: &str) -> u64 {
    let mut state = fnv_step(parent, u32::from('/'));
    for (index, part) in [
        Some(tag),
        document.attribute(id, "id"),
        document.attribute(id, "class"),
    ]
    .into_iter()
    .enumerate()
    {
        state = fnv_step(state, index as u32);
        let mut in_digits = false;
        for character in part.unwrap_or("").chars() {
            if character.is_ascii_digit() {
                if !in_digits {
                    state = fnv_step(state, u32::from('#'));
                }
                in_digits = true;
                continue;
            }
            in_digits = false;
            state = fnv_step(state, u32::from(character.to_ascii_lowercase()));
        }
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(html: &str) -> Vec<String> {
        text_blocks(&Document::parse(html))
            .into_iter()
            .map(|block| block.text)
            .collect()
    }

    fn check_blocks(html: &str, expected: &[&str]) {
        assert_eq!(texts(html), expected, "{html}");
    }

    #[test]
    fn blocks_follow_block_level_elements() {
        check_blocks(
            "<div><p>One <b>two</b> three</p><p>four</p></div>",
            &["One two three", "four"],
        );
        check_blocks(
            "<div>before<div>inner</div>after</div>",
            &["before", "inner", "after"],
        );
        check_blocks(
            "<ul><li><a href=/x>Board</a> &raquo; <a>Topic</a></li><li>Two</li></ul>",
            &["Board » Topic", "Two"],
        );
        check_blocks(
            "<table><tr><td>a</td><td> b  c </td></tr></table>",
            &["a", "b c"],
        );
        check_blocks("<p>line one<br>line two</p>", &["line one line two"]);
        check_blocks("<p>论坛<a>帖子</a>内容</p>", &["论坛帖子内容"]);
        check_blocks("<p>   </p><div>\n\t</div>", &[]);
        check_blocks("plain text", &["plain text"]);
    }

    #[test]
    fn hidden_text_is_skipped() {
        check_blocks(
            "<html><head><title>T</title><style>p{}</style></head><body>\
             <script>var x = 1;</script><noscript>enable js</noscript>\
             <select><option>Board one</option></select><!-- note --><p>shown</p></body></html>",
            &["shown"],
        );
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let html = format!("{}deep{}", "<div>".repeat(20_000), "</div>".repeat(20_000));
        check_blocks(&html, &["deep"]);
    }

    fn paths(html: &str) -> Vec<u64> {
        text_blocks(&Document::parse(html))
            .into_iter()
            .map(|block| block.element_path)
            .collect()
    }

    #[test]
    fn rows_of_one_list_share_a_path_and_other_places_do_not() {
        let found = paths(
            "<div id=header><p>Menu</p></div>\
             <div id=p12 class='post bg1'><p>first</p></div>\
             <div id=p13 class='post bg2'><p>second</p></div>\
             <div class=footer><p>Footer</p></div>",
        );
        assert_eq!(found.len(), 4);
        assert_eq!(found[1], found[2], "posts share a path");
        assert_ne!(found[0], found[1]);
        assert_ne!(found[0], found[3]);
        assert_ne!(found[1], found[3]);
        assert!(found.iter().all(|&path| path != 0));
        // The same markup on another page gives the same paths.
        assert_eq!(
            paths("<div class=footer><p>Other footer</p></div>"),
            [found[3]]
        );
        // Text around a nested block belongs to the outer block.
        let around = paths("<div class=outer>before<p>inner</p>after</div>");
        assert_eq!(around[0], around[2]);
        assert_ne!(around[0], around[1]);
    }
}
