//! What the machine says about itself, for formats: the time, the local zone's offset
//! (`%H:%M` and `#{t:...}` are local time, as tmux's), and the host name (`#H`,
//! `#h`). Shared by the client (list verbs' `-F`, display -p, titles) and the server
//! (`set-option -F`), so both expand the same way.

use super::vars::Snapshot;
use crate::{BufferInfo, PaneInfo, SessionInfo};

/// The local time zone's offset from UTC at `t`, in seconds east (libc's localtime_r).
pub fn utc_offset(t: i64) -> i64 {
    // time_t is 32 bits on some targets: out of its range is UTC.
    #[allow(clippy::useless_conversion, irrefutable_let_patterns)]
    let Ok(tt) = libc::time_t::try_from(t) else {
        return 0;
    };
    // SAFETY: localtime_r writes only into `tm`, which we own; a zeroed tm is valid.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let ok = unsafe { !libc::localtime_r(&tt, &mut tm).is_null() };
    #[allow(clippy::useless_conversion)] // c_long is 32 bits on some targets.
    let off = i64::from(tm.tm_gmtoff);
    if ok { off } else { 0 }
}

/// Seconds since the epoch, now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(0))
        .unwrap_or(0)
}

/// The host name (tmux's `host`), from uname.
pub fn host() -> String {
    // SAFETY: uname fills the struct we own; a zeroed utsname is valid.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    if unsafe { libc::uname(&mut u) } != 0 {
        return String::new();
    }
    // SAFETY: uname NUL-terminates nodename within its array.
    unsafe { std::ffi::CStr::from_ptr(u.nodename.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// A snapshot of `sessions`, `panes` and `buffers` with the machine's variables
/// (`host`, `host_short`, `version`) and the time.
pub fn snapshot(
    sessions: Vec<SessionInfo>,
    panes: Vec<PaneInfo>,
    buffers: Vec<BufferInfo>,
) -> Snapshot {
    let host = host();
    let short = host.split('.').next().unwrap_or("").to_string();
    let now = now();
    let mut snap = Snapshot {
        sessions,
        panes,
        buffers,
        now,
        utc_offset: utc_offset(now),
        ..Snapshot::default()
    };
    for (k, v) in [
        ("host", host),
        ("host_short", short),
        // tmux's `#{version}` is what `tmux -V` prints after `tmux `: tools that
        // check features by it (iTerm2) read the same number both ways.
        ("version", tmux_version()),
        ("fugue_version", env!("CARGO_PKG_VERSION").to_string()),
        // SAFETY: getuid cannot fail and touches no memory of ours.
        ("uid", unsafe { libc::getuid() }.to_string()),
        ("user", user()),
    ] {
        snap.globals.insert(k.to_string(), v);
    }
    if let Some((pid, socket)) = SERVER.get() {
        snap.globals.insert("pid".into(), pid.to_string());
        snap.globals.insert("socket_path".into(), socket.clone());
    }
    snap
}

/// The server a client process talks to (its pid and socket, from the handshake),
/// for formats' `#{pid}` and `#{socket_path}`: set once by the client; the server
/// sets its own.
static SERVER: std::sync::OnceLock<(u32, String)> = std::sync::OnceLock::new();

/// Records the server's pid and socket for [`snapshot`] (the first call wins).
pub fn set_server(pid: u32, socket: String) {
    let _ = SERVER.set((pid, socket));
}

/// The server's pid and socket, once [`set_server`] was called.
pub fn server() -> Option<(u32, String)> {
    SERVER.get().cloned()
}

/// The tmux release whose behaviour fugue follows (its manual page is the spec).
pub const TMUX_VERSION: &str = "3.5a";

/// tmux's version string for fugue: tmux's release, naming fugue (`3.5a-fugue`).
pub fn tmux_version() -> String {
    format!("{TMUX_VERSION}-fugue")
}

/// The name of the user this process runs as (tmux's `#{user}`, from the password
/// database), else `$USER`.
pub fn user() -> String {
    // SAFETY: getpwuid_r writes at most `buf.len()` bytes into `buf` and the entry
    // into `pw`; `found` points at `pw` or is null. The name is read only when it is
    // set, as a C string inside `buf`, which outlives the read.
    let mut buf = vec![0 as libc::c_char; 4096];
    let mut pw: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    let rc = unsafe {
        libc::getpwuid_r(
            libc::getuid(),
            &mut pw,
            buf.as_mut_ptr(),
            buf.len(),
            &mut found,
        )
    };
    if rc == 0 && !found.is_null() && !pw.pw_name.is_null() {
        return unsafe { std::ffi::CStr::from_ptr(pw.pw_name) }
            .to_string_lossy()
            .into_owned();
    }
    std::env::var("USER").unwrap_or_default()
}
