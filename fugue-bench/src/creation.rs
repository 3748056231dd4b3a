//! Workload 5, pane creation: 50 splits and 50 new windows through the command line,
//! each timed from starting the command until the new pane's program runs (it opens
//! a pipe the benchmark waits on).

use crate::Ctx;
use crate::mux::{Gate, Kind, Mux, StartOpts};
use crate::report::{Figure, Report};
use std::time::Instant;

/// Milliseconds until the program of the pane made by `command` runs.
fn timed(mux: &Mux, gate: &Gate, mut command: std::process::Command) -> anyhow::Result<f64> {
    let start = Instant::now();
    let mut child = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .spawn()?;
    gate.wait_signal()?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let status = child.wait()?;
    anyhow::ensure!(
        status.success(),
        "{}: creating a pane failed",
        mux.kind.name()
    );
    Ok(ms)
}

fn windows(ctx: &Ctx, kind: Kind, count: usize) -> anyhow::Result<Vec<f64>> {
    let mux = Mux::start(kind, &ctx.bins, &ctx.opts())?;
    let mut out = Vec::new();
    for i in 0..count {
        let gate = Gate::new(mux.dir.path(), &format!("w{i}"))?;
        out.push(timed(
            &mux,
            &gate,
            mux.new_window_command(&gate.signal("sleep 100000")),
        )?);
    }
    mux.stop()?;
    Ok(out)
}

fn splits(ctx: &Ctx, kind: Kind, count: usize) -> anyhow::Result<Vec<f64>> {
    // Room for `count` panes: a big window, re-tiled (untimed) after every split.
    let mux = Mux::start(
        kind,
        &ctx.bins,
        &StartOpts {
            pane: (400, 120),
            ..Default::default()
        },
    )?;
    let first = mux.new_window("sleep 100000", true)?;
    let mut out = Vec::new();
    for i in 0..count {
        let gate = Gate::new(mux.dir.path(), &format!("s{i}"))?;
        out.push(timed(
            &mux,
            &gate,
            mux.split_command(&first, &gate.signal("sleep 100000")),
        )?);
        mux.tiled(&first)?;
    }
    mux.stop()?;
    Ok(out)
}

pub fn run(ctx: &Ctx, report: &mut Report) -> anyhow::Result<()> {
    let count = ctx.panes.iter().copied().max().unwrap_or(50);
    let group = format!("5. pane creation through the CLI until the program runs ({count} each)");
    eprintln!("{group}");
    for (name, f) in [
        (
            "new window",
            windows as fn(&Ctx, Kind, usize) -> anyhow::Result<Vec<f64>>,
        ),
        ("split", splits),
    ] {
        let mut samples = ctx.samples();
        for run in 0..ctx.runs {
            for kind in ctx.order(run) {
                samples.extend(kind, f(ctx, kind, count)?);
            }
        }
        let (fugue, tmux) = samples.take();
        report.add(
            Figure::new(&group, name, "ms")
                .ratio(1.0)
                .samples(fugue, tmux),
        );
    }
    Ok(())
}
