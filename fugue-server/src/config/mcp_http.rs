//! `[mcp_http]`: MCP over streamable HTTP, off unless `listen` names an address
//! (docs/mcp.md). `fugue mcp --http ADDR` opens the same listener for as long as it
//! runs, with the rest of this section.

use serde::Deserialize;
use std::net::SocketAddr;

/// The most extra origins a config may allow: a short list a person writes, not a
/// directory of sites.
const MAX_ALLOWED_ORIGINS: usize = 64;
/// The longest origin (scheme, host and port) in `allowed_origins`.
const MAX_ORIGIN_BYTES: usize = 512;

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct McpHttpSection {
    /// `IP:PORT` to listen on from the server's start; empty: off.
    pub listen: String,
    /// Listening on an address other than loopback (127.0.0.0/8, ::1) is refused
    /// unless this is true: anyone who can reach the port can try the token.
    pub allow_non_loopback: bool,
    /// The bearer token's file; empty: `$XDG_STATE_HOME/fugue/mcp-http-SERVER.token`.
    pub token_file: String,
    /// Origins (`scheme://host[:port]`) allowed besides the loopback ones; a request
    /// with any other `Origin` header is refused (browsers send one; other clients
    /// usually none).
    pub allowed_origins: Vec<String>,
}

impl McpHttpSection {
    pub fn validate(&self) -> Result<(), String> {
        if !self.listen.is_empty() {
            let addr = parse_listen(&self.listen)?;
            check_loopback(addr, self.allow_non_loopback)?;
        }
        if self.allowed_origins.len() > MAX_ALLOWED_ORIGINS {
            return Err(format!(
                "mcp_http.allowed_origins has {} entries; at most {MAX_ALLOWED_ORIGINS}",
                self.allowed_origins.len()
            ));
        }
        for o in &self.allowed_origins {
            if o.len() > MAX_ORIGIN_BYTES
                || !(o.starts_with("http://") || o.starts_with("https://"))
            {
                return Err(format!(
                    "mcp_http.allowed_origins: `{o}` is not an origin: expected scheme://host[:port], such as https://app.example.com"
                ));
            }
        }
        Ok(())
    }
}

/// `IP:PORT` (`127.0.0.1:8765`, `[::1]:8765`; port 0 picks a free one).
pub fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    text.parse().map_err(|_| {
        format!(
            "`{text}` is not an address to listen on: expected IP:PORT, such as 127.0.0.1:8765 or [::1]:8765"
        )
    })
}

/// Refuses a non-loopback address unless the config allows it explicitly.
pub fn check_loopback(addr: SocketAddr, allow_non_loopback: bool) -> Result<(), String> {
    if addr.ip().is_loopback() || allow_non_loopback {
        return Ok(());
    }
    Err(format!(
        "{addr} is not a loopback address: MCP over HTTP listens only on 127.0.0.1 or [::1] unless `allow_non_loopback = true` under [mcp_http]; to reach it from another machine, tunnel it with `ssh -L` (docs/mcp.md)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_unless_allowed() {
        let a = parse_listen("127.0.0.1:0").unwrap();
        assert!(check_loopback(a, false).is_ok());
        assert!(check_loopback(parse_listen("[::1]:9").unwrap(), false).is_ok());
        let wide = parse_listen("0.0.0.0:8765").unwrap();
        let e = check_loopback(wide, false).unwrap_err();
        assert!(e.contains("allow_non_loopback"), "{e}");
        assert!(check_loopback(wide, true).is_ok());
        assert!(parse_listen("localhost:80").is_err());
    }
}
