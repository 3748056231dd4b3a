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

    pub fn tier(&self) -> Tier {
        self.spec().tier
    }

    /// The target the command names, if any (for the audit log and policy).
    pub fn target(&self) -> Option<&Target> {
        match self {
            Command::NewSession(_)
            | Command::KillServer
            | Command::Restore { .. }
            | Command::DiscardRestorable { .. }
            | Command::ListSessions
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
            | Command::ClientKeys { .. } => None,
            Command::Lock(scope) => match scope {
                crate::admin::LockScope::Session(target) => target.as_ref(),
                _ => None,
            },
            Command::KillOtherPanes { target }
            | Command::KillOtherWindows { target }
            | Command::KillOtherSessions { target }
            | Command::ClearHistory { target } => target.as_ref(),
            Command::PipePane { target, .. } => target.as_ref(),
            Command::Respawn(c) => c.target.as_ref(),
            Command::SwapPane(c) => c.target.as_ref(),
            Command::RotateWindow(c) => c.target.as_ref(),
            Command::BreakPane(c) => c.source.as_ref(),
            Command::JoinPane(c) => c.source.as_ref(),
            Command::MoveWindow(c) => c.source.as_ref().or(c.target.as_ref()),
            Command::UnlinkWindow { target, .. } => target.as_ref(),
            Command::SetEnvironment(c) => c.target.as_ref(),
            Command::ShowEnvironment(c) => c.target.as_ref(),
            Command::SwapWindow(c) => c.source.as_ref(),
            Command::SetBuffer(c) => match &c.data {
                Some(crate::buffers::BufferData::Pane(p)) => p.target.as_ref(),
                _ => None,
            },
            Command::PasteBuffer(c) => c.target.as_ref(),
            Command::SetOption(c) => c.target.as_ref(),
            Command::ShowOptions(c) => c.target.as_ref(),
            Command::SetHook(c) => c.target.as_ref(),
            Command::ShowHooks(c) => c.target.as_ref(),
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
            | Command::CopyModeCommand(c)
            | Command::ChooseClient(c)
            | Command::FindWindow(c) => c.target.as_ref(),
            Command::DisplayPopup(c) => c.target.as_ref(),
            Command::NewWindow(c) => c.target.as_ref(),
            Command::SplitPane(c) => c.target.as_ref(),
            Command::SendInput(c) => c.target.as_ref(),
            Command::SendPrefix { target, .. } => target.as_ref(),
            Command::CapturePane(c) => c.target.as_ref(),
            Command::ReadPane(c) => c.target.as_ref(),
            Command::WaitFor(c) => c.target.as_ref(),
            Command::RunCommand(c) => c.pane.as_ref().or(c.split_from.as_ref()),
            Command::SearchPanes(c) => c.targets.first(),
            Command::DisplayMessage { target, .. } => target.as_ref(),
            Command::FormatText { target, .. } => target.as_ref(),
            Command::SpawnAgent(c) => match &c.placement {
                crate::agent::Placement::Split { target, .. } => target.as_ref(),
                crate::agent::Placement::Window { session } => session.as_ref(),
                _ => None,
            },
            Command::SendMessage(c) => match &c.to {
                crate::agent::MessageTo::Pane(t) => Some(t),
                _ => None,
            },
            Command::Report(c) => c.target.as_ref(),
            Command::GetResult { target } => target.as_ref(),
            Command::AgentWorktree(c) => c.target.as_ref(),
            Command::ResizeWindow(c) => c.target.as_ref(),
            Command::KillPane { target }
            | Command::KillWindow { target }
            | Command::KillSession { target }
            | Command::RenameSession { target, .. }
            | Command::RenameWindow { target, .. }
            | Command::SetPaneTitle { target, .. }
            | Command::SelectWindow { target, .. }
            | Command::SelectPane { target, .. }
            | Command::PaneInput { target, .. }
            | Command::MarkPane { target, .. }
            | Command::ResizePane { target, .. }
            | Command::SelectLayout { target, .. }
            | Command::ReadRows { target, .. }
            | Command::ListPanes { target, .. }
            | Command::AttachSession { target, .. }
            | Command::DetachClient { target, .. }
            | Command::RefreshClient { target }
            | Command::ListClients { target } => target.as_ref(),
        }
    }
}
