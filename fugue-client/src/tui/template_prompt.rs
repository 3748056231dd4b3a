//! tmux's `command-prompt` with questions and a template, as configurations bind it
//! (`bind S command-prompt -p "new session:" "new-session -s '%%'"`): each question
//! on the status line in turn (its text and first answer formats, as tmux expands
//! them), then the template filled in with the answers and run as a typed line.
//! The bare `command-prompt` is `C-b :` (`command_prompt.rs`).

use super::input::Request;
use super::prompt::{Edit, LineEdit};
use super::state::{App, Mode, Pending, PromptKind};
use fugue_protocol::Command;
use fugue_protocol::cmd;
use fugue_protocol::keys::{Key, KeyCode};
use fugue_verbs::command_prompt::PromptSpec;

/// A template prompt under way.
#[derive(Debug)]
pub struct TemplatePrompt {
    pub spec: PromptSpec,
    pub answers: Vec<String>,
    /// The question shown now, expanded.
    pub prompt: String,
}

impl App {
    /// Opens the prompt `argv` (`command-prompt ...`) describes.
    pub fn open_template_prompt(&mut self, argv: &[String]) -> Result<(), String> {
        let args: fugue_protocol::flags::CommandPrompt = fugue_verbs::line::parse_flags(argv)?;
        let mut spec = fugue_verbs::command_prompt::spec(&args)?;
        if args.expand {
            spec.template = self.expand_here(&spec.template);
        }
        self.template = Some(TemplatePrompt {
            spec,
            answers: Vec::new(),
            prompt: String::new(),
        });
        self.next_question();
        Ok(())
    }

    /// Shows the next unanswered question, with its first answer.
    fn next_question(&mut self) {
        let Some(t) = &self.template else { return };
        let Some(q) = t.spec.questions.get(t.answers.len()).cloned() else {
            return;
        };
        let (prompt, input) = (self.expand_here(&q.prompt), self.expand_here(&q.input));
        if let Some(t) = &mut self.template {
            t.prompt = prompt;
        }
        self.mode = Mode::Prompt {
            kind: PromptKind::Template,
            input: LineEdit::new(input),
        };
    }

    /// A key while a template prompt is open.
    pub fn template_prompt_key(&mut self, mut input: LineEdit, key: Key) -> Vec<Request> {
        let Some(t) = &self.template else {
            return Vec::new();
        };
        let answer = if t.spec.single_key {
            Some(key.to_string())
        } else {
            let digit_only = t.spec.numeric
                && matches!(key.code, KeyCode::Char(c) if !c.is_ascii_digit())
                && key.mods == fugue_protocol::keys::Mods::NONE;
            match (digit_only, input.key(key)) {
                (true, _) => None,
                (_, Edit::Done) => Some(input.text().to_string()),
                (_, Edit::Cancelled) => {
                    self.template = None;
                    return Vec::new();
                }
                (_, Edit::Editing) => None,
            }
        };
        let Some(answer) = answer else {
            self.mode = Mode::Prompt {
                kind: PromptKind::Template,
                input,
            };
            return Vec::new();
        };
        let Some(t) = &mut self.template else {
            return Vec::new();
        };
        t.answers.push(answer);
        if t.answers.len() < t.spec.questions.len() {
            self.next_question();
            return Vec::new();
        }
        let Some(t) = self.template.take() else {
            return Vec::new();
        };
        // The answers join their type's history, as tmux's prompt adds them.
        let mut requests: Vec<Request> = t
            .answers
            .iter()
            .filter(|a| !a.is_empty())
            .map(|a| Request {
                command: Command::PromptEntered(cmd::PromptEntered {
                    kind: t.spec.kind,
                    line: a.clone(),
                }),
                pending: Pending::Action("command-prompt"),
            })
            .collect();
        requests.extend(self.run_line(&t.spec.fill(&t.answers)));
        requests
    }
}
