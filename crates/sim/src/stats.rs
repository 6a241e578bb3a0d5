//! Statistics of a generated history, so anyone can check its shapes against what the papers
//! measured on real forums (`trawl sim stats`).

use serde::Serialize;

use crate::history::ForumHistory;

/// Shape figures of one history.
#[derive(Debug, Clone, Serialize)]
pub struct HistoryStats {
    /// Days covered.
    pub days: f64,
    /// Boards.
    pub boards: u32,
    /// Threads.
    pub threads: u32,
    /// Posts.
    pub posts: u32,
    /// Registered users.
    pub users: u32,
    /// Mean posts per day.
    pub posts_per_day: f64,
    /// Share of all posts in each board, largest first.
    pub board_post_shares: Vec<f64>,
    /// Share of posts made in the busiest fifth of the boards.
    pub busiest_fifth_of_boards_share: f64,
    /// Share of posts per local hour of day.
    pub hourly_post_shares: Vec<f64>,
    /// Share of posts made between 08:00 and 24:00 local time.
    pub share_between_08_and_24: f64,
    /// Share of threads whose active life (first to last post) is at most 24 hours.
    pub threads_active_at_most_1_day: f64,
    /// ... at most 3 days.
    pub threads_active_at_most_3_days: f64,
    /// ... at most 7 days.
    pub threads_active_at_most_7_days: f64,
    /// ... more than 30 days.
    pub threads_active_over_30_days: f64,
    /// Longest active life in days.
    pub longest_active_days: f64,
    /// Mean posts per thread.
    pub mean_posts_per_thread: f64,
    /// Median posts per thread.
    pub median_posts_per_thread: u32,
    /// 99th percentile of posts per thread.
    pub p99_posts_per_thread: u32,
    /// Most posts in one thread.
    pub max_posts_per_thread: u32,
}

impl HistoryStats {
    /// Measures `history`.
    pub fn of(history: &ForumHistory) -> Self {
        let posts = history.post_count();
        let threads = history.thread_count();
        let days = (history.end - history.start) as f64 / 86_400.0;
        let mut board_posts: Vec<f64> = (1..=history.board_count())
            .map(|b| history.board_post_count(b) as f64)
            .collect();
        board_posts.sort_by(|a, b| b.total_cmp(a));
        let total = f64::from(posts.max(1));
        let board_post_shares: Vec<f64> = board_posts.iter().map(|count| count / total).collect();
        let fifth = board_post_shares.len().div_ceil(5);
        let busiest_fifth_of_boards_share = board_post_shares.iter().take(fifth).sum();

        let mut hours = [0u64; 24];
        for id in 1..=posts {
            if let Some(post) = history.post(id) {
                let local = post.created + i64::from(history.utc_offset_seconds);
                hours[(local.rem_euclid(86_400) / 3_600) as usize] += 1;
            }
        }
        let hourly_post_shares: Vec<f64> =
            hours.iter().map(|&count| count as f64 / total).collect();
        let share_between_08_and_24 = hourly_post_shares[8..].iter().sum();

        let mut lifetimes = Vec::with_capacity(threads as usize);
        let mut sizes = Vec::with_capacity(threads as usize);
        for id in 1..=threads {
            let thread_posts = history.thread_posts(id);
            sizes.push(thread_posts.len() as u32);
            let first = thread_posts
                .first()
                .and_then(|&p| history.post(p))
                .map_or(0, |p| p.created);
            let last = thread_posts
                .last()
                .and_then(|&p| history.post(p))
                .map_or(0, |p| p.created);
            lifetimes.push((last - first) as f64 / 86_400.0);
        }
        let share = |predicate: &dyn Fn(f64) -> bool| {
            lifetimes.iter().filter(|&&days| predicate(days)).count() as f64
                / lifetimes.len().max(1) as f64
        };
        sizes.sort_unstable();
        let quantile = |q: f64| {
            sizes
                .get(((sizes.len() as f64 - 1.0) * q) as usize)
                .copied()
                .unwrap_or(0)
        };
        HistoryStats {
            days,
            boards: history.board_count(),
            threads,
            posts,
            users: history.user_count(),
            posts_per_day: f64::from(posts) / days,
            board_post_shares,
            busiest_fifth_of_boards_share,
            hourly_post_shares,
            share_between_08_and_24,
            threads_active_at_most_1_day: share(&|d| d <= 1.0),
            threads_active_at_most_3_days: share(&|d| d <= 3.0),
            threads_active_at_most_7_days: share(&|d| d <= 7.0),
            threads_active_over_30_days: share(&|d| d > 30.0),
            longest_active_days: lifetimes.iter().cloned().fold(0.0, f64::max),
            mean_posts_per_thread: f64::from(posts) / f64::from(threads.max(1)),
            median_posts_per_thread: quantile(0.5),
            p99_posts_per_thread: quantile(0.99),
            max_posts_per_thread: sizes.last().copied().unwrap_or(0),
        }
    }

    /// A readable report, with the papers' reference shapes beside the measured ones.
    pub fn report(&self) -> String {
        let percent = |share: f64| format!("{:.1} %", share * 100.0);
        let mut lines = vec![
            format!(
                "history     {:.0} days, {} boards, {} threads, {} posts, {} users ({:.0} posts/day)",
                self.days, self.boards, self.threads, self.posts, self.users, self.posts_per_day
            ),
            format!(
                "boards      busiest board {} of posts, busiest fifth of boards {} (heavy-tailed)",
                percent(self.board_post_shares.first().copied().unwrap_or(0.0)),
                percent(self.busiest_fifth_of_boards_share)
            ),
            format!(
                "daily cycle {} of posts between 08:00 and 24:00 local time",
                percent(self.share_between_08_and_24)
            ),
            format!(
                "lifetimes   active <= 24 h: {}   <= 3 days: {}   <= 7 days: {}   > 30 days: {}   longest {:.0} days",
                percent(self.threads_active_at_most_1_day),
                percent(self.threads_active_at_most_3_days),
                percent(self.threads_active_at_most_7_days),
                percent(self.threads_active_over_30_days),
                self.longest_active_days
            ),
            "            (papers: > 40 % active <= 24 h, about 70 % <= 3 days, a few very long)"
                .to_string(),
            format!(
                "threads     posts per thread: mean {:.1}, median {}, 99th percentile {}, max {}",
                self.mean_posts_per_thread,
                self.median_posts_per_thread,
                self.p99_posts_per_thread,
                self.max_posts_per_thread
            ),
        ];
        let bars: String = self
            .hourly_post_shares
            .iter()
            .map(|share| {
                const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
                let peak = self
                    .hourly_post_shares
                    .iter()
                    .cloned()
                    .fold(0.0, f64::max)
                    .max(1e-9);
                LEVELS[((share / peak) * 7.0).round() as usize]
            })
            .collect();
        lines.push(format!("hours       00 {bars} 23"));
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::Scale;
    use crate::text::Language;

    #[test]
    fn medium_history_has_forum_shapes() {
        let history = ForumHistory::generate(11, Scale::Medium, Language::English, 0);
        let stats = HistoryStats::of(&history);
        assert!(stats.threads_active_at_most_1_day > 0.40, "{stats:?}");
        let three_days = stats.threads_active_at_most_3_days;
        assert!((0.65..=0.85).contains(&three_days), "{three_days}");
        assert!(
            stats.share_between_08_and_24 > 0.8,
            "{}",
            stats.share_between_08_and_24
        );
        assert!(
            stats.busiest_fifth_of_boards_share > 0.4,
            "{}",
            stats.busiest_fifth_of_boards_share
        );
        assert!(
            stats.longest_active_days > 100.0,
            "{}",
            stats.longest_active_days
        );
        assert!(stats.report().contains("lifetimes"));
    }
}
