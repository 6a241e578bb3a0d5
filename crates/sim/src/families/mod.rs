//! Engine families: each one is a URL codec plus a set of templates.
//!
//! A family never decides *what* a page shows (that is [`crate::views`], shared by all) nor *how*
//! the server answers (status codes come from the family's [`FamilyProfile`] policies, applied by
//! [`crate::Site`]). It decides only how addresses are spelled as URLs and how a page looks. This
//! split is deliberate: it makes every family obey the same ground truth, so a crawler's score on
//! one family differs from another only because the markup and URLs really differ.

use crate::history::ForumHistory;
use crate::html;
use crate::route::{Address, Route, SortOrder};
use crate::text::Language;
use crate::views::Page;

/// Appends formatted markup to a page (writing to a `String` cannot fail). Defined before the
/// family modules so that every template can use it.
macro_rules! put {
    ($html:expr, $($format:tt)*) => {{
        use std::fmt::Write as _;
        let _ = $html.write_fmt(format_args!($($format)*));
    }};
}

mod common;
mod discourse;
mod discuz;
mod mailarchive;
mod nodebb;
mod phpbb;
mod qa;
mod skeleton;
mod slugtree;
mod smf;
mod tablecraft;
#[cfg(test)]
mod test_support;
mod vbulletin;
mod xenforo;
mod yabb;

/// The character set a family serves its pages in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    /// UTF-8.
    Utf8,
    /// GBK (simplified Chinese).
    Gbk,
    /// Big5 (traditional Chinese).
    Big5,
    /// windows-1252 (Western European; what many old English and German forums still serve).
    Windows1252,
}

impl Charset {
    /// The label used in `Content-Type` and `<meta>`.
    pub fn label(self) -> &'static str {
        match self {
            Charset::Utf8 => "utf-8",
            Charset::Gbk => "gbk",
            Charset::Big5 => "big5",
            Charset::Windows1252 => "windows-1252",
        }
    }

    /// The encoding_rs encoding that reads and writes this charset.
    pub fn encoding(self) -> &'static encoding_rs::Encoding {
        match self {
            Charset::Utf8 => encoding_rs::UTF_8,
            Charset::Gbk => encoding_rs::GBK,
            Charset::Big5 => encoding_rs::BIG5,
            Charset::Windows1252 => encoding_rs::WINDOWS_1252,
        }
    }
}

/// How a family answers a guest asking for a member-only page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginWall {
    /// 200 with a login prompt in the page (the hardest to notice).
    PromptWithOk,
    /// 403 with a login form.
    Forbidden,
    /// 302 to the login page with `next=` carrying the original path.
    RedirectToLogin,
}

/// What a post permalink answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermalinkStyle {
    /// 200 with the thread page holding the post.
    ShowsThreadPage,
    /// 301 to the thread page holding the post.
    RedirectsToThreadPage,
    /// 200 with the post shown alone.
    SinglePost,
}

/// How "previous / next thread" links are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdjacentThreads {
    /// A URL of their own that the server resolves ([`Route::AdjacentThread`]): a duplicate of
    /// the neighbour's first page.
    ServerResolved,
    /// Direct links to the neighbour's first page: valuable, but not page flipping.
    DirectLinks,
}

/// A family's fixed characteristics and server policies.
#[derive(Debug, Clone)]
pub struct FamilyProfile {
    /// Short name used on the command line.
    pub name: &'static str,
    /// One line saying what it is modelled on.
    pub description: &'static str,
    /// Language of names, texts and dates.
    pub language: Language,
    /// Charset pages are served in.
    pub charset: Charset,
    /// Whether `Content-Type` names the charset; when false only a `<meta>` tag does.
    pub charset_in_header: bool,
    /// The forum's local time as an offset from UTC in seconds.
    pub utc_offset_seconds: i32,
    /// Threads per board list page (10–40).
    pub threads_per_page: u32,
    /// Posts per thread page (10–40).
    pub posts_per_page: u32,
    /// Members per member-list page.
    pub members_per_page: u32,
    /// Answer to guests asking for member-only pages.
    pub login_wall: LoginWall,
    /// Whether profiles also sit behind the login wall.
    pub profiles_need_login: bool,
    /// Answer to post permalinks.
    pub permalink: PermalinkStyle,
    /// Query parameter carrying a session id in URLs, for families that put sessions in URLs.
    pub session_parameter: Option<&'static str>,
    /// Cookie name that carries the session when the client keeps cookies.
    pub session_cookie: &'static str,
    /// How previous/next thread links are made.
    pub adjacent_threads: AdjacentThreads,
    /// Status of "no such page" answers: 404, or 200 for families that serve soft error pages.
    pub missing_status: u16,
    /// Whether alias spellings (missing or wrong slug) are redirected (301) rather than served.
    pub aliases_redirect: bool,
    /// Behaviours only a few engines have.
    pub quirks: Quirks,
}

/// Behaviours only a few engines have; all off for most families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Quirks {
    /// Board lists page by cursor ([`Route::BoardAfter`]) rather than by number; the numbered
    /// pager they still print for clients without scripts names pages the server ignores
    /// ([`crate::Variant::ignored_page`]).
    pub board_cursor: bool,
    /// Every thread page after the first starts with the last post of the page before again.
    pub repeat_last_post: bool,
    /// Some post texts link another thread: a public one, or one of a members-only board
    /// ([`Route::HiddenThread`]) that guests get "not found" for.
    pub links_in_posts: bool,
    /// A question-and-answer site: every thread is also listed on one forum-wide list
    /// ([`Route::AllThreads`]) beside the boards (tags); lists sort by activity, creation or
    /// number of answers; a question's answers sort by votes or newest first beside the
    /// canonical oldest-first order ([`crate::route::AnswerOrder`]), each order its own pages;
    /// the question is shown again atop every later page; posts carry votes and comments.
    pub question_and_answer: bool,
    /// A reply opens by quoting the message it answers (`ForumHistory::reply_parent`): an
    /// attribution line, then that message's first paragraph after `> `, as mail clients quote.
    /// The quote is part of the post's text, as it is of a mail's body.
    pub quotes_parent: bool,
}

impl Quirks {
    /// No quirk: what most engines do.
    pub const NONE: Quirks = Quirks {
        board_cursor: false,
        repeat_last_post: false,
        links_in_posts: false,
        question_and_answer: false,
        quotes_parent: false,
    };
}

/// Everything a template needs besides the page itself.
#[derive(Debug)]
pub struct RenderContext<'a> {
    /// The forum's history (for names and counters).
    pub history: &'a ForumHistory,
    /// The family being rendered.
    pub family: &'a dyn Family,
    /// The request instant (Unix seconds): relative dates are relative to it.
    pub now: i64,
    /// The session id to carry in links, when the family puts sessions in URLs and the client
    /// keeps no cookie.
    pub session: Option<u64>,
    /// The seed minting the forum's cursor tokens when it spells cursors opaquely
    /// ([`crate::Site::with_opaque_cursors`]); `None` for cursors spelled as numbers.
    pub opaque_cursor_seed: Option<u64>,
    /// Whether cursors are spelled `before=` and count down
    /// ([`crate::Site::with_cursors_counting_down`]).
    pub cursors_count_down: bool,
}

impl RenderContext<'_> {
    /// The family's profile.
    pub fn profile(&self) -> &FamilyProfile {
        self.family.profile()
    }

    /// An HTML-escaped link to `route` in its canonical spelling (plus this visit's session id).
    pub fn href(&self, route: &Route) -> String {
        self.href_address(Address::canonical(route.clone()))
    }

    /// An HTML-escaped link to page 1 of a list spelled with an explicit page number when
    /// `explicit_first_page` is true.
    pub fn href_pager(&self, route: &Route, explicit_first_page: bool) -> String {
        let mut address = Address::canonical(route.clone());
        address.variant.explicit_first_page = explicit_first_page;
        self.href_address(address)
    }

    /// An HTML-escaped link to a board page in a given sort order.
    pub fn href_sorted(&self, route: &Route, sort: SortOrder, explicit_first_page: bool) -> String {
        let mut address = Address::canonical(route.clone());
        address.variant.sort = sort;
        address.variant.explicit_first_page = explicit_first_page;
        self.href_address(address)
    }

    /// An HTML-escaped link to exactly `address` (pager and sort links carry their spelling).
    pub fn href_address(&self, mut address: Address) -> String {
        address.variant.session = self.session;
        let url = crate::cursor_tokens::spell(
            self.family.encode(&address, self.history),
            &address,
            self.opaque_cursor_seed,
            self.cursors_count_down,
        );
        html::escape(&url)
    }

    /// The local wall-clock time of `instant` in this forum.
    pub fn local(&self, instant: i64) -> crate::dates::LocalTime {
        crate::dates::local_time(instant, self.profile().utc_offset_seconds)
    }

    /// Whole local days between `instant` and now (0 = today, 1 = yesterday).
    pub fn days_ago(&self, instant: i64) -> i64 {
        crate::dates::local_days_before(instant, self.now, self.profile().utc_offset_seconds)
    }
}

/// An engine family: URL syntax and templates.
pub trait Family: Send + Sync + std::fmt::Debug {
    /// Fixed characteristics and server policies.
    fn profile(&self) -> &FamilyProfile;

    /// Spells `address` as a path with query, starting with `/`, without a fragment. Must be
    /// the exact inverse of [`Family::decode`] for every address the site links to.
    fn encode(&self, address: &Address, history: &ForumHistory) -> String;

    /// Reads a request's path and query (fragment already removed). `None` means the family has no
    /// such page (the server answers "not found"). Unknown extra parameters are ignored, as real
    /// engines do; a slug that does not match the title sets [`crate::Variant::alias`] (the
    /// history is passed so the codec can check it).
    fn decode(&self, path_and_query: &str, history: &ForumHistory) -> Option<Address>;

    /// Renders a page to HTML (as Unicode; the site encodes it in the family's charset).
    fn render(&self, page: &Page, context: &RenderContext<'_>) -> String;

    /// The text of `/robots.txt`, for families that serve one (the others answer it "not found").
    fn robots_txt(&self, _history: &ForumHistory) -> Option<String> {
        None
    }

    /// The address a visitor is given to enter the site: the portal for most families; another
    /// spelling of it (an alias the server redirects) for sites whose front page sends visitors
    /// elsewhere, as a list server's host sends them to the archive index.
    fn entry(&self) -> Address {
        Address::canonical(Route::Portal)
    }

    /// The status of the family's redirects (301 for most engines; 302 for hosts that redirect
    /// their front page by a temporary redirect).
    fn redirect_status(&self) -> u16 {
        301
    }
}

/// The families the simulator offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FamilyName {
    /// phpBB 3-like: `viewforum.php?f=`, `viewtopic.php?t=&start=`, `sid=` sessions, div layout.
    Phpbb,
    /// vBulletin 3-like: `showthread.php?t=&page=`, `s=` sessions, table layout, "Today"/"Yesterday".
    Vbulletin,
    /// Discuz! X-like: `thread-123-2-1.html` rewrites, GBK with the charset only in `<meta>`,
    /// Chinese relative dates.
    Discuz,
    /// SMF-like: `index.php?topic=123.15`, `;`-separated queries, `PHPSESSID`, German dates.
    Smf,
    /// XenForo-like: `/threads/slug.123/page-2`, `<time datetime>` with relative text, redirecting
    /// permalinks, 403 login walls.
    Xenforo,
    /// Discourse-like server-rendered view: `/t/slug/123?page=2`, redirect login walls.
    Discourse,
    /// A hand-made table layout with opaque hexadecimal ids, Big5 with the charset only in `<meta>`.
    Tablecraft,
    /// NodeBB-like server-rendered view of a JavaScript-first forum: `/topic/123/slug?page=2`,
    /// board pages by cursor linked only from `<link rel="next">`, the last post of a page
    /// repeated atop the next, post texts linking members-only threads, robots.txt.
    Nodebb,
    /// Slug-only hierarchical URLs without ids (`/c/category/board/thread-slug/?page=2`), as
    /// small Django forums print them.
    Slugtree,
    /// A mailing-list archive (pipermail, MHonArc or hypermail style): lists as path segments,
    /// paged thread and date indexes, one page per message in month folders, threads as reply
    /// chains, the host's front page answering 302 to the archive index.
    Mailarchive,
    /// YaBB-like CGI forum (phpBB 2-like layout): `YaBB.pl?num=<start second>/15`, one post over
    /// three table rows, names not links, windows-1252 named only in `<meta>`.
    Yabb,
    /// A question-and-answer site (Stack Exchange-, OSQA- or Askbot-like): tags as boards
    /// beside an all-questions list, answers sorted by votes or age on pages of their own
    /// (`/questions/5/slug/?sort=votes&page=2`), votes, comments and accepted answers.
    Qa,
}

impl FamilyName {
    /// Every family, in a fixed order.
    pub const ALL: [FamilyName; 12] = [
        FamilyName::Phpbb,
        FamilyName::Vbulletin,
        FamilyName::Discuz,
        FamilyName::Smf,
        FamilyName::Xenforo,
        FamilyName::Discourse,
        FamilyName::Tablecraft,
        FamilyName::Nodebb,
        FamilyName::Slugtree,
        FamilyName::Yabb,
        FamilyName::Qa,
        FamilyName::Mailarchive,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            FamilyName::Phpbb => "phpbb",
            FamilyName::Vbulletin => "vbulletin",
            FamilyName::Discuz => "discuz",
            FamilyName::Smf => "smf",
            FamilyName::Xenforo => "xenforo",
            FamilyName::Discourse => "discourse",
            FamilyName::Tablecraft => "tablecraft",
            FamilyName::Nodebb => "nodebb",
            FamilyName::Slugtree => "slugtree",
            FamilyName::Yabb => "yabb",
            FamilyName::Qa => "qa",
            FamilyName::Mailarchive => "mailarchive",
        }
    }

    /// The inverse of [`FamilyName::name`].
    pub fn parse(name: &str) -> Option<FamilyName> {
        FamilyName::ALL
            .into_iter()
            .find(|family| family.name() == name)
    }

    /// Builds the family.
    pub fn build(self) -> Box<dyn Family> {
        match self {
            FamilyName::Phpbb => Box::new(phpbb::Phpbb::new()),
            FamilyName::Vbulletin => Box::new(vbulletin::Vbulletin::new()),
            FamilyName::Discuz => Box::new(discuz::Discuz::new()),
            FamilyName::Smf => Box::new(smf::Smf::new()),
            FamilyName::Xenforo => Box::new(xenforo::Xenforo::new()),
            FamilyName::Discourse => Box::new(discourse::Discourse::new()),
            FamilyName::Tablecraft => Box::new(tablecraft::Tablecraft::new()),
            FamilyName::Nodebb => Box::new(nodebb::Nodebb::new()),
            FamilyName::Slugtree => Box::new(slugtree::Slugtree::new()),
            FamilyName::Yabb => Box::new(yabb::Yabb::new()),
            FamilyName::Qa => Box::new(qa::Qa::new()),
            FamilyName::Mailarchive => Box::new(mailarchive::Mailarchive::new()),
        }
    }
}
