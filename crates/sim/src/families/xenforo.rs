//! XenForo 2-like: "friendly" URLs with a title slug before the id (`/threads/how-to-fix-it.123/`,
//! `/forums/hardware.3/page-2`), sort orders as `?order=title&direction=asc`, the XenForo 2 div
//! layout with BEM class names (`structItem`, `message`, `pageNav`), 403 login walls and post
//! permalinks (`/posts/456/`) that redirect to the thread page holding the post.
//!
//! Dates: every instant is a `<time class="u-dt">` element whose `datetime` attribute carries the
//! absolute time as `2025-03-30T22:11:05+0000`, with `data-time` (Unix seconds),
//! `data-date-string`, `data-time-string` and a `title` like "Mar 30, 2025 at 10:11 PM". The
//! visible text is relative to the request, as XenForo prints it: "A moment ago", "N minutes ago",
//! "Today at 10:11 PM", "Yesterday at 10:11 PM", a weekday ("Sunday at 10:11 PM") within a week,
//! and "Mar 30, 2025" beyond. Join dates beside posts are plain dates ("Mar 30, 2025").
//!
//! Slugs are decoration: the id after the dot decides the page. A missing or wrong slug, or a
//! missing trailing slash, decodes as an alias, which the server redirects to the canonical URL.

use std::cell::RefCell;
use std::fmt::Write;

use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::dates::{self, ENGLISH_MONTHS, ENGLISH_WEEKDAYS};
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
pub(crate) struct Xenforo {
    profile: FamilyProfile,
}

impl Xenforo {
    pub(crate) fn new() -> Self {
        Xenforo {
            profile: FamilyProfile {
                name: "xenforo",
                description: "XenForo 2-like: /threads/slug.123/page-2, structItem and message \
                              divs, relative <time> dates, 403 login walls",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: 0,
                threads_per_page: 20,
                posts_per_page: 20,
                members_per_page: 20,
                login_wall: LoginWall::Forbidden,
                profiles_need_login: false,
                permalink: PermalinkStyle::RedirectsToThreadPage,
                session_parameter: None,
                session_cookie: "xf_session",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 404,
                aliases_redirect: true,
            },
        }
    }
}

/// XenForo's `order` key, the `direction` that gives our list, and the filter menu's label.
fn sort_keys(sort: SortOrder) -> (&'static str, &'static str, &'static str) {
    match sort {
        SortOrder::LastPost => ("last_post_date", "desc", "Last message"),
        SortOrder::Title => ("title", "asc", "Title"),
        SortOrder::Author => ("username", "asc", "Thread starter"),
        SortOrder::Replies => ("reply_count", "desc", "Replies"),
        SortOrder::Created => ("post_date", "desc", "First message"),
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
    // An unknown board still needs some slug so that its URL round-trips; the page is a 404 anyway.
    history
        .board(board)
        .map_or_else(|| "forum".to_string(), |record| slugify(&record.name))
}

fn member_slug(history: &ForumHistory, user: u32) -> String {
    slugify(&text::user_name(history.seed, user))
}

/// `/kind/slug.id/`, or `/kind/id/` for the slug-less alias spelling.
fn slugged(kind: &str, slug: &str, id: u32, alias: bool) -> String {
    if alias {
        format!("/{kind}/{id}/")
    } else {
        format!("/{kind}/{slug}.{id}/")
    }
}

/// A decimal number without sign, leading zeros or anything else, as the engine prints ids.
fn plain_number(digits: &str) -> Option<u32> {
    let canonical = !digits.is_empty()
        && digits.bytes().all(|byte| byte.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'));
    if canonical { digits.parse().ok() } else { None }
}

/// Reads a `slug.id` path segment (or a bare `id`); a slug other than `expected` makes an alias.
fn slugged_id(
    segment: &str,
    variant: &mut Variant,
    expected: impl Fn(u32) -> String,
) -> Option<u32> {
    let Some((slug, digits)) = segment.rsplit_once('.') else {
        variant.alias = true;
        return plain_number(segment);
    };
    let id = plain_number(digits)?;
    variant.alias |= slug != expected(id);
    Some(id)
}

/// What follows a slugged segment: a URL without its trailing slash is an alias of the one with.
fn tail<'a>(rest: &[&'a str], variant: &mut Variant) -> Option<&'a str> {
    match rest {
        [] => {
            variant.alias = true;
            Some("")
        }
        [only] => Some(only),
        _ => None,
    }
}

/// Reads the page of board and thread URLs: an empty segment for page 1, else `page-N`.
fn page_segment(segment: &str, variant: &mut Variant) -> Option<u32> {
    let page = match segment {
        "" => return Some(1),
        _ => plain_number(segment.strip_prefix("page-")?).filter(|&page| page >= 1)?,
    };
    variant.explicit_first_page = page == 1;
    Some(page)
}

/// Reads `?page=N` of the member list and the "what's new" listing.
fn page_parameter(pairs: &[(String, String)], variant: &mut Variant) -> Option<u32> {
    let Some(text) = query_value(pairs, "page") else {
        return Some(1);
    };
    let page = plain_number(text).filter(|&page| page >= 1)?;
    variant.explicit_first_page = page == 1;
    Some(page)
}

/// Reads `YYYY-MM` of calendar URLs.
fn year_month(segment: &str) -> Option<(i32, u32)> {
    let (year, month) = segment.split_once('-')?;
    let digits = |text: &str| text.bytes().all(|byte| byte.is_ascii_digit());
    if year.len() < 4 || month.len() != 2 || !digits(year) || !digits(month) {
        return None;
    }
    Some((year.parse().ok()?, month.parse().ok()?))
}

/// Reads `?order=&direction=` into the variant's sort order.
fn sort_order(pairs: &[(String, String)], variant: &mut Variant) -> Option<()> {
    let Some(order) = query_value(pairs, "order") else {
        return Some(());
    };
    let mut orders = [SortOrder::LastPost]
        .into_iter()
        .chain(SortOrder::ALTERNATIVES);
    let sort = orders.find(|&sort| sort_keys(sort).0 == order)?;
    // XenForo sorts descending when no direction is given; the ascending orders would then be
    // reversed lists, which this forum does not have.
    match query_value(pairs, "direction") {
        Some(given) if given == sort_keys(sort).1 => {}
        None if sort_keys(sort).1 == "desc" => variant.alias = true,
        _ => return None,
    }
    variant.alias |= sort == SortOrder::LastPost;
    variant.sort = sort;
    Some(())
}

fn action(kind: ActionKind, target: u32) -> Route {
    Route::Action { kind, target }
}

impl Family for Xenforo {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let listed = |page: u32| page > 1 || variant.explicit_first_page;
        let page_suffix = |page| {
            if listed(page) {
                format!("page-{page}")
            } else {
                String::new()
            }
        };
        let page_query = |page| {
            if listed(page) {
                format!("?page={page}")
            } else {
                String::new()
            }
        };
        let board = |id| slugged("forums", &board_slug(history, id), id, variant.alias);
        let thread = |id| slugged("threads", &thread_slug(history, id), id, variant.alias);
        match address.route {
            Route::Portal if variant.alias => "/index.php".to_string(),
            Route::Portal => "/".to_string(),
            Route::Board { board: id, page } => {
                let (order, direction, _) = sort_keys(variant.sort);
                let sort = match variant.sort {
                    SortOrder::LastPost => String::new(),
                    _ => format!("?order={order}&direction={direction}"),
                };
                format!("{}{}{sort}", board(id), page_suffix(page))
            }
            Route::Thread { thread: id, page } => format!("{}{}", thread(id), page_suffix(page)),
            Route::Post { post } => format!("/posts/{post}/"),
            Route::Print { thread: id } => format!("{}print", thread(id)),
            Route::ArchiveBoard { board: id } => format!("/archive/forums/{id}/"),
            Route::ArchiveThread { thread: id } => format!("/archive/threads/{id}/"),
            // XenForo links neighbours directly; this spelling only exists so that every address
            // round-trips, and the server answers it as missing.
            Route::AdjacentThread {
                thread: id,
                newer: true,
            } => format!("{}next", thread(id)),
            Route::AdjacentThread {
                thread: id,
                newer: false,
            } => format!("{}previous", thread(id)),
            Route::Profile { user } => {
                slugged("members", &member_slug(history, user), user, variant.alias)
            }
            Route::MemberList { page } => format!("/members/list/{}", page_query(page)),
            Route::Calendar { year, month } => format!("/events/{year:04}-{month:02}/"),
            Route::Search { page } => format!("/whats-new/posts/{}", page_query(page)),
            Route::Login { next: None } => "/login/".to_string(),
            Route::Login {
                next: Some(ref next),
            } => {
                format!("/login/?_xfRedirect={}", percent_encode(next))
            }
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("{}reply", thread(target)),
                ActionKind::NewThread => format!("{}post-thread", board(target)),
                ActionKind::Quote => format!("/posts/{target}/quote"),
                ActionKind::Message => format!("/conversations/add?to={target}"),
            },
        }
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let segments: Vec<&str> = path.strip_prefix('/')?.split('/').collect();
        let route = match segments.as_slice() {
            [""] => Route::Portal,
            ["index.php"] => {
                variant.alias = true;
                Route::Portal
            }
            ["forums", item, rest @ ..] => {
                let board = slugged_id(item, &mut variant, |id| board_slug(history, id))?;
                match tail(rest, &mut variant)? {
                    "post-thread" => action(ActionKind::NewThread, board),
                    segment => {
                        let page = page_segment(segment, &mut variant)?;
                        sort_order(&pairs, &mut variant)?;
                        Route::Board { board, page }
                    }
                }
            }
            ["threads", item, rest @ ..] => {
                let thread = slugged_id(item, &mut variant, |id| thread_slug(history, id))?;
                match tail(rest, &mut variant)? {
                    "print" => Route::Print { thread },
                    "reply" => action(ActionKind::Reply, thread),
                    "next" => Route::AdjacentThread {
                        thread,
                        newer: true,
                    },
                    "previous" => Route::AdjacentThread {
                        thread,
                        newer: false,
                    },
                    segment => {
                        let page = page_segment(segment, &mut variant)?;
                        Route::Thread { thread, page }
                    }
                }
            }
            ["posts", id, rest @ ..] => {
                let post = plain_number(id)?;
                match tail(rest, &mut variant)? {
                    "" => Route::Post { post },
                    "quote" => action(ActionKind::Quote, post),
                    _ => return None,
                }
            }
            ["members", "list", ""] => {
                let page = page_parameter(&pairs, &mut variant)?;
                Route::MemberList { page }
            }
            ["members", item, rest @ ..] => {
                let user = slugged_id(item, &mut variant, |id| member_slug(history, id))?;
                tail(rest, &mut variant)?
                    .is_empty()
                    .then_some(Route::Profile { user })?
            }
            ["archive", "forums", id, ""] => Route::ArchiveBoard {
                board: plain_number(id)?,
            },
            ["archive", "threads", id, ""] => Route::ArchiveThread {
                thread: plain_number(id)?,
            },
            ["events", month, ""] => {
                let (year, month) = year_month(month)?;
                Route::Calendar { year, month }
            }
            ["whats-new", "posts", ""] => {
                let page = page_parameter(&pairs, &mut variant)?;
                Route::Search { page }
            }
            ["login", ""] => {
                let next = query_value(&pairs, "_xfRedirect").map(str::to_string);
                Route::Login { next }
            }
            ["conversations", "add"] => action(
                ActionKind::Message,
                plain_number(query_value(&pairs, "to")?)?,
            ),
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        let mut html = String::with_capacity(32 * 1024);
        let chrome = &page.chrome;
        let title = escape(&chrome.title);
        let forum = escape(&chrome.forum_name);
        let (template, head_title) = match page.body {
            Body::Portal(_) => ("forum_list", forum.clone()),
            Body::Board(_) => ("forum_view", format!("{title} | {forum}")),
            Body::Thread(_) | Body::SinglePost(_) => ("thread_view", format!("{title} | {forum}")),
            Body::Profile(_) | Body::MemberList(_) => ("member_view", format!("{title} | {forum}")),
            Body::Login(_) => ("login", format!("{title} | {forum}")),
            Body::NotFound => ("error", format!("{title} | {forum}")),
            _ => ("page_view", format!("{title} | {forum}")),
        };
        put!(
            html,
            "<!DOCTYPE html>\n<html id=\"XF\" lang=\"en-US\" dir=\"LTR\" data-app=\"public\" \
             data-template=\"{template}\" data-logged-in=\"false\" class=\"has-no-js \
             template-{template}\">\n<head>\n<meta charset=\"utf-8\" />\n\
             <title>{head_title}</title>\n<meta property=\"og:site_name\" content=\"{forum}\" />\n"
        );
        // Lists name their canonical URL: the same page without sort order or explicit page 1.
        let canonical = match &page.body {
            Body::Board(view) => Some(Route::Board {
                board: view.board,
                page: view.pager.current,
            }),
            Body::Thread(view) => Some(Route::Thread {
                thread: view.thread,
                page: view.pager.current,
            }),
            _ => None,
        };
        if let Some(href) = canonical.map(|route| context.href(&route)) {
            put!(html, "<link rel=\"canonical\" href=\"{href}\" />\n");
        }
        let home = context.href(&chrome.navigation.portal);
        let navigation = self.navigation(&chrome.navigation, context);
        put!(
            html,
            "</head>\n<body data-template=\"{template}\">\n\
             <div class=\"p-pageWrapper\" id=\"top\">\n\
             <header class=\"p-header\" id=\"header\"><div class=\"p-header-logo\">\
             <a href=\"{home}\">{forum}</a></div></header>\n{navigation}\
             <div class=\"p-body\"><div class=\"p-body-inner\">\n"
        );
        if let Some(instant) = chrome.last_visit {
            let visit = time(context, instant, "", TimeText::Relative);
            put!(
                html,
                "<ul class=\"notices js-notices\"><li class=\"notice notice--primary\">\
                 Welcome back! Your last visit was {visit}.</li></ul>\n"
            );
        }
        if let Some(advertisement) = chrome.advertisement {
            let slot = advertisement.len();
            let text = escape(advertisement);
            put!(
                html,
                "<div class=\"samCodeUnit\" data-position=\"container_breadcrumb_top_above\">\
                 <a href=\"https://ads.example.net/xf?slot={slot}\" rel=\"nofollow\">\
                 {text}</a></div>\n"
            );
        }
        let crumbs = self.breadcrumbs(&chrome.breadcrumbs, context);
        let heading = match page.body {
            Body::NotFound => "Oops! We ran into some problems.",
            _ => &title,
        };
        put!(
            html,
            "<ul class=\"p-breadcrumbs\" itemscope itemtype=\"https://schema.org/BreadcrumbList\">\
             {crumbs}</ul>\n<div class=\"p-title\"><h1 class=\"p-title-value\">{heading}</h1>\
             </div>\n<div class=\"p-body-main p-body-main--withSidebar\">\n\
             <div class=\"p-body-pageContent\">\n"
        );
        self.body(&mut html, &page.body, context);
        html.push_str("</div>\n<div class=\"p-body-sidebar\">\n");
        if let Body::Portal(PortalView { latest, .. }) | Body::Board(BoardView { latest, .. }) =
            &page.body
        {
            self.latest_posts(&mut html, latest, context);
        }
        let footer = &chrome.footer;
        let (threads, posts, members) = (footer.threads, footer.posts, footer.members);
        let newest = footer
            .newest_member
            .as_ref()
            .map_or_else(String::new, |member| {
                let name = username(member, context);
                format!("<dl class=\"pairs\"><dt>Latest member</dt><dd>{name}</dd></dl>")
            });
        let clock = chrome.clock.map_or_else(String::new, |instant| {
            let now = time(context, instant, "", TimeText::Full);
            format!("<li class=\"p-footer-clock\">Current time: {now}</li>")
        });
        put!(
            html,
            "<div class=\"block\" data-widget-key=\"forum_overview_forum_statistics\">\
             <h3 class=\"block-minorHeader\">Forum statistics</h3>\n<div class=\"block-body\">\
             <dl class=\"pairs pairs--justified\"><dt>Threads</dt><dd>{threads}</dd></dl>\
             <dl class=\"pairs pairs--justified\"><dt>Messages</dt><dd>{posts}</dd></dl>\
             <dl class=\"pairs pairs--justified\"><dt>Members</dt><dd>{members}</dd></dl>{newest}\
             </div></div>\n</div>\n</div>\n<ul class=\"p-breadcrumbs p-breadcrumbs--bottom\">\
             {crumbs}</ul>\n</div></div>\n<footer class=\"p-footer\" id=\"footer\">\n\
             <ul class=\"p-footer-linkList\">{clock}<li>All times are UTC</li>\
             <li><a href=\"{home}\">Home</a></li></ul>\n<div class=\"p-footer-copyright\">\
             <a href=\"https://xenforo.com\" rel=\"sponsored noopener\">Community platform by \
             XenForo<sup>&reg;</sup> &copy; 2010-2024 XenForo Ltd.</a></div>\n</footer>\n\
             </div>\n</body>\n</html>\n"
        );
        html
    }
}

/// How the visible text of a `<time>` element is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TimeText {
    /// Relative to the request: "Today at 10:11 PM" and so on.
    Relative,
    /// The date alone: "Mar 30, 2025".
    DateOnly,
    /// Date and time: "Mar 30, 2025 at 10:11 PM".
    Full,
}

/// XenForo's `<time class="u-dt">` element for `instant`.
fn time(context: &RenderContext<'_>, instant: i64, class: &str, text: TimeText) -> String {
    let local = context.local(instant);
    let (hour, pm) = dates::twelve_hour(local.hour);
    let meridiem = if pm { "PM" } else { "AM" };
    let clock = format!("{hour}:{:02} {meridiem}", local.minute);
    let month = dates::short_month(local.month);
    let date = format!("{month} {}, {}", local.day, local.year);
    // XenForo writes the offset without a colon: 2025-03-30T22:11:05+0000.
    let mut iso = dates::iso8601(instant, context.profile().utc_offset_seconds);
    iso.remove(iso.len() - 3);
    let age = context.now - instant;
    let days = context.days_ago(instant);
    let shown = match text {
        TimeText::Relative if (0..60).contains(&age) => "A moment ago".to_string(),
        TimeText::Relative if (60..120).contains(&age) => "1 minute ago".to_string(),
        TimeText::Relative if (120..3_600).contains(&age) => format!("{} minutes ago", age / 60),
        TimeText::Relative if (0..7).contains(&days) && age >= 0 => {
            let weekday = ENGLISH_WEEKDAYS[local.weekday as usize];
            let day = ["Today", "Yesterday"]
                .get(days as usize)
                .unwrap_or(&weekday);
            format!("{day} at {clock}")
        }
        TimeText::Full => format!("{date} at {clock}"),
        _ => date.clone(),
    };
    format!(
        "<time class=\"{class}u-dt\" dir=\"auto\" datetime=\"{iso}\" data-time=\"{instant}\" \
         data-date-string=\"{date}\" data-time-string=\"{clock}\" \
         title=\"{date} at {clock}\">{shown}</time>"
    )
}

/// XenForo's short numbers for counters in lists: 999, 1K, 1.2K, 3.4M.
fn short_number(number: u32) -> String {
    let (tenths, unit) = match number {
        0..=999 => return number.to_string(),
        1_000..=999_999 => (number / 100, 'K'),
        _ => (number / 100_000, 'M'),
    };
    match tenths % 10 {
        0 => format!("{}{unit}", tenths / 10),
        digit => format!("{}.{digit}{unit}", tenths / 10),
    }
}

/// The user title XenForo's default trophies give for a message count.
fn user_title(posts: u32) -> &'static str {
    match posts {
        0..=4 => "New member",
        5..=29 => "Member",
        30..=99 => "Active member",
        _ => "Well-known member",
    }
}

fn username(user: &UserCard, context: &RenderContext<'_>) -> String {
    let id = user.user;
    let name = escape(&user.name);
    match &user.profile {
        Some(route) => {
            let href = context.href(route);
            format!("<a href=\"{href}\" class=\"username\" data-user-id=\"{id}\">{name}</a>")
        }
        None => format!("<span class=\"username\" data-user-id=\"{id}\">{name}</span>"),
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
    format!("<a href=\"{href}\" class=\"{class}\"{rel}>{label}</a>")
}

/// The small page links of a thread entry ("2 3 4 9").
fn page_jump(summary: &ThreadSummary, context: &RenderContext<'_>) -> String {
    if summary.page_links.is_empty() {
        return String::new();
    }
    let mut jump = String::from("<span class=\"structItem-pageJump\">");
    for (number, route) in &summary.page_links {
        put!(jump, "<a href=\"{}\">{number}</a>", context.href(route));
    }
    jump.push_str("</span>");
    jump
}

impl Xenforo {
    fn body(&self, html: &mut String, body: &Body, context: &RenderContext<'_>) {
        match body {
            Body::Portal(view) => self.portal(html, view, context),
            Body::Board(view) => self.board(html, view, context),
            Body::Thread(view) => self.thread(html, view, context),
            Body::SinglePost(view) => {
                self.messages(html, std::slice::from_ref(&view.post), context);
                let href = context.href(&view.in_thread);
                put!(
                    html,
                    "<a href=\"{href}\" class=\"button\">View thread</a>\n"
                );
            }
            Body::Print(view) | Body::ArchiveThread(view) => {
                let href = context.href(&view.original);
                put!(
                    html,
                    "<a href=\"{href}\" class=\"button\">Full version</a>\n"
                );
                self.messages(html, &view.posts, context);
            }
            Body::ArchiveBoard(view) => {
                html.push_str("<ol class=\"block-body archiveList\">\n");
                for (route, title) in &view.threads {
                    let href = context.href(route);
                    let title = escape(title);
                    put!(html, "<li><a href=\"{href}\">{title}</a></li>\n");
                }
                html.push_str("</ol>\n");
            }
            Body::Profile(view) => self.member(html, view, context),
            Body::MemberList(view) => self.member_list(html, view, context),
            Body::Calendar(view) => self.calendar(html, view, context),
            Body::Search(view) => {
                html.push_str("<div class=\"structItemContainer\">\n");
                for summary in &view.results {
                    self.struct_item(html, summary, context);
                }
                let previous = button(
                    &view.previous,
                    "pageNav-jump pageNav-jump--prev",
                    "Prev",
                    context,
                );
                let next = button(
                    &Some(view.next.clone()),
                    "pageNav-jump pageNav-jump--next",
                    "Next",
                    context,
                );
                let page = view.page;
                let here = context.href(&Route::Search { page });
                put!(
                    html,
                    "</div>\n<nav class=\"pageNavWrapper\"><div class=\"pageNav\">{previous}\
                     <ul class=\"pageNav-main\"><li class=\"pageNav-page pageNav-page--current\">\
                     <a href=\"{here}\">{page}</a></li></ul>{next}</div></nav>\n"
                );
            }
            Body::Login(view) => {
                if view.reason == LoginReason::MembersOnly {
                    html.push_str(
                        "<div class=\"blockMessage blockMessage--error\">\
                         You must be logged-in to do that.</div>\n",
                    );
                }
                let action = context.href(&view.form_action);
                put!(
                    html,
                    "<form action=\"{action}\" method=\"post\" class=\"block\">\n\
                     <dl class=\"formRow\"><dt>Your name or email address</dt>\
                     <dd><input type=\"text\" class=\"input\" name=\"login\" /></dd></dl>\n\
                     <dl class=\"formRow\"><dt>Password</dt>\
                     <dd><input type=\"password\" class=\"input\" name=\"password\" /></dd></dl>\n\
                     <button type=\"submit\" class=\"button--primary button\">Log in</button>\n\
                     </form>\n"
                );
            }
            Body::NotFound => html.push_str(
                "<div class=\"blockMessage\">The requested page could not be found.</div>\n",
            ),
        }
    }

    fn navigation(&self, navigation: &Navigation, context: &RenderContext<'_>) -> String {
        let mut nav = String::from("<nav class=\"p-nav\"><ul class=\"p-nav-list\">\n");
        let entries = [
            (Some(&navigation.portal), "forums", "Forums"),
            (navigation.search.as_ref(), "whatsNew", "What's new"),
            (navigation.members.as_ref(), "members", "Members"),
            (navigation.calendar.as_ref(), "events", "Events"),
        ];
        for (route, id, label) in entries {
            if let Some(href) = route.map(|route| context.href(route)) {
                put!(
                    nav,
                    "<li><div class=\"p-navEl\"><a href=\"{href}\" class=\"p-navEl-link\" \
                     data-nav-id=\"{id}\">{label}</a></div></li>\n"
                );
            }
        }
        let login = context.href(&navigation.login);
        put!(
            nav,
            "</ul>\n<div class=\"p-navgroup p-account p-navgroup--guest\"><a href=\"{login}\" \
             class=\"p-navgroup-link p-navgroup-link--logIn\" rel=\"nofollow\">Log in</a></div>\n\
             </nav>\n"
        );
        nav
    }

    fn breadcrumbs(&self, crumbs: &[(Route, String)], context: &RenderContext<'_>) -> String {
        let mut list = String::new();
        for (index, (route, label)) in crumbs.iter().enumerate() {
            let href = context.href(route);
            let label = escape(label);
            let position = index + 1;
            put!(
                list,
                "<li itemprop=\"itemListElement\" itemscope><a href=\"{href}\" itemprop=\"item\">\
                 <span itemprop=\"name\">{label}</span></a>\
                 <meta itemprop=\"position\" content=\"{position}\" /></li>"
            );
        }
        list
    }

    /// XenForo's page navigator; nothing for a list of one page.
    fn page_nav(&self, pager: &Pager, context: &RenderContext<'_>) -> String {
        let mut nav = String::new();
        if pager.total <= 1 {
            return nav;
        }
        nav.push_str("<nav class=\"pageNavWrapper\"><div class=\"pageNav\">");
        if let Some(previous) = &pager.previous {
            let href = context.href_address(previous.clone());
            put!(
                nav,
                "<a href=\"{href}\" class=\"pageNav-jump pageNav-jump--prev\">Prev</a>"
            );
        }
        nav.push_str("<ul class=\"pageNav-main\">");
        let mut shown = 0;
        for (number, address) in &pager.pages {
            if *number > shown + 1 {
                // XenForo marks a gap with an ellipsis that opens a "go to page" menu.
                nav.push_str("<li class=\"pageNav-page pageNav-page--skip\"><a>…</a></li>");
            }
            let modifier = if *number == pager.current {
                " pageNav-page--current"
            } else {
                ""
            };
            let href = context.href_address(address.clone());
            put!(
                nav,
                "<li class=\"pageNav-page{modifier}\"><a href=\"{href}\">{number}</a></li>"
            );
            shown = *number;
        }
        nav.push_str("</ul>");
        if let Some(next) = &pager.next {
            let href = context.href_address(next.clone());
            put!(
                nav,
                "<a href=\"{href}\" class=\"pageNav-jump pageNav-jump--next\">Next</a>"
            );
        }
        nav.push_str("</div></nav>\n");
        nav
    }

    /// One thread of a list: the `structItem` of XenForo's forum view.
    fn struct_item(&self, html: &mut String, summary: &ThreadSummary, context: &RenderContext<'_>) {
        let id = summary.thread;
        let author = escape(&summary.author.name);
        let title = escape(&summary.title);
        let link = context.href(&summary.link);
        let starter = username(&summary.author, context);
        let started = time(context, summary.created, "", TimeText::Relative);
        let sticky = match summary.sticky {
            true => {
                "<i class=\"structItem-status structItem-status--sticky\" title=\"Sticky\"></i>"
            }
            false => "",
        };
        let jump = page_jump(summary, context);
        let replies = summary.replies;
        let views = short_number(summary.views);
        let latest = context.href(&summary.last_post.link);
        let poster = username(&summary.last_post.author, context);
        let date = time(
            context,
            summary.last_post.created,
            "structItem-latestDate ",
            TimeText::Relative,
        );
        put!(
            html,
            "<div class=\"structItem structItem--thread js-inlineModContainer \
             js-threadListItem-{id}\" data-author=\"{author}\">\n\
             <div class=\"structItem-cell structItem-cell--main\">{sticky}\
             <div class=\"structItem-title\"><a href=\"{link}\">{title}</a></div>\n\
             <div class=\"structItem-minor\"><ul class=\"structItem-parts\"><li>{starter}</li>\
             <li class=\"structItem-startDate\"><a href=\"{link}\">{started}</a></li></ul>{jump}\
             </div></div>\n<div class=\"structItem-cell structItem-cell--meta\">\
             <dl class=\"pairs pairs--justified\"><dt>Replies</dt><dd>{replies}</dd></dl>\
             <dl class=\"pairs pairs--justified structItem-minor\"><dt>Views</dt><dd>{views}</dd>\
             </dl></div>\n<div class=\"structItem-cell structItem-cell--latest\">\
             <a href=\"{latest}\" rel=\"nofollow\">{date}</a>\
             <div class=\"structItem-minor\">{poster}</div></div>\n</div>\n"
        );
    }

    fn portal(&self, html: &mut String, view: &PortalView, context: &RenderContext<'_>) {
        for (index, category) in view.categories.iter().enumerate() {
            let number = index + 1;
            let name = escape(&category.name);
            put!(
                html,
                "<div class=\"block block--category block--category{number}\">\n\
                 <h2 class=\"block-header\">{name}</h2>\n<div class=\"block-body\">\n"
            );
            for board in &category.boards {
                let id = board.board;
                let href = context.href(&board.link);
                let name = escape(&board.name);
                let threads = short_number(board.threads);
                let posts = short_number(board.posts);
                let extra = board.last_post.as_ref().map_or_else(String::new, |last| {
                    let href = context.href(&last.link);
                    let title = escape(&last.thread_title);
                    let date = time(
                        context,
                        last.created,
                        "node-extra-date ",
                        TimeText::Relative,
                    );
                    let user = username(&last.author, context);
                    format!(
                        "<a href=\"{href}\" class=\"node-extra-title\">{title}</a>\
                         <ul class=\"listInline\"><li>{date}</li><li>{user}</li></ul>"
                    )
                });
                put!(
                    html,
                    "<div class=\"node node--id{id} node--forum\"><div class=\"node-body\">\
                     <h3 class=\"node-title\"><a href=\"{href}\">{name}</a></h3>\n\
                     <div class=\"node-stats\"><dl class=\"pairs pairs--rows\"><dt>Threads</dt>\
                     <dd>{threads}</dd></dl><dl class=\"pairs pairs--rows\"><dt>Messages</dt>\
                     <dd>{posts}</dd></dl></div>\n<div class=\"node-extra\">{extra}</div>\
                     </div></div>\n"
                );
            }
            html.push_str("</div></div>\n");
        }
    }

    fn board(&self, html: &mut String, view: &BoardView, context: &RenderContext<'_>) {
        let navigator = self.page_nav(&view.pager, context);
        let post_thread = button(
            &view.new_thread,
            "button--cta button",
            "Post thread",
            context,
        );
        let archive = button(&view.archive, "button--link button", "Archive", context);
        put!(
            html,
            "<div class=\"block-outer\">{navigator}{post_thread}</div>\n\
             <div class=\"block-container\">\n"
        );
        if !view.sort_links.is_empty() {
            let now = sort_keys(view.sort).2;
            put!(
                html,
                "<div class=\"filterBar\"><h4 class=\"menu-header\">Sort by ({now})</h4>"
            );
            for (sort, address) in &view.sort_links {
                let href = context.href_address(address.clone());
                let label = sort_keys(*sort).2;
                put!(
                    html,
                    "<a href=\"{href}\" class=\"menu-linkRow\" rel=\"nofollow\">{label}</a>"
                );
            }
            html.push_str("</div>\n");
        }
        html.push_str("<div class=\"structItemContainer\">\n");
        for (group, threads) in [("--sticky", &view.stickies), ("", &view.threads)] {
            put!(
                html,
                "<div class=\"structItemContainer-group structItemContainer-group{group}\">\n"
            );
            for summary in threads.iter() {
                self.struct_item(html, summary, context);
            }
            html.push_str("</div>\n");
        }
        put!(
            html,
            "</div>\n</div>\n<div class=\"block-outer block-outer--after\">{navigator}{archive}\
             </div>\n"
        );
    }

    fn message(&self, html: &mut String, post: &PostView, context: &RenderContext<'_>) {
        let id = post.post;
        let author = escape(&post.author.name);
        let letter = post.author.name.chars().next().unwrap_or('?');
        let name = username(&post.author, context);
        let rank = user_title(post.author.posts);
        let joined = post.author.joined.map_or_else(String::new, |instant| {
            let local = context.local(instant);
            let (month, day, year) = (dates::short_month(local.month), local.day, local.year);
            format!("<dl class=\"pairs\"><dt>Joined</dt><dd>{month} {day}, {year}</dd></dl>")
        });
        let created = time(context, post.created, "", TimeText::Relative);
        let number = post.number;
        let (created, number) = match post.permalink.as_ref().map(|route| context.href(route)) {
            Some(href) => (
                format!("<a href=\"{href}\" class=\"u-concealed\" rel=\"nofollow\">{created}</a>"),
                format!("<a href=\"{href}\" rel=\"nofollow\">#{number}</a>"),
            ),
            None => (created, format!("#{number}")),
        };
        let paragraphs: Vec<String> = post.paragraphs.iter().map(|text| escape(text)).collect();
        let text = paragraphs.join("<br />\n");
        let signature = post
            .signature
            .as_deref()
            .map_or_else(String::new, |signature| {
                let signature = escape(signature);
                format!("<aside class=\"message-signature\">{signature}</aside>")
            });
        let message = button(
            &post.message,
            "actionBar-action",
            "Start conversation",
            context,
        );
        let quote = button(
            &post.quote,
            "actionBar-action actionBar-action--reply",
            "Reply",
            context,
        );
        put!(
            html,
            "<article class=\"message message--post js-post js-inlineModContainer\" \
             data-author=\"{author}\" data-content=\"post-{id}\" id=\"js-post-{id}\">\n\
             <div class=\"message-inner\"><div class=\"message-cell message-cell--user\">\
             <section class=\"message-user\"><div class=\"message-avatar\">\
             <span class=\"avatar avatar--m\">{letter}</span></div>\n\
             <div class=\"message-userDetails\"><h4 class=\"message-name\">{name}</h4>\
             <h5 class=\"userTitle message-userTitle\">{rank}</h5></div>\n\
             <div class=\"message-userExtras\">{joined}</div></section></div>\n\
             <div class=\"message-cell message-cell--main\"><div class=\"message-main\">\n\
             <header class=\"message-attribution message-attribution--split\">\
             <ul class=\"message-attribution-main listInline\"><li>{created}</li></ul>\
             <ul class=\"message-attribution-opposite listInline\"><li>{number}</li></ul>\
             </header>\n<div class=\"message-content js-messageContent\">\
             <div class=\"message-userContent lbContainer js-lbContainer\">\n\
             <article class=\"message-body js-selectToQuote\"><div class=\"bbWrapper\">{text}\
             </div></article>\n</div>\n{signature}</div>\n<footer class=\"message-footer\">\
             <div class=\"message-actionBar actionBar\">{message}{quote}</div></footer>\n\
             </div></div></div>\n</article>\n"
        );
    }

    fn messages(&self, html: &mut String, posts: &[PostView], context: &RenderContext<'_>) {
        html.push_str("<div class=\"block block--messages\"><div class=\"block-container\">\n");
        for post in posts {
            self.message(html, post, context);
        }
        html.push_str("</div></div>\n");
    }

    fn thread(&self, html: &mut String, view: &ThreadView, context: &RenderContext<'_>) {
        let navigator = self.page_nav(&view.pager, context);
        let print = button(&view.print, "button--link button", "Print", context);
        let reply = button(&view.reply, "button--cta button", "Reply", context);
        put!(
            html,
            "<div class=\"block-outer\">{navigator}{print}{reply}</div>\n"
        );
        self.messages(html, &view.posts, context);
        let forum = context.href(&Route::Board {
            board: view.board.0,
            page: 1,
        });
        let forum_name = escape(&view.board.1);
        let previous = button(
            &view.previous_thread,
            "threadNav-prev",
            "&larr; Previous thread",
            context,
        );
        let next = button(
            &view.next_thread,
            "threadNav-next",
            "Next thread &rarr;",
            context,
        );
        let archive = button(&view.archive, "button--link button", "Archive", context);
        put!(
            html,
            "<div class=\"block-outer block-outer--after\">{navigator}\
             <a href=\"{forum}\" class=\"button--link button\">{forum_name}</a></div>\n\
             <div class=\"block block--threadNav\">{previous} {next} {archive}</div>\n"
        );
    }

    /// The "Latest posts" sidebar widget.
    fn latest_posts(
        &self,
        html: &mut String,
        latest: &[ThreadSummary],
        context: &RenderContext<'_>,
    ) {
        if latest.is_empty() {
            return;
        }
        html.push_str(
            "<div class=\"block\" data-widget-key=\"forum_overview_new_posts\">\
             <h3 class=\"block-minorHeader\">Latest posts</h3>\n<ul class=\"block-body\">\n",
        );
        for summary in latest {
            let href = context.href(&summary.link);
            let title = escape(&summary.title);
            let poster = username(&summary.last_post.author, context);
            let latest = context.href(&summary.last_post.link);
            let date = time(context, summary.last_post.created, "", TimeText::Relative);
            let starter = username(&summary.author, context);
            let replies = summary.replies;
            let jump = page_jump(summary, context);
            put!(
                html,
                "<li class=\"block-row\"><div class=\"contentRow-main\">\
                 <a href=\"{href}\">{title}</a><div class=\"contentRow-minor\">Latest: {poster} \
                 &middot; <a href=\"{latest}\" rel=\"nofollow\">{date}</a></div>\
                 <div class=\"contentRow-minor\">Started by {starter} &middot; Replies: {replies}\
                 {jump}</div></div></li>\n"
            );
        }
        html.push_str("</ul></div>\n");
    }

    fn member(&self, html: &mut String, view: &ProfileView, context: &RenderContext<'_>) {
        let id = view.user.user;
        let name = escape(&view.user.name);
        let rank = user_title(view.user.posts);
        let posts = view.user.posts;
        let joined = time(context, view.joined, "", TimeText::DateOnly);
        let seen = view.last_visit.map_or_else(String::new, |instant| {
            let date = time(context, instant, "", TimeText::Relative);
            format!("<dl class=\"pairs pairs--inline\"><dt>Last seen</dt><dd>{date}</dd></dl>")
        });
        let conversation = button(
            &view.message,
            "button--link button",
            "Start conversation",
            context,
        );
        put!(
            html,
            "<div class=\"memberHeader\"><div class=\"memberHeader-content\">\
             <h1 class=\"memberHeader-name\"><span class=\"username\" data-user-id=\"{id}\">{name}\
             </span></h1><div class=\"memberHeader-blurb\">{rank}</div>\
             <div class=\"memberHeader-blurb\"><dl class=\"pairs pairs--inline\"><dt>Joined</dt>\
             <dd>{joined}</dd></dl>{seen}</div><dl class=\"pairs pairs--rows\"><dt>Messages</dt>\
             <dd>{posts}</dd></dl><div class=\"memberHeader-buttons\">{conversation}</div></div>\
             </div>\n<h2 class=\"block-tabHeader\">Postings</h2>\n<ul class=\"block-body\">\n"
        );
        for (route, title) in &view.recent_threads {
            let href = context.href(route);
            let title = escape(title);
            put!(
                html,
                "<li class=\"block-row\"><a href=\"{href}\">{title}</a></li>\n"
            );
        }
        html.push_str("</ul>\n");
    }

    fn member_list(&self, html: &mut String, view: &MemberListView, context: &RenderContext<'_>) {
        let navigator = self.page_nav(&view.pager, context);
        put!(html, "{navigator}<ol class=\"block-body memberList\">\n");
        for member in &view.members {
            let name = username(member, context);
            let rank = user_title(member.posts);
            let posts = member.posts;
            let joined = member.joined.map_or_else(String::new, |instant| {
                let date = time(context, instant, "", TimeText::DateOnly);
                format!("<li>Joined {date}</li>")
            });
            put!(
                html,
                "<li class=\"block-row block-row--separated\"><div class=\"contentRow-main\">\
                 <h3 class=\"contentRow-header\">{name}</h3><div class=\"contentRow-lesser\">{rank}\
                 </div><ul class=\"contentRow-minor listInline listInline--bullet\">\
                 <li>Messages: {posts}</li>{joined}</ul></div></li>\n"
            );
        }
        put!(html, "</ol>\n{navigator}");
    }

    fn calendar(&self, html: &mut String, view: &CalendarView, context: &RenderContext<'_>) {
        let name = |route: &Route| match *route {
            Route::Calendar { year, month } => {
                format!(
                    "{} {year}",
                    ENGLISH_MONTHS[(month as usize).clamp(1, 12) - 1]
                )
            }
            _ => String::new(),
        };
        let previous = context.href(&view.previous);
        let previous_name = name(&view.previous);
        let next = context.href(&view.next);
        let next_name = name(&view.next);
        let heading = name(&Route::Calendar {
            year: view.year,
            month: view.month,
        });
        put!(
            html,
            "<div class=\"block-outer\"><a href=\"{previous}\" class=\"button--link button\">\
             &larr; {previous_name}</a> <a href=\"{next}\" class=\"button--link button\">\
             {next_name} &rarr;</a></div>\n<h2 class=\"block-header\">{heading}</h2>\n\
             <ul class=\"block-body eventList\">\n"
        );
        for (day, route, title) in &view.events {
            let month = dates::short_month(view.month);
            let href = context.href(route);
            let title = escape(title);
            put!(
                html,
                "<li class=\"block-row\">{month} {day}: <a href=\"{href}\">{title}</a></li>\n"
            );
        }
        html.push_str("</ul>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FamilyName, HISTORY_END_SECONDS, Scale, Site, SiteConfig};

    fn site() -> Site {
        Site::build(SiteConfig::new(FamilyName::Xenforo, 7, Scale::Small))
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

    /// `{t}`, `{b}` and `{m}` in a URL stand for the right slugs of thread 5, board 2 and user 8.
    const CASES: &[&str] = &[
        "/ => Portal",
        "/index.php => Portal alias",
        "/threads/{t}.5/ => Thread { thread: 5, page: 1 }",
        "/threads/{t}.5/?utm_source=x => Thread { thread: 5, page: 1 }",
        "/threads/{t}.5/page-3 => Thread { thread: 5, page: 3 }",
        "/threads/{t}.5/page-1 => Thread { thread: 5, page: 1 } explicit",
        "/threads/wrong-slug.5/ => Thread { thread: 5, page: 1 } alias",
        "/threads/5/page-2 => Thread { thread: 5, page: 2 } alias",
        "/threads/{t}.5 => Thread { thread: 5, page: 1 } alias",
        "/threads/{t}.5/page-0 => None",
        "/threads/{t}.5/page-02 => None",
        "/threads/{t}.5/page-2/x => None",
        "/threads/{t}.5/print => Print { thread: 5 }",
        "/threads/{t}.5/reply => Action { kind: Reply, target: 5 }",
        "/forums/{b}.2/ => Board { board: 2, page: 1 }",
        "/forums/{b}.2/page-2 => Board { board: 2, page: 2 }",
        "/forums/{b}.2/page-2?order=title&direction=asc => Board { board: 2, page: 2 } sort=Title",
        "/forums/{b}.2/?order=reply_count => Board { board: 2, page: 1 } sort=Replies alias",
        "/forums/{b}.2/?order=last_post_date&direction=desc => Board { board: 2, page: 1 } alias",
        "/forums/{b}.2/?order=title => None",
        "/forums/{b}.2/?order=title&direction=desc => None",
        "/forums/{b}.2/?order=view_count => None",
        "/forums/{b}.2/post-thread => Action { kind: NewThread, target: 2 }",
        "/forums/x.y/ => None",
        "/posts/456/ => Post { post: 456 }",
        "/posts/456/quote => Action { kind: Quote, target: 456 }",
        "/posts/456/edit => None",
        "/posts/x/ => None",
        "/archive/forums/2/ => ArchiveBoard { board: 2 }",
        "/archive/threads/5/ => ArchiveThread { thread: 5 }",
        "/members/{m}.8/ => Profile { user: 8 }",
        "/members/someone-else.8/ => Profile { user: 8 } alias",
        "/members/list/ => MemberList { page: 1 }",
        "/members/list/?page=3 => MemberList { page: 3 }",
        "/members/list/?page=1 => MemberList { page: 1 } explicit",
        "/members/list/?page=0 => None",
        "/members/list/?page=x => None",
        "/events/2025-03/ => Calendar { year: 2025, month: 3 }",
        "/events/2025-3/ => None",
        "/events/ => None",
        "/whats-new/posts/?page=2 => Search { page: 2 }",
        "/login/ => Login { next: None }",
        "/login/?_xfRedirect=%2Fposts%2F4%2Fquote => Login { next: Some(\"/posts/4/quote\") }",
        "/conversations/add?to=12 => Action { kind: Message, target: 12 }",
        "/conversations/add => None",
        "/viewtopic.php?t=5 => None",
        "/threads/ => None",
        "/t/slug/5 => None",
    ];

    #[test]
    fn urls_decode_to_addresses() {
        let site = site();
        let thread = slugify(&site.thread_title(5));
        let board = slugify(&site.history().board(2).expect("board 2").name);
        let member = slugify(&text::user_name(7, 8));
        let check = |url: &str, expected: &str| {
            let url = url.replace("{t}", &thread).replace("{b}", &board);
            let url = url.replace("{m}", &member);
            assert_eq!(summary(site.address_of(&url)), expected, "{url}");
        };
        for case in CASES {
            let (url, expected) = case.split_once(" => ").expect("url => expected");
            check(url, expected);
        }
    }

    #[test]
    fn canonical_spellings() {
        let site = site();
        let url = |route| site.url_of(&Address::canonical(route));
        let thread = slugify(&site.thread_title(5));
        assert_eq!(
            url(Route::Thread { thread: 5, page: 2 }),
            format!("/threads/{thread}.5/page-2")
        );
        assert_eq!(url(Route::Post { post: 9 }), "/posts/9/");
        assert_eq!(
            url(Route::Calendar {
                year: 2025,
                month: 3
            }),
            "/events/2025-03/"
        );
        let next = Some("/a b?c".to_string());
        assert_eq!(url(Route::Login { next }), "/login/?_xfRedirect=/a%20b%3Fc");
    }

    #[test]
    fn relative_dates_follow_xenforo() {
        let site = site();
        let now = HISTORY_END_SECONDS - 3_600;
        let (history, family) = (site.history(), site.family());
        let context = RenderContext {
            history,
            family,
            now,
            session: None,
        };
        let shown = |age: i64| time(&context, now - age, "", TimeText::Relative);
        assert!(shown(30).ends_with(">A moment ago</time>"));
        assert!(shown(90).ends_with(">1 minute ago</time>"));
        assert!(shown(600).ends_with(">10 minutes ago</time>"));
        assert!(shown(7_200).ends_with(">Today at 9:00 PM</time>"));
        assert!(shown(7_200).contains("datetime=\"2025-12-31T21:00:00+0000\""));
        assert!(shown(86_400).ends_with(">Yesterday at 11:00 PM</time>"));
        assert!(shown(3 * 86_400).ends_with(">Sunday at 11:00 PM</time>"));
        assert!(shown(10 * 86_400).ends_with(">Dec 21, 2025</time>"));
        assert!(shown(10 * 86_400).contains("title=\"Dec 21, 2025 at 11:00 PM\""));
        assert_eq!(
            [short_number(999), short_number(1_250), short_number(3_000)],
            ["999", "1.2K", "3K"]
        );
    }

    #[test]
    fn pages_render_xenforo_markup() {
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
        let escaped: Vec<String> = paragraphs
            .iter()
            .map(|paragraph| escape(paragraph))
            .collect();
        let body = format!(
            "<div class=\"bbWrapper\">{}</div>",
            escaped.join("<br />\n")
        );
        assert!(page.contains(&body), "{body}");
        let post = format!("data-content=\"post-{first}\" id=\"js-post-{first}\"");
        let permalink = format!("<a href=\"/posts/{first}/\" class=\"u-concealed\"");
        for landmark in [
            "<article class=\"message message--post js-post",
            "<h4 class=\"message-name\"><a href=\"/members/",
            "<dt>Joined</dt>",
            "<time class=\"u-dt\" dir=\"auto\" datetime=\"",
            "class=\"pageNav-jump pageNav-jump--next\"",
            &post,
            &permalink,
        ] {
            assert!(page.contains(landmark), "{landmark}");
        }
        let board = serve(Route::Board { board: 1, page: 1 });
        for landmark in [
            "<div class=\"structItem structItem--thread js-inlineModContainer",
            "<div class=\"structItem-title\"><a href=\"/threads/",
            "<dl class=\"pairs pairs--justified\"><dt>Replies</dt><dd>",
            "<time class=\"structItem-latestDate u-dt\"",
            "data-widget-key=\"forum_overview_new_posts\"",
            "?order=title&amp;direction=asc",
        ] {
            assert!(board.contains(landmark), "{landmark}");
        }
    }
}
