//! The optimal allocation of polls for mean delay, stationary and over the day.
//!
//! Take N lists, records arriving on list i as a Poisson process of rate λᵢ (Λ = Σλᵢ), and a
//! budget of B polls per unit time. Poll list i evenly at frequency fᵢ: a record waits for the
//! next poll, on average half the gap, 1/(2fᵢ). The mean delay over all records is
//!
//! ```text
//!     D(f) = Σᵢ λᵢ/(2fᵢ) / Λ,      subject to Σᵢ fᵢ = B.
//! ```
//!
//! Uniform polling (fᵢ = B/N) gives D = N/(2B). Polling in proportion to the rate (fᵢ = Bλᵢ/Λ)
//! gives Σᵢ λᵢ·Λ/(2Bλᵢ)/Λ = N/(2B) too: no better, the slow lists lose what the fast ones gain.
//! The Lagrangian λᵢ/(2fᵢ²) = μ gives fᵢ ∝ √λᵢ and D* = (Σᵢ√λᵢ)²/(2BΛ), which by Cauchy-Schwarz
//! is never above N/(2B) and is far below it when rates are heavy-tailed, as forum boards are.
//!
//! When rates vary over the day, λᵢ(t), the same argument holds instant by instant (a record
//! arriving at t waits about 1/(2fᵢ(t)) when polls are locally even): minimise
//! Σᵢ∫λᵢ(t)/(2fᵢ(t)) dt subject to Σᵢ∫fᵢ(t) dt = B, so fᵢ(t) = √(λᵢ(t)/(2μ)) with one
//! multiplier μ for all lists and hours, and the least total delay per day is (Σᵢ∫√λᵢ)²/(2B).
//! This is the structure of the Lagrangian solutions of Azar et al. (PNAS 2018) and Kolobov et
//! al. (2019) for their freshness objectives: a per-unit optimality condition tied together by one
//! multiplier found by bisection. Bounds on fᵢ(t) (at least one poll a day so nothing is lost,
//! at most a politeness ceiling) make the closed form inexact, and the bisection on μ is what
//! [`time_varying_allocation`] does; without bounds it returns the closed form.

/// Seconds in a day.
pub const DAY: f64 = 86_400.0;

/// fᵢ = B/N.
pub fn uniform_allocation(count: usize, budget: f64) -> Vec<f64> {
    vec![budget / count.max(1) as f64; count]
}

/// fᵢ = Bλᵢ/Λ.
pub fn proportional_allocation(rates: &[f64], budget: f64) -> Vec<f64> {
    let total: f64 = rates.iter().sum();
    rates.iter().map(|rate| budget * rate / total).collect()
}

/// fᵢ = B√λᵢ/Σ√λⱼ, the optimum for mean delay.
pub fn square_root_allocation(rates: &[f64], budget: f64) -> Vec<f64> {
    let total: f64 = rates.iter().map(|rate| rate.sqrt()).sum();
    rates
        .iter()
        .map(|rate| budget * rate.sqrt() / total)
        .collect()
}

/// Mean delay per record of evenly spaced polls at `frequencies` under Poisson `rates`.
pub fn mean_delay(rates: &[f64], frequencies: &[f64]) -> f64 {
    let total: f64 = rates.iter().sum();
    let delay: f64 = rates
        .iter()
        .zip(frequencies)
        .map(|(rate, frequency)| rate / (2.0 * frequency))
        .sum();
    delay / total
}

/// N/(2B): uniform (and rate-proportional) polling.
pub fn uniform_mean_delay(count: usize, budget: f64) -> f64 {
    count as f64 / (2.0 * budget)
}

/// (Σ√λ)²/(2BΛ): square-root polling, the least mean delay.
pub fn square_root_mean_delay(rates: &[f64], budget: f64) -> f64 {
    let roots: f64 = rates.iter().map(|rate| rate.sqrt()).sum();
    let total: f64 = rates.iter().sum();
    roots * roots / (2.0 * budget * total)
}

/// Rates over the day: `bins[k]` is the arrival rate (per second) during the k-th of equal bins
/// covering 24 hours.
pub type DailyRates = Vec<f64>;

/// Poll frequencies per unit and bin (per second), and the multiplier μ that ties them.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeVaryingAllocation {
    pub multiplier: f64,
    pub frequencies: Vec<Vec<f64>>,
}

/// Bounds on a unit's poll frequency, per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrequencyBounds {
    pub floor: f64,
    pub ceiling: f64,
}

impl FrequencyBounds {
    pub const NONE: FrequencyBounds = FrequencyBounds {
        floor: 0.0,
        ceiling: f64::INFINITY,
    };
}

/// The allocation minimising total delay per day for `rates` (every unit with the same number of
/// bins) with `budget` polls a day, fᵢₖ = clamp(√(λᵢₖ/(2μ)), floor, ceiling), μ by bisection so
/// that the polls add up to the budget. When the floors alone exceed the budget they are scaled
/// down to fit.
pub fn time_varying_allocation(
    rates: &[DailyRates],
    bounds: &[FrequencyBounds],
    budget_per_day: f64,
) -> TimeVaryingAllocation {
    let bins = rates.first().map_or(0, Vec::len);
    if bins == 0 || budget_per_day <= 0.0 {
        return TimeVaryingAllocation {
            multiplier: f64::INFINITY,
            frequencies: rates.iter().map(|unit| vec![0.0; unit.len()]).collect(),
        };
    }
    let bin_seconds = DAY / bins as f64;
    let floors: f64 = bounds.iter().map(|bound| bound.floor * DAY).sum();
    if floors >= budget_per_day {
        let scale = budget_per_day / floors;
        return TimeVaryingAllocation {
            multiplier: f64::INFINITY,
            frequencies: bounds
                .iter()
                .map(|bound| vec![bound.floor * scale; bins])
                .collect(),
        };
    }
    let frequency_at = |rate: f64, multiplier: f64, bound: &FrequencyBounds| {
        (rate / (2.0 * multiplier))
            .sqrt()
            .clamp(bound.floor, bound.ceiling)
    };
    let polls_at = |multiplier: f64| -> f64 {
        rates
            .iter()
            .zip(bounds)
            .map(|(unit, bound)| {
                unit.iter()
                    .map(|&rate| frequency_at(rate, multiplier, bound))
                    .sum::<f64>()
            })
            .sum::<f64>()
            * bin_seconds
    };
    // Without bounds, μ = (Σ√λ·L)²/(2B²): start the bracket around it and widen as needed.
    let roots: f64 = rates.iter().flatten().map(|rate| rate.sqrt()).sum::<f64>() * bin_seconds;
    let guess = if roots > 0.0 {
        roots * roots / (2.0 * budget_per_day * budget_per_day)
    } else {
        1.0
    };
    let (mut low, mut high) = (guess, guess);
    while polls_at(low) < budget_per_day && low > f64::MIN_POSITIVE * 1e10 {
        low /= 4.0;
    }
    while polls_at(high) > budget_per_day && high < f64::MAX / 1e10 {
        high *= 4.0;
    }
    // Polls decrease as μ grows; bisect in the logarithm, as μ spans many orders of magnitude.
    for _ in 0..200 {
        let middle = (low * high).sqrt();
        if polls_at(middle) > budget_per_day {
            low = middle;
        } else {
            high = middle;
        }
        if high / low < 1.0 + 1e-12 {
            break;
        }
    }
    let multiplier = (low * high).sqrt();
    let frequencies = rates
        .iter()
        .zip(bounds)
        .map(|(unit, bound)| {
            unit.iter()
                .map(|&rate| frequency_at(rate, multiplier, bound))
                .collect()
        })
        .collect();
    TimeVaryingAllocation {
        multiplier,
        frequencies,
    }
}

/// Expected total delay per day (record-seconds) of an allocation: Σᵢₖ λᵢₖ/(2fᵢₖ)·L.
pub fn total_delay_per_day(rates: &[DailyRates], frequencies: &[Vec<f64>]) -> f64 {
    rates
        .iter()
        .zip(frequencies)
        .map(|(unit, polls)| {
            let bin_seconds = DAY / unit.len().max(1) as f64;
            unit.iter()
                .zip(polls)
                .map(|(&rate, &frequency)| {
                    if rate == 0.0 {
                        0.0
                    } else {
                        rate / (2.0 * frequency) * bin_seconds
                    }
                })
                .sum::<f64>()
        })
        .sum()
}

/// Mean delay per record of an allocation over the day: total delay over records.
pub fn time_varying_mean_delay(rates: &[DailyRates], frequencies: &[Vec<f64>]) -> f64 {
    let records: f64 = rates
        .iter()
        .map(|unit| unit.iter().sum::<f64>() * DAY / unit.len().max(1) as f64)
        .sum();
    if records <= 0.0 {
        return 0.0;
    }
    total_delay_per_day(rates, frequencies) / records
}

/// The delay below which a share `quantile` of the records waits under an allocation: a record
/// of unit i arriving in bin k waits for the next poll, uniformly up to the gap 1/fᵢₖ, so the
/// share waiting at most x is Σᵢₖ wᵢₖ·min(x·fᵢₖ, 1) with wᵢₖ the records' shares; the quantile
/// is found by bisection on x. A unit and bin with records and no polls never serves them:
/// infinity when they are more than the rest of the quantile.
pub fn delay_quantile(rates: &[DailyRates], frequencies: &[Vec<f64>], quantile: f64) -> f64 {
    let mut cells: Vec<(f64, f64)> = Vec::new();
    for (unit, polls) in rates.iter().zip(frequencies) {
        for (&rate, &frequency) in unit.iter().zip(polls) {
            if rate > 0.0 {
                cells.push((rate, frequency));
            }
        }
    }
    let total: f64 = cells.iter().map(|cell| cell.0).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let served_within = |delay: f64| -> f64 {
        cells
            .iter()
            .map(|&(rate, frequency)| rate * (delay * frequency).min(1.0))
            .sum::<f64>()
            / total
    };
    let longest_gap = cells
        .iter()
        .filter(|cell| cell.1 > 0.0)
        .map(|&(_, frequency)| 1.0 / frequency)
        .fold(0.0, f64::max);
    if served_within(longest_gap) < quantile {
        return f64::INFINITY;
    }
    let (mut low, mut high) = (0.0, longest_gap);
    for _ in 0..100 {
        let middle = 0.5 * (low + high);
        if served_within(middle) < quantile {
            low = middle;
        } else {
            high = middle;
        }
        if high - low <= 1e-9 * high {
            break;
        }
    }
    0.5 * (low + high)
}

/// The least total delay per day, (Σᵢ∫√λᵢ)²/(2B).
pub fn least_total_delay_per_day(rates: &[DailyRates], budget_per_day: f64) -> f64 {
    let roots: f64 = rates
        .iter()
        .map(|unit| {
            let bin_seconds = DAY / unit.len().max(1) as f64;
            unit.iter().map(|rate| rate.sqrt()).sum::<f64>() * bin_seconds
        })
        .sum();
    roots * roots / (2.0 * budget_per_day)
}

#[cfg(test)]
mod tests;
