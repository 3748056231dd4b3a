//! The task that keeps one tracked pane's state current.
//!
//! It sleeps until something can change the state: the pane's change notification
//! (output, exit), a report or submitted input (the tracker's wake), or the one moment
//! the heuristics are waiting for, when the pane becomes quiet. It ends when the pane
//! exits or closes, or the server (its mux) is gone.

use super::Tracked;
use crate::mux::Mux;
use fugue_protocol::AgentState;
use std::sync::{Arc, Weak};
use std::time::Instant;
use tokio::sync::Notify;

pub async fn run(mux: Weak<Mux>, t: Arc<Tracked>) {
    let notify = Arc::new(Notify::new());
    // Subscribed before the first look, so no change after it is missed.
    t.shared.subscribe(&notify);
    loop {
        if t.is_closed() {
            break;
        }
        let Some(mux) = mux.upgrade() else { break };
        let next = t.evaluate(&mux);
        drop(mux);
        if t.view().state == AgentState::Exited {
            break;
        }
        tokio::select! {
            _ = notify.notified() => {}
            _ = t.wake.notified() => {}
            _ = sleep_until(next), if next.is_some() => {}
        }
    }
    t.shared.unsubscribe(&notify);
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
