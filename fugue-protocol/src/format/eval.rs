//! The expansion itself: tmux's `format_expand1` and `format_replace`.

use super::modifiers::{self as m, Marker};
use super::parse::{Modifier, closing_brace, modifiers, skip};
use super::{FormatContext, MAX_DEPTH, MAX_LOOP_ITEMS, MAX_OUTPUT, MAX_STEPS, is_true, time};
use std::cell::Cell;

/// One top-level expansion's shared budget.
pub(super) struct Expander {
    steps: Cell<usize>,
}

/// A replacement tmux gives up on: the expansion ends there.
struct Fail;

/// What `format_find` does with a variable's value.
#[derive(Default, Clone, Copy)]
struct Find<'a> {
    time: bool,
    pretty: bool,
    time_format: Option<&'a str>,
    basename: bool,
    dirname: bool,
    quote_shell: bool,
    quote_hash: bool,
}

fn push_bounded(out: &mut String, s: &str) {
    let room = MAX_OUTPUT.saturating_sub(out.len());
    if s.len() <= room {
        out.push_str(s);
    } else {
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        out.push_str(&s[..end]);
    }
}

/// The one-letter aliases: `#S` is `#{session_name}`.
pub(super) fn alias(c: char) -> Option<&'static str> {
    Some(match c {
        'D' => "pane_id",
        'F' => "window_flags",
        'H' => "host",
        'I' => "window_index",
        'P' => "pane_index",
        'S' => "session_name",
        'T' => "pane_title",
        'W' => "window_name",
        'h' => "host_short",
        _ => return None,
    })
}

impl Expander {
    pub(super) fn new() -> Self {
        Expander {
            steps: Cell::new(0),
        }
    }

    fn step(&self) -> bool {
        let n = self.steps.get();
        self.steps.set(n.saturating_add(1));
        n < MAX_STEPS
    }

    /// `format_expand1`: `#{...}`, `#(...)`, aliases and escapes; with `time`, the
    /// format goes through strftime first.
    pub(super) fn expand(
        &self,
        ctx: &dyn FormatContext,
        fmt: &str,
        time: bool,
        depth: usize,
    ) -> String {
        if depth >= MAX_DEPTH || fmt.is_empty() {
            return String::new();
        }
        let timed;
        let fmt = if time && fmt.contains('%') {
            let now = ctx.now();
            timed = time::strftime(fmt, now, ctx.utc_offset(now));
            timed.as_str()
        } else {
            fmt
        };
        let mut out = String::with_capacity(fmt.len().min(MAX_OUTPUT));
        let mut rest = fmt;
        while let Some(hash) = rest.find('#') {
            push_bounded(&mut out, &rest[..hash]);
            if out.len() >= MAX_OUTPUT {
                return out;
            }
            let after = &rest[hash + 1..];
            let Some(ch) = after.chars().next() else {
                out.push('#');
                return out;
            };
            match ch {
                '(' => {
                    let Some(end) = matching_paren(after) else {
                        return out;
                    };
                    let cmd = self.expand(ctx, &after[1..end], false, depth + 1);
                    if let Some(v) = ctx.shell_output(&cmd) {
                        push_bounded(&mut out, &v);
                    }
                    rest = &after[end + 1..];
                }
                '{' => {
                    let Some(end) = closing_brace(&rest[hash..]) else {
                        return out;
                    };
                    let inner = &rest[hash + 2..hash + end];
                    match self.replace(ctx, inner, depth) {
                        Ok(v) => push_bounded(&mut out, &v),
                        Err(Fail) => return out,
                    }
                    rest = &rest[hash + end + 1..];
                }
                '}' | '#' | ',' => {
                    out.push(ch);
                    rest = &after[1..];
                }
                c => {
                    match alias(c) {
                        Some(name) => {
                            if let Ok(v) = self.replace(ctx, name, depth) {
                                push_bounded(&mut out, &v);
                            }
                        }
                        None => {
                            out.push('#');
                            out.push(c);
                        }
                    }
                    rest = &after[c.len_utf8()..];
                }
            }
        }
        push_bounded(&mut out, rest);
        out
    }

    /// `format_find`: a variable with what `t`, `b`, `d`, `q` do to it.
    fn find(&self, ctx: &dyn FormatContext, key: &str, f: Find<'_>) -> Option<String> {
        let mut v = ctx.var(key)?;
        if f.time {
            let t: i64 = v.trim().parse().ok().filter(|t| *t != 0)?;
            let off = ctx.utc_offset(t);
            v = if f.pretty {
                time::pretty(t, ctx.now(), off, ctx.utc_offset(ctx.now()))
            } else if let Some(tf) = f.time_format {
                time::strftime(tf, t, off)
            } else {
                time::strftime("%a %b %e %H:%M:%S %Y", t, off)
            };
        }
        if f.basename {
            v = m::basename(&v);
        } else if f.dirname {
            v = m::dirname(&v);
        }
        if f.quote_shell {
            v = m::quote_shell(&v);
        } else if f.quote_hash {
            v = v.replace('#', "##");
        }
        Some(v)
    }

    /// `format_replace`: the inside of one `#{...}`.
    fn replace(&self, ctx: &dyn FormatContext, inner: &str, depth: usize) -> Result<String, Fail> {
        if !self.step() {
            return Ok(String::new());
        }
        let d = depth + 1;
        let (mods, key) = modifiers(inner);
        let arg = |s: &str| self.expand(ctx, s, false, d);
        let mut find = Find::default();
        let (mut literal, mut char_, mut colour, mut expand_again, mut expand_time) =
            (false, false, false, false, false);
        let (mut length, mut width, mut search) = (false, false, false);
        let mut loop_: Option<char> = None;
        let mut name_check: Option<bool> = None;
        let mut cmp: Option<&Modifier<'_>> = None;
        let mut math: Option<&Modifier<'_>> = None;
        let mut subs: Vec<&Modifier<'_>> = Vec::new();
        let mut limit: i64 = 0;
        let mut marker: Option<String> = None;
        let mut pad: i64 = 0;
        for md in &mods {
            match md.name {
                "l" => literal = true,
                "a" => char_ = true,
                "c" => colour = true,
                "b" => find.basename = true,
                "d" => find.dirname = true,
                "n" => length = true,
                "w" => width = true,
                "E" => expand_again = true,
                "T" => expand_time = true,
                "S" => loop_ = Some('S'),
                "W" => loop_ = Some('W'),
                "P" => loop_ = Some('P'),
                "C" => search = true,
                "N" => {
                    // `N` or `N/w`: a window name; `N/s`: a session name.
                    name_check = Some(md.args.first().is_some_and(|a| arg(a).contains('s')));
                }
                "m" | "==" | "!=" | "<" | ">" | "<=" | ">=" | "||" | "&&" => cmp = Some(md),
                "s" if md.args.len() >= 2 => subs.push(md),
                "=" => {
                    if let Some(a) = md.args.first() {
                        limit = m::strtonum(&arg(a)).unwrap_or(0);
                        marker = md.args.get(1).map(|s| arg(s));
                    }
                }
                "p" => {
                    if let Some(a) = md.args.first() {
                        pad = m::strtonum(&arg(a)).unwrap_or(0);
                    }
                }
                "e" if !md.args.is_empty() && md.args.len() <= 3 => math = Some(md),
                "t" => {
                    find.time = true;
                    if let Some(a) = md.args.first() {
                        let a = arg(a);
                        if a.contains('p') {
                            find.pretty = true;
                        } else if a.contains('f') && md.args.len() >= 2 {
                            find.time_format = md.args.get(1).copied();
                        }
                    }
                }
                "q" => {
                    if md.args.first().is_some_and(|a| arg(a).contains('h')) {
                        find.quote_hash = true;
                    } else {
                        find.quote_shell = true;
                    }
                }
                _ => {}
            }
        }
        // The time format is an argument like the others (expanded), where `#:` stands
        // for the `:` that would end the modifiers (tmux's format_strip).
        let time_format = find.time_format.map(|s| arg(s).replace("#:", ":"));
        find.time_format = time_format.as_deref();

        let mut value = if literal {
            key.to_string()
        } else if char_ {
            m::ascii_char(&arg(key))
        } else if colour {
            m::colour_hex(&arg(key))
        } else if let Some(which) = loop_ {
            self.run_loop(ctx, which, key, d)
        } else if let Some(sessions) = name_check {
            let name = arg(key);
            let items = if sessions {
                ctx.sessions()
            } else {
                ctx.windows()
            };
            let var = if sessions {
                "session_name"
            } else {
                "window_name"
            };
            let found = items
                .iter()
                .any(|i| i.ctx.var(var).as_deref() == Some(&name));
            flag(found)
        } else if search {
            // Searching pane content is not the engine's to do: never found.
            "0".to_string()
        } else if let Some(md) = math {
            let (l, r) = self.choose(ctx, key, true, d)?;
            let args: Vec<String> = md.args.iter().map(|a| arg(a)).collect();
            m::math(&args, &l, &r).ok_or(Fail)?
        } else if let Some(md) = cmp {
            let (l, r) = self.choose(ctx, key, true, d)?;
            match md.name {
                "||" => flag(is_true(&l) || is_true(&r)),
                "&&" => flag(is_true(&l) && is_true(&r)),
                "==" => flag(l == r),
                "!=" => flag(l != r),
                "<" => flag(l < r),
                ">" => flag(l > r),
                "<=" => flag(l <= r),
                ">=" => flag(l >= r),
                _ => {
                    let flags = md.args.first().map(|a| arg(a)).unwrap_or_default();
                    flag(m::matches(&l, &r, flags.contains('r'), flags.contains('i')))
                }
            }
        } else if let Some(rest) = key.strip_prefix('?') {
            let comma = skip(rest, b",").ok_or(Fail)?;
            let cond = &rest[..comma];
            let found = match self.find(ctx, cond, find) {
                Some(v) => v,
                None => {
                    let e = self.expand(ctx, cond, false, d);
                    if e == cond { String::new() } else { e }
                }
            };
            let (a, b) = self.choose(ctx, &rest[comma + 1..], false, d)?;
            self.expand(ctx, if is_true(&found) { &a } else { &b }, false, d)
        } else if key.contains("#{") {
            self.expand(ctx, key, false, d)
        } else {
            self.find(ctx, key, find).unwrap_or_default()
        };

        if expand_again || expand_time {
            value = self.expand(ctx, &value, expand_time, d);
        }
        for s in subs {
            let (pat, with) = (arg(s.args[0]), arg(s.args[1]));
            let icase = s.args.get(2).is_some_and(|f| arg(f).contains('i'));
            value = m::substitute(&value, &pat, &with, icase);
        }
        if limit != 0 {
            let mark = marker.as_deref().map(|mk| {
                if limit > 0 {
                    Marker::After(mk)
                } else {
                    Marker::Before(mk)
                }
            });
            value = m::trim(&value, limit, mark);
        }
        if pad != 0 {
            value = m::pad(&value, pad);
        }
        if length {
            value = value.len().to_string();
        }
        if width {
            value = m::width(&value).to_string();
        }
        Ok(value)
    }

    /// `format_choose`: `a,b` split at the first comma outside `#{}`, each side
    /// expanded when `expand`.
    fn choose(
        &self,
        ctx: &dyn FormatContext,
        s: &str,
        expand: bool,
        depth: usize,
    ) -> Result<(String, String), Fail> {
        let comma = skip(s, b",").ok_or(Fail)?;
        let (l, r) = (&s[..comma], &s[comma + 1..]);
        if expand {
            Ok((
                self.expand(ctx, l, false, depth),
                self.expand(ctx, r, false, depth),
            ))
        } else {
            Ok((l.to_string(), r.to_string()))
        }
    }

    /// `#{S:fmt}`, `#{W:fmt,current}`, `#{P:fmt,current}`.
    fn run_loop(&self, ctx: &dyn FormatContext, which: char, fmt: &str, depth: usize) -> String {
        let (all, current) = match (which, skip(fmt, b",")) {
            ('S', _) | (_, None) => (fmt, None),
            (_, Some(c)) => (&fmt[..c], Some(&fmt[c + 1..])),
        };
        let items = match which {
            'S' => ctx.sessions(),
            'W' => ctx.windows(),
            _ => ctx.panes(),
        };
        let mut out = String::new();
        for item in items.iter().take(MAX_LOOP_ITEMS) {
            let f = match current {
                Some(c) if item.current => c,
                _ => all,
            };
            let v = self.expand(item.ctx.as_ref(), f, false, depth);
            push_bounded(&mut out, &v);
            if out.len() >= MAX_OUTPUT {
                break;
            }
        }
        out
    }
}

fn flag(b: bool) -> String {
    if b { "1" } else { "0" }.to_string()
}

/// The `)` closing `#(`, counting nested parentheses as tmux does.
fn matching_paren(after: &str) -> Option<usize> {
    let mut depth: usize = 0;
    for (i, c) in after.bytes().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}
