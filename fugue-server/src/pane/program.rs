//! A pane's program as the tree holds it: starting, then running.
//!
//! Starting a program (openpty, posix_spawn, the reader, writer and waiter threads)
//! takes milliseconds, and under load much longer. It used to run with the session
//! tree locked, so one slow spawn stalled every client and command (issue 12). Now a
//! command puts a placeholder pane in the tree (already marked with who made it, so
//! the program's first `fugue` call is judged as that pane's), starts the program with
//! the lock released, and attaches it under the lock again. Until then the pane has no
//! pid, takes no input and cannot be resized (the size it has when the program is
//! attached is applied then).

use super::pty::{InputError, Pty, PtyInput};

#[derive(Default)]
pub struct Program {
    pty: Option<Pty>,
    /// The program exited before it was attached (its exit event came first); the
    /// status is handled once it is.
    exited_early: Option<i32>,
}

impl Program {
    /// A placeholder: the program is being started.
    pub fn starting() -> Program {
        Program::default()
    }

    /// A running program.
    pub fn running(pty: Pty) -> Program {
        Program {
            pty: Some(pty),
            exited_early: None,
        }
    }

    pub fn is_starting(&self) -> bool {
        self.pty.is_none()
    }

    /// Attaches the started program; returns the exit status if it already exited.
    pub fn attach(&mut self, pty: Pty) -> Option<i32> {
        self.pty = Some(pty);
        self.exited_early.take()
    }

    /// Keeps an exit reported before the program was attached.
    pub fn exited_before_attach(&mut self, status: i32) {
        self.exited_early = Some(status);
    }

    pub fn write(&self, bytes: Vec<u8>) -> Result<(), InputError> {
        match &self.pty {
            Some(p) => p.write(bytes),
            None => Err(InputError::Starting),
        }
    }

    pub fn input(&self) -> Result<PtyInput, InputError> {
        self.pty
            .as_ref()
            .map(Pty::input)
            .ok_or(InputError::Starting)
    }

    pub fn resize(&self, cols: u16, rows: u16) {
        if let Some(p) = &self.pty {
            p.resize(cols, rows);
        }
    }

    pub fn pid(&self) -> Option<u32> {
        self.pty.as_ref().and_then(Pty::pid)
    }

    /// What sizes the terminal off the tree's lock; nothing for a placeholder.
    pub fn resizer(&self) -> super::pty::Resizer {
        self.pty.as_ref().map(Pty::resizer).unwrap_or_default()
    }

    pub fn tty_name(&self) -> Option<String> {
        self.pty.as_ref().and_then(Pty::tty_name)
    }

    pub fn foreground_pgrp(&self) -> Option<i32> {
        self.pty.as_ref().and_then(Pty::foreground_pgrp)
    }

    /// Ends the program. A placeholder has none yet: the command starting it sees the
    /// pane gone when it comes to attach the program, and ends it then.
    pub fn kill(&self) {
        if let Some(p) = &self.pty {
            p.kill();
        }
    }
}
