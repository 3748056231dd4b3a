//! One of every command, response and frame, for the round-trip tests (main.rs).

use fugue_protocol::keys::{Key, KeyCode, KeyKind, KeypadKey, Mods};
use fugue_protocol::screen::{Color, Extra, Hyperlink, RowBuilder, Style, attr};
use fugue_protocol::*;
use std::sync::Arc;

pub fn spawn() -> Spawn {
    Spawn {
        command: vec!["sh".into(), "-c".into(), "echo hi".into()],
        cwd: Some("/tmp".into()),
        env: vec![("A".into(), "b".into())],
        title: Some("t".into()),
        sideband: Some(true),
        remain: Some(false),
    }
}

pub fn t(s: &str) -> Option<Target> {
    Some(s.parse().expect("target"))
}

/// One of every command.
pub fn commands() -> Vec<Command> {
    vec![
        Command::NewSession(NewSession {
            name: Some("s".into()),
            window_name: Some("w".into()),
            size: Some((120, 40)),
            spawn: spawn(),
            existing: false,
            client_env: Some(vec![("SSH_AUTH_SOCK".into(), "/tmp/agent".into())]),
        }),
        Command::NewWindow(NewWindow {
            target: t("s"),
            name: None,
            select: true,
            spawn: Spawn::default(),
            place: Default::default(),
            kill: true,
            select_existing: true,
        }),
        Command::SplitPane(SplitPane {
            target: t("%1"),
            direction: Direction::Left,
            size: Some(SplitSize::Percent(30)),
            select: false,
            zoom: true,
            spawn: spawn(),
            task: Some("make test".into()),
        }),
        Command::KillPane { target: t("s:1.2") },
        Command::KillWindow { target: t("@3") },
        Command::KillSession { target: t("$0") },
        Command::KillServer,
        Command::Restore {
            name: Some("work".into()),
            list: false,
        },
        Command::DiscardRestorable { name: None },
        Command::RenameSession {
            target: None,
            name: "n".into(),
        },
        Command::RenameWindow {
            target: t(":2"),
            name: "n".into(),
        },
        Command::SetPaneTitle {
            target: None,
            title: "t".into(),
        },
        Command::SelectWindow {
            target: None,
            select: WindowSelect::Index(3),
        },
        Command::SelectPane {
            target: None,
            select: PaneSelect::Direction(Direction::Up),
        },
        Command::ResizePane {
            target: None,
            resize: Resize::By(Direction::Down, 4),
        },
        Command::ResizePane {
            target: None,
            resize: Resize::To {
                width: Some(30),
                height: None,
            },
        },
        Command::ResizeWindow(arrange::ResizeWindow {
            target: Some(Target::Window(WindowId(2))),
            width: Some(100),
            height: None,
            adjust: Some((Direction::Left, 3)),
            fit: Some(arrange::WindowFit::Smallest),
        }),
        Command::SelectLayout {
            target: None,
            layout: LayoutChoice::Preset(LayoutPreset::Tiled),
        },
        Command::SendInput(SendInput {
            target: t("%2"),
            parts: vec![
                InputPart::Text("ls".into()),
                InputPart::Paste("long\ntext".into()),
                InputPart::Key(Key::new(KeyCode::Char('c'), Mods::CTRL)),
                InputPart::Key(
                    Key::new(
                        KeyCode::Keypad(KeypadKey::Five),
                        Mods::SUPER | Mods::NUM_LOCK,
                    )
                    .with_kind(KeyKind::Release),
                ),
            ],
        }),
        Command::CapturePane(CapturePane {
            target: None,
            start: Some(LineBound::Edge),
            end: Some(LineBound::Line(-3)),
            escapes: true,
            join: true,
            alternate: true,
            keep_spaces: true,
            escape_c0: true,
            quiet: true,
        }),
        Command::ReadRows {
            target: None,
            start: -10,
            count: 5,
            absolute: true,
        },
        Command::ListSessions,
        Command::ListPanes {
            target: None,
            scope: PaneScope::All,
        },
        Command::ListPanes {
            target: t("s:1.2"),
            scope: PaneScope::Pane,
        },
        Command::AttachSession {
            target: None,
            create: true,
            client_env: Some(vec![("DISPLAY".into(), ":0".into())]),
            tty: Some("/dev/pts/3".into()),
        },
        Command::ListClients { target: t("s") },
        Command::DetachClient {
            target: t("s"),
            client: Some("client-42".into()),
            all_others: true,
        },
        Command::RefreshClient { target: t("s") },
        Command::ClientFocus { focused: false },
        Command::ResizeClient {
            cols: 120,
            rows: 40,
        },
        Command::SidebandMcp { connected: true },
        Command::DisplayMessage {
            target: None,
            text: "hello".into(),
            delay_ms: Some(0),
        },
        Command::ReadPane(ReadPane {
            target: t("%1"),
            source: ReadSource::Since("%1@4.ab".into()),
            lines: Some(10),
            ansi: false,
        }),
        Command::WaitFor(WaitFor {
            target: None,
            condition: WaitCondition::Text {
                pattern: "^done$".into(),
                after: None,
            },
            timeout_ms: Some(5),
        }),
        Command::RunCommand(RunCommand {
            pane: None,
            split_from: t("%1"),
            command: "make".into(),
            cwd: None,
            env: vec![],
            timeout_ms: None,
            keep: true,
        }),
        Command::SearchPanes(SearchPanes {
            pattern: "x".into(),
            targets: vec![Target::Pane(PaneId(2))],
            history: true,
            offset: 1,
            limit: 2,
            from_line: None,
            backward: false,
            absolute: false,
        }),
        Command::SearchPanes(SearchPanes {
            pattern: "(?i)y".into(),
            targets: vec![Target::Pane(PaneId(3))],
            history: true,
            offset: 0,
            limit: 1,
            from_line: Some(-12),
            backward: true,
            absolute: true,
        }),
        Command::WaitFor(WaitFor {
            target: t("%2"),
            condition: WaitCondition::State(AgentState::AwaitingInput),
            timeout_ms: None,
        }),
        Command::SpawnAgent(SpawnAgent {
            agent: "claude".into(),
            task: Some("review {{%1.result}}".into()),
            placement: Placement::Split {
                target: t("%1"),
                direction: Direction::Down,
                size: Some(40),
            },
            cwd: Some("/tmp".into()),
            name: Some("reviewer".into()),
            tags: vec!["review".into()],
            depends_on: vec![Target::Pane(PaneId(1))],
            timeout_ms: Some(9),
            worktree: Some(WorktreeSpec::Branch("agent/review".into())),
        }),
        Command::SpawnAgent(SpawnAgent {
            agent: "shell".into(),
            task: None,
            placement: Placement::Window { session: t("s") },
            cwd: None,
            name: None,
            tags: vec![],
            depends_on: vec![],
            timeout_ms: None,
            worktree: Some(WorktreeSpec::Auto),
        }),
        Command::SpawnAgent(SpawnAgent {
            agent: "codex".into(),
            task: None,
            placement: Placement::Session {
                name: Some("n".into()),
            },
            cwd: None,
            name: None,
            tags: vec![],
            depends_on: vec![],
            timeout_ms: None,
            worktree: None,
        }),
        Command::SendMessage(SendMessage {
            to: MessageTo::Tag("review".into()),
            text: "also check tests".into(),
            delivery: Delivery::Sync,
            quiescence_ms: Some(100),
            timeout_ms: Some(2000),
            plain: false,
        }),
        Command::SendMessage(SendMessage {
            to: MessageTo::Pane(Target::Pane(PaneId(4))),
            text: "x".into(),
            delivery: Delivery::Async,
            quiescence_ms: None,
            timeout_ms: None,
            plain: true,
        }),
        Command::GetResult { target: t("%4") },
        Command::AgentWorktree(AgentWorktree {
            target: t("%4"),
            action: WorktreeAction::Merge,
        }),
        Command::AgentWorktree(AgentWorktree {
            target: None,
            action: WorktreeAction::Show,
        }),
        Command::Report(Report {
            target: None,
            state: Some(AgentState::Idle),
            result: Some("done".into()),
        }),
        Command::SetBuffer(SetBuffer {
            name: None,
            append: true,
            rename: None,
            data: Some(BufferData::Text("x\ny".into())),
        }),
        Command::SetBuffer(SetBuffer {
            name: Some("b".into()),
            append: false,
            rename: Some("c".into()),
            data: Some(BufferData::Pane(CapturePane {
                target: t("%1"),
                start: Some(LineBound::Line(-3)),
                end: None,
                escapes: false,
                join: true,
                ..Default::default()
            })),
        }),
        Command::ShowBuffer {
            name: Some("b".into()),
        },
        Command::ListBuffers,
        Command::DeleteBuffer { name: None },
        Command::PasteBuffer(PasteBuffer {
            name: Some("b".into()),
            target: t("%2"),
            bracketed: true,
            delete: true,
            separator: Some("\n".into()),
        }),
        Command::BindKey(fugue_protocol::key_tables::Binding {
            table: "prefix".into(),
            key: Key::char('|'),
            repeat: true,
            note: Some("split".into()),
            commands: vec![
                vec!["split-window".into(), "-h".into()],
                vec!["new-window".into()],
            ],
        }),
        Command::UnbindKey {
            table: "root".into(),
            key: Some(Key::char('x')),
            all: false,
            quiet: true,
        },
        Command::ListKeys {
            table: Some("prefix".into()),
            notes: true,
            key: Some(Key::new(KeyCode::Char('x'), Mods::NONE)),
        },
        Command::SetOption(fugue_protocol::SetOption {
            target: t("%2"),
            scope: Some(fugue_protocol::OptionScope::Pane),
            global: false,
            unset: false,
            unset_panes: false,
            append: true,
            only_if_unset: false,
            quiet: true,
            format: false,
            name: "remain-on-exit".into(),
            value: Some("failed".into()),
        }),
        Command::ShowOptions(fugue_protocol::ShowOptions {
            target: None,
            scope: Some(fugue_protocol::OptionScope::Window),
            global: true,
            inherited: true,
            quiet: false,
            name: Some("mode-keys".into()),
        }),
        Command::SetHook(fugue_protocol::SetHook {
            target: Some(Target::Pane(PaneId(3))),
            scope: Some(fugue_protocol::OptionScope::Pane),
            global: false,
            unset: false,
            append: true,
            run: false,
            name: "pane-exited".into(),
            commands: vec![vec!["display-message".into(), "bye #{hook_pane}".into()]],
        }),
        Command::ShowHooks(fugue_protocol::ShowHooks {
            target: None,
            scope: None,
            global: true,
            name: Some("after-new-window".into()),
        }),
        Command::ConfirmBefore(fugue_protocol::popup::ClientCommandLine {
            target: t("work"),
            argv: vec!["confirm-before".into(), "-y".into(), "kill-pane".into()],
        }),
        Command::DisplayMenu(fugue_protocol::popup::ClientCommandLine {
            target: None,
            argv: vec!["display-menu".into(), "".into()],
        }),
        Command::DisplayPanes(fugue_protocol::popup::ClientCommandLine {
            target: t("work"),
            argv: vec!["display-panes".into(), "-d".into(), "0".into()],
        }),
        Command::ChooseTree(fugue_protocol::popup::ClientCommandLine {
            target: None,
            argv: vec!["choose-tree".into(), "-Zw".into()],
        }),
        Command::FindWindow(fugue_protocol::popup::ClientCommandLine {
            target: None,
            argv: vec!["find-window".into(), "--".into(), "vim".into()],
        }),
        Command::DisplayPopup(fugue_protocol::popup::DisplayPopup {
            target: t("work"),
            close: false,
            spawn: Default::default(),
            width: Some(fugue_protocol::popup::PopupSize::Percent(80)),
            height: Some(fugue_protocol::popup::PopupSize::Cells(10)),
            x: fugue_protocol::popup::PopupPos::Cell(2),
            y: fugue_protocol::popup::PopupPos::Centre,
            title: Some("t".into()),
            close_on_exit: 1,
            no_border: false,
        }),
        Command::ResizePane {
            target: None,
            resize: Resize::ToSize {
                width: Some(fugue_protocol::SplitSize::Percent(30)),
                height: Some(fugue_protocol::SplitSize::Cells(10)),
            },
        },
        Command::KillOtherPanes { target: t("%1") },
        Command::KillOtherWindows { target: t("@1") },
        Command::PaneInput {
            target: t("%1"),
            enabled: false,
        },
        Command::MarkPane {
            target: t("%1"),
            clear: true,
        },
        Command::KillOtherSessions { target: t("$1") },
        Command::Respawn(fugue_protocol::Respawn {
            target: t("%3"),
            window: false,
            kill: true,
            spawn: fugue_protocol::Spawn {
                command: vec!["cat".into()],
                ..Default::default()
            },
        }),
        Command::SwapPane(fugue_protocol::SwapPane {
            target: t("%1"),
            source: fugue_protocol::SwapSource::Pane("%2".parse().unwrap()),
            detached: true,
        }),
        Command::SwapPane(fugue_protocol::SwapPane {
            target: None,
            source: fugue_protocol::SwapSource::Previous,
            detached: false,
        }),
        Command::RotateWindow(fugue_protocol::RotateWindow {
            target: None,
            down: true,
        }),
        Command::BreakPane(fugue_protocol::BreakPane {
            source: t("%2"),
            target: t("s:4"),
            name: Some("w".into()),
            detached: true,
        }),
        Command::JoinPane(fugue_protocol::JoinPane {
            source: t("%2"),
            target: t("%1"),
            direction: Direction::Left,
            size: Some(fugue_protocol::SplitSize::Cells(20)),
            detached: false,
        }),
        Command::ClearHistory { target: None },
        Command::PipePane {
            target: Some("%2".parse().unwrap()),
            command: Some("cat >> log".into()),
            input: false,
            output: true,
            toggle: true,
        },
        Command::FormatText {
            target: None,
            text: "#{pane_id}".into(),
            mode: fugue_protocol::format::FormatMode::Verbose,
        },
        Command::SwitchClient(fugue_protocol::popup::ClientCommandLine {
            target: None,
            argv: vec!["switch-client".into(), "-n".into()],
        }),
        Command::SetEnvironment(fugue_protocol::SetEnvironment {
            target: t("s"),
            name: "SSH_AUTH_SOCK".into(),
            value: Some("/tmp/a".into()),
            ..Default::default()
        }),
        Command::ShowEnvironment(fugue_protocol::ShowEnvironment {
            global: true,
            name: Some("PATH".into()),
            ..Default::default()
        }),
        Command::WaitChannel {
            channel: "done".into(),
            op: fugue_protocol::ChannelOp::Lock,
        },
        Command::MoveWindow(fugue_protocol::MoveWindow {
            source: t("s:1"),
            target: t("t:3"),
            place: fugue_protocol::WindowPlace::After,
            kill: true,
            detached: true,
            renumber: false,
        }),
        Command::SwapWindow(fugue_protocol::SwapWindow {
            source: t("s:1"),
            target: t("s:2"),
            detached: false,
        }),
    ]
}

pub fn row() -> Arc<Row> {
    let mut b = RowBuilder::new();
    b.push("a", false, false, Style::default());
    b.push(
        "日",
        true,
        false,
        Style {
            fg: Color::rgb(1, 2, 3),
            bg: Color::indexed(4),
            attrs: 5,
            extra: 0,
        },
    );
    b.push("", false, true, Style::default());
    // A curly underline in a colour, with a hyperlink: the rare parts travel too.
    b.push_with(
        "l",
        false,
        false,
        Style {
            attrs: attr::UNDERLINE | attr::CURLY | attr::OVERLINE,
            ..Style::default()
        },
        Extra {
            underline: Color::rgb(9, 8, 7),
            link: 3,
        },
    );
    Arc::new(b.finish(true))
}

pub fn link() -> Hyperlink {
    Hyperlink {
        number: 3,
        id: "i".into(),
        uri: "http://example.com/;x".into(),
    }
}

pub fn responses() -> Vec<Result<Response, CommandError>> {
    let created = Created {
        session: SessionId(1),
        session_name: "s".into(),
        window: WindowId(2),
        window_index: 0,
        pane: PaneId(3),
    };
    let pane = PaneInfo {
        id: PaneId(3),
        session: "s".into(),
        session_id: SessionId(1),
        window_index: 0,
        window_name: "sh".into(),
        window_id: WindowId(2),
        window_active: true,
        index: 0,
        title: "t".into(),
        command: "sh".into(),
        pid: Some(42),
        cwd: None,
        width: 80,
        height: 24,
        active: true,
        alive: false,
        exit_status: Some(1),
        alternate_screen: false,
        cursor_row: 1,
        cursor_col: 2,
        sideband: false,
        created_by: "mcp 3".into(),
        parent: Some(PaneId(1)),
        agent: Some(AgentInfo {
            preset: Some("claude".into()),
            state: AgentState::Exited,
            exit_status: Some(1),
            by: StateSource::Heuristic,
            since_ms: 5,
            tags: vec!["a".into()],
            result_at_ms: Some(4),
            task: TaskStatus::Waiting,
            waiting_for: vec![PaneId(2)],
            pending_messages: 1,
            history: vec![StateChange {
                state: AgentState::Busy,
                at_ms: 3,
                by: StateSource::Report,
            }],
            worktree: Some(WorktreeInfo {
                path: "/r.worktrees/fugue-claude-1".into(),
                branch: "fugue/claude-1".into(),
                repo: "/r".into(),
                base: "abc".into(),
                dirty_files: 2,
                commits: 1,
                pane_open: true,
            }),
            restored_at_ms: Some(6),
        }),
        left: 1,
        top: 2,
        window_width: 80,
        window_height: 24,
        window_zoomed: true,
        window_last: false,
        window_bell: true,
        start_command: "vim".into(),
        tty: Some("/dev/pts/1".into()),
        window_activity_flag: true,
        window_silence: true,
        window_activity: 1_700_000_000,
        window_layout: "b25d,80x24,0,0,3".into(),
        history_limit: 2000,
        history_size: 17,
        history_bytes: 1700,
        at_right: true,
        at_bottom: false,
        detail: fugue_protocol::pane_detail::PaneDetail {
            cursor_visible: true,
            mouse_sgr: true,
            scroll_lower: 22,
            alternate_saved: Some((1, 4)),
            cursor_character: "x".into(),
            tabs: vec![8, 16],
            start_path: "/tmp".into(),
            ..Default::default()
        },
        input_off: true,
        marked: true,
        marked_set: true,
    };
    let keys = KeyTable {
        prefix: Key::new(KeyCode::Char('b'), Mods::CTRL),
        bindings: vec![fugue_protocol::key_tables::Binding {
            table: "root".into(),
            key: Key::new(KeyCode::Left, Mods::ALT),
            repeat: true,
            note: Some("focus".into()),
            commands: vec![KeyAction::Focus(Direction::Left).tmux_argv()],
        }],
        repeat_time_ms: 500,
    };
    vec![
        Ok(Response::Done),
        Ok(Response::Created(created)),
        Ok(Response::Sessions(vec![SessionInfo {
            id: SessionId(1),
            name: "s".into(),
            windows: 2,
            created: 1,
            attached: 1,
            width: 80,
            height: 23,
            marked: true,
        }])),
        Ok(Response::Panes(vec![pane])),
        Ok(Response::Clients(vec![ClientInfo {
            name: "/dev/pts/3".into(),
            tty: "/dev/pts/3".into(),
            pid: Some(42),
            session: Some(SessionId(1)),
            session_name: Some("s".into()),
            width: 80,
            height: 24,
            termname: "xterm-256color".into(),
            created: 1,
            activity: 2,
            focused: true,
            control_mode: false,
        }])),
        Ok(Response::Captured("x\n".into())),
        Ok(Response::Restore(fugue_protocol::restore::RestoreOutcome {
            restored: vec!["work".into()],
            discarded: vec![],
            restorable: vec![fugue_protocol::restore::RestorableSession {
                name: "play".into(),
                windows: 2,
                panes: 3,
                agents: 1,
                created_ms: 5,
            }],
            ask: true,
        })),
        Ok(Response::Rows(RowsReply {
            start: -2,
            history: 9,
            rows: vec![row()],
            links: vec![link()],
            total: 40,
        })),
        Ok(Response::Read(PaneText {
            pane: PaneId(1),
            text: "a\nb".into(),
            lines: 2,
            cursor: "%1@3.ab".into(),
            lines_missed: 1,
            lines_skipped: 7,
            next_cursor: Some("%1@0-3.ab".into()),
            truncated: true,
            cursor_row: 1,
            cursor_col: 1,
            alternate_screen: false,
            width: 10,
            height: 5,
        })),
        Ok(Response::Waited(WaitOutcome {
            pane: PaneId(1),
            line: Some("done".into()),
            matched: Some("done".into()),
            exit_status: Some(0),
            state: Some(AgentState::Idle),
            cursor: "c".into(),
            waited_ms: 3,
            timeout_ms: 4,
        })),
        Ok(Response::Ran(RunOutcome {
            pane: PaneId(1),
            exit_status: 2,
            output: "o".into(),
            truncated: false,
            duration_ms: 9,
        })),
        Ok(Response::Found(SearchResult {
            matches: vec![SearchMatch {
                pane: PaneId(1),
                line: -4,
                text: "x".into(),
            }],
            total: 3,
            next_offset: Some(1),
        })),
        Ok(Response::Sent(InputSent {
            pane: PaneId(1),
            cursor: "%1@0.1".into(),
            waited_ms: 12,
        })),
        Ok(Response::AgentSpawned(AgentSpawned {
            pane: PaneId(5),
            session: SessionId(1),
            session_name: "s".into(),
            window: WindowId(2),
            window_index: 1,
            agent: "claude".into(),
            state: AgentState::Idle,
            task: TaskStatus::Delivered,
            waiting_for: vec![],
            worktree: Some(WorktreeInfo {
                path: "/r.worktrees/fugue-claude-1".into(),
                branch: "fugue/claude-1".into(),
                repo: "/r".into(),
                base: "abc".into(),
                dirty_files: 2,
                commits: 1,
                pane_open: true,
            }),
        })),
        Ok(Response::Worktree(WorktreeOutcome {
            pane: PaneId(5),
            worktree: WorktreeInfo::default(),
            done: "shown".into(),
            choices: vec![WorktreeAction::Keep, WorktreeAction::Remove],
        })),
        Ok(Response::Messages(vec![MessageOutcome {
            pane: PaneId(5),
            status: MessageStatus::Timeout,
            reason: Some("busy".into()),
            waited_ms: 7,
        }])),
        Ok(Response::Buffer(BufferContent {
            name: "buffer0".into(),
            data: "日\n".into(),
        })),
        Ok(Response::Buffers(vec![BufferInfo {
            name: "buffer0".into(),
            size: 4,
            created: 9,
            automatic: true,
            sample: "\\n".into(),
            head: "x".into(),
        }])),
        Ok(Response::Result(AgentResult {
            pane: PaneId(5),
            agent: None,
            result: "r".into(),
            reported_at_ms: 8,
            state: AgentState::Starting,
        })),
        Ok(Response::Attached(AttachInfo {
            session: SessionId(1),
            session_name: "s".into(),
            client_id: 7,
            keys,
            status: true,
            titles: Some("#S:#I:#W - #T".into()),
            mouse: false,
            copy: CopyOptions {
                mode_keys: ModeKeys::Emacs,
                copy_command: vec!["wl-copy".into()],
                ..CopyOptions::default()
            },
            status_line: Box::new(fugue_protocol::status_line::StatusOptions {
                left: "#[fg=red]<#S>".into(),
                position: fugue_protocol::status_line::StatusPosition::Top,
                ..Default::default()
            }),
            option_names: vec!["status".into()],
        })),
    ]
    .into_iter()
    .chain(
        ErrorCode::ALL
            .into_iter()
            .map(|code| Err(CommandError::new(code, "m").with_suggestion("s"))),
    )
    .collect()
}
