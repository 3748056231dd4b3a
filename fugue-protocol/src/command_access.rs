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

/// What an entry's `targets:` clause reports its targets to ([`Command::each_target`]).
pub struct Targets<'a, 'f> {
    f: &'f mut dyn FnMut(TargetUse<'a>),
}

impl<'a, 'f> Targets<'a, 'f> {
    pub(super) fn new(f: &'f mut dyn FnMut(TargetUse<'a>)) -> Targets<'a, 'f> {
        Targets { f }
    }

    /// A target argument; `None` is the caller's default, judged as well.
    pub fn one(&mut self, target: &'a Option<Target>, kind: TargetKind) {
        (self.f)(TargetUse::new(target.as_ref(), kind))
    }

    /// A target the command names for certain.
    pub fn some(&mut self, target: &'a Target, kind: TargetKind) {
        (self.f)(TargetUse::new(Some(target), kind))
    }

    /// A target that a read cursor may name instead.
    pub fn cursor(
        &mut self,
        target: Option<&'a Target>,
        kind: TargetKind,
        cursor: Option<&'a str>,
    ) {
        (self.f)(TargetUse::new(target, kind).with_cursor(cursor))
    }
}
