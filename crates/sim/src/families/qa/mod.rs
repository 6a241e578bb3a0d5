//! A question-and-answer site, as Stack Exchange-, OSQA- and Askbot-like engines print one: the
//! boards are tags (`/questions/tagged/<tag>/`), every question is also on the forum-wide
//! "all questions" list (`/questions/`), a question page (`/questions/<id>/<slug>/`) shows the
//! question, then its answers, each with votes and comments, the accepted answer marked. Lists
//! sort by activity (the default), creation or answer count, and a question's answers by age
//! (the default), votes or newest first; later pages are linked with the order spelled out
//! (`?sort=oldest&page=2`), so even the canonical pages carry a sort parameter, and the other
//! orders page alike (`?sort=votes&page=2`): copies of the thread's pages. The question stands
//! again atop every later page. Member pages (`/users/…`) show badge counts; post permalinks
//! (`/posts/<id>/`) redirect into the thread; login walls redirect to the sign-in page.
//!
//! Reading a tag's URL needs the forum's tag names, so the codec keeps an index of them.

use std::collections::HashMap;
use std::sync::Arc;

use super::common::{HistoryCache, action, plain_number, thread_slug, year_month};
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, Quirks,
    RenderContext,
};
use crate::history::ForumHistory;
use crate::html::{parse_query, percent_encode, query_value, split_path_and_query};
use crate::route::{ActionKind, Address, AnswerOrder, Route, SortOrder, Variant};
use crate::text::{self, Language, slugify};
use crate::views::Page;

mod templates;
#[cfg(test)]
mod tests;

/// Every tag's slug, both ways.
#[derive(Debug)]
struct TagIndex {
    /// Per board (index = id - 1): its tag slug, unique in the forum.
    tags: Vec<String>,
    /// Board by tag slug.
    board_by_tag: HashMap<String, u32>,
}

impl TagIndex {
    fn new(history: &ForumHistory) -> TagIndex {
        let mut tags = Vec::new();
        let mut board_by_tag = HashMap::new();
        for board in 1..=history.board_count() {
            let name = history
                .board(board)
                .map_or_else(String::new, |b| b.name.clone());
            let mut tag = slugify(&name);
            // Two boards of one name in different categories keep apart by their id.
            if tag.is_empty() || board_by_tag.contains_key(&tag) {
                tag = format!("{tag}-{board}");
            }
            board_by_tag.insert(tag.clone(), board);
            tags.push(tag);
        }
        TagIndex { tags, board_by_tag }
    }

    /// A board's tag slug; `tag-<id>` for a board this forum does not have.
    fn tag(&self, board: u32) -> String {
        self.tags
            .get((board as usize).wrapping_sub(1))
            .cloned()
            .unwrap_or_else(|| format!("tag-{board}"))
    }
}

#[derive(Debug)]
pub(crate) struct Qa {
    profile: FamilyProfile,
    /// The tag index of the last history asked about.
    index: HistoryCache<TagIndex>,
}

impl Qa {
    pub(crate) fn new() -> Self {
        Qa {
            profile: FamilyProfile {
                name: "qa",
                description: "question-and-answer site: tags as boards beside an all-questions \
                              list, answers sorted by votes or age on pages of their own \
                              (?sort=votes&page=2), votes, comments, accepted answers",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: 0,
                threads_per_page: 15,
                posts_per_page: 10,
                members_per_page: 36,
                login_wall: LoginWall::RedirectToLogin,
                profiles_need_login: false,
                permalink: PermalinkStyle::RedirectsToThreadPage,
                session_parameter: None,
                session_cookie: "sessionid",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 404,
                aliases_redirect: true,
                quirks: Quirks {
                    question_and_answer: true,
                    ..Quirks::NONE
                },
            },
            index: HistoryCache::new(),
        }
    }

    fn index(&self, history: &ForumHistory) -> Arc<TagIndex> {
        self.index.get(history, TagIndex::new)
    }
}

/// The `sort` value of a list order.
fn list_key(sort: SortOrder) -> &'static str {
    match sort {
        SortOrder::LastPost => "active",
        SortOrder::Created => "newest",
        SortOrder::Replies => "answers",
        SortOrder::Title => "title",
        SortOrder::Author => "asker",
    }
}

/// The `sort` value of an order of answers.
fn answer_key(order: AnswerOrder) -> &'static str {
    match order {
        AnswerOrder::Oldest => "oldest",
        AnswerOrder::Votes => "votes",
        AnswerOrder::Newest => "newest",
    }
}

/// The query of a list or question page: nothing for page 1 in the canonical order, `sort`
/// alone for page 1 in another order, and `sort` with `page` for a numbered page (the order is
/// spelled out even when it is the canonical one, as these engines' pagers do).
fn sorted_query(key: &str, canonical: bool, page: u32, variant: &Variant) -> String {
    if page > 1 || variant.explicit_first_page {
        format!("?sort={key}&page={page}")
    } else if canonical {
        String::new()
    } else {
        format!("?sort={key}")
    }
}

/// Reads `sort` and `page` the way [`sorted_query`] writes them: the order's key (`None` when
/// no key is given, and refused when unknown), then the page. The canonical order named on a
/// first page without a number is not a spelling these engines print, so it is refused too.
fn read_sorted<T: Copy + PartialEq + Default>(
    pairs: &[(String, String)],
    orders: &[T],
    key_of: impl Fn(T) -> &'static str,
    variant: &mut Variant,
) -> Option<(T, u32)> {
    let order = match query_value(pairs, "sort") {
        Some(key) => Some(*orders.iter().find(|&&order| key_of(order) == key)?),
        None => None,
    };
    let page = match query_value(pairs, "page") {
        Some(text) => {
            // A numbered page always names its order.
            order?;
            let page = plain_number(text).filter(|&page| page >= 1)?;
            variant.explicit_first_page = page == 1;
            page
        }
        None => 1,
    };
    let order = order.unwrap_or_default();
    if page == 1 && !variant.explicit_first_page && order == T::default() {
        let named = query_value(pairs, "sort").is_some();
        if named {
            return None;
        }
    }
    Some((order, page))
}

/// The orders a list offers, the canonical one first.
const LIST_ORDERS: [SortOrder; 3] = [SortOrder::LastPost, SortOrder::Created, SortOrder::Replies];

/// Every order of answers, the canonical one first.
const ANSWER_ORDERS: [AnswerOrder; 3] =
    [AnswerOrder::Oldest, AnswerOrder::Votes, AnswerOrder::Newest];

/// `/questions/<id>/<slug>/`, the slug dropped for the alias spelling (which redirects).
fn question_path(history: &ForumHistory, thread: u32, alias: bool) -> String {
    match alias {
        true => format!("/questions/{thread}/"),
        false => format!("/questions/{thread}/{}/", thread_slug(history, thread)),
    }
}

/// A user's name read from a path: it must be the name of that user.
fn user_path(history: &ForumHistory, user: u32) -> String {
    format!(
        "/users/{user}/{}/",
        text::user_name(history.seed, user).to_lowercase()
    )
}

impl Family for Qa {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let index = self.index(history);
        let variant = &address.variant;
        let list_query = |page: u32| {
            let sort = variant.sort;
            sorted_query(list_key(sort), sort == SortOrder::LastPost, page, variant)
        };
        match address.route {
            Route::BoardAfter { .. } | Route::HiddenThread { .. } => {
                self.encode(&super::common::without_quirks(address), history)
            }
            Route::Portal => "/".to_string(),
            Route::AllThreads { page } => format!("/questions/{}", list_query(page)),
            Route::Board { board, page } => {
                format!(
                    "/questions/tagged/{}/{}",
                    index.tag(board),
                    list_query(page)
                )
            }
            Route::Thread { thread, page } => {
                let order = variant.answers;
                let query = sorted_query(
                    answer_key(order),
                    order == AnswerOrder::Oldest,
                    page,
                    variant,
                );
                question_path(history, thread, variant.alias) + &query
            }
            Route::Post { post } => format!("/posts/{post}/"),
            Route::Print { thread } => format!("{}print/", question_path(history, thread, false)),
            Route::ArchiveBoard { board } => format!("/feeds/tag/{}/", index.tag(board)),
            Route::ArchiveThread { thread } => {
                format!("{}plain/", question_path(history, thread, false))
            }
            // Neighbours are linked directly ("related questions"); this spelling only exists so
            // that every address round-trips, and the server answers it as missing.
            Route::AdjacentThread { thread, newer } => {
                let direction = if newer { "next" } else { "previous" };
                format!("{}{direction}/", question_path(history, thread, false))
            }
            Route::Profile { user } => user_path(history, user),
            Route::MemberList { page } if page > 1 || variant.explicit_first_page => {
                format!("/users/?page={page}")
            }
            Route::MemberList { .. } => "/users/".to_string(),
            Route::Calendar { year, month } => format!("/questions/archive/{year:04}-{month:02}/"),
            Route::Search { page } => format!("/search/?q=unanswered&page={page}"),
            Route::Login { next: None } => "/account/signin/".to_string(),
            Route::Login {
                next: Some(ref next),
            } => format!("/account/signin/?next={}", percent_encode(next)),
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => format!("{}answer/", question_path(history, target, false)),
                ActionKind::NewThread => format!("/questions/ask/?tag={}", index.tag(target)),
                ActionKind::Quote => format!("/posts/{target}/comment/"),
                ActionKind::Message => format!("{}message/", user_path(history, target)),
            },
        }
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let segments: Vec<&str> = path.strip_prefix('/')?.split('/').collect();
        // Every path but the portal's ends with a slash, so the last segment is empty.
        let segments = match segments.split_last() {
            Some((&"", rest)) => rest,
            _ => return None,
        };
        let index = self.index(history);
        let route = match segments {
            [] => Route::Portal,
            ["questions"] => {
                let (sort, page) = read_sorted(&pairs, &LIST_ORDERS, list_key, &mut variant)?;
                variant.sort = sort;
                Route::AllThreads { page }
            }
            ["questions", "tagged", tag] => {
                let board = *index.board_by_tag.get(*tag)?;
                let (sort, page) = read_sorted(&pairs, &LIST_ORDERS, list_key, &mut variant)?;
                variant.sort = sort;
                Route::Board { board, page }
            }
            ["questions", "ask"] => {
                let tag = query_value(&pairs, "tag")?;
                action(ActionKind::NewThread, *index.board_by_tag.get(tag)?)
            }
            ["questions", "archive", month] => {
                let (year, month) = year_month(month)?;
                Route::Calendar { year, month }
            }
            ["questions", id, rest @ ..] => {
                let thread = plain_number(id)?;
                history.thread(thread)?;
                let (tail, alias) = match rest {
                    [] => (&[][..], true),
                    [slug, tail @ ..] if *slug == thread_slug(history, thread) => (tail, false),
                    _ => return None,
                };
                match tail {
                    [] => {
                        let (order, page) =
                            read_sorted(&pairs, &ANSWER_ORDERS, answer_key, &mut variant)?;
                        variant.answers = order;
                        variant.alias = alias;
                        Route::Thread { thread, page }
                    }
                    _ if alias => return None,
                    ["print"] => Route::Print { thread },
                    ["plain"] => Route::ArchiveThread { thread },
                    ["answer"] => action(ActionKind::Reply, thread),
                    ["next"] => Route::AdjacentThread {
                        thread,
                        newer: true,
                    },
                    ["previous"] => Route::AdjacentThread {
                        thread,
                        newer: false,
                    },
                    _ => return None,
                }
            }
            ["posts", id] => Route::Post {
                post: plain_number(id)?,
            },
            ["posts", id, "comment"] => action(ActionKind::Quote, plain_number(id)?),
            ["feeds", "tag", tag] => Route::ArchiveBoard {
                board: *index.board_by_tag.get(*tag)?,
            },
            ["users"] => {
                let page = match query_value(&pairs, "page") {
                    Some(text) => plain_number(text).filter(|&page| page >= 1)?,
                    None => 1,
                };
                variant.explicit_first_page = query_value(&pairs, "page").is_some() && page == 1;
                Route::MemberList { page }
            }
            ["users", id, name, tail @ ..] => {
                let user = plain_number(id)?;
                if text::user_name(history.seed, user).to_lowercase() != *name {
                    return None;
                }
                match tail {
                    [] => Route::Profile { user },
                    ["message"] => action(ActionKind::Message, user),
                    _ => return None,
                }
            }
            ["search"] if query_value(&pairs, "q") == Some("unanswered") => Route::Search {
                page: plain_number(query_value(&pairs, "page")?).filter(|&page| page >= 1)?,
            },
            ["account", "signin"] => Route::Login {
                next: query_value(&pairs, "next").map(str::to_string),
            },
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        self.render_page(page, context)
    }
}
