//! XenForo's page frame: the document around each body, `<time>` elements and shared pieces.

use super::Xenforo;
use crate::dates::{self, ENGLISH_WEEKDAYS};
use crate::families::RenderContext;
use crate::html::escape;
use crate::route::Route;
use crate::views::*;

impl Xenforo {
    /// Writes `page` as a whole HTML document.
    pub(super) fn render_page(&self, page: &Page, context: &RenderContext<'_>) -> String {
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
    pub(super) fn page_nav(&self, pager: &Pager, context: &RenderContext<'_>) -> String {
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
}

/// How the visible text of a `<time>` element is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TimeText {
    /// Relative to the request: "Today at 10:11 PM" and so on.
    Relative,
    /// The date alone: "Mar 30, 2025".
    DateOnly,
    /// Date and time: "Mar 30, 2025 at 10:11 PM".
    Full,
}

/// XenForo's `<time class="u-dt">` element for `instant`.
pub(super) fn time(
    context: &RenderContext<'_>,
    instant: i64,
    class: &str,
    text: TimeText,
) -> String {
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
pub(super) fn short_number(number: u32) -> String {
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
pub(super) fn user_title(posts: u32) -> &'static str {
    match posts {
        0..=4 => "New member",
        5..=29 => "Member",
        30..=99 => "Active member",
        _ => "Well-known member",
    }
}

pub(super) fn username(user: &UserCard, context: &RenderContext<'_>) -> String {
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
    format!("<a href=\"{href}\" class=\"{class}\"{rel}>{label}</a>")
}

/// The small page links of a thread entry ("2 3 4 9").
pub(super) fn page_jump(summary: &ThreadSummary, context: &RenderContext<'_>) -> String {
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
