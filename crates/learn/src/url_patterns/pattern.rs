//! One URL pattern: its text syntax, its parsed form and matching, and the way a URL is cut into
//! path segments and query pairs (shared with learning, so that both sides cut URLs alike).

use std::fmt::Write as _;

use super::UrlPatternId;

/// Why a pattern text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlPatternError {
    /// The text does not begin with the path's leading slash.
    #[error(
        "URL pattern {text:?} must start with '/' (patterns are paths, without scheme or host)"
    )]
    MissingLeadingSlash {
        /// The text as given.
        text: String,
    },
    /// A `{` opens a wildcard that is never closed.
    #[error(
        "URL pattern {text:?} has a '{{' that is never closed; write '{{{{' for a literal brace"
    )]
    UnclosedBrace {
        /// The text as given.
        text: String,
    },
    /// A `}` closes nothing.
    #[error("URL pattern {text:?} has a stray '}}'; write '}}}}' for a literal brace")]
    StrayClosingBrace {
        /// The text as given.
        text: String,
    },
    /// A wildcard other than `{n}` and `{*}`.
    #[error("URL pattern {text:?} has the unknown wildcard {{{name}}}; only {{n}} and {{*}} exist")]
    UnknownWildcard {
        /// The text as given.
        text: String,
        /// What stood between the braces.
        name: String,
    },
    /// A query key holding a wildcard: keys are always literal.
    #[error("URL pattern {text:?} has a wildcard in the query key {key:?}; keys must be literal")]
    WildcardInKey {
        /// The text as given.
        text: String,
        /// The key as written.
        key: String,
    },
    /// A query pair with nothing before its `=`.
    #[error("URL pattern {text:?} has a query pair with an empty key")]
    EmptyKey {
        /// The text as given.
        text: String,
    },
}

/// One piece of a path segment or query value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Piece {
    /// These exact characters.
    Literal(String),
    /// `{n}`: one or more ASCII digits.
    Number,
    /// `{*}`: one or more characters of any kind.
    Wildcard,
}

/// A URL pattern: literal text with `{n}` and `{*}` wildcards in path segments and query
/// values, and a fixed set of query keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlPattern {
    id: UrlPatternId,
    text: String,
    segments: Vec<Vec<Piece>>,
    trailing_slash: bool,
    /// Query pairs sorted by key (stably, so repeated keys keep their written order); `None`
    /// stands for a key written without `=`, like SMF's `;wap2`.
    pairs: Vec<(String, Option<Vec<Piece>>)>,
}

impl UrlPattern {
    /// The pattern's id.
    pub fn id(&self) -> UrlPatternId {
        self.id
    }

    /// Human-readable, human-editable text, e.g. `/viewtopic.php?start={n}&t={n}` or
    /// `/threads/{*}.{n}/page-{n}`. Query keys are sorted, and `&` separates pairs even where the
    /// site uses `;`. Literal braces are doubled. [`UrlPattern::parse`] reads it back unchanged.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Reads a pattern text. Pairs may be separated by `&` or `;` and written in any order; the
    /// stored text is normalised (keys sorted, `&` separators), so `parse(p.text())` gives `p`.
    pub fn parse(id: UrlPatternId, text: &str) -> Result<UrlPattern, UrlPatternError> {
        if !text.starts_with('/') {
            return Err(UrlPatternError::MissingLeadingSlash {
                text: text.to_string(),
            });
        }
        let (path, query) = text.split_once('?').unwrap_or((text, ""));
        let (segments, trailing_slash) = path_segments(path);
        let segments = segments
            .map(|segment| parse_pieces(segment, text))
            .collect::<Result<Vec<_>, _>>()?;
        let mut pairs = Vec::new();
        for pair in query.split(['&', ';']).filter(|pair| !pair.is_empty()) {
            let (key, value) = match pair.split_once('=') {
                Some((key, value)) => (key, Some(value)),
                None => (pair, None),
            };
            if key.is_empty() {
                return Err(UrlPatternError::EmptyKey {
                    text: text.to_string(),
                });
            }
            let key_text = match parse_pieces(key, text)?.as_slice() {
                [Piece::Literal(literal)] => literal.clone(),
                _ => {
                    return Err(UrlPatternError::WildcardInKey {
                        text: text.to_string(),
                        key: key.to_string(),
                    });
                }
            };
            let value = value.map(|value| parse_pieces(value, text)).transpose()?;
            pairs.push((key_text, value));
        }
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut pattern = UrlPattern {
            id,
            text: String::new(),
            segments,
            trailing_slash,
            pairs,
        };
        pattern.text = pattern.render();
        Ok(pattern)
    }

    /// True when `url`'s path and query fit the pattern: the same number of path segments, the
    /// same trailing slash, the same query keys, and every segment and value matching. The host,
    /// scheme and fragment are not looked at.
    pub fn matches(&self, url: &url::Url) -> bool {
        self.matches_parts(&UrlParts::of(url))
    }

    pub(super) fn matches_parts(&self, parts: &UrlParts<'_>) -> bool {
        if parts.segments.len() != self.segments.len()
            || parts.trailing_slash != self.trailing_slash
            || parts.sorted_pairs.len() != self.pairs.len()
        {
            return false;
        }
        let segments_match = self
            .segments
            .iter()
            .zip(&parts.segments)
            .all(|(pieces, segment)| pieces_match(pieces, segment));
        segments_match
            && self.pairs.iter().zip(&parts.sorted_pairs).all(
                |((key, pieces), (url_key, value))| {
                    key == url_key
                        && match (pieces, value) {
                            (Some(pieces), Some(value)) => pieces_match(pieces, value),
                            (None, None) => true,
                            _ => false,
                        }
                },
            )
    }

    /// The key that files the pattern in [`super::UrlPatternSet`]'s index: only URLs with this
    /// key can match.
    pub(super) fn shape_key(&self) -> String {
        shape_key(
            self.segments.len(),
            self.trailing_slash,
            self.pairs.iter().map(|(key, _)| key.as_str()),
        )
    }

    /// How specific the pattern is, largest first when sorted: literal characters, then fewer
    /// wildcards, then more numbers. Among patterns matching one URL, the most specific wins.
    pub(super) fn specificity(&self) -> (usize, std::cmp::Reverse<usize>, usize) {
        let all_pieces = self
            .segments
            .iter()
            .chain(self.pairs.iter().filter_map(|(_, value)| value.as_ref()))
            .flatten();
        let (mut literal, mut wildcards, mut numbers) = (0, 0, 0);
        for piece in all_pieces {
            match piece {
                Piece::Literal(text) => literal += text.len(),
                Piece::Number => numbers += 1,
                Piece::Wildcard => wildcards += 1,
            }
        }
        (literal, std::cmp::Reverse(wildcards), numbers)
    }

    fn render(&self) -> String {
        let mut text = String::from("/");
        for (index, pieces) in self.segments.iter().enumerate() {
            if index > 0 {
                text.push('/');
            }
            render_pieces(pieces, &mut text);
        }
        if self.trailing_slash && !self.segments.is_empty() {
            text.push('/');
        }
        for (index, (key, value)) in self.pairs.iter().enumerate() {
            text.push(if index == 0 { '?' } else { '&' });
            escape_into(key, &mut text);
            if let Some(pieces) = value {
                text.push('=');
                render_pieces(pieces, &mut text);
            }
        }
        text
    }
}

/// The index key of a URL shape; `/` or `.` records the trailing slash.
pub(super) fn shape_key<'k>(
    segments: usize,
    trailing_slash: bool,
    keys: impl Iterator<Item = &'k str>,
) -> String {
    let mut key = String::new();
    let _ = write!(key, "{segments}{}", if trailing_slash { '/' } else { '.' });
    for name in keys {
        key.push('&');
        key.push_str(name);
    }
    key
}

/// Cuts a URL's path into segments, noting a trailing slash. The root path has no segments
/// and counts as ending with a slash.
pub(super) fn path_segments(path: &str) -> (impl Iterator<Item = &str>, bool) {
    let path = path.strip_prefix('/').unwrap_or(path);
    let (body, trailing_slash) = match path.strip_suffix('/') {
        Some(body) => (body, true),
        None => (path, path.is_empty()),
    };
    let count = if path.is_empty() { 0 } else { usize::MAX };
    (body.split('/').take(count), trailing_slash)
}

/// Cuts a URL's query into pairs as written. `&` and `;` both separate pairs, because SMF-like
/// engines use `;`; pairs with an empty key carry nothing a pattern could name and are dropped.
/// The separators are found byte by byte: they are ASCII, and `str::split` with a set of
/// characters decodes every character, which learning cannot afford on every URL.
pub(super) fn query_pairs(query: &str) -> impl Iterator<Item = (&str, Option<&str>)> {
    let mut rest = Some(query);
    std::iter::from_fn(move || {
        let text = rest?;
        let end = text.bytes().position(|byte| byte == b'&' || byte == b';');
        rest = end.map(|end| &text[end + 1..]);
        Some(&text[..end.unwrap_or(text.len())])
    })
    .map(|pair| match pair.split_once('=') {
        Some((key, value)) => (key, Some(value)),
        None => (pair, None),
    })
    .filter(|(key, _)| !key.is_empty())
}

/// A URL cut the way patterns see it, pairs sorted by key (stably). Everything borrows from the
/// URL.
#[derive(Debug, Clone)]
pub(super) struct UrlParts<'a> {
    segments: Vec<&'a str>,
    trailing_slash: bool,
    sorted_pairs: Vec<(&'a str, Option<&'a str>)>,
}

impl<'a> UrlParts<'a> {
    pub(super) fn of(url: &'a url::Url) -> UrlParts<'a> {
        let (segments, trailing_slash) = path_segments(url.path());
        let segments = segments.collect();
        let mut sorted_pairs: Vec<_> = query_pairs(url.query().unwrap_or("")).collect();
        sorted_pairs.sort_by(|a, b| a.0.cmp(b.0));
        UrlParts {
            segments,
            trailing_slash,
            sorted_pairs,
        }
    }

    pub(super) fn shape_key(&self) -> String {
        shape_key(
            self.segments.len(),
            self.trailing_slash,
            self.sorted_pairs.iter().map(|(key, _)| *key),
        )
    }
}

/// Appends `text` with its braces doubled, so that it reads back as literal text.
pub(super) fn escape_into(text: &str, out: &mut String) {
    if !text.bytes().any(|byte| byte == b'{' || byte == b'}') {
        out.push_str(text);
        return;
    }
    for character in text.chars() {
        match character {
            '{' => out.push_str("{{"),
            '}' => out.push_str("}}"),
            other => out.push(other),
        }
    }
}

fn render_pieces(pieces: &[Piece], out: &mut String) {
    for piece in pieces {
        match piece {
            Piece::Literal(text) => escape_into(text, out),
            Piece::Number => out.push_str("{n}"),
            Piece::Wildcard => out.push_str("{*}"),
        }
    }
}

/// Reads one segment, key or value; `whole` is the full pattern text, for error messages.
pub(super) fn parse_pieces(text: &str, whole: &str) -> Result<Vec<Piece>, UrlPatternError> {
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut rest = text;
    while let Some(character) = rest.chars().next() {
        rest = &rest[character.len_utf8()..];
        match character {
            '{' if rest.starts_with('{') => {
                literal.push('{');
                rest = &rest[1..];
            }
            '}' if rest.starts_with('}') => {
                literal.push('}');
                rest = &rest[1..];
            }
            '}' => {
                return Err(UrlPatternError::StrayClosingBrace {
                    text: whole.to_string(),
                });
            }
            '{' => {
                let Some((name, after)) = rest.split_once('}') else {
                    return Err(UrlPatternError::UnclosedBrace {
                        text: whole.to_string(),
                    });
                };
                let piece = match name {
                    "n" => Piece::Number,
                    "*" => Piece::Wildcard,
                    _ => {
                        return Err(UrlPatternError::UnknownWildcard {
                            text: whole.to_string(),
                            name: name.to_string(),
                        });
                    }
                };
                if !literal.is_empty() {
                    pieces.push(Piece::Literal(std::mem::take(&mut literal)));
                }
                pieces.push(piece);
                rest = after;
            }
            other => literal.push(other),
        }
    }
    if !literal.is_empty() {
        pieces.push(Piece::Literal(literal));
    }
    Ok(pieces)
}

/// Whether `pieces` match all of `text`. Numbers and wildcards backtrack; a wildcard followed by
/// literal text only tries the places where that text occurs, which keeps hand-written patterns
/// with several wildcards cheap.
pub(super) fn pieces_match(pieces: &[Piece], text: &str) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return text.is_empty();
    };
    match first {
        Piece::Literal(literal) => text
            .strip_prefix(literal.as_str())
            .is_some_and(|after| pieces_match(rest, after)),
        Piece::Number => {
            let digits = text.bytes().take_while(u8::is_ascii_digit).count();
            (1..=digits)
                .rev()
                .any(|length| pieces_match(rest, &text[length..]))
        }
        Piece::Wildcard => {
            let Some(first_character) = text.chars().next() else {
                return false;
            };
            let start = first_character.len_utf8();
            let next_literal = match rest.first() {
                None => return true,
                Some(Piece::Literal(literal)) => literal.as_str(),
                Some(_) => "",
            };
            (start..=text.len())
                .filter(|&end| text.is_char_boundary(end))
                .filter(|&end| text[end..].starts_with(next_literal))
                .any(|end| pieces_match(rest, &text[end..]))
        }
    }
}
