//! An agent's task as text: `{{%N.result}}` placeholders, the results put in their
//! place (within bounds), and the task on a command line.

use super::io;
use crate::config::Preset;
use fugue_protocol::{CommandError, ErrorCode, PaneId};

/// `{{%N.result}}`, spaces allowed inside the braces. A fixed pattern, compiled once;
/// the `None` of a failed compile (impossible for this pattern) leaves tasks as they are.
static PLACEHOLDER: std::sync::LazyLock<Option<regex::Regex>> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"\{\{\s*%(\d+)\.result\s*\}\}").ok());

/// The most bytes Linux's exec takes for one argument (MAX_ARG_STRLEN, 32 pages),
/// counting the NUL that ends it.
pub const MAX_ARG_BYTES: usize = 128 * 1024;

fn placeholders(task: &str) -> impl Iterator<Item = regex::Captures<'_>> {
    PLACEHOLDER
        .iter()
        .flat_map(move |re| re.captures_iter(task))
}

/// The panes `{{%N.result}}` names in a task; each must be a dependency.
pub fn check_placeholders(task: &str, deps: &[PaneId]) -> Result<(), CommandError> {
    for cap in placeholders(task) {
        let n: u32 = cap[1].parse().map_err(|_| {
            CommandError::invalid_argument("task", format!("`{}` names no pane", &cap[0]))
        })?;
        if !deps.contains(&PaneId(n)) {
            return Err(CommandError::invalid_argument(
                "task",
                format!("`{}` names %{n}, which is not in depends_on", &cap[0]),
            )
            .with_suggestion(format!("add %{n} to depends_on, or remove the placeholder")));
        }
    }
    Ok(())
}

/// The task with each `{{%N.result}}` replaced by that pane's result, if that is at
/// most `limit` bytes. The size is worked out before anything is made: a few kilobytes
/// of placeholders naming a 256 KiB result could otherwise ask for gigabytes.
pub fn substitute(
    task: &str,
    results: &[(PaneId, String)],
    limit: usize,
) -> Result<String, CommandError> {
    let result_of = |cap: &regex::Captures<'_>| {
        let pane = cap[1].parse().ok().map(PaneId);
        results.iter().find(|(p, _)| Some(*p) == pane)
    };
    let mut size = task.len();
    let mut uses: Vec<(PaneId, usize, usize)> = Vec::new();
    for cap in placeholders(task) {
        if let Some((p, r)) = result_of(&cap) {
            size = size.saturating_sub(cap[0].len()).saturating_add(r.len());
            match uses.iter_mut().find(|u| u.0 == *p) {
                Some(u) => u.2 += 1,
                None => uses.push((*p, r.len(), 1)),
            }
        }
    }
    if size > limit {
        let parts: Vec<String> = uses
            .iter()
            .map(|(p, len, n)| format!("{p}'s result of {len} bytes × {n}"))
            .collect();
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "the task with its results put in would be {size} bytes (a task of {} bytes; {}), over the limit of {limit} bytes",
                task.len(),
                parts.join(", ")
            ),
        )
        .with_suggestion(
            "have the agents report short results and write the rest to a file named in them, or use fewer placeholders",
        ));
    }
    let Some(re) = PLACEHOLDER.as_ref() else {
        return Ok(task.to_string());
    };
    let out = re.replace_all(task, |cap: &regex::Captures<'_>| {
        result_of(cap)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| cap[0].to_string())
    });
    // Results come from other agents: no control characters reach the program.
    Ok(io::clean_text(&out))
}

/// The task as it goes on a command line. Every argument parser takes a word that
/// begins with `-` for an option (`claude "-rf ..."`, or a result that is a Markdown
/// list), so such a task gets a space in front, which keeps it a plain word for all of
/// them, and costs an agent reading it nothing.
pub fn as_argument(task: &str) -> String {
    if task.starts_with('-') {
        format!(" {task}")
    } else {
        task.to_string()
    }
}

/// The preset's `task_args` with `{task}` replaced, if exec can take each of them.
pub fn task_args(preset: &Preset, agent: &str, task: &str) -> Result<Vec<String>, CommandError> {
    let args: Vec<String> = preset
        .task_args
        .iter()
        .map(|a| a.replace("{task}", task))
        .collect();
    if let Some(long) = args.iter().find(|a| a.len() >= MAX_ARG_BYTES) {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "preset `{agent}` takes its task on the command line, and this task makes an argument of {} bytes: Linux's exec takes at most {MAX_ARG_BYTES} bytes (128 KiB) for one argument",
                long.len()
            ),
        )
        .with_suggestion(
            "shorten the task (write long material, results included, to a file and name it in the task), or use a preset with deliver = \"paste\"",
        ));
    }
    Ok(args)
}

/// The program, its arguments, and the task's arguments.
pub fn argv(preset: &Preset, task_args: &[String]) -> Vec<String> {
    let mut argv = program(preset);
    argv.extend(task_args.iter().cloned());
    argv
}

/// The program and its arguments, without a task.
pub fn program(preset: &Preset) -> Vec<String> {
    let mut argv = Vec::new();
    if !preset.command.is_empty() {
        argv.push(preset.command.clone());
    }
    argv.extend(preset.args.iter().cloned());
    argv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_must_name_dependencies_and_are_replaced() {
        let deps = [PaneId(1), PaneId(2)];
        check_placeholders("a {{%1.result}} b {{ %2.result }}", &deps).unwrap();
        let e = check_placeholders("{{%3.result}}", &deps).unwrap_err();
        assert!(e.message.contains("%3") && e.message.contains("depends_on"));
        let out = substitute(
            "x {{%1.result}} y {{ %2.result }} z {{%1.result}}",
            &[(PaneId(1), "one".into()), (PaneId(2), "two".into())],
            1 << 20,
        )
        .unwrap();
        assert_eq!(out, "x one y two z one");
    }

    #[test]
    fn the_size_is_refused_before_it_is_made() {
        let big = "r".repeat(1000);
        let task = "{{%1.result}}".repeat(10_000);
        let e = substitute(&task, &[(PaneId(1), big)], 1 << 20).unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        assert!(e.message.contains("10000000 bytes"), "{}", e.message);
        assert!(e.message.contains("%1's result of 1000 bytes × 10000"));
    }

    #[test]
    fn a_task_never_looks_like_an_option() {
        assert_eq!(as_argument("-rf x"), " -rf x");
        assert_eq!(as_argument("fix -x"), "fix -x");
    }
}
