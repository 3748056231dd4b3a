//! Workload 2, keystroke latency: a key written to the stdin of a real attached client
//! (running in our outer terminal) until the outer terminal shows it, echoed by `cat`
//! in the pane; idle, and with a visible sibling pane flooding output.
//!
//! Workload 6, many panes: the same, while 50 panes in other windows each print
//! continuously; with the server's CPU use over the measurement.

use crate::Ctx;
use crate::mux::{Kind, Mux};
use crate::outer_tmux::TmuxOuter;
use crate::report::{Figure, Report, Stat};
use crate::term::Keyboard;
use crate::workloads::Rng;
use anyhow::Context;
use std::time::{Duration, Instant};

const KEY_TIMEOUT: Duration = Duration::from_secs(2);
const LINE: usize = 40;

/// Keystroke-to-screen times in milliseconds, and how many keys never showed.
pub fn type_keys(
    term: &mut dyn Keyboard,
    n: usize,
    seed: u64,
) -> anyhow::Result<(Vec<f64>, usize)> {
    const KEYS: &[u8] = b"abcdefghijklmnopqrstuvwxz0123456789";
    let mut rng = Rng::new(seed);
    let mut typed: Vec<u8> = Vec::new();
    let mut times = Vec::with_capacity(n);
    let mut lost = 0;
    for _ in 0..n {
        if typed.len() >= LINE {
            // Enter: `cat` prints the line back and the next line starts empty.
            term.send(b"\r")?;
            typed.clear();
            std::thread::sleep(Duration::from_millis(100));
        }
        let key = KEYS[rng.below(KEYS.len() as u64) as usize];
        typed.push(key);
        let expect = typed.clone();
        // Shown: the line typed so far ends right where the terminal's cursor is.
        term.screen().arm(move |s| {
            let (row, col) = s.cursor_position();
            let k = expect.len() as u16;
            col >= k
                && expect.iter().enumerate().all(|(i, b)| {
                    s.cell(row, col - k + i as u16)
                        .is_some_and(|c| c.contents().as_bytes() == [*b])
                })
        });
        let start = Instant::now();
        term.send(&[key])?;
        match term.screen().wait_probe(KEY_TIMEOUT) {
            Some(hit) => times.push(hit.saturating_duration_since(start).as_secs_f64() * 1e3),
            None => {
                // Counted at the timeout, and the line starts over.
                times.push(KEY_TIMEOUT.as_secs_f64() * 1e3);
                lost += 1;
                tracing_screen(&*term);
                term.send(b"\r")?;
                typed.clear();
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        // Keys arrive at a person's pace, not in step with frames.
        std::thread::sleep(Duration::from_millis(5 + rng.below(20)));
    }
    Ok((times, lost))
}

/// Shows what the terminal held when a key did not appear (once per run is enough
/// to tell a harness problem from a slow multiplexer).
fn tracing_screen(term: &dyn Keyboard) {
    if std::env::var_os("FUGUE_BENCH_DEBUG").is_some() {
        eprintln!(
            "a key did not show; the screen was:\n{}",
            term.screen().contents()
        );
    }
}

/// The terminal the client runs in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// A PTY the benchmark reads and parses itself.
    Pty,
    /// An outer tmux, keys sent and output read through a control-mode connection.
    OuterTmux,
}

/// A server with a `cat` pane shown by an attached client, optionally with a
/// flooding pane beside it.
fn typing_setup(
    ctx: &Ctx,
    kind: Kind,
    flood: bool,
    via: Via,
) -> anyhow::Result<(Mux, Box<dyn Keyboard>)> {
    let mux = Mux::start(kind, &ctx.bins, &ctx.opts())?;
    let pane = mux.new_window("cat", true)?;
    if flood {
        let emit = format!("{} emit colored", ctx.bins.bench.display());
        mux.split(&pane, &emit)?;
    }
    let size = mux.client_size(ctx.pane);
    let term: Box<dyn Keyboard> = match via {
        Via::Pty => Box::new(mux.attach(size, true)?),
        Via::OuterTmux => {
            let tmux = ctx.bins.tmux.as_deref().context("tmux is not installed")?;
            Box::new(TmuxOuter::spawn(
                tmux,
                &mux.attach_command(),
                size,
                mux.dir.path(),
            )?)
        }
    };
    if !term.screen().wait_bytes(500, Duration::from_secs(10)) {
        anyhow::bail!("{}: the client drew nothing", kind.name());
    }
    std::thread::sleep(Duration::from_millis(if flood { 1000 } else { 300 }));
    Ok((mux, term))
}

pub fn run(ctx: &Ctx, report: &mut Report) -> anyhow::Result<()> {
    let mut ways = vec![(Via::Pty, "outer terminal: a PTY the benchmark parses")];
    if ctx.bins.tmux.is_some() {
        ways.push((Via::OuterTmux, "outer terminal: tmux, as in the issue"));
    }
    for (via, how) in ways {
        for flood in [false, true] {
            let group = format!(
                "2. keystroke to screen through an attached client, {} ({how})",
                if flood {
                    "visible sibling pane flooding"
                } else {
                    "idle"
                }
            );
            eprintln!("{group}");
            let mut samples = ctx.samples();
            let per_run = ctx.keys.div_ceil(ctx.runs.max(1));
            let mut lost = 0;
            for run in 0..ctx.runs {
                for kind in ctx.order(run) {
                    let (mux, mut term) = typing_setup(ctx, kind, flood, via)?;
                    let (t, l) = type_keys(&mut *term, per_run, 42 + run as u64)?;
                    samples.extend(kind, t);
                    lost += l;
                    drop(term);
                    mux.stop()?;
                }
            }
            if lost > 0 {
                report.note(format!(
                    "{group}: {lost} keys did not show within {KEY_TIMEOUT:?}"
                ));
            }
            let (fugue, tmux) = samples.take();
            let target = if flood { 0.25 } else { 1.0 };
            for stat in [Stat::Median, Stat::P90] {
                report.add(
                    Figure::new(&group, "key", "ms")
                        .stat(stat)
                        .ratio(target)
                        .samples(fugue.clone(), tmux.clone()),
                );
            }
        }
    }
    Ok(())
}

/// Workload 6.
pub fn many_panes(ctx: &Ctx, report: &mut Report) -> anyhow::Result<()> {
    let count = ctx.panes.iter().copied().max().unwrap_or(50);
    let group = format!(
        "6. {count} panes in other windows printing 100 lines/s each; typing in another pane"
    );
    eprintln!("{group}");
    let mut keys = ctx.samples();
    let mut cpu = ctx.samples();
    for run in 0..ctx.runs {
        for kind in ctx.order(run) {
            let (mux, mut term) = typing_setup(ctx, kind, false, Via::Pty)?;
            let emit = format!("{} emit colored 100", ctx.bins.bench.display());
            let mut made = 0;
            while made < count {
                let first = mux.new_window(&emit, false)?;
                made += 1;
                for _ in 1..10.min(count - made + 1) {
                    mux.split(&first, &emit)?;
                    mux.tiled(&first)?;
                    made += 1;
                }
            }
            // The client was drawing the typing window all along; let the emitters
            // get going.
            std::thread::sleep(Duration::from_secs(1));
            let (cpu0, wall0) = (mux.cpu()?, Instant::now());
            let (t, _) = type_keys(
                &mut *term,
                ctx.keys.div_ceil(ctx.runs.max(1)),
                7 + run as u64,
            )?;
            let used = mux.cpu()?.saturating_sub(cpu0).as_secs_f64();
            cpu.push(kind, 100.0 * used / wall0.elapsed().as_secs_f64());
            keys.extend(kind, t);
            drop(term);
            mux.stop()?;
        }
    }
    let (fugue, tmux) = keys.take();
    report.add(
        Figure::new(&group, "key", "ms")
            .stat(Stat::P90)
            .ratio(1.0)
            .samples(fugue, tmux),
    );
    let (fugue, tmux) = cpu.take();
    report.add(Figure::new(&group, "server CPU", "%").samples(fugue, tmux));
    Ok(())
}
