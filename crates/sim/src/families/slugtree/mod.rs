//! Slug-only hierarchical URLs, as small Django forums (django-simple-forum and hand-made ones)
//! print them: no id anywhere, only the names of the category, the board and the thread in a
//! path (`/c/hardware/graphics-cards/how-to-fix-it/`), later pages as `?page=N`. Two threads of
//! one board with the same title get `-2`, `-3` after the slug, in creation order. Paths end
//! with a slash; the spelling without it is redirected (Django's `APPEND_SLASH`). Login walls
//! redirect to `/accounts/login/?next=…`; a post's permalink, numbered within its thread,
//! shows the post alone.
//!
//! Reading such a URL needs the forum's names, so the codec keeps an index of every slug,
//! made once per history.

use std::collections::HashMap;
use std::sync::Arc;

use super::common::{HistoryCache, action, page_parameter, plain_number, year_month};
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

/// Every slug of one history, both ways.
#[derive(Debug)]
struct SlugIndex {
    /// Per board (index = id - 1): category slug and board slug.
    boards: Vec<(String, String)>,
    /// Board by (category slug, board slug).
    board_by_slugs: HashMap<(String, String), u32>,
    /// Per thread (index = id - 1): its slug, unique within its board.
    threads: Vec<String>,
    /// Thread by (board, slug).
    thread_by_slug: HashMap<(u32, String), u32>,
}

impl SlugIndex {
    fn new(history: &ForumHistory) -> SlugIndex {
        let mut boards = Vec::new();
        let mut board_by_slugs = HashMap::new();
        for board in 1..=history.board_count() {
            let record = history.board(board).expect("listed boards exist");
            let category = history
                .categories
                .get(record.category as usize)
                .map_or_else(|| "forum".to_string(), |category| slugify(&category.name));
            let slugs = (category, slugify(&record.name));
            board_by_slugs.entry(slugs.clone()).or_insert(board);
            boards.push(slugs);
        }
        let mut threads = Vec::new();
        let mut thread_by_slug = HashMap::new();
        for thread in 1..=history.thread_count() {
            let board = history.thread(thread).map_or(0, |record| record.board);
            let base = slugify(&text::title(history.seed, history.language, thread));
            let mut slug = base.clone();
            let mut suffix = 1;
            while thread_by_slug.contains_key(&(board, slug.clone())) {
                suffix += 1;
                slug = format!("{base}-{suffix}");
            }
            thread_by_slug.insert((board, slug.clone()), thread);
            threads.push(slug);
        }
        SlugIndex {
            boards,
            board_by_slugs,
            threads,
            thread_by_slug,
        }
    }

    /// `/c/<category>/<board>/`, or `/c/forum/board-<id>/` for a board this forum does not have
    /// (it is answered "not found" anyway).
    fn board_path(&self, board: u32) -> String {
        match self.boards.get((board as usize).wrapping_sub(1)) {
            Some((category, name)) => format!("/c/{category}/{name}/"),
            None => format!("/c/forum/board-{board}/"),
        }
    }

    /// The board path followed by the thread's slug.
    fn thread_path(&self, history: &ForumHistory, thread: u32) -> String {
        let board = history.thread(thread).map_or(0, |record| record.board);
        match self.threads.get((thread as usize).wrapping_sub(1)) {
            Some(slug) => format!("{}{slug}/", self.board_path(board)),
            None => format!("/c/forum/board-0/thread-{thread}/"),
        }
    }
}

#[derive(Debug)]
pub(crate) struct Slugtree {
    profile: FamilyProfile,
    /// The slug index of the last history asked about.
    index: HistoryCache<SlugIndex>,
}

impl Slugtree {
    pub(crate) fn new() -> Self {
        Slugtree {
            profile: FamilyProfile {
                name: "slugtree",
                description: "slug-only hierarchical URLs without ids: \
                              /c/category/board/thread-slug/?page=2, Django-style trailing \
                              slashes and login redirects",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: -5 * 3_600,
                threads_per_page: 25,
                posts_per_page: 15,
                members_per_page: 30,
                login_wall: LoginWall::RedirectToLogin,
                profiles_need_login: false,
                permalink: PermalinkStyle::SinglePost,
                session_parameter: None,
                session_cookie: "sessionid",
                adjacent_threads: AdjacentThreads::ServerResolved,
                missing_status: 404,
                aliases_redirect: true,
                quirks: Quirks::NONE,
            },
            index: HistoryCache::new(),
        }
    }

    fn index(&self, history: &ForumHistory) -> Arc<SlugIndex> {
        self.index.get(history, SlugIndex::new)
    }
}

/// The `ordering` value of a list order (Django REST-style: a minus for descending).
fn ordering(sort: SortOrder) -> &'static str {
    match sort {
        SortOrder::LastPost => "-last_post",
        SortOrder::Title => "title",
        SortOrder::Author => "starter",
        SortOrder::Replies => "-replies",
        SortOrder::Created => "-created",
    }
}

/// `?page=N` for a list page when it is spelled.
fn page_query(page: u32, variant: &Variant, separator: char) -> String {
    match page > 1 || variant.explicit_first_page {
        true => format!("{separator}page={page}"),
        false => String::new(),
    }
}

/// Reads what follows a thread's slug.
fn thread_route(
    thread: u32,
    tail: &[&str],
    pairs: &[(String, String)],
    history: &ForumHistory,
    variant: &mut Variant,
) -> Option<Route> {
    let numbered = |number: &str| {
        let index = plain_number(number.strip_prefix("post-")?)?.checked_sub(1)?;
        history.thread_posts(thread).get(index as usize).copied()
    };
    Some(match tail {
        [] => Route::Thread {
            thread,
            page: page_parameter(pairs, variant)?,
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
        [post] => Route::Post {
            post: numbered(post)?,
        },
        [post, "quote"] => action(ActionKind::Quote, numbered(post)?),
        _ => return None,
    })
}

/// A user's name read from a path: it must be a name this forum has.
fn user_named(name: &str, history: &ForumHistory) -> Option<u32> {
    let letters = name.trim_end_matches(|character: char| character.is_ascii_digit());
    let user = plain_number(&name[letters.len()..])?;
    (text::user_name(history.seed, user) == name).then_some(user)
}

impl Family for Slugtree {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let index = self.index(history);
        let variant = &address.variant;
        let mut url = match address.route {
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                return self.encode(&super::common::without_quirks(address), history);
            }
            Route::Portal => "/".to_string(),
            Route::Board { board, page } => {
                let mut url = index.board_path(board);
                if variant.sort != SortOrder::LastPost {
                    put!(url, "?ordering={}", ordering(variant.sort));
                }
                let separator = if url.contains('?') { '&' } else { '?' };
                url + &page_query(page, variant, separator)
            }
            Route::Thread { thread, page } => {
                index.thread_path(history, thread) + &page_query(page, variant, '?')
            }
            Route::Post { post } => {
                let thread = history.post(post).map_or(0, |record| record.thread);
                let number = history
                    .thread_posts(thread)
                    .binary_search(&post)
                    .map_or(0, |found| found + 1);
                format!("{}post-{number}/", index.thread_path(history, thread))
            }
            Route::Print { thread } => format!("{}print/", index.thread_path(history, thread)),
            Route::ArchiveBoard { board } => {
                format!("/archive{}", &index.board_path(board)[2..])
            }
            Route::ArchiveThread { thread } => {
                format!("/archive{}", &index.thread_path(history, thread)[2..])
            }
            Route::AdjacentThread { thread, newer } => {
                let direction = if newer { "next" } else { "previous" };
                format!("{}{direction}/", index.thread_path(history, thread))
            }
            Route::Profile { user } => {
                format!("/members/{}/", text::user_name(history.seed, user))
            }
            Route::MemberList { page } => format!("/members/{}", page_query(page, variant, '?')),
            Route::Calendar { year, month } => format!("/calendar/{year:04}-{month:02}/"),
            Route::Search { page } => {
                format!("/search/?q=new{}", page_query(page, variant, '&'))
            }
            Route::Login { next: None } => "/accounts/login/".to_string(),
            Route::Login {
                next: Some(ref next),
            } => format!("/accounts/login/?next={}", percent_encode(next)),
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("{}reply/", index.thread_path(history, target)),
                ActionKind::NewThread => format!("{}new/", index.board_path(target)),
                ActionKind::Quote => {
                    let post = Address::canonical(Route::Post { post: target });
                    format!("{}quote/", self.encode(&post, history))
                }
                ActionKind::Message => {
                    format!("/messages/new/{}/", text::user_name(history.seed, target))
                }
            },
        };
        // The alias spelling drops the trailing slash, which the server adds back by redirect.
        let end = url.find('?').unwrap_or(url.len());
        if variant.alias && end > 1 && url[..end].ends_with('/') {
            url.remove(end - 1);
        }
        url
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let path = path.strip_prefix('/')?;
        let path = match path.strip_suffix('/') {
            Some(path) => path,
            None if path.is_empty() => path,
            None => {
                variant.alias = true;
                path
            }
        };
        let segments: Vec<&str> = path.split('/').collect();
        let index = self.index(history);
        let board_of = |category: &str, board: &str| {
            index
                .board_by_slugs
                .get(&(category.to_string(), board.to_string()))
                .copied()
        };
        let route = match segments.as_slice() {
            [""] if !variant.alias => Route::Portal,
            ["c", category, board] | ["c", category, board, "new"] => {
                let board = board_of(category, board)?;
                if segments.len() == 4 {
                    action(ActionKind::NewThread, board)
                } else {
                    if let Some(key) = query_value(&pairs, "ordering") {
                        let mut orders = SortOrder::ALTERNATIVES.into_iter();
                        variant.sort = orders.find(|&sort| ordering(sort) == key)?;
                    }
                    Route::Board {
                        board,
                        page: page_parameter(&pairs, &mut variant)?,
                    }
                }
            }
            ["c", category, board, slug, tail @ ..] => {
                let board = board_of(category, board)?;
                let thread = *index.thread_by_slug.get(&(board, slug.to_string()))?;
                thread_route(thread, tail, &pairs, history, &mut variant)?
            }
            ["archive", category, board] => Route::ArchiveBoard {
                board: board_of(category, board)?,
            },
            ["archive", category, board, slug] => {
                let board = board_of(category, board)?;
                Route::ArchiveThread {
                    thread: *index.thread_by_slug.get(&(board, slug.to_string()))?,
                }
            }
            ["members"] => Route::MemberList {
                page: page_parameter(&pairs, &mut variant)?,
            },
            ["members", name] => Route::Profile {
                user: user_named(name, history)?,
            },
            ["calendar", month] => {
                let (year, month) = year_month(month)?;
                Route::Calendar { year, month }
            }
            ["search"] if query_value(&pairs, "q") == Some("new") => Route::Search {
                page: page_parameter(&pairs, &mut variant)?,
            },
            ["accounts", "login"] => Route::Login {
                next: query_value(&pairs, "next").map(str::to_string),
            },
            ["messages", "new", name] => action(ActionKind::Message, user_named(name, history)?),
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        self.render_page(page, context)
    }
}
