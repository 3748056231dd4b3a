//! Sessions, windows and the layout trees of their panes: the server's model of what
//! exists. Only the dispatcher changes it.
//!
//! - [`tree`]: the containers and their structural operations.
//! - [`links`]: which sessions hold a window, at which indexes, and session groups.
//! - [`layout`]: a window's split tree and its geometry.
//! - [`resolve`]: turning target strings into things that exist, or a helpful error.
//! - [`info`]: descriptions for `list-*` commands and attached clients.
//! - [`bells`]: windows flagged for a bell until shown.

pub mod bells;
pub mod info;
pub mod layout;
pub mod links;
pub mod resolve;
pub mod tree;

pub use links::Winlink;
pub use tree::{Pane, Session, Tree, Window};
