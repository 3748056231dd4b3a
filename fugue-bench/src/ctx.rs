//! What every workload needs: the programs, the generated files, the sizes.

use crate::mux::{Bins, Kind};
use crate::workloads::Files;

pub struct Ctx {
    pub bins: Bins,
    pub files: Files,
    /// Bytes of each throughput workload.
    pub size: u64,
    /// Samples per figure for whole-process measurements.
    pub runs: usize,
    /// Keystrokes per latency figure, round trips per MCP figure.
    pub keys: usize,
    /// Panes in the memory, creation and many-pane workloads.
    pub panes: Vec<usize>,
    /// The pane size of every workload.
    pub pane: (u16, u16),
    /// The multiplexers compared (tmux only when installed).
    pub kinds: Vec<Kind>,
}

impl Ctx {
    /// The order of the multiplexers in run `run`: alternating, so neither always
    /// runs first on a warmer or busier machine.
    pub fn order(&self, run: usize) -> Vec<Kind> {
        let mut k = self.kinds.clone();
        if run % 2 == 1 {
            k.reverse();
        }
        k
    }

    pub fn samples(&self) -> Samples {
        Samples::default()
    }
}

/// Samples of one figure, per multiplexer.
#[derive(Default)]
pub struct Samples {
    fugue: Vec<f64>,
    tmux: Vec<f64>,
}

impl Samples {
    pub fn push(&mut self, kind: Kind, v: f64) {
        match kind {
            Kind::Fugue => self.fugue.push(v),
            Kind::Tmux => self.tmux.push(v),
        }
    }

    pub fn extend(&mut self, kind: Kind, v: impl IntoIterator<Item = f64>) {
        match kind {
            Kind::Fugue => self.fugue.extend(v),
            Kind::Tmux => self.tmux.extend(v),
        }
    }

    pub fn take(self) -> (Vec<f64>, Vec<f64>) {
        (self.fugue, self.tmux)
    }
}

impl Ctx {
    /// How servers start for ordinary samples.
    pub fn opts(&self) -> crate::mux::StartOpts {
        crate::mux::StartOpts {
            callgrind: None,
            pane: self.pane,
        }
    }
}
