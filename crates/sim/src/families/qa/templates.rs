//! The markup of a question-and-answer site: question summaries with vote, answer and view
//! counts in the lists, a question page whose posts sit in a vote cell beside the body, a
//! signature block ("asked", "answered" with the time and a user card showing reputation and
//! badge counts) and a list of one-line comments under each post. Times are written as
//! "Mar 30, 2025 at 22:11" inside a span whose title carries the UTC instant.

use super::{Qa, answer_key, list_key};
use crate::dates;
use crate::families::RenderContext;
use crate::families::skeleton::{
    self, ENGLISH, Kit, Words, numbered_pager, optional_link, post_text,
};
use crate::html::escape;
use crate::random::mix;
use crate::route::{AnswerOrder, Route, SortOrder};
use crate::views::*;

/// The words of this site's pages that the skeleton writes.
const WORDS: Words = Words {
    class: "qa",
    members: "Users",
    posts: "Answers",
    joined: "Member for",
    last_seen: "Last seen",
    threads: "Questions",
    login: "Sign in",
    members_only: "You must be signed in to do that.",
    not_found: "Page not found. This question may have been removed.",
    search: "Unanswered questions",
    replies: "answers",
    ..ENGLISH
};

/// A time as these sites print it, the UTC instant in the title.
fn when(instant: i64, context: &RenderContext<'_>) -> String {
    let local = dates::local_time(instant, context.profile().utc_offset_seconds);
    let utc = dates::local_time(instant, 0);
    format!(
        "<span class=\"relativetime\" title=\"{:04}-{:02}-{:02} {:02}:{:02}:{:02}Z\">{} {}, {} \
         at {:02}:{:02}</span>",
        utc.year,
        utc.month,
        utc.day,
        utc.hour,
        utc.minute,
        utc.second,
        dates::short_month(local.month),
        local.day,
        local.year,
        local.hour,
        local.minute
    )
}

/// A user's name: linked when profiles exist.
fn user_link(user: &UserCard, context: &RenderContext<'_>) -> String {
    let name = escape(&user.name);
    match &user.profile {
        Some(route) => format!("<a href=\"{}\">{name}</a>", context.href(route)),
        None => format!("<span>{name}</span>"),
    }
}

/// Reputation and gold, silver and bronze badge counts, derived from the user and their posts.
fn reputation(user: &UserCard) -> String {
    let draw = mix(0x6261_6467, u64::from(user.user));
    let reputation = 1 + user.posts * 10 + (draw % 50) as u32;
    format!(
        "<span class=\"reputation-score\" title=\"reputation score\">{reputation}</span>\
         <span title=\"gold badges\"><span class=\"badge1\"></span><span class=\"badgecount\">\
         {}</span></span><span title=\"silver badges\"><span class=\"badge2\"></span>\
         <span class=\"badgecount\">{}</span></span><span title=\"bronze badges\">\
         <span class=\"badge3\"></span><span class=\"badgecount\">{}</span></span>",
        draw % 3,
        (draw >> 8) % 12,
        user.posts / 2 + ((draw >> 16) % 20) as u32
    )
}

/// The name of a list order on its tab.
fn list_tab(sort: SortOrder) -> &'static str {
    match sort {
        SortOrder::LastPost => "Active",
        SortOrder::Created => "Newest",
        SortOrder::Replies => "Most answered",
        SortOrder::Title | SortOrder::Author => list_key(sort),
    }
}

/// The name of an order of answers on its tab.
fn answer_tab(order: AnswerOrder) -> &'static str {
    match order {
        AnswerOrder::Oldest => "Oldest",
        AnswerOrder::Votes => "Votes",
        AnswerOrder::Newest => "Newest",
    }
}

impl Qa {
    pub(super) fn render_page(&self, page: &Page, context: &RenderContext<'_>) -> String {
        let mut html = String::with_capacity(32 * 1024);
        let chrome = &page.chrome;
        let site = escape(&chrome.forum_name);
        let heading = escape(&chrome.title);
        put!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>{heading} - {site}</title>\n</head>\n<body class=\"qa-site\">\n\
             <header class=\"top-bar\"><a class=\"logo\" href=\"{}\">{site}</a>\n\
             <nav class=\"main-nav\"><a href=\"{}\">Questions</a> <a href=\"{}\">Tags</a>",
            context.href(&chrome.navigation.portal),
            context.href(&Route::AllThreads { page: 1 }),
            context.href(&chrome.navigation.portal)
        );
        let navigation = &chrome.navigation;
        skeleton::menu_links(
            &mut html,
            &[
                (navigation.members.as_ref(), "Users"),
                (navigation.search.as_ref(), "Unanswered"),
                (navigation.calendar.as_ref(), "Archive"),
                (Some(&navigation.login), "Log in"),
            ],
            (" ", ""),
            context,
        );
        html.push_str("</nav>\n");
        if let Some(instant) = chrome.last_visit {
            put!(
                html,
                "<div class=\"last-visit\">Last visit: {}</div>\n",
                when(instant, context)
            );
        }
        html.push_str("</header>\n");
        if let Some(advertisement) = chrome.advertisement {
            put!(
                html,
                "<div class=\"sidebar-ad\"><a href=\"https://ads.example.net/qa/{}\">{}</a></div>\n",
                advertisement.len(),
                escape(advertisement)
            );
        }
        html.push_str("<div id=\"content\">\n");
        if !chrome.breadcrumbs.is_empty() {
            html.push_str("<div class=\"crumbs\">");
            for (route, label) in &chrome.breadcrumbs {
                put!(
                    html,
                    "<a href=\"{}\">{}</a> / ",
                    context.href(route),
                    escape(label)
                );
            }
            html.push_str("</div>\n");
        }
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
            Body::Board(view) => self.question_list(&mut html, view, &kit),
            Body::Thread(view) => self.question(&mut html, view, &kit),
            Body::SinglePost(view) => {
                put!(
                    html,
                    "<h1><a href=\"{}\">{}</a></h1>\n",
                    context.href(&view.in_thread),
                    escape(&view.thread.1)
                );
                self.post(&mut html, &view.post, "answer", &kit);
            }
            Body::Print(view) | Body::ArchiveThread(view) => {
                put!(
                    html,
                    "<h1><a href=\"{}\">{}</a></h1>\n",
                    context.href(&view.original),
                    escape(&view.title)
                );
                for (index, post) in view.posts.iter().enumerate() {
                    let kind = if index == 0 { "question" } else { "answer" };
                    self.post(&mut html, post, kind, &kit);
                }
            }
            other => {
                skeleton::other_page(&mut html, other, &kit);
            }
        }
        let footer = &chrome.footer;
        let clock = chrome.clock.map_or_else(String::new, |instant| {
            format!(
                " <span class=\"server-time\">Generated {}</span>",
                when(instant, context)
            )
        });
        put!(
            html,
            "</div>\n<footer class=\"site-footer\"><p>{} questions · {} posts · {} users.{clock}\
             </p></footer>\n</body>\n</html>\n",
            footer.threads,
            footer.posts,
            footer.members
        );
        html
    }

    /// The portal: a tag cloud (the boards with their question counts) and the most recently
    /// active questions.
    fn portal(&self, html: &mut String, view: &PortalView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        put!(
            html,
            "<h1>Tags</h1>\n<p class=\"intro\">Browse <a href=\"{}\">all questions</a> or pick \
             a tag.</p>\n<div class=\"tag-cloud\">\n",
            context.href(&Route::AllThreads { page: 1 })
        );
        for category in &view.categories {
            put!(
                html,
                "<div class=\"tag-group\"><h2>{}</h2>\n",
                escape(&category.name)
            );
            for board in &category.boards {
                put!(
                    html,
                    "<div class=\"tag-cell\"><a class=\"post-tag\" href=\"{}\">{}</a> \
                     <span class=\"item-multiplier\">× {}</span></div>\n",
                    context.href(&board.link),
                    escape(&board.name),
                    board.threads
                );
            }
            html.push_str("</div>\n");
        }
        html.push_str("</div>\n");
        if !view.latest.is_empty() {
            html.push_str("<h2>Top questions</h2>\n<ul class=\"top-questions\">\n");
            for summary in &view.latest {
                put!(
                    html,
                    "<li><a href=\"{}\">{}</a> <span class=\"answers\">{} answers</span></li>\n",
                    context.href(&summary.link),
                    escape(&summary.title),
                    summary.replies
                );
            }
            html.push_str("</ul>\n");
        }
    }

    /// A tag's question list, or a page of the list of all questions (board 0).
    fn question_list(&self, html: &mut String, view: &BoardView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let history = context.history;
        let heading = match view.board {
            0 => "All questions".to_string(),
            _ => format!("Questions tagged [{}]", escape(&view.name)),
        };
        let ask = optional_link(&view.new_thread, "ask-question", "Ask question", context);
        let feed = optional_link(&view.archive, "feed", "Feed", context);
        put!(
            html,
            "<div class=\"list-header\"><h1>{heading}</h1>{ask}{feed}</div>\n\
             <div class=\"tabs\"><span class=\"selected\">{}</span>",
            list_tab(view.sort)
        );
        for (sort, address) in &view.sort_links {
            put!(
                html,
                " <a href=\"{}\">{}</a>",
                context.href_address(address.clone()),
                list_tab(*sort)
            );
        }
        html.push_str("</div>\n<div id=\"questions\">\n");
        for summary in view.stickies.iter().chain(&view.threads) {
            let board = history.thread(summary.thread).map_or(0, |t| t.board);
            let tag = history
                .board(board)
                .map_or_else(String::new, |b| b.name.clone());
            let status = match summary.replies {
                0 => "unanswered",
                _ => "answered",
            };
            let pinned = match summary.sticky {
                true => "<span class=\"pinned\">featured</span> ",
                false => "",
            };
            put!(
                html,
                "<div class=\"question-summary\" id=\"question-summary-{}\">\n\
                 <div class=\"stats\"><div class=\"votes\"><span class=\"vote-count-post\">{}\
                 </span> votes</div><div class=\"status {status}\"><strong>{}</strong> answers\
                 </div><div class=\"views\">{} views</div></div>\n<div class=\"summary\"><h3>\
                 {pinned}<a class=\"question-hyperlink\" href=\"{}\">{}</a></h3>\n\
                 <div class=\"tags\"><a class=\"post-tag\" href=\"{}\">{}</a></div>\n\
                 <div class=\"started\"><a href=\"{}\">modified</a> {} {}</div>\n\
                 <div class=\"asked\">asked by {} {}</div></div>\n</div>\n",
                summary.thread,
                summary.votes.unwrap_or(0),
                summary.replies,
                summary.views,
                context.href(&summary.link),
                escape(&summary.title),
                context.href(&Route::Board { board, page: 1 }),
                escape(&tag),
                context.href(&summary.last_post.link),
                when(summary.last_post.created, context),
                user_link(&summary.last_post.author, context),
                user_link(&summary.author, context),
                when(summary.created, context)
            );
        }
        html.push_str("</div>\n");
        html.push_str(&numbered_pager(&view.pager, "pager", kit));
    }

    /// One post: the vote cell, the body, the signature block and the comments.
    fn post(&self, html: &mut String, post: &PostView, kind: &str, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let accepted = match post.accepted {
            true => " accepted-answer",
            false => "",
        };
        let check = match post.accepted {
            true => "<span class=\"vote-accepted-on\" title=\"accepted answer\">✔</span>",
            false => "",
        };
        let verb = if kind == "question" {
            "asked"
        } else {
            "answered"
        };
        let link = post.permalink.as_ref().map_or_else(String::new, |route| {
            format!(
                "<a class=\"short-link\" href=\"{}\">share</a>",
                context.href(route)
            )
        });
        let comment = optional_link(&post.quote, "add-comment", "add a comment", context);
        let signature = post.signature.as_deref().map_or_else(String::new, |text| {
            format!("<div class=\"user-about\">{}</div>", escape(text))
        });
        put!(
            html,
            "<div class=\"{kind}{accepted}\" id=\"{kind}-{}\" data-post-id=\"{}\">\n\
             <div class=\"votecell\"><span class=\"vote-count\" itemprop=\"upvoteCount\">{}</span>\
             {check}</div>\n<div class=\"postcell\">\n<div class=\"post-text\">\n{}</div>\n\
             <div class=\"post-menu\">{link}</div>\n<div class=\"post-signature\">\
             <div class=\"user-action-time\">{verb} {}</div><div class=\"user-details\">{}\
             <div class=\"flair\">{}</div></div>{signature}</div>\n",
            post.post,
            post.post,
            post.votes.unwrap_or(0),
            post_text(post, context),
            when(post.created, context),
            user_link(&post.author, context),
            reputation(&post.author)
        );
        html.push_str("<div class=\"comments\"><ul class=\"comments-list\">\n");
        for remark in &post.comments {
            put!(
                html,
                "<li class=\"comment\"><span class=\"comment-copy\">{}</span> – \
                 <span class=\"comment-user\">{}</span> <span class=\"comment-date\">{}</span>\
                 </li>\n",
                escape(&remark.text),
                user_link(&remark.author, context),
                when(remark.created, context)
            );
        }
        put!(html, "</ul>{comment}</div>\n</div>\n</div>\n");
    }

    /// A question page: the question, then the answers of this page in the order asked for.
    fn question(&self, html: &mut String, view: &ThreadView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let canonical = Route::Thread {
            thread: view.thread,
            page: 1,
        };
        put!(
            html,
            "<div id=\"question-header\"><h1><a class=\"question-hyperlink\" href=\"{}\">{}</a>\
             </h1></div>\n",
            context.href(&canonical),
            escape(&view.title)
        );
        let mut posts = view.posts.iter();
        // The first post of every page is the question: page 1 shows it in its own place,
        // later pages again above their answers.
        if let Some(question) = posts.next() {
            self.post(html, question, "question", kit);
        }
        let answers = view.posts.len().saturating_sub(1);
        put!(
            html,
            "<div id=\"answers\">\n<div id=\"answers-header\"><h2>{answers} Answers</h2>\
             <div class=\"answer-tabs\">Sorted by: <span class=\"selected\">{}</span>",
            answer_tab(view.answers)
        );
        for (order, address) in &view.answer_orders {
            put!(
                html,
                " <a href=\"{}\" title=\"{}\">{}</a>",
                context.href_address(address.clone()),
                answer_key(*order),
                answer_tab(*order)
            );
        }
        html.push_str("</div></div>\n");
        for answer in posts {
            self.post(html, answer, "answer", kit);
        }
        html.push_str(&numbered_pager(&view.pager, "pager-answers", kit));
        html.push_str("</div>\n");
        let reply = optional_link(&view.reply, "post-answer", "Your answer", context);
        put!(html, "<div class=\"answer-form\">{reply}</div>\n");
        let print = optional_link(&view.print, "print", "Print", context);
        let plain = optional_link(&view.archive, "plain", "Plain text", context);
        let older = optional_link(
            &view.previous_thread,
            "related",
            "Previous question",
            context,
        );
        let newer = optional_link(&view.next_thread, "related", "Next question", context);
        let tag = Route::Board {
            board: view.board.0,
            page: 1,
        };
        put!(
            html,
            "<div class=\"sidebar\"><div class=\"tags\">Tagged <a class=\"post-tag\" href=\"{}\">\
             {}</a></div><div class=\"related\">{older}{newer}</div>\
             <div class=\"tools\">{print}{plain}</div></div>\n",
            context.href(&tag),
            escape(&view.board.1)
        );
    }
}
