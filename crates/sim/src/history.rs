//! The forum's history: boards, users, threads and posts with their creation times, generated
//! from a seed.
//!
//! The history is the compact state every page is rendered from. It stores numbers only (16 bytes
//! a post); names, titles and bodies are derived from the seed when a page is rendered. Everything
//! a page shows as of an instant `t` is a function of this history and `t`: posts are never deleted,
//! so "the forum as of t" is simply every item created at or before `t`.
//!
//! The arrival model follows what the incremental-crawling papers measured on real forums:
//! - board popularity is heavy-tailed (Zipf weights over boards);
//! - activity follows a daily cycle in the forum's local time, with about nine tenths of posts
//!   between 08:00 and 24:00;
//! - thread lifetimes (first post to last post) are log-normal with median about 30 hours and shape
//!   1.69, which with the threads that never get a reply puts a little over half of the threads at
//!   ≤ 24 h and about three quarters at ≤ 3 days;
//! - reply counts are log-normal and grow with lifetime; replies come early in a thread's life;
//! - a few sticky "megathreads" collect replies through the whole history.

use crate::random::{Random, cumulative};
use crate::text::Language;

/// How big a generated forum is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scale {
    /// About 45 days, 5 boards, 250 threads: for tests and fixtures.
    Small,
    /// About a year, 12 boards, 4,000 threads.
    Medium,
    /// Three years, 24 boards, 30,000 threads, about 300,000 posts: the papers' per-forum scale.
    Large,
}

impl Scale {
    /// Parses `small`, `medium` or `large`.
    pub fn parse(name: &str) -> Option<Scale> {
        match name {
            "small" => Some(Scale::Small),
            "medium" => Some(Scale::Medium),
            "large" => Some(Scale::Large),
            _ => None,
        }
    }

    /// The name [`Scale::parse`] accepts.
    pub fn name(self) -> &'static str {
        match self {
            Scale::Small => "small",
            Scale::Medium => "medium",
            Scale::Large => "large",
        }
    }

    fn parameters(self) -> ScaleParameters {
        match self {
            Scale::Small => ScaleParameters {
                days: 45,
                boards: 5,
                threads: 250,
                users: 90,
                megathreads: 1,
            },
            Scale::Medium => ScaleParameters {
                days: 365,
                boards: 12,
                threads: 4_000,
                users: 1_500,
                megathreads: 2,
            },
            Scale::Large => ScaleParameters {
                days: 3 * 365,
                boards: 24,
                threads: 30_000,
                users: 12_000,
                megathreads: 5,
            },
        }
    }
}

struct ScaleParameters {
    days: i64,
    boards: usize,
    threads: usize,
    users: usize,
    megathreads: usize,
}

/// Every generated history ends at this instant (2026-01-01T00:00:00Z), whatever the scale, so a
/// seed means the same forum on any machine and any day.
pub const HISTORY_END_SECONDS: i64 = 1_767_225_600;

/// Relative activity per local hour of the day (index 0 = 00:00–01:00). About 91 % of the weight
/// lies between 08:00 and 24:00.
pub const HOURLY_ACTIVITY: [f64; 24] = [
    0.60, 0.35, 0.20, 0.12, 0.10, 0.12, 0.20, 0.40, 0.80, 1.00, 1.10, 1.20, 1.10, 1.20, 1.30, 1.30,
    1.20, 1.20, 1.30, 1.50, 1.60, 1.60, 1.40, 1.00,
];

/// A group of boards shown together on the portal.
#[derive(Debug, Clone)]
pub struct Category {
    /// Display name.
    pub name: String,
    /// Board ids in display order.
    pub boards: Vec<u32>,
}

/// A board (sub-forum).
#[derive(Debug, Clone)]
pub struct Board {
    /// Display name.
    pub name: String,
    /// Index into [`ForumHistory::categories`].
    pub category: u32,
    /// Thread ids of this board in creation order.
    pub threads: Vec<u32>,
}

/// A registered user.
#[derive(Debug, Clone, Copy)]
pub struct User {
    /// Registration instant (Unix seconds).
    pub joined: i64,
    /// Last visit instant before the history ends; pages show the smaller of this and "now".
    pub last_visit: i64,
}

/// A thread: its posts are `ForumHistory::thread_posts(id)`.
#[derive(Debug, Clone, Copy)]
pub struct Thread {
    /// The board it was started in.
    pub board: u32,
    /// The user who started it.
    pub author: u32,
    /// Creation instant of its first post (Unix seconds).
    pub created: i64,
    /// Pinned on top of the board's first list page.
    pub sticky: bool,
    posts_start: u32,
    posts_len: u32,
}

/// A post.
#[derive(Debug, Clone, Copy)]
pub struct Post {
    /// The thread it belongs to.
    pub thread: u32,
    /// Its author.
    pub author: u32,
    /// Creation instant (Unix seconds).
    pub created: i64,
}

/// A generated forum history. Ids are 1-based and assigned in creation order, as real forum
/// engines do; `0` is never an id.
#[derive(Debug, Clone)]
pub struct ForumHistory {
    /// The seed it was generated from.
    pub seed: u64,
    /// The language of its names and texts.
    pub language: Language,
    /// First instant of the history (Unix seconds).
    pub start: i64,
    /// Last instant of the history (Unix seconds); nothing is created after it.
    pub end: i64,
    /// The forum's local time zone as an offset from UTC in seconds.
    pub utc_offset_seconds: i32,
    /// Board groups as shown on the portal.
    pub categories: Vec<Category>,
    boards: Vec<Board>,
    users: Vec<User>,
    threads: Vec<Thread>,
    posts: Vec<Post>,
    /// Post ids grouped by thread, each group in creation order.
    thread_post_ids: Vec<u32>,
}

struct ThreadPlan {
    board: u32,
    created: i64,
    sticky: bool,
    reply_offsets: Vec<i64>,
}

/// How many members-only threads post texts link to (see [`ForumHistory::hidden_threads`]).
const HIDDEN_THREADS: u32 = 4;

impl ForumHistory {
    /// Generates the history for `seed` at `scale`, written in `language`, in a forum whose local
    /// time is `utc_offset_seconds` from UTC.
    pub fn generate(seed: u64, scale: Scale, language: Language, utc_offset_seconds: i32) -> Self {
        let parameters = scale.parameters();
        let end = HISTORY_END_SECONDS;
        let start = end - parameters.days * 86_400;
        let mut random = Random::new(seed, "history");

        let (categories, board_count) = generate_categories(&mut random, language, &parameters);
        let board_weights: Vec<f64> = {
            let mut weights: Vec<f64> = (0..board_count)
                .map(|rank| 1.0 / ((rank + 1) as f64).powf(1.2))
                .collect();
            shuffle(&mut random, &mut weights);
            weights
        };
        let board_cumulative = cumulative(&board_weights);
        let hour_cumulative = cumulative(&HOURLY_ACTIVITY);
        let clock = LocalClock {
            start,
            end,
            utc_offset_seconds,
        };

        let mut plans: Vec<ThreadPlan> = Vec::with_capacity(parameters.threads + board_count + 8);
        // An announcement pinned in every board at the start, with a handful of replies.
        for board in 0..board_count {
            let created = start + random.between(0, 3 * 3_600);
            let replies = random.between(0, 3) as usize;
            let reply_offsets = (0..replies)
                .map(|_| random.between(60, 10 * 86_400))
                .collect::<Vec<_>>();
            plans.push(ThreadPlan {
                board: board as u32,
                created,
                sticky: true,
                reply_offsets,
            });
        }
        // Megathreads: sticky, started early, replies at a steady daily rate until the end.
        for _ in 0..parameters.megathreads {
            let board = random.weighted(&board_cumulative) as u32;
            let created = start + random.between(3_600, (parameters.days * 86_400) / 50);
            let per_day = 1.0 + random.unit() * 4.0;
            let mut reply_offsets = Vec::new();
            let mut at = created;
            loop {
                at += random.exponential(86_400.0 / per_day) as i64 + 1;
                if at >= end {
                    break;
                }
                if clock.accepts(&mut random, at) {
                    reply_offsets.push(at - created);
                }
            }
            plans.push(ThreadPlan {
                board,
                created,
                sticky: true,
                reply_offsets,
            });
        }
        // Ordinary threads.
        for _ in 0..parameters.threads {
            let board = random.weighted(&board_cumulative) as u32;
            let created = clock.sample_instant(&mut random, &hour_cumulative);
            let reply_offsets = ordinary_replies(&mut random, &clock, created);
            plans.push(ThreadPlan {
                board,
                created,
                sticky: false,
                reply_offsets,
            });
        }
        plans.sort_by_key(|plan| (plan.created, plan.board));

        // Authors: a Zipf-like activity weight per user; most posts come from few users.
        let user_count = parameters.users;
        let mut activity: Vec<f64> = (0..user_count)
            .map(|rank| 1.0 / ((rank + 1) as f64).powf(0.9))
            .collect();
        shuffle(&mut random, &mut activity);
        // A fifth of the members never post (lurkers); they still have profiles.
        for weight in activity.iter_mut() {
            if random.chance(0.2) {
                *weight = 0.0;
            }
        }
        let activity_cumulative = cumulative(&activity);

        struct DraftPost {
            created: i64,
            thread: u32,
            author: u32,
        }
        let total_posts: usize = plans.iter().map(|plan| 1 + plan.reply_offsets.len()).sum();
        let mut drafts: Vec<DraftPost> = Vec::with_capacity(total_posts);
        let mut threads: Vec<Thread> = Vec::with_capacity(plans.len());
        let mut boards: Vec<Board> = (0..board_count)
            .map(|index| Board {
                name: String::new(),
                category: board_category(&categories, index as u32 + 1),
                threads: Vec::new(),
            })
            .collect();
        for (index, plan) in plans.iter().enumerate() {
            let thread_id = index as u32 + 1;
            let author = random.weighted(&activity_cumulative) as u32 + 1;
            drafts.push(DraftPost {
                created: plan.created,
                thread: thread_id,
                author,
            });
            for offset in &plan.reply_offsets {
                let replier = random.weighted(&activity_cumulative) as u32 + 1;
                drafts.push(DraftPost {
                    created: plan.created + offset,
                    thread: thread_id,
                    author: replier,
                });
            }
            threads.push(Thread {
                board: plan.board + 1,
                author,
                created: plan.created,
                sticky: plan.sticky,
                posts_start: 0,
                posts_len: 0,
            });
            boards[plan.board as usize].threads.push(thread_id);
        }
        // Post ids follow creation order across the forum; the first post of a thread is created
        // with it, so ties go to the thread that exists first.
        drafts.sort_by_key(|draft| (draft.created, draft.thread));
        let posts: Vec<Post> = drafts
            .iter()
            .map(|draft| Post {
                thread: draft.thread,
                author: draft.author,
                created: draft.created,
            })
            .collect();
        // Group post ids by thread with a counting sort; within a thread they stay in id order,
        // which is creation order.
        let mut counts = vec![0u32; threads.len() + 1];
        for post in &posts {
            counts[post.thread as usize] += 1;
        }
        let mut next = 0u32;
        for (index, thread) in threads.iter_mut().enumerate() {
            thread.posts_start = next;
            thread.posts_len = counts[index + 1];
            next += thread.posts_len;
        }
        let mut fill: Vec<u32> = threads.iter().map(|thread| thread.posts_start).collect();
        let mut thread_post_ids = vec![0u32; posts.len()];
        for (index, post) in posts.iter().enumerate() {
            let slot = &mut fill[post.thread as usize - 1];
            thread_post_ids[*slot as usize] = index as u32 + 1;
            *slot += 1;
        }
        // The thread's recorded author is the author of its first post.
        for thread in threads.iter_mut() {
            let first = thread_post_ids[thread.posts_start as usize];
            thread.author = posts[first as usize - 1].author;
        }

        let users = generate_users(&mut random, user_count, &posts, start, end);
        for (index, board) in boards.iter_mut().enumerate() {
            board.name = board_name(language, &categories, index);
        }
        ForumHistory {
            seed,
            language,
            start,
            end,
            utc_offset_seconds,
            categories,
            boards,
            users,
            threads,
            posts,
            thread_post_ids,
        }
    }

    /// Number of boards; board ids are `1..=board_count()`.
    pub fn board_count(&self) -> u32 {
        self.boards.len() as u32
    }

    /// Number of threads; thread ids are `1..=thread_count()`.
    pub fn thread_count(&self) -> u32 {
        self.threads.len() as u32
    }

    /// The ids of the threads of a members-only board that post texts may link to: the few ids
    /// just above every public thread. The history holds nothing about them; guests never see
    /// more than "not found".
    pub fn hidden_threads(&self) -> std::ops::RangeInclusive<u32> {
        self.thread_count() + 1..=self.thread_count() + HIDDEN_THREADS
    }

    /// Number of posts; post ids are `1..=post_count()`.
    pub fn post_count(&self) -> u32 {
        self.posts.len() as u32
    }

    /// Number of users; user ids are `1..=user_count()`.
    pub fn user_count(&self) -> u32 {
        self.users.len() as u32
    }

    /// The board with id `id`, if any.
    pub fn board(&self, id: u32) -> Option<&Board> {
        self.boards.get((id as usize).wrapping_sub(1))
    }

    /// The thread with id `id`, if any.
    pub fn thread(&self, id: u32) -> Option<&Thread> {
        self.threads.get((id as usize).wrapping_sub(1))
    }

    /// The post with id `id`, if any.
    pub fn post(&self, id: u32) -> Option<&Post> {
        self.posts.get((id as usize).wrapping_sub(1))
    }

    /// The user with id `id`, if any.
    pub fn user(&self, id: u32) -> Option<&User> {
        self.users.get((id as usize).wrapping_sub(1))
    }

    /// All post ids of a thread in creation order (empty for an unknown thread).
    pub fn thread_posts(&self, id: u32) -> &[u32] {
        match self.thread(id) {
            Some(thread) => {
                let start = thread.posts_start as usize;
                &self.thread_post_ids[start..start + thread.posts_len as usize]
            }
            None => &[],
        }
    }

    /// The post ids of a thread that exist at `at` (a prefix of [`Self::thread_posts`]).
    pub fn thread_posts_at(&self, id: u32, at: i64) -> &[u32] {
        let all = self.thread_posts(id);
        let visible = all.partition_point(|&post| self.posts[post as usize - 1].created <= at);
        &all[..visible]
    }

    /// The post a reply answers, as its mail's `In-Reply-To` names it: mostly the message just
    /// before it in the thread, one time in four an earlier one, so reply chains branch into
    /// trees as mailing-list threads do. `None` for a thread's first post (or an unknown post).
    pub fn reply_parent(&self, post: u32) -> Option<u32> {
        let record = self.post(post)?;
        let posts = self.thread_posts(record.thread);
        let index = posts.binary_search(&post).ok()?;
        if index == 0 {
            return None;
        }
        let draw = crate::random::mix(self.seed, u64::from(post));
        let parent = match draw % 4 {
            0 => (draw >> 8) as usize % index,
            _ => index - 1,
        };
        Some(posts[parent])
    }

    /// Number of posts created at or before `at`: post ids `1..=n` exist then.
    pub fn posts_up_to(&self, at: i64) -> u32 {
        self.posts.partition_point(|post| post.created <= at) as u32
    }

    /// Number of threads created at or before `at`: thread ids `1..=n` exist then.
    pub fn threads_up_to(&self, at: i64) -> u32 {
        self.threads.partition_point(|thread| thread.created <= at) as u32
    }

    /// Number of posts ever written in threads of `board` (used for board sizes in stats).
    pub fn board_post_count(&self, board: u32) -> usize {
        self.board(board)
            .map(|board| {
                board
                    .threads
                    .iter()
                    .map(|&t| self.thread_posts(t).len())
                    .sum()
            })
            .unwrap_or(0)
    }
}

/// Converts between UTC instants and the forum's local clock, and applies the daily cycle.
struct LocalClock {
    start: i64,
    end: i64,
    utc_offset_seconds: i32,
}

impl LocalClock {
    fn local_hour(&self, instant: i64) -> usize {
        ((instant + i64::from(self.utc_offset_seconds)).rem_euclid(86_400) / 3_600) as usize
    }

    /// Keeps an instant with probability proportional to the activity of its local hour.
    fn accepts(&self, random: &mut Random, instant: i64) -> bool {
        let peak = HOURLY_ACTIVITY.iter().cloned().fold(0.0, f64::max);
        random.unit() * peak < HOURLY_ACTIVITY[self.local_hour(instant)]
    }

    /// An instant inside the history, its local hour drawn from the daily cycle.
    fn sample_instant(&self, random: &mut Random, hour_cumulative: &[f64]) -> i64 {
        let days = (self.end - self.start) / 86_400;
        loop {
            let day = random.between(0, days - 1);
            let hour = random.weighted(hour_cumulative) as i64;
            let local = day * 86_400 + hour * 3_600 + random.between(0, 3_599);
            // The history starts at a UTC midnight; local midnight is `offset` earlier.
            let instant = self.start + local - i64::from(self.utc_offset_seconds);
            if instant >= self.start && instant < self.end {
                return instant;
            }
        }
    }
}

/// Reply offsets (seconds after the first post) of an ordinary thread.
fn ordinary_replies(random: &mut Random, clock: &LocalClock, created: i64) -> Vec<i64> {
    // About one thread in eight never gets a reply.
    if random.chance(0.12) {
        return Vec::new();
    }
    let lifetime_hours = random.log_normal(29.7, 1.69).min(400.0 * 24.0);
    let lifetime = ((lifetime_hours * 3_600.0) as i64).max(120);
    let growth = 1.0 + 0.35 * (1.0 + lifetime_hours / 24.0).ln();
    let replies = (random.log_normal(5.0, 1.0) * growth)
        .round()
        .clamp(1.0, 3_000.0) as usize;
    let mut offsets = Vec::with_capacity(replies);
    // The last reply closes the thread's active life.
    offsets.push(lifetime);
    for _ in 1..replies {
        // Replies come early (density falling with age); the daily cycle thins quiet hours.
        let mut offset = 60;
        for _ in 0..8 {
            let u = random.unit();
            offset = ((u * u) * lifetime as f64) as i64 + 30;
            if clock.accepts(random, created + offset) {
                break;
            }
        }
        offsets.push(offset.min(lifetime));
    }
    offsets.retain(|offset| created + offset < clock.end);
    offsets.sort_unstable();
    offsets
}

fn generate_categories(
    random: &mut Random,
    language: Language,
    parameters: &ScaleParameters,
) -> (Vec<Category>, usize) {
    let names: &[&str] = match language {
        Language::English => &["Community", "Technology", "Hobbies", "Marketplace", "Site"],
        Language::German => &["Gemeinschaft", "Technik", "Hobbys", "Marktplatz", "Forum"],
        Language::SimplifiedChinese => &["社区", "技术", "兴趣", "交易", "站务"],
        Language::TraditionalChinese => &["社群", "技術", "興趣", "交易", "站務"],
    };
    let mut categories = Vec::new();
    let mut next_board = 1u32;
    let mut remaining = parameters.boards;
    let mut index = 0;
    while remaining > 0 {
        let size = (random.between(2, 6) as usize).min(remaining);
        let name = if index < names.len() {
            names[index].to_string()
        } else {
            format!("{} {}", names[index % names.len()], index / names.len() + 1)
        };
        categories.push(Category {
            name,
            boards: (next_board..next_board + size as u32).collect(),
        });
        next_board += size as u32;
        remaining -= size;
        index += 1;
    }
    (categories, parameters.boards)
}

fn board_category(categories: &[Category], board: u32) -> u32 {
    categories
        .iter()
        .position(|category| category.boards.contains(&board))
        .unwrap_or(0) as u32
}

fn board_name(language: Language, _categories: &[Category], index: usize) -> String {
    let topics = language.board_topics();
    if index < topics.len() {
        topics[index].to_string()
    } else {
        format!(
            "{} {}",
            topics[index % topics.len()],
            index / topics.len() + 1
        )
    }
}

fn generate_users(
    random: &mut Random,
    count: usize,
    posts: &[Post],
    start: i64,
    end: i64,
) -> Vec<User> {
    let mut first_post = vec![i64::MAX; count];
    let mut last_post = vec![i64::MIN; count];
    for post in posts {
        let slot = post.author as usize - 1;
        first_post[slot] = first_post[slot].min(post.created);
        last_post[slot] = last_post[slot].max(post.created);
    }
    (0..count)
        .map(|index| {
            let joined = if first_post[index] == i64::MAX {
                random.between(start - 365 * 86_400, end - 86_400)
            } else {
                first_post[index] - random.exponential(30.0 * 86_400.0) as i64 - 60
            }
            .max(start - 2 * 365 * 86_400);
            let last_activity = last_post[index].max(joined);
            let last_visit = (last_activity + random.exponential(5.0 * 86_400.0) as i64).min(end);
            User { joined, last_visit }
        })
        .collect()
}

fn shuffle<T>(random: &mut Random, items: &mut [T]) {
    for index in (1..items.len()).rev() {
        let other = random.below(index as u64 + 1) as usize;
        items.swap(index, other);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> ForumHistory {
        ForumHistory::generate(42, Scale::Small, Language::English, 0)
    }

    #[test]
    fn same_seed_same_history() {
        let a = small();
        let b = small();
        assert_eq!(a.post_count(), b.post_count());
        assert_eq!(
            a.post(a.post_count()).unwrap().created,
            b.post(b.post_count()).unwrap().created
        );
        let c = ForumHistory::generate(43, Scale::Small, Language::English, 0);
        assert_ne!(
            (a.post_count(), a.post(1).unwrap().created),
            (c.post_count(), c.post(1).unwrap().created)
        );
    }

    #[test]
    fn ids_follow_creation_order_and_threads_group_their_posts() {
        let history = small();
        let mut previous = i64::MIN;
        for id in 1..=history.post_count() {
            let post = history.post(id).unwrap();
            assert!(post.created >= previous);
            assert!(post.created >= history.start && post.created < history.end);
            previous = post.created;
        }
        let mut seen = 0;
        for id in 1..=history.thread_count() {
            let posts = history.thread_posts(id);
            assert!(!posts.is_empty(), "thread {id} has no posts");
            assert!(posts.windows(2).all(|pair| pair[0] < pair[1]));
            assert!(
                posts
                    .iter()
                    .all(|&post| history.post(post).unwrap().thread == id)
            );
            assert_eq!(
                history.thread(id).unwrap().created,
                history.post(posts[0]).unwrap().created
            );
            seen += posts.len();
        }
        assert_eq!(seen, history.post_count() as usize);
    }

    #[test]
    fn users_join_before_they_post() {
        let history = small();
        for id in 1..=history.post_count() {
            let post = history.post(id).unwrap();
            assert!(history.user(post.author).unwrap().joined <= post.created);
        }
    }

    #[test]
    fn posts_visible_at_an_instant_are_a_prefix() {
        let history = small();
        let thread = history.thread_count() / 2;
        let all = history.thread_posts(thread);
        let first = history.post(all[0]).unwrap().created;
        assert_eq!(history.thread_posts_at(thread, first - 1).len(), 0);
        assert_eq!(
            history.thread_posts_at(thread, first).len(),
            1.min(all.len())
        );
        assert_eq!(history.thread_posts_at(thread, i64::MAX).len(), all.len());
    }
}
