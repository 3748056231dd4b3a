//! A command line's words split into a command sequence as tmux splits its own
//! arguments: a word `;` ends a command, a word ending in `;` ends one after the rest
//! of the word, and `\;` at a word's end is a literal `;` (`tmux display x \; display y`
//! reaches tmux as the words `x`, `;`, ...; a shell's `'a\;'` keeps the `;`).

use fugue_protocol::tmux_cmd::Argv;

/// The commands in `words`, each with at least one word. A trailing separator ends
/// the last command; empty commands (`a ; ; b`) are dropped, as tmux does.
pub fn split(words: &[String]) -> Vec<Argv> {
    let mut out = Vec::new();
    let mut cur: Argv = Vec::new();
    for w in words {
        match w.strip_suffix(';') {
            Some(rest) if rest.ends_with('\\') => {
                let mut lit = rest[..rest.len() - 1].to_string();
                lit.push(';');
                cur.push(lit);
            }
            Some(rest) => {
                if !rest.is_empty() {
                    cur.push(rest.to_string());
                }
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            None => cur.push(w.clone()),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether `words` hold more than one command (or a separator at all).
pub fn has_separator(words: &[String]) -> bool {
    words
        .iter()
        .any(|w| w.ends_with(';') && !w.ends_with("\\;"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn splits_as_tmux() {
        assert_eq!(
            split(&words(&[
                "display", "-p", "one", ";", "display", "-p", "two"
            ])),
            vec![
                words(&["display", "-p", "one"]),
                words(&["display", "-p", "two"])
            ]
        );
        assert_eq!(
            split(&words(&["display", "-p", "one;", "display", "-p", "two"])),
            vec![
                words(&["display", "-p", "one"]),
                words(&["display", "-p", "two"])
            ]
        );
        assert_eq!(
            split(&words(&["display", "-p", "x\\;", ";", "display"])),
            vec![words(&["display", "-p", "x;"]), words(&["display"])]
        );
        assert_eq!(
            split(&words(&["a", ";", ";", "b", ";"])),
            vec![words(&["a"]), words(&["b"])]
        );
        assert!(!has_separator(&words(&["send-keys", "x\\;"])));
        assert!(has_separator(&words(&["a", ";", "b"])));
    }
}
