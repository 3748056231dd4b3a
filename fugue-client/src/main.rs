//! `fugue`: the terminal client, the CLI verbs, and the MCP stdio bridge.

mod autostart;
mod cli;
mod connection;
mod control;
mod docs;
mod mcp_bridge;
mod reset;
mod setup;
mod tmux_mode;
mod tui;

use autostart::ServerAddr;
use clap::Parser;
use fugue_protocol::Target;
use fugue_verbs::{Cli, Verb};
use std::io::Write;

fn main() {
    let argv0 = std::env::args_os()
        .next()
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_default();
    let words: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let as_tmux = tmux_mode::invoked_as_tmux(&argv0, &words);
    // As tmux, errors carry no `fugue:` (`no server running on PATH`, as tmux's).
    let prefix = if as_tmux.is_some() { "" } else { "fugue: " };
    let line = match as_tmux {
        Some(tmux_words) => tmux_line(&tmux_words),
        None => parse_line(&words),
    };
    // One thread: the client waits on a socket and a terminal, and a key's way to the
    // server should not cross threads (a CLI verb also starts faster without workers).
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "fugue: cannot start: {e}");
            std::process::exit(1);
        }
    };
    let code = match runtime.block_on(run(line)) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "{prefix}{e:#}");
            1
        }
    };
    runtime.shutdown_background();
    std::process::exit(code);
}

/// The global flags and the commands of a command line: one command as clap parses
/// it, or a sequence split as tmux splits one (`fugue new -d \; split-window`), every
/// command parsed before any runs, so a typo in the third runs none (as in tmux).
struct Line {
    globals: Cli,
    /// Run as `tmux`: each command's words, for tmux's error words (no `fugue:`
    /// prefix); empty otherwise.
    tmux_words: Vec<Vec<String>>,
    tmux: bool,
    /// tmux's `-C` (1) or `-CC` (2): control mode, the commands in `tmux_words`.
    control: u8,
    /// None: no command (attach).
    verbs: Vec<Option<Verb>>,
    /// tmux's `-f FILE` (else tmux's default files that exist): the tmux.conf files
    /// the server reads when this command starts it.
    tmux_conf: Vec<String>,
}

/// clap's parse, with tmux's answer to an unknown command (`unknown command: NAME`,
/// exit 1) instead of clap's usage text; as `tmux`, every error in tmux's words.
fn parse_or_exit(argv: impl IntoIterator<Item = String>, tmux: bool) -> Cli {
    let argv: Vec<String> = argv.into_iter().collect();
    try_parse(&argv, tmux).unwrap_or_else(|e| match e {
        Parsed::Message(m) => {
            let _ = writeln!(std::io::stderr(), "{m}");
            std::process::exit(1);
        }
        Parsed::Clap(e) => e.exit(),
    })
}

/// Why a command's words do not parse.
enum Parsed {
    /// tmux's (or fugue's) one line.
    Message(String),
    /// Help or version text, or a fugue error clap prints itself.
    Clap(clap::Error),
}

/// clap's parse of one command's words (no program name), with tmux's error words.
fn try_parse(argv: &[String], tmux: bool) -> Result<Cli, Parsed> {
    use clap::error::{ContextKind, ErrorKind};
    let argv: Vec<String> = std::iter::once("fugue".to_string())
        .chain(argv.iter().cloned())
        .collect();
    Cli::try_parse_from(&argv).map_err(|e| {
        let prefix = if tmux { "" } else { "fugue: " };
        if e.kind() == ErrorKind::InvalidSubcommand {
            let name = e
                .get(ContextKind::InvalidSubcommand)
                .map(|v| v.to_string())
                .unwrap_or_default();
            let what = fugue_verbs::line::unknown_command(&name);
            return Parsed::Message(format!("{prefix}{what}"));
        }
        // A value the command refuses (a prompt type, a target, a declared verb's
        // flags that do not go together) is the command's error, exit 1, as the
        // conversions of the verbs written by hand and tmux answer it; clap's exit 2
        // stays for words that are no command line at all.
        if !tmux && e.kind() == ErrorKind::ValueValidation {
            return Parsed::Message(format!("{prefix}{}", first_line(&e)));
        }
        if tmux && !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
            let verb = argv
                .get(1)
                .and_then(|v| fugue_verbs::line::canonical_name(v))
                .unwrap_or_default();
            let what = match (e.kind(), e.get(ContextKind::InvalidArg)) {
                (ErrorKind::UnknownArgument, Some(arg)) => format!("unknown flag {arg}"),
                _ => first_line(&e),
            };
            return Parsed::Message(format!("command {verb}: {what}"));
        }
        Parsed::Clap(e)
    })
}

/// The first line of clap's message, without its `error: `.
fn first_line(e: &clap::Error) -> String {
    e.to_string()
        .lines()
        .next()
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ")
        .to_string()
}

/// tmux's command line: its global flags, then a command sequence (default
/// `new-session`).
fn tmux_line(words: &[String]) -> Line {
    let (g, rest) = match tmux_mode::parse_globals(words) {
        Ok(parsed) => parsed,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "tmux: {e}\n{}", tmux_mode::usage());
            std::process::exit(1);
        }
    };
    if g.version {
        println!("{}", tmux_mode::version_line());
        std::process::exit(0);
    }
    if let Some(cmd) = &g.shell_command {
        // tmux -c: run the command with the default shell, as a login shell would.
        let shell = std::env::var("SHELL").unwrap_or_else(|_| "/bin/sh".into());
        let status = std::process::Command::new(shell)
            .arg("-c")
            .arg(cmd)
            .status();
        std::process::exit(status.ok().and_then(|s| s.code()).unwrap_or(1));
    }
    let rest = if rest.is_empty() {
        vec!["new-session".to_string()]
    } else {
        rest
    };
    let mut verbs = Vec::new();
    let mut tmux_words = Vec::new();
    if g.control > 0 {
        // Control mode parses its first command itself, to answer in a block.
        tmux_words = fugue_verbs::sequence::split(&rest);
    }
    for argv in fugue_verbs::sequence::split(&rest)
        .into_iter()
        .filter(|_| g.control == 0)
    {
        let mut cli = parse_or_exit(argv.clone(), true);
        verbs.push(cli.verb.take());
        tmux_words.push(argv);
    }
    let globals = Cli {
        name: g.socket_name,
        socket: g.socket_path.map(std::path::PathBuf::from),
        // tmux's -f is a tmux.conf, not fugue's TOML: read with source-file below.
        config: None,
        verb: None,
    };
    let conf = g.config.clone().filter(|c| c != "/dev/null");
    if let Some(conf) = conf.as_ref().filter(|_| g.control > 0) {
        // Control mode runs its own words: the file is its first command.
        tmux_words.insert(0, vec!["source-file".into(), conf.clone()]);
    }
    // No -f: tmux's own files (~/.tmux.conf ...), those that exist. Not for control
    // mode, whose first block would change; a control client meets a server that
    // a command line started, which read them.
    let confs = match (conf, g.config.is_some(), g.control) {
        (Some(c), _, 0) => vec![c],
        (None, false, 0) => tmux_mode::default_conf_files(&|k| std::env::var_os(k)),
        _ => Vec::new(),
    };
    Line {
        globals,
        tmux_words,
        tmux: true,
        control: g.control,
        verbs,
        tmux_conf: confs,
    }
}

fn parse_line(words: &[String]) -> Line {
    if !fugue_verbs::sequence::has_separator(words) {
        let mut globals = parse_or_exit(words.iter().cloned(), false);
        let verb = globals.verb.take();
        return Line {
            globals,
            tmux_words: Vec::new(),
            tmux: false,
            control: 0,
            verbs: vec![verb],
            tmux_conf: Vec::new(),
        };
    }
    let commands = fugue_verbs::sequence::split(words);
    let mut verbs = Vec::new();
    let mut globals = None;
    for (i, argv) in commands.iter().enumerate() {
        let mut cli = parse_or_exit(argv.iter().cloned(), false);
        if i > 0 && (cli.name.is_some() || cli.socket.is_some() || cli.config.is_some()) {
            let _ = writeln!(
                std::io::stderr(),
                "fugue: -L, -S and -f go before the first command of a sequence"
            );
            std::process::exit(1);
        }
        verbs.push(cli.verb.take());
        if i == 0 {
            globals = Some(cli);
        }
    }
    Line {
        globals: globals.unwrap_or_else(|| parse_or_exit(std::iter::empty(), false)),
        tmux_words: Vec::new(),
        tmux: false,
        control: 0,
        verbs,
        tmux_conf: Vec::new(),
    }
}

/// tmux's `-f FILE`: read when the server starts, so only when this command line
/// starts it (a command that makes a session, or `start-server`); a running server
/// has read its configuration already, and tmux then ignores `-f`. Reading it for
/// every command would run its `new-session` or `bind` lines again each time.
async fn tmux_conf(
    addr: &ServerAddr,
    confs: Vec<String>,
    verbs: &[Option<Verb>],
) -> anyhow::Result<()> {
    let starts = verbs.iter().any(|v| {
        matches!(
            v,
            None | Some(Verb::NewSession { .. }) | Some(Verb::StartServer)
        )
    });
    if !starts
        || autostart::connect(addr, fugue_protocol::ClientKind::Cli)
            .await
            .is_ok()
    {
        return Ok(());
    }
    // Started first, so the file's commands have a server to run in.
    drop(autostart::connect_or_start(addr, fugue_protocol::ClientKind::Cli).await?);
    let mut words = vec!["source-file".to_string()];
    words.extend(confs.iter().cloned());
    cli::set_tmux_words(words);
    let source = Verb::SourceFile {
        quiet: true,
        parse_only: false,
        verbose: false,
        expand: false,
        paths: confs,
    };
    let (code, _) = run_one(addr, Some(source), 0).await?;
    if code != 0 {
        tracing::debug!("tmux -f: the file's commands failed ({code})");
    }
    Ok(())
}

/// What a command leaves to do once the sequence has run.
enum Then {
    Nothing,
    Attach(Option<Target>, tui::AttachHow),
}

async fn run(line: Line) -> anyhow::Result<i32> {
    if let [Some(Verb::ResetTerminal)] = line.verbs.as_slice() {
        return reset::run();
    }
    let g = line.globals;
    // `tmux -L NAME`: a server started now also answers at tmux's own path for NAME,
    // which tools (libtmux's fixtures) build themselves. Never the default name,
    // which a real tmux on the same machine uses.
    let tmux_alias = match (&g.socket, &g.name) {
        (None, Some(name))
            if line.tmux
                && !name.is_empty()
                && !name.contains('/')
                && !matches!(name.as_str(), "." | "..")
                && name != fugue_protocol::paths::DEFAULT_SERVER_NAME =>
        {
            // SAFETY: getuid cannot fail.
            let uid = unsafe { libc::getuid() };
            Some(
                fugue_protocol::paths::tmux_socket_dir(&fugue_protocol::paths::ProcessEnv, uid)
                    .join(name),
            )
        }
        _ => None,
    };
    let mut addr = ServerAddr::resolve(g.socket, g.name, g.config)?;
    addr.tmux_alias = tmux_alias;
    addr.tmux_look = line.tmux;
    if line.control > 0 {
        return control::run(&addr, line.control, line.tmux_words).await;
    }
    if !line.tmux_conf.is_empty() {
        tmux_conf(&addr, line.tmux_conf, &line.verbs).await?;
    }
    let mut then = Then::Nothing;
    let mut words = line.tmux_words.into_iter();
    for verb in line.verbs {
        if line.tmux {
            cli::set_tmux_words(words.next().unwrap_or_default());
        }
        let (code, next) = run_one(&addr, verb, 0).await?;
        if let Then::Attach(..) = next {
            then = next;
        }
        if code != 0 {
            return Ok(code);
        }
    }
    match then {
        Then::Nothing => Ok(0),
        Then::Attach(target, how) => tui::attach(&addr, target, how).await,
    }
}

/// How deep `if-shell` branches may nest on the command line.
const MAX_IF_DEPTH: u8 = 8;

async fn run_one(addr: &ServerAddr, verb: Option<Verb>, depth: u8) -> anyhow::Result<(i32, Then)> {
    let done = |code| Ok((code, Then::Nothing));
    match verb {
        None => Ok((0, Then::Attach(None, tui::AttachHow::CreateIfNone))),
        Some(Verb::ResetTerminal) => done(reset::run()?),
        Some(Verb::InstallTmuxShim { dir, force }) => done(tmux_mode::install_shim(&dir, force)?),
        Some(Verb::Setup(args)) => done(setup::run(args)?),
        Some(Verb::Completions { shell }) => done(docs::completions(shell)?),
        Some(Verb::Man { verb }) => done(docs::man(verb.as_deref())?),
        Some(Verb::ListCommands { format, command }) => done(tmux_mode::list_commands(
            format.as_deref(),
            command.as_deref(),
        )?),
        Some(Verb::AttachSession {
            target,
            no_update_env,
            detach_others,
            hangup_others,
            read_only,
            cwd: _,
            client_flags,
        }) => {
            use std::sync::atomic::Ordering::Relaxed;
            tui::NO_UPDATE_ENV.store(no_update_env, Relaxed);
            let others = tui::Others::from_flags(detach_others, hangup_others);
            tui::DETACH_OTHERS.store(others as u8, Relaxed);
            let flagged = client_flags
                .as_deref()
                .is_some_and(|f| f.split(',').any(|f| f == "read-only"));
            tui::READ_ONLY.store(read_only || flagged, Relaxed);
            let target = target.map(|t| t.parse::<Target>()).transpose()?;
            Ok((0, Then::Attach(target, tui::AttachHow::Existing)))
        }
        Some(Verb::SourceFile {
            quiet,
            parse_only,
            verbose,
            expand,
            paths,
        }) => {
            let flags = cli::source::Flags {
                expand,
                quiet,
                parse_only,
                verbose,
            };
            done(cli::source::run(addr, &paths, flags).await?)
        }
        Some(Verb::RunShell {
            as_command,
            delay,
            target,
            command,
            cwd,
            ..
        }) => {
            if as_command {
                return run_branch(addr, &command, depth).await;
            }
            let cwd = cwd.as_deref();
            done(cli::shell::run_shell(addr, target.as_deref(), delay, cwd, &command).await?)
        }
        Some(Verb::IfShell {
            format,
            target,
            condition,
            command,
            otherwise,
            ..
        }) => {
            let yes = cli::shell::condition(addr, target.as_deref(), format, &condition).await?;
            match if yes { Some(command) } else { otherwise } {
                Some(branch) => run_branch(addr, &branch, depth).await,
                None => done(0),
            }
        }
        Some(Verb::Report(r)) if r.hook => {
            let caller = fugue_verbs::Caller {
                files: true,
                ..Default::default()
            };
            match fugue_verbs::hook_report(r, &caller)? {
                None => done(0),
                Some(r) => Box::pin(run_one(addr, Some(Verb::Report(r)), depth)).await,
            }
        }
        Some(Verb::Mcp { http: None }) => {
            let addr = addr.clone();
            done(tokio::task::spawn_blocking(move || mcp_bridge::run(&addr)).await??)
        }
        Some(Verb::Mcp { http: Some(listen) }) => {
            let addr = addr.clone();
            done(tokio::task::spawn_blocking(move || mcp_bridge::run_http(&addr, &listen)).await??)
        }
        Some(Verb::SendKeys {
            target,
            format: true,
            mut keys,
            literal,
            hex,
            reset,
            repeat,
            copy_mode,
            client_keys,
            mouse,
            client,
            print,
        }) => {
            // -F: each key's formats, in the target pane's scope, before it is read.
            for k in &mut keys {
                *k = cli::shell::expand(addr, target.as_deref(), k).await;
            }
            let verb = Verb::SendKeys {
                target,
                format: false,
                keys,
                literal,
                hex,
                reset,
                repeat,
                copy_mode,
                client_keys,
                mouse,
                client,
                print,
            };
            Box::pin(run_one(addr, Some(verb), depth)).await
        }
        Some(verb) => match cli::run(addr, verb).await? {
            cli::Outcome::Exit(code) => done(code),
            cli::Outcome::AttachNew(sid) => Ok((
                0,
                Then::Attach(Some(Target::SessionId(sid)), tui::AttachHow::JustCreated),
            )),
        },
    }
}

/// An `if-shell` branch or `run-shell -C` command: a tmux command line, each of its
/// commands run as the CLI runs one.
async fn run_branch(addr: &ServerAddr, text: &str, depth: u8) -> anyhow::Result<(i32, Then)> {
    if depth >= MAX_IF_DEPTH {
        anyhow::bail!("if-shell nested over {MAX_IF_DEPTH} deep");
    }
    let commands = fugue_protocol::tmux_cmd::parse(text, &fugue_protocol::tmux_cmd::ProcessEnv)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut then = Then::Nothing;
    for argv in commands {
        let cli = Cli::try_parse_from(std::iter::once("fugue".to_string()).chain(argv))
            .map_err(|e| anyhow::anyhow!("{}", e.to_string().lines().next().unwrap_or("")))?;
        let (code, next) = Box::pin(run_one(addr, cli.verb, depth + 1)).await?;
        if let Then::Attach(..) = next {
            then = next;
        }
        if code != 0 {
            return Ok((code, then));
        }
    }
    Ok((0, then))
}
