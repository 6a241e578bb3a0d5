//! Discourse's page bodies: topic lists, posts, the raw view, user pages, calendar and search.

use super::templates::{DateStyle, button, page_links, pager, time, user_link};
use super::{Discourse, sort_keys};
use crate::dates::ENGLISH_MONTHS;
use crate::families::RenderContext;
use crate::html::escape;
use crate::route::{Address, Route};
use crate::views::*;

impl Discourse {
    pub(super) fn body(
        &self,
        html: &mut String,
        body: &Body,
        crumbs: &str,
        context: &RenderContext<'_>,
    ) {
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
