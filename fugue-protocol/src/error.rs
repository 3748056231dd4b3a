//! The one error type every surface answers with.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A stable, machine-readable error code. MCP clients and scripts match on these,
/// so they never change meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The target names nothing that exists.
    UnknownTarget,
    /// An argument is malformed or out of range; the message names it.
    InvalidArgument,
    /// Policy refuses this command for this caller.
    Forbidden,
    /// A wait ran out of time.
    Timeout,
    /// The pane's program has exited.
    PaneExited,
    /// A limit (size, rate, count, depth) was reached.
    LimitExceeded,
    /// What was asked for does not exist yet (an agent's result before it reported
    /// one); asking again later may succeed.
    NotReady,
    /// Something went wrong inside fugue; the log has details.
    Internal,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 8] = [
        ErrorCode::UnknownTarget,
        ErrorCode::InvalidArgument,
        ErrorCode::Forbidden,
        ErrorCode::Timeout,
        ErrorCode::PaneExited,
        ErrorCode::LimitExceeded,
        ErrorCode::NotReady,
        ErrorCode::Internal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownTarget => "unknown_target",
            ErrorCode::InvalidArgument => "invalid_argument",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::Timeout => "timeout",
            ErrorCode::PaneExited => "pane_exited",
            ErrorCode::LimitExceeded => "limit_exceeded",
            ErrorCode::NotReady => "not_ready",
            ErrorCode::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What went wrong, and what to do instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    pub code: ErrorCode,
    pub message: String,
    /// What the caller can do instead (for example the targets that do exist).
    pub suggestion: Option<String>,
}

impl CommandError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        CommandError {
            code,
            message: message.into(),
            suggestion: None,
        }
    }

    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    pub fn unknown_target(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::UnknownTarget, message)
    }

    pub fn invalid_argument(argument: &str, problem: impl fmt::Display) -> Self {
        Self::new(
            ErrorCode::InvalidArgument,
            format!("invalid argument `{argument}`: {problem}"),
        )
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Internal, message)
    }

    /// The message and suggestion as one line for a terminal.
    pub fn display_with_suggestion(&self) -> String {
        match &self.suggestion {
            Some(s) => format!("{} ({s})", self.message),
            None => self.message.clone(),
        }
    }
}
