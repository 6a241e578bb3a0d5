//! Dates of eleven languages crossed with every joining style forums put between a date and its
//! clock: each language's date spellings (full month names, abbreviations with and without a
//! dot, numeric dates with four- and two-digit years, a weekday in front) joined by the
//! language's own word, a comma, a dash or a bar to a 24-hour clock, and, where the language
//! prints one, a 12-hour clock with its meridiem glued or spaced. Every case is Wednesday 14
//! September 2016 at 21:05, a day past the twelfth so that no numeric form is ambiguous; the day
//! words ("yesterday at 3:15 PM") are read against the tests' fetch day, 2 April 2025.

use super::check_table;

/// One language: its date spellings, the word it joins a date to a clock with, and whether its
/// forums print 12-hour clocks with a Latin meridiem.
struct Language {
    dates: &'static [&'static str],
    joining_word: &'static str,
    twelve_hour_clock: bool,
}

const LANGUAGES: &[Language] = &[
    // English.
    Language {
        dates: &[
            "14 September 2016",
            "14 Sep 2016",
            "14 Sep. 2016",
            "14 Sept. 2016",
            "September 14, 2016",
            "Sep 14, 2016",
            "Sep. 14, 2016",
            "Sept 14th, 2016",
            "Wed, Sep 14, 2016",
            "Wednesday, September 14, 2016",
            "09/14/2016",
            "09/14/16",
            "9/14/16",
            "09-14-2016",
            "2016-09-14",
            "14 Sep '16",
        ],
        joining_word: "at",
        twelve_hour_clock: true,
    },
    // German.
    Language {
        dates: &[
            "14. September 2016",
            "14. Sep. 2016",
            "14. Sept. 2016",
            "14. Sep 2016",
            "Mi, 14. Sep 2016",
            "Mittwoch, 14. September 2016",
            "14.09.2016",
            "14.09.16",
        ],
        joining_word: "um",
        twelve_hour_clock: false,
    },
    // French.
    Language {
        dates: &[
            "14 septembre 2016",
            "14 sept. 2016",
            "14 sept 2016",
            "mer. 14 sept. 2016",
            "mercredi 14 septembre 2016",
            "14/09/2016",
            "14/09/16",
        ],
        joining_word: "à",
        twelve_hour_clock: false,
    },
    // Spanish.
    Language {
        dates: &[
            "14 de septiembre de 2016",
            "14 sep. 2016",
            "14 sept 2016",
            "14 de sep. de 2016",
            "miércoles, 14 de septiembre de 2016",
            "14/09/2016",
            "14/09/16",
        ],
        joining_word: "a las",
        twelve_hour_clock: false,
    },
    // Russian.
    Language {
        dates: &[
            "14 сентября 2016",
            "14 сентября 2016 г.",
            "14 сент. 2016",
            "14 сен 2016",
            "14.09.2016",
            "14.09.16",
        ],
        joining_word: "в",
        twelve_hour_clock: false,
    },
    // Portuguese.
    Language {
        dates: &[
            "14 de setembro de 2016",
            "14 set. 2016",
            "14 set 2016",
            "14/09/2016",
            "14/09/16",
        ],
        joining_word: "às",
        twelve_hour_clock: false,
    },
    // Italian.
    Language {
        dates: &[
            "14 settembre 2016",
            "14 set 2016",
            "14 set. 2016",
            "14/09/2016",
            "14/09/16",
        ],
        joining_word: "alle",
        twelve_hour_clock: false,
    },
    // Dutch.
    Language {
        dates: &[
            "14 september 2016",
            "14 sep. 2016",
            "14 sep 2016",
            "14-09-2016",
            "14-9-2016",
        ],
        joining_word: "om",
        twelve_hour_clock: false,
    },
    // Polish.
    Language {
        dates: &[
            "14 września 2016",
            "14 wrz 2016",
            "14 wrz. 2016",
            "14.09.2016",
        ],
        joining_word: "o",
        twelve_hour_clock: false,
    },
];

/// The joinings every language's forums use besides their own word.
const JOININGS: &[&str] = &[" ", ", ", " - ", " | "];

/// The 12-hour clocks of 21:05.
const TWELVE_HOUR_CLOCKS: &[&str] = &["9:05 PM", "9:05PM", "9:05 pm", "9:05pm", "09:05 PM"];

/// Chinese and Japanese dates and clocks, which join by a space or nothing.
const EAST_ASIAN: &[&str] = &[
    "2016年9月14日 21:05",
    "2016年9月14日21:05",
    "2016年09月14日 21:05",
    "2016年9月14日 晚上9:05",
    "2016年9月14日 下午 9:05",
    "2016/09/14 21:05",
    "2016/9/14 21:05",
    "2016-09-14 21:05",
    "2016/09/14(水) 21:05",
    "2016年9月14日(水) 21:05",
    "2016年9月14日 午後9:05",
    "2016年9月14日 21時05分",
];

/// Day words with a clock, in every language and joining: (text, reading).
const DAY_WORDS: &[(&str, &str)] = &[
    ("Yesterday at 3:15 PM", "2025-04-01T15:15"),
    ("yesterday at 3:15pm", "2025-04-01T15:15"),
    ("Yesterday, 3:15 PM", "2025-04-01T15:15"),
    ("Yesterday - 3:15 PM", "2025-04-01T15:15"),
    ("Yesterday | 15:15", "2025-04-01T15:15"),
    ("Today at 03:15 PM", "2025-04-02T15:15"),
    ("Gestern um 15:15", "2025-04-01T15:15"),
    ("Gestern, 15:15 Uhr", "2025-04-01T15:15"),
    ("Heute - 15:15", "2025-04-02T15:15"),
    ("Hier à 15h15", "2025-04-01T15:15"),
    ("Aujourd'hui, 15:15", "2025-04-02T15:15"),
    ("Ayer a las 15:15", "2025-04-01T15:15"),
    ("Hoy, 15:15", "2025-04-02T15:15"),
    ("Вчера в 15:15", "2025-04-01T15:15"),
    ("Вчера, 15:15", "2025-04-01T15:15"),
    ("Сегодня в 15:15", "2025-04-02T15:15"),
    ("昨天 15:15", "2025-04-01T15:15"),
    ("今天 下午3:15", "2025-04-02T15:15"),
    ("昨日 15:15", "2025-04-01T15:15"),
    ("今日 15:15", "2025-04-02T15:15"),
    ("Ontem às 15:15", "2025-04-01T15:15"),
    ("Hoje, 15:15", "2025-04-02T15:15"),
    ("Ieri alle 15:15", "2025-04-01T15:15"),
    ("Oggi, 15:15", "2025-04-02T15:15"),
    ("Gisteren om 15:15", "2025-04-01T15:15"),
    ("Vandaag, 15:15", "2025-04-02T15:15"),
    ("Wczoraj o 15:15", "2025-04-01T15:15"),
    ("Dzisiaj, 15:15", "2025-04-02T15:15"),
    ("Dziś o 15:15", "2025-04-02T15:15"),
];

const EXPECTED: &str = "2016-09-14T21:05";

/// Every date of every language joined in every way to every clock it prints.
fn joined_cases() -> Vec<String> {
    let mut cases = Vec::new();
    for language in LANGUAGES {
        let own_word = format!(" {} ", language.joining_word);
        let joinings = JOININGS
            .iter()
            .copied()
            .chain(std::iter::once(own_word.as_str()));
        let joinings: Vec<&str> = joinings.collect();
        let mut clocks = vec!["21:05"];
        if language.twelve_hour_clock {
            clocks.extend_from_slice(TWELVE_HOUR_CLOCKS);
        }
        for date in language.dates {
            for joining in &joinings {
                for clock in &clocks {
                    cases.push(format!("{date}{joining}{clock}"));
                }
            }
        }
    }
    cases
}

#[test]
fn dates_of_eleven_languages_read_in_every_joining() {
    let cases = joined_cases();
    assert!(cases.len() > 400, "{} cases", cases.len());
    check_table(cases.iter().map(|case| (case.as_str(), Some(EXPECTED))));
}

#[test]
fn chinese_and_japanese_dates_read_with_their_clocks() {
    check_table(EAST_ASIAN.iter().map(|case| (*case, Some(EXPECTED))));
}

#[test]
fn day_words_read_in_every_language_and_joining() {
    check_table(
        DAY_WORDS
            .iter()
            .map(|(text, expected)| (*text, Some(*expected))),
    );
}
