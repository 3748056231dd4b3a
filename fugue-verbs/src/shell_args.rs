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

/// `run-shell [-b] [-c start-directory] [-d delay] [-t target] command`: the command,
/// and the directory it starts in (`-c`; None: the runner's own).
pub fn run_shell_args(args: &[String]) -> Result<(String, Option<String>), String> {
    let mut it = args.iter();
    let mut cmd = None;
    let mut cwd = None;
    while let Some(a) = it.next() {
        match a.as_str() {
            "-b" | "-C" => {}
            "-c" => cwd = it.next().cloned(),
            "-d" | "-t" => {
                it.next();
            }
            _ => cmd = Some(a.clone()),
        }
    }
    cmd.map(|c| (c, cwd))
        .ok_or_else(|| "run-shell: usage: run-shell [-b] [-c start-directory] command".to_string())
}

/// Where a shell command given `-c DIR` starts, as tmux's job.c picks it: DIR when it
/// is a directory, else the home directory, else `/`.
pub fn start_directory(dir: &str) -> std::path::PathBuf {
    let is_dir = |d: &std::path::Path| d.is_dir();
    let dir = std::path::PathBuf::from(dir);
    if is_dir(&dir) {
        return dir;
    }
    match std::env::var_os("HOME").map(std::path::PathBuf::from) {
        Some(home) if is_dir(&home) => home,
        _ => std::path::PathBuf::from("/"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|w| w.to_string()).collect()
    }

    /// Bindings, `source-file` and hooks run `run-shell -c DIR` in DIR.
    #[test]
    fn run_shell_takes_a_start_directory() {
        assert_eq!(
            run_shell_args(&words(&["-b", "-c", "/tmp", "-t", "%1", "make"])),
            Ok(("make".to_string(), Some("/tmp".to_string())))
        );
        assert_eq!(
            run_shell_args(&words(&["make"])),
            Ok(("make".to_string(), None))
        );
        assert_eq!(start_directory("/"), std::path::PathBuf::from("/"));
        assert_ne!(
            start_directory("/no/such/dir"),
            std::path::PathBuf::from("/no/such/dir")
        );
    }
}
