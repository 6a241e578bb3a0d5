//! Discourse-like, as its server-rendered crawler view (what a client without JavaScript gets):
//! Rails routes with the title slug before the id (`/t/how-to-fix-it/123`, `/c/hardware/3`),
//! thread pages as one-based `?page=2` but category pages as ZERO-based `?page=1` for page 2,
//! post permalinks by post number (`/t/how-to-fix-it/123/4`) that serve the thread page holding
//! the post, users by name (`/u/Karomi12`), login walls that redirect to `/login?next=...`, and the
//! schema.org-annotated crawler markup (`topic-list`, `crawler-post`, `SiteNavigationElement`).
//!
//! Dates are absolute in the forum's time zone (UTC-8), the visible text like
//! "March 30, 2025, 10:11pm" inside `<time datetime="2025-03-30T22:11:05-08:00">`. The raw view of
//! a thread (`/raw/123`, served here as HTML) prints each post's header the way Discourse's raw
//! export does, "name | 2025-03-31 06:11:05 UTC | #1", in UTC with a `datetime` attribute too.
//!
//! Slugs are decoration: a missing or wrong slug, a lower-case user name or a trailing slash
//! decodes as an alias, which Discourse serves as it is rather than redirecting.

use super::common::{action, plain_number, thread_slug, without_quirks, year_month};
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, RenderContext,
};
use crate::history::ForumHistory;
use crate::html::{parse_query, percent_encode, query_value, split_path_and_query};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::{self, Language, slugify};
use crate::views::*;

mod bodies;
mod templates;
#[cfg(test)]
mod tests;

#[derive(Debug)]
pub(crate) struct Discourse {
    profile: FamilyProfile,
}

impl Discourse {
    pub(crate) fn new() -> Self {
        Discourse {
            profile: FamilyProfile {
                name: "discourse",
                description: "Discourse crawler view: /t/slug/123?page=2, /c/slug/3?page=1 \
                              (zero-based), post-number permalinks, redirecting login walls",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: -8 * 3_600,
                threads_per_page: 30,
                posts_per_page: 20,
                members_per_page: 50,
                login_wall: LoginWall::RedirectToLogin,
                profiles_need_login: false,
                permalink: PermalinkStyle::ShowsThreadPage,
                session_parameter: None,
                session_cookie: "_forum_session",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 404,
                aliases_redirect: false,
                quirks: super::Quirks::NONE,
            },
        }
    }
}

/// Discourse's `order` key, whether the list needs `ascending=true`, and the sort pill's label.
fn sort_keys(sort: SortOrder) -> (&'static str, bool, &'static str) {
    match sort {
        SortOrder::LastPost => ("activity", false, "Activity"),
        SortOrder::Title => ("title", true, "Topic"),
        SortOrder::Author => ("posters", true, "Original poster"),
        SortOrder::Replies => ("posts", false, "Replies"),
        SortOrder::Created => ("created", false, "Created"),
    }
}

fn board_slug(history: &ForumHistory, board: u32) -> String {
    // An unknown category still needs some slug so that its URL round-trips; it is a 404 anyway.
    history
        .board(board)
        .map_or_else(|| "category".to_string(), |record| slugify(&record.name))
}

/// `/t/slug/id`, or `/t/id` for the slug-less alias spelling.
fn thread_path(history: &ForumHistory, thread: u32, alias: bool) -> String {
    match alias {
        true => format!("/t/{thread}"),
        false => format!("/t/{}/{thread}", thread_slug(history, thread)),
    }
}

/// The thread of a post and the post's 1-based number in it, Discourse's `post_number`.
fn post_place(history: &ForumHistory, post: u32) -> Option<(u32, u32)> {
    let thread = history.post(post)?.thread;
    let index = history.thread_posts(thread).binary_search(&post).ok()?;
    Some((thread, index as u32 + 1))
}

/// `/t/slug/thread/number` for a post, or `/p/id` (Discourse's short post link) for the alias
/// spelling and for posts this forum does not have.
fn post_path(history: &ForumHistory, post: u32, alias: bool) -> String {
    match post_place(history, post).filter(|_| !alias) {
        Some((thread, number)) => format!("{}/{number}", thread_path(history, thread, false)),
        None => format!("/p/{post}"),
    }
}

/// Reads `?page=`: one-based for topics and search, zero-based for category and user lists.
fn page_parameter(
    pairs: &[(String, String)],
    zero_based: bool,
    variant: &mut Variant,
) -> Option<u32> {
    let Some(text) = query_value(pairs, "page") else {
        return Some(1);
    };
    let page = plain_number(text)?
        .checked_add(u32::from(zero_based))
        .filter(|&page| page >= 1)?;
    variant.explicit_first_page = page == 1;
    Some(page)
}

/// Reads `?order=&ascending=` into the variant's sort order.
fn sort_order(pairs: &[(String, String)], variant: &mut Variant) -> Option<()> {
    let Some(order) = query_value(pairs, "order") else {
        return Some(());
    };
    let mut orders = [SortOrder::LastPost]
        .into_iter()
        .chain(SortOrder::ALTERNATIVES);
    let sort = orders.find(|&sort| sort_keys(sort).0 == order)?;
    // Without `ascending` Discourse sorts descending; the other direction of an order is a list
    // this forum does not have.
    let ascending = match query_value(pairs, "ascending") {
        None => false,
        Some("true") => true,
        Some("false") => {
            variant.alias = true;
            false
        }
        Some(_) => return None,
    };
    if ascending != sort_keys(sort).1 {
        return None;
    }
    variant.alias |= sort == SortOrder::LastPost;
    variant.sort = sort;
    Some(())
}

/// Reads a user name from `/u/{name}`: the digits it ends with are the user id, and the rest must
/// match that user's name (Discourse compares names without regard to case: an alias).
fn user_from_name(name: &str, history: &ForumHistory, variant: &mut Variant) -> Option<u32> {
    let letters = name.trim_end_matches(|character: char| character.is_ascii_digit());
    let user = plain_number(&name[letters.len()..])?;
    let expected = text::user_name(history.seed, user);
    if name != expected {
        name.eq_ignore_ascii_case(&expected).then_some(())?;
        variant.alias = true;
    }
    Some(user)
}

/// What follows `/t/slug/id`: nothing (a thread page), an action, or a post number.
fn thread_route(
    thread: u32,
    tail: &[&str],
    pairs: &[(String, String)],
    history: &ForumHistory,
    variant: &mut Variant,
) -> Option<Route> {
    let numbered = |number: &str| {
        let index = plain_number(number)?.checked_sub(1)?;
        history.thread_posts(thread).get(index as usize).copied()
    };
    Some(match tail {
        [] => Route::Thread {
            thread,
            page: page_parameter(pairs, false, variant)?,
        },
        ["print"] => Route::Print { thread },
        ["reply"] => action(ActionKind::Reply, thread),
        ["next"] => Route::AdjacentThread {
            thread,
            newer: true,
        },
        ["previous"] => Route::AdjacentThread {
            thread,
            newer: false,
        },
        [number] => Route::Post {
            post: numbered(number)?,
        },
        [number, "quote"] => action(ActionKind::Quote, numbered(number)?),
        _ => return None,
    })
}

impl Family for Discourse {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let alias = variant.alias;
        let listed = |page: u32| page > 1 || variant.explicit_first_page;
        match address.route {
            // Quirks this engine lacks are spelled as the plain route they stand for.
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                self.encode(&without_quirks(address), history)
            }
            Route::Portal if alias => "/categories".to_string(),
            Route::Portal => "/".to_string(),
            Route::Board { board, page } => {
                let mut url = match alias {
                    true => format!("/c/{board}"),
                    false => format!("/c/{}/{board}", board_slug(history, board)),
                };
                let (order, ascending, _) = sort_keys(variant.sort);
                if variant.sort != SortOrder::LastPost {
                    put!(
                        url,
                        "?order={order}{}",
                        if ascending { "&ascending=true" } else { "" }
                    );
                }
                // Category lists count pages from zero: page 2 is `page=1`.
                if listed(page) {
                    let separator = if url.contains('?') { '&' } else { '?' };
                    put!(url, "{separator}page={}", page - 1);
                }
                url
            }
            Route::Thread { thread, page } if listed(page) => {
                format!("{}?page={page}", thread_path(history, thread, alias))
            }
            Route::Thread { thread, .. } => thread_path(history, thread, alias),
            Route::Post { post } => post_path(history, post, alias),
            Route::Print { thread } => format!("{}/print", thread_path(history, thread, false)),
            Route::ArchiveBoard { board } => {
                format!("/c/{}/{board}/l/archive", board_slug(history, board))
            }
            Route::ArchiveThread { thread } => format!("/raw/{thread}"),
            // Discourse links neighbours directly; this spelling only exists so that every
            // address round-trips, and the server answers it as missing.
            Route::AdjacentThread { thread, newer } => {
                let direction = if newer { "next" } else { "previous" };
                format!("{}/{direction}", thread_path(history, thread, false))
            }
            Route::Profile { user } => {
                let name = text::user_name(history.seed, user);
                format!("/u/{}", if alias { name.to_lowercase() } else { name })
            }
            Route::MemberList { page } if listed(page) => format!("/u?page={}", page - 1),
            Route::MemberList { .. } => "/u".to_string(),
            Route::Calendar { year, month } => format!("/calendar?month={year:04}-{month:02}"),
            Route::Search { page } if listed(page) => format!("/search?q=in%3Anew&page={page}"),
            Route::Search { .. } => "/search?q=in%3Anew".to_string(),
            Route::Login { next: None } => "/login".to_string(),
            Route::Login {
                next: Some(ref next),
            } => format!("/login?next={}", percent_encode(next)),
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("{}/reply", thread_path(history, target, false)),
                ActionKind::NewThread => format!("/new-topic?category_id={target}"),
                ActionKind::Quote => format!("{}/quote", post_path(history, target, alias)),
                ActionKind::Message => format!("/new-message?user_id={target}"),
            },
        }
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let mut path = path.strip_prefix('/')?;
        // Rails routes ignore one trailing slash; the slashed spelling is an alias.
        if let Some(trimmed) = path.strip_suffix('/').filter(|trimmed| !trimmed.is_empty()) {
            variant.alias = true;
            path = trimmed;
        }
        let segments: Vec<&str> = path.split('/').collect();
        let route = match segments.as_slice() {
            [""] => Route::Portal,
            ["categories"] => {
                variant.alias = true;
                Route::Portal
            }
            ["c", id] => {
                variant.alias = true;
                let board = plain_number(id)?;
                let page = page_parameter(&pairs, true, &mut variant)?;
                sort_order(&pairs, &mut variant)?;
                Route::Board { board, page }
            }
            ["c", slug, id, tail @ ..] => {
                let board = plain_number(id)?;
                variant.alias |= *slug != board_slug(history, board);
                match tail {
                    ["l", "archive"] => Route::ArchiveBoard { board },
                    [] => {
                        let page = page_parameter(&pairs, true, &mut variant)?;
                        sort_order(&pairs, &mut variant)?;
                        Route::Board { board, page }
                    }
                    _ => return None,
                }
            }
            ["t", id] => {
                variant.alias = true;
                thread_route(plain_number(id)?, &[], &pairs, history, &mut variant)?
            }
            ["t", slug, id, tail @ ..] => {
                let thread = plain_number(id)?;
                variant.alias |= *slug != thread_slug(history, thread);
                thread_route(thread, tail, &pairs, history, &mut variant)?
            }
            ["p", id, tail @ ..] => {
                let post = plain_number(id)?;
                // `/p/id` redirects to the numbered permalink on Discourse; for a post this forum
                // has it is another spelling of that permalink.
                variant.alias |= post_place(history, post).is_some();
                match tail {
                    [] => Route::Post { post },
                    ["quote"] => action(ActionKind::Quote, post),
                    _ => return None,
                }
            }
            ["raw", id] => Route::ArchiveThread {
                thread: plain_number(id)?,
            },
            ["u"] => Route::MemberList {
                page: page_parameter(&pairs, true, &mut variant)?,
            },
            ["u", name] => Route::Profile {
                user: user_from_name(name, history, &mut variant)?,
            },
            ["calendar"] => {
                let (year, month) = year_month(query_value(&pairs, "month")?)?;
                Route::Calendar { year, month }
            }
            ["search"] if query_value(&pairs, "q") == Some("in:new") => Route::Search {
                page: page_parameter(&pairs, false, &mut variant)?,
            },
            ["login"] => Route::Login {
                next: query_value(&pairs, "next").map(str::to_string),
            },
            ["new-topic"] => action(
                ActionKind::NewThread,
                plain_number(query_value(&pairs, "category_id")?)?,
            ),
            ["new-message"] => action(
                ActionKind::Message,
                plain_number(query_value(&pairs, "user_id")?)?,
            ),
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        self.render_page(page, context)
    }
}
