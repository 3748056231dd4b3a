//! The one-line editor of the rename prompts: a cursor that moves over characters (not
//! bytes), and the emacs-style keys a tmux user's fingers expect.

use fugue_protocol::keys::{Key, KeyCode, Mods};

/// Text being typed, with the cursor as a byte index that is always on a char boundary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineEdit {
    text: String,
    cursor: usize,
}

/// What a key did to the line.
#[derive(Debug, PartialEq, Eq)]
pub enum Edit {
    /// The line (or its cursor) changed, or the key was ignored: keep editing.
    Editing,
    /// Enter.
    Done,
    /// Escape, C-c or C-g.
    Cancelled,
}

impl LineEdit {
    /// A line holding `text`, with the cursor at its end.
    pub fn new(text: String) -> LineEdit {
        let cursor = text.len();
        LineEdit { text, cursor }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text before the cursor (to place the terminal's cursor after it).
    pub fn before_cursor(&self) -> &str {
        &self.text[..self.cursor]
    }

    fn prev_boundary(&self) -> usize {
        self.text[..self.cursor]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i)
    }

    fn next_boundary(&self) -> usize {
        self.text[self.cursor..]
            .chars()
            .next()
            .map_or(self.cursor, |c| self.cursor + c.len_utf8())
    }

    /// Inserts at the cursor; line breaks become spaces (a name is one line).
    pub fn insert_str(&mut self, s: &str) {
        let s = s.replace(['\n', '\r'], " ");
        self.text.insert_str(self.cursor, &s);
        self.cursor += s.len();
    }

    /// Replaces the text from byte `from` (a char boundary at or before the cursor)
    /// to the cursor with `with`, leaving the cursor after it: a completed word.
    pub fn replace_before_cursor(&mut self, from: usize, with: &str) {
        let from = from.min(self.cursor);
        if !self.text.is_char_boundary(from) {
            return;
        }
        self.text.replace_range(from..self.cursor, with);
        self.cursor = from + with.len();
    }

    pub fn key(&mut self, key: Key) -> Edit {
        let ctrl = key.mods.contains(Mods::CTRL);
        match key.code {
            KeyCode::Enter => return Edit::Done,
            KeyCode::Escape => return Edit::Cancelled,
            KeyCode::Char('c' | 'g') if ctrl => return Edit::Cancelled,
            KeyCode::Left => self.cursor = self.prev_boundary(),
            KeyCode::Char('b') if ctrl => self.cursor = self.prev_boundary(),
            KeyCode::Right => self.cursor = self.next_boundary(),
            KeyCode::Char('f') if ctrl => self.cursor = self.next_boundary(),
            KeyCode::Home => self.cursor = 0,
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::End => self.cursor = self.text.len(),
            KeyCode::Char('e') if ctrl => self.cursor = self.text.len(),
            KeyCode::Backspace => {
                let from = self.prev_boundary();
                self.text.replace_range(from..self.cursor, "");
                self.cursor = from;
            }
            KeyCode::Char('h') if ctrl => {
                return self.key(Key::new(KeyCode::Backspace, Mods::NONE));
            }
            KeyCode::Delete => {
                let to = self.next_boundary();
                self.text.replace_range(self.cursor..to, "");
            }
            KeyCode::Char('d') if ctrl => return self.key(Key::new(KeyCode::Delete, Mods::NONE)),
            // C-u kills to the start of the line, C-k to its end (emacs, tmux).
            KeyCode::Char('u') if ctrl => {
                self.text.replace_range(..self.cursor, "");
                self.cursor = 0;
            }
            KeyCode::Char('k') if ctrl => self.text.truncate(self.cursor),
            KeyCode::Char(c) if !ctrl && !key.mods.contains(Mods::ALT) => {
                let mut buf = [0u8; 4];
                self.insert_str(c.encode_utf8(&mut buf));
            }
            _ => {}
        }
        Edit::Editing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(line: &mut LineEdit, keys: &[Key]) {
        for k in keys {
            line.key(*k);
        }
    }

    fn k(code: KeyCode) -> Key {
        Key::new(code, Mods::NONE)
    }

    fn ctrl(c: char) -> Key {
        Key::new(KeyCode::Char(c), Mods::CTRL)
    }

    #[test]
    fn moves_and_inserts_at_the_cursor() {
        let mut l = LineEdit::new("abc".into());
        keys(
            &mut l,
            &[k(KeyCode::Left), k(KeyCode::Left), Key::char('X')],
        );
        assert_eq!(l.text(), "aXbc");
        keys(
            &mut l,
            &[ctrl('e'), Key::char('Y'), ctrl('a'), Key::char('Z')],
        );
        assert_eq!(l.text(), "ZaXbcY");
        keys(
            &mut l,
            &[
                k(KeyCode::End),
                Key::char('!'),
                k(KeyCode::Home),
                k(KeyCode::Right),
            ],
        );
        assert_eq!((l.text(), l.before_cursor()), ("ZaXbcY!", "Z"));
    }

    #[test]
    fn deletes_on_either_side_of_the_cursor() {
        let mut l = LineEdit::new("abcd".into());
        keys(
            &mut l,
            &[k(KeyCode::Left), k(KeyCode::Left), k(KeyCode::Backspace)],
        );
        assert_eq!((l.text(), l.before_cursor()), ("acd", "a"));
        keys(&mut l, &[k(KeyCode::Delete)]);
        assert_eq!((l.text(), l.before_cursor()), ("ad", "a"));
        keys(
            &mut l,
            &[
                k(KeyCode::Home),
                k(KeyCode::Backspace),
                k(KeyCode::End),
                k(KeyCode::Delete),
            ],
        );
        assert_eq!(l.text(), "ad", "nothing to delete at the ends");
        keys(&mut l, &[k(KeyCode::Left), ctrl('k')]);
        assert_eq!(l.text(), "a");
        keys(&mut l, &[Key::char('b'), k(KeyCode::Left), ctrl('u')]);
        assert_eq!((l.text(), l.before_cursor()), ("b", ""));
    }

    #[test]
    fn steps_over_multibyte_characters_whole() {
        let mut l = LineEdit::new("日é".into());
        keys(&mut l, &[k(KeyCode::Left), Key::char('x')]);
        assert_eq!(l.text(), "日xé");
        keys(
            &mut l,
            &[k(KeyCode::Left), k(KeyCode::Backspace), k(KeyCode::Delete)],
        );
        assert_eq!(l.text(), "é");
        keys(
            &mut l,
            &[k(KeyCode::Right), k(KeyCode::Right), k(KeyCode::Backspace)],
        );
        assert_eq!((l.text(), l.before_cursor()), ("", ""));
    }

    #[test]
    fn enter_and_escape_end_the_edit() {
        let mut l = LineEdit::new(String::new());
        assert_eq!(l.key(k(KeyCode::Enter)), Edit::Done);
        assert_eq!(l.key(k(KeyCode::Escape)), Edit::Cancelled);
        assert_eq!(l.key(ctrl('c')), Edit::Cancelled);
    }
}
