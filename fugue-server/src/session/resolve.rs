//! Turning targets into things that exist.
//!
//! Every failure says what does exist, so a person or an agent can correct the call
//! without another round trip.

use super::tree::Tree;
use fugue_protocol::{CommandError, PaneId, SessionId, Target, WindowId, WindowSpec};

/// Who is asking, for targets that are left out or relative.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context {
    /// The pane the caller runs in.
    pub caller_pane: Option<PaneId>,
    /// The session an attached client shows.
    pub client_session: Option<SessionId>,
}

const LIST_LIMIT: usize = 20;

impl Tree {
    /// "sessions: a, b; panes: %1 (a:0.0), ..." for error suggestions.
    pub fn describe_targets(&self) -> String {
        if self.sessions.is_empty() {
            return "no sessions exist; create one with `fugue new-session`".into();
        }
        let sessions: Vec<String> = self.sessions.iter().map(|s| s.name.clone()).collect();
        let mut panes = Vec::new();
        for s in &self.sessions {
            for l in &s.windows {
                let Some(w) = self.window(l.id) else {
                    continue;
                };
                for (i, p) in w.layout.panes().iter().enumerate() {
                    panes.push(format!("{p} ({}:{}.{i})", s.name, l.index));
                }
            }
        }
        let more = panes.len().saturating_sub(LIST_LIMIT);
        panes.truncate(LIST_LIMIT);
        let mut out = format!(
            "sessions: {}; panes: {}",
            sessions.join(", "),
            panes.join(", ")
        );
        if more > 0 {
            out.push_str(&format!(" and {more} more (fugue list-panes -a)"));
        }
        out
    }

    fn unknown(&self, what: String) -> CommandError {
        CommandError::unknown_target(what).with_suggestion(self.describe_targets())
    }

    fn pane_exists(&self, p: PaneId) -> bool {
        self.panes.contains_key(&p)
    }

    /// The session a caller means when it names none.
    pub fn current_session(&self, ctx: &Context) -> Result<SessionId, CommandError> {
        if let Some((s, _)) = ctx.caller_pane.and_then(|p| self.locate(p)) {
            return Ok(s);
        }
        if let Some(s) = ctx.client_session.filter(|s| self.session(*s).is_some()) {
            return Ok(s);
        }
        self.most_recent_session()
            .map(|s| s.id)
            .ok_or_else(|| self.unknown("no sessions exist".into()))
    }

    fn session_named(&self, name: &str) -> Result<SessionId, CommandError> {
        // tmux: `=name` matches the name exactly, never a prefix (libtmux's
        // `has-session -t =NAME`).
        let (name, exact) = match name.strip_prefix('=') {
            Some(rest) => (rest, true),
            None => (name, false),
        };
        if let Some(s) = self.session_by_name(name) {
            return Ok(s.id);
        }
        // A session id where a name goes (`$1:2`), as tmux looks ids up first.
        if let Some(s) = name
            .parse::<SessionId>()
            .ok()
            .and_then(|id| self.session(id))
        {
            return Ok(s.id);
        }
        if exact {
            return Err(self.unknown(format!(
                "unknown target `={name}`: no session has exactly that name"
            )));
        }
        let prefixed: Vec<_> = self
            .sessions
            .iter()
            .filter(|s| s.name.starts_with(name))
            .collect();
        match prefixed.as_slice() {
            [one] => Ok(one.id),
            [] => Err(self.unknown(format!(
                "unknown target `{name}`: no session, window or pane has that name"
            ))),
            many => Err(
                CommandError::unknown_target(format!("`{name}` is ambiguous")).with_suggestion(
                    format!(
                        "it could be any of the sessions {}",
                        many.iter()
                            .map(|s| s.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ),
            ),
        }
    }

    /// The link `spec` names in `session`: (window, index).
    fn window_in(
        &self,
        session: SessionId,
        spec: &WindowSpec,
    ) -> Result<(WindowId, u32), CommandError> {
        let s = self
            .session(session)
            .ok_or_else(|| self.unknown(format!("session {session} no longer exists")))?;
        let name_of = |id: WindowId| self.window(id).map_or("", |w| w.name.as_str());
        let found = match spec {
            WindowSpec::Index(i) => s.windows.iter().find(|w| w.index == *i),
            WindowSpec::Name(n) if n.starts_with('=') => s
                .windows
                .iter()
                .find(|w| Some(name_of(w.id)) == n.strip_prefix('=')),
            WindowSpec::Name(n) => s.windows.iter().find(|w| name_of(w.id) == n).or_else(|| {
                let mut m = s
                    .windows
                    .iter()
                    .filter(|w| name_of(w.id).starts_with(n.as_str()));
                match (m.next(), m.next()) {
                    (Some(one), None) => Some(one),
                    _ => None,
                }
            }),
        };
        found.map(|w| (w.id, w.index)).ok_or_else(|| {
            let names: Vec<String> = s
                .windows
                .iter()
                .map(|w| format!("{}:{} ({})", s.name, w.index, name_of(w.id)))
                .collect();
            CommandError::unknown_target(format!(
                "session `{}` has no window {}",
                s.name,
                match spec {
                    WindowSpec::Index(i) => i.to_string(),
                    WindowSpec::Name(n) => format!("named `{n}`"),
                }
            ))
            .with_suggestion(format!("windows: {}", names.join(", ")))
        })
    }

    /// The session a target names (or the current one).
    pub fn resolve_session(
        &self,
        target: Option<&Target>,
        ctx: &Context,
    ) -> Result<SessionId, CommandError> {
        match target {
            None => self.current_session(ctx),
            Some(Target::SessionId(s)) => self
                .session(*s)
                .map(|s| s.id)
                .ok_or_else(|| self.unknown(format!("unknown target `{s}`: no such session"))),
            Some(Target::Path {
                session: Some(name),
                ..
            }) => self.session_named(name),
            Some(Target::Path { session: None, .. }) => self.current_session(ctx),
            Some(Target::Window(_) | Target::Pane(_)) => {
                let (_, w) = self.resolve_window(target, ctx)?;
                self.session_of_window(w)
                    .map(|s| s.id)
                    .ok_or_else(|| self.unknown("that window has no session".into()))
            }
        }
    }

    /// The window a target names (or the current one), with its session.
    pub fn resolve_window(
        &self,
        target: Option<&Target>,
        ctx: &Context,
    ) -> Result<(SessionId, WindowId), CommandError> {
        self.resolve_winlink(target, ctx).map(|(s, w, _)| (s, w))
    }

    /// [`Tree::resolve_window`] with the window's index in that session: the one
    /// named (`s:5`), else the session's current link of it or its first, as tmux's
    /// cmd_find picks among a window's links.
    pub fn resolve_winlink(
        &self,
        target: Option<&Target>,
        ctx: &Context,
    ) -> Result<(SessionId, WindowId, u32), CommandError> {
        let active_of = |sid: SessionId| -> Result<(SessionId, WindowId), CommandError> {
            let s = self
                .session(sid)
                .ok_or_else(|| self.unknown(format!("session {sid} no longer exists")))?;
            Ok((sid, s.active))
        };
        let (sid, wid) = match target {
            None => match ctx.caller_pane.and_then(|p| self.locate(p)) {
                Some(found) => found,
                None => active_of(self.current_session(ctx)?)?,
            },
            Some(Target::Pane(p)) => self
                .locate(*p)
                .ok_or_else(|| self.unknown(format!("unknown target `{p}`: no such pane")))?,
            Some(Target::Window(w)) => self
                .session_of_window(*w)
                .map(|s| (s.id, *w))
                .ok_or_else(|| self.unknown(format!("unknown target `{w}`: no such window")))?,
            Some(Target::SessionId(_)) => active_of(self.resolve_session(target, ctx)?)?,
            Some(Target::Path {
                session, window, ..
            }) => {
                let sid = match session {
                    Some(name) => self.session_named(name)?,
                    None => self.current_session(ctx)?,
                };
                match window {
                    Some(spec) => {
                        let (wid, index) = self.window_in(sid, spec)?;
                        return Ok((sid, wid, index));
                    }
                    None => active_of(sid)?,
                }
            }
        };
        let index = self
            .session(sid)
            .and_then(|s| s.index_of(wid))
            .ok_or_else(|| self.unknown(format!("window {wid} is in no session")))?;
        Ok((sid, wid, index))
    }

    /// The pane a target names (or the current one). A pane whose program is still
    /// starting is in no layout yet and takes no command (see `pane::program`).
    pub fn resolve_pane(
        &self,
        target: Option<&Target>,
        ctx: &Context,
    ) -> Result<PaneId, CommandError> {
        let p = self.resolve_any_pane(target, ctx)?;
        if self.panes.get(&p).is_some_and(|p| p.pty.is_starting()) {
            return Err(CommandError::new(
                fugue_protocol::ErrorCode::NotReady,
                format!("pane {p} is still starting"),
            )
            .with_suggestion("try again in a moment"));
        }
        Ok(p)
    }

    fn resolve_any_pane(
        &self,
        target: Option<&Target>,
        ctx: &Context,
    ) -> Result<PaneId, CommandError> {
        match target {
            None => {
                if let Some(p) = ctx.caller_pane.filter(|p| self.pane_exists(*p)) {
                    return Ok(p);
                }
                let (_, w) = self.resolve_window(None, ctx)?;
                self.window(w)
                    .map(|w| w.active)
                    .ok_or_else(|| self.unknown("no current window".into()))
            }
            Some(Target::Pane(p)) => {
                if self.pane_exists(*p) {
                    Ok(*p)
                } else {
                    Err(self.unknown(format!("unknown target `{p}`: no such pane")))
                }
            }
            Some(Target::Path { pane: Some(i), .. }) => {
                let (_, wid, index) = self.resolve_winlink(target, ctx)?;
                let w = self
                    .window(wid)
                    .ok_or_else(|| self.unknown("that window is gone".into()))?;
                let panes = w.layout.panes();
                let base = self.pane_base_index;
                let at = i.checked_sub(base).map(|n| n as usize);
                at.and_then(|n| panes.get(n)).copied().ok_or_else(|| {
                    CommandError::unknown_target(format!("window {index} has no pane {i}"))
                        .with_suggestion(format!(
                            "it has panes {base}..{} ({})",
                            (panes.len() as u32).saturating_sub(1).saturating_add(base),
                            panes
                                .iter()
                                .map(|p| p.to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                })
            }
            Some(_) => {
                let (_, wid) = self.resolve_window(target, ctx)?;
                self.window(wid)
                    .map(|w| w.active)
                    .ok_or_else(|| self.unknown("that window is gone".into()))
            }
        }
    }
}
