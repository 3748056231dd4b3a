//! Who runs a verb, as far as turning it into a Command needs to know.

use std::path::PathBuf;

/// What the conversion may use of its caller: a directory for relative paths and
/// `new-session`'s default, and whether `-` may mean standard input.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    /// Relative paths resolve against this; `new-session` starts here. None: the
    /// server's default (a hook's new session starts where the server's default
    /// command would).
    pub cwd: Option<PathBuf>,
    /// `load-buffer` and `report --result` read files and standard input (`-`). A
    /// hook has no standard input, and the server, which agents reach too, never
    /// opens a path for them (see buffers.rs).
    pub files: bool,
    /// The process's environment, for tmux's `update-environment` on `new-session`
    /// (None for the server's own commands, which have no client).
    pub env: Option<Vec<(String, String)>>,
}

/// At most this many bytes of a client's environment go to the server with
/// `new-session` and `attach-session` (names and values; variables past it are left
/// out), so a huge environment cannot make a command too big to send.
pub const MAX_CLIENT_ENV_BYTES: usize = 64 * 1024;

/// This process's environment as `update-environment` reads it (variables that are
/// not UTF-8 are left out), bounded by [`MAX_CLIENT_ENV_BYTES`].
pub fn client_env() -> Vec<(String, String)> {
    let mut left = MAX_CLIENT_ENV_BYTES;
    let mut out = Vec::new();
    for (k, v) in std::env::vars_os() {
        let (Ok(k), Ok(v)) = (k.into_string(), v.into_string()) else {
            continue;
        };
        let size = k.len().saturating_add(v.len());
        if size > left {
            continue;
        }
        left -= size;
        out.push((k, v));
    }
    out
}

impl Caller {
    /// The running process: its directory and its standard input (the CLI, and the
    /// terminal client's `C-b :`, whose directory is the one `fugue` started in).
    pub fn process() -> Self {
        Caller {
            cwd: std::env::current_dir().ok(),
            files: true,
            env: Some(client_env()),
        }
    }

    /// A command the server runs itself (a hook): no directory, no standard input.
    pub fn server() -> Self {
        Caller::default()
    }

    /// `path` made absolute against the caller's directory.
    pub fn absolute(&self, path: &std::path::Path) -> std::io::Result<PathBuf> {
        match &self.cwd {
            Some(dir) if path.is_relative() => Ok(dir.join(path)),
            _ => std::path::absolute(path),
        }
    }

    /// Reads at most `limit` bytes of a file, or of standard input for `-`.
    pub fn read(&self, source: &std::path::Path, limit: u64) -> anyhow::Result<Vec<u8>> {
        use anyhow::Context;
        use std::io::Read;
        if !self.files {
            anyhow::bail!(
                "{} cannot be read here: the server opens no file for a command; run it from the CLI",
                source.display()
            );
        }
        let mut bytes = Vec::new();
        if source.as_os_str() == "-" {
            std::io::stdin()
                .lock()
                .take(limit)
                .read_to_end(&mut bytes)
                .context("cannot read standard input")?;
        } else {
            std::fs::File::open(self.absolute(source)?)
                .and_then(|f| f.take(limit).read_to_end(&mut bytes))
                .with_context(|| format!("cannot read {}", source.display()))?;
        }
        Ok(bytes)
    }
}
