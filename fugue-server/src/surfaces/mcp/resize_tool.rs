//! The MCP tool that resizes a pane: by a border move, to an absolute size (what a
//! person's border drag and `resize-pane -x/-y` send), or zoom.

use super::tools::{ToolDef, schema};
use fugue_protocol::limits::{MAX_COLS, MAX_ROWS};
use fugue_protocol::{Command, CommandError, Resize};
use serde_json::json;

pub static RESIZE_TOOLS: &[ToolDef] = &[ToolDef {
    name: "resize_pane",
    title: "Resize a pane",
    description: "Move a pane's border `amount` toward `direction`, set width/height, or toggle zoom.",
    command: "resize-pane",
    read_only: false,
    destructive: false,
    idempotent: false,
    open_world: false,
    input: || {
        schema(
            json!({
                "pane": { "type": "string" },
                "direction": { "type": "string", "enum": ["left", "right", "up", "down"] },
                "amount": { "type": "integer", "minimum": 1, "maximum": 1000 },
                "width": { "type": "integer", "minimum": 1, "maximum": MAX_COLS },
                "height": { "type": "integer", "minimum": 1, "maximum": MAX_ROWS },
                "zoom": { "type": "boolean" }
            }),
            &[],
        )
    },
    build: |a| {
        let width = a.uint("width", 1..=u64::from(MAX_COLS))?.map(|w| w as u16);
        let height = a.uint("height", 1..=u64::from(MAX_ROWS))?.map(|h| h as u16);
        let zoom = a.bool("zoom")?.unwrap_or(false);
        let resize = match (zoom, a.direction("direction")?, width.or(height)) {
            (true, None, None) => Resize::ZoomToggle,
            (false, Some(d), None) => {
                Resize::By(d, a.uint("amount", 1..=1000)?.unwrap_or(5) as u16)
            }
            (false, None, Some(_)) => Resize::To { width, height },
            _ => {
                return Err(CommandError::invalid_argument(
                    "direction",
                    "give one of: a direction (with an amount), width and/or height, or zoom: true",
                ));
            }
        };
        Ok(Command::ResizePane {
            target: a.target("pane")?,
            resize,
        })
    },
}];
