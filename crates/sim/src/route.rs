//! Addresses: what a URL means to the simulated forum, independent of any engine's URL syntax.
//!
//! Each engine family is a codec between URLs and [`Address`] values. Everything else (what a page
//! shows, which class the ground truth gives it, which status the server answers) is decided on
//! the address, once, for all families. That is what keeps the served pages and the ground truth in
//! agreement by construction.

/// Which page of the forum an address names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Route {
    /// The forum's entry page: categories and boards.
    Portal,
    /// Page `page` (1-based) of a board's thread list.
    Board {
        /// Board id.
        board: u32,
        /// 1-based page number.
        page: u32,
    },
    /// A later page of a board's thread list named by a cursor, the way engines that page by
    /// "load more" name them: the page that follows thread `after` (the last thread of the page
    /// before). Only families whose board lists page by cursor have it; which page it is
    /// depends on the instant, since threads move up the list as they get replies.
    BoardAfter {
        /// Board id.
        board: u32,
        /// The thread the page follows.
        after: u32,
    },
    /// Page `page` (1-based) of the forum-wide list of every thread, the "all questions" list
    /// question-and-answer sites keep beside their per-tag lists. Only families with the
    /// question-and-answer quirk have it.
    AllThreads {
        /// 1-based page number.
        page: u32,
    },
    /// Page `page` (1-based) of a thread.
    Thread {
        /// Thread id.
        thread: u32,
        /// 1-based page number.
        page: u32,
    },
    /// A thread of a members-only board, linked from post texts: engines that hide such boards
    /// answer guests "not found" rather than a login wall.
    HiddenThread {
        /// Thread id (above every public thread's id).
        thread: u32,
    },
    /// A post permalink; depending on the family it shows the thread page holding the post,
    /// redirects there, or shows the post alone.
    Post {
        /// Post id.
        post: u32,
    },
    /// A printable view of a whole thread.
    Print {
        /// Thread id.
        thread: u32,
    },
    /// The low-fidelity archive view of a board (all thread titles on one page).
    ArchiveBoard {
        /// Board id.
        board: u32,
    },
    /// The low-fidelity archive view of a thread (all posts on one page).
    ArchiveThread {
        /// Thread id.
        thread: u32,
    },
    /// "Next topic" / "previous topic": the server resolves the neighbouring thread of the same
    /// board and shows its first page under this URL.
    AdjacentThread {
        /// The thread the link is on.
        thread: u32,
        /// True for the next (newer) thread, false for the previous (older) one.
        newer: bool,
    },
    /// A user's profile.
    Profile {
        /// User id.
        user: u32,
    },
    /// Page `page` of the member list.
    MemberList {
        /// 1-based page number.
        page: u32,
    },
    /// A month of the event calendar; it links to the months before and after without end.
    Calendar {
        /// Year.
        year: i32,
        /// Month, 1..=12.
        month: u32,
    },
    /// Page `page` of the "new posts" search listing; every page links to a next one.
    Search {
        /// 1-based page number.
        page: u32,
    },
    /// The login form, optionally carrying the path to return to.
    Login {
        /// Path and query to return to after logging in.
        next: Option<String>,
    },
    /// An action only members may take; guests get a login wall.
    Action {
        /// What the action is.
        kind: ActionKind,
        /// The thread, board, post or user it acts on (by kind).
        target: u32,
    },
}

/// Member-only actions linked from forum pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// Reply to a thread (target: thread id).
    Reply,
    /// Start a thread (target: board id).
    NewThread,
    /// Quote a post in a reply (target: post id).
    Quote,
    /// Send a private message (target: user id).
    Message,
}

impl ActionKind {
    /// All kinds, for enumeration.
    pub const ALL: [ActionKind; 4] = [
        ActionKind::Reply,
        ActionKind::NewThread,
        ActionKind::Quote,
        ActionKind::Message,
    ];
}

/// The order a board's thread list is shown in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortOrder {
    /// By last reply, newest first: the default and canonical order.
    #[default]
    LastPost,
    /// By title, A to Z.
    Title,
    /// By the thread starter's name.
    Author,
    /// By number of replies, most first.
    Replies,
    /// By creation time, newest first.
    Created,
}

impl SortOrder {
    /// The non-default orders a board page offers as links.
    pub const ALTERNATIVES: [SortOrder; 4] = [
        SortOrder::Title,
        SortOrder::Author,
        SortOrder::Replies,
        SortOrder::Created,
    ];

    /// A short key families may use in their URL syntax.
    pub fn key(self) -> &'static str {
        match self {
            SortOrder::LastPost => "lastpost",
            SortOrder::Title => "title",
            SortOrder::Author => "author",
            SortOrder::Replies => "replies",
            SortOrder::Created => "created",
        }
    }

    /// The inverse of [`SortOrder::key`].
    pub fn from_key(key: &str) -> Option<SortOrder> {
        [SortOrder::LastPost]
            .into_iter()
            .chain(SortOrder::ALTERNATIVES)
            .find(|order| order.key() == key)
    }
}

/// The order a question-and-answer site shows a question's answers in. The question itself
/// always comes first; only the answers after it are reordered, so every order has the same
/// number of pages, each a copy of the thread's page of the same number in another order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AnswerOrder {
    /// Oldest first: the order posts were written in, the canonical one.
    #[default]
    Oldest,
    /// Most votes first.
    Votes,
    /// Newest first.
    Newest,
}

impl AnswerOrder {
    /// The orders other than the canonical one, which a question page offers as links.
    pub const ALTERNATIVES: [AnswerOrder; 2] = [AnswerOrder::Votes, AnswerOrder::Newest];
}

/// The ways one page can be named by more than one URL.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Variant {
    /// Board lists: a non-default sort order.
    pub sort: SortOrder,
    /// Page 1 of a list named with an explicit page number or offset (`?page=1`, `&start=0`).
    pub explicit_first_page: bool,
    /// A session id carried in the URL.
    pub session: Option<u64>,
    /// Another spelling the server accepts for the same page: a missing or wrong title slug, an
    /// extra redundant parameter. Families decide whether they redirect it or serve it.
    pub alias: bool,
    /// Board lists of cursor-paged families: a page number the server ignores. Such engines keep
    /// a numbered pager for clients without scripts, and the server answers every one of its
    /// links with the first page.
    pub ignored_page: Option<u32>,
    /// Thread pages of question-and-answer families: the answers in another order.
    pub answers: AnswerOrder,
}

impl Variant {
    /// True when nothing about the URL departs from the canonical spelling.
    pub fn is_canonical(&self) -> bool {
        *self == Variant::default()
    }
}

/// A route plus the spelling variant a URL used for it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Address {
    /// What is asked for.
    pub route: Route,
    /// How it was spelled.
    pub variant: Variant,
}

impl Address {
    /// The canonical spelling of `route`.
    pub fn canonical(route: Route) -> Self {
        Address {
            route,
            variant: Variant::default(),
        }
    }

    /// The same address with the canonical spelling.
    pub fn without_variant(&self) -> Self {
        Address::canonical(self.route.clone())
    }
}
