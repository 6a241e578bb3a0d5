//! Dates joined to their clocks in every style forums print: a joining word in each language
//! ("at", "um", "à", "a las", "alle", "в", "om", "às"), a comma, a dash, a bar or a dot, and a
//! meridiem glued to the minutes or spaced, with or without dots. Each date below is Wednesday
//! 4 May 2016 at 21:05, or the day of the tests' fetch (2 April 2025) for day words.

use super::{check_table, context, found_in};

/// Whole strings that must read as 4 May 2016, 21:05 (or as the time written after them).
const READS: &[(&str, &str)] = &[
    // English joining words, meridiem glued or spaced.
    ("4 May 2016 at 9:05PM", "2016-05-04T21:05"),
    ("4 May 2016 at 9:05 PM", "2016-05-04T21:05"),
    ("4 May 2016 at 9:05pm", "2016-05-04T21:05"),
    ("4 May 2016 at 9:05 p.m.", "2016-05-04T21:05"),
    ("4 May 2016 at 9:05 P.M.", "2016-05-04T21:05"),
    ("4 May 2016 at 21:05", "2016-05-04T21:05"),
    ("4 May 2016 at 9PM", "2016-05-04T21:00"),
    ("4 May, 2016 at 9:05 PM", "2016-05-04T21:05"),
    ("4th May 2016, 9:05 pm", "2016-05-04T21:05"),
    ("05-04-2016 at 9:05 pm", "2016-05-04T21:05"),
    ("05-14-2019 at 3:15 pm", "2019-05-14T15:15"),
    ("05-14-2019 at 3:15PM", "2019-05-14T15:15"),
    ("05/14/2019 at 03:15 PM", "2019-05-14T15:15"),
    ("2016-05-04 at 21:05", "2016-05-04T21:05"),
    ("2016-05-04 at 9:05PM", "2016-05-04T21:05"),
    ("May 4th, 2016, 09:05 PM", "2016-05-04T21:05"),
    ("May 4th, 2016 at 09:05 PM", "2016-05-04T21:05"),
    ("May 4, 2016 at 9:05 p.m.", "2016-05-04T21:05"),
    ("May 4, 2016 at 9:05:30 PM", "2016-05-04T21:05:30"),
    ("May 4 2016 at 9:05PM", "2016-05-04T21:05"),
    ("May 04 2016, 9:05PM", "2016-05-04T21:05"),
    ("May 4, 2016 @ 9:05pm", "2016-05-04T21:05"),
    ("May 4, 2016 - 9:05 PM", "2016-05-04T21:05"),
    ("May 4, 2016 \u{2013} 9:05 PM", "2016-05-04T21:05"),
    ("May 4, 2016 | 9:05 PM", "2016-05-04T21:05"),
    ("May 4, 2016 \u{b7} 9:05 PM", "2016-05-04T21:05"),
    ("05/04/2016 : 21:05:12", "2016-05-04T21:05:12"),
    ("May 4, 2016 : 9:05 PM", "2016-05-04T21:05"),
    ("May 4, 2016, at 9:05 PM", "2016-05-04T21:05"),
    ("Wed May 04, 2016 9:05 pm", "2016-05-04T21:05"),
    ("Wednesday, May 4, 2016 at 9:05 PM", "2016-05-04T21:05"),
    ("Wed, 4 May 2016 at 21:05", "2016-05-04T21:05"),
    ("May 4, 2016 at 9:05\u{a0}PM", "2016-05-04T21:05"),
    (
        "4\u{a0}May\u{a0}2016 at\u{a0}9:05\u{a0}PM",
        "2016-05-04T21:05",
    ),
    // British dotted clocks take a meridiem as German ones take "Uhr".
    ("4 May 2016 at 9.05pm", "2016-05-04T21:05"),
    ("4 May 2016, 9.05 pm", "2016-05-04T21:05"),
    ("4 May 2016 at 9.05 p.m.", "2016-05-04T21:05"),
    // German.
    ("04.05.2016 um 21:05 Uhr", "2016-05-04T21:05"),
    ("04.05.2016 um 21:05", "2016-05-04T21:05"),
    ("04.05.2016, 21:05 Uhr", "2016-05-04T21:05"),
    ("04.05.2016 - 21:05", "2016-05-04T21:05"),
    ("4. Mai 2016 um 21:05", "2016-05-04T21:05"),
    ("4. Mai 2016, 21:05 Uhr", "2016-05-04T21:05"),
    ("Mittwoch, 4. Mai 2016, 21:05", "2016-05-04T21:05"),
    // French.
    ("4 mai 2016 à 21:05", "2016-05-04T21:05"),
    ("4 mai 2016 à 21h05", "2016-05-04T21:05"),
    ("4 mai 2016 à 21 h 05", "2016-05-04T21:05"),
    ("04/05/2016 à 21:05", "2016-05-04T21:05"),
    ("4 mai 2016, 21:05", "2016-05-04T21:05"),
    ("mer. 4 mai 2016 21:05", "2016-05-04T21:05"),
    ("le 04/05/2016 à 21h05", "2016-05-04T21:05"),
    // Spanish, Italian, Portuguese, Dutch.
    ("4 de mayo de 2016 a las 21:05", "2016-05-04T21:05"),
    ("4 de mayo de 2016, 21:05", "2016-05-04T21:05"),
    ("04/05/2016 a las 21:05", "2016-05-04T21:05"),
    ("4 maggio 2016 alle 21:05", "2016-05-04T21:05"),
    ("4 de maio de 2016 às 21:05", "2016-05-04T21:05"),
    ("4 mei 2016 om 21:05", "2016-05-04T21:05"),
    // Russian.
    ("4 мая 2016 в 21:05", "2016-05-04T21:05"),
    ("4 мая 2016 г. в 21:05", "2016-05-04T21:05"),
    ("4 мая 2016, 21:05", "2016-05-04T21:05"),
    ("04.05.2016 в 21:05", "2016-05-04T21:05"),
    // Chinese.
    ("2016年5月4日 21:05", "2016-05-04T21:05"),
    ("2016年5月4日 晚上 9:05", "2016-05-04T21:05"),
    ("2016-05-04 21:05", "2016-05-04T21:05"),
    ("2016-5-4 21:05", "2016-05-04T21:05"),
    // Day words joined the same ways.
    ("Today at 9:05 PM", "2025-04-02T21:05"),
    ("Today at 9:05PM", "2025-04-02T21:05"),
    ("Yesterday at 9:05pm", "2025-04-01T21:05"),
    ("Yesterday, 9:05 p.m.", "2025-04-01T21:05"),
    ("Today, at 9:05 PM", "2025-04-02T21:05"),
    ("Heute um 21:05 Uhr", "2025-04-02T21:05"),
    ("Gestern, 21:05", "2025-04-01T21:05"),
    ("Aujourd'hui à 21:05", "2025-04-02T21:05"),
    ("Aujourd\u{2019}hui à 21h05", "2025-04-02T21:05"),
    ("Hier à 21:05", "2025-04-01T21:05"),
    ("Hoy a las 21:05", "2025-04-02T21:05"),
    ("Ayer a las 21:05", "2025-04-01T21:05"),
    ("Oggi alle 21:05", "2025-04-02T21:05"),
    ("Ieri alle 21:05", "2025-04-01T21:05"),
    ("Сегодня в 21:05", "2025-04-02T21:05"),
    ("Вчера в 21:05", "2025-04-01T21:05"),
    ("Сегодня, 21:05", "2025-04-02T21:05"),
    ("今天 21:05", "2025-04-02T21:05"),
    ("昨天 晚上 9:05", "2025-04-01T21:05"),
    ("Sunday at 9:05PM", "2025-03-30T21:05"),
    // The clock between the day and the year, as `date(1)` and mail archives print it.
    ("Wed May  4 21:05:12 CEST 2016", "2016-05-04T21:05:12+02:00"),
    ("Wed May 4 21:05:12 2016", "2016-05-04T21:05:12"),
    ("Thu Jun 02 10:02:09 EDT 2016", "2016-06-02T10:02:09-04:00"),
    ("Sat Dec 31 23:59:59 UTC 2011", "2011-12-31T23:59:59+00:00"),
];

/// Numeric dates whose day and month could be swapped: a joining word of a language that writes
/// dates day first settles them day first, while English "at" keeps the month-first default.
const ORDER_BY_JOINING_WORD: &[(&str, &str)] = &[
    ("04/05/2016 à 21:05", "2016-05-04T21:05"),
    ("04/05/2016 a las 21:05", "2016-05-04T21:05"),
    ("04-05-2016 um 21:05", "2016-05-04T21:05"),
    ("04/05/2016 alle 21:05", "2016-05-04T21:05"),
    ("04/05/2016 às 21:05", "2016-05-04T21:05"),
    ("04-05-2016 om 21:05", "2016-05-04T21:05"),
    ("04/05/2016 в 21:05", "2016-05-04T21:05"),
    ("04/05/2016 at 9:05 PM", "2016-04-05T21:05"),
    ("04/05/2016, 9:05 PM", "2016-04-05T21:05"),
];

#[test]
fn dates_read_in_every_joining_style() {
    check_table(
        READS
            .iter()
            .map(|(text, expected)| (*text, Some(*expected))),
    );
}

#[test]
fn joining_words_of_day_first_languages_settle_the_order() {
    check_table(
        ORDER_BY_JOINING_WORD
            .iter()
            .map(|(text, expected)| (*text, Some(*expected))),
    );
}

/// A year after the clock belongs to a date printed without one, and is never left behind as
/// the fetch year's date; numbers after a date that only look like clocks stay out.
#[test]
fn a_year_after_the_clock_is_the_dates_year() {
    let context = context();
    assert_eq!(
        found_in(
            "From alice, Wed May  4 21:05:12 CEST 2016, wrote:",
            &context
        ),
        vec![(
            "Wed May  4 21:05:12 CEST 2016".to_string(),
            "2016-05-04T21:05:12+02:00".to_string()
        )]
    );
    // A dotted pair of numbers after a date is a clock only with its marker.
    assert_eq!(
        found_in(
            "Price on 4 May 2016 9.50 EUR, version 2.10 amended",
            &context
        ),
        vec![("4 May 2016".to_string(), "2016-05-04".to_string())]
    );
    assert_eq!(
        found_in("Due 4 May 2016 9.50 amazing", &context),
        vec![("4 May 2016".to_string(), "2016-05-04".to_string())]
    );
    // A year that does not follow the clock directly is another number.
    assert_eq!(
        found_in("May 4 21:05 posted 2016 words", &context),
        vec![("May 4 21:05".to_string(), "2024-05-04T21:05".to_string())]
    );
}

/// Post headers in which the joined date sits among other words: the match is the date and its
/// clock, and nothing around them.
const IN_RUNNING_TEXT: &[(&str, &str, &str)] = &[
    (
        "Posted by alice on 4 May 2016 at 9:05PM. Quote",
        "4 May 2016 at 9:05PM",
        "2016-05-04T21:05",
    ),
    (
        "#3 05-14-2019 at 3:15 pm Reply",
        "05-14-2019 at 3:15 pm",
        "2019-05-14T15:15",
    ),
    (
        "bob wrote on May 4th, 2016, 09:05 PM: Agreed.",
        "May 4th, 2016, 09:05 PM",
        "2016-05-04T21:05",
    ),
    (
        "Last edited: Today at 9:05 PM by carol",
        "Today at 9:05 PM",
        "2025-04-02T21:05",
    ),
    (
        "Antwort am 04.05.2016 um 21:05 Uhr von dave",
        "04.05.2016 um 21:05 Uhr",
        "2016-05-04T21:05",
    ),
    (
        "Message posté le 4 mai 2016 à 21h05 par eve",
        "le 4 mai 2016 à 21h05",
        "2016-05-04T21:05",
    ),
    (
        "Ответ от 4 мая 2016 в 21:05 пользователя ivan",
        "4 мая 2016 в 21:05",
        "2016-05-04T21:05",
    ),
    (
        "Publicado el 4 de mayo de 2016 a las 21:05 por juan",
        "4 de mayo de 2016 a las 21:05",
        "2016-05-04T21:05",
    ),
    (
        "Joined May 2016 · 4 May 2016 at 9:05PM",
        "4 May 2016 at 9:05PM",
        "2016-05-04T21:05",
    ),
];

#[test]
fn joined_dates_are_found_whole_in_running_text() {
    let context = context();
    let failures: Vec<String> = IN_RUNNING_TEXT
        .iter()
        .filter_map(|(text, matched, iso)| {
            let found = found_in(text, &context);
            let expected = (matched.to_string(), iso.to_string());
            (!found.contains(&expected)).then(|| format!("{text:?}: found {found:?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
