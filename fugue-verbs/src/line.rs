//! tmux command lines: argv from the shared parser ([`fugue_protocol::tmux_cmd`])
//! turned into Commands by the verb table, so a command typed at `C-b :`, bound to a
//! key, read by `source-file` or run by a hook does exactly what the same `fugue VERB`
//! does.

use crate::Caller;
use crate::args::{Cli, Verb};
use clap::Parser;
use fugue_protocol::Command;

use fugue_protocol::keys::Key;
use fugue_protocol::tmux_cmd::Argv;

/// The Command for one argv (`["split-window", "-h"]`), or a one-line error as tmux
/// shows it on the status line.
pub fn command_for_argv(argv: &[String], caller: &Caller) -> Result<Command, String> {
    let (name, verb) = parse_argv(argv)?;
    crate::command_for(verb, caller)
        .map(|(c, _)| c)
        .map_err(|e| format!("{name}: {e}"))
}

/// [`command_for_argv`], with how the CLI would print the answer: a client showing
/// the output of a command typed at its prompt prints it the same way.
pub fn converted_for_argv(argv: &[String], caller: &Caller) -> Result<crate::Converted, String> {
    let (name, verb) = parse_argv(argv)?;
    crate::command_for(verb, caller).map_err(|e| format!("{name}: {e}"))
}

/// The verb an argv names, parsed but not converted: what `bind-key` and `set-hook`
/// check when they store a command, without reading any file it names.
pub fn parse_argv(argv: &[String]) -> Result<(&str, Verb), String> {
    let Some(name) = argv.first() else {
        return Err("no command".into());
    };
    let words: Vec<String> = std::iter::once("fugue".to_string())
        .chain(argv.iter().cloned())
        .collect();
    let cli = with_big_stack(move || Cli::try_parse_from(words))
        .ok_or_else(|| format!("{name}: cannot read the command (no thread to parse it on)"))?
        .map_err(|e| clap_message(name, &e))?;
    let Some(verb) = cli.verb else {
        return Err(format!("unknown command: {name}"));
    };
    if matches!(
        verb,
        Verb::AttachSession { .. }
            | Verb::Mcp { .. }
            | Verb::ResetTerminal
            | Verb::InstallTmuxShim { .. }
            | Verb::Setup(_)
            | Verb::Completions { .. }
            | Verb::Man { .. }
            | Verb::ListCommands { .. }
            | Verb::SourceFile { .. }
            | Verb::RunShell { .. }
            | Verb::IfShell { .. }
    ) {
        return Err(format!("{name}: not a command for a running client"));
    }
    Ok((name, verb))
}

/// A declared verb's command line, parsed: its command, and its flags for a terminal
/// client that acts on them itself ([`crate::Declared::flags`]).
pub fn parse_declared(argv: &[String]) -> Result<crate::Declared, String> {
    match parse_argv(argv)? {
        (_, Verb::Declared(d)) => Ok(d),
        (name, _) => Err(format!("{name}: not a declared command")),
    }
}

/// A declared verb's command line as its flags struct `F` (see [`parse_declared`]).
pub fn parse_flags<F: clap::Args + clap::FromArgMatches>(argv: &[String]) -> Result<F, String> {
    parse_declared(argv)?.flags()
}

/// clap's error as one line.
fn clap_message(name: &str, e: &clap::Error) -> String {
    use clap::error::ErrorKind;
    if e.kind() == ErrorKind::InvalidSubcommand {
        return unknown_command(name);
    }
    let text = e.to_string();
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ")
        .to_string();
    // A flags conversion's message that names its command already (display-menu's
    // items) is not named twice.
    let canonical = canonical_name(name).unwrap_or_else(|| name.to_string());
    if first.starts_with(&format!("{canonical}: ")) {
        return first;
    }
    format!("{name}: {first}")
}

pub fn key(s: &str) -> anyhow::Result<Key> {
    Key::parse_named(s).map_err(anyhow::Error::msg)
}

/// Checks that each command of a bound line is one fugue knows, with flags it takes
/// (the client's own commands are checked when they run).
pub fn check_commands(commands: &[Argv]) -> Result<(), String> {
    for argv in commands {
        if !client_command(argv) {
            parse_argv(argv)?;
        }
    }
    Ok(())
}

/// Commands the terminal client runs itself (not server commands).
pub fn client_command(argv: &[String]) -> bool {
    let name = argv
        .first()
        .map(|n| canonical_name(n).unwrap_or_else(|| n.clone()));
    matches!(
        name.as_deref(),
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
                | "confirm-before"
                | "confirm"
                | "display-menu"
                | "menu"
                | "display-panes"
                | "displayp"
                | "choose-tree"
                | "choose-window"
                | "choose-session"
                | "find-window"
                | "findw"
        )
    )
}

/// Every command name and alias a command line takes, sorted: the verb table's
/// (those a running client can run) and the client's own, for `C-b :`'s completion.
pub fn command_names() -> Vec<String> {
    with_big_stack(command_names_here).unwrap_or_default()
}

fn command_names_here() -> Vec<String> {
    use clap::CommandFactory;
    let mut names: Vec<String> = Cli::command()
        .get_subcommands()
        .filter(|c| {
            !matches!(
                c.get_name(),
                "attach-session" | "mcp" | "reset-terminal" | "source-file" | "completions" | "man"
            )
        })
        .flat_map(|c| {
            std::iter::once(c.get_name().to_string()).chain(c.get_all_aliases().map(String::from))
        })
        .chain(
            [
                "command-prompt",
                "source-file",
                "source",
                "switch-client",
                "copy-mode",
                "run-shell",
                "run",
                "if-shell",
                "if",
            ]
            .map(String::from),
        )
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Commands a hook may run besides the verb table's: the server runs these itself.
pub const HOOK_SHELL_COMMANDS: &[&str] = &["run-shell", "run", "if-shell", "if"];

/// A hook's command checked and with its verb's canonical name (`display` is stored
/// as `display-message`, as tmux's `show-hooks` prints it).
pub fn check_hook_command(mut argv: Vec<String>) -> Result<Vec<String>, String> {
    let Some(name) = argv.first().cloned() else {
        return Err("no command".into());
    };
    match name.as_str() {
        "run" => argv[0] = "run-shell".into(),
        "if" => argv[0] = "if-shell".into(),
        "run-shell" | "if-shell" => {}
        _ if client_command(&argv) => {
            return Err(format!(
                "{name}: needs an attached client, and a hook runs in the server (hooks run server commands, run-shell and if-shell)"
            ));
        }
        _ => {
            parse_argv(&argv)?;
            if let Some(canonical) = canonical_name(&name) {
                argv[0] = canonical;
            }
        }
    }
    Ok(argv)
}

/// The verb's own name for a name, an alias or an unambiguous prefix of a name
/// (`display` → `display-message`, `show-option` → `show-options`), as tmux finds
/// commands.
pub fn canonical_name(name: &str) -> Option<String> {
    match candidates(name).as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// tmux's words for a command name that is no command: `unknown command: NAME`, or
/// for a prefix of several, `ambiguous command: NAME, could be: a, b, c`.
pub fn unknown_command(name: &str) -> String {
    let found = candidates(name);
    if found.len() > 1 {
        format!("ambiguous command: {name}, could be: {}", found.join(", "))
    } else {
        format!("unknown command: {name}")
    }
}

/// The verbs a command name can mean, as tmux's `cmd_find` looks: the one whose name
/// or alias it is, else every verb whose name it begins.
fn candidates(name: &str) -> Vec<String> {
    use clap::CommandFactory;
    let name = name.to_string();
    with_big_stack(move || {
        let cli = Cli::command();
        if let Some(c) = cli
            .get_subcommands()
            .find(|c| c.get_name() == name || c.get_all_aliases().any(|a| a == name))
        {
            return vec![c.get_name().to_string()];
        }
        if name.is_empty() {
            return Vec::new();
        }
        let mut found: Vec<String> = cli
            .get_subcommands()
            .filter(|c| c.get_name().starts_with(&name))
            .map(|c| c.get_name().to_string())
            .collect();
        found.sort();
        found
    })
    .unwrap_or_default()
}

/// Runs `f` (building or running clap's parser for the whole verb table) on a thread
/// with an 8 MiB stack: in a debug build the table's builder needs more than the
/// 2 MiB of a tokio worker or a test thread, which it overflowed. Callers are the
/// server's hooks, bindings and `C-b :`, never a per-key path.
pub(crate) fn with_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    let slot = std::sync::Mutex::new(Some(f));
    let run = || {
        let f = slot.lock().ok().and_then(|mut g| g.take());
        f.map(|f| f())
    };
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("fugue-verbs".into())
            .stack_size(8 << 20)
            .spawn_scoped(s, run)
        {
            Ok(h) => h
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: try on this one, as before.
            Err(_) => run(),
        }
    })
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
            match command_for_argv(&argv(line), &Caller::process()) {
                Ok(Command::SetOption(_)) => {}
                other => panic!("{line}: {other:?}"),
            }
        }
        assert!(matches!(
            command_for_argv(&argv("show -g mouse"), &Caller::process()),
            Ok(Command::ShowOptions(_))
        ));
    }

    /// tmux's own default keys, `C-b o` and `C-b 0`: offsets and `=` in targets.
    #[test]
    fn tmux_offsets_and_exact_indexes_select() {
        use fugue_protocol::{PaneSelect, WindowSelect, cmd};
        let run = |line: &str| command_for_argv(&argv(line), &Caller::process());
        let pane = |select| {
            Command::SelectPane(cmd::SelectPane {
                target: None,
                select,
                keep_zoom: false,
            })
        };
        assert_eq!(run("select-pane -t :.+").ok(), Some(pane(PaneSelect::Next)));
        assert_eq!(run("selectp -t :.-").ok(), Some(pane(PaneSelect::Previous)));
        let window = |target: Option<&str>, select| {
            Command::SelectWindow(cmd::SelectWindow {
                target: target.map(|t| t.parse().unwrap()),
                select,
            })
        };
        assert_eq!(
            run("select-window -t :=3").ok(),
            Some(window(Some(":3"), WindowSelect::Target))
        );
        assert_eq!(
            run("select-window -t work:+").ok(),
            Some(window(Some("work"), WindowSelect::Next))
        );
        assert_eq!(
            run("select-window -t :-").ok(),
            Some(window(None, WindowSelect::Previous))
        );
    }

    #[test]
    fn hook_commands_are_stored_under_their_canonical_names() {
        assert_eq!(
            check_hook_command(argv("display -p hi")),
            Ok(argv("display-message -p hi"))
        );
        assert_eq!(
            check_hook_command(argv("run true")),
            Ok(argv("run-shell true"))
        );
        assert_eq!(
            check_hook_command(argv("frob")),
            Err("unknown command: frob".into())
        );
        assert!(check_hook_command(argv("command-prompt")).is_err());
    }

    #[test]
    fn unknown_command_is_named() {
        assert_eq!(
            command_for_argv(&argv("frobnicate -x"), &Caller::process()),
            Err("unknown command: frobnicate".into())
        );
    }

    /// tmux's cmd_find: a name, an alias, or a prefix of one name; a prefix of several
    /// is ambiguous and names them.
    #[test]
    fn commands_are_found_by_unique_prefix_as_tmux_finds_them() {
        assert_eq!(
            canonical_name("show-option").as_deref(),
            Some("show-options")
        );
        assert_eq!(canonical_name("list-win").as_deref(), Some("list-windows"));
        assert_eq!(canonical_name("new-w").as_deref(), Some("new-window"));
        assert_eq!(canonical_name("splitw").as_deref(), Some("split-window"));
        assert_eq!(canonical_name("sel"), None);
        assert_eq!(
            command_for_argv(&argv("sel -t x"), &Caller::process()),
            Err(
                "ambiguous command: sel, could be: select-layout, select-pane, select-window"
                    .into()
            )
        );
        assert!(matches!(
            command_for_argv(&argv("show-option -gv base-index"), &Caller::process()),
            Ok(fugue_protocol::Command::ShowOptions(_))
        ));
        // A prefix of a command the client runs is one too.
        assert!(client_command(&argv("command-pr")));
        assert!(check_hook_command(argv("kill-w -t x")).is_ok_and(|a| a[0] == "kill-window"));
    }
}
