//! Ground truth as data: one record per URL the site can serve, one per post.
//!
//! The JSON-lines schema is documented in `docs/SIMULATOR.md`. In short:
//!
//! - URL records: `{"url", "class", "canonical", "role", "list", "position"}` where `url` and
//!   `canonical` are path and query relative to the site root, `class` is `valuable`, `invalid`,
//!   `duplicate` or `endless`, `list` is `board:<id>` or `thread:<id>` for valuable list pages, and
//!   `position` is the 1-based page number in that list.
//! - Post records: `{"post", "thread", "board", "page", "author", "created", "text"}` with
//!   `created` in ISO 8601 with the forum's UTC offset and `text` the body's paragraphs joined by
//!   `\n` (signatures excluded).
//!
//! Enumeration lists every canonical URL and every variant the site links to, except two kinds of
//! URL that have no end: session-id variants (any URL with a session id is a duplicate of the URL
//! without it, or has that URL's class when it is not valuable) and endless spaces, which are
//! listed up to [`CALENDAR_MONTHS_BEYOND`] months around the history and [`SEARCH_PAGES_LISTED`]
//! search pages. [`Site::classify`] answers for any URL, listed or not.

use serde::Serialize;

use crate::dates;
use crate::families::AdjacentThreads;
use crate::judge::{PageClass, Role};
use crate::route::{ActionKind, Address, AnswerOrder, Route, SortOrder};
use crate::site::Site;

/// Calendar months listed before the history's first month and after the instant's month.
pub const CALENDAR_MONTHS_BEYOND: i32 = 12;
/// Search-listing pages listed.
pub const SEARCH_PAGES_LISTED: u32 = 20;

/// The truth about one URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UrlTruth {
    /// Path and query relative to the site root.
    pub url: String,
    /// Class for a crawler.
    pub class: PageClass,
    /// For duplicates: the canonical URL of the same content.
    pub canonical: Option<String>,
    /// Kind of page.
    pub role: Role,
    /// For valuable list pages: `board:<id>` or `thread:<id>`.
    pub list: Option<String>,
    /// For valuable list pages: 1-based page number in the list.
    pub position: Option<u32>,
}

/// The truth about one post.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PostTruth {
    /// Post id.
    pub post: u32,
    /// `thread:<id>`.
    pub thread: String,
    /// `board:<id>`.
    pub board: String,
    /// Canonical URL of the thread page holding the post at the instant asked about.
    pub page: String,
    /// Author's display name.
    pub author: String,
    /// Creation time, ISO 8601 with the forum's UTC offset.
    pub created: String,
    /// Body text: paragraphs joined by `\n`.
    pub text: String,
}

impl Site {
    /// The truth about any path-and-query at `at` (Unix seconds). The record's `url` is the URL
    /// as asked (fragment removed), even when the family reads it as an alias of another spelling.
    pub fn classify(&self, path_and_query: &str, at: i64) -> UrlTruth {
        let asked = path_and_query.split('#').next().unwrap_or("").to_string();
        match self.address_of(path_and_query) {
            Some(address) => UrlTruth {
                url: asked,
                ..self.truth_of(&address, at)
            },
            None => UrlTruth {
                url: asked,
                class: PageClass::Invalid,
                canonical: None,
                role: Role::Error,
                list: None,
                position: None,
            },
        }
    }

    /// The truth about `address` at `at`.
    pub fn truth_of(&self, address: &Address, at: i64) -> UrlTruth {
        let judgement = self.judge(address, at);
        UrlTruth {
            url: self.url_of(address),
            class: judgement.class,
            canonical: judgement
                .canonical
                .as_ref()
                .map(|canonical| self.url_of(canonical)),
            role: judgement.role,
            list: judgement.list.map(|list| list.to_string()),
            position: judgement.position,
        }
    }

    /// Calls `visit` with every address the site serves at `at` (see the module documentation
    /// for what is left out), each once.
    pub fn for_each_address(&self, at: i64, mut visit: impl FnMut(Address)) {
        let traps = *self.traps();
        let profile = self.family().profile();
        let history = self.history();
        let canonical = |route: Route| Address::canonical(route);
        let explicit = |route: Route| {
            let mut address = Address::canonical(route);
            address.variant.explicit_first_page = true;
            address
        };
        visit(canonical(Route::Portal));
        let entry = self.family().entry();
        if !entry.variant.is_canonical() {
            visit(entry);
        }
        visit(canonical(Route::Login { next: None }));
        let cursor = profile.quirks.board_cursor;
        let orders: Vec<SortOrder> = self
            .list_orders()
            .into_iter()
            .filter(|&order| order == SortOrder::LastPost || traps.sort_orders)
            .collect();
        if self.questions_and_answers() {
            let pages = self.all_threads_pages(at);
            for &sort in &orders {
                for page in 1..=pages {
                    let mut address = canonical(Route::AllThreads { page });
                    address.variant.sort = sort;
                    visit(address.clone());
                    if page == 1 && pages > 1 && traps.explicit_first_page {
                        address.variant.explicit_first_page = true;
                        visit(address);
                    }
                }
            }
        }
        for board in (1..=history.board_count()).filter(|&board| self.board_open(board, at)) {
            let pages = self.board_pages(board, at);
            for &sort in &orders {
                for page in 1..=pages {
                    let mut address = canonical(self.board_page_route(board, page, sort, at));
                    address.variant.sort = sort;
                    visit(address.clone());
                    // Cursor-paged lists have no numbered spelling of their first page.
                    if page == 1 && pages > 1 && traps.explicit_first_page && !cursor {
                        address.variant.explicit_first_page = true;
                        visit(address);
                    }
                }
                // The numbered pager of cursor-paged lists, answered with the first page.
                for ignored in (2..=pages).filter(|_| cursor) {
                    let mut address = canonical(Route::Board { board, page: 1 });
                    address.variant.sort = sort;
                    address.variant.ignored_page = Some(ignored);
                    visit(address);
                }
            }
            if traps.archive_views {
                visit(canonical(Route::ArchiveBoard { board }));
            }
            if traps.login_walls {
                self.visit_action(ActionKind::NewThread, board, &mut visit);
            }
        }
        if traps.login_walls && profile.quirks.links_in_posts {
            for thread in history.hidden_threads() {
                visit(canonical(Route::HiddenThread { thread }));
            }
        }
        for thread in 1..=history.threads_up_to(at) {
            let pages = self.thread_pages(thread, at);
            for page in 1..=pages {
                visit(canonical(Route::Thread { thread, page }));
            }
            if traps.explicit_first_page && pages > 1 {
                visit(explicit(Route::Thread { thread, page: 1 }));
            }
            // The other orders of answers of question-and-answer sites, each paged alike.
            let answer_orders = match self.questions_and_answers() && traps.sort_orders {
                true => &AnswerOrder::ALTERNATIVES[..],
                false => &[],
            };
            for &answers in answer_orders {
                for page in 1..=pages {
                    let mut address = canonical(Route::Thread { thread, page });
                    address.variant.answers = answers;
                    visit(address.clone());
                    if page == 1 && pages > 1 && traps.explicit_first_page {
                        address.variant.explicit_first_page = true;
                        visit(address);
                    }
                }
            }
            if traps.print_views {
                visit(canonical(Route::Print { thread }));
            }
            if traps.archive_views {
                visit(canonical(Route::ArchiveThread { thread }));
            }
            if traps.adjacent_threads && profile.adjacent_threads == AdjacentThreads::ServerResolved
            {
                for newer in [false, true] {
                    if self.neighbour_thread(thread, newer, at).is_some() {
                        visit(canonical(Route::AdjacentThread { thread, newer }));
                    }
                }
            }
            if traps.login_walls {
                self.visit_action(ActionKind::Reply, thread, &mut visit);
            }
        }
        for post in 1..=history.posts_up_to(at) {
            if traps.permalinks {
                visit(canonical(Route::Post { post }));
            }
            if traps.login_walls {
                self.visit_action(ActionKind::Quote, post, &mut visit);
            }
        }
        let members = self.members_at(at);
        if traps.profiles {
            for page in 1..=self.member_pages(at) {
                visit(canonical(Route::MemberList { page }));
            }
            if traps.explicit_first_page && self.member_pages(at) > 1 {
                visit(explicit(Route::MemberList { page: 1 }));
            }
        }
        for &user in members {
            if traps.profiles {
                visit(canonical(Route::Profile { user }));
            }
            if traps.login_walls {
                self.visit_action(ActionKind::Message, user, &mut visit);
            }
        }
        if traps.endless {
            let offset = profile.utc_offset_seconds;
            let first = dates::local_time(history.start, offset);
            let last = dates::local_time(at, offset);
            let month_index = |year: i32, month: u32| year * 12 + month as i32 - 1;
            let from = month_index(first.year, first.month) - CALENDAR_MONTHS_BEYOND;
            let until = month_index(last.year, last.month) + CALENDAR_MONTHS_BEYOND;
            for index in from..=until {
                let (year, month) = (index.div_euclid(12), index.rem_euclid(12) as u32 + 1);
                visit(canonical(Route::Calendar { year, month }));
            }
            for page in 1..=SEARCH_PAGES_LISTED {
                visit(canonical(Route::Search { page }));
            }
        }
    }

    /// Visits an action and the login URL that carries it as the return path: families that
    /// redirect login walls redirect there, the others post their wall's login form there.
    fn visit_action(&self, kind: ActionKind, target: u32, visit: &mut impl FnMut(Address)) {
        let action = Address::canonical(Route::Action { kind, target });
        let next = self.plain_url_of(&action);
        visit(Address::canonical(Route::Login { next: Some(next) }));
        visit(action);
    }

    /// Calls `visit` with the truth of every URL the site serves at `at`.
    pub fn for_each_url_truth(&self, at: i64, mut visit: impl FnMut(UrlTruth)) {
        self.for_each_address(at, |address| visit(self.truth_of(&address, at)));
    }

    /// A post's text as the ground truth writes it: its paragraphs, then the line of its link.
    fn post_text(&self, post: u32) -> String {
        let mut lines = self.post_paragraphs(post);
        lines.extend(self.body_link(post).map(|link| link.text()));
        lines.join("\n")
    }

    /// Calls `visit` with the truth of every post existing at `at`, in id order.
    pub fn for_each_post_truth(&self, at: i64, mut visit: impl FnMut(PostTruth)) {
        let history = self.history();
        let offset = self.family().profile().utc_offset_seconds;
        for post in 1..=history.posts_up_to(at) {
            let Some(record) = history.post(post) else {
                continue;
            };
            let board = history.thread(record.thread).map_or(0, |t| t.board);
            let page = self
                .post_location(post, at)
                .map(|route| self.url_of(&Address::canonical(route)))
                .unwrap_or_default();
            visit(PostTruth {
                post,
                thread: format!("thread:{}", record.thread),
                board: format!("board:{board}"),
                page,
                author: crate::text::user_name(self.config().seed, record.author),
                created: dates::iso8601(record.created, offset),
                text: self.post_text(post),
            });
        }
    }
}
