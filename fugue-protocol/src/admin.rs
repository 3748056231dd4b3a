//! Commands about the server's clients and its records rather than its sessions:
//! tmux's `lock-*`, `suspend-client`, `server-access`, `show-messages` and the
//! command prompt's history (`show-prompt-history`, `clear-prompt-history`).

use crate::Target;
use serde::{Deserialize, Serialize};

/// Which attached terminal clients `lock-server`, `lock-session` and `lock-client`
/// lock (control clients have no terminal to lock, as in tmux).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LockScope {
    /// `lock-server`: every client.
    Server,
    /// `lock-session [-t session]`: the clients of a session.
    Session(Option<Target>),
    /// `lock-client [-t client]`: one client (default the calling or latest one).
    Client(Option<String>),
}

/// `server-access [-adglrw] [user]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerAccess {
    /// `-l`: list who may connect.
    pub list: bool,
    /// `-a`: allow a user.
    pub allow: bool,
    /// `-d`: deny a user.
    pub deny: bool,
    /// `-r`: read-only.
    pub read_only: bool,
    /// `-w`: write.
    pub write: bool,
    /// `-g`: the name is a group's.
    pub group: bool,
    pub name: Option<String>,
}

/// `show-messages [-JT] [-t client]`: its verb is this declaration (`clap:` in its
/// table entry).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::Args)]
pub struct ShowMessages {
    #[arg(short = 't', value_name = "client")]
    pub client: Option<String>,
    /// `-J`: running jobs instead.
    #[arg(short = 'J')]
    pub jobs: bool,
    /// `-T`: the clients' terminals instead.
    #[arg(short = 'T')]
    pub terminals: bool,
}

/// tmux's prompt types, each with a history of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PromptType {
    Command,
    Search,
    Target,
    WindowTarget,
}

impl PromptType {
    pub const ALL: [PromptType; 4] = [
        PromptType::Command,
        PromptType::Search,
        PromptType::Target,
        PromptType::WindowTarget,
    ];

    /// tmux's name for it (`-T`).
    pub fn name(self) -> &'static str {
        match self {
            PromptType::Command => "command",
            PromptType::Search => "search",
            PromptType::Target => "target",
            PromptType::WindowTarget => "window-target",
        }
    }

    /// From `-T`; tmux's error for any other name.
    pub fn parse(s: &str) -> Result<PromptType, String> {
        PromptType::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("invalid type: {s}"))
    }
}

/// `-T type` on a command line (`show-prompt-history`, `clear-prompt-history`).
impl std::str::FromStr for PromptType {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PromptType::parse(s)
    }
}

/// `show-prompt-history`'s answer: each type asked for, with its lines oldest first.
pub type PromptHistory = Vec<(PromptType, Vec<String>)>;

/// tmux's `show-prompt-history` text: a heading per type, its lines numbered from 1,
/// and a blank line after each.
pub fn print_prompt_history(history: &PromptHistory) -> String {
    let mut out = String::new();
    for (kind, lines) in history {
        out.push_str(&format!("History for {}:\n\n", kind.name()));
        for (i, line) in lines.iter().enumerate() {
            out.push_str(&format!("{}: {line}\n", i + 1));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_types_read_back_and_others_are_refused_as_tmux_refuses_them() {
        for t in PromptType::ALL {
            assert_eq!(PromptType::parse(t.name()), Ok(t));
        }
        assert_eq!(
            PromptType::parse("foo"),
            Err("invalid type: foo".to_string())
        );
    }

    #[test]
    fn history_prints_as_tmux_prints_it() {
        let h = vec![(PromptType::Command, vec!["splitw".into(), "ls".into()])];
        assert_eq!(
            print_prompt_history(&h),
            "History for command:\n\n1: splitw\n2: ls\n\n"
        );
    }
}
