//! Control clients as iTerm2 uses them (issue 16): sizing windows with
//! `refresh-client -C`, and hearing of other clients, side by side with tmux.

use super::control_mode::{Ctl, blocks};
use super::harness::{TestTmux, World};

/// `refresh-client -C WxH` sizes the control client as iTerm2 sizes it: the window
/// takes the whole size (a control client has no status line), `%layout-change`
/// follows the command's block, and `list-clients` prints inside its block (its
/// lines once came before the `%begin`); side by side with tmux.
#[test]
fn refresh_client_c_sizes_the_window_as_tmux() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    let first = ["new-session", "-s", "x", "-x", "80", "-y", "24", "cat"];
    let mut f = Ctl::fugue(&w, &first);
    let mut r = Ctl::tmux(&t, &first);
    let mut seen = Vec::new();
    for c in [&mut f, &mut r] {
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        let from = c.lines().len();
        c.reply("refresh-client -C 120x40", 1);
        c.wait_from(from, "%layout-change", |l| l.starts_with("%layout-change"));
        c.reply("display -p '#{window_width}x#{window_height}'", 1);
        c.reply("list-clients -F '#{client_width}'", 1);
        c.reply("refresh-client -C 100,30", 1);
        c.reply("display -p '#{window_width}x#{window_height}'", 1);
        let lines = c.lines()[from..].to_vec();
        let layout = lines
            .iter()
            .find(|l| l.starts_with("%layout-change"))
            .map(|l| l.split(' ').nth(2).unwrap_or_default().to_string())
            .unwrap_or_default();
        // The checksum and ids differ; the size is the layout's second field.
        let size = layout.split(',').nth(1).unwrap_or_default().to_string();
        let mut b = blocks(&lines);
        b.push(size);
        seen.push(b);
    }
    assert_eq!(seen[0], seen[1], "fugue, then tmux");
    assert!(seen[0].contains(&"120x40".to_string()), "{:?}", seen[0]);
    assert!(seen[0].contains(&"100x30".to_string()), "{:?}", seen[0]);
}

/// Another client attaching and leaving is told to a control client as tmux 3.3+
/// tells it: `%client-session-changed NAME $S SESSION`, `%client-detached NAME`.
#[test]
fn other_clients_comings_and_goings_are_told_as_tmux_tells_them() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    w.ok(&["new-session", "-d", "-s", "x", "cat"]);
    t.ok(&["new-session", "-d", "-s", "x", "cat"]);
    let mut seen = Vec::new();
    for fugue in [true, false] {
        let start = |args: &[&str]| match fugue {
            true => Ctl::fugue(&w, args),
            false => Ctl::tmux(&t, args),
        };
        let first = start(&["attach-session", "-t", "x"]);
        first.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        let mut second = start(&["attach-session", "-t", "x"]);
        second.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        let pid = second.child.id();
        let name = format!("client-{pid}");
        first.wait("%client-session-changed", |l| {
            l.starts_with("%client-session-changed")
        });
        second.detach();
        first.wait("%client-detached", |l| l.starts_with("%client-detached"));
        let told: Vec<String> = first
            .lines()
            .iter()
            .filter(|l| l.starts_with("%client-"))
            .map(|l| {
                let l = l.replace(&name, "NAME");
                // Session ids differ ($0 in tmux): keep the kind.
                l.split(' ')
                    .map(|w| if w.starts_with('$') { "$S" } else { w })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        seen.push(told);
    }
    assert_eq!(seen[0], seen[1], "fugue, then tmux");
    assert_eq!(
        seen[0],
        ["%client-session-changed NAME $S x", "%client-detached NAME"]
    );
}
