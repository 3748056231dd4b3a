//! `fugue`: the terminal client, the CLI verbs, and the MCP stdio bridge.

mod autostart;
mod cli;
mod connection;
mod mcp_bridge;
mod reset;
mod tui;

use autostart::ServerAddr;
use clap::Parser;
use cli::args::{Cli, Verb};
use fugue_protocol::Target;
use std::io::Write;

fn main() {
    let args = Cli::parse();
    // One thread: the client waits on a socket and a terminal, and a key's way to the
    // server should not cross threads (a CLI verb also starts faster without workers).
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "fugue: cannot start: {e}");
            std::process::exit(1);
        }
    };
    let code = match runtime.block_on(run(args)) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "fugue: {e:#}");
            1
        }
    };
    runtime.shutdown_background();
    std::process::exit(code);
}

async fn run(args: Cli) -> anyhow::Result<i32> {
    if let Some(Verb::ResetTerminal) = args.verb {
        return reset::run();
    }
    let addr = ServerAddr::resolve(args.socket, args.name, args.config)?;
    match args.verb {
        None => tui::attach(&addr, None, tui::AttachHow::CreateIfNone).await,
        Some(Verb::AttachSession { target }) => {
            let target = target.map(|t| t.parse::<Target>()).transpose()?;
            tui::attach(&addr, target, tui::AttachHow::Existing).await
        }
        Some(Verb::SourceFile {
            quiet,
            parse_only,
            verbose,
            paths,
        }) => {
            let flags = cli::source::Flags {
                quiet,
                parse_only,
                verbose,
            };
            cli::source::run(&addr, &paths, flags).await
        }
        Some(Verb::Mcp { http: None }) => {
            tokio::task::spawn_blocking(move || mcp_bridge::run(&addr)).await?
        }
        Some(Verb::Mcp { http: Some(listen) }) => {
            tokio::task::spawn_blocking(move || mcp_bridge::run_http(&addr, &listen)).await?
        }
        Some(verb) => match cli::run(&addr, verb).await? {
            cli::Outcome::Exit(code) => Ok(code),
            cli::Outcome::AttachNew(sid) => {
                tui::attach(
                    &addr,
                    Some(Target::SessionId(sid)),
                    tui::AttachHow::JustCreated,
                )
                .await
            }
        },
    }
}
