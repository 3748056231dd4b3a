//! fugue under the name `tmux` (a link named `tmux`, or `fugue tmux ARGS`): tmux's
//! own command line (`[-2CDlNuVv] [-c shell-command] [-f file] [-L socket-name]
//! [-S socket-path] [-T features] [command [flags]]`), its default command
//! (`new-session`), its version line and its error words, so scripts and tools that
//! drive tmux (Claude Code's agent teams, libtmux, tmuxp) drive fugue unchanged.
//!
//! Commands are fugue's own verbs, which carry tmux's names and flags; this module
//! only translates what is tmux's alone around them.

/// The version line: tmux's release with a `-fugue` suffix, as OpenBSD's base tmux
/// writes `3.5-openbsd` (issue 16 asks it to name fugue). Tools parse the word after
/// the space: libtmux strips its letters and dashes and compares what is left, so
/// the suffix carries no digits (`3.5a-fugue0.1.0` read as 3.50.1.0, newer than every
/// tmux, and libtmux asked for flags of releases that do not exist); `3.5a-fugue`
/// reads as 3.5. `fugue --version` gives fugue's own version.
pub fn version_line() -> String {
    format!("tmux {}", fugue_protocol::format::local::tmux_version())
}

/// tmux's default configuration files (its `TMUX_CONF`), in the order it reads them,
/// when no `-f` is given: `/etc/tmux.conf`, `~/.tmux.conf`,
/// `$XDG_CONFIG_HOME/tmux/tmux.conf`, `~/.config/tmux/tmux.conf`. As tmux's
/// `expand_paths`, a path whose variable is unset is skipped, so is a file that does
/// not exist, and a file named twice (through a link or the same folder) is read once.
/// libtmux's test fixture writes `set -g base-index 1` to `~/.tmux.conf` and counts
/// windows from 1.
pub fn default_conf_files(var: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Vec<String> {
    let home = var("HOME").filter(|h| !h.is_empty());
    let xdg = var("XDG_CONFIG_HOME").filter(|h| !h.is_empty());
    let in_home = |rest: &str| home.as_ref().map(|h| std::path::Path::new(h).join(rest));
    let candidates = [
        Some(std::path::PathBuf::from("/etc/tmux.conf")),
        in_home(".tmux.conf"),
        xdg.map(|x| std::path::Path::new(&x).join("tmux/tmux.conf")),
        in_home(".config/tmux/tmux.conf"),
    ];
    let mut out: Vec<String> = Vec::new();
    for path in candidates.into_iter().flatten() {
        let Ok(real) = std::fs::canonicalize(&path) else {
            continue;
        };
        let real = real.to_string_lossy().into_owned();
        if real_is_file(&real) && !out.contains(&real) {
            out.push(real);
        }
    }
    out
}

fn real_is_file(path: &str) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// tmux's global flags.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Globals {
    pub socket_name: Option<String>,
    pub socket_path: Option<String>,
    pub config: Option<String>,
    pub shell_command: Option<String>,
    /// `-C` once (control mode), twice (`-CC`, iTerm2's).
    pub control: u8,
    pub version: bool,
}

/// Whether this process is `tmux`: its name, or `fugue tmux ...`. The words after the
/// program name (and after `tmux`) are returned.
pub fn invoked_as_tmux(argv0: &str, words: &[String]) -> Option<Vec<String>> {
    let name = std::path::Path::new(argv0)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name == "tmux" {
        return Some(words.to_vec());
    }
    // `fugue [-L NAME | -S PATH] tmux ARGS`: fugue's server flags mean the same to tmux.
    let mut i = 0;
    while let Some("-L" | "-S") = words.get(i).map(String::as_str) {
        words.get(i + 1)?;
        i += 2;
    }
    match words.get(i).map(String::as_str) {
        Some("tmux") => {
            let mut out = words[..i].to_vec();
            out.extend_from_slice(&words[i + 1..]);
            Some(out)
        }
        _ => None,
    }
}

/// Splits tmux's global flags from the command words, as tmux's getopt
/// (`2c:CDdf:lL:NqS:T:uUvV`) reads them: bundled flags, values attached or separate,
/// `--` ends them.
pub fn parse_globals(words: &[String]) -> Result<(Globals, Vec<String>), String> {
    let mut g = Globals::default();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        if w == "--" {
            i += 1;
            break;
        }
        let Some(flags) = w.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        for (at, c) in flags.char_indices() {
            match c {
                '2' | 'D' | 'd' | 'l' | 'N' | 'q' | 'u' | 'U' | 'v' => {}
                'C' => g.control = g.control.saturating_add(1),
                'V' => g.version = true,
                'c' | 'f' | 'L' | 'S' | 'T' => {
                    let rest = &flags[at + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        i += 1;
                        words
                            .get(i)
                            .cloned()
                            .ok_or_else(|| format!("option requires an argument -- {c}"))?
                    } else {
                        rest.to_string()
                    };
                    match c {
                        'c' => g.shell_command = Some(value),
                        'f' => g.config = Some(value),
                        'L' => g.socket_name = Some(value),
                        'S' => g.socket_path = Some(value),
                        _ => {}
                    }
                    break;
                }
                other => return Err(format!("unknown option -- {other}")),
            }
        }
        i += 1;
    }
    Ok((g, words[i..].to_vec()))
}

/// `list-commands [-F format] [command]`: the verb table as tmux lists its commands
/// (`name (alias) usage`), or each verb through `format` with `command_list_name`,
/// `command_list_alias` and `command_list_usage`. An unknown command prints nothing,
/// as in tmux.
pub fn list_commands(format: Option<&str>, only: Option<&str>) -> anyhow::Result<i32> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for line in fugue_verbs::usage::lines(format, only) {
        writeln!(out, "{line}")?;
    }
    Ok(0)
}

/// `fugue install-tmux-shim DIR`: a `tmux` link to this binary in DIR. An existing
/// `tmux` there (a real one) is left alone unless `force`.
pub fn install_shim(dir: &std::path::Path, force: bool) -> anyhow::Result<i32> {
    use anyhow::Context;
    let me = std::env::current_exe().context("cannot tell where this fugue is")?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let link = dir.join("tmux");
    if link.symlink_metadata().is_ok() {
        if !force {
            anyhow::bail!(
                "{} exists; give --force to replace it (a real tmux stays reachable by its full path)",
                link.display()
            );
        }
        std::fs::remove_file(&link)
            .with_context(|| format!("cannot replace {}", link.display()))?;
    }
    std::os::unix::fs::symlink(&me, &link)
        .with_context(|| format!("cannot link {} to {}", link.display(), me.display()))?;
    println!("{} -> {}", link.display(), me.display());
    Ok(0)
}

/// tmux's usage line, for a bad global flag.
pub fn usage() -> &'static str {
    "usage: tmux [-2CDlNuvV] [-c shell-command] [-f file] [-L socket-name]\n            [-S socket-path] [-T features] [command [flags]]"
}

/// A command error in tmux's words where tools read them (`can't find session: x`,
/// `duplicate session: x`); fugue's own message otherwise. `argv` is the command as
/// given (its name and `-t` say what was not found).
pub fn error_words(argv: &[String], e: &fugue_protocol::CommandError) -> String {
    use fugue_protocol::ErrorCode;
    let verb = argv.first().map(String::as_str).unwrap_or("");
    match e.code {
        ErrorCode::UnknownTarget => {
            let Some(target) = flag_value(argv, 't') else {
                return e.message.clone();
            };
            let kind = target_kind(verb);
            let what = match kind {
                // tmux names the window part of `session:window`.
                "window" => target
                    .split_once(':')
                    .map(|(_, w)| w.to_string())
                    .filter(|w| !w.is_empty())
                    .unwrap_or(target),
                _ => target,
            };
            // `=name` (an exact name) is reported without its `=`, as tmux does.
            let what = what.strip_prefix('=').unwrap_or(&what);
            format!("can't find {kind}: {what}")
        }
        ErrorCode::InvalidArgument if e.message.contains("already exists") => {
            match e
                .message
                .split("named `")
                .nth(1)
                .and_then(|r| r.split('`').next())
            {
                Some(name) => format!("duplicate session: {name}"),
                None => e.message.clone(),
            }
        }
        _ => e.message.clone(),
    }
}

/// The value of `-X` in a command's words (`-t x`, `-tx`, or in a bundle `-dt x`).
fn flag_value(argv: &[String], flag: char) -> Option<String> {
    let mut it = argv.iter().skip(1);
    while let Some(w) = it.next() {
        if w == "--" {
            return None;
        }
        let Some(flags) = w.strip_prefix('-') else {
            continue;
        };
        if let Some(at) = flags.find(flag) {
            let rest = &flags[at + flag.len_utf8()..];
            return if rest.is_empty() {
                it.next().cloned()
            } else {
                Some(rest.to_string())
            };
        }
    }
    None
}

/// What kind of object a verb's `-t` names, as tmux reports a missing one.
fn target_kind(verb: &str) -> &'static str {
    let canonical = fugue_verbs::line::canonical_name(verb).unwrap_or_else(|| verb.to_string());
    match canonical.as_str() {
        "has-session" | "kill-session" | "list-windows" | "rename-session" | "attach-session"
        | "switch-client" | "detach-client" | "new-session" => "session",
        "kill-window" | "list-panes" | "rename-window" | "new-window" | "select-window"
        | "select-layout" | "next-layout" | "rotate-window" | "respawn-window" | "move-window"
        | "swap-window" | "link-window" | "unlink-window" => "window",
        _ => "pane",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn default_conf_files_are_tmuxs_that_exist_once_each() {
        let dir = std::env::temp_dir().join(format!("fugue-conf-{}", std::process::id()));
        let home = dir.join("home");
        std::fs::create_dir_all(home.join(".config/tmux")).unwrap();
        std::fs::write(home.join(".tmux.conf"), "set -g base-index 1\n").unwrap();
        std::fs::write(home.join(".config/tmux/tmux.conf"), "").unwrap();
        let real = |p: &std::path::Path| std::fs::canonicalize(p).unwrap().display().to_string();
        let env = |xdg: Option<&std::path::Path>| {
            let (h, x) = (home.clone(), xdg.map(|p| p.to_path_buf()));
            move |k: &str| match k {
                "HOME" => Some(h.clone().into_os_string()),
                "XDG_CONFIG_HOME" => x.clone().map(|x| x.into_os_string()),
                _ => None,
            }
        };
        let mut want = Vec::new();
        if std::path::Path::new("/etc/tmux.conf").is_file() {
            want.push(real(std::path::Path::new("/etc/tmux.conf")));
        }
        want.push(real(&home.join(".tmux.conf")));
        want.push(real(&home.join(".config/tmux/tmux.conf")));
        assert_eq!(default_conf_files(&env(None)), want);
        // $XDG_CONFIG_HOME naming ~/.config: the same file, read once.
        assert_eq!(default_conf_files(&env(Some(&home.join(".config")))), want);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn global_flags_as_getopt_reads_them() {
        let (g, rest) =
            parse_globals(&w(&["-2u", "-Lsock", "-f", "/dev/null", "new", "-d"])).unwrap();
        assert_eq!(g.socket_name.as_deref(), Some("sock"));
        assert_eq!(g.config.as_deref(), Some("/dev/null"));
        assert_eq!(rest, w(&["new", "-d"]));
        let (g, rest) = parse_globals(&w(&["-CC", "-S", "/tmp/x", "--", "-weird"])).unwrap();
        assert_eq!((g.control, g.socket_path.as_deref()), (2, Some("/tmp/x")));
        assert_eq!(rest, w(&["-weird"]));
        assert_eq!(
            parse_globals(&w(&["-Z"])).unwrap_err(),
            "unknown option -- Z"
        );
        assert_eq!(
            parse_globals(&w(&["-L"])).unwrap_err(),
            "option requires an argument -- L"
        );
    }

    #[test]
    fn the_version_line_parses_as_tmuxs() {
        let v = version_line();
        let parts: Vec<&str> = v.split(' ').collect();
        assert_eq!(parts, ["tmux", "3.5a-fugue"], "{v}");
        // libtmux: `re.sub(r"[a-z-]", "", version)` must leave a plain version.
        let libtmux: String = parts[1]
            .chars()
            .filter(|c| !c.is_ascii_lowercase() && *c != '-')
            .collect();
        assert_eq!(libtmux, "3.5");
    }

    #[test]
    fn errors_in_tmuxs_words() {
        use fugue_protocol::{CommandError, ErrorCode};
        let unknown = CommandError::new(ErrorCode::UnknownTarget, "session `a` has no window 9");
        assert_eq!(
            error_words(&w(&["select-window", "-t", "a:9"]), &unknown),
            "can't find window: 9"
        );
        assert_eq!(
            error_words(&w(&["has", "-tnosuch"]), &unknown),
            "can't find session: nosuch"
        );
        assert_eq!(
            error_words(&w(&["send-keys", "-t", "x", "y"]), &unknown),
            "can't find pane: x"
        );
        let dup = CommandError::new(
            ErrorCode::InvalidArgument,
            "invalid argument `name`: a session named `a` already exists",
        );
        assert_eq!(
            error_words(&w(&["new", "-d", "-s", "a"]), &dup),
            "duplicate session: a"
        );
    }

    #[test]
    fn invoked_by_name_or_subcommand() {
        assert_eq!(
            invoked_as_tmux("/usr/local/bin/tmux", &w(&["ls"])),
            Some(w(&["ls"]))
        );
        assert_eq!(
            invoked_as_tmux("fugue", &w(&["tmux", "ls"])),
            Some(w(&["ls"]))
        );
        assert_eq!(invoked_as_tmux("fugue", &w(&["ls"])), None);
        assert_eq!(
            invoked_as_tmux("fugue", &w(&["-S", "/s", "tmux", "ls"])),
            Some(w(&["-S", "/s", "ls"]))
        );
    }
}
