//! Whether two pages' titles can name one list.
//!
//! The pages of one list share their title, up to what tells the pages apart: a later page of a
//! thread adds its number or a word for "page" ("Topic - Page 2 - Forum"), and the next message
//! of a mail thread answers the first ("Re: Topic"). Neighbouring lists do not: the next thread
//! of a board shares the board's and the forum's names with this one, not the topic. So two
//! titles agree when, digits set aside, every word of the one with fewer words is a word of the
//! other. Both the learner (which links join pages of one list) and the list assembly (which
//! joins to trust) ask this one question.

use std::collections::BTreeSet;

/// The words of a title, folded to lower case, with digits left out (page numbers, dates of
/// archive pages) and words that were only digits dropped.
fn title_words(title: &str) -> BTreeSet<String> {
    title
        .split_whitespace()
        .map(|word| {
            word.chars()
                .filter(|character| !character.is_ascii_digit())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        })
        .filter(|word| !word.is_empty())
        .collect()
}

/// Whether the titles `first` and `second` can be those of two pages of one list (see the
/// module essay). A title with no words says nothing, so it agrees with any other.
pub fn titles_agree(first: &str, second: &str) -> bool {
    let (first, second) = (title_words(first), title_words(second));
    let (fewer, more) = if first.len() <= second.len() {
        (first, second)
    } else {
        (second, first)
    };
    fewer.is_subset(&more)
}

#[cfg(test)]
mod tests {
    use super::titles_agree;

    fn check(first: &str, second: &str, expected: bool) {
        assert_eq!(
            titles_agree(first, second),
            expected,
            "{first:?} and {second:?}"
        );
        assert_eq!(
            titles_agree(second, first),
            expected,
            "{second:?} and {first:?} (the question is symmetric)"
        );
    }

    #[test]
    fn a_reply_to_a_message_agrees_with_it() {
        check("Firchut cout chai?", "Re: Firchut cout chai?", true);
        check("Re: Firchut cout chai?", "Re: Firchut cout chai?", true);
        check("[list] Help needed", "[list] RE: Help needed", true);
    }

    #[test]
    fn a_later_page_agrees_with_the_first() {
        check("Topic title - Forum", "Topic title - Page 2 - Forum", true);
        check("Topic title - Forum", "Topic title - 第2页 - Forum", true);
        check("Board 12 | Forum", "Board 12 | Forum", true);
        check("Topic title page 3", "Topic title page 4", true);
    }

    #[test]
    fn neighbouring_threads_do_not_agree() {
        check("Firchut cout chai?", "Re: Gail poncy paheandbroo", false);
        check(
            "First topic - Board - Forum",
            "Second topic - Board - Forum",
            false,
        );
        check("Re: Nu stock ter", "Sout nol fyckcat", false);
    }

    #[test]
    fn a_title_without_words_says_nothing() {
        check("", "Any title", true);
        check("2024", "Any title", true);
        check("", "", true);
    }

    #[test]
    fn case_does_not_matter() {
        check("HELP WITH DRIVERS", "Re: help with drivers", true);
    }
}
