//! Markup declarations: comments, doctypes and bogus comments.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{Doctype, Token, TokenSink};
use memchr::{memchr, memmem};

use super::{Tokenizer, Unusual, is_tag_whitespace};

impl<Sink: TokenSink> Tokenizer<'_, Sink> {
    /// The markup declaration open state, after `<!` (at byte `start`).
    pub(super) fn declaration(&mut self, start: usize) -> Result<usize, Unusual> {
        let rest = &self.bytes[start..];
        if rest.starts_with(b"--") {
            return self.comment(start + 2);
        }
        // html5ever waits for more input while the declaration could still become `DOCTYPE`
        // or `[CDATA[`; a page ending that close to `<!` is left to it.
        if rest.len() < 7 {
            return Err(Unusual("the page ends inside a markup declaration"));
        }
        if rest[..7].eq_ignore_ascii_case(b"DOCTYPE") {
            return self.doctype(start + 7);
        }
        if rest.starts_with(b"[CDATA[") {
            return Err(Unusual("a CDATA section"));
        }
        self.bogus_comment(start)
    }

    /// A bogus comment (`<?xml ...>`, `<!ELEMENT ...>`, `</ 3>`) whose text starts at byte
    /// `start` and runs to the next `>`.
    pub(super) fn bogus_comment(&mut self, start: usize) -> Result<usize, Unusual> {
        let Some(offset) = memchr(b'>', &self.bytes[start..]) else {
            return Err(Unusual("the page ends inside a bogus comment"));
        };
        let end = start + offset;
        let data = self.slice(start, end);
        self.emit(Token::CommentToken(data));
        Ok(end + 1)
    }

    /// A comment whose text starts at byte `start`, after `<!--`.
    ///
    /// Usually the comment ends at the first `-->` or `--!>` (dashes before them belong to
    /// the text) and `<!-->` and `<!--->` are empty comments. Only a `<!-` inside reaches the
    /// nested-comment states, which can end a comment elsewhere (`<!--a<!-->` ends at its
    /// `-->`, `<!--<!-->` does not): then the comment states are followed character by
    /// character.
    fn comment(&mut self, start: usize) -> Result<usize, Unusual> {
        let rest = &self.bytes[start..];
        let plain_end = memmem::find(rest, b"-->");
        // A `--!>` ends the comment only if it starts before the first `-->`: looking for it
        // further would read the rest of the page again for every comment of a page that has
        // none, which is most pages.
        let bang_search_end = plain_end.map_or(rest.len(), |plain| plain + 3);
        let bang_end = memmem::find(&rest[..bang_search_end], b"--!>");
        let first_end = match (plain_end, bang_end) {
            (Some(plain), Some(bang)) if bang < plain => Some((bang, 4)),
            (Some(plain), _) => Some((plain, 3)),
            (None, Some(bang)) => Some((bang, 4)),
            (None, None) => None,
        };
        let simple = !rest.starts_with(b">")
            && !rest.starts_with(b"->")
            && first_end.is_some_and(|(end, _)| memmem::find(&rest[..end + 2], b"<!-").is_none());
        let (data_end, after) = match first_end {
            Some((end, terminator_length)) if simple => {
                (start + end, start + end + terminator_length)
            }
            _ => comment_states(self.bytes, start)?,
        };
        let data = self.slice(start, data_end);
        self.emit(Token::CommentToken(data));
        Ok(after)
    }

    /// A doctype after `<!DOCTYPE` (at byte `start`), in the grammar pages use:
    /// `<!DOCTYPE name>`, `<!DOCTYPE name PUBLIC "id">`, `<!DOCTYPE name PUBLIC "id" "id">` and
    /// `<!DOCTYPE name SYSTEM "id">`, keywords in any case, quotes single or double. Anything
    /// else sets html5ever's force-quirks flag in one of a dozen ways and goes to html5ever.
    fn doctype(&mut self, start: usize) -> Result<usize, Unusual> {
        let unusual = Unusual("an unusual doctype");
        let bytes = self.bytes;
        let mut position = self.skip_whitespace(start);
        if position == start {
            return Err(unusual);
        }
        let name_start = position;
        while position < bytes.len()
            && !is_tag_whitespace(bytes[position])
            && bytes[position] != b'>'
        {
            position += 1;
        }
        if position == name_start || position == bytes.len() {
            return Err(unusual);
        }
        let name = StrTendril::from_slice(&self.text[name_start..position].to_ascii_lowercase());
        position = self.skip_whitespace(position);
        let mut public_id = None;
        let mut system_id = None;
        if bytes.get(position) != Some(&b'>') {
            let keyword = bytes.get(position..position + 6).ok_or(unusual)?;
            let public = keyword.eq_ignore_ascii_case(b"PUBLIC");
            if !public && !keyword.eq_ignore_ascii_case(b"SYSTEM") {
                return Err(unusual);
            }
            let after_keyword = position + 6;
            position = self.skip_whitespace(after_keyword);
            if position == after_keyword {
                return Err(unusual);
            }
            let (first, after_first) = self.doctype_identifier(position).ok_or(unusual)?;
            position = after_first;
            if public {
                public_id = Some(first);
                let after_space = self.skip_whitespace(position);
                if matches!(bytes.get(after_space), Some(b'"' | b'\'')) {
                    if after_space == position {
                        return Err(unusual);
                    }
                    let (second, after_second) =
                        self.doctype_identifier(after_space).ok_or(unusual)?;
                    system_id = Some(second);
                    position = after_second;
                }
            } else {
                system_id = Some(first);
            }
            position = self.skip_whitespace(position);
            if bytes.get(position) != Some(&b'>') {
                return Err(unusual);
            }
        }
        self.emit(Token::DoctypeToken(Doctype {
            name: Some(name),
            public_id,
            system_id,
            force_quirks: false,
        }));
        Ok(position + 1)
    }

    /// A quoted public or system identifier at byte `start`; `None` unless it is quoted and
    /// closed before any `>`.
    fn doctype_identifier(&self, start: usize) -> Option<(StrTendril, usize)> {
        let quote = *self.bytes.get(start)?;
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        let rest = &self.bytes[start + 1..];
        let close = memchr(quote, rest)?;
        if memchr(b'>', &rest[..close]).is_some() {
            return None;
        }
        let value = StrTendril::from_slice(&self.text[start + 1..start + 1 + close]);
        Some((value, start + 1 + close + 1))
    }

    /// Bytes `start..end` of the page as a shared slice of its buffer.
    pub(super) fn slice(&self, start: usize, end: usize) -> StrTendril {
        self.source.subtendril(start as u32, (end - start) as u32)
    }
}

/// The comment states of the WHATWG tokenizer from byte `start` (after `<!--`): where the
/// comment's text ends and where reading goes on after its `>`.
///
/// Every character read joins the text in order, except dashes (and a `!`) that may still turn
/// out to close it, so the text is always the page from `start` to the first character not yet
/// known to belong to it (`committed`).
fn comment_states(bytes: &[u8], start: usize) -> Result<(usize, usize), Unusual> {
    #[derive(Clone, Copy)]
    enum State {
        Start,
        StartDash,
        Text,
        LessThan,
        LessThanBang,
        LessThanBangDash,
        LessThanBangDashDash,
        EndDash,
        End,
        EndBang,
    }
    let mut state = State::Start;
    let mut position = start;
    let mut committed = start;
    loop {
        let Some(&byte) = bytes.get(position) else {
            return Err(Unusual("the page ends inside a comment"));
        };
        // Each arm either consumes the byte (moving `position`) or reconsumes it in another
        // state.
        match state {
            State::Start => match byte {
                b'-' => {
                    position += 1;
                    state = State::StartDash;
                }
                b'>' => return Ok((start, position + 1)),
                _ => state = State::Text,
            },
            State::StartDash => match byte {
                b'-' => {
                    position += 1;
                    state = State::End;
                }
                b'>' => return Ok((start, position + 1)),
                _ => {
                    committed = position;
                    state = State::Text;
                }
            },
            State::Text => {
                position += 1;
                match byte {
                    b'<' => {
                        committed = position;
                        state = State::LessThan;
                    }
                    b'-' => state = State::EndDash,
                    _ => committed = position,
                }
            }
            State::LessThan => match byte {
                b'!' => {
                    position += 1;
                    committed = position;
                    state = State::LessThanBang;
                }
                b'<' => {
                    position += 1;
                    committed = position;
                }
                _ => state = State::Text,
            },
            State::LessThanBang => match byte {
                b'-' => {
                    position += 1;
                    state = State::LessThanBangDash;
                }
                _ => state = State::Text,
            },
            State::LessThanBangDash => match byte {
                b'-' => {
                    position += 1;
                    state = State::LessThanBangDashDash;
                }
                _ => state = State::EndDash,
            },
            State::LessThanBangDashDash => state = State::End,
            State::EndDash => match byte {
                b'-' => {
                    position += 1;
                    state = State::End;
                }
                _ => {
                    committed = position;
                    state = State::Text;
                }
            },
            State::End => match byte {
                b'>' => return Ok((committed, position + 1)),
                b'!' => {
                    position += 1;
                    state = State::EndBang;
                }
                b'-' => {
                    position += 1;
                    committed = position - 2;
                }
                _ => {
                    committed = position;
                    state = State::Text;
                }
            },
            State::EndBang => match byte {
                b'-' => {
                    committed = position;
                    position += 1;
                    state = State::EndDash;
                }
                b'>' => return Ok((committed, position + 1)),
                _ => {
                    committed = position;
                    state = State::Text;
                }
            },
        }
    }
}
