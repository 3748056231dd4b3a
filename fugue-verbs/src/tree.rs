//! `display-panes`, `choose-tree` and `find-window`: the terminal client's own
//! choosers (issue 16). Keys and `C-b :` open them in the client; from the CLI the
//! command line goes to the clients attached to the session (as `display-menu`'s), so
//! each verb turns back into its argv here.

use clap::Args;

/// `display-panes [-bN] [-d duration] [-t target] [template]`.
#[derive(Args, Debug, Clone, Default)]
pub struct DisplayPanesArgs {
    /// tmux's -b (the client is not blocked while the numbers show): fugue's client
    /// never blocks on them, so it is accepted and changes nothing.
    #[arg(short = 'b')]
    pub background: bool,
    /// Milliseconds the numbers show; default the `display-panes-time` option.
    #[arg(short = 'd', value_name = "DURATION")]
    pub duration: Option<u32>,
    /// Keys are not taken: the numbers show until they time out.
    #[arg(short = 'N')]
    pub no_keys: bool,
    /// The session whose clients number their panes (from the CLI).
    #[arg(short = 't')]
    pub target: Option<String>,
    /// The command a digit runs, `%%` replaced by the pane (default
    /// `select-pane -t '%%'`).
    #[arg(trailing_var_arg = true)]
    pub template: Vec<String>,
}

/// `choose-tree [-GNrswZ] [-F format] [-f filter] [-K key-format] [-O sort-order]
/// [-t target] [template]`.
#[derive(Args, Debug, Clone, Default)]
pub struct ChooseTreeArgs {
    /// Sessions start collapsed.
    #[arg(short = 's')]
    pub sessions: bool,
    /// Windows start collapsed (their panes hidden), sessions expanded.
    #[arg(short = 'w')]
    pub windows: bool,
    /// Zoom the pane while choosing: fugue's tree covers every pane anyway.
    #[arg(short = 'Z')]
    pub zoom: bool,
    /// No preview of the selected item.
    #[arg(short = 'N')]
    pub no_preview: bool,
    /// Reverse the sort order.
    #[arg(short = 'r')]
    pub reverse: bool,
    /// Include all sessions in any session groups: accepted, the tree lists every
    /// session (grouped ones too) already.
    #[arg(short = 'G')]
    pub groups: bool,
    /// Each line's format (the item's own, as tmux's default otherwise).
    #[arg(short = 'F', value_name = "FORMAT")]
    pub format: Option<String>,
    /// Only items for which this format is true.
    #[arg(short = 'f', value_name = "FILTER")]
    pub filter: Option<String>,
    /// tmux's key format: accepted, fugue numbers the first ten items 0-9.
    #[arg(short = 'K', value_name = "KEY-FORMAT")]
    pub key_format: Option<String>,
    /// Sort order: index, name or time.
    #[arg(short = 'O', value_name = "SORT-ORDER")]
    pub sort: Option<String>,
    /// The session whose clients show the tree (from the CLI).
    #[arg(short = 't')]
    pub target: Option<String>,
    /// The command Enter runs, `%%` replaced by the item (default
    /// `switch-client -t '%%'`).
    #[arg(trailing_var_arg = true)]
    pub template: Vec<String>,
}

/// `find-window [-iCNrTZ] [-t target] match-string`.
#[derive(Args, Debug, Clone, Default)]
pub struct FindWindowArgs {
    /// Match the visible content of the windows' panes.
    #[arg(short = 'C')]
    pub content: bool,
    /// Match the windows' names.
    #[arg(short = 'N')]
    pub name: bool,
    /// Match the titles of the windows' panes.
    #[arg(short = 'T')]
    pub title: bool,
    /// Ignore case.
    #[arg(short = 'i')]
    pub ignore_case: bool,
    /// MATCH is a regular expression (else a glob-free substring, as tmux's `*M*`).
    #[arg(short = 'r')]
    pub regex: bool,
    /// Zoom the pane while choosing (fugue's tree covers every pane anyway).
    #[arg(short = 'Z')]
    pub zoom: bool,
    /// The session whose clients show the windows found (from the CLI).
    #[arg(short = 't')]
    pub target: Option<String>,
    /// What to look for.
    #[arg(value_name = "MATCH", allow_hyphen_values = true)]
    pub pattern: String,
}

fn flags(out: &mut Vec<String>, set: &[(bool, &str)]) {
    for (on, f) in set {
        if *on {
            out.push((*f).to_string());
        }
    }
}

fn valued(out: &mut Vec<String>, set: &[(&str, &Option<String>)]) {
    for (f, v) in set {
        if let Some(v) = v {
            out.extend([(*f).to_string(), v.clone()]);
        }
    }
}

/// `switch-client [-ElnprZ] [-c target-client] [-t target-session] [-T key-table]`.
#[derive(Args, Debug, Clone, Default)]
pub struct SwitchClientArgs {
    /// Where to: a session, or a window or pane (selected there first).
    #[arg(short = 't')]
    pub target: Option<String>,
    /// The next session.
    #[arg(short = 'n')]
    pub next: bool,
    /// The previous session.
    #[arg(short = 'p')]
    pub previous: bool,
    /// The last session.
    #[arg(short = 'l')]
    pub last: bool,
    /// The key table the next key is looked up in.
    #[arg(short = 'T')]
    pub table: Option<String>,
    /// tmux's target client: fugue tells the clients of the current session.
    #[arg(short = 'c')]
    pub client: Option<String>,
    /// tmux's -E (do not update the environment), -r (read-only toggle) and -Z (keep
    /// zoom): accepted, and change nothing here.
    #[arg(short = 'E')]
    pub no_environment: bool,
    #[arg(short = 'r')]
    pub read_only: bool,
    #[arg(short = 'Z')]
    pub zoom: bool,
}

impl SwitchClientArgs {
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["switch-client".to_string()];
        flags(
            &mut v,
            &[(self.next, "-n"), (self.previous, "-p"), (self.last, "-l")],
        );
        valued(&mut v, &[("-t", &self.target), ("-T", &self.table)]);
        v
    }
}

impl DisplayPanesArgs {
    /// The command line for the clients (the session's `-t` is the server's).
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["display-panes".to_string()];
        flags(&mut v, &[(self.background, "-b"), (self.no_keys, "-N")]);
        valued(&mut v, &[("-d", &self.duration.map(|d| d.to_string()))]);
        if !self.template.is_empty() {
            v.push("--".into());
            v.extend(self.template.iter().cloned());
        }
        v
    }
}

impl ChooseTreeArgs {
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["choose-tree".to_string()];
        flags(
            &mut v,
            &[
                (self.sessions, "-s"),
                (self.windows, "-w"),
                (self.zoom, "-Z"),
                (self.no_preview, "-N"),
                (self.reverse, "-r"),
                (self.groups, "-G"),
            ],
        );
        valued(
            &mut v,
            &[
                ("-F", &self.format),
                ("-f", &self.filter),
                ("-K", &self.key_format),
                ("-O", &self.sort),
            ],
        );
        if !self.template.is_empty() {
            v.push("--".into());
            v.extend(self.template.iter().cloned());
        }
        v
    }
}

impl FindWindowArgs {
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["find-window".to_string()];
        flags(
            &mut v,
            &[
                (self.content, "-C"),
                (self.name, "-N"),
                (self.title, "-T"),
                (self.ignore_case, "-i"),
                (self.regex, "-r"),
                (self.zoom, "-Z"),
            ],
        );
        v.extend(["--".to_string(), self.pattern.clone()]);
        v
    }

    /// What to match, as tmux's: none of -C, -N, -T means all three.
    pub fn fields(&self) -> (bool, bool, bool) {
        if !(self.content || self.name || self.title) {
            (true, true, true)
        } else {
            (self.content, self.name, self.title)
        }
    }

    /// The regular expression the match string is: as given with -r, else the literal
    /// text (tmux's `*MATCH*` glob); `(?i)` with -i.
    pub fn regex_source(&self) -> String {
        let body = if self.regex {
            self.pattern.clone()
        } else {
            regex_escape(&self.pattern)
        };
        if self.ignore_case {
            format!("(?i){body}")
        } else {
            body
        }
    }
}

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
        let f = FindWindowArgs {
            pattern: "a.b".into(),
            ..Default::default()
        };
        assert_eq!(f.fields(), (true, true, true));
        assert_eq!(f.regex_source(), "a\\.b");
        let f = FindWindowArgs {
            pattern: "a.b".into(),
            regex: true,
            ignore_case: true,
            name: true,
            ..Default::default()
        };
        assert_eq!(f.fields(), (false, true, false));
        assert_eq!(f.regex_source(), "(?i)a.b");
    }
}
