//! `C-b :`, tmux's `command-prompt`: a line of tmux commands typed on the status line,
//! split by the shared parser ([`fugue_protocol::tmux_cmd`]) and turned into Commands
//! by the CLI's verb table ([`fugue_verbs::line`]), so what is typed here does what the
//! same `fugue VERB` does. A `;` sequence runs in order and stops at the first error
//! (tmux's command queue), which shows on the status line as tmux shows it.

use super::input::Request;
use super::prompt::{Edit, LineEdit};
use super::state::{App, Mode, Pending, PromptKind};
use fugue_protocol::Command;
use fugue_protocol::admin::PromptType;
use fugue_protocol::cmd;
use fugue_protocol::keys::{Key, KeyCode};
use fugue_protocol::tmux_cmd::{self, ProcessEnv};
use std::collections::VecDeque;

/// Lines remembered for Up/Down: tmux keeps 100 (its `history-file` aside).
pub const HISTORY_MAX: usize = 100;

/// What fetches the server's history when the prompt opens.
pub const HISTORY: &str = "show-prompt-history";

/// The prompt's history: the newest line last, and where Up/Down has got to. The
/// server keeps the history every client shares (`show-prompt-history`); this copy is
/// fetched when the prompt opens, and a line entered goes into both.
#[derive(Debug, Default)]
pub struct History {
    lines: VecDeque<String>,
    /// Index into `lines` being shown, None when editing a new line.
    at: Option<usize>,
    /// The new line being typed before Up was pressed, given back by Down.
    draft: String,
}

impl History {
    /// The server's command history, fetched as the prompt opened; a walk with Up
    /// already under way keeps its place.
    pub fn replace(&mut self, history: fugue_protocol::admin::PromptHistory) {
        if self.at.is_some() {
            return;
        }
        let Some((_, lines)) = history
            .into_iter()
            .find(|(k, _)| *k == fugue_protocol::admin::PromptType::Command)
        else {
            return;
        };
        let skip = lines.len().saturating_sub(HISTORY_MAX);
        self.lines = lines.into_iter().skip(skip).collect();
    }

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
        vec![Request {
            command: Command::ShowPromptHistory(cmd::ShowPromptHistory {
                kind: Some(PromptType::Command),
            }),
            pending: Pending::Action(HISTORY),
        }]
    }

    /// A key while the command prompt is open.
    pub fn command_prompt_key(&mut self, mut input: LineEdit, key: Key) -> Vec<Request> {
        if key.code == KeyCode::Tab && key.mods == fugue_protocol::keys::Mods::NONE {
            self.complete(&mut input);
            self.mode = Mode::Prompt {
                kind: PromptKind::Command,
                input,
            };
            return Vec::new();
        }
        self.completion = None;
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
                let mut requests = Vec::new();
                if !line.is_empty() {
                    requests.push(Request {
                        command: Command::PromptEntered(cmd::PromptEntered {
                            kind: PromptType::Command,
                            line: line.clone(),
                        }),
                        pending: Pending::Action("command-prompt"),
                    });
                }
                requests.extend(self.run_line(&line));
                requests
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

/// Repeated Tab: the candidates of the word being completed, the one shown, and
/// the line as Tab left it (another key ends the cycle).
#[derive(Debug)]
pub struct Cycle {
    candidates: Vec<String>,
    at: usize,
    start: usize,
    line: String,
}

/// Verbs whose arguments are option names (tmux completes them there).
const OPTION_VERBS: &[&str] = &[
    "set-option",
    "set",
    "set-window-option",
    "setw",
    "show-options",
    "show",
    "show-window-options",
    "showw",
];

/// The names that complete the word before the cursor (from byte `start`): command
/// names for the first word of a command, option names after an option verb's
/// flags, nothing elsewhere.
fn candidates(before: &str, option_names: &[String]) -> (usize, Vec<String>) {
    let start = before
        .rfind(|c: char| c.is_whitespace() || c == ';')
        .map_or(0, |i| i + 1);
    let word = &before[start..];
    // The words of this command (after the last `;`) before the one completed.
    let command = before[..start].rsplit(';').next().unwrap_or("");
    let words: Vec<&str> = command.split_whitespace().collect();
    let pool: Vec<String> = match words.first() {
        None => fugue_verbs::line::command_names(),
        Some(verb) if OPTION_VERBS.contains(verb) && !word.starts_with('-') => {
            // Not the value of a flag that takes one (-t target).
            if words.last().is_some_and(|w| *w == "-t") {
                return (start, Vec::new());
            }
            option_names.to_vec()
        }
        Some(_) => Vec::new(),
    };
    let found = pool.into_iter().filter(|n| n.starts_with(word)).collect();
    (start, found)
}

fn common_prefix(names: &[String]) -> String {
    let Some(first) = names.first() else {
        return String::new();
    };
    let mut end = first.len();
    for n in &names[1..] {
        end = first
            .char_indices()
            .zip(n.chars())
            .find(|((_, a), b)| a != b)
            .map_or(end.min(n.len()), |((i, _), _)| i.min(end));
    }
    first[..end].to_string()
}

impl App {
    /// Tab at `C-b :`, as tmux's: one match is completed with a space after it;
    /// several complete to what they share; when they share no more, each Tab shows
    /// the next in turn.
    fn complete(&mut self, input: &mut LineEdit) {
        if let Some(c) = self.completion.as_mut()
            && c.line == input.text()
        {
            c.at = (c.at + 1) % c.candidates.len().max(1);
            if let Some(next) = c.candidates.get(c.at) {
                input.replace_before_cursor(c.start, next);
                c.line = input.text().to_string();
            }
            return;
        }
        self.completion = None;
        let (start, found) = candidates(input.before_cursor(), &self.option_names);
        let word_len = input.before_cursor().len() - start;
        match found.as_slice() {
            [] => {}
            [one] => input.replace_before_cursor(start, &format!("{one} ")),
            _ => {
                let prefix = common_prefix(&found);
                if prefix.len() > word_len {
                    input.replace_before_cursor(start, &prefix);
                    return;
                }
                input.replace_before_cursor(start, &found[0]);
                self.completion = Some(Cycle {
                    candidates: found,
                    at: 0,
                    start,
                    line: input.text().to_string(),
                });
            }
        }
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
                // Run now, before the requests above are answered: here the client
                // sends the file's commands as one chained sequence afterwards.
                Step::Shell { at, cmd, cwd } => {
                    if let Err(e) = source::shell_in(&cmd, cwd.as_deref()) {
                        first_error.get_or_insert(format!("{at}: {e}"));
                    }
                }
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
    fn completes_commands_first_and_options_after_option_verbs() {
        let opts = vec!["status".to_string(), "status-left".into(), "mouse".into()];
        let (start, found) = candidates("spli", &opts);
        assert_eq!(
            (start, found),
            (
                0,
                vec!["split".to_string(), "split-window".into(), "splitw".into()]
            )
        );
        let (start, found) = candidates("set -g stat", &opts);
        assert_eq!((start, found.len()), (7, 2));
        assert_eq!(
            candidates("new-window ; kill-p", &opts).1,
            vec!["kill-pane"]
        );
        assert!(candidates("set -t sta", &opts).1.is_empty());
        assert!(candidates("rename-window sta", &opts).1.is_empty());
        assert_eq!(common_prefix(&found), "status");
    }

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
