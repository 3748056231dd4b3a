//! Copy mode's key tables (`copy-mode-vi`, `copy-mode`): what a key is bound to, and
//! the action of each copy-mode command (`send-keys -X NAME`, tmux's names).

use super::keys::Action;
use super::motion::Jump;
use fugue_protocol::ModeKeys;
use fugue_protocol::keys::Key;

impl Action {
    /// The action of a copy-mode command (`send-keys -X NAME`), tmux's names.
    pub fn from_tmux(name: &str) -> Option<Action> {
        use Action as A;
        Some(match name {
            "cursor-left" => A::Left,
            "cursor-right" => A::Right,
            "cursor-up" => A::Up,
            "cursor-down" => A::Down,
            "next-word" => A::NextWord(false),
            "next-space" => A::NextWord(true),
            "next-word-end" => A::NextWordEnd(false),
            "next-space-end" => A::NextWordEnd(true),
            "previous-word" => A::PreviousWord(false),
            "previous-space" => A::PreviousWord(true),
            "start-of-line" => A::StartOfLine,
            "back-to-indentation" => A::BackToIndentation,
            "end-of-line" => A::EndOfLine,
            "history-top" => A::HistoryTop,
            "history-bottom" => A::HistoryBottom,
            "top-line" => A::TopLine,
            "middle-line" => A::MiddleLine,
            "bottom-line" => A::BottomLine,
            "halfpage-up" => A::HalfPageUp,
            "halfpage-down" => A::HalfPageDown,
            "page-up" => A::PageUp,
            "page-down" => A::PageDown,
            "scroll-up" => A::ScrollUp,
            "scroll-down" => A::ScrollDown,
            "previous-paragraph" => A::PreviousParagraph,
            "next-paragraph" => A::NextParagraph,
            "jump-forward" => A::Jump(Jump::Forward),
            "jump-backward" => A::Jump(Jump::Backward),
            "jump-to-forward" => A::Jump(Jump::ToForward),
            "jump-to-backward" => A::Jump(Jump::ToBackward),
            "jump-again" => A::JumpAgain,
            "jump-reverse" => A::JumpReverse,
            "next-matching-bracket" | "previous-matching-bracket" => A::MatchingBracket,
            "set-mark" => A::SetMark,
            "jump-to-mark" => A::JumpToMark,
            "begin-selection" => A::BeginSelection,
            "select-line" => A::SelectLine,
            "rectangle-toggle" | "rectangle-on" => A::RectangleToggle,
            "other-end" => A::OtherEnd,
            "clear-selection" => A::ClearSelection,
            // Every copy goes to a buffer, the terminal's clipboard (OSC 52) and
            // `copy-command`; a command given to copy-pipe runs as copy-command does.
            "copy-pipe-and-cancel"
            | "copy-selection-and-cancel"
            | "copy-pipe"
            | "copy-selection"
            | "copy-pipe-no-clear"
            | "copy-selection-no-clear" => A::Copy,
            "append-selection-and-cancel" | "append-selection" => A::Append,
            "copy-pipe-end-of-line-and-cancel"
            | "copy-end-of-line-and-cancel"
            | "copy-pipe-end-of-line"
            | "copy-end-of-line" => A::CopyEndOfLine,
            "search-forward" | "search-forward-incremental" => A::SearchPrompt(false),
            "search-backward" | "search-backward-incremental" => A::SearchPrompt(true),
            "search-again" => A::SearchAgain,
            "search-reverse" => A::SearchReverse,
            "cancel" => A::Cancel,
            _ => return None,
        })
    }
}

/// The copy-mode table a `mode-keys` value uses.
pub fn table_of(keys: ModeKeys) -> &'static str {
    match keys {
        ModeKeys::Vi => "copy-mode-vi",
        ModeKeys::Emacs => "copy-mode",
    }
}

/// What a copy-mode key table binds `key` to: a copy-mode command (`send-keys -X`),
/// or other commands a binding may run.
pub enum Bound {
    Action(Action),
    Commands(Vec<Vec<String>>),
    Unknown(String),
}

/// The copy-mode command of a binding's argv (`send-keys -X NAME`, `send -X NAME`).
pub fn copy_command(argv: &[String]) -> Option<&str> {
    match argv {
        [send, x, name, ..] if matches!(send.as_str(), "send-keys" | "send") && x == "-X" => {
            Some(name.as_str())
        }
        _ => None,
    }
}

/// How the table binds `key`.
pub fn bound(keys: &fugue_protocol::KeyTable, mode: ModeKeys, key: Key) -> Option<Bound> {
    let b = keys.lookup(table_of(mode), &key)?;
    Some(match b.commands.as_slice() {
        [one] => match copy_command(one) {
            Some(name) => match Action::from_tmux(name) {
                Some(a) => Bound::Action(a),
                None => Bound::Unknown(name.to_string()),
            },
            None => Bound::Commands(b.commands.clone()),
        },
        _ => Bound::Commands(b.commands.clone()),
    })
}
