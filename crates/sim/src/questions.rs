//! What question-and-answer sites add to a forum, decided once for the families that have the
//! [`crate::Quirks::question_and_answer`] quirk.
//!
//! Such a site keeps the history's boards as tags and every thread as a question whose later
//! posts are answers. Three things differ from a discussion forum, and all three matter to a
//! crawler. Every thread is listed twice: on its tag's list and on one forum-wide "all
//! questions" list ([`Route::AllThreads`]), each in several orders. A question's answers can be
//! shown in several orders ([`AnswerOrder`]), each order with its own numbered pages, which are
//! copies of the thread's canonical pages. And posts carry votes and short comments: the
//! comments are not posts (they are one sentence each, shown under the post they remark on,
//! and the ground truth leaves them out, as the engines' own post counts do), so a page
//! analysis that reads them as posts is wrong.

use crate::random::{Random, mix};
use crate::route::{Address, AnswerOrder, Route, SortOrder};
use crate::site::Site;
use crate::views::{BoardView, CommentView, PostView};

/// The board a forum-wide list is kept under in the listing cache: no board has id 0.
pub(crate) const ALL_THREADS: u32 = 0;

/// At most this many comments sit under one post.
const MOST_COMMENTS: u64 = 3;

impl Site {
    /// Whether this site is a question-and-answer site.
    pub(crate) fn questions_and_answers(&self) -> bool {
        self.family().profile().quirks.question_and_answer
    }

    /// The orders the site's thread lists come in, the canonical one first: a discussion forum
    /// offers every order, a question-and-answer site activity, creation and answer count.
    pub(crate) fn list_orders(&self) -> Vec<SortOrder> {
        match self.questions_and_answers() {
            true => vec![SortOrder::LastPost, SortOrder::Created, SortOrder::Replies],
            false => [SortOrder::LastPost]
                .into_iter()
                .chain(SortOrder::ALTERNATIVES)
                .collect(),
        }
    }

    /// Number of pages of the forum-wide thread list at `at` (at least 1).
    pub(crate) fn all_threads_pages(&self, at: i64) -> u32 {
        let threads = self
            .board_listing(ALL_THREADS, SortOrder::LastPost, at)
            .len() as u32;
        threads
            .div_ceil(self.family().profile().threads_per_page)
            .max(1)
    }

    /// The votes a post has: most posts a few, some many, some below zero. Questions and
    /// answers draw from the same spread; the number never changes over time, so orders by
    /// votes are stable between requests.
    pub(crate) fn post_votes(&self, post: u32) -> i32 {
        let draw = mix(self.config().seed ^ 0x766F_7465, u64::from(post));
        let base = (draw % 7) as i32 - 1;
        match (draw >> 8) % 10 {
            0 => base + 10 + ((draw >> 16) % 40) as i32,
            _ => base,
        }
    }

    /// The accepted answer of a thread as of `at`: in two questions of three that have answers,
    /// the asker accepted the answer with the most votes (the earliest of equals).
    pub(crate) fn accepted_answer(&self, thread: u32, at: i64) -> Option<u32> {
        let posts = self.history().thread_posts_at(thread, at);
        let answers = posts.get(1..)?;
        let draw = mix(self.config().seed ^ 0x6163_6365, u64::from(thread));
        if answers.is_empty() || draw.is_multiple_of(3) {
            return None;
        }
        answers
            .iter()
            .copied()
            .max_by_key(|&post| (self.post_votes(post), std::cmp::Reverse(post)))
    }

    /// A thread's posts as of `at` in an order of answers: the question first, then its
    /// answers by the order.
    pub(crate) fn posts_in_order(&self, thread: u32, order: AnswerOrder, at: i64) -> Vec<u32> {
        let mut posts = self.history().thread_posts_at(thread, at).to_vec();
        if let Some(answers) = posts.get_mut(1..) {
            match order {
                AnswerOrder::Oldest => {}
                AnswerOrder::Votes => {
                    answers.sort_by_key(|&post| (std::cmp::Reverse(self.post_votes(post)), post))
                }
                AnswerOrder::Newest => answers.reverse(),
            }
        }
        posts
    }

    /// The comments under a post as of `at`: up to three, written after the post by members
    /// who took part in the thread before it (the asker most often), an hour or so apart.
    pub(crate) fn comments(&self, post: u32, at: i64) -> Vec<CommentView> {
        let history = self.history();
        let Some(record) = history.post(post) else {
            return Vec::new();
        };
        let seed = self.config().seed;
        let mut random = Random::for_item(seed, "comments", u64::from(post));
        let count = random.below(MOST_COMMENTS + 2).min(MOST_COMMENTS);
        let earlier = history.thread_posts(record.thread);
        let position = earlier.binary_search(&post).unwrap_or(0);
        let mut created = record.created;
        let mut comments = Vec::new();
        for index in 0..count {
            created += 300 + random.below(2 * 3_600) as i64;
            // An earlier post's author, or the post's own: someone who was there.
            let pick = random.below(position as u64 + 1) as usize;
            let author = match earlier.get(pick).filter(|_| pick < position) {
                Some(&earlier_post) => history.post(earlier_post).map_or(0, |p| p.author),
                None => record.author,
            };
            if created > at || author == 0 {
                break;
            }
            let key = u64::from(post) * (MOST_COMMENTS + 1) + index;
            comments.push(CommentView {
                author: self.user_card(author, at),
                created,
                text: crate::text::comment_text(seed, history.language, key),
            });
        }
        comments
    }

    /// A page of the forum-wide thread list of question-and-answer sites.
    pub(crate) fn all_threads_view(&self, page: u32, sort: SortOrder, at: i64) -> BoardView {
        let per_page = self.family().profile().threads_per_page as usize;
        let listing = self.board_listing(ALL_THREADS, sort, at);
        let threads = listing
            .iter()
            .skip((page as usize - 1) * per_page)
            .take(per_page)
            .map(|&thread| self.thread_summary(thread, at))
            .collect();
        let total = self.all_threads_pages(at);
        BoardView {
            board: ALL_THREADS,
            name: "All questions".to_string(),
            sort,
            sort_links: self.sort_links(Route::AllThreads { page: 1 }, sort),
            stickies: Vec::new(),
            threads,
            pager: self.pager(page, total, sort, |page| Route::AllThreads { page }),
            latest: self.shortcuts(at),
            new_thread: None,
            archive: None,
        }
    }

    /// What a question page adds to a thread page: the question again atop every later page,
    /// the accepted answer marked, and links to the other orders of answers (none when the
    /// sort-orders trap is off). Nothing for other sites.
    pub(crate) fn question_page_parts(
        &self,
        thread: u32,
        page: u32,
        answers: AnswerOrder,
        posts: &[u32],
        shown: &mut Vec<PostView>,
        at: i64,
    ) -> Vec<(AnswerOrder, Address)> {
        if !self.questions_and_answers() {
            return Vec::new();
        }
        if page > 1
            && let Some(&question) = posts.first()
        {
            shown.insert(0, self.post_view(question, at));
        }
        let accepted = self.accepted_answer(thread, at);
        for post in shown.iter_mut() {
            post.accepted = Some(post.post) == accepted;
        }
        if !self.traps().sort_orders {
            return Vec::new();
        }
        [AnswerOrder::Oldest]
            .into_iter()
            .chain(AnswerOrder::ALTERNATIVES)
            .filter(|&order| order != answers)
            .map(|order| {
                let mut address = Address::canonical(Route::Thread { thread, page: 1 });
                address.variant.answers = order;
                (order, address)
            })
            .collect()
    }
}
