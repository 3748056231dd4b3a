//! Starting the server, running it, and stopping it.

use crate::audit::Audit;
use crate::config::{Config, ConfigError};
use crate::server::{Server, run_events};
use crate::socket::{self, SocketError};
use fugue_protocol::paths;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Socket(#[from] SocketError),
    #[error("cannot set up {what} in {path}: {source}")]
    State {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Everything prepared before the runtime starts: config read, socket bound.
pub struct Prepared {
    pub config: Config,
    pub config_path: Option<PathBuf>,
    pub bound: socket::Bound,
    pub mcp: socket::Bound,
    pub state_dir: PathBuf,
}

/// Reads the config and binds the socket; any error here is reported to whoever
/// started the server before it detaches.
pub fn prepare(socket_path: &Path, config_file: Option<&Path>) -> Result<Prepared, StartError> {
    let env = paths::ProcessEnv;
    let (config, config_path) = Config::load(config_file, &paths::config_path(&env))?;
    let dir = socket_path.parent().unwrap_or(Path::new("/"));
    socket::prepare_dir(dir)?;
    let bound = socket::bind(socket_path)?;
    let mcp = socket::bind_unlocked(&paths::mcp_socket_path(socket_path))?;
    let state_dir = paths::state_dir(&env);
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&state_dir)
        .map_err(|source| StartError::State {
            what: "the state directory",
            path: state_dir.clone(),
            source,
        })?;
    Ok(Prepared {
        config,
        config_path,
        bound,
        mcp,
        state_dir,
    })
}

/// The signals that stop the server, registered before it says `ready`: a SIGTERM sent
/// the moment a starter reads `ready` must shut the server down cleanly (socket removed,
/// clients told), not kill it with the default action. Create inside the runtime's
/// context (`Runtime::enter`).
pub struct Signals {
    term: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
    hup: tokio::signal::unix::Signal,
}

impl Signals {
    pub fn register() -> std::io::Result<Signals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Signals {
            term: signal(SignalKind::terminate())?,
            int: signal(SignalKind::interrupt())?,
            hup: signal(SignalKind::hangup())?,
        })
    }
}

/// Runs the server until it shuts down.
pub async fn serve(prepared: Prepared, signals: Signals) -> Result<(), StartError> {
    let nofile = crate::surfaces::admission::raise_nofile_limit();
    let label = paths::server_label(&prepared.bound.path);
    let audit_path = prepared.state_dir.join(format!("audit-{label}.jsonl"));
    let audit = Audit::open(&audit_path).map_err(|source| StartError::State {
        what: "the audit log",
        path: audit_path.clone(),
        source,
    })?;
    let listener = async_listener(&prepared.bound)?;
    let mcp_listener = async_listener(&prepared.mcp)?;
    let (server, events) = Server::new(prepared.config, prepared.bound.path.clone(), audit);
    // Surfaces that hear pane events subscribe before any pane exists.
    crate::surfaces::subscribe(&server);
    // Before any pane exists too: new ids are numbered past the journal's.
    crate::persist::open(&server, &prepared.state_dir, &label);
    tokio::spawn(crate::server::run_focus(Arc::downgrade(&server)));
    tokio::spawn(crate::alerts::run(Arc::downgrade(&server)));
    crate::tmux_shim::install(&server);
    // Lost audit records show on attached clients' status line, not only in the log.
    let weak = Arc::downgrade(&server);
    server.audit.on_trouble(move |msg| {
        if let Some(server) = weak.upgrade() {
            server
                .mux
                .attached
                .tell(None, crate::attached::Control::Notice(msg.to_string()));
        }
    });
    tracing::info!(
        "fugue-server {} listening on {} (config: {})",
        env!("CARGO_PKG_VERSION"),
        prepared.bound.path.display(),
        prepared
            .config_path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "defaults".into())
    );
    for bound in [&prepared.bound, &prepared.mcp] {
        if bound.removed_stale {
            tracing::warn!(
                "removed the stale socket {} left by a server that did not exit cleanly",
                bound.path.display()
            );
        }
    }
    tokio::spawn(run_events(Arc::clone(&server), events));
    // Sessions the journal holds come back before the first connection is taken
    // (`[server] restore`), so `fugue` attaches to them.
    crate::dispatch::restore::at_start(&server).await;
    let admission =
        crate::surfaces::admission::Admission::new(server.config().server.max_connections, nofile);
    tracing::info!(
        "descriptor limit {nofile}; at most {} connections at once",
        admission.limit()
    );
    tokio::spawn(crate::surfaces::clients::accept_loop(
        Arc::clone(&server),
        listener,
        Arc::clone(&admission),
    ));
    let token_file = prepared.state_dir.join(format!("mcp-http-{label}.token"));
    // `[mcp_http] listen`: MCP over HTTP for as long as the server runs.
    let _http = start_http(&server, &token_file).await;
    tokio::spawn(crate::surfaces::mcp::accept_loop(
        Arc::clone(&server),
        mcp_listener,
        admission,
        token_file,
    ));
    tokio::spawn(idle_exit(Arc::clone(&server)));
    tokio::spawn(stop_on_signals(Arc::clone(&server), signals));
    server.shutdown.notified().await;
    server.requests_answered(Duration::from_secs(2)).await;
    // Let detach notices reach clients before the process goes.
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(prepared.bound);
    drop(prepared.mcp);
    Ok(())
}

/// Opens the configured MCP over HTTP listener, if any; a failure is logged, not fatal
/// (the person's terminals matter more than one way in).
async fn start_http(
    server: &Arc<Server>,
    default_token_file: &Path,
) -> Option<crate::surfaces::mcp::http::Listening> {
    use crate::surfaces::mcp::http;
    let section = server.config().mcp_http.clone();
    if section.listen.is_empty() {
        return None;
    }
    let token_file = http::token_file(&section, default_token_file);
    match http::listen(Arc::clone(server), &section.listen, &section, &token_file).await {
        Ok(l) => {
            tracing::info!(
                "MCP over HTTP at {}; bearer token in {}",
                l.url(),
                l.token_file.display()
            );
            Some(l)
        }
        Err(e) => {
            tracing::error!("MCP over HTTP not started: {e}");
            None
        }
    }
}

fn async_listener(bound: &socket::Bound) -> Result<tokio::net::UnixListener, StartError> {
    bound
        .listener
        .try_clone()
        .and_then(|l| {
            l.set_nonblocking(true)?;
            tokio::net::UnixListener::from_std(l)
        })
        .map_err(|source| StartError::State {
            what: "the listener",
            path: bound.path.clone(),
            source,
        })
}

/// Ends a server that got no session in its first [`IDLE_START_EXIT`]: one deadline,
/// not a periodic look. Whatever uses it then (a client, an MCP connection) ends it
/// when it leaves (`Server::maybe_exit`).
async fn idle_exit(server: Arc<Server>) {
    tokio::time::sleep(crate::server::IDLE_START_EXIT).await;
    server.maybe_exit();
}

async fn stop_on_signals(server: Arc<Server>, mut signals: Signals) {
    loop {
        tokio::select! {
            _ = signals.term.recv() => break,
            _ = signals.int.recv() => break,
            // The server has no terminal; a hangup means nothing to it.
            _ = signals.hup.recv() => continue,
        }
    }
    server.begin_shutdown("terminated by signal", crate::journal::Stop::Keep);
}
