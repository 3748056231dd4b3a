//! The socket: a private folder, a private socket, one server per socket.

use std::fs::File;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    #[error("a fugue server is already running on {0}")]
    AlreadyRunning(PathBuf),
    #[error("refusing to use {path}: {reason}")]
    Unsafe { path: PathBuf, reason: String },
    #[error("{what} {path}: {source}")]
    Io {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

fn io_err(what: &'static str, path: &Path) -> impl FnOnce(io::Error) -> SocketError + use<> {
    let path = path.to_path_buf();
    move |source| SocketError::Io { what, path, source }
}

pub fn uid() -> u32 {
    // SAFETY: getuid cannot fail and has no side effects.
    unsafe { libc::getuid() }
}

/// Creates the socket folder 0700, or checks that an existing one is ours and private.
pub fn prepare_dir(dir: &Path) -> Result<(), SocketError> {
    match std::fs::DirBuilder::new().mode(0o700).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(parent) = dir.parent() {
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(parent)
                    .map_err(io_err("cannot create", parent))?;
            }
            std::fs::DirBuilder::new()
                .mode(0o700)
                .create(dir)
                .map_err(io_err("cannot create", dir))?;
        }
        Err(e) => return Err(io_err("cannot create", dir)(e)),
    }
    let meta = std::fs::symlink_metadata(dir).map_err(io_err("cannot inspect", dir))?;
    if !meta.is_dir() {
        return Err(SocketError::Unsafe {
            path: dir.into(),
            reason: "it is not a directory".into(),
        });
    }
    if meta.uid() != uid() {
        return Err(SocketError::Unsafe {
            path: dir.into(),
            reason: format!(
                "it belongs to uid {}, not to you (uid {})",
                meta.uid(),
                uid()
            ),
        });
    }
    if meta.mode() & 0o077 != 0 {
        return Err(SocketError::Unsafe {
            path: dir.into(),
            reason: format!(
                "others can access it (mode {:o}); run `chmod 700 {}` or remove it",
                meta.mode() & 0o777,
                dir.display()
            ),
        });
    }
    Ok(())
}

/// A bound socket and the lock that makes it ours.
pub struct Bound {
    pub listener: std::os::unix::net::UnixListener,
    pub path: PathBuf,
    /// A socket left by a server that did not exit cleanly was removed to bind this one.
    pub removed_stale: bool,
    /// The lock file and its path (the main socket only).
    lock: Option<(File, PathBuf)>,
}

impl Drop for Bound {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        // Removed while still held (the file closes after this), so a server starting
        // now either fails to take the old lock or creates a new file: never two.
        if let Some((_, lock)) = &self.lock {
            let _ = std::fs::remove_file(lock);
        }
    }
}

/// Binds `path` with mode 0600, taking a lock so that two servers never share it.
pub fn bind(path: &Path) -> Result<Bound, SocketError> {
    let mut lock_path = path.as_os_str().to_owned();
    lock_path.push(".lock");
    let lock_path = PathBuf::from(lock_path);
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io_err("cannot open lock file", &lock_path))?;
    let _ = std::fs::set_permissions(&lock_path, std::fs::Permissions::from_mode(0o600));
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        return Err(SocketError::AlreadyRunning(path.into()));
    }
    if path.exists() && std::os::unix::net::UnixStream::connect(path).is_ok() {
        return Err(SocketError::AlreadyRunning(path.into()));
    }
    let (listener, path, removed_stale) = listen_private(path)?;
    Ok(Bound {
        listener,
        path,
        removed_stale,
        lock: Some((lock, lock_path)),
    })
}

/// Binds a second socket of a server that already holds its main socket's lock (the
/// MCP socket), with the same permissions.
pub fn bind_unlocked(path: &Path) -> Result<Bound, SocketError> {
    let (listener, path, removed_stale) = listen_private(path)?;
    Ok(Bound {
        listener,
        path,
        removed_stale,
        lock: None,
    })
}

fn listen_private(
    path: &Path,
) -> Result<(std::os::unix::net::UnixListener, PathBuf, bool), SocketError> {
    let stale = path.exists();
    if stale {
        // A socket left behind by a server that died (the caller holds the lock).
        std::fs::remove_file(path).map_err(io_err("cannot remove stale socket", path))?;
    }
    // SAFETY: umask only changes this process's file creation mask; restored below.
    let old = unsafe { libc::umask(0o177) };
    let listener = std::os::unix::net::UnixListener::bind(path);
    unsafe { libc::umask(old) };
    let listener = listener.map_err(io_err("cannot listen on", path))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .map_err(io_err("cannot chmod", path))?;
    Ok((listener, path.into(), stale))
}
