//! Discourse-like, as its server-rendered crawler view (what a client without JavaScript gets):
//! Rails routes with the title slug before the id (`/t/how-to-fix-it/123`, `/c/hardware/3`),
//! thread pages as one-based `?page=2` but category pages as ZERO-based `?page=1` for page 2,
//! post permalinks by post number (`/t/how-to-fix-it/123/4`) that serve the thread page holding
//! the post, users by name (`/u/Karomi12`), login walls that redirect to `/login?next=...`, and the
//! schema.org-annotated crawler markup (`topic-list`, `crawler-post`, `SiteNavigationElement`).
//!
//! Dates are absolute in the forum's time zone (UTC-8), the visible text like
//! "March 30, 2025, 10:11pm" inside `<time datetime="2025-03-30T22:11:05-08:00">`. The raw view of
//! a thread (`/raw/123`, served here as HTML) prints each post's header the way Discourse's raw
//! export does, "name | 2025-03-31 06:11:05 UTC | #1", in UTC with a `datetime` attribute too.
//!
//! Slugs are decoration: a missing or wrong slug, a lower-case user name or a trailing slash
//! decodes as an alias, which Discourse serves as it is rather than redirecting.

use std::cell::RefCell;
use std::fmt::Write;

use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::dates::{self, ENGLISH_MONTHS};
use crate::history::ForumHistory;
use crate::html::{escape, parse_query, percent_encode, query_value, split_path_and_query};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::{self, Language, slugify};
use crate::views::*;

/// Appends formatted markup to a page (writing to a `String` cannot fail).
macro_rules! put {
    ($html:expr, $($format:tt)*) => {{
        let _ = write!($html, $($format)*);
    }};
}

#[derive(Debug)]
pub(crate) struct Discourse {
    profile: FamilyProfile,
}

impl Discourse {
    pub(crate) fn new() -> Self {
        Discourse {
            profile: FamilyProfile {
                name: "discourse",
                description: "Discourse crawler view: /t/slug/123?page=2, /c/slug/3?page=1 \
                              (zero-based), post-number permalinks, redirecting login walls",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: -8 * 3_600,
                threads_per_page: 30,
                posts_per_page: 20,
                members_per_page: 50,
                login_wall: LoginWall::RedirectToLogin,
                profiles_need_login: false,
                permalink: PermalinkStyle::ShowsThreadPage,
                session_parameter: None,
                session_cookie: "_forum_session",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 404,
                aliases_redirect: false,
            },
        }
    }
}

/// Discourse's `order` key, whether the list needs `ascending=true`, and the sort pill's label.
fn sort_keys(sort: SortOrder) -> (&'static str, bool, &'static str) {
    match sort {
        SortOrder::LastPost => ("activity", false, "Activity"),
        SortOrder::Title => ("title", true, "Topic"),
        SortOrder::Author => ("posters", true, "Original poster"),
        SortOrder::Replies => ("posts", false, "Replies"),
        SortOrder::Created => ("created", false, "Created"),
    }
}

thread_local! {
    /// The thread slug this OS thread made last. A page links one thread many times (every
    /// permalink and quote link of a thread page carries its slug) and making a title is the
    /// dearest part of encoding, so remembering one slug is worth it.
    static LAST_SLUG: RefCell<(u64, Language, u32, String)> =
        const { RefCell::new((0, Language::English, 0, String::new())) };
}

fn thread_slug(history: &ForumHistory, thread: u32) -> String {
    LAST_SLUG.with(|last| {
        let mut last = last.borrow_mut();
        let key = (history.seed, history.language, thread);
        if (last.0, last.1, last.2) != key || last.3.is_empty() {
            let slug = slugify(&text::title(history.seed, history.language, thread));
            *last = (key.0, key.1, key.2, slug);
        }
        last.3.clone()
    })
}

fn board_slug(history: &ForumHistory, board: u32) -> String {
    // An unknown category still needs some slug so that its URL round-trips; it is a 404 anyway.
    history
        .board(board)
        .map_or_else(|| "category".to_string(), |record| slugify(&record.name))
}

/// `/t/slug/id`, or `/t/id` for the slug-less alias spelling.
fn thread_path(history: &ForumHistory, thread: u32, alias: bool) -> String {
    match alias {
        true => format!("/t/{thread}"),
        false => format!("/t/{}/{thread}", thread_slug(history, thread)),
    }
}

/// The thread of a post and the post's 1-based number in it, Discourse's `post_number`.
fn post_place(history: &ForumHistory, post: u32) -> Option<(u32, u32)> {
    let thread = history.post(post)?.thread;
    let index = history.thread_posts(thread).binary_search(&post).ok()?;
    Some((thread, index as u32 + 1))
}

/// `/t/slug/thread/number` for a post, or `/p/id` (Discourse's short post link) for the alias
/// spelling and for posts this forum does not have.
fn post_path(history: &ForumHistory, post: u32, alias: bool) -> String {
    match post_place(history, post).filter(|_| !alias) {
        Some((thread, number)) => format!("{}/{number}", thread_path(history, thread, false)),
        None => format!("/p/{post}"),
    }
}

/// A decimal number without sign, leading zeros or anything else, as the engine prints ids.
fn plain_number(digits: &str) -> Option<u32> {
    let canonical = !digits.is_empty()
        && digits.bytes().all(|byte| byte.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if canonical { digits.parse().ok() } else { None }
}

/// Reads `?page=`: one-based for topics and search, zero-based for category and user lists.
fn page_parameter(
    pairs: &[(String, String)],
    zero_based: bool,
    variant: &mut Variant,
) -> Option<u32> {
    let Some(text) = query_value(pairs, "page") else {
        return Some(1);
    };
    let page = plain_number(text)?
        .checked_add(u32::from(zero_based))
        .filter(|&page| page >= 1)?;
    variant.explicit_first_page = page == 1;
    Some(page)
}

/// Reads `?order=&ascending=` into the variant's sort order.
fn sort_order(pairs: &[(String, String)], variant: &mut Variant) -> Option<()> {
    let Some(order) = query_value(pairs, "order") else {
        return Some(());
    };
    let mut orders = [SortOrder::LastPost]
        .into_iter()
        .chain(SortOrder::ALTERNATIVES);
    let sort = orders.find(|&sort| sort_keys(sort).0 == order)?;
    // Without `ascending` Discourse sorts descending; the other direction of an order is a list
    // this forum does not have.
    let ascending = match query_value(pairs, "ascending") {
        None => false,
        Some("true") => true,
        Some("false") => {
            variant.alias = true;
            false
        }
        Some(_) => return None,
    };
    if ascending != sort_keys(sort).1 {
        return None;
    }
    variant.alias |= sort == SortOrder::LastPost;
    variant.sort = sort;
    Some(())
}

/// Reads `month=YYYY-MM` of calendar URLs.
fn year_month(text: &str) -> Option<(i32, u32)> {
    let (year, month) = text.split_once('-')?;
    let digits = |text: &str| text.bytes().all(|byte| byte.is_ascii_digit());
    if year.len() < 4 || month.len() != 2 || !digits(year) || !digits(month) {
        return None;
    }
    Some((year.parse().ok()?, month.parse().ok()?))
}

/// Reads a user name from `/u/{name}`: the digits it ends with are the user id, and the rest must
/// match that user's name (Discourse compares names without regard to case: an alias).
fn user_from_name(name: &str, history: &ForumHistory, variant: &mut Variant) -> Option<u32> {
    let letters = name.trim_end_matches(|character: char| character.is_ascii_digit());
    let user = plain_number(&name[letters.len()..])?;
    let expected = text::user_name(history.seed, user);
    if name != expected {
        name.eq_ignore_ascii_case(&expected).then_some(())?;
        variant.alias = true;
    }
    Some(user)
}

fn action(kind: ActionKind, target: u32) -> Route {
    Route::Action { kind, target }
}

/// What follows `/t/slug/id`: nothing (a thread page), an action, or a post number.
fn thread_route(
    thread: u32,
    tail: &[&str],
    pairs: &[(String, String)],
    history: &ForumHistory,
    variant: &mut Variant,
) -> Option<Route> {
    let numbered = |number: &str| {
        let index = plain_number(number)?.checked_sub(1)?;
        history.thread_posts(thread).get(index as usize).copied()
    };
    Some(match tail {
        [] => Route::Thread {
            thread,
            page: page_parameter(pairs, false, variant)?,
        },
        ["print"] => Route::Print { thread },
        ["reply"] => action(ActionKind::Reply, thread),
        ["next"] => Route::AdjacentThread {
            thread,
            newer: true,
        },
        ["previous"] => Route::AdjacentThread {
            thread,
            newer: false,
        },
        [number] => Route::Post {
            post: numbered(number)?,
        },
        [number, "quote"] => action(ActionKind::Quote, numbered(number)?),
        _ => return None,
    })
}

impl Family for Discourse {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let alias = variant.alias;
        let listed = |page: u32| page > 1 || variant.explicit_first_page;
        match address.route {
            Route::Portal if alias => "/categories".to_string(),
            Route::Portal => "/".to_string(),
            Route::Board { board, page } => {
                let mut url = match alias {
                    true => format!("/c/{board}"),
                    false => format!("/c/{}/{board}", board_slug(history, board)),
                };
                let (order, ascending, _) = sort_keys(variant.sort);
                if variant.sort != SortOrder::LastPost {
                    put!(
                        url,
                        "?order={order}{}",
                        if ascending { "&ascending=true" } else { "" }
                    );
                }
                // Category lists count pages from zero: page 2 is `page=1`.
                if listed(page) {
                    let separator = if url.contains('?') { '&' } else { '?' };
                    put!(url, "{separator}page={}", page - 1);
                }
                url
            }
            Route::Thread { thread, page } if listed(page) => {
                format!("{}?page={page}", thread_path(history, thread, alias))
            }
            Route::Thread { thread, .. } => thread_path(history, thread, alias),
            Route::Post { post } => post_path(history, post, alias),
            Route::Print { thread } => format!("{}/print", thread_path(history, thread, false)),
            Route::ArchiveBoard { board } => {
                format!("/c/{}/{board}/l/archive", board_slug(history, board))
            }
            Route::ArchiveThread { thread } => format!("/raw/{thread}"),
            // Discourse links neighbours directly; this spelling only exists so that every
            // address round-trips, and the server answers it as missing.
            Route::AdjacentThread { thread, newer } => {
                let direction = if newer { "next" } else { "previous" };
                format!("{}/{direction}", thread_path(history, thread, false))
            }
            Route::Profile { user } => {
                let name = text::user_name(history.seed, user);
                format!("/u/{}", if alias { name.to_lowercase() } else { name })
            }
            Route::MemberList { page } if listed(page) => format!("/u?page={}", page - 1),
            Route::MemberList { .. } => "/u".to_string(),
            Route::Calendar { year, month } => format!("/calendar?month={year:04}-{month:02}"),
            Route::Search { page } if listed(page) => format!("/search?q=in%3Anew&page={page}"),
            Route::Search { .. } => "/search?q=in%3Anew".to_string(),
            Route::Login { next: None } => "/login".to_string(),
            Route::Login {
                next: Some(ref next),
            } => format!("/login?next={}", percent_encode(next)),
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("{}/reply", thread_path(history, target, false)),
                ActionKind::NewThread => format!("/new-topic?category_id={target}"),
                ActionKind::Quote => format!("{}/quote", post_path(history, target, alias)),
                ActionKind::Message => format!("/new-message?user_id={target}"),
            },
        }
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let mut path = path.strip_prefix('/')?;
        // Rails routes ignore one trailing slash; the slashed spelling is an alias.
        if let Some(trimmed) = path.strip_suffix('/').filter(|trimmed| !trimmed.is_empty()) {
            variant.alias = true;
            path = trimmed;
        }
        let segments: Vec<&str> = path.split('/').collect();
        let route = match segments.as_slice() {
            [""] => Route::Portal,
            ["categories"] => {
                variant.alias = true;
                Route::Portal
            }
            ["c", id] => {
                variant.alias = true;
                let board = plain_number(id)?;
                let page = page_parameter(&pairs, true, &mut variant)?;
                sort_order(&pairs, &mut variant)?;
                Route::Board { board, page }
            }
            ["c", slug, id, tail @ ..] => {
                let board = plain_number(id)?;
                variant.alias |= *slug != board_slug(history, board);
                match tail {
                    ["l", "archive"] => Route::ArchiveBoard { board },
                    [] => {
                        let page = page_parameter(&pairs, true, &mut variant)?;
                        sort_order(&pairs, &mut variant)?;
                        Route::Board { board, page }
                    }
                    _ => return None,
                }
            }
            ["t", id] => {
                variant.alias = true;
                thread_route(plain_number(id)?, &[], &pairs, history, &mut variant)?
            }
            ["t", slug, id, tail @ ..] => {
                let thread = plain_number(id)?;
                variant.alias |= *slug != thread_slug(history, thread);
                thread_route(thread, tail, &pairs, history, &mut variant)?
            }
            ["p", id, tail @ ..] => {
                let post = plain_number(id)?;
                // `/p/id` redirects to the numbered permalink on Discourse; for a post this forum
                // has it is another spelling of that permalink.
                variant.alias |= post_place(history, post).is_some();
                match tail {
                    [] => Route::Post { post },
                    ["quote"] => action(ActionKind::Quote, post),
                    _ => return None,
                }
            }
            ["raw", id] => Route::ArchiveThread {
                thread: plain_number(id)?,
            },
            ["u"] => Route::MemberList {
                page: page_parameter(&pairs, true, &mut variant)?,
            },
            ["u", name] => Route::Profile {
                user: user_from_name(name, history, &mut variant)?,
            },
            ["calendar"] => {
                let (year, month) = year_month(query_value(&pairs, "month")?)?;
                Route::Calendar { year, month }
            }
            ["search"] if query_value(&pairs, "q") == Some("in:new") => Route::Search {
                page: page_parameter(&pairs, false, &mut variant)?,
            },
            ["login"] => Route::Login {
                next: query_value(&pairs, "next").map(str::to_string),
            },
            ["new-topic"] => action(
                ActionKind::NewThread,
                plain_number(query_value(&pairs, "category_id")?)?,
            ),
            ["new-message"] => action(
                ActionKind::Message,
                plain_number(query_value(&pairs, "user_id")?)?,
            ),
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        let mut html = String::with_capacity(32 * 1024);
        let chrome = &page.chrome;
        let forum = escape(&chrome.forum_name);
        let heading = escape(&chrome.title);
        let title = match &page.body {
            Body::Portal(_) => forum.clone(),
            Body::Thread(view) => format!("{heading} - {} - {forum}", escape(&view.board.1)),
            Body::NotFound => format!("Page Not Found - {forum}"),
            _ => format!("{heading} - {forum}"),
        };
        put!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>{title}</title>\n<meta name=\"generator\" content=\"Discourse 3.2.1 - \
             https://github.com/discourse/discourse version 4f2a0c1b9d\">\n\
             <meta property=\"og:site_name\" content=\"{forum}\" />\n\
             <meta property=\"og:title\" content=\"{heading}\" />\n"
        );
        // Topic and category pages name their canonical URL and their neighbours in the head.
        let (canonical, pager) = match &page.body {
            Body::Board(view) => (
                Route::Board {
                    board: view.board,
                    page: view.pager.current,
                },
                &view.pager,
            ),
            Body::Thread(view) => (
                Route::Thread {
                    thread: view.thread,
                    page: view.pager.current,
                },
                &view.pager,
            ),
            _ => (Route::Portal, &NO_PAGES),
        };
        if canonical != Route::Portal {
            let href = context.href(&canonical);
            put!(html, "<link rel=\"canonical\" href=\"{href}\" />\n");
        }
        for (relation, neighbour) in [("prev", &pager.previous), ("next", &pager.next)] {
            if let Some(address) = neighbour {
                let href = context.href_address(address.clone());
                put!(html, "<link rel=\"{relation}\" href=\"{href}\">\n");
            }
        }
        let navigation = &chrome.navigation;
        let home = context.href(&navigation.portal);
        let login = context.href(&navigation.login);
        put!(
            html,
            "</head>\n<body class=\"crawler\">\n<header>\n<a href=\"{home}\"><img id=\"site-logo\" \
             alt=\"{forum}\" style=\"max-width: 150px;\"></a>\n<a href=\"{login}\" \
             class=\"btn btn-primary login-button\">Log In</a>\n</header>\n"
        );
        if let Some(instant) = chrome.last_visit {
            let visit = time(context, instant, "", DateStyle::Long);
            put!(
                html,
                "<div class=\"crawler-last-visit\">Your last visit: {visit}</div>\n"
            );
        }
        if let Some(advertisement) = chrome.advertisement {
            let slot = advertisement.len();
            let text = escape(advertisement);
            put!(
                html,
                "<div class=\"house-creative house-topic-list-top\">\
                 <a href=\"https://ads.example.net/d?c={slot}\" rel=\"nofollow\">{text}</a></div>\n"
            );
        }
        html.push_str("<div id=\"main-outlet\" class=\"wrap\" role=\"main\">\n");
        // The portal is the header's logo link; the category badge is the breadcrumb that matters.
        let crumbs = breadcrumbs(chrome.breadcrumbs.get(1..).unwrap_or(&[]), context);
        self.body(&mut html, &page.body, &crumbs, context);
        html.push_str(
            "</div>\n<footer class=\"container wrap\">\n<nav class=\"crawler-nav\"><ul>\n",
        );
        let entries = [
            (Some(&navigation.portal), "Home"),
            (navigation.members.as_ref(), "Users"),
            (navigation.search.as_ref(), "Search"),
            (navigation.calendar.as_ref(), "Calendar"),
            (Some(&navigation.login), "Log In"),
        ];
        for (route, label) in entries {
            if let Some(href) = route.map(|route| context.href(route)) {
                put!(
                    html,
                    "<li itemscope itemtype=\"http://schema.org/SiteNavigationElement\">\
                     <span itemprop=\"name\"><a href=\"{href}\" itemprop=\"url\">{label} </a>\
                     </span></li>\n"
                );
            }
        }
        let footer = &chrome.footer;
        let (threads, posts, members) = (footer.threads, footer.posts, footer.members);
        let newest = footer
            .newest_member
            .as_ref()
            .map_or_else(String::new, |member| {
                format!("; newest member {}", user_link(member, "", context))
            });
        let clock = chrome.clock.map_or_else(String::new, |instant| {
            let now = time(context, instant, "", DateStyle::Long);
            format!("<p class=\"crawler-clock\">Current time: {now}</p>\n")
        });
        put!(
            html,
            "</ul></nav>\n<div class=\"crawler-stats\">{threads} topics, {posts} posts, \
             {members} users{newest}</div>\n{clock}<p class=\"powered-by-link\">Powered by \
             <a href=\"https://www.discourse.org\">Discourse</a>, best viewed with JavaScript \
             enabled</p>\n</footer>\n</body>\n</html>\n"
        );
        html
    }
}

/// The pager of pages that are not lists.
const NO_PAGES: Pager = Pager {
    current: 1,
    total: 1,
    pages: Vec::new(),
    previous: None,
    next: None,
};

/// How a date is spelled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DateStyle {
    /// "March 30, 2025, 10:11pm", the crawler view's post times.
    Long,
    /// "March 30, 2025", for join dates.
    DateOnly,
    /// "2025-03-31 06:11:05 UTC", the raw export's post headers.
    RawUtc,
}

/// A `<time>` element with the absolute instant in `datetime` and the text in `style`;
/// `attributes` goes into the tag as it is.
fn time(context: &RenderContext<'_>, instant: i64, attributes: &str, style: DateStyle) -> String {
    let offset = match style {
        DateStyle::RawUtc => 0,
        _ => context.profile().utc_offset_seconds,
    };
    let local = dates::local_time(instant, offset);
    let (year, month, day) = (local.year, local.month, local.day);
    let (hour, minute, second) = (local.hour, local.minute, local.second);
    let sign = if offset < 0 { '-' } else { '+' };
    let zone = offset.unsigned_abs() / 60;
    let (zone_hours, zone_minutes) = (zone / 60, zone % 60);
    let mut text = String::with_capacity(112);
    put!(
        text,
        "<time datetime=\"{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}{sign}\
         {zone_hours:02}:{zone_minutes:02}\"{attributes}>"
    );
    let name = ENGLISH_MONTHS[month as usize - 1];
    match style {
        DateStyle::Long => {
            let (hour, pm) = dates::twelve_hour(hour);
            let meridiem = if pm { "pm" } else { "am" };
            put!(
                text,
                "{name} {day}, {year}, {hour}:{minute:02}{meridiem}</time>"
            );
        }
        DateStyle::DateOnly => put!(text, "{name} {day}, {year}</time>"),
        DateStyle::RawUtc => put!(
            text,
            "{year:04}-{month:02}-{day:02} {hour:02}:{minute:02}:{second:02} UTC</time>"
        ),
    }
    text
}

/// A user's name linked to the profile (a plain name when profiles are off); `role` is the
/// "Original Poster"-style tooltip Discourse adds in topic lists.
fn user_link(user: &UserCard, role: &str, context: &RenderContext<'_>) -> String {
    let name = escape(&user.name);
    let title = match role {
        "" => String::new(),
        role => format!(" title=\"{name} - {role}\""),
    };
    match &user.profile {
        Some(route) => {
            let href = context.href(route);
            format!("<a href=\"{href}\" data-user-card=\"{name}\"{title}>{name}</a>")
        }
        None => format!("<span class=\"username\"{title}>{name}</span>"),
    }
}

/// `<a href class>label</a>` for an optional link; nothing when the link is absent. Links to
/// member-only actions carry `rel="nofollow"`, as the engine's own buttons do.
fn button(route: &Option<Route>, class: &str, label: &str, context: &RenderContext<'_>) -> String {
    let Some(route) = route else {
        return String::new();
    };
    let href = context.href(route);
    let rel = match route {
        Route::Action { .. } => " rel=\"nofollow\"",
        _ => "",
    };
    format!("<a href=\"{href}\" class=\"{class}\"{rel}>{label}</a> ")
}

fn breadcrumbs(crumbs: &[(Route, String)], context: &RenderContext<'_>) -> String {
    let mut list = String::from(
        "<div class=\"topic-category\" itemscope itemtype=\"http://schema.org/BreadcrumbList\">\n",
    );
    for (index, (route, label)) in crumbs.iter().enumerate() {
        let href = context.href(route);
        let label = escape(label);
        let position = index + 1;
        put!(
            list,
            "<span itemprop=\"itemListElement\" itemscope itemtype=\"http://schema.org/ListItem\">\
             <a href=\"{href}\" class=\"badge-wrapper bullet\" itemprop=\"item\">\
             <span class=\"badge-category clear-badge\"><span class=\"category-name\" \
             itemprop=\"name\">{label}</span></span></a>\
             <meta itemprop=\"position\" content=\"{position}\" /></span>\n"
        );
    }
    list.push_str("</div>\n");
    list
}

/// The "(2 3 4 9)" page links of a topic in a list.
fn page_links(summary: &ThreadSummary, context: &RenderContext<'_>) -> String {
    let mut links = Vec::with_capacity(summary.page_links.len());
    for (number, route) in &summary.page_links {
        links.push(format!("<a href=\"{}\">{number}</a>", context.href(route)));
    }
    match links.is_empty() {
        true => String::new(),
        false => format!(" <span class=\"page-links\">({})</span>", links.join(" ")),
    }
}

/// The crawler view's page links: previous and next, with the numbered pages between them.
fn pager(pager: &Pager, class: &str, context: &RenderContext<'_>) -> String {
    let mut nav = String::new();
    if pager.total <= 1 {
        return nav;
    }
    put!(
        nav,
        "<div role=\"navigation\" itemscope itemtype=\"http://schema.org/SiteNavigationElement\"\
         {class}>\n"
    );
    if let Some(previous) = &pager.previous {
        let href = context.href_address(previous.clone());
        put!(
            nav,
            "<span itemprop=\"name\"><b><a rel=\"prev\" itemprop=\"url\" href=\"{href}\">\
             ← previous page</a></b></span>\n"
        );
    }
    nav.push_str("<span class=\"crawler-pages\">");
    for (number, address) in &pager.pages {
        match *number == pager.current {
            true => put!(nav, " <b class=\"current\">{number}</b>"),
            false => put!(
                nav,
                " <a href=\"{}\">{number}</a>",
                context.href_address(address.clone())
            ),
        }
    }
    nav.push_str("</span>\n");
    if let Some(next) = &pager.next {
        let href = context.href_address(next.clone());
        put!(
            nav,
            "<span itemprop=\"name\"><b><a rel=\"next\" itemprop=\"url\" href=\"{href}\">\
             next page →</a></b></span>\n"
        );
    }
    nav.push_str("</div>\n");
    nav
}

impl Discourse {
    fn body(&self, html: &mut String, body: &Body, crumbs: &str, context: &RenderContext<'_>) {
        match body {
            Body::Portal(view) => self.portal(html, view, context),
            Body::Board(view) => self.board(html, view, crumbs, context),
            Body::Thread(view) => self.thread(html, view, crumbs, context),
            Body::SinglePost(view) => {
                let href = context.href(&view.in_thread);
                let title = escape(&view.thread.1);
                put!(
                    html,
                    "<div id=\"topic-title\"><h1><a href=\"{href}\">{title}</a></h1></div>\n"
                );
                self.post(html, &view.post, &href, context);
            }
            Body::Print(view) => {
                let href = context.href(&view.original);
                let title = escape(&view.title);
                put!(
                    html,
                    "<div id=\"topic-title\" class=\"print-title\"><h1><a href=\"{href}\">{title}\
                     </a></h1></div>\n{crumbs}<div itemscope \
                     itemtype=\"http://schema.org/DiscussionForumPosting\">\n"
                );
                for post in &view.posts {
                    self.post(html, post, &href, context);
                }
                html.push_str("</div>\n");
            }
            Body::ArchiveThread(view) => self.raw(html, view, context),
            Body::ArchiveBoard(view) => {
                let name = escape(&view.name);
                put!(
                    html,
                    "<div class=\"archive-list\"><h1>{name}</h1>\n{crumbs}<ul>\n"
                );
                for (route, title) in &view.threads {
                    let href = context.href(route);
                    let title = escape(title);
                    put!(html, "<li><a href=\"{href}\">{title}</a></li>\n");
                }
                html.push_str("</ul></div>\n");
            }
            Body::Profile(view) => self.user_page(html, view, context),
            Body::MemberList(view) => {
                html.push_str(
                    "<div class=\"directory\"><h1>Users</h1>\n<table class=\"directory-table\">\
                     <thead><tr><th>Username</th><th>Posts</th><th>Joined</th></tr></thead>\n\
                     <tbody>\n",
                );
                for member in &view.members {
                    let name = user_link(member, "", context);
                    let posts = member.posts;
                    let joined = member.joined.map_or_else(String::new, |instant| {
                        time(context, instant, "", DateStyle::DateOnly)
                    });
                    put!(
                        html,
                        "<tr class=\"directory-table__row\"><td>{name}</td><td>{posts}</td>\
                         <td>{joined}</td></tr>\n"
                    );
                }
                let pages = pager(&view.pager, "", context);
                put!(html, "</tbody></table></div>\n{pages}");
            }
            Body::Calendar(view) => self.calendar(html, view, context),
            Body::Search(view) => self.search(html, view, context),
            Body::Login(view) => {
                let reason = match view.reason {
                    LoginReason::Requested => "Welcome back! Log in to continue.",
                    LoginReason::MembersOnly => "You need to log in to do that.",
                };
                let action = context.href(&view.form_action);
                put!(
                    html,
                    "<div id=\"login-form-page\"><h1>Log In</h1><p class=\"login-reason\">{reason}\
                     </p>\n<form id=\"login-form\" method=\"post\" action=\"{action}\">\n\
                     <label for=\"login-account-name\">Email / Username</label>\
                     <input id=\"login-account-name\" name=\"login\" type=\"text\">\n\
                     <label for=\"login-account-password\">Password</label>\
                     <input id=\"login-account-password\" name=\"password\" type=\"password\">\n\
                     <button id=\"login-button\" class=\"btn btn-primary\" type=\"submit\">Log In\
                     </button>\n</form></div>\n"
                );
            }
            Body::NotFound => html.push_str(
                "<div class=\"page-not-found\"><h1 class=\"title\">Oops! That page doesn’t exist \
                 or is private.</h1></div>\n",
            ),
        }
    }

    /// One row of a crawler topic list.
    fn topic_row(
        &self,
        html: &mut String,
        summary: &ThreadSummary,
        position: usize,
        board: &str,
        context: &RenderContext<'_>,
    ) {
        let id = summary.thread;
        let (pinned, status) = match summary.sticky {
            true => (
                " pinned",
                "<span class=\"topic-status pinned\" title=\"pinned\">pinned</span> ",
            ),
            false => ("", ""),
        };
        let href = context.href(&summary.link);
        let title = escape(&summary.title);
        let pages = page_links(summary, context);
        let starter = user_link(&summary.author, "Original Poster", context);
        let poster = user_link(&summary.last_post.author, "Most Recent Poster", context);
        let (replies, views) = (summary.replies, summary.views);
        let latest = context.href(&summary.last_post.link);
        let date = time(
            context,
            summary.last_post.created,
            " class=\"relative-date\"",
            DateStyle::Long,
        );
        put!(
            html,
            "<tr class=\"topic-list-item{pinned}\">\n<td class=\"main-link\" \
             itemprop=\"itemListElement\" itemscope itemtype=\"http://schema.org/ListItem\">\n\
             <meta itemprop=\"position\" content=\"{position}\">\n<span class=\"link-top-line\">\
             {status}<a itemprop=\"url\" href=\"{href}\" class=\"title raw-link raw-topic-link\" \
             data-topic-id=\"{id}\">{title}</a>{pages}</span>\n{board}</td>\n\
             <td class=\"posters\">{starter} {poster}</td>\n<td class=\"replies\">\
             <span class=\"posts\" title=\"posts\">{replies}</span></td>\n<td class=\"views\">\
             <span class=\"views\" title=\"views\">{views}</span></td>\n<td class=\"activity\">\
             <a href=\"{latest}\" class=\"post-activity\">{date}</a></td>\n</tr>\n"
        );
    }

    fn topic_list(
        &self,
        html: &mut String,
        topics: &[&ThreadSummary],
        first: usize,
        board: &str,
        context: &RenderContext<'_>,
    ) {
        html.push_str(
            "<div class=\"topic-list-container\" itemscope \
             itemtype=\"http://schema.org/ItemList\">\n<meta itemprop=\"itemListOrder\" \
             content=\"http://schema.org/ItemListOrderDescending\">\n\
             <table class=\"topic-list\">\n<thead>\n<tr><th class=\"default\">Topic</th>\
             <th class=\"posters\">Users</th><th class=\"replies\">Replies</th>\
             <th class=\"views\">Views</th><th class=\"activity\">Activity</th></tr>\n</thead>\n\
             <tbody>\n",
        );
        for (index, summary) in topics.iter().enumerate() {
            self.topic_row(html, summary, first + index, board, context);
        }
        html.push_str("</tbody>\n</table>\n</div>\n");
    }

    /// The "latest topics" column of the categories page, also shown beside category lists.
    fn latest(
        &self,
        html: &mut String,
        latest: &[ThreadSummary],
        heading: &str,
        context: &RenderContext<'_>,
    ) {
        if latest.is_empty() {
            return;
        }
        put!(
            html,
            "<div class=\"latest-topic-list\"><h2>{heading}</h2>\n"
        );
        for summary in latest {
            let starter = user_link(&summary.author, "Original Poster", context);
            let href = context.href(&summary.link);
            let title = escape(&summary.title);
            let pages = page_links(summary, context);
            let replies = summary.replies;
            let latest = context.href(&summary.last_post.link);
            let date = time(context, summary.last_post.created, "", DateStyle::Long);
            let poster = user_link(&summary.last_post.author, "Most Recent Poster", context);
            put!(
                html,
                "<div class=\"latest-topic-list-item\"><div class=\"topic-poster\">{starter}</div>\
                 <div class=\"main-link\"><a href=\"{href}\" class=\"title raw-link \
                 raw-topic-link\">{title}</a>{pages}</div><div class=\"topic-stats\">{replies} \
                 replies, <a href=\"{latest}\">{date}</a> by {poster}</div></div>\n"
            );
        }
        html.push_str("</div>\n");
    }

    fn portal(&self, html: &mut String, view: &PortalView, context: &RenderContext<'_>) {
        let mut position = 0;
        for category in &view.categories {
            let name = escape(&category.name);
            put!(
                html,
                "<div class=\"category-list\"><h2 class=\"category-group-name\">{name}</h2>\n\
                 <table class=\"category-list with-topics\"><thead><tr><th class=\"category\">\
                 Category</th><th class=\"topics\">Topics</th><th class=\"posts\">Posts</th>\
                 <th class=\"latest\">Latest</th></tr></thead>\n<tbody>\n"
            );
            for board in &category.boards {
                position += 1;
                let id = board.board;
                let href = context.href(&board.link);
                let name = escape(&board.name);
                let (threads, posts) = (board.threads, board.posts);
                let featured = board.last_post.as_ref().map_or_else(String::new, |last| {
                    let href = context.href(&last.link);
                    let title = escape(&last.thread_title);
                    let poster = user_link(&last.author, "Most Recent Poster", context);
                    let date = time(context, last.created, "", DateStyle::Long);
                    format!("<a class=\"title\" href=\"{href}\">{title}</a> {poster} {date}")
                });
                put!(
                    html,
                    "<tr data-category-id=\"{id}\"><td class=\"category\" itemscope \
                     itemtype=\"http://schema.org/ListItem\"><meta itemprop=\"position\" \
                     content=\"{position}\"><h3><a class=\"category-title-link\" itemprop=\"url\" \
                     href=\"{href}\"><span itemprop=\"name\">{name}</span></a></h3></td>\
                     <td class=\"topics\">{threads}</td><td class=\"posts\">{posts}</td>\
                     <td class=\"latest\"><div class=\"featured-topic\">{featured}</div></td>\
                     </tr>\n"
                );
            }
            html.push_str("</tbody></table></div>\n");
        }
        self.latest(html, &view.latest, "Latest", context);
    }

    fn board(
        &self,
        html: &mut String,
        view: &BoardView,
        crumbs: &str,
        context: &RenderContext<'_>,
    ) {
        let href = context.href(&Route::Board {
            board: view.board,
            page: 1,
        });
        let name = escape(&view.name);
        let create = button(
            &view.new_thread,
            "btn btn-primary create",
            "New Topic",
            context,
        );
        let archive = button(&view.archive, "btn archive", "Archive", context);
        put!(
            html,
            "<h1 class=\"category-title\"><a href=\"{href}\">{name}</a></h1>\n{crumbs}\
             <div class=\"category-actions\">{create}{archive}</div>\n"
        );
        if !view.sort_links.is_empty() {
            let now = sort_keys(view.sort).2;
            put!(
                html,
                "<ul class=\"nav nav-pills\"><li class=\"active\">{now}</li>"
            );
            for (sort, address) in &view.sort_links {
                let href = context.href_address(address.clone());
                let label = sort_keys(*sort).2;
                put!(
                    html,
                    "<li><a href=\"{href}\" rel=\"nofollow\">{label}</a></li>"
                );
            }
            html.push_str("</ul>\n");
        }
        let badge = format!(
            "<div class=\"link-bottom-line\"><a href=\"{href}\" class=\"badge-wrapper bullet\">\
             <span class=\"category-name\">{name}</span></a></div>\n"
        );
        let topics: Vec<&ThreadSummary> = view.stickies.iter().chain(&view.threads).collect();
        let first = (view.pager.current as usize - 1) * self.profile.threads_per_page as usize + 1;
        self.topic_list(html, &topics, first, &badge, context);
        html.push_str(&pager(&view.pager, "", context));
        self.latest(html, &view.latest, "Related topics", context);
    }

    /// One post of the crawler view; `thread_href` is the thread's first page, which every post
    /// names as its `mainEntityOfPage`.
    fn post(
        &self,
        html: &mut String,
        post: &PostView,
        thread_href: &str,
        context: &RenderContext<'_>,
    ) {
        let number = post.number;
        let comment = match number {
            1 => "",
            _ => " itemprop=\"comment\" itemscope itemtype=\"http://schema.org/Comment\"",
        };
        let name = escape(&post.author.name);
        let author = match &post.author.profile {
            Some(route) => {
                let href = context.href(route);
                format!(
                    "<a itemprop=\"url\" href=\"{href}\"><span itemprop=\"name\">{name}</span></a>"
                )
            }
            None => format!("<span itemprop=\"name\">{name}</span>"),
        };
        let joined = post.author.joined.map_or_else(String::new, |instant| {
            let date = time(context, instant, "", DateStyle::DateOnly);
            format!(" <span class=\"user-joined\">joined {date}</span>")
        });
        let attributes = " itemprop=\"datePublished\" class=\"post-time\"";
        let created = time(context, post.created, attributes, DateStyle::Long);
        let permalink = match &post.permalink {
            Some(route) => format!(
                "<a class=\"post-number\" href=\"{}\">#{number}</a>",
                context.href(route)
            ),
            None => format!("<span class=\"post-number\">#{number}</span>"),
        };
        let text: String = post
            .paragraphs
            .iter()
            .map(|text| format!("<p>{}</p>", escape(text)))
            .collect();
        let signature = post
            .signature
            .as_deref()
            .map_or_else(String::new, |signature| {
                format!(
                    "<div class=\"user-signature\">{}</div>\n",
                    escape(signature)
                )
            });
        let quote = button(&post.quote, "reply-with-quote", "Quote", context);
        let message = button(&post.message, "send-message", "Message", context);
        put!(
            html,
            "<div id=\"post_{number}\"{comment} class=\"topic-body crawler-post\">\n\
             <div class=\"crawler-post-meta\">\n<span class=\"creator\" itemprop=\"author\" \
             itemscope itemtype=\"http://schema.org/Person\">{author}{joined}</span>\n\
             <link itemprop=\"mainEntityOfPage\" href=\"{thread_href}\">\n\
             <span class=\"crawler-post-infos\">{created}\
             <meta itemprop=\"position\" content=\"{number}\"> {permalink}</span>\n</div>\n\
             <div class=\"post\" itemprop=\"text\">{text}</div>\n{signature}\
             <div class=\"post-actions\">{quote}{message}</div>\n</div>\n"
        );
    }

    fn thread(
        &self,
        html: &mut String,
        view: &ThreadView,
        crumbs: &str,
        context: &RenderContext<'_>,
    ) {
        let href = context.href(&Route::Thread {
            thread: view.thread,
            page: 1,
        });
        let title = escape(&view.title);
        let board = escape(&view.board.1);
        put!(
            html,
            "<div id=\"topic-title\">\n<h1><a href=\"{href}\">{title}</a></h1>\n{crumbs}</div>\n\
             <div itemscope itemtype=\"http://schema.org/DiscussionForumPosting\">\n\
             <meta itemprop=\"headline\" content=\"{title}\">\n\
             <meta itemprop=\"articleSection\" content=\"{board}\">\n"
        );
        for post in &view.posts {
            self.post(html, post, &href, context);
        }
        let pages = pager(&view.pager, " class=\"topic-body crawler-post\"", context);
        let reply = button(&view.reply, "btn btn-primary create", "Reply", context);
        let print = button(&view.print, "btn print", "Print", context);
        let raw = button(&view.archive, "btn raw", "Raw", context);
        let previous = button(
            &view.previous_thread,
            "raw-topic-link",
            "← Previous topic",
            context,
        );
        let next = button(&view.next_thread, "raw-topic-link", "Next topic →", context);
        put!(
            html,
            "</div>\n{pages}<div class=\"topic-footer-buttons\">{reply}{print}{raw}</div>\n\
             <div id=\"suggested-topics\" class=\"suggested-topics\">\
             <h3 class=\"suggested-topics-title\">Suggested Topics</h3>{previous}{next}</div>\n"
        );
    }

    /// The raw export of a thread, rendered as HTML: one header line per post, then its text.
    fn raw(&self, html: &mut String, view: &WholeThreadView, context: &RenderContext<'_>) {
        let href = context.href(&view.original);
        let title = escape(&view.title);
        put!(
            html,
            "<div class=\"raw-topic\"><h1><a href=\"{href}\">{title}</a></h1>\n"
        );
        for post in &view.posts {
            let number = post.number;
            let author = user_link(&post.author, "", context);
            let joined = post.author.joined.map_or_else(String::new, |instant| {
                format!(
                    " (joined {})",
                    time(context, instant, "", DateStyle::DateOnly)
                )
            });
            let created = time(context, post.created, "", DateStyle::RawUtc);
            let permalink = match &post.permalink {
                Some(route) => format!("<a href=\"{}\">#{number}</a>", context.href(route)),
                None => format!("#{number}"),
            };
            let text: String = post
                .paragraphs
                .iter()
                .map(|text| format!("<p>{}</p>", escape(text)))
                .collect();
            let signature = post
                .signature
                .as_deref()
                .map_or_else(String::new, |signature| {
                    format!("<div class=\"user-signature\">{}</div>", escape(signature))
                });
            let quote = button(&post.quote, "quote", "Quote", context);
            let message = button(&post.message, "message", "Message", context);
            put!(
                html,
                "<div class=\"raw-post\" id=\"raw-{number}\"><div class=\"raw-post-header\">\
                 {author}{joined} | {created} | {permalink}</div>\n\
                 <div class=\"raw-post-body\">{text}</div>\n{signature}{quote}{message}\
                 <hr class=\"raw-separator\"></div>\n"
            );
        }
        html.push_str("</div>\n");
    }

    fn user_page(&self, html: &mut String, view: &ProfileView, context: &RenderContext<'_>) {
        let name = escape(&view.user.name);
        let joined = time(context, view.joined, "", DateStyle::DateOnly);
        let seen = view.last_visit.map_or_else(String::new, |instant| {
            format!(
                "<dt>Last seen</dt><dd>{}</dd>",
                time(context, instant, "", DateStyle::Long)
            )
        });
        let posts = view.user.posts;
        let message = button(&view.message, "btn btn-primary", "Message", context);
        put!(
            html,
            "<div class=\"user-crawler\"><h1 class=\"username\">{name}</h1>\n\
             <dl class=\"user-stats\"><dt>Joined</dt><dd>{joined}</dd>{seen}<dt>Posts</dt>\
             <dd>{posts}</dd></dl>\n{message}<h2>Topics</h2>\n<ul class=\"user-topics\">\n"
        );
        for (route, title) in &view.recent_threads {
            let href = context.href(route);
            let title = escape(title);
            put!(html, "<li><a href=\"{href}\">{title}</a></li>\n");
        }
        html.push_str("</ul></div>\n");
    }

    fn calendar(&self, html: &mut String, view: &CalendarView, context: &RenderContext<'_>) {
        let month = |route: &Route| match *route {
            Route::Calendar { year, month } => {
                format!(
                    "{} {year}",
                    ENGLISH_MONTHS[(month as usize).clamp(1, 12) - 1]
                )
            }
            _ => String::new(),
        };
        let heading = month(&Route::Calendar {
            year: view.year,
            month: view.month,
        });
        let previous = context.href(&view.previous);
        let previous_month = month(&view.previous);
        let next = context.href(&view.next);
        let next_month = month(&view.next);
        put!(
            html,
            "<div class=\"calendar-month\"><h1>{heading}</h1>\n<div class=\"calendar-nav\">\
             <a href=\"{previous}\" class=\"btn\">‹ {previous_month}</a> <a href=\"{next}\" \
             class=\"btn\">{next_month} ›</a></div>\n<ul class=\"calendar-events\">\n"
        );
        let month_name = ENGLISH_MONTHS[(view.month as usize).clamp(1, 12) - 1];
        for (day, route, title) in &view.events {
            let href = context.href(route);
            let title = escape(title);
            put!(
                html,
                "<li class=\"event\">{month_name} {day}: <a href=\"{href}\">{title}</a></li>\n"
            );
        }
        html.push_str("</ul></div>\n");
    }

    fn search(&self, html: &mut String, view: &SearchView, context: &RenderContext<'_>) {
        html.push_str(
            "<div class=\"search-container\"><h1 class=\"search-title\">Search results for \
             <span class=\"term\">in:new</span></h1>\n<div class=\"search-results\">\n",
        );
        for summary in &view.results {
            let starter = user_link(&summary.author, "Original Poster", context);
            let href = context.href(&summary.link);
            let title = escape(&summary.title);
            let pages = page_links(summary, context);
            let created = time(context, summary.created, "", DateStyle::Long);
            let replies = summary.replies;
            let latest = context.href(&summary.last_post.link);
            let date = time(context, summary.last_post.created, "", DateStyle::Long);
            let poster = user_link(&summary.last_post.author, "Most Recent Poster", context);
            put!(
                html,
                "<div class=\"fps-result\"><div class=\"author\">{starter}</div>\
                 <div class=\"fps-topic\"><a class=\"search-link\" href=\"{href}\">\
                 <span class=\"topic-title\">{title}</span></a>{pages}</div>\
                 <div class=\"blurb container\"><span class=\"date\">{created}</span> — \
                 {replies} \
                 replies, latest <a href=\"{latest}\">{date}</a> by {poster}</div></div>\n"
            );
        }
        // The listing has no end: every page links to a next one.
        let current = Address::canonical(Route::Search { page: view.page });
        let pages = Pager {
            current: view.page,
            total: view.page + 1,
            pages: vec![(view.page, current)],
            previous: view.previous.clone().map(Address::canonical),
            next: Some(Address::canonical(view.next.clone())),
        };
        let navigation = pager(&pages, "", context);
        put!(html, "</div></div>\n{navigation}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FamilyName, HISTORY_END_SECONDS, Scale, Site, SiteConfig};

    fn site() -> Site {
        Site::build(SiteConfig::new(FamilyName::Discourse, 7, Scale::Small))
    }

    /// How a test case writes a decoded address: the route's `Debug` form, then the variant's
    /// departures from the canonical spelling; "None" for URLs the engine does not have.
    fn summary(address: Option<Address>) -> String {
        let Some(Address { route, variant }) = address else {
            return "None".to_string();
        };
        let mut text = format!("{route:?}");
        if variant.sort != SortOrder::LastPost {
            text += &format!(" sort={:?}", variant.sort);
        }
        for (flag, name) in [
            (variant.explicit_first_page, " explicit"),
            (variant.alias, " alias"),
        ] {
            text += if flag { name } else { "" };
        }
        text
    }

    /// `{t}` and `{b}` stand for the slugs of thread 5 and board 2, `{u}` and `{l}` for user 8's
    /// name as it is and in lower case, `{p1}` and `{p2}` for the ids of thread 5's first posts.
    const CASES: &[&str] = &[
        "/ => Portal",
        "/categories => Portal alias",
        "/c/{b}/2 => Board { board: 2, page: 1 }",
        "/c/{b}/2?page=1 => Board { board: 2, page: 2 }",
        "/c/{b}/2?page=0 => Board { board: 2, page: 1 } explicit",
        "/c/{b}/2?page=-1 => None",
        "/c/2?page=1 => Board { board: 2, page: 2 } alias",
        "/c/{b}/2/ => Board { board: 2, page: 1 } alias",
        "/c/general/2 => Board { board: 2, page: 1 } alias",
        "/c/{b}/2?order=title&ascending=true&page=1 => Board { board: 2, page: 2 } sort=Title",
        "/c/{b}/2?order=posts => Board { board: 2, page: 1 } sort=Replies",
        "/c/{b}/2?order=posts&ascending=false => Board { board: 2, page: 1 } sort=Replies alias",
        "/c/{b}/2?order=activity => Board { board: 2, page: 1 } alias",
        "/c/{b}/2?order=title => None",
        "/c/{b}/2?order=likes => None",
        "/c/{b}/2/l/archive => ArchiveBoard { board: 2 }",
        "/c/{b}/2/l/top => None",
        "/t/{t}/5 => Thread { thread: 5, page: 1 }",
        "/t/{t}/5?page=2&u=someone => Thread { thread: 5, page: 2 }",
        "/t/{t}/5?page=1 => Thread { thread: 5, page: 1 } explicit",
        "/t/{t}/5?page=0 => None",
        "/t/5 => Thread { thread: 5, page: 1 } alias",
        "/t/{t}/5/ => Thread { thread: 5, page: 1 } alias",
        "/t/another-title/5 => Thread { thread: 5, page: 1 } alias",
        "/t/{t}/5/1 => Post { post: {p1} }",
        "/t/{t}/5/2 => Post { post: {p2} }",
        "/t/{t}/5/0 => None",
        "/t/{t}/5/9999 => None",
        "/t/{t}/5/2/quote => Action { kind: Quote, target: {p2} }",
        "/t/{t}/5/print => Print { thread: 5 }",
        "/t/{t}/5/reply => Action { kind: Reply, target: 5 }",
        "/t/{t}/x => None",
        "/p/{p2} => Post { post: {p2} } alias",
        "/raw/5 => ArchiveThread { thread: 5 }",
        "/raw/x => None",
        "/u => MemberList { page: 1 }",
        "/u?page=2 => MemberList { page: 3 }",
        "/u?page=0 => MemberList { page: 1 } explicit",
        "/u/{u} => Profile { user: 8 }",
        "/u/{l} => Profile { user: 8 } alias",
        "/u/{u}0 => None",
        "/u/Nobody8 => None",
        "/u/a/b => None",
        "/calendar?month=2025-03 => Calendar { year: 2025, month: 3 }",
        "/calendar => None",
        "/search?q=in%3Anew => Search { page: 1 }",
        "/search?q=in%3Anew&page=2 => Search { page: 2 }",
        "/search?q=cats => None",
        "/login => Login { next: None }",
        "/login?next=%2Ft%2Fx%2F5%2Freply => Login { next: Some(\"/t/x/5/reply\") }",
        "/new-topic?category_id=3 => Action { kind: NewThread, target: 3 }",
        "/new-topic => None",
        "/new-message?user_id=5 => Action { kind: Message, target: 5 }",
        "/threads/x.5/ => None",
        "/viewtopic.php?t=5 => None",
    ];

    #[test]
    fn urls_decode_to_addresses() {
        let site = site();
        let history = site.history();
        let posts = history.thread_posts(5);
        assert!(posts.len() >= 2, "thread 5 has replies");
        let thread = slugify(&site.thread_title(5));
        let board = slugify(&history.board(2).expect("board 2").name);
        let user = text::user_name(7, 8);
        let fill = |text: &str| {
            let text = text.replace("{t}", &thread).replace("{b}", &board);
            let text = text
                .replace("{u}", &user)
                .replace("{l}", &user.to_lowercase());
            text.replace("{p1}", &posts[0].to_string())
                .replace("{p2}", &posts[1].to_string())
        };
        let check = |url: &str, expected: &str| {
            assert_eq!(summary(site.address_of(url)), expected, "{url}");
        };
        for case in CASES {
            let (url, expected) = case.split_once(" => ").expect("url => expected");
            check(&fill(url), &fill(expected));
        }
    }

    #[test]
    fn canonical_spellings() {
        let site = site();
        let history = site.history();
        let url = |route| site.url_of(&Address::canonical(route));
        let thread = slugify(&site.thread_title(5));
        let board = slugify(&history.board(2).expect("board 2").name);
        assert_eq!(
            url(Route::Thread { thread: 5, page: 2 }),
            format!("/t/{thread}/5?page=2")
        );
        assert_eq!(
            url(Route::Board { board: 2, page: 2 }),
            format!("/c/{board}/2?page=1")
        );
        let second = history.thread_posts(5)[1];
        assert_eq!(
            url(Route::Post { post: second }),
            format!("/t/{thread}/5/2")
        );
        assert_eq!(
            url(Route::Profile { user: 8 }),
            format!("/u/{}", text::user_name(7, 8))
        );
        assert_eq!(
            url(Route::Calendar {
                year: 2025,
                month: 3
            }),
            "/calendar?month=2025-03"
        );
    }

    #[test]
    fn dates_are_absolute_in_forum_time() {
        let site = site();
        let (history, family) = (site.history(), site.family());
        let context = RenderContext {
            history,
            family,
            now: HISTORY_END_SECONDS,
            session: None,
        };
        let instant = 1_743_372_665;
        assert_eq!(
            time(&context, instant, "", DateStyle::Long),
            "<time datetime=\"2025-03-30T14:11:05-08:00\">March 30, 2025, 2:11pm</time>"
        );
        assert_eq!(
            time(&context, instant, "", DateStyle::RawUtc),
            "<time datetime=\"2025-03-30T22:11:05+00:00\">2025-03-30 22:11:05 UTC</time>"
        );
    }

    #[test]
    fn pages_render_the_crawler_view() {
        let site = site();
        let history = site.history();
        let serve = |route| {
            let url = site.url_of(&Address::canonical(route));
            let response = site.serve(&url, HISTORY_END_SECONDS, None);
            assert_eq!(response.status, 200, "{url}");
            String::from_utf8(response.body).expect("utf-8")
        };
        let mut threads = 1..=history.thread_count();
        let thread = threads
            .find(|&thread| history.thread_posts(thread).len() > 20)
            .expect("long");
        let page = serve(Route::Thread { thread, page: 1 });
        let first = history.thread_posts(thread)[0];
        let paragraphs = text::post_paragraphs(history.seed, history.language, first);
        let text: String = paragraphs
            .iter()
            .map(|text| format!("<p>{}</p>", escape(text)))
            .collect();
        let body = format!("<div class=\"post\" itemprop=\"text\">{text}</div>");
        assert!(page.contains(&body), "{body}");
        for landmark in [
            "<div id=\"post_1\" class=\"topic-body crawler-post\">",
            "<div id=\"post_2\" itemprop=\"comment\" itemscope",
            "<span class=\"creator\" itemprop=\"author\" itemscope",
            "-08:00\" itemprop=\"datePublished\" class=\"post-time\">",
            "<a rel=\"next\" itemprop=\"url\" href=\"/t/",
            "<div id=\"suggested-topics\"",
        ] {
            assert!(page.contains(landmark), "{landmark}");
        }
        let board = serve(Route::Board { board: 1, page: 1 });
        for landmark in [
            "<table class=\"topic-list\">",
            "<tr class=\"topic-list-item",
            "class=\"title raw-link raw-topic-link\"",
            "<span class=\"posts\" title=\"posts\">",
            "?order=title&amp;ascending=true",
            "<div class=\"latest-topic-list\">",
        ] {
            assert!(board.contains(landmark), "{landmark}");
        }
        let reply = site.url_of(&Address::canonical(action(ActionKind::Reply, thread)));
        let wall = site.serve(&reply, HISTORY_END_SECONDS, None);
        let location = format!("/login?next={}", percent_encode(&reply));
        assert_eq!(
            (wall.status, wall.headers.last().map(|h| h.1.clone())),
            (301, Some(location))
        );
    }
}
