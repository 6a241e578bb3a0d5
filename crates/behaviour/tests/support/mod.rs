//! Hand-made browse logs of small forums of our own making, spelled as script names and query
//! parameters, slugs in the path, rewritten one-segment pages, a question-and-answer site, ids
//! and slugs with feeds beside them, and a mailing-list archive, written by a deterministic walk
//! so that every test sees the same log.

#![allow(dead_code)]

/// A tiny linear congruential generator: enough to vary a walk, stable forever.
pub struct Walk(u64);

impl Walk {
    pub fn new(seed: u64) -> Walk {
        Walk(
            seed.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        )
    }

    pub fn below(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % bound.max(1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// How a forum spells its pages.
pub trait Spelling {
    fn portal(&self) -> String;
    fn board(&self, board: u64, page: u64) -> String;
    fn thread(&self, thread: u64, page: u64) -> String;
    fn profile(&self, user: u64) -> String;
    fn login(&self) -> String;
    fn new_posts(&self) -> String;
}

/// Script names and query parameters, offsets for later pages.
pub struct ScriptForum;

impl Spelling for ScriptForum {
    fn portal(&self) -> String {
        "/index.php".to_string()
    }
    fn board(&self, board: u64, page: u64) -> String {
        match page {
            1 => format!("/viewforum.php?f={board}"),
            _ => format!("/viewforum.php?f={board}&start={}", (page - 1) * 25),
        }
    }
    fn thread(&self, thread: u64, page: u64) -> String {
        match page {
            1 => format!("/viewtopic.php?t={thread}"),
            _ => format!("/viewtopic.php?t={thread}&start={}", (page - 1) * 20),
        }
    }
    fn profile(&self, user: u64) -> String {
        format!("/memberlist.php?mode=viewprofile&u={user}")
    }
    fn login(&self) -> String {
        "/ucp.php?mode=login".to_string()
    }
    fn new_posts(&self) -> String {
        "/search.php?search_id=newposts".to_string()
    }
}

/// The slug of thread `thread`'s title: two words chosen by its number.
fn thread_slug(thread: u64) -> String {
    format!(
        "{}-{}",
        WORDS[thread as usize % 8],
        WORDS[(thread as usize / 8) % 8]
    )
}

/// Slugs with ids in the path, `page-N` for later pages.
pub struct SlugForum;

const WORDS: [&str; 8] = [
    "engine", "garden", "kettle", "violin", "harbour", "lantern", "pepper", "quartz",
];

impl Spelling for SlugForum {
    fn portal(&self) -> String {
        "/".to_string()
    }
    fn board(&self, board: u64, page: u64) -> String {
        let name = WORDS[board as usize % WORDS.len()];
        match page {
            1 => format!("/forums/{name}.{board}/"),
            _ => format!("/forums/{name}.{board}/page-{page}"),
        }
    }
    fn thread(&self, thread: u64, page: u64) -> String {
        let slug = thread_slug(thread);
        match page {
            1 => format!("/threads/{slug}.{thread}/"),
            _ => format!("/threads/{slug}.{thread}/page-{page}"),
        }
    }
    fn profile(&self, user: u64) -> String {
        format!("/members/{}.{user}/", WORDS[user as usize % 8])
    }
    fn login(&self) -> String {
        "/login/".to_string()
    }
    fn new_posts(&self) -> String {
        "/whats-new/".to_string()
    }
}

/// Rewritten URLs that spell the whole page in one path segment, as Discuz! and other engines
/// with "search-engine friendly" URLs do: `thread-{id}-{page}-1.html`, `forum-{id}-{page}.html`,
/// `space-uid-{id}.html`, beside a portal script.
pub struct RewrittenForum;

impl Spelling for RewrittenForum {
    fn portal(&self) -> String {
        "/forum.php".to_string()
    }
    fn board(&self, board: u64, page: u64) -> String {
        format!("/forum-{}-{page}.html", board + 1)
    }
    fn thread(&self, thread: u64, page: u64) -> String {
        format!("/thread-{thread}-{page}-1.html")
    }
    fn profile(&self, user: u64) -> String {
        format!("/space-uid-{user}.html")
    }
    fn login(&self) -> String {
        "/member.php?mod=logging&action=login".to_string()
    }
    fn new_posts(&self) -> String {
        "/search.php?mod=forum&srchtype=new".to_string()
    }
}

/// A question-and-answer site: tags are its boards, spelled under the same first segment as
/// the questions, with a word where the questions have their id
/// (`/questions/tagged/garden` beside `/questions/41/garden-engine`); far fewer tag pages
/// than question pages are visited.
pub struct QuestionForum;

impl Spelling for QuestionForum {
    fn portal(&self) -> String {
        "/".to_string()
    }
    fn board(&self, board: u64, page: u64) -> String {
        let tag = WORDS[board as usize % WORDS.len()];
        match page {
            1 => format!("/questions/tagged/{tag}"),
            _ => format!("/questions/tagged/{tag}?page={page}"),
        }
    }
    fn thread(&self, thread: u64, page: u64) -> String {
        let slug = thread_slug(thread);
        match page {
            1 => format!("/questions/{thread}/{slug}"),
            _ => format!("/questions/{thread}/{slug}?page={page}"),
        }
    }
    fn profile(&self, user: u64) -> String {
        format!("/users/{user}/{}", WORDS[user as usize % 8])
    }
    fn login(&self) -> String {
        "/users/login".to_string()
    }
    fn new_posts(&self) -> String {
        "/questions?sort=newest".to_string()
    }
}

/// A forum of id-and-slug paths with a page query, as NodeBB spells them
/// (`/topic/41/garden-engine?page=2`), whose pages also link each thread's and each board's
/// feed, the id with a suffix in the id's place (`/topic/41.rss`), which no reader opens.
pub struct FeedForum;

impl Spelling for FeedForum {
    fn portal(&self) -> String {
        "/".to_string()
    }
    fn board(&self, board: u64, page: u64) -> String {
        let name = WORDS[board as usize % WORDS.len()];
        match page {
            1 => format!("/category/{board}/{name}"),
            _ => format!("/category/{board}/{name}?page={page}"),
        }
    }
    fn thread(&self, thread: u64, page: u64) -> String {
        let slug = thread_slug(thread);
        match page {
            1 => format!("/topic/{thread}/{slug}"),
            _ => format!("/topic/{thread}/{slug}?page={page}"),
        }
    }
    fn profile(&self, user: u64) -> String {
        format!("/user/{}{user}", WORDS[user as usize % 8])
    }
    fn login(&self) -> String {
        "/login".to_string()
    }
    fn new_posts(&self) -> String {
        "/recent".to_string()
    }
}

/// A mailing-list archive: each list's index of threads (`threads.html`, `threads2.html`, …) and
/// its messages, one page each (a thread's page `p` is its message `p`). The archive also
/// shows every index by date, author and subject (`date2.html`), copies of the thread index
/// no reader of the log opens.
pub struct ListArchive;

impl Spelling for ListArchive {
    fn portal(&self) -> String {
        "/archives/".to_string()
    }
    fn board(&self, board: u64, page: u64) -> String {
        match page {
            1 => format!("/archives/list{board}/threads.html"),
            _ => format!("/archives/list{board}/threads{page}.html"),
        }
    }
    fn thread(&self, thread: u64, page: u64) -> String {
        format!(
            "/archives/list{}/msg{:05}.html",
            thread % BOARDS,
            thread * 10 + page
        )
    }
    fn profile(&self, user: u64) -> String {
        format!("/archives/authors/{}{user}.html", WORDS[user as usize % 8])
    }
    fn login(&self) -> String {
        "/mailman/login".to_string()
    }
    fn new_posts(&self) -> String {
        "/archives/search".to_string()
    }
}

/// Boards of the hand-made forums; thread `t` lives in board `t % BOARDS`.
pub const BOARDS: u64 = 4;

/// Pages of thread `t`: most threads are short, every seventh runs to six pages.
pub fn thread_pages(thread: u64) -> u64 {
    if thread.is_multiple_of(7) {
        6
    } else {
        1 + thread % 3
    }
}

/// A browse log as TSV lines (target, referrer, user): `users` users each make `sessions`
/// visits, entering at the portal or, one time in four, at a thread from a search engine, then
/// reading boards, threads (newer ones more), later pages, now and then a profile, the new-posts
/// list or the login page. Threads appear over time: session `s` of the log sees threads up to
/// `40 + s * 2`, so later records name threads earlier ones could not.
pub fn browse_log(spelling: &dyn Spelling, users: u64, sessions: u64, seed: u64) -> Vec<String> {
    let mut walk = Walk::new(seed);
    let mut lines = Vec::new();
    let host = "http://forum.test";
    for session in 0..sessions {
        let newest_thread = 40 + session * 2;
        for user in 0..users {
            let user_id = format!("user{user:03}");
            let mut referrer: Option<String> = None;
            let mut current = if walk.chance(25) {
                referrer = Some("https://search.example/?q=forum".to_string());
                let thread = 1 + walk.below(newest_thread);
                spelling.thread(thread, 1)
            } else {
                spelling.portal()
            };
            let mut current_thread: Option<(u64, u64)> = None;
            let mut previous = spelling.portal();
            for _step in 0..(3 + walk.below(6)) {
                let shown_referrer = referrer.clone().unwrap_or_else(|| "-".to_string());
                lines.push(format!("{current}\t{shown_referrer}\t{user_id}"));
                let next = if current == spelling.login() {
                    // Logging in returns to the page the user was on.
                    previous.clone()
                } else if current == spelling.new_posts() {
                    let thread = newest_thread - walk.below(5);
                    current_thread = Some((thread, 1));
                    spelling.thread(thread, 1)
                } else if let Some((thread, page)) = current_thread {
                    let pages = thread_pages(thread);
                    if page < pages && walk.chance(50) {
                        current_thread = Some((thread, page + 1));
                        spelling.thread(thread, page + 1)
                    } else if page == 1 && pages > 2 && walk.chance(30) {
                        current_thread = Some((thread, pages));
                        spelling.thread(thread, pages)
                    } else if walk.chance(12) {
                        current_thread = None;
                        spelling.profile(1 + walk.below(30))
                    } else {
                        current_thread = None;
                        spelling.board(thread % BOARDS, 1)
                    }
                } else if walk.chance(5) {
                    spelling.login()
                } else if walk.chance(10) {
                    spelling.new_posts()
                } else if walk.chance(20) {
                    spelling.board(walk.below(BOARDS), 2 + walk.below(2))
                } else if walk.chance(30) {
                    spelling.board(walk.below(BOARDS), 1)
                } else {
                    // Newer threads are read more: half of the picks are among the ten newest.
                    let thread = if walk.chance(50) {
                        newest_thread - walk.below(10)
                    } else {
                        1 + walk.below(newest_thread)
                    };
                    current_thread = Some((thread, 1));
                    spelling.thread(thread, 1)
                };
                previous = current.clone();
                referrer = Some(format!("{host}{current}"));
                current = next;
            }
        }
    }
    lines
}
