//! What each page shows, decided once for every family.
//!
//! The site builds one [`Page`] per request from the history as of the request's instant; a family
//! turns it into HTML. Every link a page can carry is here as a [`Route`] (never a URL string), so a
//! family cannot link to something the ground truth does not know. Optional parts (shortcut lists,
//! noisy dates, advertisements, signatures) are `None`/empty when their trap is switched off.

use crate::route::{Address, AnswerOrder, Route, SortOrder};

/// One rendered page: the parts every page has plus the page-kind body.
#[derive(Debug, Clone)]
pub struct Page {
    /// The parts around the content.
    pub chrome: Chrome,
    /// The content.
    pub body: Body,
}

/// What surrounds the content on every page.
#[derive(Debug, Clone)]
pub struct Chrome {
    /// The forum's name.
    pub forum_name: String,
    /// The page's title (for `<title>` and the heading).
    pub title: String,
    /// Path from the portal to this page, excluding the page itself.
    pub breadcrumbs: Vec<(Route, String)>,
    /// The header clock ("It is currently ...") showing the request instant; a noisy date.
    pub clock: Option<i64>,
    /// A "your last visit" date in the header; a noisy date.
    pub last_visit: Option<i64>,
    /// An advertisement that differs from page to page.
    pub advertisement: Option<&'static str>,
    /// Links every page carries: portal, member list, search, calendar, login.
    pub navigation: Navigation,
    /// Forum-wide counters shown in the footer ("who is online" box).
    pub footer: FooterStats,
}

/// Site-wide navigation links; `None` when the trap that creates the target is off.
#[derive(Debug, Clone)]
pub struct Navigation {
    /// The portal.
    pub portal: Route,
    /// The member list.
    pub members: Option<Route>,
    /// The endless "new posts" search.
    pub search: Option<Route>,
    /// The endless calendar (current month).
    pub calendar: Option<Route>,
    /// The login form.
    pub login: Route,
}

/// Counters for the footer.
#[derive(Debug, Clone)]
pub struct FooterStats {
    /// Threads existing now.
    pub threads: u32,
    /// Posts existing now.
    pub posts: u32,
    /// Members registered now.
    pub members: u32,
    /// The newest member, linked to their profile when profiles exist.
    pub newest_member: Option<UserCard>,
}

/// The content of a page, by kind.
#[derive(Debug, Clone)]
pub enum Body {
    /// The portal.
    Portal(PortalView),
    /// A page of a board's thread list.
    Board(BoardView),
    /// A page of a thread.
    Thread(ThreadView),
    /// A single post shown alone (permalink families that do so).
    SinglePost(SinglePostView),
    /// A printable whole thread.
    Print(WholeThreadView),
    /// The archive view of a thread.
    ArchiveThread(WholeThreadView),
    /// The archive view of a board.
    ArchiveBoard(ArchiveBoardView),
    /// A user profile.
    Profile(ProfileView),
    /// A page of the member list.
    MemberList(MemberListView),
    /// A calendar month.
    Calendar(CalendarView),
    /// A page of the endless search listing.
    Search(SearchView),
    /// The login form, or a login wall in front of a member-only page.
    Login(LoginView),
    /// The page does not exist.
    NotFound,
}

/// A user as shown beside posts and in lists.
#[derive(Debug, Clone)]
pub struct UserCard {
    /// User id.
    pub user: u32,
    /// Display name.
    pub name: String,
    /// Registration instant; a noisy date, `None` when noisy dates are switched off.
    pub joined: Option<i64>,
    /// Posts written up to now.
    pub posts: u32,
    /// Link to the profile, when profiles are served.
    pub profile: Option<Route>,
}

/// A board as listed on the portal.
#[derive(Debug, Clone)]
pub struct BoardSummary {
    /// Board id.
    pub board: u32,
    /// Display name.
    pub name: String,
    /// Link to its first list page.
    pub link: Route,
    /// Threads existing now.
    pub threads: u32,
    /// Posts existing now.
    pub posts: u32,
    /// The most recent post now, with its thread.
    pub last_post: Option<LastPost>,
}

/// The latest post of a thread or board.
#[derive(Debug, Clone)]
pub struct LastPost {
    /// Thread it is in.
    pub thread: u32,
    /// That thread's title.
    pub thread_title: String,
    /// Its author.
    pub author: UserCard,
    /// When it was written.
    pub created: i64,
    /// A link that jumps to it: a permalink when the family has them, else the thread's last page.
    pub link: Route,
}

/// A thread as an entry of a list.
#[derive(Debug, Clone)]
pub struct ThreadSummary {
    /// Thread id.
    pub thread: u32,
    /// Title.
    pub title: String,
    /// Link to the thread's first page.
    pub link: Route,
    /// Starter.
    pub author: UserCard,
    /// Creation instant.
    pub created: i64,
    /// Replies now (posts minus one).
    pub replies: u32,
    /// A view counter derived from the replies.
    pub views: u32,
    /// Question-and-answer sites: the question's votes.
    pub votes: Option<i32>,
    /// Pinned.
    pub sticky: bool,
    /// Links to the thread's pages 2.. (the small page navigator in list entries).
    pub page_links: Vec<(u32, Route)>,
    /// The latest post.
    pub last_post: LastPost,
}

/// A group of boards on the portal.
#[derive(Debug, Clone)]
pub struct CategoryView {
    /// Name.
    pub name: String,
    /// Its boards.
    pub boards: Vec<BoardSummary>,
}

/// The portal.
#[derive(Debug, Clone)]
pub struct PortalView {
    /// Categories with their boards.
    pub categories: Vec<CategoryView>,
    /// Shortcut links: the most recently active threads.
    pub latest: Vec<ThreadSummary>,
}

/// Page-flipping links of a list page.
#[derive(Debug, Clone)]
pub struct Pager {
    /// This page.
    pub current: u32,
    /// Number of pages.
    pub total: u32,
    /// Links to the pages shown in the navigator (first, a window around the current one, last),
    /// in page order, the current page included; page 1 may be spelled with an explicit page
    /// number and board pages keep their sort order.
    pub pages: Vec<(u32, Address)>,
    /// The previous page, if any.
    pub previous: Option<Address>,
    /// The next page, if any.
    pub next: Option<Address>,
}

/// A board's thread list page, or a page of the forum-wide list of question-and-answer sites.
#[derive(Debug, Clone)]
pub struct BoardView {
    /// Board id; 0 for the forum-wide list ([`Route::AllThreads`]), which has no new-thread or
    /// archive link.
    pub board: u32,
    /// Board name.
    pub name: String,
    /// The order shown.
    pub sort: SortOrder,
    /// Links to page 1 in the other sort orders (empty when the trap is off).
    pub sort_links: Vec<(SortOrder, Address)>,
    /// Sticky threads (first page only).
    pub stickies: Vec<ThreadSummary>,
    /// The threads of this page.
    pub threads: Vec<ThreadSummary>,
    /// Page-flipping links.
    pub pager: Pager,
    /// Shortcut links: the forum's most recently active threads.
    pub latest: Vec<ThreadSummary>,
    /// Member-only "new thread" link.
    pub new_thread: Option<Route>,
    /// Archive view link.
    pub archive: Option<Route>,
}

/// A post as shown in a thread.
#[derive(Debug, Clone)]
pub struct PostView {
    /// Post id.
    pub post: u32,
    /// 1-based number of the post in its thread.
    pub number: u32,
    /// Author.
    pub author: UserCard,
    /// Creation instant.
    pub created: i64,
    /// Body paragraphs; the ground truth's text is these joined by `\n`.
    pub paragraphs: Vec<String>,
    /// A link the author put at the end of the text, shown as one more paragraph (the ground
    /// truth's text ends with its line).
    pub link: Option<BodyLink>,
    /// The author's signature.
    pub signature: Option<String>,
    /// The permalink, when the family has permalinks and the trap is on.
    pub permalink: Option<Route>,
    /// Member-only quote link.
    pub quote: Option<Route>,
    /// Member-only private-message link to the author.
    pub message: Option<Route>,
    /// Question-and-answer sites: the post's votes.
    pub votes: Option<i32>,
    /// Question-and-answer sites: whether the asker accepted this answer.
    pub accepted: bool,
    /// Question-and-answer sites: the comments under the post (not posts themselves).
    pub comments: Vec<CommentView>,
}

/// A comment under a post on a question-and-answer site: one sentence, its author and time.
/// Comments are not posts: the ground truth leaves them out.
#[derive(Debug, Clone)]
pub struct CommentView {
    /// Who wrote it.
    pub author: UserCard,
    /// When.
    pub created: i64,
    /// The sentence.
    pub text: String,
}

/// A link inside a post's text: user content, not navigation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyLink {
    /// The words before the link ("See also: ").
    pub before: String,
    /// The link's text (the linked thread's title).
    pub anchor: String,
    /// What it links to: a public thread's first page or a members-only thread.
    pub target: Route,
}

impl BodyLink {
    /// The paragraph as plain text, as the ground truth writes it.
    pub fn text(&self) -> String {
        format!("{}{}", self.before, self.anchor)
    }
}

/// A thread page.
#[derive(Debug, Clone)]
pub struct ThreadView {
    /// Thread id.
    pub thread: u32,
    /// Title.
    pub title: String,
    /// Board id and name.
    pub board: (u32, String),
    /// The posts of this page. In families that repeat the last post of a page atop the next,
    /// later pages start with that post again, and question-and-answer sites start every later
    /// page with the question again (the ground truth counts it once, on its own page).
    pub posts: Vec<PostView>,
    /// The order of answers shown (question-and-answer sites; the canonical order elsewhere).
    pub answers: AnswerOrder,
    /// Links to page 1 in the other orders of answers (empty unless the site has them and the
    /// sort-orders trap is on).
    pub answer_orders: Vec<(AnswerOrder, Address)>,
    /// Page-flipping links.
    pub pager: Pager,
    /// Link to the previous (older) thread of the board.
    pub previous_thread: Option<Route>,
    /// Link to the next (newer) thread of the board.
    pub next_thread: Option<Route>,
    /// Member-only reply link.
    pub reply: Option<Route>,
    /// Printable view link.
    pub print: Option<Route>,
    /// Archive view link.
    pub archive: Option<Route>,
}

/// A post shown alone.
#[derive(Debug, Clone)]
pub struct SinglePostView {
    /// Its thread id and title.
    pub thread: (u32, String),
    /// The post.
    pub post: PostView,
    /// Link to the thread page holding the post.
    pub in_thread: Route,
}

/// A whole thread on one page (print and archive views).
#[derive(Debug, Clone)]
pub struct WholeThreadView {
    /// Thread id.
    pub thread: u32,
    /// Title.
    pub title: String,
    /// All posts existing now.
    pub posts: Vec<PostView>,
    /// Link back to the thread's first page.
    pub original: Route,
}

/// A board's archive view.
#[derive(Debug, Clone)]
pub struct ArchiveBoardView {
    /// Board id.
    pub board: u32,
    /// Name.
    pub name: String,
    /// Every thread of the board, newest first, with its archive link.
    pub threads: Vec<(Route, String)>,
}

/// A profile.
#[derive(Debug, Clone)]
pub struct ProfileView {
    /// The user.
    pub user: UserCard,
    /// Registration instant (always shown on a profile).
    pub joined: i64,
    /// Last visit, not after now; a noisy date, `None` when noisy dates are switched off.
    pub last_visit: Option<i64>,
    /// Threads the user started most recently.
    pub recent_threads: Vec<(Route, String)>,
    /// Member-only message link.
    pub message: Option<Route>,
}

/// A member list page.
#[derive(Debug, Clone)]
pub struct MemberListView {
    /// Members of this page.
    pub members: Vec<UserCard>,
    /// Page-flipping links.
    pub pager: Pager,
}

/// A calendar month.
#[derive(Debug, Clone)]
pub struct CalendarView {
    /// Year.
    pub year: i32,
    /// Month 1..=12.
    pub month: u32,
    /// Threads started in that month (as events), at most a handful.
    pub events: Vec<(u32, Route, String)>,
    /// The month before.
    pub previous: Route,
    /// The month after.
    pub next: Route,
}

/// A page of the endless search listing.
#[derive(Debug, Clone)]
pub struct SearchView {
    /// Page number.
    pub page: u32,
    /// Results: recently active threads (the listing repeats them page after page).
    pub results: Vec<ThreadSummary>,
    /// The next page; there always is one.
    pub next: Route,
    /// The previous page.
    pub previous: Option<Route>,
}

/// Why the login form is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoginReason {
    /// The user asked for the login page.
    Requested,
    /// A member-only page was asked for.
    MembersOnly,
}

/// The login form.
#[derive(Debug, Clone)]
pub struct LoginView {
    /// Why it is shown.
    pub reason: LoginReason,
    /// Where the form posts; a login route carrying the return path.
    pub form_action: Route,
}
