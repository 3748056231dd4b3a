//! tmux's `command-prompt` as a person's configuration uses it (`bind S
//! command-prompt -p "new session:" "new-session -s '%%'"`): its flags, the questions
//! it asks (`-p`, `-I`, comma-separated), and the template the answers fill in as
//! tmux fills it. Shared by the terminal client, which asks on its status line, and
//! the server, which asks for a control client through `send-keys -K`.

use fugue_protocol::admin::PromptType;
use fugue_protocol::flags::CommandPrompt;

/// One question: what the status line shows, and the answer it starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub prompt: String,
    pub input: String,
}

/// What a command-prompt asks and what it does with the answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptSpec {
    pub questions: Vec<Question>,
    pub template: String,
    /// One key answers (`-1`, `-k`).
    pub single_key: bool,
    /// Only digits (`-N`).
    pub numeric: bool,
    pub kind: PromptType,
}

/// The questions and template of a `command-prompt`, as tmux makes them: no `-p`
/// asks `(COMMAND) ` for a template (its first word) and `:` for none; each prompt
/// gets a space after it; `-I` gives the questions their first answers in order.
pub fn spec(a: &CommandPrompt) -> Result<PromptSpec, String> {
    let template = a.template.clone().unwrap_or_else(|| "%1".into());
    let (prompts, space) = match (&a.prompts, &a.template) {
        (Some(p), _) => (p.clone(), true),
        (None, Some(t)) => {
            let first = t.split_whitespace().next().unwrap_or_default();
            let name = crate::line::canonical_name(first).unwrap_or_else(|| first.into());
            (format!("({name})"), true)
        }
        (None, None) => (":".to_string(), false),
    };
    let mut inputs = a.inputs.as_deref().map(|i| i.split(','));
    let questions = prompts
        .split(',')
        .map(|p| Question {
            prompt: if space {
                format!("{p} ")
            } else {
                p.to_string()
            },
            input: inputs
                .as_mut()
                .and_then(Iterator::next)
                .unwrap_or_default()
                .to_string(),
        })
        .collect();
    let kind = match &a.kind {
        Some(t) => PromptType::parse(t).map_err(|_| format!("unknown type: {t}"))?,
        None => PromptType::Command,
    };
    Ok(PromptSpec {
        questions,
        template,
        single_key: a.single_key || a.key,
        numeric: a.numeric,
        kind,
    })
}

impl PromptSpec {
    /// The command line once every question has its answer.
    pub fn fill(&self, answers: &[String]) -> String {
        answers
            .iter()
            .enumerate()
            .fold(self.template.clone(), |line, (i, a)| {
                replace(&line, a, i.saturating_add(1))
            })
    }
}

/// tmux's template replacement for answer `idx` (from 1): `%idx` and the first `%%`
/// become the answer; written `%idx%` or `%%%`, with `"`, `\`, `$`, `;` and `~`
/// escaped by a backslash.
pub fn replace(template: &str, answer: &str, idx: usize) -> String {
    if !template.contains('%') {
        return template.to_string();
    }
    let mut out = String::with_capacity(template.len() + answer.len());
    let mut replaced = false;
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let next = chars.peek().copied();
        let is_idx = next
            .and_then(|d| d.to_digit(10))
            .is_some_and(|d| (1..=9).contains(&d) && usize::try_from(d).is_ok_and(|d| d == idx));
        if !is_idx {
            if next != Some('%') || replaced {
                out.push(c);
                continue;
            }
            replaced = true;
        }
        chars.next();
        let quoted = chars.peek() == Some(&'%');
        if quoted {
            chars.next();
        }
        for a in answer.chars() {
            if quoted && "\"\\$;~".contains(a) {
                out.push('\\');
            }
            out.push(a);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_as_tmux_fills_them() {
        assert_eq!(replace("new -s '%%'", "a b", 1), "new -s 'a b'");
        assert_eq!(replace("%1 and %2", "x", 2), "%1 and x");
        assert_eq!(replace("%% %%", "x", 1), "x %%", "only the first %%");
        assert_eq!(replace("say %%%", "a;b", 1), "say a\\;b");
        assert_eq!(replace("say %1%", "$x", 1), "say \\$x");
        assert_eq!(replace("100%", "x", 1), "100%");
        assert_eq!(replace("no percent", "x", 1), "no percent");
    }

    #[test]
    fn questions_and_defaults_are_tmuxs() {
        let a = CommandPrompt {
            prompts: Some("one,two".into()),
            inputs: Some("i1".into()),
            template: Some("rename-window '%1-%2'".into()),
            ..Default::default()
        };
        let s = spec(&a).unwrap();
        assert_eq!(
            s.questions,
            vec![
                Question {
                    prompt: "one ".into(),
                    input: "i1".into()
                },
                Question {
                    prompt: "two ".into(),
                    input: String::new()
                }
            ]
        );
        assert_eq!(s.fill(&["a".into(), "b".into()]), "rename-window 'a-b'");
        let bare = spec(&CommandPrompt::default()).unwrap();
        assert_eq!(bare.questions[0].prompt, ":");
        assert_eq!(bare.fill(&["split-window".into()]), "split-window");
        let t = CommandPrompt {
            template: Some("renamew '%%'".into()),
            ..Default::default()
        };
        assert_eq!(spec(&t).unwrap().questions[0].prompt, "(rename-window) ");
        let bad = CommandPrompt {
            kind: Some("nope".into()),
            ..Default::default()
        };
        assert_eq!(spec(&bad).unwrap_err(), "unknown type: nope");
    }
}
