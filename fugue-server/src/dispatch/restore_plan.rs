//! What a restored pane runs: decided from its journal record and the configuration,
//! with no side effects (so it is tested on its own).
//!
//! - a shell starts fresh, in its directory;
//! - an agent pane starts its preset with the preset's `resume_args`;
//! - a pane that was dead stays dead, with its status;
//! - any other command waits behind "press Enter to run `CMD`" (zellij's convention)
//!   unless `restore_commands` marks it safe to run again.

use crate::config::Config;
use crate::journal::model::PaneRec;

/// Programs that count as a shell: started fresh, never guarded.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh", "nu", "elvish", "xonsh",
];

/// Waits for Enter, then runs the command it was given (`$0` is the line shown).
const GUARD: &str = "printf '\\033[1mrestored: press Enter to run `%s`\\033[0m ' \"$0\"; read -r _ || exit 0; exec \"$@\"";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Run {
    /// The same shell, fresh.
    Shell(Vec<String>),
    /// Run at once (a safe command, an agent with its resume arguments).
    Now(Vec<String>),
    /// Behind the guard: the argv to spawn, and the line it shows.
    Guarded(Vec<String>, String),
    /// Dead with this status.
    Dead(i32),
}

impl Run {
    pub fn argv(&self) -> Vec<String> {
        match self {
            Run::Shell(a) | Run::Now(a) | Run::Guarded(a, _) => a.clone(),
            Run::Dead(status) => vec!["/bin/sh".into(), "-c".into(), format!("exit {status}")],
        }
    }
}

fn base(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// True for a shell with no command: `bash`, `/bin/zsh -l`, the default program.
pub fn is_shell(argv: &[String], config: &Config) -> bool {
    if argv.is_empty() || argv == config.default_argv().as_slice() {
        return true;
    }
    let Some(first) = argv.first() else {
        return true;
    };
    let name = base(first).trim_start_matches('-');
    SHELLS.contains(&name) && argv.iter().skip(1).all(|a| a.starts_with('-') && a != "-c")
}

/// The command line as a person would type it: the line of `sh -c LINE`, else the
/// words, quoted where needed.
pub fn command_line(argv: &[String]) -> String {
    if let [sh, c, line] = argv
        && c == "-c"
        && SHELLS.contains(&base(sh))
    {
        return line.clone();
    }
    argv.iter()
        .map(|w| {
            if !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Glob matching: `*` any text, `?` one character, anything else itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // Iterative with one backtrack point: linear in practice, never exponential.
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(c) if *c == '?' || *c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// What the pane runs on restore.
pub fn plan(rec: &PaneRec, config: &Config) -> Run {
    if let Some(status) = rec.exit_status {
        return Run::Dead(status);
    }
    if let Some(agent) = &rec.agent
        && let Some(name) = &agent.preset
        && let Some(preset) = config.agents.0.get(name)
    {
        let mut argv = if preset.command.is_empty() {
            return Run::Shell(config.default_argv());
        } else {
            vec![preset.command.clone()]
        };
        argv.extend(preset.args.iter().cloned());
        argv.extend(preset.resume_args.iter().cloned());
        return Run::Now(argv);
    }
    if is_shell(&rec.argv, config) {
        let argv = if rec.argv.is_empty() {
            config.default_argv()
        } else {
            rec.argv.clone()
        };
        return Run::Shell(argv);
    }
    let line = command_line(&rec.argv);
    if config
        .server
        .restore_commands
        .iter()
        .any(|p| glob(p, &line))
    {
        return Run::Now(rec.argv.clone());
    }
    let mut argv = vec![
        "/bin/sh".to_string(),
        "-c".into(),
        GUARD.into(),
        line.clone(),
    ];
    argv.extend(rec.argv.iter().cloned());
    Run::Guarded(argv, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(argv: &[&str]) -> PaneRec {
        PaneRec {
            id: 1,
            window: 1,
            size: (80, 24),
            title: None,
            program_title: None,
            cwd: None,
            argv: argv.iter().map(|s| s.to_string()).collect(),
            start_command: String::new(),
            env: Vec::new(),
            remain: None,
            exit_status: None,
            sideband: false,
            creator: "person".into(),
            depth: 0,
            agent: None,
        }
    }

    #[test]
    fn globs() {
        assert!(glob("htop", "htop"));
        assert!(!glob("htop", "htop -d 5"));
        assert!(glob("tail -f *", "tail -f /var/log/syslog"));
        assert!(glob("*", ""));
        assert!(glob("a?c*", "abcdef"));
        assert!(!glob("a?c", "ac"));
        assert!(glob("*watch*test*", "cargo watch -x test"));
        assert!(!glob("*.rs", "main.rsx"));
    }

    #[test]
    fn shells_start_fresh_commands_are_guarded_unless_safe() {
        let mut config = Config::default();
        config.server.restore_commands = vec!["htop".into(), "tail -f *".into()];
        assert!(matches!(plan(&rec(&["/bin/bash"]), &config), Run::Shell(_)));
        assert!(matches!(plan(&rec(&["zsh", "-l"]), &config), Run::Shell(_)));
        assert!(matches!(plan(&rec(&[]), &config), Run::Shell(_)));
        assert_eq!(
            plan(&rec(&["htop"]), &config),
            Run::Now(vec!["htop".into()])
        );
        assert!(matches!(
            plan(&rec(&["/bin/sh", "-c", "tail -f /tmp/x"]), &config),
            Run::Now(_)
        ));
        let Run::Guarded(argv, line) =
            plan(&rec(&["/bin/sh", "-c", "cargo watch -x test"]), &config)
        else {
            panic!("not guarded");
        };
        assert_eq!(line, "cargo watch -x test");
        assert_eq!(argv[3], "cargo watch -x test");
        assert_eq!(&argv[4..], ["/bin/sh", "-c", "cargo watch -x test"]);
        let Run::Guarded(_, line) = plan(&rec(&["rm", "-rf", "my dir"]), &config) else {
            panic!("not guarded");
        };
        assert_eq!(line, "rm -rf 'my dir'");
        let mut dead = rec(&["make"]);
        dead.exit_status = Some(2);
        assert_eq!(plan(&dead, &config), Run::Dead(2));
    }

    #[test]
    fn agents_resume_with_their_presets_arguments() {
        let config = Config::default();
        let mut r = rec(&["claude", "fix the tests"]);
        r.agent = Some(crate::journal::model::AgentRec {
            preset: Some("claude".into()),
            tags: vec![],
            ancestors: vec![],
            state: "idle".into(),
            exit_code: None,
            result: None,
            pending_messages: 0,
            messages: vec![],
        });
        assert_eq!(
            plan(&r, &config),
            Run::Now(vec!["claude".into(), "--continue".into()])
        );
    }
}
