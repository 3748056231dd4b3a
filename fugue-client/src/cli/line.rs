//! tmux command lines on the client: argv from the shared parser
//! ([`fugue_protocol::tmux_cmd`]) turned into Commands by the CLI's own verb table, so
//! a command typed at `C-b :`, bound to a key or read by `source-file` does exactly
//! what the same `fugue VERB` does.
//!
//! Why here and not in the server: the verb and flag table is the CLI's clap
//! declaration (args.rs), and its conversion to Commands (verbs.rs) resolves paths
//! against the caller's directory. The server stores bindings as argv and the client
//! runs them; `source-file` is read by the client that asks for it (CLI or `C-b :`),
//! each line sent as its own Command through the dispatcher.

use super::args::{Cli, Verb};
use anyhow::{Context, bail};
use clap::Parser;
use fugue_protocol::Command;
use fugue_protocol::key_tables::{Binding, check_table};
use fugue_protocol::keys::Key;
use fugue_protocol::tmux_cmd::{self, ProcessEnv};

/// The Command for one argv (`["split-window", "-h"]`), or a one-line error as tmux
/// shows it on the status line.
pub fn command_for_argv(argv: &[String]) -> Result<Command, String> {
    let Some(name) = argv.first() else {
        return Err("no command".into());
    };
    let cli = Cli::try_parse_from(std::iter::once("fugue".to_string()).chain(argv.iter().cloned()))
        .map_err(|e| clap_message(name, &e))?;
    let Some(verb) = cli.verb else {
        return Err(format!("unknown command: {name}"));
    };
    if matches!(
        verb,
        Verb::AttachSession { .. }
            | Verb::Mcp { .. }
            | Verb::ResetTerminal
            | Verb::SourceFile { .. }
    ) {
        return Err(format!("{name}: not a command for a running client"));
    }
    super::verbs::command_for(verb)
        .map(|(c, _)| c)
        .map_err(|e| format!("{name}: {e:#}"))
}

/// clap's error as one line.
fn clap_message(name: &str, e: &clap::Error) -> String {
    use clap::error::ErrorKind;
    if e.kind() == ErrorKind::InvalidSubcommand {
        return format!("unknown command: {name}");
    }
    let text = e.to_string();
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ")
        .to_string();
    format!("{name}: {first}")
}

pub fn table_name(table: Option<String>, root: bool) -> String {
    match (root, table) {
        (true, _) => "root".into(),
        (false, Some(t)) => t,
        (false, None) => "prefix".into(),
    }
}

pub fn key(s: &str) -> anyhow::Result<Key> {
    Key::parse(s).with_context(|| {
        format!("unknown key: {s} (keys are written as tmux writes them: a, C-a, M-Left, F5, Space, Enter, ...)")
    })
}

/// A `bind-key`'s binding: its command sequence checked against the verb table now,
/// so a typo is an error at bind time, not a silent key later.
pub fn binding(
    table: Option<String>,
    root: bool,
    repeat: bool,
    note: Option<String>,
    key_name: &str,
    command: &[String],
) -> anyhow::Result<Binding> {
    let table = table_name(table, root);
    check_table(&table).map_err(anyhow::Error::msg)?;
    let key = key(key_name)?;
    let commands = tmux_cmd::split_sequence(command, &ProcessEnv).map_err(anyhow::Error::msg)?;
    if commands.is_empty() {
        bail!("bind-key: a binding needs a command");
    }
    for argv in &commands {
        if fugue_protocol::KeyAction::from_tmux_argv(argv).is_some() || client_command(argv) {
            continue;
        }
        if let Err(e) = command_for_argv(argv) {
            bail!("{e}");
        }
    }
    Ok(Binding {
        table,
        key,
        repeat,
        note,
        commands,
    })
}

/// Commands the terminal client runs itself (not server commands).
pub fn client_command(argv: &[String]) -> bool {
    matches!(
        argv.first().map(String::as_str),
        Some(
            "command-prompt"
                | "source-file"
                | "source"
                | "switch-client"
                | "copy-mode"
                | "run-shell"
                | "run"
                | "if-shell"
                | "if"
        )
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn option_verbs_go_through_the_verb_table() {
        for line in [
            "set -g mouse on",
            "set-option -g history-limit 5",
            "setw -g mode-keys vi",
        ] {
            match command_for_argv(&argv(line)) {
                Ok(Command::SetOption(_)) => {}
                other => panic!("{line}: {other:?}"),
            }
        }
        assert!(matches!(
            command_for_argv(&argv("show -g mouse")),
            Ok(Command::ShowOptions(_))
        ));
    }

    #[test]
    fn unknown_command_is_named() {
        assert_eq!(
            command_for_argv(&argv("frobnicate -x")),
            Err("unknown command: frobnicate".into())
        );
    }
}
