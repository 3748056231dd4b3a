//! A question asked for a control client (`tmux -C`), which has no status line of
//! its own: `confirm-before` and `command-prompt` sent to it wait here, and
//! `send-keys -K -c CLIENT` answers them key by key, as tmux's status prompt takes a
//! client's keys. Sans-IO: keys in, a step out; the dispatcher runs what comes out.

use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::tmux_cmd::{self, Argv, NoEnv};
use fugue_verbs::command_prompt::PromptSpec;

/// Longest answer kept, in bytes: keys past it are dropped (a script cannot grow a
/// prompt without bound).
pub const MAX_ANSWER: usize = 4096;

#[derive(Debug)]
pub enum ClientPrompt {
    /// `confirm-before`: the commands run on the confirm key (Enter too with `-y`).
    Confirm {
        commands: Vec<Argv>,
        confirm: Key,
        default_yes: bool,
    },
    /// `command-prompt`: the answers so far and the one being typed.
    Input {
        spec: PromptSpec,
        answers: Vec<String>,
        buffer: String,
    },
}

/// What a key did to the question.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    Asking,
    Cancelled,
    /// Answered: these command lines run now.
    Run(Vec<Argv>),
    /// Answered, but the filled-in line does not parse.
    Bad(String),
}

impl ClientPrompt {
    pub fn input(spec: PromptSpec) -> ClientPrompt {
        let buffer = spec
            .questions
            .first()
            .map(|q| q.input.clone())
            .unwrap_or_default();
        ClientPrompt::Input {
            spec,
            answers: Vec::new(),
            buffer,
        }
    }

    pub fn key(&mut self, key: Key) -> Step {
        match self {
            ClientPrompt::Confirm {
                commands,
                confirm,
                default_yes,
            } => {
                let yes = key == *confirm || (*default_yes && key.code == KeyCode::Enter);
                if yes {
                    Step::Run(std::mem::take(commands))
                } else {
                    Step::Cancelled
                }
            }
            ClientPrompt::Input {
                spec,
                answers,
                buffer,
            } => {
                let ctrl = key.mods.contains(Mods::CTRL);
                let done = if spec.single_key {
                    *buffer = key.to_string();
                    true
                } else {
                    match key.code {
                        KeyCode::Enter => true,
                        KeyCode::Escape => return Step::Cancelled,
                        KeyCode::Char('c') if ctrl => return Step::Cancelled,
                        KeyCode::Char('u') if ctrl => {
                            buffer.clear();
                            false
                        }
                        KeyCode::Backspace => {
                            buffer.pop();
                            false
                        }
                        KeyCode::Char(c) if !ctrl && (!spec.numeric || c.is_ascii_digit()) => {
                            if buffer.len() + c.len_utf8() <= MAX_ANSWER {
                                buffer.push(c);
                            }
                            false
                        }
                        _ => false,
                    }
                };
                if !done {
                    return Step::Asking;
                }
                answers.push(std::mem::take(buffer));
                if let Some(next) = spec.questions.get(answers.len()) {
                    *buffer = next.input.clone();
                    return Step::Asking;
                }
                let line = spec.fill(answers);
                match tmux_cmd::parse(&line, &NoEnv) {
                    Ok(commands) => Step::Run(commands),
                    Err(e) => Step::Bad(e.to_string()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::flags::CommandPrompt;
    use fugue_verbs::command_prompt::spec;

    fn k(s: &str) -> Key {
        Key::parse(s).unwrap()
    }

    #[test]
    fn answers_fill_the_template_and_escape_cancels() {
        let spec = spec(&CommandPrompt {
            prompts: Some("a,b".into()),
            inputs: Some("pre".into()),
            template: Some("set -g @x '%1-%2'".into()),
            ..Default::default()
        })
        .unwrap();
        let mut p = ClientPrompt::input(spec.clone());
        for key in ["BSpace", "x", "Enter", "y", "Enter"] {
            let step = p.key(k(key));
            if key == "Enter" && matches!(step, Step::Run(_)) {
                let Step::Run(c) = step else { unreachable!() };
                assert_eq!(
                    c,
                    vec![["set", "-g", "@x", "prx-y"].map(String::from).to_vec()]
                );
                let mut again = ClientPrompt::input(spec);
                assert_eq!(again.key(k("Escape")), Step::Cancelled);
                return;
            }
        }
        panic!("the prompt never finished");
    }

    #[test]
    fn confirm_takes_its_key_and_enter_only_with_y() {
        let commands = vec![vec!["kill-pane".to_string()]];
        let mut p = ClientPrompt::Confirm {
            commands: commands.clone(),
            confirm: k("y"),
            default_yes: false,
        };
        assert_eq!(p.key(k("Enter")), Step::Cancelled);
        let mut p = ClientPrompt::Confirm {
            commands: commands.clone(),
            confirm: k("y"),
            default_yes: true,
        };
        assert_eq!(p.key(k("Enter")), Step::Run(commands));
    }
}
