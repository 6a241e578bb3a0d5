//! The freshness plots, drawn as SVG on the server with plotters, as the freshness benchmark
//! draws its own (`trawl bench freshness`): the same library, sans-serif text, white ground and
//! lines two pixels wide, so a picture in the console reads like one in docs/freshness.
//!
//! Each function returns the SVG text or, when plotters refuses (it does not for the ranges
//! made here, but its errors are values), the reason, which the view prints in the plot's place.

use plotters::prelude::*;
use trawl_watch::snapshot::{DayFreshness, Delays};

const WIDTH: u32 = 720;
const HEIGHT: u32 = 360;
const MINUTE_IN_HOURS: f64 = 1.0 / 60.0;

fn plot_error(error: impl std::fmt::Display) -> String {
    format!("the plot could not be drawn: {error}")
}

fn series_style(index: usize) -> ShapeStyle {
    let colour = match index {
        0 => RGBColor(31, 111, 235),
        1 => RGBColor(214, 39, 40),
        _ => RGBColor(44, 160, 44),
    };
    colour.stroke_width(2)
}

/// The share of new posts stored within each delay: the distribution as a cumulative curve,
/// delays in hours on a log axis (a delay under a minute is drawn at a minute).
pub fn delay_distribution(delays: &Delays, caption: &str) -> Result<String, String> {
    let hours: Vec<f64> = delays
        .seconds()
        .iter()
        .map(|&seconds| (seconds as f64 / 3600.0).max(MINUTE_IN_HOURS))
        .collect();
    let longest = hours.last().copied().unwrap_or(1.0).max(1.0);
    let count = hours.len().max(1) as f64;
    let points: Vec<(f64, f64)> = hours
        .iter()
        .enumerate()
        .map(|(index, &delay)| (delay, (index + 1) as f64 / count))
        .collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d((MINUTE_IN_HOURS..longest * 1.5).log_scale(), 0f64..1.02)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("delay from writing to storing, hours")
            .y_desc("share of new posts")
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(LineSeries::new(points, series_style(0)))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// One figure of a day.
type DayFigure = fn(&DayFreshness) -> usize;

/// Fetches per day, discovery and refresh apart.
pub fn fetches_per_day(days: &[DayFreshness]) -> Result<String, String> {
    let highest = days
        .iter()
        .map(|day| day.spent.discovery.max(day.spent.refresh))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let last_day = days.len().max(2) as f64;
    let series = |pick: DayFigure| -> Vec<(f64, f64)> {
        days.iter()
            .map(|day| (f64::from(day.day + 1), pick(day) as f64))
            .collect()
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("fetches per day", ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(1f64..last_day, 0f64..highest * 1.1)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("day of the watch")
            .y_desc("fetches")
            .draw()
            .map_err(plot_error)?;
        let named: [(&str, DayFigure); 2] = [
            ("discovery", |day| day.spent.discovery),
            ("refresh", |day| day.spent.refresh),
        ];
        for (index, (name, pick)) in named.into_iter().enumerate() {
            let style = series_style(index);
            chart
                .draw_series(LineSeries::new(series(pick), style).point_size(3))
                .map_err(plot_error)?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
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

/// The mean delay of each day's new posts, hours on a log axis, as the benchmark's daily
/// timeliness; days that stored no new post have no point.
pub fn mean_delay_per_day(days: &[DayFreshness]) -> Result<String, String> {
    let points: Vec<(f64, f64)> = days
        .iter()
        .filter_map(|day| {
            let mean = day.mean_delay()?;
            Some((f64::from(day.day + 1), (mean / 3600.0).max(MINUTE_IN_HOURS)))
        })
        .collect();
    let highest = points.iter().map(|&(_, y)| y).fold(1.0f64, f64::max);
    let last_day = days.len().max(2) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("mean delay of new posts per day", ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(1f64..last_day, (MINUTE_IN_HOURS..highest * 1.5).log_scale())
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("day of the watch")
            .y_desc("mean delay, hours")
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(LineSeries::new(points, series_style(0)).point_size(3))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// A board's polls over the watch: how many so far, against hours since the watch's first
/// fetch, one step per poll.
pub fn polls_over_time(
    polls: &[jiff::Timestamp],
    first_fetch: jiff::Timestamp,
    last_fetch: jiff::Timestamp,
) -> Result<String, String> {
    let hours_since =
        |at: jiff::Timestamp| (at.as_second() - first_fetch.as_second()) as f64 / 3600.0;
    let span = hours_since(last_fetch).max(1.0);
    let mut points = vec![(0.0, 0.0)];
    for (index, &poll) in polls.iter().enumerate() {
        let hour = hours_since(poll);
        points.push((hour, index as f64));
        points.push((hour, (index + 1) as f64));
    }
    points.push((span, polls.len() as f64));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("polls of the board", ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..span, 0f64..(polls.len().max(1) as f64) * 1.1)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("hours since the watch's first fetch")
            .y_desc("polls so far")
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(LineSeries::new(points, series_style(0)))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delays(seconds: &[i64]) -> Delays {
        Delays::from_seconds(seconds.to_vec())
    }

    /// Each plot is an SVG picture holding its caption and axis words.
    fn check(drawn: Result<String, String>, words: &[&str]) {
        let svg = drawn.expect("the plot is drawn");
        assert!(svg.starts_with("<svg"), "{svg}");
        for word in words {
            assert!(svg.contains(word), "{word} missing");
        }
    }

    #[test]
    fn the_delay_distribution_is_drawn_with_or_without_delays() {
        check(
            delay_distribution(&delays(&[0, 60, 3600, 86_400]), "delays"),
            &["delays", "share of new posts", "<polyline"],
        );
        check(delay_distribution(&delays(&[]), "none yet"), &["none yet"]);
    }

    #[test]
    fn the_daily_plots_are_drawn() {
        let days = vec![
            DayFreshness {
                day: 0,
                new_posts: 2,
                delay_seconds: 7200,
                ..DayFreshness::default()
            },
            DayFreshness {
                day: 1,
                ..DayFreshness::default()
            },
        ];
        check(fetches_per_day(&days), &["discovery", "refresh"]);
        check(mean_delay_per_day(&days), &["mean delay, hours"]);
        check(fetches_per_day(&[]), &["fetches per day"]);
        check(mean_delay_per_day(&[]), &["mean delay"]);
    }

    #[test]
    fn polls_are_drawn_as_steps() {
        let first: jiff::Timestamp = "2024-01-01T00:00:00Z".parse().unwrap();
        let polls = vec![first, "2024-01-01T05:00:00Z".parse().unwrap()];
        check(
            polls_over_time(&polls, first, "2024-01-02T00:00:00Z".parse().unwrap()),
            &["polls so far"],
        );
        check(polls_over_time(&[], first, first), &["polls of the board"]);
    }
}
