//! NodeBB's server-rendered markup: `component=` attributes, schema.org lists, empty `timeago`
//! elements whose UTC time only a script would write out, and the `<noscript>` pager.

use super::{Nodebb, sort_key};
use crate::dates;
use crate::families::RenderContext;
use crate::families::skeleton::{self, ENGLISH, Kit, Words, optional_link, post_text};
use crate::html::escape;
use crate::route::Route;
use crate::views::*;

/// The words of NodeBB's pages that the skeleton writes.
const WORDS: Words = Words {
    class: "nb",
    threads: "Recent topics",
    not_found: "You seem to have stumbled upon a page that does not exist.",
    ..ENGLISH
};

/// The instant in UTC, as NodeBB's `timeago` titles carry it.
fn utc(instant: i64) -> String {
    let local = dates::local_time(instant, 0);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.000Z",
        local.year, local.month, local.day, local.hour, local.minute, local.second
    )
}

/// An empty `timeago` element: the text is left to a script.
fn timeago(instant: i64) -> String {
    format!("<span class=\"timeago\" title=\"{}\"></span>", utc(instant))
}

/// A user's name linked to the profile, or the bare name when profiles are off.
fn user_link(user: &UserCard, context: &RenderContext<'_>) -> String {
    let name = escape(&user.name);
    let id = user.user;
    match &user.profile {
        Some(route) => format!(
            "<a href=\"{}\" data-username=\"{name}\" data-uid=\"{id}\" itemprop=\"author\">\
             {name}</a>",
            context.href(route)
        ),
        None => format!("<span data-uid=\"{id}\" itemprop=\"author\">{name}</span>"),
    }
}

impl Nodebb {
    /// Writes `page` as a whole HTML document.
    pub(super) fn render_page(&self, page: &Page, context: &RenderContext<'_>) -> String {
        let mut html = String::with_capacity(32 * 1024);
        let chrome = &page.chrome;
        let forum = escape(&chrome.forum_name);
        let heading = escape(&chrome.title);
        let title = match &page.body {
            Body::Portal(_) => forum.clone(),
            _ => format!("{heading} | {forum}"),
        };
        let template = match &page.body {
            Body::Portal(_) => "categories",
            Body::Board(_) => "category",
            Body::Thread(_) => "topic",
            Body::NotFound => "404",
            Body::Login(_) => "login",
            _ => "page",
        };
        put!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en-GB\" data-dir=\"ltr\">\n<head>\n\
             <title>{title}</title>\n<meta name=\"viewport\" content=\"width&#x3D;device-width, \
             initial-scale&#x3D;1.0\" />\n<meta name=\"content-type\" content=\"text/html; \
             charset=UTF-8\" />\n<meta property=\"og:site_name\" content=\"{forum}\" />\n\
             <meta property=\"og:title\" content=\"{heading}\" />\n"
        );
        // The head names the page itself and its neighbours: for category lists the only link
        // to their later pages.
        let lists = match &page.body {
            Body::Board(view) => Some(&view.pager),
            Body::Thread(view) => Some(&view.pager),
            _ => None,
        };
        if let Some(pager) = lists {
            for (relation, neighbour) in [("prev", &pager.previous), ("next", &pager.next)] {
                if let Some(address) = neighbour {
                    let href = context.href_address(address.clone());
                    put!(html, "<link rel=\"{relation}\" href=\"{href}\" />\n");
                }
            }
        }
        html.push_str(
            "<script>var config = JSON.parse('{\"relative_path\":\"\",\"theme\":\"harmony\"}');\
             </script>\n</head>\n",
        );
        put!(
            html,
            "<body class=\"page-{template} skin-noskin\">\n<nav component=\"sidebar/left\" \
             class=\"sidebar\">\n<ul id=\"main-nav\" class=\"list-unstyled\">\n"
        );
        let navigation = &chrome.navigation;
        let entries = [
            (Some(&navigation.portal), "Categories"),
            (navigation.members.as_ref(), "Users"),
            (navigation.search.as_ref(), "Search"),
            (navigation.calendar.as_ref(), "Calendar"),
            (Some(&navigation.login), "Login"),
        ];
        for (route, label) in entries {
            if let Some(route) = route {
                let href = context.href(route);
                put!(
                    html,
                    "<li class=\"nav-item\"><a class=\"nav-link\" href=\"{href}\">\
                     <span class=\"nav-text\">{label}</span></a></li>\n"
                );
            }
        }
        html.push_str("</ul>\n</nav>\n<main id=\"panel\" class=\"flex-fill\">\n");
        if let Some(advertisement) = chrome.advertisement {
            let slot = advertisement.len();
            put!(
                html,
                "<div data-widget-area=\"header\"><a href=\"https://ads.example.net/nb?s={slot}\" \
                 rel=\"nofollow sponsored\">{}</a></div>\n",
                escape(advertisement)
            );
        }
        if let Some(instant) = chrome.last_visit {
            put!(
                html,
                "<div class=\"last-visit text-muted\">Last visit {}</div>\n",
                timeago(instant)
            );
        }
        html.push_str(
            "<ol class=\"breadcrumb\" itemscope itemtype=\"https://schema.org/BreadcrumbList\">\n",
        );
        for (index, (route, label)) in chrome.breadcrumbs.iter().enumerate() {
            put!(
                html,
                "<li itemscope itemprop=\"itemListElement\" itemtype=\"https://schema.org/ListItem\" \
                 class=\"breadcrumb-item\"><meta itemprop=\"position\" content=\"{}\" />\
                 <a href=\"{}\" itemprop=\"item\"><span itemprop=\"name\">{}</span></a></li>\n",
                index + 1,
                context.href(route),
                escape(label)
            );
        }
        put!(
            html,
            "<li class=\"breadcrumb-item active\"><span>{heading}</span></li>\n</ol>\n"
        );
        let user = |card: &UserCard| user_link(card, context);
        let kit = Kit {
            context,
            user: &user,
            date: &timeago,
            words: &WORDS,
        };
        self.body(&mut html, &page.body, &kit);
        let footer = &chrome.footer;
        let newest = footer
            .newest_member
            .as_ref()
            .map_or_else(String::new, |member| {
                format!(", newest user {}", user_link(member, context))
            });
        let clock = chrome.clock.map_or_else(String::new, timeago);
        put!(
            html,
            "<noscript><div class=\"alert alert-danger\"><p>Your browser does not seem to support \
             JavaScript. As a result, your viewing experience will be diminished.</p></div>\
             </noscript>\n</main>\n<footer component=\"footer\" class=\"footer\">\
             <div class=\"stats\">{} topics, {} posts, {} users{newest}</div>\
             <div class=\"clock\">{clock}</div><div class=\"copyright\">Powered by \
             <a href=\"https://nodebb.org\">NodeBB</a></div></footer>\n\
             <script defer src=\"/assets/nodebb.min.js?v=8b1c3a\"></script>\n</body>\n</html>\n",
            footer.threads,
            footer.posts,
            footer.members
        );
        html
    }

    fn body(&self, html: &mut String, body: &Body, kit: &Kit<'_, '_>) {
        let context = kit.context;
        match body {
            Body::Portal(view) => self.portal(html, view, context),
            Body::Board(view) => self.board(html, view, context),
            Body::Thread(view) => self.thread(html, view, kit),
            Body::SinglePost(view) => {
                let href = context.href(&view.in_thread);
                put!(
                    html,
                    "<h1><a href=\"{href}\">{}</a></h1>\n<ul component=\"topic\" class=\"posts\">\n",
                    escape(&view.thread.1)
                );
                self.post(html, &view.post, context);
                html.push_str("</ul>\n");
            }
            Body::Print(view) | Body::ArchiveThread(view) => {
                let href = context.href(&view.original);
                put!(
                    html,
                    "<h1><a href=\"{href}\">{}</a></h1>\n<ul component=\"topic\" class=\"posts\">\n",
                    escape(&view.title)
                );
                for post in &view.posts {
                    self.post(html, post, context);
                }
                html.push_str("</ul>\n");
            }
            other => {
                skeleton::other_page(html, other, kit);
            }
        }
    }

    /// The last post of a list entry: author and a permalink carrying the time.
    fn teaser(&self, last: &LastPost, context: &RenderContext<'_>) -> String {
        format!(
            "<div component=\"topic/teaser\" class=\"teaser\">{} <a class=\"permalink\" \
             href=\"{}\">{}</a></div>",
            user_link(&last.author, context),
            context.href(&last.link),
            timeago(last.created)
        )
    }

    fn recent(&self, html: &mut String, latest: &[ThreadSummary], context: &RenderContext<'_>) {
        if latest.is_empty() {
            return;
        }
        html.push_str(
            "<div data-widget-area=\"sidebar\"><h3>Recent Topics</h3>\n\
             <ul class=\"recent-replies\">\n",
        );
        for summary in latest {
            put!(
                html,
                "<li><a href=\"{}\">{}</a> {}</li>\n",
                context.href(&summary.link),
                escape(&summary.title),
                self.teaser(&summary.last_post, context)
            );
        }
        html.push_str("</ul></div>\n");
    }

    fn portal(&self, html: &mut String, view: &PortalView, context: &RenderContext<'_>) {
        for category in &view.categories {
            put!(
                html,
                "<h2 class=\"category-group\">{}</h2>\n<ul class=\"categories list-unstyled\" \
                 itemscope itemtype=\"http://www.schema.org/ItemList\">\n",
                escape(&category.name)
            );
            for board in &category.boards {
                let id = board.board;
                let teaser = board.last_post.as_ref().map_or_else(String::new, |last| {
                    format!(
                        "<a href=\"{}\">{}</a> {}",
                        context.href(&Route::Thread {
                            thread: last.thread,
                            page: 1
                        }),
                        escape(&last.thread_title),
                        self.teaser(last, context)
                    )
                });
                put!(
                    html,
                    "<li component=\"categories/category\" data-cid=\"{id}\" class=\"category-{id}\">\
                     <meta itemprop=\"name\" content=\"{name}\">\n<h3 class=\"title\">\
                     <a href=\"{href}\" itemprop=\"url\">{name}</a></h3>\n\
                     <span class=\"stats\"><span class=\"human-readable-number\" title=\"{topics}\">\
                     {topics}</span> Topics <span class=\"human-readable-number\" \
                     title=\"{posts}\">{posts}</span> Posts</span>\n\
                     <div component=\"category/posts\">{teaser}</div></li>\n",
                    name = escape(&board.name),
                    href = context.href(&board.link),
                    topics = board.threads,
                    posts = board.posts
                );
            }
            html.push_str("</ul>\n");
        }
        self.recent(html, &view.latest, context);
    }

    fn board(&self, html: &mut String, view: &BoardView, context: &RenderContext<'_>) {
        let create = optional_link(&view.new_thread, "btn btn-primary", "New Topic", context);
        let feed = optional_link(&view.archive, "rss", "RSS Feed", context);
        put!(
            html,
            "<div component=\"category\" data-cid=\"{}\">\n<h1 class=\"category-name\">{}</h1>\n\
             <div class=\"category-tools\">{create}{feed}",
            view.board,
            escape(&view.name)
        );
        if !view.sort_links.is_empty() {
            put!(
                html,
                "<div component=\"thread/sort\" class=\"dropdown\"><span>{}</span>\
                 <ul class=\"dropdown-menu\">\n",
                sort_key(view.sort).1
            );
            for (sort, address) in &view.sort_links {
                put!(
                    html,
                    "<li><a class=\"dropdown-item\" href=\"{}\" rel=\"nofollow\">{}</a></li>\n",
                    context.href_address(address.clone()),
                    sort_key(*sort).1
                );
            }
            html.push_str("</ul></div>\n");
        }
        put!(
            html,
            "</div>\n<ul component=\"category\" class=\"topics-list list-unstyled\" itemscope \
             itemtype=\"http://www.schema.org/ItemList\" data-set=\"cid:{}:tids\">\n",
            view.board
        );
        let first = (view.pager.current as usize - 1) * self.profile.threads_per_page as usize;
        for (index, summary) in view.stickies.iter().chain(&view.threads).enumerate() {
            self.topic_item(html, summary, first + index, context);
        }
        html.push_str("</ul>\n</div>\n");
        // The pager for clients without scripts; the server ignores its page numbers.
        if view.pager.total > 1 {
            html.push_str(
                "<noscript><nav component=\"pagination\" class=\"pagination-container\">\
                 <ul class=\"pagination\">\n",
            );
            for (number, address) in &view.pager.pages {
                match *number == view.pager.current {
                    true => put!(
                        html,
                        "<li class=\"page-item active\"><span class=\"page-link\">{number}</span>\
                         </li>\n"
                    ),
                    false => put!(
                        html,
                        "<li class=\"page-item\"><a class=\"page-link\" href=\"{}\">{number}</a>\
                         </li>\n",
                        context.href_address(address.clone())
                    ),
                }
            }
            html.push_str("</ul></nav></noscript>\n");
        }
        self.recent(html, &view.latest, context);
    }

    fn topic_item(
        &self,
        html: &mut String,
        summary: &ThreadSummary,
        index: usize,
        context: &RenderContext<'_>,
    ) {
        let pinned = if summary.sticky { " pinned" } else { "" };
        let label = match summary.sticky {
            true => "<span component=\"topic/pinned\" class=\"badge\">Pinned</span> ",
            false => "",
        };
        let pages: Vec<String> = summary
            .page_links
            .iter()
            .map(|(number, route)| format!("<a href=\"{}\">{number}</a>", context.href(route)))
            .collect();
        let pages = match pages.is_empty() {
            true => String::new(),
            false => format!(" <span class=\"topic-pages\">{}</span>", pages.join(" ")),
        };
        put!(
            html,
            "<li component=\"category/topic\" class=\"category-item{pinned}\" data-tid=\"{tid}\" \
             data-index=\"{index}\" itemprop=\"itemListElement\" itemscope \
             itemtype=\"https://schema.org/ListItem\"><meta itemprop=\"position\" \
             content=\"{position}\" />\n<h3 component=\"topic/header\" class=\"title\">{label}\
             <a href=\"{href}\" itemprop=\"url\">{title}</a>{pages}</h3>\n\
             <div class=\"info\">{author} {created}</div>\n<div class=\"stats\">\
             <span class=\"human-readable-number\" title=\"{posts}\">{posts}</span> Posts \
             <span class=\"human-readable-number\" title=\"{views}\">{views}</span> Views</div>\n\
             {teaser}</li>\n",
            tid = summary.thread,
            position = index + 1,
            href = context.href(&summary.link),
            title = escape(&summary.title),
            author = user_link(&summary.author, context),
            created = timeago(summary.created),
            posts = summary.replies + 1,
            views = summary.views,
            teaser = self.teaser(&summary.last_post, context)
        );
    }

    fn post(&self, html: &mut String, post: &PostView, context: &RenderContext<'_>) {
        let created = utc(post.created);
        let time = match &post.permalink {
            Some(route) => format!(
                "<a href=\"{}\" class=\"timeago text-muted\" title=\"{created}\"></a>",
                context.href(route)
            ),
            None => format!("<span class=\"timeago text-muted\" title=\"{created}\"></span>"),
        };
        let joined = post.author.joined.map_or_else(String::new, |instant| {
            format!(
                " <span class=\"joined text-muted\">joined {}</span>",
                timeago(instant)
            )
        });
        let signature = post.signature.as_deref().map_or_else(String::new, |text| {
            format!(
                "<div component=\"post/signature\" data-uid=\"{}\" class=\"post-signature\">{}\
                 </div>\n",
                post.author.user,
                escape(text)
            )
        });
        let quote = optional_link(&post.quote, "quote", "Quote", context);
        let chat = optional_link(&post.message, "chat", "Chat", context);
        put!(
            html,
            "<li component=\"post\" class=\"topic-post\" data-index=\"{index}\" data-pid=\"{pid}\" \
             data-uid=\"{uid}\" itemscope itemtype=\"https://schema.org/Comment\">\n\
             <a component=\"post/anchor\" data-index=\"{index}\" id=\"{number}\"></a>\n\
             <meta itemprop=\"datePublished\" content=\"{created}\">\n<div class=\"post-header\">\
             {author}{joined} {time}</div>\n<div class=\"content\" component=\"post/content\" \
             itemprop=\"text\">\n{text}</div>\n{signature}<div component=\"post/actions\">{quote}\
             {chat}</div>\n</li>\n",
            index = post.number - 1,
            pid = post.post,
            uid = post.author.user,
            number = post.number,
            author = user_link(&post.author, context),
            text = post_text(post, context),
        );
    }

    fn thread(&self, html: &mut String, view: &ThreadView, kit: &Kit<'_, '_>) {
        let context = kit.context;
        let board = Route::Board {
            board: view.board.0,
            page: 1,
        };
        put!(
            html,
            "<div class=\"topic\" itemscope itemtype=\"https://schema.org/DiscussionForumPosting\">\n\
             <h1 component=\"post/header\" class=\"topic-title\" itemprop=\"headline\">\
             <span component=\"topic/title\">{}</span></h1>\n<a class=\"category-link\" \
             href=\"{}\">{}</a>\n<ul component=\"topic\" class=\"posts timeline\" \
             data-tid=\"{}\">\n",
            escape(&view.title),
            context.href(&board),
            escape(&view.board.1),
            view.thread
        );
        for post in &view.posts {
            self.post(html, post, context);
        }
        html.push_str("</ul>\n");
        let pages = skeleton::numbered_pager(&view.pager, "pagination", kit);
        if !pages.is_empty() {
            put!(
                html,
                "<nav component=\"pagination\" class=\"pagination-container\">{pages}</nav>\n"
            );
        }
        let reply = optional_link(&view.reply, "btn btn-primary", "Reply", context);
        let print = optional_link(&view.print, "print", "Print", context);
        let feed = optional_link(&view.archive, "rss", "RSS Feed", context);
        let previous = optional_link(&view.previous_thread, "previous", "Older topic", context);
        let next = optional_link(&view.next_thread, "next", "Newer topic", context);
        put!(
            html,
            "<div component=\"topic/reply/container\">{reply}{print}{feed}</div>\n\
             <div component=\"topic/suggested\">{previous}{next}</div>\n</div>\n"
        );
    }
}
