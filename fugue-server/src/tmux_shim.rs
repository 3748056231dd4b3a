//! The `tmux` name for programs in panes (`tmux-compat`, on by default): a private
//! folder next to the socket holding `tmux`, a link to the `fugue` client, put first on
//! new panes' PATH, with `TMUX` and `TMUX_PANE` set as tmux sets them. A program that
//! runs `tmux split-window ...` in a fugue pane then drives fugue (docs/tmux.md).

use crate::server::Server;
use std::path::{Path, PathBuf};

impl Server {
    /// The folder holding the `tmux` name, once made.
    pub fn tmux_shim_dir(&self) -> PathBuf {
        fugue_protocol::paths::tmux_shim_dir(&self.socket)
    }

    /// What a new pane of `session` (its number) gets for tmux's sake: `TMUX`,
    /// `TMUX_PANE` and PATH with the `tmux` name first. `path` is the PATH the pane
    /// would have otherwise.
    pub fn tmux_env(
        &self,
        pane: fugue_protocol::PaneId,
        session: u32,
        path: Option<&str>,
    ) -> Vec<(String, String)> {
        let mut env = vec![
            (
                "TMUX".to_string(),
                format!("{},{},{session}", self.socket.display(), std::process::id()),
            ),
            ("TMUX_PANE".to_string(), pane.to_string()),
        ];
        let dir = self.tmux_shim_dir();
        if dir.join("tmux").exists() {
            let rest = path
                .map(str::to_string)
                .or_else(|| std::env::var("PATH").ok());
            let joined = match rest.filter(|r| !r.is_empty()) {
                Some(r) => format!("{}:{r}", dir.display()),
                None => dir.display().to_string(),
            };
            env.push(("PATH".to_string(), joined));
        }
        env
    }
}

/// Makes the folder (0700, like the socket's) and the `tmux` link to the `fugue`
/// binary found next to this server's, else on PATH. Without one, panes get `TMUX`
/// but no `tmux` name, and the log says why.
pub fn install(server: &Server) {
    let dir = server.tmux_shim_dir();
    let Some(fugue) = client_binary() else {
        tracing::warn!(
            "tmux-compat: no `fugue` binary next to fugue-server or on PATH; programs in panes will not find fugue as `tmux`"
        );
        return;
    };
    let made = (|| -> std::io::Result<()> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)?;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
        let link = dir.join("tmux");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&fugue, &link)
    })();
    if let Err(e) = made {
        tracing::warn!("tmux-compat: cannot make {}: {e}", dir.display());
    }
}

/// Removes the folder when the server ends.
pub fn remove(server: &Server) {
    let _ = std::fs::remove_dir_all(server.tmux_shim_dir());
}

fn client_binary() -> Option<PathBuf> {
    let next_to = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|d| d.join("fugue")))
        .filter(|p| p.is_file());
    next_to.or_else(|| {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|d| d.join("fugue"))
                .find(|p| Path::new(p).is_file())
        })
    })
}
