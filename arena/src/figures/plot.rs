//! Plots as SVG files (plotters' SVG backend), written by write-then-rename: lines
//! ([`line_plot_svg`]), lines with interval bars and markers ([`interval_plot_svg`]),
//! histograms as step outlines in small multiples ([`histogram_series`],
//! [`histogram_panels_svg`]) and rating dot plots ([`dot_plot_svg`]).
//!
//! Every plot has a title, labelled axes, a light grid (a faint line at each labelled tick) and,
//! where it has more than one series, a legend below the data, never over it. An axis covers
//! its quantity's range ([`Bounds`]: a share from 0 to 1). More than three series become small
//! multiples, one panel each on shared axes, rather than one crowded panel.

use std::path::Path;

use plotters::chart::MeshStyle;
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

/// The values a plotted quantity can take: a share lies in [0, 1], a length is never
/// negative. An axis shows the quantity's whole range where it has one, so that 0.6 looks like
/// 0.6 of the way and no axis runs to 1.6 for a score.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// The least possible value, if there is one.
    pub low: Option<f64>,
    /// The greatest possible value, if there is one.
    pub high: Option<f64>,
    /// A reference value drawn across the plot (½ for a score: level play), if any.
    pub reference: Option<f64>,
}

impl Bounds {
    /// Any value: the axis follows the data.
    pub const FREE: Bounds = Bounds {
        low: None,
        high: None,
        reference: None,
    };
    /// A share, a rate or a score in points a game: [0, 1].
    pub const SHARE: Bounds = Bounds {
        low: Some(0.0),
        high: Some(1.0),
        reference: None,
    };
    /// A score in points a game: [0, 1], with the line of level play at ½.
    pub const SCORE: Bounds = Bounds {
        low: Some(0.0),
        high: Some(1.0),
        reference: Some(0.5),
    };
    /// A count or a length: from 0 up.
    pub const NON_NEGATIVE: Bounds = Bounds {
        low: Some(0.0),
        high: None,
        reference: None,
    };
}

/// The finite range of `values`, or `None`.
fn range_of(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    lo.is_finite().then_some((lo, hi))
}

/// The range of `values` widened by 5% on each side (or by 1 when flat).
fn padded(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let Some((lo, hi)) = range_of(values) else {
        return (0.0, 1.0);
    };
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 1.0 };
    (lo - pad, hi + pad)
}

/// An axis for `values` of a quantity within `bounds`: a bound the quantity has is the axis's
/// end (widened by 2% so that a marker on it is drawn whole); an open end follows the data
/// with 5% to spare.
fn span(values: impl Iterator<Item = f64>, bounds: Bounds) -> (f64, f64) {
    let (lo, hi) = range_of(values).unwrap_or((0.0, 1.0));
    let (lo, hi) = (
        bounds.low.unwrap_or(lo).min(lo),
        bounds.high.unwrap_or(hi).max(hi),
    );
    let width = if hi > lo { hi - lo } else { 1.0 };
    let below = if bounds.low == Some(lo) { 0.02 } else { 0.05 };
    let above = if bounds.high == Some(hi) { 0.02 } else { 0.05 };
    (lo - below * width, hi + above * width)
}

/// Colours of successive series: Okabe and Ito's palette, told apart by readers with any of
/// the common colour-vision deficiencies (its yellow left out: too light on white).
const COLOURS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
];

/// The colour of series `i`.
fn colour(i: usize) -> RGBAColor {
    COLOURS[i % COLOURS.len()].to_rgba()
}

/// A light grid: grey lines at the labelled ticks only, over which data reads first.
fn light_grid<'a, 'b, DB: DrawingBackend, X: Ranged, Y: Ranged>(
    mesh: &mut MeshStyle<'a, 'b, X, Y, DB>,
    labels: Labels<'_>,
) {
    mesh.x_desc(labels.x.to_string())
        .y_desc(labels.y.to_string())
        .bold_line_style(BLACK.mix(0.08))
        .light_line_style(TRANSPARENT)
        .max_light_lines(0)
        .axis_desc_style(("sans-serif", 14))
        .label_style(("sans-serif", 12));
}

/// How a legend entry is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mark {
    /// A line.
    Line,
    /// A line through a filled marker.
    LineDot,
    /// An open marker (a cell whose games repeat).
    OpenDot,
    /// A filled triangle: a replication's point, beside its first run's.
    Triangle,
}

/// Height of a legend of `entries` lines drawn below a plot.
fn key_height(entries: usize) -> u32 {
    if entries == 0 {
        0
    } else {
        12 + 20 * entries as u32
    }
}

/// Draws a legend below the plot, one entry a line, clear of the data.
fn draw_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(String, RGBAColor, Mark)],
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    for (i, (name, colour, mark)) in entries.iter().enumerate() {
        let y = 16 + 20 * i as i32;
        let (x0, x1) = (80, 108);
        match mark {
            Mark::Line | Mark::LineDot => {
                area.draw(&PathElement::new(
                    vec![(x0, y), (x1, y)],
                    colour.stroke_width(2),
                ))?;
                if *mark == Mark::LineDot {
                    area.draw(&Circle::new((94, y), 4, colour.filled()))?;
                }
            }
            Mark::OpenDot => {
                area.draw(&Circle::new((94, y), 4, colour.stroke_width(2)))?;
            }
            Mark::Triangle => {
                area.draw(&TriangleMarker::new((94, y), 5, colour.filled()))?;
            }
        }
        area.draw(&Text::new(
            name.clone(),
            (x1 + 10, y - 7),
            ("sans-serif", 14).into_font(),
        ))?;
    }
    Ok(())
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

/// Renders `series` as an SVG document: labelled axes, a light grid, a title and, below the
/// plot, a legend (for two or more series).
pub fn line_plot_svg(labels: Labels<'_>, series: &[Series]) -> Result<String> {
    let mut svg = String::new();
    {
        // One line needs no legend: the title and the axis name it.
        let keyed = if series.len() > 1 { series.len() } else { 0 };
        let key = key_height(keyed);
        let root = SVGBackend::with_string(&mut svg, (800, 480 + key)).into_drawing_area();
        let draw =
            |e: &dyn std::fmt::Display| Error::setting(format!("plot '{}': {e}", labels.title));
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let (plot, below) = root.split_vertically(480);
        let (x0, x1) = padded(series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let (y0, y1) = padded(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        let mut chart = ChartBuilder::on(&plot)
            .caption(labels.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| draw(&e))?;
        let mut mesh = chart.configure_mesh();
        light_grid(&mut mesh, labels);
        mesh.x_label_formatter(&|x| tick(*x))
            .y_label_formatter(&|y| tick(*y))
            .draw()
            .map_err(|e| draw(&e))?;
        let mut entries = Vec::new();
        for (i, s) in series.iter().enumerate() {
            let c = colour(i);
            let points = s.points.iter().copied().filter(|p| p.1.is_finite());
            chart
                .draw_series(LineSeries::new(points, c.stroke_width(2)))
                .map_err(|e| draw(&e))?;
            if keyed > 0 {
                entries.push((s.name.clone(), c, Mark::Line));
            }
        }
        draw_key(&below, &entries).map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// One named line of points with 95% intervals: `(x, value, low, high)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bars {
    /// The legend's name.
    pub name: String,
    /// The points, in x order.
    pub points: Vec<(f64, f64, f64, f64)>,
    /// The x of points drawn with an open marker: their games repeat (fewer distinct games
    /// than games), so their intervals are not a sample's.
    pub open_at: Vec<f64>,
    /// The replication's points (x, value, low, high), each drawn as a triangle just right of
    /// the first run's point at the same x, in the series' colour, unjoined.
    pub again: Vec<(f64, f64, f64, f64)>,
}

impl Bars {
    fn is_open(&self, x: f64) -> bool {
        self.open_at.iter().any(|&o| (o - x).abs() < 1e-9)
    }
}

/// The key's line under a plot with replications.
const AGAIN_NOTE: &str = "triangle: the replication on a fresh seed, right of its first run";

/// The footnote under a plot with open markers.
const OPEN_NOTE: &str =
    "open marker: the cell's games repeat (few distinct games), so its interval is not a sample's";

/// Renders `series` as lines through markers with vertical 95% interval bars, on a y axis over
/// the quantity's `bounds`. With `x_names`, x is the index of a name (an axis of words, such as
/// game names), and points are not joined. Up to three series share one panel with a legend
/// below it; more are drawn as small multiples, one panel a series on the same axes. A
/// series' replication points ([`Bars::again`]) are triangles just right of the first run's.
pub fn interval_plot_svg(
    labels: Labels<'_>,
    series: &[Bars],
    x_names: Option<&[String]>,
    bounds: Bounds,
) -> Result<String> {
    let draw = |e: &dyn std::fmt::Display| Error::setting(format!("plot '{}': {e}", labels.title));
    let (x0, x1) = match x_names {
        // An axis of words: one slot a word, centred on its index.
        Some(names) => (-0.5, names.len() as f64 - 0.5),
        None => padded(series.iter().flat_map(|s| s.points.iter().map(|p| p.0))),
    };
    let (y0, y1) = span(
        series.iter().flat_map(|s| {
            s.points
                .iter()
                .chain(&s.again)
                .flat_map(|p| [p.1, p.2, p.3])
        }),
        bounds,
    );
    let any_open = series.iter().any(|s| !s.open_at.is_empty());
    let any_again = series.iter().any(|s| !s.again.is_empty());
    let name_of = |x: &f64| match x_names {
        Some(names) if (x - x.round()).abs() < 1e-9 && *x >= 0.0 => {
            names.get(x.round() as usize).cloned().unwrap_or_default()
        }
        Some(_) => String::new(),
        None => tick(*x),
    };
    let panels = if series.len() > 3 { series.len() } else { 1 };
    let (columns, rows) = panel_grid(panels);
    let (panel_w, panel_h) = if panels == 1 { (900, 500) } else { (460, 300) };
    let entries: Vec<(String, RGBAColor, Mark)> = if panels == 1 {
        let mut e: Vec<_> = (series.iter().enumerate())
            .map(|(i, s)| (s.name.clone(), colour(i), Mark::LineDot))
            .collect();
        if any_open {
            e.push((OPEN_NOTE.to_string(), BLACK.to_rgba(), Mark::OpenDot));
        }
        e
    } else if any_open {
        vec![(OPEN_NOTE.to_string(), BLACK.to_rgba(), Mark::OpenDot)]
    } else {
        Vec::new()
    };
    let mut entries = entries;
    if any_again {
        entries.push((AGAIN_NOTE.to_string(), BLACK.to_rgba(), Mark::Triangle));
    }
    let (width, height) = (
        panel_w * columns as u32,
        40 + panel_h * rows as u32 + key_height(entries.len()),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let body = root
            .titled(labels.title, ("sans-serif", 20))
            .map_err(|e| draw(&e))?;
        let (grid, below) = body.split_vertically(panel_h * rows as u32);
        let areas = grid.split_evenly((rows, columns));
        for (p, area) in areas.iter().enumerate().take(panels) {
            let shown: Vec<(usize, &Bars)> = if panels == 1 {
                series.iter().enumerate().collect()
            } else {
                vec![(p, &series[p])]
            };
            let mut builder = ChartBuilder::on(area);
            builder
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(60);
            if panels > 1 {
                builder.caption(&series[p].name, ("sans-serif", 13));
            }
            let mut chart = builder
                .build_cartesian_2d(x0..x1, y0..y1)
                .map_err(|e| draw(&e))?;
            let mut mesh = chart.configure_mesh();
            light_grid(&mut mesh, labels);
            mesh.x_label_formatter(&name_of)
                .y_label_formatter(&|y| tick(*y));
            if let Some(names) = x_names {
                mesh.x_labels(names.len() + 1);
            }
            mesh.draw().map_err(|e| draw(&e))?;
            if let Some(r) = bounds.reference {
                chart
                    .draw_series(LineSeries::new(
                        [(x0, r), (x1, r)],
                        BLACK.mix(0.45).stroke_width(1),
                    ))
                    .map_err(|e| draw(&e))?;
            }
            let step = (x1 - x0) * 0.006;
            for &(i, s) in &shown {
                let c = colour(i);
                // Series side by side, so that their bars do not hide each other.
                let shift = if panels == 1 {
                    (i as f64 - (series.len() as f64 - 1.0) / 2.0) * step
                } else {
                    0.0
                };
                if x_names.is_none() {
                    let line = s.points.iter().map(|p| (p.0 + shift, p.1));
                    chart
                        .draw_series(LineSeries::new(line, c.stroke_width(2)))
                        .map_err(|e| draw(&e))?;
                }
                chart
                    .draw_series(interval_bars(&s.points, shift, c.stroke_width(1)))
                    .map_err(|e| draw(&e))?;
                chart
                    .draw_series(s.points.iter().map(|p| {
                        let style = if s.is_open(p.0) {
                            WHITE.filled()
                        } else {
                            c.filled()
                        };
                        Circle::new((p.0 + shift, p.1), 4, style)
                    }))
                    .map_err(|e| draw(&e))?;
                chart
                    .draw_series(
                        s.points
                            .iter()
                            .filter(|p| s.is_open(p.0))
                            .map(|p| Circle::new((p.0 + shift, p.1), 4, c.stroke_width(2))),
                    )
                    .map_err(|e| draw(&e))?;
                // The replication, a little right of the first run, so the pair reads as one.
                let beside = shift + (x1 - x0) * 0.02;
                chart
                    .draw_series(interval_bars(&s.again, beside, c.stroke_width(1)))
                    .map_err(|e| draw(&e))?;
                chart
                    .draw_series(
                        s.again
                            .iter()
                            .map(|p| TriangleMarker::new((p.0 + beside, p.1), 5, c.filled())),
                    )
                    .map_err(|e| draw(&e))?;
            }
        }
        draw_key(&below, &entries).map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// Each point's 95% interval (its low and high, `p.2` and `p.3`) as a vertical bar at its x moved
/// by `dx`.
fn interval_bars(
    points: &[(f64, f64, f64, f64)],
    dx: f64,
    style: ShapeStyle,
) -> impl Iterator<Item = PathElement<(f64, f64)>> + '_ {
    points
        .iter()
        .map(move |p| PathElement::new(vec![(p.0 + dx, p.2), (p.0 + dx, p.3)], style))
}

/// Columns and rows of a grid of `panels` small multiples: one column for one panel, two up
/// to four, three beyond.
fn panel_grid(panels: usize) -> (usize, usize) {
    let columns = match panels {
        1 => 1,
        2..=4 => 2,
        _ => 3,
    };
    (columns, panels.div_ceil(columns))
}

/// Renders histograms (step outlines from [`histogram_series`]) as small multiples: one panel
/// a series, all on the same axes (x from the series' range, y from 0 to the largest share), so
/// that shapes compare at a glance where one crowded panel would hide them.
pub fn histogram_panels_svg(labels: Labels<'_>, series: &[Series]) -> Result<String> {
    let draw = |e: &dyn std::fmt::Display| Error::setting(format!("plot '{}': {e}", labels.title));
    let panels = series.len().max(1);
    let (columns, rows) = panel_grid(panels);
    let (panel_w, panel_h) = if panels == 1 { (800, 460) } else { (420, 260) };
    let (x0, x1) = range_of(series.iter().flat_map(|s| s.points.iter().map(|p| p.0)))
        .map_or((0.0, 1.0), |(lo, hi)| {
            (lo, if hi > lo { hi } else { lo + 1.0 })
        });
    let top = range_of(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)))
        .map_or(1.0, |(_, hi)| hi.max(1e-9));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(
            &mut svg,
            (panel_w * columns as u32, 40 + panel_h * rows as u32),
        )
        .into_drawing_area();
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let body = root
            .titled(labels.title, ("sans-serif", 20))
            .map_err(|e| draw(&e))?;
        // One colour: the panels show one quantity, told apart by their captions.
        let c = colour(0);
        for (s, area) in series.iter().zip(body.split_evenly((rows, columns))) {
            let mut chart = ChartBuilder::on(&area)
                .caption(&s.name, ("sans-serif", 13))
                .margin(10)
                .x_label_area_size(40)
                .y_label_area_size(60)
                .build_cartesian_2d(x0..x1, 0.0..top * 1.05)
                .map_err(|e| draw(&e))?;
            let mut mesh = chart.configure_mesh();
            light_grid(&mut mesh, labels);
            mesh.x_label_formatter(&|x| tick(*x))
                .y_label_formatter(&|y| tick(*y))
                .draw()
                .map_err(|e| draw(&e))?;
            chart
                .draw_series(AreaSeries::new(
                    s.points.iter().copied(),
                    0.0,
                    c.mix(0.2).filled(),
                ))
                .map_err(|e| draw(&e))?;
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))
                .map_err(|e| draw(&e))?;
        }
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
/// and a horizontal bar over the interval; the legend below the plot.
pub fn dot_plot_svg(labels: Labels<'_>, dots: &[Dot]) -> Result<String> {
    let mut svg = String::new();
    {
        let plot_h = 120 + 36 * dots.len() as u32;
        let key = key_height(2);
        let root = SVGBackend::with_string(&mut svg, (900, plot_h + key)).into_drawing_area();
        let draw =
            |e: &dyn std::fmt::Display| Error::setting(format!("plot '{}': {e}", labels.title));
        root.fill(&WHITE).map_err(|e| draw(&e))?;
        let (plot, below) = root.split_vertically(plot_h);
        let (x0, x1) = padded(dots.iter().flat_map(|d| [d.low, d.high]));
        let n = dots.len() as f64;
        let mut chart = ChartBuilder::on(&plot)
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
        let mut mesh = chart.configure_mesh();
        light_grid(&mut mesh, labels);
        mesh.y_labels(dots.len() * 2 + 1)
            .y_label_formatter(&name_of)
            .x_label_formatter(&|x| tick(*x))
            .draw()
            .map_err(|e| draw(&e))?;
        let c = colour(0);
        let y = |i: usize| n - 1.0 - i as f64;
        chart
            .draw_series(dots.iter().enumerate().map(|(i, d)| {
                PathElement::new(vec![(d.low, y(i)), (d.high, y(i))], c.stroke_width(2))
            }))
            .map_err(|e| draw(&e))?;
        chart
            .draw_series(
                dots.iter()
                    .enumerate()
                    .map(|(i, d)| Circle::new((d.value, y(i)), 5, c.filled())),
            )
            .map_err(|e| draw(&e))?;
        let entries = [
            (labels.x.to_string(), c, Mark::LineDot),
            ("95% interval".to_string(), c, Mark::Line),
        ];
        draw_key(&below, &entries).map_err(|e| draw(&e))?;
        root.present().map_err(|e| draw(&e))?;
    }
    Ok(svg)
}

/// Writes the plot of `series` to `path`.
pub fn write_line_plot(path: &Path, labels: Labels<'_>, series: &[Series]) -> Result<()> {
    let svg = line_plot_svg(labels, series)?;
    write_atomically(path, svg.as_bytes())
}
