//! YaBB-like (and phpBB 2-like in its layout): a Perl CGI forum of the early 2000s.
//!
//! One script answers everything, with `;`-separated parameters: boards by a short name
//! (`YaBB.pl?board=hardware`), threads by the second they were started
//! (`YaBB.pl?num=1743372665`), later pages by an offset after a slash (`?num=1743372665/15`).
//! Two threads started in the same second take the next free second, as the engine does.
//! Pages are tables where one post spans three rows (the name, the text, then a footer with
//! the date and links), names are never links, dates carry an ordinal in `<sup>`
//! ("Mar 30<sup>th</sup>, 2025, 10:11pm"), and the charset is named only in `<meta>`.

use super::common::{HistoryCache, action, plain_number, without_quirks};
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, Quirks,
    RenderContext,
};
use crate::history::ForumHistory;
use crate::html::{parse_query, percent_encode, query_value, split_path_and_query};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::{self, Language, slugify};
use crate::views::Page;

mod templates;
#[cfg(test)]
mod tests;

/// The script every URL names.
const SCRIPT: &str = "/cgi-bin/yabb2/YaBB.pl";

#[derive(Debug)]
pub(crate) struct Yabb {
    profile: FamilyProfile,
    /// Per thread (index = id - 1), the second that names it; strictly increasing.
    stamps: HistoryCache<Vec<i64>>,
}

impl Yabb {
    pub(crate) fn new() -> Self {
        Yabb {
            profile: FamilyProfile {
                name: "yabb",
                description: "YaBB-like CGI forum: YaBB.pl?num=<start second>/15, boards by \
                              short name, one post over three table rows, names not links",
                language: Language::English,
                charset: Charset::Windows1252,
                charset_in_header: false,
                utc_offset_seconds: 0,
                threads_per_page: 20,
                posts_per_page: 15,
                members_per_page: 25,
                login_wall: LoginWall::PromptWithOk,
                profiles_need_login: true,
                permalink: PermalinkStyle::ShowsThreadPage,
                session_parameter: None,
                session_cookie: "Y2User",
                adjacent_threads: AdjacentThreads::ServerResolved,
                missing_status: 200,
                aliases_redirect: false,
                quirks: Quirks::NONE,
            },
            stamps: HistoryCache::new(),
        }
    }

    fn stamps(&self, history: &ForumHistory) -> std::sync::Arc<Vec<i64>> {
        self.stamps.get(history, |history| {
            let mut stamps: Vec<i64> = Vec::with_capacity(history.thread_count() as usize);
            for thread in 1..=history.thread_count() {
                let created = history.thread(thread).map_or(0, |record| record.created);
                let free = stamps.last().map_or(created, |&last| created.max(last + 1));
                stamps.push(free);
            }
            stamps
        })
    }

    /// The second naming `thread` (a thread this forum lacks gets one past the last).
    fn stamp(&self, history: &ForumHistory, thread: u32) -> i64 {
        let stamps = self.stamps(history);
        match stamps.get((thread as usize).wrapping_sub(1)) {
            Some(&stamp) => stamp,
            None => stamps.last().copied().unwrap_or(0) + i64::from(thread),
        }
    }

    /// The thread a second names.
    fn thread_of(&self, history: &ForumHistory, stamp: &str) -> Option<u32> {
        let stamp = i64::from(plain_number(stamp)?);
        let stamps = self.stamps(history);
        stamps
            .binary_search(&stamp)
            .ok()
            .map(|index| index as u32 + 1)
    }
}

/// A board's short name: its name's letters and digits in lower case.
fn board_key(history: &ForumHistory, board: u32) -> String {
    history.board(board).map_or_else(
        || format!("board{board}"),
        |record| slugify(&record.name).replace('-', ""),
    )
}

/// YaBB's `sort` value of a list order.
fn sort_key(sort: SortOrder) -> &'static str {
    match sort {
        SortOrder::LastPost => "lastpost",
        SortOrder::Title => "subject",
        SortOrder::Author => "starter",
        SortOrder::Replies => "replies",
        SortOrder::Created => "started",
    }
}

/// Splits `value/offset` into the value and the 1-based page the offset starts (an offset
/// that starts no page is refused); `/0` is the explicit spelling of the first page.
fn with_offset<'a>(text: &'a str, per_page: u32, variant: &mut Variant) -> Option<(&'a str, u32)> {
    let Some((value, offset)) = text.split_once('/') else {
        return Some((text, 1));
    };
    let offset = plain_number(offset)?;
    if offset % per_page != 0 {
        return None;
    }
    variant.explicit_first_page = offset == 0;
    Some((value, offset / per_page + 1))
}

/// `/offset` for page `page`, when it is spelled.
fn offset(page: u32, per_page: u32, variant: &Variant) -> String {
    match page > 1 || variant.explicit_first_page {
        true => format!("/{}", (page - 1) * per_page),
        false => String::new(),
    }
}

impl Family for Yabb {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let profile = &self.profile;
        let num = |thread: u32| self.stamp(history, thread);
        let query = match address.route {
            // Quirks this engine lacks are spelled as the plain route they stand for.
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                return self.encode(&without_quirks(address), history);
            }
            Route::Portal => String::new(),
            Route::Board { board, page } => {
                let mut query = format!(
                    "board={}{}",
                    board_key(history, board),
                    offset(page, profile.threads_per_page, variant)
                );
                if variant.sort != SortOrder::LastPost {
                    put!(query, ";sort={}", sort_key(variant.sort));
                }
                query
            }
            Route::Thread { thread, page } => format!(
                "num={}{}",
                num(thread),
                offset(page, profile.posts_per_page, variant)
            ),
            Route::Post { post } => {
                let thread = history.post(post).map_or(0, |record| record.thread);
                let reply = history
                    .thread_posts(thread)
                    .binary_search(&post)
                    .unwrap_or(0);
                format!("num={};r={reply}", num(thread))
            }
            Route::Print { thread } => format!("action=print;num={}", num(thread)),
            Route::ArchiveBoard { board } => {
                format!("action=archive;board={}", board_key(history, board))
            }
            Route::ArchiveThread { thread } => format!("action=archive;num={}", num(thread)),
            Route::AdjacentThread { thread, newer } => {
                let direction = if newer { "next" } else { "prev" };
                format!("action={direction};num={}", num(thread))
            }
            Route::Profile { user } => format!(
                "action=viewprofile;username={}",
                text::user_name(history.seed, user)
            ),
            Route::MemberList { page } => {
                format!(
                    "action=ml{}",
                    offset_parameter(page, profile.members_per_page, variant)
                )
            }
            Route::Calendar { year, month } => {
                format!("action=eventcal;calmon={month};calyear={year}")
            }
            Route::Search { page } => {
                format!("action=recent{}", offset_parameter(page, 10, variant))
            }
            Route::Login { next: None } => "action=login".to_string(),
            Route::Login {
                next: Some(ref next),
            } => format!("action=login;returnto={}", percent_encode(next)),
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("action=post;num={}", num(target)),
                ActionKind::NewThread => {
                    format!("action=post;board={}", board_key(history, target))
                }
                ActionKind::Quote => {
                    let thread = history.post(target).map_or(0, |record| record.thread);
                    let reply = history
                        .thread_posts(thread)
                        .binary_search(&target)
                        .unwrap_or(0);
                    format!("action=post;num={};quote={reply}", num(thread))
                }
                ActionKind::Message => {
                    format!("action=imsend;to={}", text::user_name(history.seed, target))
                }
            },
        };
        match query.is_empty() {
            true => SCRIPT.to_string(),
            false => format!("{SCRIPT}?{query}"),
        }
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        if path != SCRIPT {
            return None;
        }
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let profile = &self.profile;
        let value = |key: &str| query_value(&pairs, key);
        let thread = |stamp: Option<&str>| self.thread_of(history, stamp?);
        let board = |key: Option<&str>| {
            let key = key?;
            (1..=history.board_count()).find(|&board| board_key(history, board) == key)
        };
        let user = |name: Option<&str>| {
            let name = name?;
            let letters = name.trim_end_matches(|character: char| character.is_ascii_digit());
            let user = plain_number(&name[letters.len()..])?;
            (text::user_name(history.seed, user) == name).then_some(user)
        };
        let reply = |thread: u32, number: Option<&str>| {
            let index = plain_number(number?)?;
            history.thread_posts(thread).get(index as usize).copied()
        };
        let route = match value("action") {
            None if query.is_empty() => Route::Portal,
            None if value("board").is_some() => {
                let (key, page) =
                    with_offset(value("board")?, profile.threads_per_page, &mut variant)?;
                if let Some(sort) = value("sort") {
                    let mut orders = SortOrder::ALTERNATIVES.into_iter();
                    variant.sort = orders.find(|&order| sort_key(order) == sort)?;
                }
                Route::Board {
                    board: board(Some(key))?,
                    page,
                }
            }
            None => {
                let (stamp, page) =
                    with_offset(value("num")?, profile.posts_per_page, &mut variant)?;
                let thread = thread(Some(stamp))?;
                match value("r") {
                    Some(number) if page == 1 && !variant.explicit_first_page => Route::Post {
                        post: reply(thread, Some(number))?,
                    },
                    Some(_) => return None,
                    None => Route::Thread { thread, page },
                }
            }
            Some("print") => Route::Print {
                thread: thread(value("num"))?,
            },
            Some("archive") if value("num").is_some() => Route::ArchiveThread {
                thread: thread(value("num"))?,
            },
            Some("archive") => Route::ArchiveBoard {
                board: board(value("board"))?,
            },
            Some(direction @ ("next" | "prev")) => Route::AdjacentThread {
                thread: thread(value("num"))?,
                newer: direction == "next",
            },
            Some("viewprofile") => Route::Profile {
                user: user(value("username"))?,
            },
            Some("ml") => Route::MemberList {
                page: start_parameter(value("start"), profile.members_per_page, &mut variant)?,
            },
            Some("eventcal") => Route::Calendar {
                year: i32::try_from(plain_number(value("calyear")?)?).ok()?,
                month: plain_number(value("calmon")?)?,
            },
            Some("recent") => Route::Search {
                page: start_parameter(value("start"), 10, &mut variant)?,
            },
            Some("login") => Route::Login {
                next: value("returnto").map(str::to_string),
            },
            Some("post") if value("board").is_some() => {
                action(ActionKind::NewThread, board(value("board"))?)
            }
            Some("post") => {
                let thread = thread(value("num"))?;
                match value("quote") {
                    Some(number) => action(ActionKind::Quote, reply(thread, Some(number))?),
                    None => action(ActionKind::Reply, thread),
                }
            }
            Some("imsend") => action(ActionKind::Message, user(value("to"))?),
            Some(_) => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        self.render_page(page, context)
    }
}

/// `;start=offset` of member and search lists, when it is spelled.
fn offset_parameter(page: u32, per_page: u32, variant: &Variant) -> String {
    match page > 1 || variant.explicit_first_page {
        true => format!(";start={}", (page - 1) * per_page),
        false => String::new(),
    }
}

/// Reads `start=` of member and search lists.
fn start_parameter(start: Option<&str>, per_page: u32, variant: &mut Variant) -> Option<u32> {
    let Some(start) = start else {
        return Some(1);
    };
    let start = plain_number(start)?;
    if start % per_page != 0 {
        return None;
    }
    variant.explicit_first_page = start == 0;
    Some(start / per_page + 1)
}
