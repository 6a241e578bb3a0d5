//! Per-list statistics of the list-wise paper, from a list's record times.
//!
//! The paper's Table 1 did not survive in our copy of it; its text names what the features are
//! about (the intervals between records, "time intervals of the latest posts", the number of
//! records, how long a list has been quiet, and the dead-thread indicator), and these are those
//! quantities. They are all computed *as of* an instant, from the records stored before it, so
//! the same function describes a list when the policy plans and when it learns.

/// How many of the latest intervals the "recent" statistics use.
pub const RECENT_INTERVALS: usize = 5;

/// The statistics of one list as of one instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ListStatistics {
    /// Records stored before the instant.
    pub records: usize,
    /// Seconds since the list's first record (0 without records).
    pub age_seconds: f64,
    /// Mean interval between consecutive records, seconds (`None` below two records).
    pub mean_interval: Option<f64>,
    /// Mean of the latest [`RECENT_INTERVALS`] intervals.
    pub recent_mean_interval: Option<f64>,
    /// Standard deviation of the intervals (`None` below three records).
    pub interval_deviation: Option<f64>,
    /// Δt_na: seconds since the newest record, without activity.
    pub quiet_seconds: f64,
}

impl ListStatistics {
    /// Statistics of the records in `times` (ascending) that are not after `now`.
    pub fn as_of(times: &[i64], now: i64) -> Self {
        let count = times.partition_point(|&time| time <= now);
        let times = &times[..count];
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return ListStatistics {
                records: 0,
                age_seconds: 0.0,
                mean_interval: None,
                recent_mean_interval: None,
                interval_deviation: None,
                quiet_seconds: 0.0,
            };
        };
        let intervals = count.saturating_sub(1);
        let mean_interval = (intervals > 0).then(|| (last - first) as f64 / intervals as f64);
        let recent_mean_interval = (intervals > 0).then(|| {
            let recent = intervals.min(RECENT_INTERVALS);
            (last - times[count - 1 - recent]) as f64 / recent as f64
        });
        let interval_deviation = match mean_interval {
            Some(mean) if intervals >= 2 => {
                let squares: f64 = times
                    .windows(2)
                    .map(|pair| {
                        let gap = (pair[1] - pair[0]) as f64 - mean;
                        gap * gap
                    })
                    .sum();
                Some((squares / (intervals - 1) as f64).sqrt())
            }
            _ => None,
        };
        ListStatistics {
            records: count,
            age_seconds: (now - first) as f64,
            mean_interval,
            recent_mean_interval,
            interval_deviation,
            quiet_seconds: (now - last) as f64,
        }
    }

    /// The statistics of a list as of `now`. When every record is at or before `now` (the usual
    /// case when planning) they come from the list's running sums in constant time; otherwise
    /// from its records.
    pub fn of_list(list: &crate::lists::ListState, now: i64) -> Self {
        let times = &list.record_times;
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return ListStatistics::as_of(times, now);
        };
        if last > now || times.len() < 3 {
            return ListStatistics::as_of(times, now);
        }
        let count = times.len();
        let intervals = (count - 1) as f64;
        let mean = (last - first) as f64 / intervals;
        let recent = (count - 1).min(RECENT_INTERVALS);
        // Σ(g − ḡ)² = Σg² − n·ḡ², the sum of intervals being n·ḡ.
        let squares = (list.interval_squares - intervals * mean * mean).max(0.0);
        ListStatistics {
            records: count,
            age_seconds: (now - first) as f64,
            mean_interval: Some(mean),
            recent_mean_interval: Some((last - times[count - 1 - recent]) as f64 / recent as f64),
            interval_deviation: Some((squares / (intervals - 1.0)).sqrt()),
            quiet_seconds: (now - last) as f64,
        }
    }

    /// The paper's dead-thread indicator d_s: the list has been quiet for longer than its mean
    /// interval by more than `alpha` standard deviations (Δt_na − Δt_avg > α·Δt_sd). A list with
    /// too few records to measure a deviation is never called dead.
    pub fn is_dead(&self, alpha: f64) -> bool {
        match (self.mean_interval, self.interval_deviation) {
            (Some(mean), Some(deviation)) => self.quiet_seconds - mean > alpha * deviation,
            _ => false,
        }
    }
}

/// Number of regression features (the intercept included).
pub const FEATURE_COUNT: usize = 7;

/// The regression's feature vector, in rates per hour so that the fitted value is a rate too:
/// intercept, lifetime rate, recent rate, the rate the quiet time allows, the dead indicator,
/// log of the record count, and the inverse age.
pub fn features(statistics: &ListStatistics, alpha: f64) -> [f64; FEATURE_COUNT] {
    const HOUR: f64 = 3600.0;
    let rate_of = |interval: Option<f64>| interval.map_or(0.0, |seconds| HOUR / seconds.max(60.0));
    [
        1.0,
        rate_of(statistics.mean_interval),
        rate_of(statistics.recent_mean_interval),
        HOUR / (statistics.quiet_seconds.max(0.0) + HOUR),
        if statistics.is_dead(alpha) { 1.0 } else { 0.0 },
        (1.0 + statistics.records as f64).ln(),
        HOUR / (statistics.age_seconds.max(0.0) + HOUR),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(times: &[i64], now: i64, expected: ListStatistics) {
        let got = ListStatistics::as_of(times, now);
        assert_eq!(got.records, expected.records, "records of {times:?}");
        let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => (a - b).abs() < 1e-9,
            (None, None) => true,
            _ => false,
        };
        assert!(close(got.mean_interval, expected.mean_interval), "{got:?}");
        assert!(
            close(got.recent_mean_interval, expected.recent_mean_interval),
            "{got:?}"
        );
        assert!(
            close(got.interval_deviation, expected.interval_deviation),
            "{got:?}"
        );
        assert!(
            (got.quiet_seconds - expected.quiet_seconds).abs() < 1e-9,
            "{got:?}"
        );
        assert!(
            (got.age_seconds - expected.age_seconds).abs() < 1e-9,
            "{got:?}"
        );
    }

    fn statistics(
        records: usize,
        age: f64,
        mean: Option<f64>,
        recent: Option<f64>,
        deviation: Option<f64>,
        quiet: f64,
    ) -> ListStatistics {
        ListStatistics {
            records,
            age_seconds: age,
            mean_interval: mean,
            recent_mean_interval: recent,
            interval_deviation: deviation,
            quiet_seconds: quiet,
        }
    }

    #[test]
    fn statistics_of_hand_made_lists() {
        check(&[], 100, statistics(0, 0.0, None, None, None, 0.0));
        check(&[50], 100, statistics(1, 50.0, None, None, None, 50.0));
        // Intervals 10 and 30: mean 20, sample deviation sqrt(((−10)² + 10²)/1) = 14.14.
        check(
            &[0, 10, 40],
            100,
            statistics(3, 100.0, Some(20.0), Some(20.0), Some(200f64.sqrt()), 60.0),
        );
        // Records after the instant are not yet known.
        check(
            &[0, 10, 40, 500],
            100,
            statistics(3, 100.0, Some(20.0), Some(20.0), Some(200f64.sqrt()), 60.0),
        );
        // Seven intervals of 100 then five of 10: the recent mean sees only the last five.
        let times: Vec<i64> = (0..8)
            .map(|k| k * 100)
            .chain((1..=5).map(|k| 700 + k * 10))
            .collect();
        let got = ListStatistics::as_of(&times, 750);
        assert_eq!(got.recent_mean_interval, Some(10.0));
        assert!((got.mean_interval.unwrap() - 750.0 / 12.0).abs() < 1e-9);
    }

    fn check_dead(times: &[i64], now: i64, alpha: f64, expected: bool) {
        let got = ListStatistics::as_of(times, now).is_dead(alpha);
        assert_eq!(got, expected, "dead({times:?}, now {now}, α {alpha})");
    }

    #[test]
    fn dead_thread_indicator() {
        // Intervals 10, 30: mean 20, deviation 14.14. Dead when quiet − 20 > α·14.14.
        check_dead(&[0, 10, 40], 40 + 20 + 28, 2.0, false);
        check_dead(&[0, 10, 40], 40 + 20 + 29, 2.0, true);
        check_dead(&[0, 10, 40], 40 + 20 + 15, 1.0, true);
        // Too few records to judge.
        check_dead(&[0, 10], 1_000_000, 2.0, false);
        // Regular posting every hour, quiet for a day: dead even with a tiny deviation.
        check_dead(&[0, 3600, 7200, 10_800, 14_401], 14_401 + 86_400, 2.0, true);
    }

    #[test]
    fn running_sums_give_the_same_statistics_as_the_records() {
        use crate::lists::{FetchedPage, ListId, Lists, PageContent, SiteId};
        use jiff::Timestamp;
        // Records arriving out of order, in two fetches of two pages.
        let mut lists = Lists::new();
        lists.add_post_list(ListId(1), SiteId(0), None);
        let page = |page: u32, times: &[i64]| FetchedPage {
            list: ListId(1),
            page,
            fetched_at: Timestamp::from_second(10_000).unwrap(),
            page_count: Some(2),
            content: PageContent::Posts(
                times
                    .iter()
                    .map(|&t| Timestamp::from_second(t).unwrap())
                    .collect(),
            ),
        };
        lists.record(&page(2, &[900, 1000, 5000])).unwrap();
        lists.record(&page(1, &[0, 40, 300])).unwrap();
        let list = lists.get(ListId(1)).unwrap();
        assert_eq!(list.record_times, vec![0, 40, 300, 900, 1000, 5000]);
        for now in [5000, 7000, 100_000] {
            let fast = ListStatistics::of_list(list, now);
            let slow = ListStatistics::as_of(&list.record_times, now);
            assert_eq!(fast.records, slow.records);
            assert_eq!(fast.recent_mean_interval, slow.recent_mean_interval);
            assert!((fast.mean_interval.unwrap() - slow.mean_interval.unwrap()).abs() < 1e-9);
            assert!(
                (fast.interval_deviation.unwrap() - slow.interval_deviation.unwrap()).abs() < 1e-6
            );
            assert_eq!(fast.quiet_seconds, slow.quiet_seconds);
        }
        // Before the last record, the records themselves are read.
        assert_eq!(ListStatistics::of_list(list, 950).records, 4);
    }

    #[test]
    fn features_are_rates_per_hour() {
        let got = features(&ListStatistics::as_of(&[0, 1800, 3600], 3600), 2.0);
        assert_eq!(got[0], 1.0);
        assert!((got[1] - 2.0).abs() < 1e-9, "{got:?}");
        assert!((got[2] - 2.0).abs() < 1e-9, "{got:?}");
        assert!((got[3] - 1.0).abs() < 1e-9, "{got:?}");
        assert_eq!(got[4], 0.0);
        assert!((got[5] - 4f64.ln()).abs() < 1e-9);
        assert!((got[6] - 0.5).abs() < 1e-9);
    }
}
