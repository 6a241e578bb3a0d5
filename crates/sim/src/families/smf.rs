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

use std::fmt::{self, Write};

use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::dates::GERMAN_MONTHS;
use crate::history::ForumHistory;
use crate::html::{
    escape, parse_query, percent_encode, query_number, query_value, session_hex, session_token,
    split_path_and_query,
};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::Language;
use crate::views::{
    ArchiveBoardView, BoardView, Body, CalendarView, Chrome, LastPost, LoginReason, LoginView,
    MemberListView, Page, Pager, PortalView, PostView, ProfileView, SearchView, SinglePostView,
    ThreadSummary, ThreadView, UserCard, WholeThreadView,
};

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

fn action(kind: ActionKind, target: u32) -> Route {
    Route::Action { kind, target }
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
        let mut out = Out {
            html: String::with_capacity(32 * 1024),
            context,
        };
        // Writing into a String cannot fail; fmt::Result only lets the templates use `?`.
        let _ = out.page(page);
        out.html
    }
}

/// A date as SMF prints it in German: "30. März 2025, 22:11:05", or relative for the last two
/// local days ("<strong>Heute</strong> um 22:11:05", "<strong>Gestern</strong> um 08:11:00").
fn date(context: &RenderContext<'_>, instant: i64) -> String {
    match context.days_ago(instant) {
        0 => format!("<strong>Heute</strong> um {}", clock(context, instant)),
        1 => format!("<strong>Gestern</strong> um {}", clock(context, instant)),
        _ => absolute(context, instant),
    }
}

/// The time of day with seconds: "22:11:05".
fn clock(context: &RenderContext<'_>, instant: i64) -> String {
    let local = context.local(instant);
    format!("{:02}:{:02}:{:02}", local.hour, local.minute, local.second)
}

/// A date without relative words and without time, as join dates show: "30. März 2025".
fn day(context: &RenderContext<'_>, instant: i64) -> String {
    let local = context.local(instant);
    let month = GERMAN_MONTHS[(local.month as usize).clamp(1, 12) - 1];
    format!("{:02}. {month} {}", local.day, local.year)
}

/// An absolute date and time, as the header clock always shows it: "31. März 2025, 10:01:00".
fn absolute(context: &RenderContext<'_>, instant: i64) -> String {
    format!("{}, {}", day(context, instant), clock(context, instant))
}

/// A number with German thousands separators: "1.234".
fn grouped(number: u32) -> String {
    let digits = number.to_string();
    let mut text = String::with_capacity(digits.len() + 4);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push('.');
        }
        text.push(digit);
    }
    text
}

/// SMF's default post-count groups, in German.
fn member_group(posts: u32) -> &'static str {
    match posts {
        0..=49 => "Neuling",
        50..=99 => "Jr. Mitglied",
        100..=249 => "Mitglied",
        250..=499 => "Senior Mitglied",
        _ => "Hero Mitglied",
    }
}

/// The `<title>` and last link-tree entry of a page, in SMF's German wording.
fn page_label(page: &Page) -> String {
    let title = &page.chrome.title;
    match &page.body {
        Body::Portal(_) => format!("{} - Index", page.chrome.forum_name),
        Body::Print(_) => format!("{title} - Druckversion"),
        Body::Profile(_) => format!("Profil von {title}"),
        Body::MemberList(_) => "Mitgliederliste".to_string(),
        Body::Calendar(_) => "Kalender".to_string(),
        Body::Search(_) => "Neueste Beiträge".to_string(),
        Body::Login(_) => "Einloggen".to_string(),
        Body::NotFound => "Ein Fehler ist aufgetreten!".to_string(),
        _ => title.clone(),
    }
}

/// Escaped paragraphs separated by `<br />`, the way SMF turns newlines into markup.
fn paragraphs(post: &PostView) -> String {
    let escaped: Vec<String> = post.paragraphs.iter().map(|text| escape(text)).collect();
    escaped.join("<br />\n")
}

/// `make(value)` when there is a value, else nothing: the optional parts of templates.
fn either<T>(value: Option<T>, make: impl FnOnce(T) -> String) -> String {
    value.map(make).unwrap_or_default()
}

/// The page being written and the context its links are made in.
struct Out<'a> {
    html: String,
    context: &'a RenderContext<'a>,
}

impl Out<'_> {
    fn href(&self, route: &Route) -> String {
        self.context.href(route)
    }

    fn href_address(&self, address: &Address) -> String {
        self.context.href_address(address.clone())
    }

    /// `<a href="…"{attributes}>{text}</a>` when the route is present, else nothing.
    fn anchor(&self, route: Option<&Route>, attributes: &str, text: &str) -> String {
        either(route, |route| {
            format!("<a href=\"{}\"{attributes}>{text}</a>", self.href(route))
        })
    }

    /// A member's name, linked to the profile when profiles are served.
    fn user(&self, user: &UserCard) -> String {
        let name = escape(&user.name);
        match &user.profile {
            Some(route) => {
                let href = self.href(route);
                format!("<a href=\"{href}\" title=\"Profil von {name} ansehen\">{name}</a>")
            }
            None => name,
        }
    }

    /// A link to a latest post, jumping to its `#msg` anchor when it is a permalink.
    fn last_post_href(&self, last: &LastPost) -> String {
        let href = self.href(&last.link);
        match last.link {
            Route::Post { post } => format!("{href}#msg{post}"),
            _ => href,
        }
    }

    fn page(&mut self, page: &Page) -> fmt::Result {
        self.header(page)?;
        match &page.body {
            Body::Portal(view) => self.portal(view)?,
            Body::Board(view) => self.board(view)?,
            Body::Thread(view) => self.thread(view)?,
            Body::SinglePost(view) => self.single_post(view)?,
            Body::Print(view) => self.print(view)?,
            Body::ArchiveThread(view) => self.wap_thread(view)?,
            Body::ArchiveBoard(view) => self.wap_board(view)?,
            Body::Profile(view) => self.profile(view)?,
            Body::MemberList(view) => self.member_list(view)?,
            Body::Calendar(view) => self.calendar(view)?,
            Body::Search(view) => self.recent(view)?,
            Body::Login(view) => self.login(view)?,
            Body::NotFound => self.fatal_error(&page.chrome)?,
        }
        self.footer(&page.chrome)
    }

    fn header(&mut self, page: &Page) -> fmt::Result {
        let chrome = &page.chrome;
        let navigation = &chrome.navigation;
        let (forum, label) = (escape(&chrome.forum_name), escape(&page_label(page)));
        let (portal, login) = (self.href(&navigation.portal), self.href(&navigation.login));
        let mut head = format!("<link rel=\"contents\" href=\"{portal}\" />\n");
        let canonical = match &page.body {
            Body::Thread(view) => Some(Route::Thread {
                thread: view.thread,
                page: view.pager.current,
            }),
            Body::Board(view) => Some(Route::Board {
                board: view.board,
                page: view.pager.current,
            }),
            _ => None,
        };
        if let Some(route) = canonical {
            writeln!(
                head,
                "<link rel=\"canonical\" href=\"{}\" />",
                self.href(&route)
            )?;
        }
        if let Body::Thread(view) = &page.body {
            let board = self.href(&board_route(view.board.0));
            writeln!(head, "<link rel=\"index\" href=\"{board}\" />")?;
            let neighbours = [("prev", &view.previous_thread), ("next", &view.next_thread)];
            for (rel, route) in neighbours {
                if let Some(route) = route {
                    writeln!(head, "<link rel=\"{rel}\" href=\"{}\" />", self.href(route))?;
                }
            }
        }
        let last_visit = either(chrome.last_visit, |instant| {
            format!("<li>Letzter Besuch: {}</li>", date(self.context, instant))
        });
        let clock = either(chrome.clock, |instant| {
            format!("<li>{}</li>", absolute(self.context, instant))
        });
        let advertisement = either(chrome.advertisement, |text| {
            let (size, text) = (text.len(), escape(text));
            format!("<a href=\"https://ads.example.net/smf?z={size}\" rel=\"nofollow\">{text}</a>")
        });
        let mut menu = String::new();
        let entries = [
            ("search", &navigation.search, "Neueste Beiträge"),
            ("calendar", &navigation.calendar, "Kalender"),
            ("mlist", &navigation.members, "Mitglieder"),
        ];
        for (id, route, text) in entries {
            if let Some(route) = route {
                let href = self.href(route);
                writeln!(
                    menu,
                    "<li id=\"button_{id}\"><a class=\"firstlevel\" href=\"{href}\"><span \
                     class=\"firstlevel\">{text}</span></a></li>"
                )?;
            }
        }
        let mut tree = String::new();
        for (route, name) in &chrome.breadcrumbs {
            let (href, name) = (self.href(route), escape(name));
            writeln!(
                tree,
                "<li><a href=\"{href}\"><span>{name}</span></a> &#187;</li>"
            )?;
        }
        write!(
            self.html,
            r#"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" lang="de-DE">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<meta name="description" content="{label}" />
<title>{label}</title>
{head}</head>
<body>
<div id="wrapper" style="width: 90%">
<div id="header"><div class="frame">
<div id="top_section"><h1 class="forumtitle"><a href="{portal}">{forum}</a></h1>
<img id="smflogo" src="Themes/default/images/smflogo.png" alt="Simple Machines Forum" title="Simple Machines Forum" /></div>
<div id="upper_section" class="middletext">
<div class="user"><ul class="reset"><li class="greeting">Hallo <span>Gast</span></li>{last_visit}{clock}</ul>
<form id="guest_form" action="{login}" method="post" accept-charset="UTF-8">
<div class="info">Bitte <a href="{login}">einloggen</a> oder registrieren.</div>
<input type="text" name="user" size="10" class="input_text" /> <input type="password" name="passwrd" size="10" class="input_password" />
<input type="submit" value="Einloggen" class="button_submit" />
</form></div>
<div class="news normaltext"><h2>Neuigkeiten: </h2><p>{advertisement}</p></div>
</div>
<br class="clear" />
<div id="main_menu"><ul class="dropmenu" id="menu_nav">
<li id="button_home"><a class="active firstlevel" href="{portal}"><span class="last firstlevel">Übersicht</span></a></li>
{menu}<li id="button_login"><a class="firstlevel" href="{login}"><span class="firstlevel">Einloggen</span></a></li>
</ul></div>
<div class="navigate_section"><ul>
{tree}<li class="last"><span>{label}</span></li>
</ul></div>
</div></div>
<div id="content_section"><div class="frame"><div id="main_content_section">
"#
        )
    }

    fn footer(&mut self, chrome: &Chrome) -> fmt::Result {
        let stats = &chrome.footer;
        let (posts, threads) = (grouped(stats.posts), grouped(stats.threads));
        let members = grouped(stats.members);
        let newest = either(stats.newest_member.as_ref(), |member| {
            format!(" Neuestes Mitglied: <strong>{}</strong>", self.user(member))
        });
        write!(
            self.html,
            r#"</div></div></div>
<div id="footer_section"><div class="frame">
<div class="roundframe" id="info_center"><h4 class="titlebg">Forum-Statistiken</h4>
<p>{posts} Beiträge in {threads} Themen von {members} Mitgliedern.{newest}</p></div>
<ul class="reset"><li class="copyright"><span class="smalltext"><a href="https://www.simplemachines.org/" title="Simple Machines Forum" class="new_win">SMF 2.0.19</a>
| <a href="https://www.simplemachines.org/about/smf/license.php" class="new_win">SMF &copy; 2021</a>, <a href="https://www.simplemachines.org" class="new_win">Simple Machines</a></span></li></ul>
</div></div>
</div>
</body>
</html>
"#
        )
    }

    /// SMF's page index: "Seiten: « [1] 2 3 ... 9 »".
    fn page_index(&self, pager: &Pager) -> String {
        let mut text = String::from("Seiten: ");
        let link = |address: &Address, label: &str| {
            let href = self.href_address(address);
            format!("<a class=\"navPages\" href=\"{href}\">{label}</a> ")
        };
        if let Some(previous) = &pager.previous {
            text += &link(previous, "&#171;");
        }
        let mut shown = 0;
        for (number, address) in &pager.pages {
            if shown > 0 && *number > shown + 1 {
                text.push_str("<span style=\"font-weight: bold;\"> ... </span>");
            }
            text += &match *number == pager.current {
                true => format!("[<strong>{number}</strong>] "),
                false => link(address, &number.to_string()),
            };
            shown = *number;
        }
        if let Some(next) = &pager.next {
            text += &link(next, "&#187;");
        }
        text
    }

    /// The bar above and below lists: page index on the left, buttons on the right.
    fn page_section(&mut self, pager: &Pager, buttons: &str, jump: &str) -> fmt::Result {
        let pages = self.page_index(pager);
        write!(
            self.html,
            r#"<div class="pagesection"><div class="pagelinks floatleft">{pages} {jump}</div>
<div class="buttonlist floatright"><ul>{buttons}</ul></div></div>
"#
        )
    }

    /// One `buttonlist` entry, present when its route is.
    fn button(&self, route: Option<&Route>, class: &str, text: &str) -> String {
        let span = format!("<span class=\"last\">{text}</span>");
        let link = self.anchor(route, &format!(" class=\"button_strip_{class}\""), &span);
        either((!link.is_empty()).then_some(link), |link| {
            format!("<li>{link}</li>")
        })
    }

    /// The "Neueste Beiträge" box of the info center.
    fn latest(&mut self, latest: &[ThreadSummary]) -> fmt::Result {
        if latest.is_empty() {
            return Ok(());
        }
        self.html.push_str(
            "<div class=\"roundframe\"><h4 class=\"titlebg\">Neueste Beiträge</h4>\n\
             <dl id=\"ic_recentposts\" class=\"middletext\">\n",
        );
        for summary in latest {
            let (href, title) = (self.href(&summary.link), escape(&summary.title));
            let last = &summary.last_post;
            let (jump, poster) = (self.last_post_href(last), self.user(&last.author));
            let when = date(self.context, last.created);
            writeln!(
                self.html,
                "<dt><strong><a href=\"{href}\">{title}</a></strong> von {poster} (<a \
                 href=\"{jump}\">Letzter Beitrag</a>)</dt><dd>{when}</dd>"
            )?;
        }
        self.html.push_str("</dl></div>\n");
        Ok(())
    }

    fn portal(&mut self, view: &PortalView) -> fmt::Result {
        self.html
            .push_str("<div id=\"boardindex_table\"><table class=\"table_list\">\n");
        for (index, category) in view.categories.iter().enumerate() {
            let (id, name) = (index + 1, escape(&category.name));
            write!(
                self.html,
                r#"<tbody class="header" id="category_{id}"><tr><td colspan="4"><div class="cat_bar"><h3 class="catbg"><a id="c{id}"></a>{name}</h3></div></td></tr></tbody>
<tbody class="content" id="category_{id}_boards">
"#
            )?;
            for board in &category.boards {
                let (id, href, name) = (board.board, self.href(&board.link), escape(&board.name));
                let (posts, threads) = (grouped(board.posts), grouped(board.threads));
                let last = either(board.last_post.as_ref(), |last| {
                    let (poster, jump) = (self.user(&last.author), self.last_post_href(last));
                    let (title, when) =
                        (escape(&last.thread_title), date(self.context, last.created));
                    format!(
                        "<strong>Letzter Beitrag</strong> von {poster}<br />in <a href=\"{jump}\" \
                         title=\"{title}\">{title}</a><br />am {when}"
                    )
                });
                write!(
                    self.html,
                    r#"<tr id="board_{id}" class="windowbg2">
<td class="icon windowbg"><a href="{href}"><img src="Themes/default/images/off.png" alt="Keine neuen Beiträge" /></a></td>
<td class="info"><a class="subject" href="{href}" name="b{id}">{name}</a></td>
<td class="stats windowbg"><p>{posts} Beiträge <br />{threads} Themen</p></td>
<td class="lastpost"><p>{last}</p></td>
</tr>
"#
                )?;
            }
            self.html.push_str("</tbody>\n");
        }
        self.html.push_str("</table></div>\n");
        self.latest(&view.latest)
    }

    /// One topic of a topic list (`MessageIndex`).
    fn topic_row(&mut self, summary: &ThreadSummary) -> fmt::Result {
        let history = self.context.history;
        let first = history
            .thread_posts(summary.thread)
            .first()
            .copied()
            .unwrap_or(0);
        let (href, title) = (self.href(&summary.link), escape(&summary.title));
        let (class, sticky) = match summary.sticky {
            true => ("stickybg", STICKY),
            false => ("windowbg", ""),
        };
        let starter = self.user(&summary.author);
        let mut pages = String::new();
        if !summary.page_links.is_empty() {
            write!(
                pages,
                "<small id=\"pages{first}\">&#171; <a class=\"navPages\" href=\"{href}\">1</a> "
            )?;
            let mut shown = 1;
            for (number, route) in &summary.page_links {
                if *number > shown + 1 {
                    pages.push_str("<span style=\"font-weight: bold;\"> ... </span>");
                }
                write!(
                    pages,
                    "<a class=\"navPages\" href=\"{}\">{number}</a> ",
                    self.href(route)
                )?;
                shown = *number;
            }
            pages.push_str("&#187;</small>");
        }
        let (replies, views) = (grouped(summary.replies), grouped(summary.views));
        let last = &summary.last_post;
        let (jump, poster) = (self.last_post_href(last), self.user(&last.author));
        let when = date(self.context, last.created);
        write!(
            self.html,
            r#"<tr>
<td class="icon1 {class}"><img src="Themes/default/images/topic/normal_post.gif" alt="" /></td>
<td class="icon2 {class}"><img src="Themes/default/images/post/xx.gif" alt="" /></td>
<td class="subject {class}2"><div>{sticky}<span id="msg_{first}"><a href="{href}">{title}</a></span>
<p>Gestartet von {starter} {pages}</p></div></td>
<td class="stats {class}">{replies} Antworten<br />{views} Aufrufe</td>
<td class="lastpost {class}2"><a href="{jump}"><img src="Themes/default/images/icons/last_post.gif" alt="Letzter Beitrag" title="Letzter Beitrag" /></a>
{when}<br />von {poster}</td>
</tr>
"#
        )
    }

    /// A column header: a link to another order, or the name of the order shown.
    fn sort_header(&self, view: &BoardView, order: SortOrder, text: &str) -> String {
        let link = view.sort_links.iter().find(|(sort, _)| *sort == order);
        let Some((_, address)) = link else {
            return text.to_string();
        };
        format!("<a href=\"{}\">{text}</a>", self.href_address(address))
    }

    fn board(&mut self, view: &BoardView) -> fmt::Result {
        let new_topic = self.button(view.new_thread.as_ref(), "new_topic", "Neues Thema");
        let down = "<a href=\"#bot\"><strong>Nach unten</strong></a>";
        self.html.push_str("<a id=\"top\"></a>\n");
        self.page_section(&view.pager, &new_topic, down)?;
        let name = escape(&view.name);
        let subject = self.sort_header(view, SortOrder::Title, "Betreff");
        let starter = self.sort_header(view, SortOrder::Author, "Gestartet von");
        let replies = self.sort_header(view, SortOrder::Replies, "Antworten");
        let last_post = self.sort_header(view, SortOrder::LastPost, "Letzter Beitrag");
        write!(
            self.html,
            r#"<div class="tborder topic_table" id="messageindex">
<div class="cat_bar"><h3 class="catbg">{name}</h3></div>
<table class="table_grid" cellspacing="0">
<thead><tr class="catbg"><th scope="col" class="first_th" width="8%" colspan="2">&nbsp;</th>
<th scope="col" class="lefttext">{subject} / {starter}</th>
<th scope="col" width="14%">{replies} / Aufrufe</th>
<th scope="col" class="lefttext last_th" width="22%">{last_post}</th></tr></thead>
<tbody>
"#
        )?;
        for summary in view.stickies.iter().chain(&view.threads) {
            self.topic_row(summary)?;
        }
        self.html
            .push_str("</tbody>\n</table>\n</div>\n<a id=\"bot\"></a>\n");
        let up = "<a href=\"#top\"><strong>Nach oben</strong></a>";
        self.page_section(&view.pager, &new_topic, up)?;
        let mut orders = String::new();
        for (sort, address) in &view.sort_links {
            let text = match sort {
                SortOrder::LastPost => "Letzter Beitrag",
                SortOrder::Title => "Betreff",
                SortOrder::Author => "Gestartet von",
                SortOrder::Replies => "Antworten",
                SortOrder::Created => "Erster Beitrag",
            };
            write!(
                orders,
                " <a href=\"{}\">{text}</a>",
                self.href_address(address)
            )?;
        }
        let wap = self.anchor(view.archive.as_ref(), " id=\"button_wap2\"", "WAP2");
        writeln!(
            self.html,
            "<div class=\"flow_auto\"><div class=\"floatleft smalltext\">Sortieren nach:{orders}\
             </div><div class=\"floatright smalltext\">{wap}</div></div>"
        )?;
        self.latest(&view.latest)
    }

    /// One message of a topic (`Display`), in SMF 2's `post_wrapper` layout.
    fn message(&mut self, post: &PostView, title: &str, alternate: bool) -> fmt::Result {
        let id = post.post;
        let class = if alternate { "windowbg2" } else { "windowbg" };
        let author = &post.author;
        let name = self.user(author);
        let (group, posts) = (member_group(author.posts), grouped(author.posts));
        let joined = either(author.joined, |instant| {
            format!(
                "<li class=\"joined\">Registriert: {}</li>",
                day(self.context, instant)
            )
        });
        let pm_icon = "<img src=\"Themes/default/images/im_off.gif\" alt=\"Private Nachricht\" />";
        let pm = self.anchor(
            post.message.as_ref(),
            " title=\"Private Nachricht\"",
            pm_icon,
        );
        let subject = match post.number {
            1 => escape(title),
            _ => format!("Re: {}", escape(title)),
        };
        let subject = match &post.permalink {
            Some(route) => {
                let href = self.href(route);
                format!("<a href=\"{href}#msg{id}\" rel=\"nofollow\">{subject}</a>")
            }
            None => subject,
        };
        let counter = either((post.number > 1).then_some(post.number - 1), |counter| {
            format!("Antwort #{counter} ")
        });
        let when = date(self.context, post.created);
        let quote = self.anchor(post.quote.as_ref(), "", "Zitieren");
        let text = paragraphs(post);
        let signature = either(post.signature.as_ref(), |signature| {
            format!(
                "<div class=\"signature\" id=\"msg_{id}_signature\">{}</div>",
                escape(signature)
            )
        });
        write!(
            self.html,
            r#"<div class="{class}" id="msg{id}">
<span class="topslice"><span></span></span>
<div class="post_wrapper">
<div class="poster"><h4>{name}</h4>
<ul class="reset smalltext" id="msg_{id}_extra_info"><li class="membergroup">{group}</li>
<li class="postcount">Beiträge: {posts}</li>{joined}<li class="profile"><ul><li>{pm}</li></ul></li></ul></div>
<div class="postarea"><div class="flow_hidden"><div class="keyinfo">
<div class="messageicon"><img src="Themes/default/images/post/xx.gif" alt="" /></div>
<h5 id="subject_{id}">{subject}</h5>
<div class="smalltext">&#171; <strong>{counter}am:</strong> {when} &#187;</div>
</div>
<ul class="reset smalltext quickbuttons"><li class="quote_button">{quote}</li></ul></div>
<div class="post"><div class="inner" id="msg_{id}">{text}</div></div></div>
<div class="moderatorbar"><div class="smalltext reportlinks">Gespeichert</div>{signature}</div>
</div>
<span class="botslice"><span></span></span>
</div>
<hr class="post_separator" />
"#
        )
    }

    fn thread(&mut self, view: &ThreadView) -> fmt::Result {
        let previous = either(view.previous_thread.as_ref(), |route| {
            format!(
                "<a href=\"{}#new\">&#171; Vorheriges Thema</a>",
                self.href(route)
            )
        });
        let next = either(view.next_thread.as_ref(), |route| {
            format!(
                "<a href=\"{}#new\">Nächstes Thema &#187;</a>",
                self.href(route)
            )
        });
        let reply = self.button(view.reply.as_ref(), "reply", "Antworten");
        let print = self.button(view.print.as_ref(), "print", "Drucken");
        let buttons = format!("{reply}{print}");
        let title = escape(&view.title);
        writeln!(
            self.html,
            "<a id=\"top\"></a>\n<div class=\"nextlinks\">{previous} {next}</div>"
        )?;
        let down = "<a href=\"#lastPost\"><strong>Nach unten</strong></a>";
        self.page_section(&view.pager, &buttons, down)?;
        write!(
            self.html,
            r#"<div id="forumposts">
<div class="cat_bar"><h3 class="catbg"><img src="Themes/default/images/topic/normal_post.gif" align="bottom" alt="" />
<span id="author">Autor</span> Thema: {title}</h3></div>
"#
        )?;
        for (index, post) in view.posts.iter().enumerate() {
            self.message(post, &view.title, index % 2 == 1)?;
        }
        self.html.push_str("<a id=\"lastPost\"></a>\n</div>\n");
        let up = "<a href=\"#top\"><strong>Nach oben</strong></a>";
        self.page_section(&view.pager, &buttons, up)?;
        let (board, board_name) = (self.href(&board_route(view.board.0)), escape(&view.board.1));
        let wap = self.anchor(view.archive.as_ref(), " id=\"button_wap2\"", "WAP2");
        writeln!(
            self.html,
            "<div class=\"nextlinks_bottom\">{previous} {next}</div>\n<div class=\"smalltext\">\
             Zurück zu <a href=\"{board}\">{board_name}</a> | {wap}</div>"
        )
    }

    fn single_post(&mut self, view: &SinglePostView) -> fmt::Result {
        let (href, title) = (self.href(&view.in_thread), escape(&view.thread.1));
        writeln!(
            self.html,
            "<div class=\"cat_bar\"><h3 class=\"catbg\"><a href=\"{href}#msg{}\">{title}</a></h3></div>",
            view.post.post
        )?;
        self.message(&view.post, &view.thread.1, false)
    }

    /// The links of a message on the plain print and WAP2 pages.
    fn plain_links(&self, post: &PostView) -> String {
        let links = [
            self.anchor(post.permalink.as_ref(), "", &format!("#{}", post.number)),
            self.anchor(post.quote.as_ref(), "", "Zitieren"),
            self.anchor(post.message.as_ref(), "", "Private Nachricht"),
        ];
        let present: Vec<String> = links.into_iter().filter(|link| !link.is_empty()).collect();
        present.join(" | ")
    }

    fn print(&mut self, view: &WholeThreadView) -> fmt::Result {
        let (href, title) = (self.href(&view.original), escape(&view.title));
        writeln!(
            self.html,
            "<h2 id=\"linktree\"><a href=\"{href}\">{title}</a></h2>\n<div id=\"posts\">"
        )?;
        for post in &view.posts {
            let (author, when, links) = (
                self.user(&post.author),
                date(self.context, post.created),
                self.plain_links(post),
            );
            let subject = if post.number == 1 {
                title.clone()
            } else {
                format!("Re: {title}")
            };
            let text = paragraphs(post);
            let signature = either(post.signature.as_ref(), |text| {
                format!("<div class=\"signature\">{}</div>", escape(text))
            });
            write!(
                self.html,
                r#"<div class="postheader">Titel: {subject}<br />Beitrag von: <strong>{author}</strong> am {when} <span class="smalltext">{links}</span></div>
<div class="postbody">{text}</div>
{signature}
"#
            )?;
        }
        self.html.push_str("</div>\n");
        Ok(())
    }

    fn wap_thread(&mut self, view: &WholeThreadView) -> fmt::Result {
        let (href, title) = (self.href(&view.original), escape(&view.title));
        writeln!(self.html, "<p class=\"catbg\">{title}</p>")?;
        for post in &view.posts {
            let (author, when) = (self.user(&post.author), date(self.context, post.created));
            let (text, links) = (paragraphs(post), self.plain_links(post));
            let signature = either(post.signature.as_ref(), |text| {
                format!("<p class=\"signature\">{}</p>", escape(text))
            });
            writeln!(
                self.html,
                "<p class=\"titlebg\"><strong>{author}</strong>: {when} {links}</p>\n\
                 <p class=\"windowbg\">{text}</p>{signature}"
            )?;
        }
        writeln!(
            self.html,
            "<p class=\"windowbg\">[<a href=\"{href}\">Vollversion</a>]</p>"
        )
    }

    fn wap_board(&mut self, view: &ArchiveBoardView) -> fmt::Result {
        let (href, name) = (self.href(&board_route(view.board)), escape(&view.name));
        writeln!(self.html, "<p class=\"catbg\">{name}</p>")?;
        for (index, (route, title)) in view.threads.iter().enumerate() {
            let (topic, title) = (self.href(route), escape(title));
            let number = index + 1;
            writeln!(
                self.html,
                "<p class=\"windowbg\">{number}. <a href=\"{topic}\">{title}</a></p>"
            )?;
        }
        writeln!(
            self.html,
            "<p class=\"windowbg\">[<a href=\"{href}\">Vollversion</a>]</p>"
        )
    }

    fn profile(&mut self, view: &ProfileView) -> fmt::Result {
        let (name, group) = (escape(&view.user.name), member_group(view.user.posts));
        let message = self.anchor(view.message.as_ref(), "", "Private Nachricht senden");
        let (posts, joined) = (grouped(view.user.posts), date(self.context, view.joined));
        let last_visit = either(view.last_visit, |instant| {
            format!(
                "<dt>Letzte Aktivität: </dt><dd>{}</dd>",
                date(self.context, instant)
            )
        });
        let mut recent = String::new();
        for (route, title) in &view.recent_threads {
            writeln!(
                recent,
                "<li><a href=\"{}\">{}</a></li>",
                self.href(route),
                escape(title)
            )?;
        }
        write!(
            self.html,
            r#"<div id="profileview" class="flow_auto">
<div class="cat_bar"><h3 class="catbg">Zusammenfassung</h3></div>
<div id="basicinfo"><div class="windowbg"><div class="content flow_auto">
<div class="username"><h4>{name} <span class="position">{group}</span></h4></div>
<ul class="reset"><li>{message}</li></ul></div></div></div>
<div id="detailedinfo"><div class="windowbg2"><div class="content"><dl>
<dt>Beiträge: </dt><dd>{posts}</dd><dt>Registriert: </dt><dd>{joined}</dd>{last_visit}
</dl></div></div></div>
<div class="cat_bar"><h3 class="catbg">Neueste Themen</h3></div>
<ul class="reset">
{recent}</ul>
</div>
"#
        )
    }

    fn member_list(&mut self, view: &MemberListView) -> fmt::Result {
        self.html.push_str(
            "<div class=\"main_section\" id=\"memberlist\">\n<div class=\"cat_bar\"><h4 \
             class=\"catbg\">Mitgliederliste</h4></div>\n",
        );
        self.page_section(&view.pager, "", "")?;
        self.html.push_str(
            "<table class=\"table_grid\" cellspacing=\"0\" width=\"100%\">\n<thead><tr \
             class=\"catbg\"><th scope=\"col\" class=\"first_th\">Name</th><th \
             scope=\"col\">Registriert</th><th scope=\"col\" class=\"last_th\">Beiträge</th></tr>\
             </thead>\n<tbody>\n",
        );
        for member in &view.members {
            let (name, posts) = (self.user(member), grouped(member.posts));
            let joined = either(member.joined, |instant| day(self.context, instant));
            writeln!(
                self.html,
                "<tr><td class=\"windowbg2\">{name}</td><td class=\"windowbg\">{joined}</td><td \
                 class=\"windowbg2\">{posts}</td></tr>"
            )?;
        }
        self.html.push_str("</tbody>\n</table>\n");
        self.page_section(&view.pager, "", "")?;
        self.html.push_str("</div>\n");
        Ok(())
    }

    fn calendar(&mut self, view: &CalendarView) -> fmt::Result {
        let month_name = |month: u32| GERMAN_MONTHS[(month as usize).clamp(1, 12) - 1];
        let neighbour = |route: &Route| match *route {
            Route::Calendar { month, year } => format!("{} {year}", month_name(month)),
            _ => String::new(),
        };
        let (previous, previous_name) = (self.href(&view.previous), neighbour(&view.previous));
        let (next, next_name) = (self.href(&view.next), neighbour(&view.next));
        let (this_month, year) = (month_name(view.month), view.year);
        write!(
            self.html,
            r#"<div id="calendar"><div id="main_grid"><div class="cat_bar"><h3 class="catbg centertext largetext">
<span class="floatleft"><a href="{previous}">&#171; {previous_name}</a></span><span class="floatright"><a href="{next}">{next_name} &#187;</a></span>
{this_month} {year}</h3></div>
<table class="table_grid calendar_table" cellspacing="1">
"#
        )?;
        for (day_of_month, route, title) in &view.events {
            let (href, title) = (self.href(route), escape(title));
            writeln!(
                self.html,
                "<tr><td class=\"windowbg days\">{day_of_month}</td><td class=\"windowbg2\">\
                 Ereignisse: <a href=\"{href}\">{title}</a></td></tr>"
            )?;
        }
        self.html.push_str("</table></div></div>\n");
        Ok(())
    }

    fn recent(&mut self, view: &SearchView) -> fmt::Result {
        let previous = either(view.previous.as_ref(), |route| {
            format!(
                "<a class=\"navPages\" href=\"{}\">&#171;</a> ",
                self.href(route)
            )
        });
        let (page, next) = (view.page, self.href(&view.next));
        write!(
            self.html,
            r#"<div id="recent" class="main_section">
<div class="cat_bar"><h3 class="catbg">Neueste Beiträge</h3></div>
<div class="pagesection"><span>Seiten: {previous}[<strong>{page}</strong>] <a class="navPages" href="{next}">&#187;</a></span></div>
"#
        )?;
        let first = (page.saturating_sub(1) * RECENT_PER_PAGE) as usize;
        for (index, summary) in view.results.iter().enumerate() {
            let (href, title) = (self.href(&summary.link), escape(&summary.title));
            let last = &summary.last_post;
            let (jump, poster) = (self.last_post_href(last), self.user(&last.author));
            let (starter, when) = (self.user(&summary.author), date(self.context, last.created));
            let counter = first + index + 1;
            write!(
                self.html,
                r#"<div class="windowbg core_posts"><div class="content"><div class="counter">{counter}</div>
<div class="topic_details"><h5><strong><a href="{href}">{title}</a></strong></h5><span class="smalltext">&#171; <strong>am:</strong> {when} &#187;</span></div>
<div class="list_posts">Gestartet von {starter} | <a href="{jump}">Letzter Beitrag</a> von {poster}</div></div></div>
"#
            )?;
        }
        self.html.push_str("</div>\n");
        Ok(())
    }

    fn login(&mut self, view: &LoginView) -> fmt::Result {
        let warning = match view.reason {
            LoginReason::MembersOnly => format!(
                "<div class=\"cat_bar\"><h3 class=\"catbg\">Warnung!</h3></div>\n<p class=\"information \
                 centertext\">{MEMBERS_ONLY}<br />Bitte loggen Sie sich unten ein.</p>\n"
            ),
            LoginReason::Requested => String::new(),
        };
        let action = self.href(&view.form_action);
        write!(
            self.html,
            r#"<form action="{action}" method="post" accept-charset="UTF-8" name="frmLogin" id="frmLogin">
<div class="tborder login">
{warning}<div class="cat_bar"><h3 class="catbg">Einloggen</h3></div>
<div class="roundframe"><dl>
<dt>Benutzername:</dt><dd><input type="text" name="user" size="20" class="input_text" /></dd>
<dt>Passwort:</dt><dd><input type="password" name="passwrd" size="20" class="input_password" /></dd>
</dl><p><input type="submit" value="Einloggen" class="button_submit" /></p></div>
</div>
</form>
"#
        )
    }

    fn fatal_error(&mut self, chrome: &Chrome) -> fmt::Result {
        let portal = self.href(&chrome.navigation.portal);
        write!(
            self.html,
            r#"<div id="fatal_error">
<div class="cat_bar"><h3 class="catbg">Ein Fehler ist aufgetreten!</h3></div>
<div class="windowbg"><div class="padding">{NOT_FOUND}</div></div>
</div>
<div class="centertext"><a href="{portal}">Zurück</a></div>
"#
        )
    }
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use super::*;
    use crate::families::FamilyName;
    use crate::history::Scale;
    use crate::site::{Site, SiteConfig};

    fn site() -> &'static Site {
        static SITE: OnceLock<Site> = OnceLock::new();
        SITE.get_or_init(|| Site::build(SiteConfig::new(FamilyName::Smf, 7, Scale::Small)))
    }

    /// Decodes `url` and compares the whole address (`None`: the engine has no such page).
    fn check(url: &str, expected: Option<Address>) {
        assert_eq!(site().address_of(url), expected, "decoding {url}");
    }

    /// One `check` per line: `url => route` (canonical spelling), `url => route, variant`, or
    /// `url => None`. A macro keeps the table one case a line.
    macro_rules! cases {
        (@variant) => { Variant::default() };
        (@variant $variant:expr) => { $variant };
        ($($url:expr => $route:expr $(, $variant:expr)?;)*) => {$(
            let variant = cases!(@variant $($variant)?);
            check($url, ($route).map(|route| Address { route, variant }));
        )*};
    }

    /// Asserts that a page holds every landmark; a macro keeps several landmarks a line.
    macro_rules! contains {
        ($page:expr; $($landmark:expr),* $(,)?) => {$(
            assert!($page.contains($landmark), "missing {}", $landmark);
        )*};
    }

    fn board(board: u32, page: u32) -> Option<Route> {
        Some(Route::Board { board, page })
    }

    fn thread(thread: u32, page: u32) -> Option<Route> {
        Some(Route::Thread { thread, page })
    }

    fn act(kind: ActionKind, target: u32) -> Option<Route> {
        Some(action(kind, target))
    }

    fn explicit() -> Variant {
        Variant {
            explicit_first_page: true,
            ..Variant::default()
        }
    }

    fn sorted(sort: SortOrder, explicit_first_page: bool) -> Variant {
        Variant {
            sort,
            explicit_first_page,
            ..Variant::default()
        }
    }

    fn session(token: u64) -> Variant {
        Variant {
            session: Some(token),
            ..Variant::default()
        }
    }

    #[test]
    fn canonical_urls_decode() {
        let next = Some("/index.php?topic=5.0".to_string());
        cases! {
            "/index.php" => Some(Route::Portal);
            "/" => Some(Route::Portal);
            "/index.php?board=3.0" => board(3, 1);
            "/index.php?board=3.20" => board(3, 2);
            "/index.php?board=3" => board(3, 1);
            "/index.php?topic=123.0" => thread(123, 1);
            "/index.php?topic=123.45" => thread(123, 4);
            "/index.php?topic=123.msg456" => Some(Route::Post { post: 456 });
            "/index.php?topic=123.msg456#msg456" => Some(Route::Post { post: 456 });
            "/index.php?action=printpage;topic=12.0" => Some(Route::Print { thread: 12 });
            "/index.php?board=3.0;wap2" => Some(Route::ArchiveBoard { board: 3 });
            "/index.php?topic=123.0;wap2" => Some(Route::ArchiveThread { thread: 123 });
            "/index.php?topic=9.0;prev_next=next" => Some(Route::AdjacentThread { thread: 9, newer: true });
            "/index.php?topic=9.0;prev_next=prev" => Some(Route::AdjacentThread { thread: 9, newer: false });
            "/index.php?action=profile;u=5" => Some(Route::Profile { user: 5 });
            "/index.php?action=mlist" => Some(Route::MemberList { page: 1 });
            "/index.php?action=mlist;start=60" => Some(Route::MemberList { page: 3 });
            "/index.php?action=calendar;year=2025;month=3" => Some(Route::Calendar { year: 2025, month: 3 });
            "/index.php?action=recent" => Some(Route::Search { page: 1 });
            "/index.php?action=recent;start=60" => Some(Route::Search { page: 7 });
            "/index.php?action=login" => Some(Route::Login { next: None });
            "/index.php?action=login;redirect=%2Findex.php%3Ftopic%3D5.0" => Some(Route::Login { next: next.clone() });
            "/index.php?action=post;topic=12.0" => act(ActionKind::Reply, 12);
            "/index.php?action=post;board=3.0" => act(ActionKind::NewThread, 3);
            "/index.php?action=post;quote=456;topic=12.0" => act(ActionKind::Quote, 456);
            "/index.php?action=pm;sa=send;u=5" => act(ActionKind::Message, 5);
            // Real engines ignore parameters they do not know; `&` separates as well as `;`.
            "/index.php?topic=5.0;all" => thread(5, 1);
            "/index.php?topic=5.15&highlight=Motor" => thread(5, 2);
            "/index.php?action=profile;u=4;area=summary" => Some(Route::Profile { user: 4 });
        }
    }

    #[test]
    fn variants_decode() {
        let token = 0x0123_4567_89ab_cdef;
        let hex = session_hex(token);
        cases! {
            "/index.php/board,3.0.html" => board(3, 1), explicit();
            "/index.php/topic,8.0.html" => thread(8, 1), explicit();
            "/index.php/topic,8.30.html" => thread(8, 3), Variant { alias: true, ..Variant::default() };
            "/index.php?action=mlist;start=0" => Some(Route::MemberList { page: 1 }), explicit();
            "/index.php?board=3.0;sort=subject" => board(3, 1), sorted(SortOrder::Title, false);
            "/index.php?board=3.20;sort=starter" => board(3, 2), sorted(SortOrder::Author, false);
            "/index.php?board=3.0;sort=replies;desc" => board(3, 1), sorted(SortOrder::Replies, false);
            "/index.php?board=3.0;sort=first_post;desc" => board(3, 1), sorted(SortOrder::Created, false);
            "/index.php/board,3.0/sort,replies/desc.html" => board(3, 1), sorted(SortOrder::Replies, true);
            &format!("/index.php?topic=5.0;PHPSESSID={hex}") => thread(5, 1), session(token);
            &format!("/index.php?PHPSESSID={hex}") => Some(Route::Portal), session(token);
            &format!("/index.php/topic,5.0.html?PHPSESSID={hex}") => thread(5, 1), Variant { session: Some(token), explicit_first_page: true, ..Variant::default() };
            "/index.php?PHPSESSID=" => Some(Route::Portal);
        }
    }

    #[test]
    fn junk_urls_are_not_pages() {
        cases! {
            "/index.php?topic=abc.0" => None; "/index.php?topic=5.7" => None;
            "/index.php?topic=5.new" => None; "/index.php?topic=5.15;wap2" => None;
            "/index.php?topic=5.0;prev_next=later" => None; "/index.php?board=3.5" => None;
            "/index.php?board=3.msg4" => None; "/index.php?board=3.0;sort=subject;desc" => None;
            "/index.php?board=3.0;sort=views" => None;
            "/index.php?board=3.0;sort=replies" => None;
            "/index.php?action=printpage;topic=5.15" => None; "/index.php?action=profile" => None;
            "/index.php?action=mlist;start=7" => None;
            "/index.php?action=calendar;year=2025" => None; "/index.php?action=post" => None;
            "/index.php?action=pm;sa=show;u=3" => None; "/index.php?action=register" => None;
            "/index.php/board,3.0" => None; "/index.php/action,profile/u,5.html" => None;
            "/index.php/topic,5.msg9.html" => None; "/index.php/.html" => None;
            "/forum/index.php?topic=5.0" => None; "/viewtopic.php?t=5" => None;
        }
    }

    #[test]
    fn every_enumerated_address_round_trips() {
        let site = site();
        let mut count = 0;
        site.for_each_address(crate::HISTORY_END_SECONDS, |mut address| {
            for session in [None, Some(0xfeed_0000_beef_0001)] {
                address.variant.session = session;
                let url = site.url_of(&address);
                assert!(url.starts_with('/') && !url.contains('#'), "{url}");
                assert_eq!(site.address_of(&url), Some(address.clone()), "{url}");
                count += 1;
            }
        });
        assert!(count > 1_000);
        let next = Some("/index.php?topic=5.15;prev_next=next".to_string());
        let login = Address::canonical(Route::Login { next });
        let url = site.url_of(&login);
        assert_eq!(
            url,
            "/index.php?action=login;redirect=/index.php%3Ftopic%3D5.15%3Bprev_next%3Dnext"
        );
        assert_eq!(site.address_of(&url), Some(login));
        let alias = Address {
            route: Route::Thread { thread: 4, page: 3 },
            variant: Variant {
                alias: true,
                ..Variant::default()
            },
        };
        assert_eq!(site.url_of(&alias), "/index.php/topic,4.30.html");
        assert_eq!(site.address_of(&site.url_of(&alias)), Some(alias));
    }

    #[test]
    fn numbers_and_dates_look_like_smf() {
        let numbers = [
            (0, "0"),
            (999, "999"),
            (1_234, "1.234"),
            (1_234_567, "1.234.567"),
        ];
        for (number, text) in numbers {
            assert_eq!(grouped(number), text);
        }
        let history = site().history();
        let context = RenderContext {
            history,
            family: site().family(),
            now: 1_743_458_460,
            session: None,
        };
        // 2025-03-31 22:01:00 UTC is 23:01 on the 31st in the forum's zone (UTC+1).
        assert_eq!(absolute(&context, 1_743_458_460), "31. März 2025, 23:01:00");
        assert_eq!(
            date(&context, 1_743_458_460 - 3_600),
            "<strong>Heute</strong> um 22:01:00"
        );
        assert_eq!(
            date(&context, 1_743_458_460 - 86_400),
            "<strong>Gestern</strong> um 23:01:00"
        );
        assert_eq!(date(&context, 1_743_112_800), "27. März 2025, 23:00:00");
        assert_eq!(date(&context, 1_741_000_000), "03. März 2025, 12:06:40");
    }

    fn serve(url: &str) -> (u16, String) {
        let response = site().serve(url, crate::HISTORY_END_SECONDS, None);
        (
            response.status,
            String::from_utf8(response.body).expect("UTF-8 pages"),
        )
    }

    #[test]
    fn topic_page_renders_messages_in_smf_markup() {
        let history = site().history();
        let at = crate::HISTORY_END_SECONDS;
        let id = (1..=history.thread_count())
            .find(|&id| history.thread_posts_at(id, at).len() > 15)
            .expect("a thread with two pages");
        let (status, page) = serve(&format!("/index.php?topic={id}.0"));
        assert_eq!(status, 200);
        let first = history.thread_posts(id)[0];
        let paragraphs = crate::text::post_paragraphs(7, history.language, first);
        let escaped: Vec<String> = paragraphs.iter().map(|text| escape(text)).collect();
        let body = format!(
            "<div class=\"inner\" id=\"msg_{first}\">{}</div>",
            escaped.join("<br />\n")
        );
        assert!(page.contains(&body));
        contains! { page;
            &format!("<div class=\"windowbg\" id=\"msg{first}\">"),
            &format!("<h5 id=\"subject_{first}\"><a href=\"/index.php?topic={id}.msg{first};PHPSESSID="),
            &format!("<link rel=\"canonical\" href=\"/index.php?topic={id}.0;PHPSESSID="),
            "<div class=\"post_wrapper\">", "<li class=\"postcount\">Beiträge: ",
            "<strong>am:</strong> ", "<strong>Antwort #1 am:</strong> ",
            "Seiten: [<strong>1</strong>] <a class=\"navPages\"", ".15;PHPSESSID=",
            "Hallo <span>Gast</span>", "Letzter Besuch: ", "Zitieren</a>", "Drucken</span>",
            "prev_next=", ";wap2",
        }
    }

    #[test]
    fn boards_walls_and_errors_render() {
        let (status, page) = serve("/index.php?board=1.0");
        assert_eq!(status, 200);
        contains! { page;
            "<table class=\"table_grid\"", "<span id=\"msg_",
            "Gestartet von <a href=\"/index.php?action=profile;u=", " Antworten<br />",
            " Aufrufe</td>", "alt=\"Letzter Beitrag\"", "sort=first_post;desc", "Neues Thema",
        }
        let (status, missing) = serve("/index.php?topic=999999.0");
        assert!(status == 404 && missing.contains(NOT_FOUND));
        let (status, wall) = serve("/index.php?action=profile;u=1");
        assert!(status == 403 && wall.contains(MEMBERS_ONLY));
        let (status, wall) = serve("/index.php?action=post;topic=1.0");
        assert!(status == 403 && wall.contains("action=login;redirect="));
    }
}
