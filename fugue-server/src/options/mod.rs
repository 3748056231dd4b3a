//! Options, as tmux's: a typed table ([`table`]), values per scope with inheritance
//! ([`store`]), parsing and printing ([`value`]), and what a change means for the
//! configuration the rest of the server reads and for attached clients ([`apply`]).
//!
//! The configuration file sets the initial values: its keys map to options
//! ([`table::OptionDef::toml`]), and its `[options]` section sets any option by name.
//! A change to a global value is written back into the server's [`crate::config::Config`],
//! so code that reads the configuration (new panes' history, remain-on-exit, the
//! buffer limit, the status bar's row) follows it without knowing options exist.

pub mod apply;
pub mod doc;
pub mod store;
pub mod table;
pub mod value;

pub use store::{Level, SetMode, Store};
pub use table::{Effect, Kind, Lookup, OPTIONS, OptionDef, Scope};
pub use value::Value;
