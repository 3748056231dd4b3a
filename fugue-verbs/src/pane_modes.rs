//! The modes a terminal client shows over a pane (`copy-mode`, `choose-buffer`, ...)
//! by tmux's names for them. From the CLI their command line goes to the clients
//! attached to the pane's session; with none attached, the server keeps it on the
//! pane for the next client to show (tmux's modes are the pane's, whoever looks).

/// tmux's names of the pane modes fugue has (`#{pane_mode}`).
pub const MODE_NAMES: &[&str] = &[
    "copy-mode",
    "clock-mode",
    "client-mode",
    "buffer-mode",
    "tree-mode",
    "options-mode",
];

/// The mode a pane-mode command line puts a pane in, by tmux's name for it
/// (`#{pane_mode}`); None for a line that is not one.
pub fn mode_name(argv: &[String]) -> Option<&'static str> {
    match argv.first().map(String::as_str)? {
        "copy-mode" => Some("copy-mode"),
        "clock-mode" => Some("clock-mode"),
        "choose-client" => Some("client-mode"),
        "customize-mode" => Some("options-mode"),
        "choose-buffer" => Some("buffer-mode"),
        "choose-tree" | "choose-window" | "choose-session" | "find-window" | "findw" => {
            Some("tree-mode")
        }
        _ => None,
    }
}
