//! The `labels` perturbation's text work: the rewriting of a text node, its labels translated
//! (the words are in `label_words`) and its gold dates re-spelled in another joining style.

use super::{GoldStrings, collapse_whitespace, hash_str};

/// A text node with its labels in `language` and its gold dates re-spelled, the gold's strings
/// kept. A node that is part of a gold string (a piece of a post's text) is left as it is.
pub(super) fn relabel_text(
    text: &str,
    gold: &GoldStrings,
    language: &[(&str, &str)],
    seed: u64,
) -> String {
    let collapsed = collapse_whitespace(text);
    // A piece of a post's text or of a name is left whole; a date's own node goes on, to be
    // re-spelled below.
    if gold.texts.iter().any(|string| string.contains(&collapsed)) {
        return text.to_string();
    }
    // The gold strings this node shows whole are kept (dates re-spelled); the rest is labels.
    let mut kept: Vec<(usize, usize, bool)> = Vec::new();
    for (strings, is_date) in [(&gold.texts, false), (&gold.dates, true)] {
        for string in strings {
            let mut from = 0;
            while let Some(offset) = collapsed[from..].find(string.as_str()) {
                let start = from + offset;
                let end = start + string.len();
                if !kept.iter().any(|&(s, e, _)| start < e && s < end) {
                    kept.push((start, end, is_date));
                }
                from = end;
            }
        }
    }
    kept.sort_unstable();
    let mut out = String::with_capacity(text.len() + 16);
    if text.starts_with(char::is_whitespace) {
        out.push(' ');
    }
    let mut at = 0;
    for (start, end, is_date) in kept {
        out.push_str(&translate_labels(&collapsed[at..start], language));
        let string = &collapsed[start..end];
        if is_date {
            out.push_str(&respell_date(string, seed));
        } else {
            out.push_str(string);
        }
        at = end;
    }
    out.push_str(&translate_labels(&collapsed[at..], language));
    if text.ends_with(char::is_whitespace) {
        out.push(' ');
    }
    out
}

/// `text` with every label phrase of `language` (longest first, whole words, any case) put in
/// the other language, keeping the capitalisation of its first letter.
fn translate_labels(text: &str, language: &[(&str, &str)]) -> String {
    // Words and the gaps between them, so phrases of several words can be matched.
    let mut pieces: Vec<(&str, bool)> = Vec::new();
    let mut start = 0;
    let mut in_word = false;
    for (index, character) in text.char_indices() {
        let is_word = character.is_alphabetic();
        if index > start && is_word != in_word {
            pieces.push((&text[start..index], in_word));
            start = index;
        }
        in_word = is_word;
    }
    if start < text.len() {
        pieces.push((&text[start..], in_word));
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut index = 0;
    'pieces: while index < pieces.len() {
        if pieces[index].1 {
            // Phrases of up to three words: word, gap, word, gap, word.
            for words in (1..=3).rev() {
                let last = index + 2 * (words - 1);
                if last >= pieces.len() || !pieces[last].1 {
                    continue;
                }
                let gaps_are_spaces = (index..last)
                    .filter(|&piece| !pieces[piece].1)
                    .all(|piece| pieces[piece].0 == " ");
                if !gaps_are_spaces {
                    continue;
                }
                let phrase: String = pieces[index..=last]
                    .iter()
                    .map(|(piece, _)| *piece)
                    .collect::<String>()
                    .to_lowercase();
                if let Some((_, replacement)) = language
                    .iter()
                    .find(|(english, _)| english.eq_ignore_ascii_case(&phrase))
                {
                    out.push_str(&with_case_of(pieces[index].0, replacement));
                    index = last + 1;
                    continue 'pieces;
                }
            }
        }
        out.push_str(pieces[index].0);
        index += 1;
    }
    out
}

/// `replacement` capitalised as `original` is: all capitals, a capital first letter, or as is.
fn with_case_of(original: &str, replacement: &str) -> String {
    let mut letters = original.chars().filter(|c| c.is_alphabetic());
    let first_upper = letters.next().is_some_and(char::is_uppercase);
    let all_upper = first_upper
        && original.chars().filter(|c| c.is_alphabetic()).count() > 1
        && original
            .chars()
            .filter(|c| c.is_alphabetic())
            .all(char::is_uppercase);
    if all_upper {
        replacement.to_uppercase()
    } else if first_upper {
        let mut chars = replacement.chars();
        chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    } else {
        replacement.to_string()
    }
}

/// The joinings a date may show between its date and its clock.
const DATE_CLOCK_JOINS: [&str; 4] = [", ", " at ", " - ", " | "];

/// `date` re-spelled: the joining between date and clock changed to another of
/// [`DATE_CLOCK_JOINS`] (by seed), and a meridiem glued to the minutes when spaced and spaced
/// when glued. A form whose clock comes first, or that shows no clock, keeps its joining.
pub(super) fn respell_date(date: &str, seed: u64) -> String {
    let Some(clock) = clock_start(date) else {
        return date.to_string();
    };
    // The clock's end: digits and colons (and seconds).
    let clock_end = clock
        + date[clock..]
            .find(|c: char| !(c.is_ascii_digit() || c == ':'))
            .unwrap_or(date.len() - clock);
    let mut out = String::with_capacity(date.len() + 4);
    let head = &date[..clock];
    let join_length = joining_length(head);
    let date_part = &head[..head.len() - join_length];
    if join_length > 0 && date_part.ends_with(|c: char| c.is_alphanumeric() || c == '.') {
        let current = &head[date_part.len()..];
        let choices: Vec<&str> = DATE_CLOCK_JOINS
            .into_iter()
            .filter(|join| join.trim() != current.trim())
            .collect();
        out.push_str(date_part);
        out.push_str(choices[(hash_str(date, seed) % choices.len() as u64) as usize]);
    } else {
        out.push_str(head);
    }
    out.push_str(&date[clock..clock_end]);
    let tail = &date[clock_end..];
    let spaced_meridiem = tail.len() >= 3
        && tail.starts_with(' ')
        && is_meridiem(&tail[1..])
        && tail[3..].chars().next().is_none_or(|c| !c.is_alphabetic());
    let glued_meridiem =
        is_meridiem(tail) && tail[2..].chars().next().is_none_or(|c| !c.is_alphabetic());
    if spaced_meridiem {
        out.push_str(&tail[1..]);
    } else if glued_meridiem {
        out.push(' ');
        out.push_str(tail);
    } else {
        out.push_str(tail);
    }
    out
}

fn is_meridiem(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 2
        && matches!(bytes[0], b'a' | b'A' | b'p' | b'P')
        && matches!(bytes[1], b'm' | b'M')
}

/// Where the first clock (`H:MM` or `HH:MM`) of `text` starts, when something comes before it.
fn clock_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (1..bytes.len()).find_map(|colon| {
        if bytes[colon] != b':' {
            return None;
        }
        let minutes = bytes.get(colon + 1..colon + 3)?;
        if !minutes.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let mut start = colon;
        while start > 0 && bytes[start - 1].is_ascii_digit() && colon - start < 2 {
            start -= 1;
        }
        (start < colon && start > 0 && !bytes[start - 1].is_ascii_digit()).then_some(start)
    })
}

/// The length of the joining at the end of `head` (the text before a clock): spaces around an
/// optional `,`, `at`, `-`, `|` or `@`.
fn joining_length(head: &str) -> usize {
    let trimmed = head.trim_end();
    let mut rest = trimmed;
    for word in [",", "at", "-", "|", "@"] {
        if let Some(before) = trimmed.strip_suffix(word) {
            let word_boundary = word != "at" || before.ends_with(' ');
            if word_boundary {
                rest = before.trim_end();
                break;
            }
        }
    }
    head.len() - rest.len()
}
