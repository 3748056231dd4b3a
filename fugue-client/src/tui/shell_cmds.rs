//! `run-shell` and `if-shell` bound to keys or typed at `C-b :` (vim-tmux-navigator's
//! `bind -n C-h if-shell "$is_vim" "send-keys C-h" "select-pane -L"`). The shell runs
//! off the client's loop (a blocking task, with `source.rs`'s timeout and output
//! bound); what it decides comes back through `App::bound`, its output as a notice.

use super::input::Request;
use super::state::App;
use crate::cli::source;
use fugue_protocol::tmux_cmd::{self, ProcessEnv};

impl App {
    /// `text` expanded as a format against what this client knows (its session,
    /// current window and pane), as the status line expands its formats.
    pub fn expand_here(&self, text: &str) -> String {
        fugue_protocol::format::expand(text, &self.status_ctx())
    }

    /// The formats' view of this client: its session, its current window (the one a
    /// status line's list is not drawing) and pane, the clock, `#()` jobs and the
    /// pending prefix. One for the status lines, prompts and questions alike.
    pub fn status_ctx(&self) -> super::status_fmt::StatusCtx<'_> {
        let now = crate::cli::format::now();
        let layout = self.layout.as_ref();
        let pane = self.format_pane();
        super::status_fmt::StatusCtx {
            layout,
            session_name: &self.session_name,
            window: layout.and_then(|l| l.windows.iter().find(|w| w.active)),
            host: &self.host,
            now,
            utc_offset: crate::cli::format::utc_offset(now),
            jobs: &self.status_jobs,
            interval: std::time::Duration::from_secs(u64::from(self.status_opts.interval)),
            prefix: matches!(self.mode, super::state::Mode::Prefix),
            size: self.term_size,
            pane,
            mouse_any: pane.is_some_and(|p| self.pane_wants_mouse(p)),
            in_mode: pane.is_some_and(|p| self.pane_in_mode(p)),
        }
    }

    /// `run-shell [-b] command`: runs it; its first line of output (or the error)
    /// shows on the status line.
    pub fn run_shell(&mut self, args: &[String]) -> Vec<Request> {
        let (cmd, cwd) = match fugue_verbs::shell_args::run_shell_args(args) {
            Ok(c) => c,
            Err(e) => {
                self.notice(e);
                return Vec::new();
            }
        };
        let notices = self.notices.clone();
        tokio::task::spawn_blocking(move || {
            let said = match source::shell_in(&cmd, cwd.as_deref()) {
                Ok((_, out)) => out.lines().next().unwrap_or_default().to_string(),
                Err(e) => e,
            };
            if !said.is_empty() {
                let _ = notices.send(said);
            }
        });
        Vec::new()
    }

    /// `if-shell [-F] condition command [command]`: with `-F` the condition is a format
    /// judged at once; otherwise a shell command, and the branch its exit status picks
    /// runs when it has finished.
    pub fn if_shell(&mut self, args: &[String]) -> Vec<Request> {
        let (format, cond, then, otherwise) = match fugue_verbs::shell_args::if_shell_args(args) {
            Ok(parts) => parts,
            Err(e) => {
                self.notice(e);
                return Vec::new();
            }
        };
        if format {
            let truth = fugue_protocol::format::is_true(&self.expand_here(&cond));
            return match if truth { Some(then) } else { otherwise } {
                Some(branch) => self.run_line(&branch),
                None => Vec::new(),
            };
        }
        let bound = self.bound.clone();
        let notices = self.notices.clone();
        tokio::task::spawn_blocking(move || {
            let branch = match source::shell(&cond) {
                Ok((true, _)) => Some(then),
                Ok((false, _)) => otherwise,
                Err(e) => {
                    let _ = notices.send(e);
                    None
                }
            };
            if let Some(b) = branch {
                match tmux_cmd::parse(&b, &ProcessEnv) {
                    Ok(cmds) => {
                        let _ = bound.send(cmds);
                    }
                    Err(e) => {
                        let _ = notices.send(e.to_string());
                    }
                }
            }
        });
        Vec::new()
    }
}
