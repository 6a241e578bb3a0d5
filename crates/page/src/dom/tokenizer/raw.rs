//! Raw text: RCDATA (`<title>`, `<textarea>`), RAWTEXT (`<style>`, `<iframe>`, `<noembed>`,
//! ...) and script data, as the tree builder asks for them after their start tags.

use html5ever::tokenizer::{TagKind, TokenSink};
use memchr::{memchr, memchr2, memmem};

use super::{Tokenizer, Unusual, ends_tag_name};

impl<Sink: TokenSink> Tokenizer<'_, Sink> {
    /// Where the name of an end tag closing the current raw text starts, when the `<` at byte
    /// `at` opens one: `</`, then the name of the last start tag in any case, then whitespace,
    /// `/` or `>`. Anything else there is text (`</b>` inside a script, `</titles>`).
    fn closing_tag_name_at(&self, at: usize) -> Option<usize> {
        let bytes = self.bytes;
        if bytes.get(at + 1) != Some(&b'/') {
            return None;
        }
        let name = self.last_start_tag.as_ref()?;
        let name_start = at + 2;
        let name_end = name_start + name.len();
        let candidate = bytes.get(name_start..name_end)?;
        let terminated = bytes.get(name_end).is_some_and(|&byte| ends_tag_name(byte));
        (terminated && candidate.eq_ignore_ascii_case(name.as_bytes())).then_some(name_start)
    }

    /// RCDATA (`rcdata`, with character references) or RAWTEXT from byte `start` up to the
    /// end tag that closes it, which is then read as any tag.
    pub(super) fn raw_text(&mut self, start: usize, rcdata: bool) -> Result<usize, Unusual> {
        let mut position = start;
        loop {
            let rest = &self.bytes[position..];
            let found = if rcdata {
                memchr2(b'<', b'&', rest)
            } else {
                memchr(b'<', rest)
            };
            let Some(offset) = found else {
                // The page ends inside the raw text: the text is all there is.
                self.pending_text
                    .push_source(self.source, position, self.bytes.len());
                return Ok(self.bytes.len());
            };
            let at = position + offset;
            self.pending_text.push_source(self.source, position, at);
            if self.bytes[at] == b'&' {
                position = self.pending_text.push_reference(self.source, at, false);
            } else if let Some(name_start) = self.closing_tag_name_at(at) {
                return self.tag(TagKind::EndTag, name_start);
            } else {
                self.pending_text.push_source(self.source, at, at + 1);
                position = at + 1;
            }
        }
    }

    /// Script data from byte `start` up to its `</script>`.
    ///
    /// `<!--` inside a script switches the tokenizer to its escaped states until `-->`; there
    /// `</script>` still ends the script, but `<script` opens the double-escaped states, in
    /// which it does not, until `</script` (back to escaped) or `-->` (back to plain script
    /// data). A `-->` counts wherever its dashes follow each other, the dashes of the `<!--`
    /// included (`<!-->` closes at once). The script's text has no character references, so it
    /// is sent as one slice of the page.
    pub(super) fn script_data(&mut self, start: usize) -> Result<usize, Unusual> {
        let bytes = self.bytes;
        let mut position = start;
        let mut mode = ScriptMode::Plain;
        // In the escaped states, where a closing `-->` may begin.
        let mut dashes_from = start;
        loop {
            if mode == ScriptMode::DoubleEscaped {
                let end = self.double_escape_end(position);
                // Only a `-->` before that `</script` counts; the search stops there so that
                // each round reads the page once.
                let close_search_end = end.map_or(bytes.len(), |(less_than, _)| less_than);
                let close = memmem::find(&bytes[dashes_from..close_search_end], b"-->")
                    .map(|at| dashes_from + at);
                match (close, end) {
                    (Some(close), end) if end.is_none_or(|(less_than, _)| close < less_than) => {
                        mode = ScriptMode::Plain;
                        position = close + 3;
                    }
                    (_, Some((_, after))) => {
                        mode = ScriptMode::Escaped;
                        position = after;
                        dashes_from = after;
                    }
                    _ => return Ok(self.script_text_to_end(start)),
                }
                continue;
            }
            let next_less_than = memchr(b'<', &bytes[position..]).map(|offset| position + offset);
            if mode == ScriptMode::Escaped {
                let search_end = next_less_than.unwrap_or(bytes.len());
                if let Some(offset) = memmem::find(&bytes[dashes_from..search_end], b"-->") {
                    mode = ScriptMode::Plain;
                    position = dashes_from + offset + 3;
                    continue;
                }
            }
            let Some(at) = next_less_than else {
                return Ok(self.script_text_to_end(start));
            };
            if let Some(name_start) = self.closing_tag_name_at(at) {
                self.pending_text.push_source(self.source, start, at);
                return self.tag(TagKind::EndTag, name_start);
            }
            if mode == ScriptMode::Plain {
                if bytes[at + 1..].starts_with(b"!--") {
                    mode = ScriptMode::Escaped;
                    dashes_from = at + 2;
                    position = at + 4;
                } else {
                    position = at + 1;
                }
                continue;
            }
            // Escaped: `<script` followed by whitespace, `/` or `>` (which it consumes) opens
            // the double-escaped states; other letters are text.
            let letters_end = self.letters_end(at + 1);
            if bytes[at + 1..letters_end].eq_ignore_ascii_case(b"script")
                && bytes
                    .get(letters_end)
                    .is_some_and(|&byte| ends_tag_name(byte))
            {
                mode = ScriptMode::DoubleEscaped;
                position = letters_end + 1;
            } else {
                position = letters_end.max(at + 1);
            }
            dashes_from = position;
        }
    }

    /// Sends the script's text from `start` to the end of the page, where it ends unclosed.
    fn script_text_to_end(&mut self, start: usize) -> usize {
        self.pending_text
            .push_source(self.source, start, self.bytes.len());
        self.bytes.len()
    }

    fn letters_end(&self, mut position: usize) -> usize {
        while position < self.bytes.len() && self.bytes[position].is_ascii_alphabetic() {
            position += 1;
        }
        position
    }

    /// In the double-escaped states, the first `</script` followed by whitespace, `/` or `>`
    /// from byte `position`: where its `<` is and where reading goes on after it.
    fn double_escape_end(&self, mut position: usize) -> Option<(usize, usize)> {
        let bytes = self.bytes;
        while let Some(offset) = memchr(b'<', &bytes[position..]) {
            let at = position + offset;
            if bytes.get(at + 1) == Some(&b'/') {
                let letters_end = self.letters_end(at + 2);
                if bytes[at + 2..letters_end].eq_ignore_ascii_case(b"script")
                    && bytes
                        .get(letters_end)
                        .is_some_and(|&byte| ends_tag_name(byte))
                {
                    return Some((at, letters_end + 1));
                }
            }
            position = at + 1;
        }
        None
    }
}

/// Which of the script data states the tokenizer is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ScriptMode {
    Plain,
    Escaped,
    DoubleEscaped,
}
