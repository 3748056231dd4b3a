//! What each surface may do. Enforced in the dispatcher, at call time, for every
//! surface alike.

use super::origin::{Origin, Surface};
use crate::config::Config;
use fugue_protocol::{Command, CommandError, Tier};

/// Refuses a command the origin's surface is not allowed to run.
pub fn check(_config: &Config, origin: &Origin, command: &Command) -> Result<(), CommandError> {
    let allowed = match origin.surface() {
        // A person at the keyboard or a script they run may do anything.
        Surface::Keys | Surface::Cli | Surface::Server => Tier::Destroy,
    };
    if command.tier() > allowed {
        return Err(CommandError::forbidden(format!(
            "`{}` is a {:?} command and {} may only run commands up to {:?}",
            command.name(),
            command.tier(),
            origin.surface().name(),
            allowed
        )));
    }
    Ok(())
}
