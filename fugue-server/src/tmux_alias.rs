//! tmux's socket path for a server started by fugue's `tmux -L NAME`: a link at
//! `$TMUX_TMPDIR/tmux-UID/NAME` (else `/tmp/tmux-UID/NAME`) to the server's real
//! socket, for tools that build tmux's path themselves instead of asking
//! `#{socket_path}` (libtmux's fixtures check and remove the file there). The real
//! socket stays in fugue's private folder.
//!
//! A live socket already at that path (a real tmux server of the same name) is left
//! alone, and the log says so; a dead one (a server that crashed) is replaced, as
//! tmux replaces it, under tmux's `NAME.lock` so a tmux server that is starting there
//! (bound, not yet listening) is never taken for dead. The folder is made and checked as tmux makes it: ours, 0700.
//! The link is removed at exit if it still leads here.

use std::io;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

/// The link while the server runs; dropping it removes it.
pub struct Alias {
    path: PathBuf,
    target: PathBuf,
}

impl Alias {
    /// Links `path` to `target` (the server's socket) when `path` is free; None (and
    /// a log line saying why) otherwise.
    pub fn create(path: &Path, target: &Path) -> Option<Alias> {
        let dir = path.parent()?;
        if let Err(e) = crate::socket::prepare_dir(dir) {
            tracing::warn!(
                "tmux's path {} is not linked to this server: {e}",
                path.display()
            );
            return None;
        }
        // tmux's lock on the name: a tmux server starting there holds it until it
        // listens, so a socket that does not answer yet is never taken for dead.
        let _lock = match tmux_lock(path) {
            Ok(l) => l,
            Err(e) => {
                tracing::info!("tmux's path {}: {e}; not linked", path.display());
                return None;
            }
        };
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                tracing::warn!("tmux's path {}: {e}; not linked", path.display());
                return None;
            }
            Ok(_) if std::fs::read_link(path).is_ok_and(|t| t == target) => {
                // Left by this socket's last server, which did not get to remove it.
                tracing::info!("tmux's path {} leads to this server", path.display());
                return Some(Alias::new(path, target));
            }
            Ok(_) if UnixStream::connect(path).is_ok() => {
                tracing::info!(
                    "tmux's path {} belongs to a running server (a real tmux?); left alone",
                    path.display()
                );
                return None;
            }
            Ok(_) => {
                // Nothing answers there: a server that ended without removing it.
                if let Err(e) = std::fs::remove_file(path) {
                    tracing::warn!(
                        "cannot remove the stale {}: {e}; not linked",
                        path.display()
                    );
                    return None;
                }
            }
        }
        match std::os::unix::fs::symlink(target, path) {
            Ok(()) => {
                tracing::info!("tmux's path {} leads to this server", path.display());
                Some(Alias::new(path, target))
            }
            Err(e) => {
                tracing::warn!("cannot link tmux's path {}: {e}", path.display());
                None
            }
        }
    }

    fn new(path: &Path, target: &Path) -> Alias {
        Alias {
            path: path.to_path_buf(),
            target: target.to_path_buf(),
        }
    }
}

/// Takes tmux's `NAME.lock` next to `path` (without waiting); released when the file
/// is dropped.
fn tmux_lock(path: &Path) -> Result<std::fs::File, String> {
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(&name)
        .map_err(|e| format!("cannot open {}: {e}", Path::new(&name).display()))?;
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err("a tmux server is starting there (its lock is held)".into());
    }
    Ok(file)
}

impl Drop for Alias {
    fn drop(&mut self) {
        // Only our link: a tool may have removed it and something else taken the name.
        if std::fs::read_link(&self.path).is_ok_and(|t| t == self.target) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_a_free_path_and_removes_only_its_own_link() {
        let dir = tempfile::tempdir().unwrap();
        let tmux_dir = dir.path().join("tmux-1");
        let target = dir.path().join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&target).unwrap();
        let path = tmux_dir.join("name");
        let alias = Alias::create(&path, &target).expect("linked");
        assert_eq!(std::fs::read_link(&path).unwrap(), target);
        assert!(
            UnixStream::connect(&path).is_ok(),
            "connects through the link"
        );
        drop(alias);
        assert!(
            std::fs::symlink_metadata(&path).is_err(),
            "removed at the end"
        );

        // A tmux server starting there (holding NAME.lock) is left alone.
        let held = tmux_lock(&path).unwrap();
        assert!(Alias::create(&path, &target).is_none());
        drop(held);
        // Someone else's live socket there is left alone.
        let theirs = std::os::unix::net::UnixListener::bind(&path).unwrap();
        assert!(Alias::create(&path, &target).is_none());
        assert!(UnixStream::connect(&path).is_ok());
        drop(theirs);
        // Now dead: replaced.
        let alias = Alias::create(&path, &target).expect("stale replaced");
        assert_eq!(std::fs::read_link(&path).unwrap(), target);
        // A link that no longer leads here is not removed.
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(dir.path().join("other"), &path).unwrap();
        drop(alias);
        assert!(std::fs::symlink_metadata(&path).is_ok());
    }
}
