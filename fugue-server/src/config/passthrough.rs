//! `[passthrough]`: what programs in panes may do to the person's own terminal
//! (docs/terminal.md, "Passthrough to your terminal"). The names and meanings are
//! tmux's options of the same names.

use serde::Deserialize;

/// tmux's `set-clipboard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SetClipboard {
    /// A program's OSC 52 copy goes to the attached clients' terminals and is kept as
    /// the server's clipboard.
    On,
    /// Programs' copies are ignored; only fugue's own copies would reach the terminal
    /// (tmux's default: a program cannot set the person's clipboard unasked).
    External,
    /// Neither.
    Off,
}

/// tmux 3.4's `get-clipboard`, in part: what a program's `OSC 52 ; c ; ?` gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GetClipboard {
    /// No answer: a program cannot read what was copied (the default).
    Off,
    /// The server's clipboard: the last copy a program made with `set_clipboard = "on"`.
    Buffer,
}

/// tmux's `bell-action`: which bells ring the attached clients' terminals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BellAction {
    /// A bell in any window of the client's session.
    Any,
    /// None.
    None,
    /// Only a bell in the window the client shows.
    Current,
    /// Only a bell in another window.
    Other,
}

impl BellAction {
    /// Whether a bell in a window that is (or is not) the session's current one rings.
    pub fn rings(self, current: bool) -> bool {
        match self {
            BellAction::Any => true,
            BellAction::None => false,
            BellAction::Current => current,
            BellAction::Other => !current,
        }
    }
}

/// The longest title format fugue takes (the expanded title is bounded by the client).
const MAX_TITLE_FORMAT: usize = 1024;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PassthroughSection {
    pub set_clipboard: SetClipboard,
    pub get_clipboard: GetClipboard,
    /// Set the terminal's title (tmux's `set-titles`).
    pub set_titles: bool,
    /// The title's format (tmux's `set-titles-string`).
    pub set_titles_string: String,
    pub bell_action: BellAction,
}

impl Default for PassthroughSection {
    fn default() -> Self {
        PassthroughSection {
            set_clipboard: SetClipboard::External,
            get_clipboard: GetClipboard::Off,
            set_titles: false,
            // tmux's default, less `#{session_alerts}` which fugue does not have.
            set_titles_string: "#S:#I:#W - \"#T\"".into(),
            bell_action: BellAction::Any,
        }
    }
}

impl PassthroughSection {
    pub fn validate(&self) -> Result<(), String> {
        if self.set_titles_string.len() > MAX_TITLE_FORMAT {
            return Err(format!(
                "passthrough.set_titles_string is longer than {MAX_TITLE_FORMAT} bytes"
            ));
        }
        Ok(())
    }

    /// The title format attached clients use, when they set the title at all.
    pub fn titles(&self) -> Option<String> {
        self.set_titles.then(|| self.set_titles_string.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use std::path::Path;

    #[test]
    fn tmux_names_parse_and_others_are_refused() {
        let c = Config::parse(
            "[passthrough]\nset_clipboard = \"on\"\nget_clipboard = \"buffer\"\n\
             set_titles = true\nbell_action = \"other\"\n",
            Path::new("c"),
        )
        .unwrap();
        let p = &c.passthrough;
        assert_eq!(p.set_clipboard, SetClipboard::On);
        assert_eq!(p.get_clipboard, GetClipboard::Buffer);
        assert_eq!(p.titles().as_deref(), Some("#S:#I:#W - \"#T\""));
        assert_eq!(p.bell_action, BellAction::Other);
        for bad in [
            "[passthrough]\nset_clipboard = \"yes\"\n",
            "[passthrough]\nbell_action = \"all\"\n",
            "[passthrough]\nget_clipboard = \"request\"\n",
        ] {
            let msg = Config::parse(bad, Path::new("c")).unwrap_err().to_string();
            assert!(msg.contains("line 2"), "{bad}: {msg}");
        }
        let long = format!(
            "[passthrough]\nset_titles_string = \"{}\"\n",
            "x".repeat(2000)
        );
        assert!(Config::parse(&long, Path::new("c")).is_err());
    }

    #[test]
    fn bell_action_decides_which_bells_ring() {
        let rings = |a: BellAction| (a.rings(true), a.rings(false));
        assert_eq!(rings(BellAction::Any), (true, true));
        assert_eq!(rings(BellAction::None), (false, false));
        assert_eq!(rings(BellAction::Current), (true, false));
        assert_eq!(rings(BellAction::Other), (false, true));
    }
}
