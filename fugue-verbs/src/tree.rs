//! What the terminal client's own choosers (`display-panes`, `choose-tree`,
//! `find-window`, `choose-client`; issue 16) share with tmux: its template
//! substitution, and the literal match of `find-window`. Their flags are their
//! declarations' (`fugue_protocol::flags`).

/// `s` with the characters a regular expression gives meaning to escaped.
pub fn regex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `%%` (and `%1`) in a template replaced by `with`, as tmux's template
/// substitution does for a chooser's item; one pass, so a pane id put in (`%13`) is
/// not looked at again.
pub fn substitute(template: &str, with: &str) -> String {
    let mut out = String::with_capacity(template.len() + with.len());
    let mut rest = template;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if after.starts_with('%') || after.starts_with('1') {
            out.push_str(with);
            rest = &after[1..];
        } else {
            out.push('%');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_take_the_item_and_find_window_matches_as_tmux() {
        assert_eq!(
            substitute("select-pane -t '%%'", "%3"),
            "select-pane -t '%3'"
        );
        assert_eq!(substitute("a %% b %1 c %x", "%13"), "a %13 b %13 c %x");
        assert_eq!(regex_escape("a.b*"), "a\\.b\\*");
    }
}
