//! The verbs of the commands that the command table declares with their flags
//! (`clap: [aliases]` in an entry, [`fugue_protocol::DECLARED_CLI`]): the CLI, tmux
//! command lines (keys, the prompt, config files, hooks, the `tmux` name) and MCP's tmux
//! tool parse them from the entry's argument struct, so such a command needs no verb,
//! conversion or printer written here.

use clap::error::ErrorKind;
use fugue_protocol::{Command, DECLARED_CLI};

/// A declared command, parsed: the command itself (its arguments are the wire's), and
/// the verb's flags as given, for [`Declared::flags`].
#[derive(Debug)]
pub struct Declared(pub Command, pub Given);

/// The verb a declared command was parsed from, and its matches.
#[derive(Debug)]
pub struct Given {
    name: &'static str,
    matches: clap::ArgMatches,
}

impl Declared {
    /// The verb's flags as its flags struct `F`: the terminal client's choosers and
    /// modes act on their flags themselves, where the command carries only their line.
    /// An error, not a panic, when `F` is another verb's.
    pub fn flags<F: clap::Args + clap::FromArgMatches>(&self) -> Result<F, String> {
        let name = self.1.name;
        let ids = |c: clap::Command| -> Vec<clap::Id> {
            c.get_arguments().map(|a| a.get_id().clone()).collect()
        };
        let entry = DECLARED_CLI.iter().find(|e| e.name == name);
        let same = entry.is_some_and(|e| {
            ids((e.augment)(clap::Command::new(name)))
                == ids(F::augment_args(clap::Command::new(name)))
        });
        if !same {
            return Err(format!("{name}: not the verb these flags are for"));
        }
        F::from_arg_matches(&self.1.matches).map_err(|e| format!("{name}: {e}"))
    }
}

impl clap::FromArgMatches for Declared {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, sub)) = matches.subcommand() else {
            return Err(clap::Error::new(ErrorKind::MissingSubcommand));
        };
        let entry = DECLARED_CLI
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| clap::Error::new(ErrorKind::InvalidSubcommand))?;
        let given = Given {
            name: entry.name,
            matches: sub.clone(),
        };
        let command = (entry.parse)(sub)?;
        check_lines(&command)
            .map_err(|e| clap::Error::raw(ErrorKind::ValueValidation, format!("{e}\n")))?;
        Ok(Declared(command, given))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Subcommand for Declared {
    fn augment_subcommands(mut cli: clap::Command) -> clap::Command {
        for entry in DECLARED_CLI {
            let verb =
                clap::Command::new(entry.name).visible_aliases(entry.aliases.iter().copied());
            // The summary after the struct's flags: clap's derive would make the
            // struct's doc comment (written for the code) the verb's help.
            let verb = (entry.augment)(verb).about(entry.summary).long_about(None);
            cli = cli.subcommand(tmux_letters_first(verb));
        }
        cli
    }

    fn augment_subcommands_for_update(cli: clap::Command) -> clap::Command {
        Self::augment_subcommands(cli)
    }

    fn has_subcommand(name: &str) -> bool {
        DECLARED_CLI
            .iter()
            .any(|e| e.name == name || e.aliases.contains(&name))
    }
}

/// The command lines a declared command carries (a binding's) checked against the
/// verb table, which its conversion in the protocol cannot see: a typo in a bound
/// command is an error at bind time, not a silent key later.
fn check_lines(command: &Command) -> Result<(), String> {
    match command {
        Command::BindKey(b) => crate::line::check_commands(&b.commands),
        _ => Ok(()),
    }
}

/// A verb whose tmux flags include `-h` (`set-environment -h`, hidden) keeps it, and
/// its help is `--help` alone.
fn tmux_letters_first(verb: clap::Command) -> clap::Command {
    if !verb.get_arguments().any(|a| a.get_short() == Some('h')) {
        return verb;
    }
    verb.disable_help_flag(true).arg(
        clap::Arg::new("help")
            .long("help")
            .action(clap::ArgAction::Help),
    )
}

#[cfg(test)]
mod tests {
    use crate::args::Verb;
    use fugue_protocol::{Command, Target, cmd};

    /// Through the tmux command-line parser, as keys, the prompt and config files
    /// reach it (clap's derive needs the big stack it gives).
    fn parse(words: &[&str]) -> Result<Command, String> {
        let argv: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        match crate::line::parse_argv(&argv)? {
            (_, Verb::Declared(d)) => Ok(d.0),
            (_, other) => Err(format!("not a declared verb: {other:?}")),
        }
    }

    /// Issue 26: list-clients and kill-server are their table entries' verbs; the
    /// format and filter of list-clients are the printer's, read back from its flags.
    #[test]
    fn list_clients_and_kill_server_are_declared() {
        use crate::printer::Printer;
        assert_eq!(parse(&["kill-server"]), Ok(Command::KillServer));
        assert!(parse(&["kill-server", "-t", "x"]).is_err());
        let argv: Vec<String> = ["lsc", "-F", "#{client_name}", "-f", "1", "-t", "a"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let (_, verb) = crate::line::parse_argv(&argv).unwrap();
        let (command, printer) = crate::command_for(verb, &crate::Caller::server()).unwrap();
        assert_eq!(
            command,
            Command::ListClients(cmd::ListClients {
                target: Some("a".parse::<Target>().unwrap())
            })
        );
        assert!(
            matches!(&printer, Printer::Clients { format, filter: Some(f) }
                if format == "#{client_name}" && f == "1"),
            "{printer:?}"
        );
        let (_, verb) = crate::line::parse_argv(&["list-clients".to_string()]).unwrap();
        let (_, printer) = crate::command_for(verb, &crate::Caller::server()).unwrap();
        assert!(
            matches!(&printer, Printer::Clients { format, filter: None }
                if format == fugue_protocol::format::defaults::LIST_CLIENTS),
            "{printer:?}"
        );
    }

    #[test]
    fn a_declared_verbs_help_is_its_summary() {
        use clap::CommandFactory;
        let cli = crate::line::with_big_stack(crate::args::Cli::command).unwrap();
        for name in ["kill-pane", "join-pane", "swap-window"] {
            let verb = cli.find_subcommand(name).unwrap();
            let entry = fugue_protocol::DECLARED_CLI
                .iter()
                .find(|e| e.name == name)
                .unwrap();
            assert_eq!(
                verb.get_about().map(|a| a.to_string()).as_deref(),
                Some(entry.summary)
            );
            assert!(verb.get_long_about().is_none(), "{name}");
        }
    }

    #[test]
    fn a_declared_verb_parses_its_flags_aliases_and_prefixes() {
        let pane: Target = "%3".parse().unwrap();
        let want = Command::ClearHistory(cmd::ClearHistory {
            target: Some(pane.clone()),
            hyperlinks: false,
        });
        assert_eq!(parse(&["clear-history", "-t", "%3"]), Ok(want.clone()));
        assert_eq!(parse(&["clearhist", "-t", "%3"]), Ok(want));
        assert_eq!(
            parse(&["clear-hist", "-H"]),
            Ok(Command::ClearHistory(cmd::ClearHistory {
                target: None,
                hyperlinks: true,
            }))
        );
        let bad = parse(&["clear-history", "-x"]).unwrap_err();
        assert!(bad.contains("-x"), "{bad}");
    }

    #[test]
    fn declared_verbs_take_tmux_flags_and_positionals() {
        let window: Target = "s:1".parse().unwrap();
        assert_eq!(
            parse(&["renamew", "-t", "s:1", "logs"]),
            Ok(Command::RenameWindow(cmd::RenameWindow {
                target: Some(window.clone()),
                name: "logs".into(),
            }))
        );
        assert_eq!(
            parse(&["unlinkw", "-k", "-t", "s:1"]),
            Ok(Command::UnlinkWindow(cmd::UnlinkWindow {
                target: Some(window),
                kill: true,
            }))
        );
        assert_eq!(
            parse(&["send-prefix", "-2"]),
            Ok(Command::SendPrefix(cmd::SendPrefix {
                target: None,
                secondary: true,
            }))
        );
        // A name is required, as tmux's `rename-session` requires it.
        assert!(parse(&["rename-session"]).is_err());
    }

    #[test]
    fn client_verbs_take_their_session_and_client() {
        let session: Target = "work".parse().unwrap();
        assert_eq!(
            parse(&["detach", "-a", "-s", "work", "-t", "/dev/pts/3"]),
            Ok(Command::DetachClient(cmd::DetachClient {
                target: Some(session.clone()),
                client: Some("/dev/pts/3".into()),
                all_others: true,
                hangup_parent: false,
                exec: None,
            }))
        );
        assert_eq!(
            parse(&["detach-client"]),
            Ok(Command::DetachClient(cmd::DetachClient {
                target: None,
                client: None,
                all_others: false,
                hangup_parent: false,
                exec: None,
            }))
        );
        assert_eq!(
            parse(&["refresh", "-t", "work"]),
            Ok(Command::RefreshClient(cmd::RefreshClient {
                target: Some(session),
            }))
        );
        // detach-client takes no positional.
        assert!(parse(&["detach-client", "work"]).is_err());
    }

    #[test]
    fn buffer_verbs_take_a_buffer_name() {
        assert_eq!(
            parse(&["showb", "-b", "buffer0"]),
            Ok(Command::ShowBuffer(cmd::ShowBuffer {
                name: Some("buffer0".into()),
            }))
        );
        assert_eq!(
            parse(&["show-buffer"]),
            Ok(Command::ShowBuffer(cmd::ShowBuffer { name: None }))
        );
        assert_eq!(
            parse(&["deleteb", "-b", "x"]),
            Ok(Command::DeleteBuffer(cmd::DeleteBuffer {
                name: Some("x".into()),
            }))
        );
        assert!(parse(&["delete-buffer", "-b"]).is_err());
    }

    #[test]
    fn prompt_history_verbs_take_a_prompt_type() {
        use fugue_protocol::admin::PromptType;
        assert_eq!(
            parse(&["showphist", "-T", "search"]),
            Ok(Command::ShowPromptHistory(cmd::ShowPromptHistory {
                kind: Some(PromptType::Search),
            }))
        );
        assert_eq!(
            parse(&["clear-prompt-history"]),
            Ok(Command::ClearPromptHistory(cmd::ClearPromptHistory {
                kind: None
            }))
        );
        assert_eq!(
            parse(&["clearphist", "-T", "window-target"]),
            Ok(Command::ClearPromptHistory(cmd::ClearPromptHistory {
                kind: Some(PromptType::WindowTarget),
            }))
        );
        // tmux's error for a type it does not have.
        let bad = parse(&["show-prompt-history", "-T", "nope"]).unwrap_err();
        assert!(bad.contains("invalid type: nope"), "{bad}");
    }

    #[test]
    fn list_keys_takes_a_table_notes_and_a_key() {
        use fugue_protocol::keys::Key;
        assert_eq!(
            parse(&["lsk", "-N", "-T", "copy-mode", "C-a"]),
            Ok(Command::ListKeys(cmd::ListKeys {
                table: Some("copy-mode".into()),
                notes: true,
                all: false,
                prefix: None,
                first: false,
                key: Key::parse("C-a"),
            }))
        );
        assert_eq!(
            parse(&["list-keys"]),
            Ok(Command::ListKeys(cmd::ListKeys {
                table: None,
                notes: false,
                all: false,
                prefix: None,
                first: false,
                key: None,
            }))
        );
        let bad = parse(&["list-keys", "NoSuchKey"]).unwrap_err();
        assert!(bad.contains("NoSuchKey"), "{bad}");
    }

    #[test]
    fn swap_window_and_show_messages_are_their_own_types_declarations() {
        let (a, b): (Target, Target) = ("s:1".parse().unwrap(), "s:2".parse().unwrap());
        assert_eq!(
            parse(&["swapw", "-d", "-s", "s:1", "-t", "s:2"]),
            Ok(Command::SwapWindow(fugue_protocol::SwapWindow {
                source: Some(a),
                target: Some(b),
                detached: true,
            }))
        );
        assert_eq!(
            parse(&["showmsgs", "-J", "-T", "-t", "/dev/pts/1"]),
            Ok(Command::ShowMessages(fugue_protocol::admin::ShowMessages {
                client: Some("/dev/pts/1".into()),
                jobs: true,
                terminals: true,
            }))
        );
        assert!(parse(&["swap-window", "-x"]).is_err());
    }

    #[test]
    fn environment_verbs_keep_tmuxs_h() {
        let session: Target = "work".parse().unwrap();
        assert_eq!(
            parse(&["setenv", "-h", "-t", "work", "TOKEN", "x"]),
            Ok(Command::SetEnvironment(fugue_protocol::SetEnvironment {
                target: Some(session.clone()),
                name: "TOKEN".into(),
                value: Some("x".into()),
                hidden: true,
                ..Default::default()
            }))
        );
        assert_eq!(
            parse(&["set-environment", "-gFu", "EDITOR"]),
            Ok(Command::SetEnvironment(fugue_protocol::SetEnvironment {
                global: true,
                name: "EDITOR".into(),
                unset: true,
                format: true,
                ..Default::default()
            }))
        );
        assert_eq!(
            parse(&["showenv", "-hs", "-t", "work", "PATH"]),
            Ok(Command::ShowEnvironment(fugue_protocol::ShowEnvironment {
                target: Some(session),
                name: Some("PATH".into()),
                hidden: true,
                shell: true,
                ..Default::default()
            }))
        );
        // -u and -r do not go together; the name is required.
        assert!(parse(&["setenv", "-u", "-r", "X"]).is_err());
        assert!(parse(&["set-environment"]).is_err());
    }

    #[test]
    fn kill_verbs_pick_the_other_command_with_a() {
        let pane: Target = "%2".parse().unwrap();
        let window: Target = "s:1".parse().unwrap();
        assert_eq!(
            parse(&["killp", "-t", "%2"]),
            Ok(Command::KillPane(cmd::KillPane {
                target: Some(pane.clone()),
            }))
        );
        assert_eq!(
            parse(&["kill-pane", "-a", "-t", "%2"]),
            Ok(Command::KillOtherPanes(cmd::KillOtherPanes {
                target: Some(pane),
            }))
        );
        assert_eq!(
            parse(&["killw", "-a", "-t", "s:1"]),
            Ok(Command::KillOtherWindows(cmd::KillOtherWindows {
                target: Some(window.clone()),
            }))
        );
        assert_eq!(
            parse(&["kill-window"]),
            Ok(Command::KillWindow(cmd::KillWindow { target: None }))
        );
        assert_eq!(
            parse(&["kill-session", "-a"]),
            Ok(Command::KillOtherSessions(cmd::KillOtherSessions {
                target: None
            }))
        );
        assert_eq!(
            parse(&["kill-session", "-t", "s"]),
            Ok(Command::KillSession(cmd::KillSession {
                target: Some("s".parse().unwrap()),
            }))
        );
        // tmux's kill-pane takes no positional.
        assert!(parse(&["kill-pane", "%2"]).is_err());
    }

    #[test]
    fn rotate_window_takes_u_d_and_z() {
        let window: Target = "s:1".parse().unwrap();
        assert_eq!(
            parse(&["rotatew", "-D", "-Z", "-t", "s:1"]),
            Ok(Command::RotateWindow(cmd::RotateWindow {
                target: Some(window),
                down: true,
            }))
        );
        assert_eq!(
            parse(&["rotate-window", "-U"]),
            Ok(Command::RotateWindow(cmd::RotateWindow {
                target: None,
                down: false,
            }))
        );
        assert!(parse(&["rotate-window", "-U", "-D"]).is_err());
    }

    #[test]
    fn select_layout_takes_a_layout_or_n_p_e() {
        use fugue_protocol::{LayoutChoice, LayoutPreset};
        let window: Target = "s:1".parse().unwrap();
        let layout = |target: Option<Target>, layout| {
            Ok(Command::SelectLayout(cmd::SelectLayout { target, layout }))
        };
        assert_eq!(
            parse(&["selectl", "-t", "s:1", "tiled"]),
            layout(
                Some(window.clone()),
                LayoutChoice::Preset(LayoutPreset::Tiled)
            )
        );
        assert_eq!(
            parse(&["select-layout", "-n"]),
            layout(None, LayoutChoice::Next)
        );
        assert_eq!(
            parse(&["select-layout", "-p", "-n"]),
            layout(None, LayoutChoice::Previous)
        );
        assert_eq!(
            parse(&["select-layout", "-E", "-t", "s:1"]),
            layout(Some(window), LayoutChoice::Spread)
        );
        assert_eq!(
            parse(&["select-layout", "b25d,80x24,0,0,0"]),
            layout(None, LayoutChoice::Tmux("b25d,80x24,0,0,0".into()))
        );
        assert_eq!(parse(&["selectl"]), layout(None, LayoutChoice::Again));
        let bad = parse(&["select-layout", "diagonal"]).unwrap_err();
        assert!(bad.contains("unknown layout `diagonal`"), "{bad}");
    }

    #[test]
    fn unbind_key_takes_a_table_n_a_and_q() {
        use fugue_protocol::Key;
        let unbind = |table: &str, key: Option<&str>, all, quiet| {
            Ok(Command::UnbindKey(cmd::UnbindKey {
                table: table.into(),
                key: key.map(|k| k.parse::<Key>().unwrap()),
                all,
                quiet,
            }))
        };
        assert_eq!(
            parse(&["unbind", "C-a"]),
            unbind("prefix", Some("C-a"), false, false)
        );
        assert_eq!(
            parse(&["unbind-key", "-n", "-q", "M-Left"]),
            unbind("root", Some("M-Left"), false, true)
        );
        assert_eq!(
            parse(&["unbind-key", "-a", "-T", "copy-mode"]),
            unbind("copy-mode", None, true, false)
        );
        assert!(parse(&["unbind-key", "NoSuchKey"]).is_err());
    }

    #[test]
    fn server_access_takes_its_letters_and_t() {
        use fugue_protocol::admin::ServerAccess;
        assert_eq!(
            parse(&["server-access", "-l"]),
            Ok(Command::ServerAccess(ServerAccess {
                list: true,
                ..Default::default()
            }))
        );
        assert_eq!(
            parse(&["server-access", "-adgrw", "-t", "x", "alice"]),
            Ok(Command::ServerAccess(ServerAccess {
                allow: true,
                deny: true,
                group: true,
                read_only: true,
                write: true,
                name: Some("alice".into()),
                ..Default::default()
            }))
        );
        assert!(parse(&["server-access", "-x"]).is_err());
    }

    #[test]
    fn swap_pane_takes_s_u_d_and_z() {
        use fugue_protocol::SwapSource;
        let (a, b): (Target, Target) = ("%1".parse().unwrap(), "%2".parse().unwrap());
        let swap = |target: Option<Target>, source, detached| {
            Ok(Command::SwapPane(cmd::SwapPane {
                target,
                source,
                detached,
            }))
        };
        assert_eq!(
            parse(&["swapp", "-d", "-Z", "-s", "%1", "-t", "%2"]),
            swap(Some(b.clone()), SwapSource::Pane(a), true)
        );
        assert_eq!(
            parse(&["swap-pane", "-U", "-t", "%2"]),
            swap(Some(b), SwapSource::Previous, false)
        );
        assert_eq!(
            parse(&["swap-pane", "-D"]),
            swap(None, SwapSource::Next, false)
        );
        assert_eq!(
            parse(&["swap-pane"]),
            swap(None, SwapSource::Current, false)
        );
        assert!(parse(&["swap-pane", "-U", "-s", "%1"]).is_err());
        assert!(parse(&["swap-pane", "-U", "-D"]).is_err());
    }

    #[test]
    fn join_pane_takes_its_direction_and_size() {
        use fugue_protocol::{Direction, JoinPane, SplitSize};
        let (a, b): (Target, Target) = ("%1".parse().unwrap(), "%2".parse().unwrap());
        assert_eq!(
            parse(&[
                "joinp", "-h", "-b", "-d", "-l", "30%", "-s", "%1", "-t", "%2"
            ]),
            Ok(Command::JoinPane(JoinPane {
                source: Some(a),
                target: Some(b),
                direction: Direction::Left,
                size: Some(SplitSize::Percent(30)),
                detached: true,
                full: false,
            }))
        );
        assert_eq!(
            parse(&["join-pane", "-v", "-l", "12"]),
            Ok(Command::JoinPane(JoinPane {
                source: None,
                target: None,
                direction: Direction::Down,
                size: Some(SplitSize::Cells(12)),
                detached: false,
                full: false,
            }))
        );
        assert_eq!(
            parse(&["join-pane", "-h", "-p", "40"]),
            Ok(Command::JoinPane(JoinPane {
                source: None,
                target: None,
                direction: Direction::Right,
                size: Some(SplitSize::Percent(40)),
                detached: false,
                full: false,
            }))
        );
        let bad = parse(&["join-pane", "-l", "wide"]).unwrap_err();
        assert!(bad.contains("invalid -l `wide`"), "{bad}");
        assert!(parse(&["join-pane", "-h", "-v"]).is_err());
    }

    #[test]
    fn move_pane_is_join_pane_by_another_name() {
        use fugue_protocol::{Direction, JoinPane};
        let argv: Vec<String> = ["movep", "-h", "-s", "%1"].map(String::from).to_vec();
        let Ok((_, verb)) = crate::line::parse_argv(&argv) else {
            panic!("movep did not parse");
        };
        let caller = crate::Caller::default();
        let (command, _) = crate::convert::command_for(verb, &caller).unwrap();
        assert_eq!(
            command,
            Command::JoinPane(JoinPane {
                source: Some("%1".parse().unwrap()),
                target: None,
                direction: Direction::Right,
                size: None,
                detached: false,
                full: false,
            })
        );
    }

    #[test]
    fn pipe_pane_joins_its_words_and_defaults_to_o() {
        let pane: Target = "%4".parse().unwrap();
        assert_eq!(
            parse(&["pipep", "-o", "-t", "%4", "cat", ">>", "/tmp/log"]),
            Ok(Command::PipePane(cmd::PipePane {
                target: Some(pane),
                command: Some("cat >> /tmp/log".into()),
                input: false,
                output: true,
                toggle: true,
            }))
        );
        assert_eq!(
            parse(&["pipe-pane", "-I", "echo hi"]),
            Ok(Command::PipePane(cmd::PipePane {
                target: None,
                command: Some("echo hi".into()),
                input: true,
                output: false,
                toggle: false,
            }))
        );
        assert_eq!(
            parse(&["pipe-pane", "-IO"]),
            Ok(Command::PipePane(cmd::PipePane {
                target: None,
                command: None,
                input: true,
                output: true,
                toggle: false,
            }))
        );
        assert!(parse(&["pipe-pane", "-x"]).is_err());
    }

    #[test]
    fn set_buffer_takes_data_or_a_new_name() {
        use fugue_protocol::{BufferData, SetBuffer};
        assert_eq!(
            parse(&["setb", "-a", "-b", "notes", "-- more"]),
            Ok(Command::SetBuffer(SetBuffer {
                name: Some("notes".into()),
                append: true,
                rename: None,
                data: Some(BufferData::Text("-- more".into())),
                clipboard: false,
                client: None,
            }))
        );
        assert_eq!(
            parse(&["set-buffer", "-b", "a", "-n", "b"]),
            Ok(Command::SetBuffer(SetBuffer {
                name: Some("a".into()),
                append: false,
                rename: Some("b".into()),
                data: None,
                clipboard: false,
                client: None,
            }))
        );
        let bad = parse(&["set-buffer", "-b", "a"]).unwrap_err();
        assert!(bad.contains("needs the data"), "{bad}");
    }

    #[test]
    fn paste_buffer_takes_r_or_a_separator() {
        use fugue_protocol::PasteBuffer;
        let pane: Target = "%5".parse().unwrap();
        assert_eq!(
            parse(&["pasteb", "-dpr", "-b", "x", "-t", "%5"]),
            Ok(Command::PasteBuffer(PasteBuffer {
                name: Some("x".into()),
                target: Some(pane),
                bracketed: true,
                delete: true,
                separator: Some("\n".into()),
            }))
        );
        assert_eq!(
            parse(&["paste-buffer", "-s", "-"]),
            Ok(Command::PasteBuffer(PasteBuffer {
                name: None,
                target: None,
                bracketed: false,
                delete: false,
                separator: Some("-".into()),
            }))
        );
        assert!(parse(&["paste-buffer", "-r", "-s", ";"]).is_err());
    }

    #[test]
    fn select_window_takes_n_p_l_and_offsets() {
        use fugue_protocol::WindowSelect;
        let window = |target: Option<&str>, select| {
            Ok(Command::SelectWindow(cmd::SelectWindow {
                target: target.map(|t| t.parse().unwrap()),
                select,
            }))
        };
        assert_eq!(
            parse(&["selectw", "-t", "s:2"]),
            window(Some("s:2"), WindowSelect::Target)
        );
        assert_eq!(
            parse(&["select-window", "-n"]),
            window(None, WindowSelect::Next)
        );
        assert_eq!(
            parse(&["select-window", "-p", "-t", "s"]),
            window(Some("s"), WindowSelect::Previous)
        );
        assert_eq!(parse(&["selectw", "-l"]), window(None, WindowSelect::Last));
        assert_eq!(
            parse(&["select-window", "-t", "s:+"]),
            window(Some("s"), WindowSelect::Next)
        );
        assert_eq!(
            parse(&["select-window", "-t", "-"]),
            window(None, WindowSelect::Previous)
        );
        assert!(parse(&["select-window", "-n", "-p"]).is_err());
        assert!(parse(&["select-window", "-p", "-l"]).is_err());
    }

    #[test]
    fn select_pane_selects_or_marks_disables_or_titles() {
        use fugue_protocol::{Direction, PaneSelect};
        let pane: Target = "%4".parse().unwrap();
        let select = |target: Option<Target>, select| {
            Ok(Command::SelectPane(cmd::SelectPane {
                target,
                select,
                keep_zoom: false,
            }))
        };
        assert_eq!(
            parse(&["selectp", "-t", "%4"]),
            select(Some(pane.clone()), PaneSelect::Target)
        );
        assert_eq!(
            parse(&["select-pane", "-L"]),
            select(None, PaneSelect::Direction(Direction::Left))
        );
        assert_eq!(
            parse(&["select-pane", "-D", "-l"]),
            select(None, PaneSelect::Direction(Direction::Down))
        );
        assert_eq!(
            parse(&["select-pane", "-l"]),
            select(None, PaneSelect::Last)
        );
        assert_eq!(
            parse(&["select-pane", "--next"]),
            select(None, PaneSelect::Next)
        );
        assert_eq!(
            parse(&["select-pane", "--previous"]),
            select(None, PaneSelect::Previous)
        );
        assert_eq!(
            parse(&["select-pane", "-t", "s:1.+"]),
            select(Some("s:1".parse().unwrap()), PaneSelect::Next)
        );
        assert_eq!(
            parse(&["select-pane", "-m", "-e", "-T", "x", "-t", "%4"]),
            Ok(Command::MarkPane(cmd::MarkPane {
                target: Some(pane.clone()),
                clear: false,
            }))
        );
        assert_eq!(
            parse(&["select-pane", "-mM"]),
            Ok(Command::MarkPane(cmd::MarkPane {
                target: None,
                clear: true,
            }))
        );
        assert_eq!(
            parse(&["select-pane", "-d", "-T", "x"]),
            Ok(Command::PaneInput(cmd::PaneInput {
                target: None,
                enabled: false,
            }))
        );
        assert_eq!(
            parse(&["selectp", "-de"]),
            Ok(Command::PaneInput(cmd::PaneInput {
                target: None,
                enabled: true,
            }))
        );
        assert_eq!(
            parse(&["select-pane", "-T", "build", "-L", "-t", "%4"]),
            Ok(Command::SetPaneTitle(cmd::SetPaneTitle {
                target: Some(pane),
                title: "build".into(),
            }))
        );
        let bad = parse(&["select-pane", "-L", "-R"]).unwrap_err();
        assert!(bad.contains("at most one of -L, -R, -U, -D"), "{bad}");
        let bad = parse(&["select-pane", "-t", "%x"]).unwrap_err();
        assert!(bad.contains("invalid target"), "{bad}");
    }

    /// last-pane is select-pane's -l, with flags of its own that are taken (`-Z`
    /// keeps the zoom, as select-pane's).
    #[test]
    fn last_pane_selects_the_last_pane() {
        use fugue_protocol::PaneSelect;
        let run = |line: &[&str]| {
            let argv: Vec<String> = line.iter().map(|w| w.to_string()).collect();
            crate::line::command_for_argv(&argv, &crate::Caller::process())
        };
        assert_eq!(
            run(&["lastp", "-deZ", "-t", "s:1"]),
            Ok(Command::SelectPane(cmd::SelectPane {
                target: Some("s:1".parse().unwrap()),
                select: PaneSelect::Last,
                keep_zoom: true,
            }))
        );
        assert_eq!(
            run(&["last-pane"]),
            Ok(Command::SelectPane(cmd::SelectPane {
                target: None,
                select: PaneSelect::Last,
                keep_zoom: false,
            }))
        );
        assert!(run(&["last-pane", "-x"]).is_err());
    }

    /// The client line a chooser or mode verb makes: its `-t`, and its argv.
    fn line(words: &[&str]) -> Result<(Option<String>, Vec<String>), String> {
        use fugue_protocol::popup::ClientCommandLine as L;
        let pick = |l: L| (l.client, l.argv);
        match parse(words)? {
            Command::ChooseTree(l)
            | Command::FindWindow(l)
            | Command::DisplayPanes(l)
            | Command::SwitchClient(l)
            | Command::CopyMode(l)
            | Command::ChooseBuffer(l)
            | Command::ChooseClient(l)
            | Command::ClockMode(l)
            | Command::CustomizeMode(l) => Ok(pick(l)),
            other => Err(format!("not a client line: {other:?}")),
        }
    }

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn chooser_verbs_give_their_clients_their_line() {
        assert_eq!(
            line(&[
                "choose-tree",
                "-sZ",
                "-O",
                "name",
                "-t",
                "work",
                "kill-pane -t %%"
            ]),
            Ok((
                Some("work".into()),
                words(&[
                    "choose-tree",
                    "-s",
                    "-Z",
                    "-O",
                    "name",
                    "--",
                    "kill-pane -t %%"
                ])
            ))
        );
        assert_eq!(
            line(&["findw", "-Ni", "-t", "work", "-x-"]),
            Ok((
                Some("work".into()),
                words(&["find-window", "-N", "-i", "--", "-x-"])
            ))
        );
        assert_eq!(
            line(&["displayp", "-N", "-d", "500"]),
            Ok((None, words(&["display-panes", "-N", "-d", "500"])))
        );
        // switch-client's -t is where to: the line goes to the caller's session.
        assert_eq!(
            line(&["switchc", "-n", "-t", "other", "-c", "/dev/pts/1"]),
            Ok((None, words(&["switch-client", "-n", "-t", "other"])))
        );
        assert_eq!(
            line(&["choose-client", "-Z", "-t", "%1", "detach -t %%"]),
            Ok((
                Some("%1".into()),
                words(&["choose-client", "--", "detach -t %%"])
            ))
        );
        assert_eq!(
            line(&["choose-buffer", "-N", "paste-buffer -b %%"]),
            Ok((None, words(&["choose-buffer"])))
        );
        assert!(parse(&["find-window"]).is_err(), "a match string is needed");
        assert!(parse(&["choose-tree", "-x"]).is_err());
    }

    #[test]
    fn mode_verbs_keep_their_pane_in_their_line() {
        assert_eq!(
            line(&["copy-mode", "-eu", "-H", "-s", "%2", "-t", "%3"]),
            Ok((
                Some("%3".into()),
                words(&["copy-mode", "-e", "-u", "-t", "%3"])
            ))
        );
        assert_eq!(
            line(&["clock-mode", "-t", "%3"]),
            Ok((Some("%3".into()), words(&["clock-mode", "-t", "%3"])))
        );
        assert_eq!(
            line(&["customize-mode", "-NZ", "-F", "x", "-f", "status"]),
            Ok((None, words(&["customize-mode", "-N", "-f", "status"])))
        );
        assert!(parse(&["clock-mode", "-d"]).is_err());
    }

    #[test]
    fn a_client_reads_a_declared_verbs_flags_as_its_struct() {
        use fugue_protocol::flags;
        let argv = words(&["find-w", "-r", "a.b"]);
        let f: flags::FindWindow = crate::line::parse_flags(&argv).unwrap();
        assert!(f.regex);
        assert_eq!(f.pattern, "a.b");
        // Another verb's struct is an error, not clap's panic.
        let wrong = crate::line::parse_flags::<flags::ChooseTree>(&argv).unwrap_err();
        assert!(wrong.contains("find-window"), "{wrong}");
        let undeclared = crate::line::parse_flags::<flags::ClockMode>(&words(&["new-window"]));
        assert!(undeclared.is_err());
    }

    #[test]
    fn resize_window_takes_a_size_a_fit_or_an_adjustment() {
        use fugue_protocol::Direction;
        use fugue_protocol::arrange::{ResizeWindow, WindowFit};
        let window: Target = "s:1".parse().unwrap();
        assert_eq!(
            parse(&["resizew", "-t", "s:1", "-x", "100", "-y", "30"]),
            Ok(Command::ResizeWindow(ResizeWindow {
                target: Some(window),
                width: Some(100),
                height: Some(30),
                adjust: None,
                fit: None,
            }))
        );
        assert_eq!(
            parse(&["resize-window", "-A", "-L", "5"]),
            Ok(Command::ResizeWindow(ResizeWindow {
                target: None,
                width: None,
                height: None,
                adjust: Some((Direction::Left, 5)),
                fit: Some(WindowFit::Largest),
            }))
        );
        let zero = parse(&["resize-window", "-x", "0"]).unwrap_err();
        assert!(zero.contains("width 0 is out of range"), "{zero}");
        let none = parse(&["resize-window", "-D", "0"]).unwrap_err();
        assert!(none.contains("adjustment 0 is too small"), "{none}");
        assert!(parse(&["resize-window", "-L", "-R"]).is_err());
    }

    /// The verbs that are another command with its choice made keep their own names.
    #[test]
    fn next_and_previous_window_and_layout_select() {
        use fugue_protocol::{LayoutChoice, WindowSelect};
        let run =
            |line: &[&str]| crate::line::command_for_argv(&words(line), &crate::Caller::process());
        let session: Target = "work".parse().unwrap();
        for (verb, select) in [
            ("next", WindowSelect::Next),
            ("previous-window", WindowSelect::Previous),
            ("last", WindowSelect::Last),
        ] {
            assert_eq!(
                run(&[verb, "-t", "work"]),
                Ok(Command::SelectWindow(cmd::SelectWindow {
                    target: Some(session.clone()),
                    select,
                }))
            );
        }
        for (verb, layout) in [
            ("nextl", LayoutChoice::Next),
            ("previous-layout", LayoutChoice::Previous),
        ] {
            assert_eq!(
                run(&[verb]),
                Ok(Command::SelectLayout(cmd::SelectLayout {
                    target: None,
                    layout,
                }))
            );
        }
        assert!(run(&["next-window", "-x"]).is_err());
    }

    #[test]
    fn prompt_and_menu_verbs_give_their_clients_their_line() {
        let pick = |words: &[&str]| match parse(words)? {
            Command::DisplayMenu(l) | Command::ConfirmBefore(l) | Command::CommandPrompt(l) => {
                Ok((l.client, l.argv))
            }
            other => Err(format!("not a client line: {other:?}")),
        };
        assert_eq!(
            pick(&[
                "menu",
                "-T",
                "Pick",
                "-t",
                "work",
                "Split",
                "s",
                "split-window",
                "",
                "-Gone",
                "",
                "x"
            ]),
            Ok((
                Some("work".into()),
                words(&[
                    "display-menu",
                    "-T",
                    "Pick",
                    "Split",
                    "s",
                    "split-window",
                    "",
                    "-Gone",
                    "",
                    "x"
                ])
            ))
        );
        assert_eq!(
            pick(&["confirm", "-b", "-y", "-c", "Y", "-p", "Sure?", "kill-pane"]),
            Ok((
                None,
                words(&[
                    "confirm-before",
                    "-p",
                    "Sure?",
                    "-y",
                    "-c",
                    "Y",
                    "kill-pane"
                ])
            ))
        );
        assert_eq!(
            pick(&[
                "command-prompt",
                "-1",
                "-t",
                "/dev/pts/2",
                "-p",
                "a,b",
                "-T",
                "search",
                "new -s '%%'"
            ]),
            Ok((
                Some("/dev/pts/2".into()),
                words(&[
                    "command-prompt",
                    "-1",
                    "-p",
                    "a,b",
                    "-T",
                    "search",
                    "new -s '%%'"
                ])
            ))
        );
        // Refused as before, each message naming its command once.
        let menu = parse(&["display-menu", "Split", "s"]).unwrap_err();
        assert_eq!(
            menu,
            "display-menu: item `Split` needs a key and a command (NAME KEY COMMAND)"
        );
        assert!(
            parse(&["display-menu", "A", "nokey", "x"])
                .unwrap_err()
                .contains("unknown key: nokey")
        );
        assert_eq!(
            parse(&["command-prompt", "-T", "nope"]).unwrap_err(),
            "command-prompt: unknown type: nope"
        );
        assert!(parse(&["confirm-before"]).is_err(), "a command is needed");
    }

    #[test]
    fn bind_key_takes_its_table_key_and_a_checked_sequence() {
        use fugue_protocol::key_tables::Binding;
        use fugue_protocol::keys::Key;
        let bound = |words: &[&str]| match parse(words)? {
            Command::BindKey(b) => Ok(b),
            other => Err(format!("not a binding: {other:?}")),
        };
        // Flags after the key are the command's (split-window's -v).
        assert_eq!(
            bound(&[
                "bind",
                "-n",
                "-r",
                "-N",
                "split",
                "F5",
                "split-window",
                "-v"
            ]),
            Ok(Binding {
                table: "root".into(),
                key: Key::parse("F5").unwrap(),
                repeat: true,
                note: Some("split".into()),
                commands: vec![words(&["split-window", "-v"])],
            })
        );
        let b = bound(&[
            "bind-key",
            "-T",
            "copy-mode-vi",
            "y",
            "send -X copy-selection ; display hi",
        ])
        .unwrap();
        assert_eq!(b.table, "copy-mode-vi");
        assert_eq!(b.commands.len(), 2);
        assert_eq!(bound(&["bind", "x", "kill-pane"]).unwrap().table, "prefix");
        // Checked now: the key, the table and each bound command.
        assert!(
            parse(&["bind", "NoSuchKey", "kill-pane"])
                .unwrap_err()
                .contains("unknown key")
        );
        assert!(
            parse(&["bind", "-T", "", "x", "kill-pane"])
                .unwrap_err()
                .contains("invalid key table")
        );
        let typo = parse(&["bind", "x", "split-windw", "-v"]).unwrap_err();
        assert!(typo.contains("unknown command: split-windw"), "{typo}");
    }
}
