//! What keys do in the terminal client: the prefix, bound actions, prompts, scrolling,
//! and everything else typed into the active pane.

use super::state::{App, Mode, Pending, PromptKind};
use fugue_protocol::keys::{Key, KeyCode, KeyKind, kitty};
use fugue_protocol::{Command, InputPart, SendInput, Target};

/// Keys whose press went to a pane, remembered for their release. More keys than
/// hands hold at once.
const MAX_HELD: usize = 16;

/// A request the key produced.
#[derive(Debug)]
pub struct Request {
    pub command: Command,
    pub pending: Pending,
}

pub(super) fn req(command: Command, what: &'static str) -> Request {
    Request {
        command,
        pending: Pending::Action(what),
    }
}

fn send_key(key: Key) -> Request {
    req(
        Command::SendInput(SendInput {
            target: None,
            parts: vec![InputPart::Key(key)],
        }),
        "send-keys",
    )
}

impl App {
    /// Inner height of the active pane (for paging).
    pub fn page(&self) -> u16 {
        self.active_rect().map(|r| self.own_height(r)).unwrap_or(10)
    }

    pub fn on_paste(&mut self, text: String) -> Vec<Request> {
        match &mut self.mode {
            Mode::Prompt { input, .. } => {
                input.insert_str(&text);
                Vec::new()
            }
            Mode::Copy(c) => {
                if let Some(p) = &mut c.prompt {
                    p.input.insert_str(&text);
                }
                Vec::new()
            }
            Mode::Options(c) => {
                if let Some(ask) = &mut c.ask {
                    ask.input_mut().insert_str(&text);
                }
                Vec::new()
            }
            Mode::Normal => vec![req(
                Command::SendInput(SendInput {
                    target: None,
                    parts: vec![InputPart::Paste(text)],
                }),
                "paste",
            )],
            _ => Vec::new(),
        }
    }

    /// A key from the terminal. Bindings see its chord (a press, lock states aside);
    /// prompts, scrolling and questions see it as a legacy terminal would have sent it
    /// (a keypad 5 is a 5); the pane gets the key whole. A release goes to the pane only
    /// when the pane got the key's press and its program asked for releases (kitty's
    /// "report event types"), so a program never sees the release of a key fugue kept
    /// (the prefix, a bound key), nor a key stuck down, and typing into a pane that
    /// does not want releases costs no request for them.
    pub fn on_key(&mut self, key: Key) -> Vec<Request> {
        if key.kind == KeyKind::Release {
            return match self.held.iter().position(|k| *k == key.code) {
                Some(i) => {
                    self.held.remove(i);
                    vec![send_key(key)]
                }
                None => Vec::new(),
            };
        }
        // A message shown until a key (`display-message -d 0`) goes with this one.
        if self
            .notice
            .as_ref()
            .is_some_and(|(_, until)| until.is_none())
        {
            self.notice = None;
            self.damage_all();
        }
        let chord = key.chord();
        // The popup takes every key while it is open (the prefix too, as tmux's).
        if matches!(self.mode, Mode::Normal | Mode::Prefix)
            && let Some(popup) = self.popup().cloned()
        {
            self.mode = Mode::Normal;
            return self.popup_key(&popup, key);
        }
        // The clock: any key ends it, and goes no further (tmux's).
        if super::clock::on_key(self) {
            return Vec::new();
        }
        // display-panes' numbers: a pane's index is theirs; another key dismisses them
        // and goes on (tmux's).
        if self.display_panes.is_some()
            && let Some(requests) = super::display_panes::on_key(self, &key)
        {
            return requests;
        }
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Normal => {
                // Within the repeat time of a repeatable key, another one acts without
                // the prefix (so `C-b C-Right C-Right` resizes twice); any other key ends
                // the repeat and is handled as usual.
                if let Some(until) = self.repeat_until.take()
                    && std::time::Instant::now() < until
                    && let Some(b) = self.keys.lookup("prefix", &chord).filter(|b| b.repeat)
                {
                    let commands = b.commands.clone();
                    return self.repeatable(commands);
                }
                if chord == self.keys.prefix {
                    self.table = "prefix".into();
                    self.mode = Mode::Prefix;
                    return Vec::new();
                }
                if let Some(b) = self.keys.lookup("root", &chord) {
                    let (repeat, commands) = (b.repeat, b.commands.clone());
                    return match repeat {
                        true => self.repeatable(commands),
                        false => self.run_bound(commands),
                    };
                }
                // Releases are of use only to a program that asked for them.
                if self.active_input().kitty & kitty::EVENT_TYPES != 0 {
                    self.hold(key.code);
                }
                vec![send_key(key)]
            }
            // The prefix table, or one `switch-client -T` chose: one key is looked up
            // there; a key it does not bind is dropped, as in tmux.
            Mode::Prefix => match self.keys.lookup(&self.table.clone(), &chord) {
                Some(b) if b.repeat => {
                    let commands = b.commands.clone();
                    self.repeatable(commands)
                }
                Some(b) => {
                    let commands = b.commands.clone();
                    self.run_bound(commands)
                }
                None => Vec::new(),
            },
            mode => self.on_local_key(mode, key),
        }
    }

    /// Keys the client handles itself: prompts, questions, help and scrolling, which
    /// know keys as legacy terminals send them.
    fn on_local_key(&mut self, mode: Mode, key: Key) -> Vec<Request> {
        let Some(key) = key.legacy() else {
            self.mode = mode;
            return Vec::new();
        };
        match mode {
            Mode::Normal | Mode::Prefix => {
                self.mode = mode;
                Vec::new()
            }
            Mode::Prompt {
                kind: PromptKind::Command,
                input,
            } => self.command_prompt_key(input, key),
            Mode::Prompt {
                kind: PromptKind::Template,
                input,
            } => self.template_prompt_key(input, key),
            // tmux's answer: y or Y runs the command (with -y, Enter too); any other
            // key declines.
            Mode::Confirm {
                on_yes,
                pane,
                default_yes,
                ..
            } => {
                let yes = key == Key::char('y')
                    || key == Key::char('Y')
                    || (default_yes && key.code == KeyCode::Enter);
                if !yes {
                    return Vec::new();
                }
                let mut requests = self.run_bound(on_yes);
                if let Some(pane) = pane {
                    for r in &mut requests {
                        if let Some(t @ None) = r.command.first_target_mut() {
                            *t = Some(Target::Pane(pane));
                        }
                    }
                }
                super::command_prompt::chain(requests)
            }
            Mode::Menu(menu) => super::menu::on_key(self, menu, key),
            Mode::View {
                title,
                lines,
                scroll,
            } => {
                let scroll = match key.code {
                    KeyCode::Down | KeyCode::Char('j') => scroll + 1,
                    KeyCode::Up | KeyCode::Char('k') => scroll.saturating_sub(1),
                    KeyCode::PageDown | KeyCode::Char(' ') => scroll + 10,
                    KeyCode::PageUp => scroll.saturating_sub(10),
                    KeyCode::Home | KeyCode::Char('g') => 0,
                    KeyCode::End | KeyCode::Char('G') => lines.len().saturating_sub(1),
                    // q, Escape and any other key leave, as tmux's view mode.
                    _ => return Vec::new(),
                };
                let scroll = scroll.min(lines.len().saturating_sub(1));
                self.mode = Mode::View {
                    title,
                    lines,
                    scroll,
                };
                Vec::new()
            }
            Mode::Buffers(list) => super::buffers::on_key(self, list, key),
            Mode::Clients(list) => super::client_chooser::on_key(self, list, key),
            Mode::Options(c) => super::customize_keys::on_key(self, c, key),
            Mode::Tree(tree) => super::tree_keys::on_key(self, tree, key),
            Mode::Copy(c) => {
                self.mode = Mode::Copy(c);
                self.on_copy_key(key)
            }
        }
    }

    /// Remembers that the pane got the press of `code`, for its release.
    fn hold(&mut self, code: KeyCode) {
        if self.held.contains(&code) {
            return;
        }
        // Bounded: a terminal that never reports releases (or loses one) must not grow
        // this; the oldest key held is forgotten, its release then kept from the pane.
        if self.held.len() >= MAX_HELD {
            self.held.remove(0);
        }
        self.held.push(code);
    }

    /// A repeatable action: runs it and opens (or extends) the repeat time.
    fn repeatable(&mut self, commands: Vec<Vec<String>>) -> Vec<Request> {
        let ms = u64::from(self.keys.repeat_time_ms);
        self.repeat_until =
            (ms > 0).then(|| std::time::Instant::now() + std::time::Duration::from_millis(ms));
        self.run_bound(commands)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::KeyTable;
    use fugue_protocol::keys::Mods;
    use fugue_protocol::keys::kitty::EVENT_TYPES;

    fn app() -> App {
        let keys = KeyTable {
            prefix: Key::new(KeyCode::Char('b'), Mods::CTRL),
            bindings: vec![
                fugue_protocol::key_tables::Binding {
                    table: "prefix".into(),
                    key: Key::char('%'),
                    repeat: false,
                    note: None,
                    commands: vec![vec!["split-window".into(), "-h".into()]],
                },
                fugue_protocol::key_tables::Binding {
                    table: "root".into(),
                    key: Key::new(KeyCode::F(12), Mods::NONE),
                    repeat: false,
                    note: None,
                    commands: vec![vec!["next-window".into()]],
                },
            ],
            repeat_time_ms: 0,
        };
        let mut app = App::new(keys, true, "s".into());
        app.apply(frame(
            fugue_protocol::keys::kitty::DISAMBIGUATE | EVENT_TYPES,
        ));
        app
    }

    /// A frame with one active pane whose program set these kitty flags.
    fn frame(kitty: u8) -> fugue_protocol::screen::Frame {
        use fugue_protocol::screen::*;
        let pane = fugue_protocol::PaneId(1);
        Frame {
            layout: Some(ClientLayout {
                session: fugue_protocol::SessionId(1),
                session_name: "s".into(),
                windows: Vec::new(),
                panes: vec![PaneRect {
                    pane,
                    x: 0,
                    y: 0,
                    width: 80,
                    height: 23,
                    title: String::new(),
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
                cols: 80,
                rows: 23,
                popup: None,
                shared_borders: None,
            }),
            panes: vec![PaneUpdate {
                pane,
                seq: 1,
                cols: 78,
                rows: 21,
                full: true,
                changed: Vec::new(),
                cursor: Cursor::default(),
                alternate_screen: false,
                mouse: false,
                input: PaneInput {
                    kitty,
                    ..PaneInput::default()
                },
                cursor_look: Default::default(),
                links: Vec::new(),
            }],
            outer: Default::default(),
        }
    }

    /// What each request is: the keys sent to the pane by name, or the command's name.
    fn said(requests: Vec<Request>) -> Vec<String> {
        requests
            .into_iter()
            .map(|r| match r.command {
                Command::SendInput(s) => s
                    .parts
                    .iter()
                    .map(|p| match p {
                        InputPart::Key(k) => k.to_string(),
                        other => format!("{other:?}"),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                other => other.name().to_string(),
            })
            .collect()
    }

    fn key(name: &str) -> Key {
        Key::from_wire(name).unwrap_or_else(|| panic!("{name}"))
    }

    #[test]
    fn the_pane_gets_keys_whole_and_releases_of_the_keys_it_got() {
        let mut app = app();
        let mut sent = Vec::new();
        for k in [
            "Super-a",
            "a:repeat",
            "a:release",
            "C-b",
            "C-b:release",
            "%",
            "%:release",
            "x:release",
            "KP5",
            "KP5:release",
        ] {
            sent.extend(said(app.on_key(key(k))));
        }
        assert_eq!(
            sent,
            [
                "Super-a",
                "a:repeat",
                "a:release",
                "split-window",
                "KP5",
                "KP5:release"
            ]
        );
    }

    #[test]
    fn releases_go_only_to_a_pane_that_asked_for_them() {
        let mut app = app();
        app.apply(frame(fugue_protocol::keys::kitty::DISAMBIGUATE));
        let mut sent = Vec::new();
        for k in ["a", "a:release", "C-c", "C-c:release"] {
            sent.extend(said(app.on_key(key(k))));
        }
        assert_eq!(sent, ["a", "C-c"]);
        assert!(app.held.is_empty());
    }

    #[test]
    fn bindings_ignore_lock_states() {
        let mut app = app();
        assert!(said(app.on_key(key("C-NumLock-CapsLock-b"))).is_empty());
        assert!(matches!(app.mode, Mode::Prefix));
        assert_eq!(said(app.on_key(key("NumLock-%"))), ["split-window"]);
        assert_eq!(said(app.on_key(key("NumLock-F12"))), ["select-window"]);
        // Super is held, not a state: Super-F12 is not F12.
        assert_eq!(said(app.on_key(key("Super-F12"))), ["Super-F12"]);
    }

    #[test]
    fn the_held_keys_are_bounded() {
        let mut app = app();
        for c in ('a'..='z').chain('A'..='Z') {
            app.on_key(Key::char(c));
        }
        assert_eq!(app.held.len(), MAX_HELD);
        assert!(said(app.on_key(key("a:release"))).is_empty());
        assert_eq!(said(app.on_key(key("Z:release"))), ["Z:release"]);
    }

    #[test]
    fn prompts_take_keypad_keys_as_what_they_type() {
        let mut app = app();
        let prompt = ["command-prompt", "rename-window -- '%%'"].map(String::from);
        assert!(app.run_bound(vec![prompt.to_vec()]).is_empty());
        for k in ["KP4", "KP2", "KP4:release", "Super-x"] {
            app.on_key(key(k));
        }
        match &app.mode {
            Mode::Prompt { input, .. } => assert_eq!(input.text(), "42x"),
            _ => panic!("the prompt ended"),
        }
        // The answer goes to the prompt history first, as every prompt's does.
        assert_eq!(
            said(app.on_key(key("KPEnter"))),
            ["prompt-entered", "rename-window"]
        );
    }

    /// `C-b x` asks about the pane shown; a yes kills that one even when another has
    /// become active meanwhile (an agent's `select-pane`, another client).
    #[test]
    fn a_confirmed_command_acts_on_the_pane_it_asked_about() {
        let mut app = app();
        app.mode = Mode::Confirm {
            question: "kill-pane 7? (y/n)".into(),
            on_yes: vec![vec!["kill-pane".into()]],
            pane: Some(fugue_protocol::PaneId(7)),
            default_yes: false,
        };
        let requests = app.on_key(Key::char('y'));
        let killed: Vec<_> = requests
            .iter()
            .filter_map(|r| match &r.command {
                Command::KillPane(k) => Some(k.target.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(killed, [Some(Target::Pane(fugue_protocol::PaneId(7)))]);
        // A target the line names stays its own.
        app.mode = Mode::Confirm {
            question: "?".into(),
            on_yes: vec![vec!["kill-pane".into(), "-t".into(), "%9".into()]],
            pane: Some(fugue_protocol::PaneId(7)),
            default_yes: false,
        };
        let requests = app.on_key(Key::char('y'));
        assert!(matches!(
            &requests[..],
            [Request { command: Command::KillPane(k), .. }, ..]
                if k.target == Some(Target::Pane(fugue_protocol::PaneId(9)))
        ));
    }
}
