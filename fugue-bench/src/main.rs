//! `fugue-bench`: fugue side by side with tmux, on the same machine, in the same run.
//!
//! Both multiplexers are driven the same way, through their command lines and real
//! attached clients in PTYs, with a fresh server for every sample, alternating which
//! goes first. Figures are printed as a table with fugue/tmux ratios and the targets
//! of docs/performance.md, and every sample goes to a JSON file with the machine's load.
//! It installs nothing: without tmux it measures fugue alone.
//!
//! Build first: `cargo build --release --workspace && target/release/fugue-bench`.

mod callgrind;
mod core;
mod creation;
mod ctx;
mod latency;
mod mcp;
mod memory;
mod mux;
mod outer_tmux;
mod proc;
mod report;
mod stats;
mod term;
mod throughput;
mod workloads;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand, ValueEnum};
use ctx::Ctx;
use mux::{Bins, Kind};
use report::Report;
use std::path::PathBuf;
use workloads::{Files, Workload};

#[derive(Parser)]
#[command(name = "fugue-bench", about = "fugue side by side with tmux")]
struct Args {
    /// MiB of output per throughput sample.
    #[arg(long, default_value_t = 100)]
    size_mib: u64,
    /// Samples per whole-process figure (each multiplexer).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Keystrokes per latency figure, and round trips per MCP figure.
    #[arg(long, default_value_t = 200)]
    keys: usize,
    /// Pane counts of the memory workload (the largest is used for creation and many
    /// panes).
    #[arg(long, value_delimiter = ',', default_value = "1,10,50")]
    panes: Vec<usize>,
    /// Which workloads to run (default: all but callgrind).
    #[arg(long, value_delimiter = ',')]
    only: Vec<Part>,
    /// Also count instructions under valgrind (slow: minutes).
    #[arg(long)]
    callgrind: bool,
    /// A tiny run that checks the harness works (CI): 1 MiB, one run, few keys.
    #[arg(long)]
    smoke: bool,
    /// Measure fugue only, even when tmux is installed.
    #[arg(long)]
    no_tmux: bool,
    /// Where to write every sample as JSON.
    #[arg(long, default_value = "target/fugue-bench.json")]
    out: PathBuf,
    #[command(subcommand)]
    tool: Option<Tool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Part {
    Throughput,
    Latency,
    Mcp,
    Memory,
    Creation,
    Many,
    Sideband,
    Callgrind,
}

#[derive(Subcommand)]
enum Tool {
    /// Print a workload's output forever (the busy program of some workloads).
    Emit {
        #[arg(value_parser = parse_workload)]
        workload: Workload,
        /// Units (lines) per second; 0 is as fast as the terminal takes them.
        #[arg(default_value_t = 0)]
        rate: u32,
    },
    /// Push a file through fugue's pane pipeline in process and print the speed (for
    /// profiling: `valgrind --tool=callgrind fugue-bench core FILE`).
    Core {
        file: PathBuf,
        /// Scan for sideband tags too.
        #[arg(long)]
        scan: bool,
    },
    /// Write a workload file.
    Generate {
        #[arg(value_parser = parse_workload)]
        workload: Workload,
        mib: u64,
        out: PathBuf,
    },
}

fn parse_workload(s: &str) -> Result<Workload, String> {
    Workload::ALL
        .into_iter()
        .find(|w| w.name() == s)
        .ok_or_else(|| format!("unknown workload `{s}`: plain, colored, cursor or unicode"))
}

fn bins() -> anyhow::Result<Bins> {
    let bench = std::env::current_exe().context("where is fugue-bench")?;
    let dir = bench.parent().context("fugue-bench has no folder")?;
    let fugue = dir.join("fugue");
    let fugue_server = dir.join("fugue-server");
    for b in [&fugue, &fugue_server] {
        if !b.is_file() {
            bail!(
                "{} is missing: build everything first with `cargo build --release --workspace`",
                b.display()
            );
        }
    }
    Ok(Bins {
        fugue,
        fugue_server,
        tmux: mux::which("tmux"),
        valgrind: mux::which("valgrind"),
        bench,
    })
}

fn tmux_version(bins: &Bins) -> Option<String> {
    let out = std::process::Command::new(bins.tmux.as_ref()?)
        .arg("-V")
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() -> anyhow::Result<()> {
    let mut args = Args::parse();
    match args.tool.take() {
        Some(Tool::Emit { workload, rate }) => return Ok(workloads::emit(workload, rate, 99)?),
        Some(Tool::Core { file, scan }) => {
            let data = std::fs::read(&file)?;
            let s = core::parse_secs(&data, (200, 50), scan);
            println!("{:.1} MiB/s ({s:.3} s)", data.len() as f64 / 1048576.0 / s);
            return Ok(());
        }
        Some(Tool::Generate { workload, mib, out }) => {
            return Ok(workloads::write_workload(&out, workload, mib << 20, 1)?);
        }
        None => {}
    }
    if args.smoke {
        args.size_mib = 1;
        args.runs = 1;
        args.keys = 10;
        args.panes = vec![1, 3];
    }
    let bins = bins()?;
    let mut kinds = vec![Kind::Fugue];
    match (&bins.tmux, args.no_tmux) {
        (Some(_), false) => kinds.push(Kind::Tmux),
        (None, _) => eprintln!("tmux is not installed: measuring fugue alone"),
        _ => {}
    }
    let work = tempfile::Builder::new()
        .prefix("fugue-bench-files-")
        .tempdir()?;
    let ctx = Ctx {
        files: Files::new(work.path().to_path_buf()),
        size: args.size_mib << 20,
        runs: args.runs.max(1),
        keys: args.keys.max(1),
        panes: args.panes.clone(),
        pane: (200, 50),
        kinds,
        bins,
    };
    let mut parts = args.only.clone();
    if parts.is_empty() {
        parts = vec![
            Part::Throughput,
            Part::Latency,
            Part::Mcp,
            Part::Memory,
            Part::Creation,
            Part::Many,
            Part::Sideband,
        ];
    }
    if args.callgrind && !parts.contains(&Part::Callgrind) {
        parts.push(Part::Callgrind);
    }
    let load_before = proc::loadavg();
    eprintln!(
        "fugue-bench: {} MiB per throughput sample, {} runs, {} keys; {}",
        args.size_mib,
        ctx.runs,
        ctx.keys,
        tmux_version(&ctx.bins).unwrap_or_else(|| "no tmux".into())
    );
    let mut report = Report::default();
    for part in &parts {
        let r = match part {
            Part::Throughput => throughput::run(&ctx, &mut report),
            Part::Latency => latency::run(&ctx, &mut report),
            Part::Mcp => mcp::run(&ctx, &mut report),
            Part::Memory => memory::run(&ctx, &mut report),
            Part::Creation => creation::run(&ctx, &mut report),
            Part::Many => latency::many_panes(&ctx, &mut report),
            Part::Sideband => throughput::sideband(&ctx, &mut report),
            Part::Callgrind => {
                let sizes = if args.smoke {
                    (64 << 10, 256 << 10)
                } else {
                    (256 << 10, 1 << 20)
                };
                callgrind::run(&ctx, &mut report, sizes)
            }
        };
        r.with_context(|| format!("workload {part:?}"))?;
    }
    let load_after = proc::loadavg();
    println!("{}", report.table());
    let json = serde_json::json!({
        "machine": proc::machine(),
        "loadavg_before": load_before,
        "loadavg_after": load_after,
        "tmux": tmux_version(&ctx.bins),
        "size_mib": args.size_mib,
        "runs": ctx.runs,
        "keys": ctx.keys,
        "figures": report.figures,
        "notes": report.notes,
    });
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&args.out, serde_json::to_string_pretty(&json)?)
        .with_context(|| format!("write {}", args.out.display()))?;
    println!(
        "every sample: {} (load average before {:?}, after {:?})",
        args.out.display(),
        load_before,
        load_after
    );
    Ok(())
}
