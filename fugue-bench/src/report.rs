//! Figures: samples of fugue and tmux for one measurement, the statistic compared,
//! and the target ratio; printed as a table and written as JSON with every sample.

use crate::stats::{Summary, summarize};
use serde::Serialize;
use std::fmt::Write as _;

/// Which statistic of the samples a figure compares.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Stat {
    Median,
    P90,
    P95,
}

impl Stat {
    fn of(self, s: &Summary) -> f64 {
        match self {
            Stat::Median => s.median,
            Stat::P90 => s.p90,
            Stat::P95 => s.p95,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Stat::Median => "median",
            Stat::P90 => "p90",
            Stat::P95 => "p95",
        }
    }
}

/// One measured quantity, lower is better.
#[derive(Clone, Debug, Serialize)]
pub struct Figure {
    pub group: String,
    pub name: String,
    pub unit: &'static str,
    pub stat: Stat,
    pub fugue: Vec<f64>,
    /// Empty when tmux has no counterpart or is not installed.
    pub tmux: Vec<f64>,
    /// The fugue/tmux ratio to stay at or under.
    pub target_ratio: Option<f64>,
    /// An absolute bound on fugue's figure.
    pub target_abs: Option<f64>,
    /// The label of the `tmux` column when it holds something else (a baseline).
    pub versus: Option<String>,
}

impl Figure {
    pub fn new(group: &str, name: &str, unit: &'static str) -> Figure {
        Figure {
            group: group.into(),
            name: name.into(),
            unit,
            stat: Stat::Median,
            fugue: Vec::new(),
            tmux: Vec::new(),
            target_ratio: None,
            target_abs: None,
            versus: None,
        }
    }

    pub fn stat(mut self, stat: Stat) -> Figure {
        self.stat = stat;
        self
    }

    pub fn ratio(mut self, r: f64) -> Figure {
        self.target_ratio = Some(r);
        self
    }

    pub fn abs(mut self, v: f64) -> Figure {
        self.target_abs = Some(v);
        self
    }

    pub fn versus(mut self, label: &str) -> Figure {
        self.versus = Some(label.into());
        self
    }

    pub fn samples(mut self, fugue: Vec<f64>, tmux: Vec<f64>) -> Figure {
        self.fugue = fugue;
        self.tmux = tmux;
        self
    }

    fn value(&self, samples: &[f64]) -> Option<f64> {
        summarize(samples).map(|s| self.stat.of(&s))
    }

    /// fugue's statistic over the other column's.
    pub fn measured_ratio(&self) -> Option<f64> {
        Some(self.value(&self.fugue)? / self.value(&self.tmux)?)
    }

    /// Whether the figure meets its targets (None when it has none or lacks data).
    pub fn met(&self) -> Option<bool> {
        let mut verdict = None;
        if let (Some(t), Some(r)) = (self.target_ratio, self.measured_ratio()) {
            verdict = Some(r <= t);
        }
        if let (Some(t), Some(v)) = (self.target_abs, self.value(&self.fugue)) {
            verdict = Some(verdict.unwrap_or(true) && v <= t);
        }
        verdict
    }
}

fn cell(samples: &[f64], stat: Stat) -> String {
    match summarize(samples) {
        None => "-".into(),
        Some(s) if s.n == 1 => fmt_num(stat.of(&s)),
        Some(s) => format!(
            "{} ({}–{})",
            fmt_num(stat.of(&s)),
            fmt_num(s.min),
            fmt_num(s.max)
        ),
    }
}

fn fmt_num(v: f64) -> String {
    let a = v.abs();
    if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 10.0 {
        format!("{v:.1}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// Every figure of a run, in the order measured.
#[derive(Default, Serialize)]
pub struct Report {
    pub figures: Vec<Figure>,
    /// Remarks printed under the table (what was skipped and why).
    pub notes: Vec<String>,
}

impl Report {
    /// Adds a figure and prints its row right away (long runs show progress).
    pub fn add(&mut self, f: Figure) {
        eprintln!("  {}", row(&f));
        self.figures.push(f);
    }

    pub fn note(&mut self, text: impl Into<String>) {
        let text = text.into();
        eprintln!("  note: {text}");
        self.notes.push(text);
    }

    /// The table: one section per group.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let mut group = None;
        for f in &self.figures {
            if group != Some(&f.group) {
                let versus = f.versus.as_deref().unwrap_or("tmux");
                let _ = writeln!(
                    out,
                    "\n{}\n  {:<34} {:>24} {:>24} {:>7} {:>8}",
                    f.group, "figure", "fugue", versus, "ratio", "target"
                );
                group = Some(&f.group);
            }
            let _ = writeln!(out, "  {}", row(f));
        }
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        out
    }
}

fn row(f: &Figure) -> String {
    let name = format!("{} [{} {}]", f.name, f.stat.label(), f.unit);
    let ratio = f.measured_ratio().map_or("-".into(), |r| format!("{r:.2}"));
    let mut target = String::new();
    if let Some(t) = f.target_ratio {
        target = format!("≤{t}");
    }
    if let Some(t) = f.target_abs {
        if !target.is_empty() {
            target.push(' ');
        }
        let _ = write!(target, "≤{t}{}", f.unit);
    }
    let verdict = match f.met() {
        Some(true) => "ok",
        Some(false) => "MISS",
        None => "",
    };
    format!(
        "{name:<34} {:>24} {:>24} {ratio:>7} {target:>8} {verdict}",
        cell(&f.fugue, f.stat),
        cell(&f.tmux, f.stat)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_and_verdict() {
        let f = Figure::new("g", "plain", "s")
            .ratio(0.8)
            .samples(vec![1.0, 2.0, 3.0], vec![4.0, 4.0, 4.0]);
        assert_eq!(f.measured_ratio(), Some(0.5));
        assert_eq!(f.met(), Some(true));
        let f = Figure::new("g", "read", "ms")
            .abs(1.0)
            .samples(vec![2.0], vec![]);
        assert_eq!(f.met(), Some(false));
        assert!(Report::default().table().is_empty());
    }
}
