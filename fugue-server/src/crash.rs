//! What the server leaves behind when it ends badly, and what the next start says of it.
//!
//! A daemon's standard error goes nowhere, so a panic message or an allocator's abort
//! would be lost. Instead: a panic hook logs every panic (with the thread, which names
//! the pane for pane threads, and the commands in flight) to the server log and to a
//! crash file; standard error is a file of its own, where an abort's last words land;
//! and a pid file marks a running server. The next server to start on the same socket
//! finds a pid file whose process is gone, says why the previous one ended (from the
//! crash file, else the end of its standard error, else that it was killed), logs it and
//! prints it for the `fugue` that started it.

use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The files of one server (one socket label) in the state folder.
#[derive(Clone, Debug)]
pub struct CrashFiles {
    pub pid: PathBuf,
    pub crash: PathBuf,
    pub stderr: PathBuf,
    pub log: PathBuf,
}

impl CrashFiles {
    pub fn new(state_dir: &Path, label: &str) -> Self {
        CrashFiles {
            pid: state_dir.join(format!("server-{label}.pid")),
            crash: state_dir.join(format!("server-{label}.crash")),
            stderr: state_dir.join(format!("server-{label}.stderr")),
            log: state_dir.join(format!("server-{label}.log")),
        }
    }
}

/// The most of a crash file or standard error quoted in a report.
const REPORT_MAX: usize = 2000;

/// Why the previous server on this socket ended, if it did not end cleanly. Call before
/// [`mark_running`]; it clears what it reports, so each crash is told once.
pub fn previous_end(files: &CrashFiles) -> Option<String> {
    let text = std::fs::read_to_string(&files.pid).ok()?;
    let pid: i32 = text.trim().parse().ok()?;
    if pid > 0 && pid != std::process::id() as i32 && alive(pid) {
        // Another server holds this socket's state (we hold the socket's lock, so this
        // is a pid reused by an unrelated process): nothing to say.
        return None;
    }
    let crash = std::fs::read_to_string(&files.crash).unwrap_or_default();
    let stderr = std::fs::read_to_string(&files.stderr).unwrap_or_default();
    let why = if !crash.trim().is_empty() {
        format!("it panicked: {}", shorten(crash.trim()))
    } else if !stderr.trim().is_empty() {
        format!("it aborted: {}", shorten(last_lines(stderr.trim(), 5)))
    } else {
        "it was killed or crashed without a word (SIGKILL, the OOM killer, or a reboot)".into()
    };
    let _ = std::fs::remove_file(&files.crash);
    Some(format!(
        "the previous server (pid {pid}) ended: {why}; its log is {}",
        files.log.display()
    ))
}

fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid, 0) == 0 }
}

fn last_lines(text: &str, n: usize) -> &str {
    let mut start = text.len();
    for _ in 0..n {
        match text[..start].rfind('\n') {
            Some(i) => start = i,
            None => return text,
        }
    }
    text[start..].trim_start()
}

fn shorten(text: &str) -> String {
    if text.len() <= REPORT_MAX {
        return text.to_string();
    }
    let mut cut = REPORT_MAX;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..cut], text.len())
}

fn private_file(path: &Path, append: bool) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .mode(0o600)
        .open(path)
}

/// Records this process as the running server.
pub fn mark_running(files: &CrashFiles) -> std::io::Result<()> {
    let mut f = private_file(&files.pid, false)?;
    writeln!(f, "{}", std::process::id())
}

/// Called on a clean exit: the next start has nothing to report.
pub fn mark_stopped(files: &CrashFiles) {
    let _ = std::fs::remove_file(&files.pid);
}

/// Opens the file that standard error is pointed at once the server detaches.
pub fn stderr_file(files: &CrashFiles) -> std::io::Result<std::fs::File> {
    private_file(&files.stderr, false)
}

static NEXT_COMMAND: AtomicU64 = AtomicU64::new(0);
/// Commands being executed: who asked and which command. Kept as values and formatted
/// only in the panic hook, since every command (every keystroke) passes through here.
static IN_FLIGHT: Mutex<BTreeMap<u64, (crate::origin::Origin, &'static str)>> =
    Mutex::new(BTreeMap::new());

/// A command being executed, named in the report of a panic that happens meanwhile.
pub struct InFlight(u64);

impl InFlight {
    pub fn new(origin: &crate::origin::Origin, command: &'static str) -> InFlight {
        let id = NEXT_COMMAND.fetch_add(1, Ordering::Relaxed);
        IN_FLIGHT.lock().insert(id, (origin.clone(), command));
        InFlight(id)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        IN_FLIGHT.lock().remove(&self.0);
    }
}

/// Installs the panic hook: every panic is logged with its thread and the commands in
/// flight, and appended to the crash file the next start reports.
pub fn install_panic_hook(files: &CrashFiles) {
    let crash = files.crash.clone();
    std::panic::set_hook(Box::new(move |info| {
        let thread = std::thread::current();
        let name = thread.name().unwrap_or("unnamed");
        // try_lock: a panic while the registry is held must not deadlock the hook.
        let commands = IN_FLIGHT
            .try_lock()
            .map(|m| {
                m.values()
                    .map(|(origin, command)| format!("{origin}: {command}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or_else(|| "(unknown)".into());
        let backtrace = std::backtrace::Backtrace::force_capture();
        let report = format!("thread '{name}' {info}; commands in flight: [{commands}]",);
        tracing::error!("panic: {report}\n{backtrace}");
        if let Ok(mut f) = private_file(&crash, true) {
            let _ = writeln!(f, "{report}");
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_exit_reports_nothing_and_a_dead_pid_reports_why() {
        let dir = tempfile::tempdir().unwrap();
        let files = CrashFiles::new(dir.path(), "t");
        assert_eq!(previous_end(&files), None);
        mark_running(&files).unwrap();
        mark_stopped(&files);
        assert_eq!(previous_end(&files), None);
        // A pid that cannot be running (beyond pid_max).
        std::fs::write(&files.pid, "2147483000\n").unwrap();
        let why = previous_end(&files).unwrap();
        assert!(why.contains("killed"), "{why}");
        std::fs::write(
            &files.stderr,
            "a\nb\nmemory allocation of 3221225472 bytes failed\n",
        )
        .unwrap();
        let why = previous_end(&files).unwrap();
        assert!(
            why.contains("memory allocation of 3221225472 bytes failed"),
            "{why}"
        );
        std::fs::write(
            &files.crash,
            "thread 'pane-reader %3' panicked at x.rs:1:1: boom\n",
        )
        .unwrap();
        let why = previous_end(&files).unwrap();
        assert!(
            why.contains("pane-reader %3") && why.contains("boom"),
            "{why}"
        );
        // Told once.
        assert!(!previous_end(&files).unwrap().contains("boom"));
    }
}
