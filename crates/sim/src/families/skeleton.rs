//! The page parts that engines write alike, shared by the families added after the first seven.
//!
//! Most of what an engine prints is its own: the thread list, the posts, the frame. But the
//! pages a forum crawler should leave alone (login form, "not found", member list, profile,
//! calendar, search listing, a board's archive) differ between engines mostly in class names
//! and wording. Writing them once here, with a [`Kit`] that carries each family's own way of
//! showing a user and a date, keeps those families from copying each other's templates; the
//! families keep only the markup that really tells engines apart.

use crate::families::RenderContext;
use crate::html::escape;
use crate::route::{Address, Route};
use crate::views::*;

/// How a family shows the parts every page kind needs.
pub(super) struct Kit<'page, 'context> {
    /// The request's rendering context (links, clock).
    pub context: &'page RenderContext<'context>,
    /// A user's name as the family links it.
    pub user: &'page dyn Fn(&UserCard) -> String,
    /// An instant as the family writes it.
    pub date: &'page dyn Fn(i64) -> String,
    /// The words a family uses for the parts of these pages.
    pub words: &'page Words,
}

/// The words (and class prefix) a family uses on the pages written here.
pub(super) struct Words {
    /// Prefix of every class name these pages carry (`"nb"` gives `nb-members`).
    pub class: &'static str,
    /// Heading of the member list.
    pub members: &'static str,
    /// Column heading of post counts.
    pub posts: &'static str,
    /// Column heading and label of join dates.
    pub joined: &'static str,
    /// Label of a profile's last visit.
    pub last_seen: &'static str,
    /// Heading of a profile's threads.
    pub threads: &'static str,
    /// Heading of the login form.
    pub login: &'static str,
    /// The login form's text when a member-only page was asked for.
    pub members_only: &'static str,
    /// The login form's text when the login page was asked for.
    pub welcome: &'static str,
    /// The "not found" message.
    pub not_found: &'static str,
    /// Heading of the search listing.
    pub search: &'static str,
    /// "replies".
    pub replies: &'static str,
    /// "previous" and "next" of pagers.
    pub previous: &'static str,
    /// See [`Words::previous`].
    pub next: &'static str,
    /// Label of the member-only private-message link.
    pub message: &'static str,
    /// Names of the months, January first.
    pub months: [&'static str; 12],
}

impl Kit<'_, '_> {
    fn href(&self, route: &Route) -> String {
        self.context.href(route)
    }
}

/// `<a href class rel=nofollow>label</a>` for an optional member-only or side link; nothing
/// when the link is absent.
pub(super) fn optional_link(
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
    format!("<a href=\"{href}\" class=\"{class}\"{rel}>{label}</a>\n")
}

/// A family's site menu: each link whose route the page offers as `<a href>label</a>`, with
/// the family's separators `before` and `after` it, in the family's own order and words.
pub(super) fn menu_links(
    html: &mut String,
    links: &[(Option<&Route>, &str)],
    (before, after): (&str, &str),
    context: &RenderContext<'_>,
) {
    for (route, label) in links {
        if let Some(route) = route {
            put!(
                html,
                "{before}<a href=\"{}\">{label}</a>{after}",
                context.href(route)
            );
        }
    }
}

/// A post's text: one `<p>` a paragraph, then the paragraph that carries the author's link.
pub(super) fn post_text(post: &PostView, context: &RenderContext<'_>) -> String {
    let mut text = String::with_capacity(512);
    for paragraph in &post.paragraphs {
        put!(text, "<p>{}</p>\n", escape(paragraph));
    }
    if let Some(link) = &post.link {
        let href = context.href(&link.target);
        let (before, anchor) = (escape(&link.before), escape(&link.anchor));
        put!(text, "<p>{before}<a href=\"{href}\">{anchor}</a></p>\n");
    }
    text
}

/// A numbered page navigator: previous, the pages shown (the current one unlinked), next.
pub(super) fn numbered_pager(pager: &Pager, class: &str, kit: &Kit<'_, '_>) -> String {
    let mut nav = String::new();
    if pager.total <= 1 {
        return nav;
    }
    put!(nav, "<ul class=\"{class}\">\n");
    let link = |address: &Address| kit.context.href_address(address.clone());
    if let Some(previous) = &pager.previous {
        let label = kit.words.previous;
        put!(
            nav,
            "<li class=\"previous\"><a href=\"{}\" rel=\"prev\">{label}</a></li>\n",
            link(previous)
        );
    }
    for (number, address) in &pager.pages {
        match *number == pager.current {
            true => put!(nav, "<li class=\"active\"><span>{number}</span></li>\n"),
            false => put!(nav, "<li><a href=\"{}\">{number}</a></li>\n", link(address)),
        }
    }
    if let Some(next) = &pager.next {
        let label = kit.words.next;
        put!(
            nav,
            "<li class=\"next\"><a href=\"{}\" rel=\"next\">{label}</a></li>\n",
            link(next)
        );
    }
    nav.push_str("</ul>\n");
    nav
}

/// Writes the body of a page that is not a list or a thread (archive of a board, profile,
/// member list, calendar, search listing, login form, "not found") and returns true; returns
/// false and writes nothing for the other pages, which the family writes itself.
pub(super) fn other_page(html: &mut String, body: &Body, kit: &Kit<'_, '_>) -> bool {
    match body {
        Body::ArchiveBoard(view) => archive_board(html, view, kit),
        Body::Profile(view) => profile(html, view, kit),
        Body::MemberList(view) => member_list(html, view, kit),
        Body::Calendar(view) => calendar(html, view, kit),
        Body::Search(view) => search(html, view, kit),
        Body::Login(view) => login(html, view, kit),
        Body::NotFound => not_found(html, kit),
        Body::Portal(_)
        | Body::Board(_)
        | Body::Thread(_)
        | Body::SinglePost(_)
        | Body::Print(_)
        | Body::ArchiveThread(_) => return false,
    }
    true
}

/// The login form, asked for or standing in front of a member-only page.
pub(super) fn login(html: &mut String, view: &LoginView, kit: &Kit<'_, '_>) {
    let words = kit.words;
    let class = words.class;
    let reason = match view.reason {
        LoginReason::Requested => words.welcome,
        LoginReason::MembersOnly => words.members_only,
    };
    let action = kit.href(&view.form_action);
    let heading = words.login;
    put!(
        html,
        "<div class=\"{class}-login\"><h1>{heading}</h1>\n<p class=\"{class}-login-reason\">\
         {reason}</p>\n<form method=\"post\" action=\"{action}\">\n\
         <input type=\"text\" name=\"username\" autocomplete=\"username\">\n\
         <input type=\"password\" name=\"password\" autocomplete=\"current-password\">\n\
         <button type=\"submit\">{heading}</button>\n</form></div>\n"
    );
}

/// The "not found" page body.
pub(super) fn not_found(html: &mut String, kit: &Kit<'_, '_>) {
    let (class, message) = (kit.words.class, kit.words.not_found);
    put!(
        html,
        "<div class=\"{class}-error\"><h1>404</h1><p>{message}</p></div>\n"
    );
}

/// A page of the member list.
pub(super) fn member_list(html: &mut String, view: &MemberListView, kit: &Kit<'_, '_>) {
    let words = kit.words;
    let class = words.class;
    put!(
        html,
        "<div class=\"{class}-members\"><h1>{}</h1>\n<table>\n<tr><th></th><th>{}</th><th>{}</th>\
         </tr>\n",
        words.members,
        words.posts,
        words.joined
    );
    for member in &view.members {
        let name = (kit.user)(member);
        let joined = member.joined.map(kit.date).unwrap_or_default();
        let posts = member.posts;
        put!(
            html,
            "<tr><td>{name}</td><td>{posts}</td><td>{joined}</td></tr>\n"
        );
    }
    let pages = numbered_pager(&view.pager, &format!("{class}-pagination"), kit);
    put!(html, "</table>\n{pages}</div>\n");
}

/// A user's profile.
pub(super) fn profile(html: &mut String, view: &ProfileView, kit: &Kit<'_, '_>) {
    let words = kit.words;
    let class = words.class;
    let name = escape(&view.user.name);
    let joined = (kit.date)(view.joined);
    let seen = view.last_visit.map_or_else(String::new, |instant| {
        format!(
            "<dt>{}</dt><dd>{}</dd>",
            words.last_seen,
            (kit.date)(instant)
        )
    });
    let posts = view.user.posts;
    let message = optional_link(&view.message, "message", words.message, kit.context);
    put!(
        html,
        "<div class=\"{class}-profile\"><h1>{name}</h1>\n<dl><dt>{}</dt><dd>{joined}</dd>{seen}\
         <dt>{}</dt><dd>{posts}</dd></dl>\n{message}<h2>{}</h2>\n<ul>\n",
        words.joined,
        words.posts,
        words.threads
    );
    for (route, title) in &view.recent_threads {
        put!(
            html,
            "<li><a href=\"{}\">{}</a></li>\n",
            kit.href(route),
            escape(title)
        );
    }
    html.push_str("</ul></div>\n");
}

/// A month of the calendar, with its neighbours.
pub(super) fn calendar(html: &mut String, view: &CalendarView, kit: &Kit<'_, '_>) {
    let months = kit.words.months;
    let class = kit.words.class;
    let name = |route: &Route| match *route {
        Route::Calendar { year, month } => {
            format!("{} {year}", months[(month as usize).clamp(1, 12) - 1])
        }
        _ => String::new(),
    };
    let this = name(&Route::Calendar {
        year: view.year,
        month: view.month,
    });
    let (previous, next) = (kit.href(&view.previous), kit.href(&view.next));
    let (before, after) = (name(&view.previous), name(&view.next));
    put!(
        html,
        "<div class=\"{class}-calendar\"><h1>{this}</h1>\n<a href=\"{previous}\" \
         class=\"previous\">« {before}</a> <a href=\"{next}\" class=\"next\">{after} »</a>\n<ul>\n"
    );
    let month = months[(view.month as usize).clamp(1, 12) - 1];
    for (day, route, title) in &view.events {
        put!(
            html,
            "<li>{day} {month}: <a href=\"{}\">{}</a></li>\n",
            kit.href(route),
            escape(title)
        );
    }
    html.push_str("</ul></div>\n");
}

/// A page of the endless search listing.
pub(super) fn search(html: &mut String, view: &SearchView, kit: &Kit<'_, '_>) {
    let words = kit.words;
    let class = words.class;
    put!(
        html,
        "<div class=\"{class}-search\"><h1>{}</h1>\n<ol>\n",
        words.search
    );
    for summary in &view.results {
        let href = kit.href(&summary.link);
        let title = escape(&summary.title);
        let author = (kit.user)(&summary.author);
        let replies = summary.replies;
        let latest = (kit.date)(summary.last_post.created);
        put!(
            html,
            "<li><a href=\"{href}\">{title}</a> {author}, {replies} {}, {latest}</li>\n",
            words.replies
        );
    }
    let pager = Pager {
        current: view.page,
        total: view.page + 1,
        pages: vec![(
            view.page,
            Address::canonical(Route::Search { page: view.page }),
        )],
        previous: view.previous.clone().map(Address::canonical),
        next: Some(Address::canonical(view.next.clone())),
    };
    let pages = numbered_pager(&pager, &format!("{class}-pagination"), kit);
    put!(html, "</ol>\n{pages}</div>\n");
}

/// A board's archive: every thread title on one page.
pub(super) fn archive_board(html: &mut String, view: &ArchiveBoardView, kit: &Kit<'_, '_>) {
    let class = kit.words.class;
    let name = escape(&view.name);
    put!(
        html,
        "<div class=\"{class}-archive\"><h1>{name}</h1>\n<ul>\n"
    );
    for (route, title) in &view.threads {
        put!(
            html,
            "<li><a href=\"{}\">{}</a></li>\n",
            kit.href(route),
            escape(title)
        );
    }
    html.push_str("</ul></div>\n");
}

/// The English words of pages written here.
pub(super) const ENGLISH: Words = Words {
    class: "forum",
    members: "Members",
    posts: "Posts",
    joined: "Joined",
    last_seen: "Last seen",
    threads: "Topics",
    login: "Log in",
    members_only: "You need to be logged in to do that.",
    welcome: "Welcome back! Please log in.",
    not_found: "The page you were looking for does not exist.",
    search: "Search results",
    replies: "replies",
    previous: "Previous",
    next: "Next",
    message: "Send a message",
    months: crate::dates::ENGLISH_MONTHS,
};
