//! The CLI verbs: each becomes one Command for the server's dispatcher.

pub mod agent;
pub mod buffers;
pub mod format;
mod printer;
pub mod restore;
pub mod shell;
pub mod source;
mod verbs;
mod windows;

pub use verbs::{Outcome, report, run, set_tmux_words, start_capture, take_capture, with_out};
