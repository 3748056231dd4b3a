//! `fugue-server`: the daemon. Normally started by `fugue`, which waits for the line
//! `ready` on the server's standard output before connecting.

use anyhow::Context;
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "fugue-server",
    version,
    about = "The fugue server (normally started by `fugue`)"
)]
struct Args {
    /// The socket to listen on.
    #[arg(long)]
    socket: PathBuf,
    /// The config file (default: $XDG_CONFIG_HOME/fugue/config.toml).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Stay attached to the terminal (for debugging); logs still go to the log file.
    #[arg(long)]
    foreground: bool,
    /// Also answer at this path, tmux's for the server's name (a link to the socket,
    /// made when the path is free and removed at exit): `tmux -L NAME` through fugue.
    #[arg(long)]
    tmux_alias: Option<PathBuf>,
    /// How panes are framed, over the config file's `pane_borders`: `fugue` passes
    /// `shared` (tmux's borders and pane sizes) when started through the `tmux` name.
    #[arg(long, value_parser = ["boxed", "shared"])]
    pane_borders: Option<String>,
}

fn main() {
    let args = Args::parse();
    let mut prepared = match fugue_server::run::prepare(&args.socket, args.config.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("fugue-server: {e}");
            let code = match e {
                fugue_server::run::StartError::Socket(
                    fugue_server::socket::SocketError::AlreadyRunning(_),
                ) => 3,
                _ => 2,
            };
            std::process::exit(code);
        }
    };
    if let Some(borders) = args.pane_borders.as_deref() {
        prepared.config.server.pane_borders = match borders {
            "shared" => fugue_server::config::PaneBorders::Shared,
            _ => fugue_server::config::PaneBorders::Boxed,
        };
    }
    let _log_guard = match init_logging(&prepared.state_dir, &prepared.bound.path) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("fugue-server: {e:#}");
            std::process::exit(2);
        }
    };
    let label = fugue_protocol::paths::server_label(&prepared.bound.path);
    let crash_files = fugue_server::crash::CrashFiles::new(&prepared.state_dir, &label);
    let mut out = std::io::stdout();
    if let Some(previous) = fugue_server::crash::previous_end(&crash_files) {
        tracing::warn!("{previous}");
        // `fugue` prints lines before `ready` for the person who started it.
        let _ = writeln!(out, "notice: {previous}");
    }
    if let Err(e) = fugue_server::crash::mark_running(&crash_files) {
        tracing::warn!("cannot write {}: {e}", crash_files.pid.display());
    }
    fugue_server::crash::install_panic_hook(&crash_files);
    // The runtime and the stopping signals come before `ready` (see `run::Signals`).
    // 8 MiB stacks, as a main thread has: hooks turn command lines into Commands with
    // the CLI's clap table (fugue-verbs), whose builder needs more than tokio's 2 MiB
    // default in a debug build (a set-hook overflowed it).
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(8 << 20)
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            tracing::error!("cannot start the runtime: {e}");
            std::process::exit(2);
        }
    };
    let signals = {
        let _context = runtime.enter();
        match fugue_server::run::Signals::register() {
            Ok(s) => s,
            Err(e) => {
                tracing::error!("cannot listen for signals: {e}");
                std::process::exit(2);
            }
        }
    };
    let _ = writeln!(out, "ready");
    let _ = out.flush();
    if !args.foreground {
        detach_stdio(fugue_server::crash::stderr_file(&crash_files).ok());
    }
    // Made last, so no early exit leaves it behind; still before the first client is
    // served, so the command that started the server finds it when it returns.
    let alias = args
        .tmux_alias
        .as_deref()
        .and_then(|a| fugue_server::tmux_alias::Alias::create(a, &prepared.bound.path));
    let served = runtime.block_on(fugue_server::run::serve(prepared, signals));
    // Before exit, which runs no destructors: the link goes with the socket.
    drop(alias);
    if let Err(e) = served {
        tracing::error!("{e}");
        fugue_server::crash::mark_stopped(&crash_files);
        std::process::exit(1);
    }
    fugue_server::crash::mark_stopped(&crash_files);
    tracing::info!("server exited");
    // Pane threads may still block in reads of killed programs; do not wait for them.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    std::process::exit(0);
}

fn init_logging(
    state_dir: &std::path::Path,
    socket: &std::path::Path,
) -> anyhow::Result<tracing_appender::non_blocking::WorkerGuard> {
    let label = fugue_protocol::paths::server_label(socket);
    let path = state_dir.join(format!("server-{label}.log"));
    // 0600, rotated at 10 MiB, records cut at 16 KiB (see log_file.rs).
    let file = fugue_server::log_file::LogFile::open(&path)
        .with_context(|| format!("cannot open the log {}", path.display()))?;
    let (writer, guard) = tracing_appender::non_blocking(file);
    let filter = tracing_subscriber::EnvFilter::try_from_env("FUGUE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("cannot set up logging")?;
    Ok(guard)
}

/// Points stdin and stdout at /dev/null, and stderr at `stderr` (else /dev/null): the
/// server must never write to a terminal it does not own, but what the runtime or the
/// allocator prints as it aborts must be kept for the next start to report.
fn detach_stdio(stderr: Option<std::fs::File>) {
    use std::os::unix::io::AsRawFd;
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let err = stderr.as_ref().map_or(null.as_raw_fd(), |f| f.as_raw_fd());
        for (fd, from) in [(0, null.as_raw_fd()), (1, null.as_raw_fd()), (2, err)] {
            // SAFETY: dup2 onto the standard descriptors.
            unsafe {
                libc::dup2(from, fd);
            }
        }
    }
}
