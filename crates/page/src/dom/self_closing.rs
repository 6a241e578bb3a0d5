//! XHTML-style self-closed elements, closed at once so they stay empty.
//!
//! Browsers ignore the slash of `<div class="x"/>` and leave the element open, so the rest of
//! the page nests inside a `<span/>` anchor or an empty `<div/>`. Pages written as XHTML (some
//! engines and themes emit it, and archives and data sets re-serialise pages that way) mean an
//! empty element, and reading them as a browser would turns a whole post list into one deep
//! chain. [`ClosingSelfClosed`] sits between a tokenizer and the tree builder and follows every
//! self-closed start tag of an element that is not void with its end tag.
//!
//! This used to be a textual rewrite of the page before parsing (`<x/>` to `<x></x>`), which
//! copied every page, scanned it once more, and misread ordinary HTML: in `<a href=/forum/>`
//! the slash belongs to the unquoted value, yet the rewrite took it for a self-closing mark,
//! emptied the link and cut the slash off its address. At the token level the tokenizer has
//! already decided what the slash is, comments and raw text are never looked at, and both
//! tokenizers (ours and html5ever's fallback) get the same treatment.

use html5ever::tokenizer::{Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{LocalName, local_name};

/// A token sink that passes tokens on to `inner`, closing self-closed elements that are not
/// void right after their start tag.
pub(crate) struct ClosingSelfClosed<Inner> {
    pub(crate) inner: Inner,
}

/// Elements that never have content, for which `<x/>` and `<x>` mean the same; the tree
/// builder closes them itself.
fn is_void(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("hr")
            | local_name!("img")
            | local_name!("input")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
    )
}

impl<Inner: TokenSink> TokenSink for ClosingSelfClosed<Inner> {
    type Handle = Inner::Handle;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<Inner::Handle> {
        match token {
            Token::TagToken(mut tag)
                if tag.kind == TagKind::StartTag && tag.self_closing && !is_void(&tag.name) =>
            {
                // The same tokens `<x ...></x>` would give. The start tag's answer is dropped:
                // when it asks for raw text (`<script/>`, `<title/>`), that text is empty, and
                // the end tag's answer returns the tokenizer to ordinary markup.
                tag.self_closing = false;
                let end_tag = Tag {
                    kind: TagKind::EndTag,
                    name: tag.name.clone(),
                    self_closing: false,
                    attrs: Vec::new(),
                    had_duplicate_attributes: false,
                };
                let _ = self.inner.process_token(Token::TagToken(tag), line_number);
                self.inner
                    .process_token(Token::TagToken(end_tag), line_number)
            }
            other => self.inner.process_token(other, line_number),
        }
    }

    fn end(&self) {
        self.inner.end()
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.inner
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}
