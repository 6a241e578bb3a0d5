//! The freshness figures: what the papers measure, per day and over the stable stage.
//!
//! - *Bandwidth utilisation*: the share of fetches that brought something new (a post not
//!   stored before, a thread not listed before, or a thread whose newest post was not stored),
//!   the list-wise paper's I_new / I_B.
//! - *Coverage*: the share of posts written that are stored (per day: of every post existing at
//!   the day's end, those stored by then; over the stage: of the stage's posts, those stored by
//!   the end of the run).
//! - *Delay*: from a post's writing to its storing (the list-wise paper's timeliness), mean and
//!   95th percentile over the posts stored; *total delay* is the board paper's sum of delays,
//!   with every post never stored counted up to the end of the run, so losing a post never
//!   lowers it.
//! - *Posts lost*: posts of the stage not stored when the run ends, a settling day after the
//!   last judged day.
//!
//! Index and post lists are reported apart too: fetches of board pages and their utilisation,
//! and the delay with which new threads are first listed (index) against the delay of replies
//! (post lists).

use serde::{Deserialize, Serialize};

/// Figures over a span of the run (the stable stage, or the whole of several forums' stages).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StageFigures {
    pub posts_written: u64,
    pub posts_stored: u64,
    pub coverage: f64,
    pub posts_lost: u64,
    pub mean_delay_s: f64,
    pub p95_delay_s: f64,
    pub total_delay_s: f64,
    pub fetches: u64,
    pub utilisation: f64,
    /// Board list pages: fetches, utilisation, and how soon new threads were listed.
    pub index: ListFigures,
    /// Thread pages: fetches, utilisation, and the delay of replies.
    pub post: ListFigures,
}

/// Figures of one kind of list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ListFigures {
    pub fetches: u64,
    pub utilisation: f64,
    /// New threads (index lists) or replies (post lists) judged.
    pub items: u64,
    pub mean_delay_s: f64,
    pub p95_delay_s: f64,
}

/// One day of the run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DayFigures {
    /// 1-based day of the run.
    pub day: u32,
    /// The day's date on the replay's calendar.
    pub date: String,
    pub fetches: u64,
    pub index_fetches: u64,
    pub post_fetches: u64,
    pub utilisation: f64,
    pub index_utilisation: f64,
    pub post_utilisation: f64,
    /// Stored posts over existing posts at the day's end.
    pub coverage: f64,
    pub posts_written: u64,
    /// Delays of the posts written that day.
    pub mean_delay_s: f64,
    pub p95_delay_s: f64,
    pub total_delay_s: f64,
}

/// Delays collected for one figure.
#[derive(Clone, Debug, Default)]
pub(crate) struct Delays {
    values: Vec<f64>,
    censored_total: f64,
    missing: u64,
}

impl Delays {
    pub(crate) fn stored(&mut self, delay: f64) {
        self.values.push(delay);
    }

    /// A post never stored: counted in the total up to the run's end.
    pub(crate) fn missing(&mut self, censored: f64) {
        self.censored_total += censored;
        self.missing += 1;
    }

    pub(crate) fn extend(&mut self, other: &Delays) {
        self.values.extend_from_slice(&other.values);
        self.censored_total += other.censored_total;
        self.missing += other.missing;
    }

    pub(crate) fn count(&self) -> u64 {
        self.values.len() as u64
    }

    pub(crate) fn lost(&self) -> u64 {
        self.missing
    }

    pub(crate) fn mean(&self) -> f64 {
        if self.values.is_empty() {
            0.0
        } else {
            self.values.iter().sum::<f64>() / self.values.len() as f64
        }
    }

    pub(crate) fn total(&self) -> f64 {
        self.values.iter().sum::<f64>() + self.censored_total
    }

    /// The nearest-rank median with every item never stored ranked after all stored ones (it
    /// waited longer than any): `None` when half or more were never stored, or nothing was
    /// judged. A policy that loses items cannot look faster by leaving them out.
    pub(crate) fn median_counting_lost(&self) -> Option<f64> {
        let items = self.values.len() + self.missing as usize;
        let rank = items.div_ceil(2);
        if rank == 0 || rank > self.values.len() {
            return None;
        }
        let mut sorted = self.values.clone();
        sorted.sort_by(f64::total_cmp);
        Some(sorted[rank - 1])
    }

    /// The nearest-rank percentile.
    pub(crate) fn percentile(&self, share: f64) -> f64 {
        if self.values.is_empty() {
            return 0.0;
        }
        let mut sorted = self.values.clone();
        sorted.sort_by(f64::total_cmp);
        let rank = ((share * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    }
}

/// Fetches and the useful ones among them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Tally {
    pub(crate) fetches: u64,
    pub(crate) useful: u64,
}

impl Tally {
    pub(crate) fn add(&mut self, useful: bool) {
        self.fetches += 1;
        self.useful += u64::from(useful);
    }

    pub(crate) fn merge(&mut self, other: Tally) {
        self.fetches += other.fetches;
        self.useful += other.useful;
    }

    pub(crate) fn share(&self) -> f64 {
        if self.fetches == 0 {
            0.0
        } else {
            self.useful as f64 / self.fetches as f64
        }
    }
}

/// What a stage's figures are made from, kept so several forums pool into one.
#[derive(Clone, Debug, Default)]
pub(crate) struct StageData {
    pub(crate) posts: Delays,
    pub(crate) threads: Delays,
    pub(crate) replies: Delays,
    pub(crate) index: Tally,
    pub(crate) post: Tally,
}

impl StageData {
    pub(crate) fn merge(&mut self, other: &StageData) {
        self.posts.extend(&other.posts);
        self.threads.extend(&other.threads);
        self.replies.extend(&other.replies);
        self.index.merge(other.index);
        self.post.merge(other.post);
    }

    pub(crate) fn figures(&self) -> StageFigures {
        let written = self.posts.count() + self.posts.lost();
        let mut all = self.index;
        all.merge(self.post);
        StageFigures {
            posts_written: written,
            posts_stored: self.posts.count(),
            coverage: if written == 0 {
                1.0
            } else {
                self.posts.count() as f64 / written as f64
            },
            posts_lost: self.posts.lost(),
            mean_delay_s: self.posts.mean(),
            p95_delay_s: self.posts.percentile(0.95),
            total_delay_s: self.posts.total(),
            fetches: all.fetches,
            utilisation: all.share(),
            index: ListFigures {
                fetches: self.index.fetches,
                utilisation: self.index.share(),
                items: self.threads.count() + self.threads.lost(),
                mean_delay_s: self.threads.mean(),
                p95_delay_s: self.threads.percentile(0.95),
            },
            post: ListFigures {
                fetches: self.post.fetches,
                utilisation: self.post.share(),
                items: self.replies.count() + self.replies.lost(),
                mean_delay_s: self.replies.mean(),
                p95_delay_s: self.replies.percentile(0.95),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_delays(stored: &[f64], missing: &[f64], expected: (f64, f64, f64, u64)) {
        let mut delays = Delays::default();
        stored.iter().for_each(|&delay| delays.stored(delay));
        missing.iter().for_each(|&delay| delays.missing(delay));
        let got = (
            delays.mean(),
            delays.percentile(0.95),
            delays.total(),
            delays.lost(),
        );
        assert_eq!(got, expected, "{stored:?} {missing:?}");
    }

    fn check_median(stored: &[f64], missing: usize, expected: Option<f64>) {
        let mut delays = Delays::default();
        stored.iter().for_each(|&delay| delays.stored(delay));
        (0..missing).for_each(|_| delays.missing(1e9));
        assert_eq!(
            delays.median_counting_lost(),
            expected,
            "{stored:?} and {missing} lost"
        );
    }

    #[test]
    fn median_ranks_items_never_stored_after_every_stored_one() {
        check_median(&[], 0, None);
        check_median(&[], 1, None);
        check_median(&[7.0], 0, Some(7.0));
        check_median(&[30.0, 10.0, 20.0], 0, Some(20.0));
        // Four items: the second smallest, stored ones first.
        check_median(&[30.0, 10.0, 20.0, 40.0], 0, Some(20.0));
        check_median(&[30.0, 10.0, 20.0], 1, Some(20.0));
        check_median(&[30.0, 10.0], 1, Some(30.0));
        check_median(&[30.0, 10.0], 2, Some(30.0));
        check_median(&[30.0], 2, None);
    }

    #[test]
    fn delays_give_mean_nearest_rank_percentile_and_censored_total() {
        check_delays(&[], &[], (0.0, 0.0, 0.0, 0));
        check_delays(&[10.0], &[], (10.0, 10.0, 10.0, 0));
        // Twenty values 1..=20: the 95th percentile is the 19th.
        let values: Vec<f64> = (1..=20).map(f64::from).collect();
        check_delays(&values, &[], (10.5, 19.0, 210.0, 0));
        // A lost post adds its censored delay to the total only.
        check_delays(&[4.0, 6.0], &[100.0], (5.0, 6.0, 110.0, 1));
    }
}
