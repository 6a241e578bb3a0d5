//! Waiting, behind a seam: the real thread sleep, or a virtual clock that only records.
//!
//! Politeness and retries are mostly waiting. Tests must check *which* waits were asked for
//! (one second between two requests to a host, the two seconds a `Retry-After` named) without
//! actually sleeping and without asserting on elapsed wall time, which a loaded machine makes
//! flaky. Everything in this crate that waits therefore asks a [`Sleeper`]: [`ThreadSleeper`]
//! sleeps the thread, [`VirtualSleeper`] moves a virtual clock and remembers every wait.
//!
//! The time here is monotonic elapsed time (a `Duration` since the sleeper was made), not the
//! wall clock: pacing needs "how long since the last request started", never "what date is it",
//! and the workspace's rule that only `trawl_model`'s clocks read the date is kept.

use std::fmt::Debug;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A monotonic time source that can also wait.
pub trait Sleeper: Debug + Send + Sync {
    /// Time elapsed since an arbitrary fixed origin; never goes backwards.
    fn now(&self) -> Duration;

    /// Returns once [`Sleeper::now`] has reached `deadline` (at once if it already has).
    ///
    /// Waiting *until* an instant rather than *for* a duration is what makes concurrent waits
    /// well defined: two threads that both reserved a start time each wait for their own, however
    /// their calls interleave.
    fn sleep_until(&self, deadline: Duration);

    /// Waits for `duration` from now.
    fn sleep(&self, duration: Duration) {
        self.sleep_until(self.now().saturating_add(duration));
    }
}

/// The real sleeper: [`Instant`] for time, [`std::thread::sleep`] for waiting.
#[derive(Debug, Clone, Copy)]
pub struct ThreadSleeper {
    origin: Instant,
}

impl ThreadSleeper {
    /// A sleeper whose time starts now.
    pub fn new() -> Self {
        ThreadSleeper {
            origin: Instant::now(),
        }
    }
}

impl Default for ThreadSleeper {
    fn default() -> Self {
        ThreadSleeper::new()
    }
}

impl Sleeper for ThreadSleeper {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    fn sleep_until(&self, deadline: Duration) {
        // `thread::sleep` may wake early on some platforms; loop until the deadline is reached so
        // a politeness delay is never shortened.
        loop {
            let now = self.now();
            if now >= deadline {
                return;
            }
            std::thread::sleep(deadline - now);
        }
    }
}

/// A virtual clock for tests: waiting moves the clock forward instantly and is recorded.
///
/// Several threads may share one; each wait moves the clock to the latest deadline asked for,
/// so the clock reads as if the waits had overlapped in real time.
#[derive(Debug, Default)]
pub struct VirtualSleeper {
    state: Mutex<VirtualState>,
}

#[derive(Debug, Default)]
struct VirtualState {
    now: Duration,
    waits: Vec<Duration>,
}

impl VirtualSleeper {
    /// A virtual clock at zero with no waits recorded.
    pub fn new() -> Self {
        VirtualSleeper::default()
    }

    /// Every wait asked for so far, in order, as the time between the clock's reading at the call
    /// and the deadline. Calls whose deadline had already passed are not recorded: nothing waited.
    pub fn waits(&self) -> Vec<Duration> {
        self.lock().waits.clone()
    }

    /// Moves the clock forward by `duration` without recording a wait, as time spent working.
    pub fn advance(&self, duration: Duration) {
        let mut state = self.lock();
        state.now = state.now.saturating_add(duration);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VirtualState> {
        // A test thread that panicked while holding the lock leaves consistent data behind (two
        // plain fields), so the poison flag carries no information worth a second panic.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Sleeper for VirtualSleeper {
    fn now(&self) -> Duration {
        self.lock().now
    }

    fn sleep_until(&self, deadline: Duration) {
        let mut state = self.lock();
        if deadline > state.now {
            let wait = deadline - state.now;
            state.waits.push(wait);
            state.now = deadline;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_sleeper_records_waits_and_moves_its_clock() {
        let sleeper = VirtualSleeper::new();
        sleeper.sleep(Duration::from_secs(2));
        sleeper.advance(Duration::from_millis(500));
        sleeper.sleep_until(Duration::from_secs(1));
        sleeper.sleep_until(Duration::from_secs(4));
        assert_eq!(
            sleeper.waits(),
            vec![Duration::from_secs(2), Duration::from_millis(1500)]
        );
        assert_eq!(sleeper.now(), Duration::from_secs(4));
    }

    #[test]
    fn thread_sleeper_reaches_its_deadline() {
        let sleeper = ThreadSleeper::new();
        let deadline = sleeper.now() + Duration::from_millis(5);
        sleeper.sleep_until(deadline);
        assert!(sleeper.now() >= deadline);
    }
}
