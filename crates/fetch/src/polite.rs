//! [`PoliteFetcher`]: per-host pacing and a per-host cap on requests in flight.
//!
//! # What the delay means
//!
//! The delay is quiet time the server gets: a request to a host starts no sooner than the delay
//! after the previous response from that host *ended*, as `wget --wait` and Heritrix's politeness
//! delay count it, and never sooner than the delay after the previous request *started*.
//!
//! Spacing only the starts of requests, as this fetcher once did, does not hold at the server. A
//! request's bytes reach the server some time after the client decided to send them (a thread
//! woken late, a connection being set up), and that time differs from one request to the next:
//! when the first of two requests leaves late and the second on time, they arrive less than the
//! delay apart although they started the delay apart. On a loaded machine a quarter of the
//! arrivals at the fleet benchmark's servers came closer than the delay that way. Counting from
//! the end of the response closes that gap by causality rather than by margin: the next request
//! leaves after the response was read, which was after the server sent it, which was after the
//! previous request had arrived; so two arrivals are always at least the delay (plus the server's
//! own time to answer) apart, however late any thread runs. It costs one response time per
//! request in throughput, which is the price of a guarantee a webmaster can check in their logs.
//!
//! When more than one request may be in flight to a host, overlapping requests cannot each wait
//! for the previous one's end; they are spaced start to start, and each also waits out the delay
//! after the latest response that had ended when it took its turn.

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use trawl_model::{FetchError, FetchRequest, FetchResponse, Fetcher};

use crate::sleep::Sleeper;

/// How gently to treat each host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolitenessOptions {
    /// The least quiet time a host gets between the end of one response and the start of the
    /// next request (and the least time between two starts); see the module's documentation.
    pub min_delay: Duration,
    /// Requests to one host allowed in flight at once; `usize::MAX` means no limit.
    pub max_in_flight_per_host: usize,
    /// Whether a host's robots.txt `Crawl-delay` (as posted on the shared [`HostDelays`]) may
    /// lengthen [`PolitenessOptions::min_delay`]. It never shortens it.
    pub honour_crawl_delay: bool,
    /// The longest `Crawl-delay` honoured. A site asking for more is paced at this cap rather
    /// than not at all; a crawl that must respect such a site to the letter lowers its own pace
    /// by raising `min_delay`.
    pub max_crawl_delay: Duration,
}

impl Default for PolitenessOptions {
    /// One request at a time per host, at least a second apart, slower if robots.txt asks
    /// (up to a minute between requests). Forums are often one small server; a crawler that
    /// needs more speed should be told so explicitly.
    fn default() -> Self {
        PolitenessOptions {
            min_delay: Duration::from_secs(1),
            max_in_flight_per_host: 1,
            honour_crawl_delay: true,
            max_crawl_delay: Duration::from_secs(60),
        }
    }
}

impl PolitenessOptions {
    /// No pacing at all: no delay, no limit on requests in flight, `Crawl-delay` ignored. For
    /// benchmarks against the local simulator, never for someone else's server.
    pub fn off() -> Self {
        PolitenessOptions {
            min_delay: Duration::ZERO,
            max_in_flight_per_host: usize::MAX,
            honour_crawl_delay: false,
            max_crawl_delay: Duration::ZERO,
        }
    }

    fn is_off(&self) -> bool {
        self.min_delay.is_zero()
            && self.max_in_flight_per_host == usize::MAX
            && !self.honour_crawl_delay
    }
}

/// The key politeness is kept under: the URL's host, lower-cased, without scheme or port.
///
/// Ports and schemes are left out on purpose: `http://` and `https://` of one forum, or two ports
/// of one machine, load the same server. `None` for a URL without a host, which no fetcher can
/// fetch anyway.
pub fn host_key(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    parsed.host_str().map(|host| host.to_ascii_lowercase())
}

/// The `Crawl-delay` each host's robots.txt asked for, posted by the robots layer and read by
/// the politeness layer.
///
/// The two layers sit at different depths of the fetcher stack (robots.txt is decided before a
/// request waits for its turn), so neither can own the other; they share this board instead.
#[derive(Debug, Default)]
pub struct HostDelays {
    delays: Mutex<HashMap<String, Duration>>,
}

impl HostDelays {
    /// An empty board.
    pub fn new() -> Self {
        HostDelays::default()
    }

    /// Records the delay `host` asked for, or forgets it when `delay` is `None` (a robots.txt
    /// that no longer names one).
    pub fn set(&self, host: &str, delay: Option<Duration>) {
        let mut delays = self.lock();
        match delay {
            Some(delay) => delays.insert(host.to_ascii_lowercase(), delay),
            None => delays.remove(&host.to_ascii_lowercase()),
        };
    }

    /// The delay `host` asked for, if any.
    pub fn get(&self, host: &str) -> Option<Duration> {
        self.lock().get(&host.to_ascii_lowercase()).copied()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Duration>> {
        self.delays
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Paces requests per host: a start at least the host's delay after the previous response ended
/// and after the previous request started, and no more than
/// [`PolitenessOptions::max_in_flight_per_host`] requests in flight.
///
/// Any number of crawler threads may share one. A request first waits (on a condition variable)
/// for a free slot on its host, then reserves the earliest start its host's delay allows, then
/// sleeps until that start through the [`Sleeper`], holding the slot. Reserving under the lock and
/// sleeping outside it keeps the order of requests the order in which they got their slots, and
/// lets requests to other hosts go on meanwhile. The host's delay is the larger of
/// [`PolitenessOptions::min_delay`] and its (capped) `Crawl-delay`, read at the moment of
/// reserving, so a `Crawl-delay` learned from a robots.txt fetched just before applies to the
/// very next request.
///
/// Hosts are remembered for the fetcher's lifetime (two numbers each), which suits a crawler
/// visiting a few forums, not a web-scale one.
#[derive(Debug)]
pub struct PoliteFetcher<F> {
    inner: F,
    options: PolitenessOptions,
    sleeper: Arc<dyn Sleeper>,
    crawl_delays: Arc<HostDelays>,
    hosts: Mutex<HashMap<String, HostPace>>,
    slot_freed: Condvar,
}

#[derive(Debug, Default)]
struct HostPace {
    in_flight: usize,
    last_start: Option<Duration>,
    /// When the latest response from the host ended (or its request failed).
    last_end: Option<Duration>,
}

impl<F: Fetcher> PoliteFetcher<F> {
    /// Wraps `inner`, waiting through `sleeper` and reading `Crawl-delay`s from `crawl_delays`.
    pub fn new(
        inner: F,
        options: PolitenessOptions,
        sleeper: Arc<dyn Sleeper>,
        crawl_delays: Arc<HostDelays>,
    ) -> Self {
        PoliteFetcher {
            inner,
            options,
            sleeper,
            crawl_delays,
            hosts: Mutex::new(HashMap::new()),
            slot_freed: Condvar::new(),
        }
    }

    /// The wrapped fetcher.
    pub fn inner(&self) -> &F {
        &self.inner
    }

    /// The options it paces by.
    pub fn options(&self) -> &PolitenessOptions {
        &self.options
    }

    /// The delay after a response from `host` (and between two starts) as things stand.
    pub fn delay_for(&self, host: &str) -> Duration {
        let asked = if self.options.honour_crawl_delay {
            self.crawl_delays
                .get(host)
                .map(|delay| delay.min(self.options.max_crawl_delay))
                .unwrap_or(Duration::ZERO)
        } else {
            Duration::ZERO
        };
        self.options.min_delay.max(asked)
    }

    /// Waits for a slot on `host` and reserves a start time; the slot is given back when the
    /// returned guard is dropped, even if the fetch panics.
    fn reserve(&self, host: &str) -> (Duration, SlotGuard<'_, F>) {
        let limit = self.options.max_in_flight_per_host.max(1);
        let mut hosts = self.lock_hosts();
        while hosts.get(host).is_some_and(|pace| pace.in_flight >= limit) {
            hosts = self
                .slot_freed
                .wait(hosts)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        let delay = self.delay_for(host);
        let now = self.sleeper.now();
        let pace = hosts.entry(host.to_string()).or_default();
        let start = [pace.last_start, pace.last_end]
            .into_iter()
            .flatten()
            .map(|last| last.saturating_add(delay))
            .fold(now, Duration::max);
        pace.last_start = Some(start);
        pace.in_flight += 1;
        let guard = SlotGuard {
            fetcher: self,
            host: host.to_string(),
        };
        (start, guard)
    }

    /// A sleep can end late (a loaded machine wakes threads late, by tens of milliseconds):
    /// the request then starts after the instant it reserved, and a next request spaced from
    /// the reserved instant would reach the server less than the delay after it. The next
    /// request is spaced from the later of the two, the instant the request really started.
    fn note_actual_start(&self, host: &str, reserved: Duration) {
        let actual = self.sleeper.now();
        if actual <= reserved {
            return;
        }
        let mut hosts = self.lock_hosts();
        if let Some(pace) = hosts.get_mut(host) {
            pace.last_start = Some(pace.last_start.map_or(actual, |last| last.max(actual)));
        }
    }

    fn lock_hosts(&self) -> MutexGuard<'_, HashMap<String, HostPace>> {
        // Every update to the map is a pair of integer assignments, never left half done, so a
        // poisoned lock still guards consistent data.
        self.hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Gives a reserved slot back to its host and wakes the requests waiting for one.
struct SlotGuard<'fetcher, F> {
    fetcher: &'fetcher PoliteFetcher<F>,
    host: String,
}

impl<F> Drop for SlotGuard<'_, F> {
    fn drop(&mut self) {
        // The slot is given back once the whole response has been read (the inner fetcher
        // returns only then), so this instant is the end the next request's delay counts from.
        let ended = self.fetcher.sleeper.now();
        let mut hosts = self
            .fetcher
            .hosts
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(pace) = hosts.get_mut(&self.host) {
            pace.in_flight = pace.in_flight.saturating_sub(1);
            pace.last_end = Some(pace.last_end.map_or(ended, |last| last.max(ended)));
        }
        drop(hosts);
        // Waiters for other hosts wake too and go back to sleep; one condition variable for all
        // hosts is simpler than one per host and costs nothing at a crawler's request rate.
        self.fetcher.slot_freed.notify_all();
    }
}

impl<F: Fetcher> Fetcher for PoliteFetcher<F> {
    fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
        if self.options.is_off() {
            return self.inner.fetch(request);
        }
        let Some(host) = host_key(&request.url) else {
            // No host, no server to be polite to: the inner fetcher reports the bad URL.
            return self.inner.fetch(request);
        };
        let (start, _slot) = self.reserve(&host);
        self.sleeper.sleep_until(start);
        self.note_actual_start(&host, start);
        self.inner.fetch(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sleep::VirtualSleeper;
    use trawl_model::Timestamp;

    fn secs(seconds: u64) -> Duration {
        Duration::from_secs(seconds)
    }

    /// Notes when (on the virtual clock) each request started, and the most requests ever in
    /// flight at once. Each request takes `work` of virtual time.
    #[derive(Debug)]
    struct Recorder {
        sleeper: Arc<VirtualSleeper>,
        work: Duration,
        starts: Mutex<Vec<(String, Duration)>>,
        in_flight: Mutex<(usize, usize)>,
        rendezvous: Option<Rendezvous>,
    }

    impl Recorder {
        fn new(sleeper: Arc<VirtualSleeper>, work: Duration) -> Self {
            Recorder {
                sleeper,
                work,
                starts: Mutex::new(Vec::new()),
                in_flight: Mutex::new((0, 0)),
                rendezvous: None,
            }
        }

        fn starts(&self) -> Vec<(String, Duration)> {
            self.starts.lock().unwrap().clone()
        }

        fn most_in_flight(&self) -> usize {
            self.in_flight.lock().unwrap().1
        }
    }

    /// A meeting point for groups of `size` threads, reusable, that fails the test instead of
    /// hanging when a group never fills.
    #[derive(Debug)]
    struct Rendezvous {
        size: usize,
        state: Mutex<(usize, u64)>,
        filled: Condvar,
    }

    impl Rendezvous {
        fn new(size: usize) -> Self {
            Rendezvous {
                size,
                state: Mutex::new((0, 0)),
                filled: Condvar::new(),
            }
        }

        fn wait(&self) {
            let mut state = self.state.lock().unwrap();
            let generation = state.1;
            state.0 += 1;
            if state.0 == self.size {
                *state = (0, generation + 1);
                self.filled.notify_all();
                return;
            }
            let (state, timeout) = self
                .filled
                .wait_timeout_while(state, Duration::from_secs(10), |state| {
                    state.1 == generation
                })
                .unwrap();
            assert!(
                !timeout.timed_out() || state.1 != generation,
                "a group of {} never filled",
                self.size
            );
        }
    }

    impl Fetcher for Recorder {
        fn fetch(&self, request: &FetchRequest) -> Result<FetchResponse, FetchError> {
            {
                let mut in_flight = self.in_flight.lock().unwrap();
                in_flight.0 += 1;
                in_flight.1 = in_flight.1.max(in_flight.0);
            }
            self.starts
                .lock()
                .unwrap()
                .push((request.url.clone(), self.sleeper.now()));
            if let Some(rendezvous) = &self.rendezvous {
                rendezvous.wait();
            }
            self.sleeper.advance(self.work);
            self.in_flight.lock().unwrap().0 -= 1;
            Ok(FetchResponse {
                url: request.url.clone(),
                status: 200,
                headers: Vec::new(),
                body: Vec::new(),
                fetched_at: request.at,
            })
        }
    }

    fn ask(fetcher: &dyn Fetcher, url: &str) {
        fetcher
            .fetch(&FetchRequest::new(url, Timestamp::UNIX_EPOCH))
            .unwrap();
    }

    /// Fetches `urls` one after another (each taking `work`) with `options` and the given
    /// crawl delays posted, and compares the virtual start times of the requests.
    fn check(
        options: PolitenessOptions,
        crawl_delays: &[(&str, u64)],
        work: Duration,
        urls: &[&str],
        expected_starts: &[Duration],
    ) {
        let sleeper = Arc::new(VirtualSleeper::new());
        let recorder = Recorder::new(sleeper.clone(), work);
        let board = Arc::new(HostDelays::new());
        for (host, seconds) in crawl_delays {
            board.set(host, Some(secs(*seconds)));
        }
        let fetcher = PoliteFetcher::new(&recorder, options, sleeper, board);
        for url in urls {
            ask(&fetcher, url);
        }
        let starts: Vec<Duration> = recorder.starts().into_iter().map(|(_, at)| at).collect();
        assert_eq!(starts, expected_starts, "urls {urls:?}");
    }

    #[test]
    fn requests_to_one_host_are_spaced_by_its_delay() {
        let default = PolitenessOptions::default;
        let a = "http://a.test/1";
        let b = "http://b.test/1";
        check(default(), &[], Duration::ZERO, &[a], &[secs(0)]);
        check(
            default(),
            &[],
            Duration::ZERO,
            &[a, a, a],
            &[secs(0), secs(1), secs(2)],
        );
        // The delay is quiet time after each response: the time a request takes does not
        // count towards it.
        check(
            default(),
            &[],
            Duration::from_millis(400),
            &[a, a],
            &[secs(0), Duration::from_millis(1400)],
        );
        check(
            default(),
            &[],
            secs(3),
            &[a, a, a],
            &[secs(0), secs(4), secs(8)],
        );
        // Another host's slow response makes no host wait.
        check(default(), &[], secs(3), &[a, b], &[secs(0), secs(3)]);
        // Hosts are paced separately; case, scheme and port do not make another host.
        check(
            default(),
            &[],
            Duration::ZERO,
            &[a, b, "https://A.test:8443/2", b],
            &[secs(0), secs(0), secs(1), secs(1)],
        );
        // Crawl-delay lengthens the pause, within its cap.
        check(
            default(),
            &[("a.test", 5)],
            Duration::ZERO,
            &[a, a, b, b],
            &[secs(0), secs(5), secs(5), secs(6)],
        );
        // A Crawl-delay is quiet time after each response too.
        check(
            default(),
            &[("a.test", 5)],
            secs(2),
            &[a, a],
            &[secs(0), secs(7)],
        );
        check(
            default(),
            &[("a.test", 3600)],
            Duration::ZERO,
            &[a, a],
            &[secs(0), secs(60)],
        );
        let ignoring = PolitenessOptions {
            honour_crawl_delay: false,
            ..default()
        };
        check(
            ignoring,
            &[("a.test", 5)],
            Duration::ZERO,
            &[a, a],
            &[secs(0), secs(1)],
        );
        // A Crawl-delay shorter than the minimum does not shorten it.
        let slow = PolitenessOptions {
            min_delay: secs(2),
            ..default()
        };
        check(
            slow,
            &[("a.test", 1)],
            Duration::ZERO,
            &[a, a],
            &[secs(0), secs(2)],
        );
        check(
            PolitenessOptions::off(),
            &[("a.test", 5)],
            Duration::ZERO,
            &[a, a, a],
            &[secs(0), secs(0), secs(0)],
        );
    }

    /// A clock whose every wait ends `late` after its deadline, as a loaded machine's does.
    #[derive(Debug)]
    struct LateWaker {
        clock: Arc<VirtualSleeper>,
        late: Duration,
    }

    impl Sleeper for LateWaker {
        fn now(&self) -> Duration {
            self.clock.now()
        }

        fn sleep_until(&self, deadline: Duration) {
            if deadline > self.clock.now() {
                self.clock.sleep_until(deadline);
                self.clock.advance(self.late);
            }
        }
    }

    #[test]
    fn a_request_that_started_late_spaces_the_next_from_its_real_start() {
        let clock = Arc::new(VirtualSleeper::new());
        let recorder = Recorder::new(clock.clone(), Duration::ZERO);
        let sleeper = Arc::new(LateWaker {
            clock,
            late: Duration::from_millis(300),
        });
        let fetcher = PoliteFetcher::new(
            &recorder,
            PolitenessOptions::default(),
            sleeper,
            Arc::new(HostDelays::new()),
        );
        for _ in 0..3 {
            ask(&fetcher, "http://a.test/1");
        }
        let starts: Vec<Duration> = recorder.starts().into_iter().map(|(_, at)| at).collect();
        assert_eq!(
            starts,
            [
                Duration::ZERO,
                Duration::from_millis(1300),
                Duration::from_millis(2600)
            ]
        );
    }

    #[test]
    fn threads_sharing_a_host_take_turns() {
        let sleeper = Arc::new(VirtualSleeper::new());
        let recorder = Recorder::new(sleeper.clone(), Duration::from_millis(250));
        let fetcher = PoliteFetcher::new(
            &recorder,
            PolitenessOptions::default(),
            sleeper.clone(),
            Arc::new(HostDelays::new()),
        );
        std::thread::scope(|scope| {
            for thread in 0..2 {
                let fetcher = &fetcher;
                scope.spawn(move || {
                    for page in 0..5 {
                        ask(fetcher, &format!("http://forum.test/t{thread}/p{page}"));
                    }
                });
            }
        });
        let starts: Vec<Duration> = recorder.starts().into_iter().map(|(_, at)| at).collect();
        let expected: Vec<Duration> = (0..10)
            .map(|turn| Duration::from_millis(1250 * turn))
            .collect();
        assert_eq!(starts, expected);
        assert_eq!(recorder.most_in_flight(), 1);
        // The first request went at once; each later one waited a whole second after the end
        // of the previous request's 250 ms of work.
        assert_eq!(sleeper.waits(), vec![secs(1); 9]);
        // Each thread's own requests kept their order.
        for thread in 0..2 {
            let own: Vec<String> = recorder
                .starts()
                .into_iter()
                .map(|(url, _)| url)
                .filter(|url| url.contains(&format!("/t{thread}/")))
                .collect();
            let expected: Vec<String> = (0..5)
                .map(|page| format!("http://forum.test/t{thread}/p{page}"))
                .collect();
            assert_eq!(own, expected);
        }
    }

    #[test]
    fn in_flight_limit_lets_requests_in_two_by_two() {
        let sleeper = Arc::new(VirtualSleeper::new());
        let mut recorder = Recorder::new(sleeper.clone(), Duration::ZERO);
        // Requests meet in pairs inside the fetcher: with a limit of two, the first two threads
        // meet each other and the last two meet each other. A limit of one would strand the first
        // request at the meeting point (the rendezvous gives up after ten seconds and the test
        // fails); no limit would let three or four in at once.
        recorder.rendezvous = Some(Rendezvous::new(2));
        let options = PolitenessOptions {
            min_delay: Duration::ZERO,
            max_in_flight_per_host: 2,
            ..PolitenessOptions::default()
        };
        let fetcher = PoliteFetcher::new(
            &recorder,
            options,
            sleeper.clone(),
            Arc::new(HostDelays::new()),
        );
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let fetcher = &fetcher;
                scope.spawn(move || ask(fetcher, &format!("http://forum.test/{thread}")));
            }
        });
        assert_eq!(recorder.starts().len(), 4);
        assert_eq!(recorder.most_in_flight(), 2);
        assert!(sleeper.waits().is_empty());
    }

    #[test]
    fn host_keys_ignore_case_scheme_and_port() {
        let check = |url: &str, expected: Option<&str>| {
            assert_eq!(host_key(url).as_deref(), expected, "{url}");
        };
        check("http://Forum.Test/a", Some("forum.test"));
        check("https://forum.test:8443/", Some("forum.test"));
        check("http://127.0.0.1:8080/x", Some("127.0.0.1"));
        check("not a url", None);
        check("data:text/plain,hi", None);
    }
}
