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
