//! `fugue sideband TAGS`: tags an agent gives its pane from a process with no
//! terminal. They are read with the pane's own key and handed to the same subscribers
//! as the tags its program prints (`Hub::tags_found`), so the sideband surface runs
//! them as it runs those: key check, limits, policy, audit and results.

use super::Exec;
use crate::pane::tags::Scanner;
use fugue_protocol::{CommandError, Response, cmd};

super::handler!(cmd::SidebandTags, |exec, c| sideband_tags(exec, c));

fn sideband_tags(exec: &mut Exec<'_>, c: cmd::SidebandTags) -> Result<Response, CommandError> {
    let max = exec.server.config().sideband.max_tag_bytes;
    if c.text.len() > max {
        return Err(CommandError::new(
            fugue_protocol::ErrorCode::LimitExceeded,
            format!("the tags are over {max} bytes ([sideband] max_tag_bytes)"),
        ));
    }
    let (pane, shared) = {
        let tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
        let shared = tree.panes.get(&pane).map(|p| p.shared.clone());
        (pane, shared)
    };
    exec.resolved = Some(pane.to_string());
    let Some(key) = shared.and_then(|s| s.sideband.key().cloned()) else {
        return Err(CommandError::forbidden(format!(
            "pane {pane} has no sideband: start it with --sideband or run a program named in [sideband] enable_for"
        )));
    };
    let mut scanner = Scanner::new(max);
    scanner.set_key(Some(key));
    let mut found = scanner.feed(c.text.as_bytes(), |_| {});
    scanner.flush(|_| {});
    let (tags, no_key, wrong_key) = (found.tags.len(), found.no_key, found.wrong_key);
    if tags == 0 {
        // Nothing runs, but the refusals are counted as printed ones are.
        exec.server.hub.tags_found(pane, std::mem::take(&mut found));
        return Err(CommandError::invalid_argument(
            "tags",
            format!(
                "no complete tag with the pane's key ({no_key} without a key, {wrong_key} with a wrong one)"
            ),
        ));
    }
    exec.server.hub.tags_found(pane, found);
    Ok(Response::Done)
}
