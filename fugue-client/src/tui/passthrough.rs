//! What the client passes on to the person's terminal besides the screen
//! (docs/terminal.md, "Passthrough to your terminal"):
//!
//! - the active pane's cursor style (DECSCUSR) and colour (OSC 12), put back to the
//!   terminal's own for a pane that set none, and when the client ends;
//! - the title, when the config says so (tmux's `set-titles`), after pushing the
//!   terminal's own title on its title stack (popped when the client ends);
//! - the bells and clipboard copies the server sends;
//! - synchronized output: each frame is written between `CSI ? 2026 h` and `l` once the
//!   terminal has said it knows the mode (DECRQM, asked at start). Nothing waits for
//!   the answer: frames go out unwrapped until it comes, and an answer later than
//!   [`SYNC_ANSWER_WINDOW`] is not believed.
//!
//! Everything here is looked at once per drawn frame, never per byte of a pane.

use super::state::{App, Mode};
use fugue_protocol::passthrough::{ClipboardCopy, CursorLook, OuterEvents};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// DECRQM: does the terminal know synchronized output (mode 2026)?
pub const SYNC_QUERY: &str = "\x1b[?2026$p";
const SYNC_BEGIN: &[u8] = b"\x1b[?2026h";
const SYNC_END: &[u8] = b"\x1b[?2026l";

/// How long after asking an answer counts. A terminal answers at once; a late answer
/// is more likely something else (a terminal multiplexer in between, or a person
/// typing what looks like one).
pub const SYNC_ANSWER_WINDOW: Duration = Duration::from_secs(5);

/// The longest title written (a window name or a pane's title can be long).
const MAX_TITLE: usize = 1024;

/// The terminal's cursor is not its own default: put it back when the client ends.
static CURSOR_CHANGED: AtomicBool = AtomicBool::new(false);
/// The terminal's own title is on its title stack: pop it when the client ends.
static TITLE_PUSHED: AtomicBool = AtomicBool::new(false);

/// What gives the terminal back its cursor and title, written when the client ends
/// or is stopped (also from the panic hook, hence the statics).
pub fn restore_sequence() -> String {
    let mut out = String::new();
    if CURSOR_CHANGED.swap(false, Ordering::AcqRel) {
        out.push_str("\x1b[0 q\x1b]112\x07");
    }
    if TITLE_PUSHED.swap(false, Ordering::AcqRel) {
        out.push_str("\x1b[23;0t");
    }
    out
}

enum Sync {
    Asked(Instant),
    Known(bool),
}

pub struct Outer {
    sync: Sync,
    /// The cursor's look on the terminal; None: unknown (after a reset).
    cursor: Option<CursorLook>,
    /// The title's format, when the client sets the title.
    title_format: Option<String>,
    /// The title last written.
    title: Option<String>,
    /// A bell and the latest clipboard copy waiting for the next draw.
    bell: bool,
    clipboard: Option<ClipboardCopy>,
}

impl Outer {
    /// The state right after [`SYNC_QUERY`] was written.
    pub fn new(title_format: Option<String>) -> Outer {
        Outer {
            sync: Sync::Asked(Instant::now()),
            cursor: Some(CursorLook::default()),
            title_format,
            title: None,
            bell: false,
            clipboard: None,
        }
    }

    /// The terminal answered [`SYNC_QUERY`]: it knows the mode or not.
    pub fn sync_answer(&mut self, known: bool) {
        if let Sync::Asked(at) = self.sync
            && at.elapsed() <= SYNC_ANSWER_WINDOW
        {
            self.sync = Sync::Known(known);
        }
    }

    fn synchronized(&self) -> bool {
        matches!(self.sync, Sync::Known(true))
    }

    /// `set-titles` or `set-titles-string` changed: the title is written (or left
    /// alone) from the next full draw on.
    pub fn set_title_format(&mut self, format: Option<String>) {
        if self.title_format != format {
            self.title_format = format;
            self.title = None;
        }
    }

    /// What the server sent for the terminal; passed on with the next draw.
    pub fn events(&mut self, ev: OuterEvents) {
        self.bell |= ev.bell;
        if ev.clipboard.is_some() {
            self.clipboard = ev.clipboard;
        }
    }

    pub fn has_pending(&self) -> bool {
        self.bell || self.clipboard.is_some()
    }

    /// The terminal was reset (the client was stopped and continued, or redraws from
    /// scratch): write the cursor's look and the title again.
    pub fn forget(&mut self) {
        self.cursor = None;
        self.title = None;
    }

    /// Written before a frame.
    pub fn begin(&self) -> &'static [u8] {
        if self.synchronized() { SYNC_BEGIN } else { b"" }
    }

    /// Written after a frame's cells and cursor: the cursor's look, the title (when the
    /// layout may have changed, `full`), a bell, a clipboard copy, the end of the
    /// synchronized update.
    pub fn finish(&mut self, app: &App, full: bool, out: &mut Vec<u8>) {
        self.cursor_look(app, out);
        if full && let Some(format) = &self.title_format {
            let title = title(app, format);
            if self.title.as_ref() != Some(&title) {
                if !TITLE_PUSHED.swap(true, Ordering::AcqRel) {
                    out.extend_from_slice(b"\x1b[22;0t");
                }
                out.extend_from_slice(b"\x1b]0;");
                out.extend_from_slice(title.as_bytes());
                out.push(0x07);
                self.title = Some(title);
            }
        }
        if std::mem::take(&mut self.bell) {
            out.push(0x07);
        }
        if let Some(copy) = self.clipboard.take() {
            out.extend(copy.sequence());
        }
        if self.synchronized() {
            out.extend_from_slice(SYNC_END);
        }
    }

    /// The active pane's cursor look while the cursor is in it, else the terminal's.
    fn cursor_look(&mut self, app: &App, out: &mut Vec<u8>) {
        static DEFAULT: CursorLook = CursorLook {
            style: 0,
            color: None,
        };
        let want = match app.mode {
            Mode::Normal | Mode::Prefix => app
                .active_pane()
                .and_then(|p| app.panes.get(&p))
                .map_or(&DEFAULT, |v| &v.cursor_look),
            _ => &DEFAULT,
        };
        let shown = self.cursor.as_ref();
        if shown == Some(want) {
            return;
        }
        if shown.is_none_or(|s| s.style != want.style) {
            out.extend_from_slice(format!("\x1b[{} q", want.style.min(6)).as_bytes());
        }
        if shown.is_none_or(|s| s.color != want.color) {
            match &want.color {
                Some(c) => out.extend_from_slice(format!("\x1b]12;{c}\x07").as_bytes()),
                None => out.extend_from_slice(b"\x1b]112\x07"),
            }
        }
        CURSOR_CHANGED.store(!want.is_default(), Ordering::Release);
        self.cursor = Some(want.clone());
    }
}

/// The title `format` gives for what the client shows: tmux's variables (and their
/// short names `#S`, `#I`, `#W`, `#T`, `#D`, `#P`, `#F`) expanded by the CLI's
/// format expander; an unknown variable expands to nothing, as in tmux. Control
/// characters are left out: the title is written inside an escape sequence.
pub fn title(app: &App, format: &str) -> String {
    let layout = app.layout.as_ref();
    let window = layout.and_then(|l| l.windows.iter().find(|w| w.active));
    let pane = app.active_rect();
    let value = |name: &str| -> String {
        match name {
            "session_name" => app.session_name.clone(),
            "window_index" => window.map(|w| w.index.to_string()).unwrap_or_default(),
            "window_name" => window.map(|w| w.name.clone()).unwrap_or_default(),
            "window_flags" => window
                .map(super::status_fmt::window_flags)
                .unwrap_or_default(),
            "pane_title" => pane.map(|p| p.title.clone()).unwrap_or_default(),
            "pane_id" => pane.map(|p| p.pane.to_string()).unwrap_or_default(),
            "pane_index" => layout
                .and_then(|l| l.panes.iter().position(|p| p.active))
                .map(|i| i.to_string())
                .unwrap_or_default(),
            _ => String::new(),
        }
    };
    // tmux expands set-titles-string through strftime too.
    let ctx = crate::cli::format::Lookup(|n: &str| Some(value(n)));
    let expanded = fugue_protocol::format::expand_time(format, &ctx);
    let mut out: String = expanded.chars().filter(|c| !c.is_control()).collect();
    if out.len() > MAX_TITLE {
        let mut end = MAX_TITLE;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::state::PaneView;
    use fugue_protocol::keys::{Key, KeyCode, Mods};
    use fugue_protocol::screen::{ClientLayout, PaneRect, WindowTab};
    use fugue_protocol::{KeyTable, PaneId, SessionId};

    /// A client showing window 3 `vim` of session `s`, its one pane `%7` titled `t`.
    fn app(look: CursorLook) -> App {
        let keys = KeyTable {
            prefix: Key::new(KeyCode::Char('b'), Mods::CTRL),
            bindings: Vec::new(),
            repeat_time_ms: 0,
        };
        let mut app = App::new(keys, true, "s".into());
        app.layout = Some(ClientLayout {
            session: SessionId(1),
            session_name: "s".into(),
            windows: vec![WindowTab {
                index: 3,
                name: "vim".into(),
                active: true,
                last: false,
                zoomed: true,
                activity: false,
                bell: false,
                silence: false,
                marked: false,
            }],
            panes: vec![PaneRect {
                pane: PaneId(7),
                x: 0,
                y: 0,
                width: 10,
                height: 5,
                title: "t\x1bx".into(),
                active: true,
                exit_status: None,
                badge: None,
                index: 0,
                command: String::new(),
                path: String::new(),
                pid: None,
                border_style: String::new(),
                active_border_style: String::new(),
                border_text: String::new(),
            }],
            cols: 10,
            rows: 5,
            popup: None,
            shared_borders: None,
        });
        app.panes.insert(
            PaneId(7),
            PaneView {
                cursor_look: look,
                ..Default::default()
            },
        );
        app
    }

    fn finish(outer: &mut Outer, app: &App) -> String {
        let mut out = Vec::new();
        outer.finish(app, true, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn titles_expand_tmux_names_without_control_characters() {
        let app = app(CursorLook::default());
        assert_eq!(
            title(&app, "#S:#I:#W#F - #T (#D #{pane_index}) #{nope}##"),
            "s:3:vim*Z - tx (%7 0) #"
        );
        // tmux ends a format at a malformed `#{`.
        assert_eq!(title(&app, "a#{unterminated"), "a");
    }

    #[test]
    fn only_what_changed_is_written_and_the_sync_answer_has_a_window() {
        let red_bar = CursorLook {
            style: 5,
            color: Some("red".into()),
        };
        let mut outer = Outer::new(None);
        assert_eq!(finish(&mut outer, &app(CursorLook::default())), "");
        let app = app(red_bar);
        assert_eq!(finish(&mut outer, &app), "\x1b[5 q\x1b]12;red\x07");
        assert_eq!(finish(&mut outer, &app), "");
        outer.forget();
        assert_eq!(finish(&mut outer, &app), "\x1b[5 q\x1b]12;red\x07");
        outer.events(OuterEvents {
            bell: true,
            clipboard: None,
        });
        assert!(outer.has_pending());
        outer.sync_answer(true);
        assert_eq!(outer.begin(), b"\x1b[?2026h");
        assert_eq!(finish(&mut outer, &app), "\x07\x1b[?2026l");
        assert!(!outer.has_pending());

        let asked = Instant::now().checked_sub(SYNC_ANSWER_WINDOW + Duration::from_secs(1));
        if let Some(asked) = asked {
            let mut late = Outer::new(None);
            late.sync = Sync::Asked(asked);
            late.sync_answer(true);
            assert_eq!(late.begin(), b"");
        }
    }
}
