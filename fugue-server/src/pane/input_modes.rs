//! What a pane's program asked of its terminal's input that vt100 does not track: the
//! kitty keyboard protocol's flags (a stack per screen), focus events (mode 1004) and
//! urxvt's mouse encoding (mode 1015). vt100 hands these sequences to the callbacks
//! (`terminal.rs`), which keep them here.

use fugue_protocol::keys::kitty;

/// Entries of a kitty flag stack, as in kitty: a program that pushes without popping
/// (one that crashes, in a loop) evicts the oldest entry instead of growing the stack.
pub const KITTY_STACK: usize = 8;

/// One screen's stack of kitty keyboard flags; the top is in force, an empty stack is
/// legacy encoding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KittyStack {
    entries: Vec<u8>,
}

impl KittyStack {
    pub fn current(&self) -> u8 {
        self.entries.last().copied().unwrap_or(0)
    }

    /// `CSI > flags u`.
    pub fn push(&mut self, flags: u16) {
        if self.entries.len() >= KITTY_STACK {
            self.entries.remove(0);
        }
        self.entries.push(clamp(flags));
    }

    /// `CSI < n u`: pops `n` entries (popping more than there are empties the stack).
    pub fn pop(&mut self, n: u16) {
        let keep = self.entries.len().saturating_sub(usize::from(n));
        self.entries.truncate(keep);
    }

    /// `CSI = flags ; mode u`: mode 1 sets the flags, 2 sets the given bits, 3 clears
    /// them; another mode is ignored. On an empty stack this makes its one entry.
    pub fn set(&mut self, flags: u16, mode: u16) {
        let flags = clamp(flags);
        let now = self.current();
        let new = match mode {
            1 => flags,
            2 => now | flags,
            3 => now & !flags,
            _ => return,
        };
        match self.entries.last_mut() {
            Some(top) => *top = new,
            None => self.entries.push(new),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The protocol's flags in a parameter; bits it does not define are dropped.
fn clamp(flags: u16) -> u8 {
    u8::try_from(flags & u16::from(kitty::ALL_FLAGS)).unwrap_or(0)
}

/// The input modes of one pane's terminal that vt100 leaves to fugue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputModes {
    /// Kitty keyboard flags of the main screen and of the alternate screen: the
    /// protocol keeps them apart, so an editor on the alternate screen never changes
    /// what the shell on the main screen gets.
    pub main: KittyStack,
    pub alternate: KittyStack,
    /// The program asked for `CSI I` / `CSI O` when focus comes and goes (1004).
    pub focus: bool,
    /// The program asked for urxvt's mouse encoding (1015).
    pub urxvt_mouse: bool,
}

impl InputModes {
    pub fn stack(&self, alternate: bool) -> &KittyStack {
        if alternate {
            &self.alternate
        } else {
            &self.main
        }
    }

    pub fn stack_mut(&mut self, alternate: bool) -> &mut KittyStack {
        if alternate {
            &mut self.alternate
        } else {
            &mut self.main
        }
    }

    /// The kitty flags in force on the given screen.
    pub fn kitty(&self, alternate: bool) -> u8 {
        self.stack(alternate).current()
    }
}

#[cfg(test)]
mod tests {
    use super::super::state::PaneState;
    use super::*;

    fn pane() -> PaneState {
        PaneState::new(20, 5, 10)
    }

    /// The kitty flags in force, and what a `CSI ? u` query is answered.
    fn kitty(p: &mut PaneState) -> (u8, String) {
        let replies = p.process(b"\x1b[?u").replies;
        (
            p.key_modes().kitty,
            String::from_utf8_lossy(&replies).into_owned(),
        )
    }

    #[test]
    fn a_program_sets_kitty_flags_per_screen() {
        let mut p = pane();
        assert_eq!(kitty(&mut p), (0, "\x1b[?0u".into()));
        p.process(b"\x1b[>1u");
        assert_eq!(kitty(&mut p), (1, "\x1b[?1u".into()));
        // An editor on the alternate screen starts from nothing and changes only its own.
        p.process(b"\x1b[?1049h");
        assert_eq!(kitty(&mut p).0, 0);
        p.process(b"\x1b[>11u\x1b[=16;2u");
        assert_eq!(kitty(&mut p), (27, "\x1b[?27u".into()));
        assert_eq!(p.pane_input().kitty, 27);
        p.process(b"\x1b[?1049l");
        assert_eq!(kitty(&mut p).0, 1);
        p.process(b"\x1b[=3;1u");
        assert_eq!(kitty(&mut p).0, 3);
        p.process(b"\x1b[<u");
        assert_eq!(kitty(&mut p).0, 0);
        // A pop of an empty stack stays empty.
        p.process(b"\x1b[<5u");
        assert_eq!(kitty(&mut p).0, 0);
    }

    #[test]
    fn focus_reports_go_to_a_program_that_asked() {
        let mut p = pane();
        // Not asked: nothing, but the pane knows.
        assert_eq!(p.focus_changed(true), None);
        // Switching focus events on: told at once, as tmux does.
        assert_eq!(p.process(b"\x1b[?1004h").replies, b"\x1b[I");
        assert_eq!(p.focus_changed(true), None);
        assert_eq!(p.focus_changed(false), Some(&b"\x1b[O"[..]));
        assert_eq!(p.focus_changed(true), Some(&b"\x1b[I"[..]));
        assert!(p.process(b"\x1b[?1004l").replies.is_empty());
        assert_eq!(p.focus_changed(false), None);
        assert_eq!(p.process(b"\x1b[?1004h").replies, b"\x1b[O");
    }

    #[test]
    fn a_program_pushing_forever_stays_bounded() {
        let mut p = pane();
        p.process(&b"\x1b[>1u".repeat(10_000));
        assert_eq!(p.input_modes().main.len(), KITTY_STACK);
    }

    /// vendor/vt100's `on_reset` patch: RIS resets fugue's modes too.
    #[test]
    fn a_terminal_reset_resets_input_modes() {
        let mut p = pane();
        p.process(b"\x1b[>3u\x1b[?1004;1015h");
        assert_eq!(p.input_modes().kitty(false), 3);
        assert!(p.input_modes().focus && p.input_modes().urxvt_mouse);
        p.process(b"\x1bc");
        assert_eq!(p.input_modes(), &InputModes::default());
    }

    #[test]
    fn focus_events_and_urxvt_mouse_are_tracked_in_any_mode_list() {
        let mut p = pane();
        p.process(b"\x1b[?1049;1004h");
        assert!(p.input_modes().focus && p.pane_input().focus);
        // vt100 handled 1049; the mode list still reached fugue.
        assert!(p.screen().alternate_screen());
        p.process(b"\x1b[?1015h\x1b[?1004l");
        assert!(!p.input_modes().focus && p.input_modes().urxvt_mouse);
    }

    #[test]
    fn push_pop_and_set_follow_the_protocol() {
        let mut s = KittyStack::default();
        assert_eq!(s.current(), 0);
        s.push(1);
        s.push(3);
        assert_eq!(s.current(), 3);
        s.pop(1);
        assert_eq!(s.current(), 1);
        s.set(8, 2);
        assert_eq!(s.current(), 9);
        s.set(1, 3);
        assert_eq!(s.current(), 8);
        s.set(5, 1);
        assert_eq!(s.current(), 5);
        s.set(31, 7);
        assert_eq!(s.current(), 5);
        s.pop(100);
        assert_eq!((s.current(), s.len()), (0, 0));
        // Set on an empty stack makes an entry a pop takes away.
        s.set(1, 1);
        assert_eq!(s.current(), 1);
        s.pop(1);
        assert_eq!(s.current(), 0);
        // Bits the protocol does not define are dropped.
        s.push(0xffff);
        assert_eq!(s.current(), 31);
    }

    #[test]
    fn a_full_stack_evicts_its_oldest_entry() {
        let mut s = KittyStack::default();
        for flags in 1..=20 {
            s.push(flags);
        }
        assert_eq!(s.len(), KITTY_STACK);
        assert_eq!(s.current(), 20);
        s.pop(7);
        assert_eq!(s.current(), 13);
        s.pop(1);
        assert!(s.is_empty());
    }
}
