//! Discourse's page frame: the crawler view's document, `<time>` elements and shared pieces.

use super::Discourse;
use crate::dates::{self, ENGLISH_MONTHS};
use crate::families::RenderContext;
use crate::html::escape;
use crate::route::Route;
use crate::views::*;

impl Discourse {
    /// Writes `page` as a whole HTML document.
    pub(super) fn render_page(&self, page: &Page, context: &RenderContext<'_>) -> String {
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
pub(super) enum DateStyle {
    /// "March 30, 2025, 10:11pm", the crawler view's post times.
    Long,
    /// "March 30, 2025", for join dates.
    DateOnly,
    /// "2025-03-31 06:11:05 UTC", the raw export's post headers.
    RawUtc,
}

/// A `<time>` element with the absolute instant in `datetime` and the text in `style`;
/// `attributes` goes into the tag as it is.
pub(super) fn time(
    context: &RenderContext<'_>,
    instant: i64,
    attributes: &str,
    style: DateStyle,
) -> String {
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
pub(super) fn user_link(user: &UserCard, role: &str, context: &RenderContext<'_>) -> String {
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
pub(super) fn button(
    route: &Option<Route>,
    class: &str,
    label: &str,
    context: &RenderContext<'_>,
) -> String {
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
pub(super) fn page_links(summary: &ThreadSummary, context: &RenderContext<'_>) -> String {
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
pub(super) fn pager(pager: &Pager, class: &str, context: &RenderContext<'_>) -> String {
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
