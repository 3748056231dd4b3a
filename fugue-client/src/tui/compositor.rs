//! Putting the client's screen on the terminal, redrawing only what changed.
//!
//! ratatui's `Terminal::draw` rebuilds and compares the whole screen on every draw:
//! about 170 µs for a 200x50 terminal here, on the way of every keystroke's echo. The
//! compositor keeps what the terminal shows between draws. A frame that changed a few
//! rows of a pane redraws those rows, compares those lines and writes what differs;
//! anything else (layout, modes, the status bar) redraws everything, as before.
//!
//! Cells are written by `paint.rs`, which knows the looks ratatui's backend cannot
//! write (underline styles, overline) and hyperlinks.

use super::paint::{self, Links};
use super::passthrough::Outer;
use super::render;
use super::state::{App, Damage};
use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use std::collections::BTreeSet;
use std::io::Write;

pub struct Compositor<B: Backend<Error = std::io::Error> + Write> {
    backend: B,
    /// What should be on the terminal.
    next: Buffer,
    /// What the terminal shows.
    shown: Buffer,
    /// The hyperlinks of `next` and of `shown`.
    next_links: Links,
    shown_links: Links,
    /// The cursor as last placed (None: hidden).
    cursor: Option<Position>,
    /// Where the hidden cursor was last left (see [`render::parked`]).
    parked: Option<Position>,
    /// The terminal's contents are unknown (at start, after a resize).
    clear: bool,
    /// What goes to the terminal besides cells: cursor look, title, bell, clipboard,
    /// synchronized output (`passthrough.rs`).
    pub outer: Outer,
}

impl<B: Backend<Error = std::io::Error> + Write> Compositor<B> {
    pub fn new(backend: B, outer: Outer) -> Result<Self, B::Error> {
        let size = backend.size()?;
        let area = Rect::new(0, 0, size.width, size.height);
        Ok(Compositor {
            backend,
            next: Buffer::empty(area),
            shown: Buffer::empty(area),
            next_links: Links::new(area),
            shown_links: Links::new(area),
            cursor: None,
            parked: None,
            clear: true,
            outer,
        })
    }

    /// The terminal's area, as the client draws it.
    pub fn area(&self) -> Rect {
        self.next.area
    }

    /// The terminal changed size: everything is drawn again on a cleared terminal.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        let area = Rect::new(0, 0, cols, rows);
        self.next = Buffer::empty(area);
        self.shown = Buffer::empty(area);
        self.next_links = Links::new(area);
        self.shown_links = Links::new(area);
        self.clear = true;
    }

    /// Everything is drawn again on a cleared terminal: what it shows is unknown (a
    /// program wrote over it, or the shell reset it while the client was stopped).
    pub fn redraw_all(&mut self) {
        self.clear = true;
        self.cursor = None;
        self.parked = None;
        self.outer.forget();
    }

    /// Draws what `app` says changed.
    pub fn draw(&mut self, app: &mut App) -> Result<(), B::Error> {
        let damage = std::mem::take(&mut app.damage);
        let lines = match damage {
            // Nothing to draw, a bell or a clipboard copy to pass on.
            Damage::None if self.outer.has_pending() => Some(BTreeSet::new()),
            Damage::None => return Ok(()),
            Damage::Rows(panes) if !self.clear => {
                let mut lines = BTreeSet::new();
                let mut partial = true;
                for (pane, rows) in panes {
                    match render::draw_pane_rows(
                        &mut self.next,
                        &mut self.next_links,
                        app,
                        pane,
                        &rows,
                    ) {
                        Some(ys) => lines.extend(ys),
                        None => partial = false,
                    }
                }
                partial.then_some(lines)
            }
            _ => None,
        };
        let (lines, cursor) = match lines {
            Some(lines) => (Some(lines), render::cursor(app, self.next.area)),
            None => {
                self.next.reset();
                self.next_links.reset();
                (
                    None,
                    render::draw(&mut self.next, &mut self.next_links, app),
                )
            }
        };
        let parked = match cursor {
            None => render::parked(app, self.next.area),
            Some(_) => None,
        };
        let mut after = Vec::new();
        self.outer.finish(app, lines.is_none(), &mut after);
        self.flush(lines, (cursor, parked), &after)
    }

    /// Writes the differences on `lines` (all lines when None), places the cursor
    /// (shown, or hidden and parked) and writes `after` (see [`Outer::finish`]).
    fn flush(
        &mut self,
        lines: Option<BTreeSet<u16>>,
        (cursor, parked): (Option<Position>, Option<Position>),
        after: &[u8],
    ) -> Result<(), B::Error> {
        self.backend.write_all(self.outer.begin())?;
        if std::mem::take(&mut self.clear) {
            self.backend.clear()?;
            self.shown.reset();
            self.shown_links.reset();
        }
        let wrote = match lines {
            None => {
                let diff =
                    paint::diff(&self.shown, &self.next, &self.shown_links, &self.next_links);
                let wrote = !diff.is_empty();
                let links = &self.next_links;
                paint::write_cells(&mut self.backend, diff, |x, y| links.get(x, y))?;
                self.shown.clone_from(&self.next);
                self.shown_links.clone_from(&self.next_links);
                wrote
            }
            Some(lines) => {
                let mut wrote = false;
                for y in lines {
                    wrote |= self.flush_line(y)?;
                }
                wrote
            }
        };
        // Writing cells moves the terminal's cursor: put it back where it belongs.
        if wrote || cursor != self.cursor || parked != self.parked {
            match cursor {
                Some(p) => {
                    self.backend.set_cursor_position(p)?;
                    self.backend.show_cursor()?;
                }
                None => {
                    self.backend.hide_cursor()?;
                    if let Some(p) = parked {
                        self.backend.set_cursor_position(p)?;
                    }
                }
            }
            self.cursor = cursor;
            self.parked = parked;
        }
        self.backend.write_all(after)?;
        Backend::flush(&mut self.backend)
    }

    /// Writes what differs on line `y`; true if anything did.
    fn flush_line(&mut self, y: u16) -> Result<bool, B::Error> {
        let width = self.next.area.width;
        let row = Rect::new(0, 0, width, 1);
        let start = usize::from(y) * usize::from(width);
        let end = start + usize::from(width);
        let (Some(next), Some(shown)) = (
            self.next.content.get(start..end),
            self.shown.content.get(start..end),
        ) else {
            return Ok(false);
        };
        // ratatui's diff knows about wide characters; give it just this line.
        let next = Buffer {
            area: row,
            content: next.to_vec(),
        };
        let shown = Buffer {
            area: row,
            content: shown.to_vec(),
        };
        let mut next_links = Links::new(row);
        next_links.copy_line(0, &self.next_links, y);
        let mut shown_links = Links::new(row);
        shown_links.copy_line(0, &self.shown_links, y);
        let diff = paint::diff(&shown, &next, &shown_links, &next_links);
        if diff.is_empty() {
            return Ok(false);
        }
        paint::write_cells(
            &mut self.backend,
            diff.into_iter().map(|(x, _, cell)| (x, y, cell)),
            |x, _| next_links.get(x, 0),
        )?;
        if let Some(line) = self.shown.content.get_mut(start..end) {
            line.clone_from_slice(&next.content);
        }
        self.shown_links.copy_line(y, &next_links, 0);
        Ok(true)
    }
}
