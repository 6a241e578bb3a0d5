//! `trawl bench freshness`: policies against budgets, as a table and as plots.
//!
//! The table has one row per policy and budget with the stable stage's figures; the plots are
//! the list-wise paper's Fig. 6 and 7 (bandwidth utilisation, coverage and timeliness per day,
//! one line per policy, at one budget) and the delay each policy reaches against the budget.
//! Everything is returned as text (markdown, SVG); the command line writes the files.

use plotters::prelude::*;
use serde::{Deserialize, Serialize};

use super::{DayFigures, FreshnessError, Replay, StageFigures};

/// What the table and the plots show of one policy's run at one budget: kept as JSON beside a
/// sweep's table, so that runs made one policy at a time (a corpus sweep takes hours) are
/// tabled and plotted together afterwards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepRun {
    pub policy: String,
    pub budget_per_day: u32,
    /// The stable stage of all forums pooled.
    pub overall: StageFigures,
    /// The days of all forums pooled.
    pub days: Vec<DayFigures>,
}

impl From<&Replay> for SweepRun {
    fn from(replay: &Replay) -> Self {
        SweepRun {
            policy: replay.policy.clone(),
            budget_per_day: replay.budget_per_day,
            overall: replay.overall.clone(),
            days: replay.days.clone(),
        }
    }
}

impl SweepRun {
    /// The file name a sweep keeps the run under.
    pub fn file_name(&self) -> String {
        format!("{}-{}.json", self.policy, self.budget_per_day)
    }
}

/// Minutes, as the papers report delays.
fn minutes(seconds: f64) -> f64 {
    seconds / 60.0
}

/// The markdown table of `replays` (one row each, in the order given).
pub fn table(replays: &[SweepRun]) -> String {
    let mut text = String::from(
        "| policy | budget/day | mean delay (min) | p95 delay (min) | new threads listed, mean (min) | replies, mean (min) | coverage | posts lost | utilisation | index / post fetches |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for replay in replays {
        let stage = &replay.overall;
        text.push_str(&format!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.4} | {} | {:.3} | {} / {} |\n",
            replay.policy,
            replay.budget_per_day,
            minutes(stage.mean_delay_s),
            minutes(stage.p95_delay_s),
            minutes(stage.index.mean_delay_s),
            minutes(stage.post.mean_delay_s),
            stage.coverage,
            stage.posts_lost,
            stage.utilisation,
            stage.index.fetches,
            stage.post.fetches,
        ));
    }
    text
}

/// A figure of the days to plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DailyFigure {
    Utilisation,
    Coverage,
    /// Mean delay of the posts written that day, in minutes.
    Timeliness,
}

impl DailyFigure {
    pub const ALL: [DailyFigure; 3] = [
        DailyFigure::Utilisation,
        DailyFigure::Coverage,
        DailyFigure::Timeliness,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DailyFigure::Utilisation => "utilisation",
            DailyFigure::Coverage => "coverage",
            DailyFigure::Timeliness => "timeliness",
        }
    }

    fn axis(self) -> &'static str {
        match self {
            DailyFigure::Utilisation => "bandwidth utilisation",
            DailyFigure::Coverage => "coverage",
            DailyFigure::Timeliness => "mean delay of the day's posts (min, log)",
        }
    }

    fn of(self, day: &super::DayFigures) -> f64 {
        match self {
            DailyFigure::Utilisation => day.utilisation,
            DailyFigure::Coverage => day.coverage,
            DailyFigure::Timeliness => minutes(day.mean_delay_s).max(0.1),
        }
    }
}

fn colour(index: usize) -> RGBColor {
    const COLOURS: [RGBColor; 16] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
        RGBColor(0, 0, 0),
        RGBColor(174, 199, 232),
        RGBColor(255, 187, 120),
        RGBColor(152, 223, 138),
        RGBColor(255, 152, 150),
        RGBColor(197, 176, 213),
    ];
    COLOURS[index % COLOURS.len()]
}

fn plot_error(error: impl std::fmt::Display) -> FreshnessError {
    FreshnessError::Plot(error.to_string())
}

/// One figure per day, a line per policy, for the replays at `budget`.
pub fn daily_plot(
    replays: &[SweepRun],
    budget: u32,
    figure: DailyFigure,
) -> Result<String, FreshnessError> {
    let chosen: Vec<&SweepRun> = replays
        .iter()
        .filter(|replay| replay.budget_per_day == budget)
        .collect();
    let days = chosen
        .iter()
        .map(|replay| replay.days.len())
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let caption = format!("{} per day at {budget} fetches a day", figure.name());
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(caption, ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .right_y_label_area_size(10);
        let series = |replay: &SweepRun| -> Vec<(f64, f64)> {
            replay
                .days
                .iter()
                .map(|day| (f64::from(day.day), figure.of(day)))
                .collect()
        };
        match figure {
            DailyFigure::Timeliness => {
                let highest = chosen
                    .iter()
                    .flat_map(|replay| replay.days.iter().map(|day| figure.of(day)))
                    .fold(1.0f64, f64::max);
                let mut chart = builder
                    .build_cartesian_2d(1f64..days, (0.1f64..highest * 1.5).log_scale())
                    .map_err(plot_error)?;
                chart
                    .configure_mesh()
                    .x_desc("day")
                    .y_desc(figure.axis())
                    .draw()
                    .map_err(plot_error)?;
                for (index, replay) in chosen.iter().enumerate() {
                    let style = colour(index).stroke_width(2);
                    chart
                        .draw_series(LineSeries::new(series(replay), style))
                        .map_err(plot_error)?
                        .label(replay.policy.clone())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
                }
                chart
                    .configure_series_labels()
                    .background_style(WHITE.mix(0.8))
                    .border_style(BLACK)
                    .position(SeriesLabelPosition::UpperRight)
                    .draw()
                    .map_err(plot_error)?;
            }
            _ => {
                let mut chart = builder
                    .build_cartesian_2d(1f64..days, 0f64..1.02)
                    .map_err(plot_error)?;
                chart
                    .configure_mesh()
                    .x_desc("day")
                    .y_desc(figure.axis())
                    .draw()
                    .map_err(plot_error)?;
                for (index, replay) in chosen.iter().enumerate() {
                    let style = colour(index).stroke_width(2);
                    chart
                        .draw_series(LineSeries::new(series(replay), style))
                        .map_err(plot_error)?
                        .label(replay.policy.clone())
                        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
                }
                chart
                    .configure_series_labels()
                    .background_style(WHITE.mix(0.8))
                    .border_style(BLACK)
                    .position(SeriesLabelPosition::LowerRight)
                    .draw()
                    .map_err(plot_error)?;
            }
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// Mean delay of the stable stage against the budget, a line per policy (both axes log).
pub fn delay_against_budget_plot(replays: &[SweepRun]) -> Result<String, FreshnessError> {
    let mut policies: Vec<&str> = Vec::new();
    for replay in replays {
        if !policies.contains(&replay.policy.as_str()) {
            policies.push(&replay.policy);
        }
    }
    let budgets = replays
        .iter()
        .map(|replay| f64::from(replay.budget_per_day));
    let (low, high) = budgets.fold((f64::MAX, 1.0f64), |(low, high), budget| {
        (low.min(budget), high.max(budget))
    });
    let low = if low > high { 1.0 } else { low };
    let highest = replays
        .iter()
        .map(|replay| minutes(replay.overall.mean_delay_s))
        .fold(1.0f64, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "mean delay of the stable stage against the budget",
                ("sans-serif", 20),
            )
            .margin(15)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(
                (low * 0.8..high * 1.25).log_scale(),
                (0.1f64..highest * 1.5).log_scale(),
            )
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("fetches a day")
            .y_desc("mean delay (min)")
            .draw()
            .map_err(plot_error)?;
        for (index, policy) in policies.iter().enumerate() {
            let mut points: Vec<(f64, f64)> = replays
                .iter()
                .filter(|replay| replay.policy == *policy)
                .map(|replay| {
                    (
                        f64::from(replay.budget_per_day),
                        minutes(replay.overall.mean_delay_s).max(0.1),
                    )
                })
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let style = colour(index).stroke_width(2);
            chart
                .draw_series(LineSeries::new(points.clone(), style))
                .map_err(plot_error)?
                .label(policy.to_string())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|point| Circle::new(point, 3, style.filled())),
                )
                .map_err(plot_error)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
