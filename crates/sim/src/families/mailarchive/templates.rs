//! The markup of a list archive: a plain frame, indexes as nested `<ul>` trees of message links
//! (or a flat list by date), and message pages with a navigation bar, a From/Date/Subject
//! header list, the body in `<pre>` (plain mails) or paragraphs (HTML mails) and the
//! follow-ups that answer it.

use super::{Mailarchive, index_name};
use crate::dates::{self, ENGLISH_WEEKDAYS, short_month};
use crate::families::RenderContext;
use crate::families::skeleton::{self, ENGLISH, Kit, Words, numbered_pager, optional_link};
use crate::history::ForumHistory;
use crate::html::escape;
use crate::random::mix;
use crate::route::{Address, Route, SortOrder};
use crate::text;
use crate::views::*;

/// The words of the archive's pages that the skeleton writes.
const WORDS: Words = Words {
    class: "mm",
    members: "Authors",
    posts: "Messages",
    threads: "Threads started",
    login: "List administration",
    members_only: "This list's private pages need a list password.",
    not_found: "No such message or index in this archive.",
    search: "Messages found",
    previous: "Prev Page",
    next: "Next Page",
    ..ENGLISH
};

/// How far "Date Prev/Next" looks for the list's neighbouring message, in message ids.
const DATE_NEIGHBOUR_REACH: u32 = 4_000;

/// A mail header's date: `Sun, 30 Mar 2025 22:11:05 +0000`.
fn mail_date(instant: i64) -> String {
    let local = dates::local_time(instant, 0);
    format!(
        "{}, {:02} {} {} {:02}:{:02}:{:02} +0000",
        &ENGLISH_WEEKDAYS[local.weekday as usize][..3],
        local.day,
        short_month(local.month),
        local.year,
        local.hour,
        local.minute,
        local.second
    )
}

/// An index's short date: `Mar 30 2025, 22:11`.
fn index_date(instant: i64) -> String {
    let local = dates::local_time(instant, 0);
    format!(
        "{} {:02} {}, {:02}:{:02}",
        short_month(local.month),
        local.day,
        local.year,
        local.hour,
        local.minute
    )
}

/// A sender's address as archives mangle it against harvesters.
fn mangled_address(name: &str) -> String {
    format!("{} at lists.example.org", name.to_lowercase())
}

/// The subject of a thread's `number`-th message (1-based): replies carry `Re: `.
fn subject(title: &str, number: usize) -> String {
    match number {
        1 => title.to_string(),
        _ => format!("Re: {title}"),
    }
}

/// Whether a message was sent as HTML (its body shown as paragraphs) rather than plain text.
fn sent_as_html(history: &ForumHistory, post: u32) -> bool {
    mix(history.seed, u64::from(post) ^ 0x6d61_696c).is_multiple_of(4)
}

/// The message route of post `post` (its place in its thread).
fn message_route(history: &ForumHistory, post: u32) -> Route {
    let thread = history.post(post).map_or(0, |record| record.thread);
    let index = history
        .thread_posts(thread)
        .binary_search(&post)
        .unwrap_or(0);
    Route::Thread {
        thread,
        page: index as u32 + 1,
    }
}

impl Mailarchive {
    pub(super) fn render_page(&self, page: &Page, context: &RenderContext<'_>) -> String {
        let mut html = String::with_capacity(16 * 1024);
        let chrome = &page.chrome;
        let forum = escape(&chrome.forum_name);
        // A message's page is titled by its subject, as MHonArc and pipermail title it: a
        // reply's says "Re: ", so the pages of one thread differ in title by that marker.
        let heading = match &page.body {
            Body::Thread(view) => view.posts.first().map_or_else(
                || escape(&chrome.title),
                |post| escape(&subject(&view.title, post.number as usize)),
            ),
            _ => escape(&chrome.title),
        };
        put!(
            html,
            "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">\n<html>\n<head>\n\
             <meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">\n\
             <title>{heading}</title>\n</head>\n<body>\n<div class=\"masthead\">\
             <a href=\"{}\">{forum} mailing lists</a>",
            context.href(&chrome.navigation.portal)
        );
        let navigation = &chrome.navigation;
        skeleton::menu_links(
            &mut html,
            &[
                (navigation.search.as_ref(), "Search"),
                (navigation.members.as_ref(), "Authors"),
                (navigation.calendar.as_ref(), "By month"),
                (Some(&navigation.login), "Admin"),
            ],
            (" | ", ""),
            context,
        );
        html.push_str("</div>\n");
        // Archive hosts that live on advertising show a sponsor line above the archive.
        if let Some(advertisement) = chrome.advertisement {
            put!(
                html,
                "<div class=\"sponsor\"><a href=\"https://ads.example.net/lists?l={}\">{}</a></div>\n",
                advertisement.len(),
                escape(advertisement)
            );
        }
        if !chrome.breadcrumbs.is_empty() {
            html.push_str("<p class=\"crumbs\">");
            for (route, label) in &chrome.breadcrumbs {
                put!(
                    html,
                    "<a href=\"{}\">{}</a> &gt; ",
                    context.href(route),
                    escape(label)
                );
            }
            html.push_str("</p>\n");
        }
        let user = |card: &UserCard| escape(&card.name);
        let date = |instant: i64| index_date(instant);
        let kit = Kit {
            context,
            user: &user,
            date: &date,
            words: &WORDS,
        };
        match &page.body {
            Body::Portal(view) => self.portal(&mut html, &heading, view, context),
            Body::Board(view) => self.index(&mut html, view, &kit),
            Body::Thread(view) => self.message_page(&mut html, view, context),
            Body::SinglePost(view) => {
                put!(html, "<h1>{}</h1>\n", escape(&view.thread.1));
                self.message(&mut html, &view.thread.1, &view.post, context);
            }
            Body::Print(view) | Body::ArchiveThread(view) => {
                put!(html, "<h1>{}</h1>\n", escape(&view.title));
                for post in &view.posts {
                    self.message(&mut html, &view.title, post, context);
                    html.push_str("<hr>\n");
                }
            }
            other => {
                skeleton::other_page(&mut html, other, &kit);
            }
        }
        put!(
            html,
            "<hr>\n<address>{} messages in {} threads from {} authors. Archive generated by \
             listarc 2.6.</address>\n</body>\n</html>\n",
            chrome.footer.posts,
            chrome.footer.threads,
            chrome.footer.members
        );
        html
    }

    /// The archive index: one row per list with its views.
    fn portal(
        &self,
        html: &mut String,
        heading: &str,
        view: &PortalView,
        context: &RenderContext<'_>,
    ) {
        put!(
            html,
            "<h1>{heading}</h1>\n<p>Archives of the public lists.</p>\n"
        );
        for category in &view.categories {
            put!(
                html,
                "<h2>{}</h2>\n<table class=\"lists\" border=\"1\" cellpadding=\"3\">\n<tr>\
                 <th>List</th><th>Messages</th><th>Last message</th><th>Views</th></tr>\n",
                escape(&category.name)
            );
            for board in &category.boards {
                let views: String = [SortOrder::Created, SortOrder::Author]
                    .into_iter()
                    .map(|sort| {
                        format!(
                            " [<a href=\"{}\">{}</a>]",
                            context.href_sorted(&board.link, sort, false),
                            index_name(sort)
                        )
                    })
                    .collect();
                let last = board
                    .last_post
                    .as_ref()
                    .map_or_else(String::new, |last| index_date(last.created));
                put!(
                    html,
                    "<tr><td><a href=\"{}\"><strong>{}</strong></a></td><td>{}</td><td>{last}</td>\
                     <td>[<a href=\"{}\">thread</a>]{views}</td></tr>\n",
                    context.href(&board.link),
                    escape(&board.name),
                    board.posts,
                    context.href(&board.link)
                );
            }
            html.push_str("</table>\n");
        }
    }

    /// A list index: by thread (a tree of each thread's messages) in every order but date,
    /// where the messages of the page's threads are listed one by one, newest first.
    fn index(&self, html: &mut String, view: &BoardView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let history = context.history;
        let order = match view.sort {
            SortOrder::LastPost => "thread",
            sort => index_name(sort),
        };
        put!(
            html,
            "<h1>{} archive by {order}</h1>\n<p class=\"views\">Messages sorted by:",
            escape(&view.name)
        );
        for (sort, address) in &view.sort_links {
            let label = match sort {
                SortOrder::LastPost => "thread",
                other => index_name(*other),
            };
            put!(
                html,
                " [<a href=\"{}\">{label}</a>]",
                context.href_address(address.clone())
            );
        }
        html.push_str("</p>\n");
        let pager = numbered_pager(&view.pager, "pages", kit);
        if view.pager.total > 1 {
            put!(
                html,
                "<p>Page {} of {}</p>\n{pager}",
                view.pager.current,
                view.pager.total
            );
        }
        let threads: Vec<&ThreadSummary> = view.stickies.iter().chain(&view.threads).collect();
        if view.sort == SortOrder::Created {
            let mut messages: Vec<(i64, u32, &str)> = Vec::new();
            for summary in &threads {
                for &post in history.thread_posts_at(summary.thread, context.now) {
                    let created = history.post(post).map_or(0, |record| record.created);
                    messages.push((created, post, summary.title.as_str()));
                }
            }
            messages.sort_by_key(|&(created, post, _)| std::cmp::Reverse((created, post)));
            html.push_str("<ul class=\"bydate\">\n");
            for (created, post, title) in messages {
                self.index_line(html, post, title, created, context);
                html.push_str("</li>\n");
            }
            html.push_str("</ul>\n");
        } else {
            html.push_str("<ul class=\"bythread\">\n");
            for summary in &threads {
                let posts = history.thread_posts_at(summary.thread, context.now);
                if let Some(&first) = posts.first() {
                    self.tree(html, first, posts, &summary.title, context);
                }
            }
            html.push_str("</ul>\n");
        }
        html.push_str(&pager);
        put!(
            html,
            "{}",
            optional_link(&view.new_thread, "post", "Post to this list", context)
        );
        put!(
            html,
            "{}",
            optional_link(&view.archive, "flat", "All subjects on one page", context)
        );
    }

    /// One index line: the message's subject as a link, its sender and date; the `<li>` is
    /// left open for the replies nested under it.
    fn index_line(
        &self,
        html: &mut String,
        post: u32,
        title: &str,
        created: i64,
        context: &RenderContext<'_>,
    ) {
        let history = context.history;
        let route = message_route(history, post);
        let number = match route {
            Route::Thread { page, .. } => page as usize,
            _ => 1,
        };
        let author = history.post(post).map_or(0, |record| record.author);
        put!(
            html,
            "<li><strong><a href=\"{}\">{}</a></strong>, <em>{}</em>, <tt>{}</tt>",
            context.href(&route),
            escape(&subject(title, number)),
            escape(&text::user_name(history.seed, author)),
            index_date(created)
        );
    }

    /// A message and, nested under it, the replies that answer it.
    fn tree(
        &self,
        html: &mut String,
        post: u32,
        posts: &[u32],
        title: &str,
        context: &RenderContext<'_>,
    ) {
        let history = context.history;
        let created = history.post(post).map_or(0, |record| record.created);
        self.index_line(html, post, title, created, context);
        let replies: Vec<u32> = posts
            .iter()
            .copied()
            .filter(|&reply| history.reply_parent(reply) == Some(post))
            .collect();
        if !replies.is_empty() {
            html.push_str("\n<ul>\n");
            for reply in replies {
                self.tree(html, reply, posts, title, context);
            }
            html.push_str("</ul>\n");
        }
        html.push_str("</li>\n");
    }

    /// A message's page: navigation, the message, its follow-ups.
    fn message_page(&self, html: &mut String, view: &ThreadView, context: &RenderContext<'_>) {
        let history = context.history;
        let Some(post) = view.posts.first() else {
            return;
        };
        let board = view.board.0;
        let (date_previous, date_next) = date_neighbours(history, board, post.post, context.now);
        let index = Route::Board { board, page: 1 };
        let date_index = context.href_sorted(&index, SortOrder::Created, false);
        let link = |route: Option<Route>, label: &str| match route {
            Some(route) => format!("[<a href=\"{}\">{label}</a>]", context.href(&route)),
            None => format!("[{label}]"),
        };
        let thread_link = |address: &Option<Address>, label: &str| match address {
            Some(address) => format!(
                "[<a href=\"{}\">{label}</a>]",
                context.href_address(address.clone())
            ),
            None => format!("[{label}]"),
        };
        // The thread steps run through the whole thread index, as MHonArc's and pipermail's
        // do: past a thread's last message "Thread Next" leads to the first message of the
        // next thread, and before its first message "Thread Prev" to the last message of the
        // one before. Only the pages the steps join within a thread are its pages.
        let thread_previous = view.pager.previous.clone().or_else(|| {
            let Some(Route::Thread { thread, .. }) = view.previous_thread.as_ref() else {
                return None;
            };
            let thread = *thread;
            let messages = history.thread_posts_at(thread, context.now).len() as u32;
            (messages > 0).then(|| {
                Address::canonical(Route::Thread {
                    thread,
                    page: messages,
                })
            })
        });
        let thread_next = view
            .pager
            .next
            .clone()
            .or_else(|| view.next_thread.clone().map(Address::canonical));
        put!(
            html,
            "<div class=\"msgnav\">{}{}{}{}[<a href=\"{date_index}\">Date Index</a>]\
             [<a href=\"{}\">Thread Index</a>]</div>\n",
            link(date_previous, "Date Prev"),
            link(date_next, "Date Next"),
            thread_link(&thread_previous, "Thread Prev"),
            thread_link(&thread_next, "Thread Next"),
            context.href(&index)
        );
        let title = subject(&view.title, post.number as usize);
        put!(html, "<h1>{}</h1>\n", escape(&title));
        self.message(html, &view.title, post, context);
        let follow_ups: Vec<u32> = history
            .thread_posts_at(view.thread, context.now)
            .iter()
            .copied()
            .filter(|&reply| history.reply_parent(reply) == Some(post.post))
            .collect();
        if !follow_ups.is_empty() {
            html.push_str("<hr>\n<ul class=\"followups\"><strong>Follow-Ups</strong>:\n");
            for reply in follow_ups {
                let author = history.post(reply).map_or(0, |record| record.author);
                put!(
                    html,
                    "<li><a href=\"{}\">Re: {}</a> <em>From:</em> {}</li>\n",
                    context.href(&message_route(history, reply)),
                    escape(&view.title),
                    escape(&text::user_name(history.seed, author))
                );
            }
            html.push_str("</ul>\n");
        }
        put!(
            html,
            "<p class=\"actions\">{}</p>\n",
            optional_link(&view.reply, "reply", "Reply to the list", context)
        );
    }

    /// One message: the header list, then the body.
    fn message(
        &self,
        html: &mut String,
        title: &str,
        post: &PostView,
        context: &RenderContext<'_>,
    ) {
        let history = context.history;
        let name = escape(&post.author.name);
        put!(
            html,
            "<ul class=\"headers\">\n<li><em>From</em>: {name} &lt;{}&gt;</li>\n\
             <li><em>Date</em>: {}</li>\n<li><em>Subject</em>: {}</li>\n",
            escape(&mangled_address(&post.author.name)),
            mail_date(post.created),
            escape(&subject(title, post.number as usize))
        );
        if let Some(parent) = history.reply_parent(post.post) {
            let route = message_route(history, parent);
            let number = match route {
                Route::Thread { page, .. } => page as usize,
                _ => 1,
            };
            put!(
                html,
                "<li><em>In-reply-to</em>: <a href=\"{}\">{}</a></li>\n",
                context.href(&route),
                escape(&subject(title, number))
            );
        }
        html.push_str("</ul>\n<hr>\n");
        if sent_as_html(history, post.post) {
            html.push_str("<div class=\"body\">\n");
            for paragraph in &post.paragraphs {
                put!(html, "<p>{}</p>\n", escape(paragraph));
            }
            html.push_str("</div>\n");
        } else {
            html.push_str("<pre class=\"body\">");
            for (index, paragraph) in post.paragraphs.iter().enumerate() {
                if index > 0 {
                    html.push_str("\n\n");
                }
                html.push_str(&escape(paragraph));
            }
            html.push_str("\n</pre>\n");
        }
    }
}

/// The list's messages just before and after `post` by date (ids follow creation order), as of
/// `now`: "Date Prev" and "Date Next".
fn date_neighbours(
    history: &ForumHistory,
    board: u32,
    post: u32,
    now: i64,
) -> (Option<Route>, Option<Route>) {
    let in_board = |candidate: u32| {
        history.post(candidate).is_some_and(|record| {
            record.created <= now
                && history
                    .thread(record.thread)
                    .is_some_and(|t| t.board == board)
        })
    };
    let previous = (post.saturating_sub(DATE_NEIGHBOUR_REACH).max(1)..post)
        .rev()
        .find(|&candidate| in_board(candidate));
    let last = history
        .post_count()
        .min(post.saturating_add(DATE_NEIGHBOUR_REACH));
    let next = (post + 1..=last).find(|&candidate| in_board(candidate));
    (
        previous.map(|post| message_route(history, post)),
        next.map(|post| message_route(history, post)),
    )
}
