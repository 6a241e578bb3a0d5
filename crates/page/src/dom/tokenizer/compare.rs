//! This tokenizer against html5ever's, token for token, each driving a real tree builder (whose
//! answers switch both into raw text). Text is compared after joining adjacent text tokens,
//! since where a run of text is cut is free; parse errors are not compared (this tokenizer
//! reports none, and the tree builder only counts them). The tests use it on fixed pages and
//! `trawl bench fuzz` on every input it makes; parsing itself never calls it.

use std::cell::RefCell;

use html5ever::tokenizer::{Token, TokenSink, TokenSinkResult};

use super::super::{page_tree_builder, run_html5ever_tokenizer};
use super::{Unusual, prepare, tokenize};

/// What a tree builder was sent, in order.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Sent {
    Text(String),
    Other(String),
}

/// Passes tokens on to a tree builder and writes down what it passed.
struct Recorder<'builder, Inner> {
    inner: &'builder Inner,
    sent: RefCell<Vec<Sent>>,
}

impl<Inner: TokenSink> TokenSink for Recorder<'_, Inner> {
    type Handle = Inner::Handle;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<Inner::Handle> {
        {
            let mut sent = self.sent.borrow_mut();
            match &token {
                Token::ParseError(_) => {}
                Token::CharacterTokens(text) => match sent.last_mut() {
                    Some(Sent::Text(previous)) => previous.push_str(text),
                    _ => sent.push(Sent::Text(text.to_string())),
                },
                other => sent.push(Sent::Other(describe(other))),
            }
        }
        self.inner.process_token(token, line_number)
    }

    fn end(&self) {
        self.inner.end()
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.inner
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// A token other than text, in words that do not depend on how its strings are stored.
fn describe(token: &Token) -> String {
    match token {
        Token::TagToken(tag) => {
            let attributes: Vec<String> = tag
                .attrs
                .iter()
                .map(|attribute| format!("{}={:?}", &*attribute.name.local, &*attribute.value))
                .collect();
            format!(
                "{:?} {} {attributes:?} self-closing {} duplicates {}",
                tag.kind, &*tag.name, tag.self_closing, tag.had_duplicate_attributes
            )
        }
        Token::DoctypeToken(doctype) => format!(
            "doctype {:?} {:?} {:?} quirks {}",
            doctype.name.as_deref(),
            doctype.public_id.as_deref(),
            doctype.system_id.as_deref(),
            doctype.force_quirks
        ),
        Token::CommentToken(text) => format!("comment {:?}", &**text),
        other => format!("{other:?}"),
    }
}

/// What html5ever's tokenizer sends to the tree builder parsing uses (`page_tree_builder`, behind
/// the step that closes self-closed elements): the tokens are recorded before that step, as the
/// tokenizer makes them, while the tree builder's answers are the ones parsing sees.
fn html5ever_tokens(html: &str) -> Vec<Sent> {
    let builder = page_tree_builder(html);
    let recorder = Recorder {
        inner: &builder,
        sent: RefCell::default(),
    };
    run_html5ever_tokenizer(recorder, html).sent.into_inner()
}

/// The same for this crate's tokenizer, or why it refused the page.
pub(crate) fn our_tokens(html: &str) -> Result<Vec<Sent>, Unusual> {
    let builder = page_tree_builder(html);
    let recorder = Recorder {
        inner: &builder,
        sent: RefCell::default(),
    };
    let source = prepare(html)?;
    tokenize(&source, &recorder)?;
    Ok(recorder.sent.into_inner())
}

/// What comparing the two tokenizers on one page found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenizerCheck {
    /// Both gave the tree builder the same tokens.
    Agrees,
    /// This crate's tokenizer refused the page (the reason), so html5ever's parses it.
    Refused(&'static str),
    /// They differ: the first difference, in words.
    Differs(String),
}

/// Compares the two tokenizers on `html`, running each once.
pub(crate) fn check(html: &str) -> TokenizerCheck {
    let ours = match our_tokens(html) {
        Ok(ours) => ours,
        Err(unusual) => return TokenizerCheck::Refused(unusual.0),
    };
    let theirs = html5ever_tokens(html);
    if ours == theirs {
        return TokenizerCheck::Agrees;
    }
    let first = ours
        .iter()
        .zip(&theirs)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(theirs.len()));
    TokenizerCheck::Differs(format!(
        "token {first}: ours {:?}, html5ever's {:?} ({} and {} tokens)",
        ours.get(first),
        theirs.get(first),
        ours.len(),
        theirs.len()
    ))
}
