//! Workload 1, throughput: `cat` of a generated file in a 200x50 pane with a 10,000
//! line history, from the moment the program starts writing to the moment it has
//! exited and the sentinel is on the pane's screen. Detached, and with one attached
//! client whose terminal is drained. Also the bare-PTY baseline.
//!
//! Workload 7, sideband overhead, is the same measurement with the pane's output
//! scanned for tags.

use crate::Ctx;
use crate::mux::{Gate, Kind, Mux, StartOpts};
use crate::report::{Figure, Report};
use crate::workloads::{SENTINEL, Workload};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

/// How a pane is watched while it runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Detached,
    Attached,
}

/// Seconds from go to done for one sample.
///
/// The pane runs `cat FILE` between two named pipes: it starts when we open the first
/// and tells us it has exited through the second. Its shell then stays (tmux drops the
/// last output of a program that exits at once), and we watch the screen until the
/// sentinel is on it.
pub fn sample(
    ctx: &Ctx,
    kind: Kind,
    file: &Path,
    mode: Mode,
    flags: &[&str],
    opts: &StartOpts,
) -> anyhow::Result<f64> {
    let mux = Mux::start(kind, &ctx.bins, opts)?;
    let go = Gate::new(mux.dir.path(), "go")?;
    let done = Gate::new(mux.dir.path(), "done")?;
    let command = go.guard(&done.after(&format!("cat {}", file.display())));
    let pane = mux.new_window_with(&command, true, flags)?;
    let _client = match mode {
        Mode::Detached => None,
        Mode::Attached => {
            let client = mux.attach(mux.client_size(ctx.pane), false)?;
            // Let it draw the first screen before the clock starts.
            client.wait_bytes(1000, Duration::from_secs(10));
            std::thread::sleep(Duration::from_millis(300));
            Some(client)
        }
    };
    let start = Instant::now();
    go.open()?;
    done.wait_signal()?;
    mux.wait_screen(&pane, SENTINEL, Duration::from_secs(600))?;
    let secs = start.elapsed().as_secs_f64();
    mux.stop()?;
    Ok(secs)
}

/// The physical limit: the same `cat` into a PTY whose reader throws the bytes away.
pub fn bare_pty(file: &Path, (cols, rows): (u16, u16)) -> anyhow::Result<f64> {
    let pair = native_pty_system().openpty(PtySize {
        rows,
        cols,
        pixel_width: 0,
        pixel_height: 0,
    })?;
    let mut cmd = CommandBuilder::new("cat");
    cmd.arg(file);
    let start = Instant::now();
    let mut child = pair.slave.spawn_command(cmd)?;
    drop(pair.slave);
    let mut r = pair.master.try_clone_reader()?;
    let mut buf = vec![0u8; 1 << 16];
    while let Ok(n) = r.read(&mut buf) {
        if n == 0 {
            break;
        }
    }
    child.wait()?;
    Ok(start.elapsed().as_secs_f64())
}

/// The fugue/tmux ratio each workload must stay under.
fn target(w: Workload) -> f64 {
    match w {
        Workload::Plain | Workload::Cursor => 0.8,
        Workload::Colored => 0.4,
        Workload::Unicode => 0.25,
    }
}

pub fn run(ctx: &Ctx, report: &mut Report) -> anyhow::Result<()> {
    let mib = ctx.size as f64 / (1024.0 * 1024.0);
    for mode in [Mode::Detached, Mode::Attached] {
        let group = format!(
            "1. throughput, {mib:.0} MiB, 200x50 pane, {}",
            match mode {
                Mode::Detached => "detached",
                Mode::Attached => "one attached client (drained)",
            }
        );
        eprintln!("{group}");
        for w in Workload::ALL {
            let file = ctx.files.workload(w, ctx.size)?;
            let mut samples = ctx.samples();
            for run in 0..ctx.runs {
                for kind in ctx.order(run) {
                    let s = sample(ctx, kind, &file, mode, &[], &ctx.opts())?;
                    samples.push(kind, s);
                }
            }
            let (fugue, tmux) = samples.take();
            report.add(
                Figure::new(&group, w.name(), "s")
                    .ratio(target(w))
                    .samples(fugue, tmux),
            );
        }
    }
    let group = "1. throughput baseline: bare PTY (cat into a PTY, reader discards)";
    eprintln!("{group}");
    for w in Workload::ALL {
        let file = ctx.files.workload(w, ctx.size)?;
        let samples = (0..ctx.runs)
            .map(|_| bare_pty(&file, ctx.pane))
            .collect::<anyhow::Result<Vec<_>>>()?;
        report.add(Figure::new(group, w.name(), "s").samples(samples, Vec::new()));
    }
    Ok(())
}

/// Workload 7: the same detached throughput with the pane scanned for sideband tags,
/// next to the same pane not scanned.
pub fn sideband(ctx: &Ctx, report: &mut Report) -> anyhow::Result<()> {
    let group = "7. sideband scanner: detached throughput, scanned vs not scanned";
    eprintln!("{group}");
    for w in [Workload::Plain, Workload::Colored] {
        let file = ctx.files.workload(w, ctx.size)?;
        let (mut on, mut off) = (Vec::new(), Vec::new());
        for run in 0..ctx.runs {
            for scan in [run % 2 == 0, run % 2 != 0] {
                let flags: &[&str] = if scan { &["--sideband"] } else { &[] };
                let s = sample(ctx, Kind::Fugue, &file, Mode::Detached, flags, &ctx.opts())?;
                if scan { on.push(s) } else { off.push(s) }
            }
        }
        report.add(
            Figure::new(group, w.name(), "s")
                .ratio(1.05)
                .versus("fugue, not scanned")
                .samples(on, off),
        );
        // The scanner's own cost without process noise: the pane pipeline in process.
        let data = std::fs::read(&file)?;
        let (mut on, mut off) = (Vec::new(), Vec::new());
        for run in 0..ctx.runs.max(3) {
            for scan in [run % 2 == 0, run % 2 != 0] {
                let s = crate::core::parse_secs(&data, ctx.pane, scan);
                if scan { on.push(s) } else { off.push(s) }
            }
        }
        report.add(
            Figure::new(
                group,
                &format!("{} (pane pipeline in process)", w.name()),
                "s",
            )
            .ratio(1.05)
            .versus("fugue, not scanned")
            .samples(on, off),
        );
    }
    Ok(())
}
