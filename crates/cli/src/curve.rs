//! The learning curve: crawl quality against the number of sampled pages, drawn as SVG.

use std::path::Path;

use anyhow::{Context, Result};
use plotters::prelude::*;

/// One point of the curve: means over families and seeds at one sample size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurvePoint {
    pub samples: usize,
    /// Coverage of valuable pages, percent.
    pub coverage: f64,
    /// Invalid fetches, percent of fetches.
    pub invalid: f64,
    /// Duplicate fetches, percent of fetches.
    pub duplicate: f64,
    /// Worst coverage over the runs at this size, percent.
    pub worst_coverage: f64,
}

/// Draws the curve to `path`: coverage (mean and worst) on the left axis, invalid and duplicate
/// shares on the right, both in percent.
pub fn draw(points: &[CurvePoint], path: &Path) -> Result<()> {
    let root = SVGBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE)
        .context("cannot draw the learning curve")?;
    let largest = points
        .iter()
        .map(|point| point.samples)
        .max()
        .unwrap_or(1000) as f64;
    let worst_share = points
        .iter()
        .map(|point| point.invalid.max(point.duplicate))
        .fold(1.0f64, f64::max);
    let lowest_coverage = points
        .iter()
        .map(|point| point.worst_coverage)
        .fold(100.0f64, f64::min)
        .min(90.0);
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "trawl learning curve: crawl quality against sampled pages",
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .right_y_label_area_size(60)
        .build_cartesian_2d(0f64..largest * 1.05, (lowest_coverage - 2.0)..100.5)
        .context("cannot lay out the learning curve")?
        .set_secondary_coord(0f64..largest * 1.05, 0f64..worst_share * 1.2);
    chart
        .configure_mesh()
        .x_desc("pages sampled")
        .y_desc("coverage of valuable pages (%)")
        .draw()
        .context("cannot draw the axes")?;
    chart
        .configure_secondary_axes()
        .y_desc("invalid / duplicate fetches (%)")
        .draw()
        .context("cannot draw the secondary axis")?;
    let series = |select: fn(&CurvePoint) -> f64| -> Vec<(f64, f64)> {
        points
            .iter()
            .map(|point| (point.samples as f64, select(point)))
            .collect()
    };
    chart
        .draw_series(LineSeries::new(
            series(|point| point.coverage),
            BLUE.stroke_width(3),
        ))
        .context("cannot draw the coverage line")?
        .label("coverage, mean")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(3)));
    chart
        .draw_series(LineSeries::new(
            series(|point| point.worst_coverage),
            BLUE.mix(0.5).stroke_width(1),
        ))
        .context("cannot draw the worst-coverage line")?
        .label("coverage, worst run")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.mix(0.5)));
    chart
        .draw_secondary_series(LineSeries::new(
            series(|point| point.invalid),
            RED.stroke_width(2),
        ))
        .context("cannot draw the invalid line")?
        .label("invalid fetches")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .draw_secondary_series(LineSeries::new(
            series(|point| point.duplicate),
            GREEN.stroke_width(2),
        ))
        .context("cannot draw the duplicate line")?
        .label("duplicate fetches")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], GREEN.stroke_width(2)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .context("cannot draw the legend")?;
    root.present()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
