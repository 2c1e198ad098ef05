//! One SVG line plot per algorithm, written by hand: throughput (linear y)
//! against message size (log x), one line per implementation and backend.

use std::fmt::Write as _;

use super::{AlgoName, Options, Results, Single, size_label};

const WIDTH: f64 = 780.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 580.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 380.0;

/// Distinct colours (Okabe–Ito, then a few more).
const COLOURS: [&str; 10] =
    ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#999999", "#8c564b", "#f0e442"];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A round upper bound for the y axis and its tick step.
fn nice_scale(max: f64) -> (f64, f64) {
    if max.is_nan() || max <= 0.0 || max.is_infinite() {
        return (1.0, 0.25);
    }
    let magnitude = 10f64.powf(max.log10().floor());
    for step in [0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0] {
        let step = step * magnitude;
        if max / step <= 6.0 {
            return ((max / step).ceil() * step, step);
        }
    }
    (10.0 * magnitude, 2.0 * magnitude)
}

fn rate_tick(rate: f64) -> String {
    if rate >= 1e9 {
        let s = format!("{:.2}", rate / 1e9);
        format!("{} GB/s", s.trim_end_matches('0').trim_end_matches('.'))
    } else if rate > 0.0 {
        format!("{:.0} MB/s", rate / 1e6)
    } else {
        "0".into()
    }
}

/// The plot for `algo`, or `None` if nothing was measured for it.
pub(crate) fn plot(r: &Results, algo: &AlgoName, o: &Options) -> Option<String> {
    let singles: Vec<&Single> = r.singles.iter().filter(|s| s.algo == algo.id && s.ns > 0.0).collect();
    if singles.is_empty() {
        return None;
    }
    let mut labels: Vec<String> = Vec::new();
    for s in &singles {
        if !labels.contains(&s.label()) {
            labels.push(s.label());
        }
    }
    let (min_size, max_size) = singles.iter().fold((usize::MAX, 0), |(lo, hi), s| (lo.min(s.size), hi.max(s.size)));
    let (mut x0, mut x1) = ((min_size as f64).log2(), (max_size as f64).log2());
    if x1 - x0 < 1.0 {
        x0 -= 1.0;
        x1 += 1.0;
    }
    let max_rate = singles.iter().map(|s| s.rate()).fold(0.0, f64::max);
    let (y_max, y_step) = nice_scale(max_rate);
    let x = |size: usize| LEFT + ((size as f64).log2() - x0) / (x1 - x0) * (RIGHT - LEFT);
    let y = |rate: f64| BOTTOM - rate / y_max * (BOTTOM - TOP);

    let mut svg = String::new();
    let w = &mut svg;
    let _ = writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(w, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        w,
        r#"<text x="{}" y="24" font-size="15" font-weight="bold">{}: one-shot throughput ({} of {} rounds)</text>"#,
        LEFT,
        escape(&algo.name),
        o.stat(),
        o.rounds
    );
    // Y grid and ticks.
    let mut tick = 0.0;
    while tick <= y_max * 1.0001 {
        let ty = y(tick);
        let _ = writeln!(w, r##"<line x1="{LEFT}" y1="{ty:.1}" x2="{RIGHT}" y2="{ty:.1}" stroke="#e0e0e0"/>"##);
        let _ = writeln!(
            w,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            LEFT - 6.0,
            ty + 4.0,
            rate_tick(tick)
        );
        tick += y_step;
    }
    // X ticks at the measured sizes.
    let mut sizes: Vec<usize> = singles.iter().map(|s| s.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for &s in &sizes {
        let tx = x(s);
        let _ = writeln!(w, r##"<line x1="{tx:.1}" y1="{TOP}" x2="{tx:.1}" y2="{BOTTOM}" stroke="#f0f0f0"/>"##);
        let _ =
            writeln!(w, r#"<text x="{tx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, BOTTOM + 18.0, size_label(s));
    }
    let _ = writeln!(
        w,
        r#"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="black"/>"#,
        RIGHT - LEFT,
        BOTTOM - TOP
    );
    let _ = writeln!(
        w,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">message size (log scale)</text>"#,
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 40.0
    );
    let _ = writeln!(
        w,
        r#"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">throughput (decimal units)</text>"#,
        (TOP + BOTTOM) / 2.0
    );
    // One line per implementation; ours solid and thick, peers dashed.
    for (i, label) in labels.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mut points: Vec<&Single> = singles.iter().copied().filter(|s| &s.label() == label).collect();
        points.sort_by_key(|s| s.size);
        let ours = points.first().is_some_and(|s| s.family == "ours");
        let style = if ours { r#"stroke-width="2.5""# } else { r#"stroke-width="1.5" stroke-dasharray="6 4""# };
        let path: Vec<String> = points.iter().map(|s| format!("{:.1},{:.1}", x(s.size), y(s.rate()))).collect();
        let _ = writeln!(w, r#"<polyline points="{}" fill="none" stroke="{colour}" {style}/>"#, path.join(" "));
        for s in &points {
            let _ = writeln!(w, r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"/>"#, x(s.size), y(s.rate()));
        }
        // Legend entry.
        let ly = TOP + 10.0 + i as f64 * 20.0;
        let _ = writeln!(
            w,
            r#"<line x1="{:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" {style}/>"#,
            RIGHT + 15.0,
            RIGHT + 45.0
        );
        let picked = points.iter().any(|s| s.detected);
        let text = if picked { format!("{label} (picked)") } else { label.clone() };
        let _ = writeln!(w, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, RIGHT + 52.0, ly + 4.0, escape(&text));
    }
    let _ = writeln!(w, "</svg>");
    Some(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_are_round_and_cover_the_maximum() {
        for max in [1.0, 7.3e8, 1.0e9, 2.2e9, 3.9e9, 5.5e7] {
            let (top, step) = nice_scale(max);
            assert!(top >= max && top / step <= 6.0 + 1e-9 && top / step >= 1.0, "{max}: {top} {step}");
        }
        assert_eq!(nice_scale(0.0), (1.0, 0.25));
    }

    #[test]
    fn a_plot_has_one_line_per_implementation() {
        let mut r = Results::default();
        for (family, variant, detected) in
            [("ours", "sha-ni", true), ("ours", "portable", false), ("openssl", "", false)]
        {
            for (size, ns) in [(16usize, 100.0), (1024, 900.0)] {
                r.singles.push(Single {
                    algo: "sha256".into(),
                    family: family.into(),
                    variant: variant.into(),
                    detected,
                    size,
                    ns,
                    min: ns,
                    max: ns,
                });
            }
        }
        let algo = AlgoName { id: "sha256".into(), name: "SHA-256".into() };
        let o = super::super::parse_args(&[]).unwrap();
        let svg = plot(&r, &algo, &o).unwrap();
        assert_eq!(svg.matches("<polyline").count(), 3);
        assert!(svg.contains("ours sha-ni (picked)"));
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        let none = AlgoName { id: "md5".into(), name: "MD5".into() };
        assert!(plot(&r, &none, &o).is_none());
    }
}
