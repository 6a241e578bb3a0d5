//! Dates a page names as something other than a record's time: an author's join or
//! registration date and their last visit, which forums print in every post's author box.
//!
//! The time column of posts is chosen by how dates behave across records (present in most,
//! in order), and join dates usually fail that test because each author joined on another day.
//! They pass it on a thread of two posts, in a thread whose posts are all by one author, or when
//! the post times are printed in a form the reader does not know; the column then gives every
//! post its author's join date, a wrong answer where "no time" would have been honest. The page
//! itself says what such a date is, in the label before it ("Joined:", "Registriert seit",
//! "Inscrit le") or in the class of the element around it (`profile-joined`,
//! `userinfo_joindate`), so those words decide before any column is scored.
//!
//! Labels are read only right before the date (in its own text, or the nearest text before it
//! within two levels of elements), and must end there: "Joined 12 March 2015" is a join date,
//! while a post saying "I joined in 2015, and on 12 March 2020 ..." is not labelled by it.

use std::borrow::Cow;

use crate::dom::{Document, NodeId, NodeKind};

/// The last words of labels that introduce a join, registration or last-visit date, lower case,
/// in the languages the date reader knows.
const PROFILE_DATE_LABELS: [&str; 58] = [
    // English
    "joined",
    "join date",
    "joined on",
    "registered",
    "registered on",
    "registration",
    "registration date",
    "member since",
    "last visit",
    "last visited",
    "last active",
    "last activity",
    "last seen",
    "last online",
    "last login",
    // German
    "registriert",
    "registriert seit",
    "registriert am",
    "mitglied seit",
    "dabei seit",
    "beigetreten",
    "beigetreten am",
    "anmeldedatum",
    "registrierungsdatum",
    "letzter besuch",
    "zuletzt online",
    "zuletzt aktiv",
    "letzte aktivität",
    // French
    "inscrit",
    "inscrit le",
    "inscrite le",
    "inscrit depuis",
    "inscription",
    "date d'inscription",
    "membre depuis",
    "dernière visite",
    "dernière activité",
    // Spanish, Portuguese, Italian
    "registrado",
    "registrado el",
    "registrado em",
    "fecha de registro",
    "miembro desde",
    "membro desde",
    "última visita",
    "iscritto",
    "iscritto il",
    "iscritto dal",
    "registrato",
    "ultima visita",
    // Dutch, Polish, Russian
    "lid sinds",
    "geregistreerd",
    "laatst bezocht",
    "dołączył",
    "rejestracja",
    "регистрация",
    "зарегистрирован",
    // Chinese, Japanese
    "注册时间",
    "登録日",
];

/// Pieces of class and id values (lower case, separators removed) that mark an element as
/// holding a join, registration or last-visit date.
const PROFILE_DATE_CLASS_PIECES: [&str; 10] = [
    "joined",
    "joindate",
    "regdate",
    "registerdate",
    "registrationdate",
    "membersince",
    "lastvisit",
    "lastactiv",
    "lastseen",
    "lastonline",
];

/// A label is a few words; a longer text before a date is a sentence, and its last words do not
/// label the date.
const LONGEST_LABEL: usize = 48;

/// Whether the date that starts after `prefix` in text node `text_node` is labelled as a join,
/// registration or last-visit date.
///
/// `shows_date` tells, by node, the elements that show a date of their own: a text before
/// the date inside such an element is that other date's label.
pub(super) fn labelled_as_profile_date_in_text(
    document: &Document,
    text_node: NodeId,
    prefix: &str,
    shows_date: &[bool],
) -> bool {
    let own_label = without_separators(prefix);
    if !own_label.is_empty() {
        return is_profile_label(own_label);
    }
    let Some(parent) = document.node(text_node).parent else {
        return false;
    };
    class_marks_profile_date(document, parent)
        || is_profile_label_before(document, text_node, shows_date)
}

/// Whether the date an attribute of `element` gives (`<time datetime>`, a `title`) is
/// labelled as a join, registration or last-visit date (`shows_date` as for
/// [`labelled_as_profile_date_in_text`]).
pub(super) fn labelled_as_profile_date_at(
    document: &Document,
    element: NodeId,
    shows_date: &[bool],
) -> bool {
    class_marks_profile_date(document, element)
        || is_profile_label_before(document, element, shows_date)
}

/// Reads the nearest text before `node`, looking at its earlier siblings and then at those of
/// its parent and grandparent, and says whether it is a profile-date label (no text before
/// within those levels is no label). An element before that shows a date of its own holds that
/// date's label, not this one's: "joined <span title=...></span>" before a post's time
/// labels the empty span, and the post's time after it is no join date.
fn is_profile_label_before(document: &Document, node: NodeId, shows_date: &[bool]) -> bool {
    let mut current = node;
    for _ in 0..3 {
        let mut previous = document.node(current).previous_sibling;
        while let Some(sibling) = previous {
            let data = document.node(sibling);
            let text = match data.kind {
                NodeKind::Text => Cow::Borrowed(document.text_of(sibling)),
                NodeKind::Element => match short_text(document, sibling, shows_date) {
                    Some(text) => Cow::Owned(text),
                    // A long element before the date (a whole author box, the previous post)
                    // is not its label; its text is not gathered to find that out.
                    None => return false,
                },
                _ => Cow::Borrowed(""),
            };
            let label = without_separators(&text);
            if !label.is_empty() {
                return is_profile_label(label);
            }
            previous = data.previous_sibling;
        }
        match document.node(current).parent {
            Some(parent) => current = parent,
            None => return false,
        }
    }
    false
}

/// The text below `element` when it is no longer than a label can be and no element in it
/// shows a date, `None` otherwise; stops reading as soon as the text grows too long.
fn short_text(document: &Document, element: NodeId, shows_date: &[bool]) -> Option<String> {
    let mut text = String::new();
    let mut walk = document.descendants(element);
    while let Some(node) = walk.next() {
        let data = document.node(node);
        if shows_date.get(node as usize).copied().unwrap_or(false) {
            return None;
        }
        match data.kind {
            NodeKind::Text => {
                text.push_str(document.text_of(node));
                if text.len() > 4 * LONGEST_LABEL {
                    return None;
                }
            }
            NodeKind::Element if data.is("script") || data.is("style") => walk.skip_children(),
            _ => {}
        }
    }
    Some(text)
}

/// Whether the element holding a date, or one of its two nearest ancestors, has a class or id
/// naming a join, registration or last-visit date.
fn class_marks_profile_date(document: &Document, element: NodeId) -> bool {
    let mut current = Some(element);
    for _ in 0..3 {
        let Some(node) = current else { break };
        let marked = ["class", "id"].iter().any(|attribute| {
            document
                .attribute(node, attribute)
                .is_some_and(class_names_profile_date)
        });
        if marked {
            return true;
        }
        current = document.node(node).parent;
    }
    false
}

/// Whether a class or id value holds one of [`PROFILE_DATE_CLASS_PIECES`] once separators are
/// removed. Most values hold none of the pieces' beginnings, and are let go without building the
/// squeezed copy.
fn class_names_profile_date(value: &str) -> bool {
    let bytes = value.as_bytes();
    let may_hold_a_piece = (0..bytes.len()).any(|start| {
        ["join", "reg", "last", "since"].iter().any(|beginning| {
            bytes[start..]
                .get(..beginning.len())
                .is_some_and(|window| window.eq_ignore_ascii_case(beginning.as_bytes()))
        })
    });
    if !may_hold_a_piece {
        return false;
    }
    let squeezed: String = value
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    PROFILE_DATE_CLASS_PIECES
        .iter()
        .any(|piece| squeezed.contains(piece))
}

/// `text` without the spaces and punctuation that separate a label from its value
/// ("Joined: ", "Registriert seit -", "(Member since").
fn without_separators(text: &str) -> &str {
    text.trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, ':' | '-' | '–' | '—' | '|' | '·' | '•' | '(' | ')' | ',')
    })
}

/// Whether a short text ends with a profile-date label, the label starting at a word boundary
/// ("Unregistered" does not end with the label "registered").
fn is_profile_label(text: &str) -> bool {
    // Most texts before a date are names, numbers ("#3") or other dates: a label is short and
    // ends with a letter.
    if text.len() > LONGEST_LABEL || !text.chars().next_back().is_some_and(char::is_alphabetic) {
        return false;
    }
    let mut lower = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !lower.is_empty() {
            lower.push(' ');
        }
        lower.extend(word.chars().flat_map(char::to_lowercase));
    }
    let last_byte = lower.as_bytes().last().copied();
    PROFILE_DATE_LABELS.iter().any(|label| {
        // The last bytes are compared first: it lets most labels go without a comparison.
        label.as_bytes().last().copied() == last_byte
            && lower.strip_suffix(label).is_some_and(|before| {
                before
                    .chars()
                    .next_back()
                    .is_none_or(|c| !c.is_alphanumeric())
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::ROOT;

    /// Parses `html`, finds the text node that contains `date` and says whether the date there is
    /// labelled as a profile date.
    fn check(html: &str, date: &str, expected: bool) {
        let document = Document::parse(html);
        let text_node = document
            .descendants(ROOT)
            .find(|&node| {
                document.node(node).kind == NodeKind::Text && document.text_of(node).contains(date)
            })
            .unwrap_or_else(|| panic!("{date:?} is not in {html:?}"));
        let text = document.text_of(text_node);
        let prefix = &text[..text.find(date).expect("the date is in the node")];
        assert_eq!(
            labelled_as_profile_date_in_text(
                &document,
                text_node,
                prefix,
                &vec![false; document.len()]
            ),
            expected,
            "{html}"
        );
    }

    #[test]
    fn labels_in_the_same_text() {
        check("<div>Join Date: Oct 12, 2015</div>", "Oct", true);
        check("<div>Registriert seit: 12.10.2015</div>", "12.", true);
        check("<div>Inscrit le : 12/10/2015</div>", "12/", true);
        check("<div>注册时间2015-10-12</div>", "2015", true);
        check("<div>Posted: Oct 12, 2015</div>", "Oct", false);
        check("<div>Unregistered Oct 12, 2015</div>", "Oct", false);
        check(
            "<p>I joined in 2014 and on Oct 12, 2015 I left</p>",
            "Oct",
            false,
        );
    }

    #[test]
    fn labels_in_an_element_before() {
        check(
            "<dd class=profile><strong>Joined:</strong> Tue Oct 12, 2015</dd>",
            "Tue",
            true,
        );
        check("<dl><dt>Joined</dt><dd>Oct 12, 2015</dd></dl>", "Oct", true);
        check(
            "<dl><dt>Beigetreten</dt><dd><span>12.10.2015</span></dd></dl>",
            "12.",
            true,
        );
        check(
            "<div><a href=/p/1>#1</a><span>12.10.2015</span></div>",
            "12.",
            false,
        );
        check("<div><span>12.10.2015</span></div>", "12.", false);
    }

    #[test]
    fn classes_naming_a_join_date() {
        check("<dd class=profile-joined>Oct 12, 2015</dd>", "Oct", true);
        check(
            "<div class=userinfo_joindate><span>Oct 12, 2015</span></div>",
            "Oct",
            true,
        );
        check("<div class=postdate>Oct 12, 2015</div>", "Oct", false);
    }
}
