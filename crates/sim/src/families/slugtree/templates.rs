//! The markup of a small Django forum: semantic sections and articles, Django's default date
//! format ("March 30, 2025, 10:11 p.m.") inside `<time datetime>`, plain numbered pagers.

use super::{Slugtree, ordering};
use crate::dates::{self, ENGLISH_MONTHS};
use crate::families::RenderContext;
use crate::families::skeleton::{
    self, ENGLISH, Kit, Words, numbered_pager, optional_link, post_text,
};
use crate::html::escape;
use crate::route::Route;
use crate::views::*;

/// The words of this forum's pages that the skeleton writes.
const WORDS: Words = Words {
    class: "sf",
    threads: "Threads started",
    login: "Sign in",
    members_only: "Please sign in to see this page.",
    ..ENGLISH
};

/// Django's default `DATETIME_FORMAT` inside a `<time>` element carrying the ISO instant.
fn when(instant: i64, context: &RenderContext<'_>) -> String {
    let offset = context.profile().utc_offset_seconds;
    let local = dates::local_time(instant, offset);
    let (hour, pm) = dates::twelve_hour(local.hour);
    let meridiem = if pm { "p.m." } else { "a.m." };
    let clock = match local.minute {
        0 => format!("{hour}"),
        minute => format!("{hour}:{minute:02}"),
    };
    format!(
        "<time datetime=\"{}\">{} {}, {}, {clock} {meridiem}</time>",
        dates::iso8601(instant, offset),
        ENGLISH_MONTHS[local.month as usize - 1],
        local.day,
        local.year
    )
}

/// A user's name: linked when profiles exist.
fn user_link(user: &UserCard, context: &RenderContext<'_>) -> String {
    let name = escape(&user.name);
    match &user.profile {
        Some(route) => format!(
            "<a class=\"user\" href=\"{}\">{name}</a>",
            context.href(route)
        ),
        None => format!("<span class=\"user\">{name}</span>"),
    }
}

impl Slugtree {
    pub(super) fn render_page(&self, page: &Page, context: &RenderContext<'_>) -> String {
        let mut html = String::with_capacity(24 * 1024);
        let chrome = &page.chrome;
        let forum = escape(&chrome.forum_name);
        let heading = escape(&chrome.title);
        put!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>{heading} · {forum}</title>\n</head>\n<body>\n<header class=\"site-header\">\
             <a class=\"brand\" href=\"{}\">{forum}</a>\n<nav class=\"site-nav\">",
            context.href(&chrome.navigation.portal)
        );
        let navigation = &chrome.navigation;
        skeleton::menu_links(
            &mut html,
            &[
                (navigation.members.as_ref(), "Members"),
                (navigation.search.as_ref(), "New posts"),
                (navigation.calendar.as_ref(), "Calendar"),
                (Some(&navigation.login), "Sign in"),
            ],
            (" ", ""),
            context,
        );
        html.push_str("</nav>\n");
        if let Some(instant) = chrome.last_visit {
            put!(
                html,
                "<p class=\"last-visit\">Last visit: {}</p>\n",
                when(instant, context)
            );
        }
        html.push_str("</header>\n");
        if let Some(advertisement) = chrome.advertisement {
            put!(
                html,
                "<aside class=\"promo\"><a href=\"https://ads.example.net/sf/{}\">{}</a></aside>\n",
                advertisement.len(),
                escape(advertisement)
            );
        }
        html.push_str("<main>\n<nav class=\"crumbs\">");
        for (route, label) in &chrome.breadcrumbs {
            put!(
                html,
                "<a href=\"{}\">{}</a> › ",
                context.href(route),
                escape(label)
            );
        }
        put!(html, "<span>{heading}</span></nav>\n");
        let user = |card: &UserCard| user_link(card, context);
        let date = |instant: i64| when(instant, context);
        let kit = Kit {
            context,
            user: &user,
            date: &date,
            words: &WORDS,
        };
        match &page.body {
            Body::Portal(view) => self.portal(&mut html, view, &kit),
            Body::Board(view) => self.board(&mut html, view, &kit),
            Body::Thread(view) => self.thread(&mut html, view, &kit),
            Body::SinglePost(view) => {
                put!(
                    html,
                    "<h1><a href=\"{}\">{}</a></h1>\n",
                    context.href(&view.in_thread),
                    escape(&view.thread.1)
                );
                self.post(&mut html, &view.post, &kit);
            }
            Body::Print(view) | Body::ArchiveThread(view) => {
                put!(
                    html,
                    "<h1><a href=\"{}\">{}</a></h1>\n",
                    context.href(&view.original),
                    escape(&view.title)
                );
                for post in &view.posts {
                    self.post(&mut html, post, &kit);
                }
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
                format!(
                    " Welcome to our newest member, {}.",
                    user_link(member, context)
                )
            });
        let clock = chrome.clock.map_or_else(String::new, |instant| {
            format!(" Server time: {}.", when(instant, context))
        });
        put!(
            html,
            "</main>\n<footer><p>{} threads, {} posts, {} members.{newest}{clock}</p></footer>\n\
             </body>\n</html>\n",
            footer.threads,
            footer.posts,
            footer.members
        );
        html
    }

    fn latest(&self, html: &mut String, latest: &[ThreadSummary], kit: &Kit<'_, '_>) {
        if latest.is_empty() {
            return;
        }
        html.push_str("<aside class=\"latest\"><h2>Latest activity</h2><ul>\n");
        for summary in latest {
            put!(
                html,
                "<li><a href=\"{}\">{}</a> — {}</li>\n",
                kit.context.href(&summary.link),
                escape(&summary.title),
                when(summary.last_post.created, kit.context)
            );
        }
        html.push_str("</ul></aside>\n");
    }

    fn portal(&self, html: &mut String, view: &PortalView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        for category in &view.categories {
            put!(
                html,
                "<section class=\"category\"><h2>{}</h2>\n",
                escape(&category.name)
            );
            for board in &category.boards {
                let last = board.last_post.as_ref().map_or_else(String::new, |last| {
                    format!(
                        "<p class=\"last\">Last post in <a href=\"{}\">{}</a> by {}, {}</p>",
                        context.href(&last.link),
                        escape(&last.thread_title),
                        user_link(&last.author, context),
                        when(last.created, context)
                    )
                });
                put!(
                    html,
                    "<div class=\"board-row\"><h3><a href=\"{}\">{}</a></h3>\
                     <p class=\"counts\">{} threads · {} posts</p>{last}</div>\n",
                    context.href(&board.link),
                    escape(&board.name),
                    board.threads,
                    board.posts
                );
            }
            html.push_str("</section>\n");
        }
        self.latest(html, &view.latest, kit);
    }

    fn board(&self, html: &mut String, view: &BoardView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let create = optional_link(&view.new_thread, "button", "Start a thread", context);
        let archive = optional_link(&view.archive, "archive", "All threads", context);
        put!(
            html,
            "<h1>{}</h1>\n<div class=\"board-actions\">{create}{archive}</div>\n",
            escape(&view.name)
        );
        if !view.sort_links.is_empty() {
            html.push_str("<form class=\"ordering\">Order by:");
            for (sort, address) in &view.sort_links {
                put!(
                    html,
                    " <a href=\"{}\">{}</a>",
                    context.href_address(address.clone()),
                    ordering(*sort).trim_start_matches('-').replace('_', " ")
                );
            }
            html.push_str("</form>\n");
        }
        html.push_str(
            "<table class=\"thread-list\">\n<thead><tr><th>Thread</th><th>Started by</th>\
             <th>Replies</th><th>Views</th><th>Last post</th></tr></thead>\n<tbody>\n",
        );
        for summary in view.stickies.iter().chain(&view.threads) {
            let sticky = if summary.sticky {
                " class=\"sticky\""
            } else {
                ""
            };
            let pages: String = summary
                .page_links
                .iter()
                .map(|(number, route)| format!(" <a href=\"{}\">{number}</a>", context.href(route)))
                .collect();
            let pages = match pages.is_empty() {
                true => pages,
                false => format!(" <small class=\"pages\">Pages:{pages}</small>"),
            };
            put!(
                html,
                "<tr{sticky}><td><a href=\"{}\">{}</a>{pages}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td><a href=\"{}\">{}</a> by {}</td></tr>\n",
                context.href(&summary.link),
                escape(&summary.title),
                user_link(&summary.author, context),
                summary.replies,
                summary.views,
                context.href(&summary.last_post.link),
                when(summary.last_post.created, context),
                user_link(&summary.last_post.author, context)
            );
        }
        html.push_str("</tbody>\n</table>\n");
        html.push_str(&numbered_pager(&view.pager, "pagination", kit));
        self.latest(html, &view.latest, kit);
    }

    fn post(&self, html: &mut String, post: &PostView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let number = match &post.permalink {
            Some(route) => format!("<a href=\"{}\">#{}</a>", context.href(route), post.number),
            None => format!("#{}", post.number),
        };
        let joined = post.author.joined.map_or_else(String::new, |instant| {
            format!(
                "<span class=\"joined\">Member since {}</span>",
                when(instant, context)
            )
        });
        let signature = post.signature.as_deref().map_or_else(String::new, |text| {
            format!("<footer class=\"signature\">{}</footer>\n", escape(text))
        });
        let quote = optional_link(&post.quote, "quote", "Quote", context);
        let message = optional_link(&post.message, "pm", "Message", context);
        put!(
            html,
            "<article class=\"post\" id=\"post-{}\">\n<header>{} {joined} {} {number}</header>\n\
             <div class=\"post-body\">\n{}</div>\n{signature}<div class=\"post-tools\">{quote}\
             {message}</div>\n</article>\n",
            post.number,
            user_link(&post.author, context),
            when(post.created, context),
            post_text(post, context)
        );
    }

    fn thread(&self, html: &mut String, view: &ThreadView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        put!(html, "<h1>{}</h1>\n", escape(&view.title));
        let pages = numbered_pager(&view.pager, "pagination", kit);
        html.push_str(&pages);
        for post in &view.posts {
            self.post(html, post, kit);
        }
        html.push_str(&pages);
        let reply = optional_link(&view.reply, "button", "Reply", context);
        let print = optional_link(&view.print, "print", "Printable version", context);
        let archive = optional_link(&view.archive, "archive", "Plain view", context);
        let previous = optional_link(&view.previous_thread, "previous", "« Older thread", context);
        let next = optional_link(&view.next_thread, "next", "Newer thread »", context);
        let board = Route::Board {
            board: view.board.0,
            page: 1,
        };
        put!(
            html,
            "<div class=\"thread-tools\">{reply}{print}{archive}</div>\n<nav class=\"neighbours\">\
             {previous}{next}<a href=\"{}\">Back to {}</a></nav>\n",
            context.href(&board),
            escape(&view.board.1)
        );
    }
}
