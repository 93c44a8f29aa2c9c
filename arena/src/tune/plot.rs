//! Line plots as SVG files (plotters' SVG backend), written by write-then-rename.

use std::path::Path;

use plotters::prelude::*;

use crate::durable::write_atomically;
use crate::error::{Error, Result};

/// One named line of a plot.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend's name.
    pub name: String,
    /// The points, in x order.
    pub points: Vec<(f64, f64)>,
}

/// What a plot shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Labels<'a> {
    /// The title above the plot.
    pub title: &'a str,
    /// The x axis, with its unit.
    pub x: &'a str,
    /// The y axis, with its unit.
    pub y: &'a str,
}

/// The range of `values` widened by 5% on each side (or by 1 when flat).
fn padded(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    (lo - pad, hi + pad)
}

/// Renders `series` as an SVG document: labelled axes, a title and a legend.
pub fn line_plot_svg(labels: Labels<'_>, series: &[Series]) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        let draw =
            |e: &dyn std::fmt::Display| Error::setting(format!("plot '{}': {e}", labels.title));
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let (x0, x1) = padded(series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let (y0, y1) = padded(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        let mut chart = ChartBuilder::on(&root)
            .caption(labels.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| draw(&e))?;
        chart
            .configure_mesh()
            .x_desc(labels.x)
            .y_desc(labels.y)
            .draw()
            .map_err(|e| draw(&e))?;
        for (i, s) in series.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            let points = s.points.iter().copied().filter(|p| p.1.is_finite());
            chart
                .draw_series(LineSeries::new(points, colour.stroke_width(2)))
                .map_err(|e| draw(&e))?
                .label(s.name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// Writes the plot of `series` to `path`.
pub fn write_line_plot(path: &Path, labels: Labels<'_>, series: &[Series]) -> Result<()> {
    let svg = line_plot_svg(labels, series)?;
    write_atomically(path, svg.as_bytes())
}
