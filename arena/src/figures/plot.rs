//! Plots as SVG files (plotters' SVG backend), written by write-then-rename: lines
//! ([`line_plot_svg`]), lines with interval bars and markers ([`interval_plot_svg`]),
//! histograms as step outlines ([`histogram_series`]) and rating dot plots
//! ([`dot_plot_svg`]). Every plot has a title, labelled axes and a legend.

use std::path::Path;

use plotters::prelude::*;

use crate::error::{Error, Result};
use crate::records::durable::write_atomically;

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

/// Draws the legend of `chart`'s labelled series, boxed, at `position`.
fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(position)
        .draw()
}

/// A tick label: at most four decimals, trailing zeros dropped (`2.6`, not
/// `2.5999999999999996`).
#[must_use]
pub fn tick(x: f64) -> String {
    let text = format!("{x:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.to_string()
    }
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
        legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// One named line of points with 95% intervals: `(x, value, low, high)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    /// The legend's name.
    pub name: String,
    /// The points, in x order.
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// Renders `series` as lines through circle markers with vertical interval bars. With
/// `x_names`, x is the index of a name (an axis of words, such as game names).
pub fn interval_plot_svg(
    labels: Labels<'_>,
    series: &[Bars],
    x_names: Option<&[String]>,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 540)).into_drawing_area();
        let draw =
            |e: &dyn std::fmt::Display| Error::setting(format!("plot '{}': {e}", labels.title));
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let (x0, x1) = match x_names {
            // An axis of words: one slot a word, centred on its index.
            Some(names) => (-0.5, names.len() as f64 - 0.5),
            None => padded(series.iter().flat_map(|s| s.points.iter().map(|p| p.0))),
        };
        let (y0, y1) = padded(
            series
                .iter()
                .flat_map(|s| s.points.iter().flat_map(|p| [p.2, p.3])),
        );
        // Room above the data for the legend, a line a series.
        let y1 = y1 + (y1 - y0) * 0.075 * series.len() as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption(labels.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| draw(&e))?;
        let name_of = |x: &f64| match x_names {
            Some(names) if (x - x.round()).abs() < 1e-9 && *x >= 0.0 => {
                names.get(x.round() as usize).cloned().unwrap_or_default()
            }
            Some(_) => String::new(),
            None => tick(*x),
        };
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(labels.x)
            .y_desc(labels.y)
            .x_label_formatter(&name_of);
        if let Some(names) = x_names {
            mesh.x_labels(names.len() + 1);
        }
        mesh.draw().map_err(|e| draw(&e))?;
        let step = (x1 - x0) * 0.006;
        for (i, s) in series.iter().enumerate() {
            let colour = Palette99::pick(i).to_rgba();
            // Series side by side, so their bars do not hide each other.
            let shift = (i as f64 - (series.len() as f64 - 1.0) / 2.0) * step;
            // Points of an axis of words are not joined: nothing lies between two words.
            let line = s.points.iter().map(|p| (p.0 + shift, p.1));
            let width = if x_names.is_some() { 0 } else { 2 };
            chart
                .draw_series(LineSeries::new(line, colour.stroke_width(width)))
                .map_err(|e| draw(&e))?
                .label(s.name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(s.points.iter().map(|p| {
                    PathElement::new(
                        vec![(p.0 + shift, p.2), (p.0 + shift, p.3)],
                        colour.stroke_width(1),
                    )
                }))
                .map_err(|e| draw(&e))?;
            chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|p| Circle::new((p.0 + shift, p.1), 3, colour.filled())),
                )
                .map_err(|e| draw(&e))?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// A histogram of `values` as a step outline, `bins` equal bins from `low` to `high`
/// (values outside are counted in the end bins): a series for [`line_plot_svg`], its y the
/// share of values in each bin.
#[must_use]
pub fn histogram_series(name: &str, values: &[f64], low: f64, high: f64, bins: usize) -> Series {
    histogram_of_counts(name, values.iter().map(|&v| (v, 1)), low, high, bins)
}

/// [`histogram_series`] of values given with their counts, `(value, how many)`: a histogram
/// of a million game lengths from their few distinct lengths.
#[must_use]
pub fn histogram_of_counts(
    name: &str,
    counts: impl IntoIterator<Item = (f64, u64)>,
    low: f64,
    high: f64,
    bins: usize,
) -> Series {
    let bins = bins.max(1);
    let width = if high > low {
        (high - low) / bins as f64
    } else {
        1.0
    };
    let mut in_bin = vec![0u64; bins];
    let mut total = 0;
    for (v, c) in counts {
        let b = ((v - low) / width).floor().clamp(0.0, (bins - 1) as f64) as usize;
        in_bin[b] += c;
        total += c;
    }
    let n = total.max(1) as f64;
    let mut points = vec![(low, 0.0)];
    for (i, c) in in_bin.iter().enumerate() {
        let share = *c as f64 / n;
        let x = low + i as f64 * width;
        points.push((x, share));
        points.push((x + width, share));
    }
    points.push((low + bins as f64 * width, 0.0));
    Series {
        name: name.to_string(),
        points,
    }
}

/// One row of a dot plot: a name, a value and its interval.
#[derive(Debug, Clone, PartialEq)]
pub struct Dot {
    /// The row's name (an agent).
    pub name: String,
    /// The value.
    pub value: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
}

/// Renders a dot plot: one row a name, top to bottom in the given order, a dot at the value
/// and a horizontal bar over the interval.
pub fn dot_plot_svg(labels: Labels<'_>, dots: &[Dot]) -> Result<String> {
    let mut svg = String::new();
    {
        let height = 120 + 36 * dots.len() as u32;
        let root = SVGBackend::with_string(&mut svg, (900, height)).into_drawing_area();
        let draw =
            |e: &dyn std::fmt::Display| Error::setting(format!("plot '{}': {e}", labels.title));
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let (x0, x1) = padded(dots.iter().flat_map(|d| [d.low, d.high]));
        let n = dots.len() as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption(labels.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(260)
            .build_cartesian_2d(x0..x1, -0.5..n - 0.5)
            .map_err(|e| draw(&e))?;
        let name_of = |y: &f64| {
            let row = (n - 1.0 - y).round();
            if (n - 1.0 - y - row).abs() < 1e-9 && row >= 0.0 {
                dots.get(row as usize)
                    .map(|d| d.name.clone())
                    .unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_desc(labels.x)
            .y_desc(labels.y)
            .y_labels(dots.len() * 2 + 1)
            .y_label_formatter(&name_of)
            .draw()
            .map_err(|e| draw(&e))?;
        let colour = Palette99::pick(0).to_rgba();
        let y = |i: usize| n - 1.0 - i as f64;
        chart
            .draw_series(dots.iter().enumerate().map(|(i, d)| {
                PathElement::new(vec![(d.low, y(i)), (d.high, y(i))], colour.stroke_width(2))
            }))
            .map_err(|e| draw(&e))?
            .label("95% interval")
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(
                dots.iter()
                    .enumerate()
                    .map(|(i, d)| Circle::new((d.value, y(i)), 5, colour.filled())),
            )
            .map_err(|e| draw(&e))?
            .label(labels.x.to_string())
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, colour.filled()));
        legend(&mut chart, SeriesLabelPosition::LowerRight).map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// Writes the plot of `series` to `path`.
pub fn write_line_plot(path: &Path, labels: Labels<'_>, series: &[Series]) -> Result<()> {
    let svg = line_plot_svg(labels, series)?;
    write_atomically(path, svg.as_bytes())
}
