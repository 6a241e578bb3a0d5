//! SMF 2-like (Simple Machines Forum, German): everything goes through `index.php` with
//! `;`-separated queries, lists are paged by item offsets after a dot (`board=3.20`,
//! `topic=123.15`), `PHPSESSID` session ids, the Curve theme's divs, UTF-8 pages, 403 login walls
//! (profiles included) and 404 errors.
//!
//! URLs, as SMF 2 prints them:
//!
//! - portal `/index.php`; board `/index.php?board=3.0`, page 2 `?board=3.20`; other orders
//!   `;sort=subject`, `;sort=starter`, `;sort=replies;desc`, `;sort=first_post;desc`;
//! - thread `/index.php?topic=123.0`, page 2 `?topic=123.15`;
//! - the explicit first page is SMF's query-less spelling `/index.php/board,3.0.html`
//!   (`/index.php/board,3.0/sort,replies/desc.html` when sorted), `/index.php/topic,123.0.html`;
//!   the same spelling of a later page (`/index.php/topic,123.15.html`) is read as an alias;
//! - permalink `/index.php?topic=123.msg456` (linked with `#msg456`), answered with the thread
//!   page holding the post; print `?action=printpage;topic=123.0`; archive (WAP2) `?board=3.0;wap2`
//!   and `?topic=123.0;wap2`; previous/next thread `?topic=123.0;prev_next=prev` / `next`;
//! - profile `?action=profile;u=5`; member list `?action=mlist`, `;start=30`; calendar
//!   `?action=calendar;year=2025;month=3`; recent posts `?action=recent`, `;start=10`;
//! - login `?action=login`, `;redirect=` carrying the percent-encoded return path; actions
//!   `?action=post;topic=123.0`, `?action=post;board=3.0`, `?action=post;quote=456;topic=123.0`,
//!   `?action=pm;sa=send;u=5`.
//!
//! A session id is appended as `;PHPSESSID=` and 32 hex digits (`?PHPSESSID=` when the URL has no
//! query yet). Thread and board pages carry `<link rel="canonical">` as SMF 2 does, and thread
//! pages `<link rel="prev">`/`<link rel="next">` naming the server-resolved neighbouring threads.
//!
//! Dates follow SMF's German format in the forum's zone (UTC+1): "30. März 2025, 22:11:05"
//! (zero-padded day), "<strong>Heute</strong> um 22:11:05" and "<strong>Gestern</strong> um
//! 08:11:00" for the last two local days. Like the real engine, relative dates carry no absolute
//! time in the markup; the header clock ("31. März 2025, 10:01:00") is always absolute, so a
//! crawler can resolve "Heute" against it. Numbers use German grouping ("1.234").

use std::fmt::Write;

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

/// Results per page of the "recent posts" listing, SMF's default.
const RECENT_PER_PAGE: u32 = 10;
/// SMF's German message for guests asking for a member-only page (answered 403).
const MEMBERS_ONLY: &str = "Nur registrierte Mitglieder dürfen diesen Bereich betreten.";
/// SMF's German message for a topic or board that does not exist (answered 404).
const NOT_FOUND: &str = "Das Thema oder Board, nach dem Sie suchen, existiert entweder nicht \
                         oder ist für Sie nicht zugänglich.";
/// The small marker SMF prints before pinned topics in topic lists.
const STICKY: &str = r#"<img src="Themes/default/images/icons/quick_sticky.gif" alt="" /> "#;

#[derive(Debug)]
pub(crate) struct Smf {
    profile: FamilyProfile,
}

impl Smf {
    pub(crate) fn new() -> Self {
        Smf {
            profile: FamilyProfile {
                name: "smf",
                description: "SMF 2-like (German): index.php?topic=123.15, ; separators, \
                              PHPSESSID, Curve divs, 403 walls",
                language: Language::German,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: 3_600,
                threads_per_page: 20,
                posts_per_page: 15,
                members_per_page: 30,
                login_wall: LoginWall::Forbidden,
                profiles_need_login: true,
                permalink: PermalinkStyle::ShowsThreadPage,
                session_parameter: Some("PHPSESSID"),
                session_cookie: "PHPSESSID",
                adjacent_threads: AdjacentThreads::ServerResolved,
                missing_status: 404,
                aliases_redirect: false,
                quirks: super::Quirks::NONE,
            },
        }
    }
}

/// The `sort` key of each non-default order and whether SMF adds `;desc` to it.
fn sort_parameters(sort: SortOrder) -> Option<(&'static str, bool)> {
    match sort {
        SortOrder::LastPost => None,
        SortOrder::Title => Some(("subject", false)),
        SortOrder::Author => Some(("starter", false)),
        SortOrder::Replies => Some(("replies", true)),
        SortOrder::Created => Some(("first_post", true)),
    }
}

/// The order a `sort` key and `desc` flag name; other combinations are not offered.
fn sort_order(key: &str, descending: bool) -> Option<SortOrder> {
    SortOrder::ALTERNATIVES
        .into_iter()
        .find(|&candidate| sort_parameters(candidate) == Some((key, descending)))
}

/// What follows the dot in `topic=` and `board=`: an item offset, or `msg` and a post id.
enum Start {
    Offset(u32),
    Message(u32),
}

/// Splits `123.15` or `123.msg456`; a bare `123` starts at offset 0, as SMF reads it.
fn item_and_start(text: &str) -> Option<(u32, Start)> {
    let (item, start) = text.split_once('.').unwrap_or((text, "0"));
    let start = match start.strip_prefix("msg") {
        Some(post) => Start::Message(post.parse().ok()?),
        None => Start::Offset(start.parse().ok()?),
    };
    Some((item.parse().ok()?, start))
}

/// The page an item offset names; offsets between page starts are not pages.
fn page_at(offset: u32, per_page: u32) -> Option<u32> {
    offset
        .is_multiple_of(per_page)
        .then(|| offset / per_page + 1)
}

/// An item named at its first page (`123.0`), as actions, print and WAP2 links name threads.
fn whole_item(text: Option<&str>) -> Option<u32> {
    match item_and_start(text?)? {
        (item, Start::Offset(0)) => Some(item),
        _ => None,
    }
}

/// Reads `;start=`: no parameter is page 1 in its canonical spelling, `start=0` the explicit one.
fn start_page(text: Option<&str>, per_page: u32, variant: &mut Variant) -> Option<u32> {
    let Some(text) = text else { return Some(1) };
    let page = page_at(text.parse().ok()?, per_page)?;
    variant.explicit_first_page = page == 1;
    Some(page)
}

fn board_route(board: u32) -> Route {
    Route::Board { board, page: 1 }
}

impl Smf {
    /// The route of an `action=` URL.
    fn action_route(&self, pairs: &[(String, String)], variant: &mut Variant) -> Option<Route> {
        let value = |key: &str| query_value(pairs, key);
        let number = |key: &str| query_number(pairs, key);
        let members = self.profile.members_per_page;
        let route = match value("action")? {
            "printpage" => Route::Print {
                thread: whole_item(value("topic"))?,
            },
            "profile" => Route::Profile { user: number("u")? },
            "mlist" => Route::MemberList {
                page: start_page(value("start"), members, variant)?,
            },
            "recent" => {
                let page = start_page(value("start"), RECENT_PER_PAGE, variant)?;
                Route::Search { page }
            }
            "calendar" => {
                let year = value("year")?.parse().ok()?;
                let month = number("month")?;
                Route::Calendar { year, month }
            }
            "login" => Route::Login {
                next: value("redirect").map(str::to_string),
            },
            "pm" if value("sa") == Some("send") => action(ActionKind::Message, number("u")?),
            "post" => match (number("quote"), value("topic"), value("board")) {
                (Some(post), _, _) => action(ActionKind::Quote, post),
                (None, Some(topic), _) => action(ActionKind::Reply, whole_item(Some(topic))?),
                (None, None, Some(board)) => {
                    action(ActionKind::NewThread, whole_item(Some(board))?)
                }
                (None, None, None) => return None,
            },
            _ => return None,
        };
        Some(route)
    }

    /// The route of a `topic=` URL: a thread page, a permalink, WAP2 or previous/next.
    fn topic_route(&self, pairs: &[(String, String)]) -> Option<Route> {
        let flag = |key: &str| pairs.iter().any(|(name, _)| name == key);
        let (thread, start) = item_and_start(query_value(pairs, "topic")?)?;
        let offset = match start {
            Start::Message(post) => return Some(Route::Post { post }),
            Start::Offset(offset) => offset,
        };
        let page = page_at(offset, self.profile.posts_per_page)?;
        let route = match (flag("wap2"), query_value(pairs, "prev_next")) {
            (false, None) => Route::Thread { thread, page },
            (true, None) if page == 1 => Route::ArchiveThread { thread },
            (false, Some("prev")) if page == 1 => Route::AdjacentThread {
                thread,
                newer: false,
            },
            (false, Some("next")) if page == 1 => Route::AdjacentThread {
                thread,
                newer: true,
            },
            _ => return None,
        };
        Some(route)
    }

    /// The route of a `board=` URL: a list page (possibly sorted) or WAP2.
    fn board_route(&self, pairs: &[(String, String)], variant: &mut Variant) -> Option<Route> {
        let flag = |key: &str| pairs.iter().any(|(name, _)| name == key);
        let (board, Start::Offset(offset)) = item_and_start(query_value(pairs, "board")?)? else {
            return None;
        };
        let page = page_at(offset, self.profile.threads_per_page)?;
        if flag("wap2") {
            return (page == 1).then_some(Route::ArchiveBoard { board });
        }
        if let Some(key) = query_value(pairs, "sort") {
            variant.sort = sort_order(key, flag("desc"))?;
        }
        Some(Route::Board { board, page })
    }
}

impl Family for Smf {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let profile = &self.profile;
        // The query-less spelling names a first page explicitly and later pages as aliases.
        let queryless = |page: u32| variant.alias || (variant.explicit_first_page && page == 1);
        // Offsets are computed wide: a decoded page number times the page size may not fit a u32.
        let start =
            |page: u32, per_page: u32| u64::from(page.saturating_sub(1)) * u64::from(per_page);
        let shows = |page: u32| page > 1 || variant.explicit_first_page;
        let thread_of = |post: u32| history.post(post).map_or(0, |record| record.thread);
        let mut url = String::from("/index.php");
        // Writing into a String cannot fail.
        let _ = match address.route {
            // Quirks this engine lacks are spelled as the plain route they stand for.
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                return self.encode(&without_quirks(address), history);
            }
            Route::Portal => Ok(()),
            Route::Board { board, page } => {
                let offset = start(page, profile.threads_per_page);
                match (queryless(page), sort_parameters(variant.sort)) {
                    (true, None) => write!(url, "/board,{board}.{offset}.html"),
                    (true, Some((key, false))) => {
                        write!(url, "/board,{board}.{offset}/sort,{key}.html")
                    }
                    (true, Some((key, true))) => {
                        write!(url, "/board,{board}.{offset}/sort,{key}/desc.html")
                    }
                    (false, None) => write!(url, "?board={board}.{offset}"),
                    (false, Some((key, false))) => {
                        write!(url, "?board={board}.{offset};sort={key}")
                    }
                    (false, Some((key, true))) => {
                        write!(url, "?board={board}.{offset};sort={key};desc")
                    }
                }
            }
            Route::Thread { thread, page } => {
                let offset = start(page, profile.posts_per_page);
                match queryless(page) {
                    true => write!(url, "/topic,{thread}.{offset}.html"),
                    false => write!(url, "?topic={thread}.{offset}"),
                }
            }
            Route::Post { post } => write!(url, "?topic={}.msg{post}", thread_of(post)),
            Route::Print { thread } => write!(url, "?action=printpage;topic={thread}.0"),
            Route::ArchiveBoard { board } => write!(url, "?board={board}.0;wap2"),
            Route::ArchiveThread { thread } => write!(url, "?topic={thread}.0;wap2"),
            Route::AdjacentThread { thread, newer } => {
                let direction = if newer { "next" } else { "prev" };
                write!(url, "?topic={thread}.0;prev_next={direction}")
            }
            Route::Profile { user } => write!(url, "?action=profile;u={user}"),
            Route::MemberList { page } => {
                let offset = start(page, profile.members_per_page);
                match shows(page) {
                    true => write!(url, "?action=mlist;start={offset}"),
                    false => write!(url, "?action=mlist"),
                }
            }
            Route::Calendar { year, month } => {
                write!(url, "?action=calendar;year={year};month={month}")
            }
            Route::Search { page } => {
                let offset = start(page, RECENT_PER_PAGE);
                match shows(page) {
                    true => write!(url, "?action=recent;start={offset}"),
                    false => write!(url, "?action=recent"),
                }
            }
            Route::Login { ref next } => match next {
                Some(next) => write!(url, "?action=login;redirect={}", percent_encode(next)),
                None => write!(url, "?action=login"),
            },
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => write!(url, "?action=post;topic={target}.0"),
                ActionKind::NewThread => write!(url, "?action=post;board={target}.0"),
                ActionKind::Quote => {
                    write!(
                        url,
                        "?action=post;quote={target};topic={}.0",
                        thread_of(target)
                    )
                }
                ActionKind::Message => write!(url, "?action=pm;sa=send;u={target}"),
            },
        };
        if let Some(token) = variant.session {
            let separator = if url.contains('?') { ';' } else { '?' };
            let _ = write!(url, "{separator}PHPSESSID={}", session_hex(token));
        }
        url
    }

    fn decode(&self, path_and_query: &str, _history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let mut pairs = parse_query(query);
        // The query-less spelling turns `/index.php/board,3.0/sort,replies/desc.html` into the
        // pairs `board=3.0`, `sort=replies`, `desc`, read before the real query.
        let queryless = path != "/" && path != "/index.php";
        if queryless {
            let segments = path.strip_prefix("/index.php/")?.strip_suffix(".html")?;
            let segments = segments.split('/').map(|segment| {
                let (key, value) = segment.split_once(',').unwrap_or((segment, ""));
                (key.to_string(), value.to_string())
            });
            pairs.splice(0..0, segments);
        }
        let session = query_value(&pairs, "PHPSESSID").filter(|token| !token.is_empty());
        let mut variant = Variant {
            session: session.map(session_token),
            ..Variant::default()
        };
        let route = if query_value(&pairs, "action").is_some() {
            self.action_route(&pairs, &mut variant)?
        } else if query_value(&pairs, "topic").is_some() {
            self.topic_route(&pairs)?
        } else if query_value(&pairs, "board").is_some() {
            self.board_route(&pairs, &mut variant)?
        } else if queryless {
            return None;
        } else {
            Route::Portal
        };
        if queryless {
            match route {
                Route::Board { page: 1, .. } | Route::Thread { page: 1, .. } => {
                    variant.explicit_first_page = true;
                }
                Route::Board { .. } | Route::Thread { .. } => variant.alias = true,
                _ => return None,
            }
        }
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        templates::render(page, context)
    }
}
