//! XenForo 2-like: "friendly" URLs with a title slug before the id (`/threads/how-to-fix-it.123/`,
//! `/forums/hardware.3/page-2`), sort orders as `?order=title&direction=asc`, the XenForo 2 div
//! layout with BEM class names (`structItem`, `message`, `pageNav`), 403 login walls and post
//! permalinks (`/posts/456/`) that redirect to the thread page holding the post.
//!
//! Dates: every instant is a `<time class="u-dt">` element whose `datetime` attribute carries the
//! absolute time as `2025-03-30T22:11:05+0000`, with `data-time` (Unix seconds),
//! `data-date-string`, `data-time-string` and a `title` like "Mar 30, 2025 at 10:11 PM". The
//! visible text is relative to the request, as XenForo prints it: "A moment ago", "N minutes ago",
//! "Today at 10:11 PM", "Yesterday at 10:11 PM", a weekday ("Sunday at 10:11 PM") within a week,
//! and "Mar 30, 2025" beyond. Join dates beside posts are plain dates ("Mar 30, 2025").
//!
//! Slugs are decoration: the id after the dot decides the page. A missing or wrong slug, or a
//! missing trailing slash, decodes as an alias, which the server redirects to the canonical URL.

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
pub(crate) struct Xenforo {
    profile: FamilyProfile,
}

impl Xenforo {
    pub(crate) fn new() -> Self {
        Xenforo {
            profile: FamilyProfile {
                name: "xenforo",
                description: "XenForo 2-like: /threads/slug.123/page-2, structItem and message \
                              divs, relative <time> dates, 403 login walls",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: 0,
                threads_per_page: 20,
                posts_per_page: 20,
                members_per_page: 20,
                login_wall: LoginWall::Forbidden,
                profiles_need_login: false,
                permalink: PermalinkStyle::RedirectsToThreadPage,
                session_parameter: None,
                session_cookie: "xf_session",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 404,
                aliases_redirect: true,
                quirks: super::Quirks::NONE,
            },
        }
    }
}

/// XenForo's `order` key, the `direction` that gives our list, and the filter menu's label.
fn sort_keys(sort: SortOrder) -> (&'static str, &'static str, &'static str) {
    match sort {
        SortOrder::LastPost => ("last_post_date", "desc", "Last message"),
        SortOrder::Title => ("title", "asc", "Title"),
        SortOrder::Author => ("username", "asc", "Thread starter"),
        SortOrder::Replies => ("reply_count", "desc", "Replies"),
        SortOrder::Created => ("post_date", "desc", "First message"),
    }
}

fn board_slug(history: &ForumHistory, board: u32) -> String {
    // An unknown board still needs some slug so that its URL round-trips; the page is a 404 anyway.
    history
        .board(board)
        .map_or_else(|| "forum".to_string(), |record| slugify(&record.name))
}

fn member_slug(history: &ForumHistory, user: u32) -> String {
    slugify(&text::user_name(history.seed, user))
}

/// `/kind/slug.id/`, or `/kind/id/` for the slug-less alias spelling.
fn slugged(kind: &str, slug: &str, id: u32, alias: bool) -> String {
    if alias {
        format!("/{kind}/{id}/")
    } else {
        format!("/{kind}/{slug}.{id}/")
    }
}

/// Reads a `slug.id` path segment (or a bare `id`); a slug other than `expected` makes an alias.
fn slugged_id(
    segment: &str,
    variant: &mut Variant,
    expected: impl Fn(u32) -> String,
) -> Option<u32> {
    let Some((slug, digits)) = segment.rsplit_once('.') else {
        variant.alias = true;
        return plain_number(segment);
    };
    let id = plain_number(digits)?;
    variant.alias |= slug != expected(id);
    Some(id)
}

/// What follows a slugged segment: a URL without its trailing slash is an alias of the one with.
fn tail<'a>(rest: &[&'a str], variant: &mut Variant) -> Option<&'a str> {
    match rest {
        [] => {
            variant.alias = true;
            Some("")
        }
        [only] => Some(only),
        _ => None,
    }
}

/// Reads the page of board and thread URLs: an empty segment for page 1, else `page-N`.
fn page_segment(segment: &str, variant: &mut Variant) -> Option<u32> {
    let page = match segment {
        "" => return Some(1),
        _ => plain_number(segment.strip_prefix("page-")?).filter(|&page| page >= 1)?,
    };
    variant.explicit_first_page = page == 1;
    Some(page)
}

/// Reads `?page=N` of the member list and the "what's new" listing.
fn page_parameter(pairs: &[(String, String)], variant: &mut Variant) -> Option<u32> {
    let Some(text) = query_value(pairs, "page") else {
        return Some(1);
    };
    let page = plain_number(text).filter(|&page| page >= 1)?;
    variant.explicit_first_page = page == 1;
    Some(page)
}

/// Reads `?order=&direction=` into the variant's sort order.
fn sort_order(pairs: &[(String, String)], variant: &mut Variant) -> Option<()> {
    let Some(order) = query_value(pairs, "order") else {
        return Some(());
    };
    let mut orders = [SortOrder::LastPost]
        .into_iter()
        .chain(SortOrder::ALTERNATIVES);
    let sort = orders.find(|&sort| sort_keys(sort).0 == order)?;
    // XenForo sorts descending when no direction is given; the ascending orders would then be
    // reversed lists, which this forum does not have.
    match query_value(pairs, "direction") {
        Some(given) if given == sort_keys(sort).1 => {}
        None if sort_keys(sort).1 == "desc" => variant.alias = true,
        _ => return None,
    }
    variant.alias |= sort == SortOrder::LastPost;
    variant.sort = sort;
    Some(())
}

impl Family for Xenforo {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let listed = |page: u32| page > 1 || variant.explicit_first_page;
        let page_suffix = |page| {
            if listed(page) {
                format!("page-{page}")
            } else {
                String::new()
            }
        };
        let page_query = |page| {
            if listed(page) {
                format!("?page={page}")
            } else {
                String::new()
            }
        };
        let board = |id| slugged("forums", &board_slug(history, id), id, variant.alias);
        let thread = |id| slugged("threads", &thread_slug(history, id), id, variant.alias);
        match address.route {
            // Quirks this engine lacks are spelled as the plain route they stand for.
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                self.encode(&without_quirks(address), history)
            }
            Route::Portal if variant.alias => "/index.php".to_string(),
            Route::Portal => "/".to_string(),
            Route::Board { board: id, page } => {
                let (order, direction, _) = sort_keys(variant.sort);
                let sort = match variant.sort {
                    SortOrder::LastPost => String::new(),
                    _ => format!("?order={order}&direction={direction}"),
                };
                format!("{}{}{sort}", board(id), page_suffix(page))
            }
            Route::Thread { thread: id, page } => format!("{}{}", thread(id), page_suffix(page)),
            Route::Post { post } => format!("/posts/{post}/"),
            Route::Print { thread: id } => format!("{}print", thread(id)),
            Route::ArchiveBoard { board: id } => format!("/archive/forums/{id}/"),
            Route::ArchiveThread { thread: id } => format!("/archive/threads/{id}/"),
            // XenForo links neighbours directly; this spelling only exists so that every address
            // round-trips, and the server answers it as missing.
            Route::AdjacentThread {
                thread: id,
                newer: true,
            } => format!("{}next", thread(id)),
            Route::AdjacentThread {
                thread: id,
                newer: false,
            } => format!("{}previous", thread(id)),
            Route::Profile { user } => {
                slugged("members", &member_slug(history, user), user, variant.alias)
            }
            Route::MemberList { page } => format!("/members/list/{}", page_query(page)),
            Route::Calendar { year, month } => format!("/events/{year:04}-{month:02}/"),
            Route::Search { page } => format!("/whats-new/posts/{}", page_query(page)),
            Route::Login { next: None } => "/login/".to_string(),
            Route::Login {
                next: Some(ref next),
            } => {
                format!("/login/?_xfRedirect={}", percent_encode(next))
            }
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("{}reply", thread(target)),
                ActionKind::NewThread => format!("{}post-thread", board(target)),
                ActionKind::Quote => format!("/posts/{target}/quote"),
                ActionKind::Message => format!("/conversations/add?to={target}"),
            },
        }
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let segments: Vec<&str> = path.strip_prefix('/')?.split('/').collect();
        let route = match segments.as_slice() {
            [""] => Route::Portal,
            ["index.php"] => {
                variant.alias = true;
                Route::Portal
            }
            ["forums", item, rest @ ..] => {
                let board = slugged_id(item, &mut variant, |id| board_slug(history, id))?;
                match tail(rest, &mut variant)? {
                    "post-thread" => action(ActionKind::NewThread, board),
                    segment => {
                        let page = page_segment(segment, &mut variant)?;
                        sort_order(&pairs, &mut variant)?;
                        Route::Board { board, page }
                    }
                }
            }
            ["threads", item, rest @ ..] => {
                let thread = slugged_id(item, &mut variant, |id| thread_slug(history, id))?;
                match tail(rest, &mut variant)? {
                    "print" => Route::Print { thread },
                    "reply" => action(ActionKind::Reply, thread),
                    "next" => Route::AdjacentThread {
                        thread,
                        newer: true,
                    },
                    "previous" => Route::AdjacentThread {
                        thread,
                        newer: false,
                    },
                    segment => {
                        let page = page_segment(segment, &mut variant)?;
                        Route::Thread { thread, page }
                    }
                }
            }
            ["posts", id, rest @ ..] => {
                let post = plain_number(id)?;
                match tail(rest, &mut variant)? {
                    "" => Route::Post { post },
                    "quote" => action(ActionKind::Quote, post),
                    _ => return None,
                }
            }
            ["members", "list", ""] => {
                let page = page_parameter(&pairs, &mut variant)?;
                Route::MemberList { page }
            }
            ["members", item, rest @ ..] => {
                let user = slugged_id(item, &mut variant, |id| member_slug(history, id))?;
                tail(rest, &mut variant)?
                    .is_empty()
                    .then_some(Route::Profile { user })?
            }
            ["archive", "forums", id, ""] => Route::ArchiveBoard {
                board: plain_number(id)?,
            },
            ["archive", "threads", id, ""] => Route::ArchiveThread {
                thread: plain_number(id)?,
            },
            ["events", month, ""] => {
                let (year, month) = year_month(month)?;
                Route::Calendar { year, month }
            }
            ["whats-new", "posts", ""] => {
                let page = page_parameter(&pairs, &mut variant)?;
                Route::Search { page }
            }
            ["login", ""] => {
                let next = query_value(&pairs, "_xfRedirect").map(str::to_string);
                Route::Login { next }
            }
            ["conversations", "add"] => action(
                ActionKind::Message,
                plain_number(query_value(&pairs, "to")?)?,
            ),
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        self.render_page(page, context)
    }
}
