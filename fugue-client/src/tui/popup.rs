//! The session's popup (`display-popup`) as this client shows it: a box over the
//! panes with the popup pane's screen inside, which takes every key while it is open
//! (tmux's overlay takes them all, the prefix too). Its pane lives on the server; the
//! server closes it when its program exits with `-E`; one that stays after its
//! program ended closes on Escape or C-c, as tmux's.

use super::input::Request;
use super::paint::Links;
use super::render::{Canvas, draw_row};
use super::state::{App, Pending};
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::popup::{DisplayPopup, PopupRect};
use fugue_protocol::{Command, InputPart, SendInput, Target};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Widget};

impl App {
    pub fn popup(&self) -> Option<&PopupRect> {
        self.layout.as_ref()?.popup.as_ref()
    }

    /// A key while the popup is open: its program's, or the close of an ended one.
    pub fn popup_key(&mut self, popup: &PopupRect, key: Key) -> Vec<Request> {
        if popup.exited {
            let close = matches!(key.code, KeyCode::Escape)
                || (key.code == KeyCode::Char('c') && key.mods.contains(Mods::CTRL));
            if !close {
                return Vec::new();
            }
            let session = self.layout.as_ref().map(|l| l.session);
            return vec![Request {
                command: Command::DisplayPopup(DisplayPopup {
                    target: session.map(Target::SessionId),
                    close: true,
                    ..Default::default()
                }),
                pending: Pending::Action("display-popup"),
            }];
        }
        vec![Request {
            command: Command::SendInput(SendInput {
                target: Some(Target::Pane(popup.pane)),
                parts: vec![InputPart::Key(key)],
            }),
            pending: Pending::Action("send-keys"),
        }]
    }
}

/// The box on the panes' `area`, and the area inside its border.
pub fn rects(p: &PopupRect, area: Rect) -> (Rect, Rect) {
    let outer = Rect::new(
        area.x.saturating_add(p.x),
        area.y.saturating_add(p.y),
        p.width,
        p.height,
    )
    .intersection(area);
    let inner = if p.border {
        Block::bordered().inner(outer)
    } else {
        outer
    };
    (outer, inner)
}

/// Draws the popup; returns where the cursor goes (its program's cursor).
pub fn draw(buf: &mut Buffer, links: &mut Links, app: &App, area: Rect) -> Option<Position> {
    let p = app.popup()?;
    let (outer, inner) = rects(p, area);
    Clear.render(outer, buf);
    links.clear(outer);
    if p.border {
        let mut block = Block::bordered();
        if !p.title.is_empty() {
            block = block.title(Line::from(p.title.as_str()).centered());
        }
        block.render(outer, buf);
    }
    let view = app.panes.get(&p.pane)?;
    let mut canvas = Canvas {
        buf,
        links,
        known: &view.links,
    };
    for (y, row) in view
        .lines
        .iter()
        .enumerate()
        .take(usize::from(inner.height))
    {
        let Ok(dy) = u16::try_from(y) else { break };
        draw_row(&mut canvas, inner, inner.y + dy, row);
    }
    let c = view.cursor;
    (!p.exited && c.visible && c.col < inner.width && c.row < inner.height)
        .then(|| Position::new(inner.x + c.col, inner.y + c.row))
}
