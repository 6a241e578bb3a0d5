//! The ground truth of one address: what class of page it is, which page it duplicates, which list
//! it belongs to, and how the server answers it.
//!
//! [`Site::judge`] is the single place where these are decided. The server consults it before
//! rendering and the truth export consults it for every URL, so the two cannot disagree.

use serde::Serialize;

use crate::families::{AdjacentThreads, LoginWall, PermalinkStyle};
use crate::route::{Address, AnswerOrder, Route, SortOrder};
use crate::site::Site;

/// The class a URL has for a crawler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PageClass {
    /// Forum content under its canonical URL: the portal, board list pages and thread pages.
    Valuable,
    /// Nothing a forum crawler wants: login walls and forms, errors, missing pages, and pages about
    /// users rather than discussions (profiles, the member list).
    Invalid,
    /// Content already available under another (canonical) URL.
    Duplicate,
    /// A page of an endless space (calendar months, search result pages).
    Endless,
}

/// What kind of page a URL is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The portal.
    Portal,
    /// A board's thread-list page.
    Board,
    /// A thread page.
    Thread,
    /// A post permalink.
    Post,
    /// A printable thread.
    Print,
    /// An archive view.
    Archive,
    /// A previous/next-thread link resolved by the server.
    Adjacent,
    /// A user profile.
    Profile,
    /// A member-list page.
    Memberlist,
    /// A calendar month.
    Calendar,
    /// A search-listing page.
    Search,
    /// The login form or a login wall.
    Login,
    /// A page that does not exist.
    Error,
}

/// Which list a list page belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListId {
    /// A board's thread list.
    Board(u32),
    /// A thread's post list.
    Thread(u32),
    /// The forum-wide list of every thread (question-and-answer sites).
    AllThreads,
}

impl std::fmt::Display for ListId {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListId::Board(board) => write!(formatter, "board:{board}"),
            ListId::Thread(thread) => write!(formatter, "thread:{thread}"),
            ListId::AllThreads => write!(formatter, "threads:all"),
        }
    }
}

/// How the server answers an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Served {
    /// 200 with the page's content.
    Content,
    /// The family's "not found" answer.
    Missing,
    /// The family's login wall.
    LoginWall,
    /// A 301 to another address.
    Redirect(Address),
}

/// The verdict on one address at one instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// Class for the crawler.
    pub class: PageClass,
    /// Kind of page.
    pub role: Role,
    /// For duplicates: the canonical address of the content.
    pub canonical: Option<Address>,
    /// For valuable list pages: the list.
    pub list: Option<ListId>,
    /// For valuable list pages: the 1-based page number in the list.
    pub position: Option<u32>,
    /// How the server answers.
    pub served: Served,
}

impl Judgement {
    pub(crate) fn missing() -> Self {
        Judgement {
            class: PageClass::Invalid,
            role: Role::Error,
            canonical: None,
            list: None,
            position: None,
            served: Served::Missing,
        }
    }

    fn of(class: PageClass, role: Role, served: Served) -> Self {
        Judgement {
            class,
            role,
            canonical: None,
            list: None,
            position: None,
            served,
        }
    }

    fn valuable(role: Role, list: Option<ListId>, position: Option<u32>) -> Self {
        Judgement {
            class: PageClass::Valuable,
            role,
            canonical: None,
            list,
            position,
            served: Served::Content,
        }
    }

    fn duplicate(role: Role, canonical: Route, served: Served) -> Self {
        Judgement {
            class: PageClass::Duplicate,
            role,
            canonical: Some(Address::canonical(canonical)),
            list: None,
            position: None,
            served,
        }
    }
}

impl Site {
    /// Judges `address` as of `at` (Unix seconds).
    pub fn judge(&self, address: &Address, at: i64) -> Judgement {
        let traps = self.traps();
        let profile = self.family().profile();
        let variant = &address.variant;
        let thread_list = matches!(
            address.route,
            Route::Board { .. } | Route::BoardAfter { .. } | Route::AllThreads { .. }
        );
        if variant.sort != SortOrder::LastPost
            && (!traps.sort_orders || !thread_list || !self.list_orders().contains(&variant.sort))
        {
            return Judgement::missing();
        }
        let thread_page = matches!(address.route, Route::Thread { .. });
        if variant.answers != AnswerOrder::Oldest
            && (!traps.sort_orders || !thread_page || !self.questions_and_answers())
        {
            return Judgement::missing();
        }
        if variant.explicit_first_page && !traps.explicit_first_page {
            return Judgement::missing();
        }
        // Only the first page of a cursor-paged board list answers the numbered pager's links.
        let ignored_page_allowed = profile.quirks.board_cursor
            && matches!(address.route, Route::Board { page: 1, .. })
            && variant.ignored_page.is_some_and(|page| page >= 2);
        if variant.ignored_page.is_some() && !ignored_page_allowed {
            return Judgement::missing();
        }
        let (base, canonical) = match address.route {
            Route::BoardAfter { board, after } => self.judge_cursor(board, after, variant.sort, at),
            _ => (self.judge_route(&address.route, at), address.route.clone()),
        };
        if base.class != PageClass::Valuable || variant.is_canonical() {
            return base;
        }
        // A valuable page under a non-canonical spelling is a duplicate of its canonical URL.
        let served = if variant.alias && profile.aliases_redirect {
            Served::Redirect(address.without_variant())
        } else {
            Served::Content
        };
        Judgement::duplicate(base.role, canonical, served)
    }

    /// A cursor page of a board list in `sort`: valuable when the cursor closes a page of the
    /// list as of `at`, else missing. Also returns the canonical route of the same page number,
    /// which for another sort order follows another thread.
    fn judge_cursor(&self, board: u32, after: u32, sort: SortOrder, at: i64) -> (Judgement, Route) {
        let cursor = Route::BoardAfter { board, after };
        if !self.family().profile().quirks.board_cursor || !self.board_open(board, at) {
            return (Judgement::missing(), cursor);
        }
        match self.cursor_page(board, after, sort, at) {
            Some(page) => (
                Judgement::valuable(Role::Board, Some(ListId::Board(board)), Some(page)),
                self.board_page_route(board, page, SortOrder::LastPost, at),
            ),
            None => (Judgement::missing(), cursor),
        }
    }

    fn judge_route(&self, route: &Route, at: i64) -> Judgement {
        let traps = self.traps();
        let profile = self.family().profile();
        let history = self.history();
        match *route {
            Route::Portal => Judgement::valuable(Role::Portal, None, None),
            Route::Board { board, page } => {
                // Cursor-paged lists name their later pages by cursor only.
                let numbered = page == 1 || !profile.quirks.board_cursor;
                if history.board(board).is_some()
                    && self.board_open(board, at)
                    && numbered
                    && page >= 1
                    && page <= self.board_pages(board, at)
                {
                    Judgement::valuable(Role::Board, Some(ListId::Board(board)), Some(page))
                } else {
                    Judgement::missing()
                }
            }
            Route::AllThreads { page } => {
                if self.questions_and_answers() && page >= 1 && page <= self.all_threads_pages(at) {
                    Judgement::valuable(Role::Board, Some(ListId::AllThreads), Some(page))
                } else {
                    Judgement::missing()
                }
            }
            Route::Thread { thread, page } => {
                if page >= 1 && page <= self.thread_pages(thread, at) {
                    Judgement::valuable(Role::Thread, Some(ListId::Thread(thread)), Some(page))
                } else {
                    Judgement::missing()
                }
            }
            Route::Post { post } => match self.post_location(post, at) {
                Some(location) if traps.permalinks => {
                    let served = match profile.permalink {
                        PermalinkStyle::RedirectsToThreadPage => {
                            Served::Redirect(Address::canonical(location.clone()))
                        }
                        PermalinkStyle::ShowsThreadPage | PermalinkStyle::SinglePost => {
                            Served::Content
                        }
                    };
                    Judgement::duplicate(Role::Post, location, served)
                }
                _ => Judgement::missing(),
            },
            Route::Print { thread } if traps.print_views && self.thread_exists(thread, at) => {
                Judgement::duplicate(
                    Role::Print,
                    Route::Thread { thread, page: 1 },
                    Served::Content,
                )
            }
            Route::ArchiveThread { thread }
                if traps.archive_views && self.thread_exists(thread, at) =>
            {
                Judgement::duplicate(
                    Role::Archive,
                    Route::Thread { thread, page: 1 },
                    Served::Content,
                )
            }
            Route::ArchiveBoard { board }
                if traps.archive_views
                    && history.board(board).is_some()
                    && self.board_open(board, at) =>
            {
                Judgement::duplicate(
                    Role::Archive,
                    Route::Board { board, page: 1 },
                    Served::Content,
                )
            }
            Route::AdjacentThread { thread, newer }
                if traps.adjacent_threads
                    && profile.adjacent_threads == AdjacentThreads::ServerResolved =>
            {
                match self.neighbour_thread(thread, newer, at) {
                    Some(neighbour) => Judgement::duplicate(
                        Role::Adjacent,
                        Route::Thread {
                            thread: neighbour,
                            page: 1,
                        },
                        Served::Content,
                    ),
                    None => Judgement::missing(),
                }
            }
            Route::Profile { user } if traps.profiles && self.user_exists(user, at) => {
                let served = if profile.profiles_need_login {
                    self.login_wall(route)
                } else {
                    Served::Content
                };
                Judgement::of(PageClass::Invalid, Role::Profile, served)
            }
            Route::MemberList { page }
                if traps.profiles && page >= 1 && page <= self.member_pages(at) =>
            {
                Judgement::of(PageClass::Invalid, Role::Memberlist, Served::Content)
            }
            Route::Calendar { year, month }
                if traps.endless && (1..=12).contains(&month) && (1..=9999).contains(&year) =>
            {
                Judgement::of(PageClass::Endless, Role::Calendar, Served::Content)
            }
            Route::Search { page } if traps.endless && (1..=1_000_000).contains(&page) => {
                Judgement::of(PageClass::Endless, Role::Search, Served::Content)
            }
            Route::HiddenThread { thread }
                if traps.login_walls
                    && profile.quirks.links_in_posts
                    && history.hidden_threads().contains(&thread) =>
            {
                Judgement::of(PageClass::Invalid, Role::Login, Served::Missing)
            }
            Route::Login { .. } => Judgement::of(PageClass::Invalid, Role::Login, Served::Content),
            Route::Action { kind, target }
                if traps.login_walls && self.action_target_exists(kind, target, at) =>
            {
                Judgement::of(PageClass::Invalid, Role::Login, self.login_wall(route))
            }
            _ => Judgement::missing(),
        }
    }

    fn login_wall(&self, route: &Route) -> Served {
        match self.family().profile().login_wall {
            LoginWall::PromptWithOk | LoginWall::Forbidden => Served::LoginWall,
            LoginWall::RedirectToLogin => {
                let next = self.plain_url_of(&Address::canonical(route.clone()));
                Served::Redirect(Address::canonical(Route::Login { next: Some(next) }))
            }
        }
    }
}
