//! What runs in a pane: the foreground process of its terminal, read from /proc.

use std::path::PathBuf;

/// The short name of a process (`/proc/PID/comm`).
pub fn name(pid: i32) -> Option<String> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    let s = s.trim_end();
    (!s.is_empty()).then(|| s.to_string())
}

/// The names a program's path goes by: its base name; that name without an
/// executable or script extension (Claude Code's npm package runs
/// `.../@anthropic-ai/claude-code/bin/claude.exe`, its teammates too); and for a
/// versioned install (`~/.local/share/claude/versions/2.1.42`, Claude Code's native
/// installer) the program's folder. Presets and `enable_for` name programs as people
/// call them (`claude`), not as their installers lay them out.
pub fn known_names(path: &str) -> Vec<String> {
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let Some((base, dirs)) = parts.split_last() else {
        return Vec::new();
    };
    let mut out = vec![base.to_string()];
    for ext in [".exe", ".js", ".mjs", ".cjs"] {
        if let Some(stem) = base.strip_suffix(ext)
            && !stem.is_empty()
        {
            out.push(stem.to_string());
        }
    }
    if let [.., program, "versions"] = dirs {
        out.push(program.to_string());
    }
    out
}

/// Interpreters whose first argument is the program people know the process by.
const INTERPRETERS: &[&str] = &["node", "bun", "deno", "python", "python3", "ruby", "perl"];

/// The names a process goes by: its short name, and the base name of its program (or of
/// the script, when the program is an interpreter such as node).
pub fn names(pid: i32) -> Vec<String> {
    let mut out: Vec<String> = name(pid).map(|n| known_names(&n)).unwrap_or_default();
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return out;
    };
    let names = |a: &[u8]| known_names(&String::from_utf8_lossy(a));
    let mut args = cmdline.split(|b| *b == 0).filter(|a| !a.is_empty());
    if let Some(first) = args.next() {
        let first = names(first);
        if first
            .first()
            .is_some_and(|f| INTERPRETERS.contains(&f.as_str()))
            && let Some(script) = args.find(|a| !a.starts_with(b"-"))
        {
            out.extend(names(script));
        }
        out.extend(first);
    }
    out
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

/// Whether process `pid` is blocked reading its terminal: in `read(2)` (Linux syscall
/// 0 on x86-64, 63 on aarch64) on a descriptor that is a pseudo-terminal. Programs that
/// wait in poll or epoll are not recognised (the caller falls back to waiting for
/// output). /proc/PID/syscall is readable for our own children.
pub fn reads_terminal(pid: i32) -> bool {
    const READ: &str = if cfg!(target_arch = "aarch64") {
        "63"
    } else {
        "0"
    };
    let Ok(s) = std::fs::read_to_string(format!("/proc/{pid}/syscall")) else {
        return false;
    };
    let mut fields = s.split_ascii_whitespace();
    if fields.next() != Some(READ) {
        return false;
    }
    let Some(fd) = fields
        .next()
        .and_then(|f| i64::from_str_radix(f.trim_start_matches("0x"), 16).ok())
    else {
        return false;
    };
    std::fs::read_link(format!("/proc/{pid}/fd/{fd}"))
        .is_ok_and(|p| p.starts_with("/dev/pts") || p.starts_with("/dev/tty"))
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

#[cfg(test)]
mod tests {
    #[test]
    fn installed_programs_are_known_by_the_name_people_call_them() {
        let names = |p: &str| super::known_names(p);
        assert_eq!(names("/usr/bin/claude"), ["claude"]);
        assert_eq!(
            names("/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
            ["claude.exe", "claude"]
        );
        assert_eq!(
            names("/root/.local/share/claude/versions/2.1.42"),
            ["2.1.42", "claude"]
        );
        assert_eq!(names("cli.js"), ["cli.js", "cli"]);
        assert_eq!(names(".exe"), [".exe"]);
        assert!(names("").is_empty());
    }
}
