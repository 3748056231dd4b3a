//! The verb table against the command declaration (issue 12).
use super::Cli;
use clap::CommandFactory;
use fugue_protocol::{COMMANDS, Exposure};

/// Verbs that run a declared command under another tmux name, or none at all.
const OTHER_VERBS: &[(&str, &str)] = &[
    (
        "link-window",
        "move-window that keeps the window where it was too, as in tmux",
    ),
    ("next-window", "select-window -n, as in tmux"),
    ("previous-window", "select-window -p, as in tmux"),
    ("last-window", "select-window -l, as in tmux"),
    ("next-layout", "select-layout -n, as in tmux"),
    ("previous-layout", "select-layout -p, as in tmux"),
    (
        "lock-session",
        "lock-server's command for one session's clients",
    ),
    ("lock-client", "lock-server's command for one client"),
    (
        "start-server",
        "connecting starts the server; it asks only list-sessions, unprinted",
    ),
    ("has-session", "list-sessions, answered by the exit status"),
    ("list-windows", "list-panes, grouped by window"),
    (
        "reset-terminal",
        "client only: repairs the terminal, no server needed",
    ),
    ("mcp", "client only: the stdio bridge to the MCP surface"),
    (
        "list-commands",
        "client only: prints the verb table itself, no server needed (as tmux's)",
    ),
    (
        "completions",
        "client only: prints a completion script made from the verb table",
    ),
    (
        "man",
        "client only: prints the manual page made from the verb table",
    ),
    (
        "install-tmux-shim",
        "client only: makes a file link, no server needed",
    ),
    (
        "setup",
        "client only: edits an agent CLI's own settings files, no server needed",
    ),
    (
        "run-shell",
        "client only: the CLI runs the shell command (hooks run it in the server)",
    ),
    (
        "if-shell",
        "client only: the CLI decides, then runs the chosen commands' own declared commands",
    ),
    ("set-window-option", "set-option -w, as in tmux"),
    ("show-window-options", "show-options -w, as in tmux"),
    ("agent", "a group: its subcommands are declared"),
    (
        "save-buffer",
        "show-buffer, the file written by the CLI (cli/buffers.rs says why)",
    ),
    (
        "load-buffer",
        "set-buffer, the file read by the CLI (cli/buffers.rs says why)",
    ),
    (
        "respawn-window",
        "respawn-pane on the window's first pane, the others closed",
    ),
    ("move-pane", "join-pane, as in tmux"),
    ("last-pane", "select-pane -l, as in tmux"),
    (
        "source-file",
        "each line's own declared command; the file is read by the CLI (cli/source.rs says why)",
    ),
];

/// Issue 12: every command the declaration puts on the CLI exists as that verb
/// (and flag), and every verb is either declared or listed above with why.
/// On a thread with a main thread's stack: the whole table's builder needs more
/// than a test thread's 2 MiB in a debug build.
#[test]
fn the_verbs_are_what_the_command_declaration_says() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(verbs_are_declared)
        .expect("a test thread")
        .join()
        .expect("the check passed");
}

fn verbs_are_declared() {
    let cli = Cli::command();
    for spec in COMMANDS {
        let Exposure::As(verb) = spec.surfaces.cli else {
            continue;
        };
        let mut words = verb.split_whitespace();
        let name = words.next().unwrap();
        let mut sub = cli
            .find_subcommand(name)
            .unwrap_or_else(|| panic!("{} declares verb `{name}`, which fugue lacks", spec.name));
        for w in words {
            match w.strip_prefix('-') {
                Some(flag) => {
                    let short = flag.chars().next().unwrap();
                    assert!(
                        sub.get_arguments().any(|a| a.get_short() == Some(short)),
                        "{verb}: no flag -{short}"
                    );
                }
                None => {
                    sub = sub
                        .find_subcommand(w)
                        .unwrap_or_else(|| panic!("{verb}: no subcommand {w}"));
                }
            }
        }
    }
    for sub in cli.get_subcommands() {
        let name = sub.get_name();
        let declared = COMMANDS
            .iter()
            .filter_map(|c| c.surfaces.cli.name())
            .any(|v| v.split_whitespace().next() == Some(name));
        assert!(
            declared || OTHER_VERBS.iter().any(|(v, _)| *v == name),
            "verb `{name}` runs no declared command and is not listed with a reason"
        );
    }
}
