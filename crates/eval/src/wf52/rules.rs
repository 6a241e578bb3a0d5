//! The reference scorer's rules for one gold post's time and author, written out in Rust.
//!
//! `shared/evals/wf52/score.py` decides what a gold date form states (year, month, day, clock),
//! reads numeric dates in the day/month order the forum's own gold forms show, leaves relative
//! forms out, and matches a gold author given as a profile link by URL. Each rule here mirrors one
//! of its regular expressions or functions, scanned by hand because the `regex` crate has no
//! look-behind or back-reference, which those expressions use. Only the reading of a date itself
//! differs: the reference asks Python's `dateparser`, this port asks trawl's date reader with the
//! same day/month order; as only the fields the form states are compared, the two agree on every
//! form both read.

use trawl_page::time::DayMonthOrder;

/// One numeric date `A<sep>B<sep>C` in a text, as the reference's `NUMERIC` expression finds
/// it: 1-4 digits, a separator among `./-`, 1-2 digits, the same separator, 2-4 digits, with no
/// digit on either side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumericDate<'text> {
    pub first: &'text str,
    pub separator: char,
    pub second: &'text str,
}

/// Every numeric date of `text`, left to right, not overlapping.
pub fn numeric_dates(text: &str) -> Vec<NumericDate<'_>> {
    let bytes = text.as_bytes();
    let digits_from = |start: usize| {
        bytes[start..]
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count()
    };
    let mut found = Vec::new();
    let mut index = 0;
    while index < bytes.len() {
        let starts_run =
            bytes[index].is_ascii_digit() && (index == 0 || !bytes[index - 1].is_ascii_digit());
        if !starts_run {
            index += 1;
            continue;
        }
        let first_length = digits_from(index);
        let date = (|| {
            if first_length > 4 {
                return None;
            }
            let separator_at = index + first_length;
            let separator = *bytes.get(separator_at)?;
            if !matches!(separator, b'.' | b'/' | b'-') {
                return None;
            }
            let second_start = separator_at + 1;
            let second_length = digits_from(second_start);
            if !(1..=2).contains(&second_length) {
                return None;
            }
            if bytes.get(second_start + second_length) != Some(&separator) {
                return None;
            }
            let third_start = second_start + second_length + 1;
            let third_length = digits_from(third_start);
            if !(2..=4).contains(&third_length) {
                return None;
            }
            Some((
                NumericDate {
                    first: &text[index..separator_at],
                    separator: char::from(separator),
                    second: &text[second_start..second_start + second_length],
                },
                third_start + third_length,
            ))
        })();
        match date {
            Some((date, end)) => {
                found.push(date);
                index = end;
            }
            None => index += first_length,
        }
    }
    found
}

/// The day/month order of one forum's numeric dates, settled from its gold forms as the
/// reference's `date_order` does: a first number above 12 votes day first, a second above 12
/// month first; with no vote, dotted dates are day first and anything else is left unknown.
pub fn forum_day_month_order<'form>(forms: impl IntoIterator<Item = &'form str>) -> DayMonthOrder {
    let (mut day_first, mut month_first, mut dotted) = (0, 0, 0);
    for form in forms {
        for date in numeric_dates(form) {
            if date.first.len() == 4 {
                continue;
            }
            let first: u32 = date.first.parse().unwrap_or(0);
            let second: u32 = date.second.parse().unwrap_or(0);
            day_first += usize::from(first > 12);
            month_first += usize::from(second > 12);
            dotted += usize::from(date.separator == '.');
        }
    }
    if day_first > month_first {
        DayMonthOrder::DayFirst
    } else if month_first > day_first {
        DayMonthOrder::MonthFirst
    } else if dotted > 0 {
        DayMonthOrder::DayFirst
    } else {
        DayMonthOrder::Unknown
    }
}

/// Whether a numeric date's order should be imposed on `form`: only when it holds one whose
/// first number is not a year (the reference sets `DATE_ORDER` only then).
pub fn order_applies(form: &str) -> bool {
    numeric_dates(form)
        .first()
        .is_some_and(|date| date.first.len() != 4)
}

/// Words (runs of letters, digits and underscores, lowercased) as Python's `\w` splits them.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect()
}

/// The reference's `RELATIVE` words: a form holding one is not scored, since the pages' fetch
/// times are unknown.
const RELATIVE_WORDS: &[&str] = &[
    "ago",
    "yesterday",
    "today",
    "hour",
    "hours",
    "minute",
    "minutes",
    "week",
    "weeks",
    "heute",
    "gestern",
    "vorgestern",
    "vor",
    "her",
    "stunde",
    "stunden",
    "minuten",
    "tage",
    "tagen",
    "woche",
    "wochen",
    "monate",
    "monaten",
    "jahre",
    "jahren",
    "hier",
    "aujourd",
    "hace",
    "ayer",
    "hoy",
    "fa",
    "ieri",
    "oggi",
    "geleden",
    "gisteren",
    "vandaag",
];

/// Whether a gold form is relative ("3 hours ago", "vor 2 Tagen", "il y a 3 jours").
pub fn is_relative(form: &str) -> bool {
    let words = words(form);
    words
        .iter()
        .any(|word| RELATIVE_WORDS.contains(&word.as_str()))
        || words.windows(2).any(|pair| pair == ["just", "now"])
        || words.windows(3).any(|triple| triple == ["il", "y", "a"])
}

/// Whether a gold form names a month alone with its year ("September 2019"), so that its day is
/// not stated.
pub fn is_month_only(form: &str) -> bool {
    let mut parts = form.split_whitespace();
    let (Some(month), Some(year), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let month = month.strip_suffix('.').unwrap_or(month);
    !month.is_empty()
        && month.chars().all(char::is_alphabetic)
        && year.len() == 4
        && year.bytes().all(|byte| byte.is_ascii_digit())
}

/// Whether a gold form states a clock time: `H:MM`, `HhMM` (not after a digit or dot, not before
/// a digit), or a digit followed by am/pm.
pub fn states_clock(form: &str) -> bool {
    let bytes = form.as_bytes();
    let digit = |index: usize| bytes.get(index).is_some_and(u8::is_ascii_digit);
    let clock_at = |start: usize| {
        if start > 0 && (digit(start - 1) || bytes[start - 1] == b'.') {
            return false;
        }
        (1..=2).any(|hour_digits| {
            (0..hour_digits).all(|offset| digit(start + offset))
                && matches!(bytes.get(start + hour_digits), Some(b':' | b'h'))
                && digit(start + hour_digits + 1)
                && digit(start + hour_digits + 2)
                && !digit(start + hour_digits + 3)
        })
    };
    let meridiem_at = |start: usize| {
        digit(start) && {
            let rest = form[start + 1..].trim_start().to_lowercase();
            (rest.starts_with("am") || rest.starts_with("pm"))
                && !rest[2..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
        }
    };
    (0..bytes.len()).any(|index| clock_at(index) || meridiem_at(index))
}

/// Whether a gold form states its year: a four-digit year (18xx-20xx) standing alone, an
/// apostrophe year (`'19`), a month abbreviation with a dash and two digits (`Mar-19`), or a
/// numeric date.
pub fn states_year(form: &str) -> bool {
    let bytes = form.as_bytes();
    let digit = |index: usize| bytes.get(index).is_some_and(u8::is_ascii_digit);
    let word_char = |c: char| c.is_alphanumeric() || c == '_';
    let four_digit_year = (0..bytes.len()).any(|start| {
        (start == 0 || !digit(start - 1))
            && (0..4).all(|offset| digit(start + offset))
            && !digit(start + 4)
            && matches!(&form[start..start + 2], "18" | "19" | "20")
    });
    let apostrophe_year = form.match_indices('\'').any(|(at, _)| {
        digit(at + 1) && digit(at + 2) && !form[at + 3..].chars().next().is_some_and(word_char)
    });
    let chars: Vec<(usize, char)> = form.char_indices().collect();
    let month_dash_year = chars.windows(6).any(|window| {
        window[..3].iter().all(|&(_, c)| c.is_alphabetic())
            && window[3].1 == '-'
            && window[4].1.is_ascii_digit()
            && window[5].1.is_ascii_digit()
            && !form[window[5].0 + 1..]
                .chars()
                .next()
                .is_some_and(word_char)
    });
    four_digit_year || apostrophe_year || month_dash_year || !numeric_dates(form).is_empty()
}

/// The fields of a date a gold form states, which are the fields compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatedFields {
    pub year: bool,
    pub day: bool,
    pub clock: bool,
}

/// The fields `form` states (the month always counts).
pub fn stated_fields(form: &str) -> StatedFields {
    StatedFields {
        year: states_year(form),
        day: !is_month_only(form),
        clock: states_clock(form),
    }
}

/// Whether a predicted wall-clock time agrees with the gold one on every stated field.
pub fn time_agrees(
    predicted: jiff::civil::DateTime,
    gold: jiff::civil::DateTime,
    fields: StatedFields,
) -> bool {
    (!fields.year || predicted.year() == gold.year())
        && predicted.month() == gold.month()
        && (!fields.day || predicted.day() == gold.day())
        && (!fields.clock || (predicted.hour(), predicted.minute()) == (gold.hour(), gold.minute()))
}

/// Session-id query keys dropped before two profile links are compared.
const SESSION_KEYS: [&str; 6] = ["sid", "s", "phpsessid", "sessionid", "session", "sessid"];

/// Whether a gold user is a link to a posting action (a quote or reply button): an annotation
/// error the reference leaves out of the author score.
pub fn is_posting_action(user: &str) -> bool {
    let lower = user.to_lowercase();
    if lower.contains("posting.php") {
        return true;
    }
    let bytes = lower.as_bytes();
    let word_ends = |end: usize| {
        !bytes
            .get(end)
            .is_some_and(|&byte| byte.is_ascii_alphanumeric() || byte == b'_')
    };
    let query_value = |key: &str, values: &[&str]| {
        ["?", "&", ";"].iter().any(|lead| {
            let needle = format!("{lead}{key}=");
            lower.match_indices(&needle).any(|(at, _)| {
                let value_start = at + needle.len();
                values.iter().any(|value| {
                    lower[value_start..].starts_with(value) && word_ends(value_start + value.len())
                })
            })
        })
    };
    query_value("mode", &["quote", "reply", "post"])
        || query_value("action", &["post", "reply", "quote"])
}

/// Whether a gold user is written as a link (one word that looks like an address) rather than a
/// name.
pub fn is_link(user: &str) -> bool {
    let user = user.trim();
    if user.is_empty() || user.chars().any(char::is_whitespace) {
        return false;
    }
    let lower = user.to_lowercase();
    let script_extension = ["php", "pl", "asp", "aspx", "htm", "html"]
        .iter()
        .any(|extension| {
            let needle = format!(".{extension}");
            lower.match_indices(&needle).any(|(at, _)| {
                !lower[at + needle.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        });
    lower.starts_with("http:")
        || lower.starts_with("https:")
        || user.contains('/')
        || user.contains('?')
        || script_extension
}

/// A link resolved against the page and normalised as the reference does: scheme and host
/// lowercased, session keys and the fragment dropped, a trailing slash taken off the path.
pub fn normalised_link(base: &url::Url, link: &str) -> Option<String> {
    let mut resolved = base.join(link.trim()).ok()?;
    resolved.set_fragment(None);
    let kept: Vec<(String, String)> = resolved
        .query_pairs()
        .filter(|(key, _)| !SESSION_KEYS.contains(&key.to_lowercase().as_str()))
        .map(|(key, value)| (key.into_owned(), value.into_owned()))
        .collect();
    let path = resolved.path().trim_end_matches('/').to_string();
    let path = if path.is_empty() {
        "/".to_string()
    } else {
        path
    };
    let query = kept
        .iter()
        .map(|(key, value)| format!("{key}={value}"))
        .collect::<Vec<_>>()
        .join("&");
    Some(format!(
        "{}://{}{}{}{}",
        resolved.scheme(),
        resolved.host_str().unwrap_or("").to_lowercase(),
        resolved
            .port()
            .map(|port| format!(":{port}"))
            .unwrap_or_default(),
        path,
        if query.is_empty() {
            String::new()
        } else {
            format!("?{query}")
        }
    ))
}

/// Case and space folding of a name.
fn fold(text: &str) -> String {
    text.to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a predicted author is the gold user: the same name after folding, or, for a gold user
/// given as a link, a predicted profile link (or author) that resolves to the same address.
pub fn author_agrees(
    base: &url::Url,
    gold: &str,
    predicted_author: Option<&str>,
    predicted_url: Option<&str>,
) -> bool {
    if predicted_author.is_some_and(|author| fold(author) == fold(gold)) {
        return true;
    }
    if !is_link(gold) {
        return false;
    }
    let Some(want) = normalised_link(base, gold) else {
        return false;
    };
    [predicted_url, predicted_author]
        .into_iter()
        .flatten()
        .filter(|candidate| !candidate.is_empty())
        .any(|candidate| normalised_link(base, candidate).as_deref() == Some(want.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_dates_are_found_as_the_reference_finds_them() {
        let check = |text: &str, expected: &[(&str, char, &str)]| {
            let found: Vec<(&str, char, &str)> = numeric_dates(text)
                .iter()
                .map(|date| (date.first, date.separator, date.second))
                .collect();
            assert_eq!(found, expected, "{text:?}");
        };
        check("12.03.2020, 10:15", &[("12", '.', "03")]);
        check("2019-05-14 21:05", &[("2019", '-', "05")]);
        check("05/14/19", &[("05", '/', "14")]);
        check("5.3.20 and 7/8/2021", &[("5", '.', "3"), ("7", '/', "8")]);
        check("12.03/2020", &[]);
        check("123456.03.2020", &[]);
        check("12.03.20201", &[]);
        check("12.3.2", &[]);
        check("Posted March 3", &[]);
    }

    #[test]
    fn a_forum_day_month_order_comes_from_its_own_forms() {
        let check = |forms: &[&str], expected: DayMonthOrder| {
            assert_eq!(
                forum_day_month_order(forms.iter().copied()),
                expected,
                "{forms:?}"
            );
        };
        check(&["13/02/2020", "01/02/2020"], DayMonthOrder::DayFirst);
        check(&["02/13/2020", "01/02/2020"], DayMonthOrder::MonthFirst);
        check(&["01.02.2020"], DayMonthOrder::DayFirst);
        check(&["01/02/2020"], DayMonthOrder::Unknown);
        check(&["2020-02-13"], DayMonthOrder::Unknown);
        check(&["March 3, 2020"], DayMonthOrder::Unknown);
    }

    #[test]
    fn the_fields_a_form_states() {
        let check = |form: &str, year: bool, day: bool, clock: bool| {
            assert_eq!(
                stated_fields(form),
                StatedFields { year, day, clock },
                "{form:?}"
            );
        };
        check("Sunday 8th March", false, true, false);
        check("Sunday 8th March 2020 10:15", true, true, true);
        check("12.03.2020", true, true, false);
        check("September 2019", true, false, false);
        check("Sept. 2019", true, false, false);
        check("Mar 30 '19, 9:05PM", true, true, true);
        check("05-14-2019 at 3:15 pm", true, true, true);
        check("30 mars à 22h11", false, true, true);
        check("4 May at 9 pm", false, true, true);
        check("Mar-19", true, true, false);
        check("1.5.2020", true, true, false);
        check("page 12345", false, true, false);
    }

    #[test]
    fn relative_forms_are_left_out() {
        for form in [
            "3 hours ago",
            "Yesterday, 22:31",
            "vor 2 Tagen",
            "1 Jahr 2 Tage her",
            "il y a 3 jours",
            "just now",
            "hace 2 días",
            "Heute, 10:15",
        ] {
            assert!(is_relative(form), "{form:?}");
        }
        for form in ["12.03.2020", "March 30, 2020", "Tag 3", "Sunday 8th March"] {
            assert!(!is_relative(form), "{form:?}");
        }
    }

    #[test]
    fn stated_fields_are_compared_and_nothing_else() {
        let at = |text: &str| text.parse::<jiff::civil::DateTime>().unwrap();
        let all = StatedFields {
            year: true,
            day: true,
            clock: true,
        };
        let yearless = StatedFields { year: false, ..all };
        let dateonly = StatedFields {
            clock: false,
            ..all
        };
        assert!(time_agrees(
            at("2020-03-08T10:15"),
            at("2020-03-08T10:15"),
            all
        ));
        assert!(!time_agrees(
            at("2020-03-08T10:16"),
            at("2020-03-08T10:15"),
            all
        ));
        assert!(time_agrees(
            at("2020-03-08T10:15"),
            at("2021-03-08T10:15"),
            yearless
        ));
        assert!(!time_agrees(
            at("2020-03-08T10:15"),
            at("2021-03-08T10:15"),
            all
        ));
        assert!(time_agrees(
            at("2020-03-08T23:59"),
            at("2020-03-08T00:00"),
            dateonly
        ));
        assert!(!time_agrees(
            at("2020-08-03T10:15"),
            at("2020-03-08T10:15"),
            all
        ));
    }

    #[test]
    fn profile_link_authors_match_by_address() {
        let base = url::Url::parse("https://forum.example/viewtopic.php?t=5").unwrap();
        let check = |gold: &str, author: Option<&str>, link: Option<&str>, expected: bool| {
            assert_eq!(
                author_agrees(&base, gold, author, link),
                expected,
                "{gold:?} {author:?} {link:?}"
            );
        };
        check("Alice  Smith", Some("alice smith"), None, true);
        check("Alice", Some("Bob"), None, false);
        check(
            "./memberlist.php?mode=viewprofile&u=5",
            Some("alice"),
            Some("https://forum.example/memberlist.php?mode=viewprofile&u=5&sid=abc"),
            true,
        );
        check(
            "/members/alice.5/",
            Some("alice"),
            Some("https://FORUM.example/members/alice.5#post"),
            true,
        );
        check(
            "/members/alice.5/",
            Some("alice"),
            Some("https://forum.example/members/bob.6/"),
            false,
        );
        check("/members/alice.5/", Some("/members/alice.5"), None, true);
    }

    #[test]
    fn posting_action_links_are_not_authors() {
        assert!(is_posting_action("./posting.php?mode=quote&p=5"));
        assert!(is_posting_action("/forum?action=reply;topic=3"));
        assert!(!is_posting_action("/memberlist.php?mode=viewprofile&u=5"));
        assert!(!is_posting_action("/index.php?action=postal"));
    }

    #[test]
    fn gold_links_are_told_from_names() {
        assert!(is_link("./memberlist.php?mode=viewprofile&u=5"));
        assert!(is_link("https://forum.example/u/alice"));
        assert!(is_link("profile.php"));
        assert!(!is_link("Alice Smith"));
        assert!(!is_link("alice"));
        assert!(!is_link("alice.phpfan"));
    }
}
