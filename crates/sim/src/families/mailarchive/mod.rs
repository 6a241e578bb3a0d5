//! A mailing-list archive in the style of pipermail, MHonArc and hypermail.
//!
//! A list archive is a forum with no forum program behind it: every board is a mailing list,
//! every thread a chain of mails joined by `In-Reply-To`, and the archive is static HTML. The
//! host's front page answers 302 to the archive index (`/` to `/archives/`), which lists the
//! lists. Each list is a path segment (`/archives/<list>/`) with paged indexes of the same
//! messages in several orders: by thread (`threads.html`, `threads2.html`), the canonical one,
//! and by date, author and subject, which are copies of it. Every message has a page of its own
//! in the folder of the month it was sent (`/archives/<list>/2025-03/msg00042.html`, numbered
//! by message), so a thread is as many pages as it has messages, joined by "Thread Prev/Next"
//! links, with "Date Prev/Next" links to the list's neighbouring messages of other threads. A
//! message page shows its header as a From/Date/Subject list over the body, in `<pre>` for plain
//! mails and paragraphs for HTML ones, and replies quote the message they answer with `> `.
//!
//! In the simulator's terms the posts per page are one: `Route::Thread { thread, page }` is
//! the thread's `page`-th message, so the truth's thread lists are the reply chains and a
//! "Thread Next" link flips pages. A Message-ID link (`/msgid/<list>/<stamp>.<post>`) is the
//! post permalink, redirecting to the message's page.

use super::common::{
    HistoryCache, action, page_parameter, plain_number, without_quirks, year_month,
};
use super::{
    AdjacentThreads, Charset, Family, FamilyProfile, LoginWall, PermalinkStyle, Quirks,
    RenderContext,
};
use crate::dates::local_time;
use crate::history::ForumHistory;
use crate::html::{parse_query, percent_encode, query_value, split_path_and_query};
use crate::route::{ActionKind, Address, Route, SortOrder, Variant};
use crate::text::{self, Language, slugify};
use crate::views::Page;

mod templates;
#[cfg(test)]
mod tests;

/// Where the archives live.
const ARCHIVES: &str = "/archives/";

#[derive(Debug)]
pub(crate) struct Mailarchive {
    profile: FamilyProfile,
    /// The list name of every board (index = id - 1).
    lists: HistoryCache<Vec<String>>,
}

impl Mailarchive {
    pub(crate) fn new() -> Self {
        Mailarchive {
            profile: FamilyProfile {
                name: "mailarchive",
                description: "mailing-list archive (pipermail/MHonArc/hypermail style): lists as \
                              path segments, paged thread and date indexes, one page per message \
                              in month folders, the front page answering 302",
                language: Language::English,
                charset: Charset::Utf8,
                charset_in_header: true,
                utc_offset_seconds: 0,
                threads_per_page: 30,
                posts_per_page: 1,
                members_per_page: 50,
                login_wall: LoginWall::Forbidden,
                profiles_need_login: false,
                permalink: PermalinkStyle::RedirectsToThreadPage,
                session_parameter: None,
                session_cookie: "mm_session",
                adjacent_threads: AdjacentThreads::DirectLinks,
                missing_status: 404,
                aliases_redirect: true,
                quirks: Quirks {
                    quotes_parent: true,
                    ..Quirks::NONE
                },
            },
            lists: HistoryCache::new(),
        }
    }

    /// The path segment naming a board's list (`general-discussion`).
    fn list(&self, history: &ForumHistory, board: u32) -> String {
        let lists = self.lists.get(history, |history| {
            (1..=history.board_count())
                .map(|board| {
                    history
                        .board(board)
                        .map_or_else(String::new, |b| slugify(&b.name))
                })
                .collect()
        });
        lists
            .get((board as usize).wrapping_sub(1))
            .cloned()
            .unwrap_or_else(|| format!("list{board}"))
    }

    /// The board a list segment names.
    fn board_of(&self, history: &ForumHistory, list: &str) -> Option<u32> {
        (1..=history.board_count()).find(|&board| self.list(history, board) == list)
    }

    /// The list a thread belongs to.
    fn list_of_thread(&self, history: &ForumHistory, thread: u32) -> String {
        self.list(history, history.thread(thread).map_or(0, |t| t.board))
    }

    /// The canonical path of message `post`: its list, the month it was sent, its number.
    fn message_path(&self, history: &ForumHistory, post: u32) -> String {
        let record = history.post(post);
        let thread = record.map_or(0, |record| record.thread);
        let sent = local_time(record.map_or(0, |record| record.created), 0);
        format!(
            "{ARCHIVES}{}/{:04}-{:02}/msg{post:05}.html",
            self.list_of_thread(history, thread),
            sent.year,
            sent.month
        )
    }
}

/// The index file of a list order: the thread view is the canonical one.
fn index_name(sort: SortOrder) -> &'static str {
    match sort {
        SortOrder::LastPost => "threads",
        SortOrder::Created => "date",
        SortOrder::Author => "author",
        SortOrder::Title => "subject",
        SortOrder::Replies => "activity",
    }
}

/// A message number as archives write it: at least five digits, zero-padded.
fn message_number(text: &str) -> Option<u32> {
    let number: u32 = text.parse().ok()?;
    (text.bytes().all(|byte| byte.is_ascii_digit()) && format!("{number:05}") == text)
        .then_some(number)
}

/// `Sun Mar 30 22:11:05 2025` as a Message-ID stamp (`20250330221105`).
fn stamp(instant: i64) -> String {
    let local = local_time(instant, 0);
    format!(
        "{:04}{:02}{:02}{:02}{:02}{:02}",
        local.year, local.month, local.day, local.hour, local.minute, local.second
    )
}

impl Family for Mailarchive {
    fn profile(&self) -> &FamilyProfile {
        &self.profile
    }

    fn entry(&self) -> Address {
        let mut front = Address::canonical(Route::Portal);
        front.variant.alias = true;
        front
    }

    fn redirect_status(&self) -> u16 {
        302
    }

    fn encode(&self, address: &Address, history: &ForumHistory) -> String {
        let variant = &address.variant;
        let list = |board: u32| self.list(history, board);
        let thread_list = |thread: u32| self.list_of_thread(history, thread);
        let post_list = |post: u32| thread_list(history.post(post).map_or(0, |p| p.thread));
        let page_query = |page: u32| match page > 1 || variant.explicit_first_page {
            true => format!("?page={page}"),
            false => String::new(),
        };
        match address.route {
            Route::BoardAfter { .. } | Route::HiddenThread { .. } | Route::AllThreads { .. } => {
                self.encode(&without_quirks(address), history)
            }
            Route::Portal if variant.alias => "/".to_string(),
            Route::Portal => ARCHIVES.to_string(),
            Route::Board { board, page } => {
                let number = match page > 1 || variant.explicit_first_page {
                    true => page.to_string(),
                    false => String::new(),
                };
                format!(
                    "{ARCHIVES}{}/{}{number}.html",
                    list(board),
                    index_name(variant.sort)
                )
            }
            Route::Thread { thread, page } => {
                let posts = history.thread_posts(thread);
                match posts.get((page as usize).wrapping_sub(1)) {
                    Some(&post) => {
                        let part = if variant.explicit_first_page {
                            "?part=1"
                        } else {
                            ""
                        };
                        format!("{}{part}", self.message_path(history, post))
                    }
                    // No message has this place in the thread: a path no page of the archive
                    // has, which reads back as nothing.
                    None => format!(
                        "{ARCHIVES}{}/thread{thread}-{page}.html",
                        thread_list(thread)
                    ),
                }
            }
            Route::Post { post } => {
                let created = history.post(post).map_or(0, |p| p.created);
                format!("/msgid/{}/{}.{post}", post_list(post), stamp(created))
            }
            Route::Print { thread } => {
                format!(
                    "{ARCHIVES}{}/print/thread{thread}.html",
                    thread_list(thread)
                )
            }
            Route::ArchiveThread { thread } => {
                format!("{ARCHIVES}{}/flat/thread{thread}.html", thread_list(thread))
            }
            Route::ArchiveBoard { board } => format!("{ARCHIVES}{}/flat/", list(board)),
            Route::AdjacentThread { thread, newer } => format!(
                "{ARCHIVES}{}/{}thread{thread}.html",
                thread_list(thread),
                if newer { "next" } else { "prev" }
            ),
            Route::Profile { user } => format!(
                "{ARCHIVES}authors/{}.html",
                text::user_name(history.seed, user)
            ),
            Route::MemberList { page } => format!("{ARCHIVES}authors/{}", page_query(page)),
            Route::Calendar { year, month } => {
                format!("{ARCHIVES}calendar/{year:04}-{month:02}.html")
            }
            Route::Search { page } => format!("{ARCHIVES}search{}", page_query(page)),
            Route::Login { next: None } => "/mailman/login".to_string(),
            Route::Login {
                next: Some(ref next),
            } => format!("/mailman/login?next={}", percent_encode(next)),
            Route::Action { kind, target } => match kind {
                ActionKind::Reply => {
                    format!("/mailman/post/{}?thread={target}", thread_list(target))
                }
                ActionKind::NewThread => format!("/mailman/post/{}", list(target)),
                ActionKind::Quote => format!("/mailman/post/{}?quote={target}", post_list(target)),
                ActionKind::Message => {
                    format!("/mailman/contact/{}", text::user_name(history.seed, target))
                }
            },
        }
    }

    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address> {
        let (path, query) = split_path_and_query(path_and_query);
        let pairs = parse_query(query);
        let mut variant = Variant::default();
        let user = |name: &str| {
            let letters = name.trim_end_matches(|character: char| character.is_ascii_digit());
            let user = plain_number(&name[letters.len()..])?;
            (text::user_name(history.seed, user) == name).then_some(user)
        };
        let thread_in = |list: &str, number: &str| {
            let thread = plain_number(number)?;
            (history.thread(thread).is_some() && self.list_of_thread(history, thread) == list)
                .then_some(thread)
        };
        let post_in = |list: &str, number: u32| {
            let record = history.post(number)?;
            (self.list_of_thread(history, record.thread) == list).then_some(number)
        };
        if path == "/" && query.is_empty() {
            variant.alias = true;
            return Some(Address {
                route: Route::Portal,
                variant,
            });
        }
        if let Some(rest) = path.strip_prefix("/msgid/") {
            let (list, id) = rest.split_once('/')?;
            let (stamp_text, number) = id.split_once('.')?;
            let post = post_in(list, plain_number(number)?)?;
            let created = history.post(post)?.created;
            return (stamp(created) == stamp_text && query.is_empty()).then_some(Address {
                route: Route::Post { post },
                variant,
            });
        }
        if let Some(rest) = path.strip_prefix("/mailman/") {
            let route = match rest.split('/').collect::<Vec<_>>()[..] {
                ["login"] => Route::Login {
                    next: query_value(&pairs, "next").map(str::to_string),
                },
                ["post", list] => {
                    match (query_value(&pairs, "thread"), query_value(&pairs, "quote")) {
                        (Some(thread), None) => action(ActionKind::Reply, thread_in(list, thread)?),
                        (None, Some(post)) => {
                            action(ActionKind::Quote, post_in(list, plain_number(post)?)?)
                        }
                        (None, None) => {
                            action(ActionKind::NewThread, self.board_of(history, list)?)
                        }
                        _ => return None,
                    }
                }
                ["contact", name] => action(ActionKind::Message, user(name)?),
                _ => return None,
            };
            return Some(Address { route, variant });
        }
        let rest = path.strip_prefix(ARCHIVES)?;
        let parts: Vec<&str> = rest.split('/').collect();
        let route = match parts[..] {
            [""] if query.is_empty() => Route::Portal,
            ["authors", ""] => Route::MemberList {
                page: page_parameter(&pairs, &mut variant)?,
            },
            ["authors", file] => Route::Profile {
                user: user(file.strip_suffix(".html")?)?,
            },
            ["calendar", file] => {
                let (year, month) = year_month(file.strip_suffix(".html")?)?;
                Route::Calendar { year, month }
            }
            ["search"] => Route::Search {
                page: page_parameter(&pairs, &mut variant)?,
            },
            [list, "flat", ""] => Route::ArchiveBoard {
                board: self.board_of(history, list)?,
            },
            [list, "flat", file] => Route::ArchiveThread {
                thread: thread_in(list, file.strip_prefix("thread")?.strip_suffix(".html")?)?,
            },
            [list, "print", file] => Route::Print {
                thread: thread_in(list, file.strip_prefix("thread")?.strip_suffix(".html")?)?,
            },
            [list, month, file] => {
                let post = post_in(
                    list,
                    message_number(file.strip_prefix("msg")?.strip_suffix(".html")?)?,
                )?;
                let record = history.post(post)?;
                let sent = local_time(record.created, 0);
                if *month != format!("{:04}-{:02}", sent.year, sent.month) {
                    return None;
                }
                match query_value(&pairs, "part") {
                    Some("1") => variant.explicit_first_page = true,
                    Some(_) => return None,
                    None => {}
                }
                let index = history
                    .thread_posts(record.thread)
                    .binary_search(&post)
                    .ok()?;
                if variant.explicit_first_page && index != 0 {
                    return None;
                }
                Route::Thread {
                    thread: record.thread,
                    page: index as u32 + 1,
                }
            }
            [list, file] => {
                let name = file.strip_suffix(".html")?;
                let board = self.board_of(history, list)?;
                if let Some(number) = name
                    .strip_prefix("nextthread")
                    .map(|number| (number, true))
                    .or_else(|| {
                        name.strip_prefix("prevthread")
                            .map(|number| (number, false))
                    })
                {
                    let (number, newer) = number;
                    return Some(Address {
                        route: Route::AdjacentThread {
                            thread: thread_in(list, number)?,
                            newer,
                        },
                        variant,
                    });
                }
                let sort = [SortOrder::LastPost]
                    .into_iter()
                    .chain(SortOrder::ALTERNATIVES)
                    .find(|&sort| name.starts_with(index_name(sort)))?;
                let number = &name[index_name(sort).len()..];
                let page = match number {
                    "" => 1,
                    number => {
                        let page = plain_number(number).filter(|&page| page >= 1)?;
                        variant.explicit_first_page = page == 1;
                        page
                    }
                };
                variant.sort = sort;
                Route::Board { board, page }
            }
            _ => return None,
        };
        Some(Address { route, variant })
    }

    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String {
        self.render_page(page, context)
    }
}
