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

/// Every key action the declaration names is one the key parser takes.
#[test]
fn declared_key_actions_parse() {
    for c in COMMANDS {
        if let Exposure::As(actions) = c.surfaces.keys {
            for action in actions.split(", ") {
                assert!(
                    action.parse::<crate::KeyAction>().is_ok(),
                    "{}: `{action}` is not a key action",
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
