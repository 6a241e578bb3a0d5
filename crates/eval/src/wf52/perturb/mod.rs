//! Meaning-preserving perturbations of a gold page, to estimate how much of page analysis leans
//! on the vocabulary and shapes of the pages it was developed on.
//!
//! A forum nobody here has looked at shows the same things as the development pages (posts that
//! are authored, dated and have bodies) in other words and other markup. Each perturbation
//! rewrites one of those surfaces while leaving every string the gold states (post texts, user
//! names, date forms) as it was, so the page can be scored against the same gold:
//!
//! - `names`: every word inside a `class` or `id` value (and the `#fragment` links and `for`
//!   labels that name an id) becomes a seeded random token, the same token for the same word
//!   across the page, as a template written with other words would read; digits and separators
//!   stay, so `post_123` keeps its number.
//! - `labels`: the page's label words outside the gold's strings ("Posted by", "Joined",
//!   "Posts", "Reply", "Quote" ...) are put in another language (one of ten, by seed: German,
//!   French, Spanish, Italian, Portuguese, Dutch, Polish, Russian, Chinese, Japanese), and
//!   every gold date form shown whole in one text node is re-spelled with another joining between
//!   date and clock (", ", " at ", " - ", " | ") and its meridiem glued to or spaced from the
//!   minutes. The gold's own form is left in the gold file: the scorer reads it, and the page's
//!   re-spelled form means the same instant. Month and weekday names are not translated, since
//!   the gold forms name them in the page's language.
//! - `wrappers`: element children of block containers that hold no text of their own get one or
//!   two extra `<div>` wrappers, decided by the pair of parent and child templates (tag and
//!   class) so that every record of a list gets the same ones, as a theme's div soup does.
//! - `all`: the three at once; `identity`: the page written back unchanged, to show that writing
//!   the tree back costs nothing by itself.
//!
//! The page is parsed with trawl's own tree builder and written back by a small serializer; the
//! written page parses to the same tree apart from the perturbation (the doctype is copied as
//! written, since it decides quirks mode, which changes how tables and paragraphs nest).

use std::collections::HashMap;

use trawl_page::dom::{Document, NodeId, NodeKind, ROOT};

mod label_words;
mod labels;

#[cfg(test)]
use label_words::GERMAN_LABELS;
use label_words::labels_for_seed;
use labels::relabel_text;
#[cfg(test)]
use labels::respell_date;

/// Which surface of the page to rewrite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Perturbation {
    /// The page written back unchanged.
    Identity,
    /// Class and id words replaced by random tokens.
    Names,
    /// Label words in another language, gold dates re-spelled.
    Labels,
    /// Extra wrapper elements around the parts of records.
    Wrappers,
    /// Names, labels and wrappers at once.
    All,
}

impl Perturbation {
    /// Every perturbation, in the order reports list them.
    pub const ALL: [Perturbation; 5] = [
        Perturbation::Identity,
        Perturbation::Names,
        Perturbation::Labels,
        Perturbation::Wrappers,
        Perturbation::All,
    ];

    /// The perturbation called `name` (`identity`, `names`, `labels`, `wrappers`, `all`).
    pub fn from_name(name: &str) -> Option<Perturbation> {
        Perturbation::ALL
            .into_iter()
            .find(|perturbation| perturbation.name() == name)
    }

    /// The name the command line gives it.
    pub fn name(self) -> &'static str {
        match self {
            Perturbation::Identity => "identity",
            Perturbation::Names => "names",
            Perturbation::Labels => "labels",
            Perturbation::Wrappers => "wrappers",
            Perturbation::All => "all",
        }
    }

    fn renames(self) -> bool {
        matches!(self, Perturbation::Names | Perturbation::All)
    }

    fn relabels(self) -> bool {
        matches!(self, Perturbation::Labels | Perturbation::All)
    }

    fn wraps(self) -> bool {
        matches!(self, Perturbation::Wrappers | Perturbation::All)
    }
}

/// The strings of a page's gold that no perturbation may change, whitespace collapsed.
#[derive(Debug, Default, Clone)]
pub struct GoldStrings {
    /// Post texts and user names.
    pub texts: Vec<String>,
    /// Date forms as the page shows them.
    pub dates: Vec<String>,
}

impl GoldStrings {
    /// The strings of a gold annotation (`post_text`, `user`, `datetime`, each a string or an
    /// object with a `surface_form`).
    pub fn of_annotation(posts: &[serde_json::Value]) -> GoldStrings {
        let mut strings = GoldStrings::default();
        let surface = |value: &serde_json::Value| -> Option<String> {
            let text = match value {
                serde_json::Value::Object(object) => object.get("surface_form")?.as_str()?,
                serde_json::Value::String(text) => text.as_str(),
                _ => return None,
            };
            let collapsed = collapse_whitespace(text);
            (!collapsed.is_empty()).then_some(collapsed)
        };
        for post in posts {
            strings.texts.extend(surface(&post["post_text"]));
            strings.texts.extend(surface(&post["user"]));
            strings.dates.extend(surface(&post["datetime"]));
        }
        strings
    }
}

/// `html` rewritten by `perturbation`, seeded by `seed`, leaving the strings of `gold` alone.
pub fn perturb_page(
    html: &str,
    gold: &GoldStrings,
    perturbation: Perturbation,
    seed: u64,
) -> String {
    let document = Document::parse(html);
    let mut writer = Writer {
        document: &document,
        perturbation,
        seed,
        gold,
        language: labels_for_seed(seed),
        renamed: HashMap::new(),
        out: String::with_capacity(html.len() + html.len() / 4),
    };
    writer.out.push_str(doctype_as_written(html));
    writer.write_children_of(ROOT);
    writer.out
}

/// The page's doctype exactly as written (empty when it has none): it decides whether the page is
/// parsed in quirks mode.
fn doctype_as_written(html: &str) -> &str {
    let start = html.len()
        - html
            .trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n'])
            .len();
    let rest = &html[start..];
    let opens_doctype = rest
        .get(..9)
        .is_some_and(|head| head.eq_ignore_ascii_case("<!doctype"));
    match rest.find('>') {
        Some(end) if opens_doctype => &rest[..=end],
        _ => "",
    }
}

/// Elements that have no end tag.
const VOID_ELEMENTS: [&str; 16] = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "keygen", "basefont",
];

/// Elements whose text is written raw, without character references.
const RAW_TEXT_ELEMENTS: [&str; 7] = [
    "script",
    "style",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "plaintext",
];

/// Elements whose text keeps its spacing or is code, never relabelled.
const LITERAL_TEXT_ELEMENTS: [&str; 5] = ["pre", "textarea", "code", "title", "option"];

/// Containers whose element children may get wrappers: block containers that accept any flow
/// content, so a `<div>` inside them parses where it is written.
const WRAPPABLE_PARENTS: [&str; 13] = [
    "div",
    "article",
    "section",
    "aside",
    "main",
    "header",
    "footer",
    "li",
    "td",
    "th",
    "dd",
    "blockquote",
    "body",
];

/// Children never wrapped: what is not shown, and what a `<div>` around would move elsewhere.
const UNWRAPPED_CHILDREN: [&str; 10] = [
    "script", "style", "template", "link", "meta", "input", "br", "hr", "noscript", "form",
];

struct Writer<'a> {
    document: &'a Document,
    perturbation: Perturbation,
    seed: u64,
    gold: &'a GoldStrings,
    language: &'static [(&'static str, &'static str)],
    /// Class and id words already given a token on this page.
    renamed: HashMap<String, String>,
    out: String,
}

/// One step of the iterative walk (pages nest deeply enough that recursion is not safe).
enum Step {
    Node(NodeId),
    EndTag(NodeId),
    Markup(String),
}

impl Writer<'_> {
    fn write_children_of(&mut self, root: NodeId) {
        let mut steps: Vec<Step> = Vec::new();
        self.queue_children(root, &mut steps);
        while let Some(step) = steps.pop() {
            match step {
                Step::Node(id) => self.write_node(id, &mut steps),
                Step::EndTag(id) => {
                    self.out.push_str("</");
                    self.out.push_str(self.document.node(id).tag());
                    self.out.push('>');
                }
                Step::Markup(markup) => self.out.push_str(&markup),
            }
        }
    }

    /// Queues the children of `parent` (the walk pops steps, so they go on in reverse), each
    /// between the wrappers the perturbation gives it.
    fn queue_children(&self, parent: NodeId, steps: &mut Vec<Step>) {
        let document = self.document;
        let children: Vec<NodeId> = document.children(parent).collect();
        let wrap_children = self.perturbation.wraps() && self.holds_only_elements(parent);
        for &child in children.iter().rev() {
            let wrappers = if wrap_children {
                self.wrappers_for(parent, child)
            } else {
                0
            };
            if wrappers == 0 {
                steps.push(Step::Node(child));
                continue;
            }
            // The wrappers' class names are tokens of the template pair, as a theme names its
            // wrappers after what they hold.
            let class = random_token(template_pair_hash(document, parent, child, self.seed) ^ 1);
            let opening: String = (0..wrappers)
                .map(|depth| format!("<div class=\"{class}-{depth}\">"))
                .collect();
            steps.push(Step::Markup("</div>".repeat(wrappers)));
            steps.push(Step::Node(child));
            steps.push(Step::Markup(opening));
        }
    }

    fn write_node(&mut self, id: NodeId, steps: &mut Vec<Step>) {
        let document = self.document;
        let node = document.node(id);
        match node.kind {
            NodeKind::Document | NodeKind::Doctype => {}
            NodeKind::Comment => {
                self.out.push_str("<!--");
                self.out.push_str(document.text_of(id));
                self.out.push_str("-->");
            }
            NodeKind::Text => self.write_text(id),
            NodeKind::Element => {
                let tag: &str = node.tag();
                self.out.push('<');
                self.out.push_str(tag);
                for (name, value) in document.attributes(id) {
                    let value = self.attribute_value(name, value);
                    self.out.push(' ');
                    self.out.push_str(name);
                    self.out.push_str("=\"");
                    push_escaped(&mut self.out, &value, true);
                    self.out.push('"');
                }
                self.out.push('>');
                if VOID_ELEMENTS.contains(&tag) {
                    return;
                }
                steps.push(Step::EndTag(id));
                self.queue_children(id, steps);
            }
        }
    }

    /// Whether the wrappers may go around the children of `id`: a block container whose own
    /// text is only whitespace, so no words run into the wrappers' line breaks.
    fn holds_only_elements(&self, id: NodeId) -> bool {
        let document = self.document;
        let node = document.node(id);
        WRAPPABLE_PARENTS.contains(&&**node.tag())
            && document.children(id).all(|child| {
                let child_node = document.node(child);
                match child_node.kind {
                    NodeKind::Text => document.text_of(child).trim().is_empty(),
                    _ => true,
                }
            })
    }

    /// How many wrappers `child` gets inside `parent`: 0, 1 or 2, the same for every pair of
    /// the same templates, so a list's records all get the same.
    fn wrappers_for(&self, parent: NodeId, child: NodeId) -> usize {
        let node = self.document.node(child);
        if node.kind != NodeKind::Element || UNWRAPPED_CHILDREN.contains(&&**node.tag()) {
            return 0;
        }
        match template_pair_hash(self.document, parent, child, self.seed) % 4 {
            0 => 0,
            1 | 2 => 1,
            _ => 2,
        }
    }

    fn attribute_value(&mut self, name: &str, value: &str) -> String {
        if !self.perturbation.renames() {
            return value.to_string();
        }
        match name {
            "class" => value
                .split_ascii_whitespace()
                .map(|word| self.renamed_word(word))
                .collect::<Vec<_>>()
                .join(" "),
            "id" | "for" => self.renamed_word(value),
            "href" if value.starts_with('#') && value.len() > 1 => {
                format!("#{}", self.renamed_word(&value[1..]))
            }
            _ => value.to_string(),
        }
    }

    /// `word` with each run of letters replaced by its page-wide token; digits and separators
    /// stay where they were.
    fn renamed_word(&mut self, word: &str) -> String {
        let mut out = String::with_capacity(word.len());
        let mut letters = String::new();
        for character in word.chars().chain(std::iter::once('\0')) {
            if character.is_alphabetic() {
                letters.push(character);
                continue;
            }
            if !letters.is_empty() {
                let seed = self.seed;
                let token = self
                    .renamed
                    .entry(std::mem::take(&mut letters))
                    .or_insert_with_key(|letters| random_token(hash_str(letters, seed)));
                out.push_str(token);
            }
            if character != '\0' {
                out.push(character);
            }
        }
        out
    }

    fn write_text(&mut self, id: NodeId) {
        let document = self.document;
        let text = document.text_of(id);
        let parent = document.node(id).parent.map(|parent| document.node(parent));
        let parent_tag: &str = parent.map_or("", |parent| parent.tag());
        if RAW_TEXT_ELEMENTS.contains(&parent_tag) {
            self.out.push_str(text);
            return;
        }
        let literal = document
            .node(id)
            .parent
            .is_some_and(|parent| self.inside_literal_text(parent));
        if !self.perturbation.relabels() || literal || text.trim().is_empty() {
            push_escaped(&mut self.out, text, false);
            return;
        }
        let relabelled = relabel_text(text, self.gold, self.language, self.seed);
        push_escaped(&mut self.out, &relabelled, false);
    }

    fn inside_literal_text(&self, mut id: NodeId) -> bool {
        loop {
            let node = self.document.node(id);
            if node.kind == NodeKind::Element && LITERAL_TEXT_ELEMENTS.contains(&&**node.tag()) {
                return true;
            }
            match node.parent {
                Some(parent) => id = parent,
                None => return false,
            }
        }
    }
}

/// A hash of the templates of `parent` and `child`, seeded: the parent's tag, and the child's tag
/// with its first class word, digits dropped. A theme writes its wrappers into the template, so
/// records that alternate classes (`row1` and `row2`, `post odd` and `post even`) get the same.
fn template_pair_hash(document: &Document, parent: NodeId, child: NodeId, seed: u64) -> u64 {
    let first_class: String = document
        .attribute(child, "class")
        .and_then(|class| class.split_ascii_whitespace().next())
        .unwrap_or("")
        .chars()
        .filter(|character| !character.is_ascii_digit())
        .collect();
    let key = format!(
        "{}>{}.{}",
        document.node(parent).tag(),
        document.node(child).tag(),
        first_class
    );
    hash_str(&key, seed)
}

/// FNV-1a over `text`, then mixed with `seed` (splitmix64's finaliser).
fn hash_str(text: &str, seed: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    let mut mixed = hash ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    mixed ^ (mixed >> 31)
}

/// A pronounceable random token of four to eight letters from `hash` (consonant, vowel, ...), so
/// it reads as a word of no language the analysis knows.
fn random_token(mut hash: u64) -> String {
    const CONSONANTS: &[u8] = b"bdfgklmnprstvz";
    const VOWELS: &[u8] = b"aeiou";
    let length = 4 + (hash % 5) as usize;
    hash /= 5;
    (0..length)
        .map(|position| {
            let letters = if position % 2 == 0 {
                CONSONANTS
            } else {
                VOWELS
            };
            let letter = letters[(hash % letters.len() as u64) as usize];
            hash = (hash / letters.len() as u64) ^ (hash << 7).rotate_left(13);
            char::from(letter)
        })
        .collect()
}

fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn push_escaped(out: &mut String, text: &str, in_attribute: bool) {
    for character in text.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' if !in_attribute => out.push_str("&lt;"),
            '>' if !in_attribute => out.push_str("&gt;"),
            '"' if in_attribute => out.push_str("&quot;"),
            '\u{a0}' => out.push_str("&nbsp;"),
            _ => out.push(character),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gold(texts: &[&str], dates: &[&str]) -> GoldStrings {
        GoldStrings {
            texts: texts.iter().map(|text| text.to_string()).collect(),
            dates: dates.iter().map(|date| date.to_string()).collect(),
        }
    }

    fn check_respelled(date: &str, seed: u64, expected: &str) {
        assert_eq!(respell_date(date, seed), expected, "{date}");
    }

    #[test]
    fn dates_are_respelled_with_another_joining_and_meridiem() {
        let respelled = respell_date("May 4, 2016, 9:05 PM", 3);
        assert!(respelled.starts_with("May 4, 2016"), "{respelled}");
        assert!(respelled.ends_with("9:05PM"), "{respelled}");
        assert!(!respelled.starts_with("May 4, 2016, 9"), "{respelled}");
        let respelled = respell_date("4 May 2016 at 9:05pm", 3);
        assert!(!respelled.contains(" at "), "{respelled}");
        assert!(respelled.ends_with("9:05 pm"), "{respelled}");
        // No clock, or the clock first: the form stays.
        check_respelled("4 May 2016", 3, "4 May 2016");
        check_respelled("9:05 on 4 May 2016", 3, "9:05 on 4 May 2016");
        // A 24-hour clock keeps its tail.
        let respelled = respell_date("04.05.2016 21:05", 5);
        assert!(respelled.ends_with("21:05"), "{respelled}");
        assert_ne!(respelled, "04.05.2016 21:05");
    }

    #[test]
    fn labels_are_translated_and_gold_strings_kept() {
        let strings = gold(&["alice", "Reply to everyone please"], &[]);
        let labels: &[(&str, &str)] = &GERMAN_LABELS;
        assert_eq!(
            relabel_text(" Posted by alice ", &strings, labels, 2),
            " Verfasst von alice "
        );
        assert_eq!(relabel_text("Reply", &strings, labels, 2), "Reply");
        assert_eq!(relabel_text("QUOTE", &strings, labels, 2), "ZITIEREN");
        // A gold date's own node is re-spelled, its words kept.
        let dated = gold(&[], &["May 4, 2016, 9:05 PM"]);
        let respelled = relabel_text("May 4, 2016, 9:05 PM", &dated, labels, 2);
        assert!(respelled.starts_with("May 4, 2016") && respelled.ends_with("9:05PM"));
        assert_ne!(respelled, "May 4, 2016, 9:05 PM");
        assert_eq!(
            relabel_text("Reply With Quote", &strings, labels, 2),
            "Mit Zitat antworten"
        );
    }

    #[test]
    fn names_are_renamed_consistently_and_fragments_follow() {
        let html = "<!DOCTYPE html><html><body><div class=\"post postbody\" id=\"post_12\">\
                    <a href=\"#post_12\">x</a></div><div class=\"post\"></div></body></html>";
        let written = perturb_page(html, &GoldStrings::default(), Perturbation::Names, 7);
        assert!(!written.contains("post"), "{written}");
        let document = Document::parse(&written);
        let divs: Vec<NodeId> = document
            .descendants(ROOT)
            .filter(|&id| document.node(id).is("div"))
            .collect();
        let first = document.attribute(divs[0], "class").unwrap();
        let second = document.attribute(divs[1], "class").unwrap();
        assert_eq!(first.split(' ').next(), Some(second));
        let id = document.attribute(divs[0], "id").unwrap();
        assert!(id.ends_with("_12"), "{id}");
        let link = document.find("a").unwrap();
        assert_eq!(document.attribute(link, "href"), Some(&*format!("#{id}")));
    }

    #[test]
    fn identity_writes_the_same_text_and_doctype() {
        let html = "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">\
                    <p>a &amp; b<table><tr><td>c</td></tr></table><script>if (a<b) x();</script>";
        let written = perturb_page(html, &GoldStrings::default(), Perturbation::Identity, 1);
        assert!(written.starts_with("<!DOCTYPE HTML PUBLIC"), "{written}");
        let before = Document::parse(html);
        let after = Document::parse(&written);
        assert_eq!(before.text_content(ROOT), after.text_content(ROOT));
        assert_eq!(before.len(), after.len());
        assert!(written.contains("if (a<b) x();"), "{written}");
    }

    #[test]
    fn wrappers_are_the_same_for_every_record_and_keep_the_text() {
        let record = "<div class=\"rec\"><div class=\"who\">alice</div><div class=\"body\">hi \
                      there</div></div>";
        let html = format!("<html><body><div class=\"list\">{record}{record}{record}</div>");
        let mut wrapped_any = false;
        for seed in 0..8 {
            let written =
                perturb_page(&html, &GoldStrings::default(), Perturbation::Wrappers, seed);
            let after = Document::parse(&written);
            let before = Document::parse(&html);
            assert_eq!(before.text_content(ROOT), after.text_content(ROOT));
            wrapped_any |= after.len() > before.len();
            let records: Vec<NodeId> = after
                .descendants(ROOT)
                .filter(|&id| after.attribute(id, "class") == Some("rec"))
                .collect();
            let sizes: Vec<usize> = records
                .iter()
                .map(|&id| after.descendants(id).count())
                .collect();
            assert!(sizes.windows(2).all(|pair| pair[0] == pair[1]), "{sizes:?}");
        }
        assert!(wrapped_any);
    }
}
