//! The status line's formats, expanded in the client: what the client knows as format
//! variables ([`StatusCtx`]), `#(shell command)` run off the UI loop ([`ShellJobs`]),
//! and tmux styles as ratatui's.
//!
//! Variables: `session_name` `session_id` `session_windows`, per window `window_index`
//! `window_name` `window_flags` `window_active` `window_last_flag`
//! `window_zoomed_flag` `window_bell_flag` `window_activity_flag`
//! `window_silence_flag` `window_marked_flag` `window_start_flag` `window_end_flag` `window_panes`, the
//! current window's active pane `pane_title` `pane_id` `pane_width` `pane_height`
//! `pane_dead` `pane_dead_status`, `host` `host_short`, and fugue's `fugue_badges`
//! (the agent badges of the current window's panes).

use fugue_protocol::format::style::{Colour, StyleSpec, attr};
use fugue_protocol::format::{FormatContext, LoopItem};
use fugue_protocol::screen::{ClientLayout, WindowTab};
use ratatui::style::{Color, Modifier, Style};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The most `#()` commands cached at once; past it new ones expand to nothing until
/// the cache is cleared (a format is changed). Each costs a process per interval.
pub const MAX_JOBS: usize = 32;
/// The most output read from one command; the rest is not read (and the command is
/// killed when it has not ended by [`JOB_TIMEOUT`]).
pub const MAX_JOB_OUTPUT: usize = 4096;
/// How long a command may run before it is killed and its output so far used.
pub const JOB_TIMEOUT: Duration = Duration::from_secs(10);

/// tmux's window flags in its order (window_printable_flags).
pub fn window_flags(w: &WindowTab) -> String {
    fugue_protocol::format::window_flags(fugue_protocol::format::WindowFlags {
        activity: w.activity,
        bell: w.bell,
        silence: w.silence,
        current: w.active,
        last: w.last,
        zoomed: w.zoomed,
        marked: w.marked,
    })
}

#[derive(Default)]
struct Job {
    /// The first line of its last output (tmux's).
    output: Option<String>,
    started: Option<Instant>,
    running: bool,
}

/// `#(command)`: each command runs with `/bin/sh -c` in a task, at most once per
/// `status-interval`; the format shows its last output (nothing until it has one). A
/// finished command wakes the client's loop to draw again.
#[derive(Clone)]
pub struct ShellJobs {
    jobs: Arc<Mutex<HashMap<String, Job>>>,
    done: tokio::sync::mpsc::UnboundedSender<()>,
}

impl ShellJobs {
    pub fn new(done: tokio::sync::mpsc::UnboundedSender<()>) -> ShellJobs {
        ShellJobs {
            jobs: Default::default(),
            done,
        }
    }

    fn lock(jobs: &Mutex<HashMap<String, Job>>) -> MutexGuard<'_, HashMap<String, Job>> {
        // A task that panicked holding the lock left a consistent map behind.
        jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets every command (the formats changed).
    pub fn clear(&self) {
        Self::lock(&self.jobs).clear();
    }

    /// The command's cached output, starting it when it is due.
    pub fn output(&self, command: &str, interval: Duration) -> Option<String> {
        let mut jobs = Self::lock(&self.jobs);
        if !jobs.contains_key(command) && jobs.len() >= MAX_JOBS {
            return None;
        }
        let job = jobs.entry(command.to_string()).or_default();
        let due = job
            .started
            .is_none_or(|t| !interval.is_zero() && t.elapsed() >= interval);
        if due && !job.running {
            // Outside a runtime (unit tests) nothing runs.
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                job.running = true;
                job.started = Some(Instant::now());
                let (jobs, done, cmd) = (
                    Arc::clone(&self.jobs),
                    self.done.clone(),
                    command.to_string(),
                );
                rt.spawn(async move {
                    let out = run(&cmd).await;
                    if let Some(j) = ShellJobs::lock(&jobs).get_mut(&cmd) {
                        j.running = false;
                        j.output = Some(out);
                    }
                    let _ = done.send(());
                });
            }
        }
        job.output.clone()
    }
}

/// Runs one command; its first line of output, bounded.
async fn run(cmd: &str) -> String {
    use tokio::io::AsyncReadExt;
    let child = tokio::process::Command::new("/bin/sh")
        .arg("-c")
        .arg(cmd)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn();
    let Ok(mut child) = child else {
        return String::new();
    };
    let mut buf = Vec::new();
    if let Some(out) = child.stdout.take() {
        let mut limited = out.take(MAX_JOB_OUTPUT as u64);
        let _ = tokio::time::timeout(JOB_TIMEOUT, limited.read_to_end(&mut buf)).await;
    }
    let _ = child.start_kill();
    let _ = tokio::time::timeout(Duration::from_secs(1), child.wait()).await;
    let text = String::from_utf8_lossy(&buf);
    text.lines().next().unwrap_or("").to_string()
}

/// What the status line's formats are expanded against: the client's layout, one
/// window of it (in the window list) and the time.
pub struct StatusCtx<'a> {
    pub layout: Option<&'a ClientLayout>,
    pub session_name: &'a str,
    /// The window being drawn in the list; the current one elsewhere.
    pub window: Option<&'a WindowTab>,
    pub host: &'a str,
    pub now: i64,
    pub utc_offset: i64,
    pub jobs: &'a ShellJobs,
    pub interval: Duration,
    /// `#{client_prefix}`: the prefix was pressed and the next key is looked up.
    pub prefix: bool,
    /// The terminal's columns and rows (`#{client_width}`, `#{client_height}`).
    pub size: (u16, u16),
    /// The pane the formats' pane variables describe: the one under the pointer in a
    /// mouse binding, else the active one (None: the layout's active pane).
    pub pane: Option<fugue_protocol::PaneId>,
    /// `#{mouse_any_flag}` and `#{pane_in_mode}` of that pane, for the mouse bindings'
    /// `if -F '#{||:#{pane_in_mode},#{mouse_any_flag}}' ...`.
    pub mouse_any: bool,
    pub in_mode: bool,
}

fn flag(b: bool) -> String {
    if b { "1" } else { "0" }.into()
}

impl StatusCtx<'_> {
    fn window_var(&self, name: &str) -> Option<String> {
        let w = self.window?;
        let windows = self.layout.map(|l| l.windows.as_slice()).unwrap_or(&[]);
        Some(match name {
            "window_index" => w.index.to_string(),
            "window_name" => w.name.clone(),
            "window_flags" => window_flags(w),
            "window_raw_flags" => window_flags(w),
            "window_active" => flag(w.active),
            "window_last_flag" => flag(w.last),
            "window_zoomed_flag" => flag(w.zoomed),
            "window_bell_flag" => flag(w.bell),
            "window_activity_flag" => flag(w.activity),
            "window_silence_flag" => flag(w.silence),
            "window_marked_flag" => flag(w.marked),
            "window_bigger" => flag(false),
            "window_offset_x" | "window_offset_y" => "0".into(),
            "window_start_flag" => flag(windows.first().is_some_and(|f| f.index == w.index)),
            "window_end_flag" => flag(windows.last().is_some_and(|f| f.index == w.index)),
            "window_panes" if w.active => self.layout.map_or(0, |l| l.panes.len()).to_string(),
            _ => return None,
        })
    }

    fn pane_var(&self, name: &str) -> Option<String> {
        let l = self.layout?;
        let p = match self.pane {
            Some(id) => l.panes.iter().find(|p| p.pane == id)?,
            None => l.panes.iter().find(|p| p.active)?,
        };
        Some(match name {
            "mouse_any_flag" => flag(self.mouse_any),
            "pane_in_mode" => flag(self.in_mode),
            "pane_title" => p.title.clone(),
            "pane_id" => format!("%{}", p.pane.0),
            // `#P`: tmux's status line and `confirm-before -p "kill-pane #P?"` say it.
            "pane_index" => p.index.to_string(),
            "pane_width" => p.width.to_string(),
            "pane_height" => p.height.to_string(),
            "pane_dead" => flag(p.exit_status.is_some()),
            "pane_dead_status" => p.exit_status.map(|s| s.to_string()).unwrap_or_default(),
            "pane_current_command" => p.command.clone(),
            "pane_current_path" | "pane_path" => p.path.clone(),
            "pane_pid" => p.pid.map(|p| p.to_string()).unwrap_or_default(),
            "fugue_badges" => l
                .panes
                .iter()
                .filter_map(|p| p.badge.as_deref())
                .collect::<Vec<_>>()
                .join(" "),
            _ => return None,
        })
    }
}

impl FormatContext for StatusCtx<'_> {
    fn var(&self, name: &str) -> Option<String> {
        if let Some(v) = self.window_var(name).or_else(|| self.pane_var(name)) {
            return Some(v);
        }
        Some(match name {
            "session_name" => self.session_name.to_string(),
            "session_id" => format!("${}", self.layout?.session.0),
            "session_windows" => self.layout?.windows.len().to_string(),
            "host" => self.host.to_string(),
            "client_prefix" => flag(self.prefix),
            "client_width" => self.size.0.to_string(),
            "client_height" => self.size.1.to_string(),
            // The terminal's type, as this client was started in it.
            "client_termname" => std::env::var("TERM").unwrap_or_default(),
            "host_short" => self.host.split('.').next().unwrap_or("").to_string(),
            _ => return None,
        })
    }

    fn windows(&self) -> Vec<LoopItem<'_>> {
        let Some(l) = self.layout else {
            return Vec::new();
        };
        l.windows
            .iter()
            .map(|w| LoopItem {
                ctx: Box::new(StatusCtx {
                    window: Some(w),
                    ..*self
                }),
                current: w.active,
            })
            .collect()
    }

    fn shell_output(&self, command: &str) -> Option<String> {
        self.jobs.output(command, self.interval)
    }

    fn now(&self) -> i64 {
        self.now
    }

    fn utc_offset(&self, _at: i64) -> i64 {
        self.utc_offset
    }
}

pub(super) fn colour(c: Colour) -> Color {
    match c {
        Colour::Default => Color::Reset,
        Colour::Indexed(i) if i < 16 => [
            Color::Black,
            Color::Red,
            Color::Green,
            Color::Yellow,
            Color::Blue,
            Color::Magenta,
            Color::Cyan,
            Color::Gray,
            Color::DarkGray,
            Color::LightRed,
            Color::LightGreen,
            Color::LightYellow,
            Color::LightBlue,
            Color::LightMagenta,
            Color::LightCyan,
            Color::White,
        ]
        .get(usize::from(i))
        .copied()
        .unwrap_or(Color::Reset),
        Colour::Indexed(i) => Color::Indexed(i),
        Colour::Rgb(r, g, b) => Color::Rgb(r, g, b),
    }
}

/// `base` with a style spec's colours and attributes on top (what the spec leaves
/// unset shows through, as tmux's push-default does).
pub fn apply(base: Style, s: &StyleSpec) -> Style {
    let mut st = base;
    if let Some(c) = s.fg {
        st = st.fg(colour(c));
    }
    if let Some(c) = s.bg {
        st = st.bg(colour(c));
    }
    if let Some(c) = s.us {
        st = st.underline_color(colour(c));
    }
    for (bit, m) in [
        (attr::BOLD, Modifier::BOLD),
        (attr::DIM, Modifier::DIM),
        (attr::UNDERSCORE, Modifier::UNDERLINED),
        (attr::BLINK, Modifier::SLOW_BLINK),
        (attr::REVERSE, Modifier::REVERSED),
        (attr::HIDDEN, Modifier::HIDDEN),
        (attr::ITALICS, Modifier::ITALIC),
        (attr::STRIKETHROUGH, Modifier::CROSSED_OUT),
    ] {
        if s.attrs & bit != 0 {
            st = st.add_modifier(m);
        }
    }
    st
}

/// A style option's value (`bg=green,fg=black`) over `base`.
pub fn option_style(base: Style, option: &str) -> Style {
    let mut spec = StyleSpec::default();
    spec.apply(option);
    apply(base, &spec)
}
