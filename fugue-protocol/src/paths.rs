//! Where sockets, logs and config live. Pure functions of the environment so that the
//! server and every client agree.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Name of the default server (`-L` picks another).
pub const DEFAULT_SERVER_NAME: &str = "default";

/// Reads environment variables; tests pass their own.
pub trait Env {
    fn var(&self, name: &str) -> Option<OsString>;
}

/// The process environment.
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<OsString> {
        std::env::var_os(name).filter(|v| !v.is_empty())
    }
}

fn absolute(v: Option<OsString>) -> Option<PathBuf> {
    v.map(PathBuf::from).filter(|p| p.is_absolute())
}

fn home(env: &dyn Env) -> PathBuf {
    absolute(env.var("HOME")).unwrap_or_else(|| PathBuf::from("/"))
}

/// The folder next to a server's socket that holds its `tmux` name (a link to the
/// `fugue` client), put first on the PATH of its panes and jobs.
pub fn tmux_shim_dir(socket: &Path) -> PathBuf {
    let name = socket
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    socket.with_file_name(format!("{name}.bin"))
}

/// The folder of sockets: `$XDG_RUNTIME_DIR/fugue`, else `$TMPDIR/fugue-UID` (or
/// `/tmp/fugue-UID`).
pub fn socket_dir(env: &dyn Env, uid: u32) -> PathBuf {
    match absolute(env.var("XDG_RUNTIME_DIR")) {
        Some(dir) => dir.join("fugue"),
        None => absolute(env.var("TMPDIR"))
            .unwrap_or_else(|| PathBuf::from("/tmp"))
            .join(format!("fugue-{uid}")),
    }
}

/// tmux's folder of sockets: `$TMUX_TMPDIR/tmux-UID`, else `/tmp/tmux-UID`. A server
/// started by fugue's `tmux -L NAME` leaves a link to its socket there, for tools
/// that build tmux's path themselves (docs/tmux.md).
pub fn tmux_socket_dir(env: &dyn Env, uid: u32) -> PathBuf {
    absolute(env.var("TMUX_TMPDIR"))
        .unwrap_or_else(|| PathBuf::from("/tmp"))
        .join(format!("tmux-{uid}"))
}

/// The socket of the server called `name`.
pub fn socket_path(env: &dyn Env, uid: u32, name: &str) -> PathBuf {
    socket_dir(env, uid).join(name)
}

/// The MCP socket that sits next to a client socket.
pub fn mcp_socket_path(socket: &Path) -> PathBuf {
    let mut s = socket.as_os_str().to_owned();
    s.push(".mcp");
    PathBuf::from(s)
}

/// Logs, the audit log and persisted state: `$XDG_STATE_HOME/fugue` or
/// `~/.local/state/fugue`.
pub fn state_dir(env: &dyn Env) -> PathBuf {
    absolute(env.var("XDG_STATE_HOME"))
        .unwrap_or_else(|| home(env).join(".local/state"))
        .join("fugue")
}

/// The user's config file: `$XDG_CONFIG_HOME/fugue/config.toml` or
/// `~/.config/fugue/config.toml`.
pub fn config_path(env: &dyn Env) -> PathBuf {
    absolute(env.var("XDG_CONFIG_HOME"))
        .unwrap_or_else(|| home(env).join(".config"))
        .join("fugue/config.toml")
}

/// A short name for a socket path, used to name its log files.
pub fn server_label(socket: &Path) -> String {
    let name = socket
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() {
        "server".into()
    } else {
        clean
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct MapEnv(HashMap<&'static str, &'static str>);
    impl Env for MapEnv {
        fn var(&self, name: &str) -> Option<OsString> {
            self.0.get(name).map(OsString::from)
        }
    }

    #[test]
    fn runtime_dir_wins_then_tmp_per_uid() {
        let env = MapEnv([("XDG_RUNTIME_DIR", "/run/user/7")].into());
        assert_eq!(
            socket_path(&env, 7, "default"),
            PathBuf::from("/run/user/7/fugue/default")
        );
        let env = MapEnv(HashMap::new());
        assert_eq!(socket_path(&env, 7, "x"), PathBuf::from("/tmp/fugue-7/x"));
        // A relative XDG path is ignored, as the XDG spec says.
        let env = MapEnv([("XDG_RUNTIME_DIR", "rel")].into());
        assert_eq!(socket_dir(&env, 7), PathBuf::from("/tmp/fugue-7"));
    }

    #[test]
    fn state_and_config_follow_xdg() {
        let env = MapEnv([("HOME", "/home/a")].into());
        assert_eq!(state_dir(&env), PathBuf::from("/home/a/.local/state/fugue"));
        assert_eq!(
            config_path(&env),
            PathBuf::from("/home/a/.config/fugue/config.toml")
        );
        assert_eq!(
            mcp_socket_path(Path::new("/r/fugue/default")),
            PathBuf::from("/r/fugue/default.mcp")
        );
        assert_eq!(server_label(Path::new("/x/my sock")), "my_sock");
    }
}
