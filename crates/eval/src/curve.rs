//! The learning curve: crawl quality against the number of sampled pages, drawn as SVG.

use std::path::Path;

use crate::error::{EvalError, Result};
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

/// One crawl of the learning benchmark: how many pages were sampled and what the crawl with the
/// learned plan achieved, in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LearningRun {
    pub samples: usize,
    pub coverage: f64,
    /// Invalid and endless fetches, percent of fetches.
    pub invalid: f64,
    pub duplicate: f64,
}

/// The curve through `runs`: one point per sample size, the means of the runs at that size and
/// their worst coverage, in increasing sample size.
pub fn points_of(runs: &[LearningRun]) -> Vec<CurvePoint> {
    let mut sizes: Vec<usize> = runs.iter().map(|run| run.samples).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .iter()
        .map(|size| {
            let at_size: Vec<&LearningRun> =
                runs.iter().filter(|run| run.samples == *size).collect();
            let mean = |select: fn(&LearningRun) -> f64| {
                at_size.iter().map(|run| select(run)).sum::<f64>() / at_size.len() as f64
            };
            CurvePoint {
                samples: *size,
                coverage: mean(|run| run.coverage),
                invalid: mean(|run| run.invalid),
                duplicate: mean(|run| run.duplicate),
                worst_coverage: at_size.iter().map(|run| run.coverage).fold(100.0, f64::min),
            }
        })
        .collect()
}

/// The error for a step of drawing that failed: the plotting library's errors differ in type by
/// backend, so only their message is kept.
fn plot_error<E: std::fmt::Display>(what: impl Into<String>) -> impl FnOnce(E) -> EvalError {
    let what = what.into();
    move |error| EvalError::Plot {
        what,
        message: error.to_string(),
    }
}

/// The picture's size in pixels.
const SIZE: (u32, u32) = (900, 520);

/// Draws the curve to `path`: coverage (mean and worst) on the left axis, invalid and duplicate
/// shares on the right, both in percent.
pub fn draw(points: &[CurvePoint], path: &Path) -> Result<()> {
    plot(
        points,
        SVGBackend::new(path, SIZE).into_drawing_area(),
        &format!("write {}", path.display()),
    )
}

/// The curve [`draw`] draws, as the SVG picture's text (for a page that holds it inline).
pub fn svg(points: &[CurvePoint]) -> Result<String> {
    let mut text = String::new();
    plot(
        points,
        SVGBackend::with_string(&mut text, SIZE).into_drawing_area(),
        "finish the learning curve",
    )?;
    Ok(text)
}

/// Draws the curve on `root`; `presenting` says what finishing the picture does, for its error.
fn plot<Backend: DrawingBackend>(
    points: &[CurvePoint],
    root: DrawingArea<Backend, plotters::coord::Shift>,
    presenting: &str,
) -> Result<()> {
    root.fill(&WHITE)
        .map_err(plot_error("draw the learning curve"))?;
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
        .map_err(plot_error("lay out the learning curve"))?
        .set_secondary_coord(0f64..largest * 1.05, 0f64..worst_share * 1.2);
    chart
        .configure_mesh()
        .x_desc("pages sampled")
        .y_desc("coverage of valuable pages (%)")
        .draw()
        .map_err(plot_error("draw the axes"))?;
    chart
        .configure_secondary_axes()
        .y_desc("invalid / duplicate fetches (%)")
        .draw()
        .map_err(plot_error("draw the secondary axis"))?;
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
        .map_err(plot_error("draw the coverage line"))?
        .label("coverage, mean")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(3)));
    chart
        .draw_series(LineSeries::new(
            series(|point| point.worst_coverage),
            BLUE.mix(0.5).stroke_width(1),
        ))
        .map_err(plot_error("draw the worst-coverage line"))?
        .label("coverage, worst run")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.mix(0.5)));
    chart
        .draw_secondary_series(LineSeries::new(
            series(|point| point.invalid),
            RED.stroke_width(2),
        ))
        .map_err(plot_error("draw the invalid line"))?
        .label("invalid fetches")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED.stroke_width(2)));
    chart
        .draw_secondary_series(LineSeries::new(
            series(|point| point.duplicate),
            GREEN.stroke_width(2),
        ))
        .map_err(plot_error("draw the duplicate line"))?
        .label("duplicate fetches")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], GREEN.stroke_width(2)));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(plot_error("draw the legend"))?;
    root.present().map_err(plot_error(presenting))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(samples: usize, coverage: f64, invalid: f64, duplicate: f64) -> LearningRun {
        LearningRun {
            samples,
            coverage,
            invalid,
            duplicate,
        }
    }

    #[test]
    fn points_are_means_per_sample_size_with_the_worst_coverage() {
        let runs = [
            run(300, 100.0, 0.0, 1.0),
            run(100, 90.0, 2.0, 4.0),
            run(300, 98.0, 1.0, 0.0),
            run(100, 50.0, 0.0, 0.0),
        ];
        let points = points_of(&runs);
        assert_eq!(
            points,
            vec![
                CurvePoint {
                    samples: 100,
                    coverage: 70.0,
                    invalid: 1.0,
                    duplicate: 2.0,
                    worst_coverage: 50.0
                },
                CurvePoint {
                    samples: 300,
                    coverage: 99.0,
                    invalid: 0.5,
                    duplicate: 0.5,
                    worst_coverage: 98.0
                },
            ]
        );
    }

    #[test]
    fn the_curve_as_text_is_the_picture_drawn_to_a_file() {
        let points = points_of(&[run(100, 90.0, 2.0, 4.0), run(300, 99.0, 0.5, 0.5)]);
        let text = svg(&points).unwrap();
        assert!(text.starts_with("<svg"), "{text}");
        assert!(text.contains("trawl learning curve"), "{text}");
        let path = std::env::temp_dir().join(format!("trawl-curve-{}.svg", std::process::id()));
        draw(&points, &path).unwrap();
        let drawn = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(drawn, text);
    }
}
