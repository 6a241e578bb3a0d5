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

use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::dates;
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

fn action(kind: ActionKind, target: u32) -> Route {
    Route::Action { kind, target }
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
        let mut out = Out {
            html: String::with_capacity(32 * 1024),
            context,
        };
        // Writing into a String cannot fail; fmt::Result only lets the templates use `?`.
        let _ = out.page(page);
        out.html
    }
}

/// The day part of a vBulletin date: "Today", "Yesterday" or "03-30-2025".
fn day(context: &RenderContext<'_>, instant: i64) -> String {
    match context.days_ago(instant) {
        0 => "Today".to_string(),
        1 => "Yesterday".to_string(),
        _ => {
            let local = context.local(instant);
            format!("{:02}-{:02}-{}", local.month, local.day, local.year)
        }
    }
}

/// The time part of a vBulletin date: "10:32 PM".
fn time(context: &RenderContext<'_>, instant: i64) -> String {
    let local = context.local(instant);
    let (hour, pm) = dates::twelve_hour(local.hour);
    format!(
        "{hour:02}:{:02} {}",
        local.minute,
        if pm { "PM" } else { "AM" }
    )
}

/// A post date: "Today, 10:32 PM", "Yesterday, 08:11 AM" or "03-30-2025, 10:11 PM".
fn date(context: &RenderContext<'_>, instant: i64) -> String {
    format!("{}, {}", day(context, instant), time(context, instant))
}

/// A list-column date, day and time apart as vBulletin's thread lists print them.
fn list_date(context: &RenderContext<'_>, instant: i64) -> String {
    format!(
        "{} <span class=\"time\">{}</span>",
        day(context, instant),
        time(context, instant)
    )
}

/// A postbit join date: "Join Date: Mar 2025".
fn join_date(context: &RenderContext<'_>, instant: i64) -> String {
    let local = context.local(instant);
    format!(
        "<div>Join Date: {} {}</div>",
        dates::short_month(local.month),
        local.year
    )
}

/// A number with thousands separators, as vBulletin's `vb_number_format` prints it.
fn grouped(number: u32) -> String {
    let digits = number.to_string();
    let mut text = String::with_capacity(digits.len() + 4);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The default user titles vBulletin gives by post count.
fn user_title(posts: u32) -> &'static str {
    match posts {
        0..=29 => "Junior Member",
        30..=99 => "Member",
        _ => "Senior Member",
    }
}

/// The zone label of the footer: "GMT -5", "GMT +5:30", "GMT".
fn zone_label(offset_seconds: i32) -> String {
    let hours = offset_seconds / 3_600;
    match (hours, offset_seconds % 3_600) {
        (0, 0) => "GMT".to_string(),
        (_, 0) => format!("GMT {hours:+}"),
        (_, rest) => format!("GMT {hours:+}:{:02}", rest.abs() / 60),
    }
}

/// The text of the navbar's last entry and of `<title>` (before the forum's name).
fn page_label(page: &Page) -> String {
    let title = &page.chrome.title;
    match &page.body {
        Body::Portal(_) => page.chrome.forum_name.clone(),
        Body::Print(_) => format!("{title} - Printable Version"),
        Body::ArchiveThread(_) | Body::ArchiveBoard(_) => format!("{title} [Archive]"),
        Body::SinglePost(_) => format!("View Single Post - {title}"),
        Body::Profile(_) => format!("View Profile: {title}"),
        Body::MemberList(_) => "Members List".to_string(),
        Body::Calendar(_) => "Calendar".to_string(),
        Body::Search(_) => "Search Results".to_string(),
        Body::Login(_) => "Log in".to_string(),
        Body::NotFound => format!("{} Message", page.chrome.forum_name),
        Body::Board(_) | Body::Thread(_) => title.clone(),
    }
}

/// vBulletin's signature block, below the message and outside its element.
fn signature(post: &PostView) -> String {
    either(post.signature.as_ref(), |text| {
        format!("<div>__________________<br />\n{}</div>\n", escape(text))
    })
}

/// Escaped paragraphs separated by `<br />`, the way vBulletin turns newlines into markup.
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

    /// A user's name, linked to the profile when profiles are served.
    fn user(&self, user: &UserCard, attributes: &str) -> String {
        let name = escape(&user.name);
        match &user.profile {
            Some(route) => format!("<a href=\"{}\"{attributes}>{name}</a>", self.href(route)),
            None => name,
        }
    }

    /// The "go to last post" arrow, jumping to the post's anchor when it is a permalink.
    fn jump(&self, last: &LastPost) -> String {
        let fragment = match last.link {
            Route::Post { post } => format!("#post{post}"),
            _ => String::new(),
        };
        let href = self.href(&last.link);
        format!(
            "<a href=\"{href}{fragment}\"><img class=\"inlineimg\" src=\"images/buttons/lastpost.gif\" \
             alt=\"Go to last post\" border=\"0\" /></a>"
        )
    }

    fn page(&mut self, page: &Page) -> fmt::Result {
        self.header(page)?;
        match &page.body {
            Body::Portal(view) => self.portal(view)?,
            Body::Board(view) => self.board(view)?,
            Body::Thread(view) => self.thread(view)?,
            Body::SinglePost(view) => self.single_post(view)?,
            Body::Print(view) => self.whole_thread(view, false)?,
            Body::ArchiveThread(view) => self.whole_thread(view, true)?,
            Body::ArchiveBoard(view) => self.archive_board(view)?,
            Body::Profile(view) => self.member(view)?,
            Body::MemberList(view) => self.member_list(view)?,
            Body::Calendar(view) => self.calendar(view)?,
            Body::Search(view) => self.search(view)?,
            Body::Login(view) => self.login(view, &page.chrome)?,
            Body::NotFound => self.message_box(&page.chrome, NO_THREAD)?,
        }
        self.footer(&page.chrome)
    }

    fn header(&mut self, page: &Page) -> fmt::Result {
        let chrome = &page.chrome;
        let navigation = &chrome.navigation;
        let (forum, label) = (escape(&chrome.forum_name), escape(&page_label(page)));
        let title = match page.body {
            Body::Portal(_) => forum.clone(),
            _ => format!("{label} - {forum}"),
        };
        let charset = self.context.profile().charset.label();
        let (portal, login) = (self.href(&navigation.portal), self.href(&navigation.login));
        let advertisement = either(chrome.advertisement, |text| {
            let (size, text) = (text.len(), escape(text));
            format!(
                "<a href=\"https://ads.example.net/vb?banner={size}\" rel=\"nofollow\">{text}</a>"
            )
        });
        let mut crumbs = format!(r#"<a href="{portal}" accesskey="1">{forum}</a>"#);
        for (index, (route, name)) in chrome.breadcrumbs.iter().enumerate() {
            if index == 0 {
                crumbs.clear();
            }
            let separator = if index == 0 { "" } else { " &gt; " };
            write!(
                crumbs,
                r#"{separator}<a href="{}">{}</a>"#,
                self.href(route),
                escape(name)
            )?;
        }
        let mut menu = String::new();
        let menu_entries = [
            (&navigation.members, "Members List"),
            (&navigation.calendar, "Calendar"),
            (&navigation.search, "New Posts"),
        ];
        for (route, text) in menu_entries {
            let link = self.anchor(route.as_ref(), "", text);
            if !link.is_empty() {
                write!(menu, r#"<td class="vbmenu_control">{link}</td>"#)?;
            }
        }
        let last_visit = either(chrome.last_visit, |instant| {
            format!("<br />Last visited: {}", date(self.context, instant))
        });
        write!(
            self.html,
            r##"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="en">
<head>
<meta http-equiv="Content-Type" content="text/html; charset={charset}" />
<meta name="generator" content="vBulletin 3.8.11" />
<title>{title}</title>
</head>
<body>
<a name="top"></a>
<table border="0" width="100%" cellpadding="0" cellspacing="0" align="center"><tr>
<td align="left"><a href="{portal}"><img src="images/misc/vbulletin3_logo_white.gif" alt="{forum}" /></a></td>
<td align="right" id="header_right_cell">{advertisement}</td></tr></table>
<div align="center"><div class="page" style="width:100%; text-align:left">
<table {TBORDER}><tr><td class="alt1" width="100%">
<div class="navbar"><a href="#top" onclick="history.back(1); return false;">Go Back</a> {crumbs}</div>
<div class="navbar" style="font-size:10pt"><strong>{label}</strong></div></td>
<td class="alt2" nowrap="nowrap"><div class="smallfont"><strong>Welcome, Guest.</strong>{last_visit}</div></td>
</tr></table>
<div class="tborder" style="padding:1px; border-top-width:0px"><table cellpadding="0" cellspacing="0" border="0" width="100%"><tr align="center">
<td class="vbmenu_control"><a href="{portal}">Home</a></td>{menu}<td class="vbmenu_control"><a href="{login}">Log in</a></td>
</tr></table></div>
<br />
"##
        )
    }

    fn footer(&mut self, chrome: &Chrome) -> fmt::Result {
        let stats = &chrome.footer;
        let forum = escape(&chrome.forum_name);
        let (threads, posts) = (grouped(stats.threads), grouped(stats.posts));
        let members = grouped(stats.members);
        let newest = either(stats.newest_member.as_ref(), |member| {
            format!(
                "<br />Welcome to our newest member, {}",
                self.user(member, "")
            )
        });
        let zone = zone_label(self.context.profile().utc_offset_seconds);
        let clock = either(chrome.clock, |instant| {
            format!(
                " The time now is <span class=\"time\">{}</span>.",
                time(self.context, instant)
            )
        });
        let portal = self.href(&chrome.navigation.portal);
        write!(
            self.html,
            r##"<br />
<table {TBORDER}><tr><td class="thead">{forum} Statistics</td></tr>
<tr><td class="alt1"><div class="smallfont">Threads: {threads}, Posts: {posts}, Members: {members}{newest}</div></td></tr></table>
<br />
<div class="smallfont" align="center">All times are {zone}.{clock}</div>
</div></div>
<div class="smallfont" align="center"><a href="{portal}" accesskey="9">{forum}</a> - <a href="#top">Top</a><br />
Powered by vBulletin&reg; Version 3.8.11<br />Copyright &copy;2000 - 2025, vBulletin Solutions, Inc.</div>
</body>
</html>
"##
        )
    }

    /// A standard vBulletin message box ("Forum Message" over a panel).
    fn message_box(&mut self, chrome: &Chrome, message: &str) -> fmt::Result {
        let forum = escape(&chrome.forum_name);
        write!(
            self.html,
            r#"<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="70%" align="center">
<tr><td class="tcat">{forum} Message</td></tr>
<tr><td class="panelsurround" align="center"><div class="panel"><div align="left">
<div style="margin: 10px">{message}</div>
</div></div></td></tr>
</table>
<br />
"#
        )
    }

    /// The "Page 2 of 5" navigator: "« First", "<", numbers, ">", "Last »".
    fn pagenav(&mut self, pager: &Pager) -> fmt::Result {
        if pager.total <= 1 {
            return Ok(());
        }
        let (pages, count) = (&pager.pages, pager.pages.len());
        // vBulletin names the first and last pages "First" and "Last" when they stand apart from
        // the numbers around the current page.
        let first_apart = count > 1 && pages[1].0 > pages[0].0 + 1;
        let last_apart = count > 1 && pages[count - 1].0 > pages[count - 2].0 + 1;
        let cell = |address: &Address, attributes: &str, text: &str| {
            let href = self.href_address(address);
            format!(
                r#"<td class="alt1"><a class="smallfont" href="{href}"{attributes}>{text}</a></td>"#
            )
        };
        let mut cells = String::new();
        if first_apart {
            cells += &cell(&pages[0].1, "", "<strong>&laquo;</strong> First");
        }
        if let Some(previous) = &pager.previous {
            cells += &cell(previous, r#" rel="prev""#, "&lt;");
        }
        for (number, address) in &pages[usize::from(first_apart)..count - usize::from(last_apart)] {
            cells += &match *number == pager.current {
                true => format!(
                    r#"<td class="alt2"><span class="smallfont"><strong>{number}</strong></span></td>"#
                ),
                false => cell(address, "", &number.to_string()),
            };
        }
        if let Some(next) = &pager.next {
            cells += &cell(next, r#" rel="next""#, "&gt;");
        }
        if last_apart {
            cells += &cell(&pages[count - 1].1, "", "Last <strong>&raquo;</strong>");
        }
        let (current, total) = (pager.current, pager.total);
        write!(
            self.html,
            r#"<div class="pagenav" align="right"><table class="tborder" cellpadding="3" cellspacing="1" border="0"><tr>
<td class="vbmenu_control" style="font-weight:normal">Page {current} of {total}</td>{cells}
</tr></table></div>
"#
        )
    }

    /// The row above and below lists: a button on the left, the page navigator on the right.
    fn controls(&mut self, button: &str, pager: &Pager) -> fmt::Result {
        write!(
            self.html,
            "<table cellpadding=\"0\" cellspacing=\"0\" border=\"0\" width=\"100%\"><tr valign=\"bottom\">\
             \n<td class=\"smallfont\">{button}</td>\n<td align=\"right\">"
        )?;
        self.pagenav(pager)?;
        self.html.push_str("</td>\n</tr></table>\n");
        Ok(())
    }

    /// The "Latest Threads" box some boards add above their forum lists.
    fn latest(&mut self, latest: &[ThreadSummary]) -> fmt::Result {
        if latest.is_empty() {
            return Ok(());
        }
        writeln!(
            self.html,
            "<table {TBORDER}><tr><td class=\"tcat\" colspan=\"2\">Latest Threads</td></tr>"
        )?;
        for summary in latest {
            let (href, title) = (self.href(&summary.link), escape(&summary.title));
            let when = list_date(self.context, summary.last_post.created);
            let jump = self.jump(&summary.last_post);
            writeln!(
                self.html,
                "<tr><td class=\"alt1\" width=\"100%\"><a href=\"{href}\">{title}</a></td>\
                 <td class=\"alt2\"><span class=\"smallfont\">{when} {jump}</span></td></tr>"
            )?;
        }
        self.html.push_str("</table>\n<br />\n");
        Ok(())
    }

    fn portal(&mut self, view: &PortalView) -> fmt::Result {
        self.latest(&view.latest)?;
        write!(
            self.html,
            r#"<table {TBORDER}>
<thead><tr align="center"><td class="thead">&nbsp;</td><td class="thead" width="100%" align="left">Forum</td>
<td class="thead" width="175">Last Post</td><td class="thead">Threads</td><td class="thead">Posts</td></tr></thead>
"#
        )?;
        for (index, category) in view.categories.iter().enumerate() {
            let (name, number) = (escape(&category.name), index + 1);
            write!(
                self.html,
                "<tbody><tr><td class=\"tcat\" colspan=\"5\">{name}</td></tr></tbody>\n\
                 <tbody id=\"collapseobj_forumbit_{number}\">\n"
            )?;
            for board in &category.boards {
                let (id, href, name) = (board.board, self.href(&board.link), escape(&board.name));
                let last = either(board.last_post.as_ref(), |last| self.last_post_cell(last));
                let (threads, posts) = (grouped(board.threads), grouped(board.posts));
                write!(
                    self.html,
                    r#"<tr align="center"><td class="alt1Active" colspan="2" id="f{id}" align="left">
<img src="images/statusicon/forum_old.gif" alt="" border="0" id="forum_statusicon_{id}" /> <a href="{href}"><strong>{name}</strong></a></td>
<td class="alt2" nowrap="nowrap"><div class="smallfont" align="left">{last}</div></td>
<td class="alt1">{threads}</td><td class="alt2">{posts}</td></tr>
"#
                )?;
            }
            self.html.push_str("</tbody>\n");
        }
        self.html.push_str("</table>\n");
        Ok(())
    }

    fn last_post_cell(&self, last: &LastPost) -> String {
        let mut short: String = last.thread_title.chars().take(SHORT_TITLE).collect();
        if short.len() < last.thread_title.len() {
            short.push_str("...");
        }
        let (title, short) = (escape(&last.thread_title), escape(&short));
        let thread = self.href(&thread_route(last.thread));
        let poster = self.user(&last.author, "");
        let when = list_date(self.context, last.created);
        let jump = self.jump(last);
        format!(
            "<div style=\"clear:both\"><a href=\"{thread}\" title=\"Go to first unread post in \
             thread '{title}'\"><strong>{short}</strong></a></div>\n<div>by {poster}</div>\n\
             <div align=\"right\">{when} {jump}</div>"
        )
    }

    /// One row of a thread list, vBulletin's `threadbit`.
    fn threadbit(&mut self, summary: &ThreadSummary) -> fmt::Result {
        let id = summary.thread;
        let icon = ["thread", "thread_hot"][usize::from(summary.replies >= 15)];
        let sticky = if summary.sticky { STICKY } else { "" };
        let (href, title) = (self.href(&summary.link), escape(&summary.title));
        let mut pages = String::new();
        let mut previous = 1;
        for (number, route) in &summary.page_links {
            let href = self.href(route);
            match *number > previous + 1 {
                true => write!(pages, r#" ... <a href="{href}">Last Page</a>"#)?,
                false => write!(pages, r#" <a href="{href}">{number}</a>"#)?,
            }
            previous = *number;
        }
        if !pages.is_empty() {
            pages = format!(
                " <span class=\"smallfont\" style=\"white-space:nowrap\">(<img class=\"inlineimg\" \
                 src=\"images/misc/multipage.gif\" alt=\"Multi-page thread\" border=\"0\" />{pages})</span>"
            );
        }
        let starter = self.user(&summary.author, "");
        let when = list_date(self.context, summary.last_post.created);
        let poster = self.user(&summary.last_post.author, "");
        let jump = self.jump(&summary.last_post);
        let (replies, views) = (grouped(summary.replies), grouped(summary.views));
        write!(
            self.html,
            r#"<tr><td class="alt1" id="td_threadstatusicon_{id}"><img src="images/statusicon/{icon}.gif" id="thread_statusicon_{id}" alt="" /></td>
<td class="alt2">&nbsp;</td>
<td class="alt1" id="td_threadtitle_{id}"><div>{sticky}<a href="{href}" id="thread_title_{id}">{title}</a>{pages}</div>
<div class="smallfont">{starter}</div></td>
<td class="alt2" title="Replies: {replies}, Views: {views}"><div class="smallfont" style="text-align:right; white-space:nowrap">
{when}<br />by {poster} {jump}</div></td>
<td class="alt1" align="center">{replies}</td><td class="alt2" align="center">{views}</td></tr>
"#
        )
    }

    /// A thread-list column header: a link to another order, or the name of the order shown.
    fn sort_header(&self, view: &BoardView, order: SortOrder, text: &str) -> String {
        let link = view.sort_links.iter().find(|(sort, _)| *sort == order);
        let Some((_, address)) = link else {
            return text.to_string();
        };
        let href = self.href_address(address);
        format!(r#"<a href="{href}" rel="nofollow">{text}</a>"#)
    }

    fn board(&mut self, view: &BoardView) -> fmt::Result {
        self.latest(&view.latest)?;
        let button =
            r#"<img src="images/buttons/newthread.gif" alt="Post New Thread" border="0" />"#;
        let new_thread = self.anchor(view.new_thread.as_ref(), r#" rel="nofollow""#, button);
        self.controls(&new_thread, &view.pager)?;
        let (id, name) = (view.board, escape(&view.name));
        let archive = self.anchor(view.archive.as_ref(), "", "Archive");
        let title = self.sort_header(view, SortOrder::Title, "Thread");
        let starter = self.sort_header(view, SortOrder::Author, "Thread Starter");
        let last_post = self.sort_header(view, SortOrder::LastPost, "Last Post");
        let replies = self.sort_header(view, SortOrder::Replies, "Replies");
        write!(
            self.html,
            r#"<table {TBORDER}><tr><td class="tcat" width="100%">Threads in Forum<span class="normal"> : {name}</span></td>
<td class="vbmenu_control" nowrap="nowrap">{archive}</td></tr></table>
<table {TBORDER} id="threadslist">
<tbody><tr><td class="thead" colspan="2">&nbsp;</td><td class="thead" width="100%">{title} / {starter}</td>
<td class="thead" width="150" align="center" nowrap="nowrap">{last_post}</td>
<td class="thead" align="center" nowrap="nowrap">{replies}</td><td class="thead" align="center">Views</td></tr></tbody>
<tbody id="threadbits_forum_{id}">
"#
        )?;
        for summary in &view.stickies {
            self.threadbit(summary)?;
        }
        if !view.stickies.is_empty() {
            self.html
                .push_str("<tr><td class=\"thead\" colspan=\"6\">Normal Threads</td></tr>\n");
        }
        for summary in &view.threads {
            self.threadbit(summary)?;
        }
        self.html.push_str("</tbody>\n</table>\n");
        let mut options = String::new();
        for (sort, address) in &view.sort_links {
            let text = match sort {
                SortOrder::LastPost => "Last Post Time",
                SortOrder::Title => "Thread Title",
                SortOrder::Author => "Thread Starter",
                SortOrder::Replies => "Number of Replies",
                SortOrder::Created => "Thread Start Time",
            };
            let href = self.href_address(address);
            write!(options, r#" <a href="{href}" rel="nofollow">{text}</a>"#)?;
        }
        if !options.is_empty() {
            write!(
                self.html,
                "<table {TBORDER}><tr><td class=\"thead\">Display Options</td></tr>\n<tr><td \
                 class=\"alt1\"><div class=\"smallfont\">Sort Threads By:{options}</div></td></tr></table>\n"
            )?;
        }
        self.controls("", &view.pager)
    }

    /// One post in vBulletin's `postbit` table.
    fn postbit(&mut self, post: &PostView, title: &str) -> fmt::Result {
        let (id, number) = (post.post, post.number);
        let when = date(self.context, post.created);
        let count = match &post.permalink {
            Some(route) => format!(
                r#"<a href="{}" target="new" rel="nofollow" id="postcount{id}" name="{number}"><strong>{number}</strong></a>"#,
                self.href(route)
            ),
            None => format!("<strong>{number}</strong>"),
        };
        let name = escape(&post.author.name);
        let username = self.user(&post.author, r#" class="bigusername""#);
        let rank = user_title(post.author.posts);
        let joined = either(post.author.joined, |instant| {
            join_date(self.context, instant)
        });
        let posts = grouped(post.author.posts);
        let heading = either((number == 1).then(|| escape(title)), |title| {
            format!("<div class=\"smallfont\"><strong>{title}</strong></div><hr />\n")
        });
        let (message, signature) = (paragraphs(post), signature(post));
        let quote_button =
            r#"<img src="images/buttons/quote.gif" alt="Reply With Quote" border="0" />"#;
        let quote = self.anchor(post.quote.as_ref(), r#" rel="nofollow""#, quote_button);
        let pm_button = r#"<img src="images/buttons/sendpm.gif" alt="Send PM" border="0" />"#;
        let private_message = self.anchor(post.message.as_ref(), r#" rel="nofollow""#, pm_button);
        write!(
            self.html,
            r#"<div id="edit{id}" style="padding:0px 0px 6px 0px">
<table id="post{id}" class="tborder" cellpadding="6" cellspacing="0" border="0" width="100%" align="center">
<tr><td class="thead"><a name="post{id}"><img class="inlineimg" src="images/statusicon/post_old.gif" alt="Old" border="0" /></a> {when}</td>
<td class="thead" align="right">&nbsp;#{count}</td></tr>
<tr valign="top"><td class="alt2" width="175"><div id="postmenu_{id}">{username}</div><div class="smallfont">{rank}</div>
<div class="smallfont">&nbsp;<br />{joined}<div>Posts: {posts}</div></div></td>
<td class="alt1" id="td_post_{id}">{heading}<div id="post_message_{id}">{message}</div>
{signature}</td></tr>
<tr><td class="alt2"><img class="inlineimg" src="images/statusicon/user_offline.gif" alt="{name} is offline" border="0" /></td>
<td class="alt1" align="right">{private_message} {quote}</td></tr>
</table>
</div>
"#
        )
    }

    fn thread(&mut self, view: &ThreadView) -> fmt::Result {
        let button = r#"<img src="images/buttons/reply.gif" alt="Reply" border="0" />"#;
        let reply = self.anchor(view.reply.as_ref(), r#" rel="nofollow""#, button);
        self.html
            .push_str("<a name=\"poststop\" id=\"poststop\"></a>\n");
        self.controls(&reply, &view.pager)?;
        let print = self.anchor(
            view.print.as_ref(),
            r#" rel="nofollow""#,
            "Show Printable Version",
        );
        let archive = self.anchor(view.archive.as_ref(), "", "Archive");
        write!(
            self.html,
            r#"<table {TBORDER}><tr><td class="tcat" width="100%">&nbsp;</td>
<td class="vbmenu_control" id="threadtools" nowrap="nowrap">{print}</td>
<td class="vbmenu_control" nowrap="nowrap">{archive}</td></tr></table>
<div id="posts">
"#
        )?;
        for post in &view.posts {
            self.postbit(post, &view.title)?;
        }
        self.html.push_str("<div id=\"lastpost\"></div></div>\n");
        self.controls(&reply, &view.pager)?;
        let nofollow = r#" rel="nofollow""#;
        let previous = self.anchor(view.previous_thread.as_ref(), nofollow, "Previous Thread");
        let next = self.anchor(view.next_thread.as_ref(), nofollow, "Next Thread");
        let both = !previous.is_empty() && !next.is_empty();
        let separator = if both { " | " } else { "" };
        let board = self.href(&board_route(view.board.0));
        let board_name = escape(&view.board.1);
        write!(
            self.html,
            r#"<br />
<div class="smallfont" align="center"><strong>&laquo;</strong> {previous}{separator}{next} <strong>&raquo;</strong></div>
<br />
<div class="smallfont" align="left">&laquo; <a href="{board}">{board_name}</a></div>
"#
        )
    }

    fn single_post(&mut self, view: &SinglePostView) -> fmt::Result {
        let href = self.href(&view.in_thread);
        let (id, title) = (view.post.post, escape(&view.thread.1));
        write!(
            self.html,
            "<table {TBORDER}><tr><td class=\"tcat\">View Single Post: <a href=\"{href}#post{id}\">\
             {title}</a></td></tr></table>\n<br />\n"
        )?;
        self.postbit(&view.post, &view.thread.1)
    }

    /// The printable view (`printthread.php`) or the archive's plain list of posts.
    fn whole_thread(&mut self, view: &WholeThreadView, archive: bool) -> fmt::Result {
        let (href, title, count) = (
            self.href(&view.original),
            escape(&view.title),
            view.posts.len(),
        );
        match archive {
            true => write!(
                self.html,
                "<div class=\"pagebody\">\n<div class=\"pda\"><a href=\"{href}\" rel=\"nofollow\">\
                 View Full Version : {title}</a></div>\n<hr />\n"
            )?,
            false => write!(
                self.html,
                "<table {TBORDER}><tr><td class=\"page\"><div class=\"largefont\"><a href=\"{href}\" \
                 accesskey=\"3\"><strong>{title}</strong></a></div>\n<div class=\"smallfont\"><a \
                 href=\"{href}\">Show {count} post(s) from this thread on one page</a></div>\
                 </td></tr></table>\n<br />\n"
            )?,
        }
        for post in &view.posts {
            let (author, when, id) = (
                self.user(&post.author, ""),
                date(self.context, post.created),
                post.post,
            );
            let (message, signature) = (paragraphs(post), signature(post));
            let nofollow = r#" rel="nofollow""#;
            let links = [
                self.anchor(post.permalink.as_ref(), nofollow, "Permalink"),
                self.anchor(post.quote.as_ref(), nofollow, "Quote"),
                self.anchor(post.message.as_ref(), nofollow, "Private Message"),
            ];
            let links: Vec<String> = links.into_iter().filter(|link| !link.is_empty()).collect();
            let links = links.join(" | ");
            match archive {
                true => write!(
                    self.html,
                    "<div class=\"post\"><div class=\"posttop\"><div class=\"username\">{author}</div>\
                     <div class=\"date\">{when}</div></div>\n<div class=\"posttext\">{message}</div>\n\
                     {signature}<div class=\"smallfont\">{links}</div></div><hr />\n"
                )?,
                false => write!(
                    self.html,
                    "<table {TBORDER}><tr><td class=\"page\"><div class=\"smallfont\" \
                     style=\"float:right\">{when}</div><div class=\"smallfont\"><strong>{author}\
                     </strong></div><hr />\n<div id=\"post_message_{id}\">{message}</div>\n\
                     {signature}<div class=\"smallfont\" align=\"right\">{links}</div></td></tr>\
                     </table>\n<br />\n"
                )?,
            }
        }
        if archive {
            self.html.push_str("</div>\n");
        }
        Ok(())
    }

    fn archive_board(&mut self, view: &ArchiveBoardView) -> fmt::Result {
        let board = self.href(&board_route(view.board));
        let name = escape(&view.name);
        write!(
            self.html,
            "<div class=\"pagebody\">\n<div class=\"pda\"><a href=\"{board}\" rel=\"nofollow\">\
             View Full Version : {name}</a></div>\n<hr />\n<div id=\"content\">\n<ol>\n"
        )?;
        for (route, title) in &view.threads {
            let (href, title) = (self.href(route), escape(title));
            writeln!(self.html, "<li><a href=\"{href}\">{title}</a></li>")?;
        }
        self.html.push_str("</ol>\n</div>\n</div>\n");
        Ok(())
    }

    fn member(&mut self, view: &ProfileView) -> fmt::Result {
        let (name, rank) = (escape(&view.user.name), user_title(view.user.posts));
        let message = self.anchor(view.message.as_ref(), "", "Send Private Message");
        let posts = grouped(view.user.posts);
        let last_activity = either(view.last_visit, |instant| {
            let when = list_date(self.context, instant);
            format!("<li><span class=\"shade\">Last Activity:</span> {when}</li>")
        });
        let joined = day(self.context, view.joined);
        let mut recent = String::new();
        for (route, title) in &view.recent_threads {
            let (href, title) = (self.href(route), escape(title));
            writeln!(recent, "<li><a href=\"{href}\">{title}</a></li>")?;
        }
        write!(
            self.html,
            r#"<div id="main_userinfo"><h1 id="username_box">{name}</h1><h2>{rank}</h2>
<div id="link_bar" class="tborder"><ul class="thead block_row"><li class="thead">{message}</li></ul></div></div>
<div class="tborder content_block" id="stats"><h4 class="thead block_title">Statistics</h4><div class="block_content">
<ul><li><span class="shade">Total Posts:</span> {posts}</li>{last_activity}
<li><span class="shade">Join Date:</span> {joined}</li></ul></div></div>
<div class="tborder content_block" id="recent_threads"><h4 class="thead block_title">Recent Threads</h4>
<ul class="block_content">
{recent}</ul></div>
"#
        )
    }

    fn member_list(&mut self, view: &MemberListView) -> fmt::Result {
        self.controls("", &view.pager)?;
        write!(
            self.html,
            r#"<table {TBORDER} id="memberlist_table"><tr><td class="tcat" colspan="3">Members List</td></tr>
<tr align="center"><td class="thead" align="left">User Name</td><td class="thead">Join Date</td><td class="thead">Posts</td></tr>
"#
        )?;
        for member in &view.members {
            let (id, name, rank) = (member.user, self.user(member, ""), user_title(member.posts));
            let joined = either(member.joined, |joined| day(self.context, joined));
            let posts = grouped(member.posts);
            writeln!(
                self.html,
                "<tr align=\"center\"><td class=\"alt1Active\" align=\"left\" id=\"u{id}\">{name}<div \
                 class=\"smallfont\">{rank}</div></td><td class=\"alt2\">{joined}</td><td \
                 class=\"alt1\">{posts}</td></tr>"
            )?;
        }
        self.html.push_str("</table>\n");
        self.controls("", &view.pager)
    }

    fn calendar(&mut self, view: &CalendarView) -> fmt::Result {
        let month_name = |month: u32| dates::ENGLISH_MONTHS[(month as usize).clamp(1, 12) - 1];
        let neighbour = |route: &Route| match *route {
            Route::Calendar { month, .. } => month_name(month),
            _ => "",
        };
        let this_month = month_name(view.month);
        let (previous, previous_name) = (self.href(&view.previous), neighbour(&view.previous));
        let (next, next_name) = (self.href(&view.next), neighbour(&view.next));
        let year = view.year;
        write!(
            self.html,
            r#"<table {TBORDER}><tr><td class="tcat" colspan="2"><span style="float:right"><a href="{next}">{next_name} &raquo;</a></span>
<a href="{previous}">&laquo; {previous_name}</a> &nbsp; {this_month} {year}</td></tr>
<tr><td class="thead">Day</td><td class="thead">Events</td></tr>
"#
        )?;
        for (day_of_month, route, title) in &view.events {
            let (href, title) = (self.href(route), escape(title));
            writeln!(
                self.html,
                "<tr><td class=\"alt1\">{day_of_month}</td><td class=\"alt2\"><a href=\"{href}\">\
                 {title}</a></td></tr>"
            )?;
        }
        self.html.push_str("</table>\n");
        Ok(())
    }

    fn search(&mut self, view: &SearchView) -> fmt::Result {
        let previous = either(view.previous.as_ref(), |route| {
            let href = self.href(route);
            format!(
                r#"<td class="alt1"><a rel="prev" class="smallfont" href="{href}">&lt;</a></td>"#
            )
        });
        let (page, next) = (view.page, self.href(&view.next));
        write!(
            self.html,
            r#"<div class="pagenav" align="right"><table class="tborder" cellpadding="3" cellspacing="1" border="0"><tr>
<td class="vbmenu_control" style="font-weight:normal">Page {page}</td>{previous}
<td class="alt2"><span class="smallfont"><strong>{page}</strong></span></td>
<td class="alt1"><a rel="next" class="smallfont" href="{next}">&gt;</a></td></tr></table></div>
<table {TBORDER} id="threadslist"><tr><td class="tcat" colspan="6">Search Results</td></tr>
<tr><td class="thead" colspan="2">&nbsp;</td><td class="thead" width="100%">Thread / Thread Starter</td>
<td class="thead" width="150" align="center">Last Post</td><td class="thead" align="center">Replies</td><td class="thead" align="center">Views</td></tr>
"#
        )?;
        for summary in &view.results {
            self.threadbit(summary)?;
        }
        self.html.push_str("</table>\n");
        Ok(())
    }

    fn login(&mut self, view: &LoginView, chrome: &Chrome) -> fmt::Result {
        if view.reason == LoginReason::MembersOnly {
            let reasons = format!(
                "{NO_PERMISSION} This could be due to one of several reasons:\n<ol>\n<li>You are \
                 not logged in. Fill in the form at the bottom of this page and try again.</li>\n\
                 <li>You may not have sufficient privileges to access this page.</li>\n<li>If you \
                 are trying to post, the administrator may have disabled your account, or it may \
                 be awaiting activation.</li>\n</ol>"
            );
            self.message_box(chrome, &reasons)?;
        }
        let action = self.href(&view.form_action);
        write!(
            self.html,
            r#"<form action="{action}" method="post">
<table class="tborder" cellpadding="6" cellspacing="1" border="0" width="70%" align="center">
<tr><td class="tcat">Log in</td></tr>
<tr><td class="panelsurround" align="center"><div class="panel"><fieldset class="fieldset"><legend>Log in</legend>
User Name:<br /><input type="text" class="bginput" name="vb_login_username" size="50" /><br />
Password:<br /><input type="password" class="bginput" name="vb_login_password" size="50" />
</fieldset></div>
<input type="submit" class="button" value="Log in" accesskey="s" /></td></tr>
</table>
</form>
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
        SITE.get_or_init(|| Site::build(SiteConfig::new(FamilyName::Vbulletin, 7, Scale::Small)))
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

    fn sorted(sort: SortOrder) -> Variant {
        Variant {
            sort,
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
        let next = Some("/showthread.php?t=5".to_string());
        cases! {
            "/index.php" => Some(Route::Portal);
            "/" => Some(Route::Portal);
            "/forumdisplay.php?f=3" => board(3, 1);
            "/forumdisplay.php?f=3&page=2" => board(3, 2);
            "/showthread.php?t=123" => thread(123, 1);
            "/showthread.php?t=123&page=4" => thread(123, 4);
            "/showpost.php?p=456&postcount=7" => Some(Route::Post { post: 456 });
            "/showpost.php?p=456" => Some(Route::Post { post: 456 });
            "/printthread.php?t=12" => Some(Route::Print { thread: 12 });
            "/archive/index.php/f-3.html" => Some(Route::ArchiveBoard { board: 3 });
            "/archive/index.php/t-123.html" => Some(Route::ArchiveThread { thread: 123 });
            "/showthread.php?t=9&goto=nextnewest" => Some(Route::AdjacentThread { thread: 9, newer: true });
            "/showthread.php?t=9&goto=nextoldest" => Some(Route::AdjacentThread { thread: 9, newer: false });
            "/member.php?u=5" => Some(Route::Profile { user: 5 });
            "/memberlist.php" => Some(Route::MemberList { page: 1 });
            "/memberlist.php?page=3" => Some(Route::MemberList { page: 3 });
            "/calendar.php?month=3&year=2025" => Some(Route::Calendar { year: 2025, month: 3 });
            "/search.php?do=getnew" => Some(Route::Search { page: 1 });
            "/search.php?do=getnew&page=7" => Some(Route::Search { page: 7 });
            "/login.php" => Some(Route::Login { next: None });
            "/login.php?url=%2Fshowthread.php%3Ft%3D5" => Some(Route::Login { next: next.clone() });
            "/newreply.php?do=newreply&t=12" => act(ActionKind::Reply, 12);
            "/newreply.php?do=newreply&p=456" => act(ActionKind::Quote, 456);
            "/newthread.php?do=newthread&f=3" => act(ActionKind::NewThread, 3);
            "/private.php?do=newpm&u=5" => act(ActionKind::Message, 5);
            // Real engines ignore parameters they do not know.
            "/showthread.php?t=5&highlight=brake" => thread(5, 1);
            "/forumdisplay.php?f=2&daysprune=-1" => board(2, 1);
            "/member.php?u=4&tab=stats" => Some(Route::Profile { user: 4 });
        }
    }

    #[test]
    fn variants_decode() {
        let hex = session_hex(0x0123_4567_89ab_cdef);
        cases! {
            "/forumdisplay.php?f=3&page=1" => board(3, 1), explicit();
            "/showthread.php?t=8&page=1" => thread(8, 1), explicit();
            "/memberlist.php?page=1" => Some(Route::MemberList { page: 1 }), explicit();
            "/forumdisplay.php?f=3&sort=title&order=asc" => board(3, 1), sorted(SortOrder::Title);
            "/forumdisplay.php?f=3&sort=postusername&order=asc" => board(3, 1), sorted(SortOrder::Author);
            "/forumdisplay.php?f=3&sort=replycount&order=desc" => board(3, 1), sorted(SortOrder::Replies);
            "/forumdisplay.php?f=3&sort=dateline&order=desc&page=2" => board(3, 2), sorted(SortOrder::Created);
            &format!("/showthread.php?s={hex}&t=5") => thread(5, 1), session(0x0123_4567_89ab_cdef);
            &format!("/index.php?s={hex}") => Some(Route::Portal), session(0x0123_4567_89ab_cdef);
            "/index.php?s=" => Some(Route::Portal);
        }
    }

    #[test]
    fn junk_urls_are_not_pages() {
        cases! {
            "/showthread.php" => None; "/showthread.php?t=abc" => None;
            "/showthread.php?t=5&page=0" => None; "/showthread.php?t=5&page=x" => None;
            "/showthread.php?t=5&goto=newpost" => None;
            "/forumdisplay.php?f=3&sort=title" => None;
            "/forumdisplay.php?f=3&sort=views&order=desc" => None;
            "/forumdisplay.php?f=3&sort=title&order=desc" => None; "/showpost.php" => None;
            "/archive/index.php/t-.html" => None; "/archive/index.php/t-12-p-2.html" => None;
            "/archive/index.php/t-+12.html" => None; "/archive/index.php/x-3.html" => None;
            "/archive/index.php" => None; "/search.php?do=finduser&u=3" => None;
            "/newreply.php?do=newreply" => None; "/newreply.php?t=5" => None;
            "/private.php?do=showpm&pmid=5" => None; "/calendar.php?month=3" => None;
            "/viewtopic.php?t=5" => None; "/register.php" => None;
        }
    }

    #[test]
    fn every_enumerated_address_round_trips_with_sessions_first() {
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
        let next = Some("/showthread.php?t=5&page=2".to_string());
        let login = Address::canonical(Route::Login { next });
        let url = site.url_of(&login);
        assert_eq!(url, "/login.php?url=/showthread.php%3Ft%3D5%26page%3D2");
        assert_eq!(site.address_of(&url), Some(login));
        let address = Address {
            route: Route::Thread { thread: 4, page: 2 },
            variant: session(1),
        };
        let expected = format!("/showthread.php?s={}&t=4&page=2", session_hex(1));
        assert_eq!(site.url_of(&address), expected);
    }

    #[test]
    fn numbers_and_zones_look_like_vbulletin() {
        let numbers = [
            (0, "0"),
            (999, "999"),
            (1_234, "1,234"),
            (1_234_567, "1,234,567"),
        ];
        for (number, text) in numbers {
            assert_eq!(grouped(number), text);
        }
        assert_eq!(zone_label(-5 * 3_600), "GMT -5");
        assert_eq!(zone_label(0), "GMT");
        assert_eq!(zone_label(5 * 3_600 + 1_800), "GMT +5:30");
    }

    fn serve(url: &str) -> (u16, String) {
        let response = site().serve(url, crate::HISTORY_END_SECONDS, None);
        let (page, _, malformed) = encoding_rs::WINDOWS_1252.decode(&response.body);
        assert!(!malformed, "{url}");
        (response.status, page.into_owned())
    }

    #[test]
    fn thread_page_renders_posts_in_vbulletin_markup() {
        let history = site().history();
        let at = crate::HISTORY_END_SECONDS;
        let id = (1..=history.thread_count())
            .find(|&id| history.thread_posts_at(id, at).len() > 10)
            .expect("a thread with two pages");
        let (status, page) = serve(&format!("/showthread.php?t={id}"));
        assert_eq!(status, 200);
        let first = history.thread_posts(id)[0];
        let paragraphs = crate::text::post_paragraphs(7, history.language, first);
        let escaped: Vec<String> = paragraphs.iter().map(|text| escape(text)).collect();
        let body = format!(
            "<div id=\"post_message_{first}\">{}</div>",
            escaped.join("<br />\n")
        );
        assert!(page.contains(&body));
        contains! { page;
            &format!("<table id=\"post{first}\" class=\"tborder\""),
            &format!("id=\"postcount{first}\" name=\"1\"><strong>1</strong>"),
            "charset=windows-1252", "class=\"bigusername\"", "<td class=\"thead\"",
            "Join Date: ", "Posts: ", "Page 1 of ", "&amp;page=2\">2</a>", "goto=next",
            "Welcome, Guest.", "Last visited: ", "All times are GMT -5. The time now is ",
            "Show Printable Version", "/archive/index.php/t-", "newreply.php?s=",
        }
    }

    #[test]
    fn boards_walls_and_soft_errors_render() {
        let (status, page) = serve("/forumdisplay.php?f=1");
        assert_eq!(status, 200);
        contains! { page;
            "id=\"threadslist\"", "<td class=\"alt1\" id=\"td_threadtitle_",
            "id=\"thread_title_", "Thread Start Time", "by <a href=\"/member.php?s=",
            "Go to last post",
        }
        let (status, missing) = serve("/showthread.php?t=999999");
        assert!(status == 200 && missing.contains(NO_THREAD));
        let (status, wall) = serve("/newreply.php?do=newreply&t=1");
        assert!(status == 200 && wall.contains(NO_PERMISSION));
        assert!(
            serve("/showpost.php?p=1")
                .1
                .contains("<div id=\"post_message_1\">")
        );
    }
}
