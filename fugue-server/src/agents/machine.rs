//! An agent pane's state, free of I/O: events and observations in, a state out.
//!
//! The rules, in order (docs/agents.md says the same):
//!
//! 1. A program that exited is `exited`, for good.
//! 2. A task held back until the agents it depends on have results keeps the pane
//!    `starting`.
//! 3. A report from the agent (`fugue report --state S`) is the state while it is
//!    fresh: until input is submitted to the pane after it (a task, a message, a
//!    person's Enter), or a newer report. Agents know best; their output may go quiet
//!    while they think, or keep redrawing when they are done.
//! 4. Otherwise heuristics decide. The pane is *quiet* when neither output nor
//!    submitted input happened for `quiet`. Not quiet: `busy` (spinners print). Quiet:
//!    a program other than the agent in the terminal's foreground means `busy` (a
//!    shell running `make`), or `awaiting_input` when it shows the alternate screen (a
//!    full-screen program waiting for keys); the preset's prompt on the cursor's line
//!    (or the last non-empty line above an empty one) means `idle`; else a question on screen (the preset's `awaiting_input` regex)
//!    means `awaiting_input`; else, without a prompt regex, quiet alone means `idle`,
//!    and with one, quiet without the prompt means still `busy`.
//! 5. Until the pane has first been `idle` or `awaiting_input` (or reported), what
//!    would be `busy` is `starting`: the agent is still loading.

use fugue_protocol::{AgentState, StateSource};
use std::time::{Duration, Instant};

/// What the server saw of the pane when it asked.
#[derive(Clone, Debug, Default)]
pub struct Observation {
    /// When the program last printed (None: never yet).
    pub last_output: Option<Instant>,
    /// The preset's prompt regex matches the cursor's line.
    pub prompt: bool,
    /// The preset's awaiting-input regex matches the last lines of the screen.
    pub asks: bool,
    pub alternate_screen: bool,
    /// A process group other than the agent's runs in the terminal's foreground.
    pub foreground_child: bool,
    pub exited: Option<i32>,
}

#[derive(Clone, Debug)]
pub struct Machine {
    quiet: Duration,
    has_prompt: bool,
    state: AgentState,
    by: StateSource,
    exit_code: Option<i32>,
    /// The agent has been idle or awaiting input (or reported) at least once.
    ready: bool,
    report: Option<(AgentState, Instant)>,
    /// The last submitted input (task, message, Enter).
    last_input: Option<Instant>,
    /// A task waits for dependencies.
    held: bool,
    /// What the state would be without the hold (a held task waits for `idle` here).
    underneath: AgentState,
    /// The pane closed: `exited` for good, whatever is observed later.
    finished: bool,
}

impl Machine {
    pub fn new(quiet: Duration, has_prompt: bool) -> Machine {
        Machine {
            quiet,
            has_prompt,
            state: AgentState::Starting,
            by: StateSource::Heuristic,
            exit_code: None,
            ready: false,
            report: None,
            last_input: None,
            held: false,
            underneath: AgentState::Starting,
            finished: false,
        }
    }

    /// The state the heuristics and reports decide, ignoring a held task.
    pub fn underneath(&self) -> AgentState {
        self.underneath
    }

    /// The pane closed: the state is `exited` from now on and nothing changes it.
    pub fn finish(&mut self, exit_code: Option<i32>) {
        self.finished = true;
        self.state = AgentState::Exited;
        self.underneath = AgentState::Exited;
        self.by = StateSource::Heuristic;
        if self.exit_code.is_none() {
            self.exit_code = exit_code;
        }
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    pub fn state(&self) -> AgentState {
        self.state
    }

    pub fn source(&self) -> StateSource {
        self.by
    }

    pub fn exit_code(&self) -> Option<i32> {
        self.exit_code
    }

    /// Whether the agent has shown it is ready for work (it may still be held).
    pub fn ready(&self) -> bool {
        self.ready
    }

    /// Starts as ready: a pane watched on demand that has long been running is past
    /// loading, so a quiet `make` in it is `busy`, not `starting`.
    pub fn assume_ready(&mut self) {
        self.ready = true;
    }

    /// The agent reported a state.
    pub fn report(&mut self, state: AgentState, now: Instant) {
        self.report = Some((state, now));
        self.ready = true;
    }

    /// Input was submitted to the pane (a task, a message, a person's Enter).
    pub fn input(&mut self, now: Instant) {
        self.last_input = Some(now);
    }

    pub fn hold(&mut self, held: bool) {
        self.held = held;
    }

    fn fresh_report(&self) -> Option<AgentState> {
        let (state, at) = self.report?;
        self.last_input.is_none_or(|i| at >= i).then_some(state)
    }

    /// The last output or submitted input.
    fn last_activity(&self, obs: &Observation) -> Option<Instant> {
        match (obs.last_output, self.last_input) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether the decision at `now` depends on the screen and the foreground (so the
    /// caller need only look at them then).
    pub fn needs_screen(&self, now: Instant, last_output: Option<Instant>) -> bool {
        if self.exit_code.is_some() || self.fresh_report().is_some() {
            return false;
        }
        let obs = Observation {
            last_output,
            ..Observation::default()
        };
        last_output.is_some() && self.is_quiet(now, &obs)
    }

    fn is_quiet(&self, now: Instant, obs: &Observation) -> bool {
        self.last_activity(obs)
            .is_none_or(|t| now.saturating_duration_since(t) >= self.quiet)
    }

    fn heuristic(&self, now: Instant, obs: &Observation) -> AgentState {
        let working = if self.ready {
            AgentState::Busy
        } else {
            AgentState::Starting
        };
        if obs.last_output.is_none() || !self.is_quiet(now, obs) {
            return working;
        }
        if obs.foreground_child {
            return if obs.alternate_screen {
                AgentState::AwaitingInput
            } else {
                working
            };
        }
        // The agent's own prompt under the cursor beats a question still on screen
        // above it (one it asked, and was answered, earlier).
        if self.has_prompt && obs.prompt {
            return AgentState::Idle;
        }
        if obs.asks {
            return AgentState::AwaitingInput;
        }
        if self.has_prompt {
            return working;
        }
        AgentState::Idle
    }

    /// Decides the state at `now`; the new state and its source when it changed.
    pub fn update(&mut self, now: Instant, obs: &Observation) -> Option<(AgentState, StateSource)> {
        if self.exit_code.is_some() || self.finished {
            return None;
        }
        // Decided even while a task is held: readiness is what the task waits for.
        let underneath = match self.fresh_report() {
            Some(s) => (s, StateSource::Report),
            None => (self.heuristic(now, obs), StateSource::Heuristic),
        };
        if matches!(underneath.0, AgentState::Idle | AgentState::AwaitingInput) {
            self.ready = true;
        }
        self.underneath = underneath.0;
        let (state, by) = if let Some(code) = obs.exited {
            self.exit_code = Some(code);
            self.underneath = AgentState::Exited;
            (AgentState::Exited, StateSource::Heuristic)
        } else if self.held {
            (AgentState::Starting, StateSource::Heuristic)
        } else {
            underneath
        };
        if (state, by) == (self.state, self.by) {
            return None;
        }
        self.state = state;
        self.by = by;
        Some((state, by))
    }

    /// When, with nothing new happening, the heuristics could decide differently: the
    /// moment the pane becomes quiet. None when only a new event can change the state.
    pub fn next_check(&self, now: Instant, last_output: Option<Instant>) -> Option<Instant> {
        if self.exit_code.is_some() || self.finished || self.fresh_report().is_some() {
            return None;
        }
        let obs = Observation {
            last_output,
            ..Observation::default()
        };
        let at = self.last_activity(&obs)? + self.quiet;
        (at > now).then_some(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AgentState::*;

    const Q: Duration = Duration::from_millis(100);

    fn ms(base: Instant, n: u64) -> Instant {
        base + Duration::from_millis(n)
    }

    fn printed(at: Instant) -> Observation {
        Observation {
            last_output: Some(at),
            ..Observation::default()
        }
    }

    #[test]
    fn a_finished_pane_stays_exited() {
        let t0 = Instant::now();
        let mut m = Machine::new(Q, false);
        m.finish(None);
        assert_eq!(m.state(), Exited);
        m.input(ms(t0, 1));
        m.report(Busy, ms(t0, 2));
        assert_eq!(m.update(ms(t0, 3), &printed(ms(t0, 2))), None);
        assert_eq!((m.state(), m.underneath()), (Exited, Exited));
        assert_eq!(m.next_check(ms(t0, 3), Some(ms(t0, 2))), None);
    }

    #[test]
    fn a_held_task_sees_the_state_underneath() {
        let t0 = Instant::now();
        let mut m = Machine::new(Q, false);
        m.hold(true);
        m.update(ms(t0, 200), &printed(ms(t0, 10)));
        assert_eq!((m.state(), m.underneath()), (Starting, Idle));
    }

    #[test]
    fn starting_until_the_prompt_shows_on_a_quiet_screen() {
        let t0 = Instant::now();
        let mut m = Machine::new(Q, true);
        assert_eq!(m.update(t0, &Observation::default()), None);
        assert_eq!(m.state(), Starting);
        // Printing its banner: still starting, and quiet at 10 + 100.
        let obs = printed(ms(t0, 10));
        m.update(ms(t0, 20), &obs);
        assert_eq!(m.state(), Starting);
        assert_eq!(m.next_check(ms(t0, 20), obs.last_output), Some(ms(t0, 110)));
        // Quiet but no prompt yet: still loading.
        m.update(ms(t0, 110), &obs);
        assert_eq!(m.state(), Starting);
        assert!(!m.ready());
        let obs = Observation {
            prompt: true,
            ..obs
        };
        assert_eq!(
            m.update(ms(t0, 120), &obs),
            Some((Idle, StateSource::Heuristic))
        );
        assert!(m.ready());
        assert_eq!(m.next_check(ms(t0, 120), obs.last_output), None);
    }

    #[test]
    fn input_makes_it_busy_until_output_stops_and_the_prompt_returns() {
        let t0 = Instant::now();
        let mut m = Machine::new(Q, true);
        let idle = Observation {
            prompt: true,
            ..printed(t0)
        };
        m.update(ms(t0, 200), &idle);
        assert_eq!(m.state(), Idle);
        m.input(ms(t0, 300));
        assert_eq!(m.update(ms(t0, 300), &idle).map(|c| c.0), Some(Busy));
        // Its spinner, then its answer and prompt.
        let spinning = printed(ms(t0, 350));
        m.update(ms(t0, 380), &spinning);
        assert_eq!(m.state(), Busy);
        // Quiet for a moment without the prompt (thinking): still busy.
        m.update(ms(t0, 460), &spinning);
        assert_eq!(m.state(), Busy);
        let done = Observation {
            prompt: true,
            ..printed(ms(t0, 500))
        };
        m.update(ms(t0, 550), &done);
        assert_eq!(m.state(), Busy, "not quiet yet");
        m.update(ms(t0, 600), &done);
        assert_eq!(m.state(), Idle);
    }

    #[test]
    fn reports_win_while_fresh_and_input_makes_them_stale() {
        let t0 = Instant::now();
        let mut m = Machine::new(Q, true);
        m.report(Busy, t0);
        // Quiet with the prompt showing, but the agent says it works.
        let quiet = Observation {
            prompt: true,
            ..printed(t0)
        };
        assert_eq!(
            m.update(ms(t0, 500), &quiet),
            Some((Busy, StateSource::Report))
        );
        assert_eq!(m.next_check(ms(t0, 500), quiet.last_output), None);
        // Output streaming, but the agent says it is done.
        m.report(Idle, ms(t0, 600));
        let noisy = printed(ms(t0, 650));
        assert_eq!(m.update(ms(t0, 660), &noisy).map(|c| c.0), Some(Idle));
        assert!(!m.needs_screen(ms(t0, 900), noisy.last_output));
        // A message is typed: the report is stale, heuristics say busy.
        m.input(ms(t0, 700));
        assert_eq!(
            m.update(ms(t0, 700), &noisy),
            Some((Busy, StateSource::Heuristic))
        );
        // A report after the input is fresh again.
        m.report(AwaitingInput, ms(t0, 710));
        assert_eq!(
            m.update(ms(t0, 710), &noisy).map(|c| c.0),
            Some(AwaitingInput)
        );
    }

    #[test]
    fn questions_foreground_programs_and_full_screen_programs() {
        let t0 = Instant::now();
        let mut m = Machine::new(Q, true);
        m.report(Idle, t0);
        m.input(ms(t0, 1));
        let asks = Observation {
            asks: true,
            ..printed(ms(t0, 10))
        };
        m.update(ms(t0, 200), &asks);
        assert_eq!(m.state(), AwaitingInput);
        let child = Observation {
            foreground_child: true,
            prompt: true,
            ..printed(ms(t0, 10))
        };
        m.update(ms(t0, 200), &child);
        assert_eq!(m.state(), Busy, "a quiet `sleep` in a shell is busy");
        let full = Observation {
            alternate_screen: true,
            ..child
        };
        m.update(ms(t0, 200), &full);
        assert_eq!(m.state(), AwaitingInput, "a quiet `less` waits for keys");
    }

    #[test]
    fn without_a_prompt_regex_quiet_is_idle() {
        let t0 = Instant::now();
        let mut m = Machine::new(Q, false);
        m.update(ms(t0, 50), &printed(t0));
        assert_eq!(m.state(), Starting);
        assert!(m.needs_screen(ms(t0, 150), Some(t0)));
        m.update(ms(t0, 150), &printed(t0));
        assert_eq!(m.state(), Idle);
    }

    #[test]
    fn held_tasks_keep_it_starting_and_exit_is_final() {
        let t0 = Instant::now();
        let mut m = Machine::new(Q, false);
        m.hold(true);
        m.update(ms(t0, 500), &printed(t0));
        assert_eq!(m.state(), Starting);
        assert!(m.ready(), "ready underneath: the task can be typed");
        m.hold(false);
        m.input(ms(t0, 600));
        m.update(ms(t0, 600), &printed(t0));
        assert_eq!(m.state(), Busy);
        let gone = Observation {
            exited: Some(3),
            ..printed(t0)
        };
        assert_eq!(m.update(ms(t0, 700), &gone).map(|c| c.0), Some(Exited));
        assert_eq!(m.exit_code(), Some(3));
        m.report(Idle, ms(t0, 800));
        assert_eq!(m.update(ms(t0, 800), &printed(t0)), None);
        assert_eq!(m.state(), Exited);
    }
}
