//! The arguments of `run-shell` and `if-shell`, which the terminal client runs itself
//! (bindings, `C-b :`, `source-file`) and the server runs for hooks.

/// The parts of `if-shell [-bF] [-t target] condition command [command]`: whether the
/// condition is a format, the condition, and the two branches.
pub fn if_shell_args(args: &[String]) -> Result<(bool, String, String, Option<String>), String> {
    let mut format = false;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-F" => format = true,
            "-b" => {}
            "-bF" | "-Fb" => format = true,
            "-t" => {
                it.next();
            }
            _ => rest.push(a.clone()),
        }
    }
    match rest.as_slice() {
        [c, t] => Ok((format, c.clone(), t.clone(), None)),
        [c, t, e] => Ok((format, c.clone(), t.clone(), Some(e.clone()))),
        _ => Err("if-shell: usage: if-shell [-bF] condition command [command]".into()),
    }
}

/// `run-shell [-b] [-d delay] [-t target] command`: the command.
pub fn run_shell_args(args: &[String]) -> Result<String, String> {
    let mut it = args.iter();
    let mut cmd = None;
    while let Some(a) = it.next() {
        match a.as_str() {
            "-b" | "-C" => {}
            "-d" | "-t" => {
                it.next();
            }
            _ => cmd = Some(a.clone()),
        }
    }
    cmd.ok_or_else(|| "run-shell: usage: run-shell [-b] command".to_string())
}
