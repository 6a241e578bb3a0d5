//! A compact, immutable HTML tree built by html5ever's tree builder.
//!
//! html5ever gives browser-correct trees for the broken markup forums serve (unclosed `<p>`,
//! tables without `<tbody>`, stray `</div>`); `scraper`'s tree on top of it costs about as much
//! again as the tokenizer because every node owns its strings and is reference-counted. This tree
//! is a flat arena instead: nodes are indexes into one vector, all text lives in one string and
//! all attribute values in another, and tag and attribute names are interned atoms. That keeps a
//! 60 KB page to a few allocations and makes the tree `Send`, so pages can move between crawler
//! threads.
//!
//! The tokens come from this module's own tokenizer (`tokenizer`), which reads the ordinary
//! shapes of HTML with about a quarter of the instructions html5ever's tokenizer needs and gives
//! the same tokens; for the rare shapes it refuses, html5ever's tokenizer parses the page again.
//!
//! [`Document::parse`] builds a tree; [`NodeId`] names a node; [`Document::children`],
//! [`Document::descendants`], [`Document::attribute`] and [`Document::text_of`] read it.

use std::ops::Range;
use std::sync::OnceLock;

use html5ever::buffer_queue::BufferQueue;
use html5ever::interface::TreeSink;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::TokenSink;
use html5ever::tree_builder::TreeBuilder;
use html5ever::{LocalName, QualName, TokenizerResult};

mod self_closing;
mod sink;
mod tokenizer;

use self_closing::ClosingSelfClosed;
use sink::ArenaSink;
pub use tokenizer::compare::TokenizerCheck;

/// Compares this crate's tokenizer with html5ever's on `html` (as [`Document::parse`] would feed
/// them): whether they give the tree builder the same tokens, or ours refuses the page. For
/// fuzzing and tests; parsing never calls it.
pub fn check_tokenizer(html: &str) -> TokenizerCheck {
    tokenizer::compare::check(html)
}

/// The tree builder [`Document::parse`] feeds, behind the step that closes self-closed elements
/// (`self_closing`), sized for `html`.
///
/// Set up as a browser with scripts off would be: a crawler runs no script, so what a page puts
/// in `<noscript>` (Discourse's whole crawler view, for one) is what it shows us. With scripting
/// on, the tree builder would keep that content as one opaque text node.
fn page_tree_builder(html: &str) -> ClosingSelfClosed<TreeBuilder<NodeId, ArenaSink>> {
    let options = html5ever::tree_builder::TreeBuilderOpts {
        scripting_enabled: false,
        ..Default::default()
    };
    ClosingSelfClosed {
        inner: TreeBuilder::new(ArenaSink::for_page_of(html.len()), options),
    }
}

/// Runs html5ever's tokenizer over `html` into `sink` and gives the sink back.
fn run_html5ever_tokenizer<Sink: TokenSink>(sink: Sink, html: &str) -> Sink {
    let tokenizer = html5ever::tokenizer::Tokenizer::new(sink, Default::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    // The tree builder stops the tokenizer after each script; nothing runs, so go on.
    while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
    tokenizer.end();
    tokenizer.sink
}

/// Index of a node in its [`Document`].
pub type NodeId = u32;

/// What kind of node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// The document root.
    Document,
    /// `<!DOCTYPE ...>`.
    Doctype,
    /// A comment (its text is kept).
    Comment,
    /// A run of text.
    Text,
    /// An element.
    Element,
}

/// One node. Links are `None` at the ends.
#[derive(Debug, Clone)]
pub struct Node {
    /// Kind of node.
    pub kind: NodeKind,
    /// Parent node.
    pub parent: Option<NodeId>,
    /// First child.
    pub first_child: Option<NodeId>,
    /// Last child.
    pub last_child: Option<NodeId>,
    /// Previous sibling.
    pub previous_sibling: Option<NodeId>,
    /// Next sibling.
    pub next_sibling: Option<NodeId>,
    name: QualName,
    text: Range<u32>,
    attributes: Range<u32>,
}

impl Node {
    fn new(kind: NodeKind, name: QualName) -> Self {
        Node {
            kind,
            parent: None,
            first_child: None,
            last_child: None,
            previous_sibling: None,
            next_sibling: None,
            name,
            text: 0..0,
            attributes: 0..0,
        }
    }

    /// The element's tag name (lower case), empty for other nodes.
    pub fn tag(&self) -> &LocalName {
        &self.name.local
    }

    /// Whether this is an element called `tag`.
    pub fn is(&self, tag: &str) -> bool {
        self.kind == NodeKind::Element && &*self.name.local == tag
    }
}

/// `text` without leading and trailing whitespace, exactly as [`str::trim`] gives it.
///
/// Most text nodes of a page are runs of spaces and line breaks between tags, and the sizes of
/// text below every node are summed over all of them on every page; `str::trim` decodes each
/// character and asks the Unicode tables about it. ASCII whitespace is skipped byte by byte here,
/// and the Unicode rules run only when a non-ASCII character stands at either end (a no-break
/// or an ideographic space may be whitespace there).
pub(crate) fn trim_whitespace(text: &str) -> &str {
    let bytes = text.as_bytes();
    // The ASCII characters `char::is_whitespace` accepts: tab to carriage return, and space.
    let is_space = |byte: &u8| matches!(byte, b'\t'..=b'\r' | b' ');
    let start = bytes
        .iter()
        .position(|byte| !is_space(byte))
        .unwrap_or(bytes.len());
    // From the end down to the first kept byte only: a text of whitespace alone (most of them)
    // is read once.
    let end = bytes[start..]
        .iter()
        .rposition(|byte| !is_space(byte))
        .map_or(start, |last| start + last + 1);
    let inner = &text[start..end];
    let non_ascii_edge = |byte: Option<&u8>| byte.is_some_and(|byte| !byte.is_ascii());
    if non_ascii_edge(inner.as_bytes().first()) || non_ascii_edge(inner.as_bytes().last()) {
        inner.trim()
    } else {
        inner
    }
}

/// The words of `text` parted at whitespace: the pieces [`str::split_whitespace`] gives.
///
/// Post texts are read word by word for every element a text column is tried on, several
/// times over each post, and `split_whitespace` decodes every character and asks the Unicode
/// tables about it. Here an ASCII byte is judged alone (as [`trim_whitespace`] judges it) and
/// only other characters are decoded, since some (no-break and ideographic spaces) are
/// whitespace.
pub(crate) fn words(text: &str) -> Words<'_> {
    Words { text, position: 0 }
}

/// The iterator [`words`] gives.
#[derive(Debug, Clone)]
pub(crate) struct Words<'a> {
    text: &'a str,
    position: usize,
}

impl Words<'_> {
    /// Whether the character at byte `index` is whitespace, and its width in bytes.
    fn whitespace_at(&self, index: usize) -> (bool, usize) {
        let byte = self.text.as_bytes()[index];
        if byte.is_ascii() {
            // The ASCII characters `char::is_whitespace` accepts: tab to carriage return, and
            // space.
            (matches!(byte, b'\t'..=b'\r' | b' '), 1)
        } else {
            let character = self.text[index..]
                .chars()
                .next()
                .expect("a character starts here");
            (character.is_whitespace(), character.len_utf8())
        }
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let end = self.text.len();
        while self.position < end {
            let (whitespace, width) = self.whitespace_at(self.position);
            if !whitespace {
                break;
            }
            self.position += width;
        }
        if self.position == end {
            return None;
        }
        let start = self.position;
        while self.position < end {
            let (whitespace, width) = self.whitespace_at(self.position);
            if whitespace {
                break;
            }
            self.position += width;
        }
        Some(&self.text[start..self.position])
    }
}

/// A parsed page.
#[derive(Debug, Clone)]
pub struct Document {
    nodes: Vec<Node>,
    text: String,
    attribute_names: Vec<LocalName>,
    attribute_values: Vec<Range<u32>>,
    /// Every node's template signature (see `regions`), computed on first use: regions, link
    /// columns and record columns all ask for the signatures of the same elements many times,
    /// and each costs attribute look-ups and a hash.
    pub(crate) signatures: OnceLock<Vec<u32>>,
    /// Text and element counts below every node (see `regions`), computed on first use: the
    /// region search and the search for lone records read the same sums.
    pub(crate) region_facts: OnceLock<crate::regions::NodeFacts>,
    /// The page's lone-record candidates (see `regions::single_record_candidates`), computed on
    /// first use: page analysis reads them for sticky thread entries and a crawler or sampler
    /// reads them again to place lone records, and each search walks every run of siblings.
    pub(crate) single_records: OnceLock<Vec<crate::regions::SingleRecord>>,
    /// Every node's place in a walk of the tree from the root (see [`Document::is_ancestor`]),
    /// computed on first use: record readers ask whether one node lies inside another many
    /// thousands of times a page, and walking up from the inner node cost the depth of the tree
    /// each time.
    subtree_spans: OnceLock<Vec<SubtreeSpan>>,
}

/// Where a node and its subtree fall in the pre-order walk from the root: the node at `start`,
/// everything below it from there to `last`. A node the walk never reaches (one the tree
/// builder left without a parent) has `start` [`u32::MAX`].
#[derive(Debug, Clone, Copy)]
struct SubtreeSpan {
    start: u32,
    last: u32,
}

/// The document root's id.
pub const ROOT: NodeId = 0;

impl Document {
    /// Parses `html` the way a browser would, except that XHTML-style self-closed elements
    /// (`<div class="x"/>`) are read as empty elements (see `self_closing`); never fails.
    pub fn parse(html: &str) -> Document {
        // Our tokenizer first (see `tokenizer`): it gives html5ever's tokens for a quarter of
        // the instructions, and refuses the rare shapes it does not read, for which html5ever's own
        // tokenizer parses the page again from the start.
        if let Ok(source) = tokenizer::prepare(html) {
            let builder = page_tree_builder(html);
            if tokenizer::tokenize(&source, &builder).is_ok() {
                return TreeSink::finish(builder.inner.sink);
            }
        }
        let builder = run_html5ever_tokenizer(page_tree_builder(html), html);
        TreeSink::finish(builder.inner.sink)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the document has only its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            document: self,
            next: self.node(id).first_child,
        }
    }

    /// `id` and everything below it, in document order.
    pub fn descendants(&self, id: NodeId) -> Descendants<'_> {
        Descendants {
            document: self,
            root: id,
            next: Some(id),
            last: None,
        }
    }

    /// The text of a text or comment node (empty for other nodes).
    pub fn text_of(&self, id: NodeId) -> &str {
        let range = &self.node(id).text;
        &self.text[range.start as usize..range.end as usize]
    }

    /// The value of attribute `name` on element `id`.
    pub fn attribute(&self, id: NodeId, name: &str) -> Option<&str> {
        let range = &self.node(id).attributes;
        (range.start..range.end).find_map(|index| {
            let index = index as usize;
            (&*self.attribute_names[index] == name).then(|| {
                let value = &self.attribute_values[index];
                &self.text[value.start as usize..value.end as usize]
            })
        })
    }

    /// All attributes of element `id` as (name, value) pairs.
    pub fn attributes(&self, id: NodeId) -> impl Iterator<Item = (&str, &str)> {
        let range = self.node(id).attributes.clone();
        (range.start as usize..range.end as usize).map(move |index| {
            let value = &self.attribute_values[index];
            (
                &*self.attribute_names[index],
                &self.text[value.start as usize..value.end as usize],
            )
        })
    }

    /// The text below `id` with runs of whitespace collapsed to one space, skipping scripts,
    /// styles and comments.
    pub fn text_content(&self, id: NodeId) -> String {
        let mut out = String::new();
        let mut walk = self.descendants(id);
        while let Some(node) = walk.next() {
            let data = self.node(node);
            match data.kind {
                NodeKind::Text => push_collapsed(&mut out, self.text_of(node)),
                NodeKind::Element if data.is("script") || data.is("style") => walk.skip_children(),
                _ => {}
            }
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out
    }

    /// Whether `ancestor` holds `node` at some depth (a node does not hold itself).
    ///
    /// Answered from each node's span in a pre-order walk of the tree, computed once per
    /// document, instead of walking up from `node`; a node outside the tree (left without a
    /// parent by the tree builder) is still answered by the walk up.
    pub fn is_ancestor(&self, ancestor: NodeId, node: NodeId) -> bool {
        let spans = self.subtree_spans.get_or_init(|| subtree_spans(self));
        let outer = spans[ancestor as usize];
        let inner = spans[node as usize];
        if inner.start != u32::MAX {
            // A node in the tree lies inside every node whose span holds its start; a node
            // outside the tree (start `u32::MAX`) holds nothing that is in the tree.
            return outer.start != u32::MAX
                && outer.start < inner.start
                && inner.start <= outer.last;
        }
        let mut current = node;
        while let Some(parent) = self.node(current).parent {
            if parent == ancestor {
                return true;
            }
            current = parent;
        }
        false
    }

    /// The first element called `tag` in document order.
    pub fn find(&self, tag: &str) -> Option<NodeId> {
        self.descendants(ROOT).find(|&id| self.node(id).is(tag))
    }
}

/// Every node's [`SubtreeSpan`], in one walk down and up the tree: a node takes the next
/// position when the walk reaches it, and its last one is the position handed out last when the
/// walk leaves it for its next sibling or its parent.
fn subtree_spans(document: &Document) -> Vec<SubtreeSpan> {
    let mut spans = vec![
        SubtreeSpan {
            start: u32::MAX,
            last: u32::MAX,
        };
        document.len()
    ];
    let mut position: u32 = 0;
    let mut node = ROOT;
    loop {
        spans[node as usize].start = position;
        position += 1;
        if let Some(child) = document.node(node).first_child {
            node = child;
            continue;
        }
        // Leave this node, and every parent whose last child it ends, until one has a sibling.
        let mut leaving = node;
        loop {
            spans[leaving as usize].last = position - 1;
            if leaving == ROOT {
                return spans;
            }
            let data = document.node(leaving);
            if let Some(sibling) = data.next_sibling {
                node = sibling;
                break;
            }
            match data.parent {
                Some(parent) => leaving = parent,
                None => return spans,
            }
        }
    }
}

fn push_collapsed(out: &mut String, text: &str) {
    for piece in words(text) {
        if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
        out.push_str(piece);
    }
    if text.ends_with(char::is_whitespace) && !out.is_empty() && !out.ends_with(' ') {
        out.push(' ');
    }
}

/// Iterator over a node's children.
#[derive(Debug, Clone)]
pub struct Children<'a> {
    document: &'a Document,
    next: Option<NodeId>,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let current = self.next?;
        self.next = self.document.node(current).next_sibling;
        Some(current)
    }
}

/// Pre-order iterator over a subtree; [`Descendants::skip_children`] prunes the last node's
/// subtree.
#[derive(Debug, Clone)]
pub struct Descendants<'a> {
    document: &'a Document,
    root: NodeId,
    next: Option<NodeId>,
    /// The node returned last, whose children [`Descendants::skip_children`] skips.
    last: Option<NodeId>,
}

impl Descendants<'_> {
    /// Skips the children of the node returned last.
    pub fn skip_children(&mut self) {
        // Only a node with children has anything to skip: for a childless one (an empty
        // `<script src=...>`), `next` is already its next sibling, and stepping past the
        // parent of that would skip the siblings too.
        if let Some(last) = self.last
            && self.document.node(last).first_child.is_some()
        {
            self.next = self.after(last);
        }
    }

    fn after(&self, mut id: NodeId) -> Option<NodeId> {
        loop {
            if id == self.root {
                return None;
            }
            let node = self.document.node(id);
            if let Some(sibling) = node.next_sibling {
                return Some(sibling);
            }
            id = node.parent?;
        }
    }
}

impl Iterator for Descendants<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let current = self.next?;
        self.next = match self.document.node(current).first_child {
            Some(child) => Some(child),
            None => self.after(current),
        };
        self.last = Some(current);
        Some(current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_the_pieces_split_whitespace_gives() {
        let cases = [
            "",
            "   ",
            "one",
            " two  words ",
            "\ttabs\tand\nlines\r\n",
            "\u{0B}vertical\u{0C}feed",
            "no-break\u{a0}space",
            "ideographic\u{3000}space 日本語",
            "next\u{85}line",
            "file\u{1C}separator is no space",
            "ünïcödé wörds, €uro",
            "\u{2003}em\u{2028}line\u{202F}narrow",
            "emoji 😀 between",
        ];
        for text in cases {
            assert_eq!(
                words(text).collect::<Vec<_>>(),
                text.split_whitespace().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn trimming_matches_the_standard_trim() {
        let cases = [
            "",
            "   ",
            "\n\t\t\r\n",
            " word ",
            "two words",
            "\u{0B}vertical tab\u{0B}",
            "\u{a0}no-break\u{a0}",
            " \u{3000}ideographic\u{3000} ",
            "\u{a0}",
            " \u{2003} \u{a0} ",
            "日本語",
            " ünïcödé ",
            "\u{85}next line",
        ];
        for text in cases {
            assert_eq!(trim_whitespace(text), text.trim(), "{text:?}");
        }
    }

    fn outline(document: &Document, id: NodeId) -> String {
        let node = document.node(id);
        match node.kind {
            NodeKind::Text => format!("'{}'", document.text_of(id)),
            NodeKind::Element => {
                let children: Vec<String> = document
                    .children(id)
                    .map(|child| outline(document, child))
                    .collect();
                if children.is_empty() {
                    node.tag().to_string()
                } else {
                    format!("{}({})", node.tag(), children.join(" "))
                }
            }
            _ => String::new(),
        }
    }

    fn check(html: &str, expected_body: &str) {
        let document = Document::parse(html);
        let body = document.find("body").expect("browsers always make a body");
        assert_eq!(outline(&document, body), expected_body, "{html}");
    }

    #[test]
    fn broken_markup_gets_browser_trees() {
        check("<p>one<p>two", "body(p('one') p('two'))");
        check(
            "<table><tr><td>a</td></tr></table>",
            "body(table(tbody(tr(td('a')))))",
        );
        check("<ul><li>a<li>b</ul>", "body(ul(li('a') li('b')))");
        check(
            "<b>bold<i>both</b>italic</i>",
            "body(b('bold' i('both')) i('italic'))",
        );
        check("<div>a</span>b</div></div>c", "body(div('ab') 'c')");
        check(
            "<table><td>cell</td>text after</table>",
            "body('text after' table(tbody(tr(td('cell')))))",
        );
        check("", "body");
    }

    #[test]
    fn noscript_content_is_parsed_as_a_crawler_sees_it() {
        check(
            "<p>menu</p><noscript><div class=post><p>first post</p></div></noscript>",
            "body(p('menu') noscript(div(p('first post'))))",
        );
        check(
            "<div><noscript data-path=\"/t/1\"><a href=/u/x>x</a> wrote</noscript></div>",
            "body(div(noscript(a('x') ' wrote')))",
        );
    }

    #[test]
    fn self_closed_elements_are_empty() {
        check(
            "<div class=\"a\"/><p>x</p><span id='b' />y<DIV/>",
            "body(div p('x') span 'y' div)",
        );
        check(
            "<p>a<br/>b<img src='x'/>c</p>",
            "body(p('a' br 'b' img 'c'))",
        );
        check("<script>var s = '<div/>';</script><div/>z", "body(div 'z')");
        let document = Document::parse("<script>var s = '<div/>';</script><div/>z");
        let script = document.find("script").unwrap();
        let text = document
            .children(script)
            .next()
            .map(|t| document.text_of(t));
        assert_eq!(text, Some("var s = '<div/>';"), "script text is left alone");
        check("<!-- <div/> --><a title='x/>' href=\"1\"/>t", "body(a 't')");
        // Raw-text elements closed at once, so the rest of the page is markup again.
        check(
            "<p>a</p><script/><textarea/>b",
            "body(p('a') script textarea 'b')",
        );
        check("<svg><path d=\"M0\"/><g/></svg>c", "body(svg(path g) 'c')");
        // A NUL byte makes our tokenizer hand the page to html5ever's, which closes them too.
        let handed_over = "<div class=\"a\"/>\0<p>x</p>";
        assert!(matches!(
            check_tokenizer(handed_over),
            TokenizerCheck::Refused(_)
        ));
        check(handed_over, "body(div p('x'))");
    }

    /// Regression: the old textual rewrite took the last slash of an unquoted value for a
    /// self-closing mark, which emptied the link and cut the slash off its address.
    #[test]
    fn a_slash_ending_an_unquoted_value_belongs_to_the_value() {
        check("<a href=/forum/>Forum</a>", "body(a('Forum'))");
        let document = Document::parse("<p><a href=http://example.com/>home</a> x</p>");
        let link = document.find("a").unwrap();
        assert_eq!(
            document.attribute(link, "href"),
            Some("http://example.com/")
        );
        check("<div class=a/><p>x</p>", "body(div(p('x')))");
    }

    #[test]
    fn misnested_links_are_adopted_without_panicking() {
        // Regression: the adoption agency reparents children, which once panicked on a
        // RefCell borrow held across the loop.
        check(
            "<a href=1>one<div>two<a href=2>three</a></div></a>",
            "body(a('one') div(a('two') a('three')))",
        );
        check("<b><p>x</b>y</p>", "body(b p(b('x') 'y'))");
    }

    #[test]
    fn attributes_and_text_read_back() {
        let document = Document::parse(
            "<html lang=en><body class=a><a href='/t/1?x=1&amp;y=2' title=\"T\">Link &amp; text</a>\
             <script>var x = '<a>';</script><p> spaced   out </p></body></html>",
        );
        let link = document.find("a").unwrap();
        assert_eq!(document.attribute(link, "href"), Some("/t/1?x=1&y=2"));
        assert_eq!(document.attribute(link, "title"), Some("T"));
        assert_eq!(document.attribute(link, "rel"), None);
        assert_eq!(document.text_content(link), "Link & text");
        let body = document.find("body").unwrap();
        assert_eq!(document.text_content(body), "Link & text spaced out");
        assert_eq!(
            document.attributes(body).collect::<Vec<_>>(),
            vec![("class", "a")]
        );
    }

    #[test]
    fn repeated_html_attributes_merge_into_the_first_element() {
        let document = Document::parse("<html a=1><body><html b=2 a=3><p>x</p>");
        let html = document.find("html").unwrap();
        let mut attributes: Vec<_> = document.attributes(html).collect();
        attributes.sort_unstable();
        assert_eq!(attributes, vec![("a", "1"), ("b", "2")]);
    }

    #[test]
    fn descendants_can_skip_subtrees() {
        let document = Document::parse("<div><p>a<b>b</b></p><p>c</p></div>");
        let div = document.find("div").unwrap();
        let mut walk = document.descendants(div);
        let mut seen = Vec::new();
        while let Some(id) = walk.next() {
            let node = document.node(id);
            if node.is("p") && seen.iter().filter(|s: &&String| s.as_str() == "p").count() == 0 {
                seen.push("p".to_string());
                walk.skip_children();
                continue;
            }
            seen.push(if node.kind == NodeKind::Text {
                document.text_of(id).to_string()
            } else {
                node.tag().to_string()
            });
        }
        assert_eq!(seen, ["div", "p", "p", "c"]);
    }

    #[test]
    fn skipping_a_childless_element_keeps_its_siblings() {
        // (markup, texts the walk sees when it skips scripts)
        let cases = [
            ("<div><script src=a></script><p>kept</p></div>", "kept"),
            (
                "<div><p>one</p><script src=a></script></div><p>two</p>",
                "one two",
            ),
            ("<div><script>var x;</script><p>kept</p></div>", "kept"),
            ("<div><script></script></div>after", "after"),
        ];
        for (html, expected) in cases {
            let document = Document::parse(html);
            let mut walk = document.descendants(ROOT);
            let mut texts = Vec::new();
            while let Some(id) = walk.next() {
                let node = document.node(id);
                if node.is("script") {
                    walk.skip_children();
                } else if node.kind == NodeKind::Text {
                    texts.push(document.text_of(id));
                }
            }
            assert_eq!(texts.join(" "), expected, "{html}");
            let body = document.find("body").unwrap();
            assert_eq!(document.text_content(body), expected, "{html}");
        }
    }

    /// Whether `ancestor` holds `node`, by walking up from `node`: what
    /// [`Document::is_ancestor`] must answer.
    fn holds_by_walking_up(document: &Document, ancestor: NodeId, node: NodeId) -> bool {
        let mut current = node;
        while let Some(parent) = document.node(current).parent {
            if parent == ancestor {
                return true;
            }
            current = parent;
        }
        false
    }

    /// `Document::is_ancestor` answers every pair of nodes as walking up would, on markup the
    /// tree builder rearranges (misnested formatting, foster-parented table text, a second
    /// `<html>` or `<body>`), which moves nodes after they were created.
    fn check_ancestry(html: &str) {
        let document = Document::parse(html);
        for ancestor in 0..document.len() as NodeId {
            for node in 0..document.len() as NodeId {
                assert_eq!(
                    document.is_ancestor(ancestor, node),
                    holds_by_walking_up(&document, ancestor, node),
                    "{html}: is {ancestor} an ancestor of {node}"
                );
            }
        }
    }

    #[test]
    fn ancestry_is_answered_as_walking_up_answers_it() {
        check_ancestry("");
        check_ancestry("<p>one<p>two<div><span>three</span></div>");
        check_ancestry("<b>bold<i>both</b>italic</i><p>after");
        check_ancestry("<a href=1>one<div>two<a href=2>three</a></div></a>");
        check_ancestry("<table><td>cell</td>text after<tr><td>x</table>");
        check_ancestry("<b><p>x</b>y</p><table>z<b>w</table>");
        check_ancestry("<html a=1><body><html b=2><body c=3><p>x</p>");
        check_ancestry("<ul><li>a<li>b<ul><li>c</ul></ul><!-- note --><script>x</script>");
        check_ancestry("<div class=a/><p>x</p><select><option>o<option>p</select>");
    }

    #[test]
    fn never_panics_on_arbitrary_input() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let alphabet: Vec<char> = "<>/=\"' abcdiv&;#x0tablerp!-\u{0}\u{FFFD}é中"
            .chars()
            .collect();
        for _ in 0..400 {
            let length = (state % 300) as usize;
            let text: String = (0..length)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize]
                })
                .collect();
            let document = Document::parse(&text);
            let _ = document.text_content(ROOT);
            assert!(document.descendants(ROOT).count() <= document.len());
        }
    }
}
