//! What runs in a pane: the foreground process of its terminal, read from /proc.

use std::path::PathBuf;

/// The short name of a process (`/proc/PID/comm`).
pub fn name(pid: i32) -> Option<String> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    let s = s.trim_end();
    (!s.is_empty()).then(|| s.to_string())
}

/// A child forked by this server that has not yet run its program.
pub fn is_unexeced_child(pid: i32) -> bool {
    match (
        std::fs::read_link(format!("/proc/{pid}/exe")),
        std::fs::read_link("/proc/self/exe"),
    ) {
        (Ok(theirs), Ok(ours)) => theirs == ours,
        _ => false,
    }
}

/// The working directory of a process.
pub fn cwd(pid: i32) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{pid}/cwd")).ok()
}

/// The process group in the foreground of the terminal whose master is `fd`.
pub fn foreground_group(fd: i32) -> Option<i32> {
    // SAFETY: tcgetpgrp only reads the terminal's state; a bad fd makes it fail.
    let pgrp = unsafe { libc::tcgetpgrp(fd) };
    (pgrp > 0).then_some(pgrp)
}

/// Sends `signal` to a process group, ignoring groups that no longer exist.
pub fn signal_group(pgrp: i32, signal: i32) {
    if pgrp > 1 {
        // SAFETY: kill with a negative pid signals a process group; it has no memory effects.
        unsafe {
            libc::kill(-pgrp, signal);
        }
    }
}
