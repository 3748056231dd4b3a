//! Bound command lines in the terminal client: a binding's or `C-b :`'s commands,
//! each kept as the client's own action (questions, prompts, choosers, copy mode) or
//! sent through the CLI's verb table, a printing one's answer shown in the view.

use super::input::{Request, req};
use super::state::{App, Mode, Pending};

/// The request for a server command's argv; a command that prints (`list-windows`,
/// `show-options`) has its answer shown in the client's view.
/// `send-keys -X -N COUNT ...`: the count (1 without one) and the line without it.
fn repeat_count(argv: Vec<String>) -> (u32, Vec<String>) {
    let is_send = argv
        .first()
        .is_some_and(|a| matches!(a.as_str(), "send-keys" | "send"));
    let at = argv.iter().position(|a| a == "-N");
    match (is_send, at) {
        (true, Some(i)) if argv.get(1).is_some_and(|x| x == "-X") => {
            let Some(n) = argv.get(i + 1).and_then(|n| n.parse::<u32>().ok()) else {
                return (1, argv);
            };
            let mut rest = argv;
            rest.drain(i..i + 2);
            (n.clamp(1, MAX_COPY_REPEAT), rest)
        }
        _ => (1, argv),
    }
}

/// The most times `send-keys -X -N` repeats a copy-mode command: a count is typed,
/// not a loop.
const MAX_COPY_REPEAT: u32 = 10_000;

pub(super) fn command_request(argv: &[String]) -> Result<Request, String> {
    let (command, printer) =
        fugue_verbs::line::converted_for_argv(argv, &fugue_verbs::Caller::process())?;
    let what = command.name();
    Ok(match printer {
        // `new-session` without -d from a client moves this client to it, as tmux's.
        fugue_verbs::Printer::Created {
            attach: true,
            print: false,
            ..
        } if matches!(command, fugue_protocol::Command::NewSession(_)) => Request {
            command,
            pending: Pending::NewSession,
        },
        // Printing nothing, or a JSON answer for scripts: no view.
        fugue_verbs::Printer::Nothing
        | fugue_verbs::Printer::Quiet
        | fugue_verbs::Printer::Json(_) => req(command, what),
        // Titled with the command as typed (`list-windows`, not the `list-panes` it
        // runs).
        printer => {
            let typed = argv.first().cloned().unwrap_or_default();
            let title = fugue_verbs::line::canonical_name(&typed).unwrap_or(typed);
            Request {
                command,
                pending: Pending::Output(title, Box::new(printer)),
            }
        }
    })
}

impl App {
    /// A bound command sequence: the client's own commands (questions, prompts, modes,
    /// `switch-client`) act here; any other goes through the command table, so a
    /// bound command does what the same `fugue` verb does. A command that does not
    /// parse is shown as a notice and nothing of the sequence runs (tmux parses a whole
    /// line before running any of it).
    pub fn run_bound(&mut self, commands: Vec<Vec<String>>) -> Vec<Request> {
        let commands = super::mouse_keys::aim(commands, self.mouse_keys.current.as_ref());
        let mut out = Vec::new();
        for argv in commands {
            // `switch-client -T TABLE`: the next key is looked up in TABLE.
            if argv.first().map(String::as_str) == Some("switch-client")
                && let Some(i) = argv.iter().position(|a| a == "-T")
            {
                match argv.get(i + 1).map(String::as_str) {
                    Some("root") => self.mode = Mode::Normal,
                    Some(table) => {
                        self.table = table.to_string();
                        self.mode = Mode::Prefix;
                    }
                    None => {
                        self.notice("switch-client -T needs a key table".to_string());
                        return Vec::new();
                    }
                }
                continue;
            }
            // `switch-client -n` / `-p`: the next or previous session by name.
            if argv.first().map(String::as_str) == Some("switch-client")
                && let Some(next) = argv.iter().find_map(|a| match a.as_str() {
                    "-n" => Some(true),
                    "-p" => Some(false),
                    _ => None,
                })
            {
                out.push(Request {
                    command: fugue_protocol::Command::ListSessions,
                    pending: Pending::SwitchSession(next),
                });
                continue;
            }
            // `switch-client -l`: back to the session this client showed before.
            if argv.first().map(String::as_str) == Some("switch-client")
                && argv.iter().any(|a| a == "-l")
            {
                match self.switch_to_last() {
                    Some(r) => out.push(r),
                    None => return Vec::new(),
                }
                continue;
            }
            // `switch-client -t TARGET` (choose-tree's template): this client goes to
            // the target's session, its window and pane selected there first.
            if argv.first().map(String::as_str) == Some("switch-client")
                && let Some(i) = argv.iter().position(|a| a == "-t")
            {
                match self.switch_client(argv.get(i + 1).map(String::as_str)) {
                    Ok(requests) => out.extend(requests),
                    Err(e) => {
                        self.notice(e);
                        return Vec::new();
                    }
                }
                continue;
            }
            // `send-keys -M`: a mouse binding passes its event on to the pane's program.
            if argv
                .first()
                .is_some_and(|a| matches!(a.as_str(), "send-keys" | "send"))
                && argv.iter().skip(1).any(|a| a == "-M")
            {
                out.extend(self.send_mouse());
                continue;
            }
            // `send-keys -X [-N COUNT] NAME`: a command of the copy mode this client
            // shows, COUNT times.
            let (count, argv) = repeat_count(argv);
            if let Some(name) = crate::tui::copy::keys::copy_command(&argv) {
                let action = crate::tui::copy::keys::Action::from_tmux(name);
                match (self.copy().is_some(), action) {
                    (true, Some(a)) => out.extend(self.copy_action(a, count)),
                    (true, None) => self.notice(format!("unknown copy-mode command: {name}")),
                    (false, _) => self.notice("not in a mode".to_string()),
                }
                continue;
            }
            match argv.first().map(String::as_str) {
                Some("run-shell" | "run") => {
                    out.extend(self.run_shell(&argv[1..]));
                    continue;
                }
                Some("if-shell" | "if") => {
                    out.extend(self.if_shell(&argv[1..]));
                    continue;
                }
                Some("confirm-before" | "confirm") => {
                    if let Err(e) = self.confirm_before(&argv) {
                        self.notice(e);
                        return Vec::new();
                    }
                    continue;
                }
                // `C-b :` alone: the command prompt, with history and completion.
                Some("command-prompt") if argv.len() == 1 => {
                    out.extend(self.open_command_prompt());
                    continue;
                }
                Some("command-prompt") => {
                    if let Err(e) = self.open_template_prompt(&argv) {
                        self.notice(e);
                        return Vec::new();
                    }
                    continue;
                }
                Some("display-panes" | "displayp") => {
                    if let Err(e) = super::display_panes::open(self, &argv) {
                        self.notice(e);
                        return Vec::new();
                    }
                    continue;
                }
                Some(
                    "choose-tree" | "choose-window" | "choose-session" | "find-window" | "findw",
                ) => {
                    match super::tree::open(self, &argv) {
                        Ok(requests) => out.extend(requests),
                        Err(e) => {
                            self.notice(e);
                            return Vec::new();
                        }
                    }
                    continue;
                }
                Some("copy-mode") => {
                    out.extend(self.copy_mode_line(&argv));
                    continue;
                }
                Some("clock-mode") => {
                    if let Err(e) = super::clock::open(self, &argv) {
                        self.notice(e);
                        return Vec::new();
                    }
                    continue;
                }
                Some("choose-client") => {
                    match super::client_chooser::open(self, &argv) {
                        Ok(requests) => out.extend(requests),
                        Err(e) => {
                            self.notice(e);
                            return Vec::new();
                        }
                    }
                    continue;
                }
                Some("customize-mode") => {
                    match super::customize::open(self, &argv) {
                        Ok(requests) => out.extend(requests),
                        Err(e) => {
                            self.notice(e);
                            return Vec::new();
                        }
                    }
                    continue;
                }
                Some("choose-buffer") => {
                    out.extend(super::buffers::open(self, true));
                    continue;
                }
                Some("display-menu" | "menu") => {
                    if let Err(e) = super::menu::open(self, &argv) {
                        self.notice(e);
                        return Vec::new();
                    }
                    continue;
                }
                _ => {}
            }
            if matches!(
                argv.first().map(String::as_str),
                Some("source-file" | "source")
            ) {
                out.extend(self.source_file(&argv[1..]));
                continue;
            }
            match command_request(&argv) {
                Ok(request) => out.push(request),
                Err(e) => {
                    self.notice(e);
                    return Vec::new();
                }
            }
        }
        out
    }

    /// `confirm-before [-p prompt] [-y] command`: the question on the status line
    /// (the prompt a format, as tmux's; tmux's default question otherwise), the
    /// command parsed now, so a line that cannot run is an error before the question.
    fn confirm_before(&mut self, argv: &[String]) -> Result<(), String> {
        use fugue_protocol::tmux_cmd::{self, ProcessEnv};
        let fugue_protocol::flags::ConfirmBefore {
            prompt,
            yes,
            command,
            ..
        } = fugue_verbs::line::parse_flags(argv)?;
        let commands = match command.as_slice() {
            [one] => tmux_cmd::parse(one, &ProcessEnv).map_err(|e| e.to_string())?,
            words => tmux_cmd::split_sequence(words, &ProcessEnv).map_err(|e| e.to_string())?,
        };
        if commands.is_empty() {
            return Err("confirm-before: no command".into());
        }
        let question = match prompt {
            Some(p) => format!("{} ", self.expand_here(&p)),
            // tmux names the first command only, by its own name.
            None => {
                let first = commands
                    .first()
                    .and_then(|c| c.first())
                    .cloned()
                    .unwrap_or_default();
                let name = fugue_verbs::line::canonical_name(&first).unwrap_or(first);
                format!("Confirm '{name}'? (y/n) ")
            }
        };
        self.mode = Mode::Confirm {
            question,
            on_yes: commands,
            pane: self.active_pane(),
            default_yes: yes,
        };
        Ok(())
    }
}
