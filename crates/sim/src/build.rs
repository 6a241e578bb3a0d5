//! Building the [`Page`] a request shows, from the history as of the request's instant.
//!
//! Trap switches are applied here, once for every family: a link whose target a trap creates is
//! left out when the trap is off.

use crate::families::AdjacentThreads;
use crate::families::PermalinkStyle;
use crate::random::{hash_text, mix};
use crate::route::{ActionKind, Address, AnswerOrder, Route, SortOrder, Variant};
use crate::site::Site;
use crate::views::*;

/// How many threads the "latest" shortcut lists show.
const SHORTCUTS: usize = 6;
/// How many pages around the current one a page navigator links.
const PAGER_WINDOW: u32 = 2;

impl Site {
    pub(crate) fn build_page(&self, address: &Address, at: i64) -> Page {
        let (title, breadcrumbs, body) = match address.route {
            Route::Portal => (
                self.forum_name().to_string(),
                Vec::new(),
                self.portal_body(at),
            ),
            Route::Board { board, page } => {
                let view = self.board_view(board, page, address.variant.sort, at);
                (
                    view.name.clone(),
                    vec![self.portal_crumb()],
                    Body::Board(view),
                )
            }
            Route::BoardAfter { board, after } => {
                let sort = address.variant.sort;
                let Some(page) = self.cursor_page(board, after, sort, at) else {
                    return self.build_missing(at, "");
                };
                let view = self.board_view(board, page, sort, at);
                (
                    view.name.clone(),
                    vec![self.portal_crumb()],
                    Body::Board(view),
                )
            }
            Route::AllThreads { page } => {
                let view = self.all_threads_view(page, address.variant.sort, at);
                (
                    view.name.clone(),
                    vec![self.portal_crumb()],
                    Body::Board(view),
                )
            }
            Route::HiddenThread { .. } => return self.build_missing(at, ""),
            Route::Thread { thread, page } => {
                self.thread_page(thread, page, address.variant.answers, at)
            }
            Route::Post { post } => {
                let location = self.post_location(post, at);
                match (self.family().profile().permalink, location) {
                    (PermalinkStyle::SinglePost, Some(location)) => {
                        let record = self.history().post(post).expect("judged to exist");
                        let view = SinglePostView {
                            thread: (record.thread, self.thread_title(record.thread)),
                            post: self.post_view(post, at),
                            in_thread: location,
                        };
                        (
                            view.thread.1.clone(),
                            self.thread_crumbs(record.thread),
                            Body::SinglePost(view),
                        )
                    }
                    (_, Some(Route::Thread { thread, page })) => {
                        self.thread_page(thread, page, AnswerOrder::Oldest, at)
                    }
                    _ => return self.build_missing(at, ""),
                }
            }
            Route::AdjacentThread { thread, newer } => {
                match self.neighbour_thread(thread, newer, at) {
                    Some(neighbour) => self.thread_page(neighbour, 1, AnswerOrder::Oldest, at),
                    None => return self.build_missing(at, ""),
                }
            }
            Route::Print { thread } => {
                let view = self.whole_thread(thread, at);
                (
                    view.title.clone(),
                    self.thread_crumbs(thread),
                    Body::Print(view),
                )
            }
            Route::ArchiveThread { thread } => {
                let view = self.whole_thread(thread, at);
                (
                    view.title.clone(),
                    self.thread_crumbs(thread),
                    Body::ArchiveThread(view),
                )
            }
            Route::ArchiveBoard { board } => {
                let view = self.archive_board(board, at);
                (
                    view.name.clone(),
                    vec![self.portal_crumb()],
                    Body::ArchiveBoard(view),
                )
            }
            Route::Profile { user } => {
                let view = self.profile_view(user, at);
                (
                    view.user.name.clone(),
                    vec![self.portal_crumb()],
                    Body::Profile(view),
                )
            }
            Route::MemberList { page } => {
                let view = self.member_list(page, at);
                (
                    "Members".to_string(),
                    vec![self.portal_crumb()],
                    Body::MemberList(view),
                )
            }
            Route::Calendar { year, month } => {
                let view = self.calendar(year, month, at);
                (
                    format!("{year}-{month:02}"),
                    vec![self.portal_crumb()],
                    Body::Calendar(view),
                )
            }
            Route::Search { page } => {
                let view = self.search(page, at);
                (
                    "Search".to_string(),
                    vec![self.portal_crumb()],
                    Body::Search(view),
                )
            }
            Route::Login { ref next } => {
                let view = LoginView {
                    reason: LoginReason::Requested,
                    form_action: Route::Login { next: next.clone() },
                };
                (
                    "Login".to_string(),
                    vec![self.portal_crumb()],
                    Body::Login(view),
                )
            }
            Route::Action { .. } => return self.build_login_wall(&address.route, at, ""),
        };
        Page {
            chrome: self.chrome(title, breadcrumbs, at, &self.plain_url_of(address)),
            body,
        }
    }

    pub(crate) fn build_login_wall(&self, route: &Route, at: i64, requested: &str) -> Page {
        let next = self.plain_url_of(&Address::canonical(route.clone()));
        let view = LoginView {
            reason: LoginReason::MembersOnly,
            form_action: Route::Login { next: Some(next) },
        };
        Page {
            chrome: self.chrome(
                "Login".to_string(),
                vec![self.portal_crumb()],
                at,
                requested,
            ),
            body: Body::Login(view),
        }
    }

    pub(crate) fn build_missing(&self, at: i64, requested: &str) -> Page {
        Page {
            chrome: self.chrome(
                "Error".to_string(),
                vec![self.portal_crumb()],
                at,
                requested,
            ),
            body: Body::NotFound,
        }
    }

    fn portal_crumb(&self) -> (Route, String) {
        (Route::Portal, self.forum_name().to_string())
    }

    fn thread_crumbs(&self, thread: u32) -> Vec<(Route, String)> {
        let board = self.history().thread(thread).map_or(0, |t| t.board);
        vec![
            self.portal_crumb(),
            (Route::Board { board, page: 1 }, self.board_name(board)),
        ]
    }

    fn board_name(&self, board: u32) -> String {
        self.history()
            .board(board)
            .map(|b| b.name.clone())
            .unwrap_or_default()
    }

    fn chrome(
        &self,
        title: String,
        breadcrumbs: Vec<(Route, String)>,
        at: i64,
        path: &str,
    ) -> Chrome {
        let traps = self.traps();
        let history = self.history();
        let seed = self.config().seed;
        let visible_posts = history.posts_up_to(at);
        let threads = history.threads_up_to(at);
        let members = self.members_at(at);
        let newest_member = members
            .last()
            .filter(|_| traps.profiles)
            .map(|&user| self.user_card(user, at));
        Chrome {
            forum_name: self.forum_name().to_string(),
            title,
            breadcrumbs,
            clock: traps.noisy_dates.then_some(at),
            last_visit: traps
                .noisy_dates
                .then(|| at - (mix(seed, hash_text(path)) % (3 * 86_400)) as i64 - 600),
            advertisement: traps.ads_and_signatures.then(|| {
                crate::text::advertisement(
                    history.language,
                    mix(hash_text(path), at.div_euclid(600) as u64),
                )
            }),
            navigation: Navigation {
                portal: Route::Portal,
                members: traps.profiles.then_some(Route::MemberList { page: 1 }),
                search: traps.endless.then_some(Route::Search { page: 1 }),
                calendar: traps.endless.then(|| {
                    let local =
                        crate::dates::local_time(at, self.family().profile().utc_offset_seconds);
                    Route::Calendar {
                        year: local.year,
                        month: local.month,
                    }
                }),
                login: Route::Login { next: None },
            },
            footer: FooterStats {
                threads,
                posts: visible_posts,
                members: members.len() as u32,
                newest_member,
            },
        }
    }

    pub(crate) fn user_card(&self, user: u32, at: i64) -> UserCard {
        let traps = self.traps();
        UserCard {
            user,
            name: crate::text::user_name(self.config().seed, user),
            joined: traps
                .noisy_dates
                .then(|| self.history().user(user).map_or(0, |u| u.joined)),
            posts: self.user_posts_at(user, at).len() as u32,
            profile: traps.profiles.then_some(Route::Profile { user }),
        }
    }

    fn last_post(&self, thread: u32, at: i64) -> LastPost {
        let (post, created) = self.last_post_at(thread, at).unwrap_or((0, 0));
        let author = self.history().post(post).map_or(0, |p| p.author);
        let link = if self.traps().permalinks {
            Route::Post { post }
        } else {
            Route::Thread {
                thread,
                page: self.thread_pages(thread, at).max(1),
            }
        };
        LastPost {
            thread,
            thread_title: self.thread_title(thread),
            author: self.user_card(author, at),
            created,
            link,
        }
    }

    pub(crate) fn thread_summary(&self, thread: u32, at: i64) -> ThreadSummary {
        let record = self.history().thread(thread).expect("listed threads exist");
        let posts = self.history().thread_posts_at(thread, at).len() as u32;
        let pages = self.thread_pages(thread, at);
        let page_links = if pages <= 1 {
            Vec::new()
        } else {
            let mut numbers: Vec<u32> = (2..=pages.min(4)).collect();
            if pages > 4 {
                numbers.push(pages);
            }
            numbers
                .into_iter()
                .map(|page| (page, Route::Thread { thread, page }))
                .collect()
        };
        let replies = posts.saturating_sub(1);
        ThreadSummary {
            thread,
            title: self.thread_title(thread),
            link: Route::Thread { thread, page: 1 },
            author: self.user_card(record.author, at),
            created: record.created,
            replies,
            views: replies * 9 + (mix(self.config().seed, u64::from(thread)) % 40) as u32 + 1,
            votes: self.questions_and_answers().then(|| {
                let question = self.history().thread_posts(thread).first().copied();
                self.post_votes(question.unwrap_or(0))
            }),
            sticky: record.sticky,
            page_links,
            last_post: self.last_post(thread, at),
        }
    }

    /// The most recently active threads of the forum at `at`.
    fn latest_threads(&self, count: usize, at: i64) -> Vec<u32> {
        let history = self.history();
        let mut post = history.posts_up_to(at);
        let mut threads = Vec::with_capacity(count);
        while post > 0 && threads.len() < count {
            let thread = history.post(post).map_or(0, |p| p.thread);
            if !threads.contains(&thread) && self.thread_exists(thread, at) {
                threads.push(thread);
            }
            post -= 1;
        }
        threads
    }

    pub(crate) fn shortcuts(&self, at: i64) -> Vec<ThreadSummary> {
        if !self.traps().shortcuts {
            return Vec::new();
        }
        self.latest_threads(SHORTCUTS, at)
            .into_iter()
            .map(|t| self.thread_summary(t, at))
            .collect()
    }

    fn portal_body(&self, at: i64) -> Body {
        let history = self.history();
        let categories = history
            .categories
            .iter()
            .map(|category| CategoryView {
                name: category.name.clone(),
                boards: category
                    .boards
                    .iter()
                    .filter(|&&board| self.board_open(board, at))
                    .map(|&board| self.board_summary(board, at))
                    .collect(),
            })
            .collect();
        Body::Portal(PortalView {
            categories,
            latest: self.shortcuts(at),
        })
    }

    fn board_summary(&self, board: u32, at: i64) -> BoardSummary {
        let mut threads = (*self.board_listing(board, SortOrder::LastPost, at)).clone();
        threads.extend(self.board_stickies(board, at));
        let posts = threads
            .iter()
            .map(|&t| self.history().thread_posts_at(t, at).len() as u32)
            .sum();
        let latest = threads
            .iter()
            .filter_map(|&thread| {
                self.last_post_at(thread, at)
                    .map(|(_, created)| (created, thread))
            })
            .max();
        BoardSummary {
            board,
            name: self.board_name(board),
            link: Route::Board { board, page: 1 },
            threads: threads.len() as u32,
            posts,
            last_post: latest.map(|(_, thread)| self.last_post(thread, at)),
        }
    }

    /// A page navigator for a list of `total` pages; `route_of` names page `n`.
    pub(crate) fn pager(
        &self,
        current: u32,
        total: u32,
        sort: SortOrder,
        route_of: impl Fn(u32) -> Route,
    ) -> Pager {
        let variant = Variant {
            sort,
            ..Variant::default()
        };
        self.pager_in(current, total, &variant, route_of)
    }

    /// A page navigator whose links keep `variant`'s order (of threads or of answers).
    fn pager_in(
        &self,
        current: u32,
        total: u32,
        variant: &Variant,
        route_of: impl Fn(u32) -> Route,
    ) -> Pager {
        let explicit = self.traps().explicit_first_page;
        let address_of = |page: u32| {
            let mut address = Address::canonical(route_of(page));
            address.variant.sort = variant.sort;
            address.variant.answers = variant.answers;
            address.variant.explicit_first_page = explicit && page == 1 && current != 1;
            address
        };
        let mut numbers = vec![1];
        let low = current.saturating_sub(PAGER_WINDOW).max(2);
        let high = (current + PAGER_WINDOW).min(total.saturating_sub(1));
        numbers.extend(low..=high);
        if total > 1 {
            numbers.push(total);
        }
        numbers.dedup();
        Pager {
            current,
            total,
            pages: numbers
                .into_iter()
                .map(|page| (page, address_of(page)))
                .collect(),
            previous: (current > 1).then(|| address_of(current - 1)),
            next: (current < total).then(|| address_of(current + 1)),
        }
    }

    /// The page navigator of a board list. Cursor-paged families name the previous and next
    /// pages by cursor, while their numbered links are the pager printed for clients without
    /// scripts, whose page numbers the server ignores.
    fn board_pager(&self, board: u32, current: u32, total: u32, sort: SortOrder, at: i64) -> Pager {
        let mut pager = self.pager(current, total, sort, |page| Route::Board { board, page });
        if !self.family().profile().quirks.board_cursor {
            return pager;
        }
        let cursor = |page: u32| {
            let mut address = Address::canonical(self.board_page_route(board, page, sort, at));
            address.variant.sort = sort;
            address
        };
        pager.previous = (current > 1).then(|| cursor(current - 1));
        pager.next = (current < total).then(|| cursor(current + 1));
        for (page, address) in &mut pager.pages {
            *address = Address::canonical(Route::Board { board, page: 1 });
            address.variant.sort = sort;
            address.variant.ignored_page = (*page > 1).then_some(*page);
        }
        pager
    }

    fn board_view(&self, board: u32, page: u32, sort: SortOrder, at: i64) -> BoardView {
        let per_page = self.family().profile().threads_per_page as usize;
        let listing = self.board_listing(board, sort, at);
        let total = self.board_pages(board, at);
        let start = (page as usize - 1) * per_page;
        let threads = listing
            .iter()
            .skip(start)
            .take(per_page)
            .map(|&thread| self.thread_summary(thread, at))
            .collect();
        let stickies = if page == 1 {
            self.board_stickies(board, at)
                .into_iter()
                .map(|t| self.thread_summary(t, at))
                .collect()
        } else {
            Vec::new()
        };
        let sort_links = self.sort_links(Route::Board { board, page: 1 }, sort);
        BoardView {
            board,
            name: self.board_name(board),
            sort,
            sort_links,
            stickies,
            threads,
            pager: self.board_pager(board, page, total, sort, at),
            latest: self.shortcuts(at),
            new_thread: self.traps().login_walls.then_some(Route::Action {
                kind: ActionKind::NewThread,
                target: board,
            }),
            archive: self
                .traps()
                .archive_views
                .then_some(Route::ArchiveBoard { board }),
        }
    }

    /// Links to page 1 of a list (`first`) in the orders other than `sort`; none when the
    /// sort-orders trap is off.
    pub(crate) fn sort_links(&self, first: Route, sort: SortOrder) -> Vec<(SortOrder, Address)> {
        if !self.traps().sort_orders {
            return Vec::new();
        }
        self.list_orders()
            .into_iter()
            .filter(|&order| order != sort)
            .map(|order| {
                let mut address = Address::canonical(first.clone());
                address.variant.sort = order;
                (order, address)
            })
            .collect()
    }

    pub(crate) fn post_view(&self, post: u32, at: i64) -> PostView {
        let traps = self.traps();
        let history = self.history();
        let record = history.post(post).expect("shown posts exist");
        let number = history
            .thread_posts(record.thread)
            .binary_search(&post)
            .map_or(0, |i| i as u32 + 1);
        PostView {
            post,
            number,
            author: self.user_card(record.author, at),
            created: record.created,
            paragraphs: self.post_paragraphs(post),
            link: self.body_link(post),
            signature: if traps.ads_and_signatures {
                crate::text::signature(self.config().seed, history.language, record.author)
            } else {
                None
            },
            permalink: traps.permalinks.then_some(Route::Post { post }),
            quote: traps.login_walls.then_some(Route::Action {
                kind: ActionKind::Quote,
                target: post,
            }),
            message: traps.login_walls.then_some(Route::Action {
                kind: ActionKind::Message,
                target: record.author,
            }),
            votes: self.questions_and_answers().then(|| self.post_votes(post)),
            accepted: false,
            comments: match self.questions_and_answers() {
                true => self.comments(post, at),
                false => Vec::new(),
            },
        }
    }

    /// A post's paragraphs as its page shows them: in families whose replies quote the message
    /// they answer, the attribution line and the quoted first paragraph come first.
    pub(crate) fn post_paragraphs(&self, post: u32) -> Vec<String> {
        let history = self.history();
        let seed = self.config().seed;
        let own = crate::text::post_paragraphs(seed, history.language, post);
        let parent = match self.family().profile().quirks.quotes_parent {
            true => history.reply_parent(post),
            false => None,
        };
        let Some(parent) = parent else {
            return own;
        };
        let author = history.post(parent).map_or(0, |record| record.author);
        let quoted = crate::text::post_paragraphs(seed, history.language, parent);
        let mut lines = vec![format!("{} wrote:", crate::text::user_name(seed, author))];
        lines.extend(quoted.first().map(|first| format!("> {first}")));
        lines.extend(own);
        lines
    }

    /// The link at the end of a post's text, for families whose posts link other threads: about
    /// one post in ten links a thread started before it, and when members-only pages exist,
    /// a third of those links lead into the members-only board instead.
    pub(crate) fn body_link(&self, post: u32) -> Option<BodyLink> {
        if !self.family().profile().quirks.links_in_posts {
            return None;
        }
        let history = self.history();
        let record = history.post(post)?;
        let draw = mix(self.config().seed ^ 0x6C69_6E6B, u64::from(post));
        if !draw.is_multiple_of(10) {
            return None;
        }
        let hidden = history.hidden_threads();
        let target = if self.traps().login_walls && (draw / 10).is_multiple_of(3) {
            *hidden.start() + ((draw / 30) % u64::from(hidden.end() - hidden.start() + 1)) as u32
        } else {
            1 + ((draw / 30) % u64::from(record.thread)) as u32
        };
        let route = match hidden.contains(&target) {
            true => Route::HiddenThread { thread: target },
            false => Route::Thread {
                thread: target,
                page: 1,
            },
        };
        let before = match history.language {
            crate::text::Language::English => "See also: ",
            crate::text::Language::German => "Siehe auch: ",
            crate::text::Language::SimplifiedChinese => "另见：",
            crate::text::Language::TraditionalChinese => "另見：",
        };
        Some(BodyLink {
            before: before.to_string(),
            anchor: self.thread_title(target),
            target: route,
        })
    }

    fn thread_page(
        &self,
        thread: u32,
        page: u32,
        answers: AnswerOrder,
        at: i64,
    ) -> (String, Vec<(Route, String)>, Body) {
        let view = self.thread_view(thread, page, answers, at);
        (
            view.title.clone(),
            self.thread_crumbs(thread),
            Body::Thread(view),
        )
    }

    fn thread_view(&self, thread: u32, page: u32, answers: AnswerOrder, at: i64) -> ThreadView {
        let traps = self.traps();
        let per_page = self.posts_per_page() as usize;
        let posts = self.posts_in_order(thread, answers, at);
        // Families that repeat the last post of a page start the next one with it again.
        let repeated = usize::from(self.family().profile().quirks.repeat_last_post && page > 1);
        let mut shown: Vec<PostView> = posts
            .iter()
            .skip((page as usize - 1) * per_page - repeated)
            .take(per_page + repeated)
            .map(|&post| self.post_view(post, at))
            .collect();
        let answer_orders = self.question_page_parts(thread, page, answers, &posts, &mut shown, at);
        let pager_variant = Variant {
            answers,
            ..Variant::default()
        };
        let board = self.history().thread(thread).map_or(0, |t| t.board);
        let adjacent = |newer: bool| -> Option<Route> {
            if !traps.adjacent_threads {
                return None;
            }
            let neighbour = self.neighbour_thread(thread, newer, at)?;
            Some(match self.family().profile().adjacent_threads {
                AdjacentThreads::ServerResolved => Route::AdjacentThread { thread, newer },
                AdjacentThreads::DirectLinks => Route::Thread {
                    thread: neighbour,
                    page: 1,
                },
            })
        };
        ThreadView {
            thread,
            title: self.thread_title(thread),
            board: (board, self.board_name(board)),
            posts: shown,
            answers,
            answer_orders,
            pager: self.pager_in(
                page,
                self.thread_pages(thread, at),
                &pager_variant,
                |page| Route::Thread { thread, page },
            ),
            previous_thread: adjacent(false),
            next_thread: adjacent(true),
            reply: traps.login_walls.then_some(Route::Action {
                kind: ActionKind::Reply,
                target: thread,
            }),
            print: traps.print_views.then_some(Route::Print { thread }),
            archive: traps
                .archive_views
                .then_some(Route::ArchiveThread { thread }),
        }
    }

    fn whole_thread(&self, thread: u32, at: i64) -> WholeThreadView {
        WholeThreadView {
            thread,
            title: self.thread_title(thread),
            posts: self
                .history()
                .thread_posts_at(thread, at)
                .iter()
                .map(|&post| self.post_view(post, at))
                .collect(),
            original: Route::Thread { thread, page: 1 },
        }
    }

    fn archive_board(&self, board: u32, at: i64) -> ArchiveBoardView {
        let mut threads = (*self.board_listing(board, SortOrder::Created, at)).clone();
        threads.extend(self.board_stickies(board, at));
        ArchiveBoardView {
            board,
            name: self.board_name(board),
            threads: threads
                .into_iter()
                .map(|thread| (Route::ArchiveThread { thread }, self.thread_title(thread)))
                .collect(),
        }
    }

    fn profile_view(&self, user: u32, at: i64) -> ProfileView {
        let history = self.history();
        let record = history.user(user).expect("judged to exist");
        let recent_threads = self
            .user_posts_at(user, at)
            .iter()
            .rev()
            .filter_map(|&post| {
                let thread = history.post(post)?.thread;
                (history.thread_posts(thread).first() == Some(&post)).then_some(thread)
            })
            .take(5)
            .map(|thread| (Route::Thread { thread, page: 1 }, self.thread_title(thread)))
            .collect();
        ProfileView {
            user: self.user_card(user, at),
            joined: record.joined,
            last_visit: self
                .traps()
                .noisy_dates
                .then_some(record.last_visit.min(at)),
            recent_threads,
            message: self.traps().login_walls.then_some(Route::Action {
                kind: ActionKind::Message,
                target: user,
            }),
        }
    }

    fn member_list(&self, page: u32, at: i64) -> MemberListView {
        let per_page = self.family().profile().members_per_page as usize;
        let members = self
            .members_at(at)
            .iter()
            .skip((page as usize - 1) * per_page)
            .take(per_page)
            .map(|&user| self.user_card(user, at))
            .collect();
        MemberListView {
            members,
            pager: self.pager(page, self.member_pages(at), SortOrder::LastPost, |page| {
                Route::MemberList { page }
            }),
        }
    }

    fn calendar(&self, year: i32, month: u32, at: i64) -> CalendarView {
        let offset = self.family().profile().utc_offset_seconds;
        let (next_year, next_month) = if month == 12 {
            (year + 1, 1)
        } else {
            (year, month + 1)
        };
        let (previous_year, previous_month) = if month == 1 {
            (year - 1, 12)
        } else {
            (year, month - 1)
        };
        let mut events = Vec::new();
        if (1970..=2200).contains(&year) {
            let from = crate::dates::local_midnight(year, month, 1, offset);
            let until = crate::dates::local_midnight(next_year, next_month, 1, offset).min(at + 1);
            let history = self.history();
            let first = history.threads_up_to(from - 1) + 1;
            for thread in (first..=history.thread_count()).take(5) {
                let created = history.thread(thread).map_or(i64::MAX, |r| r.created);
                if created >= until {
                    break;
                }
                let day = crate::dates::local_time(created, offset).day;
                events.push((
                    day,
                    Route::Thread { thread, page: 1 },
                    self.thread_title(thread),
                ));
            }
        }
        CalendarView {
            year,
            month,
            events,
            previous: Route::Calendar {
                year: previous_year,
                month: previous_month,
            },
            next: Route::Calendar {
                year: next_year,
                month: next_month,
            },
        }
    }

    fn search(&self, page: u32, at: i64) -> SearchView {
        let results = self
            .latest_threads(10, at)
            .into_iter()
            .map(|t| self.thread_summary(t, at))
            .collect();
        SearchView {
            page,
            results,
            next: Route::Search { page: page + 1 },
            previous: (page > 1).then(|| Route::Search { page: page - 1 }),
        }
    }
}
