//! Draws `customize-mode` (`customize.rs`) over the panes: the tree, the selected
//! item's details (`v`), and the bottom line when it asks something.

use super::customize::{Customize, Item, Line as TreeLine};
use fugue_protocol::KeyTable;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

/// Rows the details take below the tree, when there is room.
const INFO_ROWS: u16 = 4;

/// Draws the mode; where the terminal's cursor goes while the bottom line asks.
pub fn draw(buf: &mut Buffer, c: &Customize, keys: &KeyTable, area: Rect) -> Option<Position> {
    Clear.render(area, buf);
    let block = Block::bordered()
        .title(" customize-mode: Enter sets, u unsets, d default, f filter, v details, q leaves ")
        .border_style(Style::default().fg(Color::Yellow));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.height == 0 || inner.width == 0 {
        return None;
    }
    let lines = c.lines(keys);
    let ask_rows = u16::from(c.ask.is_some());
    let info_rows = if c.info && inner.height > INFO_ROWS + 3 {
        INFO_ROWS + 1
    } else {
        0
    };
    let rows = inner.height.saturating_sub(info_rows + ask_rows).max(1);
    let at = c.position(&lines);
    let first = at.saturating_sub(usize::from(rows).saturating_sub(1));
    let loading = c.server.is_none() || c.session.is_none() || c.window.is_none();
    let name_w = lines
        .iter()
        .filter(|l| l.open.is_none())
        .map(|l| l.name.chars().count() + usize::from(l.depth) * 2)
        .max()
        .unwrap_or(0)
        .min(usize::from(inner.width / 2));
    let mut shown: Vec<Line> = Vec::new();
    for (i, l) in lines.iter().enumerate().skip(first).take(usize::from(rows)) {
        shown.push(tree_line(c, l, i == at, name_w));
    }
    if loading {
        shown.push(Line::from("..."));
    }
    Paragraph::new(shown).render(Rect::new(inner.x, inner.y, inner.width, rows), buf);
    if info_rows > 0
        && let Some(l) = lines.get(at)
    {
        let y = inner.y + rows;
        let rule = "─".repeat(usize::from(inner.width));
        let mut text = vec![Line::styled(rule, Style::default().fg(Color::DarkGray))];
        text.extend(details(c, l, keys).into_iter().map(Line::from));
        Paragraph::new(text).render(Rect::new(inner.x, y, inner.width, info_rows), buf);
    }
    let ask = c.ask.as_ref()?;
    let (prompt, text) = ask.shown();
    let y = inner.y + inner.height - 1;
    let line = Line::from(vec![
        Span::styled(prompt.clone(), Style::default().fg(Color::Yellow)),
        Span::raw(text.to_string()),
    ]);
    Paragraph::new(line).render(Rect::new(inner.x, y, inner.width, 1), buf);
    let col = prompt.chars().count() + ask.before_cursor().chars().count();
    let x = inner
        .x
        .saturating_add(u16::try_from(col).unwrap_or(u16::MAX))
        .min(inner.x + inner.width - 1);
    Some(Position::new(x, y))
}

/// One line of the tree: `+`/`-` before a branch, the name padded, the value.
fn tree_line<'a>(c: &Customize, l: &'a TreeLine, selected: bool, name_w: usize) -> Line<'a> {
    let indent = "  ".repeat(usize::from(l.depth));
    let mut style = Style::default();
    if c.tagged.contains(&l.item) {
        style = style.add_modifier(Modifier::BOLD);
    }
    if selected {
        style = style.add_modifier(Modifier::REVERSED);
    }
    let text = match l.open {
        Some(open) => format!("{indent}{} {}", if open { "-" } else { "+" }, l.name),
        None => {
            let tag = if c.tagged.contains(&l.item) { "*" } else { " " };
            let name = format!("{indent}{}{}", l.name, if l.inherited { "*" } else { "" });
            format!("{tag}{name:<name_w$} {}", l.value)
        }
    };
    Line::styled(text, style)
}

/// The selected item's details, as tmux's customize mode shows them below the tree.
fn details(c: &Customize, l: &TreeLine, keys: &KeyTable) -> Vec<String> {
    match &l.item {
        Item::Option { scope, name } => vec![
            format!("Option: {name} ({} option)", scope.name()),
            format!("Value: {}", l.value),
            if l.inherited {
                let from = match scope {
                    fugue_protocol::options::OptionScope::Pane => {
                        "the window's or the global value"
                    }
                    _ => "the global value",
                };
                format!("Inherited from {from}: s sets it here, S globally")
            } else {
                "Set here: u unsets it, d returns it to the default".into()
            },
            format!("Shown for pane {}", c.pane),
        ],
        Item::Key { table, key } => {
            let b = keys
                .bindings
                .iter()
                .find(|b| &b.table == table && b.key.to_string() == *key);
            vec![
                format!("Key: {} (table {table})", l.name),
                format!("Command: {}", l.value),
                format!(
                    "Repeat: {}",
                    if b.is_some_and(|b| b.repeat) {
                        "on"
                    } else {
                        "off"
                    }
                ),
                format!(
                    "Note: {}",
                    b.and_then(|b| b.note.clone()).unwrap_or_default()
                ),
            ]
        }
        Item::Branch(_) | Item::Table(_) => vec![format!(
            "{}: Enter or + opens it, - closes it; M-+ opens all",
            l.name
        )],
    }
}
