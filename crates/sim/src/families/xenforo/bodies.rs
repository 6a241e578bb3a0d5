//! XenForo's page bodies: forum list, thread lists, messages, member pages and the calendar.

use super::templates::{TimeText, button, page_jump, short_number, time, user_title, username};
use super::{Xenforo, sort_keys};
use crate::dates::{self, ENGLISH_MONTHS};
use crate::families::RenderContext;
use crate::html::escape;
use crate::route::Route;
use crate::views::*;

impl Xenforo {
    pub(super) fn body(&self, html: &mut String, body: &Body, context: &RenderContext<'_>) {
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
    pub(super) fn latest_posts(
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
