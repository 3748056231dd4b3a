//! Flag values turned into the protocol's types: targets, spawn arguments, line
//! bounds, directions and sizes, shared by the verbs' conversions.

use crate::Caller;
use crate::args::SpawnArgs;
use anyhow::{Context, bail};
use fugue_protocol::keys::{SendKeysArg, classify_send_keys_arg};
use fugue_protocol::{Direction, InputPart, LineBound, Spawn, SplitSize, Target};

pub(crate) fn target(t: Option<String>) -> anyhow::Result<Option<Target>> {
    t.map(|s| s.parse::<Target>().map_err(anyhow::Error::from))
        .transpose()
}

/// A command line for the attached clients, within its bound.
pub(crate) fn client_line(
    t: Option<String>,
    argv: Vec<String>,
) -> anyhow::Result<fugue_protocol::popup::ClientCommandLine> {
    fugue_protocol::popup::ClientCommandLine::new(t, argv).map_err(anyhow::Error::msg)
}

pub(crate) fn spawn(args: SpawnArgs, default_cwd: bool, caller: &Caller) -> anyhow::Result<Spawn> {
    let cwd = match args.cwd {
        // A format (`-c '#{pane_current_path}'`, as tmux's -c) is the server's to expand.
        Some(c) if c.to_string_lossy().contains('#') => Some(c),
        Some(c) => Some(
            caller
                .absolute(&c)
                .with_context(|| format!("bad directory {}", c.display()))?,
        ),
        None if default_cwd => caller.cwd.clone(),
        None => None,
    };
    let env = args
        .env
        .iter()
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
            _ => bail!("invalid -e `{kv}`: expected VAR=VALUE"),
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(Spawn {
        command: args.command,
        cwd: cwd.map(|c| c.to_string_lossy().into_owned()),
        env,
        title: None,
        sideband: match (args.sideband, args.no_sideband) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        remain: None,
    })
}

pub(crate) fn line_bound(s: Option<String>, flag: &str) -> anyhow::Result<Option<LineBound>> {
    match s.as_deref() {
        None => Ok(None),
        Some("-") => Ok(Some(LineBound::Edge)),
        Some(n) => n
            .parse::<i64>()
            .map(|n| Some(LineBound::Line(n)))
            .map_err(|_| anyhow::anyhow!("invalid {flag} `{n}`: expected a line number or -")),
    }
}

pub(crate) fn direction(
    left: bool,
    right: bool,
    up: bool,
    down: bool,
) -> anyhow::Result<Option<Direction>> {
    Direction::from_flags(left, right, up, down).map_err(anyhow::Error::msg)
}

pub(crate) fn split_size(
    size: Option<String>,
    percent: Option<u8>,
) -> anyhow::Result<Option<SplitSize>> {
    SplitSize::from_flags(size.as_deref(), percent).map_err(anyhow::Error::msg)
}

/// `resize-pane -x/-y`: cells or N% (of the window).
pub(crate) fn resize_size(s: Option<String>, flag: &str) -> anyhow::Result<Option<SplitSize>> {
    let Some(s) = s else { return Ok(None) };
    let bad = || anyhow::anyhow!("invalid {flag} `{s}`: expected cells or a percentage like 30%");
    match s.strip_suffix('%') {
        Some(p) => Ok(Some(SplitSize::Percent(p.parse().map_err(|_| bad())?))),
        None => Ok(Some(SplitSize::Cells(s.parse().map_err(|_| bad())?))),
    }
}

/// `send-keys`' keys as input parts: text or key names (`-l`: text only), or hex
/// bytes (`-H`), after a reset (`-R`), `-N` times.
pub(crate) fn send_keys_parts(
    keys: Vec<String>,
    literal: bool,
    hex: bool,
    reset: bool,
    repeat: Option<u32>,
) -> anyhow::Result<Vec<InputPart>> {
    let mut once: Vec<InputPart> = Vec::new();
    if hex {
        let mut bytes = Vec::new();
        for k in &keys {
            let b = u8::from_str_radix(k, 16).map_err(|_| {
                anyhow::anyhow!("invalid hex byte `{k}`: give bytes as two hex digits (1b, 41)")
            })?;
            bytes.push(b);
        }
        let text = String::from_utf8(bytes).map_err(|_| {
            anyhow::anyhow!("the hex bytes are not UTF-8 text: fugue sends text and keys")
        })?;
        once.push(InputPart::Text(text));
    } else {
        once.extend(keys.into_iter().map(|k| {
            if literal {
                InputPart::Text(k)
            } else {
                match classify_send_keys_arg(&k) {
                    SendKeysArg::Key(key) => InputPart::Key(key),
                    SendKeysArg::Text(t) => InputPart::Text(t),
                }
            }
        }));
    }
    // -N: the whole set of keys, COUNT times (bounded by the input size check
    // on the server).
    let count = repeat.unwrap_or(1).clamp(1, 10_000) as usize;
    let mut parts = Vec::new();
    if reset {
        parts.push(InputPart::Reset);
    }
    for _ in 0..count {
        parts.extend(once.iter().cloned());
    }
    Ok(parts)
}
