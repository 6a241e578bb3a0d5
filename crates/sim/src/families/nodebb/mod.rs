//! NodeBB-like: the server-rendered view of a JavaScript-first forum, which is all a crawler
//! without scripts gets.
//!
//! Paths carry the id and then a title slug (`/topic/123/how-to-fix-it?page=2`,
//! `/category/3/hardware`); a missing or wrong slug is redirected. Category lists page by
//! cursor, as "load more" lists do: a later page is `?after=<thread id>`, the last thread of the
//! page before, and only `<link rel="next">` in the head names it. The numbered pager the page
//! prints for clients without scripts links `?page=N`, which the server ignores and answers
//! with the first page again. Thread pages start with the last post of the page before
//! repeated. Some posts link other threads, some of them in a members-only category that
//! guests are told does not exist. Times are ISO 8601 in UTC in `title` attributes of empty
//! `timeago` elements, to be filled in by scripts. robots.txt keeps crawlers off member pages.

use super::common::{action, page_parameter, plain_number, thread_slug};
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, Quirks,
    RenderContext,
};
use crate::history::ForumHistory;
use crate::html::{parse_query, percent_encode, query_value, split_path_and_query};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::{self, Language, slugify};
use crate::views::Page;

mod templates;
#[cfg(test)]
mod tests;

#[derive(Debug)]
pub(crate) struct Nodebb {
    profile: FamilyProfile,
}

impl Nodebb {
    pub(crate) fn new() -> Self {
        Nodebb {
            profile: FamilyProfile {
                name: "nodebb",
                description: "NodeBB server-rendered view: /topic/123/slug?page=2, category \
                              pages by cursor named only by <link rel=next>, repeated posts, \
                              links into members-only threads, robots.txt",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: 3_600,
                threads_per_page: 20,
                posts_per_page: 20,
                members_per_page: 40,
                login_wall: LoginWall::Forbidden,
                profiles_need_login: false,
                permalink: PermalinkStyle::RedirectsToThreadPage,
                session_parameter: None,
                session_cookie: "express.sid",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 404,
                aliases_redirect: true,
                quirks: Quirks {
                    board_cursor: true,
                    repeat_last_post: true,
                    links_in_posts: true,
                    question_and_answer: false,
                    quotes_parent: false,
                },
            },
        }
    }
}

/// NodeBB's `sort` key of a list order, and its label in the sort menu.
fn sort_key(sort: SortOrder) -> (&'static str, &'static str) {
    match sort {
        SortOrder::LastPost => ("recently_replied", "Recently Replied"),
        SortOrder::Created => ("recently_created", "Recently Created"),
        SortOrder::Replies => ("most_posts", "Most Posts"),
        SortOrder::Title => ("alphabetical", "Title"),
        SortOrder::Author => ("author", "Author"),
    }
}

fn board_slug(history: &ForumHistory, board: u32) -> String {
    history
        .board(board)
        .map_or_else(|| "category".to_string(), |record| slugify(&record.name))
}

/// The slug of a thread, public or members-only (whose title is made the same way).
fn any_thread_slug(history: &ForumHistory, thread: u32) -> String {
    match history.hidden_threads().contains(&thread) {
        true => slugify(&text::title(history.seed, history.language, thread)),
        false => thread_slug(history, thread),
    }
}

/// The user slug NodeBB prints: the name in lower case.
fn user_slug(history: &ForumHistory, user: u32) -> String {
    text::user_name(history.seed, user).to_lowercase()
}

/// Reads a user slug: its trailing digits are the user id and the rest must spell that user's
/// name; the name as it is written (with capitals) is an alias NodeBB redirects.
fn user_from_slug(slug: &str, history: &ForumHistory, variant: &mut Variant) -> Option<u32> {
    let letters = slug.trim_end_matches(|character: char| character.is_ascii_digit());
    let user = plain_number(&slug[letters.len()..])?;
    let expected = user_slug(history, user);
    if slug != expected {
        slug.eq_ignore_ascii_case(&expected).then_some(())?;
        variant.alias = true;
    }
    Some(user)
}

/// Reads `?sort=` into the variant; naming the default order is an alias.
fn sort_parameter(pairs: &[(String, String)], variant: &mut Variant) -> Option<()> {
    let Some(key) = query_value(pairs, "sort") else {
        return Some(());
    };
    let mut orders = [SortOrder::LastPost]
        .into_iter()
        .chain(SortOrder::ALTERNATIVES);
    variant.sort = orders.find(|&sort| sort_key(sort).0 == key)?;
    variant.alias |= variant.sort == SortOrder::LastPost;
    Some(())
}

/// Reads a category's query: `after=` (a cursor) or `page=` (the pager the server ignores).
fn category_route(board: u32, pairs: &[(String, String)], variant: &mut Variant) -> Option<Route> {
    sort_parameter(pairs, variant)?;
    if let Some(after) = query_value(pairs, "after") {
        return Some(Route::BoardAfter {
            board,
            after: plain_number(after)?,
        });
    }
    if let Some(page) = query_value(pairs, "page") {
        // Page 1 of the pager is the plain list; other numbers are ignored by the server.
        variant.ignored_page = Some(plain_number(page)?).filter(|&page| page != 1);
        variant.alias |= variant.ignored_page.is_none();
    }
    Some(Route::Board { board, page: 1 })
}

/// Reads what follows `/topic/<id>/<slug>`.
fn topic_route(
    thread: u32,
    tail: &[&str],
    pairs: &[(String, String)],
    history: &ForumHistory,
    variant: &mut Variant,
) -> Option<Route> {
    if history.hidden_threads().contains(&thread) {
        return tail.is_empty().then_some(Route::HiddenThread { thread });
    }
    Some(match tail {
        [] => Route::Thread {
            thread,
            page: page_parameter(pairs, variant)?,
        },
        ["print"] => Route::Print { thread },
        ["next"] => Route::AdjacentThread {
            thread,
            newer: true,
        },
        ["previous"] => Route::AdjacentThread {
            thread,
            newer: false,
        },
        _ => return None,
    })
}

impl Family for Nodebb {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let alias = variant.alias;
        let topic = |thread: u32| match alias {
            true => format!("/topic/{thread}"),
            false => format!("/topic/{thread}/{}", any_thread_slug(history, thread)),
        };
        let category = |board: u32| {
            let mut url = match alias {
                true => format!("/category/{board}"),
                false => format!("/category/{board}/{}", board_slug(history, board)),
            };
            if variant.sort != SortOrder::LastPost {
                put!(url, "?sort={}", sort_key(variant.sort).0);
            }
            url
        };
        let then = |url: &str| if url.contains('?') { '&' } else { '?' };
        match address.route {
            Route::AllThreads { .. } => {
                self.encode(&super::common::without_quirks(address), history)
            }
            Route::Portal if alias => "/categories".to_string(),
            Route::Portal => "/".to_string(),
            Route::Board { board, page } => {
                let mut url = category(board);
                // Later numbered pages only exist as the ignored pager's spelling.
                if let Some(page) = variant.ignored_page.or((page > 1).then_some(page)) {
                    let separator = then(&url);
                    put!(url, "{separator}page={page}");
                }
                url
            }
            Route::BoardAfter { board, after } => {
                let mut url = category(board);
                let separator = then(&url);
                put!(url, "{separator}after={after}");
                url
            }
            Route::Thread { thread, page } if page > 1 || variant.explicit_first_page => {
                format!("{}?page={page}", topic(thread))
            }
            Route::Thread { thread, .. } | Route::HiddenThread { thread } => topic(thread),
            Route::Post { post } => format!("/post/{post}"),
            Route::Print { thread } => format!("{}/print", topic(thread)),
            Route::ArchiveBoard { board } => format!("/category/{board}.rss"),
            Route::ArchiveThread { thread } => format!("/topic/{thread}.rss"),
            // NodeBB links neighbours directly; this spelling only exists so that every address
            // round-trips, and the server answers it as missing.
            Route::AdjacentThread { thread, newer } => {
                let direction = if newer { "next" } else { "previous" };
                format!("{}/{direction}", topic(thread))
            }
            Route::Profile { user } => match alias {
                true => format!("/user/{}", text::user_name(history.seed, user)),
                false => format!("/user/{}", user_slug(history, user)),
            },
            Route::MemberList { page } if page > 1 || variant.explicit_first_page => {
                format!("/users?page={page}")
            }
            Route::MemberList { .. } => "/users".to_string(),
            Route::Calendar { year, month } => format!("/calendar/{year:04}/{month:02}"),
            Route::Search { page } if page > 1 || variant.explicit_first_page => {
                format!("/search?term=new&page={page}")
            }
            Route::Search { .. } => "/search?term=new".to_string(),
            Route::Login { next: None } => "/login".to_string(),
            Route::Login {
                next: Some(ref next),
            } => format!("/login?next={}", percent_encode(next)),
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("/compose?tid={target}"),
                ActionKind::NewThread => format!("/compose?cid={target}"),
                ActionKind::Quote => format!("/compose?pid={target}"),
                ActionKind::Message => format!("/chats?uid={target}"),
            },
        }
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let segments: Vec<&str> = path.strip_prefix('/')?.split('/').collect();
        let number = |text: &str| plain_number(text);
        let route = match segments.as_slice() {
            [""] => Route::Portal,
            ["categories"] => {
                variant.alias = true;
                Route::Portal
            }
            ["category", id] if id.ends_with(".rss") => Route::ArchiveBoard {
                board: number(id.strip_suffix(".rss")?)?,
            },
            ["category", id] => {
                variant.alias = true;
                category_route(number(id)?, &pairs, &mut variant)?
            }
            ["category", id, slug] => {
                let board = number(id)?;
                variant.alias |= *slug != board_slug(history, board);
                category_route(board, &pairs, &mut variant)?
            }
            ["topic", id] if id.ends_with(".rss") => Route::ArchiveThread {
                thread: number(id.strip_suffix(".rss")?)?,
            },
            ["topic", id] => {
                variant.alias = true;
                topic_route(number(id)?, &[], &pairs, history, &mut variant)?
            }
            ["topic", id, slug, tail @ ..] => {
                let thread = number(id)?;
                variant.alias |= *slug != any_thread_slug(history, thread);
                topic_route(thread, tail, &pairs, history, &mut variant)?
            }
            ["post", id] => Route::Post { post: number(id)? },
            ["users"] => Route::MemberList {
                page: page_parameter(&pairs, &mut variant)?,
            },
            ["user", slug] => Route::Profile {
                user: user_from_slug(slug, history, &mut variant)?,
            },
            ["calendar", year, month] if year.len() == 4 && month.len() == 2 => {
                let month = month.strip_prefix('0').unwrap_or(month);
                Route::Calendar {
                    year: i32::try_from(number(year)?).ok()?,
                    month: number(month)?,
                }
            }
            ["search"] if query_value(&pairs, "term") == Some("new") => Route::Search {
                page: page_parameter(&pairs, &mut variant)?,
            },
            ["login"] => Route::Login {
                next: query_value(&pairs, "next").map(str::to_string),
            },
            ["compose"] => {
                let kinds = [
                    ("tid", ActionKind::Reply),
                    ("cid", ActionKind::NewThread),
                    ("pid", ActionKind::Quote),
                ];
                let (key, kind) = kinds
                    .into_iter()
                    .find(|(key, _)| query_value(&pairs, key).is_some())?;
                action(kind, number(query_value(&pairs, key)?)?)
            }
            ["chats"] => action(ActionKind::Message, number(query_value(&pairs, "uid")?)?),
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        self.render_page(page, context)
    }

    fn robots_txt(&self, _history: &ForumHistory) -> Option<String> {
        Some(
            "User-agent: *\nDisallow: /user/\nDisallow: /users\nDisallow: /compose\n\
             Disallow: /chats\nDisallow: /login\n"
                .to_string(),
        )
    }
}
