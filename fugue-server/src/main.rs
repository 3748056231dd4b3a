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
}

fn main() {
    let args = Args::parse();
    let prepared = match fugue_server::run::prepare(&args.socket, args.config.as_deref()) {
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
    let _log_guard = match init_logging(&prepared.state_dir, &prepared.bound.path) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("fugue-server: {e:#}");
            std::process::exit(2);
        }
    };
    let mut out = std::io::stdout();
    let _ = writeln!(out, "ready");
    let _ = out.flush();
    if !args.foreground {
        detach_stdio();
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            tracing::error!("cannot start the runtime: {e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = runtime.block_on(fugue_server::run::serve(prepared)) {
        tracing::error!("{e}");
        std::process::exit(1);
    }
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

/// Points stdin, stdout and stderr at /dev/null: the server must never write to a
/// terminal it does not own.
fn detach_stdio() {
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        use std::os::unix::io::AsRawFd;
        for fd in 0..=2 {
            // SAFETY: dup2 onto the standard descriptors.
            unsafe {
                libc::dup2(null.as_raw_fd(), fd);
            }
        }
    }
}
