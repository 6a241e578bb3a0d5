//! The closed forms checked two ways: numerically against each other, and against the mean
//! delay measured on simulated Poisson arrivals polled by the allocation.

use super::*;
use crate::policy::Credit;
use crate::random::SplitMix64;

const DAYS: f64 = 200.0;

/// Heavy-tailed rates per second, as forum boards have: the k-th of `count` posts
/// `per_day_total` shares in proportion to 1/k^1.2.
fn heavy_tailed_rates(count: usize, per_day_total: f64) -> Vec<f64> {
    let weights: Vec<f64> = (1..=count).map(|k| (k as f64).powf(-1.2)).collect();
    let sum: f64 = weights.iter().sum();
    weights
        .iter()
        .map(|weight| per_day_total * weight / sum / DAY)
        .collect()
}

/// Mean over all arrivals of the wait for the next poll of their list.
fn measured_mean_delay(arrivals: &[Vec<f64>], polls: &[Vec<f64>]) -> f64 {
    let (mut delay, mut count) = (0.0, 0usize);
    for (list_arrivals, list_polls) in arrivals.iter().zip(polls) {
        for &arrival in list_arrivals {
            let next = list_polls.partition_point(|&poll| poll < arrival);
            if let Some(&poll) = list_polls.get(next) {
                delay += poll - arrival;
                count += 1;
            }
        }
    }
    delay / count as f64
}

/// Evenly spaced polls at `frequency` per second from a random phase, a day past the horizon.
fn periodic_polls(random: &mut SplitMix64, frequency: f64, horizon: f64) -> Vec<f64> {
    let period = 1.0 / frequency;
    let mut time = random.unit() * period;
    let mut polls = Vec::new();
    while time < horizon + DAY {
        polls.push(time);
        time += period;
    }
    polls
}

/// Polls whose density follows per-bin frequencies over the day (the credit device the
/// policies use).
fn density_polls(random: &mut SplitMix64, frequencies: &[f64], horizon: f64) -> Vec<f64> {
    let bin_seconds = DAY / frequencies.len() as f64;
    let mut credit = Credit::with_phase(random.unit());
    let mut polls = Vec::new();
    let mut start = 0.0;
    while start < horizon + DAY {
        for &frequency in frequencies {
            credit.advance(start, bin_seconds, frequency, &mut polls);
            start += bin_seconds;
        }
    }
    polls
}

fn check_stationary(seed: u64, rates: &[f64], frequencies: &[f64], expected: f64) {
    let horizon = DAYS * DAY;
    let mut random = SplitMix64::new(seed);
    let arrivals: Vec<Vec<f64>> = rates
        .iter()
        .map(|&rate| random.poisson_arrivals(rate, horizon))
        .collect();
    let polls: Vec<Vec<f64>> = frequencies
        .iter()
        .map(|&frequency| periodic_polls(&mut random, frequency, horizon))
        .collect();
    let measured = measured_mean_delay(&arrivals, &polls);
    let formula = mean_delay(rates, frequencies);
    assert!(
        (formula - expected).abs() / expected < 1e-9,
        "formula {formula} vs closed form {expected}"
    );
    let error = (measured - expected).abs() / expected;
    assert!(
        error < 0.02,
        "measured {measured:.1} s, closed form {expected:.1} s ({:.1} %)",
        error * 100.0
    );
}

#[test]
fn stationary_closed_forms_match_simulated_poisson_arrivals() {
    // 40 lists sharing 400 records a day, 1,000 polls a day.
    let rates = heavy_tailed_rates(40, 400.0);
    let budget = 1000.0 / DAY;
    let uniform = uniform_mean_delay(rates.len(), budget);
    check_stationary(1, &rates, &uniform_allocation(rates.len(), budget), uniform);
    // Polling in proportion to the rate is no better than uniform polling.
    check_stationary(2, &rates, &proportional_allocation(&rates, budget), uniform);
    let optimum = square_root_mean_delay(&rates, budget);
    check_stationary(3, &rates, &square_root_allocation(&rates, budget), optimum);
    assert!(
        optimum < 0.8 * uniform,
        "√-polling {optimum} against uniform {uniform}"
    );
    // Equal rates: every allocation is the same, and the closed forms agree.
    let equal = vec![5.0 / DAY; 10];
    assert!((square_root_mean_delay(&equal, budget) - uniform_mean_delay(10, budget)).abs() < 1e-9);
}

#[test]
fn square_root_allocation_is_the_least_mean_delay_among_nearby_allocations() {
    let rates = heavy_tailed_rates(12, 300.0);
    let budget = 500.0 / DAY;
    let best = square_root_allocation(&rates, budget);
    let least = mean_delay(&rates, &best);
    let mut random = SplitMix64::new(7);
    for _ in 0..200 {
        // Move budget between two lists: the delay can only grow.
        let (from, to) = (
            (random.unit() * 12.0) as usize,
            (random.unit() * 12.0) as usize,
        );
        if from == to {
            continue;
        }
        let mut moved = best.clone();
        let amount = best[from] * 0.3 * random.unit();
        moved[from] -= amount;
        moved[to] += amount;
        assert!(mean_delay(&rates, &moved) >= least - 1e-9);
    }
}

/// A daily cycle with quiet nights: 0.25 of the mean rate from 00:00 to 08:00, the rest spread
/// over the day, shifted by `shift` hours per list so that lists peak at different hours.
fn daily_rates(per_day: f64, shift: usize) -> DailyRates {
    let shape: Vec<f64> = (0..24)
        .map(|hour| {
            if (hour + 24 - shift) % 24 < 8 {
                0.25
            } else {
                1.375
            }
        })
        .collect();
    shape.iter().map(|weight| per_day * weight / DAY).collect()
}

fn check_time_varying(
    seed: u64,
    rates: &[DailyRates],
    frequencies: &[Vec<f64>],
    expected_total: f64,
) {
    let horizon = DAYS * DAY;
    let mut random = SplitMix64::new(seed);
    let arrivals: Vec<Vec<f64>> = rates
        .iter()
        .map(|unit| random.daily_arrivals(unit, horizon))
        .collect();
    let polls: Vec<Vec<f64>> = frequencies
        .iter()
        .map(|unit| density_polls(&mut random, unit, horizon))
        .collect();
    let per_day: f64 = rates.iter().flatten().sum::<f64>() * DAY / 24.0;
    let expected_mean = expected_total / per_day;
    let formula = total_delay_per_day(rates, frequencies) / per_day;
    assert!(
        (formula - expected_mean).abs() / expected_mean < 1e-6,
        "formula {formula} vs {expected_mean}"
    );
    let measured = measured_mean_delay(&arrivals, &polls);
    let error = (measured - expected_mean).abs() / expected_mean;
    assert!(
        error < 0.02,
        "measured {measured:.1} s, closed form {expected_mean:.1} s ({:.1} %)",
        error * 100.0
    );
}

#[test]
fn time_varying_optimum_matches_its_closed_form_and_simulation() {
    let totals = heavy_tailed_rates(16, 320.0);
    let rates: Vec<DailyRates> = totals
        .iter()
        .enumerate()
        .map(|(index, rate)| daily_rates(rate * DAY, (index * 5) % 24))
        .collect();
    let budget = 900.0;
    let unbounded = vec![FrequencyBounds::NONE; rates.len()];
    let allocation = time_varying_allocation(&rates, &unbounded, budget);
    // Without bounds the bisection lands on the closed form fᵢₖ = B√λᵢₖ / (L·Σ√λ).
    let bin_seconds = DAY / 24.0;
    let roots: f64 = rates.iter().flatten().map(|rate| rate.sqrt()).sum::<f64>();
    for (unit, polls) in rates.iter().zip(&allocation.frequencies) {
        for (rate, frequency) in unit.iter().zip(polls) {
            let closed = budget * rate.sqrt() / (bin_seconds * roots);
            assert!(
                (frequency - closed).abs() / closed < 1e-6,
                "{frequency} vs {closed}"
            );
        }
    }
    let least = least_total_delay_per_day(&rates, budget);
    check_time_varying(11, &rates, &allocation.frequencies, least);

    // The stationary √-allocation (even over the day) and the board paper's allocation (polls
    // per list in proportion to its rate, placed in proportion to its hourly rate) both do worse.
    let daily_totals: Vec<f64> = rates
        .iter()
        .map(|unit| unit.iter().sum::<f64>() / 24.0)
        .collect();
    let even: Vec<Vec<f64>> = square_root_allocation(&daily_totals, budget / DAY)
        .into_iter()
        .map(|frequency| vec![frequency; 24])
        .collect();
    let proportional: Vec<Vec<f64>> = rates
        .iter()
        .map(|unit| {
            let total: f64 = rates.iter().flatten().sum();
            unit.iter()
                .map(|rate| budget / DAY * 24.0 * rate / total)
                .collect()
        })
        .collect();
    let even_delay = total_delay_per_day(&rates, &even);
    let proportional_delay = total_delay_per_day(&rates, &proportional);
    assert!(
        least < even_delay && even_delay < proportional_delay,
        "{least} {even_delay} {proportional_delay}"
    );
    check_time_varying(12, &rates, &proportional, proportional_delay);
}

#[test]
fn bounds_hold_and_the_budget_is_spent_exactly() {
    let rates: Vec<DailyRates> = vec![daily_rates(200.0, 0), daily_rates(1.0, 3), vec![0.0; 24]];
    let one_a_day = 1.0 / DAY;
    let bounds = vec![
        FrequencyBounds {
            floor: one_a_day,
            ceiling: 30.0 / DAY * 24.0 / 24.0,
        },
        FrequencyBounds {
            floor: one_a_day,
            ceiling: f64::INFINITY,
        },
        FrequencyBounds {
            floor: 4.0 * one_a_day,
            ceiling: f64::INFINITY,
        },
    ];
    let budget = 100.0;
    let allocation = time_varying_allocation(&rates, &bounds, budget);
    let spent: f64 = allocation.frequencies.iter().flatten().sum::<f64>() * DAY / 24.0;
    assert!((spent - budget).abs() < 1e-6 * budget, "spent {spent}");
    for (unit, bound) in allocation.frequencies.iter().zip(&bounds) {
        for &frequency in unit {
            assert!(
                frequency >= bound.floor * (1.0 - 1e-9)
                    && frequency <= bound.ceiling * (1.0 + 1e-9)
            );
        }
    }
    // The list without arrivals is polled at its floor only; the busy one hits its ceiling.
    assert!(
        allocation.frequencies[2]
            .iter()
            .all(|&frequency| (frequency - 4.0 * one_a_day).abs() < 1e-15)
    );
    assert!(
        allocation.frequencies[0]
            .iter()
            .any(|&frequency| (frequency - 30.0 / DAY).abs() < 1e-12)
    );
    // Floors above the budget are scaled down to it.
    let starved = time_varying_allocation(&rates, &bounds, 3.0);
    let spent: f64 = starved.frequencies.iter().flatten().sum::<f64>() * DAY / 24.0;
    assert!((spent - 3.0).abs() < 1e-9, "spent {spent}");
}

/// One bin per unit: `cells` are (records per second, polls per second).
fn check_quantile(cells: &[(f64, f64)], quantile: f64, expected: f64) {
    let rates: Vec<DailyRates> = cells.iter().map(|cell| vec![cell.0]).collect();
    let frequencies: Vec<Vec<f64>> = cells.iter().map(|cell| vec![cell.1]).collect();
    let found = delay_quantile(&rates, &frequencies, quantile);
    if expected.is_infinite() {
        assert!(found.is_infinite(), "{cells:?} at {quantile}: {found}");
    } else {
        assert!(
            (found - expected).abs() <= 1e-6 * expected.max(1.0),
            "{cells:?} at {quantile}: {found} against {expected}"
        );
    }
}

#[test]
fn the_delay_quantile_mixes_the_uniform_waits_of_every_unit_and_bin() {
    // One list polled every 600 s: waits uniform up to 600 s.
    check_quantile(&[(0.01, 1.0 / 600.0)], 0.95, 570.0);
    check_quantile(&[(0.01, 1.0 / 600.0)], 0.5, 300.0);
    // Equal records on gaps of 600 and 1,800 s: 0.5 + 0.5·x/1800 = 0.95 at x = 1,620 s.
    check_quantile(&[(0.01, 1.0 / 600.0), (0.01, 1.0 / 1800.0)], 0.95, 1620.0);
    // Records weigh, polls do not: nine in ten records on the 600 s gap.
    check_quantile(&[(0.09, 1.0 / 600.0), (0.01, 1.0 / 1800.0)], 0.95, 900.0);
    // Records never polled: beyond the quantile they leave it finite, within it infinite.
    check_quantile(&[(0.96, 1.0 / 600.0), (0.04, 0.0)], 0.95, 593.75);
    check_quantile(&[(0.9, 1.0 / 600.0), (0.1, 0.0)], 0.95, f64::INFINITY);
    // No records: nothing waits.
    check_quantile(&[(0.0, 1.0 / 600.0)], 0.95, 0.0);
}

#[test]
fn the_time_varying_mean_delay_is_the_total_over_the_records() {
    // Two bins: 10 records an hour polled every 600 s, then 30 an hour polled every 1,200 s.
    let rates = vec![vec![10.0 / 3600.0, 30.0 / 3600.0]];
    let frequencies = vec![vec![1.0 / 600.0, 1.0 / 1200.0]];
    let mean = time_varying_mean_delay(&rates, &frequencies);
    let expected = (10.0 * 300.0 + 30.0 * 600.0) / 40.0;
    assert!((mean - expected).abs() < 1e-9, "{mean} against {expected}");
}
