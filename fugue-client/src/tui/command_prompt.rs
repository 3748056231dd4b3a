//! `C-b :`, tmux's `command-prompt`: a line of tmux commands typed on the status line,
//! split by the shared parser ([`fugue_protocol::tmux_cmd`]) and turned into Commands
//! by the CLI's verb table ([`fugue_verbs::line`]), so what is typed here does what the
//! same `fugue VERB` does. A `;` sequence runs in order and stops at the first error
//! (tmux's command queue), which shows on the status line as tmux shows it.

use super::input::Request;
use super::prompt::{Edit, LineEdit};
use super::state::{App, Mode, Pending, PromptKind};
use fugue_protocol::keys::{Key, KeyCode};
use fugue_protocol::tmux_cmd::{self, ProcessEnv};
use std::collections::VecDeque;

/// Lines remembered for Up/Down: tmux keeps 100 (its `history-file` aside).
pub const HISTORY_MAX: usize = 100;

/// The prompt's history: the newest line last, and where Up/Down has got to.
#[derive(Debug, Default)]
pub struct History {
    lines: VecDeque<String>,
    /// Index into `lines` being shown, None when editing a new line.
    at: Option<usize>,
    /// The new line being typed before Up was pressed, given back by Down.
    draft: String,
}

impl History {
    fn push(&mut self, line: &str) {
        self.at = None;
        self.draft.clear();
        if line.is_empty() || self.lines.back().is_some_and(|l| l == line) {
            return;
        }
        if self.lines.len() >= HISTORY_MAX {
            self.lines.pop_front();
        }
        self.lines.push_back(line.to_string());
    }

    /// The older line for Up, or None at the oldest.
    fn up(&mut self, current: &str) -> Option<&str> {
        let i = match self.at {
            None => {
                self.draft = current.to_string();
                self.lines.len().checked_sub(1)?
            }
            Some(i) => i.checked_sub(1)?,
        };
        self.at = Some(i);
        self.lines.get(i).map(String::as_str)
    }

    /// The newer line for Down; past the newest, the draft.
    fn down(&mut self) -> Option<&str> {
        let i = self.at?;
        if i + 1 < self.lines.len() {
            self.at = Some(i + 1);
            return self.lines.get(i + 1).map(String::as_str);
        }
        self.at = None;
        Some(&self.draft)
    }
}

impl App {
    /// Opens the prompt (`C-b :`).
    pub fn open_command_prompt(&mut self) -> Vec<Request> {
        self.history.at = None;
        self.mode = Mode::Prompt {
            kind: PromptKind::Command,
            input: LineEdit::new(String::new()),
        };
        Vec::new()
    }

    /// A key while the command prompt is open.
    pub fn command_prompt_key(&mut self, mut input: LineEdit, key: Key) -> Vec<Request> {
        let recalled = match key.code {
            KeyCode::Up => Some(self.history.up(input.text()).map(String::from)),
            KeyCode::Down => Some(self.history.down().map(String::from)),
            _ => None,
        };
        if let Some(line) = recalled {
            if let Some(line) = line {
                input = LineEdit::new(line);
            }
            self.mode = Mode::Prompt {
                kind: PromptKind::Command,
                input,
            };
            return Vec::new();
        }
        match input.key(key) {
            Edit::Done => {
                let line = input.text().trim().to_string();
                self.history.push(&line);
                self.run_line(&line)
            }
            Edit::Cancelled => Vec::new(),
            Edit::Editing => {
                self.mode = Mode::Prompt {
                    kind: PromptKind::Command,
                    input,
                };
                Vec::new()
            }
        }
    }

    /// Runs a line of tmux commands: nothing runs when it does not parse (tmux parses
    /// the whole line first), and the commands are chained so a failing one stops
    /// the rest.
    pub fn run_line(&mut self, line: &str) -> Vec<Request> {
        let commands = match tmux_cmd::parse(line, &ProcessEnv) {
            Ok(c) => c,
            Err(e) => {
                self.notice(e.to_string());
                return Vec::new();
            }
        };
        chain(self.run_bound(commands))
    }
}

impl App {
    /// `source-file` from a key or `C-b :`: the file's commands, each its own request
    /// (a failing one does not stop the rest, as in `fugue source-file`); the first
    /// line that cannot run is shown on the status line. `if-shell`/`run-shell` in
    /// the file run here, each bounded by the source module's timeout.
    pub fn source_file(&mut self, args: &[String]) -> Vec<Request> {
        use crate::cli::source::{self, Step};
        let (flags, paths) = source::source_args(args);
        let mut out = Vec::new();
        let mut first_error = None;
        // Formats in the file (`%if`, `if-shell -F`) see what this client knows: its
        // session, current window and pane, as the status line does.
        let expand = |s: &str| self.expand_here(s);
        let steps = source::plan(&paths, flags, &expand);
        for step in steps {
            match step {
                Step::Run { command, .. } => out.push(Request {
                    pending: Pending::Action("source-file"),
                    command: *command,
                }),
                Step::Error(e) => {
                    first_error.get_or_insert(e);
                }
                Step::Print(_) => {}
            }
        }
        if let Some(e) = first_error {
            self.notice(e);
        }
        out
    }
}

/// Requests sent one after another: each is sent when the one before succeeded
/// ([`Pending::Then`]), so a sequence stops at its first error as tmux's does.
pub fn chain(requests: Vec<Request>) -> Vec<Request> {
    let mut next: Option<Request> = None;
    for mut r in requests.into_iter().rev() {
        if let Some(n) = next.take() {
            r.pending = Pending::Then(Box::new(r.pending), vec![n]);
        }
        next = Some(r);
    }
    next.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_is_bounded_and_walks_both_ways() {
        let mut h = History::default();
        for i in 0..HISTORY_MAX + 5 {
            h.push(&format!("cmd {i}"));
        }
        assert_eq!(h.lines.len(), HISTORY_MAX);
        h.push("cmd 104");
        assert_eq!(h.lines.len(), HISTORY_MAX, "a repeated line is kept once");
        assert_eq!(h.up("typing"), Some("cmd 104"));
        assert_eq!(h.up(""), Some("cmd 103"));
        assert_eq!(h.down(), Some("cmd 104"));
        assert_eq!(h.down(), Some("typing"));
        assert_eq!(h.down(), None);
        let mut empty = History::default();
        assert_eq!(empty.up("x"), None);
    }
}
