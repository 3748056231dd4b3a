//! Workload 3, MCP: `read_pane`, `send_input` and a `wait_for` wake-up through
//! `fugue mcp` over stdio (an rmcp client, as agents launch it), next to the
//! command-line reads of both multiplexers (`capture-pane -p`, a process per call).

use crate::Ctx;
use crate::mux::{Kind, Mux};
use crate::report::{Figure, Report, Stat};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

type Client = RunningService<RoleClient, ()>;

async fn launch(mux: &Mux) -> anyhow::Result<Client> {
    let base = mux.cli(&["mcp"]);
    let cmd = tokio::process::Command::new(base.get_program()).configure(|c| {
        c.args(base.get_args());
        for (k, v) in base.get_envs() {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
        c.stderr(std::process::Stdio::null());
    });
    Ok(().serve(TokioChildProcess::new(cmd)?).await?)
}

/// Calls a tool; milliseconds it took. A tool error is an error here.
async fn call(c: &Client, name: &str, args: Value) -> anyhow::Result<f64> {
    let Value::Object(map) = args else {
        anyhow::bail!("arguments must be an object");
    };
    let start = Instant::now();
    let r = c
        .call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(map))
        .await?;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    anyhow::ensure!(
        r.is_error != Some(true),
        "{name} failed: {:?}",
        r.structured_content
    );
    Ok(ms)
}

struct McpTimes {
    read: Vec<f64>,
    send: Vec<f64>,
    wake: Vec<f64>,
}

async fn measure(mux: &Mux, pane: &str, n: usize) -> anyhow::Result<McpTimes> {
    let a = launch(mux).await?;
    let b = launch(mux).await?;
    for _ in 0..10 {
        call(&a, "read_pane", json!({ "pane": pane })).await?;
    }
    let mut t = McpTimes {
        read: Vec::new(),
        send: Vec::new(),
        wake: Vec::new(),
    };
    for _ in 0..n {
        t.read
            .push(call(&a, "read_pane", json!({ "pane": pane })).await?);
    }
    for i in 0..n {
        let text = format!("typed{i}");
        t.send.push(
            call(
                &a,
                "send_input",
                json!({ "pane": pane, "text": text, "submit": true }),
            )
            .await?,
        );
    }
    // A wait on one connection, woken by input sent on another: from sending the
    // input to the wait's answer.
    for i in 0..n.div_ceil(2) {
        let marker = format!("wake{i}x");
        let waiter = {
            let peer = a.peer().clone();
            let args = json!({ "pane": pane, "text": marker, "timeout_ms": 10000 });
            tokio::spawn(async move {
                let Value::Object(map) = args else {
                    unreachable!()
                };
                let r = peer
                    .call_tool(
                        CallToolRequestParams::new("wait_for".to_string()).with_arguments(map),
                    )
                    .await;
                (Instant::now(), r)
            })
        };
        tokio::time::sleep(Duration::from_millis(30)).await;
        let start = Instant::now();
        call(
            &b,
            "send_input",
            json!({ "pane": pane, "text": marker, "submit": true }),
        )
        .await?;
        let (done, r) = waiter.await?;
        let r = r?;
        anyhow::ensure!(
            r.is_error != Some(true),
            "wait_for failed: {:?}",
            r.structured_content
        );
        t.wake
            .push(done.saturating_duration_since(start).as_secs_f64() * 1e3);
    }
    a.cancel().await?;
    b.cancel().await?;
    Ok(t)
}

/// Milliseconds of `capture-pane -p` as a process, per call.
fn cli_reads(mux: &Mux, pane: &str, n: usize) -> anyhow::Result<Vec<f64>> {
    (0..n)
        .map(|_| {
            let start = Instant::now();
            mux.capture(pane)?;
            Ok(start.elapsed().as_secs_f64() * 1e3)
        })
        .collect()
}

pub fn run(ctx: &Ctx, report: &mut Report) -> anyhow::Result<()> {
    let group =
        "3. MCP through `fugue mcp` over stdio (tmux column: `tmux capture-pane -p` as a process)";
    eprintln!("{group}");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut cli = ctx.samples();
    let mut mcp = None;
    for kind in ctx.order(0) {
        let mux = Mux::start(kind, &ctx.bins, &ctx.opts())?;
        let pane = mux.new_window("cat", true)?;
        // Something to read: a screenful of text.
        mux.run(&[
            "send-keys",
            "-t",
            &pane,
            "-l",
            &"some text on the screen ".repeat(300),
        ])?;
        std::thread::sleep(Duration::from_millis(200));
        cli.extend(kind, cli_reads(&mux, &pane, ctx.keys.min(100))?);
        if kind == Kind::Fugue {
            mcp = Some(rt.block_on(measure(&mux, &pane, ctx.keys))?);
        }
        mux.stop()?;
    }
    let (fugue_cli, tmux_cli) = cli.take();
    let Some(t) = mcp else {
        return Ok(());
    };
    for (stat, abs) in [(Stat::Median, 1.0), (Stat::P95, 5.0)] {
        report.add(
            Figure::new(group, "read_pane", "ms")
                .stat(stat)
                .abs(abs)
                .samples(t.read.clone(), tmux_cli.clone()),
        );
    }
    for stat in [Stat::Median, Stat::P95] {
        report.add(
            Figure::new(group, "send_input", "ms")
                .stat(stat)
                .samples(t.send.clone(), Vec::new()),
        );
    }
    for stat in [Stat::Median, Stat::P95] {
        report.add(
            Figure::new(group, "send_input -> wait_for wakes", "ms")
                .stat(stat)
                .samples(t.wake.clone(), Vec::new()),
        );
    }
    report.add(
        Figure::new(group, "capture-pane -p (CLI process)", "ms").samples(fugue_cli, tmux_cli),
    );
    Ok(())
}
