//! Paste buffers in the client: `C-b ]` pastes the most recent one, `C-b #` lists them
//! (tmux's `list-buffers`, shown over the panes), `C-b =` chooses one (tmux's
//! `choose-buffer`): arrows or j/k move, Enter pastes, `d` deletes, q or Escape
//! leaves; the selected buffer's start is shown below the list.

use super::input::Request;
use super::state::{App, Mode, Pending};
use fugue_protocol::buffers::BufferInfo;
use fugue_protocol::cmd;
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::{Command, PasteBuffer};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

/// What the `list-buffers` request of the list or chooser is called (its answer is
/// recognised by it).
pub const LIST: &str = "list-buffers";

/// The list (`C-b #`) or the chooser (`C-b =`).
#[derive(Debug)]
pub struct BufferList {
    /// Enter pastes and `d` deletes (the chooser); else only a view.
    pub choose: bool,
    /// None until the server has answered.
    pub items: Option<Vec<BufferInfo>>,
    pub selected: usize,
}

fn list_request() -> Request {
    Request {
        command: Command::ListBuffers,
        pending: Pending::Action(LIST),
    }
}

/// `paste-buffer -p` into the client's active pane.
pub fn paste(name: Option<String>) -> Request {
    Request {
        command: Command::PasteBuffer(PasteBuffer {
            name,
            target: None,
            bracketed: true,
            delete: false,
            separator: None,
        }),
        pending: Pending::Action("paste-buffer"),
    }
}

/// Opens the list or the chooser and asks the server for the buffers.
pub fn open(app: &mut App, choose: bool) -> Vec<Request> {
    app.mode = Mode::Buffers(BufferList {
        choose,
        items: None,
        selected: 0,
    });
    app.damage_all();
    vec![list_request()]
}

/// The server's answer to [`LIST`].
pub fn listed(app: &mut App, list: Vec<BufferInfo>) {
    if let Mode::Buffers(b) = &mut app.mode {
        b.selected = b.selected.min(list.len().saturating_sub(1));
        b.items = Some(list);
    }
    app.damage_all();
}

/// A key while the list or chooser is open.
pub fn on_key(app: &mut App, mut b: BufferList, key: Key) -> Vec<Request> {
    let count = b.items.as_ref().map_or(0, Vec::len);
    let selected = b
        .items
        .as_ref()
        .and_then(|l| l.get(b.selected))
        .map(|i| i.name.clone());
    app.damage_all();
    match (key.code, key.mods) {
        (KeyCode::Char('q') | KeyCode::Escape, _) => return Vec::new(),
        (KeyCode::Char('c'), m) if m.contains(Mods::CTRL) => return Vec::new(),
        (KeyCode::Up | KeyCode::Char('k'), _) => b.selected = b.selected.saturating_sub(1),
        (KeyCode::Down | KeyCode::Char('j'), _) => {
            b.selected = (b.selected + 1).min(count.saturating_sub(1))
        }
        (KeyCode::Home | KeyCode::Char('g'), _) => b.selected = 0,
        (KeyCode::End | KeyCode::Char('G'), _) => b.selected = count.saturating_sub(1),
        (KeyCode::Enter, _) if !b.choose => return Vec::new(),
        (KeyCode::Enter, _) => {
            // Leaves first, so the paste lands in the pane as the person sees it.
            return selected.map(|n| vec![paste(Some(n))]).unwrap_or_default();
        }
        (KeyCode::Char('d'), m) if b.choose && !m.contains(Mods::CTRL) => {
            if let Some(name) = selected {
                app.mode = Mode::Buffers(b);
                return vec![
                    Request {
                        command: Command::DeleteBuffer(cmd::DeleteBuffer { name: Some(name) }),
                        pending: Pending::Action("delete-buffer"),
                    },
                    list_request(),
                ];
            }
        }
        _ => {}
    }
    app.mode = Mode::Buffers(b);
    Vec::new()
}

/// Control characters as tmux's samples show them, so a preview cannot drive the
/// terminal.
fn printable(line: &str) -> String {
    fugue_protocol::buffers::sample(line)
        .trim_end_matches("...")
        .to_string()
}

/// Draws the list (and the chooser's preview) over the panes.
pub fn draw(buf: &mut Buffer, b: &BufferList, area: Rect) {
    let mut lines: Vec<Line> = Vec::new();
    let title = if b.choose {
        " choose-buffer: Enter pastes, d deletes, q leaves "
    } else {
        " list-buffers: q leaves "
    };
    let items = b.items.as_deref().unwrap_or_default();
    match &b.items {
        None => lines.push(Line::from("...")),
        Some(l) if l.is_empty() => lines.push(Line::from("(no buffers)")),
        Some(_) => {}
    }
    let w = area.width.saturating_sub(4).min(100);
    let h = area.height.saturating_sub(2);
    // The list takes what the preview leaves; the selected line stays in view.
    let preview_rows = if b.choose { h / 2 } else { 0 };
    let list_rows = usize::from(h.saturating_sub(preview_rows).saturating_sub(2).max(1));
    let first = b.selected.saturating_sub(list_rows.saturating_sub(1));
    for (i, item) in items.iter().enumerate().skip(first).take(list_rows) {
        let text = crate::cli::buffers::default_line(item);
        let style = if i == b.selected && b.choose {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        lines.push(Line::styled(text, style));
    }
    if b.choose
        && let Some(item) = items.get(b.selected)
    {
        lines.push(Line::styled(
            "─".repeat(usize::from(w.saturating_sub(2))),
            Style::default().fg(Color::DarkGray),
        ));
        for l in item.head.lines().take(usize::from(preview_rows)) {
            lines.push(Line::from(printable(l)));
        }
    }
    let h = h.min(lines.len() as u16 + 2).max(3);
    let popup = Rect::new(
        area.x + (area.width.saturating_sub(w)) / 2,
        area.y + (area.height.saturating_sub(h)) / 2,
        w,
        h,
    );
    Clear.render(popup, buf);
    Paragraph::new(lines)
        .block(
            Block::bordered()
                .title(title)
                .border_style(Style::default().fg(Color::Yellow)),
        )
        .render(popup, buf);
}
