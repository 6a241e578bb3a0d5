//! A tokenizer for the ordinary shapes of HTML, feeding html5ever's own tree builder.
//!
//! Why it exists: html5ever's tokenizer reads tags, attribute names and attribute values one
//! character at a time through its state machine and copies them character by character into
//! growable strings. Profiles of a crawl put it at about two fifths of a crawl worker's work on
//! pages with large markup (SMF, XenForo), more than the whole analysis after parsing. This one finds
//! the next `<`, `&`, quote or delimiter with vectorised byte searches and hands out text and
//! attribute values as slices of the page's one buffer.
//!
//! What it keeps: the tree builder, where browser-correctness lives (implied end tags, tables
//! without `<tbody>`, misnested formatting, foster parenting), stays html5ever's, and so does
//! the switch of the tokenizer into RCDATA, RAWTEXT or script data that the tree builder
//! orders after `<title>`, `<style>` or `<script>`. This module only replaces how bytes
//! become tokens, and it produces the same tokens as html5ever's tokenizer for the states it
//! handles: text, start and end tags with their attributes (names lowercased, the first of
//! duplicated attributes kept), character references, comments, the usual doctypes, bogus
//! comments (`<?xml ...>`, `</ 3>`), RCDATA, RAWTEXT and script data with its `<!--` escapes.
//!
//! What it refuses, with [`Unusual`]: a NUL byte, CDATA sections, `<plaintext>`, a script
//! whose escaped text opens another `<script`, a comment holding `<!-`, a doctype outside the
//! usual `<!DOCTYPE name PUBLIC "..." "...">` grammar, and a page that ends inside markup. The
//! caller then parses the page again from the start with html5ever's tokenizer, so a page gets
//! the same tree either way; the refused shapes are rare, and handling them here would copy
//! dozens of error-recovery states for no measurable gain. The tests compare the token stream
//! with html5ever's on real pages, on every simulated forum family, on mangled pages and on
//! random markup.
//!
//! The alternative rejected was another tokenizer crate: html5gum, the other maintained WHATWG
//! tokenizer, measured only a fifth below html5ever's before building any tree.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{Attribute, LocalName, QualName, local_name, ns};
use memchr::{memchr, memchr2, memchr3};

pub(crate) mod compare;
mod markup;
mod raw;
mod references;
#[cfg(test)]
mod tests;

use references::{Reference, read_reference};

/// Why the tokenizer handed a page back to html5ever's: a shape it does not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unusual(pub(crate) &'static str);

/// The page as the tokenizer reads it: html5ever's input preprocessing (a leading byte order
/// mark dropped, `\r\n` and lone `\r` made `\n`) done once up front, so no state has to look
/// for carriage returns; [`Unusual`] when the page holds a NUL byte.
pub(crate) fn prepare(html: &str) -> Result<StrTendril, Unusual> {
    let html = html.strip_prefix('\u{feff}').unwrap_or(html);
    if memchr(0, html.as_bytes()).is_some() {
        return Err(Unusual("a NUL byte"));
    }
    if memchr(b'\r', html.as_bytes()).is_none() {
        return Ok(StrTendril::from_slice(html));
    }
    let mut normalized = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = memchr(b'\r', rest.as_bytes()) {
        normalized.push_str(&rest[..at]);
        normalized.push('\n');
        rest = &rest[at + 1..];
        if let Some(after_line_feed) = rest.strip_prefix('\n') {
            rest = after_line_feed;
        }
    }
    normalized.push_str(rest);
    Ok(StrTendril::from_slice(&normalized))
}

/// Sends the tokens of `source` (made by [`prepare`]) to `sink`, then the end of file and the
/// sink's `end`. On [`Unusual`] the sink has seen part of the page and must be thrown away.
pub(crate) fn tokenize<Sink: TokenSink>(source: &StrTendril, sink: &Sink) -> Result<(), Unusual> {
    let mut tokenizer = Tokenizer {
        source,
        text: source,
        bytes: source.as_bytes(),
        sink,
        pending_text: TextRun::default(),
        last_start_tag: None,
    };
    tokenizer.run()?;
    let _ = sink.process_token(Token::EOFToken, 1);
    sink.end();
    Ok(())
}

/// Text read but not yet sent: a range of the page while it is a plain slice of it (sent as a
/// shared slice of the page's buffer, no copy), or its own string once a character reference
/// changed it.
#[derive(Default)]
struct TextRun {
    start: usize,
    end: usize,
    owned: Option<StrTendril>,
}

impl TextRun {
    fn push_source(&mut self, source: &StrTendril, from: usize, to: usize) {
        if from == to {
            return;
        }
        match &mut self.owned {
            Some(owned) => owned.push_slice(&source[from..to]),
            None if self.start == self.end => {
                self.start = from;
                self.end = to;
            }
            None if self.end == from => self.end = to,
            None => {
                let mut owned = StrTendril::from_slice(&source[self.start..self.end]);
                owned.push_slice(&source[from..to]);
                self.owned = Some(owned);
            }
        }
    }

    fn push_char(&mut self, source: &StrTendril, character: char) {
        let (start, end) = (self.start, self.end);
        self.owned
            .get_or_insert_with(|| StrTendril::from_slice(&source[start..end]))
            .push_char(character);
    }

    /// Adds the character reference at byte `ampersand` of `source` (or the `&` itself, when
    /// none starts there), read as in an attribute value when `in_attribute`; returns where
    /// reading goes on.
    fn push_reference(
        &mut self,
        source: &StrTendril,
        ampersand: usize,
        in_attribute: bool,
    ) -> usize {
        match read_reference(source, ampersand, in_attribute) {
            Reference::Literal => {
                self.push_source(source, ampersand, ampersand + 1);
                ampersand + 1
            }
            Reference::Decoded { first, second, end } => {
                self.push_char(source, first);
                if let Some(second) = second {
                    self.push_char(source, second);
                }
                end
            }
        }
    }

    fn take(&mut self, source: &StrTendril) -> StrTendril {
        let taken = match self.owned.take() {
            Some(owned) => owned,
            None if self.start < self.end => {
                source.subtendril(self.start as u32, (self.end - self.start) as u32)
            }
            None => StrTendril::new(),
        };
        self.start = 0;
        self.end = 0;
        taken
    }
}

struct Tokenizer<'page, Sink> {
    source: &'page StrTendril,
    /// `source` as text and as bytes, taken once: every scan reads them, and each read through
    /// the tendril would check again whether its buffer is inline or on the heap.
    text: &'page str,
    bytes: &'page [u8],
    sink: &'page Sink,
    pending_text: TextRun,
    /// The name of the last start tag sent: an end tag closes RCDATA, RAWTEXT or script data
    /// only when it names the element that opened it.
    last_start_tag: Option<LocalName>,
}

/// The whitespace of HTML's tag syntax (carriage returns are gone after [`prepare`]).
fn is_tag_whitespace(byte: u8) -> bool {
    matches!(byte, b'\t' | b'\n' | b'\x0C' | b' ')
}

fn ends_tag_name(byte: u8) -> bool {
    is_tag_whitespace(byte) || byte == b'/' || byte == b'>'
}

/// An interned tag or attribute name, lowercased in ASCII as the tokenizer does.
fn lowercase_name(name: &str) -> LocalName {
    if let Some(common) = common_name(name) {
        return common;
    }
    if name.bytes().any(|byte| byte.is_ascii_uppercase()) {
        LocalName::from(name.to_ascii_lowercase())
    } else {
        LocalName::from(name)
    }
}

/// The names that make up most of a forum page's tags and attributes (on the development pages
/// these tags are 98 % of all tags and these attributes 92 % of all attributes), already
/// interned. Interning a name otherwise hashes it to look it up in the static atom table, which
/// cost about a twentieth of parsing; a `match` grouped by length compares a few bytes instead.
/// A hash map of names seen on the page was tried first and cost more than it saved.
fn common_name(name: &str) -> Option<LocalName> {
    let common = match name.len() {
        1 => match name {
            "a" => local_name!("a"),
            "i" => local_name!("i"),
            "p" => local_name!("p"),
            "b" => local_name!("b"),
            "u" => local_name!("u"),
            _ => return None,
        },
        2 => match name {
            "li" => local_name!("li"),
            "br" => local_name!("br"),
            "ul" => local_name!("ul"),
            "dd" => local_name!("dd"),
            "td" => local_name!("td"),
            "dt" => local_name!("dt"),
            "dl" => local_name!("dl"),
            "tr" => local_name!("tr"),
            "id" => local_name!("id"),
            "h1" => local_name!("h1"),
            "h2" => local_name!("h2"),
            "h3" => local_name!("h3"),
            "h4" => local_name!("h4"),
            "h5" => local_name!("h5"),
            "ol" => local_name!("ol"),
            "hr" => local_name!("hr"),
            "th" => local_name!("th"),
            "em" => local_name!("em"),
            _ => return None,
        },
        3 => match name {
            "div" => local_name!("div"),
            "img" => local_name!("img"),
            "src" => local_name!("src"),
            "rel" => local_name!("rel"),
            "alt" => local_name!("alt"),
            "dir" => local_name!("dir"),
            "bdi" => local_name!("bdi"),
            "nav" => local_name!("nav"),
            _ => return None,
        },
        4 => match name {
            "span" => local_name!("span"),
            "href" => local_name!("href"),
            "meta" => local_name!("meta"),
            "link" => local_name!("link"),
            "time" => local_name!("time"),
            "type" => local_name!("type"),
            "name" => local_name!("name"),
            "form" => local_name!("form"),
            "role" => local_name!("role"),
            "font" => local_name!("font"),
            "size" => local_name!("size"),
            "body" => local_name!("body"),
            "head" => local_name!("head"),
            "html" => local_name!("html"),
            "lang" => local_name!("lang"),
            _ => return None,
        },
        5 => match name {
            "class" => local_name!("class"),
            "title" => local_name!("title"),
            "style" => local_name!("style"),
            "value" => local_name!("value"),
            "input" => local_name!("input"),
            "label" => local_name!("label"),
            "table" => local_name!("table"),
            "width" => local_name!("width"),
            "tbody" => local_name!("tbody"),
            "small" => local_name!("small"),
            "align" => local_name!("align"),
            _ => return None,
        },
        6 => match name {
            "option" => local_name!("option"),
            "script" => local_name!("script"),
            "strong" => local_name!("strong"),
            "header" => local_name!("header"),
            "footer" => local_name!("footer"),
            "button" => local_name!("button"),
            "target" => local_name!("target"),
            "border" => local_name!("border"),
            "height" => local_name!("height"),
            "center" => local_name!("center"),
            _ => return None,
        },
        7 => match name {
            "article" => local_name!("article"),
            "section" => local_name!("section"),
            "content" => local_name!("content"),
            "colspan" => local_name!("colspan"),
            "onclick" => local_name!("onclick"),
            _ => return None,
        },
        8 => match name {
            "itemprop" => local_name!("itemprop"),
            "itemtype" => local_name!("itemtype"),
            "datetime" => local_name!("datetime"),
            "property" => local_name!("property"),
            "tabindex" => local_name!("tabindex"),
            _ => return None,
        },
        10 => match name {
            "blockquote" => local_name!("blockquote"),
            _ => return None,
        },
        11 => match name {
            "aria-hidden" => local_name!("aria-hidden"),
            _ => return None,
        },
        _ => return None,
    };
    Some(common)
}

impl<Sink: TokenSink> Tokenizer<'_, Sink> {
    /// The data state: text up to the next `<` or `&`, then whatever markup starts there.
    fn run(&mut self) -> Result<(), Unusual> {
        let mut position = 0;
        while position < self.bytes.len() {
            let Some(offset) = memchr2(b'<', b'&', &self.bytes[position..]) else {
                self.pending_text
                    .push_source(self.source, position, self.bytes.len());
                break;
            };
            let at = position + offset;
            self.pending_text.push_source(self.source, position, at);
            position = if self.bytes[at] == b'&' {
                self.pending_text.push_reference(self.source, at, false)
            } else {
                self.markup(at)?
            };
        }
        self.flush_text();
        Ok(())
    }

    fn flush_text(&mut self) {
        let text = self.pending_text.take(self.source);
        if !text.is_empty() {
            let _ = self.sink.process_token(Token::CharacterTokens(text), 1);
        }
    }

    /// Sends a token other than a tag, after the text before it.
    fn emit(&mut self, token: Token) {
        self.flush_text();
        let _ = self.sink.process_token(token, 1);
    }

    /// The tag open state at the `<` at byte `at`; returns the position after the markup (and
    /// after the raw text a start tag opened, with its end tag).
    fn markup(&mut self, at: usize) -> Result<usize, Unusual> {
        match self.bytes.get(at + 1) {
            None => Err(Unusual("the page ends after '<'")),
            Some(b'!') => self.declaration(at + 2),
            Some(b'/') => match self.bytes.get(at + 2) {
                None => Err(Unusual("the page ends after '</'")),
                Some(b'>') => Ok(at + 3),
                Some(byte) if byte.is_ascii_alphabetic() => self.tag(TagKind::EndTag, at + 2),
                Some(_) => self.bogus_comment(at + 2),
            },
            Some(b'?') => self.bogus_comment(at + 1),
            Some(byte) if byte.is_ascii_alphabetic() => self.tag(TagKind::StartTag, at + 1),
            Some(_) => {
                self.pending_text.push_source(self.source, at, at + 1);
                Ok(at + 1)
            }
        }
    }

    fn skip_whitespace(&self, mut position: usize) -> usize {
        while position < self.bytes.len() && is_tag_whitespace(self.bytes[position]) {
            position += 1;
        }
        position
    }

    /// A start or end tag whose name starts at byte `name_start`: its attributes, sent to the
    /// tree builder, and the raw text the tree builder may ask for after it.
    fn tag(&mut self, kind: TagKind, name_start: usize) -> Result<usize, Unusual> {
        let bytes = self.bytes;
        let mut position = name_start;
        while position < bytes.len() && !ends_tag_name(bytes[position]) {
            position += 1;
        }
        if position == bytes.len() {
            return Err(Unusual("the page ends inside a tag"));
        }
        let name = lowercase_name(&self.text[name_start..position]);
        let mut attributes: Vec<Attribute> = Vec::new();
        let mut had_duplicate_attributes = false;
        let mut self_closing = false;
        loop {
            // Before (and after) an attribute name.
            position = self.skip_whitespace(position);
            match bytes.get(position) {
                None => return Err(Unusual("the page ends inside a tag")),
                Some(b'>') => {
                    position += 1;
                    break;
                }
                Some(b'/') => match bytes.get(position + 1) {
                    None => return Err(Unusual("the page ends inside a tag")),
                    Some(b'>') => {
                        self_closing = true;
                        position += 2;
                        break;
                    }
                    // A stray `/` is dropped and the attributes go on.
                    Some(_) => position += 1,
                },
                Some(_) => {
                    let (attribute, after) = self.attribute(position)?;
                    position = after;
                    if attributes
                        .iter()
                        .any(|kept| kept.name.local == attribute.name.local)
                    {
                        had_duplicate_attributes = true;
                    } else {
                        attributes.push(attribute);
                    }
                }
            }
        }
        self.flush_text();
        if kind == TagKind::StartTag {
            self.last_start_tag = Some(name.clone());
        }
        let token = Token::TagToken(Tag {
            kind,
            name,
            self_closing,
            attrs: attributes,
            had_duplicate_attributes,
        });
        match self.sink.process_token(token, 1) {
            TokenSinkResult::Continue
            | TokenSinkResult::Script(_)
            | TokenSinkResult::EncodingIndicator(_) => Ok(position),
            TokenSinkResult::Plaintext => Err(Unusual("<plaintext>")),
            TokenSinkResult::RawData(RawKind::Rcdata) => self.raw_text(position, true),
            TokenSinkResult::RawData(RawKind::Rawtext) => self.raw_text(position, false),
            TokenSinkResult::RawData(RawKind::ScriptData) => self.script_data(position),
            TokenSinkResult::RawData(RawKind::ScriptDataEscaped(_)) => {
                Err(Unusual("escaped script data asked for by the tree builder"))
            }
        }
    }

    /// One attribute starting at byte `start` (its first character is part of its name even
    /// when it is `=`); returns it and the position after it.
    fn attribute(&mut self, start: usize) -> Result<(Attribute, usize), Unusual> {
        let bytes = self.bytes;
        let mut position = start + 1;
        while position < bytes.len() && !ends_tag_name(bytes[position]) && bytes[position] != b'=' {
            position += 1;
        }
        let name = lowercase_name(&self.text[start..position]);
        position = self.skip_whitespace(position);
        let mut value = StrTendril::new();
        if bytes.get(position) == Some(&b'=') {
            position = self.skip_whitespace(position + 1);
            match bytes.get(position) {
                None => return Err(Unusual("the page ends inside a tag")),
                Some(&quote @ (b'"' | b'\'')) => {
                    (value, position) = self.quoted_value(position + 1, quote)?;
                }
                // A missing value: the tag ends here.
                Some(b'>') => {}
                Some(_) => (value, position) = self.unquoted_value(position)?,
            }
        }
        let attribute = Attribute {
            name: QualName::new(None, ns!(), name),
            value,
        };
        Ok((attribute, position))
    }

    fn quoted_value(&mut self, start: usize, quote: u8) -> Result<(StrTendril, usize), Unusual> {
        let mut value = TextRun::default();
        let mut position = start;
        loop {
            let Some(offset) = memchr2(quote, b'&', &self.bytes[position..]) else {
                return Err(Unusual("the page ends inside an attribute value"));
            };
            let at = position + offset;
            value.push_source(self.source, position, at);
            if self.bytes[at] == quote {
                return Ok((value.take(self.source), at + 1));
            }
            position = value.push_reference(self.source, at, true);
        }
    }

    fn unquoted_value(&mut self, start: usize) -> Result<(StrTendril, usize), Unusual> {
        let mut value = TextRun::default();
        let mut position = start;
        loop {
            let rest = &self.bytes[position..];
            // Tabs, line feeds and form feeds also end the value; they are looked for byte by
            // byte, but only before the first of the usual delimiters, so a value costs its own
            // length and never the rest of the page.
            let delimiter = memchr3(b' ', b'>', b'&', rest);
            let other_whitespace = rest[..delimiter.unwrap_or(rest.len())]
                .iter()
                .position(|&byte| matches!(byte, b'\t' | b'\n' | b'\x0C'));
            let Some(offset) = other_whitespace.or(delimiter) else {
                return Err(Unusual("the page ends inside an attribute value"));
            };
            let at = position + offset;
            value.push_source(self.source, position, at);
            if self.bytes[at] != b'&' {
                return Ok((value.take(self.source), at));
            }
            position = value.push_reference(self.source, at, true);
        }
    }
}
