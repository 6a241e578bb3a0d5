//! Disguise: the same forum under other names, so that a crawler is measured on vocabulary it
//! was not written against.
//!
//! Every family speaks one fixed vocabulary: its script names and path words
//! (`viewtopic.php`, `/threads/`), its query keys (`t`, `start`, `page`, `sort`) and the class
//! and id names of its markup (`postbody`, `pagination`). A rule of trawl's that leans on one of
//! those words passes every benchmark and fails on the first engine that spells it otherwise.
//! A disguise renames that vocabulary at the simulator's boundary and nothing else: the site
//! decides, judges and renders exactly as before, then its page is rewritten on the way out and
//! every URL asked of it is read back on the way in. So a disguised forum behaves identically,
//! and its figures compare with the undisguised ones page for page.
//!
//! URL words. The fixed words of the family's URLs are found by spelling every address the site
//! serves (and one of every route, so that links outside the listed truth are covered too) and
//! keeping the words made of letters only, minus the words of the content each address names
//! (the thread's title slug, the board's and category's names, the user's name): what is left
//! is the vocabulary the family writes whatever the content. Ids and numbers are never words
//! (a word holds letters only), and a file extension at the end of the path stays as it is, so
//! that `viewtopic.php` becomes something like `rovekalu.php`. Each vocabulary word is paired
//! with a seeded random token that no URL of the site contains, and the renaming swaps the two
//! members of every pair: applied twice it gives back the URL it started from, so one function
//! disguises the links a page shows and undisguises the URLs a crawler asks for, and a URL the
//! crawler makes up in the undisguised vocabulary is as foreign to the disguised site as it would
//! be to another engine.
//!
//! Markup names. Every run of letters in a `class`, `id`, label `for` or anchor `name` value, and
//! in a link's `#fragment`, is replaced by a token, the same word by the same token on every
//! page; digits and separators stay (`post-17` keeps its number). The tokens come from a table
//! drawn once over the names of one page of every route, each word's token drawn from the seed
//! and the word and drawn again while another word holds it, so no two names ever meet on one
//! token (two classes merged into one would be a change of markup, not a renaming). A name no
//! page of the table showed is drawn when first met, against every token given so far. Nothing
//! ever comes back from the markup, so this half needs no inverse.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use crate::html;
use crate::random::{Random, hash_text, mix};
use crate::route::{ActionKind, Address, AnswerOrder, Route, SortOrder};
use crate::site::Site;
use crate::text::{self, slugify};

/// The consonants and vowels tokens are spelled with: pronounceable tokens look like the made-up
/// names engines give their scripts and styles, and leave no hint of the word they replace.
const CONSONANTS: &[u8] = b"bdfgklmnprstvz";
const VOWELS: &[u8] = b"aeiou";

/// Tokens are never longer than this, so that no opaque cursor token (11 characters) or session
/// id (16) can ever be taken for one.
const LONGEST_TOKEN: usize = 9;

/// A seeded renaming of a site's URL vocabulary and markup names.
#[derive(Debug)]
pub(crate) struct Disguise {
    seed: u64,
    /// Every vocabulary word to its token and every token to its word: the renaming is an
    /// involution, so one map serves both directions.
    swaps: HashMap<String, String>,
    /// The vocabulary words, for tests that check none of them is left in a disguised page.
    vocabulary: Vec<String>,
    /// Every markup name met so far and its token, one token per name.
    markup: Mutex<MarkupTable>,
}

/// The markup names' tokens and the tokens taken, so that a name's token is drawn again while
/// another name holds it.
#[derive(Debug, Clone, Default)]
struct MarkupTable {
    tokens: HashMap<String, String>,
    taken: HashSet<String>,
}

impl MarkupTable {
    /// The token of `word`, drawn from `seed` and the word (and the number of the attempt) until
    /// one no other word holds, then kept.
    fn token(&mut self, seed: u64, word: &str) -> String {
        if let Some(token) = self.tokens.get(word) {
            return token.clone();
        }
        let mut attempt = 0u64;
        let token = loop {
            let token = drawn_markup_token(seed, word, attempt);
            if !self.taken.contains(&token) {
                break token;
            }
            attempt += 1;
        };
        self.taken.insert(token.clone());
        self.tokens.insert(word.to_string(), token.clone());
        token
    }
}

impl Clone for Disguise {
    fn clone(&self) -> Disguise {
        Disguise {
            seed: self.seed,
            swaps: self.swaps.clone(),
            vocabulary: self.vocabulary.clone(),
            markup: Mutex::new(self.markup_table().clone()),
        }
    }
}

impl Disguise {
    /// The disguise of `site` drawn from `seed`; `site` is read undisguised.
    pub(crate) fn of_site(site: &Site, seed: u64) -> Disguise {
        let history = site.history();
        let mut vocabulary: HashSet<String> = HashSet::new();
        let mut every_word: HashSet<String> = HashSet::new();
        let mut probe = |address: &Address| {
            let url = site.plain_url_of(address);
            let content = content_words(site, &address.route);
            for word in url_words(&url) {
                if !is_content(word, &content) {
                    vocabulary.insert(word.to_string());
                }
                every_word.insert(word.to_string());
            }
        };
        site.for_each_address(history.end, |address| probe(&address));
        for address in one_of_every_route(site) {
            probe(&address);
        }
        // Words of content that no probe spelled (a thread's title before it was last renamed,
        // say) must never be taken for a token either.
        for thread in 1..=history.thread_count() + 10 {
            every_word.extend(name_words(&text::title(
                history.seed,
                history.language,
                thread,
            )));
        }
        for board in 1..=history.board_count() {
            every_word.extend(content_words(site, &Route::Board { board, page: 1 }));
        }
        for user in 1..=history.user_count() {
            every_word.extend(name_words(&text::user_name(history.seed, user)));
        }
        let mut vocabulary: Vec<String> = vocabulary.into_iter().collect();
        vocabulary.sort();
        let mut random = Random::new(seed, "disguise-url-words");
        let mut swaps = HashMap::new();
        for word in &vocabulary {
            let token = loop {
                let length = word.len().clamp(2, LONGEST_TOKEN);
                let token = spell_token(&mut random, length);
                let taken = every_word.contains(&token)
                    || every_word.contains(&token.to_ascii_lowercase())
                    || swaps.contains_key(&token);
                if !taken {
                    break token;
                }
            };
            swaps.insert(word.clone(), token.clone());
            swaps.insert(token, word.clone());
        }
        // The markup names are drawn in their sorted order, so the table is the same whatever
        // order pages are asked for in.
        let mut markup = MarkupTable::default();
        for name in markup_names_of_every_route(site) {
            markup.token(seed, &name);
        }
        Disguise {
            seed,
            swaps,
            vocabulary,
            markup: Mutex::new(markup),
        }
    }

    /// The markup table, whole even if a thread panicked while holding it: a name is added with
    /// its token in one step.
    fn markup_table(&self) -> std::sync::MutexGuard<'_, MarkupTable> {
        self.markup
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The seed it was drawn from.
    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    /// The URL words it renames.
    pub(crate) fn vocabulary(&self) -> &[String] {
        &self.vocabulary
    }

    /// `url` (a path with query and fragment, or a relative link) with every vocabulary word and
    /// token swapped and its fragment's markup names renamed. Applied twice it gives `url` back
    /// (but for the fragment, which no server reads).
    pub(crate) fn url(&self, url: &str) -> String {
        let (address, fragment) = match url.split_once('#') {
            Some((address, fragment)) => (address, Some(fragment)),
            None => (url, None),
        };
        let path_end = address.find('?').unwrap_or(address.len());
        let extensions = extension_starts(&address[..path_end]);
        let mut disguised = String::with_capacity(url.len() + 8);
        for (start, word) in words_with_offsets(address) {
            let kept = extensions.contains(&start) || !is_word(word);
            match self.swaps.get(word) {
                Some(swap) if !kept => disguised.push_str(swap),
                _ => disguised.push_str(word),
            }
        }
        if let Some(fragment) = fragment {
            disguised.push('#');
            disguised.push_str(&self.markup_names(fragment));
        }
        disguised
    }

    /// The text of `/robots.txt` with the paths of its rules disguised.
    pub(crate) fn robots_txt(&self, text: &str) -> String {
        let mut disguised = String::with_capacity(text.len());
        for line in text.split_inclusive('\n') {
            match line.split_once(':') {
                Some((field, value))
                    if field.eq_ignore_ascii_case("disallow")
                        || field.eq_ignore_ascii_case("allow") =>
                {
                    let ending = &value[value.trim_end().len()..];
                    let path = value.trim();
                    disguised.push_str(&format!("{field}: {}{ending}", self.url(path)));
                }
                _ => disguised.push_str(line),
            }
        }
        disguised
    }

    /// `page` with the links of its tags disguised and its markup names renamed.
    pub(crate) fn page(&self, page: &str) -> String {
        let mut disguised = String::with_capacity(page.len() + page.len() / 8);
        let mut rest = page;
        while let Some(open) = rest.find('<') {
            disguised.push_str(&rest[..open]);
            rest = &rest[open..];
            if rest.starts_with("<!--") {
                let end = rest.find("-->").map_or(rest.len(), |end| end + 3);
                disguised.push_str(&rest[..end]);
                rest = &rest[end..];
                continue;
            }
            let end = rest.find('>').map_or(rest.len(), |end| end + 1);
            self.rewrite_tag(&rest[..end], &mut disguised);
            rest = &rest[end..];
        }
        disguised.push_str(rest);
        disguised
    }

    /// Copies one tag with its link and name attributes rewritten.
    fn rewrite_tag(&self, tag: &str, out: &mut String) {
        let element = element_of(tag);
        let mut copied = 0;
        for attribute in attributes(tag) {
            out.push_str(&tag[copied..attribute.value_start]);
            match attribute.kind(&element) {
                AttributeKind::Link => out.push_str(&self.link(attribute.value)),
                AttributeKind::MarkupName => out.push_str(&self.markup_names(attribute.value)),
                AttributeKind::Other => out.push_str(attribute.value),
            }
            copied = attribute.value_start + attribute.value.len();
        }
        out.push_str(&tag[copied..]);
    }

    /// An HTML-escaped link value, disguised when it points into the site (a path, a relative
    /// link or a fragment); links with a scheme or a host lead elsewhere and stay.
    fn link(&self, escaped: &str) -> String {
        let scheme = escaped
            .find(':')
            .is_some_and(|colon| escaped[..colon].chars().all(|c| c.is_ascii_alphabetic()));
        if scheme || escaped.starts_with("//") {
            return escaped.to_string();
        }
        let url = unescape(escaped);
        html::escape(&self.url(&url))
    }

    /// `value` with every run of letters replaced by its markup token.
    fn markup_names(&self, value: &str) -> String {
        let mut renamed = String::with_capacity(value.len() + 8);
        for (_, word) in letter_runs(value) {
            if is_word(word) {
                renamed.push_str(&self.markup_token(word));
            } else {
                renamed.push_str(word);
            }
        }
        renamed
    }

    /// The token of a markup name, from the table (see the module documentation).
    fn markup_token(&self, word: &str) -> String {
        self.markup_table().token(self.seed, word)
    }
}

/// The token drawn for a markup name at the given attempt: seven letters or more, about 10^8
/// tokens, so a second attempt is rare.
fn drawn_markup_token(seed: u64, word: &str, attempt: u64) -> String {
    let mut random = Random::new(mix(mix(seed, hash_text(word)), attempt), "disguise-markup");
    spell_token(&mut random, word.len().clamp(7, LONGEST_TOKEN))
}

/// The markup names (runs of letters of `class`, `id`, `for` and anchor `name` values) of the
/// undisguised pages of one address of every route and spelling, sorted.
fn markup_names_of_every_route(site: &Site) -> Vec<String> {
    let at = site.history().end;
    let encoding = site.family().profile().charset.encoding();
    let mut names: HashSet<String> = HashSet::new();
    for address in one_of_every_route(site) {
        let answer = site.serve(&site.plain_url_of(&address), at, None);
        let (page, _, _) = encoding.decode(&answer.body);
        collect_markup_names(&page, &mut names);
    }
    let mut names: Vec<String> = names.into_iter().collect();
    names.sort();
    names
}

/// Adds the markup names of `page`'s tags to `names`, reading tags as [`Disguise::page`] does.
fn collect_markup_names(page: &str, names: &mut HashSet<String>) {
    let mut rest = page;
    while let Some(open) = rest.find('<') {
        rest = &rest[open..];
        if rest.starts_with("<!--") {
            let end = rest.find("-->").map_or(rest.len(), |end| end + 3);
            rest = &rest[end..];
            continue;
        }
        let end = rest.find('>').map_or(rest.len(), |end| end + 1);
        let tag = &rest[..end];
        let element = element_of(tag);
        for attribute in attributes(tag) {
            if attribute.kind(&element) == AttributeKind::MarkupName {
                names.extend(
                    letter_runs(attribute.value)
                        .filter(|(_, word)| is_word(word))
                        .map(|(_, word)| word.to_string()),
                );
            }
        }
        rest = &rest[end..];
    }
}

/// The lower-case element name of a tag (`a` for `<a href=...>`).
fn element_of(tag: &str) -> String {
    tag[1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// One quoted attribute of a tag: its lower-case name, its value and where the value starts.
struct Attribute<'tag> {
    name: String,
    value: &'tag str,
    value_start: usize,
}

/// What the disguise does with an attribute's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AttributeKind {
    /// A link, disguised as a URL.
    Link,
    /// Class, id, label and anchor names, renamed word by word.
    MarkupName,
    /// Anything else, kept.
    Other,
}

impl Attribute<'_> {
    fn kind(&self, element: &str) -> AttributeKind {
        match self.name.as_str() {
            "href" | "src" | "action" => AttributeKind::Link,
            "class" | "id" | "for" => AttributeKind::MarkupName,
            "name" if element == "a" => AttributeKind::MarkupName,
            _ => AttributeKind::Other,
        }
    }
}

/// The double-quoted attributes of a tag, in order. Every template quotes its attribute values
/// with double quotes, so a value is what stands between `="` and `"`.
fn attributes(tag: &str) -> Vec<Attribute<'_>> {
    let mut found = Vec::new();
    let mut offset = 0;
    while let Some(equals) = tag[offset..].find("=\"").map(|equals| offset + equals) {
        let name_start = tag[..equals]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == ':'))
            .map_or(0, |before| before + 1)
            .max(offset);
        let value_start = equals + 2;
        let Some(length) = tag[value_start..].find('"') else {
            break;
        };
        found.push(Attribute {
            name: tag[name_start..equals].to_ascii_lowercase(),
            value: &tag[value_start..value_start + length],
            value_start,
        });
        offset = value_start + length;
    }
    found
}

/// A pronounceable token of `length` letters, consonant first.
fn spell_token(random: &mut Random, length: usize) -> String {
    (0..length)
        .map(|index| {
            let letters = if index % 2 == 0 { CONSONANTS } else { VOWELS };
            letters[random.below(letters.len() as u64) as usize] as char
        })
        .collect()
}

/// Undoes [`html::escape`].
fn unescape(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Splits `text` into runs of ASCII letters and digits (and any non-ASCII character, which no
/// vocabulary word holds) and runs of everything else, with their byte offsets; the pieces put
/// back together give `text`. URLs are split so: a run with a digit is an id and stays whole.
fn words_with_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    pieces(text, |byte| {
        byte.is_ascii_alphanumeric() || !byte.is_ascii()
    })
}

/// Splits `text` into runs of ASCII letters and runs of everything else. Markup names are split
/// so: `post17` is the word `post` and the number `17`.
fn letter_runs(text: &str) -> impl Iterator<Item = (usize, &str)> {
    pieces(text, |byte| byte.is_ascii_alphabetic())
}

/// Splits `text` into maximal runs of bytes `inside` accepts and runs of bytes it refuses, with
/// their byte offsets. `inside` accepts every byte of a multi-byte character or none, so every
/// piece is whole characters.
fn pieces(text: &str, inside: fn(u8) -> bool) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    let bytes = text.as_bytes();
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        let kind = inside(bytes[start]);
        let end = (start..text.len())
            .find(|&index| inside(bytes[index]) != kind)
            .unwrap_or(text.len());
        let piece = (start, &text[start..end]);
        start = end;
        Some(piece)
    })
}

/// Whether a piece is a word the disguise may rename: ASCII letters only, so that ids, numbers,
/// hexadecimal and percent-encoded runs with a digit are kept.
fn is_word(piece: &str) -> bool {
    !piece.is_empty() && piece.bytes().all(|byte| byte.is_ascii_alphabetic())
}

/// The byte offsets of the file extensions of `path`, which the disguise keeps: a short word
/// after a dot that ends a path segment (`index.php` in `/index.php/board,1.0.html` as well as
/// the final `html`).
fn extension_starts(path: &str) -> Vec<usize> {
    path.match_indices('.')
        .filter_map(|(dot, _)| {
            let after = &path[dot + 1..];
            let length = after.find('/').unwrap_or(after.len());
            let extension = &after[..length];
            (is_word(extension) && extension.len() <= 5).then_some(dot + 1)
        })
        .collect()
}

/// The renameable words of a URL's path and query, but its extension.
fn url_words(url: &str) -> Vec<&str> {
    let address = url.split('#').next().unwrap_or("");
    let path_end = address.find('?').unwrap_or(address.len());
    let extensions = extension_starts(&address[..path_end]);
    words_with_offsets(address)
        .filter(|&(start, word)| !extensions.contains(&start) && is_word(word))
        .map(|(_, word)| word)
        .collect()
}

/// Whether `word` of a URL belongs to the content an address names: one of its words, or the
/// start of one (families cut long slugs). Words shorter than three letters count only whole:
/// a one-letter query key starts some title word of almost every thread.
fn is_content(word: &str, content: &HashSet<String>) -> bool {
    let lower = word.to_ascii_lowercase();
    content.contains(&lower)
        || (lower.len() >= 3 && content.iter().any(|known| known.starts_with(&lower)))
}

/// The lower-case words a name may be spelled with in a URL: its runs of letters and digits, its
/// slug's words, and its slug without hyphens.
fn name_words(name: &str) -> Vec<String> {
    let slug = slugify(name);
    let mut words: Vec<String> = words_with_offsets(name)
        .map(|(_, word)| word.to_lowercase())
        .chain(slug.split('-').map(str::to_string))
        .collect();
    words.push(slug.replace('-', ""));
    words.retain(|word| !word.is_empty());
    words
}

/// The words of the content an address's route names: the thread's title, its board's and
/// category's names, the board's, the user's name.
fn content_words(site: &Site, route: &Route) -> HashSet<String> {
    let history = site.history();
    let mut names: Vec<String> = Vec::new();
    let add_board = |names: &mut Vec<String>, board: u32| {
        if let Some(record) = history.board(board) {
            names.push(record.name.clone());
            if let Some(category) = history.categories.get(record.category as usize) {
                names.push(category.name.clone());
            }
        }
    };
    let add_thread = |names: &mut Vec<String>, thread: u32| {
        names.push(site.thread_title(thread));
        if let Some(record) = history.thread(thread) {
            add_board(names, record.board);
        }
    };
    match *route {
        Route::Board { board, .. } | Route::ArchiveBoard { board } => add_board(&mut names, board),
        Route::BoardAfter { board, after } => {
            add_board(&mut names, board);
            add_thread(&mut names, after);
        }
        Route::Thread { thread, .. }
        | Route::HiddenThread { thread }
        | Route::Print { thread }
        | Route::ArchiveThread { thread }
        | Route::AdjacentThread { thread, .. } => add_thread(&mut names, thread),
        Route::Post { post } => {
            if let Some(record) = history.post(post) {
                add_thread(&mut names, record.thread);
            }
        }
        Route::Profile { user } => names.push(text::user_name(history.seed, user)),
        Route::Action { kind, target } => match kind {
            ActionKind::Reply => add_thread(&mut names, target),
            ActionKind::NewThread => add_board(&mut names, target),
            ActionKind::Quote => {
                if let Some(record) = history.post(target) {
                    add_thread(&mut names, record.thread);
                }
            }
            ActionKind::Message => names.push(text::user_name(history.seed, target)),
        },
        // A login URL carries the page to return to, slug and all, in some families unencoded.
        Route::Login {
            next: Some(ref next),
        } => {
            if let Some(address) = site.plain_address_of(next) {
                return content_words(site, &address.route);
            }
        }
        Route::Portal
        | Route::AllThreads { .. }
        | Route::MemberList { .. }
        | Route::Calendar { .. }
        | Route::Search { .. }
        | Route::Login { next: None } => {}
    }
    names.iter().flat_map(|name| name_words(name)).collect()
}

/// One address of every route and every spelling variant, so that the vocabulary holds the
/// words of pages the truth leaves out (traps switched off, spellings only a session adds).
fn one_of_every_route(site: &Site) -> Vec<Address> {
    let history = site.history();
    let post = history.thread_posts(1).first().copied().unwrap_or(1);
    let start = crate::dates::local_time(history.start, 0);
    let mut routes = vec![
        Route::Portal,
        Route::Board { board: 1, page: 1 },
        Route::Board { board: 1, page: 2 },
        Route::BoardAfter { board: 1, after: 1 },
        Route::AllThreads { page: 1 },
        Route::AllThreads { page: 2 },
        Route::Thread { thread: 1, page: 1 },
        Route::Thread { thread: 1, page: 2 },
        Route::HiddenThread {
            thread: history.thread_count() + 1,
        },
        Route::Post { post },
        Route::Print { thread: 1 },
        Route::ArchiveBoard { board: 1 },
        Route::ArchiveThread { thread: 1 },
        Route::AdjacentThread {
            thread: 1,
            newer: true,
        },
        Route::AdjacentThread {
            thread: 1,
            newer: false,
        },
        Route::Profile { user: 1 },
        Route::MemberList { page: 1 },
        Route::MemberList { page: 2 },
        Route::Calendar {
            year: start.year,
            month: start.month,
        },
        Route::Search { page: 1 },
        Route::Search { page: 2 },
        Route::Login { next: None },
    ];
    routes.extend(ActionKind::ALL.map(|kind| Route::Action { kind, target: 1 }));
    let mut addresses = Vec::new();
    for route in routes {
        let canonical = Address::canonical(route);
        let mut variants = vec![canonical.clone()];
        for sort in SortOrder::ALTERNATIVES {
            let mut address = canonical.clone();
            address.variant.sort = sort;
            variants.push(address);
        }
        for answers in AnswerOrder::ALTERNATIVES {
            let mut address = canonical.clone();
            address.variant.answers = answers;
            variants.push(address);
        }
        let mut address = canonical.clone();
        address.variant.explicit_first_page = true;
        variants.push(address);
        let mut address = canonical.clone();
        address.variant.session = Some(1);
        variants.push(address);
        let mut address = canonical.clone();
        address.variant.alias = true;
        variants.push(address);
        let mut address = canonical;
        address.variant.ignored_page = Some(2);
        variants.push(address);
        addresses.extend(variants);
    }
    addresses
}

#[cfg(test)]
mod tests;
