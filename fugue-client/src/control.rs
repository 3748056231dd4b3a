//! tmux control mode (`tmux -C`, `-CC`): commands read from standard input, one line
//! at a time, each answered in a `%begin TIME NUMBER FLAGS` ... `%end` (or `%error`)
//! block; between blocks, the attached session's pane output (`%output %P DATA`) and
//! notifications (`%window-add @W`, ...) as the server sends them. An empty line or
//! the end of input detaches with `%exit`. tmux's control.c is the model.
//!
//! Commands run as the CLI runs them (same verbs, same printing, captured into the
//! block); the control connection carries what only a control client asks:
//! `refresh-client -f`/`-A`. `-CC` (iTerm2's) also turns the terminal's echo off and
//! wraps everything in a DCS, `ESC P 1000 p` ... `ESC \`.

use crate::autostart::{self, ServerAddr};
use crate::connection::Connection;
use fugue_protocol::cmd;
use fugue_protocol::message::{ClientKind, ControlEvent, ControlRequest, PaneFlow, ServerMessage};
use fugue_protocol::{Command, PaneId, PaneScope, Response, SessionId, Target};
use fugue_verbs::Verb;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

/// The longest command line read (tmux reads any length; a line past this is
/// answered with an error and skipped, so a runaway writer cannot grow the client).
const MAX_LINE: usize = 1 << 20;

/// tmux's escaping of pane output: bytes below space and the backslash as `\ooo`.
pub fn escape(data: &[u8], out: &mut Vec<u8>) {
    for &b in data {
        if b < b' ' || b == b'\\' {
            out.extend_from_slice(format!("\\{b:03o}").as_bytes());
        } else {
            out.push(b);
        }
    }
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// A line of standard input, or its end.
enum Input {
    Line(Vec<u8>),
    TooLong,
    End,
}

struct Control {
    addr: ServerAddr,
    out: tokio::io::Stdout,
    /// The connection that hears the session's output (once attached).
    conn: Option<Connection>,
    session: Option<SessionId>,
    /// The number of the next command's block (tmux numbers every command).
    number: u64,
    /// Set by `detach-client` / `kill-server`: end after this line.
    done: bool,
    /// Why the client ends, when the server said (`%exit REASON`).
    exit: Option<Option<String>>,
    number_sync: u64,
    /// Whether the last block was an `%error`.
    failed: bool,
}

/// Runs control mode; `first` is the command line given with `-C` (tmux's default:
/// `new-session`).
pub async fn run(addr: &ServerAddr, mode: u8, first: Vec<Vec<String>>) -> anyhow::Result<i32> {
    let echo = (mode > 1).then(EchoOff::new).flatten();
    let mut c = Control {
        addr: addr.clone(),
        out: tokio::io::stdout(),
        conn: None,
        session: None,
        number: 0,
        done: false,
        exit: None,
        number_sync: 0,
        failed: false,
    };
    if mode > 1 {
        c.write(b"\x1bP1000p").await;
    }
    let first = if first.is_empty() {
        vec![vec!["new-session".to_string()]]
    } else {
        first
    };
    for argv in first {
        c.command(argv, 0).await;
        if c.failed || c.done {
            break;
        }
    }
    // As tmux: a control client its command left with no session ends at once,
    // failing when the command did (`tmux -C ls` prints the list and exits).
    if c.session.is_none() {
        c.write(b"%exit\n").await;
        if mode > 1 {
            c.write(b"\x1b\\").await;
        }
        drop(echo);
        return Ok(i32::from(c.failed));
    }
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Input>(1);
    // Standard input on a task of its own: reading it and the server at once.
    tokio::spawn(async move {
        let mut stdin = tokio::io::BufReader::new(tokio::io::stdin());
        loop {
            let mut line = Vec::new();
            let got = (&mut stdin)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut line)
                .await;
            let input = match got {
                Ok(0) | Err(_) => Input::End,
                Ok(_) if line.len() > MAX_LINE && !line.ends_with(b"\n") => {
                    // Skip the rest of the line.
                    let mut rest = Vec::new();
                    let _ = stdin.read_until(b'\n', &mut rest).await;
                    Input::TooLong
                }
                Ok(_) => Input::Line(line),
            };
            let end = matches!(input, Input::End);
            if tx.send(input).await.is_err() || end {
                return;
            }
        }
    });
    let reason = loop {
        if c.done {
            break c.exit.take().flatten();
        }
        let msg = async {
            match c.conn.as_mut() {
                Some(conn) => conn.incoming.next().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            input = rx.recv() => match input {
                None | Some(Input::End) => break None,
                Some(Input::TooLong) => {
                    c.block_error(1, "command line too long").await;
                }
                Some(Input::Line(line)) => {
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim_end_matches(['\n', '\r']);
                    if text.is_empty() {
                        break None;
                    }
                    c.line(text).await;
                }
            },
            msg = msg => match msg {
                Ok(Some(ServerMessage::Control(ev))) => {
                    if let Some(reason) = c.event(ev).await {
                        break reason;
                    }
                }
                Ok(Some(_)) => {}
                // The server went away: tmux's client ends with `%exit`.
                Ok(None) | Err(_) => break Some("server exited".to_string()),
            },
        }
    };
    let exit = match reason {
        Some(r) => format!("%exit {r}\n"),
        None => "%exit\n".to_string(),
    };
    c.write(exit.as_bytes()).await;
    if mode > 1 {
        c.write(b"\x1b\\").await;
    }
    drop(echo);
    Ok(0)
}

impl Control {
    async fn write(&mut self, bytes: &[u8]) {
        let _ = self.out.write_all(bytes).await;
        let _ = self.out.flush().await;
    }

    /// A server event; Some(reason) when the client is to end.
    async fn event(&mut self, ev: ControlEvent) -> Option<Option<String>> {
        match ev {
            ControlEvent::Output { pane, data, age_ms } => {
                let mut line = match age_ms {
                    Some(age) => format!("%extended-output {pane} {age} : ").into_bytes(),
                    None => format!("%output {pane} ").into_bytes(),
                };
                escape(&data, &mut line);
                line.push(b'\n');
                self.write(&line).await;
                None
            }
            ControlEvent::Line(l) => {
                self.write(format!("{l}\n").as_bytes()).await;
                None
            }
            ControlEvent::Exit { reason } => Some(reason),
            ControlEvent::Synced { .. } => None,
        }
    }

    /// Writes what the server queued for this client before now (what the last
    /// command set off), so it comes before the next command's block, as in tmux.
    async fn sync(&mut self) {
        let Some(conn) = self.conn.as_mut() else {
            return;
        };
        self.number_sync = self.number_sync.wrapping_add(1);
        let id = self.number_sync;
        if conn
            .outgoing
            .control(ControlRequest::Sync { id })
            .await
            .is_err()
        {
            return;
        }
        loop {
            let Some(conn) = self.conn.as_mut() else {
                return;
            };
            match conn.incoming.next().await {
                Ok(Some(ServerMessage::Control(ControlEvent::Synced { id: got }))) if got == id => {
                    return;
                }
                Ok(Some(ServerMessage::Control(ev))) => {
                    if let Some(reason) = self.event(ev).await {
                        self.exit = Some(reason);
                        self.done = true;
                        return;
                    }
                }
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => {
                    self.exit = Some(Some("server exited".into()));
                    self.done = true;
                    return;
                }
            }
        }
    }

    /// One line of commands: parsed whole first (a parse error runs none of it), then
    /// each command in its own block.
    async fn line(&mut self, text: &str) {
        let commands =
            match fugue_protocol::tmux_cmd::parse(text, &fugue_protocol::tmux_cmd::ProcessEnv) {
                Ok(c) => c,
                Err(e) => {
                    self.block_error(1, &format!("parse error: {e}")).await;
                    return;
                }
            };
        let mut verbs = Vec::new();
        for argv in &commands {
            if control_only(argv) {
                verbs.push(None);
                continue;
            }
            match crate::try_parse(argv, true) {
                Ok(cli) => verbs.push(Some(cli.verb)),
                Err(crate::Parsed::Message(m)) => {
                    self.block_error(1, &format!("parse error: {m}")).await;
                    return;
                }
                Err(crate::Parsed::Clap(e)) => {
                    let m = e.to_string();
                    let m = m.lines().next().unwrap_or("invalid arguments");
                    self.block_error(1, &format!("parse error: {m}")).await;
                    return;
                }
            }
        }
        for (argv, verb) in commands.into_iter().zip(verbs) {
            match verb {
                None => self.control_command(&argv).await,
                Some(verb) => self.run_verb(argv, verb, 1).await,
            }
            if self.done {
                return;
            }
        }
    }

    /// A command of the command line `-C` was given (flags 0, as tmux's).
    async fn command(&mut self, argv: Vec<String>, flags: u8) {
        if control_only(&argv) {
            self.control_command(&argv).await;
            return;
        }
        match crate::try_parse(&argv, true) {
            Ok(cli) => self.run_verb(argv, cli.verb, flags).await,
            Err(crate::Parsed::Message(m)) => self.block_error(flags, &m).await,
            Err(crate::Parsed::Clap(e)) => {
                let m = e.to_string();
                self.block_error(flags, m.lines().next().unwrap_or("invalid arguments"))
                    .await
            }
        }
    }

    fn begin(&mut self) -> (u64, u64) {
        self.number = self.number.wrapping_add(1);
        (now(), self.number)
    }

    async fn block(&mut self, flags: u8, body: &[u8], ok: bool) {
        let (time, n) = self.begin();
        let mut text = format!("%begin {time} {n} {flags}\n").into_bytes();
        text.extend_from_slice(body);
        if !body.is_empty() && !body.ends_with(b"\n") {
            text.push(b'\n');
        }
        self.failed = !ok;
        let end = if ok { "end" } else { "error" };
        text.extend_from_slice(format!("%{end} {} {n} {flags}\n", now()).as_bytes());
        self.write(&text).await;
    }

    async fn block_error(&mut self, flags: u8, message: &str) {
        self.block(flags, format!("{message}\n").as_bytes(), false)
            .await;
    }

    /// Runs one verb as the CLI does, its output captured into the block.
    async fn run_verb(&mut self, argv: Vec<String>, verb: Option<Verb>, flags: u8) {
        crate::cli::set_tmux_words(argv.clone());
        // `detach-client` alone detaches this client, as tmux's does.
        if let Some(Verb::Declared(fugue_verbs::Declared(
            Command::DetachClient(cmd::DetachClient {
                target: None,
                client: None,
                all_others: false,
                hangup_parent: false,
                exec: None,
            }),
            _,
        ))) = verb
        {
            self.block(flags, b"", true).await;
            self.done = true;
            return;
        }
        // `attach -t`: the session is found first, so a missing one is this block's
        // error (tmux's words), not a client left with no session.
        if let Some(Verb::AttachSession { target, .. }) = &verb {
            match self.find_session(&argv, target.as_deref()).await {
                Ok(s) => {
                    self.block(flags, b"", true).await;
                    self.attach(s).await;
                }
                Err(e) => self.block_error(flags, &e).await,
            }
            return;
        }
        let mut is_new = false;
        let verb = verb.map(|v| match v {
            // A control client attaches itself: a new session is made detached, and
            // the client then follows it (tmux's control client switches to it).
            Verb::NewSession {
                detached,
                name,
                window_name,
                attach_existing,
                detach_others,
                exit_others,
                client_flags,
                width,
                height,
                print,
                format,
                no_update_env,
                group,
                spawn,
            } => {
                is_new = !detached;
                Verb::NewSession {
                    detached: true,
                    name,
                    window_name,
                    attach_existing,
                    detach_others,
                    exit_others,
                    client_flags,
                    width,
                    height,
                    print,
                    format,
                    no_update_env,
                    group,
                    spawn,
                }
            }
            other => other,
        });
        let is_kill_server = matches!(
            &verb,
            Some(Verb::Declared(d)) if matches!(d.0, fugue_protocol::Command::KillServer)
        );
        crate::cli::start_capture();
        let result = crate::run_one(&self.addr, verb, 0).await;
        let mut body = crate::cli::take_capture();
        let (ok, then) = match result {
            Ok((code, then)) => (code == 0, then),
            Err(e) => {
                body.extend_from_slice(format!("{e:#}\n").as_bytes());
                (false, crate::Then::Nothing)
            }
        };
        // `new-session -P` prints the new pane; without it, fugue's answer was the
        // session made, which tmux does not print.
        let created = if is_new && ok {
            self.session_of_new(&argv).await
        } else {
            None
        };
        self.block(flags, &body, ok).await;
        self.sync().await;
        if is_kill_server && ok {
            self.done = true;
            return;
        }
        let target = match then {
            crate::Then::Attach(target, _) => Some(target),
            crate::Then::Nothing => None,
        };
        let session = match (created, target) {
            (Some(s), _) => Some(s),
            (None, Some(t)) => self.resolve(t).await,
            _ => None,
        };
        if let Some(s) = session {
            self.attach(s).await;
        }
    }

    /// The session `new-session` just made: the one named by `-s`, else the newest.
    async fn session_of_new(&mut self, argv: &[String]) -> Option<SessionId> {
        let name = flag_value(argv, 's');
        let mut conn = autostart::connect(&self.addr, ClientKind::Cli).await.ok()?;
        let Ok(Ok(Response::Sessions(list))) = conn.call(Command::ListSessions).await else {
            return None;
        };
        match name {
            Some(n) => list.iter().find(|s| s.name == n).map(|s| s.id),
            None => list.iter().max_by_key(|s| s.id.0).map(|s| s.id),
        }
    }

    /// The session `attach -t TARGET` names (none: the most recent), or tmux's error.
    async fn find_session(
        &mut self,
        argv: &[String],
        target: Option<&str>,
    ) -> Result<SessionId, String> {
        let target = match target.map(|t| t.parse::<Target>()).transpose() {
            Ok(t) => t,
            Err(e) => return Err(format!("{e}")),
        };
        let mut conn = autostart::connect(&self.addr, ClientKind::Cli)
            .await
            .map_err(|e| e.to_string())?;
        let no_target = target.is_none();
        match conn
            .call(Command::ListPanes(cmd::ListPanes {
                target,
                scope: PaneScope::Pane,
                values: Vec::new(),
            }))
            .await
        {
            Ok(Ok(Response::Panes(list))) => match list.first() {
                Some(p) => Ok(p.session_id),
                None => Err("no sessions".into()),
            },
            Ok(Err(_)) if no_target => Err("no sessions".into()),
            Ok(Err(e)) => Err(crate::tmux_mode::error_words(argv, &e)),
            Ok(Ok(_)) => Err("unexpected answer".into()),
            Err(e) => Err(format!("{e:#}")),
        }
    }

    /// The session a target names (None: the most recent, as `attach` takes).
    async fn resolve(&mut self, target: Option<Target>) -> Option<SessionId> {
        let mut conn = autostart::connect(&self.addr, ClientKind::Cli).await.ok()?;
        match conn
            .call(Command::ListPanes(cmd::ListPanes {
                target,
                scope: PaneScope::Pane,
                values: Vec::new(),
            }))
            .await
        {
            Ok(Ok(Response::Panes(list))) => list.first().map(|p| p.session_id),
            _ => None,
        }
    }

    /// Attaches the control connection to `session` (or moves it there).
    async fn attach(&mut self, session: SessionId) {
        if self.session == Some(session) {
            return;
        }
        if self.conn.is_none() {
            match autostart::connect(&self.addr, ClientKind::Cli).await {
                Ok(c) => self.conn = Some(c),
                Err(e) => {
                    self.write(format!("%exit {e}\n").as_bytes()).await;
                    self.done = true;
                    return;
                }
            }
        }
        if let Some(conn) = self.conn.as_mut()
            && conn
                .outgoing
                .control(ControlRequest::Attach {
                    session,
                    term: std::env::var("TERM").ok(),
                })
                .await
                .is_ok()
        {
            self.session = Some(session);
            self.sync().await;
        }
    }

    /// `refresh-client`'s control client flags: `-f` (pause-after, no-output), `-A`
    /// (a pane's output on, off, paused, continued) and `-C` (the client's size,
    /// accepted: fugue sizes windows by its terminal clients).
    async fn control_command(&mut self, argv: &[String]) {
        match refresh_flags(argv) {
            Ok(reqs) => {
                let mut ok = true;
                for r in reqs {
                    match (self.conn.as_mut(), r) {
                        (Some(conn), Refresh::Request(r)) => {
                            ok &= conn.outgoing.control(r).await.is_ok();
                        }
                        // The client's size, as a terminal client's: its session's
                        // windows follow it (`window-size`).
                        (Some(conn), Refresh::Size(cols, rows)) => {
                            ok &= conn.outgoing.resize(cols, rows).await.is_ok();
                        }
                        (None, _) => ok = false,
                    }
                }
                if ok {
                    self.block(1, b"", true).await;
                    self.sync().await;
                } else {
                    self.block_error(1, "no current client").await;
                }
            }
            Err(e) => self.block_error(1, &e).await,
        }
    }
}

/// Whether a command is `refresh-client` with a control client's flags, which the
/// control connection carries (the verb table's `refresh-client` is a terminal's).
fn control_only(argv: &[String]) -> bool {
    matches!(
        argv.first().map(String::as_str),
        Some("refresh-client" | "refresh")
    ) && argv[1..]
        .iter()
        .any(|w| w.starts_with('-') && w.contains(['f', 'A', 'B', 'C']))
}

/// One thing `refresh-client` asks of the control connection.
#[derive(Debug, PartialEq, Eq)]
enum Refresh {
    Request(ControlRequest),
    /// `-C WxH` (or `W,H`): the client's size.
    Size(u16, u16),
}

/// `-C WIDTHxHEIGHT` or `WIDTH,HEIGHT`, within tmux's bounds; tmux 3.2's per-window
/// `-C @W:WxH` is accepted and changes nothing.
fn client_size(value: &str) -> Result<Option<Refresh>, String> {
    if value.starts_with('@') {
        return Ok(None);
    }
    let bad = || format!("bad size argument: {value}");
    let (w, h) = value
        .split_once('x')
        .or_else(|| value.split_once(','))
        .ok_or_else(bad)?;
    let w: u16 = w.parse().map_err(|_| bad())?;
    let h: u16 = h.parse().map_err(|_| bad())?;
    let (cols, rows) = (
        w.clamp(1, fugue_protocol::limits::MAX_COLS),
        h.clamp(1, fugue_protocol::limits::MAX_ROWS),
    );
    if w != cols || h != rows {
        return Err(format!("size too small or too big: {value}"));
    }
    Ok(Some(Refresh::Size(cols, rows)))
}

/// The requests of `refresh-client [-f FLAGS] [-A PANE:ACTION] [-C SIZE]`.
fn refresh_flags(argv: &[String]) -> Result<Vec<Refresh>, String> {
    let mut reqs = Vec::new();
    let mut it = argv.iter().skip(1);
    while let Some(w) = it.next() {
        let Some(flags) = w.strip_prefix('-') else {
            continue;
        };
        for (at, f) in flags.char_indices() {
            if !matches!(f, 'f' | 'F' | 'A' | 'C' | 'B' | 't') {
                continue;
            }
            let rest = &flags[at + 1..];
            let value = if rest.is_empty() {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("command refresh-client: -{f} expects an argument"))?
            } else {
                rest.to_string()
            };
            match f {
                'f' | 'F' => reqs.push(Refresh::Request(client_flags(&value)?)),
                'A' => reqs.push(Refresh::Request(pane_action(&value)?)),
                'C' => reqs.extend(client_size(&value)?),
                // -B (subscriptions) and -t are accepted and left alone.
                _ => {}
            }
            break;
        }
    }
    Ok(reqs)
}

/// `-f pause-after=N,no-output,...` (N in seconds, as tmux's manual gives it; other
/// flags, read-only and the rest, are accepted and have no effect here).
fn client_flags(value: &str) -> Result<ControlRequest, String> {
    let mut pause_after_ms = None;
    let mut no_output = false;
    for f in value.split(',') {
        let (not, f) = match f.strip_prefix('!') {
            Some(f) => (true, f),
            None => (false, f),
        };
        if let Some(n) = f.strip_prefix("pause-after") {
            if not {
                pause_after_ms = None;
                continue;
            }
            let secs: u32 = match n.strip_prefix('=') {
                Some(n) => n.parse().map_err(|_| format!("bad pause-after: {n}"))?,
                None => 0,
            };
            pause_after_ms = Some(secs.saturating_mul(1000));
        } else if f == "no-output" {
            no_output = !not;
        }
    }
    Ok(ControlRequest::Flags {
        pause_after_ms,
        no_output,
    })
}

/// `-A %P:on|off|continue|pause`.
fn pane_action(value: &str) -> Result<ControlRequest, String> {
    let (pane, action) = value
        .split_once(':')
        .ok_or_else(|| format!("bad pane argument: {value}"))?;
    let pane: PaneId = pane
        .parse()
        .map_err(|_| format!("can't find pane: {pane}"))?;
    let action = match action {
        "on" => PaneFlow::On,
        "off" => PaneFlow::Off,
        "continue" => PaneFlow::Continue,
        "pause" => PaneFlow::Pause,
        _ => return Err(format!("bad pane argument: {value}")),
    };
    Ok(ControlRequest::Pane { pane, action })
}

/// The value of `-X` in a command's words.
fn flag_value(argv: &[String], flag: char) -> Option<String> {
    let mut it = argv.iter().skip(1);
    while let Some(w) = it.next() {
        let Some(flags) = w.strip_prefix('-') else {
            continue;
        };
        if let Some(at) = flags.find(flag) {
            let rest = &flags[at + 1..];
            return if rest.is_empty() {
                it.next().cloned()
            } else {
                Some(rest.to_string())
            };
        }
    }
    None
}

/// The terminal's echo off for `-CC` (iTerm2 writes commands it does not want shown),
/// restored when dropped.
struct EchoOff(libc::termios);

impl EchoOff {
    fn new() -> Option<EchoOff> {
        // SAFETY: isatty/tcgetattr/tcsetattr on fd 0 with a termios we own.
        unsafe {
            if libc::isatty(0) != 1 {
                return None;
            }
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(0, &mut t) != 0 {
                return None;
            }
            let saved = t;
            t.c_lflag &= !(libc::ECHO | libc::ECHONL);
            if libc::tcsetattr(0, libc::TCSANOW, &t) != 0 {
                return None;
            }
            Some(EchoOff(saved))
        }
    }
}

impl Drop for EchoOff {
    fn drop(&mut self) {
        // SAFETY: restores the attributes read in `new`.
        unsafe {
            libc::tcsetattr(0, libc::TCSANOW, &self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn output_is_escaped_as_tmux_escapes_it() {
        let mut out = Vec::new();
        escape(b"echo hi\r\n\\ \x1b[0m\x7f", &mut out);
        assert_eq!(out, b"echo hi\\015\\012\\134 \\033[0m\x7f");
    }

    #[test]
    fn refresh_client_flags() {
        assert_eq!(
            refresh_flags(&w("refresh-client -f pause-after=2,no-output")),
            Ok(vec![Refresh::Request(ControlRequest::Flags {
                pause_after_ms: Some(2000),
                no_output: true
            })])
        );
        assert_eq!(
            refresh_flags(&w("refresh-client -A %3:continue")),
            Ok(vec![Refresh::Request(ControlRequest::Pane {
                pane: PaneId(3),
                action: PaneFlow::Continue
            })])
        );
        assert_eq!(
            refresh_flags(&w("refresh-client -C 100x30")),
            Ok(vec![Refresh::Size(100, 30)])
        );
        assert_eq!(
            refresh_flags(&w("refresh-client -C 90,20")),
            Ok(vec![Refresh::Size(90, 20)])
        );
        assert_eq!(refresh_flags(&w("refresh-client -C @1:100x30")), Ok(vec![]));
        assert!(refresh_flags(&w("refresh-client -C 0x30")).is_err());
        assert!(control_only(&w("refresh-client -C 100x30")));
        assert!(!control_only(&w("refresh-client")));
    }
}
