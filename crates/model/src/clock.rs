//! Injectable clocks.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Instant;

use jiff::{SignedDuration, Timestamp};

/// The only source of "now" in trawl.
///
/// Components take a `&dyn Clock` (or an `Arc<dyn Clock>`) instead of reading the wall clock, so a
/// test or a simulation decides what time it is.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The current instant on this clock.
    fn now(&self) -> Timestamp;
}

/// The machine's wall clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A clock that always says the same instant.
#[derive(Debug, Clone, Copy)]
pub struct FixedClock {
    instant: Timestamp,
}

impl FixedClock {
    /// A clock stopped at `instant`.
    pub fn new(instant: Timestamp) -> Self {
        FixedClock { instant }
    }
}

impl Clock for FixedClock {
    fn now(&self) -> Timestamp {
        self.instant
    }
}

/// A clock that moves only when it is told to; simulations step it.
///
/// It stores whole nanoseconds in an atomic so that it can be shared between threads without a
/// lock; a simulated crawl reads it on every request.
#[derive(Debug)]
pub struct ManualClock {
    nanoseconds_since_epoch: AtomicI64,
}

impl ManualClock {
    /// A clock that starts at `instant`.
    pub fn new(instant: Timestamp) -> Self {
        ManualClock {
            nanoseconds_since_epoch: AtomicI64::new(to_nanoseconds(instant)),
        }
    }

    /// Moves the clock to `instant`; moving backwards is allowed because a simulation may replay.
    pub fn set(&self, instant: Timestamp) {
        self.nanoseconds_since_epoch
            .store(to_nanoseconds(instant), Ordering::SeqCst);
    }

    /// Moves the clock forward by `by` and returns the new instant.
    pub fn advance(&self, by: SignedDuration) -> Timestamp {
        let step = i64::try_from(by.as_nanos()).unwrap_or(i64::MAX);
        let after = self
            .nanoseconds_since_epoch
            .fetch_add(step, Ordering::SeqCst)
            + step;
        from_nanoseconds(after)
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        from_nanoseconds(self.nanoseconds_since_epoch.load(Ordering::SeqCst))
    }
}

/// A simulated clock that starts at `origin` when created and runs `factor` times faster than the
/// wall clock, so a day of forum activity can be served in minutes.
#[derive(Debug, Clone, Copy)]
pub struct AcceleratedClock {
    origin: Timestamp,
    started: Instant,
    factor: f64,
}

impl AcceleratedClock {
    /// A clock reading `origin` now and advancing `factor` simulated seconds per real second.
    pub fn new(origin: Timestamp, factor: f64) -> Self {
        AcceleratedClock {
            origin,
            started: Instant::now(),
            factor,
        }
    }
}

impl Clock for AcceleratedClock {
    fn now(&self) -> Timestamp {
        let real = self.started.elapsed().as_secs_f64();
        let simulated = SignedDuration::from_secs_f64(real * self.factor);
        self.origin.saturating_add(simulated).unwrap_or(self.origin)
    }
}

/// An accelerated clock many processes can share: it reads `origin` at the wall-clock instant
/// `epoch` and runs `factor` simulated seconds per wall-clock second from there.
///
/// [`AcceleratedClock`] starts when it is created, so two processes that create one each read
/// different instants. Anchoring the acceleration to an instant of the wall clock instead lets
/// every process of a fleet (and the simulated forums' servers) be handed the same three
/// numbers and read the same simulated time, to within the machines' clock skew times the
/// factor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SharedAcceleratedClock {
    origin: Timestamp,
    epoch: Timestamp,
    factor: f64,
}

impl SharedAcceleratedClock {
    /// A clock reading `origin` at the wall-clock instant `epoch` and advancing `factor`
    /// simulated seconds per wall-clock second (before `epoch`, it reads earlier than `origin`).
    pub fn new(origin: Timestamp, epoch: Timestamp, factor: f64) -> Self {
        SharedAcceleratedClock {
            origin,
            epoch,
            factor,
        }
    }

    /// The simulated instant at the wall-clock instant `wall`.
    pub fn at_wall(&self, wall: Timestamp) -> Timestamp {
        let real = wall.duration_since(self.epoch).as_secs_f64();
        let simulated = SignedDuration::from_secs_f64(real * self.factor);
        self.origin.saturating_add(simulated).unwrap_or(self.origin)
    }

    /// How long on the wall clock `simulated` lasts on this clock (zero for a negative span).
    pub fn wall_duration(&self, simulated: SignedDuration) -> std::time::Duration {
        let seconds = simulated.as_secs_f64() / self.factor;
        std::time::Duration::try_from_secs_f64(seconds.max(0.0)).unwrap_or_default()
    }

    /// Simulated seconds per wall-clock second.
    pub fn factor(&self) -> f64 {
        self.factor
    }

    /// The simulated instant the clock reads at its epoch.
    pub fn origin(&self) -> Timestamp {
        self.origin
    }

    /// The wall-clock instant at which the clock reads its origin.
    pub fn epoch(&self) -> Timestamp {
        self.epoch
    }
}

impl Clock for SharedAcceleratedClock {
    fn now(&self) -> Timestamp {
        self.at_wall(Timestamp::now())
    }
}

fn to_nanoseconds(instant: Timestamp) -> i64 {
    // Timestamps trawl deals with (1970..2262) fit in i64 nanoseconds; saturate outside.
    i64::try_from(instant.as_nanosecond()).unwrap_or(if instant.as_second() < 0 {
        i64::MIN
    } else {
        i64::MAX
    })
}

fn from_nanoseconds(nanoseconds: i64) -> Timestamp {
    Timestamp::from_nanosecond(i128::from(nanoseconds)).unwrap_or(Timestamp::UNIX_EPOCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_when_told() {
        let start: Timestamp = "2025-03-01T12:00:00Z".parse().unwrap();
        let clock = ManualClock::new(start);
        assert_eq!(clock.now(), start);
        let later = clock.advance(SignedDuration::from_hours(25));
        assert_eq!(later.to_string(), "2025-03-02T13:00:00Z");
        assert_eq!(clock.now(), later);
        clock.set(start);
        assert_eq!(clock.now(), start);
    }

    #[test]
    fn a_shared_accelerated_clock_reads_the_same_instant_for_the_same_wall_instant() {
        let origin: Timestamp = "2025-03-01T12:00:00Z".parse().unwrap();
        let epoch: Timestamp = "2026-11-27T19:00:00Z".parse().unwrap();
        let one = SharedAcceleratedClock::new(origin, epoch, 1440.0);
        let other = SharedAcceleratedClock::new(origin, epoch, 1440.0);
        let wall: Timestamp = "2026-11-27T19:01:00Z".parse().unwrap();
        // A minute of the wall clock is a simulated day at 1440x.
        assert_eq!(one.at_wall(wall).to_string(), "2025-03-02T12:00:00Z");
        assert_eq!(one.at_wall(wall), other.at_wall(wall));
        assert_eq!(one.at_wall(epoch), origin);
        let before: Timestamp = "2026-11-27T18:59:30Z".parse().unwrap();
        assert_eq!(one.at_wall(before).to_string(), "2025-03-01T00:00:00Z");
        assert_eq!(
            one.wall_duration(SignedDuration::from_hours(24)),
            std::time::Duration::from_secs(60)
        );
        assert_eq!(
            one.wall_duration(SignedDuration::from_hours(-1)),
            std::time::Duration::ZERO
        );
    }

    #[test]
    fn accelerated_clock_starts_at_origin_and_moves_forward() {
        let origin: Timestamp = "2025-03-01T12:00:00Z".parse().unwrap();
        let clock = AcceleratedClock::new(origin, 3600.0);
        let first = clock.now();
        assert!(first >= origin);
        std::thread::sleep(std::time::Duration::from_millis(20));
        let second = clock.now();
        // 20 ms at 3600x is at least 72 simulated seconds.
        assert!(
            second.duration_since(origin).as_secs() >= 72,
            "{origin} -> {second}"
        );
    }
}
