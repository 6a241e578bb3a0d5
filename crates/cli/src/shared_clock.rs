//! The clock a command runs on: the wall clock, or an accelerated clock shared by every process
//! given the same three flags (`--clock-speed`, `--clock-origin`, `--clock-epoch`).
//!
//! A fleet of worker processes, and the simulated forums they keep fresh, must agree on what
//! time it is. Each process is handed the same origin (the simulated instant), epoch (the
//! wall-clock instant at which the clock reads the origin) and speed, and reads
//! `origin + speed × (wall now − epoch)`: no process has to start at a given moment, and one
//! started late (a worker taking over a killed one's sites) reads the same time as the others.
//! The database's own clock stays the wall clock: lease slices and due times are stored in wall
//! time, a simulated interval turned into wall time by dividing it by the speed.

use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use jiff::{SignedDuration, Timestamp};
use trawl_model::{Clock, SharedAcceleratedClock, SystemClock};

#[derive(Debug, Clone, Args)]
pub struct ClockArgs {
    /// Run on an accelerated clock shared with other processes: simulated seconds per wall-clock
    /// second (with --clock-origin and --clock-epoch; `trawl sim serve` forums served on the
    /// same clock change as it runs).
    #[arg(long, requires_all = ["clock_origin", "clock_epoch"])]
    pub clock_speed: Option<f64>,
    /// The simulated instant the shared clock reads at --clock-epoch (RFC 3339).
    #[arg(long, requires = "clock_speed")]
    pub clock_origin: Option<String>,
    /// The wall-clock instant at which the shared clock reads --clock-origin (RFC 3339).
    #[arg(long, requires = "clock_speed")]
    pub clock_epoch: Option<String>,
}

/// The clock a command runs on.
#[derive(Debug, Clone, Copy)]
pub enum RunClock {
    Wall(SystemClock),
    Shared(SharedAcceleratedClock),
}

impl ClockArgs {
    /// The clock the flags describe: the wall clock without them.
    pub fn clock(&self) -> Result<RunClock> {
        let Some(speed) = self.clock_speed else {
            return Ok(RunClock::Wall(SystemClock));
        };
        if !speed.is_finite() || speed <= 0.0 {
            bail!("--clock-speed must be a positive number of simulated seconds per second");
        }
        let instant = |flag: &str, text: &Option<String>| -> Result<Timestamp> {
            let text = text.as_deref().unwrap_or_default();
            text.parse::<Timestamp>()
                .with_context(|| format!("--{flag} is an RFC 3339 instant, not {text:?}"))
        };
        let origin = instant("clock-origin", &self.clock_origin)?;
        let epoch = instant("clock-epoch", &self.clock_epoch)?;
        Ok(RunClock::Shared(SharedAcceleratedClock::new(
            origin, epoch, speed,
        )))
    }
}

impl RunClock {
    /// How long on the wall clock `simulated` lasts on this clock (zero when negative).
    pub fn wall_duration(&self, simulated: SignedDuration) -> Duration {
        match self {
            RunClock::Wall(_) => Duration::try_from(simulated).unwrap_or(Duration::ZERO),
            RunClock::Shared(clock) => clock.wall_duration(simulated),
        }
    }

    /// Sleeps until `at` on this clock, in steps of at most `step` of the wall clock, calling
    /// `between` after each step; stops early when `between` says so (returns `false`).
    pub fn sleep_until(
        &self,
        at: Timestamp,
        step: Duration,
        mut between: impl FnMut() -> bool,
    ) -> bool {
        loop {
            let left = at.duration_since(self.now());
            if left.is_zero() || left.is_negative() {
                return true;
            }
            std::thread::sleep(self.wall_duration(left).min(step));
            if !between() {
                return false;
            }
        }
    }
}

/// How far behind its plan a run of fetches fell: at each wait for a planned fetch, how long
/// ago on the run's clock the fetch was due. A run that keeps up waits for instants still ahead
/// (or only just past, for fetches planned at one instant and made one after the other); a run
/// the machine cannot keep up with (an accelerated clock too fast for it) waits for instants
/// ever further behind. The benchmarks read it from the processes' logs.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Lag {
    /// Waits for a planned fetch, and those whose instant had already passed.
    pub waits: usize,
    pub late: usize,
    /// Σ and most of how long past their instants the late ones were, simulated seconds.
    pub total_seconds: f64,
    pub most_seconds: f64,
}

impl Lag {
    /// Counts one wait for a fetch due `at`, the clock reading `now`.
    pub fn wait_for(&mut self, at: Timestamp, now: Timestamp) {
        self.waits += 1;
        let behind = now.duration_since(at).as_secs_f64();
        if behind > 0.0 {
            self.late += 1;
            self.total_seconds += behind;
            self.most_seconds = self.most_seconds.max(behind);
        }
    }

    /// One phrase for a log line: `lag: W waits, L past due (mean M s, most X s)`, the mean and
    /// most in simulated seconds over every wait (a wait not past due counts as no lag).
    pub fn describe(&self) -> String {
        let mean = if self.waits == 0 {
            0.0
        } else {
            self.total_seconds / self.waits as f64
        };
        format!(
            "lag: {} waits, {} past due (mean {:.1} s, most {:.1} s)",
            self.waits, self.late, mean, self.most_seconds
        )
    }
}

impl Clock for RunClock {
    fn now(&self) -> Timestamp {
        match self {
            RunClock::Wall(clock) => clock.now(),
            RunClock::Shared(clock) => clock.now(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(speed: Option<f64>, origin: Option<&str>, epoch: Option<&str>, expected: &str) {
        let args = ClockArgs {
            clock_speed: speed,
            clock_origin: origin.map(str::to_string),
            clock_epoch: epoch.map(str::to_string),
        };
        let described = match args.clock() {
            Ok(RunClock::Wall(_)) => "wall".to_string(),
            Ok(RunClock::Shared(clock)) => {
                let later: Timestamp = "2026-11-27T19:00:10Z".parse().unwrap();
                format!("{} {}", clock.at_wall(later), clock.factor())
            }
            Err(error) => format!("error: {error}"),
        };
        assert!(described.starts_with(expected), "{described} for {args:?}");
    }

    fn check_lag(waits: &[(&str, &str)], expected: &str) {
        let mut lag = Lag::default();
        for (at, now) in waits {
            lag.wait_for(at.parse().unwrap(), now.parse().unwrap());
        }
        assert_eq!(lag.describe(), expected, "{waits:?}");
    }

    #[test]
    fn no_wait_is_no_lag() {
        check_lag(&[], "lag: 0 waits, 0 past due (mean 0.0 s, most 0.0 s)");
    }

    #[test]
    fn waits_for_instants_ahead_are_not_late() {
        check_lag(
            &[
                ("2026-01-01T00:01:00Z", "2026-01-01T00:00:00Z"),
                ("2026-01-01T00:02:00Z", "2026-01-01T00:02:00Z"),
            ],
            "lag: 2 waits, 0 past due (mean 0.0 s, most 0.0 s)",
        );
    }

    #[test]
    fn late_waits_count_their_lateness_over_all_waits() {
        // 30 s and 90 s late, and one on time: 120 s over three waits.
        check_lag(
            &[
                ("2026-01-01T00:00:00Z", "2026-01-01T00:00:30Z"),
                ("2026-01-01T00:05:00Z", "2026-01-01T00:04:00Z"),
                ("2026-01-01T00:10:00Z", "2026-01-01T00:11:30Z"),
            ],
            "lag: 3 waits, 2 past due (mean 40.0 s, most 90.0 s)",
        );
    }

    #[test]
    fn no_flags_is_the_wall_clock() {
        check(None, None, None, "wall");
    }

    #[test]
    fn the_three_flags_give_the_shared_clock() {
        // Ten wall seconds after the epoch at 360x are an hour after the origin.
        check(
            Some(360.0),
            Some("2025-01-01T00:00:00Z"),
            Some("2026-11-27T19:00:00Z"),
            "2025-01-01T01:00:00Z 360",
        );
    }

    #[test]
    fn a_speed_of_zero_or_an_unreadable_instant_is_refused() {
        check(
            Some(0.0),
            Some("2025-01-01T00:00:00Z"),
            Some("2026-11-27T19:00:00Z"),
            "error: --clock-speed",
        );
        check(
            Some(10.0),
            Some("yesterday"),
            Some("2026-11-27T19:00:00Z"),
            "error: --clock-origin",
        );
    }
}
