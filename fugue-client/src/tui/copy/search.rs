//! Searching in copy mode: the pattern (text or regex, tmux's smart case), its
//! matches in a row as drawn, and which way a search goes.
//!
//! tmux's words: "forward" (`/` in vi, `C-s` in emacs) goes down, towards newer lines;
//! "backward" (`?`, `C-r`) goes up. Lines the server holds are searched by the server
//! (`search-panes` with absolute line numbers); the rows of the screen as it was when
//! copy mode began are the client's own and searched here.

use fugue_protocol::Row;
use regex::Regex;

/// The longest pattern taken (a regex is compiled from it on every row drawn).
pub const MAX_PATTERN_BYTES: usize = 1024;

/// A search: what `n` repeats and the rows highlight.
#[derive(Clone, Debug)]
pub struct Search {
    pub pattern: String,
    /// The pattern is a regex (else plain text).
    pub regex: bool,
    /// Towards older lines (tmux's search-backward, `?` and `C-r`).
    pub up: bool,
    compiled: Option<Regex>,
}

impl PartialEq for Search {
    fn eq(&self, other: &Search) -> bool {
        (&self.pattern, self.regex, self.up) == (&other.pattern, other.regex, other.up)
    }
}

impl Search {
    /// A search for `pattern`; an invalid regex is an error to show.
    pub fn new(pattern: &str, regex: bool, up: bool) -> Result<Search, String> {
        let mut pattern = pattern.to_string();
        if pattern.len() > MAX_PATTERN_BYTES {
            let cut = (0..=MAX_PATTERN_BYTES)
                .rev()
                .find(|i| pattern.is_char_boundary(*i))
                .unwrap_or(0);
            pattern.truncate(cut);
        }
        let compiled = Regex::new(&Search::regex_of(&pattern, regex))
            .map_err(|e| format!("bad pattern: {e}"))?;
        Ok(Search {
            pattern,
            regex,
            up,
            compiled: Some(compiled),
        })
    }

    /// tmux's smart case: case matters only when the pattern has an uppercase letter.
    pub fn case_sensitive(pattern: &str) -> bool {
        pattern.chars().any(char::is_uppercase)
    }

    /// The pattern as a regex for the server's `search-panes` (and the client's).
    pub fn regex_of(pattern: &str, regex: bool) -> String {
        let body = if regex {
            pattern.to_string()
        } else {
            regex::escape(pattern)
        };
        if Search::case_sensitive(pattern) {
            body
        } else {
            format!("(?i){body}")
        }
    }

    /// The same search going the other way (`N`).
    pub fn reversed(&self) -> Search {
        Search {
            up: !self.up,
            ..self.clone()
        }
    }

    /// The columns `[start, end)` of each match in a row, as drawn.
    pub fn matches_in(&self, row: &Row) -> Vec<(u16, u16)> {
        let Some(re) = &self.compiled else {
            return Vec::new();
        };
        // The row's text with each byte's cell: blank cells read as spaces.
        let mut text = String::with_capacity(row.text.len());
        let mut at: Vec<(u16, u16)> = Vec::with_capacity(row.text.len());
        let mut col = 0u16;
        for cell in row.cells() {
            while col < cell.col {
                text.push(' ');
                at.push((col, col + 1));
                col += 1;
            }
            let end = cell.col.saturating_add(if cell.wide { 2 } else { 1 });
            let t = if cell.text.is_empty() { " " } else { cell.text };
            text.push_str(t);
            at.extend(std::iter::repeat_n((cell.col, end), t.len()));
            col = end;
        }
        re.find_iter(&text)
            .filter(|m| !m.is_empty())
            .filter_map(|m| {
                let (start, _) = *at.get(m.start())?;
                let (_, end) = *at.get(m.end() - 1)?;
                Some((start, end))
            })
            .collect()
    }

    /// The match to go to on a row from column `col`: the first starting after it
    /// going down, the last starting before it going up.
    pub fn next_in_row(&self, row: &Row, col: Option<u16>, up: bool) -> Option<u16> {
        let mut found = self.matches_in(row).into_iter().map(|(s, _)| s);
        match (col, up) {
            (None, false) => found.next(),
            (None, true) => found.next_back(),
            (Some(c), false) => found.find(|s| *s > c),
            (Some(c), true) => found.rfind(|s| *s < c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::screen::RowBuilder;

    #[test]
    fn smart_case_decides_the_regex() {
        assert_eq!(Search::regex_of("a.b", false), "(?i)a\\.b");
        assert_eq!(Search::regex_of("A(1)", false), "A\\(1\\)");
        assert_eq!(Search::regex_of("a.b", true), "(?i)a.b");
        assert!(Search::new("(", true, false).is_err());
    }

    #[test]
    fn matches_are_found_in_columns_as_drawn() {
        let row = Row::plain("Foo foo FOO");
        let s = |p: &str| Search::new(p, false, false).unwrap();
        assert_eq!(s("foo").matches_in(&row), vec![(0, 3), (4, 7), (8, 11)]);
        assert_eq!(s("Foo").matches_in(&row), vec![(0, 3)]);
        assert_eq!(s("o f").matches_in(&row), vec![(2, 5), (6, 9)]);
        let re = Search::new("f.o", true, false).unwrap();
        assert_eq!(re.matches_in(&row).len(), 3);
        // A wide character takes two columns.
        let mut b = RowBuilder::default();
        for (t, wide, cont) in [("日", true, false), ("", false, true), ("x", false, false)] {
            b.push(t, wide, cont, Default::default());
        }
        let row = b.finish(false);
        assert_eq!(s("日x").matches_in(&row), vec![(0, 3)]);
        assert_eq!(s("x").next_in_row(&row, Some(0), false), Some(2));
        assert_eq!(s("x").next_in_row(&row, Some(2), true), None);
    }
}
