//! docs/hooks.md, generated from the hook table so the two cannot disagree.

use super as limits;
use super::names::{HOOKS, HookDef, WINDOW_HOOKS};

const INTRO: &str = "# Hooks

<!-- Generated from fugue-server/src/hooks/names.rs: edit there, then
     `FUGUE_BLESS=1 cargo test -p fugue-server hooks::doc`. -->

A hook is a command sequence the server runs when an event happens, as in tmux:

```
fugue set-hook -g after-new-window 'select-layout tiled'
fugue set-hook -g pane-exited 'display-message \"#{hook_pane} is gone\"'
fugue set-hook -ga client-attached 'run-shell \"notify-send attached\"'
fugue show-hooks -g            # session hooks; show-hooks -gw for window/pane hooks
fugue set-hook -gu pane-exited # remove; name[N] removes one command
fugue set-hook -R session-renamed   # run it now
```

`set-hook` takes tmux's flags (`-a` add a command, `-g` global, `-p`/`-w` a pane's or
window's own, `-R` run now, `-u` unset, `-t` target) and `show-hooks` prints as tmux
3.3a does. As in tmux, a session hook (the first table below) is always a session's,
whatever `-w`/`-p` say; `-p` applies to window hooks. Under the name `tmux`,
`show-hooks` leaves out fugue's own hooks (`agent-*`) while they are unset, so tools
that know tmux's names only (libtmux) read the list. Hooks are set from the CLI, `C-b :`, bindings and `source-file`; the
declaration (docs/commands.md) says why agents (MCP, sideband) cannot set them: a
hook runs with a person's rights whenever its event happens.

## How a hook runs

- Through the one dispatcher, like every surface: each command is checked, run and
  written to the audit log with the origin `hook NAME`. Its default target is the
  event's object (the new window, the exited pane, the attached session); formats
  see `#{hook}`, `#{hook_pane}`, `#{hook_window}`, `#{hook_window_name}`,
  `#{hook_session}` and `#{hook_session_name}` (also set for `after-` hooks, where
  tmux leaves them empty).
- `run-shell` and `if-shell` run on the server: `/bin/sh -c`, no input, ended after
  LIMIT_TIMEOUT s; their output (at most LIMIT_OUTPUT bytes) goes to the server log.
  Commands that need an attached client (`command-prompt`, `copy-mode`,
  `switch-client`, `source-file`) are refused when the hook is set.
- A hook's own commands set off no `after-` hooks (as in tmux). Other events they
  cause do run hooks, up to LIMIT_DEPTH deep: past that the hook is skipped with a log
  line, where tmux would loop until it ran out of windows. At most LIMIT_RATE hooks
  start per second; a hook holds at most LIMIT_COMMANDS commands.
- A hook is looked up as tmux looks up options: the pane's own, its window's, then the
  global window hooks for `pane-*`/`window-*` events; the session's own, then the
  global session hooks for the rest.

";

fn table(out: &mut String, title: &str, hooks: &[HookDef]) {
    out.push_str(&format!("## {title}\n\n| hook | runs |\n| --- | --- |\n"));
    for h in hooks {
        out.push_str(&format!(
            "| `{}` | {} |\n",
            h.name,
            h.fires.replace('|', "\\|")
        ));
    }
    out.push('\n');
}

/// The whole of docs/hooks.md.
pub fn markdown() -> String {
    let mut out = INTRO
        .replace(
            "LIMIT_TIMEOUT",
            &limits::SHELL_TIMEOUT.as_secs().to_string(),
        )
        .replace("LIMIT_OUTPUT", &limits::MAX_SHELL_OUTPUT.to_string())
        .replace("LIMIT_DEPTH", &limits::MAX_DEPTH.to_string())
        .replace("LIMIT_RATE", &limits::MAX_RUNS_PER_SECOND.to_string())
        .replace(
            "LIMIT_COMMANDS",
            &fugue_protocol::hooks::MAX_HOOK_COMMANDS.to_string(),
        );
    table(&mut out, "Session hooks (`show-hooks -g`)", HOOKS);
    table(
        &mut out,
        "Window and pane hooks (`show-hooks -gw`)",
        WINDOW_HOOKS,
    );
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn docs_hooks_md_is_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/hooks.md");
        let want = super::markdown();
        if std::env::var_os("FUGUE_BLESS").is_some() {
            std::fs::write(path, &want).expect("write docs/hooks.md");
            return;
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "docs/hooks.md differs from the hook table: run FUGUE_BLESS=1 cargo test -p fugue-server hooks::doc"
        );
    }
}
