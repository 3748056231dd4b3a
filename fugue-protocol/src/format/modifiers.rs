//! What the modifiers do to a value: trimming, padding, substitution, matching,
//! arithmetic, quoting, paths.

use unicode_width::UnicodeWidthChar;

/// A regular expression compiles to at most this much memory (`m/r`, `s/`): a hostile
/// pattern fails (no match, no substitution) instead of growing without bound.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
/// `#{e|..|f|N:}` prints at most this many decimals.
const MAX_DECIMALS: usize = 64;

/// tmux's `strtonum`: a whole decimal integer, nothing else.
pub(super) fn strtonum(s: &str) -> Option<i64> {
    s.parse().ok()
}

fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// The display width of `s` (`#{w:}`).
pub(super) fn width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// A trim's marker, added where text was cut.
pub(super) enum Marker<'a> {
    After(&'a str),
    Before(&'a str),
}

/// `#{=N:}`: at most `N` columns from the start (`N > 0`) or the end (`N < 0`).
pub(super) fn trim(s: &str, limit: i64, marker: Option<Marker<'_>>) -> String {
    let max = usize::try_from(limit.unsigned_abs()).unwrap_or(usize::MAX);
    let kept: String = if limit > 0 {
        let mut w = 0usize;
        s.chars()
            .take_while(|c| {
                w = w.saturating_add(char_width(*c));
                w <= max
            })
            .collect()
    } else {
        let mut w = 0usize;
        let mut rev: Vec<char> = s
            .chars()
            .rev()
            .take_while(|c| {
                w = w.saturating_add(char_width(*c));
                w <= max
            })
            .collect();
        rev.reverse();
        rev.into_iter().collect()
    };
    if kept.len() == s.len() {
        return kept;
    }
    match marker {
        Some(Marker::After(m)) => kept + m,
        Some(Marker::Before(m)) => format!("{m}{kept}"),
        None => kept,
    }
}

/// `#{pN:}`: at least `N` columns. tmux 3.3a pads a positive `N` on the right (the
/// text stays left) and a negative one on the left (its manual says the reverse).
pub(super) fn pad(s: &str, n: i64) -> String {
    let want = usize::try_from(n.unsigned_abs())
        .unwrap_or(usize::MAX)
        .min(super::MAX_OUTPUT);
    let have = width(s);
    if have >= want {
        return s.to_string();
    }
    let spaces = " ".repeat(want - have);
    if n > 0 {
        format!("{s}{spaces}")
    } else {
        format!("{spaces}{s}")
    }
}

/// basename(3): the last component; `/` for `/`, `.` for empty.
pub(super) fn basename(s: &str) -> String {
    if s.is_empty() {
        return ".".into();
    }
    let t = s.trim_end_matches('/');
    if t.is_empty() {
        return "/".into();
    }
    t.rsplit('/').next().unwrap_or(t).to_string()
}

/// dirname(3): all but the last component.
pub(super) fn dirname(s: &str) -> String {
    let t = s.trim_end_matches('/');
    if t.is_empty() {
        return if s.is_empty() { "." } else { "/" }.into();
    }
    match t.rfind('/') {
        None => ".".into(),
        Some(i) => {
            let d = t[..i].trim_end_matches('/');
            if d.is_empty() {
                "/".into()
            } else {
                d.to_string()
            }
        }
    }
}

/// `#{q:}`: `s` as one sh(1) word. tmux puts a backslash before each of
/// ``|&;<>()$`\"'*?[# =%``; fugue also quotes `~` (tilde expansion), tabs (a word
/// separator) and newlines (a backslash-newline is a line continuation, so a newline
/// is written `'\n'`), so every string round-trips through sh.
pub fn quote_shell(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 2);
    for c in s.chars() {
        if c == '\n' {
            out.push_str("'\n'");
            continue;
        }
        if "|&;<>()$`\\\"'*?[# =%~\t".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `#{a:98}`: the ASCII character of a number (empty unless printable).
pub(super) fn ascii_char(s: &str) -> String {
    match strtonum(s) {
        Some(n @ 32..=126) => u8::try_from(n)
            .map(|b| char::from(b).to_string())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// `#{c:red}`: a colour as six hex digits, for the colours fugue's styles name
/// (the eight basic ones, their bright forms, `colourN`, `#rrggbb`); empty otherwise.
pub(super) fn colour_hex(s: &str) -> String {
    super::style::Colour::parse(s)
        .and_then(|c| c.rgb())
        .map(|(r, g, b)| format!("{r:02x}{g:02x}{b:02x}"))
        .unwrap_or_default()
}

/// `#{e|op|flags|decimals:a,b}`. None (the expansion stops, as tmux's does) for a
/// bad number or operator; fugue also stops at a division by zero and an overflow,
/// where tmux prints an undefined value.
pub(super) fn math(args: &[String], l: &str, r: &str) -> Option<String> {
    let op = args.first()?.as_str();
    let float = args.get(1).is_some_and(|f| f.contains('f'));
    let decimals = match args.get(2) {
        Some(d) => usize::try_from(strtonum(d)?).ok()?.min(MAX_DECIMALS),
        None if float => 2,
        None => 0,
    };
    let a: f64 = l.trim_start().parse().ok()?;
    let b: f64 = r.trim_start().parse().ok()?;
    let cmp = |x: bool| Some(if x { 1.0 } else { 0.0 });
    if float {
        let v = match op {
            "+" => Some(a + b),
            "-" => Some(a - b),
            "*" => Some(a * b),
            "/" if b != 0.0 => Some(a / b),
            "m" | "%" if b != 0.0 => Some(a % b),
            "==" => cmp(a == b),
            "!=" => cmp(a != b),
            "<" => cmp(a < b),
            ">" => cmp(a > b),
            "<=" => cmp(a <= b),
            ">=" => cmp(a >= b),
            _ => None,
        }?;
        if !v.is_finite() {
            return None;
        }
        return Some(format!("{v:.decimals$}"));
    }
    // Integers: the operands truncated, as tmux's `(long long)` casts do.
    if !a.is_finite() || !b.is_finite() || a.abs() >= 9.2e18 || b.abs() >= 9.2e18 {
        return None;
    }
    let (x, y) = (a.trunc() as i64, b.trunc() as i64);
    let v = match op {
        "+" => x.checked_add(y),
        "-" => x.checked_sub(y),
        "*" => x.checked_mul(y),
        "/" => x.checked_div(y),
        "m" | "%" => x.checked_rem(y),
        "==" => Some(i64::from(x == y)),
        "!=" => Some(i64::from(x != y)),
        "<" => Some(i64::from(x < y)),
        ">" => Some(i64::from(x > y)),
        "<=" => Some(i64::from(x <= y)),
        ">=" => Some(i64::from(x >= y)),
        _ => None,
    }?;
    if decimals > 0 {
        return Some(format!("{:.decimals$}", v as f64));
    }
    Some(v.to_string())
}

fn regex(pat: &str, icase: bool) -> Option<regex::Regex> {
    regex::RegexBuilder::new(pat)
        .case_insensitive(icase)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .ok()
}

/// `#{m:pattern,text}`: fnmatch(3), or an extended regular expression with `r`.
pub(super) fn matches(pat: &str, text: &str, re: bool, icase: bool) -> bool {
    if re {
        return regex(pat, icase).is_some_and(|r| r.is_match(text));
    }
    if icase {
        glob(&pat.to_lowercase(), &text.to_lowercase())
    } else {
        glob(pat, text)
    }
}

/// fnmatch(3) without flags: `*`, `?`, `[...]` (with `!`/`^` and ranges), `\`
/// escapes. Linear backtracking over the last `*`, so no input is slow.
pub fn glob(pat: &str, text: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        let step = match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            Some('?') => Some(pi + 1),
            Some('[') => class(&p, pi, t[ti]),
            Some('\\') if pi + 1 < p.len() => (p[pi + 1] == t[ti]).then_some(pi + 2),
            Some(c) => (*c == t[ti]).then_some(pi + 1),
            None => None,
        };
        match (step, star) {
            (Some(next), _) => {
                pi = next;
                ti += 1;
            }
            (None, Some((sp, st))) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            (None, None) => return false,
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// A bracket expression at `p[start]`: the index after it if `c` matches it. An
/// unclosed `[` is a plain `[`.
fn class(p: &[char], start: usize, c: char) -> Option<usize> {
    let mut i = start + 1;
    let negate = matches!(p.get(i), Some('!') | Some('^'));
    if negate {
        i += 1;
    }
    let mut found = false;
    let mut first = true;
    loop {
        let ch = *p.get(i)?;
        if ch == ']' && !first {
            break;
        }
        first = false;
        if p.get(i + 1) == Some(&'-') && p.get(i + 2).is_some_and(|e| *e != ']') {
            if (ch..=p[i + 2]).contains(&c) {
                found = true;
            }
            i += 3;
        } else {
            if ch == c {
                found = true;
            }
            i += 1;
        }
    }
    (found != negate).then_some(i + 1)
}

/// `#{s/pat/with/flags:}`: every match of the regular expression replaced, `\1`..`\9`
/// standing for groups as in tmux. A bad pattern leaves the value as it is.
pub(super) fn substitute(value: &str, pat: &str, with: &str, icase: bool) -> String {
    let Some(re) = regex(pat, icase) else {
        return value.to_string();
    };
    // tmux's `\1` is regex's `${1}`; a `$` in the replacement is literal.
    let mut rep = String::with_capacity(with.len());
    let mut chars = with.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|d| d.is_ascii_digit()) => {
                if let Some(d) = chars.next() {
                    rep.push_str(&format!("${{{d}}}"));
                }
            }
            '$' => rep.push_str("$$"),
            c => rep.push(c),
        }
    }
    let out = re.replace_all(value, rep.as_str()).into_owned();
    if out.len() > super::MAX_OUTPUT {
        return value.to_string();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("m*", "main"));
        assert!(glob("*", ""));
        assert!(glob("a?c", "abc"));
        assert!(glob("[a-c]x", "bx"));
        assert!(!glob("[!a-c]x", "bx"));
        assert!(glob("*a*a*a*b", "aaaaaaaaab"));
        assert!(!glob("*a*a*a*b", &"a".repeat(5000)));
        assert!(glob("\\*", "*"));
    }

    #[test]
    fn paths() {
        assert_eq!(basename("/usr/local/bin"), "bin");
        assert_eq!(basename("/usr/"), "usr");
        assert_eq!(basename("/"), "/");
        assert_eq!(basename(""), ".");
        assert_eq!(dirname("/usr/local/bin"), "/usr/local");
        assert_eq!(dirname("/usr"), "/");
        assert_eq!(dirname("usr"), ".");
        assert_eq!(dirname("a//b"), "a");
    }

    #[test]
    fn arithmetic() {
        let a = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(math(&a(&["+"]), "1", "2").as_deref(), Some("3"));
        assert_eq!(math(&a(&["/"]), "7", "2").as_deref(), Some("3"));
        assert_eq!(
            math(&a(&["/", "f", "3"]), "7", "2").as_deref(),
            Some("3.500")
        );
        assert_eq!(math(&a(&["+", "f"]), "1", "2").as_deref(), Some("3.00"));
        assert_eq!(
            math(&a(&["m", "f", "2"]), "7.5", "2").as_deref(),
            Some("1.50")
        );
        assert_eq!(math(&a(&["+"]), "1.5", "2").as_deref(), Some("3"));
        assert_eq!(math(&a(&["+"]), "x", "2"), None);
        assert_eq!(math(&a(&["/"]), "1", "0"), None);
        assert_eq!(math(&a(&["*"]), "9000000000000000000", "9"), None);
        assert_eq!(math(&a(&["<"]), "1", "2").as_deref(), Some("1"));
        assert_eq!(math(&a(&["-"]), "1", "5").as_deref(), Some("-4"));
    }

    #[test]
    fn trims_and_pads_by_width() {
        assert_eq!(trim("日本語", 2, None), "日");
        assert_eq!(trim("main", -2, None), "in");
        assert_eq!(trim("main", 2, Some(Marker::After("..."))), "ma...");
        assert_eq!(trim("main", -2, Some(Marker::Before("..."))), "...in");
        assert_eq!(trim("ab", 2, Some(Marker::After("..."))), "ab");
        assert_eq!(pad("日", 5), "日   ");
        assert_eq!(pad("ab", -7), "     ab");
        assert_eq!(pad("abcdef", 3), "abcdef");
        assert_eq!(pad("", i64::MAX).len(), crate::format::MAX_OUTPUT);
    }

    #[test]
    fn substitutes_with_groups() {
        assert_eq!(substitute("abABab", "a(.)", "\\1x", true), "bxBxbx");
        assert_eq!(substitute("main", "a", "$0", false), "m$0in");
        assert_eq!(substitute("main", "(", "x", false), "main");
    }
}
