//! YaBB's table layout: `bordercolor` tables, `titlebg`/`windowbg` cells, one post over three
//! rows, names in bold but never linked beside posts, ordinal dates.

use super::{Yabb, sort_key};
use crate::dates::{self, short_month};
use crate::families::RenderContext;
use crate::families::skeleton::{
    self, ENGLISH, Kit, Words, numbered_pager, optional_link, post_text,
};
use crate::html::escape;
use crate::route::Route;
use crate::views::*;

/// The words of YaBB's pages that the skeleton writes.
const WORDS: Words = Words {
    class: "yabb",
    members: "Member List",
    threads: "Latest threads",
    login: "Login",
    members_only: "Only members may do this. Please log in or register.",
    not_found: "An Error Has Occurred! The topic or board you are looking for appears to be \
                either missing or off limits to you.",
    ..ENGLISH
};

/// "Mar 30<sup>th</sup>, 2025, 10:11pm".
fn yabb_date(instant: i64, context: &RenderContext<'_>) -> String {
    let local = context.local(instant);
    let suffix = match (local.day % 10, local.day % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    let (hour, pm) = dates::twelve_hour(local.hour);
    format!(
        "{} {}<sup>{suffix}</sup>, {}, {hour}:{:02}{}",
        short_month(local.month),
        local.day,
        local.year,
        local.minute,
        if pm { "pm" } else { "am" }
    )
}

/// A user's name as the member list links it (posts show it unlinked).
fn listed_user(user: &UserCard, context: &RenderContext<'_>) -> String {
    let name = escape(&user.name);
    match &user.profile {
        Some(route) => format!("<a href=\"{}\">{name}</a>", context.href(route)),
        None => name,
    }
}

impl Yabb {
    pub(super) fn render_page(&self, page: &Page, context: &RenderContext<'_>) -> String {
        let mut html = String::with_capacity(24 * 1024);
        let chrome = &page.chrome;
        let forum = escape(&chrome.forum_name);
        let heading = escape(&chrome.title);
        put!(
            html,
            "<html>\n<head>\n<meta http-equiv=\"Content-Type\" content=\"text/html; \
             charset=windows-1252\">\n<title>{forum} - {heading}</title>\n</head>\n\
             <body bgcolor=\"#FFFFFF\">\n<table class=\"menubg\" width=\"100%\" cellpadding=\"4\">\
             <tr><td class=\"title\"><font size=\"5\"><b>{forum}</b></font></td>\
             <td class=\"menubg\" align=\"right\">"
        );
        let navigation = &chrome.navigation;
        skeleton::menu_links(
            &mut html,
            &[
                (Some(&navigation.portal), "Home"),
                (navigation.search.as_ref(), "Recent"),
                (navigation.calendar.as_ref(), "Calendar"),
                (navigation.members.as_ref(), "Members"),
                (Some(&navigation.login), "Login"),
            ],
            ("", " | "),
            context,
        );
        html.push_str("</td></tr>\n");
        if let Some(instant) = chrome.clock {
            put!(
                html,
                "<tr><td class=\"small\" colspan=\"2\">Welcome, Guest. Please login or register. \
                 {}</td></tr>\n",
                yabb_date(instant, context)
            );
        }
        if let Some(instant) = chrome.last_visit {
            put!(
                html,
                "<tr><td class=\"small\" colspan=\"2\">Your last visit: {}</td></tr>\n",
                yabb_date(instant, context)
            );
        }
        html.push_str("</table>\n");
        if let Some(advertisement) = chrome.advertisement {
            put!(
                html,
                "<center><a href=\"https://ads.example.net/yabb?b={}\">{}</a></center>\n",
                advertisement.len(),
                escape(advertisement)
            );
        }
        html.push_str("<div class=\"nav\"><b>");
        for (route, label) in &chrome.breadcrumbs {
            put!(
                html,
                "<a href=\"{}\" class=\"nav\">{}</a> &raquo; ",
                context.href(route),
                escape(label)
            );
        }
        put!(html, "{heading}</b></div>\n");
        let user = |card: &UserCard| listed_user(card, context);
        let date = |instant: i64| yabb_date(instant, context);
        let kit = Kit {
            context,
            user: &user,
            date: &date,
            words: &WORDS,
        };
        match &page.body {
            Body::Portal(view) => self.portal(&mut html, view, context),
            Body::Board(view) => self.board(&mut html, view, &kit),
            Body::Thread(view) => self.thread(&mut html, view, &kit),
            Body::SinglePost(view) => self.posts(
                &mut html,
                &view.thread.1,
                std::slice::from_ref(&view.post),
                context,
            ),
            Body::Print(view) | Body::ArchiveThread(view) => {
                self.posts(&mut html, &view.title, &view.posts, context)
            }
            other => {
                skeleton::other_page(&mut html, other, &kit);
            }
        }
        let footer = &chrome.footer;
        let newest = footer
            .newest_member
            .as_ref()
            .map_or_else(String::new, |member| {
                format!(" Newest member: {}.", listed_user(member, context))
            });
        put!(
            html,
            "<table class=\"bordercolor\" width=\"100%\"><tr><td class=\"small\" \
             align=\"center\">{} Posts in {} Topics by {} Members.{newest}<br>\
             <a href=\"http://www.yabbforum.com\">YaBB 2.5</a></td></tr></table>\n</body>\n\
             </html>\n",
            footer.posts,
            footer.threads,
            footer.members
        );
        html
    }

    fn portal(&self, html: &mut String, view: &PortalView, context: &RenderContext<'_>) {
        html.push_str(
            "<table class=\"bordercolor\" width=\"100%\" cellspacing=\"1\" cellpadding=\"4\">\n\
             <tr><td class=\"titlebg\">Board</td><td class=\"titlebg\">Topics</td>\
             <td class=\"titlebg\">Posts</td><td class=\"titlebg\">Last Post</td></tr>\n",
        );
        for category in &view.categories {
            put!(
                html,
                "<tr><td class=\"catbg\" colspan=\"4\"><b>{}</b></td></tr>\n",
                escape(&category.name)
            );
            for board in &category.boards {
                let last = board.last_post.as_ref().map_or_else(String::new, |last| {
                    format!(
                        "{}<br>by {}<br><a href=\"{}\">{}</a>",
                        yabb_date(last.created, context),
                        escape(&last.author.name),
                        context.href(&last.link),
                        escape(&last.thread_title)
                    )
                });
                put!(
                    html,
                    "<tr><td class=\"windowbg\"><a href=\"{}\"><b>{}</b></a></td>\
                     <td class=\"windowbg2\">{}</td><td class=\"windowbg2\">{}</td>\
                     <td class=\"windowbg2 small\">{last}</td></tr>\n",
                    context.href(&board.link),
                    escape(&board.name),
                    board.threads,
                    board.posts
                );
            }
        }
        html.push_str("</table>\n");
        if !view.latest.is_empty() {
            html.push_str(
                "<table class=\"bordercolor\" width=\"100%\"><tr><td class=\"titlebg\">\
                           Recent Posts</td></tr>\n",
            );
            for summary in &view.latest {
                put!(
                    html,
                    "<tr><td class=\"windowbg small\"><a href=\"{}\">{}</a> {}</td></tr>\n",
                    context.href(&summary.link),
                    escape(&summary.title),
                    yabb_date(summary.last_post.created, context)
                );
            }
            html.push_str("</table>\n");
        }
    }

    fn board(&self, html: &mut String, view: &BoardView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let pages = numbered_pager(&view.pager, "pages", kit);
        let create = optional_link(&view.new_thread, "", "Start new thread", context);
        let archive = optional_link(&view.archive, "", "Archive", context);
        let sorts: String = view
            .sort_links
            .iter()
            .map(|(sort, address)| {
                format!(
                    " <a href=\"{}\">{}</a>",
                    context.href_address(address.clone()),
                    sort_key(*sort)
                )
            })
            .collect();
        put!(
            html,
            "<table width=\"100%\"><tr><td class=\"small\">Pages: {pages}</td>\
             <td align=\"right\">{create}{archive}</td></tr></table>\n\
             <table class=\"bordercolor\" width=\"100%\" cellspacing=\"1\" cellpadding=\"4\">\n\
             <tr><td class=\"titlebg\">Subject</td><td class=\"titlebg\">Started by</td>\
             <td class=\"titlebg\">Replies</td><td class=\"titlebg\">Views</td>\
             <td class=\"titlebg\">Last post{sorts}</td></tr>\n"
        );
        for summary in view.stickies.iter().chain(&view.threads) {
            let sticky = if summary.sticky {
                "<b>Sticky:</b> "
            } else {
                ""
            };
            let page_links: String = summary
                .page_links
                .iter()
                .map(|(number, route)| format!(" <a href=\"{}\">{number}</a>", context.href(route)))
                .collect();
            put!(
                html,
                "<tr><td class=\"windowbg\">{sticky}<a href=\"{}\">{}</a><span class=\"small\">\
                 {page_links}</span></td><td class=\"windowbg2\">{}</td><td class=\"windowbg\">{}\
                 </td><td class=\"windowbg\">{}</td><td class=\"windowbg2 small\">{}<br>by {}</td>\
                 </tr>\n",
                context.href(&summary.link),
                escape(&summary.title),
                escape(&summary.author.name),
                summary.replies,
                summary.views,
                yabb_date(summary.last_post.created, context),
                escape(&summary.last_post.author.name)
            );
        }
        put!(
            html,
            "</table>\n<div class=\"small\">Pages: {pages}</div>\n"
        );
    }

    /// Posts, each over three rows: the name, the text, the date and links.
    fn posts(
        &self,
        html: &mut String,
        title: &str,
        posts: &[PostView],
        context: &RenderContext<'_>,
    ) {
        put!(
            html,
            "<table class=\"bordercolor\" width=\"100%\" cellspacing=\"1\" cellpadding=\"4\">\n\
             <tr><td class=\"titlebg\" colspan=\"2\">Topic: {}</td></tr>\n",
            escape(title)
        );
        for post in posts {
            let joined = post.author.joined.map_or_else(String::new, |instant| {
                format!("<br>Registered: {}", yabb_date(instant, context))
            });
            let what = match post.number {
                1 => "Posted".to_string(),
                number => format!("Reply #{}", number - 1),
            };
            let permalink = optional_link(&post.permalink, "", "Link", context);
            let quote = optional_link(&post.quote, "", "Quote", context);
            let message = optional_link(&post.message, "", "PM", context);
            let signature = post.signature.as_deref().map_or_else(String::new, |text| {
                format!(
                    "<hr width=\"100%\" size=\"1\"><div class=\"signature\">{}</div>",
                    escape(text)
                )
            });
            put!(
                html,
                "<tr><td class=\"windowbg2\" colspan=\"2\"><b>{}</b> <span class=\"small\">\
                 Posts: {}{joined}</span></td></tr>\n<tr><td class=\"windowbg\" colspan=\"2\">\
                 <div class=\"message\">{}</div>{signature}</td></tr>\n\
                 <tr><td class=\"windowbg2 small\">&laquo; {what} on: {} &raquo;</td>\
                 <td class=\"windowbg2 small\" align=\"right\">{permalink}{quote}{message}</td></tr>\n",
                escape(&post.author.name),
                post.author.posts,
                post_text(post, context),
                yabb_date(post.created, context)
            );
        }
        html.push_str("</table>\n");
    }

    fn thread(&self, html: &mut String, view: &ThreadView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let pages = numbered_pager(&view.pager, "pages", kit);
        let previous = optional_link(&view.previous_thread, "", "&laquo; previous", context);
        let next = optional_link(&view.next_thread, "", "next &raquo;", context);
        let reply = optional_link(&view.reply, "", "Reply", context);
        let print = optional_link(&view.print, "", "Print", context);
        let archive = optional_link(&view.archive, "", "Archive", context);
        let board = Route::Board {
            board: view.board.0,
            page: 1,
        };
        put!(
            html,
            "<table width=\"100%\"><tr><td class=\"small\">Pages: {pages}</td>\
             <td align=\"right\" class=\"small\">{previous}{next}{reply}{print}{archive}</td></tr>\
             </table>\n"
        );
        self.posts(html, &view.title, &view.posts, context);
        put!(
            html,
            "<div class=\"small\">Pages: {pages}</div>\n<a href=\"{}\">&laquo; {}</a>\n",
            context.href(&board),
            escape(&view.board.1)
        );
    }
}
