//! One of every command, response and frame, for the round-trip tests (main.rs).

use fugue_protocol::cmd;
use fugue_protocol::keys::{Key, KeyCode, KeyKind, KeypadKey, Mods};
use fugue_protocol::*;

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
            group: Some(Target::session("t")),
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
            full: true,
            spawn: spawn(),
            task: Some("make test".into()),
        }),
        Command::KillPane(cmd::KillPane { target: t("s:1.2") }),
        Command::KillWindow(cmd::KillWindow { target: t("@3") }),
        Command::KillSession(cmd::KillSession { target: t("$0") }),
        Command::ClearAlerts(cmd::ClearAlerts { target: t("$0") }),
        Command::KillServer,
        Command::Restore(cmd::Restore {
            name: Some("work".into()),
            list: false,
        }),
        Command::DiscardRestorable(cmd::DiscardRestorable { name: None }),
        Command::RenameSession(cmd::RenameSession {
            target: None,
            name: "n".into(),
        }),
        Command::RenameWindow(cmd::RenameWindow {
            target: t(":2"),
            name: "n".into(),
        }),
        Command::SetPaneTitle(cmd::SetPaneTitle {
            target: None,
            title: "t".into(),
        }),
        Command::SelectWindow(cmd::SelectWindow {
            target: None,
            select: WindowSelect::Index(3),
        }),
        Command::SelectPane(cmd::SelectPane {
            target: None,
            select: PaneSelect::Direction(Direction::Up),
            keep_zoom: true,
        }),
        Command::ResizePane(cmd::ResizePane {
            target: None,
            resize: Resize::By(Direction::Down, 4),
        }),
        Command::ResizePane(cmd::ResizePane {
            target: None,
            resize: Resize::To {
                width: Some(30),
                height: None,
            },
        }),
        Command::ResizeWindow(arrange::ResizeWindow {
            target: Some(Target::Window(WindowId(2))),
            width: Some(100),
            height: None,
            adjust: Some((Direction::Left, 3)),
            fit: Some(arrange::WindowFit::Smallest),
        }),
        Command::SelectLayout(cmd::SelectLayout {
            target: None,
            layout: LayoutChoice::Preset(LayoutPreset::Tiled),
        }),
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
        Command::SendPrefix(cmd::SendPrefix {
            target: t("%1"),
            secondary: true,
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
            pending: true,
        }),
        Command::ReadRows(cmd::ReadRows {
            target: None,
            start: -10,
            count: 5,
            absolute: true,
        }),
        Command::ListSessions,
        Command::ListPanes(cmd::ListPanes {
            target: None,
            scope: PaneScope::All,
            values: Vec::new(),
        }),
        Command::ListPanes(cmd::ListPanes {
            target: t("s:1.2"),
            scope: PaneScope::Pane,
            values: Vec::new(),
        }),
        Command::AttachSession(cmd::AttachSession {
            target: None,
            create: true,
            client_env: Some(vec![("DISPLAY".into(), ":0".into())]),
            tty: Some("/dev/pts/3".into()),
            others: Some(fugue_protocol::Leave {
                hangup_parent: true,
                exec: None,
            }),
        }),
        Command::ListClients(cmd::ListClients { target: t("s") }),
        Command::DetachClient(cmd::DetachClient {
            target: t("s"),
            client: Some("client-42".into()),
            all_others: true,
            hangup_parent: true,
            exec: Some("exec sh".into()),
        }),
        Command::RefreshClient(cmd::RefreshClient { target: t("s") }),
        Command::ClientFocus(cmd::ClientFocus { focused: false }),
        Command::ClientColors(cmd::ClientColors {
            fg: Some([0, 0, 0]),
            bg: None,
        }),
        Command::ClientMode(cmd::ClientMode {
            pane: Some(PaneId(3)),
            mode: Some("copy-mode".into()),
        }),
        Command::ResizeClient(cmd::ResizeClient {
            cols: 120,
            rows: 40,
        }),
        Command::SidebandMcp(cmd::SidebandMcp { connected: true }),
        Command::SidebandTags(cmd::SidebandTags {
            target: Some(Target::Pane(PaneId(3))),
            text: "<fugue:notify key=\"k\">done</fugue:notify>".into(),
        }),
        Command::DisplayMessage(cmd::DisplayMessage {
            target: None,
            text: "hello".into(),
            delay_ms: Some(0),
        }),
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
        Command::GetResult(cmd::GetResult { target: t("%4") }),
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
            clipboard: true,
            client: Some("c".into()),
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
            clipboard: false,
            client: None,
        }),
        Command::ShowBuffer(cmd::ShowBuffer {
            name: Some("b".into()),
        }),
        Command::ListBuffers,
        Command::DeleteBuffer(cmd::DeleteBuffer { name: None }),
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
        Command::UnbindKey(cmd::UnbindKey {
            table: "root".into(),
            key: Some(Key::char('x')),
            all: false,
            quiet: true,
        }),
        Command::ListKeys(cmd::ListKeys {
            table: Some("prefix".into()),
            notes: true,
            all: true,
            prefix: Some("C-a ".into()),
            first: true,
            key: Some(Key::new(KeyCode::Char('x'), Mods::NONE)),
        }),
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
            client: None,
            argv: vec!["confirm-before".into(), "-y".into(), "kill-pane".into()],
        }),
        Command::DisplayMenu(fugue_protocol::popup::ClientCommandLine {
            target: None,
            client: None,
            argv: vec!["display-menu".into(), "".into()],
        }),
        Command::DisplayPanes(fugue_protocol::popup::ClientCommandLine {
            target: t("work"),
            client: None,
            argv: vec!["display-panes".into(), "-d".into(), "0".into()],
        }),
        Command::CopyMode(fugue_protocol::popup::ClientCommandLine {
            target: t("%3"),
            client: None,
            argv: vec!["copy-mode".into(), "-u".into()],
        }),
        Command::ChooseClient(fugue_protocol::popup::ClientCommandLine {
            target: None,
            client: Some("/dev/pts/3".into()),
            argv: vec!["choose-client".into(), "-Z".into()],
        }),
        Command::CopyModeCommand(fugue_protocol::cmd::CopyModeCommand {
            target: t("%4"),
            client: None,
            argv: vec!["send-keys".into(), "-X".into(), "cancel".into()],
        }),
        Command::CustomizeMode(fugue_protocol::popup::ClientCommandLine {
            target: t("s:1.0"),
            client: None,
            argv: vec!["customize-mode".into(), "-N".into()],
        }),
        Command::ClockMode(fugue_protocol::popup::ClientCommandLine {
            target: t("s:1.0"),
            client: None,
            argv: vec!["clock-mode".into()],
        }),
        Command::ChooseBuffer(fugue_protocol::popup::ClientCommandLine {
            target: None,
            client: None,
            argv: vec!["choose-buffer".into()],
        }),
        Command::ChooseTree(fugue_protocol::popup::ClientCommandLine {
            target: None,
            client: None,
            argv: vec!["choose-tree".into(), "-Zw".into()],
        }),
        Command::FindWindow(fugue_protocol::popup::ClientCommandLine {
            target: None,
            client: None,
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
        Command::ResizePane(cmd::ResizePane {
            target: None,
            resize: Resize::ToSize {
                width: Some(fugue_protocol::SplitSize::Percent(30)),
                height: Some(fugue_protocol::SplitSize::Cells(10)),
            },
        }),
        Command::KillOtherPanes(cmd::KillOtherPanes { target: t("%1") }),
        Command::KillOtherWindows(cmd::KillOtherWindows { target: t("@1") }),
        Command::PaneInput(cmd::PaneInput {
            target: t("%1"),
            enabled: false,
        }),
        Command::MarkPane(cmd::MarkPane {
            target: t("%1"),
            clear: true,
        }),
        Command::KillOtherSessions(cmd::KillOtherSessions { target: t("$1") }),
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
            place: fugue_protocol::WindowPlace::After,
        }),
        Command::JoinPane(fugue_protocol::JoinPane {
            source: t("%2"),
            target: t("%1"),
            direction: Direction::Left,
            size: Some(fugue_protocol::SplitSize::Cells(20)),
            detached: false,
            full: true,
        }),
        Command::ClearHistory(cmd::ClearHistory {
            target: None,
            hyperlinks: true,
        }),
        Command::PipePane(cmd::PipePane {
            target: Some("%2".parse().unwrap()),
            command: Some("cat >> log".into()),
            input: false,
            output: true,
            toggle: true,
        }),
        Command::FormatText(cmd::FormatText {
            target: None,
            text: "#{pane_id}".into(),
            mode: fugue_protocol::format::FormatMode::Verbose,
        }),
        Command::SwitchClient(fugue_protocol::popup::ClientCommandLine {
            target: None,
            client: None,
            argv: vec!["switch-client".into(), "-n".into()],
        }),
        Command::SetEnvironment(fugue_protocol::SetEnvironment {
            target: t("s"),
            name: "SSH_AUTH_SOCK".into(),
            value: Some("/tmp/a".into()),
            ..Default::default()
        }),
        Command::SetEnvironment(fugue_protocol::SetEnvironment {
            global: true,
            name: "WHERE".into(),
            value: Some("#{session_name}".into()),
            format: true,
            ..Default::default()
        }),
        Command::ShowEnvironment(fugue_protocol::ShowEnvironment {
            global: true,
            name: Some("PATH".into()),
            ..Default::default()
        }),
        Command::WaitChannel(cmd::WaitChannel {
            channel: "done".into(),
            op: fugue_protocol::ChannelOp::Lock,
        }),
        Command::MoveWindow(fugue_protocol::MoveWindow {
            source: t("s:1"),
            target: t("t:3"),
            place: fugue_protocol::WindowPlace::After,
            kill: true,
            detached: true,
            renumber: false,
            link: false,
        }),
        Command::MoveWindow(fugue_protocol::MoveWindow {
            source: t("@3"),
            target: t("t:"),
            link: true,
            ..Default::default()
        }),
        Command::UnlinkWindow(cmd::UnlinkWindow {
            target: t("t:3"),
            kill: true,
        }),
        Command::SwapWindow(fugue_protocol::SwapWindow {
            source: t("s:1"),
            target: t("s:2"),
            detached: false,
        }),
        Command::Lock(fugue_protocol::admin::LockScope::Session(t("s"))),
        Command::SuspendClient(cmd::SuspendClient {
            client: Some("/dev/pts/3".into()),
        }),
        Command::ServerAccess(fugue_protocol::admin::ServerAccess {
            list: true,
            ..Default::default()
        }),
        Command::ShowMessages(fugue_protocol::admin::ShowMessages {
            client: None,
            jobs: true,
            terminals: false,
        }),
        Command::ShowPromptHistory(cmd::ShowPromptHistory {
            kind: Some(fugue_protocol::admin::PromptType::WindowTarget),
        }),
        Command::ClearPromptHistory(cmd::ClearPromptHistory { kind: None }),
        Command::CommandPrompt(fugue_protocol::popup::ClientCommandLine {
            target: None,
            client: Some("client-12".into()),
            argv: vec!["command-prompt".into(), "set -g @x '%%'".into()],
        }),
        Command::ClientKeys(cmd::ClientKeys {
            client: Some("/dev/pts/3".into()),
            keys: vec!["C-b".into(), "c".into()],
        }),
        Command::PromptEntered(cmd::PromptEntered {
            kind: fugue_protocol::admin::PromptType::Command,
            line: "splitw -h".into(),
        }),
    ]
}
