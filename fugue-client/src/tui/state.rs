//! What the terminal client knows: the server's screens as last received, and the
//! client's own modes (prefix, prompts, scrolling).

use fugue_protocol::screen::{ClientLayout, Cursor, Frame, Hyperlink, PaneInput, PaneRect};
use fugue_protocol::{KeyTable, PaneId, Row};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A pane's hyperlinks by number, as the server sent them with its rows.
pub type PaneLinks = HashMap<u32, Arc<Hyperlink>>;

/// Links kept per pane before those no row refers to are let go.
const PANE_LINKS_MAX: usize = 4096;

/// Adds `links` to `known`; past [`PANE_LINKS_MAX`], keeps only those `rows` carry.
pub fn learn_links(known: &mut PaneLinks, links: Vec<Hyperlink>, rows: &[Arc<Row>]) {
    for l in links {
        known.insert(l.number, Arc::new(l));
    }
    if known.len() > PANE_LINKS_MAX {
        let used: std::collections::HashSet<u32> = rows.iter().flat_map(|r| r.links()).collect();
        known.retain(|n, _| used.contains(n));
    }
}

/// A pane's screen as the server last described it.
#[derive(Default)]
pub struct PaneView {
    pub cols: u16,
    pub rows: u16,
    pub lines: Vec<Arc<Row>>,
    pub cursor: Cursor,
    /// What the pane's program asked of its input (kitty keys, focus events).
    pub input: PaneInput,
    /// The program asked for mouse reports.
    pub mouse: bool,
    /// The cursor's style and colour as the program set them.
    pub cursor_look: fugue_protocol::passthrough::CursorLook,
    pub links: PaneLinks,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// `C-b :`: a line of tmux commands (`command_prompt.rs`).
    Command,
    /// `command-prompt` with questions and a template (`template_prompt.rs`): `C-b
    /// ,`, `C-b $`, `C-b f` and any a binding makes.
    Template,
}

impl PromptKind {
    /// What the status line shows before the text: tmux shows `:` for commands.
    pub fn prompt(self) -> String {
        match self {
            PromptKind::Command => ":".into(),
            // Each question has its own text (the App's template prompt).
            PromptKind::Template => String::new(),
        }
    }
}

pub enum Mode {
    Normal,
    /// The prefix was pressed; the next key is a command.
    Prefix,
    Prompt {
        kind: PromptKind,
        input: super::prompt::LineEdit,
    },
    /// A y/n question on the status line (`confirm-before`).
    Confirm {
        question: String,
        /// The command sequence a yes runs, as a binding's.
        on_yes: Vec<fugue_protocol::tmux_cmd::Argv>,
        /// The pane shown when the question was asked: a command the answer runs
        /// with no target acts on it, not on whatever is active when `y` is pressed
        /// (tmux keeps the asking key's target the same way).
        pane: Option<PaneId>,
        /// `-y`: Enter alone answers yes.
        default_yes: bool,
    },
    /// `display-menu` (`menu.rs`).
    Menu(super::menu::Menu),
    /// What a command run from a binding or `C-b :` printed (`list-windows`,
    /// `show-options`, `show-messages`), as tmux shows it in a view: q leaves.
    View {
        title: String,
        lines: Vec<String>,
        scroll: usize,
    },
    /// Copy mode (scroll mode grown up): see `copy/mod.rs`.
    Copy(Box<super::copy::CopyMode>),
    /// `C-b #` and `C-b =`: paste buffers (`buffers.rs`).
    Buffers(super::buffers::BufferList),
    /// `choose-tree` and `find-window` (`tree.rs`).
    Tree(Box<super::tree::Tree>),
    /// `choose-client` (`client_chooser.rs`).
    Clients(super::client_chooser::ClientList),
    /// `customize-mode` (`customize.rs`).
    Options(Box<super::customize::Customize>),
}

/// What a request in flight is for.
#[derive(Debug)]
pub enum Pending {
    /// Show an error if it fails.
    Action(&'static str),
    /// A new session to switch to when created.
    NewSession,
    /// Rows or a search for copy mode on this pane.
    Copy(PaneId, super::copy::Fetch),
    /// The sessions, to switch to the next (true) or previous one.
    SwitchSession(bool),
    /// What the tree (`choose-tree`, `find-window`) asked the server for.
    Tree(super::tree::Fetch),
    /// A command of a sequence (`C-b :`, a binding): when it succeeds, these are sent
    /// next; when it fails, they are dropped (tmux stops a sequence at an error).
    Then(Box<Pending>, Vec<super::input::Request>),
    /// A command whose answer is text to show (its name, and how the CLI prints it).
    Output(String, Box<fugue_verbs::Printer>),
}

/// What changed on screen since the last draw.
#[derive(Debug, Default)]
pub enum Damage {
    #[default]
    None,
    /// Rows of panes' live screens (rows within each pane).
    Rows(HashMap<PaneId, Vec<u16>>),
    /// Anything else: layout, modes, the status bar.
    All,
}

impl Damage {
    fn rows(&mut self, pane: PaneId, rows: impl IntoIterator<Item = u16>) {
        match self {
            Damage::All => {}
            Damage::None => {
                *self = Damage::Rows(HashMap::from([(pane, rows.into_iter().collect())]));
            }
            Damage::Rows(map) => map.entry(pane).or_default().extend(rows),
        }
    }
}

pub struct App {
    pub keys: KeyTable,
    pub status: bool,
    pub session_name: String,
    /// The session this client showed before the current one (`switch-client -l`).
    pub last_session: Option<String>,
    pub layout: Option<ClientLayout>,
    pub panes: HashMap<PaneId, PaneView>,
    pub mode: Mode,
    /// The message over the status line, and until when (None: until a key).
    pub notice: Option<(String, Option<Instant>)>,
    /// A mode the server handed over for a pane this client has not been sent yet
    /// (`copy-mode -t %3` right after attaching): opened once a frame shows it.
    pub pending_mode: Option<Vec<String>>,
    /// `attach -r` (or `-f read-only`): only commands that change nothing (and
    /// detaching or switching) go to the server; typed keys are dropped.
    pub read_only: bool,
    /// How this client leaves when the server detaches it (`detach-client -P/-E`).
    pub leave: fugue_protocol::Leave,
    pub pending: HashMap<u64, Pending>,
    /// Requests made while handling what is ready, sent together before drawing.
    pub outbox: Vec<crate::tui::input::Request>,
    pub damage: Damage,
    /// Until when a repeatable key (resize, focus) acts without the prefix, after one
    /// such key was pressed (tmux's `bind -r` and `repeat-time`).
    pub repeat_until: Option<Instant>,
    /// The key table the next key is looked up in while `Mode::Prefix`: "prefix" after
    /// the prefix key, or the table `switch-client -T` named (tmux's key tables).
    pub table: String,
    /// The terminal must be drawn again from scratch (`C-b r`, `refresh-client`).
    pub redraw: bool,
    /// Keys whose press went to a pane and whose release has not come yet (at most
    /// `input::MAX_HELD`): their release goes to the pane too, other releases do not.
    pub held: Vec<fugue_protocol::keys::KeyCode>,
    /// The command prompt's history (`C-b :`, Up/Down).
    pub history: super::command_prompt::History,
    /// A `command-prompt` template's questions and answers while it asks.
    pub template: Option<super::template_prompt::TemplatePrompt>,
    /// The outer terminal's input modes the client switched on.
    pub outer: super::outer::Outer,
    /// The pane a mouse button went down in and has not come up yet: its drag and
    /// release go to it wherever the pointer is.
    pub mouse_held: Option<PaneId>,
    /// The terminal has focus, as it last said (true until it says otherwise).
    pub focused: bool,
    /// The multiplexer's own use of the mouse (off until the server says it is on).
    pub mouse: super::mouse_actions::MouseState,
    /// Mouse events as the keys a person bound (`bind -n WheelUpPane ...`).
    pub mouse_keys: super::mouse_keys::MouseKeys,
    /// Copy mode's options, from the server's configuration.
    pub copy_options: fugue_protocol::CopyOptions,
    /// Bytes for the client's own terminal (a copy's OSC 52), written between frames.
    pub terminal_out: Vec<u8>,
    /// Notices from tasks off the loop (a failed `copy_command`), and where the loop
    /// reads them.
    pub notices: tokio::sync::mpsc::UnboundedSender<String>,
    pub notices_in: tokio::sync::mpsc::UnboundedReceiver<String>,
    /// Commands decided off the loop (an `if-shell` branch), run as a binding's.
    pub bound: tokio::sync::mpsc::UnboundedSender<Vec<Vec<String>>>,
    pub bound_in: tokio::sync::mpsc::UnboundedReceiver<Vec<Vec<String>>>,
    /// The status line's options (from the server).
    pub status_opts: fugue_protocol::status_line::StatusOptions,
    /// The last key, paste or click from the terminal (`lock-after-time`).
    pub last_input: Instant,
    /// The terminal's size in cells (`#{client_width}`, `#{client_height}`).
    pub term_size: (u16, u16),
    /// `#()` commands of the status line, and where their completion wakes the loop.
    pub status_jobs: super::status_fmt::ShellJobs,
    pub status_jobs_in: tokio::sync::mpsc::UnboundedReceiver<()>,
    /// When the status line is next drawn again for its clock (`status-interval`).
    pub status_tick: Option<Instant>,
    /// The host name, for `#H` / `#h`.
    pub host: String,
    /// The server's option names, for Tab at `C-b :`.
    pub option_names: Vec<String>,
    /// Repeated Tab at `C-b :` (`command_prompt.rs`).
    pub completion: Option<super::command_prompt::Cycle>,
    /// `display-panes`' numbers, while they show (`display_panes.rs`).
    pub display_panes: Option<super::display_panes::DisplayPanes>,
    /// `clock-mode`'s clock over a pane, until a key.
    pub clock: Option<super::clock::Clock>,
    /// The mode the server was last told this client shows (`mode_report.rs`).
    pub reported_mode: Option<(PaneId, &'static str)>,
}

/// How long a notice stays in the status bar.
pub const NOTICE_TIME: Duration = Duration::from_secs(4);

impl App {
    pub fn new(keys: KeyTable, status: bool, session_name: String) -> App {
        // Unbounded, but only a failed copy command sends, one notice per copy.
        let (notices, notices_in) = tokio::sync::mpsc::unbounded_channel();
        let (bound, bound_in) = tokio::sync::mpsc::unbounded_channel();
        // Unbounded, but each `#()` command (at most `status_fmt::MAX_JOBS`) sends once
        // per run, and runs at most once per status-interval.
        let (jobs_done, status_jobs_in) = tokio::sync::mpsc::unbounded_channel();
        App {
            keys,
            status,
            session_name,
            last_session: None,
            layout: None,
            panes: HashMap::new(),
            mode: Mode::Normal,
            notice: None,
            pending_mode: None,
            read_only: false,
            leave: Default::default(),
            pending: HashMap::new(),
            outbox: Vec::new(),
            damage: Damage::All,
            repeat_until: None,
            table: "prefix".into(),
            redraw: false,
            held: Vec::new(),
            history: Default::default(),
            template: None,
            outer: super::outer::Outer::new(),
            mouse_held: None,
            focused: true,
            mouse: Default::default(),
            mouse_keys: Default::default(),
            copy_options: Default::default(),
            terminal_out: Vec::new(),
            notices,
            notices_in,
            bound,
            bound_in,
            status_opts: Default::default(),
            last_input: Instant::now(),
            term_size: (0, 0),
            status_jobs: super::status_fmt::ShellJobs::new(jobs_done),
            status_jobs_in,
            status_tick: None,
            host: crate::cli::format::host(),
            option_names: Vec::new(),
            completion: None,
            display_panes: None,
            clock: None,
            reported_mode: None,
        }
    }

    /// Everything must be drawn again.
    pub fn damage_all(&mut self) {
        self.damage = Damage::All;
    }

    /// Shows a message over the status line for `display-time` (tmux's messages;
    /// 0, as in tmux, keeps it until the next key, here [`NOTICE_TIME`] at most).
    pub fn notice(&mut self, text: impl Into<String>) {
        let ms = self.status_opts.display_time_ms;
        let shown = if ms == 0 {
            NOTICE_TIME
        } else {
            Duration::from_millis(u64::from(ms))
        };
        self.notice = Some((text.into(), Some(Instant::now() + shown)));
        self.damage_all();
    }

    /// A message for `ms` milliseconds (`display-message -d`); 0 keeps it until a
    /// key is pressed, as tmux's.
    pub fn notice_for(&mut self, text: impl Into<String>, ms: u32) {
        let until = (ms > 0).then(|| Instant::now() + Duration::from_millis(u64::from(ms)));
        self.notice = Some((text.into(), until));
        self.damage_all();
    }

    /// Takes the status line's options: formats changed, so `#()` commands start over.
    pub fn set_status_options(&mut self, o: fugue_protocol::status_line::StatusOptions) {
        if o != self.status_opts {
            self.status_jobs.clear();
        }
        self.status_opts = o;
        self.status_tick = None;
        self.damage_all();
    }

    /// When the status line must be drawn again for its clock: every status-interval
    /// seconds while it is shown; never when the interval is 0.
    pub fn next_status_tick(&mut self) -> Option<Instant> {
        if !self.status || self.status_opts.interval == 0 {
            return None;
        }
        let every = Duration::from_secs(u64::from(self.status_opts.interval));
        Some(
            *self
                .status_tick
                .get_or_insert_with(|| Instant::now() + every),
        )
    }

    /// Whether the panes share tmux's one-cell borders (`pane-borders shared`): their
    /// rects are then their own cells, with no box around them.
    pub fn shared_borders(&self) -> bool {
        self.layout
            .as_ref()
            .is_some_and(|l| l.shared_borders.is_some())
    }

    /// The rows of a pane's own screen, for a rect of the layout.
    pub fn own_height(&self, r: &PaneRect) -> u16 {
        if self.shared_borders() {
            r.height.max(1)
        } else {
            r.height.saturating_sub(2).max(1)
        }
    }

    pub fn active_rect(&self) -> Option<&PaneRect> {
        self.layout.as_ref()?.panes.iter().find(|p| p.active)
    }

    pub fn active_pane(&self) -> Option<PaneId> {
        self.active_rect().map(|p| p.pane)
    }

    /// The session shown now; the one before becomes the last (`switch-client -l`).
    pub fn set_session_name(&mut self, name: String) {
        if name != self.session_name && !self.session_name.is_empty() {
            self.last_session = Some(std::mem::replace(&mut self.session_name, name));
        } else {
            self.session_name = name;
        }
    }

    /// Applies a frame from the server.
    pub fn apply(&mut self, frame: Frame) {
        if let Some(layout) = frame.layout {
            self.set_session_name(layout.session_name.clone());
            // The popup's pane is in no layout but is shown all the same.
            let popup = layout.popup.as_ref().map(|p| p.pane);
            self.panes
                .retain(|id, _| Some(*id) == popup || layout.panes.iter().any(|p| p.pane == *id));
            if let Mode::Copy(s) = &self.mode
                && !layout.panes.iter().any(|p| p.pane == s.pane && p.active)
            {
                self.mode = Mode::Normal;
            }
            // Customize mode and the clock go with their pane (another session or
            // window shown, the pane closed), as copy mode does.
            let shown = |pane: PaneId| layout.panes.iter().any(|p| p.pane == pane);
            if let Mode::Options(c) = &self.mode
                && !shown(c.pane)
            {
                self.mode = Mode::Normal;
            }
            if self.clock.as_ref().is_some_and(|c| !shown(c.pane)) {
                self.clock = None;
            }
            self.layout = Some(layout);
            self.damage_all();
        }
        for u in frame.panes {
            let view = self.panes.entry(u.pane).or_default();
            if u.full || view.rows != u.rows || view.cols != u.cols {
                let blank = Arc::new(Row::default());
                view.lines = (0..u.rows).map(|_| Arc::clone(&blank)).collect();
                self.damage.rows(u.pane, 0..u.rows);
            }
            view.cols = u.cols;
            view.rows = u.rows;
            self.damage.rows(u.pane, u.changed.iter().map(|(i, _)| *i));
            for (i, row) in u.changed {
                if let Some(slot) = view.lines.get_mut(usize::from(i)) {
                    *slot = row;
                }
            }
            learn_links(&mut view.links, u.links, &view.lines);
            view.cursor = u.cursor;
            view.input = u.input;
            view.mouse = u.mouse;
            view.cursor_look = u.cursor_look;
        }
    }

    /// What the active pane's program asked of its input.
    pub fn active_input(&self) -> PaneInput {
        self.active_pane()
            .and_then(|p| self.panes.get(&p))
            .map(|v| v.input)
            .unwrap_or_default()
    }
}
