//! Putting a terminal back in order: what a client killed with -9 (or any full-screen
//! program that died) may have left switched on, switched off again.
//!
//! The attached client writes [`MODES_OFF`] before it sets the terminal up and again
//! when it gives it back, so a client started after a crash never inherits mouse
//! reporting or a keyboard protocol it did not ask for; `fugue reset-terminal` writes
//! [`RESET`] and puts the line discipline back like `stty sane`.

use std::io::Write;

/// Modes a previous program may have switched on that the attached client does not
/// use: mouse reporting (every protocol and encoding), focus events, the kitty
/// keyboard protocol (pop every level, then set no flags), xterm's modifyOtherKeys,
/// and any text attributes in force.
pub const MODES_OFF: &str = concat!(
    "\x1b[?1000l\x1b[?1001l\x1b[?1002l\x1b[?1003l",
    "\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1016l",
    "\x1b[?1004l",
    "\x1b[<999u\x1b[=0;1u",
    "\x1b[>4;0m",
    "\x1b[0m",
);

/// Everything `fugue reset-terminal` switches off or back: [`MODES_OFF`], then the
/// main screen, bracketed paste off, the cursor shown, normal cursor and keypad keys,
/// autowrap on, the whole screen as scroll region.
pub const RESET: &str = concat!(
    "\x1b[?1000l\x1b[?1001l\x1b[?1002l\x1b[?1003l",
    "\x1b[?1005l\x1b[?1006l\x1b[?1015l\x1b[?1016l",
    "\x1b[?1004l",
    "\x1b[<999u\x1b[=0;1u",
    "\x1b[>4;0m",
    "\x1b[0m",
    "\x1b[?1049l",
    "\x1b[?2004l",
    "\x1b[?25h",
    "\x1b[?1l\x1b>",
    "\x1b[?7h",
    "\x1b[r",
);

/// `fugue reset-terminal`: writes [`RESET`] to standard output and, when standard
/// input is a terminal, gives it sane line settings. Returns the exit code.
pub fn run() -> anyhow::Result<i32> {
    let mut out = std::io::stdout().lock();
    out.write_all(RESET.as_bytes())?;
    out.flush()?;
    sane_termios(libc::STDIN_FILENO)?;
    Ok(0)
}

/// What `stty sane` sets that matters after a raw-mode program: line editing, echo,
/// signals from the keyboard, CR/NL translation both ways, one byte per read.
fn sane_termios(fd: libc::c_int) -> anyhow::Result<()> {
    // SAFETY: isatty only inspects the descriptor.
    if unsafe { libc::isatty(fd) } != 1 {
        return Ok(());
    }
    // SAFETY: tcgetattr fills the zeroed struct we own; checked below.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    if unsafe { libc::tcgetattr(fd, &mut t) } != 0 {
        return Err(anyhow::anyhow!(
            "cannot read the terminal's settings: {}",
            std::io::Error::last_os_error()
        ));
    }
    t.c_iflag |= libc::BRKINT | libc::ICRNL | libc::IXON | libc::IMAXBEL;
    t.c_iflag &= !(libc::IGNBRK | libc::INLCR | libc::IGNCR | libc::IXOFF | libc::ISTRIP);
    t.c_oflag |= libc::OPOST | libc::ONLCR;
    t.c_oflag &= !(libc::OCRNL | libc::ONOCR | libc::ONLRET);
    t.c_cflag |= libc::CREAD;
    t.c_lflag |= libc::ISIG
        | libc::ICANON
        | libc::IEXTEN
        | libc::ECHO
        | libc::ECHOE
        | libc::ECHOK
        | libc::ECHOCTL
        | libc::ECHOKE;
    t.c_lflag &= !(libc::ECHONL | libc::NOFLSH | libc::TOSTOP);
    t.c_cc[libc::VMIN] = 1;
    t.c_cc[libc::VTIME] = 0;
    // SAFETY: tcsetattr with the struct tcgetattr filled.
    if unsafe { libc::tcsetattr(fd, libc::TCSADRAIN, &t) } != 0 {
        return Err(anyhow::anyhow!(
            "cannot change the terminal's settings: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}
