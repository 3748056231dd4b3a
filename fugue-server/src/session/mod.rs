//! Sessions, windows and the layout trees of their panes: the server's model of what
//! exists. Only the dispatcher changes it.
//!
//! - [`tree`]: the containers and their structural operations.
//! - [`layout`]: a window's split tree and its geometry.
//! - [`resolve`]: turning target strings into things that exist, or a helpful error.
//! - [`info`]: descriptions for `list-*` commands and attached clients.
//! - [`bells`]: windows flagged for a bell until shown.

pub mod bells;
pub mod info;
pub mod layout;
pub mod resolve;
pub mod tree;

pub use tree::{Pane, Session, Tree, Window};
