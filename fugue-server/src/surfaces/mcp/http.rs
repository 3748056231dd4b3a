//! MCP over streamable HTTP: rmcp's streamable HTTP server transport behind a bearer
//! token and an Origin check, serving the same handler as the socket (the same tools,
//! policy and audit; the origin is "MCP over HTTP").
//!
//! Off by default. It listens from the server's start when `[mcp_http] listen` names
//! an address, and for as long as `fugue mcp --http ADDR` runs (the bridge asks for it
//! in its preamble, see `super::connection`). Only loopback addresses unless the config
//! says `allow_non_loopback = true`.
//!
//! Every request is judged before rmcp sees it: an `Origin` header other than a
//! loopback one (or one the config lists) is refused with 403, whatever the token (a
//! web page the person visits must not drive their terminals); then a missing or wrong
//! `Authorization: Bearer` is refused with 401. The token is 32 random bytes, hex, in a
//! 0600 file in a 0700 folder, made when missing and kept across restarts so a
//! configured client keeps working.

use super::handler::FugueMcp;
use crate::config::McpHttpSection;
use crate::config::mcp_http::{check_loopback, parse_listen};
use crate::origin::Origin;
use crate::server::Server;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::{Request, Response, StatusCode};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

/// The path MCP is served on; anything else is 404.
pub const MCP_PATH: &str = "/mcp";

/// TCP connections served at once; more wait in the kernel's backlog. An MCP client
/// keeps one or two (a POST and an SSE stream per call in flight).
const MAX_CONNECTIONS: usize = 64;

/// The largest request body: the same bound as a message on the socket.
const MAX_BODY: usize = super::framing::MAX_LINE;

/// How long a connection may take to send a request's headers.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);

/// Random bytes in a token (written as hex).
const TOKEN_BYTES: usize = 32;

type Body = BoxBody<Bytes, Infallible>;

/// An open listener; dropping it stops listening and ends its MCP sessions.
pub struct Listening {
    pub addr: SocketAddr,
    pub token_file: PathBuf,
    cancel: CancellationToken,
}

impl Listening {
    /// The URL clients connect to.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.addr)
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// The token file `[mcp_http] token_file` names, else `default` (in the state folder).
pub fn token_file(section: &McpHttpSection, default: &Path) -> PathBuf {
    if section.token_file.is_empty() {
        default.to_path_buf()
    } else {
        PathBuf::from(&section.token_file)
    }
}

/// Starts listening on `listen` (`IP:PORT`) with the rest of `section`; the token is in
/// `token_file` (made when missing). Errors are sentences for the person.
pub async fn listen(
    server: Arc<Server>,
    listen: &str,
    section: &McpHttpSection,
    token_file: &Path,
) -> Result<Listening, String> {
    let addr = parse_listen(listen)?;
    check_loopback(addr, section.allow_non_loopback)?;
    let token = ensure_token(token_file)?;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let cancel = CancellationToken::new();
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(cancel.child_token())
        .with_max_request_body_bytes(MAX_BODY);
    if !addr.ip().is_loopback() {
        // rmcp's Host check allows loopback names only; a listener the person opened to
        // the network is reached by other names. The token still guards it.
        config = config.disable_allowed_hosts();
    }
    let factory_server = Arc::clone(&server);
    let service = StreamableHttpService::new(
        move || {
            let origin = Origin::Mcp {
                connection: factory_server.mux.attached.next_id(),
                caller_pane: None,
                http: true,
            };
            tracing::info!("{origin}: session started");
            Ok(FugueMcp::new(Arc::clone(&factory_server), origin))
        },
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let gate = Arc::new(Gate {
        token,
        origins: section.allowed_origins.clone(),
    });
    tracing::info!("MCP over HTTP listening on http://{addr}{MCP_PATH}");
    tokio::spawn(accept(server, listener, service, gate, cancel.clone()));
    Ok(Listening {
        addr,
        token_file: token_file.to_path_buf(),
        cancel,
    })
}

type Service = StreamableHttpService<FugueMcp, LocalSessionManager>;

async fn accept(
    server: Arc<Server>,
    listener: TcpListener,
    service: Service,
    gate: Arc<Gate>,
    cancel: CancellationToken,
) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let permit = tokio::select! {
            p = Arc::clone(&slots).acquire_owned() => match p {
                Ok(p) => p,
                Err(_) => break,
            },
            _ = cancel.cancelled() => break,
            _ = server.shutdown.notified() => break,
        };
        let (stream, peer) = tokio::select! {
            a = listener.accept() => match a {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors, say: wait a little rather than spin.
                    tracing::warn!("MCP over HTTP: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = cancel.cancelled() => break,
            _ = server.shutdown.notified() => break,
        };
        // Each answer is one small write: without TCP_NODELAY it waits for the
        // client's delayed ACK, about 40 ms a call (issue 30, item 14).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!("MCP over HTTP: TCP_NODELAY for {peer}: {e}");
        }
        let service = service.clone();
        let gate = Arc::clone(&gate);
        let cancel = cancel.clone();
        tokio::spawn(async move {
            let svc = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                let service = service.clone();
                let gate = Arc::clone(&gate);
                async move { Ok::<_, Infallible>(gate.serve(&service, req, peer).await) }
            });
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), svc);
            tokio::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!("MCP over HTTP: connection from {peer}: {e}");
                    }
                }
                _ = cancel.cancelled() => {}
            }
            drop(permit);
        });
    }
    tracing::info!("MCP over HTTP stopped listening");
}

/// The credentials of an `Authorization: Bearer ...` header; the scheme's name is
/// case-insensitive (RFC 9110, 11.1), so `bearer` and `BEARER` do too.
fn bearer(value: &str) -> Option<&str> {
    let (scheme, rest) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(rest)
}

/// What every request passes before rmcp sees it.
struct Gate {
    token: String,
    origins: Vec<String>,
}

impl Gate {
    async fn serve(
        &self,
        service: &Service,
        req: Request<hyper::body::Incoming>,
        peer: SocketAddr,
    ) -> Response<Body> {
        if req.uri().path() != MCP_PATH {
            return refusal(
                StatusCode::NOT_FOUND,
                &format!("MCP is served at {MCP_PATH}"),
            );
        }
        if let Some(origin) = req.headers().get(hyper::header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if !origin_allowed(origin, &self.origins) {
                tracing::warn!("MCP over HTTP: refused Origin `{origin}` from {peer}");
                return refusal(
                    StatusCode::FORBIDDEN,
                    &format!(
                        "Origin `{origin}` is not allowed: only loopback origins, or those listed in `allowed_origins` under [mcp_http]"
                    ),
                );
            }
        }
        let given = req
            .headers()
            .get(hyper::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(bearer)
            .map(str::trim);
        match given {
            Some(t) if same(t.as_bytes(), self.token.as_bytes()) => service.handle(req).await,
            _ => {
                tracing::warn!("MCP over HTTP: refused a request from {peer} without the token");
                let mut r = refusal(
                    StatusCode::UNAUTHORIZED,
                    "send `Authorization: Bearer TOKEN` with the token from the file `fugue mcp --http` printed (docs/mcp.md)",
                );
                r.headers_mut().insert(
                    hyper::header::WWW_AUTHENTICATE,
                    hyper::header::HeaderValue::from_static("Bearer"),
                );
                r
            }
        }
    }
}

fn refusal(status: StatusCode, message: &str) -> Response<Body> {
    let body = serde_json::json!({"error": message}).to_string();
    let mut r = Response::new(Full::new(Bytes::from(body)).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    r
}

/// Compares without stopping at the first difference, so timing tells nothing of
/// how much of a guess was right.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Loopback origins (any port, http or https) and the configured ones, exactly.
pub fn origin_allowed(origin: &str, extra: &[String]) -> bool {
    if extra.iter().any(|o| o.eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    // host[:port], nothing after it (an origin has no path).
    let host = if let Some(v6) = rest.strip_prefix('[') {
        match v6.split_once(']') {
            Some((h, port)) if port.is_empty() || is_port(port) => return h == "::1",
            _ => return false,
        }
    } else {
        match rest.split_once(':') {
            Some((h, port)) if is_port(port) => h,
            Some(_) => return false,
            None => rest,
        }
    };
    host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1"
}

fn is_port(s: &str) -> bool {
    let p = s.strip_prefix(':').unwrap_or(s);
    !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit())
}

/// Reads the token from `path`, or makes one there: the folder 0700, the file 0600.
/// A file others can read (or not ours) is replaced: its token may have leaked.
pub fn ensure_token(path: &Path) -> Result<String, String> {
    let dir = path.parent().unwrap_or(Path::new("/"));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| format!("cannot make the token's folder {}: {e}", dir.display()))?;
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        let private = meta.is_file() && meta.mode() & 0o077 == 0 && meta.uid() == unsafe_free_uid();
        if private
            && let Ok(text) = std::fs::read_to_string(path)
            && valid_token(text.trim())
        {
            return Ok(text.trim().to_string());
        }
        tracing::warn!(
            "replacing the MCP token file {}: it was not a private file holding a token",
            path.display()
        );
    }
    let mut raw = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut raw).map_err(|e| format!("cannot make a random token: {e}"))?;
    let token: String = raw.iter().map(|b| format!("{b:02x}")).collect();
    // Written beside it and renamed: a reader never sees half a token, and the mode is
    // set when the file is created, never widened.
    let tmp = path.with_extension("tmp");
    let _ = std::fs::remove_file(&tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(format!("{token}\n").as_bytes())?;
        f.sync_all()?;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600))?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| format!("cannot write the token file {}: {e}", path.display()))?;
    Ok(token)
}

fn valid_token(t: &str) -> bool {
    t.len() == TOKEN_BYTES * 2 && t.bytes().all(|b| b.is_ascii_hexdigit())
}

fn unsafe_free_uid() -> u32 {
    // SAFETY: getuid cannot fail and touches no memory of ours.
    unsafe { libc::getuid() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bearer_scheme_is_read_in_any_case() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer abc"), Some("abc"));
        assert_eq!(bearer("BEARER abc"), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearerabc"), None);
    }

    #[test]
    fn origins() {
        for ok in [
            "http://localhost",
            "http://localhost:3000",
            "https://127.0.0.1:8765",
            "http://[::1]:9",
            "http://[::1]",
        ] {
            assert!(origin_allowed(ok, &[]), "{ok}");
        }
        for bad in [
            "https://evil.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil:80",
            "null",
            "file://",
            "http://localhost:80/path",
            "http://[::2]:80",
            "",
        ] {
            assert!(!origin_allowed(bad, &[]), "{bad}");
        }
        assert!(origin_allowed(
            "https://app.example.com",
            &["https://app.example.com".into()]
        ));
    }

    #[test]
    fn tokens_are_private_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/t.token");
        let a = ensure_token(&path).unwrap();
        assert!(valid_token(&a));
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o600);
        let dmeta = std::fs::metadata(path.parent().unwrap()).unwrap();
        assert_eq!(dmeta.mode() & 0o777, 0o700);
        assert_eq!(ensure_token(&path).unwrap(), a, "kept across restarts");
        // Readable by others: replaced.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let b = ensure_token(&path).unwrap();
        assert_ne!(a, b);
        assert_eq!(std::fs::metadata(&path).unwrap().mode() & 0o777, 0o600);
    }
}
