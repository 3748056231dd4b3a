//! Finding the ends of `#{...}` and splitting modifiers, as tmux's `format_skip` and
//! `format_build_modifiers` do.

/// Where in `s` (from its start) the first byte of `end` stands outside any nested
/// `#{...}`; `#,` `##` `#{` `#}` `#:` are escapes that never end anything. None when
/// there is none.
pub(super) fn skip(s: &str, end: &[u8]) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth: usize = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'#' && b.get(i + 1) == Some(&b'{') {
            depth += 1;
        }
        if c == b'#' && b.get(i + 1).is_some_and(|n| b",#{}:".contains(n)) {
            i += 2;
            continue;
        }
        if c == b'}' {
            depth = depth.saturating_sub(1);
        }
        if end.contains(&c) && depth == 0 {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The index of the `}` closing the `#{` at the start of `s`: tmux starts its skip on
/// the `#{` itself, so the `}` that brings the depth back to 0 ends the replacement.
pub(super) fn closing_brace(s: &str) -> Option<usize> {
    skip(s, b"}")
}

/// One modifier: its name (`=`, `s`, `==`, ...) and its arguments, still unexpanded.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Modifier<'a> {
    pub name: &'a str,
    pub args: Vec<&'a str>,
}

fn is_end(c: Option<&u8>) -> bool {
    matches!(c, Some(b';') | Some(b':'))
}

/// Splits `#{mods:key}`'s inside into its modifiers and key. No modifiers (the
/// inside is all key) when what comes before a `:` is not a modifier list.
pub(super) fn modifiers(s: &str) -> (Vec<Modifier<'_>>, &str) {
    let b = s.as_bytes();
    let mut list = Vec::new();
    let mut i = 0;
    while i < b.len() && b[i] != b':' {
        if b[i] == b';' {
            i += 1;
        }
        let Some(&c0) = b.get(i) else { break };
        if b"labcdnwETSWPL<>".contains(&c0) && is_end(b.get(i + 1)) {
            list.push(Modifier {
                name: &s[i..i + 1],
                args: Vec::new(),
            });
            i += 1;
            continue;
        }
        if let Some(two) = s.get(i..i + 2)
            && ["||", "&&", "!=", "==", "<=", ">="].contains(&two)
            && is_end(b.get(i + 2))
        {
            list.push(Modifier {
                name: two,
                args: Vec::new(),
            });
            i += 2;
            continue;
        }
        if !b"mCNst=peq".contains(&c0) {
            break;
        }
        let name = &s[i..i + 1];
        if is_end(b.get(i + 1)) {
            list.push(Modifier {
                name,
                args: Vec::new(),
            });
            i += 1;
            continue;
        }
        let Some(&c1) = b.get(i + 1) else { break };
        if !c1.is_ascii_punctuation() || c1 == b'-' {
            // One argument, no wrapper: up to the next `:` or `;`.
            let Some(end) = skip(&s[i + 1..], b":;") else {
                break;
            };
            list.push(Modifier {
                name,
                args: vec![&s[i + 1..i + 1 + end]],
            });
            i = i + 1 + end;
            continue;
        }
        // Arguments between a wrapper character (`s/a/b/`, `=|5|...`), each ending
        // at the wrapper, a `:` or a `;`.
        let wrap = [c1, b';', b':'];
        let mut args = Vec::new();
        i += 1;
        loop {
            if b.get(i) == Some(&c1) && is_end(b.get(i + 1)) {
                i += 1;
                break;
            }
            let Some(end) = s.get(i + 1..).and_then(|rest| skip(rest, &wrap)) else {
                break;
            };
            args.push(&s[i + 1..i + 1 + end]);
            i = i + 1 + end;
            if is_end(b.get(i)) {
                break;
            }
        }
        list.push(Modifier { name, args });
    }
    if b.get(i) != Some(&b':') {
        return (Vec::new(), s);
    }
    (list, &s[i + 1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_split_as_tmux_does() {
        let (m, k) = modifiers("=/5/...:pane_title");
        assert_eq!(k, "pane_title");
        assert_eq!(m[0].name, "=");
        assert_eq!(m[0].args, vec!["5", "..."]);
        let (m, k) = modifiers("s/a/b:x");
        assert_eq!((m[0].args.clone(), k), (vec!["a", "b"], "x"));
        let (m, k) = modifiers("T;=10:status-left");
        assert_eq!(m.len(), 2);
        assert_eq!(
            (m[0].name, m[1].name, m[1].args[0], k),
            ("T", "=", "10", "status-left")
        );
        let (m, k) = modifiers("e|*|f|4:5.5,3");
        assert_eq!((m[0].args.clone(), k), (vec!["*", "f", "4"], "5.5,3"));
        let (m, k) = modifiers("session_name");
        assert!(m.is_empty());
        assert_eq!(k, "session_name");
        let (m, k) = modifiers("?a:b,c,d");
        assert!(m.is_empty());
        assert_eq!(k, "?a:b,c,d");
        let (m, k) = modifiers("==:a,b");
        assert_eq!((m[0].name, k), ("==", "a,b"));
        let (m, _) = modifiers("=-2/...:x");
        assert_eq!(m[0].args, vec!["-2/..."]);
    }

    #[test]
    fn skips_nested_and_escaped() {
        assert_eq!(skip("#{a,b},c", b","), Some(6));
        assert_eq!(skip("a#,b,c", b","), Some(4));
        assert_eq!(skip("abc", b","), None);
        assert_eq!(closing_brace("#{a#{b}c}d"), Some(8));
        assert_eq!(closing_brace("#{a"), None);
    }
}
