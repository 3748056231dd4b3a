//! `fugue setup claude-code|codex|gemini`: wires fugue into an agent CLI's own
//! settings (its MCP server entry, the hooks that report the agent's state and result
//! through `fugue report --hook`, and a short instructions file), showing the change as
//! a diff. Idempotent; `--remove` takes out exactly what it put in.
//!
//! Everything is planned first ([`plan`], pure, tested in process) and written only
//! if every file could be read and understood, so a settings file fugue cannot parse
//! leaves all of them as they were.

mod agents;
mod json_doc;

use anyhow::Context;
use fugue_verbs::{SetupAgent, SetupArgs};
use std::path::{Path, PathBuf};

pub use agents::plan;

/// One file's change: `after` None deletes the file (only files fugue made whole).
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub path: PathBuf,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// What a plan needs to know about where things are.
#[derive(Debug, Clone)]
pub struct Env {
    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub claude_dir: PathBuf,
    /// Where Claude Code keeps its state and user MCP servers: `~/.claude.json`, or
    /// `.claude.json` in `$CLAUDE_CONFIG_DIR`.
    pub claude_state: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: PathBuf,
    pub gemini_dir: PathBuf,
    /// This `fugue`'s absolute path, which the agents run.
    pub fugue: PathBuf,
}

impl Env {
    fn from_process() -> anyhow::Result<Env> {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .context("HOME is not set: fugue setup writes into your home's settings")?;
        let var = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let claude_config = var("CLAUDE_CONFIG_DIR");
        let fugue = std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .context("cannot tell where this fugue is")?;
        Ok(Env {
            claude_dir: claude_config
                .clone()
                .unwrap_or_else(|| home.join(".claude")),
            claude_state: claude_config
                .map(|d| d.join(".claude.json"))
                .unwrap_or_else(|| home.join(".claude.json")),
            codex_home: var("CODEX_HOME").unwrap_or_else(|| home.join(".codex")),
            gemini_dir: home.join(".gemini"),
            fugue,
        })
    }
}

/// The files a plan reads: their text, or None where there is no file.
pub fn read(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

pub fn run(args: SetupArgs) -> anyhow::Result<i32> {
    use std::io::Write;
    let env = Env::from_process()?;
    let (edits, warnings) = plan(&args, &env, read)?;
    for w in &warnings {
        eprintln!("fugue setup: {w}");
    }
    let name = agent_name(args.agent);
    let changes: Vec<&Edit> = edits.iter().filter(|e| e.before != e.after).collect();
    // Written, not print!ed: a closed pipe (`| head`) is an error, not a panic.
    let mut out = std::io::stdout().lock();
    if changes.is_empty() {
        let why = if args.remove {
            "fugue is not set up there"
        } else {
            "already set up"
        };
        writeln!(out, "{name}: nothing to change ({why})")?;
        return Ok(0);
    }
    for e in &changes {
        write!(out, "{}", diff(e))?;
    }
    if args.dry_run {
        writeln!(out, "--dry-run: nothing written")?;
        return Ok(0);
    }
    for e in changes {
        apply(e)?;
        let did = if e.after.is_some() {
            "wrote"
        } else {
            "removed"
        };
        writeln!(out, "{did} {}", e.path.display())?;
    }
    Ok(0)
}

pub fn agent_name(agent: SetupAgent) -> &'static str {
    match agent {
        SetupAgent::ClaudeCode => "claude-code",
        SetupAgent::Codex => "codex",
        SetupAgent::Gemini => "gemini",
    }
}

/// A unified diff of one edit, `/dev/null` standing for a missing file.
pub fn diff(e: &Edit) -> String {
    let path = e.path.display().to_string();
    let old = if e.before.is_some() {
        path.as_str()
    } else {
        "/dev/null"
    };
    let new = if e.after.is_some() {
        path.as_str()
    } else {
        "/dev/null"
    };
    let before = e.before.as_deref().unwrap_or("");
    let after = e.after.as_deref().unwrap_or("");
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .header(old, new)
        .to_string()
}

/// Writes one edit: through a temporary file renamed into place (keeping the old
/// file's permissions), so an agent reading its settings never sees half of them.
fn apply(e: &Edit) -> anyhow::Result<()> {
    let path = &e.path;
    let Some(text) = &e.after else {
        std::fs::remove_file(path).with_context(|| format!("cannot remove {}", path.display()))?;
        return Ok(());
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let file_name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{file_name}.fugue-setup.{}", std::process::id()));
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    if let Ok(meta) = std::fs::metadata(path) {
        // Best effort: the rename below still puts the settings in place.
        let _ = std::fs::set_permissions(&tmp, meta.permissions());
    }
    if let Err(err) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(err).with_context(|| format!("cannot write {}", path.display()));
    }
    Ok(())
}
