//! The hook names: tmux 3.3a's (as `show-hooks -g` and `-gw` list them) and fugue's
//! own, each with its scope and what fires it in fugue.

/// Which options a hook lives in, as in tmux: session hooks (`set-hook -g` writes the
/// global session table) or window/pane hooks (`pane-*`, `window-*` events; `-g`
/// writes the global window table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookScope {
    Session,
    Window,
}

pub struct HookDef {
    pub name: &'static str,
    pub scope: HookScope,
    /// When fugue runs it (docs/hooks.md is generated from this), or why never.
    pub fires: &'static str,
}

const fn s(name: &'static str, fires: &'static str) -> HookDef {
    HookDef {
        name,
        scope: HookScope::Session,
        fires,
    }
}

const fn w(name: &'static str, fires: &'static str) -> HookDef {
    HookDef {
        name,
        scope: HookScope::Window,
        fires,
    }
}

const AFTER: &str = "after the command of that name succeeds, whichever surface ran it (not after a command a hook ran)";
const NO_CLIENT_EVENT: &str =
    "accepted for tmux's configurations; fugue has no such event yet, so it never runs";

/// Sorted by name, as `show-hooks` lists them.
pub const HOOKS: &[HookDef] = &[
    s("after-bind-key", AFTER),
    s("after-capture-pane", AFTER),
    s("after-copy-mode", NO_CLIENT_EVENT),
    s("after-display-message", AFTER),
    s("after-display-panes", NO_CLIENT_EVENT),
    s("after-kill-pane", AFTER),
    s("after-list-buffers", AFTER),
    s("after-list-clients", NO_CLIENT_EVENT),
    s("after-list-keys", AFTER),
    s("after-list-panes", AFTER),
    s("after-list-sessions", AFTER),
    s("after-list-windows", AFTER),
    s(
        "after-load-buffer",
        "after `load-buffer` (which is `set-buffer` on the server: after-set-buffer runs too)",
    ),
    s("after-lock-server", NO_CLIENT_EVENT),
    s("after-new-session", AFTER),
    s("after-new-window", AFTER),
    s("after-paste-buffer", AFTER),
    s("after-pipe-pane", NO_CLIENT_EVENT),
    s("after-queue", NO_CLIENT_EVENT),
    s("after-refresh-client", AFTER),
    s("after-rename-session", AFTER),
    s("after-rename-window", AFTER),
    s("after-resize-pane", AFTER),
    s("after-resize-window", NO_CLIENT_EVENT),
    s(
        "after-save-buffer",
        "after `save-buffer` (which is `show-buffer` on the server)",
    ),
    s("after-select-layout", AFTER),
    s("after-select-pane", AFTER),
    s("after-select-window", AFTER),
    s("after-send-keys", AFTER),
    s("after-set-buffer", AFTER),
    s("after-set-environment", NO_CLIENT_EVENT),
    s("after-set-hook", AFTER),
    s("after-set-option", AFTER),
    s("after-show-environment", NO_CLIENT_EVENT),
    s("after-show-messages", NO_CLIENT_EVENT),
    s("after-show-options", AFTER),
    s("after-split-window", AFTER),
    s("after-unbind-key", AFTER),
    s(
        "agent-reported",
        "fugue's: an agent pane reported a state or result (`report`)",
    ),
    s(
        "agent-state-changed",
        "fugue's: an agent pane's state changed (idle, busy, awaiting_input, exited...)",
    ),
    s(
        "alert-activity",
        "a pane in a window with `monitor-activity` on printed output while its window was not the current one",
    ),
    s(
        "alert-bell",
        "a pane in a window with `monitor-bell` on rang the bell",
    ),
    s(
        "alert-silence",
        "a pane in a window with `monitor-silence N` printed nothing for N seconds",
    ),
    s("client-active", NO_CLIENT_EVENT),
    s(
        "client-attached",
        "a terminal client attached to the session",
    ),
    s(
        "client-detached",
        "a terminal client detached from the session (or went away)",
    ),
    s("client-focus-in", NO_CLIENT_EVENT),
    s("client-focus-out", NO_CLIENT_EVENT),
    s("client-resized", NO_CLIENT_EVENT),
    s("client-session-changed", NO_CLIENT_EVENT),
    s(
        "session-closed",
        "a session ended (killed, or its last pane exited)",
    ),
    s("session-created", "a session was created"),
    s("session-renamed", "a session was renamed"),
    s(
        "session-window-changed",
        "the session's current window changed (select-window)",
    ),
    s("window-linked", "a window was added to the session"),
    s(
        "window-unlinked",
        "a window left the session (killed, or its last pane exited)",
    ),
];

/// Window and pane hooks, sorted by name (`show-hooks -gw`).
pub const WINDOW_HOOKS: &[HookDef] = &[
    w(
        "pane-died",
        "a pane's program exited and the pane stays (remain-on-exit)",
    ),
    w("pane-exited", "a pane's program exited and the pane closed"),
    w(
        "pane-focus-in",
        "a pane became the focused one of a focused terminal client",
    ),
    w("pane-focus-out", "a pane stopped being the focused one"),
    w("pane-mode-changed", NO_CLIENT_EVENT),
    w(
        "pane-set-clipboard",
        "a pane's program set the clipboard (OSC 52) and it became a buffer",
    ),
    w("pane-title-changed", NO_CLIENT_EVENT),
    w(
        "window-layout-changed",
        "a window's layout changed (a pane split, closed, resized or rearranged)",
    ),
    w(
        "window-pane-changed",
        "the window's active pane changed (select-pane)",
    ),
    w("window-renamed", "a window was renamed"),
    w("window-resized", NO_CLIENT_EVENT),
];

pub fn find(name: &str) -> Option<&'static HookDef> {
    HOOKS.iter().chain(WINDOW_HOOKS).find(|h| h.name == name)
}

/// `after-NAME` for a command's CLI verb, if tmux has that hook.
pub fn after(verb: &str) -> Option<&'static str> {
    HOOKS
        .iter()
        .find(|h| h.name.strip_prefix("after-") == Some(verb) && h.fires == AFTER)
        .map(|h| h.name)
}

/// Names close to `name`, for an unknown hook's error.
pub fn similar(name: &str) -> Vec<&'static str> {
    let stem = name.split('-').next().unwrap_or(name);
    HOOKS
        .iter()
        .chain(WINDOW_HOOKS)
        .map(|h| h.name)
        .filter(|n| n.starts_with(stem) || n.contains(name))
        .take(12)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_unique() {
        for t in [HOOKS, WINDOW_HOOKS] {
            for pair in t.windows(2) {
                assert!(pair[0].name < pair[1].name, "{}", pair[1].name);
            }
        }
    }

    /// The names `tmux show-hooks` hides while unset are exactly fugue's own.
    #[test]
    fn fugue_own_hooks_are_the_protocols_list() {
        let own: Vec<&str> = HOOKS
            .iter()
            .chain(WINDOW_HOOKS)
            .filter(|h| h.fires.starts_with("fugue's"))
            .map(|h| h.name)
            .collect();
        assert_eq!(own, fugue_protocol::hooks::FUGUE_OWN_HOOKS);
    }

    #[test]
    fn after_names_follow_the_verb() {
        assert_eq!(after("new-window"), Some("after-new-window"));
        assert_eq!(after("copy-mode"), None);
        assert_eq!(after("frobnicate"), None);
    }
}
