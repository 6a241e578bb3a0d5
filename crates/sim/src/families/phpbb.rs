//! phpBB 3-like: PHP scripts with numeric query ids, `start=` offsets, `sid=` sessions in URLs,
//! the prosilver div layout, dates like "Mon Mar 30, 2025 10:11 pm", login prompts answered 200,
//! "view=next/previous" topic links resolved by the server.

use std::fmt::Write;

use super::common::without_quirks;
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::dates::{self, ENGLISH_WEEKDAYS};
use crate::history::ForumHistory;
use crate::html::{
    escape, parse_query, percent_encode, query_number, query_value, session_hex, session_token,
    split_path_and_query,
};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::Language;
use crate::views::*;

#[derive(Debug)]
pub(crate) struct Phpbb {
    profile: FamilyProfile,
}

impl Phpbb {
    pub(crate) fn new() -> Self {
        Phpbb {
            profile: FamilyProfile {
                name: "phpbb",
                description: "phpBB 3-like: viewtopic.php?t=&start=, sid sessions, prosilver divs",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: 3_600,
                threads_per_page: 25,
                posts_per_page: 15,
                members_per_page: 50,
                login_wall: LoginWall::PromptWithOk,
                profiles_need_login: false,
                permalink: PermalinkStyle::ShowsThreadPage,
                session_parameter: Some("sid"),
                session_cookie: "phpbb3_sid",
                adjacent_threads: AdjacentThreads::ServerResolved,
                missing_status: 404,
                aliases_redirect: false,
                quirks: super::Quirks::NONE,
            },
        }
    }

    fn date(&self, context: &RenderContext<'_>, instant: i64) -> String {
        let local = context.local(instant);
        let (hour, pm) = dates::twelve_hour(local.hour);
        format!(
            "{} {} {}, {} {}:{:02} {}",
            &ENGLISH_WEEKDAYS[local.weekday as usize][..3],
            dates::short_month(local.month),
            local.day,
            local.year,
            hour,
            local.minute,
            if pm { "pm" } else { "am" }
        )
    }
}

fn sort_keys(sort: SortOrder) -> Option<(&'static str, &'static str)> {
    match sort {
        SortOrder::LastPost => None,
        SortOrder::Title => Some(("s", "a")),
        SortOrder::Author => Some(("a", "a")),
        SortOrder::Replies => Some(("r", "d")),
        SortOrder::Created => Some(("c", "d")),
    }
}

impl Family for Phpbb {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, _history: &ForumHistory) -> String {
        let profile = &self.profile;
        let start = |page: u32, per_page: u32| -> String {
            if page > 1 || address.variant.explicit_first_page {
                format!("&start={}", (page - 1) * per_page)
            } else {
                String::new()
            }
        };
        let mut url = match &address.route {
            // Quirks this engine lacks are spelled as the plain route they stand for.
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                return self.encode(&without_quirks(address), _history);
            }
            Route::Portal => "/index.php".to_string(),
            Route::Board { board, page } => {
                let sort = sort_keys(address.variant.sort)
                    .map(|(key, direction)| format!("&sk={key}&sd={direction}"))
                    .unwrap_or_default();
                format!(
                    "/viewforum.php?f={board}{sort}{}",
                    start(*page, profile.threads_per_page)
                )
            }
            Route::Thread { thread, page } => {
                format!(
                    "/viewtopic.php?t={thread}{}",
                    start(*page, profile.posts_per_page)
                )
            }
            Route::Post { post } => format!("/viewtopic.php?p={post}"),
            Route::Print { thread } => format!("/viewtopic.php?t={thread}&view=print"),
            Route::ArchiveBoard { board } => format!("/archive.php?f={board}"),
            Route::ArchiveThread { thread } => format!("/archive.php?t={thread}"),
            Route::AdjacentThread { thread, newer } => {
                format!(
                    "/viewtopic.php?t={thread}&view={}",
                    if *newer { "next" } else { "previous" }
                )
            }
            Route::Profile { user } => format!("/memberlist.php?mode=viewprofile&u={user}"),
            Route::MemberList { page } => {
                let start = start(*page, profile.members_per_page);
                match start.strip_prefix('&') {
                    Some(query) => format!("/memberlist.php?{query}"),
                    None => "/memberlist.php".to_string(),
                }
            }
            Route::Calendar { year, month } => format!("/calendar.php?y={year}&m={month}"),
            Route::Search { page } => {
                format!("/search.php?search_id=newposts{}", start(*page, 25))
            }
            Route::Login { next } => match next {
                Some(next) => format!("/ucp.php?mode=login&redirect={}", percent_encode(next)),
                None => "/ucp.php?mode=login".to_string(),
            },
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("/posting.php?mode=reply&t={target}"),
                ActionKind::NewThread => format!("/posting.php?mode=post&f={target}"),
                ActionKind::Quote => format!("/posting.php?mode=quote&p={target}"),
                ActionKind::Message => format!("/ucp.php?i=pm&mode=compose&u={target}"),
            },
        };
        if let Some(session) = address.variant.session {
            url.push(if url.contains('?') { '&' } else { '?' });
            let _ = write!(url, "sid={}", session_hex(session));
        }
        url
    }

    fn decode(&self, path_and_query: &str, _history: &ForumHistory) -> Option<Address> {
        let profile = &self.profile;
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant {
            session: query_value(&pairs, "sid").map(session_token),
            ..Variant::default()
        };
        // `start` must be a whole page offset; page 1 spelled `start=0` is the explicit variant.
        let mut page_of = |per_page: u32| -> Option<u32> {
            match query_value(&pairs, "start") {
                None => Some(1),
                Some(text) => {
                    let start: u32 = text.parse().ok()?;
                    if !start.is_multiple_of(per_page) {
                        return None;
                    }
                    if start == 0 {
                        variant.explicit_first_page = true;
                    }
                    Some(start / per_page + 1)
                }
            }
        };
        let route = match path {
            "/" | "/index.php" => Route::Portal,
            "/viewforum.php" => {
                let board = query_number(&pairs, "f")?;
                let page = page_of(profile.threads_per_page)?;
                if let Some(key) = query_value(&pairs, "sk") {
                    variant.sort = [
                        SortOrder::Title,
                        SortOrder::Author,
                        SortOrder::Replies,
                        SortOrder::Created,
                    ]
                    .into_iter()
                    .find(|&sort| {
                        sort_keys(sort)
                            .is_some_and(|(k, d)| k == key && Some(d) == query_value(&pairs, "sd"))
                    })?;
                }
                Route::Board { board, page }
            }
            "/viewtopic.php" => {
                if let Some(post) = query_number(&pairs, "p") {
                    Route::Post { post }
                } else {
                    let thread = query_number(&pairs, "t")?;
                    match query_value(&pairs, "view") {
                        Some("print") => Route::Print { thread },
                        Some("next") => Route::AdjacentThread {
                            thread,
                            newer: true,
                        },
                        Some("previous") => Route::AdjacentThread {
                            thread,
                            newer: false,
                        },
                        Some(_) => return None,
                        None => Route::Thread {
                            thread,
                            page: page_of(profile.posts_per_page)?,
                        },
                    }
                }
            }
            "/archive.php" => match (query_number(&pairs, "f"), query_number(&pairs, "t")) {
                (Some(board), None) => Route::ArchiveBoard { board },
                (None, Some(thread)) => Route::ArchiveThread { thread },
                _ => return None,
            },
            "/memberlist.php" => match query_value(&pairs, "mode") {
                Some("viewprofile") => Route::Profile {
                    user: query_number(&pairs, "u")?,
                },
                None => Route::MemberList {
                    page: page_of(profile.members_per_page)?,
                },
                Some(_) => return None,
            },
            "/calendar.php" => Route::Calendar {
                year: query_value(&pairs, "y")?.parse().ok()?,
                month: query_number(&pairs, "m")?,
            },
            "/search.php" if query_value(&pairs, "search_id") == Some("newposts") => {
                Route::Search { page: page_of(25)? }
            }
            "/ucp.php" => match query_value(&pairs, "mode") {
                Some("login") => Route::Login {
                    next: query_value(&pairs, "redirect").map(str::to_string),
                },
                Some("compose") if query_value(&pairs, "i") == Some("pm") => Route::Action {
                    kind: ActionKind::Message,
                    target: query_number(&pairs, "u")?,
                },
                _ => return None,
            },
            "/posting.php" => match query_value(&pairs, "mode")? {
                "reply" => Route::Action {
                    kind: ActionKind::Reply,
                    target: query_number(&pairs, "t")?,
                },
                "post" => Route::Action {
                    kind: ActionKind::NewThread,
                    target: query_number(&pairs, "f")?,
                },
                "quote" => Route::Action {
                    kind: ActionKind::Quote,
                    target: query_number(&pairs, "p")?,
                },
                _ => return None,
            },
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        let mut html = String::with_capacity(24 * 1024);
        let chrome = &page.chrome;
        let section = match &page.body {
            Body::Portal(_) => "index",
            Body::Board(_) => "viewforum",
            Body::Thread(_) | Body::SinglePost(_) => "viewtopic",
            Body::Profile(_) | Body::MemberList(_) => "memberlist",
            _ => "misc",
        };
        let _ = write!(
            html,
            "<!DOCTYPE html>\n<html dir=\"ltr\" lang=\"en-gb\">\n<head>\n<meta charset=\"utf-8\" />\n\
             <title>{} - {}</title>\n</head>\n\
             <body id=\"phpbb\" class=\"nojs section-{section} ltr\">\n<div id=\"wrap\">\n<a id=\"top\" accesskey=\"t\"></a>\n\
             <div id=\"page-header\">\n<div class=\"headerbar\"><div class=\"inner\"><h1>{}</h1><p>Discussion board</p></div></div>\n",
            escape(&chrome.title),
            escape(&chrome.forum_name),
            escape(&chrome.forum_name)
        );
        let navigation = &chrome.navigation;
        html.push_str(
            "<div class=\"navbar\"><div class=\"inner\">\n<ul class=\"linklist navlinks\">\n",
        );
        let _ = write!(
            html,
            "<li class=\"icon-home\"><a href=\"{}\">Board index</a>",
            context.href(&navigation.portal)
        );
        for (route, label) in chrome.breadcrumbs.iter().skip(1) {
            let _ = write!(
                html,
                " <strong>&#8249;</strong> <a href=\"{}\">{}</a>",
                context.href(route),
                escape(label)
            );
        }
        html.push_str("</li>\n</ul>\n<ul class=\"linklist rightside\">\n");
        if let Some(route) = &navigation.search {
            let _ = writeln!(
                html,
                "<li><a href=\"{}\">View new posts</a></li>",
                context.href(route)
            );
        }
        if let Some(route) = &navigation.calendar {
            let _ = writeln!(
                html,
                "<li><a href=\"{}\">Calendar</a></li>",
                context.href(route)
            );
        }
        if let Some(route) = &navigation.members {
            let _ = writeln!(
                html,
                "<li><a href=\"{}\">Members</a></li>",
                context.href(route)
            );
        }
        let _ = writeln!(
            html,
            "<li><a href=\"{}\">Login</a></li>\n</ul>",
            context.href(&navigation.login)
        );
        if let Some(last_visit) = chrome.last_visit {
            let _ = writeln!(
                html,
                "<p class=\"left\">Last visit was: {}</p>",
                self.date(context, last_visit)
            );
        }
        if let Some(clock) = chrome.clock {
            let _ = writeln!(
                html,
                "<p class=\"right\">It is currently {}</p>",
                self.date(context, clock)
            );
        }
        html.push_str("</div></div>\n</div>\n");
        if let Some(advertisement) = chrome.advertisement {
            let _ = writeln!(
                html,
                "<div class=\"ad-banner\"><a href=\"https://ads.example.net/click?c={}\" rel=\"nofollow\">{}</a></div>",
                advertisement.len(),
                escape(advertisement)
            );
        }
        html.push_str("<div id=\"page-body\">\n");
        match &page.body {
            Body::Portal(view) => self.portal(&mut html, view, context),
            Body::Board(view) => self.board(&mut html, view, context),
            Body::Thread(view) => self.thread(&mut html, view, context),
            Body::SinglePost(view) => {
                let _ = writeln!(html, "<h2>{}</h2>", escape(&view.thread.1));
                self.post(&mut html, &view.post, &view.thread.1, context);
            }
            Body::Print(view) | Body::ArchiveThread(view) => {
                let _ = writeln!(html, "<h2><a href=\"{}\">{}</a></h2>", context.href(&view.original), escape(&view.title));
                for post in &view.posts {
                    self.post(&mut html, post, &view.title, context);
                }
            }
            Body::ArchiveBoard(view) => {
                let _ = writeln!(html, "<h2>{}</h2>\n<ul class=\"archive\">", escape(&view.name));
                for (route, title) in &view.threads {
                    let _ = writeln!(html, "<li><a href=\"{}\">{}</a></li>", context.href(route), escape(title));
                }
                html.push_str("</ul>\n");
            }
            Body::Profile(view) => {
                let _ = writeln!(
                    html,
                    "<h2>Viewing profile - {}</h2>\n<dl class=\"details\">\n<dt>Username:</dt><dd>{}</dd>\n<dt>Joined:</dt><dd>{}</dd>",
                    escape(&view.user.name),
                    escape(&view.user.name),
                    self.date(context, view.joined)
                );
                if let Some(last_visit) = view.last_visit {
                    let _ = writeln!(html, "<dt>Last visited:</dt><dd>{}</dd>", self.date(context, last_visit));
                }
                let _ = writeln!(html, "<dt>Total posts:</dt><dd>{}</dd>\n</dl>\n<ul class=\"recent\">", view.user.posts);
                for (route, title) in &view.recent_threads {
                    let _ = writeln!(html, "<li><a href=\"{}\">{}</a></li>", context.href(route), escape(title));
                }
                html.push_str("</ul>\n");
                if let Some(route) = &view.message {
                    let _ = writeln!(html, "<a class=\"button\" href=\"{}\">Send private message</a>", context.href(route));
                }
            }
            Body::MemberList(view) => {
                html.push_str("<h2>Memberlist</h2>\n");
                self.pagination(&mut html, &view.pager, context);
                html.push_str("<table class=\"table1\" id=\"memberlist\">\n<thead><tr><th>Username</th><th>Posts</th><th>Joined</th></tr></thead>\n<tbody>\n");
                for member in &view.members {
                    let _ = writeln!(html, "<tr><td>{}</td><td>{}</td><td>{}</td></tr>", self.username(member, context), member.posts,
                        member.joined.map(|joined| self.date(context, joined)).unwrap_or_default());
                }
                html.push_str("</tbody>\n</table>\n");
            }
            Body::Calendar(view) => {
                let _ = writeln!(html, "<h2>Calendar: {} {}</h2>\n<p class=\"calendar-nav\"><a href=\"{}\">&laquo; Previous month</a> | <a href=\"{}\">Next month &raquo;</a></p>\n<ul class=\"events\">",
                    dates::ENGLISH_MONTHS[view.month as usize - 1], view.year, context.href(&view.previous), context.href(&view.next));
                for (day, route, title) in &view.events {
                    let _ = writeln!(html, "<li>{} {}: <a href=\"{}\">{}</a></li>", dates::short_month(view.month), day, context.href(route), escape(title));
                }
                html.push_str("</ul>\n");
            }
            Body::Search(view) => {
                html.push_str("<h2>View new posts</h2>\n<ul class=\"topiclist topics\">\n");
                for summary in &view.results {
                    self.topic_row(&mut html, summary, context);
                }
                html.push_str("</ul>\n<div class=\"pagination\">");
                if let Some(previous) = &view.previous {
                    let _ = write!(html, "<a href=\"{}\">Previous</a> ", context.href(previous));
                }
                let _ = writeln!(html, "Page <strong>{}</strong> <a href=\"{}\">Next</a></div>", view.page, context.href(&view.next));
            }
            Body::Login(view) => {
                let message = match view.reason {
                    LoginReason::Requested => "Please log in.",
                    LoginReason::MembersOnly => "The board requires you to be registered and logged in to view this page.",
                };
                let _ = write!(
                    html,
                    "<div class=\"panel\"><h2>Login</h2><p>{message}</p>\n<form action=\"{}\" method=\"post\" id=\"login\">\n\
                     <label for=\"username\">Username:</label><input type=\"text\" name=\"username\" id=\"username\" />\n\
                     <label for=\"password\">Password:</label><input type=\"password\" name=\"password\" id=\"password\" />\n\
                     <input type=\"submit\" name=\"login\" value=\"Login\" class=\"button1\" />\n</form></div>\n",
                    context.href(&view.form_action)
                );
            }
            Body::NotFound => html.push_str("<div class=\"panel\"><h2>Information</h2><p>The requested topic does not exist.</p></div>\n"),
        }
        html.push_str(
            "</div>\n<div id=\"page-footer\"><div class=\"navbar\"><div class=\"inner\">\n",
        );
        let footer = &chrome.footer;
        let _ = write!(
            html,
            "<p class=\"stats\">Total posts <strong>{}</strong> &bull; Total topics <strong>{}</strong> &bull; Total members <strong>{}</strong>",
            footer.posts, footer.threads, footer.members
        );
        if let Some(member) = &footer.newest_member {
            let _ = write!(
                html,
                " &bull; Our newest member {}",
                self.username(member, context)
            );
        }
        html.push_str("</p>\n<p>All times are <span title=\"UTC+1\">UTC+01:00</span></p>\n");
        html.push_str("</div></div>\n<div class=\"copyright\">Powered by phpBB&reg; Forum Software</div>\n</div>\n</div>\n</body>\n</html>\n");
        html
    }
}

impl Phpbb {
    fn username(&self, user: &UserCard, context: &RenderContext<'_>) -> String {
        match &user.profile {
            Some(route) => format!(
                "<a href=\"{}\" class=\"username\">{}</a>",
                context.href(route),
                escape(&user.name)
            ),
            None => format!("<span class=\"username\">{}</span>", escape(&user.name)),
        }
    }

    fn pagination(&self, html: &mut String, pager: &Pager, context: &RenderContext<'_>) {
        if pager.total <= 1 {
            html.push_str(
                "<div class=\"pagination\">Page <strong>1</strong> of <strong>1</strong></div>\n",
            );
            return;
        }
        let _ = write!(
            html,
            "<div class=\"pagination\">Page <strong>{}</strong> of <strong>{}</strong> <ul>",
            pager.current, pager.total
        );
        if let Some(previous) = &pager.previous {
            let _ = write!(
                html,
                "<li class=\"previous\"><a href=\"{}\" rel=\"prev\">Previous</a></li>",
                context.href_address(previous.clone())
            );
        }
        for (number, address) in &pager.pages {
            if *number == pager.current {
                let _ = write!(html, "<li class=\"active\"><span>{number}</span></li>");
            } else {
                let _ = write!(
                    html,
                    "<li><a href=\"{}\">{number}</a></li>",
                    context.href_address(address.clone())
                );
            }
        }
        if let Some(next) = &pager.next {
            let _ = write!(
                html,
                "<li class=\"next\"><a href=\"{}\" rel=\"next\">Next</a></li>",
                context.href_address(next.clone())
            );
        }
        html.push_str("</ul></div>\n");
    }

    fn topic_row(&self, html: &mut String, summary: &ThreadSummary, context: &RenderContext<'_>) {
        let _ = write!(
            html,
            "<li class=\"row{}\"><dl class=\"icon\"><dt><a href=\"{}\" class=\"topictitle\">{}</a>",
            if summary.sticky { " sticky" } else { "" },
            context.href(&summary.link),
            escape(&summary.title)
        );
        if !summary.page_links.is_empty() {
            html.push_str(" <span class=\"pagination\">");
            for (number, route) in &summary.page_links {
                let _ = write!(html, "<a href=\"{}\">{number}</a> ", context.href(route));
            }
            html.push_str("</span>");
        }
        let _ = writeln!(
            html,
            "<br />by {} &raquo; {}</dt><dd class=\"posts\">{} <dfn>Replies</dfn></dd><dd class=\"views\">{} <dfn>Views</dfn></dd>\
             <dd class=\"lastpost\"><span><dfn>Last post </dfn>by {} <a href=\"{}\" title=\"View the latest post\">&#8594;</a><br />{}</span></dd></dl></li>",
            self.username(&summary.author, context),
            self.date(context, summary.created),
            summary.replies,
            summary.views,
            self.username(&summary.last_post.author, context),
            context.href(&summary.last_post.link),
            self.date(context, summary.last_post.created)
        );
    }

    fn latest(&self, html: &mut String, latest: &[ThreadSummary], context: &RenderContext<'_>) {
        if latest.is_empty() {
            return;
        }
        html.push_str("<div class=\"panel latest-topics\"><h3>Latest active topics</h3><ul>\n");
        for summary in latest {
            let _ = writeln!(
                html,
                "<li><a href=\"{}\">{}</a> <a href=\"{}\">&#8594;</a></li>",
                context.href(&summary.link),
                escape(&summary.title),
                context.href(&summary.last_post.link)
            );
        }
        html.push_str("</ul></div>\n");
    }

    fn portal(&self, html: &mut String, view: &PortalView, context: &RenderContext<'_>) {
        for category in &view.categories {
            let _ = writeln!(
                html,
                "<div class=\"forabg\"><ul class=\"topiclist\"><li class=\"header\"><dl><dt>{}</dt><dd class=\"topics\">Topics</dd><dd class=\"posts\">Posts</dd><dd class=\"lastpost\">Last post</dd></dl></li></ul>\n<ul class=\"topiclist forums\">",
                escape(&category.name)
            );
            for board in &category.boards {
                let _ = write!(
                    html,
                    "<li class=\"row\"><dl class=\"icon\"><dt><a href=\"{}\" class=\"forumtitle\">{}</a></dt><dd class=\"topics\">{}</dd><dd class=\"posts\">{}</dd><dd class=\"lastpost\">",
                    context.href(&board.link),
                    escape(&board.name),
                    board.threads,
                    board.posts
                );
                match &board.last_post {
                    Some(last) => {
                        let _ = write!(
                            html,
                            "<span>by {} <a href=\"{}\">&#8594;</a><br />{}</span>",
                            self.username(&last.author, context),
                            context.href(&last.link),
                            self.date(context, last.created)
                        );
                    }
                    None => html.push_str("No posts"),
                }
                html.push_str("</dd></dl></li>\n");
            }
            html.push_str("</ul></div>\n");
        }
        self.latest(html, &view.latest, context);
    }

    fn board(&self, html: &mut String, view: &BoardView, context: &RenderContext<'_>) {
        let _ = write!(
            html,
            "<h2 class=\"forum-title\">{}</h2>\n<div class=\"action-bar\">",
            escape(&view.name)
        );
        if let Some(route) = &view.new_thread {
            let _ = write!(
                html,
                "<a href=\"{}\" class=\"button\">New Topic</a>",
                context.href(route)
            );
        }
        self.pagination(html, &view.pager, context);
        html.push_str("</div>\n");
        if !view.stickies.is_empty() {
            html.push_str("<div class=\"forumbg announcement\"><ul class=\"topiclist\"><li class=\"header\">Announcements</li></ul><ul class=\"topiclist topics\">\n");
            for summary in &view.stickies {
                self.topic_row(html, summary, context);
            }
            html.push_str("</ul></div>\n");
        }
        html.push_str("<div class=\"forumbg\"><ul class=\"topiclist\"><li class=\"header\">Topics</li></ul><ul class=\"topiclist topics\">\n");
        for summary in &view.threads {
            self.topic_row(html, summary, context);
        }
        html.push_str("</ul></div>\n");
        if !view.sort_links.is_empty() {
            html.push_str("<fieldset class=\"display-options\">Sort by: ");
            for (sort, address) in &view.sort_links {
                let _ = write!(
                    html,
                    "<a href=\"{}\">{}</a> ",
                    context.href_address(address.clone()),
                    sort.key()
                );
            }
            html.push_str("</fieldset>\n");
        }
        self.pagination(html, &view.pager, context);
        if let Some(route) = &view.archive {
            let _ = writeln!(
                html,
                "<p><a href=\"{}\">Archive</a></p>",
                context.href(route)
            );
        }
        self.latest(html, &view.latest, context);
    }

    fn post(&self, html: &mut String, post: &PostView, title: &str, context: &RenderContext<'_>) {
        let _ = write!(
            html,
            "<div id=\"p{}\" class=\"post bg{}\"><div class=\"inner\">\n<div class=\"postbody\">\n<h3><a href=\"#p{}\">{}{}</a></h3>\n<p class=\"author\">",
            post.post,
            1 + post.number % 2,
            post.post,
            if post.number > 1 { "Re: " } else { "" },
            escape(title)
        );
        if let Some(route) = &post.permalink {
            let _ = write!(
                html,
                "<a href=\"{}#p{}\" title=\"Post\">&#9632;</a> ",
                context.href(route),
                post.post
            );
        }
        let _ = write!(
            html,
            "by <strong>{}</strong> &raquo; {}</p>\n<div class=\"content\">",
            self.username(&post.author, context),
            self.date(context, post.created)
        );
        let paragraphs: Vec<String> = post.paragraphs.iter().map(|p| escape(p)).collect();
        html.push_str(&paragraphs.join("<br />\n"));
        html.push_str("</div>\n");
        if let Some(signature) = &post.signature {
            let _ = writeln!(html, "<div class=\"signature\">{}</div>", escape(signature));
        }
        let _ = write!(
            html,
            "</div>\n<dl class=\"postprofile\"><dt>{}</dt><dd><strong>Posts:</strong> {}</dd>",
            self.username(&post.author, context),
            post.author.posts
        );
        if let Some(joined) = post.author.joined {
            let _ = write!(
                html,
                "<dd><strong>Joined:</strong> {}</dd>",
                self.date(context, joined)
            );
        }
        html.push_str("</dl>\n<ul class=\"post-buttons\">");
        if let Some(route) = &post.quote {
            let _ = write!(
                html,
                "<li><a href=\"{}\" class=\"button\">Quote</a></li>",
                context.href(route)
            );
        }
        if let Some(route) = &post.message {
            let _ = write!(
                html,
                "<li><a href=\"{}\" class=\"button\">PM</a></li>",
                context.href(route)
            );
        }
        html.push_str("</ul>\n</div></div>\n<hr class=\"divider\" />\n");
    }

    fn thread(&self, html: &mut String, view: &ThreadView, context: &RenderContext<'_>) {
        let _ = write!(
            html,
            "<h2 class=\"topic-title\"><a href=\"{}\">{}</a></h2>\n<div class=\"action-bar\">",
            context.href(&Route::Thread {
                thread: view.thread,
                page: 1
            }),
            escape(&view.title)
        );
        if let Some(route) = &view.reply {
            let _ = write!(
                html,
                "<a href=\"{}\" class=\"button\">Post Reply</a> ",
                context.href(route)
            );
        }
        if let Some(route) = &view.print {
            let _ = write!(
                html,
                "<a href=\"{}\" title=\"Print view\">Print view</a> ",
                context.href(route)
            );
        }
        self.pagination(html, &view.pager, context);
        html.push_str("</div>\n");
        for post in &view.posts {
            self.post(html, post, &view.title, context);
        }
        self.pagination(html, &view.pager, context);
        html.push_str("<p class=\"jumpbox\">");
        if let Some(route) = &view.previous_thread {
            let _ = write!(
                html,
                "<a href=\"{}\">&laquo; Previous topic</a> ",
                context.href(route)
            );
        }
        if let Some(route) = &view.next_thread {
            let _ = write!(
                html,
                "<a href=\"{}\">Next topic &raquo;</a>",
                context.href(route)
            );
        }
        let _ = writeln!(
            html,
            "</p>\n<p>Return to <a href=\"{}\">{}</a></p>",
            context.href(&Route::Board {
                board: view.board.0,
                page: 1
            }),
            escape(&view.board.1)
        );
        if let Some(route) = &view.archive {
            let _ = writeln!(
                html,
                "<p><a href=\"{}\">Archive</a></p>",
                context.href(route)
            );
        }
    }
}
