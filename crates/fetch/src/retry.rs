//! [`RetryingFetcher`]: asks again, a bounded number of times, when a failure looks passing.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use jiff::Timestamp;
use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher};

use crate::sleep::Sleeper;

/// When and how long to wait before asking again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first one included; 1 means never retry.
    pub max_attempts: u32,
    /// The wait before the first retry, doubled for each further one.
    pub base_delay: Duration,
    /// The doubled wait never grows past this.
    pub max_delay: Duration,
    /// The longest `Retry-After` honoured. A server asking for a longer pause gets it from the
    /// caller, not from a thread blocked here: the response is handed back as it is.
    pub max_retry_after: Duration,
    /// Statuses worth asking again for: overload and gateway trouble, which pass. Other errors
    /// (500 included, which is usually the page's own bug) answer the same way the second time.
    pub retry_statuses: Vec<u16>,
    /// Seed of the jitter stream, so a run's waits can be reproduced.
    pub seed: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
            max_retry_after: Duration::from_secs(120),
            retry_statuses: vec![429, 502, 503, 504],
            seed: 0x7472_6177_6c5f_7274,
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (1 for the first retry), before any `Retry-After`:
    /// the doubled delay, capped, then "equal jitter" — half of it fixed and half drawn uniformly
    /// from `unit` in [0, 1). Keeping half fixed means a retry is never immediate; drawing the
    /// other half spreads the retries of several threads that failed together, so they do not
    /// return in lockstep to an overloaded server.
    pub fn backoff(&self, retry: u32, unit: f64) -> Duration {
        let doublings = retry.saturating_sub(1).min(31);
        let ceiling = self
            .base_delay
            .saturating_mul(1u32 << doublings)
            .min(self.max_delay);
        let half = ceiling / 2;
        half + half.mul_f64(unit.clamp(0.0, 1.0))
    }
}

/// Retries connection failures, timeouts and the [`RetryPolicy::retry_statuses`] with exponential
/// backoff, honouring `Retry-After`.
///
/// A retry is the same request again, at the same [`FetchRequest::at`]: the instant belongs to the
/// caller (the simulator renders the page as of it), and moving it by real seconds of backoff
/// would mix real and simulated time. The last answer, response or error, is handed back when the
/// attempts run out. Other errors (a bad URL, a robots.txt refusal, a body over the size cap) are
/// handed back at once: asking again would fail the same way.
#[derive(Debug)]
pub struct RetryingFetcher<F> {
    inner: F,
    policy: RetryPolicy,
    sleeper: Arc<dyn Sleeper>,
    jitter: Mutex<SplitMix64>,
}

impl<F: Fetcher> RetryingFetcher<F> {
    /// Wraps `inner`, waiting through `sleeper`.
    pub fn new(inner: F, policy: RetryPolicy, sleeper: Arc<dyn Sleeper>) -> Self {
        let jitter = Mutex::new(SplitMix64(policy.seed));
        RetryingFetcher {
            inner,
            policy,
            sleeper,
            jitter,
        }
    }

    /// The wrapped fetcher.
    pub fn inner(&self) -> &F {
        &self.inner
    }

    /// The policy it follows.
    pub fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    fn next_unit(&self) -> f64 {
        self.jitter
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .next_unit()
    }
}

impl<F: Fetcher> Fetcher for RetryingFetcher<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        let mut attempt = 1;
        loop {
            let answer = self.inner.fetch(request);
            let asked_pause = match &answer {
                Ok(response) if self.policy.retry_statuses.contains(&response.status) => {
                    Some(retry_after(response))
                }
                Ok(_) => return answer,
                Err(FetchError::Connection { .. } | FetchError::Timeout { .. }) => Some(None),
                Err(_) => return answer,
            };
            if attempt >= self.policy.max_attempts {
                return answer;
            }
            let backoff = self.policy.backoff(attempt, self.next_unit());
            let wait = match asked_pause.flatten() {
                Some(pause) if pause > self.policy.max_retry_after => return answer,
                Some(pause) => pause.max(backoff),
                None => backoff,
            };
            self.sleeper.sleep(wait);
            attempt += 1;
        }
    }
}

/// The pause a response's `Retry-After` asks for, if it has a readable one.
///
/// The header is either a number of seconds or an HTTP date (RFC 9110 §10.2.3). A date is
/// measured from the response's own `Date` header when it has a readable one, because both were
/// written by the server's clock, which may disagree with ours; otherwise from the instant the
/// response was fetched. A date already past asks for no pause.
pub fn retry_after(response: &FetchResponse) -> Option<Duration> {
    let value = response.header("retry-after")?.trim();
    if !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_digit()) {
        // All digits but too long for u64 is still "a very long time".
        return Some(Duration::from_secs(value.parse().unwrap_or(u64::MAX)));
    }
    let until = parse_http_date(value)?;
    let now = response
        .header("date")
        .and_then(parse_http_date)
        .unwrap_or(response.fetched_at);
    let pause = until.duration_since(now);
    Some(Duration::try_from(pause).unwrap_or(Duration::ZERO))
}

fn parse_http_date(value: &str) -> Option<Timestamp> {
    jiff::fmt::rfc2822::DateTimeParser::new()
        .parse_timestamp(value.trim())
        .ok()
}

/// Sebastiano Vigna's SplitMix64: a tiny generator whose stream is fixed by its definition, so a
/// seed gives the same jitter on every version of every dependency.
#[derive(Debug)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut mixed = self.0;
        mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        mixed ^ (mixed >> 31)
    }

    /// A float uniform in [0, 1) from the top 53 bits.
    fn next_unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sleep::VirtualSleeper;

    fn secs(seconds: u64) -> Duration {
        Duration::from_secs(seconds)
    }

    fn millis(milliseconds: u64) -> Duration {
        Duration::from_millis(milliseconds)
    }

    fn response(status: u16, headers: &[(&str, &str)]) -> FetchResponse {
        FetchResponse {
            url: "http://forum.test/".into(),
            status,
            headers: headers
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            body: Vec::new(),
            fetched_at: "2015-10-21T07:28:00Z".parse().unwrap(),
        }
    }

    fn check_retry_after(headers: &[(&str, &str)], expected: Option<Duration>) {
        assert_eq!(
            retry_after(&response(503, headers)),
            expected,
            "headers {headers:?}"
        );
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        check_retry_after(&[], None);
        check_retry_after(&[("Retry-After", "0")], Some(secs(0)));
        check_retry_after(&[("Retry-After", " 120 ")], Some(secs(120)));
        check_retry_after(
            &[("Retry-After", "99999999999999999999999")],
            Some(Duration::from_secs(u64::MAX)),
        );
        check_retry_after(&[("Retry-After", "-5")], None);
        check_retry_after(&[("Retry-After", "soon")], None);
        // Measured from the fetch instant, 07:28:00.
        check_retry_after(
            &[("Retry-After", "Wed, 21 Oct 2015 07:28:30 GMT")],
            Some(secs(30)),
        );
        // Measured from the server's own Date header.
        check_retry_after(
            &[
                ("Date", "Wed, 21 Oct 2015 07:29:00 GMT"),
                ("Retry-After", "Wed, 21 Oct 2015 07:29:10 GMT"),
            ],
            Some(secs(10)),
        );
        check_retry_after(
            &[("Retry-After", "Wed, 21 Oct 2015 07:00:00 GMT")],
            Some(secs(0)),
        );
    }

    fn check_backoff(retry: u32, unit: f64, expected: Duration) {
        let policy = RetryPolicy {
            base_delay: secs(1),
            max_delay: secs(10),
            ..RetryPolicy::default()
        };
        assert_eq!(
            policy.backoff(retry, unit),
            expected,
            "retry {retry}, unit {unit}"
        );
    }

    #[test]
    fn backoff_doubles_within_its_cap_and_keeps_half_fixed() {
        check_backoff(1, 0.0, millis(500));
        check_backoff(1, 0.5, millis(750));
        check_backoff(2, 0.0, secs(1));
        check_backoff(3, 0.0, secs(2));
        check_backoff(3, 1.0, secs(4));
        check_backoff(4, 0.25, secs(5));
        check_backoff(5, 0.0, secs(5));
        check_backoff(40, 1.0, secs(10));
    }

    #[test]
    fn jitter_stream_is_fixed_by_the_seed() {
        let mut first = SplitMix64(7);
        let mut second = SplitMix64(7);
        let drawn: Vec<f64> = (0..100).map(|_| first.next_unit()).collect();
        assert!(drawn.iter().all(|unit| (0.0..1.0).contains(unit)));
        assert_eq!(
            drawn,
            (0..100).map(|_| second.next_unit()).collect::<Vec<_>>()
        );
        // The published first output of SplitMix64 seeded with 0.
        assert_eq!(SplitMix64(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    /// Answers each request with the next scripted answer and counts the calls.
    #[derive(Debug)]
    struct Script {
        answers: Mutex<Vec<Result<FetchResponse, FetchError>>>,
    }

    impl Script {
        fn new(mut answers: Vec<Result<FetchResponse, FetchError>>) -> Self {
            answers.reverse();
            Script {
                answers: Mutex::new(answers),
            }
        }

        fn left(&self) -> usize {
            self.answers.lock().unwrap().len()
        }
    }

    impl Fetcher for Script {
        fn fetch(&self, _request: &FetchRequest) -> Result<FetchResponse, FetchError> {
            self.answers
                .lock()
                .unwrap()
                .pop()
                .expect("the fetcher asked more often than the script allows")
        }
    }

    fn connection_error() -> Result<FetchResponse, FetchError> {
        Err(FetchError::Connection {
            url: "http://forum.test/".into(),
            reason: "refused".into(),
        })
    }

    /// A wait the test expects: the policy's backoff before retry `n`, or an exact pause.
    #[derive(Debug, Clone, Copy)]
    enum Wait {
        Backoff(u32),
        Exactly(Duration),
    }

    /// Runs `script` through a retrying fetcher (base delay 2 s, Retry-After cap 30 s) and checks
    /// the final status or error, the exact waits asked for and how many scripted answers were
    /// left unused. Expected backoffs are computed with a second generator on the same seed,
    /// which draws once per retry just as the fetcher does.
    fn check_retries(
        script: Vec<Result<FetchResponse, FetchError>>,
        expected_status: Result<u16, &str>,
        expected_waits: &[Wait],
        expected_left: usize,
    ) {
        let script = Script::new(script);
        let sleeper = Arc::new(VirtualSleeper::new());
        let policy = RetryPolicy {
            base_delay: secs(2),
            max_delay: secs(60),
            max_retry_after: secs(30),
            seed: 42,
            ..RetryPolicy::default()
        };
        let mut mirror = SplitMix64(policy.seed);
        let expected_waits: Vec<Duration> = expected_waits
            .iter()
            .map(|wait| {
                let unit = mirror.next_unit();
                match wait {
                    Wait::Backoff(retry) => policy.backoff(*retry, unit),
                    Wait::Exactly(pause) => *pause,
                }
            })
            .collect();
        let fetcher = RetryingFetcher::new(&script, policy, sleeper.clone());
        let answer = fetcher.fetch(&FetchRequest::new(
            "http://forum.test/",
            Timestamp::UNIX_EPOCH,
        ));
        let got = match &answer {
            Ok(response) => Ok(response.status),
            Err(FetchError::Connection { .. }) => Err("connection"),
            Err(FetchError::Timeout { .. }) => Err("timeout"),
            Err(FetchError::TooLarge { .. }) => Err("too large"),
            Err(other) => panic!("unexpected {other}"),
        };
        assert_eq!(got, expected_status);
        assert_eq!(sleeper.waits(), expected_waits);
        assert_eq!(script.left(), expected_left);
    }

    #[test]
    fn passing_failures_are_retried_within_bounds() {
        let ok = || Ok(response(200, &[]));
        let unavailable = || Ok(response(503, &[]));
        check_retries(vec![ok()], Ok(200), &[], 0);
        check_retries(vec![unavailable(), ok()], Ok(200), &[Wait::Backoff(1)], 0);
        check_retries(
            vec![connection_error(), connection_error(), ok()],
            Ok(200),
            &[Wait::Backoff(1), Wait::Backoff(2)],
            0,
        );
        check_retries(
            vec![
                Err(FetchError::Timeout {
                    url: "http://forum.test/".into(),
                }),
                ok(),
            ],
            Ok(200),
            &[Wait::Backoff(1)],
            0,
        );
        // Four attempts in all, then the last answer is handed back.
        check_retries(
            vec![
                unavailable(),
                unavailable(),
                unavailable(),
                unavailable(),
                ok(),
            ],
            Ok(503),
            &[Wait::Backoff(1), Wait::Backoff(2), Wait::Backoff(3)],
            1,
        );
        check_retries(
            vec![
                connection_error(),
                connection_error(),
                connection_error(),
                connection_error(),
            ],
            Err("connection"),
            &[Wait::Backoff(1), Wait::Backoff(2), Wait::Backoff(3)],
            0,
        );
    }

    #[test]
    fn lasting_failures_are_not_retried() {
        check_retries(vec![Ok(response(500, &[]))], Ok(500), &[], 0);
        check_retries(vec![Ok(response(404, &[]))], Ok(404), &[], 0);
        check_retries(
            vec![Err(FetchError::TooLarge {
                url: "http://forum.test/".into(),
                limit_bytes: 1,
            })],
            Err("too large"),
            &[],
            0,
        );
    }

    #[test]
    fn retry_after_lengthens_the_wait_up_to_its_cap() {
        let ok = || Ok(response(200, &[]));
        check_retries(
            vec![Ok(response(429, &[("Retry-After", "20")])), ok()],
            Ok(200),
            &[Wait::Exactly(secs(20))],
            0,
        );
        // A shorter Retry-After than the backoff does not shorten the backoff.
        check_retries(
            vec![Ok(response(503, &[("Retry-After", "0")])), ok()],
            Ok(200),
            &[Wait::Backoff(1)],
            0,
        );
        // Longer than the 30 s cap: handed back at once.
        check_retries(
            vec![Ok(response(503, &[("Retry-After", "3600")])), ok()],
            Ok(503),
            &[],
            1,
        );
    }
}
