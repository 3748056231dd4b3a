//! `display-menu`: a box of items over the panes, as tmux draws it (title in the top
//! border, each item's key in parentheses on its right, separators as lines). Up/Down
//! (or k/j) move, Enter or an item's key chooses, Escape, q or C-c closes, a click
//! on an item chooses it and a click elsewhere closes the menu. The chosen command
//! runs as a binding's (`run_line`), so it does what the same command bound to a key
//! does.

use super::input::Request;
use super::state::{App, Mode};
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::menu::MenuEntry;
use fugue_protocol::mouse::{MouseAction, MouseButton, MouseEvent};
use fugue_protocol::popup::PopupPos;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Widget};
use unicode_width::UnicodeWidthStr;

pub struct Menu {
    pub title: String,
    pub items: Vec<MenuEntry>,
    /// The highlighted item (never a separator or a disabled item).
    pub selected: Option<usize>,
    pub x: PopupPos,
    pub y: PopupPos,
}

/// `display-menu [-T title] [-x pos] [-y pos] name key command ...` as the verb table
/// parses it.
pub fn open(app: &mut App, argv: &[String]) -> Result<(), String> {
    let fugue_protocol::flags::DisplayMenu {
        title, x, y, items, ..
    } = fugue_verbs::line::parse_flags(argv)?;
    let pos = |p: Option<String>| {
        p.map(|p| PopupPos::parse(&p))
            .transpose()
            .map(Option::unwrap_or_default)
    };
    let mut items = fugue_protocol::menu::parse_items(&items)?;
    // Names are formats, as tmux's.
    for item in &mut items {
        if let MenuEntry::Item { name, .. } = item {
            *name = app.expand_here(name);
        }
    }
    let mut menu = Menu {
        title: title.map(|t| app.expand_here(&t)).unwrap_or_default(),
        items,
        selected: None,
        x: pos(x)?,
        y: pos(y)?,
    };
    menu.selected = menu.step(None, true);
    app.mode = Mode::Menu(menu);
    Ok(())
}

fn choosable(e: &MenuEntry) -> bool {
    matches!(
        e,
        MenuEntry::Item {
            disabled: false,
            ..
        }
    )
}

impl Menu {
    /// The next choosable item after `from` (down) or before it (up), wrapping round.
    fn step(&self, from: Option<usize>, down: bool) -> Option<usize> {
        let n = self.items.len();
        if n == 0 {
            return None;
        }
        let start = from.unwrap_or(if down { n - 1 } else { 0 });
        (1..=n)
            .map(|k| {
                if down {
                    (start + k) % n
                } else {
                    (start + n - k % n) % n
                }
            })
            .find(|&i| self.items.get(i).is_some_and(choosable))
    }

    /// Each item's line: its name, and its key in parentheses on the right.
    fn labels(&self) -> Vec<Option<(String, String)>> {
        self.items
            .iter()
            .map(|e| match e {
                MenuEntry::Separator => None,
                MenuEntry::Item { name, key, .. } => Some((
                    name.clone(),
                    key.map(|k| format!("({k})")).unwrap_or_default(),
                )),
            })
            .collect()
    }

    /// The box on `area` (border included).
    pub fn rect(&self, area: Rect) -> Rect {
        let inner_w = self
            .labels()
            .iter()
            .flatten()
            .map(|(n, k)| n.width() + if k.is_empty() { 0 } else { k.width() + 1 })
            .chain(std::iter::once(self.title.width()))
            .max()
            .unwrap_or(0);
        // A space each side of the text, and the border.
        let w = u16::try_from(inner_w + 4)
            .unwrap_or(u16::MAX)
            .min(area.width);
        let h = u16::try_from(self.items.len() + 2)
            .unwrap_or(u16::MAX)
            .min(area.height);
        Rect::new(
            area.x + self.x.place(w, area.width),
            area.y + self.y.place(h, area.height),
            w,
            h,
        )
    }
}

pub fn draw(buf: &mut Buffer, menu: &Menu, area: Rect) {
    let r = menu.rect(area);
    Clear.render(r, buf);
    let mut block = Block::bordered();
    if !menu.title.is_empty() {
        block = block.title(Line::from(format!(" {} ", menu.title)).centered());
    }
    let inner = block.inner(r);
    block.render(r, buf);
    let selected = Style::default().bg(Color::Yellow).fg(Color::Black);
    let dim = Style::default().add_modifier(ratatui::style::Modifier::DIM);
    for (i, label) in menu.labels().into_iter().enumerate() {
        let Ok(dy) = u16::try_from(i) else { break };
        if dy >= inner.height {
            break;
        }
        let y = inner.y + dy;
        match label {
            None => {
                // A separator joins the borders, as tmux's: ├────┤.
                for x in r.x..r.x + r.width {
                    let sym = if x == r.x {
                        "├"
                    } else if x + 1 == r.x + r.width {
                        "┤"
                    } else {
                        "─"
                    };
                    if let Some(c) = buf.cell_mut((x, y)) {
                        c.set_symbol(sym);
                    }
                }
            }
            Some((name, key)) => {
                let style = if menu.selected == Some(i) {
                    selected
                } else if menu.items.get(i).is_some_and(|e| !choosable(e)) {
                    dim
                } else {
                    Style::default()
                };
                let w = usize::from(inner.width.saturating_sub(2));
                let pad = w.saturating_sub(name.width() + key.width());
                let text = format!(" {name}{}{key} ", " ".repeat(pad));
                buf.set_stringn(inner.x, y, text, usize::from(inner.width), style);
            }
        }
    }
}

/// What choosing item `i` does: the menu closes and its command runs.
fn choose(app: &mut App, menu: &Menu, i: usize) -> Vec<Request> {
    match menu.items.get(i) {
        Some(MenuEntry::Item {
            command,
            disabled: false,
            ..
        }) => {
            let command = command.clone();
            app.run_line(&command)
        }
        _ => Vec::new(),
    }
}

pub fn on_key(app: &mut App, mut menu: Menu, key: Key) -> Vec<Request> {
    let ctrl = key.mods.contains(Mods::CTRL);
    match key.code {
        KeyCode::Escape | KeyCode::Char('q') if !ctrl => return Vec::new(),
        KeyCode::Char('c' | 'g') if ctrl => return Vec::new(),
        KeyCode::Enter => {
            return match menu.selected {
                Some(i) => choose(app, &menu, i),
                None => Vec::new(),
            };
        }
        _ => {}
    }
    // An item's own key first: `j` may be bound by the menu's author.
    let by_key = menu.items.iter().position(
        |e| matches!(e, MenuEntry::Item { key: Some(k), disabled: false, .. } if k.chord() == key.chord()),
    );
    if let Some(i) = by_key {
        return choose(app, &menu, i);
    }
    match key.code {
        KeyCode::Down | KeyCode::Char('j') => menu.selected = menu.step(menu.selected, true),
        KeyCode::Up | KeyCode::Char('k') => menu.selected = menu.step(menu.selected, false),
        _ => {}
    }
    app.mode = Mode::Menu(menu);
    Vec::new()
}

/// A mouse event while the menu is open (`area`: where panes are drawn).
pub fn on_mouse(app: &mut App, menu: Menu, ev: MouseEvent, area: Rect) -> Vec<Request> {
    let r = menu.rect(area);
    let inside =
        ev.col >= r.x && ev.col < r.x + r.width && ev.row >= r.y && ev.row < r.y + r.height;
    let item = ev
        .row
        .checked_sub(r.y + 1)
        .map(usize::from)
        .filter(|i| inside && *i < menu.items.len());
    match ev.action {
        MouseAction::Down(MouseButton::Left) | MouseAction::Up(MouseButton::Left) if !inside => {
            // A click outside closes it, as tmux's.
            Vec::new()
        }
        MouseAction::Up(MouseButton::Left) => match item {
            Some(i) if menu.items.get(i).is_some_and(choosable) => choose(app, &menu, i),
            _ => {
                app.mode = Mode::Menu(menu);
                Vec::new()
            }
        },
        MouseAction::Moved | MouseAction::Drag(_) | MouseAction::Down(_) => {
            let mut menu = menu;
            if let Some(i) = item.filter(|i| menu.items.get(*i).is_some_and(choosable)) {
                menu.selected = Some(i);
            }
            app.mode = Mode::Menu(menu);
            Vec::new()
        }
        _ => {
            app.mode = Mode::Menu(menu);
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn menu(items: Vec<MenuEntry>) -> Menu {
        let mut m = Menu {
            title: String::new(),
            items,
            selected: None,
            x: PopupPos::Centre,
            y: PopupPos::Centre,
        };
        m.selected = m.step(None, true);
        m
    }

    fn item(name: &str, disabled: bool) -> MenuEntry {
        MenuEntry::Item {
            name: name.into(),
            key: None,
            command: "x".into(),
            disabled,
        }
    }

    #[test]
    fn moving_skips_separators_and_disabled_items_and_wraps() {
        let m = menu(vec![
            MenuEntry::Separator,
            item("a", false),
            item("b", true),
            MenuEntry::Separator,
            item("c", false),
        ]);
        assert_eq!(m.selected, Some(1));
        assert_eq!(m.step(Some(1), true), Some(4));
        assert_eq!(m.step(Some(4), true), Some(1));
        assert_eq!(m.step(Some(1), false), Some(4));
        assert_eq!(menu(vec![MenuEntry::Separator]).selected, None);
    }
}
