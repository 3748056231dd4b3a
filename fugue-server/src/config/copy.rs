//! `[copy]`: copy mode, which the client runs; the server only hands the options to
//! each client that attaches (`AttachInfo::copy`).

use fugue_protocol::ModeKeys;
use serde::Deserialize;

/// The longest `copy_command` argv (arguments, and bytes in all of them): a command
/// line, not a script.
const MAX_COPY_COMMAND_ARGS: usize = 64;
const MAX_COPY_COMMAND_BYTES: usize = 4096;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CopySection {
    /// tmux's `mode-keys`: "vi" or "emacs".
    pub mode_keys: ModeKeys,
    /// Searches move while the pattern is typed.
    pub search_incremental: bool,
    /// Search patterns are regular expressions.
    pub search_regex: bool,
    /// tmux's `copy-pipe`: argv of a command that gets each copy on its stdin.
    pub copy_command: Vec<String>,
    /// tmux's `wrap-search`: a search that reaches an end goes on from the other.
    pub wrap_search: bool,
}

impl Default for CopySection {
    fn default() -> Self {
        CopySection {
            mode_keys: ModeKeys::Vi,
            search_incremental: false,
            search_regex: false,
            copy_command: Vec::new(),
            wrap_search: true,
        }
    }
}

impl CopySection {
    pub fn validate(&self) -> Result<(), String> {
        let bytes: usize = self.copy_command.iter().map(String::len).sum();
        if self.copy_command.len() > MAX_COPY_COMMAND_ARGS || bytes > MAX_COPY_COMMAND_BYTES {
            return Err(format!(
                "copy.copy_command: at most {MAX_COPY_COMMAND_ARGS} arguments and {MAX_COPY_COMMAND_BYTES} bytes"
            ));
        }
        if self.copy_command.first().is_some_and(|p| p.is_empty()) {
            return Err("copy.copy_command: the program's name is empty".into());
        }
        Ok(())
    }

    /// What the client needs, with whether fugue's own copies reach the terminal's
    /// clipboard (tmux's `set-clipboard` "on" and "external" both let them).
    pub fn options(&self, clipboard: super::SetClipboard) -> fugue_protocol::CopyOptions {
        fugue_protocol::CopyOptions {
            mode_keys: self.mode_keys,
            clipboard: clipboard != super::SetClipboard::Off,
            search_incremental: self.search_incremental,
            search_regex: self.search_regex,
            copy_command: self.copy_command.clone(),
            wrap_search: self.wrap_search,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Config;
    use fugue_protocol::ModeKeys;

    #[test]
    fn copy_section_parses_and_checks_the_command() {
        let c: Config = toml::from_str(
            "[copy]\nmode_keys = \"emacs\"\nsearch_regex = true\ncopy_command = [\"wl-copy\"]\n",
        )
        .unwrap();
        assert_eq!(c.copy.mode_keys, ModeKeys::Emacs);
        assert!(c.copy.search_regex && !c.copy.search_incremental);
        assert!(c.copy.validate().is_ok());
        assert!(toml::from_str::<Config>("[copy]\nmode_keys = \"vim\"\n").is_err());
        let c: Config = toml::from_str("[copy]\ncopy_command = [\"\"]\n").unwrap();
        assert!(c.copy.validate().is_err());
    }
}
