//! Learning pattern texts from sampled URLs. The rules are explained in the parent module's
//! documentation; value shapes live in `shapes.rs`.
//!
//! Every URL is cut once into a flat table of values (no allocation per URL), each value's
//! digit-generalised text is interned, and the trie works on indexes and ids; strings are only
//! built for the patterns themselves.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

use super::pattern::{Piece, escape_into, parse_pieces, path_segments, pieces_match, query_pairs};
use super::shapes::{FastMap, FastSet, Scan, Template, holds_path, is_slug_shaped, scan};

/// A position whose values include at least this many distinct forms, most of them seen once,
/// holds names rather than a vocabulary (user names without digits, for instance). Engines pick
/// page kinds from a few dozen words at most, and a guest sees fewer still.
const MANY_DISTINCT_VALUES: usize = 32;
/// In a free segment, a value whose variable part is all digits joins a `{*}` form at least this
/// many times as common as its own `{n}` form.
const DIGIT_CORE_FOLD_RATIO: usize = 4;
/// The base of a query key written without `=`.
const NO_VALUE: u32 = u32::MAX;

/// The site's host and the distinct pattern texts learned, sorted.
pub(super) struct Learned {
    pub(super) host: Option<String>,
    pub(super) texts: Vec<String>,
}

pub(super) fn learn<'a>(urls: impl IntoIterator<Item = &'a url::Url>) -> Learned {
    let urls: Vec<&url::Url> = urls.into_iter().collect();
    let Some(host) = site_host(&urls) else {
        return Learned {
            host: None,
            texts: Vec::new(),
        };
    };
    let mut learner = Learner::default();
    learner.samples.reserve(urls.len());
    learner.values.reserve(urls.len() * 4);
    // Links to one page repeat on every page that carries them; counting them once makes the
    // statistics describe the site rather than its navigation bar.
    let mut seen: FastSet<(&str, &str)> = FastSet::default();
    seen.reserve(urls.len());
    for url in urls.iter().filter(|url| url.host_str() == Some(host)) {
        let query = url.query().unwrap_or("");
        if seen.insert((url.path(), query)) {
            learner.add(url.path(), query);
        }
    }
    learner.rank_keys();
    let everyone = (0..learner.samples.len() as u32).collect();
    learner.split_path(everyone, 0, &mut Vec::new());
    Learned {
        host: Some(host.to_string()),
        texts: learner.texts.into_iter().collect(),
    }
}

/// The host named most often (ties go to the smallest name, so input order does not matter).
/// Runs of one host are counted before touching the table, as samples come page by page.
fn site_host<'a>(urls: &[&'a url::Url]) -> Option<&'a str> {
    let mut counts: FastMap<&str, usize> = FastMap::default();
    let mut run: Option<(&str, usize)> = None;
    for host in urls.iter().filter_map(|url| url.host_str()) {
        match &mut run {
            Some((current, length)) if *current == host => *length += 1,
            _ => {
                if let Some((current, length)) = run.replace((host, 1)) {
                    *counts.entry(current).or_default() += length;
                }
            }
        }
    }
    if let Some((current, length)) = run {
        *counts.entry(current).or_default() += length;
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map(|(host, _)| host)
}

/// One distinct URL: its values are `values[first..first + segments + pairs]`, segments first,
/// then query pairs as written.
#[derive(Debug, Clone, Copy)]
struct Sample {
    first: u32,
    segments: u32,
    pairs: u32,
    trailing_slash: bool,
}

/// What learning needs to know about one path segment or query value.
#[derive(Debug, Clone, Copy)]
struct Value<'a> {
    raw: &'a str,
    /// Interned text of the value as a literal position spells it (digits generalised, opaque
    /// ids already wildcarded), or [`NO_VALUE`].
    base: u32,
    /// For query values, the interned key; for segments, unused.
    key: u32,
    /// A hash of the first digit run (0: none), the value's candidate entity id.
    first_run: u64,
    /// A hash of all its digit runs (0: none), to see whether a slot's digits vary.
    digits: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    Literal,
    Free,
}

/// One value at the position being decided: sample index, base and raw text.
type Entry<'a> = (u32, u32, &'a str);

#[derive(Default)]
struct Learner<'a> {
    samples: Vec<Sample>,
    values: Vec<Value<'a>>,
    /// Raw query keys by key id.
    key_names: Vec<&'a str>,
    key_ids: FastMap<&'a str, u32>,
    /// Per key id, its place among the keys sorted by name (filled before splitting).
    key_ranks: Vec<u32>,
    strings: Vec<String>,
    string_ids: FastMap<String, u32>,
    /// Bases made by wildcarding opaque ids; they count as free text.
    opaque_bases: FastSet<u32>,
    /// The most segments any sample has: query keys' slots are numbered after them.
    most_segments: u32,
    buffer: String,
    texts: BTreeSet<String>,
}

impl<'a> Learner<'a> {
    fn add(&mut self, path: &'a str, query: &'a str) {
        let first = self.values.len() as u32;
        let (segments, trailing_slash) = path_segments(path);
        for raw in segments {
            self.buffer.clear();
            let mut found = scan(raw, &mut self.buffer);
            if found.opaque {
                match Template::of(raw) {
                    Some(template) => {
                        self.buffer.clear();
                        template.write("{*}", &mut self.buffer);
                    }
                    None => found.opaque = false,
                }
            }
            self.push_value(raw, u32::MAX, found);
        }
        let segments = self.values.len() as u32 - first;
        self.most_segments = self.most_segments.max(segments);
        for (key_name, value) in query_pairs(query) {
            let key = self.key_id(key_name);
            self.buffer.clear();
            let mut found = scan(value.unwrap_or(""), &mut self.buffer);
            // A value holding a path or URL names a page, not a page kind, like an opaque id.
            found.opaque |= value.is_some_and(holds_path);
            if found.opaque {
                self.buffer.clear();
                self.buffer.push_str("{*}");
            }
            self.push_value(value.unwrap_or(""), key, found);
            if value.is_none() {
                self.values.last_mut().expect("just pushed").base = NO_VALUE;
            }
        }
        self.samples.push(Sample {
            first,
            segments,
            pairs: self.values.len() as u32 - first - segments,
            trailing_slash,
        });
    }

    /// The id of a query key. Sites use a few dozen keys, so the first ones are found by
    /// comparing names, which is cheaper than hashing them.
    fn key_id(&mut self, name: &'a str) -> u32 {
        const COMPARED: usize = 16;
        let compared = &self.key_names[..self.key_names.len().min(COMPARED)];
        if let Some(id) = compared.iter().position(|known| *known == name) {
            return id as u32;
        }
        let next_id = self.key_names.len() as u32;
        let id = *self.key_ids.entry(name).or_insert(next_id);
        if id == next_id {
            self.key_names.push(name);
        }
        id
    }

    /// Pushes a value whose base text is in the buffer.
    fn push_value(&mut self, raw: &'a str, key: u32, found: Scan) {
        let base = self.intern_buffer();
        if found.opaque {
            self.opaque_bases.insert(base);
        }
        self.values.push(Value {
            raw,
            base,
            key,
            first_run: found.first_run,
            digits: found.digits,
        });
    }

    fn intern_buffer(&mut self) -> u32 {
        if let Some(&id) = self.string_ids.get(self.buffer.as_str()) {
            return id;
        }
        let id = self.strings.len() as u32;
        self.strings.push(self.buffer.clone());
        self.string_ids.insert(self.buffer.clone(), id);
        id
    }

    fn rank_keys(&mut self) {
        let mut ids: Vec<u32> = (0..self.key_names.len() as u32).collect();
        ids.sort_by_key(|&id| self.key_names[id as usize]);
        self.key_ranks = vec![0; ids.len()];
        for (rank, id) in ids.into_iter().enumerate() {
            self.key_ranks[id as usize] = rank as u32;
        }
    }

    fn segment(&self, sample: u32, position: usize) -> Value<'a> {
        self.values[self.samples[sample as usize].first as usize + position]
    }

    fn pairs(&self, sample: u32) -> &[Value<'a>] {
        let sample = self.samples[sample as usize];
        let start = (sample.first + sample.segments) as usize;
        &self.values[start..start + sample.pairs as usize]
    }

    /// Every value of a sample with its slot, in written order. Slots are path positions, then
    /// query keys numbered after the longest path.
    fn slots(&self, sample: u32) -> impl Iterator<Item = (usize, Value<'a>)> + '_ {
        let record = self.samples[sample as usize];
        let start = record.first as usize;
        let end = start + (record.segments + record.pairs) as usize;
        self.values[start..end]
            .iter()
            .enumerate()
            .map(
                move |(index, value)| match index < record.segments as usize {
                    true => (index, *value),
                    false => ((self.most_segments + value.key) as usize, *value),
                },
            )
    }

    /// Decides path position `depth` for `members` (all sharing the pieces in `prefix`), splits
    /// them by the piece each gets, and goes on with the next position in each part. URLs whose
    /// path ends here are finished with their query.
    fn split_path(&mut self, members: Vec<u32>, depth: usize, prefix: &mut Vec<u32>) {
        let (ending, continuing): (Vec<u32>, Vec<u32>) = members
            .into_iter()
            .partition(|&sample| self.samples[sample as usize].segments as usize == depth);
        if !ending.is_empty() {
            self.finish(&ending, prefix);
        }
        if continuing.is_empty() {
            return;
        }
        let entries: Vec<Entry<'a>> = continuing
            .iter()
            .map(|&sample| {
                let value = self.segment(sample, depth);
                (sample, value.base, value.raw)
            })
            .collect();
        let pieces = match self.decide(&continuing, &entries, &OnceCell::new()) {
            Decision::Literal => entries.iter().map(|entry| entry.1).collect(),
            Decision::Free => self.free_segment_pieces(&entries),
        };
        let mut parts: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for (&sample, piece) in continuing.iter().zip(pieces) {
            parts.entry(piece).or_default().push(sample);
        }
        for (piece, part) in parts {
            prefix.push(piece);
            self.split_path(part, depth + 1, prefix);
            prefix.pop();
        }
    }

    /// Spells the patterns of URLs whose path pattern is `prefix`. Each query key is decided once
    /// over all of them, whatever other keys a URL has, so that a key seen in several
    /// combinations pools its evidence.
    fn finish(&mut self, members: &[u32], prefix: &[u32]) {
        let mut by_key: BTreeMap<u32, Vec<Entry<'a>>> = BTreeMap::new();
        for &sample in members {
            for value in self.pairs(sample) {
                let entries = by_key.entry(value.key).or_default();
                if value.base != NO_VALUE {
                    entries.push((sample, value.base, value.raw));
                }
            }
        }
        // Which slots' digits vary depends on the URLs only, so all keys share the answer.
        let varying = OnceCell::new();
        let free_keys: FastSet<u32> = by_key
            .iter()
            .filter(|(_, entries)| self.decide(members, entries, &varying) == Decision::Free)
            .map(|(&key, _)| key)
            .collect();
        self.buffer.clear();
        self.buffer.push_str("{*}");
        let wildcard = self.intern_buffer();
        // A pattern is the trailing slash and the sorted (key, piece) list; spell each once.
        let mut shapes: FastSet<Vec<u32>> = FastSet::default();
        let mut shape = Vec::new();
        let mut pairs = Vec::new();
        for &sample in members {
            pairs.clear();
            pairs.extend(self.pairs(sample).iter().map(|value| {
                let piece = match value.base {
                    NO_VALUE => NO_VALUE,
                    _ if free_keys.contains(&value.key) => wildcard,
                    base => base,
                };
                (self.key_ranks[value.key as usize], value.key, piece)
            }));
            // Stable, so repeated keys keep their written order.
            pairs.sort_by_key(|pair| pair.0);
            shape.clear();
            shape.push(u32::from(self.samples[sample as usize].trailing_slash));
            shape.extend(pairs.iter().flat_map(|&(_, key, piece)| [key, piece]));
            if !shapes.contains(&shape) {
                shapes.insert(shape.clone());
            }
        }
        for shape in shapes {
            let text = self.spell(prefix, &shape);
            self.texts.insert(text);
        }
    }

    fn spell(&self, prefix: &[u32], shape: &[u32]) -> String {
        let mut text = String::from("/");
        for (index, &piece) in prefix.iter().enumerate() {
            if index > 0 {
                text.push('/');
            }
            text.push_str(&self.strings[piece as usize]);
        }
        if shape[0] == 1 && !prefix.is_empty() {
            text.push('/');
        }
        for (index, pair) in shape[1..].chunks_exact(2).enumerate() {
            text.push(if index == 0 { '?' } else { '&' });
            escape_into(self.key_names[pair[0] as usize], &mut text);
            if pair[1] != NO_VALUE {
                text.push('=');
                text.push_str(&self.strings[pair[1] as usize]);
            }
        }
        text
    }

    /// Literal or free, for the values `entries` of one position over the URLs `members`;
    /// `varying` caches [`Learner::varying_slots`] of `members`.
    fn decide(
        &self,
        members: &[u32],
        entries: &[Entry<'a>],
        varying: &OnceCell<Vec<bool>>,
    ) -> Decision {
        // Most positions hold one value (`viewtopic.php`, `{n}`); see that without hashing.
        if entries.iter().all(|entry| entry.1 == entries[0].1) {
            return Decision::Literal;
        }
        let mut representatives: FastMap<u32, &str> = FastMap::default();
        let mut opaque_entries = 0;
        let any_opaque = !self.opaque_bases.is_empty();
        for &(_, base, raw) in entries {
            representatives.entry(base).or_insert(raw);
            opaque_entries += usize::from(any_opaque && self.opaque_bases.contains(&base));
        }
        let distinct = representatives.len();
        if distinct <= 1 {
            return Decision::Literal;
        }
        // Titles, nested URLs and opaque ids show what they are even in a sample of two. Values
        // with one base differ in digits only, so any representative tells the base's shape.
        let slugs = representatives
            .iter()
            .filter(|&(base, raw)| self.opaque_bases.contains(base) || is_slug_shaped(raw))
            .count();
        // The few ids of an opaque space that do not look opaque (`12345678`) each make a base of
        // their own and outnumber the one opaque base, so opaque ids are also counted by URL.
        if slugs * 2 > distinct || opaque_entries * 2 > entries.len() {
            return Decision::Free;
        }
        // Too many different values, mostly seen once each, for a vocabulary.
        if distinct >= MANY_DISTINCT_VALUES && distinct * 2 >= entries.len() {
            return Decision::Free;
        }
        // Two values are only enough when both carry digits, because `/forums/x.1/` and
        // `/threads/y.2/` would otherwise pass for slugs.
        let all_have_digits = representatives
            .values()
            .all(|raw| raw.bytes().any(|byte| byte.is_ascii_digit()));
        if distinct >= 3 || all_have_digits {
            let varying = varying.get_or_init(|| self.varying_slots(members));
            return self.decide_by_entities(entries, distinct, varying);
        }
        Decision::Literal
    }

    /// Values and entities that go one to one (a slug beside its id) make a free position; a
    /// word that comes with many entities (`print`, `page-{n}`, `sort=title`) or none
    /// (`action=login`) is a literal. Both directions count: in a thin sample each sort order
    /// may show up with a single board, but some board then shows up with two sort orders.
    /// Opaque values count as tied, since one base stands for all of them. An entity's values
    /// are compared by their variable part, so that `c578a13f.html` and `c578a13f-2.html`
    /// (an id with a page suffix) are one name.
    fn decide_by_entities(
        &self,
        entries: &[Entry<'a>],
        distinct: usize,
        varying: &[bool],
    ) -> Decision {
        // Per base, the one entity seen with it, and per entity the one base; `None` once a
        // second one (or, for bases, no entity at all) was seen.
        let mut entity_of: FastMap<u32, Option<u64>> = FastMap::default();
        let mut name_of: FastMap<u64, Option<&str>> = FastMap::default();
        for &(sample, base, raw) in entries {
            let entity = self.entity(sample, varying);
            keep_if_same(&mut entity_of, base, entity);
            if let Some(entity) = entity {
                let name = Template::of(raw).map_or(raw, |template| template.core());
                keep_if_same(&mut name_of, entity, Some(name));
            }
        }
        let tied_values = entity_of
            .iter()
            .filter(|&(base, entity)| entity.is_some() || self.opaque_bases.contains(base))
            .count();
        let entities = name_of.len();
        let tied_entities = name_of.values().filter(|name| name.is_some()).count();
        let one_to_one = tied_values * 4 >= distinct * 3 && tied_entities * 4 >= entities * 3;
        match one_to_one && entities * 2 >= distinct {
            true => Decision::Free,
            false => Decision::Literal,
        }
    }

    /// Slots whose digits differ between `members`: constant digits (`/api/v2/`) name no entity.
    fn varying_slots(&self, members: &[u32]) -> Vec<bool> {
        let slots = self.most_segments as usize + self.key_names.len();
        let mut first: Vec<Option<u64>> = vec![None; slots];
        let mut varying = vec![false; slots];
        for &sample in members {
            for (slot, value) in self.slots(sample) {
                let seen = *first[slot].get_or_insert(value.digits);
                varying[slot] |= seen != value.digits;
            }
        }
        varying
    }

    /// A URL's entity: the first digit run, in written order, of a slot whose digits vary. Ids
    /// come before page numbers in the URLs engines write (`/t/slug/123/4`, `t=123&start=15`).
    fn entity(&self, sample: u32, varying: &[bool]) -> Option<u64> {
        self.slots(sample)
            .find(|(slot, value)| value.first_run != 0 && varying[*slot])
            .map(|(_, value)| value.first_run)
    }

    /// The pieces of a free path position: each value keeps its id-like head or tail and its
    /// extension around a `{*}` (`{*}.{n}`, `{n}-{*}`, `{*}-{n}.html`).
    ///
    /// A value whose variable part is all digits (a hex id that happens to have no letter) is
    /// ambiguous: `12345678-2.html` reads as an id head too. It joins the most specific `{*}`
    /// form that matches it and is [`DIGIT_CORE_FOLD_RATIO`] times as common as its own `{n}`
    /// form, and keeps the `{n}` form otherwise.
    fn free_segment_pieces(&mut self, entries: &[Entry<'a>]) -> Vec<u32> {
        // Per entry: the `{*}` form, or the `{n}` form for all-digit cores; `None` keeps the base.
        let mut forms: Vec<Option<(u32, bool)>> = Vec::with_capacity(entries.len());
        let mut counts: FastMap<u32, usize> = FastMap::default();
        for &(_, _, raw) in entries {
            let form = Template::of(raw).map(|template| {
                let digits = template.core_is_digits();
                self.buffer.clear();
                template.write(if digits { "{n}" } else { "{*}" }, &mut self.buffer);
                (self.intern_buffer(), digits)
            });
            if let Some((id, _)) = form {
                *counts.entry(id).or_default() += 1;
            }
            forms.push(form);
        }
        let wildcard_forms: Vec<(u32, usize, Vec<Piece>)> = forms
            .iter()
            .flatten()
            .filter(|(_, digits)| !digits)
            .map(|&(id, _)| id)
            .collect::<BTreeSet<u32>>()
            .into_iter()
            .filter_map(|id| {
                let text = &self.strings[id as usize];
                Some((id, counts[&id], parse_pieces(text, text).ok()?))
            })
            .collect();
        entries
            .iter()
            .zip(forms)
            .map(|(&(_, base, raw), form)| match form {
                None => base,
                Some((id, false)) => id,
                Some((id, true)) => {
                    let needed = counts[&id] * DIGIT_CORE_FOLD_RATIO;
                    wildcard_forms
                        .iter()
                        .filter(|(_, count, pieces)| *count >= needed && pieces_match(pieces, raw))
                        .max_by(|a, b| {
                            let texts = (&self.strings[a.0 as usize], &self.strings[b.0 as usize]);
                            (literal_length(&a.2).cmp(&literal_length(&b.2)))
                                .then_with(|| texts.1.cmp(texts.0))
                        })
                        .map_or(id, |(wildcard, _, _)| *wildcard)
                }
            })
            .collect()
    }
}

/// Records `value` for `key`, or `None` when `key` already had another.
fn keep_if_same<K: std::hash::Hash + Eq, V: PartialEq>(
    map: &mut FastMap<K, Option<V>>,
    key: K,
    value: Option<V>,
) {
    map.entry(key)
        .and_modify(|seen| {
            if *seen != value {
                *seen = None;
            }
        })
        .or_insert(value);
}

fn literal_length(pieces: &[Piece]) -> usize {
    pieces
        .iter()
        .map(|piece| match piece {
            Piece::Literal(text) => text.len(),
            _ => 0,
        })
        .sum()
}
