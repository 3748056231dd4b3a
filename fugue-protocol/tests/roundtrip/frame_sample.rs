//! A sample of a whole frame, with a layout, for the round-trip tests.

use super::response_samples::{link, row};
use fugue_protocol::passthrough::{ClipboardCopy, CursorLook, OuterEvents};
use fugue_protocol::screen::{
    ClientLayout, Cursor, Frame, PaneInput, PaneRect, PaneUpdate, WindowTab,
};
use fugue_protocol::*;

pub fn frame() -> Frame {
    Frame {
        layout: Some(ClientLayout {
            session: SessionId(1),
            session_name: "s".into(),
            windows: vec![WindowTab {
                index: 0,
                name: "sh".into(),
                active: true,
                last: false,
                zoomed: true,
                activity: false,
                bell: true,
                silence: true,
                marked: true,
            }],
            panes: vec![PaneRect {
                pane: PaneId(3),
                x: 0,
                y: 0,
                width: 80,
                height: 23,
                title: "t".into(),
                active: true,
                exit_status: None,
                badge: Some("idle".into()),
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
            pane: PaneId(3),
            seq: 9,
            cols: 78,
            rows: 21,
            full: true,
            changed: vec![(0, row())],
            cursor: Cursor {
                row: 1,
                col: 2,
                visible: true,
            },
            alternate_screen: true,
            mouse: false,
            input: PaneInput {
                kitty: 3,
                focus: true,
                mouse: fugue_protocol::mouse::MouseTracking::ButtonMotion,
            },
            cursor_look: CursorLook {
                style: 5,
                color: Some("#ff0000".into()),
            },
            links: vec![link()],
        }],
        outer: OuterEvents {
            bell: true,
            clipboard: Some(ClipboardCopy {
                selection: "c".into(),
                data: b"aGk=".to_vec(),
            }),
        },
    }
}
