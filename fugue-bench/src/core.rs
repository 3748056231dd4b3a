//! The pane pipeline in process: bytes through fugue's `PaneState` (sideband scanner,
//! vt100, compact history) with no PTY, server or client. What callgrind profiles, and
//! the sideband scanner's cost without process noise.

use std::time::Instant;

/// Chunks the size a PTY read returns.
const CHUNK: usize = 4096;

/// Seconds to push `data` through a pane of `size` with a 10,000-line history.
pub fn parse_secs(data: &[u8], (cols, rows): (u16, u16), scan: bool) -> f64 {
    let mut state = fugue_server::pane::state::PaneState::new(cols, rows, 10_000);
    let start = Instant::now();
    for chunk in data.chunks(CHUNK) {
        let out = state.process_scanning(chunk, scan);
        std::hint::black_box(out);
    }
    start.elapsed().as_secs_f64()
}
