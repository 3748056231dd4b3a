//! Claude Code's agent-team teammates become agent panes.
//!
//! With `teammateMode: "tmux"`, Claude Code starts each teammate through the `tmux`
//! name: `split-window ... -- cat` then `respawn-pane -k -t %N -- 'claude --agent-id
//! NAME@TEAM --agent-name NAME --team-name TEAM ...'` (2.1.26x and later), or
//! `split-window` then `send-keys '<that command>' Enter` (earlier). It never tells
//! tmux these panes are agents. fugue recognises the start command, tracks the pane
//! with the preset whose program it runs (the `claude` preset's state machine, its
//! lineage from the lead's pane, a badge), and places it as `teammate-placement`
//! says, without Claude Code changing anything (docs/tmux.md#agent-teams).

use super::Exec;
use crate::agents::{Heuristics, TrackSpec};
use crate::config::{Config, TeammatePlacement};
use crate::pane::process::known_names;
use crate::session::tree::Creator;
use fugue_protocol::{
    Command, Direction, InputPart, JoinPane, LayoutChoice, LayoutPreset, PaneId, Response, Target,
    cmd,
};

/// The flags only a teammate's start command carries: cheap to look for in every
/// command that starts or types something, and never in a person's keys.
const MARKS: [&str; 2] = ["--agent-id", "--agent-name"];

/// The longest typed text looked at: a start command is a line, not a paste.
const MAX_TYPED: usize = 16 * 1024;

/// What a command might start, looked at before it runs (it is moved into the
/// handler) and decided after it succeeded.
pub enum Probe {
    /// A new or respawned pane's program.
    Started,
    /// Text typed into a pane (earlier Claude Code's `send-keys`).
    Typed(String),
}

/// A command that may start a teammate; `None` for nearly every command, at the
/// cost of a substring search over what it starts or types.
pub fn probe(command: &Command) -> Option<Probe> {
    let marked = |s: &str| MARKS.iter().any(|m| s.contains(m));
    match command {
        Command::SplitPane(c) if c.spawn.command.iter().any(|a| marked(a)) => Some(Probe::Started),
        Command::NewWindow(c) if c.spawn.command.iter().any(|a| marked(a)) => Some(Probe::Started),
        Command::Respawn(c) if !c.window && c.spawn.command.iter().any(|a| marked(a)) => {
            Some(Probe::Started)
        }
        // Every keystroke passes here: nothing is allocated unless a part is marked
        // (a start command is one `send-keys` argument, so one part).
        Command::SendInput(s)
            if s.parts
                .iter()
                .any(|p| matches!(p, InputPart::Text(t) | InputPart::Paste(t) if marked(t))) =>
        {
            let mut typed = String::new();
            for p in &s.parts {
                if let InputPart::Text(t) | InputPart::Paste(t) = p
                    && typed.len().saturating_add(t.len()) <= MAX_TYPED
                {
                    typed.push_str(t);
                }
            }
            Some(Probe::Typed(typed))
        }
        _ => None,
    }
}

/// A recognised teammate.
#[derive(Debug, PartialEq, Eq)]
pub struct Teammate {
    /// The preset whose program it runs.
    pub preset: String,
    /// `--agent-name`, or the part of `--agent-id` before `@`.
    pub name: Option<String>,
    /// `--team-name`, or the part of `--agent-id` after `@`.
    pub team: Option<String>,
}

/// The words of a command line, near enough to find a program and its flags: split
/// at blanks and shell operators, quotes dropped. (Only recognition reads them; the
/// shell runs the real line.)
fn split_words(line: &str) -> Vec<String> {
    line.split(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '"').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The teammate a command line (or argv) starts: a preset's program followed by a
/// teammate's flags.
pub fn recognise(config: &Config, argv: &[String]) -> Option<Teammate> {
    let words: Vec<String> = argv.iter().flat_map(|a| split_words(a)).collect();
    let value = |flag: &str| {
        words.iter().enumerate().find_map(|(i, w)| {
            w.strip_prefix(flag)
                .and_then(|rest| rest.strip_prefix('='))
                .map(str::to_string)
                .or_else(|| (w == flag).then(|| words.get(i + 1).cloned()).flatten())
        })
    };
    let id = value("--agent-id");
    let name = value("--agent-name");
    if id.is_none() && name.is_none() {
        return None;
    }
    let base = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
    // A word runs the preset's program by any name it is installed under
    // (`.../claude-code/bin/claude.exe`, `.../claude/versions/2.1.42`).
    let runs = |w: &str, prog: &str| known_names(w).iter().any(|n| n == prog);
    let preset = config.agents.names().into_iter().find(|n| {
        config.agents.get(n).is_some_and(|p| {
            let program = split_words(&p.command).into_iter().next().map(|w| base(&w));
            program.is_some_and(|prog| !prog.is_empty() && words.iter().any(|w| runs(w, &prog)))
        })
    })?;
    let (id_name, id_team) = match id.as_deref().map(|i| i.split_once('@')) {
        Some(Some((n, t))) => (Some(n.to_string()), Some(t.to_string())),
        _ => (id.clone(), None),
    };
    Some(Teammate {
        preset: preset.to_string(),
        name: name.or(id_name),
        team: value("--team-name").or(id_team),
    })
}

/// After a probed command succeeded: tracks the pane it started (or typed into) as
/// an agent when the program is a teammate, and places it.
pub fn adopt(exec: &mut Exec<'_>, probe: Probe, response: &Response) {
    let pane = match response {
        Response::Created(c) => Some(c.pane),
        _ => exec
            .resolved
            .as_deref()
            .and_then(|r| r.parse::<PaneId>().ok()),
    };
    let Some(pane) = pane else { return };
    let config = exec.server.config();
    let argv = match probe {
        Probe::Started => match exec.server.mux.tree().panes.get(&pane) {
            Some(p) => p.argv.clone(),
            None => return,
        },
        Probe::Typed(text) => vec![text],
    };
    let Some(mate) = recognise(&config, &argv) else {
        return;
    };
    let Some(preset) = config.agents.get(&mate.preset) else {
        return;
    };
    let heuristics = match Heuristics::from_preset(preset) {
        Ok(h) => h,
        Err(e) => {
            tracing::warn!("teammate in pane {pane}: preset {}: {e:?}", mate.preset);
            return;
        }
    };
    // Claude Code in the lead's pane made it: the teammate is that agent's child
    // (lineage, `pane_parent`, results scoped to it), as a pane an agent splits is.
    {
        let mut tree = exec.server.mux.tree();
        if let Some(p) = tree.panes.get_mut(&pane)
            && let Creator::Person { pane: Some(lead) } = p.creator
            && lead != pane
        {
            p.creator = Creator::Agent { pane: lead };
        }
    }
    let tracked = exec.server.agents.track(
        &exec.server.mux,
        pane,
        TrackSpec {
            preset: Some(mate.preset.clone()),
            tags: vec!["teammate".to_string()],
            heuristics,
            agent: true,
            ready: false,
        },
    );
    if let Err(e) = tracked {
        tracing::warn!("teammate in pane {pane} not tracked: {e:?}");
        return;
    }
    tracing::info!(
        "pane {pane}: a {} teammate ({}, team {}) is an agent pane",
        mate.preset,
        mate.name.as_deref().unwrap_or("unnamed"),
        mate.team.as_deref().unwrap_or("none")
    );
    if config.server.teammate_placement == TeammatePlacement::Window
        && let Err(e) = own_window(exec, pane, mate.team.as_deref().unwrap_or("teammates"))
    {
        tracing::warn!(
            "pane {pane}: teammate left where Claude Code put it: {}",
            e.display_with_suggestion()
        );
    }
}

/// The longest window name made from a team's name.
const MAX_TEAM_NAME: usize = 64;

/// Placing a teammate looks for its team's window and then breaks or joins the pane,
/// two steps under two takes of the tree's lock. Claude Code starts a team's
/// teammates at once, so without this two of them can each find no team window and
/// each make one. Held only around those steps, taken before the tree's lock and
/// never while holding it.
static PLACING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `teammate-placement window`: the pane joins its team's window in its session (made
/// by breaking the first teammate out, named after the team), tiled there; the lead's
/// window gets its room back.
fn own_window(
    exec: &mut Exec<'_>,
    pane: PaneId,
    team: &str,
) -> Result<(), fugue_protocol::CommandError> {
    let name: String = team
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, ':' | '.'))
        .take(MAX_TEAM_NAME)
        .collect();
    let name = if name.is_empty() {
        "teammates".to_string()
    } else {
        name
    };
    // A poisoned lock only means another placement panicked; the tree is still whole.
    let _placing = PLACING.lock().unwrap_or_else(|e| e.into_inner());
    let (own, joined) = {
        let tree = exec.server.mux.tree();
        let Some((sid, wid)) = tree.locate(pane) else {
            return Ok(());
        };
        let team_window = tree
            .session(sid)
            .and_then(|s| {
                s.windows
                    .iter()
                    .filter_map(|l| tree.window(l.id))
                    .find(|w| w.name == name && w.id != wid)
            })
            .map(|w| w.active);
        (wid, team_window)
    };
    let resolved = exec.resolved.take();
    let result = match joined {
        Some(other) => super::manage::join_pane(
            exec,
            JoinPane {
                source: Some(Target::Pane(pane)),
                target: Some(Target::Pane(other)),
                direction: Direction::Right,
                size: None,
                detached: true,
                full: false,
            },
        )
        .and_then(|_| {
            super::layouts::select_layout(
                exec,
                Some(&Target::Pane(pane)),
                LayoutChoice::Preset(LayoutPreset::Tiled),
            )
        }),
        None => {
            let alone = exec
                .server
                .mux
                .tree()
                .window(own)
                .is_some_and(|w| w.layout.len() == 1);
            if alone {
                Ok(Response::Done)
            } else {
                super::manage::break_pane(
                    exec,
                    cmd::BreakPane {
                        source: Some(Target::Pane(pane)),
                        target: None,
                        name: Some(name),
                        detached: true,
                        place: Default::default(),
                    },
                )
            }
        }
    };
    exec.resolved = resolved;
    result.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    #[test]
    fn a_claude_teammate_command_is_recognised() {
        let config = Config::default();
        let line = "cd '/home/u/p' && CLAUDECODE=1 '/home/u/.local/bin/claude' --agent-id researcher@my-team --agent-name researcher --team-name my-team --agent-color blue";
        assert_eq!(
            recognise(&config, &argv(line)),
            Some(Teammate {
                preset: "claude".into(),
                name: Some("researcher".into()),
                team: Some("my-team".into()),
            })
        );
        // Claude Code 2.1's npm package respawns teammates through its bundled
        // binary; the native installer runs a versioned file.
        for program in [
            "/usr/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
            "/root/.local/share/claude/versions/2.1.42",
        ] {
            let line = format!("'{program}' --agent-id r@t --agent-name r --team-name t");
            let t = recognise(&config, &argv(&line)).expect(program);
            assert_eq!(t.preset, "claude", "{program}");
        }
        // Only the id: name and team come from it.
        let t = recognise(&config, &argv("claude --agent-id=a@b")).expect("teammate");
        assert_eq!(
            (t.name.as_deref(), t.team.as_deref()),
            (Some("a"), Some("b"))
        );
    }

    #[test]
    fn other_commands_are_not_teammates() {
        let config = Config::default();
        for line in [
            "claude --continue",
            "cat",
            "echo --agent-name x",
            "myclaude --agent-name x",
            "",
        ] {
            assert_eq!(recognise(&config, &argv(line)), None, "{line}");
        }
    }

    #[test]
    fn only_commands_that_start_or_type_a_marked_line_are_probed() {
        let typed = Command::SendInput(fugue_protocol::SendInput {
            target: None,
            parts: vec![
                InputPart::Text("claude --agent-name x".into()),
                InputPart::Key("Enter".parse().expect("key")),
            ],
        });
        assert!(matches!(probe(&typed), Some(Probe::Typed(t)) if t == "claude --agent-name x"));
        let plain = Command::SendInput(fugue_protocol::SendInput {
            target: None,
            parts: vec![InputPart::Text("ls".into())],
        });
        assert!(probe(&plain).is_none());
    }
}
