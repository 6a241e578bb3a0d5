//! vBulletin 3.8-like: PHP scripts with numeric ids and `page=` numbers, `s=` session ids written
//! first in every query, the classic nested-table layout (`table.tborder`, `td.alt1`/`alt2`/
//! `thead`/`tcat`), windows-1252 pages named in the `Content-Type` header, "no permission" prompts
//! and soft "No Thread specified" errors both answered 200.
//!
//! URLs, as vBulletin 3.8 prints them without search-engine-friendly rewriting:
//!
//! - portal `/index.php`; board `/forumdisplay.php?f=3`, page 2 `&page=2`, and `&page=1` as the
//!   explicit first page; other orders `&sort=title&order=asc` (`postusername` asc, `replycount`
//!   desc, `dateline` desc);
//! - thread `/showthread.php?t=123`, `&page=2`; previous/next thread
//!   `/showthread.php?t=123&goto=nextoldest` / `nextnewest`, resolved by the server;
//! - post permalink `/showpost.php?p=456&postcount=7` (the post shown alone; `postcount` is the
//!   post's number in its thread, which vBulletin prints beside the id and ignores when reading);
//! - print `/printthread.php?t=123`; archive `/archive/index.php/f-3.html` and `.../t-123.html`;
//! - profile `/member.php?u=5`; member list `/memberlist.php`, `?page=2`; calendar
//!   `/calendar.php?month=3&year=2025`; new posts `/search.php?do=getnew`, `&page=2`;
//! - login `/login.php`, `?url=` carrying the percent-encoded return path; actions
//!   `/newreply.php?do=newreply&t=123` (`&p=456` quotes a post), `/newthread.php?do=newthread&f=3`,
//!   `/private.php?do=newpm&u=5`.
//!
//! A session id travels as `s=` and 32 hex digits, always as the first parameter
//! (`/showthread.php?s=0123...&t=123`), because vBulletin prepends it to every link it prints.
//!
//! Dates follow vBulletin's defaults in the forum's zone (GMT -5): "Today, 10:32 PM" and
//! "Yesterday, 08:11 AM" for the last two local days, "03-30-2025, 10:11 PM" before that. Thread
//! lists split the day from the time (`03-30-2025 <span class="time">10:11 PM</span>`), join dates
//! read "Mar 2025" and the footer clock shows only the time of day ("The time now is 10:11 PM.").
//! Like the real engine, relative dates carry no absolute time anywhere in the markup (no title
//! attribute, no `<time>` element): a crawler has to resolve "Today" against the day it fetched
//! the page.

use std::fmt::{self, Write};

use super::common::{action, without_quirks};
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::history::ForumHistory;
use crate::html::{
    parse_query, percent_encode, query_number, query_value, session_hex, session_token,
    split_path_and_query,
};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::Language;
use crate::views::Page;

mod bodies;
mod templates;
#[cfg(test)]
mod tests;

/// What vBulletin prints to guests asking for a member-only page (with status 200).
const NO_PERMISSION: &str =
    "You are not logged in or you do not have permission to access this page.";
/// vBulletin's soft error for anything that does not exist (also with status 200).
const NO_THREAD: &str =
    "No Thread specified. If you followed a valid link, please notify the administrator";
/// The attributes of every bordered table, the look every vBulletin 3 page is made of.
const TBORDER: &str =
    r#"class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center""#;
/// The sticky mark before a pinned thread's title in thread lists.
const STICKY: &str =
    r#"<img class="inlineimg" src="images/misc/sticky.gif" alt="Sticky Thread" /> Sticky: "#;
/// The portal's "Last Post" column cuts thread titles to this many characters, as vBulletin does.
const SHORT_TITLE: usize = 25;

#[derive(Debug)]
pub(crate) struct Vbulletin {
    profile: FamilyProfile,
}

impl Vbulletin {
    pub(crate) fn new() -> Self {
        Vbulletin {
            profile: FamilyProfile {
                name: "vbulletin",
                description: "vBulletin 3.8-like: showthread.php?t=&page=, leading s= sessions, \
                              tborder tables, Today/Yesterday dates",
                language: Language::English,
                charset: Charset::Windows1252,
                charset_in_header: true,
                utc_offset_seconds: -5 * 3_600,
                threads_per_page: 20,
                posts_per_page: 10,
                members_per_page: 25,
                login_wall: LoginWall::PromptWithOk,
                profiles_need_login: false,
                permalink: PermalinkStyle::SinglePost,
                session_parameter: Some("s"),
                session_cookie: "bbsessionhash",
                adjacent_threads: AdjacentThreads::ServerResolved,
                missing_status: 200,
                aliases_redirect: false,
                quirks: super::Quirks::NONE,
            },
        }
    }
}

/// The `sort` and `order` parameters vBulletin's column headers use for each non-default order.
fn sort_parameters(sort: SortOrder) -> Option<(&'static str, &'static str)> {
    match sort {
        SortOrder::LastPost => None,
        SortOrder::Title => Some(("title", "asc")),
        SortOrder::Author => Some(("postusername", "asc")),
        SortOrder::Replies => Some(("replycount", "desc")),
        SortOrder::Created => Some(("dateline", "desc")),
    }
}

/// The order named by a `sort` and `order` pair; other pairs are orders the forum does not offer.
fn sort_order(sort: &str, order: Option<&str>) -> Option<SortOrder> {
    SortOrder::ALTERNATIVES
        .into_iter()
        .find(|&candidate| sort_parameters(candidate) == order.map(|order| (sort, order)))
}

/// Reads `page=`: no parameter is page 1 in its canonical spelling, `page=1` the explicit one.
fn page_number(text: Option<&str>, variant: &mut Variant) -> Option<u32> {
    let Some(text) = text else { return Some(1) };
    let page: u32 = text.parse().ok().filter(|&page| page >= 1)?;
    variant.explicit_first_page = page == 1;
    Some(page)
}

/// The archive's static-looking file names: `/archive/index.php/f-3.html`, `.../t-123.html`.
fn archive_route(path: &str) -> Option<Route> {
    let name = path
        .strip_prefix("/archive/index.php/")?
        .strip_suffix(".html")?;
    let (kind, id) = name.split_once('-')?;
    // Digits only: the file names allow no sign, no padding tricks and no page suffix.
    if id.is_empty() || !id.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let id: u32 = id.parse().ok()?;
    match kind {
        "f" => Some(Route::ArchiveBoard { board: id }),
        "t" => Some(Route::ArchiveThread { thread: id }),
        _ => None,
    }
}

/// The 1-based number of a post in its thread, as vBulletin prints it in `#7` links.
fn post_number(history: &ForumHistory, post: u32) -> Option<usize> {
    let posts = history.thread_posts(history.post(post)?.thread);
    posts.binary_search(&post).ok().map(|index| index + 1)
}

fn board_route(board: u32) -> Route {
    Route::Board { board, page: 1 }
}

fn thread_route(thread: u32) -> Route {
    Route::Thread { thread, page: 1 }
}

/// A URL under construction. vBulletin prepends the session parameter to every query it prints,
/// so the session, when there is one, is written before anything else.
struct Link(String);

impl Link {
    fn new(path: &str, session: Option<u64>) -> Self {
        let link = Link(path.to_string());
        match session {
            Some(token) => link.add("s", session_hex(token)),
            None => link,
        }
    }

    fn add(mut self, key: &str, value: impl fmt::Display) -> Self {
        let separator = if self.0.contains('?') { '&' } else { '?' };
        let _ = write!(self.0, "{separator}{key}={value}");
        self
    }

    fn add_when(self, condition: bool, key: &str, value: impl fmt::Display) -> Self {
        if condition {
            self.add(key, value)
        } else {
            self
        }
    }
}

impl Family for Vbulletin {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let session = variant.session;
        let script = |path: &str| Link::new(path, session);
        // Page 1 is named by leaving `page` out, unless the link spells it explicitly.
        let shows = |page: u32| page > 1 || variant.explicit_first_page;
        let link = match address.route {
            // Quirks this engine lacks are spelled as the plain route they stand for.
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                return self.encode(&without_quirks(address), history);
            }
            Route::Portal => script("/index.php"),
            Route::Board { board, page } => {
                let mut link = script("/forumdisplay.php").add("f", board);
                if let Some((sort, order)) = sort_parameters(variant.sort) {
                    link = link.add("sort", sort).add("order", order);
                }
                link.add_when(shows(page), "page", page)
            }
            Route::Thread { thread, page } => {
                script("/showthread.php")
                    .add("t", thread)
                    .add_when(shows(page), "page", page)
            }
            Route::Post { post } => {
                let link = script("/showpost.php").add("p", post);
                match post_number(history, post) {
                    Some(number) => link.add("postcount", number),
                    None => link,
                }
            }
            Route::Print { thread } => script("/printthread.php").add("t", thread),
            Route::ArchiveBoard { board } => script(&format!("/archive/index.php/f-{board}.html")),
            Route::ArchiveThread { thread } => {
                script(&format!("/archive/index.php/t-{thread}.html"))
            }
            Route::AdjacentThread { thread, newer } => {
                let goto = if newer { "nextnewest" } else { "nextoldest" };
                script("/showthread.php").add("t", thread).add("goto", goto)
            }
            Route::Profile { user } => script("/member.php").add("u", user),
            Route::MemberList { page } => {
                script("/memberlist.php").add_when(shows(page), "page", page)
            }
            Route::Calendar { year, month } => script("/calendar.php")
                .add("month", month)
                .add("year", year),
            Route::Search { page } => {
                script("/search.php")
                    .add("do", "getnew")
                    .add_when(shows(page), "page", page)
            }
            Route::Login { ref next } => match next {
                Some(next) => script("/login.php").add("url", percent_encode(next)),
                None => script("/login.php"),
            },
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => script("/newreply.php")
                    .add("do", "newreply")
                    .add("t", target),
                ActionKind::Quote => script("/newreply.php")
                    .add("do", "newreply")
                    .add("p", target),
                ActionKind::NewThread => script("/newthread.php")
                    .add("do", "newthread")
                    .add("f", target),
                ActionKind::Message => script("/private.php").add("do", "newpm").add("u", target),
            },
        };
        link.0
    }

    fn decode(&self, path_and_query: &str, _history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let value = |key: &str| query_value(&pairs, key);
        let number = |key: &str| query_number(&pairs, key);
        let session = value("s")
            .filter(|token| !token.is_empty())
            .map(session_token);
        let mut variant = Variant {
            session,
            ..Variant::default()
        };
        let route = match path {
            "/" | "/index.php" => Route::Portal,
            "/forumdisplay.php" => {
                let board = number("f")?;
                if let Some(sort) = value("sort") {
                    variant.sort = sort_order(sort, value("order"))?;
                }
                let page = page_number(value("page"), &mut variant)?;
                Route::Board { board, page }
            }
            "/showthread.php" => {
                let thread = number("t")?;
                match value("goto") {
                    None => {
                        let page = page_number(value("page"), &mut variant)?;
                        Route::Thread { thread, page }
                    }
                    Some("nextnewest") => Route::AdjacentThread {
                        thread,
                        newer: true,
                    },
                    Some("nextoldest") => Route::AdjacentThread {
                        thread,
                        newer: false,
                    },
                    Some(_) => return None,
                }
            }
            "/showpost.php" => Route::Post { post: number("p")? },
            "/printthread.php" => Route::Print {
                thread: number("t")?,
            },
            "/member.php" => Route::Profile { user: number("u")? },
            "/memberlist.php" => {
                let page = page_number(value("page"), &mut variant)?;
                Route::MemberList { page }
            }
            "/calendar.php" => {
                let year = value("year")?.parse().ok()?;
                let month = number("month")?;
                Route::Calendar { year, month }
            }
            "/search.php" if value("do") == Some("getnew") => {
                let page = page_number(value("page"), &mut variant)?;
                Route::Search { page }
            }
            "/login.php" => Route::Login {
                next: value("url").map(str::to_string),
            },
            "/newreply.php" if value("do") == Some("newreply") => {
                match (number("p"), number("t")) {
                    (Some(post), _) => action(ActionKind::Quote, post),
                    (None, Some(thread)) => action(ActionKind::Reply, thread),
                    (None, None) => return None,
                }
            }
            "/newthread.php" if value("do") == Some("newthread") => {
                action(ActionKind::NewThread, number("f")?)
            }
            "/private.php" if value("do") == Some("newpm") => {
                action(ActionKind::Message, number("u")?)
            }
            _ => archive_route(path)?,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        templates::render(page, context)
    }
}
