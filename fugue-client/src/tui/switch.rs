//! `switch-client -t TARGET` in the terminal client (choose-tree's default template,
//! and bindings): the client's own command, as tmux's, since it moves this client.

use super::input::Request;
use super::state::{App, Pending};
use fugue_protocol::cmd;
use fugue_protocol::{Command, Target};

impl App {
    /// `switch-client -t TARGET`: for a window or pane `select-window` (and
    /// `select-pane`) on it, then this client attaches to its session; chained, so
    /// the client arrives at what was chosen.
    pub(super) fn switch_client(&mut self, target: Option<&str>) -> Result<Vec<Request>, String> {
        let Some(t) = target else {
            return Err("switch-client -t needs a target".into());
        };
        let parsed: Target = t.parse().map_err(|e| format!("switch-client: {e}"))?;
        let (window, pane) = match &parsed {
            Target::Pane(_) => (true, true),
            Target::Window(_) => (true, false),
            Target::SessionId(_) => (false, false),
            Target::Path { window, pane, .. } => (window.is_some(), pane.is_some()),
        };
        let caller = fugue_verbs::Caller::process();
        let mut out = Vec::new();
        for (on, verb) in
            [(window, "select-window"), (pane, "select-pane")] as [(bool, &'static str); 2]
        {
            if on {
                let argv = [verb.to_string(), "-t".into(), t.to_string()];
                let command = fugue_verbs::line::command_for_argv(&argv, &caller)?;
                out.push(Request {
                    command,
                    pending: Pending::Action(verb),
                });
            }
        }
        out.push(Request {
            // switch-client takes the client's variables too (tmux's
            // update-environment on switch-client).
            command: Command::AttachSession(cmd::AttachSession {
                target: Some(parsed),
                create: false,
                client_env: super::update_env(),
                tty: super::own_tty(),
                others: None,
            }),
            pending: Pending::Action("switch-client"),
        });
        Ok(super::command_prompt::chain(out))
    }

    /// `switch-client -l`: back to the session this client showed before (none: a
    /// notice, and nothing to send).
    pub(super) fn switch_to_last(&mut self) -> Option<Request> {
        let Some(name) = self.last_session.clone() else {
            self.notice("no last session".to_string());
            return None;
        };
        Some(Request {
            command: Command::AttachSession(cmd::AttachSession {
                target: Some(Target::session(name)),
                create: false,
                client_env: super::update_env(),
                tty: super::own_tty(),
                others: None,
            }),
            pending: Pending::Action("switch-client"),
        })
    }
}
