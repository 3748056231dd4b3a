//! tmux's command language, sans IO: a line (or a file) of tmux commands turned into
//! argv vectors, and argv turned back into text the way tmux prints it (`list-keys`).
//!
//! One parser for every place commands are typed: `C-b :`, `source-file`, `bind-key`'s
//! command and `fugue COMMAND` sequences. What an argv means (its verb and flags) is the
//! CLI's table, not this module's: this only splits text into words as tmux does.
//!
//! Supported: whitespace-separated words; `'single'` quotes (literal); `"double"` quotes
//! with `\"` `\\` `\$` `\n` `\t` `\e` `\uXXXX` escapes and `$VAR`/`${VAR}` expansion;
//! `\` escapes outside quotes; `~` and `~/` at a word's start (home); `#` comments at a
//! word's start; `;` ending a command and `\;` (or `';'`) as a literal `;` word;
//! `{ ... }` blocks, passed as one argument holding the block's text (as tmux does for
//! `bind-key x { ... }`); a trailing `\` continuing a line, and `%if`/`%elif`/`%else`/
//! `%endif` in files with literal conditions (formats come with the format engine).

use std::fmt;

/// One command's words.
pub type Argv = Vec<String>;

/// Limits: text comes from users and files; these bound what one parse can build.
pub const MAX_LINE: usize = 64 * 1024;
/// Commands in one sequence.
pub const MAX_COMMANDS: usize = 1024;
/// Nested `{ }` blocks or `%if`s.
pub const MAX_DEPTH: usize = 32;
/// Longest `$NAME` (tmux's 1022 bytes).
pub const MAX_VAR_NAME: usize = 1022;

/// Why a command line could not be split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

fn err<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(msg.into()))
}

/// Where `$VAR` and `~` expansion look things up (the caller's environment; tests give
/// their own).
pub trait Env {
    fn var(&self, name: &str) -> Option<String>;
    fn home(&self) -> Option<String> {
        self.var("HOME")
    }
}

/// The process environment.
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

/// No environment: `$X` expands to nothing, `~` stays `~`.
pub struct NoEnv;

impl Env for NoEnv {
    fn var(&self, _: &str) -> Option<String> {
        None
    }
}

/// Splits a command string (possibly several lines) into commands.
pub fn parse(text: &str, env: &dyn Env) -> Result<Vec<Argv>, ParseError> {
    if text.len() > MAX_LINE {
        return err(format!("command too long (over {MAX_LINE} bytes)"));
    }
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
        env,
    };
    p.commands(0)
}

struct Parser<'a> {
    chars: Vec<char>,
    pos: usize,
    env: &'a dyn Env,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos.saturating_add(n)).copied()
    }

    /// Commands until the end (or a `}` closing a block when `depth > 0`).
    fn commands(&mut self, depth: usize) -> Result<Vec<Argv>, ParseError> {
        let mut out: Vec<Argv> = Vec::new();
        let mut cur: Argv = Vec::new();
        loop {
            match self.peek() {
                None => {
                    if depth > 0 {
                        return err("missing }");
                    }
                    break;
                }
                Some(' ' | '\t' | '\r') => self.pos += 1,
                Some('\\') if self.peek_at(1) == Some('\n') => self.pos += 2,
                Some('\n' | ';') => {
                    self.pos += 1;
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                }
                Some('#') => {
                    while !matches!(self.peek(), None | Some('\n')) {
                        self.pos += 1;
                    }
                }
                Some('}') if depth > 0 && self.word_ends_at(1) => {
                    self.pos += 1;
                    break;
                }
                Some('{') if self.word_ends_at(1) => {
                    if depth + 1 > MAX_DEPTH {
                        return err("{ } nested too deeply");
                    }
                    self.pos += 1;
                    let start = self.pos;
                    self.commands(depth + 1)?;
                    // The block's argument is its text, as tmux passes it: the command
                    // it names parses it again when it runs.
                    let end = self.pos.saturating_sub(1);
                    let inner: String = self.chars[start..end].iter().collect();
                    cur.push(inner.trim().to_string());
                }
                Some(_) => {
                    if let Some(word) = self.word()? {
                        cur.push(word);
                    }
                }
            }
            if out.len() > MAX_COMMANDS {
                return err(format!("more than {MAX_COMMANDS} commands"));
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
        Ok(out)
    }

    /// Whether the character `n` ahead ends a word (so `{` or `}` there stands alone).
    fn word_ends_at(&self, n: usize) -> bool {
        matches!(self.peek_at(n), None | Some(' ' | '\t' | '\r' | '\n' | ';'))
    }

    /// One word. None for a word that was only an unquoted empty expansion (`$UNSET`),
    /// which tmux drops.
    fn word(&mut self) -> Result<Option<String>, ParseError> {
        let mut w = String::new();
        let mut quoted = false;
        let start = self.pos;
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\r' | '\n' => break,
                ';' => {
                    // `a;` ends a command; `\;` (an escaped semicolon) is handled below.
                    break;
                }
                '\\' => {
                    self.pos += 1;
                    match self.peek() {
                        None => break,
                        Some('\n') => {
                            self.pos += 1;
                            break;
                        }
                        Some(_) => {
                            // tmux reads the same escapes outside quotes as inside.
                            quoted = true;
                            self.escape(&mut w)?;
                        }
                    }
                }
                '\'' => {
                    self.pos += 1;
                    quoted = true;
                    loop {
                        match self.peek() {
                            None => return err("missing closing '"),
                            Some('\'') => {
                                self.pos += 1;
                                break;
                            }
                            Some(c) => {
                                self.pos += 1;
                                w.push(c);
                            }
                        }
                    }
                }
                '"' => {
                    self.pos += 1;
                    quoted = true;
                    self.double_quoted(&mut w)?;
                }
                '$' => {
                    self.pos += 1;
                    self.variable(&mut w)?;
                }
                '~' if self.pos == start => {
                    self.pos += 1;
                    match self.peek() {
                        None | Some('/' | ' ' | '\t' | '\n' | ';') => match self.env.home() {
                            Some(h) => w.push_str(&h),
                            None => w.push('~'),
                        },
                        _ => w.push('~'),
                    }
                }
                c => {
                    self.pos += 1;
                    w.push(c);
                }
            }
        }
        Ok((quoted || !w.is_empty()).then_some(w))
    }

    fn double_quoted(&mut self, w: &mut String) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                None => return err("missing closing \""),
                Some('"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some('\\') => {
                    self.pos += 1;
                    if self.peek().is_none() {
                        return err("missing closing \"");
                    }
                    self.escape(w)?;
                }
                Some('$') => {
                    self.pos += 1;
                    self.variable(w)?;
                }
                Some(c) => {
                    self.pos += 1;
                    w.push(c);
                }
            }
        }
    }

    /// The escape after a `\` (at `self.pos`), as tmux reads it.
    fn escape(&mut self, w: &mut String) -> Result<(), ParseError> {
        let Some(e) = self.peek() else {
            return Ok(());
        };
        self.pos += 1;
        match e {
            'n' => w.push('\n'),
            't' => w.push('\t'),
            'r' => w.push('\r'),
            'e' => w.push('\x1b'),
            'a' => w.push('\x07'),
            'b' => w.push('\x08'),
            'f' => w.push('\x0c'),
            's' => w.push(' '),
            'v' => w.push('\x0b'),
            '\n' => {}
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                let hex: String = (0..n).filter_map(|i| self.peek_at(i)).collect();
                let c = (hex.len() == n)
                    .then(|| u32::from_str_radix(&hex, 16).ok())
                    .flatten()
                    .and_then(char::from_u32);
                match c {
                    Some(c) => {
                        self.pos += n;
                        w.push(c);
                    }
                    None => return err(format!("invalid \\{e} escape")),
                }
            }
            '0'..='7' => {
                // tmux: three octal digits.
                let digits: String = std::iter::once(e)
                    .chain((0..2).filter_map(|i| self.peek_at(i)))
                    .collect();
                match u32::from_str_radix(&digits, 8)
                    .ok()
                    .and_then(char::from_u32)
                {
                    Some(c) if digits.len() == 3 => {
                        self.pos += 2;
                        w.push(c);
                    }
                    _ => return err("invalid octal escape"),
                }
            }
            other => w.push(other),
        }
        Ok(())
    }

    /// `$NAME` or `${NAME}` after the `$`; a lone `$` stays.
    fn variable(&mut self, w: &mut String) -> Result<(), ParseError> {
        let braced = self.peek() == Some('{');
        if braced {
            self.pos += 1;
        }
        // As tmux's lexer: a name starts with a letter or `_`, so `$1` (a session id,
        // `-t $1`) stays as written instead of expanding to nothing.
        if !braced
            && !self
                .peek()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            w.push('$');
            return Ok(());
        }
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                if name.len() >= MAX_VAR_NAME {
                    return err("environment variable is too long");
                }
                name.push(c);
                self.pos += 1;
            } else {
                break;
            }
        }
        if braced {
            if self.peek() != Some('}') {
                return err("missing } after ${");
            }
            self.pos += 1;
        }
        if name.is_empty() && !braced {
            w.push('$');
            return Ok(());
        }
        if let Some(v) = self.env.var(&name) {
            w.push_str(&v);
        }
        Ok(())
    }
}

/// One command of a file, with the line it started on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileCommand {
    pub line: usize,
    pub argv: Argv,
}

/// A file's commands, and the lines that could not be parsed (`line`, message); a bad
/// line does not stop the rest, as in tmux. `%if` conditions are taken literally here
/// (empty or `0` is false); [`parse_file_with`] expands them as formats first.
pub fn parse_file(text: &str, env: &dyn Env) -> (Vec<FileCommand>, Vec<(usize, String)>) {
    parse_file_with(text, env, &|s: &str| s.to_string())
}

/// [`parse_file`], with `%if`/`%elif` conditions expanded by `expand` first (a format
/// against the server's state, as tmux expands them).
pub fn parse_file_with(
    text: &str,
    env: &dyn Env,
    expand: &dyn Fn(&str) -> String,
) -> (Vec<FileCommand>, Vec<(usize, String)>) {
    let mut cmds = Vec::new();
    let mut errors = Vec::new();
    // The file's own `NAME=VALUE` assignments, seen by its later `$NAME`s.
    let mut assigned = Assigned {
        vars: std::collections::HashMap::new(),
        inner: env,
    };
    // (taking this branch, some branch already taken)
    let mut conds: Vec<(bool, bool)> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let first = i + 1;
        let mut buf = String::from(lines[i]);
        i += 1;
        // Joined while a line ends in `\` or a `{` is open.
        while (ends_continued(&buf) || open_braces(&buf) > 0) && i < lines.len() {
            if ends_continued(&buf) {
                buf.pop();
            } else {
                buf.push('\n');
            }
            buf.push_str(lines[i]);
            i += 1;
        }
        let trimmed = buf.trim();
        let active = conds.iter().all(|(on, _)| *on);
        if let Some(rest) = trimmed.strip_prefix('%') {
            let (word, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let truth = || {
                let v = parse(arg, env)
                    .ok()
                    .and_then(|c| c.into_iter().next())
                    .and_then(|a| a.into_iter().next())
                    .unwrap_or_default();
                crate::format::is_true(&expand(&v))
            };
            match word {
                "if" => {
                    if conds.len() >= MAX_DEPTH {
                        errors.push((first, "%if nested too deeply".into()));
                        continue;
                    }
                    let t = active && truth();
                    conds.push((t, t));
                }
                "elif" => match conds.last_mut() {
                    Some(c) => {
                        let t = !c.1 && truth();
                        *c = (t, c.1 || t);
                    }
                    None => errors.push((first, "%elif without %if".into())),
                },
                "else" => match conds.last_mut() {
                    Some(c) => *c = (!c.1, true),
                    None => errors.push((first, "%else without %if".into())),
                },
                "endif" => {
                    if conds.pop().is_none() {
                        errors.push((first, "%endif without %if".into()));
                    }
                }
                "hidden" if !active => {}
                // tmux: an assignment kept out of new programs' environment.
                "hidden" => match assignment(arg, &assigned) {
                    Some((name, value)) => {
                        let argv = vec![
                            "set-environment".into(),
                            "-gh".into(),
                            name.clone(),
                            value.clone(),
                        ];
                        cmds.push(FileCommand { line: first, argv });
                        assigned.vars.insert(name, value);
                    }
                    None => errors.push((first, "%hidden needs NAME=VALUE".into())),
                },
                other => errors.push((first, format!("unknown directive %{other}"))),
            }
            continue;
        }
        if !active {
            continue;
        }
        // tmux: `NAME=VALUE` alone on a line sets it in the global environment.
        if let Some((name, value)) = assignment(&buf, &assigned) {
            let argv = vec![
                "set-environment".into(),
                "-g".into(),
                name.clone(),
                value.clone(),
            ];
            cmds.push(FileCommand { line: first, argv });
            assigned.vars.insert(name, value);
            continue;
        }
        match parse(&buf, &assigned) {
            Ok(list) => cmds.extend(
                list.into_iter()
                    .map(|argv| FileCommand { line: first, argv }),
            ),
            Err(e) => errors.push((first, e.0)),
        }
    }
    if !conds.is_empty() {
        errors.push((lines.len(), "missing %endif".into()));
    }
    (cmds, errors)
}

/// A config file's environment: its own assignments over the caller's.
struct Assigned<'a> {
    vars: std::collections::HashMap<String, String>,
    inner: &'a dyn Env,
}

impl Env for Assigned<'_> {
    fn var(&self, name: &str) -> Option<String> {
        self.vars
            .get(name)
            .cloned()
            .or_else(|| self.inner.var(name))
    }
    fn home(&self) -> Option<String> {
        self.inner.home()
    }
}

/// `NAME=VALUE` as the whole of a command (tmux's assignment): the name and the value,
/// quoted and expanded as any word.
fn assignment(text: &str, env: &dyn Env) -> Option<(String, String)> {
    let first = text.trim_start();
    let eq = first.find('=')?;
    let name = &first[..eq];
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return None;
    }
    let mut words = parse(text, env).ok()?.into_iter();
    let (Some(argv), None) = (words.next(), words.next()) else {
        return None;
    };
    let [word] = argv.as_slice() else {
        return None;
    };
    let (name, value) = word.split_once('=')?;
    Some((name.to_string(), value.to_string()))
}

fn ends_continued(s: &str) -> bool {
    let n = s.chars().rev().take_while(|c| *c == '\\').count();
    n % 2 == 1
}

/// `{` words not closed on this text (outside quotes), for joining a block's lines.
fn open_braces(s: &str) -> usize {
    let mut depth = 0usize;
    let (mut sq, mut dq, mut esc) = (false, false, false);
    let mut at_word_start = true;
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let ends = |j: usize| matches!(chars.get(j), None | Some(' ' | '\t' | '\n' | ';'));
        if esc {
            esc = false;
        } else if sq {
            sq = c != '\'';
        } else if dq {
            if c == '\\' {
                esc = true;
            }
            dq = c != '"';
        } else {
            match c {
                '\\' => esc = true,
                '\'' => sq = true,
                '"' => dq = true,
                '#' if at_word_start => break,
                '{' if at_word_start && ends(i + 1) => depth += 1,
                '}' if at_word_start && ends(i + 1) => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        at_word_start = matches!(c, ' ' | '\t' | '\n' | ';') && !sq && !dq;
    }
    depth
}

/// One word as tmux prints it (its `args_escape`), so that [`parse`] reads it back.
pub fn escape(s: &str) -> String {
    const DQUOTED: &[char] = &[' ', '#', '\'', ';', '$', '{', '}', '%'];
    const SQUOTED: &[char] = &[' ', '"'];
    if s.is_empty() {
        return "''".into();
    }
    let quote = if s.contains(DQUOTED) {
        Some('"')
    } else if s.contains(SQUOTED) {
        // Single quotes are literal: a word needing escapes inside them would not read
        // back (tmux prints it so anyway), so it goes in double quotes.
        if s.contains(|c: char| c == '\\' || c.is_control()) {
            Some('"')
        } else {
            Some('\'')
        }
    } else {
        None
    };
    let mut chars = s.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && c != ' '
        && (quote.is_some() || c == '~')
    {
        return format!("\\{c}");
    }
    let dq = quote == Some('"');
    let mut v = String::new();
    for c in s.chars() {
        match c {
            '\n' => v.push_str("\\n"),
            '\t' => v.push_str("\\t"),
            '\r' => v.push_str("\\r"),
            '\\' => v.push_str("\\\\"),
            '"' if dq => v.push_str("\\\""),
            '$' if dq => v.push_str("\\$"),
            c if c.is_control() => {
                // vis's octal form; tmux reads `\ooo` back in double quotes.
                let n = c as u32;
                v.push_str(&format!("\\{:03o}", n & 0o777));
            }
            c => v.push(c),
        }
    }
    let tilde = v.starts_with('~');
    match quote {
        Some('\'') => format!("'{v}'"),
        Some(_) if tilde => format!("\"\\{v}\""),
        Some(_) => format!("\"{v}\""),
        None if tilde => format!("\\{v}"),
        None => v,
    }
}

/// Commands as tmux prints a sequence: words escaped, commands joined by ` \; `.
pub fn print_sequence(cmds: &[Argv]) -> String {
    cmds.iter()
        .map(|argv| argv.iter().map(|a| escape(a)).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(" \\; ")
}

/// A command's arguments split at `;` words into a sequence, as `bind-key` and
/// `fugue COMMAND ...` take one (`bind x split-window \; new-window`). A single argument
/// holding a whole sequence (`bind x "a ; b"`, a `{ }` block) is parsed again.
pub fn split_sequence(args: &[String], env: &dyn Env) -> Result<Vec<Argv>, ParseError> {
    if let [one] = args {
        return parse(one, env);
    }
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for a in args {
        if a == ";" {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(a.clone());
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    if out.len() > MAX_COMMANDS {
        return err(format!("more than {MAX_COMMANDS} commands"));
    }
    Ok(out)
}

#[cfg(test)]
#[path = "tmux_cmd_tests.rs"]
mod tests;
