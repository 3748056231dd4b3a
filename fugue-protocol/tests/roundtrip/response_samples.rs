//! One of every response, for the round-trip tests (main.rs); the commands are in
//! samples.rs.

use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::screen::{Color, Extra, Hyperlink, RowBuilder, Style, attr};
use fugue_protocol::*;
use std::sync::Arc;

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
        cursor: None,
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
        values: Vec::new(),
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
        window_linked_sessions: vec!["s".into(), "t".into()],
        window_linked: true,
        mode: Some("copy-mode".into()),
    };
    let keys = KeyTable {
        prefix: Key::new(KeyCode::Char('b'), Mods::CTRL),
        bindings: vec![fugue_protocol::key_tables::Binding {
            table: "root".into(),
            key: Key::new(KeyCode::Left, Mods::ALT),
            repeat: true,
            note: Some("focus".into()),
            commands: vec![vec!["select-pane".into(), "-L".into()]],
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
            group: Some("s".into()),
            group_members: vec!["s".into(), "t".into()],
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
        Ok(Response::PromptHistory(vec![(
            fugue_protocol::admin::PromptType::Command,
            vec!["splitw".into()],
        )])),
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
        Ok(Response::AgentSpawned(Box::new(AgentSpawned {
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
            cursor: Some("%5@0.1".into()),
        }))),
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
            cursor: Some("c1".into()),
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
