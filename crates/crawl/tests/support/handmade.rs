//! A small forum of our own making, served from memory, in shapes the simulator's families do
//! not show: a portal that redirects, pagers given only as `<link rel="next">` in the head or by
//! a cursor (or as one "Load more" link with a cursor), young forums with one board long enough
//! for a second page, pager links with extra parameters, the last post of a page shown again at the top of
//! the next, links in post bodies to pages that do not exist, a global list beside per-board
//! lists, and URLs of slugs without ids.
//!
//! The markup is written here, in the generic manner of many engines (a table of topics, a
//! `div` per post with author, date and body), and every page is a function of its URL, so the
//! forum knows its own truth: which URLs are the pages worth having and which posts exist.

use std::collections::BTreeSet;

use jiff::Timestamp;
use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher};
use url::Url;

pub const ORIGIN: &str = "http://handmade.test";

/// How the portal is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Portal {
    /// `/` shows the board index.
    Plain,
    /// `/` answers 302 to `/forum/`, where everything lives.
    Redirects,
    /// The board index is `/index.php`, and `/` shows the same page.
    IndexFile,
}

/// How a board's thread list pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardPager {
    /// A visible pager of numbered links `&page=N` with a "Next" link.
    Numbered,
    /// The next page is named only by `<link rel="next">` (and `rel="prev"`) in the head, with
    /// a cursor (`&after=<last thread id>`); the visible pager in `<noscript>` has links the
    /// server ignores, answering with the first page again.
    HeadLinksWithCursor,
    /// Numbered links `&page=N` that never end: every page offers the next one, and a page past
    /// the last shows the first page's threads again, as forums answer a page number out of
    /// range.
    Endless,
    /// One "Load more" link below the rows, with a cursor (`&before=<last thread id>`), the
    /// server-rendered fallback of an infinite scroll: no numbers, no way back.
    LoadMoreWithCursor,
}

/// How a cursor names the entry a board's next page starts after (for the cursor pagers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CursorSpelling {
    /// The last shown thread's id, a plain number (`&after=131`).
    ThreadId,
    /// An opaque token of letters and digits made from the thread by a hash, as engines that
    /// sign or encrypt their cursors write them (`&after=Q7kz0VxT2m`).
    OpaqueToken,
    /// The base64 of a small JSON object naming the thread (`&cursor=eyJ0IjoxMzF9`), as
    /// GraphQL-style cursors are.
    Base64,
    /// A hexadecimal hash as a path segment (`/b/0/page/9f3c21ab/`), the board's first page at
    /// `/b/0/`.
    PathHash,
}

/// How a thread's posts page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThreadPager {
    /// `?id=T&page=N`.
    Numbered,
    /// `?id=T&sort=votes&page=N`, with tabs for other sort orders (`&sort=newest`) that list
    /// the same posts in another order.
    SortedWithExtraParameters,
}

/// The shape of one hand-made forum.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub portal: Portal,
    pub board_pager: BoardPager,
    pub thread_pager: ThreadPager,
    /// The last post of a thread page is shown again at the top of the next page.
    pub repeat_last_post: bool,
    /// Some posts link, in their text, to threads that do not exist (members-only, 404).
    pub body_links_to_missing: bool,
    /// The portal is a global list of every thread, newest first ("all questions"), which
    /// links the board index; boards list their own threads beside it.
    pub global_list: bool,
    /// URLs are slugs in a hierarchy (`/c/<category>/<board>/<thread>/`) with no ids.
    pub slugs: bool,
    /// A young forum: only the first board has threads enough for a second page, so a sample
    /// meets one pair of a board's pages at most.
    pub one_long_board: bool,
    /// How the cursor pagers spell their cursor.
    pub cursor: CursorSpelling,
    /// Portal, boards and threads share one layout: every page wears a side bar naming every
    /// board, a thread page lists suggested topics in rows made like a board's (more of them than
    /// a board page shows) below its posts, and names no board of its own.
    pub one_layout: bool,
}

impl Shape {
    pub const PLAIN: Shape = Shape {
        portal: Portal::Plain,
        board_pager: BoardPager::Numbered,
        thread_pager: ThreadPager::Numbered,
        repeat_last_post: false,
        body_links_to_missing: false,
        global_list: false,
        slugs: false,
        one_long_board: false,
        cursor: CursorSpelling::ThreadId,
        one_layout: false,
    };
}

const BOARDS: usize = 5;
const THREADS_PER_LIST_PAGE: usize = 6;
const POSTS_PER_PAGE: usize = 5;
const MEMBERS: usize = 9;
/// Topics a thread page suggests in the one-layout shape: more rows than a board page shows, as
/// engines that suggest topics list many.
const SUGGESTED_TOPICS: usize = 12;
/// Smileys in the hidden picker every page of the one-layout shape carries.
const FRAME_SMILEYS: usize = 80;

const SYLLABLES: [&str; 20] = [
    "ka", "ro", "mi", "tel", "vas", "du", "pen", "lo", "sar", "gi", "bre", "nu", "fa", "zor", "he",
    "quin", "ta", "mol", "ve", "chu",
];

/// A 64-bit mixing hash (splitmix64's finaliser): nearby inputs give unrelated outputs.
fn mix(value: u64) -> u64 {
    let mut mixed = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    mixed ^ (mixed >> 31)
}

/// Standard base64 without padding (URL-safe letters), enough for a cursor's few bytes.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut text = String::new();
    for chunk in bytes.chunks(3) {
        let value = chunk.iter().enumerate().fold(0u32, |value, (index, byte)| {
            value | u32::from(*byte) << (16 - 8 * index)
        });
        for index in 0..=chunk.len() {
            text.push(ALPHABET[(value >> (18 - 6 * index) & 63) as usize] as char);
        }
    }
    text
}

/// A made-up word, one of thousands, chosen by `seed` through a mixing hash so that texts of
/// different posts share few runs of words, as real posts do.
fn word(seed: usize) -> String {
    let mixed = mix(seed as u64);
    let syllables = 2 + (mixed % 2) as usize;
    (0..syllables)
        .map(|index| SYLLABLES[((mixed >> (8 + index * 8)) % SYLLABLES.len() as u64) as usize])
        .collect()
}

struct Thread {
    id: usize,
    board: usize,
    posts: usize,
    first_post: usize,
}

/// The forum: its shape and its threads.
pub struct HandmadeForum {
    pub shape: Shape,
    threads: Vec<Thread>,
}

impl HandmadeForum {
    pub fn new(shape: Shape) -> HandmadeForum {
        let mut threads = Vec::new();
        let mut next_post = 1000;
        for board in 0..BOARDS {
            let count = match shape.one_long_board {
                true if board == 0 => THREADS_PER_LIST_PAGE + 2,
                true => 3 + board % 3,
                false => 8 + (board * 5) % 9,
            };
            for index in 0..count {
                let id = 100 + threads.len() * 3 + board;
                let posts = 1 + (id * 7 + index * 3) % 17;
                threads.push(Thread {
                    id,
                    board,
                    posts,
                    first_post: next_post,
                });
                next_post += posts;
            }
        }
        HandmadeForum { shape, threads }
    }

    /// The portal's URL as a user would give it.
    pub fn portal(&self) -> Url {
        let path = match self.shape.portal {
            Portal::Plain | Portal::Redirects => "/",
            Portal::IndexFile => "/index.php",
        };
        Url::parse(&format!("{ORIGIN}{path}")).unwrap()
    }

    fn base(&self) -> &'static str {
        match self.shape.portal {
            Portal::Redirects => "/forum/",
            Portal::Plain | Portal::IndexFile => "/",
        }
    }

    fn board_slug(board: usize) -> String {
        format!("{}-{}", word(board * 3 + 1), word(board * 5 + 2))
    }

    fn category_slug(board: usize) -> &'static str {
        if board < 2 { "general" } else { "workshop" }
    }

    fn thread_slug(thread: &Thread) -> String {
        format!(
            "{}-{}-{}",
            word(thread.id),
            word(thread.id / 3 + 7),
            word(thread.id / 7 + 11)
        )
    }

    fn index_url(&self) -> String {
        match self.shape.portal {
            Portal::IndexFile => "/index.php".into(),
            _ => self.base().into(),
        }
    }

    fn board_url(&self, board: usize, page: usize, after: Option<usize>) -> String {
        let first = if self.shape.slugs {
            format!(
                "{}c/{}/{}/",
                self.base(),
                Self::category_slug(board),
                Self::board_slug(board)
            )
        } else if self.shape.cursor == CursorSpelling::PathHash {
            format!("{}b/{board}/", self.base())
        } else {
            format!("{}board.php?id={board}", self.base())
        };
        let separator = if first.contains('?') { '&' } else { '?' };
        let cursor_name = match self.shape.board_pager {
            _ if self.shape.cursor == CursorSpelling::Base64 => "cursor",
            BoardPager::LoadMoreWithCursor => "before",
            _ => "after",
        };
        match (self.shape.board_pager, after) {
            (BoardPager::HeadLinksWithCursor | BoardPager::LoadMoreWithCursor, Some(after)) => {
                let value = self.cursor_value(after);
                match self.shape.cursor {
                    CursorSpelling::PathHash => format!("{first}page/{value}/"),
                    _ => format!("{first}{separator}{cursor_name}={value}"),
                }
            }
            _ if page <= 1 => first,
            _ => format!("{first}{separator}page={page}"),
        }
    }

    /// The cursor naming the thread a board's next page starts after, in the shape's spelling.
    fn cursor_value(&self, thread: usize) -> String {
        match self.shape.cursor {
            CursorSpelling::ThreadId => thread.to_string(),
            CursorSpelling::OpaqueToken => {
                const ALPHABET: &[u8] =
                    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
                let mut mixed = mix(thread as u64 ^ 0x5bd1_e995);
                (0..10)
                    .map(|_| {
                        let character = ALPHABET[(mixed % ALPHABET.len() as u64) as usize];
                        mixed = mix(mixed);
                        character as char
                    })
                    .collect()
            }
            CursorSpelling::Base64 => base64(format!("{{\"t\":{thread}}}").as_bytes()),
            CursorSpelling::PathHash => format!("{:08x}", mix(thread as u64) & 0xffff_ffff),
        }
    }

    fn global_url(&self, page: usize) -> String {
        if page <= 1 {
            self.index_url()
        } else {
            format!("{}all.php?page={page}", self.base())
        }
    }

    /// The list of boards: the portal, or beside a global list a page of its own.
    fn boards_url(&self) -> String {
        if self.shape.global_list {
            format!("{}boards.php", self.base())
        } else {
            self.index_url()
        }
    }

    fn thread_url(&self, thread: &Thread, page: usize) -> String {
        let first = if self.shape.slugs {
            format!(
                "{}c/{}/{}/{}/",
                self.base(),
                Self::category_slug(thread.board),
                Self::board_slug(thread.board),
                Self::thread_slug(thread)
            )
        } else {
            format!("{}topic.php?id={}", self.base(), thread.id)
        };
        let separator = if first.contains('?') { '&' } else { '?' };
        match self.shape.thread_pager {
            _ if page <= 1 => first,
            ThreadPager::Numbered => format!("{first}{separator}page={page}"),
            ThreadPager::SortedWithExtraParameters => {
                format!("{first}{separator}sort=votes&page={page}")
            }
        }
    }

    fn member_url(&self, member: usize) -> String {
        format!("{}member.php?id={member}", self.base())
    }

    fn thread_pages(thread: &Thread) -> usize {
        thread.posts.div_ceil(POSTS_PER_PAGE)
    }

    fn threads_of(&self, board: usize) -> Vec<&Thread> {
        self.threads
            .iter()
            .filter(|thread| thread.board == board)
            .collect()
    }

    /// The URLs worth fetching: the board index, every page of every board, every page of every
    /// thread, each under the spelling its own links use. A global list's pages past the portal
    /// are not worth a fetch: the boards list the same threads, and every board page is worth
    /// having.
    pub fn valuable_urls(&self) -> BTreeSet<String> {
        let mut urls = BTreeSet::new();
        urls.insert(self.index_url());
        // The side bar of the one-layout shape names every board: its list of boards is one
        // more way in, not a page worth having.
        if !self.shape.one_layout {
            urls.insert(self.boards_url());
        }
        for board in 0..BOARDS {
            let threads = self.threads_of(board);
            for (page, chunk) in threads.chunks(THREADS_PER_LIST_PAGE).enumerate() {
                let after = (page > 0).then(|| threads[page * THREADS_PER_LIST_PAGE - 1].id);
                urls.insert(self.board_url(board, page + 1, after));
                let _ = chunk;
            }
        }
        for thread in &self.threads {
            for page in 1..=Self::thread_pages(thread) {
                urls.insert(self.thread_url(thread, page));
            }
        }
        urls
    }

    /// The marker every post's text carries, by which a crawl's posts are counted.
    pub fn post_marker(post: usize) -> String {
        format!("postmark{post}")
    }

    /// Every post's id.
    pub fn posts(&self) -> Vec<usize> {
        self.threads
            .iter()
            .flat_map(|thread| thread.first_post..thread.first_post + thread.posts)
            .collect()
    }

    fn page(title: &str, head: &str, body: &str) -> String {
        format!(
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title} - Handmade Forum</title>\
             <link rel='stylesheet' href='/style.css'>{head}</head><body>\
             <div id='header'><a href='{home}'>Handmade Forum</a> \
             <ul class='menu'><li><a href='/search.php'>Search</a></li><li><a href='/login.php'>Log in</a></li></ul></div>\
             <div id='content'>{body}</div>\
             <div id='footer'>Powered by our own hands. <a href='/terms.php'>Terms</a></div></body></html>",
            home = "/"
        )
    }

    /// A page in the forum's frame: in the one-layout shape, with the side bar naming every
    /// board that each page shows.
    fn framed(&self, title: &str, head: &str, body: &str) -> String {
        if !self.shape.one_layout {
            return Self::page(title, head, body);
        }
        let boards: String = (0..BOARDS)
            .map(|board| {
                format!(
                    "<li class='category'><a href='{}'>{}</a></li>",
                    self.board_url(board, 1, None),
                    Self::board_slug(board).replace('-', " ")
                )
            })
            .collect();
        // The frame's hidden dialogs (a picker of smileys for the reply box, on every page)
        // outweigh in markup what any one page shows, as a JavaScript-heavy engine's frame
        // does, though they hold little text.
        let smileys: String = (0..FRAME_SMILEYS)
            .map(|smiley| {
                format!(
                    "<li class='smiley'><a href='#' title='{name}'><img src='/smileys/{smiley}.png' alt=':{name}:'></a><span class='code'>:{name}:</span></li>",
                    name = word(smiley + 500),
                )
            })
            .collect();
        Self::page(
            title,
            head,
            &format!(
                "<div class='main'>{body}</div><div class='sidebar'><h3>Categories</h3><ul class='categories'>{boards}</ul></div>\
                 <div class='modal' role='dialog' hidden><h4>Insert a smiley</h4><ul class='smileys'>{smileys}</ul></div>"
            ),
        )
    }

    /// The topics a thread page suggests in the one-layout shape: the threads that follow it in
    /// the forum's order, wrapping round.
    fn suggested_topics(&self, thread: &Thread) -> String {
        let position = self
            .threads
            .iter()
            .position(|other| other.id == thread.id)
            .unwrap_or(0);
        let suggested: Vec<&Thread> = (1..=SUGGESTED_TOPICS)
            .map(|step| &self.threads[(position + step) % self.threads.len()])
            .collect();
        format!("<h2>Suggested topics</h2>{}", self.topic_rows(&suggested))
    }

    fn time_of(post: usize) -> String {
        let day = 1 + post % 28;
        let hour = post % 24;
        let minute = (post * 7) % 60;
        format!("2024-03-{day:02} {hour:02}:{minute:02}")
    }

    fn topic_rows(&self, threads: &[&Thread]) -> String {
        let mut rows = String::new();
        for thread in threads {
            let last = thread.first_post + thread.posts - 1;
            rows.push_str(&format!(
                "<tr class='topic'><td class='title'><a href='{url}'>{title}</a> \
                 <span class='starter'>by <a href='{member}'>{name}</a></span></td>\
                 <td class='replies'>{replies}</td><td class='views'>{views}</td>\
                 <td class='lastpost'>{time}</td></tr>",
                url = self.thread_url(thread, 1),
                title = Self::title_of(thread),
                member = self.member_url(thread.first_post % MEMBERS),
                name = Self::member_name(thread.first_post % MEMBERS),
                replies = thread.posts - 1,
                views = thread.posts * 13 + 4,
                time = Self::time_of(last),
            ));
        }
        format!(
            "<table class='topics'><tr><th>Topic</th><th>Replies</th><th>Views</th><th>Last post</th></tr>{rows}</table>"
        )
    }

    fn title_of(thread: &Thread) -> String {
        let slug = Self::thread_slug(thread);
        let mut title = slug.replace('-', " ");
        title[..1].make_ascii_uppercase();
        title
    }

    fn member_name(member: usize) -> String {
        format!("{}{}", word(member * 11 + 3), member)
    }

    fn numbered_pager(urls: &[String], current: usize) -> String {
        let mut pager = String::from("<div class='pagination'>Pages: ");
        for (index, url) in urls.iter().enumerate() {
            if index + 1 == current {
                pager.push_str(&format!("<strong>{}</strong> ", index + 1));
            } else {
                pager.push_str(&format!("<a href='{url}'>{}</a> ", index + 1));
            }
        }
        if current < urls.len() {
            pager.push_str(&format!("<a href='{}'>Next</a>", urls[current]));
        }
        pager.push_str("</div>");
        pager
    }

    fn board_page(&self, board: usize, page: usize) -> Option<String> {
        let threads = self.threads_of(board);
        let pages = threads.len().div_ceil(THREADS_PER_LIST_PAGE);
        let endless = self.shape.board_pager == BoardPager::Endless;
        if page == 0 || (page > pages && !endless) {
            return None;
        }
        let shown_page = if page > pages { 1 } else { page };
        let shown = &threads[(shown_page - 1) * THREADS_PER_LIST_PAGE
            ..(shown_page * THREADS_PER_LIST_PAGE).min(threads.len())];
        let url_of_page = |page: usize| {
            let after = (page > 1).then(|| threads[(page - 1) * THREADS_PER_LIST_PAGE - 1].id);
            self.board_url(board, page, after)
        };
        let (head, pager) = match self.shape.board_pager {
            BoardPager::Numbered => (
                String::new(),
                Self::numbered_pager(&(1..=pages).map(url_of_page).collect::<Vec<_>>(), page),
            ),
            BoardPager::Endless => (
                String::new(),
                Self::numbered_pager(
                    &(1..=page + 1)
                        .map(|page| self.board_url(board, page, None))
                        .collect::<Vec<_>>(),
                    page,
                ),
            ),
            BoardPager::HeadLinksWithCursor => {
                let mut head = String::new();
                if page > 1 {
                    head.push_str(&format!(
                        "<link rel='prev' href='{}'>",
                        url_of_page(page - 1)
                    ));
                }
                if page < pages {
                    head.push_str(&format!(
                        "<link rel='next' href='{}'>",
                        url_of_page(page + 1)
                    ));
                }
                // The pager for clients without scripts names pages the server does not read.
                let first = self.board_url(board, 1, None);
                let separator = if first.contains('?') { '&' } else { '?' };
                let noscript: Vec<String> = (1..=pages)
                    .map(|page| format!("{first}{separator}p={page}"))
                    .collect();
                (
                    head,
                    format!(
                        "<noscript>{}</noscript>",
                        Self::numbered_pager(&noscript, page)
                    ),
                )
            }
            BoardPager::LoadMoreWithCursor => {
                let more = if page < pages {
                    format!(
                        "<div class='load-more'><a class='button' href='{}'>Load more</a></div>",
                        url_of_page(page + 1)
                    )
                } else {
                    String::new()
                };
                (String::new(), more)
            }
        };
        let name = Self::board_slug(board).replace('-', " ");
        Some(self.framed(
            &name,
            &head,
            &format!(
                "<div class='breadcrumbs'><a href='{index}'>Board index</a> &raquo; <a href='{board_url}'>{name}</a></div>\
                 <h1>{name}</h1><p class='description'>Talk about {name} and {extra}.</p>{pager}{rows}{pager}",
                index = self.boards_url(),
                board_url = self.board_url(board, 1, None),
                extra = word(board + 17),
                rows = self.topic_rows(shown),
            ),
        ))
    }

    fn global_page(&self, page: usize) -> Option<String> {
        let pages = self.threads.len().div_ceil(THREADS_PER_LIST_PAGE);
        if !self.shape.global_list || page == 0 || page > pages {
            return None;
        }
        // Newest first, interleaving the boards, as "all topics" lists do.
        let mut threads: Vec<&Thread> = self.threads.iter().collect();
        threads.sort_by_key(|thread| std::cmp::Reverse(thread.first_post + thread.posts));
        let shown = &threads
            [(page - 1) * THREADS_PER_LIST_PAGE..(page * THREADS_PER_LIST_PAGE).min(threads.len())];
        let pager = Self::numbered_pager(
            &(1..=pages)
                .map(|page| self.global_url(page))
                .collect::<Vec<_>>(),
            page,
        );
        Some(self.framed(
            "All topics",
            "",
            &format!(
                "<div class='breadcrumbs'><a href='{boards}'>Boards</a></div><h1>All topics</h1>{pager}{rows}{pager}",
                boards = self.boards_url(),
                rows = self.topic_rows(shown),
            ),
        ))
    }

    fn index_page(&self) -> String {
        let mut rows = String::new();
        for board in 0..BOARDS {
            let threads = self.threads_of(board);
            let name = Self::board_slug(board).replace('-', " ");
            rows.push_str(&format!(
                "<tr class='board'><td class='name'><a href='{url}'>{name}</a><div class='description'>Talk about {name}.</div></td>\
                 <td class='topics'>{topics}</td><td class='posts'>{posts}</td></tr>",
                url = self.board_url(board, 1, None),
                topics = threads.len(),
                posts = threads.iter().map(|thread| thread.posts).sum::<usize>(),
            ));
        }
        self.framed(
            "Board index",
            "",
            &format!(
                "<h1>Board index</h1><table class='boards'><tr><th>Board</th><th>Topics</th><th>Posts</th></tr>{rows}</table>"
            ),
        )
    }

    fn thread_page(&self, thread: &Thread, page: usize, newest_first: bool) -> Option<String> {
        let pages = Self::thread_pages(thread);
        if page == 0 || page > pages {
            return None;
        }
        let mut posts: Vec<usize> = (thread.first_post..thread.first_post + thread.posts).collect();
        if newest_first {
            posts.reverse();
        }
        let start = (page - 1) * POSTS_PER_PAGE;
        let mut shown: Vec<usize> =
            posts[start..(start + POSTS_PER_PAGE).min(posts.len())].to_vec();
        if self.shape.repeat_last_post && page > 1 {
            shown.insert(0, posts[start - 1]);
        }
        let mut body = String::new();
        for post in shown {
            let member = post % MEMBERS;
            let missing_link = if self.shape.body_links_to_missing && post % 4 == 0 {
                format!(
                    " See also <a href='{}'>this members-only thread</a>.",
                    self.thread_url(
                        &Thread {
                            id: 9000 + post,
                            board: thread.board,
                            posts: 1,
                            first_post: 0,
                        },
                        1,
                    )
                )
            } else {
                String::new()
            };
            body.push_str(&format!(
                "<div class='post' id='p{post}'><div class='postprofile'><a class='username' href='{member_url}'>{name}</a>\
                 <span class='rank'>Member</span></div>\
                 <div class='postbody'><p class='postdate'><a class='permalink' href='#p{post}'>Posted</a> {time}</p>\
                 <div class='content'>{text} {marker}.{missing_link}</div></div></div>",
                member_url = self.member_url(member),
                name = Self::member_name(member),
                time = Self::time_of(post),
                text = (0..12 + post % 9)
                    .map(|index| word(post * 1000 + index))
                    .collect::<Vec<_>>()
                    .join(" "),
                marker = Self::post_marker(post),
            ));
        }
        let pager = Self::numbered_pager(
            &(1..=pages)
                .map(|page| self.thread_url(thread, page))
                .collect::<Vec<_>>(),
            page,
        );
        let tabs = match self.shape.thread_pager {
            ThreadPager::Numbered => String::new(),
            ThreadPager::SortedWithExtraParameters => {
                let first = self.thread_url(thread, 1);
                let separator = if first.contains('?') { '&' } else { '?' };
                format!(
                    "<div class='sort-tabs'><a href='{first}{separator}sort=votes'>Votes</a> <a href='{first}{separator}sort=newest'>Newest</a></div>"
                )
            }
        };
        let title = Self::title_of(thread);
        // In the one-layout shape a thread names no board of its own, only the forum.
        let (breadcrumbs, suggested) = match self.shape.one_layout {
            true => (
                format!(
                    "<div class='breadcrumbs'><a href='{}'>Forum</a></div>",
                    self.index_url()
                ),
                self.suggested_topics(thread),
            ),
            false => (
                format!(
                    "<div class='breadcrumbs'><a href='{index}'>Board index</a> &raquo; <a href='{board}'>{board_name}</a></div>",
                    index = self.boards_url(),
                    board = self.board_url(thread.board, 1, None),
                    board_name = Self::board_slug(thread.board).replace('-', " "),
                ),
                String::new(),
            ),
        };
        Some(self.framed(
            &title,
            "",
            &format!("{breadcrumbs}<h1>{title}</h1>{tabs}{pager}{body}{pager}{suggested}"),
        ))
    }

    fn member_page(&self, member: usize) -> Option<String> {
        (member < MEMBERS).then(|| {
            self.framed(
                &Self::member_name(member),
                "",
                &format!(
                    "<h1>{name}</h1><dl class='profile'><dt>Joined</dt><dd>2023-01-{day:02}</dd><dt>Posts</dt><dd>{posts}</dd></dl>",
                    name = Self::member_name(member),
                    day = 1 + member,
                    posts = 10 + member * 7,
                ),
            )
        })
    }

    /// The page at `path_and_query`: a status and a body, or a redirect's target.
    fn answer(&self, url: &Url) -> Answer {
        let path = url.path();
        let pairs: Vec<(String, String)> = url
            .query_pairs()
            .map(|(key, value)| (key.into_owned(), value.into_owned()))
            .collect();
        let number = |key: &str| -> Option<usize> {
            pairs
                .iter()
                .find(|(name, _)| name == key)
                .and_then(|(_, value)| value.parse().ok())
        };
        let text = |key: &str| {
            pairs
                .iter()
                .find(|(name, _)| name == key)
                .map(|(_, v)| v.as_str())
        };
        let known_keys =
            |keys: &[&str]| pairs.iter().all(|(name, _)| keys.contains(&name.as_str()));
        if self.shape.portal == Portal::Redirects && path == "/" && pairs.is_empty() {
            return Answer::Redirect("/forum/".into());
        }
        let Some(rest) = path.strip_prefix(self.base()) else {
            return Answer::Missing;
        };
        let page = number("page").unwrap_or(1);
        let ok = |body: Option<String>| body.map_or(Answer::Missing, Answer::Page);
        if (rest.is_empty() || (rest == "index.php" && self.shape.portal == Portal::IndexFile))
            && pairs.is_empty()
        {
            return match self.shape.global_list {
                true => ok(self.global_page(1)),
                false => Answer::Page(self.index_page()),
            };
        }
        if rest == "all.php" && known_keys(&["page"]) && page > 1 {
            return ok(self.global_page(page));
        }
        if rest == "boards.php" && pairs.is_empty() && self.shape.global_list {
            return Answer::Page(self.index_page());
        }
        if rest == "member.php" && known_keys(&["id"]) {
            return ok(number("id").and_then(|member| self.member_page(member)));
        }
        let board_page = |board: usize, path_cursor: Option<&str>| -> Answer {
            let cursor = match self.shape.board_pager {
                _ if self.shape.cursor == CursorSpelling::PathHash => path_cursor,
                _ if self.shape.cursor == CursorSpelling::Base64 => text("cursor"),
                BoardPager::LoadMoreWithCursor => text("before"),
                _ => text("after"),
            };
            match (self.shape.board_pager, cursor) {
                (BoardPager::HeadLinksWithCursor | BoardPager::LoadMoreWithCursor, Some(after)) => {
                    let threads = self.threads_of(board);
                    match threads
                        .iter()
                        .position(|thread| self.cursor_value(thread.id) == after)
                    {
                        Some(position) if (position + 1) % THREADS_PER_LIST_PAGE == 0 => {
                            ok(self.board_page(board, (position + 1) / THREADS_PER_LIST_PAGE + 1))
                        }
                        _ => Answer::Missing,
                    }
                }
                // The server ignores what it does not read, `p` of the noscript pager included.
                (BoardPager::HeadLinksWithCursor | BoardPager::LoadMoreWithCursor, None) => {
                    ok(self.board_page(board, 1))
                }
                (BoardPager::Numbered | BoardPager::Endless, _) => ok(self.board_page(board, page)),
            }
        };
        let thread_page = |thread: &Thread| -> Answer {
            let newest = text("sort") == Some("newest");
            ok(self.thread_page(thread, page, newest))
        };
        if self.shape.slugs {
            let segments: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
            if !rest.ends_with('/') || segments.first() != Some(&"c") {
                return Answer::Missing;
            }
            let board = (0..BOARDS).find(|board| {
                segments.get(1) == Some(&Self::category_slug(*board))
                    && segments.get(2) == Some(&Self::board_slug(*board).as_str())
            });
            return match (board, segments.len()) {
                (Some(board), 3) => board_page(board, None),
                (Some(board), 4) => self
                    .threads_of(board)
                    .into_iter()
                    .find(|thread| Self::thread_slug(thread) == segments[3])
                    .map_or(Answer::Missing, thread_page),
                _ => Answer::Missing,
            };
        }
        if rest == "board.php" && self.shape.cursor != CursorSpelling::PathHash {
            return match number("id") {
                Some(board) if board < BOARDS => board_page(board, None),
                _ => Answer::Missing,
            };
        }
        if let Some(board_path) = rest.strip_prefix("b/")
            && self.shape.cursor == CursorSpelling::PathHash
            && board_path.ends_with('/')
            && known_keys(&["p"])
        {
            let segments: Vec<&str> = board_path.trim_end_matches('/').split('/').collect();
            let board = segments[0]
                .parse::<usize>()
                .ok()
                .filter(|board| *board < BOARDS);
            return match (board, &segments[1..]) {
                (Some(board), []) => board_page(board, None),
                (Some(board), ["page", cursor]) => board_page(board, Some(cursor)),
                _ => Answer::Missing,
            };
        }
        if rest == "topic.php" {
            return match number("id").and_then(|id| self.threads.iter().find(|t| t.id == id)) {
                Some(thread) => thread_page(thread),
                None => Answer::Missing,
            };
        }
        Answer::Missing
    }
}

enum Answer {
    Page(String),
    Redirect(String),
    Missing,
}

impl Fetcher for HandmadeForum {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let url = Url::parse(&request.url).expect("the crawler asks for absolute URLs");
        let html = |status: u16, body: String| FetchResponse {
            url: request.url.clone(),
            status,
            headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
            body: body.into_bytes(),
            fetched_at: request.at,
        };
        Ok(match self.answer(&url) {
            Answer::Page(body) => html(200, body),
            Answer::Missing => html(
                404,
                Self::page("Not found", "", "<h1>Not found</h1><p>No such page.</p>"),
            ),
            Answer::Redirect(location) => FetchResponse {
                url: request.url.clone(),
                status: 302,
                headers: vec![("Location".into(), location)],
                body: Vec::new(),
                fetched_at: request.at,
            },
        })
    }
}

/// The instant every page is asked at.
pub fn now() -> Timestamp {
    Timestamp::from_second(1_712_000_000).unwrap()
}
