//! How the CLI shows a successful answer: formats, JSON, tmux's default lines.

/// How to show a successful answer.
#[derive(Debug)]
pub enum Printer {
    Nothing,
    /// A declared command's answer (`fugue_protocol::DECLARED_CLI`): its text (captured
    /// text, a buffer's data, the prompt history), if it has any, else nothing.
    Answer,
    /// Print nothing, and fail without a message (has-session).
    Quiet,
    /// The one pane of a `PaneScope::Pane` listing, in this format.
    Pane(String),
    Created {
        print: bool,
        format: Option<String>,
        attach: bool,
    },
    /// The lists print `format` (tmux's default when no `-F` was given), or JSON;
    /// `filter` (`-f`, a format) leaves in only the items it is true for, expanded in
    /// the same scope as `format`.
    Sessions {
        format: String,
        filter: Option<String>,
        json: bool,
    },
    Panes {
        format: String,
        filter: Option<String>,
        json: bool,
    },
    Windows {
        format: String,
        filter: Option<String>,
        json: bool,
        all: bool,
    },
    /// list-clients: each client in `format`, those `filter` leaves in.
    Clients {
        format: String,
        filter: Option<String>,
    },
    Captured,
    /// capture-pane's text, ending in one newline as tmux's `-p` ends it (an empty
    /// capture is one empty line).
    CapturedPane,
    /// Text for people, or the whole answer as JSON.
    Json(bool),
    Agent(crate::agent::AgentPrinter),
    Buffers(crate::buffers::BufferPrinter),
    Options(crate::options::OptionPrinter),
    Restore(crate::restore::RestorePrinter),
}

impl Printer {
    /// Refuses a bad `-F` before the verb runs. tmux refuses no format (a malformed
    /// one ends where it breaks, an unknown variable is empty), so neither does fugue
    /// any more; kept as the place a verb's other output checks would go.
    pub fn validate(&self) -> anyhow::Result<()> {
        Ok(())
    }
}
