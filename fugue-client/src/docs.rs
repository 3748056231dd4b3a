//! `fugue completions SHELL` and `fugue man [VERB]`: shell completions and the manual
//! page, generated from the one verb table (fugue-verbs' clap declaration), as
//! ripgrep makes its own, so they cannot fall behind the verbs.

use anyhow::Context;
use clap::CommandFactory;
use fugue_verbs::Cli;
use std::io::Write;

/// The name completions complete and the man page is for.
const NAME: &str = "fugue";

/// Prints the completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<i32> {
    let mut cli = Cli::command();
    // Made in memory first: clap_complete panics when its writer fails (a closed
    // pipe), and a `| head` must not end in a panic.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cli, NAME, &mut script);
    print(&script).context("cannot write the completion script")
}

/// Prints the manual page of `fugue`, or of one verb, in roff.
pub fn man(verb: Option<&str>) -> anyhow::Result<i32> {
    let cli = Cli::command().name(NAME);
    let man = match verb {
        None => clap_mangen::Man::new(cli),
        Some(name) => {
            let Some(sub) = cli.find_subcommand(name) else {
                anyhow::bail!("no such verb: {name} (`fugue list-commands` lists them)");
            };
            // `fugue-new-session(1)`, as git names its pages.
            let title = format!("{NAME}-{}", sub.get_name());
            clap_mangen::Man::new(sub.clone()).title(title)
        }
    };
    let mut page = Vec::new();
    man.render(&mut page)
        .context("cannot make the manual page")?;
    print(&page).context("cannot write the manual page")
}

/// Writes to standard output; a reader that stopped reading (`| head`) is no error.
fn print(bytes: &[u8]) -> std::io::Result<i32> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(0),
    }
}

#[cfg(test)]
mod tests {
    /// Every verb of the table is in the completions and has a page: both are made
    /// from the table, so a new verb cannot be missing from either.
    #[test]
    fn completions_and_pages_cover_every_verb() {
        std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(|| {
                use clap::CommandFactory;
                let cli = fugue_verbs::Cli::command();
                let mut script = Vec::new();
                clap_complete::generate(
                    clap_complete::Shell::Bash,
                    &mut cli.clone(),
                    super::NAME,
                    &mut script,
                );
                let script = String::from_utf8_lossy(&script);
                for sub in cli.get_subcommands() {
                    let name = sub.get_name();
                    assert!(script.contains(name), "{name} missing from the completions");
                    let mut page = Vec::new();
                    clap_mangen::Man::new(sub.clone())
                        .render(&mut page)
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert!(!page.is_empty(), "{name} has an empty page");
                }
            })
            .expect("a thread")
            .join()
            .expect("the check ran");
    }
}
