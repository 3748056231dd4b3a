//! The command declaration's own checks (split from command.rs by size).

use super::*;

#[test]
fn every_surface_is_exposed_or_absent_with_a_reason() {
    for c in COMMANDS {
        let s = c.surfaces;
        for e in [s.cli, s.mcp, s.sideband, s.keys] {
            match e {
                Exposure::As(n) => assert!(!n.is_empty(), "{}", c.name),
                Exposure::Absent(why) => assert!(why.len() > 10, "{}: {why}", c.name),
                Exposure::Tmux => {}
            }
        }
        // The `tmux` tool runs CLI verbs: only MCP says `Tmux`, of commands the CLI has.
        for e in [s.cli, s.sideband, s.keys] {
            assert_ne!(e, Exposure::Tmux, "{}", c.name);
        }
        if s.mcp == Exposure::Tmux {
            assert!(matches!(s.cli, Exposure::As(_)), "{}", c.name);
        }
    }
}

/// Every key name the declaration gives is one the config file takes.
#[test]
fn declared_key_actions_parse() {
    for c in COMMANDS {
        if let Exposure::As(actions) = c.surfaces.keys {
            for action in actions.split(", ") {
                assert!(
                    crate::bindings::named_line(action).is_some(),
                    "{}: `{action}` is not a key name",
                    c.name
                );
            }
        }
    }
}

#[test]
fn table_names_are_unique() {
    let mut names: Vec<_> = COMMANDS.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), COMMANDS.len());
}

#[test]
fn layout_cycle_wraps() {
    let mut p = LayoutPreset::Tiled;
    for _ in 0..LayoutPreset::CYCLE.len() {
        p = p.next();
    }
    assert_eq!(p, LayoutPreset::Tiled);
    assert_eq!(
        LayoutPreset::parse("main-vertical"),
        Some(LayoutPreset::MainVertical)
    );
}

/// The target a client pins a command to is the first its entry lists, and only
/// while the command names none.
#[test]
fn the_first_listed_target_is_the_one_a_default_stands_for() {
    let pane = Target::Pane(crate::PaneId(4));
    let mut kill = Command::KillWindow(cmd::KillWindow { target: None });
    *kill.first_target_mut().unwrap() = Some(pane.clone());
    assert_eq!(kill.target(), Some(&pane));
    // An entry that names no target has none to pin.
    assert!(Command::KillServer.first_target_mut().is_none());
}
