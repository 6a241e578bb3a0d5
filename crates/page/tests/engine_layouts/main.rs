//! Thread pages of my own making in the layouts of many forum engines and versions, each read by
//! the whole analysis and checked post by post: the author (the profile link, or the name where
//! the page links none), the time at the precision the page gives, and the whole text without
//! badges, signatures or buttons. The analysis knows nothing of any engine, so each page checks
//! that the general rules carry over to markup they were not written for: user titles, ranks,
//! stars and reputation beside the name, quotes with names and dates inside the text, reply
//! forms and similar-thread teasers beside the posts, join dates in the author column, and dates
//! in six languages and many joining styles.
//!
//! `check` holds the one check every page goes through and `threads` the conversations (English,
//! German, French, Spanish, Russian, Chinese) the engines print; every other module is one
//! engine family or kind of site.

mod archives_and_questions;
mod check;
mod classic;
mod discuz;
mod first_six;
mod hand_made;
mod mail_archives;
mod modern;
mod mybb_invision;
mod phpbb;
mod plugins_and_suites;
mod smf;
mod threads;
mod undated_replies;
mod vbulletin;
mod xenforo;
