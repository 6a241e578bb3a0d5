//! A simulated forum site: a history, a family and its traps, answering requests as of any instant.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::cursor_tokens;
use crate::disguise::Disguise;
use crate::families::{Family, FamilyName, LoginWall};
use crate::history::{ForumHistory, Scale};
use crate::html;
use crate::judge::Served;
use crate::random::{Random, mix};
use crate::route::{ActionKind, Address, Route, SortOrder};
use crate::traps::Traps;

/// What a simulated forum is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SiteConfig {
    /// The engine family it imitates.
    pub family: FamilyName,
    /// The seed of its history.
    pub seed: u64,
    /// Its size.
    pub scale: Scale,
    /// The traps it sets.
    pub traps: Traps,
}

impl SiteConfig {
    /// A site of `family` at `scale` from `seed` with every trap on.
    pub fn new(family: FamilyName, seed: u64, scale: Scale) -> Self {
        SiteConfig {
            family,
            seed,
            scale,
            traps: Traps::all(),
        }
    }
}

/// One answer of the simulated server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimResponse {
    /// HTTP status.
    pub status: u16,
    /// Response headers.
    pub headers: Vec<(String, String)>,
    /// Body bytes in the family's charset.
    pub body: Vec<u8>,
}

impl SimResponse {
    /// The first value of header `name` (names compared ignoring ASCII case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(known, _)| known.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

type Listing = Arc<Vec<u32>>;

/// A simulated forum.
///
/// Building one generates its history (milliseconds for small forums, about a second for the
/// papers' per-forum scale) and a few indexes; after that every request is answered from memory.
#[derive(Debug)]
pub struct Site {
    config: SiteConfig,
    family: Box<dyn Family>,
    history: ForumHistory,
    forum_name: String,
    /// User ids ordered by registration instant, and those instants.
    users_by_join: Vec<u32>,
    join_instants: Vec<i64>,
    /// Post ids per user in creation order (compressed rows).
    user_post_offsets: Vec<u32>,
    user_post_ids: Vec<u32>,
    /// Per (board, order): the instant a listing was computed at and the ordered non-sticky
    /// thread ids. Crawls ask for one instant many times, so one entry per list is enough.
    listings: Mutex<HashMap<(u32, SortOrder), (i64, Listing)>>,
    /// A board opened after the history began, and the instant it opened (see
    /// [`Site::with_board_opened_at`]).
    late_board: Option<(u32, i64)>,
    /// Whether cursor-paged lists spell their cursors as opaque tokens (see
    /// [`Site::with_opaque_cursors`]).
    opaque_cursors: bool,
    /// The query key the family's codec reads a cursor under, when cursor-paged lists list
    /// their newest thread first and name the next page by `before=` (see
    /// [`Site::with_cursors_counting_down`]).
    counting_down_key: Option<String>,
    /// The renaming of URL words and markup names the site is served under, when it is
    /// disguised (see [`Site::with_disguise`]).
    disguise: Option<Arc<Disguise>>,
}

impl Site {
    /// Generates the forum described by `config`.
    pub fn build(config: SiteConfig) -> Site {
        let family = config.family.build();
        let profile = family.profile();
        let history = ForumHistory::generate(
            config.seed,
            config.scale,
            profile.language,
            profile.utc_offset_seconds,
        );
        let mut users_by_join: Vec<u32> = (1..=history.user_count()).collect();
        users_by_join.sort_by_key(|&user| (history.user(user).map_or(0, |u| u.joined), user));
        let join_instants = users_by_join
            .iter()
            .map(|&user| history.user(user).map_or(0, |u| u.joined))
            .collect();
        let mut counts = vec![0u32; history.user_count() as usize + 1];
        for post in 1..=history.post_count() {
            counts[history.post(post).map_or(0, |p| p.author) as usize] += 1;
        }
        let mut user_post_offsets = Vec::with_capacity(counts.len() + 1);
        let mut running = 0u32;
        for count in &counts {
            user_post_offsets.push(running);
            running += count;
        }
        user_post_offsets.push(running);
        let mut fill = user_post_offsets.clone();
        let mut user_post_ids = vec![0u32; running as usize];
        for post in 1..=history.post_count() {
            let author = history.post(post).map_or(0, |p| p.author) as usize;
            user_post_ids[fill[author] as usize] = post;
            fill[author] += 1;
        }
        let forum_name = forum_name(config.seed, profile.language);
        Site {
            config,
            family,
            history,
            forum_name,
            users_by_join,
            join_instants,
            user_post_offsets,
            user_post_ids,
            listings: Mutex::new(HashMap::new()),
            late_board: None,
            opaque_cursors: false,
            counting_down_key: None,
            disguise: None,
        }
    }

    /// The same forum in disguise: every fixed word of its URLs (script names, path words,
    /// query keys) and every word of its `class` and `id` values renamed to tokens drawn from
    /// `seed`, the same word to the same token across the site (see [`crate::disguise`]). The
    /// forum behaves identically under the new names; its truth speaks them too (`url_of`,
    /// `address_of`, `classify`), so figures measured on it compare with the undisguised site's.
    pub fn with_disguise(mut self, seed: u64) -> Site {
        self.disguise = None;
        self.disguise = Some(Arc::new(Disguise::of_site(&self, seed)));
        self
    }

    /// The seed of the site's disguise, when it is disguised.
    pub fn disguise_seed(&self) -> Option<u64> {
        self.disguise.as_ref().map(|disguise| disguise.seed())
    }

    /// The URL words the disguise renames (empty when the site is not disguised).
    pub fn disguised_words(&self) -> &[String] {
        self.disguise
            .as_ref()
            .map_or(&[], |disguise| disguise.vocabulary())
    }

    /// The disguise drawn again after a change of URL spelling, so that its vocabulary holds
    /// every word the site now writes.
    fn redraw_disguise(self) -> Site {
        match self.disguise_seed() {
            Some(seed) => self.with_disguise(seed),
            None => self,
        }
    }

    /// The same forum with `board` opened only at `opens` (Unix seconds): before then it is
    /// on no board index and its pages, threads and posts answer as missing; from then on it is
    /// there with everything written in it, as when moderators make a board public or a board
    /// is created and threads are moved into it. What a watch of the forum must find: a board
    /// that appears on the portal after the crawl.
    pub fn with_board_opened_at(mut self, board: u32, opens: i64) -> Site {
        self.late_board = Some((board, opens));
        self
    }

    /// The same forum with its cursor-paged lists naming their cursors by opaque tokens
    /// (`?after=Gq7dRvX02bK`) instead of the number of the last entry shown (`?after=17`), as
    /// engines do that wrap a list position in a base64 or signed blob. The server then answers
    /// only tokens it minted: a plain number in the cursor's place is a page that does not
    /// exist. Families without cursors are unchanged.
    pub fn with_opaque_cursors(mut self) -> Site {
        self.opaque_cursors = true;
        self.redraw_disguise()
    }

    /// The same forum with its cursor-paged lists showing their newest thread first and naming
    /// each later page by the id of the last thread shown before it, as `?before=<id>`: the
    /// cursors count down page after page (`before=180`, `before=152`, ...), as engines do that
    /// page a "newest topics" list by id. The server answers only the `before=` spelling; with
    /// [`Site::with_opaque_cursors`] as well, the id is written as a token. Families without
    /// cursors are unchanged.
    pub fn with_cursors_counting_down(mut self) -> Site {
        if !self.family.profile().quirks.board_cursor {
            return self;
        }
        // The family's codec writes a cursor under a key of its own: find it by spelling one,
        // so that `before=` can be read back under it.
        let probe = self.family.encode(
            &Address::canonical(Route::BoardAfter {
                board: 1,
                after: 4_004_004,
            }),
            &self.history,
        );
        let (_, query) = html::split_path_and_query(&probe);
        self.counting_down_key = query.split('&').find_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            (value == "4004004").then(|| key.to_string())
        });
        self.redraw_disguise()
    }

    /// Whether cursor-paged lists count their cursors down (see
    /// [`Site::with_cursors_counting_down`]).
    pub fn cursors_count_down(&self) -> bool {
        self.counting_down_key.is_some()
    }

    /// The seed that mints this forum's cursor tokens, when it spells cursors opaquely.
    fn opaque_cursor_seed(&self) -> Option<u64> {
        self.opaque_cursors.then_some(self.config.seed)
    }

    /// Whether `board` is open at `at` (every board is, but one opened late before it opens).
    pub(crate) fn board_open(&self, board: u32, at: i64) -> bool {
        self.late_board
            .is_none_or(|(late, opens)| late != board || at >= opens)
    }

    /// Whether the board of `thread` is open at `at`.
    fn thread_board_open(&self, thread: u32, at: i64) -> bool {
        self.history
            .thread(thread)
            .is_some_and(|record| self.board_open(record.board, at))
    }

    /// The configuration it was built from.
    pub fn config(&self) -> &SiteConfig {
        &self.config
    }

    /// Its history.
    pub fn history(&self) -> &ForumHistory {
        &self.history
    }

    /// Its family.
    pub fn family(&self) -> &dyn Family {
        self.family.as_ref()
    }

    /// Its traps.
    pub fn traps(&self) -> &Traps {
        &self.config.traps
    }

    /// The forum's display name.
    pub fn forum_name(&self) -> &str {
        &self.forum_name
    }

    /// The portal's path as a visitor is given it (the URL a crawler starts from): the portal
    /// itself, or the front page redirecting to it for families that have one.
    pub fn portal_path(&self) -> String {
        self.url_of(&self.family.entry())
    }

    /// The path and query spelling `address` in this site's family (under its disguise, when
    /// it is disguised).
    pub fn url_of(&self, address: &Address) -> String {
        let plain = self.plain_url_of(address);
        match &self.disguise {
            Some(disguise) => disguise.url(&plain),
            None => plain,
        }
    }

    /// The path and query spelling `address` in the family's own words, as templates link it
    /// before the page is disguised.
    pub(crate) fn plain_url_of(&self, address: &Address) -> String {
        cursor_tokens::spell(
            self.family.encode(address, &self.history),
            address,
            self.opaque_cursor_seed(),
            self.cursors_count_down(),
        )
    }

    /// The thread whose first page `path_and_query` names (any spelling the family has), or
    /// `None` for any other page: what a thread entry on a board page must link to.
    pub fn thread_of_first_page(&self, path_and_query: &str) -> Option<u32> {
        match self.address_of(path_and_query)?.route {
            Route::Thread { thread, page: 1 } => Some(thread),
            _ => None,
        }
    }

    /// Reads a path and query (in the disguise's words, when the site is disguised); `None`
    /// when the family has no such URL.
    pub fn address_of(&self, path_and_query: &str) -> Option<Address> {
        match &self.disguise {
            Some(disguise) => self.plain_address_of(&disguise.url(path_and_query)),
            None => self.plain_address_of(path_and_query),
        }
    }

    /// Reads a path and query in the family's own words.
    pub(crate) fn plain_address_of(&self, path_and_query: &str) -> Option<Address> {
        let (path, query) = html::split_path_and_query(path_and_query);
        let clean = if query.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{query}")
        };
        if !self.opaque_cursors && self.counting_down_key.is_none() {
            return self.family.decode(&clean, &self.history);
        }
        // A forum counting its cursors down names them `before=`: give the family's codec the
        // key it reads, and refuse a cursor under the codec's own key, which this server never
        // writes.
        let mut read_before = false;
        let query: Vec<String> = query
            .split('&')
            .map(
                |pair| match (pair.split_once('='), &self.counting_down_key) {
                    (Some(("before", value)), Some(key)) => {
                        read_before = true;
                        format!("{key}={value}")
                    }
                    _ => pair.to_string(),
                },
            )
            .collect();
        let query = query.join("&");
        // The family reads cursors as numbers: give it the number a token stands for, and
        // refuse a cursor that was spelled as a plain number, which this server never mints.
        let mut read_token = !self.opaque_cursors;
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some(_) if !self.opaque_cursors => pair.to_string(),
                Some((key, value)) => match cursor_tokens::number_of(self.config.seed, value) {
                    Some(number) => {
                        read_token = true;
                        format!("{key}={number}")
                    }
                    None => pair.to_string(),
                },
                None => pair.to_string(),
            })
            .collect();
        let readable = if query.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{}", pairs.join("&"))
        };
        let address = self.family.decode(&readable, &self.history)?;
        let counting_down = self.counting_down_key.is_some();
        match address.route {
            Route::BoardAfter { .. } if !read_token || (counting_down && !read_before) => None,
            _ => Some(address),
        }
    }

    /// Answers a request for `path_and_query` at `at` (Unix seconds). `cookie` is the request's
    /// `Cookie` header, if any.
    pub fn serve(&self, path_and_query: &str, at: i64, cookie: Option<&str>) -> SimResponse {
        // A disguised site reads the request in its family's words and writes its answer in
        // the disguise's: everything between is the undisguised site.
        let undisguised;
        let path_and_query = match &self.disguise {
            Some(disguise) => {
                undisguised = disguise.url(path_and_query);
                undisguised.as_str()
            }
            None => path_and_query,
        };
        let profile = self.family.profile();
        if path_and_query == "/robots.txt"
            && let Some(text) = self.family.robots_txt(&self.history)
        {
            let text = match &self.disguise {
                Some(disguise) => disguise.robots_txt(&text),
                None => text,
            };
            return SimResponse {
                status: 200,
                headers: vec![(
                    "Content-Type".to_string(),
                    "text/plain; charset=utf-8".to_string(),
                )],
                body: text.into_bytes(),
            };
        }
        let address = self.plain_address_of(path_and_query);
        let judgement = match &address {
            Some(address) => self.judge(address, at),
            None => crate::judge::Judgement::missing(),
        };
        let has_session_cookie = cookie.is_some_and(|cookie| {
            cookie
                .split(';')
                .any(|pair| pair.trim().starts_with(profile.session_cookie))
        });
        let url_session = address.as_ref().and_then(|address| address.variant.session);
        // A visitor without a cookie gets a session that changes every hour, as a fresh visit would.
        let token =
            url_session.unwrap_or_else(|| mix(self.config.seed, at.div_euclid(3_600) as u64));
        let session_in_links = (self.config.traps.session_ids
            && profile.session_parameter.is_some()
            && !has_session_cookie)
            .then_some(token);
        let mut headers = Vec::new();
        if profile.session_parameter.is_some() && !has_session_cookie {
            headers.push((
                "Set-Cookie".to_string(),
                format!(
                    "{}={}; Path=/; HttpOnly",
                    profile.session_cookie,
                    html::session_hex(token)
                ),
            ));
        }
        let (status, page) = match (&judgement.served, &address) {
            (Served::Redirect(target), _) => {
                let mut target = target.clone();
                target.variant.session = session_in_links;
                headers.push(("Location".to_string(), self.url_of(&target)));
                return SimResponse {
                    status: self.family.redirect_status(),
                    headers,
                    body: Vec::new(),
                };
            }
            (Served::Content, Some(address)) => (200, self.build_page(address, at)),
            (Served::LoginWall, Some(address)) => {
                let status = match profile.login_wall {
                    LoginWall::Forbidden => 403,
                    LoginWall::PromptWithOk | LoginWall::RedirectToLogin => 200,
                };
                (
                    status,
                    self.build_login_wall(&address.route, at, path_and_query),
                )
            }
            _ => (
                profile.missing_status,
                self.build_missing(at, path_and_query),
            ),
        };
        let context = crate::families::RenderContext {
            history: &self.history,
            family: self.family.as_ref(),
            now: at,
            session: session_in_links,
            opaque_cursor_seed: self.opaque_cursor_seed(),
            cursors_count_down: self.cursors_count_down(),
        };
        let mut html = self.family.render(&page, &context);
        if let Some(disguise) = &self.disguise {
            html = disguise.page(&html);
        }
        let (body, _, _) = profile.charset.encoding().encode(&html);
        let content_type = if profile.charset_in_header {
            format!("text/html; charset={}", profile.charset.label())
        } else {
            "text/html".to_string()
        };
        headers.insert(0, ("Content-Type".to_string(), content_type));
        SimResponse {
            status,
            headers,
            body: body.into_owned(),
        }
    }

    // ----- Queries about the forum as of an instant, shared by judging and page building. -----

    pub(crate) fn thread_exists(&self, thread: u32, at: i64) -> bool {
        self.history.thread(thread).is_some_and(|t| t.created <= at)
            && self.thread_board_open(thread, at)
    }

    pub(crate) fn user_exists(&self, user: u32, at: i64) -> bool {
        self.history.user(user).is_some_and(|u| u.joined <= at)
    }

    /// Posts per thread page.
    pub(crate) fn posts_per_page(&self) -> u32 {
        self.family.profile().posts_per_page
    }

    /// Number of pages of a thread at `at`; 0 when it does not exist yet.
    pub(crate) fn thread_pages(&self, thread: u32, at: i64) -> u32 {
        if !self.thread_board_open(thread, at) {
            return 0;
        }
        let posts = self.history.thread_posts_at(thread, at).len() as u32;
        posts.div_ceil(self.posts_per_page())
    }

    /// The thread page holding `post` at `at`, if the post exists then.
    pub(crate) fn post_location(&self, post: u32, at: i64) -> Option<Route> {
        let record = self.history.post(post)?;
        if record.created > at || !self.thread_board_open(record.thread, at) {
            return None;
        }
        let index = self
            .history
            .thread_posts(record.thread)
            .binary_search(&post)
            .ok()? as u32;
        Some(Route::Thread {
            thread: record.thread,
            page: index / self.posts_per_page() + 1,
        })
    }

    /// The non-sticky threads of a board existing at `at`, in `order`.
    pub(crate) fn board_listing(&self, board: u32, order: SortOrder, at: i64) -> Listing {
        // A list paged by cursors that count down shows its newest thread first.
        let order = if order == SortOrder::LastPost && self.cursors_count_down() {
            SortOrder::Created
        } else {
            order
        };
        let key = (board, order);
        if let Some((instant, listing)) = self.listings.lock().expect("listing cache").get(&key)
            && *instant == at
        {
            return Arc::clone(listing);
        }
        let listing = Arc::new(self.compute_listing(board, order, at, false));
        self.listings
            .lock()
            .expect("listing cache")
            .insert(key, (at, Arc::clone(&listing)));
        listing
    }

    /// The sticky threads of a board existing at `at`, most recently active first.
    pub(crate) fn board_stickies(&self, board: u32, at: i64) -> Vec<u32> {
        self.compute_listing(board, SortOrder::LastPost, at, true)
    }

    fn compute_listing(&self, board: u32, order: SortOrder, at: i64, sticky: bool) -> Vec<u32> {
        let mut threads: Vec<u32> = if board == crate::questions::ALL_THREADS {
            // The forum-wide list of question-and-answer sites pins nothing.
            match self.questions_and_answers() && !sticky {
                true => (1..=self.history.threads_up_to(at)).collect(),
                false => Vec::new(),
            }
        } else {
            let Some(record) = self.history.board(board) else {
                return Vec::new();
            };
            let existing = record.threads.partition_point(|&thread| {
                self.history.thread(thread).is_some_and(|t| t.created <= at)
            });
            record.threads[..existing]
                .iter()
                .copied()
                .filter(|&thread| {
                    self.history
                        .thread(thread)
                        .is_some_and(|t| t.sticky == sticky)
                })
                .collect()
        };
        // Keys that look a thread's posts up are computed once per thread, not once per
        // comparison: sorting a board's list by last post was 6.5 % of the freshness replay's
        // page path (every key holds the thread's id, so the order is the same).
        match order {
            SortOrder::LastPost => threads.sort_by_cached_key(|&thread| {
                std::cmp::Reverse((self.last_post_at(thread, at).map_or(0, |(_, t)| t), thread))
            }),
            SortOrder::Created => threads.sort_by_key(|&thread| std::cmp::Reverse(thread)),
            SortOrder::Replies => threads.sort_by_cached_key(|&thread| {
                std::cmp::Reverse((self.history.thread_posts_at(thread, at).len(), thread))
            }),
            SortOrder::Title => {
                threads.sort_by_cached_key(|&thread| (self.thread_title(thread), thread))
            }
            SortOrder::Author => threads.sort_by_cached_key(|&thread| {
                let author = self.history.thread(thread).map_or(0, |t| t.author);
                (crate::text::user_name(self.config.seed, author), thread)
            }),
        }
        threads
    }

    /// The route naming page `page` of a board's list in `order` as of `at`: the numbered page,
    /// or for cursor-paged families past the first page, the page following the last thread of
    /// the page before.
    pub fn board_page_route(&self, board: u32, page: u32, order: SortOrder, at: i64) -> Route {
        if page <= 1 || !self.family.profile().quirks.board_cursor {
            return Route::Board { board, page };
        }
        let per_page = self.family.profile().threads_per_page as usize;
        let listing = self.board_listing(board, order, at);
        // Past the end there is no cursor; thread 0 names no thread, so the page is missing.
        let after = listing
            .get((page as usize - 1) * per_page - 1)
            .copied()
            .unwrap_or(0);
        Route::BoardAfter { board, after }
    }

    /// The page of a board's list in `order` that follows thread `after` as of `at`, when
    /// `after` is the last thread of a page that is not the last.
    pub(crate) fn cursor_page(
        &self,
        board: u32,
        after: u32,
        order: SortOrder,
        at: i64,
    ) -> Option<u32> {
        let per_page = self.family.profile().threads_per_page as usize;
        let listing = self.board_listing(board, order, at);
        let shown = listing.iter().position(|&thread| thread == after)? + 1;
        (shown % per_page == 0 && shown < listing.len()).then(|| (shown / per_page) as u32 + 1)
    }

    /// Number of list pages of a board at `at` (at least 1: an empty board still has a page).
    pub(crate) fn board_pages(&self, board: u32, at: i64) -> u32 {
        let threads = self.board_listing(board, SortOrder::LastPost, at).len() as u32;
        threads
            .div_ceil(self.family.profile().threads_per_page)
            .max(1)
    }

    /// The latest post of a thread at `at`: its id and instant.
    pub(crate) fn last_post_at(&self, thread: u32, at: i64) -> Option<(u32, i64)> {
        let post = *self.history.thread_posts_at(thread, at).last()?;
        Some((post, self.history.post(post)?.created))
    }

    /// The previous (older) or next (newer) thread of the same board at `at`.
    pub(crate) fn neighbour_thread(&self, thread: u32, newer: bool, at: i64) -> Option<u32> {
        let record = self.history.thread(thread).filter(|t| t.created <= at)?;
        let threads = &self.history.board(record.board)?.threads;
        let index = threads.binary_search(&thread).ok()?;
        let neighbour = if newer {
            *threads.get(index + 1)?
        } else {
            *threads.get(index.checked_sub(1)?)?
        };
        self.thread_exists(neighbour, at).then_some(neighbour)
    }

    /// Number of member-list pages at `at`.
    pub(crate) fn member_pages(&self, at: i64) -> u32 {
        (self.members_at(at).len() as u32)
            .div_ceil(self.family.profile().members_per_page)
            .max(1)
    }

    /// User ids registered at `at`, in registration order.
    pub(crate) fn members_at(&self, at: i64) -> &[u32] {
        let count = self.join_instants.partition_point(|&joined| joined <= at);
        &self.users_by_join[..count]
    }

    /// A user's post ids in creation order, up to `at`.
    pub(crate) fn user_posts_at(&self, user: u32, at: i64) -> &[u32] {
        let (Some(&start), Some(&end)) = (
            self.user_post_offsets.get(user as usize),
            self.user_post_offsets.get(user as usize + 1),
        ) else {
            return &[];
        };
        let posts = &self.user_post_ids[start as usize..end as usize];
        let visible =
            posts.partition_point(|&post| self.history.post(post).is_some_and(|p| p.created <= at));
        &posts[..visible]
    }

    pub(crate) fn action_target_exists(&self, kind: ActionKind, target: u32, at: i64) -> bool {
        match kind {
            ActionKind::Reply => self.thread_exists(target, at),
            ActionKind::NewThread => self.history.board(target).is_some(),
            ActionKind::Quote => self.history.post(target).is_some_and(|p| p.created <= at),
            ActionKind::Message => self.user_exists(target, at),
        }
    }

    /// A thread's title.
    pub fn thread_title(&self, thread: u32) -> String {
        crate::text::title(self.config.seed, self.history.language, thread)
    }
}

fn forum_name(seed: u64, language: crate::text::Language) -> String {
    use crate::text::Language;
    let mut random = Random::new(seed, "forum-name");
    let stems = [
        "Northwind",
        "Bluefield",
        "Oakridge",
        "Riverbend",
        "Stonegate",
        "Maplewood",
    ];
    let stem = random.pick(&stems);
    match language {
        Language::English => format!("{stem} Community Forums"),
        Language::German => format!("{stem} Forum"),
        Language::SimplifiedChinese => format!("{stem} 社区论坛"),
        Language::TraditionalChinese => format!("{stem} 討論區"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> Site {
        Site::build(SiteConfig::new(FamilyName::Phpbb, 5, Scale::Small))
    }

    #[test]
    fn board_lists_follow_last_reply_order_as_of_the_instant() {
        let site = site();
        let history = site.history();
        for at in [history.start + 10 * 86_400, history.end] {
            for board in 1..=history.board_count() {
                let listing = site.board_listing(board, SortOrder::LastPost, at);
                let last_replies: Vec<i64> = listing
                    .iter()
                    .map(|&thread| {
                        site.last_post_at(thread, at)
                            .expect("listed threads exist")
                            .1
                    })
                    .collect();
                assert!(
                    last_replies.windows(2).all(|pair| pair[0] >= pair[1]),
                    "board {board}"
                );
                assert!(listing.iter().all(|&t| !history.thread(t).unwrap().sticky));
                assert!(
                    listing
                        .iter()
                        .all(|&t| history.thread(t).unwrap().created <= at)
                );
            }
        }
    }

    #[test]
    fn other_orders_keep_the_same_threads() {
        let site = site();
        let at = site.history().end;
        let mut canonical = (*site.board_listing(1, SortOrder::LastPost, at)).clone();
        canonical.sort_unstable();
        for order in SortOrder::ALTERNATIVES {
            let mut threads = (*site.board_listing(1, order, at)).clone();
            threads.sort_unstable();
            assert_eq!(threads, canonical, "{order:?}");
        }
    }

    #[test]
    fn permalinks_point_to_the_page_holding_the_post() {
        let site = site();
        let at = site.history().end;
        let per_page = site.posts_per_page() as usize;
        let thread = (1..=site.history().thread_count())
            .find(|&t| site.history().thread_posts(t).len() > per_page)
            .expect("a thread with two pages");
        let posts = site.history().thread_posts(thread);
        assert_eq!(
            site.post_location(posts[0], at),
            Some(Route::Thread { thread, page: 1 })
        );
        assert_eq!(
            site.post_location(posts[per_page], at),
            Some(Route::Thread { thread, page: 2 })
        );
        let created = site.history().post(posts[per_page]).unwrap().created;
        assert_eq!(site.post_location(posts[per_page], created - 1), None);
    }
}
