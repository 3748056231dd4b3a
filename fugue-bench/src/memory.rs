//! Workload 4, memory: the server's resident memory with 1, 10 and 50 panes of 200x50,
//! each holding a full 10,000-line history of plain or colored lines.

use crate::Ctx;
use crate::mux::{Gate, Mux};
use crate::report::{Figure, Report};
use crate::workloads::SENTINEL;
use crate::workloads::Workload;
use std::time::Duration;

/// Lines written into each pane: the history limit plus a screen and some.
const LINES: usize = 10_000 + 100;

/// Server RSS in MiB with `count` full panes (besides the one keeping it alive).
fn rss_with(ctx: &Ctx, kind: crate::mux::Kind, w: Workload, count: usize) -> anyhow::Result<f64> {
    let file = ctx.files.fill(w, LINES)?;
    let mux = Mux::start(kind, &ctx.bins, &ctx.opts())?;
    let mut panes = Vec::new();
    for i in 0..count {
        let done = Gate::new(mux.dir.path(), &format!("done{i}"))?;
        let pane = mux.new_window(&done.after(&format!("cat {}", file.display())), false)?;
        panes.push((pane, done));
    }
    // Every `cat` has finished and its last line is on the screen.
    for (pane, done) in &panes {
        done.wait_signal()?;
        mux.wait_screen(pane, SENTINEL, Duration::from_secs(300))?;
    }
    std::thread::sleep(Duration::from_millis(500));
    let rss = mux.rss()? as f64 / (1024.0 * 1024.0);
    mux.stop()?;
    Ok(rss)
}

pub fn run(ctx: &Ctx, report: &mut Report) -> anyhow::Result<()> {
    let group = "4. server memory (RSS) with full 10,000-line histories, 200x50 panes";
    eprintln!("{group}");
    for w in [Workload::Plain, Workload::Colored] {
        // (panes, fugue MiB, tmux MiB) per pane count.
        let mut points: Vec<(usize, Vec<f64>, Vec<f64>)> = Vec::new();
        for &count in &ctx.panes {
            let mut samples = ctx.samples();
            for kind in ctx.order(count) {
                samples.push(kind, rss_with(ctx, kind, w, count)?);
            }
            let (fugue, tmux) = samples.take();
            report.add(
                Figure::new(group, &format!("{} x{count}", w.name()), "MiB")
                    .samples(fugue.clone(), tmux.clone()),
            );
            points.push((count, fugue, tmux));
        }
        // The cost of one more full pane: the slope between the fewest and most panes.
        if let (Some(a), Some(b)) = (points.first(), points.last())
            && b.0 > a.0
        {
            let n = (b.0 - a.0) as f64;
            let slope = |x: &[f64], y: &[f64]| match (x.first(), y.first()) {
                (Some(x), Some(y)) => vec![(y - x) / n],
                _ => Vec::new(),
            };
            report.add(
                Figure::new(group, &format!("{} per full pane", w.name()), "MiB")
                    .ratio(1.0)
                    .samples(slope(&a.1, &b.1), slope(&a.2, &b.2)),
            );
        }
    }
    Ok(())
}
