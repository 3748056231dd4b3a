//! What the benchmark reads from /proc, and the few system calls it needs.

use anyhow::{Context, bail};
use std::path::Path;
use std::time::Duration;

/// Resident memory of a process, in bytes (VmRSS).
pub fn rss(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("process {pid} is gone"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .context("no VmRSS line")?;
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .context("bad VmRSS line")?
        .parse()?;
    Ok(kib * 1024)
}

/// User plus system CPU time of a process (all its threads).
pub fn cpu_time(pid: u32) -> anyhow::Result<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .with_context(|| format!("process {pid} is gone"))?;
    // The command name may contain spaces; the fields we want follow its `)`.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).context("bad stat")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After `)`: state is field 0, utime field 11, stime field 12.
    let ticks: u64 = fields.get(11).context("short stat")?.parse::<u64>()?
        + fields.get(12).context("short stat")?.parse::<u64>()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Ok(Duration::from_nanos(ticks * 1_000_000_000 / hz))
}

pub fn alive(pid: u32) -> bool {
    // A zombie still has a /proc entry; it counts as gone.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => !s
            .rsplit_once(')')
            .is_some_and(|(_, r)| r.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

pub fn kill(pid: u32) {
    // SAFETY: kill has no memory effects.
    unsafe {
        libc::kill(pid as i32, libc::SIGKILL);
    }
}

pub fn mkfifo(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: a valid NUL-terminated path.
    if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
        bail!(
            "mkfifo {}: {}",
            path.display(),
            std::io::Error::last_os_error()
        );
    }
    Ok(())
}

/// The 1, 5 and 15 minute load averages.
pub fn loadavg() -> Option<[f64; 3]> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = s.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// A description of the machine for the report.
pub fn machine() -> serde_json::Value {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    serde_json::json!({
        "cpu": model,
        "cpus": cpus,
        "memory": mem,
        "kernel": kernel.trim(),
    })
}
