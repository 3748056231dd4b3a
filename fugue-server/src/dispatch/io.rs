//! Commands that talk to a pane's program: input in, screen and history out.

use super::Exec;
use crate::pane::PaneShared;
use crate::pane::lines::LineCursor;
use crate::pane::pty::InputError;
use crate::pane::state::InputEncoding;
use crate::pane::writer::PtyInput;
use crate::server::Server;
use crate::session::tree::Pane;
use fugue_protocol::cmd;
use fugue_protocol::keys::{KeyCode, Mods};
use fugue_protocol::observe::InputSent;
use fugue_protocol::{
    CapturePane, CommandError, ErrorCode, InputPart, PaneId, Response, SendInput, Target,
};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// Most bytes one `send-keys` may deliver.
pub const MAX_INPUT: usize = 1024 * 1024;

fn live_pane(tree: &crate::session::Tree, id: PaneId) -> Result<&Pane, CommandError> {
    let p = tree
        .panes
        .get(&id)
        .ok_or_else(|| CommandError::internal("pane vanished"))?;
    if let Some(status) = p.exit_status {
        return Err(CommandError::new(
            ErrorCode::PaneExited,
            format!("pane {id} has exited (status {status}); it takes no input"),
        )
        .with_suggestion("close it with kill-pane, or start a new pane"));
    }
    Ok(p)
}

/// Encodes input parts for a program in the given modes. Each part becomes one write so
/// that a key after text (Enter after a prompt) arrives as its own keystroke.
pub fn encode_parts(parts: &[InputPart], modes: InputEncoding) -> Vec<Vec<u8>> {
    parts
        .iter()
        .map(|part| match part {
            InputPart::Text(t) => t.as_bytes().to_vec(),
            InputPart::Paste(t) if modes.paste => {
                // The end marker inside the text would end the paste early.
                let body = t.replace("\x1b[201~", "");
                let mut v = Vec::with_capacity(body.len() + 12);
                v.extend_from_slice(b"\x1b[200~");
                v.extend_from_slice(body.as_bytes());
                v.extend_from_slice(b"\x1b[201~");
                v
            }
            InputPart::Paste(t) => t.as_bytes().to_vec(),
            InputPart::Key(k) => {
                let mut v = Vec::new();
                k.encode(modes.keys, &mut v);
                v
            }
            // Nothing for a program that did not ask for such mouse events.
            InputPart::Mouse(m) => {
                let mut v = Vec::new();
                m.encode(modes.mouse.0, modes.mouse.1, &mut v);
                v
            }
            // The pane's own state, not the program's input (write_parts).
            InputPart::Reset => Vec::new(),
        })
        .filter(|v| !v.is_empty())
        .collect()
}

/// How long a key that follows text waits for the program to react to the text.
const TEXT_SETTLE: Duration = Duration::from_millis(250);

/// Writes input parts to a live pane, encoded for its current modes, one write each.
///
/// A key that follows text (Enter after a prompt) is sent only once the text has been
/// written to the terminal and the program has reacted to it (echo, redraw), or after
/// a short bound for programs that do not echo, so that the key is read as its own
/// keystroke rather than as the end of a paste. Gives the cursor of the line the input
/// went to (see [`cursor_now`]).
pub async fn deliver(
    server: &crate::server::Server,
    id: PaneId,
    parts: &[InputPart],
) -> Result<String, CommandError> {
    let shared = {
        let tree = server.mux.tree();
        Arc::clone(&live_pane(&tree, id)?.shared)
    };
    refuse_key(&shared, id, parts)?;
    // Where the input goes: a wait for its answer starts on this line.
    let cursor = cursor_now(server, id, &shared);
    write_parts(server, id, parts).await?;
    Ok(cursor)
}

/// Input must never carry the pane's sideband key: the terminal's echo of it, or the
/// program's drawing of what was typed, would read as a keyed tag the program printed.
fn refuse_key(shared: &PaneShared, id: PaneId, parts: &[InputPart]) -> Result<(), CommandError> {
    if !shared.sideband.input_carries_key(parts) {
        return Ok(());
    }
    tracing::warn!("pane {id}: input holding the pane's sideband key refused");
    Err(CommandError::new(
        ErrorCode::Forbidden,
        format!(
            "input for pane {id} holds its sideband key ($FUGUE_SIDEBAND_KEY): fugue does not type it, since its echo would pass for a tag the program printed"
        ),
    )
    .with_suggestion("keyed tags must be printed by the program itself (see docs/sideband.md)"))
}

/// [`deliver`] without the check of the key.
async fn write_parts(
    server: &crate::server::Server,
    id: PaneId,
    parts: &[InputPart],
) -> Result<(), CommandError> {
    let (input, shared) = {
        let tree = server.mux.tree();
        let pane = live_pane(&tree, id)?;
        (
            pane.pty.input().map_err(|e| input_refused(id, e))?,
            Arc::clone(&pane.shared),
        )
    };
    write_parts_to(server, id, &input, &shared, parts).await
}

/// Writes input parts through a pane's handles (taken under the tree's lock, used
/// without it), once the program reads its terminal or a short grace has passed.
async fn write_parts_to(
    server: &crate::server::Server,
    id: PaneId,
    input: &PtyInput,
    shared: &Arc<PaneShared>,
    parts: &[InputPart],
) -> Result<(), CommandError> {
    let pgrp = input.foreground_pgrp();
    let refused = |e| input_refused(id, e);
    shared
        .ready_for_input(server.config().server.input_ready_wait(), reading(pgrp))
        .await;
    for (i, part) in parts.iter().enumerate() {
        if let InputPart::Reset = part {
            reset_screen(shared);
            continue;
        }
        let is_text = matches!(part, InputPart::Text(_) | InputPart::Paste(_));
        let key_follows = is_text && matches!(parts.get(i + 1), Some(InputPart::Key(_)));
        let modes = shared.state.lock().input_encoding();
        let Some(bytes) = encode_parts(std::slice::from_ref(part), modes).pop() else {
            continue;
        };
        if !key_follows {
            input.write_acked(bytes).map_err(refused)?;
            continue;
        }
        let reaction = Reaction::watch(shared);
        let written = input.write_acked(bytes).map_err(refused)?;
        let deadline = tokio::time::Instant::now() + TEXT_SETTLE;
        if tokio::time::timeout_at(deadline, written).await.is_ok() {
            reaction
                .wait(deadline.saturating_duration_since(tokio::time::Instant::now()))
                .await;
        }
    }
    Ok(())
}

/// Types a new pane's task (a paste, then Enter) as `send-keys` would, inside the
/// command that made the pane (`split-window` with a task): one audit record, whose
/// target stays the one the split resolved.
/// The cursor of a pane's current line: where a wait for text starts to look.
fn line_cursor(server: &Server, pane: PaneId, shared: &PaneShared) -> LineCursor {
    let (line, epoch) = {
        let st = shared.state.lock();
        (st.cursor_line(), st.moved().epoch)
    };
    LineCursor {
        pane,
        line,
        instance: server.instance,
        epoch,
    }
}

/// [`line_cursor`], encoded as callers pass it back (`after_cursor`, `--after`).
pub fn cursor_now(server: &Server, pane: PaneId, shared: &PaneShared) -> String {
    line_cursor(server, pane, shared).encode()
}

/// Types a task into a new pane (a paste, then Enter) and gives the cursor of the line
/// it was typed on, for a wait for its answer.
pub async fn type_task(
    exec: &mut Exec<'_>,
    pane: PaneId,
    task: String,
) -> Result<String, CommandError> {
    let resolved = exec.resolved.take();
    let enter = fugue_protocol::Key::new(
        fugue_protocol::keys::KeyCode::Enter,
        fugue_protocol::keys::Mods::NONE,
    );
    let typed = send_input(
        exec,
        SendInput {
            target: Some(Target::Pane(pane)),
            parts: vec![InputPart::Paste(task), InputPart::Key(enter)],
        },
    )
    .await;
    exec.resolved = resolved;
    match typed? {
        Response::Sent(sent) => Ok(sent.cursor),
        _ => Err(CommandError::new(
            ErrorCode::Internal,
            format!("typing the task into pane {pane} gave no cursor"),
        )),
    }
}

/// Refuses input of more than [`MAX_INPUT`] bytes in one command.
pub fn check_input_size(total: usize) -> Result<(), CommandError> {
    if total > MAX_INPUT {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!("input of {total} bytes is over the limit of {MAX_INPUT} bytes"),
        )
        .with_suggestion(
            "send it in smaller pieces, or write it to a file and have the program read that",
        ));
    }
    Ok(())
}

/// `send-keys` to one pane, with no copies to synchronized panes (a new pane's task).
pub async fn send_input(exec: &mut Exec<'_>, c: SendInput) -> Result<Response, CommandError> {
    send_one(exec, &c, false).await.map(|(answer, _)| answer)
}

/// `send-keys` to the pane `c` names; with `sync`, also the other panes that hear it
/// (`synchronize-panes`), found under the same lock and returned for the caller to
/// type into.
pub async fn send_one(
    exec: &mut Exec<'_>,
    c: &SendInput,
    sync: bool,
) -> Result<(Response, Vec<PaneId>), CommandError> {
    let total: usize = c
        .parts
        .iter()
        .map(|p| match p {
            InputPart::Text(t) | InputPart::Paste(t) => t.len(),
            InputPart::Key(_) => 8,
            InputPart::Mouse(_) => 16,
            InputPart::Reset => 0,
        })
        .sum();
    check_input_size(total)?;
    // Keys typed in an attached client.
    let typed = exec.origin.surface() == crate::origin::Surface::Keys;
    // The tree's lock, once: the target, a mode the pane holds, and the pane's
    // handles. Everything after (the pane's state, the terminal's foreground group,
    // the write) needs only the handles.
    let (id, shared, input, input_off, hand_off, others) = {
        let mut tree = exec.server.mux.tree();
        let id = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
        let others = if sync {
            super::sync::others(exec, &tree, id, &c.parts)
        } else {
            Vec::new()
        };
        // A mode the pane holds for the next client takes what is sent to the pane:
        // it is dropped as `select-pane -d` drops it.
        let (held, hand_off) = match super::held_modes::take_input(&mut tree, id, &c.parts, typed) {
            super::held_modes::Taken::NotHeld => (false, None),
            super::held_modes::Taken::Kept => (true, None),
            super::held_modes::Taken::HandOff(argv) => (true, Some(argv)),
        };
        let pane = live_pane(&tree, id)?;
        // `select-pane -d`: what is sent to the pane is dropped, as tmux drops it.
        (
            id,
            Arc::clone(&pane.shared),
            pane.pty.input(),
            pane.input_off || held,
            hand_off,
            others,
        )
    };
    exec.resolved = Some(id.to_string());
    // Keys alone (typing in an attached client) go out without any waiting.
    let needs_settle = c.parts.windows(2).any(|w| {
        matches!(w[0], InputPart::Text(_) | InputPart::Paste(_))
            && matches!(w[1], InputPart::Key(_))
    });
    let started = std::time::Instant::now();
    if let (Some(argv), Some(client)) = (hand_off, exec.origin.client_id()) {
        super::held_modes::post(exec.server, client, argv);
    }
    refuse_key(&shared, id, &c.parts)?;
    // A person types when they see the pane is ready; holding their keys back for a
    // program that never prints (`cat`) would only delay them.
    if !typed && !input_off {
        let pgrp = input.as_ref().ok().and_then(PtyInput::foreground_pgrp);
        let grace = exec.server.config().server.input_ready_wait();
        shared.ready_for_input(grace, reading(pgrp)).await;
    }
    let cursor = {
        let at = line_cursor(exec.server, id, &shared);
        // Remembered so that waits can tell the terminal's echo of it from output.
        for part in &c.parts {
            if let InputPart::Text(t) | InputPart::Paste(t) = part {
                shared.record_typed(t, at.line);
            }
        }
        at.encode()
    };
    // An interrupt (C-c, C-z, C-\) makes the terminal throw away input it has not
    // handed to the program yet: whatever an agent sends next must arrive after the
    // program has reacted, so this call returns only then (or after a short bound).
    let interrupt = exec.origin.surface() != crate::origin::Surface::Keys
        && !input_off
        && c.parts.last().is_some_and(|p| {
            matches!(p, InputPart::Key(k) if k.legacy().is_some_and(|k| k.mods.contains(Mods::CTRL)
                && matches!(k.code, KeyCode::Char('c' | 'z' | '\\'))))
        });
    let reaction = interrupt.then(|| Reaction::watch(&shared));
    // A person's keys (an attached client, or a CLI call outside any agent's pane):
    // messages from agents wait for a pause in them, and for the line they are
    // typing to be submitted or cleared.
    if matches!(exec.origin, crate::origin::Origin::Client { .. }) {
        shared.record_human_input();
        shared.set_draft(|n| draft_after(n, &c.parts));
    } else if submits(&c.parts) {
        // Whoever sends the Enter, the line it ends is gone.
        shared.set_draft(|_| 0);
    }
    if !input_off {
        let input = input.map_err(|e| input_refused(id, e))?;
        if needs_settle {
            write_parts_to(exec.server, id, &input, &shared, &c.parts).await?;
        } else {
            write_now(&input, &shared, id, &c.parts)?;
        }
    }
    if let Some(r) = reaction {
        r.wait_settled(TEXT_SETTLE).await;
    }
    if submits(&c.parts) && !input_off {
        exec.server.agents.submitted(&exec.server.mux, id);
    }
    let answer = Response::Sent(InputSent {
        pane: id,
        cursor,
        waited_ms: started.elapsed().as_millis() as u64,
    });
    Ok((answer, others))
}

/// Whether the pane's foreground program (process group `pgrp`) is blocked reading
/// its terminal, for [`PaneShared::ready_for_input`].
fn reading(pgrp: Option<i32>) -> impl Fn() -> bool {
    move || pgrp.is_some_and(crate::pane::process::reads_terminal)
}

/// Waits for a program to react (change its screen) to input written after `watch`.
struct Reaction<'a> {
    shared: &'a PaneShared,
    seq: u64,
    notify: Arc<Notify>,
}

impl<'a> Reaction<'a> {
    fn watch(shared: &'a Arc<PaneShared>) -> Reaction<'a> {
        let notify = Arc::new(Notify::new());
        // Subscribed before the input is written, so the reaction cannot be missed.
        shared.subscribe(&notify);
        Reaction {
            shared,
            seq: shared.seq(),
            notify,
        }
    }

    async fn wait(self, bound: Duration) {
        let deadline = tokio::time::Instant::now() + bound;
        while self.shared.seq() == self.seq {
            if tokio::time::timeout_at(deadline, self.notify.notified())
                .await
                .is_err()
            {
                break;
            }
        }
    }
}

impl Reaction<'_> {
    /// Waits for the reaction and then for the output to pause (a shell echoes `^C`
    /// at once and prints its prompt a moment later), all within `bound`.
    async fn wait_settled(self, bound: Duration) {
        let deadline = tokio::time::Instant::now() + bound;
        let mut seen = self.seq;
        loop {
            let wait = if self.shared.seq() == seen {
                if seen == self.seq {
                    deadline
                } else {
                    (tokio::time::Instant::now() + SETTLED_AFTER).min(deadline)
                }
            } else {
                seen = self.shared.seq();
                continue;
            };
            if tokio::time::timeout_at(wait, self.notify.notified())
                .await
                .is_err()
            {
                return;
            }
        }
    }
}

/// Quiet that counts as a program having finished reacting to an interrupt.
const SETTLED_AFTER: Duration = Duration::from_millis(30);

impl Drop for Reaction<'_> {
    fn drop(&mut self) {
        self.shared.unsubscribe(&self.notify);
    }
}

/// Roughly how many characters a person's input line holds after they type `parts`
/// into a line that held `n`: characters add one, Backspace (C-h) removes one, Enter,
/// C-c and C-u empty it, and a paste or text counts only what follows its last line
/// break (the line before it was submitted).
///
/// Keys that do not type a character (Esc, arrows, Tab, Home, Delete, C-w, Alt with
/// anything, function keys) leave the count as it is: what they do to the line cannot
/// be known from here (Esc may dismiss a menu or clear the line, an arrow may recall
/// history or move in a menu), and counting them as a draft held every message back
/// after a person merely pressed Esc. They still count as typing, so messages wait for
/// the person's pause. Escape sequences in text (an arrow key, Alt-x, paste markers)
/// are skipped whole, and the text after them counted. What a person typed into an
/// agent's question, and a draft the agent has taken, is forgotten when the agent says
/// it has moved on (see `crate::agents`).
pub fn draft_after(mut n: u32, parts: &[InputPart]) -> u32 {
    for part in parts {
        match part {
            // What a key does to the line is what it does as a legacy terminal's key:
            // a keypad digit types it, a release does nothing.
            InputPart::Key(k) => {
                let Some(k) = k.legacy() else {
                    continue;
                };
                n = match k.code {
                    KeyCode::Enter => 0,
                    // Alt-b, Alt-Backspace...: words, which the count does not know.
                    _ if k.mods.contains(Mods::ALT) => n,
                    KeyCode::Char(c) if k.mods.contains(Mods::CTRL) => {
                        match c.to_ascii_lowercase() {
                            'c' | 'u' => 0,
                            'h' => n.saturating_sub(1),
                            // Moving about the line (C-a, C-e), C-w, C-d: not known.
                            _ => n,
                        }
                    }
                    KeyCode::Char(_) => n.saturating_add(1),
                    KeyCode::Backspace => n.saturating_sub(1),
                    _ => n,
                }
            }
            InputPart::Paste(t) => n = typed_text(n, t),
            InputPart::Text(t) => n = typed_text(n, t),
            // A click may move a cursor, in ways the count cannot know.
            InputPart::Mouse(_) => {}
            // A reset clears the screen, not the program's input line.
            InputPart::Reset => {}
        }
    }
    n
}

/// Where a scan of typed text is within an escape sequence.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Esc {
    None,
    /// After ESC: `[` starts a CSI, `O` an SS3, anything else is Alt with that key.
    Start,
    /// Parameters until a final byte (`@` to `~`).
    Csi,
    /// One more character.
    Ss3,
}

/// The draft after text (or a paste) typed onto a line holding `n` characters.
fn typed_text(mut n: u32, t: &str) -> u32 {
    let mut esc = Esc::None;
    for ch in t.chars() {
        esc = match (esc, ch) {
            (Esc::Start, '[') => Esc::Csi,
            (Esc::Start, 'O') => Esc::Ss3,
            (Esc::Start, '\x1b') => Esc::Start,
            (Esc::Start, _) | (Esc::Ss3, _) => Esc::None,
            (Esc::Csi, '@'..='~') => Esc::None,
            (Esc::Csi, _) => Esc::Csi,
            (Esc::None, '\x1b') => Esc::Start,
            (Esc::None, _) => {
                n = match ch {
                    '\r' | '\n' | '\x03' | '\x15' => 0,
                    '\x7f' | '\x08' => n.saturating_sub(1),
                    c if c.is_control() => n,
                    _ => n.saturating_add(1),
                };
                Esc::None
            }
        };
    }
    n
}

/// Text an agent has typed (a message, a task, a result put into a task) without
/// control characters other than newline and tab: another agent must not be able to
/// send C-c, C-d or an escape sequence (one that ends a bracketed paste early, say)
/// to a program by putting it in its text.
pub fn clean_text(t: &str) -> String {
    t.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect()
}

/// Whether input ends a line (Enter, or text with a line break): the program is asked
/// to act on it, so an agent becomes busy.
pub fn submits(parts: &[InputPart]) -> bool {
    parts.iter().any(|p| match p {
        // A keypad Enter too; the release of an Enter submits nothing.
        InputPart::Key(k) => k
            .legacy()
            .is_some_and(|k| k.code == fugue_protocol::keys::KeyCode::Enter),
        InputPart::Text(t) => t.contains(['\r', '\n']),
        // A pasted line break is part of the text, not a submission.
        InputPart::Paste(_) | InputPart::Mouse(_) | InputPart::Reset => false,
    })
}

/// Writes parts at once, without waiting between them.
fn write_now(
    input: &PtyInput,
    shared: &PaneShared,
    id: PaneId,
    parts: &[InputPart],
) -> Result<(), CommandError> {
    // A reset (`send-keys -R`) applies where it stands among the keys.
    for chunk in parts.split_inclusive(|p| matches!(p, InputPart::Reset)) {
        let (keys, reset) = match chunk.split_last() {
            Some((InputPart::Reset, keys)) => (keys, true),
            _ => (chunk, false),
        };
        let modes = shared.state.lock().input_encoding();
        for bytes in encode_parts(keys, modes) {
            input.write(bytes).map_err(|e| input_refused(id, e))?;
        }
        if reset {
            reset_screen(shared);
        }
    }
    Ok(())
}

/// `send-keys -R`: RIS through the pane's own emulator (tmux resets its input state
/// and screen the same way); the program sees nothing.
fn reset_screen(shared: &PaneShared) {
    let seq = {
        let mut st = shared.state.lock();
        st.process(b"\x1bc");
        st.seq()
    };
    shared.changed(seq, false);
}

/// The error for input a pane could not take.
fn input_refused(id: PaneId, e: InputError) -> CommandError {
    match e {
        InputError::Gone => CommandError::new(
            ErrorCode::PaneExited,
            format!("pane {id} no longer takes input"),
        ),
        InputError::Starting => CommandError::new(
            ErrorCode::NotReady,
            format!("pane {id}'s program is still starting"),
        )
        .with_suggestion("try again in a moment"),
        InputError::Full { queued, limit } => CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "pane {id} is not reading its input: {queued} bytes already wait (the limit is {limit}, server.max_input_bytes)"
            ),
        )
        .with_suggestion(
            "wait until the program reads its input (read the pane to see what it is doing), or interrupt it",
        ),
    }
}

pub fn capture(exec: &mut Exec<'_>, c: CapturePane) -> Result<Response, CommandError> {
    let tree = exec.server.mux.tree();
    let id = tree.resolve_pane(c.target.as_ref(), &exec.ctx)?;
    exec.resolved = Some(id.to_string());
    let pane = tree
        .panes
        .get(&id)
        .ok_or_else(|| CommandError::internal("pane vanished"))?;
    if c.pending {
        return Ok(Response::Captured(String::new()));
    }
    let text = pane.shared.state.lock().capture_pane(&c);
    match text {
        Some(text) => Ok(Response::Captured(text)),
        // tmux: `-q` turns the missing alternate screen into an empty capture.
        None if c.quiet => Ok(Response::Captured(String::new())),
        // tmux's words, which scripts match.
        None => Err(CommandError::new(
            ErrorCode::InvalidArgument,
            "no alternate screen",
        )),
    }
}

pub fn read_rows(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    start: i64,
    count: u32,
    absolute: bool,
) -> Result<Response, CommandError> {
    let tree = exec.server.mux.tree();
    let id = tree.resolve_pane(target, &exec.ctx)?;
    exec.resolved = Some(id.to_string());
    let pane = tree
        .panes
        .get(&id)
        .ok_or_else(|| CommandError::internal("pane vanished"))?;
    // Clone the pane's state handle and let go of the tree before reading: the rows are
    // copied under the pane's own lock only.
    let state = std::sync::Arc::clone(&pane.shared);
    drop(tree);
    let rows = state
        .state
        .lock()
        .read_rows(start, count.min(10_000), absolute);
    Ok(Response::Rows(rows))
}

super::handler!(fugue_protocol::CapturePane, |exec, c| capture(exec, c));
super::handler!(cmd::ReadRows, |exec,
                                cmd::ReadRows {
                                    target,
                                    start,
                                    count,
                                    absolute,
                                }| read_rows(
    exec,
    target.as_ref(),
    start,
    count,
    absolute
));

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::Key;

    fn key(code: KeyCode, mods: Mods) -> InputPart {
        InputPart::Key(Key::new(code, mods))
    }

    #[test]
    fn a_draft_is_what_a_person_typed_since_the_line_was_emptied() {
        let text = |t: &str| InputPart::Text(t.into());
        assert_eq!(draft_after(0, &[text("hmm")]), 3);
        assert_eq!(draft_after(3, &[text("\x7f\x7f\x7f")]), 0);
        assert_eq!(draft_after(3, &[key(KeyCode::Backspace, Mods::NONE)]), 2);
        assert_eq!(draft_after(3, &[key(KeyCode::Enter, Mods::NONE)]), 0);
        assert_eq!(draft_after(3, &[key(KeyCode::Char('u'), Mods::CTRL)]), 0);
        assert_eq!(draft_after(3, &[text("\x03")]), 0);
        assert_eq!(draft_after(3, &[key(KeyCode::Char('a'), Mods::CTRL)]), 3);
        assert_eq!(draft_after(0, &[text("ls\r")]), 0);
        assert_eq!(draft_after(0, &[text("ls\rmo")]), 2);
        assert_eq!(draft_after(0, &[key(KeyCode::Char('x'), Mods::NONE)]), 1);
        assert_eq!(draft_after(0, &[key(KeyCode::Char('1'), Mods::NONE)]), 1);
    }

    /// Issue 12: keys arrive whole (releases, keypad keys, Super...); a pane that did
    /// not ask for the kitty protocol gets what a legacy terminal would have sent, and
    /// nothing for a release.
    #[test]
    fn releases_are_dropped_and_keypad_keys_type_for_legacy_panes() {
        let k = |name: &str| InputPart::Key(Key::from_wire(name).expect(name));
        let parts = [
            k("a"),
            k("a:release"),
            k("KP5"),
            k("Enter:release"),
            k("Super-C-c"),
            k("Up:repeat"),
            k("LeftShift"),
        ];
        let got = encode_parts(&parts, InputEncoding::default());
        let want: [&[u8]; 4] = [b"a", b"5", b"\x03", b"\x1b[A"];
        assert_eq!(got, want);
        assert_eq!(draft_after(0, &parts[..4]), 2);
        assert!(!submits(&[k("Enter:release")]));
        assert!(submits(&[k("KPEnter")]));
    }

    #[test]
    fn keys_that_type_no_character_make_no_draft() {
        let text = |t: &str| InputPart::Text(t.into());
        for code in [
            KeyCode::Escape,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::Delete,
            KeyCode::F(2),
        ] {
            assert_eq!(draft_after(0, &[key(code, Mods::NONE)]), 0, "{code:?}");
            assert_eq!(draft_after(2, &[key(code, Mods::NONE)]), 2, "{code:?}");
        }
        assert_eq!(draft_after(0, &[key(KeyCode::Char('b'), Mods::ALT)]), 0);
        assert_eq!(draft_after(0, &[key(KeyCode::Backspace, Mods::ALT)]), 0);
        assert_eq!(draft_after(0, &[text("\x1b[A")]), 0);
        assert_eq!(draft_after(0, &[text("\x1bOP")]), 0);
        assert_eq!(draft_after(0, &[text("\x1b")]), 0);
        assert_eq!(draft_after(0, &[text("\x1bx")]), 0);
        assert_eq!(draft_after(0, &[text("\x1b[1;5Cab")]), 2);
    }

    #[test]
    fn text_after_a_line_break_is_all_that_is_left_unsent() {
        let text = |t: &str| InputPart::Text(t.into());
        let paste = |t: &str| InputPart::Paste(t.into());
        // An escape sequence does not stop the scan: the Enter after it submits.
        assert_eq!(draft_after(0, &[text("ab\x1b[Acd\r")]), 0);
        assert_eq!(draft_after(0, &[text("\x1b[200~x\ny\x1b[201~")]), 1);
        assert_eq!(draft_after(4, &[paste("one\ntwo")]), 3);
        assert_eq!(draft_after(4, &[paste("done\r\n")]), 0);
        assert_eq!(draft_after(4, &[paste("more")]), 8);
    }

    #[test]
    fn control_characters_are_taken_out_of_agents_text() {
        assert_eq!(
            clean_text("a\x03b\x04\x1b[201~c\r\n\td\u{7f}\u{9b}"),
            "ab[201~c\n\td"
        );
    }
}
