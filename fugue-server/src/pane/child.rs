//! Starting a pane's program on the slave side of its PTY with `posix_spawn`.
//!
//! portable-pty starts programs with `fork`, which copies the server's page tables and
//! then tears them down again at `exec`: on a server with many panes that was most of
//! the cost of a new pane (perf: `copy_page_range`, `exit_mmap` and copy-on-write
//! faults took over half of the server's time creating 40 windows). `posix_spawn`
//! shares the server's memory until `exec`, whatever its size. The child becomes a
//! session leader and opens the terminal, which makes it its controlling terminal, as
//! a login does.

use std::ffi::{CString, OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// Why a program could not be started.
#[derive(Debug, thiserror::Error)]
pub enum ChildError {
    #[error("`{0}` was not found on PATH")]
    NotFound(String),
    #[error("{0} contains a NUL byte")]
    Nul(&'static str),
    #[error("posix_spawn: {0}")]
    Spawn(std::io::Error),
}

/// What to start: argv, the environment on top of the server's, a working directory.
pub struct ChildSpec<'a> {
    pub argv: &'a [String],
    pub env: &'a [(String, String)],
    pub cwd: Option<&'a Path>,
    /// The PTY's slave side, which becomes the program's terminal.
    pub tty: &'a Path,
}

fn cstring(what: &'static str, bytes: impl Into<Vec<u8>>) -> Result<CString, ChildError> {
    CString::new(bytes).map_err(|_| ChildError::Nul(what))
}

/// An override with this value removes the variable (`set-environment -r`): no real
/// value can hold a NUL byte, so none is mistaken for it.
pub const REMOVED: &str = "\0";

/// The server's environment with `overrides` applied.
fn environment(overrides: &[(String, String)]) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(k, _)| !overrides.iter().any(|(o, _)| OsStr::new(o) == k))
        .collect();
    // The last override of a name wins (the caller's -e after the session's).
    let mut seen = std::collections::HashSet::new();
    let mut last: Vec<&(String, String)> = overrides
        .iter()
        .rev()
        .filter(|(k, _)| seen.insert(k.as_str()))
        .collect();
    last.reverse();
    env.extend(
        last.into_iter()
            .filter(|(_, v)| v != REMOVED)
            .map(|(k, v)| (OsString::from(k), OsString::from(v))),
    );
    env
}

/// `program` found the way a shell would: a path with a `/` as given (relative to the
/// working directory), otherwise the first executable file of that name on `PATH`.
fn resolve(program: &str, path: Option<&OsStr>, cwd: &Path) -> Result<PathBuf, ChildError> {
    if program.contains('/') {
        return Ok(cwd.join(program));
    }
    let path = path.unwrap_or(OsStr::new("/usr/local/bin:/usr/bin:/bin"));
    std::env::split_paths(path)
        .map(|dir| cwd.join(dir).join(program))
        .find(|p| is_executable(p))
        .ok_or_else(|| ChildError::NotFound(program.to_string()))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Starts the program; returns its pid.
pub fn spawn(spec: &ChildSpec<'_>) -> Result<libc::pid_t, ChildError> {
    let program = spec.argv.first().map(String::as_str).unwrap_or("sh");
    let env = environment(spec.env);
    let home = env
        .iter()
        .find(|(k, _)| k == "HOME")
        .map(|(_, v)| PathBuf::from(v));
    // As a terminal does: the home folder when no working directory is given.
    let cwd = spec
        .cwd
        .map(Path::to_path_buf)
        .or(home)
        .filter(|d| d.is_dir())
        .unwrap_or_else(|| PathBuf::from("/"));
    let path = env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.as_os_str());
    let exe = cstring(
        "the program's path",
        resolve(program, path, &cwd)?.into_os_string().into_vec(),
    )?;
    let argv = spec
        .argv
        .iter()
        .map(|a| cstring("an argument", a.as_bytes()))
        .collect::<Result<Vec<_>, _>>()?;
    let envp = env
        .into_iter()
        .map(|(k, v)| {
            let mut kv = k.into_vec();
            kv.push(b'=');
            kv.extend(v.into_vec());
            cstring("an environment variable", kv)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let tty = cstring("the terminal's path", spec.tty.as_os_str().as_bytes())?;
    let dir = cstring("the working directory", cwd.into_os_string().into_vec())?;
    let mut argv_ptrs: Vec<*mut libc::c_char> =
        argv.iter().map(|a| a.as_ptr().cast_mut()).collect();
    argv_ptrs.push(std::ptr::null_mut());
    let mut envp_ptrs: Vec<*mut libc::c_char> =
        envp.iter().map(|e| e.as_ptr().cast_mut()).collect();
    envp_ptrs.push(std::ptr::null_mut());

    // SAFETY: every pointer handed to libc points into a CString or Vec that outlives
    // the calls; the attribute and file-action objects are initialised before use and
    // destroyed after.
    unsafe {
        let mut actions: libc::posix_spawn_file_actions_t = std::mem::zeroed();
        let mut attr: libc::posix_spawnattr_t = std::mem::zeroed();
        libc::posix_spawn_file_actions_init(&mut actions);
        libc::posix_spawnattr_init(&mut attr);
        // The terminal becomes fd 0 (and the controlling terminal: the child is a new
        // session's leader by then), then 1 and 2. Every other descriptor of the server
        // is close-on-exec.
        let mut rc =
            libc::posix_spawn_file_actions_addopen(&mut actions, 0, tty.as_ptr(), libc::O_RDWR, 0);
        for fd in [1, 2] {
            if rc == 0 {
                rc = libc::posix_spawn_file_actions_adddup2(&mut actions, 0, fd);
            }
        }
        if rc == 0 {
            rc = libc::posix_spawn_file_actions_addchdir_np(&mut actions, dir.as_ptr());
        }
        // Signals as a fresh program expects them: nothing blocked, every handler the
        // default (the server ignores SIGPIPE, which programs must not inherit).
        let mut none: libc::sigset_t = std::mem::zeroed();
        let mut all: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigfillset(&mut all);
        if rc == 0 {
            rc = libc::posix_spawnattr_setsigmask(&mut attr, &none);
        }
        if rc == 0 {
            rc = libc::posix_spawnattr_setsigdefault(&mut attr, &all);
        }
        if rc == 0 {
            // libc types the flags inconsistently (c_short and c_int); all fit a short.
            let flags = libc::POSIX_SPAWN_SETSID as libc::c_int
                | libc::POSIX_SPAWN_SETSIGMASK as libc::c_int
                | libc::POSIX_SPAWN_SETSIGDEF as libc::c_int;
            rc = libc::posix_spawnattr_setflags(&mut attr, flags as libc::c_short);
        }
        let mut pid: libc::pid_t = 0;
        if rc == 0 {
            rc = libc::posix_spawn(
                &mut pid,
                exe.as_ptr(),
                &actions,
                &attr,
                argv_ptrs.as_ptr(),
                envp_ptrs.as_ptr(),
            );
        }
        libc::posix_spawn_file_actions_destroy(&mut actions);
        libc::posix_spawnattr_destroy(&mut attr);
        if rc != 0 {
            return Err(ChildError::Spawn(std::io::Error::from_raw_os_error(rc)));
        }
        Ok(pid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_on_path_or_by_path() {
        let cwd = Path::new("/");
        assert!(resolve("sh", Some(OsStr::new("/nonexistent:/bin:/usr/bin")), cwd).is_ok());
        assert!(matches!(
            resolve("no-such-program-here", Some(OsStr::new("/bin")), cwd),
            Err(ChildError::NotFound(_))
        ));
        assert_eq!(
            resolve("./x", None, Path::new("/tmp")).ok(),
            Some(PathBuf::from("/tmp/./x"))
        );
    }

    #[test]
    fn overrides_replace_inherited_variables() {
        let env = environment(&[("PATH".into(), "/only".into())]);
        let paths: Vec<_> = env.iter().filter(|(k, _)| k == "PATH").collect();
        assert_eq!(paths.len(), 1);
        assert_eq!(paths[0].1, "/only");
    }
}
