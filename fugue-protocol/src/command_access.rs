//! What every command can say about itself: its table entry, name, tier and target.

use super::{COMMANDS, Command, CommandSpec, Tier};
use crate::target::Target;

impl Command {
    /// This command's entry in [`COMMANDS`].
    pub fn spec(&self) -> &'static CommandSpec {
        &COMMANDS[self.index()]
    }

    pub fn name(&self) -> &'static str {
        self.spec().name
    }

    /// The tier the policy checks: the entry's, except where a flag makes the command
    /// do what a stronger command does.
    pub fn tier(&self) -> Tier {
        match self {
            // `new-window -k` may destroy the window at its index: it needs what
            // `kill-window` needs.
            Command::NewWindow(c) if c.kill => Tier::Destroy,
            _ => self.spec().tier,
        }
    }

    /// The target the command names, if any (for the audit log and policy): the
    /// first one [`Command::each_target`] gives.
    pub fn target(&self) -> Option<&Target> {
        let mut first = None;
        self.each_target(&mut |u| {
            if first.is_none() {
                first = u.target;
            }
        });
        first
    }

    /// Every pane, window or session the command acts on, in order, with what an
    /// agent's scope must hold of it (`dispatch/scope.rs`). A `None` target is the
    /// caller's default (its pane, window or session), which the scope judges too.
    /// This one match is both the audit log's target and the scope's: they once were
    /// two lists that disagreed.
    pub fn each_target<'a>(&'a self, f: &mut dyn FnMut(TargetUse<'a>)) {
        use TargetKind::*;
        let mut one = |t: &'a Option<Target>, kind: TargetKind| f(TargetUse::new(t.as_ref(), kind));
        match self {
            Command::ListSessions
            | Command::KillServer
            | Command::Restore { .. }
            | Command::DiscardRestorable { .. }
            | Command::ResizeClient { .. }
            | Command::SidebandMcp { .. }
            | Command::ClientFocus { .. }
            | Command::ClientMode { .. }
            | Command::ShowBuffer { .. }
            | Command::ListBuffers
            | Command::DeleteBuffer { .. }
            | Command::BindKey(_)
            | Command::UnbindKey { .. }
            | Command::ListKeys { .. }
            | Command::WaitChannel { .. }
            | Command::SuspendClient { .. }
            | Command::ServerAccess(_)
            | Command::ShowMessages(_)
            | Command::ShowPromptHistory { .. }
            | Command::ClearPromptHistory { .. }
            | Command::PromptEntered { .. }
            | Command::ClientKeys { .. } => {}
            // Grouping with a session shares its windows: all of them must be the
            // caller's.
            Command::NewSession(c) => {
                if c.group.is_some() {
                    one(&c.group, SessionAll)
                }
            }
            Command::Lock(crate::admin::LockScope::Session(target)) => one(target, SessionAll),
            Command::Lock(_) => {}
            Command::SetEnvironment(c) if !c.global => one(&c.target, SessionAny),
            Command::ShowEnvironment(c) if !c.global => one(&c.target, SessionAny),
            Command::SetEnvironment(_) | Command::ShowEnvironment(_) => {}
            // Only people set and read hooks (the policy refuses agents).
            Command::SetHook(c) => one(&c.target, SessionAny),
            Command::ShowHooks(c) => one(&c.target, SessionAny),
            Command::SetBuffer(c) => {
                if let Some(crate::buffers::BufferData::Pane(p)) = &c.data {
                    one(&p.target, Pane)
                }
            }
            // An object's own options: the caller must see it. Global and server
            // options name no object.
            Command::SetOption(c) => one(&c.target, SessionAny),
            Command::ShowOptions(c) => one(&c.target, SessionAny),
            Command::ListPanes { target, .. } => one(target, Listed),
            Command::NewWindow(c) => one(&c.target, SessionAny),
            Command::SplitPane(c) => one(&c.target, Pane),
            Command::PasteBuffer(c) => one(&c.target, Pane),
            Command::AgentWorktree(c) => one(&c.target, Pane),
            Command::Respawn(c) => one(&c.target, if c.window { WindowAll } else { Pane }),
            Command::SendInput(c) => one(&c.target, Pane),
            Command::CapturePane(c) => one(&c.target, Pane),
            Command::Report(c) => one(&c.target, Pane),
            Command::KillPane { target }
            | Command::SetPaneTitle { target, .. }
            | Command::SelectPane { target, .. }
            | Command::PaneInput { target, .. }
            | Command::MarkPane { target, .. }
            | Command::ResizePane { target, .. }
            | Command::ReadRows { target, .. }
            | Command::GetResult { target }
            | Command::ClearHistory { target }
            | Command::PipePane { target, .. }
            | Command::SendPrefix { target, .. }
            | Command::FormatText { target, .. } => one(target, Pane),
            Command::KillWindow { target }
            | Command::UnlinkWindow { target, .. }
            | Command::RenameWindow { target, .. }
            | Command::KillOtherPanes { target }
            | Command::SelectLayout { target, .. } => one(target, WindowAll),
            Command::RotateWindow(c) => one(&c.target, WindowAll),
            Command::ResizeWindow(c) => one(&c.target, WindowAll),
            Command::SwapPane(c) => {
                one(&c.target, Pane);
                if let crate::manage::SwapSource::Pane(s) = &c.source {
                    f(TargetUse::new(Some(s), Pane));
                }
            }
            Command::BreakPane(c) => {
                one(&c.source, Pane);
                one(&c.target, SessionAny);
            }
            Command::JoinPane(c) => {
                one(&c.source, Pane);
                one(&c.target, Pane);
            }
            Command::MoveWindow(c) if c.renumber => one(&c.target, SessionAll),
            Command::MoveWindow(c) => {
                one(&c.source, WindowAll);
                one(&c.target, SessionAll);
            }
            Command::SwapWindow(c) => {
                one(&c.source, WindowAll);
                one(&c.target, WindowAll);
            }
            // Every window (or every other session) may close: all of it must be in
            // scope.
            Command::KillOtherWindows { target }
            | Command::KillOtherSessions { target }
            | Command::KillSession { target }
            | Command::RenameSession { target, .. }
            | Command::SelectWindow { target, .. }
            | Command::AttachSession { target, .. }
            | Command::DetachClient { target, .. } => one(target, SessionAll),
            // At least one pane of the session (a message in its status bar, a
            // window added, a client's mode).
            Command::RefreshClient { target }
            | Command::ListClients { target }
            | Command::DisplayMessage { target, .. } => one(target, SessionAny),
            Command::ConfirmBefore(c)
            | Command::CommandPrompt(c)
            | Command::DisplayMenu(c)
            | Command::DisplayPanes(c)
            | Command::SwitchClient(c)
            | Command::ChooseTree(c)
            | Command::CopyMode(c)
            | Command::ChooseBuffer(c)
            | Command::ClockMode(c)
            | Command::CustomizeMode(c)
            | Command::ChooseClient(c)
            | Command::FindWindow(c) => one(&c.target, SessionAny),
            Command::CopyModeCommand(c) => one(&c.target, Pane),
            Command::DisplayPopup(c) => one(&c.target, SessionAny),
            Command::ReadPane(c) => {
                let cursor = match &c.source {
                    crate::observe::ReadSource::Since(s) => Some(s.as_str()),
                    _ => None,
                };
                f(TargetUse::new(c.target.as_ref(), Pane).with_cursor(cursor))
            }
            Command::WaitFor(c) => {
                let cursor = match &c.condition {
                    crate::observe::WaitCondition::Text { after, .. } => after.as_deref(),
                    _ => None,
                };
                f(TargetUse::new(c.target.as_ref(), Pane).with_cursor(cursor))
            }
            Command::RunCommand(c) => {
                for t in [&c.pane, &c.split_from] {
                    if t.is_some() {
                        one(t, Pane)
                    }
                }
            }
            Command::SearchPanes(c) => {
                for t in &c.targets {
                    f(TargetUse::new(Some(t), Pane))
                }
            }
            Command::SpawnAgent(c) => {
                match &c.placement {
                    crate::agent::Placement::Split {
                        target: Some(t), ..
                    } => f(TargetUse::new(Some(t), Pane)),
                    crate::agent::Placement::Window { session: Some(s) } => {
                        f(TargetUse::new(Some(s), SessionAny))
                    }
                    _ => {}
                }
                for t in &c.depends_on {
                    f(TargetUse::new(Some(t), Pane))
                }
            }
            Command::SendMessage(c) => {
                if let crate::agent::MessageTo::Pane(t) = &c.to {
                    f(TargetUse::new(Some(t), Pane))
                }
            }
        }
    }
}

/// What an agent's scope must hold of a thing a command names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetKind {
    /// The pane.
    Pane,
    /// Every pane of the window (it may close or be rearranged whole).
    WindowAll,
    /// Every pane of the session.
    SessionAll,
    /// At least one pane of the session (adding a window, a message in its status
    /// bar).
    SessionAny,
    /// Nothing: the answer is a list the scope filters instead.
    Listed,
}

/// One thing a command names ([`Command::each_target`]).
#[derive(Clone, Copy, Debug)]
pub struct TargetUse<'a> {
    /// The target as given; `None` is the caller's default.
    pub target: Option<&'a Target>,
    /// A read cursor that names the pane when no target does (`read_pane --since`,
    /// `wait_for --after`).
    pub cursor: Option<&'a str>,
    pub kind: TargetKind,
}

impl<'a> TargetUse<'a> {
    fn new(target: Option<&'a Target>, kind: TargetKind) -> TargetUse<'a> {
        TargetUse {
            target,
            cursor: None,
            kind,
        }
    }

    fn with_cursor(self, cursor: Option<&'a str>) -> TargetUse<'a> {
        TargetUse { cursor, ..self }
    }
}
