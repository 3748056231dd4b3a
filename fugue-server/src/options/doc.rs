//! docs/options.md, written from the table so the two cannot drift apart: a test fails
//! while they differ, and `FUGUE_BLESS=1 cargo test -p fugue-server options::doc`
//! rewrites the file.

use super::table::{Effect, OPTIONS, Scope};

const INTRO: &str = "# Options

<!-- Written by `FUGUE_BLESS=1 cargo test -p fugue-server options::doc` from
fugue-server/src/options/table.rs; edit the table, not this file. -->

fugue's options are tmux's: the same names, scopes, types and (except where said)
defaults, set and read with the same commands. `fugue set -g mouse off`,
`fugue show -g`, `fugue setw mode-keys vi`, `fugue show -gv history-limit` print and
fail as tmux 3.3a does; an error goes on to say what the option takes
(`fugue: bad value: maybe` / `mouse takes on or off`). Over MCP, the `tmux`
tool runs `show-options` and `set-option`.

## Scopes and inheritance

- **server** (`-s`): one value for the server.
- **session**: a global value (`-g`), and a session's own (`-t SESSION`, default the
  caller's), which it keeps over the global one until unset (`-u`).
- **window** (`-w`): a global value and a window's own.
- **window, pane** (`-p`): a window option a pane may also set; a pane's value wins
  over its window's, which wins over the global one.

With an option name the option's own scope counts, as in tmux (`set -g remain-on-exit on`
sets the global window value); `-s`/`-w`/`-p` choose the table for user options
(`@name`, strings, any scope) and for `show` without a name. `show -A` adds inherited
values, marked `*`. A name may be shortened to a unique prefix (`set -g renumber on`);
`-q` silences unknown or ambiguous names. `-o` refuses to replace a value, `-a` appends
to a string or adds an element to an array, `-U` also unsets a window option on the
window's panes. `-F` expands the value as a format ([formats.md](formats.md)) in the
target's scope (its pane, else the caller's) before setting it, as tmux's (`#()` is
not run there).

## What a change does

The **effect** column says what fugue does with each option today:

- **live**: takes effect at once. Attached clients are sent the options they act on
  themselves (`mouse`, `status`, `prefix`, `repeat-time`, `mode-keys`, `set-clipboard`,
  `set-titles`, `set-titles-string`, the copy-mode options) and redraw with them; the
  server reads the others where it uses them (the buffer limit at the next copy,
  `remain-on-exit` when a program exits, `bell-action` at the next bell).
- **new panes**: applies to panes (or sessions) made after the change, as in tmux:
  `history-limit` is a pane's from its start.
- **accepted, no effect yet**: stored and shown (so tmux configurations load and
  scripts can read them back) but fugue has no behaviour behind it yet. It does not
  pretend: nothing changes when it is set.
- **configuration file only**: read from the configuration file when the server
  starts; `set-option` refuses to change it, so no command can widen the limits it is
  judged by.

Options marked *global value* act through their global value only today (a session's
own `status` is stored and shown but the clients follow the global one).

Agents (MCP, sideband, programs in panes they made) may set options as their policy's
tiers allow, except `default-command`, `default-shell`, `copy-command`, `lock-command`
and `editor` (they choose which programs run for people), and with a limited scope
(`mcp_scope = \"own\"`) only values of their own panes, windows and sessions.

## The configuration file

The TOML file sets the initial values. Keys of its sections map to options (the
*config* column); `[options]` sets any option by its name, with hyphens or
underscores, and user options (`\"@name\"`):

```toml
[server]
history_limit = 5000        # history-limit

[options]
status-left = \"[#S] \"
renumber_windows = true     # renumber-windows
update-environment = [\"DISPLAY\", \"SSH_AUTH_SOCK\"]
\"@theme\" = \"dark\"
```

An unknown option or a bad value in `[options]` is refused when the file is read, as
any other key. See [configuration.md](configuration.md).
";

fn scope_table(out: &mut String, title: &str, scopes: &[Scope]) {
    out.push_str(&format!(
        "\n## {title}\n\n| option | scope | type | default | effect | config | what it is |\n| --- | --- | --- | --- | --- | --- | --- |\n"
    ));
    for o in OPTIONS.iter().filter(|o| scopes.contains(&o.scope)) {
        let default = if o.default.is_empty() {
            "''".to_string()
        } else {
            o.default.replace('\n', ", ")
        };
        let effect = match o.effect {
            Effect::Live => "**live**",
            Effect::New => "**new panes**",
            e => e.describe(),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | `{}` | {} | {} | {} |\n",
            o.name,
            o.scope.name(),
            o.kind.describe().replace('|', "\\|"),
            default.replace('|', "\\|").replace('`', "'"),
            effect,
            o.toml.map(|t| format!("`{t}`")).unwrap_or_default(),
            o.doc.replace('|', "\\|"),
        ));
    }
}

/// The whole of docs/options.md.
pub fn markdown() -> String {
    let mut out = INTRO.to_string();
    scope_table(&mut out, "Server options", &[Scope::Server]);
    scope_table(&mut out, "Session options", &[Scope::Session]);
    scope_table(
        &mut out,
        "Window and pane options",
        &[Scope::Window, Scope::WindowPane],
    );
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn docs_options_md_is_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/options.md");
        let want = super::markdown();
        if std::env::var_os("FUGUE_BLESS").is_some() {
            std::fs::write(path, &want).expect("write docs/options.md");
            return;
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "docs/options.md differs from the option table: run FUGUE_BLESS=1 cargo test -p fugue-server options::doc"
        );
    }
}
