//! Commands that a command runs (a control client's answered `command-prompt` or
//! `confirm-before`): dispatched as a boxed `Send` future. Outside the `dispatch`
//! module on purpose: inside it the compiler cannot see through the dispatcher's own
//! future type to prove it `Send`, and a command's future would contain itself.

use crate::origin::Origin;
use crate::server::Server;
use fugue_protocol::{Command, CommandError, Response};
use std::sync::Arc;

pub type Pending = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<Response, CommandError>> + Send + 'static>,
>;

/// Runs `command` for `origin` as any surface would.
pub fn dispatch(server: Arc<Server>, origin: Origin, command: Command) -> Pending {
    Box::pin(async move { crate::dispatch::dispatch(&server, &origin, command).await })
}
