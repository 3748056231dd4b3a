//! Instructions per MiB of output, counted by `valgrind --tool=callgrind` in the
//! server process: the figure that does not move with the machine's load. Each
//! workload runs at two sizes; the difference divided by the difference in size
//! leaves out what does not depend on the output (start-up, pane creation, exit).

use crate::Ctx;
use crate::mux::{Kind, StartOpts};
use crate::report::{Figure, Report};
use crate::throughput::{Mode, sample};
use crate::workloads::Workload;
use anyhow::Context;
use std::path::Path;

/// The total instruction count in a callgrind output file.
fn total(path: &Path) -> anyhow::Result<u64> {
    let text = std::fs::read_to_string(path)?;
    text.lines()
        .find_map(|l| {
            l.strip_prefix("summary:")
                .or_else(|| l.strip_prefix("totals:"))
        })
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .with_context(|| format!("no totals in {}", path.display()))
}

/// Instructions the server executed for one workload file.
fn count(ctx: &Ctx, kind: Kind, file: &Path, tag: &str) -> anyhow::Result<u64> {
    let prefix = ctx.files.dir.join(format!("callgrind-{tag}"));
    let opts = StartOpts {
        callgrind: Some(prefix.clone()),
        pane: ctx.pane,
    };
    sample(ctx, kind, file, Mode::Detached, &[], &opts)?;
    // One file per process valgrind saw; children that forked to start a program
    // leave small ones. The server's is the largest.
    let name = prefix
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut best = 0;
    for entry in std::fs::read_dir(&ctx.files.dir)? {
        let entry = entry?;
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(&format!("{name}."))
        {
            best = best.max(total(&entry.path()).unwrap_or(0));
            let _ = std::fs::remove_file(entry.path());
        }
    }
    anyhow::ensure!(best > 0, "callgrind wrote no counts for {}", kind.name());
    Ok(best)
}

pub fn run(ctx: &Ctx, report: &mut Report, sizes: (u64, u64)) -> anyhow::Result<()> {
    let group = "instructions per MiB in the server, valgrind --tool=callgrind (millions)";
    eprintln!("{group}");
    let mib = (sizes.1 - sizes.0) as f64 / (1024.0 * 1024.0);
    for w in Workload::ALL {
        let small = ctx.files.workload(w, sizes.0)?;
        let large = ctx.files.workload(w, sizes.1)?;
        let mut samples = ctx.samples();
        for kind in ctx.order(0) {
            let a = count(
                ctx,
                kind,
                &small,
                &format!("{}-{}-a", kind.name(), w.name()),
            )?;
            let b = count(
                ctx,
                kind,
                &large,
                &format!("{}-{}-b", kind.name(), w.name()),
            )?;
            samples.push(kind, b.saturating_sub(a) as f64 / mib / 1e6);
        }
        let (fugue, tmux) = samples.take();
        report.add(Figure::new(group, w.name(), "M").samples(fugue, tmux));
    }
    Ok(())
}
